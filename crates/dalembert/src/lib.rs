//! dalembert: a compiler for constrained mechanics.
//!
//! A spec (`*.mech`, see `docs/spec-language.md`) describes a mechanical system on a Lie
//! algebroid or affgebroid: coordinates, the algebroid's anchors and brackets, a Lagrangian and
//! nonholonomic constraints. dalembert derives, exactly, what [IMMS07] derives by hand — the
//! Euler–Lagrange and Lagrange–d'Alembert equations with their multipliers in closed form, the
//! Poincaré–Cartan forms, the constraint matrix and projector, the energy balance — proves the
//! spec's `expect` blocks, and renders the result as JSON and LaTeX.
//!
//! [`compile`] is the pipeline: parse → resolve → derive (the closed form). [`compile_with`] lets
//! the size of the system choose between the closed form and the implicit form that the emitted
//! code solves numerically (`--solve` on the command line), and [`render_derived`] renders either.
#![warn(missing_docs)]

pub mod linearize;
pub mod lock;
pub mod output;
pub mod reduce;
pub mod simulate;
pub mod watchdog;

pub use emit::code::{Baumgarte, CodeOptions, Float, Form, Work};
pub use emit::{Artifact, Target};
pub use emit::{LatexOptions, SectionLevel};
pub use mech::check::{Outcome, Verdict};
pub use mech::{
    Choice, ContactDerivation, Derivation, Derived, Method, Options, Route, SingularDerivation,
    Solve, VakonomicDerivation,
};
pub use syntax::{render_plain, render_terminal, Diagnostic};

/// The pipeline: spec text in, derivation (or every diagnostic found) out. The `expect` blocks
/// are resolved (known kinds, keys that name quantities of the system) but not proved: that is
/// [`check`].
pub fn compile(source: &str) -> syntax::Result<Derivation> {
    let spec = syntax::parse(source)?;
    let system = resolve(&spec)?;
    let derivation = mech::derive(&system)?;
    mech::check::validate_derived(&derivation)?;
    Ok(derivation)
}

/// Name resolution, and the checks of a declared symmetry group (that it is an action, that the
/// Lagrangian and constraints are invariant, that the connection exists): a symmetry that is not
/// one is refused on every command, not only by `reduce`.
fn resolve(spec: &syntax::ast::Spec) -> syntax::Result<model::System> {
    let system = model::resolve(spec)?;
    if !system.groups.is_empty() {
        mech::reduction::reduce(&system)?;
    }
    Ok(system)
}

/// The pipeline with the route chosen by `options.solve` (see [`mech::lagrange::implicit`]): the closed
/// form for small systems, the implicit form (solved numerically by the emitted code) for large
/// ones; every stage within the size budget `options.max_terms` (E0501).
pub fn compile_with(source: &str, options: &Options) -> syntax::Result<Derived> {
    let spec = syntax::parse(source)?;
    let system = resolve(&spec)?;
    let derived = mech::derive_with(&system, options)?;
    match &derived {
        Derived::Closed(d) => mech::check::validate_derived(d)?,
        Derived::Vakonomic(d) => mech::check::validate_vakonomic(d)?,
        _ => {}
    }
    Ok(derived)
}

/// The budgets and options of one `derive` run that are enforced inside the pipeline (the wall
/// time and memory budgets are the [`watchdog`]'s, because they must end the process).
#[derive(Clone, Debug, Default)]
pub struct Budgets {
    /// The route and the size budget of the derivation.
    pub derive: Options,
    /// The emitted code: float type, functions, e-graph budget.
    pub code: CodeOptions,
    /// The largest emitted function, in operations (E0502); `None` for no limit.
    pub max_ops: Option<usize>,
    /// The time a derivation may take, checked between its stages (E0503; `Options::deadline`);
    /// `None` for no limit. The command line leaves it `None`: its `--timeout` watchdog ends the
    /// process instead.
    pub time_limit: Option<std::time::Duration>,
    /// What the LaTeX document holds and its sections' level (`--latex-sections`,
    /// `--latex-level`).
    pub latex: LatexOptions,
}

impl Budgets {
    /// The small budgets of the fuzzing runs (the CI's generated specs and the cargo-fuzz target,
    /// `docs/fuzzing.md`): a random system that swells is answered with E0501 rather than waited
    /// for.
    pub fn fuzzing() -> Budgets {
        let mut budgets = Budgets::default();
        budgets.derive.max_terms = 2_000;
        budgets.code.egraph.nodes = 2_000;
        budgets.code.egraph.iterations = 3;
        budgets.max_ops = Some(200_000);
        budgets.time_limit = Some(std::time::Duration::from_secs(5));
        budgets
    }
}

/// Why a spec gave no artifacts.
#[derive(Debug)]
pub enum Failure {
    /// Diagnostics located in the spec (syntax, names, singular systems, E0501).
    Spec(Vec<Diagnostic>),
    /// A budget of the emitted code (E0502) or a rendering failure, as a message.
    Output(String),
}

/// What `dalembert derive` does with one spec's text: compile it, render `targets`, enforce the
/// operation budget. The artifacts' notes are for the user; nothing is written.
pub fn derive_spec(
    source: &str,
    targets: &[Target],
    budgets: &Budgets,
) -> Result<Vec<Artifact>, Failure> {
    let mut options = budgets.derive;
    if let Some(limit) = budgets.time_limit {
        options.deadline = Some(std::time::Instant::now() + limit);
    }
    let derived = compile_with(source, &options).map_err(Failure::Spec)?;
    let artifacts = render_derived_with(&derived, targets, budgets.code, &budgets.latex)
        .map_err(Failure::Output)?;
    if let Some(message) = budgets
        .max_ops
        .and_then(|max| over_op_budget(&artifacts, max))
    {
        return Err(Failure::Output(message));
    }
    Ok(artifacts)
}

/// Renders the requested targets of a derivation by any route; each artifact notes the route's
/// choice (closed or implicit form, and why).
pub fn render_derived(
    derived: &Derived,
    targets: &[Target],
    options: CodeOptions,
) -> Result<Vec<Artifact>, String> {
    render_derived_with(derived, targets, options, &LatexOptions::default())
}

/// [`render_derived`] with the LaTeX document's selection and section level.
pub fn render_derived_with(
    derived: &Derived,
    targets: &[Target],
    options: CodeOptions,
    latex: &LatexOptions,
) -> Result<Vec<Artifact>, String> {
    let mut artifacts = render_targets(
        targets,
        (options, latex),
        derived.system(),
        || with_reduced_equations(mech::describe::report(derived), derived.system()),
        || mech::lower::flow(derived),
    )?;
    if let Some(choice) = derived.choice() {
        for artifact in &mut artifacts {
            artifact.notes.push(choice.note());
        }
    }
    Ok(artifacts)
}

/// The report with the reduced equations added to its "Reduction by symmetry" section, when the
/// system declares a symmetry ([`reduce::reduced_equations`]).
fn with_reduced_equations(mut report: report::Report, system: &model::System) -> report::Report {
    if let Some(equations) = reduce::reduced_equations(system) {
        if let Some(section) = report
            .sections
            .iter_mut()
            .find(|s| s.key.as_deref() == Some("reduction"))
        {
            section.section(equations);
        }
    }
    report
}

/// Renders `targets`: documents from the report `describe` gives, code from the flow `lower`
/// gives (each lowered once, and only when a target needs it).
fn render_targets(
    targets: &[Target],
    (options, latex): (CodeOptions, &LatexOptions),
    system: &model::System,
    describe: impl Fn() -> report::Report,
    lower: impl Fn() -> report::Flow,
) -> Result<Vec<Artifact>, String> {
    let mut flow = None;
    let mut report = None;
    let mut artifacts = Vec::new();
    for &target in targets {
        if matches!(target, Target::Cmake | Target::Crate) {
            let flow = flow.get_or_insert_with(&lower);
            if options.form == Form::Tree {
                refuse_tree_form(flow)?;
            }
            artifacts.extend(emit::package(flow, system, options, target)?);
            continue;
        }
        match target.language() {
            None => {
                let report = report.get_or_insert_with(&describe);
                artifacts.extend(emit::document(report, system, target, latex)?);
            }
            Some(language) => {
                let flow = flow.get_or_insert_with(&lower);
                if options.form == Form::Tree {
                    refuse_tree_form(flow)?;
                }
                artifacts.extend(emit::code::render(flow, system, options, language)?);
            }
        }
    }
    Ok(artifacts)
}

/// What `dalembert check` does with one spec's text: derive it (the closed form, or the
/// vakonomic derivation of a system with vakonomic constraints; the implicit form when every
/// block can be proved on it, see [`mech::check::check_implicit`]) and prove its `expect`
/// blocks.
pub fn check_source(source: &str) -> syntax::Result<(model::System, Vec<Outcome>)> {
    let spec = syntax::parse(source)?;
    let system = resolve(&spec)?;
    // The default route first; where it gives the implicit form and a block needs the closed
    // form, the closed form is forced (and, past the size budget, the implicit form's E0405 says
    // which blocks it cannot prove).
    let derived = match mech::derive_with(&system, &Options::default())? {
        Derived::Implicit(d) if !mech::check::provable_on_implicit(&d) => {
            let symbolic = Options {
                solve: Solve::Symbolic,
                ..Options::default()
            };
            match mech::derive_with(&system, &symbolic) {
                Err(e) if e.iter().any(|e| e.code == "E0501") => Derived::Implicit(d),
                other => other?,
            }
        }
        other => other,
    };
    let outcomes = match derived {
        Derived::Closed(d) => {
            mech::check::validate_derived(&d)?;
            mech::check::check(&d)?
        }
        Derived::Vakonomic(d) => {
            mech::check::validate_vakonomic(&d)?;
            mech::check::check_vakonomic(&d)?
        }
        Derived::Singular(d) => mech::check::check_singular(&d)?,
        Derived::Contact(d) => mech::check::check_contact(&d)?,
        Derived::Implicit(d) => mech::check::check_implicit(&d)?,
    };
    Ok((system, outcomes))
}

/// Proves every `expect` block of a derivation.
pub fn check(derivation: &Derivation) -> syntax::Result<Vec<Outcome>> {
    mech::check::check(derivation)
}

/// Renders the requested targets with the default code options (f64, both forms).
pub fn render(derivation: &Derivation, targets: &[Target]) -> Result<Vec<Artifact>, String> {
    render_with(derivation, targets, CodeOptions::default())
}

/// Renders the requested targets.
pub fn render_with(
    derivation: &Derivation,
    targets: &[Target],
    options: CodeOptions,
) -> Result<Vec<Artifact>, String> {
    render_targets(
        targets,
        (options, &LatexOptions::default()),
        &derivation.system,
        || mech::describe::closed_report(derivation),
        || mech::lower::closed(derivation),
    )
}

/// Prints an expression of a derivation in the spec's syntax.
pub fn show(derivation: &Derivation, e: &cas::Expr) -> String {
    cas::print::spec(e, &derivation.system)
}

/// Reads a spec file as UTF-8 text; a file that is not UTF-8 is reported with the offset of its
/// first bad byte.
pub fn read_spec(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..offset]).into_owned();
        let (line, col) = syntax::line_col(&text, offset);
        format!(
            "{}:{line}:{col}: error[E0001]: the file is not UTF-8 text (invalid byte at offset {offset})",
            path.display()
        )
    })
}

/// E0505: `--form tree` on a flow without the recursions of a tree of joints.
fn refuse_tree_form(flow: &report::Flow) -> Result<(), String> {
    let has_tree = flow
        .companions
        .iter()
        .any(|c| c.name == emit::code::TREE_FUNCTIONS[0]);
    if has_tree {
        return Ok(());
    }
    Err("error[E0505]: `--form tree` emits the recursions of a tree of joints (forward_dynamics, inverse_dynamics), and this system has none: it is not written with bodies and joints (see docs/spec-language.md, \"Bodies and joints\"); use --form explicit, implicit or both".into())
}

/// The first emitted function whose operation count exceeds `max`, as the message of E0502.
fn over_op_budget(artifacts: &[Artifact], max: usize) -> Option<String> {
    artifacts
        .iter()
        .flat_map(|a| a.ops.iter())
        .find(|(_, ops)| *ops > max)
        .map(|(name, ops)| {
            format!(
                "error[E0502]: the emitted function `{name}` has {ops} operations, above the budget --max-ops {max} (raise --max-ops, or use --form implicit)"
            )
        })
}
