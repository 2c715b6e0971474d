/// `W = L D Lᵀ` in place, reading and writing the lower triangle of the row-major `n × n` matrix
/// `w` (no pivoting); `false` when a pivot's magnitude is not above [`EPSILON`].
fn ldl_factor(w: &mut [Real], n: usize) -> bool {
    for j in 0..n {
        let mut d = w[j * n + j];
        for k in 0..j {
            d -= w[j * n + k] * w[j * n + k] * w[k * n + k];
        }
        if !(Real::abs(d) > EPSILON) {
            return false;
        }
        w[j * n + j] = d;
        for i in j + 1..n {
            let mut s = w[i * n + j];
            for k in 0..j {
                s -= w[i * n + k] * w[j * n + k] * w[k * n + k];
            }
            w[i * n + j] = s / d;
        }
    }
    true
}

/// `v := (L D Lᵀ)⁻¹ v` with the factor of [`ldl_factor`].
fn ldl_solve(w: &[Real], n: usize, v: &mut [Real]) {
    for i in 0..n {
        for k in 0..i {
            v[i] -= w[i * n + k] * v[k];
        }
    }
    for i in 0..n {
        v[i] /= w[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            v[i] -= w[k * n + i] * v[k];
        }
    }
}
