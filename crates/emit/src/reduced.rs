//! A reduced system ([`mech::reduction::Reduction`]) written back as a spec: the `algebroid { }`
//! block with its anchors and brackets, the reduced Lagrangian and constraints, in the spec
//! language (`docs/spec-language.md`), so that a user can read it, edit it and derive from it.
//! The reconstruction of the moved coordinates is stated in the header comment.

use std::fmt::Write as _;

use cas::Expr;
use model::symbols::Handle;
use model::System;
use report::{Connection, Reduction};

/// The name of the reduced system.
pub fn reduced_name(system: &System) -> String {
    format!("{}_reduced", system.name)
}

/// The name of the Routh-reduced system.
pub fn routh_name(system: &System) -> String {
    format!("{}_routh", system.name)
}

/// The Routh-reduced system as spec text (`algebroid tangent` on the shape space, the Routhian
/// as Lagrangian, the momentum values as parameters), or `None` without a Routh reduction or
/// when the shape space is a point.
pub fn routh_text(reduction: &Reduction, system: &System) -> Option<String> {
    let routh = reduction.routh.as_ref()?;
    if reduction.shape.is_empty() {
        return None;
    }
    let print = |e: &Expr| cas::print::spec(e, system);
    let mut out = String::new();
    let cyclic: Vec<String> = routh
        .cyclic
        .iter()
        .map(|q| system.spec_name(system.handle(q)))
        .collect();
    let _ = writeln!(
        out,
        "# `{}` reduced by Routh's method: {} acting on {}, at the momentum value{} {} = dL/d{}'.\n\
         # Written by `dalembert reduce` (docs/reduction.md). The Routhian R = L - mu q' below, with the\n\
         # cyclic velocities solved from the momentum, is a Lagrangian of the shape whose motion is the\n\
         # reduced motion. The cyclic velocities at this momentum:",
        system.name,
        reduction.group,
        cyclic.join(", "),
        if routh.values.len() > 1 { "s" } else { "" },
        routh.values.join(", "),
        cyclic.join("', dL/d"),
    );
    for (q, rate) in cyclic.iter().zip(&routh.cyclic_velocities) {
        let _ = writeln!(out, "#   {q}' = {}", print(rate));
    }
    let _ = writeln!(
        out,
        "# The amended potential:\n#   V = {}",
        print(&routh.amended_potential)
    );
    out.push_str("# The relative equilibria are where its derivatives vanish:\n");
    for (s, d) in reduction.shape.iter().zip(&routh.equilibria) {
        let _ = writeln!(
            out,
            "#   dV/d{} = {} = 0",
            system.spec_name(system.handle(s)),
            print(d)
        );
    }
    declarations(
        &mut out,
        system,
        &routh_name(system),
        &routh.values,
        &reduction.shape,
    );
    out.push_str("\nalgebroid tangent\n");
    let _ = writeln!(out, "\nlagrangian = {}", print(&routh.routhian));
    kept_latex(&mut out, system, &reduction.shape, &[]);
    Some(out)
}

/// The name of the reconstruction system.
pub fn reconstruction_name(system: &System) -> String {
    format!("{}_reconstruction", system.name)
}

/// Over which base a reduced spec is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    /// The shape space `Q/G`: the reduced system.
    Shape,
    /// All of `Q`: the same sections, brackets, Lagrangian and constraints, with the anchors of
    /// the invariant frame on `Q` (`ρ(X_α) = X_α`). Its motion is the reduced motion together with
    /// the reconstruction `q̇ = y^α X_α(q)`: `TQ` in the invariant frame, a Lie algebroid since
    /// `[X_α, X_β] = C^γ_αβ X_γ` with the invariant `C`.
    Whole,
}

/// The reduced system as spec text.
pub fn spec_text(reduction: &Reduction, system: &System) -> String {
    text(reduction, system, Base::Shape)
}

/// The reduced system over all of `Q` (see [`Base::Whole`]): the reduced equations and the
/// reconstruction equations in one spec, which `simulate` integrates to the full motion.
pub fn reconstruction_text(reduction: &Reduction, system: &System) -> String {
    text(reduction, system, Base::Whole)
}

fn text(reduction: &Reduction, system: &System, base: Base) -> String {
    // The reduced sections and velocities are names of their own: the system spells a symbol
    // its table has not met as the symbol itself.
    let print = |e: &Expr| cas::print::spec(e, system);
    let mut out = String::new();
    header(&mut out, reduction, system, &print, base);
    let (name, coordinates) = match base {
        Base::Shape => (reduced_name(system), reduction.shape.clone()),
        Base::Whole => (
            reconstruction_name(system),
            system.keys(&system.coordinates),
        ),
    };
    declarations(&mut out, system, &name, &[], &coordinates);
    algebroid(&mut out, reduction, system, &print, base);
    let _ = writeln!(out, "\nlagrangian = {}", print(&reduction.lagrangian));
    if reduction.forces.iter().any(|f| !f.is_zero()) {
        out.push_str("\nforces {\n");
        for (section, f) in reduction.sections.iter().zip(&reduction.forces) {
            if !f.is_zero() {
                let _ = writeln!(out, "  {section} = {}", print(f));
            }
        }
        out.push_str("}\n");
    }
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

fn header(
    out: &mut String,
    r: &Reduction,
    system: &System,
    print: &dyn Fn(&Expr) -> String,
    base: Base,
) {
    let moved: Vec<String> = r
        .moved
        .iter()
        .map(|q| system.spec_name(system.handle(q)))
        .collect();
    let connection = match r.connection {
        Connection::Mechanical => "the mechanical connection",
        Connection::Chart => "the flat connection of the chart",
        Connection::Nonholonomic => "the nonholonomic connection",
        Connection::Given => "the connection the spec gives",
        Connection::Sections => "",
    };
    let target = if r.connection == Connection::Sections {
        "quotient algebroid A/G -> Q/G, on the spec's own invariant sections".to_string()
    } else {
        format!("Atiyah algebroid TQ/G -> Q/G, split by {connection}")
    };
    let _ = writeln!(
        out,
        "# `{}` reduced by the symmetry {} acting on {}: Lagrangian reduction to the\n\
         # {target} (docs/reduction.md).\n\
         # Written by `dalembert reduce`.",
        system.name,
        r.group,
        moved.join(", ")
    );
    if base == Base::Whole {
        out.push_str(
            "# The same system over all of Q: the reduced equations and the reconstruction of the\n\
             # moved coordinates (the anchors of the invariant frame), for `simulate`.\n",
        );
    }
    if r.connection == Connection::Sections {
        out.push_str("# The sections are the spec's own, invariant under the group: no connection is needed.\n");
    } else if r.shape.is_empty() {
        out.push_str("# Q/G is a point: the algebroid is the Lie algebra of the group.\n");
    } else {
        out.push_str("# Connection form, h_i = d/ds_i - A^b_i eta_b:\n");
        for (i, s) in r.shape.iter().enumerate() {
            let row: Vec<String> = r.connection_form[i].iter().map(print).collect();
            let _ = writeln!(
                out,
                "#   A(d/d{}) = ({})",
                system.spec_name(system.handle(s)),
                row.join(", ")
            );
        }
    }
    out.push_str("# Reconstruction of the moved coordinates from the reduced velocities:\n");
    for q in &r.moved {
        let i = system.coordinate_named(q).expect("a coordinate");
        let rate = Expr::sum(
            r.frame
                .iter()
                .zip(&r.velocities)
                .map(|(x, y)| &x[i] * &Expr::symbol(y)),
        )
        .simplify();
        let _ = writeln!(
            out,
            "#   {}' = {}",
            system.spec_name(system.handle(q)),
            print(&rate)
        );
    }
}

/// The declarations of a spec written from `system`: its name, time, parameters (with
/// `extra_parameters` after them), functions, inputs and `coordinates`.
fn declarations(
    out: &mut String,
    system: &System,
    name: &str,
    extra_parameters: &[String],
    coordinates: &[String],
) {
    let _ = writeln!(out, "\nsystem {name}");
    let time = system.key(system.time);
    let _ = writeln!(out, "time {time}");
    let declared = system.keys(&system.parameters);
    let parameters: Vec<&String> = declared.iter().chain(extra_parameters).collect();
    if !parameters.is_empty() {
        let list: Vec<&str> = parameters.iter().map(|p| p.as_str()).collect();
        let _ = writeln!(out, "parameters {}", list.join(", "));
    }
    if !system.functions.is_empty() {
        let list: Vec<String> = system
            .keys(&system.functions)
            .iter()
            .map(|f| format!("{f}({time})"))
            .collect();
        let _ = writeln!(out, "functions {}", list.join(", "));
    }
    if !system.inputs.is_empty() {
        let _ = writeln!(out, "inputs {}", system.keys(&system.inputs).join(", "));
    }
    if !coordinates.is_empty() {
        let _ = writeln!(out, "coordinates {}", coordinates.join(", "));
    }
}

fn algebroid(
    out: &mut String,
    r: &Reduction,
    system: &System,
    print: &dyn Fn(&Expr) -> String,
    base: Base,
) {
    out.push_str("\nalgebroid {\n");
    let _ = writeln!(out, "  sections {}", r.sections.join(", "));
    let _ = writeln!(out, "  velocities {}", r.velocities.join(", "));
    if !r.momenta.is_empty() {
        let _ = writeln!(out, "  momenta {}", r.momenta.join(", "));
    }
    let (anchors, over) = match base {
        Base::Shape => (&r.anchors, &r.shape),
        Base::Whole => (&r.frame, &system.keys(&system.coordinates)),
    };
    for (alpha, rho) in anchors.iter().enumerate() {
        let terms: Vec<String> = rho
            .iter()
            .zip(over)
            .filter(|(c, _)| !c.is_zero())
            .map(|(c, s)| {
                if (c - &Expr::one()).is_zero() {
                    format!("d/d{s}")
                } else {
                    format!("{}*d/d{s}", factor(&print(c)))
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
    let dotted: Vec<(String, String)> = r
        .shape
        .iter()
        .zip(&r.velocities[..k])
        .filter(|(s, v)| v.starts_with(&format!("{s}_dot")))
        .map(|(s, v)| {
            let tex = system
                .latex
                .get(s)
                .cloned()
                .unwrap_or_else(|| model::latex_symbol(s));
            (v.clone(), format!("\\dot{{{tex}}}"))
        })
        .collect();
    kept_latex(out, system, &r.shape, &dotted);
}

/// The spec's `latex { }` overrides of the names the reduced spec keeps (parameters, functions,
/// inputs, the shape coordinates), then `extra`; nothing when there is none.
fn kept_latex(out: &mut String, system: &System, shape: &[String], extra: &[(String, String)]) {
    let kept = |name: &str| {
        let declared = |list: &[Handle]| list.iter().any(|h| system.key(*h) == name);
        declared(&system.parameters)
            || declared(&system.functions)
            || declared(&system.inputs)
            || shape.iter().any(|s| s == name)
    };
    let mut entries: Vec<(String, String)> = system
        .latex
        .iter()
        .filter(|(name, _)| kept(name))
        .map(|(n, t)| (n.clone(), t.clone()))
        .collect();
    entries.extend(extra.iter().cloned());
    if entries.is_empty() {
        return;
    }
    out.push_str("\nlatex {\n");
    for (name, tex) in entries {
        let escaped = tex.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "  {name} = \"{escaped}\"");
    }
    out.push_str("}\n");
}

/// A coefficient as a factor: in parentheses when it is a sum or a difference.
fn factor(text: &str) -> String {
    if text.get(1..).is_some_and(|rest| rest.contains(['+', '-'])) {
        format!("({text})")
    } else {
        text.to_string()
    }
}
