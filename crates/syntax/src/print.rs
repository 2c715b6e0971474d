//! Printing expressions back as spec text.
//!
//! `Display` for [`Expr`] writes the shortest text that parses back to the same tree (spans
//! aside): parentheses appear only where precedence needs them, so `Neg(Pow(x, 2))` prints as
//! `-x^2` and `Pow(Neg(x), 2)` as `(-x)^2`. Later stages use it to quote expressions in messages.

use std::fmt;

use crate::ast::{BinOp, Expr, ExprKind, Key};

/// Binding strength, loosest first.
fn precedence(expr: &Expr) -> u8 {
    match &expr.kind {
        ExprKind::Binary { op, .. } => match op {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
            BinOp::Pow => 4,
        },
        ExprKind::Neg(_) => 3,
        _ => 5,
    }
}

impl BinOp {
    /// The operator as written: `+`, `-`, `*`, `/`, `^`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Pow => "^",
        }
    }
}

struct Operand<'a>(&'a Expr, bool);

impl fmt::Display for Operand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 {
            write!(f, "({})", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

fn list(f: &mut fmt::Formatter<'_>, items: &[Expr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => f.write_str(n),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Primed { name, order, args } => {
                write!(f, "{}{}", name.name, "'".repeat(*order as usize))?;
                if let Some(args) = args {
                    f.write_str("(")?;
                    list(f, args)?;
                    f.write_str(")")?;
                }
                Ok(())
            }
            ExprKind::Call { func, args } => {
                write!(f, "{}(", func.name)?;
                list(f, args)?;
                f.write_str(")")
            }
            ExprKind::Partial(q) => write!(f, "d/d{}", q.name),
            ExprKind::Bracket(a, b) => write!(f, "{{{a}, {b}}}"),
            ExprKind::Neg(operand) => write!(f, "-{}", Operand(operand, precedence(operand) < 3)),
            ExprKind::Binary { op, lhs, rhs } => {
                let p = precedence(self);
                let (lp, rp) = (precedence(lhs), precedence(rhs));
                let (left_parens, right_parens) = match op {
                    BinOp::Pow => (lp <= p, rp < p),
                    _ => (lp < p, rp <= p),
                };
                let (l, r) = (Operand(lhs, left_parens), Operand(rhs, right_parens));
                match op {
                    BinOp::Add | BinOp::Sub => write!(f, "{l} {} {r}", op.symbol()),
                    _ => write!(f, "{l}{}{r}", op.symbol()),
                }
            }
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Single(e) => write!(f, "{e}"),
            Key::Tuple(items, _) => {
                f.write_str("(")?;
                list(f, items)?;
                f.write_str(")")
            }
        }
    }
}

impl Key {
    /// The span of the whole key.
    pub fn span(&self) -> crate::ast::Span {
        match self {
            Key::Single(e) => e.span,
            Key::Tuple(_, span) => *span,
        }
    }
}
