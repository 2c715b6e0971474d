//! The names users may give: not reserved, not built in, free of the `__` that the symbol table
//! (`model::symbols`) keeps for the keys of the symbols it derives (`x__v` for `x'`).

/// Whether a user may use `name`: not reserved (a built-in function, `pi`), no `__`, no trailing
/// `_`.
pub fn user_name_problem(name: &str) -> Option<&'static str> {
    if name.contains("__") {
        Some("names may not contain `__` (reserved for derived quantities)")
    } else if name.ends_with('_') {
        Some("names may not end in `_`")
    } else if BUILTIN_FUNCTIONS.contains(&name) {
        Some("this is the name of a built-in function")
    } else if name == "pi" {
        Some("`pi` is the constant π")
    } else {
        None
    }
}

/// The built-in functions of the expression language.
pub const BUILTIN_FUNCTIONS: [&str; 6] = ["sin", "cos", "tan", "exp", "log", "sqrt"];
