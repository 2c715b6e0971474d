//! dalembert: a compiler for constrained mechanics.
//!
//! A spec (`*.mech`, see `docs/spec-language.md`) describes a mechanical system on a Lie
//! algebroid or affgebroid: coordinates, the algebroid's anchors and brackets, a Lagrangian and
//! nonholonomic constraints. dalembert derives, exactly, what seed 000 derives by hand — the
//! Euler–Lagrange and Lagrange–d'Alembert equations with their multipliers in closed form, the
//! Poincaré–Cartan forms, the constraint matrix and projector, the energy balance — proves the
//! spec's `expect` blocks, and renders the result as JSON and LaTeX.
//!
//! [`compile`] is the pipeline: parse → resolve → derive (the closed form). [`compile_with`] lets
//! the size of the system choose between the closed form and the implicit form that the emitted
//! code solves numerically (`--solve` on the command line), and [`render_derived`] renders either.
#![warn(missing_docs)]

pub mod deadline;
pub mod lock;
pub mod output;

pub use emit::code::{CodeOptions, Float, Form};
pub use emit::{Artifact, Target};
pub use mech::check::{Outcome, Verdict};
pub use mech::{Derivation, Derived, Solve};
pub use syntax::{render_plain, render_terminal, Diagnostic};

/// The pipeline: spec text in, derivation (or every diagnostic found) out.
pub fn compile(source: &str) -> syntax::Result<Derivation> {
    let spec = syntax::parse(source)?;
    let system = model::resolve(&spec)?;
    mech::derive(&system)
}

/// The pipeline with the route chosen by `solve` (see [`mech::implicit`]): the closed form for
/// small systems, the implicit form (solved numerically by the emitted code) for large ones.
pub fn compile_with(source: &str, solve: Solve) -> syntax::Result<Derived> {
    let spec = syntax::parse(source)?;
    let system = model::resolve(&spec)?;
    mech::derive_with(&system, solve)
}

/// Renders the requested targets of a derivation by either route.
pub fn render_derived(
    derived: &Derived,
    targets: &[Target],
    options: CodeOptions,
) -> Result<Vec<Artifact>, String> {
    let mut artifacts = Vec::new();
    for target in targets {
        artifacts.extend(emit::render_derived(derived, *target, options)?);
    }
    Ok(artifacts)
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
    let mut artifacts = Vec::new();
    for target in targets {
        artifacts.extend(emit::render(derivation, *target, options)?);
    }
    Ok(artifacts)
}

/// Prints an expression of a derivation in the spec's syntax.
pub fn show(derivation: &Derivation, e: &cas::Expr) -> String {
    cas::print::spec(e, &|s| derivation.system.spec_name(s))
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

/// The operation counts an emitted C or Rust file declares in its banner (`name: N ops …` or
/// `name: … = N ops`), as `(function, total)`; nothing for other artifacts.
pub fn emitted_op_counts(artifact: &Artifact) -> Vec<(String, usize)> {
    if !(artifact.file_name.ends_with(".c") || artifact.file_name.ends_with(".rs")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for line in artifact
        .contents
        .lines()
        .take_while(|l| l.starts_with(" *") || l.starts_with("//") || l.starts_with("/*"))
    {
        let line = line.trim_start_matches(['/', '*', '!', ' ', '-', '`']);
        let Some((name, rest)) = line.split_once(':') else {
            continue;
        };
        let name = name.trim_end_matches('`');
        let total = rest
            .rsplit_once("= ")
            .map(|(_, t)| t)
            .unwrap_or(rest)
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<usize>().ok());
        if let (Some(total), true) = (total, rest.contains(" ops")) {
            out.push((name.to_string(), total));
        }
    }
    out
}
