//! A system reduced by a symmetry group: what `mech::reduction` computes and `emit::reduced`
//! writes back as a spec (the reduced algebroid, Lagrangian and constraints, the connection, its
//! curvature and the reconstruction frame). Expressions name symbols by their keys; the reduced
//! sections and velocities are new names, their own keys.

use cas::Expr;

/// Which principal connection split the reduced velocities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// The mechanical connection: horizontal is orthogonal to the orbits in the kinetic-energy
    /// metric.
    Mechanical,
    /// The flat connection of the chart `Q = S × G`: horizontal is `∂/∂s`.
    Chart,
    /// A connection form given in the spec (checked to be a principal connection).
    Given,
    /// The nonholonomic connection: horizontal is `D ∩ (D ∩ V)^⊥`.
    Nonholonomic,
    /// None: the system was written on invariant sections (a `spherical` or `free` joint, an
    /// algebroid in a body frame), which the reduced algebroid keeps.
    Sections,
}

/// A system reduced by a symmetry group (see the module documentation).
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The group, as declared (`SE2`, or a product `SE2 × SO2`).
    pub group: String,
    /// The shape coordinates `s^i` (keys), the base of the reduced algebroid.
    pub shape: Vec<String>,
    /// The coordinates the group moves (keys).
    pub moved: Vec<String>,
    /// The structure constants `C^d_ab` of the Lie algebra in the invariant frame,
    /// `[η_a, η_b] = C^d_ab η_d`.
    pub algebra: Vec<Vec<Vec<Expr>>>,
    /// The connection used.
    pub connection: Connection,
    /// `A^b_i`: `h_i = ∂_{s^i} − A^b_i η_b`, as `connection_form[i][b]`, functions of the shape.
    pub connection_form: Vec<Vec<Expr>>,
    /// `B^b_ij` for `i < j`, the curvature of the connection: `[h_i, h_j] = −B^b_ij η_b`.
    pub curvature: Vec<(usize, usize, Vec<Expr>)>,
    /// The reduced sections: `d_s` per shape coordinate, then the group's.
    pub sections: Vec<String>,
    /// The reduced velocities `y^α` (names, which are their keys).
    pub velocities: Vec<String>,
    /// Their momenta, when the spec names the group's (the shape ones are the system's).
    pub momenta: Vec<String>,
    /// `ρ^i_α` over the shape coordinates, as `anchors[α][i]`.
    pub anchors: Vec<Vec<Expr>>,
    /// `C^γ_αβ` of the reduced algebroid, as `brackets[α][β][γ]`.
    pub brackets: Vec<Vec<Vec<Expr>>>,
    /// The reduced Lagrangian `l(t, s, y)`.
    pub lagrangian: Expr,
    /// The reduced constraints `Ψ(t, s, y)`, in the order of the system's.
    pub constraints: Vec<Expr>,
    /// The reduced forces `F_α = F(X_α)`, one per reduced section.
    pub forces: Vec<Expr>,
    /// The invariant frame `X_α` over all of `Q` (`frame[α][i]`): `q̇ = y^α X_α(q)` is the
    /// reconstruction of the full velocities from the reduced ones.
    pub frame: Vec<Vec<Expr>>,
    /// The Routh reduction, when the spec fixes the momentum (`momentum mu`).
    pub routh: Option<Routh>,
    /// The nonholonomic momentum equations, one per direction of the group that the
    /// constraints allow (all of them without constraints).
    pub momentum_equations: Vec<MomentumEquation>,
}

/// The momentum equation of a direction `σ = ξ^b(t, s) η_b` of the group that lies in the
/// constraint distribution (Bloch, Krishnaprasad, Marsden and Murray, Arch. Rational Mech. Anal.
/// 136 (1996) 21–99): `p = ξ^b ∂l/∂y^b` obeys `ṗ = ξ̇^b ∂l/∂y^b + ξ^b C^γ_βb y^β ∂l/∂y^γ` along
/// the motion, the component of Lagrange–d'Alembert along `σ`, where no multiplier enters.
#[derive(Clone, Debug)]
pub struct MomentumEquation {
    /// `ξ^b`, over the group's sections (the kernel of the constraints on the orbit directions,
    /// with denominators cleared).
    pub direction: Vec<Expr>,
    /// The name of the momentum (`P1`, …).
    pub name: String,
    /// `p = ξ^b ∂l/∂y^b`, in the reduced velocities.
    pub momentum: Expr,
    /// `ṗ` on the constraint distribution, in the shape, its velocities and the free group
    /// velocities.
    pub rate: Expr,
    /// `ṗ` in the shape, its velocities and the momenta, when the group velocities can be solved
    /// from the constraints and the momenta.
    pub rate_in_momenta: Option<Expr>,
    /// Whether `ṗ` vanishes on the constraint distribution (the momentum is conserved).
    pub conserved: bool,
    /// Where the equation is integrable without being conserved, `ṗ = (a_i(s) ṡ^i) p` with `a`
    /// closed: the conserved quantity `p·exp(−F)`, `dF = a` (in the velocities, constant along
    /// every motion in the constraint distribution).
    pub integral: Option<Expr>,
}

/// Routh reduction by an abelian group acting by translation of cyclic coordinates `q^a`, at the
/// momentum value `μ_a = ∂L/∂q̇^a` (Routh 1877; Marsden, Ratiu and Scheurle, J. Math. Phys. 41
/// (2000) 3379): the Routhian `R = L − μ_a q̇^a` with `q̇^a` solved from the momentum, a Lagrangian on
/// `TS` whose Euler–Lagrange equations are the reduced motion, and the amended potential.
#[derive(Clone, Debug)]
pub struct Routh {
    /// The names of the momentum values `μ_a` (parameters of the Routhian).
    pub values: Vec<String>,
    /// The cyclic coordinates `q^a` (keys).
    pub cyclic: Vec<String>,
    /// `q̇^a` as functions of the shape, its velocities and `μ`.
    pub cyclic_velocities: Vec<Expr>,
    /// `R(t, s, ṡ; μ)`.
    pub routhian: Expr,
    /// `V_μ(s) = −R` at `ṡ = 0`: the potential plus `½ μᵀ 𝕀⁻¹ μ`.
    pub amended_potential: Expr,
    /// `∂V_μ/∂s^i`, one per shape coordinate: the relative equilibria are where all vanish.
    pub equilibria: Vec<Expr>,
}
