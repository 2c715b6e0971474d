//! [GLMM09] §4 (Theorem 4.1, Example 4.2), with the curvature that makes Jacobi fail: is the
//! nonholonomic algebroid `(D, ε_P)` of the `projected` module a Lie algebroid?
//!
//! The projection `P` of a Lie algebroid `E` onto `D` along the `G`-orthogonal complement makes
//! `[X, Y]_P = P[X, Y]_E` skew, but Jacobi may fail. What is lost is the curvature
//!
//! `K(X, Y) = (1 − P)[X, Y]_E`, a skew tensor `D × D → D^⊥`
//!
//! (for `E = TQ` the curvature of the distribution), and it enters in two places:
//!
//! - the **anchor defect** `ρ([X, Y]_P) − [ρX, ρY] = −ρ(K(X, Y))` (the anchor of `E` is a
//!   homomorphism, so `ρ[X, Y]_E = [ρX, ρY]`);
//! - the **section Jacobiator** `Jac_P(X, Y, Z) = Σ_cyc [[X, Y]_P, Z]_P = Σ_cyc P[Z, K(X, Y)]_E`
//!   (the Jacobi identity of `E` cancels the rest).
//!
//! `(D, ε_P)` is Lie iff both vanish on the frame `X_a` of `D`, equivalently iff the bracket on
//! `D*` is Poisson: with our sign (`{x^i, ξ_a} = ρ^i_a`, `{ξ_a, ξ_b} = −𝒞^c_ab ξ_c`,
//! `J(f, g, h) = Σ_cyc {f, {g, h}}`) a hand computation gives
//!
//! `J(ξ_a, ξ_b, x^j) = ρ(K(X_a, X_b))^j`, `J(ξ_a, ξ_b, ξ_c) = −⟨ξ, Jac_P(X_a, X_b, X_c)⟩`,
//!
//! and every other coordinate triple gives zero. This is why the module reports the three things
//! separately: non-zero curvature does **not** imply non-Lie. For `E = TQ` (`ρ` injective)
//! Lie ⟺ `K ≡ 0` ⟺ `D` involutive; for a Lie algebra (`ρ = 0`) only the section Jacobiator
//! counts, and a rank-2 `D` is always Lie — the Chaplygin sleigh has `K ≠ 0` and is Lie.
//!
//! In the frame, `Jac_P` is computed from the structure functions alone,
//! `Jac_P(X_a, X_b, X_c)^e = Σ_cyc (𝒞^d_ab 𝒞^e_dc − ρ_c(𝒞^e_ab))`; the golden tests compute it the
//! second way, `Σ_cyc P[X_c, K(X_a, X_b)]_E`, and compare.

use cas::Expr;
use model::System;

/// The curvature of `D` and the Jacobi defects of `(D, ε_P)` on its frame.
#[derive(Clone, Debug)]
pub struct Lie {
    /// `K(X_a, X_b)` for `a < b`, by its components on the algebroid's sections `e_B`.
    pub curvature: Vec<(usize, usize, Vec<Expr>)>,
    /// `ρ(K(X_a, X_b))^i` for `a < b`, over the coordinates: minus the anchor defect.
    pub anchor_curvature: Vec<(usize, usize, Vec<Expr>)>,
    /// `Jac_P(X_a, X_b, X_c)` for `a < b < c`, by its components on the frame `X_e` of `D`.
    pub jacobiator: Vec<(usize, usize, usize, Vec<Expr>)>,
    /// `K ≡ 0` (for `E = TQ`: `D` is involutive).
    pub involutive: bool,
    /// The anchor defect and the section Jacobiator vanish: `(D, ε_P)` is a Lie algebroid.
    pub lie: bool,
}

/// The pieces of `(D, ε_P)` the report is computed from.
pub struct Projection<'a> {
    /// The system (its algebroid gives `[·,·]_E` and `ρ`).
    pub system: &'a System,
    /// `W`, the metric `G` on `E`.
    pub metric: &'a [Vec<Expr>],
    /// `X_a` by components on `e_B`.
    pub sections: &'a [Vec<Expr>],
    /// `G_D⁻¹`.
    pub metric_inverse: &'a [Vec<Expr>],
    /// `ρ^i(X_a)` as `anchors[a][i]`.
    pub anchors: &'a [Vec<Expr>],
    /// `𝒞^c_ab` as `structure[a][b][c]`.
    pub structure: &'a [Vec<Vec<Expr>>],
}

impl Projection<'_> {
    /// `G(x, y)` for sections of `E` by components.
    pub fn pairing(&self, x: &[Expr], y: &[Expr]) -> Expr {
        let n = x.len();
        (0..n).fold(Expr::zero(), |acc, a| {
            (0..n).fold(acc, |acc, b| {
                acc + x[a].clone() * self.metric[a][b].clone() * y[b].clone()
            })
        })
    }

    /// The components of `P w` on the frame `X_c` of `D`: `G_D^{cd} G(X_d, w)`.
    pub fn project(&self, w: &[Expr]) -> Vec<Expr> {
        let projections: Vec<Expr> = self.sections.iter().map(|x| self.pairing(x, w)).collect();
        (0..self.sections.len())
            .map(|c| {
                projections
                    .iter()
                    .enumerate()
                    .fold(Expr::zero(), |acc, (d, p)| {
                        acc + self.metric_inverse[c][d].clone() * p.clone()
                    })
                    .simplify()
            })
            .collect()
    }

    /// `[x, y]_E` by components on `e_B`.
    pub fn ambient_bracket(&self, x: &[Expr], y: &[Expr]) -> Vec<Expr> {
        crate::hamilton::dirac::bracket_on_basis(self.system, x, y)
    }

    /// `ρ_a(f)` for a function of the base.
    fn anchor_apply(&self, a: usize, f: &Expr) -> Expr {
        self.system
            .keys(&self.system.coordinates)
            .iter()
            .zip(&self.anchors[a])
            .fold(Expr::zero(), |acc, (q, r)| acc + r.clone() * f.diff(q))
    }

    /// `K(X_a, X_b) = [X_a, X_b]_E − 𝒞^c_ab X_c` by components on `e_B`.
    pub fn curvature(&self, a: usize, b: usize) -> Vec<Expr> {
        let z = self.ambient_bracket(&self.sections[a], &self.sections[b]);
        z.iter()
            .enumerate()
            .map(|(e, z)| {
                self.sections
                    .iter()
                    .enumerate()
                    .fold(z.clone(), |acc, (c, x)| {
                        acc - self.structure[a][b][c].clone() * x[e].clone()
                    })
                    .simplify()
            })
            .collect()
    }

    /// `Jac_P(X_a, X_b, X_c)` on the frame of `D`, from the structure functions.
    pub fn section_jacobiator(&self, a: usize, b: usize, c: usize) -> Vec<Expr> {
        let k = self.sections.len();
        let s = self.structure;
        (0..k)
            .map(|e| {
                [(a, b, c), (b, c, a), (c, a, b)]
                    .iter()
                    .fold(Expr::zero(), |acc, &(a, b, c)| {
                        let nested = (0..k).fold(Expr::zero(), |acc, d| {
                            acc + s[a][b][d].clone() * s[d][c][e].clone()
                        });
                        acc + nested - self.anchor_apply(c, &s[a][b][e])
                    })
                    .simplify()
            })
            .collect()
    }
}

/// The report of `(D, ε_P)` (see the module documentation).
pub fn derive(projection: &Projection) -> Lie {
    let system = projection.system;
    let k = projection.sections.len();
    let mut curvature = Vec::new();
    let mut anchor_curvature = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let value = projection.curvature(a, b);
            let on_base: Vec<Expr> = (0..system.coordinates.len())
                .map(|i| {
                    value
                        .iter()
                        .enumerate()
                        .fold(Expr::zero(), |acc, (e, v)| {
                            acc + v.clone() * system.algebroid.anchors[e][i + 1].clone()
                        })
                        .simplify()
                })
                .collect();
            curvature.push((a, b, value));
            anchor_curvature.push((a, b, on_base));
        }
    }
    let mut jacobiator = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            for c in b + 1..k {
                jacobiator.push((a, b, c, projection.section_jacobiator(a, b, c)));
            }
        }
    }
    let all_vanish = |v: &[Expr]| v.iter().all(Expr::vanishes);
    let involutive = curvature.iter().all(|(_, _, v)| all_vanish(v));
    let lie = anchor_curvature.iter().all(|(_, _, v)| all_vanish(v))
        && jacobiator.iter().all(|(_, _, _, v)| all_vanish(v));
    Lie {
        curvature,
        anchor_curvature,
        jacobiator,
        involutive,
        lie,
    }
}
