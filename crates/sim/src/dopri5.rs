//! The adaptive Dormand–Prince 5(4) method with dense output.
//!
//! Coefficients are those of Hairer's `dopri5` (Hairer, Nørsett & Wanner, *Solving ODEs I*,
//! Table II.5.2, with the continuous extension of §II.6). Stage 7 is evaluated at the 5th-order
//! solution, so its derivative is the next step's first stage (FSAL) unless a projection moved
//! the state, in which case the first stage is evaluated afresh at the projected state.

use crate::grid::Grid;
use crate::run::Run;
use crate::{Dopri5Options, Error};

/// Stage times `c_s`.
const C: [f64; 7] = [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0];

/// Stage coefficients `a_sj` (row 6 holds the 5th-order weights `b_j`).
#[rustfmt::skip]
const A: [[f64; 6]; 7] = [
    [0.0; 6],
    [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
    [19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0.0, 0.0],
    [9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0, 0.0],
    [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0],
];

/// Error weights `b_j − b̂_j` (5th minus embedded 4th order).
#[rustfmt::skip]
const E: [f64; 7] = [
    71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0,
    -1.0 / 40.0,
];

/// Weights of the dense-output coefficient `r5`.
#[rustfmt::skip]
const D: [f64; 7] = [
    -12715105075.0 / 11282082432.0, 0.0, 87487479700.0 / 32700410799.0,
    -10690763975.0 / 1880347072.0, 701980252875.0 / 199316789632.0,
    -1453857185.0 / 822651844.0, 69997945.0 / 29380423.0,
];

/// Step controller: safety factor and bounds of the step-size ratio.
const SAFETY: f64 = 0.9;
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 5.0;

/// Stage derivatives and buffers of one step attempt.
struct Stages {
    k: [Vec<f64>; 7],
    y: Vec<f64>,
    /// Dense-output polynomial coefficients `r1 … r5` (`r1` is the step's start state).
    r: [Vec<f64>; 5],
}

impl Stages {
    fn new(n: usize) -> Self {
        Stages {
            k: std::array::from_fn(|_| vec![0.0; n]),
            y: vec![0.0; n],
            r: std::array::from_fn(|_| vec![0.0; n]),
        }
    }

    /// Stages 2–7 of a step of size `h` from `(t, x)`, `k[0]` holding `f(t, x)`; leaves the
    /// 5th-order solution in `y` and its derivative in `k[6]`.
    fn attempt(&mut self, run: &mut Run, t: f64, x: &[f64], h: f64) -> Result<(), Error> {
        for s in 1..7 {
            let (done, rest) = self.k.split_at_mut(s);
            for (i, y) in self.y.iter_mut().enumerate() {
                let slope: f64 = done.iter().zip(&A[s]).map(|(k, a)| a * k[i]).sum();
                *y = x[i] + h * slope;
            }
            run.rhs(t + C[s] * h, &self.y, &mut rest[0])?;
        }
        Ok(())
    }

    /// The mixed RMS norm of the local error estimate.
    fn error_norm(&self, x: &[f64], h: f64, options: &Dopri5Options) -> f64 {
        let sum: f64 = (0..x.len())
            .map(|i| {
                let err = h * self.k.iter().zip(&E).map(|(k, e)| e * k[i]).sum::<f64>();
                let scale = options.atol + options.rtol * x[i].abs().max(self.y[i].abs());
                (err / scale).powi(2)
            })
            .sum();
        (sum / x.len() as f64).sqrt()
    }

    /// Sets up the dense output of the accepted step from `x` of size `h`.
    fn prepare_dense(&mut self, x: &[f64], h: f64) {
        let [r1, r2, r3, r4, r5] = &mut self.r;
        for i in 0..x.len() {
            let diff = self.y[i] - x[i];
            let bspl = h * self.k[0][i] - diff;
            r1[i] = x[i];
            r2[i] = diff;
            r3[i] = bspl;
            r4[i] = diff - h * self.k[6][i] - bspl;
            r5[i] = h * self.k.iter().zip(&D).map(|(k, d)| d * k[i]).sum::<f64>();
        }
    }

    /// The dense output at fraction `theta` of the step.
    fn dense(&self, theta: f64, out: &mut [f64]) {
        let [r1, r2, r3, r4, r5] = &self.r;
        let rest = 1.0 - theta;
        for (i, o) in out.iter_mut().enumerate() {
            *o = r1[i] + theta * (r2[i] + rest * (r3[i] + theta * (r4[i] + rest * r5[i])));
        }
    }
}

/// The RMS of `v_i / (atol + rtol·|x_i|)`.
fn scaled_rms(v: impl Iterator<Item = f64>, x: &[f64], options: &Dopri5Options) -> f64 {
    let sum: f64 = v
        .zip(x)
        .map(|(v, x)| (v / (options.atol + options.rtol * x.abs())).powi(2))
        .sum();
    (sum / x.len() as f64).sqrt()
}

/// Hairer's initial step heuristic (`hinit`), costing one evaluation of `f`.
fn initial_step(
    run: &mut Run,
    x: &[f64],
    f0: &[f64],
    h_max: f64,
    options: &Dopri5Options,
) -> Result<f64, Error> {
    let d0 = scaled_rms(x.iter().copied(), x, options);
    let d1 = scaled_rms(f0.iter().copied(), x, options);
    let h0 = if d0 < 1e-10 || d1 < 1e-10 {
        1e-6
    } else {
        0.01 * d0 / d1
    }
    .min(h_max);
    let x1: Vec<f64> = x.iter().zip(f0).map(|(x, f)| x + h0 * f).collect();
    let mut f1 = vec![0.0; x.len()];
    run.rhs(h0, &x1, &mut f1)?;
    let d2 = scaled_rms(f1.iter().zip(f0).map(|(a, b)| a - b), x, options) / h0;
    if !d2.is_finite() {
        return Ok(h0);
    }
    let d = d1.max(d2);
    let h1 = if d <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / d).powf(0.2)
    };
    Ok((100.0 * h0).min(h1).min(h_max))
}

/// The smallest step allowed at time `t` of an integration to `t_end`.
fn min_step(t: f64, t_end: f64) -> f64 {
    16.0 * f64::EPSILON * t.abs().max(t_end)
}

/// The state of the step-size controller between attempts.
struct Controller {
    h: f64,
    h_max: f64,
    attempts: usize,
    last_rejected: bool,
    last_non_finite: bool,
}

impl Controller {
    /// After an accepted step with error norm `err`.
    fn accept(&mut self, err: f64) {
        let mut factor = (SAFETY * err.powf(-0.2)).clamp(MIN_FACTOR, MAX_FACTOR);
        if self.last_rejected {
            factor = factor.min(1.0);
        }
        self.h = (self.h * factor).min(self.h_max);
        self.last_rejected = false;
        self.last_non_finite = false;
    }

    /// After a rejected step with error norm `err` (NaN or infinite for a non-finite result).
    fn reject(&mut self, err: f64, run: &mut Run) {
        run.stats.rejected_steps += 1;
        self.last_non_finite = !err.is_finite();
        let factor = if self.last_non_finite {
            MIN_FACTOR
        } else {
            (SAFETY * err.powf(-0.2)).clamp(MIN_FACTOR, 1.0)
        };
        self.h *= factor;
        self.last_rejected = true;
    }

    /// The next step from `t`, clipped to land on `t_end`; errors when out of steps or too small.
    fn next_step(&mut self, t: f64, t_end: f64, max_steps: usize) -> Result<(f64, bool), Error> {
        if self.attempts >= max_steps {
            return Err(Error::TooManySteps { t, max_steps });
        }
        self.attempts += 1;
        let last = t + 1.01 * self.h >= t_end;
        let h = if last { t_end - t } else { self.h };
        if h < min_step(t, t_end) {
            return Err(Error::StepTooSmall {
                t,
                h,
                non_finite: self.last_non_finite,
            });
        }
        Ok((h, last))
    }
}

/// Integrates from `x0` at 0 to the end of `grid`, recording every grid time into `run`
/// (the sample at 0 must already be recorded).
pub(crate) fn integrate(
    run: &mut Run,
    x0: &[f64],
    grid: &Grid,
    options: &Dopri5Options,
) -> Result<(), Error> {
    let t_end = grid.t_end();
    let mut stages = Stages::new(x0.len());
    let mut x = x0.to_vec();
    let mut t = 0.0;
    run.rhs(t, &x, &mut stages.k[0])?;
    if !stages.k[0].iter().all(|v| v.is_finite()) {
        return Err(Error::NonFinite {
            what: "the derivative at the initial state",
            t,
        });
    }
    let h_max = options.h_max.unwrap_or(t_end).min(t_end);
    let h = initial_step(run, &x, &stages.k[0], h_max, options)?;
    let mut control = Controller {
        h,
        h_max,
        attempts: 0,
        last_rejected: false,
        last_non_finite: false,
    };
    let mut next_sample = 1;
    while t < t_end {
        let (h, last) = control.next_step(t, t_end, options.max_steps)?;
        stages.attempt(run, t, &x, h)?;
        let err = stages.error_norm(&x, h, options);
        let finite = err.is_finite() && stages.y.iter().all(|v| v.is_finite());
        if !finite || err > 1.0 {
            control.reject(if finite { err } else { f64::NAN }, run);
            continue;
        }
        run.stats.accepted_steps += 1;
        let t_new = if last { t_end } else { t + h };
        stages.prepare_dense(&x, h);
        run.project(t_new, &mut stages.y)?;
        if run.has_projection() {
            run.rhs(t_new, &stages.y, &mut stages.k[0])?;
        } else {
            stages.k.swap(0, 6);
        }
        next_sample = record_samples(run, &stages, grid, next_sample, (t, t_new, h))?;
        std::mem::swap(&mut x, &mut stages.y);
        t = t_new;
        control.accept(err);
        run.progress(t);
    }
    Ok(())
}

/// Records the grid samples from index `next` that fall in the accepted step `(t, t_new]` of
/// size `h`: dense output (projected) inside, the projected end state `stages.y` at `t_new`.
/// Returns the index of the next sample still to record.
fn record_samples(
    run: &mut Run,
    stages: &Stages,
    grid: &Grid,
    mut next: usize,
    (t, t_new, h): (f64, f64, f64),
) -> Result<usize, Error> {
    let mut buffer = vec![0.0; stages.y.len()];
    while next < grid.len() && grid.time(next) <= t_new {
        let ts = grid.time(next);
        if ts == t_new {
            run.sample(ts, &stages.y)?;
        } else {
            stages.dense((ts - t) / h, &mut buffer);
            run.sample_projected(ts, &buffer)?;
        }
        next += 1;
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::{A, C, D, E};

    /// The tableau's consistency conditions: `Σ_j a_sj = c_s`, `Σ b = 1`, `Σ e = Σ d = 0`.
    #[test]
    fn tableau_is_consistent() {
        for (row, c) in A.iter().zip(C) {
            assert!((row.iter().sum::<f64>() - c).abs() < 1e-14, "{row:?}");
        }
        assert!(E.iter().sum::<f64>().abs() < 1e-15);
        assert!(D.iter().sum::<f64>().abs() < 1e-14);
    }
}
