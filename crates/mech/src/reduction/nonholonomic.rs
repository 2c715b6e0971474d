//! The nonholonomic connection (Bloch, Krishnaprasad, Marsden and Murray, "Nonholonomic
//! mechanical systems with symmetry", Arch. Rational Mech. Anal. 136 (1996) 21–99, §2.8): where
//! the constraint distribution `D` and the orbits `V` span `TQ`, the horizontal space is the part
//! of `D` orthogonal, in the kinetic-energy metric `g`, to `S = D ∩ V`. The horizontal lift
//! `h_i = ∂_{s^i} − A^b_i η_b` of each shape direction solves the square system
//!
//! `μ^a(η_b) A^b_i = μ^a(∂_{s^i})` (an independent row per constraint: `h_i ∈ D`),
//! `g(η_b, σ_j) A^b_i = g(∂_{s^i}, σ_j)` (one row per direction `σ_j` of `S`: `h_i ⊥ S`),
//!
//! with every entry an invariant function, read at the identity. A singular system (the
//! constraints and the orbits do not span `TQ`) is refused with its determinant.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use model::group::GroupAction;
use model::System;

/// `A^b_i` as `solved[b][i]` (see the module documentation).
pub(super) fn connection(
    system: &System,
    groups: &[GroupAction],
    eta: &[Vec<Expr>],
    shape: &[usize],
    g: &[Vec<Expr>],
    identity: &BTreeMap<String, Expr>,
) -> diagnostic::Result<Vec<Vec<Expr>>> {
    let n = system.coordinates.len();
    let at = groups[0].span;
    let read = |e: Expr| e.subs(identity).expand_trig().simplify();
    let velocities = &system.keys(&system.algebroid.velocities);
    let refuse = |message: String, label: String| {
        Err(vec![Diagnostic::error(Code::E0283, message, at, label)
            .with_help(
                "use `connection mechanical` (the default) or `connection chart`",
            )])
    };
    // μ^a_j, the constraints' covectors (their linear part).
    let mut mu: Vec<Vec<Expr>> = Vec::new();
    for c in &system.constraints {
        let row: Vec<Expr> = velocities
            .iter()
            .map(|v| c.psi.diff(v).simplify())
            .collect();
        if row.iter().any(|e| e.depends_on_any(velocities)) {
            return refuse(
                "the nonholonomic connection needs constraints linear in the velocities"
                    .to_string(),
                "a constraint is not".to_string(),
            );
        }
        mu.push(row);
    }
    let apply = |covector: &[Expr], field: &[Expr]| {
        read(Expr::sum(covector.iter().zip(field).map(|(a, b)| a * b)))
    };
    let pair = |x: &[Expr], y: &[Expr]| {
        read(Expr::sum(
            (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| &(&x[i] * &g[i][j]) * &y[j]),
        ))
    };
    let unit = |i: usize| -> Vec<Expr> {
        (0..n)
            .map(|j| if j == i { Expr::one() } else { Expr::zero() })
            .collect()
    };
    // μ^a(η_b), its independent rows, and S = its kernel, as fields on Q.
    let on_orbits: Vec<Vec<Expr>> = mu
        .iter()
        .map(|m| eta.iter().map(|e| apply(m, e)).collect())
        .collect();
    let rows: Vec<usize> = if on_orbits.is_empty() {
        Vec::new()
    } else {
        let transposed: Vec<Vec<Expr>> = (0..eta.len())
            .map(|b| on_orbits.iter().map(|row| row[b].clone()).collect())
            .collect();
        cas::rank(&transposed).1
    };
    let kernel = super::momentum::kernel(&on_orbits, eta.len());
    let directions: Vec<Vec<Expr>> = kernel
        .iter()
        .map(|xi| {
            (0..n)
                .map(|j| Expr::sum(xi.iter().zip(eta).map(|(c, e)| c * &e[j])))
                .collect()
        })
        .collect();
    if rows.len() + directions.len() != eta.len() {
        return refuse(
            "the constraints and the orbits do not span TQ: the nonholonomic connection is not defined".to_string(),
            format!("{} independent constraints on the orbits and {} allowed directions for a group of dimension {}", rows.len(), directions.len(), eta.len()),
        );
    }
    let matrix: Vec<Vec<Expr>> = rows
        .iter()
        .map(|&a| on_orbits[a].clone())
        .chain(
            directions
                .iter()
                .map(|sigma| eta.iter().map(|e| pair(e, sigma)).collect()),
        )
        .collect();
    let rhs: Vec<Vec<Expr>> = rows
        .iter()
        .map(|&a| shape.iter().map(|&i| apply(&mu[a], &unit(i))).collect())
        .chain(
            directions
                .iter()
                .map(|sigma| shape.iter().map(|&i| pair(&unit(i), sigma)).collect()),
        )
        .collect();
    cas::solve(&matrix, &rhs).or_else(|singular| {
        refuse(
            "the nonholonomic connection is not defined here".to_string(),
            format!(
                "its system is singular: det = {}",
                cas::print::spec(&singular.det, system)
            ),
        )
    })
}
