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

use crate::symbols::{Handle, Kind, Symbols};

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

/// The identifier of a symbol of `table`, before collisions are resolved (see the module
/// documentation).
pub fn identifier(table: &Symbols, symbol: Handle) -> String {
    match table.kind(symbol) {
        Kind::Named(name) if KEYWORDS.contains(&name.as_str()) => format!("{name}_"),
        Kind::Named(name) => name,
        Kind::Velocity(q) | Kind::Rate(q) => format!("{}_dot", identifier(table, q)),
        Kind::FunctionDerivative(f, k) => format!("{}{}", table.key(f), "_dot".repeat(k as usize)),
        Kind::Multiplier(a) => format!("lambda{a}"),
        Kind::Next(q) => format!("{}_next", identifier(table, q)),
        Kind::Half(v) => format!("{}_half", identifier(table, v)),
        Kind::Step => "h".to_string(),
    }
}

/// The identifiers of `symbols` (keys in `table`), one-to-one: collisions resolved in the order
/// of the keys (a string set, so that the order is the keys' and not the handles').
pub fn table(table: &Symbols, symbols: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut taken = BTreeSet::new();
    let mut out = BTreeMap::new();
    // π is SymPy's `pi`, not a symbol of the table.
    for internal in symbols.iter().filter(|s| *s != cas::PI_NAME) {
        let mut id = identifier(table, table.handle(internal));
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
        let arena = Symbols::default();
        let x = arena.handle("x");
        let x_dot = arena.key(arena.velocity(x));
        let x_ddot = arena.key(arena.rate(arena.velocity(x)));
        let omega_dot = arena.key(arena.function_derivative(arena.handle("Omega"), 1));
        let lambda2 = arena.key(arena.multiplier(2));
        let symbols: BTreeSet<String> = [
            "x".to_string(),
            x_dot.clone(),
            "x_dot".to_string(),
            x_ddot.clone(),
            omega_dot.clone(),
            "lambda".to_string(),
            lambda2.clone(),
        ]
        .into_iter()
        .collect();
        let ids = table(&arena, &symbols);
        let distinct: BTreeSet<&String> = ids.values().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
        assert_eq!(ids[&x_dot], "x_dot");
        assert_eq!(ids["x_dot"], "x_dot_");
        assert_eq!(ids[&x_ddot], "x_dot_dot");
        assert_eq!(ids[&omega_dot], "Omega_dot");
        assert_eq!(ids["lambda"], "lambda_");
        assert_eq!(ids[&lambda2], "lambda2");
        for id in distinct {
            assert!(id.chars().next().is_some_and(|c| c.is_ascii_alphabetic()));
            assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
            assert!(!KEYWORDS.contains(&id.as_str()));
        }
    }
}
