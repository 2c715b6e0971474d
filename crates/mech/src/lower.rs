//! Lowering into the result IR (`report`): the one place that knows which formalism a
//! derivation came from and what its primary flow is. Backends read the [`report::Flow`] and
//! never match on [`Derived`].
//!
//! The flow's documentation cites the paper each route implements, as `docs/conventions.md`
//! lists them: Iglesias, Marrero, Martín de Diego, Sosa, J. Math. Phys. 48 (2007) 083513 for
//! Lagrange–d'Alembert on affgebroids and the nonholonomic bracket; the same authors, Dynamical
//! Systems 23 (2008) 351–397 for singular and vakonomic systems; de León, Jiménez, Lainz
//! Valcázar, J. Geom. Mech. 13 (2021) 25–53 for contact systems. Emitted code keeps to ASCII.

use cas::Expr;
use model::System;
use report::{
    Companion, ConstraintSet, Correction, Flow, ImplicitForm, OnRead, Output, Rates, Solved,
};

use crate::derivation::{
    ContactDerivation, Derivation, Derived, ImplicitDerivation, SingularDerivation,
    VakonomicDerivation,
};
use crate::lagrange::implicit::Implicit;
use crate::Method;

/// The affgebroid paper, as emitted code cites it.
const AFFGEBROIDS: &str =
    "Iglesias, Marrero, Martin de Diego, Sosa, J. Math. Phys. 48 (2007) 083513";
/// The singular and vakonomic paper.
const SINGULAR: &str =
    "Iglesias, Marrero, Martin de Diego, Sosa, Dynamical Systems 23 (2008) 351-397";
/// The contact paper.
const CONTACT: &str = "de Leon, Jimenez, Lainz Valcazar, J. Geom. Mech. 13 (2021) 25-53";

/// The primary flow of any derivation.
pub fn flow(d: &Derived) -> Flow {
    match d {
        Derived::Closed(d) => closed(d),
        Derived::Implicit(d) => implicit(d),
        Derived::Vakonomic(d) => vakonomic(d),
        Derived::Singular(d) => singular(d),
        Derived::Contact(d) => contact(d),
    }
}

/// `name1, name2, …` for `count` entries.
fn numbered(name: &str, count: usize) -> String {
    (1..=count)
        .map(|a| format!("{name}{a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The Lagrange–d'Alembert flow of the closed form, on `(x, y)` or, for the induced method,
/// on `(x, v)` of `D`.
pub fn closed(d: &Derivation) -> Flow {
    let system = &d.system;
    let induced = d.method == Method::Induced;
    let r = system.constraints.len();
    // On the induced method's state the multipliers are the reaction forces on D and the
    // residuals vanish identically (y = v^a X_a lies in D).
    let lambda: Vec<Expr> = d.multipliers().iter().map(|l| d.on_state(l)).collect();
    let residual: Vec<Expr> = system
        .constraints
        .iter()
        .map(|c| d.on_state(&c.psi))
        .collect();
    // The balance law: equal to the derivative of E_L along the dynamics (proved on every
    // golden), without differentiating the accelerations.
    let balance =
        crate::lagrange::nonholonomic::energy_balance(system, &d.lagrangian, d.multipliers());
    let energy_rate = d.on_state(&balance);
    let dynamics_doc = if induced {
        "Everything at once, with common subexpressions shared, on the state (x, v) of D (the induced method): the right-hand side, the multipliers of the Lagrange-d'Alembert form at y = v^a X_a (the reaction forces), the constraint residuals Psi^a (identically zero on D) and the energy E_l with its rate dE_l/dt along the motion."
    } else {
        "Everything at once, with common subexpressions shared: the right-hand side, the multipliers, the constraint residuals Psi^a (zero on the constraint surface) and the energy E_L with its rate dE_L/dt along the motion."
    };
    Flow {
        state: d.state(),
        rates: Rates::Closed(d.rates()),
        rhs_doc: "The explicit right-hand side of the first-order system: xdot = d(x)/dt.".into(),
        dynamics_doc: dynamics_doc.into(),
        outputs: vec![
            Output::new("lambda", numbered("lambda", r), lambda),
            Output::new("residual", numbered("Psi", r), residual),
            Output::new("energy", "E_L, dE_L/dt", vec![d.energy(), energy_rate]),
        ],
        jacobian: true,
        companions: hamilton(d)
            .into_iter()
            .chain(articulated(system))
            .chain(newton_euler(system))
            .collect(),
        // The implicit form is Lagrange–d'Alembert's, on the algebroid's state.
        implicit: (!induced).then(|| closed_implicit_form(d)),
        constraints: if induced {
            None
        } else {
            constraint_set(system).map(|set| ConstraintSet {
                correction: closed_correction(d),
                ..set
            })
        },
        step: d.discrete.as_ref().map(|e| discrete_step(system, e)),
    }
}

/// Marsden and West's survey, as emitted code cites it.
const DISCRETE: &str = "Marsden, West, Acta Numerica 10 (2001) 357-514";
/// The discrete Lagrange–d'Alembert equations, as emitted code cites them.
const NONHOLONOMIC: &str = "Cortes, Martinez, Nonlinearity 14 (2001) 1365-1392; McLachlan, Perlmutter, J. Nonlinear Sci. 16 (2006) 283-328";
/// The Lie group variational integrator in the Cayley chart, as emitted code cites it.
const CAYLEY: &str = "Bou-Rabee, Marsden, Found. Comput. Math. 9 (2009) 197-219; Lee, Leok, McClamroch, Comput. Methods Appl. Mech. Engrg. 196 (2007) 2907-2924";

/// Lee, Leok and McClamroch's Lie group variational integrator, as emitted code cites it.
const LGVI: &str = "Lee, Leok, McClamroch, Comput. Methods Appl. Mech. Engrg. 196 (2007) 2907-2924";

/// RATTLE, as emitted code cites it, when `method` makes it.
fn rattle(method: model::Discretisation) -> String {
    match method {
        model::Discretisation::Trapezoidal => format!(": RATTLE, {RATTLE}"),
        _ => String::new(),
    }
}

/// The contact variational integrators, as emitted code cites them.
const HERGLOTZ: &str = "Vermeeren, Bravetti, Seri, J. Phys. A 52 (2019) 445206";

/// RATTLE, as emitted code cites it.
const RATTLE: &str =
    "Hairer, Lubich, Wanner, Geometric Numerical Integration, 2nd ed., Springer 2006, Sec. VII.1";

/// The step of the variational integrator of `equations` (the discrete equations of the spec's
/// `discrete` item, [`crate::discrete`]), when the velocities of the next step can be recovered
/// linearly ([`crate::discrete::step::Recovery`]); `Err` (why) otherwise.
fn discrete_step(
    system: &System,
    equations: &crate::discrete::DiscreteEquations,
) -> Result<report::DiscreteStep, String> {
    use model::Discretisation;
    let recovery = crate::discrete::step::Recovery::of(system, equations)?;
    let n = system.rank();
    // A contact system's state ends with its action.
    let action: Vec<String> = equations.action_key(system).into_iter().collect();
    let z: Vec<String> = system
        .keys(&system.state())
        .into_iter()
        .chain(action.iter().cloned())
        .chain(equations.unknowns())
        .chain(std::iter::once(equations.step.clone()))
        .collect();
    // The forms the step evaluates: on TQ in the step's variables or the increments (computed
    // first).
    let numerical = crate::discrete::step::Numerical::of(system, equations);
    let bindings = numerical.bindings.clone();
    let companion = |name: &str, doc: &str, state: Vec<String>, outputs: Vec<Output>| Companion {
        name: name.into(),
        doc: doc.into(),
        state,
        rates: Vec::new(),
        outputs,
        bindings: Vec::new(),
    };
    let with_bindings = |c: Companion| Companion {
        bindings: bindings.clone(),
        ..c
    };
    let u = equations.predictor.len();
    let square = |name: &str, k: usize| format!("{name}, row-major ({k} x {k})");
    let (scheme, unknowns, predictor) = match equations.method {
        Discretisation::Midpoint if !action.is_empty() => (
            format!("the discrete Herglotz equations ({HERGLOTZ}) of the midpoint rule, the action carried to the midpoint by the explicit midpoint rule: p_k = -D1 L_d / (1 + D3 L_d), p_{{k+1}} = D2 L_d, z_{{k+1}} = z_k + L_d"),
            "q_{k+1}",
            "q_k + h v_k",
        ),
        Discretisation::Midpoint | Discretisation::Trapezoidal => {
            let rule = match equations.method {
                Discretisation::Trapezoidal => "the trapezoidal rule (Stormer-Verlet)",
                _ => "the midpoint rule",
            };
            let holonomic = system.constraints.iter().any(|c| c.position.is_some());
            let nonholonomic = system.constraints.iter().any(|c| c.position.is_none());
            let scheme = match (holonomic, nonholonomic) {
                (false, false) => format!("the discrete Lagrangian of {rule} ({DISCRETE}, Sec. 1.2-1.5, 2.3, 3.2)"),
                (false, true) => format!("the discrete Lagrange-d'Alembert equations of {rule} ({NONHOLONOMIC}), with the discrete constraints omega_d = Psi at the midpoint"),
                (true, false) => format!("the constrained discrete Euler-Lagrange equations of {rule} ({DISCRETE}, Sec. 3.5{rattle}), with the discrete constraints omega_d = f(t + h, q_{{k+1}})", rattle = rattle(equations.method)),
                (true, true) => format!("the constrained discrete equations of {rule} ({DISCRETE}, Sec. 3.5{rattle}; {NONHOLONOMIC}), with the discrete constraints omega_d = f(t + h, q_{{k+1}}) of the holonomic constraints and Psi at the midpoint of the nonholonomic ones", rattle = rattle(equations.method)),
            };
            if equations.multipliers.is_empty() {
                (scheme, "q_{k+1}", "q_k + h v_k")
            } else {
                (
                    scheme,
                    "q_{k+1}, then the discrete multipliers lambda_k",
                    "q_k + h v_k, lambda = 0",
                )
            }
        }
        Discretisation::Cayley => (
            format!("the discrete Euler-Poincare equations on so(3) in the Cayley chart ({CAYLEY}): the Lie group variational integrator, g_{{k+1}} = g_k cay(h xi_k)"),
            "the discrete velocities xi_k",
            "v_k",
        ),
        Discretisation::Lgvi => (
            format!("the Lie group variational integrator of Lee, Leok and McClamroch ({LGVI}): L_d = (1/h) tr[(I - F_k) J_d], g_{{k+1}} = g_k F_k, in the chart F_k = cay(h xi_k)"),
            "the discrete velocities xi_k",
            "v_k",
        ),
    };
    let (from, to) = if action.is_empty() {
        ("(q_k, v_k)", "(q_{k+1}, v_{k+1})")
    } else {
        ("(q_k, v_k, z_k)", "(q_{k+1}, v_{k+1}, z_{k+1})")
    };
    // Exact zeros of the emitted matrices, which the solves skip.
    let newton_band = report::Band::of(u, |i, j| numerical.newton[i * u + j].is_literal_zero());
    let mass_band = report::Band::of(n, |i, j| recovery.mass[i][j].is_literal_zero());
    let mut recovered = Vec::new();
    if !equations.positions.is_empty() {
        recovered.push(Output::new(
            "position",
            "q_{k+1}",
            equations.positions.clone(),
        ));
    }
    recovered.extend([
        Output::new(
            "momentum",
            numbered("p_next", n),
            numerical.next_momentum.clone(),
        ),
        Output::new(
            "mass",
            square("W", n),
            recovery.mass.into_iter().flatten().collect(),
        ),
        Output::new("offset", numbered("a", n), recovery.offset),
    ]);
    if !equations.multipliers.is_empty() {
        let r = equations.multipliers.len();
        recovered.push(Output::new(
            "jacobian",
            format!("mu, row-major ({r} x {n})"),
            recovery.jacobian.into_iter().flatten().collect(),
        ));
        recovered.push(Output::new("bias", numbered("beta", r), recovery.bias));
    }
    if let Some(z1) = &numerical.action {
        recovered.push(Output::new("action", "z_{k+1}", vec![z1.clone()]));
    }
    let exact = if bindings.is_empty() {
        ""
    } else if equations.action.is_none() {
        " They are written in the step's own variables, computed first from the increments q_{k+1} - q_k: the discrete velocity (q_{k+1} - q_k)/h (and for the midpoint rule the midpoint q_k + (q_{k+1} - q_k)/2), so that they keep the quadrature's structure and the differences are exact however large the coordinates grow."
    } else {
        " They are written in q_k and the increments q_{k+1} - q_k, computed first, so that the differences are exact however large the coordinates grow."
    };
    Ok(report::DiscreteStep {
        doc: format!("One step of the variational integrator of {scheme}: from x = {from} at t to x_next = {to} at t + h. p_k = dL/dv(t, q_k, v_k); the unknowns ({unknowns}) solve p_k = P by Newton's method with the derived matrix dP/d(unknowns), from the predictor {predictor}; then q_{{k+1}}, p_{{k+1}}, and v_{{k+1}} from W(t + h, q_{{k+1}}) v_{{k+1}} = p_{{k+1}} - a(t + h, q_{{k+1}}). The inputs u are held over the step."),
        coordinates: system.keys(&system.coordinates),
        velocities: system.keys(&system.algebroid.velocities),
        multipliers: equations.multipliers.len(),
        action: !action.is_empty(),
        momentum: companion(
            "discrete_momentum",
            &format!("The momenta p = dL/dv at (t, q_k, v_k) and the predictor {predictor} of the unknowns ({unknowns}): the start of a step of the variational integrator (step). It reads q_k, v_k and h of its state."),
            z.clone(),
            vec![
                Output::new("momentum", numbered("p", n), recovery.legendre),
                Output::new("predictor", unknowns, equations.predictor.clone()),
            ],
        ),
        residual: with_bindings(companion(
            "discrete_residual",
            &format!("The discrete momentum P = -D1 L_d - f_d^- (+ mu(q_k)^T lambda_k with constraints) at the start of the step, the discrete constraints omega_d (when there are constraints) and the Jacobian of both by the unknowns ({unknowns}): the equations p_k = P, omega_d = 0 that Newton's method of the step solves.{exact}"),
            z.clone(),
            std::iter::once(Output::new("momentum", numbered("P", n), numerical.momentum.clone()))
                .chain((!equations.constraints.is_empty()).then(|| {
                    Output::new(
                        "constraint",
                        numbered("omega_d", equations.constraints.len()),
                        numerical.constraints.clone(),
                    )
                }))
                .chain(std::iter::once(Output::new(
                    "newton",
                    square("d(P, omega_d)/d(unknowns)", u),
                    numerical.newton.clone(),
                )))
                .collect(),
        )),
        recover: with_bindings(companion(
            "discrete_recover",
            &format!("What the step recovers the next state from: the coordinates q_{{k+1}} (when there are coordinates), the momenta p_{{k+1}} = D2 L_d + f_d^+, the mass matrix W(t + h, q_{{k+1}}) and the momenta at rest a(t + h, q_{{k+1}}), so that W v_{{k+1}} = p_{{k+1}} - a; with constraints also mu and beta = -mu_0 there, so that W v + mu^T nu = p_{{k+1}} - a, mu v = beta puts the velocities on the constraints.{}", if action.is_empty() { "" } else { " Last, the action z_{k+1} = z_k + L_d, at which W and a are read." }),
            z,
            recovered,
        )),
        newton_band,
        mass_band,
    })
}

/// The constraints of Lagrange–d'Alembert's flow on `(x, y)`, when some are holonomic (their
/// drift is what projection undoes; the velocity level then covers every constraint).
fn constraint_set(system: &System) -> Option<ConstraintSet> {
    if system.holonomic().is_empty() {
        return None;
    }
    Some(ConstraintSet {
        position: system
            .holonomic()
            .into_iter()
            .map(|(_, f)| f.clone())
            .collect(),
        velocity: system.constraints.iter().map(|c| c.psi.clone()).collect(),
        coordinates: system.keys(&system.coordinates),
        velocities: system.keys(&system.algebroid.velocities),
        affine: system
            .constraints
            .iter()
            .all(|c| c.shape != model::ConstraintShape::Nonlinear),
        position_of: {
            let mut next = 0;
            system
                .constraints
                .iter()
                .map(|c| {
                    c.position.as_ref().map(|_| {
                        next += 1;
                        next - 1
                    })
                })
                .collect()
        },
        correction: None,
    })
}

/// The constraint-force directions and `𝒞⁻¹` of the closed form, for Baumgarte stabilisation.
fn closed_correction(d: &Derivation) -> Option<Correction> {
    let nh = d.nonholonomic.as_ref()?;
    let n = d.system.rank();
    Some(Correction {
        directions: nh
            .z
            .iter()
            .map(|z| z[1 + n..1 + 2 * n].iter().map(|e| d.on_state(e)).collect())
            .collect(),
        inverse: nh
            .inverse
            .iter()
            .map(|row| row.iter().map(|e| d.on_state(e)).collect())
            .collect(),
    })
}

/// `W`, the forcing, `μ` and `β` of the closed form's derivation.
fn closed_implicit_form(d: &Derivation) -> ImplicitForm {
    let system = &d.system;
    ImplicitForm {
        mass: d.lagrangian.hessian.clone(),
        forcing: d.lagrangian.forcing.clone(),
        jacobian: system.constraints.iter().map(|c| c.mu.clone()).collect(),
        bias: system
            .constraints
            .iter()
            .map(|c| (-crate::base::algebra::admissible_apply(system, &c.psi)).simplify())
            .collect(),
        bindings: Vec::new(),
    }
}

/// The Hamiltonian side on the phase coordinates of `B̄` (or `V*` without constraints): the
/// motion the nonholonomic bracket generates, and `H` there, so that a controller can integrate
/// in momenta and monitor the energy.
fn hamilton(d: &Derivation) -> Option<Companion> {
    let h = d.hamiltonian.as_ref().ok()?;
    let phase = &h.phase;
    let rates_on_phase = match &h.constrained {
        Some(c) => &c.rates,
        None => &h.free_rates,
    };
    let rates: Vec<Expr> = h
        .coordinates
        .iter()
        .map(|c| {
            let k = phase
                .iter()
                .position(|s| s == c)
                .expect("a phase coordinate");
            rates_on_phase[k].clone()
        })
        .collect();
    let domain = match &h.constrained {
        Some(c) if !c.regular_where.is_empty() => format!(
            " These coordinates of the constraint submanifold are regular where {} (a singularity of the coordinates, not of the motion).",
            c.regular_where
                .iter()
                .map(|f| format!("{} != 0", cas::print::spec(f, &d.system)))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        _ => String::new(),
    };
    Some(hamilton_companion(
        format!("The Hamiltonian side: d(x)/dt for the phase state x of this function (coordinates, then the momenta that remain on the constraint submanifold of the dual, the others being functions of these), as generated by the nonholonomic bracket (the local formula of {AFFGEBROIDS}, Sec. V), and the Hamiltonian H there.{domain}"),
        (&h.coordinates, &rates),
        &h.restrict(&h.hamiltonian),
    ))
}

/// The `hamilton` companion: a Hamiltonian system's rates on its phase state, and `H` there.
fn hamilton_companion(doc: String, (state, rates): (&[String], &[Expr]), h: &Expr) -> Companion {
    Companion {
        name: "hamilton".into(),
        doc,
        state: state.to_vec(),
        rates: rates.to_vec(),
        outputs: vec![Output::new("hamiltonian", "H", vec![h.clone()])],
        bindings: Vec::new(),
    }
}

/// `inverse_dynamics`: the recursive Newton–Euler algorithm ([`crate::multibody::articulated`])
/// on the state extended by the accelerations, when the system is a tree of joints without
/// constraints.
fn newton_euler(system: &System) -> Option<Companion> {
    let accelerations: Vec<String> = system
        .algebroid
        .velocities
        .iter()
        .map(|v| system.key(system.symbols.rate(*v)))
        .collect();
    let rnea = crate::multibody::articulated::inverse_dynamics(system, &accelerations)?;
    let names: Vec<String> = system
        .algebroid
        .sections
        .iter()
        .map(|s| format!("Q_{s}"))
        .collect();
    Some(Companion {
        name: "inverse_dynamics".into(),
        doc: "Inverse dynamics by the recursive Newton-Euler algorithm (Featherstone, Rigid Body Dynamics Algorithms, 2008, Sec. 5.3): x holds the coordinates, the velocities and the accelerations; tau is the generalised force along each velocity that gives those accelerations (gravity accounted for; the total of the inputs and every force of the spec). O(n) operations.".into(),
        state: system.keys(&system.state()).into_iter().chain(accelerations).collect(),
        rates: Vec::new(),
        outputs: vec![Output::new("tau", names.join(", "), rnea.accelerations)],
        bindings: rnea.bindings,
    })
}

/// `forward_dynamics`: the articulated-body algorithm ([`crate::multibody::articulated`]) on the
/// flow's state, when the system is a tree of joints (its constraints, if any, by the Schur
/// complement, the multipliers an output).
fn articulated(system: &System) -> Option<Companion> {
    let aba = crate::multibody::articulated::forward_dynamics(system)?;
    let rates = system.admissible_velocity()[1..]
        .iter()
        .cloned()
        .chain(aba.accelerations)
        .collect();
    let r = aba.multipliers.len();
    let method = "The same right-hand side xdot = d(x)/dt as rhs, computed by Featherstone's articulated-body algorithm (Rigid Body Dynamics Algorithms, 2008, Sec. 7.3) for this tree of joints";
    let (doc, outputs) = if r == 0 {
        (format!("{method}: O(n) operations."), Vec::new())
    } else {
        (
            format!("{method}, with its constraints (r = {r}) by one more pass per constraint and the Schur complement mu W^-1 mu^T: O(n r + r^3) operations; also the multipliers lambda of W ydot + mu^T lambda = b."),
            vec![Output::new("lambda", numbered("lambda", r), aba.multipliers)],
        )
    };
    Some(Companion {
        name: "forward_dynamics".into(),
        doc,
        state: system.keys(&system.state()),
        rates,
        outputs,
        bindings: aba.bindings,
    })
}

/// `ρ_0(L)`, without reading `L` when the anchor moves only time and `L` is known to be
/// autonomous ([`System::lagrangian_is_autonomous`]): a tree of joints' Lagrangian is never formed
/// for its emitted code.
fn lagrangian_time_rate(system: &System) -> Expr {
    let anchor0 = &system.algebroid.anchor0;
    let time_alone = anchor0.iter().skip(1).all(Expr::is_literal_zero);
    if time_alone && system.lagrangian_is_autonomous() {
        return Expr::zero();
    }
    crate::lagrange::implicit::field_apply(system, anchor0, &system.lagrangian)
}

/// The entries of an implicit form, as the code reads them.
fn implicit_form(form: &Implicit) -> ImplicitForm {
    ImplicitForm {
        mass: form.mass.clone(),
        forcing: form.forcing.clone(),
        jacobian: form.jacobian.clone(),
        bias: form.bias.clone(),
        bindings: form.bindings.clone(),
    }
}

/// The implicit form of a tree of joints from its recursions ([`crate::multibody::composite`]),
/// computed when read, when `form` was read off the expanded Lagrangian (the recursions are
/// proved equal to it on the shipped trees by the golden tests).
fn structured_form(system: &System, form: &Implicit) -> OnRead<Option<ImplicitForm>> {
    let system = (system.multibody.is_some() && form.bindings.is_empty()).then(|| system.clone());
    report::on_read(move || {
        let form = crate::multibody::composite::derive(system.as_ref()?)?;
        Some(implicit_form(&form))
    })
}

/// The flow of the implicit route: the coordinates' rates in closed form, the accelerations
/// and multipliers solved at run time, the balance law split around the multipliers.
pub fn implicit(d: &ImplicitDerivation) -> Flow {
    let system = &d.system;
    let form = &d.implicit;
    let alg = &system.algebroid;
    let n = system.rank();
    let y = |a: usize| system.expr(alg.velocities[a]);
    let velocity = system.admissible_velocity();
    // The balance law dE/dt = −ρ_0(L) + C^γ_0α y^α p_γ + F_α y^α − λ_a μ^a_α y^α: the part
    // without λ here, the rest after the solve.
    let mut free_power = -lagrangian_time_rate(system);
    for a in 0..n {
        for g in 0..n {
            if !alg.c0[a][g].is_literal_zero() {
                free_power = free_power + alg.c0[a][g].clone() * y(a) * form.momenta[g].clone();
            }
        }
        free_power = free_power + system.forces[a].clone() * y(a);
    }
    let constraint_power = form
        .jacobian
        .iter()
        .map(|row| (0..n).fold(Expr::zero(), |acc, a| acc + row[a].clone() * y(a)))
        .collect();
    let solved = Solved {
        coordinate_rates: velocity[1..].to_vec(),
        form: implicit_form(form),
        structured: structured_form(system, form),
        free_power,
        constraint_power,
        residuals: system.constraints.iter().map(|c| c.psi.clone()).collect(),
        energy: form.energy.clone(),
        potential: form.potential.clone(),
    };
    Flow {
        state: system.keys(&system.state()),
        rates: Rates::Solved(Box::new(solved)),
        rhs_doc: "The right-hand side of the first-order system, xdot = d(x)/dt: W, the forcing and the constraints are evaluated, then solved numerically (LDL^T of W, Schur complement for the multipliers). Returns -1 (C) or Err(SingularAt(0)) (Rust) when a pivot of W or of mu W^-1 mu^T vanishes at this state.".into(),
        dynamics_doc: "Everything at once: the right-hand side (solved numerically as in rhs), the multipliers, the constraint residuals Psi^a (zero on the constraint surface) and the energy E_L with its rate dE_L/dt along the motion (the balance law).".into(),
        outputs: Vec::new(),
        jacobian: false,
        companions: articulated(system)
            .into_iter()
            .chain(newton_euler(system))
            .collect(),
        implicit: None,
        constraints: constraint_set(system),
        step: d.discrete.as_ref().map(|e| discrete_step(system, e)),
    }
}

/// A first-order system on its own state with an energy whose rate is its derivative along
/// the flow.
fn first_order(
    system: &System,
    (state, rates): (&[String], &[Expr]),
    (rhs_doc, dynamics_doc): (String, String),
    (energy, energy_rate): (&Expr, Option<&Expr>),
    companions: Vec<Companion>,
) -> Flow {
    // The derivation's rate when it fitted its budget; code needs it either way.
    let energy_rate = energy_rate.cloned().unwrap_or_else(|| {
        system
            .along(&system.handles(state), rates, energy)
            .simplify()
    });
    Flow {
        state: state.to_vec(),
        rates: Rates::Closed(rates.to_vec()),
        rhs_doc,
        dynamics_doc,
        outputs: vec![Output::new(
            "energy",
            "E, dE/dt",
            vec![energy.clone(), energy_rate],
        )],
        jacobian: false,
        companions,
        implicit: None,
        constraints: None,
        step: None,
    }
}

/// The vakonomic flow on `(x, y^a, p_α)`, with the Hamiltonian form on `(x, p)` when it exists.
pub fn vakonomic(d: &VakonomicDerivation) -> Flow {
    let system = &d.system;
    let v = &d.vakonomic;
    let companions = v
        .hamiltonian
        .iter()
        .map(|h| {
            hamilton_companion(
                format!("The Hamiltonian form on W_1 = E* ({SINGULAR}, Theorem 5.6): d(x)/dt for the phase state x of this function (coordinates, then every momentum), generated by the vakonomic bracket (5.8), and H_W1 there."),
                (&h.coordinates, &h.rates),
                &h.hamiltonian,
            )
        })
        .collect();
    first_order(
        system,
        (&v.state, &v.rates),
        (
            format!("The vakonomic equations in explicit form ({SINGULAR}, Sec. 5.1): xdot = d(x)/dt for the state x = (coordinates, free velocities, multipliers)."),
            "The right-hand side and the energy H_W0 on W_1 (p_a y^a + p_alpha Psi^alpha - L restricted) with its rate dH/dt along the motion (zero when nothing depends on time).".into(),
        ),
        (&v.energy, d.energy_rate.as_ref()),
        companions,
    )
}

/// The motion on the final constraint set of a singular Lagrangian's constraint algorithm.
pub fn singular(d: &SingularDerivation) -> Flow {
    let a = &d.algorithm;
    let flow = first_order(
        &d.system,
        (&a.state, &a.rates),
        (
            format!("The motion on the final constraint set of the constraint algorithm ({SINGULAR}, Sec. 4): xdot = d(x)/dt for the variables that remain (the others are fixed by the constraints; directions left free by the equations are set to zero)."),
            "The right-hand side and the energy E_L on the final constraint set with its rate along the motion.".into(),
        ),
        (&a.energy, d.energy_rate.as_ref()),
        Vec::new(),
    );
    Flow {
        constraints: kept_set(d),
        ..flow
    }
}

/// The constraints the singular route kept as equations, as the set emitted code projects onto:
/// those free of the velocities at the position level, the others at the velocity level.
fn kept_set(d: &SingularDerivation) -> Option<ConstraintSet> {
    let a = &d.algorithm;
    if a.kept.is_empty() {
        return None;
    }
    let velocities: Vec<String> = d
        .system
        .keys(&d.system.algebroid.velocities)
        .into_iter()
        .filter(|v| a.state.contains(v))
        .collect();
    let coordinates: Vec<String> = d
        .system
        .keys(&d.system.coordinates)
        .into_iter()
        .filter(|q| a.state.contains(q))
        .collect();
    let (velocity, position): (Vec<Expr>, Vec<Expr>) = a
        .kept
        .iter()
        .cloned()
        .partition(|g| velocities.iter().any(|v| g.depends_on(v)));
    let affine = velocity.iter().all(|g| {
        velocities
            .iter()
            .all(|v| velocities.iter().all(|w| g.diff(v).diff(w).vanishes()))
    });
    Some(ConstraintSet {
        position_of: vec![None; velocity.len()],
        position,
        velocity,
        coordinates,
        velocities,
        affine,
        correction: None,
    })
}

/// The constrained Herglotz flow on `(q, q', z)`, with the Hamiltonian side on `T*Q × ℝ`.
pub fn contact(d: &ContactDerivation) -> Flow {
    let c = &d.contact;
    let system = &d.system;
    let companions = c
        .hamiltonian
        .iter()
        .map(|h| {
            hamilton_companion(
                "The Hamiltonian side on T*Q x R (the Legendre transform of the constrained Herglotz equations; not in the paper): d(x)/dt for the phase state x of this function (coordinates, momenta, action z), with the multipliers of Psi = 0, and H there.".into(),
                (&h.coordinates, &h.rates),
                &h.hamiltonian,
            )
        })
        .collect();
    let mut flow = first_order(
        system,
        (&c.coordinates, &c.rates),
        (
            format!("The constrained Herglotz equations ({CONTACT}, (63) and (81)): xdot = d(x)/dt for x = (coordinates, velocities, action z), the field Gamma_{{L,Delta}} = P(Gamma_L)."),
            "The right-hand side and the energy E_L with its rate along the motion (on the constraint surface it equals (dL/dz) E_L).".into(),
        ),
        (&c.energy, None),
        companions,
    );
    flow.step = d.discrete.as_ref().map(|e| discrete_step(system, e));
    flow
}
