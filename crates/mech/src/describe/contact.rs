//! The report of a contact (Herglotz) system with linear constraints ([LJL21]): the constrained
//! Herglotz equations with their multipliers and projector, the dissipation law, the
//! nonholonomic almost-Jacobi bracket with its Jacobiators, and the Hamiltonian side.

use cas::Expr;
use report::{Audience, Key, Quantity, Report, Section, Value};

use super::{assemble, constraints, sides::jacobiators, system_section, Bias};
use crate::derivation::ContactDerivation;

/// The report of a contact derivation.
pub fn report(d: &ContactDerivation) -> Report {
    let system = &d.system;
    let c = &d.contact;
    // One choice for the multipliers, the equations and the energy: on Δ × ℝ, or all on the
    // whole state.
    let together: Vec<Expr> = c
        .multipliers
        .iter()
        .chain(&c.rates)
        .chain([&c.energy])
        .cloned()
        .collect();
    let (mut shown, whole) = c.on_display(&together);
    let energy_shown = shown.pop().expect("the energy");
    let rates = shown.split_off(c.multipliers.len());
    let multipliers = shown;
    let mut head = system_section(system, Some("contact"), &c.coordinates);
    head.prose(format!(
        "Action variable ${}$ on $TQ \\times \\mathbb{{R}}$ [LJL21].",
        system
            .action
            .map_or_else(|| "z".to_string(), |z| system.latex_name(z))
    ));
    let mut lagrangian = Section::new("Lagrangian", None);
    lagrangian.quantity(super::lagrangian(system));
    lagrangian.quantity(
        Quantity::new("hessian", Value::Matrix(c.hessian.clone())).for_only(Audience::Data),
    );
    lagrangian
        .quantity(Quantity::new("momenta", Value::exprs(&c.momenta)).for_only(Audience::Data));
    lagrangian.quantity(Quantity::new("reeb", Value::exprs(&c.reeb)).for_only(Audience::Data));
    lagrangian.quantity(
        Quantity::new("free_equations", Value::exprs(&c.free_rates)).for_only(Audience::Data),
    );
    lagrangian.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.constraints, Bias::Listed),
        )
        .for_only(Audience::Data),
    );
    super::constraints_shown(&mut lagrangian, system, "Phi");
    let mut motion = Section::new("Constrained Herglotz equations", None);
    motion.quantity(
        Quantity::new("constraint_matrix", Value::Matrix(c.constraint_matrix.clone()))
            .shown_as("\\mathcal{C}")
            .about("With $Z_a = -W^{ik}\\Phi^a_k\\,\\partial_{\\dot q^i}$ and $\\mathcal{C}_{ab} = d\\bar\\Phi^b(Z_a)$ [LJL21, eq.~(77)],"),
    );
    if whole {
        motion.prose("Solving the constraints for some of the velocities would divide by an expression that vanishes where the motion is regular (a singularity of the choice, not of the system), so the results below are written on the whole of $TQ \\times \\mathbb{R}$: they are regular there, and on $\\Delta \\times \\mathbb{R}$ they are the constrained ones.");
    }
    motion.quantity(
        Quantity::new(
            "multipliers",
            Value::multipliers(multipliers.into_iter().map(Value::Expr)),
        )
        .about("the multipliers $\\lambda_a = \\mathcal{C}^{ab}\\, d\\bar\\Phi^b(\\Gamma_L)$ of [LJL21, eq.~(63)] are, on $\\Delta \\times \\mathbb{R}$,"),
    );
    motion.quantity(
        Quantity::new("projector", Value::Matrix(c.projector.clone())).for_only(Audience::Data),
    );
    motion.quantity(projector_display(d));
    motion.quantity(
        Quantity::new("reeb_projected", Value::exprs(&c.reeb_projected)).for_only(Audience::Data),
    );
    motion.quantity(Quantity::new(
        "equations",
        Value::rates(&c.coordinates, rates),
    ));
    let mut energy = Section::new("Energy", None);
    energy.quantity(Quantity::new("energy", Value::Expr(energy_shown)).shown_as("E_L"));
    energy.quantity(
        Quantity::new("dissipation", Value::Expr(c.dissipation.clone()))
            .shown_as("\\partial L/\\partial z"),
    );
    energy.quantity(
        Quantity::new("energy_rate", Value::Expr(c.energy_rate.clone()))
            .shown_as("\\dot E_L")
            .about("On $\\Delta \\times \\mathbb{R}$ the energy obeys $\\dot E_L = (\\partial L/\\partial z)\\, E_L$ [LJL21]: the constraint forces do no work. Along the motion"),
    );
    energy.quantity(
        Quantity::new("energy_law_residual", Value::Expr(c.energy_law.clone()))
            .shown_as("\\dot E_L - (\\partial L/\\partial z)\\, E_L")
            .about("and the residual of the dissipation law, proved to vanish for this system, is"),
    );
    let sections = vec![head, lagrangian, motion, energy, bracket(d), hamiltonian(d)];
    assemble(
        system,
        "Contact (Herglotz) dynamics with constraints",
        sections,
    )
}

/// The entries of `𝒫` that differ from the identity (display only).
fn projector_display(d: &ContactDerivation) -> Quantity {
    let system = &d.system;
    let c = &d.contact;
    let name = |i: usize| system.latex_name(system.handle(&c.coordinates[i]));
    let mut entries = Vec::new();
    for (mu, row) in c.projector.iter().enumerate() {
        for (nu, e) in row.iter().enumerate() {
            let identity = if mu == nu { Expr::one() } else { Expr::zero() };
            if !(e.clone() - identity).vanishes() {
                entries.push((
                    Key::Word {
                        json: format!("P{mu}{nu}"),
                        tex: format!("\\mathcal{{P}}^{{{}}}{{}}_{{{}}}", name(mu), name(nu)),
                    },
                    Value::Expr(e.clone()),
                ));
            }
        }
    }
    Quantity::new("projector_display", Value::Table(entries))
        .for_only(Audience::Display)
        .about("and $\\Gamma_{L,\\Delta} = \\mathcal{P}(\\Gamma_L)$ [LJL21, eq.~(81)], with $\\mathcal{P} = I - Z\\,\\mathcal{C}^{-1} d\\bar\\Phi$ (entries that differ from the identity; the inverse of $\\mathcal{C}$, which the paper's \\S 8 omits), is")
}

/// The nonholonomic almost-Jacobi bracket [LJL21, eq. (100)] and its Jacobiators.
fn bracket(d: &ContactDerivation) -> Section {
    let system = &d.system;
    let c = &d.contact;
    let mut s = Section::new("The nonholonomic bracket", None);
    let name = |i: usize| -> String {
        if i == 0 {
            "1".to_string()
        } else {
            c.coordinates[i - 1].clone()
        }
    };
    s.quantity(
        Quantity::new("bracket", super::bracket_table(&name, &c.table))
            .sparse()
            .about("The bracket of the projected Jacobi structure $(\\Lambda_{L,\\Delta}, -\\mathcal{R}_{L,\\Delta})$ [LJL21, eq.~(100)], in our sign ($\\{q, p\\} = +1$, the opposite of the paper's: $\\{f, g\\} = -\\Lambda_{L,\\Delta}(df, dg) + f\\,\\mathcal{R}_{L,\\Delta}(g) - g\\,\\mathcal{R}_{L,\\Delta}(f)$), on $\\Delta \\times \\mathbb{R}$ (brackets of coordinate functions and of $1$ not listed vanish):"),
    );
    s.prose("Observables evolve by $\\dot g = \\{g, E_L\\} - g\\,\\mathcal{R}_{L,\\Delta}(E_L)$ [LJL21, eq.~(101)].");
    let nonzero: Vec<(usize, usize, usize, Expr)> = c
        .jacobiators
        .iter()
        .filter(|(.., e)| !e.is_zero())
        .map(|(a, b, k, e)| (a + 1, b + 1, k + 1, e.clone()))
        .collect();
    s.quantity(jacobiators(
        "jacobiator",
        super::jacobiator_table(&name, &nonzero),
        "coordinate functions",
    ));
    s.quantity(Quantity::new("integrable", Value::Flag(c.integrable)).for_only(Audience::Data));
    s.prose(if c.integrable {
        "$\\Delta$ is integrable [LJL21, Theorem 24]."
    } else {
        "$\\Delta$ is not integrable [LJL21, Theorem 24]."
    });
    let n = system.coordinates.len();
    let contact_form = (0..2 * n + 1)
        .map(|k| {
            if k < n {
                -c.momenta[k].clone()
            } else if k == 2 * n {
                Expr::one()
            } else {
                Expr::zero()
            }
        })
        .collect::<Vec<_>>();
    s.quantity(Quantity::new("contact_form", Value::exprs(&contact_form)).for_only(Audience::Data));
    s
}

/// The Hamiltonian side (JSON `hamiltonian`), when derived.
fn hamiltonian(d: &ContactDerivation) -> Section {
    let Some(h) = &d.contact.hamiltonian else {
        return Section::new("Hamiltonian side", None);
    };
    let mut s = Section::new("Hamiltonian side", Some("hamiltonian"));
    s.prose("On $T^*Q \\times \\mathbb{R}$ with $\\eta = dz - p_i\\,dq^i$ (derived here from the Legendre transform; not in [LJL21]), the Legendre image of $E_L$ and the equations $\\dot q = \\partial H/\\partial p$, $\\dot p = -\\partial H/\\partial q - p\\,\\partial H/\\partial z + \\lambda_a\\Phi^a$, $\\dot z = p\\cdot\\partial H/\\partial p - H$ on $\\Psi^a = \\Phi^a_i\\,\\partial H/\\partial p_i = 0$:");
    s.quantity(
        Quantity::new("coordinates", Value::Names(h.coordinates.clone())).for_only(Audience::Data),
    );
    s.quantity(Quantity::new("legendre", Value::exprs(&h.legendre)).for_only(Audience::Data));
    s.quantity(Quantity::new("H", Value::Expr(h.hamiltonian.clone())).shown_as("H"));
    let together: Vec<Expr> = h.multipliers.iter().chain(&h.rates).cloned().collect();
    let (mut multipliers, whole) = h.on_display(&together);
    let rates = multipliers.split_off(h.multipliers.len());
    if whole {
        s.prose("Solving $\\Psi^a = 0$ for some of the momenta would divide by an expression that vanishes where the motion is regular, so the equations are written on the whole of $T^*Q \\times \\mathbb{R}$; on $\\Psi^a = 0$ they are the constrained ones.");
    }
    s.quantity(Quantity::new("constraints", Value::exprs(&h.constraints)).for_only(Audience::Data));
    s.quantity(
        Quantity::new(
            "multipliers",
            Value::multipliers(multipliers.into_iter().map(Value::Expr)),
        )
        .for_only(Audience::Data),
    );
    s.quantity(Quantity::new(
        "equations",
        Value::rates(&h.coordinates, rates),
    ));
    s
}
