//! Reading the dynamics: the Lagrangian (or the Lagrangian of a given Hamiltonian), the
//! constraints of each kind and their shape, and the external forces.

use std::collections::BTreeMap;

use cas::{Deferred, Expr};

use crate::multibody::terms::{FormedTerm, FormedTerms};
use diagnostic::Code;
use diagnostic::Diagnostic;
use syntax::ast::{BinOp, ConstraintKind, ExprKind, ItemKind, Span, Spec};

use crate::scope::ScopeKind;
use crate::system::{
    Algebroid, AlgebroidKind, Constraint, ConstraintShape, GivenHamiltonian, System,
};

use super::{missing, RawConstraint, Resolver};

/// Written terms, as formed (none is contracted).
fn formed(terms: &[Expr]) -> FormedTerms {
    FormedTerms::Written(terms.iter().cloned().map(FormedTerm::as_formed).collect())
}

/// The Lagrangian read: itself, its terms as shown, its terms as formed (the same for a written
/// Lagrangian; see [`System::lagrangian_formed`](crate::System::lagrangian_formed)), and where
/// it is written.
pub(super) type ReadLagrangian = (Deferred, Deferred<Vec<Expr>>, FormedTerms, Span);

impl Resolver {
    /// The Lagrangian and the Hamiltonian as written; a Hamiltonian given alone is turned into its
    /// Lagrangian by the inverse Legendre transform (it must be quadratic in the momenta).
    pub(super) fn lagrangian(
        &mut self,
        spec: &Spec,
        algebroid: Option<&Algebroid>,
    ) -> (Option<ReadLagrangian>, Option<GivenHamiltonian>) {
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
                (Some(h), Some(alg)) => self.legendre_inverse(h, alg).map(|(l, span)| {
                    (
                        Deferred::ready(l.clone()),
                        Deferred::ready(vec![l.clone()]),
                        formed(std::slice::from_ref(&l)),
                        span,
                    )
                }),
                _ => None,
            };
            return (lagrangian, given);
        };
        // The terms as written, each converted alone, and the Lagrangian as their sum: the sum
        // the conversion of the whole forms (it adds a chain of `+` and `−` once, and a normalised
        // sum does not depend on how its terms were grouped), without reading the text twice.
        // When a term does not convert alone, the whole is converted, so that the diagnostics
        // are the whole expression's.
        let terms = self.written_terms(ast);
        let summed = terms
            .as_ref()
            .map(|terms| Expr::sum(terms.iter().cloned()))
            .filter(Expr::is_finite_real);
        let whole = match summed {
            Some(e) => Ok(e),
            None => self.scope.convert(ast, ScopeKind::Observable),
        };
        match whole {
            Ok(e) => {
                let terms = terms.unwrap_or_else(|| vec![e.clone()]);
                (
                    Some((
                        Deferred::ready(e),
                        Deferred::ready(terms.clone()),
                        formed(&terms),
                        span,
                    )),
                    given,
                )
            }
            Err(e) => {
                self.errors.extend(e);
                (None, given)
            }
        }
    }

    /// The terms of an expression written as a sum, in the order written, each with its sign;
    /// `None` if one does not convert (the whole expression's diagnostics say why).
    fn written_terms(&self, ast: &syntax::ast::Expr) -> Option<Vec<Expr>> {
        let mut flat = Vec::new();
        flatten_sum(ast, &mut flat);
        flat.into_iter()
            .map(|(negative, term)| {
                let e = self.scope.convert(term, ScopeKind::Observable).ok()?;
                Some(if negative { -e } else { e })
            })
            .collect()
    }

    /// `L(x, y) = ½ (y − b)ᵀ A⁻¹ (y − b) − c` for `H = ½ pᵀ A p + bᵀ p + c`: the Lagrangian whose
    /// Legendre transform is `H` (`y = ∂H/∂p = A p + b`).
    pub(super) fn legendre_inverse(
        &mut self,
        h: &GivenHamiltonian,
        alg: &Algebroid,
    ) -> Option<(Expr, Span)> {
        let n = alg.momenta.len();
        let symbols = &self.scope.symbols;
        let momenta = symbols.keys(&alg.momenta);
        let Some(form) = h.expr.quadratic_form(&momenta) else {
            self.errors.push(
                Diagnostic::error(
                    Code::E0292,
                    "a Hamiltonian given without a Lagrangian must be a polynomial of degree two in the momenta",
                    h.span,
                    "not quadratic in the momenta",
                )
                .with_note(format!(
                    "the Lagrangian is its Legendre transform, which needs H = ½ pᵀ A p + b·p + c in {}",
                    momenta.join(", ")
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
                    Code::E0293,
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
            .map(|i| symbols.expr(alg.velocities[i]) - form.linear[i].clone())
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
    pub(super) fn constraints(
        &mut self,
        spec: &Spec,
        wanted: &[ConstraintKind],
    ) -> Vec<RawConstraint> {
        let mut out = Vec::new();
        for item in &spec.items {
            if let ItemKind::Constraints {
                kind, equations, ..
            } = &item.kind
            {
                if !wanted.contains(kind) {
                    continue;
                }
                for eq in equations {
                    if let Some(value) = self.equation(eq) {
                        let alone = match self.scope.convert(&eq.lhs, ScopeKind::Observable) {
                            Ok(lhs) => match lhs.view() {
                                cas::View::Symbol(name) => Some(name),
                                _ => None,
                            },
                            Err(_) => None,
                        };
                        out.push(RawConstraint {
                            value,
                            alone,
                            span: eq.span,
                            holonomic: *kind == ConstraintKind::Holonomic,
                        });
                    }
                }
            }
        }
        out
    }

    /// E0266: vakonomic constraints beside nonholonomic or holonomic ones.
    pub(super) fn one_kind_of_constraints(&mut self, spec: &Spec) {
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
        let other = kinds.iter().find(|(k, _)| *k != ConstraintKind::Vakonomic);
        let vakonomic = kinds.iter().find(|(k, _)| *k == ConstraintKind::Vakonomic);
        if let (Some((kind, _)), Some((_, span))) = (other, vakonomic) {
            let (which, note) = match kind {
                ConstraintKind::Holonomic => (
                    "holonomic",
                    "for holonomic constraints the vakonomic and the Lagrange–d'Alembert motions coincide: write the holonomic ones as vakonomic constraints in their differentiated form, or drop the vakonomic block",
                ),
                _ => (
                    "nonholonomic",
                    "the two are different dynamics of the same constraint ([IMMS08] §5): write two specs to compare them",
                ),
            };
            self.errors.push(
                Diagnostic::error(
                    Code::E0266,
                    format!("a system has vakonomic constraints or {which} ones, not both"),
                    *span,
                    format!("vakonomic constraints in a system that has {which} ones"),
                )
                .with_note(note),
            );
        }
    }

    pub(super) fn forces(&mut self, spec: &Spec, alg: &Algebroid) -> Vec<Expr> {
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
                            Code::E0240,
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

    pub(super) fn shape_constraints(
        &mut self,
        system: &System,
        raw: Vec<RawConstraint>,
    ) -> Vec<Constraint> {
        let velocities = &system.algebroid.velocities;
        let keys = system.keys(velocities);
        let mut out = Vec::new();
        for raw in raw {
            let (span, alone) = (raw.span, raw.alone);
            let (psi, position) = if raw.holonomic {
                match self.velocity_level(system, raw.value, span) {
                    Some(pair) => pair,
                    None => continue,
                }
            } else {
                (raw.value, None)
            };
            let mu: Vec<Expr> = keys.iter().map(|y| psi.diff(y).simplify()).collect();
            if mu.iter().all(|m| m.is_zero()) {
                self.errors.push(
                    Diagnostic::error(Code::E0250, "this constraint does not involve any velocity", span, "a holonomic constraint")
                        .with_note("a constraint on the positions alone is written in `constraints holonomic { … }`"),
                );
                continue;
            }
            let affine = mu.iter().all(|m| keys.iter().all(|y| !m.depends_on(y)));
            let mu0 = velocity_free_part(&psi, &mu, &system.exprs(velocities), &keys, affine);
            let shape = match (affine, mu0.is_zero()) {
                (false, _) => ConstraintShape::Nonlinear,
                (true, true) => ConstraintShape::Linear,
                (true, false) => ConstraintShape::Affine,
            };
            let solved_for = alone.and_then(|name| keys.iter().position(|y| *y == name));
            out.push(Constraint {
                psi,
                mu,
                mu0,
                shape,
                solved_for,
                span,
                position,
            });
        }
        let rows: Vec<Vec<Expr>> = out.iter().map(|c| c.mu.clone()).collect();
        if let Some(dependent) = cas::first_dependent_row(&rows) {
            let c = &out[dependent];
            self.errors.push(
                Diagnostic::error(
                    Code::E0251,
                    "the constraints are not independent",
                    c.span,
                    "this constraint is a combination of the ones before it",
                )
                .with_note("the rows μ^a_α = ∂Ψ^a/∂y^α must have full rank"),
            );
        }
        out
    }
}

impl Resolver {
    /// The velocity-level form `ρ(f) = (ρ_0 + y^α ρ_α)(f)` of a holonomic constraint `f = 0`, with
    /// `f` itself; E0252 when `f` involves a velocity, E0253 when no admissible velocity moves it.
    fn velocity_level(
        &mut self,
        system: &System,
        f: Expr,
        span: Span,
    ) -> Option<(Expr, Option<Expr>)> {
        let velocities = &system.algebroid.velocities;
        if let Some(y) = velocities.iter().find(|y| f.depends_on(&system.key(**y))) {
            self.errors.push(
                Diagnostic::error(
                    Code::E0252,
                    "a holonomic constraint involves a velocity",
                    span,
                    format!("depends on `{}`", system.spec_name(*y)),
                )
                .with_note("`constraints holonomic` holds equations `f(x, t) = 0` in the coordinates and time; a constraint on the velocities belongs in `constraints nonholonomic`"),
            );
            return None;
        }
        let psi = system
            .apply_base_field(&system.admissible_velocity(), &f)
            .simplify();
        let moved = velocities
            .iter()
            .any(|y| !psi.diff(&system.key(*y)).simplify().is_zero());
        if !moved {
            self.errors.push(
                Diagnostic::error(
                    Code::E0253,
                    "no admissible velocity changes this holonomic constraint",
                    span,
                    "its velocity-level form ρ(f) involves no velocity",
                )
                .with_note("either it involves no coordinate (a condition on time alone), or the anchor of the algebroid does not reach the coordinates it involves: it cannot be enforced by a constraint force"),
            );
            return None;
        }
        Some((psi, Some(f)))
    }
}

/// The top-level terms of `e` with their signs, as written: `a + b - (c - d)` is `a`, `b`,
/// `-(c - d)`. Sums associate to the left, so the right operand of `+` or `-` is one term (a sum
/// there was written in brackets) and only the left operand is a chain to follow.
fn flatten_sum<'a>(e: &'a syntax::ast::Expr, out: &mut Vec<(bool, &'a syntax::ast::Expr)>) {
    match &e.kind {
        ExprKind::Binary {
            op: op @ (BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
        } => {
            flatten_sum(lhs, out);
            out.push((*op == BinOp::Sub, rhs));
        }
        _ => out.push((false, e)),
    }
}

/// `μ_0 = Ψ − μ_α y^α`, normalised (`velocities` the `y^α`, named `keys`). When every `μ_α` is
/// free of the velocities and `Ψ` is a polynomial in them as written, `Ψ` is affine in them and
/// `μ_0` is `Ψ` at rest: every velocity set to zero, which drops each term that reads one before
/// anything is normalised. The difference would normalise all of `Ψ` again (the bicycle's front
/// contact: 81 444 nodes that cancel to 0). Otherwise, the difference.
fn velocity_free_part(
    psi: &Expr,
    mu: &[Expr],
    velocities: &[Expr],
    keys: &[String],
    affine: bool,
) -> Expr {
    if affine && psi.is_polynomial_in(keys) {
        let at_rest: BTreeMap<String, Expr> =
            keys.iter().map(|y| (y.clone(), Expr::zero())).collect();
        return psi.subs(&at_rest).simplify();
    }
    velocities
        .iter()
        .zip(mu)
        .fold(psi.clone(), |acc, (y, m)| acc - m.clone() * y.clone())
        .simplify()
}

#[cfg(test)]
mod tests {
    use cas::Expr;

    /// The Lagrangian keeps its terms in the order written, a bracketed sum as one term, and
    /// their sum is the Lagrangian.
    #[test]
    fn lagrangian_terms_are_kept_as_written() {
        let text = "system s\nparameters a, b, c\ncoordinates x\nalgebroid tangent\n\
                    lagrangian = c*x'^2 - (a - b)*x + b/2*x'^2 + -a\n";
        let spec = syntax::parse(text).expect("parses");
        let system = crate::resolve(&spec).expect("resolves");
        let print = |e: &Expr| cas::print::spec(e, &system);
        let terms: Vec<String> = system.lagrangian_terms.iter().map(print).collect();
        assert_eq!(terms, ["c*x'^2", "-x*(a - b)", "b*x'^2/2", "-a"]);
        let sum = system
            .lagrangian_terms
            .iter()
            .fold(Expr::zero(), |acc, t| acc + t.clone());
        assert!((sum - system.lagrangian.get().clone()).is_zero());
    }

    /// The Lagrangian, the sum of its terms converted one by one, is the very expression the
    /// conversion of the whole text gives: bracketed sums on either side of `+` and `−`, a sum
    /// in a product, signs and numbers included.
    #[test]
    fn the_lagrangian_is_the_conversion_of_the_whole_text() {
        let text = "system s\nparameters a, b, c\ncoordinates x, y\nalgebroid tangent\n\
                    lagrangian = a*x'^2/2 + (b*y'^2 + c*x'*y') - (a - (b + x)) + -(c*y) \
                    + 3*(x + y)^2 - 2/3 + (a + b)*(x' + y')\n";
        let spec = syntax::parse(text).expect("parses");
        let system = crate::resolve(&spec).expect("resolves");
        let Some(syntax::ast::ItemKind::Lagrangian(ast)) = spec
            .items
            .iter()
            .map(|item| &item.kind)
            .find(|kind| matches!(kind, syntax::ast::ItemKind::Lagrangian(_)))
        else {
            panic!("a Lagrangian item");
        };
        let whole = system
            .scope
            .convert(ast, crate::scope::ScopeKind::Observable)
            .expect("converts");
        assert_eq!(system.lagrangian_terms.len(), 7);
        assert!(*system.lagrangian.get() == whole, "{whole}");
    }
}
