//! The kinds of `expect` block: one per quantity a block can name, and which derivation
//! answers it.

/// What an `expect` block is about: `expect equations { … }` is [`Kind::Equations`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // each variant is the block kind of the same name, documented in `name`
pub enum Kind {
    Equations,
    FreeEquations,
    Multipliers,
    Energy,
    EnergyRate,
    FirstIntegrals,
    Hessian,
    ConstraintMatrix,
    Theta,
    Omega,
    Dpsi,
    Projector,
    Hamiltonian,
    Legendre,
    HamiltonEquations,
    DualConstraints,
    DualConstraintMatrix,
    DualMultipliers,
    Bracket,
    Jacobiator,
    FrameBracket,
    DiracHamiltonian,
    DiracConstraints,
    DiracEquations,
    DiracBracket,
    DiracJacobiator,
    ProjectedBracket,
    ProjectedJacobiator,
    InducedLagrangian,
    InducedEquations,
    Noether,
    Curvature,
    SectionJacobiator,
    VakonomicEquations,
    VakonomicHamiltonian,
    VakonomicHamiltonEquations,
    VakonomicBracket,
    ConstraintAlgorithm,
    SingularEquations,
    ContactEquations,
    ContactMultipliers,
    ContactEnergy,
    ContactProjector,
    ContactBracket,
    ContactJacobiator,
    ContactHamiltonian,
    ContactHamiltonEquations,
}

/// Which derivation (or which side of it) answers a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The closed-form Lagrange–d'Alembert derivation on the velocity side (seed 000 §III–IV):
    /// values are functions of the coordinates and velocities (multipliers allowed).
    Lagrangian,
    /// Its Hamiltonian side on the dual `V*` (seed 000 §V): values in the momenta, no velocities.
    Dual,
    /// The Dirac side (seed 002) and the projected structure on `D*` (seed 001): values on the
    /// dual written in the momenta of the frame (the algebroid's momenta may appear too).
    Dirac,
    /// The induced Lagrangian route (seed 001 Theorem 5.1): values are functions on `D`.
    Induced,
    /// Vakonomic dynamics (seed 003 §5.1): the only family a vakonomic system has.
    Vakonomic,
    /// The constraint algorithm of a singular Lagrangian (seed 003 §4): the only family a
    /// singular system has, and a regular one has none of it.
    Singular,
    /// A contact (Herglotz) system (seed 004): the only family it has.
    Contact,
}

impl Kind {
    /// Every kind, in the order the help line lists them.
    pub const ALL: [Kind; 47] = [
        Kind::Equations,
        Kind::FreeEquations,
        Kind::Multipliers,
        Kind::Energy,
        Kind::EnergyRate,
        Kind::FirstIntegrals,
        Kind::Hessian,
        Kind::ConstraintMatrix,
        Kind::Theta,
        Kind::Omega,
        Kind::Dpsi,
        Kind::Projector,
        Kind::Hamiltonian,
        Kind::Legendre,
        Kind::HamiltonEquations,
        Kind::DualConstraints,
        Kind::DualConstraintMatrix,
        Kind::DualMultipliers,
        Kind::Bracket,
        Kind::Jacobiator,
        Kind::FrameBracket,
        Kind::DiracHamiltonian,
        Kind::DiracConstraints,
        Kind::DiracEquations,
        Kind::DiracBracket,
        Kind::DiracJacobiator,
        Kind::ProjectedBracket,
        Kind::ProjectedJacobiator,
        Kind::InducedLagrangian,
        Kind::InducedEquations,
        Kind::Noether,
        Kind::Curvature,
        Kind::SectionJacobiator,
        Kind::VakonomicEquations,
        Kind::VakonomicHamiltonian,
        Kind::VakonomicHamiltonEquations,
        Kind::VakonomicBracket,
        Kind::ConstraintAlgorithm,
        Kind::SingularEquations,
        Kind::ContactEquations,
        Kind::ContactMultipliers,
        Kind::ContactEnergy,
        Kind::ContactProjector,
        Kind::ContactBracket,
        Kind::ContactJacobiator,
        Kind::ContactHamiltonian,
        Kind::ContactHamiltonEquations,
    ];

    /// The kind as written after `expect`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Equations => "equations",
            Kind::FreeEquations => "free_equations",
            Kind::Multipliers => "multipliers",
            Kind::Energy => "energy",
            Kind::EnergyRate => "energy_rate",
            Kind::FirstIntegrals => "first_integrals",
            Kind::Hessian => "hessian",
            Kind::ConstraintMatrix => "constraint_matrix",
            Kind::Theta => "theta",
            Kind::Omega => "omega",
            Kind::Dpsi => "dpsi",
            Kind::Projector => "projector",
            Kind::Hamiltonian => "hamiltonian",
            Kind::Legendre => "legendre",
            Kind::HamiltonEquations => "hamilton_equations",
            Kind::DualConstraints => "dual_constraints",
            Kind::DualConstraintMatrix => "dual_constraint_matrix",
            Kind::DualMultipliers => "dual_multipliers",
            Kind::Bracket => "bracket",
            Kind::Jacobiator => "jacobiator",
            Kind::FrameBracket => "frame_bracket",
            Kind::DiracHamiltonian => "dirac_hamiltonian",
            Kind::DiracConstraints => "dirac_constraints",
            Kind::DiracEquations => "dirac_equations",
            Kind::DiracBracket => "dirac_bracket",
            Kind::DiracJacobiator => "dirac_jacobiator",
            Kind::ProjectedBracket => "projected_bracket",
            Kind::ProjectedJacobiator => "projected_jacobiator",
            Kind::InducedLagrangian => "induced_lagrangian",
            Kind::InducedEquations => "induced_equations",
            Kind::Noether => "noether",
            Kind::Curvature => "curvature",
            Kind::SectionJacobiator => "section_jacobiator",
            Kind::VakonomicEquations => "vakonomic_equations",
            Kind::VakonomicHamiltonian => "vakonomic_hamiltonian",
            Kind::VakonomicHamiltonEquations => "vakonomic_hamilton_equations",
            Kind::VakonomicBracket => "vakonomic_bracket",
            Kind::ConstraintAlgorithm => "constraint_algorithm",
            Kind::SingularEquations => "singular_equations",
            Kind::ContactEquations => "contact_equations",
            Kind::ContactMultipliers => "contact_multipliers",
            Kind::ContactEnergy => "contact_energy",
            Kind::ContactProjector => "contact_projector",
            Kind::ContactBracket => "contact_bracket",
            Kind::ContactJacobiator => "contact_jacobiator",
            Kind::ContactHamiltonian => "contact_hamiltonian",
            Kind::ContactHamiltonEquations => "contact_hamilton_equations",
        }
    }

    /// The kind written `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Which derivation answers this kind.
    pub fn family(self) -> Family {
        use Kind::*;
        match self {
            Equations | FreeEquations | Multipliers | Energy | EnergyRate | FirstIntegrals
            | Hessian | ConstraintMatrix | Theta | Omega | Dpsi | Projector | Legendre => {
                Family::Lagrangian
            }
            Hamiltonian | HamiltonEquations | DualConstraints | DualConstraintMatrix
            | DualMultipliers | Bracket | Jacobiator => Family::Dual,
            FrameBracket | DiracHamiltonian | DiracConstraints | DiracEquations | DiracBracket
            | DiracJacobiator | ProjectedBracket | ProjectedJacobiator | Curvature
            | SectionJacobiator => Family::Dirac,
            InducedLagrangian | InducedEquations | Noether => Family::Induced,
            VakonomicEquations
            | VakonomicHamiltonian
            | VakonomicHamiltonEquations
            | VakonomicBracket => Family::Vakonomic,
            ConstraintAlgorithm | SingularEquations => Family::Singular,
            ContactEquations
            | ContactMultipliers
            | ContactEnergy
            | ContactProjector
            | ContactBracket
            | ContactJacobiator
            | ContactHamiltonian
            | ContactHamiltonEquations => Family::Contact,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
