//! [IMMS07] §II.4 (the section `R_L`) and §IV.1 (eq. 35): the implicit form of the dynamics,
//!
//! ```text
//! W_αβ ẏ^β + λ_a μ^a_α = b_α        (n equations)
//! μ^a_α ẏ^α            = β^a        (r equations: the constraints differentiated once)
//! ```
//!
//! with `W_αβ = ∂²L/∂y^α∂y^β`, `b_α = F_α + ρ_α(L) − (ρ_0 + y^γ ρ_γ)(p_α) + (C^γ_0α + y^μ C^γ_μα) p_γ`
//! and `β^a = −(ρ_0 + y^γ ρ_γ)(Ψ^a)`. It is what a numeric integrator of a large system needs:
//! no inverse of `W`, no closed-form multipliers, so nothing swells.
//!
//! # Why it stays small
//!
//! A mechanical Lagrangian is quadratic in the velocities, `L = ½ W_αβ y^α y^β + a_α y^α + L_0`,
//! with `W` independent of `y`. Then every entry `W_αβ` is a small expression (for a chain of
//! links, `l_α l_β cos(θ_α − θ_β)` times a sum of masses) and is simplified on its own, while the
//! forcing is assembled from those entries *without* being expanded:
//!
//! - `p_α = W_αβ y^β + a_α`, so `(ρ_0 + yρ)(p_α) = Σ_β X(W_αβ) y^β + X(a_α)` where `X` is the
//!   admissible velocity, and `X(W_αβ)` only differentiates along the few coordinates `W_αβ`
//!   depends on;
//! - `ρ^i_α ∂_i L = ρ^i_α (½ ∂_i W_βγ y^β y^γ + ∂_i a_β y^β + ∂_i L_0)`, again sparse.
//!
//! Each entry is read off one expansion of `L` and factored as (configuration part) ×
//! (parameter part) ([`cas::Expr::separated_quadratic_form`], with the sines and cosines hidden
//! once before the expansion), which is what the coefficients of a kinetic energy
//! `Σ mass × geometry²` are.
//!
//! The pieces are shared by the straight-line programs of the code emitter (hash-consing), so the
//! forcing of an `n`-link chain costs `O(n²)` operations, like `W` itself, instead of the `O(n³)`
//! or worse of an expanded closed form. A Lagrangian that is not quadratic in the velocities takes
//! the general route: `p_α` simplified, then differentiated along every coordinate.

use cas::{Deferred, Expr};
use model::{ConstraintShape, System};

use crate::base::algebra::anchor_apply;
use crate::lagrange::lagrangian::gyroscopic;

/// The implicit form of the dynamics.
#[derive(Clone, Debug)]
pub struct Implicit {
    /// `W_αβ` (symmetric, `n × n`).
    pub mass: Vec<Vec<Expr>>,
    /// `b_α`, forces included.
    pub forcing: Vec<Expr>,
    /// `μ^a_α` (`r × n`).
    pub jacobian: Vec<Vec<Expr>>,
    /// `β^a = −(ρ_0 + y^γ ρ_γ)(Ψ^a)`.
    pub bias: Vec<Expr>,
    /// The momenta `p_α`, in the form the forcing was assembled from.
    pub momenta: Vec<Expr>,
    /// `E_L = y^α p_α − L` (for a quadratic Lagrangian `½ W_αβ y^α y^β − L_0`).
    pub energy: Deferred,
    /// Whether `L` is quadratic in the velocities (the structured route was taken).
    pub quadratic: bool,
    /// `L_0 = L|_{y=0}` when `L` is quadratic, so that `E_L = ½ W_αβ y^α y^β − L_0`.
    pub potential: Option<Expr>,
    /// `(symbol, value)` in order, read by the entries of `W`, the forcing and the momenta: empty
    /// when they were read off the expanded Lagrangian, the straight-line program of the
    /// recursions when they come from a tree of joints (`mech::multibody::composite`).
    pub bindings: Vec<(String, Expr)>,
}

/// Derives the implicit form of `system`'s dynamics.
pub fn derive(system: &System) -> Implicit {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let l: &Expr = &system.lagrangian;
    let velocity = system.admissible_velocity();
    let gyro = gyroscopic(system);
    let config = &system.keys(&system.coordinates);
    let parts = match l.separated_quadratic_form(&system.keys(&alg.velocities), config) {
        Some(form) => quadratic_parts(system, form),
        None => general_parts(system),
    };
    let y = |a: usize| system.expr(alg.velocities[a]);
    // The entries of `W` applied so far: `W` is symmetric, and an entry equal to its mirror
    // above the diagonal (applied before it, row by row) is not applied again.
    let mut applied: Vec<Vec<Option<Expr>>> = vec![vec![None; n]; n];
    let mut apply_mass = |a: usize, b: usize| -> Expr {
        let mirror = (b < a && parts.mass[a][b] == parts.mass[b][a])
            .then(|| applied[b][a].clone())
            .flatten();
        let value = mirror.unwrap_or_else(|| {
            let entry = &parts.mass[a][b];
            // The derivatives `ρ_α(L)` took, when the piece is this entry (`W` is symmetric).
            // `field_apply`'s shortcut for a field along time alone gives the same: a product
            // with 1 is its other factor.
            let piece = parts
                .pieces
                .as_ref()
                .map(|pieces| (a.min(b), a.max(b), pieces))
                .filter(|&(low, high, _)| parts.mass[low][high] == *entry)
                .map(|(low, high, pieces)| &pieces[pair_index(n, low, high)]);
            match piece {
                Some(piece) => piece.apply(system, &velocity, entry),
                None => field_apply(system, &velocity, entry),
            }
        });
        applied[a][b] = Some(value.clone());
        value
    };
    let forcing: Vec<Expr> = (0..n)
        .map(|a| {
            let transported = match &parts.linear {
                // p_α = W_αβ y^β + a_α: differentiate the small pieces only.
                Some(linear) => Expr::sum(
                    std::iter::once(field_apply(system, &velocity, &linear[a]))
                        .chain((0..n).map(|b| apply_mass(a, b) * y(b))),
                ),
                None => field_apply(system, &velocity, &parts.momenta[a]),
            };
            let coupling = (0..n)
                .filter(|&g| !gyro[a][g].is_literal_zero())
                .fold(Expr::zero(), |acc, g| {
                    acc + gyro[a][g].clone() * parts.momenta[g].clone()
                });
            parts.anchored[a].clone() - transported + coupling + system.forces[a].clone()
        })
        .collect();
    let (jacobian, bias) = constraint_rows(system);
    Implicit {
        mass: parts.mass,
        forcing,
        jacobian,
        bias,
        momenta: parts.momenta,
        energy: parts.energy.into(),
        quadratic: parts.linear.is_some(),
        potential: parts.potential,
        bindings: Vec::new(),
    }
}

/// `μ^a_α` and `β^a = −(ρ_0 + y^γ ρ_γ)(Ψ^a)` of the constraints.
pub(crate) fn constraint_rows(system: &System) -> (Vec<Vec<Expr>>, Vec<Expr>) {
    let n = system.rank();
    let y = |a: usize| system.expr(system.algebroid.velocities[a]);
    let velocity = system.admissible_velocity();
    let config = &system.keys(&system.coordinates);
    let jacobian: Vec<Vec<Expr>> = system
        .constraints
        .iter()
        .map(|c| c.mu.iter().map(|m| m.separated(config)).collect())
        .collect();
    let bias = system
        .constraints
        .iter()
        .zip(&jacobian)
        .map(|(c, mu)| match c.shape {
            // Ψ = μ_0 + μ_α y^α: differentiate the small coefficients, not Ψ as written.
            ConstraintShape::Linear | ConstraintShape::Affine => (0..n)
                .fold(-field_apply(system, &velocity, &c.mu0), |acc, a| {
                    acc - field_apply(system, &velocity, &mu[a]) * y(a)
                }),
            ConstraintShape::Nonlinear => -field_apply(system, &velocity, &c.psi),
        })
        .collect();
    (jacobian, bias)
}

/// `W`, `p`, `E_L` and `ρ_α(L)`, by one of the two routes.
struct Parts {
    mass: Vec<Vec<Expr>>,
    /// The entries of `W` on and above the diagonal, row by row, with their partial derivatives
    /// as `ρ_α(L)` took them (the quadratic route), for the forcing to take again.
    pieces: Option<Vec<Piece>>,
    momenta: Vec<Expr>,
    energy: Expr,
    anchored: Vec<Expr>,
    /// `a_α` when `L` is quadratic in the velocities.
    linear: Option<Vec<Expr>>,
    /// `L_0` when `L` is quadratic in the velocities.
    potential: Option<Expr>,
}

/// Any Lagrangian: `p_α` and `W_αβ` by differentiation, simplified.
fn general_parts(system: &System) -> Parts {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let l: &Expr = &system.lagrangian;
    let velocities = system.keys(&alg.velocities);
    let momenta: Vec<Expr> = velocities.iter().map(|v| l.diff(v).simplify()).collect();
    let mass = momenta
        .iter()
        .map(|p| velocities.iter().map(|v| p.diff(v).factored()).collect())
        .collect();
    let energy = (0..n)
        .fold(-l.clone(), |acc, a| {
            acc + system.expr(alg.velocities[a]) * momenta[a].clone()
        })
        .simplify();
    let anchored = (0..n).map(|a| anchor_apply(system, a + 1, l)).collect();
    Parts {
        mass,
        pieces: None,
        momenta,
        energy,
        anchored,
        linear: None,
        potential: None,
    }
}

/// A Lagrangian `½ W_αβ y^α y^β + a_α y^α + L_0`: every piece read off one expansion and
/// simplified on its own; `ρ_α(L)` assembled from the derivatives of the pieces.
// The loops walk the upper triangle of a symmetric matrix by index.
#[allow(clippy::needless_range_loop)]
fn quadratic_parts(system: &System, form: cas::SeparatedQuadratic) -> Parts {
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let y = |a: usize| system.expr(alg.velocities[a]);
    let config = &system.keys(&system.coordinates);
    let cas::SeparatedQuadratic {
        hessian: mass,
        linear,
        constant,
    } = form;
    let potential = &constant;
    // Each `p_α = a_α + W_αβ y^β` normalised once ([`Expr::sum`]), not once per added term.
    let momenta: Vec<Expr> = (0..n)
        .map(|a| {
            Expr::sum(
                std::iter::once(linear[a].clone()).chain((0..n).map(|b| mass[a][b].clone() * y(b))),
            )
        })
        .collect();
    // The monomials `½ (y^a)²` and `y^a y^b` (a < b) of the quadratic part, with the entries of
    // `W` they weigh. The sums over them are normalised once ([`Expr::sum`]): added one by one, the
    // growing sum would be copied once for each of the `n²/2` terms.
    let half = Expr::rational(1, 2);
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
    let monomial = |&(a, b): &(usize, usize)| {
        if a == b {
            half.clone() * y(a).powi(2)
        } else {
            y(a) * y(b)
        }
    };
    // Formed once: every anchor's quadratic terms multiply them again.
    let monomials: Vec<Expr> = pairs.iter().map(monomial).collect();
    let kinetic = Expr::sum(
        pairs
            .iter()
            .zip(&monomials)
            .map(|(p, m)| mass[p.0][p.1].clone() * m.clone()),
    );
    let energy = kinetic - potential.clone();
    // Every anchor applies every piece: what each piece depends on is read once, not once per
    // anchor (for a chain, `n` anchors times `n²/2` entries of `W`), and only the few pieces an
    // anchor moves contribute a term.
    let potential_moves = Dependence::of(system, potential);
    let linear_moves: Vec<Dependence> = linear.iter().map(|e| Dependence::of(system, e)).collect();
    let pieces: Vec<Piece> = pairs
        .iter()
        .map(|&(a, b)| Piece::of(system, &mass[a][b]))
        .collect();
    let anchored = (0..n)
        .map(|a| {
            let field = &alg.anchors[a];
            let moved = potential_moves
                .apply(system, field, potential)
                .separated(config);
            let linear_terms = (0..n).filter_map(|b| {
                let derivative = linear_moves[b].apply(system, field, &linear[b]);
                (!derivative.is_literal_zero()).then(|| derivative * y(b))
            });
            let weighed = pairs.iter().zip(&pieces).zip(&monomials);
            let quadratic_terms = weighed.filter_map(|((p, piece), monomial)| {
                let derivative = piece.apply(system, field, &mass[p.0][p.1]);
                (!derivative.is_literal_zero()).then(|| derivative * monomial.clone())
            });
            Expr::sum(
                std::iter::once(moved)
                    .chain(linear_terms)
                    .chain(quadratic_terms),
            )
        })
        .collect();
    Parts {
        mass,
        pieces: Some(pieces),
        momenta,
        energy,
        anchored,
        linear: Some(linear),
        potential: Some(potential.clone()),
    }
}

/// `X(f) = X^i ∂_i f`, differentiating only along the base coordinates `f` depends on (time
/// through the chain rule of the functions of time, as in [`System::partial_base`]).
pub fn field_apply(system: &System, field: &[Expr], f: &Expr) -> Expr {
    let mut moving = field
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_literal_zero());
    match (moving.next(), moving.next()) {
        (None, _) => return Expr::zero(),
        // Along time alone (ρ_0 of a tangent algebroid): one walk of `f`, which stops early.
        (Some((0, coefficient)), None) if system.functions.is_empty() => {
            return if f.depends_on(&system.key(system.time)) {
                coefficient.clone() * system.partial_base(f, 0)
            } else {
                Expr::zero()
            };
        }
        _ => {}
    }
    Dependence::of(system, f).apply(system, field, f)
}

/// The base directions along which an expression may vary, in increasing order: 0 for time
/// (explicitly or through a function of time), `i ≥ 1` for the `i`-th coordinate. Read once off
/// the expression's symbols, it lets many fields apply the same expression.
struct Dependence(Vec<usize>);

impl Dependence {
    /// What `f` depends on.
    fn of(system: &System, f: &Expr) -> Dependence {
        let mut directions = Vec::new();
        for symbol in f.symbols() {
            let handle = system.handle(&symbol);
            if handle == system.time || system.function_order(handle).is_some() {
                directions.push(0);
            }
            if let Some(i) = system.coordinates.iter().position(|c| *c == handle) {
                directions.push(i + 1);
            }
        }
        directions.sort_unstable();
        directions.dedup();
        Dependence(directions)
    }

    /// `X(f) = X^i ∂_i f` for the `f` this was read off, summed in increasing `i`.
    fn apply(&self, system: &System, field: &[Expr], f: &Expr) -> Expr {
        self.apply_with(field, |_, i| system.partial_base(f, i))
    }

    /// [`Dependence::apply`] with `∂_i f` given by `partial(k, i)`, `i` the `k`-th direction.
    fn apply_with(&self, field: &[Expr], partial: impl Fn(usize, usize) -> Expr) -> Expr {
        let moving = self
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &i)| !field[i].is_literal_zero());
        match (moving.clone().next(), moving.clone().nth(1)) {
            // One direction with coefficient 1 (a coordinate field of a tangent algebroid):
            // the derivative itself, without a product and a sum to normalise.
            (Some((k, &i)), None) if field[i] == Expr::one() => partial(k, i),
            // Normalised once ([`Expr::sum`]), not once per direction.
            _ => Expr::sum(moving.map(|(k, &i)| field[i].clone() * partial(k, i))),
        }
    }
}

/// An entry of `W` with the directions it varies along and its partial derivatives along them,
/// each taken once: `ρ_α(L)` differentiates the entries along the anchors, and the forcing's
/// `(ρ_0 + y^γ ρ_γ)(p_α)` along the admissible velocity, the same derivatives again.
struct Piece {
    moves: Dependence,
    partials: Vec<std::cell::OnceCell<Expr>>,
}

impl Piece {
    fn of(system: &System, f: &Expr) -> Piece {
        let moves = Dependence::of(system, f);
        let partials = moves.0.iter().map(|_| std::cell::OnceCell::new()).collect();
        Piece { moves, partials }
    }

    /// `X(f)`, as [`Dependence::apply`] gives it, for the `f` this was read off.
    fn apply(&self, system: &System, field: &[Expr], f: &Expr) -> Expr {
        self.moves.apply_with(field, |k, i| {
            self.partials[k]
                .get_or_init(|| system.partial_base(f, i))
                .clone()
        })
    }
}

/// The position of the pair `(a, b)`, `a ≤ b`, among the pairs of an `n × n` symmetric matrix
/// on and above its diagonal, row by row.
fn pair_index(n: usize, a: usize, b: usize) -> usize {
    a * n - a * (a + 1) / 2 + b
}

#[cfg(test)]
mod tests {
    /// `pair_index` numbers the pairs in the order `quadratic_parts` lists them.
    #[test]
    fn pairs_are_numbered_row_by_row() {
        for n in 1..7 {
            let pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
            for (k, &(a, b)) in pairs.iter().enumerate() {
                assert_eq!(super::pair_index(n, a, b), k, "n = {n}, ({a}, {b})");
            }
        }
    }
}
