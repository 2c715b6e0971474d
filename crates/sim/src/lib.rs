//! Numerical integration of derived equations of motion, with CSV and SVG output.
//!
//! This crate is the numeric back end of `dalembert simulate`. It knows nothing about mechanics:
//! a [`System`] is a first-order ODE `x' = f(t, x)` given as a closure, plus optional hooks.
//!
//! # The system and its hooks
//!
//! - the right-hand side `f(t, x, xdot) -> Result<(), String>` fills `xdot`; an `Err` (say
//!   "denominator m*r^2 vanished") stops the integration with an [`Error::Hook`] that carries the
//!   time of the failing evaluation;
//! - an optional *projection* `p(t, x)` moves an accepted state back onto the constraint
//!   manifold; it runs after every accepted step, and on a copy of every output sample;
//! - an optional *observer* `o(t, x) -> Vec<f64>` computes extra columns (energy, multipliers,
//!   constraint residuals) at each output sample; it never influences the integration;
//! - an optional *progress* callback receives the time reached after every accepted step (see
//!   [`Progress`] for a terminal progress bar built on it).
//!
//! Time always starts at `t = 0` and runs to `t_end = T > 0`.
//!
//! # Methods
//!
//! [`Method::Dopri5`] is the adaptive Dormand–Prince 5(4) pair (Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §II.5): seven stages, first-same-as-last, local error estimated from the
//! embedded 4th-order solution, measured in the mixed norm
//! `sqrt(mean((err_i / (atol + rtol·max(|x_i|, |x_new_i|)))²))`, accepted when that norm is ≤ 1.
//! The next step is `h·clamp(0.9·err^(-1/5), 0.2, 5)` (never growing right after a rejection),
//! capped by `h_max` (default `T`). The first step follows Hairer's `hinit` heuristic. A step
//! whose result or error estimate is NaN or infinite is rejected and the step shrunk fivefold.
//! Nothing can loop forever: a step below `16·ε·max(|t|, T)` ends in [`Error::StepTooSmall`],
//! and more than `max_steps` step attempts in [`Error::TooManySteps`]. The defaults,
//! `rtol = 1e-9` and `atol = 1e-12` ([`DEFAULT_RTOL`], [`DEFAULT_ATOL`]), give eight to nine
//! correct digits for O(1) mechanical states (on `x'' = −x` over `T = 10`: error and energy
//! drift about 1e-9, some 130 steps per period); `atol` only matters for components passing
//! through zero.
//!
//! [`Method::Rk4`] is the classical fourth-order Runge–Kutta method with a fixed step `h`
//! (the last step shortened to land on `T`), for reproducing textbook results and convergence
//! studies.
//!
//! [`Method::Map`] steps with the system's own discrete map ([`System::with_map`]: a whole step
//! `(t, h, x) ↦ x_next`, such as a variational integrator's, which no right-hand side gives)
//! with a fixed step, sampled as RK4 is.
//!
//! # Output sampling
//!
//! With DOPRI5, samples lie on the uniform grid `t_k = k·dt_out` (`k = 0, 1, …`) with `t_k < T`,
//! followed by `T` itself, whatever step sizes the controller takes (`dt_out` defaults to
//! `T/1000`). A sample inside a step comes from DOPRI5's 4th-order continuous extension (dense
//! output); when a projection is given, the interpolated state is then projected (a copy: the
//! integration itself continues from the projected step end points), so recorded samples satisfy
//! the constraints as well as step end points do. The sample at `t = 0` is the initial state as
//! given, never projected.
//!
//! With RK4, samples are step end points `t_i = i·h`, one every `k = round(dt_out/h)` steps
//! (`dt_out` must then be a multiple of `h`), plus `T`.
//!
//! # Output files
//!
//! [`write_csv`] writes time, states and extras with Rust's shortest round-trip formatting, and
//! [`plot_svg`] draws stacked [`Panel`]s into a self-contained SVG written by hand (no font
//! metrics needed). Both are deterministic: equal inputs give byte-identical outputs.
//!
//! # Example
//!
//! ```
//! use sim::{plot_svg, write_csv, Panel, Progress, Scale, Settings, System};
//!
//! // x'' = −x as (x, v), with the energy and its error as extra columns.
//! let progress = Progress::new(10.0);
//! let mut system = System::new(vec!["x".into(), "v".into()], |_t, x, xdot| {
//!     xdot[0] = x[1];
//!     xdot[1] = -x[0];
//!     Ok(())
//! })
//! .with_observer(vec!["E".into(), "dE".into()], |_t, x| {
//!     let energy = 0.5 * (x[0] * x[0] + x[1] * x[1]);
//!     Ok(vec![energy, energy - 0.5])
//! })
//! .with_progress(|t| progress.update(t));
//! let trajectory = system.integrate(&[1.0, 0.0], &Settings::new(10.0).with_dt_out(0.01))?;
//! progress.finish();
//! assert_eq!(trajectory.times.len(), 1001);
//!
//! let mut csv = Vec::new();
//! write_csv(&trajectory, &mut csv)?;
//! let panels = [
//!     Panel::new("states", "value").with_columns(&trajectory, &["x", "v"])?,
//!     Panel::new("energy error", "|E − E0|")
//!         .with_columns(&trajectory, &["dE"])?
//!         .with_scale(Scale::Log { floor: 1e-18 }),
//! ];
//! let svg = plot_svg(&trajectory, &panels);
//! assert!(svg.starts_with("<?xml"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod csv;
mod dopri5;
mod error;
mod grid;
mod integrate;
mod plot;
mod progress;
mod rk4;
mod run;
mod system;
mod ticks;

pub use csv::write_csv;
pub use error::{Error, Hook};
pub use plot::{plot_svg, Panel, Scale, Series};
pub use progress::{Progress, Spinner};
pub use system::{
    Dopri5Options, Method, Settings, Stats, System, Trajectory, DEFAULT_ATOL, DEFAULT_MAX_STEPS,
    DEFAULT_RTOL, TIME_COLUMN,
};
