//! Prints the spec generated from a few fixed byte strings (for eyeballing the generator).
fn main() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3)
    {
        let bytes: Vec<u8> = (0..256)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        println!("{}\n-----", specgen::generate(&bytes));
    }
}
