//! The symbolic kernel of dalembert: the only crate that names Symbolica types.
//!
//! # What an [`Expr`] is
//!
//! An `Expr` is an exact expression over named symbols (coordinates, velocities, parameters,
//! functions of time and their derivatives, all flattened to plain symbols by `model`), rational
//! numbers, `+ − × ÷`, powers, and the functions `sin cos tan exp log sqrt`. It wraps a Symbolica
//! atom, which keeps every expression in Symbolica's *automatic* normal form: sums and products
//! flattened and sorted, like terms and numbers collected. That form is structural, not
//! canonical: `(x + 1)^2` and `x^2 + 2x + 1` are different atoms.
//!
//! # What simplification promises
//!
//! [`Expr::simplify`] returns the *rational normal form* of an expression: one fraction, numerator
//! and denominator expanded and free of common factors, in which every `cos(a)^2` has been
//! replaced by `1 − sin(a)^2` (or every `sin(a)^2` by `1 − cos(a)^2`, whichever form is smaller),
//! `tan` written as `sin/cos`. Two expressions that are equal as rational functions of their
//! symbols, `sin` and `cos` (modulo `sin² + cos² = 1` for each argument), have equal simplified
//! numerators up to a constant factor, so [`Expr::is_zero`] is an exact zero test for that class.
//! Radicals `b^(n/q)` (`sqrt` among them) are treated as powers of a symbol `r = b^(1/q)` with
//! `r^q = b` used in numerators and denominators (for a polynomial `b`), so `(√x + 1)(√x − 1)`
//! simplifies to `x − 1`; the denominator is not rationalised, and relations between different
//! radicals (`√(4x) = 2√x`) are not used. Other functions (`exp`, `log`) are treated as
//! independent symbols: identities between them are not used.
//!
//! # Programs
//!
//! [`program::Program`] turns expressions into straight-line programs for emitted code (exact
//! operation counts, common subexpressions shared across outputs, forward differentiation), and
//! [`egraph`] shrinks them by equality saturation with egg.
//!
//! # Structure of mechanical Lagrangians
//!
//! [`Expr::quadratic_form`] reads the coefficients of a polynomial of degree two in the velocities
//! off one expansion, and [`Expr::separated`] factors a coefficient as (configuration part) ×
//! (parameter part): together they give the mass matrix of a large system without a symbolic
//! factorisation per entry (see `mech::lagrange::implicit`).
//!
//! # Threads
//!
//! Without a licence key Symbolica allows one thread per user; every function of this crate must
//! be called from one thread only.
#![warn(missing_docs)]

mod deferred;
pub mod egraph;
mod expanded;
mod expr;
mod hash;
mod ideal;
mod linalg;
pub mod logging;
mod number;
mod numeric;
mod polynomial;
pub mod print;
pub mod program;
mod quadratic;
mod remember;
mod separate;
mod simplest;
mod simplify;
mod squares;
mod trig;
mod view;
pub mod work;

pub use deferred::Deferred;
pub use expr::{Expr, Func};

/// The name of the symbol π (Symbolica's constant; the spec language's `pi` reads as it). Exact
/// expressions keep it; programs ([`program::Program`]) compute it as the double nearest π.
pub const PI_NAME: &str = "𝜋";
pub use ideal::{Budget, Ideal, Refused};
pub use linalg::{
    det, first_dependent_row, first_dependent_row_bound, inverse, inverse_guarded, rank, solve,
    solve_guarded, ExpansionBudget, Guard, Halted, Singular,
};
pub use quadratic::QuadraticForm;
pub use separate::SeparatedQuadratic;
pub use view::View;

/// Starts Symbolica on this thread now, instead of at the first symbol a derivation makes: its
/// start waits until a thread of its own has run, and a caller that is about to start busy
/// threads of its own starts Symbolica first, so that the thread Symbolica waits for does not
/// queue behind them (docs/architecture.md). Starting twice does nothing more. It makes the
/// symbol `cos`, as every spec with a cosine does; no result depends on the order symbols are
/// made in (the determinism tests derive every golden in opposite orders), so none depends on
/// the call.
pub fn start() {
    let _ = expr::sym("cos");
}
