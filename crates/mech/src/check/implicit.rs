//! Proofs against the implicit form (`mech::lagrange::implicit`): a system whose closed form does not fit
//! the budget (a spherical double pendulum's `W⁻¹` is millions of terms) can still prove what
//! needs no inverse of `W`: the Hessian `W`, the energy `E_L`, and, without constraints, the
//! energy rate by the balance law `dE_L/dt = −ρ_0(L) + C^γ_0α y^α p_γ + F_α y^α` ([IMMS07]
//! §IV). Every other kind needs the closed form (E0406, with the reason it did not fit).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Result};
use model::{Entry, Expectation, Kind, Target};

use super::prove::{prove_each, Outcome};
use crate::base::algebra::anchor_apply;
use crate::ImplicitDerivation;

/// Whether an `expect` block of `kind` can be proved on the implicit form of `d`.
fn provable(d: &ImplicitDerivation, kind: Kind) -> bool {
    match kind {
        Kind::Hessian | Kind::Energy => true,
        Kind::EnergyRate => d.system.constraints.is_empty(),
        _ => false,
    }
}

/// Whether every `expect` block of `d`'s system can be proved on its implicit form.
pub fn provable_on_implicit(d: &ImplicitDerivation) -> bool {
    d.system.expectations.iter().all(|e| provable(d, e.kind))
}

/// `dE_L/dt` along the motion, by the balance law (no constraints).
fn energy_rate(d: &ImplicitDerivation) -> Expr {
    let system = &d.system;
    let alg = &system.algebroid;
    let y = |a: usize| system.expr(alg.velocities[a]);
    let mut rate = -anchor_apply(system, 0, &system.lagrangian);
    for a in 0..system.rank() {
        for g in 0..system.rank() {
            rate = rate + alg.c0[a][g].clone() * y(a) * d.implicit.momenta[g].clone();
        }
        rate = rate + system.forces[a].clone() * y(a);
    }
    rate
}

/// `W_ab`: the implicit form's entry, or, when its entries read the bound symbols of the
/// recursions ([`crate::multibody::composite`]), `∂²L/∂y^a∂y^b` of the Lagrangian as written.
fn hessian_entry(d: &ImplicitDerivation, a: usize, b: usize) -> Expr {
    if d.implicit.bindings.is_empty() {
        return d.implicit.mass[a][b].clone();
    }
    let velocities = d.system.keys(&d.system.algebroid.velocities);
    d.system
        .lagrangian
        .diff(&velocities[a])
        .diff(&velocities[b])
}

/// Checks every `expect` block of an implicit-form derivation (see the module documentation).
pub fn check_implicit(d: &ImplicitDerivation) -> Result<Vec<Outcome>> {
    let skip = |e: &Expectation| {
        (!provable(d, e.kind)).then(|| {
            Diagnostic::error(
                Code::E0406,
                format!("`expect {}` needs the closed form, which did not fit", e.kind),
                e.kind_span,
                "not provable on the implicit form",
            )
            .with_note(format!("the implicit form was taken because {}", d.choice.reason))
            .with_help("on the implicit form `hessian`, `energy` and (without constraints) `energy_rate` are proved; raise --max-terms to try the closed form")
        })
    };
    prove_each(
        &d.system,
        &skip,
        &|expectation: &Expectation, entry: &Entry| {
            let derived = match (expectation.kind, &entry.target) {
                (Kind::Hessian, &Target::Pair(a, b)) => hessian_entry(d, a, b),
                (Kind::Energy, _) => d.implicit.energy.get().clone(),
                _ => energy_rate(d),
            };
            Ok((derived - entry.value.clone()).simplify())
        },
    )
}
