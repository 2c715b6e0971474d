//! What an `expect` entry refers to: its key, read against its block's kind, resolved to a
//! [`Target`].

use diagnostic::{Diagnostic, Result, Span};
use syntax::ast::{ExpectEntry, Expr as Ast, ExprKind};

use crate::scope::ScopeKind;
use crate::system::System;

use super::keys::*;
use crate::expectation::{Family, Kind, Target};

/// What the entry refers to, or E0402/E0403 when its key names nothing of this system.
pub(super) fn target(
    system: &System,
    kind: Kind,
    kind_span: Span,
    entry: &ExpectEntry,
) -> Result<Target> {
    let constrained = || {
        if system.constraints.is_empty() {
            Err(vec![Diagnostic::error(
                "E0403",
                format!("`expect {kind}` needs constraints, and this system has none"),
                entry.span,
                "nothing to compare with",
            )])
        } else {
            Ok(())
        }
    };
    if (kind.family() == Family::Vakonomic) == system.vakonomic.is_empty() {
        let (message, note) = if system.vakonomic.is_empty() {
            (
                format!("`expect {kind}` needs vakonomic constraints, and this system has none"),
                "declare them with `constraints vakonomic { … }`",
            )
        } else {
            (
                format!("`expect {kind}` is about nonholonomic dynamics, and this system is vakonomic"),
                "a vakonomic system has the kinds vakonomic_equations, vakonomic_hamiltonian, vakonomic_hamilton_equations, vakonomic_bracket",
            )
        };
        return Err(vec![Diagnostic::error(
            "E0403",
            message,
            kind_span,
            "nothing to compare with",
        )
        .with_note(note)]);
    }
    if (kind.family() == Family::Contact) != system.action.is_some() {
        let message = if system.action.is_some() {
            format!("`expect {kind}` is not about a contact system, and this one is")
        } else {
            format!("`expect {kind}` needs a contact system (`action z`), and this one is not")
        };
        return Err(vec![Diagnostic::error("E0403", message, kind_span, "nothing to compare with")
            .with_note("a contact system has the kinds contact_equations, contact_multipliers, contact_energy, contact_projector, contact_bracket, contact_jacobiator")]);
    }
    match kind {
        Kind::ContactEquations => {
            let key = single_key(entry, "`q' = …`, `q'' = …` or `z' = …`")?;
            let name = contact_rate_key(system, key).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a velocity or the action"),
                    "`q' = …`, `q'' = …` or `z' = …`",
                )
            })?;
            Ok(Target::Rate(name))
        }
        Kind::ContactMultipliers => {
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Target::Index(multiplier_index(system, key)?))
        }
        Kind::ContactEnergy => named_key(entry, "E", "the energy E_L", Target::Whole),
        Kind::ContactProjector => {
            let (a, b) = pair_key(entry, "`(X, Y)` with coordinates of TQ × ℝ (q, q', z)")?;
            let coordinate = |e: &Ast| -> Result<String> {
                let converted = system.scope.convert(e, ScopeKind::Observable)?;
                match converted.view() {
                    cas::View::Symbol(s) => Ok(s),
                    _ => Err(bad_key(
                        e.span,
                        format!("`{e}` is not a coordinate of TQ × ℝ"),
                        "q, q' or z",
                    )),
                }
            };
            Ok(Target::Coordinates(coordinate(a)?, coordinate(b)?))
        }
        Kind::ContactBracket => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Observable)?;
            Ok(Target::Bracket(f, g))
        }
        Kind::ContactJacobiator => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Observable)?;
            Ok(Target::Jacobiator(f, g, h))
        }
        Kind::ContactHamiltonian => named_key(entry, "H", "the Hamiltonian", Target::Whole),
        Kind::ContactHamiltonEquations => {
            let key = single_key(entry, "`q' = …`, `p' = …` or `z' = …`")?;
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || system.algebroid.momenta.contains(&name.name)
                    || system.action.as_ref() == Some(&name.name) =>
                {
                    Some(name.name.clone())
                }
                _ => None,
            };
            found.map(Target::Rate).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a momentum or the action"),
                    "`q' = …`, `p' = …` or `z' = …`",
                )
            })
        }
        Kind::ConstraintAlgorithm => {
            let key = single_key(
                entry,
                "`primary`, `secondary`, `tertiary`, `levelN`, `sode` or `level`",
            )?;
            let name = match &key.kind {
                ExprKind::Name(n) => n.as_str(),
                _ => "",
            };
            let level = match name {
                "primary" => Some(1),
                "secondary" => Some(2),
                "tertiary" => Some(3),
                _ => name
                    .strip_prefix("level")
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|k| *k > 0),
            };
            match (name, level) {
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
        Kind::SingularEquations => {
            let key = single_key(entry, "`v' = …` for a coordinate or a velocity")?;
            let name = rate_key(system, key, true)
                .filter(|n| !system.algebroid.momenta.contains(n))
                .ok_or_else(|| {
                    bad_key(
                        key.span,
                        format!("`{key}` is not the rate of a coordinate or a velocity"),
                        "`x' = …` or `y1' = …` (under `algebroid tangent`, `x'' = …`)",
                    )
                })?;
            Ok(Target::Rate(name))
        }
        Kind::VakonomicEquations => {
            let key = single_key(
                entry,
                "`v' = …` for a coordinate, a free velocity or a multiplier",
            )?;
            let name = rate_key(system, key, true).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a velocity or a momentum"),
                    "`x' = …`, `y1' = …` (under `algebroid tangent`, `x'' = …`) or `p3' = …`",
                )
            })?;
            Ok(Target::Rate(name))
        }
        Kind::VakonomicHamiltonian => named_key(entry, "H", "the Hamiltonian H_W1", Target::Whole),
        Kind::VakonomicHamiltonEquations => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum")?;
            let name = rate_key(system, key, false).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a momentum"),
                    "`x' = …` or `p1' = …`",
                )
            })?;
            Ok(Target::Rate(name))
        }
        Kind::VakonomicBracket => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Target::Bracket(f, g))
        }
        Kind::FirstIntegrals => match entry.key {
            Some(_) => Err(bad_key(
                key_span(entry),
                "first integrals are listed without keys",
                "one expression per line",
            )),
            None => Ok(Target::Whole),
        },
        Kind::Equations | Kind::FreeEquations => {
            let key = single_key(entry, "`v' = …` for a state variable v")?;
            Ok(Target::Index(state_index(system, key)?))
        }
        Kind::Multipliers => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Target::Index(multiplier_index(system, key)?))
        }
        Kind::Energy => {
            let key = single_key(entry, "`E`")?;
            match &key.kind {
                ExprKind::Name(e) if e == "E" => Ok(Target::Whole),
                _ => Err(bad_key(key.span, "the energy is written `E`", "`E = …`")),
            }
        }
        Kind::EnergyRate => {
            let key = single_key(entry, "`E'`")?;
            match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if name.name == "E" => Ok(Target::Whole),
                _ => Err(bad_key(
                    key.span,
                    "the energy rate is written `E'`",
                    "`E' = …`",
                )),
            }
        }
        Kind::Hessian => {
            let (a, b) = pair_key(entry, "`(a, b)` with section names")?;
            Ok(Target::Pair(
                section_index(system, a)?,
                section_index(system, b)?,
            ))
        }
        Kind::ConstraintMatrix => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Target::Pair(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        Kind::Theta => {
            let key = single_key(entry, "`e0` or a section name")?;
            if matches!(&key.kind, ExprKind::Name(e) if e == "e0") {
                return Ok(Target::Index(0));
            }
            Ok(Target::Index(1 + section_index(system, key)?))
        }
        Kind::Omega => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            Ok(Target::Pair(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        Kind::Dpsi => {
            let (a, x) = pair_key(
                entry,
                "`(a, X)` with a constraint number and X among T(e0), T(e), V(e)",
            )?;
            constrained()?;
            Ok(Target::Pair(
                constraint_index(system, a)?,
                basis_index(system, x)?,
            ))
        }
        Kind::Projector => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            constrained()?;
            Ok(Target::Pair(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        Kind::Hamiltonian => named_key(entry, "H", "the Hamiltonian", Target::Whole),
        Kind::Legendre => {
            let key = single_key(entry, "a momentum name")?;
            Ok(Target::Index(momentum_index(system, key)?))
        }
        Kind::HamiltonEquations => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum v")?;
            Ok(Target::Index(phase_index(system, key)?))
        }
        Kind::DualConstraints => {
            constrained()?;
            let key = single_key(entry, "a constraint number")?;
            Ok(Target::Index(constraint_index(system, key)?))
        }
        Kind::DualConstraintMatrix => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Target::Pair(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        Kind::DualMultipliers => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Target::Index(multiplier_index(system, key)?))
        }
        Kind::Bracket => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Target::Bracket(f, g))
        }
        Kind::Jacobiator => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Phase)?;
            Ok(Target::Jacobiator(f, g, h))
        }
        Kind::FrameBracket | Kind::DiracBracket | Kind::ProjectedBracket => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Frame)?;
            Ok(Target::Bracket(f, g))
        }
        Kind::DiracJacobiator | Kind::ProjectedJacobiator => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Frame)?;
            Ok(Target::Jacobiator(f, g, h))
        }
        Kind::DiracHamiltonian => named_key(entry, "H", "the Hamiltonian", Target::Whole),
        Kind::DiracConstraints => {
            let key = single_key(entry, "a dependent frame momentum")?;
            let (frame, dependent) = frame_names(system, key)?;
            let found = match &key.kind {
                ExprKind::Name(name) => frame.momenta.iter().position(|m| m == name),
                _ => None,
            }
            .filter(|a| dependent.contains(a));
            let names: Vec<&str> = dependent
                .iter()
                .map(|&a| frame.momenta[a].as_str())
                .collect();
            found.map(Target::Index).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not a dependent momentum of the frame (one of a section completing C)"),
                    &names.join(", "),
                )
            })
        }
        Kind::DiracEquations => {
            let key = single_key(entry, "`v' = …` for a coordinate or a frame momentum v")?;
            let (frame, _) = frame_names(system, key)?;
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || frame.momenta.contains(&name.name) =>
                {
                    Some(name.name.clone())
                }
                _ => None,
            };
            found.map(Target::Rate).ok_or_else(|| {
                let names: Vec<String> = system
                    .coordinates
                    .iter()
                    .chain(&frame.momenta)
                    .map(|s| format!("{s}'"))
                    .collect();
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a frame momentum"),
                    &names.join(", "),
                )
            })
        }
        Kind::Noether => {
            let key = single_key(entry, "the name of a `symmetry`")?;
            let found = match &key.kind {
                ExprKind::Name(n) => system.symmetries.iter().position(|s| s.name == *n),
                _ => None,
            };
            found.map(Target::Index).ok_or_else(|| {
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
        Kind::Curvature => {
            let key = single_key(entry, "`K(a, b)` with frame momenta of sections of D")?;
            let args = call_key(key, "K", 2, "`K(a, b) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            distinct(key, &[a, b])?;
            Ok(Target::Pair(a, b))
        }
        Kind::SectionJacobiator => {
            let key = single_key(entry, "`J(a, b, c)` with frame momenta of sections of D")?;
            let args = call_key(key, "J", 3, "`J(a, b, c) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            let c = section_of_d(system, &args[2])?;
            distinct(key, &[a, b, c])?;
            Ok(Target::Triple(a, b, c))
        }
        Kind::InducedLagrangian => {
            named_key(entry, "l", "the restricted Lagrangian", Target::Whole)
        }
        Kind::InducedEquations => {
            let key = single_key(entry, "`v' = …` for a coordinate or a velocity of D")?;
            let (frame, _) = frame_names(system, key)?;
            // Under `algebroid tangent` the velocity of q is q', so its rate is written q''.
            let tangent_velocity = |q: &str| system.symbols.velocity(q);
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || frame.velocities.contains(&name.name) =>
                {
                    Some(name.name.clone())
                }
                ExprKind::Primed {
                    name,
                    order: 2,
                    args: None,
                } if system.scope.tangent
                    && frame.velocities.contains(&tangent_velocity(&name.name)) =>
                {
                    Some(tangent_velocity(&name.name))
                }
                _ => None,
            };
            found.map(Target::Rate).ok_or_else(|| {
                let names: Vec<String> = system
                    .coordinates
                    .iter()
                    .chain(&frame.velocities)
                    .map(|s| format!("{}'", system.spec_name(s)))
                    .collect();
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a velocity of D"),
                    &names.join(", "),
                )
            })
        }
    }
}

/// An entry whose key is the fixed name `name` (`H = …`, `l = …`).
pub(super) fn named_key(
    entry: &ExpectEntry,
    name: &str,
    what: &str,
    target: Target,
) -> Result<Target> {
    let key = single_key(entry, &format!("`{name}`"))?;
    match &key.kind {
        ExprKind::Name(e) if e == name => Ok(target),
        _ => Err(bad_key(
            key.span,
            format!("{what} is written `{name}`"),
            &format!("`{name} = …`"),
        )),
    }
}
