//! Decimal digits of indices for printed code (`jac[4321]`, `t17`), without the formatting
//! machinery: slots and values are printed by the thousand.

/// The numbers below this are printed from [`SMALL_DECIMALS`].
const SMALL: usize = 10_000;

/// The digits of `0, 1, …, SMALL − 1` one after the other, and where each number ends: made
/// when the compiler builds the program, so that printing one is taking a slice.
const SMALL_DIGITS: ([u8; SMALL * 4], [u16; SMALL + 1]) = small_digits();

/// Where each number of [`SMALL_DECIMALS`] ends.
static SMALL_ENDS: [u16; SMALL + 1] = SMALL_DIGITS.1;

/// [`SMALL_DIGITS`]'s digits as text (valid UTF-8, checked by the compiler).
const SMALL_DECIMALS: &str = match std::str::from_utf8(&SMALL_DIGITS.0) {
    Ok(text) => text,
    Err(_) => panic!("decimal digits are ASCII"),
};

/// The digits of every number below [`SMALL`], and where each ends.
const fn small_digits() -> ([u8; SMALL * 4], [u16; SMALL + 1]) {
    let mut digits = [0u8; SMALL * 4];
    let mut ends = [0u16; SMALL + 1];
    let (mut at, mut k) = (0, 0);
    while k < SMALL {
        let len = if k < 10 {
            1
        } else if k < 100 {
            2
        } else if k < 1000 {
            3
        } else {
            4
        };
        let (mut rest, mut i) = (k, len);
        while i > 0 {
            i -= 1;
            digits[at + i] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        at += len;
        k += 1;
        ends[k] = at as u16;
    }
    (digits, ends)
}

/// The decimal digits of `k`, without the formatting machinery (names of slots and values are
/// printed by the thousand: `jac[4321]`, `t17`): read from a table built at compile time below
/// [`SMALL`], else written into `buffer`.
pub fn decimal(k: usize, buffer: &mut [u8; 20]) -> &str {
    if k < SMALL {
        return &SMALL_DECIMALS[usize::from(SMALL_ENDS[k])..usize::from(SMALL_ENDS[k + 1])];
    }
    let mut at = buffer.len();
    let mut rest = k;
    loop {
        at -= 1;
        buffer[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    std::str::from_utf8(&buffer[at..]).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    #[test]
    fn decimals_are_spelled_as_display_spells_them() {
        let mut buffer = [0u8; 20];
        for k in (0..20_000).chain([1_000_000, usize::MAX]) {
            assert_eq!(super::decimal(k, &mut buffer), k.to_string());
        }
    }
}
