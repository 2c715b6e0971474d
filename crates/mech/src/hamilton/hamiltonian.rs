//! [IMMS07] §II.5–§II.6 and §V: the Hamiltonian side of a Lagrangian system on a Lie affgebroid,
//! and its nonholonomic bracket.
//!
//! Coordinates on `V*` are `(x^i, p_α)` (the `momenta` of the spec). For a Lagrangian that is
//! quadratic in the velocities, `L = ½ yᵀW y + a·y + L₀`, the Legendre map `leg_L: p = W y + a`
//! (24) is inverted in closed form, `y(x, p) = W⁻¹(p − a)`, and
//! `H(x, p) = p_α y^α − L = ½ (p − a)ᵀ W⁻¹ (p − a) − L₀` (§II.6).
//!
//! With `∂_i` the base derivatives (time included, through the functions of time):
//!
//! - the linear Poisson bracket of `V*`:
//!   `{f, g} = ρ^i_α (∂_i f ∂g/∂p_α − ∂f/∂p_α ∂_i g) − C^γ_αβ p_γ ∂f/∂p_α ∂g/∂p_β`;
//! - the Hamiltonian vector field of the section `h` (§II.5):
//!   `X_h(f) = ρ^i_0 ∂_i f + C^γ_0α p_γ ∂f/∂p_α + {f, H}`, plus `F_α ∂f/∂p_α` for the forces —
//!   on `x^i` and `p_α` this is Hamilton's equations (17);
//! - the constraints on `V*`, `ψ^a(x, p) = Ψ^a(x, y(x, p))` (§V.1), `𝓗_αβ = ∂²H/∂p_α∂p_β`,
//!   `Z^a(f) = ∂ψ^a/∂p_θ 𝓗^{θν} ∂f/∂p_ν` (59), `𝒞̄^{ab} = −𝓗^{αβ} ∂ψ^a/∂p_β ∂ψ^b/∂p_α` (60);
//! - the multipliers `λ̄_a = −𝒞̄_ab X_h(ψ^b)` and the constrained dynamics
//!   `X_nh(f) = X_h(f) − λ̄_a Z^a(f)` (§V.1);
//! - the nonholonomic bracket of observables on `B̄ = {ψ = 0}`, its linear-linear part
//!   (§V.2, with the sign of the `𝒞̄𝒞̄` term of its local formula: the relation printed just
//!   before that formula has the wrong sign):
//!   `{f, g}_nh = {f, g} + 𝒞̄_ab {ψ^b, g} Z^a(f) − 𝒞̄_ab {ψ^a, f} Z^b(g)
//!                + 𝒞̄_ab 𝒞̄_cd {ψ^b, ψ^d} Z^a(f) Z^c(g)`.
//!
//! Functions on `B̄` are written in the coordinates that remain after solving `ψ = 0` for as many
//! momenta as there are constraints; by Lemma V.6 the bracket does not depend on how they are
//! extended off `B̄`, so the table of brackets of these coordinates, their Jacobiators and the
//! evolution `ḟ = X_nh(f)` are computed on their plain extensions and restricted to `B̄`.
//!
//! The linear Poisson bracket of `V*` and the vector field `X_h` are `base::algebra`'s `Phase`,
//! which the vakonomic and singular sides share.

use std::collections::BTreeMap;

use cas::Expr;
use model::{ConstraintShape, System};

use crate::base::algebra::{phase_state, Phase};
use crate::lagrange::lagrangian::Regular;

/// The Hamiltonian side of a derivation.
#[derive(Clone, Debug)]
pub struct Hamiltonian {
    /// The momenta `p_α` (symbols), one per section.
    pub momenta: Vec<String>,
    /// The phase state `(x, p)` of `V*` ([`phase_state`]): the order of `free_rates`.
    pub phase: Vec<String>,
    /// `leg_L`: `p_α = ∂L/∂y^α` as functions of `(x, y)`.
    pub legendre: Vec<Expr>,
    /// The inverse Legendre map: `y^α` as functions of `(x, p)`.
    pub velocities: Vec<Expr>,
    /// `H(x, p)`.
    pub hamiltonian: Expr,
    /// `𝓗_αβ = ∂²H/∂p_α∂p_β`.
    pub hessian: Vec<Vec<Expr>>,
    /// `𝓗^{αβ}`, its inverse.
    pub hessian_inverse: Vec<Vec<Expr>>,
    /// The forces `F_α(x, y(x, p))`.
    pub forces: Vec<Expr>,
    /// Hamilton's equations (17) with the forces: `X_h` of each coordinate, then of each momentum.
    pub free_rates: Vec<Expr>,
    /// The constrained side, when there are constraints.
    pub constrained: Option<ConstrainedHamiltonian>,
    /// The coordinates of `B̄` (or of `V*` without constraints): base coordinates, then the
    /// momenta not eliminated by `ψ = 0`.
    pub coordinates: Vec<String>,
    /// `{c_i, c_j}` (nonholonomic on `B̄`, or Poisson) for `i < j` over `coordinates`.
    pub table: Vec<(usize, usize, Expr)>,
    /// The Jacobiators `J(c_i, c_j, c_k)` for `i < j < k` over `coordinates`.
    pub jacobiators: Vec<(usize, usize, usize, Expr)>,
}

/// The constrained Hamiltonian system and its nonholonomic bracket ([IMMS07] §V).
#[derive(Clone, Debug)]
pub struct ConstrainedHamiltonian {
    /// `ψ^a(x, p)`.
    pub psi: Vec<Expr>,
    /// `𝒞̄^{ab}`.
    pub matrix: Vec<Vec<Expr>>,
    /// `𝒞̄_{ab}`.
    pub inverse: Vec<Vec<Expr>>,
    /// `𝓗^{θν} ∂ψ^a/∂p_θ` as `z[a][ν]`: `Z^a(f) = z[a][ν] ∂f/∂p_ν`.
    pub z: Vec<Vec<Expr>>,
    /// `λ̄_a(x, p)`.
    pub multipliers: Vec<Expr>,
    /// `X_nh` of each coordinate, then of each momentum, on `B̄`.
    pub rates: Vec<Expr>,
    /// The momenta solved from `ψ = 0`, with their values on `B̄`.
    pub eliminated: BTreeMap<String, Expr>,
    /// Where the chart of `B̄` by the remaining momenta is regular: the factors of the minor of
    /// `∂ψ/∂p` that solving divides by, each non-zero there (empty when it is a number). Every
    /// choice of momenta may have one (`sin φ p₁ − cos φ p₂ = 0` gives `sin φ` or `cos φ`): it is
    /// a singularity of the coordinates on `B̄`, not of the motion, and the results state it.
    pub regular_where: Vec<Expr>,
}

/// Why the Hamiltonian side could not be derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// `L` is not a polynomial of degree two in the velocities: `leg_L` has no closed inverse.
    NotQuadratic,
    /// The constraints are not affine in the velocities.
    NonlinearConstraints,
    /// `ψ = 0` cannot be solved for any set of momenta.
    Unsolvable,
    /// `W⁻¹` has this many nodes, above [`MAX_INVERSE_SIZE`].
    Large(usize),
    /// An entry of the bracket table or of a Jacobiator passed the size budget (`--max-terms`)
    /// before or after its simplification (the deadline is reported by the caller, as E0503).
    TableSwelled,
    /// The work or time budget of the run ran out between two entries of the constrained side
    /// (the caller reports which: the closed form's fallback, or E0503).
    Stopped,
    /// An entry of `object` on the constraint surface (a multiplier, an equation) has more
    /// nodes, once normalised, than the closed-form attempt keeps
    /// ([`crate::base::route::CLOSED_FORM_TERMS`]); the attempt then ends (E0513).
    Oversized {
        /// What the entry belongs to, as the route's reason names it.
        object: &'static str,
    },
}

/// The largest `W⁻¹` (total tree nodes of its entries) for which the Hamiltonian side, its bracket
/// table and its Jacobiators are derived (Suslov's full inertia tensor: 208; a double pendulum
/// on a cart: 6121, for which the table takes minutes).
pub const MAX_INVERSE_SIZE: usize = 1000;

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unavailable::NotQuadratic => {
                "L is not a polynomial of degree two in the velocities, so the Legendre map has no closed-form inverse"
            }
            Unavailable::NonlinearConstraints => {
                "the constraints are not affine in the velocities"
            }
            Unavailable::Unsolvable => "the constraints on the dual cannot be solved for any momenta",
            // The exact count is not printed: it depends on the order Symbolica met the symbols.
            Unavailable::Large(_) => {
                return write!(
                    f,
                    "W⁻¹ has more than {MAX_INVERSE_SIZE} nodes: its bracket table would swell"
                )
            }
            Unavailable::TableSwelled => {
                "an entry of the bracket table or of its Jacobiators passed the size budget (--max-terms)"
            }
            Unavailable::Stopped => "the work or time budget ran out while computing it",
            Unavailable::Oversized { object } => {
                return f.write_str(&crate::base::route::oversized(object))
            }
        })
    }
}

impl Hamiltonian {
    /// The phase space of `system` with this `H` and these forces.
    pub fn phase<'a>(&self, system: &'a System) -> Phase<'a> {
        Phase::new(system, self.hamiltonian.clone(), self.forces.clone())
    }

    /// `f` on `B̄` (the eliminated momenta substituted), simplified; `f` simplified when there
    /// are no constraints.
    pub fn restrict(&self, f: &Expr) -> Expr {
        match &self.constrained {
            Some(c) => f.subs(&c.eliminated).simplify(),
            None => f.simplify(),
        }
    }

    /// [`Hamiltonian::restrict`] under `allows` (size and deadline), checked on the expression
    /// before and after its simplification: `None` when either is refused.
    fn restrict_guarded(&self, f: &Expr, allows: &dyn Fn(&Expr) -> bool) -> Option<Expr> {
        match &self.constrained {
            Some(c) => f.subs(&c.eliminated).simplify_within(allows),
            None => f.simplify_within(allows),
        }
    }

    /// [`Hamiltonian::bracket`] under `allows` (see [`Hamiltonian::restrict_guarded`]).
    fn bracket_guarded(
        &self,
        system: &System,
        f: &Expr,
        g: &Expr,
        allows: &dyn Fn(&Expr) -> bool,
    ) -> Option<Expr> {
        let raw = match &self.constrained {
            Some(c) => c.view(self, system).bracket(f, g),
            None => self.phase(system).poisson(f, g),
        };
        allows(&raw).then_some(())?;
        self.restrict_guarded(&raw, allows)
    }

    /// `{f, g}_nh` on `B̄`, or the Poisson bracket `{f, g}` when there are no constraints.
    pub fn bracket(&self, system: &System, f: &Expr, g: &Expr) -> Expr {
        match &self.constrained {
            Some(c) => self.restrict(&c.view(self, system).bracket(f, g)),
            None => self.phase(system).poisson(f, g).simplify(),
        }
    }

    /// `J(f, g, h) = {f, {g, h}} + {g, {h, f}} + {h, {f, g}}` on `B̄`.
    pub fn jacobiator(&self, system: &System, f: &Expr, g: &Expr, h: &Expr) -> Expr {
        let triple = [(f, g, h), (g, h, f), (h, f, g)];
        let sum = triple.iter().fold(Expr::zero(), |acc, (a, b, c)| {
            acc + self.bracket(system, a, &self.bracket(system, b, c))
        });
        self.restrict(&sum)
    }

    /// `ḟ` for another Hamiltonian `other` with the same constraints: the affine-linear part
    /// of the bracket for the section `h' = h + f₀`, `H' = H − f₀` (the bi-affine
    /// decomposition of [IMMS07] §V.2), `{h̄', f̄}^{al} = X_nh(f) + {f₀, f}^{ll}_nh`, on `B̄`.
    /// When `other − H` vanishes on `B̄` this is [`Hamiltonian::dynamics`] (Lemma V.6), because
    /// the constraints are Casimirs of the linear-linear bracket.
    pub fn dynamics_with(&self, system: &System, other: &Expr, f: &Expr) -> Expr {
        let shift = self.hamiltonian.clone() - other.clone();
        let extra = self.bracket(system, &shift, f);
        self.restrict(&(self.dynamics(system, f) + extra))
    }

    /// `ḟ`: `X_nh(f)` on `B̄`, or `X_h(f)` without constraints.
    pub fn dynamics(&self, system: &System, f: &Expr) -> Expr {
        match &self.constrained {
            Some(c) => self.restrict(&c.view(self, system).dynamics(f)),
            None => self.phase(system).hamilton(f).simplify(),
        }
    }
}

impl ConstrainedHamiltonian {
    /// The bracket and dynamics of this constrained system.
    fn view<'a, 'b>(&'b self, h: &'b Hamiltonian, system: &'a System) -> Nonholonomic<'a, 'b> {
        Nonholonomic {
            phase: h.phase(system),
            momenta: &h.momenta,
            psi: &self.psi,
            z: &self.z,
            inverse: &self.inverse,
        }
    }
}

/// Derives the Hamiltonian side of a regular Lagrangian's closed form (see the module
/// documentation).
///
/// `allows` guards the bracket table and its Jacobiators, the part that swells on a dense system
/// (`Hamiltonian::restrict_guarded`). `largest` (the closed-form attempt's
/// [`crate::base::route::CLOSED_FORM_TERMS`]) bounds each multiplier and equation on the
/// constraint surface once normalised, as it bounds the Lagrangian side's
/// ([`Unavailable::Oversized`]).
pub fn derive(
    d: Regular<'_>,
    allows: &dyn Fn(&Expr) -> bool,
    largest: Option<usize>,
) -> Result<Hamiltonian, Unavailable> {
    let system = d.system;
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let form = system
        .lagrangian
        .quadratic_form(&system.keys(&alg.velocities))
        .ok_or(Unavailable::NotQuadratic)?;
    let momenta = system.keys(&alg.momenta);
    let p = |a: usize| system.expr(alg.momenta[a]);
    // y = W⁻¹ (p − a), with W and W⁻¹ of the closed form.
    let shifted: Vec<Expr> = (0..n).map(|a| p(a) - form.linear[a].clone()).collect();
    let velocities: Vec<Expr> = (0..n)
        .map(|a| {
            (0..n)
                .fold(Expr::zero(), |acc, b| {
                    acc + d.hessian_inverse[a][b].clone() * shifted[b].clone()
                })
                .simplify()
        })
        .collect();
    let kinetic = (0..n).fold(Expr::zero(), |acc, a| {
        acc + shifted[a].clone() * velocities[a].clone()
    });
    let hamiltonian = (kinetic * Expr::rational(1, 2) - form.constant.clone()).simplify();
    let to_phase: BTreeMap<String, Expr> = system
        .keys(&alg.velocities)
        .into_iter()
        .zip(velocities.iter().cloned())
        .collect();
    let forces: Vec<Expr> = system
        .forces
        .iter()
        .map(|f| f.subs(&to_phase).simplify())
        .collect();
    let hessian: Vec<Vec<Expr>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| hamiltonian.diff(&momenta[a]).diff(&momenta[b]).simplify())
                .collect()
        })
        .collect();
    let hessian_inverse = d
        .lagrangian
        .hessian
        .iter()
        .map(|row| row.iter().map(|w| w.subs(&to_phase).simplify()).collect())
        .collect();
    let phase = Phase::new(system, hamiltonian.clone(), forces.clone());
    let free_rates: Vec<Expr> = phase_state(system)
        .iter()
        .map(|s| phase.hamilton(&Expr::symbol(s)).simplify())
        .collect();
    let mut out = Hamiltonian {
        phase: phase_state(system),
        momenta,
        legendre: d.lagrangian.momenta.clone(),
        velocities,
        hamiltonian,
        hessian,
        hessian_inverse,
        forces,
        free_rates,
        constrained: None,
        coordinates: Vec::new(),
        table: Vec::new(),
        jacobiators: Vec::new(),
    };
    if !system.constraints.is_empty() {
        out.constrained = Some(constrained(d, &out, &to_phase, allows, largest)?);
    }
    out.coordinates = phase_state(system)
        .into_iter()
        .filter(|s| {
            out.constrained
                .as_ref()
                .is_none_or(|c| !c.eliminated.contains_key(s))
        })
        .collect();
    let (table, jacobiators) = bracket_tables(&out, system, allows)?;
    out.table = table;
    out.jacobiators = jacobiators;
    Ok(out)
}

/// The brackets of the coordinates of `B̄` and their Jacobiators, each entry under `allows`.
#[allow(clippy::type_complexity)]
fn bracket_tables(
    h: &Hamiltonian,
    system: &System,
    allows: &dyn Fn(&Expr) -> bool,
) -> Result<(Vec<(usize, usize, Expr)>, Vec<(usize, usize, usize, Expr)>), Unavailable> {
    let symbols: Vec<Expr> = h.coordinates.iter().map(|s| Expr::symbol(s)).collect();
    let n = symbols.len();
    let bracket = |f: &Expr, g: &Expr| {
        h.bracket_guarded(system, f, g, allows)
            .ok_or(Unavailable::TableSwelled)
    };
    let mut brackets: BTreeMap<(usize, usize), Expr> = BTreeMap::new();
    for i in 0..n {
        for j in i + 1..n {
            brackets.insert((i, j), bracket(&symbols[i], &symbols[j])?);
        }
    }
    let bracket_of = |i: usize, j: usize| -> Expr {
        match i.cmp(&j) {
            std::cmp::Ordering::Less => brackets[&(i, j)].clone(),
            std::cmp::Ordering::Greater => -brackets[&(j, i)].clone(),
            std::cmp::Ordering::Equal => Expr::zero(),
        }
    };
    // J(a, b, c) = Σ_cyclic {a, {b, c}}, with the inner brackets from the table (a function on
    // B̄ written in its coordinates is a valid extension, Lemma V.6).
    let mut jacobiators = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let mut sum = Expr::zero();
                for &(a, b, c) in &[(i, j, k), (j, k, i), (k, i, j)] {
                    sum = sum + bracket(&symbols[a], &bracket_of(b, c))?;
                }
                let restricted = h
                    .restrict_guarded(&sum, allows)
                    .ok_or(Unavailable::TableSwelled)?;
                jacobiators.push((i, j, k, restricted));
            }
        }
    }
    Ok((
        brackets.into_iter().map(|((i, j), e)| (i, j, e)).collect(),
        jacobiators,
    ))
}

/// The constrained side: `ψ`, `𝒞̄`, `λ̄`, `X_nh`, and the bracket table on `B̄`.
fn constrained(
    d: Regular<'_>,
    h: &Hamiltonian,
    to_phase: &BTreeMap<String, Expr>,
    allows: &dyn Fn(&Expr) -> bool,
    largest: Option<usize>,
) -> Result<ConstrainedHamiltonian, Unavailable> {
    let system = d.system;
    if system
        .constraints
        .iter()
        .any(|c| c.shape == ConstraintShape::Nonlinear)
    {
        return Err(Unavailable::NonlinearConstraints);
    }
    let n = system.rank();
    let r = system.constraints.len();
    let psi: Vec<Expr> = system
        .constraints
        .iter()
        .map(|c| c.psi.subs(to_phase).simplify())
        .collect();
    let dpsi: Vec<Vec<Expr>> = psi
        .iter()
        .map(|f| (0..n).map(|a| f.diff(&h.momenta[a]).simplify()).collect())
        .collect();
    // 𝓗^{θν} ∂ψ^a/∂p_ν: the vector of Z^a.
    let z: Vec<Vec<Expr>> = dpsi
        .iter()
        .map(|row| {
            (0..n)
                .map(|nu| {
                    (0..n)
                        .fold(Expr::zero(), |acc, th| {
                            acc + row[th].clone() * h.hessian_inverse[th][nu].clone()
                        })
                        .simplify()
                })
                .collect()
        })
        .collect();
    let matrix: Vec<Vec<Expr>> = (0..r)
        .map(|a| {
            (0..r)
                .map(|b| {
                    (0..n)
                        .fold(Expr::zero(), |acc, nu| {
                            acc - z[a][nu].clone() * dpsi[b][nu].clone()
                        })
                        .simplify()
                })
                .collect()
        })
        .collect();
    let inverse = cas::inverse(&matrix).map_err(|_| Unavailable::Unsolvable)?;
    let mu: Vec<Vec<Expr>> = system.constraints.iter().map(|c| c.mu.clone()).collect();
    let (eliminated, mut regular_where) =
        solve_for_momenta(&h.momenta, &psi, &dpsi, &mu).ok_or(Unavailable::Unsolvable)?;
    // A factor of the parameters alone is a condition on them, not on the motion.
    regular_where.retain(|f| {
        !f.symbols()
            .iter()
            .all(|s| system.parameters.contains(&system.handle(s)))
    });
    // A factor's sign is arbitrary (only its zero set matters): one orientation for every run.
    let regular_where: Vec<Expr> = regular_where.iter().map(Expr::sign_normalised).collect();
    // Each multiplier and rate may take seconds to simplify on a large system: between two of
    // them, the run's work and time budgets are looked at (`allows` of a constant checks only
    // those; `--max-terms` does not bound the entries here). An entry past `largest` ends the
    // closed-form attempt before the next, larger ones are normalised: the rolling torus's
    // rates of the momenta have 29,724, 25,661 and 90,759 nodes, the last 300 ms of work (the
    // shipped closed forms' entries here have at most 3,140).
    let restrict = |object: &'static str, e: &Expr| -> Result<Expr, Unavailable> {
        let restricted = allows(&Expr::zero())
            .then(|| e.subs(&eliminated).simplify())
            .ok_or(Unavailable::Stopped)?;
        match largest {
            Some(most) if restricted.size() > most => Err(Unavailable::Oversized { object }),
            _ => Ok(restricted),
        }
    };
    let nh = Nonholonomic {
        phase: Phase::new(system, h.hamiltonian.clone(), h.forces.clone()),
        momenta: &h.momenta,
        psi: &psi,
        z: &z,
        inverse: &inverse,
    };
    // `X_h(ψ^a)` on `B̄`, once: every multiplier and every rate of a momentum carries it, and
    // restricting each of those sums whole normalised it again inside one large fraction (the
    // rolling disc's: 11,000 nodes, 450 ms of its 600 ms Hamiltonian side). The sums of the
    // restricted parts are the same functions on `B̄` (the golden tests of the Hamiltonian side
    // compare them with the whole sums restricted and with the Lagrangian side).
    let x_h_psi: Vec<Expr> = psi
        .iter()
        .map(|f| restrict(X_H_PSI, &nh.phase.hamilton(f)))
        .collect::<Result<_, _>>()?;
    let multipliers: Vec<Expr> = (0..r)
        .map(|a| {
            let value = (0..r).fold(Expr::zero(), |acc, b| {
                acc - inverse[a][b].clone() * x_h_psi[b].clone()
            });
            restrict(MULTIPLIERS, &value)
        })
        .collect::<Result<_, _>>()?;
    let rates: Vec<Expr> = phase_state(system)
        .iter()
        .map(|s| restrict(EQUATIONS, &nh.dynamics_given(&Expr::symbol(s), &x_h_psi)))
        .collect::<Result<_, _>>()?;
    Ok(ConstrainedHamiltonian {
        psi,
        matrix,
        inverse,
        z,
        multipliers,
        rates,
        eliminated,
        regular_where,
    })
}

/// The objects of the constraint surface that [`Unavailable::Oversized`] names.
const X_H_PSI: &str = "X_h(ψ) on the constraint surface";
/// See [`X_H_PSI`].
const MULTIPLIERS: &str = "the Hamiltonian side's multipliers";
/// See [`X_H_PSI`].
const EQUATIONS: &str = "the Hamiltonian side's equations";

/// `ψ = 0` solved for `r` momenta, as a substitution, with the factors of the minor it divides by
/// (none when that is a number); `None` when no choice is solvable. The
/// momenta conjugate to the velocities that the Lagrangian side eliminates (the pivots of `μ`,
/// which prefer numeric coefficients) are tried first, so that both sides use the same
/// coordinates on the constraint surface and divide by the same things; otherwise the pivots of
/// `∂ψ/∂p`.
fn solve_for_momenta(
    momenta: &[String],
    psi: &[Expr],
    dpsi: &[Vec<Expr>],
    mu: &[Vec<Expr>],
) -> Option<(BTreeMap<String, Expr>, Vec<Expr>)> {
    let block = |pivots: &[usize]| -> Vec<Vec<Expr>> {
        dpsi.iter()
            .map(|row| pivots.iter().map(|&k| row[k].clone()).collect())
            .collect()
    };
    let pivots = match model::frame::pivot_columns(mu) {
        Some(p) if !cas::det(&block(&p)).is_zero() => p,
        _ => model::frame::pivot_columns(dpsi)?,
    };
    let a = block(&pivots);
    // ψ is affine in p: ψ = ψ|_{p_pivots = 0} + Σ ∂ψ/∂p_k p_k.
    let zero: BTreeMap<String, Expr> = pivots
        .iter()
        .map(|&k| (momenta[k].clone(), Expr::zero()))
        .collect();
    let b: Vec<Vec<Expr>> = psi.iter().map(|f| vec![-f.subs(&zero)]).collect();
    let x = cas::solve(&a, &b).ok()?;
    let solved = pivots
        .iter()
        .zip(x)
        .map(|(&k, value)| (momenta[k].clone(), value[0].simplify()))
        .collect();
    Some((solved, cas::det(&a).numerator_factors()))
}

/// The nonholonomic bracket and dynamics on `B̄` ([IMMS07] §V.2).
pub struct Nonholonomic<'a, 'b> {
    /// The phase space with `H` and the forces.
    pub phase: Phase<'a>,
    /// The momenta.
    pub momenta: &'b [String],
    /// `ψ^a`.
    pub psi: &'b [Expr],
    /// `𝓗^{θν} ∂ψ^a/∂p_θ` as `z[a][ν]`.
    pub z: &'b [Vec<Expr>],
    /// `𝒞̄_ab`.
    pub inverse: &'b [Vec<Expr>],
}

impl Nonholonomic<'_, '_> {
    /// `Z^a(f)`.
    fn z_of(&self, a: usize, f: &Expr) -> Expr {
        self.z[a]
            .iter()
            .zip(self.momenta)
            .fold(Expr::zero(), |acc, (z, p)| acc + z.clone() * f.diff(p))
    }

    /// `w_b(f) = 𝒞̄_ab Z^a(f)`: the multiplier-weighted constraint directions of `f`.
    fn weights(&self, f: &Expr) -> Vec<Expr> {
        let z: Vec<Expr> = (0..self.psi.len()).map(|a| self.z_of(a, f)).collect();
        self.inverse
            .iter()
            .map(|column| {
                column
                    .iter()
                    .zip(&z)
                    .fold(Expr::zero(), |acc, (c, za)| acc + c.clone() * za.clone())
            })
            .collect()
    }

    /// `X_nh(f) = X_h(f) + 𝒞̄_ab X_h(ψ^a) Z^b(f)` (not restricted to `B̄`).
    pub fn dynamics(&self, f: &Expr) -> Expr {
        let x_h_psi: Vec<Expr> = self
            .psi
            .iter()
            .map(|psi| self.phase.hamilton(psi))
            .collect();
        self.dynamics_given(f, &x_h_psi)
    }

    /// [`Nonholonomic::dynamics`] with `X_h(ψ^a)` given as `x_h_psi[a]`, which may be restricted
    /// to `B̄` already (the caller restricts the sum).
    fn dynamics_given(&self, f: &Expr, x_h_psi: &[Expr]) -> Expr {
        // 𝒞̄ is symmetric, so 𝒞̄_ab Z^b(f) = w_a(f).
        self.weights(f)
            .into_iter()
            .zip(x_h_psi)
            .filter(|(w, _)| !w.is_zero())
            .fold(self.phase.hamilton(f), |acc, (w, x)| acc + w * x.clone())
    }

    /// The linear-linear part ([IMMS07] §V.2), with `w(f)` of [`Nonholonomic::weights`]:
    /// `{f, g}_nh = {f, g} + w_b(f){ψ^b, g} − w_a(g){ψ^a, f} + w_b(f) w_d(g) {ψ^b, ψ^d}`
    /// (not restricted to `B̄`).
    pub fn bracket(&self, f: &Expr, g: &Expr) -> Expr {
        let wf = self.weights(f);
        let wg = self.weights(g);
        let mut total = self.phase.poisson(f, g);
        for (psi, w) in self.psi.iter().zip(&wf).filter(|(_, w)| !w.is_zero()) {
            total = total + w.clone() * self.phase.poisson(psi, g);
        }
        for (psi, w) in self.psi.iter().zip(&wg).filter(|(_, w)| !w.is_zero()) {
            total = total - w.clone() * self.phase.poisson(psi, f);
        }
        for (psi_b, w_b) in self.psi.iter().zip(&wf).filter(|(_, w)| !w.is_zero()) {
            for (psi_d, w_d) in self.psi.iter().zip(&wg).filter(|(_, w)| !w.is_zero()) {
                total = total + w_b.clone() * w_d.clone() * self.phase.poisson(psi_b, psi_d);
            }
        }
        total
    }
}
