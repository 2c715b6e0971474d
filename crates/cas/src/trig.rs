//! Display forms. Collecting angle sums and differences: `cos a cos b + sin a sin b` reads
//! `cos(a − b)`, `sin a cos b − cos a sin b` reads `sin(a − b)`, with any common factor kept
//! outside. The inverse of [`Expr::expand_trig`], applied where a sum holds such a pair of terms;
//! printers choose it when it prints shorter.

use crate::expr::Trig;
use crate::remember::{remembered, Remembered};
use crate::{Expr, Func, View};

/// A term split into its sine and cosine factors of plain arguments (at most two) and the rest.
struct Split {
    trig: Vec<(Trig, Expr)>,
    rest: Expr,
    /// The rest's value at the probe point ([`probe`]), computed when first asked for.
    value: std::cell::OnceCell<f64>,
}

impl Split {
    /// [`Split::rest`] at the probe point.
    fn value(&self) -> f64 {
        *self.value.get_or_init(|| probe(&self.rest))
    }
}

/// The value of `e` with every symbol at a number of its own in (0.3, 1.7), fixed by its name
/// (NaN where that is not a finite number): a fast test that two rests cannot cancel, before the
/// exact one.
fn probe(e: &Expr) -> f64 {
    let values: std::collections::BTreeMap<String, f64> = e
        .symbols()
        .into_iter()
        // π is a constant of the programs, not a symbol to give a number.
        .filter(|name| name != crate::PI_NAME)
        .map(|name| {
            // FNV-1a of the name: the same number for the same symbol in every term and run.
            let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            let unit = (hash >> 11) as f64 / (1u64 << 53) as f64;
            (name, 0.3 + 1.4 * unit)
        })
        .collect();
    e.evaluate(&values).unwrap_or(f64::NAN)
}

/// Whether the rests of `x` and `y` may be opposite: not when their values at the probe point
/// are finite and their sum is not round-off (the exact test decides otherwise).
fn may_be_opposite(x: &Split, y: &Split) -> bool {
    let (a, b) = (x.value(), y.value());
    !(a.is_finite() && b.is_finite()) || (a + b).abs() <= 1e-8 * (a.abs() + b.abs())
}

/// Whether a square `sin² a` (or `cos² a`) is split into two factors that may pair with others
/// (`cos² a + sin² a`, only when contracting) or kept whole in the rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Squares {
    Split,
    Whole,
}

fn split(term: &Expr, squares: Squares) -> Split {
    let factors = term.factors();
    let mut trig = Vec::new();
    let mut rest = Vec::new();
    for f in factors {
        match f.view() {
            View::Call(name, args) if (name == "sin" || name == "cos") && args.len() == 1 => {
                trig.push((Trig::sine_if(name == "sin"), args[0].clone()));
            }
            View::Pow(base, exponent)
                if squares == Squares::Split && exponent.as_small_rational() == Some((2, 1)) =>
            {
                match base.view() {
                    View::Call(name, args)
                        if (name == "sin" || name == "cos") && args.len() == 1 =>
                    {
                        trig.push((Trig::sine_if(name == "sin"), args[0].clone()));
                        trig.push((Trig::sine_if(name == "sin"), args[0].clone()));
                    }
                    _ => rest.push(f),
                }
            }
            _ => rest.push(f),
        }
    }
    Split {
        trig,
        rest: Expr::product(rest),
        value: std::cell::OnceCell::new(),
    }
}

/// `cos(arg)` or `sin(arg)` with the argument's sign chosen the same way in every process: of
/// `arg` and `−arg`, the one whose printed form has no leading minus and comes first (`cos` is
/// even, `sin` odd).
fn call(which: Trig, arg: Expr) -> Expr {
    let printed = |e: &Expr| crate::print::spec(e, &crate::print::Keys);
    // `(φ + θ) − (θ − φ)` reads `2 φ`.
    let arg = arg.expand();
    let negated = (-arg.clone()).distribute_signs();
    let key = |e: &Expr| {
        let p = printed(e);
        (p.starts_with('-'), p)
    };
    let (arg, flip) = if key(&negated) < key(&arg) {
        (negated, which == Trig::Sin)
    } else {
        (arg, false)
    };
    let value = Expr::apply(which.func(), arg);
    if flip {
        -value
    } else {
        value
    }
}

/// The collected form of `x + y` when the two terms are a pair of an angle-sum identity.
fn pair(x: &Split, y: &Split) -> Option<Expr> {
    let ([(sx1, a1), (sx2, b1)], [(sy1, a2), (sy2, b2)]) = (x.trig.as_slice(), y.trig.as_slice())
    else {
        return None;
    };
    // Orient y's factors to x's arguments.
    let (sy1, sy2) = if a1 == a2 && b1 == b2 {
        (*sy1, *sy2)
    } else if a1 == b2 && b1 == a2 {
        (*sy2, *sy1)
    } else {
        return None;
    };
    let same = x.rest == y.rest;
    if a1 == b1 {
        // cos² a + sin² a = 1 (only split apart by `contract_trig`).
        let squares = sx1 == sx2 && sy1 == sy2 && sx1 != &sy1;
        return (squares && same).then(|| x.rest.clone());
    }
    let (a, b) = (a1.clone(), b1.clone());
    let opposite = !same && may_be_opposite(x, y) && (x.rest.clone() + y.rest.clone()).is_zero();
    if !same && !opposite {
        return None;
    }
    let r = x.rest.clone();
    match (*sx1, *sx2, sy1, sy2) {
        // cos a cos b ± sin a sin b = cos(a ∓ b)
        (Trig::Cos, Trig::Cos, Trig::Sin, Trig::Sin) => {
            Some(r * call(Trig::Cos, if same { a - b } else { a + b }))
        }
        // sin a sin b ± cos a cos b = cos(a − b), or −cos(a + b)
        (Trig::Sin, Trig::Sin, Trig::Cos, Trig::Cos) if same => Some(r * call(Trig::Cos, a - b)),
        (Trig::Sin, Trig::Sin, Trig::Cos, Trig::Cos) => Some(-r * call(Trig::Cos, a + b)),
        // sin a cos b ± cos a sin b = sin(a ± b)
        (Trig::Sin, Trig::Cos, Trig::Cos, Trig::Sin) => {
            Some(r * call(Trig::Sin, if same { a + b } else { a - b }))
        }
        // cos a sin b ± sin a cos b = sin(b ± a)
        (Trig::Cos, Trig::Sin, Trig::Sin, Trig::Cos) => {
            Some(r * call(Trig::Sin, if same { a + b } else { b - a }))
        }
        _ => None,
    }
}

/// `terms` with every collectable pair replaced by its collected form: greedily, in the order of
/// the terms' printed form (never Symbolica's internal order, which depends on the order symbols
/// were created in, so that the same expression is collected the same way in every process).
///
/// Only a term with two sines or cosines can be one of a pair ([`pair`]): the others are summed
/// as they are, and only the candidates are printed to be ordered (their relative order is the
/// one all the terms printed would give them).
fn collect_terms(terms: Vec<Expr>, squares: Squares) -> Expr {
    let mut out = Vec::with_capacity(terms.len());
    let mut candidates = Vec::new();
    for term in terms {
        let split = split(&term, squares);
        if split.trig.len() == 2 {
            candidates.push((term, split));
        } else {
            out.push(term);
        }
    }
    candidates.sort_by_cached_key(|(t, _)| crate::print::spec(t, &crate::print::Keys));
    let mut used = vec![false; candidates.len()];
    for i in 0..candidates.len() {
        if used[i] {
            continue;
        }
        let partner = (i + 1..candidates.len())
            .filter(|&j| !used[j])
            .find_map(|j| pair(&candidates[i].1, &candidates[j].1).map(|e| (j, e)));
        match partner {
            Some((j, collected)) => {
                used[j] = true;
                out.push(collected);
            }
            None => out.push(candidates[i].0.clone()),
        }
        used[i] = true;
    }
    Expr::sum(out)
}

impl Expr {
    /// Collects the angle-sum identities in every sum of the expression (see the module
    /// documentation). The value is unchanged; the form is meant for printing.
    pub fn collect_trig(&self) -> Expr {
        let _stage = timing::stage("collect trig");
        // Every pair holds a sine and a cosine: a part without both is its own collected form.
        if self.has_sine_cosine() != (true, true) {
            return self.clone();
        }
        match self.view() {
            View::Add(terms) => collect_terms(
                terms.iter().map(Expr::collect_trig).collect(),
                Squares::Whole,
            ),
            view => self.map_children(view, Expr::collect_trig),
        }
    }
}

impl Expr {
    /// Whether a sine, and whether a cosine, occurs anywhere in the expression (one walk, no
    /// allocation): without both, [`Expr::with_tangents`] has nothing to write, and without
    /// either, [`Expr::with_double_angles`] has nothing either.
    pub fn has_sine_cosine(&self) -> (bool, bool) {
        let mut found = (false, false);
        sine_cosine(self.0.as_view(), &mut found);
        found
    }
}

fn sine_cosine(view: symbolica::atom::AtomView<'_>, found: &mut (bool, bool)) {
    use symbolica::atom::AtomView;
    if found.0 && found.1 {
        return;
    }
    match view {
        AtomView::Num(_) | AtomView::Var(_) => {}
        AtomView::Fun(f) => {
            crate::expr::with_symbol_name(f.get_symbol(), |name| match name {
                "sin" => found.0 = true,
                "cos" => found.1 = true,
                _ => {}
            });
            f.iter().for_each(|a| sine_cosine(a, found));
        }
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            sine_cosine(base, found);
            sine_cosine(exponent, found);
        }
        AtomView::Mul(m) => m.iter().for_each(|a| sine_cosine(a, found)),
        AtomView::Add(a) => a.iter().for_each(|t| sine_cosine(t, found)),
    }
}

impl Expr {
    /// Quotients of a sine and a cosine of the same argument written as tangents, in every
    /// product of the expression: `sin a/cos a` reads `tan a`, `cos² a/sin² a` reads `1/tan² a`
    /// (`sin² a/cos a` reads `sin a tan a`). The value is unchanged; the form is meant for printing
    /// (the CAS's normal forms do not know `tan`).
    pub fn with_tangents(&self) -> Expr {
        let _stage = timing::stage("tangents");
        // A part without both a sine and a cosine has no quotient to write: it stays as it is.
        if self.has_sine_cosine() != (true, true) {
            return self.clone();
        }
        remembered(&TANGENTS, self, Expr::byte_size, || match self.view() {
            View::Mul(factors) => tangents_of_product(self, &factors),
            view => self.map_children(view, Expr::with_tangents),
        })
    }
}

thread_local! {
    /// The tangent forms computed so far ([`crate::remember`]): a display's candidates share
    /// their parts, and the snakeboard's asked for 107,000 tangent forms of 11,000 parts.
    static TANGENTS: std::cell::RefCell<Remembered<Expr>> = Default::default();
    /// The double-angle forms computed so far ([`crate::remember`]): 545,000 asked for by the
    /// snakeboard's displays, of 12,000 parts.
    static DOUBLE_ANGLES: std::cell::RefCell<Remembered<Expr>> = Default::default();
}

#[cfg(test)]
impl Expr {
    /// The inverse of [`Expr::with_tangents`]: every `tan a` as `sin a/cos a`.
    pub(crate) fn without_tangents(&self) -> Expr {
        match self.view() {
            View::Call(name, args) if name == "tan" && args.len() == 1 => {
                Expr::apply(Func::Tan, args[0].without_tangents())
            }
            view => self.map_children(view, Expr::without_tangents),
        }
    }
}

impl Expr {
    /// `2 sin a cos a` written as `sin(2a)` in every product whose number is even and that holds
    /// `sin a` and `cos a` to the first power (`2 ω p cos θ sin θ` reads `ω p sin(2θ)`), and
    /// `c − 2c cos² a` as `−c cos(2a)` (`c − 2c sin² a` as `c cos(2a)`) in every sum that holds a
    /// term `c` (a number or a product) and such a square. The value is unchanged; the form is meant for printing.
    pub fn with_double_angles(&self) -> Expr {
        let _stage = timing::stage("double angles");
        // A part without a sine or a cosine has no product or square to write: it stays.
        if self.has_sine_cosine() == (false, false) {
            return self.clone();
        }
        remembered(&DOUBLE_ANGLES, self, Expr::byte_size, || {
            match self.view() {
                View::Add(terms) => {
                    let doubled: Vec<Expr> = terms.iter().map(Expr::with_double_angles).collect();
                    cosine_of_double(doubled, &terms).unwrap_or_else(|| self.clone())
                }
                View::Mul(factors) => {
                    double_angles_of_product(&factors).unwrap_or_else(|| self.clone())
                }
                view => self.map_children(view, Expr::with_double_angles),
            }
        })
    }
}

/// The terms of a sum with every pair `c` and `−2c cos² a` (or `−2c sin² a`), `c` any product,
/// written as `−c cos(2a)` (or `c cos(2a)`): `α β − 2 α β cos² φ` reads `−α β cos(2φ)`. The
/// squares are paired in printed order, each with the first term equal to its `c`.
/// `None` when nothing is written anew: no pair, and `terms` are the sum's own `given` terms
/// (the sum itself then, not rebuilt).
fn cosine_of_double(terms: Vec<Expr>, given: &[Expr]) -> Option<Expr> {
    // A square whose partner is not a term pairs with nothing: it is not printed to be sorted.
    // The terms are indexed at the first square (most sums have none).
    let mut present: Option<std::collections::HashSet<&Expr>> = None;
    let mut squares: Vec<(String, usize, Trig, Expr, Expr)> = terms
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let (sine, arg, rest) = one_square(t)?;
            let partner = rest / Expr::int(-2);
            let present = present.get_or_insert_with(|| terms.iter().collect());
            if !present.contains(&partner) {
                return None;
            }
            Some((
                crate::print::spec(t, &crate::print::AsIs),
                i,
                sine,
                arg,
                partner,
            ))
        })
        .collect();
    squares.sort_by(|a, b| a.0.cmp(&b.0));
    let mut used = vec![false; terms.len()];
    let mut doubled = Vec::new();
    for (_, i, sine, arg, partner) in squares {
        if used[i] {
            continue;
        }
        let found = (0..terms.len()).find(|&j| j != i && !used[j] && terms[j] == partner);
        if let Some(j) = found {
            used[i] = true;
            used[j] = true;
            let cosine = Expr::apply(Func::Cos, Expr::int(2) * arg);
            doubled.push(match sine {
                Trig::Sin => partner * cosine,
                Trig::Cos => -partner * cosine,
            });
        }
    }
    if doubled.is_empty() {
        return (terms != given).then(|| Expr::sum(terms));
    }
    let rest = terms
        .into_iter()
        .zip(used)
        .filter(|(_, used)| !used)
        .map(|(t, _)| t);
    Some(Expr::sum(rest.chain(doubled)))
}

/// A term with exactly one factor `sin(a)²` or `cos(a)²` as `(which, a, the other factors)`.
/// The other factors are multiplied only once the square is found (most terms have none).
fn one_square(term: &Expr) -> Option<(Trig, Expr, Expr)> {
    let factors = term.factors();
    let mut square = None;
    for (i, f) in factors.iter().enumerate() {
        if let Some((sine, arg, 2)) = trig_power(f) {
            if square.is_some() {
                return None;
            }
            square = Some((i, sine, arg));
        }
    }
    let (at, sine, arg) = square?;
    let rest = factors
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .fold(Expr::one(), |rest, (_, f)| rest * f);
    Some((sine, arg, rest))
}

/// A product's first sine–cosine pair of one argument (by printed argument) as `sin(2a)/2`, when
/// its number is even; the other factors recursively. `None` when nothing is written anew (the
/// product itself then, not rebuilt).
fn double_angles_of_product(factors: &[Expr]) -> Option<Expr> {
    let even = factors
        .iter()
        .any(|f| matches!(f.as_small_rational(), Some((n, 1)) if n % 2 == 0));
    if !even {
        // No `2 sin a cos a` to write: only the factors' own double angles.
        return factors_anew(factors);
    }
    let mut singles: std::collections::BTreeMap<String, (Expr, [usize; 2])> = Default::default();
    for (i, f) in factors.iter().enumerate() {
        if let Some((sine, arg, 1)) = trig_power(f) {
            let key = crate::print::spec(&arg, &crate::print::AsIs);
            let entry = singles.entry(key).or_insert((arg, [usize::MAX; 2]));
            entry.1[usize::from(sine == Trig::Sin)] = i;
        }
    }
    let pair = singles
        .into_values()
        .find(|(_, [c, s])| *c != usize::MAX && *s != usize::MAX);
    match pair {
        Some((arg, [c, s])) => Some(
            factors
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != c && *i != s)
                .fold(
                    Expr::apply(Func::Sin, Expr::int(2) * arg) / Expr::int(2),
                    |acc, (_, f)| acc * f.with_double_angles(),
                ),
        ),
        _ => factors_anew(factors),
    }
}

/// The product of `factors` with each factor's double angles written, `None` when no factor
/// changes.
fn factors_anew(factors: &[Expr]) -> Option<Expr> {
    let doubled: Vec<Expr> = factors.iter().map(Expr::with_double_angles).collect();
    (doubled != factors).then(|| Expr::product(doubled))
}

/// `sin(a)^n` or `cos(a)^n` (`n` a small integer, possibly negative) as `(which, a, n)`.
/// Read in place: only the argument is copied.
pub(crate) fn trig_power(factor: &Expr) -> Option<(Trig, Expr, i64)> {
    use symbolica::atom::AtomView;
    let (base, power) = match factor.0.as_view() {
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            match crate::view::small_rational(exponent) {
                Some((n, 1)) => (base, n),
                _ => return None,
            }
        }
        view => (view, 1),
    };
    let AtomView::Fun(f) = base else { return None };
    let which = crate::expr::with_symbol_name(f.get_symbol(), |name| match name {
        "sin" => Some(Trig::Sin),
        "cos" => Some(Trig::Cos),
        _ => None,
    })?;
    let mut args = f.iter();
    match (args.next(), args.next()) {
        (Some(arg), None) => Some((which, Expr(arg.to_owned()), power)),
        _ => None,
    }
}

/// A product with each argument's sine and cosine powers of opposite signs merged into a power
/// of its tangent, as far as the smaller of the two reaches; the other factors recursively.
/// `product` itself, not multiplied back, when nothing is written (no such pair, no factor
/// changed): most products of the displays' candidates.
fn tangents_of_product(product: &Expr, factors: &[Expr]) -> Expr {
    // By the printed argument, so that the product is rebuilt in the same order in every process.
    let mut powers: std::collections::BTreeMap<String, (Expr, i64, i64)> = Default::default();
    let mut others = Vec::with_capacity(factors.len());
    let mut changed = false;
    for factor in factors {
        match trig_power(factor) {
            Some((which, arg, n)) => {
                let key = crate::print::spec(&arg, &crate::print::AsIs);
                let entry = powers.entry(key).or_insert((arg, 0, 0));
                match which {
                    Trig::Sin => entry.1 += n,
                    Trig::Cos => entry.2 += n,
                }
            }
            None => {
                let written = factor.with_tangents();
                changed |= written != *factor;
                others.push(written);
            }
        }
    }
    let powers: Vec<(Expr, i64, i64, i64)> = powers
        .into_values()
        .map(|(arg, sine, cosine)| {
            let tangent = if sine > 0 && cosine < 0 {
                sine.min(-cosine)
            } else if sine < 0 && cosine > 0 {
                -((-sine).min(cosine))
            } else {
                0
            };
            (arg, sine, cosine, tangent)
        })
        .collect();
    // Nothing to write: the product its factors would be multiplied back into.
    if !changed && powers.iter().all(|&(_, _, _, tangent)| tangent == 0) {
        return product.clone();
    }
    let mut rest = others.into_iter().fold(Expr::one(), |rest, f| rest * f);
    for (arg, sine, cosine, tangent) in powers {
        rest = rest
            * Expr::tangent_call(arg.clone()).powi(tangent)
            * Expr::apply(Func::Sin, arg.clone()).powi(sine - tangent)
            * Expr::apply(Func::Cos, arg).powi(cosine + tangent);
    }
    rest
}

/// [`collect_terms`] for sums of many terms (a kinetic energy): the same greedy pairing in the
/// same printed order, but each term's partners are looked up by their arguments and their rest
/// (equal, or its negative, structurally) instead of by trying every later term, and the result
/// is summed in one normalisation ([`Expr::sum`]).
fn contract_terms(mut terms: Vec<Expr>) -> Expr {
    terms.sort_by_cached_key(|t| crate::print::spec(t, &crate::print::Keys));
    let splits: Vec<Split> = terms.iter().map(|t| split(t, Squares::Split)).collect();
    // (rest, a, b) → the terms with those two trigonometric arguments (in both orders).
    let mut index: crate::hash::FastMap<(Expr, Expr, Expr), Vec<usize>> = Default::default();
    for (k, s) in splits.iter().enumerate() {
        if let [(_, a), (_, b)] = s.trig.as_slice() {
            index
                .entry((s.rest.clone(), a.clone(), b.clone()))
                .or_default()
                .push(k);
            if a != b {
                index
                    .entry((s.rest.clone(), b.clone(), a.clone()))
                    .or_default()
                    .push(k);
            }
        }
    }
    let mut used = vec![false; terms.len()];
    let mut out: Vec<symbolica::atom::Atom> = Vec::with_capacity(terms.len());
    for i in 0..terms.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let partner = match splits[i].trig.as_slice() {
            [(_, a), (_, b)] => {
                let rest = &splits[i].rest;
                let mut candidates: Vec<usize> = [rest.clone(), -rest.clone()]
                    .into_iter()
                    .flat_map(|r| {
                        index
                            .get(&(r, a.clone(), b.clone()))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .filter(|&j| j > i && !used[j])
                    .collect();
                candidates.sort_unstable();
                candidates
                    .into_iter()
                    .find_map(|j| pair(&splits[i], &splits[j]).map(|e| (j, e)))
            }
            _ => None,
        };
        match partner {
            Some((j, collected)) => {
                used[j] = true;
                out.push(collected.0);
            }
            None => out.push(terms[i].0.clone()),
        }
    }
    Expr::sum(out.into_iter().map(Expr))
}

impl Expr {
    /// The expanded expression with every pair `cos a cos b ± sin a sin b`, `sin a cos b ±
    /// cos a sin b` and `cos² a + sin² a` of its top-level sum contracted (to `cos(a ∓ b)`,
    /// `sin(a ± b)` and `1`). The value is unchanged. Used on a kinetic energy written in world
    /// axes, where it turns absolute angles into relative ones: `cos θ1 cos(θ1 + θ2) +
    /// sin θ1 sin(θ1 + θ2)` is `cos θ2`.
    pub fn contract_trig(&self) -> Expr {
        let _stage = timing::stage("trig contraction");
        match self.expand().view() {
            View::Add(terms) => contract_terms(terms),
            _ => self.expand(),
        }
    }
}

impl Expr {
    /// Distributes a minus sign over a sum wherever a product is `−1` times one sum,
    /// recursively: `−(−a − b)` reads `a + b`, never `-( - …`. The value is unchanged; the form is
    /// meant for printing expressions shown as derived.
    pub fn distribute_signs(&self) -> Expr {
        let _stage = timing::stage("distribute signs");
        // A part with no such product is its own form: rebuilding it would normalise it back.
        if !has_negated_sum(self.0.as_view()) {
            return self.clone();
        }
        if let Some(symbolica::atom::AtomView::Add(terms)) = negated_sum(self.0.as_view()) {
            return Expr::sum(terms.iter().map(|t| -Expr(t.to_owned()).distribute_signs()));
        }
        match self.view() {
            View::Number { .. } | View::Symbol(_) => self.clone(),
            View::Add(terms) => Expr::sum(terms.iter().map(Expr::distribute_signs)),
            View::Mul(factors) => Expr::product(factors.iter().map(Expr::distribute_signs)),
            view => self.map_children(view, Expr::distribute_signs),
        }
    }
}

/// The sum `s` of a product `−1 · s` of exactly two factors: what [`Expr::distribute_signs`]
/// writes as `s` with every term negated. `None` for any other node.
fn negated_sum(view: symbolica::atom::AtomView<'_>) -> Option<symbolica::atom::AtomView<'_>> {
    use symbolica::atom::AtomView;
    let AtomView::Mul(m) = view else {
        return None;
    };
    let minus_one = |v: AtomView<'_>| crate::view::small_rational(v) == Some((-1, 1));
    let mut factors = m.iter();
    let (a, b) = (factors.next()?, factors.next()?);
    if factors.next().is_some() {
        return None;
    }
    let sum = if minus_one(a) {
        b
    } else if minus_one(b) {
        a
    } else {
        return None;
    };
    matches!(sum, AtomView::Add(_)).then_some(sum)
}

/// Whether a product [`negated_sum`] finds occurs anywhere in the tree; read in place, without a
/// view.
fn has_negated_sum(view: symbolica::atom::AtomView<'_>) -> bool {
    use symbolica::atom::AtomView;
    match view {
        AtomView::Num(_) | AtomView::Var(_) => false,
        AtomView::Fun(f) => f.iter().any(has_negated_sum),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            has_negated_sum(base) || has_negated_sum(exponent)
        }
        AtomView::Mul(m) => negated_sum(view).is_some() || m.iter().any(has_negated_sum),
        AtomView::Add(a) => a.iter().any(has_negated_sum),
    }
}

#[cfg(test)]
mod tests;
