//! `dalembert linearize SPEC --at NAME=VALUE,…`: the pipeline of a linearisation (compile in
//! closed form, read the point, linearise on the constraint manifold, render).

use emit::linear;
use mech::linearize::{Refusal, Requested};
use report::Linearization;
use syntax::{Code, Diagnostic};

use crate::{Artifact, CodeOptions, Target};

/// A linearisation and its rendered artifacts.
pub struct Linearized {
    /// What the command prints: the point, the reduced state, the characteristic polynomial and,
    /// at a numeric point, the eigenvalues.
    pub summary: Vec<String>,
    /// The requested outputs (`<system>-linear.json`, `<system>-linear.tex`,
    /// `<system>_linear.{h,c,rs}`).
    pub artifacts: Vec<Artifact>,
    /// The linearisation itself.
    pub linearization: Linearization,
}

/// Linearises the spec `source` about the point `at` (`NAME=VALUE,…`: state entries, inputs and
/// parameters spelled as in the spec; state entries and inputs not given are zero, but for the
/// dependent velocities, solved from the constraints), by the route `solve` chooses (the closed
/// form, or the implicit form differentiated implicitly).
pub fn linearize_spec(
    source: &str,
    at: &str,
    targets: &[Target],
    options: (crate::Options, CodeOptions),
) -> syntax::Result<Linearized> {
    linearize_spec_in(source, at, targets, options, Requested::Auto)
}

/// [`linearize_spec`] in the arithmetic `requested` (`--arithmetic`): exact, double precision,
/// or exact unless the system is large and the point numeric.
pub fn linearize_spec_in(
    source: &str,
    at: &str,
    targets: &[Target],
    (solve, options): (crate::Options, CodeOptions),
    requested: Requested,
) -> syntax::Result<Linearized> {
    let derived = crate::compile_with(source, &solve)?;
    let system = derived.system();
    let point = model::point::read_point(system, at)
        .map_err(|m| Diagnostic::unlocated(Code::E0003, format!("--at: {m}")))?;
    let lin = mech::linearize::linearize_in(&derived, &point, requested).map_err(|r| match r {
        Refusal::Singular(m) => Diagnostic::unlocated(Code::E0506, m),
        Refusal::Inconsistent(m) => Diagnostic::unlocated(Code::E0508, m),
        Refusal::Unsupported(m) => Diagnostic::unlocated(Code::E0509, m),
    })?;
    let mut artifacts = Vec::new();
    // The JSON and LaTeX documents come from the linearisation's report, by the printers of
    // every other result.
    let report = mech::describe::linearization_report(&lin, system);
    for target in targets {
        match target {
            Target::Json | Target::Latex => artifacts.extend(emit::document(
                &report,
                system,
                *target,
                &Default::default(),
            )?),
            Target::Cmake | Target::Crate => {
                return Err(vec![Diagnostic::unlocated(
                    Code::E0004,
                    "a linearisation is emitted as json, latex, c or rust",
                )])
            }
            Target::C | Target::Rust => {
                let language = target.language().expect("a code target");
                artifacts.extend(linear::code(&lin, system, options, language)?);
            }
        }
    }
    Ok(Linearized {
        summary: summary(&lin, system),
        artifacts,
        linearization: lin,
    })
}

/// The lines the command prints.
fn summary(lin: &Linearization, system: &model::System) -> Vec<String> {
    let spell = |s: &String| system.spec_name(system.handle(s));
    // In double precision every number is a double, shown to six significant digits.
    let show = |e: &cas::Expr| {
        let double = lin.arithmetic == report::Arithmetic::Double;
        match double.then(|| e.evaluate(&Default::default())).flatten() {
            Some(x) => report::decimal(x, report::DECIMAL_DIGITS),
            None => cas::print::spec(e, system),
        }
    };
    let point: Vec<String> = lin
        .point_in_order()
        .into_iter()
        .map(|(s, v)| format!("{} = {}", spell(s), show(v)))
        .collect();
    let mut lines = vec![format!(
        "{}: linearised at {}",
        system.name,
        point.join(", ")
    )];
    if !lin.defaulted.is_empty() {
        let zero: Vec<String> = lin.defaulted.iter().map(spell).collect();
        lines.push(format!("  not given, so zero: {}", zero.join(", ")));
    }
    let reduced: Vec<String> = lin
        .independent
        .iter()
        .map(|&i| spell(&lin.state[i]))
        .collect();
    lines.push(format!("  reduced state: {}", reduced.join(", ")));
    for (d, row) in &lin.dependent {
        let terms: Vec<String> = reduced
            .iter()
            .zip(row)
            .filter(|(_, c)| !c.is_zero())
            .map(|(name, c)| format!("({})*d{name}", show(c)))
            .collect();
        let rhs = if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        };
        lines.push(format!("  d{} = {rhs}", spell(&lin.state[*d])));
    }
    let moving: Vec<String> = lin
        .state
        .iter()
        .zip(&lin.rates)
        .filter(|(_, r)| !r.is_zero())
        .map(|(s, r)| format!("{}' = {}", spell(s), show(r)))
        .collect();
    if moving.is_empty() {
        lines.push("  the point is an equilibrium".into());
    } else {
        lines.push(format!(
            "  the point is not an equilibrium: {}",
            moving.join(", ")
        ));
    }
    if lin.arithmetic == report::Arithmetic::Double {
        lines.push(
            "  in double precision (a numeric point of large equations; --arithmetic exact for the exact A)"
                .into(),
        );
    }
    lines.push(match &lin.characteristic {
        Some(p) => format!("  det({} I - A) = {}", lin.variable, show(p)),
        None if lin.arithmetic == report::Arithmetic::Double => {
            "  eigenvalues from A (double precision)".to_string()
        }
        None => format!(
            "  det({} I - A): too large to show (over {} nodes); eigenvalues from the numeric A",
            lin.variable,
            mech::linearize::CHARACTERISTIC_NODES
        ),
    });
    if let Some(roots) = &lin.eigenvalues {
        let shown: Vec<String> = roots.iter().map(|z| z.six_decimals("i")).collect();
        lines.push(format!("  eigenvalues: {}", shown.join(", ")));
    }
    lines
}
