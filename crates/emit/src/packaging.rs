//! `--emit cmake` and `--emit crate`: the emitted C and Rust of a flow, made into a CMake project
//! (`<system>-cmake/`: `CMakeLists.txt`, the header and source, a test that integrates ten RK4
//! steps) or a `no_std` Cargo package (`<system>-crate/`: the module, its documentation and an
//! integration test that `cargo test` runs offline). The `package` crate writes the files; this
//! module tells it what was emitted.

use diagnostic::{Code, Diagnostic};
use model::System;

use crate::code::{self, Array, CodeOptions, Float, Function, Language, Work};
use crate::{Artifact, Target};

/// Refuses the code options no package is made with: `--work caller` (a package's functions
/// keep their work arrays on the stack). A caller checks it before computing the functions.
pub fn refuse_options(options: CodeOptions) -> diagnostic::Result<()> {
    if options.work == Work::Caller {
        return Err(vec![Diagnostic::unlocated(
            Code::E0004,
            "--emit cmake and --emit crate package the functions with their work arrays on the stack: drop --work caller",
        )]);
    }
    Ok(())
}

/// The files of the package `target` (`Target::Cmake` or `Target::Crate`) of a flow's functions
/// ([`code::functions`], which the C and Rust targets of the same run share), each named
/// `<system>-cmake/<path>` or `<system>-crate/<path>`.
pub fn package(
    system: &System,
    (layout, functions): (&code::Layout, &[Function]),
    options: CodeOptions,
    target: Target,
) -> diagnostic::Result<Vec<Artifact>> {
    refuse_options(options)?;
    let c = code::render_function_set(system, layout, functions, options, Language::C)?;
    let text = |suffix: &str, artifacts: &[Artifact]| {
        artifacts
            .iter()
            .find(|a| a.file_name.ends_with(suffix))
            .map(|a| a.contents.clone())
            .unwrap_or_default()
    };
    let rust = match target {
        Target::Crate => Some(text(
            ".rs",
            &code::render_function_set(system, layout, functions, options, Language::Rust)?,
        )),
        _ => None,
    };
    let emitted = package::Emitted {
        system: system.name.clone(),
        header: text(".h", &c),
        source: text(".c", &c),
        rust,
        std_calls: code::rust_std_calls(functions.iter().map(|f| &f.program))
            .into_iter()
            .map(String::from)
            .collect(),
        functions: functions.iter().map(|f| signature(system, f)).collect(),
        sizes: package::Sizes {
            state: layout.state.len(),
            parameters: layout.parameters.len(),
            inputs: layout.inputs.len(),
            functions: layout.functions.len(),
            multipliers: system.constraints.len(),
            velocities: system.rank(),
        },
        state_names: names(system, &layout.state),
        parameter_names: names(system, &layout.parameters),
        input_names: names(system, &layout.inputs),
        function_names: code::function_docs(system, layout),
        float_is_f32: options.float == Float::F32,
        generator_version: env!("CARGO_PKG_VERSION").to_string(),
        package_version: None,
    };
    let (files, folder) = match target {
        Target::Cmake => (package::cmake_package(&emitted), "cmake"),
        _ => (package::cargo_package(&emitted), "crate"),
    };
    let files =
        files.map_err(|e| Diagnostic::unlocated(Code::E0515, format!("--emit {folder}: {e}")))?;
    Ok(files
        .into_iter()
        .map(|f| Artifact::file(format!("{}-{folder}/{}", system.name, f.path), f.contents))
        .collect())
}

/// The spec spellings of `symbols`.
fn names(system: &System, symbols: &[String]) -> Vec<String> {
    symbols
        .iter()
        .map(|s| code::symbol_doc(system, s))
        .collect()
}

/// What the package needs to know of a function.
fn signature(system: &System, f: &Function) -> package::FunctionSig {
    package::FunctionSig {
        name: f.name.clone(),
        doc: f.doc.clone(),
        outputs: f
            .outputs
            .iter()
            .map(|o| package::Output {
                name: o.name.name().to_string(),
                len: o.len,
                doc: o.doc.clone(),
            })
            .collect(),
        rates: f.outputs.iter().position(|o| o.name == Array::Xdot),
        state: f.state.as_ref().map(|state| names(system, state)),
    }
}
