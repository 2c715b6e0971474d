//! `dalembert linearize` on the goldens of `golden/linearize/`: the cart-pole's upright
//! equilibrium, the Chaplygin sleigh's straight-line motion and a two-wheeled inverted pendulum
//! robot rolling at constant speed, and the leaning rolling disc rolling upright. Each folder's
//! `point` holds the `--at` argument.
//!
//! - The matrices are the hand-derived ones of each `notes.md`, entry by entry, symbolically.
//! - The implicit route (the implicit form differentiated implicitly at the point) gives the
//!   same `A` and `B` as the closed form, a second route through the mathematics.
//! - The sleigh's straight motion is stable going forward and unstable going backward.
//! - The emitted `state_space` compiles warning-free and computes the matrices the derivation
//!   gives, at the point and at another state.
//! - The outputs match their committed files.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use cas::Expr;
use dalembert::{CodeOptions, Options, Solve, Target};

use super::holonomic::run;
use super::{compare, family, root};

#[test]
fn linearize_goldens_derive_to_their_committed_artifacts() {
    family::pass("linearize");
}

/// The link rung: the emitted C in both precisions under the embedded flags, the Rust.
#[test]
fn linearize_emitted_code_compiles_warning_free() {
    family::code_compiles("linearize");
}

#[test]
fn linearize_expectations_hold() {
    family::expectations("linearize", 0);
}

fn case(name: &str) -> PathBuf {
    root().join("golden/linearize").join(name)
}

/// The linearisation of a golden at its `point`, by the route `solve`.
fn linearized(name: &str, solve: Solve, targets: &[Target]) -> dalembert::linearize::Linearized {
    let folder = case(name);
    let source = fs::read_to_string(folder.join("spec.mech")).unwrap();
    let at = fs::read_to_string(folder.join("point")).unwrap();
    let options = Options {
        solve,
        ..Options::default()
    };
    dalembert::linearize::linearize_spec(
        &source,
        at.trim(),
        targets,
        (options, CodeOptions::default()),
    )
    .unwrap_or_else(|_| panic!("{name}: linearize refused"))
}

fn system(name: &str) -> model::System {
    let source = fs::read_to_string(case(name).join("spec.mech")).unwrap();
    dalembert::compile_with(&source, &Options::default())
        .unwrap()
        .system()
        .clone()
}

/// A matrix written in the spec's syntax, row by row.
fn matrix(system: &model::System, rows: &[&[&str]]) -> Vec<Vec<Expr>> {
    rows.iter()
        .map(|row| {
            row.iter()
                .map(|e| model::point::read_value(system, e).unwrap())
                .collect()
        })
        .collect()
}

fn assert_same(
    name: &str,
    what: &str,
    got: &[Vec<Expr>],
    expected: &[Vec<Expr>],
    system: &model::System,
) {
    assert_eq!(got.len(), expected.len(), "{name}: rows of {what}");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(g.len(), e.len(), "{name}: columns of {what}");
        for (j, (a, b)) in g.iter().zip(e).enumerate() {
            assert!(
                (a.clone() - b.clone()).is_zero(),
                "{name}: {what}[{i}][{j}] = {} but the hand derivation gives {}",
                cas::print::spec(a, system),
                cas::print::spec(b, system)
            );
        }
    }
}

fn reduced_state(lin: &report::Linearization, system: &model::System) -> Vec<String> {
    lin.independent
        .iter()
        .map(|&i| system.spec_name(system.handle(&lin.state[i])))
        .collect()
}

/// The notes' hand derivation of the cart-pole about its upright equilibrium.
#[test]
fn linearize_the_cart_pole_upright_is_the_hand_derived_one() {
    let sys = system("cart_pole");
    for solve in [Solve::Symbolic, Solve::Numeric] {
        let lin = linearized("cart_pole", solve, &[]).linearization;
        assert_eq!(reduced_state(&lin, &sys), ["x", "theta", "x'", "theta'"]);
        let a = matrix(
            &sys,
            &[
                &["0", "0", "1", "0"],
                &["0", "0", "0", "1"],
                &["0", "-m*g/M", "0", "0"],
                &["0", "(M + m)*g/(M*l)", "0", "0"],
            ],
        );
        let b = matrix(&sys, &[&["0"], &["0"], &["1/M"], &["-1/(M*l)"]]);
        assert_same("cart_pole", "A", &lin.a, &a, &sys);
        assert_same("cart_pole", "B", &lin.b, &b, &sys);
        assert!(lin.rates.iter().all(|r| r.is_zero()), "an equilibrium");
    }
}

/// The notes' hand derivation of the sleigh about `v1 = V`, and the stability that changes with
/// the sign of `V`.
#[test]
fn linearize_the_sleigh_is_stable_forward_and_unstable_backward() {
    let sys = system("sleigh");
    for solve in [Solve::Symbolic, Solve::Numeric] {
        let lin = linearized("sleigh", solve, &[]).linearization;
        assert_eq!(reduced_state(&lin, &sys), ["v1", "w"]);
        let a = matrix(
            &sys,
            &[&["0", "-a*b*m*V/(J + m*a^2)"], &["0", "-m*a*V/(J + m*a^2)"]],
        );
        assert_same("sleigh", "A", &lin.a, &a, &sys);
        assert_eq!(lin.dependent.len(), 1, "v2 is the dependent velocity");
    }
    let source = fs::read_to_string(case("sleigh").join("spec.mech")).unwrap();
    let eigenvalues = |v: &str| {
        let at = format!("v1={v},m=1,J=1/2,a=3/10,b=1/5");
        dalembert::linearize::linearize_spec(
            &source,
            &at,
            &[],
            (Options::default(), CodeOptions::default()),
        )
        .unwrap()
        .linearization
        .eigenvalues
        .unwrap()
    };
    // -m a V/(J + m a^2) = -0.3 V/0.59.
    let forward = eigenvalues("1");
    let backward = eigenvalues("-1");
    for roots in [&forward, &backward] {
        assert!(roots.contains(&report::Complex { re: 0.0, im: 0.0 }));
    }
    let rate = 0.3 / 0.59;
    assert!(
        forward
            .iter()
            .any(|z| (z.re + rate).abs() < 1e-12 && z.im == 0.0),
        "{forward:?}"
    );
    assert!(
        backward
            .iter()
            .any(|z| (z.re - rate).abs() < 1e-12 && z.im == 0.0),
        "{backward:?}"
    );
    assert!(
        forward.iter().all(|z| z.re <= 0.0),
        "stable going forward: {forward:?}"
    );
    assert!(
        backward.iter().any(|z| z.re > 0.0),
        "unstable going backward: {backward:?}"
    );
}

/// The notes' hand derivation of the balancing robot about upright motion at speed `V`, from the
/// implicit form (its closed form is large: `auto` takes the implicit route).
#[test]
fn linearize_the_balancing_robot_is_the_hand_derived_one() {
    let sys = system("balancing_robot");
    let lin = linearized("balancing_robot", Solve::Auto, &[]).linearization;
    assert!(lin.general.is_none(), "the robot takes the implicit route");
    assert_eq!(
        reduced_state(&lin, &sys),
        ["x", "y", "psi", "theta", "phiR", "phiL", "x'", "psi'", "theta'"]
    );
    let d = "((m + 2*Iw/r^2)*(m*l^2 + Iy) - m^2*l^2)";
    let pitch = format!("(m + 2*Iw/r^2)*m*g*l/{d}");
    let surge = format!("-m^2*g*l^2/{d}");
    let mut a = vec![vec!["0".to_string(); 9]; 9];
    for (row, column, value) in [
        (0, 6, "1".to_string()),
        (1, 2, "V".to_string()),
        (2, 7, "1".to_string()),
        (3, 8, "1".to_string()),
        (4, 6, "1/r".to_string()),
        (4, 7, "b/r".to_string()),
        (5, 6, "1/r".to_string()),
        (5, 7, "-b/r".to_string()),
        (6, 3, surge),
        (8, 3, pitch),
    ] {
        a[row][column] = value;
    }
    let a_rows: Vec<Vec<&str>> = a
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let a_refs: Vec<&[&str]> = a_rows.iter().map(Vec::as_slice).collect();
    assert_same("balancing_robot", "A", &lin.a, &matrix(&sys, &a_refs), &sys);
    let forward = format!("((m*l^2 + Iy)/r + m*l)/{d}");
    let tilt = format!("-((m + 2*Iw/r^2) + m*l/r)/{d}");
    let turn = "b*r/(Iz*r^2 + 2*b^2*Iw)";
    let minus_turn = format!("-{turn}");
    let b = matrix(
        &sys,
        &[
            &["0", "0"],
            &["0", "0"],
            &["0", "0"],
            &["0", "0"],
            &["0", "0"],
            &["0", "0"],
            &[&forward, &forward],
            &[turn, &minus_turn],
            &[&tilt, &tilt],
        ],
    );
    assert_same("balancing_robot", "B", &lin.b, &b, &sys);
    // The dependent velocities solved from the constraints, and the motion through the point.
    let phi = sys.key(sys.symbols.velocity(sys.handle("phiR")));
    assert!((lin.point[&phi].clone() - model::point::read_value(&sys, "V/r").unwrap()).is_zero());
}

/// The C and Rust outputs need the closed form; the robot's is refused with E0507 on `auto`.
#[test]
fn linearize_code_on_the_implicit_route_is_refused_with_e0507() {
    let source = fs::read_to_string(case("balancing_robot").join("spec.mech")).unwrap();
    let refused = dalembert::linearize::linearize_spec(
        &source,
        "x'=V",
        &[Target::C],
        (Options::default(), CodeOptions::default()),
    );
    match refused {
        Err(d) => assert_eq!(d[0].code, dalembert::Code::E0507, "{:?}", d[0]),
        _ => panic!("code of an implicit-route linearisation is not refused"),
    }
}

/// The committed outputs: `<system>-linear.json`, `-linear.tex`, and the code where the closed
/// form gives it.
#[test]
fn linearize_outputs_match_their_committed_files() {
    let mut failures = Vec::new();
    for (name, targets) in [
        (
            "cart_pole",
            &[Target::Json, Target::Latex, Target::C, Target::Rust][..],
        ),
        (
            "sleigh",
            &[Target::Json, Target::Latex, Target::C, Target::Rust][..],
        ),
        ("balancing_robot", &[Target::Json, Target::Latex][..]),
        (
            "rolling_disc",
            &[Target::Json, Target::Latex, Target::C, Target::Rust][..],
        ),
    ] {
        for artifact in linearized(name, Solve::Auto, targets).artifacts {
            if let Err(e) = compare(
                &case(name).join("expected").join(&artifact.file_name),
                &artifact.contents,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The emitted `state_space` of the cart-pole and the sleigh compiles warning-free in C (double
/// and float, the embedded flags) and computes the derivation's `A` and `B` at the point and at a
/// second state on the constraints.
#[test]
fn linearize_the_emitted_state_space_computes_a_and_b() {
    let dir = std::env::temp_dir().join(format!("dalembert-linear-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let cases: [StateSpaceCase; 2] = [
        // name, parameters, a second state, inputs
        (
            "cart_pole",
            &[("M", 1.3), ("m", 0.2), ("l", 0.7), ("g", 9.81)],
            &[0.1, 0.4, -0.3, 0.8],
            &[0.5],
        ),
        (
            "sleigh",
            &[("m", 1.1), ("J", 0.4), ("a", 0.3), ("b", 0.2)],
            &[0.7, 0.0, -0.6],
            &[],
        ),
    ];
    for (name, parameters, state, inputs) in cases {
        let lin = linearized(name, Solve::Symbolic, &[Target::C]);
        for artifact in &lin.artifacts {
            fs::write(dir.join(&artifact.file_name), &artifact.contents).unwrap();
        }
        let sys = system(name);
        let linearization = lin.linearization;
        let (a, b) = linearization.general.clone().unwrap();
        let mut values: BTreeMap<String, f64> = parameters
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        for (s, v) in sys.keys(&sys.state()).into_iter().zip(state) {
            values.insert(s, *v);
        }
        for (s, v) in sys.keys(&sys.inputs).into_iter().zip(inputs) {
            values.insert(s, *v);
        }
        values.insert(sys.key(sys.time), 0.0);
        let expected: Vec<f64> = a
            .iter()
            .chain(&b)
            .flatten()
            .map(|e| e.evaluate(&values).unwrap())
            .collect();
        let p: Vec<String> = sys
            .keys(&sys.parameters)
            .iter()
            .map(|s| format!("{:?}", values[s]))
            .collect();
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (n, m) = (a.len(), linearization.inputs.len());
        let harness = format!(
            "#include <stdio.h>\n#include \"{name}_linear.h\"\nint main(void) {{\n  const double x[] = {{{}}}, p[] = {{{}}}, u[] = {{{}}};\n  double A[{}], B[{}];\n  if ({name}_linear_state_space(0.0, x, p, {}, NULL, A, B) != 0) return 1;\n  for (int i = 0; i < {}; i++) printf(\"%.17g\\n\", A[i]);\n  for (int i = 0; i < {}; i++) printf(\"%.17g\\n\", B[i]);\n  return 0;\n}}\n",
            list(state),
            p.join(", "),
            if inputs.is_empty() { "0.0".to_string() } else { list(inputs) },
            (n * n).max(1),
            (n * m).max(1),
            "u",
            n * n,
            n * m
        );
        fs::write(dir.join(format!("{name}_main.c")), harness).unwrap();
        run(
            Command::new("gcc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Wdouble-promotion",
                    "-Wconversion",
                    "-Werror",
                    "-pedantic",
                ])
                .arg(format!("{name}_main.c"))
                .arg(format!("{name}_linear.c"))
                .args(["-lm", "-o", &format!("{name}_main")])
                .current_dir(&dir),
            "gcc on the state_space harness",
        );
        let out = run(
            &mut Command::new(dir.join(format!("{name}_main"))),
            "the state_space harness",
        );
        let got: Vec<f64> = out.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            assert!(
                (g - e).abs() <= 1e-12 * e.abs().max(1.0),
                "{name}: {got:?} vs {expected:?}"
            );
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A golden, its parameter values, a second state on the constraints and the inputs there.
type StateSpaceCase = (
    &'static str,
    &'static [(&'static str, f64)],
    &'static [f64],
    &'static [f64],
);

/// The JSON of a linearisation is written like every other: SymPy's `parse_expr` reads each
/// entry of `A`, `B` and the characteristic polynomial from its `python` form with the symbols of
/// `identifiers`, and the values equal the derivation's at a random point of the parameters.
#[test]
fn linearize_json_python_forms_parse_and_equal_the_matrices() {
    if !crate::common::require_python_module("sympy") {
        return;
    }
    let mut script = String::from(
        "import json, sys\nfrom sympy import Symbol\nfrom sympy.parsing.sympy_parser import parse_expr\nfailures = 0\n",
    );
    for name in ["cart_pole", "sleigh", "balancing_robot"] {
        let lin = linearized(name, Solve::Auto, &[Target::Json]);
        let json = &lin.artifacts[0];
        assert_eq!(json.file_name, format!("{}-linear.json", system(name).name));
        let mut values = BTreeMap::new();
        let mut symbols = std::collections::BTreeSet::new();
        let l = &lin.linearization;
        let characteristic = l.characteristic.as_ref().expect("a small polynomial");
        for e in l.a.iter().chain(&l.b).flatten().chain([characteristic]) {
            symbols.extend(e.symbols());
        }
        for (k, s) in symbols.iter().enumerate() {
            values.insert(s.clone(), 0.4 + ((k * 37 + 11) % 50) as f64 / 50.0);
        }
        let sys = system(name);
        let doc: serde_json::Value = serde_json::from_str(&json.contents).unwrap();
        let ids = doc["identifiers"].as_object().unwrap();
        let subs: Vec<String> = values
            .iter()
            .map(|(s, v)| {
                let spelled = if *s == l.variable {
                    s.clone()
                } else {
                    sys.spec_name(sys.handle(s))
                };
                let id = ids
                    .get(&spelled)
                    .and_then(|i| i.as_str())
                    .unwrap_or(spelled.as_str())
                    .to_string();
                format!("Symbol({id:?}): {v:?}")
            })
            .collect();
        script.push_str(&format!(
            "doc = json.loads({:?})\nat = {{{}}}\nnames = {{i: Symbol(i) for i in doc['identifiers'].values()}}\nnames[{:?}] = Symbol({:?})\n",
            json.contents,
            subs.join(", "),
            l.variable,
            l.variable
        ));
        let mut check = |what: String, path: String, e: &Expr| {
            let expected = e.evaluate(&values).unwrap();
            script.push_str(&format!(
                "got = float(parse_expr(doc{path}['python'], local_dict=names).subs(at))\nif abs(got - {expected:?}) > 1e-9 * max(1.0, abs(got)):\n    failures += 1\n    print({what:?}, got, {expected:?})\n"
            ));
        };
        for (matrix, rows) in [("A", &l.a), ("B", &l.b)] {
            for (i, row) in rows.iter().enumerate() {
                for (j, e) in row.iter().enumerate() {
                    check(
                        format!("{name}: {matrix}[{i}][{j}]"),
                        format!("[{matrix:?}][{i}][{j}]"),
                        e,
                    );
                }
            }
        }
        check(
            format!("{name}: characteristic polynomial"),
            "['characteristic_polynomial']".into(),
            characteristic,
        );
    }
    script.push_str("sys.exit(1 if failures else 0)\n");
    let out = crate::common::run_python(&script, "linear-py");
    assert!(
        out.status.success(),
        "the linearisation JSON's Python forms differ:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two angles held at opposite values by `sin(th + ph) = 0`, written out by the angle-sum
/// formula, linearised at `th = lam`, `ph = -lam`, the values given through the parameter
/// `lam`: the point check proves `sin(lam) cos(-lam) + cos(lam) sin(-lam) = 0` (trig parity),
/// and `--at` reads `th=lam` with the `lam` given before it.
///
/// By hand: on `ph = -th`, `m th'' = -k sin(th) + λ` and `m ph'' = λ` with `ph'' = -th''` give
/// `th'' = -k sin(th)/(2 m)`; about `th = lam` at rest, in the reduced state `(th, th')`,
/// `A = [[0, 1], [-k cos(lam)/(2 m), 0]]`.
#[test]
fn linearize_reads_earlier_values_and_proves_the_point_by_trig_parity() {
    let source = "system opposed\n\
                  parameters m, k, lam\n\
                  coordinates th, ph\n\
                  algebroid tangent\n\
                  lagrangian = m/2*(th'^2 + ph'^2) + k*cos(th)\n\
                  constraints holonomic {\n  sin(th)*cos(ph) + cos(th)*sin(ph) = 0\n}\n";
    let options = Options {
        solve: Solve::Symbolic,
        ..Options::default()
    };
    let lin = dalembert::linearize::linearize_spec(
        source,
        "lam=3/10,th=lam,ph=-lam",
        &[],
        (options, CodeOptions::default()),
    )
    .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("opposed", source, &d)))
    .linearization;
    let sys = dalembert::compile_with(source, &Options::default())
        .unwrap()
        .system()
        .clone();
    assert_eq!(reduced_state(&lin, &sys), ["th", "th'"]);
    let expected = matrix(&sys, &[&["0", "1"], &["-k*cos(3/10)/(2*m)", "0"]]);
    for (got, want) in lin.a.iter().flatten().zip(expected.iter().flatten()) {
        assert!(
            (got.clone() - want.clone()).vanishes(),
            "A entry {} but the hand derivation gives {}",
            cas::print::spec(got, &sys),
            cas::print::spec(want, &sys)
        );
    }
}

/// The cart-pole with numbers, about its upright equilibrium: the eigenvalues are `0, 0` and
/// `±sqrt((M + m) g/(M l))` by hand, from the exact polynomial and, by a second route, from the
/// numeric `A` (balanced Hessenberg QR, the route of polynomials too large to evaluate).
#[test]
fn linearize_eigenvalues_agree_by_polynomial_and_by_matrix() {
    let source = fs::read_to_string(case("cart_pole").join("spec.mech")).unwrap();
    let lin = dalembert::linearize::linearize_spec(
        &source,
        "m=1,M=2,l=1/2,g=981/100",
        &[],
        (Options::default(), CodeOptions::default()),
    )
    .unwrap()
    .linearization;
    let by_polynomial = lin.eigenvalues.clone().unwrap();
    let by_matrix = mech::linearize::numeric_eigenvalues(&lin.a).unwrap();
    let root = (3.0 * 9.81 / (2.0 * 0.5f64)).sqrt();
    let hand = [-root, 0.0, 0.0, root];
    for roots in [&by_polynomial, &by_matrix] {
        assert_eq!(roots.len(), 4);
        for (z, h) in roots.iter().zip(hand) {
            assert!((z.re - h).abs() < 1e-9 && z.im.abs() < 1e-9, "{roots:?}");
        }
    }
}

/// The rolling disc about upright straight rolling (notes.md of golden/linearize/rolling_disc):
/// `A` entry by entry by hand, on both routes; and with numbers above the critical spin, six
/// zero eigenvalues and the lean's oscillation `±i √(−k)`, `k = (m g r − (C + m r²) C w0²/A)/(A + m r²)`.
#[test]
fn linearize_the_rolling_disc_is_the_hand_derived_one_and_stable_above_the_critical_spin() {
    let sys = system("rolling_disc");
    for solve in [Solve::Symbolic, Solve::Numeric] {
        let lin = linearized("rolling_disc", solve, &[]).linearization;
        assert_eq!(
            reduced_state(&lin, &sys),
            ["x", "y", "psi", "phi", "theta", "x'", "psi'", "phi'"]
        );
        let mut a = vec![vec!["0"; 8]; 8];
        for (row, column, value) in [
            (0, 5, "1"),
            (1, 2, "r*w0"),
            (2, 6, "1"),
            (3, 7, "1"),
            (4, 5, "1/r"),
            (6, 7, "-C*w0/A"),
            (7, 3, "m*g*r/(A + m*r^2)"),
            (7, 6, "(C + m*r^2)*w0/(A + m*r^2)"),
        ] {
            a[row][column] = value;
        }
        let a_refs: Vec<&[&str]> = a.iter().map(Vec::as_slice).collect();
        assert_same("rolling_disc", "A", &lin.a, &matrix(&sys, &a_refs), &sys);
    }
    let source = fs::read_to_string(case("rolling_disc").join("spec.mech")).unwrap();
    let lin = dalembert::linearize::linearize_spec(
        &source,
        "m=1,r=1/2,g=981/100,A=1/16,C=1/8,w0=10,x'=r*w0",
        &[],
        (Options::default(), CodeOptions::default()),
    )
    .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("rolling_disc", &source, &d)))
    .linearization;
    let k: f64 = (4.905 - 0.375 * 0.125 * 100.0 / 0.0625) / 0.3125;
    let mut eigenvalues = lin.eigenvalues.expect("numeric eigenvalues");
    eigenvalues.sort_by(|p, q| p.im.total_cmp(&q.im));
    assert_eq!(eigenvalues.len(), 8);
    let near = |x: f64, y: f64| (x - y).abs() <= 1e-6 * (1.0 + y.abs());
    assert!(near(eigenvalues[0].im, -(-k).sqrt()) && near(eigenvalues[7].im, (-k).sqrt()));
    // The zeros sit in Jordan chains (`psi' -> psi -> y`), which a numeric eigensolver resolves
    // to about the cube root of the rounding error.
    let zero = |e: &report::Complex| e.re.abs() < 1e-3 && e.im.abs() < 1e-3;
    assert!(eigenvalues.iter().all(|e| e.re.abs() < 1e-3));
    assert!(eigenvalues[1..7].iter().all(zero), "{eigenvalues:?}");
}

/// A second route for the double-precision linearisation: at a numeric point (every parameter
/// and every name of the point given a number), `--arithmetic double` chooses the same
/// dependent entries as the exact route and gives its `A`, `B`, rates and eigenvalues to
/// round-off, on every golden.
#[test]
fn linearize_in_double_precision_is_the_exact_linearisation_evaluated() {
    use mech::linearize::Requested;
    for name in ["cart_pole", "sleigh", "balancing_robot", "rolling_disc"] {
        let source = fs::read_to_string(case(name).join("spec.mech")).unwrap();
        let derived = dalembert::compile_with(&source, &Options::default()).unwrap();
        let system = derived.system();
        let at = fs::read_to_string(case(name).join("point")).unwrap();
        let mut point = model::point::read_point(system, at.trim()).unwrap();
        let mut free: std::collections::BTreeSet<String> =
            system.keys(&system.parameters).into_iter().collect();
        for value in point.values() {
            free.extend(value.symbols());
        }
        let numbers: BTreeMap<String, Expr> = free
            .iter()
            .filter(|s| !point.contains_key(*s))
            .enumerate()
            .map(|(k, s)| {
                (
                    s.clone(),
                    Expr::rational(20 + ((k as i64 * 37 + 11) % 50), 50),
                )
            })
            .collect();
        for value in point.values_mut() {
            *value = value.subs(&numbers);
        }
        point.extend(numbers);
        let exact = mech::linearize::linearize_in(&derived, &point, Requested::Exact).unwrap();
        let double = mech::linearize::linearize_in(&derived, &point, Requested::Double).unwrap();
        assert_eq!(exact.arithmetic, report::Arithmetic::Exact);
        assert_eq!(double.arithmetic, report::Arithmetic::Double);
        assert_eq!(
            double.independent, exact.independent,
            "{name}: the same reduced state"
        );
        let value = |e: &Expr| e.evaluate(&BTreeMap::new()).unwrap();
        let pairs = exact
            .a
            .iter()
            .chain(&exact.b)
            .flatten()
            .zip(double.a.iter().chain(&double.b).flatten())
            .chain(exact.rates.iter().zip(&double.rates));
        // The double-precision route computes in double-double arithmetic and rounds: each
        // number is the exact value's nearest double but for a few units in its last place.
        for (e, d) in pairs {
            let (e, d) = (value(e), value(d));
            assert!(
                (e - d).abs() <= 4.0 * f64::EPSILON * e.abs(),
                "{name}: {e} against {d}"
            );
        }
        let (x, y) = (exact.eigenvalues.unwrap(), double.eigenvalues.unwrap());
        for (p, q) in x.iter().zip(&y) {
            assert!(
                (p.re - q.re).abs() < 1e-9 && (p.im - q.im).abs() < 1e-9,
                "{name}: {x:?} {y:?}"
            );
        }
    }
}

/// Where doubles are not enough, the double-precision route still gives every digit: a spring
/// whose stiffness is `k (p − q)²` with `p = (10⁷ + 1)/3` and `q = 10⁷/3`. In doubles `p − q`
/// keeps nine digits of `1/3` (each of `p` and `q` is rounded by about `4·10⁻¹⁰`); the route
/// computes in double-double arithmetic, so `A = [[0, 1], [−k (p − q)²/m, 0]]` comes out as the
/// exact `−k/(9m)` to the last digit of a double, as the exact route gives it.
#[test]
fn linearize_in_double_precision_keeps_digits_that_doubles_lose() {
    use mech::linearize::Requested;
    let source = "system spring\nparameters m, k, p, q\ncoordinates x\nalgebroid tangent\n\
                  lagrangian = m/2*x'^2 - k/2*(p - q)^2*x^2\n";
    let derived = dalembert::compile_with(source, &Options::default()).unwrap();
    let system = derived.system();
    let point =
        model::point::read_point(system, "m=3,k=7,p=10000001/3,q=10000000/3,x=0,x'=0").unwrap();
    let exact = mech::linearize::linearize_in(&derived, &point, Requested::Exact).unwrap();
    let double = mech::linearize::linearize_in(&derived, &point, Requested::Double).unwrap();
    let value = |e: &Expr| e.evaluate(&BTreeMap::new()).unwrap();
    let hand = -7.0 / 27.0;
    assert_eq!(value(&exact.a[1][0]), hand);
    assert!((value(&double.a[1][0]) - hand).abs() <= f64::EPSILON * hand.abs());
    // The same in doubles alone: p − q is off in its tenth digit.
    let (p, q) = (10000001.0f64 / 3.0, 10000000.0f64 / 3.0);
    assert!(((-7.0 * (p - q) * (p - q) / 3.0) - hand).abs() > 1e-10 * hand.abs());
    let roots = double.eigenvalues.unwrap();
    let frequency = (7.0f64 / 27.0).sqrt();
    assert!(roots.iter().all(|z| z.re.abs() < 1e-15));
    assert!((roots[1].im.abs() - frequency).abs() < 1e-15, "{roots:?}");
}
