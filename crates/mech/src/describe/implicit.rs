//! The report of a system in implicit form ([IMMS07], §II.4 and §IV.1): `W ẏ + μᵀλ = b`,
//! `μ ẏ = β`, shown as derived (its expressions are large and not simplified further).

use report::{Audience, Quantity, Report, Section, Value};

use super::{assemble, choice, constraints, system_section};
use crate::derivation::ImplicitDerivation;

/// The report of an implicit-form derivation.
pub fn report(d: &ImplicitDerivation) -> Report {
    let system = &d.system;
    let form = &d.implicit;
    let mut lagrangian = Section::new("Lagrangian", None);
    lagrangian.quantity(super::lagrangian(system));
    let mut motion = Section::new("Equations of motion in implicit form", None);
    choice(&mut motion, &d.choice);
    let velocity = system.admissible_velocity();
    motion.quantity(
        Quantity::new(
            "equations",
            Value::rates(&system.coordinates, velocity.into_iter().skip(1)),
        )
        .verbatim()
        .about("Admissible curves:"),
    );
    motion.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.constraints, false),
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
        implicit.quantity(
            Quantity::new("forcing", Value::exprs(&form.forcing))
                .shown_as("b")
                .verbatim()
                .about("The forcing:"),
        );
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
    energy.quantity(
        Quantity::new("energy", Value::Expr(form.energy.clone()))
            .shown_as("E_L")
            .verbatim(),
    );
    energy.quantity(
        Quantity::new("energy_rate", Value::Missing)
            .for_only(Audience::Data)
            .about("No closed-form energy rate: the emitted `dynamics` computes it with the solved accelerations."),
    );
    let sections = vec![
        system_section(system, Some("implicit"), &system.state()),
        lagrangian,
        motion,
        energy,
        implicit,
    ];
    assemble(system, "Equations of motion in implicit form", sections)
}
