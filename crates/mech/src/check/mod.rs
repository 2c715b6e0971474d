//! Proving `expect` blocks against a derivation.
//!
//! Each entry names a derived quantity (by its key and the block's kind) and gives its
//! hand-derived value. The entry *holds* when the difference vanishes identically after
//! restriction to the constraint surface: as many velocities as there are (affine) constraints
//! are eliminated by solving the constraints for them, then the difference is brought to rational
//! normal form with `sin² + cos² = 1` ([`cas::Expr::is_zero`]). Otherwise the entry *differs* by
//! the printed difference (derived − expected).

mod closed;
mod contact;
mod keys;
mod kinds;
mod prove;
mod quantity;
mod singular;
mod vakonomic;

use model::System;

use kinds::*;
use quantity::*;

pub use crate::surface::Surface;
pub use closed::{check, validate_derived};
pub use contact::check_contact;
pub use prove::{Outcome, Verdict};
pub use singular::check_singular;
pub use vakonomic::{check_vakonomic, validate_vakonomic};

/// Checks that every `expect` block of `system` is well formed — a known kind, keys that name
/// quantities of this system, values in its names — without deriving or proving anything. This is
/// what `derive` asks of the blocks; `check` then proves them.
pub fn validate(system: &System) -> syntax::Result<()> {
    let mut errors = Vec::new();
    for block in &system.expects {
        match known_kind(block) {
            Ok(()) => {
                for entry in &block.entries {
                    let resolved = system
                        .scope
                        .convert(&entry.value, value_scope(block))
                        .and_then(|_| quantity(system, block, entry));
                    if let Err(e) = resolved {
                        errors.extend(e);
                    }
                }
            }
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
