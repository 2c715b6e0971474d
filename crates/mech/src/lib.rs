//! The derivations of dalembert, one module per formalism.
//!
//! # Which paper, which conventions
//!
//! Everything here follows [IMMS07] (Iglesias, Marrero, Martín de Diego, Sosa, *A general
//! framework for nonholonomic mechanics: nonholonomic systems on Lie affgebroids*, J. Math. Phys.
//! 48 (2007) 083513), with the corrections of its printed formulas, and the conventions of
//! `docs/conventions.md`:
//!
//! - `[e_α, e_β] = C^γ_αβ e_γ`, `ρ(e_α) = ρ^i_α ∂_i`, and for the reference section `e_0` of the
//!   affgebroid `ρ^i_0`, `C^γ_0α`. Time is base coordinate 0.
//! - Admissible curves `ẋ^i = ρ^i_0 + ρ^i_α y^α`.
//! - `EL_α = d/dt(∂L/∂y^α) − ρ^i_α ∂L/∂x^i − (C^γ_0α + C^γ_βα y^β) ∂L/∂y^γ`, and the constrained
//!   dynamics `EL_α = F_α − λ_a μ^a_α` for `Ψ^a = μ^a_0 + μ^a_α y^α` (Chetaev's rule
//!   `μ^a_α = ∂Ψ^a/∂y^α` for nonlinear constraints).
//! - `Θ_L = L φ_0 + (dL)∘S`, `Ω_L = −dΘ_L`, `(a∧b)(X,Y) = a(X)b(Y) − a(Y)b(X)`; matrices of forms
//!   and endomorphisms are written in the basis `(T̃_0, T̃_1…T̃_n, Ṽ_1…Ṽ_n)` of the prolongation.
//!
//! # Layout
//!
//! The folders are the structure: `base` at the bottom, one folder (or, for a formalism that
//! fits one file, one file) per formalism above it, the route dispatch (`derivation`) above the
//! formalisms, and the lowering, the reports and the proofs on top. Every arrow (`a → b`: `a`
//! imports `b`) runs downwards, and a layer may import any layer below it:
//!
//! ```text
//! check → describe → linearize → lower → derivation → the formalisms → base
//!
//! the formalisms:  lagrange → base     hamilton → lagrange    singular → lagrange
//!                  contact → base      vakonomic → base       multibody → lagrange
//!                  discrete → base     reduction           (imports nothing else of the crate)
//! ```
//!
//! A formalism imports only `base`, with three documented exceptions, each building on the
//! Lagrangian side: `hamilton` (the Legendre map and the projection need the momenta, `W` and
//! `W⁻¹` of `lagrange::lagrangian`), `singular` (the constraint algorithm runs on the Lagrangian's
//! `p`, `W`, `E_L`, `Ω_L`) and `multibody` (the joints' structure gives the implicit form of
//! `lagrange::implicit`). `base` imports no formalism. The closed route (`derivation`) attaches
//! the Hamiltonian, Dirac and projected sides to the closed-form equations of `lagrange::closed`,
//! so that the Lagrangian side needs nothing above it.
//!
//! # Modules
//!
//! - [`base`]: what no formalism owns.
//!   - [`base::algebra`]: [IMMS07] §II.4–§II.5 — the anchor applied to functions, the admissible
//!     velocity, the linear Poisson bracket of `V*` and Hamilton's vector field of a section.
//!   - [`base::route`]: the closed form or the implicit form (`--solve`), and why.
//!   - [`base::budget`]: the size budget every stage is measured against (E0501).
//!   - [`base::surface`]: the constraint surface, for restricting functions of the velocities to
//!     it.
//!   - `base::constraint_set` and `base::elimination`: [IMMS08] §3.1 — the constraint set of the
//!     constraint algorithm and the Gauss–Jordan elimination on it.
//! - [`lagrange`]: the Lagrangian side.
//!   - [`lagrange::lagrangian`]: [IMMS07] §II.4 — Euler–Lagrange equations on an affgebroid
//!     (eq. 11), energy, `Θ_L`, `Ω_L` (block form), the Hessian `W`, regularity, the Reeb section
//!     `R_L`.
//!   - [`lagrange::nonholonomic`]: [IMMS07] §III–§IV.1 — Lagrange–d'Alembert equations (35),
//!     `Z_a` (37), the constraint matrix `𝒞` (34), multipliers in closed form, `R_nh`
//!     (§IV.1.1), the projector `P` (Thm IV.5), and the energy balance (derived, not in the
//!     paper).
//!   - [`lagrange::closed`]: [IMMS07] §II.4 and §IV — the closed-form Lagrange–d'Alembert
//!     derivation under the budget.
//!   - [`lagrange::implicit`]: [IMMS07] §II.4 and §IV.1 — the implicit form `W ẏ + μᵀλ = b`,
//!     `μ ẏ = β` assembled without inverting anything or expanding the forcing, for large
//!     systems whose emitted code solves it numerically.
//! - [`hamilton`]: the Hamiltonian side and the brackets of the constrained motion.
//!   - [`hamilton::hamiltonian`]: [IMMS07] §II.5–§II.6 and §V — the Legendre map, `H`,
//!     Hamilton's equations (17), the constraints `ψ` on the dual, `𝒞̄`, `λ̄`, and the
//!     nonholonomic bracket (§V.2, in its local form) with its table of coordinate brackets and
//!     Jacobiators on `B̄`.
//!   - [`hamilton::dirac`]: [GBMS24] §3 (Ex. 3.1–3.5) — the Dirac algebroid `𝒟_C` of linear
//!     constraints in an adapted frame, the phase equations (27)–(29) for the system's `H`, the
//!     effective phase space, the multipliers, and the almost-Poisson bracket `Λ_C`/`Λ_A` on it.
//!   - [`hamilton::projected`]: [GLMM09] §4–§5 — for a mechanical Lagrangian, the nonholonomic
//!     algebroid `(D, ε_P)` of the `G`-orthogonal projection,
//!     `𝒞^c_ab = G^{cd} G(X_d, [X_a, X_b])`, and its bracket on `D*` (§4, after (4.6)) with
//!     `H_D`, its equations and Jacobiators; the induced Lagrangian route (Theorem 5.1: the
//!     restricted Lagrangian's unconstrained equations on `D`) and the Noether test of declared
//!     symmetries (Theorem 5.3).
//!   - [`hamilton::lie`]: [GLMM09] §4 — whether `(D, ε_P)` is Lie: the curvature
//!     `K = (1 − P)[·,·]_E`, the anchor defect and the section Jacobiator, reported separately
//!     (non-zero curvature does not imply non-Lie).
//! - [`singular`]: singular Lagrangians.
//!   - [`singular::algorithm`]: [IMMS08] §3.1 and §4 — the constraint algorithm of a singular
//!     Lagrangian on `𝒯^E E`, step by step, the SODE step, and the motion on the final
//!     constraint set with the directions it leaves free; constraints that cannot be solved for a
//!     variable are kept as polynomial equations (`cas::Ideal`).
//!   - [`singular::dirac_bergmann`]: [IMMS08] §3.2 and Dirac's constraint theory — the
//!     Hamiltonian side of a singular Lagrangian: primary constraints of the Legendre map, the
//!     consistency chain, first and second class, and the Dirac bracket with its Jacobiator.
//! - [`vakonomic`]: [IMMS08] §5.1 — vakonomic constraints: the vakonomic equations with the
//!   multipliers as state (explicit and multiplier form), the regularity matrix `R`, the
//!   Hamiltonian form on `W_1 ≅ E*` and the vakonomic bracket.
//! - [`contact`]: [LJL21] — contact (Herglotz) Lagrangians on `TQ × ℝ` with linear constraints:
//!   the Reeb field, the constrained Herglotz equations with their multipliers, the projector
//!   `𝒫` (with `𝒞⁻¹`), the dissipation law, and the nonholonomic almost-Jacobi bracket (100)
//!   with its Jacobiators.
//! - [`multibody`]: trees of joints from their structure.
//!   - [`multibody::composite`]: the same implicit form for a tree of joints from its structure
//!     (Featherstone 2008, §6.2 and §5.3: composite-rigid-body `W`, Newton–Euler forcing) when
//!     its Lagrangian would expand too far.
//!   - [`multibody::articulated`]: Featherstone's articulated-body forward dynamics and
//!     Newton–Euler inverse dynamics as straight-line programs.
//! - [`reduction`]: reduction by symmetry to the Atiyah algebroid ([IMMS07] §VII; Cendra,
//!   Marsden and Ratiu 2001), with [`reduction::symmetry`], the checks before it: the
//!   infinitesimal generators of a group action on `Q` close with constant structure constants,
//!   and the Lagrangian is annihilated by their complete lifts.
//! - `derivation`: the route dispatch — [`derive_with`] chooses the route and returns a
//!   [`Derived`]; [`derive_within`] is the closed route, a [`Derivation`] with every side of
//!   [IMMS07] §II–§V, [GBMS24] §3 and [GLMM09] §4–§5 that applies.
//! - [`lower`]: the lowering of every derivation into the result IR (`report`): its primary
//!   flow, which code generation consumes.
//! - [`linearize`]: the linearisation of the closed-form Lagrange–d'Alembert equations about an
//!   equilibrium or a steady motion.
//! - [`describe`]: the lowering of every derivation into its report (`report::Report`), the
//!   named quantities the JSON and LaTeX documents are written from.
//! - [`check`]: proves the spec's `expect` blocks against a derivation.
#![warn(missing_docs)]

pub mod base;
pub mod check;
pub mod contact;
mod derivation;
pub mod describe;
pub mod discrete;
pub mod hamilton;
pub mod lagrange;
pub mod linearize;
pub mod lower;
pub mod multibody;
pub mod reduction;
pub mod singular;
pub mod vakonomic;

pub use base::budget::Options;
pub use base::route::{Choice, Method, Route, Solve};
pub use derivation::{
    derive, derive_with, derive_within, ContactDerivation, Derivation, Derived, ImplicitDerivation,
    SingularDerivation, VakonomicDerivation,
};
pub use lagrange::closed::Equation;
