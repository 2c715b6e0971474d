//! Seed 003 §5 (digest 003 recipe (c)): the goldens of `golden/vakonomic/`, derived by the
//! vakonomic route, to their committed artifacts, with every `expect` holding; and the two
//! routes through the mathematics proved equal on each — the explicit form on `(x, y^a, p_α)`
//! and the Hamiltonian form on `W_1 ≅ E*` (Theorem 5.6), through `p_a = ∂L̃/∂y^a − p_β ∂Ψ^β/∂y^a`;
//! the energy `H_{W_0}|_{W_1}` conserved and equal to `H_{W_1}` there. Then the issue's
//! comparison: vakonomic = nonholonomic for an integrable constraint, and not for the Martinet
//! distribution (whose nonholonomic motions are the vakonomic ones with `p3 = 0`).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use cas::Expr;

use super::{family, root};

fn vakonomic_cases() -> Vec<PathBuf> {
    family::cases("vakonomic", 2)
}

fn derive_source(source: &str) -> Box<dalembert::VakonomicDerivation> {
    match dalembert::compile_with(source, &dalembert::Options::default()) {
        Ok(dalembert::Derived::Vakonomic(d)) => d,
        Ok(_) => panic!("not derived as a vakonomic system"),
        Err(e) => panic!("{}", dalembert::render_plain("spec.mech", source, &e)),
    }
}

fn derive(case: &std::path::Path) -> Box<dalembert::VakonomicDerivation> {
    derive_source(&fs::read_to_string(case.join("spec.mech")).unwrap())
}

fn show(d: &dalembert::VakonomicDerivation, e: &Expr) -> String {
    cas::print::spec(e, &d.system)
}

#[test]
fn vakonomic_goldens_derive_to_their_committed_artifacts() {
    family::pass("vakonomic");
}

#[test]
fn vakonomic_expectations_hold() {
    family::expectations("vakonomic", 10);
}

#[test]
fn vakonomic_documents_compile_with_pdflatex() {
    family::documents_compile("vakonomic");
}

/// `d/dt f` along the explicit vakonomic equations.
fn along(d: &dalembert::VakonomicDerivation, f: &Expr) -> Expr {
    d.system.along(&d.vakonomic.state, &d.vakonomic.rates, f)
}

#[test]
fn vakonomic_explicit_and_hamiltonian_forms_agree() {
    for case in vakonomic_cases() {
        let d = derive(&case);
        let system = &d.system;
        let v = &d.vakonomic;
        let h = v
            .hamiltonian
            .as_ref()
            .expect("the goldens have a Hamiltonian form");
        let alg = &system.algebroid;
        // Φ: W_1 in the state (x, y^a, p_α) → (x, p_A).
        let to_state: BTreeMap<String, Expr> = v
            .free
            .iter()
            .map(|&a| (alg.momenta[a].clone(), v.momenta[a].clone()))
            .collect();
        for (c, rate) in h.coordinates.iter().zip(&h.rates) {
            let lhs = along(&d, &Expr::symbol(c).subs(&to_state));
            let rhs = rate.subs(&to_state);
            assert!(
                (lhs.clone() - rhs.clone()).vanishes(),
                "{}: d/dt {c} is {} by the explicit form, {} by Hamilton's",
                case.display(),
                show(&d, &lhs),
                show(&d, &rhs)
            );
        }
        // Multiplier form: d/dt p_a = F_a.
        for &a in &v.free {
            let difference = along(&d, &v.momenta[a]) - v.forces[a].clone();
            assert!(difference.vanishes(), "{}: d/dt p_{a}", case.display());
        }
        // The energy is H_W1 on W_1, and conserved (nothing depends on time).
        assert!((h.hamiltonian.subs(&to_state) - v.energy.clone()).vanishes());
        assert!(
            along(&d, &v.energy).vanishes(),
            "{}: energy",
            case.display()
        );
    }
}

/// The rates of `(x, y^a)` by Lagrange–d'Alembert, on the constraint surface.
fn nonholonomic_rates(source: &str, names: &[String]) -> Vec<Expr> {
    let d = dalembert::compile(source).unwrap();
    let surface = mech::check::Surface::new(&d.system);
    names
        .iter()
        .map(|name| {
            let k = d.equations.iter().position(|e| e.state == *name).unwrap();
            surface.restrict(&d.equations[k].rhs)
        })
        .collect()
}

/// Digest 003 §3.5 and the issue: for the integrable constraint `z' = x x'` (`z − x²/2` is
/// constant) the vakonomic `(x, x')` equations do not involve the multiplier and equal the
/// nonholonomic ones; for the Martinet distribution they involve `p3` and equal the
/// nonholonomic ones (`v' = y1' = 0`, with `l` extended by `½ y2²`) only at `p3 = 0`.
#[test]
fn vakonomic_equals_nonholonomic_exactly_when_the_constraint_is_integrable() {
    let integrable = "system bead\nparameters k\ncoordinates x, z\nalgebroid tangent\n\
                      lagrangian = (x'^2 + z'^2)/2 - k/2*(x^2 + z^2)\n";
    let vakonomic = derive_source(&format!(
        "{integrable}constraints vakonomic {{\n  z' = x*x'\n}}\n"
    ));
    let v = &vakonomic.vakonomic;
    assert_eq!(v.multipliers.len(), 1);
    let names = ["x".to_string(), vakonomic.system.symbols.velocity("x")];
    let nonholonomic = nonholonomic_rates(
        &format!("{integrable}constraints nonholonomic {{\n  z' = x*x'\n}}\n"),
        &names,
    );
    for (k, name) in names.iter().enumerate() {
        let i = v.state.iter().position(|s| s == name).unwrap();
        assert!(!v.rates[i].depends_on(&v.multipliers[0]), "{name}");
        assert!(
            (v.rates[i].clone() - nonholonomic[k].clone()).vanishes(),
            "{name}: {} vakonomic, {} nonholonomic",
            show(&vakonomic, &v.rates[i]),
            show(&vakonomic, &nonholonomic[k])
        );
    }

    let martinet = derive(&root().join("golden/vakonomic/martinet"));
    let source = fs::read_to_string(root().join("golden/vakonomic/martinet/spec.mech")).unwrap();
    let start = source.find("\nexpect").unwrap();
    let twin = source[..start]
        .replace("constraints vakonomic", "constraints nonholonomic")
        .replace(
            "lagrangian = (v^2 + y1^2)/2",
            "lagrangian = (v^2 + y1^2 + y2^2)/2",
        );
    let nonholonomic = nonholonomic_rates(&twin, &["v".to_string(), "y1".to_string()]);
    let v = &martinet.vakonomic;
    let p3: BTreeMap<String, Expr> = [("p3".to_string(), Expr::zero())].into();
    for (k, name) in ["v", "y1"].iter().enumerate() {
        let i = v.state.iter().position(|s| s == name).unwrap();
        assert!(v.rates[i].depends_on("p3"), "{name}");
        assert!(!(v.rates[i].clone() - nonholonomic[k].clone()).vanishes());
        assert!((v.rates[i].subs(&p3) - nonholonomic[k].clone()).vanishes());
    }
}

/// The energy rate the derivation reports (JSON `energy_rate`) is the conservation law of
/// Dynamical Systems 23 (2008) §5.1: `H_{W_0}|_{W_1}` is conserved when nothing depends on time,
/// which holds for every golden here (no time, no functions of time, no forces).
#[test]
fn vakonomic_reported_energy_rate_vanishes_on_autonomous_goldens() {
    for case in vakonomic_cases() {
        let d = derive(&case);
        let rate = d
            .energy_rate
            .as_ref()
            .expect("the energy rate fits its budget");
        assert!(
            rate.is_zero(),
            "{}: dH/dt = {}",
            case.display(),
            show(&d, rate)
        );
    }
}
