//! Building a program from expressions by hash-consing (see the parent module).

use super::{Call, Literal, Node, Operand, Program, UnknownInput};
use crate::{Expr, View};

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
            View::Mul(items) => self.write_keys(&mut h, b"*", &items),
            View::Add(items) => self.write_keys(&mut h, b"+", &items),
        }
        let k = h.finish();
        self.keys.insert(e.clone(), k);
        k
    }

    /// The keys of a sum's terms or a product's factors, after `tag`, sorted (the order of the
    /// items never shows).
    fn write_keys(&mut self, h: &mut Fnv, tag: &[u8], items: &[Expr]) {
        h.write(tag);
        let mut ks: Vec<u64> = items.iter().map(|i| self.key(i)).collect();
        ks.sort_unstable();
        for k in ks {
            h.write(&k.to_le_bytes());
        }
    }

    fn build_new(&mut self, e: &Expr) -> Result<Operand, UnknownInput> {
        match e.view() {
            View::Number {
                numerator,
                denominator,
            } => Ok(Program::constant(&numerator, &denominator)),
            // π (Symbolica's constant, which the spec language's `pi` reads as): its first 32
            // digits, so that a double-double evaluation has it to working precision and a
            // double is the one nearest π.
            View::Symbol(name)
                if name == crate::PI_NAME
                    && !self.inputs.contains(&name)
                    && !self.bound.contains_key(&name) =>
            {
                Ok(Program::constant(
                    "31415926535897932384626433832795",
                    "10000000000000000000000000000000",
                ))
            }
            View::Symbol(name) => match self.bound.get(&name) {
                Some(o) => Ok(o.clone()),
                None => self
                    .inputs
                    .iter()
                    .position(|i| *i == name)
                    .map(Operand::Input)
                    .ok_or(UnknownInput(name)),
            },
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
            View::Mul(factors) => self.product(factors),
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

    /// A product of `factors`: `sign · (p/q) · numerator factors / denominator factors`.
    fn product(&mut self, factors: Vec<Expr>) -> Result<Operand, UnknownInput> {
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
            if term.has_negative_coefficient() {
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
