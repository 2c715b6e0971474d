//! The outputs of `dalembert linearize`: a linearisation ([`report::Linearization`]) as
//! JSON, as a LaTeX document, and as C and Rust functions that compute `A` and `B` at any state.
//!
//! Every output states the reduced state (the independent coordinates and velocities), how each
//! dependent entry follows from them, and the point; the matrices are in the reduced state's
//! order, row-major.

use cas::program::Program;
use cas::Expr;
use model::System;
use report::{Complex, Linearization};

use crate::code::{CodeOptions, Function, Language, Layout, Output};
use crate::Artifact;

/// The spec spelling of state entry or symbol `s`.
fn spell(system: &System, s: &str) -> String {
    system.spec_name(s)
}

/// The independent state entries, spelled as in the spec.
fn reduced_state(lin: &Linearization, system: &System) -> Vec<String> {
    lin.independent
        .iter()
        .map(|&i| spell(system, &lin.state[i]))
        .collect()
}

/// `1.5`, `-0.25 + 2i`.
pub fn show_complex(z: &Complex) -> String {
    let re = format!("{:.6}", z.re);
    if z.im == 0.0 {
        return re;
    }
    let sign = if z.im < 0.0 { '-' } else { '+' };
    format!("{re} {sign} {:.6}i", z.im.abs())
}

/// Whether the point is an equilibrium (every rate zero).
fn is_equilibrium(lin: &Linearization) -> bool {
    lin.rates.iter().all(|r| r.is_zero())
}

/// The JSON document.
pub fn json(lin: &Linearization, system: &System) -> String {
    let expr = |e: &Expr| cas::print::spec(e, system);
    let matrix = |m: &[Vec<Expr>]| -> Vec<Vec<String>> {
        m.iter().map(|row| row.iter().map(expr).collect()).collect()
    };
    let reduced = reduced_state(lin, system);
    let mut point = serde_json::Map::new();
    for (s, v) in lin.point_in_order() {
        point.insert(spell(system, s), expr(v).into());
    }
    let mut dependent = serde_json::Map::new();
    for (d, row) in &lin.dependent {
        let mut combination = serde_json::Map::new();
        for (name, c) in reduced.iter().zip(row) {
            if !c.is_zero() {
                combination.insert(name.clone(), expr(c).into());
            }
        }
        dependent.insert(spell(system, &lin.state[*d]), combination.into());
    }
    let mut rates = serde_json::Map::new();
    for (s, r) in lin.state.iter().zip(&lin.rates) {
        rates.insert(spell(system, s), expr(r).into());
    }
    let value = serde_json::json!({
        "schema_version": crate::json::SCHEMA_VERSION,
        "generator": format!("dalembert {}", env!("CARGO_PKG_VERSION")),
        "form": "linearization",
        "system": system.name,
        "point": point,
        "defaulted_to_zero": lin.defaulted.iter().map(|s| spell(system, s)).collect::<Vec<_>>(),
        "state": lin.state.iter().map(|s| spell(system, s)).collect::<Vec<_>>(),
        "reduced_state": reduced,
        "dependent": dependent,
        "redundant_constraints": lin.redundant,
        "inputs": lin.inputs.iter().map(|s| spell(system, s)).collect::<Vec<_>>(),
        "A": matrix(&lin.a),
        "B": matrix(&lin.b),
        "rates_at_point": rates,
        "equilibrium": is_equilibrium(lin),
        "characteristic_variable": lin.variable,
        "characteristic_polynomial": expr(&lin.characteristic),
        "eigenvalues": lin.eigenvalues.clone().map(|roots| roots
            .iter()
            .map(|z| serde_json::json!({"re": z.re, "im": z.im}))
            .collect::<Vec<_>>()),
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON of strings and numbers");
    text.push('\n');
    text
}

/// A LaTeX `bmatrix`.
fn bmatrix(m: &[Vec<Expr>], system: &System) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|row| {
            row.iter()
                .map(|e| cas::print::latex(e, system))
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    format!(
        "\\begin{{bmatrix}}\n{}\n\\end{{bmatrix}}",
        rows.join(" \\\\\n")
    )
}

/// The standalone LaTeX document.
pub fn latex(lin: &Linearization, system: &System) -> String {
    let name = |s: &str| system.latex_name(s);
    let reduced: Vec<String> = lin
        .independent
        .iter()
        .map(|&i| format!("\\delta {}", name(&lin.state[i])))
        .collect();
    let mut body = String::new();
    body.push_str("\\section*{Point}\n\\begin{align*}\n");
    let point: Vec<String> = lin
        .point_in_order()
        .into_iter()
        .map(|(s, v)| format!("{} &= {}", name(s), cas::print::latex(v, system)))
        .collect();
    body.push_str(&point.join(" \\\\\n"));
    body.push_str("\n\\end{align*}\n");
    if !is_equilibrium(lin) {
        body.push_str("The point is not an equilibrium: the rates there are\n\\begin{align*}\n");
        let rates: Vec<String> = lin
            .state
            .iter()
            .zip(&lin.rates)
            .filter(|(_, r)| !r.is_zero())
            .map(|(s, r)| format!("\\dot{{{}}} &= {}", name(s), cas::print::latex(r, system)))
            .collect();
        body.push_str(&rates.join(" \\\\\n"));
        body.push_str("\n\\end{align*}\n");
    }
    body.push_str(&format!(
        "\\section*{{Reduced state}}\n$\\delta z = ({})$.\n",
        reduced.join(", ")
    ));
    if !lin.dependent.is_empty() {
        body.push_str("The constraints fix the other entries:\n\\begin{align*}\n");
        let lines: Vec<String> = lin
            .dependent
            .iter()
            .map(|(d, row)| {
                let combination: Vec<String> = lin
                    .independent
                    .iter()
                    .zip(row)
                    .filter(|(_, c)| !c.is_zero())
                    .map(|(&i, c)| {
                        format!(
                            "\\left({}\\right) \\delta {}",
                            cas::print::latex(c, system),
                            name(&lin.state[i])
                        )
                    })
                    .collect();
                let rhs = if combination.is_empty() {
                    "0".to_string()
                } else {
                    combination.join(" + ")
                };
                format!("\\delta {} &= {rhs}", name(&lin.state[*d]))
            })
            .collect();
        body.push_str(&lines.join(" \\\\\n"));
        body.push_str("\n\\end{align*}\n");
    }
    body.push_str("\\section*{Linearisation}\n$\\delta\\dot z = A\\,\\delta z");
    if !lin.inputs.is_empty() {
        let inputs: Vec<String> = lin
            .inputs
            .iter()
            .map(|u| format!("\\delta {}", name(u)))
            .collect();
        body.push_str(&format!(
            " + B\\,\\delta u$, $\\delta u = ({})$",
            inputs.join(", ")
        ));
    } else {
        body.push('$');
    }
    body.push_str(":\n\\[\nA = ");
    body.push_str(&bmatrix(&lin.a, system));
    body.push_str("\n\\]\n");
    if !lin.inputs.is_empty() {
        body.push_str("\\[\nB = ");
        body.push_str(&bmatrix(&lin.b, system));
        body.push_str("\n\\]\n");
    }
    body.push_str(&format!(
        "\\section*{{Characteristic polynomial}}\n\\[\n\\det({v} I - A) = {}\n\\]\n",
        cas::print::latex(&lin.characteristic, system),
        v = lin.variable
    ));
    if let Some(roots) = lin.eigenvalues.clone() {
        let shown: Vec<String> = roots.iter().map(show_complex).collect();
        body.push_str(&format!(
            "Eigenvalues: ${}$.\n",
            shown.join(",\\ ").replace('i', "\\,i")
        ));
    }
    format!(
        "% Generated by dalembert {} from system `{}` -- do not edit.\n\\documentclass{{article}}\n\\usepackage{{amsmath}}\n\\usepackage[margin=2cm]{{geometry}}\n\\begin{{document}}\n\\section*{{Linearisation of \\texttt{{{}}}}}\n{body}\\end{{document}}\n",
        env!("CARGO_PKG_VERSION"),
        system.name,
        system.name.replace('_', "\\_"),
    )
}

/// The C or Rust code: one function `state_space` of the system `<name>_linear` that computes `A`
/// and `B` (row-major, on the reduced state) at the state, inputs and parameters it is given.
pub fn code(
    lin: &Linearization,
    system: &System,
    options: CodeOptions,
    language: Language,
) -> Result<Vec<Artifact>, String> {
    let mut renamed = system.clone();
    renamed.name = format!("{}_linear", system.name);
    let Some((a, b)) = &lin.general else {
        return Err(format!(
            "error[E0507]: the C and Rust outputs of a linearisation compute A and B at any state from the closed form, and `{}` takes the implicit route (its closed form is too large): emit json and latex, or force the closed form with --solve symbolic",
            system.name
        ));
    };
    let every: Vec<&Expr> = a.iter().chain(b).flatten().collect();
    let layout = Layout::of(system, lin.state.clone(), &every);
    let mut program = Program::new(layout.symbols());
    let (n, m) = (lin.independent.len(), lin.inputs.len());
    for (name, matrix) in [("A", a), ("B", b)] {
        for (k, e) in matrix.iter().flatten().enumerate() {
            program
                .output(format!("{name}[{k}]"), &e.factored())
                .map_err(|u| format!("the linearisation reads `{}`, not an argument", u.0))?;
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
                name: "A".into(),
                len: n * n,
                doc: format!("{n} x {n} row-major"),
            },
            Output {
                name: "B".into(),
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
