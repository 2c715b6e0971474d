//! The step of a variational integrator, `SYSTEM_step(t, x, h, p, u, x_next)`, around the three
//! functions of a [`report::DiscreteStep`] (`discrete_momentum`, `discrete_residual`,
//! `discrete_recover`, emitted like companions on their own states); `docs/code-generation.md`,
//! "The variational step", is the user's account.
//!
//! The step is fixed code, the same for every system up to its sizes (`m` coordinates, `n`
//! velocities and as many unknowns; `templates/*/snippets/discrete_step`): `p_k` and the
//! predictor from `discrete_momentum`; Newton's method for the unknowns (`q_{k+1}` for the
//! midpoint rule, the discrete velocities on so(3)), each iteration one `discrete_residual` call
//! on `(q_k, v_k, unknowns, h)` and one LU solve with partial pivoting of its `n × n` matrix
//! (not symmetric in general); then `discrete_recover` (`q_{k+1}`, `p_{k+1}`, `W`, `a`) and an
//! `LDLᵀ` solve with the mass matrix for `v_{k+1}`. Both solves run on the band of their matrix
//! outside which its entries are exact zeros ([`report::Band`], found when the step is lowered):
//! a chain's tridiagonal Newton matrix costs `O(n)` a solve, not `O(n³)`, with the same
//! operations on the nonzeros as the dense loops. It decides convergence as the in-process
//! step does (`mech::discrete::step::converged`): a correction within
//! `STEP_TOLERANCE · ε · max(1, |unknowns|_∞)`, or within 1024 times that and no longer halving.

use report::DiscreteStep;
use serde::Serialize;

use crate::flops::{banded_factor_flops, banded_solve_flops, lu_flops, schur_flops};
use crate::function::{CodeOptions, Float, Function, Language, Work};
use crate::snippets;

/// The Newton iterations a step allows by default (`SYSTEM_STEP_ITERATIONS`).
pub const ITERATIONS: usize = 50;

/// The default tolerance, in units of `ε · max(1, |q_{k+1}|_∞)` (`SYSTEM_STEP_TOLERANCE`).
pub const TOLERANCE: usize = 4;

/// The three functions the step calls, in the order they are emitted.
pub fn helpers(step: &DiscreteStep) -> [&report::Companion; 3] {
    [&step.momentum, &step.residual, &step.recover]
}

/// The step's work arrays `(name, length)` for a state of `state` entries, `n` velocities and
/// `u` unknowns.
fn arrays(state: usize, n: usize, u: usize) -> Vec<(&'static str, usize)> {
    let mut arrays = vec![
        ("momentum_", n),
        ("predictor_", u),
        ("z_", state + u + 1),
        ("r_", u),
        ("newton_", u * u),
        ("w_", n * n),
        ("a_", n),
    ];
    // The constrained recovery of the velocities, by the Schur complement.
    let r = u - n;
    if r > 0 {
        arrays.extend(crate::numeric::schur_arrays(n, r, "nu_"));
    }
    arrays
}

/// The operations of the emitted function `name` in `functions`.
fn ops_of(functions: &[Function], name: &str) -> usize {
    functions
        .iter()
        .find(|f| f.name == name)
        .map_or(0, |f| f.program.op_count().total())
}

/// What the templates read of the step (see [`context`]).
#[derive(Serialize)]
pub struct Context {
    /// What the step integrates.
    doc: String,
    /// Its cost as the banner states it.
    count: String,
    /// Its operations for three Newton iterations (the function list's count).
    pub ops: usize,
    /// The sentence stating its arrays.
    footprint: String,
    /// The length of the caller's `work` argument (C under `--work caller`).
    work: Option<usize>,
    /// Whether the velocities are recovered on constraints (the Schur kernel is needed).
    pub schur: bool,
    /// `SYSTEM_STEP_ITERATIONS`.
    iterations: usize,
    /// `SYSTEM_STEP_TOLERANCE`.
    tolerance: usize,
    /// The statements of its body.
    body: Vec<String>,
}

/// The template context of the step of `step` (`None` without one): its documentation, cost,
/// footprint and statements.
pub fn context(
    step: Option<&DiscreteStep>,
    functions: &[Function],
    prefix: &str,
    language: Language,
    options: CodeOptions,
) -> Option<Context> {
    let step = step?;
    let m = step.coordinates.len();
    let n = step.velocities.len();
    let r = step.multipliers;
    let u = n + r;
    let action = step.action;
    let state = m + n + usize::from(action);
    let [momentum, residual, recover] = helpers(step).map(|c| ops_of(functions, &c.name));
    let (newton, mass) = (step.newton_band, step.mass_band.lower);
    let iteration = residual + lu_flops(u, newton.lower, newton.upper) + n + 3 * u;
    let recovery =
        banded_factor_flops(n, mass) + banded_solve_flops(n, mass) + n + schur_flops(n, r);
    let once = momentum + recover + recovery;
    let count = format!(
        "discrete_momentum ({momentum} ops) + k x (discrete_residual, {residual} ops, + an LU solve and the update, {} ops) + discrete_recover ({recover} ops) + the LDL^T solve ({recovery} ops), with k the Newton iterations (at most {ITERATIONS}): {} ops for k = 3",
        iteration - residual,
        once + 3 * iteration
    );
    #[derive(Serialize)]
    struct Statements<'a> {
        prefix: &'a str,
        upper: String,
        m: usize,
        n: usize,
        r: usize,
        u: usize,
        state: usize,
        action: bool,
        newton_lower: usize,
        newton_upper: usize,
        mass_band: usize,
        fabs: String,
        epsilon: &'static str,
        largest: &'static str,
    }
    let statements = Statements {
        prefix,
        upper: prefix.to_uppercase(),
        m,
        n,
        r,
        u,
        state,
        action,
        newton_lower: newton.lower,
        newton_upper: newton.upper,
        mass_band: mass,
        fabs: super::statements::c_math("fabs", options.float),
        epsilon: match options.float {
            Float::F64 => "DBL_EPSILON",
            Float::F32 => "FLT_EPSILON",
        },
        largest: match options.float {
            Float::F64 => "DBL_MAX",
            Float::F32 => "FLT_MAX",
        },
    };
    let arrays = arrays(state, n, u);
    let mut body = super::work::declare(&arrays, language, options.work, &|_| true);
    body.extend(snippets::statements("discrete_step", language, &statements));
    let (work, bytes, listed) = super::work::summary(&arrays, options.float);
    let caller = language == Language::C && options.work == Work::Caller;
    let footprint = if caller {
        format!("Work: the caller's work[{work}] ({bytes} bytes: {listed}); no arrays on the stack besides those of the functions it calls.")
    } else {
        format!("Stack: arrays of {work} values ({bytes} bytes: {listed}), besides those of the functions it calls.")
    };
    Some(Context {
        doc: step.doc.clone(),
        count,
        ops: once + 3 * iteration,
        footprint,
        work: caller.then_some(work),
        schur: r > 0,
        iterations: ITERATIONS,
        tolerance: TOLERANCE,
        body,
    })
}
