//! The JSON target. Keys and their order are fixed (see `docs/json-schema.md`); every expression
//! is a string in the spec's expression syntax.

use cas::Expr;
use mech::{Derivation, ImplicitDerivation};
use model::{AlgebroidKind, ConstraintShape, System};
use serde_json::{json as value, Map, Value};

use crate::{pretty, Artifact};

fn text(system: &System, e: &Expr) -> Value {
    Value::String(cas::print::spec(&pretty(e), &|s| system.spec_name(s)))
}

fn names(system: &System, list: &[String]) -> Value {
    Value::Array(
        list.iter()
            .map(|s| Value::String(system.spec_name(s)))
            .collect(),
    )
}

fn matrix(system: &System, m: &[Vec<Expr>]) -> Value {
    Value::Array(
        m.iter()
            .map(|row| Value::Array(row.iter().map(|e| text(system, e)).collect()))
            .collect(),
    )
}

fn basis_names(system: &System) -> Vec<String> {
    let sections = &system.algebroid.sections;
    std::iter::once("T(e0)".to_string())
        .chain(sections.iter().map(|s| format!("T({s})")))
        .chain(sections.iter().map(|s| format!("V({s})")))
        .collect()
}

fn algebroid(system: &System) -> Value {
    let alg = &system.algebroid;
    let base = system.base();
    let kind = match &alg.kind {
        AlgebroidKind::Tangent => "tangent".to_string(),
        AlgebroidKind::LieAlgebra(name) => name.clone(),
        AlgebroidKind::Explicit => "explicit".to_string(),
    };
    let field = |coefficients: &[Expr]| -> Value {
        let mut map = Map::new();
        for (q, c) in base.iter().zip(coefficients) {
            if !c.is_zero() {
                map.insert(format!("d/d{q}"), text(system, c));
            }
        }
        Value::Object(map)
    };
    let mut anchors = Map::new();
    anchors.insert("e0".into(), field(&alg.anchor0));
    for (s, rho) in alg.sections.iter().zip(&alg.anchors) {
        anchors.insert(s.clone(), field(rho));
    }
    let combination = |coefficients: &[Expr]| -> Value {
        let mut map = Map::new();
        for (s, c) in alg.sections.iter().zip(coefficients) {
            if !c.is_zero() {
                map.insert(s.clone(), text(system, c));
            }
        }
        Value::Object(map)
    };
    let mut brackets = Map::new();
    let n = alg.sections.len();
    for a in 0..n {
        if alg.c0[a].iter().any(|c| !c.is_zero()) {
            brackets.insert(format!("e0,{}", alg.sections[a]), combination(&alg.c0[a]));
        }
        for b in a + 1..n {
            if alg.c[a][b].iter().any(|c| !c.is_zero()) {
                brackets.insert(
                    format!("{},{}", alg.sections[a], alg.sections[b]),
                    combination(&alg.c[a][b]),
                );
            }
        }
    }
    value!({
        "kind": kind,
        "sections": alg.sections,
        "momenta": alg.momenta,
        "anchors": anchors,
        "brackets": brackets,
        "lie": alg.structure.is_lie(),
    })
}

/// The constraints as written (`Ψ`), their shape and coefficients `μ_0`, `μ_α`.
fn constraints(system: &System, list: &[model::Constraint]) -> Value {
    Value::Array(
        list.iter()
            .map(|c| {
                value!({
                    "psi": text(system, &c.psi),
                    "shape": match c.shape {
                        ConstraintShape::Linear => "linear",
                        ConstraintShape::Affine => "affine",
                        ConstraintShape::Nonlinear => "nonlinear",
                    },
                    "mu0": text(system, &c.mu0),
                    "mu": c.mu.iter().map(|e| text(system, e)).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// An expression, or `null` when it was not derived.
fn optional(system: &System, e: Option<&Expr>) -> Value {
    e.map_or(Value::Null, |e| text(system, e))
}

/// `lambda1`, `lambda2`, … → each multiplier.
fn lambdas(values: impl IntoIterator<Item = Value>) -> Value {
    Value::Object(
        values
            .into_iter()
            .enumerate()
            .map(|(a, v)| (format!("lambda{}", a + 1), v))
            .collect(),
    )
}

/// Which form the accelerations are in, and why (`--solve`).
fn solve(choice: &mech::Choice) -> Value {
    value!({ "route": choice.route.name(), "reason": choice.reason })
}

/// The keys every document starts with, `system` to `algebroid` (and `form` after `system`
/// when given).
fn header(system: &System, form: Option<&str>) -> Map<String, Value> {
    let mut doc = Map::new();
    doc.insert("system".into(), value!(system.name));
    if let Some(form) = form {
        doc.insert("form".into(), value!(form));
    }
    doc.insert("time".into(), value!(system.time));
    doc.insert("parameters".into(), value!(system.parameters));
    doc.insert("functions".into(), names(system, &system.functions));
    doc.insert("inputs".into(), value!(system.inputs));
    doc.insert("coordinates".into(), value!(system.coordinates));
    doc.insert(
        "velocities".into(),
        names(system, &system.algebroid.velocities),
    );
    doc.insert("state".into(), names(system, &system.state()));
    doc.insert("algebroid".into(), algebroid(system));
    doc
}

/// The JSON document of a derivation.
pub fn json(d: &Derivation) -> Artifact {
    let system = &d.system;
    let lag = &d.lagrangian;
    let mut doc = header(system, None);
    doc.insert("lagrangian".into(), text(system, &system.lagrangian));
    // The method's state and equations (`--method`): on (x, y), or on (x, v) for the induced
    // route, with the multipliers and the energy as functions of that state.
    doc.insert(
        "method".into(),
        value!(match d.method {
            mech::Method::Multipliers => "multipliers",
            mech::Method::Induced => "induced",
        }),
    );
    doc.insert("solve".into(), solve(&d.choice));
    doc.insert("state".into(), names(system, &d.state()));
    let mut equations = Map::new();
    for (state, rate) in d.state().iter().zip(d.rates()) {
        equations.insert(system.spec_name(state), text(system, &rate));
    }
    doc.insert("equations".into(), Value::Object(equations));
    doc.insert(
        "multipliers".into(),
        lambdas(d.multipliers().iter().map(|l| text(system, &d.on_state(l)))),
    );
    doc.insert(
        "constraints".into(),
        constraints(system, &system.constraints),
    );
    doc.insert("energy".into(), text(system, &d.energy()));
    doc.insert(
        "energy_rate".into(),
        text(system, &d.on_state(&d.energy_rate)),
    );
    doc.insert(
        "momenta".into(),
        Value::Array(lag.momenta.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert("hessian".into(), matrix(system, &lag.hessian));
    doc.insert("hessian_det".into(), text(system, &lag.hessian_det));
    let mut free = Map::new();
    for (y, rhs) in system.algebroid.velocities.iter().zip(&d.free_rhs) {
        free.insert(system.spec_name(y), text(system, rhs));
    }
    doc.insert("free_equations".into(), Value::Object(free));
    doc.insert(
        "theta".into(),
        Value::Array(lag.theta.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert("basis".into(), value!(basis_names(system)));
    doc.insert("omega".into(), matrix(system, &lag.omega));
    if let Some(nh) = &d.nonholonomic {
        doc.insert("dpsi".into(), matrix(system, &nh.dpsi));
        doc.insert("constraint_forces".into(), matrix(system, &nh.z));
        doc.insert("constraint_matrix".into(), matrix(system, &nh.matrix));
        doc.insert("constraint_matrix_det".into(), text(system, &nh.det));
        doc.insert("projector".into(), matrix(system, &nh.projector));
    }
    doc.insert("hamiltonian".into(), hamiltonian(d));
    doc.insert("dirac".into(), dirac(d));
    doc.insert("projected".into(), projected(d));
    let mut contents =
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", system.name), contents)
}

/// The Hamiltonian side (`docs/json-schema.md`, "hamiltonian").
fn hamiltonian(d: &Derivation) -> Value {
    let system = &d.system;
    let h = match &d.hamiltonian {
        Ok(h) => h,
        Err(why) => return value!({ "unavailable": why.to_string() }),
    };
    let keyed = |names: &[String], values: &[Expr]| -> Value {
        let mut map = Map::new();
        for (k, v) in names.iter().zip(values) {
            map.insert(system.spec_name(k), text(system, v));
        }
        Value::Object(map)
    };
    let state = &h.phase;
    let mut doc = Map::new();
    doc.insert("momenta".into(), names(system, &h.momenta));
    doc.insert("legendre".into(), keyed(&h.momenta, &h.legendre));
    doc.insert(
        "inverse_legendre".into(),
        keyed(&system.algebroid.velocities, &h.velocities),
    );
    doc.insert("H".into(), text(system, &h.hamiltonian));
    doc.insert("free_equations".into(), keyed(state, &h.free_rates));
    if let Some(c) = &h.constrained {
        let multipliers: Vec<String> = (1..=c.multipliers.len())
            .map(|a| format!("lambda{a}"))
            .collect();
        let (eliminated, values): (Vec<String>, Vec<Expr>) = c
            .eliminated
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .unzip();
        doc.insert(
            "constraints".into(),
            Value::Array(c.psi.iter().map(|e| text(system, e)).collect()),
        );
        doc.insert("constraint_matrix".into(), matrix(system, &c.matrix));
        doc.insert("multipliers".into(), keyed(&multipliers, &c.multipliers));
        doc.insert("eliminated".into(), keyed(&eliminated, &values));
        doc.insert("equations".into(), keyed(state, &c.rates));
    }
    doc.insert("coordinates".into(), names(system, &h.coordinates));
    let name = |i: usize| system.spec_name(&h.coordinates[i]);
    let mut table = Map::new();
    for (i, j, e) in &h.table {
        table.insert(format!("{{{}, {}}}", name(*i), name(*j)), text(system, e));
    }
    doc.insert("bracket".into(), Value::Object(table));
    let mut jacobiators = Map::new();
    for (i, j, k, e) in &h.jacobiators {
        jacobiators.insert(
            format!("J({}, {}, {})", name(*i), name(*j), name(*k)),
            text(system, e),
        );
    }
    doc.insert("jacobiator".into(), Value::Object(jacobiators));
    Value::Object(doc)
}

/// The Dirac side (`docs/json-schema.md`, "dirac").
fn dirac(d: &Derivation) -> Value {
    let system = &d.system;
    let structure = match &d.dirac_structure {
        Ok(s) => s,
        Err(why) => return value!({ "unavailable": why.to_string() }),
    };
    let mut doc = Map::new();
    let pick = |list: &[usize]| -> Vec<String> {
        list.iter().map(|&a| structure.momenta[a].clone()).collect()
    };
    let mut frame = Map::new();
    for (a, eta) in structure.momenta.iter().enumerate() {
        let row = structure.frame[a]
            .iter()
            .zip(&system.algebroid.momenta)
            .fold(Expr::zero(), |acc, (t, p)| {
                acc + t.clone() * Expr::symbol(p)
            });
        frame.insert(system.spec_name(eta), text(system, &row));
    }
    doc.insert("frame".into(), Value::Object(frame));
    doc.insert("along".into(), names(system, &pick(&structure.along)));
    doc.insert(
        "completing".into(),
        names(system, &pick(&structure.complement)),
    );
    doc.insert("integrable".into(), Value::Bool(structure.integrable));
    let mut brackets = Map::new();
    for (f, g, e) in &structure.table {
        brackets.insert(
            format!("{{{}, {}}}", system.spec_name(f), system.spec_name(g)),
            text(system, e),
        );
    }
    doc.insert("structure".into(), Value::Object(brackets));
    let dirac = match &d.dirac {
        Ok(dirac) => dirac,
        Err(why) => {
            doc.insert("unavailable".into(), Value::String(why.to_string()));
            return Value::Object(doc);
        }
    };
    let keyed = |names: &[String], values: &[Expr]| -> Value {
        let mut map = Map::new();
        for (k, v) in names.iter().zip(values) {
            map.insert(system.spec_name(k), text(system, v));
        }
        Value::Object(map)
    };
    let completing = pick(&structure.complement);
    doc.insert("H".into(), text(system, &dirac.hamiltonian));
    doc.insert("conditions".into(), keyed(&completing, &dirac.conditions));
    let dependent: Vec<Expr> = completing
        .iter()
        .map(|n| dirac.dependent[n].clone())
        .collect();
    doc.insert("dependent".into(), keyed(&completing, &dependent));
    doc.insert("coordinates".into(), names(system, &dirac.coordinates));
    doc.insert("equations".into(), keyed(&dirac.coordinates, &dirac.rates));
    doc.insert("tangency".into(), keyed(&completing, &dirac.tangency));
    doc.insert("multipliers".into(), keyed(&completing, &dirac.multipliers));
    let name = |i: usize| system.spec_name(&dirac.coordinates[i]);
    let mut table = Map::new();
    for (i, j, e) in &dirac.table {
        table.insert(format!("{{{}, {}}}", name(*i), name(*j)), text(system, e));
    }
    doc.insert("bracket".into(), Value::Object(table));
    let mut jacobiators = Map::new();
    for (i, j, k, e) in &dirac.jacobiators {
        jacobiators.insert(
            format!("J({}, {}, {})", name(*i), name(*j), name(*k)),
            text(system, e),
        );
    }
    doc.insert("jacobiator".into(), Value::Object(jacobiators));
    Value::Object(doc)
}

/// The projected structure on `D` (`docs/json-schema.md`, "projected").
fn projected(d: &Derivation) -> Value {
    let system = &d.system;
    let p = match &d.projected {
        Ok(p) => p,
        Err(why) => return value!({ "unavailable": why.to_string() }),
    };
    let mut doc = Map::new();
    doc.insert("momenta".into(), names(system, &p.momenta));
    doc.insert("metric".into(), matrix(system, &p.metric));
    doc.insert("H".into(), text(system, &p.hamiltonian));
    doc.insert("coordinates".into(), names(system, &p.coordinates));
    let mut equations = Map::new();
    for (c, e) in p.coordinates.iter().zip(&p.rates) {
        equations.insert(system.spec_name(c), text(system, e));
    }
    doc.insert("equations".into(), Value::Object(equations));
    let name = |i: usize| system.spec_name(&p.coordinates[i]);
    let mut table = Map::new();
    for (i, j, e) in &p.table {
        table.insert(format!("{{{}, {}}}", name(*i), name(*j)), text(system, e));
    }
    doc.insert("bracket".into(), Value::Object(table));
    let mut jacobiators = Map::new();
    for (i, j, k, e) in &p.jacobiators {
        jacobiators.insert(
            format!("J({}, {}, {})", name(*i), name(*j), name(*k)),
            text(system, e),
        );
    }
    doc.insert("jacobiator".into(), Value::Object(jacobiators));
    doc.insert("anchors".into(), matrix(system, &p.anchors));
    doc.insert(
        "structure".into(),
        Value::Array(p.structure.iter().map(|m| matrix(system, m)).collect()),
    );
    doc.insert("lie".into(), lie(system, p));
    let induced = &p.induced;
    let mut route = Map::new();
    route.insert("velocities".into(), names(system, &induced.velocities));
    route.insert("l".into(), text(system, &induced.lagrangian));
    route.insert(
        "momenta".into(),
        Value::Array(induced.momenta.iter().map(|e| text(system, e)).collect()),
    );
    route.insert("energy".into(), text(system, &induced.energy));
    let mut equations = Map::new();
    for (c, e) in induced.state.iter().zip(&induced.rates) {
        equations.insert(system.spec_name(c), text(system, e));
    }
    route.insert("equations".into(), Value::Object(equations));
    doc.insert("induced".into(), Value::Object(route));
    let noether: Vec<Value> = p
        .noether
        .iter()
        .map(|n| {
            value!({
                "name": n.name.clone(),
                "symmetry": n.holds,
                "killing": text(system, &n.killing),
                "potential": text(system, &n.potential),
                "gauge": text(system, &n.gauge),
                "integral": text(system, &n.integral),
            })
        })
        .collect();
    doc.insert("noether".into(), Value::Array(noether));
    Value::Object(doc)
}

/// Whether `(D, ε_P)` is Lie (`docs/json-schema.md`, "projected.lie"): the verdicts, `⟨p, K⟩`,
/// `ρ(K)` over the coordinates and `⟨ξ, Jac_P⟩`, keyed by the momenta of the sections of `D`.
fn lie(system: &System, p: &mech::projected::Projected) -> Value {
    let name = |a: usize| system.spec_name(&p.momenta[a]);
    let pairing = |components: &[Expr], momenta: &[String]| -> Expr {
        components
            .iter()
            .zip(momenta)
            .fold(Expr::zero(), |acc, (c, m)| {
                acc + c.clone() * Expr::symbol(m)
            })
    };
    let mut curvature = Map::new();
    let mut anchor = Map::new();
    for ((a, b, k), (_, _, on_base)) in p.lie.curvature.iter().zip(&p.lie.anchor_curvature) {
        let key = format!("K({}, {})", name(*a), name(*b));
        curvature.insert(
            key.clone(),
            text(system, &pairing(k, &p.algebroid_momenta).simplify()),
        );
        let mut components = Map::new();
        for (q, c) in system.coordinates.iter().zip(on_base) {
            components.insert(system.spec_name(q), text(system, c));
        }
        anchor.insert(key, Value::Object(components));
    }
    let mut jacobiator = Map::new();
    for (a, b, c, j) in &p.lie.jacobiator {
        jacobiator.insert(
            format!("J({}, {}, {})", name(*a), name(*b), name(*c)),
            text(system, &pairing(j, &p.momenta).simplify()),
        );
    }
    value!({
        "lie": p.lie.lie,
        "involutive": p.lie.involutive,
        "curvature": Value::Object(curvature),
        "anchor_curvature": Value::Object(anchor),
        "section_jacobiator": Value::Object(jacobiator),
    })
}

/// The JSON document of a contact system (`docs/json-schema.md`, "Contact systems").
pub fn json_contact(d: &mech::ContactDerivation) -> Artifact {
    let system = &d.system;
    let c = &d.contact;
    let mut doc = header(system, Some("contact"));
    doc.insert("lagrangian".into(), text(system, &system.lagrangian));
    doc.insert("state".into(), names(system, &c.coordinates));
    let on_d = |e: &Expr| text(system, &c.restrict(e));
    let mut equations = Map::new();
    for (state, rate) in c.coordinates.iter().zip(&c.rates) {
        equations.insert(system.spec_name(state), on_d(rate));
    }
    doc.insert("equations".into(), Value::Object(equations));
    doc.insert(
        "multipliers".into(),
        lambdas(c.multipliers.iter().map(on_d)),
    );
    doc.insert(
        "constraints".into(),
        constraints(system, &system.constraints),
    );
    doc.insert("energy".into(), on_d(&c.energy));
    doc.insert("energy_rate".into(), text(system, &c.energy_rate));
    doc.insert("dissipation".into(), text(system, &c.dissipation));
    doc.insert("energy_law_residual".into(), text(system, &c.energy_law));
    doc.insert("hessian".into(), matrix(system, &c.hessian));
    doc.insert(
        "momenta".into(),
        Value::Array(c.momenta.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert(
        "reeb".into(),
        Value::Array(c.reeb.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert(
        "free_equations".into(),
        Value::Array(c.free_rates.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert(
        "constraint_matrix".into(),
        matrix(system, &c.constraint_matrix),
    );
    doc.insert("projector".into(), matrix(system, &c.projector));
    doc.insert(
        "reeb_projected".into(),
        Value::Array(c.reeb_projected.iter().map(|e| text(system, e)).collect()),
    );
    let name = |i: usize| -> String {
        if i == 0 {
            "1".to_string()
        } else {
            system.spec_name(&c.coordinates[i - 1])
        }
    };
    let mut table = Map::new();
    for (i, j, e) in &c.table {
        table.insert(format!("{{{}, {}}}", name(*i), name(*j)), text(system, e));
    }
    doc.insert("bracket".into(), Value::Object(table));
    let mut jacobiators = Map::new();
    for (a, b, k, e) in &c.jacobiators {
        if !e.is_zero() {
            jacobiators.insert(
                format!("J({}, {}, {})", name(a + 1), name(b + 1), name(k + 1)),
                text(system, e),
            );
        }
    }
    doc.insert("jacobiator".into(), Value::Object(jacobiators));
    doc.insert("integrable".into(), value!(c.integrable));
    let n = system.coordinates.len();
    let contact_form: Vec<Value> = (0..2 * n + 1)
        .map(|k| {
            let e = if k < n {
                -c.momenta[k].clone()
            } else if k == 2 * n {
                Expr::one()
            } else {
                Expr::zero()
            };
            text(system, &e)
        })
        .collect();
    doc.insert("contact_form".into(), Value::Array(contact_form));
    if let Some(h) = &c.hamiltonian {
        let mut rates = Map::new();
        for (s, e) in h.coordinates.iter().zip(&h.rates) {
            rates.insert(system.spec_name(s), text(system, &h.restrict(e)));
        }
        doc.insert(
            "hamiltonian".into(),
            value!({
                "coordinates": names(system, &h.coordinates),
                "legendre": h.legendre.iter().map(|e| text(system, e)).collect::<Vec<_>>(),
                "H": text(system, &h.hamiltonian),
                "constraints": h.constraints.iter().map(|e| text(system, e)).collect::<Vec<_>>(),
                "multipliers": lambdas(h.multipliers.iter().map(|e| text(system, &h.restrict(e)))),
                "equations": Value::Object(rates),
            }),
        );
    }
    let mut contents =
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", system.name), contents)
}

/// The JSON document of a singular Lagrangian (`docs/json-schema.md`, "Singular Lagrangians").
pub fn json_singular(d: &mech::SingularDerivation) -> Artifact {
    let system = &d.system;
    let a = &d.algorithm;
    let mut doc = header(system, Some("singular"));
    doc.insert("lagrangian".into(), text(system, &system.lagrangian));
    doc.insert("hessian".into(), matrix(system, &d.lagrangian.hessian));
    doc.insert("energy".into(), text(system, &d.lagrangian.energy));
    doc.insert("state".into(), names(system, &a.state));
    let mut equations = Map::new();
    for (state, rate) in a.state.iter().zip(&a.rates) {
        equations.insert(system.spec_name(state), text(system, rate));
    }
    doc.insert("equations".into(), Value::Object(equations));
    doc.insert("multipliers".into(), lambdas([]));
    doc.insert(
        "constraints".into(),
        constraints(system, &system.constraints),
    );
    doc.insert(
        "energy_rate".into(),
        optional(system, d.energy_rate.as_ref()),
    );
    let steps: Vec<Value> = a
        .steps
        .iter()
        .map(|step| {
            let mut solved = Map::new();
            for (variable, value) in &step.solved {
                solved.insert(system.spec_name(variable), text(system, value));
            }
            let (kind, level) = match step.kind {
                mech::singular::StepKind::Consistency(k) => ("consistency", Some(k)),
                mech::singular::StepKind::Sode => ("sode", None),
            };
            value!({
                "kind": kind,
                "level": level,
                "found": step.found.iter().map(|e| text(system, e)).collect::<Vec<_>>(),
                "solved": Value::Object(solved),
            })
        })
        .collect();
    let mut solved = Map::new();
    for (variable, value) in &a.solved {
        solved.insert(system.spec_name(variable), text(system, value));
    }
    let found = |wanted: &dyn Fn(mech::singular::StepKind) -> bool| -> Value {
        Value::Array(
            a.steps
                .iter()
                .filter(|s| wanted(s.kind))
                .flat_map(|s| s.found.iter().map(|e| text(system, e)))
                .collect(),
        )
    };
    use mech::singular::StepKind;
    doc.insert(
        "primary_constraints".into(),
        found(&|k| k == StepKind::Consistency(1)),
    );
    doc.insert(
        "secondary_constraints".into(),
        found(&|k| matches!(k, StepKind::Consistency(level) if level > 1)),
    );
    doc.insert("sode_constraints".into(), found(&|k| k == StepKind::Sode));
    doc.insert("level".into(), value!(a.level));
    doc.insert("algorithm_steps".into(), Value::Array(steps));
    doc.insert("constraint_set".into(), Value::Object(solved));
    let gauge: Vec<Value> = a
        .gauge
        .iter()
        .map(|z| Value::Array(z.iter().map(|e| text(system, e)).collect()))
        .collect();
    doc.insert("gauge".into(), Value::Array(gauge));
    doc.insert(
        "assumed_nonzero".into(),
        Value::Array(a.assumptions.iter().map(|e| text(system, e)).collect()),
    );
    doc.insert("final_energy".into(), text(system, &a.energy));
    let mut contents =
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", system.name), contents)
}

/// The JSON document of a vakonomic system (`docs/json-schema.md`, "Vakonomic systems").
pub fn json_vakonomic(d: &mech::VakonomicDerivation) -> Artifact {
    let system = &d.system;
    let alg = &system.algebroid;
    let v = &d.vakonomic;
    let mut doc = header(system, Some("vakonomic"));
    doc.insert("lagrangian".into(), text(system, &system.lagrangian));
    doc.insert("state".into(), names(system, &v.state));
    let mut equations = Map::new();
    for (state, rate) in v.state.iter().zip(&v.rates) {
        equations.insert(system.spec_name(state), text(system, rate));
    }
    doc.insert("equations".into(), Value::Object(equations));
    doc.insert(
        "multipliers".into(),
        lambdas(v.lagrange_multipliers.iter().map(|l| text(system, l))),
    );
    doc.insert("constraints".into(), constraints(system, &system.vakonomic));
    doc.insert("energy".into(), text(system, &v.energy));
    doc.insert(
        "energy_rate".into(),
        optional(system, d.energy_rate.as_ref()),
    );
    let by_section = |values: &dyn Fn(usize) -> Expr, indices: &[usize]| -> Value {
        let mut map = Map::new();
        for &a in indices {
            map.insert(system.spec_name(&alg.momenta[a]), text(system, &values(a)));
        }
        Value::Object(map)
    };
    let all: Vec<usize> = (0..system.rank()).collect();
    let mut psi = Map::new();
    for &a in &v.constrained {
        let y = &alg.velocities[a];
        psi.insert(system.spec_name(y), text(system, &v.psi[y]));
    }
    let mut section = Map::new();
    section.insert(
        "constrained".into(),
        names(
            system,
            &v.constrained
                .iter()
                .map(|&a| alg.velocities[a].clone())
                .collect::<Vec<_>>(),
        ),
    );
    section.insert("multiplier_momenta".into(), names(system, &v.multipliers));
    section.insert("psi".into(), Value::Object(psi));
    section.insert("restricted_lagrangian".into(), text(system, &v.restricted));
    section.insert(
        "momenta".into(),
        by_section(&|a| v.momenta[a].clone(), &v.free),
    );
    section.insert("forces".into(), by_section(&|a| v.forces[a].clone(), &all));
    section.insert("regularity".into(), matrix(system, &v.regularity));
    section.insert("regularity_det".into(), text(system, &v.det));
    if let Some(h) = &v.hamiltonian {
        let mut velocities = Map::new();
        for &a in &v.free {
            let y = &alg.velocities[a];
            velocities.insert(system.spec_name(y), text(system, &h.velocities[y]));
        }
        let mut rates = Map::new();
        for (c, e) in h.coordinates.iter().zip(&h.rates) {
            rates.insert(system.spec_name(c), text(system, e));
        }
        let name = |i: usize| system.spec_name(&h.coordinates[i]);
        let mut table = Map::new();
        for (i, j, e) in &h.table {
            table.insert(format!("{{{}, {}}}", name(*i), name(*j)), text(system, e));
        }
        section.insert(
            "hamiltonian".into(),
            value!({
                "velocities": Value::Object(velocities),
                "H": text(system, &h.hamiltonian),
                "coordinates": names(system, &h.coordinates),
                "equations": Value::Object(rates),
                "bracket": Value::Object(table),
            }),
        );
    }
    doc.insert("vakonomic".into(), Value::Object(section));
    let mut contents =
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", system.name), contents)
}

/// An expression as derived, not simplified (the large expressions of an implicit form).
fn raw(system: &System, e: &Expr) -> Value {
    Value::String(cas::print::spec(e, &|s| system.spec_name(s)))
}

/// The JSON document of a system in implicit form: `form` is `"implicit"`, `equations` holds the
/// coordinates' equations only, and `implicit` holds `W`, the forcing, the constraint Jacobian and
/// the bias (see `docs/json-schema.md`).
pub fn json_implicit(d: &ImplicitDerivation) -> Artifact {
    let system = &d.system;
    let form = &d.implicit;
    let mut doc = header(system, Some("implicit"));
    doc.insert("lagrangian".into(), raw(system, &system.lagrangian));
    doc.insert("solve".into(), solve(&d.choice));
    let velocity = system.admissible_velocity();
    let mut equations = Map::new();
    for (i, q) in system.coordinates.iter().enumerate() {
        equations.insert(system.spec_name(q), raw(system, &velocity[i + 1]));
    }
    doc.insert("equations".into(), Value::Object(equations));
    let constraints: Vec<Value> = system
        .constraints
        .iter()
        .map(|c| {
            value!({
                "psi": raw(system, &c.psi),
                "shape": match c.shape {
                    ConstraintShape::Linear => "linear",
                    ConstraintShape::Affine => "affine",
                    ConstraintShape::Nonlinear => "nonlinear",
                },
                "mu": c.mu.iter().map(|e| raw(system, e)).collect::<Vec<_>>(),
            })
        })
        .collect();
    doc.insert("constraints".into(), Value::Array(constraints));
    doc.insert(
        "multipliers".into(),
        lambdas(system.constraints.iter().map(|_| Value::Null)),
    );
    doc.insert("energy".into(), raw(system, &form.energy));
    // No closed-form energy rate: the emitted `dynamics` computes it with the solved accelerations.
    doc.insert("energy_rate".into(), Value::Null);
    let rows = |m: &[Vec<Expr>]| -> Value {
        Value::Array(
            m.iter()
                .map(|row| Value::Array(row.iter().map(|e| raw(system, e)).collect()))
                .collect(),
        )
    };
    doc.insert(
        "implicit".into(),
        value!({
            "mass": rows(&form.mass),
            "forcing": form.forcing.iter().map(|e| raw(system, e)).collect::<Vec<_>>(),
            "constraint_jacobian": rows(&form.jacobian),
            "bias": form.bias.iter().map(|e| raw(system, e)).collect::<Vec<_>>(),
        }),
    );
    let mut contents =
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", system.name), contents)
}
