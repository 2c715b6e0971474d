//! The report of a singular Lagrangian ([IMMS08], §3.1 and §4): the constraint algorithm step
//! by step, the SODE step, and the motion on the final constraint set.

use cas::Expr;
use report::{Audience, Key, Quantity, Report, Section, Value};

use super::{assemble, constraints, system_section};
use crate::derivation::SingularDerivation;
use crate::singular::StepKind;

/// The report of a singular derivation.
pub fn report(d: &SingularDerivation) -> Report {
    let system = &d.system;
    let a = &d.algorithm;
    let mut lagrangian = Section::new("Lagrangian", None);
    lagrangian.quantity(super::lagrangian(system));
    lagrangian.quantity(
        Quantity::new("energy", Value::Expr(d.lagrangian.energy.clone())).shown_as("E_L"),
    );
    lagrangian.quantity(
        Quantity::new("hessian", Value::Matrix(d.lagrangian.hessian.clone()))
            .shown_as("W")
            .about("The Hessian"),
    );
    lagrangian.prose("is singular, so $i_X \\omega_L = dE_L$ on $\\mathcal{T}^E E$ has no solution everywhere [IMMS08, \\S 4]. The constraint algorithm [IMMS08, eqs.~(3.5)--(3.6)] looks for the points where it has one, tangent to them.");
    lagrangian.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.constraints, true),
        )
        .for_only(Audience::Data),
    );
    let sections = vec![
        system_section(system, Some("singular"), &a.state),
        lagrangian,
        algorithm(d),
        motion(d),
    ];
    assemble(
        system,
        "The constraint algorithm of a singular Lagrangian",
        sections,
    )
}

/// The steps, and the constraints they found by kind.
fn algorithm(d: &SingularDerivation) -> Section {
    let a = &d.algorithm;
    let mut s = Section::new("The constraint algorithm", None);
    let steps = a
        .steps
        .iter()
        .map(|step| {
            let (kind, level) = match step.kind {
                StepKind::Consistency(k) => ("consistency", Value::Count(k)),
                StepKind::Sode => ("sode", Value::Missing),
            };
            Value::Table(vec![
                (Key::word("kind"), Value::Text(kind.into())),
                (Key::word("level"), level),
                (Key::word("found"), Value::exprs(&step.found)),
                (Key::word("solved"), solved(&step.solved)),
            ])
        })
        .collect();
    for step in &a.steps {
        s.quantity(
            Quantity::new(
                "step_found",
                Value::Table(
                    step.found
                        .iter()
                        .map(|e| (Key::Expr(e.clone()), Value::Expr(Expr::zero())))
                        .collect(),
                ),
            )
            .for_only(Audience::Display)
            .about(&format!("{}. New constraints", step_title(step.kind))),
        );
        s.quantity(
            Quantity::new("step_solved", solved(&step.solved))
                .for_only(Audience::Display)
                .about("solved as"),
        );
    }
    s.prose(if a.level == 0 {
        "No consistency step finds a constraint: the algorithm stops at once.".to_string()
    } else {
        format!(
            "The consistency steps stop at level {}: the next one finds nothing new.",
            a.level
        )
    });
    let found = |wanted: &dyn Fn(StepKind) -> bool| {
        Value::List(
            a.steps
                .iter()
                .filter(|s| wanted(s.kind))
                .flat_map(|s| s.found.iter().cloned().map(Value::Expr))
                .collect(),
        )
    };
    let data = |key: &str, v: Value| Quantity::new(key, v).for_only(Audience::Data);
    s.quantity(data(
        "primary_constraints",
        found(&|k| k == StepKind::Consistency(1)),
    ));
    s.quantity(data(
        "secondary_constraints",
        found(&|k| matches!(k, StepKind::Consistency(level) if level > 1)),
    ));
    s.quantity(data("sode_constraints", found(&|k| k == StepKind::Sode)));
    s.quantity(data("level", Value::Count(a.level)));
    s.quantity(data("algorithm_steps", Value::List(steps)));
    let set: Vec<(String, Expr)> = a
        .solved
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    s.quantity(data("constraint_set", solved(&set)));
    let assumed = Quantity::new("assumed_nonzero", Value::exprs(&a.assumptions));
    s.quantity(if a.assumptions.is_empty() {
        assumed.for_only(Audience::Data)
    } else {
        assumed.about("The eliminations divided by the expressions below, assumed non-zero: where one of them vanishes the rank of $\\omega_L$ or of its restriction changes, and the derivation does not hold there (the paper assumes constant rank).")
    });
    s
}

/// The heading of a step, as [IMMS08], §3.1 and Theorem 4.4 describe it.
fn step_title(kind: StepKind) -> String {
    match kind {
        StepKind::Consistency(1) => {
            "Step 1 (primary constraints): $dE_L$ must vanish on $\\ker\\omega_L$".to_string()
        }
        StepKind::Consistency(k) => format!(
            "Step {k}: $dE_L$ must vanish on $(\\rho^{{-1}}(TE_{}))^\\perp$, the sections whose contraction with $\\omega_L$ is a combination of the differentials of the constraints so far",
            k - 1
        ),
        StepKind::Sode => "SODE step [IMMS08, Theorem 4.4]: the solutions must satisfy $X^A = y^A$, and be tangent to what this adds".to_string(),
    }
}

/// Variables solved for, by name.
fn solved(list: &[(String, Expr)]) -> Value {
    Value::Table(
        list.iter()
            .map(|(v, e)| (Key::Name(v.clone()), Value::Expr(e.clone())))
            .collect(),
    )
}

/// The motion on the final constraint set.
fn motion(d: &SingularDerivation) -> Section {
    let a = &d.algorithm;
    let mut s = Section::new("The motion on the final constraint set", None);
    let equations = Quantity::new("equations", Value::rates(&a.state, a.rates.iter().cloned()));
    s.quantity(if a.state.is_empty() {
        equations
            .about("Every coordinate and velocity is fixed by the constraints: there is no motion.")
    } else {
        equations
    });
    s.quantity(Quantity::new("multipliers", Value::multipliers([])).for_only(Audience::Data));
    let gauge = Quantity::new(
        "gauge",
        Value::List(a.gauge.iter().map(Value::exprs).collect()),
    )
    .for_only(Audience::Data);
    s.quantity(gauge);
    if !a.gauge.is_empty() {
        s.prose(format!(
            "The equations leave {} direction(s) of $\\dot y$ free (gauge): the right-hand side above sets them to zero.",
            a.gauge.len()
        ));
    }
    s.quantity(
        Quantity::new("energy_rate", Value::optional(d.energy_rate.as_ref()))
            .shown_as("\\frac{dE_L}{dt}")
            .about("Along the motion:"),
    );
    s.quantity(
        Quantity::new("final_energy", Value::Expr(a.energy.clone()))
            .shown_as("E_L|_{\\mathrm{final}}"),
    );
    s
}
