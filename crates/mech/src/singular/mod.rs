//! Singular Lagrangians ([IMMS08] §3–§4): the constraint algorithm on `𝒯^E E` and its
//! Hamiltonian side in the Dirac–Bergmann form.
//!
//! Builds on `lagrange` (a documented exception): the algorithm runs on the Lagrangian's
//! objects (`p`, `W`, `E_L`, `Ω_L` of `lagrange::lagrangian`); the constraint set, the
//! elimination and the bracket of the dual come from `base`.
//!
//! - [`algorithm`]: [IMMS08] §3.1 and §4 — the constraint algorithm of a singular Lagrangian on
//!   `𝒯^E E`, step by step, the SODE step, and the motion on the final constraint set with the
//!   directions it leaves free; constraints that cannot be solved for a variable are kept as
//!   polynomial equations (`cas::Ideal`).
//! - [`dirac_bergmann`]: [IMMS08] §3.2 and Dirac's constraint theory — the Hamiltonian side of a
//!   singular Lagrangian: primary constraints of the Legendre map, the consistency chain, first
//!   and second class, and the Dirac bracket with its Jacobiator.

pub mod algorithm;
pub mod dirac_bergmann;
