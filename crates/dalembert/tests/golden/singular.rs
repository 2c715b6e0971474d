//! Seed 003 §3.1 and §4 (digest 003 recipe (b), §4 items 6–7): the goldens of `golden/singular/`,
//! derived by the constraint algorithm, to their committed artifacts, with every `expect`
//! holding; and on each, a second route through the mathematics: the motion on the final
//! constraint set solves the Euler–Lagrange equations (2.9) of the original Lagrangian — written
//! `W ẏ = b` with the forcing `b` of `mech::lagrangian`, not the `ω_L` the algorithm used —
//! keeps every constraint it found (the final set is invariant) and conserves `E_L`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use cas::Expr;

use super::family;

fn singular_cases() -> Vec<PathBuf> {
    family::cases("singular", 3)
}

fn derive(case: &std::path::Path) -> Box<dalembert::SingularDerivation> {
    match family::derived(case) {
        dalembert::Derived::Singular(d) => d,
        _ => panic!("{}: not derived as a singular Lagrangian", case.display()),
    }
}

#[test]
fn singular_goldens_derive_to_their_committed_artifacts() {
    family::pass("singular");
}

#[test]
fn singular_expectations_hold() {
    family::expectations("singular", 5);
}

#[test]
fn singular_documents_compile_with_pdflatex() {
    family::documents_compile("singular");
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
                cas::print::spec(&residual, &system)
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

/// The energy rate the derivation reports (JSON `energy_rate`) vanishes on every golden here:
/// each is autonomous, and along any solution of `i_X ω_L = dE_L` the rate is
/// `dE_L(X) = ω_L(X, X) = 0`.
#[test]
fn singular_reported_energy_rate_vanishes_on_autonomous_goldens() {
    for case in singular_cases() {
        let d = derive(&case);
        let rate = d
            .energy_rate
            .as_ref()
            .expect("the energy rate fits its budget");
        assert!(
            rate.is_zero(),
            "{}: dE_L/dt = {}",
            case.display(),
            cas::print::spec(rate, &d.system)
        );
    }
}
