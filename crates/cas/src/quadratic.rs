//! Splitting an expression that is a polynomial of degree at most two in chosen variables into
//! its coefficients, in one expansion: `f = Σ_{a≤b} q_ab v_a v_b + Σ_a l_a v_a + c`.
//!
//! A mechanical Lagrangian is such a polynomial in the velocities, and its Hessian is read off the
//! coefficients (`W_aa = 2 q_aa`, `W_ab = q_ab`) in `O(size of the expansion)`, where
//! differentiating twice per entry would cost `O(n²)` passes over the whole expression.

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};

use crate::expr::{product_atoms, sum_atoms, sym};
use crate::Expr;

/// The coefficients of a polynomial of degree ≤ 2 in some variables.
#[derive(Clone, Debug)]
pub struct QuadraticForm {
    /// `q[a][b]` for `a ≤ b`, the coefficient of `v_a v_b` (of `v_a²` when `a = b`); entries
    /// below the diagonal are zero.
    pub quadratic: Vec<Vec<Expr>>,
    /// `l[a]`, the coefficient of `v_a`.
    pub linear: Vec<Expr>,
    /// The part free of the variables.
    pub constant: Expr,
}

/// Where one term of the expansion goes.
enum Slot {
    Constant,
    Linear(usize),
    Quadratic(usize, usize),
}

impl Expr {
    /// The coefficients of `self` as a polynomial of degree ≤ 2 in `vars` (after expansion), or
    /// `None` when it is not one (a higher degree, a variable inside a function or a
    /// denominator).
    pub fn quadratic_form(&self, vars: &[String]) -> Option<QuadraticForm> {
        let symbols: Vec<Symbol> = vars.iter().map(|v| sym(v)).collect();
        let n = vars.len();
        let expanded = self.0.expand();
        let mut buckets: Vec<Vec<Atom>> = vec![Vec::new(); 1 + n + n * n];
        let mut place = |term: AtomView<'_>| -> Option<()> {
            let (slot, coefficient) = split_term(term, &symbols)?;
            let index = match slot {
                Slot::Constant => 0,
                Slot::Linear(a) => 1 + a,
                Slot::Quadratic(a, b) => 1 + n + a * n + b,
            };
            buckets[index].push(coefficient);
            Some(())
        };
        match expanded.as_view() {
            AtomView::Add(terms) => {
                for t in terms.iter() {
                    place(t)?;
                }
            }
            view => place(view)?,
        }
        let mut sums = buckets.into_iter().map(|b| Expr(sum_atoms(b)));
        let constant = sums.next().unwrap_or_else(Expr::zero);
        let linear: Vec<Expr> = sums.by_ref().take(n).collect();
        let flat: Vec<Expr> = sums.collect();
        let quadratic = (0..n)
            .map(|a| (0..n).map(|b| flat[a * n + b].clone()).collect())
            .collect();
        Some(QuadraticForm {
            quadratic,
            linear,
            constant,
        })
    }
}

/// The variables of one monomial of the expansion and its coefficient.
fn split_term(term: AtomView<'_>, vars: &[Symbol]) -> Option<(Slot, Atom)> {
    let factors: Vec<AtomView<'_>> = match term {
        AtomView::Mul(m) => m.iter().collect(),
        view => vec![view],
    };
    let mut found: Vec<usize> = Vec::new();
    let mut rest: Vec<Atom> = Vec::new();
    for factor in factors {
        match variable_power(factor, vars) {
            Some((k, e)) => found.extend(std::iter::repeat_n(k, e)),
            None => {
                if mentions(factor, vars) {
                    return None;
                }
                rest.push(factor.to_owned());
            }
        }
    }
    found.sort_unstable();
    let slot = match found.as_slice() {
        [] => Slot::Constant,
        [a] => Slot::Linear(*a),
        [a, b] => Slot::Quadratic(*a, *b),
        _ => return None,
    };
    let coefficient = product_atoms(rest);
    Some((slot, coefficient))
}

/// `Some((k, e))` when `factor` is `vars[k]^e` with `e` a positive integer (≤ 2).
fn variable_power(factor: AtomView<'_>, vars: &[Symbol]) -> Option<(usize, usize)> {
    match factor {
        AtomView::Var(v) => vars
            .iter()
            .position(|s| *s == v.get_symbol())
            .map(|k| (k, 1)),
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            let AtomView::Var(v) = base else { return None };
            let k = vars.iter().position(|s| *s == v.get_symbol())?;
            match Expr(exp.to_owned()).as_small_rational() {
                Some((e @ 1..=2, 1)) => Some((k, e as usize)),
                // Any other power of a variable is not of degree ≤ 2; `mentions` rejects it.
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether any of `vars` occurs in `view`.
fn mentions(view: AtomView<'_>, vars: &[Symbol]) -> bool {
    match view {
        AtomView::Num(_) => false,
        AtomView::Var(v) => vars.contains(&v.get_symbol()),
        AtomView::Fun(f) => f.iter().any(|a| mentions(a, vars)),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            mentions(b, vars) || mentions(e, vars)
        }
        AtomView::Mul(m) => m.iter().any(|a| mentions(a, vars)),
        AtomView::Add(a) => a.iter().any(|t| mentions(t, vars)),
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
    fn pendulum_coefficients() {
        // L = m/2 (x' + l cos(q) q')² + m/2 (l sin(q) q')² − m g l cos(q) + F x
        let (x, q) = (s("xd"), s("qd"));
        let (m, l, g, f) = (s("m"), s("l"), s("g"), s("F"));
        let c = Expr::apply(Func::Cos, s("q"));
        let sn = Expr::apply(Func::Sin, s("q"));
        let lagrangian = m.clone() / Expr::int(2)
            * (x.clone() + l.clone() * c.clone() * q.clone()).powi(2)
            + m.clone() / Expr::int(2) * (l.clone() * sn.clone() * q.clone()).powi(2)
            - m.clone() * g.clone() * l.clone() * c.clone()
            + f.clone() * s("x");
        let vars = ["xd".to_string(), "qd".to_string()];
        let form = lagrangian.quadratic_form(&vars).expect("quadratic");
        // W = [[m, m l cos q], [m l cos q, m l²]]: q_00 = m/2, q_01 = m l cos q, q_11 = m l²/2.
        assert!((form.quadratic[0][0].clone() - m.clone() / Expr::int(2)).is_zero());
        assert!((form.quadratic[0][1].clone() - m.clone() * l.clone() * c.clone()).is_zero());
        assert!((form.quadratic[1][1].clone() - m.clone() * l.powi(2) / Expr::int(2)).is_zero());
        assert!(form.quadratic[1][0].is_literal_zero());
        assert!(form.linear.iter().all(|e| e.is_zero()));
        assert!((form.constant - (f * s("x") - m * g * l * c)).is_zero());
    }

    #[test]
    fn not_quadratic() {
        let v = ["v".to_string()];
        assert!(s("v").powi(3).quadratic_form(&v).is_none());
        assert!(Expr::apply(Func::Sin, s("v")).quadratic_form(&v).is_none());
        assert!((Expr::one() / s("v")).quadratic_form(&v).is_none());
        assert!((s("v") * s("a") + s("a")).quadratic_form(&v).is_some());
    }
}
