//! [`Expr`]: construction, arithmetic, differentiation, substitution and tree walks.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};
use symbolica::{function, symbol};

/// An exact symbolic expression (see the crate documentation).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Expr(pub(crate) Atom);

/// The built-in functions of the expression language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `tan` (stored as `sin/cos`)
    Tan,
    /// `exp`
    Exp,
    /// `log` (natural)
    Log,
    /// `sqrt` (stored as `^(1/2)`)
    Sqrt,
}

/// Sine or cosine: which of the pair a rewriting produces, keeps or removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trig {
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
}

impl Trig {
    /// The built-in function.
    pub(crate) fn func(self) -> Func {
        match self {
            Trig::Sin => Func::Sin,
            Trig::Cos => Func::Cos,
        }
    }

    /// The other one.
    pub(crate) fn other(self) -> Trig {
        match self {
            Trig::Sin => Trig::Cos,
            Trig::Cos => Trig::Sin,
        }
    }

    /// `sin` for `true`, `cos` for `false`: the reading of a factor split off by name.
    pub(crate) fn sine_if(sine: bool) -> Trig {
        if sine {
            Trig::Sin
        } else {
            Trig::Cos
        }
    }
}

pub(crate) fn sym(name: &str) -> Symbol {
    // Symbolica's first use installs its logger unless ours is there first.
    crate::logging::init(crate::logging::Verbosity::default());
    thread_local! {
        // Registering a symbol with Symbolica costs far more than a hash lookup, and derivations
        // ask for the same few names many thousands of times.
        static SYMBOLS: std::cell::RefCell<crate::hash::FastMap<String, Symbol>> =
            Default::default();
    }
    SYMBOLS.with(|cache| {
        if let Some(s) = cache.borrow().get(name) {
            return *s;
        }
        let s = symbol!(name);
        cache.borrow_mut().insert(name.to_string(), s);
        s
    })
}

/// The name of a symbol without Symbolica's namespace prefix.
pub(crate) fn symbol_name(s: Symbol) -> String {
    with_symbol_name(s, str::to_string)
}

/// `f` of the name of a symbol without Symbolica's namespace prefix, without copying it (the
/// tests of a name, such as Euler's constant's in every view, are made on every node). Each
/// symbol's name is cut from its prefix once per thread and kept, by the symbol's number, for
/// the rest of the process: Symbolica never renames nor removes a symbol, and a process makes
/// at most a few thousand.
pub(crate) fn with_symbol_name<R>(s: Symbol, f: impl FnOnce(&str) -> R) -> R {
    thread_local! {
        static NAMES: RefCell<Vec<Option<&'static str>>> = const { RefCell::new(Vec::new()) };
    }
    let id = s.get_id() as usize;
    let known = NAMES.with_borrow(|names| names.get(id).copied().flatten());
    let name = known.unwrap_or_else(|| {
        let name: &'static str = Box::leak(unprefixed(s.get_name()).into());
        NAMES.with_borrow_mut(|names| {
            if names.len() <= id {
                names.resize(id + 1, None);
            }
            names[id] = Some(name);
        });
        name
    });
    f(name)
}

/// A symbol's full name after its last `::`.
fn unprefixed(full: &str) -> &str {
    full.rsplit_once("::").map_or(full, |(_, name)| name)
}

impl Expr {
    /// `0`.
    pub fn zero() -> Expr {
        Expr(Atom::num(0))
    }

    /// `1`.
    pub fn one() -> Expr {
        Expr(Atom::num(1))
    }

    /// An integer.
    pub fn int(n: i64) -> Expr {
        Expr(Atom::num(n))
    }

    /// The rational `n / d` (`d ≠ 0`).
    pub fn rational(n: i64, d: i64) -> Expr {
        assert!(d != 0, "rational with zero denominator");
        Expr(Atom::num(n) / Atom::num(d))
    }

    /// A literal such as `12`, `0.25` or `1e-3`, read exactly; `None` if it is not one.
    pub fn from_decimal(text: &str) -> Option<Expr> {
        let (mantissa, exponent) = match text.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{whole}{fraction}");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 400 {
            return None;
        }
        let scale = exponent - fraction.len() as i32;
        if scale.unsigned_abs() > 400 {
            return None;
        }
        let numerator = Expr::integer_from_digits(&digits)?;
        let ten = Expr::int(10);
        Some(if scale >= 0 {
            numerator * ten.powi(scale as i64)
        } else {
            numerator / ten.powi(-scale as i64)
        })
    }

    /// A finite double as the exact rational of its shortest decimal form (the digits Rust
    /// prints for it, which read back to the same double): `0.1` is `1/10`. `None` when it is
    /// not finite.
    pub fn from_f64(value: f64) -> Option<Expr> {
        if !value.is_finite() {
            return None;
        }
        let text = format!("{:e}", value.abs());
        let magnitude = Expr::from_decimal(&text)?;
        Some(if value < 0.0 { -magnitude } else { magnitude })
    }

    fn integer_from_digits(digits: &str) -> Option<Expr> {
        // Horner in chunks of 18 digits keeps every step in i64.
        let mut value = Expr::zero();
        for chunk in digits.as_bytes().chunks(18) {
            let text = std::str::from_utf8(chunk).ok()?;
            let part: i64 = text.parse().ok()?;
            value = value * Expr::int(10).powi(chunk.len() as i64) + Expr::int(part);
        }
        Some(value)
    }

    /// The symbol `name`.
    pub fn symbol(name: &str) -> Expr {
        Expr(Atom::var(sym(name)))
    }

    /// A built-in function applied to `arg`.
    pub fn apply(f: Func, arg: Expr) -> Expr {
        match f {
            Func::Sin => Expr(function!(sym("sin"), arg.0)),
            Func::Cos => Expr(function!(sym("cos"), arg.0)),
            Func::Tan => Expr::apply(Func::Sin, arg.clone()) / Expr::apply(Func::Cos, arg),
            Func::Exp => Expr(function!(sym("exp"), arg.0)),
            Func::Log => Expr(function!(sym("log"), arg.0)),
            Func::Sqrt => arg.pow(&Expr::rational(1, 2)),
        }
    }

    /// `tan(arg)` as a call of its own, for displays ([`Expr::with_tangents`]): the CAS's
    /// normal forms know only `sin` and `cos`, and [`Func::Tan`] is their quotient.
    pub(crate) fn tangent_call(arg: Expr) -> Expr {
        Expr(function!(sym("tan"), arg.0))
    }

    /// `self ^ n`.
    pub fn powi(&self, n: i64) -> Expr {
        self.pow(&Expr::int(n))
    }

    /// `self ^ exponent`.
    pub fn pow(&self, exponent: &Expr) -> Expr {
        Expr(self.0.clone().pow(exponent.0.clone()))
    }

    /// `∂self/∂name`.
    ///
    /// A product is differentiated by the product rule over the factors that read `name` only:
    /// the terms of the others vanish, and a parameter sum that weighs an entry of a mass matrix
    /// is not differentiated term by term; a sum is differentiated term by term over the terms
    /// that read `name` only. An expression that does not read `name` at all is not walked. The result is the atom differentiating the whole gives (the same terms, normalised
    /// once).
    pub fn diff(&self, name: &str) -> Expr {
        Expr(derivative(self.0.as_view(), sym(name)))
    }

    /// Whether this is exactly the number 0 as written (no simplification; see [`Expr::is_zero`]).
    pub fn is_literal_zero(&self) -> bool {
        is_number(&self.0, 0)
    }

    /// Whether `name` occurs in the expression.
    pub fn depends_on(&self, name: &str) -> bool {
        let target = [sym(name)];
        contains_symbol(self.0.as_view(), &target)
    }

    /// Whether any of `names` occurs in the expression (one walk, which stops at the first).
    pub fn depends_on_any(&self, names: &[String]) -> bool {
        let targets: Vec<Symbol> = names.iter().map(|n| sym(n)).collect();
        contains_symbol(self.0.as_view(), &targets)
    }

    /// Every symbol that occurs, sorted.
    pub fn symbols(&self) -> BTreeSet<String> {
        let mut found = crate::hash::FastSet::default();
        collect_symbols(self.0.as_view(), &mut found);
        // Sorted by name: the set's order never leaks.
        found.into_iter().map(symbol_name).collect()
    }

    /// Simultaneous substitution of symbols by expressions.
    pub fn subs(&self, map: &BTreeMap<String, Expr>) -> Expr {
        if map.is_empty() {
            return self.clone();
        }
        Expr(rebuild(self.0.as_view(), &mut |view| match view {
            // The name is borrowed, not copied: every symbol node of the tree is looked up.
            AtomView::Var(v) => {
                with_symbol_name(v.get_symbol(), |name| map.get(name)).map(|e| e.0.clone())
            }
            _ => None,
        }))
    }

    /// Substitution of one symbol.
    pub fn subs1(&self, name: &str, value: &Expr) -> Expr {
        self.subs(&BTreeMap::from([(name.to_string(), value.clone())]))
    }

    /// The bytes of the expression's encoding (a size measure read without a walk).
    pub(crate) fn byte_size(&self) -> usize {
        self.0.as_view().get_byte_size()
    }

    /// The number of nodes of the expression tree (a size measure).
    pub fn size(&self) -> usize {
        count_nodes(self.0.as_view())
    }

    /// An upper bound of the number of terms of the numerator once multiplied out: a sum adds its
    /// terms' bounds, a product multiplies its factors' and a positive integer power raises its
    /// base's, while a function call, a symbol, a number or a denominator counts one. It costs one
    /// walk of the tree, so an elimination can refuse a product before normalising it (saturates
    /// at `usize::MAX`).
    pub fn expansion_bound(&self) -> usize {
        expansion_bound(self.0.as_view())
    }

    /// The sum of `terms`, normalised once ([`sum_atoms`]): adding `n` large terms one by one
    /// copies the growing sum `n` times. Zero terms are left out before anything is built (a
    /// sum of one term is that term, of none `0`).
    pub fn sum(terms: impl IntoIterator<Item = Expr>) -> Expr {
        let atoms: Vec<Atom> = terms
            .into_iter()
            .map(|t| t.0)
            .filter(|a| !is_number(a, 0))
            .collect();
        Expr(sum_atoms(atoms))
    }

    /// The product of `factors` (`1` when there are none), normalised once: the product a chain
    /// of multiplications gives, without renormalising each partial product.
    pub fn product(factors: impl IntoIterator<Item = Expr>) -> Expr {
        let atoms: Vec<Atom> = factors.into_iter().map(|f| f.0).collect();
        Expr(product_atoms(atoms))
    }

    /// The expanded form (products of sums multiplied out, integer powers of sums expanded).
    /// An expression that is its own expansion (`is_expanded`: a rotation entry such as `cos θ`,
    /// a sum of monomials) is returned as it is, without a call to the CAS; the work meter is
    /// charged alike either way.
    pub fn expand(&self) -> Expr {
        if crate::expanded::is_expanded(self.0.as_view()) {
            return Expr(metered(self.0.clone()));
        }
        Expr(metered(self.0.expand()))
    }
}

fn collect_symbols(view: AtomView<'_>, out: &mut crate::hash::FastSet<Symbol>) {
    match view {
        AtomView::Num(_) => {}
        AtomView::Var(v) => {
            out.insert(v.get_symbol());
        }
        AtomView::Fun(f) => f.iter().for_each(|a| collect_symbols(a, out)),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            collect_symbols(b, out);
            collect_symbols(e, out);
        }
        AtomView::Mul(m) => m.iter().for_each(|a| collect_symbols(a, out)),
        AtomView::Add(a) => a.iter().for_each(|t| collect_symbols(t, out)),
    }
}

/// [`Expr::expansion_bound`] on Symbolica's view (no allocation per node).
fn expansion_bound(view: AtomView<'_>) -> usize {
    match view {
        AtomView::Num(_) | AtomView::Var(_) | AtomView::Fun(_) => 1,
        AtomView::Add(a) => a
            .iter()
            .fold(0usize, |acc, t| acc.saturating_add(expansion_bound(t))),
        AtomView::Mul(m) => m
            .iter()
            .fold(1usize, |acc, f| acc.saturating_mul(expansion_bound(f))),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            match Expr(exponent.to_owned()).as_small_rational() {
                Some((n, 1)) if n > 0 => {
                    let n = u32::try_from(n).unwrap_or(u32::MAX);
                    expansion_bound(base).saturating_pow(n)
                }
                _ => 1,
            }
        }
    }
}

/// Whether one of `targets` occurs in `view` (stops at the first occurrence).
/// [`Expr::diff`] on Symbolica's view: the product rule over the factors that read `x` only, the
/// sum rule over the terms that read it only.
fn derivative(view: AtomView<'_>, x: Symbol) -> Atom {
    let target = [x];
    if let AtomView::Mul(m) = view {
        let factors: Vec<AtomView<'_>> = m.iter().collect();
        let reading: Vec<usize> = (0..factors.len())
            .filter(|&k| contains_symbol(factors[k], &target))
            .collect();
        if reading.len() < factors.len() {
            // One term per factor that reads `x`: the others as they are, that one differentiated.
            let terms = reading.iter().filter_map(|&k| {
                let d = factors[k].derivative(x);
                (d != Atom::num(0)).then(|| {
                    let others = (0..factors.len()).filter(|&j| j != k);
                    let mut term: Vec<Atom> = others.map(|j| factors[j].to_owned()).collect();
                    term.push(d);
                    product_atoms(term)
                })
            });
            return sum_atoms(terms.collect());
        }
    } else if let AtomView::Add(terms) = view {
        // The terms that read `x`, each differentiated.
        let derivatives = terms
            .iter()
            .filter(|t| contains_symbol(*t, &target))
            .map(|t| derivative(t, x))
            .filter(|d| *d != Atom::num(0));
        return sum_atoms(derivatives.collect());
    } else if !contains_symbol(view, &target) {
        return Atom::num(0);
    }
    view.derivative(x)
}

pub(crate) fn contains_symbol(view: AtomView<'_>, targets: &[Symbol]) -> bool {
    match view {
        AtomView::Num(_) => false,
        AtomView::Var(v) => targets.contains(&v.get_symbol()),
        AtomView::Fun(f) => f.iter().any(|a| contains_symbol(a, targets)),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            contains_symbol(b, targets) || contains_symbol(e, targets)
        }
        AtomView::Mul(m) => m.iter().any(|a| contains_symbol(a, targets)),
        AtomView::Add(a) => a.iter().any(|t| contains_symbol(t, targets)),
    }
}

/// `atom`, after charging its size to the work meter ([`crate::work`]): wraps the result of every
/// expensive operation (expansion, rational combination, cancellation, factorisation).
pub(crate) fn metered(atom: Atom) -> Atom {
    crate::work::charge(count_nodes(atom.as_view()));
    atom
}

pub(crate) fn count_nodes(view: AtomView<'_>) -> usize {
    1 + match view {
        AtomView::Num(_) | AtomView::Var(_) => 0,
        AtomView::Fun(f) => f.iter().map(count_nodes).sum(),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            count_nodes(b) + count_nodes(e)
        }
        AtomView::Mul(m) => m.iter().map(count_nodes).sum(),
        AtomView::Add(a) => a.iter().map(count_nodes).sum(),
    }
}

/// Rebuilds a tree bottom-up; `replace` may substitute any node (it is tried before recursing).
/// Subtrees in which nothing was replaced are copied as they are, not renormalised.
pub(crate) fn rebuild(
    view: AtomView<'_>,
    replace: &mut dyn FnMut(AtomView<'_>) -> Option<Atom>,
) -> Atom {
    rebuild_changed(view, replace).unwrap_or_else(|| view.to_owned())
}

/// [`rebuild`], with `None` for "unchanged".
fn rebuild_changed(
    view: AtomView<'_>,
    replace: &mut dyn FnMut(AtomView<'_>) -> Option<Atom>,
) -> Option<Atom> {
    if let Some(atom) = replace(view) {
        return Some(atom);
    }
    let children: Vec<AtomView<'_>> = match view {
        AtomView::Num(_) | AtomView::Var(_) => return None,
        AtomView::Fun(f) => f.iter().collect(),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            vec![b, e]
        }
        AtomView::Mul(m) => m.iter().collect(),
        AtomView::Add(a) => a.iter().collect(),
    };
    let changed: Vec<Option<Atom>> = children
        .iter()
        .map(|c| rebuild_changed(*c, replace))
        .collect();
    if changed.iter().all(Option::is_none) {
        return None;
    }
    let args: Vec<Atom> = changed
        .into_iter()
        .zip(&children)
        .map(|(new, old)| new.unwrap_or_else(|| old.to_owned()))
        .collect();
    Some(match view {
        AtomView::Fun(f) => {
            let s = f.get_symbol();
            match args.len() {
                1 => function!(s, args[0].clone()),
                _ => {
                    let mut builder = symbolica::atom::FunctionBuilder::new(s);
                    for a in &args {
                        builder = builder.add_arg(a);
                    }
                    builder.finish()
                }
            }
        }
        AtomView::Pow(_) => {
            let mut args = args.into_iter();
            let (b, e) = (args.next(), args.next());
            b.unwrap_or_else(|| Atom::num(1))
                .pow(e.unwrap_or_else(|| Atom::num(1)))
        }
        AtomView::Mul(_) => product_atoms(args),
        _ => sum_atoms(args),
    })
}

/// The sum of `atoms` (`0` when there are none), normalised once by Symbolica's n-way merge
/// (`Atom::add_many`): adding `n` terms one by one copies the growing sum `n` times, and even a
/// balanced tree of pairwise sums normalises `log n` times.
pub(crate) fn sum_atoms(atoms: Vec<Atom>) -> Atom {
    match atoms.len() {
        0 => Atom::num(0),
        1 => atoms.into_iter().next().expect("one atom"),
        _ => Atom::add_many(atoms.iter()),
    }
}

/// The product of `atoms` (`1` when there are none), normalised once (`Atom::mul_many`).
pub(crate) fn product_atoms(atoms: Vec<Atom>) -> Atom {
    match atoms.len() {
        0 => Atom::num(1),
        1 => atoms.into_iter().next().expect("one atom"),
        _ => Atom::mul_many(atoms.iter()),
    }
}

/// The integer `atom` is, when it is a number that fits a machine word (read off its view:
/// nothing is built).
fn small_integer(atom: &Atom) -> Option<i64> {
    match crate::number::machine_rational(atom.as_view()) {
        Some((k, 1)) => Some(k),
        _ => None,
    }
}

/// Whether `atom` is the rational number `value` (read off its view: nothing is built).
fn is_number(atom: &Atom, value: i64) -> bool {
    small_integer(atom) == Some(value)
}

/// Which operand a sum, difference or product with a zero (or a product with a one) is, found
/// before anything is built. Most operations of the spatial algebra of a tree of joints have
/// one: the structural zeros of motion subspaces and point masses' inertias (the ten-link
/// chain of joints of the benchmark: 12,152 of its 18,218 operations have a zero operand, or a
/// one in a product). Normalising would give the same atom, since every atom is kept
/// normalised: `x + 0`, `x − 0`, `x · 1` and `x / 1` are `x`, `x · 0` is `0`. `0 − x` and
/// other quotients go to Symbolica (the first step of a fraction-free elimination divides every
/// entry by `1`).
enum Trivial {
    Left,
    Right,
    Zero,
}

/// The other operand when one of `a`, `b` is the operation's `neutral` number (the right one
/// tested first).
fn other_than(neutral: i64, a: &Atom, b: &Atom) -> Option<Trivial> {
    if is_number(b, neutral) {
        Some(Trivial::Left)
    } else if is_number(a, neutral) {
        Some(Trivial::Right)
    } else {
        None
    }
}

fn trivial_sum(a: &Atom, b: &Atom) -> Option<Trivial> {
    other_than(0, a, b)
}

fn trivial_difference(_: &Atom, b: &Atom) -> Option<Trivial> {
    is_number(b, 0).then_some(Trivial::Left)
}

fn trivial_product(a: &Atom, b: &Atom) -> Option<Trivial> {
    if is_number(a, 0) || is_number(b, 0) {
        Some(Trivial::Zero)
    } else {
        other_than(1, a, b)
    }
}

fn trivial_quotient(_: &Atom, b: &Atom) -> Option<Trivial> {
    is_number(b, 1).then_some(Trivial::Left)
}

macro_rules! binary {
    ($trait:ident, $method:ident, $op:tt, $trivial:ident) => {
        impl $trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                match $trivial(&self.0, &rhs.0) {
                    Some(Trivial::Left) => self,
                    Some(Trivial::Right) => rhs,
                    Some(Trivial::Zero) => Expr::zero(),
                    None => Expr(self.0 $op rhs.0),
                }
            }
        }
        impl $trait<&Expr> for &Expr {
            type Output = Expr;
            fn $method(self, rhs: &Expr) -> Expr {
                match $trivial(&self.0, &rhs.0) {
                    Some(Trivial::Left) => self.clone(),
                    Some(Trivial::Right) => rhs.clone(),
                    Some(Trivial::Zero) => Expr::zero(),
                    None => Expr(self.0.clone() $op rhs.0.clone()),
                }
            }
        }
        impl $trait<&Expr> for Expr {
            type Output = Expr;
            fn $method(self, rhs: &Expr) -> Expr {
                match $trivial(&self.0, &rhs.0) {
                    Some(Trivial::Left) => self,
                    Some(Trivial::Right) => rhs.clone(),
                    Some(Trivial::Zero) => Expr::zero(),
                    None => Expr(self.0 $op rhs.0.clone()),
                }
            }
        }
    };
}

binary!(Add, add, +, trivial_sum);
binary!(Sub, sub, -, trivial_difference);
binary!(Mul, mul, *, trivial_product);
binary!(Div, div, /, trivial_quotient);

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        negated_integer(&self.0).unwrap_or_else(|| Expr(-self.0))
    }
}

impl Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        negated_integer(&self.0).unwrap_or_else(|| Expr(-self.0.clone()))
    }
}

/// `−k` when `atom` is an integer `k` of a machine word, made as a number without arithmetic
/// (as the trivial operations above are found before anything is built): the structure
/// functions of a tangent bundle, negated for the extended algebroid, are all zero, and the
/// skew matrices of joint axes negate their `0`s and `±1`s.
fn negated_integer(atom: &Atom) -> Option<Expr> {
    small_integer(atom)
        .and_then(i64::checked_neg)
        .map(|k| Expr(Atom::num(k)))
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    /// The negation of an integer, made as a number, and a sum with its zero terms left out
    /// are the atoms Symbolica's own negation and sum give.
    #[test]
    fn negated_integers_and_sums_without_zeros_are_what_normalising_gives() {
        for k in [0, 1, -1, 7, -12, i64::MAX, i64::MIN + 1] {
            let n = Expr(Atom::num(k));
            assert!(negated_integer(&n.0).is_some(), "{k}");
            assert_eq!(-n.clone(), Expr(-n.0.clone()), "{k}");
            assert_eq!(-&n, Expr(-n.0.clone()), "{k}");
        }
        for other in [Expr::rational(1, 3), s("neg_a"), Expr(Atom::num(i64::MIN))] {
            assert!(negated_integer(&other.0).is_none(), "{other}");
        }
        let (a, b) = (s("sum_a"), s("sum_b") * Expr::int(2));
        let zero = Expr::zero;
        let cases = [
            vec![zero(), a.clone(), zero(), b.clone()],
            vec![zero(), a.clone()],
            vec![zero(), zero()],
            vec![],
        ];
        for terms in cases {
            let all = terms.iter().fold(Atom::num(0), |acc, t| acc + t.0.clone());
            assert_eq!(Expr::sum(terms.clone()), Expr(all), "{terms:?}");
        }
    }

    /// A sum, difference or product with a zero or a one is the atom Symbolica's own operation
    /// normalises to, for every kind of atom; and the zero and one are recognised (otherwise the
    /// shortcut would never be taken, and the equalities would hold vacuously).
    #[test]
    fn operations_with_zero_or_one_are_what_normalising_gives() {
        assert!(is_number(&Expr::zero().0, 0));
        assert!(is_number(&Expr::one().0, 1));
        assert!(is_number(&(s("a") - s("a")).0, 0));
        assert!(!is_number(&Expr::rational(1, 2).0, 1));
        assert!(!is_number(&Expr::rational(-1, 1).0, 1));
        assert!(!is_number(&s("a").0, 0));
        let (a, b) = (s("a"), s("b"));
        let (zero, one) = (Atom::num(0), Atom::num(1));
        let atoms = [
            a.clone(),
            Expr::rational(3, 4),
            Expr::rational(-2, 1),
            -a.clone(),
            a.clone() + b.clone(),
            Expr::rational(2, 1) * a.clone() * b.clone(),
            a.clone().pow(&Expr::rational(1, 2)),
            Expr::apply(Func::Sin, a.clone() - b.clone()),
            a.clone() / (a.clone() + b.clone()),
        ];
        for x in &atoms {
            let raw = &x.0;
            let cases = [
                (x.clone() + Expr::zero(), raw.clone() + zero.clone()),
                (Expr::zero() + x.clone(), zero.clone() + raw.clone()),
                (x - &Expr::zero(), raw.clone() - zero.clone()),
                (x * &Expr::one(), raw.clone() * one.clone()),
                (&Expr::one() * x, one.clone() * raw.clone()),
                (x * &Expr::zero(), raw.clone() * zero.clone()),
                (Expr::zero() * x, zero.clone() * raw.clone()),
                (x / &Expr::one(), raw.clone() / one.clone()),
                (x.clone() / Expr::one(), raw.clone() / one.clone()),
            ];
            for (k, (shortcut, normalised)) in cases.into_iter().enumerate() {
                assert_eq!(shortcut, Expr(normalised), "case {k} of {x}");
            }
        }
    }

    /// `Expr::diff` against Symbolica's derivative of the whole, atom for atom.
    fn assert_whole_derivative(f: &Expr, name: &str) {
        let whole = Expr(f.0.derivative(sym(name)));
        assert_eq!(f.diff(name), whole, "d/d{name} of {f}");
    }

    #[test]
    fn derivative_is_the_whole_derivative() {
        let (x, y, a, b, c) = (s("x"), s("y"), s("a"), s("b"), s("c"));
        let (cos, sin) = (
            Expr::apply(Func::Cos, x.clone()),
            Expr::apply(Func::Sin, x.clone()),
        );
        let cases = [
            // A mass-matrix entry: constant factors, a parameter sum, one factor reading x.
            a.clone()
                * b.clone()
                * (s("m1") + s("m2") + s("m3"))
                * (cos.clone() * s("cy") + sin.clone() * s("sy")),
            // Several factors read x (the product rule keeps a term for each), one is a sum whose
            // derivative is a sum, a negative power, a rational coefficient.
            -Expr::rational(3, 2) * c.clone() * x.powi(2) * (x.clone() + a.clone())
                / (Expr::one() + x.powi(2)),
            // Nothing reads x, x alone, a sum, a function of x, x in an exponent.
            a.clone() * b.clone() + c.clone(),
            x.clone(),
            x.powi(3) + a.clone() * x.clone() + sin.clone(),
            a.clone() * Expr::apply(Func::Exp, a.clone() * x.clone()) * y.clone(),
            a.clone() * (x.clone() - x.clone() + b.clone()),
            // A sum whose terms' derivatives are sums themselves (the sum rule flattens them).
            x.powi(2) * y.clone() * sin.clone() + x.clone() * cos.clone() + b.clone() * y.clone(),
        ];
        for f in &cases {
            assert_whole_derivative(f, "x");
            assert_whole_derivative(f, "y");
        }
        // Hand-derived: d/dx (a x² (x + b)) = 3 a x² + 2 a b x.
        let f = a.clone() * x.powi(2) * (x.clone() + b.clone());
        let expected = Expr::int(3) * a.clone() * x.powi(2) + Expr::int(2) * a * b * x.clone();
        assert!((f.diff("x") - expected).is_zero());
        assert!((a_free_of_x().diff("x")).is_literal_zero());
    }

    fn a_free_of_x() -> Expr {
        s("a") * (s("b") + s("c"))
    }

    #[test]
    fn symbol_names_are_read_without_their_prefix() {
        let s = super::sym("theta_named");
        let read = || super::with_symbol_name(s, str::to_string);
        assert_eq!(read(), "theta_named");
        // Read a second time, from the table.
        assert_eq!(read(), "theta_named");
        assert_eq!(super::unprefixed("a::b::c"), "c");
        assert_eq!(super::unprefixed("plain"), "plain");
    }
}
