//! The checks before a reduction: what is supported, that the generators are an action on a
//! chart `Q = S × G`, that the frame of the orbits is invariant, and that the Lagrangian and the
//! constraints are invariant (each failure a located diagnostic naming what fails).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Span};
use model::group::GroupAction;
use model::System;

use super::symmetry::{self, NotAnAction};

/// The diagnostics' code for an action that does not reduce the system.
const ACTION: Code = Code::E0281;
/// The code for a Lagrangian or constraint that is not invariant.
const INVARIANCE: Code = Code::E0282;
/// The code for what the reduction does not handle yet.
const UNSUPPORTED: Code = Code::E0285;

/// What the reduction handles today: a Lagrangian system with nonholonomic constraints, no
/// forces, no vakonomic constraints, no contact variable (E0285 names the rest).
pub(super) fn supported(system: &System, at: Span) -> diagnostic::Result<()> {
    let refuse = |what: &str, note: &str| {
        Err(vec![Diagnostic::error(
            UNSUPPORTED,
            format!("reduction by symmetry does not handle {what} yet"),
            at,
            "the symmetry is declared here",
        )
        .with_note(note.to_string())])
    };
    if !system.vakonomic.is_empty() {
        return refuse(
            "vakonomic constraints",
            "reduce the nonholonomic or free system",
        );
    }
    if system.action.is_some() {
        return refuse(
            "contact (Herglotz) systems",
            "the action variable is not moved by the group, but its reduction is not implemented",
        );
    }
    if !system.holonomic().is_empty() {
        return refuse("holonomic constraints", "choose coordinates on the constraint surface, or write the constraints at velocity level");
    }
    Ok(())
}

/// The generators move no shape coordinate and do not depend on one (so that `∂/∂s` commutes
/// with them and the chart is `S × G`).
pub(super) fn stays_on_orbits(
    system: &System,
    generators: &[Vec<Expr>],
    shape: &[usize],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<()> {
    let shape_keys: Vec<String> = shape
        .iter()
        .map(|&i| system.key(system.coordinates[i]))
        .collect();
    for (a, xi) in generators.iter().enumerate() {
        if let Some(&i) = shape.iter().find(|&&i| !xi[i].is_zero()) {
            let q = system.spec_name(system.coordinates[i]);
            return Err(vec![Diagnostic::error(
                ACTION,
                format!(
                    "the generator `{}` moves `{q}`, which is not after `on`",
                    names[a]
                ),
                spans[a],
                format!("has a `d/d{q}` component"),
            )
            .with_help(format!("list `{q}` after `on`: the group moves it"))]);
        }
        if let Some(s) = shape_keys
            .iter()
            .find(|s| xi.iter().any(|c| c.depends_on(s)))
        {
            let q = system.spec_name(system.handle(s));
            return Err(vec![Diagnostic::error(
                ACTION,
                format!(
                    "the generator `{}` depends on the shape coordinate `{q}`",
                    names[a]
                ),
                spans[a],
                "expected components that depend on the moved coordinates only",
            )
            .with_note(
                "on a chart Q = S × G the action does not depend on the point of S",
            )]);
        }
    }
    Ok(())
}

/// The diagnostic for generators that are not an action.
pub(super) fn not_an_action(
    why: NotAnAction,
    spans: &[Span],
    names: &[String],
    field: &dyn Fn(&[Expr]) -> String,
) -> Diagnostic {
    match why {
        NotAnAction::Dependent { rank } => Diagnostic::error(
            ACTION,
            format!("the generators are dependent (rank {rank} for {})", names.len()),
            spans[0].join(spans[spans.len() - 1]),
            "the action is not free on this chart",
        )
        .with_note("each generator must move the configuration in a direction of its own"),
        NotAnAction::NotClosed { a, b, bracket } => Diagnostic::error(
            ACTION,
            format!(
                "the generators do not close: [{}, {}] = {} is not a combination of them",
                names[a],
                names[b],
                field(&bracket)
            ),
            spans[b],
            format!("bracket with `{}` leaves the span of the generators", names[a]),
        )
        .with_secondary(spans[a], "the other generator")
        .with_note("the infinitesimal generators of a group action satisfy [ξ_a, ξ_b] = c^d_ab ξ_d with constant c"),
        NotAnAction::NotConstant { a, b, coefficients } => Diagnostic::error(
            ACTION,
            format!(
                "the generators do not close with constant coefficients: [{}, {}] = {}",
                names[a],
                names[b],
                names
                    .iter()
                    .zip(&coefficients)
                    .filter(|(_, c)| !c.is_zero())
                    .map(|(n, c)| format!("({})*{n}", cas::print::spec(c, &cas::print::Keys)))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            spans[b],
            "the structure coefficients depend on the point",
        )
        .with_secondary(spans[a], "the other generator")
        .with_note("the generators of a Lie group action close with constant structure constants"),
    }
}

/// The invariant frame of the orbits: the named groups' own, and for generators given one by one
/// the generators themselves, which must commute with each other and with the other groups.
pub(super) fn invariant_frame(
    groups: &[GroupAction],
    constants: &[Vec<Vec<Expr>>],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<Vec<Vec<Expr>>> {
    let mut frame = Vec::new();
    let mut offset = 0;
    let owner: Vec<usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| std::iter::repeat_n(g, group.generators.len()))
        .collect();
    for (a, row) in constants.iter().enumerate() {
        for (b, value) in row.iter().enumerate() {
            let crosses = owner[a] != owner[b];
            let given = groups[owner[a]].frame.is_none();
            if (crosses || given) && value.iter().any(|c| !c.is_zero()) && a < b {
                let message = if crosses {
                    format!(
                        "`{}` and `{}` belong to different groups but do not commute",
                        names[a], names[b]
                    )
                } else {
                    format!(
                        "the generators `{}` and `{}` do not commute",
                        names[a], names[b]
                    )
                };
                return Err(vec![Diagnostic::error(ACTION, message, spans[b], "its bracket with the other is not zero")
                    .with_secondary(spans[a], "the other generator")
                    .with_note(if crosses {
                        "several `symmetry … on …` items declare a direct product: their generators must commute"
                    } else {
                        "for generators given one by one the reduced frame is the generators themselves, which is invariant only when they commute; a non-abelian group is declared by name (SE2, SO3)"
                    })]);
            }
        }
    }
    for group in groups {
        let n = group.generators.len();
        frame.extend(
            group
                .frame
                .clone()
                .unwrap_or_else(|| group.generators.clone()),
        );
        offset += n;
    }
    debug_assert_eq!(offset, frame.len());
    Ok(frame)
}

/// `ξ^C_a(L) = 0` and `ξ^C_a(Ψ) = 0` for every generator and constraint, or the first defect,
/// named.
pub(super) fn invariant(
    system: &System,
    generators: &[Vec<Expr>],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<()> {
    let coordinates = &system.keys(&system.coordinates);
    let velocities = &system.keys(&system.algebroid.velocities);
    let mut candidates: Vec<(&Expr, Span, String)> = vec![(
        &system.lagrangian,
        system.lagrangian_span,
        "the Lagrangian".to_string(),
    )];
    for (k, c) in system.constraints.iter().enumerate() {
        candidates.push((&c.psi, c.span, format!("constraint {}", k + 1)));
    }
    for (f, at, what) in candidates {
        for (a, xi) in generators.iter().enumerate() {
            let defect = symmetry::complete_lift(coordinates, velocities, xi, f);
            if defect.vanishes() {
                continue;
            }
            let shown = cas::print::spec(&defect.simplify(), system);
            return Err(vec![Diagnostic::error(
                INVARIANCE,
                format!("{what} is not invariant under `{}`", names[a]),
                at,
                format!("its derivative along the lifted generator is {shown}"),
            )
            .with_secondary(spans[a], "the generator")
            .with_note("a symmetry leaves L and the constraints unchanged: ξ^C(L) = 0 and ξ^C(Ψ) = 0 for the complete lift ξ^C = ξ^i ∂_i + (∂_j ξ^i) q̇^j ∂/∂q̇^i; the terms shown are those the group changes")]);
        }
    }
    Ok(())
}

/// The force one-form `F = F_j dq^j` (on `TQ`, through its velocities) is invariant:
/// `(L_{ξ^C} F)_j = ξ^C(F_j) + F_i ∂_j ξ^i = 0` for every generator, or the first defect, named.
pub(super) fn invariant_forces(
    system: &System,
    generators: &[Vec<Expr>],
    spans: &[Span],
    names: &[String],
    at: Span,
) -> diagnostic::Result<()> {
    let coordinates = &system.keys(&system.coordinates);
    let velocities = &system.keys(&system.algebroid.velocities);
    let forces = &system.forces;
    for (a, xi) in generators.iter().enumerate() {
        for (j, qj) in coordinates.iter().enumerate() {
            let lifted = symmetry::complete_lift(coordinates, velocities, xi, &forces[j]);
            let twist = Expr::sum(forces.iter().zip(xi).map(|(f, c)| f * &c.diff(qj)));
            let defect = lifted + twist;
            if defect.vanishes() {
                continue;
            }
            let shown = cas::print::spec(&defect.simplify(), system);
            return Err(vec![Diagnostic::error(
                INVARIANCE,
                format!("the forces are not invariant under `{}`", names[a]),
                at,
                format!("the Lie derivative of the force one-form along the lifted generator has the component {shown} on d/d{}", system.spec_name(system.handle(qj))),
            )
            .with_secondary(spans[a], "the generator")
            .with_note("a symmetry of a forced system leaves the force one-form F = F_j dq^j unchanged: ξ^C(F_j) + F_i ∂_j ξ^i = 0")]);
        }
    }
    Ok(())
}
