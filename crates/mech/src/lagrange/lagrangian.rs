//! [IMMS07] §II.4: the Lagrangian side on a Lie affgebroid.
//!
//! For `L(x, y)` with `p_α = ∂L/∂y^α`, `W_αβ = ∂²L/∂y^α∂y^β` and `E_L = y^α p_α − L`:
//!
//! - `Θ_L = (L − y^α p_α) φ_0 + p_α T̃^α` (eq. 10);
//! - `Ω_L` in block form, in the basis `(T̃_0, T̃_β, Ṽ_β)`;
//! - the Euler–Lagrange section `R_L = T̃_0 + y^α T̃_α + R_L^α Ṽ_α`, with forces added:
//!   `W_αβ R_L^β = ρ^i_α ∂_iL − (ρ^i_0 + y^γ ρ^i_γ) ∂_i p_α + (C^γ_0α + y^μ C^γ_μα) p_γ + F_α`.

use cas::Expr;
use model::System;

use crate::base::algebra::{admissible_apply, anchor_apply};

/// A regular Lagrangian's closed-form objects with their system: what the Hamiltonian side and
/// the projected structure are built from, so that they need no whole derivation.
#[derive(Clone, Copy)]
pub struct Regular<'a> {
    /// The system, as resolved.
    pub system: &'a System,
    /// `p, W, E_L, Θ_L, Ω_L` and the forcing of the Euler–Lagrange equations.
    pub lagrangian: &'a Lagrangian,
    /// `W^{αβ}`.
    pub hessian_inverse: &'a [Vec<Expr>],
}

/// The Lagrangian objects of a system.
#[derive(Clone, Debug)]
pub struct Lagrangian {
    /// `p_α = ∂L/∂y^α`.
    pub momenta: Vec<Expr>,
    /// `W_αβ = ∂²L/∂y^α∂y^β`.
    pub hessian: Vec<Vec<Expr>>,
    /// `det W`.
    pub hessian_det: Expr,
    /// `E_L = y^α p_α − L`.
    pub energy: Expr,
    /// `Θ_L = theta[0] φ_0 + theta[α] T̃^α`.
    pub theta: Vec<Expr>,
    /// `Ω_L` as a `(2n+1) × (2n+1)` antisymmetric matrix in `(T̃_0, T̃_β, Ṽ_β)`.
    pub omega: Vec<Vec<Expr>>,
    /// The right-hand side `b_α` of `W_αβ R_L^β = b_α` (forces included).
    pub forcing: Vec<Expr>,
}

/// `C^γ_0α + y^μ C^γ_μα` as `[α][γ]`. The structure functions that are zero (all of a tangent
/// bundle's) are skipped: `n³` of them, each a product and a sum, for nothing.
pub fn gyroscopic(system: &System) -> Vec<Vec<Expr>> {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    (0..n)
        .map(|a| {
            (0..n)
                .map(|g| {
                    (0..n)
                        .filter(|&mu| !alg.c[mu][a][g].is_literal_zero())
                        .fold(alg.c0[a][g].clone(), |acc, mu| {
                            acc + system.expr(alg.velocities[mu]) * alg.c[mu][a][g].clone()
                        })
                        .simplify()
                })
                .collect()
        })
        .collect()
}

/// Derives the Lagrangian objects of §II.4.
pub fn derive(system: &System) -> Lagrangian {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let l: &Expr = &system.lagrangian;
    let y = |a: usize| system.expr(alg.velocities[a]);
    let velocities = system.keys(&alg.velocities);
    let momenta: Vec<Expr> = velocities.iter().map(|v| l.diff(v).simplify()).collect();
    let hessian: Vec<Vec<Expr>> = momenta
        .iter()
        .map(|p| velocities.iter().map(|v| p.diff(v).simplify()).collect())
        .collect();
    let hessian_det = cas::det(&hessian);
    let energy = (0..n)
        .fold(-l.clone(), |acc, a| acc + y(a) * momenta[a].clone())
        .simplify();
    let mut theta = vec![(-energy.clone()).simplify()];
    theta.extend(momenta.iter().cloned());
    let gyro = gyroscopic(system);
    let forcing: Vec<Expr> = (0..n)
        .map(|a| {
            let coupling = (0..n).fold(Expr::zero(), |acc, g| {
                acc + gyro[a][g].clone() * momenta[g].clone()
            });
            (anchor_apply(system, a + 1, l) - admissible_apply(system, &momenta[a])
                + coupling
                + system.forces[a].clone())
            .simplify()
        })
        .collect();
    let omega = omega_matrix(system, &momenta, &hessian, &energy);
    Lagrangian {
        momenta,
        hessian,
        hessian_det,
        energy,
        theta,
        omega,
        forcing,
    }
}

/// `Ω_L` in block form, in the basis `(T̃_0, T̃_β, Ṽ_β)`.
fn omega_matrix(system: &System, p: &[Expr], w: &[Vec<Expr>], energy: &Expr) -> Vec<Vec<Expr>> {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let size = 2 * n + 1;
    let mut omega = vec![vec![Expr::zero(); size]; size];
    let t = |a: usize| 1 + a;
    let v = |a: usize| 1 + n + a;
    let mut set = |i: usize, j: usize, value: Expr| {
        let value = value.simplify();
        omega[j][i] = (-value.clone()).simplify();
        omega[i][j] = value;
    };
    for b in 0..n {
        let p_gamma_c0 = (0..n).fold(Expr::zero(), |acc, g| {
            acc + p[g].clone() * alg.c0[b][g].clone()
        });
        set(
            0,
            t(b),
            -anchor_apply(system, b + 1, energy) - anchor_apply(system, 0, &p[b]) + p_gamma_c0,
        );
        let yw = (0..n).fold(Expr::zero(), |acc, a| {
            acc + system.expr(alg.velocities[a]) * w[a][b].clone()
        });
        set(0, v(b), -yw);
        for a in 0..n {
            set(t(a), v(b), w[a][b].clone());
            if a < b {
                let pc = (0..n).fold(Expr::zero(), |acc, g| {
                    acc + p[g].clone() * alg.c[a][b][g].clone()
                });
                set(
                    t(a),
                    t(b),
                    anchor_apply(system, b + 1, &p[a]) - anchor_apply(system, a + 1, &p[b]) + pc,
                );
            }
        }
    }
    omega
}
