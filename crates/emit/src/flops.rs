//! Floating-point operations of the linear-algebra kernels of the templates
//! (`dalembert_ldl_factor`, `dalembert_ldl_solve`, `dalembert_lu_solve`, `dalembert_schur_solve`
//! and their Rust twins), as emitted: what the banners of the functions that call them count.
//! The banded forms count the loops over a band as the kernels run them; a full matrix is the
//! band `k − 1`.

/// Floating-point operations of `dalembert_ldl_factor` on a full `k × k` matrix, as emitted.
pub fn factor_flops(k: usize) -> usize {
    banded_factor_flops(k, k.saturating_sub(1))
}

/// Floating-point operations of `dalembert_ldl_factor` on a `k × k` matrix zero more than
/// `band` below the diagonal: each pivot `3 min(j, band)`, each row below it within the band a
/// division and three per shared column.
pub fn banded_factor_flops(k: usize, band: usize) -> usize {
    (0..k)
        .map(|j| {
            let rows = (j + 1..k.min(j + band + 1))
                .map(|i| 3 * (j - j.min(i.saturating_sub(band))) + 1)
                .sum::<usize>();
            3 * j.min(band) + rows
        })
        .sum()
}

/// Floating-point operations of `dalembert_ldl_solve` on a full factor of size `k`.
pub fn solve_flops(k: usize) -> usize {
    banded_solve_flops(k, k.saturating_sub(1))
}

/// Floating-point operations of `dalembert_ldl_solve` on a factor of size `k` and band `band`:
/// two per entry of the band below the diagonal on each sweep, and `k` divisions.
pub fn banded_solve_flops(k: usize, band: usize) -> usize {
    let below: usize = (0..k).map(|i| i.min(band)).sum();
    4 * below + k
}

/// Floating-point operations of `dalembert_lu_solve` on a `k × k` matrix zero more than `lower`
/// below or `upper` above the diagonal (partial pivoting widens the factor's upper band to
/// `lower + upper`): per row eliminated a division, two per column of the pivot row and two for
/// the right-hand side; per row substituted a division and two per column of its band.
pub fn lu_flops(k: usize, lower: usize, upper: usize) -> usize {
    let wide = lower + upper;
    let eliminate: usize = (0..k)
        .map(|j| {
            let rows = k.min(j + lower + 1) - (j + 1);
            let columns = k.min(j + wide + 1) - (j + 1);
            rows * (2 * columns + 3)
        })
        .sum();
    let substitute: usize = (0..k).map(|i| 2 * (k.min(i + wide + 1) - i - 1) + 1).sum();
    eliminate + substitute
}

/// Floating-point operations of `dalembert_schur_solve` with `n` unknowns and `r` constraints
/// (none without constraints).
pub fn schur_flops(n: usize, r: usize) -> usize {
    if r == 0 {
        return 0;
    }
    r * solve_flops(n) // Y = W⁻¹ μᵀ
        + r * (1 + 2 * n) // μ a₀ − β
        + r * r * 2 * n // S = μ Y
        + factor_flops(r)
        + solve_flops(r)
        + r * n * 2 // a −= Y λ
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed forms the banners stated before bands: a full band must count the same.
    #[test]
    fn full_bands_count_as_dense() {
        for k in 0..12 {
            let dense_factor: usize = (0..k).map(|j| 3 * j + (k - 1 - j) * (3 * j + 1)).sum();
            assert_eq!(factor_flops(k), dense_factor);
            assert_eq!(solve_flops(k), 2 * k * k.saturating_sub(1) + k);
            let eliminate: usize = (0..k).map(|j| (k - 1 - j) * (2 * (k - 1 - j) + 3)).sum();
            let substitute: usize = (0..k).map(|i| 2 * (k - 1 - i) + 1).sum();
            let side = k.saturating_sub(1);
            assert_eq!(lu_flops(k, side, side), eliminate + substitute);
        }
    }

    /// A tridiagonal matrix of size 10, counted by hand: the LU eliminates 9 rows against pivot
    /// rows of 2 columns (9 × 7) but the last (3), and substitutes rows of 2, 1 and 0 columns;
    /// a diagonal `LDLᵀ` costs nothing to factor and 10 divisions to solve.
    #[test]
    fn narrow_bands_count_what_runs() {
        assert_eq!(lu_flops(10, 1, 1), 8 * 7 + 5 + (8 * 5 + 3 + 1));
        assert_eq!(banded_factor_flops(10, 0), 0);
        assert_eq!(banded_solve_flops(10, 0), 10);
        // Band 1: each pivot after the first one 3, each row below it a division.
        assert_eq!(banded_factor_flops(10, 1), 9 * 3 + 9);
        assert_eq!(banded_solve_flops(10, 1), 4 * 9 + 10);
    }
}
