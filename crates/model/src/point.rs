//! Values given on the command line: `--at theta=0,v1=V` (`dalembert linearize`) and
//! `--set m=1,g=9.81` / `--init x=0.1` (`dalembert simulate`).
//!
//! A value is an expression of the spec language. It may use the spec's parameters, and names the
//! spec does not declare (such as the `V` of a steady speed `v1=V`), which stay free symbols of
//! the result. A name on the left is spelled as in the spec: a coordinate `x`, a velocity `x'` or
//! `v1`, a parameter, an input.
//! A value may use the values given before it: in `lam=0.3,theta=-lam`, `theta` is `-0.3`.

use std::collections::BTreeMap;

use cas::Expr;

use crate::{NameKind, ScopeKind, System};

/// `NAME=VALUE,NAME=VALUE`, each value read by [`read_value`]; the names are checked against
/// `names` (the spec spellings that may be set), and the result is keyed by the symbol each
/// spelling stands for.
pub fn read_assignments(
    system: &System,
    text: &str,
    names: &[(String, String)],
) -> Result<BTreeMap<String, Expr>, String> {
    let mut out = BTreeMap::new();
    for item in split_top_level(text) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((name, value)) = item.split_once('=') else {
            return Err(format!("`{item}` is not NAME=VALUE"));
        };
        let name = name.trim();
        let Some((_, symbol)) = names.iter().find(|(spelling, _)| spelling == name) else {
            let known: Vec<&str> = names.iter().map(|(s, _)| s.as_str()).collect();
            return Err(format!(
                "`{name}` cannot be set here: expected one of {}",
                known.join(", ")
            ));
        };
        if out.contains_key(symbol) {
            return Err(format!("`{name}` is given twice"));
        }
        // A value may use the values given before it (`lam=0.3,theta=-lam`).
        let value = read_value(system, value)?.subs(&out);
        out.insert(symbol.clone(), value);
    }
    Ok(out)
}

/// A point as `dalembert linearize --at` reads it: [`read_assignments`] of the state entries,
/// the inputs and the parameters, spelled as in the spec.
pub fn read_point(system: &System, text: &str) -> Result<BTreeMap<String, Expr>, String> {
    let names: Vec<(String, String)> = system
        .state()
        .iter()
        .chain(&system.inputs)
        .chain(&system.parameters)
        .map(|s| (system.spec_name(*s), system.key(*s)))
        .collect();
    read_assignments(system, text, &names)
}

/// The items of `a=1,b=f(1,2)`: commas inside parentheses do not separate.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut items) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

/// Reads one value in the spec's expression syntax; names the spec does not declare become free
/// symbols.
pub fn read_value(system: &System, text: &str) -> Result<Expr, String> {
    let ast = syntax::parse_expr(text.trim()).map_err(|e| {
        format!(
            "`{}` is not an expression: {}",
            text.trim(),
            first_message(&e)
        )
    })?;
    let mut scope = system.scope.clone();
    for name in ast.bare_names() {
        scope
            .names
            .entry(name)
            .or_insert((NameKind::Parameter, ast.span));
    }
    scope
        .convert(&ast, ScopeKind::Observable)
        .map_err(|e| format!("`{}`: {}", text.trim(), first_message(&e)))
}

/// The message of the first diagnostic.
fn first_message(errors: &[syntax::Diagnostic]) -> String {
    errors
        .first()
        .map_or_else(|| "invalid".to_string(), |d| d.message.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn system(source: &str) -> System {
        crate::resolve(&syntax::parse(source).expect("parses")).expect("resolves")
    }

    /// `pi` in a value is π: exact (a symbol the exact route keeps), and the double nearest π/10
    /// when evaluated.
    #[test]
    fn pi_is_pi() {
        let plain =
            "system s\nparameters m\ncoordinates x\nalgebroid tangent\nlagrangian = m*x'^2/2\n";
        let tenth = read_value(&system(plain), "pi/10").unwrap();
        assert_eq!(tenth.symbols().len(), 1, "one symbol, π");
        let value = tenth.evaluate(&BTreeMap::new()).expect("a number");
        assert_eq!(value, std::f64::consts::PI / 10.0);
    }

    /// `pi` in a spec is π too: printed `pi` in the spec's syntax and Python, `\pi` in LaTeX.
    #[test]
    fn pi_in_a_spec_prints_as_pi() {
        let spec = "system s\nparameters m\ncoordinates x\nalgebroid tangent\nlagrangian = m*x'^2/2 - pi*x^2\n";
        let system = system(spec);
        let text = cas::print::spec(&system.lagrangian, &system);
        assert!(text.contains("pi*x^2") && !text.contains('𝜋'), "{text}");
        let latex = cas::print::latex(&system.lagrangian, &system);
        assert!(latex.contains("\\pi"), "{latex}");
    }
}
