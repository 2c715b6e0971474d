//! Reading the frame adapted to the constraints (declared or computed, [GBMS24] §2.1) and the
//! declared Noether symmetries ([GLMM09] (5.5)).

use cas::Expr;
use diagnostic::Code;
use diagnostic::Diagnostic;
use syntax::ast::{Equation, ExprKind, Ident, ItemKind, Span, Spec};

use crate::frame::{self, Frame};
use crate::scope::{NameKind, ScopeKind};
use crate::symbols::Handle;
use crate::system::{Symmetry, System};

use super::Resolver;

impl Resolver {
    /// The declared `frame` (checked: one linear row per section, invertible, adapted to the
    /// constraints), or the frame computed from linear constraints.
    pub(super) fn frame(&mut self, spec: &Spec, system: &System) -> Option<Frame> {
        let mut declared = spec.items.iter().filter_map(|item| match &item.kind {
            ItemKind::Frame(block) => Some((block, item.span)),
            _ => None,
        });
        let Some((block, span)) = declared.next() else {
            let names = &self.scope.names;
            let frame = frame::computed(system, &|n| names.contains_key(n))?;
            for name in system.keys(&frame.momenta) {
                if !self.scope.names.contains_key(&name) {
                    self.scope
                        .names
                        .insert(name, (NameKind::FrameMomentum, self.algebroid_span));
                }
            }
            return Some(frame);
        };
        if let Some((_, again)) = declared.next() {
            self.errors.push(
                Diagnostic::error(
                    Code::E0204,
                    "`frame` is given twice",
                    again,
                    "given again here",
                )
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
                momenta.push(system.handle(&name));
                matrix.push(coefficients);
            }
        }
        if self.errors.len() > before {
            return None;
        }
        if rows.len() != n {
            self.errors.push(
                Diagnostic::error(
                    Code::E0261,
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
                    Code::E0262,
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
                        Code::E0263,
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
                        Code::E0263,
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
    pub(super) fn frame_velocities(
        &mut self,
        frame: &Frame,
        block: &syntax::ast::FrameBlock,
        span: Span,
    ) -> Option<Vec<Handle>> {
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
            return Some(self.handles(&names));
        }
        if block.velocities.len() != k {
            self.errors.push(Diagnostic::error(
                Code::E0264,
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
        let names: Vec<String> = block.velocities.iter().map(|v| v.name.clone()).collect();
        (self.errors.len() == before).then(|| self.handles(&names))
    }

    /// The `symmetry` items: components keyed by the fibre coordinates of `D`, and `gauge`, all
    /// functions of the parameters and coordinates (E0265).
    pub(super) fn symmetries(&mut self, spec: &Spec, system: &System) -> Vec<Symmetry> {
        let mut out = Vec::new();
        for item in &spec.items {
            let ItemKind::Symmetry { name, entries } = &item.kind else {
                continue;
            };
            let Some(frame) = &system.frame else {
                self.errors.push(
                    Diagnostic::error(
                        Code::E0265,
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
                    ExprKind::Name(n) => frame
                        .velocities
                        .iter()
                        .position(|v| system.key(*v) == *n)
                        .map(Some),
                    ExprKind::Primed {
                        name,
                        order: 1,
                        args: None,
                    } if self.scope.tangent => frame
                        .velocities
                        .iter()
                        .position(|v| *v == system.symbols.velocity(system.handle(&name.name)))
                        .map(Some),
                    _ => None,
                };
                let Some(key) = key else {
                    let names: Vec<String> = frame
                        .velocities
                        .iter()
                        .map(|v| system.spec_name(*v))
                        .collect();
                    self.errors.push(
                        Diagnostic::error(
                            Code::E0265,
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
                let base_only = system.on_parameters_and_coordinates(&value);
                if !base_only {
                    self.errors.push(Diagnostic::error(
                        Code::E0265,
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
    pub(super) fn frame_row(
        &mut self,
        system: &System,
        row: &Equation,
    ) -> Option<(String, Vec<Expr>)> {
        let ExprKind::Name(name) = &row.lhs.kind else {
            self.errors.push(Diagnostic::error(
                Code::E0260,
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
        let coefficients: Vec<Expr> = system
            .keys(momenta)
            .iter()
            .map(|p| value.diff(p).simplify())
            .collect();
        let rest = coefficients
            .iter()
            .zip(system.exprs(momenta))
            .fold(value.clone(), |acc, (t, p)| acc - t.clone() * p)
            .simplify();
        let allowed = |e: &Expr| system.on_parameters_and_coordinates(e);
        if !rest.is_zero() || !coefficients.iter().all(allowed) {
            self.errors.push(
                Diagnostic::error(
                    Code::E0260,
                    "a frame row must be linear in the momenta, with coefficients that depend on the parameters and coordinates only",
                    row.rhs.span,
                    format!(
                        "expected T_1*{} + … with T_B = T_B(q)",
                        system.spec_name(momenta[0])
                    ),
                )
                .with_note("the frame f_A = T_A^B e_B is a frame of sections over the base; time-dependent frames are not supported"),
            );
            return None;
        }
        Some((name.clone(), coefficients))
    }
}
