//! Symbolic matrices: the products the formalisms share.

use cas::Expr;

/// `x · y`, skipping the products with a literal zero.
pub(crate) fn multiply(x: &[Vec<Expr>], y: &[Vec<Expr>]) -> Vec<Vec<Expr>> {
    let columns = y.first().map_or(0, Vec::len);
    x.iter()
        .map(|row| {
            (0..columns)
                .map(|j| {
                    Expr::sum(
                        row.iter()
                            .zip(y)
                            .filter(|(a, b)| !a.is_literal_zero() && !b[j].is_literal_zero())
                            .map(|(a, b)| a.clone() * b[j].clone()),
                    )
                })
                .collect()
        })
        .collect()
}
