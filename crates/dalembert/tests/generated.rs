//! The bounded fuzzing run of CI: random valid specs from `specgen` (and damaged ones) through
//! the whole `derive` pipeline, in process. The unbounded run is the cargo-fuzz target
//! `fuzz/fuzz_targets/pipeline.rs` (see `docs/fuzzing.md`).
//!
//! Every spec must either give artifacts for the targets asked or be answered with diagnostics that
//! carry a code and point inside the file; nothing may panic. Every spec is rendered to JSON and
//! every tenth to every target; every tenth (another tenth) is derived a second time and must
//! give the same bytes.
//!
//! The corpus is the 10,000 seeds from `DALEMBERT_GENERATED_SEED` (default 0); the default run
//! takes a sample of one seed in ten, spread over every residue modulo 10 (so a tenth of the
//! sample is rendered to every target), and the full run is one command away:
//!
//! ```text
//! DALEMBERT_GENERATED_STRIDE=1 cargo test --release -p dalembert --test generated
//! ```
//!
//! `DALEMBERT_GENERATED=N` sets the size of the corpus, `DALEMBERT_GENERATED_STRIDE=S` takes one
//! seed in `S` (default 10), and `DALEMBERT_GENERATED_TRACE=1` prints each seed before it runs and
//! its time after (to find a slow one).

use dalembert::{Budgets, Code, Target};

use specgen::seed_bytes as bytes;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every spec is rendered to JSON; every tenth to every target (the emitters cost four times the
/// derivation, and the cargo-fuzz run renders every target of every input).
fn targets(seed: u64) -> &'static [Target] {
    if seed.is_multiple_of(10) {
        &[Target::Json, Target::Latex, Target::C, Target::Rust]
    } else {
        &[Target::Json]
    }
}

/// The diagnostics a valid spec can still receive: a literal division by zero or infinite value
/// built by chance, constraints that are holonomic or dependent by chance, a singular Lagrangian
/// or constraint matrix, a swell past the size budget, a root of a number too large to factor
/// (the generator writes huge and tiny decimals on purpose); and for a singular Lagrangian by
/// chance, what its constraint algorithm can answer (inconsistent, unsolvable or irregular
/// constraints, and E0290 for a singular Lagrangian with forces, time dependence or `e0`, which
/// seed 003 §4 does not cover); for a vakonomic system, a singular `R` (E0304); and a derivation
/// past the fuzzing runs' time budget (E0503).
const MATHEMATICAL: [&str; 14] = [
    "E0214", "E0225", "E0227", "E0250", "E0251", "E0290", "E0301", "E0302", "E0304", "E0305",
    "E0306", "E0307", "E0501", "E0503",
];

/// How many specs derived, and how many were answered with each diagnostic code.
#[derive(Default)]
struct Tally {
    derived: usize,
    codes: std::collections::BTreeMap<String, usize>,
}

/// Checks one spec.
fn exercise(seed: u64, tally: &mut Tally) {
    let raw = bytes(seed);
    let valid = specgen::generate(&raw);
    let source = specgen::corrupt(&valid, &raw[150..]);
    let targets = targets(seed);
    let run = || dalembert::derive_spec(&source, targets, &Budgets::fuzzing());
    let outcome = std::panic::catch_unwind(run)
        .unwrap_or_else(|_| panic!("seed {seed}: the pipeline panicked on\n{source}"));
    match outcome {
        Ok(artifacts) => {
            // JSON one file, LaTeX two (body and standalone, and a .bib when it cites a
            // paper), C two, Rust one.
            let files = if targets.len() == 1 { 1 } else { 6 };
            let bib = artifacts
                .iter()
                .filter(|a| a.file_name.ends_with(".bib"))
                .count();
            assert!(
                artifacts.len() - bib == files && bib <= 1,
                "seed {seed}: {} artifacts for\n{source}",
                artifacts.len()
            );
            tally.derived += 1;
            if seed % 10 == 5 {
                // Without the time budget: a spec near it must not fail the second run by chance.
                let unhurried = Budgets {
                    time_limit: None,
                    ..Budgets::fuzzing()
                };
                let again = dalembert::derive_spec(&source, targets, &unhurried)
                    .unwrap_or_else(|_| panic!("seed {seed}: the second run failed"));
                assert!(
                    again == artifacts,
                    "seed {seed}: not deterministic:\n{source}"
                );
            }
        }
        // Of the problems without a place in the spec, only the operation budget may refuse a
        // spec.
        Err(diagnostics) if diagnostics.iter().any(|d| d.span().is_none()) => {
            assert!(
                diagnostics.iter().all(|d| d.code == Code::E0502),
                "seed {seed}: rendering failed ({}) for\n{source}",
                dalembert::render_plain("gen.mech", &source, &diagnostics)
            );
            *tally.codes.entry("E0502".into()).or_default() += 1;
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "seed {seed}: empty diagnostics");
            for d in &diagnostics {
                assert!(
                    d.span().is_some_and(|span| span.end <= source.len()),
                    "seed {seed}: diagnostic {} {:?} outside the file of {} bytes:\n{source}",
                    d.code,
                    d.span(),
                    source.len()
                );
            }
            let text = dalembert::render_plain("gen.mech", &source, &diagnostics);
            assert!(text.contains("error[E"), "seed {seed}: {text}");
            // An undamaged spec is valid by construction: only what its random mathematics can
            // make of it may be reported.
            if source == valid {
                assert!(
                    diagnostics
                        .iter()
                        .all(|d| MATHEMATICAL.contains(&d.code.as_str())),
                    "seed {seed}: the generator wrote an invalid spec:\n{text}\n{source}"
                );
            }
            *tally
                .codes
                .entry(diagnostics[0].code.to_string())
                .or_default() += 1;
        }
    }
}

/// One seed in `stride` of the corpus `first..first + corpus`: the `k`-th is
/// `first + k·stride + (k mod stride)`, so the sample meets every residue modulo `stride` (and
/// modulo 10, which decides the targets, when `stride` is 10).
fn sample(first: u64, corpus: u64, stride: u64) -> Vec<u64> {
    (0..corpus / stride)
        .map(|k| first + k * stride + k % stride)
        .collect()
}

#[test]
fn the_sample_spreads_over_the_corpus_and_the_full_run_takes_every_seed() {
    let sampled = sample(0, 10_000, 10);
    assert_eq!(sampled.len(), 1_000);
    assert!(sampled.iter().all(|&s| s < 10_000));
    assert_eq!(sampled.iter().filter(|&&s| s % 10 == 0).count(), 100);
    assert_eq!(sample(5, 10_000, 1), (5..10_005).collect::<Vec<_>>());
}

#[test]
fn generated_specs_derive_or_are_diagnosed_and_never_panic() {
    let corpus = env("DALEMBERT_GENERATED", 10_000);
    let stride = env("DALEMBERT_GENERATED_STRIDE", 10).max(1);
    let first = env("DALEMBERT_GENERATED_SEED", 0);
    let seeds = sample(first, corpus, stride);
    let count = seeds.len();
    let mut tally = Tally::default();
    let mut slowest = (std::time::Duration::ZERO, 0);
    let trace = std::env::var_os("DALEMBERT_GENERATED_TRACE").is_some();
    for seed in seeds {
        if trace {
            eprintln!("seed {seed}");
        }
        let start = std::time::Instant::now();
        exercise(seed, &mut tally);
        if trace {
            eprintln!("seed {seed} took {:?}", start.elapsed());
        }
        slowest = slowest.max((start.elapsed(), seed));
    }
    eprintln!("slowest: seed {} took {:?}", slowest.1, slowest.0);
    eprintln!(
        "{count} generated specs: {} derived; first diagnostic codes of the others: {:?}",
        tally.derived, tally.codes
    );
    // The generator must reach past the parser: most specs derive.
    assert!(
        tally.derived * 2 >= count,
        "only {} of {count} generated specs derived",
        tally.derived
    );
}

/// Finding 7 of `docs/fuzzing.md`: a vakonomic system on `se3` with five free velocities and a
/// dense symbolic `R` (21-digit numbers, `sqrt(3/2)`, `cos(10⁻²¹)`, `t`). Its closed-form inverse
/// once grew until the kernel killed the process; now `R⁻¹` is eliminated fraction-free in
/// milliseconds, and the accelerations (500,000–720,000 nodes each over one denominator, 10 s of
/// normalisation each) come from the fraction-free elimination of `R ÿ = F − ṗ`, whose entries
/// grow step by step and are refused by the size budget at an intermediate step. Without the
/// time budget, so that the answer cannot depend on the machine's speed.
#[test]
fn finding_7_a_dense_vakonomic_system_stops_at_the_size_budget() {
    let source = "system gen917
parameters m1, m2
coordinates x1
algebroid se3 {
  velocities w1, w2, w3, w4, w5, w6
}
lagrangian = m2/2*w1^2 + 3/2*w2^2 + 4/2*w3^2 + m2/2*w4^2 + m2/2*w5^2 + 3/2*w6^2 + (3)*w1*w5 + (-(123456789012345678901234567890))*w2*w3 + ((1.5)^(1/2))*w3*w5 + ((m2)/(m1))*w4*w6 + -(-((m2 + m1)/(x1)))
constraints vakonomic {
  w6 = ((x1)/(0.000000000000000000001))*w1 + (t)*w2 + (cos(0.000000000000000000001))*w4 + (x1 - 7)*w5
}
";
    let budgets = Budgets {
        time_limit: None,
        ..Budgets::fuzzing()
    };
    let Err(diagnostics) = dalembert::derive_spec(source, &[Target::Json], &budgets) else {
        panic!("the dense vakonomic system was not refused")
    };
    let text = dalembert::render_plain("finding7.mech", source, &diagnostics);
    assert_eq!(diagnostics[0].code, "E0501", "{text}");
    assert!(text.contains("the vakonomic equations"), "{text}");
    assert!(
        text.contains("an entry of the elimination of R ÿ = F − d p/dt has"),
        "{text}"
    );
}
