//! The rungs shared by the goldens of a folder of their own (`golden/vakonomic/`,
//! `golden/singular/`, `golden/contact/`, `golden/multibody/`): every spec derives to its committed
//! artifacts, every `expect` holds, every LaTeX document compiles, the emitted code compiles.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use dalembert::{Target, Verdict};

use super::{compare, root};

/// The specs of `golden/<folder>/`, at least `at_least` of them.
pub fn cases(folder: &str, at_least: usize) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(root().join("golden").join(folder))
        .unwrap_or_else(|_| panic!("golden/{folder}/ exists"))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.join("spec.mech").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= at_least, "{cases:?}");
    cases
}

/// The derivation of a golden by the route its spec selects.
pub fn derived(case: &Path) -> dalembert::Derived {
    let source = fs::read_to_string(case.join("spec.mech")).unwrap();
    dalembert::compile_with(&source, &dalembert::Options::default())
        .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)))
}

/// Every golden of `folder` renders to its committed JSON, LaTeX, C and Rust.
pub fn pass(folder: &str) {
    let mut failures = Vec::new();
    for case in cases(folder, 1) {
        let targets = [Target::Json, Target::Latex, Target::C, Target::Rust];
        let artifacts =
            dalembert::render_derived(&derived(&case), &targets, Default::default()).unwrap();
        for artifact in artifacts {
            if let Err(e) = compare(
                &case.join("expected").join(&artifact.file_name),
                &artifact.contents,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every `expect` of every golden of `folder` holds, and each has at least `at_least`.
pub fn expectations(folder: &str, at_least: usize) {
    let mut failures = Vec::new();
    for case in cases(folder, 1) {
        let source = fs::read_to_string(case.join("spec.mech")).unwrap();
        let (system, outcomes) = dalembert::check_source(&source)
            .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &source, &e)));
        assert!(
            outcomes.len() >= at_least,
            "{}: too few expectations",
            case.display()
        );
        for o in outcomes {
            if let Verdict::Differs(by) = &o.verdict {
                failures.push(format!(
                    "{}: expect {} {}: differs by {}",
                    case.display(),
                    o.kind,
                    o.key,
                    cas::print::spec(by, &system)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every LaTeX document of `folder` compiles with pdflatex (`common::require_tool`: a missing
/// pdflatex fails the test under CI, whose `.ci/run` installs it).
pub fn documents_compile(folder: &str) {
    if !crate::common::require_tool("pdflatex") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("dalembert-{folder}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for case in cases(folder, 1) {
        let documents =
            dalembert::render_derived(&derived(&case), &[Target::Latex], Default::default())
                .unwrap();
        compile_documents(&dir, &documents);
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Writes a LaTeX target's documents (the body and its standalone wrapper) to `dir`, compiles the
/// standalone one with pdflatex, and returns its file name; panics with pdflatex's output when it
/// does not compile.
pub fn compile_documents(dir: &std::path::Path, documents: &[dalembert::Artifact]) -> String {
    for document in documents {
        fs::write(dir.join(&document.file_name), &document.contents).unwrap();
    }
    let standalone = documents
        .iter()
        .find(|d| !d.file_name.ends_with("-body.tex"))
        .expect("a standalone document")
        .file_name
        .clone();
    let out = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", &standalone])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{standalone} does not compile:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let log =
        String::from_utf8_lossy(&fs::read(dir.join(standalone.replace(".tex", ".log"))).unwrap())
            .to_string();
    assert!(
        !log.contains("multiply defined"),
        "{standalone}: a label is defined twice"
    );
    standalone
}

/// The link rung for a family of goldens: the emitted C compiles with `gcc -std=c99 -Wall
/// -Wextra -Wdouble-promotion -Wconversion -Werror -pedantic`, emitted in double and again with
/// `--float f32` (whose code names no `double`), the emitted Rust with `rustc -D warnings`.
pub fn code_compiles(folder: &str) {
    let dir = std::env::temp_dir().join(format!("dalembert-{folder}-link-{}", std::process::id()));
    for case in cases(folder, 1) {
        let d = derived(&case);
        let name = d.system().name.clone();
        for (real, float) in [
            ("double", dalembert::Float::F64),
            ("float", dalembert::Float::F32),
        ] {
            let work = dir.join(&name).join(real);
            fs::create_dir_all(&work).unwrap();
            let options = dalembert::CodeOptions {
                float,
                ..Default::default()
            };
            let targets = [Target::C, Target::Rust];
            for a in dalembert::render_derived(&d, &targets, options).unwrap() {
                if float == dalembert::Float::F32 && a.file_name.ends_with(".c") {
                    let doubles = a
                        .contents
                        .lines()
                        .filter(|l| !l.trim_start().starts_with(['*', '/', '#']))
                        .filter(|l| {
                            l.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                                .any(|w| w == "double")
                        })
                        .count();
                    assert_eq!(doubles, 0, "{name}: `double` in the float code");
                }
                fs::write(work.join(&a.file_name), &a.contents).unwrap();
            }
            let check = |cmd: &mut Command, what: &str| {
                let out = cmd.current_dir(&work).output().unwrap();
                assert!(
                    out.status.success(),
                    "{what} on {name}:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            };
            check(
                Command::new("gcc")
                    .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c"])
                    .args(["-Wdouble-promotion", "-Wconversion"])
                    .arg(format!("{name}.c"))
                    .args(["-o", &format!("{name}.o")]),
                &format!("gcc ({real})"),
            );
            check(
                Command::new("rustc")
                    .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings"])
                    .arg(format!("{name}.rs"))
                    .args(["--out-dir", "."]),
                "rustc",
            );
        }
    }
    let _ = fs::remove_dir_all(&dir);
}
