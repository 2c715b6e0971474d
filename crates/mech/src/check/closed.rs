//! Proofs against a closed-form Lagrange–d'Alembert derivation and its Hamiltonian, Dirac and
//! projected sides.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::{Diagnostic, Result, Span};
use model::{Entry, Expectation, Family, Kind, Target};

use crate::base::algebra::Phase;
use crate::base::surface::Surface;
use crate::hamilton::dirac::Dirac;
use crate::hamilton::hamiltonian::Hamiltonian;
use crate::lagrange::nonholonomic::derivative_along;
use crate::Derivation;
use report::{At, Report};

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
                Code::E0403,
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

/// Checks every `expect` block of the derivation's system, against its report where the report
/// holds the quantity (where it files each kind: `filed`).
pub fn check(d: &Derivation) -> Result<Vec<Outcome>> {
    let surface = Surface::new(&d.system);
    let report = crate::describe::closed_report(d);
    prove_each(&d.system, &|_| None, &|expectation, entry| {
        difference(d, &report, &surface, expectation, entry)
    })
}

/// Where the report files the quantity an entry of `kind` names (its JSON path), and the entry
/// in it; `None` for the kinds whose value is computed from the entry itself (a bracket or
/// Jacobiator of the functions it names, a first integral, a Noether test) or read from the
/// Dirac and projected sides.
fn filed(d: &Derivation, kind: Kind, target: &Target) -> Option<(&'static [&'static str], At)> {
    let system = &d.system;
    let coordinates = system.coordinates.len();
    let momenta = &system.algebroid.momenta;
    Some(match (kind, target) {
        (Kind::Equations, &Target::Index(k)) => {
            (&["equations"], At::Symbol(d.equations[k].state.clone()))
        }
        (Kind::FreeEquations, &Target::Index(k)) if k < coordinates => {
            (&["equations"], At::Symbol(d.equations[k].state.clone()))
        }
        (Kind::FreeEquations, &Target::Index(k)) => (
            &["free_equations"],
            At::Symbol(system.key(system.algebroid.velocities[k - coordinates])),
        ),
        (Kind::Multipliers, &Target::Index(a)) => (&["multipliers"], At::Multiplier(a + 1)),
        (Kind::Energy, _) => (&["energy"], At::Whole),
        (Kind::EnergyRate, _) => (&["energy_rate"], At::Whole),
        (Kind::Hessian, &Target::Pair(a, b)) => (&["hessian"], At::Pair(a, b)),
        (Kind::ConstraintMatrix, &Target::Pair(a, b)) => (&["constraint_matrix"], At::Pair(a, b)),
        (Kind::Theta, &Target::Index(i)) => (&["theta"], At::Index(i)),
        (Kind::Omega, &Target::Pair(i, j)) => (&["omega"], At::Pair(i, j)),
        (Kind::Dpsi, &Target::Pair(a, i)) => (&["dpsi"], At::Pair(a, i)),
        (Kind::Projector, &Target::Pair(i, j)) => (&["projector"], At::Pair(i, j)),
        (Kind::Legendre, &Target::Index(a)) => (
            &["hamiltonian", "legendre"],
            At::Symbol(system.key(momenta[a])),
        ),
        (Kind::Hamiltonian, _) => (&["hamiltonian", "H"], At::Whole),
        (Kind::HamiltonEquations, &Target::Index(k)) => (
            &["hamiltonian", "equations"],
            // The first equations are the coordinates', in order: their states are their keys.
            At::Symbol(if k < coordinates {
                d.equations[k].state.clone()
            } else {
                system.key(momenta[k - coordinates])
            }),
        ),
        (Kind::DualConstraints, &Target::Index(a)) => {
            (&["hamiltonian", "constraints"], At::Index(a))
        }
        (Kind::DualConstraintMatrix, &Target::Pair(a, b)) => {
            (&["hamiltonian", "constraint_matrix"], At::Pair(a, b))
        }
        (Kind::DualMultipliers, &Target::Index(a)) => {
            (&["hamiltonian", "multipliers"], At::Multiplier(a + 1))
        }
        _ => return None,
    })
}

/// The derived value of an entry, read from the report where [`filed`] says it is (E0404 when
/// the report does not hold it); `None` for the kinds that are computed.
fn read(
    d: &Derivation,
    report: &Report,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Option<Expr>> {
    let Some((path, at)) = filed(d, expectation.kind, &entry.target) else {
        return Ok(None);
    };
    read_filed(report, path, at, expectation, entry).map(Some)
}

/// The Hamiltonian side of `d`, or E0404 at `span` saying why there is none.
pub(super) fn hamiltonian(d: &Derivation, span: Span) -> Result<&Hamiltonian> {
    d.hamiltonian.as_ref().map_err(|why| {
        vec![Diagnostic::error(
            Code::E0404,
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
            Code::E0404,
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
        return crate::hamilton::dirac::structure(&d.system)
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
    let structure = crate::hamilton::dirac::structure(system).map_err(|why| {
        vec![Diagnostic::error(
            Code::E0404,
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
                acc + structure.frame[a][b].clone() * system.expr(momenta[b])
            });
            (structure.momenta[a].clone(), value)
        })
        .collect();
    let to_eta: BTreeMap<String, Expr> = (0..n)
        .map(|b| {
            let value = (0..n).fold(Expr::zero(), |acc, a| {
                acc + structure.inverse[b][a].clone() * Expr::symbol(&structure.momenta[a])
            });
            (system.key(momenta[b]), value)
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
    projected: &crate::hamilton::projected::Projected,
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
    report: &Report,
    surface: &Surface,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    let expected = &entry.value;
    let kind = expectation.kind;
    let filed = || read(d, report, expectation, entry);
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
            let derived = match filed()? {
                Some(e) => e,
                None => dual_value(d, h, kind, target),
            };
            h.restrict(&(derived - expected.clone()))
        }
        (Kind::FirstIntegrals, _) => {
            surface.restrict(&derivative_along(&d.system, d.fibre_rhs(), expected))
        }
        (_, _) => {
            let derived = filed()?.expect("every other kind on this route is filed in the report");
            surface.restrict(&(derived - expected.clone()))
        }
    })
}

/// The derived value of a quantity on the dual that is computed from the entry: a bracket or
/// Jacobiator of the functions it names (a report holds only the brackets of coordinates).
pub(super) fn dual_value(d: &Derivation, h: &Hamiltonian, kind: Kind, target: &Target) -> Expr {
    let system = &d.system;
    match (kind, target) {
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
