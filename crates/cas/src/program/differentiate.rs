//! Forward-mode automatic differentiation of a program: Jacobians without expanding anything.

use super::{Call, Node, Operand, Program};

impl Program {
    /// The Jacobian of the outputs with respect to the inputs `wrt`, by forward-mode automatic
    /// differentiation of this program: a new program over the same inputs whose outputs are
    /// `name[i * wrt.len() + j] = ∂(output i)/∂(input wrt[j])`, row-major. Exact zeros propagate,
    /// so sparsity costs nothing, and no expression is ever expanded.
    pub fn jacobian(&self, name: &str, wrt: &[usize]) -> Program {
        self.jacobian_within(name, wrt, usize::MAX)
            .expect("no limit is passed")
    }

    /// [`Program::jacobian`], or `None` as soon as the nodes of derivatives made so far, with
    /// every node they read (values of this program included), are more than `limit`: then,
    /// when every node of this program reaches an output (a program cut by [`Program::select`]
    /// does), a program computing all the Jacobian's structurally non-zero entries needs more
    /// than `limit` operations, and differentiating further is wasted. (Each node of a
    /// derivative feeds the derivative of every output its node reaches, since every rule uses
    /// every operand's derivative there is; so every one is needed by some non-zero entry, and
    /// so is every node it reads. A power whose exponent is not a constant breaks that rule, and
    /// turns the limit off.)
    pub fn jacobian_within(&self, name: &str, wrt: &[usize], limit: usize) -> Option<Program> {
        let _stage = timing::stage("jacobian");
        let constant_exponents = self
            .nodes
            .iter()
            .all(|node| !matches!(node, Node::Pow(_, b) if !matches!(b, Operand::Constant(..))));
        let limit = if constant_exponents {
            limit
        } else {
            usize::MAX
        };
        let mut needed = Needed::default();
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
            let before = out.nodes.len();
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
            if limit != usize::MAX && needed.add(&out, before) > limit {
                return None;
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
        Some(out)
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
}

/// The nodes of a program under construction that its derivatives need: each node of a
/// derivative, and every node it reads, transitively (a lower bound of the operations of any
/// program whose outputs reach every such node).
#[derive(Default)]
struct Needed {
    marked: Vec<bool>,
    count: usize,
}

impl Needed {
    /// Marks the nodes of `program` from `first` on (derivatives just made) with what they read,
    /// and returns how many nodes are marked in all.
    fn add(&mut self, program: &Program, first: usize) -> usize {
        self.marked.resize(program.nodes.len(), false);
        let mut stack: Vec<usize> = (first..program.nodes.len()).collect();
        while let Some(k) = stack.pop() {
            if std::mem::replace(&mut self.marked[k], true) {
                continue;
            }
            self.count += 1;
            let (a, b) = match &program.nodes[k] {
                Node::Add(a, b)
                | Node::Sub(a, b)
                | Node::Mul(a, b)
                | Node::Div(a, b)
                | Node::Pow(a, b) => (a, Some(b)),
                Node::Neg(a) | Node::Call(_, a) => (a, None),
            };
            for operand in std::iter::once(a).chain(b) {
                if let Operand::Node(j) = operand {
                    if !self.marked[*j] {
                        stack.push(*j);
                    }
                }
            }
        }
        self.count
    }
}
