//! Reduction of a system already written on an algebroid whose sections are invariant under the
//! group: a `spherical` or `free` joint (whose velocities are the body angular and linear
//! velocities, the left-trivialised ones), or an `algebroid {}` block written in a body frame.
//!
//! Let `G` act on `Q` with generators `ξ_a`, and let the spec's algebroid `A → Q` have sections
//! `e_α` with anchors `ρ_α` and structure functions `C^γ_αβ`. Declaring the sections invariant
//! defines the action on `A` (`g·(q, y) = (g·q, y)`); it is an action by Lie algebroid
//! automorphisms exactly when
//!
//! - every anchor is an invariant vector field, `[ξ_a, ρ_α] = 0`, and
//! - every structure function is invariant, `ξ_a(C^γ_αβ) = 0`,
//!
//! and the Lagrangian system is invariant when `ξ_a(L) = 0`, `ξ_a(Ψ) = 0` and `ξ_a(F_α) = 0`,
//! derivatives along `ξ_a` at fixed `y` (Cendra, Marsden and Ratiu, "Lagrangian reduction by
//! stages", Mem. AMS 152 (2001), for the Atiyah algebroid; the quotient `A/G → Q/G` of a Lie
//! algebroid by such an action is again one). The reduced algebroid keeps the sections: its
//! anchors are the shape components of `ρ_α`, its brackets the `C^γ_αβ`, and `L`, `Ψ`, `F`
//! are read at the identity of the moved coordinates. No connection is chosen: the sections split
//! `A` already (for a `free` base with more joints, the joints' own velocities are horizontal).
//!
//! A quaternion chart has one coordinate more than `SO(3)`: its orbits are the spheres
//! `|q| = const`. There the reduction also needs `|q|` to stay where it is and nothing to depend
//! on it: no anchor has a component along the Euler field `ζ = q^i ∂_{q^i}` (`q·ρ_α = 0`, the
//! field `ζ` being normal to the spheres) and `ζ` annihilates every function above (the multibody
//! front end writes rotations as `H(q)/|q|²`, homogeneous of degree zero).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Span};
use model::System;
use report::{Connection, Reduction};

use super::checks::{not_an_action, stays_on_orbits, supported};
use super::symmetry;
use super::{at_identity, identity_map, vector_field};

/// The code for data that the group changes.
const INVARIANCE: Code = Code::E0282;

/// The reduction of a system on invariant sections (see the module documentation).
pub(super) fn reduce(system: &System) -> diagnostic::Result<Reduction> {
    let groups = &system.groups;
    let first = groups.first().expect("a declared group");
    supported(system, first.span)?;
    not_affine(system, first.span)?;
    let coordinates = &system.keys(&system.coordinates);
    let shape = system.shape_indices();
    let generators: Vec<Vec<Expr>> = groups.iter().flat_map(|g| g.generators.clone()).collect();
    let spans: Vec<Span> = groups
        .iter()
        .flat_map(|g| g.generator_spans.clone())
        .collect();
    let names: Vec<String> = groups
        .iter()
        .flat_map(|g| g.generator_names.clone())
        .collect();
    let print = |e: &Expr| cas::print::spec(e, system);
    let field = |v: &[Expr]| vector_field(v, coordinates, &print);
    stays_on_orbits(system, &generators, &shape, &spans, &names)?;
    let closure = symmetry::closure(coordinates, &generators)
        .map_err(|why| vec![not_an_action(why, &spans, &names, &field)])?;
    products_commute(system, &closure.constants, &spans, &names)?;

    let along: Vec<(Vec<Expr>, Span, String)> = generators
        .iter()
        .zip(&spans)
        .zip(&names)
        .map(|((xi, s), n)| (xi.clone(), *s, format!("`{n}`")))
        .chain(groups.iter().flat_map(|g| {
            g.transversal
                .iter()
                .map(move |z| (z.clone(), g.span, "the growth of |q|".to_string()))
        }))
        .collect();
    invariant_anchors(system, &along)?;
    transversal_free(system)?;
    invariant_functions(system, &along)?;

    let identity = identity_map(system, groups);
    let algebroid = &system.algebroid;
    let frame: Vec<Vec<Expr>> = algebroid.anchors.iter().map(|a| a[1..].to_vec()).collect();
    let anchors = frame
        .iter()
        .map(|x| {
            shape
                .iter()
                .map(|&i| at_identity(&x[i], &identity))
                .collect()
        })
        .collect();
    let brackets = algebroid
        .c
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.iter().map(|e| at_identity(e, &identity)).collect())
                .collect()
        })
        .collect();
    let moved: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.moved.iter().copied())
        .collect();
    Ok(Reduction {
        routh: None,
        momentum_equations: Vec::new(),
        group: groups
            .iter()
            .map(|g| g.name.clone())
            .collect::<Vec<_>>()
            .join(" × "),
        shape: shape.iter().map(|&i| coordinates[i].clone()).collect(),
        moved: moved.iter().map(|&i| coordinates[i].clone()).collect(),
        algebra: closure.left_algebra(),
        connection: Connection::Sections,
        connection_form: Vec::new(),
        curvature: Vec::new(),
        sections: algebroid.sections.clone(),
        velocities: system.keys(&algebroid.velocities),
        momenta: system.keys(&algebroid.momenta),
        anchors,
        brackets,
        lagrangian: at_identity(&system.lagrangian, &identity),
        forces: system
            .forces
            .iter()
            .map(|f| at_identity(f, &identity))
            .collect(),
        constraints: system
            .constraints
            .iter()
            .map(|c| at_identity(&c.psi, &identity))
            .collect(),
        frame,
    })
}

/// A Lie affgebroid (a time-dependent anchor `ρ_0` or `C_0`) is not reduced on its sections yet.
fn not_affine(system: &System, at: Span) -> diagnostic::Result<()> {
    let a = &system.algebroid;
    if a.anchor0[1..].iter().all(Expr::is_zero) && a.c0.iter().flatten().all(Expr::is_zero) {
        return Ok(());
    }
    Err(vec![Diagnostic::error(
        Code::E0285,
        "reduction by symmetry does not handle an affgebroid written on its sections yet",
        at,
        "the symmetry is declared here",
    )
    .with_note("the system has a time-dependent part (ρ_0 or C_0); write it on `algebroid tangent` to reduce it")])
}

/// Generators of different groups of a product commute (a direct product).
fn products_commute(
    system: &System,
    constants: &[Vec<Vec<Expr>>],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<()> {
    let owner: Vec<usize> = system
        .groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| std::iter::repeat_n(g, group.generators.len()))
        .collect();
    for (a, row) in constants.iter().enumerate() {
        for (b, value) in row.iter().enumerate().skip(a + 1) {
            if owner[a] != owner[b] && value.iter().any(|c| !c.is_zero()) {
                return Err(vec![Diagnostic::error(
                    Code::E0281,
                    format!(
                        "`{}` and `{}` belong to different groups but do not commute",
                        names[a], names[b]
                    ),
                    spans[b],
                    "its bracket with the other is not zero",
                )
                .with_secondary(spans[a], "the other generator")
                .with_note("several `symmetry … on …` items declare a direct product: their generators must commute")]);
            }
        }
    }
    Ok(())
}

/// `[ξ, ρ_α] = 0` for every generator (and transversal field) and every section.
fn invariant_anchors(
    system: &System,
    along: &[(Vec<Expr>, Span, String)],
) -> diagnostic::Result<()> {
    let coordinates = &system.keys(&system.coordinates);
    let a = &system.algebroid;
    for (alpha, rho) in a.anchors.iter().enumerate() {
        for (xi, span, name) in along {
            let bracket = symmetry::lie_bracket(coordinates, xi, &rho[1..]);
            let time = derivative(coordinates, xi, &rho[0]);
            if bracket.iter().all(Expr::vanishes) && time.vanishes() {
                continue;
            }
            let print = |e: &Expr| cas::print::spec(&e.simplify(), system);
            let shown = super::vector_field(&bracket, coordinates, &print);
            return Err(vec![Diagnostic::error(
                INVARIANCE,
                format!(
                    "the anchor of `{}` is not invariant under {name}",
                    system.spec_name(system.handle(&a.sections[alpha]))
                ),
                *span,
                format!("its bracket with the anchor is {shown}"),
            )
            .with_note("on an algebroid the group is reduced on the spec's sections, which must be invariant: [ξ, ρ(e)] = 0 for every generator ξ and section e (for a joint, body-frame velocities are; world-frame ones are not)")]);
        }
    }
    Ok(())
}

/// No anchor moves `|q|` (`q·ρ_α = 0` over a quaternion's coordinates).
fn transversal_free(system: &System) -> diagnostic::Result<()> {
    let a = &system.algebroid;
    for group in &system.groups {
        for zeta in &group.transversal {
            for (alpha, rho) in a.anchors.iter().enumerate() {
                let normal = Expr::sum(zeta.iter().zip(&rho[1..]).map(|(z, r)| z * r));
                if normal.vanishes() {
                    continue;
                }
                return Err(vec![Diagnostic::error(
                    INVARIANCE,
                    format!(
                        "the anchor of `{}` changes |q|",
                        system.spec_name(system.handle(&a.sections[alpha]))
                    ),
                    group.span,
                    format!(
                        "q·ρ = {}, not 0",
                        cas::print::spec(&normal.simplify(), system)
                    ),
                )
                .with_note("a quaternion's orbits under SO(3) are the spheres |q| = const: the anchors must be tangent to them, as q' = 1/2 q ⊗ (0, ω) is")]);
            }
        }
    }
    Ok(())
}

/// `ξ(f) = 0` at fixed velocities for the structure functions, the Lagrangian, the constraints
/// and the forces.
fn invariant_functions(
    system: &System,
    along: &[(Vec<Expr>, Span, String)],
) -> diagnostic::Result<()> {
    let coordinates = &system.keys(&system.coordinates);
    let a = &system.algebroid;
    let mut candidates: Vec<(&Expr, Span, String)> = vec![(
        &system.lagrangian,
        system.lagrangian_span,
        "the Lagrangian".to_string(),
    )];
    for (k, c) in system.constraints.iter().enumerate() {
        candidates.push((&c.psi, c.span, format!("constraint {}", k + 1)));
    }
    let first = system.groups[0].span;
    for (e, f) in a.sections.iter().zip(&system.forces) {
        candidates.push((
            f,
            first,
            format!("the force on `{}`", system.spec_name(system.handle(e))),
        ));
    }
    let n = a.sections.len();
    for al in 0..n {
        for be in al + 1..n {
            for g in 0..n {
                candidates.push((
                    &a.c[al][be][g],
                    first,
                    format!(
                        "the structure function C^{}_{}{}",
                        system.spec_name(system.handle(&a.sections[g])),
                        system.spec_name(system.handle(&a.sections[al])),
                        system.spec_name(system.handle(&a.sections[be]))
                    ),
                ));
            }
        }
    }
    for (f, at, what) in candidates {
        for (xi, span, name) in along {
            let defect = derivative(coordinates, xi, f);
            if defect.vanishes() {
                continue;
            }
            let shown = cas::print::spec(&defect.simplify(), system);
            let mut d = Diagnostic::error(
                INVARIANCE,
                format!("{what} is not invariant under {name}"),
                at,
                format!("its derivative along the generator is {shown}"),
            )
            .with_note("on invariant sections a symmetry leaves L, the constraints, the forces and the brackets unchanged at fixed velocities: ξ(f) = ξ^i ∂f/∂q^i = 0; the terms shown are those the group changes");
            if at != *span {
                d = d.with_secondary(*span, "the group");
            }
            return Err(vec![d]);
        }
    }
    Ok(())
}

/// `ξ(f) = ξ^i ∂f/∂q^i`.
fn derivative(coordinates: &[String], xi: &[Expr], f: &Expr) -> Expr {
    Expr::sum(
        coordinates
            .iter()
            .zip(xi)
            .filter(|(_, c)| !c.is_zero())
            .map(|(q, c)| c * &f.diff(q)),
    )
}
