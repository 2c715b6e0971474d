//! A Symbolica-free picture of an expression's top node, for printers and tree walks.

use crate::Expr;

/// The top node of an [`Expr`].
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// A rational number `numerator / denominator` (denominator positive, `1` for integers),
    /// as decimal digit strings (they may be larger than any machine integer).
    Number {
        /// The numerator, with its sign.
        numerator: String,
        /// The denominator, positive.
        denominator: String,
    },
    /// A symbol.
    Symbol(String),
    /// A built-in function applied to its arguments (`sin`, `cos`, `exp`, `log`, …).
    Call(String, Vec<Expr>),
    /// `base ^ exponent`.
    Pow(Expr, Expr),
    /// A product of two or more factors.
    Mul(Vec<Expr>),
    /// A sum of two or more terms.
    Add(Vec<Expr>),
}

impl View {
    /// The number as `(numerator, denominator)` if it fits in `i64`.
    pub fn as_small_rational(&self) -> Option<(i64, i64)> {
        match self {
            View::Number {
                numerator,
                denominator,
            } => Some((numerator.parse().ok()?, denominator.parse().ok()?)),
            _ => None,
        }
    }

    /// Whether this is a negative number.
    pub fn is_negative_number(&self) -> bool {
        matches!(self, View::Number { numerator, .. } if numerator.starts_with('-'))
    }
}
