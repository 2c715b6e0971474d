//! The report: what a derivation says, as an ordered tree of named quantities.
//!
//! A [`Report`] is a list of [`Section`]s. A section has a title, running prose, and an ordered
//! list of [`Block`]s: prose, quantities and subsections. A [`Quantity`] is one named result —
//! an energy, the equations of motion, a bracket table, a constraint matrix — with
//!
//! - its `key`, the name programs read it by (the JSON key);
//! - its `symbol`, the LaTeX a reader sees it by (`E_L`, `\mathcal{C}`), when it has one;
//! - its meaning, its convention and its bibliographic reference, as one sentence of prose;
//! - its [`Value`], typed: an expression, a list, a matrix, a table keyed by [`Key`]s, a
//!   differential form over a named basis, a verdict, a text.
//!
//! Prose is plain text in which `$…$` delimits inline mathematics in LaTeX notation and
//! `[IMMS07, eq. (35)]` cites a paper. It is the only LaTeX the report carries, and only the
//! documents show it; expressions are `cas` expressions, printed by each writer in its own syntax.
//!
//! Where the tree is written to JSON, a section with a `key` becomes an object under that key
//! and a section without one adds its quantities to the enclosing object; prose is not written.
//! A quantity's [`Audience`] says whether both outputs show it, or only one: the data of a
//! JSON document that a reader does not need displayed (`basis`, raw constraint coefficients),
//! or a display that restates data in the form a paper writes it (the multiplier form
//! `W ẏ = F − λ μ`).

use cas::Expr;

/// A derivation's report (see the module documentation).
#[derive(Clone, Debug)]
pub struct Report {
    /// The system's name.
    pub system: String,
    /// What kind of derivation this is, for a document's title (`Lagrange–d'Alembert
    /// equations`).
    pub title: String,
    /// The sections, in order.
    pub sections: Vec<Section>,
    /// The papers the prose cites (as `[LABEL]` or `[LABEL, where]`), in citation order.
    pub references: Vec<Reference>,
}

/// A paper a report cites.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Its label, the key of `\cite` (`IMMS07`).
    pub label: String,
    /// The full reference as LaTeX text, for a standalone document's bibliography.
    pub full: String,
    /// Its BibTeX entry, for the `.bib` file a paper's bibliography reads.
    pub bibtex: String,
}

/// A titled part of a report.
#[derive(Clone, Debug)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// The JSON key its quantities are grouped under, or `None` to add them to the enclosing
    /// object.
    pub key: Option<String>,
    /// Its prose, quantities and subsections, in order.
    pub blocks: Vec<Block>,
}

/// One element of a section.
#[derive(Clone, Debug)]
pub enum Block {
    /// A paragraph of prose (see the module documentation for its notation).
    Prose(String),
    /// A named result.
    Quantity(Quantity),
    /// A subsection.
    Section(Section),
}

/// Which outputs show a quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every output.
    All,
    /// Data for programs only (JSON).
    Data,
    /// Display for readers only (LaTeX).
    Display,
}

/// One named result of a derivation.
#[derive(Clone, Debug)]
pub struct Quantity {
    /// The name programs read it by.
    pub key: String,
    /// The LaTeX symbol it is displayed as (`E_L`), if it has one.
    pub symbol: Option<String>,
    /// What it is, its convention and where it comes from (prose, shown before it).
    pub about: Option<String>,
    /// Which outputs show it.
    pub audience: Audience,
    /// How its expressions are shown: simplified, or as derived (the large expressions of an
    /// implicit form).
    pub shown: Shown,
    /// Whether a reader sees only its non-zero entries (a bracket table, whose prose says that
    /// the entries not listed vanish).
    pub sparse: bool,
    /// Its value.
    pub value: Value,
}

/// How the expressions of a quantity are shown to readers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shown {
    /// Simplified and factorised.
    Simplified,
    /// As derived, with their minus signs distributed over sums only.
    AsDerived,
}

/// The value of a quantity.
#[derive(Clone, Debug)]
pub enum Value {
    /// One expression, displayed simplified and factorised (unless its quantity is verbatim).
    Expr(Expr),
    /// A sum kept in the order its terms are written (a Lagrangian as the spec writes it): data
    /// outputs read it as one expression, displays keep the order of its terms.
    Sum(Vec<Expr>),
    /// Names of symbols (coordinates, momenta, a state), by their internal names.
    Names(Vec<String>),
    /// A list of keys (the sections of an algebroid, `T(e0)`, …).
    Keys(Vec<Key>),
    /// Plain words (a route's name, why something was not derived).
    Text(String),
    /// A yes-or-no verdict.
    Flag(bool),
    /// An integer (a level of the constraint algorithm).
    Count(usize),
    /// A floating-point number (an eigenvalue's real part), for data outputs only.
    Number(f64),
    /// Nothing: the quantity was not derived (JSON `null`).
    Missing,
    /// An ordered list.
    List(Vec<Value>),
    /// A matrix of expressions, by rows.
    Matrix(Vec<Vec<Expr>>),
    /// A matrix of double-precision numbers, by rows (a linearisation in double precision):
    /// numbers in data outputs, decimals of [`DECIMAL_DIGITS`] significant digits in documents.
    Decimals(Vec<Vec<f64>>),
    /// A table: values keyed by [`Key`]s, in order.
    Table(Vec<(Key, Value)>),
    /// A linear combination `Σ c_k k` of keys (a vector field `Σ c ∂_q`, a section, a
    /// momentum in a frame): only its listed terms, in order.
    Combination(Vec<(Key, Expr)>),
    /// A differential form or a vector over a named basis: its coefficients in the basis
    /// `basis` (a one-form), or a matrix of coefficients of `basis[i] ∧ basis[j]` (a two-form).
    Form(Form),
}

/// A form over a named basis (see [`Value::Form`]).
#[derive(Clone, Debug)]
pub struct Form {
    /// The LaTeX of the basis elements (`\phi_0`, `\tilde T^{1}`).
    pub basis: Vec<String>,
    /// The coefficients.
    pub coefficients: FormCoefficients,
}

/// The coefficients of a [`Form`].
#[derive(Clone, Debug)]
pub enum FormCoefficients {
    /// `Σ c_i basis_i`, every coefficient listed (zeros included).
    One(Vec<Expr>),
    /// `Σ_{i<j} c_ij basis_i ∧ basis_j`, the whole antisymmetric matrix listed.
    Two(Vec<Vec<Expr>>),
}

/// The key of an entry of a [`Value::Table`]: what it is printed as in JSON and in LaTeX.
#[derive(Clone, Debug)]
pub enum Key {
    /// A symbol, by its internal name (`x`, `x__v`), printed by its spec or LaTeX name.
    Name(String),
    /// The time derivative of a symbol: JSON prints the symbol (`x` in `equations`), LaTeX
    /// its derivative (`\dot{x}`).
    Rate(String),
    /// The `i`-th multiplier (`lambda1`, `\lambda_{1}`).
    Multiplier(usize),
    /// A bracket of symbols `{f, g}`, a Jacobiator `J(f, g, h)`, a curvature `K(a, b)`: a
    /// function-like head over symbols. JSON prints `head(f, g)` (`{f, g}` for the braces
    /// head `{}`); LaTeX prints `tex(f, g)` (`\{f, g\}` for the braces head).
    Apply {
        /// The JSON head (`J`, `K`, or `{}` for a bracket).
        head: String,
        /// The LaTeX head (`J`, `K`, or `\{\}` for a bracket).
        tex: String,
        /// The arguments: internal symbol names, or the literal `1` of a Jacobi bracket.
        args: Vec<String>,
    },
    /// A basis vector field `∂/∂q`: JSON `d/dq`, LaTeX `\partial_{q}`.
    Partial(String),
    /// An expression as a left-hand side (`W_{1β} ẏ^β` of a multiplier form), printed as an
    /// expression by each writer.
    Expr(Expr),
    /// A word printed as is in JSON, and as the given LaTeX.
    Word {
        /// JSON.
        json: String,
        /// LaTeX.
        tex: String,
    },
}

impl Key {
    /// A bracket `{f, g}` of two symbols.
    pub fn bracket(f: &str, g: &str) -> Key {
        Key::Apply {
            head: "{}".into(),
            tex: "\\{\\}".into(),
            args: vec![f.into(), g.into()],
        }
    }

    /// A Jacobiator `J(f, g, h)`.
    pub fn jacobiator(f: &str, g: &str, h: &str) -> Key {
        Key::Apply {
            head: "J".into(),
            tex: "J".into(),
            args: vec![f.into(), g.into(), h.into()],
        }
    }

    /// A word that prints the same in JSON and, upright, in LaTeX.
    pub fn word(json: &str) -> Key {
        Key::Word {
            json: json.into(),
            tex: format!("\\mathrm{{{}}}", json.replace('_', "\\_")),
        }
    }
}

impl Quantity {
    /// A quantity shown by every output, with no symbol and no prose.
    pub fn new(key: &str, value: Value) -> Quantity {
        Quantity {
            key: key.into(),
            symbol: None,
            about: None,
            audience: Audience::All,
            sparse: false,
            shown: Shown::Simplified,
            value,
        }
    }

    /// This quantity displayed as `symbol`.
    pub fn shown_as(mut self, symbol: &str) -> Quantity {
        self.symbol = Some(symbol.into());
        self
    }

    /// This quantity with its meaning, convention and reference.
    pub fn about(mut self, prose: &str) -> Quantity {
        self.about = Some(prose.into());
        self
    }

    /// This quantity displayed by its non-zero entries only.
    pub fn sparse(mut self) -> Quantity {
        self.sparse = true;
        self
    }

    /// This quantity with its expressions shown as derived.
    pub fn verbatim(mut self) -> Quantity {
        self.shown = Shown::AsDerived;
        self
    }

    /// This quantity shown only to `audience`.
    pub fn for_only(mut self, audience: Audience) -> Quantity {
        self.audience = audience;
        self
    }
}

impl Section {
    /// An empty section titled `title`, grouped under `key` in JSON (or not, for `None`).
    pub fn new(title: &str, key: Option<&str>) -> Section {
        Section {
            title: title.into(),
            key: key.map(str::to_string),
            blocks: Vec::new(),
        }
    }

    /// Appends a paragraph of prose.
    pub fn prose(&mut self, text: impl Into<String>) -> &mut Section {
        self.blocks.push(Block::Prose(text.into()));
        self
    }

    /// Appends a quantity.
    pub fn quantity(&mut self, q: Quantity) -> &mut Section {
        self.blocks.push(Block::Quantity(q));
        self
    }

    /// Appends a quantity shown by every output: `key` and `value`.
    pub fn put(&mut self, key: &str, value: Value) -> &mut Section {
        self.quantity(Quantity::new(key, value))
    }

    /// Appends a subsection.
    pub fn section(&mut self, s: Section) -> &mut Section {
        self.blocks.push(Block::Section(s));
        self
    }
}

impl Value {
    /// A list of expressions.
    pub fn exprs<'a>(list: impl IntoIterator<Item = &'a Expr>) -> Value {
        Value::List(list.into_iter().cloned().map(Value::Expr).collect())
    }

    /// A table of expressions keyed by symbols.
    pub fn by_name<'a>(
        names: impl IntoIterator<Item = &'a String>,
        values: impl IntoIterator<Item = Expr>,
    ) -> Value {
        Value::keyed(names, values, Key::Name)
    }

    /// The rates of a state: `ẋ = f`, keyed by [`Key::Rate`].
    pub fn rates<'a>(
        state: impl IntoIterator<Item = &'a String>,
        rates: impl IntoIterator<Item = Expr>,
    ) -> Value {
        Value::keyed(state, rates, Key::Rate)
    }

    /// A table of expressions, the `i`-th keyed by `key` of the `i`-th symbol.
    fn keyed<'a>(
        symbols: impl IntoIterator<Item = &'a String>,
        values: impl IntoIterator<Item = Expr>,
        key: fn(String) -> Key,
    ) -> Value {
        Value::Table(
            symbols
                .into_iter()
                .zip(values)
                .map(|(s, v)| (key(s.clone()), Value::Expr(v)))
                .collect(),
        )
    }

    /// Multipliers `lambda1, lambda2, …`.
    pub fn multipliers(values: impl IntoIterator<Item = Value>) -> Value {
        Value::Table(
            values
                .into_iter()
                .enumerate()
                .map(|(a, v)| (Key::Multiplier(a + 1), v))
                .collect(),
        )
    }

    /// An expression, or [`Value::Missing`].
    pub fn optional(e: Option<&Expr>) -> Value {
        e.map_or(Value::Missing, |e| Value::Expr(e.clone()))
    }
}
