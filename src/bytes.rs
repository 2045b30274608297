//! Up to eight bytes read as one integer, for hashing words and packing keys.
//!
//! Copying a chunk shorter than eight bytes into a zeroed array (`copy_from_slice`) is a call
//! to `memcpy` with a length known only at run time; the glossary linker hashes every word of
//! the site this way, and those calls were 0.8 % of a 200-chapter build's instructions. Loads
//! of four, two and one bytes give the same integer without the call.

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
    use super::load_le;

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
