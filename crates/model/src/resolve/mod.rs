//! From syntax tree to [`System`]: declarations first, then the algebroid ([`algebroid`]), then
//! the dynamics ([`dynamics`]), the frame and symmetries ([`frames`]), and last the `expect`
//! blocks ([`expect`], with their [`keys`] and [`target`]s).

mod algebroid;
mod bodies;
mod dynamics;
mod expect;
mod fields;
mod frames;
mod group;
#[cfg(test)]
mod joint_frame_tests;
mod keys;
mod kind_keys;
mod lets;
mod target;

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::{Deferred, Expr};
use diagnostic::Diagnostic;
use syntax::ast::{ConstraintKind, Equation, Ident, ItemKind, Span, Spec};

use crate::multibody::kinematics::Kinematics;
use crate::multibody::terms::FormedTerms;
use crate::multibody::Multibody;
use crate::names;
use crate::scope::{describe, NameKind, Scope, ScopeKind};
use crate::symbols::Handle;
use crate::system::{Algebroid, AlgebroidKind, GivenHamiltonian, System};
use dynamics::ReadLagrangian;

/// E0203: `name` declared (or bound by `let`) a second time; `again` labels this place, and
/// `first` the place and label of the first declaration.
fn declared_twice(name: &Ident, again: &str, (span, label): (Span, String)) -> Diagnostic {
    Diagnostic::error(
        Code::E0203,
        format!("`{}` is declared twice", name.name),
        name.span,
        again,
    )
    .with_secondary(span, label)
}

/// Resolves a parsed spec into a [`System`], collecting every diagnostic it can.
pub fn resolve(spec: &Spec) -> diagnostic::Result<System> {
    if spec.items.is_empty() {
        return Err(vec![Diagnostic::error(
            Code::E0200,
            "the spec is empty",
            Span::new(0, 0),
            "expected a spec here",
        )
        .with_help(
            "a spec starts with `system NAME`; see docs/spec-language.md",
        )]);
    }
    let (spec, bound, let_errors) = lets::expanded(spec);
    let spec = &spec;
    let mut r = Resolver::default();
    r.declarations(spec);
    r.errors.extend(let_errors);
    r.check_bound_names(&bound);
    let items = bodies::Items::of(spec);
    let read = if items.present() {
        timing::timed("bodies", || r.read_bodies(spec, &items))
    } else {
        r.read_lagrangian(spec)
    };
    // A spec whose algebroid could not be read stops here; otherwise every item is read
    // before the errors are reported.
    let Some(Read {
        algebroid,
        lagrangian,
        hamiltonian,
        constraints,
        forces,
        multibody,
    }) = read
    else {
        return Err(r.errors);
    };
    let vakonomic = r.constraints(spec, &[ConstraintKind::Vakonomic]);
    let discrete = r.discrete(spec);
    r.one_kind_of_constraints(spec);
    let latex = r.latex(spec);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let (Some(algebroid), Some((lagrangian, lagrangian_terms, lagrangian_formed, lagrangian_span))) =
        (algebroid, lagrangian)
    else {
        return Err(r.errors);
    };
    let mut system = System {
        name: r.system_name.clone().unwrap_or_default(),
        time: r.scope.symbols.handle(&r.scope.time),
        parameters: r.symbols_of_kind(NameKind::Parameter),
        functions: r.symbols_of_kind(NameKind::Function),
        coordinates: r.handles(&r.coordinates),
        inputs: r.symbols_of_kind(NameKind::Input),
        algebroid,
        symbols: r.scope.symbols.clone(),
        lagrangian,
        lagrangian_terms,
        lagrangian_formed,
        lagrangian_span,
        hamiltonian,
        constraints: Vec::new(),
        vakonomic: Vec::new(),
        action: r.symbols_of_kind(NameKind::Action).into_iter().next(),
        frame: None,
        symmetries: Vec::new(),
        groups: Vec::new(),
        forces,
        latex,
        expectations: Vec::new(),
        scope: Scope::default(),
        multibody,
        discrete,
    };
    system.constraints = r.shape_constraints(&system, constraints);
    system.vakonomic = r.shape_constraints(&system, vakonomic);
    system.frame = r.frame(spec, &system);
    system.symmetries = r.symmetries(spec, &system);
    system.groups = r.groups(spec, &system);
    // The reduced shape velocities, unless the spec names them, are printed as the dotted shape
    // coordinates.
    let (_, shape_velocities) = system.shape_names();
    let shape = system.shape_indices();
    // (On an algebroid the reduced system keeps the spec's own velocities.)
    let named = system.algebroid.kind != AlgebroidKind::Tangent
        || system
            .groups
            .first()
            .is_none_or(|g| !g.shape_names.1.is_empty());
    for (i, v) in shape.into_iter().zip(shape_velocities).filter(|_| !named) {
        let q = system.key(system.coordinates[i]);
        let tex = system
            .latex
            .get(&q)
            .cloned()
            .unwrap_or_else(|| crate::latex_symbol(&q));
        system.latex.insert(v, format!("\\dot{{{tex}}}"));
    }
    r.check_structure(&mut system);
    r.scope.multipliers = system.constraints.len();
    system.scope = r.scope.clone();
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    system.expectations = expect::expectations(&system, spec)?;
    Ok(system)
}

/// What the spec says about the dynamics, read from a Lagrangian or from bodies and joints.
struct Read {
    algebroid: Option<Algebroid>,
    lagrangian: Option<ReadLagrangian>,
    hamiltonian: Option<GivenHamiltonian>,
    constraints: Vec<RawConstraint>,
    forces: Vec<Expr>,
    multibody: Option<Multibody>,
}

impl Resolver {
    /// The algebroid, Lagrangian, constraints and forces as written.
    fn read_lagrangian(&mut self, spec: &Spec) -> Option<Read> {
        let algebroid_item = self.algebroid_item(spec);
        if !self.errors.is_empty() {
            return None;
        }
        let Some((alg_ast, alg_span)) = algebroid_item else {
            self.errors
                .push(missing("algebroid", "algebroid tangent", spec));
            return None;
        };
        self.algebroid_span = alg_span;
        self.algebroid_names(alg_ast, alg_span);
        if !self.errors.is_empty() {
            return None;
        }
        let algebroid = self.algebroid(alg_ast, alg_span);
        let (lagrangian, hamiltonian) = self.lagrangian(spec, algebroid.as_ref());
        let constraints = self.constraints(
            spec,
            &[ConstraintKind::Nonholonomic, ConstraintKind::Holonomic],
        );
        let forces = algebroid
            .as_ref()
            .map(|alg| self.forces(spec, alg))
            .unwrap_or_default();
        Some(Read {
            algebroid,
            lagrangian,
            hamiltonian,
            constraints,
            forces,
            multibody: None,
        })
    }

    /// The algebroid, Lagrangian, constraints and forces of the bodies and joints (see
    /// [`crate::multibody`]), with the spec's own constraints and forces added.
    fn read_bodies(&mut self, spec: &Spec, items: &bodies::Items) -> Option<Read> {
        self.bodies_alone(spec, items);
        self.declare_bodies(items);
        if !self.errors.is_empty() {
            return None;
        }
        let multibody = self.multibody(items)?;
        let kinematics = timing::timed("kinematics", || {
            Kinematics::of(&multibody, &self.scope.symbols)
        });
        let span = items.span();
        self.algebroid_span = span;
        let algebroid = timing::timed("joint algebroid", || {
            self.joint_algebroid(&multibody, &kinematics, span)
        });
        let mut constraints = self.constraints(
            spec,
            &[ConstraintKind::Nonholonomic, ConstraintKind::Holonomic],
        );
        let contacts = timing::timed("contacts", || {
            self.contact_constraints(&multibody, &kinematics, &algebroid.velocities, &constraints)
        });
        constraints.extend(contacts);
        let formed = FormedTerms::of_bodies(multibody.clone(), kinematics);
        let shown: Deferred<Vec<Expr>> = {
            let formed = formed.clone();
            Deferred::new(move || formed.shown())
        };
        let lagrangian = {
            let shown = shown.clone();
            Deferred::new(move || Expr::sum(shown.get().iter().cloned()))
        };
        let mut forces = self.forces(spec, &algebroid);
        for joint in &multibody.joints {
            for (&a, f) in joint.sections.iter().zip(&joint.forces) {
                forces[a] = forces[a].clone() + f.clone();
            }
        }
        Some(Read {
            algebroid: Some(algebroid),
            lagrangian: Some((lagrangian, shown, formed, span)),
            hamiltonian: None,
            constraints,
            forces,
            multibody: Some(multibody),
        })
    }
}

/// A constraint as read.
struct RawConstraint {
    /// `Ψ` (for a holonomic constraint, `f`): left-hand side minus right-hand side.
    value: Expr,
    /// The symbol written alone on its left-hand side, if any.
    alone: Option<String>,
    /// Where it is written.
    span: Span,
    /// Whether it is a position-level constraint (`constraints holonomic`).
    holonomic: bool,
}

#[derive(Default)]
struct Resolver {
    scope: Scope,
    /// Where each anchor line is (0 = e0), for structure-equation diagnostics.
    anchor_spans: BTreeMap<usize, Span>,
    /// Where each bracket line is, by sorted pair of extended indices (0 = e0).
    bracket_spans: BTreeMap<(usize, usize), Span>,
    /// The algebroid item.
    algebroid_span: Span,
    errors: Vec<Diagnostic>,
    system_name: Option<String>,
    coordinates: Vec<String>,
    declared_order: Vec<(String, NameKind)>,
}

fn missing(what: &str, example: &str, spec: &Spec) -> Diagnostic {
    let end = spec.items.last().map(|i| i.span.end).unwrap_or(0);
    Diagnostic::error(
        Code::E0201,
        format!("the spec has no `{what}` line"),
        Span::new(end, end),
        format!("expected `{what}` somewhere in the file"),
    )
    .with_help(format!("add a line such as `{example}`"))
}
/// `a`, `a or b`, `a, b or c`.
fn one_of(names: &[String]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

impl Resolver {
    /// The `discrete` item (the first, if it is given twice: E0204 is reported already); E0296
    /// when it names no known discrete Lagrangian.
    fn discrete(&mut self, spec: &Spec) -> Option<crate::discrete::Discrete> {
        use crate::discrete::{Discrete, Discretisation};
        let (name, span) = spec.items.iter().find_map(|item| match &item.kind {
            ItemKind::Discrete(name) => Some((name, item.span)),
            _ => None,
        })?;
        let known = Discretisation::ALL
            .iter()
            .find(|d| d.name() == name.name)
            .copied();
        if known.is_none() {
            let names: Vec<String> = Discretisation::ALL
                .iter()
                .map(|d| format!("`{}`", d.name()))
                .collect();
            self.errors.push(
                Diagnostic::error(
                    Code::E0296,
                    format!("unknown discrete Lagrangian `{}`", name.name),
                    name.span,
                    format!("expected {}", one_of(&names)),
                )
                .with_help("`discrete midpoint` and `discrete trapezoidal` derive the discrete equations of the midpoint and trapezoidal rules (on `algebroid tangent`), `discrete cayley` the Lie group variational integrator on `algebroid so3` and its action algebroids (the heavy top) in the Cayley chart, `discrete lgvi` Lee, Leok and McClamroch's, whose discrete Lagrangian is (1/h) tr[(I - F) J_d]"),
            );
        }
        known.map(|method| Discrete { method, span })
    }

    /// Refuses a name bound by `let` that the spec also declares.
    fn check_bound_names(&mut self, bound: &[Ident]) {
        for name in bound {
            if let Some((kind, span)) = self.scope.names.get(&name.name) {
                let first = format!("declared here as {}", describe(kind));
                let error = declared_twice(name, "bound here by `let`", (*span, first));
                self.errors.push(error);
            }
        }
    }

    pub(super) fn declare(&mut self, ident: &Ident, kind: NameKind) {
        if let Some(problem) = names::user_name_problem(&ident.name) {
            self.errors.push(Diagnostic::error(
                Code::E0202,
                format!("`{}` cannot be used as a name", ident.name),
                ident.span,
                problem,
            ));
            return;
        }
        if let Some((previous, span)) = self.scope.names.get(&ident.name) {
            let again = format!("declared again here as {}", describe(&kind));
            let first = format!("first declared here as {}", describe(previous));
            let error = declared_twice(ident, &again, (*span, first));
            self.errors.push(error);
            return;
        }
        self.scope
            .names
            .insert(ident.name.clone(), (kind.clone(), ident.span));
        self.declared_order.push((ident.name.clone(), kind));
    }

    pub(super) fn of_kind(&self, kind: NameKind) -> Vec<String> {
        self.declared_order
            .iter()
            .filter(|(_, k)| *k == kind)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The symbols of the declared names of `kind`, in the order declared.
    pub(super) fn symbols_of_kind(&self, kind: NameKind) -> Vec<Handle> {
        self.handles(&self.of_kind(kind))
    }

    /// The velocity `q'` of the coordinate spelled `q`.
    pub(super) fn velocity(&self, q: &str) -> Handle {
        let symbols = &self.scope.symbols;
        symbols.velocity(symbols.handle(q))
    }

    /// The symbols of declared names (each its own key).
    pub(super) fn handles(&self, names: &[String]) -> Vec<Handle> {
        names.iter().map(|n| self.scope.symbols.handle(n)).collect()
    }

    pub(super) fn once(
        &mut self,
        seen: &mut BTreeMap<&'static str, Span>,
        what: &'static str,
        span: Span,
    ) -> bool {
        if let Some(first) = seen.get(what) {
            self.errors.push(
                Diagnostic::error(
                    Code::E0204,
                    format!("`{what}` is given twice"),
                    span,
                    "given again here",
                )
                .with_secondary(*first, "first given here"),
            );
            return false;
        }
        seen.insert(what, span);
        true
    }

    pub(super) fn declarations(&mut self, spec: &Spec) {
        let mut seen = BTreeMap::new();
        let time = spec.items.iter().find_map(|item| match &item.kind {
            ItemKind::Time(t) => Some(t.clone()),
            _ => None,
        });
        let time = time.unwrap_or(Ident {
            name: "t".into(),
            span: Span::default(),
        });
        self.scope.time = time.name.clone();
        self.declare(&time, NameKind::Time);
        for item in &spec.items {
            match &item.kind {
                ItemKind::System(name) if self.once(&mut seen, "system", item.span) => {
                    self.system_name = Some(name.name.clone());
                }
                ItemKind::Time(_) => {
                    self.once(&mut seen, "time", item.span);
                }
                ItemKind::Parameters(list) => list
                    .iter()
                    .for_each(|p| self.declare(p, NameKind::Parameter)),
                ItemKind::Inputs(list) => {
                    list.iter().for_each(|p| self.declare(p, NameKind::Input))
                }
                ItemKind::Functions(list) => {
                    for f in list {
                        if f.argument.name != self.scope.time {
                            self.errors.push(
                                Diagnostic::error(
                                    Code::E0205,
                                    format!(
                                        "`{}` must be a function of the time variable `{}`",
                                        f.name.name, self.scope.time
                                    ),
                                    f.argument.span,
                                    "not the time variable",
                                )
                                .with_help(format!("write `{}({})`", f.name.name, self.scope.time)),
                            );
                        }
                        self.declare(&f.name, NameKind::Function);
                    }
                }
                ItemKind::Coordinates(list) => {
                    for q in list {
                        self.declare(q, NameKind::Coordinate);
                        self.coordinates.push(q.name.clone());
                    }
                }
                ItemKind::Momenta(list) => list
                    .iter()
                    .for_each(|p| self.declare(p, NameKind::Momentum)),
                ItemKind::Action(z) => self.declare(z, NameKind::Action),
                ItemKind::Lagrangian(_) => {
                    self.once(&mut seen, "lagrangian", item.span);
                }
                ItemKind::Hamiltonian(_) => {
                    self.once(&mut seen, "hamiltonian", item.span);
                }
                ItemKind::Discrete(_) => {
                    self.once(&mut seen, "discrete", item.span);
                }
                _ => {}
            }
        }
        if self.system_name.is_none() {
            self.errors
                .push(missing("system", "system my_system", spec));
        }
    }

    pub(super) fn equation(&mut self, eq: &Equation) -> Option<Expr> {
        let lhs = self.scope.convert(&eq.lhs, ScopeKind::Observable);
        let rhs = self.scope.convert(&eq.rhs, ScopeKind::Observable);
        match (lhs, rhs) {
            (Ok(a), Ok(b)) => Some(a - b),
            (a, b) => {
                self.errors.extend(a.err().unwrap_or_default());
                self.errors.extend(b.err().unwrap_or_default());
                None
            }
        }
    }

    pub(super) fn latex(&mut self, spec: &Spec) -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        for item in &spec.items {
            let ItemKind::Latex(list) = &item.kind else {
                continue;
            };
            for o in list {
                let internal = match self.scope.names.get(&o.name.name) {
                    Some(_) => o.name.name.clone(),
                    None => {
                        self.errors.push(Diagnostic::error(
                            Code::E0241,
                            format!("`latex` names an undeclared `{}`", o.name.name),
                            o.name.span,
                            "not declared",
                        ));
                        continue;
                    }
                };
                map.insert(internal, o.text.clone());
            }
        }
        map
    }
}
