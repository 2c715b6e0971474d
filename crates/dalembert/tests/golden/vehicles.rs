//! Vehicles through the multibody front end (`golden/vehicles/`): the Whipple bicycle of the
//! benchmark of Meijaard, Papadopoulos, Ruina and Schwab (Proc. R. Soc. A 463 (2007)), written
//! with bodies, joints, a welded front assembly and two `contact … rolling` items, and linearised
//! in double precision.
//!
//! - The eigenvalues are the paper's Table 2 at `v = 5`, and at four other speeds those of the
//!   lean–steer matrix of SymPy's independent Kane's-method model of the same bicycle (the
//!   folder's `notes.md`).
//! - Away from upright, the pitch is solved from the front wheel's height condition.
//! - The outputs match their committed files (the JSON numbers to `1e-13` relative: they are
//!   computed in double-double arithmetic with the project's own `sin` and `cos` and rounded,
//!   so every platform gets them but for a rare rounding tie).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use cas::Expr;
use dalembert::Target;

use super::{compare, root};

fn case(name: &str) -> PathBuf {
    root().join("golden/vehicles").join(name)
}

/// The bicycle's derivation and its point (`point`) with `x'` (the forward speed) left out.
fn bicycle() -> (dalembert::Derived, BTreeMap<String, Expr>) {
    let source = fs::read_to_string(case("bicycle").join("spec.mech")).unwrap();
    let derived = dalembert::compile_with(&source, &dalembert::Options::default())
        .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)));
    let at = fs::read_to_string(case("bicycle").join("point")).unwrap();
    let point = read_point(derived.system(), at.trim());
    (derived, point)
}

/// `--at` read as `dalembert linearize` reads it.
fn read_point(system: &model::System, at: &str) -> BTreeMap<String, Expr> {
    model::point::read_point(system, at).unwrap()
}

/// The eigenvalues of the lean–steer matrix of SymPy's model at each speed (`notes.md`), sorted
/// by real part then imaginary part, printed to 12 decimals; at `v = 5` they are the paper's
/// Table 2, printed to 15 significant digits.
const REFERENCE: [(f64, [(f64, f64); 4]); 5] = [
    (
        0.0,
        [
            (-5.530943717654, 0.0),
            (-3.131643247907, 0.0),
            (3.131643247907, 0.0),
            (5.530943717654, 0.0),
        ],
    ),
    (
        2.0,
        [
            (-8.673879848317, 0.0),
            (-3.071586456415, 0.0),
            (2.682345175127, -1.680662965907),
            (2.682345175127, 1.680662965907),
        ],
    ),
    (
        4.5,
        [
            (-13.106060876755, 0.0),
            (-0.725000665551, 0.0),
            (-0.262842177634, -3.726579967175),
            (-0.262842177634, 3.726579967175),
        ],
    ),
    (
        5.0,
        [
            (-14.0783896927982, 0.0),
            (-0.775341882195845, -4.46486771378823),
            (-0.775341882195845, 4.46486771378823),
            (-0.322866429004087, 0.0),
        ],
    ),
    (
        7.0,
        [
            (-18.157884661252, 0.0),
            (-2.138756442584, -7.195259133298),
            (-2.138756442584, 7.195259133298),
            (0.102681705748, 0.0),
        ],
    ),
];

#[test]
fn the_whipple_bicycle_has_the_benchmark_eigenvalues_at_every_speed() {
    let (derived, base) = bicycle();
    let system = derived.system();
    let forward = read_point(system, "x'=0").into_keys().next().unwrap();
    for (v, reference) in REFERENCE {
        let mut point = base.clone();
        point.insert(forward.clone(), Expr::from_f64(v).unwrap());
        let lin = mech::linearize::linearize(&derived, &point)
            .unwrap_or_else(|r| panic!("v = {v}: refused: {r:?}"));
        assert_eq!(lin.arithmetic, report::Arithmetic::Double, "v = {v}");
        let roots = lin.eigenvalues.expect("eigenvalues");
        assert_eq!(roots.len(), 10, "v = {v}: ten independent entries");
        let zeros = roots.iter().filter(|z| z.re == 0.0 && z.im == 0.0).count();
        assert_eq!(
            zeros, 6,
            "v = {v}: six cyclic or rolling directions: {roots:?}"
        );
        let moving: Vec<_> = roots
            .iter()
            .filter(|z| z.re != 0.0 || z.im != 0.0)
            .collect();
        // Every printed digit: the linearisation and the eigenvalues are computed in
        // double-double arithmetic, so the doubles are exact to about 1e-15 here and the error
        // is the reference's rounding (half a unit of its last digit, 5e-13 for SymPy's twelve
        // decimals and 5e-14 for the paper's -14.0783896927982), plus 1e-14.
        let tolerance = if v == 5.0 { 6e-14 } else { 5.1e-13 };
        for (z, (re, im)) in moving.iter().zip(reference) {
            assert!(
                (z.re - re).abs() < tolerance && (z.im - im).abs() < tolerance,
                "v = {v}: {z:?}, the benchmark gives {re} + {im}i"
            );
        }
    }
}

/// At `v = 5` the lean acceleration by the lean is SymPy's `A[2][0]` (the dependent steer rate
/// does not involve the lean there, so the two reduced states agree on this entry).
#[test]
fn the_bicycle_lean_stiffness_is_the_independent_models() {
    let (derived, point) = bicycle();
    let system = derived.system();
    let lin = mech::linearize::linearize(&derived, &point).unwrap();
    let position = |name: &str| {
        let key = read_point(system, &format!("{name}=0"))
            .into_keys()
            .next()
            .unwrap();
        lin.independent
            .iter()
            .position(|&i| lin.state[i] == key)
            .unwrap_or_else(|| panic!("{name} is independent"))
    };
    let lean = position("phi");
    let lean_rate = {
        let key = read_point(system, "phi'=0").into_keys().next().unwrap();
        lin.independent
            .iter()
            .position(|&i| lin.state[i] == key)
            .expect("phi' is independent")
    };
    let entry = lin.a[lean_rate][lean].evaluate(&BTreeMap::new()).unwrap();
    assert!((entry - 9.48977444677355).abs() < 2e-14, "{entry}");
}

/// Steered by 0.2 rad and leaning by 0.1 rad, the rear frame must pitch for the front wheel to
/// touch the ground: the pitch is solved (it was not given), and the front wheel's height
/// condition holds there.
#[test]
fn a_steered_bicycle_gets_its_pitch_from_the_front_contact() {
    let (derived, mut point) = bicycle();
    let system = derived.system().clone();
    let key = |name: &str| {
        let spelled = read_point(&system, &format!("{name}=0"));
        spelled.into_keys().next().unwrap()
    };
    point.insert(key("delta"), Expr::rational(1, 5));
    point.insert(key("phi"), Expr::rational(1, 10));
    let lin = mech::linearize::linearize(&derived, &point).unwrap();
    let pitch = lin.point[&key("thB")].evaluate(&BTreeMap::new()).unwrap();
    assert!(pitch.abs() > 1e-4, "the pitch moves: {pitch}");
    assert!(!lin.defaulted.contains(&key("thB")), "the pitch is solved");
    let values: BTreeMap<String, f64> = lin
        .point
        .iter()
        .map(|(k, v)| (k.clone(), v.evaluate(&BTreeMap::new()).unwrap()))
        .collect();
    let heights: Vec<f64> = system
        .constraints
        .iter()
        .filter_map(|c| c.position.as_ref())
        .map(|f| f.evaluate(&values).unwrap())
        .collect();
    assert_eq!(heights.len(), 1, "one height condition (the front wheel)");
    assert!(heights[0].abs() < 1e-12, "{heights:?}");
}

/// The committed `bicycle-linear.json` and `.tex`: the LaTeX byte for byte (its numbers have six
/// digits), the JSON with its numbers to `1e-13` relative.
#[test]
fn the_bicycle_linearisation_matches_its_committed_files() {
    let source = fs::read_to_string(case("bicycle").join("spec.mech")).unwrap();
    let at = fs::read_to_string(case("bicycle").join("point")).unwrap();
    let lin = dalembert::linearize::linearize_spec(
        &source,
        at.trim(),
        &[Target::Json, Target::Latex],
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)));
    for artifact in lin.artifacts {
        let path = case("bicycle").join("expected").join(&artifact.file_name);
        if artifact.file_name.ends_with(".json") && !super::bless() {
            let expected: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            let actual: serde_json::Value = serde_json::from_str(&artifact.contents).unwrap();
            if let Err(at) = same_json(&expected, &actual, "") {
                panic!("{} differs at {at}", path.display());
            }
        } else {
            compare(&path, &artifact.contents).unwrap();
        }
    }
}

/// Equal JSON, numbers to `1e-13` relative; else where they differ.
fn same_json(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value::{Array, Number, Object};
    match (a, b) {
        (Number(x), Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if (x - y).abs() <= 1e-13 * x.abs().max(y.abs()).max(1e-300) || x == y {
                Ok(())
            } else {
                Err(format!("{at}: {x} against {y}"))
            }
        }
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (x, y))| same_json(x, y, &format!("{at}[{i}]"))),
        (Object(x), Object(y)) if x.keys().eq(y.keys()) => x
            .iter()
            .try_for_each(|(k, v)| same_json(v, &y[k], &format!("{at}.{k}"))),
        _ if a == b => Ok(()),
        _ => Err(at.to_string()),
    }
}

/// The steering head's tilt written `pi/10` in the spec itself (not a parameter given a value):
/// π is a constant of the double-precision route, and the eigenvalues are the benchmark's.
#[test]
fn a_bicycle_with_pi_in_its_geometry_linearises_in_double_precision() {
    let source = fs::read_to_string(case("bicycle").join("spec.mech"))
        .unwrap()
        .replace(
            "parameters g, w, c, lam, rR, rF",
            "parameters g, w, c, rR, rF",
        )
        .replace("lam", "(pi/10)");
    let at = fs::read_to_string(case("bicycle").join("point"))
        .unwrap()
        .replace("lam=pi/10,", "");
    let lin = dalembert::linearize::linearize_spec(
        &source,
        at.trim(),
        &[Target::Json],
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)))
    .linearization;
    assert_eq!(lin.arithmetic, report::Arithmetic::Double);
    let roots = lin.eigenvalues.expect("eigenvalues");
    let castor = roots.first().expect("a root");
    assert!((castor.re - -14.0783896927982).abs() < 6e-14, "{roots:?}");
}
