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
        self.simplest_in(&[])
    }

    /// [`Expr::simplest`], trying also each sum grouped by its parts that depend on `vars` (the
    /// state: coordinates and velocities), their coefficients summed and simplified
    /// (`A ẋ ẏ/C − B ẋ ẏ/C` is `(A − B) ẋ ẏ/C`): the equations of motion read by powers of the
    /// velocities.
    pub fn simplest_in(&self, vars: &[String]) -> Expr {
        let simplified = self.simplify();
        let factorised = factorise(&simplified);
        let factored = smaller_of(&simplified, &factorised);
        let mut best = (crate::print::leaves(&factored), factored);
        // Over a numeric denominator only the grouping (which needs `vars`) uses the quotients.
        let quotients = TermQuotients::of(&simplified, !vars.is_empty());
        let mut candidates = vec![factorised, simplified];
        candidates.extend(quotients.as_ref().and_then(TermQuotients::split));
        if !vars.is_empty() {
            let every_term_apart = quotients.map(TermQuotients::every_term_apart);
            let grouped: Vec<Expr> = candidates
                .iter()
                .chain(&every_term_apart)
                .filter_map(|c| grouped_by(c, vars))
                .collect();
            candidates.extend(grouped);
        }
        for candidate in candidates {
            let leaves = crate::print::leaves(&candidate);
            if leaves < best.0 {
                best = (leaves, candidate);
            }
        }
        best.1
    }
}

/// The sum `e` with its terms grouped by their factors that depend on `vars`, each group's
/// coefficient (the product of its other factors, summed) in its simplest form; `None` when `e`
/// is not a sum of at most [`SPLIT_TERMS`] terms or no two terms share their dependent part.
fn grouped_by(e: &Expr, vars: &[String]) -> Option<Expr> {
    let terms: Vec<Expr> = match e.0.as_view() {
        AtomView::Add(sum) if sum.iter().count() <= SPLIT_TERMS => {
            sum.iter().map(|t| Expr(t.to_owned())).collect()
        }
        _ => return None,
    };
    let count = terms.len();
    // By the printed dependent part, so that the grouping and its order are deterministic.
    let mut groups: std::collections::BTreeMap<String, (Expr, Vec<Expr>)> = Default::default();
    for term in terms {
        let factors: Vec<Expr> = match term.0.as_view() {
            AtomView::Mul(m) => m.iter().map(|f| Expr(f.to_owned())).collect(),
            _ => vec![term.clone()],
        };
        let (dependent, coefficient) =
            factors
                .into_iter()
                .fold((Expr::one(), Expr::one()), |(dependent, coefficient), f| {
                    if f.depends_on_any(vars) {
                        (dependent * f, coefficient)
                    } else {
                        (dependent, coefficient * f)
                    }
                });
        let key = crate::print::spec(&dependent, &crate::print::AsIs);
        groups
            .entry(key)
            .or_insert_with(|| (dependent, Vec::new()))
            .1
            .push(coefficient);
    }
    if groups.len() == count {
        return None;
    }
    Some(Expr::sum(groups.into_values().map(
        |(dependent, coefficients)| Expr::sum(coefficients).simplest() * dependent,
    )))
}

/// The terms of a numerator split over their denominator, at most this many (a larger sum is
/// left whole: the display of a long sum gains little, and each term costs a normalisation).
const SPLIT_TERMS: usize = 64;

/// A normal form `n/d` by the terms of `n`: each term with its quotient by `d`, normalised once
/// for both split candidates.
struct TermQuotients {
    denominator: Expr,
    /// `(t, t/d)` for each term `t` of `n`.
    terms: Vec<(Expr, Expr)>,
}

impl TermQuotients {
    /// `None` when `n` is not a sum of at most [`SPLIT_TERMS`] terms, or when `d` is a number
    /// and `over_numbers` is false.
    fn of(e: &Expr, over_numbers: bool) -> Option<TermQuotients> {
        let (n, d) = split_fraction(&e.0);
        let denominator = Expr(d);
        if !over_numbers && denominator.as_small_rational().is_some() {
            return None;
        }
        let terms = match n.as_view() {
            AtomView::Add(sum) if sum.iter().count() <= SPLIT_TERMS => sum
                .iter()
                .map(|t| {
                    let t = Expr(t.to_owned());
                    let quotient = (t.clone() / denominator.clone()).simplify();
                    (t, quotient)
                })
                .collect(),
            _ => return None,
        };
        Some(TermQuotients { denominator, terms })
    }

    /// `n/d` written as the quotients of the terms of `n` that cancel something against `d`,
    /// plus the rest over `d`; `None` when `d` is a number or no term cancels.
    fn split(&self) -> Option<Expr> {
        if self.denominator.as_small_rational().is_some() {
            return None;
        }
        let (mut apart, mut rest) = (Vec::new(), Vec::new());
        for (t, quotient) in &self.terms {
            let (_, below) = split_fraction(&quotient.0);
            if (Expr(below) - self.denominator.clone()).is_zero() {
                rest.push(t.clone());
            } else {
                apart.push(quotient.clone());
            }
        }
        if apart.is_empty() {
            return None;
        }
        if !rest.is_empty() {
            apart.push(Expr::sum(rest) / self.denominator.clone());
        }
        Some(Expr::sum(apart))
    }

    /// `n/d` written as the sum of every term's quotient (what [`grouped_by`] groups).
    fn every_term_apart(self) -> Expr {
        Expr::sum(self.terms.into_iter().map(|(_, quotient)| quotient))
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

    #[test]
    fn simplest_in_groups_a_sum_by_its_state_dependent_parts() {
        let (a, b, c, x, y) = (s("A"), s("B"), s("C"), s("x"), s("y"));
        // A ẋ ẏ/C − B ẋ ẏ/C + A x²: grouped, (A − B) x y/C + A x².
        let e =
            a.clone() * x.clone() * y.clone() / c.clone() - b * x.clone() * y / c + a * x.powi(2);
        let vars = ["x".to_string(), "y".to_string()];
        let grouped = e.simplest_in(&vars);
        assert!((grouped.clone() - e.clone()).is_zero(), "{grouped:?}");
        let leaves = crate::print::leaves(&grouped);
        assert!(
            leaves < crate::print::leaves(&e.simplest()) && leaves <= 8,
            "{grouped:?}: {leaves} leaves"
        );
    }
}
