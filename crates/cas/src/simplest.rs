//! The simplest printed form of an expression ([`Expr::simplest`]): the candidate with the
//! fewest leaves as printed ([`crate::print::leaves`]) among the factored, factorised, normal and
//! split forms. The displays of the JSON and LaTeX documents use it; `bench/leafcount.py`
//! measures it against SymPy (`docs/simplification.md`).

use symbolica::atom::AtomView;

use crate::simplify::{factorise, smaller_of, split_fraction};
use crate::Expr;

impl Expr {
    /// The form with the fewest leaves as printed ([`crate::print::leaves`]) among the factored
    /// form ([`Expr::factored`], preferred on a tie), numerator and denominator factorised, the
    /// rational normal form, and the normal
    /// form split over its denominator: each term of the numerator whose quotient by the
    /// denominator cancels something is written apart, the rest stay over the denominator
    /// (`(r u − Ω k² y)/k²` is `r u/k² − Ω y`; a numeric denominator is printed once for the
    /// whole sum, so `(2 Ω p + y²)/2` stays as it is).
    pub fn simplest(&self) -> Expr {
        let simplified = self.simplify();
        let factorised = factorise(&simplified);
        let factored = smaller_of(&simplified, &factorised);
        let mut best = (crate::print::leaves(&factored), factored);
        let split = split_over_denominator(&simplified);
        for candidate in [factorised, simplified].into_iter().chain(split) {
            let leaves = crate::print::leaves(&candidate);
            if leaves < best.0 {
                best = (leaves, candidate);
            }
        }
        best.1
    }
}

/// The terms of a numerator split over their denominator, at most this many (a larger sum is
/// left whole: the display of a long sum gains little, and each term costs a normalisation).
const SPLIT_TERMS: usize = 64;

/// `n/d` written as the quotients of the terms of `n` that cancel something against `d`, plus the
/// rest over `d`; `None` when `d` is a number, `n` is not a sum, or no term cancels.
fn split_over_denominator(e: &Expr) -> Option<Expr> {
    let (n, d) = split_fraction(&e.0);
    let denominator = Expr(d);
    if denominator.as_small_rational().is_some() {
        return None;
    }
    let terms: Vec<Expr> = match n.as_view() {
        AtomView::Add(sum) if sum.iter().count() <= SPLIT_TERMS => {
            sum.iter().map(|t| Expr(t.to_owned())).collect()
        }
        _ => return None,
    };
    let (mut apart, mut rest) = (Vec::new(), Vec::new());
    for t in terms {
        let quotient = (t.clone() / denominator.clone()).simplify();
        let (_, below) = split_fraction(&quotient.0);
        if (Expr(below) - denominator.clone()).is_zero() {
            rest.push(t);
        } else {
            apart.push(quotient);
        }
    }
    if apart.is_empty() {
        return None;
    }
    if !rest.is_empty() {
        apart.push(Expr::sum(rest) / denominator);
    }
    Some(Expr::sum(apart))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn leaves_count_the_symbols_and_numbers_a_reader_sees() {
        let (a, b, x) = (s("a"), s("b"), s("x"));
        assert_eq!(crate::print::leaves(&((a.clone() + b) / Expr::int(2))), 3);
        assert_eq!(crate::print::leaves(&Expr::apply(Func::Sin, x).powi(2)), 2);
        assert_eq!(crate::print::leaves(&(-a)), 1);
    }

    #[test]
    fn simplest_splits_what_cancels_and_factors_what_repeats() {
        let (r, u, om, k, y, p, w1, u1, u2) = (
            s("r"),
            s("u"),
            s("Om"),
            s("k"),
            s("y"),
            s("p"),
            s("w1"),
            s("u1"),
            s("u2"),
        );
        let check = |e: Expr, most: usize| {
            let simplest = e.simplest();
            assert!(
                (simplest.clone() - e.clone()).is_zero(),
                "{simplest:?} is not {e:?}"
            );
            let leaves = crate::print::leaves(&simplest);
            assert!(
                leaves <= most,
                "{simplest:?}: {leaves} leaves, expected at most {most}"
            );
        };
        // (r u − Ω k² y)/k² = r u/k² − Ω y: six leaves, where the quotient has eight.
        check((r * u - om.clone() * k.powi(2) * y.clone()) / k.powi(2), 6);
        // (Ω k p + y)/k = Ω p + y/k.
        check((om * k.clone() * p + y) / k, 5);
        // u₂ w₁ − u₁ w₁ = w₁ (u₂ − u₁).
        check(u2 * w1.clone() - u1 * w1, 3);
    }
}
