//! # The result IR
//!
//! A derivation in `mech` is a web of formalism-specific structures: a Lagrange–d'Alembert
//! derivation holds its constraint matrix and projector, a contact one its Herglotz field, a
//! singular one the steps of its constraint algorithm. The outputs must not know that web. This
//! crate is what they read instead: each formalism *lowers* into it once (`mech::lower`), and
//! every backend is written once over it.
//!
//! The IR depends on `cas` (expressions) and nothing else: not on `syntax`, not on `model`, not
//! on `mech`. Expressions name their symbols by the internal names of `model` (`x__v` for the
//! velocity of `x`); how a name is printed is the printer's business.
//!
//! ## The primary flow
//!
//! Every route ends in one first-order system `ẋ = f(t, x, p, u)` on its own ordered state:
//! the coordinates and velocities of a Lagrange–d'Alembert system, the free velocities and
//! momenta of a vakonomic one, the phase variables that survive a constraint algorithm, the
//! action `z` of a contact system. A [`Flow`] promises:
//!
//! - `state` and `rates` have the same length, and `rates[i]` is `d state[i]/dt` along the
//!   motion, either in closed form ([`Rates::Closed`]) or as the solution of an implicit
//!   (mass-matrix) form solved at run time ([`Rates::Solved`]);
//! - every [`Output`] (multipliers, constraint residuals, the energy and its rate) is a function
//!   of the same state, so that code generation evaluates them in the same program;
//! - the energy rate is the derivative of the energy along the flow (or the balance law the
//!   routes prove equal to it), never re-derived by a backend;
//! - a [`Companion`] is a second first-order system on its own state (the Hamiltonian side),
//!   integrated beside the primary one;
//! - a [`DiscreteStep`] is one step of a variational integrator of the flow, when the spec asks
//!   for its discrete equations: three functions of its own states and the iteration around
//!   them.
//!
//! Code generation consumes exactly this: it makes `rhs` from the rates, `dynamics` from the
//! rates and the outputs, `rhs_jacobian` where the rates are closed, one function per companion,
//! and `implicit` from the implicit form when the flow offers it. It never asks which formalism
//! the flow came from.
#![warn(missing_docs)]

mod document;
mod flow;
mod linear;
mod lookup;
mod reduction;

pub use document::{
    Audience, Block, Form, FormCoefficients, Key, Quantity, Reference, Report, Section, Shown,
    Value,
};

pub use flow::on_read;
pub use flow::{
    Band, Companion, ConstraintSet, Correction, DiscreteStep, Flow, ImplicitForm, OnRead, Output,
    Rates, Solved,
};
pub use linear::{
    decimal, decimal_latex, Arithmetic, Complex, Linearization, Matrix, DECIMAL_DIGITS,
};
pub use lookup::At;
pub use reduction::{Connection, MomentumEquation, Reduction, Routh};
