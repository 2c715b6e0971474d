//! Packaging dalembert's emitted code: from the C99 header and source and the Rust module of
//! one mechanical system, already rendered as strings, to two projects that build and test
//! as they are, a CMake project ([`cmake_package`], `--emit cmake`) and a Cargo crate
//! ([`cargo_package`], `--emit crate`).
//!
//! # What goes in
//!
//! An [`Emitted`]: the code strings, copied verbatim, and the structure the emitter knew when
//! it wrote them: each function's name, prose and output arrays ([`FunctionSig`], [`Output`]),
//! the sizes ([`Sizes`]), the names of the state, parameter, input and function-of-time
//! entries, the precision and the generator's version. Nothing here parses C or Rust: the
//! header's exact text (whitespace, `extern "C"` guards, a `restrict` macro before the
//! outputs) may change freely; the `std`-only float methods the Rust module calls are told too
//! ([`Emitted::std_calls`]), not searched for.
//!
//! Every function of the emitted code has the shape
//! `int <system>_<name>(t, x, p, u, f, <outputs>)` in C and
//! `fn <name>(t, x, p, u, f, <outputs>) -> Result<(), SingularAt>` in Rust, where `x` is the
//! system state unless [`FunctionSig::state`] names another layout (the phase state of
//! `hamilton`, the coordinates, velocities and accelerations of `inverse_dynamics`).
//!
//! From the emitter: `emit::code::Function { name, doc, outputs, state }` and its `Output {
//! name, len, doc }` map onto [`FunctionSig`] and [`Output`] field for field (`state` as the
//! entry names the templates print, `symbol_doc` of each symbol); [`Sizes`] are the templates'
//! `state_len`, `param_len`, `input_len`, `function_len`, `multiplier_len` and `velocity_len`.
//!
//! # What comes out
//!
//! A list of [`PackageFile`]s, paths relative to the package root, sorted by path; the same
//! input gives the same bytes. [`write_package`] writes them under a directory.
//!
//! The CMake package:
//!
//! ```text
//! .gitignore
//! CMakeLists.txt          static library <system> (alias <system>::<system>), C_STANDARD 99
//!                         without extensions, -Wall -Wextra on GCC/Clang, libm except on
//!                         MSVC, install rules, test_<system> registered with add_test
//! README.md
//! include/<system>.h      verbatim
//! src/<system>.c          verbatim
//! test/test_<system>.c    the smoke test
//! ```
//!
//! The Cargo package:
//!
//! ```text
//! .gitignore
//! Cargo.toml              no dependencies, an empty [workspace], features default = ["std"]
//! README.md
//! src/<system>.rs         verbatim
//! src/lib.rs              #![no_std], the crate documentation, pub mod <system>; pub use
//! tests/integrate.rs      the smoke test
//! ```
//!
//! # The smoke tests
//!
//! Both packages test the same thing at the same nominal point, `x[i] = 0.1 (i + 1)`,
//! `p[i] = 1 + 0.1 i`, inputs and functions of time zero (placeholders, written as an
//! editable table with each entry's name). First every function is called once: it must
//! return success and write every output entry (they start as NaN) with a finite value.
//! Then ten steps of classic fourth-order Runge–Kutta, step `1e-3`, integrate the
//! function [`Emitted::integrated`] chooses (`rhs`, else `forward_dynamics`, else the first
//! function with an output `xdot` as long as its `x`) and print the final state. A system
//! with no such function (`--form implicit`) is only called. The C test also checks at
//! compile time that the header's `<SYSTEM>_N_*` are the sizes it was generated for. Every
//! call gets its own output arrays, distinct from its inputs, as the restrict-qualified
//! outputs of the C code require; empty arrays are passed as `NULL` in C.
//!
//! # `no_std`
//!
//! The crate is `#![no_std]` with a default feature `std` that links `std`
//! (`extern crate std`), which brings the inherent float methods `sin`, `cos`, `exp`, `ln`,
//! `sqrt`, `powf` that `core` lacks; `abs`, the division guard's, is in `core` since Rust
//! 1.84. A system that calls none of them builds with `--no-default-features`; one that
//! does gets a `compile_error!` naming the calls when built without `std`.
//!
//! # Errors
//!
//! An input that would give files that do not build is refused ([`Error`]): names that are
//! not identifiers or that CMake, Cargo or Rust reserve, name lists whose lengths are not the
//! sizes, duplicate names, no functions, a version that is not `MAJOR.MINOR.PATCH`.
#![warn(missing_docs)]

mod cargo;
mod cmake;
mod model;
mod nominal;
mod templates;
mod text;

pub use cargo::cargo_package;
pub use cmake::cmake_package;
pub use model::{Emitted, Error, FunctionSig, Output, PackageFile, Sizes};

use std::path::Path;

/// Writes `files` under `dir`, creating the directories they need; existing files are
/// overwritten, others left alone.
pub fn write_package(dir: &Path, files: &[PackageFile]) -> std::io::Result<()> {
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, &file.contents)?;
    }
    Ok(())
}
