//! Seed 004 (digest 004 §4): the goldens of `golden/contact/`, derived by the contact route, to
//! their committed artifacts, with every `expect` holding, and the properties the digest lists
//! proved on each: `𝒫² = 𝒫` and `𝒫 Z = 0` identically, tangency of `Γ_{L,Δ}` to `Δ × ℝ`, the
//! dissipation law, `η_L(Γ_{L,Δ}) = −E_L`, the constraint functions as Casimirs, the evolution
//! law (101) for every coordinate function, and Theorem 24 in both directions (the Jacobiators
//! vanish iff `Δ` is integrable). The printed projector of §8 (with `𝒞` for `𝒞⁻¹`) is not
//! reproduced: it is not even idempotent.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use cas::Expr;
use dalembert::{Target, Verdict};

use super::{compare, root};

fn contact_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(root().join("golden/contact"))
        .expect("golden/contact/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.join("spec.mech").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "{cases:?}");
    cases
}

fn derive(case: &std::path::Path) -> Box<dalembert::ContactDerivation> {
    let source = fs::read_to_string(case.join("spec.mech")).unwrap();
    match dalembert::compile_with(&source, &dalembert::Options::default()) {
        Ok(dalembert::Derived::Contact(d)) => d,
        Ok(_) => panic!("{}: not derived as a contact system", case.display()),
        Err(e) => panic!("{}", dalembert::render_plain("spec.mech", &source, &e)),
    }
}

#[test]
fn contact_goldens_derive_to_their_committed_artifacts() {
    let mut failures = Vec::new();
    for case in contact_cases() {
        let derived = dalembert::Derived::Contact(derive(&case));
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
fn contact_expectations_hold() {
    let mut failures = Vec::new();
    for case in contact_cases() {
        let source = fs::read_to_string(case.join("spec.mech")).unwrap();
        let (system, outcomes) = dalembert::check_source(&source)
            .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)));
        assert!(
            outcomes.len() >= 4,
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

fn product(a: &[Vec<Expr>], b: &[Vec<Expr>]) -> Vec<Vec<Expr>> {
    (0..a.len())
        .map(|i| {
            (0..b[0].len())
                .map(|j| {
                    (0..b.len())
                        .fold(Expr::zero(), |acc, k| {
                            acc + a[i][k].clone() * b[k][j].clone()
                        })
                        .simplify()
                })
                .collect()
        })
        .collect()
}

fn idempotent(p: &[Vec<Expr>]) -> bool {
    let square = product(p, p);
    square
        .iter()
        .flatten()
        .zip(p.iter().flatten())
        .all(|(a, b)| (a.clone() - b.clone()).vanishes())
}

#[test]
fn contact_properties_hold_on_every_golden() {
    for case in contact_cases() {
        let d = derive(&case);
        let system = &d.system;
        let c = &d.contact;
        let label = case.display().to_string();
        assert!(idempotent(&c.projector), "{label}: P^2 = P");
        assert!(c.energy_law.vanishes(), "{label}: the dissipation law");
        let symbols: Vec<Expr> = c.coordinates.iter().map(|s| Expr::symbol(s)).collect();
        for constraint in &system.constraints {
            let tangency = c.restrict(&c.evolve(&constraint.psi));
            assert!(tangency.vanishes(), "{label}: Γ is tangent to Δ × R");
            for f in &symbols {
                let casimir = c.restrict(&c.bracket(&constraint.psi, f));
                assert!(casimir.vanishes(), "{label}: {{Φ, {f}}} = 0 on Δ");
            }
        }
        // (101) in our sign: ġ = {g, E_L} − g R_{L,Δ}(E_L).
        for f in &symbols {
            let law = c.bracket(f, &c.energy) - f.clone() * c.projected_reeb(&c.energy);
            let difference = c.restrict(&(c.evolve(f) - law));
            assert!(difference.vanishes(), "{label}: (101) for {f}");
        }
        // η_L(Γ) = Γ^z − p_i Γ^{q^i} = −E_L.
        let n = system.coordinates.len();
        let eta = (0..n).fold(c.rates[2 * n].clone(), |acc, i| {
            acc - c.momenta[i].clone() * c.rates[i].clone()
        });
        assert!(
            c.restrict(&(eta + c.energy.clone())).vanishes(),
            "{label}: η(Γ) = −E"
        );
        // Theorem 24.
        let jacobi = c.jacobiators.iter().all(|(.., j)| j.vanishes());
        assert_eq!(jacobi, c.integrable, "{label}: Jacobi ⟺ Δ integrable");
    }
}

/// Digest 004 H1: the printed §8 projector is `I − Z 𝒞 dΦ̄`. With one constraint,
/// `Z dΦ̄ = −(𝒫 − I) 𝒞`, so the printed one is `I + (𝒫 − I) 𝒞²`: it differs from `𝒫` and is not
/// idempotent for α ≠ 0, and agrees at α = 0 (`𝒞 = −1`).
#[test]
fn contact_the_printed_sledge_projector_is_not_reproduced() {
    let d = derive(&root().join("golden/contact/sledge"));
    let c = &d.contact;
    let c2 = (c.constraint_matrix[0][0].clone() * c.constraint_matrix[0][0].clone()).simplify();
    let printed: Vec<Vec<Expr>> = c
        .projector
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, p)| {
                    let identity = if i == j { Expr::one() } else { Expr::zero() };
                    (identity.clone() + (p.clone() - identity) * c2.clone()).simplify()
                })
                .collect()
        })
        .collect();
    let same = printed
        .iter()
        .flatten()
        .zip(c.projector.iter().flatten())
        .all(|(a, b)| (a.clone() - b.clone()).vanishes());
    assert!(!same, "the printed projector must differ");
    assert!(
        !idempotent(&printed),
        "the printed projector is not a projector"
    );
    let alpha_zero: std::collections::BTreeMap<String, Expr> =
        [("alpha".to_string(), Expr::zero())].into();
    for (a, b) in printed.iter().flatten().zip(c.projector.iter().flatten()) {
        assert!((a.subs(&alpha_zero) - b.subs(&alpha_zero)).vanishes());
    }
}

#[test]
fn contact_documents_compile_with_pdflatex() {
    if Command::new("pdflatex").arg("--version").output().is_err() {
        eprintln!("SKIPPED: pdflatex is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("dalembert-contact-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for case in contact_cases() {
        let derived = dalembert::Derived::Contact(derive(&case));
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

/// Digest 004 §3.2.3: the printed `φ̈` of (113), `((α³ + 2α)(βφ̇²c − φ̇ẋ) + 4γφ̇c)/(4c)`, has `κ/4`
/// where `1/κ` belongs: the engine does not reproduce it.
#[test]
fn contact_the_printed_sledge_equation_is_not_reproduced() {
    let source = fs::read_to_string(root().join("golden/contact/sledge/spec.mech")).unwrap();
    let correct =
        "  phi'' = gamma*phi' + alpha*phi'*(beta*phi' - (x'*cos(phi) + y'*sin(phi)))/(alpha^2 + 2)";
    assert!(source.contains(correct));
    let printed = source.replace(
        correct,
        "  phi'' = ((alpha^3 + 2*alpha)*(beta*phi'^2*cos(phi) - phi'*x') + 4*gamma*phi'*cos(phi))/(4*cos(phi))",
    );
    let (_, outcomes) = dalembert::check_source(&printed).unwrap();
    let differing: Vec<String> = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Differs(_)))
        .map(|o| format!("{} {}", o.kind, o.key))
        .collect();
    assert_eq!(differing, vec!["contact_equations phi''".to_string()]);
}
