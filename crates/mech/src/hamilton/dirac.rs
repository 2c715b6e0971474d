//! [GBMS24] §3 (Ex. 3.1): the Dirac algebroid of linear constraints, and the phase equations it
//! gives for a Hamiltonian.
//!
//! # The frame
//!
//! Everything is written in a frame `f_A = T_A^B e_B` adapted to the constraint distribution
//! `C ⊂ E` ([`model::frame`]): the sections `f_a` along `C`, the others `f_α` completing them.
//! Its momenta are `η_A = T_A^B p_B`, its anchor `ρ(f_A) = T_A^B ρ(e_B)`, and its structure
//! functions `[f_A, f_B] = K^D_AB f_D` are computed from the algebroid's:
//! `[f_A, f_B] = T_A^C T_B^D C^E_CD e_E + T_A^C ρ_C(T_B^E) e_E − T_B^D ρ_D(T_A^E) e_E`,
//! expanded back in the frame with `e_E = (T⁻¹)_E^F f_F`. The paper writes `[f_d, f_b] = c^A_bd f_A`
//! (note the order of the lower indices), so `c^A_bd = −K^A_bd`; in this module every formula
//! is in our `K`.
//!
//! # The Dirac structure (Ex. 3.1)
//!
//! `𝒟_C` is the relation, built from `(ρ, K, C)` alone — no metric, no Hamiltonian:
//! `x^α = 0`, `q̇^i = ρ^i(f_b) x^b`, `η̇_b = −K^A_bd η_A x^d − ρ^l(f_b) a_l`, `η̇_α` free,
//! with parameters `(a_l, x^b)` (the `dq`- and `dη`-components of a covector on `E*`).
//! [`Structure`] holds it; it is the same for every Hamiltonian with the same constraints.
//!
//! # The phase equations for `H` (27)–(29)
//!
//! With `H̃(q, η) = H(q, p = T⁻¹η)` and `(a, x) = (∂H̃/∂q, ∂H̃/∂η)` (derivatives at fixed `η`,
//! as (29) takes them):
//! `∂H̃/∂η_α = 0` (27), `q̇^i = ρ^i(f_b) ∂H̃/∂η_b` (28),
//! `η̇_b = −K^A_bd η_A ∂H̃/∂η_d − ρ^l(f_b) ∂H̃/∂q^l + F_b` (29), with the external forces
//! `F_b = T_b^B F_B` added as in the canonical Lagrange–d'Alembert equations
//! `ṗ = −∂H/∂q + F + λ_α φ^α` (an extension: the paper has no forces).
//! (27) is solved for the dependent momenta, `η_α = ψ_α(q, η_a)` (the effective phase space `S`;
//! `ψ = 0` for a mechanical `H` in an orthogonal frame, `ψ_α = A_α` for a magnetic one), and
//! (28)–(29) restricted to `S` are the reduced explicit equations on `(q, η_a)`.
//! Tangency to `S` gives `η̇_α = dψ_α/dt`, and the part of it the structure leaves
//! free is the multiplier of the canonical form, `λ_α = η̇_α + K^A_αd η_A ∂H̃/∂η_d
//! + ρ^l(f_α) ∂H̃/∂q^l − F_α` (it multiplies the coframe `φ^α` of the completion).
//!
//! # The almost-Poisson bracket on `S` (Λ_C, Λ_A; Ex. 2.2, 2.4)
//!
//! On the coordinates `(q^i, η_a)` of `S`: `{q^i, q^j} = 0`, `{q^i, η_b} = ρ^i(f_b)`,
//! `{η_b, η_d} = −K^A_bd η_A |_{η_α = ψ_α}` — the bracket `Λ_C` of Ex. 2.2 when `ψ = 0` and the
//! affine `Λ_A` of Ex. 2.4 when `ψ = A^⊥`, with the sign of the printed `ηη` part corrected (the
//! table is generated from brackets, never from the printed bivectors). With `H_C = H̃|_S` it
//! generates the reduced equations, `ḟ = {f, H_C} + F_b ∂f/∂η_b` — the same as (28)–(29), because
//! `∂H̃/∂η_α = 0` on `S`. It depends on `H` through `ψ`; `𝒟_C` does not.

use std::collections::BTreeMap;

use cas::Expr;
use model::System;

use crate::hamilton::hamiltonian::Hamiltonian;

/// Why the Dirac side could not be derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The constraints are affine or nonlinear: they define no distribution ([GBMS24] treats
    /// linear constraints only, §4).
    NotLinear,
    /// The constraints are linear, but solving them for an adapted frame went past its budget
    /// (`model::frame::FRAME_EXPANSION`).
    FrameOverBudget,
    /// The algebroid has a reference section other than `∂_t` (a Lie affgebroid proper).
    Affgebroid,
    /// There is no Hamiltonian side (the reason).
    NoHamiltonian(String),
    /// `∂²H̃/∂η_α∂η_β` is singular: (27) does not fix the dependent momenta. The determinant.
    Degenerate(String),
    /// There are no constraints: `𝒟_C` is the graph of the linear Poisson structure and its
    /// phase equations are Hamilton's equations of the Hamiltonian side.
    Unconstrained,
    /// `H̃` and the dependent momenta `ψ` in the frame have more nodes than [`MAX_PHASE_SIZE`]:
    /// the equations and brackets built from them would swell (declare a simpler `frame`). The
    /// count itself is not reported: it depends on what the process derived before (the CAS's
    /// forms follow the order its symbols were made in), and outputs must not.
    Large,
}

/// The largest `H̃` plus `ψ` (total nodes) for which the Dirac side is derived. The snakeboard in
/// its paper's frame: 110 nodes; in the frame computed from its constraints (rational in the sines
/// of sums of angles): 2967, for which the phase equations took minutes.
pub const MAX_PHASE_SIZE: usize = 1000;

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::NotLinear => f.write_str(
                "the constraints are not all linear, so they define no distribution C ([GBMS24] treats linear constraints)",
            ),
            Unavailable::FrameOverBudget => write!(
                f,
                "solving the constraints for an adapted frame formed more than {} terms, the budget of a computed frame; a `frame` item gives one",
                model::frame::FRAME_EXPANSION
            ),
            Unavailable::Affgebroid => f.write_str(
                "the algebroid has a reference section e0 other than d/dt: the Dirac algebroid of [GBMS24] is for Lie algebroids",
            ),
            Unavailable::NoHamiltonian(why) => write!(f, "no Hamiltonian side: {why}"),
            Unavailable::Unconstrained => f.write_str(
                "there are no constraints: the Dirac structure is the linear Poisson structure, and its equations are Hamilton's equations (see the Hamiltonian side)",
            ),
            Unavailable::Large => write!(
                f,
                "the Hamiltonian and the dependent momenta in the adapted frame have more than {MAX_PHASE_SIZE} nodes: declare a simpler `frame`"
            ),
            Unavailable::Degenerate(det) => write!(
                f,
                "the equations ∂H/∂η_α = 0 (27) do not fix the dependent momenta: det ∂²H/∂η_α∂η_β = {det}"
            ),
        }
    }
}

/// The Dirac structure `𝒟_C` in the adapted frame: the part that does not depend on `H`.
#[derive(Clone, Debug, PartialEq)]
pub struct Structure {
    /// The frame momenta `η_A`.
    pub momenta: Vec<String>,
    /// `T[A][B]`: `f_A = T_A^B e_B`.
    pub frame: Vec<Vec<Expr>>,
    /// `T⁻¹`.
    pub inverse: Vec<Vec<Expr>>,
    /// The indices `a` of the sections along `C`.
    pub along: Vec<usize>,
    /// The indices `α` of the completion.
    pub complement: Vec<usize>,
    /// `ρ^i(f_A)` as `anchors[A][i]` over the coordinates (time excluded).
    pub anchors: Vec<Vec<Expr>>,
    /// `K^D_AB` as `structure[A][B][D]`: `[f_A, f_B] = K^D_AB f_D`.
    pub structure: Vec<Vec<Vec<Expr>>>,
    /// Whether `C` is integrable (`K^α_ab = 0` for all `a, b` along `C`; §2.1).
    pub integrable: bool,
    /// `𝒟_C` as the canonical brackets of the frame coordinates ([`Structure::brackets`]),
    /// `(f, g, {f, g})`.
    pub table: Vec<(String, String, Expr)>,
}

/// The Dirac side of a derivation: `𝒟_C` and the phase equations of the system's `H`.
#[derive(Clone, Debug)]
pub struct Dirac {
    /// `𝒟_C`.
    pub structure: Structure,
    /// `H̃(q, η)`.
    pub hamiltonian: Expr,
    /// The forces in the frame, `F_A = T_A^B F_B`, as functions of `(q, η)`.
    pub forces: Vec<Expr>,
    /// (27): `∂H̃/∂η_α`, one per completing section.
    pub conditions: Vec<Expr>,
    /// The effective phase space: `η_α = ψ_α(q, η_a)`.
    pub dependent: BTreeMap<String, Expr>,
    /// `H_C(q, η_a) = H̃|_S`.
    pub restricted: Expr,
    /// The coordinates of `S`: the base coordinates, then the `η_a`.
    pub coordinates: Vec<String>,
    /// (28)–(29) on `S`: the rate of each coordinate of `S`.
    pub rates: Vec<Expr>,
    /// `η̇_α = dψ_α/dt`, one per completing section.
    pub tangency: Vec<Expr>,
    /// `λ_α`, the multipliers of the canonical form, one per completing section.
    pub multipliers: Vec<Expr>,
    /// `{c_i, c_j}` for `i < j` over `coordinates` (Λ_C / Λ_A).
    pub table: Vec<(usize, usize, Expr)>,
    /// `J(c_i, c_j, c_k)` for `i < j < k` over `coordinates`.
    pub jacobiators: Vec<(usize, usize, usize, Expr)>,
}

/// The advice of a Dirac side past a budget.
const DIRAC_HELP: &str = "raise --max-terms or --timeout, or declare a simpler `frame` (the Dirac side is built from it)";

/// Derives the Dirac side (see the module documentation), or says why it is unavailable; every
/// expression it builds is measured against the size and time budgets as soon as it is built
/// (E0501/E0503 between two entries: one phase equation or multiplier of a system with a
/// radical and 30-digit numbers can take seconds, and the tables are a bracket of brackets per
/// triple).
///
/// `structure` is [`structure`]`(system)`, computed once by the caller.
pub fn derive(
    system: &System,
    structure: &Result<Structure, Unavailable>,
    hamiltonian: &Hamiltonian,
    options: &crate::Options,
) -> diagnostic::Result<Result<Dirac, Unavailable>> {
    let structure = match structure {
        Ok(structure) => structure.clone(),
        Err(why) => return Ok(Err(why.clone())),
    };
    if system.constraints.is_empty() {
        return Ok(Err(Unavailable::Unconstrained));
    }
    let guard = |object: &str, e: Expr| -> diagnostic::Result<Expr> {
        options.within_or(
            "the Dirac side",
            system.lagrangian_span,
            [(format!("an entry of {object}"), &e)],
            DIRAC_HELP,
        )?;
        Ok(e)
    };
    let n = system.rank();
    let p_of_eta: BTreeMap<String, Expr> = (0..n)
        .map(|b| {
            let value = (0..n).fold(Expr::zero(), |acc, a| {
                acc + structure.inverse[b][a].clone() * Expr::symbol(&structure.momenta[a])
            });
            (hamiltonian.momenta[b].clone(), value)
        })
        .collect();
    let h = guard("H̃", hamiltonian.hamiltonian.subs(&p_of_eta).simplify())?;
    let forces: Vec<Expr> = (0..n)
        .map(|a| {
            let force = (0..n)
                .fold(Expr::zero(), |acc, b| {
                    acc + structure.frame[a][b].clone() * hamiltonian.forces[b].clone()
                })
                .subs(&p_of_eta)
                .simplify();
            guard("the forces in the frame", force)
        })
        .collect::<diagnostic::Result<_>>()?;
    let conditions: Vec<Expr> = structure
        .complement
        .iter()
        .map(|&al| h.diff(&structure.momenta[al]).simplify())
        .collect();
    let dependent = match solve_conditions(&structure, &conditions) {
        Ok(dependent) => dependent,
        Err(why) => return Ok(Err(why)),
    };
    let size = h.size() + dependent.values().map(Expr::size).sum::<usize>();
    if size > MAX_PHASE_SIZE {
        return Ok(Err(Unavailable::Large));
    }
    let on_s = |object: &str, e: &Expr| guard(object, e.subs(&dependent).simplify());
    let restricted = on_s("H_C", &h)?;
    let eta = |a: usize| Expr::symbol(&structure.momenta[a]);
    let dh_deta: Vec<Expr> = (0..n).map(|a| h.diff(&structure.momenta[a])).collect();
    let dh_dq: Vec<Expr> = system
        .keys(&system.coordinates)
        .iter()
        .map(|q| h.diff(q))
        .collect();
    // The unreduced right-hand side of η̇_B for the x^d = ∂H̃/∂η_d along C (29).
    let eta_rate = |b: usize| -> Expr {
        let mut total = forces[b].clone();
        for &d in &structure.along {
            let k = (0..n).fold(Expr::zero(), |acc, a| {
                acc + structure.structure[b][d][a].clone() * eta(a)
            });
            total = total - k * dh_deta[d].clone();
        }
        structure.anchors[b]
            .iter()
            .zip(&dh_dq)
            .fold(total, |acc, (rho, hq)| acc - rho.clone() * hq.clone())
    };
    let q_rates: Vec<Expr> = (0..system.coordinates.len())
        .map(|i| {
            let rate = structure.along.iter().fold(Expr::zero(), |acc, &b| {
                acc + structure.anchors[b][i].clone() * dh_deta[b].clone()
            });
            on_s("the Dirac phase equations", &rate)
        })
        .collect::<diagnostic::Result<_>>()?;
    let eta_rates: Vec<Expr> = structure
        .along
        .iter()
        .map(|&b| on_s("the Dirac phase equations", &eta_rate(b)))
        .collect::<diagnostic::Result<_>>()?;
    let mut coordinates = system.keys(&system.coordinates);
    coordinates.extend(
        structure
            .along
            .iter()
            .map(|&a| structure.momenta[a].clone()),
    );
    let rates: Vec<Expr> = q_rates.iter().chain(&eta_rates).cloned().collect();
    let tangency: Vec<Expr> = structure
        .complement
        .iter()
        .map(|&al| {
            let psi = &dependent[&structure.momenta[al]];
            let rate = system
                .along(&system.handles(&coordinates), &rates, psi)
                .simplify();
            guard("the tangency to S", rate)
        })
        .collect::<diagnostic::Result<_>>()?;
    let multipliers: Vec<Expr> = structure
        .complement
        .iter()
        .zip(&tangency)
        .map(|(&al, t)| on_s("the Dirac multipliers", &(t.clone() - eta_rate(al))))
        .collect::<diagnostic::Result<_>>()?;
    let mut out = Dirac {
        structure,
        hamiltonian: h,
        forces,
        conditions,
        dependent,
        restricted,
        coordinates,
        rates,
        tangency,
        multipliers,
        table: Vec::new(),
        jacobiators: Vec::new(),
    };
    let (table, jacobiators) = out.tables(system, &guard)?;
    out.table = table;
    out.jacobiators = jacobiators;
    Ok(Ok(out))
}

/// `𝒟_C` of the system's frame.
pub fn structure(system: &System) -> Result<Structure, Unavailable> {
    let alg = &system.algebroid;
    let reference_is_time = alg.anchor0.iter().enumerate().all(|(i, r)| {
        if i == 0 {
            r.clone().simplify() == Expr::one()
        } else {
            r.is_zero()
        }
    });
    let lie = reference_is_time
        && alg.c0.iter().flatten().all(Expr::is_zero)
        && alg.anchors.iter().all(|row| row[0].is_zero());
    if !lie {
        return Err(Unavailable::Affgebroid);
    }
    let frame = match system.frame.as_ref() {
        Some(frame) => frame,
        None if model::frame::linear_constraints(system) => {
            return Err(Unavailable::FrameOverBudget)
        }
        None => return Err(Unavailable::NotLinear),
    };
    let n = system.rank();
    let t = &frame.matrix;
    let inverse = cas::inverse(t).map_err(|_| Unavailable::NotLinear)?;
    let inverse: Vec<Vec<Expr>> = inverse
        .iter()
        .map(|row| row.iter().map(Expr::simplify).collect())
        .collect();
    let coords = system.coordinates.len();
    let anchors: Vec<Vec<Expr>> = (0..n)
        .map(|a| {
            (0..coords)
                .map(|i| {
                    (0..n)
                        .fold(Expr::zero(), |acc, b| {
                            acc + t[a][b].clone() * alg.anchors[b][i + 1].clone()
                        })
                        .simplify()
                })
                .collect()
        })
        .collect();
    let mut structure = vec![vec![vec![Expr::zero(); n]; n]; n];
    for a in 0..n {
        for b in a + 1..n {
            let on_e = bracket_on_basis(system, &t[a], &t[b]);
            for f in 0..n {
                let value = (0..n)
                    .fold(Expr::zero(), |acc, e| {
                        acc + on_e[e].clone() * inverse[e][f].clone()
                    })
                    .simplify();
                structure[b][a][f] = (-value.clone()).simplify();
                structure[a][b][f] = value;
            }
        }
    }
    let along = frame.along.clone();
    let complement: Vec<usize> = (0..n).filter(|a| !along.contains(a)).collect();
    let integrable = along.iter().all(|&a| {
        along
            .iter()
            .all(|&b| complement.iter().all(|&g| structure[a][b][g].vanishes()))
    });
    let mut out = Structure {
        momenta: system.keys(&frame.momenta),
        frame: t.clone(),
        inverse,
        along,
        complement,
        anchors,
        structure,
        integrable,
        table: Vec::new(),
    };
    out.table = out.brackets(system);
    Ok(out)
}

impl Structure {
    /// `𝒟_C` as the canonical brackets of the frame coordinates on `E*`, which it is built from
    /// (Ex. 3.1): `{q^i, η_A} = ρ^i(f_A)` for every coordinate and momentum, then
    /// `{η_A, η_B} = −K^D_AB η_D` for `A < B`. The same for every Hamiltonian.
    pub fn brackets(&self, system: &System) -> Vec<(String, String, Expr)> {
        let mut out = Vec::new();
        for (i, q) in system.keys(&system.coordinates).iter().enumerate() {
            for (a, eta) in self.momenta.iter().enumerate() {
                out.push((q.clone(), eta.clone(), self.anchors[a][i].clone()));
            }
        }
        let n = self.momenta.len();
        for a in 0..n {
            for b in a + 1..n {
                let value = (0..n).fold(Expr::zero(), |acc, d| {
                    acc - self.structure[a][b][d].clone() * Expr::symbol(&self.momenta[d])
                });
                out.push((
                    self.momenta[a].clone(),
                    self.momenta[b].clone(),
                    value.simplify(),
                ));
            }
        }
        out
    }
}

/// The components on `e_E` of `[X, Y]` for the sections `X = x^C e_C`, `Y = y^D e_D`:
/// `x^C y^D C^E_CD + ρ_X(y^E) − ρ_Y(x^E)` (the change of frame that follows from the Leibniz rule
/// of [GLMM09] Theorem 2.1, `σ = ρ`).
pub(crate) fn bracket_on_basis(system: &System, x: &[Expr], y: &[Expr]) -> Vec<Expr> {
    let alg = &system.algebroid;
    let n = x.len();
    // ρ_C(f) for a function f of the base.
    let rho = |c: usize, f: &Expr| crate::base::algebra::anchor_apply(system, c + 1, f);
    (0..n)
        .map(|e| {
            let mut total = Expr::zero();
            for c in 0..n {
                for (d, yd) in y.iter().enumerate() {
                    total = total + x[c].clone() * yd.clone() * alg.c[c][d][e].clone();
                }
                total = total + x[c].clone() * rho(c, &y[e]) - y[c].clone() * rho(c, &x[e]);
            }
            total
        })
        .collect()
}

/// (27) solved for the dependent momenta: `∂H̃/∂η_α` is affine in them for a quadratic `H`.
fn solve_conditions(
    structure: &Structure,
    conditions: &[Expr],
) -> Result<BTreeMap<String, Expr>, Unavailable> {
    if conditions.is_empty() {
        return Ok(BTreeMap::new());
    }
    let names: Vec<&String> = structure
        .complement
        .iter()
        .map(|&al| &structure.momenta[al])
        .collect();
    let matrix: Vec<Vec<Expr>> = conditions
        .iter()
        .map(|g| names.iter().map(|s| g.diff(s).simplify()).collect())
        .collect();
    let det = cas::det(&matrix).simplify();
    if det.vanishes() {
        return Err(Unavailable::Degenerate(det.to_string()));
    }
    let zero: BTreeMap<String, Expr> = names.iter().map(|s| ((*s).clone(), Expr::zero())).collect();
    let rhs: Vec<Vec<Expr>> = conditions.iter().map(|g| vec![-g.subs(&zero)]).collect();
    let solution =
        cas::solve(&matrix, &rhs).map_err(|_| Unavailable::Degenerate(det.to_string()))?;
    Ok(names
        .into_iter()
        .zip(solution)
        .map(|(s, v)| (s.clone(), v[0].simplify()))
        .collect())
}

impl Dirac {
    /// `{f, g}` on `S` (Λ_C / Λ_A), for functions of the coordinates of `S`.
    pub fn bracket(&self, system: &System, f: &Expr, g: &Expr) -> Expr {
        let s = &self.structure;
        let mut total = Expr::zero();
        for &b in &s.along {
            let eta_b = &s.momenta[b];
            let (fb, gb) = (f.diff(eta_b), g.diff(eta_b));
            for (i, q) in system.keys(&system.coordinates).iter().enumerate() {
                let rho = &s.anchors[b][i];
                if rho.is_zero() {
                    continue;
                }
                total = total + rho.clone() * (f.diff(q) * gb.clone() - fb.clone() * g.diff(q));
            }
            if fb.is_zero() {
                continue;
            }
            for &d in &s.along {
                let gd = g.diff(&s.momenta[d]);
                if gd.is_zero() {
                    continue;
                }
                total = total + self.momentum_bracket(b, d) * fb.clone() * gd;
            }
        }
        total.subs(&self.dependent).simplify()
    }

    /// `{η_b, η_d} = −K^A_bd η_A` on `S`.
    pub fn momentum_bracket(&self, b: usize, d: usize) -> Expr {
        let s = &self.structure;
        let value = (0..s.momenta.len()).fold(Expr::zero(), |acc, a| {
            acc - s.structure[b][d][a].clone() * Expr::symbol(&s.momenta[a])
        });
        value.subs(&self.dependent)
    }

    /// `ḟ = {f, H_C} + F_b ∂f/∂η_b` on `S`, for a function of its coordinates.
    pub fn dynamics(&self, system: &System, f: &Expr) -> Expr {
        let s = &self.structure;
        let forced = s.along.iter().fold(Expr::zero(), |acc, &b| {
            acc + self.forces[b].clone() * f.diff(&s.momenta[b])
        });
        (self.bracket(system, f, &self.restricted) + forced.subs(&self.dependent)).simplify()
    }

    /// `J(f, g, h)` on `S`.
    pub fn jacobiator(&self, system: &System, f: &Expr, g: &Expr, h: &Expr) -> Expr {
        let triple = [(f, g, h), (g, h, f), (h, f, g)];
        triple
            .iter()
            .fold(Expr::zero(), |acc, (a, b, c)| {
                acc + self.bracket(system, a, &self.bracket(system, b, c))
            })
            .simplify()
    }

    /// The bracket table and the Jacobiators of the coordinates of `S`, each entry shown to
    /// `guard` (the budgets) as soon as it is built.
    #[allow(clippy::type_complexity)]
    fn tables(
        &self,
        system: &System,
        guard: &dyn Fn(&str, Expr) -> diagnostic::Result<Expr>,
    ) -> diagnostic::Result<(Vec<(usize, usize, Expr)>, Vec<(usize, usize, usize, Expr)>)> {
        let symbols: Vec<Expr> = self.coordinates.iter().map(|s| Expr::symbol(s)).collect();
        let n = symbols.len();
        let mut table = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let value = self.bracket(system, &symbols[i], &symbols[j]);
                table.push((i, j, guard("the bracket table on S", value)?));
            }
        }
        let mut jacobiators = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let value = self.jacobiator(system, &symbols[i], &symbols[j], &symbols[k]);
                    jacobiators.push((i, j, k, guard("the Jacobiators on S", value)?));
                }
            }
        }
        Ok((table, jacobiators))
    }
}
