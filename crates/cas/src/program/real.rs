//! The arithmetic a [`Program`](super::Program) is evaluated in: `f64`, or [`DoubleDouble`]
//! (about 32 significant digits) where `f64` is not enough.
//!
//! A double-double is an unevaluated sum `hi + lo` of two doubles with `|lo| ≤ ulp(hi)/2`, so it
//! carries 106 bits of significand with the exponent range of a double. Its operations are the
//! error-free transformations of Dekker and Knuth (`two_sum`, `two_prod` by splitting) and the
//! algorithms of Hida, Li and Bailey's QD library (ARITH 15, 2001): division by two correction
//! steps, `sqrt` and `log` by one Newton step from the double result, `exp` by reduction by
//! `ln 2` and `2⁻⁹` and a Taylor series, `sin` and `cos` by reduction modulo `π/2` and Taylor
//! series. Every function is accurate to a few units of `2⁻¹⁰⁴` relative for arguments of
//! moderate size (the reductions lose `|x|·2⁻¹⁰⁴` absolutely for large `|x|`).
//!
//! Rational constants of any length (the hundreds of digits exact arithmetic produces) convert
//! through their leading 34 digits and a power of ten, so a ratio of two huge integers is
//! finite when its value is.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// A number a program can be evaluated in.
pub trait Real:
    Copy
    + std::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + std::iter::Sum
{
    /// The relative spacing of the numbers near 1 (a unit in the last place).
    const EPSILON: f64;
    /// The number nearest `v`.
    fn from_f64(v: f64) -> Self;
    /// The double nearest this number.
    fn to_f64(self) -> f64;
    /// The number nearest a double-double.
    fn from_double_double(v: DoubleDouble) -> Self;
    /// The number nearest `numerator / denominator` (decimal digit strings, an optional sign on
    /// the numerator).
    fn ratio(numerator: &str, denominator: &str) -> Self;
    /// `sin`
    fn sin(self) -> Self;
    /// `cos`
    fn cos(self) -> Self;
    /// `exp`
    fn exp(self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// `sqrt`
    fn sqrt(self) -> Self;
    /// `self ^ e`.
    fn powf(self, e: Self) -> Self;
    /// `|self|`.
    fn abs(self) -> Self {
        if self.to_f64() < 0.0 {
            -self
        } else {
            self
        }
    }
    /// Whether `u ≥ 0` vanishes beside `v ≥ 0` in this arithmetic (a matrix iteration's test for
    /// a negligible entry).
    fn negligible(u: f64, v: f64) -> bool {
        u <= Self::EPSILON * v
    }
    /// 0.
    fn zero() -> Self {
        Self::from_f64(0.0)
    }
}

impl Real for f64 {
    const EPSILON: f64 = f64::EPSILON;
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn from_double_double(v: DoubleDouble) -> f64 {
        v.to_f64()
    }
    fn ratio(numerator: &str, denominator: &str) -> f64 {
        let exact = |s: &str| s.trim_start_matches('-').len() <= 15;
        if exact(numerator) && exact(denominator) {
            // Both exact in a double: one correctly rounded division.
            let n: f64 = numerator.parse().unwrap_or(f64::NAN);
            let d: f64 = denominator.parse().unwrap_or(f64::NAN);
            n / d
        } else {
            DoubleDouble::ratio(numerator, denominator).to_f64()
        }
    }
    fn sin(self) -> f64 {
        f64::sin(self)
    }
    fn cos(self) -> f64 {
        f64::cos(self)
    }
    fn exp(self) -> f64 {
        f64::exp(self)
    }
    fn ln(self) -> f64 {
        f64::ln(self)
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    fn powf(self, e: f64) -> f64 {
        f64::powf(self, e)
    }
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    fn negligible(u: f64, v: f64) -> bool {
        u + v == v
    }
}

/// A double-double number `hi + lo` (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoubleDouble {
    /// The double nearest the value.
    pub hi: f64,
    /// The rest, `|lo| ≤ ulp(hi)/2`.
    pub lo: f64,
}

/// π, 2π, π/2 and ln 2 to 106 bits (the leading double and the next); π itself only as a
/// reference of the tests (programs read it as a constant of 32 digits).
#[cfg(test)]
const PI: DoubleDouble = DoubleDouble {
    hi: std::f64::consts::PI,
    lo: 1.224_646_799_147_353_2e-16,
};
const TWO_PI: DoubleDouble = DoubleDouble {
    hi: std::f64::consts::TAU,
    lo: 2.449_293_598_294_706_4e-16,
};
const HALF_PI: DoubleDouble = DoubleDouble {
    hi: std::f64::consts::FRAC_PI_2,
    lo: 6.123_233_995_736_766e-17,
};
const LN_2: DoubleDouble = DoubleDouble {
    hi: std::f64::consts::LN_2,
    lo: 2.319_046_813_846_299_6e-17,
};

/// `a + b` exactly, as the double nearest it and the error.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a + b` exactly when `|a| ≥ |b|`.
fn quick_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// `a` as the sum of two halves of 26 bits (Dekker), scaled to avoid overflow.
fn split(a: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134_217_729.0; // 2^27 + 1
    const THRESHOLD: f64 = 6.696_928_794_914_17e299;
    if a.abs() > THRESHOLD {
        let a = a * 3.725_290_298_461_914e-9; // 2^-28
        let t = SPLITTER * a;
        let hi = t - (t - a);
        let lo = a - hi;
        (hi * 268_435_456.0, lo * 268_435_456.0)
    } else {
        let t = SPLITTER * a;
        let hi = t - (t - a);
        (hi, a - hi)
    }
}

/// `a · b` exactly, as the double nearest it and the error.
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if !p.is_finite() {
        return (p, 0.0);
    }
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

impl DoubleDouble {
    /// The number `v`.
    pub const fn new(v: f64) -> DoubleDouble {
        DoubleDouble { hi: v, lo: 0.0 }
    }

    fn normalised(hi: f64, lo: f64) -> DoubleDouble {
        if !hi.is_finite() {
            return DoubleDouble::new(hi);
        }
        let (hi, lo) = quick_two_sum(hi, lo);
        DoubleDouble { hi, lo }
    }

    /// `self · 2^k` (exact).
    fn scaled(self, k: i32) -> DoubleDouble {
        let f = 2f64.powi(k);
        DoubleDouble {
            hi: self.hi * f,
            lo: self.lo * f,
        }
    }

    /// The nearest integer, as a double.
    fn nearest_integer(self) -> f64 {
        let hi = self.hi.round();
        if hi == self.hi {
            // hi is an integer: lo decides a tie and the rest.
            hi + self.lo.round()
        } else if (hi - self.hi).abs() == 0.5 && self.lo != 0.0 {
            // A tie in hi broken by lo.
            if self.lo > 0.0 {
                self.hi.ceil()
            } else {
                self.hi.floor()
            }
        } else {
            hi
        }
    }

    /// `sin` and `cos` of `t`, `|t| ≤ π/4`, by their Taylor series.
    fn sin_cos_reduced(t: DoubleDouble) -> (DoubleDouble, DoubleDouble) {
        let t2 = t * t;
        let threshold = 1e-33;
        let mut sin = t;
        let mut term = t;
        let mut k = 1.0;
        while term.hi.abs() > threshold * sin.hi.abs().max(f64::MIN_POSITIVE) {
            term = -(term * t2) / DoubleDouble::new((k + 1.0) * (k + 2.0));
            sin = sin + term;
            k += 2.0;
        }
        let mut cos = DoubleDouble::new(1.0);
        let mut term = DoubleDouble::new(1.0);
        let mut k = 0.0;
        while term.hi.abs() > threshold {
            term = -(term * t2) / DoubleDouble::new((k + 1.0) * (k + 2.0));
            cos = cos + term;
            k += 2.0;
        }
        (sin, cos)
    }

    /// `sin` and `cos`, reduced modulo 2π and then π/2.
    fn sin_cos(self) -> (DoubleDouble, DoubleDouble) {
        if !self.hi.is_finite() {
            return (DoubleDouble::new(f64::NAN), DoubleDouble::new(f64::NAN));
        }
        let turns = (self / TWO_PI).nearest_integer();
        let r = self - TWO_PI * DoubleDouble::new(turns);
        let quarter = (r / HALF_PI).nearest_integer();
        let t = r - HALF_PI * DoubleDouble::new(quarter);
        let (s, c) = DoubleDouble::sin_cos_reduced(t);
        match quarter as i64 {
            0 => (s, c),
            1 => (c, -s),
            -1 => (-c, s),
            _ => (-s, -c),
        }
    }

    /// `10^k` for `k ≥ 0`, by binary powering.
    fn power_of_ten(mut k: u32) -> DoubleDouble {
        let mut result = DoubleDouble::new(1.0);
        let mut base = DoubleDouble::new(10.0);
        while k > 0 {
            if k & 1 == 1 {
                result = result * base;
            }
            base = base * base;
            k >>= 1;
        }
        result
    }

    /// A decimal integer (optional sign) as its leading 34 digits and the power of ten that
    /// scales them: `(m, e)` with the integer `≈ m · 10^e`; `None` when it is not one.
    fn mantissa(digits: &str) -> Option<(DoubleDouble, i64)> {
        let (negative, digits) = match digits.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, digits),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let leading = &digits[..digits.len().min(34)];
        let mut m = DoubleDouble::new(0.0);
        // Nine digits at a time: each chunk and the running product stay exact or nearly so.
        for chunk in leading.as_bytes().chunks(9) {
            let text = std::str::from_utf8(chunk).ok()?;
            let value: f64 = text.parse().ok()?;
            m = m * DoubleDouble::new(10f64.powi(chunk.len() as i32)) + DoubleDouble::new(value);
        }
        let e = (digits.len() - leading.len()) as i64;
        Some((if negative { -m } else { m }, e))
    }

    /// The number nearest `numerator / denominator` (decimal strings; NaN when they are not).
    pub fn ratio(numerator: &str, denominator: &str) -> DoubleDouble {
        let (Some((n, en)), Some((d, ed))) = (
            DoubleDouble::mantissa(numerator),
            DoubleDouble::mantissa(denominator),
        ) else {
            return DoubleDouble::new(f64::NAN);
        };
        let q = n / d;
        let e = en - ed;
        match e.cmp(&0) {
            std::cmp::Ordering::Equal => q,
            std::cmp::Ordering::Greater => q * DoubleDouble::power_of_ten(e.min(400) as u32),
            std::cmp::Ordering::Less => q / DoubleDouble::power_of_ten((-e).min(400) as u32),
        }
    }
}

impl Add for DoubleDouble {
    type Output = DoubleDouble;
    fn add(self, b: DoubleDouble) -> DoubleDouble {
        let (s1, s2) = two_sum(self.hi, b.hi);
        if !s1.is_finite() {
            return DoubleDouble::new(s1);
        }
        let (t1, t2) = two_sum(self.lo, b.lo);
        let (s1, s2) = quick_two_sum(s1, s2 + t1);
        DoubleDouble::normalised(s1, s2 + t2)
    }
}

impl Neg for DoubleDouble {
    type Output = DoubleDouble;
    fn neg(self) -> DoubleDouble {
        DoubleDouble {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
}

impl Sub for DoubleDouble {
    type Output = DoubleDouble;
    fn sub(self, b: DoubleDouble) -> DoubleDouble {
        self + (-b)
    }
}

impl Mul for DoubleDouble {
    type Output = DoubleDouble;
    fn mul(self, b: DoubleDouble) -> DoubleDouble {
        let (p1, p2) = two_prod(self.hi, b.hi);
        if !p1.is_finite() {
            return DoubleDouble::new(p1);
        }
        DoubleDouble::normalised(p1, p2 + (self.hi * b.lo + self.lo * b.hi))
    }
}

impl Div for DoubleDouble {
    type Output = DoubleDouble;
    fn div(self, b: DoubleDouble) -> DoubleDouble {
        let q1 = self.hi / b.hi;
        if !q1.is_finite() || b.hi == 0.0 {
            return DoubleDouble::new(q1);
        }
        let r = self - b * DoubleDouble::new(q1);
        let q2 = r.hi / b.hi;
        let r = r - b * DoubleDouble::new(q2);
        let q3 = r.hi / b.hi;
        DoubleDouble::normalised(q1, q2) + DoubleDouble::new(q3)
    }
}

impl std::iter::Sum for DoubleDouble {
    fn sum<I: Iterator<Item = DoubleDouble>>(iter: I) -> DoubleDouble {
        iter.fold(DoubleDouble::new(0.0), |a, b| a + b)
    }
}

impl Real for DoubleDouble {
    const EPSILON: f64 = 4.930_380_657_631_324e-32; // 2^-104
    fn from_f64(v: f64) -> DoubleDouble {
        DoubleDouble::new(v)
    }
    fn to_f64(self) -> f64 {
        self.hi + self.lo
    }
    fn from_double_double(v: DoubleDouble) -> DoubleDouble {
        v
    }
    fn ratio(numerator: &str, denominator: &str) -> DoubleDouble {
        DoubleDouble::ratio(numerator, denominator)
    }
    fn sin(self) -> DoubleDouble {
        self.sin_cos().0
    }
    fn cos(self) -> DoubleDouble {
        self.sin_cos().1
    }
    fn exp(self) -> DoubleDouble {
        if self.hi > 709.8 {
            return DoubleDouble::new(f64::INFINITY);
        }
        if self.hi < -745.2 {
            return DoubleDouble::new(0.0);
        }
        if self.hi.is_nan() {
            return self;
        }
        // exp(x) = 2^k exp(r)², r = (x − k ln 2)/512, |r| ≤ ln 2 / 1024.
        let k = (self.hi / LN_2.hi).round();
        let r = (self - LN_2 * DoubleDouble::new(k)).scaled(-9);
        // s = exp(r) − 1 by its Taylor series, then (1 + s)² − 1 = 2s + s² nine times.
        let mut s = r;
        let mut term = r;
        let mut n = 1.0;
        while term.hi.abs() > 1e-35 {
            n += 1.0;
            term = term * r / DoubleDouble::new(n);
            s = s + term;
        }
        for _ in 0..9 {
            s = s.scaled(1) + s * s;
        }
        (s + DoubleDouble::new(1.0)).scaled(k as i32)
    }
    fn ln(self) -> DoubleDouble {
        if self.hi.is_nan() || self.hi < 0.0 {
            return DoubleDouble::new(f64::NAN);
        }
        if self.hi == 0.0 {
            return DoubleDouble::new(f64::NEG_INFINITY);
        }
        if self.hi.is_infinite() {
            return self;
        }
        // One Newton step on exp(y) = x from the double logarithm: y + x·exp(−y) − 1.
        let y = DoubleDouble::new(self.hi.ln());
        y + self * (-y).exp() - DoubleDouble::new(1.0)
    }
    fn sqrt(self) -> DoubleDouble {
        if self.hi <= 0.0 || !self.hi.is_finite() {
            return DoubleDouble::new(self.hi.sqrt());
        }
        // Karp's trick: y = x·r with r ≈ 1/√x, corrected by (x − y²)·r/2.
        let r = 1.0 / self.hi.sqrt();
        let y = self.hi * r;
        let y2 = DoubleDouble::new(y) * DoubleDouble::new(y);
        DoubleDouble::new(y) + DoubleDouble::new((self - y2).hi * (r * 0.5))
    }
    fn powf(self, e: DoubleDouble) -> DoubleDouble {
        if e == DoubleDouble::new(0.5) {
            return self.sqrt();
        }
        (e * self.ln()).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decimal with a point (`"3.14…"`) as a double-double (for the references).
    fn decimal(text: &str) -> DoubleDouble {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits = format!("{whole}{fraction}");
        DoubleDouble::ratio(&digits, &format!("1{}", "0".repeat(fraction.len())))
    }

    fn assert_close(value: DoubleDouble, reference: &str, tolerance: f64) {
        let expected = decimal(reference);
        let error = ((value - expected) / expected).to_f64().abs();
        assert!(
            error < tolerance,
            "{value:?} vs {reference}: relative error {error:e}"
        );
    }

    /// The constants and functions against their values to 50 digits (published tables:
    /// π, e, √2, ln 2, sin 1, cos 1), far beyond what a double holds.
    #[test]
    fn functions_are_accurate_to_thirty_digits() {
        let one = DoubleDouble::new(1.0);
        let two = DoubleDouble::new(2.0);
        let tolerance = 1e-30;
        assert_close(
            PI,
            "3.14159265358979323846264338327950288419716939937510",
            tolerance,
        );
        assert_close(
            one.exp(),
            "2.71828182845904523536028747135266249775724709369995",
            tolerance,
        );
        assert_close(
            two.sqrt(),
            "1.41421356237309504880168872420969807856967187537694",
            tolerance,
        );
        assert_close(
            two.ln(),
            "0.69314718055994530941723212145817656807550013436025",
            tolerance,
        );
        assert_close(
            one.sin(),
            "0.84147098480789650665250232163029899962256306079837",
            tolerance,
        );
        assert_close(
            one.cos(),
            "0.54030230586813971740093660744297660373231042061792",
            tolerance,
        );
        // sin(π/6) = 1/2 and cos(π/3) = 1/2, reduced from far away (π/6 + 40π).
        let sixth = PI / DoubleDouble::new(6.0);
        assert_close(sixth.sin(), "0.5", tolerance);
        assert_close(
            (sixth + TWO_PI * DoubleDouble::new(20.0)).sin(),
            "0.5",
            1e-29,
        );
        assert_close((sixth * two).cos(), "0.5", tolerance);
        assert_close(
            two.powf(DoubleDouble::new(0.25)),
            "1.18920711500272106671749997056047591529297209246381",
            tolerance,
        );
        // exp and ln are inverse, sin² + cos² = 1, over a range of arguments.
        for x in [-30.0, -2.5, -0.1, 0.3, 1.7, 12.0, 100.0] {
            let x = DoubleDouble::new(x) / DoubleDouble::new(3.0);
            let back = x.exp().ln();
            assert!(((back - x) / x).to_f64().abs() < 1e-30, "{x:?}");
            let (s, c) = x.sin_cos();
            let unit = s * s + c * c - one;
            assert!(unit.to_f64().abs() < 1e-30, "{x:?}");
        }
    }

    /// Ratios of integers of hundreds of digits are finite when their values are; short ones
    /// are correctly rounded in `f64`.
    #[test]
    fn long_rationals_convert_without_overflow() {
        let n = format!("7{}", "0".repeat(400));
        let d = format!("2{}", "0".repeat(399));
        assert_eq!(<f64 as Real>::ratio(&n, &d), 35.0);
        assert_eq!(<f64 as Real>::ratio(&format!("-{n}"), &d), -35.0);
        assert_eq!(<f64 as Real>::ratio("1", "3"), 1.0 / 3.0);
        let pi = "31415926535897932384626433832795028841971";
        let scale = format!("1{}", "0".repeat(pi.len() - 1));
        assert_eq!(<f64 as Real>::ratio(pi, &scale), std::f64::consts::PI);
        assert_close(
            DoubleDouble::ratio(pi, &scale),
            "3.1415926535897932384626433832795028841971",
            1e-31,
        );
        assert!(DoubleDouble::ratio("1x", "2").hi.is_nan());
    }
}
