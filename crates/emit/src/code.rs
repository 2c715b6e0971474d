//! The functions emitted as code, as straight-line programs, and their printing into C and Rust
//! statements. The templates in `templates/c/` and `templates/rust/` lay the statements out.
//!
//! Every function takes the same arguments, in this order (documented in the emitted header):
//! `t` (time), `x[N]` (the state: coordinates, then velocities), `p[P]` (parameters), `u[U]`
//! (inputs), `f[F]` (the values of the given functions of time and of their derivatives that the
//! equations use, e.g. `Omega(t)`, `Omega'(t)`), then its outputs.

use cas::egraph::{Limits, Stop};
use cas::program::{Literal, Node, Operand, Program};
use cas::Expr;
use diagnostic::Diagnostic;
use model::symbols::Kind;
use model::System;
use report::{Companion, Flow, ImplicitForm, Rates};

mod jacobian;
mod statements;
mod step;
mod tree;
mod work;
pub use crate::project::ITERATIONS as PROJECTION_ITERATIONS;
use statements::operand;
pub use statements::{c_math, literal, program_statements, rust_std_calls, statements};
use tree::tree_functions;
pub use tree::TREE_FUNCTIONS;

pub use crate::array::{Array, Slot};
pub use crate::function::{
    describe_count, Baumgarte, CodeOptions, Float, Form, Function, Kernel, Language, Layout,
    Output, Role, SolveSpec, Sparsity, Stabilisation, Work,
};

/// The expressions of each function, before they become programs.
struct Plan {
    name: String,
    doc: String,
    outputs: Vec<(Array, String, Vec<Expr>)>,
    /// The phase state its `x` holds, if not the flow's state.
    state: Option<Vec<String>>,
    /// The fixed code after its program.
    kernel: Option<Kernel>,
    /// Baumgarte stabilisation, when asked for.
    stabilisation: Option<Stabilisation>,
    /// Symbols its program binds before its outputs (a companion's recursion).
    bindings: Vec<(String, Expr)>,
}

/// Program slots, entry by entry, grouped into the arrays `(array, doc, values)` of a plan.
fn arrays(slots: Vec<(Slot, Expr)>) -> Vec<(Array, String, Vec<Expr>)> {
    let mut out: Vec<(Array, String, Vec<Expr>)> = Vec::new();
    for (slot, value) in slots {
        match out.last_mut() {
            Some(last) if last.0 == slot.array => last.2.push(value),
            _ => out.push((slot.array, String::new(), vec![value])),
        }
    }
    out
}

/// `x1', x2', …`: the documentation of the rates of `state`.
fn rates_doc(system: &System, state: &[String]) -> String {
    state
        .iter()
        .map(|s| format!("{}'", system.spec_name(system.handle(s))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The functions a flow with closed-form `rates` offers under `form`: `rhs`, `dynamics`,
/// `rhs_jacobian` (when the flow offers it), one per companion, and `implicit` (when the flow
/// offers an implicit form). A flow without an implicit form gets its explicit functions
/// whatever `form` asks.
fn plans(flow: &Flow, rates: &[Expr], system: &System, options: CodeOptions) -> Vec<Plan> {
    let form = options.form;
    let xdot_doc = rates_doc(system, &flow.state);
    let mut plans = Vec::new();
    // Baumgarte stabilisation, where there are constraints to stabilise.
    // Closed-form rates are stabilised along their constraint forces; a flow without them (the
    // singular route's kept constraints) is left as it is.
    let baumgarte = options.baumgarte.and_then(|b| {
        flow.constraints
            .as_ref()
            .filter(|set| set.correction.is_some())
            .map(|set| (b, set))
    });
    let stabilised =
        |role: Role| baumgarte.map(|(b, set)| crate::project::stabilisation(set, b, role));
    let doc = |doc: &str| match baumgarte {
        Some((b, _)) => b.document(doc),
        None => doc.to_string(),
    };
    if matches!(form, Form::Explicit | Form::Both) || flow.implicit.is_none() {
        let xdot = (Array::Xdot, xdot_doc.clone(), rates.to_vec());
        let (locals, stabilisation) = stabilised(Role::Rhs).unzip();
        plans.push(Plan {
            name: "rhs".into(),
            doc: doc(&flow.rhs_doc),
            outputs: std::iter::once(xdot.clone())
                .chain(locals.map(arrays).unwrap_or_default())
                .collect(),
            state: None,
            kernel: None,
            stabilisation,
            bindings: Vec::new(),
        });
        let mut others: Vec<(Array, String, Vec<Expr>)> = flow
            .outputs
            .iter()
            .map(|o| {
                (
                    Array::Named(o.name.clone()),
                    o.doc.clone(),
                    o.values.clone(),
                )
            })
            .collect();
        let mut kernel = None;
        if let Some(set) = &flow.constraints {
            // f^a, then the gradient of Ψ the acceleration residual is computed from.
            if !set.position.is_empty() {
                let doc = crate::project::dynamics_outputs(set, flow.state.len()).0[0]
                    .doc
                    .clone();
                others.push((Array::PositionResidual, doc, set.position.clone()));
            }
            let gradient = crate::project::residual_gradient(set, system, &flow.state);
            others.push((Array::Dpsi, String::new(), gradient));
            kernel = Some(crate::project::dynamics_outputs(set, flow.state.len()).1);
        }
        let (locals, stabilisation) = stabilised(Role::Dynamics).unzip();
        others.extend(locals.map(arrays).unwrap_or_default());
        plans.push(Plan {
            name: "dynamics".into(),
            doc: doc(&flow.dynamics_doc),
            outputs: std::iter::once(xdot).chain(others).collect(),
            state: None,
            kernel,
            stabilisation,
            bindings: Vec::new(),
        });
        // The Jacobian differentiates rhs's program, which the stabilisation follows: with it,
        // there is no Jacobian (docs/code-generation.md).
        if flow.jacobian && baumgarte.is_none() {
            // A place in the order only: `jacobian::functions` makes the Jacobians (by the state,
            // the inputs, the parameters) from rhs's program, with their own documentation.
            plans.push(Plan {
                name: "rhs_jacobian".into(),
                doc: String::new(),
                outputs: Vec::new(),
                state: None,
                kernel: None,
                stabilisation: None,
                bindings: Vec::new(),
            });
        }
        plans.extend(flow.companions.iter().map(|c| companion_plan(system, c)));
    }
    if let (Form::Implicit | Form::Both, Some(implicit)) = (form, &flow.implicit) {
        plans.push(implicit_plan(implicit));
    }
    plans.extend(step_plans(flow, system));
    plans
}

/// The functions the variational step calls ([`crate::step`]), under every form but `tree`.
fn step_plans(flow: &Flow, system: &System) -> Vec<Plan> {
    flow.step
        .iter()
        .flatten()
        .flat_map(|step| step::helpers(step).map(|c| companion_plan(system, c)))
        .collect()
}

/// The function of a companion system, on its own state.
fn companion_plan(system: &System, c: &Companion) -> Plan {
    // A companion without rates (inverse dynamics) returns only its outputs.
    let xdot =
        (!c.rates.is_empty()).then(|| (Array::Xdot, rates_doc(system, &c.state), c.rates.clone()));
    let others = c.outputs.iter().map(|o| {
        (
            Array::Named(o.name.clone()),
            o.doc.clone(),
            o.values.clone(),
        )
    });
    Plan {
        name: c.name.clone(),
        doc: c.doc.clone(),
        outputs: xdot.into_iter().chain(others).collect(),
        state: Some(c.state.clone()),
        kernel: None,
        stabilisation: None,
        bindings: c.bindings.clone(),
    }
}

/// `implicit`: `W`, the forcing, `μ` and `β`, row-major.
fn implicit_plan(form: &ImplicitForm) -> Plan {
    let n = form.mass.len();
    let r = form.jacobian.len();
    Plan {
        name: "implicit".into(),
        doc: "The implicit form: the accelerations a = d(y)/dt and multipliers lambda solve [W mu^T; mu 0] [a; lambda] = [forcing; bias], with W the mass matrix (n x n, row-major), mu the constraint Jacobian (r x n, row-major), forcing_alpha = F_alpha + rho_alpha(L) - (rho_0 + y rho)(p_alpha) + (C_0 + y C) p, and bias_a = -(rho_0 + y rho)(Psi^a). The coordinates evolve by the first entries of rhs.".into(),
        outputs: vec![
            (Array::Mass, format!("W, {n} x {n} row-major"), form.mass.iter().flatten().cloned().collect()),
            (Array::Forcing, format!("{n} entries"), form.forcing.clone()),
            (Array::Jacobian, format!("mu, {r} x {n} row-major"), form.jacobian.iter().flatten().cloned().collect()),
            (Array::Bias, format!("{r} entries"), form.bias.clone()),
        ],
        state: None,
        kernel: None,
        stabilisation: None,
        bindings: form.bindings.clone(),
    }
}

/// The argument layout and the functions of a flow (see [`report::Flow`]): closed-form rates
/// become programs here; rates solved at run time go to [`crate::numeric`].
pub fn functions(flow: &Flow, system: &System, options: CodeOptions) -> (Layout, Vec<Function>) {
    if options.form == Form::Tree {
        return tree_functions(flow, system, options);
    }
    let rates = match &flow.rates {
        Rates::Closed(rates) => rates,
        Rates::Solved(solved) => {
            let (layout, mut functions) = crate::numeric::functions(flow, solved, system, options);
            functions.extend(companion_functions(flow, system, &layout, options));
            return (layout, functions);
        }
    };
    let plans = plans(flow, rates, system, options);
    let constraint_exprs = flow
        .constraints
        .as_ref()
        .map(crate::project::expressions)
        .unwrap_or_default();
    let every: Vec<&Expr> = expressions(&plans).chain(&constraint_exprs).collect();
    let layout = Layout::of(system, flow.state.clone(), &every);
    let symbols = layout.symbols();
    let mut rhs_program: Option<Program> = None;
    let functions = plans
        .into_iter()
        .flat_map(|plan| {
            if plan.name == "rhs_jacobian" {
                let rhs: &Program = rhs_program
                    .as_ref()
                    .expect("rhs is planned before its Jacobians");
                return jacobian::functions(rates, rhs, &layout, options.egraph);
            }
            let (program, outputs) = plan_program(&plan, &layout, &symbols);
            if plan.name == "rhs" {
                rhs_program = Some(program.clone());
            }
            vec![finish(plan, (program, outputs), &layout, flow, options)]
        })
        .chain(
            flow.constraints
                .iter()
                .flat_map(|set| crate::project::functions(set, &symbols, options.egraph)),
        )
        .collect();
    (layout, functions)
}

/// A plan's program before equality saturation, and its output arrays.
fn plan_program(plan: &Plan, layout: &Layout, symbols: &[String]) -> (Program, Vec<Output>) {
    let own = plan.state.as_ref().map(|state| Layout {
        state: state.clone(),
        ..layout.clone()
    });
    let mut program = Program::new(own.as_ref().map_or(symbols.to_vec(), Layout::symbols));
    for (name, value) in &plan.bindings {
        program
            .bind(name, value)
            .unwrap_or_else(|u| panic!("{} uses `{}`, which is not an argument", plan.name, u.0));
    }
    let mut outputs = Vec::new();
    for (name, doc, exprs) in &plan.outputs {
        for (i, e) in exprs.iter().enumerate() {
            // The factorised form, when smaller, also costs fewer operations.
            program
                .output(name.at(i).to_string(), &e.factored())
                .unwrap_or_else(|u| {
                    panic!("{} uses `{}`, which is not an argument", plan.name, u.0)
                });
        }
        if !name.is_local() {
            outputs.push(Output {
                name: name.clone(),
                len: exprs.len(),
                doc: doc.clone(),
            });
        }
    }
    (program, outputs)
}

/// The function of a plan from its program and outputs ([`plan_program`]): the program saturated
/// when that saves operations, each value then placed next to its first use.
fn finish(
    plan: Plan,
    (program, mut outputs): (Program, Vec<Output>),
    layout: &Layout,
    flow: &Flow,
    options: CodeOptions,
) -> Function {
    // A recursion's program is lean already, and its values are deeply nested: saturation would
    // rebuild them as trees.
    let (program, stop) = if plan.bindings.is_empty() {
        let (program, stop) = program.optimised_within(options.egraph);
        (program, Some(stop))
    } else {
        (program, None)
    };
    if let Some(set) = flow.constraints.as_ref().filter(|_| plan.kernel.is_some()) {
        // `position_residual` is planned with the program's outputs already.
        let (extra, _) = crate::project::dynamics_outputs(set, layout.state.len());
        outputs.extend(
            extra
                .into_iter()
                .filter(|o| o.name == Array::AccelerationResidual),
        );
    }
    Function {
        name: plan.name,
        doc: plan.doc,
        outputs,
        program: program.scheduled(),
        solve: None,
        stabilisation: plan.stabilisation,
        kernel: plan.kernel,
        saturation: stop,
        state: plan.state,
        sparsity: None,
    }
}

/// The functions of a flow's companions on `layout` (for flows whose rates are solved at run
/// time, after the `numeric` module's functions; closed-form flows plan them with their other
/// functions).
fn companion_functions(
    flow: &Flow,
    system: &System,
    layout: &Layout,
    options: CodeOptions,
) -> Vec<Function> {
    let plans = flow.companions.iter().map(|c| companion_plan(system, c));
    let plans = plans.chain(step_plans(flow, system)).collect();
    plan_functions(plans, flow, layout, options)
}

/// The functions of `plans`, each on `layout` (its own state where the plan has one).
fn plan_functions(
    plans: Vec<Plan>,
    flow: &Flow,
    layout: &Layout,
    options: CodeOptions,
) -> Vec<Function> {
    let symbols = layout.symbols();
    plans
        .into_iter()
        .map(|plan| {
            let built = plan_program(&plan, layout, &symbols);
            finish(plan, built, layout, flow, options)
        })
        .collect()
}

/// Every expression the plans' outputs and bindings read (what decides the argument layout).
fn expressions(plans: &[Plan]) -> impl Iterator<Item = &Expr> {
    plans.iter().flat_map(|p| {
        p.outputs
            .iter()
            .flat_map(|o| o.2.iter())
            .chain(p.bindings.iter().map(|b| &b.1))
    })
}

/// The documented meaning of each entry of `f`.
pub fn function_docs(system: &System, layout: &Layout) -> Vec<String> {
    layout
        .functions
        .iter()
        .map(|s| system.spec_name(system.handle(s)))
        .collect()
}

/// The spec-syntax name of a symbol for documentation (`x'` for a tangent velocity).
pub fn symbol_doc(system: &System, s: &str) -> String {
    let symbol = system.handle(s);
    match system.symbols.kind(symbol) {
        Kind::Named(_)
        | Kind::Velocity(_)
        | Kind::FunctionDerivative(..)
        | Kind::Next(_)
        | Kind::Half(_)
        | Kind::Step => system.spec_name(symbol),
        Kind::Rate(_) | Kind::Multiplier(_) => s.to_string(),
    }
}

/// The artifacts of a flow in `language`: the header and the source for C, the module for Rust.
pub fn render(
    flow: &Flow,
    system: &System,
    options: CodeOptions,
    language: Language,
) -> diagnostic::Result<Vec<crate::Artifact>> {
    let (layout, functions) = timing::timed("functions", || functions(flow, system, options));
    render_from(flow, system, (&layout, &functions), options, language)
}

/// [`render`] with the flow's [`functions`] computed already: they do not depend on the
/// language, so a run that emits both C and Rust computes them once.
pub fn render_from(
    flow: &Flow,
    system: &System,
    (layout, functions): (&Layout, &[Function]),
    options: CodeOptions,
    language: Language,
) -> diagnostic::Result<Vec<crate::Artifact>> {
    // `--form tree` emits the recursions alone.
    let step = flow
        .step
        .as_ref()
        .and_then(|s| s.as_ref().ok())
        .filter(|_| options.form != Form::Tree);
    let mut artifacts = timing::timed("print", || {
        render_functions(system, (layout, functions, step), options, language)
    })?;
    if let Some(Err(why)) = &flow.step {
        // Said once, with the code file (not the header).
        if let Some(code) = artifacts.iter_mut().find(|a| !a.file_name.ends_with(".h")) {
            code.notes.push(format!(
                "no variational step is emitted: {why} (the discrete equations are in the JSON and LaTeX)"
            ));
        }
    }
    Ok(artifacts)
}

/// `0, 2, 5`: a list of indices for an initializer.
fn join(list: &[usize]) -> String {
    list.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The constant `1/2`.
fn half() -> Operand {
    Operand::Constant(Literal::new("1", "2"))
}

/// The artifacts of `functions` (on `layout`) in `language`, named after `system`: for outputs
/// other than a flow's, such as a linearisation's `state_space`.
pub fn render_function_set(
    system: &System,
    layout: &Layout,
    functions: &[Function],
    options: CodeOptions,
    language: Language,
) -> diagnostic::Result<Vec<crate::Artifact>> {
    render_functions(system, (layout, functions, None), options, language)
}

/// Lays the functions out through the templates.
fn render_functions(
    system: &System,
    (layout, functions, step): (&Layout, &[Function], Option<&report::DiscreteStep>),
    options: CodeOptions,
    language: Language,
) -> diagnostic::Result<Vec<crate::Artifact>> {
    let name = &system.name;
    let mut ctx = tera::Context::new();
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    ctx.insert("spec", &format!("system `{name}`"));
    ctx.insert("name", name);
    ctx.insert("prefix", name);
    ctx.insert("prefix_upper", &name.to_uppercase());
    ctx.insert("guard", &name.to_uppercase());
    ctx.insert("header", &format!("{name}.h"));
    ctx.insert("state_len", &layout.state.len());
    ctx.insert("param_len", &layout.parameters.len());
    ctx.insert("input_len", &layout.inputs.len());
    ctx.insert("function_len", &layout.functions.len());
    ctx.insert("multiplier_len", &system.constraints.len());
    ctx.insert("velocity_len", &system.rank());
    let docs =
        |list: &[String]| -> Vec<String> { list.iter().map(|s| symbol_doc(system, s)).collect() };
    ctx.insert("state", &docs(&layout.state));
    ctx.insert("parameters", &docs(&layout.parameters));
    ctx.insert("inputs", &docs(&layout.inputs));
    ctx.insert("function_docs", &function_docs(system, layout));
    ctx.insert(
        "default_real",
        match options.float {
            Float::F64 => "double",
            Float::F32 => "float",
        },
    );
    let (bits, flag) = match options.float {
        Float::F64 => (64, "f64"),
        Float::F32 => (32, "f32"),
    };
    ctx.insert("real_bits", &bits);
    ctx.insert("float_flag", flag);
    ctx.insert("fabs", &c_math("fabs", options.float));
    ctx.insert(
        "half",
        &operand(&half(), Language::C, options.float, &|_| String::new()),
    );
    ctx.insert(
        "zero",
        &operand(&Operand::zero(), Language::C, options.float, &|_| {
            String::new()
        }),
    );
    ctx.insert(
        "default_rust_real",
        match options.float {
            Float::F64 => "f64",
            Float::F32 => "f32",
        },
    );
    ctx.insert(
        "uses_calls",
        &functions.iter().any(|f| {
            f.program
                .nodes
                .iter()
                .any(|n| matches!(n, Node::Call(..) | Node::Pow(..)))
        }),
    );
    let projects = functions.iter().any(|f| {
        matches!(
            f.kernel,
            Some(Kernel::ProjectPosition { .. } | Kernel::ProjectVelocity { .. })
        )
    });
    let step = step::context(step, functions, name, language, options);
    ctx.insert(
        "uses_solve",
        &(projects || step.is_some() || functions.iter().any(|f| f.solve.is_some())),
    );
    ctx.insert("uses_projection", &projects);
    ctx.insert("projection_iterations", &crate::project::ITERATIONS);
    ctx.insert(
        "uses_schur",
        &(functions
            .iter()
            .any(|f| f.solve.as_ref().is_some_and(|s| s.r > 0))
            || step.as_ref().is_some_and(|s| s.schur)),
    );
    ctx.insert(
        "uses_kinetic",
        &functions
            .iter()
            .any(|f| f.solve.as_ref().is_some_and(|s| s.kinetic_from_mass)),
    );
    let mut artifacts = Vec::new();
    let notes = saturation_notes(functions, options.egraph);
    let mut ops = Vec::new();
    // The statements of every function, printed on two threads: printing reads a program and
    // the argument layout, plain data, and no CAS ([`crate::parallel`]); the largest programs
    // first.
    let printed = crate::parallel::map(
        functions,
        |f| f.program.nodes.len(),
        |f| statements(layout, f, language, options.float),
    );
    let rendered: Vec<tera::Value> = functions
        .iter()
        .zip(printed)
        .map(|(f, (mut body, mut assignments))| {
            let mut preamble = work::declarations(f, language, options.work);
            if let Some(solve) = &f.solve {
                preamble.extend(crate::numeric::declarations(solve, language));
            }
            body.splice(0..0, preamble);
            if let Some(solve) = &f.solve {
                // A stabilised bias is corrected before the solve reads it.
                if let Some(stabilisation @ Stabilisation::Bias { .. }) = &f.stabilisation {
                    assignments.extend(crate::project::stabilisation_lines(
                        stabilisation,
                        language,
                    ));
                }
                assignments.extend(crate::numeric::solve_lines(solve, language));
            }
            if let Some(stabilisation) = &f.stabilisation {
                if let Stabilisation::Rates { .. } = stabilisation {
                    assignments.extend(crate::project::stabilisation_lines(
                        stabilisation,
                        language,
                    ));
                }
            }
            if let Some(kernel) = &f.kernel {
                assignments.extend(crate::project::lines(
                    kernel,
                    name,
                    layout.state.len(),
                    language,
                ));
            }
            let count = match (&f.solve, &f.kernel) {
                (Some(solve), _) => crate::numeric::describe_total(&f.program.op_count(), solve),
                (None, Some(kernel)) => crate::project::describe_function(f, kernel),
                (None, None) => describe_count(&f.program.op_count()),
            };
            ops.push((f.name.clone(), total_ops(f)));
            serde_json::json!({
                "name": f.name,
                "doc": f.doc,
                "state": f.state.as_ref().map(|state| docs(state)),
                "outputs": f.outputs.iter().map(|o| serde_json::json!({"name": o.name.name(), "len": o.len, "doc": o.doc})).collect::<Vec<_>>(),
                "denominators": f.program.denominators.iter().map(|e| cas::print::spec(e, &system)).collect::<Vec<_>>(),
                "count": count,
                "work": work::caller_len(f, options.work),
                "sparsity": f.sparsity.as_ref().map(|p| serde_json::json!({
                    "rows": p.rows,
                    "columns": p.columns,
                    "nnz": p.nnz(),
                    "colind": join(&p.colind),
                    "row": if p.row.is_empty() { "0".to_string() } else { join(&p.row) },
                    "row_rust": join(&p.row),
                })),
                "footprint": work::footprint(f, language, options),
                "body": indented_lines(&body),
                "assignments": indented_lines(&assignments),
            })
        })
        .collect();
    ctx.insert("functions", &rendered);
    if let Some(step) = &step {
        ops.push(("step".to_string(), step.ops));
    }
    ctx.insert("step", &step);
    let files: &[(&str, String)] = match language {
        Language::C => &[
            ("c/system.h", format!("{name}.h")),
            ("c/system.c", format!("{name}.c")),
        ],
        Language::Rust => &[("rust/system.rs", format!("{name}.rs"))],
    };
    for (template, file_name) in files {
        let contents = crate::templates::render(template, &ctx)
            .map_err(|e| Diagnostic::internal(format!("template {template}: {e:?}")))?;
        let code = !file_name.ends_with(".h");
        artifacts.push(crate::Artifact {
            file_name: file_name.clone(),
            contents,
            ops: if code { ops.clone() } else { Vec::new() },
            notes: if code { notes.clone() } else { Vec::new() },
        });
    }
    Ok(artifacts)
}

/// A function's operations as its banner states them: its program, plus the solve and the
/// `implicit` call of the implicit route.
fn total_ops(f: &Function) -> usize {
    let own = f.program.op_count();
    let kernel = f.kernel.as_ref().map_or(0, crate::project::count)
        + f.stabilisation
            .as_ref()
            .map_or(0, crate::project::stabilisation_count);
    kernel
        + match &f.solve {
            Some(solve) => crate::numeric::total(&own, solve),
            None => own.total(),
        }
}

/// `lines` as the statements of a function body: each on a line of its own, indented by four
/// spaces (one string, so that the template writes it at once instead of looping over lines).
fn indented_lines(lines: &[String]) -> String {
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 5).sum());
    for line in lines {
        text.push_str("\n    ");
        text.push_str(line);
    }
    text
}

/// One note naming the functions whose equality saturation stopped at a budget, if any.
fn saturation_notes(functions: &[Function], limits: Limits) -> Vec<String> {
    let stopped = |stop: Stop| -> Vec<&str> {
        functions
            .iter()
            .filter(|f| f.saturation == Some(stop))
            .map(|f| f.name.as_str())
            .collect()
    };
    let mut notes = Vec::new();
    let nodes = stopped(Stop::Nodes);
    if !nodes.is_empty() {
        notes.push(format!(
            "equality saturation of {} stopped at the e-node budget ({} nodes, --egraph-nodes); the cheapest program found by then is emitted",
            nodes.join(", "),
            limits.nodes
        ));
    }
    let iterations = stopped(Stop::Iterations);
    if !iterations.is_empty() {
        notes.push(format!(
            "equality saturation of {} stopped at the iteration budget ({} iterations, --egraph-iters); the cheapest program found by then is emitted",
            iterations.join(", "),
            limits.iterations
        ));
    }
    notes
}
