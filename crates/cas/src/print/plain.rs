//! The plain-text printers: the spec's expression syntax and Python's. Each node is read in
//! place ([`AtomView`]): a [`crate::View`] copies its children, and a printer that recursed on
//! copies would copy each subtree again at every level above it.

use symbolica::atom::AtomView;

use super::{printed_class, split, Factor, Fraction, Names, Prec, Rename, Spelling, Spellings};
use crate::expr::{symbol_name, with_symbol_name};
use crate::view::{is_euler, number_parts, small_rational};
use crate::Expr;

/// The expression in the spec's syntax (re-parsable by `dalembert`).
pub fn spec(expr: &Expr, names: &dyn Names) -> String {
    plain(expr, names, Spelling::Spec, "^")
}

/// The expression in Python syntax, which SymPy's `parse_expr` and Python (with `math`'s
/// functions) read: the spec's syntax with `**` for powers and symbols spelled as identifiers.
pub fn python(expr: &Expr, names: &dyn Names) -> String {
    plain(expr, names, Spelling::Identifier, "**")
}

/// How a plain-text syntax spells symbols and powers.
#[derive(Clone, Copy)]
struct Style<'a> {
    rename: Rename<'a>,
    power: &'static str,
}

/// The expression in the plain-text syntax whose symbols `names` spells in `spelling` and whose
/// powers read `power`.
fn plain(expr: &Expr, names: &dyn Names, spelling: Spelling, power: &'static str) -> String {
    let spellings = Spellings::default();
    let rename = |s: &str| spellings.spell(names, spelling, s);
    let style = Style {
        rename: &rename,
        power,
    };
    spec_prec(expr.0.as_view(), style).0
}

/// Orders terms and factors deterministically and readably: plain symbols first, then
/// time derivatives (primes, dots), then anything with parentheses; alphabetically within each
/// class, ignoring LaTeX backslashes.
///
/// Each item's class is found once, and the texts are compared in place (a key copied per
/// comparison was most of the sorting of a long sum).
fn sorted(items: Vec<String>) -> Vec<String> {
    fn without_backslashes(text: &str) -> impl Iterator<Item = char> + '_ {
        text.chars().filter(|&c| c != '\\')
    }
    let mut keyed: Vec<(u8, String)> = items.into_iter().map(|t| (printed_class(&t), t)).collect();
    keyed.sort_by(|(class_a, a), (class_b, b)| {
        class_a
            .cmp(class_b)
            .then_with(|| without_backslashes(a).cmp(without_backslashes(b)))
    });
    keyed.into_iter().map(|(_, text)| text).collect()
}

/// The node `view` in a plain-text syntax, and its precedence. Every child is read in place (a
/// [`View`] would copy it, and its children again at each level below).
fn spec_prec(view: AtomView<'_>, style: Style<'_>) -> (String, Prec) {
    match view {
        AtomView::Num(_) => {
            let (numerator, denominator) = number_parts(view);
            if denominator == "1" {
                let prec = if numerator.starts_with('-') {
                    Prec::Sum
                } else {
                    Prec::Atom
                };
                (numerator, prec)
            } else {
                (format!("{numerator}/{denominator}"), Prec::Product)
            }
        }
        // Euler's constant, which `View` reads as `exp(1)`.
        AtomView::Var(_) if is_euler(view) => ("exp(1)".to_string(), Prec::Atom),
        AtomView::Var(v) => (
            with_symbol_name(v.get_symbol(), |name| (style.rename)(name)),
            Prec::Atom,
        ),
        AtomView::Fun(f) => {
            let args: Vec<String> = f.iter().map(|a| spec_prec(a, style).0).collect();
            let name = symbol_name(f.get_symbol());
            (format!("{name}({})", args.join(", ")), Prec::Atom)
        }
        AtomView::Add(a) => {
            let mut positive = Vec::new();
            let mut negative = Vec::new();
            for term in a.iter() {
                let f = split(term);
                let text = product_spec(
                    &Fraction {
                        negative: false,
                        ..f
                    },
                    style,
                );
                if f.negative {
                    negative.push(text);
                } else {
                    positive.push(text);
                }
            }
            let mut out = String::new();
            for (i, t) in sorted(positive).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(" + ");
                }
                out.push_str(&t);
            }
            for t in sorted(negative) {
                out.push_str(if out.is_empty() { "-" } else { " - " });
                out.push_str(&t);
            }
            (out, Prec::Sum)
        }
        AtomView::Mul(_) | AtomView::Pow(_) => {
            if let AtomView::Pow(p) = view {
                let (base, exponent) = p.get_base_exp();
                if is_euler(base) {
                    // Euler's constant to a power, which `View` reads as `exp` of the exponent.
                    return (format!("exp({})", spec_prec(exponent, style).0), Prec::Atom);
                }
            }
            let f = split(view);
            if f.numerator.is_empty() && f.denominator.is_empty() {
                unreachable!("a product always has a non-numeric factor");
            }
            if let (AtomView::Pow(p), true) = (view, f.denominator.is_empty()) {
                let (base, exp) = p.get_base_exp();
                return power_spec(base, exp, style);
            }
            let text = product_spec(&f, style);
            if f.negative {
                (format!("-{text}"), Prec::Sum)
            } else {
                (text, Prec::Product)
            }
        }
    }
}

fn power_spec(base: AtomView<'_>, exp: AtomView<'_>, style: Style<'_>) -> (String, Prec) {
    if small_rational(exp) == Some((1, 2)) {
        return (format!("sqrt({})", spec_prec(base, style).0), Prec::Atom);
    }
    let (b, bp) = spec_prec(base, style);
    let (e, ep) = spec_prec(exp, style);
    let b = if bp <= Prec::Power {
        format!("({b})")
    } else {
        b
    };
    let e = if ep < Prec::Atom { format!("({e})") } else { e };
    (format!("{b}{}{e}", style.power), Prec::Power)
}

fn wrap_factor(factor: &Factor<'_>, style: Style<'_>) -> String {
    let (text, prec) = spec_prec(factor.view(), style);
    if prec < Prec::Product || (prec == Prec::Product && text.contains('/')) {
        format!("({text})")
    } else {
        text
    }
}

fn product_spec(f: &Fraction<'_>, style: Style<'_>) -> String {
    let (cn, cd) = &f.coefficient;
    let mut numerator: Vec<String> =
        sorted(f.numerator.iter().map(|e| wrap_factor(e, style)).collect());
    if cn != "1" || numerator.is_empty() {
        numerator.insert(0, cn.clone());
    }
    let mut denominator: Vec<String> = sorted(
        f.denominator
            .iter()
            .map(|e| wrap_factor(e, style))
            .collect(),
    );
    if cd != "1" {
        denominator.insert(0, cd.clone());
    }
    let top = numerator.join("*");
    match denominator.len() {
        0 => top,
        1 => format!("{top}/{}", denominator[0]),
        _ => format!("{top}/({})", denominator.join("*")),
    }
}
