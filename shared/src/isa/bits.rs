//! Bit fields of a 128-bit instruction word (sm_70 and later).
//!
//! Bit `n` counts from bit 0 of the low 64-bit word to bit 127 of the high
//! word, the order `nvdisasm -hex` prints the two words in. Every field of
//! every family is a [`Field`] (a start bit and a width); fields split over
//! two places (the sm_90+ branch offset) are two fields joined by the caller.

/// A contiguous bit field: `width` bits starting at bit `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// Lowest bit.
    pub start: u8,
    /// Number of bits (1..=64).
    pub width: u8,
}

impl Field {
    /// The field of `width` bits at `start`.
    #[inline]
    pub const fn new(start: u8, width: u8) -> Field {
        Field { start, width }
    }

    /// The field covering bits `lo..=hi` (inclusive, as the tables write them).
    #[inline]
    pub const fn bits(lo: u8, hi: u8) -> Field {
        Field { start: lo, width: hi - lo + 1 }
    }

    /// The largest value the field holds.
    #[inline]
    pub const fn max(self) -> u64 {
        if self.width >= 64 { u64::MAX } else { (1u64 << self.width) - 1 }
    }

    /// The field's value in `word`.
    #[inline]
    pub const fn get(self, word: u128) -> u64 {
        ((word >> self.start) as u64) & self.max()
    }

    /// The field's value read as a two's-complement signed number.
    #[inline]
    pub const fn get_signed(self, word: u128) -> i64 {
        let v = self.get(word);
        let shift = 64 - self.width as u32;
        ((v << shift) as i64) >> shift
    }

    /// `word` with the field set to `value`; `None` when the value does not fit.
    #[inline]
    pub const fn set(self, word: u128, value: u64) -> Option<u128> {
        if value > self.max() {
            return None;
        }
        let mask = (self.max() as u128) << self.start;
        Some((word & !mask) | ((value as u128) << self.start))
    }

    /// `word` with the field set to the signed `value`; `None` when it does not fit.
    #[inline]
    pub const fn set_signed(self, word: u128, value: i64) -> Option<u128> {
        let shift = 64 - self.width as u32;
        if ((value << shift) >> shift) != value {
            return None;
        }
        self.set(word, (value as u64) & self.max())
    }
}

/// Joins the two 64-bit words `nvdisasm -hex` prints (low first) into one word.
#[inline]
pub const fn join(lo: u64, hi: u64) -> u128 {
    (hi as u128) << 64 | lo as u128
}

/// Splits a word into its (low, high) 64-bit halves.
#[inline]
pub const fn split(word: u128) -> (u64, u64) {
    (word as u64, (word >> 64) as u64)
}

/// Reads instruction words from raw little-endian bytes (16 bytes each, low
/// word first), as `nvdisasm -b` reads them. `None` when the length is not a
/// multiple of 16.
pub fn words_from_bytes(bytes: &[u8]) -> Option<Vec<u128>> {
    if bytes.len() % 16 != 0 {
        return None;
    }
    Some(bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16]))).collect())
}

/// The raw little-endian bytes of instruction words.
pub fn words_to_bytes(words: &[u128]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_and_write_both_words() {
        // sm_80 `IADD3 R4, R4, R0, R5` (FACTS.md): opcode 0x210, Rd 4, Ra 4, Rb 0, Rc 5.
        let w = join(0x0000000004047210, 0x004fc80007ffe005);
        assert_eq!(Field::bits(0, 11).get(w), 0x210);
        assert_eq!(Field::bits(16, 23).get(w), 4);
        assert_eq!(Field::bits(24, 31).get(w), 4);
        assert_eq!(Field::bits(32, 39).get(w), 0);
        assert_eq!(Field::bits(64, 71).get(w), 5);
        let w2 = Field::bits(64, 71).set(w, 9).unwrap();
        assert_eq!(Field::bits(64, 71).get(w2), 9);
        assert_eq!(split(w2).0, split(w).0, "a high-word field leaves the low word alone");
        assert_eq!(Field::bits(64, 71).set(w, 256), None, "too wide a value is refused");
    }

    #[test]
    fn signed_fields_and_straddling_fields() {
        // A field that crosses from the low into the high word.
        let f = Field::bits(60, 67);
        let w = f.set(0, 0xab).unwrap();
        assert_eq!(split(w), (0xb000_0000_0000_0000, 0xa));
        assert_eq!(f.get(w), 0xab);
        let s = Field::bits(32, 63);
        let w = s.set_signed(0, -0x18).unwrap();
        assert_eq!(s.get_signed(w), -0x18);
        assert_eq!(s.get(w), 0xffff_ffe8);
        assert_eq!(Field::bits(0, 3).set_signed(0, 8), None);
        assert_eq!(Field::bits(0, 3).set_signed(0, -8).map(|w| Field::bits(0, 3).get_signed(w)), Some(-8));
    }

    #[test]
    fn raw_bytes_round_trip() {
        let words = [join(1, 2), join(u64::MAX, 0)];
        let bytes = words_to_bytes(&words);
        assert_eq!(&bytes[..8], &1u64.to_le_bytes());
        assert_eq!(words_from_bytes(&bytes).unwrap(), words);
        assert_eq!(words_from_bytes(&bytes[..15]), None);
    }
}
