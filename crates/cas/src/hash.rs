//! A fast, fixed hash for the crate's memo tables.
//!
//! The tables of this crate are keyed by expressions (hash-consing in programs, the per-thread
//! memories of simplification and printing): every lookup hashes the key's bytes, and std's
//! SipHash was 6% of the instructions of deriving a 30-link chain. This is the multiply-rotate
//! hash of the Rust compiler's own tables (eight bytes a step). Its seed is fixed; nothing the
//! crate outputs depends on the order of a table.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// The multiply-rotate hash (see the module documentation).
#[derive(Clone, Copy, Default)]
pub(crate) struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        // The multiplication leaves its entropy in the high bits, and a table picks its bucket
        // by the low ones: rotate them down (without it, hash-consing a 100-link chain probed
        // 28 entries a lookup).
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn equal_keys_hash_equal_and_tails_count() {
        let build = BuildHasherDefault::<FastHasher>::default();
        let hash = |x: &[u8]| {
            let mut h = build.build_hasher();
            h.write(x);
            h.finish()
        };
        assert_eq!(hash(b"abcdefghij"), hash(b"abcdefghij"));
        assert_ne!(hash(b"abcdefghij"), hash(b"abcdefghik"));
        // A zero byte at the end is not the same as none.
        assert_ne!(hash(b"abc"), hash(b"abc\0"));
        let mut map: FastMap<String, usize> = FastMap::default();
        map.insert("x".to_string(), 1);
        assert_eq!(map.get("x"), Some(&1));
        assert_ne!(build.hash_one("x"), build.hash_one("y"));
    }
}
