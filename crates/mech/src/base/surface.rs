//! The constraint surface: affine constraints solved for the velocities of the pivot columns of
//! `μ` ([IMMS07] §III, `Ψ^a = μ^a_0 + μ^a_α y^α = 0`), so that a function of `(t, x, y)` can be
//! restricted to the surface and compared there. Every route that states a result "on the
//! constraints" (the energy balance, the proofs of `expect` blocks, the contact dissipation law)
//! restricts through it.

use std::collections::BTreeMap;

use cas::Expr;
use model::frame::pivot_columns;
use model::{ConstraintShape, System};

/// Solving the constraints for some of the velocities.
pub struct Surface {
    map: BTreeMap<String, Expr>,
}

impl Surface {
    /// The elimination for `system`: affine constraints are solved for the velocities of the
    /// pivot columns of `μ`; nonlinear constraints are not eliminated.
    pub fn new(system: &System) -> Surface {
        let mut map = BTreeMap::new();
        let constraints = &system.constraints;
        if constraints.is_empty()
            || constraints
                .iter()
                .any(|c| c.shape == ConstraintShape::Nonlinear)
        {
            return Surface { map };
        }
        let velocities = &system.algebroid.velocities;
        let mu: Vec<Vec<Expr>> = constraints.iter().map(|c| c.mu.clone()).collect();
        let Some(pivots) = pivot_columns(&mu) else {
            return Surface { map };
        };
        let a: Vec<Vec<Expr>> = mu
            .iter()
            .map(|row| pivots.iter().map(|&p| row[p].clone()).collect())
            .collect();
        let b: Vec<Vec<Expr>> = constraints
            .iter()
            .map(|c| {
                let rest = (0..velocities.len())
                    .filter(|k| !pivots.contains(k))
                    .fold(c.mu0.clone(), |acc, k| {
                        acc + c.mu[k].clone() * system.expr(velocities[k])
                    });
                vec![-rest]
            })
            .collect();
        if let Ok(x) = cas::solve(&a, &b) {
            for (p, value) in pivots.iter().zip(x) {
                map.insert(system.key(velocities[*p]), value[0].clone());
            }
        }
        Surface { map }
    }

    /// The eliminated velocities and their values.
    pub fn map(&self) -> &BTreeMap<String, Expr> {
        &self.map
    }

    /// `f` restricted to the constraint surface, simplified.
    pub fn restrict(&self, f: &Expr) -> Expr {
        f.subs(&self.map).simplify()
    }

    /// `f` as a result shows it: restricted to the surface, unless that divides by something `f`
    /// does not ([`for_display`]).
    pub fn restrict_shown(&self, f: &Expr) -> Expr {
        one_for_display(f, &self.map)
    }
}

/// Expressions as results show them "on the constraints": restricted through `elimination`
/// (which solves the constraints for some velocities or momenta), unless the restriction of one
/// of them has a denominator factor that it does not have itself. Then every one is shown on
/// the whole state, where it is regular, and equals its restriction on the surface; an
/// expression that vanishes on the surface is shown as the zero it is there. Solving
/// `sin φ ẋ − cos φ ẏ = 0` for `ẋ` divides by `sin φ`, a singularity of the choice and not of
/// the system: restricted that way, Chaplygin's sledge's equations evaluate to NaN at `φ = 0`,
/// where its motion is regular. The flag says whether the whole state was kept.
pub fn for_display(fs: &[Expr], elimination: &BTreeMap<String, Expr>) -> (Vec<Expr>, bool) {
    let restricted: Vec<Expr> = fs.iter().map(|f| f.subs(elimination).simplify()).collect();
    if elimination.is_empty() {
        return (restricted, false);
    }
    let introduces = fs.iter().zip(&restricted).any(|(f, r)| {
        let own = f.denominator_factors();
        r.denominator_factors()
            .iter()
            .any(|d| !own.iter().any(|g| (g.clone() - d.clone()).is_zero()))
    });
    if !introduces {
        return (restricted, false);
    }
    let whole = fs
        .iter()
        .zip(restricted)
        .map(|(f, r)| if r.is_zero() { r } else { f.simplify() })
        .collect();
    (whole, true)
}

/// [`for_display`] of one expression.
pub fn one_for_display(f: &Expr, elimination: &BTreeMap<String, Expr>) -> Expr {
    for_display(std::slice::from_ref(f), elimination)
        .0
        .remove(0)
}
