//! The leaves of an expression as printed ([`leaves`]): the measure of how simple a printed
//! form is, which [`Expr::simplest`] minimises. Counted on the expression's tree, the way the
//! spec printer ([`super::spec`]) prints it, without printing it.

use crate::hash::FastMap;
use std::cell::RefCell;

use symbolica::atom::AtomView;

use crate::view::{is_euler, is_negative_number, machine_rational, number_parts};
use crate::Expr;

/// The leaves of an expression as printed: the symbols and numbers of its spec form, each
/// occurrence once (`(a + b)/2` has three, `sin(x)^2` two, `-a` one). Printed forms are what a
/// reader compares, and two trees that store `x/2` or `a − b` differently print alike; this is the
/// measure [`Expr::simplest`] minimises (and `bench/leafcount.py` compares with SymPy).
///
/// Remembered by expression (per thread, up to [`REMEMBERED_LEAVES`] of them): the search for a
/// display form measures the same candidates from several places.
pub fn leaves(expr: &Expr) -> usize {
    if let Some(&known) = LEAVES.with_borrow(|m| m.get(expr).copied()).as_ref() {
        return known;
    }
    let count = leaves_anew(expr);
    LEAVES.with_borrow_mut(|m| {
        if m.len() >= REMEMBERED_LEAVES {
            m.clear();
        }
        m.insert(expr.clone(), count);
    });
    count
}

/// How many leaf counts [`leaves`] keeps before it starts again (a bound on its memory).
const REMEMBERED_LEAVES: usize = 100_000;

thread_local! {
    /// The leaf counts computed so far, by expression ([`leaves`]: a function of it alone).
    static LEAVES: RefCell<FastMap<Expr, usize>> = Default::default();
}

/// [`leaves`], counted on the expression's tree the way [`spec`](super::spec) prints it: a
/// symbol is one leaf, a number the digit runs it prints, a call its arguments', a power its
/// base's and exponent's (a square root its base's), and a product or a sum's term its factors'
/// and the coefficient it prints (`-a` prints none, `x/2` prints `2`, a number alone prints
/// itself).
fn leaves_anew(expr: &Expr) -> usize {
    let _stage = timing::stage("leaves");
    tree_leaves(expr.0.as_view())
}

/// [`leaves_anew`] of a node, read in place: [`View`](crate::view::View) would copy every child.
fn tree_leaves(view: AtomView<'_>) -> usize {
    match view {
        AtomView::Num(_) => number_leaves(view),
        // A symbol, or Euler's constant, which prints as `exp(1)`.
        AtomView::Var(_) => 1,
        AtomView::Fun(f) => f.iter().map(tree_leaves).sum(),
        AtomView::Add(a) => a.iter().map(|term| product_leaves(factors_of(term))).sum(),
        AtomView::Mul(m) => product_leaves(m.iter().collect()),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            if is_euler(base) {
                // `exp(x)`.
                tree_leaves(exponent)
            } else if is_negative_number(exponent) {
                // `1/…`.
                product_leaves(vec![view])
            } else {
                power_leaves(base, exponent)
            }
        }
    }
}

/// The leaves of `base^exponent` with no denominator: a square root's are its base's.
fn power_leaves(base: AtomView<'_>, exponent: AtomView<'_>) -> usize {
    if is_half(exponent) {
        tree_leaves(base)
    } else {
        tree_leaves(base) + tree_leaves(exponent)
    }
}

/// The factors of a product, or the node itself as the only one (as [`split`](super::split)
/// reads them).
fn factors_of(view: AtomView<'_>) -> Vec<AtomView<'_>> {
    match view {
        AtomView::Mul(m) => m.iter().collect(),
        _ => vec![view],
    }
}

/// The leaves [`product_spec`](super::product_spec) prints for the product of `factors`, split
/// as [`split`](super::split) splits it: the coefficient (printed when it is not 1, or when
/// nothing else is above the line), the numerator's factors, and the denominator's (a factor to
/// a negative power, to the opposite power).
fn product_leaves(factors: Vec<AtomView<'_>>) -> usize {
    let mut coefficient = PrintedNumber::ONE;
    let mut numerator = 0;
    let mut above = 0;
    let mut below = 0;
    for factor in factors {
        match factor {
            AtomView::Num(_) => coefficient = PrintedNumber::of(factor),
            AtomView::Pow(p) if is_denominator(p.get_base_exp()) => {
                let (base, exponent) = p.get_base_exp();
                let opposite = -Expr(exponent.to_owned());
                below += match opposite.view().as_small_rational() {
                    Some((1, 1)) => tree_leaves(base),
                    _ => leaves_anew(&Expr(base.to_owned()).pow(&opposite)),
                };
            }
            _ => {
                numerator += 1;
                above += tree_leaves(factor);
            }
        }
    }
    let printed_top = if !coefficient.unit || numerator == 0 {
        coefficient.top
    } else {
        0
    };
    above + printed_top + below + coefficient.bottom
}

/// What a number prints, as the leaves read it.
struct PrintedNumber {
    /// Whether its numerator is 1 or −1 (a coefficient that is not printed before a factor).
    unit: bool,
    /// The leaves of its numerator, sign aside.
    top: usize,
    /// The leaves of its denominator, none when it is 1.
    bottom: usize,
}

impl PrintedNumber {
    /// The coefficient of a product without a number.
    const ONE: PrintedNumber = PrintedNumber {
        unit: true,
        top: 1,
        bottom: 0,
    };

    /// A number node's: a rational of machine words prints one run of digits above and one
    /// below when its denominator is not 1 (counted without printing it); any other number is
    /// counted on its printed parts.
    fn of(view: AtomView<'_>) -> PrintedNumber {
        if let Some((numerator, denominator)) = machine_rational(view) {
            return PrintedNumber {
                unit: numerator.unsigned_abs() == 1,
                top: 1,
                bottom: usize::from(denominator != 1),
            };
        }
        let (numerator, denominator) = number_parts(view);
        let top = numerator.trim_start_matches('-');
        PrintedNumber {
            unit: top == "1",
            top: printed_leaves(top),
            bottom: if denominator == "1" {
                0
            } else {
                printed_leaves(&denominator)
            },
        }
    }
}

/// The leaves of a number as printed: its numerator's, and its denominator's when it is not 1.
fn number_leaves(view: AtomView<'_>) -> usize {
    let printed = PrintedNumber::of(view);
    printed.top + printed.bottom
}

/// Whether a power `(base, exponent)` prints below the line: a negative number as its exponent,
/// and a base that is not Euler's constant (`exp(-x)` prints as a call).
fn is_denominator((base, exponent): (AtomView<'_>, AtomView<'_>)) -> bool {
    is_negative_number(exponent) && !is_euler(base)
}

fn is_half(view: AtomView<'_>) -> bool {
    crate::view::small_rational(view) == Some((1, 2))
}

/// The leaves of printed text: identifiers not followed by `(` (a function's name is not a
/// leaf) and runs of digits.
fn printed_leaves(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut k = 0;
    while k < bytes.len() {
        let c = bytes[k];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = k;
            while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_') {
                k += 1;
            }
            // A function's name is not a leaf (`sin` in `sin(x)`).
            if bytes.get(k) != Some(&b'(') && start < k {
                count += 1;
            }
        } else if c.is_ascii_digit() {
            while k < bytes.len() && (bytes[k].is_ascii_digit() || bytes[k] == b'.') {
                k += 1;
            }
            count += 1;
        } else {
            k += 1;
        }
    }
    count
}

/// [`leaves`] as it was first defined, on the printed form itself: what the tree count is
/// checked against.
#[cfg(test)]
fn printed_form_leaves(expr: &Expr) -> usize {
    use super::{spec, Names, Spelling};
    struct Token;
    impl Names for Token {
        fn spell(&self, symbol: &str, _: Spelling) -> String {
            // One identifier per symbol, whatever its spelling (`x'` would end a token early).
            format!("s{}", symbol.len())
        }
    }
    printed_leaves(&spec(expr, &Token))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::{spec, Keys};
    use crate::Func;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    /// The leaves counted on the tree are the leaves of the printed form, whatever prints a
    /// coefficient, a denominator, a root or a power.
    #[test]
    fn tree_leaves_are_printed_leaves() {
        let (a, b, c) = (s("a"), s("b"), s("c"));
        let sine = Expr::apply(Func::Sin, a.clone() - b.clone());
        let cases = [
            a.clone(),
            Expr::int(-3),
            Expr::rational(7, 12),
            -a.clone(),
            a.clone() / Expr::int(2),
            Expr::rational(-3, 4) * a.clone() * b.clone().powi(-2),
            (a.clone() + b.clone()) / (Expr::int(2) * c.clone()),
            Expr::one() / (a.clone() * b.clone()),
            Expr::apply(Func::Sqrt, a.clone() + c.clone()),
            Expr::one() / Expr::apply(Func::Sqrt, a.clone()),
            a.clone().pow(&Expr::rational(1, 3)),
            a.clone().pow(&b),
            sine.powi(2) - Expr::int(2) * sine.clone() * c.clone() + Expr::rational(1, 2),
            (a.clone() - b.clone()).powi(3) * sine.clone() / (c.clone() + Expr::int(1)).powi(2),
            Expr::apply(Func::Exp, -a.clone() * c.clone())
                + Expr::apply(Func::Cos, Expr::int(2) * b.clone()),
            // Numbers past a machine word, as coefficients, alone and as exponents.
            Expr::int(10).powi(30),
            -Expr::int(10).powi(30) * a.clone() / Expr::int(7),
            a.clone() * b.clone() / Expr::int(10).powi(25),
            Expr::int(-1) * c.clone() + Expr::int(10).powi(20) / Expr::int(3).powi(50),
            a.clone().pow(&(Expr::int(10).powi(30) / Expr::int(7))),
            // A coefficient of 0 ... 1 in size, a unit with and without a denominator.
            Expr::rational(1, 3) * a.clone() + Expr::rational(-1, 5) * b.clone() - c.clone(),
            Expr::int(i64::MAX) * a.clone() + Expr::int(i64::MIN + 1) * b.clone(),
        ];
        for e in cases {
            assert_eq!(leaves(&e), printed_form_leaves(&e), "{}", spec(&e, &Keys));
        }
    }
}
