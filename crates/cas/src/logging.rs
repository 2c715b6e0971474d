//! Dependency logs: silent unless asked for.
//!
//! Symbolica reports through `tracing` and egg through `log`. Left alone, Symbolica installs a
//! subscriber of its own at first use that prints its warnings, and with it every `egg::run` INFO
//! record, between a program's own output (thousands of lines over the test suite). dalembert
//! installs its own subscriber before Symbolica's first use instead (Symbolica's documented
//! `GLOBAL_SETTINGS.initialize_tracing` switch): records of every crate are filtered by `RUST_LOG`
//! when it is set, else by the level the program asked for ([`Verbosity`]), which is `off` by
//! default. Symbolica's licence banner is not a log record and is not touched.

use std::sync::Once;

/// How much of the dependencies' logs to show when `RUST_LOG` is not set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verbosity {
    /// Nothing (the default of the tests and of the command line).
    #[default]
    Quiet,
    /// Warnings and errors.
    Warnings,
    /// Informational records too (`-v` on the command line).
    Info,
}

static INSTALL: Once = Once::new();

/// Installs the log filter, once per process; later calls (and the implicit first call made by
/// every constructor of `Expr`) do nothing. Call it with the verbosity the program wants
/// before any symbolic work.
pub fn init(verbosity: Verbosity) {
    INSTALL.call_once(|| install(verbosity));
}

/// The filter of an unset `RUST_LOG`.
fn default_filter(verbosity: Verbosity) -> &'static str {
    match verbosity {
        Verbosity::Quiet => "off",
        Verbosity::Warnings => "warn",
        Verbosity::Info => "info",
    }
}

fn install(verbosity: Verbosity) {
    symbolica::GLOBAL_SETTINGS
        .initialize_tracing
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter(verbosity)));
    // `try_init` also forwards `log` records (egg's) through the same filter; it fails only when
    // the host program installed a subscriber of its own, which then decides.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
