//! Seed 003 §3.1 and §4 (digest 003 recipe (b), §4 items 6–7): the goldens of `golden/singular/`,
//! derived by the constraint algorithm, to their committed artifacts, with every `expect`
//! holding; and on each, a second route through the mathematics: the motion on the final
//! constraint set solves the Euler–Lagrange equations (2.9) of the original Lagrangian — written
//! `W ẏ = b` with the forcing `b` of `mech::lagrangian`, not the `ω_L` the algorithm used —
//! keeps every constraint it found (the final set is invariant) and conserves `E_L`.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use cas::Expr;
use dalembert::{Target, Verdict};

use super::{compare, root};

fn singular_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(root().join("golden/singular"))
        .expect("golden/singular/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.join("spec.mech").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "{cases:?}");
    cases
}

fn derive(case: &std::path::Path) -> Box<dalembert::SingularDerivation> {
    let source = fs::read_to_string(case.join("spec.mech")).unwrap();
    match dalembert::compile_with(&source, &dalembert::Options::default()) {
        Ok(dalembert::Derived::Singular(d)) => d,
        Ok(_) => panic!("{}: not derived as a singular Lagrangian", case.display()),
        Err(e) => panic!("{}", dalembert::render_plain("spec.mech", &source, &e)),
    }
}

#[test]
fn singular_goldens_derive_to_their_committed_artifacts() {
    let mut failures = Vec::new();
    for case in singular_cases() {
        let derived = dalembert::Derived::Singular(derive(&case));
        let targets = [Target::Json, Target::Latex, Target::C, Target::Rust];
        for artifact in dalembert::render_derived(&derived, &targets, Default::default()).unwrap() {
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
fn singular_expectations_hold() {
    let mut failures = Vec::new();
    for case in singular_cases() {
        let source = fs::read_to_string(case.join("spec.mech")).unwrap();
        let (system, outcomes) = dalembert::check_source(&source)
            .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)));
        assert!(
            outcomes.len() >= 5,
            "{}: too few expectations",
            case.display()
        );
        for o in outcomes {
            if let Verdict::Differs(by) = &o.verdict {
                failures.push(format!(
                    "{}: expect {} {}: differs by {}",
                    case.display(),
                    o.kind,
                    o.key,
                    cas::print::spec(by, &|s| system.spec_name(s))
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn singular_motion_solves_the_euler_lagrange_equations_and_keeps_its_constraints() {
    for case in singular_cases() {
        let d = derive(&case);
        let system = &d.system;
        let a = &d.algorithm;
        let alg = &system.algebroid;
        let rates: BTreeMap<String, Expr> = a.state.iter().cloned().zip(a.rates.clone()).collect();
        // d/dt along the motion on the final set, of a function of the remaining variables.
        let along = |f: &Expr| -> Expr {
            let f = f.subs(&a.solved).simplify();
            rates
                .iter()
                .fold(Expr::zero(), |acc, (s, r)| acc + f.diff(s) * r.clone())
                .simplify()
        };
        // Every variable's rate: its own, or the derivative of its value on the final set.
        let rate_of = |s: &String| match rates.get(s) {
            Some(r) => r.clone(),
            None => along(&a.solved[s]),
        };
        let accelerations: Vec<Expr> = alg.velocities.iter().map(rate_of).collect();
        for (k, q) in system.coordinates.iter().enumerate() {
            let admissible = (0..system.rank()).fold(Expr::zero(), |acc, b| {
                acc + alg.anchors[b][k + 1].clone() * Expr::symbol(&alg.velocities[b])
            });
            let difference = (rate_of(q) - admissible).subs(&a.solved).simplify();
            assert!(
                difference.vanishes(),
                "{}: {q}' is not admissible",
                case.display()
            );
        }
        for (row, b) in d.lagrangian.hessian.iter().zip(&d.lagrangian.forcing) {
            let residual = row
                .iter()
                .zip(&accelerations)
                .fold(-b.clone(), |acc, (w, y)| acc + w.clone() * y.clone())
                .subs(&a.solved)
                .simplify();
            assert!(
                residual.vanishes(),
                "{}: the Euler–Lagrange residual {} does not vanish",
                case.display(),
                cas::print::spec(&residual, &|s| system.spec_name(s))
            );
        }
        for step in &a.steps {
            for phi in &step.found {
                let rate = system
                    .coordinates
                    .iter()
                    .chain(&alg.velocities)
                    .fold(Expr::zero(), |acc, s| acc + phi.diff(s) * rate_of(s))
                    .subs(&a.solved)
                    .simplify();
                assert!(
                    rate.vanishes(),
                    "{}: a constraint is not kept",
                    case.display()
                );
            }
        }
        assert!(
            along(&d.lagrangian.energy).vanishes(),
            "{}: E_L",
            case.display()
        );
    }
}

#[test]
fn singular_documents_compile_with_pdflatex() {
    if Command::new("pdflatex").arg("--version").output().is_err() {
        eprintln!("SKIPPED: pdflatex is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("dalembert-singular-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for case in singular_cases() {
        let derived = dalembert::Derived::Singular(derive(&case));
        let tex = dalembert::render_derived(&derived, &[Target::Latex], Default::default())
            .unwrap()
            .remove(0);
        fs::write(dir.join(&tex.file_name), &tex.contents).unwrap();
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", &tex.file_name])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} does not compile:\n{}",
            tex.file_name,
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let _ = fs::remove_dir_all(&dir);
}
