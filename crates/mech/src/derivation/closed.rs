//! The closed route: every object of [IMMS07] §II–§IV that applies to a system, in one
//! `Derivation`.
//!
//! The closed-form Lagrange–d'Alembert equations come from `lagrange::closed` ([IMMS07] §II.4,
//! §IV); the sides built on them are attached here, in this order, each measured against the
//! budget of `Options`: the Hamiltonian side ([IMMS07] §II.5–§II.6, §V), checked against a
//! Hamiltonian the spec gives (E0291); the Dirac structure of the constraints and the Dirac side
//! ([GBMS24] §3); and the projected structure on `D` ([GLMM09] §4–§5), which the induced method
//! leads with. A side that does not apply is kept as the reason why not.

use cas::Expr;
use diagnostic::Code;
use model::System;

use crate::base::budget::{vector_entries, Options};
use crate::base::route::{Choice, Method};
use crate::hamilton::dirac::{self, Dirac};
use crate::hamilton::hamiltonian::{self, Hamiltonian, Unavailable};
use crate::hamilton::projected;
use crate::lagrange::closed::{Closed, Equation};
use crate::lagrange::lagrangian::{Lagrangian, Regular};
use crate::lagrange::nonholonomic::Nonholonomic;

/// Everything derived from a [`System`].
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The system, as resolved.
    pub system: System,
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
    /// `dE_L/dt` along the dynamics, on the constraint surface (velocities eliminated as in
    /// [`crate::base::surface::Surface`]).
    pub energy_rate: Expr,
    /// The Hamiltonian side ([IMMS07] §II.5–§II.6, §V), or why it is not available.
    pub hamiltonian: Result<Hamiltonian, Unavailable>,
    /// The Dirac structure `𝒟_C` of the constraints in their adapted frame ([GBMS24] §3), which
    /// needs no Hamiltonian, or why there is none.
    pub dirac_structure: Result<dirac::Structure, dirac::Unavailable>,
    /// The Dirac side ([GBMS24] §3), when the constraints are linear on a Lie algebroid and the
    /// Hamiltonian side exists.
    pub dirac: Result<Dirac, dirac::Unavailable>,
    /// The projected structure on `D` ([GLMM09] §4–§5), for mechanical Lagrangians.
    pub projected: Result<projected::Projected, projected::Unavailable>,
    /// Which equations the outputs lead with ([`Derivation::state`], [`Derivation::rates`]).
    pub method: Method,
    /// Why the closed form ([`crate::base::route`]).
    pub choice: Choice,
    /// The discrete equations of the spec's `discrete` item ([`crate::discrete`]).
    pub discrete: Option<crate::discrete::DiscreteEquations>,
}

impl Derivation {
    /// The system and its Lagrangian's closed-form objects, which the Hamiltonian and projected
    /// sides are built from.
    pub fn regular(&self) -> Regular<'_> {
        Regular {
            system: &self.system,
            lagrangian: &self.lagrangian,
            hessian_inverse: &self.hessian_inverse,
        }
    }

    /// The fibre components of the dynamics (constrained if there are constraints).
    pub fn fibre_rhs(&self) -> &[Expr] {
        match &self.nonholonomic {
            Some(nh) => &nh.rhs,
            None => &self.free_rhs,
        }
    }

    /// The induced route, when it is the method.
    fn induced(&self) -> Option<&projected::Induced> {
        match (self.method, &self.projected) {
            (Method::Induced, Ok(p)) => Some(&p.induced),
            _ => None,
        }
    }

    /// The state of the method's equations: `(x, y)` ([`System::state`]) or, for the induced
    /// method, `(x, v)`.
    pub fn state(&self) -> Vec<String> {
        match self.induced() {
            Some(induced) => induced.state.clone(),
            None => self.system.keys(&self.system.state()),
        }
    }

    /// The method's equations: the rate of each entry of [`Derivation::state`].
    pub fn rates(&self) -> Vec<Expr> {
        match self.induced() {
            Some(induced) => induced.rates.clone(),
            None => self.equations.iter().map(|e| e.rhs.clone()).collect(),
        }
    }

    /// A function of `(x, y)` as a function of the method's state: for the induced method, on
    /// `D` (`y = v^a X_a`).
    pub fn on_state(&self, e: &Expr) -> Expr {
        match self.induced() {
            Some(induced) => e.subs(&induced.on_d).simplify(),
            None => e.clone(),
        }
    }

    /// The energy on the method's state: `E_L`, or for the induced method `E_l`.
    pub fn energy(&self) -> Expr {
        match self.induced() {
            Some(induced) => induced.energy.clone(),
            None => self.lagrangian.energy.clone(),
        }
    }

    /// The multipliers (empty without constraints).
    pub fn multipliers(&self) -> &[Expr] {
        self.nonholonomic
            .as_ref()
            .map_or(&[], |nh| nh.multipliers.as_slice())
    }
}

/// Derives everything [IMMS07] says about `system` (within the default size budget).
pub fn derive(system: &System) -> diagnostic::Result<Derivation> {
    derive_within(system, &Options::default())
}

/// [`derive`] within the size budget of `options` (its route is ignored: this is the closed
/// form). A system with vakonomic constraints has no closed Lagrange–d'Alembert form: E0290
/// sends it to `derive_with`.
pub fn derive_within(system: &System, options: &Options) -> diagnostic::Result<Derivation> {
    let Closed {
        lagrangian,
        hessian_inverse,
        free_rhs,
        nonholonomic,
        equations,
        energy_rate,
    } = timing::timed("Lagrange-d'Alembert", || {
        crate::lagrange::closed::derive(system, options)
    })?;
    let mut derivation = Derivation {
        system: system.clone(),
        lagrangian,
        hessian_inverse,
        free_rhs,
        nonholonomic,
        equations,
        energy_rate,
        hamiltonian: Err(Unavailable::NotQuadratic),
        dirac_structure: Err(dirac::Unavailable::NotLinear),
        dirac: Err(dirac::Unavailable::NotLinear),
        projected: Err(projected::Unavailable::NotMechanical),
        method: Method::Multipliers,
        choice: Choice::closed_requested(),
        discrete: None,
    };
    timing::timed("Hamiltonian side", || {
        hamiltonian_side(&mut derivation, options)
    })?;
    check_given_hamiltonian(&derivation)?;
    timing::timed("Dirac side", || dirac_side(&mut derivation, options))?;
    timing::timed("projected side", || {
        projected_side(&mut derivation, options)
    })?;
    Ok(derivation)
}

/// The Hamiltonian side ([IMMS07] §II.5–§II.6, §V), unless `W⁻¹` is too large for its bracket
/// table; E0501 or E0503 when it passes the budget.
fn hamiltonian_side(derivation: &mut Derivation, options: &Options) -> diagnostic::Result<()> {
    // The bracket table and its Jacobiators compose brackets of W⁻¹-weighted terms: when W⁻¹
    // is large (a dense W depending on the configuration) they swell far beyond it.
    let inverse_size: usize = derivation
        .hessian_inverse
        .iter()
        .flatten()
        .map(Expr::size)
        .sum();
    derivation.hamiltonian = if inverse_size > hamiltonian::MAX_INVERSE_SIZE {
        Err(Unavailable::Large(inverse_size))
    } else {
        hamiltonian::derive(
            derivation.regular(),
            &|e| options.allows(e),
            options.closed_form_terms,
        )
    };
    let span = derivation.system.lagrangian_span;
    if let Err(Unavailable::Oversized { object }) = &derivation.hamiltonian {
        return Err(vec![crate::base::budget::closed_form_oversized(
            object, span,
        )]);
    }
    // A table stopped by the deadline is E0503, not an unavailable side.
    options.within("the Hamiltonian side", span, [])?;
    if let Ok(h) = &derivation.hamiltonian {
        options.within(
            "the Hamiltonian side",
            span,
            std::iter::once(("H".to_string(), &h.hamiltonian))
                .chain(vector_entries("the Hamilton equations", &h.free_rates))
                .chain(h.table.iter().map(|(i, j, e)| {
                    (
                        format!("{{{}, {}}}", h.coordinates[*i], h.coordinates[*j]),
                        e,
                    )
                })),
        )?;
    }
    Ok(())
}

/// The Dirac structure of the constraints and, when the Hamiltonian side exists, the Dirac side
/// ([GBMS24] §3), which measures each of its entries (`dirac::derive`).
fn dirac_side(derivation: &mut Derivation, options: &Options) -> diagnostic::Result<()> {
    derivation.dirac_structure = dirac::structure(&derivation.system);
    derivation.dirac = match &derivation.hamiltonian {
        Ok(h) => dirac::derive(&derivation.system, &derivation.dirac_structure, h, options)?,
        Err(why) => Err(dirac::Unavailable::NoHamiltonian(why.to_string())),
    };
    Ok(())
}

/// The projected structure on `D` ([GLMM09] §4–§5), for mechanical Lagrangians; E0501 or E0503
/// when it passes the budget.
fn projected_side(derivation: &mut Derivation, options: &Options) -> diagnostic::Result<()> {
    derivation.projected = projected::derive(derivation.regular(), &|e| options.allows(e));
    let span = derivation.system.lagrangian_span;
    // A structure stopped by the deadline is E0503, not an unavailable side.
    options.within("the projected structure on D", span, [])?;
    if let Ok(projected) = &derivation.projected {
        options.within(
            "the projected structure on D",
            span,
            vector_entries("its equations", &projected.rates),
        )?;
    }
    Ok(())
}

/// A Hamiltonian written besides the Lagrangian must be its Legendre transform (E0291); one given
/// alone was turned into the Lagrangian, and the same comparison then checks the round trip.
fn check_given_hamiltonian(d: &Derivation) -> diagnostic::Result<()> {
    let system = &d.system;
    let Some(given) = &system.hamiltonian else {
        return Ok(());
    };
    let note = match &d.hamiltonian {
        Ok(h) => {
            let difference = (h.hamiltonian.clone() - given.expr.clone()).simplify();
            if difference.is_zero() {
                return Ok(());
            }
            format!(
                "the Legendre transform of the Lagrangian is H_L = {}, and H_L − H = {}",
                cas::print::spec(&h.hamiltonian, &system),
                cas::print::spec(&difference, &system)
            )
        }
        Err(why) => format!("the Legendre transform of the Lagrangian is not available: {why}"),
    };
    Err(vec![diagnostic::Diagnostic::error(
        Code::E0291,
        "the Hamiltonian is not the Legendre transform of the Lagrangian",
        given.span,
        "this Hamiltonian",
    )
    .with_note(note)])
}
