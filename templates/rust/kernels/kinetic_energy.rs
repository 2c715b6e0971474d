/// `½ vᵀ W v` from the lower triangle of the row-major `n × n` matrix `w` (before it is
/// factored).
fn kinetic_energy(w: &[Real], n: usize, v: &[Real]) -> Real {
    let mut e: Real = 0.0;
    for i in 0..n {
        e += 0.5 * w[i * n + i] * v[i] * v[i];
        for j in 0..i {
            e += w[i * n + j] * v[i] * v[j];
        }
    }
    e
}
