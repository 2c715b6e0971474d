//! The report of a vakonomic system ([IMMS08], §5.1): the constraints solved for some
//! velocities, the restricted Lagrangian, the vakonomic equations with the momenta as state,
//! the regularity matrix, the energy, and the Hamiltonian form with the vakonomic bracket.

use report::{Audience, Key, Quantity, Report, Section, Value};

use super::{assemble, bracket_table, constraints, system_section, tex_list, Bias};
use crate::derivation::VakonomicDerivation;

/// The report of a vakonomic derivation.
pub fn report(d: &VakonomicDerivation) -> Report {
    let system = &d.system;
    let alg = &system.algebroid;
    let v = &d.vakonomic;
    let mut top = Section::new("Vakonomic equations", None);
    top.quantity(super::lagrangian(system));
    top.quantity(
        Quantity::new(
            "constraints",
            constraints(system, &system.vakonomic, Bias::Listed),
        )
        .for_only(Audience::Data),
    );
    top.quantity(
        Quantity::new(
            "multipliers",
            Value::multipliers(v.lagrange_multipliers.iter().cloned().map(Value::Expr)),
        )
        .about("The multipliers $\\lambda_a$ of $L + \\lambda_a \\Phi^a$:"),
    );
    top.quantity(
        Quantity::new("equations", Value::rates(&v.state, v.rates.iter().cloned())).about(
            &format!(
                "The explicit form [IMMS08, \\S 5.1], on the state $({})$, is",
                tex_list(system, &v.state)
            ),
        ),
    );
    top.quantity(
        Quantity::new("energy", Value::Expr(v.energy.clone()))
            .shown_as("H_{W_0}|_{W_1}")
            .about(
                "with the energy $H_{W_0}|_{W_1} = p_a y^a + p_\\alpha\\Psi^\\alpha - \\tilde L$,",
            ),
    );
    top.quantity(
        Quantity::new("energy_rate", Value::optional(d.energy_rate.as_ref()))
            .shown_as("\\frac{d}{dt} H_{W_0}|_{W_1}"),
    );
    let constrained: Vec<String> = v
        .constrained
        .iter()
        .map(|&a| system.key(alg.velocities[a]))
        .collect();
    let mut s = Section::new("The vakonomic construction", Some("vakonomic"));
    s.quantity(
        Quantity::new("constrained", Value::Names(constrained.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new("multiplier_momenta", Value::Names(v.multipliers.clone()))
            .for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "psi",
            Value::by_name(&constrained, constrained.iter().map(|y| v.psi[y].clone())),
        )
        .about(&format!(
            "The constraints, solved for ${}$ ([IMMS08], \\S 5.1, $y^\\alpha = \\Psi^\\alpha(x, y^a)$), and the restricted Lagrangian $\\tilde L = L(x, y^a, \\Psi)$:",
            tex_list(system, &constrained)
        )),
    );
    s.quantity(
        Quantity::new("restricted_lagrangian", Value::Expr(v.restricted.clone()))
            .shown_as("\\tilde L"),
    );
    let free_momenta: Vec<String> = v.free.iter().map(|&a| system.key(alg.momenta[a])).collect();
    s.quantity(
        Quantity::new(
            "momenta",
            Value::by_name(&free_momenta, v.free.iter().map(|&a| v.momenta[a].clone())),
        )
        .about(&format!(
            "The multipliers of the constrained sections are carried by their momenta ${}$, with $p_\\alpha = \\partial L/\\partial v^\\alpha + \\lambda_\\alpha$. On $W_1$ the momenta of the free sections are $p_a = \\partial\\tilde L/\\partial y^a - p_\\beta\\,\\partial\\Psi^\\beta/\\partial y^a$,",
            tex_list(system, &v.multipliers)
        )),
    );
    s.quantity(
        Quantity::new(
            "forces",
            Value::Table(
                (0..system.rank())
                    .map(|a| {
                        (
                            Key::Word {
                                json: system.spec_name(alg.momenta[a]),
                                tex: format!("F_{{{}}}", system.latex_name(system.handle(&alg.sections[a]))),
                            },
                            Value::Expr(v.forces[a].clone()),
                        )
                    })
                    .collect(),
            ),
        )
        .about("and with $F_A = (\\partial_i \\tilde L - p_\\beta\\,\\partial_i\\Psi^\\beta)\\rho^i_A - y^B \\mathcal{C}^D_{AB}\\, p_D$ ($y^\\beta = \\Psi^\\beta$) the equations [IMMS08, \\S 5.1] in multiplier form are $\\dot x^i = \\rho^i_a y^a + \\rho^i_\\alpha\\Psi^\\alpha$, $\\dot p_\\alpha = F_\\alpha$ and $\\frac{d}{dt} p_a = F_a$:"),
    );
    s.quantity(
        Quantity::new("regularity", Value::Matrix(v.regularity.clone()))
            .shown_as("R")
            .about("The system is regular [IMMS08, Proposition 5.3]: $R_{ab} = \\partial p_a/\\partial y^b$ is"),
    );
    s.quantity(Quantity::new("regularity_det", Value::Expr(v.det.clone())).shown_as("\\det R"));
    if let Some(h) = &v.hamiltonian {
        s.section(hamiltonian(d, h));
    }
    let sections = vec![system_section(system, Some("vakonomic"), &v.state), top, s];
    assemble(system, "Vakonomic dynamics", sections)
}

/// The Hamiltonian form on `W_1 ≅ E*` and the vakonomic bracket ([IMMS08], Remark 5.5,
/// Theorem 5.8).
fn hamiltonian(d: &VakonomicDerivation, h: &crate::vakonomic::VakonomicHamiltonian) -> Section {
    let system = &d.system;
    let alg = &system.algebroid;
    let v = &d.vakonomic;
    let mut s = Section::new(
        "Hamiltonian form and the vakonomic bracket",
        Some("hamiltonian"),
    );
    let free: Vec<String> = v
        .free
        .iter()
        .map(|&a| system.key(alg.velocities[a]))
        .collect();
    s.quantity(
        Quantity::new(
            "velocities",
            Value::by_name(&free, free.iter().map(|y| h.velocities[y].clone())),
        )
        .about("Solving $p_a$ for the free velocities [IMMS08, Remark 5.5],"),
    );
    s.quantity(Quantity::new("H", Value::Expr(h.hamiltonian.clone())).shown_as("H_{W_1}"));
    s.quantity(
        Quantity::new("coordinates", Value::Names(h.coordinates.clone())).for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "equations",
            Value::rates(&h.coordinates, h.rates.iter().cloned()),
        )
        .about("and $\\dot f = \\{f, H_{W_1}\\}$:"),
    );
    let name = |i: usize| h.coordinates[i].clone();
    s.quantity(
        Quantity::new("bracket", bracket_table(&name, &h.table))
            .sparse()
            .about("The motion on $W_1 \\cong E^*$ is generated by the vakonomic bracket [IMMS08, eq.~(5.8)], the linear Poisson bracket $\\{x^i, p_A\\} = \\rho^i_A$, $\\{p_A, p_B\\} = -\\mathcal{C}^C_{AB}\\, p_C$ [IMMS08, Theorem 5.8] (brackets of coordinates not listed vanish):"),
    );
    s
}
