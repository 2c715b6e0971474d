//! Proving `expect` blocks against a derivation.
//!
//! The blocks arrive resolved ([`model::Expectation`]): each entry names a component of a
//! derived quantity (its block's [`model::Kind`] and its [`model::Target`]) and gives its
//! hand-derived value. The prover looks the quantity up in the derivation's report, by the JSON
//! path the outputs file it under ([`report::Report::find`]; the bracket of functions an entry
//! names, a first integral's derivative along the flow and the Dirac side are computed), and
//! compares. The
//! entry *holds* when the difference vanishes identically after restriction to the constraint
//! surface: as many velocities as there are (affine) constraints are eliminated by solving the
//! constraints for them, then the difference is brought to rational normal form with
//! `sin² + cos² = 1` ([`cas::Expr::is_zero`]). Otherwise the entry *differs* by the printed
//! difference (derived − expected).
//!
//! Whatever can be said of a block without deriving (an unknown kind, a key that names nothing)
//! was said by `model`; what is left here is what only the derivation knows: whether the side a
//! block is about exists (E0403, E0404) and whether a variable survived the constraints (E0402).

mod closed;
mod contact;
mod implicit;
mod prove;
mod singular;
mod vakonomic;

pub use crate::base::surface::Surface;
pub use closed::{check, validate_derived};
pub use contact::check_contact;
pub use implicit::{check_implicit, provable_on_implicit};
pub use prove::{Outcome, Verdict};
pub use singular::check_singular;
pub use vakonomic::{check_vakonomic, validate_vakonomic};

use crate::Derived;
use diagnostic::Result;

/// What can be said of the `expect` blocks once the derivation exists and before anything is
/// proved (a side a block is about that the route did not derive, a variable the constraints
/// eliminated): every pipeline runs it on every derivation.
pub fn validate(derived: &Derived) -> Result<()> {
    match derived {
        Derived::Closed(d) => validate_derived(d),
        Derived::Vakonomic(d) => validate_vakonomic(d),
        Derived::Singular(_) | Derived::Contact(_) | Derived::Implicit(_) => Ok(()),
    }
}

/// Whether every block of the spec can be proved on this derivation: the implicit form proves
/// only what it holds (see [`provable_on_implicit`]); every other route proves every kind it
/// derives.
pub fn provable(derived: &Derived) -> bool {
    match derived {
        Derived::Implicit(d) => provable_on_implicit(d),
        _ => true,
    }
}

/// Proves every `expect` block against the derivation of its route.
pub fn prove(derived: &Derived) -> Result<Vec<Outcome>> {
    match derived {
        Derived::Closed(d) => check(d),
        Derived::Vakonomic(d) => check_vakonomic(d),
        Derived::Singular(d) => check_singular(d),
        Derived::Contact(d) => check_contact(d),
        Derived::Implicit(d) => check_implicit(d),
    }
}
