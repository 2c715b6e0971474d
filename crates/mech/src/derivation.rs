//! The derivation of a system: every object of [IMMS07] §II–§IV that applies to it.

use cas::Expr;
use diagnostic::Diagnostic;
use model::System;

use crate::budget::{matrix_entries, vector_entries, Options};
use crate::dirac::Dirac;
use crate::hamiltonian::{Hamiltonian, Unavailable};
use crate::implicit::{self, Implicit};
use crate::lagrangian::{self, Lagrangian};
use crate::nonholonomic::{self, Nonholonomic};
use crate::route::{self, Attempt, Choice, Method};

/// A system whose dynamics are given in implicit form only (see [`crate::implicit`]): what a
/// large system gets, for the emitted code to solve numerically.
#[derive(Clone, Debug)]
pub struct ImplicitDerivation {
    /// The system, as resolved.
    pub system: System,
    /// `W`, the forcing, the constraint Jacobian and bias, `p`, `E_L`.
    pub implicit: Implicit,
    /// Why the implicit form.
    pub choice: Choice,
}

/// A system with vakonomic constraints ([IMMS08] §5.1, [`crate::vakonomic`]).
#[derive(Clone, Debug)]
pub struct VakonomicDerivation {
    /// The system, as resolved.
    pub system: System,
    /// The vakonomic equations, their Hamiltonian form and bracket.
    pub vakonomic: crate::vakonomic::Vakonomic,
    /// `dH_{W_0}/dt` along the vakonomic equations, or `None` when its normal form passes the
    /// budget of optional quantities (`optional_rate`).
    pub energy_rate: Option<Expr>,
}

/// A singular Lagrangian's constraint algorithm ([IMMS08] §4, [`crate::singular`]).
#[derive(Clone, Debug)]
pub struct SingularDerivation {
    /// The system, as resolved.
    pub system: System,
    /// `p`, `W`, `E_L`, `Ω_L`.
    pub lagrangian: Lagrangian,
    /// The steps, the final constraint set and the motion on it.
    pub algorithm: crate::singular::Algorithm,
    /// `dE_L/dt` along the motion on the final constraint set, or `None` when its normal form
    /// passes the budget of optional quantities (`optional_rate`).
    pub energy_rate: Option<Expr>,
    /// The Hamiltonian side: the Dirac–Bergmann chain, first and second class, the Dirac bracket
    /// ([`crate::dirac_bergmann`]), or why it is not derived.
    pub hamiltonian:
        Result<crate::dirac_bergmann::DiracBergmann, crate::dirac_bergmann::Unavailable>,
}

/// A contact (Herglotz) system ([LJL21], [`crate::contact`]).
#[derive(Clone, Debug)]
pub struct ContactDerivation {
    /// The system, as resolved.
    pub system: System,
    /// The constrained Herglotz equations, the projector, the bracket.
    pub contact: crate::contact::Contact,
}

/// What [`derive_with`] produced.
#[derive(Clone, Debug)]
pub enum Derived {
    /// Every object of [IMMS07] in closed form.
    Closed(Box<Derivation>),
    /// The implicit form only.
    Implicit(Box<ImplicitDerivation>),
    /// Vakonomic dynamics.
    Vakonomic(Box<VakonomicDerivation>),
    /// A singular Lagrangian and its constraint algorithm.
    Singular(Box<SingularDerivation>),
    /// A contact (Herglotz) system.
    Contact(Box<ContactDerivation>),
}

impl Derived {
    /// Why the closed or the implicit form was derived (the Lagrange–d'Alembert routes; the
    /// others have one form each).
    pub fn choice(&self) -> Option<&Choice> {
        match self {
            Derived::Closed(d) => Some(&d.choice),
            Derived::Implicit(d) => Some(&d.choice),
            _ => None,
        }
    }

    /// The system.
    pub fn system(&self) -> &System {
        match self {
            Derived::Closed(d) => &d.system,
            Derived::Implicit(d) => &d.system,
            Derived::Vakonomic(d) => &d.system,
            Derived::Singular(d) => &d.system,
            Derived::Contact(d) => &d.system,
        }
    }
}

/// Derives `system` by the route `options.solve` asks for (the closed form of [`derive`], or the
/// implicit form of [`implicit::derive`]) within the size budget of `options`. The induced
/// method needs the closed form (it is built from the projected structure), and refuses with
/// E0405 a system that has none.
pub fn derive_with(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if system.action.is_some() {
        return derive_contact(system, options);
    }
    if !system.vakonomic.is_empty() {
        return derive_vakonomic(system, options);
    }
    if let Some(choice) = structured_choice(system, options) {
        if let Some(form) = crate::composite::derive(system) {
            return implicit_derivation(system, form, options, choice);
        }
    }
    if system.constraints.is_empty() && hessian_is_singular(system) {
        return derive_singular(system, options);
    }
    if options.method == Method::Induced {
        let mut d = derive_within(system, options)?;
        if let Err(why) = &d.projected {
            return Err(vec![Diagnostic::error(
                "E0405",
                "the induced route (`--method induced`) is not available for this system",
                system.lagrangian_span,
                "[GLMM09] §5 needs linear constraints, a mechanical Lagrangian and a Lie algebroid",
            )
            .with_note(why.to_string())
            .with_help("derive it with `--method multipliers` (the default)")]);
        }
        d.method = Method::Induced;
        d.choice = Choice {
            route: route::Route::Closed,
            reason: "the induced method (--method induced) is built on the closed form".into(),
        };
        return Ok(Derived::Closed(Box::new(d)));
    }
    match route::forced(options.solve) {
        Some(choice) if choice.route == route::Route::Implicit => {
            implicit_derivation(system, implicit::derive(system), options, choice)
        }
        Some(choice) => derive_within(system, options).map(|mut d| {
            d.choice = choice;
            Derived::Closed(Box::new(d))
        }),
        None => derive_auto(system, options),
    }
}

/// The implicit form from the joints' structure ([`crate::composite`]) when the system is a tree
/// of joints whose Lagrangian would expand past [`route::STRUCTURED_EXPANSION`] terms and
/// neither the closed form (`--solve symbolic`) nor the induced method asks for the expansion.
fn structured_choice(system: &System, options: &Options) -> Option<Choice> {
    if system.multibody.is_none()
        || options.solve == crate::Solve::Symbolic
        || options.method == Method::Induced
    {
        return None;
    }
    let terms = system.lagrangian.expansion_bound();
    (terms > route::STRUCTURED_EXPANSION).then(|| Choice::structured(terms))
}

/// The two eliminations of the closed form, `W⁻¹` and `𝒞⁻¹` (`𝒞 = μ W⁻¹ μᵀ` up to sign), tried
/// under the budget of `attempt`: `Err` with the reason at the first entry it refuses. A singular
/// matrix passes: the closed form reports it with its determinant. A refusal because the run's
/// deadline passed is not a reason: the caller reports it as E0503.
fn probe_eliminations(form: &Implicit, attempt: &mut Attempt) -> Result<(), String> {
    let inverse = match cas::inverse_guarded(&form.mass, attempt) {
        Ok(inverse) => inverse,
        Err(cas::Halted::Refused(entry)) => return Err(attempt.refusal("W⁻¹", &entry)),
        Err(cas::Halted::Singular(_)) => return Ok(()),
    };
    let mu = &form.jacobian;
    let mut matrix = Vec::with_capacity(mu.len());
    for a in mu {
        let mut row = Vec::with_capacity(mu.len());
        for b in mu {
            let mut entry = Expr::zero();
            for (alpha, inverse_row) in inverse.iter().enumerate() {
                for (beta, w) in inverse_row.iter().enumerate() {
                    if !a[alpha].is_literal_zero() && !b[beta].is_literal_zero() {
                        entry = entry + a[alpha].clone() * w.clone() * b[beta].clone();
                    }
                }
            }
            // Measured before its normalisation too, which nothing can interrupt.
            if !attempt.admits(&entry) || !attempt.allows(&entry) {
                return Err(attempt.refusal("𝒞", &entry));
            }
            let entry = entry.simplify();
            if !attempt.allows(&entry) {
                return Err(attempt.refusal("𝒞", &entry));
            }
            row.push(entry);
        }
        matrix.push(row);
    }
    match cas::inverse_guarded(&matrix, attempt) {
        Err(cas::Halted::Refused(entry)) => Err(attempt.refusal("𝒞⁻¹", &entry)),
        _ => Ok(()),
    }
}

/// [`crate::Solve::Auto`]: the closed form within the budget of [`crate::route`], else the implicit form.
fn derive_auto(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    let form = implicit::derive(system);
    let mut attempt = Attempt::start(options.deadline);
    if let Err(why) = probe_eliminations(&form, &mut attempt) {
        if attempt.out_of_time() {
            let stage = "the closed form's eliminations";
            return Err(vec![crate::budget::out_of_time(
                stage,
                system.lagrangian_span,
            )]);
        }
        return implicit_derivation(system, form, options, Choice::fallback(&why));
    }
    let within = Options {
        effort_limit: Some(attempt.effort_limit),
        ..*options
    };
    let mut d = match derive_within(system, &within) {
        Ok(d) => d,
        Err(diagnostics) => {
            // The size and work budgets choose the route; the run's deadline (E0503) does not.
            let budget = diagnostics
                .iter()
                .find(|d| matches!(d.code, "E0501" | "E0513"));
            return match budget {
                Some(over) if over.code == "E0513" => {
                    let why = over.message.clone();
                    implicit_derivation(system, form, options, Choice::fallback(&why))
                }
                Some(over) => {
                    let why = format!("{}: {}", over.message, over.primary.message);
                    implicit_derivation(system, form, options, Choice::fallback(&why))
                }
                None => Err(diagnostics),
            };
        }
    };
    let oversized = route::first_oversized([
        ("the equations", d.fibre_rhs()),
        ("the multipliers", d.multipliers()),
    ]);
    if let Some(why) = oversized {
        return implicit_derivation(system, form, options, Choice::fallback(&why));
    }
    d.choice = Choice::closed_fits();
    Ok(Derived::Closed(Box::new(d)))
}

fn implicit_derivation(
    system: &System,
    form: Implicit,
    options: &Options,
    choice: Choice,
) -> diagnostic::Result<Derived> {
    options.within(
        "the implicit form",
        system.lagrangian_span,
        matrix_entries("W", &form.mass)
            .chain(vector_entries("b", &form.forcing))
            .chain(matrix_entries("μ", &form.jacobian))
            .chain(vector_entries("β", &form.bias))
            .chain(
                form.bindings
                    .iter()
                    .map(|(name, value)| (name.clone(), value)),
            ),
    )?;
    // A singular W has no implicit dynamics either: exact rank test (numeric points first).
    if let Some(row) = cas::first_dependent_row_bound(&form.mass, &form.bindings) {
        let velocity = system.spec_name(&system.algebroid.velocities[row]);
        return Err(vec![Diagnostic::error(
            "E0301",
            "the Lagrangian is singular: the rows of W are dependent",
            system.lagrangian_span,
            format!(
                "the row of W = ∂²L/∂y∂y for {velocity} is a combination of the rows before it"
            ),
        )
        .with_help(
            "the constraint algorithm ([IMMS08] §4) runs on singular Lagrangians without constraints; with nonholonomic constraints it is not supported yet",
        )]);
    }
    Ok(Derived::Implicit(Box::new(ImplicitDerivation {
        system: system.clone(),
        implicit: form,
        choice,
    })))
}

/// One equation of the first-order system: `d(state)/dt = rhs`.
#[derive(Clone, Debug)]
pub struct Equation {
    /// The state variable (internal name).
    pub state: String,
    /// Its time derivative.
    pub rhs: Expr,
}

/// Everything derived from a [`System`].
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The system, as resolved.
    pub system: System,
    /// `p, W, E_L, Θ_L, Ω_L` and the forcing of the Euler–Lagrange equations.
    pub lagrangian: Lagrangian,
    /// `W^{αβ}`.
    pub hessian_inverse: Vec<Vec<Expr>>,
    /// The unconstrained accelerations `R_L^α`.
    pub free_rhs: Vec<Expr>,
    /// The Lagrange–d'Alembert objects, when there are constraints.
    pub nonholonomic: Option<Nonholonomic>,
    /// The first-order system, in the order of [`System::state`].
    pub equations: Vec<Equation>,
    /// `dE_L/dt` along the dynamics, on the constraint surface (velocities eliminated as in
    /// [`crate::surface::Surface`]).
    pub energy_rate: Expr,
    /// The Hamiltonian side ([IMMS07] §II.5–§II.6, §V), or why it is not available.
    pub hamiltonian: Result<Hamiltonian, Unavailable>,
    /// The Dirac structure `𝒟_C` of the constraints in their adapted frame ([GBMS24] §3), which
    /// needs no Hamiltonian, or why there is none.
    pub dirac_structure: Result<crate::dirac::Structure, crate::dirac::Unavailable>,
    /// The Dirac side ([GBMS24] §3), when the constraints are linear on a Lie algebroid and the
    /// Hamiltonian side exists.
    pub dirac: Result<Dirac, crate::dirac::Unavailable>,
    /// The projected structure on `D` ([GLMM09] §4–§5), for mechanical Lagrangians.
    pub projected: Result<crate::projected::Projected, crate::projected::Unavailable>,
    /// Which equations the outputs lead with ([`Derivation::state`], [`Derivation::rates`]).
    pub method: Method,
    /// Why the closed form ([`crate::route`]).
    pub choice: Choice,
}

impl Derivation {
    /// The system and its Lagrangian's closed-form objects, which the Hamiltonian and projected
    /// sides are built from.
    pub fn regular(&self) -> crate::lagrangian::Regular<'_> {
        crate::lagrangian::Regular {
            system: &self.system,
            lagrangian: &self.lagrangian,
            hessian_inverse: &self.hessian_inverse,
        }
    }

    /// The fibre components of the dynamics (constrained if there are constraints).
    pub fn fibre_rhs(&self) -> &[Expr] {
        match &self.nonholonomic {
            Some(nh) => &nh.rhs,
            None => &self.free_rhs,
        }
    }

    /// The induced route, when it is the method.
    fn induced(&self) -> Option<&crate::projected::Induced> {
        match (self.method, &self.projected) {
            (Method::Induced, Ok(p)) => Some(&p.induced),
            _ => None,
        }
    }

    /// The state of the method's equations: `(x, y)` ([`System::state`]) or, for the induced
    /// method, `(x, v)`.
    pub fn state(&self) -> Vec<String> {
        match self.induced() {
            Some(induced) => induced.state.clone(),
            None => self.system.state(),
        }
    }

    /// The method's equations: the rate of each entry of [`Derivation::state`].
    pub fn rates(&self) -> Vec<Expr> {
        match self.induced() {
            Some(induced) => induced.rates.clone(),
            None => self.equations.iter().map(|e| e.rhs.clone()).collect(),
        }
    }

    /// A function of `(x, y)` as a function of the method's state: for the induced method, on
    /// `D` (`y = v^a X_a`).
    pub fn on_state(&self, e: &Expr) -> Expr {
        match self.induced() {
            Some(induced) => e.subs(&induced.on_d).simplify(),
            None => e.clone(),
        }
    }

    /// The energy on the method's state: `E_L`, or for the induced method `E_l`.
    pub fn energy(&self) -> Expr {
        match self.induced() {
            Some(induced) => induced.energy.clone(),
            None => self.lagrangian.energy.clone(),
        }
    }

    /// The multipliers (empty without constraints).
    pub fn multipliers(&self) -> &[Expr] {
        self.nonholonomic
            .as_ref()
            .map_or(&[], |nh| nh.multipliers.as_slice())
    }
}

/// Derives everything [IMMS07] says about `system` (within the default size budget).
pub fn derive(system: &System) -> diagnostic::Result<Derivation> {
    derive_within(system, &Options::default())
}

/// The span of the constraint blocks (or of the Lagrangian when there are none).
fn constraints_span(system: &System) -> diagnostic::Span {
    match (system.constraints.first(), system.constraints.last()) {
        (Some(first), Some(last)) => first.span.join(last.span),
        _ => system.lagrangian_span,
    }
}

/// The contact route ([LJL21]): the only one for a system with `action z`.
fn derive_contact(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if options.method == Method::Induced {
        return Err(vec![Diagnostic::error(
            "E0405",
            "the induced route (`--method induced`) is not available for this system",
            system.lagrangian_span,
            "it is a contact (Herglotz) system",
        )]);
    }
    let contact = crate::contact::derive(system, options)?;
    options.within_or(
        "the constrained Herglotz equations",
        system.lagrangian_span,
        vector_entries("Γ_{L,Δ}", &contact.rates),
        "raise --max-terms (contact systems have no implicit form)",
    )?;
    Ok(Derived::Contact(Box::new(ContactDerivation {
        system: system.clone(),
        contact,
    })))
}

/// Whether `W = ∂²L/∂y∂y` has dependent rows (exactly; numeric points first).
fn hessian_is_singular(system: &System) -> bool {
    let velocities = &system.algebroid.velocities;
    let w: Vec<Vec<Expr>> = velocities
        .iter()
        .map(|a| {
            let p = system.lagrangian.diff(a);
            velocities.iter().map(|b| p.diff(b).simplify()).collect()
        })
        .collect();
    cas::first_dependent_row(&w).is_some()
}

/// The constraint algorithm of a singular Lagrangian ([IMMS08] §4).
fn derive_singular(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if options.method == Method::Induced {
        return Err(vec![Diagnostic::error(
            "E0405",
            "the induced route (`--method induced`) is not available for this system",
            system.lagrangian_span,
            "the Lagrangian is singular and there are no constraints",
        )]);
    }
    let lag = lagrangian::derive(system);
    let algorithm = crate::singular::derive(system, &lag, options)?;
    options.within_or(
        "the constraint algorithm",
        system.lagrangian_span,
        vector_entries("the motion on the final constraint set", &algorithm.rates),
        "raise --max-terms (the constraint algorithm has no implicit form)",
    )?;
    let energy_rate = optional_rate(
        system,
        (&algorithm.state, &algorithm.rates),
        &algorithm.energy,
        options,
    )?
    // On the final set: modulo the constraints kept as equations.
    .map(|rate| {
        if algorithm.ideal.is_empty() {
            rate
        } else {
            algorithm.ideal.reduce(&rate)
        }
    });
    let hamiltonian = crate::dirac_bergmann::derive(system, &lag, options)?;
    let d = SingularDerivation {
        system: system.clone(),
        lagrangian: lag,
        algorithm,
        energy_rate,
        hamiltonian,
    };
    Ok(Derived::Singular(Box::new(d)))
}

/// The vakonomic route ([IMMS08] §5.1): the only one for a system with vakonomic constraints.
fn derive_vakonomic(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if options.method == Method::Induced {
        return Err(vec![Diagnostic::error(
            "E0405",
            "the induced route (`--method induced`) is not available for this system",
            system.lagrangian_span,
            "its constraints are vakonomic: the induced route is nonholonomic dynamics",
        )]);
    }
    let vakonomic = crate::vakonomic::derive(system, options)?;
    let energy_rate = optional_rate(
        system,
        (&vakonomic.state, &vakonomic.rates),
        &vakonomic.energy,
        options,
    )?;
    let d = VakonomicDerivation {
        system: system.clone(),
        vakonomic,
        energy_rate,
    };
    Ok(Derived::Vakonomic(Box::new(d)))
}

/// The rate of `energy` along the first-order system `(state, rates)`, simplified, when both the
/// unsimplified derivative and its normal form stay within [`route::CLOSED_FORM_TERMS`] nodes
/// (and `options`' budget): an optional quantity must not swell a derivation that has its
/// equations already (a random vakonomic system once grew past 17 GB here). E0503 when the
/// deadline passes.
fn optional_rate(
    system: &System,
    (state, rates): (&[String], &[Expr]),
    energy: &Expr,
    options: &Options,
) -> diagnostic::Result<Option<Expr>> {
    let allows = |e: &Expr| e.size() <= route::CLOSED_FORM_TERMS && options.allows(e);
    let rate = system.along(state, rates, energy).simplify_within(&allows);
    options.within("the energy rate", system.lagrangian_span, [])?;
    Ok(rate)
}

/// [`derive`] within the size budget of `options` (its route is ignored: this is the closed
/// form). A system with vakonomic constraints has no closed Lagrange–d'Alembert form: E0290
/// sends it to [`derive_with`].
pub fn derive_within(system: &System, options: &Options) -> diagnostic::Result<Derivation> {
    if system.action.is_some() {
        return Err(vec![Diagnostic::error(
            "E0290",
            "the closed Lagrange–d'Alembert form of a contact system: not supported",
            system.lagrangian_span,
            "a Lagrangian with an action variable",
        )
        .with_note(
            "contact systems are derived by `derive_with` (`dalembert::compile_with`)",
        )]);
    }
    if let Some(first) = system.vakonomic.first() {
        return Err(vec![Diagnostic::error(
            "E0290",
            "the closed Lagrange–d'Alembert form of a vakonomic system: not supported",
            first.span,
            "a vakonomic constraint",
        )
        .with_note(
            "vakonomic systems are derived by `derive_with` (`dalembert::compile_with`)",
        )]);
    }
    let lag = lagrangian::derive(system);
    options.within(
        "the Euler–Lagrange equations",
        system.lagrangian_span,
        matrix_entries("W", &lag.hessian)
            .chain(vector_entries("the forcing", &lag.forcing))
            .chain(std::iter::once(("det W".to_string(), &lag.hessian_det))),
    )?;
    if lag.hessian_det.is_zero() {
        return Err(vec![Diagnostic::error(
            "E0301",
            "the Lagrangian is singular: det W = 0 identically",
            system.lagrangian_span,
            "W = ∂²L/∂y∂y is not invertible for this Lagrangian",
        )
        .with_note(format!(
            "W = [{}]",
            lag.hessian
                .iter()
                .map(|row| row
                    .iter()
                    .map(|e| cas::print::spec(e, &system))
                    .collect::<Vec<_>>()
                    .join(", "))
                .collect::<Vec<_>>()
                .join("; ")
        ))
        .with_help(
            "the constraint algorithm ([IMMS08] §4) runs on singular Lagrangians without constraints; with nonholonomic constraints it is not supported yet",
        )]);
    }
    let w_inv =
        cas::inverse_guarded(&lag.hessian, &mut |e: &Expr| options.allows(e)).map_err(|halt| {
            match halt {
                cas::Halted::Singular(_) => vec![Diagnostic::error(
                    "E0301",
                    "the Lagrangian is singular: W could not be inverted",
                    system.lagrangian_span,
                    "W = ∂²L/∂y∂y",
                )],
                cas::Halted::Refused(entry) => options.refused(
                    "W⁻¹",
                    system.lagrangian_span,
                    "the elimination of W",
                    &entry,
                    "raise --max-terms, or use --solve numeric (the implicit form inverts nothing)",
                ),
            }
        })?;
    options.within("W⁻¹", system.lagrangian_span, matrix_entries("W⁻¹", &w_inv))?;
    let n = system.rank();
    let free_rhs: Vec<Expr> = (0..n)
        .map(|a| {
            (0..n)
                .fold(Expr::zero(), |acc, b| {
                    acc + w_inv[a][b].clone() * lag.forcing[b].clone()
                })
                .simplify()
        })
        .collect();
    options.within(
        "the free accelerations",
        system.lagrangian_span,
        vector_entries("R_L", &free_rhs),
    )?;
    let nh = if system.constraints.is_empty() {
        None
    } else {
        match nonholonomic::derive(system, &w_inv, &free_rhs, &|e| options.allows(e)) {
            Ok(nh) => Some(nh),
            Err(nonholonomic::Stopped::Refused { object, entry }) => {
                return Err(options.refused(
                    "the constrained dynamics",
                    constraints_span(system),
                    object,
                    &entry,
                    "raise --max-terms, or use --solve numeric (the implicit form inverts nothing)",
                ));
            }
            Err(nonholonomic::Stopped::Irregular(irregular)) => {
                let span = constraints_span(system);
                return Err(vec![Diagnostic::error(
                    "E0302",
                    "the constrained system is not regular: det 𝒞 = 0 identically",
                    span,
                    "𝒞^{ab} = −W^{αβ} μ^a_α μ^b_β is singular for these constraints",
                )
                .with_note(format!(
                    "det 𝒞 = {}",
                    cas::print::spec(&irregular.det, &system)
                ))]);
            }
        }
    };
    if let Some(nh) = &nh {
        options.within(
            "the constrained dynamics",
            constraints_span(system),
            matrix_entries("𝒞⁻¹", &nh.inverse)
                .chain(vector_entries("λ", &nh.multipliers))
                .chain(vector_entries("the constrained acceleration", &nh.rhs))
                .chain(matrix_entries("P", &nh.projector)),
        )?;
    }
    let fibre = nh.as_ref().map_or(free_rhs.clone(), |nh| nh.rhs.clone());
    let velocity = system.admissible_velocity();
    let mut equations: Vec<Equation> = system
        .coordinates
        .iter()
        .enumerate()
        .map(|(i, q)| Equation {
            state: q.clone(),
            rhs: velocity[i + 1].clone(),
        })
        .collect();
    equations.extend(
        system
            .algebroid
            .velocities
            .iter()
            .zip(&fibre)
            .map(|(y, rhs)| Equation {
                state: y.clone(),
                rhs: rhs.clone(),
            }),
    );
    let surface = crate::surface::Surface::new(system);
    // The energy balance (derived here, not in [IMMS07]) gives dE_L/dt without differentiating
    // the swelling accelerations; the golden tests prove it equal to dE_L/dt along the motion.
    let multipliers = nh.as_ref().map_or(&[][..], |nh| nh.multipliers.as_slice());
    let energy_rate =
        surface.restrict_shown(&nonholonomic::energy_balance(system, &lag, multipliers));
    let mut derivation = Derivation {
        system: system.clone(),
        lagrangian: lag,
        hessian_inverse: w_inv,
        free_rhs,
        nonholonomic: nh,
        equations,
        energy_rate,
        hamiltonian: Err(Unavailable::NotQuadratic),
        dirac_structure: Err(crate::dirac::Unavailable::NotLinear),
        dirac: Err(crate::dirac::Unavailable::NotLinear),
        projected: Err(crate::projected::Unavailable::NotMechanical),
        method: Method::Multipliers,
        choice: Choice::closed_requested(),
    };
    // The bracket table and its Jacobiators compose brackets of W⁻¹-weighted terms: when W⁻¹
    // is large (a dense W depending on the configuration) they swell far beyond it.
    let inverse_size: usize = derivation
        .hessian_inverse
        .iter()
        .flatten()
        .map(Expr::size)
        .sum();
    derivation.hamiltonian = if inverse_size > crate::hamiltonian::MAX_INVERSE_SIZE {
        Err(Unavailable::Large(inverse_size))
    } else {
        crate::hamiltonian::derive(derivation.regular(), &|e| options.allows(e))
    };
    // A table stopped by the deadline is E0503, not an unavailable side.
    options.within("the Hamiltonian side", system.lagrangian_span, [])?;
    if let Ok(h) = &derivation.hamiltonian {
        options.within(
            "the Hamiltonian side",
            system.lagrangian_span,
            std::iter::once(("H".to_string(), &h.hamiltonian))
                .chain(vector_entries("the Hamilton equations", &h.free_rates))
                .chain(h.table.iter().map(|(i, j, e)| {
                    (
                        format!("{{{}, {}}}", h.coordinates[*i], h.coordinates[*j]),
                        e,
                    )
                })),
        )?;
    }
    check_given_hamiltonian(&derivation)?;
    derivation.dirac_structure = crate::dirac::structure(system);
    derivation.dirac = match &derivation.hamiltonian {
        Ok(h) => crate::dirac::derive(system, &derivation.dirac_structure, h, options)?,
        Err(why) => Err(crate::dirac::Unavailable::NoHamiltonian(why.to_string())),
    };
    // The Dirac side measured each of its entries (`dirac::derive`).
    derivation.projected = crate::projected::derive(derivation.regular(), &|e| options.allows(e));
    // A structure stopped by the deadline is E0503, not an unavailable side.
    options.within("the projected structure on D", system.lagrangian_span, [])?;
    if let Ok(projected) = &derivation.projected {
        options.within(
            "the projected structure on D",
            system.lagrangian_span,
            vector_entries("its equations", &projected.rates),
        )?;
    }
    Ok(derivation)
}

/// A Hamiltonian written besides the Lagrangian must be its Legendre transform (E0291); one given
/// alone was turned into the Lagrangian, and the same comparison then checks the round trip.
fn check_given_hamiltonian(d: &Derivation) -> diagnostic::Result<()> {
    let system = &d.system;
    let Some(given) = &system.hamiltonian else {
        return Ok(());
    };
    let note = match &d.hamiltonian {
        Ok(h) => {
            let difference = (h.hamiltonian.clone() - given.expr.clone()).simplify();
            if difference.is_zero() {
                return Ok(());
            }
            format!(
                "the Legendre transform of the Lagrangian is H_L = {}, and H_L − H = {}",
                cas::print::spec(&h.hamiltonian, &system),
                cas::print::spec(&difference, &system)
            )
        }
        Err(why) => format!("the Legendre transform of the Lagrangian is not available: {why}"),
    };
    Err(vec![diagnostic::Diagnostic::error(
        "E0291",
        "the Hamiltonian is not the Legendre transform of the Lagrangian",
        given.span,
        "this Hamiltonian",
    )
    .with_note(note)])
}
