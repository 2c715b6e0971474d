//! The implicit form of a tree of joints from its structure (R. Featherstone, *Rigid Body
//! Dynamics Algorithms*, Springer 2008: the composite-rigid-body algorithm of §6.2, Table 6.2,
//! and the recursive Newton–Euler algorithm of §5.3, Table 5.1), instead of from the expanded
//! Lagrangian.
//!
//! # Why
//!
//! [`crate::lagrange::implicit`] reads `W` and the forcing off one expansion of `L`. For bodies
//! written in the joints' relative coordinates that expansion is what costs: the velocity of
//! link `k` of a chain is a sum over the `k` links below it, each term a product of
//! trigonometric functions of angle sums, so `½ m_k |v_k|²` has O(k⁴) terms before the angle
//! sums contract, the Lagrangian O(n⁵), and the expanded `W` itself O(n⁴)
//! (`W_ij = Σ_{a ≥ i, b ≥ j} l_a l_b cos(φ_a − φ_b) M`).
//! The recursions give the same objects as straight-line programs of O(n²) (`W`, one pass up the
//! tree per joint) and O(n) (the forcing) operations:
//!
//! ```text
//! W_ij = S_jᵀ X_{j←…←i}ᵀ I^c_i S_i     (I^c_i the composite inertia of the subtree of i)
//! b    = F − RNEA(q, q̇, q̈ = 0)         (the Coriolis, centrifugal and gravity forces)
//! ```
//!
//! # The form it gives
//!
//! The same [`Implicit`] as the expanded route, whose entries read bound symbols (`crb{k}_`)
//! listed in [`Implicit::bindings`]: what the emitted `implicit` function computes first. The
//! energy is `E_L = L − 2 L_0` from the Lagrangian as written (per body, `½ m |v_c|² + ½ ωᵀ I ω`,
//! not expanded), with `L_0 = L|_{y=0}` the sum of its velocity-free terms; the momenta `p = W y` read the bound
//! entries of `W`. The constraints' `μ` and `β` are small and come from
//! [`crate::lagrange::implicit`]'s own assembly.

use cas::{Deferred, Expr};
use model::System;

use crate::lagrange::implicit::{constraint_rows, Implicit};
use crate::multibody::articulated::{
    dot, force_to_parent, inertia_to_parent, link_inertia, links, motion, newton_euler, times,
    Link, Spatial, Spatial6, Tape, Transform,
};

/// The implicit form of `system` from its tree of joints (of any kind:
/// `crate::multibody::articulated` splits the joints of several degrees of freedom).
pub fn derive(system: &System) -> Option<Implicit> {
    let mb = system.multibody.as_ref()?;
    let links = links(mb, system)?;
    let n = system.rank();
    let mut tape = Tape::new("crb");
    let mass = composite_rigid_body(&mut tape, &links, n);
    let zero = vec![Expr::zero(); n];
    let bias = newton_euler(&mut tape, &links, mb, &zero);
    let forcing: Vec<Expr> = (0..n)
        .map(|a| system.forces[a].clone() - bias[a].clone())
        .collect();
    let velocities = &system.keys(&system.algebroid.velocities);
    let y = |a: usize| system.expr(system.algebroid.velocities[a]);
    let momenta = (0..n)
        .map(|a| Expr::sum((0..n).map(|b| mass[a][b].clone() * y(b))))
        .collect();
    // L_0: the terms of the Lagrangian as lowered (per body) that read no velocity.
    let potential = Expr::sum(system.lagrangian_formed.velocity_free(velocities));
    let energy = {
        let (lagrangian, potential) = (system.lagrangian.clone(), potential.clone());
        Deferred::new(move || lagrangian.get().clone() - Expr::int(2) * potential.clone())
    };
    let (jacobian, bias) = constraint_rows(system);
    Some(Implicit {
        mass,
        forcing,
        jacobian,
        bias,
        momenta,
        energy,
        quadratic: true,
        potential: Some(potential),
        bindings: tape.bindings,
    })
}

/// `W` by the composite-rigid-body algorithm, its entries bound on `tape`: `n × n` in the
/// algebroid's order of velocities.
fn composite_rigid_body(tape: &mut Tape, links: &[Link], n: usize) -> Vec<Vec<Expr>> {
    let transforms: Vec<Transform> = links.iter().map(|l| tape.transform(l)).collect();
    // Composite inertias, leaves to root: I^c_λ(i) += X_iᵀ I^c_i X_i.
    let mut composite: Vec<Spatial6> = links.iter().map(link_inertia).collect();
    for i in (0..links.len()).rev() {
        let own = tape.symmetric(composite[i].clone());
        if let Some(p) = links[i].parent {
            let moved = inertia_to_parent(&transforms[i], &own);
            composite[p] = std::array::from_fn(|a| {
                std::array::from_fn(|b| composite[p][a][b].clone() + moved[a][b].clone())
            });
        }
        composite[i] = own;
    }
    let mut mass = vec![vec![Expr::zero(); n]; n];
    for (i, link) in links.iter().enumerate() {
        // F = I^c_i S_i, carried up the tree: W_ij = S_jᵀ F at each ancestor j.
        let mut force: Spatial = tape.spatial(times(&composite[i], &motion(link)));
        let (a, entry) = (link.section, tape.bind(dot(&motion(link), &force)));
        mass[a][a] = entry;
        let mut j = i;
        while let Some(p) = links[j].parent {
            force = tape.spatial(force_to_parent(&transforms[j], &force));
            j = p;
            let b = links[j].section;
            let entry = tape.bind(dot(&motion(&links[j]), &force));
            mass[a][b] = entry.clone();
            mass[b][a] = entry;
        }
    }
    mass
}
