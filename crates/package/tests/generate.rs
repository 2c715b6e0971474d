//! The packages as text, for every committed golden system and for refused inputs: the file
//! lists, determinism, verbatim copies, the choice of the integrated function. Fast: nothing
//! is built here (see `tests/build.rs`).

mod common;

use package::{cargo_package, cmake_package, Emitted, Error, FunctionSig, Output, PackageFile};

fn paths(files: &[PackageFile]) -> Vec<&str> {
    files.iter().map(|f| f.path.as_str()).collect()
}

/// `paths` sorted bytewise: the order the packages promise.
fn sorted<const N: usize>(mut paths: [String; N]) -> [String; N] {
    paths.sort();
    paths
}

fn contents<'a>(files: &'a [PackageFile], path: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path}"))
        .contents
}

#[test]
fn every_golden_system_packages_deterministically() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let systems = common::golden_systems(&root);
    assert!(systems.len() >= 20, "only {} golden systems", systems.len());
    for (dir, stem) in systems {
        let emitted = common::load(&dir, &stem);
        let sys = &emitted.system;
        assert_eq!(sys, &stem, "{}", dir.display());
        let cmake = cmake_package(&emitted).unwrap_or_else(|e| panic!("{sys}: {e}"));
        let cargo = cargo_package(&emitted).unwrap_or_else(|e| panic!("{sys}: {e}"));
        assert_eq!(
            paths(&cmake),
            sorted([
                ".gitignore".to_string(),
                "CMakeLists.txt".into(),
                "README.md".into(),
                format!("include/{sys}.h"),
                format!("src/{sys}.c"),
                format!("test/test_{sys}.c"),
            ])
        );
        assert_eq!(
            paths(&cargo),
            sorted([
                ".gitignore".to_string(),
                "Cargo.toml".into(),
                "README.md".into(),
                format!("src/{sys}.rs"),
                "src/lib.rs".into(),
                "tests/integrate.rs".into(),
            ])
        );
        assert_eq!(
            contents(&cmake, &format!("include/{sys}.h")),
            emitted.header
        );
        assert_eq!(contents(&cmake, &format!("src/{sys}.c")), emitted.source);
        assert_eq!(
            Some(contents(&cargo, &format!("src/{sys}.rs"))),
            emitted.rust.as_deref()
        );
        assert_eq!(cmake, cmake_package(&emitted.clone()).unwrap());
        assert_eq!(cargo, cargo_package(&emitted.clone()).unwrap());
        let c_test = contents(&cmake, &format!("test/test_{sys}.c"));
        let rust_test = contents(&cargo, "tests/integrate.rs");
        for function in &emitted.functions {
            assert!(c_test.contains(&format!("{sys}_{}(", function.name)));
            assert!(rust_test.contains(&format!("fn once_{}()", function.name)));
        }
        // Every golden system with rhs and a state integrates rhs (not the empty state of
        // three_steps, nor a linearisation's state_space).
        let integrated = emitted.integrated().map(|(f, _)| f.name.as_str());
        let has_rhs = emitted.functions.iter().any(|f| f.name == "rhs");
        let expected = (emitted.sizes.state > 0 && has_rhs).then_some("rhs");
        assert_eq!(integrated, expected, "{sys}");
    }
}

#[test]
fn the_cmake_project_has_what_the_brief_asks() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let emitted = common::load_golden(&root, "chaplygin_sleigh/expected/chaplygin_sleigh");
    let files = cmake_package(&emitted).unwrap();
    let lists = contents(&files, "CMakeLists.txt");
    for needle in [
        "cmake_minimum_required(VERSION 3.13)",
        "project(chaplygin_sleigh VERSION 0.1.0 LANGUAGES C)",
        "add_library(chaplygin_sleigh STATIC src/chaplygin_sleigh.c)",
        "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>",
        "C_STANDARD 99",
        "C_EXTENSIONS OFF",
        "if(NOT MSVC)\n  target_link_libraries(chaplygin_sleigh PUBLIC m)",
        "-Wall -Wextra",
        "enable_testing()",
        "add_executable(test_chaplygin_sleigh test/test_chaplygin_sleigh.c)",
        "add_test(NAME test_chaplygin_sleigh COMMAND test_chaplygin_sleigh)",
    ] {
        assert!(lists.contains(needle), "no {needle:?} in\n{lists}");
    }
    let test = contents(&files, "test/test_chaplygin_sleigh.c");
    for needle in [
        "#if CHAPLYGIN_SLEIGH_N_STATE != 3 ||",
        "(dalembert_real)0.1, /* [0] v1 */",
        "(dalembert_real)1.3, /* [3] b */",
        "chaplygin_sleigh_rhs(t, x, parameters, NULL, NULL, xdot)",
        "for (int step = 0; step < 10; step++)",
        "const dalembert_real h = (dalembert_real)1e-3;",
        "chaplygin_sleigh_hamilton((dalembert_real)0, x_hamilton, parameters, NULL, NULL, \
         out_xdot, out_hamiltonian)",
    ] {
        assert!(test.contains(needle), "no {needle:?} in\n{test}");
    }
    let readme = contents(&files, "README.md");
    assert!(readme.contains("cmake -S . -B build && cmake --build build && ctest --test-dir build"));
}

#[test]
fn the_crate_has_what_the_brief_asks() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let emitted = common::load_golden(&root, "chaplygin_sleigh/expected/chaplygin_sleigh");
    let files = cargo_package(&emitted).unwrap();
    let manifest = contents(&files, "Cargo.toml");
    for needle in [
        "name = \"chaplygin_sleigh\"",
        "version = \"0.1.0\"",
        "edition = \"2021\"",
        "default = [\"std\"]\nstd = []",
        "[dependencies]\n\n",
        "\n[workspace]\n",
    ] {
        assert!(manifest.contains(needle), "no {needle:?} in\n{manifest}");
    }
    let lib = contents(&files, "src/lib.rs");
    for needle in [
        "#![no_std]",
        "#[cfg(feature = \"std\")]\nextern crate std;",
        "#[rustfmt::skip]\npub mod chaplygin_sleigh;\npub use self::chaplygin_sleigh::*;",
        "//! | `x[0]` | `v1` |",
        "//! | `p[1]` | `J` |",
        "//! ## [`rhs`]",
        "//! - `xdot: &mut [Real; 3]`: v1', v2', w'.",
        "//! - `x: &[Real; 2]`, not the state: `x[0]` = `p1`, `x[1]` = `pw`.",
        "builds it for targets without `std`",
    ] {
        assert!(lib.contains(needle), "no {needle:?} in\n{lib}");
    }
    assert!(!lib.contains("compile_error!"));
    // No indented code block sneaks into the documentation (rustdoc would test it).
    assert!(!lib.lines().any(|l| l.starts_with("//!     ")));
    let test = contents(&files, "tests/integrate.rs");
    assert!(test.contains("fn rk4()"));
    assert!(test.contains(
        "chaplygin_sleigh::rhs(t, x, &PARAMETERS, &INPUTS, &FUNCTIONS_OF_TIME, &mut xdot)"
    ));
}

#[test]
fn a_system_with_trigonometry_needs_std() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let emitted = common::load_golden(
        &root,
        "multibody/two_wheeled_robot/expected/two_wheeled_robot",
    );
    let rust = emitted.rust.as_deref().unwrap();
    assert_eq!(common::std_calls(rust), ["cos", "sin"]);
    let lib = contents(&cargo_package(&emitted).unwrap(), "src/lib.rs").to_string();
    assert!(lib.contains(
        "#[cfg(not(feature = \"std\"))]\ncompile_error!(\"the system `two_wheeled_robot` calls \
         cos, sin, which need the `std` feature\");"
    ));
}

#[test]
fn the_tree_form_integrates_forward_dynamics() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let mut emitted = common::load_golden(&root, "multibody/arm6/expected/arm6");
    emitted
        .functions
        .retain(|f| f.name == "forward_dynamics" || f.name == "inverse_dynamics");
    let (function, xdot) = emitted.integrated().unwrap();
    assert_eq!((function.name.as_str(), xdot), ("forward_dynamics", 0));
    let c_test = contents(&cmake_package(&emitted).unwrap(), "test/test_arm6.c").to_string();
    assert!(c_test.contains("arm6_forward_dynamics(t, x, parameters, inputs, NULL, xdot)"));
    assert!(c_test.contains("static const dalembert_real x_inverse_dynamics[18]"));
    // No function reads the system state, so there is no table for it (an unused static
    // would warn).
    assert!(!c_test.contains("dalembert_real state["));
}

#[test]
fn the_implicit_form_alone_is_only_called() {
    let Some(root) = common::require_golden() else {
        return;
    };
    let mut emitted = common::load_golden(&root, "implicit/four_bar/expected/four_bar");
    emitted.functions.retain(|f| f.name == "implicit");
    assert!(emitted.integrated().is_none());
    let c_test = contents(&cmake_package(&emitted).unwrap(), "test/test_four_bar.c").to_string();
    assert!(!c_test.contains("integrate("));
    assert!(c_test.contains("every function returned 0 with finite outputs"));
    let rust_test = contents(&cargo_package(&emitted).unwrap(), "tests/integrate.rs").to_string();
    assert!(!rust_test.contains("fn rk4"));
}

/// A small valid input without code, for the refusals.
fn minimal() -> Emitted {
    Emitted {
        system: "s".into(),
        header: "/* h */\n".into(),
        source: "/* c */\n".into(),
        rust: Some("//! m\n".into()),
        functions: vec![FunctionSig {
            name: "rhs".into(),
            doc: "The rates.".into(),
            outputs: vec![Output {
                name: "xdot".into(),
                len: 1,
                doc: "q'".into(),
            }],
            rates: Some(0),
            state: None,
        }],
        sizes: package::Sizes {
            state: 1,
            ..Default::default()
        },
        state_names: vec!["q".into()],
        generator_version: "0.1.0".into(),
        ..Emitted::default()
    }
}

#[test]
fn inputs_that_would_not_build_are_refused() {
    assert!(cmake_package(&minimal()).is_ok());
    assert!(cargo_package(&minimal()).is_ok());
    let refused = |change: &dyn Fn(&mut Emitted)| {
        let mut e = minimal();
        change(&mut e);
        let cmake = cmake_package(&e).err();
        let cargo = cargo_package(&e).err();
        (cmake, cargo)
    };
    let (cmake, cargo) = refused(&|e| e.system = "two words".into());
    assert!(matches!(cmake, Some(Error::InvalidName { .. })));
    assert!(matches!(cargo, Some(Error::InvalidName { .. })));
    let (cmake, cargo) = refused(&|e| e.system = "match".into());
    assert_eq!(cmake, None);
    assert!(cargo.unwrap().to_string().contains("Rust keyword"));
    let (cmake, cargo) = refused(&|e| e.system = "test".into());
    assert!(cmake.unwrap().to_string().contains("CMake reserves"));
    assert!(cargo.is_some());
    let (cmake, _) = refused(&|e| e.state_names.clear());
    assert_eq!(
        cmake,
        Some(Error::SizeMismatch {
            what: "state_names",
            names: 0,
            size: 1
        })
    );
    let (cmake, _) = refused(&|e| e.functions[0].outputs[0].name = "x".into());
    assert!(cmake.unwrap().to_string().contains("shared argument"));
    let (cmake, _) = refused(&|e| e.functions.push(e.functions[0].clone()));
    assert!(matches!(cmake, Some(Error::DuplicateName { .. })));
    let (cmake, _) = refused(&|e| e.functions.clear());
    assert_eq!(cmake, Some(Error::NoFunctions));
    let (cmake, cargo) = refused(&|e| e.rust = None);
    assert_eq!((cmake, cargo), (None, Some(Error::MissingRust)));
    let (cmake, _) = refused(&|e| e.package_version = Some("1.2".into()));
    assert_eq!(cmake, Some(Error::InvalidVersion("1.2".into())));
    let (cmake, cargo) = refused(&|e| e.package_version = Some("1.2.3-rc.1".into()));
    assert_eq!((cmake, cargo), (None, None));
}

#[test]
fn versions_and_names_reach_the_files() {
    let mut e = minimal();
    e.package_version = Some("2.0.1-beta.1".into());
    e.state_names = vec!["a \"quoted\" */ name??".into()];
    let cmake = cmake_package(&e).unwrap();
    assert!(contents(&cmake, "CMakeLists.txt").contains("project(s VERSION 2.0.1 LANGUAGES C)"));
    let test = contents(&cmake, "test/test_s.c");
    assert!(test.contains("/* [0] a \"quoted\" * / name? ? */"));
    assert!(test.contains("\"a \\\"quoted\\\" */ name\\?\\?\","));
    let cargo = cargo_package(&e).unwrap();
    assert!(contents(&cargo, "Cargo.toml").contains("version = \"2.0.1-beta.1\""));
    assert!(contents(&cargo, "tests/integrate.rs").contains("\"a \\\"quoted\\\" */ name??\","));
}

#[test]
fn write_package_writes_every_file() {
    let dir = std::env::temp_dir().join(format!("package-write-{}", std::process::id()));
    let files = cargo_package(&minimal()).unwrap();
    package::write_package(&dir, &files).unwrap();
    for file in &files {
        assert_eq!(
            std::fs::read_to_string(dir.join(&file.path)).unwrap(),
            file.contents
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
