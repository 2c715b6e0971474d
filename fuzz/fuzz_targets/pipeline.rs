//! The whole `derive` pipeline (parse → resolve → derive → JSON, LaTeX, C, Rust) under
//! libFuzzer, with small budgets. See `docs/fuzzing.md`.
//!
//! The first byte chooses the input's reading: odd — the rest is raw spec text (any bytes; not
//! UTF-8 is answered as the CLI answers it); even — the rest drives `specgen`, which builds a valid
//! spec (and, with the last bytes, may damage it in one place), so that mutations reach the
//! derivation and the emitters instead of dying in the parser. A panic anywhere is a crash; the
//! run's `-timeout` and `-rss_limit_mb` catch hangs and swells.
#![no_main]

use dalembert::{Budgets, Failure, Target};
use libfuzzer_sys::fuzz_target;

const TARGETS: [Target; 4] = [Target::Json, Target::Latex, Target::C, Target::Rust];

fn budgets() -> Budgets {
    let mut budgets = Budgets::default();
    budgets.derive.max_terms = 20_000;
    budgets.code.egraph.nodes = 2_000;
    budgets.code.egraph.iterations = 3;
    budgets.max_ops = Some(200_000);
    budgets
}

fn exercise(source: &str) {
    match dalembert::derive_spec(source, &TARGETS, &budgets()) {
        Ok(artifacts) => assert_eq!(artifacts.len(), 5),
        Err(Failure::Spec(diagnostics)) => {
            assert!(!diagnostics.is_empty());
            for d in &diagnostics {
                assert!(d.primary.span.end <= source.len(), "{} outside the file", d.code);
            }
            let _ = dalembert::render_plain("fuzz.mech", source, &diagnostics);
        }
        Err(Failure::Output(message)) => assert!(message.contains("E0502"), "{message}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 1 {
        if let Ok(text) = std::str::from_utf8(rest) {
            exercise(text);
        }
    } else {
        let split = rest.len().saturating_sub(8);
        let spec = specgen::generate(&rest[..split]);
        exercise(&specgen::corrupt(&spec, &rest[split..]));
    }
});
