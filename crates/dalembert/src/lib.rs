//! dalembert: a compiler for constrained mechanics.
//!
//! A spec (`*.mech`, see `docs/spec-language.md`) describes a mechanical system on a Lie
//! algebroid or affgebroid: coordinates, the algebroid's anchors and brackets, a Lagrangian and
//! nonholonomic constraints. dalembert derives, exactly, what seed 000 derives by hand — the
//! Euler–Lagrange and Lagrange–d'Alembert equations with their multipliers in closed form, the
//! Poincaré–Cartan forms, the constraint matrix and projector, the energy balance — proves the
//! spec's `expect` blocks, and renders the result as JSON and LaTeX.
//!
//! [`compile`] is the pipeline: parse → resolve → derive.
#![warn(missing_docs)]

pub mod lock;
pub mod output;

pub use emit::code::{CodeOptions, Float, Form};
pub use emit::{Artifact, Target};
pub use mech::check::{Outcome, Verdict};
pub use mech::Derivation;
pub use syntax::{render_plain, render_terminal, Diagnostic};

/// The pipeline: spec text in, derivation (or every diagnostic found) out.
pub fn compile(source: &str) -> syntax::Result<Derivation> {
    let spec = syntax::parse(source)?;
    let system = model::resolve(&spec)?;
    mech::derive(&system)
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
