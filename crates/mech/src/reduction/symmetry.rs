//! The infinitesimal action of a symmetry group on `Q`: the checks that come before any
//! reduction ([IMMS07] §VII names reduction by symmetry as the next step; the setting is that of
//! Lagrangian reduction, Cendra, Marsden and Ratiu 2001, and of nonholonomic reduction, Bloch,
//! Krishnaprasad, Marsden and Murray 1996).
//!
//! A connected Lie group `G` acting on `Q` is given by its infinitesimal generators, vector fields
//! `ξ_a = ξ^i_a(q) ∂_i` on `Q`, one per element `e_a` of a basis of its Lie algebra. Two things
//! must hold before the action can reduce anything, and both are computed here, exactly:
//!
//! - **The generators close.** `[ξ_a, ξ_b] = c^d_ab ξ_d` with *constant* `c^d_ab`, the structure
//!   constants of the action ([`closure`]). The bracket of vector fields is
//!   `[X, Y]^i = X^j ∂_j Y^i − Y^j ∂_j X^i`. For a left action the generators satisfy
//!   `[ξ_Q, η_Q] = −[ξ, η]_Q`, so the constants of the Lie algebra are `−c^d_ab`; both are reported
//!   (an SE(2) action on `(x, y, θ)` gives `[ξ_1, ξ_3] = ξ_2`, `[ξ_2, ξ_3] = −ξ_1`, and the
//!   algebra `[e_3, e_1] = e_2`, `[e_3, e_2] = −e_1`). A bracket that is not a combination of the
//!   generators, or only one with coefficients that depend on `q`, is named.
//! - **The Lagrangian is invariant.** For a connected group, `L` is invariant under the lifted
//!   action iff `ξ^C_a(L) = 0` for every generator, where `ξ^C` is the complete (tangent) lift
//!   `ξ^C = ξ^i ∂_{q^i} + (∂_j ξ^i) q̇^j ∂_{q̇^i}` ([`invariance_defects`]). A generator whose lift
//!   does not annihilate `L` is reported with `ξ^C(L)`, simplified, which names the
//!   non-invariant terms (`m g y` under translations in `y` gives `m g`).
//!
//! The module works on names (the keys of the coordinates and of their velocities) and
//! expressions, so that the spec's `symmetry` item and the multibody front end can both use it.

use cas::Expr;

/// The structure of an infinitesimal action whose generators close.
#[derive(Clone, Debug, PartialEq)]
pub struct Closure {
    /// `c[a][b][d] = c^d_ab` with `[ξ_a, ξ_b] = c^d_ab ξ_d` (vector fields), constants; skew in
    /// `a`, `b`.
    pub constants: Vec<Vec<Vec<Expr>>>,
}

impl Closure {
    /// The structure constants of the Lie algebra `[e_a, e_b] = C^d_ab e_d` of a group acting on
    /// the left, whose generators form an anti-homomorphism: `C^d_ab = −c^d_ab`.
    pub fn left_algebra(&self) -> Vec<Vec<Vec<Expr>>> {
        self.constants
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| v.iter().map(|c| (-c).simplify()).collect())
                    .collect()
            })
            .collect()
    }
}

/// Why a family of generators is not the infinitesimal action of a Lie group.
#[derive(Clone, Debug, PartialEq)]
pub enum NotAnAction {
    /// The generators are dependent (their matrix has rank `rank` below their number): the action
    /// is not free on the chart, or a generator is repeated.
    Dependent {
        /// The rank of the generators' matrix.
        rank: usize,
    },
    /// `[ξ_a, ξ_b]` (its components over the coordinates) is not a combination of the generators.
    NotClosed {
        /// The first generator.
        a: usize,
        /// The second generator.
        b: usize,
        /// `[ξ_a, ξ_b]^i`, simplified.
        bracket: Vec<Expr>,
    },
    /// `[ξ_a, ξ_b] = f^d ξ_d` with coefficients `f^d` that depend on the coordinates.
    NotConstant {
        /// The first generator.
        a: usize,
        /// The second generator.
        b: usize,
        /// The coefficients `f^d`.
        coefficients: Vec<Expr>,
    },
}

/// `[X, Y]^i = X^j ∂_j Y^i − Y^j ∂_j X^i` for vector fields given by their components over
/// `coordinates`, simplified.
pub fn lie_bracket(coordinates: &[String], x: &[Expr], y: &[Expr]) -> Vec<Expr> {
    (0..coordinates.len())
        .map(|i| {
            let terms = coordinates
                .iter()
                .enumerate()
                .flat_map(|(j, q)| [&x[j] * &y[i].diff(q), -(&y[j] * &x[i].diff(q))]);
            Expr::sum(terms).simplify()
        })
        .collect()
}

/// The structure constants of the generators `generators[a]` (each by its components over
/// `coordinates`), or why they are not the infinitesimal action of a Lie group on this chart.
pub fn closure(coordinates: &[String], generators: &[Vec<Expr>]) -> Result<Closure, NotAnAction> {
    let k = generators.len();
    // Rows: the generators; columns: the coordinates. Its pivot columns are k coordinates in
    // which the generators are independent, where the combinations are solved for.
    let (rank, rows) = cas::rank(generators);
    if rank < k {
        return Err(NotAnAction::Dependent { rank });
    }
    let square: Vec<Vec<Expr>> = rows
        .iter()
        .map(|&i| generators.iter().map(|g| g[i].clone()).collect())
        .collect();
    let mut constants = vec![vec![vec![Expr::zero(); k]; k]; k];
    for a in 0..k {
        for b in a + 1..k {
            let bracket = lie_bracket(coordinates, &generators[a], &generators[b]);
            let coefficients = combination(&square, &rows, &bracket);
            let spans = (0..coordinates.len()).all(|i| {
                let combined = Expr::sum((0..k).map(|d| &coefficients[d] * &generators[d][i]));
                (combined - &bracket[i]).is_zero()
            });
            if !spans {
                return Err(NotAnAction::NotClosed { a, b, bracket });
            }
            if coefficients.iter().any(|c| c.depends_on_any(coordinates)) {
                return Err(NotAnAction::NotConstant { a, b, coefficients });
            }
            for d in 0..k {
                constants[a][b][d] = coefficients[d].clone();
                constants[b][a][d] = (-&coefficients[d]).simplify();
            }
        }
    }
    Ok(Closure { constants })
}

/// The coefficients `f` of `v = f^d ξ_d` on the rows `rows` (where `square[r][d] = ξ^{rows[r]}_d`
/// is invertible), simplified.
fn combination(square: &[Vec<Expr>], rows: &[usize], v: &[Expr]) -> Vec<Expr> {
    let rhs: Vec<Vec<Expr>> = rows.iter().map(|&i| vec![v[i].clone()]).collect();
    let solution = cas::solve(square, &rhs).expect("the pivot rows are independent");
    solution.into_iter().map(|row| row[0].simplify()).collect()
}

/// `ξ^C(f) = ξ^i ∂f/∂q^i + (∂_j ξ^i) q̇^j ∂f/∂q̇^i`: the complete lift of the vector field `xi` on
/// `Q` (components over `coordinates`, whose velocities are `velocities`) applied to a function
/// `f` on `TQ`, simplified.
pub fn complete_lift(coordinates: &[String], velocities: &[String], xi: &[Expr], f: &Expr) -> Expr {
    let terms = coordinates.iter().enumerate().flat_map(|(i, q)| {
        let base = &xi[i] * &f.diff(q);
        let rate = Expr::sum(
            coordinates
                .iter()
                .zip(velocities)
                .map(|(qj, vj)| xi[i].diff(qj) * Expr::symbol(vj)),
        );
        [base, rate * f.diff(&velocities[i])]
    });
    Expr::sum(terms).simplify()
}

/// For each generator whose complete lift does not annihilate `lagrangian`, its index and
/// `ξ^C(L)`: empty iff the Lagrangian is invariant under the (connected) group.
pub fn invariance_defects(
    coordinates: &[String],
    velocities: &[String],
    generators: &[Vec<Expr>],
    lagrangian: &Expr,
) -> Vec<(usize, Expr)> {
    generators
        .iter()
        .enumerate()
        .map(|(a, xi)| (a, complete_lift(coordinates, velocities, xi, lagrangian)))
        .filter(|(_, defect)| !defect.is_zero())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    fn cos(e: Expr) -> Expr {
        Expr::apply(cas::Func::Cos, e)
    }

    fn sin(e: Expr) -> Expr {
        Expr::apply(cas::Func::Sin, e)
    }

    /// SE(2) acting on (x, y, θ) on the left: translations ∂x, ∂y and the rotation about the
    /// origin −y ∂x + x ∂y + ∂θ.
    fn se2() -> Vec<Vec<Expr>> {
        vec![
            vec![Expr::one(), Expr::zero(), Expr::zero()],
            vec![Expr::zero(), Expr::one(), Expr::zero()],
            vec![-s("y"), s("x"), Expr::one()],
        ]
    }

    #[test]
    fn se2_closes_with_the_constants_of_se2() {
        // By hand: [ξ1, ξ3] = ∂x(−y, x, 1) = (0, 1, 0) = ξ2; [ξ2, ξ3] = ∂y(−y, x, 1) = −ξ1;
        // [ξ1, ξ2] = 0.
        let closure = closure(&names(&["x", "y", "theta"]), &se2()).unwrap();
        let c = |a: usize, b: usize| -> Vec<String> {
            closure.constants[a][b]
                .iter()
                .map(|e| e.to_string())
                .collect()
        };
        assert_eq!(c(0, 2), ["0", "1", "0"]);
        assert_eq!(c(1, 2), ["-1", "0", "0"]);
        assert_eq!(c(0, 1), ["0", "0", "0"]);
        assert_eq!(c(2, 0), ["0", "-1", "0"]);
        // The algebra: [e3, e1] = e2 and [e3, e2] = −e1 (rotation acting on translations).
        let algebra = closure.left_algebra();
        assert_eq!(algebra[2][0][1].to_string(), "1");
        assert_eq!(algebra[2][1][0].to_string(), "-1");
    }

    #[test]
    fn generators_that_do_not_close_are_named_with_their_bracket() {
        // ∂x and x² ∂y: the bracket 2x ∂y is a combination of ξ2 only with the coefficient 2/x.
        let generators = vec![
            vec![Expr::one(), Expr::zero()],
            vec![Expr::zero(), s("x").powi(2)],
        ];
        let q = names(&["x", "y"]);
        match closure(&q, &generators) {
            Err(NotAnAction::NotConstant { a, b, coefficients }) => {
                assert_eq!((a, b), (0, 1));
                assert!((coefficients[1].clone() - Expr::int(2) / s("x")).is_zero());
            }
            other => panic!("{other:?}"),
        }
        // ∂x and x ∂x + ∂y + x ∂z on (x, y, z): the bracket ∂x + ∂z leaves their span.
        let generators = vec![
            vec![Expr::one(), Expr::zero(), Expr::zero()],
            vec![s("x"), Expr::one(), s("x")],
        ];
        match closure(&names(&["x", "y", "z"]), &generators) {
            Err(NotAnAction::NotClosed { bracket, .. }) => {
                let shown: Vec<String> = bracket.iter().map(|e| e.to_string()).collect();
                assert_eq!(shown, ["1", "0", "1"]);
            }
            other => panic!("{other:?}"),
        }
        let repeated = vec![se2()[0].clone(), se2()[0].clone()];
        assert_eq!(
            closure(&names(&["x", "y", "theta"]), &repeated),
            Err(NotAnAction::Dependent { rank: 1 })
        );
    }

    #[test]
    fn rotations_of_space_are_not_free_and_their_bracket_is_minus_the_cross_product() {
        // ξ_a(q) = e_a × q on ℝ³: [ξ1, ξ2] = (y, −x, 0) = −ξ3 by hand, as [ξ_Q, η_Q] = −[ξ, η]_Q
        // with [e1, e2] = e3; the three are dependent (the orbits are spheres), so SO(3) does
        // not act freely and is refused.
        let q = names(&["x", "y", "z"]);
        let rotations = vec![
            vec![Expr::zero(), -s("z"), s("y")],
            vec![s("z"), Expr::zero(), -s("x")],
            vec![-s("y"), s("x"), Expr::zero()],
        ];
        let bracket: Vec<String> = lie_bracket(&q, &rotations[0], &rotations[1])
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(bracket, ["y", "-x", "0"]);
        assert_eq!(
            closure(&q, &rotations),
            Err(NotAnAction::Dependent { rank: 2 })
        );
    }

    #[test]
    fn the_sleigh_lagrangian_is_se2_invariant_and_gravity_is_not() {
        // The Chaplygin sleigh in (x, y, θ) (mass m, inertia J about the contact point, centre
        // of mass at distance a along the body axis): invariant under SE(2).
        let (x, y, th) = (s("x'"), s("y'"), s("theta'"));
        let (c, sn) = (cos(s("theta")), sin(s("theta")));
        let lagrangian = s("m") / Expr::int(2)
            * ((x.clone() - s("a") * &sn * &th).powi(2) + (y.clone() + s("a") * &c * &th).powi(2))
            + s("J") / Expr::int(2) * th.powi(2);
        let q = names(&["x", "y", "theta"]);
        let v = names(&["x'", "y'", "theta'"]);
        assert!(invariance_defects(&q, &v, &se2(), &lagrangian).is_empty());
        // A potential m g y is invariant under ξ1 only: ξ2^C(L) = −m g, ξ3^C(L) = −m g x.
        let tilted = lagrangian - s("m") * s("g") * s("y");
        let defects = invariance_defects(&q, &v, &se2(), &tilted);
        let indices: Vec<usize> = defects.iter().map(|(a, _)| *a).collect();
        assert_eq!(indices, [1, 2]);
        assert!((defects[0].1.clone() + s("m") * s("g")).is_zero());
        assert!((defects[1].1.clone() + s("m") * s("g") * s("x")).is_zero());
    }

    #[test]
    fn the_complete_lift_moves_velocities_by_the_jacobian_of_the_generator() {
        // ξ = −y ∂x + x ∂y: ξ^C = −y ∂x + x ∂y − y' ∂x' + x' ∂y', so ξ^C(x'²/2) = −x' y'.
        let q = names(&["x", "y"]);
        let v = names(&["x'", "y'"]);
        let rotation = vec![-s("y"), s("x")];
        let f = s("x'").powi(2) / Expr::int(2);
        let lifted = complete_lift(&q, &v, &rotation, &f);
        assert!((lifted + s("x'") * s("y'")).is_zero());
    }
}
