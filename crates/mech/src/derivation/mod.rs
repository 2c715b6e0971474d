//! The derivation of a system: which route it takes, and what each route produces.
//!
//! [`derive_with`] reads the system and the options and sends it down one route: the contact
//! route ([LJL21]) for a system with an action variable, the vakonomic route ([IMMS08] §5.1) for
//! vakonomic constraints, the implicit form from the joints' structure for a large tree of joints
//! (Featherstone 2008), the constraint algorithm ([IMMS08] §4) for a singular Lagrangian without
//! constraints, and otherwise the closed form ([IMMS07] §II–§IV, [`closed`]) or the implicit form
//! ([IMMS07] §II.4 and §IV.1) as `--solve` and the budget of `base::route` choose. Each route's
//! result is one variant of [`Derived`].

use cas::Expr;
use diagnostic::Code;
use diagnostic::Diagnostic;
use model::System;

use crate::base::budget::{matrix_entries, vector_entries, Options};
use crate::base::route::{self, Attempt, Choice, Method};
use crate::lagrange::implicit::{self, Implicit};
use crate::lagrange::lagrangian::{self, Lagrangian};

mod closed;

pub use closed::{derive, derive_within, Derivation};

/// A system whose dynamics are given in implicit form only (see [`crate::lagrange::implicit`]):
/// what a large system gets, for the emitted code to solve numerically.
#[derive(Clone, Debug)]
pub struct ImplicitDerivation {
    /// The system, as resolved.
    pub system: System,
    /// `W`, the forcing, the constraint Jacobian and bias, `p`, `E_L`.
    pub implicit: Implicit,
    /// Why the implicit form.
    pub choice: Choice,
    /// The discrete equations of the spec's `discrete` item ([`crate::discrete`]).
    pub discrete: Option<crate::discrete::DiscreteEquations>,
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

/// A singular Lagrangian's constraint algorithm ([IMMS08] §4, [`crate::singular::algorithm`]).
#[derive(Clone, Debug)]
pub struct SingularDerivation {
    /// The system, as resolved.
    pub system: System,
    /// `p`, `W`, `E_L`, `Ω_L`.
    pub lagrangian: Lagrangian,
    /// The steps, the final constraint set and the motion on it.
    pub algorithm: crate::singular::algorithm::Algorithm,
    /// `dE_L/dt` along the motion on the final constraint set, or `None` when its normal form
    /// passes the budget of optional quantities (`optional_rate`).
    pub energy_rate: Option<Expr>,
    /// The Hamiltonian side: the Dirac–Bergmann chain, first and second class, the Dirac bracket
    /// ([`crate::singular::dirac_bergmann`]), or why it is not derived.
    pub hamiltonian: Result<
        crate::singular::dirac_bergmann::DiracBergmann,
        crate::singular::dirac_bergmann::Unavailable,
    >,
}

/// A contact (Herglotz) system ([LJL21], [`crate::contact`]).
#[derive(Clone, Debug)]
pub struct ContactDerivation {
    /// The system, as resolved.
    pub system: System,
    /// The constrained Herglotz equations, the projector, the bracket.
    pub contact: crate::contact::Contact,
    /// The discrete Herglotz equations of the spec's `discrete` item
    /// ([`crate::discrete::herglotz`]).
    pub discrete: Option<crate::discrete::DiscreteEquations>,
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

    /// The closed-form derivation, when this is one.
    pub fn closed(&self) -> Option<&Derivation> {
        match self {
            Derived::Closed(d) => Some(d),
            _ => None,
        }
    }

    /// Whether these are Lagrange–d'Alembert equations (unconstrained, nonholonomic or
    /// holonomic, in closed or implicit form): the systems whose flow is an ODE on the state
    /// that `simulate` integrates and `linearize` linearises.
    pub fn is_lagrange_dalembert(&self) -> bool {
        matches!(self, Derived::Closed(_) | Derived::Implicit(_))
    }
}

/// Derives `system` by the route `options.solve` asks for (the closed form of [`derive`], or the
/// implicit form of [`implicit::derive`]) within the size budget of `options`. The induced
/// method needs the closed form (it is built from the projected structure), and refuses with
/// E0405 a system that has none.
pub fn derive_with(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    // The discrete equations first: a `discrete` item this system cannot have is refused before
    // any long derivation.
    let discrete = timing::timed("discrete equations", || crate::discrete::derive(system))?;
    let mut derived = derive_dynamics(system, options)?;
    match (&mut derived, discrete) {
        (_, None) => {}
        (Derived::Closed(d), Some(equations)) => d.discrete = Some(equations),
        (Derived::Implicit(d), Some(equations)) => d.discrete = Some(equations),
        (Derived::Contact(d), Some(equations)) => d.discrete = Some(equations),
        (_, Some(_)) => {
            return Err(vec![crate::discrete::refused(
                system,
                "whose Lagrangian is singular",
            )])
        }
    }
    Ok(derived)
}

/// [`derive_with`] without the discrete equations.
fn derive_dynamics(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if system.action.is_some() {
        return derive_contact(system, options);
    }
    if !system.vakonomic.is_empty() {
        return derive_vakonomic(system, options);
    }
    if let Some(choice) = structured_choice(system, options) {
        if let Some(form) = timing::timed("joint recursions", || {
            crate::multibody::composite::derive(system)
        }) {
            return implicit_derivation(system, Prepared::unchecked(form), options, choice);
        }
    }
    // Without constraints the implicit form is derived first: the rank of its W decides whether
    // the Lagrangian is singular, and the implicit route and the fallback reuse both.
    let mut prepared = None;
    if system.constraints.is_empty() {
        let form = timing::timed("implicit form", || implicit::derive(system));
        if dependent_row(&form).is_some() {
            return derive_singular(system, options);
        }
        prepared = Some(Prepared {
            form,
            regular: true,
        });
    }
    let prepared = move || {
        prepared.unwrap_or_else(|| {
            Prepared::unchecked(timing::timed("implicit form", || implicit::derive(system)))
        })
    };
    if options.method == Method::Induced {
        let mut d = derive_within(system, options)?;
        if let Err(why) = &d.projected {
            return Err(vec![Diagnostic::error(
                Code::E0405,
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
            implicit_derivation(system, prepared(), options, choice)
        }
        Some(choice) => derive_within(system, options).map(|mut d| {
            d.choice = choice;
            Derived::Closed(Box::new(d))
        }),
        None => derive_auto(system, options, prepared()),
    }
}

/// The implicit form of a system, and whether the rank test has already shown its `W` regular.
struct Prepared {
    form: Implicit,
    regular: bool,
}

impl Prepared {
    /// A form whose `W` has not been tested.
    fn unchecked(form: Implicit) -> Prepared {
        Prepared {
            form,
            regular: false,
        }
    }
}

/// The first row of the form's `W` that depends on the rows before it (exactly; numeric points
/// first), if any.
fn dependent_row(form: &Implicit) -> Option<usize> {
    timing::timed("rank test", || {
        cas::first_dependent_row_bound(&form.mass, &form.bindings)
    })
}

/// The implicit form from the joints' structure ([`crate::multibody::composite`]) when the system
/// is a tree of joints whose Lagrangian would expand past [`route::STRUCTURED_EXPANSION`] terms
/// and neither the closed form (`--solve symbolic`) nor the induced method asks for the
/// expansion.
fn structured_choice(system: &System, options: &Options) -> Option<Choice> {
    if system.multibody.is_none()
        || options.solve == crate::Solve::Symbolic
        || options.method == Method::Induced
    {
        return None;
    }
    let bound = system.lagrangian_expansion_bound(route::STRUCTURED_EXPANSION);
    (bound.terms > route::STRUCTURED_EXPANSION).then(|| Choice::structured(&bound))
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

/// [`crate::Solve::Auto`]: the closed form within the budget of [`crate::base::route`], else the
/// implicit form.
fn derive_auto(
    system: &System,
    options: &Options,
    prepared: Prepared,
) -> diagnostic::Result<Derived> {
    let mut attempt = Attempt::start(options.deadline);
    let probe = timing::timed("closed-form probe", || {
        probe_eliminations(&prepared.form, &mut attempt)
    });
    if let Err(why) = probe {
        if attempt.out_of_time() {
            let stage = "the closed form's eliminations";
            return Err(vec![crate::base::budget::out_of_time(
                stage,
                system.lagrangian_span,
            )]);
        }
        return implicit_derivation(system, prepared, options, Choice::fallback(&why));
    }
    let within = Options {
        effort_limit: Some(attempt.effort_limit),
        closed_form_terms: Some(route::CLOSED_FORM_TERMS),
        ..*options
    };
    // Every stage of the closed form ends with a check of the work budget, so the work done
    // past it is thrown away and may be cut short (`cas::work::with_ceiling`).
    let closed =
        || cas::work::with_ceiling(attempt.effort_limit, || derive_within(system, &within));
    let mut d = match timing::timed("closed form", closed) {
        Ok(d) => d,
        Err(diagnostics) => {
            // The size and work budgets choose the route; the run's deadline (E0503) does not.
            let budget = diagnostics
                .iter()
                .find(|d| matches!(d.code, Code::E0501 | Code::E0513));
            return match budget {
                Some(over) if over.code == Code::E0513 => {
                    let why = over.message.clone();
                    implicit_derivation(system, prepared, options, Choice::fallback(&why))
                }
                Some(over) => {
                    let why = match &over.primary {
                        Some(label) => format!("{}: {}", over.message, label.message),
                        None => over.message.clone(),
                    };
                    implicit_derivation(system, prepared, options, Choice::fallback(&why))
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
        return implicit_derivation(system, prepared, options, Choice::fallback(&why));
    }
    d.choice = Choice::closed_fits();
    Ok(Derived::Closed(Box::new(d)))
}

fn implicit_derivation(
    system: &System,
    prepared: Prepared,
    options: &Options,
    choice: Choice,
) -> diagnostic::Result<Derived> {
    let Prepared { form, regular } = prepared;
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
    if let Some(row) = (!regular).then(|| dependent_row(&form)).flatten() {
        let velocity = system.spec_name(system.algebroid.velocities[row]);
        return Err(vec![Diagnostic::error(
            Code::E0301,
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
        discrete: None,
    })))
}

/// The contact route ([LJL21]): the only one for a system with `action z`.
fn derive_contact(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if options.method == Method::Induced {
        return Err(vec![Diagnostic::error(
            Code::E0405,
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
        discrete: None,
    })))
}

/// The constraint algorithm of a singular Lagrangian ([IMMS08] §4).
fn derive_singular(system: &System, options: &Options) -> diagnostic::Result<Derived> {
    if options.method == Method::Induced {
        return Err(vec![Diagnostic::error(
            Code::E0405,
            "the induced route (`--method induced`) is not available for this system",
            system.lagrangian_span,
            "the Lagrangian is singular and there are no constraints",
        )]);
    }
    let lag = lagrangian::derive(system);
    let algorithm = crate::singular::algorithm::derive(system, &lag, options)?;
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
    let hamiltonian = crate::singular::dirac_bergmann::derive(system, &lag, options)?;
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
            Code::E0405,
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
    let rate = system
        .along(&system.handles(state), rates, energy)
        .simplify_within(&allows);
    options.within("the energy rate", system.lagrangian_span, [])?;
    Ok(rate)
}
