//! The nonholonomic momentum equation (Bloch, Krishnaprasad, Marsden and Murray, "Nonholonomic
//! mechanical systems with symmetry", Arch. Rational Mech. Anal. 136 (1996) 21–99, §4), computed
//! on the reduced algebroid.
//!
//! The directions of the group that the constraints allow are the sections `σ = ξ^b η_b` along
//! the orbits with `μ^a(σ) = 0`: the kernel of the constraints restricted to the group's
//! sections, a basis of which is found by elimination (a free velocity set to one, the others
//! solved, denominators cleared). Along `σ` the multipliers do not act, so Lagrange–d'Alembert's
//! equation `EL_α σ^α = 0` with `EL_α = d/dt ∂l/∂y^α − ρ^i_α ∂l/∂x^i − C^γ_βα y^β ∂l/∂y^γ`
//! ([IMMS07] (35), no forces) and `ρ(η_b) = 0` is the momentum equation
//!
//! `ṗ = ξ̇^b ∂l/∂y^b + ξ^b C^γ_βb y^β ∂l/∂y^γ`, `p = ξ^b ∂l/∂y^b`, `ξ̇ = ∂_t ξ + ṡ^i ∂_{s^i} ξ`,
//!
//! stated on the constraint distribution (the constrained group velocities solved) and, where the
//! remaining group velocities can be solved from the momenta, in the momenta. Without constraints
//! every group direction is allowed: the vertical Lagrange–Poincaré equations.

use std::collections::BTreeMap;

use cas::Expr;
use model::System;
use report::{MomentumEquation, Reduction};

use super::integrable;

/// The momentum equations of a reduction (empty when a constraint is not affine in the
/// velocities).
pub(super) fn momentum_equations(system: &System, r: &Reduction) -> Vec<MomentumEquation> {
    let k = r.shape.len();
    let n = r.velocities.len();
    let y: Vec<String> = r.velocities.clone();
    let mut mu: Vec<Vec<Expr>> = Vec::new();
    let mut mu0: Vec<Expr> = Vec::new();
    for psi in &r.constraints {
        let row: Vec<Expr> = y.iter().map(|v| psi.diff(v).simplify()).collect();
        if row.iter().any(|c| c.depends_on_any(&y)) {
            return Vec::new();
        }
        let rest = Expr::sum(row.iter().zip(&y).map(|(c, v)| c * &Expr::symbol(v)));
        mu0.push((psi - &rest).simplify());
        mu.push(row);
    }
    let group: Vec<usize> = (k..n).collect();
    let m: Vec<Vec<Expr>> = mu
        .iter()
        .map(|row| group.iter().map(|&b| row[b].clone()).collect())
        .collect();
    let (pivot_rows, pivot_cols) = pivots(&m);
    let free: Vec<usize> = (0..group.len())
        .filter(|c| !pivot_cols.contains(c))
        .collect();
    let square: Vec<Vec<Expr>> = pivot_rows
        .iter()
        .map(|&a| pivot_cols.iter().map(|&c| m[a][c].clone()).collect())
        .collect();
    let directions = kernel(&m, group.len());
    // The constrained group velocities, solved on D.
    let on_d = solved_constraints(&square, &mu, &mu0, &pivot_rows, &pivot_cols, &group, &y);
    let dl: Vec<Expr> = y.iter().map(|v| r.lagrangian.diff(v)).collect();
    let names = momentum_names(system, r, directions.len());
    let equations: Vec<(Vec<Expr>, String, Expr, Expr)> = directions
        .into_iter()
        .zip(names)
        .map(|(xi, name)| {
            let momentum = Expr::sum(xi.iter().zip(&group).map(|(c, &b)| c * &dl[b])).simplify();
            let rate = rate(system, r, &xi, &dl, &y);
            let rate = on_d
                .as_ref()
                .map_or(rate.clone(), |sub| rate.subs(sub))
                .simplify();
            (xi, name, momentum, rate)
        })
        .collect();
    let in_momenta = rates_in_momenta(&equations, on_d.as_ref(), &free, &group, &y);
    let shape_velocities = &y[..k];
    equations
        .into_iter()
        .enumerate()
        .map(|(j, (direction, name, momentum, rate))| MomentumEquation {
            conserved: rate.vanishes(),
            integral: in_momenta
                .as_ref()
                .filter(|_| !rate.vanishes())
                .and_then(|all| {
                    integrable::integrating_factor(
                        &all[j],
                        &name,
                        &r.shape,
                        shape_velocities,
                        &system.keys(&system.parameters),
                    )
                })
                .map(|factor| (&momentum * &factor).simplify()),
            rate_in_momenta: in_momenta.as_ref().map(|all| all[j].clone()),
            direction,
            name,
            momentum,
            rate,
        })
        .collect()
}

/// A basis of the kernel of `m` (rows of `width` entries; all of `ℝ^width` without rows): a free
/// column set to one, the pivot columns solved, denominators cleared.
pub(super) fn kernel(m: &[Vec<Expr>], width: usize) -> Vec<Vec<Expr>> {
    let (pivot_rows, pivot_cols) = pivots(m);
    let square: Vec<Vec<Expr>> = pivot_rows
        .iter()
        .map(|&a| pivot_cols.iter().map(|&c| m[a][c].clone()).collect())
        .collect();
    (0..width)
        .filter(|c| !pivot_cols.contains(c))
        .filter_map(|f| kernel_vector(&square, m, &pivot_rows, &pivot_cols, f, width))
        .collect()
}

/// Independent rows and pivot columns of `m` (empty for no rows).
fn pivots(m: &[Vec<Expr>]) -> (Vec<usize>, Vec<usize>) {
    if m.is_empty() || m[0].is_empty() {
        return (Vec::new(), Vec::new());
    }
    let (_, cols) = cas::rank(m);
    let transposed: Vec<Vec<Expr>> = (0..m[0].len())
        .map(|c| m.iter().map(|row| row[c].clone()).collect())
        .collect();
    let (_, rows) = cas::rank(&transposed);
    (rows, cols)
}

/// The kernel vector of `m` with the free column `f` set to one, its denominators cleared.
fn kernel_vector(
    square: &[Vec<Expr>],
    m: &[Vec<Expr>],
    rows: &[usize],
    cols: &[usize],
    f: usize,
    width: usize,
) -> Option<Vec<Expr>> {
    let mut xi = vec![Expr::zero(); width];
    xi[f] = Expr::one();
    if !cols.is_empty() {
        let rhs: Vec<Vec<Expr>> = rows.iter().map(|&a| vec![-&m[a][f]]).collect();
        let solved = cas::solve(square, &rhs).ok()?;
        for (c, row) in cols.iter().zip(solved) {
            xi[*c] = row[0].simplify();
        }
    }
    let mut denominators: Vec<Expr> = Vec::new();
    for c in &xi {
        let (_, d) = c.numerator_denominator();
        if !(&d - &Expr::one()).is_zero() && !denominators.iter().any(|e| (e - &d).is_zero()) {
            denominators.push(d);
        }
    }
    let scale = denominators.into_iter().fold(Expr::one(), |acc, d| acc * d);
    Some(
        xi.into_iter()
            .map(|c| (c * scale.clone()).simplify())
            .collect(),
    )
}

/// The constrained group velocities (the pivot columns) solved from the independent constraint
/// rows, as a substitution; `None` without constraints.
fn solved_constraints(
    square: &[Vec<Expr>],
    mu: &[Vec<Expr>],
    mu0: &[Expr],
    rows: &[usize],
    cols: &[usize],
    group: &[usize],
    y: &[String],
) -> Option<BTreeMap<String, Expr>> {
    if cols.is_empty() {
        return None;
    }
    let pivot_velocities: Vec<usize> = cols.iter().map(|&c| group[c]).collect();
    let rhs: Vec<Vec<Expr>> = rows
        .iter()
        .map(|&a| {
            let others = Expr::sum(
                (0..y.len())
                    .filter(|alpha| !pivot_velocities.contains(alpha))
                    .map(|alpha| &mu[a][alpha] * &Expr::symbol(&y[alpha])),
            );
            vec![(-(others + mu0[a].clone())).simplify()]
        })
        .collect();
    let solved = cas::solve(square, &rhs).ok()?;
    Some(
        pivot_velocities
            .iter()
            .zip(solved)
            .map(|(&alpha, row)| (y[alpha].clone(), row[0].simplify()))
            .collect(),
    )
}

/// `ṗ = ξ̇^b ∂l/∂y^b + ξ^b C^γ_βb y^β ∂l/∂y^γ` (see the module documentation).
fn rate(system: &System, r: &Reduction, xi: &[Expr], dl: &[Expr], y: &[String]) -> Expr {
    let k = r.shape.len();
    let mut terms = Vec::new();
    for (b, c) in xi.iter().enumerate() {
        let along = k + b;
        let mut derivative = c.diff(&system.key(system.time));
        for (i, s) in r.shape.iter().enumerate() {
            derivative = derivative + c.diff(s) * Expr::symbol(&y[i]);
        }
        terms.push(derivative * dl[along].clone());
        for (y_beta, row) in y.iter().zip(&r.brackets) {
            for (structure, dl_gamma) in row[along].iter().zip(dl) {
                if !structure.is_zero() {
                    terms.push(c * &(structure * &(&Expr::symbol(y_beta) * dl_gamma)));
                }
            }
        }
    }
    Expr::sum(terms)
}

/// Each `ṗ_j` in the momenta: the free group velocities solved from `p_j = ξ_j^b ∂l/∂y^b` on D;
/// `None` when they cannot be.
fn rates_in_momenta(
    equations: &[(Vec<Expr>, String, Expr, Expr)],
    on_d: Option<&BTreeMap<String, Expr>>,
    free: &[usize],
    group: &[usize],
    y: &[String],
) -> Option<Vec<Expr>> {
    if equations.is_empty() {
        return Some(Vec::new());
    }
    let unknowns: Vec<&String> = free.iter().map(|&f| &y[group[f]]).collect();
    let momenta: Vec<Expr> = equations
        .iter()
        .map(|(_, _, p, _)| on_d.map_or(p.clone(), |sub| p.subs(sub)).simplify())
        .collect();
    let matrix: Vec<Vec<Expr>> = momenta
        .iter()
        .map(|p| unknowns.iter().map(|u| p.diff(u).simplify()).collect())
        .collect();
    if matrix
        .iter()
        .flatten()
        .any(|c| c.depends_on_any(&unknowns.iter().map(|u| (*u).clone()).collect::<Vec<_>>()))
    {
        return None;
    }
    let zero: BTreeMap<String, Expr> = unknowns
        .iter()
        .map(|u| ((*u).clone(), Expr::zero()))
        .collect();
    let rhs: Vec<Vec<Expr>> = equations
        .iter()
        .zip(&momenta)
        .map(|((_, name, _, _), p)| vec![(Expr::symbol(name) - p.subs(&zero)).simplify()])
        .collect();
    let solved = cas::solve(&matrix, &rhs).ok()?;
    let substitution: BTreeMap<String, Expr> = unknowns
        .iter()
        .zip(solved)
        .map(|(u, row)| ((*u).clone(), row[0].simplify()))
        .collect();
    Some(
        equations
            .iter()
            .map(|(_, _, _, rate)| rate.subs(&substitution).simplify())
            .collect(),
    )
}

/// `P1, P2, …`, made unique against the spec's names and the reduced ones.
fn momentum_names(system: &System, r: &Reduction, count: usize) -> Vec<String> {
    let taken = |name: &str| {
        system.scope.names.contains_key(name)
            || r.sections.iter().chain(&r.velocities).any(|n| n == name)
    };
    let mut names = Vec::new();
    let mut k = 1;
    while names.len() < count {
        let name = format!("P{k}");
        if !taken(&name) {
            names.push(name);
        }
        k += 1;
    }
    names
}
