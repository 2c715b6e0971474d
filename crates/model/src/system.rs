//! The resolved system.

use std::collections::BTreeMap;

use cas::{Deferred, Expr};
use diagnostic::Span;

use crate::discrete::Discrete;
use crate::expectation::Expectation;
use crate::multibody::terms::{ExpansionBound, FormedTerms};
use crate::scope::Scope;
use crate::symbols::{Handle, Kind, Symbols};

/// A mechanical system on a Lie affgebroid, in the conventions of `docs/conventions.md`.
#[derive(Clone, Debug)]
pub struct System {
    /// The `system` name.
    pub name: String,
    /// The time variable.
    pub time: Handle,
    /// Constant parameters.
    pub parameters: Vec<Handle>,
    /// Given functions of time (their values; derivatives are
    /// [`Symbols::function_derivative`]).
    pub functions: Vec<Handle>,
    /// Base coordinates `x^i`, without time.
    pub coordinates: Vec<Handle>,
    /// Control inputs (constants to the derivation).
    pub inputs: Vec<Handle>,
    /// The affgebroid.
    pub algebroid: Algebroid,
    /// The symbol table every expression of the system is written over.
    pub symbols: Symbols,
    /// The Lagrangian `L(t, x, y)`. A tree of joints gives it as the sum of its per-body
    /// [`System::lagrangian_terms`], normalised only when something reads it (emitted code that
    /// takes the joint recursions never does).
    pub lagrangian: Deferred,
    /// The Lagrangian's terms in the order the spec writes them (their sum is
    /// [`System::lagrangian`]): how it is displayed. One term when it is not written as a sum.
    pub lagrangian_terms: Deferred<Vec<Expr>>,
    /// The Lagrangian's terms as first formed: a tree of joints' per-body terms (each body's
    /// formed when first read) before the angle sums of the small ones are contracted for
    /// display (which [`System::lagrangian_terms`] does when read); the written terms
    /// otherwise. What is read off the terms without showing them all (the expansion bound,
    /// `L_0`) reads these.
    pub lagrangian_formed: FormedTerms,
    /// Where the Lagrangian is written.
    pub lagrangian_span: Span,
    /// The Hamiltonian as written (`hamiltonian = …`), if any.
    pub hamiltonian: Option<GivenHamiltonian>,
    /// The constraints `Ψ^a = 0` of Lagrange–d'Alembert's principle, in the order written:
    /// nonholonomic ones and the velocity-level forms `ρ(f)` of holonomic ones.
    pub constraints: Vec<Constraint>,
    /// The action variable `z` of a contact (Herglotz) system (`action z`, [LJL21]): the
    /// Lagrangian may depend on it, and `ż = L`.
    pub action: Option<Handle>,
    /// The vakonomic constraints `Φ^α = 0` ([IMMS08] §5.1): the motion is the constrained
    /// variational problem, with the multipliers as state ([`mech::vakonomic`]).
    pub vakonomic: Vec<Constraint>,
    /// The frame adapted to the constraints (declared with `frame { … }` or computed from linear
    /// constraints); `None` when the constraints are not linear.
    pub frame: Option<Frame>,
    /// The declared Noether candidates (`symmetry NAME { … }`).
    pub symmetries: Vec<Symmetry>,
    /// The groups acting on `Q` (`symmetry NAME on q1, q2 { … }`), by which `mech::reduction`
    /// reduces the system; several items make a product group.
    pub groups: Vec<crate::group::GroupAction>,
    /// External forces `F_α`, one per section (zero when not given).
    pub forces: Vec<Expr>,
    /// LaTeX overrides by key (a string map: the reduced systems' names are not all symbols of
    /// the table).
    pub latex: BTreeMap<String, String>,
    /// The `expect` blocks, resolved (proved against the derivation by `mech::check`).
    pub expectations: Vec<Expectation>,
    /// The declared names, to read further expressions in the spec's names with.
    pub scope: Scope,
    /// The bodies and joints the system was described with, if it was (the Lagrangian, the
    /// algebroid, the contact constraints and the joint forces above are lowered from them).
    pub multibody: Option<crate::multibody::Multibody>,
    /// The discrete Lagrangian the spec asks for (`discrete midpoint`), whose discrete equations
    /// are derived beside the continuous ones; `None` when it asks for none.
    pub discrete: Option<Discrete>,
}

/// Which kind of algebroid the spec declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlgebroidKind {
    /// `algebroid tangent`: sections `∂/∂q`, velocities `q'`.
    Tangent,
    /// A Lie algebra preset (`so3`, `se2`, `se3`).
    LieAlgebra(String),
    /// Explicit sections, anchors and brackets.
    Explicit,
}

/// The data of a Lie affgebroid in an adapted basis `e_0, e_α` ([IMMS07] §II.3).
///
/// Base index 0 is time; base index `i ≥ 1` is `System::coordinates[i - 1]`.
#[derive(Clone, Debug)]
pub struct Algebroid {
    /// Preset or explicit.
    pub kind: AlgebroidKind,
    /// Section names `e_α` (for `tangent`, the coordinate names): labels the spec writes keys,
    /// forces and brackets with, not symbols of the table (a preset's `e1 …` never appear in an
    /// expression).
    pub sections: Vec<String>,
    /// Fibre coordinates `y^α`, one per section.
    pub velocities: Vec<Handle>,
    /// Dual fibre coordinates, one per section.
    pub momenta: Vec<Handle>,
    /// `ρ^i_0`, over the base (time first).
    pub anchor0: Vec<Expr>,
    /// `ρ^i_α` as `anchors[α][i]`.
    pub anchors: Vec<Vec<Expr>>,
    /// `C^γ_0α` as `c0[α][γ]`.
    pub c0: Vec<Vec<Expr>>,
    /// `C^γ_αβ` as `c[α][β][γ]`.
    pub c: Vec<Vec<Vec<Expr>>>,
    /// Whether the structure equations hold.
    pub structure: StructureReport,
}

/// The outcome of checking the structure equations ([IMMS07] §II.1, with index 0).
#[derive(Clone, Debug, Default)]
pub struct StructureReport {
    /// Non-zero Jacobiators `(A, B, Γ, ν, value)` with `A, B, Γ ∈ {0..n}` (0 = e0).
    pub jacobi_failures: Vec<(usize, usize, usize, usize, Expr)>,
}

impl StructureReport {
    /// Whether the bracket satisfies Jacobi (a Lie affgebroid rather than a skew one).
    pub fn is_lie(&self) -> bool {
        self.jacobi_failures.is_empty()
    }
}

/// How a constraint depends on the velocities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintShape {
    /// `μ^a_α y^α = 0`.
    Linear,
    /// `μ^a_0 + μ^a_α y^α = 0` with `μ^a_0 ≠ 0`.
    Affine,
    /// Not affine in the velocities: handled by Chetaev's rule.
    Nonlinear,
}

/// A candidate Noether symmetry `(X, f)`: `X = f^a X_a` on the constraint distribution, in the
/// frame's fibre coordinates, and the gauge function `f` ([GLMM09] (5.5)).
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Its name.
    pub name: String,
    /// `f^a(x)`, one per fibre coordinate of `D` (zero when not given).
    pub components: Vec<Expr>,
    /// `f(x)`.
    pub gauge: Expr,
    /// Where it is written.
    pub span: Span,
}

/// A frame of the algebroid adapted to the constraints, with its momenta ([GBMS24] §2.1; it is
/// declared or computed by the `frame` module).
#[derive(Clone, Debug)]
pub struct Frame {
    /// `η_A`, one per section.
    pub momenta: Vec<Handle>,
    /// `T[A][B]`: `f_A = T_A^B e_B`, `η_A = T_A^B p_B`.
    pub matrix: Vec<Vec<Expr>>,
    /// Whether the spec gave it (`frame { … }`) or it was computed from the constraints.
    pub declared: bool,
    /// The indices of the sections along `C` (for a computed frame the free indices, by
    /// construction; for a declared one those that [`Frame::lies_in_c`]).
    pub along: Vec<usize>,
    /// The fibre coordinates `v^a` of `D` along the sections in `C`, in frame order: the
    /// `velocities` line of the frame, else for a computed frame the algebroid velocities of the
    /// free indices (`y^a = v^a` there), else `v1 …`.
    pub velocities: Vec<Handle>,
}

impl Frame {
    /// Whether `f_A` lies in the constraint distribution (`μ^a_B T_A^B = 0` for every `a`).
    pub fn lies_in_c(&self, system: &System, a: usize) -> bool {
        system.constraints.iter().all(|c| {
            c.mu.iter()
                .zip(&self.matrix[a])
                .fold(Expr::zero(), |acc, (m, t)| acc + m.clone() * t.clone())
                .vanishes()
        })
    }
}

/// A Hamiltonian written in the spec.
#[derive(Clone, Debug)]
pub struct GivenHamiltonian {
    /// `H(t, x, p)`.
    pub expr: Expr,
    /// Where it is written.
    pub span: Span,
    /// Whether it was given alone, so that the Lagrangian is its Legendre transform; otherwise
    /// the derivation checks that it is the Legendre transform of the Lagrangian (E0291).
    pub alone: bool,
}

/// One nonholonomic constraint `Ψ = 0`.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// `Ψ` (left-hand side minus right-hand side).
    pub psi: Expr,
    /// `μ_α = ∂Ψ/∂y^α` (Chetaev's rule; constant in y for affine constraints).
    pub mu: Vec<Expr>,
    /// `μ_0 = Ψ − μ_α y^α` (meaningful for affine and linear constraints).
    pub mu0: Expr,
    /// Linear, affine or nonlinear.
    pub shape: ConstraintShape,
    /// The velocity written alone on the left-hand side (`y3 = …`), if any: the one a vakonomic
    /// constraint is solved for ([IMMS08] §5.1, `y^α = Ψ^α(x, y^a)`).
    pub solved_for: Option<usize>,
    /// Where it is written.
    pub span: Span,
    /// For a holonomic constraint (`constraints holonomic`), the position-level function `f(x, t)`
    /// whose velocity-level form `ρ(f) = (ρ_0 + y^α ρ_α)(f)` is `Ψ`; `None` for a nonholonomic one.
    pub position: Option<Expr>,
}

impl System {
    /// An upper bound of the terms of the Lagrangian multiplied out ([`Expr::expansion_bound`]).
    /// A tree of joints reads it off its bodies' terms (adding the terms can only merge some),
    /// body by body until the terms too large to contract pass `enough`, without forming the sum
    /// or the other bodies' terms (`multibody::terms::BodyTerms::expansion_bound`).
    pub fn lagrangian_expansion_bound(&self, enough: usize) -> ExpansionBound {
        match &self.lagrangian_formed {
            FormedTerms::Bodies(tree) => tree.expansion_bound(enough),
            FormedTerms::Written(_) => ExpansionBound {
                terms: self.lagrangian.expansion_bound(),
                bodies_read: 0,
                bodies: 0,
            },
        }
    }

    /// Whether the Lagrangian is known not to depend on time (explicitly or through a function
    /// of time) without reading it: a tree of joints' Lagrangian never does, since its geometry
    /// is constant (E0276: masses, centres, inertias, joint points, axes and gravity are
    /// numbers or parameters) and its kinematics reads only the coordinates and velocities.
    /// `false` means only that the Lagrangian itself must be read to tell.
    pub fn lagrangian_is_autonomous(&self) -> bool {
        self.multibody.is_some()
    }

    /// The shape coordinates (those no group moves), as indices into its coordinates.
    pub fn shape_indices(&self) -> Vec<usize> {
        (0..self.coordinates.len())
            .filter(|i| !self.groups.iter().any(|g| g.moved.contains(i)))
            .collect()
    }

    /// The names of the reduced sections and velocities along the shape: those the first
    /// symmetry's block gives, else `d_s` and `s_dot` per shape coordinate `s`, made unique against the spec's names and the groups' reduced names (a digit is
    /// appended).
    pub fn shape_names(&self) -> (Vec<String>, Vec<String>) {
        let system = self;
        let taken = |name: &str| {
            system.scope.names.contains_key(name)
                || system
                    .groups
                    .iter()
                    .any(|g| g.sections.iter().chain(&g.velocities).any(|n| n == name))
        };
        let fresh = |stem: String| {
            let mut name = stem.clone();
            let mut k = 2;
            while taken(&name) {
                name = format!("{stem}{k}");
                k += 1;
            }
            name
        };
        let shape = system.shape_indices();
        let given = system.groups.first().map(|g| &g.shape_names);
        let sections = match given {
            Some((named, _, _)) if !named.is_empty() => named.clone(),
            _ => shape
                .iter()
                .map(|&i| fresh(format!("d_{}", system.key(system.coordinates[i]))))
                .collect(),
        };
        let velocities = match given {
            Some((_, named, _)) if !named.is_empty() => named.clone(),
            _ => shape
                .iter()
                .map(|&i| fresh(format!("{}_dot", system.key(system.coordinates[i]))))
                .collect(),
        };
        (sections, velocities)
    }

    /// The holonomic constraints `f^a(x, t) = 0` with their index among the constraints (the
    /// multiplier `λ_a` of `ρ(f^a)`), in the order they are written.
    pub fn holonomic(&self) -> Vec<(usize, &Expr)> {
        self.constraints
            .iter()
            .enumerate()
            .filter_map(|(a, c)| c.position.as_ref().map(|f| (a, f)))
            .collect()
    }

    /// The base coordinates, time first.
    pub fn base(&self) -> Vec<Handle> {
        std::iter::once(self.time)
            .chain(self.coordinates.iter().copied())
            .collect()
    }

    /// The key (cas's name) of a symbol of the system.
    pub fn key(&self, h: Handle) -> String {
        self.symbols.key(h)
    }

    /// The keys of `symbols`, in their order.
    pub fn keys(&self, symbols: &[Handle]) -> Vec<String> {
        self.symbols.keys(symbols)
    }

    /// The symbols whose keys are `keys` (symbols met in expressions of the system).
    pub fn handles(&self, keys: &[String]) -> Vec<Handle> {
        keys.iter().map(|k| self.handle(k)).collect()
    }

    /// A symbol of the system as an expression.
    pub fn expr(&self, h: Handle) -> Expr {
        self.symbols.expr(h)
    }

    /// Symbols of the system as expressions, in their order.
    pub fn exprs(&self, symbols: &[Handle]) -> Vec<Expr> {
        self.symbols.exprs(symbols)
    }

    /// The index of the coordinate spelled `name` in the spec.
    pub fn coordinate_named(&self, name: &str) -> Option<usize> {
        self.coordinates.iter().position(|q| self.key(*q) == name)
    }

    /// Whether the coordinate or action spelled `name` in the spec is one of the system's.
    pub fn is_coordinate_or_action(&self, name: &str) -> bool {
        self.coordinate_named(name).is_some() || self.action.is_some_and(|z| self.key(z) == name)
    }

    /// Whether `e` depends on the parameters and coordinates only.
    pub fn on_parameters_and_coordinates(&self, e: &Expr) -> bool {
        e.symbols().iter().all(|s| {
            let s = self.handle(s);
            self.parameters.contains(&s) || self.coordinates.contains(&s)
        })
    }

    /// The handle of a symbol met in an expression of the system (its key).
    pub fn handle(&self, key: &str) -> Handle {
        self.symbols.handle(key)
    }

    /// The rank `n` of the algebroid.
    pub fn rank(&self) -> usize {
        self.algebroid.sections.len()
    }

    /// The state variables, in order: coordinates, then velocities.
    pub fn state(&self) -> Vec<Handle> {
        self.coordinates
            .iter()
            .copied()
            .chain(self.algebroid.velocities.iter().copied())
            .collect()
    }

    /// The partial derivative of `f` along base coordinate `i` (0 = time). The time derivative
    /// is the explicit one, including the chain rule through the functions of time.
    pub fn partial_base(&self, f: &Expr, i: usize) -> Expr {
        if i > 0 {
            return f.diff(&self.key(self.coordinates[i - 1]));
        }
        let mut total = f.diff(&self.key(self.time));
        for symbol in f.symbols() {
            if let Some((func, order)) = self.function_order(self.handle(&symbol)) {
                let next = self.expr(self.symbols.function_derivative(func, order + 1));
                total = total + f.diff(&symbol) * next;
            }
        }
        total
    }

    /// `df/dt` along a first-order system `ṡ = rates` on `state` (any subset of the symbols `f`
    /// depends on; the others are constants): the explicit time derivative, through the functions
    /// of time, plus `Σ ∂f/∂s ṡ`. Not simplified. This is "d/dt along the flow", written once.
    pub fn along(&self, state: &[Handle], rates: &[Expr], f: &Expr) -> Expr {
        state
            .iter()
            .zip(rates)
            .fold(self.partial_base(f, 0), |acc, (s, rate)| {
                acc + f.diff(&self.key(*s)) * rate.clone()
            })
    }

    /// If `symbol` is a function of time or one of its derivatives, the function and the order.
    pub fn function_order(&self, symbol: Handle) -> Option<(Handle, u32)> {
        let (f, order) = match self.symbols.kind(symbol) {
            Kind::Named(_) => (symbol, 0),
            Kind::FunctionDerivative(f, k) => (f, k),
            _ => return None,
        };
        self.is_function(f).then_some((f, order))
    }

    /// Whether `symbol` is a given function of time.
    fn is_function(&self, symbol: Handle) -> bool {
        self.functions.contains(&symbol)
    }

    /// `X(f) = Σ_i X^i ∂f/∂x^i` for a vector field `X` on the base (time first).
    pub fn apply_base_field(&self, field: &[Expr], f: &Expr) -> Expr {
        field
            .iter()
            .enumerate()
            .filter(|(_, coefficient)| !coefficient.is_zero())
            .fold(Expr::zero(), |acc, (i, coefficient)| {
                acc + coefficient.clone() * self.partial_base(f, i)
            })
    }

    /// The acceleration-level form of a constraint `Ψ`: its derivative along a curve whose
    /// accelerations are the rate symbols `ẏ^α`, `(ρ_0 + y^γ ρ_γ)(Ψ) + ∂Ψ/∂y^α ẏ^α`. For a holonomic
    /// constraint `f` this is `f̈`. Simplified.
    pub fn acceleration_level(&self, c: &Constraint) -> Expr {
        let velocities = &self.algebroid.velocities;
        velocities
            .iter()
            .zip(&c.mu)
            .fold(
                self.apply_base_field(&self.admissible_velocity(), &c.psi),
                |acc, (y, mu)| acc + mu.clone() * self.expr(self.symbols.rate(*y)),
            )
            .simplify()
    }

    /// The anchor of a point `e_0 + y^α e_α` of the affgebroid: `ρ_0 + y^α ρ_α`.
    pub fn admissible_velocity(&self) -> Vec<Expr> {
        let alg = &self.algebroid;
        (0..alg.anchor0.len())
            .map(|i| {
                alg.velocities
                    .iter()
                    .zip(&alg.anchors)
                    .fold(alg.anchor0[i].clone(), |acc, (y, rho)| {
                        acc + self.expr(*y) * rho[i].clone()
                    })
                    .simplify()
            })
            .collect()
    }

    /// Whether anything in the system depends on time explicitly.
    pub fn is_time_dependent(&self) -> bool {
        let depends = |e: &Expr| {
            e.symbols().iter().any(|s| {
                let s = self.handle(s);
                s == self.time || self.function_order(s).is_some()
            })
        };
        depends(&self.lagrangian)
            || self.constraints.iter().any(|c| depends(&c.psi))
            || self.forces.iter().any(depends)
            || self.algebroid.anchors.iter().flatten().any(depends)
            || self.algebroid.c0.iter().flatten().any(depends)
            || self.algebroid.c.iter().flatten().flatten().any(depends)
            || self.algebroid.anchor0[1..].iter().any(|e| !e.is_zero())
    }

    /// Whether the algebroid is `algebroid tangent`, so that `q'` is the velocity of the
    /// coordinate `q` (and `q''` its rate).
    pub fn is_tangent(&self) -> bool {
        self.scope.tangent
    }

    /// A symbol spelled in the spec's expression syntax (`x'`, `Omega'(t)`, `lambda1`).
    pub fn spec_name(&self, symbol: Handle) -> String {
        let time = self.key(self.time);
        match self.symbols.kind(symbol) {
            Kind::Named(name) if self.is_function(symbol) => format!("{name}({time})"),
            Kind::Named(name) => name,
            Kind::Velocity(q) => format!("{}'", self.key(q)),
            Kind::Rate(s) => format!("{}'", self.spec_name(s)),
            Kind::FunctionDerivative(f, k) => {
                format!("{}{}({time})", self.key(f), "'".repeat(k as usize))
            }
            Kind::Multiplier(a) => format!("lambda{a}"),
            Kind::Next(q) => format!("{}_next", self.key(q)),
            Kind::Half(v) => format!("{}_half", self.key(v)),
            Kind::Step if self.declares("h") => "h_step".to_string(),
            Kind::Step => "h".to_string(),
        }
    }

    /// Whether the spec declares `name` (a parameter, coordinate, …).
    fn declares(&self, name: &str) -> bool {
        self.scope.names.contains_key(name)
    }

    /// A symbol spelled in LaTeX (dots for time derivatives, Greek letters, subscripts; the
    /// spec's `latex { }` block first).
    pub fn latex_name(&self, symbol: Handle) -> String {
        if let Some(text) = self.latex.get(&self.key(symbol)) {
            return text.clone();
        }
        let time = latex_symbol(&self.key(self.time));
        match self.symbols.kind(symbol) {
            Kind::Named(name) if self.is_function(symbol) => {
                format!("{}({time})", latex_symbol(&name))
            }
            Kind::Named(name) => latex_symbol(&name),
            Kind::Velocity(q) => self.dotted(&self.key(q), "\\dot"),
            Kind::Rate(s) => match self.symbols.kind(s) {
                Kind::Velocity(q) => self.dotted(&self.key(q), "\\ddot"),
                _ => self.dotted(&self.key(s), "\\dot"),
            },
            Kind::FunctionDerivative(f, k) => format!(
                "{}{}({time})",
                latex_symbol(&self.key(f)),
                "'".repeat(k as usize)
            ),
            Kind::Multiplier(a) => format!("\\lambda_{{{a}}}"),
            Kind::Next(q) => step_subscript(&self.latex_name(q), "k+1"),
            Kind::Half(v) => step_subscript(&self.latex_name(v), "k+1/2"),
            Kind::Step if self.declares("h") => "h_{\\mathrm{step}}".to_string(),
            Kind::Step => "h".to_string(),
        }
    }
}

/// `name` with the step subscript `k+1` or `k+1/2`: `{x_{1}}_{k+1}`, or for a dotted name the
/// subscripts merged, `\dot{x}_{1,k+1/2}` and `\dot{\theta}_{k+1/2}` (amsmath's accents make
/// `{\dot{x}_{1}}_{k+1/2}` a double subscript).
fn step_subscript(name: &str, step: &str) -> String {
    let accent = ["\\dot{", "\\ddot{"]
        .iter()
        .find(|a| name.starts_with(*a))
        .map(|a| a.len());
    if let Some(open) = accent {
        if let Some(close) = name[open..].find('}').map(|i| open + i) {
            let (base, rest) = name.split_at(close + 1);
            if !base[open..close].contains('{') {
                if rest.is_empty() {
                    return format!("{base}_{{{step}}}");
                }
                if let Some(inner) = rest.strip_prefix("_{").and_then(|r| r.strip_suffix('}')) {
                    if !inner.contains(['{', '}']) {
                        return format!("{base}_{{{inner},{step}}}");
                    }
                }
            }
        }
        // Another shape: an empty group carries the subscript.
        return format!("{{{name}}}{{}}_{{{step}}}");
    }
    format!("{{{name}}}_{{{step}}}")
}

#[cfg(test)]
mod step_subscript_tests {
    use super::step_subscript;

    #[test]
    fn dotted_names_merge_their_subscripts() {
        assert_eq!(step_subscript("x", "k+1"), "{x}_{k+1}");
        assert_eq!(step_subscript("w_{1}", "k+1/2"), "{w_{1}}_{k+1/2}");
        assert_eq!(
            step_subscript("\\dot{\\theta}", "k+1/2"),
            "\\dot{\\theta}_{k+1/2}"
        );
        assert_eq!(
            step_subscript("\\dot{x}_{1}", "k+1/2"),
            "\\dot{x}_{1,k+1/2}"
        );
        assert_eq!(
            step_subscript("\\dot{x}_{\\mathrm{a}}", "k+1/2"),
            "{\\dot{x}_{\\mathrm{a}}}{}_{k+1/2}"
        );
    }
}

impl cas::print::Names for System {
    fn spell(&self, symbol: &str, spelling: cas::print::Spelling) -> String {
        if symbol == cas::PI_NAME {
            // π: `pi` in the spec's syntax and in Python (SymPy's constant), `\pi` in LaTeX.
            return match spelling {
                cas::print::Spelling::Latex => "\\pi".into(),
                _ => "pi".into(),
            };
        }
        match spelling {
            cas::print::Spelling::Spec => self.spec_name(self.handle(symbol)),
            cas::print::Spelling::Latex => self.latex_name(self.handle(symbol)),
            cas::print::Spelling::Identifier => {
                crate::identifiers::identifier(&self.symbols, self.handle(symbol))
            }
        }
    }
}

impl System {
    /// `name` with an accent on its stem: `\dot{u}_{1}` for `u1`.
    fn dotted(&self, name: &str, accent: &str) -> String {
        if let Some(text) = self.latex.get(name) {
            // The accent goes over the letter, not over its subscript: `\dot{\theta}_1`.
            return match split_tex_subscript(text) {
                Some((base, sub)) => format!("{accent}{{{base}}}_{sub}"),
                None => format!("{accent}{{{text}}}"),
            };
        }
        let (stem, subscript) = split_subscript(name);
        let stem = stem_tex(stem);
        match subscript {
            Some(sub) => format!(
                "{accent}{{{stem}}}_{{{}}}",
                greek(sub).unwrap_or_else(|| sub.to_string())
            ),
            None => format!("{accent}{{{stem}}}"),
        }
    }
}

/// A LaTeX symbol with a subscript at its top level split into the letter and the subscript
/// (`\theta_1` → (`\theta`, `1`), `x_{ab}` → (`x`, `{ab}`)); `None` without one, or when
/// something follows the subscript.
fn split_tex_subscript(text: &str) -> Option<(&str, &str)> {
    let mut depth = 0_i32;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            '_' if depth == 0 && i > 0 => {
                let sub = &text[i + 1..];
                let whole = if let Some(inner) = sub.strip_prefix('{') {
                    inner.find('}').is_some_and(|end| end + 2 == sub.len())
                } else {
                    sub.chars().count() == 1
                        || sub.starts_with('\\') && !sub[1..].contains(['\\', '_', '^', '{'])
                };
                return whole.then(|| (&text[..i], sub));
            }
            _ => {}
        }
    }
    None
}

const GREEK: [&str; 24] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "varphi",
];

/// A user name in LaTeX: Greek words become letters (`Omega` → `\Omega`), a trailing number or an
/// `_suffix` becomes a subscript (`w1` → `w_{1}`, `theta_2` → `\theta_{2}`), and other
/// multi-letter names are set upright.
pub fn latex_symbol(name: &str) -> String {
    let (stem, subscript) = split_subscript(name);
    let stem_tex = stem_tex(stem);
    match subscript {
        Some(sub) => format!(
            "{stem_tex}_{{{}}}",
            greek(sub).unwrap_or_else(|| sub.to_string())
        ),
        None => stem_tex,
    }
}

/// The stem of a name in LaTeX: a Greek letter, a single letter, or an upright word (accents
/// then wrap the whole stem: `\dot{\mathrm{th}}_{1}`).
fn stem_tex(stem: &str) -> String {
    greek(stem).unwrap_or_else(|| {
        if stem.chars().count() == 1 {
            stem.to_string()
        } else {
            format!("\\mathrm{{{stem}}}")
        }
    })
}

fn split_subscript(name: &str) -> (&str, Option<&str>) {
    if let Some((stem, sub)) = name.split_once('_') {
        if !stem.is_empty() && !sub.is_empty() {
            return (stem, Some(sub));
        }
    }
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && digits < name.len() {
        let (stem, sub) = name.split_at(name.len() - digits);
        return (stem, Some(sub));
    }
    (name, None)
}

fn greek(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    if !GREEK.contains(&lower.as_str()) {
        return None;
    }
    let capital = word.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let has_capital = !matches!(
        lower.as_str(),
        "alpha"
            | "beta"
            | "epsilon"
            | "zeta"
            | "eta"
            | "iota"
            | "kappa"
            | "mu"
            | "nu"
            | "rho"
            | "tau"
            | "chi"
            | "varphi"
    );
    Some(if capital && has_capital {
        let mut chars = lower.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
        format!("\\{first}{}", chars.as_str())
    } else if capital {
        // A capital Greek letter that looks like a Latin one prints as that letter.
        latin_capital(&lower).to_string()
    } else {
        format!("\\{lower}")
    })
}

/// The Latin letter a Greek capital without a LaTeX command of its own looks like.
fn latin_capital(lower: &str) -> &'static str {
    match lower {
        "alpha" => "A",
        "beta" => "B",
        "epsilon" => "E",
        "zeta" => "Z",
        "eta" => "H",
        "iota" => "I",
        "kappa" => "K",
        "mu" => "M",
        "nu" => "N",
        "rho" => "P",
        "tau" => "T",
        "chi" => "X",
        _ => "\\Phi",
    }
}

#[cfg(test)]
mod tests {
    use super::{latex_symbol, split_tex_subscript};

    /// A user's `latex { theta1 = "\\theta_1" }` gets its dot over the letter: `\dot{\theta}_1`.
    #[test]
    fn accents_go_over_the_letter_not_the_subscript() {
        assert_eq!(split_tex_subscript("\\theta_1"), Some(("\\theta", "1")));
        assert_eq!(split_tex_subscript("\\varphi_L"), Some(("\\varphi", "L")));
        assert_eq!(split_tex_subscript("x_{ab}"), Some(("x", "{ab}")));
        assert_eq!(split_tex_subscript("\\theta"), None);
        assert_eq!(split_tex_subscript("x_{a}^{2}"), None);
        assert_eq!(split_tex_subscript("{x_1}"), None);
    }

    #[test]
    fn latex_names() {
        assert_eq!(latex_symbol("Omega"), "\\Omega");
        assert_eq!(latex_symbol("w1"), "w_{1}");
        assert_eq!(latex_symbol("theta_2"), "\\theta_{2}");
        assert_eq!(latex_symbol("m"), "m");
        assert_eq!(latex_symbol("mass"), "\\mathrm{mass}");
        assert_eq!(latex_symbol("omega_x"), "\\omega_{x}");
        // As docs/latex.md states: digits are a subscript, abbreviations are not guessed.
        assert_eq!(latex_symbol("theta1"), "\\theta_{1}");
        assert_eq!(latex_symbol("th1"), "\\mathrm{th}_{1}");
        assert_eq!(latex_symbol("Alpha"), "A");
    }
}
