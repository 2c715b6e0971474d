//! The Lie group variational integrator on so(3) in the Cayley chart: discrete Euler–Poincaré
//! equations of a Lagrangian `l(t, ξ)` on the Lie algebra (Bou-Rabee and Marsden,
//! *Hamilton–Pontryagin integrators on Lie groups*, Found. Comput. Math. 9 (2009) 197–219,
//! §4–§5; for the rigid body, Lee, Leok and McClamroch, *Lie group variational integrators for
//! the full body problem*, Comput. Methods Appl. Mech. Engrg. 196 (2007) 2907–2924).
//!
//! A step moves the group element by `g_{k+1} = g_k τ(h ξ_k)`, with `τ` the Cayley map
//! `τ(x) = (I − x/2)⁻¹(I + x/2)` and `ξ_k` the discrete velocity over the step. The reduced discrete
//! Lagrangian is `l_d(ξ_k) = h l(t + h/2, ξ_k)`. Varying `g_k = g_k η_k` and using the right-
//! trivialised derivative, `h δξ_k = −dτ⁻¹_{hξ_k} η_k + dτ⁻¹_{−hξ_k} η_{k+1}`, so the discrete
//! Euler–Poincaré equations are `Π_k = Π_k⁺` in terms of
//!
//! ```text
//! Π_k     = (dτ⁻¹_{hξ_k})* μ_k,      μ_k = ∂l/∂ξ(t + h/2, ξ_k),
//! Π_{k+1} = (dτ⁻¹_{−hξ_k})* μ_k,
//! ```
//!
//! the discrete momenta at the ends of the step. On a quadratic Lie algebra
//! `dτ⁻¹_x(y) = y − ½[x, y] − ¼ x y x`; on so(3) with the hat map (`[e1, e2] = e3`, the preset
//! `so3`) that is `dτ⁻¹_x = I − ½ x̂ + ¼ x xᵀ`, so
//!
//! ```text
//! Π_k     = μ + (h/2) ξ × μ + (h²/4) (ξ·μ) ξ,
//! Π_{k+1} = μ − (h/2) ξ × μ + (h²/4) (ξ·μ) ξ.
//! ```
//!
//! A step solves the first for `ξ_k` (Newton's method from `ξ = Ω_k`) and evaluates the second.
//! Their difference is `−h ξ × μ`, the discrete `Π̇ = Π × Ω`; both have the same length, since
//! `ξ × μ` is orthogonal to `μ` and to `ξ`, so the Casimir `|Π|²` is kept exactly; and the map
//! `Π_k ↦ Π_{k+1}` is a Lie–Poisson map. The linear term is written with the structure constants
//! (`(ad_ξ)ᵀ μ`), the quadratic one with the Euclidean pairing of the preset basis, which is why
//! the method is offered on `so3` only.
//!
//! With nonholonomic constraints `Ψ^a = μ^a·Ω + μ^a_0` (the Suslov problem), the discrete
//! Lagrange–d'Alembert principle on the group (as in [`super`]'s tangent case: Cortés and Martínez
//! 2001, McLachlan and Perlmutter 2006) adds the impulses `μ^a λ_a` to the momentum at the start
//! of the step and asks the discrete velocity to satisfy the constraints,
//!
//! ```text
//! Π_k = (dτ⁻¹_{hξ_k})* μ_k + μᵀ λ_k,     Ψ(t + h/2, ξ_k) = 0,
//! ```
//!
//! solved together for `(ξ_k, λ_k)`.
//!
//! On an action algebroid of so(3) (Marrero, Martín de Diego and Martínez, *Discrete Lagrangian
//! and Hamiltonian mechanics on Lie groupoids*, Nonlinearity 19 (2006) 1313–1348: the action Lie
//! groupoid `G × M`), the Lagrangian `l(t, x, ξ)` also reads a base point `x` that the group
//! moves linearly, `ρ(e_a)(x) = A_a x` (the heavy top: `Γ`, the vertical seen from the body,
//! `ρ(e_a)(Γ) = Γ × e_a`). The base point rides along with the body, `x_k = x(g_k)`, so a step
//! moves it by the same map, `x_{k+1} = cay(h A(ξ_k)) x_k`; for a representation made of so(3)'s
//! own blocks and trivial ones (`A³ = −|ξ|² A`, checked, so that `cay` of the algebra and of the
//! representation agree) that is `x_k + (4hA + 2h²A²) x_k / (4 + h²|ξ|²)`. The variation
//! `δg_k = g_k η_k` moves the base by `δx_k = ρ(x_k) η_k`. With the trapezoidal rule in the base
//! point, `l_d = (h/2)[l(t + h/2, x_k, ξ_k) + l(t + h/2, x_{k+1}, ξ_k)]`, the terms of `η_k` from
//! the steps `k − 1` and `k` give the momenta at the ends of a step
//!
//! ```text
//! Π_k     = (dτ⁻¹_{hξ_k})* μ_k − (h/2) ρ(x_k)ᵀ ∂l/∂x(x_k, ξ_k),
//! Π_{k+1} = (dτ⁻¹_{−hξ_k})* μ_k + (h/2) ρ(x_{k+1})ᵀ ∂l/∂x(x_{k+1}, ξ_k),
//! μ_k = ½ [∂l/∂ξ(x_k, ξ_k) + ∂l/∂ξ(x_{k+1}, ξ_k)],
//! ```
//!
//! and the discrete equations `Π_k` (of step `k`) `= Π_k` (of step `k − 1`). Without a base, or
//! with a Lagrangian that does not read it, they are the equations above. For the heavy top
//! `ρ(Γ)ᵀ ∂l/∂Γ = m g Γ × χ` is orthogonal to `Γ`, and `(dτ⁻¹_{−x})* = cay(x)ᵀ (dτ⁻¹_x)*`, so
//! `Π_{k+1}·Γ_{k+1} = Π_k·Γ_k`: the Casimir `Π·Γ` (the discrete momentum map of the rotations
//! about the vertical) is kept exactly, and `|Γ|²` too, `cay` being a rotation.

use std::collections::BTreeMap;

use cas::Expr;
use model::{AlgebroidKind, Discretisation, System};

use super::DiscreteEquations;
use crate::base::algebra::anchor_apply;
use crate::base::matrix::multiply;

/// The discrete Euler–Poincaré equations of `system` on so(3) or on an action algebroid of
/// so(3) by `method` (`cayley` or `lgvi`, see the module documentation); E0296 on any other
/// algebroid, for a system `super::common_refusal` refuses, and for `lgvi` when the Lagrangian's
/// velocity part is not a quadratic form with constant coefficients.
pub fn derive(system: &System, method: Discretisation) -> diagnostic::Result<DiscreteEquations> {
    let action = match linear_action(system) {
        Ok(action) => action,
        Err(why) => return Err(vec![super::refused(system, why)]),
    };
    let coordinates = system.keys(&system.coordinates);
    let why = if system.forces.iter().any(|f| !f.is_zero()) {
        Some("with forces")
    } else if system.constraints.iter().any(|c| c.position.is_some()) {
        Some("with holonomic constraints")
    } else if system
        .constraints
        .iter()
        .any(|c| c.psi.depends_on_any(&coordinates))
    {
        Some("with constraints that depend on the base coordinates of an action algebroid")
    } else if system.action.is_some() {
        Some("with an action (a contact system)")
    } else {
        super::common_refusal(system)
    };
    if let Some(why) = why {
        return Err(vec![super::refused(system, why)]);
    }
    equations(system, &action, method).map_err(|why| vec![super::refused(system, why)])
}

/// Whether `system` is on so(3) or on an action algebroid of so(3) that `discrete cayley` takes.
pub fn applies(system: &System) -> bool {
    !system.is_tangent() && linear_action(system).is_ok()
}

/// `ε_abc`: the structure constants of the preset `so3`, `[e_a, e_b] = ε_abc e_c`.
fn levi_civita(a: usize, b: usize, c: usize) -> i64 {
    match (a, b, c) {
        (0, 1, 2) | (1, 2, 0) | (2, 0, 1) => 1,
        (0, 2, 1) | (2, 1, 0) | (1, 0, 2) => -1,
        _ => 0,
    }
}

/// The matrices `A_a` of the infinitesimal action, `ρ(e_a)(x) = A_a x` (`[a][i][j]`), when the
/// algebroid is so(3) (the preset, or explicit sections with its brackets) acting linearly on its
/// base, by a representation whose every block is so(3)'s own or trivial (`A(ξ)³ = −|ξ|² A(ξ)`,
/// so that the Cayley map of the algebra moves the base by `cay(h A(ξ))`); why not otherwise.
fn linear_action(system: &System) -> Result<Vec<Vec<Vec<Expr>>>, &'static str> {
    let algebroid = &system.algebroid;
    let not_so3 = "on an algebroid other than `algebroid so3` or an action algebroid of so(3) (on `algebroid tangent`, `discrete midpoint`)";
    match &algebroid.kind {
        AlgebroidKind::LieAlgebra(name) if name == "so3" => {}
        AlgebroidKind::Explicit if algebroid.sections.len() == 3 => {
            let so3 = (0..3).all(|a| {
                (0..3).all(|b| {
                    (0..3).all(|c| {
                        (algebroid.c[a][b][c].clone() - Expr::int(levi_civita(a, b, c))).is_zero()
                    })
                })
            });
            let affine = algebroid.c0.iter().flatten().any(|e| !e.is_zero())
                || algebroid.anchor0.iter().skip(1).any(|e| !e.is_zero());
            if !so3 || affine {
                return Err(not_so3);
            }
        }
        _ => return Err(not_so3),
    }
    let coordinates = system.keys(&system.coordinates);
    let not_linear = "on an algebroid of so(3) whose anchor is not a linear action on its base (every anchor a sum of `c * x * d/dy` with constant `c`, as the heavy top's `anchor e1 = G3*d/dG2 - G2*d/dG3`)";
    let mut matrices = Vec::new();
    for anchor in &algebroid.anchors {
        if !anchor[0].is_zero() {
            return Err(not_linear);
        }
        let mut rows = Vec::new();
        for rho in &anchor[1..] {
            let row: Vec<Expr> = coordinates.iter().map(|x| rho.diff(x).simplify()).collect();
            let rest = coordinates
                .iter()
                .zip(&row)
                .fold(rho.clone(), |acc, (x, a)| acc - a.clone() * Expr::symbol(x));
            if row.iter().any(|a| a.depends_on_any(&coordinates)) || !rest.is_zero() {
                return Err(not_linear);
            }
            rows.push(row);
        }
        matrices.push(rows);
    }
    // A(ξ)³ + |ξ|² A(ξ) = 0 at a symbolic ξ.
    let xi: Vec<Expr> = (1..=3).map(|a| Expr::symbol(&format!("xi__{a}"))).collect();
    let generator = combination(&matrices, &xi);
    let cube = multiply(&generator, &multiply(&generator, &generator));
    let norm = dot(&xi, &xi);
    let spin_one = cube.iter().zip(&generator).all(|(row3, row)| {
        row3.iter()
            .zip(row)
            .all(|(c, a)| (c.clone() + norm.clone() * a.clone()).is_zero())
    });
    if !spin_one {
        return Err("on an action algebroid of so(3) whose representation is not made of so(3)'s own and trivial ones (A(xi)^3 = -|xi|^2 A(xi) fails), where the Cayley map of the algebra does not give the action's");
    }
    Ok(matrices)
}

/// `Σ_a ξ^a A_a`.
fn combination(matrices: &[Vec<Vec<Expr>>], xi: &[Expr]) -> Vec<Vec<Expr>> {
    let m = matrices.first().map_or(0, Vec::len);
    (0..m)
        .map(|i| {
            (0..m)
                .map(|j| {
                    matrices.iter().zip(xi).fold(Expr::zero(), |acc, (a, x)| {
                        if a[i][j].is_literal_zero() {
                            acc
                        } else {
                            acc + a[i][j].clone() * x.clone()
                        }
                    })
                })
                .collect()
        })
        .collect()
}

/// `Σ a_i b_i`.
fn dot(a: &[Expr], b: &[Expr]) -> Expr {
    a.iter()
        .zip(b)
        .fold(Expr::zero(), |acc, (x, y)| acc + x.clone() * y.clone())
}

/// The base point at the end of a step, `x_{k+1} = cay(h A(ξ)) x_k`: for a generator with
/// `A³ = −|ξ|² A`, `cay(hA) = I + (4 h A + 2 h² A²)/(4 + h²|ξ|²)`.
fn moved_base(
    matrices: &[Vec<Vec<Expr>>],
    xi: &[Expr],
    step: &Expr,
    coordinates: &[String],
) -> Vec<Expr> {
    let generator = combination(matrices, xi);
    let x: Vec<Expr> = coordinates.iter().map(|q| Expr::symbol(q)).collect();
    let once: Vec<Expr> = generator.iter().map(|row| dot(row, &x)).collect();
    let twice: Vec<Expr> = generator.iter().map(|row| dot(row, &once)).collect();
    let denominator = Expr::int(4) + step.clone() * step.clone() * dot(xi, xi);
    x.iter()
        .zip(once.iter().zip(&twice))
        .map(|(x, (a, a2))| {
            (x.clone()
                + (Expr::int(4) * step.clone() * a.clone()
                    + Expr::int(2) * step.clone() * step.clone() * a2.clone())
                    / denominator.clone())
            .simplify()
        })
        .collect()
}

/// `ρ(x)ᵀ ∂l/∂x`: the anchor of each section applied to `l` ([`anchor_apply`]), at `x_k`; with
/// `to_next`, `l` read at `x_{k+1}` and the anchor there.
fn along_action(system: &System, l: &Expr, to_next: Option<&BTreeMap<String, Expr>>) -> Vec<Expr> {
    (1..=system.algebroid.anchors.len())
        .map(|a| {
            let pulled = anchor_apply(system, a, l);
            match to_next {
                Some(next) => pulled.subs(next).simplify(),
                None => pulled.simplify(),
            }
        })
        .collect()
}

/// The Lagrangian whose reduced discrete Lagrangian is `h` times it: `l` itself for the
/// Cayley chart's `l_d = h l(ξ)`; for Lee, Leok and McClamroch's
/// `L_d = (1/h) tr[(I − F) J_d]`, read in the chart `F = cay(h ξ)`, the kinetic part divided by
/// `1 + h²|ξ|²/4` (`F − I = (4 x̂ + 2 x̂²)/(4 + |x|²)` with `x = hξ`, and
/// `tr(x̂² J_d) = −xᵀ J x`), the rest `l(ξ = 0)` as it is; `None` when the part of `l` that reads
/// the velocities is not `½ ξᵀ J ξ` with a `J` free of everything in `moving` (the base
/// coordinates and the time), read off [`Expr::quadratic_form`].
fn reduced(
    l: &Expr,
    xi: &[Expr],
    unknowns: &[String],
    moving: &[String],
    step: &Expr,
    method: Discretisation,
) -> Option<Expr> {
    if method != Discretisation::Lgvi {
        return Some(l.clone());
    }
    let form = l.quadratic_form(unknowns)?;
    if form.linear.iter().any(|c| !c.is_zero()) {
        return None;
    }
    let mut kinetic = Expr::zero();
    for (a, row) in form.quadratic.iter().enumerate() {
        for (b, q) in row.iter().enumerate().skip(a) {
            if q.depends_on_any(moving) {
                return None;
            }
            kinetic = kinetic + q.clone() * xi[a].clone() * xi[b].clone();
        }
    }
    let spread = Expr::int(1) + Expr::rational(1, 4) * step.clone() * step.clone() * dot(xi, xi);
    Some(kinetic / spread + form.constant)
}

/// The equations, on a system known to be on so(3) or an action algebroid of it
/// (`matrices`, see [`linear_action`]).
fn equations(
    system: &System,
    matrices: &[Vec<Vec<Expr>>],
    method: Discretisation,
) -> Result<DiscreteEquations, &'static str> {
    let table = &system.symbols;
    let h = table.step();
    let step = Expr::symbol(&table.key(h));
    let half = Expr::rational(1, 2);
    let velocities = system.keys(&system.algebroid.velocities);
    let coordinates = system.keys(&system.coordinates);
    let next_coordinates: Vec<String> = system
        .coordinates
        .iter()
        .map(|&q| table.key(table.next(q)))
        .collect();
    let unknowns: Vec<String> = system
        .algebroid
        .velocities
        .iter()
        .map(|&v| table.key(table.half(v)))
        .collect();
    let xi: Vec<Expr> = unknowns.iter().map(|k| Expr::symbol(k)).collect();
    // t → t + h/2, v → ξ.
    let mut at_half = BTreeMap::new();
    let time = system.key(system.time);
    at_half.insert(
        time.clone(),
        Expr::symbol(&time) + half.clone() * step.clone(),
    );
    for (v, x) in velocities.iter().zip(&xi) {
        at_half.insert(v.clone(), x.clone());
    }
    let mut moving = coordinates.clone();
    moving.push(time.clone());
    let l = reduced(
        &system.lagrangian.subs(&at_half),
        &xi,
        &unknowns,
        &moving,
        &step,
        method,
    )
    .ok_or("whose Lagrangian's velocity part is not a kinetic energy 1/2 xi^T J xi with a constant J (as `discrete lgvi` needs: Lee, Leok and McClamroch's L_d = (1/h) tr[(I - F) J_d])")?;
    // On an action algebroid whose Lagrangian reads the base, the trapezoidal rule in the base
    // point: l_d = (h/2)[l(x_k, ξ_k) + l(x_{k+1}, ξ_k)], x_{k+1} first as symbols of its own.
    let on_base = l.depends_on_any(&coordinates);
    let positions = moved_base(matrices, &xi, &step, &coordinates);
    let to_next: BTreeMap<String, Expr> = coordinates
        .iter()
        .zip(&next_coordinates)
        .map(|(q, q1)| (q.clone(), Expr::symbol(q1)))
        .collect();
    let moved: BTreeMap<String, Expr> = next_coordinates
        .iter()
        .cloned()
        .zip(positions.iter().cloned())
        .collect();
    let l_next = l.subs(&to_next);
    let mu: Vec<Expr> = unknowns
        .iter()
        .map(|x| {
            if on_base {
                (half.clone() * (l.diff(x) + l_next.diff(x))).simplify()
            } else {
                l.diff(x).simplify()
            }
        })
        .collect();
    let n = mu.len();
    let c = &system.algebroid.c;
    // (ad_ξ)ᵀ μ: the b-th entry is C^c_ab ξ^a μ_c (on so(3), −(ξ × μ)_b).
    let coadjoint: Vec<Expr> = (0..n)
        .map(|b| {
            let mut sum = Expr::zero();
            for a in 0..n {
                for k in 0..n {
                    if !c[a][b][k].is_literal_zero() {
                        sum = sum + c[a][b][k].clone() * xi[a].clone() * mu[k].clone();
                    }
                }
            }
            sum
        })
        .collect();
    let pairing = dot(&xi, &mu);
    let quarter_h2 = Expr::rational(1, 4) * step.clone() * step.clone();
    let end = |sign: i64| -> Vec<Expr> {
        (0..n)
            .map(|b| {
                mu[b].clone()
                    + Expr::rational(sign, 2) * step.clone() * coadjoint[b].clone()
                    + quarter_h2.clone() * pairing.clone() * xi[b].clone()
            })
            .collect()
    };
    // The base's share: ∓(h/2) ρ(x)ᵀ ∂l/∂x at either end.
    let (pull, next_pull) = if on_base {
        (
            along_action(system, &l, None),
            along_action(system, &l, Some(&to_next)),
        )
    } else {
        (vec![Expr::zero(); n], vec![Expr::zero(); n])
    };
    // Π_k = (dτ⁻¹_{hξ})* μ − (h/2) ρ(x_k)ᵀ ∂l/∂x = μ − (h/2)(ad_ξ)ᵀ μ + …, in ξ alone (x_{k+1}
    // moved); Π_{k+1} with +, in x_{k+1}.
    let multipliers = super::multipliers(system);
    let momentum: Vec<Expr> = end(-1)
        .into_iter()
        .zip(&pull)
        .enumerate()
        .map(|(b, (p, f))| {
            let p = p - half.clone() * step.clone() * f.clone()
                + super::impulse(system, &multipliers, b);
            if on_base {
                p.subs(&moved).simplify()
            } else {
                p.simplify()
            }
        })
        .collect();
    let next_momentum: Vec<Expr> = end(1)
        .into_iter()
        .zip(&next_pull)
        .map(|(p, f)| (p + half.clone() * step.clone() * f.clone()).simplify())
        .collect();
    let constraints: Vec<Expr> = system
        .constraints
        .iter()
        .map(|c| c.psi.subs(&at_half).simplify())
        .collect();
    let every: Vec<&String> = unknowns.iter().chain(&multipliers).collect();
    let newton = momentum
        .iter()
        .chain(&constraints)
        .map(|p| every.iter().map(|x| p.diff(x).simplify()).collect())
        .collect();
    let lagrangian = if on_base {
        (half.clone() * step.clone() * (l.clone() + l_next)).simplify()
    } else {
        (step * l).simplify()
    };
    Ok(DiscreteEquations {
        method,
        step: table.key(h),
        predictor: velocities
            .iter()
            .map(|v| Expr::symbol(v))
            .chain(multipliers.iter().map(|_| Expr::zero()))
            .collect(),
        positions,
        next: unknowns,
        multipliers,
        constraints,
        lagrangian,
        action: None,
        contraction: None,
        forces: vec![Expr::zero(); n],
        next_forces: vec![Expr::zero(); n],
        momentum,
        next_momentum,
        newton,
    })
}
