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

use cas::Expr;
use model::{AlgebroidKind, Discretisation, System};

use super::DiscreteEquations;

/// The discrete Euler–Poincaré equations of `system` on so(3) (see the module documentation);
/// E0296 on any other algebroid, or for a system `super::common_refusal` refuses.
pub fn derive(system: &System) -> diagnostic::Result<DiscreteEquations> {
    let why = if !matches!(&system.algebroid.kind, AlgebroidKind::LieAlgebra(name) if name == "so3")
    {
        Some("on an algebroid other than `algebroid so3` (on `algebroid tangent`, `discrete midpoint`)")
    } else if system.forces.iter().any(|f| !f.is_zero()) {
        Some("with forces")
    } else if system.constraints.iter().any(|c| c.position.is_some()) {
        Some("with holonomic constraints")
    } else if system.action.is_some() {
        Some("with an action (a contact system)")
    } else {
        super::common_refusal(system)
    };
    if let Some(why) = why {
        return Err(vec![super::refused(system, why)]);
    }
    Ok(equations(system))
}

/// The equations, on a system known to be on so(3).
fn equations(system: &System) -> DiscreteEquations {
    let table = &system.symbols;
    let h = table.step();
    let step = Expr::symbol(&table.key(h));
    let half = Expr::rational(1, 2);
    let velocities = system.keys(&system.algebroid.velocities);
    let unknowns: Vec<String> = system
        .algebroid
        .velocities
        .iter()
        .map(|&v| table.key(table.half(v)))
        .collect();
    let xi: Vec<Expr> = unknowns.iter().map(|k| Expr::symbol(k)).collect();
    // t → t + h/2, v → ξ.
    let mut at_half = std::collections::BTreeMap::new();
    let time = system.key(system.time);
    at_half.insert(
        time.clone(),
        Expr::symbol(&time) + half.clone() * step.clone(),
    );
    for (v, x) in velocities.iter().zip(&xi) {
        at_half.insert(v.clone(), x.clone());
    }
    let l = system.lagrangian.subs(&at_half);
    let mu: Vec<Expr> = unknowns.iter().map(|x| l.diff(x).simplify()).collect();
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
    let pairing = xi
        .iter()
        .zip(&mu)
        .fold(Expr::zero(), |acc, (x, m)| acc + x.clone() * m.clone());
    let quarter_h2 = Expr::rational(1, 4) * step.clone() * step.clone();
    let end = |sign: i64| -> Vec<Expr> {
        (0..n)
            .map(|b| {
                (mu[b].clone()
                    + Expr::rational(sign, 2) * step.clone() * coadjoint[b].clone()
                    + quarter_h2.clone() * pairing.clone() * xi[b].clone())
                .simplify()
            })
            .collect()
    };
    // Π_k = (dτ⁻¹_{hξ})* μ = μ − (h/2)(ad_ξ)ᵀ μ + …; Π_{k+1} with +.
    let multipliers = super::multipliers(system);
    let momentum: Vec<Expr> = end(-1)
        .into_iter()
        .enumerate()
        .map(|(b, p)| (p + super::impulse(system, &multipliers, b)).simplify())
        .collect();
    let next_momentum = end(1);
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
    DiscreteEquations {
        method: Discretisation::Cayley,
        step: table.key(h),
        predictor: velocities
            .iter()
            .map(|v| Expr::symbol(v))
            .chain(multipliers.iter().map(|_| Expr::zero()))
            .collect(),
        positions: Vec::new(),
        next: unknowns,
        multipliers,
        constraints,
        lagrangian: (step * l).simplify(),
        action: None,
        contraction: None,
        forces: vec![Expr::zero(); n],
        next_forces: vec![Expr::zero(); n],
        momentum,
        next_momentum,
        newton,
    }
}
