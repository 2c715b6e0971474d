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

use std::collections::HashMap;

use crate::{Expr, View};

/// An operand of an operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operand {
    /// The `k`-th input.
    Input(usize),
    /// A rational constant `numerator / denominator` (decimal digit strings; denominator > 0).
    Constant(String, String),
    /// The value of the `k`-th node.
    Node(usize),
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
    interned: HashMap<Node, usize>,
    /// Expressions already built, so a subexpression shared by several outputs is walked once.
    built: HashMap<Expr, Operand>,
    /// Structural keys of expressions (see [`Program::key`]), cached.
    keys: HashMap<Expr, u64>,
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
        let operand = self.build(value)?;
        self.outputs.push((name.into(), operand));
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
            match node {
                Node::Add(a, b)
                | Node::Sub(a, b)
                | Node::Mul(a, b)
                | Node::Div(a, b)
                | Node::Pow(a, b) => {
                    count(a);
                    count(b);
                }
                Node::Neg(a) | Node::Call(_, a) => count(a),
            }
        }
        for (_, o) in &self.outputs {
            count(o);
        }
        uses
    }

    fn intern(&mut self, node: Node) -> Operand {
        let node = match node {
            Node::Add(a, b) if b < a => Node::Add(b, a),
            Node::Mul(a, b) if b < a => Node::Mul(b, a),
            other => other,
        };
        if let Some(&k) = self.interned.get(&node) {
            return Operand::Node(k);
        }
        self.nodes.push(node.clone());
        self.interned.insert(node, self.nodes.len() - 1);
        Operand::Node(self.nodes.len() - 1)
    }

    fn constant(n: &str, d: &str) -> Operand {
        Operand::Constant(n.to_string(), d.to_string())
    }

    fn is_one(o: &Operand) -> bool {
        matches!(o, Operand::Constant(n, d) if n == "1" && d == "1")
    }

    fn build(&mut self, e: &Expr) -> Result<Operand, UnknownInput> {
        if let Some(o) = self.built.get(e) {
            return Ok(o.clone());
        }
        let o = self.build_new(e)?;
        self.built.insert(e.clone(), o.clone());
        Ok(o)
    }

    /// A key that depends only on the structure and the names in `e` (never on Symbolica's
    /// internal order of terms, which depends on the order symbols were created in), so that
    /// sorting by it makes programs identical whatever else the process derived before.
    fn key(&mut self, e: &Expr) -> u64 {
        if let Some(&k) = self.keys.get(e) {
            return k;
        }
        let mut h = Fnv::new();
        match e.view() {
            View::Number {
                numerator,
                denominator,
            } => {
                h.write(b"n");
                h.write(numerator.as_bytes());
                h.write(b"/");
                h.write(denominator.as_bytes());
            }
            View::Symbol(name) => {
                h.write(b"s");
                h.write(name.as_bytes());
            }
            View::Call(name, args) => {
                h.write(b"c");
                h.write(name.as_bytes());
                for a in &args {
                    let k = self.key(a);
                    h.write(&k.to_le_bytes());
                }
            }
            View::Pow(base, exponent) => {
                h.write(b"p");
                let (b, x) = (self.key(&base), self.key(&exponent));
                h.write(&b.to_le_bytes());
                h.write(&x.to_le_bytes());
            }
            View::Mul(items) | View::Add(items) => {
                h.write(if matches!(e.view(), View::Mul(_)) {
                    b"*"
                } else {
                    b"+"
                });
                let mut ks: Vec<u64> = items.iter().map(|i| self.key(i)).collect();
                ks.sort_unstable();
                for k in ks {
                    h.write(&k.to_le_bytes());
                }
            }
        }
        let k = h.finish();
        self.keys.insert(e.clone(), k);
        k
    }

    fn build_new(&mut self, e: &Expr) -> Result<Operand, UnknownInput> {
        match e.view() {
            View::Number {
                numerator,
                denominator,
            } => Ok(Program::constant(&numerator, &denominator)),
            View::Symbol(name) => self
                .inputs
                .iter()
                .position(|i| *i == name)
                .map(Operand::Input)
                .ok_or(UnknownInput(name)),
            View::Call(name, args) => {
                let call = match name.as_str() {
                    "sin" => Call::Sin,
                    "cos" => Call::Cos,
                    "exp" => Call::Exp,
                    "log" => Call::Log,
                    _ => return Err(UnknownInput(format!("{name}()"))),
                };
                let arg = self.build(&args[0])?;
                Ok(self.intern(Node::Call(call, arg)))
            }
            View::Pow(base, exponent) => self.power(&base, &exponent),
            View::Mul(_) => self.product(e),
            View::Add(terms) => self.sum(terms),
        }
    }

    fn power(&mut self, base: &Expr, exponent: &Expr) -> Result<Operand, UnknownInput> {
        let b = self.build(base)?;
        match exponent.as_small_rational() {
            Some((k, 1)) if k > 0 => Ok(self.integer_power(b, k as u64)),
            Some((k, 1)) if k < 0 => {
                let p = self.integer_power(b, k.unsigned_abs());
                self.divide(Program::constant("1", "1"), p, &base.powi(-k))
            }
            Some((1, 2)) => Ok(self.intern(Node::Call(Call::Sqrt, b))),
            Some((-1, 2)) => {
                let root = self.intern(Node::Call(Call::Sqrt, b));
                self.divide(
                    Program::constant("1", "1"),
                    root,
                    &Expr::apply(crate::Func::Sqrt, base.clone()),
                )
            }
            _ => {
                let e = self.build(exponent)?;
                Ok(self.intern(Node::Pow(b, e)))
            }
        }
    }

    fn integer_power(&mut self, base: Operand, k: u64) -> Operand {
        if k == 1 {
            return base;
        }
        let half = self.integer_power(base.clone(), k / 2);
        let square = self.intern(Node::Mul(half.clone(), half));
        if k.is_multiple_of(2) {
            square
        } else {
            self.intern(Node::Mul(square, base))
        }
    }

    fn divide(
        &mut self,
        numerator: Operand,
        denominator: Operand,
        expr: &Expr,
    ) -> Result<Operand, UnknownInput> {
        let position = match self.denominators.iter().position(|d| d == expr) {
            Some(k) => k,
            None => {
                self.denominators.push(expr.clone());
                self.denominators.len() - 1
            }
        };
        let node = self.intern(Node::Div(numerator, denominator));
        if let Operand::Node(k) = node {
            self.division_of.entry(k).or_insert(position);
        }
        Ok(node)
    }

    fn sorted(&mut self, items: Vec<Expr>) -> Vec<Expr> {
        let mut keyed: Vec<(u64, Expr)> = items.into_iter().map(|e| (self.key(&e), e)).collect();
        keyed.sort_by_key(|(k, _)| *k);
        keyed.into_iter().map(|(_, e)| e).collect()
    }

    fn fold_mul(&mut self, factors: Vec<Operand>) -> Option<Operand> {
        let mut factors = factors.into_iter();
        let first = factors.next()?;
        Some(factors.fold(first, |acc, f| self.intern(Node::Mul(acc, f))))
    }

    /// A product: `sign · (p/q) · numerator factors / denominator factors`.
    fn product(&mut self, e: &Expr) -> Result<Operand, UnknownInput> {
        let View::Mul(factors) = e.view() else {
            unreachable!("product() takes a product")
        };
        let mut coefficient = ("1".to_string(), "1".to_string());
        let mut numerator = Vec::new();
        let mut denominator = Vec::new();
        for factor in self.sorted(factors) {
            match factor.view() {
                View::Number {
                    numerator: n,
                    denominator: d,
                } => coefficient = (n, d),
                View::Pow(base, exp)
                    if exp
                        .as_small_rational()
                        .is_some_and(|(k, d)| d == 1 && k < 0) =>
                {
                    denominator.push(base.pow(&-exp));
                }
                _ => numerator.push(factor),
            }
        }
        let negative = coefficient.0.starts_with('-');
        let magnitude = (
            coefficient.0.trim_start_matches('-').to_string(),
            coefficient.1,
        );
        let mut top = Vec::new();
        for f in &numerator {
            top.push(self.build(f)?);
        }
        let constant = Program::constant(&magnitude.0, &magnitude.1);
        if !Program::is_one(&constant) {
            top.insert(0, constant);
        }
        let top = self
            .fold_mul(top)
            .unwrap_or_else(|| Program::constant("1", "1"));
        let mut value = top;
        if !denominator.is_empty() {
            let den_expr = denominator
                .iter()
                .fold(Expr::one(), |acc, d| acc * d.clone());
            let mut bottom = Vec::new();
            for d in &denominator {
                bottom.push(self.build(d)?);
            }
            let bottom = self.fold_mul(bottom).expect("non-empty denominator");
            value = self.divide(value, bottom, &den_expr)?;
        }
        Ok(if negative {
            self.intern(Node::Neg(value))
        } else {
            value
        })
    }

    /// A sum: positive terms added, negative ones subtracted.
    fn sum(&mut self, terms: Vec<Expr>) -> Result<Operand, UnknownInput> {
        let mut positive = Vec::new();
        let mut negative = Vec::new();
        for term in self.sorted(terms) {
            let is_negative = match term.view() {
                View::Number { numerator, .. } => numerator.starts_with('-'),
                View::Mul(factors) => factors.iter().any(|f| f.view().is_negative_number()),
                _ => false,
            };
            if is_negative {
                negative.push(self.build(&-term)?);
            } else {
                positive.push(self.build(&term)?);
            }
        }
        let mut acc = match positive.len() {
            0 => {
                let first = negative.remove(0);
                self.intern(Node::Neg(first))
            }
            _ => positive.remove(0),
        };
        for p in positive {
            acc = self.intern(Node::Add(acc, p));
        }
        for n in negative {
            acc = self.intern(Node::Sub(acc, n));
        }
        Ok(acc)
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

    /// The same program with every node placed just before its first use: operands first,
    /// depth-first, outputs in order. Values then live briefly, which is what a C compiler's
    /// register allocator needs to stay fast on long straight-line functions (the emitted code
    /// also assigns each output right after its value; see `emit::code::program_statements`).
    pub fn scheduled(&self) -> Program {
        let order = self.dependency_order(&self.outputs);
        self.renumbered(&order, self.outputs.clone())
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
                let operands: Vec<&Operand> = match &self.nodes[k] {
                    Node::Add(a, b)
                    | Node::Sub(a, b)
                    | Node::Mul(a, b)
                    | Node::Div(a, b)
                    | Node::Pow(a, b) => vec![a, b],
                    Node::Neg(a) | Node::Call(_, a) => vec![a],
                };
                // Pushed in reverse so that the first operand is computed first.
                for operand in operands.into_iter().rev() {
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

    /// A program with the nodes `order` (each after its operands) renumbered in that order.
    fn renumbered(&self, order: &[usize], outputs: Vec<(String, Operand)>) -> Program {
        let mut renumber = vec![usize::MAX; self.nodes.len()];
        let mut out = Program::new(self.inputs.clone());
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
            out.interned.insert(new.clone(), out.nodes.len());
            out.nodes.push(new);
        }
        out.outputs = outputs
            .into_iter()
            .map(|(n, o)| (n, map(&o, &renumber)))
            .collect();
        out
    }

    /// The program after equality saturation ([`crate::egraph`]) when that saves operations,
    /// else the program itself.
    pub fn optimised(self) -> Program {
        self.optimised_within(crate::egraph::Limits::default()).0
    }

    /// [`Program::optimised`] with explicit bounds on the saturation, and how it ended.
    pub fn optimised_within(self, limits: crate::egraph::Limits) -> (Program, crate::egraph::Stop) {
        match crate::egraph::optimise(&self, limits) {
            (Some(better), stop) => (better, stop),
            (None, stop) => (self, stop),
        }
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
            Operand::Constant(n, d) => {
                Expr::from_decimal(n).unwrap_or_else(Expr::zero)
                    / Expr::from_decimal(d).unwrap_or_else(Expr::one)
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

    /// The Jacobian of the outputs with respect to the inputs `wrt`, by forward-mode automatic
    /// differentiation of this program: a new program over the same inputs whose outputs are
    /// `name[i * wrt.len() + j] = ∂(output i)/∂(input wrt[j])`, row-major. Exact zeros propagate,
    /// so sparsity costs nothing, and no expression is ever expanded.
    pub fn jacobian(&self, name: &str, wrt: &[usize]) -> Program {
        let mut out = Program::new(self.inputs.clone());
        // Values of this program's nodes, re-interned in `out`.
        let mut value: Vec<Operand> = Vec::with_capacity(self.nodes.len());
        // derivative[k][j]: ∂(node k)/∂(wrt j), None for an exact zero.
        let mut derivative: Vec<Vec<Option<Operand>>> = Vec::with_capacity(self.nodes.len());
        let one = Program::constant("1", "1");
        let read = |o: &Operand, value: &[Operand]| -> Operand {
            match o {
                Operand::Node(k) => value[*k].clone(),
                other => other.clone(),
            }
        };
        let seed =
            |o: &Operand, j: usize, derivative: &[Vec<Option<Operand>>]| -> Option<Operand> {
                match o {
                    Operand::Input(k) if *k == wrt[j] => Some(Program::constant("1", "1")),
                    Operand::Node(k) => derivative[*k][j].clone(),
                    _ => None,
                }
            };
        for node in &self.nodes {
            let v = match node {
                Node::Add(a, b) => Node::Add(read(a, &value), read(b, &value)),
                Node::Sub(a, b) => Node::Sub(read(a, &value), read(b, &value)),
                Node::Mul(a, b) => Node::Mul(read(a, &value), read(b, &value)),
                Node::Div(a, b) => Node::Div(read(a, &value), read(b, &value)),
                Node::Neg(a) => Node::Neg(read(a, &value)),
                Node::Call(c, a) => Node::Call(*c, read(a, &value)),
                Node::Pow(a, b) => Node::Pow(read(a, &value), read(b, &value)),
            };
            let this = out.intern(v);
            let mut row = Vec::with_capacity(wrt.len());
            for j in 0..wrt.len() {
                let d = |o: &Operand| seed(o, j, &derivative);
                let r = match node {
                    Node::Add(a, b) => out.add_opt(d(a), d(b)),
                    Node::Sub(a, b) => out.sub_opt(d(a), d(b)),
                    Node::Mul(a, b) => {
                        let left = d(a).map(|da| out.intern(Node::Mul(da, read(b, &value))));
                        let right = d(b).map(|db| out.intern(Node::Mul(read(a, &value), db)));
                        out.add_opt(left, right)
                    }
                    Node::Div(a, b) => {
                        // (da − q·db) / b with q = a/b the node's value.
                        let qdb = d(b).map(|db| out.intern(Node::Mul(this.clone(), db)));
                        out.sub_opt(d(a), qdb)
                            .map(|num| out.intern(Node::Div(num, read(b, &value))))
                    }
                    Node::Neg(a) => d(a).map(|da| out.intern(Node::Neg(da))),
                    Node::Call(c, a) => d(a).map(|da| {
                        let x = read(a, &value);
                        let factor = match c {
                            Call::Sin => out.intern(Node::Call(Call::Cos, x)),
                            Call::Cos => {
                                let s = out.intern(Node::Call(Call::Sin, x));
                                out.intern(Node::Neg(s))
                            }
                            Call::Exp => this.clone(),
                            Call::Log => out.intern(Node::Div(one.clone(), x)),
                            Call::Sqrt => {
                                let twice = out
                                    .intern(Node::Mul(Program::constant("2", "1"), this.clone()));
                                out.intern(Node::Div(one.clone(), twice))
                            }
                        };
                        out.intern(Node::Mul(factor, da))
                    }),
                    Node::Pow(a, b) => d(a).map(|da| {
                        // b is a constant exponent: b · a^b / a · da.
                        let x = read(a, &value);
                        let scaled = out.intern(Node::Mul(read(b, &value), this.clone()));
                        let ratio = out.intern(Node::Div(scaled, x));
                        out.intern(Node::Mul(ratio, da))
                    }),
                };
                row.push(r);
            }
            value.push(this);
            derivative.push(row);
        }
        for (i, (_, o)) in self.outputs.iter().enumerate() {
            for j in 0..wrt.len() {
                let entry = seed(o, j, &derivative).unwrap_or_else(|| Program::constant("0", "1"));
                out.outputs
                    .push((format!("{name}[{}]", i * wrt.len() + j), entry));
            }
        }
        out.recompute_denominators();
        out
    }

    fn sub_opt(&mut self, a: Option<Operand>, b: Option<Operand>) -> Option<Operand> {
        match (a, b) {
            (a, None) => a,
            (None, Some(y)) => Some(self.intern(Node::Neg(y))),
            (Some(x), Some(y)) => Some(self.intern(Node::Sub(x, y))),
        }
    }

    fn add_opt(&mut self, a: Option<Operand>, b: Option<Operand>) -> Option<Operand> {
        match (a, b) {
            (None, None) => None,
            (Some(x), None) | (None, Some(x)) => Some(x),
            (Some(x), Some(y)) => Some(self.intern(Node::Add(x, y))),
        }
    }

    /// Evaluates the program at `inputs` (in input order), in `f64`: the outputs in order.
    pub fn evaluate(&self, inputs: &[f64]) -> Vec<f64> {
        let mut values: Vec<f64> = Vec::with_capacity(self.nodes.len());
        let read = |o: &Operand, values: &[f64]| -> f64 {
            match o {
                Operand::Input(k) => inputs[*k],
                Operand::Constant(n, d) => constant_value(n, d),
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

/// The value of a rational constant, correctly rounded when numerator and denominator are exact
/// in `f64`.
pub fn constant_value(numerator: &str, denominator: &str) -> f64 {
    let n: f64 = numerator.parse().unwrap_or(f64::NAN);
    let d: f64 = denominator.parse().unwrap_or(f64::NAN);
    n / d
}

/// The 64-bit FNV-1a hash: fixed, so keys are the same in every process.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

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

    #[test]
    fn forward_differentiation_matches_symbolic_derivatives() {
        let (x, y) = (s("x"), s("y"));
        let outputs = [
            Expr::apply(Func::Sin, x.clone() * y.clone()) / (Expr::one() + y.powi(2)),
            Expr::apply(Func::Exp, x.clone()) * Expr::apply(Func::Sqrt, y.clone())
                - Expr::apply(Func::Log, x.clone() + y.clone())
                + Expr::apply(Func::Cos, y.clone()) * x.pow(&Expr::rational(3, 2)),
        ];
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        for (i, e) in outputs.iter().enumerate() {
            p.output(format!("f[{i}]"), e).unwrap();
        }
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
