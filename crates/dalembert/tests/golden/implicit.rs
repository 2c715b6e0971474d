//! The documents of the implicit form: what they show simplified and what as derived.

use mech::describe::SIMPLIFIED_ENERGY_NODES;
use report::{At, Shown};

/// The flat chain of the benchmark (`bench/models.py`, `pendulum_cart`): a cart and `n` point
/// masses on massless rods in absolute angles, its Lagrangian written out.
fn flat_chain(n: usize) -> String {
    let mut terms = vec!["m0/2*x'^2".to_string()];
    for i in 1..=n {
        let links = 1..=i;
        let vx: Vec<String> = std::iter::once("x'".to_string())
            .chain(links.clone().map(|j| format!("l{j}*cos(q{j})*q{j}'")))
            .collect();
        let vy: Vec<String> = links
            .clone()
            .map(|j| format!("l{j}*sin(q{j})*q{j}'"))
            .collect();
        let height: Vec<String> = links.map(|j| format!("l{j}*cos(q{j})")).collect();
        terms.push(format!(
            "m{i}/2*(({})^2 + ({})^2) - m{i}*g*({})",
            vx.join(" - "),
            vy.join(" + "),
            height.join(" + ")
        ));
    }
    let masses: Vec<String> = (0..=n).map(|i| format!("m{i}")).collect();
    let lengths: Vec<String> = (1..=n).map(|i| format!("l{i}")).collect();
    let angles: Vec<String> = (1..=n).map(|i| format!("q{i}")).collect();
    format!(
        "system chain_{n}\nparameters g, {}, {}\ncoordinates x, {}\ninputs F\n\
         algebroid tangent\nlagrangian = {}\nforces {{\n  x = F\n}}\n",
        masses.join(", "),
        lengths.join(", "),
        angles.join(", "),
        terms.join(" + ")
    )
}

/// The energy of an implicit form is shown simplified up to [`SIMPLIFIED_ENERGY_NODES`] and
/// grouped by the velocities, as derived, past it (its simplification would cost several times
/// the derivation): the flat seven-link chain's energy is under the bound and the eight-link
/// chain's over it. Either way the energy shown is the energy derived.
#[test]
fn an_implicit_energy_past_its_simplification_bound_is_shown_grouped_and_equal() {
    let mut sizes = Vec::new();
    for n in [7, 8] {
        let source = flat_chain(n);
        let derived = dalembert::compile_with(&source, &dalembert::Options::default())
            .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("chain.mech", &source, &e)));
        let dalembert::Derived::Implicit(d) = &derived else {
            panic!("the {n}-link chain takes the implicit form");
        };
        let energy = d.implicit.energy.get();
        let report = mech::describe::report(&derived);
        let quantity = report.find(&["energy"]).expect("an energy");
        let shown = quantity.value.at(At::Whole).expect("one expression");
        assert!(
            (shown - energy).is_zero(),
            "{n} links: the energy shown differs"
        );
        let large = energy.size() > SIMPLIFIED_ENERGY_NODES;
        let expected = if large {
            Shown::AsDerived
        } else {
            Shown::Simplified
        };
        assert_eq!(quantity.shown, expected, "{n} links");
        sizes.push(energy.size());
    }
    assert!(
        sizes[0] <= SIMPLIFIED_ENERGY_NODES && sizes[1] > SIMPLIFIED_ENERGY_NODES,
        "the energies' sizes {sizes:?} do not straddle the bound"
    );
}
