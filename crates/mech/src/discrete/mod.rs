//! Discrete mechanics: the discrete equations of a `discrete` item, for a system on `TQ` without
//! constraints (Marsden and West, *Discrete mechanics and variational integrators*, Acta Numerica
//! 10 (2001) 357–514: §1.2–§1.5 for the discrete Lagrangian, its Euler–Lagrange equations and
//! its Legendre transforms, §3.2 for forcing, §2.3 for the midpoint rule).
//!
//! A discrete Lagrangian `L_d(q_k, q_{k+1})` approximates the action `∫ L dt` over one step of
//! length `h` from `t_k`. The midpoint rule takes
//!
//! ```text
//! L_d(q_k, q_{k+1}) = h L(t_k + h/2, (q_k + q_{k+1})/2, (q_{k+1} − q_k)/h),
//! ```
//!
//! and the forces `F` (with the inputs held over the step) enter as the discrete forces
//! `f_d^− = f_d^+ = (h/2) F` at the same midpoint. The discrete Lagrange–d'Alembert principle
//! `δ Σ L_d + Σ (f_d^− δq_k + f_d^+ δq_{k+1}) = 0` gives the forced discrete Euler–Lagrange
//! equations `D_2 L_d(q_{k−1}, q_k) + D_1 L_d(q_k, q_{k+1}) + f_d^+(q_{k−1}, q_k) + f_d^−(q_k,
//! q_{k+1}) = 0`, which in position–momentum form are the two forced discrete Legendre transforms
//!
//! ```text
//! p_k     = −D_1 L_d(q_k, q_{k+1}) − f_d^−(q_k, q_{k+1}),
//! p_{k+1} =  D_2 L_d(q_k, q_{k+1}) + f_d^+(q_k, q_{k+1}).
//! ```
//!
//! A step solves the first for `q_{k+1}` (Newton's method with the matrix `∂p_k/∂q_{k+1}`, which
//! this module derives too), and the second gives `p_{k+1}`. The map `(q_k, p_k) ↦ (q_{k+1},
//! p_{k+1})` is symplectic without forces and conserves the momentum maps of the symmetries of
//! `L_d` (discrete Noether theorem, §1.3.3); for the midpoint rule it is the implicit midpoint
//! method applied to Hamilton's equations, of order two.
//!
//! With nonholonomic constraints `Ψ^a = μ^a(q)·q' + μ^a_0(q)` (affine in the velocities), the
//! discrete Lagrange–d'Alembert principle (Cortés and Martínez, *Non-holonomic integrators*,
//! Nonlinearity 14 (2001) 1365–1392; McLachlan and Perlmutter, *Integrators for nonholonomic
//! mechanical systems*, J. Nonlinear Sci. 16 (2006) 283–328) restricts `δq_k` to the constraint
//! distribution at `q_k` and the step to the discrete constraint `ω_d^a(q_k, q_{k+1}) = 0`, here
//! `Ψ^a` at the midpoint, `Ψ^a(t + h/2, (q_k + q_{k+1})/2, (q_{k+1} − q_k)/h)`. In position–momentum
//! form, with the discrete multipliers `λ_k` (impulses, `≈ h λ`),
//!
//! ```text
//! p_k = −D_1 L_d(q_k, q_{k+1}) − f_d^− + μ(q_k)ᵀ λ_k,    ω_d(q_k, q_{k+1}) = 0,
//! ```
//!
//! solved together for `(q_{k+1}, λ_k)`, then `p_{k+1} = D_2 L_d + f_d^+` as before. The sign makes
//! `λ_k / h` tend to the multipliers of the continuous equations `W a + μᵀ λ = b`.
//!
//! The coordinates stand for `q_k`; `q_{k+1}` and `h` are symbols of the system's table
//! ([`model::symbols::Kind::Next`], [`model::symbols::Kind::Step`]).
//!
//! On the Lie algebra so(3) (`algebroid so3`, the free rigid body in body coordinates) the
//! [`cayley`] module derives the discrete Euler–Poincaré equations of the Lie group variational
//! integrator instead; its unknowns are the discrete velocities `ξ_k`
//! ([`model::symbols::Kind::Half`]), not positions.

pub mod cayley;
pub mod step;

use cas::Expr;
use diagnostic::{Code, Diagnostic};
use model::{Discretisation, System};

/// The discrete equations of a system (see the module documentation).
#[derive(Clone, Debug)]
pub struct DiscreteEquations {
    /// Which discrete Lagrangian.
    pub method: Discretisation,
    /// The key of the step length `h`.
    pub step: String,
    /// The keys of the unknowns a step solves for: `q_{k+1}`, one per coordinate (midpoint), or
    /// the discrete velocities `ξ_k`, one per velocity (Cayley).
    pub next: Vec<String>,
    /// Where Newton's method for the unknowns starts, in terms of `h`, `q_k` and `v_k`:
    /// `q_k + h v_k` (midpoint), `v_k` (Cayley).
    pub predictor: Vec<Expr>,
    /// `q_{k+1}` in terms of `q_k` and the unknowns, one per coordinate.
    pub positions: Vec<Expr>,
    /// `L_d`.
    pub lagrangian: Expr,
    /// `f_d^−` (equal to `f_d^+` for the midpoint rule), one per velocity; zeros without forces.
    pub forces: Vec<Expr>,
    /// `p_k = −D_1 L_d − f_d^−` (on so(3), `Π_k`), one per velocity.
    pub momentum: Vec<Expr>,
    /// `p_{k+1} = D_2 L_d + f_d^+` (on so(3), `Π_{k+1}`), one per velocity.
    pub next_momentum: Vec<Expr>,
    /// The keys of the discrete multipliers `λ_k` (impulses over the step, `≈ h λ`), one per
    /// nonholonomic constraint: further unknowns of a step, after `next`.
    pub multipliers: Vec<String>,
    /// The discrete constraints `ω_d^a(q_k, q_{k+1}) = Ψ^a` at the midpoint, one per constraint.
    pub constraints: Vec<Expr>,
    /// The Jacobian of `(p_k, ω_d)` by `(next, multipliers)`, `[i][j]`: the matrix of Newton's
    /// method.
    pub newton: Vec<Vec<Expr>>,
}

impl DiscreteEquations {
    /// Every unknown of a step, in the order of Newton's matrix: `next`, then `multipliers`.
    pub fn unknowns(&self) -> Vec<String> {
        self.next.iter().chain(&self.multipliers).cloned().collect()
    }
}

/// The discrete equations the spec asks for, `None` when it has no `discrete` item; E0296 at the
/// item when they are not derived for this system.
pub fn derive(system: &System) -> diagnostic::Result<Option<DiscreteEquations>> {
    let Some(item) = system.discrete else {
        return Ok(None);
    };
    derive_as(system, item.method).map(Some)
}

/// The discrete equations of `method` for `system`, whether or not its spec asks for them (the
/// variational integrator of `simulate` takes the midpoint rule's); E0296 when they are not
/// derived for this system.
pub fn derive_as(system: &System, method: Discretisation) -> diagnostic::Result<DiscreteEquations> {
    match method {
        Discretisation::Midpoint => {
            refuse_unsupported(system)?;
            Ok(midpoint(system))
        }
        Discretisation::Cayley => cayley::derive(system),
    }
}

/// The discretisation a system gets when its spec names none (`simulate --method
/// variational`): the Cayley chart on `algebroid so3`, the midpoint rule otherwise.
pub fn default_method(system: &System) -> Discretisation {
    match &system.algebroid.kind {
        model::AlgebroidKind::LieAlgebra(name) if name == "so3" => Discretisation::Cayley,
        _ => Discretisation::Midpoint,
    }
}

/// E0296 for a system whose midpoint equations are not derived yet.
fn refuse_unsupported(system: &System) -> diagnostic::Result<()> {
    let why = if !system.is_tangent() {
        "on an algebroid other than `algebroid tangent` (on `algebroid so3`, `discrete cayley`)"
    } else {
        match common_refusal(system) {
            Some(why) => why,
            None => return Ok(()),
        }
    };
    Err(vec![refused(system, why)])
}

/// Why no discrete equations are derived for `system`, whatever the method: an action,
/// constraints, functions of time, a Lagrangian too large to expand.
fn common_refusal(system: &System) -> Option<&'static str> {
    let why = if system.action.is_some() {
        "with an action (a contact system)"
    } else if !system.vakonomic.is_empty() {
        "with vakonomic constraints"
    } else if system.constraints.iter().any(|c| c.position.is_some()) {
        "with holonomic constraints"
    } else if system
        .constraints
        .iter()
        .any(|c| c.shape == model::ConstraintShape::Nonlinear)
    {
        "with constraints that are not affine in the velocities"
    } else if !system.functions.is_empty() {
        "with given functions of time"
    } else if system.lagrangian.expansion_bound() > crate::base::route::STRUCTURED_EXPANSION {
        // A tree of joints whose equations come from the recursions: L_d would be the expansion
        // the recursions avoid.
        "whose Lagrangian is too large to expand (its equations come from the recursions of its tree of joints)"
    } else {
        return None;
    };
    Some(why)
}

/// E0296 at the `discrete` item: its equations are not derived for a system `why` ("with
/// constraints").
pub fn refused(system: &System, why: &str) -> Diagnostic {
    let (name, span) = system
        .discrete
        .map(|d| (d.method.name(), d.span))
        .unwrap_or(("midpoint", system.lagrangian_span));
    Diagnostic::error(
        Code::E0296,
        format!("the discrete equations of `discrete {name}` are not derived for a system {why}"),
        span,
        "not derived for this system",
    )
    .with_note("discrete equations are derived for systems on `algebroid tangent` without constraints or with nonholonomic ones affine in the velocities (`discrete midpoint`), and for the Lie algebra `algebroid so3` (`discrete cayley`)")
}

/// The keys of the discrete multipliers, one per nonholonomic constraint.
fn multipliers(system: &System) -> Vec<String> {
    let table = &system.symbols;
    (1..=system.constraints.len())
        .map(|a| table.key(table.multiplier(a)))
        .collect()
}

/// `Σ_a μ^a_i λ_a`: the constraint impulses along velocity `i` at the start of a step, with the
/// discrete multipliers `multipliers`.
fn impulse(system: &System, multipliers: &[String], i: usize) -> Expr {
    system
        .constraints
        .iter()
        .zip(multipliers)
        .fold(Expr::zero(), |acc, (c, l)| {
            acc + c.mu[i].clone() * Expr::symbol(l)
        })
}

/// The midpoint rule (see the module documentation).
fn midpoint(system: &System) -> DiscreteEquations {
    let table = &system.symbols;
    let h = table.step();
    let step = Expr::symbol(&table.key(h));
    let half = Expr::rational(1, 2);
    let keys = system.keys(&system.coordinates);
    let next: Vec<String> = system
        .coordinates
        .iter()
        .map(|&q| table.key(table.next(q)))
        .collect();
    let next_exprs: Vec<Expr> = next.iter().map(|k| Expr::symbol(k)).collect();
    let velocities = system.keys(&system.algebroid.velocities);
    // t → t + h/2, q → (q_k + q_{k+1})/2, q' → (q_{k+1} − q_k)/h, all at once.
    let mut at_midpoint = std::collections::BTreeMap::new();
    at_midpoint.insert(
        system.key(system.time),
        Expr::symbol(&system.key(system.time)) + half.clone() * step.clone(),
    );
    for ((q, q_next), v) in keys.iter().zip(&next_exprs).zip(&velocities) {
        let q_now = Expr::symbol(q);
        at_midpoint.insert(q.clone(), half.clone() * (q_now.clone() + q_next.clone()));
        at_midpoint.insert(v.clone(), (q_next.clone() - q_now) / step.clone());
    }
    let lagrangian = (step.clone() * system.lagrangian.subs(&at_midpoint)).simplify();
    let forces: Vec<Expr> = (0..keys.len())
        .map(|i| match system.forces.get(i) {
            Some(f) if !f.is_zero() => {
                (half.clone() * step.clone() * f.subs(&at_midpoint)).simplify()
            }
            _ => Expr::zero(),
        })
        .collect();
    let multipliers = multipliers(system);
    // The constraint impulses μ(q_k)ᵀ λ_k at the start of the step.
    let momentum: Vec<Expr> = keys
        .iter()
        .zip(&forces)
        .enumerate()
        .map(|(i, (q, f))| {
            (-lagrangian.diff(q) - f.clone() + impulse(system, &multipliers, i)).simplify()
        })
        .collect();
    let constraints: Vec<Expr> = system
        .constraints
        .iter()
        .map(|c| c.psi.subs(&at_midpoint).simplify())
        .collect();
    let next_momentum: Vec<Expr> = next
        .iter()
        .zip(&forces)
        .map(|(q, f)| (lagrangian.diff(q) + f.clone()).simplify())
        .collect();
    let unknowns: Vec<&String> = next.iter().chain(&multipliers).collect();
    let newton = momentum
        .iter()
        .chain(&constraints)
        .map(|p| unknowns.iter().map(|q| p.diff(q).simplify()).collect())
        .collect();
    DiscreteEquations {
        method: Discretisation::Midpoint,
        step: table.key(h),
        predictor: keys
            .iter()
            .zip(&velocities)
            .map(|(q, v)| Expr::symbol(q) + step.clone() * Expr::symbol(v))
            .chain(multipliers.iter().map(|_| Expr::zero()))
            .collect(),
        multipliers,
        constraints,
        positions: next_exprs,
        next,
        lagrangian,
        forces,
        momentum,
        next_momentum,
        newton,
    }
}
