//! The packages built and tested for real, from committed golden systems: `cmake -S -B`,
//! `cmake --build`, `ctest` and `cargo test --offline` in the generated crate (its builds share
//! `target-pkg/cargo`). Plus packages of a system that fails on purpose, to show that the
//! package tests can fail. The tests that build a CMake package need cmake: where it is missing
//! they return after a notice, except under CI, where they fail (`common::require_tool`).
//!
//! The packages are written under `target-pkg/packages/<case>`, left there for inspection.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use package::{cargo_package, cmake_package, Emitted, FunctionSig, Output, Sizes};

fn helper_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory for one case.
fn case_dir(case: &str) -> PathBuf {
    let dir = helper_root().join("target-pkg/packages").join(case);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `$CMAKE`, else `cmake` (the tests check with `common::require_tool("cmake")` that `cmake`
/// is on the PATH).
fn cmake() -> Command {
    Command::new(std::env::var_os("CMAKE").unwrap_or_else(|| "cmake".into()))
}

/// `$CTEST`, else `ctest`.
fn ctest_command() -> Command {
    Command::new(std::env::var_os("CTEST").unwrap_or_else(|| "ctest".into()))
}

fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `command`: whether it succeeded, and its stdout and stderr.
fn run(command: &mut Command) -> (bool, String) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    let text = format!(
        "$ {command:?}\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

fn run_ok(command: &mut Command) -> String {
    let (ok, text) = run(command);
    assert!(ok, "failed:\n{text}");
    text
}

/// Cargo with the target directory of one case, `target-pkg/cargo/<case>`: kept between runs
/// for speed, but not shared between cases, since two crates of the same name and version
/// (a system and its tree-form variant) get the same file names and would race.
fn cargo(case: &str) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.env(
        "CARGO_TARGET_DIR",
        helper_root().join("target-pkg/cargo").join(case),
    );
    command
}

/// The case of a package directory `target-pkg/packages/<case>/...`.
fn case_of(dir: &Path) -> String {
    let packages = helper_root().join("target-pkg/packages");
    let relative = dir.strip_prefix(&packages).expect("a package directory");
    relative
        .iter()
        .next()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Configures and builds the CMake package in `dir` into `dir/<build>`; the build log.
fn cmake_build(dir: &Path, build: &str, definitions: &[&str]) -> String {
    let build = dir.join(build);
    let mut log = run_ok(
        cmake()
            .arg("-S")
            .arg(dir)
            .arg("-B")
            .arg(&build)
            .args(definitions),
    );
    log += &run_ok(cmake().arg("--build").arg(&build));
    log
}

/// `ctest` in a build directory: whether it passed, and its output.
fn ctest(build: &Path) -> (bool, String) {
    run(ctest_command()
        .arg("--output-on-failure")
        .current_dir(build))
}

/// The compiler warnings in a build log.
fn warnings(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains("warning:")).collect()
}

/// Writes, builds and tests the CMake package of `emitted` with `definitions`; asserts that
/// it passes and that the generated test compiles without warnings. The build log. cmake must
/// be installed: the calling test checks `common::require_tool("cmake")` first.
fn check_cmake(emitted: &Emitted, dir: &Path, build: &str, definitions: &[&str]) -> String {
    package::write_package(dir, &cmake_package(emitted).unwrap()).unwrap();
    let log = cmake_build(dir, build, definitions);
    let test_file = format!("test_{}.c", emitted.system);
    let own: Vec<&str> = warnings(&log)
        .into_iter()
        .filter(|l| l.contains(&test_file))
        .collect();
    assert!(
        own.is_empty(),
        "the generated test warns:\n{}",
        own.join("\n")
    );
    for warning in warnings(&log) {
        println!("emitted code: {warning}");
    }
    let (ok, out) = ctest(&dir.join(build));
    assert!(ok, "ctest failed:\n{out}");
    let (ok, out) = run(&mut Command::new(
        dir.join(build).join(format!("test_{}", emitted.system)),
    ));
    assert!(ok, "{out}");
    println!("{out}");
    log
}

/// Writes the crate of `emitted` and runs `cargo test --offline` in it; the test output.
fn check_crate(emitted: &Emitted, dir: &Path) -> String {
    package::write_package(dir, &cargo_package(emitted).unwrap()).unwrap();
    let out = run_ok(
        cargo(&case_of(dir))
            .args(["test", "--offline", "--", "--nocapture"])
            .current_dir(dir),
    );
    assert!(out.contains("test result: ok"), "{out}");
    if emitted.integrated().is_some() {
        // With one test thread (the workspace's RUST_TEST_THREADS) the test's own output comes
        // between "test rk4 ... " and its "ok".
        assert!(
            out.contains("test rk4 ... ") && !out.contains("FAILED"),
            "{out}"
        );
    }
    if available("rustfmt") {
        run_ok(
            cargo(&case_of(dir))
                .args(["fmt", "--check"])
                .current_dir(dir),
        );
    }
    out
}

/// Both packages of one golden system, CMake first (cmake must be installed, as for
/// [`check_cmake`]); `None` without the golden outputs.
fn golden_case(relative: &str, case: &str) -> Option<(Emitted, PathBuf)> {
    let root = common::require_golden()?;
    let emitted = common::load_golden(&root, relative);
    let dir = case_dir(case);
    check_cmake(&emitted, &dir.join("cmake"), "build", &[]);
    check_crate(&emitted, &dir.join("crate"));
    Some((emitted, dir))
}

#[test]
fn chaplygin_sleigh_builds_in_double_and_float_and_no_std() {
    if !common::require_tool("cmake") {
        return;
    }
    let Some((emitted, dir)) = golden_case(
        "chaplygin_sleigh/expected/chaplygin_sleigh",
        "chaplygin_sleigh",
    ) else {
        return;
    };
    // No golden system is emitted in single precision: its typedef is switched by hand (the
    // system calls no math function but fabs, which C converts).
    let mut single = emitted.clone();
    let double = "#define DALEMBERT_REAL_BITS 64\ntypedef double dalembert_real;";
    assert!(
        single.header.contains(double),
        "the header's typedef changed"
    );
    single.header = single.header.replace(
        double,
        "#define DALEMBERT_REAL_BITS 32\ntypedef float dalembert_real;",
    );
    single.float_is_f32 = true;
    check_cmake(&single, &dir.join("cmake-f32"), "build", &[]);
    let krate = dir.join("crate");
    run_ok(
        cargo("chaplygin_sleigh")
            .args(["build", "--offline", "--no-default-features"])
            .current_dir(&krate),
    );
    run_ok(
        cargo("chaplygin_sleigh")
            .args([
                "clippy",
                "--offline",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ])
            .current_dir(&krate),
    );
}

#[test]
fn a_single_precision_crate_builds() {
    let Some(root) = common::require_golden() else {
        return;
    };
    // No golden system is emitted in f32: the module's `Real` is switched by hand, as
    // `--float f32` would emit it.
    let mut emitted = common::load_golden(&root, "chaplygin_sleigh/expected/chaplygin_sleigh");
    let rust = emitted.rust.take().unwrap();
    assert!(rust.contains("pub type Real = f64;"));
    emitted.rust = Some(rust.replace("pub type Real = f64;", "pub type Real = f32;"));
    emitted.float_is_f32 = true;
    let dir = case_dir("chaplygin_sleigh_f32");
    let out = check_crate(&emitted, &dir.join("crate"));
    assert!(out.contains("after 10 RK4 steps of rhs"), "{out}");
    let lib = std::fs::read_to_string(dir.join("crate/src/lib.rs")).unwrap();
    assert!(lib.contains("[`Real`] = `f32`"));
}

#[test]
fn two_wheeled_robot_builds_and_needs_std() {
    if !common::require_tool("cmake") {
        return;
    }
    let Some((_, dir)) = golden_case(
        "multibody/two_wheeled_robot/expected/two_wheeled_robot",
        "two_wheeled_robot",
    ) else {
        return;
    };
    let (ok, out) = run(cargo("two_wheeled_robot")
        .args(["build", "--offline", "--no-default-features"])
        .current_dir(dir.join("crate")));
    assert!(!ok, "a system calling sin built without std:\n{out}");
    assert!(
        out.contains("calls cos, sin, which need the `std` feature"),
        "{out}"
    );
}

#[test]
fn two_wheeled_robot_in_tree_form_integrates_forward_dynamics() {
    if !common::require_tool("cmake") {
        return;
    }
    let Some(root) = common::require_golden() else {
        return;
    };
    let mut emitted = common::load_golden(
        &root,
        "multibody/two_wheeled_robot/expected/two_wheeled_robot",
    );
    emitted.functions.retain(|f| f.name == "forward_dynamics");
    let dir = case_dir("two_wheeled_robot_tree");
    check_cmake(&emitted, &dir.join("cmake"), "build", &[]);
    let out = check_crate(&emitted, &dir.join("crate"));
    assert!(
        out.contains("after 10 RK4 steps of forward_dynamics"),
        "{out}"
    );
}

#[test]
fn arm6_builds() {
    if !common::require_tool("cmake") {
        return;
    }
    golden_case("multibody/arm6/expected/arm6", "arm6");
}

#[test]
fn jet_time_dependent_with_functions_of_time_builds() {
    if !common::require_tool("cmake") {
        return;
    }
    golden_case(
        "jet_time_dependent/expected/jet_time_dependent",
        "jet_time_dependent",
    );
}

#[test]
fn four_bar_with_projections_builds() {
    if !common::require_tool("cmake") {
        return;
    }
    golden_case("implicit/four_bar/expected/four_bar", "four_bar");
}

#[test]
fn three_steps_with_empty_arrays_builds() {
    if !common::require_tool("cmake") {
        return;
    }
    golden_case("singular/three_steps/expected/three_steps", "three_steps");
}

/// A hand-written system whose `rhs` misbehaves as `c_body` / `rust_body` say.
fn broken(c_body: &str, rust_body: &str) -> Emitted {
    let header = "#ifndef DALEMBERT_BROKEN_H
#define DALEMBERT_BROKEN_H
#include <stddef.h>
typedef double dalembert_real;
#define BROKEN_N_STATE 2
#define BROKEN_N_PARAMETERS 1
#define BROKEN_N_INPUTS 0
#define BROKEN_N_FUNCTIONS 0
#define BROKEN_N_MULTIPLIERS 0
#define BROKEN_N_VELOCITIES 1
int broken_rhs(dalembert_real t, const dalembert_real *x, const dalembert_real *p,
    const dalembert_real *u, const dalembert_real *f, dalembert_real *xdot);
#endif
";
    let source = format!(
        "#include <math.h>
#include \"broken.h\"
int broken_rhs(dalembert_real t, const dalembert_real *x, const dalembert_real *p,
    const dalembert_real *u, const dalembert_real *f, dalembert_real *xdot)
{{
    (void)t; (void)x; (void)p; (void)u; (void)f;
    {c_body}
}}
"
    );
    let rust = format!(
        "//! A system that fails on purpose.
#![allow(unused_variables)]
/// The floating-point type.
pub type Real = f64;
/// The division guard.
pub const EPSILON: Real = 0.0;
/// A refused division.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingularAt(pub usize);
/// The rates.
pub fn rhs(t: Real, x: &[Real; 2], p: &[Real; 1], u: &[Real; 0], f: &[Real; 0], xdot: &mut [Real; 2]) -> Result<(), SingularAt> {{
    {rust_body}
}}
"
    );
    Emitted {
        system: "broken".into(),
        header: header.into(),
        source,
        rust: Some(rust),
        functions: vec![FunctionSig {
            name: "rhs".into(),
            doc: "The rates, wrong on purpose.".into(),
            outputs: vec![Output {
                name: "xdot".into(),
                len: 2,
                doc: "q', v'".into(),
            }],
            rates: Some(0),
            state: None,
        }],
        sizes: Sizes {
            state: 2,
            parameters: 1,
            velocities: 1,
            ..Sizes::default()
        },
        state_names: vec!["q".into(), "v".into()],
        parameter_names: vec!["k".into()],
        generator_version: "test".into(),
        ..Emitted::default()
    }
}

/// The C test must fail, with `message` on stderr, when `rhs` misbehaves in each way; one
/// configured build, the source rewritten per case.
#[test]
fn the_c_test_fails_when_the_system_does() {
    if !common::require_tool("cmake") {
        return;
    }
    let cases = [
        ("return 1;", "broken_rhs returned 1 at t = 0"),
        (
            "xdot[0] = x[1]; xdot[1] = -p[0] * x[0]; return t > 0.0045 ? 2 : 0;",
            "broken_rhs returned 2 at t = 0.00",
        ),
        (
            "xdot[0] = x[1]; xdot[1] = NAN; return 0;",
            "xdot[1] = nan is not finite",
        ),
        ("xdot[0] = x[1]; return 0;", "xdot[1] = nan is not finite"),
    ];
    let dir = case_dir("broken_c");
    let good = broken("xdot[0] = x[1]; xdot[1] = -p[0] * x[0]; return 0;", "");
    package::write_package(&dir, &cmake_package(&good).unwrap()).unwrap();
    cmake_build(&dir, "build", &[]);
    let exe = dir.join("build/test_broken");
    run_ok(&mut Command::new(&exe));
    for (body, message) in cases {
        let files = cmake_package(&broken(body, "")).unwrap();
        package::write_package(&dir, &files).unwrap();
        run_ok(cmake().arg("--build").arg(dir.join("build")));
        let output = Command::new(&exe).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{body}: {stderr}");
        assert!(stderr.contains(message), "{body}: {stderr}");
        let (ok, out) = ctest(&dir.join("build"));
        assert!(!ok, "ctest passed with {body}:\n{out}");
    }
}

/// The Rust test must fail when `rhs` refuses a division or leaves an output unwritten.
#[test]
fn the_rust_test_fails_when_the_system_does() {
    let cases = [
        ("Err(SingularAt(1))", "rhs failed at t = 0: SingularAt(1)"),
        ("xdot[0] = x[1]; Ok(())", "rhs: xdot[1] = NaN is not finite"),
    ];
    let dir = case_dir("broken_rust");
    for (body, message) in cases {
        let files = cargo_package(&broken("return 0;", body)).unwrap();
        package::write_package(&dir, &files).unwrap();
        let (ok, out) = run(cargo("broken_rust")
            .args(["test", "--offline"])
            .current_dir(&dir));
        assert!(!ok, "cargo test passed with {body}:\n{out}");
        assert!(out.contains(message), "{body}:\n{out}");
    }
}

/// Every committed golden system, both packages (about two minutes on two cores):
/// `cargo test --test build -- --ignored`.
#[test]
#[ignore = "slow: builds every golden system"]
fn every_golden_system_builds() {
    if !common::require_tool("cmake") {
        return;
    }
    let Some(root) = common::require_golden() else {
        return;
    };
    for (dir, stem) in common::golden_systems(&root) {
        let relative = dir.join(&stem);
        let relative = relative.strip_prefix(&root).unwrap().to_string_lossy();
        let case = format!("all_{}", relative.replace('/', "_"));
        golden_case(&relative, &case);
    }
}
