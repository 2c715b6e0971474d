//! Trees of joints from their structure (Featherstone, *Rigid Body Dynamics Algorithms*,
//! Springer 2008), for systems whose Lagrangian would expand too far.
//!
//! Builds on `lagrange` (a documented exception): the structure gives the same implicit form
//! `W ẏ + μᵀλ = b`, `μ ẏ = β` as `lagrange::implicit`, whose constraint rows it reuses.
//!
//! - [`composite`]: the implicit form for a tree of joints from its structure (§6.2 and §5.3:
//!   composite-rigid-body `W`, Newton–Euler forcing).
//! - [`articulated`]: the articulated-body forward dynamics (§7.3) and Newton–Euler inverse
//!   dynamics (§5.3) as straight-line programs.

pub mod articulated;
pub mod composite;
