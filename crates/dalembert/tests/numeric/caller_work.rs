//! `--work caller` against the stack: the implicit route's Jacobians (`rhs_jacobian`,
//! `rhs_jacobian_u`, `rhs_jacobian_p`) write only the entries of the derivatives of `W`, `b`,
//! `μ`, `β` that are not identically zero, into work arrays that the function zeroes itself. On
//! the stack they are declared zeroed; in the caller's `work` the function zeroes them after
//! carving them out. The caller's work is filled with NaN before every call here, so an entry
//! the function left as the caller gave it would show as a NaN or a difference.

use std::fs;
use std::path::Path;
use std::process::Command;

use dalembert::{CodeOptions, Derived, Solve, Target, Work};

use super::{c_list, root, route, run, source, Rng};

/// The harness that prints every entry of each Jacobian the header declares, at `x0`, with the
/// work arrays on the stack (`caller` false) or in a `work` of NaN (`caller` true).
fn harness(
    name: &str,
    header: &str,
    (x0, params, nu): (&[f64], &[f64], usize),
    caller: bool,
) -> String {
    let upper = name.to_uppercase();
    let mut calls = String::new();
    for suffix in ["", "_u", "_p"] {
        let big = suffix.to_uppercase();
        let nnz = format!("{upper}_RHS_JACOBIAN{big}_NNZ");
        if !header.contains(&nnz) {
            continue;
        }
        let work = format!("{upper}_RHS_JACOBIAN{big}_WORK");
        let (fill, argument) = if caller {
            (
                format!("for (int i = 0; i < {work}; i++) work[i] = NAN;"),
                ", work".to_string(),
            )
        } else {
            (String::new(), String::new())
        };
        calls.push_str(&format!(
            "    {{ dalembert_real jac[{nnz} + 1]; {fill}\n      if ({name}_rhs_jacobian{suffix}(0.0, x, p, u, NULL, jac{argument}) != 0) return 1;\n      for (int k = 0; k < {nnz}; k++) printf(\"{suffix} %d %.17g\\n\", k, jac[k]); }}\n"
        ));
    }
    let work = if caller {
        let sizes: Vec<String> = ["", "_U", "_P"]
            .iter()
            .map(|big| format!("{upper}_RHS_JACOBIAN{big}_WORK"))
            .filter(|m| header.contains(m.as_str()))
            .collect();
        format!("    static dalembert_real work[{}];\n", sizes.join(" + "))
    } else {
        String::new()
    };
    format!(
        "#include <math.h>\n#include <stdio.h>\n#include \"{name}.h\"\nint main(void) {{\n    dalembert_real x[] = {{{x}}}, p[] = {{{p}}}, u[] = {{{u}}};\n{work}    (void)u;\n{calls}    return 0;\n}}\n",
        x = c_list(x0),
        p = c_list(params),
        u = c_list(&vec![0.3; nu]),
    )
}

/// The emitted C of `derived` with `work`, compiled warning-free with the strict flags and linked
/// with its harness in `dir`; what the harness prints.
fn jacobians(derived: &Derived, dir: &Path, work: Work, state: (&[f64], &[f64], usize)) -> String {
    let name = derived.system().name.clone();
    let options = CodeOptions {
        work,
        ..CodeOptions::default()
    };
    fs::create_dir_all(dir).unwrap();
    for a in dalembert::render_derived(derived, &[Target::C], options).expect("renders") {
        fs::write(dir.join(&a.file_name), &a.contents).unwrap();
    }
    let header = fs::read_to_string(dir.join(format!("{name}.h"))).unwrap();
    let caller = work == Work::Caller;
    assert_eq!(
        header.contains("_RHS_JACOBIAN_WORK"),
        caller,
        "{name}: the header states the caller's work exactly when it is the caller's"
    );
    fs::write(dir.join("main.c"), harness(&name, &header, state, caller)).unwrap();
    run(
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
            .args(["-Wdouble-promotion", "-Wconversion", "-c", "-o"])
            .arg(dir.join(format!("{name}.o")))
            .arg(dir.join(format!("{name}.c"))),
        &format!("gcc -Werror {name}.c with {work:?} work"),
    );
    let exe = dir.join("jacobians");
    run(
        Command::new("gcc")
            .args(["-std=c99", "-O1", "-o"])
            .arg(&exe)
            .arg(dir.join("main.c"))
            .arg(dir.join(format!("{name}.o")))
            .arg("-lm"),
        &format!("link the harness of {name}"),
    );
    run(&mut Command::new(&exe), &format!("the harness of {name}"))
}

#[test]
fn link_caller_work_gives_the_jacobians_of_stack_work_whatever_it_held() {
    let dir = std::env::temp_dir().join(format!("dalembert-caller-work-{}", std::process::id()));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // Constraints (the derivatives of μ and β too), and a chain without them.
    for case in ["implicit/snake_3", "implicit/pendulum_cart_5"] {
        let case = root().join("golden").join(case);
        let derived =
            dalembert::compile_with(&source(&case), &route(Solve::Numeric)).expect("derives");
        let system = derived.system();
        let x0: Vec<f64> = system
            .state()
            .iter()
            .map(|_| rng.between(-1.0, 1.0))
            .collect();
        let params: Vec<f64> = system
            .parameters
            .iter()
            .map(|_| rng.between(0.5, 2.0))
            .collect();
        let state = (x0.as_slice(), params.as_slice(), system.inputs.len());
        let stack = jacobians(&derived, &dir.join("stack"), Work::Stack, state);
        let caller = jacobians(&derived, &dir.join("caller"), Work::Caller, state);
        assert!(
            stack.lines().count() > 20,
            "{}: too few entries:\n{stack}",
            case.display()
        );
        assert!(!stack.contains("nan"), "{}: NaN:\n{stack}", case.display());
        assert_eq!(caller, stack, "{}: caller work differs", case.display());
        let _ = fs::remove_dir_all(&dir);
    }
}
