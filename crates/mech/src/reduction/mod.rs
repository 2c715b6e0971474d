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
//!
//! A system already written on an algebroid (a `spherical` or `free` joint, whose velocities are
//! the body ones) is reduced on its own sections instead, without a connection ([`sections`]).

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Span};
use model::group::{ConnectionChoice, GroupAction};
use model::System;

use report::{Connection, Reduction};

mod checks;
mod integrable;
mod momentum;
mod nonholonomic;
mod routh;
mod sections;
pub mod symmetry;

use checks::{
    invariant, invariant_forces, invariant_frame, not_an_action, stays_on_orbits, supported,
};
use routh::routh;

/// The code for a connection that cannot be built.
const CONNECTION: Code = Code::E0283;

/// Reduces `system` by the product of its declared groups (`system.groups`, not empty).
pub fn reduce(system: &System) -> diagnostic::Result<Reduction> {
    if system.algebroid.kind != model::AlgebroidKind::Tangent {
        return sections::reduce(system);
    }
    let groups = &system.groups;
    let first = groups.first().expect("a declared group");
    supported(system, first.span)?;
    let coordinates = &system.keys(&system.coordinates);
    let velocities = &system.keys(&system.algebroid.velocities);
    let moved: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.moved.iter().copied())
        .collect();
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
    let eta = invariant_frame(groups, &closure.constants, &spans, &names)?;
    invariant(system, &generators, &spans, &names)?;
    invariant_forces(system, &generators, &spans, &names, first.span)?;

    let identity = identity_map(system, groups);
    let metric = kinetic_metric(system, first.span)?;
    given_connections_are_connections(system, groups, &eta, &generators)?;
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

    let (sections, reduced_velocities) = reduced_names(system, groups);
    let substitution = velocity_substitution(&frame, velocities, &reduced_velocities);
    let reduce_function = |f: &Expr| at_identity(&f.subs(&substitution), &identity);
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
                .map(|&i| at_identity(&x[i], &identity))
                .collect()
        })
        .collect();
    let group_momenta: Vec<String> = groups.iter().flat_map(|g| g.momenta.clone()).collect();
    let momenta = if group_momenta.is_empty() {
        Vec::new()
    } else {
        let named = &first.shape_names.2;
        let shape_momenta: Vec<String> = if named.is_empty() {
            shape
                .iter()
                .map(|&i| system.key(system.algebroid.momenta[i]))
                .collect()
        } else {
            named.clone()
        };
        shape_momenta.into_iter().chain(group_momenta).collect()
    };
    let routh = routh(system, &generators, &shape)?;
    let mut reduction = Reduction {
        routh,
        momentum_equations: Vec::new(),
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
            ConnectionChoice::Nonholonomic => Connection::Nonholonomic,
            ConnectionChoice::Given { .. } => Connection::Given,
        },
        connection_form: a,
        curvature,
        sections,
        velocities: reduced_velocities,
        momenta,
        anchors,
        brackets,
        lagrangian: reduce_function(&system.lagrangian),
        forces: reduced_forces(system, &frame, &substitution, &identity),
        constraints: system
            .constraints
            .iter()
            .map(|c| reduce_function(&c.psi))
            .collect(),
        frame,
    };
    reduction.momentum_equations = momentum::momentum_equations(system, &reduction);
    Ok(reduction)
}

/// The reduced forces `F_α = F_j X^j_α`, in the reduced velocities, read at the identity.
fn reduced_forces(
    system: &System,
    frame: &[Vec<Expr>],
    substitution: &std::collections::BTreeMap<String, Expr>,
    identity: &std::collections::BTreeMap<String, Expr>,
) -> Vec<Expr> {
    frame
        .iter()
        .map(|x| {
            let f = Expr::sum(system.forces.iter().zip(x).map(|(f, c)| f * c));
            at_identity(&f.subs(substitution), identity)
        })
        .collect()
}

/// An invariant function read at the identity of the group, with its sines and cosines expanded
/// into those of single symbols (`sin(θ − φ)` read at `θ = 0` is `sin(−φ)`, which becomes
/// `−sin(φ)`), so that equal functions meet in one normal form.
fn at_identity(f: &Expr, identity: &std::collections::BTreeMap<String, Expr>) -> Expr {
    f.subs(identity).expand_trig().simplify()
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
                .map(|(&i, v)| (system.key(system.coordinates[i]), v.clone()))
        })
        .collect()
}

/// The kinetic-energy metric `g_ij = ∂²L/∂q̇^i∂q̇^j`, or `None` when the mechanical connection is
/// not asked for.
fn kinetic_metric(system: &System, at: Span) -> diagnostic::Result<Option<Vec<Vec<Expr>>>> {
    if system.groups.iter().all(|g| {
        !matches!(
            g.connection,
            ConnectionChoice::Mechanical | ConnectionChoice::Nonholonomic
        )
    }) {
        return Ok(None);
    }
    let v = &system.keys(&system.algebroid.velocities);
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

/// `A^b_i` for each shape coordinate, group by group: `𝕀⁻¹ K` for the mechanical connection,
/// zero for the chart's, the given form's values on `∂/∂s^i` for a given one (read at the
/// identity).
fn connection_form(
    system: &System,
    groups: &[GroupAction],
    eta: &[Vec<Expr>],
    shape: &[usize],
    metric: Option<&Vec<Vec<Expr>>>,
    identity: &std::collections::BTreeMap<String, Expr>,
) -> diagnostic::Result<Vec<Vec<Expr>>> {
    let wants = |choice: ConnectionChoice| groups.iter().any(|g| g.connection == choice);
    let mechanical = match metric {
        Some(g) if !shape.is_empty() && wants(ConnectionChoice::Mechanical) => Some(
            mechanical_connection(system, groups, eta, shape, g, identity)?,
        ),
        _ => None,
    };
    let nonholonomic = match metric {
        Some(g) if !shape.is_empty() && wants(ConnectionChoice::Nonholonomic) => Some(
            nonholonomic::connection(system, groups, eta, shape, g, identity)?,
        ),
        _ => None,
    };
    let mut form = vec![Vec::new(); shape.len()];
    let mut offset = 0;
    for group in groups {
        for b in 0..group.generators.len() {
            for (i, &s) in shape.iter().enumerate() {
                let value = match (&group.connection, &mechanical, &nonholonomic) {
                    (ConnectionChoice::Mechanical, Some(solved), _)
                    | (ConnectionChoice::Nonholonomic, _, Some(solved)) => {
                        solved[offset + b][i].simplify()
                    }
                    (ConnectionChoice::Given { form, .. }, _, _) => {
                        at_identity(&form[s][b], identity)
                    }
                    _ => Expr::zero(),
                };
                form[i].push(value);
            }
        }
        offset += group.generators.len();
    }
    Ok(form)
}

/// `A = 𝕀⁻¹ K` as `solved[b][i]`: the locked inertia `𝕀_ab = g(η_a, η_b)` and the coupling
/// `K_bi = g(η_b, ∂_{s^i})`, read at the identity.
fn mechanical_connection(
    system: &System,
    groups: &[GroupAction],
    eta: &[Vec<Expr>],
    shape: &[usize],
    g: &[Vec<Expr>],
    identity: &std::collections::BTreeMap<String, Expr>,
) -> diagnostic::Result<Vec<Vec<Expr>>> {
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
    cas::solve(&locked, &coupling).map_err(|singular| {
        vec![Diagnostic::error(
            CONNECTION,
            "the locked inertia tensor is singular: the mechanical connection does not exist",
            groups[0].span,
            format!("det 𝕀 = {}", cas::print::spec(&singular.det, system)),
        )
        .with_help("add `connection chart` to the symmetry's block")]
    })
}

/// A given connection form is one: `A(η_a) = e_a` on the invariant frame of its group (and zero
/// on the other groups' fields), and it is invariant, `(L_ξ A)_j = ξ(A_j) + A_i ∂_j ξ^i = 0` for
/// every generator. The first failure is named.
fn given_connections_are_connections(
    system: &System,
    groups: &[GroupAction],
    eta: &[Vec<Expr>],
    generators: &[Vec<Expr>],
) -> diagnostic::Result<()> {
    let coordinates = &system.keys(&system.coordinates);
    let mut offset = 0;
    for group in groups {
        let dim = group.generators.len();
        if let ConnectionChoice::Given { form, span } = &group.connection {
            let refuse = |message: String, label: String, note: &str| {
                Err(vec![Diagnostic::error(CONNECTION, message, *span, label)
                    .with_note(note.to_string())])
            };
            for (a, field) in eta.iter().enumerate() {
                for b in 0..dim {
                    let value = Expr::sum(field.iter().zip(form).map(|(c, row)| c * &row[b]));
                    let expected = if a == offset + b {
                        Expr::one()
                    } else {
                        Expr::zero()
                    };
                    if !(&value - &expected).vanishes() {
                        return refuse(
                            "the given connection is not a connection: A(η) is not η on the orbits".to_string(),
                            format!(
                                "on the invariant field {} of the group, the coefficient of {} is {}, not {}",
                                a + 1,
                                group.sections[b],
                                cas::print::spec(&value.simplify(), system),
                                cas::print::spec(&expected, system)
                            ),
                            "a principal connection returns the Lie algebra element on the fields of the action (A(ξ_Q) = ξ); in the invariant frame, A(η_a) = e_a",
                        );
                    }
                }
            }
            for (k, xi) in generators.iter().enumerate() {
                for (j, qj) in coordinates.iter().enumerate() {
                    for b in 0..dim {
                        let along = Expr::sum(
                            coordinates
                                .iter()
                                .zip(xi)
                                .map(|(q, c)| c * &form[j][b].diff(q)),
                        );
                        let twist =
                            Expr::sum(form.iter().zip(xi).map(|(row, c)| &row[b] * &c.diff(qj)));
                        let derivative = along + twist;
                        if !derivative.vanishes() {
                            return refuse(
                                "the given connection is not invariant under the group".to_string(),
                                format!(
                                    "the Lie derivative of the {} component along generator {} is {} on d/d{}",
                                    group.sections[b],
                                    k + 1,
                                    cas::print::spec(&derivative.simplify(), system),
                                    system.spec_name(system.handle(qj))
                                ),
                                "a principal connection is equivariant: in the invariant frame its components are invariant functions, L_ξ A = 0",
                            );
                        }
                    }
                }
            }
        }
        offset += dim;
    }
    Ok(())
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
            let c = at_identity(&c, identity);
            brackets[a][b][g] = c.clone();
            brackets[b][a][g] = (-c).simplify();
        }
    }
    Ok(brackets)
}

/// The names of the reduced sections and velocities: the shape's ([`System::shape_names`]),
/// then the groups'.
fn reduced_names(system: &System, groups: &[GroupAction]) -> (Vec<String>, Vec<String>) {
    let (mut sections, mut velocities) = system.shape_names();
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
        Code::E0289,
        format!("internal error: {message}"),
        at,
        "while reducing by this symmetry",
    )
    .with_note("this is a defect of dalembert, not of the spec: please report it with the spec")
}
