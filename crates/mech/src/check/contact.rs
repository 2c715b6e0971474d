//! Proofs against a contact (Herglotz) derivation (seed 004).

use cas::Expr;
use diagnostic::{Diagnostic, Result};
use model::{Entry, Expectation, Kind, Target};

use crate::ContactDerivation;

use super::prove::*;

/// Proves every `expect` block of a contact system (seed 004).
pub fn check_contact(d: &ContactDerivation) -> Result<Vec<Outcome>> {
    prove_each(&d.system, &|_| None, &|expectation, entry| {
        contact_difference(d, expectation, entry)
    })
}

/// The derived minus the expected value of one entry about a contact system.
pub(super) fn contact_difference(
    d: &ContactDerivation,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    let c = &d.contact;
    let expected = entry.value.clone();
    let index = |name: &str| {
        c.coordinates
            .iter()
            .position(|s| s == name)
            .expect("keys name coordinates of TQ × ℝ")
    };
    Ok(match (expectation.kind, &entry.target) {
        (Kind::ContactEquations, Target::Rate(name)) => {
            c.restrict(&(c.rates[index(name)].clone() - expected))
        }
        (Kind::ContactMultipliers, &Target::Index(a)) => {
            c.restrict(&(c.multipliers[a].clone() - expected))
        }
        (Kind::ContactEnergy, _) => c.restrict(&(c.energy.clone() - expected)),
        (Kind::ContactProjector, Target::Coordinates(mu, nu)) => {
            (c.projector[index(mu)][index(nu)].clone() - expected).simplify()
        }
        (Kind::ContactBracket, Target::Bracket(f, g)) => c.restrict(&(c.bracket(f, g) - expected)),
        (Kind::ContactJacobiator, Target::Jacobiator(f, g, h)) => {
            c.jacobiator(f, g, h) - c.restrict(&expected)
        }
        (Kind::ContactHamiltonian | Kind::ContactHamiltonEquations, target) => {
            let h = c.hamiltonian.as_ref().ok_or_else(|| {
                vec![Diagnostic::error(
                    "E0404",
                    "the Hamiltonian side of this contact system is not available",
                    expectation.kind_span,
                    "this expectation is about the Hamiltonian side",
                )
                .with_note("the Lagrangian is not quadratic in the velocities")]
            })?;
            let derived = match target {
                Target::Rate(name) => {
                    let k = h.coordinates.iter().position(|s| s == name);
                    h.rates[k.expect("keys name coordinates of T*Q × ℝ")].clone()
                }
                _ => h.hamiltonian.clone(),
            };
            h.restrict(&(derived - expected))
        }
        _ => unreachable!("a contact system has contact kinds only (`model`)"),
    })
}
