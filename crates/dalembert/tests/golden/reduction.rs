//! `dalembert reduce` on the goldens of `golden/reduction/`: systems written on `TQ` in
//! coordinates, with a declared symmetry group, reduced to an algebroid.
//!
//! - pass: each reduces to its committed `expected/<system>_reduced.mech`, and that text reads
//!   back as a spec.
//! - two routes: each folder's `reference` names a golden whose algebroid was reduced by hand
//!   (in the papers, or in its notes). The reduced system is proved equal to it: the same
//!   anchors and brackets, the same Lagrangian, the same constraint distribution; and every
//!   `expect` block of the hand-written golden (with its `frame` and Noether `symmetry` items)
//!   holds on the reduced system.
//! - the TQ specs themselves derive, and their own `expect` blocks hold.

use std::fs;
use std::path::Path;

use cas::Expr;
use dalembert::Verdict;
use syntax::ast::ItemKind;

use super::{compare, family};

fn reduced(case: &Path) -> dalembert::reduce::Reduced {
    let source = fs::read_to_string(case.join("spec.mech")).unwrap();
    match dalembert::reduce::reduce_spec(&source) {
        Ok(r) => r,
        Err(dalembert::Failure::Spec(d)) => {
            panic!("{}", dalembert::render_plain("spec.mech", &source, &d))
        }
        Err(dalembert::Failure::Output(m)) => panic!("{}: {m}", case.display()),
    }
}

fn resolved(source: &str) -> model::System {
    let spec = syntax::parse(source)
        .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("spec", source, &d)));
    model::resolve(&spec)
        .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("spec", source, &d)))
}

#[test]
fn reduction_goldens_reduce_to_their_committed_specs() {
    let mut failures = Vec::new();
    for case in family::cases("reduction", 2) {
        for artifact in reduced(&case).artifacts {
            if let Err(e) = compare(
                &case.join("expected").join(&artifact.file_name),
                &artifact.contents,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reduction_goldens_derive_on_tq_and_their_expectations_hold() {
    family::expectations("reduction", 0);
}

fn same(a: &Expr, b: &Expr) -> bool {
    (a - b).vanishes()
}

/// The reduced algebroid, Lagrangian and constraints equal the reference's.
fn structure_equal(name: &str, ours: &model::System, theirs: &model::System) -> Vec<String> {
    let mut failures = Vec::new();
    let mut fail = |what: String| failures.push(format!("{name}: {what}"));
    let (a, b) = (&ours.algebroid, &theirs.algebroid);
    if a.sections != b.sections
        || a.velocities != b.velocities
        || ours.coordinates != theirs.coordinates
    {
        fail(format!(
            "names differ: {:?} {:?} {:?} vs {:?} {:?} {:?}",
            a.sections,
            a.velocities,
            ours.coordinates,
            b.sections,
            b.velocities,
            theirs.coordinates
        ));
        return failures;
    }
    let n = a.sections.len();
    for (i, (x, y)) in a.anchor0.iter().zip(&b.anchor0).enumerate() {
        if !same(x, y) {
            fail(format!("rho_0 component {i}"));
        }
    }
    for al in 0..n {
        for (i, (x, y)) in a.anchors[al].iter().zip(&b.anchors[al]).enumerate() {
            if !same(x, y) {
                fail(format!("anchor of {} component {i}", a.sections[al]));
            }
        }
        for g in 0..n {
            if !same(&a.c0[al][g], &b.c0[al][g]) {
                fail(format!("C^{}_0{}", a.sections[g], a.sections[al]));
            }
            for be in 0..n {
                if !same(&a.c[al][be][g], &b.c[al][be][g]) {
                    fail(format!(
                        "[{}, {}] coefficient of {}",
                        a.sections[al], a.sections[be], a.sections[g]
                    ));
                }
            }
        }
    }
    if !same(&ours.lagrangian, &theirs.lagrangian) {
        fail("the Lagrangians differ".to_string());
    }
    // The same constraint distribution: the rows (mu_0, mu) of each set span the same space.
    let rows = |s: &model::System| -> Vec<Vec<Expr>> {
        s.constraints
            .iter()
            .map(|c| {
                std::iter::once(c.mu0.clone())
                    .chain(c.mu.iter().cloned())
                    .collect()
            })
            .collect()
    };
    let (r1, r2) = (rows(ours), rows(theirs));
    let both: Vec<Vec<Expr>> = r1.iter().chain(&r2).cloned().collect();
    let ranks = (cas::rank(&r1).0, cas::rank(&r2).0, cas::rank(&both).0);
    if ranks.0 != ranks.1 || ranks.1 != ranks.2 {
        fail(format!("the constraints differ (ranks {ranks:?})"));
    }
    failures
}

/// The reference's `frame`, Noether `symmetry` and `expect` items, as written.
fn reference_claims(source: &str) -> String {
    let spec = syntax::parse(source).unwrap();
    spec.items
        .iter()
        .filter(|i| {
            matches!(
                i.kind,
                ItemKind::Frame(_) | ItemKind::Symmetry { .. } | ItemKind::Expect(_)
            )
        })
        .map(|i| &source[i.span.start..i.span.end])
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn reduced_systems_equal_the_hand_written_algebroids_and_satisfy_their_expectations() {
    let mut failures = Vec::new();
    for case in family::cases("reduction", 2) {
        let Ok(reference) = fs::read_to_string(case.join("reference")) else {
            continue;
        };
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let reference_source = fs::read_to_string(case.join(reference.trim())).unwrap();
        let ours = reduced(&case).text;
        failures.extend(structure_equal(
            &name,
            &resolved(&ours),
            &resolved(&reference_source),
        ));
        let claims = reference_claims(&reference_source);
        let combined = format!("{ours}\n{claims}\n");
        let (system, outcomes) = dalembert::check_source(&combined).unwrap_or_else(|e| {
            panic!(
                "{}",
                dalembert::render_plain("combined.mech", &combined, &e)
            )
        });
        assert!(
            !outcomes.is_empty(),
            "{name}: the reference has no expectations"
        );
        for o in outcomes {
            if let Verdict::Differs(by) = &o.verdict {
                failures.push(format!(
                    "{name}: expect {} {}: differs by {}",
                    o.kind,
                    o.key,
                    cas::print::spec(by, &system)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The TQ systems derive to their committed artifacts, whose documents carry the section
/// "Reduction by symmetry" (and whose JSON carries `reduction`, checked against the schema by
/// `schema.rs`).
#[test]
fn reduction_goldens_derive_to_their_committed_artifacts() {
    family::pass("reduction");
}

#[test]
fn reduction_documents_compile() {
    family::documents_compile("reduction");
}
