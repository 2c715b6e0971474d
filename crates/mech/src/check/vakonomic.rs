//! Proofs against a vakonomic derivation ([IMMS08] §5.1).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Result, Span};
use model::{Entry, Expectation, Kind, Target};

use crate::base::algebra::Phase;
use crate::VakonomicDerivation;

use super::prove::*;
use report::{At, Report};

/// Proves every `expect` block of a vakonomic system ([IMMS08] §5.1), against its report where
/// the report holds the quantity (a bracket of the functions an entry names is computed).
pub fn check_vakonomic(d: &VakonomicDerivation) -> Result<Vec<Outcome>> {
    let report = crate::describe::vakonomic_report(d);
    prove_each(&d.system, &|_| None, &|expectation, entry| {
        vakonomic_difference(d, &report, expectation, entry)
    })
}

/// After deriving a vakonomic system: the blocks about its Hamiltonian form need that form.
pub fn validate_vakonomic(d: &VakonomicDerivation) -> Result<()> {
    let errors: Vec<Diagnostic> = d
        .system
        .expectations
        .iter()
        .filter(|e| e.kind != Kind::VakonomicEquations)
        .filter_map(|e| vakonomic_hamiltonian(d, e.kind_span).err())
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
) -> Result<&crate::vakonomic::VakonomicHamiltonian> {
    d.vakonomic.hamiltonian.as_ref().ok_or_else(|| {
        vec![Diagnostic::error(
            Code::E0404,
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
    report: &Report,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    let read = |path: &[&str], at| read_filed(report, path, at, expectation, entry);
    let system = &d.system;
    let v = &d.vakonomic;
    let expected = entry.value.clone();
    let span = expectation.kind_span;
    match (expectation.kind, &entry.target) {
        (Kind::VakonomicEquations, Target::Rate(name)) => {
            v.state.iter().position(|s| s == name).ok_or_else(|| {
                bad_key(
                    entry.key_span,
                    format!(
                        "`{}'` is not a state variable of the vakonomic equations",
                        system.spec_name(system.handle(name))
                    ),
                    "a coordinate, a free velocity or a multiplier (a constrained velocity is Ψ)",
                )
            })?;
            let derived = read(&["equations"], At::Symbol(name.clone()))?;
            Ok((derived - expected.subs(&v.psi)).simplify())
        }
        (Kind::VakonomicHamiltonian, _) => {
            vakonomic_hamiltonian(d, span)?;
            let derived = read(&["vakonomic", "hamiltonian", "H"], At::Whole)?;
            Ok((derived - expected).simplify())
        }
        (Kind::VakonomicHamiltonEquations, Target::Rate(name)) => {
            vakonomic_hamiltonian(d, span)?;
            let derived = read(
                &["vakonomic", "hamiltonian", "equations"],
                At::Symbol(name.clone()),
            )?;
            Ok((derived - expected).simplify())
        }
        (Kind::VakonomicBracket, Target::Bracket(f, g)) => {
            let h = vakonomic_hamiltonian(d, span)?;
            let phase = Phase::new(
                system,
                h.hamiltonian.clone(),
                vec![Expr::zero(); system.rank()],
            );
            Ok((phase.poisson(f, g) - expected).simplify())
        }
        _ => unreachable!("a vakonomic system has vakonomic kinds only (`model`)"),
    }
}
