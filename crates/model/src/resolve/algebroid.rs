//! Reading the algebroid: its names, its preset or its explicit anchors and brackets, the
//! default momenta, and the structure equations (anchor homomorphism, Jacobi).

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use syntax::ast::{Algebroid as AstAlgebroid, AlgebroidItemKind, Ident, ItemKind, Span, Spec};

use crate::algebroid::{
    anchor_defects, dense_brackets, jacobi, preset_brackets, read_anchor, read_bracket, Extended,
};
use crate::scope::NameKind;
use crate::symbols::Handle;
use crate::system::{Algebroid, AlgebroidKind, System};

use super::Resolver;

/// Where an algebroid's sections, anchors and brackets come from: a preset (`algebroid so3`),
/// whose body may only add to it, or the lines of its block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Data {
    Preset,
    Written,
}

impl Resolver {
    /// Momenta that were not declared (`p1`, `p2`, … by default) become names of the scope, so
    /// that expected values on the Hamiltonian side can use them; a default that is already
    /// another kind of name gets a `_` appended until it is free.
    pub(super) fn default_momenta(&mut self, names: Vec<String>, span: Span) -> Vec<Handle> {
        let mut momenta = Vec::with_capacity(names.len());
        for mut m in names {
            match self.scope.names.get(m.as_str()) {
                Some((NameKind::Momentum, _)) => {
                    momenta.push(self.scope.symbols.handle(&m));
                    continue;
                }
                Some(_) => {
                    while self.scope.names.contains_key(m.as_str()) {
                        m.push('_');
                    }
                }
                None => {}
            }
            momenta.push(self.scope.symbols.handle(&m));
            self.scope.names.insert(m, (NameKind::Momentum, span));
        }
        momenta
    }

    pub(super) fn algebroid_item<'a>(
        &mut self,
        spec: &'a Spec,
    ) -> Option<(&'a AstAlgebroid, Span)> {
        let mut found: Option<(&AstAlgebroid, Span)> = None;
        for item in &spec.items {
            if let ItemKind::Algebroid(alg) = &item.kind {
                if let Some((_, first)) = found {
                    self.errors.push(
                        Diagnostic::error(
                            Code::E0204,
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
    pub(super) fn algebroid_names(&mut self, alg: &AstAlgebroid, span: Span) {
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
                                Code::E0206,
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
                self.declare_body(alg, Data::Preset);
            }
            Some(name) => {
                let p = alg.preset.as_ref().map(|p| p.span).unwrap_or(span);
                self.errors.push(
                    Diagnostic::error(Code::E0207, format!("unknown algebroid preset `{name}`"), p, "unknown preset")
                        .with_help("the presets are `tangent`, `so3`, `se2`, `se3`; or write the data in `algebroid { … }`"),
                );
            }
            None => self.declare_body(alg, Data::Written),
        }
    }

    pub(super) fn declare_body(&mut self, alg: &AstAlgebroid, data: Data) {
        let preset = data == Data::Preset;
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
                        Code::E0206,
                        "a Lie-algebra preset takes only `velocities` and `momenta` lines",
                        item.span,
                        "not allowed here",
                    )
                    .with_note("the preset fixes the sections, the anchor (zero) and the bracket"),
                ),
            }
        }
    }

    pub(super) fn algebroid(&mut self, alg: &AstAlgebroid, span: Span) -> Option<Algebroid> {
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
                    velocities: self.coordinates.iter().map(|q| self.velocity(q)).collect(),
                    momenta: self.default_momenta(pick_momenta(n, &top_momenta), span),
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
                            Code::E0208,
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
                    velocities: self.handles(&velocities),
                    momenta: self.default_momenta(pick_momenta(n, &m), span),
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

    pub(super) fn list_in_body(
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
    pub(super) fn explicit_algebroid(
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
                    Code::E0208,
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
                                    Code::E0231,
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
                                    Code::E0232,
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
                                        Diagnostic::error(Code::E0232, format!("the brackets of `{}` and `{}` are not antisymmetric", left.name, right.name), item.span, "contradicts the earlier line")
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
                        Diagnostic::error(Code::E0233, "the anchor of `e0` must contain `d/dt` with coefficient 1", span, "in this algebroid")
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
            velocities: self.handles(&velocities),
            momenta: self.default_momenta(pick_momenta(n, &m), span),
            anchor0,
            anchors,
            c0,
            c,
            structure: Default::default(),
        })
    }

    pub(super) fn check_structure(&mut self, system: &mut System) {
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
                    Code::E0234,
                    "the anchor is not a homomorphism of brackets",
                    span,
                    format!(
                        "ρ([{0}, {1}]) − [ρ({0}), ρ({1})] has d/d{2} component {3}",
                        name(*a),
                        name(*b),
                        system.key(base[*i]),
                        cas::print::spec(defect, &*system)
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
        Code::E0209,
        format!("`{}` is not a declared section", s.name),
        s.span,
        "not in `sections`",
    )
    .with_help("declare it in the `sections` line, or use `e0` for the reference section")
}
