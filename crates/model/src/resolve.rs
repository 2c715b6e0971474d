//! From syntax tree to [`System`]: declarations first, then the algebroid, then expressions.

use std::collections::BTreeMap;

use cas::Expr;
use syntax::ast::{
    Algebroid as AstAlgebroid, AlgebroidItemKind, ConstraintKind, Equation, ExprKind, Ident,
    ItemKind, Span, Spec,
};
use syntax::Diagnostic;

use crate::algebroid::{
    anchor_defects, dense_brackets, jacobi, preset_brackets, read_anchor, read_bracket, Extended,
};
use crate::frame::{self, Frame};
use crate::names;
use crate::scope::{describe, NameKind, Scope, ScopeKind};
use crate::system::{
    Algebroid, AlgebroidKind, Constraint, ConstraintShape, GivenHamiltonian, Symmetry, System,
};

/// Resolves a parsed spec into a [`System`], collecting every diagnostic it can.
pub fn resolve(spec: &Spec) -> syntax::Result<System> {
    if spec.items.is_empty() {
        return Err(vec![Diagnostic::error(
            "E0200",
            "the spec is empty",
            Span::new(0, 0),
            "expected a spec here",
        )
        .with_help(
            "a spec starts with `system NAME`; see docs/spec-language.md",
        )]);
    }
    let mut r = Resolver::default();
    r.declarations(spec);
    let algebroid_item = r.algebroid_item(spec);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let Some((alg_ast, alg_span)) = algebroid_item else {
        return Err(vec![missing("algebroid", "algebroid tangent", spec)]);
    };
    r.algebroid_span = alg_span;
    r.algebroid_names(alg_ast, alg_span);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let mut algebroid = r.algebroid(alg_ast, alg_span);
    if let Some(alg) = &mut algebroid {
        r.default_momenta(alg, alg_span);
    }
    let (lagrangian, hamiltonian) = r.lagrangian(spec, algebroid.as_ref());
    let constraints = r.constraints(spec, ConstraintKind::Nonholonomic);
    let vakonomic = r.constraints(spec, ConstraintKind::Vakonomic);
    r.one_kind_of_constraints(spec);
    let forces = algebroid
        .as_ref()
        .map(|alg| r.forces(spec, alg))
        .unwrap_or_default();
    let latex = r.latex(spec);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let (Some(algebroid), Some((lagrangian, lagrangian_span))) = (algebroid, lagrangian) else {
        return Err(r.errors);
    };
    let mut system = System {
        name: r.system_name.clone().unwrap_or_default(),
        time: r.scope.time.clone(),
        parameters: r.of_kind(NameKind::Parameter),
        functions: r.of_kind(NameKind::Function),
        coordinates: r.coordinates.clone(),
        inputs: r.of_kind(NameKind::Input),
        algebroid,
        lagrangian,
        lagrangian_span,
        hamiltonian,
        constraints: Vec::new(),
        vakonomic: Vec::new(),
        action: r.of_kind(NameKind::Action).into_iter().next(),
        frame: None,
        symmetries: Vec::new(),
        forces,
        latex,
        expectations: Vec::new(),
        scope: Scope::default(),
    };
    system.constraints = r.shape_constraints(&system, constraints);
    system.vakonomic = r.shape_constraints(&system, vakonomic);
    system.frame = r.frame(spec, &system);
    system.symmetries = r.symmetries(spec, &system);
    r.check_structure(&mut system);
    r.scope.multipliers = system.constraints.len();
    system.scope = r.scope.clone();
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    system.expectations = crate::expect::resolve(&system, spec)?;
    Ok(system)
}

/// A constraint as read: `Ψ`, the symbol written alone on its left-hand side, its span.
type RawConstraint = (Expr, Option<String>, Span);

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
        "E0201",
        format!("the spec has no `{what}` line"),
        Span::new(end, end),
        format!("expected `{what}` somewhere in the file"),
    )
    .with_help(format!("add a line such as `{example}`"))
}

impl Resolver {
    fn declare(&mut self, ident: &Ident, kind: NameKind) {
        if let Some(problem) = names::user_name_problem(&ident.name) {
            self.errors.push(Diagnostic::error(
                "E0202",
                format!("`{}` cannot be used as a name", ident.name),
                ident.span,
                problem,
            ));
            return;
        }
        if let Some((previous, span)) = self.scope.names.get(&ident.name) {
            self.errors.push(
                Diagnostic::error(
                    "E0203",
                    format!("`{}` is declared twice", ident.name),
                    ident.span,
                    format!("declared again here as {}", describe(&kind)),
                )
                .with_secondary(
                    *span,
                    format!("first declared here as {}", describe(previous)),
                ),
            );
            return;
        }
        self.scope
            .names
            .insert(ident.name.clone(), (kind.clone(), ident.span));
        self.declared_order.push((ident.name.clone(), kind));
    }

    /// Momenta that were not declared (`p1`, `p2`, … by default) become names of the scope, so
    /// that expected values on the Hamiltonian side can use them; a default that is already
    /// another kind of name gets a `_` appended until it is free.
    fn default_momenta(&mut self, alg: &mut Algebroid, span: Span) {
        for m in &mut alg.momenta {
            match self.scope.names.get(m.as_str()) {
                Some((NameKind::Momentum, _)) => continue,
                Some(_) => {
                    while self.scope.names.contains_key(m.as_str()) {
                        m.push('_');
                    }
                }
                None => {}
            }
            self.scope
                .names
                .insert(m.clone(), (NameKind::Momentum, span));
        }
    }

    fn of_kind(&self, kind: NameKind) -> Vec<String> {
        self.declared_order
            .iter()
            .filter(|(_, k)| *k == kind)
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn once(
        &mut self,
        seen: &mut BTreeMap<&'static str, Span>,
        what: &'static str,
        span: Span,
    ) -> bool {
        if let Some(first) = seen.get(what) {
            self.errors.push(
                Diagnostic::error(
                    "E0204",
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

    fn declarations(&mut self, spec: &Spec) {
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
                                    "E0205",
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
                _ => {}
            }
        }
        if self.system_name.is_none() {
            self.errors
                .push(missing("system", "system my_system", spec));
        }
    }

    fn algebroid_item<'a>(&mut self, spec: &'a Spec) -> Option<(&'a AstAlgebroid, Span)> {
        let mut found: Option<(&AstAlgebroid, Span)> = None;
        for item in &spec.items {
            if let ItemKind::Algebroid(alg) = &item.kind {
                if let Some((_, first)) = found {
                    self.errors.push(
                        Diagnostic::error(
                            "E0204",
                            "`algebroid` is given twice",
                            item.span,
                            "given again here",
                        )
                        .with_secondary(first, "first given here"),
                    );
                } else {
                    found = Some((alg, item.span));
                }
            }
        }
        found
    }

    /// Declares section and velocity names, checking the preset.
    fn algebroid_names(&mut self, alg: &AstAlgebroid, span: Span) {
        let preset = alg.preset.as_ref().map(|p| p.name.as_str());
        match preset {
            Some("tangent") => {
                self.scope.tangent = true;
                for item in &alg.body {
                    match &item.kind {
                        AlgebroidItemKind::Momenta(list) => {
                            list.iter().for_each(|p| self.declare(p, NameKind::Momentum))
                        }
                        _ => self.errors.push(
                            Diagnostic::error(
                                "E0206",
                                "`algebroid tangent` takes only a `momenta` line",
                                item.span,
                                "not allowed here",
                            )
                            .with_note("its sections are the coordinate vector fields and its velocities are written `q'`"),
                        ),
                    }
                }
            }
            Some(name) if preset_brackets(name).is_some() || name == "tangent" => {
                self.declare_body(alg, true);
            }
            Some(name) => {
                let p = alg.preset.as_ref().map(|p| p.span).unwrap_or(span);
                self.errors.push(
                    Diagnostic::error("E0207", format!("unknown algebroid preset `{name}`"), p, "unknown preset")
                        .with_help("the presets are `tangent`, `so3`, `se2`, `se3`; or write the data in `algebroid { … }`"),
                );
            }
            None => self.declare_body(alg, false),
        }
    }

    fn declare_body(&mut self, alg: &AstAlgebroid, preset: bool) {
        for item in &alg.body {
            match &item.kind {
                AlgebroidItemKind::Sections(list) if !preset => {
                    list.iter().for_each(|s| self.declare(s, NameKind::Section))
                }
                AlgebroidItemKind::Velocities(list) => list
                    .iter()
                    .for_each(|v| self.declare(v, NameKind::Velocity)),
                AlgebroidItemKind::Momenta(list) => list
                    .iter()
                    .for_each(|p| self.declare(p, NameKind::Momentum)),
                AlgebroidItemKind::Anchor { .. } | AlgebroidItemKind::Bracket { .. } if !preset => {
                }
                _ => self.errors.push(
                    Diagnostic::error(
                        "E0206",
                        "a Lie-algebra preset takes only `velocities` and `momenta` lines",
                        item.span,
                        "not allowed here",
                    )
                    .with_note("the preset fixes the sections, the anchor (zero) and the bracket"),
                ),
            }
        }
    }

    fn algebroid(&mut self, alg: &AstAlgebroid, span: Span) -> Option<Algebroid> {
        let mut base = vec![self.scope.time.clone()];
        base.extend(self.coordinates.iter().cloned());
        let dim = base.len();
        let mut time_field = vec![Expr::zero(); dim];
        time_field[0] = Expr::one();
        let preset = alg.preset.as_ref().map(|p| p.name.clone());
        let momenta = self.list_in_body(alg, |k| matches!(k, AlgebroidItemKind::Momenta(_)));
        let top_momenta = self.of_kind(NameKind::Momentum);
        let pick_momenta = |n: usize, names: &[String]| -> Vec<String> {
            if names.len() == n {
                names.to_vec()
            } else {
                names
                    .iter()
                    .cloned()
                    .chain((names.len()..n).map(|a| format!("p{}", a + 1)))
                    .take(n)
                    .collect()
            }
        };
        match preset.as_deref() {
            Some("tangent") => {
                let n = self.coordinates.len();
                let anchors = (0..n)
                    .map(|a| {
                        let mut rho = vec![Expr::zero(); dim];
                        rho[a + 1] = Expr::one();
                        rho
                    })
                    .collect();
                Some(Algebroid {
                    kind: AlgebroidKind::Tangent,
                    sections: self.coordinates.clone(),
                    velocities: self
                        .coordinates
                        .iter()
                        .map(|q| names::tangent_velocity(q))
                        .collect(),
                    momenta: pick_momenta(n, &top_momenta),
                    anchor0: time_field,
                    anchors,
                    c0: vec![vec![Expr::zero(); n]; n],
                    c: vec![vec![vec![Expr::zero(); n]; n]; n],
                    structure: Default::default(),
                })
            }
            Some(name) => {
                let (n, list) = preset_brackets(name)?;
                let velocities =
                    self.list_in_body(alg, |k| matches!(k, AlgebroidItemKind::Velocities(_)));
                if velocities.len() != n {
                    self.errors.push(
                        Diagnostic::error(
                            "E0208",
                            format!(
                                "the preset `{name}` has {n} sections but {} velocities are named",
                                velocities.len()
                            ),
                            alg.preset.as_ref().map(|p| p.span).unwrap_or(span),
                            format!("expected `velocities` with {n} names"),
                        )
                        .with_help(format!(
                            "add a line `velocities {}` to the body",
                            (1..=n)
                                .map(|a| format!("y{a}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                    return None;
                }
                let m = if momenta.is_empty() {
                    top_momenta
                } else {
                    momenta
                };
                Some(Algebroid {
                    kind: AlgebroidKind::LieAlgebra(name.to_string()),
                    sections: (1..=n).map(|a| format!("e{a}")).collect(),
                    velocities,
                    momenta: pick_momenta(n, &m),
                    anchor0: time_field,
                    anchors: vec![vec![Expr::zero(); dim]; n],
                    c0: vec![vec![Expr::zero(); n]; n],
                    c: dense_brackets(n, &list),
                    structure: Default::default(),
                })
            }
            None => self.explicit_algebroid(
                alg,
                span,
                &base,
                time_field,
                momenta,
                top_momenta,
                pick_momenta,
            ),
        }
    }

    fn list_in_body(
        &self,
        alg: &AstAlgebroid,
        pick: fn(&AlgebroidItemKind) -> bool,
    ) -> Vec<String> {
        alg.body
            .iter()
            .filter(|item| pick(&item.kind))
            .flat_map(|item| match &item.kind {
                AlgebroidItemKind::Sections(l)
                | AlgebroidItemKind::Velocities(l)
                | AlgebroidItemKind::Momenta(l) => l.iter().map(|i| i.name.clone()).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn explicit_algebroid(
        &mut self,
        alg: &AstAlgebroid,
        span: Span,
        base: &[String],
        time_field: Vec<Expr>,
        momenta: Vec<String>,
        top_momenta: Vec<String>,
        pick_momenta: impl Fn(usize, &[String]) -> Vec<String>,
    ) -> Option<Algebroid> {
        let sections = self.list_in_body(alg, |k| matches!(k, AlgebroidItemKind::Sections(_)));
        let velocities = self.list_in_body(alg, |k| matches!(k, AlgebroidItemKind::Velocities(_)));
        if sections.len() != velocities.len() {
            let at = alg
                .body
                .iter()
                .find(|i| matches!(i.kind, AlgebroidItemKind::Velocities(_)))
                .map(|i| i.span)
                .unwrap_or(span);
            self.errors.push(
                Diagnostic::error(
                    "E0208",
                    format!("{} sections but {} velocities", sections.len(), velocities.len()),
                    at,
                    "expected one velocity per section",
                )
                .with_note("the velocity y^α is the fibre coordinate of the section e_α, in the same order"),
            );
            return None;
        }
        let n = sections.len();
        let dim = base.len();
        let mut anchor0: Option<Vec<Expr>> = None;
        let mut anchors = vec![vec![Expr::zero(); dim]; n];
        let mut c0 = vec![vec![Expr::zero(); n]; n];
        let mut c = vec![vec![vec![Expr::zero(); n]; n]; n];
        let mut given: BTreeMap<(usize, usize), Span> = BTreeMap::new();
        let index = |name: &str| sections.iter().position(|s| s == name);
        for item in &alg.body {
            match &item.kind {
                AlgebroidItemKind::Anchor { section, value } => {
                    let Ok(rho) =
                        read_anchor(&self.scope, value, base).map_err(|e| self.errors.extend(e))
                    else {
                        continue;
                    };
                    if section.name == "e0" && index("e0").is_none() {
                        anchor0 = Some(rho);
                        self.anchor_spans.insert(0, item.span);
                    } else if let Some(a) = index(&section.name) {
                        if !rho[0].is_zero() {
                            self.errors.push(
                                Diagnostic::error(
                                    "E0231",
                                    format!(
                                        "the anchor of `{}` has a `d/d{}` component",
                                        section.name, base[0]
                                    ),
                                    value.span,
                                    "sections must be vertical over time",
                                )
                                .with_note("only the reference section `e0` moves time forward"),
                            );
                        }
                        anchors[a] = rho;
                        self.anchor_spans.insert(a + 1, item.span);
                    } else {
                        self.errors.push(undeclared_section(section));
                    }
                }
                AlgebroidItemKind::Bracket { left, right, value } => {
                    let Ok(coefficients) = read_bracket(&self.scope, value, &sections)
                        .map_err(|e| self.errors.extend(e))
                    else {
                        continue;
                    };
                    let is_e0 = |s: &Ident| s.name == "e0" && index("e0").is_none();
                    match (
                        is_e0(left),
                        is_e0(right),
                        index(&left.name),
                        index(&right.name),
                    ) {
                        (true, true, _, _) => {}
                        (true, _, _, Some(b)) => {
                            c0[b] = coefficients;
                            self.bracket_spans.insert((0, b + 1), item.span);
                        }
                        (_, true, Some(a), _) => {
                            c0[a] = coefficients.into_iter().map(|x| -x).collect()
                        }
                        (_, _, Some(a), Some(b)) if a == b => {
                            if coefficients.iter().any(|x| !x.is_zero()) {
                                self.errors.push(Diagnostic::error(
                                    "E0232",
                                    format!("`[{0}, {0}]` must be zero", left.name),
                                    value.span,
                                    "a bracket is antisymmetric",
                                ));
                            }
                        }
                        (_, _, Some(a), Some(b)) => {
                            let key = (a.min(b), a.max(b));
                            let signed: Vec<Expr> = if a < b {
                                coefficients
                            } else {
                                coefficients.into_iter().map(|x| -x).collect()
                            };
                            if let Some(first) = given.get(&key) {
                                let same = signed
                                    .iter()
                                    .zip(&c[key.0][key.1])
                                    .all(|(x, y)| (x.clone() - y.clone()).is_zero());
                                if !same {
                                    self.errors.push(
                                        Diagnostic::error("E0232", format!("the brackets of `{}` and `{}` are not antisymmetric", left.name, right.name), item.span, "contradicts the earlier line")
                                            .with_secondary(*first, "given here")
                                            .with_note("[b, a] = -[a, b]: give one of them"),
                                    );
                                }
                                continue;
                            }
                            given.insert(key, item.span);
                            self.bracket_spans.insert((key.0 + 1, key.1 + 1), item.span);
                            for g in 0..n {
                                c[key.0][key.1][g] = signed[g].clone();
                                c[key.1][key.0][g] = -signed[g].clone();
                            }
                        }
                        _ => {
                            for s in [left, right] {
                                if index(&s.name).is_none() && !is_e0(s) {
                                    self.errors.push(undeclared_section(s));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let anchor0 = match anchor0 {
            Some(rho) => {
                if !(rho[0].clone() - Expr::one()).is_zero() {
                    self.errors.push(
                        Diagnostic::error("E0233", "the anchor of `e0` must contain `d/dt` with coefficient 1", span, "in this algebroid")
                            .with_note("e0 is a section of the affine bundle {dt = 1}: it moves time forward at unit rate"),
                    );
                }
                rho
            }
            None => time_field,
        };
        let m = if momenta.is_empty() {
            top_momenta
        } else {
            momenta
        };
        Some(Algebroid {
            kind: AlgebroidKind::Explicit,
            sections,
            velocities,
            momenta: pick_momenta(n, &m),
            anchor0,
            anchors,
            c0,
            c,
            structure: Default::default(),
        })
    }

    /// The Lagrangian and the Hamiltonian as written; a Hamiltonian given alone is turned into its
    /// Lagrangian by the inverse Legendre transform (it must be quadratic in the momenta).
    fn lagrangian(
        &mut self,
        spec: &Spec,
        algebroid: Option<&Algebroid>,
    ) -> (Option<(Expr, Span)>, Option<GivenHamiltonian>) {
        let mut found = None;
        let mut hamiltonian = None;
        for item in &spec.items {
            match &item.kind {
                ItemKind::Lagrangian(e) => found = Some((e, item.span)),
                ItemKind::Hamiltonian(e) => hamiltonian = Some((e, item.span)),
                _ => {}
            }
        }
        let given =
            hamiltonian.and_then(
                |(ast, span)| match self.scope.convert(ast, ScopeKind::Phase) {
                    Ok(expr) => Some(GivenHamiltonian {
                        expr,
                        span,
                        alone: found.is_none(),
                    }),
                    Err(e) => {
                        self.errors.extend(e);
                        None
                    }
                },
            );
        let Some((ast, span)) = found else {
            if hamiltonian.is_none() {
                self.errors
                    .push(missing("lagrangian", "lagrangian = m/2*x'^2", spec));
                return (None, None);
            }
            let lagrangian = match (&given, algebroid) {
                (Some(h), Some(alg)) => self.legendre_inverse(h, alg),
                _ => None,
            };
            return (lagrangian, given);
        };
        match self.scope.convert(ast, ScopeKind::Observable) {
            Ok(e) => (Some((e, span)), given),
            Err(e) => {
                self.errors.extend(e);
                (None, given)
            }
        }
    }

    /// `L(x, y) = ½ (y − b)ᵀ A⁻¹ (y − b) − c` for `H = ½ pᵀ A p + bᵀ p + c`: the Lagrangian whose
    /// Legendre transform is `H` (`y = ∂H/∂p = A p + b`).
    fn legendre_inverse(&mut self, h: &GivenHamiltonian, alg: &Algebroid) -> Option<(Expr, Span)> {
        let n = alg.momenta.len();
        let Some(form) = h.expr.quadratic_form(&alg.momenta) else {
            self.errors.push(
                Diagnostic::error(
                    "E0292",
                    "a Hamiltonian given without a Lagrangian must be a polynomial of degree two in the momenta",
                    h.span,
                    "not quadratic in the momenta",
                )
                .with_note(format!(
                    "the Lagrangian is its Legendre transform, which needs H = ½ pᵀ A p + b·p + c in {}",
                    alg.momenta.join(", ")
                )),
            );
            return None;
        };
        // A_ab = ∂²H/∂p_a∂p_b from the upper-triangular coefficients.
        let a: Vec<Vec<Expr>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match i.cmp(&j) {
                        std::cmp::Ordering::Equal => form.quadratic[i][i].clone() * Expr::int(2),
                        std::cmp::Ordering::Less => form.quadratic[i][j].clone(),
                        std::cmp::Ordering::Greater => form.quadratic[j][i].clone(),
                    })
                    .collect()
            })
            .collect();
        let det = cas::det(&a).simplify();
        if det.is_zero() {
            self.errors.push(
                Diagnostic::error(
                    "E0293",
                    "the Hamiltonian is degenerate in the momenta: it has no Lagrangian",
                    h.span,
                    "det ∂²H/∂p∂p = 0",
                )
                .with_note("give the Lagrangian instead; singular systems are handled from the Lagrangian side"),
            );
            return None;
        }
        let inverse = cas::inverse(&a).ok()?;
        let shifted: Vec<Expr> = (0..n)
            .map(|i| Expr::symbol(&alg.velocities[i]) - form.linear[i].clone())
            .collect();
        let mut l = Expr::zero();
        for i in 0..n {
            for j in 0..n {
                l = l + shifted[i].clone() * inverse[i][j].clone() * shifted[j].clone();
            }
        }
        Some((
            (l * Expr::rational(1, 2) - form.constant.clone()).simplify(),
            h.span,
        ))
    }

    /// The constraints of one kind, as `(Ψ, the velocity written alone on the left, span)`.
    fn constraints(&mut self, spec: &Spec, wanted: ConstraintKind) -> Vec<RawConstraint> {
        let mut out = Vec::new();
        for item in &spec.items {
            if let ItemKind::Constraints {
                kind, equations, ..
            } = &item.kind
            {
                if *kind != wanted {
                    continue;
                }
                for eq in equations {
                    if let Some(psi) = self.equation(eq) {
                        let alone = match self.scope.convert(&eq.lhs, ScopeKind::Observable) {
                            Ok(lhs) => match lhs.view() {
                                cas::View::Symbol(name) => Some(name),
                                _ => None,
                            },
                            Err(_) => None,
                        };
                        out.push((psi, alone, eq.span));
                    }
                }
            }
        }
        out
    }

    /// E0266: nonholonomic and vakonomic constraints in one system.
    fn one_kind_of_constraints(&mut self, spec: &Spec) {
        let kinds: Vec<(ConstraintKind, Span)> = spec
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::Constraints {
                    kind, kind_span, ..
                } => Some((*kind, *kind_span)),
                _ => None,
            })
            .collect();
        let nonholonomic = kinds
            .iter()
            .find(|(k, _)| *k == ConstraintKind::Nonholonomic);
        let vakonomic = kinds.iter().find(|(k, _)| *k == ConstraintKind::Vakonomic);
        if let (Some(_), Some((_, span))) = (nonholonomic, vakonomic) {
            self.errors.push(
                Diagnostic::error(
                    "E0266",
                    "a system has nonholonomic or vakonomic constraints, not both",
                    *span,
                    "vakonomic constraints in a system that has nonholonomic ones",
                )
                .with_note("the two are different dynamics of the same constraint ([IMMS08] §5): write two specs to compare them"),
            );
        }
    }

    fn equation(&mut self, eq: &Equation) -> Option<Expr> {
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

    fn forces(&mut self, spec: &Spec, alg: &Algebroid) -> Vec<Expr> {
        let mut forces = vec![Expr::zero(); alg.sections.len()];
        for item in &spec.items {
            let ItemKind::Forces(list) = &item.kind else {
                continue;
            };
            for eq in list {
                let key = match &eq.lhs.kind {
                    ExprKind::Name(n) => alg.sections.iter().position(|s| s == n),
                    _ => None,
                };
                let Some(a) = key else {
                    self.errors.push(
                        Diagnostic::error(
                            "E0240",
                            "the key of a force must be a section name",
                            eq.lhs.span,
                            "not a section",
                        )
                        .with_note(match alg.kind {
                            AlgebroidKind::Tangent => {
                                "under `algebroid tangent` the sections are the coordinates"
                                    .to_string()
                            }
                            _ => format!("the sections are {}", alg.sections.join(", ")),
                        }),
                    );
                    continue;
                };
                match self.scope.convert(&eq.rhs, ScopeKind::Observable) {
                    Ok(f) => forces[a] = forces[a].clone() + f,
                    Err(e) => self.errors.extend(e),
                }
            }
        }
        forces
    }

    /// The declared `frame` (checked: one linear row per section, invertible, adapted to the
    /// constraints), or the frame computed from linear constraints.
    fn frame(&mut self, spec: &Spec, system: &System) -> Option<Frame> {
        let mut declared = spec.items.iter().filter_map(|item| match &item.kind {
            ItemKind::Frame(block) => Some((block, item.span)),
            _ => None,
        });
        let Some((block, span)) = declared.next() else {
            let names = &self.scope.names;
            let frame = frame::computed(system, &|n| names.contains_key(n))?;
            for name in &frame.momenta {
                if !self.scope.names.contains_key(name) {
                    self.scope
                        .names
                        .insert(name.clone(), (NameKind::FrameMomentum, self.algebroid_span));
                }
            }
            return Some(frame);
        };
        if let Some((_, again)) = declared.next() {
            self.errors.push(
                Diagnostic::error("E0204", "`frame` is given twice", again, "given again here")
                    .with_secondary(span, "first given here"),
            );
            return None;
        }
        let rows = &block.rows;
        let before = self.errors.len();
        let n = system.rank();
        let mut momenta = Vec::new();
        let mut matrix = Vec::new();
        for row in rows {
            if let Some((name, coefficients)) = self.frame_row(system, row) {
                momenta.push(name);
                matrix.push(coefficients);
            }
        }
        if self.errors.len() > before {
            return None;
        }
        if rows.len() != n {
            self.errors.push(
                Diagnostic::error(
                    "E0261",
                    format!(
                        "the frame has {} row{}, but the algebroid has {n} sections",
                        rows.len(),
                        if rows.len() == 1 { "" } else { "s" }
                    ),
                    span,
                    format!("expected {n} rows, one momentum per section"),
                )
                .with_note("each row `eta = T_1 p1 + … + T_n pn` defines one section f = T_1 e1 + … + T_n en"),
            );
            return None;
        }
        let det = cas::det(&matrix).simplify();
        if det.vanishes() {
            self.errors.push(
                Diagnostic::error(
                    "E0262",
                    "the frame is singular",
                    span,
                    "its rows are dependent",
                )
                .with_note("det T = 0: the sections f_A do not form a basis"),
            );
            return None;
        }
        let mut frame = Frame {
            momenta,
            matrix,
            declared: true,
            along: Vec::new(),
            velocities: Vec::new(),
        };
        frame.along = (0..n).filter(|&a| frame.lies_in_c(system, a)).collect();
        if !system.constraints.is_empty() {
            if !frame::linear_constraints(system) {
                self.errors.push(
                    Diagnostic::error(
                        "E0263",
                        "a frame adapts to linear constraints, and these are not all linear",
                        span,
                        "frame given here",
                    )
                    .with_note("affine and nonlinear constraints do not define a distribution ([GBMS24] treats linear ones only)"),
                );
                return None;
            }
            let along = frame.along.len();
            let expected = n - system.constraints.len();
            if along != expected {
                self.errors.push(
                    Diagnostic::error(
                        "E0263",
                        format!("{along} sections of the frame satisfy the constraints, expected {expected}"),
                        span,
                        "not adapted to the constraints",
                    )
                    .with_note("an adapted frame has n − r sections f_a spanning C (μ^a_B T_a^B = 0) and completes them with r others"),
                );
                return None;
            }
        }
        frame.velocities = self.frame_velocities(&frame, block, span)?;
        Some(frame)
    }

    /// The names of the fibre coordinates of `D` for a declared frame: its `velocities` line
    /// (one name per section along `C`, E0264), or `v1 …` (with `_` appended until free).
    fn frame_velocities(
        &mut self,
        frame: &Frame,
        block: &syntax::ast::FrameBlock,
        span: Span,
    ) -> Option<Vec<String>> {
        let k = frame.along.len();
        if block.velocities.is_empty() {
            let mut names = Vec::new();
            for a in 1..=k {
                let mut name = format!("v{a}");
                while self.scope.names.contains_key(&name) {
                    name.push('_');
                }
                self.scope
                    .names
                    .insert(name.clone(), (NameKind::FrameVelocity, span));
                names.push(name);
            }
            return Some(names);
        }
        if block.velocities.len() != k {
            self.errors.push(Diagnostic::error(
                "E0264",
                format!(
                    "the frame names {} velocities, but the constraint distribution has rank {k}",
                    block.velocities.len()
                ),
                block.velocities[0]
                    .span
                    .join(block.velocities[block.velocities.len() - 1].span),
                format!("expected one name per section of the frame along C ({k})"),
            ));
            return None;
        }
        let before = self.errors.len();
        for v in &block.velocities {
            self.declare(v, NameKind::FrameVelocity);
        }
        (self.errors.len() == before)
            .then(|| block.velocities.iter().map(|v| v.name.clone()).collect())
    }

    /// The `symmetry` items: components keyed by the fibre coordinates of `D`, and `gauge`, all
    /// functions of the parameters and coordinates (E0265).
    fn symmetries(&mut self, spec: &Spec, system: &System) -> Vec<Symmetry> {
        let mut out = Vec::new();
        for item in &spec.items {
            let ItemKind::Symmetry { name, entries } = &item.kind else {
                continue;
            };
            let Some(frame) = &system.frame else {
                self.errors.push(
                    Diagnostic::error(
                        "E0265",
                        "a symmetry needs a frame of the constraint distribution",
                        name.span,
                        "the constraints are not linear",
                    )
                    .with_note("Noether's theorem of [GLMM09] (Theorem 5.3) is stated on (D, ε_P) for linear constraints"),
                );
                continue;
            };
            let mut components = vec![Expr::zero(); frame.velocities.len()];
            let mut gauge = Expr::zero();
            for eq in entries {
                let key = match &eq.lhs.kind {
                    ExprKind::Name(n) if n == "gauge" => Some(None),
                    ExprKind::Name(n) => frame.velocities.iter().position(|v| v == n).map(Some),
                    ExprKind::Primed {
                        name,
                        order: 1,
                        args: None,
                    } if self.scope.tangent => frame
                        .velocities
                        .iter()
                        .position(|v| *v == crate::names::tangent_velocity(&name.name))
                        .map(Some),
                    _ => None,
                };
                let Some(key) = key else {
                    let names: Vec<String> = frame
                        .velocities
                        .iter()
                        .map(|v| system.spec_name(v))
                        .collect();
                    self.errors.push(
                        Diagnostic::error(
                            "E0265",
                            "the key of a symmetry entry must be a velocity of D or `gauge`",
                            eq.lhs.span,
                            format!("expected one of {}, gauge", names.join(", ")),
                        )
                        .with_note("X = f^a X_a is given by its components on the frame of D"),
                    );
                    continue;
                };
                let value = match self.scope.convert(&eq.rhs, ScopeKind::Observable) {
                    Ok(v) => v,
                    Err(e) => {
                        self.errors.extend(e);
                        continue;
                    }
                };
                let base_only = value
                    .symbols()
                    .iter()
                    .all(|s| system.parameters.contains(s) || system.coordinates.contains(s));
                if !base_only {
                    self.errors.push(Diagnostic::error(
                        "E0265",
                        "a symmetry's components and gauge are functions of the parameters and coordinates only",
                        eq.rhs.span,
                        "depends on something else",
                    ));
                    continue;
                }
                match key {
                    Some(a) => components[a] = value,
                    None => gauge = value,
                }
            }
            out.push(Symmetry {
                name: name.name.clone(),
                components,
                gauge,
                span: item.span,
            });
        }
        out
    }

    /// One `eta = T_B p_B` row: its declared name and the coefficients `T_B`, functions of the
    /// parameters and base coordinates only.
    fn frame_row(&mut self, system: &System, row: &Equation) -> Option<(String, Vec<Expr>)> {
        let ExprKind::Name(name) = &row.lhs.kind else {
            self.errors.push(Diagnostic::error(
                "E0260",
                "the left side of a frame row must be a new momentum name",
                row.lhs.span,
                "not a name",
            ));
            return None;
        };
        let before = self.errors.len();
        self.declare(
            &Ident {
                name: name.clone(),
                span: row.lhs.span,
            },
            NameKind::FrameMomentum,
        );
        if self.errors.len() > before {
            return None;
        }
        let value = match self.scope.convert(&row.rhs, ScopeKind::Phase) {
            Ok(v) => v,
            Err(e) => {
                self.errors.extend(e);
                return None;
            }
        };
        let momenta = &system.algebroid.momenta;
        let coefficients: Vec<Expr> = momenta.iter().map(|p| value.diff(p).simplify()).collect();
        let rest = coefficients
            .iter()
            .zip(momenta)
            .fold(value.clone(), |acc, (t, p)| {
                acc - t.clone() * Expr::symbol(p)
            })
            .simplify();
        let allowed = |e: &Expr| {
            e.symbols()
                .iter()
                .all(|s| system.parameters.contains(s) || system.coordinates.contains(s))
        };
        if !rest.is_zero() || !coefficients.iter().all(allowed) {
            self.errors.push(
                Diagnostic::error(
                    "E0260",
                    "a frame row must be linear in the momenta, with coefficients that depend on the parameters and coordinates only",
                    row.rhs.span,
                    format!("expected T_1*{} + … with T_B = T_B(q)", momenta[0]),
                )
                .with_note("the frame f_A = T_A^B e_B is a frame of sections over the base; time-dependent frames are not supported"),
            );
            return None;
        }
        Some((name.clone(), coefficients))
    }

    fn latex(&mut self, spec: &Spec) -> BTreeMap<String, String> {
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
                            "E0241",
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

    fn shape_constraints(&mut self, system: &System, raw: Vec<RawConstraint>) -> Vec<Constraint> {
        let velocities = &system.algebroid.velocities;
        let mut out = Vec::new();
        for (psi, alone, span) in raw {
            let mu: Vec<Expr> = velocities.iter().map(|y| psi.diff(y).simplify()).collect();
            if mu.iter().all(|m| m.is_zero()) {
                self.errors.push(
                    Diagnostic::error("E0250", "this constraint does not involve any velocity", span, "a holonomic constraint")
                        .with_note("holonomic constraints are not supported yet: choose coordinates in which they hold, or differentiate them in time"),
                );
                continue;
            }
            let affine = mu
                .iter()
                .all(|m| velocities.iter().all(|y| !m.depends_on(y)));
            let mu0 = velocities
                .iter()
                .zip(&mu)
                .fold(psi.clone(), |acc, (y, m)| acc - m.clone() * Expr::symbol(y))
                .simplify();
            let shape = match (affine, mu0.is_zero()) {
                (false, _) => ConstraintShape::Nonlinear,
                (true, true) => ConstraintShape::Linear,
                (true, false) => ConstraintShape::Affine,
            };
            let solved_for = alone.and_then(|name| velocities.iter().position(|y| *y == name));
            out.push(Constraint {
                psi,
                mu,
                mu0,
                shape,
                solved_for,
                span,
            });
        }
        let rows: Vec<Vec<Expr>> = out.iter().map(|c| c.mu.clone()).collect();
        if let Some(dependent) = cas::first_dependent_row(&rows) {
            let c = &out[dependent];
            self.errors.push(
                Diagnostic::error(
                    "E0251",
                    "the constraints are not independent",
                    c.span,
                    "this constraint is a combination of the ones before it",
                )
                .with_note("the rows μ^a_α = ∂Ψ^a/∂y^α must have full rank"),
            );
        }
        out
    }

    fn check_structure(&mut self, system: &mut System) {
        let alg = &system.algebroid;
        let partial = |f: &Expr, i: usize| system.partial_base(f, i);
        let ext = Extended::new(&alg.anchor0, &alg.anchors, &alg.c0, &alg.c);
        let defects = anchor_defects(&ext, &partial);
        let name = |a: usize| {
            if a == 0 {
                "e0".to_string()
            } else {
                alg.sections[a - 1].clone()
            }
        };
        if let Some((a, b, i, defect)) = defects.first() {
            let base = system.base();
            let span = self
                .bracket_spans
                .get(&(*a, *b))
                .or_else(|| self.anchor_spans.get(b))
                .or_else(|| self.anchor_spans.get(a))
                .copied()
                .unwrap_or(self.algebroid_span);
            self.errors.push(
                Diagnostic::error(
                    "E0234",
                    "the anchor is not a homomorphism of brackets",
                    span,
                    format!(
                        "ρ([{0}, {1}]) − [ρ({0}), ρ({1})] has d/d{2} component {3}",
                        name(*a),
                        name(*b),
                        base[*i],
                        cas::print::spec(defect, &|s| system.spec_name(s))
                    ),
                )
                .with_note(format!(
                    "{} structure equation(s) fail; see [IMMS07]",
                    defects.len()
                )),
            );
            return;
        }
        let report = jacobi(&ext, &partial);
        system.algebroid.structure = report;
    }
}

fn undeclared_section(s: &Ident) -> Diagnostic {
    Diagnostic::error(
        "E0209",
        format!("`{}` is not a declared section", s.name),
        s.span,
        "not in `sections`",
    )
    .with_help("declare it in the `sections` line, or use `e0` for the reference section")
}
