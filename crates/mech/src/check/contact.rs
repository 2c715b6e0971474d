//! Proofs against a contact (Herglotz) derivation (seed 004).

use cas::Expr;
use syntax::ast::{ExpectBlock, ExpectEntry};
use syntax::Diagnostic;

use crate::ContactDerivation;

use super::kinds::*;
use super::prove::*;
use super::quantity::*;

/// Proves every `expect` block of a contact system (seed 004).
pub fn check_contact(d: &ContactDerivation) -> syntax::Result<Vec<Outcome>> {
    prove_each(&d.system, &|_| None, &|block, entry| {
        contact_difference(d, block, entry)
    })
}

/// The derived minus the expected value of one entry about a contact system.
pub(super) fn contact_difference(
    d: &ContactDerivation,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Expr> {
    let c = &d.contact;
    let expected = d.system.scope.convert(&entry.value, value_scope(block))?;
    let index = |name: &str| {
        c.coordinates
            .iter()
            .position(|s| s == name)
            .expect("keys name coordinates of TQ × ℝ")
    };
    Ok(match quantity(&d.system, block, entry)? {
        Quantity::ContactRate(name) => c.restrict(&(c.rates[index(&name)].clone() - expected)),
        Quantity::ContactMultiplier(a) => c.restrict(&(c.multipliers[a].clone() - expected)),
        Quantity::ContactEnergy => c.restrict(&(c.energy.clone() - expected)),
        Quantity::ContactProjector(mu, nu) => {
            (c.projector[index(&mu)][index(&nu)].clone() - expected).simplify()
        }
        Quantity::ContactBracket(f, g) => c.restrict(&(c.bracket(&f, &g) - expected)),
        Quantity::ContactJacobiator(f, g, h) => c.jacobiator(&f, &g, &h) - c.restrict(&expected),
        Quantity::ContactHamiltonian | Quantity::ContactHamiltonRate(_) => {
            let h = c.hamiltonian.as_ref().ok_or_else(|| {
                vec![Diagnostic::error(
                    "E0404",
                    "the Hamiltonian side of this contact system is not available",
                    block.kind.span,
                    "this expectation is about the Hamiltonian side",
                )
                .with_note("the Lagrangian is not quadratic in the velocities")]
            })?;
            let derived = match quantity(&d.system, block, entry)? {
                Quantity::ContactHamiltonRate(name) => {
                    let k = h.coordinates.iter().position(|s| *s == name);
                    h.rates[k.expect("keys name coordinates of T*Q × ℝ")].clone()
                }
                _ => h.hamiltonian.clone(),
            };
            h.restrict(&(derived - expected))
        }
        _ => unreachable!("a contact system has contact kinds only (`quantity`)"),
    })
}
