//! Reduction by symmetry: from a Lagrangian system on `TQ` and a Lie group `G` acting freely on
//! `Q`, the reduced system on the Atiyah algebroid `TQ/G → Q/G` (Cendra, Marsden and Ratiu,
//! "Lagrangian reduction by stages", Mem. AMS 152 (2001); for nonholonomic constraints Bloch,
//! Krishnaprasad, Marsden and Murray, Arch. Rational Mech. Anal. 136 (1996)). [IMMS07] §VII names
//! this step as the one that produces the algebroids its examples start from (§VI.3, the ball on
//! the turntable; [GLMM09] Ex. 6.1, the sleigh on se(2)); the reduced system is then derived by
//! every route of [IMMS07] §III–IV like any other system on an algebroid.
//!
//! # The construction
//!
//! On a chart `Q = S × G` (shape coordinates `s^i`, moved coordinates `g`), with the generators
//! `ξ_a` of the action and an invariant frame `η_b` of the orbits ([`model::group`]):
//!
//! 1. **The action.** The generators close with constant structure constants
//!    ([`symmetry::closure`]); given generators must commute (then `η = ξ`); the generators touch
//!    no shape coordinate. The Lagrangian and every constraint are invariant: `ξ^C_a(L) = 0`,
//!    `ξ^C_a(Ψ) = 0` for the complete lifts ([`symmetry::complete_lift`]).
//! 2. **The connection.** Horizontal lifts of the shape directions
//!    `h_i = ∂_{s^i} − A^b_i η_b`. The mechanical connection takes `A = 𝕀⁻¹ K` with the locked
//!    inertia `𝕀_ab = g(η_a, η_b)` and `K_bi = g(η_b, ∂_{s^i})`, `g` the Hessian of `L` in the
//!    velocities (the kinetic-energy metric), so that `h_i` is `g`-orthogonal to the orbits; the
//!    chart connection takes `A = 0`.
//! 3. **The frame.** `X = (h_1 … h_k, η_1 … η_r)` is a frame of `TQ` by invariant vector fields:
//!    every `[X_α, ξ_a]` vanishes (checked). Fibre coordinates `y^α` in it,
//!    `q̇ = y^α X_α(q)`, are invariant functions on `TQ`: the shape velocities `ṡ^i` and the
//!    *locked* body velocities.
//! 4. **The reduced data.** `[X_α, X_β] = C^γ_αβ X_γ` with invariant `C^γ_αβ`, read at the
//!    identity of the moved coordinates: the Lie algebra of the invariant frame, the curvature
//!    `[h_i, h_j] = −B^b_ij η_b` and the connection's derivative `[h_i, η_b]`. The anchor maps
//!    `h_i` to `∂_{s^i}` and `η_b` to zero. The reduced Lagrangian and constraints are `L` and `Ψ`
//!    with `q̇ = y^α X_α`, read at the identity (they are invariant, so this forgets nothing).
//!
//! The result is a Lie algebroid over `S` in the conventions of `docs/conventions.md`: a system
//! that the rest of dalembert derives from the text `dalembert reduce` writes (the round trip).

use cas::Expr;
use diagnostic::{Diagnostic, Span};
use model::group::{ConnectionChoice, GroupAction};
use model::System;

use report::{Connection, Reduction, Routh};

use crate::symmetry::{self, NotAnAction};

/// The diagnostics' code for an action that does not reduce the system.
const ACTION: &str = "E0281";
/// The code for a Lagrangian or constraint that is not invariant.
const INVARIANCE: &str = "E0282";
/// The code for a connection that cannot be built.
const CONNECTION: &str = "E0283";
/// The code for a Routh reduction that cannot be made.
const ROUTH: &str = "E0284";
/// The code for what the reduction does not handle yet.
const UNSUPPORTED: &str = "E0285";

/// Reduces `system` by the product of its declared groups (`system.groups`, not empty).
pub fn reduce(system: &System) -> diagnostic::Result<Reduction> {
    let groups = &system.groups;
    let first = groups.first().expect("a declared group");
    supported(system, first.span)?;
    let coordinates = &system.coordinates;
    let velocities = &system.algebroid.velocities;
    let moved: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.moved.iter().copied())
        .collect();
    let shape: Vec<usize> = (0..coordinates.len())
        .filter(|i| !moved.contains(i))
        .collect();
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
    let eta = invariant_frame(groups, &closure.constants, &spans, &names)?;
    invariant(system, &generators, &spans, &names)?;

    let identity = identity_map(system, groups);
    let metric = kinetic_metric(system, first.span)?;
    let a = connection_form(system, groups, &eta, &shape, metric.as_ref(), &identity)?;
    let mut frame: Vec<Vec<Expr>> = Vec::new();
    for (k, &i) in shape.iter().enumerate() {
        let mut h = vec![Expr::zero(); coordinates.len()];
        h[i] = Expr::one();
        for (b, eta_b) in eta.iter().enumerate() {
            for (j, c) in eta_b.iter().enumerate() {
                h[j] = (&h[j] - &(&a[k][b] * c)).simplify();
            }
        }
        frame.push(h);
    }
    frame.extend(eta.iter().cloned());
    commutes_with_generators(&frame, &generators, coordinates, first.span)?;
    let brackets = structure_functions(&frame, coordinates, &identity, first.span)?;

    let (sections, reduced_velocities) = reduced_names(system, groups, &shape);
    let substitution = velocity_substitution(&frame, velocities, &reduced_velocities);
    let reduce_function = |f: &Expr| f.subs(&substitution).subs(&identity).simplify();
    let k = shape.len();
    let curvature = (0..k)
        .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
        .map(|(i, j)| {
            let b = (0..eta.len())
                .map(|c| (-&brackets[i][j][k + c]).simplify())
                .collect();
            (i, j, b)
        })
        .collect();
    let anchors = frame
        .iter()
        .map(|x| {
            shape
                .iter()
                .map(|&i| x[i].subs(&identity).simplify())
                .collect()
        })
        .collect();
    let group_momenta: Vec<String> = groups.iter().flat_map(|g| g.momenta.clone()).collect();
    let momenta = if group_momenta.is_empty() {
        Vec::new()
    } else {
        shape
            .iter()
            .map(|&i| system.algebroid.momenta[i].clone())
            .chain(group_momenta)
            .collect()
    };
    let routh = routh(system, &generators, &shape)?;
    Ok(Reduction {
        routh,
        group: groups
            .iter()
            .map(|g| g.name.clone())
            .collect::<Vec<_>>()
            .join(" × "),
        shape: shape.iter().map(|&i| coordinates[i].clone()).collect(),
        moved: moved.iter().map(|&i| coordinates[i].clone()).collect(),
        algebra: closure.left_algebra(),
        connection: match first.connection {
            ConnectionChoice::Mechanical => Connection::Mechanical,
            ConnectionChoice::Chart => Connection::Chart,
        },
        connection_form: a,
        curvature,
        sections,
        velocities: reduced_velocities,
        momenta,
        anchors,
        brackets,
        lagrangian: reduce_function(&system.lagrangian),
        constraints: system
            .constraints
            .iter()
            .map(|c| reduce_function(&c.psi))
            .collect(),
        frame,
    })
}

/// What the reduction handles today: a Lagrangian system with nonholonomic constraints, no
/// forces, no vakonomic constraints, no contact variable (E0285 names the rest).
fn supported(system: &System, at: Span) -> diagnostic::Result<()> {
    let refuse = |what: &str, note: &str| {
        Err(vec![Diagnostic::error(
            UNSUPPORTED,
            format!("reduction by symmetry does not handle {what} yet"),
            at,
            "the symmetry is declared here",
        )
        .with_note(note.to_string())])
    };
    if system.forces.iter().any(|f| !f.is_zero()) {
        return refuse("external forces", "the reduced forces need the invariance of the force one-form: derive the reduced system without them, or write them on the reduced spec");
    }
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
fn stays_on_orbits(
    system: &System,
    generators: &[Vec<Expr>],
    shape: &[usize],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<()> {
    let shape_keys: Vec<String> = shape
        .iter()
        .map(|&i| system.coordinates[i].clone())
        .collect();
    for (a, xi) in generators.iter().enumerate() {
        if let Some(&i) = shape.iter().find(|&&i| !xi[i].is_zero()) {
            let q = system.spec_name(&system.coordinates[i]);
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
            let q = system.spec_name(s);
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
fn not_an_action(
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
fn invariant_frame(
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
fn invariant(
    system: &System,
    generators: &[Vec<Expr>],
    spans: &[Span],
    names: &[String],
) -> diagnostic::Result<()> {
    let coordinates = &system.coordinates;
    let velocities = &system.algebroid.velocities;
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

/// The moved coordinates at the identity of the group.
fn identity_map(
    system: &System,
    groups: &[GroupAction],
) -> std::collections::BTreeMap<String, Expr> {
    groups
        .iter()
        .flat_map(|g| {
            g.moved
                .iter()
                .zip(&g.identity)
                .map(|(&i, v)| (system.coordinates[i].clone(), v.clone()))
        })
        .collect()
}

/// The kinetic-energy metric `g_ij = ∂²L/∂q̇^i∂q̇^j`, or `None` when the mechanical connection is
/// not asked for.
fn kinetic_metric(system: &System, at: Span) -> diagnostic::Result<Option<Vec<Vec<Expr>>>> {
    if system
        .groups
        .iter()
        .all(|g| g.connection == ConnectionChoice::Chart)
    {
        return Ok(None);
    }
    let v = &system.algebroid.velocities;
    let g: Vec<Vec<Expr>> = v
        .iter()
        .map(|vi| {
            let first = system.lagrangian.diff(vi);
            v.iter().map(|vj| first.diff(vj).simplify()).collect()
        })
        .collect();
    if g.iter().flatten().any(|e| e.depends_on_any(v)) {
        return Err(vec![Diagnostic::error(
            CONNECTION,
            "the mechanical connection needs a Lagrangian quadratic in the velocities",
            system.lagrangian_span,
            "its Hessian in the velocities depends on them",
        )
        .with_secondary(at, "the symmetry")
        .with_help("add `connection chart` to the symmetry's block")]);
    }
    Ok(Some(g))
}

/// `A^b_i` for each shape coordinate: `𝕀⁻¹ K` for the mechanical connection, zero for the chart's.
fn connection_form(
    system: &System,
    groups: &[GroupAction],
    eta: &[Vec<Expr>],
    shape: &[usize],
    metric: Option<&Vec<Vec<Expr>>>,
    identity: &std::collections::BTreeMap<String, Expr>,
) -> diagnostic::Result<Vec<Vec<Expr>>> {
    let r = eta.len();
    let zero = vec![vec![Expr::zero(); r]; shape.len()];
    let (Some(g), false) = (metric, shape.is_empty()) else {
        return Ok(zero);
    };
    let n = system.coordinates.len();
    let pair = |x: &[Expr], y: &[Expr]| {
        Expr::sum(
            (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| &(&x[i] * &g[i][j]) * &y[j]),
        )
        .subs(identity)
        .simplify()
    };
    let locked: Vec<Vec<Expr>> = eta
        .iter()
        .map(|a| eta.iter().map(|b| pair(a, b)).collect())
        .collect();
    let coupling: Vec<Vec<Expr>> = eta
        .iter()
        .map(|b| {
            shape
                .iter()
                .map(|&i| {
                    let mut d = vec![Expr::zero(); n];
                    d[i] = Expr::one();
                    pair(b, &d)
                })
                .collect()
        })
        .collect();
    let solved = cas::solve(&locked, &coupling).map_err(|singular| {
        vec![Diagnostic::error(
            CONNECTION,
            "the locked inertia tensor is singular: the mechanical connection does not exist",
            groups[0].span,
            format!("det 𝕀 = {}", cas::print::spec(&singular.det, system)),
        )
        .with_help("add `connection chart` to the symmetry's block")]
    })?;
    // solved[b][i] = A^b_i; keep only what depends on the connection choice of its group.
    let mechanical: Vec<bool> = groups
        .iter()
        .flat_map(|g| {
            std::iter::repeat_n(
                g.connection == ConnectionChoice::Mechanical,
                g.generators.len(),
            )
        })
        .collect();
    Ok((0..shape.len())
        .map(|i| {
            (0..r)
                .map(|b| {
                    if mechanical[b] {
                        solved[b][i].simplify()
                    } else {
                        Expr::zero()
                    }
                })
                .collect()
        })
        .collect())
}

/// Every field of the frame commutes with every generator (the frame is invariant); a failure
/// is a defect of dalembert's named groups, reported as such.
fn commutes_with_generators(
    frame: &[Vec<Expr>],
    generators: &[Vec<Expr>],
    coordinates: &[String],
    at: Span,
) -> diagnostic::Result<()> {
    for (alpha, x) in frame.iter().enumerate() {
        for (a, xi) in generators.iter().enumerate() {
            let bracket = symmetry::lie_bracket(coordinates, x, xi);
            if !bracket.iter().all(Expr::vanishes) {
                return Err(vec![internal(
                    format!(
                        "the reduced frame's field {} does not commute with generator {}",
                        alpha + 1,
                        a + 1
                    ),
                    at,
                )]);
            }
        }
    }
    Ok(())
}

/// `C^γ_αβ` with `[X_α, X_β] = C^γ_αβ X_γ`, read at the identity after checking that they do not
/// depend on the moved coordinates.
fn structure_functions(
    frame: &[Vec<Expr>],
    coordinates: &[String],
    identity: &std::collections::BTreeMap<String, Expr>,
    at: Span,
) -> diagnostic::Result<Vec<Vec<Vec<Expr>>>> {
    let n = frame.len();
    let columns: Vec<Vec<Expr>> = (0..coordinates.len())
        .map(|i| frame.iter().map(|x| x[i].clone()).collect())
        .collect();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let mut brackets = vec![vec![vec![Expr::zero(); n]; n]; n];
    if pairs.is_empty() {
        return Ok(brackets);
    }
    let rhs_columns: Vec<Vec<Expr>> = pairs
        .iter()
        .map(|&(a, b)| symmetry::lie_bracket(coordinates, &frame[a], &frame[b]))
        .collect();
    let rhs: Vec<Vec<Expr>> = (0..coordinates.len())
        .map(|i| rhs_columns.iter().map(|col| col[i].clone()).collect())
        .collect();
    let solved = cas::solve(&columns, &rhs).map_err(|s| {
        vec![internal(
            format!(
                "the reduced frame is singular (det {})",
                cas::print::spec(&s.det, &cas::print::Keys)
            ),
            at,
        )]
    })?;
    let moved: Vec<&String> = identity.keys().collect();
    for (p, &(a, b)) in pairs.iter().enumerate() {
        for (g, row) in solved.iter().enumerate() {
            let c = row[p].simplify();
            if moved.iter().any(|q| !c.diff(q).vanishes()) {
                return Err(vec![internal(
                    format!("a structure function of the reduced frame depends on the group: C^{}_{}{} = {}", g + 1, a + 1, b + 1, cas::print::spec(&c, &cas::print::Keys)),
                    at,
                )]);
            }
            let c = c.subs(identity).simplify();
            brackets[a][b][g] = c.clone();
            brackets[b][a][g] = (-c).simplify();
        }
    }
    Ok(brackets)
}

/// The names of the reduced sections and velocities: `d_s` and `s_dot` per shape coordinate
/// (made unique against the spec's names), then the groups'.
fn reduced_names(
    system: &System,
    groups: &[GroupAction],
    shape: &[usize],
) -> (Vec<String>, Vec<String>) {
    let taken = |name: &str| {
        system.scope.names.contains_key(name)
            || groups
                .iter()
                .any(|g| g.sections.iter().chain(&g.velocities).any(|n| n == name))
    };
    let fresh = |stem: String| {
        let mut name = stem.clone();
        let mut k = 2;
        while taken(&name) {
            name = format!("{stem}{k}");
            k += 1;
        }
        name
    };
    let mut sections: Vec<String> = shape
        .iter()
        .map(|&i| fresh(format!("d_{}", system.coordinates[i])))
        .collect();
    let mut velocities: Vec<String> = shape
        .iter()
        .map(|&i| fresh(format!("{}_dot", system.coordinates[i])))
        .collect();
    for g in groups {
        sections.extend(g.sections.iter().cloned());
        velocities.extend(g.velocities.iter().cloned());
    }
    (sections, velocities)
}

/// `q̇^i ↦ y^α X^i_α` over the tangent velocities.
fn velocity_substitution(
    frame: &[Vec<Expr>],
    tangent_velocities: &[String],
    reduced: &[String],
) -> std::collections::BTreeMap<String, Expr> {
    tangent_velocities
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let value = Expr::sum(
                frame
                    .iter()
                    .zip(reduced)
                    .map(|(x, y)| &x[i] * &Expr::symbol(y)),
            );
            (v.clone(), value)
        })
        .collect()
}

/// A vector field as spec text: `c1*d/dx + c2*d/dy`.
fn vector_field(v: &[Expr], coordinates: &[String], print: &dyn Fn(&Expr) -> String) -> String {
    let terms: Vec<String> = v
        .iter()
        .zip(coordinates)
        .filter(|(c, _)| !c.is_zero())
        .map(|(c, q)| {
            if (c - &Expr::one()).is_zero() {
                format!("d/d{q}")
            } else {
                format!("({})*d/d{q}", print(c))
            }
        })
        .collect();
    if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join(" + ")
    }
}

fn internal(message: String, at: Span) -> Diagnostic {
    Diagnostic::error(
        "E0289",
        format!("internal error: {message}"),
        at,
        "while reducing by this symmetry",
    )
    .with_note("this is a defect of dalembert, not of the spec: please report it with the spec")
}

/// The Routh reduction of the groups that fix their momentum (`momentum mu`), or `None`.
///
/// Classical Routh reduction: each such group translates its coordinates (`ξ_a = ∂/∂q^a`, so that
/// they are cyclic), there are no constraints, and `L` is quadratic in the cyclic velocities with
/// an invertible Hessian `H_ab = ∂²L/∂q̇^a∂q̇^b`. Then `μ = H q̇ + b` (with `b = ∂L/∂q̇` at `q̇ = 0`)
/// gives `q̇ = H⁻¹(μ − b)`, the Routhian `R = L − μ_a q̇^a`, and the amended potential `V_μ = −R`
/// at rest in the shape.
fn routh(
    system: &System,
    generators: &[Vec<Expr>],
    shape: &[usize],
) -> diagnostic::Result<Option<Routh>> {
    let groups: Vec<&GroupAction> = system
        .groups
        .iter()
        .filter(|g| !g.momentum_values.is_empty())
        .collect();
    let Some(first) = groups.first() else {
        return Ok(None);
    };
    let refuse = |message: String, label: &str, note: &str| {
        Err(vec![Diagnostic::error(
            ROUTH,
            message,
            first.span,
            label.to_string(),
        )
        .with_note(note.to_string())])
    };
    if !system.constraints.is_empty() {
        return refuse(
            "Routh reduction of a system with nonholonomic constraints".to_string(),
            "the momentum is fixed here",
            "with constraints the momentum is not conserved in general (it obeys the momentum equation): drop `momentum` to reduce without fixing it",
        );
    }
    let mut cyclic = Vec::new();
    let mut values = Vec::new();
    let mut offset = 0;
    for g in &system.groups {
        let n = g.generators.len();
        if !g.momentum_values.is_empty() {
            for (k, &i) in g.moved.iter().enumerate() {
                let xi = &generators[offset + k];
                let translation = xi.iter().enumerate().all(|(j, c)| {
                    if j == i {
                        (c - &Expr::one()).is_zero()
                    } else {
                        c.is_zero()
                    }
                });
                if !translation {
                    return refuse(
                        format!("Routh reduction needs a group that translates its coordinates; `{}` is not one", g.name),
                        "the momentum is fixed here",
                        "the cyclic coordinates of Routh's method are moved by d/dq: declare `translations` or `SO2` on them",
                    );
                }
                cyclic.push(i);
            }
            values.extend(g.momentum_values.iter().cloned());
        }
        offset += n;
    }
    let velocities = &system.algebroid.velocities;
    let cyclic_velocities: Vec<String> = cyclic.iter().map(|&i| velocities[i].clone()).collect();
    let l = &system.lagrangian;
    let hessian: Vec<Vec<Expr>> = cyclic_velocities
        .iter()
        .map(|a| {
            cyclic_velocities
                .iter()
                .map(|b| l.diff(a).diff(b).simplify())
                .collect()
        })
        .collect();
    if hessian
        .iter()
        .flatten()
        .any(|h| h.depends_on_any(&cyclic_velocities))
    {
        return refuse(
            "Routh reduction needs a Lagrangian quadratic in the cyclic velocities".to_string(),
            "the momentum is fixed here",
            "the momentum equation μ = ∂L/∂q̇ is then linear and is solved for the cyclic velocities",
        );
    }
    let at_rest: std::collections::BTreeMap<String, Expr> = cyclic_velocities
        .iter()
        .map(|v| (v.clone(), Expr::zero()))
        .collect();
    let rhs: Vec<Vec<Expr>> = cyclic_velocities
        .iter()
        .zip(&values)
        .map(|(v, mu)| vec![(Expr::symbol(mu) - l.diff(v).subs(&at_rest)).simplify()])
        .collect();
    let solved = cas::solve(&hessian, &rhs).map_err(|singular| {
        vec![Diagnostic::error(
            ROUTH,
            "the Hessian of the Lagrangian in the cyclic velocities is singular",
            first.span,
            format!(
                "its determinant is {}",
                cas::print::spec(&singular.det, system)
            ),
        )]
    })?;
    let rates: Vec<Expr> = solved.into_iter().map(|row| row[0].simplify()).collect();
    let substitution: std::collections::BTreeMap<String, Expr> = cyclic_velocities
        .iter()
        .cloned()
        .zip(rates.iter().cloned())
        .collect();
    let momentum_term = Expr::sum(
        values
            .iter()
            .zip(&cyclic_velocities)
            .map(|(mu, v)| Expr::symbol(mu) * Expr::symbol(v)),
    );
    let routhian = (l - &momentum_term).subs(&substitution).simplify();
    let shape_rest: std::collections::BTreeMap<String, Expr> = shape
        .iter()
        .map(|&i| (velocities[i].clone(), Expr::zero()))
        .collect();
    let amended_potential = (-routhian.subs(&shape_rest)).simplify();
    let equilibria = shape
        .iter()
        .map(|&i| amended_potential.diff(&system.coordinates[i]).simplify())
        .collect();
    Ok(Some(Routh {
        values,
        cyclic: cyclic
            .iter()
            .map(|&i| system.coordinates[i].clone())
            .collect(),
        cyclic_velocities: rates,
        routhian,
        amended_potential,
        equilibria,
    }))
}
