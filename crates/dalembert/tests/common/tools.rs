//! The external programs and files that some tests need, shared by the integration tests of
//! `crates/dalembert` (through `tests/common/mod.rs`) and of `crates/package` (which includes
//! this file with `#[path]`).
//!
//! A test that needs a program starts with `if !require_tool("pdflatex") { return; }`. Where
//! the program is installed the test runs. Where it is missing the test prints a notice on
//! stderr and returns, so that a developer without, say, CMake can still run the rest; under CI
//! (`$CI` set) a missing program fails the test instead, since `.ci/run` installs what the tests
//! need and a test that silently did not run must not pass there.

use std::path::Path;
use std::process::Command;

/// Whether this is a CI run: `$CI` is set to anything but the empty string, `0` or `false`.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// Whether the program `name` is installed, probed by running `name --version` (every program
/// the tests need answers `--version`). When it is missing, under CI this panics naming the
/// program; elsewhere it prints `SKIPPED: <name> is not installed (.ci/run installs it)` on
/// stderr and returns `false`, and the caller returns without testing.
pub fn require_tool(name: &str) -> bool {
    let found = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found || missing(&format!("{name} is not installed"), ".ci/run installs it")
}

/// Whether `python3` is installed and imports the module `module` (`python3 -c "import
/// module"`). When it does not, this behaves as [`require_tool`] does for a missing program.
pub fn require_python_module(module: &str) -> bool {
    let found = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    found
        || missing(
            &format!("python3 with the `{module}` module is not installed"),
            &format!(".ci/run must install it, e.g. `python3 -m pip install {module}`"),
        )
}

/// Whether the file or folder `path` exists; `remedy` says how to provide it (`set
/// DALEMBERT_GOLDEN`). When it does not, this behaves as [`require_tool`] does for a missing
/// program.
pub fn require_path(path: &Path, remedy: &str) -> bool {
    path.exists() || missing(&format!("{} does not exist", path.display()), remedy)
}

/// Reports that `what` is missing: a panic under CI, a notice on stderr and `false` elsewhere.
fn missing(what: &str, remedy: &str) -> bool {
    assert!(
        !under_ci(),
        "{what} ({remedy}); under CI ($CI is set) every test must run"
    );
    eprintln!("SKIPPED: {what} ({remedy})");
    false
}

/// Runs the Python program `script` (written to a scratch file named after `tag`), and returns
/// its output; the scratch file is removed.
pub fn run_python(script: &str, tag: &str) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("dalembert-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("check.py"), script).unwrap();
    let out = Command::new("python3")
        .arg(dir.join("check.py"))
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    out
}
