//! A terminal progress bar for simulated time, shown only when stderr is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Resolution of the bar: its length in ticks.
const TICKS: u64 = 1000;

/// A progress bar on stderr whose position is the simulated time over `T`; it draws nothing
/// when stderr is not a terminal (redirected output, CI), so logs stay clean.
///
/// Hook it into a [`crate::System`] with `with_progress(|t| progress.update(t))`.
pub struct Progress {
    bar: Option<ProgressBar>,
    t_end: f64,
}

impl Progress {
    /// A bar for an integration to `t_end`, visible only if stderr is a terminal.
    pub fn new(t_end: f64) -> Self {
        if std::io::stderr().is_terminal() {
            Self::visible(t_end)
        } else {
            Self::hidden(t_end)
        }
    }

    /// A bar that never draws.
    pub fn hidden(t_end: f64) -> Self {
        Progress { bar: None, t_end }
    }

    /// A bar drawn on stderr (indicatif itself skips drawing to a non-terminal).
    fn visible(t_end: f64) -> Self {
        let bar = ProgressBar::new(TICKS);
        let style = ProgressStyle::with_template(
            "simulating [{bar:40}] {percent:>3}% t = {msg} (eta {eta})",
        )
        .map(|style| style.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Progress {
            bar: Some(bar),
            t_end,
        }
    }

    /// Whether the bar draws anything.
    pub fn is_visible(&self) -> bool {
        self.bar.is_some()
    }

    /// The bar position for time `t`, in ticks of `0..=1000`.
    pub fn position(&self, t: f64) -> u64 {
        let fraction = t / self.t_end;
        if fraction.is_finite() {
            (fraction.clamp(0.0, 1.0) * TICKS as f64).round() as u64
        } else {
            0
        }
    }

    /// Moves the bar to simulated time `t`.
    pub fn update(&self, t: f64) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.position(t));
            bar.set_message(format!("{t:.4}"));
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A spinner on stderr while a long step runs (a derivation), shown only when stderr is a
/// terminal. Its ticking thread only draws: the work stays on the caller's thread.
pub struct Spinner {
    bar: Option<ProgressBar>,
}

impl Spinner {
    /// A spinner with `message`, ticking ten times a second, if stderr is a terminal.
    pub fn new(message: impl Into<String>) -> Self {
        if !std::io::stderr().is_terminal() {
            return Spinner { bar: None };
        }
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(message.into());
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        Spinner { bar: Some(bar) }
    }

    /// Removes the spinner from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.finish();
    }
}
