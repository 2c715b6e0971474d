//! The classical fourth-order Runge–Kutta method with a fixed step.
//!
//! Step `i` goes from `(i−1)·h` to `i·h`; the last one is shortened (by less than `h`) to end
//! exactly at `T`. Samples are step end points, every `k`-th step and the last.

use crate::run::Run;
use crate::Error;

/// The most steps a fixed-step run may take.
const MAX_STEPS: f64 = 1e12;

/// How many steps lie between samples: `dt_out / h`, which must be (within `1e-9`) a positive
/// integer; without `dt_out`, the integer nearest to `T / (1000·h)`, at least 1.
pub(crate) fn sample_every(h: f64, dt_out: Option<f64>, t_end: f64) -> Result<usize, Error> {
    let Some(dt) = dt_out else {
        return Ok((t_end / 1000.0 / h).round().max(1.0) as usize);
    };
    let k = (dt / h).round();
    if !(dt.is_finite() && k >= 1.0 && (k * h - dt).abs() <= 1e-9 * dt) {
        return Err(Error::InvalidInput(format!(
            "with a fixed step the output interval ({dt}) must be a positive multiple of the step ({h})"
        )));
    }
    Ok(k as usize)
}

/// How a fixed step is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stepping {
    /// The four stages of the classical Runge–Kutta method on the right-hand side.
    RungeKutta,
    /// The system's discrete map.
    Map,
}

/// Integrates from `x0` at 0 to `t_end` with step `h`, sampling every `every` steps into `run`
/// (the sample at 0 must already be recorded).
pub(crate) fn integrate(
    run: &mut Run,
    x0: &[f64],
    t_end: f64,
    h: f64,
    every: usize,
    stepping: Stepping,
) -> Result<(), Error> {
    let steps = (t_end / h - 1e-9).ceil().max(1.0);
    if steps > MAX_STEPS {
        return Err(Error::InvalidInput(format!(
            "the fixed step {h} needs more than {MAX_STEPS:e} steps to reach {t_end}"
        )));
    }
    let steps = steps as usize;
    let mut x = x0.to_vec();
    let mut work = Work::new(x.len());
    for i in 1..=steps {
        let t = (i - 1) as f64 * h;
        let t_new = if i == steps { t_end } else { i as f64 * h };
        match stepping {
            Stepping::RungeKutta => work.step(run, t, &mut x, t_new - t)?,
            Stepping::Map => {
                run.map(t, t_new - t, &x, &mut work.y)?;
                x.copy_from_slice(&work.y);
            }
        }
        if !x.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite {
                what: "the state",
                t: t_new,
            });
        }
        run.project(t_new, &mut x)?;
        run.stats.accepted_steps += 1;
        if i % every == 0 || i == steps {
            run.sample(t_new, &x)?;
        }
        run.progress(t_new);
    }
    Ok(())
}

/// Stage derivatives and the stage state.
struct Work {
    k: [Vec<f64>; 4],
    y: Vec<f64>,
}

impl Work {
    fn new(n: usize) -> Self {
        Work {
            k: std::array::from_fn(|_| vec![0.0; n]),
            y: vec![0.0; n],
        }
    }

    /// One step of size `h` from `(t, x)`, updating `x` in place.
    fn step(&mut self, run: &mut Run, t: f64, x: &mut [f64], h: f64) -> Result<(), Error> {
        const STAGE: [f64; 4] = [0.0, 0.5, 0.5, 1.0];
        run.rhs(t, x, &mut self.k[0])?;
        for s in 1..4 {
            let (done, rest) = self.k.split_at_mut(s);
            for (y, (x, k)) in self.y.iter_mut().zip(x.iter().zip(&done[s - 1])) {
                *y = x + STAGE[s] * h * k;
            }
            run.rhs(t + STAGE[s] * h, &self.y, &mut rest[0])?;
        }
        let [k1, k2, k3, k4] = &self.k;
        for (i, x) in x.iter_mut().enumerate() {
            *x += h / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
        }
        Ok(())
    }
}
