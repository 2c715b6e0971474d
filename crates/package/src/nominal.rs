//! The point both package tests start from, and the words that describe it: one definition so
//! that the C and the Rust test integrate the same problem and print comparable numbers.

use crate::model::{Emitted, FunctionSig};
use crate::text::tenths;

/// The number of Runge–Kutta steps of the package tests.
pub const STEPS: usize = 10;

/// The step size, as a literal in both languages.
pub const STEP: &str = "1e-3";

/// The end time, `STEPS * STEP`, as text.
pub const END: &str = "0.01";

/// One array argument of the tests with its nominal values.
pub struct Table {
    /// The identifier stem (`state`, `x_hamilton`, `parameters`, ...).
    pub stem: String,
    /// A comment saying what it is.
    pub doc: String,
    /// `(decimal literal, entry name)` per entry.
    pub entries: Vec<(String, String)>,
}

/// How the nominal values are chosen, for the comments of the tests and the READMEs.
pub const RULE: &str = "state entries x[i] = 0.1 (i + 1), parameters p[i] = 1 + 0.1 i, \
inputs and functions of time zero. These are placeholders, not physical values: edit them to \
a point of interest.";

fn table(stem: &str, doc: String, names: &[String], value: impl Fn(usize) -> String) -> Table {
    Table {
        stem: stem.to_string(),
        doc,
        entries: names
            .iter()
            .enumerate()
            .map(|(i, name)| (value(i), name.clone()))
            .collect(),
    }
}

/// The state values `0.1 (i + 1)`.
fn state_value(i: usize) -> String {
    tenths(i + 1)
}

/// The `x` of `function`, `state` when it is the system state, else `x_<function>`.
pub fn x_stem(function: &FunctionSig) -> String {
    match function.state {
        None => "state".to_string(),
        Some(_) => format!("x_{}", function.name),
    }
}

/// The `x` tables the functions read: the system state when some function reads it, then the
/// own `x` of each function that has one, in function order.
pub fn x_tables(emitted: &Emitted) -> Vec<Table> {
    let system = emitted.functions.iter().any(|f| f.state.is_none());
    let system = system.then(|| {
        table(
            "state",
            "The state x (x[i] = 0.1 (i + 1)).".to_string(),
            &emitted.state_names,
            state_value,
        )
    });
    let own = emitted.functions.iter().filter_map(|f| {
        f.state.as_ref().map(|names| {
            let doc = format!("The x of {} (x[i] = 0.1 (i + 1)).", f.name);
            table(&x_stem(f), doc, names, state_value)
        })
    });
    system.into_iter().chain(own).collect()
}

/// The parameter, input and function-of-time tables, in argument order.
pub fn argument_tables(emitted: &Emitted) -> [Table; 3] {
    let zero = |_| "0.0".to_string();
    [
        table(
            "parameters",
            "The parameters p (p[i] = 1 + 0.1 i): placeholders, edit them to physical values."
                .to_string(),
            &emitted.parameter_names,
            |i| tenths(10 + i),
        ),
        table(
            "inputs",
            "The inputs u (zero).".to_string(),
            &emitted.input_names,
            zero,
        ),
        table(
            "functions_of_time",
            "The values f of the functions of time, the same at every t (zero).".to_string(),
            &emitted.function_names,
            zero,
        ),
    ]
}

/// What a function's return value means, for the documentation.
pub const STATUS: &str = "0 on success; k > 0 when the k-th guarded division met a denominator \
not above DALEMBERT_EPSILON (or NaN); -1 when a numeric solve met a vanishing pivot";
