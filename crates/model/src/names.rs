//! Internal symbol names.
//!
//! User names are valid symbols as they are (resolution rejects names that contain `__` or end
//! in `_`). Derived quantities get names with a `__` suffix, so they never clash with a user name:
//!
//! | internal | meaning | spec syntax |
//! |---|---|---|
//! | `x__v` | velocity of coordinate `x` (`algebroid tangent`) | `x'` |
//! | `s__dot` | time derivative of the state variable `s` | `s'` (`x''` for `x__v`) |
//! | `F__d2` | second derivative of the function of time `F` | `F''(t)` |
//! | `lambda__1` | first Lagrange multiplier | `lambda1` |

/// The velocity symbol of coordinate `q` under `algebroid tangent`.
pub fn tangent_velocity(q: &str) -> String {
    format!("{q}__v")
}

/// The symbol for the time derivative of state variable `s`.
pub fn derivative_of(s: &str) -> String {
    format!("{s}__dot")
}

/// The symbol for the `order`-th derivative of the function of time `f` (`order` 0 is `f`).
pub fn function_derivative(f: &str, order: u32) -> String {
    if order == 0 {
        f.to_string()
    } else {
        format!("{f}__d{order}")
    }
}

/// The symbol of the `a`-th multiplier (1-based).
pub fn multiplier(a: usize) -> String {
    format!("lambda__{a}")
}

/// What an internal name denotes, parsed back from its suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded<'a> {
    /// A plain user name.
    Plain(&'a str),
    /// `x'` for `x__v`.
    TangentVelocity(&'a str),
    /// `s'` for `s__dot`.
    Derivative(&'a str),
    /// The `order`-th derivative of a function of time.
    FunctionDerivative(&'a str, u32),
    /// The `a`-th multiplier.
    Multiplier(usize),
}

/// Splits an internal name into what it denotes.
pub fn decode(name: &str) -> Decoded<'_> {
    if let Some(base) = name.strip_suffix("__dot") {
        return Decoded::Derivative(base);
    }
    if let Some(base) = name.strip_suffix("__v") {
        return Decoded::TangentVelocity(base);
    }
    if let Some(a) = name.strip_prefix("lambda__") {
        if let Ok(a) = a.parse() {
            return Decoded::Multiplier(a);
        }
    }
    if let Some((base, order)) = name.rsplit_once("__d") {
        if let Ok(order) = order.parse() {
            return Decoded::FunctionDerivative(base, order);
        }
    }
    Decoded::Plain(name)
}

/// Whether a user may use `name`: not reserved, no `__`, no trailing `_`.
pub fn user_name_problem(name: &str) -> Option<&'static str> {
    if name.contains("__") {
        Some("names may not contain `__` (reserved for derived quantities)")
    } else if name.ends_with('_') {
        Some("names may not end in `_`")
    } else if BUILTIN_FUNCTIONS.contains(&name) {
        Some("this is the name of a built-in function")
    } else {
        None
    }
}

/// The built-in functions of the expression language.
pub const BUILTIN_FUNCTIONS: [&str; 6] = ["sin", "cos", "tan", "exp", "log", "sqrt"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(
            decode(&tangent_velocity("x")),
            Decoded::TangentVelocity("x")
        );
        assert_eq!(
            decode(&derivative_of(&tangent_velocity("x"))),
            Decoded::Derivative("x__v")
        );
        assert_eq!(
            decode(&function_derivative("Omega", 2)),
            Decoded::FunctionDerivative("Omega", 2)
        );
        assert_eq!(decode(&multiplier(3)), Decoded::Multiplier(3));
        assert_eq!(decode("u1"), Decoded::Plain("u1"));
    }
}
