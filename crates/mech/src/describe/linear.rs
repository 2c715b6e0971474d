//! The report of a linearisation (`dalembert linearize`, [`crate::linearize`]): the point, the
//! reduced state and how the dependent entries follow from it, `A` and `B` of
//! `δż = A δz + B δu` on the constraint manifold, the characteristic polynomial and, at a numeric
//! point, the eigenvalues. It is written by the same JSON and LaTeX printers as every other
//! result: expressions in their three forms with an identifier table, equations numbered and
//! labelled.

use cas::Expr;
use model::System;
use report::{Arithmetic, Audience, Key, Linearization, Quantity, Report, Section, Value};

/// The value of a number of the linearisation (`0` if it is not a number).
fn value_of(e: &Expr) -> f64 {
    e.evaluate(&Default::default()).unwrap_or(0.0)
}

/// A number of the linearisation: the expression when it is exact, else the double it holds.
fn number(lin: &Linearization, e: &Expr) -> Value {
    match lin.arithmetic {
        Arithmetic::Exact => Value::Expr(e.clone()),
        Arithmetic::Double => Value::Number(value_of(e)),
    }
}

/// The LaTeX name of state entry `s`.
fn latex(system: &System, s: &str) -> String {
    system.latex_name(system.handle(s))
}

/// The report of `lin`, a linearisation of `system`; its documents are
/// `<system>-linear.json` and `<system>-linear.tex`.
pub fn report(lin: &Linearization, system: &System) -> Report {
    let sections = vec![
        point(lin, system),
        reduced(lin, system),
        matrices(lin, system),
    ];
    Report {
        system: format!("{}-linear", system.name),
        title: format!("Linearisation of {}", system.name.replace('_', "\\_")),
        sections,
        references: Vec::new(),
    }
}

/// `δ` and the LaTeX name of a state entry, keyed in JSON by its spec name.
fn delta(system: &System, s: &str) -> Key {
    Key::Word {
        json: system.spec_name(system.handle(s)),
        tex: format!("\\delta {}", system.latex_name(system.handle(s))),
    }
}

/// The point, what was defaulted, and the rates there.
fn point(lin: &Linearization, system: &System) -> Section {
    let mut s = Section::new("The point", None);
    let data = |key: &str, value: Value| Quantity::new(key, value).for_only(Audience::Data);
    s.quantity(data("form", Value::Text("linearization".into())));
    s.quantity(data("system", Value::Text(system.name.clone())));
    let entries: Vec<(Key, Value)> = lin
        .point_in_order()
        .into_iter()
        .map(|(name, value)| (Key::Name(name.clone()), number(lin, value)))
        .collect();
    s.quantity(
        Quantity::new("point", Value::Table(entries))
            .about("The linearisation is taken at the point"),
    );
    s.quantity(data(
        "defaulted_to_zero",
        Value::Names(lin.defaulted.clone()),
    ));
    let equilibrium = lin.rates.iter().all(Expr::is_zero);
    s.quantity(data(
        "rates_at_point",
        Value::Table(
            lin.state
                .iter()
                .zip(&lin.rates)
                .map(|(name, r)| (Key::Name(name.clone()), number(lin, r)))
                .collect(),
        ),
    ));
    s.quantity(data("equilibrium", Value::Flag(equilibrium)));
    if equilibrium {
        s.prose("It is an equilibrium: every rate vanishes there.");
    } else {
        let moving: Vec<(Key, Value)> = lin
            .state
            .iter()
            .zip(&lin.rates)
            .filter(|(_, r)| !r.is_zero())
            .map(|(name, r)| (Key::Rate(name.clone()), number(lin, r)))
            .collect();
        s.quantity(
            Quantity::new("moving_rates", Value::Table(moving))
                .for_only(Audience::Display)
                .about("It is not an equilibrium (a steady motion): the rates that do not vanish there are"),
        );
    }
    s
}

/// The state, the reduced state and the dependent entries.
fn reduced(lin: &Linearization, system: &System) -> Section {
    let mut s = Section::new("The reduced state", None);
    let data = |key: &str, value: Value| Quantity::new(key, value).for_only(Audience::Data);
    let independent: Vec<String> = lin
        .independent
        .iter()
        .map(|&i| lin.state[i].clone())
        .collect();
    s.quantity(data("state", Value::Names(lin.state.clone())));
    s.quantity(data("reduced_state", Value::Names(independent.clone())));
    s.quantity(
        Quantity::new(
            "reduced_state_shown",
            Value::Keys(independent.iter().map(|i| delta(system, i)).collect()),
        )
        .shown_as("\\delta z")
        .for_only(Audience::Display)
        .about("On the constraint manifold the perturbation is measured by the independent entries of the state,"),
    );
    let combination = |row: &[Expr], name: &dyn Fn(&str) -> Key| -> Vec<(Key, Expr)> {
        independent
            .iter()
            .zip(row)
            .filter(|(_, c)| !c.is_zero())
            .map(|(i, c)| (name(i), c.clone()))
            .collect()
    };
    let by_spec = |s: &str| Key::Name(s.to_string());
    let by_delta = |s: &str| delta(system, s);
    s.quantity(data(
        "dependent",
        Value::Table(
            lin.dependent
                .iter()
                .map(|(d, row)| {
                    let terms = combination(row, &by_spec);
                    let value = match lin.arithmetic {
                        Arithmetic::Exact => Value::Combination(terms),
                        Arithmetic::Double => Value::Table(
                            terms
                                .iter()
                                .map(|(k, c)| (k.clone(), number(lin, c)))
                                .collect(),
                        ),
                    };
                    (Key::Name(lin.state[*d].clone()), value)
                })
                .collect(),
        ),
    ));
    if !lin.dependent.is_empty() && lin.arithmetic == Arithmetic::Double {
        s.prose("and the constraints, linearised at the point, fix the other entries:");
        for (d, row) in &lin.dependent {
            let terms: Vec<String> = independent
                .iter()
                .zip(row)
                .filter(|(_, c)| !c.is_zero())
                .map(|(i, c)| {
                    format!(
                        "{}\\,\\delta {}",
                        report::decimal_latex(value_of(c)),
                        latex(system, i)
                    )
                })
                .collect();
            let rhs = if terms.is_empty() {
                "0".to_string()
            } else {
                terms.join(" + ").replace("+ -", "- ")
            };
            s.prose(format!(
                "$\\delta {} = {rhs}$.",
                latex(system, &lin.state[*d])
            ));
        }
    } else if !lin.dependent.is_empty() {
        let shown: Vec<(Key, Value)> = lin
            .dependent
            .iter()
            .map(|(d, row)| {
                let terms = combination(row, &by_delta);
                let value = if terms.is_empty() {
                    Value::Expr(Expr::zero())
                } else {
                    Value::Combination(terms)
                };
                (delta(system, &lin.state[*d]), value)
            })
            .collect();
        s.quantity(
            Quantity::new("dependent_shown", Value::Table(shown))
                .for_only(Audience::Display)
                .about("and the constraints, linearised at the point, fix the other entries:"),
        );
    }
    s.quantity(data(
        "redundant_constraints",
        Value::List(lin.redundant.iter().map(|&k| Value::Count(k)).collect()),
    ));
    s.quantity(data("inputs", Value::Names(lin.inputs.clone())));
    s
}

/// `A`, `B`, the characteristic polynomial and the eigenvalues.
fn matrices(lin: &Linearization, system: &System) -> Section {
    let mut s = Section::new("The linearisation", None);
    let inputs: Vec<String> = lin
        .inputs
        .iter()
        .map(|u| format!("\\delta {}", system.latex_name(system.handle(u))))
        .collect();
    s.prose(if inputs.is_empty() {
        "The perturbation obeys $\\delta\\dot z = A\\,\\delta z$, with".to_string()
    } else {
        format!(
            "The perturbation obeys $\\delta\\dot z = A\\,\\delta z + B\\,\\delta u$, $\\delta u = ({})$, with",
            inputs.join(", ")
        )
    });
    let matrix = |m: &Vec<Vec<Expr>>| match lin.arithmetic {
        Arithmetic::Exact => Value::Matrix(m.clone()),
        Arithmetic::Double => Value::Decimals(
            m.iter()
                .map(|row| row.iter().map(value_of).collect())
                .collect(),
        ),
    };
    s.quantity(Quantity::new("A", matrix(&lin.a)).shown_as("A"));
    let b = Quantity::new("B", matrix(&lin.b)).shown_as("B");
    s.quantity(if inputs.is_empty() {
        b.for_only(Audience::Data)
    } else {
        b
    });
    s.quantity(
        Quantity::new("characteristic_variable", Value::Text(lin.variable.clone()))
            .for_only(Audience::Data),
    );
    s.quantity(
        Quantity::new(
            "arithmetic",
            Value::Text(
                match lin.arithmetic {
                    Arithmetic::Exact => "exact",
                    Arithmetic::Double => "double",
                }
                .into(),
            ),
        )
        .for_only(Audience::Data),
    );
    if lin.arithmetic == Arithmetic::Double {
        s.prose(format!(
            "The point is numeric and the equations are large, so $A$, $B$, the rates and the \\
             values solved for the point are computed in double precision (shown to {} \\
             significant digits; the JSON data carry every digit).",
            report::DECIMAL_DIGITS
        ));
    }
    match &lin.characteristic {
        Some(p) => {
            s.quantity(
                Quantity::new("characteristic_polynomial", Value::Expr(p.clone()))
                    .shown_as(&format!("\\det({} I - A)", lin.variable))
                    .about("The characteristic polynomial is"),
            );
        }
        None => {
            s.quantity(
                Quantity::new("characteristic_polynomial", Value::Missing).for_only(Audience::Data),
            );
        }
    }
    // Exact, but too large to show (in double precision none is formed).
    if lin.characteristic.is_none() && lin.arithmetic == Arithmetic::Exact {
        s.prose(format!(
            "The characteristic polynomial $\\det({} I - A)$ is too large to show \\
             (over {} nodes); the eigenvalues below are those of the numeric $A$.",
            lin.variable,
            crate::linearize::CHARACTERISTIC_NODES
        ));
    }
    s.quantity(
        Quantity::new(
            "eigenvalues",
            match &lin.eigenvalues {
                Some(roots) => Value::List(
                    roots
                        .iter()
                        .map(|z| {
                            Value::Table(vec![
                                (Key::word("re"), Value::Number(z.re)),
                                (Key::word("im"), Value::Number(z.im)),
                            ])
                        })
                        .collect(),
                ),
                None => Value::Missing,
            },
        )
        .for_only(Audience::Data),
    );
    if let Some(roots) = &lin.eigenvalues {
        // One formula per root, so that a long list breaks between them.
        let shown: Vec<String> = roots
            .iter()
            .map(|z| format!("${}$", z.six_decimals("\\,i")))
            .collect();
        let opening = match lin.characteristic {
            Some(_) => "Its roots, the eigenvalues of $A$, are",
            None => "The eigenvalues of $A$ are",
        };
        s.prose(format!("{opening} {}.", shown.join(", ")));
    }
    s
}
