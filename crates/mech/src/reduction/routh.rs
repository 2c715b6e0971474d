//! Routh's reduction by an abelian group that translates cyclic coordinates, at a fixed value of
//! their momentum (Routh 1877; Marsden, Ratiu and Scheurle, J. Math. Phys. 41 (2000) 3379): the
//! Routhian, a Lagrangian of the shape whose motion is the reduced motion, and the amended
//! potential whose critical points are the relative equilibria.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use model::group::GroupAction;
use model::System;
use report::Routh;

/// The code for a Routh reduction that cannot be made.
const ROUTH: Code = Code::E0284;

/// The Routh reduction of the groups that fix their momentum (`momentum mu`), or `None`.
///
/// Classical Routh reduction: each such group translates its coordinates (`ξ_a = ∂/∂q^a`, so that
/// they are cyclic), there are no constraints, and `L` is quadratic in the cyclic velocities with
/// an invertible Hessian `H_ab = ∂²L/∂q̇^a∂q̇^b`. Then `μ = H q̇ + b` (with `b = ∂L/∂q̇` at `q̇ = 0`)
/// gives `q̇ = H⁻¹(μ − b)`, the Routhian `R = L − μ_a q̇^a`, and the amended potential `V_μ = −R`
/// at rest in the shape.
pub(super) fn routh(
    system: &System,
    generators: &[Vec<Expr>],
    shape: &[usize],
) -> diagnostic::Result<Option<Routh>> {
    let groups: Vec<&GroupAction> = system
        .groups
        .iter()
        .filter(|g| !g.momentum_values.is_empty())
        .collect();
    let Some(first) = groups.first() else {
        return Ok(None);
    };
    let refuse = |message: String, label: &str, note: &str| {
        Err(vec![Diagnostic::error(
            ROUTH,
            message,
            first.span,
            label.to_string(),
        )
        .with_note(note.to_string())])
    };
    if system.forces.iter().any(|f| !f.is_zero()) {
        return refuse(
            "Routh reduction of a system with forces".to_string(),
            "the momentum is fixed here",
            "forces along the cyclic coordinates change the momentum: drop `momentum` to reduce without fixing it",
        );
    }
    if !system.constraints.is_empty() {
        return refuse(
            "Routh reduction of a system with nonholonomic constraints".to_string(),
            "the momentum is fixed here",
            "with constraints the momentum is not conserved in general (it obeys the momentum equation): drop `momentum` to reduce without fixing it",
        );
    }
    let mut cyclic = Vec::new();
    let mut values = Vec::new();
    let mut offset = 0;
    for g in &system.groups {
        let n = g.generators.len();
        if !g.momentum_values.is_empty() {
            for (k, &i) in g.moved.iter().enumerate() {
                let xi = &generators[offset + k];
                let translation = xi.iter().enumerate().all(|(j, c)| {
                    if j == i {
                        (c - &Expr::one()).is_zero()
                    } else {
                        c.is_zero()
                    }
                });
                if !translation {
                    return refuse(
                        format!("Routh reduction needs a group that translates its coordinates; `{}` is not one", g.name),
                        "the momentum is fixed here",
                        "the cyclic coordinates of Routh's method are moved by d/dq: declare `translations` or `SO2` on them",
                    );
                }
                cyclic.push(i);
            }
            values.extend(g.momentum_values.iter().cloned());
        }
        offset += n;
    }
    let velocities = &system.keys(&system.algebroid.velocities);
    let cyclic_velocities: Vec<String> = cyclic.iter().map(|&i| velocities[i].clone()).collect();
    let l: &Expr = &system.lagrangian;
    let hessian: Vec<Vec<Expr>> = cyclic_velocities
        .iter()
        .map(|a| {
            cyclic_velocities
                .iter()
                .map(|b| l.diff(a).diff(b).simplify())
                .collect()
        })
        .collect();
    if hessian
        .iter()
        .flatten()
        .any(|h| h.depends_on_any(&cyclic_velocities))
    {
        return refuse(
            "Routh reduction needs a Lagrangian quadratic in the cyclic velocities".to_string(),
            "the momentum is fixed here",
            "the momentum equation μ = ∂L/∂q̇ is then linear and is solved for the cyclic velocities",
        );
    }
    let at_rest: BTreeMap<String, Expr> = cyclic_velocities
        .iter()
        .map(|v| (v.clone(), Expr::zero()))
        .collect();
    let rhs: Vec<Vec<Expr>> = cyclic_velocities
        .iter()
        .zip(&values)
        .map(|(v, mu)| vec![(Expr::symbol(mu) - l.diff(v).subs(&at_rest)).simplify()])
        .collect();
    let solved = cas::solve(&hessian, &rhs).map_err(|singular| {
        vec![Diagnostic::error(
            ROUTH,
            "the Hessian of the Lagrangian in the cyclic velocities is singular",
            first.span,
            format!(
                "its determinant is {}",
                cas::print::spec(&singular.det, system)
            ),
        )]
    })?;
    let rates: Vec<Expr> = solved.into_iter().map(|row| row[0].simplify()).collect();
    let substitution: BTreeMap<String, Expr> = cyclic_velocities
        .iter()
        .cloned()
        .zip(rates.iter().cloned())
        .collect();
    let momentum_term = Expr::sum(
        values
            .iter()
            .zip(&cyclic_velocities)
            .map(|(mu, v)| Expr::symbol(mu) * Expr::symbol(v)),
    );
    let routhian = (l - &momentum_term).subs(&substitution).simplify();
    let shape_rest: BTreeMap<String, Expr> = shape
        .iter()
        .map(|&i| (velocities[i].clone(), Expr::zero()))
        .collect();
    let amended_potential = (-routhian.subs(&shape_rest)).simplify();
    let equilibria = shape
        .iter()
        .map(|&i| {
            amended_potential
                .diff(&system.key(system.coordinates[i]))
                .simplify()
        })
        .collect();
    Ok(Some(Routh {
        values,
        cyclic: cyclic
            .iter()
            .map(|&i| system.key(system.coordinates[i]))
            .collect(),
        cyclic_velocities: rates,
        routhian,
        amended_potential,
        equilibria,
    }))
}
