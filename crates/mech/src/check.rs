//! Proving `expect` blocks against a derivation.
//!
//! Each entry names a derived quantity (by its key and the block's kind) and gives its
//! hand-derived value. The entry *holds* when the difference vanishes identically after
//! restriction to the constraint surface: as many velocities as there are (affine) constraints
//! are eliminated by solving the constraints for them, then the difference is brought to rational
//! normal form with `sin² + cos² = 1` ([`cas::Expr::is_zero`]). Otherwise the entry *differs* by
//! the printed difference (derived − expected).

use std::collections::BTreeMap;

use cas::Expr;
use model::{ScopeKind, System};
use syntax::ast::{ExpectBlock, ExpectEntry, Expr as Ast, ExprKind, Key, Span};
use syntax::Diagnostic;

use crate::dirac::Dirac;
use crate::hamiltonian::{Hamiltonian, Phase};
use crate::nonholonomic::derivative_along;
use crate::{ContactDerivation, Derivation, SingularDerivation, VakonomicDerivation};

/// The verdict on one entry.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Derived and expected agree on the constraint surface.
    Holds,
    /// They differ by this (derived − expected, restricted to the constraint surface).
    Differs(Expr),
}

/// One checked entry.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The block kind.
    pub kind: String,
    /// The entry's key as written (or the expression, for keyless kinds).
    pub key: String,
    /// Where the entry is.
    pub span: Span,
    /// What was found.
    pub verdict: Verdict,
}

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
const CONTACT_KINDS: [&str; 8] = [
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
const SINGULAR_KINDS: [&str; 2] = ["constraint_algorithm", "singular_equations"];

/// The kinds about vakonomic dynamics (seed 003 §5.1): the only ones a vakonomic system has.
/// `vakonomic_equations` values are functions of the state `(x, y, p)`; the others are
/// functions on `W_1 ≅ E*`.
const VAKONOMIC_KINDS: [&str; 4] = [
    "vakonomic_equations",
    "vakonomic_hamiltonian",
    "vakonomic_hamilton_equations",
    "vakonomic_bracket",
];

/// The kinds of the induced Lagrangian route (seed 001 Theorem 5.1): values are functions on `D`,
/// in the coordinates, the algebroid velocities and the fibre coordinates of `D`.
const INDUCED_KINDS: [&str; 3] = ["induced_lagrangian", "induced_equations", "noether"];

/// The kinds about the Dirac side (seed 002): values are functions on the dual written in the
/// momenta of the frame (the algebroid's momenta may appear too; `p = T⁻¹η` converts them).
const DIRAC_KINDS: [&str; 10] = [
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
const PHASE_KINDS: [&str; 7] = [
    "hamiltonian",
    "hamilton_equations",
    "dual_constraints",
    "dual_constraint_matrix",
    "dual_multipliers",
    "bracket",
    "jacobiator",
];

/// How the value of an entry of `block` is read.
fn value_scope(block: &ExpectBlock) -> ScopeKind {
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

pub use crate::surface::Surface;

/// What an `expect` entry refers to, resolved from its block's kind and its key.
#[derive(Clone, Debug)]
enum Quantity {
    /// The right-hand side of `d(state k)/dt`: constrained (`equations`) or free
    /// (`free_equations`).
    Rate { state: usize, free: bool },
    /// `λ_a`.
    Multiplier(usize),
    /// `E_L`.
    Energy,
    /// `dE_L/dt`.
    EnergyRate,
    /// The entry's value is a first integral.
    FirstIntegral,
    /// `W_ab`.
    Hessian(usize, usize),
    /// `𝒞^{ab}`.
    ConstraintMatrix(usize, usize),
    /// `Θ_L` on `T̃_i` (0 is `e0`).
    Theta(usize),
    /// `Ω_L(X_i, X_j)`.
    Omega(usize, usize),
    /// `dΨ^a(X_i)`.
    Dpsi(usize, usize),
    /// `P` in row `i`, column `j`.
    Projector(usize, usize),
    /// `H(x, p)`.
    Hamiltonian,
    /// `p_α = ∂L/∂y^α(x, y)`.
    Legendre(usize),
    /// The rate of phase coordinate `k` (coordinates, then momenta) on `B̄`.
    PhaseRate(usize),
    /// `ψ^a(x, p)`.
    DualConstraint(usize),
    /// `𝒞̄^{ab}`.
    DualConstraintMatrix(usize, usize),
    /// `λ̄_a(x, p)` on `B̄`.
    DualMultiplier(usize),
    /// `{f, g}_nh` on `B̄` (the Poisson bracket without constraints).
    Bracket(Expr, Expr),
    /// `J(f, g, h)` on `B̄`.
    Jacobiator(Expr, Expr, Expr),
    /// The linear Poisson bracket of `E*` of two functions written in the frame momenta.
    FrameBracket(Expr, Expr),
    /// `H̃(q, η)`.
    DiracHamiltonian,
    /// `ψ_α` of the dependent frame momentum with this index.
    DiracDependent(usize),
    /// The rate of this coordinate of `S` or dependent momentum, on `S`.
    DiracRate(String),
    /// `{f, g}` on `S` (Λ_C / Λ_A).
    DiracBracket(Expr, Expr),
    /// `J(f, g, h)` on `S`.
    DiracJacobiator(Expr, Expr, Expr),
    /// `{f, g}` of the projected structure on `D*` (seed 001).
    ProjectedBracket(Expr, Expr),
    /// Its Jacobiator.
    ProjectedJacobiator(Expr, Expr, Expr),
    /// `⟨p, K(X_a, X_b)⟩` for the sections of `D` with these indices (seed 001 §4).
    Curvature(usize, usize),
    /// `⟨ξ, Jac_P(X_a, X_b, X_c)⟩`.
    SectionJacobiator(usize, usize, usize),
    /// `l(x, v)`.
    InducedLagrangian,
    /// The rate of this coordinate or fibre coordinate of `D` on the induced route.
    InducedRate(String),
    /// The first integral of the declared symmetry with this index (it must be a symmetry).
    NoetherIntegral(usize),
    /// The rate of this state variable of the vakonomic equations.
    VakonomicRate(String),
    /// `H_{W_1}(x, p)`.
    VakonomicHamiltonian,
    /// The rate of this coordinate or momentum in the Hamiltonian form.
    VakonomicHamiltonRate(String),
    /// The vakonomic bracket `{f, g}` on `W_1`.
    VakonomicBracket(Expr, Expr),
    /// A constraint found by the constraint algorithm at this level (`None`: the SODE step).
    AlgorithmConstraint(Option<usize>),
    /// The level at which the constraint algorithm stabilised.
    AlgorithmLevel,
    /// The rate of this variable on the final constraint set of a singular Lagrangian.
    SingularRate(String),
    /// The rate of this coordinate of `TQ × ℝ` under `Γ_{L,Δ}`.
    ContactRate(String),
    /// `λ_a` of the constrained Herglotz equations.
    ContactMultiplier(usize),
    /// `E_L` of a contact system.
    ContactEnergy,
    /// `𝒫^μ_ν` for these coordinates of `TQ × ℝ`.
    ContactProjector(String, String),
    /// The nonholonomic bracket (100), our sign.
    ContactBracket(Expr, Expr),
    /// Its Jacobiator.
    ContactJacobiator(Expr, Expr, Expr),
    /// `H(q, p, z)` of the Hamiltonian side.
    ContactHamiltonian,
    /// The rate of this coordinate of `T*Q × ℝ`.
    ContactHamiltonRate(String),
}

impl Quantity {
    fn on_frame(&self) -> bool {
        matches!(
            self,
            Quantity::FrameBracket(..)
                | Quantity::DiracHamiltonian
                | Quantity::DiracDependent(_)
                | Quantity::DiracRate(_)
                | Quantity::DiracBracket(..)
                | Quantity::DiracJacobiator(..)
                | Quantity::ProjectedBracket(..)
                | Quantity::ProjectedJacobiator(..)
                | Quantity::Curvature(..)
                | Quantity::SectionJacobiator(..)
        )
    }

    fn on_dual(&self) -> bool {
        matches!(
            self,
            Quantity::Hamiltonian
                | Quantity::PhaseRate(_)
                | Quantity::DualConstraint(_)
                | Quantity::DualConstraintMatrix(..)
                | Quantity::DualMultiplier(_)
                | Quantity::Bracket(..)
                | Quantity::Jacobiator(..)
        )
    }
}

/// Checks that every `expect` block of `system` is well formed — a known kind, keys that name
/// quantities of this system, values in its names — without deriving or proving anything. This is
/// what `derive` asks of the blocks; `check` then proves them.
pub fn validate(system: &System) -> syntax::Result<()> {
    let mut errors = Vec::new();
    for block in &system.expects {
        match known_kind(block) {
            Ok(()) => {
                for entry in &block.entries {
                    let resolved = system
                        .scope
                        .convert(&entry.value, value_scope(block))
                        .and_then(|_| quantity(system, block, entry));
                    if let Err(e) = resolved {
                        errors.extend(e);
                    }
                }
            }
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Proves every `expect` block of `system` with `difference` (the derived minus the expected
/// value of an entry): the loop shared by the derivations that are not the closed form.
fn prove_each(
    system: &System,
    skip: &dyn Fn(&ExpectBlock) -> Option<Diagnostic>,
    difference: &dyn Fn(&ExpectBlock, &ExpectEntry) -> syntax::Result<Expr>,
) -> syntax::Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for block in &system.expects {
        if let Err(e) = known_kind(block) {
            errors.extend(e);
            continue;
        }
        if let Some(e) = skip(block) {
            errors.push(e);
            continue;
        }
        for entry in &block.entries {
            match difference(block, entry) {
                Ok(difference) => outcomes.push(Outcome {
                    kind: block.kind.name.clone(),
                    key: entry_label(entry),
                    span: entry.span,
                    verdict: if difference.vanishes() {
                        Verdict::Holds
                    } else {
                        Verdict::Differs(difference)
                    },
                }),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(outcomes)
    } else {
        Err(errors)
    }
}

/// Proves every `expect` block of a vakonomic system (seed 003 §5.1).
pub fn check_vakonomic(d: &VakonomicDerivation) -> syntax::Result<Vec<Outcome>> {
    prove_each(&d.system, &|_| None, &|block, entry| {
        vakonomic_difference(d, block, entry)
    })
}

/// After deriving a vakonomic system: the blocks about its Hamiltonian form need that form.
pub fn validate_vakonomic(d: &VakonomicDerivation) -> syntax::Result<()> {
    let errors: Vec<Diagnostic> = d
        .system
        .expects
        .iter()
        .filter(|b| b.kind.name != "vakonomic_equations")
        .filter_map(|b| vakonomic_hamiltonian(d, b.kind.span).err())
        .flatten()
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The Hamiltonian form of a vakonomic system, or E0404 at `span`.
fn vakonomic_hamiltonian(
    d: &VakonomicDerivation,
    span: Span,
) -> syntax::Result<&crate::vakonomic::VakonomicHamiltonian> {
    d.vakonomic.hamiltonian.as_ref().ok_or_else(|| {
        vec![Diagnostic::error(
            "E0404",
            "the Hamiltonian form of this vakonomic system is not available",
            span,
            "this expectation is about the Hamiltonian form",
        )
        .with_note("the momenta p_a of the free sections are not affine in the free velocities, so y^a = μ^a(x, p) has no closed form")]
    })
}

/// The derived minus the expected value of one vakonomic entry.
fn vakonomic_difference(
    d: &VakonomicDerivation,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Expr> {
    let system = &d.system;
    let v = &d.vakonomic;
    let expected = system.scope.convert(&entry.value, value_scope(block))?;
    match quantity(system, block, entry)? {
        Quantity::VakonomicRate(name) => {
            let k = v.state.iter().position(|s| *s == name).ok_or_else(|| {
                bad_key(
                    key_span(entry),
                    format!(
                        "`{}'` is not a state variable of the vakonomic equations",
                        system.spec_name(&name)
                    ),
                    "a coordinate, a free velocity or a multiplier (a constrained velocity is Ψ)",
                )
            })?;
            Ok((v.rates[k].clone() - expected.subs(&v.psi)).simplify())
        }
        Quantity::VakonomicHamiltonian => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            Ok((h.hamiltonian.clone() - expected).simplify())
        }
        Quantity::VakonomicHamiltonRate(name) => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            let k = h.coordinates.iter().position(|s| *s == name);
            let k = k.expect("keys name a coordinate or a momentum");
            Ok((h.rates[k].clone() - expected).simplify())
        }
        Quantity::VakonomicBracket(f, g) => {
            let h = vakonomic_hamiltonian(d, block.kind.span)?;
            let phase = Phase::new(
                system,
                h.hamiltonian.clone(),
                vec![Expr::zero(); system.rank()],
            );
            Ok((phase.poisson(&f, &g) - expected).simplify())
        }
        _ => unreachable!("a vakonomic system has vakonomic kinds only (`quantity`)"),
    }
}

/// After deriving: every `expect` block about the Hamiltonian side needs that side to exist
/// (E0404 says why it does not).
pub fn validate_derived(d: &Derivation) -> syntax::Result<()> {
    let regular = d
        .system
        .expects
        .iter()
        .filter(|b| SINGULAR_KINDS.contains(&b.kind.name.as_str()))
        .map(|b| {
            Diagnostic::error(
                "E0403",
                format!(
                    "`expect {}` is about a singular Lagrangian, and this one is regular",
                    b.kind.name
                ),
                b.kind.span,
                "nothing to compare with",
            )
            .with_note("det W does not vanish: there is no constraint algorithm to run")
        });
    let errors: Vec<Diagnostic> = regular
        .chain(
            d.system
                .expects
                .iter()
                .filter(|b| {
                    PHASE_KINDS.contains(&b.kind.name.as_str()) || b.kind.name == "legendre"
                })
                .filter_map(|b| hamiltonian(d, b.kind.span).err())
                .flatten()
                .chain(
                    d.system
                        .expects
                        .iter()
                        .filter(|b| {
                            DIRAC_KINDS.contains(&b.kind.name.as_str())
                                || INDUCED_KINDS.contains(&b.kind.name.as_str())
                        })
                        .filter_map(|b| dirac_side(d, b).err())
                        .flatten(),
                ),
        )
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Proves every `expect` block of a singular Lagrangian (seed 003 §4).
pub fn check_singular(d: &SingularDerivation) -> syntax::Result<Vec<Outcome>> {
    let regular_kind = |block: &ExpectBlock| {
        (!SINGULAR_KINDS.contains(&block.kind.name.as_str())).then(|| {
            Diagnostic::error(
                "E0403",
                format!(
                    "`expect {}` is about a regular Lagrangian, and this one is singular",
                    block.kind.name
                ),
                block.kind.span,
                "nothing to compare with",
            )
            .with_note(
                "a singular Lagrangian has the kinds constraint_algorithm and singular_equations",
            )
        })
    };
    prove_each(&d.system, &regular_kind, &|block, entry| {
        singular_difference(d, block, entry)
    })
}

/// The substitution of the constraints found up to (and including) step `last` of `steps`.
fn solved_through(steps: &[crate::singular::Step], last: usize) -> BTreeMap<String, Expr> {
    let mut map: BTreeMap<String, Expr> = BTreeMap::new();
    for step in steps.iter().take(last) {
        for (variable, value) in &step.solved {
            let one: BTreeMap<String, Expr> = [(variable.clone(), value.clone())].into();
            for v in map.values_mut() {
                *v = v.subs(&one).simplify();
            }
            map.insert(variable.clone(), value.subs(&map).simplify());
        }
    }
    map
}

/// The derived minus the expected value of one entry about the constraint algorithm. A
/// constraint of a step holds when it vanishes on the constraint set through that step and not
/// on the set before it.
fn singular_difference(
    d: &SingularDerivation,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Expr> {
    use crate::singular::StepKind;
    let system = &d.system;
    let a = &d.algorithm;
    let expected = system.scope.convert(&entry.value, value_scope(block))?;
    match quantity(system, block, entry)? {
        Quantity::AlgorithmLevel => Ok((Expr::int(a.level as i64) - expected).simplify()),
        Quantity::AlgorithmConstraint(level) => {
            let wanted = |s: &crate::singular::Step| match level {
                Some(k) => s.kind == StepKind::Consistency(k),
                None => s.kind == StepKind::Sode,
            };
            let Some(first) = a.steps.iter().position(wanted) else {
                // No such step: the constraint is what differs.
                return Ok(expected);
            };
            let last = a.steps.iter().rposition(wanted).expect("found above") + 1;
            let after = expected.subs(&solved_through(&a.steps, last)).simplify();
            if !after.vanishes() {
                return Ok(after);
            }
            let before = expected.subs(&solved_through(&a.steps, first)).simplify();
            Ok(if before.vanishes() {
                expected
            } else {
                Expr::zero()
            })
        }
        Quantity::SingularRate(name) => {
            let k = a.state.iter().position(|s| *s == name).ok_or_else(|| {
                bad_key(
                    key_span(entry),
                    format!(
                        "`{}` is fixed by the constraints: it is not a variable of the final set",
                        system.spec_name(&name)
                    ),
                    "a coordinate or velocity that remains",
                )
            })?;
            Ok((a.rates[k].clone() - expected.subs(&a.solved)).simplify())
        }
        _ => unreachable!("singular kinds only (checked above)"),
    }
}

fn known_kind(block: &ExpectBlock) -> syntax::Result<()> {
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

/// Checks every `expect` block of the derivation's system.
pub fn check(d: &Derivation) -> syntax::Result<Vec<Outcome>> {
    let surface = Surface::new(&d.system);
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for block in &d.system.expects {
        if let Err(e) = known_kind(block) {
            errors.extend(e);
            continue;
        }
        for entry in &block.entries {
            match check_entry(d, &surface, block, entry) {
                Ok(verdict) => outcomes.push(Outcome {
                    kind: block.kind.name.clone(),
                    key: entry_label(entry),
                    span: entry.span,
                    verdict,
                }),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(outcomes)
    } else {
        Err(errors)
    }
}

fn entry_label(entry: &ExpectEntry) -> String {
    match &entry.key {
        Some(key) => key.to_string(),
        None => entry.value.to_string(),
    }
}

fn bad_key(span: Span, message: impl Into<String>, expected: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error("E0402", message, span, "this key")
        .with_help(format!("expected {expected}"))]
}

fn key_span(entry: &ExpectEntry) -> Span {
    match &entry.key {
        Some(Key::Single(e)) => e.span,
        Some(Key::Tuple(_, span)) => *span,
        None => entry.span,
    }
}

fn single_key<'a>(entry: &'a ExpectEntry, expected: &str) -> syntax::Result<&'a Ast> {
    match &entry.key {
        Some(Key::Single(e)) => Ok(e),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a single key",
            expected,
        )),
    }
}

fn pair_key<'a>(entry: &'a ExpectEntry, expected: &str) -> syntax::Result<(&'a Ast, &'a Ast)> {
    match &entry.key {
        Some(Key::Tuple(items, _)) if items.len() == 2 => Ok((&items[0], &items[1])),
        _ => Err(bad_key(
            key_span(entry),
            "this entry needs a key `(a, b)`",
            expected,
        )),
    }
}

/// The Hamiltonian side of `d`, or E0404 at `span` saying why there is none.
fn hamiltonian(d: &Derivation, span: Span) -> syntax::Result<&Hamiltonian> {
    d.hamiltonian.as_ref().map_err(|why| {
        vec![Diagnostic::error(
            "E0404",
            "the Hamiltonian side of this system is not available",
            span,
            "this expectation is about the Hamiltonian side",
        )
        .with_note(why.to_string())]
    })
}

/// The Dirac side of `d` as `block` needs it (`frame_bracket` needs the frame only), or E0404.
fn dirac_side<'a>(d: &'a Derivation, block: &ExpectBlock) -> syntax::Result<Option<&'a Dirac>> {
    let unavailable = |why: String| {
        vec![Diagnostic::error(
            "E0404",
            "the Dirac side of this system is not available",
            block.kind.span,
            "this expectation is about the Dirac side",
        )
        .with_note(why)]
    };
    if block.kind.name.starts_with("projected_")
        || block.kind.name.starts_with("induced_")
        || ["noether", "curvature", "section_jacobiator"].contains(&block.kind.name.as_str())
    {
        return d
            .projected
            .as_ref()
            .map(|_| None)
            .map_err(|why| unavailable(format!("the projected structure on D: {why}")));
    }
    if block.kind.name == "frame_bracket" {
        return crate::dirac::structure(&d.system)
            .map(|_| None)
            .map_err(|why| unavailable(why.to_string()));
    }
    d.dirac
        .as_ref()
        .map(Some)
        .map_err(|why| unavailable(why.to_string()))
}

/// The difference between the derived and the expected value of a Dirac-side quantity, on `S`.
fn frame_difference(d: &Derivation, q: &Quantity, expected: &Expr) -> syntax::Result<Expr> {
    let system = &d.system;
    let structure = crate::dirac::structure(system).map_err(|why| {
        vec![Diagnostic::error(
            "E0404",
            "the Dirac side of this system is not available",
            Span::new(0, 0),
            "",
        )
        .with_note(why.to_string())]
    })?;
    let n = system.rank();
    let momenta = &system.algebroid.momenta;
    // Frame momenta in algebroid momenta (η = T p), and back (p = T⁻¹ η).
    let to_p: BTreeMap<String, Expr> = (0..n)
        .map(|a| {
            let value = (0..n).fold(Expr::zero(), |acc, b| {
                acc + structure.frame[a][b].clone() * Expr::symbol(&momenta[b])
            });
            (structure.momenta[a].clone(), value)
        })
        .collect();
    let to_eta: BTreeMap<String, Expr> = (0..n)
        .map(|b| {
            let value = (0..n).fold(Expr::zero(), |acc, a| {
                acc + structure.inverse[b][a].clone() * Expr::symbol(&structure.momenta[a])
            });
            (momenta[b].clone(), value)
        })
        .collect();
    if let Quantity::FrameBracket(f, g) = q {
        let phase = Phase::new(system, Expr::zero(), vec![Expr::zero(); n]);
        let derived = phase.poisson(&f.subs(&to_p), &g.subs(&to_p));
        let difference = (derived - expected.subs(&to_p)).simplify();
        return Ok(difference.subs(&to_eta).simplify());
    }
    if let (Ok(projected), Quantity::Curvature(..) | Quantity::SectionJacobiator(..)) =
        (&d.projected, q)
    {
        return Ok(lie_difference(projected, q, expected, &to_p, &to_eta));
    }
    if let Some(projected) = d.projected.as_ref().ok().filter(|_| {
        matches!(
            q,
            Quantity::ProjectedBracket(..) | Quantity::ProjectedJacobiator(..)
        )
    }) {
        let dependent = d
            .dirac
            .as_ref()
            .map(|x| x.dependent.clone())
            .unwrap_or_default();
        let eta = |e: &Expr| e.subs(&to_eta).subs(&dependent);
        let derived = match q {
            Quantity::ProjectedBracket(f, g) => projected.bracket(system, &eta(f), &eta(g)),
            Quantity::ProjectedJacobiator(f, g, h) => {
                projected.jacobiator(system, &eta(f), &eta(g), &eta(h))
            }
            _ => unreachable!("a projected quantity"),
        };
        return Ok((derived - eta(expected)).subs(&dependent).simplify());
    }
    let dirac = d.dirac.as_ref().expect("checked by validate_derived");
    let eta = |e: &Expr| e.subs(&to_eta).subs(&dirac.dependent);
    let derived = match q {
        Quantity::DiracHamiltonian => {
            return Ok((dirac.hamiltonian.clone() - expected.subs(&to_eta)).simplify())
        }
        Quantity::DiracDependent(a) => dirac.dependent[&structure.momenta[*a]].clone(),
        Quantity::DiracRate(name) => match dirac.coordinates.iter().position(|c| c == name) {
            Some(k) => dirac.rates[k].clone(),
            None => {
                let a = structure.momenta.iter().position(|m| m == name);
                let k = structure.complement.iter().position(|&c| Some(c) == a);
                dirac.tangency[k.expect("keys are checked by `quantity`")].clone()
            }
        },
        Quantity::DiracBracket(f, g) => dirac.bracket(system, &eta(f), &eta(g)),
        Quantity::DiracJacobiator(f, g, h) => dirac.jacobiator(system, &eta(f), &eta(g), &eta(h)),
        _ => unreachable!("not a Dirac-side quantity"),
    };
    Ok((derived - eta(expected)).subs(&dirac.dependent).simplify())
}

/// The difference between the derived and the expected curvature (compared as functions of the
/// algebroid momenta, `⟨p, K⟩`) or section Jacobiator (as functions of the momenta of `D`).
fn lie_difference(
    projected: &crate::projected::Projected,
    q: &Quantity,
    expected: &Expr,
    to_p: &BTreeMap<String, Expr>,
    to_eta: &BTreeMap<String, Expr>,
) -> Expr {
    let lie = &projected.lie;
    match *q {
        Quantity::Curvature(a, b) => {
            let (sign, a, b) = if a < b { (1, a, b) } else { (-1, b, a) };
            let (_, _, k) = lie
                .curvature
                .iter()
                .find(|(x, y, _)| (*x, *y) == (a, b))
                .expect("keys are distinct sections of D");
            let momenta = &projected.algebroid_momenta;
            let derived = k.iter().zip(momenta).fold(Expr::zero(), |acc, (c, p)| {
                acc + c.clone() * Expr::symbol(p)
            });
            (derived * Expr::rational(sign, 1) - expected.subs(to_p)).simplify()
        }
        Quantity::SectionJacobiator(a, b, c) => {
            let (sign, sorted) = sort_triple(a, b, c);
            let (_, _, _, j) = lie
                .jacobiator
                .iter()
                .find(|(x, y, z, _)| [*x, *y, *z] == sorted)
                .expect("keys are distinct sections of D");
            let derived = j
                .iter()
                .zip(&projected.momenta)
                .fold(Expr::zero(), |acc, (c, xi)| {
                    acc + c.clone() * Expr::symbol(xi)
                });
            (derived * Expr::rational(sign, 1) - expected.subs(to_eta)).simplify()
        }
        _ => unreachable!("a quantity of the Lie report"),
    }
}

/// A triple of distinct indices sorted, with the sign of the permutation.
fn sort_triple(a: usize, b: usize, c: usize) -> (i64, [usize; 3]) {
    let mut v = [a, b, c];
    let mut sign = 1;
    for i in 0..3 {
        for j in 0..2 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
                sign = -sign;
            }
        }
    }
    (sign, v)
}

fn check_entry(
    d: &Derivation,
    surface: &Surface,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Verdict> {
    let expected = d.system.scope.convert(&entry.value, value_scope(block))?;
    // A first integral holds when its derivative along the dynamics vanishes; every other kind
    // compares a derived quantity with the expected value.
    let q = quantity(&d.system, block, entry)?;
    let difference = if let Quantity::NoetherIntegral(k) = q {
        dirac_side(d, block)?;
        let projected = d.projected.as_ref().expect("checked");
        let test = &projected.noether[k];
        if test.holds {
            (test.integral.clone() - expected.subs(&projected.induced.on_d)).simplify()
        } else {
            // Not a symmetry: the defect S (Killing + potential + gauge parts) is what differs.
            (test.killing.clone() + test.potential.clone() + test.gauge.clone()).simplify()
        }
    } else if matches!(q, Quantity::InducedLagrangian | Quantity::InducedRate(_)) {
        dirac_side(d, block)?;
        let induced = &d.projected.as_ref().expect("checked").induced;
        let derived = match &q {
            Quantity::InducedLagrangian => induced.lagrangian.clone(),
            Quantity::InducedRate(name) => {
                let k = induced.state.iter().position(|s| s == name);
                induced.rates[k.expect("keys are checked by `quantity`")].clone()
            }
            _ => unreachable!("an induced quantity"),
        };
        (derived - expected.subs(&induced.on_d)).simplify()
    } else if q.on_frame() {
        dirac_side(d, block)?;
        frame_difference(d, &q, &expected)?
    } else if q.on_dual() {
        let h = hamiltonian(d, entry.span)?;
        h.restrict(&(dual_value(d, h, &q) - expected))
    } else {
        let difference = match q {
            Quantity::FirstIntegral => derivative_along(&d.system, d.fibre_rhs(), &expected),
            q => value(d, q) - expected,
        };
        surface.restrict(&difference)
    };
    Ok(if difference.vanishes() {
        Verdict::Holds
    } else {
        Verdict::Differs(difference)
    })
}

/// The derived value of a quantity (never a first integral, whose entry holds its own value).
fn value(d: &Derivation, q: Quantity) -> Expr {
    let nh = || {
        d.nonholonomic
            .as_ref()
            .expect("keys that need constraints were refused by `quantity`")
    };
    match q {
        Quantity::Rate { state, free } => {
            let coordinates = d.system.coordinates.len();
            if free && state >= coordinates {
                d.free_rhs[state - coordinates].clone()
            } else {
                d.equations[state].rhs.clone()
            }
        }
        Quantity::Multiplier(a) => d.multipliers()[a].clone(),
        Quantity::Energy => d.lagrangian.energy.clone(),
        Quantity::EnergyRate => d.energy_rate.clone(),
        Quantity::Hessian(a, b) => d.lagrangian.hessian[a][b].clone(),
        Quantity::ConstraintMatrix(a, b) => nh().matrix[a][b].clone(),
        Quantity::Theta(i) => d.lagrangian.theta[i].clone(),
        Quantity::Omega(i, j) => d.lagrangian.omega[i][j].clone(),
        Quantity::Dpsi(a, i) => nh().dpsi[a][i].clone(),
        Quantity::Projector(i, j) => nh().projector[i][j].clone(),
        Quantity::Legendre(a) => d.lagrangian.momenta[a].clone(),
        Quantity::FirstIntegral => unreachable!("a first integral is its entry's own value"),
        _ => unreachable!("quantities on the dual are read by `dual_value`"),
    }
}

/// The derived value of a quantity on the dual.
fn dual_value(d: &Derivation, h: &Hamiltonian, q: &Quantity) -> Expr {
    let system = &d.system;
    let constrained = || {
        h.constrained
            .as_ref()
            .expect("keys that need constraints were refused by `quantity`")
    };
    match q {
        Quantity::Hamiltonian => h.hamiltonian.clone(),
        Quantity::PhaseRate(k) => {
            let state = crate::hamiltonian::phase_state(system);
            h.dynamics(system, &Expr::symbol(&state[*k]))
        }
        Quantity::DualConstraint(a) => constrained().psi[*a].clone(),
        Quantity::DualConstraintMatrix(a, b) => constrained().matrix[*a][*b].clone(),
        Quantity::DualMultiplier(a) => constrained().multipliers[*a].clone(),
        Quantity::Bracket(f, g) => h.bracket(system, f, g),
        Quantity::Jacobiator(f, g, k) => h.jacobiator(system, f, g, k),
        _ => unreachable!("not a quantity on the dual"),
    }
}

/// What the entry refers to, or E0402/E0403 when its key names nothing of this system.
fn quantity(system: &System, block: &ExpectBlock, entry: &ExpectEntry) -> syntax::Result<Quantity> {
    let kind = block.kind.name.as_str();
    let constrained = || {
        if system.constraints.is_empty() {
            Err(vec![Diagnostic::error(
                "E0403",
                format!("`expect {kind}` needs constraints, and this system has none"),
                entry.span,
                "nothing to compare with",
            )])
        } else {
            Ok(())
        }
    };
    if VAKONOMIC_KINDS.contains(&kind) == system.vakonomic.is_empty() {
        let (message, note) = if system.vakonomic.is_empty() {
            (
                format!("`expect {kind}` needs vakonomic constraints, and this system has none"),
                "declare them with `constraints vakonomic { … }`",
            )
        } else {
            (
                format!("`expect {kind}` is about nonholonomic dynamics, and this system is vakonomic"),
                "a vakonomic system has the kinds vakonomic_equations, vakonomic_hamiltonian, vakonomic_hamilton_equations, vakonomic_bracket",
            )
        };
        return Err(vec![Diagnostic::error(
            "E0403",
            message,
            block.kind.span,
            "nothing to compare with",
        )
        .with_note(note)]);
    }
    if CONTACT_KINDS.contains(&kind) != system.action.is_some() {
        let message = if system.action.is_some() {
            format!("`expect {kind}` is not about a contact system, and this one is")
        } else {
            format!("`expect {kind}` needs a contact system (`action z`), and this one is not")
        };
        return Err(vec![Diagnostic::error("E0403", message, block.kind.span, "nothing to compare with")
            .with_note("a contact system has the kinds contact_equations, contact_multipliers, contact_energy, contact_projector, contact_bracket, contact_jacobiator")]);
    }
    match kind {
        "contact_equations" => {
            let key = single_key(entry, "`q' = …`, `q'' = …` or `z' = …`")?;
            let name = contact_rate_key(system, key).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a velocity or the action"),
                    "`q' = …`, `q'' = …` or `z' = …`",
                )
            })?;
            Ok(Quantity::ContactRate(name))
        }
        "contact_multipliers" => {
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::ContactMultiplier(multiplier_index(system, key)?))
        }
        "contact_energy" => named_key(entry, "E", "the energy E_L", Quantity::ContactEnergy),
        "contact_projector" => {
            let (a, b) = pair_key(entry, "`(X, Y)` with coordinates of TQ × ℝ (q, q', z)")?;
            let coordinate = |e: &Ast| -> syntax::Result<String> {
                let converted = system.scope.convert(e, ScopeKind::Observable)?;
                match converted.view() {
                    cas::View::Symbol(s) => Ok(s),
                    _ => Err(bad_key(
                        e.span,
                        format!("`{e}` is not a coordinate of TQ × ℝ"),
                        "q, q' or z",
                    )),
                }
            };
            Ok(Quantity::ContactProjector(coordinate(a)?, coordinate(b)?))
        }
        "contact_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Observable)?;
            Ok(Quantity::ContactBracket(f, g))
        }
        "contact_jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Observable)?;
            Ok(Quantity::ContactJacobiator(f, g, h))
        }
        "contact_hamiltonian" => {
            named_key(entry, "H", "the Hamiltonian", Quantity::ContactHamiltonian)
        }
        "contact_hamilton_equations" => {
            let key = single_key(entry, "`q' = …`, `p' = …` or `z' = …`")?;
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || system.algebroid.momenta.contains(&name.name)
                    || system.action.as_ref() == Some(&name.name) =>
                {
                    Some(name.name.clone())
                }
                _ => None,
            };
            found.map(Quantity::ContactHamiltonRate).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a momentum or the action"),
                    "`q' = …`, `p' = …` or `z' = …`",
                )
            })
        }
        "constraint_algorithm" => {
            let key = single_key(
                entry,
                "`primary`, `secondary`, `tertiary`, `levelN`, `sode` or `level`",
            )?;
            let name = match &key.kind {
                ExprKind::Name(n) => n.as_str(),
                _ => "",
            };
            let level = match name {
                "primary" => Some(1),
                "secondary" => Some(2),
                "tertiary" => Some(3),
                _ => name
                    .strip_prefix("level")
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|k| *k > 0),
            };
            match (name, level) {
                ("level", _) => Ok(Quantity::AlgorithmLevel),
                ("sode", _) => Ok(Quantity::AlgorithmConstraint(None)),
                (_, Some(k)) => Ok(Quantity::AlgorithmConstraint(Some(k))),
                _ => Err(bad_key(
                    key.span,
                    format!("`{key}` is not a step of the constraint algorithm"),
                    "`primary = φ`, `secondary = φ`, `tertiary = φ`, `levelN = φ`, `sode = φ` or `level = N`",
                )),
            }
        }
        "singular_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a velocity")?;
            let name = rate_key(system, key, true)
                .filter(|n| !system.algebroid.momenta.contains(n))
                .ok_or_else(|| {
                    bad_key(
                        key.span,
                        format!("`{key}` is not the rate of a coordinate or a velocity"),
                        "`x' = …` or `y1' = …` (under `algebroid tangent`, `x'' = …`)",
                    )
                })?;
            Ok(Quantity::SingularRate(name))
        }
        "vakonomic_equations" => {
            let key = single_key(
                entry,
                "`v' = …` for a coordinate, a free velocity or a multiplier",
            )?;
            let name = rate_key(system, key, true).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate, a velocity or a momentum"),
                    "`x' = …`, `y1' = …` (under `algebroid tangent`, `x'' = …`) or `p3' = …`",
                )
            })?;
            Ok(Quantity::VakonomicRate(name))
        }
        "vakonomic_hamiltonian" => named_key(
            entry,
            "H",
            "the Hamiltonian H_W1",
            Quantity::VakonomicHamiltonian,
        ),
        "vakonomic_hamilton_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum")?;
            let name = rate_key(system, key, false).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a momentum"),
                    "`x' = …` or `p1' = …`",
                )
            })?;
            Ok(Quantity::VakonomicHamiltonRate(name))
        }
        "vakonomic_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::VakonomicBracket(f, g))
        }
        "first_integrals" => match entry.key {
            Some(_) => Err(bad_key(
                key_span(entry),
                "first integrals are listed without keys",
                "one expression per line",
            )),
            None => Ok(Quantity::FirstIntegral),
        },
        "equations" | "free_equations" => {
            let key = single_key(entry, "`v' = …` for a state variable v")?;
            Ok(Quantity::Rate {
                state: state_index(system, key)?,
                free: kind == "free_equations",
            })
        }
        "multipliers" => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::Multiplier(multiplier_index(system, key)?))
        }
        "energy" => {
            let key = single_key(entry, "`E`")?;
            match &key.kind {
                ExprKind::Name(e) if e == "E" => Ok(Quantity::Energy),
                _ => Err(bad_key(key.span, "the energy is written `E`", "`E = …`")),
            }
        }
        "energy_rate" => {
            let key = single_key(entry, "`E'`")?;
            match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if name.name == "E" => Ok(Quantity::EnergyRate),
                _ => Err(bad_key(
                    key.span,
                    "the energy rate is written `E'`",
                    "`E' = …`",
                )),
            }
        }
        "hessian" => {
            let (a, b) = pair_key(entry, "`(a, b)` with section names")?;
            Ok(Quantity::Hessian(
                section_index(system, a)?,
                section_index(system, b)?,
            ))
        }
        "constraint_matrix" => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Quantity::ConstraintMatrix(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        "theta" => {
            let key = single_key(entry, "`e0` or a section name")?;
            if matches!(&key.kind, ExprKind::Name(e) if e == "e0") {
                return Ok(Quantity::Theta(0));
            }
            Ok(Quantity::Theta(1 + section_index(system, key)?))
        }
        "omega" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            Ok(Quantity::Omega(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        "dpsi" => {
            let (a, x) = pair_key(
                entry,
                "`(a, X)` with a constraint number and X among T(e0), T(e), V(e)",
            )?;
            constrained()?;
            Ok(Quantity::Dpsi(
                constraint_index(system, a)?,
                basis_index(system, x)?,
            ))
        }
        "projector" => {
            let (x, y) = pair_key(entry, "`(X, Y)` with X, Y among T(e0), T(e), V(e)")?;
            constrained()?;
            Ok(Quantity::Projector(
                basis_index(system, x)?,
                basis_index(system, y)?,
            ))
        }
        "hamiltonian" => named_key(entry, "H", "the Hamiltonian", Quantity::Hamiltonian),
        "legendre" => {
            let key = single_key(entry, "a momentum name")?;
            Ok(Quantity::Legendre(momentum_index(system, key)?))
        }
        "hamilton_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a momentum v")?;
            Ok(Quantity::PhaseRate(phase_index(system, key)?))
        }
        "dual_constraints" => {
            constrained()?;
            let key = single_key(entry, "a constraint number")?;
            Ok(Quantity::DualConstraint(constraint_index(system, key)?))
        }
        "dual_constraint_matrix" => {
            let (a, b) = pair_key(entry, "`(a, b)` with constraint numbers")?;
            constrained()?;
            Ok(Quantity::DualConstraintMatrix(
                constraint_index(system, a)?,
                constraint_index(system, b)?,
            ))
        }
        "dual_multipliers" => {
            constrained()?;
            let key = single_key(entry, "`lambdaN`")?;
            Ok(Quantity::DualMultiplier(multiplier_index(system, key)?))
        }
        "bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::Bracket(f, g))
        }
        "jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Phase)?;
            Ok(Quantity::Jacobiator(f, g, h))
        }
        "frame_bracket" | "dirac_bracket" | "projected_bracket" => {
            let (f, g) = bracket_key(system, entry, ScopeKind::Frame)?;
            Ok(match kind {
                "frame_bracket" => Quantity::FrameBracket(f, g),
                "dirac_bracket" => Quantity::DiracBracket(f, g),
                _ => Quantity::ProjectedBracket(f, g),
            })
        }
        "dirac_jacobiator" | "projected_jacobiator" => {
            let (f, g, h) = jacobiator_key(system, entry, ScopeKind::Frame)?;
            Ok(if kind == "dirac_jacobiator" {
                Quantity::DiracJacobiator(f, g, h)
            } else {
                Quantity::ProjectedJacobiator(f, g, h)
            })
        }
        "dirac_hamiltonian" => named_key(entry, "H", "the Hamiltonian", Quantity::DiracHamiltonian),
        "dirac_constraints" => {
            let key = single_key(entry, "a dependent frame momentum")?;
            let (frame, dependent) = frame_names(system, key)?;
            let found = match &key.kind {
                ExprKind::Name(name) => frame.momenta.iter().position(|m| m == name),
                _ => None,
            }
            .filter(|a| dependent.contains(a));
            let names: Vec<&str> = dependent
                .iter()
                .map(|&a| frame.momenta[a].as_str())
                .collect();
            found.map(Quantity::DiracDependent).ok_or_else(|| {
                bad_key(
                    key.span,
                    format!("`{key}` is not a dependent momentum of the frame (one of a section completing C)"),
                    &names.join(", "),
                )
            })
        }
        "dirac_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a frame momentum v")?;
            let (frame, _) = frame_names(system, key)?;
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || frame.momenta.contains(&name.name) =>
                {
                    Some(name.name.clone())
                }
                _ => None,
            };
            found.map(Quantity::DiracRate).ok_or_else(|| {
                let names: Vec<String> = system
                    .coordinates
                    .iter()
                    .chain(&frame.momenta)
                    .map(|s| format!("{s}'"))
                    .collect();
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a frame momentum"),
                    &names.join(", "),
                )
            })
        }
        "noether" => {
            let key = single_key(entry, "the name of a `symmetry`")?;
            let found = match &key.kind {
                ExprKind::Name(n) => system.symmetries.iter().position(|s| s.name == *n),
                _ => None,
            };
            found.map(Quantity::NoetherIntegral).ok_or_else(|| {
                let names: Vec<&str> = system.symmetries.iter().map(|s| s.name.as_str()).collect();
                bad_key(
                    key.span,
                    format!("`{key}` is not a declared symmetry"),
                    &if names.is_empty() {
                        "a `symmetry NAME { … }` item first".to_string()
                    } else {
                        names.join(", ")
                    },
                )
            })
        }
        "curvature" => {
            let key = single_key(entry, "`K(a, b)` with frame momenta of sections of D")?;
            let args = call_key(key, "K", 2, "`K(a, b) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            distinct(key, &[a, b])?;
            Ok(Quantity::Curvature(a, b))
        }
        "section_jacobiator" => {
            let key = single_key(entry, "`J(a, b, c)` with frame momenta of sections of D")?;
            let args = call_key(key, "J", 3, "`J(a, b, c) = …`")?;
            let a = section_of_d(system, &args[0])?;
            let b = section_of_d(system, &args[1])?;
            let c = section_of_d(system, &args[2])?;
            distinct(key, &[a, b, c])?;
            Ok(Quantity::SectionJacobiator(a, b, c))
        }
        "induced_lagrangian" => named_key(
            entry,
            "l",
            "the restricted Lagrangian",
            Quantity::InducedLagrangian,
        ),
        "induced_equations" => {
            let key = single_key(entry, "`v' = …` for a coordinate or a velocity of D")?;
            let (frame, _) = frame_names(system, key)?;
            // Under `algebroid tangent` the velocity of q is q', so its rate is written q''.
            let tangent_velocity = |q: &str| model::names::tangent_velocity(q);
            let found = match &key.kind {
                ExprKind::Primed {
                    name,
                    order: 1,
                    args: None,
                } if system.coordinates.contains(&name.name)
                    || frame.velocities.contains(&name.name) =>
                {
                    Some(name.name.clone())
                }
                ExprKind::Primed {
                    name,
                    order: 2,
                    args: None,
                } if system.scope.tangent
                    && frame.velocities.contains(&tangent_velocity(&name.name)) =>
                {
                    Some(tangent_velocity(&name.name))
                }
                _ => None,
            };
            found.map(Quantity::InducedRate).ok_or_else(|| {
                let names: Vec<String> = system
                    .coordinates
                    .iter()
                    .chain(&frame.velocities)
                    .map(|s| format!("{}'", system.spec_name(s)))
                    .collect();
                bad_key(
                    key.span,
                    format!("`{key}` is not the rate of a coordinate or a velocity of D"),
                    &names.join(", "),
                )
            })
        }
        _ => unreachable!("kind {kind} is checked against KINDS first"),
    }
}

/// An entry whose key is the fixed name `name` (`H = …`, `l = …`).
fn named_key(
    entry: &ExpectEntry,
    name: &str,
    what: &str,
    quantity: Quantity,
) -> syntax::Result<Quantity> {
    let key = single_key(entry, &format!("`{name}`"))?;
    match &key.kind {
        ExprKind::Name(e) if e == name => Ok(quantity),
        _ => Err(bad_key(
            key.span,
            format!("{what} is written `{name}`"),
            &format!("`{name} = …`"),
        )),
    }
}

/// The functions of a `{f, g}` key, read in `scope`.
fn bracket_key(
    system: &System,
    entry: &ExpectEntry,
    scope: ScopeKind,
) -> syntax::Result<(Expr, Expr)> {
    let key = single_key(entry, "`{f, g}`")?;
    let ExprKind::Bracket(f, g) = &key.kind else {
        return Err(bad_key(
            key.span,
            "this entry needs a key `{f, g}`",
            "`{f, g} = …`",
        ));
    };
    Ok((
        system.scope.convert(f, scope)?,
        system.scope.convert(g, scope)?,
    ))
}

/// The functions of a `J(f, g, h)` key, read in `scope`.
fn jacobiator_key(
    system: &System,
    entry: &ExpectEntry,
    scope: ScopeKind,
) -> syntax::Result<(Expr, Expr, Expr)> {
    let key = single_key(entry, "`J(f, g, h)`")?;
    match &key.kind {
        ExprKind::Call { func, args } if func.name == "J" && args.len() == 3 => Ok((
            system.scope.convert(&args[0], scope)?,
            system.scope.convert(&args[1], scope)?,
            system.scope.convert(&args[2], scope)?,
        )),
        _ => Err(bad_key(
            key.span,
            "this entry needs a key `J(f, g, h)`",
            "`J(f, g, h) = …`",
        )),
    }
}

/// The internal name of the variable whose rate a key `v'` names: a coordinate or a momentum,
/// and with `velocities` an algebroid velocity (`q''` for the velocity `q'` under
/// `algebroid tangent`).
fn rate_key(system: &System, key: &Ast, velocities: bool) -> Option<String> {
    let alg = &system.algebroid;
    match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => {
            let n = &name.name;
            let known = system.coordinates.contains(n)
                || alg.momenta.contains(n)
                || (velocities && alg.velocities.contains(n));
            known.then(|| n.clone())
        }
        ExprKind::Primed {
            name,
            order: 2,
            args: None,
        } if velocities && system.scope.tangent => {
            let y = model::names::tangent_velocity(&name.name);
            alg.velocities.contains(&y).then_some(y)
        }
        _ => None,
    }
}

/// The internal name of the coordinate of `TQ × ℝ` whose rate a key names: `q'` (a
/// coordinate), `q''` (its velocity) or `z'` (the action).
fn contact_rate_key(system: &System, key: &Ast) -> Option<String> {
    match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => {
            let n = &name.name;
            (system.coordinates.contains(n) || system.action.as_ref() == Some(n)).then(|| n.clone())
        }
        ExprKind::Primed {
            name,
            order: 2,
            args: None,
        } if system.scope.tangent => {
            let y = model::names::tangent_velocity(&name.name);
            system.algebroid.velocities.contains(&y).then_some(y)
        }
        _ => None,
    }
}

/// Proves every `expect` block of a contact system (seed 004).
pub fn check_contact(d: &ContactDerivation) -> syntax::Result<Vec<Outcome>> {
    prove_each(&d.system, &|_| None, &|block, entry| {
        contact_difference(d, block, entry)
    })
}

/// The derived minus the expected value of one entry about a contact system.
fn contact_difference(
    d: &ContactDerivation,
    block: &ExpectBlock,
    entry: &ExpectEntry,
) -> syntax::Result<Expr> {
    let c = &d.contact;
    let expected = d.system.scope.convert(&entry.value, value_scope(block))?;
    let index = |name: &str| {
        c.coordinates
            .iter()
            .position(|s| s == name)
            .expect("keys name coordinates of TQ × ℝ")
    };
    Ok(match quantity(&d.system, block, entry)? {
        Quantity::ContactRate(name) => c.restrict(&(c.rates[index(&name)].clone() - expected)),
        Quantity::ContactMultiplier(a) => c.restrict(&(c.multipliers[a].clone() - expected)),
        Quantity::ContactEnergy => c.restrict(&(c.energy.clone() - expected)),
        Quantity::ContactProjector(mu, nu) => {
            (c.projector[index(&mu)][index(&nu)].clone() - expected).simplify()
        }
        Quantity::ContactBracket(f, g) => c.restrict(&(c.bracket(&f, &g) - expected)),
        Quantity::ContactJacobiator(f, g, h) => c.jacobiator(&f, &g, &h) - c.restrict(&expected),
        Quantity::ContactHamiltonian | Quantity::ContactHamiltonRate(_) => {
            let h = c.hamiltonian.as_ref().ok_or_else(|| {
                vec![Diagnostic::error(
                    "E0404",
                    "the Hamiltonian side of this contact system is not available",
                    block.kind.span,
                    "this expectation is about the Hamiltonian side",
                )
                .with_note("the Lagrangian is not quadratic in the velocities")]
            })?;
            let derived = match quantity(&d.system, block, entry)? {
                Quantity::ContactHamiltonRate(name) => {
                    let k = h.coordinates.iter().position(|s| *s == name);
                    h.rates[k.expect("keys name coordinates of T*Q × ℝ")].clone()
                }
                _ => h.hamiltonian.clone(),
            };
            h.restrict(&(derived - expected))
        }
        _ => unreachable!("a contact system has contact kinds only (`quantity`)"),
    })
}

/// The arguments of a key `name(a, b, …)` with `arity` arguments.
fn call_key<'a>(
    key: &'a Ast,
    name: &str,
    arity: usize,
    expected: &str,
) -> syntax::Result<&'a [Ast]> {
    match &key.kind {
        ExprKind::Call { func, args } if func.name == name && args.len() == arity => Ok(args),
        _ => Err(bad_key(
            key.span,
            format!("this entry needs a key `{name}(…)` with {arity} arguments"),
            expected,
        )),
    }
}

/// The index among the sections of `D` (the frame's sections along `C`, in frame order) of the
/// frame momentum `key`.
fn section_of_d(system: &System, key: &Ast) -> syntax::Result<usize> {
    let (frame, _) = frame_names(system, key)?;
    let found = match &key.kind {
        ExprKind::Name(name) => frame.along.iter().position(|&a| frame.momenta[a] == *name),
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = frame
            .along
            .iter()
            .map(|&a| frame.momenta[a].as_str())
            .collect();
        bad_key(
            key.span,
            format!("`{key}` is not the momentum of a section of D"),
            &names.join(", "),
        )
    })
}

/// E0403 when the sections of a key repeat (the quantity is zero by skew symmetry).
fn distinct(key: &Ast, indices: &[usize]) -> syntax::Result<()> {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() == indices.len() {
        Ok(())
    } else {
        Err(bad_key(
            key.span,
            "the sections of this key repeat (the value is zero by skew symmetry)",
            "distinct sections of D",
        ))
    }
}

/// The frame of the system and the indices of its completing sections, or E0403 at `key` when
/// there is no frame.
fn frame_names<'a>(
    system: &'a System,
    key: &Ast,
) -> syntax::Result<(&'a model::frame::Frame, Vec<usize>)> {
    let frame = system.frame.as_ref().ok_or_else(|| {
        vec![Diagnostic::error(
            "E0403",
            "this system has no frame adapted to its constraints",
            key.span,
            "needs linear constraints",
        )
        .with_note("a frame is declared with `frame { … }` or computed from linear constraints")]
    })?;
    let dependent = (0..system.rank())
        .filter(|a| !frame.along.contains(a))
        .collect();
    Ok((frame, dependent))
}

/// The index in [`System::state`] of the state variable whose derivative the key names.
fn state_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let state = system.state();
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order,
            args: None,
        } => {
            let coordinate = system.coordinates.iter().position(|q| *q == name.name);
            let velocity = system
                .algebroid
                .velocities
                .iter()
                .position(|y| *y == name.name);
            match (coordinate, velocity, order) {
                (Some(i), _, 1) => Some(i),
                (Some(i), _, 2) if system.scope.tangent => Some(system.coordinates.len() + i),
                (None, Some(a), 1) => Some(system.coordinates.len() + a),
                _ => None,
            }
        }
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = state
            .iter()
            .map(|s| format!("{}'", system.spec_name(s)))
            .collect();
        bad_key(
            key.span,
            format!("`{key}` is not the time derivative of a state variable"),
            &names.join(", "),
        )
    })
}

/// The index of the multiplier `lambdaN` the key names.
fn multiplier_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let r = system.constraints.len();
    let a = match &key.kind {
        ExprKind::Name(name) => name
            .strip_prefix("lambda")
            .and_then(|a| a.parse::<usize>().ok()),
        _ => None,
    };
    match a {
        Some(a) if a >= 1 && a <= r => Ok(a - 1),
        _ => Err(bad_key(
            key.span,
            "not a multiplier of this system",
            &format!("lambda1 … lambda{r}"),
        )),
    }
}

/// The index of the momentum the key names.
fn momentum_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let momenta = &system.algebroid.momenta;
    let found = match &key.kind {
        ExprKind::Name(name) => momenta.iter().position(|p| p == name),
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a momentum of this system"),
            &momenta.join(", "),
        )
    })
}

/// The index in [`crate::hamiltonian::phase_state`] of the phase coordinate whose rate the key
/// names (`x'` or `p1'`).
fn phase_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let state = crate::hamiltonian::phase_state(system);
    let found = match &key.kind {
        ExprKind::Primed {
            name,
            order: 1,
            args: None,
        } => state.iter().position(|s| *s == name.name),
        _ => None,
    };
    found.ok_or_else(|| {
        let names: Vec<String> = state.iter().map(|s| format!("{s}'")).collect();
        bad_key(
            key.span,
            format!("`{key}` is not the rate of a coordinate or a momentum"),
            &names.join(", "),
        )
    })
}

fn section_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let alg = &system.algebroid;
    let found = match &key.kind {
        ExprKind::Name(name) => alg.sections.iter().position(|s| s == name),
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a section"),
            &alg.sections.join(", "),
        )
    })
}

fn constraint_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let r = system.constraints.len();
    let found = match &key.kind {
        ExprKind::Number(text) => text.parse::<usize>().ok().filter(|a| *a >= 1 && *a <= r),
        _ => None,
    };
    found.map(|a| a - 1).ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not a constraint number"),
            &format!("1 … {r}"),
        )
    })
}

fn basis_index(system: &System, key: &Ast) -> syntax::Result<usize> {
    let n = system.rank();
    let found = match &key.kind {
        ExprKind::Call { func, args } if args.len() == 1 => {
            let section = match &args[0].kind {
                ExprKind::Name(s) if s == "e0" => Some(None),
                _ => section_index(system, &args[0]).ok().map(Some),
            };
            match (func.name.as_str(), section) {
                ("T", Some(None)) => Some(0),
                ("T", Some(Some(a))) => Some(1 + a),
                ("V", Some(Some(a))) => Some(1 + n + a),
                _ => None,
            }
        }
        _ => None,
    };
    found.ok_or_else(|| {
        bad_key(
            key.span,
            format!("`{key}` is not an element of the basis (T(e0), T(e), V(e))"),
            "T(e0), T(e) or V(e) for a section e",
        )
    })
}
