//! Projection onto the constraints, and the residuals of all three levels, for every flow on
//! `(x, y)` with constraints ([`report::ConstraintSet`]); `docs/code-generation.md`,
//! "Constraints: projection and residuals", is the user's account.
//!
//! Integrating the index-reduced equations keeps `f̈ = 0` and `Ψ̇ = 0` only up to the integrator's
//! error, so `f` and `Ψ` drift. The emitted code offers what undoes the drift, never applied
//! behind the caller's back:
//!
//! - `position_constraints` evaluates `f^a` and `J = ∂f^a/∂x^i` (`r_h × m`, row-major);
//! - `velocity_constraints` evaluates `Ψ^a` and `μ^a_α = ∂Ψ^a/∂y^α` (`r × n`);
//! - `project_position` takes `PROJECTION_ITERATIONS` (3) Gauss–Newton steps
//!   `x ← x − Jᵀ (J Jᵀ)⁻¹ f(x)` on the coordinates (the nearest point of `f = 0` in the
//!   coordinates' Euclidean metric, to first order; each step squares a small residual);
//! - `project_velocity` takes the step `y ← y − μᵀ (μ μᵀ)⁻¹ Ψ(y)` on the velocities: once when
//!   every `Ψ` is affine in `y` (then it is exact), `PROJECTION_ITERATIONS` times otherwise.
//!   Call it after `project_position`, since `Ψ` depends on the coordinates;
//! - `dynamics` returns `position_residual` (`f^a`) beside `residual` (`Ψ^a`), and
//!   `acceleration_residual`, `dΨ^a/dt` along the rates it computed: `∂_t Ψ + ∂Ψ/∂s_k ṡ_k` from
//!   the gradient of `Ψ` the program writes to the local `dpsi_`. For a holonomic constraint it
//!   is `f̈`; it measures how well the computed accelerations keep the constraints.

use cas::egraph::Limits;
use cas::program::Program;
use cas::Expr;
use model::System;
use report::ConstraintSet;

use crate::array::{Array, Slot};
use crate::function::{
    describe_count, Baumgarte, Function, Kernel, Language, Output, Role, Stabilisation,
};
use crate::snippets;
use serde::Serialize;

/// The Gauss–Newton steps of `project_position` (and of `project_velocity` for constraints that
/// are not affine in the velocities).
pub const ITERATIONS: usize = 3;

/// Every expression the constraint functions evaluate (for the argument layout).
pub fn expressions(set: &ConstraintSet) -> Vec<Expr> {
    set.position.iter().chain(&set.velocity).cloned().collect()
}

/// `[∂_t Ψ^a, ∂Ψ^a/∂s_0, …, ∂Ψ^a/∂s_{N−1}]` for each constraint, flattened: the gradient
/// `dynamics` writes to `dpsi_` for the acceleration residual.
pub fn residual_gradient(set: &ConstraintSet, system: &System, state: &[String]) -> Vec<Expr> {
    set.velocity
        .iter()
        .flat_map(|psi| {
            std::iter::once(system.partial_base(psi, 0).simplify())
                .chain(state.iter().map(|s| psi.diff(s).simplify()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The outputs `dynamics` gains (after `residual`): `position_residual` when there are holonomic
/// constraints, and `acceleration_residual`; and the kernel that computes the latter.
pub fn dynamics_outputs(set: &ConstraintSet, state_len: usize) -> (Vec<Output>, Kernel) {
    let mut outputs = Vec::new();
    if !set.position.is_empty() {
        outputs.push(Output {
            name: Array::PositionResidual,
            len: set.position.len(),
            doc: numbered("f", set.position.len()),
        });
    }
    let r = set.velocity.len();
    outputs.push(Output {
        name: Array::AccelerationResidual,
        len: r,
        doc: format!(
            "d({})/dt along xdot",
            (1..=r)
                .map(|a| format!("Psi{a}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    });
    (outputs, Kernel::AccelerationResidual { rows: r, state_len })
}

/// `name1, name2, …`.
fn numbered(name: &str, count: usize) -> String {
    (1..=count)
        .map(|a| format!("{name}{a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The four constraint functions: `position_constraints` and `project_position` when there are
/// holonomic constraints, then `velocity_constraints` and `project_velocity`. `symbols` are the
/// programs' inputs (the layout's).
pub fn functions(set: &ConstraintSet, symbols: &[String], limits: Limits) -> Vec<Function> {
    let m = set.coordinates.len();
    let n = set.velocities.len();
    let mut out = Vec::new();
    if !set.position.is_empty() {
        let rows = set.position.len();
        let evaluate = evaluation(
            "position_constraints",
            "The holonomic constraints f^a(t, x) and their Jacobian J = d(f^a)/d(x^i) in the coordinates, for project_position.",
            [(Array::Position, "f", &set.position), (Array::PositionJacobian, "J, row-major", &jacobian(&set.position, &set.coordinates))],
            symbols,
            limits,
        );
        let call_ops = evaluate.program.op_count().total();
        out.push(evaluate);
        out.push(kernel_function(
            "project_position",
            format!("The state x with its coordinates moved onto the holonomic constraints f = 0 by {ITERATIONS} Gauss-Newton steps x := x - J^T (J J^T)^-1 f(x) (the velocities are copied; call project_velocity next). Returns the status of position_constraints, or -1 when J J^T is singular."),
            Kernel::ProjectPosition { rows, columns: m, steps: ITERATIONS, call_ops },
            m + n,
        ));
    }
    let rows = set.velocity.len();
    let evaluate = evaluation(
        "velocity_constraints",
        "The velocity-level constraints Psi^a(t, x, y) (the nonholonomic ones and rho(f) of the holonomic ones) and their Jacobian mu = d(Psi^a)/d(y^alpha) in the velocities, for project_velocity.",
        [(Array::Velocity, "Psi", &set.velocity), (Array::VelocityJacobian, "mu, row-major", &jacobian(&set.velocity, &set.velocities))],
        symbols,
        limits,
    );
    let call_ops = evaluate.program.op_count().total();
    out.push(evaluate);
    // Ψ affine in y: one Gauss–Newton step is exact.
    let velocity_steps = if set.affine { 1 } else { ITERATIONS };
    let steps = if set.affine {
        "one step y := y - mu^T (mu mu^T)^-1 Psi(y), exact since Psi is affine in y".to_string()
    } else {
        format!("{ITERATIONS} steps y := y - mu^T (mu mu^T)^-1 Psi(y)")
    };
    out.push(kernel_function(
        "project_velocity",
        format!("The state x with its velocities moved onto the constraints Psi = 0 by {steps} (the coordinates are copied; call it after project_position). Returns the status of velocity_constraints, or -1 when mu mu^T is singular."),
        Kernel::ProjectVelocity { rows, columns: n, offset: m, steps: velocity_steps, call_ops },
        m + n,
    ));
    out
}

/// `∂e_a/∂s_j` for each `e_a`, row-major over `wrt`.
fn jacobian(exprs: &[Expr], wrt: &[String]) -> Vec<Expr> {
    exprs
        .iter()
        .flat_map(|e| wrt.iter().map(|s| e.diff(s).simplify()).collect::<Vec<_>>())
        .collect()
}

/// A function that only evaluates its outputs, `(name, what, values)`.
fn evaluation(
    name: &str,
    doc: &str,
    outputs: [(Array, &str, &Vec<Expr>); 2],
    symbols: &[String],
    limits: Limits,
) -> Function {
    let mut program = Program::new(symbols.to_vec());
    for (array, _, values) in &outputs {
        for (i, e) in values.iter().enumerate() {
            program
                .output(array.at(i).to_string(), &e.factored())
                .unwrap_or_else(|u| panic!("{name} uses `{}`, which is not an argument", u.0));
        }
    }
    let (program, stop) = program.optimised_within(limits);
    Function {
        name: name.into(),
        doc: doc.into(),
        outputs: outputs
            .iter()
            .map(|(array, what, values)| Output {
                name: array.clone(),
                len: values.len(),
                doc: what.to_string(),
            })
            .collect(),
        program: program.scheduled(),
        solve: None,
        stabilisation: None,
        kernel: None,
        saturation: Some(stop),
        state: None,
        sparsity: None,
    }
}

/// A function whose work is all in its kernel; its one output is the projected state.
fn kernel_function(name: &str, doc: String, kernel: Kernel, state_len: usize) -> Function {
    Function {
        name: name.into(),
        doc,
        outputs: vec![Output {
            name: Array::Projected,
            len: state_len,
            doc: "the projected state".into(),
        }],
        program: Program::new(Vec::new()),
        solve: None,
        stabilisation: None,
        kernel: Some(kernel),
        saturation: None,
        state: None,
        sparsity: None,
    }
}

/// Floating-point operations of one Gauss–Newton step with an `r × m` Jacobian.
fn step_flops(r: usize, m: usize) -> usize {
    let gram = r * (r + 1) / 2 * 2 * m;
    let factor = crate::flops::factor_flops(r);
    let solve = crate::flops::solve_flops(r);
    gram + factor + solve + 2 * r * m
}

/// The operations a kernel performs, its calls included.
pub fn count(kernel: &Kernel) -> usize {
    match *kernel {
        Kernel::ProjectPosition {
            rows,
            columns,
            steps,
            call_ops,
        }
        | Kernel::ProjectVelocity {
            rows,
            columns,
            steps,
            call_ops,
            ..
        } => steps * (call_ops + step_flops(rows, columns)),
        Kernel::AccelerationResidual { rows, state_len } => rows * 2 * state_len,
    }
}

/// How a kernel's cost reads in the banner.
pub fn describe(kernel: &Kernel) -> String {
    match *kernel {
        Kernel::ProjectPosition {
            steps, call_ops, ..
        } => format!(
            "{steps} x (position_constraints, {call_ops} ops, + one Gauss-Newton step) = {} ops",
            count(kernel)
        ),
        Kernel::ProjectVelocity {
            steps, call_ops, ..
        } => format!(
            "{steps} x (velocity_constraints, {call_ops} ops, + one step) = {} ops",
            count(kernel)
        ),
        Kernel::AccelerationResidual { .. } => format!("{} ops", count(kernel)),
    }
}

/// The work arrays a kernel needs `(name, length)`, declared before the function's program.
pub fn arrays(kernel: &Kernel) -> Vec<(&'static str, usize)> {
    match *kernel {
        Kernel::ProjectPosition { rows, columns, .. }
        | Kernel::ProjectVelocity { rows, columns, .. } => {
            vec![("g_", rows), ("jac_", rows * columns), ("s_", rows * rows)]
        }
        Kernel::AccelerationResidual { rows, state_len } => vec![("dpsi_", rows * (state_len + 1))],
    }
}

/// The kernel's statements, after the program (and the solve), from the templates
/// `templates/*/snippets/projection` and `acceleration_residual`. `prefix` is the system's name
/// (C functions are `prefix_name`).
pub fn lines(kernel: &Kernel, prefix: &str, state_len: usize, language: Language) -> Vec<String> {
    match *kernel {
        Kernel::ProjectPosition { rows, columns, .. } => projection(
            Projection {
                call: "position_constraints",
                rows,
                columns,
                offset: 0,
                once: false,
                prefix,
                state_len,
            },
            language,
        ),
        Kernel::ProjectVelocity {
            rows,
            columns,
            offset,
            steps,
            ..
        } => projection(
            Projection {
                call: "velocity_constraints",
                rows,
                columns,
                offset,
                once: steps == 1,
                prefix,
                state_len,
            },
            language,
        ),
        Kernel::AccelerationResidual { rows, state_len } => {
            #[derive(Serialize)]
            struct Residual {
                rows: usize,
                stride: usize,
                state_len: usize,
            }
            let context = Residual {
                rows,
                stride: state_len + 1,
                state_len,
            };
            snippets::statements("acceleration_residual", language, &context)
        }
    }
}

/// A projection: copy the state, then evaluate the constraints (`call`) at the current state
/// and take one Gauss–Newton step on the `columns` entries from `offset`, once (affine
/// constraints) or `PROJECTION_ITERATIONS` times.
#[derive(Serialize)]
struct Projection<'a> {
    call: &'static str,
    rows: usize,
    columns: usize,
    offset: usize,
    once: bool,
    prefix: &'a str,
    state_len: usize,
}

fn projection(projection: Projection<'_>, language: Language) -> Vec<String> {
    snippets::statements("projection", language, &projection)
}

/// `describe_count` for a function with a kernel: its program, then the kernel.
pub fn describe_function(f: &Function, kernel: &Kernel) -> String {
    if f.program.nodes.is_empty() && f.program.outputs.is_empty() {
        describe(kernel)
    } else {
        format!(
            "{} + {}",
            describe_count(&f.program.op_count()),
            describe(kernel)
        )
    }
}

/// `k_a = 2α Ψ^a + β² f^a` (no `β` term for a nonholonomic constraint): what Baumgarte
/// stabilisation adds to the acceleration-level constraints.
fn stabilisation_terms(set: &ConstraintSet, b: Baumgarte) -> Vec<Expr> {
    let alpha = Expr::rational(b.alpha.0, b.alpha.1);
    let beta = Expr::rational(b.beta.0, b.beta.1);
    set.velocity
        .iter()
        .zip(&set.position_of)
        .map(|(psi, position)| {
            let damping = Expr::int(2) * alpha.clone() * psi.clone();
            match position {
                Some(k) => damping + beta.clone() * beta.clone() * set.position[*k].clone(),
                None => damping,
            }
        })
        .collect()
}

/// The locals a stabilised `rhs` or `dynamics` computes in its program (slot, value), and how it
/// applies them: on closed-form rates (`set.correction` present) the correction of the rates, on
/// rates solved at run time the corrected bias.
pub fn stabilisation(
    set: &ConstraintSet,
    b: Baumgarte,
    role: Role,
) -> (Vec<(Slot, Expr)>, Stabilisation) {
    let dynamics = role == Role::Dynamics;
    let k = stabilisation_terms(set, b);
    let rows = k.len();
    let mut locals: Vec<(Slot, Expr)> = k
        .into_iter()
        .enumerate()
        .map(|(a, e)| (Array::BaumgarteTerms.at(a), e))
        .collect();
    let Some(correction) = &set.correction else {
        return (locals, Stabilisation::Bias { rows });
    };
    let n = set.velocities.len();
    for (bi, z) in correction.directions.iter().enumerate() {
        for (k, e) in z.iter().enumerate() {
            locals.push((Array::BaumgarteDirections.at(bi * n + k), e.clone()));
        }
    }
    for (a, row) in correction.inverse.iter().enumerate() {
        for (bi, e) in row.iter().enumerate() {
            locals.push((Array::BaumgarteInverse.at(a * rows + bi), e.clone()));
        }
    }
    if dynamics {
        for (a, psi) in set.velocity.iter().enumerate() {
            let power = set
                .velocities
                .iter()
                .fold(Expr::zero(), |acc, y| acc + psi.diff(y) * Expr::symbol(y));
            locals.push((Array::BaumgartePower.at(a), power.simplify()));
        }
    }
    (
        locals,
        Stabilisation::Rates {
            rows,
            velocities: n,
            offset: set.coordinates.len(),
            dynamics,
        },
    )
}

/// The work arrays of a stabilisation `(name, length)`.
pub fn stabilisation_arrays(s: &Stabilisation) -> Vec<(&'static str, usize)> {
    match *s {
        Stabilisation::Bias { rows } => vec![("bk_", rows)],
        Stabilisation::Rates {
            rows,
            velocities,
            dynamics,
            ..
        } => {
            let mut a = vec![
                ("bk_", rows),
                ("bz_", rows * velocities),
                ("bc_", rows * rows),
            ];
            if dynamics {
                a.push(("bp_", rows));
            }
            a
        }
    }
}

/// The statements of a stabilisation: for [`Stabilisation::Bias`] they go before the solve, for
/// [`Stabilisation::Rates`] after the rates are assigned.
pub fn stabilisation_lines(s: &Stabilisation, language: Language) -> Vec<String> {
    #[derive(Serialize)]
    struct Context {
        rows: usize,
        velocities: usize,
        offset: usize,
        dynamics: bool,
    }
    match *s {
        Stabilisation::Bias { rows } => {
            let context = Context {
                rows,
                velocities: 0,
                offset: 0,
                dynamics: false,
            };
            snippets::statements("stabilisation_bias", language, &context)
        }
        Stabilisation::Rates {
            rows,
            velocities,
            offset,
            dynamics,
        } => {
            let context = Context {
                rows,
                velocities,
                offset,
                dynamics,
            };
            snippets::statements("stabilisation_rates", language, &context)
        }
    }
}

/// The operations a stabilisation adds.
pub fn stabilisation_count(s: &Stabilisation) -> usize {
    match *s {
        Stabilisation::Bias { rows } => rows,
        Stabilisation::Rates {
            rows,
            velocities,
            dynamics,
            ..
        } => rows * (2 * rows + 2 * velocities + if dynamics { 3 } else { 0 }),
    }
}
