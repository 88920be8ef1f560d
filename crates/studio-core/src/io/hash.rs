//! The fingerprint that stamps files (weights, training data, lock names).

/// FNV-1a 64 of `bytes` as 16 hex digits: a cheap fingerprint of a file.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}
