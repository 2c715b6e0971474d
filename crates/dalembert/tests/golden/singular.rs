//! Seed 003 §3.1 and §4 (digest 003 recipe (b), §4 items 6–7): the goldens of `golden/singular/`,
//! derived by the constraint algorithm, to their committed artifacts, with every `expect`
//! holding; and on each, a second route through the mathematics: the motion on the final
//! constraint set solves the Euler–Lagrange equations (2.9) of the original Lagrangian — written
//! `W ẏ = b` with the forcing `b` of `mech::lagrange::lagrangian`, not the `ω_L` the algorithm used —
//! keeps every constraint it found (the final set is invariant) and conserves `E_L`. Each holds
//! on the final set: after the substitution of the variables solved for, modulo the constraints
//! kept as equations (`cas::Ideal`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use cas::Expr;

use super::family;

fn singular_cases() -> Vec<PathBuf> {
    family::cases("singular", 4)
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
        let velocities = system.keys(&alg.velocities);
        let accelerations: Vec<Expr> = velocities.iter().map(rate_of).collect();
        for (k, q) in system.keys(&system.coordinates).iter().enumerate() {
            let admissible = (0..system.rank()).fold(Expr::zero(), |acc, b| {
                acc + alg.anchors[b][k + 1].clone() * system.expr(alg.velocities[b])
            });
            let difference = (rate_of(q) - admissible).subs(&a.solved).simplify();
            assert!(
                a.ideal.vanishes_on(&difference),
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
                a.ideal.vanishes_on(&residual),
                "{}: the Euler–Lagrange residual {} does not vanish",
                case.display(),
                cas::print::spec(&residual, &system)
            );
        }
        for step in &a.steps {
            for phi in &step.found {
                let rate = system
                    .keys(&system.coordinates)
                    .iter()
                    .chain(&velocities)
                    .fold(Expr::zero(), |acc, s| acc + phi.diff(s) * rate_of(s))
                    .subs(&a.solved)
                    .simplify();
                assert!(
                    a.ideal.vanishes_on(&rate),
                    "{}: a constraint is not kept",
                    case.display()
                );
            }
        }
        assert!(
            a.ideal.vanishes_on(&along(&d.lagrangian.energy)),
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

/// An expression of `d`'s system, typed as in a spec.
fn read(d: &dalembert::SingularDerivation, text: &str) -> Expr {
    d.system
        .scope
        .convert(
            &syntax::parse_expr(text).unwrap(),
            model::ScopeKind::Observable,
        )
        .unwrap()
}

/// `ω_l` of [IMMS08] Ex. 4.8, in the order `(𝒳_1, 𝒳_2, 𝒳_3, 𝒳_0, 𝒱_1, 𝒱_2, 𝒱_3, 𝒱_0)` (our
/// `e4` is the paper's `e_0`), no-½ wedge: `m₂ 𝒳³∧𝒱³ + m₂ρ² 𝒳⁰∧𝒱⁰ + w₃₀ 𝒳³∧𝒳⁰`, every other
/// entry zero.
fn capri_kobayashi_omega(d: &dalembert::SingularDerivation, w30: &str) -> Vec<Vec<Expr>> {
    let mut omega = vec![vec![Expr::zero(); 8]; 8];
    for (a, b, value) in [(2, 6, "m2"), (3, 7, "m2*rho^2"), (2, 3, w30)] {
        omega[a][b] = read(d, value);
        omega[b][a] = -read(d, value);
    }
    omega
}

/// Whether `expected` is `Ω_L` without its time row (seed 003's `ω_L`).
fn is_omega(d: &dalembert::SingularDerivation, expected: &[Vec<Expr>]) -> bool {
    (0..8).all(|p| {
        (0..8)
            .all(|q| (d.lagrangian.omega[p + 1][q + 1].clone() - expected[p][q].clone()).vanishes())
    })
}

/// [IMMS08] Ex. 4.8, what its expect blocks cannot say (the singular route answers only
/// `constraint_algorithm` and `singular_equations`), checked against the paper's values:
/// - `ω_l` with the cross term corrected to `−2ρ(m₂r + 1)` (digest 003 T4: the printed
///   `−ρ(m₂r + 2)` is refused), `W = diag(0, 0, m₂, m₂ρ²)`;
/// - `E_l = ½m₂(ρ̇² + ρ²r²) + x₁² + y₁² + ρ²` and
///   `dE_l = 2x₁𝒳¹ + 2y₁𝒳² + (m₂ρr² + 2ρ)𝒳³ + m₂ρ̇𝒱³ + m₂ρ²r𝒱⁰`;
/// - the Legendre map `(0, 0, m₂ρ̇, m₂ρ²r + ρ²)`, so `M₁ = {p_{x₁} = p_{y₁} = 0}` of dimension 5;
/// - the Hamiltonian side, which dalembert does not derive: the paper's
///   `h = p_ρ²/(2m₂) + (p_r − ρ²)²/(2m₂ρ²) + x₁² + y₁² + ρ²` satisfies `h ∘ leg = E_l`, and its
///   algorithm (`ker Ω₁ = span{𝒴₁, 𝒴₂}`) gives the constraints `dh(𝒴₁) = 2x₁`, `dh(𝒴₂) = 2y₁`:
///   the primary constraints the Lagrangian algorithm found, so `M₂ = leg(E₁)`, final, of
///   dimension 3 — the dimension of the final set `S^X` the algorithm reports.
#[test]
fn singular_capri_kobayashi_has_the_papers_omega_energy_legendre_map_and_hamiltonian() {
    let d = derive(&super::root().join("golden/singular/capri_kobayashi"));
    let lag = &d.lagrangian;
    assert!(is_omega(
        &d,
        &capri_kobayashi_omega(&d, "-2*rho*(m2*r + 1)")
    ));
    assert!(
        !is_omega(&d, &capri_kobayashi_omega(&d, "-rho*(m2*r + 2)")),
        "the printed cross term of omega_l must be refused"
    );
    for (a, row) in lag.hessian.iter().enumerate() {
        for (b, w) in row.iter().enumerate() {
            let expected = match (a, b) {
                (2, 2) => read(&d, "m2"),
                (3, 3) => read(&d, "m2*rho^2"),
                _ => Expr::zero(),
            };
            assert!((w.clone() - expected).vanishes(), "W_{a}{b}");
        }
    }
    let energy = read(&d, "m2/2*(vrho^2 + rho^2*r^2) + x1^2 + y1^2 + rho^2");
    assert!((lag.energy.clone() - energy).vanishes(), "E_l");
    // dE_l on (X1, X2, X3, X0): rho_A(E_l), on (V1, V2, V3, V0): dE_l/dy^A.
    let d_energy = ["2*x1", "2*y1", "rho*(m2*r^2 + 2)", "0"];
    for (a, value) in d_energy.iter().enumerate() {
        let derived = mech::base::algebra::anchor_apply(&d.system, a + 1, &lag.energy);
        assert!((derived - read(&d, value)).vanishes(), "dE_l(X_{a})");
    }
    let d_energy = ["0", "0", "m2*vrho", "m2*rho^2*r"];
    for (velocity, value) in d
        .system
        .keys(&d.system.algebroid.velocities)
        .iter()
        .zip(d_energy)
    {
        assert!(
            (lag.energy.diff(velocity) - read(&d, value)).vanishes(),
            "dE_l(V)"
        );
    }
    let legendre = ["0", "0", "m2*vrho", "m2*rho^2*r + rho^2"];
    for (p, value) in lag.momenta.iter().zip(legendre) {
        assert!((p.clone() - read(&d, value)).vanishes(), "leg_l");
    }
    // M1 has dimension 5: (p_rho, p_r) has rank 2 in (vrho, r).
    let (p_rho, p_r) = (&lag.momenta[2], &lag.momenta[3]);
    let jacobian = p_rho.diff("vrho") * p_r.diff("r") - p_rho.diff("r") * p_r.diff("vrho");
    assert!(!jacobian.vanishes(), "dim M1 = 5");
    // h on M1, through the Legendre map.
    let rho2 = read(&d, "rho^2");
    let m2 = read(&d, "m2");
    let two = Expr::int(2);
    let shifted = p_r.clone() - rho2.clone();
    let h_of_leg = p_rho.clone() * p_rho.clone() / (two.clone() * m2.clone())
        + shifted.clone() * shifted / (two * m2 * rho2)
        + read(&d, "x1^2 + y1^2 + rho^2");
    assert!((h_of_leg - lag.energy.clone()).vanishes(), "h o leg = E_l");
    // The Hamiltonian algorithm's constraints dh(Y1) = 2 x1, dh(Y2) = 2 y1 are the primary
    // constraints found on the Lagrangian side (up to a constant factor).
    let found = &d.algorithm.steps[0].found;
    assert_eq!(found.len(), 2);
    for (phi, hamiltonian) in found.iter().zip(["2*x1", "2*y1"]) {
        let ratio = (read(&d, hamiltonian) / phi.clone()).simplify();
        assert!(ratio.as_small_rational().is_some(), "M2 = leg(E1)");
    }
    assert_eq!(d.algorithm.level, 1);
    assert_eq!(d.algorithm.state.len(), 3, "dim S^X = dim M2 = 3");
}

/// The spherical pendulum with its rod force τ as a coordinate (`golden/singular/spherical_pendulum`,
/// notes.md): the Hamiltonian side against the hand derivation. Primary `p_τ`, then `r² − l²`,
/// `x·p` and `|p|²/m − m g z − τ r²`, the last round fixing the multiplier `u = −3 g p_z/l²`; all
/// four second class, none first class; the Dirac bracket `{x_i, p_j}_D = δ_ij − x_i x_j/r²`,
/// `{p_i, p_j}_D = (x_j p_i − x_i p_j)/r²`, `{x_i, x_j}_D = 0` (on the set, r² = l²); its
/// Jacobiator zero; and `Ḟ = {F, H}_D` equal to the Lagrangian side's motion through `p = m v`
/// (a second route: the Lagrangian algorithm never sees a momentum).
#[test]
fn singular_spherical_pendulum_has_the_hand_derived_dirac_bracket() {
    let d = derive(&super::root().join("golden/singular/spherical_pendulum"));
    let h = d
        .hamiltonian
        .as_ref()
        .expect("the Hamiltonian side is derived");
    let a = &d.algorithm;
    let momenta = d.system.keys(&d.system.algebroid.momenta);
    let (px, py, pz, ptau) = (&momenta[0], &momenta[1], &momenta[2], &momenta[3]);
    let e = |text: &str| {
        let text = text
            .replace("PX", px)
            .replace("PY", py)
            .replace("PZ", pz)
            .replace("PT", ptau);
        if text.contains('\'') {
            read(&d, &text)
        } else {
            d.system
                .scope
                .convert(&syntax::parse_expr(&text).unwrap(), model::ScopeKind::Phase)
                .unwrap()
        }
    };
    // On the final set of the Hamiltonian side: its kept constraints r² − l², x·p.
    let mut ideal = cas::Ideal::new(
        ["x", "y", "z", px.as_str(), py.as_str(), pz.as_str()]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    ideal.insert(&e("x^2 + y^2 + z^2 - l^2")).unwrap();
    ideal.insert(&e("x*PX + y*PY + z*PZ")).unwrap();
    let on_set =
        |value: &Expr, expected: &Expr| ideal.vanishes_on(&(value.clone() - expected.clone()));
    // The rounds: each expected constraint holds exactly from its round on (up to a factor).
    let expected_rounds = [
        "PT",
        "x^2 + y^2 + z^2 - l^2",
        "x*PX + y*PY + z*PZ",
        "(PX^2 + PY^2 + PZ^2)/m - m*g*z - tau*(x^2 + y^2 + z^2)",
    ];
    assert_eq!(h.rounds.len(), 4, "four rounds: {:?}", h.rounds);
    for (round, expected) in h.rounds.iter().zip(expected_rounds) {
        assert_eq!(round.len(), 1);
        let ratio = (round[0].clone() / e(expected)).simplify();
        assert!(
            ratio.symbols().is_empty()
                || ratio
                    .symbols()
                    .iter()
                    .all(|s| ["m", "l", "g"].contains(&s.as_str())),
            "round constraint {} is not a constant multiple of {expected}",
            cas::print::spec(&round[0], &d.system)
        );
    }
    assert_eq!(h.multipliers.len(), 1);
    let u = h.multipliers[0].as_ref().expect("u is fixed");
    assert!(
        on_set(u, &e("-3*g*PZ/l^2")),
        "u = {}",
        cas::print::spec(u, &d.system)
    );
    assert_eq!(h.second_class.len(), 4, "all four second class");
    assert!(h.first_class.is_empty(), "no first class");
    // The Dirac bracket table, by hand.
    let coordinates = ["x", "y", "z"];
    let expected_bracket = |f: &str, g: &str| -> Option<String> {
        let ci = coordinates.iter().position(|c| *c == f);
        let cj = coordinates.iter().position(|c| *c == g);
        let pi = [px, py, pz].iter().position(|p| p.as_str() == f);
        let pj = [px, py, pz].iter().position(|p| p.as_str() == g);
        let p = ["PX", "PY", "PZ"];
        match (ci, cj, pi, pj) {
            (Some(_), Some(_), _, _) => Some("0".into()),
            (Some(i), _, _, Some(j)) => Some(format!(
                "{} - {}*{}/l^2",
                if i == j { 1 } else { 0 },
                coordinates[i],
                coordinates[j]
            )),
            (_, Some(j), Some(i), _) => Some(format!(
                "-({} - {}*{}/l^2)",
                if i == j { 1 } else { 0 },
                coordinates[j],
                coordinates[i]
            )),
            (_, _, Some(i), Some(j)) => Some(format!(
                "({}*{} - {}*{})/l^2",
                coordinates[j], p[i], coordinates[i], p[j]
            )),
            _ => None,
        }
    };
    let mut checked = 0;
    for ((f, g), value) in &h.dirac {
        let Some(expected) = expected_bracket(f, g) else {
            continue;
        };
        assert!(
            on_set(value, &e(&expected)),
            "{{{f}, {g}}}_D = {}, expected {expected}",
            cas::print::spec(value, &d.system)
        );
        checked += 1;
    }
    assert_eq!(checked, 15, "every pair of (x, y, z, px, py, pz)");
    let jacobiator = h
        .jacobiator
        .as_ref()
        .expect("the Jacobiator fits its budget");
    assert!(!jacobiator.is_empty());
    for ((f, g, k), value) in jacobiator {
        assert!(
            value.is_zero(),
            "J({f}, {g}, {k}) = {}",
            cas::print::spec(value, &d.system)
        );
    }
    // Ḟ = {F, H}_D against the Lagrangian motion through p = m v (and the Lagrangian side's own
    // expected form, m ẍ = −τ x with τ = m(|v|² − g z)/l²).
    let legendre: std::collections::BTreeMap<String, Expr> = [
        (px.clone(), e("m*x'")),
        (py.clone(), e("m*y'")),
        (pz.clone(), e("m*z'")),
    ]
    .into();
    let lagrangian_ideal = &a.ideal;
    for (name, rate) in h.state.iter().zip(&h.rates) {
        let lagrangian = match name.as_str() {
            "x" | "y" | "z" => Some(e(&format!("{name}'"))),
            n if n == px => Some(e("-m*x*(x'^2 + y'^2 + z'^2 - g*z)/l^2")),
            n if n == py => Some(e("-m*y*(x'^2 + y'^2 + z'^2 - g*z)/l^2")),
            n if n == pz => Some(e("-m*z*(x'^2 + y'^2 + z'^2 - g*z)/l^2 - m*g")),
            _ => None,
        };
        let Some(lagrangian) = lagrangian else {
            continue;
        };
        let difference = (rate.subs(&legendre) - lagrangian).simplify();
        assert!(
            lagrangian_ideal.vanishes_on(&difference),
            "{name}' = {} on the Hamiltonian side",
            cas::print::spec(rate, &d.system)
        );
    }
    assert_eq!(
        h.state.len(),
        6,
        "x, y, z and their momenta remain: {:?}",
        h.state
    );
    // Which accelerations each round fixes (notes.md): step 1 the Newton equations, step 4 (which
    // finds nothing new) tau' = -3 m g z'/l^2, the SODE step tau'' = 3 m g (g (x^2 + y^2) + z |v|^2)/l^4.
    use mech::singular::algorithm::{StepKind, Unknown};
    let fixed = |kind: StepKind, unknown: Unknown| -> Expr {
        a.fixed
            .iter()
            .filter(|f| f.kind == kind)
            .flat_map(|f| &f.values)
            .find(|(u, _)| *u == unknown)
            .unwrap_or_else(|| panic!("{kind:?} does not fix {unknown:?}: {:?}", a.fixed))
            .1
            .clone()
    };
    for (kind, unknown, expected) in [
        (StepKind::Consistency(1), Unknown::Vertical(0), "-tau*x/m"),
        (
            StepKind::Consistency(1),
            Unknown::Vertical(2),
            "-g - tau*z/m",
        ),
        (
            StepKind::Consistency(4),
            Unknown::Horizontal(3),
            "-3*m*g*z'/l^2",
        ),
        (
            StepKind::Sode,
            Unknown::Vertical(3),
            "3*m*g*(g*(x^2 + y^2) + z*(x'^2 + y'^2 + z'^2))/l^4",
        ),
    ] {
        let value = fixed(kind, unknown);
        let difference = (value.clone() - e(expected)).subs(&a.solved).simplify();
        assert!(
            lagrangian_ideal.vanishes_on(&difference),
            "{kind:?} fixes {unknown:?} = {}, expected {expected}",
            cas::print::spec(&value, &d.system)
        );
    }
}

/// The emitted C of the spherical pendulum, integrated: RK4 (h = 10⁻³, 10⁴ steps) from a state
/// 10⁻³ off the kept constraints, projected onto them (`project_position`, `project_velocity`)
/// before the first step and after each. By hand (notes.md): the sphere and its tangency stay
/// below 10⁻⁹, the energy `m/2 |v|² + m g z` and the vertical angular momentum `m (x ẏ − y ẋ)` are
/// constant to the integrator's accuracy.
#[test]
fn singular_spherical_pendulum_code_projects_and_conserves() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("dalembert-singular-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source =
        std::fs::read_to_string(super::root().join("golden/singular/spherical_pendulum/spec.mech"))
            .unwrap();
    let derived = dalembert::compile_with(&source, &dalembert::Options::default()).unwrap();
    for a in dalembert::render_derived(
        &derived,
        &[dalembert::Target::C],
        dalembert::CodeOptions::default(),
    )
    .unwrap()
    {
        std::fs::write(dir.join(&a.file_name), &a.contents).unwrap();
    }
    // m, g, l; a point 1e-3 off the sphere of radius 1.3, moving off its tangent plane.
    let harness = r#"#include <math.h>
#include <stdio.h>
#include "spherical_pendulum.h"
static const dalembert_real P[] = {0.7, 9.81, 1.3};
static dalembert_real energy[2], pos[1], acc[1];
static void rate(double t, const dalembert_real *x, dalembert_real *k) {
    if (spherical_pendulum_dynamics(t, x, P, NULL, NULL, k, energy, pos, acc) != 0) printf("singular\n");
}
static void project(dalembert_real *x) {
    dalembert_real y[6];
    if (spherical_pendulum_project_position(0, x, P, NULL, NULL, y) != 0) printf("singular\n");
    if (spherical_pendulum_project_velocity(0, y, P, NULL, NULL, x) != 0) printf("singular\n");
}
static double residuals(const dalembert_real *x, double *tangency) {
    dalembert_real c[1], j[3];
    spherical_pendulum_velocity_constraints(0, x, P, NULL, NULL, c, j);
    *tangency = fabs(c[0]);
    spherical_pendulum_position_constraints(0, x, P, NULL, NULL, c, j);
    return fabs(c[0]);
}
int main(void) {
    dalembert_real x[6] = {0.6 + 1e-3, 0.5, -1.0, 0.9, -0.4, 0.3}, k1[6], k2[6], k3[6], k4[6], tmp[6];
    double t = 0, dt = 1e-3, fmax = 0, vmax = 0, v, e0, l0;
    for (int i = 0; i < 3; i++) project(x);
    rate(0, x, k1);
    e0 = energy[0];
    l0 = P[0] * (x[0] * x[4] - x[1] * x[3]);
    for (int s = 0; s < 10000; s++) {
        rate(t, x, k1);
        for (int i = 0; i < 6; i++) tmp[i] = x[i] + 0.5 * dt * k1[i];
        rate(t + 0.5 * dt, tmp, k2);
        for (int i = 0; i < 6; i++) tmp[i] = x[i] + 0.5 * dt * k2[i];
        rate(t + 0.5 * dt, tmp, k3);
        for (int i = 0; i < 6; i++) tmp[i] = x[i] + dt * k3[i];
        rate(t + dt, tmp, k4);
        for (int i = 0; i < 6; i++) x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += dt;
        project(x);
        if (residuals(x, &v) > fmax) fmax = residuals(x, &v);
        if (v > vmax) vmax = v;
    }
    rate(t, x, k1);
    printf("run %.17g %.17g %.17g %.17g %.17g %.17g\n", fmax, vmax, e0, (double)energy[0], l0,
           P[0] * (x[0] * x[4] - x[1] * x[3]));
    return 0;
}
"#;
    std::fs::write(dir.join("sphere.c"), harness).unwrap();
    let exe = dir.join("sphere");
    let gcc = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
        .arg(&exe)
        .arg(dir.join("sphere.c"))
        .arg(dir.join("spherical_pendulum.c"))
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        gcc.status.success(),
        "{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    let out = String::from_utf8_lossy(&Command::new(&exe).output().unwrap().stdout).into_owned();
    assert!(!out.contains("singular"), "{out}");
    let v: Vec<f64> = out
        .lines()
        .find_map(|l| l.strip_prefix("run "))
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (sphere, tangency, e0, e1, l0, l1) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    println!("spherical pendulum: max |f| = {sphere:e}, max |x.v| = {tangency:e}, E {e0} -> {e1}, Lz {l0} -> {l1}");
    assert!(
        sphere < 1e-9 && tangency < 1e-9,
        "drift {sphere}, {tangency}"
    );
    assert!((e1 - e0).abs() < 1e-8 * e0.abs().max(1.0), "E {e0} -> {e1}");
    assert!(
        (l1 - l0).abs() < 1e-8 * l0.abs().max(1.0),
        "Lz {l0} -> {l1}"
    );
}

/// The link rung for the singular goldens: the emitted C compiles with `gcc -std=c99 -Wall
/// -Wextra -Werror -pedantic` in `double` and `float`, the emitted Rust with `rustc -D warnings`
/// (the projection functions of the kept constraints among them).
#[test]
fn singular_emitted_code_compiles_warning_free() {
    family::code_compiles("singular");
}
