//! Packages one committed golden system for a look by hand:
//! `cargo run --example package_golden -- multibody/arm6/expected/arm6 /tmp/out` writes
//! `/tmp/out/cmake` and `/tmp/out/crate`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(system), Some(out)) = (args.next(), args.next()) else {
        return Err(
            "usage: package_golden <path under the golden root, no extension> <out dir>".into(),
        );
    };
    let emitted = common::load_golden(&common::golden_root(), &system);
    let out = PathBuf::from(out);
    package::write_package(&out.join("cmake"), &package::cmake_package(&emitted)?)?;
    package::write_package(&out.join("crate"), &package::cargo_package(&emitted)?)?;
    println!("{}", out.display());
    Ok(())
}
