//! One step of the discrete equations in double precision, in process: the variational
//! integrator of `dalembert simulate --method variational`.
//!
//! The state is the flow's `(q, v)`, so that a run reads like any other. A step from `(t, q_k,
//! v_k)` with step `h`:
//!
//! 1. `p_k = ∂L/∂v(t, q_k, v_k)`, the continuous Legendre transform;
//! 2. the unknowns (`q_{k+1}`, with the discrete multipliers `λ_k` of constraints;
//!    on so(3) the discrete velocities) solve `p_k = −D_1 L_d(q_k, q_{k+1}) − f_d^− + μᵀλ_k`
//!    ([`super::DiscreteEquations::momentum`]) and the discrete constraints, by Newton's method
//!    with the derived matrix ([`super::DiscreteEquations::newton`]), from the explicit predictor
//!    (`q_k + h v_k` and `λ = 0`; `v_k` on so(3)), until a correction is at most
//!    `4 ε max(1, |unknowns|_∞)` (or, within 1024 times that, fails to halve: round-off is
//!    reached; [`converged`]), in at most [`NEWTON_ITERATIONS`] iterations;
//! 3. `p_{k+1} = D_2 L_d + f_d^+`;
//! 4. `v_{k+1}` solves `∂L/∂v(t + h, q_{k+1}, v_{k+1}) = p_{k+1}`, which for a Lagrangian quadratic in
//!    the velocities is the linear system `W(t + h, q_{k+1}) v_{k+1} = p_{k+1} − a(t + h, q_{k+1})`
//!    (`a = ∂L/∂v` at `v = 0`). With constraints (nonholonomic, or holonomic through their
//!    velocity form `μ = ∂f/∂q`, `μ_0 = ∂f/∂t`: RATTLE's projection) the velocities are recovered
//!    on them, `W v + μᵀ ν = p_{k+1} − a`, `μ v = −μ_0` at `(t + h, q_{k+1})`: the shift `μᵀ ν` of
//!    `p_{k+1}` lies along the constraint forces at `q_{k+1}`, which the next step's multipliers
//!    absorb, so the positions of the discrete flow are unchanged and the state it reports
//!    satisfies the constraints.
//!
//! On a contact system (`action z`, [`super::herglotz`]) the state ends with the action, and
//! step 2 solves the discrete Herglotz equation `p_k = −D_1 L_d / (1 + D_3 L_d)`; step 3 also
//! gives `z_{k+1} = z_k + L_d`, at which step 4 reads `W` and `a`.
//!
//! The work of the forces over the step, `(f_d^− + f_d^+)·(q_{k+1} − q_k)/h` (the discrete forces
//! are impulses, `h F` between them), is returned with it:
//! for a quadratic energy it is the step's energy change exactly (the damped oscillator's
//! golden proves it), so a run can check `E − E(0) − work` as it does for the continuous flows.
//! Given functions of time and inputs are read at the step's midpoint `t + h/2`, where the
//! discrete Lagrangian reads them.

use std::collections::BTreeMap;

use cas::program::Program;
use cas::Expr;
use model::System;

use super::DiscreteEquations;
use crate::base::dense::solve_vector;

/// Newton iterations allowed for `q_{k+1}`.
pub const NEWTON_ITERATIONS: usize = 50;

/// The tolerance of Newton's method, in units of the arithmetic's `ε` and of
/// `max(1, |q_{k+1}|_∞)`.
pub const NEWTON_TOLERANCE: f64 = 4.0;

/// Within this factor of the tolerance, a correction that does not halve the one before ends
/// the iteration too: round-off is reached.
pub const ROUND_OFF_WINDOW: f64 = 1024.0;

/// Whether Newton's method has converged after a correction of size `size` (the one before was
/// `previous`) at `q_{k+1}` of size `scale = max(1, |q_{k+1}|_∞)`: the correction is within the
/// tolerance, or near it and no longer halving (the emitted step decides the same way).
pub fn converged(size: f64, previous: f64, scale: f64) -> bool {
    let tolerance = NEWTON_TOLERANCE * f64::EPSILON * scale;
    size <= tolerance || (size <= ROUND_OFF_WINDOW * tolerance && size > previous / 2.0)
}

/// The compiled step of a system (see the module documentation).
pub struct Stepper {
    /// `p = ∂L/∂v` at `(t, q, v)`, then the predictor of the unknowns.
    legendre: Program,
    /// `p_k(unknowns)` then `∂p_k/∂(unknowns)` by rows.
    newton: Program,
    /// `q_{k+1}`, `p_{k+1}`, then `W` by rows and `a` at `(t + h, q_{k+1})`, `μ` and `β` there,
    /// `f_d^− + f_d^+`, then `z_{k+1}` on a contact system.
    recover: Program,
    /// The coordinates.
    m: usize,
    /// The velocities.
    n: usize,
    /// The action variables after them in the state: 1 for a contact system, else 0.
    action: usize,
    /// The unknowns: `n` and the discrete multipliers.
    unknowns: usize,
    /// The names of the values every program reads after the state: the parameters, inputs and
    /// functions of time, in order.
    pub others: Vec<String>,
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stepped {
    /// Newton iterations taken.
    pub iterations: usize,
    /// `(f_d^− + f_d^+)·(q_{k+1} − q_k)/h`.
    pub work: f64,
}

impl Stepper {
    /// Compiles the step of `system` from its discrete equations; `Err` when the Lagrangian is
    /// not quadratic in the velocities (step 4 would need a nonlinear solve).
    pub fn new(system: &System, equations: &DiscreteEquations) -> Result<Stepper, String> {
        let time = system.key(system.time);
        let step = equations.step.clone();
        let coordinates = system.keys(&system.coordinates);
        let velocities = system.keys(&system.algebroid.velocities);
        let action: Vec<String> = equations.action_key(system).into_iter().collect();
        let Recovery {
            legendre,
            mass,
            offset,
            jacobian,
            bias,
        } = Recovery::of(system, equations)?;
        let legendre_outputs: Vec<Expr> = legendre
            .iter()
            .chain(&equations.predictor)
            .cloned()
            .collect();
        let numerical = Numerical::of(system, equations);
        let newton_outputs: Vec<Expr> = numerical
            .momentum
            .iter()
            .chain(&numerical.constraints)
            .chain(&numerical.newton)
            .cloned()
            .collect();
        let recover_outputs: Vec<Expr> = equations
            .positions
            .iter()
            .chain(&numerical.next_momentum)
            .chain(mass.iter().flatten())
            .chain(&offset)
            .chain(jacobian.iter().flatten())
            .chain(&bias)
            .cloned()
            .chain(
                equations
                    .forces
                    .iter()
                    .zip(&equations.next_forces)
                    .map(|(minus, plus)| (minus.clone() + plus.clone()).simplify()),
            )
            .chain(numerical.action.iter().cloned())
            .collect();
        let own: Vec<String> = std::iter::once(time.clone())
            .chain(std::iter::once(step.clone()))
            .chain(coordinates.iter().cloned())
            .chain(velocities.iter().cloned())
            .chain(action.iter().cloned())
            .chain(equations.unknowns())
            .collect();
        let bound = numerical.bound();
        let others: Vec<String> = legendre_outputs
            .iter()
            .chain(&newton_outputs)
            .chain(&recover_outputs)
            .flat_map(|e| e.symbols())
            .filter(|s| !own.contains(s) && !bound.contains(s) && s != cas::PI_NAME)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let inputs: Vec<String> = own.iter().chain(&others).cloned().collect();
        // The Legendre transform reads q_k and v_k only; the others read the bindings.
        let compile = |outputs: &[Expr], bindings: &[(String, Expr)]| -> Result<Program, String> {
            let mut p = Program::new(inputs.clone());
            for (name, value) in bindings {
                p.bind(name, value)
                    .map_err(|u| format!("the step cannot compute {}", u.0))?;
            }
            for (k, e) in outputs.iter().enumerate() {
                p.output(format!("out[{k}]"), e)
                    .map_err(|u| format!("the step cannot compute {}", u.0))?;
            }
            Ok(p)
        };
        Ok(Stepper {
            legendre: compile(&legendre_outputs, &[])?,
            newton: compile(&newton_outputs, &numerical.bindings)?,
            recover: compile(&recover_outputs, &numerical.bindings)?,
            m: coordinates.len(),
            n: velocities.len(),
            action: action.len(),
            unknowns: equations.predictor.len(),
            others,
        })
    }

    /// One step from `x = (q, v)` (with the action `z` after them on a contact system) at `t` with step `h` into `next`, with `others` the values
    /// of [`Stepper::others`] (inputs and functions of time at `t + h/2`); `Err` when Newton's
    /// method does not converge or a matrix is singular.
    pub fn step(
        &self,
        t: f64,
        h: f64,
        x: &[f64],
        others: &[f64],
        next: &mut [f64],
    ) -> Result<Stepped, String> {
        let (m, n, u, a) = (self.m, self.n, self.unknowns, self.action);
        let (q, v) = x[..m + n + a].split_at(m);
        let inputs = |unknowns: &[f64]| -> Vec<f64> {
            let mut all = Vec::with_capacity(2 + m + n + a + u + others.len());
            all.push(t);
            all.push(h);
            all.extend_from_slice(q);
            all.extend_from_slice(v);
            all.extend_from_slice(unknowns);
            all.extend_from_slice(others);
            all
        };
        let started = self.legendre.evaluate(&inputs(&vec![0.0; u]));
        let (momentum, predictor) = started.split_at(n);
        let mut unknowns = predictor.to_vec();
        let mut iterations = 0;
        let mut previous = f64::INFINITY;
        loop {
            if iterations == NEWTON_ITERATIONS {
                return Err(format!(
                    "Newton's method for the next step did not converge in {NEWTON_ITERATIONS} iterations at t = {t}"
                ));
            }
            iterations += 1;
            let values = self.newton.evaluate(&inputs(&unknowns));
            // p_k(unknowns) − p_k, then the discrete constraints.
            let residual: Vec<f64> = (0..u)
                .map(|i| values[i] - momentum.get(i).copied().unwrap_or(0.0))
                .collect();
            let correction = solve_vector(&rows(&values[u..], u), &residual, 0.0)
                .ok_or_else(|| format!("the matrix of Newton's method is singular at t = {t}"))?;
            let size = correction.iter().fold(0.0f64, |m, c| m.max(c.abs()));
            for (u, c) in unknowns.iter_mut().zip(&correction) {
                *u -= c;
            }
            let scale = unknowns.iter().fold(1.0f64, |m, u| m.max(u.abs()));
            if !size.is_finite() {
                return Err(format!("Newton's method diverged at t = {t}"));
            }
            if converged(size, previous, scale) {
                break;
            }
            previous = size;
        }
        let values = self.recover.evaluate(&inputs(&unknowns));
        let (q1, rest) = values.split_at(m);
        let (p1, rest) = rest.split_at(n);
        let (mass, rest) = rest.split_at(n * n);
        let (offset, rest) = rest.split_at(n);
        let c = u - n;
        let (jacobian, rest) = rest.split_at(c * n);
        let (bias, rest) = rest.split_at(c);
        let (forces, action) = rest.split_at(n);
        // [W μᵀ; μ 0] [v; ν] = [p_{k+1} − a; β]: the velocities on the constraints (a shift of
        // p_{k+1} along μᵀ, which the next step's multipliers absorb: q_{k+2} is unchanged).
        let mut matrix = vec![vec![0.0; n + c]; n + c];
        for i in 0..n {
            matrix[i][..n].copy_from_slice(&mass[i * n..(i + 1) * n]);
        }
        for a in 0..c {
            for j in 0..n {
                matrix[n + a][j] = jacobian[a * n + j];
                matrix[j][n + a] = jacobian[a * n + j];
            }
        }
        let right: Vec<f64> = p1
            .iter()
            .zip(offset)
            .map(|(p, a)| p - a)
            .chain(bias.iter().copied())
            .collect();
        let v1 = solve_vector(&matrix, &right, 0.0)
            .ok_or_else(|| format!("the mass matrix is singular at t = {}", t + h))?;
        next[..m].copy_from_slice(q1);
        next[m..m + n].copy_from_slice(&v1[..n]);
        next[m + n..m + n + a].copy_from_slice(action);
        // Forces act on tangent systems only (coordinates and velocities pair up).
        let work = forces
            .iter()
            .zip(q1.iter().zip(q))
            .map(|(f, (a, b))| f * (a - b))
            .sum::<f64>()
            / h;
        Ok(Stepped { iterations, work })
    }
}

/// What recovers the velocities from the momenta: the continuous Legendre transform and its
/// linear part at the next step, for a Lagrangian quadratic in the velocities (step 4 of the
/// module documentation).
#[derive(Clone, Debug)]
pub struct Recovery {
    /// `p = ∂L/∂v(t, q, v)`, one per velocity.
    pub legendre: Vec<Expr>,
    /// `W(t + h, q_{k+1}) = ∂²L/∂v∂v` there, `[i][j]` (`q_{k+1}` as the discrete equations'
    /// `positions` give it).
    pub mass: Vec<Vec<Expr>>,
    /// `a(t + h, q_{k+1}) = ∂L/∂v` at `v = 0` there.
    pub offset: Vec<Expr>,
    /// The constraints' `μ(t + h, q_{k+1})`, `[a][j]`: `v_{k+1}` is recovered on the
    /// constraints, `W v + μᵀ ν = p_{k+1} − a`, `μ v = β`.
    pub jacobian: Vec<Vec<Expr>>,
    /// `β = −μ_0(t + h, q_{k+1})`, one per constraint.
    pub bias: Vec<Expr>,
}

impl Recovery {
    /// The recovery of `system`'s velocities at the next step of `equations`; `Err` (why) when
    /// the Lagrangian is not quadratic in the velocities.
    pub fn of(system: &System, equations: &DiscreteEquations) -> Result<Recovery, String> {
        let time = system.key(system.time);
        let velocities = system.keys(&system.algebroid.velocities);
        let legendre: Vec<Expr> = velocities
            .iter()
            .map(|v| system.lagrangian.diff(v))
            .collect();
        let mass: Vec<Vec<Expr>> = legendre
            .iter()
            .map(|p| velocities.iter().map(|v| p.diff(v).simplify()).collect())
            .collect();
        if mass
            .iter()
            .flatten()
            .any(|w| velocities.iter().any(|v| w.depends_on(v)))
        {
            return Err("the Lagrangian is not quadratic in the velocities, so the velocities of the next step would solve a nonlinear system".into());
        }
        let at_rest: BTreeMap<String, Expr> = velocities
            .iter()
            .map(|v| (v.clone(), Expr::zero()))
            .collect();
        let next_point: BTreeMap<String, Expr> = system
            .keys(&system.coordinates)
            .into_iter()
            .zip(&equations.positions)
            .map(|(q, q1)| (q, q1.clone()))
            .chain(std::iter::once((
                time.clone(),
                Expr::symbol(&time) + Expr::symbol(&equations.step),
            )))
            .chain(equations.action_key(system).zip(equations.action.clone()))
            .collect();
        let jacobian = system
            .constraints
            .iter()
            .map(|c| {
                c.mu.iter()
                    .map(|m| m.subs(&next_point).simplify())
                    .collect()
            })
            .collect();
        let bias = system
            .constraints
            .iter()
            .map(|c| (-c.mu0.subs(&next_point)).simplify())
            .collect();
        Ok(Recovery {
            jacobian,
            bias,
            mass: mass
                .iter()
                .map(|row| row.iter().map(|w| w.subs(&next_point)).collect())
                .collect(),
            offset: legendre
                .iter()
                .map(|p| p.subs(&at_rest).subs(&next_point).simplify())
                .collect(),
            legendre,
        })
    }
}

/// The forms of the discrete equations a step evaluates numerically, in process and in emitted
/// code alike. On `TQ` they are written in the step's own variables, bound from the increments
/// `δ = q_{k+1} − q_k` ([`Numerical::bindings`], computed first; for a contact system in `q_k` and
/// the increments): written in `q_k` and `q_{k+1}` and simplified, the
/// equations that difference the two ends of the step expand `(q_{k+1} − q_k)²` into
/// `q_{k+1}² − 2 q_k q_{k+1} + q_k²`, which cancels catastrophically when a coordinate grows
/// large (a wheel's spin angle after many turns); in `q_k` and `δ` the difference is exact. On
/// so(3) and its action algebroids, whose unknowns are velocities, they are the equations as
/// derived, without bindings, with the moved base point `x_{k+1}` written out in `p_{k+1}`.
pub struct Numerical {
    /// What is computed first, in order: the increments `(δ_i, q_{k+1,i} − q_{k,i})`, and on
    /// `TQ` without an action after each its midpoint `q_{k,i} + δ_i/2` (midpoint rule) and its
    /// discrete velocity `δ_i/h`; none on so(3).
    pub bindings: Vec<(String, Expr)>,
    /// `p_k` as a function of the unknowns.
    pub momentum: Vec<Expr>,
    /// The discrete constraints `ω_d`.
    pub constraints: Vec<Expr>,
    /// Newton's matrix, row-major.
    pub newton: Vec<Expr>,
    /// `p_{k+1}`.
    pub next_momentum: Vec<Expr>,
    /// A contact system's `z_{k+1}`.
    pub action: Option<Expr>,
}

impl Numerical {
    /// The numerical forms of `equations`.
    pub fn of(system: &System, equations: &DiscreteEquations) -> Numerical {
        if let Some(shown) = super::step_variables(system, equations, false) {
            return Numerical::in_step_variables(system, equations, &shown);
        }
        let mut bindings = Vec::new();
        let mut substitution = BTreeMap::new();
        if !equations.method.on_group() {
            for (q, next) in system.keys(&system.coordinates).iter().zip(&equations.next) {
                let delta = format!("{next}_increment");
                bindings.push((delta.clone(), Expr::symbol(next) - Expr::symbol(q)));
                substitution.insert(next.clone(), Expr::symbol(q) + Expr::symbol(&delta));
            }
        } else {
            // On an action algebroid, p_{k+1} reads the moved base point x_{k+1}.
            let table = &system.symbols;
            for (&q, moved) in system.coordinates.iter().zip(&equations.positions) {
                substitution.insert(table.key(table.next(q)), moved.clone());
            }
        }
        let rewrite = |e: &Expr| {
            if substitution.is_empty() {
                e.clone()
            } else {
                e.subs(&substitution).simplify()
            }
        };
        let all = |es: &[Expr]| es.iter().map(rewrite).collect::<Vec<_>>();
        Numerical {
            momentum: all(&equations.momentum),
            constraints: all(&equations.constraints),
            newton: equations.newton.iter().flatten().map(rewrite).collect(),
            next_momentum: all(&equations.next_momentum),
            action: equations.action.as_ref().map(rewrite),
            bindings,
        }
    }

    /// The forms on `TQ` (midpoint and trapezoidal rules): the equations in the step's own
    /// variables (`shown`, [`super::in_step_variables`]), bound from the increments `δ = q_{k+1} −
    /// q_k` as the midpoint `q_k + δ/2` (midpoint rule) and the discrete velocity `δ/h`. They
    /// keep the quadrature's structure instead of its expansion in `q_k, q_{k+1}`, so they are
    /// smaller; Newton's matrix follows by the chain rule, `∂/∂q_{k+1} = ½ ∂/∂q_{k+1/2} + (1/h)
    /// ∂/∂q̇_{k+1/2}` (with the trapezoidal rule, `∂/∂q_{k+1}` of its end node instead of the
    /// midpoint's).
    fn in_step_variables(
        system: &System,
        equations: &DiscreteEquations,
        shown: &DiscreteEquations,
    ) -> Numerical {
        let table = &system.symbols;
        let step = Expr::symbol(&equations.step);
        let midpoint_rule = equations.method == model::Discretisation::Midpoint;
        let mut bindings = Vec::new();
        let mut substitution = BTreeMap::new();
        // (q_{k+1}, q_{k+1/2}, q̇_{k+1/2}) by coordinate.
        let mut chains = Vec::new();
        for ((&q, &v), next) in system
            .coordinates
            .iter()
            .zip(&system.algebroid.velocities)
            .zip(&equations.next)
        {
            let now = table.expr(q);
            let delta = format!("{next}_increment");
            let increment = Expr::symbol(&delta);
            bindings.push((delta, Expr::symbol(next) - now.clone()));
            let midpoint = table.key(table.half(q));
            if midpoint_rule {
                bindings.push((
                    midpoint.clone(),
                    now.clone() + Expr::rational(1, 2) * increment.clone(),
                ));
            }
            let slope = table.key(table.half(v));
            bindings.push((slope.clone(), increment.clone() / step.clone()));
            substitution.insert(next.clone(), now + increment);
            chains.push((next.clone(), midpoint, slope));
        }
        // Not simplified: the chain rule's sums keep the Lagrangian's structure (its powers of
        // differences), which the expanded normal form would multiply out.
        let rewrite = |e: &Expr| e.subs(&substitution);
        let along = |e: &Expr, (next, midpoint, slope): &(String, String, String)| {
            let mut d = e.diff(next) + e.diff(slope) / step.clone();
            if midpoint_rule {
                d = d + Expr::rational(1, 2) * e.diff(midpoint);
            }
            rewrite(&d)
        };
        let newton = shown
            .momentum
            .iter()
            .chain(&shown.constraints)
            .flat_map(|row| {
                chains
                    .iter()
                    .map(|chain| along(row, chain))
                    .chain(equations.multipliers.iter().map(|l| rewrite(&row.diff(l))))
                    .collect::<Vec<_>>()
            })
            .collect();
        let all = |es: &[Expr]| es.iter().map(rewrite).collect::<Vec<_>>();
        Numerical {
            momentum: all(&shown.momentum),
            constraints: all(&shown.constraints),
            newton,
            next_momentum: all(&shown.next_momentum),
            action: None,
            bindings,
        }
    }

    /// The names the bindings give.
    pub fn bound(&self) -> Vec<String> {
        self.bindings.iter().map(|(name, _)| name.clone()).collect()
    }
}

/// The `n × n` matrix stored row-major at the start of `flat`.
fn rows(flat: &[f64], n: usize) -> Vec<Vec<f64>> {
    flat[..n * n]
        .chunks(n.max(1))
        .map(<[f64]>::to_vec)
        .collect()
}
