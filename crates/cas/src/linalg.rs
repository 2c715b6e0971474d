//! Exact linear algebra over expressions: rank, determinant, solve, inverse.
//!
//! Fraction-free (Bareiss) elimination over the field of rational functions: every entry is kept in rational
//! normal form ([`Expr::simplify`]), so a pivot is chosen only if it is not identically zero, and
//! "singular" means singular identically, not at some points. Among the usable pivots of a column
//! the smallest expression is taken, which keeps intermediate swell down.

use crate::Expr;

/// A matrix that is singular identically, with the determinant that vanishes.
#[derive(Clone, Debug)]
pub struct Singular {
    /// The determinant (identically zero for a square matrix; `0` otherwise).
    pub det: Expr,
    /// The rank found.
    pub rank: usize,
}

type Matrix = Vec<Vec<Expr>>;

/// Row-reduces `m` in place to echelon form by Bareiss's fraction-free elimination; returns the
/// pivot columns and the sign of the row permutation applied.
///
/// Each step replaces `m[r][c]` by `(p·m[r][c] − m[r][k]·m[row][c]) / p_prev`, where `p` is the
/// current pivot and `p_prev` the previous one; the division is exact (Sylvester's identity),
/// so polynomial entries stay polynomial and the last pivot of a square matrix is its
/// determinant (up to the sign of the permutation).
fn echelon(m: &mut Matrix, columns: usize) -> (Vec<usize>, i64) {
    let rows = m.len();
    let mut pivots = Vec::new();
    let mut sign = 1;
    let mut previous = Expr::one();
    let mut row = 0;
    for col in 0..columns {
        if row == rows {
            break;
        }
        let candidate = (row..rows)
            .map(|r| (r, m[r][col].simplify()))
            .filter(|(_, e)| !e.is_zero())
            .min_by_key(|(r, e)| (e.size(), *r));
        let Some((p, pivot)) = candidate else {
            continue;
        };
        if p != row {
            m.swap(p, row);
            sign = -sign;
        }
        m[row][col] = pivot.clone();
        for r in row + 1..rows {
            let factor = m[r][col].clone();
            for c in col + 1..m[r].len() {
                let updated = (&pivot * &m[r][c] - &factor * &m[row][c]) / previous.clone();
                m[r][c] = updated.simplify();
            }
            m[r][col] = Expr::zero();
        }
        previous = pivot;
        pivots.push(col);
        row += 1;
    }
    (pivots, sign)
}

/// The rank of `m` over the rational functions, and its pivot columns.
pub fn rank(m: &[Vec<Expr>]) -> (usize, Vec<usize>) {
    let columns = m.first().map_or(0, |r| r.len());
    let mut work = m.to_vec();
    let (pivots, _) = echelon(&mut work, columns);
    (pivots.len(), pivots)
}

/// The index of the first row that is a combination of the rows before it, if any.
///
/// The rows are first evaluated at a few pseudo-random points: full rank at one point proves
/// full rank as functions (a non-zero minor at a point is a non-zero function), so the exact
/// fraction-free elimination only runs when that quick test cannot decide.
pub fn first_dependent_row(rows: &[Vec<Expr>]) -> Option<usize> {
    if full_row_rank_at_random_points(rows) {
        return None;
    }
    (1..=rows.len())
        .find(|&k| rank(&rows[..k]).0 < k)
        .map(|k| k - 1)
}

/// The determinant of a square matrix, in rational normal form.
pub fn det(m: &[Vec<Expr>]) -> Expr {
    let n = m.len();
    if n == 0 {
        return Expr::one();
    }
    let mut work = m.to_vec();
    let (pivots, sign) = echelon(&mut work, n);
    if pivots.len() < n {
        return Expr::zero();
    }
    (Expr::int(sign) * work[n - 1][n - 1].clone()).simplify()
}

/// Solves `a · x = b` for a square, non-singular `a` (`b` has any number of columns).
pub fn solve(a: &[Vec<Expr>], b: &[Vec<Expr>]) -> Result<Vec<Vec<Expr>>, Singular> {
    let n = a.len();
    let k = b.first().map_or(0, |r| r.len());
    let mut work: Matrix = a
        .iter()
        .zip(b)
        .map(|(ra, rb)| ra.iter().chain(rb).cloned().collect())
        .collect();
    let (pivots, _) = echelon(&mut work, n);
    if pivots.len() < n {
        return Err(Singular {
            det: Expr::zero(),
            rank: pivots.len(),
        });
    }
    let mut x = vec![vec![Expr::zero(); k]; n];
    for i in (0..n).rev() {
        for c in 0..k {
            let known = (i + 1..n).fold(work[i][n + c].clone(), |acc, j| {
                acc - work[i][j].clone() * x[j][c].clone()
            });
            x[i][c] = (known / work[i][i].clone()).simplify();
        }
    }
    Ok(x)
}

/// The inverse of a square, non-singular matrix.
pub fn inverse(a: &[Vec<Expr>]) -> Result<Vec<Vec<Expr>>, Singular> {
    let n = a.len();
    let identity: Matrix = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { Expr::one() } else { Expr::zero() })
                .collect()
        })
        .collect();
    solve(a, &identity)
}

/// Whether the rows have full rank at one of a few pseudo-random points (values in (0.3, 1.7) for
/// every symbol, fixed seeds: deterministic), by Gaussian elimination (pivot: the largest remaining entry of
/// each row) and a conservative threshold (pivots must exceed 1e-6 relative to the largest entry).
fn full_row_rank_at_random_points(rows: &[Vec<Expr>]) -> bool {
    let r = rows.len();
    let Some(columns) = rows.first().map(Vec::len) else {
        return true;
    };
    if r > columns {
        return false;
    }
    let mut names = std::collections::BTreeSet::new();
    for e in rows.iter().flatten() {
        names.extend(e.symbols());
    }
    let names: Vec<String> = names.into_iter().collect();
    let mut program = crate::program::Program::new(names.clone());
    for (k, e) in rows.iter().flatten().enumerate() {
        if program.output(format!("e{k}"), e).is_err() {
            return false;
        }
    }
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3 {
        let values: Vec<f64> = names
            .iter()
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                0.3 + 1.4 * ((state >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect();
        let flat = program.evaluate(&values);
        if flat.iter().any(|v| !v.is_finite()) {
            continue;
        }
        let mut m: Vec<Vec<f64>> = flat.chunks(columns).map(<[f64]>::to_vec).collect();
        let scale = flat.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if scale == 0.0 {
            continue;
        }
        let mut full = true;
        let mut used = vec![false; columns];
        for row in 0..r {
            let Some((col, value)) = (0..columns)
                .filter(|c| !used[*c])
                .map(|c| (c, m[row][c]))
                .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
            else {
                full = false;
                break;
            };
            if value.abs() <= 1e-6 * scale {
                full = false;
                break;
            }
            used[col] = true;
            let pivot_row = m[row].clone();
            for below in m.iter_mut().skip(row + 1) {
                let f = below[col] / value;
                for (entry, p) in below.iter_mut().zip(&pivot_row) {
                    *entry -= f * p;
                }
            }
        }
        if full {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn determinant_of_a_symbolic_matrix() {
        let m = vec![vec![s("a"), s("b")], vec![s("c"), s("d")]];
        let expected = s("a") * s("d") - s("b") * s("c");
        assert!((det(&m) - expected).is_zero());
    }

    #[test]
    fn solve_and_check() {
        let a = vec![vec![s("m"), Expr::int(1)], vec![Expr::int(1), s("k")]];
        let b = vec![vec![s("f")], vec![s("g")]];
        let x = solve(&a, &b).unwrap();
        for i in 0..2 {
            let lhs = a[i][0].clone() * x[0][0].clone() + a[i][1].clone() * x[1][0].clone();
            assert!((lhs - b[i][0].clone()).is_zero());
        }
    }

    #[test]
    fn determinant_of_a_three_by_three_matrix_by_two_routes() {
        // Bareiss's last pivot against the cofactor expansion.
        let m: Vec<Vec<Expr>> = (0..3)
            .map(|i| (0..3).map(|j| s(&format!("a{i}{j}"))).collect())
            .collect();
        let cofactor = |i: usize, j: usize| {
            let (r, c) = (
                [0, 1, 2]
                    .into_iter()
                    .filter(|k| *k != i)
                    .collect::<Vec<_>>(),
                [0, 1, 2]
                    .into_iter()
                    .filter(|k| *k != j)
                    .collect::<Vec<_>>(),
            );
            m[r[0]][c[0]].clone() * m[r[1]][c[1]].clone()
                - m[r[0]][c[1]].clone() * m[r[1]][c[0]].clone()
        };
        let expansion = m[0][0].clone() * cofactor(0, 0) - m[0][1].clone() * cofactor(0, 1)
            + m[0][2].clone() * cofactor(0, 2);
        assert!((det(&m) - expansion).is_zero());
    }

    #[test]
    fn rank_of_dependent_rows() {
        let rows = vec![
            vec![s("x"), Expr::int(1)],
            vec![Expr::int(2) * s("x"), Expr::int(2)],
        ];
        assert_eq!(rank(&rows).0, 1);
        assert_eq!(first_dependent_row(&rows), Some(1));
        assert!(inverse(&rows).is_err());
    }
}
