//! Display forms: each sum of monomials with its trigonometric squares written the shorter way.
//! `sin² a + cos² a = 1` lets a sum trade `cos² a` for `1 − sin² a` or the reverse, and the
//! normal form ([`Expr::simplify`]) makes one choice for a whole expression. A hand makes it sum
//! by sum: `J₀ − m r² − J₀ cos² φ` reads `J₀ sin² φ − m r²` in a denominator, and
//! `φ̇ sin θ + ψ̇ cos² θ − ψ̇` reads `sin θ (φ̇ − ψ̇ sin θ)` in a numerator, while the rest of
//! the expression keeps its cosines. [`Expr::with_shorter_squares`] makes that choice for every
//! such sum, by printed leaves.

use crate::expr::Trig;
use crate::simplify::factorise;
use crate::trig::trig_power;
use crate::{Expr, View};

impl Expr {
    /// Every sum of monomials (numbers, symbols, calls and their integer powers) that holds a
    /// square of a sine or cosine, rewritten where that prints shorter: its `cos² a` as
    /// `1 − sin² a` or its `sin² a` as `1 − cos² a` (for all its angles at once, or for one
    /// angle), expanded, and factorised when that is shorter still. Sums inside sums are chosen
    /// first. The value is unchanged; the form is meant for printing.
    pub fn with_shorter_squares(&self) -> Expr {
        let _stage = timing::stage("shorter squares");
        match self.view() {
            View::Add(terms) => {
                shorter_sum(Expr::sum(terms.iter().map(Expr::with_shorter_squares)))
            }
            view => self.map_children(view, Expr::with_shorter_squares),
        }
    }
}

/// The sum itself or, when one prints with fewer leaves, one of its rewritings (the sum first on
/// a tie, then in the order of [`rewritings`]).
fn shorter_sum(sum: Expr) -> Expr {
    let View::Add(terms) = sum.view() else {
        return sum;
    };
    if !terms.iter().all(is_monomial) {
        return sum;
    }
    let angles = squared_angles(&terms);
    let mut best = (crate::print::leaves(&sum), sum.clone());
    let mut tried: Vec<Expr> = Vec::new();
    for rewritten in rewritings(&terms, &angles) {
        // Equal rewritings give equal candidates, and a candidate offered again never wins.
        if tried.contains(&rewritten) {
            continue;
        }
        tried.push(rewritten.clone());
        let expanded = rewritten.expand();
        for candidate in [factorise(&expanded), expanded] {
            let leaves = crate::print::leaves(&candidate);
            if leaves < best.0 {
                best = (leaves, candidate);
            }
        }
    }
    best.1
}

/// The sum of `terms` with its squares replaced for every angle of `angles` at once (first
/// `cos²` by `1 − sin²`, then the reverse) and, when there are several angles, for each alone.
fn rewritings(terms: &[Expr], angles: &[(String, Expr)]) -> Vec<Expr> {
    let mut subsets: Vec<Vec<&Expr>> = vec![angles.iter().map(|(_, a)| a).collect()];
    if angles.len() > 1 {
        subsets.extend(angles.iter().map(|(_, a)| vec![a]));
    }
    let mut out = Vec::new();
    for subset in &subsets {
        for going in [Trig::Cos, Trig::Sin] {
            out.push(Expr::sum(
                terms.iter().map(|t| replaced_squares(t, subset, going)),
            ));
        }
    }
    out
}

/// `term` with each factor `cos(a)^n` (`going` is `Cos`) or `sin(a)^n`, `n ≥ 2` and `a` among
/// `angles`, written as `cos(a)^(n mod 2) (1 − sin(a)²)^(n div 2)` (or the reverse).
fn replaced_squares(term: &Expr, angles: &[&Expr], going: Trig) -> Expr {
    let factors = term.factors();
    let replaced: Vec<Option<(Trig, Expr, i64)>> = factors
        .iter()
        .map(|f| {
            trig_power(f)
                .filter(|(which, arg, n)| *n >= 2 && *which == going && angles.contains(&arg))
        })
        .collect();
    // A term with no such factor is itself (multiplied back, its factors give the same tree).
    if replaced.iter().all(Option::is_none) {
        return term.clone();
    }
    factors
        .into_iter()
        .zip(replaced)
        .fold(Expr::one(), |acc, (f, replaced)| match replaced {
            Some((which, arg, n)) => {
                let other = Expr::apply(which.other().func(), arg.clone());
                let own = Expr::apply(which.func(), arg);
                acc * own.powi(n % 2) * (Expr::one() - other.powi(2)).powi(n / 2)
            }
            None => acc * f,
        })
}

/// The arguments of the sines and cosines squared (or to a higher power) in `terms`, each once,
/// in printed order.
fn squared_angles(terms: &[Expr]) -> Vec<(String, Expr)> {
    let mut angles: std::collections::BTreeMap<String, Expr> = Default::default();
    for term in terms {
        for f in term.factors() {
            if let Some((_, arg, n)) = trig_power(&f) {
                if n >= 2 {
                    angles.insert(crate::print::spec(&arg, &crate::print::AsIs), arg);
                }
            }
        }
    }
    angles.into_iter().collect()
}

/// Whether `term` is a product of numbers, symbols and calls and their integer powers.
fn is_monomial(term: &Expr) -> bool {
    term.factors().iter().all(|f| match f.view() {
        View::Number { .. } | View::Symbol(_) | View::Call(..) => true,
        View::Pow(base, exponent) => {
            matches!(base.view(), View::Symbol(_) | View::Call(..))
                && exponent.as_small_rational().is_some_and(|(_, d)| d == 1)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use crate::{Expr, Func};

    fn print(e: &Expr) -> String {
        crate::print::spec(e, &crate::print::Keys)
    }

    #[test]
    fn each_sum_takes_the_shorter_of_its_squares() {
        let (j, m, r, phi) = (
            Expr::symbol("J0"),
            Expr::symbol("m"),
            Expr::symbol("r"),
            Expr::symbol("phi"),
        );
        let (sin, cos) = (
            |x: &Expr| Expr::apply(Func::Sin, x.clone()),
            |x: &Expr| Expr::apply(Func::Cos, x.clone()),
        );
        // The snakeboard's denominator: J0 − m r² − J0 cos² φ = J0 sin² φ − m r².
        let denominator = j.clone() - m.clone() * r.powi(2) - j.clone() * cos(&phi).powi(2);
        let e = m.clone() / denominator.clone();
        let shorter = e.with_shorter_squares();
        assert_eq!(crate::print::leaves(&shorter), 7, "{}", print(&shorter));
        assert!((shorter - e).vanishes());
        // φ̇ sin θ + ψ̇ cos² θ − ψ̇ = sin θ (φ̇ − ψ̇ sin θ): four leaves.
        let (a, b, theta) = (Expr::symbol("a"), Expr::symbol("b"), Expr::symbol("theta"));
        let e = a.clone() * sin(&theta) + b.clone() * cos(&theta).powi(2) - b.clone();
        let shorter = e.with_shorter_squares();
        assert_eq!(crate::print::leaves(&shorter), 4, "{}", print(&shorter));
        assert!((shorter - e).vanishes());
        // Nothing shorter: unchanged.
        let e = a.clone() * cos(&theta).powi(2) + b * sin(&phi);
        assert_eq!(print(&e.with_shorter_squares()), print(&e));
    }

    /// A term none of whose factors has its squares replaced comes back as it is: the same tree
    /// as its factors multiplied back together (what the rewriting built before). A term with
    /// such a factor is written anew, with the same value.
    #[test]
    fn a_term_with_no_square_to_replace_is_the_product_of_its_factors() {
        use crate::expr::Trig;
        let (a, b, x, y) = (
            Expr::symbol("sq_a"),
            Expr::symbol("sq_b"),
            Expr::symbol("sq_x"),
            Expr::symbol("sq_y"),
        );
        let (sin, cos) = (
            |x: &Expr| Expr::apply(Func::Sin, x.clone()),
            |x: &Expr| Expr::apply(Func::Cos, x.clone()),
        );
        // Each term, and the orientations that replace one of its squares of `x`.
        let terms = [
            (
                Expr::rational(-3, 4) * a.clone() * b.powi(2) * sin(&x),
                vec![],
            ),
            (
                a.clone() * cos(&y).powi(3) * sin(&x).powi(2),
                vec![Trig::Sin],
            ),
            (Expr::int(2) * cos(&x) * b.clone(), vec![]),
            (a.clone() * b.clone(), vec![]),
            (cos(&x).powi(2), vec![Trig::Cos]),
        ];
        let angles = [&x];
        for (term, replacing) in &terms {
            for going in [Trig::Cos, Trig::Sin] {
                let written = super::replaced_squares(term, &angles, going);
                if replacing.contains(&going) {
                    assert_ne!(&written, term);
                    assert!((written - term.clone()).vanishes(), "{term}");
                } else {
                    let multiplied = term
                        .factors()
                        .into_iter()
                        .fold(Expr::one(), |acc, f| acc * f);
                    assert_eq!(written, multiplied, "{term}");
                }
            }
        }
    }
}
