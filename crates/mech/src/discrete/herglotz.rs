//! The discrete Herglotz equations of a contact system (`action z`, a Lagrangian `L(t, q, q', z)`
//! on `TQ × ℝ`): Vermeeren, Bravetti and Seri, *Contact variational integrators*, J. Phys. A 52
//! (2019) 445206, §3; Anahory Simoes, Martín de Diego, Lainz Valcázar and de León, *On the
//! geometry of discrete contact mechanics*, J. Nonlinear Sci. (2021).
//!
//! A discrete contact Lagrangian `L_d(q_k, q_{k+1}, z_k)` advances the action over a step,
//! `z_{k+1} = z_k + L_d(q_k, q_{k+1}, z_k)`, and the discrete Herglotz principle makes `z_N`
//! stationary among sequences with fixed ends. Varying `q_k` (the variations of `z` follow from
//! the update, `δz_{k+1} = (1 + D_3 L_d) δz_k + D_1 L_d δq_k + D_2 L_d δq_{k+1}`) gives the
//! discrete Herglotz equations
//!
//! ```text
//! D_1 L_d(q_k, q_{k+1}, z_k) + (1 + D_3 L_d(q_k, q_{k+1}, z_k)) D_2 L_d(q_{k−1}, q_k, z_{k−1}) = 0,
//! ```
//!
//! which in position–momentum form, with `p_k = D_2 L_d(q_{k−1}, q_k, z_{k−1})`, are the discrete
//! contact Legendre transforms
//!
//! ```text
//! p_k = −D_1 L_d / (1 + D_3 L_d),     p_{k+1} = D_2 L_d,     z_{k+1} = z_k + L_d,
//! ```
//!
//! all at `(q_k, q_{k+1}, z_k)`. As `h → 0` they tend to `ṗ = ∂L/∂q + p ∂L/∂z`, `ż = L`: the
//! Herglotz equations. A step solves the first for `q_{k+1}` by Newton's method and evaluates the
//! others; the map `(q_k, p_k, z_k) ↦ (q_{k+1}, p_{k+1}, z_{k+1})` is a contact transformation
//! (conformally symplectic on `(q, p)` with the factor `1 + D_3 L_d` per step).
//!
//! The discrete Lagrangian is the midpoint rule in `q` with the action carried over the step by
//! the explicit midpoint rule (ours; the papers leave the quadrature open):
//!
//! ```text
//! L_d(q_k, q_{k+1}, z_k) = h L(t + h/2, q̄, Δq/h, z_k + (h/2) L(t + h/2, q̄, Δq/h, z_k)),
//! q̄ = (q_k + q_{k+1})/2,  Δq = q_{k+1} − q_k,
//! ```
//!
//! so that `z_{k+1} − z_k` approximates `∫ L dt` to `O(h³)` along the solution, and the method is
//! of order two (the golden's test measures it). For the linear friction `L = L_0 − γ z` the
//! factor `1 + D_3 L_d = 1 − hγ + (hγ)²/2` is the quadratic Taylor polynomial of `e^{−hγ}`, the
//! continuous contraction of the momenta over a step.

use std::collections::BTreeMap;

use cas::Expr;
use model::{Discretisation, System};

use super::DiscreteEquations;

/// Why the discrete Herglotz equations are not derived for this contact system, if they are not.
pub(super) fn refusal(system: &System, method: Discretisation) -> Option<&'static str> {
    if method != Discretisation::Midpoint {
        Some("with an action (a contact system: `discrete midpoint` derives its discrete Herglotz equations)")
    } else if !system.constraints.is_empty() {
        Some("with an action and constraints")
    } else if system.forces.iter().any(|f| !f.is_zero()) {
        Some("with an action and forces")
    } else {
        None
    }
}

/// The discrete Herglotz equations of a contact system on `TQ` (see the module documentation).
pub(super) fn equations(system: &System, action: &str) -> DiscreteEquations {
    let names = super::Names::of(system);
    let super::Names {
        step,
        keys,
        next,
        next_exprs,
        ..
    } = &names;
    let half = Expr::rational(1, 2);
    let at_midpoint = super::at_point(system, step, next_exprs, half.clone());
    let z = Expr::symbol(action);
    // L at the midpoint with the action of the start, then with the action carried to the
    // midpoint by it.
    let start = system.lagrangian.subs(&at_midpoint);
    let carried: BTreeMap<String, Expr> = std::iter::once((
        action.to_string(),
        z.clone() + half.clone() * step.clone() * start.clone(),
    ))
    .collect();
    let lagrangian = (step.clone() * start.subs(&carried)).simplify();
    let factor = (Expr::rational(1, 1) + lagrangian.diff(action)).simplify();
    let momentum: Vec<Expr> = keys
        .iter()
        .map(|q| (-lagrangian.diff(q) / factor.clone()).simplify())
        .collect();
    let next_momentum: Vec<Expr> = next.iter().map(|q| lagrangian.diff(q).simplify()).collect();
    let newton = momentum
        .iter()
        .map(|p| next.iter().map(|q| p.diff(q).simplify()).collect())
        .collect();
    let n = keys.len();
    DiscreteEquations {
        method: Discretisation::Midpoint,
        step: names.step_key.clone(),
        predictor: names.predictor(),
        multipliers: Vec::new(),
        constraints: Vec::new(),
        positions: next_exprs.clone(),
        next: next.clone(),
        action: Some((z + lagrangian.clone()).simplify()),
        contraction: Some(factor),
        lagrangian,
        forces: vec![Expr::zero(); n],
        next_forces: vec![Expr::zero(); n],
        momentum,
        next_momentum,
        newton,
    }
}
