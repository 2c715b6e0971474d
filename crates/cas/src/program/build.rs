//! Building a program from expressions by hash-consing (see the parent module). Expressions
//! are read in place, node by node, as Symbolica stores them: an expression met again is found
//! in the memo tables ([`Memo`]) without being copied, and a node is copied once, when it is
//! first remembered.

use std::hash::{Hash, Hasher};

use symbolica::atom::AtomView;

use super::{Call, Literal, Node, Operand, Program, UnknownInput};
use crate::expr::with_symbol_name;
use crate::hash::{FastHasher, FastMap};
use crate::view::{has_negative_coefficient, is_euler, number_parts, small_rational};
use crate::Expr;

impl Program {
    /// The operand computing `node`: an equal node already in the program, else `node` appended.
    /// A product with the constant 1 is its other factor, and makes no node: forward
    /// differentiation starts from an input's derivative by itself, 1, and an extracted e-graph
    /// term may hold `1·x`, and neither is an operation the emitted code should perform.
    pub(super) fn intern(&mut self, node: Node) -> Operand {
        let node = match node {
            Node::Mul(a, b) if Program::is_one(&a) => return b,
            Node::Mul(a, b) if Program::is_one(&b) => return a,
            Node::Add(a, b) if b < a => Node::Add(b, a),
            Node::Mul(a, b) if b < a => Node::Mul(b, a),
            other => other,
        };
        // A renumbered program has its table filled on first use; each node is its own entry
        // (a later equal node replaces an earlier, as inserting them in order would).
        if self.interned_unfilled {
            let nodes = self.nodes.iter().cloned().enumerate().map(|(k, n)| (n, k));
            self.interned.extend(nodes);
            self.interned_unfilled = false;
        }
        match self.interned.entry(node) {
            std::collections::hash_map::Entry::Occupied(known) => Operand::Node(*known.get()),
            std::collections::hash_map::Entry::Vacant(new) => {
                let k = self.nodes.len();
                self.nodes.push(new.key().clone());
                new.insert(k);
                Operand::Node(k)
            }
        }
    }

    pub(super) fn constant(n: &str, d: &str) -> Operand {
        Operand::Constant(Literal::new(n, d))
    }

    pub(super) fn is_one(o: &Operand) -> bool {
        matches!(o, Operand::Constant(c) if c.is("1", "1"))
    }

    pub(super) fn build(&mut self, e: &Expr) -> Result<Operand, UnknownInput> {
        self.build_view(e.0.as_view())
    }

    /// [`Program::build`] of a node of an expression, read in place: an equal node built before
    /// is looked up without copying it, and a node is copied only when it is first remembered.
    fn build_view(&mut self, view: AtomView<'_>) -> Result<Operand, UnknownInput> {
        let hash = hash_of(view);
        if let Some(o) = self.built.get(hash, view) {
            return Ok(o.clone());
        }
        let o = self.build_new(view)?;
        self.built.insert(hash, view, o.clone());
        Ok(o)
    }

    /// A key that depends only on the structure and the names in `view` (never on Symbolica's
    /// internal order of terms, which depends on the order symbols were created in), so that
    /// sorting by it makes programs identical whatever else the process derived before. Nodes
    /// are read as [`Expr::view`] presents them: Euler's constant is `exp(1)`, and a power of it
    /// `exp` of the exponent.
    fn key(&mut self, view: AtomView<'_>) -> u64 {
        if let Some(k) = Program::leaf_key(view) {
            return k;
        }
        let hash = hash_of(view);
        if let Some(&k) = self.keys.get(hash, view) {
            return k;
        }
        let mut h = Fnv::new();
        match view {
            AtomView::Fun(f) => {
                h.write(b"c");
                with_symbol_name(f.get_symbol(), |name| h.write(name.as_bytes()));
                for a in f.iter() {
                    let k = self.key(a);
                    h.write(&k.to_le_bytes());
                }
            }
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                if is_euler(base) {
                    h.write(b"cexp");
                    let x = self.key(exponent);
                    h.write(&x.to_le_bytes());
                } else {
                    h.write(b"p");
                    let (b, x) = (self.key(base), self.key(exponent));
                    h.write(&b.to_le_bytes());
                    h.write(&x.to_le_bytes());
                }
            }
            AtomView::Mul(m) => self.write_keys(&mut h, b"*", m.iter()),
            AtomView::Add(a) => self.write_keys(&mut h, b"+", a.iter()),
            AtomView::Num(_) | AtomView::Var(_) => unreachable!("leaves are keyed above"),
        }
        let k = h.finish();
        self.keys.insert(hash, view, k);
        k
    }

    /// The [`Program::key`] of a number or a symbol (`None` for any other node), not
    /// remembered: it costs no more than looking it up would.
    fn leaf_key(view: AtomView<'_>) -> Option<u64> {
        let mut h = Fnv::new();
        match view {
            AtomView::Num(_) => {
                let (numerator, denominator) = number_parts(view);
                h.write(b"n");
                h.write(numerator.as_bytes());
                h.write(b"/");
                h.write(denominator.as_bytes());
            }
            AtomView::Var(_) if is_euler(view) => {
                // `exp(1)`: the call's name, then the key of its argument.
                let mut one = Fnv::new();
                one.write(b"n1/1");
                h.write(b"cexp");
                h.write(&one.finish().to_le_bytes());
            }
            AtomView::Var(v) => {
                h.write(b"s");
                with_symbol_name(v.get_symbol(), |name| h.write(name.as_bytes()));
            }
            _ => return None,
        }
        Some(h.finish())
    }

    /// The keys of a sum's terms or a product's factors, after `tag`, sorted (the order of the
    /// items never shows).
    fn write_keys<'a>(
        &mut self,
        h: &mut Fnv,
        tag: &[u8],
        items: impl Iterator<Item = AtomView<'a>>,
    ) {
        h.write(tag);
        let mut ks: Vec<u64> = items.map(|i| self.key(i)).collect();
        ks.sort_unstable();
        for k in ks {
            h.write(&k.to_le_bytes());
        }
    }

    fn build_new(&mut self, view: AtomView<'_>) -> Result<Operand, UnknownInput> {
        match view {
            AtomView::Num(_) => {
                let (numerator, denominator) = number_parts(view);
                Ok(Program::constant(&numerator, &denominator))
            }
            AtomView::Var(_) if is_euler(view) => {
                let one = Expr::one();
                let arg = self.build_view(one.0.as_view())?;
                Ok(self.intern(Node::Call(Call::Exp, arg)))
            }
            AtomView::Var(v) => with_symbol_name(v.get_symbol(), |name| self.symbol(name)),
            AtomView::Fun(f) => {
                let unknown =
                    || with_symbol_name(f.get_symbol(), |n| UnknownInput(format!("{n}()")));
                let call = with_symbol_name(f.get_symbol(), |name| match name {
                    "sin" => Some(Call::Sin),
                    "cos" => Some(Call::Cos),
                    "exp" => Some(Call::Exp),
                    "log" => Some(Call::Log),
                    _ => None,
                })
                .ok_or_else(unknown)?;
                let first = f.iter().next().ok_or_else(unknown)?;
                let arg = self.build_view(first)?;
                Ok(self.intern(Node::Call(call, arg)))
            }
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                if is_euler(base) {
                    // Symbolica writes exp(x) as Euler's constant to the power x.
                    let arg = self.build_view(exponent)?;
                    Ok(self.intern(Node::Call(Call::Exp, arg)))
                } else {
                    self.power(base, exponent)
                }
            }
            AtomView::Mul(m) => self.product(m.iter()),
            AtomView::Add(a) => self.sum(a.iter()),
        }
    }

    /// The operand of the symbol `name`: π (Symbolica's constant, which the spec language's `pi`
    /// reads as) is its first 32 digits, so that a double-double evaluation has it to working
    /// precision and a double is the one nearest π; a bound symbol is its value, an input its
    /// argument.
    fn symbol(&self, name: &str) -> Result<Operand, UnknownInput> {
        if name == crate::PI_NAME
            && !self.inputs.iter().any(|i| i == name)
            && !self.bound.contains_key(name)
        {
            return Ok(Program::constant(
                "31415926535897932384626433832795",
                "10000000000000000000000000000000",
            ));
        }
        match self.bound.get(name) {
            Some(o) => Ok(o.clone()),
            None => self
                .inputs
                .iter()
                .position(|i| i == name)
                .map(Operand::Input)
                .ok_or_else(|| UnknownInput(name.to_string())),
        }
    }

    fn power(
        &mut self,
        base: AtomView<'_>,
        exponent: AtomView<'_>,
    ) -> Result<Operand, UnknownInput> {
        let b = self.build_view(base)?;
        let owned = || Expr(base.to_owned());
        match small_rational(exponent) {
            Some((k, 1)) if k > 0 => Ok(self.integer_power(b, k as u64)),
            Some((k, 1)) if k < 0 => {
                let p = self.integer_power(b, k.unsigned_abs());
                self.divide(Program::constant("1", "1"), p, &owned().powi(-k))
            }
            Some((1, 2)) => Ok(self.intern(Node::Call(Call::Sqrt, b))),
            Some((-1, 2)) => {
                let root = self.intern(Node::Call(Call::Sqrt, b));
                self.divide(
                    Program::constant("1", "1"),
                    root,
                    &Expr::apply(crate::Func::Sqrt, owned()),
                )
            }
            _ => {
                let e = self.build_view(exponent)?;
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

    /// `items` in the order of their keys ([`Program::key`]; equal keys in their own order).
    fn sorted<'a>(&mut self, items: impl Iterator<Item = AtomView<'a>>) -> Vec<AtomView<'a>> {
        let mut keyed: Vec<(u64, AtomView<'a>)> = items.map(|v| (self.key(v), v)).collect();
        keyed.sort_by_key(|(k, _)| *k);
        keyed.into_iter().map(|(_, v)| v).collect()
    }

    fn fold_mul(&mut self, factors: Vec<Operand>) -> Option<Operand> {
        let mut factors = factors.into_iter();
        let first = factors.next()?;
        Some(factors.fold(first, |acc, f| self.intern(Node::Mul(acc, f))))
    }

    /// A product of `factors`: `sign · (p/q) · numerator factors / denominator factors`.
    fn product<'a>(
        &mut self,
        factors: impl Iterator<Item = AtomView<'a>>,
    ) -> Result<Operand, UnknownInput> {
        let (value, negative) = self.unsigned_product(factors)?;
        Ok(if negative {
            self.intern(Node::Neg(value))
        } else {
            value
        })
    }

    /// A product of `factors` without its sign, `(p/q) · numerator factors / denominator
    /// factors`, and whether its coefficient is negative.
    fn unsigned_product<'a>(
        &mut self,
        factors: impl Iterator<Item = AtomView<'a>>,
    ) -> Result<(Operand, bool), UnknownInput> {
        // The rational coefficient `(numerator, denominator)`, when the product has one.
        let mut coefficient = None;
        let mut numerator = Vec::new();
        let mut denominator: Vec<Expr> = Vec::new();
        for factor in self.sorted(factors) {
            match factor {
                AtomView::Num(_) => coefficient = Some(number_parts(factor)),
                AtomView::Pow(p) => {
                    let (base, exponent) = p.get_base_exp();
                    let reciprocal = !is_euler(base)
                        && small_rational(exponent).is_some_and(|(k, d)| d == 1 && k < 0);
                    if reciprocal {
                        let (base, exponent) = (Expr(base.to_owned()), Expr(exponent.to_owned()));
                        denominator.push(base.pow(&-exponent));
                    } else {
                        numerator.push(factor);
                    }
                }
                _ => numerator.push(factor),
            }
        }
        let negative = coefficient
            .as_ref()
            .is_some_and(|(n, _)| n.starts_with('-'));
        let mut top = Vec::new();
        for f in numerator {
            top.push(self.build_view(f)?);
        }
        if let Some((n, d)) = coefficient {
            let constant = Program::constant(n.trim_start_matches('-'), &d);
            if !Program::is_one(&constant) {
                top.insert(0, constant);
            }
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
        Ok((value, negative))
    }

    /// The negation of `term`, a negative number or a product with a negative coefficient. The
    /// negation of a product `c · f…` (`c < 0`) is `|c| · f…`, Symbolica's normal form of it: the
    /// product is built without its sign, node for node as a build of the negated expression
    /// would build it, and without forming that expression.
    fn negated(&mut self, term: AtomView<'_>) -> Result<Operand, UnknownInput> {
        match term {
            AtomView::Mul(m) => Ok(self.unsigned_product(m.iter())?.0),
            _ => self.build(&-Expr(term.to_owned())),
        }
    }

    /// A sum: positive terms added, negative ones subtracted.
    fn sum<'a>(
        &mut self,
        terms: impl Iterator<Item = AtomView<'a>>,
    ) -> Result<Operand, UnknownInput> {
        let mut positive = Vec::new();
        let mut negative = Vec::new();
        for term in self.sorted(terms) {
            if has_negative_coefficient(term) {
                negative.push(self.negated(term)?);
            } else {
                positive.push(self.build_view(term)?);
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

/// A memo from expressions to values that is looked up by a view of an expression: nothing is
/// copied to look one up, and an expression is copied once, when its value is stored. Entries
/// are kept by the hash of the view, each with the expressions of that hash.
#[derive(Clone, Debug)]
pub(super) struct Memo<V> {
    buckets: FastMap<u64, Vec<(Expr, V)>>,
}

impl<V> Default for Memo<V> {
    fn default() -> Memo<V> {
        Memo {
            buckets: FastMap::default(),
        }
    }
}

/// The hash that [`Memo::get`] and [`Memo::insert`] take for `view`.
fn hash_of(view: AtomView<'_>) -> u64 {
    let mut h = FastHasher::default();
    view.hash(&mut h);
    h.finish()
}

impl<V> Memo<V> {
    /// The value stored for the expression `view` (of hash `hash`), if any.
    pub(super) fn get(&self, hash: u64, view: AtomView<'_>) -> Option<&V> {
        let bucket = self.buckets.get(&hash)?;
        bucket
            .iter()
            .find(|(e, _)| e.0.as_view() == view)
            .map(|(_, v)| v)
    }

    /// Stores `value` for the expression `view` (of hash `hash`), which has none yet.
    pub(super) fn insert(&mut self, hash: u64, view: AtomView<'_>, value: V) {
        self.buckets
            .entry(hash)
            .or_default()
            .push((Expr(view.to_owned()), value));
    }

    /// Whether nothing is stored.
    pub(super) fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::{hash_of, Memo};
    use crate::program::{Program, UnknownInput};
    use crate::Expr;

    #[test]
    fn a_memo_finds_an_equal_expression_by_its_view_and_tells_others_apart() {
        let (x, y) = (Expr::symbol("memo_x"), Expr::symbol("memo_y"));
        let sum = x.clone() + y.clone();
        let difference = x.clone() - y.clone();
        let mut memo: Memo<u32> = Memo::default();
        assert!(memo.is_empty());
        let hash = hash_of(sum.0.as_view());
        memo.insert(hash, sum.0.as_view(), 1);
        // Made anew, so only equal, not the same atom.
        let again = y + x;
        assert_eq!(hash, hash_of(again.0.as_view()));
        assert_eq!(memo.get(hash, again.0.as_view()), Some(&1));
        // Two expressions under one hash (as in a collision) stay apart.
        memo.insert(hash, difference.0.as_view(), 2);
        assert_eq!(memo.get(hash, difference.0.as_view()), Some(&2));
        assert_eq!(memo.get(hash, sum.0.as_view()), Some(&1));
        let other = hash_of(difference.0.as_view());
        assert_eq!(memo.get(other, difference.0.as_view()), None);
    }

    /// A subtracted term is built as its negation would be: the negation of a product (with a
    /// denominator), of a symbol times −1 and of a negative number, each built on its own after
    /// the difference, adds no node and is the operand the difference subtracted.
    #[test]
    fn a_subtracted_term_is_the_negation_built_on_its_own() {
        let names = ["neg_w", "neg_x", "neg_y", "neg_z"];
        let [w, x, y, z] = names.map(Expr::symbol);
        let quotient = Expr::int(2) * y.clone() * z.clone() / w.clone();
        for subtracted in [quotient, y.clone(), Expr::rational(3, 2)] {
            let mut program = Program::new(names.iter().map(|n| n.to_string()).collect());
            program
                .output("difference", &(x.clone() - subtracted.clone()))
                .unwrap();
            let nodes = program.nodes.len();
            program.output("negation", &subtracted).unwrap();
            assert_eq!(program.nodes.len(), nodes, "{subtracted}: no new node");
            let (difference, negation) = (&program.outputs[0].1, &program.outputs[1].1);
            let super::Operand::Node(k) = difference else {
                panic!("{subtracted}: the difference is a node");
            };
            match &program.nodes[*k] {
                super::Node::Sub(_, b) => assert_eq!(b, negation, "{subtracted}"),
                other => panic!("{subtracted}: {other:?} is not a difference"),
            }
        }
    }

    #[test]
    fn a_call_without_an_argument_is_reported_not_built() {
        let bare = Expr(symbolica::function!(crate::expr::sym("sin")));
        let mut program = Program::new(vec!["x".into()]);
        assert_eq!(
            program.output("y", &bare),
            Err(UnknownInput("sin()".into()))
        );
    }
}
