//! The public face of integration: [`System`], [`Settings`], [`Trajectory`] (integrated by
//! `System::integrate`, in `integrate.rs`).

use crate::Error;

/// Default relative tolerance of [`Method::Dopri5`]: about eight correct digits.
pub const DEFAULT_RTOL: f64 = 1e-9;
/// Default absolute tolerance of [`Method::Dopri5`], for components passing through zero.
pub const DEFAULT_ATOL: f64 = 1e-12;
/// Default budget of step attempts (accepted plus rejected) of [`Method::Dopri5`].
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;
/// The name of the time column of a [`Trajectory`].
pub const TIME_COLUMN: &str = "t";

/// The right-hand side `f(t, x, xdot)`.
type RhsFn<'a> = Box<dyn FnMut(f64, &[f64], &mut [f64]) -> Result<(), String> + 'a>;
/// The projection `p(t, x)`, in place.
type ProjectionFn<'a> = Box<dyn FnMut(f64, &mut [f64]) -> Result<(), String> + 'a>;
/// The observer `o(t, x)`, giving the extra columns.
type ObserverFn<'a> = Box<dyn FnMut(f64, &[f64]) -> Result<Vec<f64>, String> + 'a>;
/// The progress callback.
type ProgressFn<'a> = Box<dyn FnMut(f64) + 'a>;
/// A discrete map `m(t, h, x, x_next)`: one step of a one-step method given whole.
type MapFn<'a> = Box<dyn FnMut(f64, f64, &[f64], &mut [f64]) -> Result<(), String> + 'a>;

/// A first-order system `x' = f(t, x)` with its optional hooks (see the crate documentation).
pub struct System<'a> {
    pub(crate) state_names: Vec<String>,
    pub(crate) rhs: RhsFn<'a>,
    pub(crate) projection: Option<ProjectionFn<'a>>,
    pub(crate) extra_names: Vec<String>,
    pub(crate) observer: Option<ObserverFn<'a>>,
    pub(crate) progress: Option<ProgressFn<'a>>,
    pub(crate) map: Option<MapFn<'a>>,
}

impl<'a> System<'a> {
    /// A system with one named state per component and right-hand side `rhs(t, x, xdot)`.
    pub fn new(
        state_names: Vec<String>,
        rhs: impl FnMut(f64, &[f64], &mut [f64]) -> Result<(), String> + 'a,
    ) -> Self {
        System {
            state_names,
            rhs: Box::new(rhs),
            projection: None,
            extra_names: Vec::new(),
            observer: None,
            progress: None,
            map: None,
        }
    }

    /// Adds the discrete map `map(t, h, x, x_next)` that [`Method::Map`] steps with (a
    /// variational integrator's step, which no right-hand side gives).
    pub fn with_map(
        mut self,
        map: impl FnMut(f64, f64, &[f64], &mut [f64]) -> Result<(), String> + 'a,
    ) -> Self {
        self.map = Some(Box::new(map));
        self
    }

    /// Adds a projection applied in place after every accepted step and to every sample.
    pub fn with_projection(
        mut self,
        projection: impl FnMut(f64, &mut [f64]) -> Result<(), String> + 'a,
    ) -> Self {
        self.projection = Some(Box::new(projection));
        self
    }

    /// Adds an observer returning one value per name in `extra_names` at every sample.
    pub fn with_observer(
        mut self,
        extra_names: Vec<String>,
        observer: impl FnMut(f64, &[f64]) -> Result<Vec<f64>, String> + 'a,
    ) -> Self {
        self.extra_names = extra_names;
        self.observer = Some(Box::new(observer));
        self
    }

    /// Adds a callback receiving the time reached after every accepted step.
    pub fn with_progress(mut self, progress: impl FnMut(f64) + 'a) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// Checks the state count and that column names are unique and distinct from the time's.
    pub(crate) fn check_names(&self, x0: &[f64]) -> Result<(), Error> {
        if x0.is_empty() || x0.len() != self.state_names.len() {
            return Err(Error::InvalidInput(format!(
                "{} state names for an initial state of {} components (need at least one)",
                self.state_names.len(),
                x0.len()
            )));
        }
        if let Some(i) = x0.iter().position(|v| !v.is_finite()) {
            return Err(Error::InvalidInput(format!(
                "initial value of {} is {}",
                self.state_names[i], x0[i]
            )));
        }
        let mut seen = vec![TIME_COLUMN];
        for name in self.state_names.iter().chain(&self.extra_names) {
            if seen.contains(&name.as_str()) {
                return Err(Error::InvalidInput(format!(
                    "duplicate column name `{name}`"
                )));
            }
            seen.push(name);
        }
        Ok(())
    }
}

/// Options of the adaptive Dormand–Prince 5(4) method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dopri5Options {
    /// Relative tolerance (default [`DEFAULT_RTOL`]).
    pub rtol: f64,
    /// Absolute tolerance (default [`DEFAULT_ATOL`]).
    pub atol: f64,
    /// Budget of step attempts before [`Error::TooManySteps`] (default [`DEFAULT_MAX_STEPS`]).
    pub max_steps: usize,
    /// Largest step; `None` means `T`.
    pub h_max: Option<f64>,
}

impl Default for Dopri5Options {
    fn default() -> Self {
        Dopri5Options {
            rtol: DEFAULT_RTOL,
            atol: DEFAULT_ATOL,
            max_steps: DEFAULT_MAX_STEPS,
            h_max: None,
        }
    }
}

impl Dopri5Options {
    /// The default options with tolerances `rtol` and `atol`.
    pub fn with_tolerances(rtol: f64, atol: f64) -> Self {
        Dopri5Options {
            rtol,
            atol,
            ..Self::default()
        }
    }

    fn check(&self) -> Result<(), Error> {
        let tolerance_ok = |v: f64| v.is_finite() && v >= 0.0;
        if !(tolerance_ok(self.rtol) && tolerance_ok(self.atol) && self.rtol + self.atol > 0.0) {
            return Err(Error::InvalidInput(format!(
                "tolerances must be finite, non-negative and not both zero (rtol = {}, atol = {})",
                self.rtol, self.atol
            )));
        }
        if self.max_steps == 0 {
            return Err(Error::InvalidInput("max_steps must be positive".into()));
        }
        match self.h_max {
            Some(h) if !(h.is_finite() && h > 0.0) => Err(Error::InvalidInput(format!(
                "h_max must be positive and finite, got {h}"
            ))),
            _ => Ok(()),
        }
    }
}

/// The integration method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Adaptive Dormand–Prince 5(4) with dense output (the default).
    Dopri5(Dopri5Options),
    /// Classical fourth-order Runge–Kutta with fixed step `h`.
    Rk4 {
        /// The step.
        h: f64,
    },
    /// The system's own discrete map ([`System::with_map`]) with fixed step `h`, sampled as
    /// [`Method::Rk4`] is.
    Map {
        /// The step.
        h: f64,
    },
}

impl Default for Method {
    fn default() -> Self {
        Method::Dopri5(Dopri5Options::default())
    }
}

/// What to integrate over and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Final time `T > 0` (integration starts at 0).
    pub t_end: f64,
    /// Output interval; `None` means `T/1000` (DOPRI5) or the multiple of `h` nearest to it (RK4).
    pub dt_out: Option<f64>,
    /// The method.
    pub method: Method,
}

impl Settings {
    /// DOPRI5 with default options to `t_end`, sampling every `t_end/1000`.
    pub fn new(t_end: f64) -> Self {
        Settings {
            t_end,
            dt_out: None,
            method: Method::default(),
        }
    }

    /// The same settings with output interval `dt_out`.
    pub fn with_dt_out(self, dt_out: f64) -> Self {
        Settings {
            dt_out: Some(dt_out),
            ..self
        }
    }

    /// The same settings with method `method`.
    pub fn with_method(self, method: Method) -> Self {
        Settings { method, ..self }
    }

    pub(crate) fn check(&self) -> Result<(), Error> {
        if !(self.t_end.is_finite() && self.t_end > 0.0) {
            return Err(Error::InvalidInput(format!(
                "the final time must be positive and finite, got {}",
                self.t_end
            )));
        }
        match self.method {
            Method::Dopri5(options) => options.check(),
            Method::Rk4 { h } if !(h.is_finite() && h > 0.0) => Err(Error::InvalidInput(format!(
                "the RK4 step must be positive and finite, got {h}"
            ))),
            Method::Rk4 { .. } => Ok(()),
            Method::Map { h } if !(h.is_finite() && h > 0.0) => Err(Error::InvalidInput(format!(
                "the step of the discrete map must be positive and finite, got {h}"
            ))),
            Method::Map { .. } => Ok(()),
        }
    }
}

/// Work counters of one integration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Accepted steps.
    pub accepted_steps: usize,
    /// Rejected step attempts (error too large, or NaN/infinity).
    pub rejected_steps: usize,
    /// Evaluations of the right-hand side.
    pub rhs_evaluations: usize,
}

/// The sampled solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Names of the state components, in order.
    pub state_names: Vec<String>,
    /// Names of the observer's extra columns, in order.
    pub extra_names: Vec<String>,
    /// Sample times, increasing, from 0 to `T`.
    pub times: Vec<f64>,
    /// `states[k]` is the state at `times[k]`.
    pub states: Vec<Vec<f64>>,
    /// `extras[k]` is the observer's output at `times[k]` (empty without an observer).
    pub extras: Vec<Vec<f64>>,
    /// Work counters.
    pub stats: Stats,
}

impl Trajectory {
    /// All column names: [`TIME_COLUMN`], then states, then extras.
    pub fn column_names(&self) -> Vec<&str> {
        let rest = self.state_names.iter().chain(&self.extra_names);
        std::iter::once(TIME_COLUMN)
            .chain(rest.map(String::as_str))
            .collect()
    }

    /// The values of the column called `name` over time, if there is one.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        if name == TIME_COLUMN {
            return Some(self.times.clone());
        }
        let pick = |rows: &[Vec<f64>], i: usize| {
            rows.iter()
                .map(|row| row.get(i).copied().unwrap_or(f64::NAN))
                .collect()
        };
        if let Some(i) = self.state_names.iter().position(|n| n == name) {
            return Some(pick(&self.states, i));
        }
        let i = self.extra_names.iter().position(|n| n == name)?;
        Some(pick(&self.extras, i))
    }
}
