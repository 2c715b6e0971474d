//! Seed 003 §3.1 and §4 (digest 003 §1.4, §1.6, recipe (b)): the constraint algorithm of a
//! singular Lagrangian on a Lie algebroid, and the SODE step.
//!
//! On the prolongation `𝒯^E E` (basis `𝒳_A`, `𝒱_A`; anchors `ρ(𝒳_A) = ρ^i_A ∂_{x^i}`,
//! `ρ(𝒱_A) = ∂_{y^A}`) the dynamics is `i_X ω_L = dE_L` with `ω_L` the Poincaré–Cartan
//! 2-section ([`crate::lagrangian`]'s `Ω_L` without its time row, which is seed 003's `ω_L`:
//! `ω(𝒳_A, 𝒱_B) = W_AB`, `ω(𝒳_A, 𝒳_B) = ρ_B(p_A) − ρ_A(p_B) + C^C_AB p_C`) and
//! `dE_L = ρ_A(E_L) 𝒳^A + ∂E_L/∂y^A 𝒱^A`. In components, `Σ_P X^P ω_PQ = dE_L(Q)` for every
//! basis element `Q`. When `W` is singular this has no solution everywhere, and the algorithm
//! (3.5)–(3.6) looks for the points where it has one, tangent to where they are:
//!
//! 1. with the constraints `φ_j` found so far (none at first), stack the rows `ω_·Q` and the
//!    tangency rows `d^E φ_j = (ρ_A(φ_j), ∂φ_j/∂y^A)`, reduce them on the current constraint
//!    set, and eliminate: every combination of rows that vanishes gives the condition that the
//!    same combination of `(dE_L, 0)` vanish — a new constraint (this is `α(Z) = 0` for `Z` in
//!    `(E_k)^⊥`, digest §1.4 "computable form");
//! 2. stop when a step finds nothing new (the level is the number of steps that did); a
//!    non-zero constant is an inconsistent system (E0305); more steps than the dimension of `E`
//!    means the rank changed (E0307).
//!
//! A constraint linear in some coordinate or velocity whose coefficient is, on the constraint
//! set, a non-zero constant (free of the coordinates and velocities) is solved for it (the
//! simplest such coefficient), and the variable leaves the state. Any other constraint (a sphere
//! `x² + y² + z² − l²`, its tangency `x ẋ + y ẏ + z ż`) is *kept as an equation*: the constraint
//! set is then a substitution together with a polynomial ideal ([`cas::Ideal`], a Gröbner basis),
//! every zero test is made on that set, the tangency rows of kept constraints take part in every
//! later step like the others, and the final motion is an ODE on the variables that remain, to
//! be read on the set the kept constraints define (emitted code projects onto them). This is the
//! algorithm without the paper's standing assumption that each constraint set is given by solved
//! variables (the Gotay–Nester algorithm as it runs on a closed kinematic chain or a mechanical
//! system with its constraint force as a coordinate). Then the SODE step (Theorems 4.4–4.6): the solutions are
//! `X = X_p + f^j Z_j` with `Z_j` spanning `ker ω ∩ E_f`; `X^A = y^A` (a second-order equation)
//! is solved for the `f^j`, and what cannot be solved are the SODE constraints `S^X`. Finally the
//! `𝒱` components are fixed by the equations with `X^A = y^A` and tangency to every constraint;
//! any direction left free is reported (gauge). The motion on the final set is
//! `ẋ^i = ρ^i_A y^A`, `ẏ^A = V^A` on the variables that remain.

use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::{Diagnostic, Span};
use model::System;

use crate::lagrangian::{anchor_apply, Lagrangian};

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

/// An unknown of `i_X ω_L = dE_L`: a component of `X = X^A 𝒳_A + V^A 𝒱_A` (for
/// `algebroid tangent`, `X^A` is the rate of the coordinate `q^A` and `V^A` that of `q'^A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// `X^A`, the component along `𝒳_A`.
    Horizontal(usize),
    /// `V^A`, the component along `𝒱_A`: the rate of the velocity `y^A`.
    Vertical(usize),
}

/// The unknowns an elimination of the algorithm determined for the first time (whatever the
/// directions it leaves free), with their values on the constraint set then: which rates or
/// accelerations (and so which multipliers, for a constraint force carried as a coordinate)
/// each step fixes.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// The round: `Consistency(k)` for the elimination that found the constraints of step `k`
    /// (or, for `k = level + 1`, that found nothing new), `Sode` for the accelerations the SODE
    /// step's equations fix.
    pub kind: StepKind,
    /// The unknowns and their values.
    pub values: Vec<(Unknown, Expr)>,
}

/// The outcome of the constraint algorithm.
#[derive(Clone, Debug)]
pub struct Algorithm {
    /// Every step that found constraints, in order.
    pub steps: Vec<Step>,
    /// What each elimination fixed, in order.
    pub fixed: Vec<Fixed>,
    /// The level at which the consistency steps stabilised.
    pub level: usize,
    /// The final constraint set, as the values of the variables solved for.
    pub solved: BTreeMap<String, Expr>,
    /// The constraints kept as equations on the final set (in the variables that remain), which
    /// the motion preserves: what emitted code projects onto.
    pub kept: Vec<Expr>,
    /// The ideal of the kept constraints, for zero tests on the final set.
    pub ideal: cas::Ideal,
    /// The variables that remain: coordinates, then velocities.
    pub state: Vec<String>,
    /// Their rates on the final constraint set.
    pub rates: Vec<Expr>,
    /// The directions of `ẏ` left free by the equations (gauge), each as a vector over the
    /// velocities that remain.
    pub gauge: Vec<Vec<Expr>>,
    /// `E_L` on the final set.
    pub energy: Expr,
    /// The pivots of the eliminations that are functions, not numbers: the algorithm assumed
    /// them non-zero, and where one vanishes the rank of `ω_L` (or of its restriction) changes —
    /// a failure of the paper's regularity assumptions (digest 003 recipe (b), failure mode 2).
    pub assumptions: Vec<Expr>,
}

/// The largest number of steps (consistency and SODE) before E0307.
fn step_budget(system: &System) -> usize {
    2 * (system.coordinates.len() + system.rank()) + 2
}

/// Runs the algorithm on a system whose `W` is singular (see the module documentation).
pub fn derive(
    system: &System,
    lag: &Lagrangian,
    options: &crate::Options,
) -> diagnostic::Result<Algorithm> {
    refuse_unsupported(system)?;
    let n = system.rank();
    let alg = &system.algebroid;
    // ω_PQ over (𝒳_1..𝒳_n, 𝒱_1..𝒱_n): Ω_L without its time row and column.
    let omega: Vec<Vec<Expr>> = (1..=2 * n)
        .map(|p| (1..=2 * n).map(|q| lag.omega[p][q].clone()).collect())
        .collect();
    let energy = &lag.energy;
    let alpha: Vec<Expr> = (0..n)
        .map(|a| anchor_apply(system, a + 1, energy))
        .chain(alg.velocities.iter().map(|y| energy.diff(y)))
        .collect();
    // The equations Σ_P X^P ω_PQ = α_Q, one row per Q.
    let equations: Vec<Vec<Expr>> = (0..2 * n)
        .map(|q| (0..2 * n).map(|p| omega[p][q].clone()).collect())
        .collect();
    let mut state = Constraints::new(system, options);
    let eliminate = |state: &Constraints, a: &[Vec<Expr>], b: &[Expr]| {
        reduce(
            a,
            b,
            &|rows| within(options, system, rows),
            &Pivoting {
                vanishes: &|e| state.vanishes_on(e),
                variables: &state.variables,
            },
        )
    };
    let mut steps = Vec::new();
    let mut level = 0;
    let mut assumptions: Vec<Expr> = Vec::new();
    // Pivots that differ by a constant factor make one assumption.
    let mut assume = |pivots: &[Expr]| {
        for p in pivots {
            let known = assumptions.iter().any(|q| {
                (p.clone() / q.clone())
                    .simplify()
                    .as_small_rational()
                    .is_some()
            });
            if p.as_small_rational().is_none() && !known {
                assumptions.push(p.clone());
            }
        }
    };
    // Which unknowns each elimination determines for the first time.
    let mut determined = vec![false; 2 * n];
    let mut fixed: Vec<Fixed> = Vec::new();
    let mut record = |state: &Constraints, kind: StepKind, reduced: &Reduced, offset: usize| {
        let mut values = Vec::new();
        for (c, value) in reduced.particular.iter().enumerate() {
            let column = c + offset;
            if determined[column] || !reduced.kernel.iter().all(|z| state.vanishes_on(&z[c])) {
                continue;
            }
            determined[column] = true;
            let unknown = if column < n {
                Unknown::Horizontal(column)
            } else {
                Unknown::Vertical(column - n)
            };
            values.push((unknown, state.display(&state.restrict(value))));
        }
        if !values.is_empty() {
            fixed.push(Fixed { kind, values });
        }
    };
    loop {
        let (a, b) = state.system_rows(system, &equations, &alpha);
        state.exceeded()?;
        let reduced = eliminate(&state, &a, &b)?;
        assume(&reduced.pivots);
        record(&state, StepKind::Consistency(level + 1), &reduced, 0);
        let found = state.new_constraints(&reduced.conditions);
        state.exceeded()?;
        if found.is_empty() {
            break;
        }
        level += 1;
        let step = state.admit(system, StepKind::Consistency(level), found)?;
        steps.push(step);
        if steps.len() > step_budget(system) {
            return Err(vec![budget_exhausted(system)]);
        }
    }
    // The SODE step: X^A = y^A on the solutions X_p + f^j Z_j.
    let (a, b) = state.system_rows(system, &equations, &alpha);
    state.exceeded()?;
    let solution = eliminate(&state, &a, &b)?;
    assume(&solution.pivots);
    let velocity =
        |state: &Constraints, k: usize| state.restrict(&Expr::symbol(&alg.velocities[k]));
    let sode_rows: Vec<Vec<Expr>> = (0..n)
        .map(|k| solution.kernel.iter().map(|z| z[k].clone()).collect())
        .collect();
    let sode_rhs: Vec<Expr> = (0..n)
        .map(|k| (velocity(&state, k) - solution.particular[k].clone()).simplify())
        .collect();
    state.exceeded()?;
    let sode = eliminate(&state, &sode_rows, &sode_rhs)?;
    assume(&sode.pivots);
    let found = state.new_constraints(&sode.conditions);
    state.exceeded()?;
    if !found.is_empty() {
        steps.push(state.admit(system, StepKind::Sode, found)?);
    }
    // The 𝒱 components with X^A = y^A, tangent to every constraint; tangency to the SODE
    // constraints may add more (reported as SODE steps too).
    let (vertical, gauge) = loop {
        let (a, b) = state.system_rows(system, &equations, &alpha);
        let a_v: Vec<Vec<Expr>> = a.iter().map(|row| row[n..].to_vec()).collect();
        let b_v: Vec<Expr> = a
            .iter()
            .zip(&b)
            .map(|(row, rhs)| {
                (0..n)
                    .fold(rhs.clone(), |acc, k| {
                        acc - row[k].clone() * velocity(&state, k)
                    })
                    .simplify()
            })
            .collect();
        state.exceeded()?;
        let solved = eliminate(&state, &a_v, &b_v)?;
        assume(&solved.pivots);
        record(&state, StepKind::Sode, &solved, n);
        let found = state.new_constraints(&solved.conditions);
        state.exceeded()?;
        if found.is_empty() {
            break (solved.particular, solved.kernel);
        }
        steps.push(state.admit(system, StepKind::Sode, found)?);
        if steps.len() > step_budget(system) {
            return Err(vec![budget_exhausted(system)]);
        }
    };
    state.exceeded()?;
    // A pivot assumed non-zero that vanishes on the final set: the rank changed there.
    if let Some(pivot) = assumptions.iter().find(|p| state.vanishes_on(p)) {
        return Err(vec![rank_changed(system, pivot)]);
    }
    // A pivot that the kept constraints make a non-zero constant (`x² + y² + z²` on a sphere) is
    // no assumption.
    if !state.kept.is_empty() {
        let constant_on_set = |p: &Expr| {
            let on_set = state.kept.reduce(&state.restrict(p));
            !on_set.vanishes() && !state.variables.iter().any(|v| on_set.depends_on(v))
        };
        let on_state = |p: &Expr| state.variables.iter().any(|v| p.depends_on(v));
        assumptions.retain(|p| !(on_state(p) && constant_on_set(p)));
    }
    let remaining: Vec<String> = system
        .coordinates
        .iter()
        .chain(&alg.velocities)
        .filter(|s| !state.solved.contains_key(*s))
        .cloned()
        .collect();
    let rate_of = |s: &String| -> Expr {
        if let Some(i) = system.coordinates.iter().position(|q| q == s) {
            let rate = (0..n).fold(Expr::zero(), |acc, k| {
                acc + alg.anchors[k][i + 1].clone() * Expr::symbol(&alg.velocities[k])
            });
            state.restrict(&rate)
        } else {
            let k = alg
                .velocities
                .iter()
                .position(|y| y == s)
                .expect("a velocity");
            vertical[k].clone()
        }
    };
    let rates: Vec<Expr> = remaining.iter().map(rate_of).collect();
    let energy = state.display(&state.restrict(energy));
    state.exceeded()?;
    let free: Vec<usize> = (0..n)
        .filter(|&k| !state.solved.contains_key(&alg.velocities[k]))
        .collect();
    let gauge = gauge
        .iter()
        .map(|z| free.iter().map(|&k| z[k].clone()).collect())
        .collect();
    Ok(Algorithm {
        steps,
        fixed,
        level,
        energy,
        solved: state.solved,
        kept: state.kept.generators().to_vec(),
        ideal: state.kept,
        state: remaining,
        rates,
        gauge,
        assumptions,
    })
}

fn rank_changed(system: &System, pivot: &Expr) -> Diagnostic {
    Diagnostic::error(
        "E0307",
        "the constraint algorithm did not stabilise: the rank of ω_L changes on the constraint set",
        system.lagrangian_span,
        format!(
            "an elimination divided by {}, which vanishes on the final constraint set",
            show(system, pivot)
        ),
    )
    .with_note("the paper assumes each constraint set is a submanifold on which ω_L restricted has constant rank (the constraint algorithm's second failure mode): here it does not")
}

fn budget_exhausted(system: &System) -> Diagnostic {
    Diagnostic::error(
        "E0307",
        "the constraint algorithm did not stabilise",
        system.lagrangian_span,
        "more steps than the dimension of E",
    )
    .with_note("each step that finds a constraint lowers the dimension, so the rank of ω_L or of its restriction changed: the paper's regularity assumptions fail here (the constraint algorithm's second failure mode)")
}

/// E0290 for what the algorithm does not cover.
fn refuse_unsupported(system: &System) -> diagnostic::Result<()> {
    let unsupported = |what: &str, note: &str| {
        Err(vec![Diagnostic::error(
            "E0290",
            format!("{what}: not supported yet"),
            system.lagrangian_span,
            "the Lagrangian is singular (det W = 0)",
        )
        .with_note(note.to_string())])
    };
    if !system.constraints.is_empty() {
        return unsupported(
            "a singular Lagrangian with nonholonomic constraints",
            "the constraint algorithm of [IMMS08] §4 is for unconstrained singular Lagrangians",
        );
    }
    if system.forces.iter().any(|f| !f.is_zero()) {
        return unsupported(
            "a singular Lagrangian with external forces",
            "[IMMS08] §4 solves i_X ω_L = dE_L, without forces",
        );
    }
    if system.is_time_dependent() {
        return unsupported(
            "a time-dependent singular Lagrangian",
            "[IMMS08] §4 is autonomous: ω_L and E_L may not depend on time",
        );
    }
    let alg = &system.algebroid;
    let reference_is_time = alg.anchor0.iter().enumerate().all(|(i, r)| {
        if i == 0 {
            r.clone().simplify() == Expr::one()
        } else {
            r.is_zero()
        }
    });
    if !(reference_is_time && alg.c0.iter().flatten().all(Expr::is_zero)) {
        return unsupported(
            "a singular Lagrangian on an affgebroid",
            "[IMMS08] works on Lie algebroids: declare the algebroid without `e0`",
        );
    }
    Ok(())
}

/// The constraint set so far, as a substitution.
#[derive(Default)]
pub(crate) struct Constraints {
    /// The constraint functions, as found (for the tangency rows).
    functions: Vec<Expr>,
    /// Each solved variable and its value in the variables that remain.
    solved: BTreeMap<String, Expr>,
    /// The constraints kept as equations, in the variables that remain.
    kept: cas::Ideal,
    /// The coordinates and velocities, in order (the candidate variables of `kept`).
    variables: Vec<String>,
    /// The size and time budgets of the restrictions, and where E0501/E0503 points.
    options: crate::Options,
    span: Span,
    /// The first budget a restriction exceeded; later restrictions return their input unchanged
    /// and the algorithm stops at its next [`Constraints::exceeded`].
    exceeded: std::cell::RefCell<Option<Vec<Diagnostic>>>,
}

impl Constraints {
    fn new(system: &System, options: &crate::Options) -> Constraints {
        let variables: Vec<String> = system
            .coordinates
            .iter()
            .chain(&system.algebroid.velocities)
            .cloned()
            .collect();
        Constraints::over(system, options, variables)
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

    /// The variables solved for, and their values.
    pub(crate) fn solved(&self) -> &BTreeMap<String, Expr> {
        &self.solved
    }

    /// The variables of the set, in order.
    pub(crate) fn variables(&self) -> &[String] {
        &self.variables
    }

    /// Whether `e` vanishes on the constraint set (the substitution, then the kept constraints).
    pub(crate) fn vanishes_on(&self, e: &Expr) -> bool {
        let restricted = self.restrict(e);
        restricted.vanishes() || (!self.kept.is_empty() && self.kept.vanishes_on(&restricted))
    }

    /// `e` reduced modulo the kept constraints when that makes it smaller (a form to show; the
    /// rates are not reduced, so that off the set they keep the kept constraints invariant).
    pub(crate) fn display(&self, e: &Expr) -> Expr {
        if self.kept.is_empty() {
            return e.clone();
        }
        let reduced = self.kept.reduce(e);
        if reduced.size() < e.size() {
            reduced
        } else {
            e.clone()
        }
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
    fn system_rows(
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
                .chain(system.algebroid.velocities.iter().map(|y| phi.diff(y)))
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
                    "E0501",
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

fn show(system: &System, e: &Expr) -> String {
    cas::print::spec(e, &system)
}

fn inconsistent(system: &System, kind: StepKind, phi: &Expr) -> Diagnostic {
    let step = match kind {
        StepKind::Consistency(k) => format!("step {k}"),
        StepKind::Sode => "the SODE step".to_string(),
    };
    Diagnostic::error(
        "E0305",
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
        "E0306",
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

/// A linear system `A x = b` reduced by Gauss–Jordan elimination.
pub(crate) struct Reduced {
    /// The conditions for a solution: `b` combinations whose rows of `A` vanish.
    pub(crate) conditions: Vec<Expr>,
    /// A solution when the conditions hold (the free unknowns zero).
    pub(crate) particular: Vec<Expr>,
    /// A basis of the solutions of `A x = 0`.
    pub(crate) kernel: Vec<Vec<Expr>>,
    /// The pivots divided by.
    pub(crate) pivots: Vec<Expr>,
}

/// E0501 when an entry of an elimination outgrows the size budget (`--max-terms`): symbolic
/// Gauss–Jordan swells on large algebroids.
pub(crate) fn within(
    options: &crate::Options,
    system: &System,
    rows: &[Vec<Expr>],
) -> diagnostic::Result<()> {
    options.within_or(
        "the constraint algorithm's elimination",
        system.lagrangian_span,
        rows.iter()
            .flatten()
            .map(|e| ("an entry of the reduced [ω_L | dE_L]".to_string(), e)),
        "raise --max-terms (the constraint algorithm has no implicit form)",
    )
}

/// How an elimination tests and chooses its pivots.
pub(crate) struct Pivoting<'a> {
    /// The exact zero test on the constraint set.
    pub(crate) vanishes: &'a dyn Fn(&Expr) -> bool,
    /// The state variables: a pivot free of them (a number, then a parameter) is preferred, so
    /// that the eliminations assume as little as they can.
    pub(crate) variables: &'a [String],
}

/// Gauss–Jordan elimination of `[A | b]` with exact zero tests on the constraint set; pivots
/// prefer numbers, then functions of the parameters only, then the smallest. `check` is called on
/// every entry it computes (the size and time budgets).
pub(crate) fn reduce(
    a: &[Vec<Expr>],
    b: &[Expr],
    check: &dyn Fn(&[Vec<Expr>]) -> diagnostic::Result<()>,
    pivoting: &Pivoting<'_>,
) -> diagnostic::Result<Reduced> {
    let vanishes = pivoting.vanishes;
    let on_state = |e: &Expr| pivoting.variables.iter().any(|v| e.depends_on(v));
    let columns = a.first().map_or(0, Vec::len);
    let mut rows: Vec<Vec<Expr>> = a
        .iter()
        .zip(b)
        .map(|(row, rhs)| {
            let mut r = row.clone();
            r.push(rhs.clone());
            r
        })
        .collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut divided: Vec<Expr> = Vec::new();
    let mut top = 0;
    for col in 0..columns {
        // Literal zeros (most of ω_L) are skipped before the exact, and costly, zero test.
        let nonzero = |e: &Expr| !e.is_literal_zero() && !vanishes(e);
        let candidate = (top..rows.len())
            .filter(|&r| nonzero(&rows[r][col]))
            .min_by_key(|&r| {
                (
                    rows[r][col].as_small_rational().is_none(),
                    on_state(&rows[r][col]),
                    rows[r][col].size(),
                )
            });
        let Some(r) = candidate else {
            continue;
        };
        rows.swap(top, r);
        let pivot = rows[top][col].clone();
        divided.push(pivot.clone());
        rows[top] = rows[top]
            .iter()
            .map(|e| {
                if e.is_literal_zero() {
                    Expr::zero()
                } else {
                    (e.clone() / pivot.clone()).simplify()
                }
            })
            .collect();
        for other in 0..rows.len() {
            if other == top || !nonzero(&rows[other][col]) {
                continue;
            }
            let factor = rows[other][col].clone();
            let mut row = Vec::with_capacity(rows[other].len());
            for (x, p) in rows[other].iter().zip(&rows[top]) {
                if p.is_literal_zero() {
                    row.push(x.clone());
                } else {
                    let entry = (x.clone() - factor.clone() * p.clone()).simplify();
                    check(std::slice::from_ref(&vec![entry.clone()]))?;
                    row.push(entry);
                }
            }
            rows[other] = row;
        }
        pivots.push(col);
        top += 1;
        check(&rows[top - 1..top])?;
    }
    let conditions = rows[top..]
        .iter()
        .map(|row| row[columns].clone())
        .filter(|c| !vanishes(c))
        .collect();
    let mut particular = vec![Expr::zero(); columns];
    for (r, &col) in pivots.iter().enumerate() {
        particular[col] = rows[r][columns].clone();
    }
    let kernel = (0..columns)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut z = vec![Expr::zero(); columns];
            z[free] = Expr::one();
            for (r, &col) in pivots.iter().enumerate() {
                z[col] = (-rows[r][free].clone()).simplify();
            }
            z
        })
        .collect();
    Ok(Reduced {
        conditions,
        particular,
        kernel,
        pivots: divided,
    })
}
