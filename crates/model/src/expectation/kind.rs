//! The kinds of `expect` block: one per quantity a block can name, and which derivation
//! answers it.

/// What an `expect` block is about: `expect equations { … }` is [`Kind::Equations`], and each
/// kind is written as its [`Kind::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The constrained equations of motion: the rate of each state variable (`x' = …`).
    Equations,
    /// The equations of motion without the constraint forces.
    FreeEquations,
    /// The Lagrange multipliers `λ_a` in closed form.
    Multipliers,
    /// The energy `E_L`.
    Energy,
    /// Its rate `dE_L/dt` along the motion.
    EnergyRate,
    /// Functions conserved along the motion (listed without keys).
    FirstIntegrals,
    /// The Hessian `W_αβ` of the Lagrangian in the velocities.
    Hessian,
    /// The constraint matrix `𝒞^{ab}`.
    ConstraintMatrix,
    /// The Poincaré–Cartan 1-form `Θ_L` on `T̃(e0)` and `T̃(e_α)`.
    Theta,
    /// The Poincaré–Cartan 2-form `Ω_L` on the basis `T(e0), T(e), V(e)`.
    Omega,
    /// The differentials `dΨ^a` of the constraints on that basis.
    Dpsi,
    /// The projector `P` onto the constrained dynamics, on that basis.
    Projector,
    /// The Hamiltonian `H(x, p)`.
    Hamiltonian,
    /// The Legendre transform `p_α = ∂L/∂y^α`.
    Legendre,
    /// The constrained Hamilton equations on `B̄`.
    HamiltonEquations,
    /// The constraints `ψ^a(x, p)` on the dual.
    DualConstraints,
    /// Their constraint matrix `𝒞̄^{ab}`.
    DualConstraintMatrix,
    /// The multipliers `λ̄_a(x, p)` on `B̄`.
    DualMultipliers,
    /// The nonholonomic bracket `{f, g}_nh`.
    Bracket,
    /// Its Jacobiator `J(f, g, h)`.
    Jacobiator,
    /// The linear Poisson bracket of `E*` in the momenta of the frame.
    FrameBracket,
    /// The Hamiltonian `H̃(q, η)` in the frame momenta.
    DiracHamiltonian,
    /// The dependent frame momenta `ψ_α` on the Dirac constraint set.
    DiracConstraints,
    /// The Dirac phase equations on `S`.
    DiracEquations,
    /// The bracket `{f, g}` on `S` (`Λ_C`, `Λ_A`).
    DiracBracket,
    /// Its Jacobiator.
    DiracJacobiator,
    /// The bracket of the projected structure on `D*`.
    ProjectedBracket,
    /// Its Jacobiator.
    ProjectedJacobiator,
    /// The Lagrangian `l(x, v)` restricted to `D`.
    InducedLagrangian,
    /// The equations of motion of the induced Lagrangian route on `D`.
    InducedEquations,
    /// The first integral of a declared symmetry.
    Noether,
    /// The curvature `⟨p, K(X_a, X_b)⟩` of the sections of `D`.
    Curvature,
    /// The Jacobiator `⟨ξ, Jac_P(X_a, X_b, X_c)⟩` of the sections of `D`.
    SectionJacobiator,
    /// The vakonomic equations on the state `(x, y, p)`.
    VakonomicEquations,
    /// The Hamiltonian `H_{W_1}(x, p)` of the vakonomic system.
    VakonomicHamiltonian,
    /// Its Hamilton equations.
    VakonomicHamiltonEquations,
    /// The vakonomic bracket `{f, g}` on `W_1`.
    VakonomicBracket,
    /// The constraints of each step of the constraint algorithm, and its level.
    ConstraintAlgorithm,
    /// The equations of motion on the final constraint set.
    SingularEquations,
    /// The constrained Herglotz equations on `TQ × ℝ`.
    ContactEquations,
    /// Their multipliers `λ_a`.
    ContactMultipliers,
    /// The energy `E_L` of a contact system.
    ContactEnergy,
    /// The projector `𝒫^μ_ν` on `TQ × ℝ`.
    ContactProjector,
    /// The nonholonomic bracket of a contact system.
    ContactBracket,
    /// Its Jacobiator.
    ContactJacobiator,
    /// The Hamiltonian `H(q, p, z)` of a contact system.
    ContactHamiltonian,
    /// Its Hamilton equations on `T*Q × ℝ`.
    ContactHamiltonEquations,
}

/// Which derivation (or which side of it) answers a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The closed-form Lagrange–d'Alembert derivation on the velocity side ([IMMS07] §III–IV):
    /// values are functions of the coordinates and velocities (multipliers allowed).
    Lagrangian,
    /// Its Hamiltonian side on the dual `V*` ([IMMS07] §V): values in the momenta, no velocities.
    Dual,
    /// The Dirac side ([GBMS24]) and the projected structure on `D*` ([GLMM09]): values on the
    /// dual written in the momenta of the frame (the algebroid's momenta may appear too).
    Dirac,
    /// The induced Lagrangian route ([GLMM09] Theorem 5.1): values are functions on `D`.
    Induced,
    /// Vakonomic dynamics ([IMMS08] §5.1): the only family a vakonomic system has.
    Vakonomic,
    /// The constraint algorithm of a singular Lagrangian ([IMMS08] §4): the only family a
    /// singular system has, and a regular one has none of it.
    Singular,
    /// A contact (Herglotz) system ([LJL21]): the only family it has.
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
