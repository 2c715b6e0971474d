//! Holonomic constraints in emitted code: on every golden with `constraints holonomic`, the C that
//! dalembert emits is integrated with the projections it emits, and the theory of
//! `docs/conventions.md` ("Holonomic constraints") is checked on the numbers:
//!
//! - from a guess 10⁻³ off the constraints, `project_position` then `project_velocity` land on
//!   `f = 0` and `Ψ = 0` to round-off;
//! - RK4 over 10⁴ steps, projecting after each step, keeps `|f|` and `|Ψ|` under 10⁻⁹ and the
//!   acceleration-level residual `dΨ/dt` (of the computed rates) at round-off;
//! - the energy follows its balance law: `E(T) − E(0) = ∫ dE/dt` with the derived rate (zero for
//!   the double pendulum, the crank's power `τ θ̇₁` for the four-bar, the motor's power for the
//!   hoop), to integrator accuracy.
//!
//! The starting points are built from the geometry (angles and rates), not from dalembert.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use dalembert::{Options, Solve, Target};

use super::root;

/// One case: the golden, its parameter values in the spec's order, the inputs, and a point on
/// the constraints (coordinates then velocities) from the geometry.
struct Case {
    golden: &'static str,
    /// The route the golden is derived by (`golden/implicit/` cases: the implicit form).
    solve: Solve,
    parameters: Vec<f64>,
    inputs: Vec<f64>,
    on_constraints: Vec<f64>,
}

fn double_pendulum() -> Case {
    let (m1, m2, l1, l2, g) = (1.0, 1.5, 1.0, 0.7, 9.81);
    let (a1, a2, w1, w2): (f64, f64, f64, f64) = (0.9, -0.4, 0.5, -1.2);
    let (x1, y1) = (l1 * a1.sin(), -l1 * a1.cos());
    let (x2, y2) = (x1 + l2 * a2.sin(), y1 - l2 * a2.cos());
    let (vx1, vy1) = (l1 * a1.cos() * w1, l1 * a1.sin() * w1);
    let (vx2, vy2) = (vx1 + l2 * a2.cos() * w2, vy1 + l2 * a2.sin() * w2);
    Case {
        golden: "double_pendulum_cartesian",
        solve: Solve::Auto,
        parameters: vec![m1, m2, l1, l2, g],
        inputs: vec![],
        on_constraints: vec![x1, y1, x2, y2, vx1, vy1, vx2, vy2],
    }
}

fn hoop() -> Case {
    let (m, g, r, omega) = (1.0, 9.81, 0.5, 6.0);
    Case {
        golden: "hoop_rotating",
        solve: Solve::Auto,
        parameters: vec![m, g, r, omega],
        inputs: vec![],
        on_constraints: vec![r, 0.4, 0.0, 0.0, 0.3, omega],
    }
}

/// The four-bar closed by intersecting the coupler's circle about the crank tip with the rocker's
/// circle about its pivot; the crank turns at 1 rad/s and the other rates are left to
/// `project_velocity` (so the guess is off the velocity constraints by O(1)).
fn four_bar() -> Case {
    let (j1, j2, j3, l0, l1, l2, l3) = (0.02, 0.05, 0.03, 2.0, 0.5, 2.0, 1.0);
    let theta1: f64 = 0.3;
    let (px, py) = (l1 * theta1.cos(), l1 * theta1.sin());
    let (dx, dy) = (l0 - px, -py);
    let d = (dx * dx + dy * dy).sqrt();
    let a = (l2 * l2 - l3 * l3 + d * d) / (2.0 * d);
    let h = (l2 * l2 - a * a).sqrt();
    let (cx, cy) = (px + a * dx / d - h * dy / d, py + a * dy / d + h * dx / d);
    let theta2 = (cy - py).atan2(cx - px);
    let theta3 = cy.atan2(cx - l0);
    Case {
        golden: "implicit/four_bar",
        solve: Solve::Numeric,
        parameters: vec![j1, j2, j3, l0, l1, l2, l3],
        inputs: vec![0.02],
        on_constraints: vec![theta1, theta2, theta3, 1.0, 0.0, 0.0],
    }
}

fn c_list(values: &[f64]) -> String {
    if values.is_empty() {
        return "0".into();
    }
    values
        .iter()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The start of a C harness: the includes, the parameters `P` and inputs `U` of `case`, and the
/// outputs of `dynamics` as globals (`lambda`, `psi`, `energy`, `pos`, `acc`).
fn c_prelude(name: &str, case: &Case, (r_h, r): (usize, usize)) -> String {
    format!(
        "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#include \"{name}.h\"\n\
         static const dalembert_real P[] = {{{}}};\n\
         static const dalembert_real U[] = {{{}}};\n\
         static dalembert_real lambda[{r}], psi[{r}], energy[2], pos[{r_h}], acc[{r}];\n",
        c_list(&case.parameters),
        c_list(&case.inputs)
    )
}

/// The harness: project the guess, then RK4 with projection after each step, tracking the
/// residuals of all three levels and the energy balance.
fn harness(name: &str, case: &Case, (r_h, r): (usize, usize), steps: usize, dt: f64) -> String {
    let nx = case.on_constraints.len();
    let guess: Vec<f64> = case
        .on_constraints
        .iter()
        .enumerate()
        .map(|(k, v)| v + 1e-3 * (1.0 + k as f64 / 7.0))
        .collect();
    let mut h = c_prelude(name, case, (r_h, r));
    writeln!(
        h,
        r#"static void rate(double t, const dalembert_real *x, dalembert_real *k) {{
    if ({name}_dynamics(t, x, P, U, NULL, k, lambda, psi, energy, pos, acc) != 0) printf("singular\n");
    k[{nx}] = energy[1];
}}
static void project(double t, dalembert_real *x) {{
    dalembert_real y[{nx}];
    if ({name}_project_position(t, x, P, U, NULL, y) != 0) printf("singular\n");
    if ({name}_project_velocity(t, y, P, U, NULL, x) != 0) printf("singular\n");
}}
static double worst(const dalembert_real *v, int n) {{
    double w = 0;
    for (int i = 0; i < n; i++) if (fabs(v[i]) > w) w = fabs(v[i]);
    return w;
}}
int main(void) {{
    dalembert_real x[{n1}] = {{{guess}}}, k1[{n1}], k2[{n1}], k3[{n1}], k4[{n1}], tmp[{n1}], xdot[{n1}];
    double t = 0, dt = {dt:?}, e0, fmax = 0, psimax = 0, accmax = 0;
    x[{nx}] = 0;
    for (int i = 0; i < 3; i++) project(0, x);
    rate(0, x, xdot);
    printf("projected %.17g %.17g\n", worst(pos, {r_h}), worst(psi, {r}));
    e0 = energy[0];
    for (int s = 0; s < {steps}; s++) {{
        rate(t, x, k1);
        for (int i = 0; i < {n1}; i++) tmp[i] = x[i] + 0.5 * dt * k1[i];
        rate(t + 0.5 * dt, tmp, k2);
        for (int i = 0; i < {n1}; i++) tmp[i] = x[i] + 0.5 * dt * k2[i];
        rate(t + 0.5 * dt, tmp, k3);
        for (int i = 0; i < {n1}; i++) tmp[i] = x[i] + dt * k3[i];
        rate(t + dt, tmp, k4);
        for (int i = 0; i < {n1}; i++) x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += dt;
        project(t, x);
        rate(t, x, xdot);
        if (worst(pos, {r_h}) > fmax) fmax = worst(pos, {r_h});
        if (worst(psi, {r}) > psimax) psimax = worst(psi, {r});
        if (worst(acc, {r}) > accmax) accmax = worst(acc, {r});
    }}
    printf("run %.17g %.17g %.17g %.17g %.17g %.17g\n", fmax, psimax, accmax, e0, (double)energy[0], (double)x[{nx}]);
    return 0;
}}"#,
        n1 = nx + 1,
        guess = c_list(&guess),
    )
    .unwrap();
    h
}

/// Runs a command that must succeed; its standard output.
pub(super) fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn numbers(out: &str, label: &str) -> Vec<f64> {
    out.lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in\n{out}"))
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn check(case: Case, dir: &Path) {
    let source = fs::read_to_string(root().join("golden").join(case.golden).join("spec.mech"))
        .expect("the golden's spec");
    let options = Options {
        solve: case.solve,
        ..Default::default()
    };
    let derived = dalembert::compile_with(&source, &options).expect("derives");
    let system = derived.system();
    let name = system.name.clone();
    let (r_h, r) = (system.holonomic().len(), system.constraints.len());
    assert!(r_h > 0, "{name} has holonomic constraints");
    let artifacts =
        dalembert::render_derived(&derived, &[Target::C], dalembert::CodeOptions::default())
            .expect("renders");
    for a in &artifacts {
        fs::write(dir.join(&a.file_name), &a.contents).unwrap();
    }
    let (steps, dt) = (10_000, 1e-3);
    fs::write(
        dir.join("harness.c"),
        harness(&name, &case, (r_h, r), steps, dt),
    )
    .unwrap();
    let exe = dir.join(format!("{name}-holonomic"));
    run(
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
            .arg(&exe)
            .arg(dir.join("harness.c"))
            .arg(dir.join(format!("{name}.c")))
            .arg("-lm"),
        &format!("gcc {name}"),
    );
    let out = run(&mut Command::new(&exe), &format!("run {name}"));
    assert!(!out.contains("singular"), "{name}: a solve failed:\n{out}");
    let projected = numbers(&out, "projected");
    assert!(
        projected.iter().all(|v| *v <= 1e-12),
        "{name}: after projecting the guess, |f|, |Psi| = {projected:?}"
    );
    let v = numbers(&out, "run");
    let (drift, psi, acc, e0, e1, work) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    println!(
        "{name}: after projection |f|, |Psi| = {projected:?}; over {steps} steps max |f| = {drift:e}, max |Psi| = {psi:e}, max |dPsi/dt| = {acc:e}; E {e0} -> {e1}, integral of dE/dt {work}"
    );
    assert!(
        drift < 1e-9,
        "{name}: position drift {drift} after {steps} steps"
    );
    assert!(
        psi < 1e-9,
        "{name}: velocity residual {psi} after {steps} steps"
    );
    assert!(acc < 1e-8, "{name}: acceleration residual {acc}");
    let balance = e1 - e0 - work;
    assert!(
        balance.abs() <= 1e-8 * e0.abs().max(work.abs()).max(1.0),
        "{name}: E(T) - E(0) = {} against the integral of the derived rate {work}",
        e1 - e0
    );
}

#[test]
fn holonomic_emitted_code_projects_onto_the_constraints_and_keeps_the_energy_balance() {
    let dir = std::env::temp_dir().join(format!("dalembert-holonomic-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for case in [double_pendulum(), hoop(), four_bar()] {
        check(case, &dir);
    }
}

/// The four-bar's implicit form `W a + μᵀ λ = b`, `μ a = β` (the form its emitted code solves)
/// against the hand derivation of `golden/implicit/four_bar/notes.md`, at random states:
/// `W = diag(J1, J2, J3)`, `b = (τ, 0, 0)`,
/// `μ = [[−l1 s1, −l2 s2, l3 s3], [l1 c1, l2 c2, −l3 c3]]`,
/// `β = (l1 c1 θ̇1² + l2 c2 θ̇2² − l3 c3 θ̇3², l1 s1 θ̇1² + l2 s2 θ̇2² − l3 s3 θ̇3²)`.
#[test]
fn holonomic_the_four_bar_implicit_form_is_the_hand_derived_one() {
    let source = fs::read_to_string(root().join("golden/implicit/four_bar/spec.mech")).unwrap();
    let options = Options {
        solve: Solve::Numeric,
        ..Default::default()
    };
    let dalembert::Derived::Implicit(d) = dalembert::compile_with(&source, &options).unwrap()
    else {
        panic!("the implicit form was requested");
    };
    let system = &d.system;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for _ in 0..5 {
        let mut values = std::collections::BTreeMap::new();
        let names: Vec<String> = system
            .keys(&system.parameters)
            .into_iter()
            .chain(system.keys(&system.inputs))
            .chain(system.keys(&system.coordinates))
            .chain(system.keys(&system.algebroid.velocities))
            .collect();
        for name in &names {
            values.insert(name.clone(), 1.5 + next());
        }
        let v = |name: &str| values[name];
        let y = |k: usize| values[&system.key(system.algebroid.velocities[k])];
        let (l1, l2, l3) = (v("l1"), v("l2"), v("l3"));
        let (t1, t2, t3) = (v("theta1"), v("theta2"), v("theta3"));
        let mass = [
            [v("J1"), 0.0, 0.0],
            [0.0, v("J2"), 0.0],
            [0.0, 0.0, v("J3")],
        ];
        let forcing = [v("tau"), 0.0, 0.0];
        let mu = [
            [-l1 * t1.sin(), -l2 * t2.sin(), l3 * t3.sin()],
            [l1 * t1.cos(), l2 * t2.cos(), -l3 * t3.cos()],
        ];
        let bias = [
            l1 * t1.cos() * y(0).powi(2) + l2 * t2.cos() * y(1).powi(2)
                - l3 * t3.cos() * y(2).powi(2),
            l1 * t1.sin() * y(0).powi(2) + l2 * t2.sin() * y(1).powi(2)
                - l3 * t3.sin() * y(2).powi(2),
        ];
        let at = |e: &cas::Expr| e.evaluate(&values).expect("evaluates");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + b.abs());
        for (i, row) in mass.iter().enumerate() {
            assert!(close(at(&d.implicit.forcing[i]), forcing[i]), "b[{i}]");
            for (j, value) in row.iter().enumerate() {
                assert!(close(at(&d.implicit.mass[i][j]), *value), "W[{i}][{j}]");
            }
        }
        for (a, row) in mu.iter().enumerate() {
            assert!(close(at(&d.implicit.bias[a]), bias[a]), "beta[{a}]");
            for (j, value) in row.iter().enumerate() {
                assert!(
                    close(at(&d.implicit.jacobian[a][j]), *value),
                    "mu[{a}][{j}]"
                );
            }
        }
    }
}

/// The holonomic route and the nonholonomic one agree where a system can be written both ways:
/// each golden's `constraints holonomic { f = 0 }`, rewritten by hand as
/// `constraints nonholonomic { ḟ = 0 }`, gives the same equations, multipliers, constraint
/// matrix and energy rate, identically (not only on the constraints).
#[test]
fn holonomic_constraints_agree_with_their_derivatives_entered_as_nonholonomic() {
    let cases = [
        (
            "double_pendulum_cartesian",
            "constraints holonomic {\n  x1^2 + y1^2 = l1^2\n  (x2 - x1)^2 + (y2 - y1)^2 = l2^2\n}",
            "constraints nonholonomic {\n  2*(x1*x1' + y1*y1') = 0\n  2*((x2 - x1)*(x2' - x1') + (y2 - y1)*(y2' - y1')) = 0\n}",
        ),
        (
            "hoop_rotating",
            "constraints holonomic {\n  r = R\n  phi = omega*t\n}",
            "constraints nonholonomic {\n  r' = 0\n  phi' = omega\n}",
        ),
    ];
    for (golden, holonomic, derivative) in cases {
        let source =
            fs::read_to_string(root().join("golden").join(golden).join("spec.mech")).unwrap();
        assert!(
            source.contains(holonomic),
            "{golden}: the constraints as written"
        );
        let written_as_rates = source.replace(holonomic, derivative);
        let a = dalembert::compile(&source).expect("the holonomic form derives");
        let b = dalembert::compile(&written_as_rates).expect("the nonholonomic form derives");
        assert_eq!(a.system.holonomic().len(), a.system.constraints.len());
        assert!(b.system.holonomic().is_empty());
        let same = |what: &str, x: &[cas::Expr], y: &[cas::Expr]| {
            assert_eq!(x.len(), y.len(), "{golden}: {what}");
            for (k, (u, v)) in x.iter().zip(y).enumerate() {
                assert!(
                    (u.clone() - v.clone()).simplify().is_zero(),
                    "{golden}: {what}[{k}] differs: {} against {}",
                    dalembert::show(&a, u),
                    dalembert::show(&b, v)
                );
            }
        };
        same("the rates", &a.rates(), &b.rates());
        same("the multipliers", a.multipliers(), b.multipliers());
        let matrix = |d: &dalembert::Derivation| -> Vec<cas::Expr> {
            d.nonholonomic
                .as_ref()
                .expect("constrained")
                .matrix
                .iter()
                .flatten()
                .cloned()
                .collect()
        };
        same("the constraint matrix", &matrix(&a), &matrix(&b));
        same("the energy", &[a.energy()], &[b.energy()]);
    }
}

/// Baumgarte stabilisation (`--baumgarte ALPHA,BETA`), on the closed route (the double pendulum)
/// and the implicit one (the four-bar): integrated without projection from a start 10⁻³ off
/// `f = 0`, the plain code keeps the offset (`f` is a constant of the index-reduced motion) while
/// the stabilised code drives it to zero (`f̈ + 2α ḟ + β² f = 0` with α = β = 5 decays like
/// `t e^{−5t}`); from a start on the constraints both follow the same motion (compared over 2 s:
/// the double pendulum is chaotic, and round-off grows over longer horizons).
#[test]
fn holonomic_baumgarte_stabilisation_pulls_a_drift_back_and_leaves_the_motion_alone() {
    let dir = std::env::temp_dir().join(format!("dalembert-baumgarte-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for case in [double_pendulum(), four_bar()] {
        let source =
            fs::read_to_string(root().join("golden").join(case.golden).join("spec.mech")).unwrap();
        let options = Options {
            solve: case.solve,
            ..Default::default()
        };
        let derived = dalembert::compile_with(&source, &options).expect("derives");
        let system = derived.system();
        let name = system.name.clone();
        let (r_h, r) = (system.holonomic().len(), system.constraints.len());
        let nx = case.on_constraints.len();
        let mut finals = Vec::new();
        for (tag, baumgarte) in [
            ("plain", None),
            (
                "stabilised",
                Some(dalembert::Baumgarte {
                    alpha: (5, 1),
                    beta: (5, 1),
                }),
            ),
        ] {
            let code = dalembert::CodeOptions {
                baumgarte,
                ..Default::default()
            };
            let artifacts = dalembert::render_derived(&derived, &[Target::C], code).unwrap();
            for a in &artifacts {
                fs::write(dir.join(&a.file_name), &a.contents).unwrap();
            }
            // Start on the constraints (projected by the emitted code), and 1e-3 off in position.
            let mut h = c_prelude(&name, &case, (r_h, r));
            writeln!(
                h,
                r#"static void rate(double t, const dalembert_real *x, dalembert_real *k) {{
    if ({name}_dynamics(t, x, P, U, NULL, k, lambda, psi, energy, pos, acc) != 0) printf("singular\n");
}}
static void run(dalembert_real *x, const char *tag, int steps) {{
    dalembert_real k1[{nx}], k2[{nx}], k3[{nx}], k4[{nx}], tmp[{nx}];
    double t = 0, dt = 1e-3, w = 0;
    for (int s = 0; s < steps; s++) {{
        rate(t, x, k1);
        for (int i = 0; i < {nx}; i++) tmp[i] = x[i] + 0.5 * dt * k1[i];
        rate(t + 0.5 * dt, tmp, k2);
        for (int i = 0; i < {nx}; i++) tmp[i] = x[i] + 0.5 * dt * k2[i];
        rate(t + 0.5 * dt, tmp, k3);
        for (int i = 0; i < {nx}; i++) tmp[i] = x[i] + dt * k3[i];
        rate(t + dt, tmp, k4);
        for (int i = 0; i < {nx}; i++) x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += dt;
    }}
    rate(t, x, k1);
    for (int i = 0; i < {r_h}; i++) if (fabs(pos[i]) > w) w = fabs(pos[i]);
    printf("%s %.17g", tag, w);
    for (int i = 0; i < {nx}; i++) printf(" %.17g", (double)x[i]);
    printf("\n");
}}
int main(void) {{
    dalembert_real on[{nx}] = {{{start}}}, y[{nx}], off[{nx}];
    for (int i = 0; i < 3; i++) {{
        {name}_project_position(0, on, P, U, NULL, y);
        {name}_project_velocity(0, y, P, U, NULL, on);
    }}
    for (int i = 0; i < {nx}; i++) off[i] = on[i];
    off[0] += 1e-3;
    {name}_project_velocity(0, off, P, U, NULL, y);
    run(on, "on", 2000);
    run(y, "off", 10000);
    return 0;
}}"#,
                start = c_list(&case.on_constraints),
            )
            .unwrap();
            fs::write(dir.join("baumgarte.c"), h).unwrap();
            let exe = dir.join(format!("{name}-{tag}"));
            run(
                Command::new("gcc")
                    .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
                    .arg(&exe)
                    .arg(dir.join("baumgarte.c"))
                    .arg(dir.join(format!("{name}.c")))
                    .arg("-lm"),
                &format!("gcc {name} {tag}"),
            );
            let out = run(&mut Command::new(&exe), &format!("run {name} {tag}"));
            assert!(
                !out.contains("singular"),
                "{name} {tag}: a solve failed:\n{out}"
            );
            let (on, off) = (numbers(&out, "on "), numbers(&out, "off "));
            println!(
                "{name} {tag}: |f| after 2 s from the constraints {:e}, after 10 s from 1e-3 off {:e}",
                on[0], off[0]
            );
            finals.push((on, off));
        }
        let (plain, stabilised) = (&finals[0], &finals[1]);
        // Without projection the plain code drifts by RK4's error alone (measured 7e-9 on the
        // double pendulum over 2 s); the stabilised code pulls even that back.
        assert!(
            plain.0[0] < 1e-7,
            "{name}: from the constraints, f stays at RK4's error: {}",
            plain.0[0]
        );
        assert!(
            stabilised.0[0] < 1e-9,
            "{name}: stabilised from the constraints, f stays 0: {}",
            stabilised.0[0]
        );
        assert!(
            plain.1[0] > 1e-4,
            "{name}: without stabilisation the offset stays: {}",
            plain.1[0]
        );
        assert!(
            stabilised.1[0] < 1e-9,
            "{name}: with stabilisation it decays: {}",
            stabilised.1[0]
        );
        for (k, (a, b)) in plain.0[1..].iter().zip(&stabilised.0[1..]).enumerate() {
            assert!(
                (a - b).abs() <= 1e-7 * a.abs().max(1.0),
                "{name}: from the constraints, x[{k}] = {a} plain but {b} stabilised"
            );
        }
    }
}

/// The Cartesian double pendulum written with `let` bindings (out of order, one using others, in
/// the Lagrangian and in a constraint) derives to the very bytes of the golden written out: a
/// bound name stands for its expression.
#[test]
fn let_bindings_derive_as_the_expressions_written_out() {
    let written =
        std::fs::read_to_string(super::root().join("golden/double_pendulum_cartesian/spec.mech"))
            .unwrap();
    let with_lets = written
        .replace(
            "lagrangian = m1/2*(x1'^2 + y1'^2) + m2/2*(x2'^2 + y2'^2) - m1*g*y1 - m2*g*y2",
            "let r2 = dx^2 + dy^2\n\
             let T1 = m1/2*(x1'^2 + y1'^2)\n\
             let dx = x2 - x1\n\
             let dy = y2 - y1\n\
             lagrangian = T1 + m2/2*(x2'^2 + y2'^2) - m1*g*y1 - m2*g*y2",
        )
        .replace("(x2 - x1)^2 + (y2 - y1)^2 = l2^2", "r2 = l2^2");
    assert_ne!(with_lets, written, "the rewrite applies");
    let targets = [dalembert::Target::Json, dalembert::Target::Latex];
    let derive = |source: &str| {
        dalembert::derive_spec(source, &targets, &Default::default())
            .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("spec", source, &d)))
    };
    let (a, b) = (derive(&written), derive(&with_lets));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.file_name, y.file_name);
        assert!(x.contents == y.contents, "{} differs", x.file_name);
    }
}
