//! The Cargo package: `Cargo.toml`, `src/lib.rs` (the crate documentation and the module
//! declaration), the emitted module verbatim as `src/<system>.rs`, an RK4 smoke test in
//! `tests/integrate.rs`, a README and a `.gitignore`. The files are laid out by the templates
//! `templates/cargo/`; this module computes what they print, and lays out the calls of the
//! test as rustfmt would.

use serde::Serialize;

use crate::model::{self, Emitted, Error, FunctionSig, PackageFile};
use crate::nominal::{self, Table, END, STEP, STEPS};
use crate::templates::{self, Template};
use crate::text::{code, comment_lines, markdown, one_line, rust_string, tenths, toml_string};

/// The Cargo crate for `emitted`, files sorted by path; see the crate documentation.
pub fn cargo_package(emitted: &Emitted) -> Result<Vec<PackageFile>, Error> {
    model::check_cargo(emitted)?;
    let sys = &emitted.system;
    let rust = emitted.rust.clone().ok_or(Error::MissingRust)?;
    let context = context(emitted, &rust)?;
    let render = |template| templates::render(template, &context);
    let file = |path: String, contents: String| PackageFile { path, contents };
    Ok(model::sorted(vec![
        file(".gitignore".into(), "/target/\n".into()),
        file("Cargo.toml".into(), render(Template::CargoManifest)),
        file("README.md".into(), render(Template::CargoReadme)),
        file(format!("src/{sys}.rs"), rust.clone()),
        file("src/lib.rs".into(), lib_rs(&context)),
        file("tests/integrate.rs".into(), render(Template::CargoTest)),
    ]))
}

/// The floating-point methods of `std` that `core` lacks, as the emitted code calls them
/// (`Real::sin(x)`).
const STD_METHODS: &[&str] = &[
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "cos", "cosh", "exp",
    "exp2", "exp_m1", "hypot", "ln", "ln_1p", "log", "log10", "log2", "mul_add", "powf", "powi",
    "sin", "sin_cos", "sinh", "sqrt", "tan", "tanh",
];

/// The `std`-only floating-point methods the emitted module calls, found by their text
/// (`Real::sin(` or `.sin(`): the system then needs the `std` feature.
pub fn std_calls(rust: &str) -> Vec<&'static str> {
    STD_METHODS
        .iter()
        .copied()
        .filter(|m| rust.contains(&format!("::{m}(")) || rust.contains(&format!(".{m}(")))
        .collect()
}

/// What the Cargo templates print.
#[derive(Serialize)]
struct Context {
    sys: String,
    generator: String,
    version: String,
    /// `Cargo.toml`'s description, as a TOML string.
    description: String,
    real: &'static str,
    steps: usize,
    step: &'static str,
    end: &'static str,
    rule: &'static str,
    rule_markdown: String,
    std_calls: Vec<&'static str>,
    /// The `compile_error!` message of a build without `std`, as a Rust string.
    std_error: String,
    sizes: model::Sizes,
    name_tables: Vec<NameTable>,
    functions: Vec<Test>,
    integrated: Option<Test>,
    example: Option<Example>,
    /// The test's banner, as `//!` lines.
    banner: String,
    tables: Vec<RustTable>,
    /// The crate documentation of `src/lib.rs`, as `//!` lines (rendered last).
    docs: String,
}

/// A section of the crate documentation listing an argument's entries.
#[derive(Serialize)]
struct NameTable {
    title: &'static str,
    array: &'static str,
    /// Each entry's name as a table cell.
    rows: Vec<String>,
}

/// One emitted function as the crate documents it and the test calls it.
#[derive(Serialize)]
struct Test {
    name: String,
    /// Its prose on one line (the test's doc comment).
    doc: String,
    /// Its prose as Markdown.
    prose: String,
    /// `state`, `empty` or `own`: what its `x` is.
    x_kind: &'static str,
    own_x: String,
    own_x_len: usize,
    outputs: Vec<Output>,
    /// The local output arrays, NaN-filled before the call.
    declared: Vec<Output>,
    /// The call, its status check and its finiteness checks, laid out as rustfmt would.
    call: String,
    ok: String,
    checks: String,
    /// The integrated function: the length of `xdot`, the names as commented items, `x0`.
    xdot_len: usize,
    names: String,
    x0: String,
}

#[derive(Serialize)]
struct Output {
    name: String,
    len: usize,
    doc: String,
}

/// The documentation's example: one call of the integrated function (else of the first one).
#[derive(Serialize)]
struct Example {
    name: String,
    x: Vec<String>,
    tables: Vec<ExampleTable>,
    outputs: Vec<Output>,
}

#[derive(Serialize)]
struct ExampleTable {
    stem: &'static str,
    values: Vec<String>,
}

/// A nominal table as a Rust constant.
#[derive(Serialize)]
struct RustTable {
    doc: String,
    stem: String,
    len: usize,
    /// The entries as commented items, or empty.
    items: String,
}

fn context(emitted: &Emitted, rust: &str) -> Result<Context, Error> {
    let sys = &emitted.system;
    let calls = std_calls(rust);
    let x_tables = nominal::x_tables(emitted);
    let argument_tables = nominal::argument_tables(emitted);
    let mut context = Context {
        sys: sys.clone(),
        generator: emitted.generator_version.clone(),
        version: model::version(emitted)?.to_string(),
        description: toml_string(&format!(
            "The mechanical system `{sys}`: equations of motion generated by dalembert {}.",
            emitted.generator_version
        )),
        real: if emitted.float_is_f32 { "f32" } else { "f64" },
        steps: STEPS,
        step: STEP,
        end: END,
        rule: nominal::RULE,
        rule_markdown: markdown(nominal::RULE),
        std_error: rust_string(&format!(
            "the system `{sys}` calls {}, which need the `std` feature",
            calls.join(", ")
        )),
        std_calls: calls,
        sizes: emitted.sizes,
        name_tables: [
            ("State", "x", &emitted.state_names),
            ("Parameters", "p", &emitted.parameter_names),
            ("Inputs", "u", &emitted.input_names),
            ("Functions of time", "f", &emitted.function_names),
        ]
        .map(|(title, array, names)| NameTable {
            title,
            array,
            rows: names.iter().map(|n| code(n).replace('|', "\\|")).collect(),
        })
        .into(),
        functions: emitted
            .functions
            .iter()
            .map(|f| test(emitted, f, None))
            .collect(),
        integrated: emitted
            .integrated()
            .map(|(f, xdot)| test(emitted, f, Some(xdot))),
        example: example(emitted),
        banner: banner(emitted),
        tables: x_tables
            .iter()
            .chain(&argument_tables)
            .map(rust_table)
            .collect(),
        docs: String::new(),
    };
    let docs = templates::render(Template::CargoDocs, &context);
    context.docs = comment_lines("//!", &[docs.trim_end().to_string()]);
    Ok(context)
}

/// `src/lib.rs`: the crate documentation, `no_std`, the module.
fn lib_rs(context: &Context) -> String {
    templates::render(Template::CargoLib, context)
}

fn names_inline(array: &str, names: &[String]) -> String {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("`{array}[{i}]` = {}", code(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn outputs(function: &FunctionSig) -> Vec<Output> {
    function
        .outputs
        .iter()
        .map(|o| {
            let doc = markdown(&o.doc);
            Output {
                name: o.name.clone(),
                len: o.len,
                doc: if doc.is_empty() {
                    "(empty)".into()
                } else {
                    doc
                },
            }
        })
        .collect()
}

/// `function` as the documentation lists it and the test calls it: once at the nominal point,
/// or (with the position of its `xdot`) inside the integration, where `xdot` is the caller's.
fn test(emitted: &Emitted, function: &FunctionSig, xdot: Option<usize>) -> Test {
    let sys = &emitted.system;
    let name = &function.name;
    let (t, x) = match xdot {
        Some(_) => ("t".to_string(), "x".to_string()),
        None => (
            "0.0".to_string(),
            format!("&{}", nominal::x_stem(function).to_uppercase()),
        ),
    };
    let mut arguments: Vec<String> = [&t, &x, "&PARAMETERS", "&INPUTS", "&FUNCTIONS_OF_TIME"]
        .map(String::from)
        .to_vec();
    let mut declared = Vec::new();
    for (k, output) in outputs(function).into_iter().enumerate() {
        if Some(k) == xdot {
            arguments.push("&mut xdot".to_string());
        } else {
            arguments.push(format!("&mut out_{}", output.name));
            declared.push(output);
        }
    }
    let checks = match xdot {
        Some(_) => finite_check(name, "xdot", "xdot"),
        None => function
            .outputs
            .iter()
            .map(|o| finite_check(name, &o.name, &format!("out_{}", o.name)))
            .collect(),
    };
    let (x_kind, own_x, own_x_len) = match &function.state {
        Some(names) if names.is_empty() => ("empty", String::new(), 0),
        Some(names) => ("own", names_inline("x", names), names.len()),
        None => ("state", String::new(), 0),
    };
    Test {
        name: name.clone(),
        doc: one_line(&function.doc),
        prose: markdown(&function.doc),
        x_kind,
        own_x,
        own_x_len,
        outputs: outputs(function),
        declared,
        call: call_statement(&format!("{sys}::{name}"), &arguments),
        ok: ok_check(name, &t),
        checks,
        xdot_len: xdot.map_or(0, |k| function.outputs[k].len),
        names: commented_items(
            emitted
                .x_names(function)
                .iter()
                .enumerate()
                .map(|(i, s)| (rust_string(s), format!("[{i}]"))),
        ),
        x0: nominal::x_stem(function).to_uppercase(),
    }
}

/// The documentation's example: a call of the integrated function, else of the first one.
fn example(emitted: &Emitted) -> Option<Example> {
    let function = emitted
        .integrated()
        .map(|(f, _)| f)
        .or(emitted.functions.first())?;
    let [p, u, f] = nominal::argument_tables(emitted);
    let values = |table: &Table| table.entries.iter().map(|(v, _)| v.clone()).collect();
    Some(Example {
        name: function.name.clone(),
        x: (0..emitted.x_names(function).len())
            .map(|i| tenths(i + 1))
            .collect(),
        tables: vec![
            ExampleTable {
                stem: "p",
                values: values(&p),
            },
            ExampleTable {
                stem: "u",
                values: values(&u),
            },
            ExampleTable {
                stem: "f",
                values: values(&f),
            },
        ],
        outputs: outputs(function),
    })
}

/// The test's banner as `//!` lines.
fn banner(emitted: &Emitted) -> String {
    let integrated = match emitted.integrated() {
        Some((f, _)) => format!(
            "`rk4`: {STEPS} steps of the classic fourth-order Runge-Kutta method, step {STEP}, \
             on `{}` from the nominal state, checked the same way; prints the final state \
             (`cargo test -- --nocapture` shows it).",
            f.name
        ),
        None => "No integration: no function returns the rate `xdot` of its own `x`.".into(),
    };
    let lines = vec![
        format!(
            "Smoke test of the mechanical system `{}` (code generated by dalembert {}).",
            emitted.system, emitted.generator_version
        ),
        String::new(),
        "`once_<function>`: every function once at the nominal point, returning `Ok` and \
         writing every output entry (they start as NaN) with a finite value."
            .to_string(),
        String::new(),
        integrated,
        String::new(),
        format!("Nominal point: {}", nominal::RULE),
    ];
    comment_lines("//!", &lines)
}

fn rust_table(table: &Table) -> RustTable {
    RustTable {
        doc: one_line(&table.doc),
        stem: table.stem.to_uppercase(),
        len: table.entries.len(),
        items: commented_items(
            table
                .entries
                .iter()
                .enumerate()
                .map(|(i, (value, name))| (value.clone(), format!("[{i}] {}", one_line(name)))),
        ),
    }
}

/// The lines `    <item>, // <comment>` of a vertical array, the comments aligned as rustfmt
/// aligns them.
fn commented_items(items: impl Iterator<Item = (String, String)>) -> String {
    let items: Vec<(String, String)> = items.map(|(item, c)| (format!("{item},"), c)).collect();
    let width = items.iter().map(|(item, _)| item.len()).max().unwrap_or(0);
    items
        .iter()
        .map(|(item, comment)| format!("    {item:<width$} // {comment}\n"))
        .collect()
}

/// `<binding><callee>(<arguments>)<tail>` indented by `indent`, laid out as rustfmt lays it
/// out: on one line when it fits in 100 columns and the arguments in 60; else, for a `let`,
/// the call alone on the next line when it fits there; else one argument per line.
fn call(indent: usize, binding: &str, callee: &str, arguments: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let inline = arguments.join(", ");
    let short = inline.len() <= 60;
    let one_line = format!("{callee}({inline}){tail}");
    if short && indent + binding.len() + one_line.len() <= 100 {
        return format!("{pad}{binding}{one_line}\n");
    }
    if short && !binding.is_empty() && indent + 4 + one_line.len() <= 100 {
        return format!("{pad}{}\n{pad}    {one_line}\n", binding.trim_end());
    }
    let lines: String = arguments
        .iter()
        .map(|a| format!("{pad}    {a},\n"))
        .collect();
    format!("{pad}{binding}{callee}(\n{lines}{pad}){tail}\n")
}

/// `let result = <callee>(<arguments>);` in a test function.
fn call_statement(callee: &str, arguments: &[String]) -> String {
    call(4, "let result = ", callee, arguments, ";")
}

/// `assert_ok(<function>, <t>, result);` in a test function.
fn ok_check(function: &str, t: &str) -> String {
    let arguments = [rust_string(function), t.to_string(), "result".to_string()];
    call(4, "", "assert_ok", &arguments, ";")
}

/// `assert_finite(<function>, <output>, &<local>);` in a test function.
fn finite_check(function: &str, output: &str, local: &str) -> String {
    let arguments = [
        rust_string(function),
        rust_string(output),
        format!("&{local}"),
    ];
    call(4, "", "assert_finite", &arguments, ";")
}
