/// `b := A⁻¹ b` by Gaussian elimination with partial pivoting on the row-major `n × n` matrix
/// `a` (overwritten); `false` when a pivot's magnitude is not above [`EPSILON`].
fn lu_solve(a: &mut [Real], n: usize, b: &mut [Real]) -> bool {
    for j in 0..n {
        let mut pivot = j;
        for i in j + 1..n {
            if a[i * n + j].abs() > a[pivot * n + j].abs() {
                pivot = i;
            }
        }
        if !(a[pivot * n + j].abs() > EPSILON) {
            return false;
        }
        if pivot != j {
            for k in j..n {
                a.swap(j * n + k, pivot * n + k);
            }
            b.swap(j, pivot);
        }
        for i in j + 1..n {
            let l = a[i * n + j] / a[j * n + j];
            for k in j + 1..n {
                a[i * n + k] -= l * a[j * n + k];
            }
            b[i] -= l * b[j];
        }
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            b[i] -= a[i * n + k] * b[k];
        }
        b[i] /= a[i * n + i];
    }
    true
}
