//! The eigenvalues of a linearisation at a numeric point: the roots of its characteristic
//! polynomial.
//!
//! The polynomial is exact (rational coefficients when every parameter has a value), so its
//! roots at zero — the cyclic coordinates, a family of steady motions — are counted exactly,
//! from the trailing zero coefficients, instead of being approximated by an iteration that
//! converges slowly to a multiple root. The other roots come from the Aberth–Ehrlich iteration,
//! polished by Newton steps, in `f64`.

// The matrix algorithms index rows and columns together, as their references write them.
#![allow(clippy::needless_range_loop)]

use cas::program::Real;
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
        coefficients.push(super::constant_value(c)?.to_f64() / factorial);
    }
    let mut roots = vec![Complex::new(0.0, 0.0); zeros];
    roots.extend(aberth(&coefficients[zeros..]));
    roots.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    Some(roots)
}

/// The eigenvalues of the numeric matrix `a` (square), ordered as [`eigenvalues`] orders them:
/// the matrix balanced, reduced to upper Hessenberg form, and its eigenvalues read off the
/// quasi-triangular form the shifted QR iteration converges to (Francis double shift). This is the
/// route when the characteristic polynomial's exact coefficients do not evaluate to finite
/// numbers (integers of hundreds of digits, a transcendental constant): the entries of `A` are
/// moderate even then. A root within `1e-13 ‖A‖` of zero is reported as zero. `None` when an
/// entry is not finite or the iteration does not converge.
///
/// The iteration runs in the arithmetic of the entries: in double-double arithmetic (about 32
/// digits) the eigenvalues of a matrix whose entries are known that well come out exact to the
/// last digit of a double unless they are ill-conditioned beyond `10¹⁶`.
pub fn of_matrix<T: Real>(a: &[Vec<T>]) -> Option<Vec<Complex>> {
    if a.iter().flatten().any(|v| !v.to_f64().is_finite()) {
        return None;
    }
    let mut h = a.to_vec();
    balance(&mut h);
    hessenberg(&mut h);
    let norm: f64 = h.iter().flatten().map(|v| v.to_f64().abs()).sum();
    let mut roots: Vec<Complex> = francis_qr(&mut h)?
        .into_iter()
        .map(|z| {
            if z.abs() <= 1e-13 * norm.max(1.0) {
                Complex::new(0.0, 0.0)
            } else {
                z
            }
        })
        .collect();
    roots.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    Some(roots)
}

/// `|v|` as a double (the comparisons of the iteration need no more).
fn size<T: Real>(v: T) -> f64 {
    v.to_f64().abs()
}

/// Scales rows and columns by powers of 2 (exact) until each row and its column have about the
/// same norm, which leaves the eigenvalues and makes them better conditioned.
fn balance<T: Real>(a: &mut [Vec<T>]) {
    let n = a.len();
    let mut done = false;
    while !done {
        done = true;
        for i in 0..n {
            let column: f64 = (0..n).filter(|&j| j != i).map(|j| size(a[j][i])).sum();
            let row: f64 = (0..n).filter(|&j| j != i).map(|j| size(a[i][j])).sum();
            if column == 0.0 || row == 0.0 {
                continue;
            }
            let (mut c, mut f) = (column, 1.0);
            while c < row / 2.0 {
                f *= 2.0;
                c *= 4.0;
            }
            while c > row * 2.0 {
                f /= 2.0;
                c /= 4.0;
            }
            if (c + row) / f < 0.95 * (column + row) {
                done = false;
                let f = T::from_f64(f);
                for j in 0..n {
                    a[i][j] = a[i][j] / f;
                    a[j][i] = a[j][i] * f;
                }
            }
        }
    }
}

/// Reduces `a` to upper Hessenberg form by Gaussian elimination with row pivoting, a similarity
/// transformation.
fn hessenberg<T: Real>(a: &mut [Vec<T>]) {
    let n = a.len();
    for m in 1..n.saturating_sub(1) {
        let pivot = (m..n).fold(m, |best, j| {
            if size(a[j][m - 1]) > size(a[best][m - 1]) {
                j
            } else {
                best
            }
        });
        let x = a[pivot][m - 1];
        if pivot != m {
            a.swap(pivot, m);
            for row in a.iter_mut() {
                row.swap(pivot, m);
            }
        }
        if x.to_f64() == 0.0 {
            continue;
        }
        for i in m + 1..n {
            let y = a[i][m - 1] / x;
            if y.to_f64() == 0.0 {
                continue;
            }
            for j in m - 1..n {
                a[i][j] = a[i][j] - y * a[m][j];
            }
            for row in a.iter_mut() {
                row[m] = row[m] + y * row[i];
            }
        }
    }
}

/// The eigenvalues of the upper Hessenberg matrix `a` (destroyed) by the shifted QR iteration with
/// Francis double shifts and deflation on subdiagonal entries negligible in the arithmetic `T`.
fn francis_qr<T: Real>(a: &mut [Vec<T>]) -> Option<Vec<Complex>> {
    let n = a.len();
    let mut roots = Vec::with_capacity(n);
    let norm: f64 = a.iter().flatten().map(|&v| size(v)).sum();
    let (mut last, mut shift, mut iterations) = (n as isize - 1, T::zero(), 0);
    while last >= 0 {
        let nn = last as usize;
        // The lowest negligible subdiagonal entry splits off the active block l..=nn.
        let mut l = nn;
        while l >= 1 {
            let mut s = size(a[l - 1][l - 1]) + size(a[l][l]);
            if s == 0.0 {
                s = norm;
            }
            if T::negligible(size(a[l][l - 1]), s) {
                a[l][l - 1] = T::zero();
                break;
            }
            l -= 1;
        }
        let x = a[nn][nn];
        if l == nn {
            roots.push(Complex::new((x + shift).to_f64(), 0.0));
            last -= 1;
            iterations = 0;
            continue;
        }
        let y = a[nn - 1][nn - 1];
        let w = a[nn][nn - 1] * a[nn - 1][nn];
        if l == nn - 1 {
            roots.extend(two_by_two(x + shift, y - x, w));
            last -= 2;
            iterations = 0;
            continue;
        }
        if iterations == 60 {
            return None;
        }
        let (x, y, w) = if iterations == 10 || iterations == 20 {
            // An exceptional shift, to break a cycle.
            shift = shift + x;
            for i in 0..=nn {
                a[i][i] = a[i][i] - x;
            }
            let s = T::from_f64(size(a[nn][nn - 1]) + size(a[nn - 1][nn - 2]));
            let t = T::from_f64(0.75) * s;
            (t, t, -(T::from_f64(0.4375) * s * s))
        } else {
            (x, y, w)
        };
        iterations += 1;
        double_shift_step(a, l, nn, (x, y, w));
    }
    Some(roots)
}

/// The eigenvalues of a trailing 2 × 2 block `[[y, ·], [·, x]]` (with `x` already shifted back),
/// from `p = (y − x)/2` and the product `w` of its off-diagonal entries.
fn two_by_two<T: Real>(x: T, y_minus_x: T, w: T) -> [Complex; 2] {
    let p = T::from_f64(0.5) * y_minus_x;
    let q = p * p + w;
    let z = q.abs().sqrt();
    if q.to_f64() >= 0.0 {
        let z = if p.to_f64() >= 0.0 { p + z } else { p - z };
        let second = if z.to_f64() != 0.0 { x - w / z } else { x + z };
        [
            Complex::new((x + z).to_f64(), 0.0),
            Complex::new(second.to_f64(), 0.0),
        ]
    } else {
        let re = (x + p).to_f64();
        [Complex::new(re, -z.to_f64()), Complex::new(re, z.to_f64())]
    }
}

/// One Francis double-shift QR step on the active block `l..=nn`, with the shifts given by the
/// trailing 2 × 2 block (`x`, `y` its diagonal, `w` the product of its off-diagonal entries).
fn double_shift_step<T: Real>(a: &mut [Vec<T>], l: usize, nn: usize, (x, y, w): (T, T, T)) {
    // The first column of the double shift, and where two small subdiagonal entries start it.
    let mut m = nn - 2;
    let (mut p, mut q, mut r);
    loop {
        let z = a[m][m];
        let (r1, s1) = (x - z, y - z);
        p = (r1 * s1 - w) / a[m + 1][m] + a[m][m + 1];
        q = a[m + 1][m + 1] - z - r1 - s1;
        r = a[m + 2][m + 1];
        let s = T::from_f64(size(p) + size(q) + size(r));
        p = p / s;
        q = q / s;
        r = r / s;
        if m == l {
            break;
        }
        let u = size(a[m][m - 1]) * (size(q) + size(r));
        let v = size(p) * (size(a[m - 1][m - 1]) + size(z) + size(a[m + 1][m + 1]));
        if T::negligible(u, v) {
            break;
        }
        m -= 1;
    }
    for i in m + 2..=nn {
        a[i][i - 2] = T::zero();
        if i != m + 2 {
            a[i][i - 3] = T::zero();
        }
    }
    let mut scale = T::zero();
    for k in m..nn {
        if k != m {
            p = a[k][k - 1];
            q = a[k + 1][k - 1];
            r = if k != nn - 1 {
                a[k + 2][k - 1]
            } else {
                T::zero()
            };
            scale = T::from_f64(size(p) + size(q) + size(r));
            if scale.to_f64() != 0.0 {
                p = p / scale;
                q = q / scale;
                r = r / scale;
            }
        }
        let norm = (p * p + q * q + r * r).sqrt();
        let s = if p.to_f64() >= 0.0 { norm } else { -norm };
        if s.to_f64() == 0.0 {
            continue;
        }
        if k == m {
            if l != m {
                a[k][k - 1] = -a[k][k - 1];
            }
        } else {
            a[k][k - 1] = -(s * scale);
        }
        p = p + s;
        let (hx, hy, hz) = (p / s, q / s, r / s);
        q = q / p;
        r = r / p;
        for j in k..=nn {
            let mut t = a[k][j] + q * a[k + 1][j];
            if k != nn - 1 {
                t = t + r * a[k + 2][j];
                a[k + 2][j] = a[k + 2][j] - t * hz;
            }
            a[k + 1][j] = a[k + 1][j] - t * hy;
            a[k][j] = a[k][j] - t * hx;
        }
        for i in l..=nn.min(k + 3) {
            let mut t = hx * a[i][k] + hy * a[i][k + 1];
            if k != nn - 1 {
                t = t + hz * a[i][k + 2];
                a[i][k + 2] = a[i][k + 2] - t * r;
            }
            a[i][k + 1] = a[i][k + 1] - t * q;
            a[i][k] = a[i][k] - t;
        }
    }
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

    /// `x = M⁻¹ b` for each column, by Gauss–Jordan elimination with partial pivoting.
    fn inverse(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = m.len();
        let mut a: Vec<Vec<f64>> = m
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let mut r = row.clone();
                r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
                r
            })
            .collect();
        for c in 0..n {
            let p = (c..n)
                .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
                .unwrap();
            a.swap(c, p);
            let d = a[c][c];
            a[c].iter_mut().for_each(|v| *v /= d);
            for r in 0..n {
                if r != c {
                    let f = a[r][c];
                    let pivot = a[c].clone();
                    a[r].iter_mut().zip(&pivot).for_each(|(v, p)| *v -= f * p);
                }
            }
        }
        a.into_iter().map(|r| r[n..].to_vec()).collect()
    }

    fn product(x: &[Vec<f64>], y: &[Vec<f64>]) -> Vec<Vec<f64>> {
        x.iter()
            .map(|row| {
                (0..y[0].len())
                    .map(|j| row.iter().zip(y).map(|(a, b)| a * b[j]).sum())
                    .collect()
            })
            .collect()
    }

    fn assert_roots(got: &[Complex], expected: &[Complex], tolerance: f64) {
        assert_eq!(got.len(), expected.len(), "{got:?}");
        for (g, e) in got.iter().zip(expected) {
            assert!(g.sub(*e).abs() < tolerance, "{got:?} against {expected:?}");
        }
    }

    #[test]
    fn eigenvalues_of_a_companion_matrix_are_its_polynomial_roots() {
        // The companion matrix of (z - 1)(z + 2)(z^2 + 4) = z^4 + z^3 + 2 z^2 + 4 z - 8.
        let a = vec![
            vec![0.0, 1.0, 0.0, 0.0],
            vec![0.0, 0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0],
            vec![8.0, -4.0, -2.0, -1.0],
        ];
        let expected = [
            Complex::new(-2.0, 0.0),
            Complex::new(0.0, -2.0),
            Complex::new(0.0, 2.0),
            Complex::new(1.0, 0.0),
        ];
        assert_roots(&of_matrix(&a).unwrap(), &expected, 1e-12);
    }

    #[test]
    fn eigenvalues_survive_a_similarity_of_badly_scaled_entries() {
        // Block upper triangular: the eigenvalues are those of its diagonal blocks, 3, -1,
        // 1 ± 2i (the block [[1, -2], [2, 1]]), 1/2 and 0. A similarity S T S⁻¹ with entries of
        // very different sizes keeps them.
        let t = vec![
            vec![3.0, 1.0, 4.0, 1.0, 5.0, 9.0],
            vec![0.0, -1.0, 2.0, 6.0, 5.0, 3.0],
            vec![0.0, 0.0, 1.0, -2.0, 5.0, 8.0],
            vec![0.0, 0.0, 2.0, 1.0, 9.0, 7.0],
            vec![0.0, 0.0, 0.0, 0.0, 0.5, 9.0],
            vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        ];
        let s: Vec<Vec<f64>> = (0..6)
            .map(|i| {
                (0..6)
                    .map(|j| match (i, j) {
                        _ if i == j => 10f64.powi(i - 2),
                        _ => ((i * 7 + j * 3) % 5) as f64 - 2.0,
                    })
                    .collect()
            })
            .collect();
        let a = product(&product(&s, &t), &inverse(&s));
        let expected = [
            Complex::new(-1.0, 0.0),
            Complex::new(0.0, 0.0),
            Complex::new(0.5, 0.0),
            Complex::new(1.0, -2.0),
            Complex::new(1.0, 2.0),
            Complex::new(3.0, 0.0),
        ];
        assert_roots(&of_matrix(&a).unwrap(), &expected, 1e-9);
    }

    #[test]
    fn a_matrix_with_a_non_finite_entry_has_no_eigenvalues() {
        assert!(of_matrix(&[vec![f64::NAN]]).is_none());
        assert_roots(
            &of_matrix(&[vec![-3.0]]).unwrap(),
            &[Complex::new(-3.0, 0.0)],
            1e-15,
        );
        assert!(of_matrix::<f64>(&[]).unwrap().is_empty());
    }

    /// A companion matrix whose eigenvalues `1, 1 + 1/1024, …, 1 + 4/1024` crowd together (its
    /// entries are exact in a double): each moves by about `1024⁴ ≈ 10¹²` times the round-off,
    /// so the iteration in doubles finds them to a few digits, and in double-double arithmetic
    /// to every digit of a double.
    #[test]
    fn crowded_eigenvalues_are_exact_in_double_double_arithmetic() {
        use cas::program::DoubleDouble;
        let c = [
            -138785724675.0 / 137438953472.0,
            692577251843.0 / 137438953472.0,
            -5400220185.0 / 536870912.0,
            10526755.0 / 1048576.0,
            -2565.0 / 512.0,
        ];
        let n = c.len();
        let a: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match () {
                        _ if j == n - 1 => -c[i],
                        _ if i == j + 1 => 1.0,
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect();
        let exact: Vec<Complex> = (0..n)
            .map(|k| Complex::new(1.0 + k as f64 / 1024.0, 0.0))
            .collect();
        let extended: Vec<Vec<DoubleDouble>> = a
            .iter()
            .map(|row| row.iter().map(|&v| DoubleDouble::new(v)).collect())
            .collect();
        assert_roots(&of_matrix(&extended).unwrap(), &exact, 1e-15);
        let doubles = of_matrix(&a).unwrap();
        let worst = doubles
            .iter()
            .map(|z| {
                exact
                    .iter()
                    .map(|e| z.sub(*e).abs())
                    .fold(f64::MAX, f64::min)
            })
            .fold(0.0, f64::max);
        assert!(worst > 1e-8, "doubles alone: {doubles:?}");
    }
}
