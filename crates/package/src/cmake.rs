//! The CMake package: `CMakeLists.txt`, the emitted header and source verbatim, a C smoke test
//! registered with CTest, a README and a `.gitignore`. The files are laid out by the templates
//! `templates/cmake/`; this module computes what they print.

use serde::Serialize;

use crate::model::{self, Emitted, Error, FunctionSig, PackageFile};
use crate::nominal::{self, Table, END, STEP, STEPS};
use crate::templates::{self, Template};
use crate::text::{c_block_comment, c_comment, c_string, code, markdown, wrap};

/// The CMake project for `emitted`, files sorted by path; see the crate documentation.
pub fn cmake_package(emitted: &Emitted) -> Result<Vec<PackageFile>, Error> {
    model::check_cmake(emitted)?;
    let sys = &emitted.system;
    let context = context(emitted)?;
    let file = |path: String, contents: String| PackageFile { path, contents };
    Ok(model::sorted(vec![
        file(".gitignore".into(), "/build/\n".into()),
        file(
            "CMakeLists.txt".into(),
            templates::render(Template::CmakeLists, &context),
        ),
        file(
            "README.md".into(),
            templates::render(Template::CmakeReadme, &context),
        ),
        file(format!("include/{sys}.h"), emitted.header.clone()),
        file(format!("src/{sys}.c"), emitted.source.clone()),
        file(
            format!("test/test_{sys}.c"),
            templates::render(Template::CmakeTest, &context),
        ),
    ]))
}

/// What the CMake templates print.
#[derive(Serialize)]
struct Context {
    sys: String,
    upper: String,
    generator: String,
    /// The package version as CMake's `project(VERSION)` takes it (digits and dots).
    version: String,
    full_version: String,
    real: &'static str,
    steps: usize,
    step: &'static str,
    end: &'static str,
    rule: &'static str,
    status: &'static str,
    /// The test's banner, paragraph by paragraph, wrapped.
    banner: Vec<Vec<String>>,
    sizes: model::Sizes,
    size_checks: Vec<SizeCheck>,
    names: Names,
    tables: Vec<CTable>,
    functions: Vec<Call>,
    integrated: Option<Call>,
    /// Significant digits of the printed final state.
    digits: usize,
}

/// One `<SYSTEM>_N_<name> != <len>` of the compile-time size check.
#[derive(Serialize)]
struct SizeCheck {
    name: &'static str,
    len: usize,
}

/// The README's lists of `x[i]`, `p[i]`, `u[i]`, `f[i]` with their names.
#[derive(Serialize)]
struct Names {
    x: String,
    p: String,
    u: String,
    f: String,
}

/// A nominal table as a C array.
#[derive(Serialize)]
struct CTable {
    doc: String,
    stem: String,
    entries: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    value: String,
    name: String,
}

/// One emitted function as the test calls it and the README documents it.
#[derive(Serialize)]
struct Call {
    name: String,
    /// Its documentation as a C block comment (the test) .
    doc: String,
    /// Its prose as Markdown (the README).
    prose: String,
    /// The arguments of the call, outputs included.
    arguments: String,
    /// The local output arrays (`out_<name>`), NaN-filled before the call.
    declared: Vec<Local>,
    /// The README's list of outputs.
    outputs: String,
    /// Its own `x` when it is not the state, as the README lists it.
    own_x: Option<String>,
    own_x_len: usize,
    /// The length of `xdot` and the C strings of the state names (the integrated function).
    xdot_len: usize,
    names: Vec<String>,
    x0: String,
}

#[derive(Serialize)]
struct Local {
    name: String,
    len: usize,
}

fn context(emitted: &Emitted) -> Result<Context, Error> {
    let sys = &emitted.system;
    let s = &emitted.sizes;
    let x_tables = nominal::x_tables(emitted);
    let argument_tables = nominal::argument_tables(emitted);
    Ok(Context {
        sys: sys.clone(),
        upper: sys.to_uppercase(),
        generator: emitted.generator_version.clone(),
        version: model::numeric_version(model::version(emitted)?).to_string(),
        full_version: model::version(emitted)?.to_string(),
        real: if emitted.float_is_f32 {
            "float"
        } else {
            "double"
        },
        steps: STEPS,
        step: STEP,
        end: END,
        rule: nominal::RULE,
        status: nominal::STATUS,
        banner: banner(emitted),
        sizes: emitted.sizes,
        size_checks: [
            ("STATE", s.state),
            ("PARAMETERS", s.parameters),
            ("INPUTS", s.inputs),
            ("FUNCTIONS", s.functions),
            ("MULTIPLIERS", s.multipliers),
            ("VELOCITIES", s.velocities),
        ]
        .map(|(name, len)| SizeCheck { name, len })
        .into(),
        names: Names {
            x: names_list(&emitted.state_names, "x"),
            p: names_list(&emitted.parameter_names, "p"),
            u: names_list(&emitted.input_names, "u"),
            f: names_list(&emitted.function_names, "f"),
        },
        tables: x_tables
            .iter()
            .chain(&argument_tables)
            .map(c_table)
            .collect(),
        functions: emitted
            .functions
            .iter()
            .map(|f| call(emitted, f, None))
            .collect(),
        integrated: emitted
            .integrated()
            .map(|(f, xdot)| call(emitted, f, Some(xdot))),
        digits: if emitted.float_is_f32 { 9 } else { 17 },
    })
}

/// The C expression for an array argument: the table, or `NULL` when it is empty.
fn argument(table: &Table) -> String {
    if table.entries.is_empty() {
        "NULL".to_string()
    } else {
        table.stem.clone()
    }
}

fn c_table(table: &Table) -> CTable {
    CTable {
        doc: c_block_comment(&table.doc),
        stem: table.stem.clone(),
        entries: table
            .entries
            .iter()
            .map(|(value, name)| Entry {
                value: value.clone(),
                name: c_comment(name),
            })
            .collect(),
    }
}

/// The test's banner: what it does, paragraph by paragraph, wrapped to 96 columns.
fn banner(emitted: &Emitted) -> Vec<Vec<String>> {
    let sys = &emitted.system;
    let integrated = match emitted.integrated() {
        Some((f, _)) => format!(
            "Then it integrates {STEPS} steps of the classic fourth-order Runge-Kutta method, \
             step {STEP}, on {sys}_{} from the nominal state, checking every call the same way, \
             and prints the final state.",
            f.name
        ),
        None => "It integrates nothing: no function returns the rate xdot of its own x.".into(),
    };
    let paragraphs = [
        format!(
            "Smoke test of the mechanical system `{sys}` (code generated by dalembert {}).",
            emitted.generator_version
        ),
        "It calls every function once at the nominal point below and checks that it returns 0 \
         and writes every output entry (they start as NaN) with a finite value."
            .to_string(),
        integrated,
        "Exit status 0 on success; 1, with a message on stderr, on failure.".to_string(),
        format!("Nominal point: {}", nominal::RULE),
    ];
    paragraphs.iter().map(|p| wrap(&c_comment(p), 96)).collect()
}

/// `function` as the test calls it: at the nominal point, or (with the position of its
/// `xdot`) inside the integration, where `xdot` is the caller's.
fn call(emitted: &Emitted, function: &FunctionSig, xdot: Option<usize>) -> Call {
    let x_len = emitted.x_names(function).len();
    let (t, x) = match xdot {
        Some(_) => ("t".to_string(), "x".to_string()),
        None if x_len == 0 => ("(dalembert_real)0".to_string(), "NULL".to_string()),
        None => ("(dalembert_real)0".to_string(), nominal::x_stem(function)),
    };
    let [p, u, f] = nominal::argument_tables(emitted);
    let mut arguments = vec![t, x, argument(&p), argument(&u), argument(&f)];
    let mut declared = Vec::new();
    for (k, output) in function.outputs.iter().enumerate() {
        if Some(k) == xdot {
            arguments.push("xdot".to_string());
        } else if output.len == 0 {
            arguments.push("NULL".to_string());
        } else {
            declared.push(Local {
                name: output.name.clone(),
                len: output.len,
            });
            arguments.push(format!("out_{}", output.name));
        }
    }
    Call {
        name: function.name.clone(),
        doc: c_block_comment(&format!("{}: {}", function.name, function.doc)),
        prose: markdown(&function.doc),
        arguments: arguments.join(", "),
        declared,
        outputs: function
            .outputs
            .iter()
            .map(|o| format!("`{}[{}]` ({})", o.name, o.len, markdown(&o.doc)))
            .collect::<Vec<_>>()
            .join("; "),
        own_x: function.state.as_ref().map(|names| names_list(names, "x")),
        own_x_len: function.state.as_ref().map_or(0, Vec::len),
        xdot_len: xdot.map_or(0, |k| function.outputs[k].len),
        names: emitted
            .x_names(function)
            .iter()
            .map(|s| c_string(s))
            .collect(),
        x0: nominal::x_stem(function),
    }
}

fn names_list(names: &[String], array: &str) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{} = {}", code(&format!("{array}[{i}]")), code(n)))
        .collect::<Vec<_>>()
        .join(", ")
}
