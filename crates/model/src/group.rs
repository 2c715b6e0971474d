//! A Lie group acting on the configuration space, as the `symmetry NAME on q1, q2 { … }` item
//! declares it: the data a reduction by symmetry starts from (`mech::reduction`).
//!
//! The action is given on a chart `Q = S × G` split by the spec: the coordinates after `on` are
//! moved by the group (one per dimension of `G`, so that the action is free on the chart), the
//! others are the *shape* coordinates, coordinates on `Q/G`. Two things describe it:
//!
//! - its **generators** `ξ_a = ξ^i_a(q) ∂_i`, one per basis element `e_a` of the Lie algebra: the
//!   infinitesimal action (for a left action `ξ_Q(q) = d/dt exp(tξ)·q`);
//! - an **invariant frame** `η_b` of the vertical bundle: vector fields along the orbits that
//!   commute with every generator, `[η_b, ξ_a] = 0`. Velocities measured in such a frame are
//!   invariant (the *body* velocities of a left action), which is what makes the reduced
//!   Lagrangian a function on `TQ/G`.
//!
//! A named group carries both: `translations` and `SO2` (abelian, `η = ξ = ∂_q`), `SE2` on
//! `(x, y, θ)` (generators `∂_x`, `∂_y`, `−y∂_x + x∂_y + ∂_θ`; body frame `cos θ ∂_x + sin θ ∂_y`,
//! `−sin θ ∂_x + cos θ ∂_y`, `∂_θ`), `SO3` on the Z-Y-X Euler angles `(ψ, θ, φ)` (yaw, pitch,
//! roll; spatial and body angular velocities) or on a quaternion `(q0, q1, q2, q3)` (left
//! multiplication by unit quaternions: generators `½ e_a ⊗ q`, frame `½ q ⊗ e_b`), and `SE3` on a
//! position `(x, y, z)` followed by either chart of the rotation (generators: the translations,
//! then the rotations `(e_a × x)·∂_x` plus those of `SO3`; frame: the body axes `R e_i·∂_x`, then
//! the body angular velocities). For generators given one by one the frame is the generators
//! themselves, which is invariant exactly when they commute; a non-abelian group given by
//! generators is refused by `mech::reduction` (name it instead).
//!
//! A quaternion has one coordinate more than `SO(3)`: the orbits of the unit quaternions on
//! `ℝ⁴ ∖ 0` are the spheres `|q| = const`, so the chart is not `S × G` and the group is declared
//! on a system whose velocities are already the body ones (a `spherical` or `free` joint, or an
//! algebroid whose anchors are `½ q ⊗ (0, ω)`), where `|q|` does not move
//! ([`NamedGroup::transversal`]).

use cas::{Expr, Func};
use diagnostic::Span;

/// The groups the spec language knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedGroup {
    /// `translations` on any number of coordinates (`ℝⁿ`).
    Translations,
    /// `SO2` (or `S1`) on one angle.
    Rotations,
    /// `SE2` on `(x, y, θ)`, acting on the left.
    Euclidean2,
    /// `SO3` on the Z-Y-X Euler angles `(ψ, θ, φ)` or on a quaternion, acting on the left.
    Rotations3,
    /// `SE3` on `(x, y, z)` and the Z-Y-X Euler angles or a quaternion, acting on the left.
    Euclidean3,
}

/// The side a group acts on: `g · q` (left) or `q · g` (right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Side {
    /// `g · q`, the default.
    #[default]
    Left,
    /// `q · g` (`action right`).
    Right,
}

impl NamedGroup {
    /// The group a name stands for.
    pub fn parse(name: &str) -> Option<NamedGroup> {
        match name {
            "translations" => Some(NamedGroup::Translations),
            "SO2" | "S1" => Some(NamedGroup::Rotations),
            "SE2" => Some(NamedGroup::Euclidean2),
            "SO3" => Some(NamedGroup::Rotations3),
            "SE3" => Some(NamedGroup::Euclidean3),
            _ => None,
        }
    }

    /// Whether it acts on `n` coordinates (a translation group on any number; `SO3` on three Euler
    /// angles or a quaternion's four; `SE3` on a position and either).
    pub fn acts_on(self, n: usize) -> bool {
        match self {
            NamedGroup::Translations => n > 0,
            NamedGroup::Rotations => n == 1,
            NamedGroup::Euclidean2 => n == 3,
            NamedGroup::Rotations3 => n == 3 || n == 4,
            NamedGroup::Euclidean3 => n == 6 || n == 7,
        }
    }

    /// Whether `n` coordinates are a quaternion chart of the group (one more than its dimension).
    pub fn is_quaternion_chart(self, n: usize) -> bool {
        matches!(
            (self, n),
            (NamedGroup::Rotations3, 4) | (NamedGroup::Euclidean3, 7)
        )
    }

    /// What the coordinates after `on` must be, in words.
    pub fn expected_coordinates(self) -> &'static str {
        match self {
            NamedGroup::Translations => "one or more coordinates, each translated",
            NamedGroup::Rotations => "one angle",
            NamedGroup::Euclidean2 => "`x, y, theta`: a position in the plane and a heading",
            NamedGroup::Rotations3 => {
                "the Z-Y-X Euler angles `yaw, pitch, roll`, or a quaternion `q0, q1, q2, q3`"
            }
            NamedGroup::Euclidean3 => {
                "a position `x, y, z`, then the Z-Y-X Euler angles or a quaternion `q0, q1, q2, q3`"
            }
        }
    }

    /// The generators and the invariant frame over the moved coordinates `q` (as expressions) of the group
    /// acting on `side`, in that order: `(ξ_a, η_b)`, each a vector of components over `q`. The generators of the right action are the left-invariant fields
    /// and its invariant frame the right-invariant ones: the two sets of the left action, swapped
    /// (for `SO3`, body and spatial angular velocity exchange their roles).
    pub fn fields(self, q: &[Expr], side: Side) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
        let (generators, frame) = self.left_fields(q);
        match side {
            Side::Right => (frame, generators),
            Side::Left => (generators, frame),
        }
    }

    fn left_fields(self, q: &[Expr]) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
        let s = |x: &Expr| x.clone();
        let sin = |x: &Expr| Expr::apply(Func::Sin, x.clone());
        let cos = |x: &Expr| Expr::apply(Func::Cos, x.clone());
        let unit = |r: usize, n: usize| -> Vec<Expr> {
            (0..n)
                .map(|i| if i == r { Expr::one() } else { Expr::zero() })
                .collect()
        };
        match self {
            NamedGroup::Translations | NamedGroup::Rotations => {
                let frame: Vec<Vec<Expr>> = (0..q.len()).map(|r| unit(r, q.len())).collect();
                (frame.clone(), frame)
            }
            NamedGroup::Euclidean2 => {
                let (x, y, th) = (&q[0], &q[1], &q[2]);
                let generators = vec![unit(0, 3), unit(1, 3), vec![-s(y), s(x), Expr::one()]];
                let frame = vec![
                    vec![cos(th), sin(th), Expr::zero()],
                    vec![-sin(th), cos(th), Expr::zero()],
                    unit(2, 3),
                ];
                (generators, frame)
            }
            NamedGroup::Rotations3 => rotation_fields(q),
            NamedGroup::Euclidean3 => euclidean3(q),
        }
    }

    /// The value of each moved coordinate at the identity (where invariant functions are read):
    /// zero, but for a quaternion's scalar part, one.
    pub fn identity(self, q: &[Expr]) -> Vec<Expr> {
        let mut at = vec![Expr::zero(); q.len()];
        if self.is_quaternion_chart(q.len()) {
            at[q.len() - 4] = Expr::one();
        }
        at
    }

    /// The fields over the moved coordinates `q` transversal to the orbits that the group's chart
    /// has besides them: for a quaternion, the Euler field `q^i ∂_{q^i}`, along which `|q|`
    /// grows; none for the other charts, whose orbits are open.
    pub fn transversal(self, q: &[Expr]) -> Vec<Vec<Expr>> {
        if !self.is_quaternion_chart(q.len()) {
            return Vec::new();
        }
        let start = q.len() - 4;
        vec![(0..q.len())
            .map(|i| {
                if i >= start {
                    q[i].clone()
                } else {
                    Expr::zero()
                }
            })
            .collect()]
    }

    /// The moved coordinate at which the chart of `n` coordinates is singular, by its position
    /// among them: the pitch of Z-Y-X Euler angles, where `cos(pitch) = 0` (`None`: regular
    /// everywhere, or a quaternion, regular where `q ≠ 0`).
    pub fn singular_coordinate(self, n: usize) -> Option<usize> {
        match (self, n) {
            (NamedGroup::Rotations3, 3) => Some(1),
            (NamedGroup::Euclidean3, 6) => Some(4),
            _ => None,
        }
    }
}

/// `SO(3)` on Euler angles or a quaternion, by the number of coordinates.
fn rotation_fields(q: &[Expr]) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
    if q.len() == 4 {
        quaternion(q)
    } else {
        euler_zyx(&q[0], &q[1], &q[2])
    }
}

/// `SO(3)` on a quaternion `q = (q0, v)` by left multiplication: the generator of `e_a` is
/// `½ e_a ⊗ q = ½ (−u·v, q0 u + u × v)` (its flow turns `R(q)` about the spatial axis `u = e_a`),
/// the invariant frame `½ q ⊗ e_b = ½ (−v·u, q0 u + v × u)` (body angular velocity `e_b`, the
/// anchors of a `spherical` joint). Left and right multiplication commute.
fn quaternion(q: &[Expr]) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
    let s = q;
    let half = Expr::rational(1, 2);
    let product = |left: bool, a: usize| -> Vec<Expr> {
        let u = |i: usize| if i == a { Expr::one() } else { Expr::zero() };
        let v = |i: usize| s[i + 1].clone();
        let cross = |x: &dyn Fn(usize) -> Expr, y: &dyn Fn(usize) -> Expr, i: usize| {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            x(j) * y(k) - x(k) * y(j)
        };
        let mut out = vec![-(half.clone() * v(a))];
        for i in 0..3 {
            let turn = if left {
                cross(&u, &v, i)
            } else {
                cross(&v, &u, i)
            };
            out.push(half.clone() * (s[0].clone() * u(i) + turn));
        }
        out
    };
    (
        (0..3).map(|a| product(true, a)).collect(),
        (0..3).map(|b| product(false, b)).collect(),
    )
}

/// `SE(3)` on `(x, y, z)` and a chart of the rotation `R`, acting by `(R_g, b)·(x, R) =
/// (R_g x + b, R_g R)`: the generators are `∂_x, ∂_y, ∂_z`, then for each spatial axis `e_a` the
/// rotation `(e_a × x)·∂_x` plus `SO(3)`'s generator; the invariant frame is the body axes
/// `R e_i·∂_x`, then `SO(3)`'s body frame (the velocities of a `free` joint: body linear, then
/// body angular).
fn euclidean3(q: &[Expr]) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
    let n = q.len();
    let (xi, eta) = rotation_fields(&q[3..]);
    let x = &q[..3];
    let widen = |head: [Expr; 3], tail: &[Expr]| -> Vec<Expr> {
        head.into_iter().chain(tail.iter().cloned()).collect()
    };
    let none = vec![Expr::zero(); n - 3];
    let zero = Expr::zero;
    let mut generators: Vec<Vec<Expr>> = (0..3)
        .map(|i| {
            let e: [Expr; 3] = std::array::from_fn(|k| if k == i { Expr::one() } else { zero() });
            widen(e, &none)
        })
        .collect();
    for (a, rotation) in xi.iter().enumerate() {
        // e_a × x
        let (j, k) = ((a + 1) % 3, (a + 2) % 3);
        let mut turn: [Expr; 3] = std::array::from_fn(|_| zero());
        turn[k] = x[j].clone();
        turn[j] = -x[k].clone();
        generators.push(widen(turn, rotation));
    }
    let r = rotation_matrix(q);
    let mut frame: Vec<Vec<Expr>> = (0..3)
        .map(|i| widen(std::array::from_fn(|k| r[k][i].clone()), &none))
        .collect();
    frame.extend(
        eta.into_iter()
            .map(|e| widen(std::array::from_fn(|_| zero()), &e)),
    );
    (generators, frame)
}

/// The rotation (body axes in world axes) of the chart after the position in `q`: `R_z(ψ) R_y(θ)
/// R_x(φ)` for Euler angles, `H(q)/|q|²` for a quaternion (as the multibody front end writes it).
fn rotation_matrix(q: &[Expr]) -> [[Expr; 3]; 3] {
    use crate::multibody::kinematics::{about, mat_mul, quaternion_matrix};
    let s = |i: usize| q[i].clone();
    if q.len() == 7 {
        return quaternion_matrix(&[s(3), s(4), s(5), s(6)]);
    }
    let axis = |i: usize| -> [Expr; 3] {
        std::array::from_fn(|k| if k == i { Expr::one() } else { Expr::zero() })
    };
    mat_mul(
        &about(&axis(2), &s(3)),
        &mat_mul(&about(&axis(1), &s(4)), &about(&axis(0), &s(5))),
    )
}

/// `SO(3)` on Z-Y-X Euler angles `R = R_z(ψ) R_y(θ) R_x(φ)`: the generators of the left action are
/// the fields whose spatial angular velocity `ω_s = ψ̇ e_z + θ̇ R_z e_y + φ̇ R_z R_y e_x` is a unit
/// vector, the invariant frame those whose body angular velocity
/// `ω_b = (φ̇ − ψ̇ sin θ, θ̇ cos φ + ψ̇ sin φ cos θ, −θ̇ sin φ + ψ̇ cos φ cos θ)` is. Each set is the
/// inverse of the matrix that gives the angular velocity from `(ψ̇, θ̇, φ̇)`; both are written out.
fn euler_zyx(yaw: &Expr, pitch: &Expr, roll: &Expr) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
    let f = |func: Func, angle: &Expr| Expr::apply(func, angle.clone());
    let (s_psi, c_psi) = (f(Func::Sin, yaw), f(Func::Cos, yaw));
    let (s_th, c_th) = (f(Func::Sin, pitch), f(Func::Cos, pitch));
    let (s_phi, c_phi) = (f(Func::Sin, roll), f(Func::Cos, roll));
    let zero = Expr::zero;
    let one = Expr::one;
    let tan_th = s_th.clone() / c_th.clone();
    // Spatial: ω_s = (−θ̇ sψ + φ̇ cψ cθ, θ̇ cψ + φ̇ sψ cθ, ψ̇ − φ̇ sθ), solved for (ψ̇, θ̇, φ̇).
    let generators = vec![
        vec![
            c_psi.clone() * tan_th.clone(),
            -s_psi.clone(),
            c_psi.clone() / c_th.clone(),
        ],
        vec![
            s_psi.clone() * tan_th.clone(),
            c_psi.clone(),
            s_psi.clone() / c_th.clone(),
        ],
        vec![one(), zero(), zero()],
    ];
    // Body: ω_b = (φ̇ − ψ̇ sθ, θ̇ cφ + ψ̇ sφ cθ, −θ̇ sφ + ψ̇ cφ cθ), solved for (ψ̇, θ̇, φ̇).
    let frame = vec![
        vec![zero(), zero(), one()],
        vec![
            s_phi.clone() / c_th.clone(),
            c_phi.clone(),
            s_phi.clone() * tan_th.clone(),
        ],
        vec![
            c_phi.clone() / c_th.clone(),
            -s_phi.clone(),
            c_phi.clone() * tan_th,
        ],
    ];
    (generators, frame)
}

/// Which principal connection splits the reduced velocities into shape and group parts.
#[derive(Clone, Debug, PartialEq)]
pub enum ConnectionChoice {
    /// The mechanical connection (the default): horizontal is orthogonal to the orbits in the
    /// kinetic-energy metric, `A = 𝕀⁻¹ J` with `𝕀` the locked inertia tensor.
    Mechanical,
    /// The flat connection of the chart `Q = S × G`: horizontal is `∂/∂s`.
    Chart,
    /// The nonholonomic connection (Bloch, Krishnaprasad, Marsden and Murray 1996): horizontal
    /// is the part of the constraint distribution orthogonal to its directions along the orbits,
    /// where the constraints and the orbits span `TQ`.
    Nonholonomic,
    /// A connection form given in the spec, in the invariant frame: `form[j][b]` is the
    /// coefficient of the group's `b`-th section in `A(∂/∂q^j)`, over all coordinates
    /// (`mech::reduction` checks that `A(η_b) = e_b` and that `A` is invariant).
    Given {
        /// `A(∂_j) = form[j][b] e_b`.
        form: Vec<Vec<Expr>>,
        /// Where it is written.
        span: Span,
    },
}

/// A group acting on `Q`, resolved (see the module documentation).
#[derive(Clone, Debug)]
pub struct GroupAction {
    /// The name as written.
    pub name: String,
    /// The named group, if the name is one and no generators are given.
    pub named: Option<NamedGroup>,
    /// Indices into `System::coordinates` of the coordinates the group moves, in `on` order.
    pub moved: Vec<usize>,
    /// `ξ_a`, components over all of `System::coordinates`.
    pub generators: Vec<Vec<Expr>>,
    /// The generators' names (`xi1`, … when the group is named).
    pub generator_names: Vec<String>,
    /// `η_b` for a named group, components over all coordinates; `None` when generators are
    /// given (the reduction uses the generators, and checks that they commute).
    pub frame: Option<Vec<Vec<Expr>>>,
    /// The moved coordinates' values at the identity.
    pub identity: Vec<Expr>,
    /// Fields transversal to the orbits among the moved coordinates (a quaternion's Euler field,
    /// [`NamedGroup::transversal`]), components over all coordinates; usually none.
    pub transversal: Vec<Vec<Expr>>,
    /// Names of the reduced sections along the group (given, or `E1, …`).
    pub sections: Vec<String>,
    /// Names of the reduced velocities along the group (given, or `v1, …`).
    pub velocities: Vec<String>,
    /// Names of their momenta (given, or empty).
    pub momenta: Vec<String>,
    /// The connection.
    pub connection: ConnectionChoice,
    /// The side a named group acts on (`action left`, the default, or `action right`).
    pub side: Side,
    /// Names the first group's block gives to the shape's sections, velocities and momenta
    /// (each list empty, or one per shape coordinate): the leading names of its lists.
    pub shape_names: (Vec<String>, Vec<String>, Vec<String>),
    /// `momentum mu`: the names of the momentum values of a Routh reduction (empty: none).
    pub momentum_values: Vec<String>,
    /// The whole item.
    pub span: Span,
    /// Where each generator is written (the item for a named group).
    pub generator_spans: Vec<Span>,
}
