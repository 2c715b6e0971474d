//! The kinds of `expect` blocks: which routes answer each, and in which names a block's values
//! are written.

use model::ScopeKind;
use syntax::ast::ExpectBlock;
use syntax::Diagnostic;

/// The kinds of `expect` block this version understands.
pub const KINDS: [&str; 47] = [
    "equations",
    "free_equations",
    "multipliers",
    "energy",
    "energy_rate",
    "first_integrals",
    "hessian",
    "constraint_matrix",
    "theta",
    "omega",
    "dpsi",
    "projector",
    "hamiltonian",
    "legendre",
    "hamilton_equations",
    "dual_constraints",
    "dual_constraint_matrix",
    "dual_multipliers",
    "bracket",
    "jacobiator",
    "frame_bracket",
    "dirac_hamiltonian",
    "dirac_constraints",
    "dirac_equations",
    "dirac_bracket",
    "dirac_jacobiator",
    "projected_bracket",
    "projected_jacobiator",
    "induced_lagrangian",
    "induced_equations",
    "noether",
    "curvature",
    "section_jacobiator",
    "vakonomic_equations",
    "vakonomic_hamiltonian",
    "vakonomic_hamilton_equations",
    "vakonomic_bracket",
    "constraint_algorithm",
    "singular_equations",
    "contact_equations",
    "contact_multipliers",
    "contact_energy",
    "contact_projector",
    "contact_bracket",
    "contact_jacobiator",
    "contact_hamiltonian",
    "contact_hamilton_equations",
];

/// The kinds about a contact (Herglotz) system (seed 004): the only ones it has. Values are
/// functions of the coordinates, velocities and the action variable, compared on `Δ × ℝ`
/// (`contact_projector` identically); the last two are functions of `(q, p, z)` on `Ψ = 0`.
pub(super) const CONTACT_KINDS: [&str; 8] = [
    "contact_equations",
    "contact_multipliers",
    "contact_energy",
    "contact_projector",
    "contact_bracket",
    "contact_jacobiator",
    "contact_hamiltonian",
    "contact_hamilton_equations",
];

/// The kinds about a singular Lagrangian's constraint algorithm (seed 003 §4): the only ones a
/// singular system has, and a regular one has none of them.
pub(super) const SINGULAR_KINDS: [&str; 2] = ["constraint_algorithm", "singular_equations"];

/// The kinds about vakonomic dynamics (seed 003 §5.1): the only ones a vakonomic system has.
/// `vakonomic_equations` values are functions of the state `(x, y, p)`; the others are
/// functions on `W_1 ≅ E*`.
pub(super) const VAKONOMIC_KINDS: [&str; 4] = [
    "vakonomic_equations",
    "vakonomic_hamiltonian",
    "vakonomic_hamilton_equations",
    "vakonomic_bracket",
];

/// The kinds of the induced Lagrangian route (seed 001 Theorem 5.1): values are functions on `D`,
/// in the coordinates, the algebroid velocities and the fibre coordinates of `D`.
pub(super) const INDUCED_KINDS: [&str; 3] = ["induced_lagrangian", "induced_equations", "noether"];

/// The kinds about the Dirac side (seed 002): values are functions on the dual written in the
/// momenta of the frame (the algebroid's momenta may appear too; `p = T⁻¹η` converts them).
pub(super) const DIRAC_KINDS: [&str; 10] = [
    "frame_bracket",
    "dirac_hamiltonian",
    "dirac_constraints",
    "dirac_equations",
    "dirac_bracket",
    "dirac_jacobiator",
    "projected_bracket",
    "projected_jacobiator",
    "curvature",
    "section_jacobiator",
];

/// The kinds whose values are functions on the dual `V*` (momenta, no velocities).
pub(super) const PHASE_KINDS: [&str; 7] = [
    "hamiltonian",
    "hamilton_equations",
    "dual_constraints",
    "dual_constraint_matrix",
    "dual_multipliers",
    "bracket",
    "jacobiator",
];

/// How the value of an entry of `block` is read.
pub(super) fn value_scope(block: &ExpectBlock) -> ScopeKind {
    if block.kind.name == "vakonomic_equations" {
        ScopeKind::Vakonomic
    } else if PHASE_KINDS.contains(&block.kind.name.as_str())
        || VAKONOMIC_KINDS.contains(&block.kind.name.as_str())
        || block.kind.name.starts_with("contact_hamilton")
    {
        ScopeKind::Phase
    } else if DIRAC_KINDS.contains(&block.kind.name.as_str()) {
        ScopeKind::Frame
    } else if INDUCED_KINDS.contains(&block.kind.name.as_str()) {
        ScopeKind::Induced
    } else {
        ScopeKind::Observable
    }
}

pub(super) fn known_kind(block: &ExpectBlock) -> syntax::Result<()> {
    if KINDS.contains(&block.kind.name.as_str()) {
        return Ok(());
    }
    Err(vec![Diagnostic::error(
        "E0401",
        format!("unknown kind of expectation `{}`", block.kind.name),
        block.kind.span,
        "unknown kind",
    )
    .with_help(format!("the kinds are {}", KINDS.join(", ")))])
}
