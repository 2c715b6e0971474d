//! The discrete equations of a `discrete` item ([`crate::discrete`]; [MW01] §1.2–§1.5, §3.2).

use report::{Audience, Key, Quantity, Section, Value};

use crate::discrete::DiscreteEquations;
use model::System;

/// The section "Discrete equations" (JSON `discrete`), when the spec asks for them.
pub(super) fn section(system: &System, d: Option<&DiscreteEquations>) -> Option<Section> {
    let d = d?;
    let mut s = Section::new("Discrete equations", Some("discrete"));
    s.quantity(
        Quantity::new("method", Value::Text(d.method.name().into())).for_only(Audience::Data),
    );
    s.quantity(Quantity::new("step", Value::Names(vec![d.step.clone()])).for_only(Audience::Data));
    s.quantity(Quantity::new("next", Value::Names(d.next.clone())).for_only(Audience::Data));
    match d.method {
        _ if d.action.is_some() => herglotz(system, d, &mut s),
        model::Discretisation::Midpoint | model::Discretisation::Trapezoidal => {
            match crate::discrete::in_step_variables(system, d) {
                Some(shown) => in_two_forms(system, d, &shown, &mut s),
                None => tangent(system, d, &mut s, false),
            }
        }
        model::Discretisation::Cayley | model::Discretisation::Lgvi => cayley(system, d, &mut s),
    }
    s.quantity(
        Quantity::new("newton", Value::Matrix(d.newton.clone()))
            .for_only(Audience::Data)
            .about("The matrix of Newton's method for the unknowns of a step (next): the derivatives of the momentum p_k by them, by rows."),
    );
    Some(s)
}

/// The equations on `TQ` twice: expanded in `q_k, q_{k+1}` for programs (JSON), and in the
/// step's own variables ([`crate::discrete::in_step_variables`]) for readers (LaTeX).
fn in_two_forms(
    system: &System,
    d: &DiscreteEquations,
    shown: &DiscreteEquations,
    s: &mut Section,
) {
    let mut data = Section::new("", None);
    tangent(system, d, &mut data, false);
    for block in data.blocks {
        if let report::Block::Quantity(q) = block {
            s.quantity(q.for_only(Audience::Data));
        }
    }
    let mut display = Section::new("", None);
    tangent(system, shown, &mut display, true);
    for block in display.blocks {
        match block {
            report::Block::Quantity(q) if q.audience == Audience::Data => {}
            report::Block::Quantity(q) => {
                s.quantity(q.for_only(Audience::Display));
            }
            other => s.blocks.push(other),
        }
    }
}

/// The prose and tables of the midpoint and trapezoidal rules on `TQ`; `in_step_variables` when
/// `d` is written in the discrete velocity (and the midpoint) rather than in `q_k, q_{k+1}`.
fn tangent(system: &System, d: &DiscreteEquations, s: &mut Section, in_step_variables: bool) {
    let coordinates = system.keys(&system.coordinates);
    let current = breakable_list(system, &coordinates);
    let next = breakable_list(system, &d.next);
    let h = super::tex_name(system, &d.step);
    let velocity = format!("\\tfrac{{q_{{k+1}} - q_k}}{{{h}}}");
    let written = if in_step_variables {
        step_variables(system, d.method, &h)
    } else {
        ":".to_string()
    };
    let (rule, forces) = match d.method {
        model::Discretisation::Trapezoidal => (
            format!("The trapezoidal rule [MW01, \\S 2.3] approximates the action over a step of length ${h}$ from $t$ by the discrete Lagrangian $L_d(q_k, q_{{k+1}}) = \\tfrac{{{h}}}{{2}} \\bigl[L\\bigl(t, q_k, {velocity}\\bigr) + L\\bigl(t + {h}, q_{{k+1}}, {velocity}\\bigr)\\bigr]$ (the St\\\"ormer--Verlet method in position--momentum form), here with $q_k = ({current})$ and $q_{{k+1}} = ({next})${written}"),
            "The forces, held over the step, enter as $f_d^- = \\tfrac h2 F$ at the start and $f_d^+ = \\tfrac h2 F$ at the end of the step [MW01, \\S 3.2], with the velocity $\\tfrac{q_{k+1} - q_k}{h}$:",
        ),
        _ => (
            format!("The midpoint rule [MW01, \\S 2.3] approximates the action over a step of length ${h}$ from $t$ by the discrete Lagrangian $L_d(q_k, q_{{k+1}}) = {h}\\, L\\bigl(t + \\tfrac{{{h}}}{{2}}, \\tfrac{{q_k + q_{{k+1}}}}{{2}}, {velocity}\\bigr)$, here with $q_k = ({current})$ and $q_{{k+1}} = ({next})${written}"),
            "The forces, held over the step and taken at its midpoint, enter as $f_d^- = f_d^+ = \\tfrac h2 F$ [MW01, \\S 3.2]:",
        ),
    };
    s.prose(rule);
    s.quantity(Quantity::new("lagrangian", Value::Expr(d.lagrangian.clone())).shown_as("L_d"));
    if d.forces.iter().chain(&d.next_forces).any(|f| !f.is_zero()) {
        if d.forces == d.next_forces {
            s.quantity(
                Quantity::new(
                    "forces",
                    by_coordinate(system, &coordinates, "f^{\\pm}_{d", &d.forces),
                )
                .about(forces),
            );
        } else {
            s.quantity(
                Quantity::new(
                    "forces",
                    by_coordinate(system, &coordinates, "f^-_{d", &d.forces),
                )
                .about(forces),
            );
            s.quantity(Quantity::new(
                "next_forces",
                by_coordinate(system, &coordinates, "f^+_{d", &d.next_forces),
            ));
        }
    }
    if d.multipliers.is_empty() {
        s.quantity(
            Quantity::new("momentum", by_coordinate(system, &coordinates, "p_{k", &d.momentum))
                .about("The forced discrete Legendre transforms [MW01, \\S 1.5 and \\S 3.2] are the discrete equations in position--momentum form: a step solves $p_k = -D_1 L_d(q_k, q_{k+1}) - f_d^-$ for $q_{k+1}$,"),
        );
    } else {
        constrained_tangent(system, d, s);
    }
    s.quantity(
        Quantity::new(
            "next_momentum",
            by_coordinate(system, &coordinates, "p_{k+1", &d.next_momentum),
        )
        .about("and $p_{k+1} = D_2 L_d(q_k, q_{k+1}) + f_d^+$ follows:"),
    );
}

/// The end of the rule's sentence when the equations are written in the step's variables
/// ([`crate::discrete::in_step_variables`]): what they are and how `D_1 L_d`, `D_2 L_d` read in
/// them.
fn step_variables(system: &System, method: model::Discretisation, h: &str) -> String {
    let table = &system.symbols;
    let halves = |of: &[model::symbols::Handle]| {
        let keys: Vec<String> = of.iter().map(|&x| table.key(table.half(x))).collect();
        breakable_list(system, &keys)
    };
    let slope = halves(&system.algebroid.velocities);
    let velocity = format!(
        "the discrete velocity $\\dot q_{{k+1/2}} = \\tfrac{{q_{{k+1}} - q_k}}{{{h}}} = ({slope})$"
    );
    let (dl, dq) = (
        "\\tfrac{\\partial L}{\\partial \\dot q}",
        "\\tfrac{\\partial L}{\\partial q}",
    );
    match method {
        model::Discretisation::Trapezoidal => format!("; below they are written in {velocity}, in which $-D_1 L_d = \\tfrac12 \\bigl[{dl}(t, q_k) + {dl}(t + {h}, q_{{k+1}})\\bigr] - \\tfrac{{{h}}}{{2}} {dq}(t, q_k)$ and $D_2 L_d = \\tfrac12 \\bigl[{dl}(t, q_k) + {dl}(t + {h}, q_{{k+1}})\\bigr] + \\tfrac{{{h}}}{{2}} {dq}(t + {h}, q_{{k+1}})$ (each at $\\dot q_{{k+1/2}}$):"),
        _ => {
            let midpoint = halves(&system.coordinates);
            format!("; below they are written in the midpoint $q_{{k+1/2}} = \\tfrac{{q_k + q_{{k+1}}}}{{2}} = ({midpoint})$ and {velocity}, in which $-D_1 L_d = {dl} - \\tfrac{{{h}}}{{2}} {dq}$ and $D_2 L_d = {dl} + \\tfrac{{{h}}}{{2}} {dq}$ at $\\bigl(t + \\tfrac{{{h}}}{{2}}, q_{{k+1/2}}, \\dot q_{{k+1/2}}\\bigr)$:")
        }
    }
}

/// The discrete Herglotz equations of a contact system [VBS19].
fn herglotz(system: &System, d: &DiscreteEquations, s: &mut Section) {
    let coordinates = system.keys(&system.coordinates);
    let current = breakable_list(system, &coordinates);
    let next = breakable_list(system, &d.next);
    let h = super::tex_name(system, &d.step);
    let z = system
        .action
        .map_or_else(|| "z".to_string(), |z| system.latex_name(z));
    s.prose(format!("A discrete contact Lagrangian $L_d(q_k, q_{{k+1}}, {z}_k)$ advances the action over a step of length ${h}$ from $t$, ${z}_{{k+1}} = {z}_k + L_d$, and the discrete Herglotz principle [VBS19, \\S 3] makes the final action stationary. Here it is the midpoint rule in $q$ with the action carried to the midpoint by the explicit midpoint rule, $L_d = {h}\\, L\\bigl(t + \\tfrac{{{h}}}{{2}}, \\bar q, \\tfrac{{q_{{k+1}} - q_k}}{{{h}}}, {z}_k + \\tfrac{{{h}}}{{2}} L(t + \\tfrac{{{h}}}{{2}}, \\bar q, \\tfrac{{q_{{k+1}} - q_k}}{{{h}}}, {z}_k)\\bigr)$ with $\\bar q = \\tfrac{{q_k + q_{{k+1}}}}{{2}}$ (second order), here with $q_k = ({current})$ and $q_{{k+1}} = ({next})$:"));
    s.quantity(Quantity::new("lagrangian", Value::Expr(d.lagrangian.clone())).shown_as("L_d"));
    if let Some(factor) = &d.contraction {
        s.quantity(
            Quantity::new("contraction", Value::Expr(factor.clone()))
                .shown_as("1 + D_3 L_d")
                .about(&format!("Its derivative by the action gives the factor by which a step contracts the momenta (the discrete counterpart of $e^{{\\int \\partial L/\\partial {z}\\, dt}}$):")),
        );
    }
    s.quantity(
        Quantity::new("momentum", by_coordinate(system, &coordinates, "p_{k", &d.momentum))
            .about("The discrete Herglotz equations $D_1 L_d(q_k, q_{k+1}, z_k) + (1 + D_3 L_d(q_k, q_{k+1}, z_k))\\, D_2 L_d(q_{k-1}, q_k, z_{k-1}) = 0$ [VBS19, \\S 3] in position--momentum form: a step solves $p_k = -D_1 L_d / (1 + D_3 L_d)$ for $q_{k+1}$,"),
    );
    s.quantity(
        Quantity::new(
            "next_momentum",
            by_coordinate(system, &coordinates, "p_{k+1", &d.next_momentum),
        )
        .about("then $p_{k+1} = D_2 L_d(q_k, q_{k+1}, z_k)$"),
    );
    if let Some(action) = &d.action {
        s.quantity(
            Quantity::new("action", Value::Expr(action.clone()))
                .shown_as(&format!("{z}_{{k+1}}"))
                .about("and the action at the end of the step:"),
        );
    }
}

/// The discrete equations with constraints: the discrete Lagrange–d'Alembert equations of
/// nonholonomic constraints [CM01], [MP06]; the constrained discrete Euler–Lagrange equations of
/// holonomic ones [MW01] §3.5 (RATTLE with the trapezoidal rule [HLW06] §VII.1).
fn constrained_tangent(system: &System, d: &DiscreteEquations, s: &mut Section) {
    let coordinates = system.keys(&system.coordinates);
    let lambda = breakable_list(system, &d.multipliers);
    let holonomic = system
        .constraints
        .iter()
        .filter(|c| c.position.is_some())
        .count();
    let nonholonomic_text = "the discrete Lagrange--d'Alembert principle [CM01; MP06] varies $q_k$ within the constraint distribution at $q_k$ and restricts each step to the discrete constraints $\\omega_d(q_k, q_{k+1}) = 0$, here the constraints $\\Psi$ at the midpoint, $\\Psi\\bigl(t + \\tfrac h2, \\tfrac{q_k + q_{k+1}}{2}, \\tfrac{q_{k+1} - q_k}{h}\\bigr)$";
    let rattle = if d.method == model::Discretisation::Trapezoidal {
        "; with the trapezoidal rule this is RATTLE [HLW06, \\S VII.1] (SHAKE's positions, with the momenta of the next step projected onto the constraints' tangent space)"
    } else {
        ""
    };
    let holonomic_text = format!("the discrete Euler--Lagrange equations on the constraint manifold [MW01, \\S 3.5] take the constraint forces at $q_k$ and ask $q_{{k+1}}$ to satisfy the constraints, $\\omega_d = f(t + h, q_{{k+1}})${rattle}");
    let about = match (holonomic, d.multipliers.len() - holonomic) {
        (0, _) => format!("With nonholonomic constraints {nonholonomic_text}:"),
        (_, 0) => format!("With holonomic constraints $f(t, q) = 0$ {holonomic_text}:"),
        _ => format!("With holonomic constraints $f(t, q) = 0$ {holonomic_text}; for the nonholonomic ones {nonholonomic_text}:"),
    };
    constrained(s, d, &about);
    s.quantity(
        Quantity::new("momentum", by_coordinate(system, &coordinates, "p_{k", &d.momentum))
            .about(&format!("In position--momentum form a step solves $p_k = -D_1 L_d(q_k, q_{{k+1}}) - f_d^- + \\mu(q_k)^T \\lambda_k$ together with $\\omega_d = 0$ for $q_{{k+1}}$ and the discrete multipliers $\\lambda_k = ({lambda})$ (impulses over the step, $\\lambda_k / h$ tending to the multipliers of the continuous equations),")),
    );
}

/// The discrete multipliers (data) and the discrete constraints, introduced by `about`.
fn constrained(s: &mut Section, d: &DiscreteEquations, about: &str) {
    s.quantity(
        Quantity::new("multipliers", Value::Names(d.multipliers.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "constraints",
            Value::List(d.constraints.iter().cloned().map(Value::Expr).collect()),
        )
        .about(about),
    );
}

/// The Cayley chart's prose and tables: the discrete Euler–Poincaré equations on so(3), or on an
/// action algebroid of so(3) (the heavy top's), whose base moves by the Cayley map too.
fn cayley(system: &System, d: &DiscreteEquations, s: &mut Section) {
    let velocities = system.keys(&system.algebroid.velocities);
    let xi = breakable_list(system, &d.next);
    let h = super::tex_name(system, &d.step);
    let on_base = !d.positions.is_empty();
    let lgvi = d.method == model::Discretisation::Lgvi;
    if on_base {
        cayley_on_base(system, d, s);
    } else if lgvi {
        s.prose(format!(
            "The Lie group variational integrator of Lee, Leok and McClamroch [LLM07] moves the body by $g_{{k+1}} = g_k F_k$ and approximates the action over a step of length ${h}$ by $L_d = \\tfrac{{1}}{{{h}}} \\operatorname{{tr}}\\bigl[(I - F_k) J_d\\bigr]$, with $J_d = \\tfrac12 \\operatorname{{tr}}(J)\\, I - J$ for the kinetic energy $\\tfrac12 \\xi^T J \\xi$. In the Cayley chart $F_k = \\operatorname{{cay}}({h}\\, \\xi_k)$, $\\operatorname{{cay}}(x) = (I - x/2)^{{-1}}(I + x/2)$ [BRM09], with the discrete velocity $\\xi_k = ({xi})$, $F_k - I = \\tfrac{{4 {h} \\hat\\xi_k + 2 {h}^2 \\hat\\xi_k^2}}{{4 + {h}^2 |\\xi_k|^2}}$ and $\\operatorname{{tr}}(\\hat x^2 J_d) = -x^T J x$, so the reduced discrete Lagrangian is $l_d(\\xi_k) = {h}\\, \\tfrac12 \\xi_k^T J \\xi_k / \\bigl(1 + \\tfrac{{{h}^2}}{{4}} |\\xi_k|^2\\bigr)$:"
        ));
        s.quantity(Quantity::new("lagrangian", Value::Expr(d.lagrangian.clone())).shown_as("l_d"));
    } else {
        s.prose(format!(
            "The Lie group variational integrator in the Cayley chart [BRM09, \\S 4--5; LLM07] moves the body by $g_{{k+1}} = g_k \\operatorname{{cay}}({h}\\, \\xi_k)$, $\\operatorname{{cay}}(x) = (I - x/2)^{{-1}}(I + x/2)$, with the discrete velocity $\\xi_k = ({xi})$ over a step of length ${h}$, and approximates the action over the step by the reduced discrete Lagrangian $l_d(\\xi_k) = {h}\\, l\\bigl(t + \\tfrac{{{h}}}{{2}}, \\xi_k\\bigr)$:"
        ));
        s.quantity(Quantity::new("lagrangian", Value::Expr(d.lagrangian.clone())).shown_as("l_d"));
    }
    let pull = if on_base {
        " - \\tfrac h2\\, \\rho(x_k)^T \\tfrac{\\partial l}{\\partial x}"
    } else {
        ""
    };
    let start = format!("$\\Pi_k = (d\\tau^{{-1}}_{{h\\xi_k}})^* \\mu_k{pull} = \\mu_k + \\tfrac h2\\, \\xi_k \\times \\mu_k + \\tfrac{{h^2}}{{4}} (\\xi_k \\cdot \\mu_k)\\, \\xi_k{pull}");
    let mu = if lgvi {
        "\\mu_k = \\tfrac{1}{h} \\partial l_d/\\partial \\xi$ at $\\xi_k"
    } else if on_base {
        "\\mu_k = \\tfrac12 \\bigl[\\tfrac{\\partial l}{\\partial \\xi}(x_k, \\xi_k) + \\tfrac{\\partial l}{\\partial \\xi}(x_{k+1}, \\xi_k)\\bigr]"
    } else {
        "\\mu_k = \\partial l/\\partial \\xi$ at $\\xi_k"
    };
    let source = if on_base {
        "[BRM09, \\S 5; MMM06]"
    } else {
        "[BRM09, \\S 5]"
    };
    let equations = format!("Its discrete Euler--Poincar\\'e equations {source} in terms of the momenta at the ends of the step, with ${mu}$ and $d\\tau^{{-1}}_x = I - \\tfrac12 \\hat x + \\tfrac14 x x^T$ on so(3)");
    let about = if d.multipliers.is_empty() {
        format!("{equations}: a step solves {start}$ for $\\xi_k$,")
    } else {
        let lambda = breakable_list(system, &d.multipliers);
        constrained(s, d, "With nonholonomic constraints the discrete Lagrange--d'Alembert principle [CM01; MP06] restricts the variations to the constraints and asks the discrete velocity to satisfy them, $\\Psi(t + \\tfrac h2, \\xi_k) = 0$:");
        format!("{equations}, with the impulses $\\mu^T \\lambda_k$ of the discrete multipliers $\\lambda_k = ({lambda})$: a step solves {start} + \\mu^T \\lambda_k$ with the constraints for $\\xi_k$ and $\\lambda_k$,")
    };
    s.quantity(
        Quantity::new(
            "momentum",
            by_coordinate(system, &velocities, "\\Pi_{k", &d.momentum),
        )
        .about(&about),
    );
    let kept = match (d.multipliers.is_empty(), on_base) {
        (true, false) if lgvi => " Both have the same length, so the Casimir $|\\Pi|^2$ is kept exactly, and so is the energy $\\tfrac12 \\Pi^T J^{-1} \\Pi$, as by the Moser--Veselov discrete rigid body (the two are $(a \\pm b)/D$ with $a = J \\xi_k$, $b = \\tfrac h2\\, \\xi_k \\times J \\xi_k$ and $a^T J^{-1} b = \\xi_k \\cdot b = 0$):",
        (true, false) => " Both have the same length, so the Casimir $|\\Pi|^2$ is kept exactly:",
        (true, true) => " When the action is the heavy top's, $\\rho(e_a)(x) = x \\times e_a$, the step keeps its Casimirs exactly, $|x_{k+1}|^2 = |x_k|^2$ and $\\Pi_{k+1} \\cdot x_{k+1} = \\Pi_k \\cdot x_k$ (the discrete momentum map of the rotations about the vertical):",
        (false, _) => ":",
    };
    // (dτ⁻¹_{hξ})* of the chart's μ is vee(F J_d − J_d Fᵀ)/h, and (dτ⁻¹_{−hξ})* = Fᵀ (dτ⁻¹_{hξ})*.
    let published = match (lgvi, on_base) {
        (false, _) => "",
        (true, false) => " These are Lee, Leok and McClamroch's equations as they publish them, $h \\hat\\Pi_k = F_k J_d - J_d F_k^T$ and $\\Pi_{k+1} = F_k^T \\Pi_k$, in the chart.",
        (true, true) => " These are Lee, Leok and McClamroch's equations as they publish them, $h \\hat\\Pi_k + \\tfrac{h^2}{2} \\hat M_k = F_k J_d - J_d F_k^T$ and $\\Pi_{k+1} = F_k^T \\Pi_k + \\tfrac h2 F_k^T M_k + \\tfrac h2 M_{k+1}$ with the moment $M = \\rho(x)^T \\tfrac{\\partial l}{\\partial x}$, in the chart.",
    };
    let next_pull = if on_base {
        " + \\tfrac h2\\, \\rho(x_{k+1})^T \\tfrac{\\partial l}{\\partial x}"
    } else {
        ""
    };
    s.quantity(
        Quantity::new(
            "next_momentum",
            by_coordinate(system, &velocities, "\\Pi_{k+1", &d.next_momentum),
        )
        .about(&format!(
            "and $\\Pi_{{k+1}} = (d\\tau^{{-1}}_{{-h\\xi_k}})^* \\mu_k{next_pull}$ follows.{published}{kept}"
        )),
    );
}

/// The action algebroid's prose: the base moves with the body, and the discrete Lagrangian is
/// the trapezoidal rule in the base point.
fn cayley_on_base(system: &System, d: &DiscreteEquations, s: &mut Section) {
    let coordinates = system.keys(&system.coordinates);
    let xi = breakable_list(system, &d.next);
    let h = super::tex_name(system, &d.step);
    let current = breakable_list(system, &coordinates);
    let table = &system.symbols;
    let next: Vec<String> = system
        .coordinates
        .iter()
        .map(|&q| table.key(table.next(q)))
        .collect();
    let next = breakable_list(system, &next);
    let lgvi = d.method == model::Discretisation::Lgvi;
    let which = if lgvi {
        "of Lee, Leok and McClamroch [LLM07], written in the Cayley chart [BRM09]"
    } else {
        "in the Cayley chart [BRM09, \\S 4--5; LLM07]"
    };
    s.prose(format!(
        "The Lie group variational integrator {which}, on the action algebroid of so(3) over the base $x = ({current})$ [MMM06], moves the body by $g_{{k+1}} = g_k \\operatorname{{cay}}({h}\\, \\xi_k)$, $\\operatorname{{cay}}(x) = (I - x/2)^{{-1}}(I + x/2)$, with the discrete velocity $\\xi_k = ({xi})$ over a step of length ${h}$. The base point moves with it by the same map of the infinitesimal action $\\rho(\\xi)(x) = A(\\xi)\\, x$ of the anchor, $x_{{k+1}} = \\operatorname{{cay}}({h}\\, A(\\xi_k))\\, x_k = x_k + \\tfrac{{4 {h} A x_k + 2 {h}^2 A^2 x_k}}{{4 + {h}^2 |\\xi_k|^2}}$ (since $A^3 = -|\\xi|^2 A$)."
    ));
    s.quantity(
        Quantity::new(
            "positions",
            by_coordinate(system, &coordinates, "x_{k+1", &d.positions),
        )
        .about("The base point at the end of the step, from the base point $x_k$ and the discrete velocity:"),
    );
    s.quantity(
        Quantity::new("lagrangian", Value::Expr(d.lagrangian.clone()))
            .shown_as("l_d")
            .about(&if lgvi {
                format!("The discrete Lagrangian is $L_d = \\tfrac{{1}}{{{h}}} \\operatorname{{tr}}\\bigl[(I - F_k) J_d\\bigr]$ for the kinetic energy $\\tfrac12 \\xi^T J \\xi$, $J_d = \\tfrac12 \\operatorname{{tr}}(J)\\, I - J$, with the rest $l_0$ of the Lagrangian by the trapezoidal rule in the base point; in the chart $F_k = \\operatorname{{cay}}({h}\\, \\xi_k)$ it reads $l_d = {h}\\, \\tfrac12 \\xi_k^T J \\xi_k / \\bigl(1 + \\tfrac{{{h}^2}}{{4}} |\\xi_k|^2\\bigr) + \\tfrac{{{h}}}{{2}} \\bigl[l_0(x_k) + l_0(x_{{k+1}})\\bigr]$, here with $x_{{k+1}} = ({next})$:")
            } else {
                format!("The discrete Lagrangian is the trapezoidal rule in the base point, $l_d = \\tfrac{{{h}}}{{2}} \\bigl[l\\bigl(t + \\tfrac{{{h}}}{{2}}, x_k, \\xi_k\\bigr) + l\\bigl(t + \\tfrac{{{h}}}{{2}}, x_{{k+1}}, \\xi_k\\bigr)\\bigr]$, here with $x_{{k+1}} = ({next})$:")
            }),
    );
}

/// A table keyed by the coordinates (or velocities): JSON by their names, LaTeX `head, q}` (`p_{k,\theta}`).
fn by_coordinate(
    system: &System,
    coordinates: &[String],
    head: &str,
    values: &[cas::Expr],
) -> Value {
    Value::Table(
        coordinates
            .iter()
            .zip(values)
            .map(|(q, v)| {
                let key = Key::Word {
                    json: system.spec_name(system.handle(q)),
                    tex: format!("{head},{}}}", super::tex_name(system, q)),
                };
                (key, Value::Expr(v.clone()))
            })
            .collect(),
    )
}

/// The LaTeX names of `list` separated by commas at which a line may break inside inline math
/// (`\allowbreak`): ten coordinates and their next values do not fit in a column otherwise.
fn breakable_list(system: &System, list: &[String]) -> String {
    list.iter()
        .map(|s| super::tex_name(system, s))
        .collect::<Vec<_>>()
        .join(",\\allowbreak ")
}
