//! Polynomial arithmetic on Symbolica's sparse polynomial type, for the steps of a normal form
//! that are pure polynomial algebra.
//!
//! An expression tree pays a normalisation for every product and sum it forms; a sparse
//! polynomial (packed exponent vectors and rational coefficients) multiplies and adds without
//! one. The reduction modulo `sin² + cos² = 1` of a large expanded numerator rewrites most of its
//! monomials, and done on trees it dominated the slowest derivations. Here an expanded expression
//! is converted once, reduced, and converted back: every symbol, function and non-polynomial
//! power of the expression is a variable of the polynomial (Symbolica's conversion), so the round
//! trip returns the same expression, and a reduced polynomial is unique, so the result is the one
//! the trees gave.

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};
use symbolica::coefficient::CoefficientView;
use symbolica::domains::rational::Q;
use symbolica::poly::polynomial::MultivariatePolynomial;
use symbolica::poly::PolyVariable;

/// A polynomial with rational coefficients in the variables Symbolica's conversion finds.
type Polynomial = MultivariatePolynomial<symbolica::domains::rational::RationalField, u16>;

/// The expanded polynomial `expanded` reduced modulo `big² = 1 − small²` for each pair
/// `(big, small)` of symbols: every `big^j` becomes `big^(j mod 2) (1 − small²)^(j div 2)`.
/// `None` when `expanded` has a number that is not a real rational (the polynomial's
/// coefficients are rationals), or no square of a `big`.
pub(crate) fn reduce_squares(expanded: &Atom, pairs: &[(Symbol, Symbol)]) -> Option<Atom> {
    // Most calls hold squares of the other orientation's symbols only: without a power of a
    // `big`, no conversion is needed to know that nothing is reduced.
    let bigs: Vec<Symbol> = pairs.iter().map(|&(big, _)| big).collect();
    if !has_power_of(expanded.as_view(), &bigs) {
        return None;
    }
    let converted = converted(expanded)?;
    let mut reduced: Option<Polynomial> = None;
    for &(big, small) in pairs {
        if let Some(next) = reduce_square(reduced.as_ref().unwrap_or(&converted), big, small) {
            reduced = Some(next);
        }
    }
    reduced.map(|poly| poly.to_expression())
}

/// `expanded` as a polynomial, `None` when it has a number that is not a real rational. The
/// last [`CONVERSIONS_KEPT`] conversions are kept: a normal form reduces its numerator in one
/// orientation and then in the other (the rolling disc's numerators have 165,000 nodes, and
/// their conversion was half of each reduction).
fn converted(expanded: &Atom) -> Option<std::rc::Rc<Polynomial>> {
    let known = CONVERSIONS.with_borrow(|kept| {
        kept.iter()
            .find(|(atom, _)| atom == expanded)
            .map(|(_, poly)| poly.clone())
    });
    if known.is_some() {
        return known;
    }
    if !has_only_real_rationals(expanded.as_view()) {
        return None;
    }
    let poly: std::rc::Rc<Polynomial> = std::rc::Rc::new(expanded.to_polynomial(&Q, None));
    CONVERSIONS.with_borrow_mut(|kept| {
        kept.insert(0, (expanded.clone(), poly.clone()));
        kept.truncate(CONVERSIONS_KEPT);
    });
    Some(poly)
}

/// How many conversions [`converted`] keeps: a numerator's and a denominator's, of the
/// orientation reduced last.
const CONVERSIONS_KEPT: usize = 2;

thread_local! {
    /// The last conversions ([`converted`]), the latest first.
    static CONVERSIONS: std::cell::RefCell<Vec<(Atom, std::rc::Rc<Polynomial>)>> =
        Default::default();
}

/// `poly` with `big^j` replaced by `big^(j mod 2) (1 − small²)^(j div 2)`, as
/// `Σ_j a_j big^(j mod 2) u^(j div 2)` with `u = 1 − small²` and `a_j` the coefficient of
/// `big^j`; `None` when `big` occurs to no power above one.
fn reduce_square(poly: &Polynomial, big: Symbol, small: Symbol) -> Option<Polynomial> {
    let big_var = PolyVariable::from(big);
    let big_index = poly.get_vars_ref().iter().position(|v| *v == big_var)?;
    if poly.degree(big_index) < 2 {
        return None;
    }
    let mut poly = poly.clone();
    let small_var = PolyVariable::from(small);
    poly.add_variable(&small_var);
    let small_poly = poly.variable(&small_var).ok()?;
    let big_poly = poly.variable(&big_var).ok()?;
    let u = poly.one() - small_poly.pow(2);
    let mut powers_of_u = vec![poly.one()];
    let mut reduced = poly.zero();
    for (coefficient, j) in poly.to_univariate_polynomial_list(big_index) {
        let j = usize::from(j);
        while powers_of_u.len() <= j / 2 {
            let next = powers_of_u.last().expect("u^0") * &u;
            powers_of_u.push(next);
        }
        let mut term = coefficient * &powers_of_u[j / 2];
        if j % 2 == 1 {
            term = term * &big_poly;
        }
        reduced = reduced + term;
    }
    Some(reduced)
}

/// The expansion of `atom`, a polynomial with rational coefficients whose degree fits the
/// exponents, multiplied out as sparse polynomials: the same expression as `atom.expand()`
/// (Symbolica's conversion expands, and an expanded polynomial has one normalised tree).
pub(crate) fn expansion(atom: &Atom) -> Atom {
    let poly: Polynomial = atom.to_polynomial(&Q, None);
    poly.to_expression()
}

/// Whether one of `symbols` is the base of a power anywhere in `view` (whatever the exponent,
/// inside functions and powers too). An expanded polynomial of degree two or more in a symbol
/// holds it as the base of a power, so `false` means degree at most one in each.
fn has_power_of(view: AtomView<'_>, symbols: &[Symbol]) -> bool {
    match view {
        AtomView::Num(_) | AtomView::Var(_) => false,
        AtomView::Fun(f) => f.iter().any(|a| has_power_of(a, symbols)),
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            match base {
                AtomView::Var(v) if symbols.contains(&v.get_symbol()) => true,
                _ => has_power_of(base, symbols) || has_power_of(exp, symbols),
            }
        }
        AtomView::Mul(m) => m.iter().any(|a| has_power_of(a, symbols)),
        AtomView::Add(a) => a.iter().any(|t| has_power_of(t, symbols)),
    }
}

/// Whether every number in `view` is a real rational.
fn has_only_real_rationals(view: AtomView<'_>) -> bool {
    match view {
        AtomView::Num(n) => match n.get_coeff_view() {
            CoefficientView::Natural(_, _, imaginary, _) => imaginary == 0,
            CoefficientView::Large(_, imaginary) => imaginary.is_zero(),
            _ => false,
        },
        AtomView::Var(_) => true,
        AtomView::Fun(f) => f.iter().all(has_only_real_rationals),
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            has_only_real_rationals(base) && has_only_real_rationals(exp)
        }
        AtomView::Mul(m) => m.iter().all(has_only_real_rationals),
        AtomView::Add(a) => a.iter().all(has_only_real_rationals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Expr, Func};

    /// Where no `big` is the base of a power, the polynomial Symbolica converts has degree at
    /// most one in it, so skipping the conversion loses no reduction; where one is, the walk
    /// says so, even inside a function or a power's base.
    #[test]
    fn a_symbol_to_no_power_has_degree_at_most_one() {
        let (c, s, q) = (Expr::symbol("c"), Expr::symbol("s"), Expr::symbol("q"));
        let exp = |e: Expr| Expr::apply(Func::Exp, e);
        let cases = [
            (
                c.clone() * s.powi(2) + q.clone() * c.clone() + s.clone(),
                false,
            ),
            (
                exp(c.clone()) * c.clone() + q.clone().pow(&Expr::rational(1, 3)),
                false,
            ),
            (c.powi(2) * q.clone() + s.clone(), true),
            (exp(c.powi(2)) * s.clone(), true),
            (c.pow(&Expr::rational(1, 2)) * q.clone(), true),
            (c.powi(-1) * q.clone(), true),
        ];
        let big = c.0.as_view().get_symbol().expect("a symbol");
        for (e, expected) in cases {
            let expanded = e.expand();
            let found = has_power_of(expanded.0.as_view(), &[big]);
            assert_eq!(found, expected, "{expanded}");
            if !found {
                let poly: Polynomial = expanded.0.to_polynomial(&Q, None);
                let big_var = PolyVariable::from(big);
                let at = poly.get_vars_ref().iter().position(|v| *v == big_var);
                assert!(at.is_none_or(|k| poly.degree(k) < 2), "{expanded}");
            }
        }
    }

    /// A reduction from a kept conversion is the reduction from a fresh one: each polynomial is
    /// reduced in one orientation and then in the other (the second conversion is found kept),
    /// and again with nothing kept; a polynomial with a number that is not a real rational is not
    /// converted, kept or not.
    #[test]
    fn a_kept_conversion_reduces_as_a_fresh_one() {
        let sym = |name: &str| Expr::symbol(name);
        let (s0, c0, s1, c1, m) = (sym("s0"), sym("c0"), sym("s1"), sym("c1"), sym("m"));
        let symbol = |e: &Expr| e.0.as_view().get_symbol().expect("a symbol");
        let cosines = [(symbol(&c0), symbol(&s0)), (symbol(&c1), symbol(&s1))];
        let sines = [(symbol(&s0), symbol(&c0)), (symbol(&s1), symbol(&c1))];
        let cases = [
            m.clone() * c0.powi(2) * s1.powi(2) - s0.powi(3) * c1.clone() + Expr::rational(3, 2),
            (c0.clone() + s0.clone()).powi(4) * (m.clone() - c1.powi(2)),
        ];
        for e in cases {
            let expanded = e.expand().0;
            let kept = [
                reduce_squares(&expanded, &cosines),
                reduce_squares(&expanded, &sines),
            ];
            let fresh = [&cosines, &sines].map(|pairs| {
                CONVERSIONS.with_borrow_mut(Vec::clear);
                reduce_squares(&expanded, pairs)
            });
            assert_eq!(kept, fresh, "{e}");
            assert!(kept.iter().all(Option::is_some), "{e}");
        }
        let unit = Expr::int(-1).pow(&Expr::rational(1, 2));
        let imaginary = (c0.powi(2) * unit + m.clone()).expand();
        assert!(
            !has_only_real_rationals(imaginary.0.as_view()),
            "{imaginary}"
        );
        assert_eq!(reduce_squares(&imaginary.0, &cosines), None);
        assert_eq!(reduce_squares(&imaginary.0, &cosines), None);
    }

    /// The sparse polynomials' expansion is the trees' expansion, node for node: powers and
    /// products of sums, rational and negative coefficients, a constant term, a sum of products
    /// with a few to distribute, and a polynomial in many symbols.
    #[test]
    fn the_polynomial_expansion_is_the_expansion() {
        let (a, b, c, d) = (
            Expr::symbol("a"),
            Expr::symbol("b"),
            Expr::symbol("c"),
            Expr::symbol("d"),
        );
        let half = Expr::rational(1, 2);
        let sum = a.clone() - b.clone() * Expr::rational(3, 7) + Expr::int(2);
        let many: Expr = (1..=12)
            .map(|k| Expr::symbol(&format!("x{k}")) * Expr::int(k - 6))
            .fold(Expr::zero(), |acc, t| acc + t);
        let cases = [
            sum.powi(5),
            (a.clone() + b.clone()).powi(3) * (c.clone() - d.clone()).powi(2),
            half.clone() * (a.clone() * c.clone() - b.clone()) * (c.clone() + half.clone()),
            a.clone() * b.clone() + c.clone() * (a.clone() - d.clone()) + d.powi(4),
            -(a.clone() - b.clone()).powi(2) * c.powi(3) + Expr::rational(-5, 3),
            many.powi(3),
            (many.clone() + sum.clone()) * (many - sum),
        ];
        for e in cases {
            assert_eq!(expansion(&e.0), e.0.expand(), "{e}");
        }
    }
}
