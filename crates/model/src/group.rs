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
//! `−sin θ ∂_x + cos θ ∂_y`, `∂_θ`) and `SO3` on the Z-Y-X Euler angles `(ψ, θ, φ)` (yaw, pitch,
//! roll; spatial and body angular velocities). For generators given one by one the frame is the
//! generators themselves, which is invariant exactly when they commute; a non-abelian group given
//! by generators is refused by `mech::reduction` (name it instead).

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
    /// `SO3` on the Z-Y-X Euler angles `(ψ, θ, φ)`, acting on the left.
    Rotations3,
}

impl NamedGroup {
    /// The group a name stands for.
    pub fn parse(name: &str) -> Option<NamedGroup> {
        match name {
            "translations" => Some(NamedGroup::Translations),
            "SO2" | "S1" => Some(NamedGroup::Rotations),
            "SE2" => Some(NamedGroup::Euclidean2),
            "SO3" => Some(NamedGroup::Rotations3),
            _ => None,
        }
    }

    /// How many coordinates it acts on (`None`: any number).
    pub fn dimension(self) -> Option<usize> {
        match self {
            NamedGroup::Translations => None,
            NamedGroup::Rotations => Some(1),
            NamedGroup::Euclidean2 | NamedGroup::Rotations3 => Some(3),
        }
    }

    /// What the coordinates after `on` must be, in words.
    pub fn expected_coordinates(self) -> &'static str {
        match self {
            NamedGroup::Translations => "one or more coordinates, each translated",
            NamedGroup::Rotations => "one angle",
            NamedGroup::Euclidean2 => "`x, y, theta`: a position in the plane and a heading",
            NamedGroup::Rotations3 => "the Z-Y-X Euler angles `yaw, pitch, roll`",
        }
    }

    /// The generators and the invariant frame over the moved coordinates `q` (keys) of the group
    /// acting on the left or (`right`) on the right, in that order: `(ξ_a, η_b)`, each a vector
    /// of components over `q`. The generators of the right action are the left-invariant fields
    /// and its invariant frame the right-invariant ones: the two sets of the left action, swapped
    /// (for `SO3`, body and spatial angular velocity exchange their roles).
    pub fn fields(self, q: &[String], right: bool) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
        let (generators, frame) = self.left_fields(q);
        if right {
            (frame, generators)
        } else {
            (generators, frame)
        }
    }

    fn left_fields(self, q: &[String]) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
        let s = |name: &str| Expr::symbol(name);
        let sin = |name: &str| Expr::apply(Func::Sin, s(name));
        let cos = |name: &str| Expr::apply(Func::Cos, s(name));
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
            NamedGroup::Rotations3 => euler_zyx(&q[0], &q[1], &q[2]),
        }
    }

    /// The value of each moved coordinate at the identity (where invariant functions are read):
    /// zero for every chart here.
    pub fn identity(self, q: &[String]) -> Vec<Expr> {
        vec![Expr::zero(); q.len()]
    }

    /// Where the chart of the named group is regular, in words (`None`: everywhere).
    pub fn chart_domain(self) -> Option<&'static str> {
        match self {
            NamedGroup::Rotations3 => {
                Some("cos(pitch) ≠ 0 (the Euler angles are singular at pitch = ±π/2)")
            }
            _ => None,
        }
    }
}

/// `SO(3)` on Z-Y-X Euler angles `R = R_z(ψ) R_y(θ) R_x(φ)`: the generators of the left action are
/// the fields whose spatial angular velocity `ω_s = ψ̇ e_z + θ̇ R_z e_y + φ̇ R_z R_y e_x` is a unit
/// vector, the invariant frame those whose body angular velocity
/// `ω_b = (φ̇ − ψ̇ sin θ, θ̇ cos φ + ψ̇ sin φ cos θ, −θ̇ sin φ + ψ̇ cos φ cos θ)` is. Each set is the
/// inverse of the matrix that gives the angular velocity from `(ψ̇, θ̇, φ̇)`; both are written out.
fn euler_zyx(yaw: &str, pitch: &str, roll: &str) -> (Vec<Vec<Expr>>, Vec<Vec<Expr>>) {
    let f = |func: Func, name: &str| Expr::apply(func, Expr::symbol(name));
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
    /// Names of the reduced sections along the group (given, or `E1, …`).
    pub sections: Vec<String>,
    /// Names of the reduced velocities along the group (given, or `v1, …`).
    pub velocities: Vec<String>,
    /// Names of their momenta (given, or empty).
    pub momenta: Vec<String>,
    /// The connection.
    pub connection: ConnectionChoice,
    /// Whether a named group acts on the right (`action right`).
    pub right: bool,
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
