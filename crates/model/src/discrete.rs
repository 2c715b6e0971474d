//! The `discrete` item of a spec: which discrete Lagrangian its discrete equations come from
//! (`mech::discrete` derives them; `docs/spec-language.md`, "Discrete equations").

use diagnostic::Span;

/// A discrete Lagrangian `L_d(q_k, q_{k+1}) ≈ ∫ L dt` over one step of length `h`, by a
/// quadrature of the action (`discrete` item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discretisation {
    /// `L_d = h L((q_k + q_{k+1})/2, (q_{k+1} − q_k)/h)` at `t + h/2`: the midpoint rule, the
    /// implicit midpoint method in position–momentum form (second order, symplectic).
    Midpoint,
    /// `L_d = (h/2) [L(t, q_k, (q_{k+1} − q_k)/h) + L(t + h, q_{k+1}, (q_{k+1} − q_k)/h)]`: the
    /// trapezoidal rule, the Störmer–Verlet method in position–momentum form (second order,
    /// symplectic); with holonomic constraints, RATTLE.
    Trapezoidal,
    /// On the Lie algebra so(3): `g_{k+1} = g_k cay(h ξ_k)` and `L_d = h l(ξ_k)`, whose discrete
    /// Euler–Poincaré equations are the Lie group variational integrator of the free rigid body
    /// in the Cayley chart (second order, symplectic, the Casimir `|Π|²` exact).
    Cayley,
    /// On the Lie algebra so(3) (and its action algebroids): the Lie group variational
    /// integrator of Lee, Leok and McClamroch, `L_d = (1/h) tr[(I − F_k) J_d]` with
    /// `F_k = g_k⁻¹ g_{k+1}` and `J_d = ½ tr(J) I − J` for a kinetic energy `½ ξᵀ J ξ`, the
    /// potential by the trapezoidal rule; `F_k = cay(h ξ_k)` is its chart, in which
    /// `L_d = h ½ ξᵀ J ξ / (1 + h²|ξ|²/4)`.
    Lgvi,
}

impl Discretisation {
    /// Its name in the spec.
    pub fn name(self) -> &'static str {
        match self {
            Discretisation::Midpoint => "midpoint",
            Discretisation::Trapezoidal => "trapezoidal",
            Discretisation::Cayley => "cayley",
            Discretisation::Lgvi => "lgvi",
        }
    }

    /// Every discretisation, by its name in the spec.
    pub const ALL: [Discretisation; 4] = [
        Discretisation::Midpoint,
        Discretisation::Trapezoidal,
        Discretisation::Cayley,
        Discretisation::Lgvi,
    ];

    /// Whether it steps a group element, `g_{k+1} = g_k cay(h ξ_k)`, with the discrete
    /// velocities `ξ_k` its unknowns (`cayley`, `lgvi`), rather than the coordinates `q_{k+1}`.
    pub fn on_group(self) -> bool {
        matches!(self, Discretisation::Cayley | Discretisation::Lgvi)
    }
}

/// The `discrete` item of a spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discrete {
    /// Which discrete Lagrangian.
    pub method: Discretisation,
    /// Where the item is (its diagnostics point there).
    pub span: Span,
}
