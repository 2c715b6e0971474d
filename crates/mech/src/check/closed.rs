//! Proofs against a closed-form Lagrange–d'Alembert derivation and its Hamiltonian, Dirac and
//! projected sides.

use std::collections::BTreeMap;

use cas::Expr;
use syntax::ast::{ExpectBlock, ExpectEntry, Span};
use syntax::Diagnostic;

use crate::dirac::Dirac;
use crate::hamiltonian::{Hamiltonian, Phase};
use crate::nonholonomic::derivative_along;
use crate::surface::Surface;
use crate::Derivation;

use super::keys::*;
use super::kinds::*;
use super::prove::*;
use super::quantity::*;

/// After deriving: every `expect` block about the Hamiltonian side needs that side to exist
/// (E0404 says why it does not).
pub fn validate_derived(d: &Derivation) -> syntax::Result<()> {
    let regular = d
        .system
        .expects
        .iter()
        .filter(|b| SINGULAR_KINDS.contains(&b.kind.name.as_str()))
        .map(|b| {
            Diagnostic::error(
                "E0403",
                format!(
                    "`expect {}` is about a singular Lagrangian, and this one is regular",
                    b.kind.name
                ),
                b.kind.span,
                "nothing to compare with",
            )
            .with_note("det W does not vanish: there is no constraint algorithm to run")
        });
    let errors: Vec<Diagnostic> = regular
        .chain(
            d.system
                .expects
                .iter()
                .filter(|b| {
                    PHASE_KINDS.contains(&b.kind.name.as_str()) || b.kind.name == "legendre"
                })
                .filter_map(|b| hamiltonian(d, b.kind.span).err())
                .flatten()
                .chain(
                    d.system
                        .expects
                        .iter()
                        .filter(|b| {
                            DIRAC_KINDS.contains(&b.kind.name.as_str())
                                || INDUCED_KINDS.contains(&b.kind.name.as_str())
                        })
                        .filter_map(|b| dirac_side(d, b).err())
                        .flatten(),
                ),
        )
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks every `expect` block of the derivation's system.
pub fn check(d: &Derivation) -> syntax::Result<Vec<Outcome>> {
    let surface = Surface::new(&d.system);
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for block in &d.system.expects {
        if let Err(e) = known_kind(block) {
            errors.extend(e);
            continue;
        }
        for entry in &block.entries {
            match check_entry(d, &surface, block, entry) {
                Ok(verdict) => outcomes.push(Outcome {
                    kind: block.kind.name.clone(),
                    key: entry_label(entry),
                    span: entry.span,
                    verdict,
                }),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(outcomes)
    } else {
        Err(errors)
    }
}

/// The Hamiltonian side of `d`, or E0404 at `span` saying why there is none.
pub(super) fn hamiltonian(d: &Derivation, span: Span) -> syntax::Result<&Hamiltonian> {
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

/// The Dirac side of `d` as `block` needs it (`frame_bracket` needs the frame only), or E0404.
pub(super) fn dirac_side<'a>(
    d: &'a Derivation,
    block: &ExpectBlock,
) -> syntax::Result<Option<&'a Dirac>> {
    let unavailable = |why: String| {
        vec![Diagnostic::error(
            "E0404",
            "the Dirac side of this system is not available",
            block.kind.span,
            "this expectation is about the Dirac side",
        )
        .with_note(why)]
    };
    if block.kind.name.starts_with("projected_")
        || block.kind.name.starts_with("induced_")
        || ["noether", "curvature", "section_jacobiator"].contains(&block.kind.name.as_str())
    {
        return d
            .projected
            .as_ref()
            .map(|_| None)
            .map_err(|why| unavailable(format!("the projected structure on D: {why}")));
    }
    if block.kind.name == "frame_bracket" {
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
    q: &Quantity,
    expected: &Expr,
) -> syntax::Result<Expr> {
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
    if let Quantity::FrameBracket(f, g) = q {
        let phase = Phase::new(system, Expr::zero(), vec![Expr::zero(); n]);
        let derived = phase.poisson(&f.subs(&to_p), &g.subs(&to_p));
        let difference = (derived - expected.subs(&to_p)).simplify();
        return Ok(difference.subs(&to_eta).simplify());
    }
    if let (Ok(projected), Quantity::Curvature(..) | Quantity::SectionJacobiator(..)) =
        (&d.projected, q)
    {
        return Ok(lie_difference(projected, q, expected, &to_p, &to_eta));
    }
    if let Some(projected) = d.projected.as_ref().ok().filter(|_| {
        matches!(
            q,
            Quantity::ProjectedBracket(..) | Quantity::ProjectedJacobiator(..)
        )
    }) {
        let dependent = d
            .dirac
            .as_ref()
            .map(|x| x.dependent.clone())
            .unwrap_or_default();
        let eta = |e: &Expr| e.subs(&to_eta).subs(&dependent);
        let derived = match q {
            Quantity::ProjectedBracket(f, g) => projected.bracket(system, &eta(f), &eta(g)),
            Quantity::ProjectedJacobiator(f, g, h) => {
                projected.jacobiator(system, &eta(f), &eta(g), &eta(h))
            }
            _ => unreachable!("a projected quantity"),
        };
        return Ok((derived - eta(expected)).subs(&dependent).simplify());
    }
    let dirac = d.dirac.as_ref().expect("checked by validate_derived");
    let eta = |e: &Expr| e.subs(&to_eta).subs(&dirac.dependent);
    let derived = match q {
        Quantity::DiracHamiltonian => {
            return Ok((dirac.hamiltonian.clone() - expected.subs(&to_eta)).simplify())
        }
        Quantity::DiracDependent(a) => dirac.dependent[&structure.momenta[*a]].clone(),
        Quantity::DiracRate(name) => match dirac.coordinates.iter().position(|c| c == name) {
            Some(k) => dirac.rates[k].clone(),
            None => {
                let a = structure.momenta.iter().position(|m| m == name);
                let k = structure.complement.iter().position(|&c| Some(c) == a);
                dirac.tangency[k.expect("keys are checked by `quantity`")].clone()
            }
        },
        Quantity::DiracBracket(f, g) => dirac.bracket(system, &eta(f), &eta(g)),
        Quantity::DiracJacobiator(f, g, h) => dirac.jacobiator(system, &eta(f), &eta(g), &eta(h)),
        _ => unreachable!("not a Dirac-side quantity"),
    };
    Ok((derived - eta(expected)).subs(&dirac.dependent).simplify())
}

/// The difference between the derived and the expected curvature (compared as functions of the
/// algebroid momenta, `⟨p, K⟩`) or section Jacobiator (as functions of the momenta of `D`).
pub(super) fn lie_difference(
    projected: &crate::projected::Projected,
    q: &Quantity,
    expected: &Expr,
    to_p: &BTreeMap<String, Expr>,
    to_eta: &BTreeMap<String, Expr>,
) -> Expr {
    let lie = &projected.lie;
    match *q {
        Quantity::Curvature(a, b) => {
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
        Quantity::SectionJacobiator(a, b, c) => {
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
        _ => unreachable!("a quantity of the Lie report"),
    }
}

pub(super) fn check_entry(
    d: &Derivation,
    surface: &Surface,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Verdict> {
    let expected = d.system.scope.convert(&entry.value, value_scope(block))?;
    // A first integral holds when its derivative along the dynamics vanishes; every other kind
    // compares a derived quantity with the expected value.
    let q = quantity(&d.system, block, entry)?;
    let difference = if let Quantity::NoetherIntegral(k) = q {
        dirac_side(d, block)?;
        let projected = d.projected.as_ref().expect("checked");
        let test = &projected.noether[k];
        if test.holds {
            (test.integral.clone() - expected.subs(&projected.induced.on_d)).simplify()
        } else {
            // Not a symmetry: the defect S (Killing + potential + gauge parts) is what differs.
            (test.killing.clone() + test.potential.clone() + test.gauge.clone()).simplify()
        }
    } else if matches!(q, Quantity::InducedLagrangian | Quantity::InducedRate(_)) {
        dirac_side(d, block)?;
        let induced = &d.projected.as_ref().expect("checked").induced;
        let derived = match &q {
            Quantity::InducedLagrangian => induced.lagrangian.clone(),
            Quantity::InducedRate(name) => {
                let k = induced.state.iter().position(|s| s == name);
                induced.rates[k.expect("keys are checked by `quantity`")].clone()
            }
            _ => unreachable!("an induced quantity"),
        };
        (derived - expected.subs(&induced.on_d)).simplify()
    } else if q.on_frame() {
        dirac_side(d, block)?;
        frame_difference(d, &q, &expected)?
    } else if q.on_dual() {
        let h = hamiltonian(d, entry.span)?;
        h.restrict(&(dual_value(d, h, &q) - expected))
    } else {
        let difference = match q {
            Quantity::FirstIntegral => derivative_along(&d.system, d.fibre_rhs(), &expected),
            q => value(d, q) - expected,
        };
        surface.restrict(&difference)
    };
    Ok(if difference.vanishes() {
        Verdict::Holds
    } else {
        Verdict::Differs(difference)
    })
}

/// The derived value of a quantity (never a first integral, whose entry holds its own value).
pub(super) fn value(d: &Derivation, q: Quantity) -> Expr {
    let nh = || {
        d.nonholonomic
            .as_ref()
            .expect("keys that need constraints were refused by `quantity`")
    };
    match q {
        Quantity::Rate { state, free } => {
            let coordinates = d.system.coordinates.len();
            if free && state >= coordinates {
                d.free_rhs[state - coordinates].clone()
            } else {
                d.equations[state].rhs.clone()
            }
        }
        Quantity::Multiplier(a) => d.multipliers()[a].clone(),
        Quantity::Energy => d.lagrangian.energy.clone(),
        Quantity::EnergyRate => d.energy_rate.clone(),
        Quantity::Hessian(a, b) => d.lagrangian.hessian[a][b].clone(),
        Quantity::ConstraintMatrix(a, b) => nh().matrix[a][b].clone(),
        Quantity::Theta(i) => d.lagrangian.theta[i].clone(),
        Quantity::Omega(i, j) => d.lagrangian.omega[i][j].clone(),
        Quantity::Dpsi(a, i) => nh().dpsi[a][i].clone(),
        Quantity::Projector(i, j) => nh().projector[i][j].clone(),
        Quantity::Legendre(a) => d.lagrangian.momenta[a].clone(),
        Quantity::FirstIntegral => unreachable!("a first integral is its entry's own value"),
        _ => unreachable!("quantities on the dual are read by `dual_value`"),
    }
}

/// The derived value of a quantity on the dual.
pub(super) fn dual_value(d: &Derivation, h: &Hamiltonian, q: &Quantity) -> Expr {
    let system = &d.system;
    let constrained = || {
        h.constrained
            .as_ref()
            .expect("keys that need constraints were refused by `quantity`")
    };
    match q {
        Quantity::Hamiltonian => h.hamiltonian.clone(),
        Quantity::PhaseRate(k) => {
            let state = crate::hamiltonian::phase_state(system);
            h.dynamics(system, &Expr::symbol(&state[*k]))
        }
        Quantity::DualConstraint(a) => constrained().psi[*a].clone(),
        Quantity::DualConstraintMatrix(a, b) => constrained().matrix[*a][*b].clone(),
        Quantity::DualMultiplier(a) => constrained().multipliers[*a].clone(),
        Quantity::Bracket(f, g) => h.bracket(system, f, g),
        Quantity::Jacobiator(f, g, k) => h.jacobiator(system, f, g, k),
        _ => unreachable!("not a quantity on the dual"),
    }
}
