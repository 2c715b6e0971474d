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

pub(super) fn derive(case: &std::path::Path) -> Box<dalembert::ContactDerivation> {
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
        let leg: std::collections::BTreeMap<String, Expr> = d
            .system
            .keys(momenta)
            .into_iter()
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
        let z = &d.system.key(d.system.action.unwrap());
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
    let z = d.system.expr(d.system.action.unwrap());
    assert!(c.restrict(&(c.evolve(&z) - z_rate)).vanishes(), "z'");
}

/// [LJL21] §8 prints the projector as a table (digest 004 §3.2.3, H1). Typed in entry by entry
/// as printed, `𝒫^μ_ν` the `μ` component of `𝒫(∂_ν)` (its velocity entries were simplified on `Δ`
/// by the paper, so every comparison is on `Δ`), it is not a projector for α ≠ 0 (`𝒫² ≠ 𝒫`), it is
/// not the projector dalembert derives, and it agrees with it at α = 0, where `𝒞 = −1 = 𝒞⁻¹`.
/// It is exactly `I + (𝒫 − I) 𝒞²`: `I − 𝒞 Z ⊗ dΦ̄` where `I − 𝒞⁻¹ Z ⊗ dΦ̄` belongs.
#[test]
fn contact_the_printed_sledge_projector_is_not_reproduced() {
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
    let index = |name: &str| {
        let name = match name.strip_suffix('\'') {
            Some(q) => d.system.key(d.system.symbols.velocity(d.system.handle(q))),
            None => name.to_string(),
        };
        c.coordinates.iter().position(|s| *s == name).unwrap()
    };
    // The printed table: (row mu, column nu, entry); every other entry is 0.
    let table = [
        ("x", "x", "1"),
        ("y", "y", "1"),
        ("phi", "phi", "1"),
        ("phi'", "phi'", "1"),
        ("z", "z", "1"),
        ("x'", "phi", "-1/4*(alpha^3 + 2*alpha)*beta*x' - 1/4*(alpha^4 + 4*alpha^2 + 4)*y'"),
        ("x'", "x'", "-1/4*(alpha^3 + 2*alpha)*beta*cos(phi)*sin(phi) - 1/4*(alpha^4 + 4*alpha^2 + 4)*sin(phi)^2 + 1"),
        ("x'", "y'", "1/4*(alpha^3 + 2*alpha)*beta*cos(phi)^2 + 1/4*(alpha^4 + 4*alpha^2 + 4)*cos(phi)*sin(phi)"),
        ("y'", "phi", "-1/4*(alpha^3 + 2*alpha)*beta*y' + 1/4*(alpha^4 + 4*alpha^2 + 4)*x'"),
        ("y'", "x'", "-1/4*(alpha^3 + 2*alpha)*beta*sin(phi)^2 + 1/4*(alpha^4 + 4*alpha^2 + 4)*cos(phi)*sin(phi)"),
        ("y'", "y'", "1/4*(alpha^3 + 2*alpha)*beta*cos(phi)*sin(phi) - 1/4*(alpha^4 + 4*alpha^2 + 4)*cos(phi)^2 + 1"),
        ("phi'", "phi", "-1/4*(alpha^3 + 2*alpha)*x'*cos(phi) - 1/4*(alpha^3 + 2*alpha)*y'*sin(phi)"),
        ("phi'", "x'", "-1/4*(alpha^3 + 2*alpha)*sin(phi)"),
        ("phi'", "y'", "1/4*(alpha^3 + 2*alpha)*cos(phi)"),
    ];
    let n = c.coordinates.len();
    let mut printed = vec![vec![Expr::zero(); n]; n];
    for (mu, nu, entry) in table {
        printed[index(mu)][index(nu)] = read(entry);
    }
    let on_delta_equal = |a: &[Vec<Expr>], b: &[Vec<Expr>]| {
        a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .all(|(a, b)| c.restrict(&(a.clone() - b.clone())).vanishes())
    };
    assert!(
        !on_delta_equal(&product(&printed, &printed), &printed),
        "the printed projector is not a projector"
    );
    assert!(
        !on_delta_equal(&printed, &c.projector),
        "the printed projector must differ"
    );
    let alpha_zero: std::collections::BTreeMap<String, Expr> =
        [("alpha".to_string(), Expr::zero())].into();
    let at_zero = |m: &[Vec<Expr>]| -> Vec<Vec<Expr>> {
        m.iter()
            .map(|row| row.iter().map(|e| e.subs(&alpha_zero)).collect())
            .collect()
    };
    assert!(on_delta_equal(&at_zero(&printed), &at_zero(&c.projector)));
    let c2 = (c.constraint_matrix[0][0].clone() * c.constraint_matrix[0][0].clone()).simplify();
    let with_c: Vec<Vec<Expr>> = c
        .projector
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, p)| {
                    let identity = if i == j { Expr::one() } else { Expr::zero() };
                    identity.clone() + (p.clone() - identity) * c2.clone()
                })
                .collect()
        })
        .collect();
    assert!(
        on_delta_equal(&printed, &with_c),
        "printed = I + (P - I) C^2"
    );
}

/// The sledge's spec with the entries `(key, value)` of its `expect kind` block replaced.
fn sledge_with(kind: &str, entries: &[(&str, &str)]) -> String {
    let source = fs::read_to_string(root().join("golden/contact/sledge/spec.mech")).unwrap();
    let open = format!("expect {kind} {{\n");
    let start = source.find(&open).unwrap() + open.len();
    let end = start + source[start..].find("\n}").unwrap();
    let mut block: Vec<String> = source[start..end].lines().map(str::to_string).collect();
    for (key, value) in entries {
        let line = block
            .iter_mut()
            .find(|l| l.trim_start().starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no entry {key} in expect {kind}"));
        *line = format!("  {key} = {value}");
    }
    format!("{}{}{}", &source[..start], block.join("\n"), &source[end..])
}

/// The entries of `source`'s expectations that do not hold.
fn refused(source: &str) -> Vec<String> {
    let (_, outcomes) = dalembert::check_source(source).unwrap();
    outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Differs(_)))
        .map(|o| format!("{} {}", o.kind, o.key))
        .collect()
}

/// `source` with α = 0, where `𝒞 = −1 = 𝒞⁻¹` and the printed values of §8 are right (digest 004
/// P17): a check of their transcription.
fn at_alpha_zero(source: &str) -> String {
    let parameters = "parameters alpha, beta, gamma";
    assert!(source.contains(parameters));
    source
        .replace(parameters, "parameters beta, gamma")
        .replace("alpha", "(0)")
}

/// Digest 004 §3.2.3 (H1): the printed constrained field (113), typed in as printed, is refused
/// in its three velocity rows: `φ̈` has `κ/4` where `1/κ` belongs, and `ẍ`, `ÿ` the same factor.
#[test]
fn contact_the_printed_sledge_equation_is_not_reproduced() {
    let printed = sledge_with(
        "contact_equations",
        &[
            (
                "x''",
                "1/4*((alpha^4 + 4*alpha^2)*beta*sin(phi) + ((alpha^3 + 2*alpha)*beta^2 + 4*alpha)*cos(phi))*phi'^2 - 1/4*(alpha^4 + 4*alpha^2 + 4)*phi'*y' - 1/4*((alpha^3 + 2*alpha)*beta*phi' - 4*gamma)*x'",
            ),
            (
                "y''",
                "-1/4*((alpha^4 + 4*alpha^2)*beta*cos(phi) - ((alpha^3 + 2*alpha)*beta^2 + 4*alpha)*sin(phi))*phi'^2 + 1/4*(alpha^4 + 4*alpha^2 + 4)*phi'*x' - 1/4*((alpha^3 + 2*alpha)*beta*phi' - 4*gamma)*y'",
            ),
            (
                "phi''",
                "((alpha^3 + 2*alpha)*(beta*phi'^2*cos(phi) - phi'*x') + 4*gamma*phi'*cos(phi))/(4*cos(phi))",
            ),
        ],
    );
    assert_eq!(
        refused(&printed),
        vec![
            "contact_equations x''",
            "contact_equations y''",
            "contact_equations phi''"
        ]
    );
    assert_eq!(refused(&at_alpha_zero(&printed)), Vec::<String>::new());
}

/// Digest 004 §3.2.3 (H1, H3, T16, T17): the printed bracket table of §8, typed in as printed and
/// negated to our sign (the paper's (28) has `{q, p} = −1`), is refused entry by entry: the
/// entries that depend on α (𝒞 where 𝒞⁻¹ belongs; `{ẋ, ẏ}` with the factor 1/8 its `φ̇` term lacks
/// restored), and the rows `{q, z} = q`, `{q̇, z} = 2q̇` that contradict (100). `{1, z} = −1`
/// (ours 1) agrees with (100) and holds. `K = α⁶ + 6α⁴ − (α⁴ + 2α² − 4)β² + 8α² + 8`.
#[test]
fn contact_the_printed_sledge_bracket_table_is_not_reproduced() {
    let k = "(alpha^6 + 6*alpha^4 - (alpha^4 + 2*alpha^2 - 4)*beta^2 + 8*alpha^2 + 8)";
    let x_x = format!("-(1/8*alpha^6 + 3/4*alpha^4 + 1/4*(alpha^5 + 4*alpha^3)*beta*cos(phi)*sin(phi) - 1/8*{k}*cos(phi)^2 + alpha^2)");
    let x_y = format!("-(-1/4*(alpha^5 + 4*alpha^3)*beta*cos(phi)^2 + 1/8*(alpha^5 + 4*alpha^3)*beta - 1/8*{k}*cos(phi)*sin(phi))");
    let y_y = format!("-(1/8*alpha^6 + 3/4*alpha^4 - 1/4*(alpha^5 + 4*alpha^3)*beta*cos(phi)*sin(phi) - 1/8*{k}*sin(phi)^2 + alpha^2)");
    let x_phi =
        "-(1/8*(alpha^4 + 2*alpha^2 - 4)*beta*cos(phi) + 1/8*(alpha^5 + 4*alpha^3)*sin(phi))";
    let entries = [
        ("{1, z}", "1"),
        ("{x, z}", "-x"),
        ("{phi, z}", "-phi"),
        ("{x', z}", "-2*x'"),
        ("{x, x'}", x_x.as_str()),
        ("{x, y'}", x_y.as_str()),
        ("{y, x'}", x_y.as_str()),
        ("{y, y'}", y_y.as_str()),
        ("{x, phi'}", x_phi),
        ("{phi, x'}", x_phi),
        ("{y, phi'}", "-(1/8*(alpha^4 + 2*alpha^2 - 4)*beta*sin(phi) - 1/8*(alpha^5 + 4*alpha^3)*cos(phi))"),
        ("{phi, phi'}", "-(1/8*alpha^4 + 1/4*alpha^2 - 1/2)"),
        ("{x', y'}", "-(2*(alpha^2 + 2)*beta*x'/(8*cos(phi)) - 1/8*(alpha^6 + 4*alpha^4 + (alpha^4 + 4*alpha^2)*beta^2)*phi')"),
        ("{x', phi'}", "-(-1/8*((alpha^4 + 4*alpha^2)*beta*sin(phi) - (alpha^5 + 2*alpha^3 - 4*alpha)*cos(phi))*phi' + 1/4*(alpha^2 + 2)*y')"),
        ("{y', phi'}", "-(1/8*((alpha^4 + 4*alpha^2)*beta*cos(phi) + (alpha^5 + 2*alpha^3 - 4*alpha)*sin(phi))*phi' - 1/4*(alpha^2 + 2)*x')"),
    ];
    let expected: Vec<String> = entries[1..]
        .iter()
        .map(|(key, _)| format!("contact_bracket {key}"))
        .collect();
    let printed = sledge_with("contact_bracket", &entries);
    assert_eq!(refused(&printed), expected);
    // At α = 0 only the z-rows, which do not depend on 𝒞, are still refused.
    assert_eq!(refused(&at_alpha_zero(&printed)), expected[..3].to_vec());
}

/// Digest 004 T13 and T1: the Leibniz rules (103) of the nonholonomic bracket and (29) of a Jacobi
/// structure are printed with `R(h)`, `E(h)` where `R(f)`, `E(f)` belong. In our sign (the
/// negative of the paper's) the corrected rule reads `{f, gh} = g{f, h} + h{f, g} + gh R(f)`. With
/// `f = z`, `g = x`, `h` a coordinate (`R = ∂_z` on both goldens), the corrected rule holds on
/// `Δ × ℝ` and the printed one misses `gh`: on the sledge (103), on the canonical structure of
/// Example 1 (no constraint: the Jacobi bracket (29) of the contact form).
#[test]
fn contact_the_printed_leibniz_rule_is_not_the_brackets() {
    for (case, h) in [("sledge", "phi"), ("canonical", "x2")] {
        let d = derive(&root().join("golden/contact").join(case));
        let c = &d.contact;
        let (f, g, h) = (Expr::symbol("z"), Expr::symbol("x"), Expr::symbol(h));
        let g = if case == "canonical" {
            Expr::symbol("x1")
        } else {
            g
        };
        let gh = g.clone() * h.clone();
        let left = c.bracket(&f, &gh);
        let terms = g.clone() * c.bracket(&f, &h) + h.clone() * c.bracket(&f, &g);
        let corrected = terms.clone() + gh.clone() * c.projected_reeb(&f);
        let printed = terms + gh.clone() * c.projected_reeb(&h);
        assert!(c.restrict(&(left.clone() - corrected)).vanishes(), "{case}");
        assert!(!c.restrict(&(left - printed)).vanishes(), "{case}");
    }
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
        .map(|q| system.key(system.symbols.velocity(system.handle(q))))
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
