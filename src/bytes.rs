//! Eight bytes as one integer: read (for hashing words and packing keys) and tested all at once
//! (for scans over every text of the site).
//!
//! Copying a chunk shorter than eight bytes into a zeroed array (`copy_from_slice`) is a call
//! to `memcpy` with a length known only at run time; the glossary linker hashes every word of
//! the site this way, and those calls were 0.8 % of a 200-chapter build's instructions. Loads
//! of four, two and one bytes give the same integer without the call.

/// `0x01` in every byte.
pub const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte.
pub const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of the bytes of `v` that may be below `n` (at most 128). None is missed, and
/// the lowest one flagged is exact (no borrow reaches the bytes before it): the mask is empty
/// exactly when no byte is below `n`, and its lowest bit finds the first such byte.
pub fn below(v: u64, n: u8) -> u64 {
    v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH
}

/// The high bit of every byte of `v` that is zero, and of no other.
pub fn zero_bytes(v: u64) -> u64 {
    let low = !HIGH;
    !(((v & low).wrapping_add(low)) | v | low)
}

/// The eight bytes of `bytes` from `i` as a little-endian integer, if there are eight: the
/// step of every scan that goes eight bytes at a time.
pub fn eight_at(bytes: &[u8], i: usize) -> Option<u64> {
    let eight: &[u8; 8] = bytes.get(i..)?.first_chunk()?;
    Some(u64::from_le_bytes(*eight))
}

/// The bytes of `chunk` (at most eight) as a little-endian integer, the missing high bytes
/// zero: `u64::from_le_bytes` of `chunk` copied into `[0; 8]`.
pub fn load_le(chunk: &[u8]) -> u64 {
    if let Ok(whole) = <[u8; 8]>::try_from(chunk) {
        return u64::from_le_bytes(whole);
    }
    let mut v = 0u64;
    let mut at = 0;
    if let Some(four) = chunk.get(..4).and_then(|c| <[u8; 4]>::try_from(c).ok()) {
        v = u64::from(u32::from_le_bytes(four));
        at = 4;
    }
    if let Some(two) = chunk
        .get(at..at + 2)
        .and_then(|c| <[u8; 2]>::try_from(c).ok())
    {
        v |= u64::from(u16::from_le_bytes(two)) << (8 * at);
        at += 2;
    }
    if let Some(&one) = chunk.get(at) {
        v |= u64::from(one) << (8 * at);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::{below, eight_at, load_le, zero_bytes};
    use proptest::prelude::*;

    proptest! {
        /// The masks agree with a byte-by-byte look, and `below`'s lowest bit is exact.
        #[test]
        fn masks_match_each_byte(bytes in proptest::array::uniform8(any::<u8>()), n in 0u8..=128) {
            let v = u64::from_le_bytes(bytes);
            let zero: u64 = (0..8).filter(|&k| bytes[k] == 0).map(|k| 0x80 << (8 * k)).sum();
            prop_assert_eq!(zero_bytes(v), zero);
            let first = bytes.iter().position(|&b| b < n);
            let mask = below(v, n);
            prop_assert_eq!(mask != 0, first.is_some());
            if let Some(k) = first {
                prop_assert_eq!(mask.trailing_zeros() as usize / 8, k);
            }
        }
    }

    #[test]
    fn eight_at_reads_eight_bytes_or_none() {
        let bytes: Vec<u8> = (1..=10).collect();
        assert_eq!(
            eight_at(&bytes, 2),
            Some(u64::from_le_bytes([3, 4, 5, 6, 7, 8, 9, 10]))
        );
        assert_eq!(eight_at(&bytes, 3), None);
        assert_eq!(eight_at(&bytes, 11), None);
    }

    #[test]
    fn reads_like_a_zero_filled_copy() {
        let bytes: Vec<u8> = (1..=8).map(|i| i * 17).collect();
        for len in 0..=8 {
            let mut b = [0u8; 8];
            b[..len].copy_from_slice(&bytes[..len]);
            assert_eq!(load_le(&bytes[..len]), u64::from_le_bytes(b), "{len} bytes");
        }
    }
}
