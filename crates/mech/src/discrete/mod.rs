//! Discrete mechanics: the discrete equations of a `discrete` item, for a system on `TQ` (Marsden and West, *Discrete mechanics and variational integrators*, Acta Numerica
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
//! The trapezoidal rule (§2.3) takes instead
//!
//! ```text
//! L_d(q_k, q_{k+1}) = (h/2) [L(t_k, q_k, (q_{k+1} − q_k)/h) + L(t_k + h, q_{k+1}, (q_{k+1} − q_k)/h)],
//! ```
//!
//! with `f_d^− = (h/2) F` at the start and `f_d^+ = (h/2) F` at the end of the step; for
//! `L = ½ q'ᵀ M q' − V(q)` with a constant `M`, its step is the Störmer–Verlet method.
//!
//! With holonomic constraints `f^a(t, q) = 0` (Marsden and West §3.5, constrained variational
//! integrators), either rule varies `q_k` on the constraint manifold and asks `q_{k+1}` to lie on
//! it: the same position–momentum form with `μ = ∂f/∂q` and the discrete constraints
//! `ω_d^a = f^a(t_k + h, q_{k+1})`. With the trapezoidal rule and the velocities of the next step
//! recovered on the constraints' tangent space ([`step`]) this is RATTLE (Hairer, Lubich and
//! Wanner, *Geometric Numerical Integration*, 2nd ed., Springer 2006, §VII.1), whose positions
//! are SHAKE's.
//!
//! The coordinates stand for `q_k`; `q_{k+1}` and `h` are symbols of the system's table
//! ([`model::symbols::Kind::Next`], [`model::symbols::Kind::Step`]).
//!
//! On the Lie algebra so(3) (`algebroid so3`, the free rigid body in body coordinates) the
//! [`cayley`] module derives the discrete Euler–Poincaré equations of the Lie group variational
//! integrator instead; its unknowns are the discrete velocities `ξ_k`
//! ([`model::symbols::Kind::Half`]), not positions.

pub mod cayley;
pub mod herglotz;
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
    /// For a contact system ([`herglotz`]), the action at the end of the step,
    /// `z_{k+1} = z_k + L_d(q_k, q_{k+1}, z_k)`.
    pub action: Option<Expr>,
    /// For a contact system, `1 + D_3 L_d`: the factor by which a step contracts the momenta.
    pub contraction: Option<Expr>,
    /// `f_d^−`, one per velocity; zeros without forces.
    pub forces: Vec<Expr>,
    /// `f_d^+` (equal to `f_d^−` for the midpoint rule), one per velocity; zeros without forces.
    pub next_forces: Vec<Expr>,
    /// `p_k = −D_1 L_d − f_d^−` (on so(3), `Π_k`), one per velocity.
    pub momentum: Vec<Expr>,
    /// `p_{k+1} = D_2 L_d + f_d^+` (on so(3), `Π_{k+1}`; on an action algebroid of so(3), in
    /// the keys of `x_{k+1}`, which `positions` gives), one per velocity.
    pub next_momentum: Vec<Expr>,
    /// The keys of the discrete multipliers `λ_k` (impulses over the step, `≈ h λ`), one per
    /// constraint: further unknowns of a step, after `next`.
    pub multipliers: Vec<String>,
    /// The discrete constraints, one per constraint: `ω_d^a(q_k, q_{k+1}) = Ψ^a` at the midpoint
    /// for a nonholonomic one, `f^a(t + h, q_{k+1})` for a holonomic one.
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

    /// The key of a contact system's action, which ends the state a step advances.
    pub fn action_key(&self, system: &System) -> Option<String> {
        self.action
            .as_ref()
            .and(system.action)
            .map(|z| system.key(z))
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
        Discretisation::Midpoint | Discretisation::Trapezoidal => {
            refuse_unsupported(system, method)?;
            Ok(match system.action {
                Some(z) => herglotz::equations(system, &system.key(z)),
                None => on_tangent(system, Quadrature::of(method)),
            })
        }
        Discretisation::Cayley | Discretisation::Lgvi => cayley::derive(system, method),
    }
}

/// The discretisation a system gets when its spec names none (`simulate --method
/// variational`): the Cayley chart on `algebroid so3` and its action algebroids, the midpoint
/// rule otherwise.
pub fn default_method(system: &System) -> Discretisation {
    if cayley::applies(system) {
        Discretisation::Cayley
    } else {
        Discretisation::Midpoint
    }
}

/// E0296 for a system whose equations of `method` (on `TQ`) are not derived yet.
fn refuse_unsupported(system: &System, method: Discretisation) -> diagnostic::Result<()> {
    let contact = system
        .action
        .and_then(|_| herglotz::refusal(system, method));
    let why = if !system.is_tangent() {
        "on an algebroid other than `algebroid tangent` (on `algebroid so3` and its action algebroids, `discrete cayley`)"
    } else {
        match contact.or_else(|| common_refusal(system)) {
            Some(why) => why,
            None => return Ok(()),
        }
    };
    Err(vec![refused(system, why)])
}

/// Why no discrete equations are derived for `system`, whatever the method: vakonomic
/// constraints, constraints not affine in the velocities, functions of time, a Lagrangian too
/// large to expand.
fn common_refusal(system: &System) -> Option<&'static str> {
    let why = if !system.vakonomic.is_empty() {
        "with vakonomic constraints"
    } else if system
        .constraints
        .iter()
        .any(|c| c.shape == model::ConstraintShape::Nonlinear)
    {
        "with constraints that are not affine in the velocities"
    } else if !system.functions.is_empty() {
        "with given functions of time"
    } else if system
        .lagrangian_expansion_bound(crate::base::route::STRUCTURED_EXPANSION)
        .terms
        > crate::base::route::STRUCTURED_EXPANSION
    {
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
    .with_note("discrete equations are derived for systems on `algebroid tangent` without constraints, with holonomic ones or with nonholonomic ones affine in the velocities (`discrete midpoint`, `discrete trapezoidal`), for contact systems on it without constraints or forces (`discrete midpoint`: the discrete Herglotz equations), and for the Lie algebra `algebroid so3` and the action algebroids of so(3) on a vector space, such as the heavy top's (`discrete cayley`, and `discrete lgvi` where the velocities enter as a kinetic energy with constant coefficients)")
}

/// The keys of the discrete multipliers, one per constraint.
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

/// Where a quadrature of `TQ` evaluates the Lagrangian and the forces over a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quadrature {
    /// Once, at `(t + h/2, (q_k + q_{k+1})/2, (q_{k+1} − q_k)/h)` with weight `h`.
    Midpoint,
    /// At `(t, q_k, (q_{k+1} − q_k)/h)` and `(t + h, q_{k+1}, (q_{k+1} − q_k)/h)`, weight `h/2` each.
    Trapezoidal,
}

impl Quadrature {
    /// The quadrature of a discretisation on `TQ`.
    fn of(method: Discretisation) -> Quadrature {
        match method {
            Discretisation::Trapezoidal => Quadrature::Trapezoidal,
            _ => Quadrature::Midpoint,
        }
    }

    /// The discretisation it is.
    fn method(self) -> Discretisation {
        match self {
            Quadrature::Midpoint => Discretisation::Midpoint,
            Quadrature::Trapezoidal => Discretisation::Trapezoidal,
        }
    }
}

/// The substitution that evaluates an expression of `(t, q, q')` at the point `at` of the step
/// (`0` its start, `1/2` its midpoint, `1` its end) with the velocity `(q_{k+1} − q_k)/h`.
pub(crate) fn at_point(
    system: &System,
    step: &Expr,
    next: &[Expr],
    at: Expr,
) -> std::collections::BTreeMap<String, Expr> {
    let time = system.key(system.time);
    let one = Expr::rational(1, 1);
    let mut point = std::collections::BTreeMap::new();
    point.insert(
        time.clone(),
        Expr::symbol(&time) + at.clone() * step.clone(),
    );
    let keys = system.keys(&system.coordinates);
    let velocities = system.keys(&system.algebroid.velocities);
    for ((q, q_next), v) in keys.iter().zip(next).zip(&velocities) {
        let q_now = Expr::symbol(q);
        point.insert(
            q.clone(),
            (one.clone() - at.clone()) * q_now.clone() + at.clone() * q_next.clone(),
        );
        point.insert(v.clone(), (q_next.clone() - q_now) / step.clone());
    }
    point
}

/// The discrete force `(h/2) F_i` at the point `at` of a step (zero without a force on `i`).
fn discrete_force(
    system: &System,
    step: &Expr,
    i: usize,
    at: &std::collections::BTreeMap<String, Expr>,
) -> Expr {
    match system.forces.get(i) {
        Some(f) if !f.is_zero() => (Expr::rational(1, 2) * step.clone() * f.subs(at)).simplify(),
        _ => Expr::zero(),
    }
}

/// The discrete constraint of `c`: a holonomic constraint `f` at the end of the step,
/// `f(t + h, q_{k+1})`; a nonholonomic one at the midpoint.
fn discrete_constraint(
    c: &model::Constraint,
    end: &std::collections::BTreeMap<String, Expr>,
    midpoint: &std::collections::BTreeMap<String, Expr>,
) -> Expr {
    match &c.position {
        Some(f) => f.subs(end).simplify(),
        None => c.psi.subs(midpoint).simplify(),
    }
}

/// The names a step on `TQ` is written in.
pub(crate) struct Names {
    /// The key of `h`.
    pub step_key: String,
    /// `h`.
    pub step: Expr,
    /// The coordinates `q_k`.
    pub keys: Vec<String>,
    /// The keys of `q_{k+1}`.
    pub next: Vec<String>,
    /// `q_{k+1}` as symbols.
    pub next_exprs: Vec<Expr>,
    /// The velocities.
    pub velocities: Vec<String>,
}

impl Names {
    /// The names of `system`'s steps.
    pub fn of(system: &System) -> Names {
        let table = &system.symbols;
        let step_key = table.key(table.step());
        let next: Vec<String> = system
            .coordinates
            .iter()
            .map(|&q| table.key(table.next(q)))
            .collect();
        Names {
            step: Expr::symbol(&step_key),
            step_key,
            keys: system.keys(&system.coordinates),
            next_exprs: next.iter().map(|k| Expr::symbol(k)).collect(),
            next,
            velocities: system.keys(&system.algebroid.velocities),
        }
    }

    /// The explicit predictor `q_k + h v_k` of `q_{k+1}`.
    pub fn predictor(&self) -> Vec<Expr> {
        self.keys
            .iter()
            .zip(&self.velocities)
            .map(|(q, v)| Expr::symbol(q) + self.step.clone() * Expr::symbol(v))
            .collect()
    }
}

/// The midpoint and trapezoidal rules on `TQ` (see the module documentation).
fn on_tangent(system: &System, quadrature: Quadrature) -> DiscreteEquations {
    let Names {
        step_key,
        step,
        keys,
        next,
        next_exprs,
        ..
    } = Names::of(system);
    let half = Expr::rational(1, 2);
    let start = at_point(system, &step, &next_exprs, Expr::zero());
    let at_midpoint = at_point(system, &step, &next_exprs, half.clone());
    let end = at_point(system, &step, &next_exprs, Expr::rational(1, 1));
    let force = |i: usize, at: &std::collections::BTreeMap<String, Expr>| {
        discrete_force(system, &step, i, at)
    };
    let (lagrangian, forces, next_forces): (Expr, Vec<Expr>, Vec<Expr>) = match quadrature {
        Quadrature::Midpoint => {
            let forces: Vec<Expr> = (0..keys.len()).map(|i| force(i, &at_midpoint)).collect();
            (
                (step.clone() * system.lagrangian.subs(&at_midpoint)).simplify(),
                forces.clone(),
                forces,
            )
        }
        Quadrature::Trapezoidal => (
            (half.clone()
                * step.clone()
                * (system.lagrangian.subs(&start) + system.lagrangian.subs(&end)))
            .simplify(),
            (0..keys.len()).map(|i| force(i, &start)).collect(),
            (0..keys.len()).map(|i| force(i, &end)).collect(),
        ),
    };
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
        .map(|c| discrete_constraint(c, &end, &at_midpoint))
        .collect();
    let next_momentum: Vec<Expr> = next
        .iter()
        .zip(&next_forces)
        .map(|(q, f)| (lagrangian.diff(q) + f.clone()).simplify())
        .collect();
    let unknowns: Vec<&String> = next.iter().chain(&multipliers).collect();
    let newton = momentum
        .iter()
        .chain(&constraints)
        .map(|p| unknowns.iter().map(|q| p.diff(q).simplify()).collect())
        .collect();
    DiscreteEquations {
        method: quadrature.method(),
        predictor: Names::of(system)
            .predictor()
            .into_iter()
            .chain(multipliers.iter().map(|_| Expr::zero()))
            .collect(),
        step: step_key,
        multipliers,
        constraints,
        positions: next_exprs,
        next,
        lagrangian,
        action: None,
        contraction: None,
        forces,
        next_forces,
        momentum,
        next_momentum,
        newton,
    }
}

/// The discrete equations of the midpoint or trapezoidal rule on `TQ` as a paper writes them, in
/// the step's own variables instead of `q_k, q_{k+1}`: the discrete velocity `q̇_{k+1/2} = (q_{k+1}
/// − q_k)/h` (the symbols [`model::symbols::Kind::Half`] of the velocities) and, for the midpoint
/// rule, the midpoint `q_{k+1/2} = (q_k + q_{k+1})/2` (those of the coordinates). With the
/// quadrature's nodes `c_j` and weights `w_j` (`L_d = h Σ w_j L(t + c_j h, (1 − c_j) q_k + c_j
/// q_{k+1}, q̇_{k+1/2})`) the chain rule gives
///
/// ```text
/// −D_1 L_d = Σ w_j [∂L/∂q̇ − h (1 − c_j) ∂L/∂q],     D_2 L_d = Σ w_j [∂L/∂q̇ + h c_j ∂L/∂q]
/// ```
///
/// at the nodes: for the midpoint rule `∂L/∂q̇ ∓ (h/2) ∂L/∂q` at the midpoint. The expanded forms
/// of [`DiscreteEquations`] cancel the differences out and grow with every product of `q_k` and
/// `q_{k+1}`; these keep them. The same equations, written otherwise: substituting the midpoint
/// and the discrete velocity gives the expanded ones (the goldens' tests check it). `None` for
/// other discretisations and for contact systems. The Newton matrix and the positions are
/// those of `d`.
pub fn in_step_variables(system: &System, d: &DiscreteEquations) -> Option<DiscreteEquations> {
    step_variables(system, d, true)
}

/// [`in_step_variables`], with the momenta and the discrete constraints left as the chain rule
/// builds them when `simplify` is false (sums of the Lagrangian's derivatives at the nodes,
/// unexpanded: what the step evaluates).
pub(crate) fn step_variables(
    system: &System,
    d: &DiscreteEquations,
    simplify: bool,
) -> Option<DiscreteEquations> {
    let tidy = |e: Expr| if simplify { e.simplify() } else { e };
    if d.action.is_some() || d.method.on_group() {
        return None;
    }
    let table = &system.symbols;
    let Names {
        step,
        keys,
        next_exprs,
        velocities,
        ..
    } = Names::of(system);
    let half = Expr::rational(1, 2);
    let midpoint: Vec<Expr> = system
        .coordinates
        .iter()
        .map(|&q| table.expr(table.half(q)))
        .collect();
    let slope: Vec<Expr> = system
        .algebroid
        .velocities
        .iter()
        .map(|&v| table.expr(table.half(v)))
        .collect();
    let time = system.key(system.time);
    // (t + c h, q, q̇_{k+1/2}) for a node c at the point `q`.
    let point = |c: &Expr, q: &[Expr]| -> std::collections::BTreeMap<String, Expr> {
        let mut map = std::collections::BTreeMap::new();
        map.insert(time.clone(), Expr::symbol(&time) + c.clone() * step.clone());
        for ((key, v), (value, velocity)) in keys.iter().zip(&velocities).zip(q.iter().zip(&slope))
        {
            map.insert(key.clone(), value.clone());
            map.insert(v.clone(), velocity.clone());
        }
        map
    };
    let now: Vec<Expr> = keys.iter().map(|k| Expr::symbol(k)).collect();
    let one = Expr::rational(1, 1);
    // (c_j, w_j, the point there).
    let nodes: Vec<(Expr, Expr, std::collections::BTreeMap<String, Expr>)> = match d.method {
        Discretisation::Trapezoidal => vec![
            (Expr::zero(), half.clone(), point(&Expr::zero(), &now)),
            (one.clone(), half.clone(), point(&one, &next_exprs)),
        ],
        _ => vec![(half.clone(), one.clone(), point(&half, &midpoint))],
    };
    let lagrangian = nodes
        .iter()
        .fold(Expr::zero(), |acc, (_, w, at)| {
            acc + step.clone() * w.clone() * system.lagrangian.subs(at)
        })
        .simplify();
    let force = |i: usize, at: &std::collections::BTreeMap<String, Expr>| {
        discrete_force(system, &step, i, at)
    };
    let (first, last) = (&nodes[0].2, &nodes[nodes.len() - 1].2);
    let forces: Vec<Expr> = (0..keys.len()).map(|i| force(i, first)).collect();
    let next_forces: Vec<Expr> = (0..keys.len()).map(|i| force(i, last)).collect();
    let multipliers = multipliers(system);
    let legendre = |i: usize, end: bool| {
        nodes.iter().fold(Expr::zero(), |acc, (c, w, at)| {
            let along = if end {
                c.clone()
            } else {
                -(one.clone() - c.clone())
            };
            acc + w.clone()
                * (system.lagrangian.diff(&velocities[i]).subs(at)
                    + along * step.clone() * system.lagrangian.diff(&keys[i]).subs(at))
        })
    };
    let momentum = (0..keys.len())
        .map(|i| tidy(legendre(i, false) - forces[i].clone() + impulse(system, &multipliers, i)))
        .collect();
    let next_momentum = (0..keys.len())
        .map(|i| tidy(legendre(i, true) + next_forces[i].clone()))
        .collect();
    let at_midpoint = point(&half, &midpoint);
    let constraints = system
        .constraints
        .iter()
        .zip(&d.constraints)
        .map(|(c, expanded)| match &c.position {
            Some(_) => expanded.clone(),
            None => tidy(c.psi.subs(&at_midpoint)),
        })
        .collect();
    Some(DiscreteEquations {
        lagrangian,
        forces,
        next_forces,
        momentum,
        next_momentum,
        constraints,
        ..d.clone()
    })
}
