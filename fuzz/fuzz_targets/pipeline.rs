//! The whole `derive` pipeline (parse → resolve → derive → JSON, LaTeX, C, Rust) under
//! libFuzzer, with small budgets. See `docs/fuzzing.md`.
//!
//! The first byte chooses the input's reading: odd — the rest is raw spec text (any bytes; not
//! UTF-8 is answered as the CLI answers it); even — the rest drives `specgen`, which builds a valid
//! spec (and, with the last bytes, may damage it in one place), so that mutations reach the
//! derivation and the emitters instead of dying in the parser. A panic anywhere is a crash; the
//! run's `-timeout` and `-rss_limit_mb` catch hangs and swells.
//!
//! The fuzzer holds the CLI's per-user lock (`dalembert::lock`) from its first input on, so a
//! `dalembert` started during a fuzzing run waits for it instead of being aborted by Symbolica's
//! one-process limit (and the fuzzer waits for a running `dalembert` before its first input).
#![no_main]

use dalembert::{Budgets, Code, Target};
use libfuzzer_sys::fuzz_target;

const ALL: [Target; 4] = [Target::Json, Target::Latex, Target::C, Target::Rust];

/// Every input is rendered to JSON; one in eight (chosen by the mode byte) to every target, whose
/// equality saturation and code generation cost ten times the derivation.
fn exercise(source: &str, every_target: bool) {
    let targets: &[Target] = if every_target { &ALL } else { &ALL[..1] };
    match dalembert::derive_spec(source, targets, &Budgets::fuzzing()) {
        Ok(artifacts) => assert_eq!(artifacts.len(), if every_target { 6 } else { 1 }),
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty());
            for d in &diagnostics {
                // Without a place in the spec, only the operation budget may refuse it.
                match d.span() {
                    Some(span) => assert!(span.end <= source.len(), "{} outside the file", d.code),
                    None => assert_eq!(d.code, Code::E0502, "{}", d.message),
                }
            }
            let _ = dalembert::render_plain("fuzz.mech", source, &diagnostics);
        }
    }
}

/// The per-user lock, taken before the first input and held until the fuzzer exits.
static LOCK: std::sync::OnceLock<std::fs::File> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    LOCK.get_or_init(|| dalembert::lock::acquire().expect("the per-user dalembert lock"));
    // egg reports every saturation run at `info` level through the `log` crate; printing
    // them costs more than the runs. The level is set on every input because the logger
    // that forwards `log` records is installed (with its own level) when Symbolica first
    // runs. Symbolica's own output (its licence banner) does not go through `log`.
    log::set_max_level(log::LevelFilter::Warn);
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let every_target = mode % 16 < 2;
    if mode % 2 == 1 {
        if let Ok(text) = std::str::from_utf8(rest) {
            exercise(text, every_target);
        }
    } else {
        let split = rest.len().saturating_sub(8);
        let spec = specgen::generate(&rest[..split]);
        exercise(&specgen::corrupt(&spec, &rest[split..]), every_target);
    }
});
