//! Matrices of doubles in documents (a linearisation in double precision, [`report::Value::Decimals`]):
//! a small one as a matrix of decimals, a wide one by its entries that do not vanish.

use super::entry_symbol;

/// The most columns a matrix of decimals is printed with as a matrix; a wider one is listed by
/// its entries that do not vanish.
pub(super) const DECIMAL_COLUMNS: usize = 6;

/// A matrix of decimals.
pub(super) fn decimal_pmatrix(m: &[Vec<f64>]) -> String {
    pmatrix_of(m, |x| report::decimal_latex(*x))
}

/// A `pmatrix` of `m`'s entries printed by `entry`.
pub(super) fn pmatrix_of<T>(m: &[Vec<T>], entry: impl Fn(&T) -> String) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|row| row.iter().map(&entry).collect::<Vec<_>>().join(" & "))
        .collect();
    format!(
        "\\begin{{pmatrix}} {} \\end{{pmatrix}}",
        rows.join(" \\\\ ")
    )
}

/// A wide matrix of decimals by its entries that do not vanish, one equation each.
pub(super) fn sparse_decimals(symbol: &str, m: &[Vec<f64>]) -> Vec<(String, Vec<String>)> {
    let mut lines = Vec::new();
    for (i, row) in m.iter().enumerate() {
        for (j, x) in row.iter().enumerate().filter(|(_, x)| **x != 0.0) {
            lines.push((
                format!("{}-{}", i + 1, j + 1),
                vec![format!(
                    "{} &= {}",
                    entry_symbol(symbol, i + 1, j + 1, m.len()),
                    report::decimal_latex(*x)
                )],
            ));
        }
    }
    lines
}
