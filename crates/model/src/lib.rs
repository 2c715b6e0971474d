//! Name resolution and validation: a spec's syntax tree becomes a [`System`].
//!
//! A `System` is the mathematical content of a spec in the conventions of `docs/conventions.md`
//! ([IMMS07] §II.3): base coordinates `x^i` (time first), the affgebroid data
//! `ρ^i_0, ρ^i_α, C^γ_0α, C^γ_αβ`, the Lagrangian `L(t, x, y)`, the constraints
//! `Ψ^a(t, x, y) = 0` with their coefficients `μ^a_0, μ^a_α`, and the external forces `F_α`.
//! Every expression is a [`cas::Expr`] over the symbols of the system's symbol table
//! ([`symbols`]); the [`System`] spells each of them in the spec's syntax, in LaTeX and as an
//! identifier (it is the printers' [`cas::print::Names`]).
//!
//! Resolution checks what can be checked without deriving anything: every name is declared
//! once and used where it may be, expressions have the right arity, the algebroid satisfies its
//! structure equations (anchor homomorphism is required; a failure of Jacobi is allowed and
//! reported: the algebroid is then *skew*), constraints involve velocities and are independent,
//! and every `expect` block names a quantity of this system ([`expectation`]).
#![warn(missing_docs)]

mod algebroid;
mod discrete;
pub mod expectation;
pub mod frame;
pub mod group;
pub mod identifiers;
pub mod multibody;
pub mod names;
pub mod point;
mod resolve;
mod scope;
pub mod symbols;
mod system;

pub use discrete::{Discrete, Discretisation};
pub use expectation::{Entry, Expectation, Family, Kind, Target};
pub use resolve::resolve;
pub use scope::{NameKind, Scope, ScopeKind};
pub use system::{
    latex_symbol, Algebroid, AlgebroidKind, Constraint, ConstraintShape, GivenHamiltonian,
    StructureReport, Symmetry, System,
};
