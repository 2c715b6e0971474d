//! Prints the spec a fuzzing input stands for (as `fuzz/fuzz_targets/pipeline.rs` reads it):
//! `cargo run -p specgen --example show -- FILE`; or the spec of seed N of the CI run
//! (`crates/dalembert/tests/generated.rs`): `… -- --seed N`.
fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("a fuzzing input file or --seed N");
    if path == "--seed" {
        let seed: u64 = std::env::args()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .expect("a seed number");
        let raw = specgen::seed_bytes(seed);
        print!(
            "{}",
            specgen::corrupt(&specgen::generate(&raw), &raw[150..])
        );
        return;
    }
    let data = std::fs::read(path).expect("readable");
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 1 {
        print!("{}", String::from_utf8_lossy(rest));
    } else {
        let split = rest.len().saturating_sub(8);
        let spec = specgen::generate(&rest[..split]);
        print!("{}", specgen::corrupt(&spec, &rest[split..]));
    }
}
