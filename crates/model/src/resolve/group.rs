//! The `symmetry NAME on q1, q2 { … }` items: a Lie group acting on named coordinates
//! ([`crate::group`]). What is checked here needs no derivation: the system is on `algebroid
//! tangent`, the coordinates are declared and moved by one group only, a named group gets the
//! coordinates it acts on, generators are vector fields on `Q` with one per moved coordinate, and
//! the names of the reduced sections and velocities are new. That the generators close and that
//! the Lagrangian and constraints are invariant is `mech::reduction`'s to prove.

use cas::Expr;
use diagnostic::Code;
use diagnostic::Diagnostic;
use syntax::ast::{GroupDecl, GroupLineKind, Ident, ItemKind, Span, Spec};

use super::Resolver;
use crate::algebroid::read_anchor;
use crate::group::{ConnectionChoice, GroupAction, NamedGroup, Side};
use crate::symbols::Handle;
use crate::system::{AlgebroidKind, System};

const CODE: Code = Code::E0280;

impl Resolver {
    /// Every `symmetry … on …` item, resolved; diagnostics go to `self.errors`.
    pub(super) fn groups(&mut self, spec: &Spec, system: &System) -> Vec<GroupAction> {
        let mut out: Vec<GroupAction> = Vec::new();
        let mut moved_by: Vec<Option<Span>> = vec![None; system.coordinates.len()];
        for item in &spec.items {
            let ItemKind::Group(decl) = &item.kind else {
                continue;
            };
            if system.algebroid.kind != AlgebroidKind::Tangent && !self.on_sections(decl, system) {
                continue;
            }
            let offset = out.iter().map(|g| g.moved.len()).sum::<usize>();
            if let Some(group) = self.group(decl, item.span, system, &mut moved_by, offset) {
                out.push(group);
            }
        }
        let shape = moved_by.iter().filter(|m| m.is_none()).count();
        if let Some(first) = out.first() {
            let named = [
                &first.shape_names.0,
                &first.shape_names.1,
                &first.shape_names.2,
            ];
            if named.iter().any(|n| !n.is_empty() && n.len() != shape) {
                self.errors.push(
                    Diagnostic::error(
                        CODE,
                        format!("the names of the reduced sections do not match the {shape} shape coordinates"),
                        first.span,
                        format!("expected {} or {} names in each list", first.generators.len(), first.generators.len() + shape),
                    )
                    .with_note("a list longer than the group's dimension names the shape's sections first, one per coordinate not after `on`"),
                );
            }
        }
        out
    }

    /// A group declared on a system already written on an algebroid (a `spherical` or `free`
    /// joint, or an `algebroid {}` block) reduces it as written: the spec's sections must be
    /// invariant (`mech::reduction` proves it), and they are the reduced sections. So the block
    /// may not rename them, choose a connection or fix a momentum; each such line is refused.
    /// Returns whether the item can be resolved.
    fn on_sections(&mut self, decl: &GroupDecl, system: &System) -> bool {
        let before = self.errors.len();
        if matches!(system.algebroid.kind, AlgebroidKind::LieAlgebra(_))
            || system.coordinates.is_empty()
        {
            self.errors.push(
                Diagnostic::error(
                    CODE,
                    "a symmetry group acts on configuration coordinates, and this system has none",
                    decl.name.span,
                    "the system is already a Lie algebra",
                )
                .with_note("a system on a Lie algebra is already reduced"),
            );
        }
        for line in &decl.body {
            let what = match &line.kind {
                GroupLineKind::Sections(_) => "`sections`",
                GroupLineKind::Velocities(_) => "`velocities`",
                GroupLineKind::Momenta(_) => "`momenta`",
                GroupLineKind::Connection(_) | GroupLineKind::ConnectionForm(_) => "`connection`",
                GroupLineKind::Momentum(_) => "`momentum`",
                _ => continue,
            };
            self.errors.push(
                Diagnostic::error(
                    CODE,
                    format!("{what} is not allowed when the system is written on an algebroid"),
                    line.span,
                    "the reduced sections are the spec's own",
                )
                .with_note("on an algebroid (a `spherical` or `free` joint, or an `algebroid {}` block) the group is reduced on the spec's sections, which must be invariant: they keep their names and need no connection; Routh's method needs `algebroid tangent`"),
            );
        }
        self.errors.len() == before
    }

    fn group(
        &mut self,
        decl: &GroupDecl,
        span: Span,
        system: &System,
        moved_by: &mut [Option<Span>],
        offset: usize,
    ) -> Option<GroupAction> {
        let before = self.errors.len();
        let moved = self.moved_coordinates(decl, system, moved_by);
        let generator_lines: Vec<(&Ident, &syntax::ast::Expr, Span)> = decl
            .body
            .iter()
            .filter_map(|line| match &line.kind {
                GroupLineKind::Generator { name, value } => Some((name, value, line.span)),
                _ => None,
            })
            .collect();
        let named = NamedGroup::parse(&decl.name.name);
        if generator_lines.is_empty() {
            match named {
                None => self.errors.push(
                    Diagnostic::error(
                        CODE,
                        format!("`{}` is not a group dalembert knows by name", decl.name.name),
                        decl.name.span,
                        "expected a named group or `generator` lines",
                    )
                    .with_help("name one of translations, SO2, SE2, SO3, or give the action's generators: `symmetry G on x { generator xi1 = d/dx }`"),
                ),
                Some(group) => {
                    if !group.acts_on(moved.len()) && self.errors.len() == before {
                        self.errors.push(Diagnostic::error(
                            CODE,
                            format!("{} does not act on {} coordinates", decl.name.name, moved.len()),
                            list_span(&decl.coordinates, decl.name.span),
                            format!("expected {}", group.expected_coordinates()),
                        ));
                    }
                    let tangent = system.algebroid.kind == AlgebroidKind::Tangent;
                    if tangent && group.is_quaternion_chart(moved.len()) && self.errors.len() == before {
                        self.errors.push(
                            Diagnostic::error(
                                CODE,
                                format!("{} on a quaternion needs the body angular velocities as the system's velocities", decl.name.name),
                                list_span(&decl.coordinates, decl.name.span),
                                "a quaternion has one coordinate more than the rotation group",
                            )
                            .with_note("on `algebroid tangent` the quaternion's four rates are velocities and |q| moves; write the rotation with a `spherical` or `free` joint (whose velocities are the body angular velocity), or use the Euler angles `yaw, pitch, roll`"),
                        );
                    }
                }
            }
        }
        let side = self.side(decl);
        if self.errors.len() != before {
            return None;
        }
        let coordinates: Vec<Handle> = moved.iter().map(|&i| system.coordinates[i]).collect();
        let keys = system.exprs(&coordinates);
        let n = system.coordinates.len();
        let spread = |local: Vec<Vec<Expr>>| -> Vec<Vec<Expr>> {
            local
                .into_iter()
                .map(|v| {
                    let mut full = vec![Expr::zero(); n];
                    for (k, &i) in moved.iter().enumerate() {
                        full[i] = v[k].clone();
                    }
                    full
                })
                .collect()
        };
        let (generators, frame, generator_names, generator_spans, named) = if generator_lines
            .is_empty()
        {
            let group = named.expect("checked above");
            let (xi, eta) = group.fields(&keys, side);
            let names = xi
                .iter()
                .map(|v| field_text(v, &coordinates, system))
                .collect();
            let spans = vec![span; xi.len()];
            (spread(xi), Some(spread(eta)), names, spans, Some(group))
        } else {
            let (fields, names, spans) = self.generators(&generator_lines, system, moved.len())?;
            (fields, None, names, spans, None)
        };
        let dim = generators.len();
        let connection = self.connection(decl, system, dim)?;
        // The momenta of the moved coordinates are not names of the reduced system (on an
        // algebroid the reduced system keeps the spec's own names).
        let released: Vec<String> = if system.algebroid.kind == AlgebroidKind::Tangent {
            moved
                .iter()
                .map(|&i| system.key(system.algebroid.momenta[i]))
                .collect()
        } else {
            Vec::new()
        };
        // On an algebroid the reduced sections are the spec's own (`on_sections`).
        let (mut sections, mut velocities, mut momenta) =
            if system.algebroid.kind == AlgebroidKind::Tangent {
                self.reduced_names(decl, dim, offset, &released)?
            } else {
                (Vec::new(), Vec::new(), Vec::new())
            };
        let split = |names: &mut Vec<String>| -> Vec<String> {
            let shape = names.len().saturating_sub(dim);
            names.drain(..shape).collect()
        };
        let shape_names = (
            split(&mut sections),
            split(&mut velocities),
            split(&mut momenta),
        );
        let momentum_values = self.momentum_values(decl, dim)?;
        Some(GroupAction {
            name: decl.name.name.clone(),
            named,
            identity: named.map_or_else(|| vec![Expr::zero(); moved.len()], |g| g.identity(&keys)),
            transversal: named.map_or_else(Vec::new, |g| spread(g.transversal(&keys))),
            moved,
            generators,
            generator_names,
            frame,
            sections,
            velocities,
            momenta,
            connection,
            side,
            shape_names,
            momentum_values,
            span,
            generator_spans,
        })
    }

    /// The coordinates after `on`, as indices: declared, not repeated, not moved by another group.
    fn moved_coordinates(
        &mut self,
        decl: &GroupDecl,
        system: &System,
        moved_by: &mut [Option<Span>],
    ) -> Vec<usize> {
        let mut moved = Vec::new();
        for q in &decl.coordinates {
            let Some(i) = system.coordinate_named(&q.name) else {
                self.errors.push(Diagnostic::error(
                    CODE,
                    format!("`{}` is not a coordinate", q.name),
                    q.span,
                    "expected a name from the `coordinates` line",
                ));
                continue;
            };
            if let Some(first) = moved_by[i] {
                self.errors.push(
                    Diagnostic::error(
                        CODE,
                        format!("`{}` is moved by two groups", q.name),
                        q.span,
                        "named again here",
                    )
                    .with_secondary(first, "first named here")
                    .with_note("a product of groups is declared by several `symmetry … on …` items, each on its own coordinates"),
                );
                continue;
            }
            moved_by[i] = Some(q.span);
            moved.push(i);
        }
        moved
    }

    /// `generator NAME = …` lines: vector fields over the coordinates, one per moved coordinate.
    #[allow(clippy::type_complexity)]
    fn generators(
        &mut self,
        lines: &[(&Ident, &syntax::ast::Expr, Span)],
        system: &System,
        moved: usize,
    ) -> Option<(Vec<Vec<Expr>>, Vec<String>, Vec<Span>)> {
        let base = system.keys(&system.base());
        let mut fields = Vec::new();
        for (name, value, _) in lines {
            match read_anchor(&self.scope, value, &base) {
                Ok(rho) => {
                    if !rho[0].is_zero() {
                        self.errors.push(Diagnostic::error(
                            CODE,
                            format!(
                                "the generator `{}` has a `d/d{}` component",
                                name.name,
                                system.key(system.time)
                            ),
                            value.span,
                            "a generator is a vector field on Q",
                        ));
                    }
                    fields.push(rho[1..].to_vec());
                }
                Err(e) => self.errors.extend(e),
            }
        }
        if lines.len() != moved {
            let at = lines[0].2.join(lines[lines.len() - 1].2);
            self.errors.push(
                Diagnostic::error(
                    CODE,
                    format!("{} generators for {moved} moved coordinates", lines.len()),
                    at,
                    "expected one generator per coordinate after `on`",
                )
                .with_note("a free action of an r-dimensional group moves r coordinates of a chart Q = S × G"),
            );
        }
        if fields.len() != lines.len() || lines.len() != moved {
            return None;
        }
        let names = lines.iter().map(|(n, _, _)| n.name.clone()).collect();
        let spans = lines.iter().map(|(_, _, s)| *s).collect();
        Some((fields, names, spans))
    }

    /// The `momentum` line: one new name per generator, the values of the momenta at which the
    /// Routh reduction is made.
    fn momentum_values(&mut self, decl: &GroupDecl, dim: usize) -> Option<Vec<String>> {
        let Some((names, at)) = decl.body.iter().find_map(|l| match &l.kind {
            GroupLineKind::Momentum(v) => Some((v, l.span)),
            _ => None,
        }) else {
            return Some(Vec::new());
        };
        let before = self.errors.len();
        if names.len() != dim {
            self.errors.push(Diagnostic::error(
                CODE,
                format!(
                    "{} momentum values for a group of dimension {dim}",
                    names.len()
                ),
                at,
                format!("expected one name per generator ({dim})"),
            ));
        }
        for n in names {
            if let Some((kind, first)) = self.scope.names.get(&n.name) {
                self.errors.push(
                    Diagnostic::error(
                        CODE,
                        format!("`{}` is already declared", n.name),
                        n.span,
                        "expected a new name for the momentum value",
                    )
                    .with_secondary(
                        *first,
                        format!("declared here as {}", crate::scope::describe(kind)),
                    ),
                );
            }
        }
        (self.errors.len() == before).then(|| names.iter().map(|n| n.name.clone()).collect())
    }

    /// The `action` line: the side the group acts on (the left when there is none).
    fn side(&mut self, decl: &GroupDecl) -> Side {
        let mut chosen = Side::Left;
        for line in &decl.body {
            if let GroupLineKind::Side(side) = &line.kind {
                match side.name.as_str() {
                    "left" => chosen = Side::Left,
                    "right" => chosen = Side::Right,
                    other => self.errors.push(Diagnostic::error(
                        CODE,
                        format!("`{other}` is not a side a group acts on"),
                        side.span,
                        "expected `left` or `right`",
                    )),
                }
            }
        }
        chosen
    }

    /// The `connection` line (mechanical when there is none).
    fn connection(
        &mut self,
        decl: &GroupDecl,
        system: &System,
        dim: usize,
    ) -> Option<ConnectionChoice> {
        let mut choice = ConnectionChoice::Mechanical;
        for line in &decl.body {
            if let GroupLineKind::ConnectionForm(entries) = &line.kind {
                let form = self.connection_form(decl, entries, system, dim)?;
                choice = ConnectionChoice::Given {
                    form,
                    span: line.span,
                };
            }
            if let GroupLineKind::Connection(name) = &line.kind {
                match name.name.as_str() {
                    "mechanical" => choice = ConnectionChoice::Mechanical,
                    "chart" => choice = ConnectionChoice::Chart,
                    "nonholonomic" => choice = ConnectionChoice::Nonholonomic,
                    other => self.errors.push(Diagnostic::error(
                        CODE,
                        format!("`{other}` is not a connection dalembert knows"),
                        name.span,
                        "expected `mechanical`, `chart`, `nonholonomic` or a `{ A(d/dq) = … }` block",
                    )),
                }
            }
        }
        Some(choice)
    }

    /// `A(d/dq) = c1*E1 + …` lines: the values of a connection form on the coordinate fields, as
    /// combinations of the group's sections (named by the block's `sections` line, or `E1, …`),
    /// with coefficients functions of the coordinates; a coordinate not listed has `A = 0`.
    fn connection_form(
        &mut self,
        decl: &GroupDecl,
        entries: &[syntax::ast::Equation],
        system: &System,
        dim: usize,
    ) -> Option<Vec<Vec<Expr>>> {
        let sections: Vec<String> = decl
            .body
            .iter()
            .find_map(|l| match &l.kind {
                GroupLineKind::Sections(v) => {
                    Some(v.iter().map(|n| n.name.clone()).collect::<Vec<_>>())
                }
                _ => None,
            })
            .map(|names| names[names.len().saturating_sub(dim)..].to_vec())
            .unwrap_or_else(|| (1..=dim).map(|k| format!("E{k}")).collect());
        let mut scope = self.scope.clone();
        for name in &sections {
            scope
                .names
                .entry(name.clone())
                .or_insert((crate::scope::NameKind::Section, decl.name.span));
        }
        let before = self.errors.len();
        let mut form = vec![vec![Expr::zero(); dim]; system.coordinates.len()];
        for eq in entries {
            let coordinate = match &eq.lhs.kind {
                syntax::ast::ExprKind::Call { func, args }
                    if func.name == "A" && args.len() == 1 =>
                {
                    match &args[0].kind {
                        syntax::ast::ExprKind::Partial(q) => system.coordinate_named(&q.name),
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some(j) = coordinate else {
                self.errors.push(Diagnostic::error(
                    CODE,
                    "the left-hand side of a connection line is `A(d/dq)` for a coordinate `q`",
                    eq.lhs.span,
                    "expected `A(d/dq)`",
                ));
                continue;
            };
            match crate::algebroid::read_bracket(&scope, &eq.rhs, &sections) {
                Ok(coefficients) => form[j] = coefficients,
                Err(e) => self.errors.extend(e),
            }
        }
        (self.errors.len() == before).then_some(form)
    }

    /// The names of the reduced sections, velocities and momenta along the group: given, or
    /// `E{k}`, `v{k}` numbered on from `offset`; each new to the spec.
    fn reduced_names(
        &mut self,
        decl: &GroupDecl,
        dim: usize,
        offset: usize,
        released: &[String],
    ) -> Option<(Vec<String>, Vec<String>, Vec<String>)> {
        let before = self.errors.len();
        let mut read = |what: &str, default: &dyn Fn(usize) -> String, optional: bool| {
            let given: Option<(&Vec<Ident>, Span)> = decl.body.iter().find_map(|l| match &l.kind {
                GroupLineKind::Sections(v) if what == "sections" => Some((v, l.span)),
                GroupLineKind::Velocities(v) if what == "velocities" => Some((v, l.span)),
                GroupLineKind::Momenta(v) if what == "momenta" => Some((v, l.span)),
                _ => None,
            });
            match given {
                Some((names, at)) => {
                    // The first group may name the shape's sections too, before its own.
                    if names.len() < dim || (names.len() > dim && offset > 0) {
                        self.errors.push(Diagnostic::error(
                            CODE,
                            format!("{} {what} for a group of dimension {dim}", names.len()),
                            at,
                            format!("expected one name per generator ({dim}), after one per shape coordinate in the first symmetry"),
                        ));
                    }
                    for n in names {
                        if let Some(problem) = crate::names::user_name_problem(&n.name) {
                            self.errors.push(Diagnostic::error(
                                Code::E0202,
                                format!("`{}` cannot be used as a name", n.name),
                                n.span,
                                problem,
                            ));
                        } else if let Some((kind, first)) = self
                            .scope
                            .names
                            .get(&n.name)
                            .filter(|_| !released.contains(&n.name))
                        {
                            self.errors.push(
                                Diagnostic::error(
                                    CODE,
                                    format!("`{}` is already declared", n.name),
                                    n.span,
                                    "expected a new name for the reduced system",
                                )
                                .with_secondary(
                                    *first,
                                    format!("declared here as {}", crate::scope::describe(kind)),
                                ),
                            );
                        }
                    }
                    names.iter().map(|n| n.name.clone()).collect()
                }
                None if optional => Vec::new(),
                None => {
                    let names: Vec<String> = (0..dim).map(|k| default(offset + k + 1)).collect();
                    if let Some(taken) = names.iter().find(|n| self.scope.names.contains_key(*n)) {
                        self.errors.push(
                            Diagnostic::error(CODE, format!("the reduced {what} would be named `{taken}`, which is already declared"), decl.name.span, format!("expected a `{what}` line naming them"))
                                .with_help(format!("add `{what} …` with {dim} new names to the block of this symmetry")),
                        );
                    }
                    names
                }
            }
        };
        let sections = read("sections", &|k| format!("E{k}"), false);
        let velocities = read("velocities", &|k| format!("v{k}"), false);
        let momenta = read("momenta", &|k| format!("p{k}"), true);
        (self.errors.len() == before).then_some((sections, velocities, momenta))
    }
}

/// A vector field over the moved coordinates `q` as spec text (`-y*d/dx + x*d/dy + d/dtheta`):
/// how the generators of a named group are named in messages.
fn field_text(v: &[Expr], q: &[Handle], system: &System) -> String {
    let terms: Vec<String> = v
        .iter()
        .zip(q)
        .filter(|(c, _)| !c.is_zero())
        .map(|(c, q)| {
            let name = system.spec_name(*q);
            if (c - &Expr::one()).is_zero() {
                format!("d/d{name}")
            } else {
                let text = cas::print::spec(c, system);
                let text = if text.contains(['+', '-']) {
                    format!("({text})")
                } else {
                    text
                };
                format!("{text}*d/d{name}")
            }
        })
        .collect();
    terms.join(" + ").replace("+ -", "- ")
}

/// The span of a list of names (or `fallback` when it is empty).
fn list_span(names: &[Ident], fallback: Span) -> Span {
    match (names.first(), names.last()) {
        (Some(a), Some(b)) => a.span.join(b.span),
        _ => fallback,
    }
}
