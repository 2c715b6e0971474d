//! The keys only one kind of `expect` block (or a few of one family) reads: the rates of each
//! route's variables, the steps of the constraint algorithm, the coordinates of `TQ × ℝ`, the
//! sections of `D`, the symmetries, `theta`'s basis and the dependent frame momenta. Each reader
//! takes a key already known to be single (or one part of a pair) and resolves it, with E0402 at
//! the key when it names nothing; the readers shared by many kinds are in [`super::keys`].

use diagnostic::{Diagnostic, Result};
use syntax::ast::{Expr as Ast, ExprKind};

use crate::expectation::Target;
use crate::scope::ScopeKind;
use crate::system::System;

use super::keys::{bad_key, call_key, contact_rate_key, distinct, frame_names};
use super::keys::{rate_key, section_index, section_of_d, tangent_velocity, RatesOf};

/// What a key of `contact_equations` looks like.
pub(super) const CONTACT_RATES: &str = "`q' = …`, `q'' = …` or `z' = …`";

/// What a key of `contact_hamilton_equations` looks like.
pub(super) const CONTACT_PHASE_RATES: &str = "`q' = …`, `p' = …` or `z' = …`";

/// E0402 at a key `v'` that is not the rate of `of`.
fn not_a_rate(key: &Ast, of: &str, expected: &str) -> Vec<Diagnostic> {
    bad_key(
        key.span,
        format!("`{key}` is not the rate of {of}"),
        expected,
    )
}

/// The name `v` of a key `v'` (first order, no arguments), if it is one.
fn primed_name(key: &Ast) -> Option<&String> {
    match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => Some(&name.name),
        _ => None,
    }
}

/// A key of `contact_equations`: the rate of a coordinate (`q'`), a velocity (`q''`) or the
/// action (`z'`) of `TQ × ℝ`.
pub(super) fn contact_rate(system: &System, key: &Ast) -> Result<String> {
    contact_rate_key(system, key)
        .ok_or_else(|| not_a_rate(key, "a coordinate, a velocity or the action", CONTACT_RATES))
}

/// A key of `contact_hamilton_equations`: the rate of a coordinate, a momentum or the action.
pub(super) fn contact_phase_rate(system: &System, key: &Ast) -> Result<String> {
    primed_name(key)
        .filter(|&n| system.is_coordinate_or_action(n) || is_momentum(system, n))
        .cloned()
        .ok_or_else(|| {
            not_a_rate(
                key,
                "a coordinate, a momentum or the action",
                CONTACT_PHASE_RATES,
            )
        })
}

/// Whether `name` is a momentum of the algebroid.
fn is_momentum(system: &System, name: &str) -> bool {
    system
        .algebroid
        .momenta
        .iter()
        .any(|p| system.key(*p) == name)
}

/// A key of `singular_equations`: the rate of a coordinate or a velocity (no momentum).
pub(super) fn singular_rate(system: &System, key: &Ast) -> Result<String> {
    rate_key(system, key, RatesOf::State)
        .filter(|n| !is_momentum(system, n))
        .ok_or_else(|| {
            not_a_rate(
                key,
                "a coordinate or a velocity",
                "`x' = …` or `y1' = …` (under `algebroid tangent`, `x'' = …`)",
            )
        })
}

/// A key of `vakonomic_equations`: the rate of a coordinate, a velocity or a momentum.
pub(super) fn vakonomic_rate(system: &System, key: &Ast) -> Result<String> {
    rate_key(system, key, RatesOf::State).ok_or_else(|| {
        not_a_rate(
            key,
            "a coordinate, a velocity or a momentum",
            "`x' = …`, `y1' = …` (under `algebroid tangent`, `x'' = …`) or `p3' = …`",
        )
    })
}

/// A key of `vakonomic_hamilton_equations`: the rate of a coordinate or a momentum.
pub(super) fn vakonomic_phase_rate(system: &System, key: &Ast) -> Result<String> {
    rate_key(system, key, RatesOf::Base)
        .ok_or_else(|| not_a_rate(key, "a coordinate or a momentum", "`x' = …` or `p1' = …`"))
}

/// A key of `dirac_equations`: the rate of a coordinate or a frame momentum (E0403 without a
/// frame).
pub(super) fn dirac_rate(system: &System, key: &Ast) -> Result<String> {
    let (frame, _) = frame_names(system, key)?;
    primed_name(key)
        .filter(|&n| {
            system.coordinate_named(n).is_some() || system.keys(&frame.momenta).contains(n)
        })
        .cloned()
        .ok_or_else(|| {
            let names: Vec<String> = system
                .coordinates
                .iter()
                .chain(&frame.momenta)
                .map(|s| format!("{}'", system.spec_name(*s)))
                .collect();
            not_a_rate(key, "a coordinate or a frame momentum", &names.join(", "))
        })
}

/// A key of `induced_equations`: the rate of a coordinate or a velocity of `D` (E0403 without a
/// frame).
pub(super) fn induced_rate(system: &System, key: &Ast) -> Result<String> {
    let (frame, _) = frame_names(system, key)?;
    let velocities = system.keys(&frame.velocities);
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } if system.coordinate_named(&name.name).is_some() || velocities.contains(&name.name) => {
            Some(name.name.clone())
        }
        // Under `algebroid tangent` the velocity of q is q', so its rate is written q''.
        ExprKind::Primed {
            name,
            order: 2,
            args: None,
        } if system.scope.tangent => {
            tangent_velocity(system, &name.name).filter(|y| velocities.contains(y))
        }
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = system
            .coordinates
            .iter()
            .chain(&frame.velocities)
            .map(|s| format!("{}'", system.spec_name(*s)))
            .collect();
        not_a_rate(key, "a coordinate or a velocity of D", &names.join(", "))
    })
}

/// A key of `theta`: `e0` (index 0) or a section `α` (index `1 + α`).
pub(super) fn theta_index(system: &System, key: &Ast) -> Result<usize> {
    if matches!(&key.kind, ExprKind::Name(e) if e == "e0") {
        return Ok(0);
    }
    Ok(1 + section_index(system, key)?)
}

/// A key of `noether`: the index of the declared symmetry it names.
pub(super) fn symmetry_index(system: &System, key: &Ast) -> Result<usize> {
    let found = match &key.kind {
        ExprKind::Name(n) => system.symmetries.iter().position(|s| s.name == *n),
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = system.symmetries.iter().map(|s| s.name.as_str()).collect();
        bad_key(
            key.span,
            format!("`{key}` is not a declared symmetry"),
            &if names.is_empty() {
                "a `symmetry NAME { … }` item first".to_string()
            } else {
                names.join(", ")
            },
        )
    })
}

/// A key of `dirac_constraints`: the index among the frame momenta of a dependent one (of a
/// section completing `C`), E0403 without a frame.
pub(super) fn dependent_momentum(system: &System, key: &Ast) -> Result<usize> {
    let (frame, dependent) = frame_names(system, key)?;
    let found = match &key.kind {
        ExprKind::Name(name) => frame.momenta.iter().position(|m| system.key(*m) == *name),
        _ => None,
    }
    .filter(|a| dependent.contains(a));
    found.ok_or_else(|| {
        let names: Vec<String> = dependent
            .iter()
            .map(|&a| system.spec_name(frame.momenta[a]))
            .collect();
        bad_key(
            key.span,
            format!(
                "`{key}` is not a dependent momentum of the frame (one of a section completing C)"
            ),
            &names.join(", "),
        )
    })
}

/// The sections of `D` named by the `N` arguments of a key `name(a, b, …)`, each a frame
/// momentum (E0403 at the first without a frame), and distinct.
pub(super) fn sections<const N: usize>(
    system: &System,
    key: &Ast,
    name: &str,
    expected: &str,
) -> Result<[usize; N]> {
    let args = call_key(key, name, N, expected)?;
    let mut found = [0; N];
    for (slot, arg) in found.iter_mut().zip(args) {
        *slot = section_of_d(system, arg)?;
    }
    distinct(key, &found)?;
    Ok(found)
}

/// A key of `constraint_algorithm`: `level` ([`Target::Level`]), `sode` or a step `primary`,
/// `secondary`, `tertiary`, `levelN` ([`Target::Step`]).
pub(super) fn step(key: &Ast) -> Result<Target> {
    let name = match &key.kind {
        ExprKind::Name(n) => n.as_str(),
        _ => "",
    };
    match (name, step_level(name)) {
        ("level", _) => Ok(Target::Level),
        ("sode", _) => Ok(Target::Step(None)),
        (_, Some(k)) => Ok(Target::Step(Some(k))),
        _ => Err(bad_key(
            key.span,
            format!("`{key}` is not a step of the constraint algorithm"),
            "`primary = φ`, `secondary = φ`, `tertiary = φ`, `levelN = φ`, `sode = φ` or `level = N`",
        )),
    }
}

/// The level `k ≥ 1` of a step written `primary`, `secondary`, `tertiary` or `levelk`.
fn step_level(name: &str) -> Option<usize> {
    match name {
        "primary" => Some(1),
        "secondary" => Some(2),
        "tertiary" => Some(3),
        _ => name
            .strip_prefix("level")
            .and_then(|k| k.parse::<usize>().ok())
            .filter(|k| *k > 0),
    }
}

/// One half of a key of `contact_projector`: the internal name of a coordinate of `TQ × ℝ`.
pub(super) fn coordinate(system: &System, e: &Ast) -> Result<String> {
    let converted = system.scope.convert(e, ScopeKind::Observable)?;
    match converted.view() {
        cas::View::Symbol(s) => Ok(s),
        _ => Err(bad_key(
            e.span,
            format!("`{e}` is not a coordinate of TQ × ℝ"),
            "q, q' or z",
        )),
    }
}
