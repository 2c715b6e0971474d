//! Seed 004 (digest 004 §4): the goldens of `golden/contact/`, derived by the contact route, to
//! their committed artifacts, with every `expect` holding, and the properties the digest lists
//! proved on each: `𝒫² = 𝒫` and `𝒫 Z = 0` identically, tangency of `Γ_{L,Δ}` to `Δ × ℝ`, the
//! dissipation law, `η_L(Γ_{L,Δ}) = −E_L`, the constraint functions as Casimirs, the evolution
//! law (101) for every coordinate function, and Theorem 24 in both directions (the Jacobiators
//! vanish iff `Δ` is integrable). The printed projector of §8 (with `𝒞` for `𝒞⁻¹`) is not
//! reproduced: it is not even idempotent.

use std::fs;
use std::path::PathBuf;

use cas::Expr;
use dalembert::Verdict;

use super::{family, root};

fn contact_cases() -> Vec<PathBuf> {
    family::cases("contact", 3)
}

fn derive(case: &std::path::Path) -> Box<dalembert::ContactDerivation> {
    match family::derived(case) {
        dalembert::Derived::Contact(d) => d,
        _ => panic!("{}: not derived as a contact system", case.display()),
    }
}

#[test]
fn contact_goldens_derive_to_their_committed_artifacts() {
    family::pass("contact");
}

#[test]
fn contact_expectations_hold() {
    family::expectations("contact", 4);
}

#[test]
fn contact_documents_compile_with_pdflatex() {
    family::documents_compile("contact");
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

/// Digest 004 §1.12: the Hamiltonian side on `T*Q × ℝ`, pushed through the Legendre map, is the
/// Lagrangian side: the same field, the same multipliers, `H ∘ leg = E_L`, and `Ḣ = −H ∂H/∂z` on
/// `Ψ = 0`.
#[test]
fn contact_hamiltonian_side_equals_the_lagrangian_side() {
    let mut checked = 0;
    for case in contact_cases() {
        let d = derive(&case);
        let c = &d.contact;
        let Some(h) = &c.hamiltonian else {
            continue;
        };
        let label = case.display().to_string();
        let momenta = &d.system.algebroid.momenta;
        let leg: std::collections::BTreeMap<String, Expr> = momenta
            .iter()
            .cloned()
            .zip(h.legendre.iter().cloned())
            .collect();
        for (coordinate, rate) in h.coordinates.iter().zip(&h.rates) {
            let pushed = c.evolve(&Expr::symbol(coordinate).subs(&leg));
            let difference = c.restrict(&(pushed - rate.subs(&leg)));
            assert!(difference.vanishes(), "{label}: d/dt {coordinate}");
        }
        for (a, b) in h.multipliers.iter().zip(&c.multipliers) {
            assert!(
                c.restrict(&(a.subs(&leg) - b.clone())).vanishes(),
                "{label}: λ"
            );
        }
        assert!(c
            .restrict(&(h.hamiltonian.subs(&leg) - c.energy.clone()))
            .vanishes());
        let z = d.system.action.as_ref().unwrap();
        let rate = h
            .coordinates
            .iter()
            .zip(&h.rates)
            .fold(Expr::zero(), |acc, (s, r)| {
                acc + h.hamiltonian.diff(s) * r.clone()
            });
        let law = rate + h.hamiltonian.clone() * h.hamiltonian.diff(z);
        assert!(h.restrict(&law).vanishes(), "{label}: Ḣ = −H ∂H/∂z");
        checked += 1;
    }
    assert_eq!(checked, contact_cases().len());
}

/// Digest 004 §3.2.4, the reduced form: with `u = ẋ cos φ + ẏ sin φ` and `ω = φ̇`,
/// `u̇ = αω² + γu + (αβ/κ) ω(βω − u)`, `ω̇ = γω + (α/κ) ω(βω − u)`, `κ = α² + 2`, and on `Δ`
/// `L = u²/2 − βuω + κ'ω²/2 + γz`, `κ' = α² + β² + 2`.
#[test]
fn contact_the_sledge_reduces_to_the_digest_u_omega_form() {
    let d = derive(&root().join("golden/contact/sledge"));
    let c = &d.contact;
    let read = |text: &str| {
        d.system
            .scope
            .convert(
                &syntax::parse_expr(text).unwrap(),
                model::ScopeKind::Observable,
            )
            .unwrap()
    };
    let u = read("x'*cos(phi) + y'*sin(phi)");
    let omega = read("phi'");
    let kappa = read("alpha^2 + 2");
    let (alpha, beta, gamma) = (read("alpha"), read("beta"), read("gamma"));
    let coupling = omega.clone() * (beta.clone() * omega.clone() - u.clone()) / kappa.clone();
    let u_rate = alpha.clone() * omega.clone() * omega.clone()
        + gamma.clone() * u.clone()
        + alpha.clone() * beta.clone() * coupling.clone();
    let omega_rate = gamma.clone() * omega.clone() + alpha.clone() * coupling;
    assert!(c.restrict(&(c.evolve(&u) - u_rate)).vanishes(), "u'");
    assert!(
        c.restrict(&(c.evolve(&omega) - omega_rate)).vanishes(),
        "omega'"
    );
    let z_rate = read("(x'*cos(phi) + y'*sin(phi))^2/2 - beta*(x'*cos(phi) + y'*sin(phi))*phi' + (alpha^2 + beta^2 + 2)*phi'^2/2 + gamma*z");
    let z = Expr::symbol(d.system.action.as_ref().unwrap());
    assert!(c.restrict(&(c.evolve(&z) - z_rate)).vanishes(), "z'");
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

/// One multiplier sign on every route (`docs/conventions.md`): Chaplygin's sledge without
/// friction, written with `action z` (the contact route, a Lagrangian that does not depend on `z`)
/// and without it (Lagrange–d'Alembert), has the same `λ` on the constraint set, and so does the
/// particle of `golden/contact/particle_friction` with `k = 0`.
#[test]
fn conventions_a_constraint_has_one_multiplier_sign() {
    let sledge = fs::read_to_string(root().join("golden/contact/sledge/spec.mech"))
        .unwrap()
        .replace(" + gamma*z", "");
    let particle = fs::read_to_string(root().join("golden/contact/particle_friction/spec.mech"))
        .unwrap()
        .replace(" - k*z", "");
    for (label, spec) in [("sledge", sledge), ("particle", particle)] {
        // The system only: the expect blocks are about the contact route.
        let with_action = spec[..spec.find("\nexpect ").unwrap()].to_string();
        let without_action = with_action.replace("action z\n", "");
        assert_ne!(with_action, without_action, "{label}: `action z` removed");
        let contact = match dalembert::compile_with(&with_action, &Default::default()) {
            Ok(dalembert::Derived::Contact(d)) => d,
            Ok(_) => panic!("{label}: not the contact route"),
            Err(e) => panic!("{}", dalembert::render_plain(label, &with_action, &e)),
        };
        let closed = match dalembert::compile_with(&without_action, &Default::default()) {
            Ok(dalembert::Derived::Closed(d)) => d,
            Ok(_) => panic!("{label}: not the closed form"),
            Err(e) => panic!("{}", dalembert::render_plain(label, &without_action, &e)),
        };
        let c = &contact.contact;
        assert_eq!(c.multipliers.len(), 1, "{label}");
        assert_eq!(closed.multipliers().len(), 1, "{label}");
        let difference = c.restrict(&(closed.multipliers()[0].clone() - c.multipliers[0].clone()));
        assert!(
            difference.vanishes(),
            "{label}: λ differs by {difference:?}"
        );
        assert!(
            !c.restrict(&c.multipliers[0]).vanishes(),
            "{label}: λ = 0 proves nothing"
        );
    }
}

/// [LJL21] Example 1: for `L = |x'|²/2 − …` the contact form `η_L` is the canonical
/// `dz − y_i dx^i` with `y = x'`, its Reeb field is `∂_z`, and it is a contact form
/// (`η ∧ (dη)² ≠ 0`, through the criterion `det [[0, −ηᵀ], [η, dη]] ≠ 0`); `ι_R dη = 0` and
/// `η(R) = 1` (the paper's (8), (9) and the lines after them).
#[test]
fn contact_the_canonical_structure_is_the_one_of_example_1() {
    let d = derive(&root().join("golden/contact/canonical"));
    let c = &d.contact;
    let system = &d.system;
    // (x1, x2, x1', x2', z)
    let velocities: Vec<String> = ["x1", "x2"]
        .iter()
        .map(|q| system.symbols.velocity(q))
        .collect();
    let mut coordinates: Vec<String> = vec!["x1".into(), "x2".into()];
    coordinates.extend(velocities.iter().cloned());
    coordinates.push("z".into());
    assert_eq!(c.coordinates, coordinates);
    for (p, v) in c.momenta.iter().zip(&velocities) {
        assert!((p.clone() - Expr::symbol(v)).is_zero(), "y = x'");
    }
    // η = −y_i dx^i + dz.
    let eta: Vec<Expr> = (0..5)
        .map(|k| match k {
            0 | 1 => -c.momenta[k].clone(),
            4 => Expr::one(),
            _ => Expr::zero(),
        })
        .collect();
    let d_eta: Vec<Vec<Expr>> = (0..5)
        .map(|j| {
            (0..5)
                .map(|k| (eta[k].diff(&coordinates[j]) - eta[j].diff(&coordinates[k])).simplify())
                .collect()
        })
        .collect();
    let reeb = &c.reeb;
    assert!(reeb[..4].iter().all(Expr::is_zero) && (reeb[4].clone() - Expr::one()).is_zero());
    let eta_of_reeb = (0..5).fold(Expr::zero(), |acc, k| {
        acc + eta[k].clone() * reeb[k].clone()
    });
    assert!((eta_of_reeb - Expr::one()).is_zero(), "η(R) = 1");
    for row in &d_eta {
        let contracted = (0..5).fold(Expr::zero(), |acc, k| {
            acc + row[k].clone() * reeb[k].clone()
        });
        assert!(contracted.is_zero(), "ι_R dη = 0");
    }
    let mut m = vec![vec![Expr::zero(); 6]; 6];
    for k in 0..5 {
        m[0][k + 1] = -eta[k].clone();
        m[k + 1][0] = eta[k].clone();
        for j in 0..5 {
            m[k + 1][j + 1] = d_eta[k][j].clone();
        }
    }
    assert!(!cas::det(&m).is_zero(), "η ∧ (dη)² ≠ 0");
    // dη = dx^i ∧ dy_i: dη(X_i, Y_j) = δ_ij with X_i = ∂_{x^i} + y_i ∂_z, Y_i = ∂_{y_i}.
    assert!((d_eta[0][2].clone() - Expr::one()).is_zero());
    assert!(d_eta[0][3].is_zero() && d_eta[0][1].is_zero() && d_eta[2][3].is_zero());
}
