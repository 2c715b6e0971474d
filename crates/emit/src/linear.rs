//! The code outputs of `dalembert linearize`: a linearisation ([`report::Linearization`]) as C
//! and Rust functions that compute `A` and `B` at any state (its JSON and LaTeX documents are
//! written from its report, `mech::describe::linearization_report`, by the printers of every
//! other result). The matrices are in the reduced state's order, row-major.

use cas::program::Program;
use cas::Expr;
use diagnostic::{Code, Diagnostic};
use model::System;
use report::Linearization;

use crate::code::{Array, CodeOptions, Function, Language, Layout, Output};
use crate::Artifact;

/// The spec spelling of state entry or symbol `s`.
fn spell(system: &System, s: &str) -> String {
    system.spec_name(system.handle(s))
}

/// The independent state entries, spelled as in the spec.
fn reduced_state(lin: &Linearization, system: &System) -> Vec<String> {
    lin.independent
        .iter()
        .map(|&i| spell(system, &lin.state[i]))
        .collect()
}

/// The C or Rust code: one function `state_space` of the system `<name>_linear` that computes `A`
/// and `B` (row-major, on the reduced state) at the state, inputs and parameters it is given.
pub fn code(
    lin: &Linearization,
    system: &System,
    options: CodeOptions,
    language: Language,
) -> diagnostic::Result<Vec<Artifact>> {
    let mut renamed = system.clone();
    renamed.name = format!("{}_linear", system.name);
    let Some((a, b)) = &lin.general else {
        return Err(vec![Diagnostic::unlocated(Code::E0507, format!(
            "the C and Rust outputs of a linearisation compute A and B at any state from the closed form, and `{}` takes the implicit route (its closed form is too large): emit json and latex, or force the closed form with --solve symbolic",
            system.name
        ))]);
    };
    let every: Vec<&Expr> = a.iter().chain(b).flatten().collect();
    let layout = Layout::of(system, lin.state.clone(), &every);
    let mut program = Program::new(layout.symbols());
    let (n, m) = (lin.independent.len(), lin.inputs.len());
    for (array, matrix) in [(Array::StateMatrix, a), (Array::InputMatrix, b)] {
        for (k, e) in matrix.iter().flatten().enumerate() {
            program
                .output(array.at(k).to_string(), &e.factored())
                .map_err(|u| {
                    Diagnostic::internal(format!(
                        "the linearisation reads `{}`, not an argument",
                        u.0
                    ))
                })?;
        }
    }
    let (program, stop) = program.optimised_within(options.egraph);
    let reduced = reduced_state(lin, system).join(", ");
    let function = Function {
        name: "state_space".into(),
        doc: format!(
            "A and B of the linearisation d(dz)/dt = A dz + B du on the constraint manifold, at the state x (which must satisfy the constraints), the inputs u and the parameters p; the reduced state dz is ({reduced}), the other entries follow from the constraints (see the JSON or LaTeX output)."
        ),
        outputs: vec![
            Output {
                name: Array::StateMatrix,
                len: n * n,
                doc: format!("{n} x {n} row-major"),
            },
            Output {
                name: Array::InputMatrix,
                len: n * m,
                doc: format!("{n} x {m} row-major"),
            },
        ],
        program: program.scheduled(),
        solve: None,
        stabilisation: None,
        kernel: None,
        saturation: Some(stop),
        state: None,
        sparsity: None,
    };
    crate::code::render_function_set(&renamed, &layout, &[function], options, language)
}
