//! The printers' tests.

use super::*;
use crate::Func;

fn s(name: &str) -> Expr {
    Expr::symbol(name)
}

/// [`latex_leads_negative`] says what the printed form says, sums included (whose terms it
/// does not print).
#[test]
fn leads_negative_is_the_printed_sign() {
    let (a, b, c) = (s("a"), s("b"), s("c"));
    let sine = Expr::apply(Func::Sin, a.clone());
    let cases = [
        a.clone() - b.clone(),
        -a.clone() - b.clone(),
        -a.clone() * b.clone() - Expr::int(3),
        Expr::int(-2) * sine.clone() - c.clone() / b.clone(),
        -(a.clone() + b.clone()) * c.clone(),
        -(a.clone() * sine.clone()) + Expr::rational(1, 2),
        Expr::int(-5),
        -sine.powi(2) / c.clone() - a.clone().powi(2),
        (a.clone() - b.clone()).powi(2),
        Expr::int(-3) * (a.clone() - b.clone()) / (c.clone() * sine.clone()),
        Expr::rational(-1, 2) * a.clone() * sine.clone().powi(-1),
        (-a.clone() - b.clone()) / c.clone(),
    ];
    for e in cases {
        let printed = latex(&e, &AsIs);
        assert_eq!(
            latex_leads_negative(&e, &AsIs),
            printed.starts_with('-'),
            "{printed}"
        );
    }
}

/// A memo changes no text: every expression, its signed terms and its factors print as the
/// plain printer prints them, the first time (filling the memo) and the second (reading it),
/// subexpressions shared between the expressions included.
#[test]
fn a_memo_prints_what_the_plain_printer_prints() {
    let (a, b, c) = (s("a"), s("b"), s("c"));
    let sine = Expr::apply(Func::Sin, a.clone() + b.clone());
    let shared = a.clone() - b.clone() * sine.clone();
    let cases = [
        shared.clone(),
        -(shared.clone()) * c.clone() + sine.powi(2) / c.clone(),
        (shared.clone() + Expr::rational(1, 2)).powi(3) * a.clone() - b.clone(),
        Expr::int(-3) * shared.clone() * (c.clone() - a.clone()),
        Expr::apply(Func::Sqrt, shared.clone() * c.clone()) - Expr::int(7),
        -a.clone() - b.clone(),
        Expr::rational(-2, 5),
    ];
    let memo = LatexMemo::new();
    for e in &cases {
        assert_eq!(memo.printed(e), None, "{e} is not printed yet");
    }
    for pass in 0..2 {
        for e in &cases {
            assert_eq!(memo.latex(e, &AsIs), latex(e, &AsIs), "pass {pass}");
            // What was printed reads back as printed; a number is never remembered.
            let remembered = memo.printed(e);
            match e.view() {
                View::Number { .. } => assert_eq!(remembered, None),
                _ => assert_eq!(remembered, Some(latex(e, &AsIs))),
            }
            assert_eq!(
                memo.signed_terms(e, &AsIs),
                latex_signed_terms(e, &AsIs),
                "pass {pass}"
            );
            let (m, p) = (memo.factors(e, &AsIs), latex_factors(e, &AsIs));
            assert_eq!(m.is_some(), p.is_some());
            if let (Some(m), Some(p)) = (m, p) {
                assert_eq!(
                    (m.negative, m.coefficient, m.factors),
                    (p.negative, p.coefficient, p.factors)
                );
            }
        }
    }
}

fn plain(e: &Expr) -> String {
    spec(e, &Keys)
}

#[test]
fn spec_syntax() {
    let (k, m, r) = (s("k"), s("m"), s("r"));
    let e = -k.powi(2) / (k.powi(2) + m.clone() * r.powi(2));
    assert_eq!(plain(&e), "-k^2/(k^2 + m*r^2)");
    assert_eq!(plain(&(m.clone() / Expr::int(2))), "m/2");
    assert_eq!(plain(&(m.clone() - r.clone())), "m - r");
    assert_eq!(plain(&Expr::apply(Func::Sqrt, m.clone())), "sqrt(m)");
    assert_eq!(
        plain(&Expr::apply(Func::Sin, m.clone()).powi(2)),
        "sin(m)^2"
    );
    assert_eq!(plain(&Expr::rational(-1, 2)), "-1/2");
    assert_eq!(plain(&(m.powi(-2))), "1/m^2");
}

/// The plain-text printers read each node in place: calls, Euler's constant, powers with
/// negative exponents (a denominator made of the base and the opposite power), sums inside
/// products and products inside sums, in both syntaxes.
#[test]
fn plain_text_of_every_kind_of_node() {
    let (k, m, r) = (s("k"), s("m"), s("r"));
    assert_eq!(plain(&Expr::apply(Func::Exp, m.clone())), "exp(m)");
    assert_eq!(plain(&Expr::apply(Func::Exp, Expr::one())), "exp(1)");
    assert_eq!(plain(&(k.clone() / m.clone())), "k/m");
    assert_eq!(
        plain(&(Expr::one() / Expr::apply(Func::Sqrt, m.clone()))),
        "1/sqrt(m)"
    );
    assert_eq!(
        plain(&(r.clone() / (k.clone() + m.clone()).powi(3))),
        "r/(k + m)^3"
    );
    let nested = Expr::int(2) * k.clone() * (m.clone() - r.clone()) - r.clone() / Expr::int(3);
    assert_eq!(plain(&nested), "2*k*(m - r) - r/3");
    assert_eq!(
        python(&(m.clone() * r.powi(2) / k.powi(3)), &Keys),
        "m*r**2/k**3"
    );
}

#[test]
fn latex_syntax() {
    let (k, m) = (s("k"), s("m"));
    let e = k.powi(2) / (Expr::int(2) * m);
    assert_eq!(latex(&e, &Keys), "\\frac{k^{2}}{2 m}");
}

/// A power of a trigonometric function is written on its name, `\sin^{2}(θ)`, not
/// `\sin(θ)^{2}`; other powers keep their brackets.
#[test]
fn latex_powers_of_functions() {
    let th = s("theta");
    let sin2 = Expr::apply(Func::Sin, th.clone()).powi(2);
    assert_eq!(latex(&sin2, &Keys), "\\sin^{2}\\left(theta\\right)");
    let exp2 = Expr::apply(Func::Exp, th.clone()).powi(2);
    assert!(!latex(&exp2, &Keys).starts_with("\\exp^"));
}

/// Terms and factors print by what they are of: symbols before rates before calls, then by the
/// text without coefficient and backslashes with indices as numbers, then by the whole text.
#[test]
fn printed_order_is_by_class_then_natural_stem_then_text() {
    let items = [
        "\\cos\\left(q\\right)",
        "x'",
        "m_{10}",
        "\\frac{1}{2} m_{2}",
        "\\dot{x}",
        "2 m_{1}",
        "m_{1}",
        "a",
    ];
    let sorted = sorted_latex(items.iter().map(|t| t.to_string()).collect());
    assert_eq!(
        sorted,
        [
            "a",
            "2 m_{1}",
            "m_{1}",
            "\\frac{1}{2} m_{2}",
            "m_{10}",
            "\\dot{x}",
            "x'",
            "\\cos\\left(q\\right)",
        ]
    );
}
