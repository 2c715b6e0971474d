//! The constraint set of the constraint algorithm ([IMMS08] §3.1; the `singular` module runs
//! the algorithm, `dirac_bergmann` its Hamiltonian side): the variables solved for, as a
//! substitution, and the constraints kept as polynomial equations, as an ideal ([`cas::Ideal`]),
//! with the zero test on the set both define and the rule that decides which a new constraint
//! joins (the `singular` module's documentation says how).

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::{Diagnostic, Span};
use model::System;

use crate::base::algebra::anchor_apply;

/// Why a step found what it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A consistency step (3.5)–(3.6): the level.
    Consistency(usize),
    /// The SODE condition `X^A = y^A` (Theorem 4.4), and the tangency to what it added.
    Sode,
}

/// One step of the algorithm.
#[derive(Clone, Debug)]
pub struct Step {
    /// Which step.
    pub kind: StepKind,
    /// The constraint functions it found, on the constraint set before it.
    pub found: Vec<Expr>,
    /// How each was solved: the variable and its value.
    pub solved: Vec<(String, Expr)>,
    /// The constraints it kept as equations (not solvable for any variable), square-free.
    pub kept: Vec<Expr>,
}

/// The constraint set so far, as a substitution.
#[derive(Default)]
pub(crate) struct Constraints {
    /// The constraint functions, as found (for the tangency rows).
    functions: Vec<Expr>,
    /// Each solved variable and its value in the variables that remain.
    pub(crate) solved: BTreeMap<String, Expr>,
    /// The constraints kept as equations, in the variables that remain.
    pub(crate) kept: cas::Ideal,
    /// The coordinates and velocities, in order (the candidate variables of `kept`).
    pub(crate) variables: Vec<String>,
    /// The size and time budgets of the restrictions, and where E0501/E0503 points.
    options: crate::Options,
    span: Span,
    /// The first budget a restriction exceeded; later restrictions return their input unchanged
    /// and the algorithm stops at its next [`Constraints::exceeded`].
    exceeded: std::cell::RefCell<Option<Vec<Diagnostic>>>,
}

impl Constraints {
    pub(crate) fn new(system: &System, options: &crate::Options) -> Constraints {
        Constraints::over(system, options, state_variables(system))
    }

    /// An empty constraint set on `variables` (the phase space's `(x, p)` on the Hamiltonian side).
    pub(crate) fn over(
        system: &System,
        options: &crate::Options,
        variables: Vec<String>,
    ) -> Constraints {
        Constraints {
            options: *options,
            span: system.lagrangian_span,
            kept: cas::Ideal::new(variables.clone()),
            variables,
            ..Constraints::default()
        }
    }

    /// Whether `e` vanishes on the constraint set (the substitution, then the kept constraints).
    pub(crate) fn vanishes_on(&self, e: &Expr) -> bool {
        let restricted = self.restrict(e);
        restricted.vanishes() || (!self.kept.is_empty() && self.kept.vanishes_on(&restricted))
    }

    /// `e` reduced modulo the kept constraints when that makes it smaller (a form to show; the
    /// rates are not reduced, so that off the set they keep the kept constraints invariant).
    pub(crate) fn display(&self, e: &Expr) -> Expr {
        self.kept.reduce_if_shorter(e)
    }

    /// `e` on the constraint set, measured against the budgets before and after simplifying
    /// (substituting solved variables into one another can nest them).
    pub(crate) fn restrict(&self, e: &Expr) -> Expr {
        if self.exceeded.borrow().is_some() {
            return e.clone();
        }
        let substituted = e.subs(&self.solved);
        if self.record(&substituted) {
            return substituted;
        }
        let simplified = substituted.simplify();
        self.record(&simplified);
        simplified
    }

    /// Whether `e` exceeds a budget (recorded for [`Constraints::exceeded`]).
    fn record(&self, e: &Expr) -> bool {
        let outcome = self.options.within_or(
            "the constraint algorithm's restriction to the constraint set",
            self.span,
            [("an expression on the constraint set".to_string(), e)],
            "raise --max-terms (the constraint algorithm has no implicit form)",
        );
        match outcome {
            Ok(()) => false,
            Err(diagnostics) => {
                *self.exceeded.borrow_mut() = Some(diagnostics);
                true
            }
        }
    }

    /// E0501/E0503 if a restriction exceeded a budget.
    pub(crate) fn exceeded(&self) -> diagnostic::Result<()> {
        match self.exceeded.borrow_mut().take() {
            Some(diagnostics) => Err(diagnostics),
            None => Ok(()),
        }
    }

    /// The rows of the equations and of the tangency to every constraint, with their right-hand
    /// sides, on the constraint set.
    pub(crate) fn system_rows(
        &self,
        system: &System,
        equations: &[Vec<Expr>],
        alpha: &[Expr],
    ) -> (Vec<Vec<Expr>>, Vec<Expr>) {
        let n = system.rank();
        let mut rows: Vec<Vec<Expr>> = equations
            .iter()
            .map(|row| row.iter().map(|e| self.restrict(e)).collect())
            .collect();
        let mut rhs: Vec<Expr> = alpha.iter().map(|e| self.restrict(e)).collect();
        for phi in &self.functions {
            let tangency = (0..n)
                .map(|a| anchor_apply(system, a + 1, phi))
                .chain(
                    system
                        .algebroid
                        .velocities
                        .iter()
                        .map(|y| phi.diff(&system.key(*y))),
                )
                .map(|e| self.restrict(&e))
                .collect();
            rows.push(tangency);
            rhs.push(Expr::zero());
        }
        (rows, rhs)
    }

    /// The conditions that are not already consequences of the constraint set.
    pub(crate) fn new_constraints(&self, conditions: &[Expr]) -> Vec<Expr> {
        conditions
            .iter()
            .map(|c| self.restrict(c))
            .filter(|c| !self.vanishes_on(c))
            // A condition is a function up to a factor that does not vanish: its numerator.
            .map(|c| c.numerator_denominator().0)
            .collect()
    }

    /// Adds `found` to the set: each is solved for a variable where it can be (see
    /// [`solve_for`]) and kept as an equation otherwise; E0305 for a non-zero constant or kept
    /// constraints with no common zero, E0306 for a constraint that can be neither solved nor
    /// kept (not polynomial in the variables it names).
    pub(crate) fn admit(
        &mut self,
        system: &System,
        kind: StepKind,
        found: Vec<Expr>,
    ) -> diagnostic::Result<Step> {
        let mut solved = Vec::new();
        let mut kept = Vec::new();
        for phi in &found {
            let phi = self.restrict(phi);
            if self.vanishes_on(&phi) {
                continue;
            }
            let variables: Vec<String> = self
                .variables
                .iter()
                .filter(|s| phi.depends_on(s))
                .cloned()
                .collect();
            if variables.is_empty() {
                return Err(vec![inconsistent(system, kind, &phi)]);
            }
            // Solved for a variable if it can be; a power of a solvable constraint (`3 x²`)
            // through its square-free form, which the ideal with it added holds.
            let mut trial = None;
            let mut solution = solve_for(&phi, &variables, &self.variables, &self.kept);
            if solution.is_none() {
                let mut with = self.kept.clone();
                self.insert_into(system, &mut with, &phi)?;
                let generator = with.generators().last().cloned().unwrap_or(phi.clone());
                solution = solve_for(&generator, &variables, &self.variables, &self.kept);
                trial = Some(with);
            }
            match solution {
                Some((variable, value)) => {
                    let one: BTreeMap<String, Expr> = [(variable.clone(), value.clone())].into();
                    for v in self.solved.values_mut() {
                        *v = v.subs(&one).simplify();
                    }
                    self.solved.insert(variable.clone(), value.clone());
                    self.rebuild_kept(system, &one)?;
                    solved.push((variable, value));
                    self.functions.push(phi.clone());
                }
                None => {
                    self.kept = trial.expect("computed when no solution was found");
                    if self.kept.is_whole() {
                        return Err(vec![inconsistent(system, kind, &phi)]);
                    }
                    // Its square-free form: `3 x²` has a vanishing differential where it holds,
                    // `x` does not, and tangency is imposed through the differential.
                    let generator = self.kept.generators().last().cloned().unwrap_or(phi);
                    kept.push(generator.clone());
                    self.functions.push(generator);
                }
            }
        }
        Ok(Step {
            kind,
            found,
            solved,
            kept,
        })
    }

    /// The kept constraints after a variable was solved for: substituted, and the ideal rebuilt.
    fn rebuild_kept(
        &mut self,
        system: &System,
        one: &BTreeMap<String, Expr>,
    ) -> diagnostic::Result<()> {
        if self.kept.is_empty() {
            return Ok(());
        }
        let mut rebuilt = cas::Ideal::new(self.variables.clone());
        for g in self.kept.generators() {
            let g = g.subs(one).simplify();
            if g.vanishes() {
                continue;
            }
            self.insert_into(system, &mut rebuilt, &g)?;
        }
        self.kept = rebuilt;
        Ok(())
    }

    /// `ideal` with `phi` added, within the size and time budgets: E0306 for a constraint that is
    /// not polynomial, E0501 (E0503 past the deadline) for a Gröbner basis that swells.
    fn insert_into(
        &self,
        system: &System,
        ideal: &mut cas::Ideal,
        phi: &Expr,
    ) -> diagnostic::Result<()> {
        let options = self.options;
        let allows = move |e: &Expr| options.allows(e);
        let budget = cas::Budget {
            steps: cas::Budget::STEPS,
            allows: &allows,
        };
        match ideal.insert_within(phi, &budget) {
            Ok(()) => Ok(()),
            Err(cas::Refused::NotPolynomial) => Err(vec![unsolvable(system, phi)]),
            Err(cas::Refused::Budget) => {
                let stage = "the Gröbner basis of the constraints kept as equations";
                let help = "raise --max-terms, or write the system so that its constraints can be solved for variables";
                self.options.within_or(stage, self.span, [], help)?;
                Err(vec![Diagnostic::error(
                    Code::E0501,
                    format!("the derivation swelled past its size budget while computing {stage}"),
                    self.span,
                    format!(
                        "with the constraint {} = 0, Buchberger's algorithm needs more than {} reduction steps or a coefficient above --max-terms {}",
                        show(system, phi),
                        cas::Budget::STEPS,
                        self.options.max_terms
                    ),
                )
                .with_help(help.to_string())])
            }
        }
    }
}

/// The coordinates, then the velocities: the variables of the Lagrangian constraint set.
pub(crate) fn state_variables(system: &System) -> Vec<String> {
    system
        .keys(&system.coordinates)
        .into_iter()
        .chain(system.keys(&system.algebroid.velocities))
        .collect()
}

/// `e` as the spec writes it.
pub(crate) fn show(system: &System, e: &Expr) -> String {
    cas::print::spec(e, &system)
}

fn inconsistent(system: &System, kind: StepKind, phi: &Expr) -> Diagnostic {
    let step = match kind {
        StepKind::Consistency(k) => format!("step {k}"),
        StepKind::Sode => "the SODE step".to_string(),
    };
    Diagnostic::error(
        Code::E0305,
        "the constraint algorithm found no motion: the system is inconsistent",
        system.lagrangian_span,
        format!("at {step} the condition is {} = 0", show(system, phi)),
    )
    .with_note(
        "i_X ω_L = dE_L has no solution at any point (the constraint algorithm's first failure mode)",
    )
}

fn unsolvable(system: &System, phi: &Expr) -> Diagnostic {
    Diagnostic::error(
        Code::E0306,
        "a constraint of the algorithm can neither be solved for a variable nor kept as a polynomial equation",
        system.lagrangian_span,
        format!("the constraint {} = 0", show(system, phi)),
    )
    .with_note("a constraint is solved for a coordinate or velocity when it is linear in one with a coefficient that is a non-zero constant on the constraint set, and kept as an equation otherwise; a kept equation must be polynomial in the coordinates and velocities it names (the constraint set is then decided exactly, by a Gröbner basis), and this one is not")
}

/// `φ = 0` solved for a variable in which it is linear with a coefficient that is a non-zero
/// constant on the constraint set (reduced modulo the kept constraints it is free of the
/// coordinates and velocities `state`), the simplest such coefficient first; `None` when there is
/// none, and the constraint is kept as an equation. The value divides by the coefficient as it
/// stands (`τ = m (ẋ² + ẏ² + ż² − g z)/(x² + y² + z²)`, not `/l²`), so that the motion keeps the
/// kept constraints invariant off the set too.
fn solve_for(
    phi: &Expr,
    variables: &[String],
    state: &[String],
    kept: &cas::Ideal,
) -> Option<(String, Expr)> {
    let mut best: Option<(bool, usize, usize, String, Expr)> = None;
    for (index, s) in variables.iter().enumerate() {
        let coefficient = phi.diff(s).simplify();
        if coefficient.depends_on(s) || coefficient.vanishes() {
            continue;
        }
        let on_set = kept.reduce(&coefficient);
        let constant = !state.iter().any(|v| on_set.depends_on(v));
        if !constant || on_set.vanishes() {
            continue;
        }
        let key = (
            coefficient.as_small_rational().is_none(),
            coefficient.size(),
            index,
        );
        if best
            .as_ref()
            .is_none_or(|(a, b, c, _, _)| key < (*a, *b, *c))
        {
            best = Some((key.0, key.1, key.2, s.clone(), coefficient));
        }
    }
    let (_, _, _, s, coefficient) = best?;
    let zero: BTreeMap<String, Expr> = [(s.clone(), Expr::zero())].into();
    let value = (-(phi.subs(&zero)) / coefficient).simplify();
    Some((s, value))
}
