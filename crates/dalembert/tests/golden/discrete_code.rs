//! The emitted variational step (`SYSTEM_step`, `docs/code-generation.md` "The variational
//! step") of every golden of `golden/discrete/`, compiled and integrated in C (double and float)
//! and Rust, against the in-process step of `simulate --method variational` and against what the
//! discrete mechanics says (Marsden and West, Acta Numerica 10 (2001)): no drift of a
//! conservative system's energy, an energy that never rises under a damper, and the angular
//! momentum of a rotation-invariant discrete Lagrangian kept. Counts and tolerances, never time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use cas::Expr;
use mech::discrete::step::Stepper;

use super::holonomic::run;

/// Steps of each run, and the step length.
const STEPS: usize = 10_000;
const H: f64 = 0.05;
/// The runs print the state every `EVERY` steps.
const EVERY: usize = 50;

/// One golden's run: its derivation (closed form, or a contact system's), parameter and input
/// values, and start.
struct Case {
    d: dalembert::Derived,
    parameters: Vec<f64>,
    inputs: Vec<f64>,
    start: Vec<f64>,
}

impl Case {
    fn new(name: &str, parameters: &[(&str, f64)], inputs: &[f64], start: &[f64]) -> Case {
        let case = super::root().join("golden/discrete").join(name);
        let d = super::family::derived(&case);
        let keys = d.system().keys(&d.system().parameters);
        let parameters = keys
            .iter()
            .map(|k| {
                parameters
                    .iter()
                    .find(|(n, _)| n == k)
                    .unwrap_or_else(|| panic!("{name}: no value for {k}"))
                    .1
            })
            .collect();
        Case {
            d,
            parameters,
            inputs: inputs.to_vec(),
            start: start.to_vec(),
        }
    }

    fn name(&self) -> &str {
        &self.d.system().name
    }

    fn system(&self) -> &model::System {
        self.d.system()
    }

    /// The discrete equations.
    fn discrete(&self) -> &mech::discrete::DiscreteEquations {
        match &self.d {
            dalembert::Derived::Closed(d) => d.discrete.as_ref(),
            dalembert::Derived::Contact(d) => d.discrete.as_ref(),
            _ => None,
        }
        .expect("discrete equations")
    }

    /// The energy `E_L` (a contact system's contact energy).
    fn energy(&self) -> Expr {
        match &self.d {
            dalembert::Derived::Closed(d) => d.energy(),
            dalembert::Derived::Contact(d) => d.contact.energy.clone(),
            _ => panic!("{}: no energy", self.name()),
        }
    }

    /// The keys of the state: `(q, v)`, and a contact system's action after them.
    fn state(&self) -> Vec<String> {
        let system = self.system();
        let mut keys = system.keys(&system.state());
        keys.extend(system.action.map(|z| system.key(z)));
        keys
    }

    /// The values of the parameters and inputs by key.
    fn values(&self) -> BTreeMap<String, f64> {
        let system = self.system();
        system
            .keys(&system.parameters)
            .into_iter()
            .zip(self.parameters.iter().copied())
            .chain(
                system
                    .keys(&system.inputs)
                    .into_iter()
                    .zip(self.inputs.iter().copied()),
            )
            .collect()
    }

    /// `e` at the state `x`.
    fn eval(&self, e: &Expr, x: &[f64]) -> f64 {
        let mut values = self.values();
        for (k, v) in self.state().into_iter().zip(x) {
            values.insert(k, *v);
        }
        e.evaluate(&values)
            .unwrap_or_else(|| panic!("{}: cannot evaluate {e}", self.name()))
    }

    /// The in-process run: the states every `EVERY` steps, and the most Newton iterations a
    /// step took.
    fn in_process(&self) -> (Vec<Vec<f64>>, usize) {
        self.in_process_from(&self.start)
    }

    /// How far the in-process run moves (as [`largest_difference`] measures) when every entry of
    /// the start moves by 4 ulps: the run's own amplification of round-off, below which no two
    /// evaluations of the same step in a different order can be asked to agree.
    fn sensitivity(&self, run: &[Vec<f64>]) -> f64 {
        let nudged: Vec<f64> = self
            .start
            .iter()
            .map(|v| {
                if *v == 0.0 {
                    4.0 * f64::EPSILON
                } else {
                    v * (1.0 + 4.0 * f64::EPSILON)
                }
            })
            .collect();
        largest_difference(&self.in_process_from(&nudged).0, run)
    }

    fn in_process_from(&self, start: &[f64]) -> (Vec<Vec<f64>>, usize) {
        let stepper = Stepper::new(self.system(), self.discrete()).unwrap();
        let values = self.values();
        let others: Vec<f64> = stepper.others.iter().map(|s| values[s]).collect();
        let mut x = start.to_vec();
        let mut next = vec![0.0; x.len()];
        let mut states = vec![x.clone()];
        let mut most = 0;
        for k in 0..STEPS {
            let stepped = stepper
                .step(k as f64 * H, H, &x, &others, &mut next)
                .unwrap();
            most = most.max(stepped.iterations);
            x.copy_from_slice(&next);
            if (k + 1) % EVERY == 0 {
                states.push(x.clone());
            }
        }
        (states, most)
    }
}

fn c_list(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The C harness: `STEPS` steps of `SYSTEM_step`, the state printed every `EVERY` steps; a step
/// that fails prints its status and stops.
fn c_harness(case: &Case, steps: usize) -> String {
    let name = case.name();
    let n = case.start.len();
    let array = |label: &str, values: &[f64]| {
        if values.is_empty() {
            format!("static const dalembert_real *{label} = 0;\n")
        } else {
            format!(
                "static const dalembert_real {label}[{}] = {{{}}};\n",
                values.len(),
                c_list(values)
            )
        }
    };
    let mut h = String::new();
    writeln!(h, "#include <stdio.h>\n#include \"{name}.h\"").unwrap();
    h.push_str(&array("P", &case.parameters));
    h.push_str(&array("U", &case.inputs));
    write!(
        h,
        r#"static void show(const dalembert_real *x) {{
    int i;
    printf("x");
    for (i = 0; i < {n}; i++) printf(" %.17g", (double)x[i]);
    printf("\n");
}}
int main(void) {{
    dalembert_real x[{n}] = {{{start}}}, next[{n}];
    int k, i;
    show(x);
    for (k = 0; k < {steps}; k++) {{
        const int status = {name}_step((dalembert_real)({h:?} * k), x, (dalembert_real){h:?}, P, U, next);
        if (status != 0) {{
            printf("failed %d %d\n", status, k);
            return 0;
        }}
        for (i = 0; i < {n}; i++) x[i] = next[i];
        if ((k + 1) % {every} == 0) show(x);
    }}
    return 0;
}}
"#,
        start = c_list(&case.start),
        h = H,
        every = EVERY,
    )
    .unwrap();
    h
}

/// The Rust harness: the same run through the module's `step`, with the most iterations a step
/// took.
fn rust_harness(case: &Case) -> String {
    let name = case.name();
    let n = case.start.len();
    format!(
        r#"#[allow(dead_code)]
mod {name};
fn show(x: &[f64]) {{
    print!("x");
    for v in x {{ print!(" {{:?}}", v); }}
    println!();
}}
fn main() {{
    let p: [f64; {np}] = [{p}];
    let u: [f64; {nu}] = [{u}];
    let mut x: [f64; {n}] = [{start}];
    let mut next = [0.0; {n}];
    let mut most = 0;
    show(&x);
    for k in 0..{steps} {{
        let iterations = {name}::step({h:?} * k as f64, &x, {h:?}, &p, &u, &mut next).unwrap();
        most = most.max(iterations);
        x = next;
        if (k + 1) % {every} == 0 {{ show(&x); }}
    }}
    println!("iterations {{}}", most);
}}
"#,
        np = case.parameters.len(),
        p = c_list(&case.parameters),
        nu = case.inputs.len(),
        u = c_list(&case.inputs),
        start = c_list(&case.start),
        steps = STEPS,
        h = H,
        every = EVERY,
    )
}

/// The states a harness printed.
fn states(out: &str) -> Vec<Vec<f64>> {
    assert!(!out.contains("failed"), "a step failed:\n{out}");
    out.lines()
        .filter_map(|l| l.strip_prefix("x "))
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect()
}

/// The states of the emitted runs (see [`emitted_runs`]).
struct Runs {
    double: Vec<Vec<f64>>,
    single: Vec<Vec<f64>>,
    rust: Vec<Vec<f64>>,
    most_iterations: usize,
}

/// Compiles the emitted code of `case` (double C, float C, Rust) in `work` with its harnesses
/// and runs them: the C states in double, in float (over a tenth of the steps), the Rust
/// states and the most Newton iterations of a Rust step.
fn emitted_runs(case: &Case, work: &Path) -> Runs {
    let name = case.name();
    let derived = &case.d;
    let mut c_runs = Vec::new();
    for (real, float, steps) in [
        ("double", dalembert::Float::F64, STEPS),
        ("float", dalembert::Float::F32, STEPS / 10),
    ] {
        let dir = work.join(real);
        fs::create_dir_all(&dir).unwrap();
        let options = dalembert::CodeOptions {
            float,
            ..Default::default()
        };
        let targets = [dalembert::Target::C, dalembert::Target::Rust];
        for a in dalembert::render_derived(derived, &targets, options).unwrap() {
            fs::write(dir.join(&a.file_name), &a.contents).unwrap();
        }
        fs::write(dir.join("harness.c"), c_harness(case, steps)).unwrap();
        run(
            Command::new("gcc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-pedantic",
                    "-O2",
                ])
                .args(["harness.c", &format!("{name}.c"), "-lm", "-o", "harness"])
                .current_dir(&dir),
            &format!("gcc ({real}) on the step harness of {name}"),
        );
        c_runs.push(states(&run(
            &mut Command::new(dir.join("harness")),
            &format!("the {real} step harness of {name}"),
        )));
    }
    let dir = work.join("double");
    fs::write(dir.join("harness.rs"), rust_harness(case)).unwrap();
    run(
        Command::new("rustc")
            .args(["--edition", "2021", "-O", "-D", "warnings", "harness.rs"])
            .args(["-o", "rust-harness"])
            .current_dir(&dir),
        &format!("rustc on the step harness of {name}"),
    );
    let out = run(
        &mut Command::new(dir.join("rust-harness")),
        &format!("the Rust step harness of {name}"),
    );
    let most = out
        .lines()
        .find_map(|l| l.strip_prefix("iterations "))
        .unwrap()
        .parse()
        .unwrap();
    let single = c_runs.pop().unwrap();
    let double = c_runs.pop().unwrap();
    Runs {
        double,
        single,
        rust: states(&out),
        most_iterations: most,
    }
}

/// The largest relative difference between two runs' states.
fn largest_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| (x - y).abs() / x.abs().max(1.0))
        .fold(0.0, f64::max)
}

/// The tumbling top of the heavy top and the 3D pendulum: an asymmetric body (moments 1, 2, 3)
/// with its centre of mass off every axis, `m g = 1`.
const TOP: [(&str, f64); 8] = [
    ("I1", 1.0),
    ("I2", 2.0),
    ("I3", 3.0),
    ("m", 1.0),
    ("g", 1.0),
    ("chi1", 0.2),
    ("chi2", 0.1),
    ("chi3", 1.0),
];

/// The goldens' runs:
///
/// - the C step in double equals the in-process step to 1e-8 and the Rust step to 1e-12 over
///   10⁴ steps (they evaluate the same programs; only the order of operations differs from the
///   in-process programs), or, for a run that amplifies round-off more, to 10 times the distance
///   the in-process run moves from a start 4 ulps away (the rolling disc: 4 ulps at the start
///   become about 1e-8 after 10⁴ steps, so the order of operations alone reaches that much); the float C follows the double run to 1e-2 over 10³ steps, without
///   a failed step (Newton's method stops at round-off, not at the iteration bound);
/// - a step takes at most 8 Newton iterations (quadratic convergence from the predictor;
///   measured: 6 for the double pendulum, whose multipliers start from 0, at most 4 for the
///   others);
/// - the pendulum and the quartic central potential keep their energy without drift (the mean
///   error over the last tenth of the run within 2e-5 of the energy of that over the first; at
///   `h = 0.05` the error itself oscillates at up to 5e-3 of it), and the
///   central potential its angular momentum `m (x y' − y x')` to 1e-10 relative; the rigid body
///   (Lie group variational integrator in the Cayley chart, near its unstable middle axis) keeps
///   the Casimir `|Π|²` to 1e-12 relative and its energy without drift; the heavy top (the same
///   integrator on its action algebroid, the vertical moved by the Cayley map) keeps both
///   Casimirs `|Γ|²` and `Π·Γ` to 1e-12 relative at every printed step, and its energy error
///   stays bounded as the double pendulum's below; the 3D pendulum (the heavy top with its whole
///   attitude `R`) keeps `R Rᵀ = I` to 1e-12 at every printed step;
/// - the sleigh's and the Suslov body's states satisfy their nonholonomic constraints to 1e-12 at
///   every printed step, the rolling disc its two rolling constraints, and the double pendulum
///   both rods and their derivatives (RATTLE), whose energy error (as the disc's and the heavy
///   top's) stays within 1e-3 of the energy and does not grow (the largest over the second
///   half of the run at most twice that over the first);
/// - the damped oscillator without input loses energy at every printed step (its discrete work
///   `−c (q_{k+1} − q_k)² / h` is never positive);
/// - the Herglotz oscillator's contact energy decays at its derived rate, `E_L e^{γt}` within
///   1e-2 of `E_L(0)` at every printed step, and `γ` fitted to `ln E_L` to 2e-5 of it.
#[test]
fn the_emitted_variational_step_integrates_as_the_discrete_equations_say() {
    let dir = std::env::temp_dir().join(format!("dalembert-step-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let cases = [
        Case::new(
            "pendulum",
            &[("m", 1.3), ("l", 0.7), ("g", 9.81)],
            &[],
            &[1.2, 0.4],
        ),
        Case::new(
            "damped_oscillator",
            &[("m", 0.8), ("k", 2.5), ("c", 0.3)],
            &[0.0],
            &[1.0, -0.5],
        ),
        Case::new(
            "anharmonic_planar",
            &[("m", 1.1), ("k", 0.9)],
            &[],
            &[1.0, 0.2, -0.3, 0.8],
        ),
        Case::new(
            "chaplygin_sleigh",
            &[("m", 1.5), ("J", 0.4), ("a", 0.3)],
            &[],
            &[
                0.0,
                0.0,
                0.3,
                0.955_336_489_125_606,
                0.295_520_206_661_339_7,
                0.8,
            ],
        ),
        Case::new(
            "suslov",
            &[
                ("I1", 1.0),
                ("I2", 2.0),
                ("I3", 3.0),
                ("J1", 0.3),
                ("J2", -0.2),
            ],
            &[],
            &[0.5, 1.0, 0.0],
        ),
        Case::new(
            "double_pendulum_rattle",
            &super::discrete::PENDULA,
            &[],
            &super::discrete::PENDULA_START,
        ),
        // The lowest normal mode of the chain, amplitude 0.3, at rest.
        Case::new(
            "fpu_chain",
            &[("m", 1.0), ("k", 1.0), ("b", 1.0)],
            &[],
            &[
                0.084_519_767_052_428_9,
                0.162_192_245_236_679_27,
                0.226_724_872_306_277_47,
                0.272_889_598_606_355_5,
                0.296_946_432_564_279_77,
                0.296_946_432_564_279_8,
                0.272_889_598_606_355_53,
                0.226_724_872_306_277_47,
                0.162_192_245_236_679_33,
                0.084_519_767_052_428_9,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
            ],
        ),
        Case::new(
            "rolling_disc",
            &[
                ("m", 1.0),
                ("r", 0.5),
                ("g", 9.81),
                ("A", 0.0625),
                ("C", 0.125),
            ],
            &[],
            // (x, y, psi, phi, theta) and their rates: rolling straight at spin 6, leaning by
            // 0.1 (x' = r theta' cos psi, y' = r theta' sin psi).
            &[0.0, 0.0, 0.0, 0.1, 0.0, 3.0, 0.0, 0.0, 0.0, 6.0],
        ),
        Case::new(
            "herglotz_oscillator",
            &[("m", 1.3), ("k", 2.0), ("gamma", 0.1)],
            &[],
            &[1.0, -0.3, 0.0],
        ),
        Case::new(
            "rigid_body_cayley",
            &[("I1", 1.0), ("I2", 2.0), ("I3", 3.5)],
            &[],
            &[0.3, 1.1, -0.6],
        ),
        Case::new(
            "rigid_body_lgvi",
            &[("I1", 1.0), ("I2", 2.0), ("I3", 3.5)],
            &[],
            &[0.3, 1.1, -0.6],
        ),
        Case::new("heavy_top", &TOP, &[], &[0.0, 0.6, 0.8, 1.0, 0.5, 2.0]),
        Case::new(
            "pendulum_3d",
            &TOP,
            &[],
            &[1.0, 0.0, 0.0, 0.0, 0.8, -0.6, 0.0, 0.6, 0.8, 1.0, 0.5, 2.0],
        ),
    ];
    for case in &cases {
        let name = case.name().to_string();
        let (expected, most_in_process) = case.in_process();
        let Runs {
            double,
            single,
            rust,
            most_iterations: most,
        } = emitted_runs(case, &dir.join(&name));
        let c_vs_process = largest_difference(&double, &expected);
        let sensitivity = case.sensitivity(&expected);
        assert!(
            c_vs_process < 1e-8f64.max(10.0 * sensitivity),
            "{name}: C vs in-process {c_vs_process} (the run moves by {sensitivity} from a start 4 ulps away)"
        );
        let c_vs_rust = largest_difference(&double, &rust);
        assert!(c_vs_rust < 1e-12, "{name}: C vs Rust {c_vs_rust}");
        let f32_vs_f64 = largest_difference(&single, &double[..single.len()]);
        assert!(f32_vs_f64 < 1e-2, "{name}: float vs double {f32_vs_f64}");
        assert!(
            most <= 8 && most_in_process <= 8,
            "{name}: {most} Newton iterations in a step ({most_in_process} in process)"
        );
        eprintln!("{name}: C vs in-process {c_vs_process:.1e} (sensitivity {sensitivity:.1e}), C vs Rust {c_vs_rust:.1e}, float vs double {f32_vs_f64:.1e}, at most {most} Newton iterations");
        let energy = case.energy();
        let e: Vec<f64> = double.iter().map(|x| case.eval(&energy, x)).collect();
        if name == "damped_oscillator" {
            for (k, pair) in e.windows(2).enumerate() {
                assert!(
                    pair[1] <= pair[0] * (1.0 + 1e-14),
                    "{name}: the energy rose from {} to {} after sample {k}",
                    pair[0],
                    pair[1]
                );
            }
            assert!(e[e.len() - 1] < 0.01 * e[0], "{name}: {e:?}");
            continue;
        }
        if name == "herglotz_oscillator" {
            // E_L(t) = E_L(0) exp(-gamma t): the scaled energy stays put.
            let dt = (EVERY as f64) * H;
            let largest = e
                .iter()
                .enumerate()
                .map(|(k, v)| (v * (0.1 * k as f64 * dt).exp() / e[0] - 1.0).abs())
                .fold(0.0f64, f64::max);
            let rate = super::discrete::decay_rate(&e, dt);
            eprintln!(
                "{name}: E_L e^(gamma t) / E_L(0) within {largest:.1e} of 1, decay rate {rate}"
            );
            assert!(
                largest <= 1e-2,
                "{name}: the energy decays off its rate by {largest}"
            );
            assert!(
                (rate / 0.1 - 1.0).abs() <= 2e-5,
                "{name}: the energy decays at {rate}"
            );
            continue;
        }
        let tenth = e.len() / 10;
        let mean = |s: &[f64]| s.iter().map(|v| v - e[0]).sum::<f64>() / s.len() as f64;
        let drift = mean(&e[e.len() - tenth..]) - mean(&e[..tenth]);
        let largest = e.iter().fold(0.0f64, |m, v| m.max((v - e[0]).abs()));
        eprintln!(
            "{name}: energy error at most {largest:.1e} of {:.3}, drift {drift:.1e}",
            e[0]
        );
        if [
            "double_pendulum_rattle",
            "heavy_top",
            "pendulum_3d",
            "rolling_disc",
        ]
        .contains(&name.as_str())
        {
            // Modes beat (the pendulum's two, the disc's lean and turn; the tumbling top's motion
            // is not periodic at all): the
            // error's envelope follows the motion, so the means of tenths differ; bounded means
            // the second half's largest error is not above twice the first half's.
            let half = e.len() / 2;
            let worst = |s: &[f64]| s.iter().fold(0.0f64, |m, v| m.max((v - e[0]).abs()));
            let (first, second) = (worst(&e[..half]), worst(&e[half..]));
            assert!(
                largest <= 1e-3 * e[0].abs(),
                "{name}: energy error {largest}"
            );
            assert!(
                second <= 2.0 * first,
                "{name}: the energy error grew from {first} to {second}"
            );
        } else {
            assert!(
                drift.abs() < 2e-5 * e[0].abs(),
                "{name}: energy drift {drift}"
            );
        }
        if name == "suslov" {
            for x in &double {
                assert!(x[2].abs() <= 1e-12, "{name}: w3 = {} at {x:?}", x[2]);
            }
        }
        if name == "chaplygin_sleigh" {
            for x in &double {
                let psi = -x[2].sin() * x[3] + x[2].cos() * x[4];
                assert!(psi.abs() <= 1e-12, "{name}: Psi = {psi} at {x:?}");
            }
        }
        if name == "double_pendulum_rattle" {
            for x in &double {
                let (dx, dy) = (x[2] - x[0], x[3] - x[1]);
                let rods = [x[0] * x[0] + x[1] * x[1] - 1.0, dx * dx + dy * dy - 0.64];
                let rates = [
                    x[0] * x[4] + x[1] * x[5],
                    dx * (x[6] - x[4]) + dy * (x[7] - x[5]),
                ];
                for r in rods.iter().chain(&rates) {
                    assert!(r.abs() <= 1e-12, "{name}: a rod is off by {r} at {x:?}");
                }
            }
        }
        if name == "rigid_body_cayley" || name == "rigid_body_lgvi" {
            let casimir =
                |x: &Vec<f64>| (1.0 * x[0]).powi(2) + (2.0 * x[1]).powi(2) + (3.5 * x[2]).powi(2);
            let c0 = casimir(&double[0]);
            for x in &double {
                assert!(
                    (casimir(x) - c0).abs() <= 1e-12 * c0,
                    "{name}: |Pi|^2 = {} from {c0}",
                    casimir(x)
                );
            }
        }
        if name == "heavy_top" {
            // The Casimirs |Gamma|^2 and Pi . Gamma at every printed step.
            let length = |x: &Vec<f64>| x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
            let pairing = |x: &Vec<f64>| x[0] * x[3] + 2.0 * x[1] * x[4] + 3.0 * x[2] * x[5];
            let (l0, p0) = (length(&double[0]), pairing(&double[0]));
            for x in &double {
                assert!(
                    (length(x) - l0).abs() <= 1e-12 * l0,
                    "{name}: |Gamma|^2 = {} from {l0}",
                    length(x)
                );
                assert!(
                    (pairing(x) - p0).abs() <= 1e-12 * p0.abs(),
                    "{name}: Pi . Gamma = {} from {p0}",
                    pairing(x)
                );
            }
        }
        if name == "rolling_disc" {
            for x in &double {
                let rolling = [
                    x[5] - 0.5 * x[9] * x[2].cos(),
                    x[6] - 0.5 * x[9] * x[2].sin(),
                ];
                for psi in rolling {
                    assert!(psi.abs() <= 1e-12, "{name}: Psi = {psi} at {x:?}");
                }
            }
        }
        if name == "pendulum_3d" {
            // The attitude stays on SO(3): R R^T = I at every printed step.
            for x in &double {
                for i in 0..3 {
                    for l in 0..3 {
                        let entry = (0..3).map(|j| x[3 * i + j] * x[3 * l + j]).sum::<f64>();
                        let identity = if i == l { 1.0 } else { 0.0 };
                        assert!(
                            (entry - identity).abs() <= 1e-12,
                            "{name}: (R R^T)[{i}][{l}] = {entry} at {x:?}"
                        );
                    }
                }
            }
        }
        if name == "anharmonic_planar" {
            let l = |x: &Vec<f64>| 1.1 * (x[0] * x[3] - x[1] * x[2]);
            let l0 = l(&double[0]);
            for x in &double {
                assert!(
                    (l(x) - l0).abs() <= 1e-10 * l0.abs(),
                    "{name}: angular momentum {} from {l0}",
                    l(x)
                );
            }
        }
    }
    let _ = fs::remove_dir_all(&dir);
}
