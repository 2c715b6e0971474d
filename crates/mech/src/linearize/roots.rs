//! The eigenvalues of a linearisation at a numeric point: the roots of its characteristic
//! polynomial.
//!
//! The polynomial is exact (rational coefficients when every parameter has a value), so its
//! roots at zero — the cyclic coordinates, a family of steady motions — are counted exactly,
//! from the trailing zero coefficients, instead of being approximated by an iteration that
//! converges slowly to a multiple root. The other roots come from the Aberth–Ehrlich iteration,
//! polished by Newton steps, in `f64`.

use cas::Expr;

use report::Complex;

/// Complex arithmetic for the iteration.
trait Arithmetic: Sized {
    fn new(re: f64, im: f64) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn abs(self) -> f64;
}

impl Arithmetic for Complex {
    fn new(re: f64, im: f64) -> Complex {
        Complex { re, im }
    }
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
    fn sub(self, o: Complex) -> Complex {
        Complex::new(self.re - o.re, self.im - o.im)
    }
    fn mul(self, o: Complex) -> Complex {
        Complex::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
    fn div(self, o: Complex) -> Complex {
        let d = o.re * o.re + o.im * o.im;
        Complex::new(
            (self.re * o.re + self.im * o.im) / d,
            (self.im * o.re - self.re * o.im) / d,
        )
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// The roots of `characteristic` (a polynomial of degree `degree` in `variable`, with no other
/// symbol), with multiplicity, ordered by real part then imaginary part; `None` when the
/// polynomial has other symbols.
pub fn eigenvalues(characteristic: &Expr, variable: &str, degree: usize) -> Option<Vec<Complex>> {
    if characteristic.symbols().iter().any(|s| s != variable) {
        return None;
    }
    // k! c_k = p^(k)(0).
    let mut exact = Vec::with_capacity(degree + 1);
    let mut derivative = characteristic.clone();
    for k in 0..=degree {
        if k > 0 {
            derivative = derivative.diff(variable);
        }
        exact.push(derivative.subs1(variable, &Expr::zero()).simplify());
    }
    let zeros = exact.iter().take_while(|c| c.is_zero()).count().min(degree);
    let mut factorial = 1.0;
    let mut coefficients = Vec::with_capacity(degree + 1);
    for (k, c) in exact.iter().enumerate() {
        if k > 0 {
            factorial *= k as f64;
        }
        coefficients.push(c.evaluate(&Default::default())? / factorial);
    }
    let mut roots = vec![Complex::new(0.0, 0.0); zeros];
    roots.extend(aberth(&coefficients[zeros..]));
    roots.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    Some(roots)
}

/// `p(z)` and `p'(z)` for coefficients `c[k]` of `z^k`.
fn horner(c: &[f64], z: Complex) -> (Complex, Complex) {
    let mut p = Complex::new(0.0, 0.0);
    let mut dp = Complex::new(0.0, 0.0);
    for &a in c.iter().rev() {
        dp = dp.mul(z).add(p);
        p = p.mul(z).add(Complex::new(a, 0.0));
    }
    (p, dp)
}

/// The roots of the polynomial with coefficients `c` (`c[k]` of `z^k`, `c[0] ≠ 0`).
fn aberth(c: &[f64]) -> Vec<Complex> {
    let n = c.len().saturating_sub(1);
    if n == 0 {
        return Vec::new();
    }
    let lead = c[n];
    let bound = 1.0 + c[..n].iter().map(|a| (a / lead).abs()).fold(0.0, f64::max);
    let mut z: Vec<Complex> = (0..n)
        .map(|k| {
            let angle = 2.0 * std::f64::consts::PI * (k as f64 + 0.25) / n as f64;
            Complex::new(bound * angle.cos(), bound * angle.sin())
        })
        .collect();
    for _ in 0..500 {
        let mut largest: f64 = 0.0;
        for i in 0..n {
            let (p, dp) = horner(c, z[i]);
            if p.abs() == 0.0 {
                continue;
            }
            let ratio = p.div(dp);
            let mut repulsion = Complex::new(0.0, 0.0);
            for (j, zj) in z.iter().enumerate() {
                if j != i {
                    repulsion = repulsion.add(Complex::new(1.0, 0.0).div(z[i].sub(*zj)));
                }
            }
            let step = ratio.div(Complex::new(1.0, 0.0).sub(ratio.mul(repulsion)));
            z[i] = z[i].sub(step);
            largest = largest.max(step.abs() / z[i].abs().max(1e-300));
        }
        if largest < 1e-15 {
            break;
        }
    }
    z.into_iter()
        .map(|r| {
            // A conjugate pair of a real polynomial has no round-off imaginary part to keep.
            if r.im.abs() <= 1e-12 * r.re.abs().max(1e-300) {
                Complex::new(r.re, 0.0)
            } else {
                r
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_of_known_polynomials() {
        // (z - 1)(z + 2)(z^2 + 4) = z^4 + z^3 + 2 z^2 + 4 z - 8
        let roots = aberth(&[-8.0, 4.0, 2.0, 1.0, 1.0]);
        let mut expected = [
            Complex::new(-2.0, 0.0),
            Complex::new(0.0, -2.0),
            Complex::new(0.0, 2.0),
            Complex::new(1.0, 0.0),
        ];
        let mut got = roots.clone();
        got.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
        expected.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
        for (g, e) in got.iter().zip(&expected) {
            assert!(g.sub(*e).abs() < 1e-12, "{got:?}");
        }
    }

    #[test]
    fn exact_zero_roots_are_counted_exactly() {
        // s^2 (s^2 - 4)
        let s = Expr::symbol("s");
        let p = s.powi(2) * (s.powi(2) - Expr::int(4));
        let roots = eigenvalues(&p, "s", 4).unwrap();
        assert_eq!(roots[1], Complex::new(0.0, 0.0));
        assert_eq!(roots[2], Complex::new(0.0, 0.0));
        assert!((roots[0].re + 2.0).abs() < 1e-14 && (roots[3].re - 2.0).abs() < 1e-14);
        assert!(eigenvalues(&(s.clone() - Expr::symbol("g")), "s", 1).is_none());
    }
}
