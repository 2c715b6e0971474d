//! Equality saturation over a straight-line program (egg): fewer operations for emitted code.
//!
//! Every output of a [`Program`] is added to one e-graph (so rewrites found for one output serve
//! the others), rewritten with identities of real arithmetic — commutativity, associativity,
//! factoring `a·b ± a·c = a·(b ± c)`, fractions over a common denominator, `a·(b/c) = (a·b)/c`, and
//! sign rules — for a bounded number of iterations and e-nodes (never wall time, so the result is
//! deterministic), then each output is extracted with the operation-count cost and the program is
//! rebuilt, hash-consing the extracted trees so that common subexpressions are shared again.
//! The rewritten program is kept only when it has fewer operations.

use egg::{
    define_language, rewrite as rw, CostFunction, EGraph, Extractor, Id, Language, RecExpr,
    Rewrite, Runner, StopReason, Symbol,
};

use crate::program::{Call, Literal, Node, Operand, Program};

define_language! {
    /// The arithmetic of straight-line programs. Leaves are inputs (`$k`) and rational constants
    /// (`#n/d`).
    enum Math {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "/" = Div([Id; 2]),
        "neg" = Neg(Id),
        "pow" = Pow([Id; 2]),
        "sin" = Sin(Id),
        "cos" = Cos(Id),
        "exp" = Exp(Id),
        "log" = Log(Id),
        "sqrt" = Sqrt(Id),
        Leaf(Symbol),
    }
}

fn rules() -> Vec<Rewrite<Math, ()>> {
    vec![
        rw!("comm-add"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("comm-mul"; "(* ?a ?b)" => "(* ?b ?a)"),
        rw!("assoc-add"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("assoc-mul"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rw!("assoc-mul-back"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
        rw!("factor-add"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
        rw!("factor-sub"; "(- (* ?a ?b) (* ?a ?c))" => "(* ?a (- ?b ?c))"),
        rw!("common-denominator-add"; "(+ (/ ?a ?c) (/ ?b ?c))" => "(/ (+ ?a ?b) ?c)"),
        rw!("common-denominator-sub"; "(- (/ ?a ?c) (/ ?b ?c))" => "(/ (- ?a ?b) ?c)"),
        rw!("mul-div"; "(* ?a (/ ?b ?c))" => "(/ (* ?a ?b) ?c)"),
        rw!("sub-neg"; "(- ?a (neg ?b))" => "(+ ?a ?b)"),
        rw!("add-neg"; "(+ ?a (neg ?b))" => "(- ?a ?b)"),
        rw!("neg-neg"; "(neg (neg ?a))" => "?a"),
        rw!("neg-mul"; "(* (neg ?a) ?b)" => "(neg (* ?a ?b))"),
        rw!("neg-div"; "(/ (neg ?a) ?b)" => "(neg (/ ?a ?b))"),
        rw!("neg-sub"; "(neg (- ?a ?b))" => "(- ?b ?a)"),
        rw!("neg-then-sub"; "(- (neg ?a) ?b)" => "(neg (+ ?a ?b))"),
    ]
}

thread_local! {
    /// The rules, their patterns parsed once per thread.
    static RULES: Vec<Rewrite<Math, ()>> = rules();
}

/// One operation per interior node; leaves are free.
struct OpCount;

impl CostFunction<Math> for OpCount {
    type Cost = usize;
    fn cost<C>(&mut self, enode: &Math, mut costs: C) -> usize
    where
        C: FnMut(Id) -> usize,
    {
        let own = usize::from(!matches!(enode, Math::Leaf(_)));
        enode.fold(own, |sum, id| sum.saturating_add(costs(id)))
    }
}

fn leaf(o: &Operand) -> Math {
    match o {
        Operand::Input(k) => Math::Leaf(Symbol::from(format!("${k}"))),
        Operand::Constant(c) => Math::Leaf(Symbol::from(format!(
            "#{}/{}",
            c.numerator(),
            c.denominator()
        ))),
        Operand::Node(_) => unreachable!("nodes are not leaves"),
    }
}

fn operand_of(leaf: &str) -> Operand {
    if let Some(k) = leaf.strip_prefix('$') {
        return Operand::Input(k.parse().expect("input leaf"));
    }
    let (n, d) = leaf
        .strip_prefix('#')
        .and_then(|c| c.split_once('/'))
        .expect("constant leaf");
    Operand::Constant(Literal::new(n, d))
}

/// The limits of one saturation run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rewrite iterations.
    pub iterations: usize,
    /// E-nodes.
    pub nodes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            iterations: 8,
            nodes: 20_000,
        }
    }
}

/// How a saturation run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// No rewrite applied any more: the e-graph holds every equal form the rules reach.
    Saturated,
    /// The iteration budget ([`Limits::iterations`], `--egraph-iters`) was spent.
    Iterations,
    /// The e-node budget ([`Limits::nodes`], `--egraph-nodes`) was reached.
    Nodes,
}

/// The program rewritten by equality saturation, if that has fewer operations, and how the
/// saturation ended.
pub fn optimise(program: &Program, limits: Limits) -> (Option<Program>, Stop) {
    let _stage = timing::stage("e-graph");
    let mut egraph: EGraph<Math, ()> = EGraph::default();
    let mut ids: Vec<Id> = Vec::with_capacity(program.nodes.len());
    let id_of = |o: &Operand, egraph: &mut EGraph<Math, ()>, ids: &[Id]| -> Id {
        match o {
            Operand::Node(k) => ids[*k],
            leafy => egraph.add(leaf(leafy)),
        }
    };
    for node in &program.nodes {
        let enode = match node {
            Node::Add(a, b) => {
                Math::Add([id_of(a, &mut egraph, &ids), id_of(b, &mut egraph, &ids)])
            }
            Node::Sub(a, b) => {
                Math::Sub([id_of(a, &mut egraph, &ids), id_of(b, &mut egraph, &ids)])
            }
            Node::Mul(a, b) => {
                Math::Mul([id_of(a, &mut egraph, &ids), id_of(b, &mut egraph, &ids)])
            }
            Node::Div(a, b) => {
                Math::Div([id_of(a, &mut egraph, &ids), id_of(b, &mut egraph, &ids)])
            }
            Node::Pow(a, b) => {
                Math::Pow([id_of(a, &mut egraph, &ids), id_of(b, &mut egraph, &ids)])
            }
            Node::Neg(a) => Math::Neg(id_of(a, &mut egraph, &ids)),
            Node::Call(c, a) => {
                let a = id_of(a, &mut egraph, &ids);
                match c {
                    Call::Sin => Math::Sin(a),
                    Call::Cos => Math::Cos(a),
                    Call::Exp => Math::Exp(a),
                    Call::Log => Math::Log(a),
                    Call::Sqrt => Math::Sqrt(a),
                }
            }
        };
        ids.push(egraph.add(enode));
    }
    let roots: Vec<Id> = program
        .outputs
        .iter()
        .map(|(_, o)| id_of(o, &mut egraph, &ids))
        .collect();
    let runner = Runner::default()
        .with_egraph(egraph)
        .with_iter_limit(limits.iterations)
        .with_node_limit(limits.nodes);
    let runner = without_clock(|| RULES.with(|rules| runner.run(rules)));
    let stop = match runner.stop_reason {
        Some(StopReason::IterationLimit(_)) => Stop::Iterations,
        Some(StopReason::NodeLimit(_)) => Stop::Nodes,
        _ => Stop::Saturated,
    };
    let extractor = Extractor::new(&runner.egraph, OpCount);
    let mut rebuilt = Program::new(program.inputs.clone());
    for ((name, _), root) in program.outputs.iter().zip(&roots) {
        let (_, best) = extractor.find_best(*root);
        let operand = rebuild(&mut rebuilt, &best);
        rebuilt.push_output(name.clone(), operand);
    }
    rebuilt.recompute_denominators();
    let smaller = rebuilt.op_count().total() < program.op_count().total();
    (smaller.then_some(rebuilt), stop)
}

/// `run` with egg's clock stopped. egg reads the time for its time limit and its reports; on its
/// first reading the clock it uses (quanta) calibrates the processor's counter against the
/// system clock, a busy loop of half a millisecond or more. A mock clock that never advances is
/// never calibrated, and it makes the time limit unreachable: a saturation is bounded by
/// iterations and e-nodes alone, and its result cannot depend on how fast the machine is.
fn without_clock<T>(run: impl FnOnce() -> T) -> T {
    let (stopped, _) = quanta::Clock::mock();
    quanta::with_clock(&stopped, run)
}

/// Interns an extracted tree into `program`.
fn rebuild(program: &mut Program, tree: &RecExpr<Math>) -> Operand {
    let mut operands: Vec<Operand> = Vec::with_capacity(tree.as_ref().len());
    for enode in tree.as_ref() {
        let o = |id: &Id| operands[usize::from(*id)].clone();
        let operand = match enode {
            Math::Leaf(s) => operand_of(s.as_str()),
            Math::Add([a, b]) => program.push_node(Node::Add(o(a), o(b))),
            Math::Sub([a, b]) => program.push_node(Node::Sub(o(a), o(b))),
            Math::Mul([a, b]) => program.push_node(Node::Mul(o(a), o(b))),
            Math::Div([a, b]) => program.push_node(Node::Div(o(a), o(b))),
            Math::Pow([a, b]) => program.push_node(Node::Pow(o(a), o(b))),
            Math::Neg(a) => program.push_node(Node::Neg(o(a))),
            Math::Sin(a) => program.push_node(Node::Call(Call::Sin, o(a))),
            Math::Cos(a) => program.push_node(Node::Call(Call::Cos, o(a))),
            Math::Exp(a) => program.push_node(Node::Call(Call::Exp, o(a))),
            Math::Log(a) => program.push_node(Node::Call(Call::Log, o(a))),
            Math::Sqrt(a) => program.push_node(Node::Call(Call::Sqrt, o(a))),
        };
        operands.push(operand);
    }
    operands.pop().expect("a non-empty tree")
}

impl Program {
    /// The program after equality saturation ([`crate::egraph`]) when that saves operations,
    /// else the program itself.
    pub fn optimised(self) -> Program {
        self.optimised_within(Limits::default()).0
    }

    /// [`Program::optimised`] with explicit bounds on the saturation, and how it ended.
    pub fn optimised_within(self, limits: Limits) -> (Program, Stop) {
        match optimise(&self, limits) {
            (Some(better), stop) => (better, stop),
            (None, stop) => (self, stop),
        }
    }
}
