/// `W = L D Lᵀ` in place, reading and writing the lower triangle of the row-major `n × n` matrix
/// `w` (no pivoting), whose entries more than `band` below the diagonal are zero (`n − 1` for a
/// full matrix): the factor keeps that band, and the loops skip what lies outside it; `false`
/// when a pivot's magnitude is not above [`EPSILON`].
fn ldl_factor(w: &mut [Real], n: usize, band: usize) -> bool {
    for j in 0..n {
        let mut d = w[j * n + j];
        for k in j.saturating_sub(band)..j {
            d -= w[j * n + k] * w[j * n + k] * w[k * n + k];
        }
        if !(Real::abs(d) > EPSILON) {
            return false;
        }
        w[j * n + j] = d;
        for i in j + 1..n.min(j + band + 1) {
            let mut s = w[i * n + j];
            for k in i.saturating_sub(band)..j {
                s -= w[i * n + k] * w[j * n + k] * w[k * n + k];
            }
            w[i * n + j] = s / d;
        }
    }
    true
}

/// `v := (L D Lᵀ)⁻¹ v` with the factor of [`ldl_factor`] (of the same band).
fn ldl_solve(w: &[Real], n: usize, band: usize, v: &mut [Real]) {
    for i in 0..n {
        for k in i.saturating_sub(band)..i {
            v[i] -= w[i * n + k] * v[k];
        }
    }
    for i in 0..n {
        v[i] /= w[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n.min(i + band + 1) {
            v[i] -= w[k * n + i] * v[k];
        }
    }
}
