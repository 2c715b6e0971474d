//! The Hamiltonian side of a regular Lagrangian and the brackets of its constrained motion: the
//! nonholonomic bracket on `B̄` ([IMMS07] §V), the almost-Poisson bracket of the Dirac algebroid
//! ([GBMS24] §3), and the bracket of the projected algebroid `(D, ε_P)` with its Lie test
//! ([GLMM09] §4–§5).
//!
//! Builds on `lagrange` (a documented exception): the Legendre map and the projection need the
//! Lagrangian's closed-form objects, its momenta, `W` and `W⁻¹` (`lagrange::lagrangian::Regular`).
//! Inside, `dirac` reads the system's `H` from `hamiltonian`, and `projected` builds on the
//! frame of `dirac` and the Lie test of `lie`, which reads `dirac`'s bracket of sections.
//!
//! - [`hamiltonian`]: [IMMS07] §II.5–§II.6 and §V — the Legendre map, `H`, Hamilton's equations
//!   (17), the constraints `ψ` on the dual, `𝒞̄`, `λ̄`, and the nonholonomic bracket (§V.2,
//!   in its local form) with its table of coordinate brackets and Jacobiators on `B̄`.
//! - [`dirac`]: [GBMS24] §3 (Ex. 3.1–3.5) — the Dirac algebroid `𝒟_C` of linear constraints in
//!   an adapted frame, the phase equations (27)–(29) for the system's `H`, the effective phase
//!   space, the multipliers, and the almost-Poisson bracket `Λ_C`/`Λ_A` on it.
//! - [`projected`]: [GLMM09] §4–§5 — for a mechanical Lagrangian, the nonholonomic algebroid
//!   `(D, ε_P)` of the `G`-orthogonal projection, `𝒞^c_ab = G^{cd} G(X_d, [X_a, X_b])`, and its
//!   bracket on `D*` (§4, after (4.6)) with `H_D`, its equations and Jacobiators; the induced
//!   Lagrangian route (Theorem 5.1: the restricted Lagrangian's unconstrained equations on `D`)
//!   and the Noether test of declared symmetries (Theorem 5.3).
//! - [`lie`]: [GLMM09] §4 — whether `(D, ε_P)` is Lie: the curvature `K = (1 − P)[·,·]_E`, the
//!   anchor defect and the section Jacobiator, reported separately (non-zero curvature does not
//!   imply non-Lie).

pub mod dirac;
pub mod hamiltonian;
pub mod lie;
pub mod projected;
