//! Rendering a derivation into its targets, from the result IR only: JSON (stable keys,
//! documented in `docs/json-schema.md`) and a standalone LaTeX document (one template,
//! `templates/latex/document.tex`) from its [`report::Report`] ([`document`]), and C99 and
//! Rust code from its primary flow, [`report::Flow`] ([`code::render`]; templates in
//! `templates/c/` and `templates/rust/`, statements from straight-line programs; see
//! `docs/code-generation.md` and `docs/architecture.md`). Nothing here asks which formalism a
//! report or a flow came from.
//! Nothing here derives equations: every expression comes from the derivation or its flow and
//! is only printed or compiled into a program.
#![warn(missing_docs)]

pub mod array;
pub mod code;
mod flops;
mod function;
mod implicit_jacobian;
mod json;
mod latex;
pub mod linear;
pub mod numeric;
mod packaging;
mod parallel;
mod project;
pub mod reduced;
mod snippets;
mod templates;

use diagnostic::Diagnostic;
use report::Shown;

pub use json::json;
pub use latex::{latex, LatexOptions, SectionLevel};
pub use packaging::{package, refuse_options as refuse_package_options};
pub use templates::prepare as prepare_templates;

/// One output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// The file name (no directory).
    pub file_name: String,
    /// The file's contents.
    pub contents: String,
    /// For emitted code: each function's operation count as its banner declares it (the
    /// function's own program, plus what it calls, plus its numeric solve), `(name, total)`.
    pub ops: Vec<(String, usize)>,
    /// Notes for the user about how the file was made (e.g. an e-graph budget that was reached).
    pub notes: Vec<String>,
}

impl Artifact {
    /// A file with no operation counts and no notes.
    pub fn file(file_name: String, contents: String) -> Artifact {
        Artifact {
            file_name,
            contents,
            ops: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// `<system>.json`
    Json,
    /// `<system>.tex`
    Latex,
    /// `<system>.h` and `<system>.c`
    C,
    /// `<system>.rs`
    Rust,
    /// `<system>-cmake/`: a CMake project with the C and a test.
    Cmake,
    /// `<system>-crate/`: a `no_std` Cargo package with the Rust module and a test.
    Crate,
}

impl Target {
    /// Parses a target name as given to `--emit`.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "json" => Some(Target::Json),
            "latex" | "tex" => Some(Target::Latex),
            "c" => Some(Target::C),
            "rust" | "rs" => Some(Target::Rust),
            "cmake" => Some(Target::Cmake),
            "crate" => Some(Target::Crate),
            _ => None,
        }
    }
}

impl Target {
    /// The target's name as `--emit` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Target::Json => "json",
            Target::Latex => "latex",
            Target::C => "c",
            Target::Rust => "rust",
            Target::Cmake => "cmake",
            Target::Crate => "crate",
        }
    }

    /// The language of a code target (`None` for JSON and LaTeX).
    pub fn language(self) -> Option<code::Language> {
        match self {
            Target::C => Some(code::Language::C),
            Target::Rust => Some(code::Language::Rust),
            Target::Json | Target::Latex | Target::Cmake | Target::Crate => None,
        }
    }
}

/// Renders a document target (JSON, or LaTeX's body and standalone wrapper) of a report of
/// `system`; code targets are rendered from a flow by [`code::render`].
pub fn document(
    report: &report::Report,
    system: &model::System,
    target: Target,
    options: &LatexOptions,
) -> diagnostic::Result<Vec<Artifact>> {
    match target {
        Target::Json => Ok(vec![json(report, system)]),
        Target::Latex => latex(report, system, options),
        Target::C | Target::Rust | Target::Cmake | Target::Crate => {
            Err(vec![Diagnostic::internal(format!(
                "{target:?} is a code target: render its flow"
            ))])
        }
    }
}

/// The display form of a derived expression: the simplest of its factored, normal and split
/// forms by leaves as printed ([`cas::Expr::simplest`]; e.g.
/// `-k^2*(u2*Omega(t) + y*Omega'(t))/(k^2 + m*r^2)`).
pub(crate) fn pretty(e: &cas::Expr, system: &model::System) -> cas::Expr {
    let (state, velocities) = grouping_symbols(system);
    e.simplest_by(&[&state, &velocities])
}

/// The symbols by which the displays group a sum's terms ([`cas::Expr::simplest_by`]): the
/// state (coordinates, velocities, an action variable) with the momenta, and the velocities with
/// the momenta (the equations of motion by powers of the velocities, coefficients functions of
/// the configuration).
fn grouping_symbols(system: &model::System) -> (Vec<String>, Vec<String>) {
    let momenta = system.keys(&system.algebroid.momenta);
    let mut state = system.keys(&system.state());
    state.extend(momenta.iter().cloned());
    let mut velocities = system.keys(&system.algebroid.velocities);
    velocities.extend(momenta);
    (state, velocities)
}

/// The display form of an expression for readers (LaTeX): [`pretty`] (or the expression as
/// derived with its minus signs distributed over sums, for [`Shown::AsDerived`]), with angle sums and
/// differences collected where that makes it
/// smaller (`cos a cos b + sin a sin b` reads `cos(a − b)`; `cas::Expr::collect_trig`).
pub(crate) fn display(e: &cas::Expr, shown: Shown, system: &model::System) -> cas::Expr {
    let key = (shown, e.clone());
    let known = DISPLAYED.with_borrow_mut(|(of, forms)| {
        let same = of.as_ref().is_some_and(|(name, coordinates, velocities)| {
            *name == system.name
                && *coordinates == system.keys(&system.coordinates)
                && *velocities == system.keys(&system.algebroid.velocities)
        });
        if !same {
            *of = Some((
                system.name.clone(),
                system.keys(&system.coordinates),
                system.keys(&system.algebroid.velocities),
            ));
            forms.clear();
        }
        forms.get(&key).cloned()
    });
    if let Some(form) = known {
        return form;
    }
    let form = timing::timed("display", || display_form(e, shown, system));
    DISPLAYED.with_borrow_mut(|(_, forms)| forms.insert(key, form.clone()));
    form
}

thread_local! {
    /// The display forms computed for one system (named by its name, coordinates and
    /// velocities), by how they are shown and expression: its JSON and LaTeX, and a LaTeX section laid
    /// out a second time to fit a column, show the same expressions, and each form costs several
    /// normalisations. Cleared when another system is displayed, so that a form never depends on
    /// which systems were displayed before.
    static DISPLAYED: std::cell::RefCell<(Option<SystemIdentity>, DisplayForms)> =
        Default::default();
}

/// A system's name, coordinates and velocities: which system [`DISPLAYED`] holds forms of.
type SystemIdentity = (String, Vec<String>, Vec<String>);

/// Display forms by how they are shown and expression.
type DisplayForms = std::collections::HashMap<(Shown, cas::Expr), cas::Expr>;

/// [`display`], computed.
fn display_form(e: &cas::Expr, shown: Shown, system: &model::System) -> cas::Expr {
    let base = match shown {
        Shown::AsDerived => e.distribute_signs(),
        Shown::Simplified => pretty(e, system),
    };
    let collected = base.collect_trig();
    if collected.size() < base.size() {
        // Collecting may leave every term of a factor negative under a minus sign.
        collected.signs_oriented()
    } else {
        base
    }
}
