//! Code for flows whose rates are solved at run time ([`report::Rates::Solved`]): the straight-line program
//! evaluates `W`, the forcing `b`, the constraint Jacobian `μ` and bias `β` at the state, then a
//! small dense solve — emitted as loops, not unrolled — gives the accelerations and multipliers:
//!
//! ```text
//! W = L D Lᵀ                      (no pivoting: W is symmetric, and positive definite for a
//!                                  mechanical Lagrangian; a zero pivot returns an error)
//! a₀ = W⁻¹ b,  Y = W⁻¹ μᵀ,  S = μ Y,  S λ = μ a₀ − β,  a = a₀ − Y λ
//! ```
//!
//! which solves `W a + μᵀ λ = b`, `μ a = β` (the constrained dynamics of `docs/conventions.md`).
//! The cost is `O(n³)` flops for `n` velocities, against the `O(n!)`-swelling closed form.

use std::cell::LazyCell;

use cas::egraph::{Limits, Stop};
use cas::program::{OpCount, Program};
use cas::Expr;
use model::System;
use report::{Flow, ImplicitForm, Solved};

use crate::array::{Array, Slot};
use crate::flops::{factor_flops, schur_flops, solve_flops};
use crate::function::{
    describe_count, CodeOptions, Form, Function, Language, Layout, Output, Role, SolveSpec, Wrt,
};
use crate::implicit_jacobian::Jacobians;
use crate::snippets;

/// Programs above this many operations are emitted without equality saturation.
pub const SATURATION_LIMIT: usize = 1000;

/// A function to emit: name, documentation, output arrays, the program's outputs (slot and value)
/// and the solve that follows the program.
type Plan = (
    &'static str,
    String,
    Vec<Output>,
    Vec<(Slot, Expr)>,
    Option<SolveSpec>,
);

/// The argument layout and the functions of a flow whose rates are solved at run time.
pub fn functions(
    flow: &Flow,
    solved: &Solved,
    system: &System,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let form = options.form;
    let form_data = cheaper_form(solved, system, &flow.state);
    let n = form_data.mass.len();
    let r = form_data.jacobian.len();
    let m = solved.coordinate_rates.len();
    let state_doc = flow
        .state
        .iter()
        .map(|s| format!("{}'", system.spec_name(system.handle(s))))
        .collect::<Vec<_>>()
        .join(", ");
    // Outputs shared by rhs and dynamics: the coordinates' velocities (the implicit form comes
    // from a call to `implicit`, emitted once).
    let shared: Vec<(Slot, Expr)> = solved
        .coordinate_rates
        .iter()
        .enumerate()
        .map(|(i, rate)| (Array::Xdot.at(i), rate.clone()))
        .collect();
    // Baumgarte stabilisation: the bias loses k = 2 alpha Psi + beta^2 f before the solve.
    let baumgarte = options
        .baumgarte
        .and_then(|b| flow.constraints.as_ref().map(|set| (b, set)));
    let stabilised_slots: Vec<(Slot, Expr)> = baumgarte
        .map(|(b, set)| crate::project::stabilisation(set, b, Role::Rhs).0)
        .unwrap_or_default();
    let shared: Vec<(Slot, Expr)> = shared.into_iter().chain(stabilised_slots).collect();
    let doc = |doc: &str| match baumgarte {
        Some((b, _)) => b.document(doc),
        None => doc.to_string(),
    };
    let mut plans: Vec<Plan> = Vec::new();
    if matches!(form, Form::Explicit | Form::Both) {
        plans.push((
            "rhs",
            doc(&flow.rhs_doc),
            vec![Output {
                name: Array::Xdot,
                len: m + n,
                doc: state_doc.clone(),
            }],
            shared.clone(),
            Some(SolveSpec {
                n,
                r,
                m,
                dynamics: false,
                prefix: system.name.clone(),
                implicit_ops: 0,
                kinetic_from_mass: false,
                jacobian: None,
            }),
        ));
        let mut outputs = shared.clone();
        // The balance law: the part without λ here, the rest after the solve.
        outputs.push((Array::Rate.scalar(), solved.free_power.clone()));
        for (c, power) in solved.constraint_power.iter().enumerate() {
            outputs.push((Array::Power.at(c), power.clone()));
        }
        for (c, residual) in solved.residuals.iter().enumerate() {
            outputs.push((Array::Residual.at(c), residual.clone()));
        }
        match &solved.potential {
            // E_L = ½ yᵀ W y − L_0: the quadratic part from the W the solve has anyway.
            Some(potential) => outputs.push((Array::Energy0.scalar(), -potential.clone())),
            None => outputs.push((Array::Energy.at(0), solved.energy.get().clone())),
        }
        // The holonomic residuals f^a and the gradient of Ψ for the acceleration residuals.
        if let Some(set) = &flow.constraints {
            for (a, f) in set.position.iter().enumerate() {
                outputs.push((Array::PositionResidual.at(a), f.clone()));
            }
            let gradient = crate::project::residual_gradient(set, system, &flow.state);
            for (k, g) in gradient.into_iter().enumerate() {
                outputs.push((Array::Dpsi.at(k), g));
            }
        }
        plans.push((
            "dynamics",
            doc(&flow.dynamics_doc),
            vec![
                Output {
                    name: Array::Xdot,
                    len: m + n,
                    doc: state_doc.clone(),
                },
                Output {
                    name: Array::Lambda,
                    len: r,
                    doc: (1..=r)
                        .map(|a| format!("lambda{a}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                },
                Output {
                    name: Array::Residual,
                    len: r,
                    doc: (1..=r)
                        .map(|a| format!("Psi{a}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                },
                Output {
                    name: Array::Energy,
                    len: 2,
                    doc: "E_L, dE_L/dt".into(),
                },
            ]
            .into_iter()
            .chain(
                flow.constraints
                    .iter()
                    .flat_map(|set| crate::project::dynamics_outputs(set, flow.state.len()).0),
            )
            .collect(),
            outputs,
            Some(SolveSpec {
                n,
                r,
                m,
                dynamics: true,
                prefix: system.name.clone(),
                implicit_ops: 0,
                kinetic_from_mass: solved.potential.is_some(),
                jacobian: None,
            }),
        ));
    }
    // `implicit` is always emitted: rhs and dynamics call it.
    {
        let mut outputs = Vec::new();
        for i in 0..n {
            for j in 0..n {
                outputs.push((Array::Mass.at(i * n + j), form_data.mass[i][j].clone()));
            }
        }
        for (a, b) in form_data.forcing.iter().enumerate() {
            outputs.push((Array::Forcing.at(a), b.clone()));
        }
        for (c, row) in form_data.jacobian.iter().enumerate() {
            for (a, mu) in row.iter().enumerate() {
                outputs.push((Array::Jacobian.at(c * n + a), mu.clone()));
            }
        }
        for (c, beta) in form_data.bias.iter().enumerate() {
            outputs.push((Array::Bias.at(c), beta.clone()));
        }
        plans.insert(0, (
            "implicit",
            "The implicit form: the accelerations a = d(y)/dt and multipliers lambda solve [W mu^T; mu 0] [a; lambda] = [forcing; bias], with W the mass matrix (n x n, row-major), mu the constraint Jacobian (r x n, row-major), forcing_alpha = F_alpha + rho_alpha(L) - (rho_0 + y rho)(p_alpha) + (C_0 + y C) p, and bias_a = -(rho_0 + y rho)(Psi^a). The coordinates evolve by the first entries of rhs.".into(),
            vec![
                Output { name: Array::Mass, len: n * n, doc: format!("W, {n} x {n} row-major") },
                Output { name: Array::Forcing, len: n, doc: format!("{n} entries") },
                Output { name: Array::Jacobian, len: r * n, doc: format!("mu, {r} x {n} row-major") },
                Output { name: Array::Bias, len: r, doc: format!("{r} entries") },
            ],
            outputs,
            None,
        ));
    }
    let constraint_exprs = flow
        .constraints
        .as_ref()
        .map(crate::project::expressions)
        .unwrap_or_default();
    let every: Vec<&Expr> = plans
        .iter()
        .flat_map(|p| p.3.iter().map(|(_, e)| e))
        .chain(form_data.bindings.iter().map(|(_, e)| e))
        .chain(&constraint_exprs)
        .collect();
    let layout = Layout::of(system, flow.state.clone(), &every);
    let symbols = layout.symbols();
    // One program for every output of every function (they share W and the forcing), then each
    // function keeps the outputs it needs.
    let mut whole = Program::new(symbols.clone());
    // The recursions of a tree of joints, which W and the forcing read.
    for (name, value) in &form_data.bindings {
        whole
            .bind(name, value)
            .unwrap_or_else(|u| panic!("`{name}` uses `{}`, which is not an argument", u.0));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (_, _, _, exprs, _) in &plans {
        for (slot, e) in exprs {
            // Slots of the same name (`xdot[0]` of rhs and dynamics) hold the same value.
            if seen.insert(slot.clone()) {
                whole.output(slot.to_string(), e).unwrap_or_else(|u| {
                    panic!("`{slot}` uses `{}`, which is not an argument", u.0)
                });
            }
        }
    }
    let programs: Vec<Program> = plans
        .iter()
        .map(|(_, _, _, exprs, _)| {
            let wanted: std::collections::BTreeSet<String> =
                exprs.iter().map(|(slot, _)| slot.to_string()).collect();
            whole.select(&|slot| wanted.get(slot).cloned())
        })
        .collect();
    // Equality saturation: for `implicit` (the first plan), the bulk of the work, when it is
    // small enough (its cost grows faster than the program); the few operations of rhs and
    // dynamics are not worth it.
    let saturate = Some(&programs[0]).filter(|p| p.op_count().total() <= SATURATION_LIMIT);
    // The Jacobians, by implicit differentiation (they differentiate the unstabilised solve).
    let shape = SolveSpec {
        n,
        r,
        m,
        dynamics: false,
        prefix: system.name.clone(),
        implicit_ops: 0,
        kinetic_from_mass: false,
        jacobian: None,
    };
    let jacobians = (matches!(form, Form::Explicit | Form::Both) && baumgarte.is_none())
        .then(|| Jacobians::of(&whole, &layout, &shape));
    let side_by_side = saturate.is_none_or(Program::is_plain)
        && jacobians.as_ref().is_none_or(Jacobians::is_plain);
    let (mut saturated, differentiated) =
        plain_work(saturate, jacobians.as_ref(), options.egraph, side_by_side);
    let functions: Vec<Function> = plans
        .into_iter()
        .zip(programs)
        .map(|((name, doc, outputs, _, solve), program)| {
            let (program, saturation) = match saturated.take().filter(|_| name == "implicit") {
                Some((program, stop)) => (program, Some(stop)),
                None => (program, None),
            };
            let kernel = flow
                .constraints
                .as_ref()
                .filter(|_| name == "dynamics")
                .map(|set| crate::project::dynamics_outputs(set, flow.state.len()).1);
            let stabilisation = baumgarte
                .filter(|_| name == "rhs" || name == "dynamics")
                .map(|(b, set)| crate::project::stabilisation(set, b, Role::Rhs).1);
            Function {
                name: name.to_string(),
                doc,
                outputs,
                program: program.scheduled(),
                solve,
                stabilisation,
                kernel,
                saturation,
                state: None,
                sparsity: None,
            }
        })
        .collect::<Vec<Function>>();
    let mut functions = functions;
    functions.extend(differentiated);
    let implicit_ops = functions[0].program.op_count().total();
    let functions = functions
        .into_iter()
        .map(|mut f| {
            if let Some(solve) = &mut f.solve {
                solve.implicit_ops = implicit_ops;
            }
            f
        })
        .chain(
            flow.constraints
                .iter()
                .flat_map(|set| crate::project::functions(set, &symbols, options.egraph)),
        )
        .collect();
    (layout, functions)
}

/// The form `implicit` is emitted from: the route's, or the joints' recursions
/// ([`Solved::structured`]) when their program needs fewer operations (both counted before
/// equality saturation, their values shared as in the emitted program).
fn cheaper_form<'a>(solved: &'a Solved, system: &System, state: &[String]) -> &'a ImplicitForm {
    let Some(structured) = LazyCell::force(&solved.structured).as_ref() else {
        return &solved.form;
    };
    let operations = |form: &ImplicitForm| -> Option<usize> {
        let entries = || {
            form.mass
                .iter()
                .flatten()
                .chain(&form.forcing)
                .chain(form.jacobian.iter().flatten())
                .chain(&form.bias)
        };
        let every: Vec<&Expr> = entries()
            .chain(form.bindings.iter().map(|(_, e)| e))
            .collect();
        let layout = Layout::of(system, state.to_vec(), &every);
        let mut program = Program::new(layout.symbols());
        for (name, value) in &form.bindings {
            program.bind(name, value).ok()?;
        }
        for (k, entry) in entries().enumerate() {
            program.output(k.to_string(), entry).ok()?;
        }
        Some(program.needed_operations())
    };
    match (operations(&solved.form), operations(structured)) {
        (Some(route), Some(recursions)) if recursions < route => structured,
        _ => &solved.form,
    }
}

/// One piece of the implicit route's work on programs: the saturation of `implicit`, or one
/// of the Jacobians.
enum Job<'a> {
    Saturate(&'a Program),
    Differentiate(&'a Jacobians, &'a Wrt),
}

/// What a [`Job`] made (boxed: both are large, and they are moved between threads).
enum Done {
    Saturated(Box<(Program, Stop)>),
    Differentiated(Option<Box<Function>>),
}

/// The saturation of `saturate` within `limits` (when given) and the Jacobians that fit (in
/// their order): side by side on two threads ([`crate::parallel`]) when `side_by_side` (every
/// program plain, which the caller checks), else one after the other on this thread. The
/// results are the same either way.
fn plain_work(
    saturate: Option<&Program>,
    jacobians: Option<&Jacobians>,
    limits: Limits,
    side_by_side: bool,
) -> (Option<(Program, Stop)>, Vec<Function>) {
    let jobs: Vec<Job> = saturate
        .map(Job::Saturate)
        .into_iter()
        .chain(
            jacobians
                .iter()
                .flat_map(|&j| j.wrts().iter().map(move |wrt| Job::Differentiate(j, wrt))),
        )
        .collect();
    let run = |job: &Job| match *job {
        Job::Saturate(program) => {
            Done::Saturated(Box::new(program.clone().optimised_within(limits)))
        }
        Job::Differentiate(jacobians, wrt) => {
            Done::Differentiated(jacobians.function(wrt).map(Box::new))
        }
    };
    // A saturation costs far more per node than a derivative entry (the e-graph is rewritten
    // for several iterations): an estimate for ordering only.
    let cost = |job: &Job| match *job {
        Job::Saturate(program) => program.nodes.len() * 100,
        Job::Differentiate(jacobians, wrt) => jacobians.cost(wrt),
    };
    let done = if side_by_side {
        crate::parallel::map(&jobs, cost, run)
    } else {
        jobs.iter().map(run).collect()
    };
    let mut saturated = None;
    let mut functions = Vec::new();
    for result in done {
        match result {
            Done::Saturated(pair) => saturated = Some(*pair),
            Done::Differentiated(function) => functions.extend(function.map(|f| *f)),
        }
    }
    (saturated, functions)
}

/// The arrays of a constrained solve by the Schur complement (`dalembert_schur_solve`) with `n`
/// unknowns and `r` constraints: `μ`, `β`, `W⁻¹μᵀ`, the complement, and the multipliers (named
/// `multipliers`).
pub fn schur_arrays(n: usize, r: usize, multipliers: &'static str) -> [(&'static str, usize); 5] {
    [
        ("mu_", r * n),
        ("beta_", r),
        ("y_", r * n),
        ("s_", r * r),
        (multipliers, r),
    ]
}

/// The work arrays `(name, length)` the program writes and the solve reads.
pub fn arrays(s: &SolveSpec) -> Vec<(&'static str, usize)> {
    let (n, r) = (s.n, s.r);
    let mut arrays = vec![("w_", n * n), ("a_", n)];
    if r > 0 {
        arrays.extend(schur_arrays(n, r, "l_"));
        if s.dynamics {
            arrays.push(("power_", r));
        }
    }
    if let Some(starts) = &s.jacobian {
        arrays.extend(crate::implicit_jacobian::arrays(s, starts.len()));
    }
    arrays
}

/// The statements before the program, after the work arrays ([`arrays`]) are declared: the call
/// of `implicit` that fills them, and the scalars the solve writes.
pub fn declarations(s: &SolveSpec, language: Language) -> Vec<String> {
    snippets::statements("implicit_declarations", language, s)
}

/// The solve, after the program has filled the arrays: calls of the kernels the templates define
/// once per language (`dalembert_ldl_factor`/`ldl_factor`, `dalembert_ldl_solve`/`ldl_solve`,
/// `dalembert_schur_solve`/`schur_solve`, `dalembert_kinetic_energy`/`kinetic_energy`), and the
/// copies into the outputs, or for a Jacobian by implicit differentiation one solve per column
/// (see `implicit_jacobian`).
pub fn solve_lines(s: &SolveSpec, language: Language) -> Vec<String> {
    snippets::statements("implicit_solve", language, s)
}

/// The operations the solve block performs.
pub fn solve_count(s: &SolveSpec) -> usize {
    let (n, r) = (s.n, s.r);
    let mut total = factor_flops(n) + solve_flops(n);
    if let Some(starts) = &s.jacobian {
        total += crate::implicit_jacobian::flops(s, starts.len());
    }
    if s.kinetic_from_mass {
        total += 4 * n + 3 * n * n.saturating_sub(1) / 2;
    }
    total += schur_flops(n, r);
    if r > 0 && s.dynamics {
        total += 2 * r;
    }
    total
}

/// "`program` ops + `implicit` ops + `solve` flops (numeric solve) = total".
pub fn describe_total(c: &OpCount, s: &SolveSpec) -> String {
    format!(
        "{} + {} in implicit + {} numeric-solve flops = {} ops",
        describe_count(c),
        s.implicit_ops,
        solve_count(s),
        total(c, s)
    )
}

/// The operations of a function that ends in a numeric solve: its program, the `implicit` call
/// and the solve's flops.
pub fn total(c: &OpCount, s: &SolveSpec) -> usize {
    c.total() + s.implicit_ops + solve_count(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implicit_jacobian::tests::pendulum_cart;

    /// The saturation of `implicit` and the Jacobians done side by side on two threads are the
    /// ones done one after the other on one (the route of programs that are not plain).
    #[test]
    fn plain_work_side_by_side_is_the_work_in_turn() {
        let (whole, layout, solve) = pendulum_cart(None);
        let implicit = whole.select(&|slot| (!slot.starts_with("xdot")).then(|| slot.into()));
        let jacobians = Jacobians::of(&whole, &layout, &solve);
        assert!(implicit.is_plain() && jacobians.is_plain());
        let limits = Limits::default();
        let (together, apart) = (
            plain_work(Some(&implicit), Some(&jacobians), limits, true),
            plain_work(Some(&implicit), Some(&jacobians), limits, false),
        );
        let ((a, a_stop), (b, b_stop)) = (together.0.unwrap(), apart.0.unwrap());
        assert_eq!((a.nodes, a.outputs, a_stop), (b.nodes, b.outputs, b_stop));
        let names = |fs: &[Function]| fs.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(&together.1),
            ["rhs_jacobian", "rhs_jacobian_u", "rhs_jacobian_p"]
        );
        assert_eq!(names(&together.1), names(&apart.1));
        for (a, b) in together.1.iter().zip(&apart.1) {
            assert_eq!(a.program.nodes, b.program.nodes);
            assert_eq!(a.program.outputs, b.program.outputs);
            assert_eq!(a.sparsity, b.sparsity);
        }
        // Without a saturation, the Jacobians alone.
        let (none, alone) = plain_work(None, Some(&jacobians), limits, true);
        assert!(none.is_none());
        assert_eq!(names(&alone), names(&apart.1));
    }
}
