//! Rendering a [`mech::Derivation`] into its targets: JSON (stable keys, documented in
//! `docs/json-schema.md`), a standalone LaTeX document (through the tera template
//! `templates/latex/derivation.tex`), and C99 and Rust code (templates in `templates/c/` and
//! `templates/rust/`, statements from straight-line programs; see `docs/code-generation.md`).
//! Nothing here derives equations: every expression comes from the derivation and is only
//! printed or compiled into a program.
#![warn(missing_docs)]

pub mod code;
mod json;
mod latex;
pub mod numeric;

pub use json::{json, json_contact, json_implicit, json_singular, json_vakonomic};
pub use latex::{latex, latex_contact, latex_implicit, latex_singular, latex_vakonomic};

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
}

impl Target {
    /// Parses a target name as given to `--emit`.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "json" => Some(Target::Json),
            "latex" | "tex" => Some(Target::Latex),
            "c" => Some(Target::C),
            "rust" | "rs" => Some(Target::Rust),
            _ => None,
        }
    }
}

/// Renders one target (C gives two files).
pub fn render(
    d: &mech::Derivation,
    target: Target,
    options: code::CodeOptions,
) -> Result<Vec<Artifact>, String> {
    match target {
        Target::Json => Ok(vec![json(d)]),
        Target::Latex => Ok(vec![latex(d)?]),
        Target::C => code::render(d, options, true, false),
        Target::Rust => code::render(d, options, false, true),
    }
}

/// Renders one target of any derivation (closed or implicit form).
pub fn render_derived(
    d: &mech::Derived,
    target: Target,
    options: code::CodeOptions,
) -> Result<Vec<Artifact>, String> {
    let choice = match d {
        mech::Derived::Closed(d) => Some(&d.choice),
        mech::Derived::Implicit(d) => Some(&d.choice),
        _ => None,
    };
    let mut artifacts = render_any(d, target, options)?;
    for artifact in &mut artifacts {
        artifact.notes.extend(choice.map(mech::Choice::note));
    }
    Ok(artifacts)
}

fn render_any(
    d: &mech::Derived,
    target: Target,
    options: code::CodeOptions,
) -> Result<Vec<Artifact>, String> {
    match d {
        mech::Derived::Closed(d) => render(d, target, options),
        mech::Derived::Implicit(d) => match target {
            Target::Json => Ok(vec![json_implicit(d)]),
            Target::Latex => Ok(vec![latex_implicit(d)?]),
            Target::C => code::render_implicit(d, options, true, false),
            Target::Rust => code::render_implicit(d, options, false, true),
        },
        mech::Derived::Vakonomic(d) => match target {
            Target::Json => Ok(vec![json_vakonomic(d)]),
            Target::Latex => Ok(vec![latex_vakonomic(d)?]),
            Target::C => code::render_vakonomic(d, options, true, false),
            Target::Rust => code::render_vakonomic(d, options, false, true),
        },
        mech::Derived::Singular(d) => match target {
            Target::Json => Ok(vec![json_singular(d)]),
            Target::Latex => Ok(vec![latex_singular(d)?]),
            Target::C => code::render_singular(d, options, true, false),
            Target::Rust => code::render_singular(d, options, false, true),
        },
        mech::Derived::Contact(d) => match target {
            Target::Json => Ok(vec![json_contact(d)]),
            Target::Latex => Ok(vec![latex_contact(d)?]),
            Target::C => code::render_contact(d, options, true, false),
            Target::Rust => code::render_contact(d, options, false, true),
        },
    }
}

/// The display form of a derived expression: simplified, with numerator and denominator
/// factorised (e.g. `-k^2*(u2*Omega(t) + y*Omega'(t))/(k^2 + m*r^2)`).
pub(crate) fn pretty(e: &cas::Expr) -> cas::Expr {
    e.factored()
}
