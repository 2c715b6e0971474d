//! The report of a singular Lagrangian ([IMMS08], §3.1 and §4): the constraint algorithm step
//! by step, the SODE step, and the motion on the final constraint set.

use cas::Expr;
use report::{Audience, Key, Quantity, Report, Section, Value};

use super::{assemble, constraints, jacobiator_table, system_section, Bias};
use crate::derivation::SingularDerivation;
use crate::singular::algorithm::{StepKind, Unknown};

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
            constraints(system, &system.constraints, Bias::Listed),
        )
        .for_only(Audience::Data),
    );
    let sections = vec![
        system_section(system, Some("singular"), &a.state),
        lagrangian,
        algorithm(d),
        motion(d),
        hamiltonian_side(d),
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
                (Key::word("solved"), solved(&step.solved, &a.ideal)),
                (Key::word("kept"), Value::exprs(&step.kept)),
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
        if !step.solved.is_empty() {
            s.quantity(
                Quantity::new("step_solved", solved(&step.solved, &a.ideal))
                    .for_only(Audience::Display)
                    .about("solved as"),
            );
        }
        if !step.kept.is_empty() {
            s.quantity(
                Quantity::new("step_kept", Value::exprs(&step.kept))
                    .for_only(Audience::Display)
                    .about("kept as equations (not solvable for a coordinate or velocity with a coefficient that is a non-zero constant on the constraint set):"),
            );
        }
    }
    fixed_unknowns(d, &mut s);
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
    s.quantity(data("constraint_set", solved(&set, &a.ideal)));
    let kept = Quantity::new("kept_constraints", Value::exprs(&a.kept));
    s.quantity(if a.kept.is_empty() {
        kept.for_only(Audience::Data)
    } else {
        kept.about("The final constraint set also holds the equations below, kept as they are (none can be solved for a coordinate or velocity with a coefficient that is a non-zero constant on the set). The motion below is an ODE on the variables that remain which preserves them; zero tests on the set are made modulo their Gröbner basis.")
    });
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
fn solved(list: &[(String, Expr)], kept: &cas::Ideal) -> Value {
    Value::Table(
        list.iter()
            .map(|(v, e)| (Key::Name(v.clone()), Value::Expr(kept.reduce_if_shorter(e))))
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

/// The Hamiltonian side: the Dirac–Bergmann chain, first and second class, the Dirac bracket.
fn hamiltonian_side(d: &SingularDerivation) -> Section {
    let mut s = Section::new(
        "Hamiltonian side: constraints, classes and the Dirac bracket",
        Some("dirac_bergmann"),
    );
    let h = match &d.hamiltonian {
        Ok(h) => h,
        Err(why) => {
            super::sides::unavailable(&mut s, &why.0);
            return s;
        }
    };
    s.quantity(
        Quantity::new("hamiltonian", Value::Expr(h.hamiltonian.clone()))
            .shown_as("H")
            .about("The canonical Hamiltonian $H = p_\\alpha y^\\alpha - L$ on the image of the Legendre map (the primary constraint set), with the linear Poisson bracket $\\{x^i, p_\\alpha\\} = \\rho^i_\\alpha$, $\\{p_\\alpha, p_\\beta\\} = -C^\\gamma_{\\alpha\\beta} p_\\gamma$:"),
    );
    for (k, round) in h.rounds.iter().enumerate() {
        let about = if k == 0 {
            "Primary constraints (the image of the Legendre map):".to_string()
        } else {
            format!("Round {}: the conditions for $\\{{\\psi, H\\}} + u^j \\{{\\psi, \\phi_j\\}} = 0$ on the constraints so far that do not involve the multipliers $u^j$ of the primary ones:", k + 1)
        };
        s.quantity(
            Quantity::new(
                "hamiltonian_round",
                Value::Table(
                    round
                        .iter()
                        .map(|e| (Key::Expr(e.clone()), Value::Expr(Expr::zero())))
                        .collect(),
                ),
            )
            .for_only(Audience::Display)
            .about(&about),
        );
    }
    let data = |key: &str, v: Value| Quantity::new(key, v).for_only(Audience::Data);
    s.quantity(data(
        "hamiltonian_constraints",
        Value::List(h.rounds.iter().map(Value::exprs).collect()),
    ));
    s.quantity(data(
        "primary_multipliers",
        Value::List(
            h.multipliers
                .iter()
                .map(|u| Value::optional(u.as_ref()))
                .collect(),
        ),
    ));
    let second: Vec<Expr> = h
        .second_class
        .iter()
        .map(|&a| h.constraints[a].clone())
        .collect();
    s.quantity(
        Quantity::new("second_class", Value::exprs(&second)).about(&format!(
            "{} second-class constraint(s): a maximal set whose brackets $C_{{ab}} = \\{{\\chi_a, \\chi_b\\}}$ are invertible on the final set,",
            second.len()
        )),
    );
    s.quantity(
        Quantity::new("first_class", Value::List(h.first_class.iter().map(Value::exprs).collect()))
            .about(&if h.first_class.is_empty() {
                "and no first-class combination (every constraint is second class):".to_string()
            } else {
                format!("and {} first-class combination(s) (coefficients over all the constraints, in the order found):", h.first_class.len())
            }),
    );
    s.quantity(
        Quantity::new("bracket_matrix", Value::Matrix(h.bracket_matrix.clone()))
            .shown_as("C")
            .about("On the final set,"),
    );
    let names: Vec<String> = h.state.clone();
    let index = |name: &str| names.iter().position(|n| n == name).unwrap_or(0);
    s.quantity(
        Quantity::new(
            "dirac_bracket",
            Value::Table(
                h.dirac
                    .iter()
                    .map(|((f, g), e)| (Key::bracket(f, g), Value::Expr(e.clone())))
                    .collect(),
            ),
        )
        .sparse()
        .about("The Dirac bracket $\\{F, G\\}_D = \\{F, G\\} - \\{F, \\chi_a\\} (C^{-1})^{ab} \\{\\chi_b, G\\}$ of the variables that remain, on the final set (the brackets not listed vanish):"),
    );
    match &h.jacobiator {
        Some(list) => {
            let table: Vec<(usize, usize, usize, Expr)> = list
                .iter()
                .map(|((f, g, k), e)| (index(f), index(g), index(k), e.clone()))
                .collect();
            s.quantity(super::sides::jacobiators(
                "dirac_jacobiator",
                jacobiator_table(&|i| names[i].clone(), &table),
                "the Dirac bracket on the final set",
            ));
        }
        None => {
            s.prose(format!("The Jacobiator of the Dirac bracket was not computed: more than {} variables remain, or its expressions grow too large.", crate::singular::dirac_bergmann::JACOBIATOR_VARIABLES));
        }
    }
    s.quantity(
        Quantity::new(
            "dirac_equations",
            Value::rates(&h.state, h.rates.iter().cloned()),
        )
        .about("The motion on the final set, $\\dot F = \\{F, H\\}_D$:"),
    );
    s
}

/// Which rates and accelerations each elimination fixed, and their values on the constraint set
/// (JSON `fixed_unknowns`: for `algebroid tangent` the key `q` is `q̇ = X^q`, `q'` is `q̈ = V^q`).
fn fixed_unknowns(d: &SingularDerivation, s: &mut Section) {
    let system = &d.system;
    let alg = &system.algebroid;
    let key = |u: Unknown| match u {
        Unknown::Horizontal(a) if system.is_tangent() => {
            Key::Rate(system.key(system.coordinates[a]))
        }
        Unknown::Horizontal(a) => Key::word(&format!("X^{}", alg.sections[a])),
        Unknown::Vertical(a) => Key::Rate(system.key(alg.velocities[a])),
    };
    let table = |values: &[(Unknown, Expr)]| {
        Value::Table(
            values
                .iter()
                .map(|(u, e)| (key(*u), Value::Expr(e.clone())))
                .collect(),
        )
    };
    let round = |kind: StepKind| match kind {
        StepKind::Consistency(k) if k <= d.algorithm.level => format!("The equations of step {k}"),
        StepKind::Consistency(k) => format!("The equations of step {k}, which finds nothing new,"),
        StepKind::Sode => "The SODE step's equations".to_string(),
    };
    let mut records = Vec::new();
    for f in &d.algorithm.fixed {
        s.quantity(
            Quantity::new("fixed", table(&f.values))
                .for_only(Audience::Display)
                .about(&format!(
                    "{} fix, for the first time (on the constraint set then):",
                    round(f.kind)
                )),
        );
        let (kind, level) = match f.kind {
            StepKind::Consistency(k) => ("consistency", Value::Count(k)),
            StepKind::Sode => ("sode", Value::Missing),
        };
        records.push(Value::Table(vec![
            (Key::word("kind"), Value::Text(kind.into())),
            (Key::word("level"), level),
            (Key::word("fixes"), table(&f.values)),
        ]));
    }
    s.quantity(Quantity::new("fixed_unknowns", Value::List(records)).for_only(Audience::Data));
}
