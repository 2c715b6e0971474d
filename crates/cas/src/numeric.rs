//! Values of expressions at a numeric point, read off the tree directly.
//!
//! A [`crate::program::Program`] shares subexpressions and schedules operations, which is what
//! emitted code needs and what costs: every node is hashed and interned. A quick numeric test
//! (the rank of `W` at a random point) needs one value of each entry once, and the entries of a
//! tree of joints' `W` read bound symbols, each bound to a small expression of the ones before
//! it (the composite-rigid-body algorithm): one walk of each binding, in order, gives them all.

use std::collections::HashMap;

use symbolica::atom::{AtomView, Symbol};

use crate::expr::{sym, with_symbol_name};
use crate::program::Real;
use crate::view::{is_euler, number_parts};
use crate::Expr;

/// Values of symbols; [`Point::value`] of an expression over them.
#[derive(Default)]
pub(crate) struct Point(HashMap<Symbol, f64>);

impl Point {
    /// Gives `name` the value `value`.
    pub(crate) fn set(&mut self, name: &str, value: f64) {
        self.0.insert(sym(name), value);
    }

    /// The value of `e`, or `None` when it reads a symbol without a value or a function other
    /// than `sin`, `cos`, `exp` and `log`. Euler's constant is `exp(1)`; π is a symbol like any
    /// other (a caller that wants its value sets it).
    pub(crate) fn value(&self, e: &Expr) -> Option<f64> {
        value(e.0.as_view(), &self.0)
    }
}

fn value(view: AtomView<'_>, at: &HashMap<Symbol, f64>) -> Option<f64> {
    match view {
        AtomView::Num(_) => {
            let (numerator, denominator) = number_parts(view);
            Some(f64::ratio(&numerator, &denominator))
        }
        AtomView::Var(_) if is_euler(view) => Some(std::f64::consts::E),
        AtomView::Var(v) => at.get(&v.get_symbol()).copied(),
        AtomView::Fun(f) => {
            let mut args = f.iter();
            let x = value(args.next()?, at)?;
            if args.next().is_some() {
                return None;
            }
            with_symbol_name(f.get_symbol(), |name| match name {
                "sin" => Some(x.sin()),
                "cos" => Some(x.cos()),
                "exp" => Some(x.exp()),
                "log" => Some(x.ln()),
                _ => None,
            })
        }
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            let exponent = value(e, at)?;
            if is_euler(b) {
                return Some(exponent.exp());
            }
            let base = value(b, at)?;
            let integer = exponent.fract() == 0.0 && exponent.abs() <= f64::from(i32::MAX);
            Some(if integer {
                base.powi(exponent as i32)
            } else {
                base.powf(exponent)
            })
        }
        AtomView::Mul(m) => m.iter().try_fold(1.0, |acc, a| Some(acc * value(a, at)?)),
        AtomView::Add(a) => a.iter().try_fold(0.0, |acc, t| Some(acc + value(t, at)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

    #[test]
    fn values_agree_with_the_compiled_program() {
        let (x, y) = (Expr::symbol("x"), Expr::symbol("y"));
        let e = Expr::apply(Func::Sin, x.clone() * y.clone()) / (Expr::int(3) + x.clone().powi(2))
            - Expr::apply(Func::Exp, y.clone()) * Expr::rational(5, 7)
            + Expr::apply(Func::Sqrt, x.clone() + y.clone())
            + Expr::apply(Func::Log, x.clone()) * Expr::apply(Func::Cos, y.clone());
        let mut point = Point::default();
        point.set("x", 0.7);
        point.set("y", 1.3);
        let at = std::collections::BTreeMap::from([("x".to_string(), 0.7), ("y".to_string(), 1.3)]);
        let direct = point.value(&e).unwrap();
        let compiled = e.evaluate(&at).unwrap();
        assert!(
            (direct - compiled).abs() <= 1e-14 * compiled.abs(),
            "{direct} vs {compiled}"
        );
        let by_hand = (0.7f64 * 1.3).sin() / (3.0 + 0.49) - 1.3f64.exp() * 5.0 / 7.0
            + 2.0f64.sqrt()
            + 0.7f64.ln() * 1.3f64.cos();
        assert!((direct - by_hand).abs() <= 1e-14);
        assert_eq!(point.value(&Expr::symbol("z")), None);
    }
}
