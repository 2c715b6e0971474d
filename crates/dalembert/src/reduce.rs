//! `dalembert reduce SPEC -o DIR`: the pipeline of a reduction by symmetry (parse, resolve,
//! [`mech::reduction::reduce`], write the reduced system as a spec, and read that spec back to
//! prove that it is one).

use emit::reduced;
use report::Reduction;
use syntax::{Code, Diagnostic};

use crate::Artifact;

/// A reduced system, written as a spec.
pub struct Reduced {
    /// What the command prints: the group, the shape space, the reduced algebroid's size.
    pub summary: Vec<String>,
    /// `<system>_reduced.mech` (over the shape space) and `<system>_reconstruction.mech` (the
    /// same system over all of `Q`, whose motion includes the reconstruction).
    pub artifacts: Vec<Artifact>,
    /// The reduction itself.
    pub reduction: Reduction,
    /// The reduced spec's text (the artifact's contents).
    pub text: String,
}

/// Reduces the spec `source` by the symmetry groups it declares (`symmetry NAME on …`).
pub fn reduce_spec(source: &str) -> syntax::Result<Reduced> {
    let spec = syntax::parse(source)?;
    let system = model::resolve(&spec)?;
    if system.groups.is_empty() {
        let end = source.len();
        return Err(vec![Diagnostic::error(
            Code::E0280,
            "the spec declares no symmetry group",
            syntax::ast::Span::new(end, end),
            "expected a `symmetry NAME on q1, q2` item",
        )
        .with_help(
            "declare the group that acts on the coordinates, e.g. `symmetry SE2 on x, y, theta`",
        )]);
    }
    let reduction = mech::reduction::reduce(&system)?;
    let text = reduced::spec_text(&reduction, &system);
    read_back(&text)?;
    let whole = reduced::reconstruction_text(&reduction, &system);
    read_back(&whole)?;
    let routh = reduced::routh_text(&reduction, &system);
    if let Some(routh) = &routh {
        read_back(routh)?;
    }
    let name = reduced::reduced_name(&system);
    let shape = if reduction.shape.is_empty() {
        "a point".to_string()
    } else {
        reduction
            .shape
            .iter()
            .map(|s| system.spec_name(system.handle(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let summary = vec![format!(
        "{}: reduced by {} to an algebroid of rank {} over {shape}",
        system.name,
        reduction.group,
        reduction.sections.len()
    )];
    Ok(Reduced {
        summary,
        artifacts: vec![
            Artifact::file(format!("{name}.mech"), text.clone()),
            Artifact::file(
                format!("{}.mech", reduced::reconstruction_name(&system)),
                whole,
            ),
        ]
        .into_iter()
        .chain(
            routh
                .map(|text| Artifact::file(format!("{}.mech", reduced::routh_name(&system)), text)),
        )
        .collect(),
        reduction,
        text,
    })
}

/// The reduced spec parses and resolves (else the writer has a defect, reported as such: E0516,
/// with the spec written).
fn read_back(text: &str) -> syntax::Result<()> {
    let problem = match syntax::parse(text) {
        Ok(spec) => model::resolve(&spec).err(),
        Err(d) => Some(d),
    };
    match problem {
        None => Ok(()),
        Some(diagnostics) => Err(vec![Diagnostic::internal(format!(
            "the reduced spec does not read back ({})",
            diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        ))
        .with_note(format!("the reduced spec:\n{text}"))]),
    }
}

/// The reduced equations of a system that declares a symmetry, for its document: the reduced
/// spec derived in closed form (the Lagrange–Poincaré equations, Euler–Poincaré on a Lie algebra,
/// with the multipliers solved for a nonholonomic system), keyed by the reduced state. `None`
/// when there is no group, or the reduced system's closed form is not derived.
pub fn reduced_equations(system: &model::System) -> Option<report::Section> {
    if system.groups.is_empty() {
        return None;
    }
    let reduction = mech::reduction::reduce(system).ok()?;
    let text = reduced::spec_text(&reduction, system);
    let derived = crate::compile_with(&text, &crate::Options::default()).ok()?;
    let derivation = derived.closed()?;
    // The reduced rates name the derivatives of the given functions by the keys the reduced
    // system's table made; the document's table makes the same keys for them.
    for f in &system.functions {
        for order in 1..=2 {
            system.symbols.function_derivative(*f, order);
        }
    }
    let rates = derivation
        .state()
        .into_iter()
        .zip(derivation.rates())
        .map(|(s, rate)| (report::Key::Rate(s), report::Value::Expr(rate)))
        .collect();
    let mut section = report::Section::new("Reduced equations", None);
    section.quantity(
        report::Quantity::new("equations", report::Value::Table(rates)).about(
            "The reduced equations of motion (Lagrange–Poincaré; Euler–Poincaré on a Lie algebra, Lagrange–d'Alembert–Poincaré with constraints), the reduced system derived in closed form:",
        ),
    );
    Some(section)
}
