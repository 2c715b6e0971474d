//! Floating-point operations of the linear-algebra kernels of the templates
//! (`dalembert_ldl_factor`, `dalembert_ldl_solve`, `dalembert_schur_solve` and their Rust twins),
//! as emitted: what the banners of the functions that call them count.

/// Floating-point operations of `dalembert_ldl_factor` on a `k × k` matrix, as emitted.
pub fn factor_flops(k: usize) -> usize {
    (0..k).map(|j| 3 * j + (k - 1 - j) * (3 * j + 1)).sum()
}

/// Floating-point operations of `dalembert_ldl_solve` on a vector of length `k`.
pub fn solve_flops(k: usize) -> usize {
    2 * k * k.saturating_sub(1) + k
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
