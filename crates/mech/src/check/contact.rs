//! Proofs against a contact (Herglotz) derivation ([LJL21]).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Result};
use model::{Entry, Expectation, Kind, Target};

use crate::ContactDerivation;
use report::{At, Report};

use super::prove::*;

/// Proves every `expect` block of a contact system ([LJL21]), against its report where the
/// report holds the quantity.
pub fn check_contact(d: &ContactDerivation) -> Result<Vec<Outcome>> {
    let report = crate::describe::contact_report(d);
    prove_each(&d.system, &|_| None, &|expectation, entry| {
        contact_difference(d, &report, expectation, entry)
    })
}

/// Where the report files the quantity an entry names (its JSON path) and the entry in it;
/// `None` for brackets and Jacobiators of the functions an entry names, which are computed.
fn filed(
    d: &ContactDerivation,
    kind: Kind,
    target: &Target,
) -> Option<(&'static [&'static str], At)> {
    let index = |name: &str| d.contact.coordinates.iter().position(|s| s == name);
    Some(match (kind, target) {
        (Kind::ContactEquations, Target::Rate(name)) => (&["equations"], At::Symbol(name.clone())),
        (Kind::ContactMultipliers, &Target::Index(a)) => (&["multipliers"], At::Multiplier(a + 1)),
        (Kind::ContactEnergy, _) => (&["energy"], At::Whole),
        (Kind::ContactProjector, Target::Coordinates(mu, nu)) => {
            (&["projector"], At::Pair(index(mu)?, index(nu)?))
        }
        (Kind::ContactHamiltonian, _) => (&["hamiltonian", "H"], At::Whole),
        (Kind::ContactHamiltonEquations, Target::Rate(name)) => {
            (&["hamiltonian", "equations"], At::Symbol(name.clone()))
        }
        _ => return None,
    })
}

/// The derived minus the expected value of one entry about a contact system.
pub(super) fn contact_difference(
    d: &ContactDerivation,
    report: &Report,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    let c = &d.contact;
    let expected = entry.value.clone();
    let read = || {
        let (path, at) = filed(d, expectation.kind, &entry.target)
            .expect("keys name coordinates of TQ × ℝ (`model`)");
        read_filed(report, path, at, expectation, entry)
    };
    Ok(match (expectation.kind, &entry.target) {
        (Kind::ContactEquations | Kind::ContactMultipliers | Kind::ContactEnergy, _) => {
            c.restrict(&(read()? - expected))
        }
        (Kind::ContactProjector, _) => (read()? - expected).simplify(),
        (Kind::ContactBracket, Target::Bracket(f, g)) => c.restrict(&(c.bracket(f, g) - expected)),
        (Kind::ContactJacobiator, Target::Jacobiator(f, g, h)) => {
            c.restrict(&(c.jacobiator(f, g, h) - expected))
        }
        (Kind::ContactHamiltonian | Kind::ContactHamiltonEquations, _) => {
            let h = c.hamiltonian.as_ref().ok_or_else(|| {
                vec![Diagnostic::error(
                    Code::E0404,
                    "the Hamiltonian side of this contact system is not available",
                    expectation.kind_span,
                    "this expectation is about the Hamiltonian side",
                )
                .with_note("the Lagrangian is not quadratic in the velocities")]
            })?;
            h.restrict(&(read()? - expected))
        }
        _ => unreachable!("a contact system has contact kinds only (`model`)"),
    })
}
