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
pub mod pages;
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
pub use syntax::{render_plain, render_terminal, Code, Diagnostic};

/// The pipeline of the closed-form route, for tests and library users: spec text in,
/// derivation (or every diagnostic found) out. The `expect` blocks are resolved (known kinds,
/// keys that name quantities of the system) but not proved: that is [`check`].
pub fn compile(source: &str) -> syntax::Result<Derivation> {
    let system = front_end(source)?;
    let derivation = mech::derive(&system)?;
    mech::check::validate_derived(&derivation)?;
    Ok(derivation)
}

/// The pipeline with the route chosen by `options.solve` (see [`mech::lagrange::implicit`]): the
/// closed form for small systems, the implicit form (solved numerically by the emitted code) for
/// large ones; every stage within the size budget `options.max_terms` (E0501). `derive`,
/// `check`, `simulate`, `linearize` and `reduce` all start here.
pub fn compile_with(source: &str, options: &Options) -> syntax::Result<Derived> {
    let system = front_end(source)?;
    derive_validated(&system, options)
}

/// Parsing and name resolution: the system a spec describes.
fn front_end(source: &str) -> syntax::Result<model::System> {
    front_end_then(source, || ())
}

/// [`front_end`], with `started` called once the spec has parsed and Symbolica has started
/// ([`cas::start`]), before names are resolved. A spec that does not parse starts neither.
fn front_end_then(source: &str, started: impl FnOnce()) -> syntax::Result<model::System> {
    let spec = timing::timed("parse", || syntax::parse(source))?;
    cas::start();
    started();
    timing::timed("resolve", || resolve(&spec))
}

/// The derivation of `system` on the route `options` chooses, and what can be said of its
/// `expect` blocks before they are proved.
fn derive_validated(system: &model::System, options: &Options) -> syntax::Result<Derived> {
    let derived = timing::timed("derive", || mech::derive_with(system, options))?;
    timing::timed("validate", || mech::check::validate(&derived))?;
    Ok(derived)
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

/// What `dalembert derive` does with one spec's text: compile it, render `targets` (their
/// templates parsed on a thread of their own meanwhile), enforce the operation budget. The
/// artifacts' notes are for the user; nothing is written. Every failure is a diagnostic: located
/// in the spec (syntax, names, singular systems, E0501), or without a place (a budget of the
/// emitted code, E0502; an output that cannot be made).
pub fn derive_spec(
    source: &str,
    targets: &[Target],
    budgets: &Budgets,
) -> syntax::Result<Vec<Artifact>> {
    let mut options = budgets.derive;
    if let Some(limit) = budgets.time_limit {
        options.deadline = Some(std::time::Instant::now() + limit);
    }
    // The templates parse on the second core while this one derives, from the moment Symbolica
    // has started: its start waits for a thread of its own, which a parse already running kept
    // waiting for the core (docs/architecture.md).
    let system = front_end_then(source, || emit::prepare_templates(targets))?;
    let derived = derive_validated(&system, &options)?;
    let artifacts = render_derived_with(&derived, targets, budgets.code, &budgets.latex)?;
    if let Some(over) = budgets
        .max_ops
        .and_then(|max| over_op_budget(&artifacts, max))
    {
        return Err(vec![over]);
    }
    Ok(artifacts)
}

/// Renders the requested targets of a derivation by any route; each artifact notes the route's
/// choice (closed or implicit form, and why).
pub fn render_derived(
    derived: &Derived,
    targets: &[Target],
    options: CodeOptions,
) -> syntax::Result<Vec<Artifact>> {
    render_derived_with(derived, targets, options, &LatexOptions::default())
}

/// [`render_derived`] with the LaTeX document's selection and section level.
pub fn render_derived_with(
    derived: &Derived,
    targets: &[Target],
    options: CodeOptions,
    latex: &LatexOptions,
) -> syntax::Result<Vec<Artifact>> {
    let mut artifacts = render_targets(
        targets,
        (options, latex),
        derived.system(),
        || {
            timing::timed("describe", || {
                with_reduced_equations(mech::describe::report(derived), derived.system())
            })
        },
        || timing::timed("lower", || mech::lower::flow(derived)),
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
) -> syntax::Result<Vec<Artifact>> {
    // A package's options are refused before any target is rendered.
    if targets
        .iter()
        .any(|t| matches!(t, Target::Cmake | Target::Crate))
    {
        emit::refuse_package_options(options)?;
    }
    let mut flow = None;
    let mut report = None;
    // The flow's functions, computed for the first code target and shared by the others.
    let mut code = None;
    let mut artifacts = Vec::new();
    for &target in targets {
        let _stage = timing::stage(target.name());
        if matches!(target, Target::Json | Target::Latex) {
            let report = report.get_or_insert_with(&describe);
            artifacts.extend(emit::document(report, system, target, latex)?);
            continue;
        }
        let flow = flow.get_or_insert_with(&lower);
        if options.form == Form::Tree {
            refuse_tree_form(flow)?;
        }
        let (layout, functions) = code.get_or_insert_with(|| {
            timing::timed("functions", || emit::code::functions(flow, system, options))
        });
        let shared = (&*layout, functions.as_slice());
        artifacts.extend(match target.language() {
            Some(language) => emit::code::render_from(flow, system, shared, options, language)?,
            None => emit::package(system, shared, options, target)?,
        });
    }
    Ok(artifacts)
}

/// What `dalembert check` does with one spec's text: derive it (the closed form, or the
/// vakonomic derivation of a system with vakonomic constraints; the implicit form when every
/// block can be proved on it, see [`mech::check::check_implicit`]) and prove its `expect`
/// blocks.
pub fn check_source(source: &str) -> syntax::Result<(model::System, Vec<Outcome>)> {
    let system = front_end(source)?;
    // The default route first; where it gives the implicit form and a block needs the closed
    // form, the closed form is forced (and, past the size budget, the implicit form's E0405 says
    // which blocks it cannot prove).
    let mut derived = derive_validated(&system, &Options::default())?;
    if !mech::check::provable(&derived) {
        let symbolic = Options {
            solve: Solve::Symbolic,
            ..Options::default()
        };
        match derive_validated(&system, &symbolic) {
            Err(e) if e.iter().any(|e| e.code == syntax::Code::E0501) => {}
            other => derived = other?,
        }
    }
    let outcomes = mech::check::prove(&derived)?;
    Ok((system, outcomes))
}

/// Proves every `expect` block of a derivation.
pub fn check(derivation: &Derivation) -> syntax::Result<Vec<Outcome>> {
    mech::check::check(derivation)
}

/// Renders the requested targets with the default code options (f64, both forms).
pub fn render(derivation: &Derivation, targets: &[Target]) -> syntax::Result<Vec<Artifact>> {
    render_with(derivation, targets, CodeOptions::default())
}

/// Renders the requested targets.
pub fn render_with(
    derivation: &Derivation,
    targets: &[Target],
    options: CodeOptions,
) -> syntax::Result<Vec<Artifact>> {
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

/// A spec file that cannot be read as text.
#[derive(Debug)]
pub struct Unreadable {
    /// The text the diagnostics point into: the file up to its first byte that is not UTF-8
    /// (empty when the file cannot be read at all).
    pub text: String,
    /// E0002 (the file cannot be read; no place), or E0001 at the first byte that is not UTF-8.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a spec file as UTF-8 text.
pub fn read_spec(path: &std::path::Path) -> Result<String, Unreadable> {
    let bytes = std::fs::read(path).map_err(|e| Unreadable {
        text: String::new(),
        diagnostics: vec![Diagnostic::unlocated(
            Code::E0002,
            format!("cannot read the file: {e}"),
        )],
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[offset];
        let text = String::from_utf8_lossy(&e.as_bytes()[..offset]).into_owned();
        let at = syntax::Span::new(offset, offset);
        Unreadable {
            text,
            diagnostics: vec![Diagnostic::error(
                Code::E0001,
                format!("the file is not UTF-8 text (invalid byte at offset {offset})"),
                at,
                format!("byte 0x{byte:02X} is not UTF-8"),
            )
            .with_help("save the spec as UTF-8 text")],
        }
    })
}

/// E0505: `--form tree` on a flow without the recursions of a tree of joints.
fn refuse_tree_form(flow: &report::Flow) -> syntax::Result<()> {
    let has_tree = flow
        .companions
        .iter()
        .any(|c| c.name == emit::code::TREE_FUNCTIONS[0]);
    if has_tree {
        return Ok(());
    }
    Err(vec![Diagnostic::unlocated(Code::E0505, "`--form tree` emits the recursions of a tree of joints (forward_dynamics, inverse_dynamics), and this system has none: it is not written with bodies and joints (see docs/spec-language.md, \"Bodies and joints\"); use --form explicit, implicit or both")])
}

/// E0502: the first emitted function whose operation count exceeds `max`.
fn over_op_budget(artifacts: &[Artifact], max: usize) -> Option<Diagnostic> {
    artifacts
        .iter()
        .flat_map(|a| a.ops.iter())
        .find(|(_, ops)| *ops > max)
        .map(|(name, ops)| {
            Diagnostic::unlocated(Code::E0502, format!(
                "the emitted function `{name}` has {ops} operations, above the budget --max-ops {max} (raise --max-ops, or use --form implicit)"
            ))
        })
}
