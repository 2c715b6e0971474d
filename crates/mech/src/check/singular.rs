//! Proofs against the constraint algorithm of a singular Lagrangian ([IMMS08] §4).

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::{Diagnostic, Result};
use model::{Entry, Expectation, Family, Kind, Target};

use crate::SingularDerivation;

use super::prove::*;
use report::{At, Report};

/// Proves every `expect` block of a singular Lagrangian ([IMMS08] §4): the equations against its
/// report, the constraint algorithm's steps by where each constraint first holds.
pub fn check_singular(d: &SingularDerivation) -> Result<Vec<Outcome>> {
    let report = crate::describe::singular_report(d);
    let regular_kind = |expectation: &Expectation| {
        (expectation.kind.family() != Family::Singular).then(|| {
            Diagnostic::error(
                Code::E0403,
                format!(
                    "`expect {}` is about a regular Lagrangian, and this one is singular",
                    expectation.kind
                ),
                expectation.kind_span,
                "nothing to compare with",
            )
            .with_note(
                "a singular Lagrangian has the kinds constraint_algorithm and singular_equations",
            )
        })
    };
    prove_each(&d.system, &regular_kind, &|expectation, entry| {
        singular_difference(d, &report, expectation, entry)
    })
}

/// The constraint set through step `last` of `steps`: the variables solved for (substituted
/// into one another) and the ideal of the constraints kept as equations.
pub(super) fn set_through(
    system: &model::System,
    steps: &[crate::singular::algorithm::Step],
    last: usize,
) -> (BTreeMap<String, Expr>, cas::Ideal) {
    let mut map: BTreeMap<String, Expr> = BTreeMap::new();
    for step in steps.iter().take(last) {
        for (variable, value) in &step.solved {
            let one: BTreeMap<String, Expr> = [(variable.clone(), value.clone())].into();
            for v in map.values_mut() {
                *v = v.subs(&one).simplify();
            }
            map.insert(variable.clone(), value.subs(&map).simplify());
        }
    }
    let mut ideal = cas::Ideal::new(crate::base::constraint_set::state_variables(system));
    for g in steps.iter().take(last).flat_map(|s| &s.kept) {
        let g = g.subs(&map).simplify();
        if !g.vanishes() {
            // Accepted when the algorithm kept it, so polynomial here too.
            let _ = ideal.insert(&g);
        }
    }
    (map, ideal)
}

/// `e` on the constraint set through a step: substituted, and reduced modulo the kept ones.
fn on_set(set: &(BTreeMap<String, Expr>, cas::Ideal), e: &Expr) -> Expr {
    let substituted = e.subs(&set.0).simplify();
    if set.1.vanishes_on(&substituted) {
        Expr::zero()
    } else {
        substituted
    }
}

/// The derived minus the expected value of one entry about the constraint algorithm. A
/// constraint of a step holds when it vanishes on the constraint set through that step and not
/// on the set before it.
pub(super) fn singular_difference(
    d: &SingularDerivation,
    report: &Report,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    use crate::singular::algorithm::StepKind;
    let system = &d.system;
    let a = &d.algorithm;
    let expected = entry.value.clone();
    match (expectation.kind, &entry.target) {
        (Kind::ConstraintAlgorithm, Target::Level) => {
            Ok((Expr::int(a.level as i64) - expected).simplify())
        }
        (Kind::ConstraintAlgorithm, &Target::Step(level)) => {
            let wanted = |s: &crate::singular::algorithm::Step| match level {
                Some(k) => s.kind == StepKind::Consistency(k),
                None => s.kind == StepKind::Sode,
            };
            let Some(first) = a.steps.iter().position(wanted) else {
                // No such step: the constraint is what differs.
                return Ok(expected);
            };
            let last = a.steps.iter().rposition(wanted).expect("found above") + 1;
            let after = on_set(&set_through(system, &a.steps, last), &expected);
            if !after.vanishes() {
                return Ok(after);
            }
            let before = on_set(&set_through(system, &a.steps, first), &expected);
            Ok(if before.vanishes() {
                expected
            } else {
                Expr::zero()
            })
        }
        (Kind::SingularEquations, Target::Rate(name)) => {
            a.state.iter().position(|s| s == name).ok_or_else(|| {
                bad_key(
                    entry.key_span,
                    format!(
                        "`{}` is fixed by the constraints: it is not a variable of the final set",
                        system.spec_name(system.handle(name))
                    ),
                    "a coordinate or velocity that remains",
                )
            })?;
            let derived = read_filed(
                report,
                &["equations"],
                At::Symbol(name.clone()),
                expectation,
                entry,
            )?;
            // Equal on the final set: modulo the constraints kept as equations too.
            let difference = (derived - expected.subs(&a.solved)).simplify();
            Ok(if a.ideal.vanishes_on(&difference) {
                Expr::zero()
            } else {
                difference
            })
        }
        _ => unreachable!("singular kinds only (checked above)"),
    }
}
