//! The uniform output grid `t_k = k·dt` for `t_k < T`, then `T`.

use crate::Error;

/// At most this many samples (keeps `k·dt` exact enough to stay below `T`, and memory bounded).
const MAX_SAMPLES: usize = 10_000_000;

/// A uniform output grid ending exactly at `T`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    dt: f64,
    t_end: f64,
    /// Index of the last sample (the one at `T`).
    last: usize,
}

impl Grid {
    /// The grid for `[0, t_end]` with spacing `dt`; a final gap shorter than `dt` by less than
    /// `1e-9·dt` (rounding) is merged into the previous one.
    pub(crate) fn new(t_end: f64, dt: f64) -> Result<Self, Error> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::InvalidInput(format!(
                "the output interval must be positive and finite, got {dt}"
            )));
        }
        let intervals = (t_end / dt - 1e-9).ceil().max(1.0);
        if intervals >= MAX_SAMPLES as f64 {
            return Err(Error::InvalidInput(format!(
                "the output interval {dt} gives more than {MAX_SAMPLES} samples for T = {t_end}"
            )));
        }
        Ok(Grid {
            dt,
            t_end,
            last: intervals as usize,
        })
    }

    /// The number of samples.
    pub(crate) fn len(&self) -> usize {
        self.last + 1
    }

    /// The final time `T`.
    pub(crate) fn t_end(&self) -> f64 {
        self.t_end
    }

    /// The time of sample `k` (`T` for `k` at or past the last).
    pub(crate) fn time(&self, k: usize) -> f64 {
        if k >= self.last {
            self.t_end
        } else {
            k as f64 * self.dt
        }
    }
}
