//! What no formalism owns: the calculus of the algebroid every formalism shares, the choice of
//! route and the budgets every stage is measured against, the constraint surface, and the
//! constraint set and elimination of the constraint algorithm.
//!
//! Nothing here imports a formalism: every other module of the crate may build on this one.
//!
//! - [`algebra`]: [IMMS07] §II.4–§II.5 — the anchor applied to functions, the admissible
//!   velocity, the linear Poisson bracket of `V*` and the Hamiltonian vector field of a section.
//! - [`route`]: the closed form or the implicit form (`--solve`), and why; the induced or the
//!   multiplier method (`--method`).
//! - [`budget`]: the size budget every stage is measured against (E0501), the work budget of a
//!   closed-form attempt (E0513) and the run's deadline (E0503).
//! - [`surface`]: [IMMS07] §III — the constraint surface, for restricting functions of the
//!   velocities to it.
//! - `constraint_set`: [IMMS08] §3.1 — the constraint set of the constraint algorithm, as a
//!   substitution and an ideal.
//! - `elimination`: Gauss–Jordan elimination with exact zero tests on a constraint set
//!   ([IMMS08] §3.1).
//! - [`dense`]: dense linear systems with numbers (Gaussian elimination with partial pivoting).
//! - `matrix`: products of symbolic matrices.

pub mod algebra;
pub mod budget;
pub(crate) mod constraint_set;
pub mod dense;
pub(crate) mod elimination;
pub(crate) mod matrix;
pub mod route;
pub mod surface;
