//! Integrable momentum equations (Bloch, Krishnaprasad, Marsden and Murray 1996, §4; Bloch,
//! "Nonholonomic Mechanics and Control", §5.6): when the momentum equation reads
//! `ṗ = (a_i(s) ṡ^i) p` in the momenta, with `a = a_i ds^i` closed (`∂_j a_i = ∂_i a_j`), then
//! `d/dt (p e^{−F}) = 0` for `dF = a`, and `p e^{−F}` is a first integral although `p` is not.
//!
//! `F` is sought as a logarithmic part `F = Σ_k c_k log f_k` over the irreducible factors `f_k`
//! of the denominators of the `a_i` (the partial-fraction form of an integral of a rational
//! one-form without polynomial part, e.g. `a = y dy/(1 + y²)`, `F = ½ log(1 + y²)`): the `c_k`
//! are solved at sample points of the shape and the result is checked symbolically,
//! `Σ_k c_k ∂_i f_k/f_k = a_i` for every `i`. Where no such `F` exists, nothing is claimed.

use cas::Expr;

/// `e^{−F}` for `rate = (a_i ṡ^i) p` with `a` closed and `F = Σ c_k log f_k` (see the module
/// documentation); `None` where the rate has another form or no such `F` is found.
pub(super) fn integrating_factor(
    rate: &Expr,
    momentum: &str,
    shape: &[String],
    shape_velocities: &[String],
    parameters: &[String],
) -> Option<Expr> {
    let c = rate.diff(momentum).simplify();
    if c.vanishes() || !(rate - &(&c * &Expr::symbol(momentum))).vanishes() {
        return None;
    }
    let allowed = |name: &String| {
        shape.contains(name) || shape_velocities.contains(name) || parameters.contains(name)
    };
    if !c.symbols().iter().all(allowed) {
        return None;
    }
    let a: Vec<Expr> = shape_velocities
        .iter()
        .map(|v| c.diff(v).simplify())
        .collect();
    let linear = Expr::sum(
        a.iter()
            .zip(shape_velocities)
            .map(|(ai, v)| ai * &Expr::symbol(v)),
    );
    if !(&c - &linear).vanishes() || a.iter().any(|ai| ai.depends_on_any(shape_velocities)) {
        return None;
    }
    let closed = (0..a.len()).all(|i| {
        (i + 1..a.len()).all(|j| (&a[i].diff(&shape[j]) - &a[j].diff(&shape[i])).vanishes())
    });
    if !closed {
        return None;
    }
    let factors = denominator_factors(&a, shape);
    if factors.is_empty() {
        return None;
    }
    let coefficients = log_coefficients(&a, &factors, shape)?;
    let exponent_check = (0..a.len()).all(|i| {
        let derivative = Expr::sum(
            factors
                .iter()
                .zip(&coefficients)
                .map(|(f, ck)| &(ck * &f.diff(&shape[i])) / f),
        );
        (&derivative - &a[i]).vanishes()
    });
    if !exponent_check {
        return None;
    }
    let factor = factors
        .iter()
        .zip(&coefficients)
        .filter(|(_, ck)| !ck.is_zero())
        .fold(Expr::one(), |acc, (f, ck)| acc * f.pow(&(-ck)));
    Some(factor)
}

/// The distinct irreducible factors of the denominators of the `a_i` that depend on the shape.
fn denominator_factors(a: &[Expr], shape: &[String]) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    for ai in a {
        let (_, d) = ai.numerator_denominator();
        for f in d.numerator_factors() {
            if f.depends_on_any(shape) && !out.iter().any(|g| (g - &f).is_zero()) {
                out.push(f);
            }
        }
    }
    out
}

/// The `c_k` of `a_i = Σ_k c_k ∂_i f_k/f_k`, from the equations at sample points of the shape
/// (rational points where no factor vanishes), solved on independent rows; `None` when they do
/// not determine the `c_k`.
fn log_coefficients(a: &[Expr], factors: &[Expr], shape: &[String]) -> Option<Vec<Expr>> {
    let k = factors.len();
    let mut rows: Vec<Vec<Expr>> = Vec::new();
    let mut rhs: Vec<Expr> = Vec::new();
    let mut sample = 0_i64;
    while rows.len() < 2 * k + 2 && sample < 40 {
        sample += 1;
        let point: std::collections::BTreeMap<String, Expr> = shape
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), Expr::rational(3 * sample + 2 * i as i64 + 1, 7)))
            .collect();
        let values: Vec<Expr> = factors.iter().map(|f| f.subs(&point).simplify()).collect();
        if values.iter().any(Expr::vanishes) {
            continue;
        }
        for (i, s) in shape.iter().enumerate() {
            rows.push(
                factors
                    .iter()
                    .zip(&values)
                    .map(|(f, v)| (&f.diff(s).subs(&point) / v).simplify())
                    .collect(),
            );
            rhs.push(a[i].subs(&point).simplify());
        }
    }
    let transposed: Vec<Vec<Expr>> = (0..k)
        .map(|c| rows.iter().map(|r| r[c].clone()).collect())
        .collect();
    let (rank, independent) = cas::rank(&transposed);
    if rank < k {
        return None;
    }
    let square: Vec<Vec<Expr>> = independent.iter().map(|&r| rows[r].clone()).collect();
    let right: Vec<Vec<Expr>> = independent.iter().map(|&r| vec![rhs[r].clone()]).collect();
    let solved = cas::solve(&square, &right).ok()?;
    Some(solved.into_iter().map(|row| row[0].simplify()).collect())
}
