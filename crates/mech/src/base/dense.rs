//! Dense linear systems with numbers: Gaussian elimination with partial pivoting, in any
//! arithmetic of [`cas::program::Real`] (the double-precision linearisation solves in
//! double-double, the variational integrator's step in `f64`).

use cas::program::Real;

/// `X` with `a X = b` (`a` square, `b` with any number of columns), or `None` when a pivot is
/// at most `singular_below` times the largest entry of `a` (singular to that tolerance; `0`
/// refuses only an exact zero) or is not finite.
// The elimination indexes rows and columns together, as its references write it.
#[allow(clippy::needless_range_loop)]
pub fn solve<T: Real>(a: &[Vec<T>], b: &[Vec<T>], singular_below: f64) -> Option<Vec<Vec<T>>> {
    let n = a.len();
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    let magnitude = |v: &T| v.to_f64().abs();
    let size = a.iter().flatten().map(magnitude).fold(0.0, f64::max);
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&i, &j| magnitude(&a[i][col]).total_cmp(&magnitude(&a[j][col])))?;
        let largest = magnitude(&a[pivot][col]);
        if !(largest.is_finite() && largest > singular_below * size) || largest == 0.0 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor.to_f64() == 0.0 {
                continue;
            }
            for c in col..n {
                a[row][c] = a[row][c] - factor * a[col][c];
            }
            for c in 0..b[row].len() {
                b[row][c] = b[row][c] - factor * b[col][c];
            }
        }
    }
    for row in (0..n).rev() {
        for c in 0..b[row].len() {
            let known: T = (row + 1..n).map(|k| a[row][k] * b[k][c]).sum();
            b[row][c] = (b[row][c] - known) / a[row][row];
        }
    }
    Some(b)
}

/// `x` with `a x = b` for one right-hand side ([`solve`]).
pub fn solve_vector<T: Real>(a: &[Vec<T>], b: &[T], singular_below: f64) -> Option<Vec<T>> {
    let columns: Vec<Vec<T>> = b.iter().map(|&v| vec![v]).collect();
    solve(a, &columns, singular_below).map(|x| x.into_iter().map(|row| row[0]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cas::program::DoubleDouble;

    /// `[[2, 1], [1, 3]] X = [[3], [5]]` by hand: `X = (4/5, 7/5)`, in doubles and to 30 digits
    /// in double-double; a singular matrix is refused.
    #[test]
    fn gaussian_elimination_solves_and_refuses_a_singular_matrix() {
        let x = solve_vector(&[vec![2.0, 1.0], vec![1.0, 3.0]], &[3.0, 5.0], 1e-13).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-15 && (x[1] - 1.4).abs() < 1e-15);
        assert!(solve_vector(&[vec![1.0, 2.0], vec![2.0, 4.0]], &[1.0, 2.0], 1e-13).is_none());
        assert!(solve_vector(&[vec![0.0]], &[1.0], 0.0).is_none());
        let dd = DoubleDouble::new;
        let x = solve_vector(
            &[vec![dd(2.0), dd(1.0)], vec![dd(1.0), dd(3.0)]],
            &[dd(3.0), dd(5.0)],
            1e-13,
        )
        .unwrap();
        let error = x[0] - dd(4.0) / dd(5.0);
        assert!(error.to_f64().abs() < 1e-30, "{error:?}");
    }
}
