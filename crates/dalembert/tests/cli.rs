//! The command line, as a user runs it: exit codes, atomic output, located diagnostics, the
//! per-user lock, determinism across processes.
//!
//! This test binary never calls Symbolica itself (a second process of the same user would be
//! aborted while this one held it): it only spawns `dalembert`.

mod common;

use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn golden(case: &str) -> PathBuf {
    root().join("golden").join(case).join("spec.mech")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dalembert-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dalembert"))
        .args(args)
        .output()
        .expect("dalembert runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `--profile` table a run printed on stderr (`text`), from its header on, if it printed one.
fn profile_table(text: &str) -> Option<&str> {
    text.find("stage ").map(|at| &text[at..])
}

/// Whether the `--profile` table `table` has the stage `name`, at any depth.
fn has_stage(table: &str, name: &str) -> bool {
    table
        .lines()
        .any(|line| line.trim_start().starts_with(&format!("{name} ")))
}

#[test]
fn derive_writes_json_and_latex_and_nothing_on_stdout_but_the_licence_banner() {
    let dir = scratch("derive");
    let out = run(&[
        "derive",
        golden("ball_on_turntable").to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = fs::read_to_string(dir.join("ball_on_turntable.json")).unwrap();
    assert!(json.contains("\"equations\""));
    assert!(fs::read_to_string(dir.join("ball_on_turntable.tex"))
        .unwrap()
        .contains("\\input{ball_on_turntable-body}"));
    assert!(fs::read_to_string(dir.join("ball_on_turntable-body.tex"))
        .unwrap()
        .contains("\\label{eq:ball_on_turntable:equations:x}"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("\"equations\""));
    let _ = fs::remove_dir_all(&dir);
}

/// `--profile` prints where the time went on stderr, stage by stage and nested (the closed-form
/// probe and its elimination inside the derivation, the C inside its target, the writing last),
/// and changes no artifact.
#[test]
fn derive_profile_tabulates_the_stages_and_changes_no_output() {
    let spec = golden("implicit/pendulum_cart_5");
    let plain = scratch("profile-plain");
    let profiled = scratch("profile-on");
    for (dir, extra) in [(&plain, None), (&profiled, Some("--profile"))] {
        let mut args = vec![
            "derive",
            spec.to_str().unwrap(),
            "--emit",
            "json,c",
            "-o",
            dir.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stderr(&out);
        let table = profile_table(&text);
        match extra {
            None => assert!(table.is_none(), "a table without --profile:\n{text}"),
            Some(_) => {
                let table = table.expect("a table of stages");
                let names: Vec<&str> = table.lines().skip(1).map(str::trim_start).collect();
                let at = |stage: &str| {
                    names
                        .iter()
                        .position(|line| line.starts_with(&format!("{stage} ")))
                        .unwrap_or_else(|| panic!("no stage `{stage}` in\n{table}"))
                };
                assert!(at("parse") < at("resolve") && at("resolve") < at("derive"));
                assert!(
                    at("derive") < at("closed-form probe")
                        && at("closed-form probe") < at("elimination")
                );
                assert!(at("c") < at("functions") && at("json") < at("c") && at("c") < at("write"));
                assert!(
                    table.contains("\n    elimination "),
                    "the elimination is nested twice:\n{table}"
                );
                // Then the wall time of the whole derivation, at least that of its stages.
                let milliseconds = |line: &str| -> f64 {
                    line.split_whitespace()
                        .rev()
                        .nth(1)
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                let top: Vec<f64> = table
                    .lines()
                    .skip(1)
                    .take_while(|line| !line.is_empty())
                    .filter(|line| !line.starts_with(' '))
                    .map(milliseconds)
                    .collect();
                let stages: f64 = top.iter().sum();
                let last = table.lines().last().unwrap_or_default();
                let whole: f64 = last
                    .strip_prefix("in process: ")
                    .and_then(|rest| rest.split(" ms (").next())
                    .and_then(|ms| ms.parse().ok())
                    .unwrap_or_else(|| panic!("no `in process` line last:\n{table}"));
                // Each printed time is rounded to 0.1 ms.
                assert!(
                    whole + 0.05 * (top.len() + 1) as f64 >= stages,
                    "in process {whole} ms, under its top stages' {stages} ms:\n{table}"
                );
            }
        }
    }
    for file in [
        "pendulum_cart_5.json",
        "pendulum_cart_5.c",
        "pendulum_cart_5.h",
    ] {
        assert_eq!(
            fs::read(plain.join(file)).unwrap(),
            fs::read(profiled.join(file)).unwrap(),
            "{file} differs with --profile"
        );
    }
    let _ = fs::remove_dir_all(&plain);
    let _ = fs::remove_dir_all(&profiled);
}

/// The C and the Rust of one run share the flow's functions: a run that emits both computes
/// them once (`--profile` enters the stage `functions` once, inside the first code target), and
/// writes what a run of each target alone writes, byte for byte.
#[test]
fn derive_computes_the_functions_once_for_c_and_rust() {
    let spec = golden("implicit/pendulum_cart_5");
    let both = scratch("shared-both");
    let out = run(&[
        "derive",
        spec.to_str().unwrap(),
        "--emit",
        "c,rust",
        "--profile",
        "-o",
        both.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stderr(&out);
    let table = profile_table(&text).expect("a table of stages");
    let functions: Vec<&str> = table
        .lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with("functions "))
        .collect();
    assert_eq!(functions.len(), 1, "one `functions` stage:\n{table}");
    assert!(functions[0].ends_with(" 1"), "entered once:\n{table}");
    for (target, files) in [
        ("c", &["pendulum_cart_5.c", "pendulum_cart_5.h"][..]),
        ("rust", &["pendulum_cart_5.rs"][..]),
    ] {
        let alone = scratch(&format!("shared-{target}"));
        let out = run(&[
            "derive",
            spec.to_str().unwrap(),
            "--emit",
            target,
            "-o",
            alone.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        for file in files {
            assert_eq!(
                fs::read(both.join(file)).unwrap(),
                fs::read(alone.join(file)).unwrap(),
                "{file} differs between --emit c,rust and --emit {target}"
            );
        }
        let _ = fs::remove_dir_all(&alone);
    }
    let _ = fs::remove_dir_all(&both);
}

/// On Linux the command is linked at a fixed address (`crates/dalembert/build.rs`), so that the
/// dynamic loader relocates nothing at its start: its ELF type is `ET_EXEC` (2), where a
/// position-independent executable's is `ET_DYN` (3).
#[cfg(target_os = "linux")]
#[test]
fn the_command_is_linked_at_a_fixed_address() {
    use std::io::Read;
    let mut header = [0u8; 18];
    fs::File::open(env!("CARGO_BIN_EXE_dalembert"))
        .and_then(|mut f| f.read_exact(&mut header))
        .expect("the binary's ELF header reads");
    assert_eq!(&header[..4], b"\x7fELF");
    // `e_ident[EI_DATA]`: 1 for little-endian, 2 for big-endian.
    let elf_type = match header[5] {
        1 => u16::from_le_bytes([header[16], header[17]]),
        _ => u16::from_be_bytes([header[16], header[17]]),
    };
    assert_eq!(
        elf_type, 2,
        "ET_EXEC, not a position-independent executable"
    );
}

/// A package is made with its functions' work arrays on the stack: `--emit cmake --work caller`
/// (and `crate`) is refused with E0004 before any target is rendered (the C asked for beside it
/// computes no function), and nothing is written.
#[test]
fn derive_refuses_a_package_with_caller_work_and_writes_nothing() {
    let spec = golden("implicit/pendulum_cart_2");
    for emit in ["c,cmake", "crate"] {
        let dir = scratch(&format!("package-caller-{}", emit.replace(',', "-")));
        let out = run(&[
            "derive",
            spec.to_str().unwrap(),
            "--emit",
            emit,
            "--work",
            "caller",
            "--profile",
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "--emit {emit}: {}",
            stderr(&out)
        );
        let text = stderr(&out);
        assert!(
            text.contains("E0004") && text.contains("drop --work caller"),
            "--emit {emit}: {text}"
        );
        assert!(!dir.exists(), "--emit {emit} wrote {}", dir.display());
        // Refused before the C beside it computed its functions.
        let table = profile_table(&text).expect("a table of stages");
        assert!(
            !has_stage(table, "functions"),
            "--emit {emit} computed functions before refusing:\n{table}"
        );
    }
}

/// `--latex-level subsection` starts the body's sections one level down, `--latex-sections`
/// keeps the named quantities and the sections that hold them, and a key the document does not
/// display exits 1 with the keys it does, writing nothing.
#[test]
fn derive_latex_level_and_sections_shape_the_body() {
    let dir = scratch("latex-options");
    let spec = golden("chaplygin_sleigh");
    let out = run(&[
        "derive",
        spec.to_str().unwrap(),
        "--emit",
        "latex",
        "--latex-level",
        "subsection",
        "--latex-sections",
        "equations,multipliers",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let body = fs::read_to_string(dir.join("chaplygin_sleigh-body.tex")).unwrap();
    assert!(!body.contains("\\section{"), "{body}");
    assert!(body.contains("\\subsection{"), "{body}");
    assert!(
        body.contains("\\label{eq:chaplygin_sleigh:equations:"),
        "{body}"
    );
    assert!(
        body.contains("\\label{eq:chaplygin_sleigh:multipliers:lambda1}"),
        "{body}"
    );
    assert!(!body.contains(":energy"), "{body}");
    assert!(!body.contains("Hamiltonian side"), "{body}");
    let _ = fs::remove_dir_all(&dir);
    let out = run(&[
        "derive",
        spec.to_str().unwrap(),
        "--emit",
        "latex",
        "--latex-sections",
        "equations,wobble",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("`wobble`") && message.contains("multipliers"),
        "{message}"
    );
    assert!(!dir.join("chaplygin_sleigh-body.tex").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_spec_exits_1_with_a_located_diagnostic_and_writes_nothing() {
    let dir = scratch("bad");
    let bad = root().join("golden/errors/04-unknown-name-in-lagrangian.mech");
    let out = run(&["derive", bad.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("04-unknown-name-in-lagrangian.mech:6:27"),
        "{}",
        stderr(&out)
    );
    assert!(
        !dir.exists(),
        "an output directory was written for a failed run"
    );
    // A good spec beside a bad one: still nothing written.
    let out = run(&[
        "derive",
        golden("rigid_body_so3").to_str().unwrap(),
        bad.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.exists());
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["derive"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    let out = run(&[
        "derive",
        golden("rigid_body_so3").to_str().unwrap(),
        "--emit",
        "fortran",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn check_proves_the_expectations_and_fails_on_a_wrong_one() {
    let out = run(&[
        "check",
        golden("ball_on_turntable").to_str().unwrap(),
        golden("rigid_body_so3").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ball_on_turntable/spec.mech: 150 of 150 expectations hold"),
        "{stdout}"
    );
    let dir = scratch("wrong");
    fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong.mech");
    let source = fs::read_to_string(golden("rigid_body_so3")).unwrap();
    let changed = source.replacen("(I2 - I3)/I1*w2*w3", "(I3 - I2)/I1*w2*w3", 1);
    assert_ne!(
        source, changed,
        "the golden's Euler equation is written as expected"
    );
    fs::write(&wrong, changed).unwrap();
    let out = run(&["check", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("differs by"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_is_not_utf8_is_reported() {
    let dir = scratch("utf8");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.mech");
    fs::write(&path, b"system caf\xe9\n").unwrap();
    let out = run(&[
        "derive",
        path.to_str().unwrap(),
        "-o",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    // Located at the bad byte, after the text before it: `system caf`.
    assert!(
        stderr(&out)
            .contains("error[E0001]: the file is not UTF-8 text (invalid byte at offset 10)")
            && stderr(&out).contains("latin1.mech:1:11\n")
            && stderr(&out).contains("1 | system caf\n"),
        "{}",
        stderr(&out)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_second_dalembert_waits_for_the_lock_instead_of_aborting() {
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dalembert::lock::lock_path())
        .unwrap();
    lock.lock().unwrap();
    let dir = scratch("lock");
    let child = Command::new(env!("CARGO_BIN_EXE_dalembert"))
        .args([
            "derive",
            golden("rigid_body_so3").to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!dir.exists(), "dalembert ran while the lock was held");
    lock.unlock().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("waiting for another dalembert"),
        "{}",
        stderr(&out)
    );
    assert!(dir.join("rigid_body_so3.json").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn two_dalembert_started_at_once_never_abort_in_200_overlaps() {
    // Symbolica aborts a second process of the same user while the first holds it; the lock
    // must keep the second waiting until the first has let go, teardown included.
    // The two sides differ in `$USER` and `$TMPDIR`, as two shells, a cron job or a container
    // of one user may: the lock is the user's whatever the environment says.
    let spec = golden("skew_algebra");
    let dir = scratch("overlap");
    let own_tmp = dir.join("tmp");
    fs::create_dir_all(&own_tmp).unwrap();
    for round in 0..200 {
        let children: Vec<_> = ["a", "b"]
            .iter()
            .map(|side| {
                let mut command = Command::new(env!("CARGO_BIN_EXE_dalembert"));
                if *side == "a" {
                    command.env("USER", "someone-else").env("TMPDIR", &own_tmp);
                } else {
                    command.env_remove("USER").env_remove("LOGNAME");
                }
                command
                    .args(["derive", spec.to_str().unwrap(), "--emit", "json", "-o"])
                    .arg(dir.join(side))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {round}: {:?}\n{}",
                out.status,
                stderr(&out)
            );
        }
    }
    assert_eq!(
        fs::read(dir.join("a/skew_algebra.json")).unwrap(),
        fs::read(dir.join("b/skew_algebra.json")).unwrap()
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_lock_is_keyed_on_the_user_id_in_a_fixed_place() {
    let path = dalembert::lock::lock_path();
    let uid = fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m));
    if let Ok(uid) = uid {
        assert_eq!(path, Path::new(&format!("/tmp/dalembert-uid{uid}.lock")));
    }
}

/// A process that keeps one core busy until it is dropped: the load under which a run must
/// give the same output as on an idle machine.
struct Busy(std::process::Child);

impl Busy {
    fn start() -> Busy {
        Busy(
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .expect("sh runs"),
        )
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Every golden spec (closed and implicit form), for whole-pipeline runs.
fn every_golden() -> Vec<PathBuf> {
    let mut specs = Vec::new();
    for dir in [root().join("golden"), root().join("golden/implicit")] {
        for entry in fs::read_dir(dir).unwrap() {
            let spec = entry.unwrap().path().join("spec.mech");
            if spec.exists() {
                specs.push(spec);
            }
        }
    }
    specs.sort();
    specs
}

#[test]
fn the_same_spec_gives_byte_identical_output_in_separate_processes_and_under_load() {
    let (a, b) = (scratch("det-a"), scratch("det-b"));
    let specs: Vec<String> = every_golden()
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    let mut forward: Vec<&str> = vec!["derive", "--emit", "json,latex,c,rust"];
    forward.extend(specs.iter().map(|s| s.as_str()));
    forward.extend(["-o", a.to_str().unwrap()]);
    // The other run derives them in the opposite order, so symbol creation order differs.
    let mut backward: Vec<&str> = vec!["derive", "--emit", "json,latex,c,rust"];
    backward.extend(specs.iter().rev().map(|s| s.as_str()));
    backward.extend(["-o", b.to_str().unwrap()]);
    let out = run(&forward);
    assert!(out.status.success(), "{}", stderr(&out));
    // The other run under load: at a low priority, beside a process that keeps a core busy
    // (at the lowest priority beside two of them, a 2-core machine gives it too little time to
    // finish within its watchdog). No output may depend on how fast the run was.
    let busy = Busy::start();
    let out = Command::new("nice")
        .args(["-n", "10", env!("CARGO_BIN_EXE_dalembert")])
        .args(&backward)
        .args(["--timeout", "3600"])
        .output()
        .expect("nice runs dalembert");
    drop(busy);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<_> = fs::read_dir(&a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    files.sort();
    // json, tex, -body.tex, c, h, rs for each golden (and the .bib of the papers it cites).
    let bib = files
        .iter()
        .filter(|f| f.to_string_lossy().ends_with(".bib"))
        .count();
    assert_eq!(files.len() - bib, 6 * specs.len(), "{files:?}");
    assert!(bib > 0, "no golden cites a paper");
    for file in files {
        assert_eq!(
            fs::read(a.join(&file)).unwrap(),
            fs::read(b.join(&file)).unwrap(),
            "{file:?} differs between runs"
        );
    }
    let _ = fs::remove_dir_all(&a);
    let _ = fs::remove_dir_all(&b);
}

#[test]
fn every_bad_spec_exits_1_and_writes_nothing() {
    let mut bad: Vec<PathBuf> = fs::read_dir(root().join("golden/errors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mech"))
        .collect();
    bad.sort();
    assert!(bad.len() >= 50, "the corpus has {} specs", bad.len());
    for spec in bad {
        let dir = scratch("corpus");
        let out = run(&[
            "derive",
            spec.to_str().unwrap(),
            "--emit",
            "json,latex,c,rust",
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {}",
            spec.display(),
            stderr(&out)
        );
        // `derive` reports exactly what the committed diagnostics say (malformed `expect`
        // blocks included: it validates them, and `check` proves them).
        let committed = fs::read_to_string(spec.with_extension("stderr")).unwrap();
        let first = committed.lines().next().unwrap_or_default();
        assert!(
            stderr(&out).contains(first),
            "{}: expected `{first}` in\n{}",
            spec.display(),
            stderr(&out)
        );
        assert!(!dir.exists(), "{} wrote {}", spec.display(), dir.display());
    }
}

#[test]
fn code_options_select_the_float_type_and_the_functions() {
    let dir = scratch("code");
    let out = run(&[
        "derive",
        golden("ball_on_turntable").to_str().unwrap(),
        "--emit",
        "c,rust",
        "--float",
        "f32",
        "--form",
        "implicit",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let header = fs::read_to_string(dir.join("ball_on_turntable.h")).unwrap();
    assert!(header.contains("typedef float dalembert_real;"));
    let source = fs::read_to_string(dir.join("ball_on_turntable.c")).unwrap();
    assert!(source.contains("1.0f") && !source.contains("double"));
    assert!(header.contains("int ball_on_turntable_implicit("));
    assert!(!header.contains("int ball_on_turntable_rhs("));
    let rust = fs::read_to_string(dir.join("ball_on_turntable.rs")).unwrap();
    assert!(rust.contains("pub type Real = f32;"));
    assert!(
        !dir.join("ball_on_turntable.json").exists(),
        "only the requested targets are written"
    );
    assert_eq!(
        run(&[
            "derive",
            golden("ball_on_turntable").to_str().unwrap(),
            "--float",
            "f16"
        ])
        .status
        .code(),
        Some(2)
    );
    let _ = fs::remove_dir_all(&dir);
}

/// `--form tree` emits only the O(n) recursions of a tree of joints (a controller's code that
/// compiles in seconds), warning-free in C (double and float) and Rust; a system without bodies
/// and joints is refused with E0505 and nothing is written.
#[test]
fn form_tree_emits_only_the_recursions_or_refuses_with_e0505() {
    let dir = scratch("tree");
    let chain = root().join("golden/multibody/chain7/spec.mech");
    let out = run(&[
        "derive",
        chain.to_str().unwrap(),
        "--emit",
        "c,rust",
        "--form",
        "tree",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let header = fs::read_to_string(dir.join("chain_7.h")).unwrap();
    assert!(header.contains("int chain_7_forward_dynamics("));
    assert!(header.contains("int chain_7_inverse_dynamics("));
    for absent in ["rhs", "dynamics", "rhs_jacobian", "implicit"] {
        assert!(
            !header.contains(&format!("int chain_7_{absent}(")),
            "{absent} is emitted under --form tree"
        );
    }
    let single = dir.join("f32");
    let out = run(&[
        "derive",
        chain.to_str().unwrap(),
        "--emit",
        "c",
        "--form",
        "tree",
        "--float",
        "f32",
        "-o",
        single.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (work, real) in [(&dir, "double"), (&single, "float")] {
        let gcc = std::process::Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c"])
            .args(["-Wdouble-promotion", "-Wconversion"])
            .args(["chain_7.c", "-o", "chain_7.o"])
            .current_dir(work)
            .output()
            .unwrap();
        assert!(gcc.status.success(), "gcc ({real}): {}", stderr(&gcc));
    }
    let rustc = std::process::Command::new("rustc")
        .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings"])
        .args(["chain_7.rs", "--out-dir", "."])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(rustc.status.success(), "rustc: {}", stderr(&rustc));
    let _ = fs::remove_dir_all(&dir);
    let dir = scratch("tree-refused");
    let out = run(&[
        "derive",
        golden("chaplygin_sleigh").to_str().unwrap(),
        "--emit",
        "c",
        "--form",
        "tree",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("error[E0505]") && message.contains("nothing written"),
        "{message}"
    );
    assert!(!dir.exists(), "a refused run wrote {}", dir.display());
}

#[test]
fn budgets_stop_a_run_with_a_message_and_write_nothing() {
    let ball = golden("ball_on_turntable");
    let dir = scratch("max-ops");
    let out = run(&[
        "derive",
        ball.to_str().unwrap(),
        "--emit",
        "c",
        "--max-ops",
        "10",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("above the budget --max-ops 10") && message.contains("nothing written"),
        "{message}"
    );
    assert!(!dir.exists(), "an over-budget run wrote {}", dir.display());
    let dir = scratch("timeout");
    let out = run(&[
        "derive",
        ball.to_str().unwrap(),
        "--timeout",
        "0",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("time budget of 0 s (--timeout)"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.exists(), "a timed-out run wrote {}", dir.display());
    for (flag, value, code) in [
        ("--max-terms", "5", "E0501"),
        ("--max-memory", "1", "E0504"),
    ] {
        let dir = scratch(flag.trim_start_matches('-'));
        let out = run(&[
            "derive",
            ball.to_str().unwrap(),
            flag,
            value,
            "-o",
            dir.to_str().unwrap(),
        ]);
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{flag}: {message}");
        assert!(
            message.contains(&format!("error[{code}]")) && message.contains(flag),
            "{flag}: {message}"
        );
        assert!(
            !dir.exists(),
            "{flag}: an over-budget run wrote {}",
            dir.display()
        );
    }
}

#[test]
fn an_egraph_budget_is_reported_and_the_code_still_written() {
    let dir = scratch("egraph");
    let out = run(&[
        "derive",
        golden("ball_on_turntable").to_str().unwrap(),
        "--emit",
        "c",
        "--egraph-nodes",
        "1",
        "--egraph-iters",
        "1",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{message}");
    assert!(
        message.contains("stopped at the e-node budget (1 nodes, --egraph-nodes)"),
        "{message}"
    );
    assert!(dir.join("ball_on_turntable.c").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn solve_chooses_the_route_and_numeric_code_has_the_solve() {
    // pendulum_cart_2's closed form fits the default budget; pendulum_cart_5's does not.
    let cases = [
        ("pendulum_cart_2", "auto", false),
        ("pendulum_cart_2", "numeric", true),
        ("pendulum_cart_2", "symbolic", false),
        ("pendulum_cart_5", "auto", true),
    ];
    for (name, solve, implicit) in cases {
        let chain = root().join(format!("golden/implicit/{name}/spec.mech"));
        let dir = scratch(&format!("solve-{solve}"));
        let out = run(&[
            "derive",
            chain.to_str().unwrap(),
            "--emit",
            "json,c",
            "--solve",
            solve,
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let json = fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let c = fs::read_to_string(dir.join(format!("{name}.c"))).unwrap();
        assert_eq!(
            json.contains("\"form\": \"implicit\""),
            implicit,
            "{name} --solve {solve}"
        );
        let route = if implicit { "implicit" } else { "closed" };
        assert!(
            json.contains(&format!("\"route\": \"{route}\"")),
            "{name} --solve {solve}"
        );
        assert!(
            stderr(&out).contains(&format!("note: {route} form: ")),
            "{name} --solve {solve}: {}",
            stderr(&out)
        );
        assert_eq!(
            c.contains("dalembert_ldl_factor"),
            implicit,
            "{name} --solve {solve}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn method_induced_leads_with_the_equations_on_d_or_refuses_with_e0405() {
    let dir = scratch("induced");
    let out = run(&[
        "derive",
        "--method",
        "induced",
        "--emit",
        "json,c",
        golden("nonholonomic_particle").to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("nonholonomic_particle.json")).unwrap())
            .unwrap();
    assert_eq!(json["method"], "induced");
    assert_eq!(
        json["state"],
        serde_json::json!(["x", "y", "z", "u1", "u2"])
    );
    // Digest 001 §3.5 with V = k/2 |q|^2: u2' = -V_y.
    assert_eq!(json["equations"]["u2"]["spec"], "-k*y");
    assert_eq!(json["equations"]["u2"]["python"], "-k*y");
    assert_eq!(json["schema_version"], 2);
    let header = fs::read_to_string(dir.join("nonholonomic_particle.h")).unwrap();
    assert!(header.contains("nonholonomic_particle_rhs"));
    assert!(!header.contains("nonholonomic_particle_implicit"));
    let _ = fs::remove_dir_all(&dir);

    // No constraints: no induced route; nothing written.
    let out = run(&[
        "derive",
        "--method",
        "induced",
        golden("skew_algebra").to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[E0405]"), "{}", stderr(&out));
    assert!(stderr(&out).contains("skew_algebra/spec.mech:20:1"));
    assert!(!dir.exists());
}

#[test]
fn check_arms_the_same_watchdog_as_derive() {
    let spec = root().join("golden/snakeboard/spec.mech");
    let out = run(&["check", "--timeout", "0", spec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("error[E0503]"), "{}", stderr(&out));
}

/// `--emit cmake,crate` writes a CMake project and a Cargo package that build and pass their own
/// tests (ten RK4 steps of `rhs`): with cmake and ctest where cmake is installed (a missing
/// cmake fails the test under CI), with `cargo test --offline` always; the sleigh's crate (no
/// transcendental calls) also builds `no_std` (`--no-default-features`).
#[test]
fn emit_cmake_and_crate_packages_build_and_pass_their_tests() {
    let dir = scratch("packages");
    let out = run(&[
        "derive",
        golden("chaplygin_sleigh").to_str().unwrap(),
        golden("multibody/two_wheeled_robot").to_str().unwrap(),
        "--emit",
        "cmake,crate",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = |what: &str, command: &mut Command| {
        let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            out.status.success(),
            "{what}:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    };
    // Without cmake (outside CI) the crates are still built and tested.
    let cmake = common::require_tool("cmake");
    for system in ["chaplygin_sleigh", "two_wheeled_robot"] {
        let project = dir.join(format!("{system}-cmake"));
        if cmake {
            let build = project.join("build");
            check(
                "cmake configure",
                Command::new("cmake")
                    .arg("-S")
                    .arg(&project)
                    .arg("-B")
                    .arg(&build),
            );
            check(
                "cmake build",
                Command::new("cmake").arg("--build").arg(&build),
            );
            check(
                "ctest",
                Command::new("ctest")
                    .arg("--output-on-failure")
                    .arg("--test-dir")
                    .arg(&build),
            );
        }
        let krate = dir.join(format!("{system}-crate"));
        let target = dir.join("cargo-target");
        check(
            "cargo test in the crate",
            Command::new("cargo")
                .args(["test", "--offline", "--quiet"])
                .env("CARGO_TARGET_DIR", &target)
                .env_remove("RUSTFLAGS")
                .current_dir(&krate),
        );
        if system == "chaplygin_sleigh" {
            check(
                "cargo build --no-default-features",
                Command::new("cargo")
                    .args(["build", "--offline", "--quiet", "--no-default-features"])
                    .env("CARGO_TARGET_DIR", &target)
                    .current_dir(&krate),
            );
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// The columns of a CSV written by `dalembert simulate`, by name.
fn csv_columns(path: &Path) -> std::collections::BTreeMap<String, Vec<f64>> {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let names: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let mut columns: std::collections::BTreeMap<String, Vec<f64>> =
        names.iter().map(|n| (n.clone(), Vec::new())).collect();
    for line in lines {
        for (name, value) in names.iter().zip(line.split(',')) {
            columns.get_mut(name).unwrap().push(value.parse().unwrap());
        }
    }
    columns
}

fn largest(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |m: f64, v| m.max(v.abs()))
}

/// `dalembert simulate` on four goldens: the energy balance `E − E(0) − ∫ dE/dt` stays at the
/// integrator's tolerance whether the energy is conserved (the sleigh, the double pendulum) or
/// changes as derived (the skate's friction and force, the cart's force on the implicit route),
/// and the constraint residuals stay at round-off (projected after each step).
#[test]
fn simulate_keeps_the_energy_balance_and_the_constraints() {
    let dir = scratch("simulate");
    // (golden, system, --set, --init, --input, the energy changes)
    let cases = [
        (
            "chaplygin_sleigh",
            "chaplygin_sleigh",
            "m=1,J=1/2,a=3/10,b=1/5",
            "v1=1,w=1",
            "",
            false,
        ),
        (
            "damped_skate_forced",
            "damped_skate_forced",
            "m=1,c=1/2,a=1",
            "x'=1,y'=1",
            "F=sin(2*t)",
            true,
        ),
        (
            "double_pendulum_cartesian",
            "double_pendulum_cartesian",
            "m1=1,m2=1,l1=1,l2=1,g=981/100",
            "x1=1,x2=2",
            "",
            false,
        ),
        (
            "implicit/pendulum_cart_2",
            "pendulum_cart_2",
            "g=9.81,m0=1,m1=1/2,m2=1/2,l1=1,l2=1",
            "q1=1/2,q2=-1/2",
            "F=cos(t)",
            true,
        ),
    ];
    for (case, system, set, init, input, changes) in cases {
        let out = run(&[
            "simulate",
            golden(case).to_str().unwrap(),
            "--set",
            set,
            "--init",
            init,
            "--input",
            input,
            "--until",
            "5",
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{case}: {}", stderr(&out));
        let columns = csv_columns(&dir.join(format!("{system}-simulation.csv")));
        let energy = &columns["E"];
        let scale = largest(energy).max(1.0);
        let balance = largest(&columns["energy_balance"]);
        assert!(
            balance <= 1e-7 * scale,
            "{case}: energy balance off by {balance}"
        );
        let change = largest(&energy.iter().map(|e| e - energy[0]).collect::<Vec<_>>());
        if changes {
            assert!(
                change > 1e-3 * scale,
                "{case}: the energy should change, by {change}"
            );
        } else {
            assert!(
                change <= 1e-7 * scale,
                "{case}: the energy should be conserved, changed by {change}"
            );
        }
        for (name, values) in &columns {
            if name.starts_with("Psi")
                || (name.starts_with('f') && name[1..].parse::<usize>().is_ok())
            {
                assert!(
                    largest(values) <= 1e-10,
                    "{case}: {name} reaches {}",
                    largest(values)
                );
            }
        }
        let svg = fs::read_to_string(dir.join(format!("{system}-simulation.svg"))).unwrap();
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
        assert!(svg.contains("energy_balance"));
    }
    let _ = fs::remove_dir_all(&dir);
}

/// An initial state off the constraints is refused with the residual named and nothing written,
/// or projected onto them with `--project-init`; a parameter without a value is refused.
#[test]
fn simulate_refuses_an_inconsistent_start_or_projects_it() {
    let dir = scratch("simulate-start");
    let skate = golden("damped_skate_forced");
    let base = [
        "simulate",
        skate.to_str().unwrap(),
        "--set",
        "m=1,c=1/2,a=1",
        "--until",
        "1",
        "-o",
    ];
    let mut args: Vec<&str> = base.to_vec();
    args.extend([dir.to_str().unwrap(), "--init", "x'=1"]);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("E0511") && stderr(&out).contains("Psi1 = -1e0 (y' - a*x' = 0)"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.exists(), "a refused start writes nothing");
    args.push("--project-init");
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let columns = csv_columns(&dir.join("damped_skate_forced-simulation.csv"));
    // Projected along mu = (-a, 1) with a = 1: (x', y') = (1, 0) -> (1/2, 1/2).
    assert!((columns["x'"][0] - 0.5).abs() < 1e-15 && (columns["y'"][0] - 0.5).abs() < 1e-15);
    let out = run(&[
        "simulate",
        skate.to_str().unwrap(),
        "--set",
        "m=1",
        "--until",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing: c, a"), "{}", stderr(&out));
    let _ = fs::remove_dir_all(&dir);
}

/// The simulation runs the same programs as the emitted C: RK4 with the same fixed step, without
/// projection, in `dalembert simulate` and in a harness around the emitted `rhs`, end at the same
/// state (relative 1e-12: the two evaluate the same operations; `dynamics` and `rhs` may round
/// their shared rates differently).
#[test]
fn simulate_agrees_with_the_emitted_c() {
    let dir = scratch("simulate-c");
    let spec = golden("double_pendulum_cartesian");
    let set = "m1=1,m2=1,l1=1,l2=1,g=981/100";
    let out = run(&[
        "simulate",
        spec.to_str().unwrap(),
        "--set",
        set,
        "--init",
        "x1=1,x2=2",
        "--until",
        "1",
        "--method",
        "rk4",
        "--dt",
        "0.01",
        "--no-project",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let columns = csv_columns(&dir.join("double_pendulum_cartesian-simulation.csv"));
    let out = run(&[
        "derive",
        spec.to_str().unwrap(),
        "--emit",
        "c",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let harness = r#"#include <stdio.h>
#include "double_pendulum_cartesian.h"
int main(void) {
    const double p[] = {1.0, 1.0, 1.0, 1.0, 9.81};
    double x[8] = {1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0}, k[4][8], tmp[8];
    const double h = 0.01;
    for (int s = 0; s < 100; s++) {
        double t = s * h;
        for (int stage = 0; stage < 4; stage++) {
            const double c = stage == 0 ? 0.0 : (stage == 3 ? 1.0 : 0.5);
            for (int i = 0; i < 8; i++) tmp[i] = x[i] + (stage == 0 ? 0.0 : c * h * k[stage - 1][i]);
            if (double_pendulum_cartesian_rhs(t + c * h, tmp, p, NULL, NULL, k[stage]) != 0) return 1;
        }
        for (int i = 0; i < 8; i++) x[i] += h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
    }
    for (int i = 0; i < 8; i++) printf("%.17g\n", x[i]);
    return 0;
}
"#;
    fs::write(dir.join("main.c"), harness).unwrap();
    let gcc = Command::new("gcc")
        .args([
            "-std=c99",
            "-O0",
            "main.c",
            "double_pendulum_cartesian.c",
            "-lm",
            "-o",
            "main",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(gcc.status.success(), "{}", stderr(&gcc));
    let c = Command::new(dir.join("main")).output().unwrap();
    assert!(c.status.success());
    let c_state: Vec<f64> = String::from_utf8_lossy(&c.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    for (name, value) in ["x1", "y1", "x2", "y2", "x1'", "y1'", "x2'", "y2'"]
        .iter()
        .zip(&c_state)
    {
        let simulated = *columns[*name].last().unwrap();
        assert!(
            (simulated - value).abs() <= 1e-12 * value.abs().max(1.0),
            "{name}: simulate {simulated}, emitted C {value}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}
