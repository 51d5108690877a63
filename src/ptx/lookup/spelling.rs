//! Looking up dotted spellings (`.u32`, `.global`) in the small tables of
//! types and state spaces.
//!
//! Declarations and statements ask these tables for every dotted word, and
//! a search by string comparison calls the library's byte comparison for
//! each entry of the same length. Spellings of up to seven bytes (nearly
//! all) are instead packed with their length into one number, so the
//! search compares integers.

/// The packed form of a spelling too long to pack (never equal to a packed
/// short one: its length byte would be 255).
const LONG: u64 = u64::MAX;

/// A spelling of at most seven bytes as one number: the bytes, and the
/// length in the top byte (so that no two spellings share a number).
pub(crate) const fn pack(s: &[u8]) -> u64 {
    if s.len() > 7 {
        return LONG;
    }
    let mut v = (s.len() as u64) << 56;
    let mut i = 0;
    while i < s.len() {
        v |= (s[i] as u64) << (8 * i);
        i += 1;
    }
    v
}

/// The packed spellings of a table, in its order.
pub(crate) const fn pack_all<T: Copy, const N: usize>(table: &[(T, &str)]) -> [u64; N] {
    let mut out = [LONG; N];
    let mut i = 0;
    while i < N && i < table.len() {
        out[i] = pack(table[i].1.as_bytes());
        i += 1;
    }
    out
}

/// The entry of `table` spelled `s` (`packed` being `pack_all(table)`).
#[inline]
pub(crate) fn find<T: Copy>(s: &str, table: &[(T, &'static str)], packed: &[u64]) -> Option<T> {
    let p = pack(s.as_bytes());
    if p == LONG {
        return table.iter().find(|(_, n)| *n == s).map(|(t, _)| *t);
    }
    packed.iter().position(|&q| q == p).and_then(|k| table.get(k)).map(|(t, _)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::ast::{ScalarType, StateSpace};

    #[test]
    fn packing_keeps_length_and_bytes_apart() {
        assert_ne!(pack(b".u32"), pack(b".u32\0"));
        assert_ne!(pack(b""), pack(b"\0"));
        assert_ne!(pack(b".u32"), pack(b".u23"));
        assert_eq!(pack(b"12345678"), LONG);
        assert_ne!(pack(b"1234567"), LONG);
    }

    #[test]
    fn every_spelling_is_found_and_nothing_else() {
        for &(t, s) in ScalarType::SPELLINGS {
            assert_eq!(ScalarType::from_spelling(s), Some(t), "{s}");
        }
        for &(k, s) in StateSpace::SPELLINGS {
            assert_eq!(StateSpace::from_spelling(s), Some(k), "{s}");
        }
        for not in ["", ".", ".u3", ".u32\0", "u32", ".u32 ", ".shared::clusterx", ".globalx", "\u{ff}"] {
            assert_eq!(ScalarType::from_spelling(not), None, "{not:?}");
            assert_eq!(StateSpace::from_spelling(not), None, "{not:?}");
        }
    }
}
