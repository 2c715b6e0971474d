//! Proofs against a vakonomic derivation (seed 003 §5.1).

use cas::Expr;
use syntax::ast::{ExpectBlock, ExpectEntry, Span};
use syntax::Diagnostic;

use crate::hamiltonian::Phase;
use crate::VakonomicDerivation;

use super::keys::*;
use super::kinds::*;
use super::prove::*;
use super::quantity::*;

/// Proves every `expect` block of a vakonomic system (seed 003 §5.1).
pub fn check_vakonomic(d: &VakonomicDerivation) -> syntax::Result<Vec<Outcome>> {
    prove_each(&d.system, &|_| None, &|block, entry| {
        vakonomic_difference(d, block, entry)
    })
}

/// After deriving a vakonomic system: the blocks about its Hamiltonian form need that form.
pub fn validate_vakonomic(d: &VakonomicDerivation) -> syntax::Result<()> {
    let errors: Vec<Diagnostic> = d
        .system
        .expects
        .iter()
        .filter(|b| b.kind.name != "vakonomic_equations")
        .filter_map(|b| vakonomic_hamiltonian(d, b.kind.span).err())
        .flatten()
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The Hamiltonian form of a vakonomic system, or E0404 at `span`.
pub(super) fn vakonomic_hamiltonian(
    d: &VakonomicDerivation,
    span: Span,
) -> syntax::Result<&crate::vakonomic::VakonomicHamiltonian> {
    d.vakonomic.hamiltonian.as_ref().ok_or_else(|| {
        vec![Diagnostic::error(
            "E0404",
            "the Hamiltonian form of this vakonomic system is not available",
            span,
            "this expectation is about the Hamiltonian form",
        )
        .with_note("the momenta p_a of the free sections are not affine in the free velocities, so y^a = μ^a(x, p) has no closed form")]
    })
}

/// The derived minus the expected value of one vakonomic entry.
pub(super) fn vakonomic_difference(
    d: &VakonomicDerivation,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Expr> {
    let system = &d.system;
    let v = &d.vakonomic;
    let expected = system.scope.convert(&entry.value, value_scope(block))?;
    match quantity(system, block, entry)? {
        Quantity::VakonomicRate(name) => {
            let k = v.state.iter().position(|s| *s == name).ok_or_else(|| {
                bad_key(
                    key_span(entry),
                    format!(
                        "`{}'` is not a state variable of the vakonomic equations",
                        system.spec_name(&name)
                    ),
                    "a coordinate, a free velocity or a multiplier (a constrained velocity is Ψ)",
                )
            })?;
            Ok((v.rates[k].clone() - expected.subs(&v.psi)).simplify())
        }
        Quantity::VakonomicHamiltonian => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            Ok((h.hamiltonian.clone() - expected).simplify())
        }
        Quantity::VakonomicHamiltonRate(name) => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            let k = h.coordinates.iter().position(|s| *s == name);
            let k = k.expect("keys name a coordinate or a momentum");
            Ok((h.rates[k].clone() - expected).simplify())
        }
        Quantity::VakonomicBracket(f, g) => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            let phase = Phase::new(
                system,
                h.hamiltonian.clone(),
                vec![Expr::zero(); system.rank()],
            );
            Ok((phase.poisson(&f, &g) - expected).simplify())
        }
        _ => unreachable!("a vakonomic system has vakonomic kinds only (`quantity`)"),
    }
}
