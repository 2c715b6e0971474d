//! What an `expect` entry refers to: its key, read against its block's kind, resolved to a
//! [`Target`].
//!
//! An entry is resolved in three steps, and the first problem stops it:
//!
//! 1. **The family.** A vakonomic system has only the vakonomic kinds and a contact system only
//!    the contact kinds; any other pairing is E0403 at the kind, with a note listing the kinds
//!    the system has (the vakonomic check comes first).
//! 2. **What the kind needs** ([`Needs`]): constraints, for the kinds that compare with them
//!    (E0403 at the entry when the system has none). A single key is read after this check; a
//!    pair is read before it, so a key of the wrong shape is reported as such first.
//! 3. **The key** ([`Key`]): its shape, then what it names, each with E0402 at the key (with
//!    `expected …` as help) when the shape is wrong or the key names nothing. The keys naming
//!    frame momenta or sections of `D` also need the frame, which their readers look up at the
//!    key (E0403 there when there is none).
//!
//! The table [`row`] gives the last two steps for each kind:
//!
//! | kinds | needs | key | target |
//! |---|---|---|---|
//! | `equations`, `free_equations` | | `v'`, a state variable | `Index` of the state |
//! | `multipliers`, `dual_multipliers` | constraints | `lambdaN` | `Index` of the multiplier |
//! | `contact_multipliers` | | `lambdaN` | `Index` of the multiplier |
//! | `energy`, `contact_energy` | | `E` | `Whole` |
//! | `energy_rate` | | `E'` | `Whole` |
//! | `first_integrals` | | none | `Whole` |
//! | `hessian` | | `(a, b)`, sections | `Pair` |
//! | `constraint_matrix`, `dual_constraint_matrix` | constraints | `(a, b)`, constraint numbers | `Pair` |
//! | `theta` | | `e0` or a section | `Index`: 0, or `1 + α` |
//! | `omega` | | `(X, Y)`, basis elements | `Pair` |
//! | `dpsi` | constraints | `(a, X)`, a constraint number and a basis element | `Pair` |
//! | `projector` | constraints | `(X, Y)`, basis elements | `Pair` |
//! | `hamiltonian`, `dirac_hamiltonian`, `contact_hamiltonian`, `vakonomic_hamiltonian` | | `H` | `Whole` |
//! | `legendre` | | a momentum | `Index` of the momentum |
//! | `hamilton_equations` | | `v'`, a coordinate or a momentum | `Index` of the phase coordinate |
//! | `dual_constraints` | constraints | a constraint number | `Index` of the constraint |
//! | `bracket`, `vakonomic_bracket` | | `{f, g}` in the phase names | `Bracket` |
//! | `jacobiator` | | `J(f, g, h)` in the phase names | `Jacobiator` |
//! | `frame_bracket`, `dirac_bracket`, `projected_bracket` | | `{f, g}` in the frame names | `Bracket` |
//! | `dirac_jacobiator`, `projected_jacobiator` | | `J(f, g, h)` in the frame names | `Jacobiator` |
//! | `dirac_constraints` | (frame) | a dependent frame momentum | `Index` of the frame momentum |
//! | `dirac_equations` | (frame) | `v'`, a coordinate or a frame momentum | `Rate` |
//! | `induced_lagrangian` | | `l` | `Whole` |
//! | `induced_equations` | (frame) | `v'`, a coordinate or a velocity of `D` | `Rate` |
//! | `noether` | | a declared symmetry | `Index` of the symmetry |
//! | `curvature` | (frame) | `K(a, b)`, distinct sections of `D` | `Pair` |
//! | `section_jacobiator` | (frame) | `J(a, b, c)`, distinct sections of `D` | `Triple` |
//! | `vakonomic_equations` | | `v'`, a coordinate, a velocity or a momentum | `Rate` |
//! | `vakonomic_hamilton_equations` | | `v'`, a coordinate or a momentum | `Rate` |
//! | `constraint_algorithm` | | `primary` … `levelN`, `sode`, `level` | `Step`, `Level` |
//! | `singular_equations` | | `v'`, a coordinate or a velocity | `Rate` |
//! | `contact_equations` | | `q'`, `q''` or `z'` | `Rate` |
//! | `contact_projector` | | `(X, Y)`, coordinates of `TQ × ℝ` | `Coordinates` |
//! | `contact_bracket` | | `{f, g}` in the observable names | `Bracket` |
//! | `contact_jacobiator` | | `J(f, g, h)` in the observable names | `Jacobiator` |
//! | `contact_hamilton_equations` | | `q'`, `p'` or `z'` | `Rate` |
//!
//! The readers shared by many kinds are in [`super::keys`], those of one kind in
//! [`super::kind_keys`].

use diagnostic::Code;
use diagnostic::{Diagnostic, Result, Span};
use syntax::ast::{ExpectEntry, Expr as Ast, ExprKind};

use crate::scope::ScopeKind;
use crate::system::System;

use super::keys::*;
use super::kind_keys::*;
use crate::expectation::{Family, Kind, Target};

/// The note of E0403 for a non-contact kind on a contact system, or the other way round.
const CONTACT_KINDS: &str = "a contact system has the kinds contact_equations, contact_multipliers, contact_energy, contact_projector, contact_hamiltonian, contact_hamilton_equations, contact_bracket, contact_jacobiator";

/// What a kind needs of the system before its key can name anything.
#[derive(Clone, Copy)]
enum Needs {
    /// Nothing beyond its family.
    Nothing,
    /// At least one constraint.
    Constraints,
}

/// A reader of a key naming one index.
type IndexOf = fn(&System, &Ast) -> Result<usize>;

/// A reader of a key `v'`: the internal name of `v`.
type RateOf = fn(&System, &Ast) -> Result<String>;

/// The shape of a kind's key, with the help shown when an entry's key is not of that shape
/// (`expected …`) and the readers of its parts.
#[derive(Clone, Copy)]
enum Key {
    /// No key: the value is the quantity ([`Target::Whole`]).
    Without,
    /// A fixed name (`E`, `H`, `l`) and what it names ([`Target::Whole`]).
    Name(&'static str, &'static str),
    /// The rate of a fixed name (`E'`) and what it names ([`Target::Whole`]).
    NameRate(&'static str, &'static str),
    /// A single key naming one index ([`Target::Index`]).
    Index(&'static str, IndexOf),
    /// A single key `v'` naming a variable by its rate ([`Target::Rate`]).
    Rate(&'static str, RateOf),
    /// A pair `(a, b)` naming two indices ([`Target::Pair`]).
    Pair(&'static str, IndexOf, IndexOf),
    /// A pair `(X, Y)` of coordinates of `TQ × ℝ` ([`Target::Coordinates`]).
    Coordinates(&'static str),
    /// `{f, g}` with functions read in a scope ([`Target::Bracket`]).
    Bracket(ScopeKind),
    /// `J(f, g, h)` with functions read in a scope ([`Target::Jacobiator`]).
    Jacobiator(ScopeKind),
    /// `K(a, b)` with two distinct sections of `D` ([`Target::Pair`]).
    SectionPair(&'static str),
    /// `J(a, b, c)` with three distinct sections of `D` ([`Target::Triple`]).
    SectionTriple(&'static str),
    /// A step of the constraint algorithm ([`Target::Step`]) or its level ([`Target::Level`]).
    Step(&'static str),
}

/// The table: what each kind needs of the system, and the shape of its key.
fn row(kind: Kind) -> (Needs, Key) {
    use Key::*;
    use Needs::*;
    const BASIS_PAIR: &str = "`(X, Y)` with X, Y among T(e0), T(e), V(e)";
    const CONSTRAINT_PAIR: &str = "`(a, b)` with constraint numbers";
    match kind {
        Kind::Equations | Kind::FreeEquations => (
            Nothing,
            Index("`v' = …` for a state variable v", state_index),
        ),
        Kind::Multipliers | Kind::DualMultipliers => {
            (Constraints, Index("`lambdaN`", multiplier_index))
        }
        Kind::ContactMultipliers => (Nothing, Index("`lambdaN`", multiplier_index)),
        Kind::Energy => (Nothing, Name("E", "the energy")),
        Kind::ContactEnergy => (Nothing, Name("E", "the energy E_L")),
        Kind::EnergyRate => (Nothing, NameRate("E", "the energy rate")),
        Kind::FirstIntegrals => (Nothing, Without),
        Kind::Hessian => (
            Nothing,
            Pair("`(a, b)` with section names", section_index, section_index),
        ),
        Kind::ConstraintMatrix | Kind::DualConstraintMatrix => (
            Constraints,
            Pair(CONSTRAINT_PAIR, constraint_index, constraint_index),
        ),
        Kind::Theta => (Nothing, Index("`e0` or a section name", theta_index)),
        Kind::Omega => (Nothing, Pair(BASIS_PAIR, basis_index, basis_index)),
        Kind::Dpsi => (
            Constraints,
            Pair(
                "`(a, X)` with a constraint number and X among T(e0), T(e), V(e)",
                constraint_index,
                basis_index,
            ),
        ),
        Kind::Projector => (Constraints, Pair(BASIS_PAIR, basis_index, basis_index)),
        Kind::Hamiltonian | Kind::DiracHamiltonian | Kind::ContactHamiltonian => {
            (Nothing, Name("H", "the Hamiltonian"))
        }
        Kind::VakonomicHamiltonian => (Nothing, Name("H", "the Hamiltonian H_W1")),
        Kind::Legendre => (Nothing, Index("a momentum name", momentum_index)),
        Kind::HamiltonEquations => (
            Nothing,
            Index("`v' = …` for a coordinate or a momentum v", phase_index),
        ),
        Kind::DualConstraints => (Constraints, Index("a constraint number", constraint_index)),
        Kind::Bracket | Kind::VakonomicBracket => (Nothing, Bracket(ScopeKind::Phase)),
        Kind::Jacobiator => (Nothing, Jacobiator(ScopeKind::Phase)),
        Kind::FrameBracket | Kind::DiracBracket | Kind::ProjectedBracket => {
            (Nothing, Bracket(ScopeKind::Frame))
        }
        Kind::DiracJacobiator | Kind::ProjectedJacobiator => {
            (Nothing, Jacobiator(ScopeKind::Frame))
        }
        Kind::DiracConstraints => (
            Nothing,
            Index("a dependent frame momentum", dependent_momentum),
        ),
        Kind::DiracEquations => (
            Nothing,
            Rate(
                "`v' = …` for a coordinate or a frame momentum v",
                dirac_rate,
            ),
        ),
        Kind::InducedLagrangian => (Nothing, Name("l", "the restricted Lagrangian")),
        Kind::InducedEquations => (
            Nothing,
            Rate("`v' = …` for a coordinate or a velocity of D", induced_rate),
        ),
        Kind::Noether => (Nothing, Index("the name of a `symmetry`", symmetry_index)),
        Kind::Curvature => (
            Nothing,
            SectionPair("`K(a, b)` with frame momenta of sections of D"),
        ),
        Kind::SectionJacobiator => (
            Nothing,
            SectionTriple("`J(a, b, c)` with frame momenta of sections of D"),
        ),
        Kind::VakonomicEquations => (
            Nothing,
            Rate(
                "`v' = …` for a coordinate, a free velocity or a multiplier",
                vakonomic_rate,
            ),
        ),
        Kind::VakonomicHamiltonEquations => (
            Nothing,
            Rate(
                "`v' = …` for a coordinate or a momentum",
                vakonomic_phase_rate,
            ),
        ),
        Kind::ConstraintAlgorithm => (
            Nothing,
            Step("`primary`, `secondary`, `tertiary`, `levelN`, `sode` or `level`"),
        ),
        Kind::SingularEquations => (
            Nothing,
            Rate("`v' = …` for a coordinate or a velocity", singular_rate),
        ),
        Kind::ContactEquations => (Nothing, Rate(CONTACT_RATES, contact_rate)),
        Kind::ContactProjector => (
            Nothing,
            Coordinates("`(X, Y)` with coordinates of TQ × ℝ (q, q', z)"),
        ),
        Kind::ContactBracket => (Nothing, Bracket(ScopeKind::Observable)),
        Kind::ContactJacobiator => (Nothing, Jacobiator(ScopeKind::Observable)),
        Kind::ContactHamiltonEquations => (Nothing, Rate(CONTACT_PHASE_RATES, contact_phase_rate)),
    }
}

/// What the entry refers to, or E0402/E0403 when its key names nothing of this system.
pub(super) fn target(
    system: &System,
    kind: Kind,
    kind_span: Span,
    entry: &ExpectEntry,
) -> Result<Target> {
    vakonomic_family(system, kind, kind_span)?;
    contact_family(system, kind, kind_span)?;
    let (needs, key) = row(kind);
    read(system, kind, entry, needs, key)
}

/// The target of the entry's key of shape `key`, once the kind's `needs` are met: checked
/// before a single key is read and after a pair is.
fn read(
    system: &System,
    kind: Kind,
    entry: &ExpectEntry,
    needs: Needs,
    key: Key,
) -> Result<Target> {
    let needs = || needs.check(system, kind, entry);
    let single = |expected: &str| needs().and_then(|()| single_key(entry, expected));
    match key {
        Key::Without => needs().and_then(|()| without(entry)),
        Key::Name(name, what) => named_key(single(&format!("`{name}`"))?, name, what),
        Key::NameRate(name, what) => named_rate(single(&format!("`{name}'`"))?, name, what),
        Key::Index(expected, index) => Ok(Target::Index(index(system, single(expected)?)?)),
        Key::Rate(expected, rate) => Ok(Target::Rate(rate(system, single(expected)?)?)),
        Key::Pair(expected, first, second) => {
            let (a, b) = pair_key(entry, expected)?;
            needs()?;
            Ok(Target::Pair(first(system, a)?, second(system, b)?))
        }
        Key::Coordinates(expected) => {
            let (x, y) = pair_key(entry, expected)?;
            needs()?;
            Ok(Target::Coordinates(
                coordinate(system, x)?,
                coordinate(system, y)?,
            ))
        }
        Key::Bracket(scope) => {
            needs()?;
            let (f, g) = bracket_key(system, entry, scope)?;
            Ok(Target::Bracket(f, g))
        }
        Key::Jacobiator(scope) => {
            needs()?;
            let (f, g, h) = jacobiator_key(system, entry, scope)?;
            Ok(Target::Jacobiator(f, g, h))
        }
        Key::SectionPair(expected) => {
            let [a, b] = sections(system, single(expected)?, "K", "`K(a, b) = …`")?;
            Ok(Target::Pair(a, b))
        }
        Key::SectionTriple(expected) => {
            let [a, b, c] = sections(system, single(expected)?, "J", "`J(a, b, c) = …`")?;
            Ok(Target::Triple(a, b, c))
        }
        Key::Step(expected) => step(single(expected)?),
    }
}

impl Needs {
    /// E0403 at the entry when the system lacks what `kind` needs.
    fn check(self, system: &System, kind: Kind, entry: &ExpectEntry) -> Result<()> {
        match self {
            Needs::Constraints if system.constraints.is_empty() => Err(vec![Diagnostic::error(
                Code::E0403,
                format!("`expect {kind}` needs constraints, and this system has none"),
                entry.span,
                "nothing to compare with",
            )]),
            Needs::Constraints | Needs::Nothing => Ok(()),
        }
    }
}

/// E0403 at the kind when exactly one of the kind and the system is vakonomic.
fn vakonomic_family(system: &System, kind: Kind, kind_span: Span) -> Result<()> {
    if (kind.family() == Family::Vakonomic) != system.vakonomic.is_empty() {
        return Ok(());
    }
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
    Err(vec![Diagnostic::error(
        Code::E0403,
        message,
        kind_span,
        "nothing to compare with",
    )
    .with_note(note)])
}

/// E0403 at the kind when exactly one of the kind and the system is about contact.
fn contact_family(system: &System, kind: Kind, kind_span: Span) -> Result<()> {
    if (kind.family() == Family::Contact) == system.action.is_some() {
        return Ok(());
    }
    let message = if system.action.is_some() {
        format!("`expect {kind}` is not about a contact system, and this one is")
    } else {
        format!("`expect {kind}` needs a contact system (`action z`), and this one is not")
    };
    Err(vec![Diagnostic::error(
        Code::E0403,
        message,
        kind_span,
        "nothing to compare with",
    )
    .with_note(CONTACT_KINDS)])
}

/// The entry of a kind listed without keys (`first_integrals`).
fn without(entry: &ExpectEntry) -> Result<Target> {
    match entry.key {
        Some(_) => Err(bad_key(
            key_span(entry),
            "first integrals are listed without keys",
            "one expression per line",
        )),
        None => Ok(Target::Whole),
    }
}

/// A key that is the fixed name `name` (`E = …`, `H = …`, `l = …`), naming `what`.
fn named_key(key: &Ast, name: &str, what: &str) -> Result<Target> {
    match &key.kind {
        ExprKind::Name(e) if e == name => Ok(Target::Whole),
        _ => Err(bad_key(
            key.span,
            format!("{what} is written `{name}`"),
            &format!("`{name} = …`"),
        )),
    }
}

/// A key that is the rate of the fixed name `name` (`E' = …`), naming `what`.
fn named_rate(key: &Ast, name: &str, what: &str) -> Result<Target> {
    match &key.kind {
        ExprKind::Primed {
            name: n,
            order: 1,
            args: None,
        } if n.name == name => Ok(Target::Whole),
        _ => Err(bad_key(
            key.span,
            format!("{what} is written `{name}'`"),
            &format!("`{name}' = …`"),
        )),
    }
}
