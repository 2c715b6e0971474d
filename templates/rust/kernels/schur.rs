/// The constrained solve of `W a + μᵀ λ = b`, `μ a = β` by the Schur complement: on entry `w`
/// holds the factor of `W` ([`ldl_factor`]) and `a = W⁻¹ b`; on exit `a` holds the accelerations
/// and `lambda` the `r` multipliers. `y` (`r × n`) holds `W⁻¹ μᵀ` and `s` (`r × r`) the
/// complement `S = μ W⁻¹ μᵀ`; `false` when a pivot of `S` is not above [`EPSILON`].
#[allow(clippy::too_many_arguments)]
fn schur_solve(
    w: &[Real],
    n: usize,
    mu: &[Real],
    beta: &[Real],
    r: usize,
    y: &mut [Real],
    s: &mut [Real],
    lambda: &mut [Real],
    a: &mut [Real],
) -> bool {
    for c in 0..r {
        y[c * n..(c + 1) * n].copy_from_slice(&mu[c * n..(c + 1) * n]);
        ldl_solve(w, n, n.saturating_sub(1), &mut y[c * n..(c + 1) * n]);
    }
    for c in 0..r {
        let mut rhs: Real = -beta[c];
        for k in 0..n {
            rhs += mu[c * n + k] * a[k];
        }
        lambda[c] = rhs;
        for e in 0..r {
            let mut sum: Real = 0.0;
            for k in 0..n {
                sum += mu[c * n + k] * y[e * n + k];
            }
            s[c * r + e] = sum;
        }
    }
    if !ldl_factor(s, r, r.saturating_sub(1)) {
        return false;
    }
    ldl_solve(s, r, r.saturating_sub(1), lambda);
    for c in 0..r {
        for k in 0..n {
            a[k] -= lambda[c] * y[c * n + k];
        }
    }
    true
}
