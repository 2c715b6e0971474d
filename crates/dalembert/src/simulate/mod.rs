//! `dalembert simulate SPEC --set p=…,… --init x=…,… --until T`: the derived system integrated in
//! process, with no C compiler (see [`machine`]), to a CSV of the motion and an SVG plot.
//!
//! The state integrated is the flow's state plus one entry, `work`, the integral of the derived
//! energy rate `dE/dt` (the `dynamics` function's `energy[1]`). So the energy balance can be
//! checked at every sample: `E(t) − E(0) − work(t)` is zero for the exact motion, whether the
//! energy is conserved (`dE/dt = 0`) or changes as derived (forces, inputs, time-dependent
//! constraints); numerically it is at the integrator's tolerance.
//!
//! After each step the state is moved back onto the constraints by the emitted projections
//! (`project_position`, `project_velocity`) where the system has them (`--no-project` turns
//! this off, to see the drift). The initial state must satisfy the constraints: otherwise it is
//! refused with the residuals named, or projected with `--project-init`.

mod machine;

use std::collections::BTreeMap;

use cas::Expr;
use emit::code::Array;
use machine::{Arguments, Machine};
use model::symbols::Handle;
use syntax::{Code, Diagnostic};

use crate::{Artifact, Options};

/// How to integrate.
#[derive(Clone, Debug)]
pub struct Request {
    /// `--set`: every parameter's value.
    pub set: String,
    /// `--init`: state entries (the others are zero).
    pub init: String,
    /// `--input`: inputs and given functions of time, as expressions of time (the others are
    /// zero).
    pub input: String,
    /// `--until`.
    pub until: f64,
    /// `--dt`: the output interval, and the step of RK4.
    pub dt: Option<f64>,
    /// `--method`.
    pub integrator: Integrator,
    /// `--rtol`, `--atol` of Dormand–Prince.
    pub tolerances: (f64, f64),
    /// `--project-init`.
    pub project_init: bool,
    /// `--no-project`.
    pub no_project: bool,
    /// Show a progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// The integration method (`--method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integrator {
    /// `dp54`: adaptive Dormand–Prince 5(4).
    DormandPrince,
    /// `rk4`: the classical Runge–Kutta method with the fixed step `--dt`.
    RungeKutta,
    /// `variational`: the variational integrator of the spec's discrete equations (the midpoint
    /// rule when the spec has no `discrete` item) with the fixed step `--dt`
    /// ([`mech::discrete::step`]).
    Variational,
}

/// A simulation: the trajectory and the files.
pub struct Simulated {
    /// The samples.
    pub trajectory: sim::Trajectory,
    /// `<system>-simulation.csv` and `<system>-simulation.svg`.
    pub artifacts: Vec<Artifact>,
    /// What the command prints.
    pub summary: Vec<String>,
}

/// A refusal as the command reports it: an argument that cannot be read (E0003), a start off
/// the constraints (E0511), an integration that stopped (E0512).
fn refuse(code: Code, message: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::unlocated(code, message)]
}

/// Simulates the spec `source` (derived by the route `options` chooses).
pub fn simulate_spec(
    source: &str,
    request: &Request,
    options: &Options,
) -> syntax::Result<Simulated> {
    let derived = crate::compile_with(source, options)?;
    let system = derived.system();
    if !derived.is_lagrange_dalembert() {
        return Err(refuse(Code::E0510, "simulate integrates Lagrange-d'Alembert systems (unconstrained, nonholonomic or holonomic); for vakonomic, singular and contact systems emit code and integrate it"));
    }
    let flow = mech::lower::flow(&derived);
    let machine = Machine::new(&flow, system);
    let args = arguments(system, &machine, request)?;
    let state = machine.layout().state.clone();
    let names: Vec<(String, String)> = state
        .iter()
        .map(|s| (system.spec_name(system.handle(s)), s.clone()))
        .collect();
    let init = model::point::read_assignments(system, &request.init, &names)
        .map_err(|m| refuse(Code::E0003, format!("--init: {m}")))?;
    let mut x0: Vec<f64> = Vec::with_capacity(state.len());
    for s in &state {
        x0.push(match init.get(s) {
            Some(e) => number(e, &BTreeMap::new())
                .map_err(|m| refuse(Code::E0003, format!("--init: {m}")))?,
            None => 0.0,
        });
    }
    start_on_constraints(system, &machine, &args, &mut x0, request)?;
    let stepper = match request.integrator {
        Integrator::Variational => Some(stepper(&derived)?),
        _ => None,
    };
    let run = integrate(system, (&machine, stepper.as_ref()), &args, &x0, request)?;
    let artifacts = files(system, &run)?;
    Ok(Simulated {
        summary: summary(system, &run),
        trajectory: run.trajectory,
        artifacts,
    })
}

/// The variational integrator's step: the spec's discrete equations, or those of
/// [`mech::discrete::default_method`] (E0296 for a system without them, E0510 for a Lagrangian
/// not quadratic in the velocities).
fn stepper(derived: &crate::Derived) -> syntax::Result<mech::discrete::step::Stepper> {
    let system = derived.system();
    let given = match derived {
        crate::Derived::Closed(d) => d.discrete.clone(),
        crate::Derived::Implicit(d) => d.discrete.clone(),
        _ => None,
    };
    let equations = match given {
        Some(e) => e,
        None => mech::discrete::derive_as(system, mech::discrete::default_method(system))?,
    };
    mech::discrete::step::Stepper::new(system, &equations)
        .map_err(|m| refuse(Code::E0510, format!("--method variational: {m}")))
}

/// Where a value a step reads after the state comes from ([`Stepper::others`]).
///
/// [`Stepper::others`]: mech::discrete::step::Stepper::others
#[derive(Clone, Copy)]
enum StepValue {
    /// The `k`-th parameter.
    Parameter(usize),
    /// The `k`-th input, at the step's midpoint `t + h/2`.
    Input(usize),
}

/// The sources of [`Stepper::others`], found once for every step of a run.
///
/// [`Stepper::others`]: mech::discrete::step::Stepper::others
fn step_sources(system: &model::System, others: &[String]) -> Vec<Option<StepValue>> {
    let parameters = system.keys(&system.parameters);
    let inputs = system.keys(&system.inputs);
    others
        .iter()
        .map(|name| {
            parameters
                .iter()
                .position(|p| p == name)
                .map(StepValue::Parameter)
                .or_else(|| inputs.iter().position(|u| u == name).map(StepValue::Input))
        })
        .collect()
}

/// The values a step from `t` of length `h` reads after the state.
fn step_values(sources: &[Option<StepValue>], args: &Arguments, t: f64, h: f64) -> Vec<f64> {
    let signals = (args.inputs)(t + h / 2.0);
    sources
        .iter()
        .map(|source| match source {
            Some(StepValue::Parameter(k)) => args.parameters[*k],
            Some(StepValue::Input(k)) => signals[*k],
            None => f64::NAN,
        })
        .collect()
}

/// The value of an expression with no free symbol but those of `values`.
fn number(e: &Expr, values: &BTreeMap<String, f64>) -> Result<f64, String> {
    e.evaluate(values).filter(|v| v.is_finite()).ok_or_else(|| {
        let free: Vec<String> = e
            .symbols()
            .into_iter()
            .filter(|s| !values.contains_key(s))
            .collect();
        if free.is_empty() {
            "a value is not a finite number".to_string()
        } else {
            format!("a value depends on {}, which has no value", free.join(", "))
        }
    })
}

/// `p`, and `u(t)`, `f(t)` from `--set` and `--input`.
fn arguments(
    system: &model::System,
    machine: &Machine,
    request: &Request,
) -> syntax::Result<Arguments> {
    let parameter_names: Vec<(String, String)> = system
        .parameters
        .iter()
        .map(|s| (system.spec_name(*s), system.key(*s)))
        .collect();
    let set = model::point::read_assignments(system, &request.set, &parameter_names)
        .map_err(|m| refuse(Code::E0003, format!("--set: {m}")))?;
    let missing: Vec<Handle> = system
        .parameters
        .iter()
        .copied()
        .filter(|p| !set.contains_key(&system.key(*p)))
        .collect();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|s| system.spec_name(*s)).collect();
        return Err(refuse(
            Code::E0003,
            format!(
                "--set: every parameter needs a value; missing: {}",
                names.join(", ")
            ),
        ));
    }
    let mut values = BTreeMap::new();
    let mut parameters = Vec::new();
    for p in system.keys(&system.parameters) {
        let v =
            number(&set[&p], &values).map_err(|m| refuse(Code::E0003, format!("--set: {m}")))?;
        values.insert(p, v);
        parameters.push(v);
    }
    // Inputs and the given functions of time, as expressions of time.
    let signal_names: Vec<(String, String)> = system
        .inputs
        .iter()
        .chain(&system.functions)
        .map(|s| (system.key(*s), system.key(*s)))
        .collect();
    let signals = model::point::read_assignments(system, &request.input, &signal_names)
        .map_err(|m| refuse(Code::E0003, format!("--input: {m}")))?;
    let time = system.key(system.time);
    let signal = |name: &str, order: u32| -> Expr {
        let mut e = signals.get(name).cloned().unwrap_or_else(Expr::zero);
        for _ in 0..order {
            e = e.diff(&time);
        }
        e
    };
    let inputs: Vec<Expr> = system
        .keys(&system.inputs)
        .iter()
        .map(|u| signal(u, 0))
        .collect();
    let functions: Vec<Expr> = machine
        .layout()
        .functions
        .iter()
        .map(|s| {
            let symbol = system.handle(s);
            let (f, order) = system.function_order(symbol).unwrap_or((symbol, 0));
            signal(&system.key(f), order)
        })
        .collect();
    for e in inputs.iter().chain(&functions) {
        let mut at = values.clone();
        at.insert(time.clone(), 0.0);
        number(e, &at).map_err(|m| {
            refuse(
                Code::E0003,
                format!("--input: {m} (inputs are functions of {time} and the parameters)"),
            )
        })?;
    }
    let evaluate = move |exprs: Vec<Expr>, values: BTreeMap<String, f64>, time: String| {
        move |t: f64| -> Vec<f64> {
            let mut at = values.clone();
            at.insert(time.clone(), t);
            exprs
                .iter()
                .map(|e| e.evaluate(&at).unwrap_or(f64::NAN))
                .collect()
        }
    };
    Ok(Arguments {
        parameters,
        inputs: Box::new(evaluate(inputs, values.clone(), time.clone())),
        functions: Box::new(evaluate(functions, values, time)),
    })
}

/// The most calls of the projections `--project-init` makes.
const PROJECTION_ROUNDS: usize = 20;

/// The largest constraint residual allowed at the start.
const START_TOLERANCE: f64 = 1e-9;

/// The constraint residuals `(name, value)` at `(t, x)`: the holonomic `f1…`, then `Psi1…`.
fn residuals(
    machine: &Machine,
    args: &Arguments,
    t: f64,
    x: &[f64],
) -> Result<Vec<(String, f64)>, String> {
    Ok(residuals_of(&machine.call("dynamics", t, x, args)?))
}

/// The constraint residuals `dynamics` wrote, named as [`residuals`] names them.
fn residuals_of(slots: &machine::Slots) -> Vec<(String, f64)> {
    let velocity = slots
        .array(&Array::Residual)
        .into_iter()
        .enumerate()
        .map(|(a, v)| (format!("Psi{}", a + 1), v));
    let position = slots
        .array(&Array::PositionResidual)
        .into_iter()
        .enumerate()
        .map(|(a, v)| (format!("f{}", a + 1), v));
    position.chain(velocity).collect()
}

/// Checks the initial state against the constraints; projects it with `--project-init`.
fn start_on_constraints(
    system: &model::System,
    machine: &Machine,
    args: &Arguments,
    x0: &mut [f64],
    request: &Request,
) -> syntax::Result<()> {
    let off = |x: &[f64]| -> syntax::Result<Vec<(String, f64)>> {
        Ok(residuals(machine, args, 0.0, x)
            .map_err(|m| refuse(Code::E0512, format!("at the initial state: {m}")))?
            .into_iter()
            .filter(|(_, v)| v.is_nan() || v.abs() > START_TOLERANCE)
            .collect())
    };
    let violated = off(x0)?;
    if violated.is_empty() {
        return Ok(());
    }
    if request.project_init {
        // Each call takes the emitted number of Gauss-Newton steps, made for the small drift of
        // one integration step; a start far off may need several.
        let mut still = violated;
        for _ in 0..PROJECTION_ROUNDS {
            machine
                .project_start(0.0, x0, args)
                .map_err(|m| refuse(Code::E0511, format!("--project-init: {m}")))?;
            still = off(x0)?;
            if still.is_empty() {
                return Ok(());
            }
        }
        return Err(refuse(
            Code::E0511,
            format!(
                "--project-init could not bring the initial state onto the constraints: {}",
                describe(system, &still)
            ),
        ));
    }
    Err(refuse(
        Code::E0511,
        format!(
            "the initial state is not on the constraints: {}; give a consistent --init, or add --project-init",
            describe(system, &violated)
        ),
    ))
}

/// `Psi1 = 0.3 (constraint 1: u1 - r*w2 + …)`.
fn describe(system: &model::System, residuals: &[(String, f64)]) -> String {
    residuals
        .iter()
        .map(|(name, v)| {
            let number: usize = name
                .trim_start_matches(['P', 's', 'i', 'f'])
                .parse()
                .unwrap_or(1);
            let constraint = if name.starts_with('f') {
                system
                    .holonomic()
                    .get(number - 1)
                    .map(|(_, f)| (*f).clone())
            } else {
                system.constraints.get(number - 1).map(|c| c.psi.clone())
            };
            match constraint {
                Some(c) => format!("{name} = {v:e} ({} = 0)", cas::print::spec(&c, system)),
                None => format!("{name} = {v:e}"),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A finished integration.
struct Run {
    trajectory: sim::Trajectory,
    states: Vec<String>,
    residuals: Vec<String>,
}

/// The name of the integral of the energy rate, the extra state entry.
const WORK: &str = "work";

/// Integrates `x0` and observes the energy, the multipliers and the residuals.
fn integrate(
    system: &model::System,
    (machine, stepper): (&Machine, Option<&mech::discrete::step::Stepper>),
    args: &Arguments,
    x0: &[f64],
    request: &Request,
) -> syntax::Result<Run> {
    let n = x0.len();
    let states: Vec<String> = machine
        .layout()
        .state
        .iter()
        .map(|s| system.spec_name(system.handle(s)))
        .collect();
    let first = machine
        .call("dynamics", 0.0, x0, args)
        .map_err(|m| refuse(Code::E0512, format!("at t = 0: {m}")))?;
    let e0 = first.get(&Array::Energy, 0).unwrap_or(f64::NAN);
    let multipliers = first.array(&Array::Lambda).len();
    let residual_names: Vec<String> = residuals_of(&first)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut extra: Vec<String> = vec!["E".into(), "dE/dt".into(), "energy_balance".into()];
    extra.extend((1..=multipliers).map(|a| format!("lambda{a}")));
    extra.extend(residual_names.iter().cloned());
    let mut names = states.clone();
    names.push(WORK.into());
    let rhs = |t: f64, z: &[f64], zdot: &mut [f64]| -> Result<(), String> {
        let slots = machine.call("dynamics", t, &z[..n], args)?;
        for (k, v) in zdot.iter_mut().take(n).enumerate() {
            *v = slots.get(&Array::Xdot, k).unwrap_or(f64::NAN);
        }
        zdot[n] = slots.get(&Array::Energy, 1).unwrap_or(f64::NAN);
        Ok(())
    };
    let observe = |t: f64, z: &[f64]| -> Result<Vec<f64>, String> {
        let slots = machine.call("dynamics", t, &z[..n], args)?;
        let e = slots.get(&Array::Energy, 0).unwrap_or(f64::NAN);
        let mut out = vec![
            e,
            slots.get(&Array::Energy, 1).unwrap_or(f64::NAN),
            e - e0 - z[n],
        ];
        out.extend(slots.array(&Array::Lambda));
        out.extend(slots.array(&Array::PositionResidual));
        out.extend(slots.array(&Array::Residual));
        Ok(out)
    };
    let progress = if request.progress {
        sim::Progress::new(request.until)
    } else {
        sim::Progress::hidden(request.until)
    };
    let mut integrator = sim::System::new(names, rhs)
        .with_observer(extra, observe)
        .with_progress(|t| progress.update(t));
    let projects =
        !request.no_project && (machine.has("project_position") || machine.has("project_velocity"));
    if projects {
        integrator =
            integrator.with_projection(|t, z: &mut [f64]| machine.project(t, &mut z[..n], args));
    }
    if let Some(stepper) = stepper {
        // One step of the variational integrator, and the work of the forces over it (the
        // energy balance of a step, exact for a quadratic energy).
        let sources = step_sources(system, &stepper.others);
        integrator = integrator.with_map(move |t, h, z: &[f64], next: &mut [f64]| {
            let values = step_values(&sources, args, t, h);
            let stepped = stepper.step(t, h, &z[..n], &values, &mut next[..n])?;
            next[n] = z[n] + stepped.work;
            Ok(())
        });
    }
    let mut settings = sim::Settings::new(request.until);
    if let Some(dt) = request.dt {
        settings = settings.with_dt_out(dt);
    }
    let fixed_step = request.dt.unwrap_or(request.until / 1000.0);
    settings = match request.integrator {
        Integrator::RungeKutta => settings.with_method(sim::Method::Rk4 { h: fixed_step }),
        Integrator::Variational => settings.with_method(sim::Method::Map { h: fixed_step }),
        Integrator::DormandPrince => {
            let (rtol, atol) = request.tolerances;
            settings.with_method(sim::Method::Dopri5(sim::Dopri5Options::with_tolerances(
                rtol, atol,
            )))
        }
    };
    let mut z0 = x0.to_vec();
    z0.push(0.0);
    let trajectory = integrator
        .integrate(&z0, &settings)
        .map_err(|e| refuse(Code::E0512, format!("the integration stopped: {e}")))?;
    progress.finish();
    Ok(Run {
        trajectory,
        states,
        residuals: residual_names,
    })
}

/// The CSV and the SVG.
fn files(system: &model::System, run: &Run) -> syntax::Result<Vec<Artifact>> {
    let mut csv = Vec::new();
    sim::write_csv(&run.trajectory, &mut csv)
        .map_err(|e| Diagnostic::internal(format!("the CSV: {e}")))?;
    let states: Vec<&str> = run.states.iter().map(String::as_str).collect();
    let plot_error = |e: sim::Error| Diagnostic::internal(format!("the plot: {e}"));
    let mut panels = vec![
        sim::Panel::new("states", "value")
            .with_columns(&run.trajectory, &states)
            .map_err(plot_error)?,
        sim::Panel::new("energy change E - E(0)", "E - E(0)")
            .with_series("E - E(0)", energy_change(&run.trajectory)),
    ];
    let mut checks = sim::Panel::new(
        "energy balance E - E(0) - integral of dE/dt, and constraint residuals",
        "magnitude",
    )
    .with_scale(sim::Scale::Log { floor: 1e-18 });
    for name in std::iter::once("energy_balance").chain(run.residuals.iter().map(String::as_str)) {
        let values = run.trajectory.column(name).unwrap_or_default();
        checks = checks.with_series(name, values);
    }
    panels.push(checks);
    let svg = sim::plot_svg(&run.trajectory, &panels);
    Ok(vec![
        Artifact::file(
            format!("{}-simulation.csv", system.name),
            String::from_utf8(csv).unwrap_or_default(),
        ),
        Artifact::file(format!("{}-simulation.svg", system.name), svg),
    ])
}

/// `E(t) − E(0)` at every sample.
fn energy_change(trajectory: &sim::Trajectory) -> Vec<f64> {
    let e = trajectory.column("E").unwrap_or_default();
    let e0 = e.first().copied().unwrap_or(0.0);
    e.iter().map(|v| v - e0).collect()
}

/// The largest magnitude of a column.
fn largest(trajectory: &sim::Trajectory, name: &str) -> f64 {
    trajectory
        .column(name)
        .unwrap_or_default()
        .iter()
        .fold(0.0, |m: f64, v| m.max(v.abs()))
}

/// What the command prints.
fn summary(system: &model::System, run: &Run) -> Vec<String> {
    let t = &run.trajectory;
    let stats = &t.stats;
    let mut lines = vec![format!(
        "{}: integrated to t = {} ({} steps accepted, {} rejected, {} evaluations; {} samples)",
        system.name,
        t.times.last().copied().unwrap_or(0.0),
        stats.accepted_steps,
        stats.rejected_steps,
        stats.rhs_evaluations,
        t.times.len()
    )];
    lines.push(format!(
        "  energy balance |E - E(0) - integral of dE/dt| <= {:.3e}",
        largest(t, "energy_balance")
    ));
    if !run.residuals.is_empty() {
        let worst = run
            .residuals
            .iter()
            .map(|r| largest(t, r))
            .fold(0.0, f64::max);
        lines.push(format!("  constraint residuals <= {worst:.3e}"));
    }
    lines
}
