//! [IMMS08] §3.1 and §4: the constraint algorithm of a singular Lagrangian on a Lie algebroid, and
//! the SODE step.
//!
//! On the prolongation `𝒯^E E` (basis `𝒳_A`, `𝒱_A`; anchors `ρ(𝒳_A) = ρ^i_A ∂_{x^i}`,
//! `ρ(𝒱_A) = ∂_{y^A}`) the dynamics is `i_X ω_L = dE_L` with `ω_L` the Poincaré–Cartan
//! 2-section ([`crate::lagrange::lagrangian`]'s `Ω_L` without its time row, which is the `ω_L`
//! of [IMMS08]: `ω(𝒳_A, 𝒱_B) = W_AB`, `ω(𝒳_A, 𝒳_B) = ρ_B(p_A) − ρ_A(p_B) + C^C_AB p_C`) and
//! `dE_L = ρ_A(E_L) 𝒳^A + ∂E_L/∂y^A 𝒱^A`. In components, `Σ_P X^P ω_PQ = dE_L(Q)` for every
//! basis element `Q`. When `W` is singular this has no solution everywhere, and the algorithm
//! (3.5)–(3.6) looks for the points where it has one, tangent to where they are:
//!
//! 1. with the constraints `φ_j` found so far (none at first), stack the rows `ω_·Q` and the
//!    tangency rows `d^E φ_j = (ρ_A(φ_j), ∂φ_j/∂y^A)`, reduce them on the current constraint
//!    set, and eliminate: every combination of rows that vanishes gives the condition that the
//!    same combination of `(dE_L, 0)` vanish — a new constraint (this is `α(Z) = 0` for `Z` in
//!    `(E_k)^⊥`, the computable form of (3.6));
//! 2. stop when a step finds nothing new (the level is the number of steps that did); a
//!    non-zero constant is an inconsistent system (E0305); more steps than the dimension of `E`
//!    means the rank changed (E0307).
//!
//! A constraint linear in some coordinate or velocity whose coefficient is, on the constraint
//! set, a non-zero constant (free of the coordinates and velocities) is solved for it (the
//! simplest such coefficient), and the variable leaves the state. Any other constraint (a sphere
//! `x² + y² + z² − l²`, its tangency `x ẋ + y ẏ + z ż`) is *kept as an equation*: the constraint
//! set is then a substitution together with a polynomial ideal ([`cas::Ideal`], a Gröbner basis),
//! every zero test is made on that set, the tangency rows of kept constraints take part in every
//! later step like the others, and the final motion is an ODE on the variables that remain, to
//! be read on the set the kept constraints define (emitted code projects onto them). This is the
//! algorithm without the paper's standing assumption that each constraint set is given by solved
//! variables (the Gotay–Nester algorithm as it runs on a closed kinematic chain or a mechanical
//! system with its constraint force as a coordinate). Then the SODE step (Theorems 4.4–4.6): the solutions are
//! `X = X_p + f^j Z_j` with `Z_j` spanning `ker ω ∩ E_f`; `X^A = y^A` (a second-order equation)
//! is solved for the `f^j`, and what cannot be solved are the SODE constraints `S^X`. Finally the
//! `𝒱` components are fixed by the equations with `X^A = y^A` and tangency to every constraint;
//! any direction left free is reported (gauge). The motion on the final set is
//! `ẋ^i = ρ^i_A y^A`, `ẏ^A = V^A` on the variables that remain.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use model::System;

use crate::base::algebra::anchor_apply;
use crate::base::constraint_set::{show, Constraints};
pub use crate::base::constraint_set::{Step, StepKind};
use crate::base::elimination::{reduce, within, Pivoting, Reduced};
use crate::lagrange::lagrangian::Lagrangian;

/// An unknown of `i_X ω_L = dE_L`: a component of `X = X^A 𝒳_A + V^A 𝒱_A` (for
/// `algebroid tangent`, `X^A` is the rate of the coordinate `q^A` and `V^A` that of `q'^A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// `X^A`, the component along `𝒳_A`.
    Horizontal(usize),
    /// `V^A`, the component along `𝒱_A`: the rate of the velocity `y^A`.
    Vertical(usize),
}

/// The unknowns an elimination of the algorithm determined for the first time (whatever the
/// directions it leaves free), with their values on the constraint set then: which rates or
/// accelerations (and so which multipliers, for a constraint force carried as a coordinate)
/// each step fixes.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// The round: `Consistency(k)` for the elimination that found the constraints of step `k`
    /// (or, for `k = level + 1`, that found nothing new), `Sode` for the accelerations the SODE
    /// step's equations fix.
    pub kind: StepKind,
    /// The unknowns and their values.
    pub values: Vec<(Unknown, Expr)>,
}

/// The outcome of the constraint algorithm.
#[derive(Clone, Debug)]
pub struct Algorithm {
    /// Every step that found constraints, in order.
    pub steps: Vec<Step>,
    /// What each elimination fixed, in order.
    pub fixed: Vec<Fixed>,
    /// The level at which the consistency steps stabilised.
    pub level: usize,
    /// The final constraint set, as the values of the variables solved for.
    pub solved: BTreeMap<String, Expr>,
    /// The constraints kept as equations on the final set (in the variables that remain), which
    /// the motion preserves: what emitted code projects onto.
    pub kept: Vec<Expr>,
    /// The ideal of the kept constraints, for zero tests on the final set.
    pub ideal: cas::Ideal,
    /// The variables that remain: coordinates, then velocities.
    pub state: Vec<String>,
    /// Their rates on the final constraint set.
    pub rates: Vec<Expr>,
    /// The directions of `ẏ` left free by the equations (gauge), each as a vector over the
    /// velocities that remain.
    pub gauge: Vec<Vec<Expr>>,
    /// `E_L` on the final set.
    pub energy: Expr,
    /// The pivots of the eliminations that are functions, not numbers: the algorithm assumed
    /// them non-zero, and where one vanishes the rank of `ω_L` (or of its restriction) changes —
    /// a failure of the paper's regularity assumptions (the rank is assumed constant there).
    pub assumptions: Vec<Expr>,
}

/// The largest number of steps (consistency and SODE) before E0307.
fn step_budget(system: &System) -> usize {
    2 * (system.coordinates.len() + system.rank()) + 2
}

/// Runs the algorithm on a system whose `W` is singular (see the module documentation).
pub fn derive(
    system: &System,
    lag: &Lagrangian,
    options: &crate::Options,
) -> diagnostic::Result<Algorithm> {
    refuse_unsupported(system)?;
    let n = system.rank();
    let alg = &system.algebroid;
    // ω_PQ over (𝒳_1..𝒳_n, 𝒱_1..𝒱_n): Ω_L without its time row and column.
    let omega: Vec<Vec<Expr>> = (1..=2 * n)
        .map(|p| (1..=2 * n).map(|q| lag.omega[p][q].clone()).collect())
        .collect();
    let energy = &lag.energy;
    let alpha: Vec<Expr> = (0..n)
        .map(|a| anchor_apply(system, a + 1, energy))
        .chain(alg.velocities.iter().map(|y| energy.diff(&system.key(*y))))
        .collect();
    // The equations Σ_P X^P ω_PQ = α_Q, one row per Q.
    let equations: Vec<Vec<Expr>> = (0..2 * n)
        .map(|q| (0..2 * n).map(|p| omega[p][q].clone()).collect())
        .collect();
    let mut state = Constraints::new(system, options);
    let eliminate = |state: &Constraints, a: &[Vec<Expr>], b: &[Expr]| {
        reduce(
            a,
            b,
            &|rows| within(options, system, rows),
            &Pivoting {
                vanishes: &|e| state.vanishes_on(e),
                variables: &state.variables,
            },
        )
    };
    let mut steps = Vec::new();
    let mut level = 0;
    let mut assumptions: Vec<Expr> = Vec::new();
    // Pivots that differ by a constant factor make one assumption.
    let mut assume = |pivots: &[Expr]| {
        for p in pivots {
            let known = assumptions.iter().any(|q| {
                (p.clone() / q.clone())
                    .simplify()
                    .as_small_rational()
                    .is_some()
            });
            if p.as_small_rational().is_none() && !known {
                assumptions.push(p.clone());
            }
        }
    };
    // Which unknowns each elimination determines for the first time.
    let mut determined = vec![false; 2 * n];
    let mut fixed: Vec<Fixed> = Vec::new();
    let mut record = |state: &Constraints, kind: StepKind, reduced: &Reduced, offset: usize| {
        let mut values = Vec::new();
        for (c, value) in reduced.particular.iter().enumerate() {
            let column = c + offset;
            let free = |z: &Vec<Expr>| !z[c].is_literal_zero() && !state.vanishes_on(&z[c]);
            if determined[column] || reduced.kernel.iter().any(free) {
                continue;
            }
            determined[column] = true;
            let unknown = if column < n {
                Unknown::Horizontal(column)
            } else {
                Unknown::Vertical(column - n)
            };
            values.push((unknown, state.display(&state.restrict(value))));
        }
        if !values.is_empty() {
            fixed.push(Fixed { kind, values });
        }
    };
    loop {
        let (a, b) = state.system_rows(system, &equations, &alpha);
        state.exceeded()?;
        let reduced = eliminate(&state, &a, &b)?;
        assume(&reduced.pivots);
        record(&state, StepKind::Consistency(level + 1), &reduced, 0);
        let found = state.new_constraints(&reduced.conditions);
        state.exceeded()?;
        if found.is_empty() {
            break;
        }
        level += 1;
        let step = state.admit(system, StepKind::Consistency(level), found)?;
        steps.push(step);
        if steps.len() > step_budget(system) {
            return Err(vec![budget_exhausted(system)]);
        }
    }
    // The SODE step: X^A = y^A on the solutions X_p + f^j Z_j.
    let (a, b) = state.system_rows(system, &equations, &alpha);
    state.exceeded()?;
    let solution = eliminate(&state, &a, &b)?;
    assume(&solution.pivots);
    let velocity = |state: &Constraints, k: usize| state.restrict(&system.expr(alg.velocities[k]));
    let sode_rows: Vec<Vec<Expr>> = (0..n)
        .map(|k| solution.kernel.iter().map(|z| z[k].clone()).collect())
        .collect();
    let sode_rhs: Vec<Expr> = (0..n)
        .map(|k| (velocity(&state, k) - solution.particular[k].clone()).simplify())
        .collect();
    state.exceeded()?;
    let sode = eliminate(&state, &sode_rows, &sode_rhs)?;
    assume(&sode.pivots);
    let found = state.new_constraints(&sode.conditions);
    state.exceeded()?;
    if !found.is_empty() {
        steps.push(state.admit(system, StepKind::Sode, found)?);
    }
    // The 𝒱 components with X^A = y^A, tangent to every constraint; tangency to the SODE
    // constraints may add more (reported as SODE steps too).
    let (vertical, gauge) = loop {
        let (a, b) = state.system_rows(system, &equations, &alpha);
        let a_v: Vec<Vec<Expr>> = a.iter().map(|row| row[n..].to_vec()).collect();
        let b_v: Vec<Expr> = a
            .iter()
            .zip(&b)
            .map(|(row, rhs)| {
                (0..n)
                    .fold(rhs.clone(), |acc, k| {
                        acc - row[k].clone() * velocity(&state, k)
                    })
                    .simplify()
            })
            .collect();
        state.exceeded()?;
        let solved = eliminate(&state, &a_v, &b_v)?;
        assume(&solved.pivots);
        record(&state, StepKind::Sode, &solved, n);
        let found = state.new_constraints(&solved.conditions);
        state.exceeded()?;
        if found.is_empty() {
            break (solved.particular, solved.kernel);
        }
        steps.push(state.admit(system, StepKind::Sode, found)?);
        if steps.len() > step_budget(system) {
            return Err(vec![budget_exhausted(system)]);
        }
    };
    state.exceeded()?;
    // A pivot assumed non-zero that vanishes on the final set: the rank changed there.
    if let Some(pivot) = assumptions.iter().find(|p| state.vanishes_on(p)) {
        return Err(vec![rank_changed(system, pivot)]);
    }
    // A pivot that the kept constraints make a non-zero constant (`x² + y² + z²` on a sphere) is
    // no assumption.
    if !state.kept.is_empty() {
        let constant_on_set = |p: &Expr| {
            let on_set = state.kept.reduce(&state.restrict(p));
            !on_set.vanishes() && !state.variables.iter().any(|v| on_set.depends_on(v))
        };
        let on_state = |p: &Expr| state.variables.iter().any(|v| p.depends_on(v));
        assumptions.retain(|p| !(on_state(p) && constant_on_set(p)));
    }
    let velocities = system.keys(&alg.velocities);
    let remaining: Vec<String> = system
        .keys(&system.coordinates)
        .iter()
        .chain(&velocities)
        .filter(|s| !state.solved.contains_key(*s))
        .cloned()
        .collect();
    let rate_of = |s: &String| -> Expr {
        if let Some(i) = system.keys(&system.coordinates).iter().position(|q| q == s) {
            let rate = (0..n).fold(Expr::zero(), |acc, k| {
                acc + alg.anchors[k][i + 1].clone() * system.expr(alg.velocities[k])
            });
            state.restrict(&rate)
        } else {
            let k = velocities.iter().position(|y| y == s).expect("a velocity");
            vertical[k].clone()
        }
    };
    let rates: Vec<Expr> = remaining.iter().map(rate_of).collect();
    let energy = state.display(&state.restrict(energy));
    state.exceeded()?;
    let free: Vec<usize> = (0..n)
        .filter(|&k| !state.solved.contains_key(&velocities[k]))
        .collect();
    let gauge = gauge
        .iter()
        .map(|z| free.iter().map(|&k| z[k].clone()).collect())
        .collect();
    Ok(Algorithm {
        steps,
        fixed,
        level,
        energy,
        solved: state.solved,
        kept: state.kept.generators().to_vec(),
        ideal: state.kept,
        state: remaining,
        rates,
        gauge,
        assumptions,
    })
}

fn rank_changed(system: &System, pivot: &Expr) -> Diagnostic {
    Diagnostic::error(
        Code::E0307,
        "the constraint algorithm did not stabilise: the rank of ω_L changes on the constraint set",
        system.lagrangian_span,
        format!(
            "an elimination divided by {}, which vanishes on the final constraint set",
            show(system, pivot)
        ),
    )
    .with_note("the paper assumes each constraint set is a submanifold on which ω_L restricted has constant rank (the constraint algorithm's second failure mode): here it does not")
}

fn budget_exhausted(system: &System) -> Diagnostic {
    Diagnostic::error(
        Code::E0307,
        "the constraint algorithm did not stabilise",
        system.lagrangian_span,
        "more steps than the dimension of E",
    )
    .with_note("each step that finds a constraint lowers the dimension, so the rank of ω_L or of its restriction changed: the paper's regularity assumptions fail here (the constraint algorithm's second failure mode)")
}

/// E0290 for what the algorithm does not cover.
fn refuse_unsupported(system: &System) -> diagnostic::Result<()> {
    let unsupported = |what: &str, note: &str| {
        Err(vec![Diagnostic::error(
            Code::E0290,
            format!("{what}: not supported yet"),
            system.lagrangian_span,
            "the Lagrangian is singular (det W = 0)",
        )
        .with_note(note.to_string())])
    };
    if !system.constraints.is_empty() {
        return unsupported(
            "a singular Lagrangian with nonholonomic constraints",
            "the constraint algorithm of [IMMS08] §4 is for unconstrained singular Lagrangians",
        );
    }
    if system.forces.iter().any(|f| !f.is_zero()) {
        return unsupported(
            "a singular Lagrangian with external forces",
            "[IMMS08] §4 solves i_X ω_L = dE_L, without forces",
        );
    }
    if system.is_time_dependent() {
        return unsupported(
            "a time-dependent singular Lagrangian",
            "[IMMS08] §4 is autonomous: ω_L and E_L may not depend on time",
        );
    }
    let alg = &system.algebroid;
    let reference_is_time = alg.anchor0.iter().enumerate().all(|(i, r)| {
        if i == 0 {
            r.clone().simplify() == Expr::one()
        } else {
            r.is_zero()
        }
    });
    if !(reference_is_time && alg.c0.iter().flatten().all(Expr::is_zero)) {
        return unsupported(
            "a singular Lagrangian on an affgebroid",
            "[IMMS08] works on Lie algebroids: declare the algebroid without `e0`",
        );
    }
    Ok(())
}
