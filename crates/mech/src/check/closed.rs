//! Proofs against a closed-form Lagrange–d'Alembert derivation and its Hamiltonian, Dirac and
//! projected sides.

use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::{Diagnostic, Result, Span};
use model::{Entry, Expectation, Family, Kind, Target};

use crate::dirac::Dirac;
use crate::hamiltonian::{Hamiltonian, Phase};
use crate::nonholonomic::derivative_along;
use crate::surface::Surface;
use crate::Derivation;

use super::prove::*;

/// After deriving: every `expect` block about the Hamiltonian side needs that side to exist
/// (E0404 says why it does not).
pub fn validate_derived(d: &Derivation) -> Result<()> {
    let expectations = &d.system.expectations;
    let regular = expectations
        .iter()
        .filter(|e| e.kind.family() == Family::Singular)
        .map(|e| {
            Diagnostic::error(
                "E0403",
                format!(
                    "`expect {}` is about a singular Lagrangian, and this one is regular",
                    e.kind
                ),
                e.kind_span,
                "nothing to compare with",
            )
            .with_note("det W does not vanish: there is no constraint algorithm to run")
        });
    let dual = expectations
        .iter()
        .filter(|e| e.kind.family() == Family::Dual || e.kind == Kind::Legendre)
        .filter_map(|e| hamiltonian(d, e.kind_span).err())
        .flatten();
    let dirac = expectations
        .iter()
        .filter(|e| matches!(e.kind.family(), Family::Dirac | Family::Induced))
        .filter_map(|e| dirac_side(d, e).err())
        .flatten();
    let errors: Vec<Diagnostic> = regular.chain(dual).chain(dirac).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks every `expect` block of the derivation's system.
pub fn check(d: &Derivation) -> Result<Vec<Outcome>> {
    let surface = Surface::new(&d.system);
    prove_each(&d.system, &|_| None, &|expectation, entry| {
        difference(d, &surface, expectation, entry)
    })
}

/// The Hamiltonian side of `d`, or E0404 at `span` saying why there is none.
pub(super) fn hamiltonian(d: &Derivation, span: Span) -> Result<&Hamiltonian> {
    d.hamiltonian.as_ref().map_err(|why| {
        vec![Diagnostic::error(
            "E0404",
            "the Hamiltonian side of this system is not available",
            span,
            "this expectation is about the Hamiltonian side",
        )
        .with_note(why.to_string())]
    })
}

/// The Dirac side of `d` as `expectation` needs it (`frame_bracket` needs the frame only), or
/// E0404.
pub(super) fn dirac_side<'a>(
    d: &'a Derivation,
    expectation: &Expectation,
) -> Result<Option<&'a Dirac>> {
    let unavailable = |why: String| {
        vec![Diagnostic::error(
            "E0404",
            "the Dirac side of this system is not available",
            expectation.kind_span,
            "this expectation is about the Dirac side",
        )
        .with_note(why)]
    };
    if matches!(
        expectation.kind,
        Kind::ProjectedBracket
            | Kind::ProjectedJacobiator
            | Kind::InducedLagrangian
            | Kind::InducedEquations
            | Kind::Noether
            | Kind::Curvature
            | Kind::SectionJacobiator
    ) {
        return d
            .projected
            .as_ref()
            .map(|_| None)
            .map_err(|why| unavailable(format!("the projected structure on D: {why}")));
    }
    if expectation.kind == Kind::FrameBracket {
        return crate::dirac::structure(&d.system)
            .map(|_| None)
            .map_err(|why| unavailable(why.to_string()));
    }
    d.dirac
        .as_ref()
        .map(Some)
        .map_err(|why| unavailable(why.to_string()))
}

/// The difference between the derived and the expected value of a Dirac-side quantity, on `S`.
pub(super) fn frame_difference(
    d: &Derivation,
    kind: Kind,
    target: &Target,
    expected: &Expr,
) -> Result<Expr> {
    let system = &d.system;
    let structure = crate::dirac::structure(system).map_err(|why| {
        vec![Diagnostic::error(
            "E0404",
            "the Dirac side of this system is not available",
            Span::new(0, 0),
            "",
        )
        .with_note(why.to_string())]
    })?;
    let n = system.rank();
    let momenta = &system.algebroid.momenta;
    // Frame momenta in algebroid momenta (η = T p), and back (p = T⁻¹ η).
    let to_p: BTreeMap<String, Expr> = (0..n)
        .map(|a| {
            let value = (0..n).fold(Expr::zero(), |acc, b| {
                acc + structure.frame[a][b].clone() * Expr::symbol(&momenta[b])
            });
            (structure.momenta[a].clone(), value)
        })
        .collect();
    let to_eta: BTreeMap<String, Expr> = (0..n)
        .map(|b| {
            let value = (0..n).fold(Expr::zero(), |acc, a| {
                acc + structure.inverse[b][a].clone() * Expr::symbol(&structure.momenta[a])
            });
            (momenta[b].clone(), value)
        })
        .collect();
    if let (Kind::FrameBracket, Target::Bracket(f, g)) = (kind, target) {
        let phase = Phase::new(system, Expr::zero(), vec![Expr::zero(); n]);
        let derived = phase.poisson(&f.subs(&to_p), &g.subs(&to_p));
        let difference = (derived - expected.subs(&to_p)).simplify();
        return Ok(difference.subs(&to_eta).simplify());
    }
    if let (Ok(projected), Kind::Curvature | Kind::SectionJacobiator) = (&d.projected, kind) {
        return Ok(lie_difference(projected, target, expected, &to_p, &to_eta));
    }
    if let Some(projected) = d
        .projected
        .as_ref()
        .ok()
        .filter(|_| matches!(kind, Kind::ProjectedBracket | Kind::ProjectedJacobiator))
    {
        let dependent = d
            .dirac
            .as_ref()
            .map(|x| x.dependent.clone())
            .unwrap_or_default();
        let eta = |e: &Expr| e.subs(&to_eta).subs(&dependent);
        let derived = match target {
            Target::Bracket(f, g) => projected.bracket(system, &eta(f), &eta(g)),
            Target::Jacobiator(f, g, h) => projected.jacobiator(system, &eta(f), &eta(g), &eta(h)),
            _ => unreachable!("a projected bracket or Jacobiator"),
        };
        return Ok((derived - eta(expected)).subs(&dependent).simplify());
    }
    let dirac = d.dirac.as_ref().expect("checked by validate_derived");
    let eta = |e: &Expr| e.subs(&to_eta).subs(&dirac.dependent);
    let derived = match (kind, target) {
        (Kind::DiracHamiltonian, _) => {
            return Ok((dirac.hamiltonian.clone() - expected.subs(&to_eta)).simplify())
        }
        (Kind::DiracConstraints, Target::Index(a)) => {
            dirac.dependent[&structure.momenta[*a]].clone()
        }
        (Kind::DiracEquations, Target::Rate(name)) => {
            match dirac.coordinates.iter().position(|c| c == name) {
                Some(k) => dirac.rates[k].clone(),
                None => {
                    let a = structure.momenta.iter().position(|m| m == name);
                    let k = structure.complement.iter().position(|&c| Some(c) == a);
                    dirac.tangency[k.expect("keys are checked by `model`")].clone()
                }
            }
        }
        (Kind::DiracBracket, Target::Bracket(f, g)) => dirac.bracket(system, &eta(f), &eta(g)),
        (Kind::DiracJacobiator, Target::Jacobiator(f, g, h)) => {
            dirac.jacobiator(system, &eta(f), &eta(g), &eta(h))
        }
        _ => unreachable!("not a Dirac-side quantity"),
    };
    Ok((derived - eta(expected)).subs(&dirac.dependent).simplify())
}

/// The difference between the derived and the expected curvature (compared as functions of the
/// algebroid momenta, `⟨p, K⟩`) or section Jacobiator (as functions of the momenta of `D`).
pub(super) fn lie_difference(
    projected: &crate::projected::Projected,
    target: &Target,
    expected: &Expr,
    to_p: &BTreeMap<String, Expr>,
    to_eta: &BTreeMap<String, Expr>,
) -> Expr {
    let lie = &projected.lie;
    match *target {
        Target::Pair(a, b) => {
            let (sign, a, b) = if a < b { (1, a, b) } else { (-1, b, a) };
            let (_, _, k) = lie
                .curvature
                .iter()
                .find(|(x, y, _)| (*x, *y) == (a, b))
                .expect("keys are distinct sections of D");
            let momenta = &projected.algebroid_momenta;
            let derived = k.iter().zip(momenta).fold(Expr::zero(), |acc, (c, p)| {
                acc + c.clone() * Expr::symbol(p)
            });
            (derived * Expr::rational(sign, 1) - expected.subs(to_p)).simplify()
        }
        Target::Triple(a, b, c) => {
            let (sign, sorted) = sort_triple(a, b, c);
            let (_, _, _, j) = lie
                .jacobiator
                .iter()
                .find(|(x, y, z, _)| [*x, *y, *z] == sorted)
                .expect("keys are distinct sections of D");
            let derived = j
                .iter()
                .zip(&projected.momenta)
                .fold(Expr::zero(), |acc, (c, xi)| {
                    acc + c.clone() * Expr::symbol(xi)
                });
            (derived * Expr::rational(sign, 1) - expected.subs(to_eta)).simplify()
        }
        _ => unreachable!("a curvature or a section Jacobiator"),
    }
}

/// The derived minus the expected value of one entry, restricted to where it is compared.
pub(super) fn difference(
    d: &Derivation,
    surface: &Surface,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    let expected = &entry.value;
    let kind = expectation.kind;
    // A first integral holds when its derivative along the dynamics vanishes; every other kind
    // compares a derived quantity with the expected value.
    Ok(match (kind, &entry.target) {
        (Kind::Noether, &Target::Index(k)) => {
            dirac_side(d, expectation)?;
            let projected = d.projected.as_ref().expect("checked");
            let test = &projected.noether[k];
            if test.holds {
                (test.integral.clone() - expected.subs(&projected.induced.on_d)).simplify()
            } else {
                // Not a symmetry: the defect S (Killing + potential + gauge parts) is what differs.
                (test.killing.clone() + test.potential.clone() + test.gauge.clone()).simplify()
            }
        }
        (Kind::InducedLagrangian | Kind::InducedEquations, target) => {
            dirac_side(d, expectation)?;
            let induced = &d.projected.as_ref().expect("checked").induced;
            let derived = match target {
                Target::Rate(name) => {
                    let k = induced.state.iter().position(|s| s == name);
                    induced.rates[k.expect("keys are checked by `model`")].clone()
                }
                _ => induced.lagrangian.clone(),
            };
            (derived - expected.subs(&induced.on_d)).simplify()
        }
        (_, target) if kind.family() == Family::Dirac => {
            dirac_side(d, expectation)?;
            frame_difference(d, kind, target, expected)?
        }
        (_, target) if kind.family() == Family::Dual => {
            let h = hamiltonian(d, entry.span)?;
            h.restrict(&(dual_value(d, h, kind, target) - expected.clone()))
        }
        (Kind::FirstIntegrals, _) => {
            surface.restrict(&derivative_along(&d.system, d.fibre_rhs(), expected))
        }
        (_, target) => surface.restrict(&(value(d, kind, target) - expected.clone())),
    })
}

/// The derived value of a quantity (never a first integral, whose entry holds its own value).
pub(super) fn value(d: &Derivation, kind: Kind, target: &Target) -> Expr {
    let nh = || {
        d.nonholonomic
            .as_ref()
            .expect("keys that need constraints were refused by `model`")
    };
    match (kind, target) {
        (Kind::Equations | Kind::FreeEquations, &Target::Index(state)) => {
            let coordinates = d.system.coordinates.len();
            if kind == Kind::FreeEquations && state >= coordinates {
                d.free_rhs[state - coordinates].clone()
            } else {
                d.equations[state].rhs.clone()
            }
        }
        (Kind::Multipliers, &Target::Index(a)) => d.multipliers()[a].clone(),
        (Kind::Energy, _) => d.lagrangian.energy.clone(),
        (Kind::EnergyRate, _) => d.energy_rate.clone(),
        (Kind::Hessian, &Target::Pair(a, b)) => d.lagrangian.hessian[a][b].clone(),
        (Kind::ConstraintMatrix, &Target::Pair(a, b)) => nh().matrix[a][b].clone(),
        (Kind::Theta, &Target::Index(i)) => d.lagrangian.theta[i].clone(),
        (Kind::Omega, &Target::Pair(i, j)) => d.lagrangian.omega[i][j].clone(),
        (Kind::Dpsi, &Target::Pair(a, i)) => nh().dpsi[a][i].clone(),
        (Kind::Projector, &Target::Pair(i, j)) => nh().projector[i][j].clone(),
        (Kind::Legendre, &Target::Index(a)) => d.lagrangian.momenta[a].clone(),
        (Kind::FirstIntegrals, _) => unreachable!("a first integral is its entry's own value"),
        _ => unreachable!("quantities on the dual are read by `dual_value`"),
    }
}

/// The derived value of a quantity on the dual.
pub(super) fn dual_value(d: &Derivation, h: &Hamiltonian, kind: Kind, target: &Target) -> Expr {
    let system = &d.system;
    let constrained = || {
        h.constrained
            .as_ref()
            .expect("keys that need constraints were refused by `model`")
    };
    match (kind, target) {
        (Kind::Hamiltonian, _) => h.hamiltonian.clone(),
        (Kind::HamiltonEquations, Target::Index(k)) => {
            let state = crate::hamiltonian::phase_state(system);
            h.dynamics(system, &Expr::symbol(&state[*k]))
        }
        (Kind::DualConstraints, Target::Index(a)) => constrained().psi[*a].clone(),
        (Kind::DualConstraintMatrix, Target::Pair(a, b)) => constrained().matrix[*a][*b].clone(),
        (Kind::DualMultipliers, Target::Index(a)) => constrained().multipliers[*a].clone(),
        (Kind::Bracket, Target::Bracket(f, g)) => h.bracket(system, f, g),
        (Kind::Jacobiator, Target::Jacobiator(f, g, k)) => h.jacobiator(system, f, g, k),
        _ => unreachable!("not a quantity on the dual"),
    }
}

/// A triple of distinct indices sorted, with the sign of the permutation.
pub(super) fn sort_triple(a: usize, b: usize, c: usize) -> (i64, [usize; 3]) {
    let mut v = [a, b, c];
    let mut sign = 1;
    for i in 0..3 {
        for j in 0..2 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
                sign = -sign;
            }
        }
    }
    (sign, v)
}
