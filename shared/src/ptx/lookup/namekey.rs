//! Name keys: a name of up to 16 bytes packed into two machine words, so
//! that the interner and [`super::strindex`] hash and compare names in a
//! handful of instructions, without a byte loop or a call to `memcmp`.
//!
//! Nearly every name the parser looks up is short (`%r12`, `.u32`, `ld`,
//! `.shared::cta`). A key holds its name's first and last bytes (two
//! possibly overlapping loads) and its length; for names of at most 16
//! bytes that determines the name, so equal keys mean equal names. Longer
//! names (mangled function names) hash all their bytes and are compared
//! byte for byte after their keys match.

const K: u64 = 0x517c_c1b7_2722_0a95;

/// A packed name: see the module documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameKey {
    /// First 8 bytes (or the short-name packing below).
    a: u64,
    /// Last 8 bytes (or the short-name packing below).
    b: u64,
    /// Length of the name (saturated).
    len: u32,
    /// Hash of the whole name.
    pub hash: u32,
}

impl NameKey {
    /// The key of `bytes`.
    #[inline(always)]
    pub fn new(bytes: &[u8]) -> NameKey {
        let n = bytes.len();
        // One bounds check and one load each (callers stay in bounds).
        let u64_at = |k: usize| bytes.get(k..k + 8).map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        let u32_at = |k: usize| bytes.get(k..k + 4).map_or(0, |w| u64::from(u32::from_le_bytes(w.try_into().unwrap_or([0; 4]))));
        let (a, b) = match n {
            0 => (0, 0),
            1..=3 => (u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16, 0),
            4..=7 => (u32_at(0) | u32_at(n - 4) << 32, 0),
            _ => (u64_at(0), u64_at(n - 8)),
        };
        let mut h = (a ^ (n as u64).rotate_left(59)).wrapping_mul(K);
        h = (h.rotate_left(5) ^ b).wrapping_mul(K);
        if n > 16 {
            // The middle bytes too, whole words at a time.
            let mut k = 8;
            while k < n - 8 {
                h = (h.rotate_left(5) ^ u64_at(k.min(n - 16))).wrapping_mul(K);
                k += 8;
            }
        }
        // A product's high bits mix all of its input, its low bits only the
        // input's low bits; tables index by the hash's low bits, so those
        // must come from the top of `h`. (Taking `h >> 32` made names that
        // differ only in their last bytes, `ld.param.u32` and `ld.param.u64`,
        // share the low bits and so a slot.)
        NameKey { a, b, len: n.min(u32::MAX as usize) as u32, hash: h.swap_bytes() as u32 }
    }

    /// The key from its parts ([`NameKey::parts`]): how the build script's
    /// precomputed indexes write their keys.
    pub const fn from_parts(a: u64, b: u64, len: u32, hash: u32) -> NameKey {
        NameKey { a, b, len, hash }
    }

    /// The key's words, length and hash.
    #[allow(dead_code)] // the build script's
    pub fn parts(self) -> (u64, u64, u32, u32) {
        (self.a, self.b, self.len, self.hash)
    }

    /// Whether the key determines its name (so equal keys are equal names).
    #[inline]
    pub fn is_exact(self) -> bool {
        self.len <= 16
    }

    /// Whether names with these keys may be equal: certainly equal when
    /// [`NameKey::is_exact`], otherwise the bytes decide.
    #[inline]
    pub fn matches(self, other: NameKey) -> bool {
        self.a == other.a && self.b == other.b && self.len == other.len
    }
}

/// Whether `a` (of key `ka`) equals `b` (of key `kb`).
#[inline]
pub fn same_name(ka: NameKey, a: &[u8], kb: NameKey, b: &[u8]) -> bool {
    ka.matches(kb) && (ka.is_exact() || a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_every_short_name_apart() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|b| b'a' + b % 26).collect();
            let ka = NameKey::new(&a);
            assert!(same_name(ka, &a, NameKey::new(&a), &a));
            for k in 0..n {
                let mut b = a.clone();
                b[k] ^= 1;
                assert!(!same_name(ka, &a, NameKey::new(&b), &b), "length {n}, byte {k}");
            }
            if n > 0 {
                let c = &a[..n - 1];
                assert!(!same_name(ka, &a, NameKey::new(c), c), "length {n} against a prefix");
            }
        }
    }

    /// Names that differ in one byte (any byte, the last ones included)
    /// rarely share the hash's low bits, which tables index by.
    #[test]
    fn low_hash_bits_see_every_byte() {
        for n in 1..40usize {
            let a: Vec<u8> = (0..n as u8).map(|b| b'a' + b % 26).collect();
            let mut same = 0;
            for k in 0..n {
                for bit in 0..7 {
                    let mut b = a.clone();
                    b[k] ^= 1 << bit;
                    same += usize::from(NameKey::new(&a).hash & 0xfff == NameKey::new(&b).hash & 0xfff);
                }
            }
            assert!(same <= 1, "length {n}: {same} of {} one-bit changes keep the low 12 bits", n * 7);
        }
    }

    #[test]
    fn padding_does_not_collide() {
        // "a\0" and "a" differ in length even when the packed bytes agree.
        let (x, y) = (b"a\0".as_slice(), b"a".as_slice());
        assert!(!same_name(NameKey::new(x), x, NameKey::new(y), y));
    }
}
