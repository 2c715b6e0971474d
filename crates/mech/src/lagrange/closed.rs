//! [IMMS07] §II.4 and §IV: the closed-form Lagrange–d'Alembert equations of a system.
//!
//! The steps, each measured against the size budget of `Options` (E0501) before the next:
//!
//! 1. the Euler–Lagrange objects ([`lagrangian::derive`]: `p`, `W`, `det W`, the forcing `b`),
//!    refused with E0301 when `det W = 0` identically;
//! 2. `W⁻¹`, by a guarded elimination;
//! 3. the free accelerations `R_L^α = W^{αβ} b_β`;
//! 4. with constraints, the Lagrange–d'Alembert objects of §IV ([`nonholonomic::derive`]: `𝒞⁻¹`,
//!    the multipliers `λ`, the constrained accelerations, the projector `P`), refused with E0302
//!    when `det 𝒞 = 0` identically;
//! 5. the first-order system `ẋ^i = ρ^i_0 + ρ^i_α y^α`, `ẏ^α = …` in the order of
//!    `System::state`, and the energy balance `dE_L/dt` restricted to the constraint surface.
//!
//! The sides built on these equations (the Hamiltonian, Dirac and projected ones) are attached by
//! the closed route of the derivation, which owns the `Derivation` they are kept in.

use cas::Expr;
use diagnostic::Code;
use diagnostic::Diagnostic;
use model::System;

use super::lagrangian::{self, Lagrangian};
use super::nonholonomic::{self, Nonholonomic};
use crate::base::budget::{matrix_entries, vector_entries, Options};

/// One equation of the first-order system: `d(state)/dt = rhs`.
#[derive(Clone, Debug)]
pub struct Equation {
    /// The state variable (internal name).
    pub state: String,
    /// Its time derivative.
    pub rhs: Expr,
}

/// The closed-form Lagrange–d'Alembert equations of a system and the objects they are built from.
#[derive(Clone, Debug)]
pub struct Closed {
    /// `p, W, E_L, Θ_L, Ω_L` and the forcing of the Euler–Lagrange equations.
    pub lagrangian: Lagrangian,
    /// `W^{αβ}`.
    pub hessian_inverse: Vec<Vec<Expr>>,
    /// The unconstrained accelerations `R_L^α`.
    pub free_rhs: Vec<Expr>,
    /// The Lagrange–d'Alembert objects, when there are constraints.
    pub nonholonomic: Option<Nonholonomic>,
    /// The first-order system, in the order of [`System::state`].
    pub equations: Vec<Equation>,
    /// `dE_L/dt` along the dynamics, on the constraint surface.
    pub energy_rate: Expr,
}

/// The closed-form equations of `system` within the size budget of `options` (see the module
/// documentation). A contact or vakonomic system has none: E0290.
pub fn derive(system: &System, options: &Options) -> diagnostic::Result<Closed> {
    refuse_other_forms(system)?;
    let lagrangian = euler_lagrange(system, options)?;
    let hessian_inverse = invert_hessian(system, &lagrangian, options)?;
    let free_rhs = free_accelerations(system, &lagrangian, &hessian_inverse, options)?;
    let nonholonomic = constrained(system, &hessian_inverse, &free_rhs, options)?;
    let fibre = nonholonomic
        .as_ref()
        .map_or(free_rhs.clone(), |nh| nh.rhs.clone());
    let equations = first_order(system, &fibre);
    let energy_rate = energy_rate(system, &lagrangian, nonholonomic.as_ref());
    Ok(Closed {
        lagrangian,
        hessian_inverse,
        free_rhs,
        nonholonomic,
        equations,
        energy_rate,
    })
}

/// E0290 for the systems that have no closed Lagrange–d'Alembert form: a contact system and a
/// system with vakonomic constraints (`derive_with` gives each its own route).
fn refuse_other_forms(system: &System) -> diagnostic::Result<()> {
    if system.action.is_some() {
        return Err(vec![Diagnostic::error(
            Code::E0290,
            "the closed Lagrange–d'Alembert form of a contact system: not supported",
            system.lagrangian_span,
            "a Lagrangian with an action variable",
        )
        .with_note(
            "contact systems are derived by `derive_with` (`dalembert::compile_with`)",
        )]);
    }
    if let Some(first) = system.vakonomic.first() {
        return Err(vec![Diagnostic::error(
            Code::E0290,
            "the closed Lagrange–d'Alembert form of a vakonomic system: not supported",
            first.span,
            "a vakonomic constraint",
        )
        .with_note(
            "vakonomic systems are derived by `derive_with` (`dalembert::compile_with`)",
        )]);
    }
    Ok(())
}

/// The Euler–Lagrange objects within the budget; E0301 when `det W = 0` identically.
fn euler_lagrange(system: &System, options: &Options) -> diagnostic::Result<Lagrangian> {
    let lag = lagrangian::derive(system);
    options.within(
        "the Euler–Lagrange equations",
        system.lagrangian_span,
        matrix_entries("W", &lag.hessian)
            .chain(vector_entries("the forcing", &lag.forcing))
            .chain(std::iter::once(("det W".to_string(), &lag.hessian_det))),
    )?;
    if lag.hessian_det.is_zero() {
        return Err(vec![Diagnostic::error(
            Code::E0301,
            "the Lagrangian is singular: det W = 0 identically",
            system.lagrangian_span,
            "W = ∂²L/∂y∂y is not invertible for this Lagrangian",
        )
        .with_note(format!(
            "W = [{}]",
            lag.hessian
                .iter()
                .map(|row| row
                    .iter()
                    .map(|e| cas::print::spec(e, &system))
                    .collect::<Vec<_>>()
                    .join(", "))
                .collect::<Vec<_>>()
                .join("; ")
        ))
        .with_help(
            "the constraint algorithm ([IMMS08] §4) runs on singular Lagrangians without constraints; with nonholonomic constraints it is not supported yet",
        )]);
    }
    Ok(lag)
}

/// `W⁻¹` by an elimination guarded entry by entry, within the budget.
fn invert_hessian(
    system: &System,
    lag: &Lagrangian,
    options: &Options,
) -> diagnostic::Result<Vec<Vec<Expr>>> {
    let w_inv =
        cas::inverse_guarded(&lag.hessian, &mut |e: &Expr| options.allows(e)).map_err(|halt| {
            match halt {
                cas::Halted::Singular(_) => vec![Diagnostic::error(
                    Code::E0301,
                    "the Lagrangian is singular: W could not be inverted",
                    system.lagrangian_span,
                    "W = ∂²L/∂y∂y",
                )],
                cas::Halted::Refused(entry) => options.refused(
                    "W⁻¹",
                    system.lagrangian_span,
                    "the elimination of W",
                    &entry,
                    "raise --max-terms, or use --solve numeric (the implicit form inverts nothing)",
                ),
            }
        })?;
    options.within("W⁻¹", system.lagrangian_span, matrix_entries("W⁻¹", &w_inv))?;
    Ok(w_inv)
}

/// The unconstrained accelerations `R_L^α = W^{αβ} b_β`, within the budget.
fn free_accelerations(
    system: &System,
    lag: &Lagrangian,
    w_inv: &[Vec<Expr>],
    options: &Options,
) -> diagnostic::Result<Vec<Expr>> {
    let n = system.rank();
    let free_rhs: Vec<Expr> = (0..n)
        .map(|a| {
            (0..n)
                .fold(Expr::zero(), |acc, b| {
                    acc + w_inv[a][b].clone() * lag.forcing[b].clone()
                })
                .simplify()
        })
        .collect();
    options.within(
        "the free accelerations",
        system.lagrangian_span,
        vector_entries("R_L", &free_rhs),
    )?;
    Ok(free_rhs)
}

/// The Lagrange–d'Alembert objects of §IV when there are constraints, within the budget; E0302
/// when `𝒞` is singular identically.
fn constrained(
    system: &System,
    w_inv: &[Vec<Expr>],
    free_rhs: &[Expr],
    options: &Options,
) -> diagnostic::Result<Option<Nonholonomic>> {
    if system.constraints.is_empty() {
        return Ok(None);
    }
    let allows = |e: &Expr| options.allows(e);
    let largest = options.closed_form_terms;
    let nh = match nonholonomic::derive(system, w_inv, free_rhs, &allows, largest) {
        Ok(nh) => nh,
        Err(nonholonomic::Stopped::Oversized { object }) => {
            let span = constraints_span(system);
            return Err(vec![crate::base::budget::closed_form_oversized(
                object, span,
            )]);
        }
        Err(nonholonomic::Stopped::Refused { object, entry }) => {
            return Err(options.refused(
                "the constrained dynamics",
                constraints_span(system),
                object,
                &entry,
                "raise --max-terms, or use --solve numeric (the implicit form inverts nothing)",
            ));
        }
        Err(nonholonomic::Stopped::Irregular(irregular)) => {
            let span = constraints_span(system);
            return Err(vec![Diagnostic::error(
                Code::E0302,
                "the constrained system is not regular: det 𝒞 = 0 identically",
                span,
                "𝒞^{ab} = −W^{αβ} μ^a_α μ^b_β is singular for these constraints",
            )
            .with_note(format!(
                "det 𝒞 = {}",
                cas::print::spec(&irregular.det, &system)
            ))]);
        }
    };
    options.within(
        "the constrained dynamics",
        constraints_span(system),
        matrix_entries("𝒞⁻¹", &nh.inverse)
            .chain(vector_entries("λ", &nh.multipliers))
            .chain(vector_entries("the constrained acceleration", &nh.rhs))
            .chain(matrix_entries("P", &nh.projector)),
    )?;
    Ok(Some(nh))
}

/// The span of the constraint blocks (or of the Lagrangian when there are none).
fn constraints_span(system: &System) -> diagnostic::Span {
    match (system.constraints.first(), system.constraints.last()) {
        (Some(first), Some(last)) => first.span.join(last.span),
        _ => system.lagrangian_span,
    }
}

/// The first-order system: `ẋ^i` from the admissible velocity, `ẏ^α` from `fibre`.
fn first_order(system: &System, fibre: &[Expr]) -> Vec<Equation> {
    let velocity = system.admissible_velocity();
    let mut equations: Vec<Equation> = system
        .keys(&system.coordinates)
        .iter()
        .enumerate()
        .map(|(i, q)| Equation {
            state: q.clone(),
            rhs: velocity[i + 1].clone(),
        })
        .collect();
    equations.extend(
        system
            .algebroid
            .velocities
            .iter()
            .zip(fibre)
            .map(|(y, rhs)| Equation {
                state: system.key(*y),
                rhs: rhs.clone(),
            }),
    );
    equations
}

/// `dE_L/dt` along the dynamics, on the constraint surface (velocities eliminated as in
/// `base::surface::Surface`).
fn energy_rate(system: &System, lag: &Lagrangian, nh: Option<&Nonholonomic>) -> Expr {
    let surface = crate::base::surface::Surface::new(system);
    // The energy balance (derived here, not in [IMMS07]) gives dE_L/dt without differentiating
    // the swelling accelerations; the golden tests prove it equal to dE_L/dt along the motion.
    let multipliers = nh.map_or(&[][..], |nh| nh.multipliers.as_slice());
    surface.restrict_shown(&nonholonomic::energy_balance(system, lag, multipliers))
}
