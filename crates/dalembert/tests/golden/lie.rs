//! Seed 001 §4 and digest 001 §1.9, §4 item 7: whether `(D, ε_P)` is Lie, computed two ways.
//!
//! On every golden with a projected structure:
//!
//! - the section Jacobiator from the structure functions, `Σ_cyc 𝒞^d_ab 𝒞^e_dc − ρ_c(𝒞^e_ab)`,
//!   equals the digest's `Σ_cyc P[X_c, K(X_a, X_b)]_E`, computed with the ambient bracket;
//! - the Jacobiator of the bracket on `D*` on coordinate triples is what the report predicts:
//!   `J(ξ_a, ξ_b, x^j) = ρ(K(X_a, X_b))^j`, `J(ξ_a, ξ_b, ξ_c) = −⟨ξ, Jac_P(X_a, X_b, X_c)⟩`, and
//!   zero on the other triples — so "Lie" is exactly "the bracket is Poisson";
//! - `K` takes values in `D^⊥` (`G(X_d, K) = 0`);
//! - on `TQ` (`ρ` injective), Lie ⟺ `K ≡ 0` (`D` involutive).
//!
//! And the verdicts the digest states: the sleigh is Lie although `K ≠ 0`; the snakeboard, the
//! nonholonomic particle and the Theorem 4.1 realisation of a non-Jacobi algebra are not.

use cas::Expr;

use super::{cases, derive};

fn check_report(label: &str, d: &mech::Derivation) {
    let projected = d.projected.as_ref().expect("projected");
    let system = &d.system;
    let projection = projected.projection(d.regular());
    let lie = &projected.lie;
    let k = projected.momenta.len();
    let m = system.coordinates.len();
    for (a, b, curvature) in &lie.curvature {
        for (dd, x) in projected.sections.iter().enumerate() {
            assert!(
                projection.pairing(x, curvature).vanishes(),
                "{label}: G(X{dd}, K(X{a}, X{b})) ≠ 0"
            );
        }
    }
    for (a, b, c, jacobiator) in &lie.jacobiator {
        let mut second = vec![Expr::zero(); k];
        for (x, y, z) in [(*a, *b, *c), (*b, *c, *a), (*c, *a, *b)] {
            let curvature = projection.curvature(x, y);
            let bracket = projection.ambient_bracket(&projected.sections[z], &curvature);
            for (e, p) in projection.project(&bracket).into_iter().enumerate() {
                second[e] = second[e].clone() + p;
            }
        }
        for e in 0..k {
            assert!(
                (jacobiator[e].clone() - second[e].clone()).vanishes(),
                "{label}: Jac_P(X{a}, X{b}, X{c})^{e}: {} from the structure functions, {} from K",
                dalembert::show(d, &jacobiator[e]),
                dalembert::show(d, &second[e])
            );
        }
    }
    // The Jacobiator of the bracket on D* over the coordinates (x, ξ), as the report predicts.
    let xi = |a: usize| Expr::symbol(&projected.momenta[a]);
    for (i, j, l, value) in &projected.jacobiators {
        let predicted = match (*i >= m, *j >= m, *l >= m) {
            (false, true, true) => {
                // J(x^i, ξ_a, ξ_b) = J(ξ_a, ξ_b, x^i) = ρ(K(X_a, X_b))^i.
                let (_, _, on_base) = lie
                    .anchor_curvature
                    .iter()
                    .find(|(a, b, _)| (*a, *b) == (j - m, l - m))
                    .expect("a < b");
                on_base[*i].clone()
            }
            (true, true, true) => {
                let (_, _, _, jac) = lie
                    .jacobiator
                    .iter()
                    .find(|(a, b, c, _)| (*a, *b, *c) == (i - m, j - m, l - m))
                    .expect("a < b < c");
                -(0..k).fold(Expr::zero(), |acc, e| acc + jac[e].clone() * xi(e))
            }
            _ => Expr::zero(),
        };
        assert!(
            (value.clone() - predicted.clone()).vanishes(),
            "{label}: J({}, {}, {}) = {} but the report predicts {}",
            projected.coordinates[*i],
            projected.coordinates[*j],
            projected.coordinates[*l],
            dalembert::show(d, value),
            dalembert::show(d, &predicted)
        );
    }
    let poisson = projected.jacobiators.iter().all(|(.., v)| v.vanishes());
    assert_eq!(
        lie.lie, poisson,
        "{label}: Lie ⟺ the bracket on D* is Poisson"
    );
    if system.scope.tangent {
        assert_eq!(
            lie.lie, lie.involutive,
            "{label}: on TQ, Lie ⟺ D involutive"
        );
    }
}

#[test]
fn lie_report_agrees_with_the_bracket_and_the_curvature() {
    let mut verdicts = Vec::new();
    for case in cases() {
        let d = derive(&case);
        if d.projected.is_err() {
            continue;
        }
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        check_report(&name, &d);
        let lie = &d.projected.as_ref().unwrap().lie;
        verdicts.push((name, lie.lie, lie.involutive));
    }
    // (golden, Lie, K ≡ 0), from digest 001 §1.9 and §3 and the goldens' hand derivations.
    for expected in [
        ("chaplygin_sleigh", true, false),
        ("chaplygin_sleigh_printed", true, false),
        ("snakeboard", false, false),
        ("nonholonomic_particle", false, false),
        ("nilpotent_realisation", false, false),
    ] {
        let found = verdicts.iter().find(|(n, ..)| n == expected.0);
        assert_eq!(
            found.map(|(n, l, i)| (n.as_str(), *l, *i)),
            Some(expected),
            "{verdicts:?}"
        );
    }
}
