//! Frames of the algebroid adapted to linear constraints ([GBMS24] §2.1).
//!
//! A frame `f_A = T_A^B e_B` of `E` is given through its momenta `η_A = ⟨p, f_A⟩ = T_A^B p_B`
//! (`frame { eta1 = cos(phi)*p1 + sin(phi)*p2 … }`), or computed from the constraints. It is
//! *adapted* when `k = n − r` of its sections span the constraint distribution
//! `C = {μ^a_B y^B = 0}` (the sections along `C`, the paper's `f_a`); the others complete it
//! (the paper's `f_α`). Any completion will do ([GBMS24] Ex. 3.5).
//!
//! The computed frame solves the constraints for the pivot velocities `y^α = S^α_a y^a` (the same
//! pivots as the Lagrangian side): `f_a = e_a + S^α_a e_α` along `C` and `f_α = e_α`, so that
//! `η_a = p_a + S^α_a p_α`, `η_α = p_α`. A momentum keeps its algebroid name where its row is the
//! identity; the others are named `<p>_C`.

use cas::Expr;

use crate::symbols::Handle;
pub use crate::system::Frame;
use crate::system::{ConstraintShape, System};

/// Whether every constraint is linear and homogeneous (`μ^a_B y^B = 0`), so that it defines a
/// distribution `C ⊂ E` a frame can adapt to.
pub fn linear_constraints(system: &System) -> bool {
    system
        .constraints
        .iter()
        .all(|c| c.shape == ConstraintShape::Linear)
}

/// Which unknowns (columns of the coefficient rows `mu`) to solve affine equations for: for each
/// row in turn, the not yet chosen column with the simplest coefficient (a number if there is
/// one), so that restricted expressions divide by as little as possible; the rank pivots if that
/// choice is singular. Used for the velocities of the constraints, for the momenta of their
/// Hamiltonian form, and for the computed frame.
pub fn pivot_columns(mu: &[Vec<Expr>]) -> Option<Vec<usize>> {
    let mut chosen: Vec<usize> = Vec::new();
    for row in mu {
        let best = row
            .iter()
            .enumerate()
            .filter(|(k, c)| !chosen.contains(k) && !c.is_zero())
            .min_by_key(|(k, c)| (c.as_small_rational().is_none(), c.size(), *k))
            .map(|(k, _)| k)?;
        chosen.push(best);
    }
    let square: Vec<Vec<Expr>> = mu
        .iter()
        .map(|row| chosen.iter().map(|&k| row[k].clone()).collect())
        .collect();
    // Regular at a random point proves a non-zero determinant, without expanding it.
    if cas::first_dependent_row(&square).is_none() {
        return Some(chosen);
    }
    let (rank, pivots) = cas::rank(mu);
    (rank == mu.len()).then_some(pivots)
}

/// The terms the elimination of a computed frame may form in all, counted before each product
/// is normalised ([`Expr::expansion_bound`]): a frame is for the Dirac side of a small system, and
/// solving ten trigonometric constraints of a wheeled snake symbolically took 49 s in the
/// resolver. The shipped examples form at most about 1,700.
pub const FRAME_EXPANSION: usize = 5_000;

/// The frame computed from linear constraints (see the module documentation); `taken` says
/// whether a name is already in use. `None` when the constraints are not linear or cannot be
/// solved, or when solving them would form more than [`FRAME_EXPANSION`] terms.
pub fn computed(system: &System, taken: &dyn Fn(&str) -> bool) -> Option<Frame> {
    if !linear_constraints(system) {
        return None;
    }
    let n = system.rank();
    let mu: Vec<Vec<Expr>> = system.constraints.iter().map(|c| c.mu.clone()).collect();
    let pivots = if mu.is_empty() {
        Vec::new()
    } else {
        pivot_columns(&mu)?
    };
    let free: Vec<usize> = (0..n).filter(|k| !pivots.contains(k)).collect();
    // μ_P y_P = −μ_F y_F, so y_P = S y_F with S = −μ_P⁻¹ μ_F.
    let block = |cols: &[usize]| -> Vec<Vec<Expr>> {
        mu.iter()
            .map(|row| cols.iter().map(|&k| row[k].clone()).collect())
            .collect()
    };
    let rhs: Vec<Vec<Expr>> = block(&free)
        .into_iter()
        .map(|row| row.into_iter().map(|e| -e).collect())
        .collect();
    let s = if pivots.is_empty() {
        Vec::new()
    } else {
        let mut budget = cas::ExpansionBudget::new(FRAME_EXPANSION);
        cas::solve_guarded(&block(&pivots), &rhs, &mut budget).ok()?
    };
    let mut matrix = vec![vec![Expr::zero(); n]; n];
    for (a, row) in matrix.iter_mut().enumerate() {
        row[a] = Expr::one();
    }
    for (j, &a) in free.iter().enumerate() {
        for (i, &alpha) in pivots.iter().enumerate() {
            matrix[a][alpha] = s[i][j].simplify();
        }
    }
    let momentum_keys = system.keys(&system.algebroid.momenta);
    let mut names: Vec<String> = Vec::with_capacity(n);
    for a in 0..n {
        let identity = matrix[a]
            .iter()
            .enumerate()
            .all(|(b, t)| b == a || t.is_zero());
        let mut name = momentum_keys[a].clone();
        if !identity {
            name.push_str("_C");
            while taken(&name) || names.contains(&name) || momentum_keys.contains(&name) {
                name.push('_');
            }
        }
        names.push(name);
    }
    let velocities: Vec<Handle> = free
        .iter()
        .map(|&a| system.algebroid.velocities[a])
        .collect();
    Some(Frame {
        momenta: system.handles(&names),
        matrix,
        declared: false,
        along: free,
        velocities,
    })
}
