//! Axis ranges and "nice" tick values (1, 2 or 5 times a power of ten) for the SVG plot.
//!
//! A value axis covers the finite data with 5% padding. A *flat* series, whose span is at most
//! `1e-12` of its magnitude (a conserved energy, all-zero residuals), would otherwise get a
//! range made of rounding noise: its range is widened to `mid ± |mid|/2` (`± 1` around zero),
//! so it draws as a straight line in the middle. Logarithmic axes work on decimal exponents and
//! put ticks on whole decades only.

/// Values larger in magnitude than this are not drawn (their spans would overflow).
const LARGEST_DRAWN: f64 = 1e300;

/// Whether `v` can be placed on an axis.
pub(crate) fn drawable(v: f64) -> bool {
    v.is_finite() && v.abs() <= LARGEST_DRAWN
}

/// An axis: the interval `[lo, hi]` (with `lo < hi`) and its labelled ticks.
pub(crate) struct Axis {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) ticks: Vec<(f64, String)>,
}

impl Axis {
    /// A time axis spanning exactly the first to the last time.
    pub(crate) fn time(times: &[f64]) -> Axis {
        let (lo, hi) = match finite_range(times.iter().copied()) {
            Some((lo, hi)) if hi > lo => (lo, hi),
            Some((lo, _)) => (lo, lo + 1.0),
            None => (0.0, 1.0),
        };
        Axis::linear_between(lo, hi)
    }

    /// A linear value axis covering the drawable `values`.
    pub(crate) fn linear(values: impl Iterator<Item = f64>) -> Axis {
        let (lo, hi) = match finite_range(values) {
            Some((lo, hi)) => padded(lo, hi),
            None => (-1.0, 1.0),
        };
        Axis::linear_between(lo, hi)
    }

    /// A logarithmic axis for the decimal `exponents` (`log10` of the values), widened to whole
    /// decades; tick labels read `1e-14`.
    pub(crate) fn log(exponents: impl Iterator<Item = f64>) -> Axis {
        let (mut lo, mut hi) = match finite_range(exponents) {
            Some((lo, hi)) => (lo.floor(), hi.ceil()),
            None => (-1.0, 1.0),
        };
        if lo == hi {
            lo -= 1.0;
            hi += 1.0;
        }
        let step = nice_step(hi - lo).0.round().max(1.0);
        let ticks = multiples(lo, hi, step)
            .map(|e| (e, format!("1e{}", e as i64)))
            .collect();
        Axis { lo, hi, ticks }
    }

    /// The position of `v` along the axis, 0 at `lo` and 1 at `hi`.
    pub(crate) fn fraction(&self, v: f64) -> f64 {
        (v - self.lo) / (self.hi - self.lo)
    }

    fn linear_between(lo: f64, hi: f64) -> Axis {
        let (step, exponent) = nice_step(hi - lo);
        let magnitude = lo.abs().max(hi.abs()).log10().floor() as i32;
        let ticks = multiples(lo, hi, step)
            .map(|v| (v, label(v, exponent, magnitude)))
            .collect();
        Axis { lo, hi, ticks }
    }
}

/// The smallest and largest drawable value, if any.
fn finite_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| drawable(*v))
        .fold(None, |range, v| match range {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// The data range `[lo, hi]` padded by 5%, or widened if flat (see the module documentation).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let span = hi - lo;
    let mid = 0.5 * (lo + hi);
    if span <= 1e-12 * mid.abs() || span == 0.0 {
        let half = if mid == 0.0 { 1.0 } else { 0.5 * mid.abs() };
        (mid - half, mid + half)
    } else {
        (lo - 0.05 * span, hi + 0.05 * span)
    }
}

/// A 1-2-5 step giving about five intervals over `span`, with the decimal exponent of its
/// leading digit.
fn nice_step(span: f64) -> (f64, i32) {
    let raw = span / 5.0;
    let exponent = raw.log10().floor() as i32;
    let base = 10f64.powi(exponent);
    match raw / base {
        m if m < 1.5 => (base, exponent),
        m if m < 3.5 => (2.0 * base, exponent),
        m if m < 7.5 => (5.0 * base, exponent),
        _ => (10.0 * base, exponent + 1),
    }
}

/// The multiples `k·step` inside `[lo, hi]`, computed from integers (no accumulated rounding).
fn multiples(lo: f64, hi: f64, step: f64) -> impl Iterator<Item = f64> {
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(move |k| k as f64 * step)
}

/// The label of tick `v` for a step with leading-digit exponent `exponent` on an axis whose
/// largest magnitude has exponent `magnitude`: fixed notation with just enough decimals, or
/// scientific notation for very large or very fine scales.
fn label(v: f64, exponent: i32, magnitude: i32) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if magnitude >= 6 || exponent <= -5 {
        let digits = (magnitude - exponent).clamp(0, 16) as usize;
        format!("{v:.digits$e}")
    } else {
        let decimals = (-exponent).max(0) as usize;
        format!("{v:.decimals$}")
    }
}
