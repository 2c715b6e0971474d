//! [IMMS07] §III–§IV.1: Lagrange–d'Alembert equations on a Lie affgebroid with affine (or, by
//! Chetaev's rule, nonlinear) constraints.
//!
//! With `W^{αβ}` the inverse Hessian and `Ψ^a = μ^a_0 + μ^a_α y^α`:
//!
//! - `dΨ^a = ρ_0(Ψ^a) φ_0 + ρ_α(Ψ^a) T̃^α + μ^a_α Ṽ^α` (§III, from (1) and (7));
//! - `Z_a = −W^{αβ} μ^a_β Ṽ_α` (37);
//! - `𝒞^{ab} = dΨ^a(Z_b) = −W^{αβ} μ^a_α μ^b_β` (34), the regularity condition `det 𝒞 ≠ 0`;
//! - `λ_c = −𝒞_{ca} dΨ^a(R_L)` and `R_nh = R_L + λ_a Z_a` (§IV.1.1);
//! - `P = I − 𝒞_{ac} Z_c ⊗ dΨ^a` (Thm IV.5), with `P(R_L) = R_nh` on the constraint surface;
//! - `dE_L/dt = −ρ_0(L) + C^γ_0α y^α p_γ + F_α y^α − λ_a μ^a_α y^α` (derived, not in
//!   the paper; on ℬ the last term is `λ_a μ^a_0` for affine constraints).

use cas::Expr;
use model::System;

use crate::base::algebra::{admissible_apply, anchor_apply};
use crate::lagrange::lagrangian::Lagrangian;

/// The Lagrange–d'Alembert objects.
#[derive(Clone, Debug)]
pub struct Nonholonomic {
    /// `dΨ^a` as rows over `(T̃_0, T̃_β, Ṽ_β)`.
    pub dpsi: Vec<Vec<Expr>>,
    /// `Z_a` as columns over `(T̃_0, T̃_β, Ṽ_β)` (`z[a]` is the vector).
    pub z: Vec<Vec<Expr>>,
    /// `𝒞^{ab}`.
    pub matrix: Vec<Vec<Expr>>,
    /// `det 𝒞`.
    pub det: Expr,
    /// `𝒞_{ab}`, the inverse.
    pub inverse: Vec<Vec<Expr>>,
    /// `dΨ^a(R_L)`.
    pub dpsi_free: Vec<Expr>,
    /// `λ_a`.
    pub multipliers: Vec<Expr>,
    /// The fibre components `R_nh^α`.
    pub rhs: Vec<Expr>,
    /// `P`, `(2n+1) × (2n+1)`.
    pub projector: Vec<Vec<Expr>>,
}

/// Why the constrained system cannot be solved.
#[derive(Clone, Debug)]
pub struct Irregular {
    /// `det 𝒞`, identically zero.
    pub det: Expr,
}

/// Why [`derive`] stopped.
#[derive(Clone, Debug)]
pub enum Stopped {
    /// `𝒞` is singular.
    Irregular(Irregular),
    /// The guard refused this entry (named `object`), before or after its simplification.
    Refused {
        /// What the entry belongs to (`λ`, `the constrained acceleration`, `P`).
        object: &'static str,
        /// The entry.
        entry: Expr,
    },
    /// A multiplier or a constrained acceleration, normalised, has more nodes than the bound
    /// `largest` of [`derive`] (the closed-form attempt's [`crate::base::route::CLOSED_FORM_TERMS`]).
    Oversized {
        /// What the entry belongs to, as the route's reasons name it (`the multipliers`, `the
        /// equations`).
        object: &'static str,
    },
}

/// The full SODE vector `(1, y^α, R^α)` over `(T̃_0, T̃_β, Ṽ_β)`.
pub fn sode_vector(system: &System, fibre: &[Expr]) -> Vec<Expr> {
    let mut v = vec![Expr::one()];
    v.extend(system.exprs(&system.algebroid.velocities));
    v.extend(fibre.iter().cloned());
    v
}

/// Pairs a row covector with a column vector.
pub fn pair(row: &[Expr], column: &[Expr]) -> Expr {
    row.iter()
        .zip(column)
        .fold(Expr::zero(), |acc, (a, b)| acc + a.clone() * b.clone())
}

/// Derives the Lagrange–d'Alembert objects from the free ones (`w_inv` is `W^{-1}`, `free` is
/// `R_L^α`); `allows` guards the multipliers, the constrained accelerations and the projector
/// entry by entry (a size budget and a deadline, [`Expr::simplify_within`]). A multiplier or a
/// constrained acceleration of more than `largest` nodes once normalised stops the derivation at
/// once ([`Stopped::Oversized`]): the closed-form attempt, which refuses such an entry at its end
/// anyway, does not normalise the others first.
pub fn derive(
    system: &System,
    w_inv: &[Vec<Expr>],
    free: &[Expr],
    allows: &dyn Fn(&Expr) -> bool,
    largest: Option<usize>,
) -> Result<Nonholonomic, Stopped> {
    // The entry refused is the one that was measured: the sum before its simplification, or
    // its normal form.
    let guarded = |object: &'static str, e: Expr| {
        if !allows(&e) {
            return Err(Stopped::Refused { object, entry: e });
        }
        let simplified = e.simplify();
        if allows(&simplified) {
            Ok(simplified)
        } else {
            Err(Stopped::Refused {
                object,
                entry: simplified,
            })
        }
    };
    // A multiplier or an acceleration, normalised, within `largest`; `object` as reasons name it.
    let kept = |object: &'static str, e: Expr| match largest {
        Some(most) if e.size() > most => Err(Stopped::Oversized { object }),
        _ => Ok(e),
    };
    let n = system.rank();
    let size = 2 * n + 1;
    let constraints = &system.constraints;
    let r = constraints.len();
    let dpsi: Vec<Vec<Expr>> = constraints
        .iter()
        .map(|c| {
            let mut row = vec![anchor_apply(system, 0, &c.psi).simplify()];
            row.extend((1..=n).map(|a| anchor_apply(system, a, &c.psi).simplify()));
            row.extend(c.mu.iter().cloned());
            row
        })
        .collect();
    let z: Vec<Vec<Expr>> = constraints
        .iter()
        .map(|c| {
            let mut column = vec![Expr::zero(); size];
            for a in 0..n {
                let value = (0..n).fold(Expr::zero(), |acc, b| {
                    acc - w_inv[a][b].clone() * c.mu[b].clone()
                });
                column[1 + n + a] = value.simplify();
            }
            column
        })
        .collect();
    let matrix: Vec<Vec<Expr>> = (0..r)
        .map(|a| (0..r).map(|b| pair(&dpsi[a], &z[b]).simplify()).collect())
        .collect();
    let det = cas::det(&matrix);
    if det.is_zero() {
        return Err(Stopped::Irregular(Irregular { det }));
    }
    let inverse =
        cas::inverse(&matrix).map_err(|s| Stopped::Irregular(Irregular { det: s.det }))?;
    let free_vector = sode_vector(system, free);
    let dpsi_free: Vec<Expr> = dpsi
        .iter()
        .map(|row| pair(row, &free_vector).simplify())
        .collect();
    let multipliers: Vec<Expr> = (0..r)
        .map(|c| {
            let sum = (0..r).fold(Expr::zero(), |acc, a| {
                acc - inverse[c][a].clone() * dpsi_free[a].clone()
            });
            kept("the multipliers", guarded("λ", sum)?)
        })
        .collect::<Result<_, _>>()?;
    let rhs: Vec<Expr> = (0..n)
        .map(|a| {
            let sum = (0..r).fold(free[a].clone(), |acc, c| {
                acc + multipliers[c].clone() * z[c][1 + n + a].clone()
            });
            kept(
                "the equations",
                guarded("the constrained acceleration", sum)?,
            )
        })
        .collect::<Result<_, _>>()?;
    let projector = (0..size)
        .map(|i| {
            (0..size)
                .map(|j| {
                    let identity = if i == j { Expr::one() } else { Expr::zero() };
                    let mut sum = identity;
                    for a in 0..r {
                        for c in 0..r {
                            sum =
                                sum - inverse[a][c].clone() * z[c][i].clone() * dpsi[a][j].clone();
                        }
                    }
                    guarded("P", sum)
                })
                .collect::<Result<_, _>>()
        })
        .collect::<Result<_, _>>()?;
    Ok(Nonholonomic {
        dpsi,
        z,
        matrix,
        det,
        inverse,
        dpsi_free,
        multipliers,
        rhs,
        projector,
    })
}

/// `dE_L/dt` by the balance law: `−ρ_0(L) + C^γ_0α y^α p_γ + F_α y^α − λ_a μ^a_α y^α`.
pub fn energy_balance(system: &System, lagrangian: &Lagrangian, multipliers: &[Expr]) -> Expr {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let y = |a: usize| system.expr(alg.velocities[a]);
    let mut rate = -anchor_apply(system, 0, &system.lagrangian);
    for a in 0..n {
        for g in 0..n {
            rate = rate + alg.c0[a][g].clone() * y(a) * lagrangian.momenta[g].clone();
        }
        rate = rate + system.forces[a].clone() * y(a);
    }
    for (c, lambda) in system.constraints.iter().zip(multipliers) {
        let power = (0..n).fold(Expr::zero(), |acc, a| acc + c.mu[a].clone() * y(a));
        rate = rate - lambda.clone() * power;
    }
    rate.simplify()
}

/// The derivative of `f` along the SODE with fibre components `fibre`:
/// `(ρ_0 + y^γ ρ_γ)(f) + fibre^α ∂f/∂y^α`.
pub fn derivative_along(system: &System, fibre: &[Expr], f: &Expr) -> Expr {
    system
        .algebroid
        .velocities
        .iter()
        .zip(fibre)
        .fold(admissible_apply(system, f), |acc, (y, rhs)| {
            acc + rhs.clone() * f.diff(&system.key(*y))
        })
        .simplify()
}
