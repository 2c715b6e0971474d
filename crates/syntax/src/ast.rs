//! The abstract syntax tree of a spec.
//!
//! Every node carries the [`Span`] of the source text it came from, so that every later stage can
//! point at the exact place a problem comes from. The tree is a faithful picture of the text: no
//! name is resolved and no expression is interpreted here (that is the job of `model`).

pub use diagnostic::Span;

/// A name with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name as written.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole spec file: its items in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The items, in the order they appear.
    pub items: Vec<Item>,
}

impl Spec {
    /// Calls `f` on every expression the spec gives a *value* by (the Lagrangian, both sides of
    /// a constraint, the right side of a force, frame row, symmetry entry or connection form,
    /// an anchor, a bracket, a generator, gravity, a body's, joint's or contact's fields, an
    /// expected value and a `let`'s value), and not on the names an item declares or keys by
    /// (a force's section, an expected entry's key): the places a name bound by `let` may be
    /// used.
    pub fn for_each_value_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        for item in &mut self.items {
            item.kind.for_each_value_mut(f);
        }
    }
}

impl ItemKind {
    /// [`Spec::for_each_value_mut`] on one item.
    pub fn for_each_value_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        let fields = |fields: &mut Vec<Field>, f: &mut dyn FnMut(&mut Expr)| {
            for field in fields {
                match &mut field.value {
                    FieldValue::Scalar(e) => f(e),
                    FieldValue::Vector(items, _) => items.iter_mut().for_each(&mut *f),
                }
            }
        };
        match self {
            ItemKind::Let { value, .. }
            | ItemKind::Lagrangian(value)
            | ItemKind::Hamiltonian(value) => f(value),
            ItemKind::Constraints { equations, .. } => {
                for e in equations {
                    f(&mut e.lhs);
                    f(&mut e.rhs);
                }
            }
            ItemKind::Forces(equations)
            | ItemKind::Symmetry {
                entries: equations, ..
            } => equations.iter_mut().for_each(|e| f(&mut e.rhs)),
            ItemKind::Frame(frame) => frame.rows.iter_mut().for_each(|e| f(&mut e.rhs)),
            ItemKind::Group(group) => {
                for line in &mut group.body {
                    match &mut line.kind {
                        GroupLineKind::Generator { value, .. } => f(value),
                        GroupLineKind::ConnectionForm(rows) => {
                            rows.iter_mut().for_each(|e| f(&mut e.rhs))
                        }
                        _ => {}
                    }
                }
            }
            ItemKind::Algebroid(algebroid) => {
                for line in &mut algebroid.body {
                    match &mut line.kind {
                        AlgebroidItemKind::Anchor { value, .. }
                        | AlgebroidItemKind::Bracket { value, .. } => f(value),
                        _ => {}
                    }
                }
            }
            ItemKind::Expect(block) => block.entries.iter_mut().for_each(|e| f(&mut e.value)),
            ItemKind::Gravity(vector) => vector.iter_mut().for_each(&mut *f),
            ItemKind::Body { fields: list, .. }
            | ItemKind::Joint { fields: list, .. }
            | ItemKind::Contact { fields: list, .. } => fields(list, f),
            ItemKind::System(_)
            | ItemKind::Time(_)
            | ItemKind::Discrete(_)
            | ItemKind::Parameters(_)
            | ItemKind::Functions(_)
            | ItemKind::Coordinates(_)
            | ItemKind::Inputs(_)
            | ItemKind::Action(_)
            | ItemKind::Momenta(_)
            | ItemKind::Latex(_) => {}
        }
    }
}

/// One top-level item with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// What the item says.
    pub kind: ItemKind,
    /// The whole item.
    pub span: Span,
}

/// The top-level items of the spec language (see `docs/spec-language.md`).
#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// `system NAME`
    System(Ident),
    /// `time t`
    Time(Ident),
    /// `discrete midpoint`: the discrete Lagrangian whose equations are derived beside the
    /// continuous ones (`mech::discrete`).
    Discrete(Ident),
    /// `parameters m, k, r`
    Parameters(Vec<Ident>),
    /// `functions Omega(t), f(t)`
    Functions(Vec<FunctionDecl>),
    /// `coordinates x, y`
    Coordinates(Vec<Ident>),
    /// `inputs u1, u2`
    Inputs(Vec<Ident>),
    /// `action z`
    Action(Ident),
    /// `momenta p1, p2` (top level)
    Momenta(Vec<Ident>),
    /// `algebroid …`
    Algebroid(Algebroid),
    /// `let NAME = EXPR`: a named sub-expression, which the expressions after it may use.
    Let {
        /// The name it binds.
        name: Ident,
        /// The expression the name stands for.
        value: Expr,
    },
    /// `lagrangian = EXPR`
    Lagrangian(Expr),
    /// `hamiltonian = EXPR`
    Hamiltonian(Expr),
    /// `constraints nonholonomic { … }` / `constraints vakonomic { … }` /
    /// `constraints holonomic { … }`
    Constraints {
        /// Which kind of constraints.
        kind: ConstraintKind,
        /// Where the kind keyword is.
        kind_span: Span,
        /// One equation per line.
        equations: Vec<Equation>,
    },
    /// `forces { e1 = … }`
    Forces(Vec<Equation>),
    /// `frame { eta1 = cos(phi)*p1 + sin(phi)*p2 … }`: a frame `f_A = T_A^B e_B` of the
    /// algebroid, given through its momenta `η_A = T_A^B p_B`.
    Frame(FrameBlock),
    /// `symmetry NAME { v1 = f1 … gauge = f }`: a candidate Noether symmetry `(X, f)` with
    /// `X = f^a X_a` on the constraint distribution ([GLMM09] §5, (5.5)).
    Symmetry {
        /// Its name.
        name: Ident,
        /// `v = EXPR` per fibre coordinate of `D`, and `gauge = EXPR`.
        entries: Vec<Equation>,
    },
    /// `symmetry SE2 on x, y, theta { … }`: a Lie group acting on the named coordinates, by
    /// which the system is reduced (`dalembert reduce`).
    Group(GroupDecl),
    /// `latex { w1 = "\\omega_1" }`
    Latex(Vec<LatexOverride>),
    /// `expect KIND { … }`
    Expect(ExpectBlock),
    /// `gravity = (gx, gy, gz)`: the gravitational acceleration of the multibody front end.
    Gravity(Vec<Expr>),
    /// `body NAME { mass = …; center = (…); inertia = (…) }`: a rigid body or point mass.
    Body {
        /// Its name.
        name: Ident,
        /// Its `key = value` lines.
        fields: Vec<Field>,
    },
    /// `joint NAME KIND { parent = …; child = …; … }`: a joint of the multibody tree.
    Joint {
        /// Its name (for a revolute or prismatic joint, its coordinate).
        name: Ident,
        /// `revolute`, `prismatic`, `planar`, `spherical` or `free`.
        kind: Ident,
        /// Its `key = value` lines.
        fields: Vec<Field>,
    },
    /// `contact NAME KIND { body = …; … }`: a rolling or knife-edge contact with the ground.
    Contact {
        /// Its name.
        name: Ident,
        /// `rolling` or `knife_edge`.
        kind: Ident,
        /// Its `key = value` lines.
        fields: Vec<Field>,
    },
}

/// A `key = value` line of a `body`, `joint` or `contact` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The key.
    pub key: Ident,
    /// The value.
    pub value: FieldValue,
    /// The whole line.
    pub span: Span,
}

/// The value of a [`Field`].
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    /// One expression (a name is an expression too).
    Scalar(Expr),
    /// `(a, b, c)`: two or more expressions, with the span of the parentheses.
    Vector(Vec<Expr>, Span),
}

impl FieldValue {
    /// Where the value is written.
    pub fn span(&self) -> Span {
        match self {
            FieldValue::Scalar(e) => e.span,
            FieldValue::Vector(_, span) => *span,
        }
    }
}

/// `symmetry NAME on q1, q2 { … }`: a Lie group acting on the coordinates `q1, q2`.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupDecl {
    /// The group's name: a named group (`SE2`, `SO2`, `translations`) or any name when the body
    /// gives its generators.
    pub name: Ident,
    /// The coordinates the group moves (the others are the shape coordinates).
    pub coordinates: Vec<Ident>,
    /// The lines of its body (empty when there is none).
    pub body: Vec<GroupLine>,
}

/// One line of a `symmetry … on …` body.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupLine {
    /// What the line says.
    pub kind: GroupLineKind,
    /// The whole line.
    pub span: Span,
}

/// The lines a `symmetry … on …` body may hold.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupLineKind {
    /// `sections E1, E2`: names of the reduced sections along the group.
    Sections(Vec<Ident>),
    /// `velocities v1, v2`: names of the reduced velocities along the group.
    Velocities(Vec<Ident>),
    /// `momenta p1, p2`: names of their momenta.
    Momenta(Vec<Ident>),
    /// `momentum mu`: Routh reduction at the value `mu` of the momentum (abelian groups).
    Momentum(Vec<Ident>),
    /// `generator xi1 = -y*d/dx + x*d/dy`: an infinitesimal generator, a vector field on `Q`.
    Generator {
        /// Its name.
        name: Ident,
        /// A combination of `d/dq`.
        value: Expr,
    },
    /// `action left` or `action right`: the side a named group acts on.
    Side(Ident),
    /// `connection mechanical` or `connection chart`: the principal connection that splits the
    /// reduced velocities.
    Connection(Ident),
    /// `connection { A(d/dx) = cos(theta)*E1 - sin(theta)*E2 … }`: a connection form given by
    /// its values on the coordinate fields, combinations of the group's reduced sections.
    ConnectionForm(Vec<Equation>),
}

/// The body of a `frame { … }` item.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameBlock {
    /// `velocities v1, v2`: names of the fibre coordinates of `D` (empty when not given).
    pub velocities: Vec<Ident>,
    /// One row `eta = T_1*p1 + …` per section.
    pub rows: Vec<Equation>,
}

/// `Omega(t)` in a `functions` line.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// The function's name.
    pub name: Ident,
    /// Its argument (must be the time variable).
    pub argument: Ident,
    /// The whole declaration.
    pub span: Span,
}

/// Nonholonomic (Lagrange–d'Alembert / Chetaev), vakonomic or holonomic constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind {
    /// `constraints nonholonomic`
    Nonholonomic,
    /// `constraints vakonomic`
    Vakonomic,
    /// `constraints holonomic`: position-level constraints `f(x, t) = 0`.
    Holonomic,
}

/// `lhs = rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Equation {
    /// Left-hand side.
    pub lhs: Expr,
    /// Right-hand side.
    pub rhs: Expr,
    /// The whole equation.
    pub span: Span,
}

/// `name = "latex"`.
#[derive(Clone, Debug, PartialEq)]
pub struct LatexOverride {
    /// The name to render.
    pub name: Ident,
    /// The LaTeX text (string escapes `\\` and `\"` resolved).
    pub text: String,
    /// The whole override.
    pub span: Span,
}

impl LatexOverride {
    /// Resolves `\\` and `\"`; any other backslash is kept as written, so `"\omega"` means
    /// `\omega`.
    pub(crate) fn unescape(raw: &str) -> String {
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(&next @ ('\\' | '"')) = chars.peek() {
                    out.push(next);
                    chars.next();
                    continue;
                }
            }
            out.push(c);
        }
        out
    }
}

/// The `algebroid` item.
#[derive(Clone, Debug, PartialEq)]
pub struct Algebroid {
    /// `Some(tangent | so3 | se2 | se3 | …)` for `algebroid NAME [{ … }]`; `None` for `algebroid { … }`.
    pub preset: Option<Ident>,
    /// The body items (empty when there is no body).
    pub body: Vec<AlgebroidItem>,
}

/// One line of an algebroid body.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgebroidItem {
    /// What the line says.
    pub kind: AlgebroidItemKind,
    /// The whole line.
    pub span: Span,
}

/// The lines an algebroid body may hold.
#[derive(Clone, Debug, PartialEq)]
pub enum AlgebroidItemKind {
    /// `sections e1, e2`
    Sections(Vec<Ident>),
    /// `velocities u1, u2`
    Velocities(Vec<Ident>),
    /// `momenta p1, p2`
    Momenta(Vec<Ident>),
    /// `anchor e1 = d/dx + y*d/dt`: the right-hand side is an ordinary expression in which
    /// `d/dq` appears as [`ExprKind::Partial`].
    Anchor {
        /// The section.
        section: Ident,
        /// Its image, a combination of `d/dq`.
        value: Expr,
    },
    /// `bracket [e3, e4] = -e5`: the right-hand side is an expression in the section names.
    Bracket {
        /// First section.
        left: Ident,
        /// Second section.
        right: Ident,
        /// The bracket, a combination of sections.
        value: Expr,
    },
}

/// `expect KIND { … }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectBlock {
    /// The kind (`equations`, `multipliers`, …).
    pub kind: Ident,
    /// The entries.
    pub entries: Vec<ExpectEntry>,
}

/// `KEY = EXPR` or a bare `EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectEntry {
    /// The key, if any.
    pub key: Option<Key>,
    /// The expected value.
    pub value: Expr,
    /// The whole entry.
    pub span: Span,
}

/// The key of an expect entry: an expression, or a parenthesised tuple `(a, b, …)` of two or more.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    /// A single expression such as `x'` or `lambda1`.
    Single(Expr),
    /// A tuple such as `(T(e0), V(e1))`.
    Tuple(Vec<Expr>, Span),
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

impl Expr {
    /// Every bare name of the expression, in order (not the names of calls, primes or `d/dq`).
    pub fn bare_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_bare_names(&mut out);
        out
    }

    fn collect_bare_names(&self, out: &mut Vec<String>) {
        match &self.kind {
            ExprKind::Name(name) => out.push(name.clone()),
            ExprKind::Primed { args, .. } => args
                .iter()
                .flatten()
                .for_each(|a| a.collect_bare_names(out)),
            ExprKind::Call { args, .. } => args.iter().for_each(|a| a.collect_bare_names(out)),
            ExprKind::Bracket(a, b) | ExprKind::Binary { lhs: a, rhs: b, .. } => {
                a.collect_bare_names(out);
                b.collect_bare_names(out);
            }
            ExprKind::Neg(a) => a.collect_bare_names(out),
            ExprKind::Number(_) | ExprKind::Partial(_) => {}
        }
    }
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `^` (right-associative, binds tighter than unary minus)
    Pow,
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal as written: `12`, `0.25`.
    Number(String),
    /// A bare name.
    Name(String),
    /// A name with primes and optional call arguments: `x'` (order 1), `x''`, `Omega'(t)`.
    Primed {
        /// The name before the primes.
        name: Ident,
        /// Number of primes (≥ 1).
        order: u32,
        /// `Some(args)` when followed by a call such as `(t)`.
        args: Option<Vec<Expr>>,
    },
    /// `f(a, b)`: built-in functions, given functions of time, `T(e1)`, `J(f, g, h)` …
    Call {
        /// The function's name.
        func: Ident,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `d/dq`, a coordinate vector field (anchors only).
    Partial(Ident),
    /// `{f, g}`, a bracket of observables (expect blocks only).
    Bracket(Box<Expr>, Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
}
