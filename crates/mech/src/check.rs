//! Proving `expect` blocks against a derivation.
//!
//! Each entry names a derived quantity (by its key and the block's kind) and gives its
//! hand-derived value. The entry *holds* when the difference vanishes identically after
//! restriction to the constraint surface: as many velocities as there are (affine) constraints
//! are eliminated by solving the constraints for them, then the difference is brought to rational
//! normal form with `sin² + cos² = 1` ([`cas::Expr::is_zero`]). Otherwise the entry *differs* by
//! the printed difference (derived − expected).

use std::collections::BTreeMap;

use cas::Expr;
use model::{ConstraintShape, ScopeKind, System};
use syntax::ast::{ExpectBlock, ExpectEntry, Expr as Ast, ExprKind, Key, Span};
use syntax::Diagnostic;

use crate::nonholonomic::derivative_along;
use crate::Derivation;

/// The verdict on one entry.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Derived and expected agree on the constraint surface.
    Holds,
    /// They differ by this (derived − expected, restricted to the constraint surface).
    Differs(Expr),
}

/// One checked entry.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The block kind.
    pub kind: String,
    /// The entry's key as written (or the expression, for keyless kinds).
    pub key: String,
    /// Where the entry is.
    pub span: Span,
    /// What was found.
    pub verdict: Verdict,
}

/// The kinds of `expect` block this version understands.
pub const KINDS: [&str; 12] = [
    "equations",
    "free_equations",
    "multipliers",
    "energy",
    "energy_rate",
    "first_integrals",
    "hessian",
    "constraint_matrix",
    "theta",
    "omega",
    "dpsi",
    "projector",
];

/// Solving the constraints for some of the velocities.
pub struct Surface {
    map: BTreeMap<String, Expr>,
}

impl Surface {
    /// The elimination for `system`: affine constraints are solved for the velocities of the
    /// pivot columns of `μ`; nonlinear constraints are not eliminated.
    pub fn new(system: &System) -> Surface {
        let mut map = BTreeMap::new();
        let constraints = &system.constraints;
        if constraints.is_empty()
            || constraints
                .iter()
                .any(|c| c.shape == ConstraintShape::Nonlinear)
        {
            return Surface { map };
        }
        let velocities = &system.algebroid.velocities;
        let mu: Vec<Vec<Expr>> = constraints.iter().map(|c| c.mu.clone()).collect();
        let Some(pivots) = eliminated_velocities(&mu) else {
            return Surface { map };
        };
        let a: Vec<Vec<Expr>> = mu
            .iter()
            .map(|row| pivots.iter().map(|&p| row[p].clone()).collect())
            .collect();
        let b: Vec<Vec<Expr>> = constraints
            .iter()
            .map(|c| {
                let rest = (0..velocities.len())
                    .filter(|k| !pivots.contains(k))
                    .fold(c.mu0.clone(), |acc, k| {
                        acc + c.mu[k].clone() * Expr::symbol(&velocities[k])
                    });
                vec![-rest]
            })
            .collect();
        if let Ok(x) = cas::solve(&a, &b) {
            for (p, value) in pivots.iter().zip(x) {
                map.insert(velocities[*p].clone(), value[0].clone());
            }
        }
        Surface { map }
    }

    /// `f` restricted to the constraint surface, simplified.
    pub fn restrict(&self, f: &Expr) -> Expr {
        f.subs(&self.map).simplify()
    }
}

/// Which velocities to solve the constraints for: for each constraint in turn, the not yet chosen
/// velocity with the simplest coefficient (a number if there is one), so that restricted
/// expressions divide by as little as possible; the rank pivots if that choice is singular.
fn eliminated_velocities(mu: &[Vec<Expr>]) -> Option<Vec<usize>> {
    let mut chosen: Vec<usize> = Vec::new();
    for row in mu {
        let best = row
            .iter()
            .enumerate()
            .filter(|(k, c)| !chosen.contains(k) && !c.is_zero())
            .min_by_key(|(k, c)| (c.as_small_rational().is_none(), c.size(), *k))
            .map(|(k, _)| k)?;
        chosen.push(best);
    }
    let square: Vec<Vec<Expr>> = mu
        .iter()
        .map(|row| chosen.iter().map(|&k| row[k].clone()).collect())
        .collect();
    if !cas::det(&square).is_zero() {
        return Some(chosen);
    }
    let (rank, pivots) = cas::rank(mu);
    (rank == mu.len()).then_some(pivots)
}

/// Checks every `expect` block of the derivation's system.
pub fn check(d: &Derivation) -> syntax::Result<Vec<Outcome>> {
    let surface = Surface::new(&d.system);
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for block in &d.system.expects {
        if !KINDS.contains(&block.kind.name.as_str()) {
            errors.push(
                Diagnostic::error(
                    "E0401",
                    format!("unknown kind of expectation `{}`", block.kind.name),
                    block.kind.span,
                    "unknown kind",
                )
                .with_help(format!("the kinds are {}", KINDS.join(", "))),
            );
            continue;
        }
        for entry in &block.entries {
            match check_entry(d, &surface, block, entry) {
                Ok(verdict) => outcomes.push(Outcome {
                    kind: block.kind.name.clone(),
                    key: entry_label(entry),
                    span: entry.span,
                    verdict,
                }),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(outcomes)
    } else {
        Err(errors)
    }
}

fn entry_label(entry: &ExpectEntry) -> String {
    match &entry.key {
        Some(key) => key.to_string(),
        None => entry.value.to_string(),
    }
}

fn bad_key(span: Span, message: impl Into<String>, expected: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error("E0402", message, span, "this key")
        .with_help(format!("expected {expected}"))]
}

fn key_span(entry: &ExpectEntry) -> Span {
    match &entry.key {
        Some(Key::Single(e)) => e.span,
        Some(Key::Tuple(_, span)) => *span,
        None => entry.span,
    }
}

fn single_key<'a>(entry: &'a ExpectEntry, expected: &str) -> syntax::Result<&'a Ast> {
    match &entry.key {
        Some(Key::Single(e)) => Ok(e),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a single key",
            expected,
        )),
    }
}

fn pair_key<'a>(entry: &'a ExpectEntry, expected: &str) -> syntax::Result<(&'a Ast, &'a Ast)> {
    match &entry.key {
        Some(Key::Tuple(items, _)) if items.len() == 2 => Ok((&items[0], &items[1])),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a key `(a, b)`",
            expected,
        )),
    }
}

fn check_entry(
    d: &Derivation,
    surface: &Surface,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Verdict> {
    let expected = d
        .system
        .scope
        .convert(&entry.value, ScopeKind::Observable)?;
    let kind = block.kind.name.as_str();
    // A first integral holds when its derivative along the dynamics vanishes; every other kind
    // compares a derived quantity with the expected value.
    let difference = if kind == "first_integrals" {
        if entry.key.is_some() {
            return Err(bad_key(
                key_span(entry),
                "first integrals are listed without keys",
                "one expression per line",
            ));
        }
        derivative_along(&d.system, d.fibre_rhs(), &expected)
    } else {
        derived_value(d, kind, entry)? - expected
    };
    let difference = surface.restrict(&difference);
    Ok(if difference.is_zero() {
        Verdict::Holds
    } else {
        Verdict::Differs(difference)
    })
}

fn derived_value(d: &Derivation, kind: &str, entry: &ExpectEntry) -> syntax::Result<Expr> {
    let system = &d.system;
    let n = system.rank();
    let nh = || {
        d.nonholonomic.as_ref().ok_or_else(|| {
            vec![Diagnostic::error(
                "E0403",
                format!("`expect {kind}` needs constraints, and this system has none"),
                entry.span,
                "nothing to compare with",
            )]
        })
    };
    match kind {
        "equations" | "free_equations" => {
            let key = single_key(entry, "`v' = …` for a state variable v")?;
            let k = state_index(system, key)?;
            if kind == "equations" || k < system.coordinates.len() {
                Ok(d.equations[k].rhs.clone())
            } else {
                Ok(d.free_rhs[k - system.coordinates.len()].clone())
            }
        }
        "multipliers" => {
            nh()?;
            let key = single_key(entry, "`lambdaN`")?;
            let a = match &key.kind {
                ExprKind::Name(name) => name
                    .strip_prefix("lambda")
                    .and_then(|a| a.parse::<usize>().ok()),
                _ => None,
            };
            match a {
                Some(a) if a >= 1 && a <= d.multipliers().len() => {
                    Ok(d.multipliers()[a - 1].clone())
                }
                _ => Err(bad_key(
                    key.span,
                    "not a multiplier of this system",
                    &format!("lambda1 … lambda{}", d.multipliers().len()),
                )),
            }
        }
        "energy" => {
            let key = single_key(entry, "`E`")?;
            match &key.kind {
                ExprKind::Name(e) if e == "E" => Ok(d.lagrangian.energy.clone()),
                _ => Err(bad_key(key.span, "the energy is written `E`", "`E = …`")),
            }
        }
        "energy_rate" => {
            let key = single_key(entry, "`E'`")?;
            match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if name.name == "E" => Ok(d.energy_rate.clone()),
                _ => Err(bad_key(
                    key.span,
                    "the energy rate is written `E'`",
                    "`E' = …`",
                )),
            }
        }
        "hessian" => {
            let (a, b) = pair_key(entry, "`(a, b)` with section names")?;
            Ok(d.lagrangian.hessian[section_index(system, a)?][section_index(system, b)?].clone())
        }
        "constraint_matrix" => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            let nh = nh()?;
            Ok(nh.matrix[constraint_index(system, a)?][constraint_index(system, b)?].clone())
        }
        "theta" => {
            let key = single_key(entry, "`e0` or a section name")?;
            if matches!(&key.kind, ExprKind::Name(e) if e == "e0") {
                return Ok(d.lagrangian.theta[0].clone());
            }
            Ok(d.lagrangian.theta[1 + section_index(system, key)?].clone())
        }
        "omega" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            Ok(d.lagrangian.omega[basis_index(system, x)?][basis_index(system, y)?].clone())
        }
        "dpsi" => {
            let (a, x) = pair_key(
                entry,
                "`(a, X)` with a constraint number and X among T(e0), T(e), V(e)",
            )?;
            let nh = nh()?;
            Ok(nh.dpsi[constraint_index(system, a)?][basis_index(system, x)?].clone())
        }
        "projector" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            let nh = nh()?;
            Ok(nh.projector[basis_index(system, x)?][basis_index(system, y)?].clone())
        }
        _ => unreachable!("kind {kind} listed in KINDS but not handled ({n})"),
    }
}

/// The index in [`System::state`] of the state variable whose derivative the key names.
fn state_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let state = system.state();
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order,
            args: None,
        } => {
            let coordinate = system.coordinates.iter().position(|q| *q == name.name);
            let velocity = system
                .algebroid
                .velocities
                .iter()
                .position(|y| *y == name.name);
            match (coordinate, velocity, order) {
                (Some(i), _, 1) => Some(i),
                (Some(i), _, 2) if system.scope.tangent => Some(system.coordinates.len() + i),
                (None, Some(a), 1) => Some(system.coordinates.len() + a),
                _ => None,
            }
        }
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = state
            .iter()
            .map(|s| format!("{}'", system.spec_name(s)))
            .collect();
        bad_key(
            key.span,
            format!("`{key}` is not the time derivative of a state variable"),
            &names.join(", "),
        )
    })
}

fn section_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let alg = &system.algebroid;
    let found = match &key.kind {
        ExprKind::Name(name) => alg.sections.iter().position(|s| s == name),
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a section"),
            &alg.sections.join(", "),
        )
    })
}

fn constraint_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let r = system.constraints.len();
    let found = match &key.kind {
        ExprKind::Number(text) => text.parse::<usize>().ok().filter(|a| *a >= 1 && *a <= r),
        _ => None,
    };
    found.map(|a| a - 1).ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a constraint number"),
            &format!("1 … {r}"),
        )
    })
}

fn basis_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let n = system.rank();
    let found = match &key.kind {
        ExprKind::Call { func, args } if args.len() == 1 => {
            let section = match &args[0].kind {
                ExprKind::Name(s) if s == "e0" => Some(None),
                _ => section_index(system, &args[0]).ok().map(Some),
            };
            match (func.name.as_str(), section) {
                ("T", Some(None)) => Some(0),
                ("T", Some(Some(a))) => Some(1 + a),
                ("V", Some(Some(a))) => Some(1 + n + a),
                _ => None,
            }
        }
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not an element of the basis (T(e0), T(e), V(e))"),
            "T(e0), T(e) or V(e) for a section e",
        )
    })
}
