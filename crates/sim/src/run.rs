//! One integration in progress: calls the hooks, counts work, collects samples.

use crate::{Error, Hook, Stats, System, Trajectory};

/// The hooks of a [`System`] with counters and the samples recorded so far.
pub(crate) struct Run<'s, 'a> {
    system: &'s mut System<'a>,
    pub(crate) stats: Stats,
    times: Vec<f64>,
    states: Vec<Vec<f64>>,
    extras: Vec<Vec<f64>>,
}

impl<'s, 'a> Run<'s, 'a> {
    /// A run of `system` with nothing recorded yet.
    pub(crate) fn new(system: &'s mut System<'a>) -> Self {
        Run {
            system,
            stats: Stats::default(),
            times: Vec::new(),
            states: Vec::new(),
            extras: Vec::new(),
        }
    }

    /// Evaluates `xdot = f(t, x)`.
    pub(crate) fn rhs(&mut self, t: f64, x: &[f64], xdot: &mut [f64]) -> Result<(), Error> {
        self.stats.rhs_evaluations += 1;
        (self.system.rhs)(t, x, xdot).map_err(|message| Error::Hook {
            hook: Hook::Rhs,
            t,
            message,
        })
    }

    /// One step of the discrete map from `(t, x)` of length `h` into `next`.
    pub(crate) fn map(&mut self, t: f64, h: f64, x: &[f64], next: &mut [f64]) -> Result<(), Error> {
        self.stats.rhs_evaluations += 1;
        let Some(map) = self.system.map.as_mut() else {
            return Err(Error::InvalidInput(
                "the method steps with the system's discrete map, and the system has none".into(),
            ));
        };
        map(t, h, x, next).map_err(|message| Error::Hook {
            hook: Hook::Map,
            t,
            message,
        })
    }

    /// Whether the system has a projection.
    pub(crate) fn has_projection(&self) -> bool {
        self.system.projection.is_some()
    }

    /// Projects `x` in place (nothing without a projection); the result must be finite.
    pub(crate) fn project(&mut self, t: f64, x: &mut [f64]) -> Result<(), Error> {
        let Some(projection) = self.system.projection.as_mut() else {
            return Ok(());
        };
        projection(t, x).map_err(|message| Error::Hook {
            hook: Hook::Projection,
            t,
            message,
        })?;
        if x.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(Error::NonFinite {
                what: "the projected state",
                t,
            })
        }
    }

    /// Reports progress to `t`.
    pub(crate) fn progress(&mut self, t: f64) {
        if let Some(progress) = self.system.progress.as_mut() {
            progress(t);
        }
    }

    /// Records the sample `(t, x)` with the observer's extras.
    pub(crate) fn sample(&mut self, t: f64, x: &[f64]) -> Result<(), Error> {
        let extras = match self.system.observer.as_mut() {
            None => Vec::new(),
            Some(observer) => observer(t, x).map_err(|message| Error::Hook {
                hook: Hook::Observer,
                t,
                message,
            })?,
        };
        let expected = self.system.extra_names.len();
        if extras.len() != expected {
            return Err(Error::Hook {
                hook: Hook::Observer,
                t,
                message: format!("returned {} values for {expected} names", extras.len()),
            });
        }
        self.times.push(t);
        self.states.push(x.to_vec());
        self.extras.push(extras);
        Ok(())
    }

    /// Records the sample `(t, x)` after projecting a copy of `x`.
    pub(crate) fn sample_projected(&mut self, t: f64, x: &[f64]) -> Result<(), Error> {
        let mut copy = x.to_vec();
        self.project(t, &mut copy)?;
        self.sample(t, &copy)
    }

    /// The recorded trajectory.
    pub(crate) fn finish(self) -> Trajectory {
        Trajectory {
            state_names: self.system.state_names.clone(),
            extra_names: self.system.extra_names.clone(),
            times: self.times,
            states: self.states,
            extras: self.extras,
            stats: self.stats,
        }
    }
}
