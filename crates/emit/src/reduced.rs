//! A reduced system ([`mech::reduction::Reduction`]) written back as a spec: the `algebroid { }`
//! block with its anchors and brackets, the reduced Lagrangian and constraints, in the spec
//! language (`docs/spec-language.md`), so that a user can read it, edit it and derive from it.
//! The reconstruction of the moved coordinates is stated in the header comment.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use cas::print::{Names, Spelling};
use cas::Expr;
use model::System;
use report::{Connection, Reduction};

/// Spells the reduced system's new names (sections, velocities) as themselves and every other
/// symbol as the original system does.
struct ReducedNames<'a> {
    system: &'a System,
    fresh: BTreeSet<String>,
}

impl Names for ReducedNames<'_> {
    fn spell(&self, symbol: &str, spelling: Spelling) -> String {
        if self.fresh.contains(symbol) {
            symbol.to_string()
        } else {
            self.system.spell(symbol, spelling)
        }
    }
}

/// The name of the reduced system.
pub fn reduced_name(system: &System) -> String {
    format!("{}_reduced", system.name)
}

/// The reduced system as spec text.
pub fn spec_text(reduction: &Reduction, system: &System) -> String {
    let names = ReducedNames {
        system,
        fresh: reduction
            .sections
            .iter()
            .chain(&reduction.velocities)
            .cloned()
            .collect(),
    };
    let print = |e: &Expr| cas::print::spec(e, &names);
    let mut out = String::new();
    header(&mut out, reduction, system, &print);
    declarations(&mut out, reduction, system);
    algebroid(&mut out, reduction, &print);
    let _ = writeln!(out, "\nlagrangian = {}", print(&reduction.lagrangian));
    if !reduction.constraints.is_empty() {
        out.push_str("\nconstraints nonholonomic {\n");
        for psi in &reduction.constraints {
            let _ = writeln!(out, "  {} = 0", print(psi));
        }
        out.push_str("}\n");
    }
    latex(&mut out, reduction, system);
    out
}

fn header(out: &mut String, r: &Reduction, system: &System, print: &dyn Fn(&Expr) -> String) {
    let moved: Vec<String> = r.moved.iter().map(|q| system.spec_name(q)).collect();
    let connection = match r.connection {
        Connection::Mechanical => "the mechanical connection",
        Connection::Chart => "the flat connection of the chart",
    };
    let _ = writeln!(
        out,
        "# `{}` reduced by the symmetry {} acting on {}: Lagrangian reduction to the\n\
         # Atiyah algebroid TQ/G -> Q/G, split by {connection} (docs/reduction.md).\n\
         # Written by `dalembert reduce`.",
        system.name,
        r.group,
        moved.join(", ")
    );
    if r.shape.is_empty() {
        out.push_str("# Q/G is a point: the algebroid is the Lie algebra of the group.\n");
    } else {
        out.push_str("# Connection form, h_i = d/ds_i - A^b_i eta_b:\n");
        for (i, s) in r.shape.iter().enumerate() {
            let row: Vec<String> = r.connection_form[i].iter().map(print).collect();
            let _ = writeln!(
                out,
                "#   A(d/d{}) = ({})",
                system.spec_name(s),
                row.join(", ")
            );
        }
    }
    out.push_str("# Reconstruction of the moved coordinates from the reduced velocities:\n");
    for q in &r.moved {
        let i = system
            .coordinates
            .iter()
            .position(|c| c == q)
            .expect("a coordinate");
        let rate = Expr::sum(
            r.frame
                .iter()
                .zip(&r.velocities)
                .map(|(x, y)| &x[i] * &Expr::symbol(y)),
        )
        .simplify();
        let _ = writeln!(out, "#   {}' = {}", system.spec_name(q), print(&rate));
    }
}

fn declarations(out: &mut String, r: &Reduction, system: &System) {
    let _ = writeln!(out, "\nsystem {}", reduced_name(system));
    let _ = writeln!(out, "time {}", system.time);
    if !system.parameters.is_empty() {
        let _ = writeln!(out, "parameters {}", system.parameters.join(", "));
    }
    if !system.functions.is_empty() {
        let list: Vec<String> = system
            .functions
            .iter()
            .map(|f| format!("{f}({})", system.time))
            .collect();
        let _ = writeln!(out, "functions {}", list.join(", "));
    }
    if !system.inputs.is_empty() {
        let _ = writeln!(out, "inputs {}", system.inputs.join(", "));
    }
    if !r.shape.is_empty() {
        let _ = writeln!(out, "coordinates {}", r.shape.join(", "));
    }
}

fn algebroid(out: &mut String, r: &Reduction, print: &dyn Fn(&Expr) -> String) {
    out.push_str("\nalgebroid {\n");
    let _ = writeln!(out, "  sections {}", r.sections.join(", "));
    let _ = writeln!(out, "  velocities {}", r.velocities.join(", "));
    if !r.momenta.is_empty() {
        let _ = writeln!(out, "  momenta {}", r.momenta.join(", "));
    }
    for (alpha, rho) in r.anchors.iter().enumerate() {
        let terms: Vec<String> = rho
            .iter()
            .zip(&r.shape)
            .filter(|(c, _)| !c.is_zero())
            .map(|(c, s)| {
                if (c - &Expr::one()).is_zero() {
                    format!("d/d{s}")
                } else {
                    format!("({})*d/d{s}", print(c))
                }
            })
            .collect();
        if !terms.is_empty() {
            let _ = writeln!(
                out,
                "  anchor {} = {}",
                r.sections[alpha],
                terms.join(" + ")
            );
        }
    }
    let n = r.sections.len();
    for a in 0..n {
        for b in a + 1..n {
            let value = Expr::sum(
                r.brackets[a][b]
                    .iter()
                    .zip(&r.sections)
                    .map(|(c, e)| c * &Expr::symbol(e)),
            );
            if !value.is_zero() {
                let _ = writeln!(
                    out,
                    "  bracket [{}, {}] = {}",
                    r.sections[a],
                    r.sections[b],
                    print(&value)
                );
            }
        }
    }
    out.push_str("}\n");
}

/// `latex { s_dot = "\dot{s}" }` for the shape velocities, so that the reduced equations read
/// as a paper prints them.
fn latex(out: &mut String, r: &Reduction, system: &System) {
    let k = r.shape.len();
    if k == 0 {
        return;
    }
    out.push_str("\nlatex {\n");
    for (s, v) in r.shape.iter().zip(&r.velocities[..k]) {
        let tex = model::latex_symbol(s);
        let tex = system.latex.get(s).cloned().unwrap_or(tex);
        let _ = writeln!(out, "  {v} = \"\\dot{{{tex}}}\"");
    }
    out.push_str("}\n");
}
