//! The keys of `expect` entries: the names, pairs, triples and calls an entry's key may be,
//! resolved to indices of the system's coordinates, velocities, momenta, sections and constraints,
//! with a located diagnostic when a key names nothing.

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Result, Span};
use syntax::ast::{ExpectEntry, Expr as Ast, ExprKind, Key};

use crate::frame::Frame;
use crate::scope::ScopeKind;
use crate::symbols::Handle;
use crate::system::System;

pub(super) fn entry_label(entry: &ExpectEntry) -> String {
    match &entry.key {
        Some(key) => key.to_string(),
        None => entry.value.to_string(),
    }
}

pub(crate) fn bad_key(span: Span, message: impl Into<String>, expected: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error(Code::E0402, message, span, "this key")
        .with_help(format!("expected {expected}"))]
}

pub(super) fn key_span(entry: &ExpectEntry) -> Span {
    match &entry.key {
        Some(Key::Single(e)) => e.span,
        Some(Key::Tuple(_, span)) => *span,
        None => entry.span,
    }
}

pub(super) fn single_key<'a>(entry: &'a ExpectEntry, expected: &str) -> Result<&'a Ast> {
    match &entry.key {
        Some(Key::Single(e)) => Ok(e),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a single key",
            expected,
        )),
    }
}

pub(super) fn pair_key<'a>(entry: &'a ExpectEntry, expected: &str) -> Result<(&'a Ast, &'a Ast)> {
    match &entry.key {
        Some(Key::Tuple(items, _)) if items.len() == 2 => Ok((&items[0], &items[1])),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a key `(a, b)`",
            expected,
        )),
    }
}

/// The functions of a `{f, g}` key, read in `scope`.
pub(super) fn bracket_key(
    system: &System,
    entry: &ExpectEntry,
    scope: ScopeKind,
) -> Result<(Expr, Expr)> {
    let key = single_key(entry, "`{f, g}`")?;
    let ExprKind::Bracket(f, g) = &key.kind else {
        return Err(bad_key(
            key.span,
            "this entry needs a key `{f, g}`",
            "`{f, g} = …`",
        ));
    };
    Ok((
        system.scope.convert(f, scope)?,
        system.scope.convert(g, scope)?,
    ))
}

/// The functions of a `J(f, g, h)` key, read in `scope`.
pub(super) fn jacobiator_key(
    system: &System,
    entry: &ExpectEntry,
    scope: ScopeKind,
) -> Result<(Expr, Expr, Expr)> {
    let key = single_key(entry, "`J(f, g, h)`")?;
    match &key.kind {
        ExprKind::Call { func, args } if func.name == "J" && args.len() == 3 => Ok((
            system.scope.convert(&args[0], scope)?,
            system.scope.convert(&args[1], scope)?,
            system.scope.convert(&args[2], scope)?,
        )),
        _ => Err(bad_key(
            key.span,
            "this entry needs a key `J(f, g, h)`",
            "`J(f, g, h) = …`",
        )),
    }
}

/// Which variables a rate key `v'` may name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RatesOf {
    /// The coordinates, momenta and algebroid velocities (`q''` for the velocity `q'` under
    /// `algebroid tangent`).
    State,
    /// The coordinates and momenta only.
    Base,
}

/// The internal name of the variable whose rate a key `v'` names, among `of`.
pub(super) fn rate_key(system: &System, key: &Ast, of: RatesOf) -> Option<String> {
    let velocities = of == RatesOf::State;
    let alg = &system.algebroid;
    match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => {
            let n = &name.name;
            let named = |list: &[Handle]| list.iter().any(|s| system.key(*s) == *n);
            let known = system.coordinate_named(n).is_some()
                || named(&alg.momenta)
                || (velocities && named(&alg.velocities));
            known.then(|| n.clone())
        }
        ExprKind::Primed {
            name,
            order: 2,
            args: None,
        } if velocities && system.scope.tangent => tangent_velocity(system, &name.name),
        _ => None,
    }
}

/// The internal name of the coordinate of `TQ × ℝ` whose rate a key names: `q'` (a
/// coordinate), `q''` (its velocity) or `z'` (the action).
pub(super) fn contact_rate_key(system: &System, key: &Ast) -> Option<String> {
    match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => {
            let n = &name.name;
            system.is_coordinate_or_action(n).then(|| n.clone())
        }
        ExprKind::Primed {
            name,
            order: 2,
            args: None,
        } if system.scope.tangent => tangent_velocity(system, &name.name),
        _ => None,
    }
}

/// The key of the velocity `q'` of the coordinate spelled `q`, if it is a velocity of the
/// algebroid (under `algebroid tangent`, where a key `q''` names its rate).
pub(super) fn tangent_velocity(system: &System, q: &str) -> Option<String> {
    let q = system.coordinate_named(q)?;
    let y = system.symbols.velocity(system.coordinates[q]);
    system
        .algebroid
        .velocities
        .contains(&y)
        .then(|| system.key(y))
}

/// The arguments of a key `name(a, b, …)` with `arity` arguments.
pub(super) fn call_key<'a>(
    key: &'a Ast,
    name: &str,
    arity: usize,
    expected: &str,
) -> Result<&'a [Ast]> {
    match &key.kind {
        ExprKind::Call { func, args } if func.name == name && args.len() == arity => Ok(args),
        _ => Err(bad_key(
            key.span,
            format!("this entry needs a key `{name}(…)` with {arity} arguments"),
            expected,
        )),
    }
}

/// The index among the sections of `D` (the frame's sections along `C`, in frame order) of the
/// frame momentum `key`.
pub(super) fn section_of_d(system: &System, key: &Ast) -> Result<usize> {
    let (frame, _) = frame_names(system, key)?;
    let found = match &key.kind {
        ExprKind::Name(name) => frame
            .along
            .iter()
            .position(|&a| system.key(frame.momenta[a]) == *name),
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = frame
            .along
            .iter()
            .map(|&a| system.spec_name(frame.momenta[a]))
            .collect();
        bad_key(
            key.span,
            format!("`{key}` is not the momentum of a section of D"),
            &names.join(", "),
        )
    })
}

/// E0403 when the sections of a key repeat (the quantity is zero by skew symmetry).
pub(super) fn distinct(key: &Ast, indices: &[usize]) -> Result<()> {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() == indices.len() {
        Ok(())
    } else {
        Err(bad_key(
            key.span,
            "the sections of this key repeat (the value is zero by skew symmetry)",
            "distinct sections of D",
        ))
    }
}

/// The frame of the system and the indices of its completing sections, or E0403 at `key` when
/// there is no frame.
pub(super) fn frame_names<'a>(system: &'a System, key: &Ast) -> Result<(&'a Frame, Vec<usize>)> {
    let frame = system.frame.as_ref().ok_or_else(|| {
        vec![Diagnostic::error(
            Code::E0403,
            "this system has no frame adapted to its constraints",
            key.span,
            "needs linear constraints",
        )
        .with_note("a frame is declared with `frame { … }` or computed from linear constraints")]
    })?;
    let dependent = (0..system.rank())
        .filter(|a| !frame.along.contains(a))
        .collect();
    Ok((frame, dependent))
}

/// The index in [`System::state`] of the state variable whose derivative the key names.
pub(super) fn state_index(system: &System, key: &Ast) -> Result<usize> {
    let state = system.state();
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order,
            args: None,
        } => {
            let coordinate = system.coordinate_named(&name.name);
            let velocity = system
                .algebroid
                .velocities
                .iter()
                .position(|y| system.key(*y) == name.name);
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
            .map(|s| format!("{}'", system.spec_name(*s)))
            .collect();
        bad_key(
            key.span,
            format!("`{key}` is not the time derivative of a state variable"),
            &names.join(", "),
        )
    })
}

/// The index of the multiplier `lambdaN` the key names.
pub(super) fn multiplier_index(system: &System, key: &Ast) -> Result<usize> {
    let r = system.constraints.len();
    let a = match &key.kind {
        ExprKind::Name(name) => name
            .strip_prefix("lambda")
            .and_then(|a| a.parse::<usize>().ok()),
        _ => None,
    };
    match a {
        Some(a) if a >= 1 && a <= r => Ok(a - 1),
        _ => Err(bad_key(
            key.span,
            "not a multiplier of this system",
            &format!("lambda1 … lambda{r}"),
        )),
    }
}

/// The index of the momentum the key names.
pub(super) fn momentum_index(system: &System, key: &Ast) -> Result<usize> {
    let momenta = system.keys(&system.algebroid.momenta);
    let found = match &key.kind {
        ExprKind::Name(name) => momenta.iter().position(|p| p == name),
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a momentum of this system"),
            &momenta.join(", "),
        )
    })
}

/// The index among the phase coordinates (the coordinates, then the momenta) of the one whose
/// rate the key names (`x'` or `p1'`).
pub(super) fn phase_index(system: &System, key: &Ast) -> Result<usize> {
    let state: Vec<String> = system
        .keys(&system.coordinates)
        .into_iter()
        .chain(system.keys(&system.algebroid.momenta))
        .collect();
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => state.iter().position(|s| *s == name.name),
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = state.iter().map(|s| format!("{s}'")).collect();
        bad_key(
            key.span,
            format!("`{key}` is not the rate of a coordinate or a momentum"),
            &names.join(", "),
        )
    })
}

pub(super) fn section_index(system: &System, key: &Ast) -> Result<usize> {
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

pub(super) fn constraint_index(system: &System, key: &Ast) -> Result<usize> {
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

pub(super) fn basis_index(system: &System, key: &Ast) -> Result<usize> {
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
