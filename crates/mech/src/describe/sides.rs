//! The sides of a Lagrange–d'Alembert report: the Hamiltonian side ([IMMS07], §II.5–§V), the
//! Dirac side ([GBMS24], §3) and the projected structure on `D` with its induced Lagrangian,
//! Noether test and Lie verdict ([GLMM09], §4–§5).

use cas::Expr;
use model::System;
use report::{Audience, Key, Quantity, Section, Value};

use super::{bracket_table, jacobiator_table, tex_list};
use crate::derivation::Derivation;

/// Every quantity of `s` (and its subsections) for programs only, and its prose dropped: a side
/// the document does not show.
pub(super) fn data_only(mut s: Section) -> Section {
    s.blocks = s
        .blocks
        .into_iter()
        .filter_map(|b| match b {
            report::Block::Prose(_) => None,
            report::Block::Quantity(q) => Some(report::Block::Quantity(q.for_only(Audience::Data))),
            report::Block::Section(inner) => Some(report::Block::Section(data_only(inner))),
        })
        .collect();
    s
}

/// Why a side was not derived.
pub(super) fn unavailable(s: &mut Section, why: &str) {
    // Data only: a paper does not print a section that says what was not derived (the JSON and
    // the command line say why).
    s.quantity(Quantity::new("unavailable", Value::Text(why.into())).for_only(Audience::Data));
}

/// Whether every entry of a table is the expression zero.
fn all_zero(entries: &[(Key, Value)]) -> bool {
    entries
        .iter()
        .all(|(_, v)| matches!(v, Value::Expr(e) if e.is_zero()))
}

/// A Jacobiator table with the sentence that introduces it.
pub(super) fn jacobiators(key: &str, value: Value, what: &str) -> Quantity {
    let vanishes = match &value {
        Value::Table(entries) => all_zero(entries),
        _ => false,
    };
    let about = if vanishes {
        format!("Every Jacobiator of {what} vanishes.")
    } else {
        format!("The Jacobi identity fails (the Jacobiators of {what} not listed vanish):")
    };
    Quantity::new(key, value).sparse().about(&about)
}

/// The Hamiltonian side (JSON `hamiltonian`).
pub(super) fn hamiltonian(d: &Derivation) -> Section {
    let system = &d.system;
    let mut s = Section::new("Hamiltonian side", Some("hamiltonian"));
    let h = match &d.hamiltonian {
        Ok(h) => h,
        Err(why) => {
            unavailable(&mut s, &why.to_string());
            return s;
        }
    };
    s.prose(format!(
        "[IMMS07], \\S II.5--\\S V: momenta ${}$ on $V^*$, the Legendre map and the Hamiltonian",
        tex_list(system, &h.momenta)
    ));
    s.quantity(Quantity::new("momenta", Value::Names(h.momenta.clone())).for_only(Audience::Data));
    s.quantity(Quantity::new(
        "legendre",
        Value::by_name(&h.momenta, h.legendre.iter().cloned()),
    ));
    s.quantity(
        Quantity::new(
            "inverse_legendre",
            Value::by_name(
                &system.keys(&system.algebroid.velocities),
                h.velocities.iter().cloned(),
            ),
        )
        .for_only(Audience::Data),
    );
    s.quantity(Quantity::new("H", Value::Expr(h.hamiltonian.clone())).shown_as("H"));
    let free = Quantity::new(
        "free_equations",
        Value::rates(&h.phase, h.free_rates.iter().cloned()),
    );
    match &h.constrained {
        Some(c) => {
            s.quantity(free.for_only(Audience::Data));
            s.quantity(
                Quantity::new("constraints", Value::exprs(&c.psi))
                    .shown_as("\\psi^{#}")
                    .about("The constraints on the dual, $\\psi^a(x, p) = \\Psi^a(x, y(x, p))$, define $\\bar B$:"),
            );
            s.quantity(
                Quantity::new("constraint_matrix", Value::Matrix(c.matrix.clone()))
                    .for_only(Audience::Data),
            );
            s.quantity(
                Quantity::new(
                    "multipliers",
                    Value::multipliers(c.multipliers.iter().cloned().map(Value::Expr)),
                )
                .for_only(Audience::Data),
            );
            let (eliminated, values): (Vec<String>, Vec<Expr>) = c
                .eliminated
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .unzip();
            s.quantity(
                Quantity::new("eliminated", Value::by_name(&eliminated, values))
                    .for_only(Audience::Data),
            );
            if !c.regular_where.is_empty() {
                s.prose(format!(
                    "On $\\bar B$ the constraints are solved for ${}$: the coordinates ${}$ of $\\bar B$ are regular where {} (a singularity of these coordinates, not of the motion).",
                    tex_list(system, &eliminated),
                    tex_list(system, &h.coordinates),
                    nonzero_tex(system, &c.regular_where),
                ));
                s.quantity(
                    Quantity::new("regular_where", Value::exprs(&c.regular_where))
                        .for_only(Audience::Data),
                );
            }
            s.quantity(
                Quantity::new("equations", Value::rates(&h.phase, c.rates.iter().cloned()))
                    .about("On $\\bar B$ the motion generated by the nonholonomic bracket ($\\dot f = \\{h, f\\}_{nh}$, the local formula of [IMMS07, \\S V]; the relation printed just before it has the wrong sign on its $\\bar{\\mathcal C}\\bar{\\mathcal C}$ term, corrected here to $+$) is"),
            );
        }
        None => {
            s.quantity(free.about("Hamilton's equations [IMMS07, eq.~(17)]:"));
        }
    }
    s.quantity(
        Quantity::new("coordinates", Value::Names(h.coordinates.clone())).for_only(Audience::Data),
    );
    let name = |i: usize| h.coordinates[i].clone();
    let on = if h.constrained.is_some() {
        "of $\\bar B$"
    } else {
        "(the linear Poisson bracket of $V^*$)"
    };
    s.quantity(
        Quantity::new("bracket", bracket_table(&name, &h.table))
            .sparse()
            .about(&format!(
                "Brackets of the coordinates ${}$ {on} (the ones not listed vanish):",
                tex_list(system, &h.coordinates)
            )),
    );
    s.quantity(jacobiators(
        "jacobiator",
        super::jacobiator_table(&name, &h.jacobiators),
        "coordinates",
    ));
    s
}

/// The Dirac side (JSON `dirac`), with the projected structure shown inside it.
pub(super) fn dirac(d: &Derivation) -> Section {
    let system = &d.system;
    let mut s = Section::new("Dirac side", Some("dirac"));
    let structure = match &d.dirac_structure {
        Ok(st) => st,
        Err(why) => {
            unavailable(&mut s, &why.to_string());
            return hidden_without_constraints(system, s);
        }
    };
    let pick = |list: &[usize]| -> Vec<String> {
        list.iter().map(|&a| structure.momenta[a].clone()).collect()
    };
    let along = pick(&structure.along);
    let completing = pick(&structure.complement);
    s.prose(format!(
        "[GBMS24], \\S 3 (Ex.~3.1). In the frame adapted to the constraints (along $C$: ${}$; completing: ${}$), given by its momenta $\\eta_A = \\langle p, f_A\\rangle$,",
        tex_list(system, &along),
        tex_list(system, &completing)
    ));
    let frame: Vec<(Key, Value)> = structure
        .momenta
        .iter()
        .enumerate()
        .map(|(a, eta)| {
            let row = structure.frame[a]
                .iter()
                .zip(system.exprs(&system.algebroid.momenta))
                .fold(Expr::zero(), |acc, (t, p)| acc + t.clone() * p);
            (Key::Name(eta.clone()), Value::Expr(row))
        })
        .collect();
    s.quantity(Quantity::new("frame", Value::Table(frame)));
    s.quantity(Quantity::new("along", Value::Names(along)).for_only(Audience::Data));
    s.quantity(
        Quantity::new("completing", Value::Names(completing.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new("integrable", Value::Flag(structure.integrable)).for_only(Audience::Data),
    );
    let table = Value::Table(
        structure
            .table
            .iter()
            .map(|(f, g, e)| (Key::bracket(f, g), Value::Expr(e.clone())))
            .collect(),
    );
    s.quantity(
        Quantity::new("structure", table)
            .sparse()
            .about("the Dirac structure $\\mathcal D_C$ --- the same for every Hamiltonian --- is built from the canonical brackets of the frame coordinates (the ones not listed vanish):"),
    );
    s.prose(format!(
        "The distribution $C$ is {}.",
        if structure.integrable {
            "integrable"
        } else {
            "not integrable"
        }
    ));
    let dirac = match &d.dirac {
        Ok(dirac) => dirac,
        Err(why) => {
            unavailable(&mut s, &why.to_string());
            return hidden_without_constraints(system, s);
        }
    };
    s.quantity(
        Quantity::new("H", Value::Expr(dirac.hamiltonian.clone()))
            .shown_as("\\tilde H")
            .about("For $\\tilde H(q, \\eta) = H(q, p)$, the conditions $\\partial\\tilde H/\\partial\\eta_\\alpha = 0$ [GBMS24, eq.~(27)] fix the effective phase space $S$:"),
    );
    s.quantity(
        Quantity::new(
            "conditions",
            Value::by_name(&completing, dirac.conditions.iter().cloned()),
        )
        .for_only(Audience::Data),
    );
    s.quantity(Quantity::new(
        "dependent",
        Value::by_name(
            &completing,
            completing.iter().map(|n| dirac.dependent[n].clone()),
        ),
    ));
    s.quantity(
        Quantity::new("coordinates", Value::Names(dirac.coordinates.clone()))
            .for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "equations",
            Value::rates(&dirac.coordinates, dirac.rates.iter().cloned()),
        )
        .about("The phase equations [GBMS24, eqs.~(28)--(29)] on $S$, with the tangency of the dependent momenta, are"),
    );
    s.quantity(Quantity::new(
        "tangency",
        Value::rates(&completing, dirac.tangency.iter().cloned()),
    ));
    s.quantity(
        Quantity::new(
            "multipliers",
            Value::Table(
                completing
                    .iter()
                    .zip(&dirac.multipliers)
                    .map(|(eta, e)| {
                        (
                            Key::Word {
                                json: system.spec_name(system.handle(eta)),
                                tex: format!("\\lambda_{{{}}}", system.latex_name(system.handle(eta))),
                            },
                            Value::Expr(e.clone()),
                        )
                    })
                    .collect(),
            ),
        )
        .about("The multipliers of the canonical form $\\dot p = -\\partial H/\\partial q + \\lambda_\\alpha\\phi^\\alpha$:"),
    );
    let name = |i: usize| dirac.coordinates[i].clone();
    s.quantity(
        Quantity::new("bracket", bracket_table(&name, &dirac.table))
            .sparse()
            .about("The same equations are generated, $\\dot f = \\{f, H|_S\\}$, by the almost-Poisson bracket on $S$ ($\\Lambda_C$ or the affine $\\Lambda_A$, which depends on $H$ through $S$; the brackets not listed vanish):"),
    );
    s.quantity(jacobiators(
        "jacobiator",
        jacobiator_table(&name, &dirac.jacobiators),
        "the coordinates of $S$",
    ));
    hidden_without_constraints(system, s)
}

/// A side about constraints is data only on a system without any.
fn hidden_without_constraints(system: &System, s: Section) -> Section {
    if system.constraints.is_empty() {
        data_only(s)
    } else {
        s
    }
}

/// The projected structure on `D` (JSON `projected`): [GLMM09], §4–§5.
pub(super) fn projected(d: &Derivation) -> Section {
    let system = &d.system;
    let mut s = Section::new(
        "The nonholonomic algebroid $(D, \\varepsilon_P)$",
        Some("projected"),
    );
    let p = match &d.projected {
        Ok(p) => p,
        Err(why) => {
            unavailable(&mut s, &why.to_string());
            return hidden_without_constraints(system, s);
        }
    };
    s.prose("Since $L$ is mechanical, the bracket on $S$ is also the bracket of the nonholonomic algebroid $(D, \\varepsilon_P)$ of [GLMM09] (\\S 4--5), built instead from the metric $G$ on $D$ (the sections $f$ along $C$ named by their momenta) as $\\mathcal C^c_{ab} = G^{cd} G(f_d, [f_a, f_b])$, $\\{q^i, \\xi_a\\} = \\rho^i(f_a)$, $\\{\\xi_a, \\xi_b\\} = -\\mathcal C^c_{ab}\\xi_c$ with $H_D = \\tfrac12 G^{ab}\\xi_a\\xi_b + V$. The two constructions give the same bracket.");
    s.quantity(Quantity::new("momenta", Value::Names(p.momenta.clone())).for_only(Audience::Data));
    s.quantity(Quantity::new("metric", Value::Matrix(p.metric.clone())).shown_as("G"));
    s.quantity(Quantity::new("H", Value::Expr(p.hamiltonian.clone())).for_only(Audience::Data));
    s.quantity(
        Quantity::new("coordinates", Value::Names(p.coordinates.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "equations",
            Value::rates(&p.coordinates, p.rates.iter().cloned()),
        )
        .for_only(Audience::Data),
    );
    let name = |i: usize| p.coordinates[i].clone();
    s.quantity(Quantity::new("bracket", bracket_table(&name, &p.table)).for_only(Audience::Data));
    s.quantity(
        Quantity::new("jacobiator", jacobiator_table(&name, &p.jacobiators))
            .for_only(Audience::Data),
    );
    s.quantity(Quantity::new("anchors", Value::Matrix(p.anchors.clone())).for_only(Audience::Data));
    s.quantity(
        Quantity::new(
            "structure",
            Value::List(p.structure.iter().cloned().map(Value::Matrix).collect()),
        )
        .for_only(Audience::Data),
    );
    s.quantity(noether(p));
    for n in &p.noether {
        s.quantity(noether_display(n));
    }
    s.section(lie(system, p));
    s.section(induced(p));
    hidden_without_constraints(system, s)
}

/// The induced Lagrangian route (JSON `projected.induced`): [GLMM09], Theorem 5.1.
fn induced(p: &crate::hamilton::projected::Projected) -> Section {
    let induced = &p.induced;
    let mut s = Section::new("The induced Lagrangian", Some("induced"));
    s.prose("By [GLMM09, Theorem 5.1] the restricted Lagrangian $l$ on $(D, \\varepsilon_P)$, in the fibre coordinates of $D$, has the nonholonomic equations as its unconstrained Euler--Lagrange equations, without multipliers (a second route to them, proved equal):");
    s.quantity(
        Quantity::new("velocities", Value::Names(induced.velocities.clone()))
            .for_only(Audience::Data),
    );
    s.quantity(Quantity::new("l", Value::Expr(induced.lagrangian.clone())).shown_as("l"));
    s.quantity(Quantity::new("momenta", Value::exprs(&induced.momenta)).for_only(Audience::Data));
    s.quantity(
        Quantity::new("energy", Value::Expr(induced.energy.clone())).for_only(Audience::Data),
    );
    s.quantity(Quantity::new(
        "equations",
        Value::rates(&induced.state, induced.rates.iter().cloned()),
    ));
    s
}

/// The Noether test of the declared symmetries (JSON `projected.noether`).
fn noether(p: &crate::hamilton::projected::Projected) -> Quantity {
    let list = p
        .noether
        .iter()
        .map(|n| {
            Value::Table(vec![
                (Key::word("name"), Value::Text(n.name.clone())),
                (Key::word("symmetry"), Value::Flag(n.holds)),
                (Key::word("killing"), Value::Expr(n.killing.clone())),
                (Key::word("potential"), Value::Expr(n.potential.clone())),
                (Key::word("gauge"), Value::Expr(n.gauge.clone())),
                (Key::word("integral"), Value::Expr(n.integral.clone())),
            ])
        })
        .collect();
    Quantity::new("noether", Value::List(list)).for_only(Audience::Data)
}

/// One Noether verdict as a reader sees it: the first integral, or the defect.
fn noether_display(n: &crate::hamilton::projected::Noether) -> Quantity {
    let word = |json: &str, tex: &str| Key::Word {
        json: json.into(),
        tex: tex.into(),
    };
    let q = if n.holds {
        Quantity::new("noether_integral", Value::Expr(n.integral.clone()))
            .shown_as("F")
            .about(&format!(
                "Noether [GLMM09, Theorem 5.3]: $({})$ is a symmetry, so $F$ is a first integral:",
                n.name
            ))
    } else {
        Quantity::new(
            "noether_defect",
            Value::Table(vec![
                (word("killing", "\\mathrm{Killing}"), Value::Expr(n.killing.clone())),
                (word("potential", "\\mathrm{potential}"), Value::Expr(n.potential.clone())),
                (word("gauge", "\\mathrm{gauge}"), Value::Expr(n.gauge.clone())),
                (word("integral", "F"), Value::Expr(n.integral.clone())),
            ]),
        )
        .about(&format!(
            "Noether [GLMM09, Theorem 5.3]: $({})$ is not a symmetry; the Killing, potential and gauge parts of its defect are below, and $dF/dt = d_T(X)(l)$ instead:",
            n.name
        ))
    };
    q.for_only(Audience::Display)
}

/// Whether `(D, ε_P)` is Lie (JSON `projected.lie`): [GLMM09], §4.
fn lie(system: &System, p: &crate::hamilton::projected::Projected) -> Section {
    let mut s = Section::new("Is $(D, \\varepsilon_P)$ a Lie algebroid?", Some("lie"));
    let name = |a: usize| system.spec_name(system.handle(&p.momenta[a]));
    let tex = |a: usize| system.latex_name(system.handle(&p.momenta[a]));
    let pairing = |components: &[Expr], momenta: &[String]| -> Expr {
        components
            .iter()
            .zip(momenta)
            .fold(Expr::zero(), |acc, (c, m)| {
                acc + c.clone() * Expr::symbol(m)
            })
            .simplify()
    };
    s.quantity(Quantity::new("lie", Value::Flag(p.lie.lie)).for_only(Audience::Data));
    s.quantity(Quantity::new("involutive", Value::Flag(p.lie.involutive)).for_only(Audience::Data));
    let mut curvature = Vec::new();
    let mut anchor = Vec::new();
    for ((a, b, k), (_, _, on_base)) in p.lie.curvature.iter().zip(&p.lie.anchor_curvature) {
        let json = format!("K({}, {})", name(*a), name(*b));
        curvature.push((
            Key::Word {
                json: json.clone(),
                tex: format!("\\langle p, K({}, {})\\rangle", tex(*a), tex(*b)),
            },
            Value::Expr(pairing(k, &p.algebroid_momenta)),
        ));
        anchor.push((
            Key::word(&json),
            Value::by_name(&system.keys(&system.coordinates), on_base.iter().cloned()),
        ));
    }
    let flat = all_zero(&curvature);
    s.quantity(
        Quantity::new("curvature", Value::Table(curvature))
            .sparse()
            .about(if flat {
                "The curvature $K = (1 - P)[\\cdot, \\cdot]_E$ of $D$ [GLMM09, \\S 4] vanishes."
            } else {
                "The curvature of $D$ [GLMM09, \\S 4], $K(f_a, f_b) = (1 - P)[f_a, f_b]_E$, paired with the momenta (entries not listed vanish), is"
            }),
    );
    s.quantity(Quantity::new("anchor_curvature", Value::Table(anchor)).for_only(Audience::Data));
    let jacobiator: Vec<(Key, Value)> = p
        .lie
        .jacobiator
        .iter()
        .map(|(a, b, c, j)| {
            (
                Key::Word {
                    json: format!("J({}, {}, {})", name(*a), name(*b), name(*c)),
                    tex: format!(
                        "\\langle \\xi, \\mathrm{{Jac}}_P({}, {}, {})\\rangle",
                        tex(*a),
                        tex(*b),
                        tex(*c)
                    ),
                },
                Value::Expr(pairing(j, &p.momenta)),
            )
        })
        .collect();
    let closed = all_zero(&jacobiator);
    let q = Quantity::new("section_jacobiator", Value::Table(jacobiator)).sparse();
    s.quantity(if closed {
        q
    } else {
        q.about("The section Jacobiator $\\mathrm{Jac}_P = \\sum_{\\mathrm{cyc}} [[f_a, f_b]_P, f_c]_P$, paired with the momenta of $D$, is")
    });
    s.prose(match (p.lie.lie, p.lie.involutive) {
        (true, true) => "$D$ is involutive ($K = 0$), so $(D, \\varepsilon_P)$ is a Lie algebroid.",
        (true, false) => "The curvature does not vanish, yet $(D, \\varepsilon_P)$ is a Lie algebroid: the anchor defect $-\\rho(K)$ and the section Jacobiator vanish (non-zero curvature does not imply non-Lie).",
        (false, _) => "$(D, \\varepsilon_P)$ is not a Lie algebroid: its bracket on $D^*$ has the Jacobiators $J(\\xi_a, \\xi_b, q^j) = \\rho(K(f_a, f_b))^j$ and $J(\\xi_a, \\xi_b, \\xi_c) = -\\langle \\xi, \\mathrm{Jac}_P(f_a, f_b, f_c)\\rangle$.",
    });
    s
}

/// `f ≠ 0` for each expression, joined as prose (`$\sin\phi \neq 0$ and $m \neq 0$`).
fn nonzero_tex(system: &System, factors: &[Expr]) -> String {
    factors
        .iter()
        .map(|f| format!("${} \\neq 0$", cas::print::latex(f, system)))
        .collect::<Vec<_>>()
        .join(" and ")
}
