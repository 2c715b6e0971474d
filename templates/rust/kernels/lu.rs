/// `b := A⁻¹ b` by Gaussian elimination with partial pivoting on the row-major `n × n` matrix
/// `a` (overwritten), whose entries more than `lower` below or `upper` above the diagonal are
/// zero (`n − 1` each for a full matrix): the pivots come from the lower rows of a column and the
/// factor's upper band widens to `lower + upper`, as in LAPACK's `dgbtrf`; the loops skip what
/// lies outside. `false` when a pivot's magnitude is not above [`EPSILON`].
fn lu_solve(a: &mut [Real], n: usize, lower: usize, upper: usize, b: &mut [Real]) -> bool {
    for j in 0..n {
        let rows = n.min(j + lower + 1);
        let columns = n.min(j + lower + upper + 1);
        let mut pivot = j;
        for i in j + 1..rows {
            if a[i * n + j].abs() > a[pivot * n + j].abs() {
                pivot = i;
            }
        }
        if !(a[pivot * n + j].abs() > EPSILON) {
            return false;
        }
        if pivot != j {
            for k in j..columns {
                a.swap(j * n + k, pivot * n + k);
            }
            b.swap(j, pivot);
        }
        for i in j + 1..rows {
            let l = a[i * n + j] / a[j * n + j];
            for k in j + 1..columns {
                a[i * n + k] -= l * a[j * n + k];
            }
            b[i] -= l * b[j];
        }
    }
    for i in (0..n).rev() {
        for k in i + 1..n.min(i + lower + upper + 1) {
            b[i] -= a[i * n + k] * b[k];
        }
        b[i] /= a[i * n + i];
    }
    true
}
