//! [LJL21] §3–§7: contact (Herglotz) Lagrangian systems with linear nonholonomic constraints on
//! `TQ × ℝ`.
//!
//! A system with `action z` has a Lagrangian `L(q, q', z)` on `TQ × ℝ`, with coordinates
//! `X = (q^i, q'^i, z)` (`N = 2n + 1`). With `p_i = ∂L/∂q'^i`, `W = ∂²L/∂q'∂q'` (regular),
//! `E_L = q'^i p_i − L` and the contact form `η_L = dz − p_i dq^i`:
//!
//! - the Reeb field `R_L = ∂_z − W^{ij} ∂²L/∂q'^i∂z ∂_{q'^j}` (47);
//! - the Herglotz field (58)–(59) `Γ_L = q'^i ∂_{q^i} + b^i ∂_{q'^i} + L ∂_z` with
//!   `W b = F`, `F_i = ∂L/∂q^i + p_i ∂L/∂z − q'^k ∂²L/∂q^k∂q'^i − L ∂²L/∂z∂q'^i`;
//! - for the constraints `Φ^a = Φ^a_i(q) q'^i` (the `constraints nonholonomic` block, linear):
//!   `Z_a = −W^{ik} Φ^a_k ∂_{q'^i}` (74), `𝒞_ab = dΦ̄^b(Z_a) = −Φ^a W⁻¹ Φ^{bT}` (77), the
//!   projector `𝒫 = I − Z 𝒞⁻¹ dΦ̄` (79)–(80) — with the **inverse** of `𝒞`, which the paper's
//!   §8 replaces by `𝒞` itself (a printed error) — the multipliers `λ_a = 𝒞^{ab} dΦ̄^b(Γ_L)`
//!   and the constrained field `Γ_{L,Δ} = 𝒫 Γ_L = Γ_L − λ_a Z_a` (81): the constrained Herglotz
//!   equations (63) `d/dt ∂L/∂q' − ∂L/∂q − ∂L/∂q' ∂L/∂z = λ_a Φ^a`, `ż = L`;
//! - the dissipation law `Γ_{L,Δ}(E_L) = (∂L/∂z) E_L` on `Δ × ℝ` (the constraint forces do no
//!   work), derived and proved here on every system;
//! - the Jacobi structure of `η_L` in these coordinates (`Λ_L` in closed form, not printed in
//!   the paper), its projection `Λ_{L,Δ} = 𝒫 Λ_L 𝒫ᵀ`, `R_{L,Δ} = 𝒫 R_L` (95)–(96), and the
//!   nonholonomic bracket (100) on `Δ × ℝ`, with its table of coordinate functions (and the
//!   constant 1) and the Jacobiators of coordinate triples.
//!
//! # The Hamiltonian side on `T*Q × ℝ` (our derivation, not in the paper)
//!
//! For `L` quadratic in the velocities (`L = ½ q'ᵀW q' + a·q' + L₀`), the Legendre map
//! `p = W q' + a` is inverted and `H(q, p, z) = ½ (p − a)ᵀW⁻¹(p − a) − L₀` (the image of `E_L`).
//! With `η = dz − p dq`, the constraints become `Ψ^a = Φ^a_i(q) ∂H/∂p_i = 0`, and
//! `q̇ = ∂H/∂p`, `ṗ = −∂H/∂q − p ∂H/∂z + λ_a Φ^a`, `ż = p·∂H/∂p − H`, where
//! `λ = 𝒞̄⁻¹ dΨ(X_H)` with `𝒞̄_ab = dΨ^a(Z_b)`, `Z_b = −Φ^b_i ∂_{p_i}` — the same `λ` as (63).
//! On `Ψ = 0`, `Ḣ = −H ∂H/∂z`.
//!
//! **Sign of the multipliers.** The paper writes the constraint forces on the right,
//! `… = λ_a Φ^a` (63), and computes `λ_a = 𝒞^{ab} dΦ̄^b(Γ_L)` (81). dalembert writes them as on every
//! other route, `EL_i = F_i − λ_a Φ^a_i` with the Herglotz terms in `EL` (`docs/conventions.md`), so
//! the `λ_a` this module stores, prints and emits is the **negative** of the paper's:
//! `λ_a = −𝒞^{ab} dΦ̄^b(Γ_L)`, `Γ_{L,Δ} = Γ_L + λ_a Z_a`, and on the Hamiltonian side
//! `ṗ = −∂H/∂q − p ∂H/∂z − λ_a Φ^a`. The same physical constraint then has the same `λ` with and
//! without the action variable (the conventions test).
//!
//! **Sign of the bracket.** The paper's bracket (28) has `{q, p} = −1`; ours, like every bracket of
//! dalembert, has `{q, p} = +1`, so `{f, g} = −{f, g}_paper`
//! `= −Λ_{L,Δ}(df, dg) + f R_{L,Δ}(g) − g R_{L,Δ}(f)`, and the evolution law (101) reads
//! `ġ = {g, E_L} − g R_{L,Δ}(E_L)` (`docs/conventions.md` §8).

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use model::{ConstraintShape, System};

use crate::base::surface::Surface;

/// The contact derivation of a system with `action z`.
#[derive(Clone, Debug)]
pub struct Contact {
    /// `X = (q^i, q'^i, z)`, internal names.
    pub coordinates: Vec<String>,
    /// `p_i`.
    pub momenta: Vec<Expr>,
    /// `W`.
    pub hessian: Vec<Vec<Expr>>,
    /// `E_L`.
    pub energy: Expr,
    /// `∂L/∂z`.
    pub dissipation: Expr,
    /// `R_L` by components on `X`.
    pub reeb: Vec<Expr>,
    /// `Γ_L` by components on `X`.
    pub free_rates: Vec<Expr>,
    /// `𝒞_ab`.
    pub constraint_matrix: Vec<Vec<Expr>>,
    /// `det 𝒞`.
    pub constraint_det: Expr,
    /// `λ_a` off `Δ` (formula (81)); on `Δ` restrict with [`Contact::restrict`].
    pub multipliers: Vec<Expr>,
    /// `𝒫^μ_ν` as `projector[μ][ν]`.
    pub projector: Vec<Vec<Expr>>,
    /// `Γ_{L,Δ}` by components on `X`.
    pub rates: Vec<Expr>,
    /// `Γ_{L,Δ}(E_L)` on `Δ × ℝ`, as the dissipation law gives it: `(∂L/∂z) E_L`.
    pub energy_rate: Expr,
    /// `Γ_{L,Δ}(E_L) − (∂L/∂z) E_L` on `Δ × ℝ`: zero (the dissipation law).
    pub energy_law: Expr,
    /// `Λ_{L,Δ}^{μν}` (the paper's sign).
    pub jacobi: Vec<Vec<Expr>>,
    /// `R_{L,Δ}` by components on `X`.
    pub reeb_projected: Vec<Expr>,
    /// `{f, g}` on `Δ × ℝ` (our sign) for the functions `1, X_0, …` (index 0 is the constant 1,
    /// index `μ + 1` the coordinate `X_μ`), `i < j`.
    pub table: Vec<(usize, usize, Expr)>,
    /// `J(X_μ, X_ν, X_ρ)` on `Δ × ℝ` for `μ < ν < ρ` (coordinates only).
    pub jacobiators: Vec<(usize, usize, usize, Expr)>,
    /// Whether `Δ` is integrable (then the bracket is Jacobi, Thm 24).
    pub integrable: bool,
    /// The Hamiltonian side, when `L` is quadratic in the velocities.
    pub hamiltonian: Option<ContactHamiltonian>,
    surface: BTreeMap<String, Expr>,
}

/// The Hamiltonian side of a contact system on `T*Q × ℝ` (see the module documentation).
#[derive(Clone, Debug)]
pub struct ContactHamiltonian {
    /// `(q, p, z)`, internal names.
    pub coordinates: Vec<String>,
    /// The Legendre map: `p_i` as functions of `(q, q', z)`.
    pub legendre: Vec<Expr>,
    /// `H(q, p, z)`.
    pub hamiltonian: Expr,
    /// `Ψ^a(q, p, z)`.
    pub constraints: Vec<Expr>,
    /// `λ_a(q, p, z)`.
    pub multipliers: Vec<Expr>,
    /// The rate of each coordinate.
    pub rates: Vec<Expr>,
    /// The momenta eliminated on `Ψ = 0`, and their values.
    pub surface: BTreeMap<String, Expr>,
}

impl ContactHamiltonian {
    /// `f` on `Ψ = 0`, simplified.
    pub fn restrict(&self, f: &Expr) -> Expr {
        f.subs(&self.surface).simplify()
    }

    /// Expressions as results show them on `Ψ = 0`, or on the whole of `T*Q × ℝ` when solving
    /// `Ψ = 0` would add a denominator ([`crate::base::surface::for_display`]; the flag says
    /// which).
    pub fn on_display(&self, fs: &[Expr]) -> (Vec<Expr>, bool) {
        crate::base::surface::for_display(fs, &self.surface)
    }
}

/// The Hamiltonian side, when the Legendre map is inverted in closed form.
fn hamiltonian_side(system: &System, momenta: &[Expr]) -> Option<ContactHamiltonian> {
    let q = &system.keys(&system.coordinates);
    let v = &system.keys(&system.algebroid.velocities);
    let momenta_symbols = &system.algebroid.momenta;
    let names = &system.keys(momenta_symbols);
    let n = q.len();
    let z = &system.key(system.action?);
    let form = system.lagrangian.quadratic_form(v)?;
    let w: Vec<Vec<Expr>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let (a, b) = (i.min(j), i.max(j));
                    if i == j {
                        form.quadratic[a][b].clone() * Expr::int(2)
                    } else {
                        form.quadratic[a][b].clone()
                    }
                })
                .collect()
        })
        .collect();
    let winv = cas::inverse(&w).ok()?;
    let shifted: Vec<Expr> = (0..n)
        .map(|i| system.expr(momenta_symbols[i]) - form.linear[i].clone())
        .collect();
    let velocities: Vec<Expr> = (0..n)
        .map(|i| {
            (0..n)
                .fold(Expr::zero(), |acc, j| {
                    acc + winv[i][j].clone() * shifted[j].clone()
                })
                .simplify()
        })
        .collect();
    let kinetic = (0..n).fold(Expr::zero(), |acc, i| {
        acc + shifted[i].clone() * velocities[i].clone()
    });
    let hamiltonian = (kinetic * Expr::rational(1, 2) - form.constant.clone()).simplify();
    let p = |i: usize| system.expr(momenta_symbols[i]);
    let h_p: Vec<Expr> = (0..n)
        .map(|i| hamiltonian.diff(&names[i]).simplify())
        .collect();
    let h_z = hamiltonian.diff(z).simplify();
    let mut coordinates = q.clone();
    coordinates.extend(names.iter().cloned());
    coordinates.push(z.clone());
    let size = 2 * n + 1;
    let mut free = vec![Expr::zero(); size];
    for i in 0..n {
        free[i] = h_p[i].clone();
        free[n + i] = (-hamiltonian.diff(&q[i]) - p(i) * h_z.clone()).simplify();
    }
    free[2 * n] = ((0..n).fold(Expr::zero(), |acc, i| acc + p(i) * h_p[i].clone())
        - hamiltonian.clone())
    .simplify();
    let constraints: Vec<Expr> = system
        .constraints
        .iter()
        .map(|c| {
            c.mu.iter()
                .zip(&h_p)
                .fold(Expr::zero(), |acc, (m, h)| acc + m.clone() * h.clone())
                .simplify()
        })
        .collect();
    let apply = |f: &Expr, field: &[Expr]| -> Expr {
        coordinates
            .iter()
            .zip(field)
            .fold(Expr::zero(), |acc, (c, x)| acc + f.diff(c) * x.clone())
            .simplify()
    };
    let fields: Vec<Vec<Expr>> = system
        .constraints
        .iter()
        .map(|c| {
            let mut field = vec![Expr::zero(); size];
            for i in 0..n {
                field[n + i] = -c.mu[i].clone();
            }
            field
        })
        .collect();
    let k = constraints.len();
    let matrix: Vec<Vec<Expr>> = (0..k)
        .map(|a| (0..k).map(|b| apply(&constraints[a], &fields[b])).collect())
        .collect();
    let inverse = if k > 0 {
        cas::inverse(&matrix).ok()?
    } else {
        Vec::new()
    };
    // dalembert's λ is the negative of the paper's (see "Sign" above): Γ = X_H + λ_a Z_a.
    let multipliers: Vec<Expr> = (0..k)
        .map(|a| {
            (0..k)
                .fold(Expr::zero(), |acc, b| {
                    acc - inverse[a][b].clone() * apply(&constraints[b], &free)
                })
                .simplify()
        })
        .collect();
    let rates: Vec<Expr> = (0..size)
        .map(|mu| {
            (0..k)
                .fold(free[mu].clone(), |acc, a| {
                    acc + multipliers[a].clone() * fields[a][mu].clone()
                })
                .simplify()
        })
        .collect();
    // Ψ = 0 solved for momenta (it is linear in them): the pivots of its p-rows.
    let rows: Vec<Vec<Expr>> = constraints
        .iter()
        .map(|c| names.iter().map(|m| c.diff(m).simplify()).collect())
        .collect();
    let mut surface = BTreeMap::new();
    if let Some(pivots) = model::frame::pivot_columns(&rows).filter(|_| k > 0) {
        let zero: BTreeMap<String, Expr> = pivots
            .iter()
            .map(|&i| (names[i].clone(), Expr::zero()))
            .collect();
        let a: Vec<Vec<Expr>> = rows
            .iter()
            .map(|r| pivots.iter().map(|&i| r[i].clone()).collect())
            .collect();
        let b: Vec<Vec<Expr>> = constraints.iter().map(|c| vec![-c.subs(&zero)]).collect();
        if let Ok(x) = cas::solve(&a, &b) {
            for (&i, value) in pivots.iter().zip(x) {
                surface.insert(names[i].clone(), value[0].simplify());
            }
        }
    }
    Some(ContactHamiltonian {
        coordinates,
        legendre: momenta.to_vec(),
        hamiltonian,
        constraints,
        multipliers,
        rates,
        surface,
    })
}

/// What E0501 advises for this route, which has no implicit form.
const CONTACT_HELP: &str = "raise --max-terms (contact systems have no implicit form)";

fn unsupported(system: &System, what: &str, note: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error(
        Code::E0290,
        format!("{what}: not supported yet"),
        system.lagrangian_span,
        "not supported yet",
    )
    .with_note(note.to_string())]
}

/// Refuses what [LJL21] does not cover (E0290).
fn refuse_unsupported(system: &System) -> diagnostic::Result<()> {
    if !system.is_tangent() {
        return Err(unsupported(
            system,
            "a contact system on an algebroid other than the tangent bundle",
            "[LJL21] works on TQ × ℝ: declare `algebroid tangent` (the extension to algebroids is not proven)",
        ));
    }
    if system.forces.iter().any(|f| !f.is_zero()) {
        return Err(unsupported(
            system,
            "external forces on a contact system",
            "dissipation enters through ∂L/∂z ([LJL21]): write it into the Lagrangian",
        ));
    }
    if system.is_time_dependent() {
        return Err(unsupported(
            system,
            "a time-dependent contact system",
            "[LJL21] is autonomous",
        ));
    }
    if let Some(c) = system
        .constraints
        .iter()
        .find(|c| c.shape != ConstraintShape::Linear)
    {
        return Err(vec![Diagnostic::error(
            Code::E0290,
            "affine or nonlinear constraints on a contact system: not supported yet",
            c.span,
            "not linear in the velocities",
        )
        .with_note("[LJL21] takes linear constraints Φ^a_i(q) q'^i = 0")]);
    }
    if !system.vakonomic.is_empty() {
        return Err(unsupported(
            system,
            "vakonomic constraints on a contact system",
            "[LJL21] takes nonholonomic (d'Alembert-type) constraints",
        ));
    }
    Ok(())
}

/// Derives the contact objects of a system with `action z` (see the module documentation).
pub fn derive(system: &System, options: &crate::Options) -> diagnostic::Result<Contact> {
    refuse_unsupported(system)?;
    let z = system.key(
        system
            .action
            .expect("a contact system has an action variable"),
    );
    let q = &system.keys(&system.coordinates);
    let velocities = &system.algebroid.velocities;
    let v = &system.keys(velocities);
    let n = q.len();
    let size = 2 * n + 1;
    let mut coordinates: Vec<String> = q.clone();
    coordinates.extend(v.iter().cloned());
    coordinates.push(z.clone());
    let l: &Expr = &system.lagrangian;
    let momenta: Vec<Expr> = v.iter().map(|y| l.diff(y).simplify()).collect();
    let hessian: Vec<Vec<Expr>> = momenta
        .iter()
        .map(|p| v.iter().map(|y| p.diff(y).simplify()).collect())
        .collect();
    let det = cas::det(&hessian).simplify();
    if det.vanishes() {
        return Err(vec![Diagnostic::error(
            Code::E0301,
            "the contact Lagrangian is singular: det W = 0 identically",
            system.lagrangian_span,
            "W = ∂²L/∂q'∂q' is not invertible",
        )
        .with_note("[LJL21] needs a regular Lagrangian (42)")]);
    }
    let winv = cas::inverse(&hessian).map_err(|_| {
        vec![Diagnostic::error(
            Code::E0301,
            "the contact Lagrangian is singular: W could not be inverted",
            system.lagrangian_span,
            "W = ∂²L/∂q'∂q'",
        )]
    })?;
    let times = |m: &[Vec<Expr>], x: &[Expr]| -> Vec<Expr> {
        m.iter()
            .map(|row| {
                row.iter()
                    .zip(x)
                    .fold(Expr::zero(), |acc, (a, b)| acc + a.clone() * b.clone())
                    .simplify()
            })
            .collect()
    };
    let y = |i: usize| system.expr(velocities[i]);
    let energy = ((0..n).fold(Expr::zero(), |acc, i| acc + y(i) * momenta[i].clone()) - l.clone())
        .simplify();
    let dissipation = l.diff(&z).simplify();
    let mixed: Vec<Expr> = momenta.iter().map(|p| p.diff(&z).simplify()).collect();
    let winv_m = times(&winv, &mixed);
    let winv_p = times(&winv, &momenta);
    let mut reeb = vec![Expr::zero(); size];
    reeb[2 * n] = Expr::one();
    for j in 0..n {
        reeb[n + j] = (-winv_m[j].clone()).simplify();
    }
    let forcing: Vec<Expr> = (0..n)
        .map(|i| {
            let transport = (0..n).fold(Expr::zero(), |acc, k| acc + y(k) * momenta[i].diff(&q[k]));
            (l.diff(&q[i]) + momenta[i].clone() * dissipation.clone()
                - transport
                - l.clone() * mixed[i].clone())
            .simplify()
        })
        .collect();
    let accelerations = times(&winv, &forcing);
    let mut free_rates: Vec<Expr> = (0..n).map(y).collect();
    free_rates.extend(accelerations);
    free_rates.push(l.clone());
    // The constraints: dΦ̄^a is the gradient of Φ̄^a = Φ^a_i q'^i over X.
    let gradient =
        |f: &Expr| -> Vec<Expr> { coordinates.iter().map(|c| f.diff(c).simplify()).collect() };
    let d_phi: Vec<Vec<Expr>> = system
        .constraints
        .iter()
        .map(|c| gradient(&c.psi))
        .collect();
    let z_fields: Vec<Vec<Expr>> = system
        .constraints
        .iter()
        .map(|c| {
            let w_phi = times(&winv, &c.mu);
            let mut field = vec![Expr::zero(); size];
            for i in 0..n {
                field[n + i] = (-w_phi[i].clone()).simplify();
            }
            field
        })
        .collect();
    let apply = |row: &[Expr], field: &[Expr]| -> Expr {
        row.iter()
            .zip(field)
            .fold(Expr::zero(), |acc, (a, b)| acc + a.clone() * b.clone())
            .simplify()
    };
    let k = system.constraints.len();
    let constraint_matrix: Vec<Vec<Expr>> = (0..k)
        .map(|a| (0..k).map(|b| apply(&d_phi[b], &z_fields[a])).collect())
        .collect();
    let constraint_det = cas::det(&constraint_matrix).simplify();
    if k > 0 && constraint_det.vanishes() {
        return Err(vec![Diagnostic::error(
            Code::E0302,
            "the constrained contact system is not regular: det 𝒞 = 0 identically",
            system.lagrangian_span,
            "𝒞_ab = −Φ^a W⁻¹ Φ^bᵀ is singular ([LJL21] Prop. 10)",
        )
        .with_note(format!(
            "det 𝒞 = {}",
            cas::print::spec(&constraint_det, &system)
        ))]);
    }
    let c_inverse = if k > 0 {
        cas::inverse(&constraint_matrix).map_err(|_| {
            vec![Diagnostic::error(
                Code::E0302,
                "the constrained contact system is not regular: 𝒞 could not be inverted",
                system.lagrangian_span,
                "𝒞_ab = −Φ^a W⁻¹ Φ^bᵀ",
            )]
        })?
    } else {
        Vec::new()
    };
    let projector: Vec<Vec<Expr>> = (0..size)
        .map(|mu| {
            (0..size)
                .map(|nu| {
                    let mut entry = if mu == nu { Expr::one() } else { Expr::zero() };
                    for a in 0..k {
                        for b in 0..k {
                            entry = entry
                                - z_fields[a][mu].clone()
                                    * c_inverse[a][b].clone()
                                    * d_phi[b][nu].clone();
                        }
                    }
                    entry.simplify()
                })
                .collect()
        })
        .collect();
    // λ_a in dalembert's sign, the negative of the paper's (81) (see "Sign" above).
    let multipliers: Vec<Expr> = (0..k)
        .map(|a| {
            (0..k)
                .fold(Expr::zero(), |acc, b| {
                    acc - c_inverse[a][b].clone() * apply(&d_phi[b], &free_rates)
                })
                .simplify()
        })
        .collect();
    let rates = times(&projector, &free_rates);
    options.within_or(
        "the constrained Herglotz equations",
        system.lagrangian_span,
        crate::base::budget::vector_entries("Γ_{L,Δ}", &rates).chain(
            crate::base::budget::matrix_entries("the projector 𝒫", &projector),
        ),
        CONTACT_HELP,
    )?;
    let elimination = Surface::new(system);
    let surface = elimination.map().clone();
    let restrict = |e: &Expr| e.subs(&surface).simplify();
    let energy_rate = apply(&gradient(&energy), &rates);
    let energy_law = restrict(&(energy_rate.clone() - dissipation.clone() * energy.clone()));
    // By the dissipation law (`energy_law` is its residual, zero on every system).
    let energy_rate = elimination.restrict_shown(&(dissipation.clone() * energy.clone()));
    // Λ_L in (q, q', z) (closed form), then Λ_{L,Δ} = 𝒫 Λ_L 𝒫ᵀ.
    let mut lambda = vec![vec![Expr::zero(); size]; size];
    let mut set = |i: usize, j: usize, value: Expr| {
        lambda[j][i] = (-value.clone()).simplify();
        lambda[i][j] = value.simplify();
    };
    let antisym: Vec<Vec<Expr>> = (0..n)
        .map(|j| {
            (0..n)
                .map(|kk| (momenta[j].diff(&q[kk]) - momenta[kk].diff(&q[j])).simplify())
                .collect()
        })
        .collect();
    for (i, row) in winv.iter().enumerate() {
        for (j, w) in row.iter().enumerate() {
            set(i, n + j, -w.clone());
        }
        set(n + i, 2 * n, winv_p[i].clone());
        for j in i + 1..n {
            let mut value =
                winv_m[i].clone() * winv_p[j].clone() - winv_p[i].clone() * winv_m[j].clone();
            for a in 0..n {
                for b in 0..n {
                    value = value + winv[i][a].clone() * antisym[a][b].clone() * winv[b][j].clone();
                }
            }
            set(n + i, n + j, value);
        }
    }
    let jacobi: Vec<Vec<Expr>> = (0..size)
        .map(|mu| {
            (0..size)
                .map(|nu| {
                    let mut entry = Expr::zero();
                    for a in 0..size {
                        if projector[mu][a].is_zero() {
                            continue;
                        }
                        for b in 0..size {
                            if lambda[a][b].is_zero() || projector[nu][b].is_zero() {
                                continue;
                            }
                            entry = entry
                                + projector[mu][a].clone()
                                    * lambda[a][b].clone()
                                    * projector[nu][b].clone();
                        }
                    }
                    entry.simplify()
                })
                .collect()
        })
        .collect();
    let reeb_projected = times(&projector, &reeb);
    let mut out = Contact {
        coordinates,
        momenta,
        hessian,
        energy,
        dissipation,
        reeb,
        free_rates,
        constraint_matrix,
        constraint_det,
        multipliers,
        projector,
        rates,
        energy_rate,
        energy_law,
        jacobi,
        reeb_projected,
        table: Vec::new(),
        jacobiators: Vec::new(),
        integrable: integrable(system),
        hamiltonian: None,
        surface,
    };
    out.hamiltonian = hamiltonian_side(system, &out.momenta);
    let functions: Vec<Expr> = std::iter::once(Expr::one())
        .chain(out.coordinates.iter().map(|c| Expr::symbol(c)))
        .collect();
    // The table and the Jacobiators are the costly part (one bracket of brackets per triple):
    // each entry is measured against the size and time budgets.
    let within = |stage: &str, value: &Expr| {
        options.within_or(
            stage,
            system.lagrangian_span,
            [(format!("an entry of {stage}"), value)],
            CONTACT_HELP,
        )
    };
    for i in 0..functions.len() {
        for j in i + 1..functions.len() {
            let value = crate::base::surface::one_for_display(
                &out.bracket(&functions[i], &functions[j]),
                &out.surface,
            );
            within("the almost-Jacobi bracket table", &value)?;
            out.table.push((i, j, value));
        }
    }
    for a in 0..size {
        for b in a + 1..size {
            for c in b + 1..size {
                let value = out.jacobiator(&functions[a + 1], &functions[b + 1], &functions[c + 1]);
                within("the Jacobiators of the almost-Jacobi bracket", &value)?;
                out.jacobiators.push((a, b, c, value));
            }
        }
    }
    Ok(out)
}

/// Whether the distribution `Φ^a_i q'^i = 0` is involutive (Frobenius on a basis of it).
fn integrable(system: &System) -> bool {
    let q = &system.keys(&system.coordinates);
    let rows: Vec<Vec<Expr>> = system.constraints.iter().map(|c| c.mu.clone()).collect();
    if rows.is_empty() {
        return true;
    }
    let Some(pivots) = model::frame::pivot_columns(&rows) else {
        return false;
    };
    let n = q.len();
    let block: Vec<Vec<Expr>> = rows
        .iter()
        .map(|r| pivots.iter().map(|&p| r[p].clone()).collect())
        .collect();
    let Ok(inverse) = cas::inverse(&block) else {
        return false;
    };
    // One field per free column: 1 there, the pivots solved.
    let fields: Vec<Vec<Expr>> = (0..n)
        .filter(|f| !pivots.contains(f))
        .map(|f| {
            let mut field = vec![Expr::zero(); n];
            field[f] = Expr::one();
            for (i, &p) in pivots.iter().enumerate() {
                let value = (0..rows.len()).fold(Expr::zero(), |acc, r| {
                    acc - inverse[i][r].clone() * rows[r][f].clone()
                });
                field[p] = value.simplify();
            }
            field
        })
        .collect();
    let apply = |x: &[Expr], f: &Expr| -> Expr {
        x.iter().zip(q).fold(Expr::zero(), |acc, (c, name)| {
            acc + c.clone() * f.diff(name)
        })
    };
    for a in 0..fields.len() {
        for b in a + 1..fields.len() {
            let bracket: Vec<Expr> = (0..n)
                .map(|i| apply(&fields[a], &fields[b][i]) - apply(&fields[b], &fields[a][i]))
                .collect();
            for row in &rows {
                let value = row
                    .iter()
                    .zip(&bracket)
                    .fold(Expr::zero(), |acc, (m, x)| acc + m.clone() * x.clone());
                if !value.vanishes() {
                    return false;
                }
            }
        }
    }
    true
}

impl Contact {
    /// `f` on `Δ × ℝ` (the surface's velocities substituted), simplified.
    pub fn restrict(&self, f: &Expr) -> Expr {
        f.subs(&self.surface).simplify()
    }

    /// Expressions as results show them on `Δ × ℝ`, or on the whole state when the elimination
    /// would add a denominator ([`crate::base::surface::for_display`]; the flag says which).
    pub fn on_display(&self, fs: &[Expr]) -> (Vec<Expr>, bool) {
        crate::base::surface::for_display(fs, &self.surface)
    }

    /// `R_{L,Δ}(f)`.
    fn reeb_apply(&self, f: &Expr) -> Expr {
        self.coordinates
            .iter()
            .zip(&self.reeb_projected)
            .filter(|(_, r)| !r.is_zero())
            .fold(Expr::zero(), |acc, (c, r)| acc + r.clone() * f.diff(c))
    }

    /// The nonholonomic bracket (100) in our sign: `−Λ_{L,Δ}(df, dg) + f R_{L,Δ}(g) −
    /// g R_{L,Δ}(f)`, of the extensions (restrict the result to `Δ × ℝ`).
    pub fn bracket(&self, f: &Expr, g: &Expr) -> Expr {
        let df: Vec<Expr> = self.coordinates.iter().map(|c| f.diff(c)).collect();
        let dg: Vec<Expr> = self.coordinates.iter().map(|c| g.diff(c)).collect();
        let mut total = Expr::zero();
        for (mu, a) in df.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (nu, b) in dg.iter().enumerate() {
                if b.is_zero() || self.jacobi[mu][nu].is_zero() {
                    continue;
                }
                total = total - a.clone() * self.jacobi[mu][nu].clone() * b.clone();
            }
        }
        (total + f.clone() * self.reeb_apply(g) - g.clone() * self.reeb_apply(f)).simplify()
    }

    /// `J(f, g, h) = Σ_cyc {f, {g, h}}` on `Δ × ℝ`, as results show it ([`Contact::on_display`]).
    pub fn jacobiator(&self, f: &Expr, g: &Expr, h: &Expr) -> Expr {
        let total = [(f, g, h), (g, h, f), (h, f, g)]
            .iter()
            .fold(Expr::zero(), |acc, (a, b, c)| {
                acc + self.bracket(a, &self.bracket(b, c))
            });
        crate::base::surface::one_for_display(&total, &self.surface)
    }

    /// `Γ_{L,Δ}(f)`.
    pub fn evolve(&self, f: &Expr) -> Expr {
        self.coordinates
            .iter()
            .zip(&self.rates)
            .fold(Expr::zero(), |acc, (c, r)| acc + r.clone() * f.diff(c))
    }

    /// `R_{L,Δ}(f)`, public for the evolution law (101).
    pub fn projected_reeb(&self, f: &Expr) -> Expr {
        self.reeb_apply(f)
    }
}
