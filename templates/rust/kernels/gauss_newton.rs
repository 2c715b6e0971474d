/// One Gauss–Newton step onto `g(q) = 0`: `q := q − Jᵀ (J Jᵀ)⁻¹ g`, with `J` (`r × m`, row-major)
/// the Jacobian of `g` at `q`. `s` (`r × r`) is workspace and `g` is overwritten; `false` when a
/// pivot of `J Jᵀ` is not above [`EPSILON`] (the constraints are dependent at `q`).
fn gauss_newton(jac: &[Real], g: &mut [Real], r: usize, m: usize, s: &mut [Real], q: &mut [Real]) -> bool {
    for a in 0..r {
        for b in 0..=a {
            let mut sum: Real = 0.0;
            for i in 0..m {
                sum += jac[a * m + i] * jac[b * m + i];
            }
            s[a * r + b] = sum;
            s[b * r + a] = sum;
        }
    }
    if !ldl_factor(s, r, r.saturating_sub(1)) {
        return false;
    }
    ldl_solve(s, r, r.saturating_sub(1), g);
    for i in 0..m {
        for a in 0..r {
            q[i] -= jac[a * m + i] * g[a];
        }
    }
    true
}
