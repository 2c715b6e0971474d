//! The "Reduction by symmetry" section of a report, for a spec that declares a group acting on
//! `Q` ([`crate::reduction`]): the group and its algebra, the connection and its curvature, the
//! reduced algebroid, Lagrangian and constraints, and the reconstruction of the moved coordinates.

use cas::Expr;
use model::symbols::Handle;
use model::System;
use report::{Audience, Connection, Key, Quantity, Section, Value};

/// The section, or `None` when the system declares no group (or its reduction fails, which
/// `dalembert::compile` reports before any report is made).
pub(super) fn section(system: &System) -> Option<Section> {
    if system.groups.is_empty() {
        return None;
    }
    let r = crate::reduction::reduce(system).ok()?;
    let mut s = Section::new("Reduction by symmetry", Some("reduction"));
    let moved = tex_names(system, &r.moved);
    let on_sections = r.connection == Connection::Sections;
    s.prose(if on_sections {
        format!(
            "The group {} acts on ${moved}$ and leaves the spec's sections, their anchors and brackets, the Lagrangian and the constraints invariant: the velocities are already invariant ones (body velocities), and the reduced system lives on the quotient algebroid $A/G \\to Q/G$ with the same sections, the anchors projected to $Q/G$ (Lagrangian reduction; [IMMS07], \\S VII).",
            group_tex(&r.group)
        )
    } else {
        format!(
            "The group {} acts on ${moved}$ and leaves the Lagrangian and the constraints invariant. The velocities are measured in the invariant frame $X_\\alpha$ (horizontal lifts $h_i = \\partial_{{s^i}} - A^b_i \\eta_b$ of the shape directions, then the invariant fields $\\eta_b$ along the orbits), $\\dot q = y^\\alpha X_\\alpha$: the reduced system lives on the Atiyah algebroid $TQ/G \\to Q/G$ (Lagrangian reduction; [IMMS07], \\S VII names it as the step that produces the algebroids of \\S VI).",
            group_tex(&r.group)
        )
    });
    let domains = chart_domains(system);
    for (_, domain) in &domains {
        s.prose(format!("The chart of the group is regular where {domain}."));
    }
    let data = |key: &str, value: Value| Quantity::new(key, value).for_only(Audience::Data);
    if !domains.is_empty() {
        let nonzero: Vec<Expr> = domains.into_iter().map(|(e, _)| e).collect();
        s.quantity(data("regular_where", Value::exprs(&nonzero)));
    }
    s.quantity(data("group", Value::Text(r.group.clone())));
    s.quantity(data("moved", Value::Names(r.moved.clone())));
    s.quantity(data("shape", Value::Names(r.shape.clone())));
    s.prose(if r.shape.is_empty() && on_sections {
        format!(
            "The orbits fill the chart (a quaternion's up to the inert $|q|$): $Q/G$ is a point, and the reduced algebroid is the Lie algebra of the spec's sections, in the velocities ${}$.",
            tex_names(system, &r.velocities)
        )
    } else if r.shape.is_empty() {
        format!(
            "The group acts simply transitively on the chart: $Q/G$ is a point, and the reduced algebroid is the Lie algebra of the group, in the velocities ${}$.",
            tex_names(system, &r.velocities)
        )
    } else {
        format!(
            "The shape space $Q/G$ has the coordinates ${}$; the reduced velocities are ${}$.",
            tex_names(system, &r.shape),
            tex_names(system, &r.velocities)
        )
    });
    let connection = match r.connection {
        Connection::Mechanical => "mechanical",
        Connection::Chart => "chart",
        Connection::Nonholonomic => "nonholonomic",
        Connection::Given => "given",
        Connection::Sections => "sections",
    };
    s.quantity(data("connection", Value::Text(connection.to_string())));
    if !r.shape.is_empty() {
        s.prose(match r.connection {
            Connection::Mechanical => "The mechanical connection: $h_i$ is orthogonal to the orbits in the kinetic-energy metric, $A = \\mathbb{I}^{-1} K$ with the locked inertia $\\mathbb{I}_{ab} = g(\\eta_a, \\eta_b)$ and $K_{bi} = g(\\eta_b, \\partial_{s^i})$.",
            Connection::Chart => "The flat connection of the chart $Q = S \\times G$: $h_i = \\partial_{s^i}$.",
            Connection::Nonholonomic => "The nonholonomic connection (Bloch, Krishnaprasad, Marsden and Murray 1996): $h_i$ lies in the constraint distribution $D$ and is orthogonal, in the kinetic-energy metric, to $D \\cap V$, the directions of the group that the constraints allow.",
            Connection::Given => "The connection given in the spec, checked to be one: $A(\\eta_a) = e_a$ on the orbits, and invariant.",
            Connection::Sections => "No connection is needed: the spec's sections already split the velocities.",
        });
    }
    let group_sections: Vec<String> = r.sections.get(r.shape.len()..).unwrap_or_default().to_vec();
    let along_group = |coefficients: &[Expr]| combination(&group_sections, coefficients);
    s.quantity(
        Quantity::new(
            "connection_form",
            Value::Table(
                r.shape
                    .iter()
                    .zip(&r.connection_form)
                    .map(|(q, a)| (Key::Partial(q.clone()), along_group(a)))
                    .collect(),
            ),
        )
        .shown_as("A")
        .about("The connection form on the shape directions, $A(\\partial_{s^i}) = A^b_i \\eta_b$:")
        .for_only(if r.shape.is_empty() || on_sections {
            Audience::Data
        } else {
            Audience::All
        }),
    );
    let curvature: Vec<(Key, Value)> = r
        .curvature
        .iter()
        .map(|(i, j, b)| {
            let key = Key::Apply {
                head: "B".into(),
                tex: "B".into(),
                args: vec![r.shape[*i].clone(), r.shape[*j].clone()],
            };
            (key, along_group(b))
        })
        .collect();
    let audience = if curvature.is_empty() {
        Audience::Data
    } else {
        Audience::All
    };
    s.quantity(
        Quantity::new("curvature", Value::Table(curvature))
            .for_only(audience)
            .sparse()
            .about("Its curvature, $[h_i, h_j] = -B(\\partial_{s^i}, \\partial_{s^j})$ (entries not listed vanish):"),
    );
    s.quantity(data("sections", Value::Names(r.sections.clone())));
    s.quantity(data("velocities", Value::Names(r.velocities.clone())));
    let mut brackets = Vec::new();
    let n = r.sections.len();
    for a in 0..n {
        for b in a + 1..n {
            if r.brackets[a][b].iter().any(|c| !c.is_zero()) {
                let key = Key::Word {
                    json: format!("{},{}", r.sections[a], r.sections[b]),
                    tex: format!(
                        "[{}, {}]",
                        model::latex_symbol(&r.sections[a]),
                        model::latex_symbol(&r.sections[b])
                    ),
                };
                brackets.push((key, combination(&r.sections, &r.brackets[a][b])));
            }
        }
    }
    s.quantity(
        Quantity::new("brackets", Value::Table(brackets))
            .sparse()
            .about(if on_sections {
                "The brackets of the reduced algebroid, those of the spec's sections (those not listed vanish):"
            } else {
                "The brackets of the reduced algebroid (those not listed vanish; the anchor maps $h_i$ to $\\partial_{s^i}$ and the group's sections to zero):"
            }),
    );
    s.quantity(
        Quantity::new("lagrangian", Value::Expr(r.lagrangian.clone()))
            .shown_as("l")
            .about("The reduced Lagrangian:"),
    );
    s.quantity(data("constraints", Value::exprs(&r.constraints)));
    let shown: Vec<(Key, Value)> = r
        .constraints
        .iter()
        .enumerate()
        .map(|(a, psi)| {
            let key = Key::Word {
                json: format!("{}", a + 1),
                tex: format!("\\Psi^{{{}}}", a + 1),
            };
            (key, Value::Expr(psi.clone()))
        })
        .collect();
    if !shown.is_empty() {
        s.quantity(
            Quantity::new("constraints", Value::Table(shown))
                .for_only(Audience::Display)
                .about("The reduced constraints $\\Psi^a(t, s, y) = 0$:"),
        );
    }
    if r.forces.iter().any(|f| !f.is_zero()) {
        let forces = r
            .sections
            .iter()
            .zip(&r.forces)
            .filter(|(_, f)| !f.is_zero())
            .map(|(e, f)| {
                let key = Key::Word {
                    json: e.clone(),
                    tex: format!("F_{{{}}}", model::latex_symbol(e)),
                };
                (key, Value::Expr(f.clone()))
            })
            .collect();
        s.quantity(
            Quantity::new("forces", Value::Table(forces))
                .about("The reduced forces $F_\\alpha = F(X_\\alpha)$:"),
        );
    }
    let reconstruction: Vec<(Key, Value)> = r
        .moved
        .iter()
        .map(|q| {
            let i = system.coordinate_named(q).expect("a coordinate");
            let rate = Expr::sum(
                r.frame
                    .iter()
                    .zip(&r.velocities)
                    .map(|(x, y)| &x[i] * &Expr::symbol(y)),
            );
            (Key::Rate(q.clone()), Value::Expr(rate))
        })
        .collect();
    s.quantity(
        Quantity::new("reconstruction", Value::Table(reconstruction))
            .about("The reconstruction of the moved coordinates from the reduced velocities:"),
    );
    if !r.momentum_equations.is_empty() {
        s.section(momentum_section(&r.momentum_equations, &group_sections));
    }
    if let Some(routh) = &r.routh {
        s.section(routh_section(system, routh, &r.shape));
    }
    Some(s)
}

/// The nonholonomic momentum equations, one per direction of the group the constraints allow.
fn momentum_section(equations: &[report::MomentumEquation], group_sections: &[String]) -> Section {
    let mut s = Section::new("Momentum equations", Some("momentum"));
    s.prose("Along a direction $\\sigma = \\xi^b \\eta_b$ of the group that the constraints allow, no multiplier acts, and Lagrange--d'Alembert's equation along $\\sigma$ is the momentum equation of the momentum $p = \\xi^b \\partial l/\\partial y^b$: $\\dot p = \\dot\\xi^b \\partial l/\\partial y^b + \\xi^b C^\\gamma_{\\beta b} y^\\beta \\partial l/\\partial y^\\gamma$ (Bloch, Krishnaprasad, Marsden and Murray 1996, the nonholonomic momentum equation).");
    let table = |value: &dyn Fn(&report::MomentumEquation) -> Option<Value>| {
        Value::Table(
            equations
                .iter()
                .filter_map(|e| value(e).map(|v| (Key::Name(e.name.clone()), v)))
                .collect(),
        )
    };
    let directions = equations
        .iter()
        .map(|e| {
            let key = Key::Word {
                json: e.name.clone(),
                tex: format!("\\sigma_{{{}}}", model::latex_symbol(&e.name)),
            };
            (key, combination(group_sections, &e.direction))
        })
        .collect();
    s.quantity(
        Quantity::new("directions", Value::Table(directions)).about("The allowed directions:"),
    );
    s.quantity(
        Quantity::new("momenta", table(&|e| Some(Value::Expr(e.momentum.clone()))))
            .about("Their momenta:"),
    );
    let rates = |value: &dyn Fn(&report::MomentumEquation) -> Option<Expr>| {
        Value::Table(
            equations
                .iter()
                .filter_map(|e| value(e).map(|v| (Key::Rate(e.name.clone()), Value::Expr(v))))
                .collect(),
        )
    };
    s.quantity(
        Quantity::new("equations", rates(&|e| Some(e.rate.clone())))
            .about("The momentum equations on the constraint distribution:"),
    );
    if equations.iter().any(|e| e.rate_in_momenta.is_some()) {
        s.quantity(
            Quantity::new("in_momenta", rates(&|e| e.rate_in_momenta.clone()))
                .about("The same, in the shape, its velocities and the momenta:"),
        );
    }
    if equations.iter().any(|e| e.integral.is_some()) {
        s.quantity(
            Quantity::new(
                "integrals",
                Value::Table(
                    equations
                        .iter()
                        .filter_map(|e| {
                            let key = Key::Word {
                                json: e.name.clone(),
                                tex: format!("I_{{{}}}", model::latex_symbol(&e.name)),
                            };
                            e.integral.clone().map(|i| (key, Value::Expr(i)))
                        })
                        .collect(),
                ),
            )
            .about("Where a momentum equation reads $\\dot p = (a_i(s)\\, \\dot s^i)\\, p$ with $a = a_i\\, ds^i$ closed, $I_p = p\\, e^{-F}$ with $dF = a$ is a first integral although $p$ is not (an integrating factor); constant along every motion in the constraint distribution:"),
        );
    }
    let conserved: Vec<String> = equations
        .iter()
        .filter(|e| e.conserved)
        .map(|e| e.name.clone())
        .collect();
    s.quantity(Quantity::new("conserved", Value::Names(conserved)).for_only(Audience::Data));
    s
}

/// The Routh reduction at the declared momentum values.
fn routh_section(system: &System, routh: &report::Routh, shape: &[String]) -> Section {
    let mut s = Section::new("Routh reduction", Some("routh"));
    s.prose(format!(
        "At the momentum value{} ${}$ of the cyclic coordinate{} ${}$, Routh's method gives a Lagrangian of the shape alone, the Routhian $R = L - \\mu_a \\dot q^a$ with the cyclic velocities solved from the momentum; its Euler--Lagrange equations are the reduced motion.",
        if routh.values.len() > 1 { "s" } else { "" },
        tex_names(system, &routh.values),
        if routh.cyclic.len() > 1 { "s" } else { "" },
        tex_names(system, &routh.cyclic),
    ));
    s.quantity(
        Quantity::new("values", Value::Names(routh.values.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "cyclic_velocities",
            Value::Table(
                routh
                    .cyclic
                    .iter()
                    .zip(&routh.cyclic_velocities)
                    .map(|(q, v)| (Key::Rate(q.clone()), Value::Expr(v.clone())))
                    .collect(),
            ),
        )
        .about("The cyclic velocities at this momentum:"),
    );
    s.quantity(
        Quantity::new("routhian", Value::Expr(routh.routhian.clone()))
            .shown_as("R")
            .about("The Routhian:"),
    );
    s.quantity(
        Quantity::new(
            "amended_potential",
            Value::Expr(routh.amended_potential.clone()),
        )
        .shown_as("V_\\mu")
        .about("The amended potential, $V_\\mu = -R$ at rest in the shape:"),
    );
    s.quantity(
        Quantity::new(
            "equilibria",
            Value::Table(
                shape
                    .iter()
                    .zip(&routh.equilibria)
                    .map(|(q, d)| {
                        let key = Key::Word {
                            json: q.clone(),
                            tex: format!(
                                "\\partial V_\\mu/\\partial {}",
                                system.latex_name(system.handle(q))
                            ),
                        };
                        (key, Value::Expr(d.clone()))
                    })
                    .collect(),
            ),
        )
        .about("The relative equilibria are the points of the shape space where these vanish:"),
    );
    s
}

fn combination(sections: &[String], coefficients: &[Expr]) -> Value {
    Value::Combination(
        sections
            .iter()
            .zip(coefficients)
            .filter(|(_, c)| !c.is_zero())
            .map(|(k, c)| {
                let key = Key::Word {
                    json: k.clone(),
                    tex: model::latex_symbol(k),
                };
                (key, c.clone())
            })
            .collect(),
    )
}

fn tex_names(system: &System, names: &[String]) -> String {
    names
        .iter()
        .map(|q| system.latex_name(system.handle(q)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `SE2 × SO2` as `$SE(2) \times SO(2)$`.
fn group_tex(group: &str) -> String {
    let factors: Vec<String> = group
        .split(" × ")
        .map(|g| match g {
            "SE2" => "SE(2)".to_string(),
            "SO2" | "S1" => "SO(2)".to_string(),
            "SO3" => "SO(3)".to_string(),
            "translations" => "\\mathbb{R}^n".to_string(),
            other => format!("\\mathrm{{{}}}", other.replace('_', "\\_")),
        })
        .collect();
    format!("${}$", factors.join(" \\times "))
}

/// Where the charts of the declared named groups are regular: each expression that must not
/// vanish, with the condition as LaTeX prose (charts regular everywhere give nothing).
fn chart_domains(system: &System) -> Vec<(Expr, String)> {
    let mut out = Vec::new();
    for g in &system.groups {
        let Some(named) = g.named else { continue };
        let moved: Vec<Handle> = g.moved.iter().map(|&k| system.coordinates[k]).collect();
        if named.is_quaternion_chart(g.moved.len()) {
            let norm = moved[moved.len() - 4..]
                .iter()
                .fold(Expr::zero(), |acc, q| acc + system.expr(*q).powi(2));
            out.push((norm, "the quaternion is not zero; its orbits are the spheres $|q| = \\mathrm{const}$, and $|q|$ does not move".to_string()));
        } else if let Some(k) = named.singular_coordinate(g.moved.len()) {
            let pitch = tex_names(system, &[system.key(moved[k])]);
            out.push((
                Expr::apply(cas::Func::Cos, system.expr(moved[k])),
                format!("$\\cos {pitch} \\neq 0$ (the Euler angles are singular at ${pitch} = \\pm\\pi/2$)"),
            ));
        }
    }
    out
}
