//! The input, already-emitted code with the structure the emitter knew when it wrote it, the
//! output files, the errors, and the checks that make every generated file compile.

use std::fmt;

use crate::text::{is_identifier, RUST_KEYWORDS};

/// One output array of an emitted function: `dalembert_real *name` in C, `name: &mut [Real;
/// len]` in Rust.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The argument name (`xdot`, `lambda`, `jac`, ...).
    pub name: String,
    /// Its length (may be 0: then C callers pass `NULL`).
    pub len: usize,
    /// What its entries are, for the documentation (`v1', v2', w'`).
    pub doc: String,
}

/// The signature of one emitted function, `<system>_<name>` in C and `<name>` in Rust: the
/// shared arguments `t, x, p, u, f`, then [`outputs`](FunctionSig::outputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionSig {
    /// The name without the system prefix (`rhs`, `forward_dynamics`, ...).
    pub name: String,
    /// What it computes (one paragraph).
    pub doc: String,
    /// Its output arrays, in argument order.
    pub outputs: Vec<Output>,
    /// The position in [`outputs`](FunctionSig::outputs) of the rates of its `x` (`xdot`), when
    /// it writes them: a function the package tests can integrate.
    pub rates: Option<usize>,
    /// The names of the entries of its `x` when `x` is not the system state (the phase state
    /// of `hamilton`, the coordinates, velocities and accelerations of `inverse_dynamics`);
    /// `None`: `x` is the system state, [`Emitted::state_names`].
    pub state: Option<Vec<String>>,
}

/// The sizes the header declares as `<SYSTEM>_N_*` and the Rust module as `N_*` (the package
/// templates read them as `sizes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    /// State variables (`x`).
    pub state: usize,
    /// Parameters (`p`).
    pub parameters: usize,
    /// Inputs (`u`).
    pub inputs: usize,
    /// Values of functions of time (`f`).
    pub functions: usize,
    /// Constraint multipliers.
    pub multipliers: usize,
    /// Velocities.
    pub velocities: usize,
}

/// The emitted code of one system and what the emitter knew about it. The code strings are
/// copied verbatim; everything the packages add (build files, tests, documentation) is made
/// from the structured fields, so nothing here parses C or Rust.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Emitted {
    /// The system name, the prefix of every C function (`chaplygin_sleigh`).
    pub system: String,
    /// The text of `<system>.h`.
    pub header: String,
    /// The text of `<system>.c`.
    pub source: String,
    /// The text of `<system>.rs`, when Rust was emitted (required by [`crate::cargo_package`]).
    pub rust: Option<String>,
    /// The `std`-only float methods the Rust module calls (`sin`, `powf`, …), in name order, as
    /// the emitter reports them: a system that calls any needs the crate's `std` feature.
    pub std_calls: Vec<String>,
    /// The functions, in the order of the header.
    pub functions: Vec<FunctionSig>,
    /// The sizes.
    pub sizes: Sizes,
    /// The names of the state entries `x[i]` (length [`Sizes::state`]).
    pub state_names: Vec<String>,
    /// The names of the parameters `p[i]` (length [`Sizes::parameters`]).
    pub parameter_names: Vec<String>,
    /// The names of the inputs `u[i]` (length [`Sizes::inputs`]).
    pub input_names: Vec<String>,
    /// The names of the function-of-time values `f[i]` (length [`Sizes::functions`]).
    pub function_names: Vec<String>,
    /// Whether the code was emitted in single precision (`float` / `f32`).
    pub float_is_f32: bool,
    /// The version of dalembert that emitted the code (`0.1.0`).
    pub generator_version: String,
    /// The version of the packages, `MAJOR.MINOR.PATCH` with an optional `-pre` or `+build`
    /// suffix; `None`: `0.1.0`.
    pub package_version: Option<String>,
}

/// One file of a package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageFile {
    /// The path relative to the package root, `/`-separated (`src/lib.rs`).
    pub path: String,
    /// The contents.
    pub contents: String,
}

/// Why a package could not be made: an input that would give files that do not build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A name that must be an identifier, or that the target reserves.
    InvalidName {
        /// What it names (`system`, `function`, `output of rhs`).
        what: String,
        /// The name.
        name: String,
        /// Why it cannot be used.
        reason: &'static str,
    },
    /// A name given twice where names must differ.
    DuplicateName {
        /// What it names.
        what: String,
        /// The name.
        name: String,
    },
    /// A list of names whose length is not the declared size.
    SizeMismatch {
        /// The list (`state_names`).
        what: &'static str,
        /// Its length.
        names: usize,
        /// The size in [`Sizes`].
        size: usize,
    },
    /// [`crate::cargo_package`] without Rust code.
    MissingRust,
    /// A package version that is not `MAJOR.MINOR.PATCH[-pre][+build]`.
    InvalidVersion(String),
    /// No function to package.
    NoFunctions,
}

impl fmt::Display for Error {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidName { what, name, reason } => {
                write!(out, "the {what} name `{name}` cannot be used: {reason}")
            }
            Error::DuplicateName { what, name } => {
                write!(out, "the {what} name `{name}` is given twice")
            }
            Error::SizeMismatch { what, names, size } => {
                write!(out, "{what} has {names} names but the size is {size}")
            }
            Error::MissingRust => write!(out, "a Cargo package needs the emitted Rust code"),
            Error::InvalidVersion(v) => {
                write!(out, "the package version `{v}` is not MAJOR.MINOR.PATCH")
            }
            Error::NoFunctions => write!(out, "there is no function to package"),
        }
    }
}

impl std::error::Error for Error {}

/// The arguments every function takes before its outputs.
const SHARED_ARGUMENTS: [&str; 5] = ["t", "x", "p", "u", "f"];

/// The target names CMake reserves (policy CMP0037 and the generators' own targets).
const CMAKE_RESERVED: &[&str] = &[
    "ALL_BUILD",
    "INSTALL",
    "NightlyMemoryCheck",
    "PACKAGE",
    "RUN_TESTS",
    "ZERO_CHECK",
    "all",
    "clean",
    "edit_cache",
    "help",
    "install",
    "install_local",
    "install_strip",
    "list_install_components",
    "package",
    "package_source",
    "rebuild_cache",
    "test",
];

/// Crate names Cargo or the standard library take.
const CRATE_RESERVED: &[&str] = &["alloc", "core", "proc_macro", "std", "test"];

fn invalid(what: &str, name: &str, reason: &'static str) -> Error {
    Error::InvalidName {
        what: what.to_string(),
        name: name.to_string(),
        reason,
    }
}

fn identifier(what: &str, name: &str) -> Result<(), Error> {
    if is_identifier(name) {
        Ok(())
    } else {
        Err(invalid(what, name, "not an ASCII identifier"))
    }
}

fn distinct<'a>(what: &str, names: impl IntoIterator<Item = &'a str>) -> Result<(), Error> {
    let mut seen = std::collections::BTreeSet::new();
    for name in names {
        if !seen.insert(name) {
            return Err(Error::DuplicateName {
                what: what.to_string(),
                name: name.to_string(),
            });
        }
    }
    Ok(())
}

fn sized(what: &'static str, names: &[String], size: usize) -> Result<(), Error> {
    if names.len() == size {
        Ok(())
    } else {
        Err(Error::SizeMismatch {
            what,
            names: names.len(),
            size,
        })
    }
}

fn check_function(function: &FunctionSig) -> Result<(), Error> {
    identifier("function", &function.name)?;
    let what = format!("output of {}", function.name);
    for output in &function.outputs {
        identifier(&what, &output.name)?;
        if SHARED_ARGUMENTS.contains(&output.name.as_str()) {
            return Err(invalid(&what, &output.name, "it is a shared argument"));
        }
    }
    distinct(&what, function.outputs.iter().map(|o| o.name.as_str()))
}

/// The checks both packages need: identifiers where code uses names, names as many as sizes.
pub fn check(emitted: &Emitted) -> Result<(), Error> {
    identifier("system", &emitted.system)?;
    let sizes = &emitted.sizes;
    sized("state_names", &emitted.state_names, sizes.state)?;
    sized(
        "parameter_names",
        &emitted.parameter_names,
        sizes.parameters,
    )?;
    sized("input_names", &emitted.input_names, sizes.inputs)?;
    sized("function_names", &emitted.function_names, sizes.functions)?;
    if emitted.functions.is_empty() {
        return Err(Error::NoFunctions);
    }
    emitted.functions.iter().try_for_each(check_function)?;
    distinct(
        "function",
        emitted.functions.iter().map(|f| f.name.as_str()),
    )?;
    version(emitted).map(|_| ())
}

/// The checks of [`crate::cmake_package`]: the library target is named after the system.
pub fn check_cmake(emitted: &Emitted) -> Result<(), Error> {
    check(emitted)?;
    if CMAKE_RESERVED.contains(&emitted.system.as_str()) {
        return Err(invalid(
            "system",
            &emitted.system,
            "CMake reserves this target name",
        ));
    }
    Ok(())
}

/// The checks of [`crate::cargo_package`]: the crate and its module are named after the system.
pub fn check_cargo(emitted: &Emitted) -> Result<(), Error> {
    check(emitted)?;
    let name = emitted.system.as_str();
    if RUST_KEYWORDS.contains(&name) {
        return Err(invalid("system", name, "it is a Rust keyword"));
    }
    if CRATE_RESERVED.contains(&name) {
        return Err(invalid(
            "system",
            name,
            "Cargo or the standard library takes it",
        ));
    }
    if emitted.rust.is_none() {
        return Err(Error::MissingRust);
    }
    Ok(())
}

/// The package version: the given one if it is `MAJOR.MINOR.PATCH[-pre][+build]`, else `0.1.0`.
pub fn version(emitted: &Emitted) -> Result<&str, Error> {
    let Some(given) = emitted.package_version.as_deref() else {
        return Ok("0.1.0");
    };
    let core = numeric_version(given);
    let suffix = &given[core.len()..];
    let suffix_ok = suffix.is_empty()
        || (suffix.len() > 1
            && (suffix.starts_with('-') || suffix.starts_with('+'))
            && suffix[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')));
    let parts: Vec<&str> = core.split('.').collect();
    let core_ok = parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    if core_ok && suffix_ok {
        Ok(given)
    } else {
        Err(Error::InvalidVersion(given.to_string()))
    }
}

/// The leading `MAJOR.MINOR.PATCH` of a version (what CMake's `project(VERSION)` accepts).
pub fn numeric_version(version: &str) -> &str {
    let end = version
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(version.len());
    &version[..end]
}

impl Emitted {
    /// The names of the entries of `function`'s `x`: its own [`FunctionSig::state`], or the
    /// system state.
    pub fn x_names<'a>(&'a self, function: &'a FunctionSig) -> &'a [String] {
        function.state.as_deref().unwrap_or(&self.state_names)
    }

    /// The function the package tests integrate and the position of its `xdot` output: `rhs`,
    /// else `forward_dynamics`, else the first function with an output `xdot` as long as its
    /// `x` (and not empty). `None`: the tests only call every function once.
    pub fn integrated(&self) -> Option<(&FunctionSig, usize)> {
        let rate_output = |f: &FunctionSig| {
            let n = self.x_names(f).len();
            f.rates.filter(|&k| f.outputs[k].len == n && n > 0)
        };
        let candidates = || {
            self.functions
                .iter()
                .filter_map(move |f| rate_output(f).map(|k| (f, k)))
        };
        ["rhs", "forward_dynamics"]
            .iter()
            .find_map(|name| candidates().find(|(f, _)| f.name == *name))
            .or_else(|| candidates().next())
    }
}

/// The files sorted by path: the fixed order of a package.
pub fn sorted(mut files: Vec<PackageFile>) -> Vec<PackageFile> {
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}
