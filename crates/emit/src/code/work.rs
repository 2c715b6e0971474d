//! Work arrays and the stack footprint of the emitted functions.
//!
//! Most functions are straight-line programs whose values are scalar temporaries `t0, t1, …`: the
//! compiler keeps them in registers or spills them, and their stack use is the compiler's
//! business (`gcc -fstack-usage` reports it). A few functions also need arrays: the implicit
//! route's `rhs` and `dynamics` factor the mass matrix `W` (n × n) and solve the Schur complement
//! of the constraints, the projections hold a constraint Jacobian and its Gram matrix, and
//! Baumgarte stabilisation keeps its correction terms. Those arrays are what grows with the
//! system, and what an embedded engineer must budget for; the header states them per function.
//!
//! Under [`Work::Stack`] the arrays are locals. Under [`Work::Caller`] (C only) a function that
//! needs any takes one more argument, `work`, of `SYSTEM_FUNCTION_WORK` values (a macro of the
//! header), and carves its arrays out of it: then nothing of a size that grows with the system
//! lives on the stack. The Rust module keeps its arrays on the stack (zero-initialised) either
//! way. The arrays that a program writes only in part ([`Array::is_zero_initialised`]) are
//! zeroed by their declaration in every mode, whatever the caller's `work` held.

use super::{Float, Function, Language, Work};
use crate::array::Array;
use crate::function::CodeOptions;

/// The work arrays of `f`, `(name, length)`, in declaration order: the kernel's, the
/// stabilisation's, then the solve's.
pub fn arrays(f: &Function) -> Vec<(&'static str, usize)> {
    let mut out = Vec::new();
    if let Some(kernel) = &f.kernel {
        out.extend(crate::project::arrays(kernel));
    }
    if let Some(stabilisation) = &f.stabilisation {
        out.extend(crate::project::stabilisation_arrays(stabilisation));
    }
    if let Some(solve) = &f.solve {
        out.extend(crate::numeric::arrays(solve));
    }
    out
}

/// The number of work values `f` needs.
pub fn len(f: &Function) -> usize {
    arrays(f).iter().map(|(_, n)| n).sum()
}

/// The length of the caller's `work` argument of `f`, when it takes one.
pub fn caller_len(f: &Function, work: Work) -> Option<usize> {
    let n = len(f);
    (work == Work::Caller && n > 0).then_some(n)
}

/// The declarations of `f`'s work arrays: locals, or slices of the caller's `work` (C only).
/// The arrays that start zeroed ([`Array::is_zero_initialised`]) are zeroed by them.
pub fn declarations(f: &Function, language: Language, work: Work) -> Vec<String> {
    // Asked only of the zeroed arrays in Rust: whether some output of the program is an entry.
    let writes = |name: &str| {
        f.program
            .outputs
            .iter()
            .any(|(slot, _)| slot.split_once('[').is_some_and(|(array, _)| array == name))
    };
    declare(&arrays(f), language, work, &writes)
}

/// The declarations of `arrays` `(name, length)`, in order: locals, or consecutive slices of the
/// caller's `work` (C under [`Work::Caller`]). An array that starts zeroed
/// ([`Array::is_zero_initialised`]) is zeroed here, and in Rust it is mutable only when the
/// program `writes` it (the others are written by the kernels the function calls).
pub fn declare(
    arrays: &[(&str, usize)],
    language: Language,
    work: Work,
    writes: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut offset = 0;
    let mut lines = Vec::new();
    for &(name, n) in arrays {
        let zeroed = Array::is_zero_initialised_name(name);
        match (language, work) {
            (Language::C, Work::Stack) if zeroed => {
                lines.push(format!("dalembert_real {name}[{n}] = {{0}};"))
            }
            (Language::C, Work::Stack) => lines.push(format!("dalembert_real {name}[{n}];")),
            (Language::C, Work::Caller) => {
                lines.push(format!("dalembert_real *const {name} = work + {offset};"));
                if zeroed {
                    lines.push(format!("for (int k_ = 0; k_ < {n}; k_++) {name}[k_] = 0;"));
                }
            }
            (Language::Rust, _) if zeroed && !writes(name) => {
                lines.push(format!("let {name}: [Real; {n}] = [0.0; {n}];"))
            }
            (Language::Rust, _) => lines.push(format!("let mut {name}: [Real; {n}] = [0.0; {n}];")),
        }
        offset += n;
    }
    lines
}

/// The bytes of one value.
fn value_bytes(float: Float) -> usize {
    match float {
        Float::F64 => 8,
        Float::F32 => 4,
    }
}

/// The values, bytes and listing (`w_[9], a_[3]`) of `arrays` in `float`.
pub fn summary(arrays: &[(&str, usize)], float: Float) -> (usize, usize, String) {
    let n: usize = arrays.iter().map(|(_, k)| k).sum();
    let listed = arrays
        .iter()
        .map(|(name, k)| format!("{name}[{k}]"))
        .collect::<Vec<_>>()
        .join(", ");
    (n, n * value_bytes(float), listed)
}

/// The sentence of the documentation that states `f`'s footprint.
pub fn footprint(f: &Function, language: Language, options: CodeOptions) -> String {
    let (n, bytes, listed) = summary(&arrays(f), options.float);
    let temporaries = "the scalar temporaries are the compiler's (registers or spills)";
    match (n, language, options.work) {
        (0, _, _) => format!("Stack: no arrays; {temporaries}."),
        (_, Language::C, Work::Caller) => format!(
            "Work: the caller's work[{n}] ({bytes} bytes: {listed}); no arrays on the stack; {temporaries}."
        ),
        _ => format!("Stack: arrays of {n} values ({bytes} bytes: {listed}); {temporaries}."),
    }
}
