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
        // The values, and about as many derivatives again.
        out.nodes.reserve(2 * self.nodes.len());
        out.interned.reserve(2 * self.nodes.len());
        // Values of this program's nodes, re-interned in `out`.
        let mut value: Vec<Operand> = Vec::with_capacity(self.nodes.len());
        // derivative[k]: the non-zero ∂(node k)/∂(wrt j) as (j, derivative), j increasing.
        let mut derivative: Vec<Row> = Vec::with_capacity(self.nodes.len());
        let one = Program::constant("1", "1");
        // seeds[k]: the derivatives of input k (1 in its own columns).
        let mut seeds: Vec<Row> = vec![Vec::new(); self.inputs.len()];
        for (j, &k) in wrt.iter().enumerate() {
            seeds[k].push((j, one.clone()));
        }
        let read = |o: &Operand, value: &[Operand]| -> Operand {
            match o {
                Operand::Node(k) => value[*k].clone(),
                other => other.clone(),
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
            let mut operands = node.operands().map(|o| row_of(o, &derivative, &seeds));
            let row_a = operands.next().expect("every node has an operand");
            let row_b = operands.next().unwrap_or(&[]);
            let mut row = Vec::new();
            // Only the columns where an operand has a derivative: every rule gives zero elsewhere.
            for (j, da, db) in merged(row_a, row_b) {
                let r = match node {
                    Node::Add(..) => out.add_opt(da, db),
                    Node::Sub(..) => out.sub_opt(da, db),
                    Node::Mul(a, b) => {
                        let left = da.map(|da| out.intern(Node::Mul(da, read(b, &value))));
                        let right = db.map(|db| out.intern(Node::Mul(read(a, &value), db)));
                        out.add_opt(left, right)
                    }
                    Node::Div(_, b) => {
                        // (da − q·db) / b with q = a/b the node's value.
                        let qdb = db.map(|db| out.intern(Node::Mul(this.clone(), db)));
                        out.sub_opt(da, qdb)
                            .map(|num| out.intern(Node::Div(num, read(b, &value))))
                    }
                    Node::Neg(_) => da.map(|da| out.intern(Node::Neg(da))),
                    Node::Call(c, a) => da.map(|da| {
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
                    Node::Pow(a, b) => da.map(|da| {
                        // b is a constant exponent: b · a^b / a · da.
                        let x = read(a, &value);
                        let scaled = out.intern(Node::Mul(read(b, &value), this.clone()));
                        let ratio = out.intern(Node::Div(scaled, x));
                        out.intern(Node::Mul(ratio, da))
                    }),
                };
                if let Some(r) = r {
                    row.push((j, r));
                }
            }
            if limit != usize::MAX && needed.add(&out, before) > limit {
                return None;
            }
            value.push(this);
            derivative.push(row);
        }
        for (i, (_, o)) in self.outputs.iter().enumerate() {
            let mut entries = vec![None; wrt.len()];
            for (j, d) in row_of(o, &derivative, &seeds) {
                entries[*j] = Some(d.clone());
            }
            for (j, entry) in entries.into_iter().enumerate() {
                let entry = entry.unwrap_or_else(Operand::zero);
                out.outputs.push((indexed(name, i * wrt.len() + j), entry));
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

/// `name[k]`, written without the formatting machinery (one per entry of a Jacobian).
fn indexed(name: &str, k: usize) -> String {
    let mut buffer = [0u8; 20];
    let digits = super::decimal(k, &mut buffer);
    let mut text = String::with_capacity(name.len() + digits.len() + 2);
    text.push_str(name);
    text.push('[');
    text.push_str(digits);
    text.push(']');
    text
}

/// The non-zero derivatives of one value, `(column, derivative)` by increasing column.
type Row = Vec<(usize, Operand)>;

/// The derivatives of an operand: a node's row, an input's seeds, none for a constant.
fn row_of<'r>(o: &Operand, derivative: &'r [Row], seeds: &'r [Row]) -> &'r [(usize, Operand)] {
    match o {
        Operand::Node(k) => &derivative[*k],
        Operand::Input(k) => &seeds[*k],
        Operand::Constant(..) => &[],
    }
}

/// The columns of two rows in increasing order, each with the derivative of either row there.
fn merged<'r>(
    a: &'r [(usize, Operand)],
    b: &'r [(usize, Operand)],
) -> impl Iterator<Item = (usize, Option<Operand>, Option<Operand>)> + 'r {
    let (mut x, mut y) = (0, 0);
    std::iter::from_fn(move || {
        let j = match (a.get(x), b.get(y)) {
            (None, None) => return None,
            (Some((i, _)), None) | (None, Some((i, _))) => *i,
            (Some((i, _)), Some((k, _))) => (*i).min(*k),
        };
        let take = |row: &'r [(usize, Operand)], at: &mut usize| {
            let hit = row
                .get(*at)
                .filter(|(i, _)| *i == j)
                .map(|(_, d)| d.clone());
            *at += usize::from(hit.is_some());
            hit
        };
        let da = take(a, &mut x);
        let db = take(b, &mut y);
        Some((j, da, db))
    })
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
            for operand in program.nodes[k].operands() {
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

#[cfg(test)]
mod tests {
    use crate::program::{Node, Operand, Program};
    use crate::{Expr, Func};

    /// An input's derivative by itself is 1, and the chain and product rules multiply by it:
    /// no such product is an operation of the Jacobian. ∂(x·y)/∂x is the input y itself, and
    /// ∂sin(x)/∂x is cos(x) alone: the values x·y and sin(x), and cos(x), are the 3 operations.
    #[test]
    fn derivatives_are_not_multiplied_by_one() {
        let (x, y) = (Expr::symbol("x"), Expr::symbol("y"));
        let mut p = Program::new(vec!["x".into(), "y".into()]);
        p.output("a", &(x.clone() * y.clone())).unwrap();
        p.output("b", &Expr::apply(Func::Sin, x.clone())).unwrap();
        let jac = p.jacobian("jac", &[0]);
        let by_one = |o: &Operand| Program::is_one(o);
        assert!(
            !jac.nodes
                .iter()
                .any(|n| matches!(n, Node::Mul(a, b) if by_one(a) || by_one(b))),
            "{:?}",
            jac.nodes
        );
        assert_eq!(jac.outputs[0].1, Operand::Input(1));
        assert_eq!(jac.op_count().total(), 3, "{:?}", jac.nodes);
        let values = jac.evaluate(&[0.3, 1.7]);
        assert_eq!(values, vec![1.7, 0.3f64.cos()]);
    }

    #[test]
    fn entries_are_named_by_index() {
        for k in [0, 7, 10, 99, 100, 4_321, 1_000_000, usize::MAX] {
            assert_eq!(super::indexed("jac", k), format!("jac[{k}]"));
        }
    }
}
