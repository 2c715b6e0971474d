//! What an `expect` entry refers to: its block's kind and its key resolved to a [`Quantity`].

use cas::Expr;
use model::{ScopeKind, System};
use syntax::ast::{ExpectBlock, ExpectEntry, Expr as Ast, ExprKind};
use syntax::Diagnostic;

use super::keys::*;
use super::kinds::*;

/// What an `expect` entry refers to, resolved from its block's kind and its key.
#[derive(Clone, Debug)]
pub(super) enum Quantity {
    /// The right-hand side of `d(state k)/dt`: constrained (`equations`) or free
    /// (`free_equations`).
    Rate { state: usize, free: bool },
    /// `λ_a`.
    Multiplier(usize),
    /// `E_L`.
    Energy,
    /// `dE_L/dt`.
    EnergyRate,
    /// The entry's value is a first integral.
    FirstIntegral,
    /// `W_ab`.
    Hessian(usize, usize),
    /// `𝒞^{ab}`.
    ConstraintMatrix(usize, usize),
    /// `Θ_L` on `T̃_i` (0 is `e0`).
    Theta(usize),
    /// `Ω_L(X_i, X_j)`.
    Omega(usize, usize),
    /// `dΨ^a(X_i)`.
    Dpsi(usize, usize),
    /// `P` in row `i`, column `j`.
    Projector(usize, usize),
    /// `H(x, p)`.
    Hamiltonian,
    /// `p_α = ∂L/∂y^α(x, y)`.
    Legendre(usize),
    /// The rate of phase coordinate `k` (coordinates, then momenta) on `B̄`.
    PhaseRate(usize),
    /// `ψ^a(x, p)`.
    DualConstraint(usize),
    /// `𝒞̄^{ab}`.
    DualConstraintMatrix(usize, usize),
    /// `λ̄_a(x, p)` on `B̄`.
    DualMultiplier(usize),
    /// `{f, g}_nh` on `B̄` (the Poisson bracket without constraints).
    Bracket(Expr, Expr),
    /// `J(f, g, h)` on `B̄`.
    Jacobiator(Expr, Expr, Expr),
    /// The linear Poisson bracket of `E*` of two functions written in the frame momenta.
    FrameBracket(Expr, Expr),
    /// `H̃(q, η)`.
    DiracHamiltonian,
    /// `ψ_α` of the dependent frame momentum with this index.
    DiracDependent(usize),
    /// The rate of this coordinate of `S` or dependent momentum, on `S`.
    DiracRate(String),
    /// `{f, g}` on `S` (Λ_C / Λ_A).
    DiracBracket(Expr, Expr),
    /// `J(f, g, h)` on `S`.
    DiracJacobiator(Expr, Expr, Expr),
    /// `{f, g}` of the projected structure on `D*` (seed 001).
    ProjectedBracket(Expr, Expr),
    /// Its Jacobiator.
    ProjectedJacobiator(Expr, Expr, Expr),
    /// `⟨p, K(X_a, X_b)⟩` for the sections of `D` with these indices (seed 001 §4).
    Curvature(usize, usize),
    /// `⟨ξ, Jac_P(X_a, X_b, X_c)⟩`.
    SectionJacobiator(usize, usize, usize),
    /// `l(x, v)`.
    InducedLagrangian,
    /// The rate of this coordinate or fibre coordinate of `D` on the induced route.
    InducedRate(String),
    /// The first integral of the declared symmetry with this index (it must be a symmetry).
    NoetherIntegral(usize),
    /// The rate of this state variable of the vakonomic equations.
    VakonomicRate(String),
    /// `H_{W_1}(x, p)`.
    VakonomicHamiltonian,
    /// The rate of this coordinate or momentum in the Hamiltonian form.
    VakonomicHamiltonRate(String),
    /// The vakonomic bracket `{f, g}` on `W_1`.
    VakonomicBracket(Expr, Expr),
    /// A constraint found by the constraint algorithm at this level (`None`: the SODE step).
    AlgorithmConstraint(Option<usize>),
    /// The level at which the constraint algorithm stabilised.
    AlgorithmLevel,
    /// The rate of this variable on the final constraint set of a singular Lagrangian.
    SingularRate(String),
    /// The rate of this coordinate of `TQ × ℝ` under `Γ_{L,Δ}`.
    ContactRate(String),
    /// `λ_a` of the constrained Herglotz equations.
    ContactMultiplier(usize),
    /// `E_L` of a contact system.
    ContactEnergy,
    /// `𝒫^μ_ν` for these coordinates of `TQ × ℝ`.
    ContactProjector(String, String),
    /// The nonholonomic bracket (100), our sign.
    ContactBracket(Expr, Expr),
    /// Its Jacobiator.
    ContactJacobiator(Expr, Expr, Expr),
    /// `H(q, p, z)` of the Hamiltonian side.
    ContactHamiltonian,
    /// The rate of this coordinate of `T*Q × ℝ`.
    ContactHamiltonRate(String),
}

impl Quantity {
    pub(super) fn on_frame(&self) -> bool {
        matches!(
            self,
            Quantity::FrameBracket(..)
                | Quantity::DiracHamiltonian
                | Quantity::DiracDependent(_)
                | Quantity::DiracRate(_)
                | Quantity::DiracBracket(..)
                | Quantity::DiracJacobiator(..)
                | Quantity::ProjectedBracket(..)
                | Quantity::ProjectedJacobiator(..)
                | Quantity::Curvature(..)
                | Quantity::SectionJacobiator(..)
        )
    }

    pub(super) fn on_dual(&self) -> bool {
        matches!(
            self,
            Quantity::Hamiltonian
                | Quantity::PhaseRate(_)
                | Quantity::DualConstraint(_)
                | Quantity::DualConstraintMatrix(..)
                | Quantity::DualMultiplier(_)
                | Quantity::Bracket(..)
                | Quantity::Jacobiator(..)
        )
    }
}

/// What the entry refers to, or E0402/E0403 when its key names nothing of this system.
pub(super) fn quantity(
    system: &System,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Quantity> {
    let kind = block.kind.name.as_str();
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
    if VAKONOMIC_KINDS.contains(&kind) == system.vakonomic.is_empty() {
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
            block.kind.span,
            "nothing to compare with",
        )
        .with_note(note)]);
    }
    if CONTACT_KINDS.contains(&kind) != system.action.is_some() {
        let message = if system.action.is_some() {
            format!("`expect {kind}` is not about a contact system, and this one is")
        } else {
            format!("`expect {kind}` needs a contact system (`action z`), and this one is not")
        };
        return Err(vec![Diagnostic::error("E0403", message, block.kind.span, "nothing to compare with")
            .with_note("a contact system has the kinds contact_equations, contact_multipliers, contact_energy, contact_projector, contact_bracket, contact_jacobiator")]);
    }
    match kind {
        "contact_equations" => {
            let key = single_key(entry, "`q' = …`, `q'' = …` or `z' = …`")?;
            let name = contact_rate_key(system, key).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a velocity or the action"),
                    "`q' = …`, `q'' = …` or `z' = …`",
                )
            })?;
            Ok(Quantity::ContactRate(name))
        }
        "contact_multipliers" => {
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::ContactMultiplier(multiplier_index(system, key)?))
        }
        "contact_energy" => named_key(entry, "E", "the energy E_L", Quantity::ContactEnergy),
        "contact_projector" => {
            let (a, b) = pair_key(entry, "`(X, Y)` with coordinates of TQ × ℝ (q, q', z)")?;
            let coordinate = |e: &Ast| -> syntax::Result<String> {
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
            Ok(Quantity::ContactProjector(coordinate(a)?, coordinate(b)?))
        }
        "contact_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Observable)?;
            Ok(Quantity::ContactBracket(f, g))
        }
        "contact_jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Observable)?;
            Ok(Quantity::ContactJacobiator(f, g, h))
        }
        "contact_hamiltonian" => {
            named_key(entry, "H", "the Hamiltonian", Quantity::ContactHamiltonian)
        }
        "contact_hamilton_equations" => {
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
            found.map(Quantity::ContactHamiltonRate).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a momentum or the action"),
                    "`q' = …`, `p' = …` or `z' = …`",
                )
            })
        }
        "constraint_algorithm" => {
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
                ("level", _) => Ok(Quantity::AlgorithmLevel),
                ("sode", _) => Ok(Quantity::AlgorithmConstraint(None)),
                (_, Some(k)) => Ok(Quantity::AlgorithmConstraint(Some(k))),
                _ => Err(bad_key(
                    key.span,
                    format!("`{key}` is not a step of the constraint algorithm"),
                    "`primary = φ`, `secondary = φ`, `tertiary = φ`, `levelN = φ`, `sode = φ` or `level = N`",
                )),
            }
        }
        "singular_equations" => {
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
            Ok(Quantity::SingularRate(name))
        }
        "vakonomic_equations" => {
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
            Ok(Quantity::VakonomicRate(name))
        }
        "vakonomic_hamiltonian" => named_key(
            entry,
            "H",
            "the Hamiltonian H_W1",
            Quantity::VakonomicHamiltonian,
        ),
        "vakonomic_hamilton_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum")?;
            let name = rate_key(system, key, false).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a momentum"),
                    "`x' = …` or `p1' = …`",
                )
            })?;
            Ok(Quantity::VakonomicHamiltonRate(name))
        }
        "vakonomic_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::VakonomicBracket(f, g))
        }
        "first_integrals" => match entry.key {
            Some(_) => Err(bad_key(
                key_span(entry),
                "first integrals are listed without keys",
                "one expression per line",
            )),
            None => Ok(Quantity::FirstIntegral),
        },
        "equations" | "free_equations" => {
            let key = single_key(entry, "`v' = …` for a state variable v")?;
            Ok(Quantity::Rate {
                state: state_index(system, key)?,
                free: kind == "free_equations",
            })
        }
        "multipliers" => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::Multiplier(multiplier_index(system, key)?))
        }
        "energy" => {
            let key = single_key(entry, "`E`")?;
            match &key.kind {
                ExprKind::Name(e) if e == "E" => Ok(Quantity::Energy),
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
                } if name.name == "E" => Ok(Quantity::EnergyRate),
                _ => Err(bad_key(
                    key.span,
                    "the energy rate is written `E'`",
                    "`E' = …`",
                )),
            }
        }
        "hessian" => {
            let (a, b) = pair_key(entry, "`(a, b)` with section names")?;
            Ok(Quantity::Hessian(
                section_index(system, a)?,
                section_index(system, b)?,
            ))
        }
        "constraint_matrix" => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Quantity::ConstraintMatrix(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        "theta" => {
            let key = single_key(entry, "`e0` or a section name")?;
            if matches!(&key.kind, ExprKind::Name(e) if e == "e0") {
                return Ok(Quantity::Theta(0));
            }
            Ok(Quantity::Theta(1 + section_index(system, key)?))
        }
        "omega" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            Ok(Quantity::Omega(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        "dpsi" => {
            let (a, x) = pair_key(
                entry,
                "`(a, X)` with a constraint number and X among T(e0), T(e), V(e)",
            )?;
            constrained()?;
            Ok(Quantity::Dpsi(
                constraint_index(system, a)?,
                basis_index(system, x)?,
            ))
        }
        "projector" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            constrained()?;
            Ok(Quantity::Projector(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        "hamiltonian" => named_key(entry, "H", "the Hamiltonian", Quantity::Hamiltonian),
        "legendre" => {
            let key = single_key(entry, "a momentum name")?;
            Ok(Quantity::Legendre(momentum_index(system, key)?))
        }
        "hamilton_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum v")?;
            Ok(Quantity::PhaseRate(phase_index(system, key)?))
        }
        "dual_constraints" => {
            constrained()?;
            let key = single_key(entry, "a constraint number")?;
            Ok(Quantity::DualConstraint(constraint_index(system, key)?))
        }
        "dual_constraint_matrix" => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Quantity::DualConstraintMatrix(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        "dual_multipliers" => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::DualMultiplier(multiplier_index(system, key)?))
        }
        "bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::Bracket(f, g))
        }
        "jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::Jacobiator(f, g, h))
        }
        "frame_bracket" | "dirac_bracket" | "projected_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Frame)?;
            Ok(match kind {
                "frame_bracket" => Quantity::FrameBracket(f, g),
                "dirac_bracket" => Quantity::DiracBracket(f, g),
                _ => Quantity::ProjectedBracket(f, g),
            })
        }
        "dirac_jacobiator" | "projected_jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Frame)?;
            Ok(if kind == "dirac_jacobiator" {
                Quantity::DiracJacobiator(f, g, h)
            } else {
                Quantity::ProjectedJacobiator(f, g, h)
            })
        }
        "dirac_hamiltonian" => named_key(entry, "H", "the Hamiltonian", Quantity::DiracHamiltonian),
        "dirac_constraints" => {
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
            found.map(Quantity::DiracDependent).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not a dependent momentum of the frame (one of a section completing C)"),
                    &names.join(", "),
                )
            })
        }
        "dirac_equations" => {
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
            found.map(Quantity::DiracRate).ok_or_else(|| {
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
        "noether" => {
            let key = single_key(entry, "the name of a `symmetry`")?;
            let found = match &key.kind {
                ExprKind::Name(n) => system.symmetries.iter().position(|s| s.name == *n),
                _ => None,
            };
            found.map(Quantity::NoetherIntegral).ok_or_else(|| {
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
        "curvature" => {
            let key = single_key(entry, "`K(a, b)` with frame momenta of sections of D")?;
            let args = call_key(key, "K", 2, "`K(a, b) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            distinct(key, &[a, b])?;
            Ok(Quantity::Curvature(a, b))
        }
        "section_jacobiator" => {
            let key = single_key(entry, "`J(a, b, c)` with frame momenta of sections of D")?;
            let args = call_key(key, "J", 3, "`J(a, b, c) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            let c = section_of_d(system, &args[2])?;
            distinct(key, &[a, b, c])?;
            Ok(Quantity::SectionJacobiator(a, b, c))
        }
        "induced_lagrangian" => named_key(
            entry,
            "l",
            "the restricted Lagrangian",
            Quantity::InducedLagrangian,
        ),
        "induced_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a velocity of D")?;
            let (frame, _) = frame_names(system, key)?;
            // Under `algebroid tangent` the velocity of q is q', so its rate is written q''.
            let tangent_velocity = |q: &str| model::names::tangent_velocity(q);
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
            found.map(Quantity::InducedRate).ok_or_else(|| {
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
        _ => unreachable!("kind {kind} is checked against KINDS first"),
    }
}

/// An entry whose key is the fixed name `name` (`H = …`, `l = …`).
pub(super) fn named_key(
    entry: &ExpectEntry,
    name: &str,
    what: &str,
    quantity: Quantity,
) -> syntax::Result<Quantity> {
    let key = single_key(entry, &format!("`{name}`"))?;
    match &key.kind {
        ExprKind::Name(e) if e == name => Ok(quantity),
        _ => Err(bad_key(
            key.span,
            format!("{what} is written `{name}`"),
            &format!("`{name} = …`"),
        )),
    }
}
