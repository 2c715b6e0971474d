//! The Lagrangian side ([IMMS07] §II.4, §III–§IV): the Euler–Lagrange and Lagrange–d'Alembert
//! equations on a Lie affgebroid, in closed form or in implicit form.
//!
//! Imports only `base`.
//!
//! - [`lagrangian`]: [IMMS07] §II.4 — Euler–Lagrange equations on an affgebroid (eq. 11), energy,
//!   `Θ_L`, `Ω_L` (block form), the Hessian `W`, regularity, the Reeb section `R_L`.
//! - [`nonholonomic`]: [IMMS07] §III–§IV.1 — Lagrange–d'Alembert equations (35), `Z_a` (37),
//!   the constraint matrix `𝒞` (34), multipliers in closed form, `R_nh` (§IV.1.1), the projector
//!   `P` (Thm IV.5), and the energy balance (derived, not in the paper).
//! - [`closed`]: [IMMS07] §II.4 and §IV — the closed-form Lagrange–d'Alembert derivation, step by
//!   step under the budget: `W⁻¹`, the free and constrained accelerations, the first-order
//!   system and its energy rate.
//! - [`implicit`]: [IMMS07] §II.4 and §IV.1 — the implicit form `W ẏ + μᵀλ = b`, `μ ẏ = β`
//!   assembled without inverting anything or expanding the forcing, for large systems whose
//!   emitted code solves it numerically.

pub mod closed;
pub mod implicit;
pub mod lagrangian;
pub mod nonholonomic;
