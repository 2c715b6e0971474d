//! Straight-line programs: what emitted code computes.
//!
//! A [`Program`] evaluates several named outputs from named inputs with binary operations only,
//! so its operation count is exact: one operation per [`Node`]. It is built from expressions by
//! hash-consing: structurally equal subexpressions — within one output or across outputs — become
//! one node (common-subexpression elimination across every output of a function). On the way:
//!
//! - integer powers become multiplications (binary powering: `x^4 = (x·x)·(x·x)`, 2 operations),
//!   negative powers a division, `^(1/2)` a square root;
//! - rational constants are folded into one literal per product;
//! - sums and products are ordered canonically (by their printed form, never by Symbolica's
//!   internal order), and commutative operands are ordered, so `a·b` and `b·a` share a node and
//!   the program is the same whatever order symbols were created in.
//!
//! Building from expressions is in `build`, forward differentiation in `differentiate`, and
//! equality saturation in the `egraph` module (`Program::optimised`).

mod build;
mod differentiate;
mod digits;
pub mod real;

pub use digits::decimal;

pub use real::{DoubleDouble, Real};

use crate::hash::FastMap;
use crate::Expr;

/// An operand of an operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operand {
    /// The `k`-th input.
    Input(usize),
    /// A rational constant.
    Constant(Literal),
    /// The value of the `k`-th node.
    Node(usize),
}

impl Operand {
    /// The constant `0`.
    pub fn zero() -> Operand {
        Operand::Constant(Literal::new("0", "1"))
    }

    /// Whether this is the constant `0` (a structural zero: nothing is evaluated).
    pub fn is_zero(&self) -> bool {
        matches!(self, Operand::Constant(c) if c.is_zero())
    }
}

/// A rational constant of a program, `numerator / denominator` as decimal digit strings
/// (denominator > 0). Operands that read it share it: cloning an operand, which programs do at
/// every step of building, differentiating and scheduling, copies a pointer, never digits. It
/// compares, orders and hashes as the pair of strings (numerator first), so every order that
/// reads operands is the one the strings give.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Literal(std::sync::Arc<(String, String)>);

impl Literal {
    /// `numerator / denominator`, written in decimal digits (denominator > 0).
    pub fn new(numerator: impl Into<String>, denominator: impl Into<String>) -> Literal {
        Literal(std::sync::Arc::new((numerator.into(), denominator.into())))
    }

    /// The numerator's decimal digits (with a sign when negative).
    pub fn numerator(&self) -> &str {
        &self.0 .0
    }

    /// The denominator's decimal digits.
    pub fn denominator(&self) -> &str {
        &self.0 .1
    }

    /// Whether this is `numerator / denominator` as written.
    pub fn is(&self, numerator: &str, denominator: &str) -> bool {
        self.numerator() == numerator && self.denominator() == denominator
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.numerator() == "0"
    }
}

/// A one-argument function the emitted code calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Call {
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `exp`
    Exp,
    /// `log`
    Log,
    /// `sqrt`
    Sqrt,
}

impl Call {
    /// The C (and Rust method) name.
    pub fn name(self) -> &'static str {
        match self {
            Call::Sin => "sin",
            Call::Cos => "cos",
            Call::Exp => "exp",
            Call::Log => "log",
            Call::Sqrt => "sqrt",
        }
    }
}

/// One operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    /// `a + b`
    Add(Operand, Operand),
    /// `a − b`
    Sub(Operand, Operand),
    /// `a · b`
    Mul(Operand, Operand),
    /// `a / b`
    Div(Operand, Operand),
    /// `−a`
    Neg(Operand),
    /// `f(a)`
    Call(Call, Operand),
    /// `a ^ b` for a non-integer constant `b` other than `1/2`.
    Pow(Operand, Operand),
}

impl Node {
    /// The operands, in order.
    pub fn operands(&self) -> impl DoubleEndedIterator<Item = &Operand> {
        let (a, b) = match self {
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Pow(a, b) => (a, Some(b)),
            Node::Neg(a) | Node::Call(_, a) => (a, None),
        };
        std::iter::once(a).chain(b)
    }
}

/// Operation counts by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCount {
    /// Additions and subtractions.
    pub add: usize,
    /// Multiplications.
    pub mul: usize,
    /// Divisions.
    pub div: usize,
    /// Negations.
    pub neg: usize,
    /// Function calls and general powers.
    pub call: usize,
}

impl OpCount {
    /// All operations.
    pub fn total(&self) -> usize {
        self.add + self.mul + self.div + self.neg + self.call
    }
}

/// A symbol the program was asked to read that is not one of its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownInput(pub String);

/// A straight-line program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Input symbol names, in argument order.
    pub inputs: Vec<String>,
    /// The operations, each using only earlier nodes.
    pub nodes: Vec<Node>,
    /// Named outputs.
    pub outputs: Vec<(String, Operand)>,
    /// The denominators divided by, as expressions, in order of first use.
    pub denominators: Vec<Expr>,
    /// For each division node, the position of its denominator in `denominators`.
    pub division_of: std::collections::BTreeMap<usize, usize>,
    interned: FastMap<Node, usize>,
    /// Whether `interned` is still to be filled from `nodes` (a renumbered program's is).
    interned_unfilled: bool,
    /// Expressions already built, so a subexpression shared by several outputs is walked once.
    built: build::Memo<Operand>,
    /// Structural keys of expressions (see [`Program::key`]), cached.
    keys: build::Memo<u64>,
    /// Symbols bound to values computed by the program ([`Program::bind`]).
    bound: FastMap<String, Operand>,
}

impl Program {
    /// A program reading `inputs`.
    pub fn new(inputs: Vec<String>) -> Program {
        Program {
            inputs,
            ..Program::default()
        }
    }

    /// Adds an output computing `value`.
    pub fn output(&mut self, name: impl Into<String>, value: &Expr) -> Result<(), UnknownInput> {
        let _stage = timing::stage("cse");
        let operand = self.build(value)?;
        self.outputs.push((name.into(), operand));
        Ok(())
    }

    /// Binds the symbol `name` to `value`: later expressions read it as that value (a `let` of a
    /// straight-line program written as a recursion, such as the articulated-body algorithm).
    pub fn bind(&mut self, name: &str, value: &Expr) -> Result<(), UnknownInput> {
        let _stage = timing::stage("cse");
        let operand = self.build(value)?;
        self.bound.insert(name.to_string(), operand);
        Ok(())
    }

    /// Operation counts.
    pub fn op_count(&self) -> OpCount {
        let mut count = OpCount::default();
        for node in &self.nodes {
            match node {
                Node::Add(..) | Node::Sub(..) => count.add += 1,
                Node::Mul(..) => count.mul += 1,
                Node::Div(..) => count.div += 1,
                Node::Neg(..) => count.neg += 1,
                Node::Call(..) | Node::Pow(..) => count.call += 1,
            }
        }
        count
    }

    /// How many times each node is used (by nodes and outputs).
    pub fn uses(&self) -> Vec<usize> {
        let mut uses = vec![0; self.nodes.len()];
        let mut count = |o: &Operand| {
            if let Operand::Node(k) = o {
                uses[*k] += 1;
            }
        };
        for node in &self.nodes {
            node.operands().for_each(&mut count);
        }
        for (_, o) in &self.outputs {
            count(o);
        }
        uses
    }

    /// The program computing only the outputs `keep` accepts (renamed to what it returns), without
    /// the nodes they do not need: several functions are cut from one program built once.
    pub fn select(&self, keep: &dyn Fn(&str) -> Option<String>) -> Program {
        let outputs: Vec<(String, Operand)> = self
            .outputs
            .iter()
            .filter_map(|(name, o)| keep(name).map(|n| (n, o.clone())))
            .collect();
        let order = self.dependency_order(&outputs);
        let mut live = vec![false; self.nodes.len()];
        for k in order {
            live[k] = true;
        }
        let kept: Vec<usize> = (0..self.nodes.len()).filter(|k| live[*k]).collect();
        self.renumbered(&kept, outputs)
    }

    /// Whether this program is plain data: it holds no expression (no denominators, and nothing
    /// built from or keyed by an expression, as in a program cut by [`Program::select`]), and no
    /// node whose derivative divides (a division, a power, a logarithm, a square root: the
    /// denominators of a program are kept as expressions). Then [`Program::select`],
    /// [`Program::scheduled_within`] and [`Program::jacobian_within`] of it, and of what they
    /// return, create, read, copy and drop no expression and call nothing of the CAS: they are
    /// work on plain data, which may run on another thread while the one thread that uses the
    /// CAS goes on.
    pub fn is_plain(&self) -> bool {
        let divides = |node: &Node| {
            matches!(
                node,
                Node::Div(..) | Node::Pow(..) | Node::Call(Call::Log | Call::Sqrt, _)
            )
        };
        self.denominators.is_empty()
            && self.division_of.is_empty()
            && self.built.is_empty()
            && self.keys.is_empty()
            && !self.nodes.iter().any(divides)
    }

    /// How many operations the outputs need: the [`Program::op_count`] total of the program
    /// [`Program::select`] would cut for every output, without building it.
    pub fn needed_operations(&self) -> usize {
        self.dependency_order(&self.outputs).len()
    }

    /// The same program with every node placed just before its first use: operands first,
    /// depth-first, outputs in order. Values then live briefly, which is what a C compiler's
    /// register allocator needs to stay fast on long straight-line functions (the emitted code
    /// also assigns each output right after its value; see `emit::code::program_statements`).
    pub fn scheduled(&self) -> Program {
        self.scheduled_within(usize::MAX)
            .expect("no program needs more than usize::MAX operations")
    }

    /// [`Program::scheduled`], or `None` when the outputs need more than `limit` operations
    /// ([`Program::needed_operations`]). Scheduling cuts what no output needs, as
    /// [`Program::select`] does: a program selected and then scheduled is this one scheduled.
    pub fn scheduled_within(&self, limit: usize) -> Option<Program> {
        let order = self.dependency_order(&self.outputs);
        (order.len() <= limit).then(|| self.renumbered(&order, self.outputs.clone()))
    }

    /// The nodes the outputs need, each after its operands, in depth-first order of the outputs.
    fn dependency_order(&self, outputs: &[(String, Operand)]) -> Vec<usize> {
        let mut placed = vec![false; self.nodes.len()];
        let mut order = Vec::new();
        for (_, o) in outputs {
            let Operand::Node(root) = o else { continue };
            let mut stack = vec![(*root, false)];
            while let Some((k, expanded)) = stack.pop() {
                if placed[k] {
                    continue;
                }
                if expanded {
                    placed[k] = true;
                    order.push(k);
                    continue;
                }
                stack.push((k, true));
                // Pushed in reverse so that the first operand is computed first.
                for operand in self.nodes[k].operands().rev() {
                    if let Operand::Node(j) = operand {
                        if !placed[*j] {
                            stack.push((*j, false));
                        }
                    }
                }
            }
        }
        order
    }

    /// A program with the nodes `order` (each after its operands) renumbered in that order. Its
    /// table of interned nodes is left empty: most cut programs are printed, never built on, and
    /// one that is built on fills it first ([`Program::intern`]).
    fn renumbered(&self, order: &[usize], outputs: Vec<(String, Operand)>) -> Program {
        let mut renumber = vec![usize::MAX; self.nodes.len()];
        let mut out = Program::new(self.inputs.clone());
        out.nodes.reserve_exact(order.len());
        out.interned_unfilled = true;
        let map = |o: &Operand, renumber: &[usize]| match o {
            Operand::Node(k) => Operand::Node(renumber[*k]),
            other => other.clone(),
        };
        for &k in order {
            let r = |o: &Operand| map(o, &renumber);
            let new = match &self.nodes[k] {
                Node::Add(a, b) => Node::Add(r(a), r(b)),
                Node::Sub(a, b) => Node::Sub(r(a), r(b)),
                Node::Mul(a, b) => Node::Mul(r(a), r(b)),
                Node::Div(a, b) => Node::Div(r(a), r(b)),
                Node::Pow(a, b) => Node::Pow(r(a), r(b)),
                Node::Neg(a) => Node::Neg(r(a)),
                Node::Call(c, a) => Node::Call(*c, r(a)),
            };
            renumber[k] = out.nodes.len();
            if let Some(&d) = self.division_of.get(&k) {
                let expr = &self.denominators[d];
                let position = match out.denominators.iter().position(|e| e == expr) {
                    Some(p) => p,
                    None => {
                        out.denominators.push(expr.clone());
                        out.denominators.len() - 1
                    }
                };
                out.division_of.insert(out.nodes.len(), position);
            }
            out.nodes.push(new);
        }
        out.outputs = outputs
            .into_iter()
            .map(|(n, o)| (n, map(&o, &renumber)))
            .collect();
        out
    }

    pub(crate) fn push_node(&mut self, node: Node) -> Operand {
        self.intern(node)
    }

    pub(crate) fn push_output(&mut self, name: String, operand: Operand) {
        self.outputs.push((name, operand));
    }

    /// The expression an operand computes.
    pub fn expr_of(&self, o: &Operand) -> Expr {
        match o {
            Operand::Input(k) => Expr::symbol(&self.inputs[*k]),
            Operand::Constant(c) => {
                Expr::from_decimal(c.numerator()).unwrap_or_else(Expr::zero)
                    / Expr::from_decimal(c.denominator()).unwrap_or_else(Expr::one)
            }
            Operand::Node(k) => match &self.nodes[*k] {
                Node::Add(a, b) => self.expr_of(a) + self.expr_of(b),
                Node::Sub(a, b) => self.expr_of(a) - self.expr_of(b),
                Node::Mul(a, b) => self.expr_of(a) * self.expr_of(b),
                Node::Div(a, b) => self.expr_of(a) / self.expr_of(b),
                Node::Neg(a) => -self.expr_of(a),
                Node::Pow(a, b) => self.expr_of(a).pow(&self.expr_of(b)),
                Node::Call(c, a) => {
                    let x = self.expr_of(a);
                    match c {
                        Call::Sin => Expr::apply(crate::Func::Sin, x),
                        Call::Cos => Expr::apply(crate::Func::Cos, x),
                        Call::Exp => Expr::apply(crate::Func::Exp, x),
                        Call::Log => Expr::apply(crate::Func::Log, x),
                        Call::Sqrt => Expr::apply(crate::Func::Sqrt, x),
                    }
                }
            },
        }
    }

    /// Rebuilds `denominators` and `division_of` from the division nodes.
    pub(crate) fn recompute_denominators(&mut self) {
        self.denominators.clear();
        self.division_of.clear();
        for k in 0..self.nodes.len() {
            if let Node::Div(_, b) = &self.nodes[k] {
                let expr = self.expr_of(&b.clone()).factored();
                let position = match self.denominators.iter().position(|d| *d == expr) {
                    Some(p) => p,
                    None => {
                        self.denominators.push(expr);
                        self.denominators.len() - 1
                    }
                };
                self.division_of.insert(k, position);
            }
        }
    }

    /// Evaluates the program at `inputs` (in input order), in `f64`: the outputs in order.
    pub fn evaluate(&self, inputs: &[f64]) -> Vec<f64> {
        self.evaluate_in(inputs)
    }

    /// Evaluates the program at `inputs` in the arithmetic `T` (`f64`, or [`DoubleDouble`] where
    /// a double is not enough).
    pub fn evaluate_in<T: Real>(&self, inputs: &[T]) -> Vec<T> {
        let mut values: Vec<T> = Vec::with_capacity(self.nodes.len());
        let read = |o: &Operand, values: &[T]| -> T {
            match o {
                Operand::Input(k) => inputs[*k],
                Operand::Constant(c) => T::ratio(c.numerator(), c.denominator()),
                Operand::Node(k) => values[*k],
            }
        };
        for node in &self.nodes {
            let v = match node {
                Node::Add(a, b) => read(a, &values) + read(b, &values),
                Node::Sub(a, b) => read(a, &values) - read(b, &values),
                Node::Mul(a, b) => read(a, &values) * read(b, &values),
                Node::Div(a, b) => read(a, &values) / read(b, &values),
                Node::Neg(a) => -read(a, &values),
                Node::Pow(a, b) => read(a, &values).powf(read(b, &values)),
                Node::Call(f, a) => {
                    let x = read(a, &values);
                    match f {
                        Call::Sin => x.sin(),
                        Call::Cos => x.cos(),
                        Call::Exp => x.exp(),
                        Call::Log => x.ln(),
                        Call::Sqrt => x.sqrt(),
                    }
                }
            };
            values.push(v);
        }
        self.outputs.iter().map(|(_, o)| read(o, &values)).collect()
    }
}

/// The double nearest a rational constant (decimal digit strings of any length).
pub fn constant_value(numerator: &str, denominator: &str) -> f64 {
    <f64 as Real>::ratio(numerator, denominator)
}

impl Expr {
    /// The value in `f64` at the given symbol values (`None` if a symbol has no value).
    pub fn evaluate(&self, values: &std::collections::BTreeMap<String, f64>) -> Option<f64> {
        self.evaluate_in(values)
    }

    /// The value in the arithmetic `T` at the given symbol values (`None` if a symbol has no
    /// value).
    pub fn evaluate_in<T: Real>(
        &self,
        values: &std::collections::BTreeMap<String, T>,
    ) -> Option<T> {
        let names: Vec<String> = values.keys().cloned().collect();
        let mut program = Program::new(names);
        program.output("value", self).ok()?;
        let inputs: Vec<T> = values.values().copied().collect();
        program.evaluate_in(&inputs).first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

    /// Literals order and hash as the pairs of strings they hold, so the canonical order of
    /// commutative operands (and every map keyed by nodes) is the one the strings gave.
    #[test]
    fn literals_order_and_hash_as_their_strings() {
        use std::hash::{BuildHasher, RandomState};
        let pairs = [
            ("1", "2"),
            ("10", "3"),
            ("-1", "1"),
            ("9", "1"),
            ("1", "10"),
            ("0", "1"),
            ("1", "1"),
        ];
        let mut literals: Vec<Literal> = pairs.iter().map(|&(n, d)| Literal::new(n, d)).collect();
        let mut strings: Vec<(String, String)> =
            pairs.iter().map(|&(n, d)| (n.into(), d.into())).collect();
        literals.sort();
        strings.sort();
        let read: Vec<(String, String)> = literals
            .iter()
            .map(|l| (l.numerator().into(), l.denominator().into()))
            .collect();
        assert_eq!(read, strings);
        let hasher = RandomState::new();
        for (n, d) in pairs {
            assert_eq!(
                hasher.hash_one(Literal::new(n, d)),
                hasher.hash_one((n.to_string(), d.to_string()))
            );
        }
        assert!(Literal::new("0", "1").is_zero());
        assert!(Operand::zero().is_zero());
        assert!(!Operand::Constant(Literal::new("1", "2")).is_zero());
        assert!(!Operand::Input(0).is_zero() && !Operand::Node(0).is_zero());
        assert!(Literal::new("1", "2").is("1", "2"));
        assert!(!Literal::new("1", "2").is("2", "1"));
    }

    /// A program cut from a built one, without a node whose derivative divides, is plain, and so
    /// are its Jacobian and its schedule; a division, a power, a logarithm or a square root, or
    /// the expressions a built program holds, make it not.
    #[test]
    fn plain_programs_hold_no_expression() {
        let (x, y) = (s("x"), s("y"));
        let mut built = Program::new(vec!["x".into(), "y".into()]);
        built
            .output(
                "a",
                &(Expr::apply(Func::Sin, x.clone() * y.clone()) + x.clone()),
            )
            .unwrap();
        assert!(!built.is_plain(), "a built program keeps its expressions");
        let cut = built.select(&|name| Some(name.to_string()));
        assert!(cut.is_plain());
        let jacobian = cut.jacobian_within("d", &[0, 1], usize::MAX).unwrap();
        assert!(jacobian.is_plain() && jacobian.scheduled().is_plain());
        for divides in [
            x.clone() / (Expr::one() + y.clone()),
            Expr::apply(Func::Log, x.clone()),
            Expr::apply(Func::Sqrt, x.clone() + y.clone()),
            x.pow(&Expr::rational(3, 2)),
        ] {
            let mut p = Program::new(vec!["x".into(), "y".into()]);
            p.output("a", &divides).unwrap();
            let cut = p.select(&|name| Some(name.to_string()));
            assert!(!cut.is_plain(), "{divides} divides");
        }
    }

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn shared_subexpressions_and_exact_counts() {
        let (x, y) = (s("x"), s("y"));
        let shared = Expr::apply(Func::Sin, x.clone() * y.clone());
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        p.output("a", &(shared.clone() + x.powi(4))).unwrap();
        p.output("b", &(shared / y.clone())).unwrap();
        // x*y, sin, x^2, x^4, +, /  → 6 operations; sin(x*y) computed once.
        assert_eq!(p.op_count().total(), 6, "{:?}", p.nodes);
        let values = p.evaluate(&[0.3, 1.7]);
        assert!((values[0] - ((0.3f64 * 1.7).sin() + 0.3f64.powi(4))).abs() < 1e-15);
        assert!((values[1] - (0.3f64 * 1.7).sin() / 1.7).abs() < 1e-15);
        assert_eq!(p.denominators, vec![y]);
    }

    #[test]
    fn needed_operations_count_what_the_outputs_use() {
        let (x, y) = (s("x"), s("y"));
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        p.output("a", &Expr::apply(Func::Sin, x.clone() * y.clone()))
            .unwrap();
        p.output("b", &(x.clone() + y.clone())).unwrap();
        // x*y, sin, x+y.
        assert_eq!(p.needed_operations(), 3);
        // Without `b`, its addition is left in the nodes but not needed: x*y and sin.
        p.outputs.truncate(1);
        assert_eq!(p.op_count().total(), 3);
        assert_eq!(p.needed_operations(), 2);
        let cut = p.select(&|name| Some(name.to_string()));
        assert_eq!(cut.op_count().total(), 2);
    }

    #[test]
    fn equality_saturation_factors_and_keeps_the_values() {
        let (a, b, c, d) = (s("a"), s("b"), s("c"), s("d"));
        // a*b + a*c + a*d: 5 operations as written, 3 as a*(b + c + d).
        let e = a.clone() * b.clone() + a.clone() * c.clone() + a.clone() * d.clone();
        let mut p = Program::new(vec!["a".into(), "b".into(), "c".into(), "d".into()]);
        p.output("out", &e).unwrap();
        assert_eq!(p.op_count().total(), 5);
        let before = p.evaluate(&[0.3, 1.1, -0.7, 2.5]);
        let q = p.optimised();
        assert_eq!(q.op_count().total(), 3, "{:?}", q.nodes);
        let after = q.evaluate(&[0.3, 1.1, -0.7, 2.5]);
        assert!((before[0] - after[0]).abs() < 1e-15);
        assert!((q.expr_of(&q.outputs[0].1) - e).is_zero());
    }

    /// Two functions of `x` and `y` with every rule of the differentiation, and their program.
    fn differentiated_sample() -> (Vec<Expr>, Program) {
        let (x, y) = (s("x"), s("y"));
        let outputs = vec![
            Expr::apply(Func::Sin, x.clone() * y.clone()) / (Expr::one() + y.powi(2)),
            Expr::apply(Func::Exp, x.clone()) * Expr::apply(Func::Sqrt, y.clone())
                - Expr::apply(Func::Log, x.clone() + y.clone())
                + Expr::apply(Func::Cos, y.clone()) * x.pow(&Expr::rational(3, 2)),
        ];
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        for (i, e) in outputs.iter().enumerate() {
            p.output(format!("f[{i}]"), e).unwrap();
        }
        (outputs, p)
    }

    /// A Jacobian is refused within a limit exactly when it needs more operations than the
    /// limit (every node of the sample reaches an output, so the count of what the derivatives
    /// read is exact); one allowed is the Jacobian itself.
    #[test]
    fn a_jacobian_is_refused_within_a_limit_exactly_when_it_needs_more_operations() {
        let (_, p) = differentiated_sample();
        let full = p.jacobian("jac", &[0, 1]);
        let needed = full.needed_operations();
        // The derivatives alone are fewer: the values they read count too.
        let derivative_nodes = full.nodes.len() - p.nodes.len();
        assert!(derivative_nodes < needed);
        for limit in 0..=needed + 2 {
            match p.jacobian_within("jac", &[0, 1], limit) {
                None => assert!(needed > limit, "refused at {limit}, needs {needed}"),
                Some(jac) => {
                    assert!(needed <= limit, "allowed at {limit}, needs {needed}");
                    assert_eq!(jac.nodes, full.nodes);
                    assert_eq!(jac.outputs, full.outputs);
                }
            }
        }
    }

    /// Scheduling cuts what no output needs: selecting first changes nothing, divisions and
    /// their denominators included, and a limit below the needed operations refuses.
    #[test]
    fn a_selected_program_schedules_as_the_program_does() {
        let (x, y) = (s("x"), s("y"));
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        p.output(
            "a",
            &(Expr::apply(Func::Sin, x.clone()) / (Expr::one() + y.clone())),
        )
        .unwrap();
        p.output("dead", &(x.clone() / (x.clone() + y.clone()) + y.clone()))
            .unwrap();
        p.output("b", &((x.clone() * y.clone()) / (Expr::one() + x.clone())))
            .unwrap();
        // `dead` is dropped: its nodes stay, and nothing needs them.
        p.outputs.remove(1);
        let direct = p.scheduled();
        let cut = p.select(&|name| Some(name.to_string())).scheduled();
        assert_eq!(direct.nodes, cut.nodes);
        assert_eq!(direct.outputs, cut.outputs);
        assert_eq!(direct.denominators, cut.denominators);
        assert_eq!(direct.division_of, cut.division_of);
        assert_eq!(direct.denominators.len(), 2);
        let needed = p.needed_operations();
        assert!(needed < p.op_count().total());
        assert!(p.scheduled_within(needed - 1).is_none());
        assert_eq!(p.scheduled_within(needed).unwrap().nodes, direct.nodes);
    }

    #[test]
    fn forward_differentiation_matches_symbolic_derivatives() {
        let (outputs, p) = differentiated_sample();
        let jac = p.jacobian("jac", &[0, 1]);
        let point = [0.7, 1.9];
        let values = jac.evaluate(&point);
        let at = std::collections::BTreeMap::from([("x".to_string(), 0.7), ("y".to_string(), 1.9)]);
        for (i, e) in outputs.iter().enumerate() {
            for (j, v) in ["x", "y"].iter().enumerate() {
                let expected = e.diff(v).evaluate(&at).unwrap();
                let got = values[i * 2 + j];
                assert!(
                    (got - expected).abs() <= 1e-13 * expected.abs().max(1.0),
                    "d f{i}/d{v}: {got} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn unknown_symbols_are_reported() {
        let mut p = Program::new(vec!["x".into()]);
        assert_eq!(p.output("a", &s("z")), Err(UnknownInput("z".into())));
    }
}
