//! The report of a Lagrange–d'Alembert derivation ([IMMS07], §II.4–§IV.1): the Lagrangian, the
//! constraints, the Poincaré–Cartan sections, the equations with their multipliers, the energy
//! balance, and the Hamiltonian, Dirac and projected sides (in [`super::sides`]).

use cas::Expr;
use report::{Audience, Form, FormCoefficients, Key, Quantity, Report, Section, Value};

use super::{assemble, choice, constraints, constraints_shown, sides, system_section, Bias};
use crate::derivation::Derivation;

/// The report of a closed-form Lagrange–d'Alembert derivation.
pub fn report(d: &Derivation) -> Report {
    let system = &d.system;
    let sections = vec![
        system_section(system, None, &d.state()),
        lagrangian(d),
        poincare_cartan(d),
        motion(d),
        energy(d),
        sides::hamiltonian(d),
        sides::dirac(d),
        sides::projected(d),
    ];
    assemble(system, "Lagrange--d'Alembert equations", sections)
}

/// `L`, its Hessian, momenta and free equations, and the constraints.
fn lagrangian(d: &Derivation) -> Section {
    let system = &d.system;
    let lag = &d.lagrangian;
    let mut s = Section::new("Lagrangian", None);
    s.quantity(super::lagrangian(system));
    s.quantity(Quantity::new("momenta", Value::exprs(&lag.momenta)).for_only(Audience::Data));
    s.quantity(
        Quantity::new("hessian", Value::Matrix(lag.hessian.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new("hessian_det", Value::Expr(lag.hessian_det.clone()))
            .shown_as("\\det W")
            .about("Its Hessian $W_{\\alpha\\beta} = \\partial^2 L/\\partial y^\\alpha \\partial y^\\beta$ has a non-vanishing determinant, so $L$ is regular:"),
    );
    s.quantity(
        Quantity::new(
            "free_equations",
            Value::rates(
                &system.keys(&system.algebroid.velocities),
                d.free_rhs.iter().cloned(),
            ),
        )
        .for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.constraints, Bias::Listed),
        )
        .for_only(Audience::Data),
    );
    constraints_shown(&mut s, system, "Psi");
    s
}

/// `Θ_L` and `Ω_L` over the dual basis of the prolongation ([IMMS07], eqs. (9)–(10)).
fn poincare_cartan(d: &Derivation) -> Section {
    let system = &d.system;
    let n = system.rank();
    let section = |a: usize| {
        let name = &system.algebroid.sections[a];
        match name.strip_prefix('e') {
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) => digits.to_string(),
            _ => system.latex_name(system.handle(name)),
        }
    };
    let dual: Vec<String> = std::iter::once("\\phi_0".to_string())
        .chain((0..n).map(|a| format!("\\tilde T^{{{}}}", section(a))))
        .chain((0..n).map(|a| format!("\\tilde V^{{{}}}", section(a))))
        .collect();
    let mut s = Section::new("Poincar\\'e--Cartan sections", None);
    s.prose("In the basis $(\\tilde T_0, \\tilde T_\\alpha, \\tilde V_\\alpha)$ of the prolongation, with dual basis $(\\phi_0, \\tilde T^\\alpha, \\tilde V^\\alpha)$ and $(a\\wedge b)(X,Y) = a(X)b(Y) - a(Y)b(X)$ [IMMS07, eqs.~(9)--(10)]:");
    s.quantity(
        Quantity::new(
            "theta",
            Value::Form(Form {
                basis: dual.clone(),
                coefficients: FormCoefficients::One(d.lagrangian.theta.clone()),
            }),
        )
        .shown_as("\\Theta_L"),
    );
    let sections = &system.algebroid.sections;
    let basis: Vec<Key> = std::iter::once("T(e0)".to_string())
        .chain(sections.iter().map(|s| format!("T({s})")))
        .chain(sections.iter().map(|s| format!("V({s})")))
        .map(|k| Key::word(&k))
        .collect();
    s.quantity(Quantity::new("basis", Value::Keys(basis)).for_only(Audience::Data));
    s.quantity(
        Quantity::new(
            "omega",
            Value::Form(Form {
                basis: dual,
                coefficients: FormCoefficients::Two(d.lagrangian.omega.clone()),
            }),
        )
        .shown_as("\\Omega_L"),
    );
    s
}

/// The equations of motion: the multiplier form, the multipliers and the first-order system.
fn motion(d: &Derivation) -> Section {
    let system = &d.system;
    let mut s = Section::new("Equations of motion", None);
    s.prose("Admissible curves: $\\dot x^i = \\rho^i_0 + \\rho^i_\\alpha y^\\alpha$. The Lagrange--d'Alembert equations $\\frac{d}{dt}\\frac{\\partial L}{\\partial y^\\alpha} - \\rho^i_\\alpha \\frac{\\partial L}{\\partial x^i} - (C^\\gamma_{0\\alpha} + C^\\gamma_{\\beta\\alpha} y^\\beta)\\frac{\\partial L}{\\partial y^\\gamma} = F_\\alpha - \\lambda_a \\mu^a_\\alpha$ [IMMS07, eq.~(35)] read, with multipliers:");
    s.quantity(multiplier_form(d));
    if let Some(nh) = &d.nonholonomic {
        let mut m = Section::new("Multipliers", None);
        m.quantity(Quantity::new("dpsi", Value::Matrix(nh.dpsi.clone())).for_only(Audience::Data));
        m.quantity(
            Quantity::new("constraint_forces", Value::Matrix(nh.z.clone()))
                .for_only(Audience::Data),
        );
        m.quantity(
            Quantity::new("constraint_matrix", Value::Matrix(nh.matrix.clone()))
                .shown_as("\\mathcal{C}")
                .about("Constraint matrix $\\mathcal{C}^{ab} = -W^{\\alpha\\beta}\\mu^a_\\alpha\\mu^b_\\beta$ [IMMS07, eq.~(34)]:"),
        );
        m.quantity(
            Quantity::new("constraint_matrix_det", Value::Expr(nh.det.clone()))
                .shown_as("\\det\\mathcal{C}"),
        );
        m.quantity(
            Quantity::new("projector", Value::Matrix(nh.projector.clone()))
                .for_only(Audience::Data),
        );
        m.quantity(
            multipliers(d)
                .about("The multipliers $\\lambda_c = -\\mathcal{C}_{ca}\\, d\\Psi^a(R_L)$ are"),
        );
        s.section(m);
    } else {
        s.quantity(multipliers(d).for_only(Audience::Data));
    }
    let mut first = Section::new("First-order system", None);
    first.quantity(
        Quantity::new(
            "method",
            Value::Text(
                match d.method {
                    crate::Method::Multipliers => "multipliers",
                    crate::Method::Induced => "induced",
                }
                .into(),
            ),
        )
        .for_only(Audience::Data),
    );
    choice(&mut first, &d.choice);
    if d.method == crate::Method::Induced {
        first.prose("By the induced method [GLMM09, Theorem 5.1]: the unconstrained Euler--Lagrange equations of the restricted Lagrangian on $(D, \\varepsilon_P)$, on the state $(x, v)$ of $D$ (Section ``Dirac side''); the golden tests prove them equal to the Lagrange--d'Alembert equations above.");
    }
    first.quantity(Quantity::new(
        "equations",
        Value::rates(&d.state(), d.rates()),
    ));
    s.section(first);
    let _ = system;
    s
}

/// The multipliers on the method's state.
fn multipliers(d: &Derivation) -> Quantity {
    Quantity::new(
        "multipliers",
        Value::multipliers(d.multipliers().iter().map(|l| Value::Expr(d.on_state(l)))),
    )
}

/// `W ẏ = F − λ_a μ^a`, row by row, as [IMMS07, eq. (35)] writes it (display only).
fn multiplier_form(d: &Derivation) -> Quantity {
    let system = &d.system;
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let rows = (0..n)
        .map(|a| {
            let lhs = (0..n)
                .fold(Expr::zero(), |acc, b| {
                    acc + d.lagrangian.hessian[a][b].clone()
                        * system.expr(system.symbols.rate(alg.velocities[b]))
                })
                .simplify();
            let rhs = system.constraints.iter().enumerate().fold(
                d.lagrangian.forcing[a].clone(),
                |acc, (c, constraint)| {
                    acc - system.expr(system.symbols.multiplier(c + 1)) * constraint.mu[a].clone()
                },
            );
            (Key::Expr(lhs), Value::Expr(rhs))
        })
        .collect();
    Quantity::new("multiplier_form", Value::Table(rows)).for_only(Audience::Display)
}

/// The energy and its balance along the motion.
fn energy(d: &Derivation) -> Section {
    let mut s = Section::new("Energy", None);
    s.quantity(Quantity::new("energy", Value::Expr(d.energy())).shown_as("E_L"));
    s.quantity(
        Quantity::new("energy_rate", Value::Expr(d.on_state(&d.energy_rate)))
            .shown_as("\\frac{dE_L}{dt}")
            .about("Along the motion (the energy balance, derived from [IMMS07, eq.~(35)]):"),
    );
    s
}
