//! Identifiers: every symbol as a name that is legal, and not a keyword, in C, Python and Rust,
//! for the Python form of the JSON's expressions (`docs/json-schema.md`, "Identifiers").
//!
//! | symbol | spec syntax | identifier |
//! |---|---|---|
//! | a user name | `x`, `Omega(t)` | `x`, `Omega` |
//! | the velocity of a coordinate | `x'` | `x_dot` |
//! | the time derivative of a state variable | `u1'`, `x''` | `u1_dot`, `x_dot_dot` |
//! | a derivative of a function of time | `Omega'(t)`, `Omega''(t)` | `Omega_dot`, `Omega_dot_dot` |
//! | a multiplier | `lambda1` | `lambda1` |
//!
//! A user name that is a keyword of one of the three languages gets a trailing `_` (`lambda_`,
//! `type_`); user names never end in `_`, so this cannot meet another user name. Where two
//! symbols of one document would get the same identifier (a coordinate named `x_dot` beside the
//! velocity `x'`), the one whose internal name sorts later gets further `_`s.

use std::collections::{BTreeMap, BTreeSet};

use crate::names::{self, Decoded};

/// The keywords of C (C11), Python 3 and Rust (2021, reserved words included).
const KEYWORDS: &[&str] = &[
    "False", "None", "Self", "True", "_Bool", "abstract", "and", "as", "assert", "async", "auto",
    "await", "become", "box", "break", "case", "char", "class", "const", "continue", "crate",
    "def", "default", "del", "do", "double", "dyn", "elif", "else", "enum", "except", "extern",
    "false", "final", "finally", "float", "fn", "for", "from", "global", "goto", "if", "impl",
    "import", "in", "inline", "int", "is", "lambda", "let", "long", "loop", "macro", "match",
    "mod", "move", "mut", "nonlocal", "not", "or", "override", "pass", "priv", "pub", "raise",
    "ref", "register", "restrict", "return", "self", "short", "signed", "sizeof", "static",
    "struct", "super", "switch", "trait", "true", "try", "type", "typedef", "typeof", "union",
    "unsafe", "unsigned", "unsized", "use", "virtual", "void", "volatile", "where", "while",
    "with", "yield",
];

/// The identifier of an internal symbol name, before collisions are resolved (see the module
/// documentation).
pub fn identifier(internal: &str) -> String {
    match names::decode(internal) {
        Decoded::Plain(name) if KEYWORDS.contains(&name) => format!("{name}_"),
        Decoded::Plain(name) => name.to_string(),
        Decoded::TangentVelocity(q) => format!("{}_dot", identifier(q)),
        Decoded::Derivative(s) => format!("{}_dot", identifier(s)),
        Decoded::FunctionDerivative(f, k) => format!("{f}{}", "_dot".repeat(k as usize)),
        Decoded::Multiplier(a) => format!("lambda{a}"),
    }
}

/// The identifiers of `symbols` (internal names), one-to-one: collisions resolved in the order
/// of the internal names.
pub fn table(symbols: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut taken = BTreeSet::new();
    let mut out = BTreeMap::new();
    for internal in symbols {
        let mut id = identifier(internal);
        while !taken.insert(id.clone()) {
            id.push('_');
        }
        out.insert(internal.clone(), id);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_legal_and_one_to_one() {
        let symbols: BTreeSet<String> = [
            "x".to_string(),
            names::tangent_velocity("x"),
            "x_dot".to_string(),
            names::derivative_of(&names::tangent_velocity("x")),
            names::function_derivative("Omega", 1),
            "lambda".to_string(),
            names::multiplier(2),
        ]
        .into_iter()
        .collect();
        let table = table(&symbols);
        let ids: BTreeSet<&String> = table.values().collect();
        assert_eq!(ids.len(), table.len(), "{table:?}");
        assert_eq!(table[&names::tangent_velocity("x")], "x_dot");
        assert_eq!(table["x_dot"], "x_dot_");
        assert_eq!(
            table[&names::derivative_of(&names::tangent_velocity("x"))],
            "x_dot_dot"
        );
        assert_eq!(table[&names::function_derivative("Omega", 1)], "Omega_dot");
        assert_eq!(table["lambda"], "lambda_");
        assert_eq!(table[&names::multiplier(2)], "lambda2");
        for id in ids {
            assert!(id.chars().next().is_some_and(|c| c.is_ascii_alphabetic()));
            assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
            assert!(!KEYWORDS.contains(&id.as_str()));
        }
    }
}
