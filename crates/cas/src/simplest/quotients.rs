//! A normal form `n/d` by the terms of `n`, for the split candidates of [`Expr::simplest`]:
//! each term `t` of `n` with its quotient `t/d` in normal form (one normalisation per term,
//! shared by both candidates), and which quotients cancel something against `d`.
//!
//! A quotient keeps `d` when its normal form's denominator equals `d`. Most quotients show the
//! answer without a test: their denominator is `d` itself, node for node, or `−d` (Symbolica
//! orients a denominator's sign by an order of the variables that depends on which variables the
//! quotient holds, so a term that shares nothing with `d` can come back over `−d`), which is not
//! `d`; only a quotient over anything else is compared by normalising the difference. (Knowing
//! a term shares no variable and no content with `d` is not enough to skip its normalisation:
//! the sign of its denominator is still Symbolica's to choose.)

use symbolica::atom::AtomView;

use crate::simplify::split_fraction;
use crate::Expr;

/// The terms of a numerator split over their denominator, at most this many (a larger sum is
/// left whole: the display of a long sum gains little, and each term costs a normalisation).
pub(super) const SPLIT_TERMS: usize = 64;

/// [`SPLIT_TERMS`] for a numerator over a number, whose terms split without a normalisation
/// (each coefficient divided): the energy of a ten-mass chain is 66 terms over 2, and reads
/// shorter with each term's coefficient halved.
pub(super) const NUMERIC_SPLIT_TERMS: usize = 1024;

/// A normal form `n/d` by the terms of `n`: each term with its quotient by `d`, normalised once
/// for both split candidates.
pub(super) struct TermQuotients {
    denominator: Expr,
    /// `(t, t/d)` for each term `t` of `n`.
    terms: Vec<(Expr, Expr)>,
}

impl TermQuotients {
    /// `None` when `n` is not a sum of at most [`SPLIT_TERMS`] terms ([`NUMERIC_SPLIT_TERMS`]
    /// over a numeric denominator).
    pub(super) fn of(e: &Expr) -> Option<TermQuotients> {
        let (n, d) = split_fraction(&e.0);
        let denominator = Expr(d);
        // A numeric denominator divides each term's coefficient; nothing else can cancel.
        let numeric = denominator.as_small_rational().is_some();
        let most = if numeric {
            NUMERIC_SPLIT_TERMS
        } else {
            SPLIT_TERMS
        };
        let terms = match n.as_view() {
            AtomView::Add(sum) if sum.iter().count() <= most => sum
                .iter()
                .map(|t| {
                    let t = Expr(t.to_owned());
                    let quotient = t.clone() / denominator.clone();
                    let quotient = if numeric {
                        quotient
                    } else {
                        quotient.simplify()
                    };
                    (t, quotient)
                })
                .collect(),
            _ => return None,
        };
        Some(TermQuotients { denominator, terms })
    }

    /// `n/d` written as the quotients of the terms of `n` that cancel something against `d`,
    /// plus the rest over `d`; `None` when `d` is a number or no term cancels.
    pub(super) fn split(&self) -> Option<Expr> {
        if self.denominator.as_small_rational().is_some() {
            return None;
        }
        let (mut apart, mut rest) = (Vec::new(), Vec::new());
        for (t, quotient) in &self.terms {
            if self.keeps_denominator(quotient) {
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

    /// Whether a quotient's denominator is `d`: at once when it is `d` or `−d` node for node
    /// (`d`, a denominator, is not zero), else by normalising the difference.
    fn keeps_denominator(&self, quotient: &Expr) -> bool {
        let below = Expr(split_fraction(&quotient.0).1);
        if below == self.denominator {
            return true;
        }
        if -below.clone() == self.denominator {
            return false;
        }
        (below - self.denominator.clone()).is_zero()
    }

    /// `n/d` written as the sum of every term's quotient (what `grouped_by` groups).
    pub(super) fn every_term_apart(&self) -> Expr {
        Expr::sum(self.terms.iter().map(|(_, quotient)| quotient.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    /// The answer a test by normalisation alone gives.
    fn keeps_by_normalising(q: &TermQuotients, quotient: &Expr) -> bool {
        let below = Expr(split_fraction(&quotient.0).1);
        (below - q.denominator.clone()).is_zero()
    }

    /// Whichever way each quotient's denominator comes back (`d`, `−d`, a factor of `d`), the
    /// answer is the one normalising the difference gives.
    #[test]
    fn a_quotient_keeps_the_denominator_as_normalising_the_difference_says() {
        let (a, b, m, x, y, p) = (s("a"), s("b"), s("m"), s("x"), s("y"), s("p"));
        let mut kinds = [0; 3];
        let mut cases = Vec::new();
        for d in [
            m.clone() * x.clone() * b.clone() - m.clone() * a.clone() * y.clone(),
            a.clone() - b.clone(),
            b.clone() - a.clone(),
            Expr::int(2) * a.clone() * x.clone() + Expr::int(4) * a.clone() * b.clone(),
        ] {
            let e = (Expr::int(6) * x.clone() * y.clone() - p.clone() * x.clone().powi(2)
                + a.clone() * b.clone()
                + Expr::int(3) * b.clone() * p.clone()
                + Expr::apply(crate::Func::Sin, y.clone()) * m.clone())
                / d;
            cases.push(e);
        }
        // The discrete double pendulum's (where -m1 p3 x1 x2 came back over -d).
        let (m1, m2, p3, p4) = (s("m1"), s("m2"), s("p3"), s("p4"));
        let (x1, x2, y1, y2) = (s("x1"), s("x2"), s("y1"), s("y2"));
        cases.push(
            (m1.clone() * p3.clone() * x1.clone().powi(2)
                + m1.clone() * p4.clone() * x1.clone() * y1.clone()
                - m1.clone() * p3 * x1.clone() * x2.clone()
                - m1 * p4 * x1.clone() * y2.clone())
                / (m2.clone() * x2 * y1 - m2 * x1 * y2),
        );
        for e in cases {
            let q = TermQuotients::of(&e.simplify()).expect("a sum over a sum");
            // Each term also written (-t)/(-d) before normalisation: more inputs, though
            // Symbolica writes them back over d in this process (none comes out over -d).
            let over_opposite = q
                .terms
                .iter()
                .map(|(t, _)| -t.clone() / -q.denominator.clone());
            let quotients = q.terms.iter().map(|(_, quotient)| quotient.clone());
            for quotient in &quotients
                .into_iter()
                .chain(over_opposite)
                .collect::<Vec<_>>()
            {
                let below = Expr(split_fraction(&quotient.0).1);
                let kind = if below == q.denominator {
                    0
                } else if -below == q.denominator {
                    1
                } else {
                    2
                };
                kinds[kind] += 1;
                assert_eq!(
                    q.keeps_denominator(quotient),
                    keeps_by_normalising(&q, quotient),
                    "{quotient} over {}",
                    q.denominator
                );
            }
        }
        // Over -d: which orientation Symbolica gives depends on the order the process created
        // its symbols in, so this process may meet none (the discrete double pendulum's golden
        // does); quotients over d and over something else are met here.
        assert!(kinds[0] > 0 && kinds[2] > 0, "{kinds:?}");
    }
}
