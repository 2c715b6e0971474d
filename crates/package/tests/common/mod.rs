//! Test support: an [`Emitted`] read back from dalembert's committed golden outputs (the
//! `.h`, `.c` and `.rs` of one system). The structure comes from the Rust module, whose
//! signatures and `//!`/`///` documentation follow `templates/rust/system.rs`; this parser is
//! for tests only, the library never parses code. Also the external programs and files a test
//! needs ([`require_tool`], shared with dalembert's tests).
// Each test binary compiles this module on its own and uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use package::{Emitted, FunctionSig, Output, Sizes};

#[path = "../../../dalembert/tests/common/tools.rs"]
mod tools;

// `dead_code` does not cover re-exports: each test binary uses only some of them.
#[allow(unused_imports)]
pub use tools::{require_path, require_python_module, require_tool, under_ci};

/// Where the golden outputs are: `$DALEMBERT_GOLDEN`, else the repository's `golden/`.
pub fn golden_root() -> PathBuf {
    std::env::var_os("DALEMBERT_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../golden"))
}

/// The golden root, or `None` when it is absent ([`require_path`]: under CI that panics).
pub fn require_golden() -> Option<PathBuf> {
    let root = golden_root();
    require_path(&root, "set DALEMBERT_GOLDEN to the golden outputs").then_some(root)
}

/// Every `<dir>/<stem>.rs` under `root` with its `.h` and `.c`, as `(dir, stem)`, sorted.
pub fn golden_systems(root: &Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.with_extension("h").is_file()
                && path.with_extension("c").is_file()
            {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                found.push((dir.clone(), stem));
            }
        }
    }
    found.sort();
    found
}

/// The system `stem` in `dir` (`<stem>.h`, `.c`, `.rs`).
pub fn load(dir: &Path, stem: &str) -> Emitted {
    let read = |ext: &str| {
        let path = dir.join(format!("{stem}.{ext}"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let rust = read("rs");
    let mut emitted = parse_rust(&rust);
    emitted.header = read("h");
    emitted.source = read("c");
    emitted.std_calls = std_calls(&rust);
    emitted.rust = Some(rust);
    emitted
}

/// The system at `relative` (`multibody/arm6/expected/arm6`) under the golden root.
pub fn load_golden(root: &Path, relative: &str) -> Emitted {
    let path = root.join(relative);
    let stem = path.file_name().unwrap().to_string_lossy().into_owned();
    load(path.parent().unwrap(), &stem)
}

fn constant(rust: &str, name: &str) -> usize {
    let key = format!("pub const {name}: usize = ");
    let line = rust
        .lines()
        .find_map(|l| l.strip_prefix(&key))
        .unwrap_or_else(|| panic!("no {name}"));
    line.trim_end_matches(';').parse().unwrap()
}

/// The names in "`a[0]` = `n0`, `a[1]` = `n1`" (`quoted`) or "`a[0]` = n0, `a[1]` = n1."
/// (unquoted) after `marker` on its line.
fn names(line: &str, array: &str, quoted: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        let key = format!("`{array}[{i}]` = ");
        let Some(start) = line.find(&key) else {
            return out;
        };
        let rest = &line[start + key.len()..];
        let name = if quoted {
            let rest = rest.strip_prefix('`').unwrap();
            &rest[..rest.find('`').unwrap()]
        } else {
            let end = rest.find(&format!(", `{array}[")).unwrap_or(rest.len());
            rest[..end].trim_end_matches('.')
        };
        out.push(name.to_string());
        i += 1;
    }
}

fn doc_line<'a>(rust: &'a str, marker: &str) -> &'a str {
    rust.lines()
        .find(|l| l.starts_with("//!") && l.contains(marker))
        .unwrap_or("")
}

/// The array length in `&[Real; N]` or `&mut [Real; N]`.
fn array_len(argument: &str) -> usize {
    let start = argument.find("; ").unwrap() + 2;
    let end = argument.find(']').unwrap();
    argument[start..end].parse().unwrap()
}

/// The text of `(`...`)` that starts at `text[0]`, parentheses balanced.
fn balanced(text: &str) -> &str {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[1..i];
                }
            }
            _ => {}
        }
    }
    text
}

fn parse_function(doc: &[&str], signature: &[&str]) -> FunctionSig {
    let name = signature[0]
        .strip_prefix("pub fn ")
        .unwrap()
        .trim_end_matches('(')
        .to_string();
    let prose = doc
        .first()
        .map(|l| l.trim_start_matches("///").trim().to_string())
        .unwrap_or_default();
    let outputs_line = doc
        .iter()
        .find(|l| l.starts_with("/// Outputs:"))
        .copied()
        .unwrap_or("");
    let mut x_len = None;
    let mut outputs = Vec::new();
    for argument in &signature[1..] {
        let argument = argument.trim().trim_end_matches(',');
        if let Some(rest) = argument.strip_prefix("x: ") {
            x_len = Some(array_len(rest));
        } else if let Some((out, ty)) = argument.split_once(": &mut ") {
            let key = format!("`{out}` (");
            let doc = outputs_line
                .find(&key)
                .map(|at| balanced(&outputs_line[at + key.len() - 1..]).to_string())
                .unwrap_or_default();
            outputs.push(Output {
                name: out.to_string(),
                len: array_len(ty),
                doc,
            });
        }
    }
    let state = doc
        .iter()
        .find(|l| l.contains("Here `x` is the phase state"))
        .map(|line| {
            let mut state = names(line, "x", false);
            // An empty layout has no entries to name: its length is the signature's.
            state.resize(x_len.unwrap_or(state.len()), String::new());
            state
        });
    FunctionSig {
        name,
        doc: prose,
        rates: outputs.iter().position(|o| o.name == "xdot"),
        outputs,
        state,
    }
}

/// The structure of an emitted Rust module.
pub fn parse_rust(rust: &str) -> Emitted {
    let lines: Vec<&str> = rust.lines().collect();
    let mut functions = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("pub fn ") {
            continue;
        }
        let doc_start = (0..i)
            .rev()
            .take_while(|&k| lines[k].starts_with("///"))
            .last()
            .unwrap_or(i);
        let end = (i..lines.len())
            .find(|&k| lines[k].starts_with(") ->"))
            .unwrap();
        functions.push(parse_function(&lines[doc_start..i], &lines[i..end]));
    }
    let generator_version = lines[0]
        .split("dalembert ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or("unknown")
        .to_string();
    let system = lines[0]
        .split('`')
        .nth(1)
        .expect("the banner names the system")
        .to_string();
    Emitted {
        system,
        functions,
        sizes: Sizes {
            state: constant(rust, "N_STATE"),
            parameters: constant(rust, "N_PARAMETERS"),
            inputs: constant(rust, "N_INPUTS"),
            functions: constant(rust, "N_FUNCTIONS"),
            multipliers: constant(rust, "N_MULTIPLIERS"),
            velocities: constant(rust, "N_VELOCITIES"),
        },
        state_names: names(doc_line(rust, "`x`, the state"), "x", true),
        parameter_names: names(doc_line(rust, "`p`, the parameters"), "p", true),
        input_names: names(doc_line(rust, "`u`, the inputs"), "u", true),
        function_names: names(doc_line(rust, "`f`, the functions of time"), "f", true),
        float_is_f32: rust.contains("pub type Real = f32;"),
        generator_version,
        ..Emitted::default()
    }
}

/// The `std`-only float methods a Rust module calls, found in its text (`Real::sin(`): what the
/// emitter reports as [`Emitted::std_calls`], read back from a golden file.
pub fn std_calls(rust: &str) -> Vec<String> {
    const STD_METHODS: &[&str] = &[
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "cos", "cosh", "exp",
        "exp2", "exp_m1", "hypot", "ln", "ln_1p", "log", "log10", "log2", "mul_add", "powf",
        "powi", "sin", "sin_cos", "sinh", "sqrt", "tan", "tanh",
    ];
    STD_METHODS
        .iter()
        .filter(|m| rust.contains(&format!("::{m}(")) || rust.contains(&format!(".{m}(")))
        .map(|m| m.to_string())
        .collect()
}
