//! The primary flow of a derivation and its companions (see the crate documentation).

use std::cell::LazyCell;
use std::rc::Rc;

use cas::{Deferred, Expr};

/// One named array of values a function returns: `xdot` (the rates), `lambda` (the
/// multipliers), `residual` (the constraints `Ψ^a`), `energy` (an energy and its rate),
/// `hamiltonian`.
#[derive(Clone, Debug)]
pub struct Output {
    /// The array's name in the emitted code.
    pub name: String,
    /// What its entries are, in order (`lambda1, lambda2`, `E_L, dE_L/dt`).
    pub doc: String,
    /// The entries, functions of the flow's state.
    pub values: Vec<Expr>,
}

impl Output {
    /// An output named `name` with entries `values`, documented by `doc`.
    pub fn new(name: &str, doc: impl Into<String>, values: Vec<Expr>) -> Output {
        Output {
            name: name.to_string(),
            doc: doc.into(),
            values,
        }
    }
}

/// The implicit (mass-matrix) form of Lagrange–d'Alembert's equations on the state `(x, y)`:
/// the accelerations `a = ẏ` and the multipliers `λ` solve `W a + μᵀ λ = b`, `μ a = β`.
#[derive(Clone, Debug)]
pub struct ImplicitForm {
    /// `W = ∂²L/∂y∂y`, `n × n`.
    pub mass: Vec<Vec<Expr>>,
    /// The forcing `b`, `n` entries.
    pub forcing: Vec<Expr>,
    /// The constraint Jacobian `μ`, `r × n`.
    pub jacobian: Vec<Vec<Expr>>,
    /// The bias `β_a = −(ρ_0 + y ρ)(Ψ^a)`, `r` entries.
    pub bias: Vec<Expr>,
    /// `(symbol, value)` in order, computed before the entries, which read them: the
    /// straight-line program of the composite-rigid-body and Newton–Euler recursions of a tree
    /// of joints; empty when the entries are expressions of the state alone.
    pub bindings: Vec<(String, Expr)>,
}

/// Rates given by an implicit form solved at run time (the implicit route): the coordinates'
/// rates in closed form, the velocities' from the form, and the parts of the energy balance
/// that do not involve the multipliers.
#[derive(Clone, Debug)]
pub struct Solved {
    /// `ẋ^i = ρ^i_0 + ρ^i_α y^α`, one per coordinate (the first entries of the state).
    pub coordinate_rates: Vec<Expr>,
    /// The form the velocities' rates solve.
    pub form: ImplicitForm,
    /// The same `W`, forcing, `μ` and `β` from the composite-rigid-body and Newton–Euler
    /// recursions of a tree of joints, when `form` was read off its expanded Lagrangian (`None`
    /// otherwise); computed when read. The code takes whichever of the two costs fewer
    /// operations: for a chain of few links the expansion, for an arm or a spherical pendulum the
    /// recursions.
    pub structured: OnRead<Option<ImplicitForm>>,
    /// `dE_L/dt` without the multipliers' work: `−ρ_0(L) + C^γ_0α y^α p_γ + F_α y^α`.
    pub free_power: Expr,
    /// `μ^a_α y^α` for each constraint: the balance law subtracts `λ_a` times each.
    pub constraint_power: Vec<Expr>,
    /// The constraint residuals `Ψ^a`.
    pub residuals: Vec<Expr>,
    /// `E_L`, when it is not computed from `W` as `½ yᵀ W y − L_0` (computed when read: a tree
    /// of joints' is the sum of its whole Lagrangian).
    pub energy: Deferred,
    /// `L_0` (the velocity-free part of a quadratic `L`): then `E_L = ½ yᵀ W y − L_0` from the
    /// `W` the solve evaluates anyway.
    pub potential: Option<Expr>,
}

/// A value computed when first read, on the thread that reads it (unlike [`Deferred`], its
/// recipe may hold a `model::System`, which stays on one thread).
pub type OnRead<T> = Rc<LazyCell<T, Box<dyn FnOnce() -> T>>>;

/// The value `recipe` computes, computed when first read ([`OnRead`]).
pub fn on_read<T>(recipe: impl FnOnce() -> T + 'static) -> OnRead<T> {
    Rc::new(LazyCell::new(Box::new(recipe)))
}

/// How a flow's rates are given.
#[derive(Clone, Debug)]
pub enum Rates {
    /// One closed-form rate per state entry.
    Closed(Vec<Expr>),
    /// An implicit form solved at run time.
    Solved(Box<Solved>),
}

/// A first-order system on its own state beside the primary flow: the Hamiltonian side.
#[derive(Clone, Debug)]
pub struct Companion {
    /// The function's name in the emitted code (`hamilton`).
    pub name: String,
    /// What it computes, and where the formalism comes from.
    pub doc: String,
    /// Its state (internal names).
    pub state: Vec<String>,
    /// Its rates, one per state entry (returned as `xdot`).
    pub rates: Vec<Expr>,
    /// Its outputs after the rates (the Hamiltonian there).
    pub outputs: Vec<Output>,
    /// Symbols the rates and outputs read, bound in order to values computed first (the
    /// intermediate values of a recursion such as the articulated-body algorithm); empty for a
    /// companion in closed form.
    pub bindings: Vec<(String, Expr)>,
}

/// The constraints the state of a flow on `(x, y)` must satisfy, at the position and the velocity
/// level: what emitted code projects onto and reports residuals of.
#[derive(Clone, Debug)]
pub struct ConstraintSet {
    /// The holonomic constraints `f^a(t, x)`, in the order written (possibly none).
    pub position: Vec<Expr>,
    /// Every velocity-level constraint `Ψ^a(t, x, y)`: the nonholonomic ones and the `ρ(f)` of the
    /// holonomic ones, in the multipliers' order.
    pub velocity: Vec<Expr>,
    /// The coordinates `x^i` (the first entries of the state).
    pub coordinates: Vec<String>,
    /// The velocities `y^α` (the entries after them).
    pub velocities: Vec<String>,
    /// Whether every `Ψ^a` is affine in the velocities, so that one projection step is exact.
    pub affine: bool,
    /// For each velocity-level constraint, the index of its holonomic `f` in `position` (none for
    /// a nonholonomic one).
    pub position_of: Vec<Option<usize>>,
    /// On closed-form rates, what Baumgarte stabilisation moves them along; `None` when the rates
    /// are solved at run time (the solve takes a corrected bias instead).
    pub correction: Option<Correction>,
}

/// The constraint forces of closed-form rates: a change `δλ` of the multipliers moves the rates
/// of the velocities by `δλ_b Z_b`, and the acceleration-level constraints by `𝒞 δλ`.
#[derive(Clone, Debug)]
pub struct Correction {
    /// The velocity components of the constraint-force directions `Z_b = −W⁻¹ μ^b` (`r × n`).
    pub directions: Vec<Vec<Expr>>,
    /// `𝒞⁻¹` (`r × r`).
    pub inverse: Vec<Vec<Expr>>,
}

/// The primary flow of a derivation (see the crate documentation).
#[derive(Clone, Debug)]
pub struct Flow {
    /// The state (internal names), in order.
    pub state: Vec<String>,
    /// `d state/dt`.
    pub rates: Rates,
    /// What the right-hand side is, and where the formalism comes from.
    pub rhs_doc: String,
    /// What `dynamics` returns besides the rates.
    pub dynamics_doc: String,
    /// The outputs `dynamics` returns after the rates (`xdot`), in order.
    pub outputs: Vec<Output>,
    /// Whether the Jacobian of the closed-form rates is offered (`rhs_jacobian`).
    pub jacobian: bool,
    /// Systems integrated beside this one.
    pub companions: Vec<Companion>,
    /// The implicit form on `(x, y)`, offered beside closed-form rates (`implicit`).
    pub implicit: Option<ImplicitForm>,
    /// The constraints of a flow on `(x, y)` with constraints, for projection and residuals.
    pub constraints: Option<ConstraintSet>,
    /// One step of the variational integrator of the spec's discrete equations, when it asks
    /// for them: `Err` (why, for a note to the user) when the step cannot be emitted.
    pub step: Option<Result<DiscreteStep, String>>,
}

/// One step `(t, q_k, v_k) ↦ (q_{k+1}, v_{k+1})` of a variational integrator on a flow whose
/// state is `(q, v)`: `p_k` from the Legendre transform, the step's unknowns (`q_{k+1}`, or the
/// discrete velocities on a Lie algebra) by Newton's method on `p_k = P(unknowns)` with the
/// derived matrix, from an explicit predictor, then `q_{k+1}` and `p_{k+1}` from the unknowns,
/// and `v_{k+1}` from `W v_{k+1} = p_{k+1} − a`. Backends emit the three functions below and
/// fixed code for the iteration around them; the unknowns are as many as the velocities, and
/// the discrete multipliers of the nonholonomic constraints after them.
#[derive(Clone, Debug)]
pub struct DiscreteStep {
    /// What the step integrates, and where the scheme comes from.
    pub doc: String,
    /// The coordinates `q` (the first entries of the flow's state).
    pub coordinates: Vec<String>,
    /// The velocities `v` (the entries after them).
    pub velocities: Vec<String>,
    /// The discrete multipliers, one per nonholonomic constraint: unknowns after the `n` of
    /// the velocities, whose equations are the discrete constraints.
    pub multipliers: usize,
    /// Whether the state ends with an action `z` (a contact system): `recover` returns
    /// `z_{k+1}` as its last output, `action`, and the helpers' state is `(q_k, v_k, z_k,
    /// unknowns, h)`.
    pub action: bool,
    /// On `(q_k, v_k, unknowns, h)`: `p_k = ∂L/∂v`, then the predictor of the unknowns (no
    /// rates).
    pub momentum: Companion,
    /// On `(q_k, v_k, unknowns, h)`: `P`, the discrete constraints (when there are
    /// multipliers) and the Jacobian of both by the unknowns, row-major (no rates).
    pub residual: Companion,
    /// On `(q_k, v_k, unknowns, h)`: `q_{k+1}` (when there are coordinates), `p_{k+1}`,
    /// `W(t + h, q_{k+1})` row-major and `a(t + h, q_{k+1})` (no rates).
    pub recover: Companion,
    /// The band of Newton's matrix (the `newton` output of `residual`): every entry outside it
    /// is exactly zero, so the LU solve skips it.
    pub newton_band: Band,
    /// The band of the mass matrix (the `mass` output of `recover`, symmetric): its `lower`
    /// bounds the `LDLᵀ` factor's.
    pub mass_band: Band,
}

/// Where a square matrix's entries may be nonzero: `a[i][j] = 0` exactly whenever
/// `i > j + lower` or `j > i + upper`. A full `k × k` matrix has `k − 1` of each (none when
/// `k = 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The subdiagonals that may hold a nonzero.
    pub lower: usize,
    /// The superdiagonals that may hold a nonzero.
    pub upper: usize,
}

impl Band {
    /// The band of the row-major `k × k` matrix whose entry `(i, j)` is zero when `zero(i, j)`.
    pub fn of(k: usize, zero: impl Fn(usize, usize) -> bool) -> Band {
        let mut band = Band { lower: 0, upper: 0 };
        for i in 0..k {
            for j in 0..k {
                if zero(i, j) {
                    continue;
                }
                band.lower = band.lower.max(i.saturating_sub(j));
                band.upper = band.upper.max(j.saturating_sub(i));
            }
        }
        band
    }
}
