//! The `expect` blocks of a spec, resolved: what each entry names and the value it expects.
//!
//! A block `expect KIND { KEY = VALUE … }` holds hand-derived results that `dalembert check`
//! proves against the derivation. Resolution reads each block once into an [`Expectation`]: its
//! [`Kind`] (an enum of the quantities a block can name, with the [`Family`] of derivations that
//! answers it), and one [`Entry`] per line with its [`Target`] (what the key indexes: a state
//! variable, a pair of sections, the functions of a bracket, …, as indices and internal names of
//! the `System`) and its value as a [`cas::Expr`] read in the names the kind's
//! quantity is a function of. An expectation is a whole block (possibly empty), so that what is
//! said of a block — that the side it is about does not exist — is said once.
//!
//! Nothing here refers to the syntax tree: the prover in `mech` reads expectations as data and
//! locates its diagnostics with the spans kept here.

mod kind;

use cas::Expr;
use diagnostic::Span;

pub use kind::{Family, Kind};

/// One resolved `expect` block: which quantity it is about and the entries that give its value.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The quantity the block names.
    pub kind: Kind,
    /// Where the kind is written (`expect KIND`): diagnostics about the whole block point here.
    pub kind_span: Span,
    /// The entries, in source order (a block may have none).
    pub entries: Vec<Entry>,
}

/// One entry of an `expect` block: a component of the block's quantity and its expected value.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Which component of the quantity the key names.
    pub target: Target,
    /// The expected value, in the names of [`Kind`]'s quantity (for a first integral, the
    /// integral itself).
    pub value: Expr,
    /// The whole entry.
    pub span: Span,
    /// The key (the whole entry when it has none).
    pub key_span: Span,
    /// The key as written (the value as written when there is no key): the entry's label.
    pub label: String,
}

/// What the key of an entry indexes, for its block's [`Kind`].
#[derive(Clone, Debug)]
pub enum Target {
    /// The quantity has no index: `E`, `E'`, `H`, `l`, `H_W1`, and a first integral (whose value
    /// is the quantity).
    Whole,
    /// One index (0-based): the state variable of `System::state` (`equations`,
    /// `free_equations`); the multiplier (`multipliers`, `dual_multipliers`,
    /// `contact_multipliers`); the constraint (`dual_constraints`); the momentum (`legendre`);
    /// the phase coordinate, coordinates then momenta (`hamilton_equations`); the frame momentum
    /// (`dirac_constraints`); the declared symmetry (`noether`); for `theta`, 0 is `e0` and
    /// `1 + α` the section `α`.
    Index(usize),
    /// Two indices: sections (`hessian`), constraints (`constraint_matrix`,
    /// `dual_constraint_matrix`), elements of the basis `T(e0), T(e_α), V(e_α)` numbered
    /// `0, 1 + α, 1 + n + α` (`omega`, `projector`), a constraint and a basis element (`dpsi`),
    /// sections of `D` among the frame's sections along it (`curvature`).
    Pair(usize, usize),
    /// Three distinct sections of `D` (`section_jacobiator`).
    Triple(usize, usize, usize),
    /// The rate of the variable with this internal name (the rates of every route but the
    /// closed form's).
    Rate(String),
    /// Two coordinates of `TQ × ℝ` by internal name (`contact_projector`).
    Coordinates(String, String),
    /// The functions of a bracket `{f, g}`.
    Bracket(Expr, Expr),
    /// The functions of a Jacobiator `J(f, g, h)`.
    Jacobiator(Expr, Expr, Expr),
    /// A step of the constraint algorithm: `Some(k)` the constraints of level `k`, `None` those
    /// of the second-order condition.
    Step(Option<usize>),
    /// The level at which the constraint algorithm stabilised.
    Level,
}
