//! `let NAME = EXPR`: named sub-expressions (docs/spec-language.md, "Named sub-expressions").
//!
//! Before any item is read, every use of a bound name in a value of the spec (the places
//! [`Spec::for_each_value_mut`] visits) is replaced by the expression it is bound to, itself
//! expanded by the other bindings: a `let` may use the bindings above or below it, but not, through
//! others, itself. The derivation then reads the expressions in full, exactly as if they were
//! written out; a diagnostic inside an expanded expression points at the `let` it came from.

use std::collections::BTreeMap;

use diagnostic::{Code, Diagnostic};
use syntax::ast::{Expr as Ast, ExprKind, Ident, ItemKind, Spec};

/// The spec without its `let` items and with every bound name replaced, the names bound (to be
/// checked against the declared names), and the errors of the bindings themselves.
pub(super) fn expanded(spec: &Spec) -> (Spec, Vec<Ident>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut bound: BTreeMap<String, (Ident, Ast)> = BTreeMap::new();
    let mut names = Vec::new();
    for item in &spec.items {
        if let ItemKind::Let { name, value } = &item.kind {
            if let Some((first, _)) = bound.get(&name.name) {
                errors.push(super::declared_twice(
                    name,
                    "bound again here by `let`",
                    (first.span, "first bound here by `let`".into()),
                ));
                continue;
            }
            names.push(name.clone());
            bound.insert(name.name.clone(), (name.clone(), value.clone()));
        }
    }
    let resolved = resolve_all(&bound, &mut errors);
    let mut out = Spec {
        items: spec
            .items
            .iter()
            .filter(|item| !matches!(item.kind, ItemKind::Let { .. }))
            .cloned()
            .collect(),
    };
    if !resolved.is_empty() {
        out.for_each_value_mut(&mut |e| substitute(e, &resolved));
    }
    (out, names, errors)
}

/// Each binding's expression with the bindings it uses expanded; a binding on a cycle is
/// reported (once per cycle, at its first binding in name order) and left out.
fn resolve_all(
    bound: &BTreeMap<String, (Ident, Ast)>,
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Ast> {
    let mut resolved: BTreeMap<String, Ast> = BTreeMap::new();
    let mut on_cycle: Vec<String> = Vec::new();
    for name in bound.keys() {
        let mut path = Vec::new();
        if let Err(cycle) = resolve(name, bound, &mut resolved, &mut path) {
            if !cycle.iter().any(|n| on_cycle.contains(n)) {
                let (ident, _) = &bound[&cycle[0]];
                errors.push(
                    Diagnostic::error(
                        Code::E0294,
                        format!(
                            "the `let` bindings {} use each other in a cycle",
                            listed(&cycle)
                        ),
                        ident.span,
                        "bound here",
                    )
                    .with_help("a binding may use other bindings, but not through them itself"),
                );
            }
            on_cycle.extend(cycle);
        }
    }
    resolved.retain(|name, _| !on_cycle.contains(name));
    resolved
}

/// `a`, `b` and `c`, quoted.
fn listed(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// Resolves the binding `name` (depth first), or returns the cycle it lies on.
fn resolve(
    name: &str,
    bound: &BTreeMap<String, (Ident, Ast)>,
    resolved: &mut BTreeMap<String, Ast>,
    path: &mut Vec<String>,
) -> Result<(), Vec<String>> {
    if resolved.contains_key(name) {
        return Ok(());
    }
    if let Some(start) = path.iter().position(|n| n == name) {
        return Err(path[start..].to_vec());
    }
    path.push(name.to_string());
    let (_, value) = &bound[name];
    for other in value.bare_names().iter().filter(|n| bound.contains_key(*n)) {
        resolve(other, bound, resolved, path)?;
    }
    path.pop();
    let mut value = value.clone();
    substitute(&mut value, resolved);
    resolved.insert(name.to_string(), value);
    Ok(())
}

/// Replaces each bare name of `e` bound in `resolved` by its expression.
fn substitute(e: &mut Ast, resolved: &BTreeMap<String, Ast>) {
    match &mut e.kind {
        ExprKind::Name(n) => {
            if let Some(value) = resolved.get(n.as_str()) {
                *e = value.clone();
            }
        }
        ExprKind::Number(_) | ExprKind::Partial(_) => {}
        ExprKind::Primed { args, .. } => args
            .iter_mut()
            .flatten()
            .for_each(|a| substitute(a, resolved)),
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| substitute(a, resolved)),
        ExprKind::Bracket(a, b) | ExprKind::Binary { lhs: a, rhs: b, .. } => {
            substitute(a, resolved);
            substitute(b, resolved);
        }
        ExprKind::Neg(a) => substitute(a, resolved),
    }
}
