//! Linearisation on the constraint manifold: `A` and `B` of `δż = A δz + B δu` about an
//! equilibrium or a steady motion, in independent coordinates and velocities.
//!
//! This is not a construction of the papers; it linearises the closed-form Lagrange–d'Alembert
//! equations `ẋ = ρ_0 + ρ_α y^α`, `ẏ = R_nh` (Iglesias, Marrero, Martín de Diego, Sosa, J. Math.
//! Phys. 48 (2007) 083513, §IV) the way a control engineer needs them.
//!
//! The state `z = (x, y)` of a constrained system is not free: the motion keeps `Ψ^a(x, y) = 0`
//! (and `f^a(x) = 0` for holonomic constraints). Linearising `ż = F(z, u)` in all of `z` would
//! give one spurious zero eigenvalue per constraint, along directions the motion never takes. So:
//!
//! 1. `J = ∂F/∂z` and `∂F/∂u` at the point `z*` (sympy/sympy#7681 discusses the same problem).
//! 2. The tangent space of the constraint manifold at `z*` is the kernel of `G`, the rows
//!    `∂f^a/∂x` (on the coordinates) and `∂Ψ^a/∂z`. Gaussian elimination on `G` picks one
//!    *dependent* entry per independent row: a coordinate for a holonomic row, a velocity for a
//!    velocity row, scanning from the last entry of the state backwards (so the velocities
//!    declared last are eliminated first, and the coordinates are kept where they can be). The
//!    choice is part of the result, and every output states it.
//! 3. With `δz_d = K δz_i`, `K = −G_d⁻¹ G_i`, the tangent map `T` sends the independent entries to
//!    `δz`; since the flow keeps the constraints, `A = (J T)_i` (the independent rows) and
//!    `B = (∂F/∂u)_i` are exact.
//!
//! The point need not be an equilibrium: about a steady motion (the sleigh going straight, a robot
//! rolling at constant speed) the rates at the point are not zero, but the linearisation is still
//! that of the motion through it when the rates that move are those of cyclic coordinates. The
//! rates at the point are part of the result.

use std::collections::BTreeMap;

use cas::Expr;

use crate::Derivation;

mod roots;
pub use report::{Complex, Linearization};

/// Why a linearisation cannot be taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The point makes a value of the linearisation infinite or undefined.
    Singular(String),
}

/// Linearises `d` about `point` (values of state entries, inputs and parameters by internal
/// name; state entries and inputs not given are zero).
pub fn linearize(d: &Derivation, given: &BTreeMap<String, Expr>) -> Result<Linearization, Refusal> {
    let system = &d.system;
    let state = system.state();
    let inputs = system.inputs.clone();
    let mut point = given.clone();
    let mut defaulted = Vec::new();
    for s in state.iter().chain(&inputs) {
        if !point.contains_key(s) {
            point.insert(s.clone(), Expr::zero());
            defaulted.push(s.clone());
        }
    }
    let rates: Vec<Expr> = state.iter().map(|s| rate_of(d, s)).collect();
    let jacobian = |by: &[String]| -> Vec<Vec<Expr>> {
        rates
            .iter()
            .map(|f| by.iter().map(|s| f.diff(s)).collect())
            .collect()
    };
    let (j, bu) = (jacobian(&state), jacobian(&inputs));
    let rows = constraint_rows(d, &state);
    let at = |e: &Expr| e.subs(&point).simplify();
    let reduction = reduce(&rows, &at, state.len())?;
    let tangent = tangent_map(&reduction, &rows, state.len())?;
    let a_general = multiply(&select(&j, &reduction.independent), &tangent);
    let b_general = select(&bu, &reduction.independent);
    let evaluate = |m: &[Vec<Expr>]| -> Vec<Vec<Expr>> {
        m.iter()
            .map(|row| row.iter().map(|e| at(e).factored()).collect())
            .collect()
    };
    let (a, b) = (evaluate(&a_general), evaluate(&b_general));
    for e in a.iter().chain(&b).flatten() {
        if !e.is_finite_real() {
            return Err(Refusal::Singular(format!(
                "the linearisation is not finite at this point ({})",
                cas::print::spec(e, system)
            )));
        }
    }
    let variable = fresh_variable(system);
    let characteristic = characteristic_polynomial(&a, &variable);
    let eigenvalues = roots::eigenvalues(&characteristic, &variable, a.len());
    let dependent = reduction
        .dependent
        .iter()
        .zip(&tangent_rows(&tangent, &reduction))
        .map(|(&d, row)| (d, row.iter().map(|e| at(e).factored()).collect()))
        .collect();
    Ok(Linearization {
        state,
        inputs,
        rates: rates.iter().map(|f| at(f).factored()).collect(),
        point,
        defaulted,
        independent: reduction.independent,
        dependent,
        redundant: reduction.redundant,
        a,
        b,
        general: (a_general, b_general),
        variable,
        characteristic,
        eigenvalues,
    })
}

/// The closed-form rate of state entry `s`.
fn rate_of(d: &Derivation, s: &str) -> Expr {
    d.equations
        .iter()
        .find(|e| e.state == s)
        .map(|e| e.rhs.clone())
        .unwrap_or_else(Expr::zero)
}

/// One row of `G` and the state entries it may be solved for.
struct Row {
    gradient: Vec<Expr>,
    pivots: std::ops::Range<usize>,
    constraint: usize,
}

/// The rows of `G`: `∂f^a/∂x` of each holonomic constraint (solved for a coordinate), then
/// `∂Ψ^a/∂z` of every constraint (solved for a velocity).
fn constraint_rows(d: &Derivation, state: &[String]) -> Vec<Row> {
    let system = &d.system;
    let m = system.coordinates.len();
    let gradient = |e: &Expr| state.iter().map(|s| e.diff(s)).collect::<Vec<_>>();
    let holonomic = system.constraints.iter().enumerate().filter_map(|(k, c)| {
        c.position.as_ref().map(|f| Row {
            gradient: gradient(f),
            pivots: 0..m,
            constraint: k + 1,
        })
    });
    let velocity = system.constraints.iter().enumerate().map(|(k, c)| Row {
        gradient: gradient(&c.psi),
        pivots: m..state.len(),
        constraint: k + 1,
    });
    holonomic.chain(velocity).collect()
}

/// The choice of dependent entries.
struct Reduction {
    /// Per row used: its index in the rows and its pivot (a position in the state).
    pivots: Vec<(usize, usize)>,
    /// Pivot positions, in row order.
    dependent: Vec<usize>,
    /// The other positions, in state order.
    independent: Vec<usize>,
    /// Constraints whose row was dependent at the point.
    redundant: Vec<usize>,
}

/// Gaussian elimination of `G` at the point (`at` evaluates there): each row, reduced by the
/// rows before it, is solved for the last entry it may be solved for whose coefficient is not
/// zero.
fn reduce(rows: &[Row], at: &dyn Fn(&Expr) -> Expr, n: usize) -> Result<Reduction, Refusal> {
    let mut reduced: Vec<Vec<Expr>> = Vec::new();
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    let mut redundant = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let mut current: Vec<Expr> = row.gradient.iter().map(at).collect();
        for (used, &(_, column)) in pivots.iter().enumerate() {
            let factor = (current[column].clone() / reduced[used][column].clone()).simplify();
            if factor.is_zero() {
                continue;
            }
            for (c, value) in current.iter_mut().enumerate() {
                *value = (value.clone() - factor.clone() * reduced[used][c].clone()).simplify();
            }
        }
        match row.pivots.clone().rev().find(|&c| !current[c].is_zero()) {
            Some(column) => {
                pivots.push((k, column));
                reduced.push(current);
            }
            None => redundant.push(row.constraint),
        }
    }
    let dependent: Vec<usize> = pivots.iter().map(|p| p.1).collect();
    let independent = (0..n).filter(|c| !dependent.contains(c)).collect();
    Ok(Reduction {
        pivots,
        dependent,
        independent,
        redundant,
    })
}

/// `T` (state × independent): the identity on the independent entries, `K = −G_d⁻¹ G_i` on the
/// dependent ones, with `G` at a general state.
fn tangent_map(r: &Reduction, rows: &[Row], n: usize) -> Result<Vec<Vec<Expr>>, Refusal> {
    let used: Vec<&Row> = r.pivots.iter().map(|&(k, _)| &rows[k]).collect();
    let g_d: Vec<Vec<Expr>> = used
        .iter()
        .map(|row| {
            r.dependent
                .iter()
                .map(|&c| row.gradient[c].clone())
                .collect()
        })
        .collect();
    let minus_g_i: Vec<Vec<Expr>> = used
        .iter()
        .map(|row| {
            r.independent
                .iter()
                .map(|&c| -row.gradient[c].clone())
                .collect()
        })
        .collect();
    let k = if used.is_empty() {
        Vec::new()
    } else {
        cas::solve(&g_d, &minus_g_i).map_err(|_| {
            Refusal::Singular(
                "the constraints cannot be solved for the dependent entries chosen".into(),
            )
        })?
    };
    let mut t = vec![vec![Expr::zero(); r.independent.len()]; n];
    for (column, &i) in r.independent.iter().enumerate() {
        t[i][column] = Expr::one();
    }
    for (row, &d) in r.dependent.iter().enumerate() {
        t[d] = k[row].clone();
    }
    Ok(t)
}

/// The rows of `T` of the dependent entries, in the order of `r.dependent`.
fn tangent_rows(t: &[Vec<Expr>], r: &Reduction) -> Vec<Vec<Expr>> {
    r.dependent.iter().map(|&d| t[d].clone()).collect()
}

/// The rows `keep` of `m`.
fn select(m: &[Vec<Expr>], keep: &[usize]) -> Vec<Vec<Expr>> {
    keep.iter().map(|&i| m[i].clone()).collect()
}

/// `x · y`.
fn multiply(x: &[Vec<Expr>], y: &[Vec<Expr>]) -> Vec<Vec<Expr>> {
    let columns = y.first().map_or(0, Vec::len);
    x.iter()
        .map(|row| {
            (0..columns)
                .map(|j| {
                    Expr::sum(
                        row.iter()
                            .zip(y)
                            .filter(|(a, b)| !a.is_literal_zero() && !b[j].is_literal_zero())
                            .map(|(a, b)| a.clone() * b[j].clone()),
                    )
                })
                .collect()
        })
        .collect()
}

/// `det(s I − A)`, factored.
fn characteristic_polynomial(a: &[Vec<Expr>], variable: &str) -> Expr {
    let s = Expr::symbol(variable);
    let shifted: Vec<Vec<Expr>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, e)| {
                    if i == j {
                        s.clone() - e.clone()
                    } else {
                        -e.clone()
                    }
                })
                .collect()
        })
        .collect();
    if shifted.is_empty() {
        return Expr::one();
    }
    cas::det(&shifted).factored()
}

/// `s`, or `s_`, `s__`… when the spec uses the name.
fn fresh_variable(system: &model::System) -> String {
    let mut name = "s".to_string();
    while system.scope.names.contains_key(&name) {
        name.push('_');
    }
    name
}
