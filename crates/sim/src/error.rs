//! Why an integration stopped.

use std::fmt;

/// A user-supplied hook of a `System`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// The right-hand side `f(t, x)`.
    Rhs,
    /// The projection onto the constraints.
    Projection,
    /// The observer computing extra columns.
    Observer,
    /// The discrete map of a fixed-step run on a map (`Method::Map`).
    Map,
}

impl Hook {
    /// What the hook is called in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Hook::Rhs => "right-hand side",
            Hook::Projection => "projection",
            Hook::Observer => "observer",
            Hook::Map => "discrete map",
        }
    }
}

/// An integration that could not be carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The settings, the names or the initial state are unusable.
    InvalidInput(String),
    /// A hook returned an error at time `t`.
    Hook {
        /// The failing hook.
        hook: Hook,
        /// The time it was evaluated at.
        t: f64,
        /// The hook's own message.
        message: String,
    },
    /// A value the integrator cannot do without is NaN or infinite.
    NonFinite {
        /// What was not finite, e.g. "the state".
        what: &'static str,
        /// When.
        t: f64,
    },
    /// The adaptive step size fell below the minimum step.
    StepTooSmall {
        /// The time reached.
        t: f64,
        /// The step that was too small.
        h: f64,
        /// Whether the last rejections were caused by NaN or infinite values.
        non_finite: bool,
    },
    /// The adaptive integrator used up its step budget.
    TooManySteps {
        /// The time reached.
        t: f64,
        /// The budget (accepted and rejected step attempts).
        max_steps: usize,
    },
}

impl Error {
    /// The simulated time at which the integration stopped, if it had started.
    pub fn time(&self) -> Option<f64> {
        match self {
            Error::InvalidInput(_) => None,
            Error::Hook { t, .. }
            | Error::NonFinite { t, .. }
            | Error::StepTooSmall { t, .. }
            | Error::TooManySteps { t, .. } => Some(*t),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(message) => write!(f, "invalid simulation input: {message}"),
            Error::Hook { hook, t, message } => {
                write!(f, "{} failed at t = {t}: {message}", hook.describe())
            }
            Error::NonFinite { what, t } => {
                write!(f, "{what} is not finite (NaN or infinity) at t = {t}")
            }
            Error::StepTooSmall { t, h, non_finite } => {
                write!(
                    f,
                    "step size underflow at t = {t} (h = {h:e}): the solution is probably \
                     singular or blowing up there"
                )?;
                if *non_finite {
                    write!(f, " (the last trial steps produced NaN or infinity)")?;
                }
                Ok(())
            }
            Error::TooManySteps { t, max_steps } => write!(
                f,
                "gave up at t = {t} after {max_steps} step attempts: the system may be stiff or \
                 the tolerances too tight (raise max_steps or loosen rtol/atol)"
            ),
        }
    }
}

impl std::error::Error for Error {}
