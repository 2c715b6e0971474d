//! Links the `dalembert` command as a position-dependent executable on Linux.
//!
//! A position-independent executable (the toolchain's default) is relocated by the dynamic loader
//! at every start: with the binary's 31,000 relative relocations `dalembert --version` executed
//! 1.16 million instructions, without them 0.75 million (callgrind), and their writes copied the
//! pages they touch (365 page faults against 224). Linked at a fixed address it has none:
//! `--version` 1.62 → 1.39 ms, a one-coordinate spec's C 7.3 → 6.8 ms (min of 41 and 21
//! interleaved fresh runs).
//! Shared libraries stay randomised; only the executable's own image has a fixed address. The
//! objects are compiled position-independent as always, so the flag changes the link alone, and
//! only of the binaries (`rustc-link-arg-bins`): tests and the library are untouched.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if linux {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
