//! The report of a system in implicit form ([IMMS07], §II.4 and §IV.1): `W ẏ + μᵀλ = b`,
//! `μ ẏ = β`, shown as derived (its expressions are large and not simplified further).
//!
//! A large mechanical system (`L = ½ W_αβ(x) y^α y^β − V(x)` on a time-independent algebroid,
//! more than [`STRUCTURED_NODES`] nodes in its Lagrangian, forcing and energy) is shown as a
//! paper shows it: `W` entry by entry and the potential `V`, with the Lagrangian, the energy and
//! the forcing written through them (`b_α = F_α − ρ_α(V) − Γ_αβγ y^β y^γ`, `Γ` the Christoffel
//! symbols of `W` on the algebroid); the JSON keeps every expression explicit.

use cas::Expr;
use report::{Audience, Key, Quantity, Report, Section, Value};

use super::{assemble, choice, constraints, system_section, Bias};
use crate::derivation::ImplicitDerivation;

/// The size (tree nodes of the Lagrangian as written, the forcing and the energy together) above
/// which a mechanical system's document shows them through `W` and `V`: the smaller implicit
/// goldens (a four-bar linkage, a cart with pendulums) stay explicit, a spatial arm or a chain of
/// spherical joints (hundreds of thousands of nodes, pages of one equation) do not.
pub const STRUCTURED_NODES: usize = 20_000;

/// The potential of a mechanical system shown in structured form.
pub struct Mechanical {
    /// `V(x)`, so that `L = ½ W_αβ y^α y^β − V`.
    pub potential: Expr,
    /// `ρ_α(V) = ρ^i_α ∂V/∂x^i`, one per section.
    pub potential_forces: Vec<Expr>,
}

/// The structured form of `d`, when its document shows one (see the module documentation): it
/// is large (more than [`STRUCTURED_NODES`]) and [`mechanical_form`] applies.
fn mechanical(d: &ImplicitDerivation) -> Option<Mechanical> {
    let form = &d.implicit;
    let size = d
        .system
        .lagrangian_terms
        .iter()
        .map(Expr::size)
        .sum::<usize>()
        + form.forcing.iter().map(Expr::size).sum::<usize>()
        + form.energy.size();
    (size > STRUCTURED_NODES)
        .then(|| mechanical_form(d))
        .flatten()
}

/// The potential of `d` when its forcing is `b_α = F_α − ρ_α(V) − Γ_αβγ y^β y^γ` (see the
/// module documentation): `W` is in the form (not left to recursions), `L` has no terms linear
/// in the velocities, and the affgebroid's `ρ_0` and `C_0α` do not enter the forcing.
pub fn mechanical_form(d: &ImplicitDerivation) -> Option<Mechanical> {
    let system = &d.system;
    let form = &d.implicit;
    if !form.bindings.is_empty() {
        return None;
    }
    let alg = &system.algebroid;
    let anchor = |a: usize, f: &Expr| crate::base::algebra::anchor_apply(system, a, f);
    if alg.c0.iter().flatten().any(|c| !c.is_zero())
        || form.mass.iter().flatten().any(|w| !anchor(0, w).is_zero())
    {
        return None;
    }
    let quadratic = system
        .lagrangian
        .quadratic_form(&system.keys(&alg.velocities))?;
    if quadratic.linear.iter().any(|l| !l.is_zero()) {
        return None;
    }
    let potential = (-quadratic.constant).simplify();
    let potential_forces = (1..=alg.sections.len())
        .map(|a| anchor(a, &potential).simplify())
        .collect();
    Some(Mechanical {
        potential,
        potential_forces,
    })
}

/// The report of an implicit-form derivation.
pub fn report(d: &ImplicitDerivation) -> Report {
    let system = &d.system;
    let form = &d.implicit;
    let structured = mechanical(d);
    let mut lagrangian = Section::new("Lagrangian", None);
    match &structured {
        Some(m) => {
            lagrangian.quantity(super::lagrangian(system).for_only(Audience::Data));
            lagrangian.prose("The Lagrangian is $L = \\tfrac12 W_{\\alpha\\beta}(x)\\, y^\\alpha y^\\beta - V(x)$, with the mass matrix $W$ below and the potential");
            lagrangian.quantity(
                Quantity::new("potential", Value::Expr(m.potential.clone()))
                    .shown_as("V")
                    .for_only(Audience::Display),
            );
        }
        None => {
            lagrangian.quantity(super::lagrangian(system));
        }
    }
    let mut motion = Section::new("Equations of motion in implicit form", None);
    choice(&mut motion, &d.choice);
    let velocity = system.admissible_velocity();
    motion.quantity(
        Quantity::new(
            "equations",
            Value::rates(
                &system.keys(&system.coordinates),
                velocity.into_iter().skip(1),
            ),
        )
        .verbatim()
        .about("Admissible curves:"),
    );
    motion.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.constraints, Bias::Omitted),
        )
        .verbatim()
        .for_only(Audience::Data),
    );
    motion.quantity(
        Quantity::new(
            "multipliers",
            Value::multipliers(system.constraints.iter().map(|_| Value::Missing)),
        )
        .for_only(Audience::Data),
    );
    motion.prose("The accelerations $\\dot y$ and multipliers $\\lambda$ solve [IMMS07, \\S II.4 and \\S IV.1] $W_{\\alpha\\beta}\\, \\dot y^\\beta + \\lambda_a \\mu^a_\\alpha = b_\\alpha$, $\\mu^a_\\alpha\\, \\dot y^\\alpha = \\beta^a$, with $b_\\alpha = F_\\alpha + \\rho^i_\\alpha \\partial_i L - (\\rho_0 + y^\\gamma \\rho_\\gamma)(p_\\alpha) + (C^\\gamma_{0\\alpha} + y^\\mu C^\\gamma_{\\mu\\alpha})\\, p_\\gamma$ and $\\beta^a = -(\\rho_0 + y^\\gamma \\rho_\\gamma)(\\Psi^a)$.");
    let mut implicit = Section::new("The implicit form", Some("implicit"));
    if form.bindings.is_empty() {
        implicit.quantity(
            Quantity::new("mass", Value::Matrix(form.mass.clone()))
                .shown_as("W")
                .verbatim()
                .sparse()
                .about("The mass matrix (entries not listed vanish):"),
        );
        let forcing = Quantity::new("forcing", Value::exprs(&form.forcing))
            .shown_as("b")
            .verbatim();
        match &structured {
            Some(m) => {
                implicit.quantity(forcing.for_only(Audience::Data));
                implicit.prose("The forcing is $b_\\alpha = F_\\alpha - \\rho_\\alpha(V) - \\Gamma_{\\alpha\\beta\\gamma}\\, y^\\beta y^\\gamma$, with the forces $F_\\alpha$ of the spec, $\\rho_\\alpha(V) = \\rho^i_\\alpha\\, \\partial V/\\partial x^i$, and the Christoffel symbols of $W$ on the algebroid, $\\Gamma_{\\alpha\\beta\\gamma} = \\tfrac12 \\bigl(\\rho_\\beta(W_{\\alpha\\gamma}) + \\rho_\\gamma(W_{\\alpha\\beta}) - \\rho_\\alpha(W_{\\beta\\gamma})\\bigr) - \\tfrac12 \\bigl(C^\\delta_{\\beta\\alpha} W_{\\delta\\gamma} + C^\\delta_{\\gamma\\alpha} W_{\\delta\\beta}\\bigr)$ (on a tangent bundle, where $C = 0$ and $\\rho_\\alpha = \\partial/\\partial x^\\alpha$, those of the first kind). The forces of the potential are");
                implicit.quantity(
                    Quantity::new("potential_forces", Value::exprs(&m.potential_forces))
                        .shown_as("\\rho_{#}(V)")
                        .for_only(Audience::Display),
                );
                if let Some(forces) = forces_shown(d) {
                    implicit.quantity(forces);
                }
            }
            None => {
                implicit.quantity(forcing.about("The forcing:"));
            }
        }
    } else {
        implicit.prose(format!("$W$ and $b$ are computed by recursions over the tree of joints, as a straight-line program of {} steps: $W$ by the composite-rigid-body algorithm and $b = F - C(x, y)$, the forces of the spec less the Coriolis, centrifugal and gravity forces, by the recursive Newton--Euler algorithm at zero acceleration [Featherstone, \\emph{{Rigid Body Dynamics Algorithms}}, Springer 2008, \\S 6.2 and \\S 5.3]. They equal $\\partial^2 L/\\partial y \\partial y$ and the forcing of the Lagrangian above, whose expansion they avoid.", form.bindings.len()));
        implicit.quantity(
            Quantity::new("mass", Value::Missing)
                .for_only(Audience::Data)
                .about("Computed by the composite-rigid-body algorithm (the emitted `implicit`), not expanded."),
        );
        implicit.quantity(
            Quantity::new("forcing", Value::Missing)
                .for_only(Audience::Data)
                .about("Computed by the recursive Newton-Euler algorithm (the emitted `implicit`), not expanded."),
        );
    }
    implicit.quantity(
        Quantity::new("constraint_jacobian", Value::Matrix(form.jacobian.clone()))
            .verbatim()
            .for_only(Audience::Data),
    );
    if !system.constraints.is_empty() {
        implicit.quantity(
            super::constraint_display(&system.constraints, "Psi")
                .verbatim()
                .about("The constraints ($\\Psi^a = 0$)"),
        );
        if let Some(q) = super::holonomic_display(system) {
            implicit.quantity(q);
        }
    }
    implicit.quantity(
        Quantity::new("bias", Value::exprs(&form.bias))
            .shown_as("\\beta^{#}")
            .verbatim()
            .about("and their biases:"),
    );
    let mut energy = Section::new("Energy", None);
    let large = form.energy.size() > SIMPLIFIED_ENERGY_NODES;
    let shown = match large {
        true => form
            .energy
            .grouped_in(&system.keys(&system.algebroid.velocities)),
        false => form.energy.get().clone(),
    };
    let mut energy_value = Quantity::new("energy", Value::Expr(shown)).shown_as("E_L");
    if large {
        energy_value = energy_value.verbatim();
    }
    if structured.is_some() {
        energy.quantity(energy_value.for_only(Audience::Data));
        energy.prose(
            "The energy is $E_L = \\tfrac12 W_{\\alpha\\beta}(x)\\, y^\\alpha y^\\beta + V(x)$.",
        );
    } else {
        energy.quantity(energy_value);
    }
    energy.quantity(
        Quantity::new("energy_rate", Value::Missing)
            .for_only(Audience::Data)
            .about("No closed-form energy rate: the emitted `dynamics` computes it with the solved accelerations."),
    );
    let sections = vec![
        system_section(system, Some("implicit"), &system.keys(&system.state())),
        lagrangian,
        motion,
        energy,
        implicit,
    ];
    assemble(system, "Equations of motion in implicit form", sections)
}

/// The largest energy (in expression nodes) that the documents show simplified; a larger one is
/// shown grouped by the velocities ([`cas::Expr::grouped_in`]: one normalisation per
/// coefficient), since its whole simplification would cost more than the derivation. Measured on
/// the flat `n`-link chain of the benchmark ([`cas::Expr::simplest`] of its energy, release
/// build): 420 nodes in 4.5 ms at `n = 5` (its derivation takes about 4 ms), 794 in 11 ms at
/// `n = 7`, 1,030 in 17 ms at `n = 8` and 1,605 in 34 ms at `n = 10`, where the derivation takes
/// 6 ms and the whole run with the default outputs 90 ms (33 ms with the energy grouped); the
/// five-link chain of joints' 1,708 nodes in 39 ms (its run 101 ms, then 35 ms). The
/// shipped examples' energies are at most 420 nodes or at least 2,483 (the 6-joint arm), so
/// none of them is shown differently for it.
pub const SIMPLIFIED_ENERGY_NODES: usize = 1000;

/// The non-zero forces `F_α` of the spec, for the structured forcing (none: `None`).
fn forces_shown(d: &ImplicitDerivation) -> Option<Quantity> {
    let entries: Vec<(Key, Value)> = d
        .system
        .forces
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.is_zero())
        .map(|(a, f)| {
            (
                Key::Word {
                    json: format!("F{}", a + 1),
                    tex: format!("F_{{{}}}", a + 1),
                },
                Value::Expr(f.clone()),
            )
        })
        .collect();
    (!entries.is_empty()).then(|| {
        Quantity::new("forces_shown", Value::Table(entries))
            .for_only(Audience::Display)
            .about("and the forces of the spec that do not vanish are")
    })
}
