//! The lowering of every derivation into its report (`report::Report`): the named quantities
//! that the JSON and LaTeX documents are written from, in their order, with the prose that says
//! what each one is, its convention and the paper it comes from.
//!
//! One module per formalism says what that formalism reports; this one holds what every report
//! shares: the system (names, the algebroid's anchors and brackets), the constraints, the route
//! the accelerations took, and the bibliography. Nothing here derives: every value is read from
//! the derivation, at most restricted or paired as the papers display it.

mod closed;
mod contact;
mod discrete;
mod implicit;
mod linear;
mod reduction;
mod sides;
mod singular;
mod vakonomic;

use cas::Expr;
use model::symbols::Handle;
use model::{AlgebroidKind, ConstraintShape, System};
use report::{Audience, Key, Quantity, Report, Section, Value};

use crate::derivation::Derived;

/// The report of a derivation by any route.
pub fn report(d: &Derived) -> Report {
    let mut report = route_report(d);
    let equations = match d {
        Derived::Closed(d) => d.discrete.as_ref(),
        Derived::Implicit(d) => d.discrete.as_ref(),
        Derived::Contact(d) => d.discrete.as_ref(),
        _ => None,
    };
    if let Some(section) = discrete::section(d.system(), equations) {
        report.sections.push(section);
    }
    if let Some(section) = reduction::section(d.system()) {
        report.sections.push(section);
    }
    // The sections added after the route's report cite papers too.
    report.references = cited(&report.sections);
    report
}

fn route_report(d: &Derived) -> Report {
    match d {
        Derived::Closed(d) => closed::report(d),
        Derived::Implicit(d) => implicit::report(d),
        Derived::Vakonomic(d) => vakonomic::report(d),
        Derived::Singular(d) => singular::report(d),
        Derived::Contact(d) => contact::report(d),
    }
}

pub use closed::report as closed_report;
pub use contact::report as contact_report;
pub use implicit::{mechanical_form, Mechanical, SIMPLIFIED_ENERGY_NODES, STRUCTURED_NODES};
pub use linear::report as linearization_report;
pub use singular::report as singular_report;
pub use vakonomic::report as vakonomic_report;

/// The papers a report can cite, by label: the full reference, then its BibTeX entry.
const PAPERS: [(&str, &str, &str); 13] = [
    (
        "IMMS07",
        "D.~Iglesias, J.~C.~Marrero, D.~Mart\\'in de Diego, D.~Sosa, ``A general framework for nonholonomic mechanics: nonholonomic systems on Lie affgebroids'', \\emph{J. Math. Phys.} 48 (2007) 083513.",
        "@article{IMMS07,\n  author = {Iglesias, D. and Marrero, J. C. and Mart{\\'\\i}n de Diego, D. and Sosa, D.},\n  title = {A general framework for nonholonomic mechanics: nonholonomic systems on {Lie} affgebroids},\n  journal = {J. Math. Phys.},\n  volume = {48},\n  pages = {083513},\n  year = {2007}\n}",
    ),
    (
        "GLMM09",
        "J.~Grabowski, M.~de Le\\'on, J.~C.~Marrero, D.~Mart\\'in de Diego, ``Nonholonomic constraints: a new viewpoint'', \\emph{J. Math. Phys.} 50 (2009) 013520.",
        "@article{GLMM09,\n  author = {Grabowski, J. and de Le{\\'o}n, M. and Marrero, J. C. and Mart{\\'\\i}n de Diego, D.},\n  title = {Nonholonomic constraints: a new viewpoint},\n  journal = {J. Math. Phys.},\n  volume = {50},\n  pages = {013520},\n  year = {2009}\n}",
    ),
    (
        "GBMS24",
        "K.~Grabowska, M.~Borczy\\'nska, J.~Majsak, T.~Sobczak, ``Dirac structures in nonholonomic mechanics'' (preprint, 2024).",
        "@misc{GBMS24,\n  author = {Grabowska, K. and Borczy{\\'n}ska, M. and Majsak, J. and Sobczak, T.},\n  title = {Dirac structures in nonholonomic mechanics},\n  note = {Preprint},\n  year = {2024}\n}",
    ),
    (
        "IMMS08",
        "D.~Iglesias, J.~C.~Marrero, D.~Mart\\'in de Diego, D.~Sosa, ``Singular Lagrangian systems and variational constrained mechanics on Lie algebroids'', \\emph{Dynamical Systems} 23 (2008) 351--397.",
        "@article{IMMS08,\n  author = {Iglesias, D. and Marrero, J. C. and Mart{\\'\\i}n de Diego, D. and Sosa, D.},\n  title = {Singular {Lagrangian} systems and variational constrained mechanics on {Lie} algebroids},\n  journal = {Dynamical Systems},\n  volume = {23},\n  pages = {351--397},\n  year = {2008}\n}",
    ),
    (
        "LJL21",
        "M.~de Le\\'on, V.~M.~Jim\\'enez, M.~Lainz Valc\\'azar, ``Contact Hamiltonian systems with nonholonomic constraints'', \\emph{J. Geom. Mech.} 13 (2021) 25--53.",
        "@article{LJL21,\n  author = {de Le{\\'o}n, M. and Jim{\\'e}nez, V. M. and Lainz Valc{\\'a}zar, M.},\n  title = {Contact {Hamiltonian} systems with nonholonomic constraints},\n  journal = {J. Geom. Mech.},\n  volume = {13},\n  pages = {25--53},\n  year = {2021}\n}",
    ),
    (
        "MW01",
        "J.~E.~Marsden, M.~West, ``Discrete mechanics and variational integrators'', \\emph{Acta Numerica} 10 (2001) 357--514.",
        "@article{MW01,\n  author = {Marsden, J. E. and West, M.},\n  title = {Discrete mechanics and variational integrators},\n  journal = {Acta Numerica},\n  volume = {10},\n  pages = {357--514},\n  year = {2001}\n}",
    ),
    (
        "HLW06",
        "E.~Hairer, C.~Lubich, G.~Wanner, \\emph{Geometric Numerical Integration: Structure-Preserving Algorithms for Ordinary Differential Equations}, 2nd ed., Springer (2006).",
        "@book{HLW06,\n  author = {Hairer, E. and Lubich, C. and Wanner, G.},\n  title = {Geometric Numerical Integration: Structure-Preserving Algorithms for Ordinary Differential Equations},\n  edition = {2},\n  publisher = {Springer},\n  year = {2006}\n}",
    ),
    (
        "VBS19",
        "M.~Vermeeren, A.~Bravetti, M.~Seri, ``Contact variational integrators'', \\emph{J. Phys. A: Math. Theor.} 52 (2019) 445206.",
        "@article{VBS19,\n  author = {Vermeeren, M. and Bravetti, A. and Seri, M.},\n  title = {Contact variational integrators},\n  journal = {J. Phys. A: Math. Theor.},\n  volume = {52},\n  pages = {445206},\n  year = {2019}\n}",
    ),
    (
        "MMM06",
        "J.~C.~Marrero, D.~Mart\\'in de Diego, E.~Mart\\'inez, ``Discrete Lagrangian and Hamiltonian mechanics on Lie groupoids'', \\emph{Nonlinearity} 19 (2006) 1313--1348.",
        "@article{MMM06,\n  author = {Marrero, J. C. and Mart{\\'\\i}n de Diego, D. and Mart{\\'\\i}nez, E.},\n  title = {Discrete {Lagrangian} and {Hamiltonian} mechanics on {Lie} groupoids},\n  journal = {Nonlinearity},\n  volume = {19},\n  pages = {1313--1348},\n  year = {2006}\n}",
    ),
    (
        "CM01",
        "J.~Cort\\'es, S.~Mart\\'inez, ``Non-holonomic integrators'', \\emph{Nonlinearity} 14 (2001) 1365--1392.",
        "@article{CM01,\n  author = {Cort{\\'e}s, J. and Mart{\\'\\i}nez, S.},\n  title = {Non-holonomic integrators},\n  journal = {Nonlinearity},\n  volume = {14},\n  pages = {1365--1392},\n  year = {2001}\n}",
    ),
    (
        "MP06",
        "R.~I.~McLachlan, M.~Perlmutter, ``Integrators for nonholonomic mechanical systems'', \\emph{J. Nonlinear Sci.} 16 (2006) 283--328.",
        "@article{MP06,\n  author = {McLachlan, R. I. and Perlmutter, M.},\n  title = {Integrators for nonholonomic mechanical systems},\n  journal = {J. Nonlinear Sci.},\n  volume = {16},\n  pages = {283--328},\n  year = {2006}\n}",
    ),
    (
        "BRM09",
        "N.~Bou-Rabee, J.~E.~Marsden, ``Hamilton--Pontryagin integrators on Lie groups. Part I: Introduction and structure-preserving properties'', \\emph{Found. Comput. Math.} 9 (2009) 197--219.",
        "@article{BRM09,\n  author = {Bou-Rabee, N. and Marsden, J. E.},\n  title = {{Hamilton--Pontryagin} integrators on {Lie} groups. {Part I}: Introduction and structure-preserving properties},\n  journal = {Found. Comput. Math.},\n  volume = {9},\n  pages = {197--219},\n  year = {2009}\n}",
    ),
    (
        "LLM07",
        "T.~Lee, M.~Leok, N.~H.~McClamroch, ``Lie group variational integrators for the full body problem'', \\emph{Comput. Methods Appl. Mech. Engrg.} 196 (2007) 2907--2924.",
        "@article{LLM07,\n  author = {Lee, T. and Leok, M. and McClamroch, N. H.},\n  title = {{Lie} group variational integrators for the full body problem},\n  journal = {Comput. Methods Appl. Mech. Engrg.},\n  volume = {196},\n  pages = {2907--2924},\n  year = {2007}\n}",
    ),
];

/// A report of `system` titled `title` over `sections`, citing the papers whose labels appear in
/// its prose (in the order of [`PAPERS`]).
fn assemble(system: &System, title: &str, sections: Vec<Section>) -> Report {
    let references = cited(&sections);
    Report {
        system: system.name.clone(),
        title: title.into(),
        sections,
        references,
    }
}

/// The papers the prose of `sections` cites, in the order of [`PAPERS`].
fn cited(sections: &[Section]) -> Vec<report::Reference> {
    let mut text = String::new();
    for s in sections {
        collect_prose(s, &mut text);
    }
    PAPERS
        .iter()
        .filter(|(label, _, _)| {
            // `[A]`, `[A, \S 2]` or a later label of a group, `[A; B]`.
            text.contains(&format!("[{label}")) || text.contains(&format!("; {label}"))
        })
        .map(|(label, full, bibtex)| report::Reference {
            label: label.to_string(),
            full: full.to_string(),
            bibtex: bibtex.to_string(),
        })
        .collect()
}

fn collect_prose(s: &Section, out: &mut String) {
    for b in &s.blocks {
        match b {
            report::Block::Prose(p) => out.push_str(p),
            report::Block::Quantity(q) => out.push_str(q.about.as_deref().unwrap_or("")),
            report::Block::Section(s) => collect_prose(s, out),
        }
    }
}

/// A symbol's LaTeX name, for prose.
fn tex_name(system: &System, s: &str) -> String {
    system.latex_name(system.handle(s))
}

/// A comma-separated list of the LaTeX names of symbols.
fn tex_symbols(system: &System, list: &[Handle]) -> String {
    list.iter()
        .map(|s| system.latex_name(*s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A comma-separated list of LaTeX names.
fn tex_list(system: &System, list: &[String]) -> String {
    // `\allowbreak`: inline math breaks only after an operator, so a long list of names (the
    // twenty coordinates of a ten-mass chain) would run past a column without it.
    list.iter()
        .map(|s| tex_name(system, s))
        .collect::<Vec<_>>()
        .join(",\\allowbreak ")
}

/// The section of the system: its names (data), a sentence saying them, and the algebroid.
/// `form` is the route's `form` key (absent on the closed Lagrange–d'Alembert route), `state`
/// the state the document's equations are written on.
fn system_section(system: &System, form: Option<&str>, state: &[String]) -> Section {
    let mut s = Section::new("The system", None);
    let data = |key: &str, value: Value| Quantity::new(key, value).for_only(Audience::Data);
    s.quantity(data("system", Value::Text(system.name.clone())));
    if let Some(form) = form {
        s.quantity(data("form", Value::Text(form.into())));
    }
    s.quantity(data("time", Value::Text(system.key(system.time))));
    s.quantity(data(
        "parameters",
        Value::Names(system.keys(&system.parameters)),
    ));
    s.quantity(data(
        "functions",
        Value::Names(system.keys(&system.functions)),
    ));
    s.quantity(data("inputs", Value::Names(system.keys(&system.inputs))));
    s.quantity(data(
        "forces",
        Value::Table(
            system
                .algebroid
                .sections
                .iter()
                .zip(&system.forces)
                .filter(|(_, f)| !f.is_zero())
                .map(|(a, f)| (section_key(system, a), Value::Expr(f.clone())))
                .collect(),
        ),
    ));
    s.quantity(data(
        "coordinates",
        Value::Names(system.keys(&system.coordinates)),
    ));
    s.quantity(data(
        "velocities",
        Value::Names(system.keys(&system.algebroid.velocities)),
    ));
    s.quantity(data("state", Value::Names(state.to_vec())));
    s.prose(system_sentence(system));
    s.section(algebroid_section(system));
    s
}

/// "Time t; coordinates x, y. Parameters m. …"
fn system_sentence(system: &System) -> String {
    let mut out = format!("Time ${}$;", system.latex_name(system.time));
    if system.coordinates.is_empty() {
        out.push_str(" the base is a point (no coordinates).");
    } else {
        out.push_str(&format!(
            " coordinates ${}$.",
            tex_list(system, &system.keys(&system.coordinates))
        ));
    }
    let lists = [
        ("Parameters", &system.parameters),
        ("Given functions of time", &system.functions),
        ("Inputs", &system.inputs),
    ];
    for (label, list) in lists {
        if !list.is_empty() {
            out.push_str(&format!(
                " {label} ${}$.",
                tex_list(system, &system.keys(list))
            ));
        }
    }
    out
}

/// The algebroid: its kind, sections, momenta, anchors and brackets (JSON `algebroid`).
fn algebroid_section(system: &System) -> Section {
    let alg = &system.algebroid;
    let mut s = Section::new("Algebroid", Some("algebroid"));
    let (kind, said) = match &alg.kind {
        AlgebroidKind::Tangent => ("tangent".to_string(), "The tangent bundle $TQ$".to_string()),
        AlgebroidKind::LieAlgebra(name) => (
            name.clone(),
            format!("The Lie algebra ${}$", lie_algebra_tex(name)),
        ),
        AlgebroidKind::Explicit => (
            "explicit".to_string(),
            "An affgebroid given explicitly".to_string(),
        ),
    };
    let sections: Vec<Key> = alg
        .sections
        .iter()
        .map(|a| section_key(system, a))
        .collect();
    s.prose(format!(
        "{said} of rank {} with sections ${}$ and fibre coordinates ${}$ (convention $[e_\\alpha, e_\\beta] = C^\\gamma_{{\\alpha\\beta}} e_\\gamma$, $\\rho(e_\\alpha) = \\rho^i_\\alpha \\partial_i$; [IMMS07], \\S II.3).",
        alg.sections.len(),
        alg.sections.iter().map(|a| section_tex(system, a)).collect::<Vec<_>>().join(", "),
        tex_symbols(system, &alg.velocities),
    ));
    s.quantity(Quantity::new("kind", Value::Text(kind)).for_only(Audience::Data));
    s.quantity(Quantity::new("sections", Value::Keys(sections.clone())).for_only(Audience::Data));
    s.quantity(
        Quantity::new("momenta", Value::Names(system.keys(&alg.momenta))).for_only(Audience::Data),
    );
    let base = system.base();
    let field = |coefficients: &[Expr]| {
        Value::Combination(
            base.iter()
                .zip(coefficients)
                .filter(|(_, c)| !c.is_zero())
                .map(|(q, c)| (Key::Partial(system.key(*q)), c.clone()))
                .collect(),
        )
    };
    let mut anchors = vec![(
        Key::Word {
            json: "e0".into(),
            tex: "\\rho(e_0)".into(),
        },
        field(&alg.anchor0),
    )];
    for (a, rho) in alg.sections.iter().zip(&alg.anchors) {
        anchors.push((
            Key::Word {
                json: a.clone(),
                tex: format!("\\rho({})", section_tex(system, a)),
            },
            field(rho),
        ));
    }
    // The data holds every anchor. A reader is shown those that say something: on TQ every
    // anchor is the identity (`ρ(∂_q) = ∂_q`, which the sentence above says), `ρ(e_0) = ∂_t` is
    // the affine part of every Lie algebroid, and a zero anchor (a Lie algebra's) is said once.
    let base_keys = system.keys(&base);
    let shown: Vec<(Key, Value)> = anchors
        .iter()
        .filter(|(key, value)| !trivial_anchor(key, value, &base_keys))
        .cloned()
        .collect();
    let zero_anchors = alg.anchors.iter().any(|rho| rho.iter().all(Expr::is_zero));
    let e0_left_out = !shown
        .iter()
        .any(|(key, _)| matches!(key, Key::Word { json, .. } if json == "e0"));
    s.quantity(Quantity::new("anchors", Value::Table(anchors)).for_only(Audience::Data));
    if alg.kind != AlgebroidKind::Tangent && !shown.is_empty() {
        s.quantity(
            Quantity::new("anchors", Value::Table(shown))
                .for_only(Audience::Display)
                .about(match (e0_left_out, zero_anchors) {
                    (true, true) => {
                        "The anchors besides $\\rho(e_0) = \\partial_t$ (those not listed vanish):"
                    }
                    (true, false) => "The anchors besides $\\rho(e_0) = \\partial_t$:",
                    (false, true) => "The anchors (those not listed vanish):",
                    (false, false) => "The anchors:",
                }),
        );
    } else if alg.kind != AlgebroidKind::Tangent && zero_anchors {
        s.prose("Every anchor vanishes but that of $e_0$, $\\rho(e_0) = \\partial_t$.");
    }
    let combination = |coefficients: &[Expr]| {
        Value::Combination(
            sections
                .iter()
                .zip(coefficients)
                .filter(|(_, c)| !c.is_zero())
                .map(|(k, c)| (k.clone(), c.clone()))
                .collect(),
        )
    };
    let mut brackets = Vec::new();
    let n = alg.sections.len();
    for a in 0..n {
        if alg.c0[a].iter().any(|c| !c.is_zero()) {
            brackets.push((
                Key::Word {
                    json: format!("e0,{}", alg.sections[a]),
                    tex: format!("[e_0, {}]", section_tex(system, &alg.sections[a])),
                },
                combination(&alg.c0[a]),
            ));
        }
        for b in a + 1..n {
            if alg.c[a][b].iter().any(|c| !c.is_zero()) {
                brackets.push((
                    Key::Word {
                        json: format!("{},{}", alg.sections[a], alg.sections[b]),
                        tex: format!(
                            "[{}, {}]",
                            section_tex(system, &alg.sections[a]),
                            section_tex(system, &alg.sections[b])
                        ),
                    },
                    combination(&alg.c[a][b]),
                ));
            }
        }
    }
    s.quantity(Quantity::new("brackets", Value::Table(brackets)));
    let lie = alg.structure.is_lie();
    s.quantity(Quantity::new("lie", Value::Flag(lie)).for_only(Audience::Data));
    s.prose(if lie {
        "The structure equations hold: this is a Lie affgebroid (brackets not listed are zero)."
    } else {
        "The anchor is a homomorphism but the Jacobi identity fails: this is a skew algebroid (brackets not listed are zero)."
    });
    s
}

/// A section of the algebroid as a key: its name in JSON, `∂_q` (tangent) or its symbol in
/// LaTeX.
fn section_key(system: &System, a: &str) -> Key {
    Key::Word {
        json: a.into(),
        tex: section_tex(system, a),
    }
}

fn section_tex(system: &System, a: &str) -> String {
    match system.algebroid.kind {
        AlgebroidKind::Tangent => format!("\\partial_{{{}}}", system.latex_name(system.handle(a))),
        _ => model::latex_symbol(a),
    }
}

/// The Lagrangian as the spec writes it: shown as stored (not expanded or simplified), so that
/// a reader sees the user's form; the derived quantities show their expanded forms.
fn lagrangian(system: &System) -> Quantity {
    Quantity::new(
        "lagrangian",
        Value::Sum(system.lagrangian_terms.get().clone()),
    )
    .shown_as("L")
    .verbatim()
}

/// Whether a constraint's bias `μ_0` is listed with its coefficients (the implicit form's
/// report lists only `μ_α`, its `β` carrying the rest).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bias {
    /// `mu0` listed.
    Listed,
    /// `mu0` left out.
    Omitted,
}

/// The constraints as written (`Ψ`), their shape and coefficients `μ_0`, `μ_α` (JSON
/// `constraints`); a holonomic one also gives its position-level `f` (`position`) and its
/// acceleration-level form (`acceleration`, [`System::acceleration_level`]). The display shows
/// `Ψ^a = 0`.
fn constraints(system: &System, list: &[model::Constraint], bias: Bias) -> Value {
    Value::List(
        list.iter()
            .map(|c| {
                let mut entries = vec![
                    (Key::word("psi"), Value::Expr(c.psi.clone())),
                    (Key::word("shape"), Value::Text(shape(c.shape).into())),
                ];
                if bias == Bias::Listed {
                    entries.push((Key::word("mu0"), Value::Expr(c.mu0.clone())));
                }
                entries.push((Key::word("mu"), Value::exprs(&c.mu)));
                if let Some(f) = &c.position {
                    entries.push((Key::word("position"), Value::Expr(f.clone())));
                    entries.push((
                        Key::word("acceleration"),
                        Value::Expr(system.acceleration_level(c)),
                    ));
                }
                Value::Table(entries)
            })
            .collect(),
    )
}

/// The holonomic constraints at their three levels, for display: `f^a = 0`, its velocity-level
/// form `ḟ^a = ρ(f^a) = Ψ^a = 0` (the constraint Lagrange–d'Alembert's principle enforces) and its
/// acceleration-level form `f̈^a = 0` (the one the multipliers are solved from: index reduction).
fn holonomic_display(system: &System) -> Option<Quantity> {
    let holonomic = system.holonomic();
    if holonomic.is_empty() {
        return None;
    }
    let mut rows = Vec::new();
    for (a, f) in holonomic {
        let c = &system.constraints[a];
        let level = |json: &str, tex: &str, value: Expr| {
            (
                Key::Word {
                    json: format!("{json}{}", a + 1),
                    tex: format!("{tex}^{{{}}}", a + 1),
                },
                Value::Expr(value),
            )
        };
        rows.push(level("f", "f", f.clone()));
        rows.push(level("f_dot", "\\dot f", c.psi.clone()));
        rows.push(level("f_ddot", "\\ddot f", system.acceleration_level(c)));
    }
    Some(
        // Shown as stored: `f` as the spec writes it, the other levels simplified.
        Quantity::new("holonomic_display", Value::Table(rows))
            .verbatim()
            .about("Holonomic constraints at the position, velocity and acceleration levels ($= 0$; $\\dot f^a = \\rho(f^a)$ is the constraint $\\Psi^a$ of the same number, and the multipliers keep $\\ddot f^a = 0$):")
            .for_only(Audience::Display),
    )
}

fn shape(s: ConstraintShape) -> &'static str {
    match s {
        ConstraintShape::Linear => "linear",
        ConstraintShape::Affine => "affine",
        ConstraintShape::Nonlinear => "nonlinear",
    }
}

/// The constraints `Ψ^a = 0` for display.
fn constraint_display(list: &[model::Constraint], stem: &str) -> Quantity {
    Quantity::new(
        "constraint_display",
        Value::Table(
            list.iter()
                .enumerate()
                .map(|(a, c)| {
                    (
                        Key::Word {
                            json: format!("{stem}{}", a + 1),
                            tex: format!("\\{stem}^{{{}}}", a + 1),
                        },
                        Value::Expr(c.psi.clone()),
                    )
                })
                .collect(),
        ),
    )
    .about("Constraints ($= 0$):")
    .for_only(Audience::Display)
}

/// The constraints for display, then the holonomic ones at their three levels.
fn constraints_shown(s: &mut Section, system: &System, stem: &str) {
    if system.constraints.is_empty() {
        return;
    }
    s.quantity(constraint_display(&system.constraints, stem));
    if let Some(q) = holonomic_display(system) {
        s.quantity(q);
    }
}

/// Which form the accelerations are in, and why (`--solve`), as data.
fn choice(s: &mut Section, choice: &crate::Choice) {
    s.quantity(
        Quantity::new(
            "solve",
            Value::Table(vec![
                (Key::word("route"), Value::Text(choice.route.name().into())),
                (Key::word("reason"), Value::Text(choice.reason.clone())),
            ]),
        )
        .for_only(Audience::Data),
    );
    // Why this form was chosen (a budget, a flag) is the tool's business, not the paper's: it is
    // in the data above and on the command line.
}

/// Whether an anchor says nothing a reader needs: `ρ(e_0) = ∂_t` alone, or a zero anchor.
fn trivial_anchor(key: &Key, value: &Value, base: &[String]) -> bool {
    let Value::Combination(terms) = value else {
        return false;
    };
    let is_e0 = matches!(key, Key::Word { json, .. } if json == "e0");
    terms.is_empty()
        || (is_e0
            && terms.len() == 1
            && matches!(&terms[0], (Key::Partial(t), c) if *t == base[0] && (c - &Expr::one()).is_zero()))
}

/// A Lie algebra preset's name as a paper writes it: `so3` → `\mathfrak{so}(3)`.
fn lie_algebra_tex(name: &str) -> String {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (letters, digits) = name.split_at(split);
    if digits.is_empty() {
        format!("\\mathfrak{{{letters}}}")
    } else {
        format!("\\mathfrak{{{letters}}}({digits})")
    }
}

/// A bracket table `{f, g} = e` over `names` (indices into it), keyed for both outputs.
fn bracket_table(names: &dyn Fn(usize) -> String, table: &[(usize, usize, Expr)]) -> Value {
    Value::Table(
        table
            .iter()
            .map(|(i, j, e)| (Key::bracket(&names(*i), &names(*j)), Value::Expr(e.clone())))
            .collect(),
    )
}

/// A Jacobiator table `J(f, g, h) = e` over `names`.
fn jacobiator_table(
    names: &dyn Fn(usize) -> String,
    table: &[(usize, usize, usize, Expr)],
) -> Value {
    Value::Table(
        table
            .iter()
            .map(|(i, j, k, e)| {
                (
                    Key::jacobiator(&names(*i), &names(*j), &names(*k)),
                    Value::Expr(e.clone()),
                )
            })
            .collect(),
    )
}
