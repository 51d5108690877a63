//! Branch-offset fields: where a relative branch target lives in the word.
//!
//! The target is `address of the next instruction + 4 × offset` (offsets
//! count 4-byte units; instructions are 16 bytes). Two layouts, measured on
//! every BRA/CALL.REL/BSSY of the corpus and by bit flips (survey §4.1):
//! * sm_75–sm_89, and BSSY on every SM: the offset is a signed 48-bit field
//!   at bits 34–81, except that sm_100+ BSSY uses bit 73 for `.RECONVERGENT`,
//!   and bit 72 for `.RELIABLE`, so its field ends at bit 71 (38 bits; found by
//!   `tests/isa_corpus.rs`);
//! * sm_90 and later (BRA, CALL, ...): the low 8 bits of the offset sit in
//!   bits 16–23 and the rest, as a signed 48-bit field, at bits 34–81.
//!
//! (Mesa NAK switches layouts at sm_100; `nvdisasm` switches at sm_90.)
//!
//! LEPC with a target (sm_90+) counts bytes, not 4-byte units: a signed
//! 58-bit field at bits 24–81 (bit flips, sm_90–sm_120).

use super::bits::Field;
use crate::target::Sm;

const HIGH: Field = Field::bits(34, 81);
const HIGH_BSSY_SM100: Field = Field::bits(34, 71);
const LOW8: Field = Field::bits(16, 23);

/// Which offset layout a branch instruction uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The signed offset in one field.
    Contiguous(Field),
    /// Low 8 bits in 16–23, the rest (signed) in 34–81.
    Split,
    /// A signed offset in bytes in one field (LEPC).
    Bytes(Field),
}

/// The layout of a branch-type instruction (`is_bssy`: BSSY keeps the old
/// layout on every SM; its bits 16–19 name the barrier register).
#[inline]
pub fn layout(sm: Sm, is_bssy: bool) -> Layout {
    match (sm.number, is_bssy) {
        (n, true) if n >= 100 => Layout::Contiguous(HIGH_BSSY_SM100),
        (_, true) => Layout::Contiguous(HIGH),
        (n, false) if n >= 90 => Layout::Split,
        _ => Layout::Contiguous(HIGH),
    }
}

/// The byte offset from the next instruction to the target.
#[inline]
pub fn decode(word: u128, layout: Layout) -> i64 {
    let units = match layout {
        Layout::Contiguous(field) => field.get_signed(word),
        Layout::Split => (HIGH.get_signed(word) << 8) | LOW8.get(word) as i64,
        Layout::Bytes(field) => return field.get_signed(word),
    };
    units * 4
}

/// `word` with its offset set to `bytes` (a multiple of 4 that fits), or `None`.
#[inline]
pub fn encode(word: u128, layout: Layout, bytes: i64) -> Option<u128> {
    if let Layout::Bytes(field) = layout {
        return field.set_signed(word, bytes);
    }
    if bytes % 4 != 0 {
        return None;
    }
    let units = bytes / 4;
    match layout {
        Layout::Contiguous(field) => field.set_signed(word, units),
        Layout::Split => {
            let w = LOW8.set(word, (units & 0xff) as u64)?;
            HIGH.set_signed(w, units >> 8)
        }
        Layout::Bytes(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    #[test]
    fn self_loops_of_both_layouts() {
        // `BRA` to itself (target = address, offset -16): survey §4.1 words.
        let sm80 = join(0xfffffff000007947, 0x000fc0000383ffff);
        assert_eq!(decode(sm80, layout(Sm::new(80), false)), -16);
        let sm90 = join(0xfffffffc00fc7947, 0x000fc0000383ffff);
        assert_eq!(decode(sm90, layout(Sm::new(90), false)), -16);
        // BSSY B0 at 0xd0 to 0x160 on sm_90: offset 0x80, old layout.
        assert_eq!(decode(join(0x0000008000007945, 0), layout(Sm::new(90), true)), 0x80);
        // sm_120 `BSSY.RECONVERGENT B0, 0x170` at 0xd0: bit 73 is the modifier, not the offset.
        let reconvergent = join(0x0000009000007945, 0x000fe20003800200);
        assert_eq!(decode(reconvergent, layout(Sm::new(120), true)), 0x90);
        // sm_120 `BSSY.RELIABLE B1, 0x1ace0` at 0x1ab40: bit 72 is the modifier.
        let reliable = join(0x0000019000017945, 0x000fe20003800100);
        assert_eq!(decode(reliable, layout(Sm::new(120), true)), 0x190);
    }

    #[test]
    fn encode_inverts_decode() {
        for layout in [Layout::Contiguous(HIGH), Layout::Split] {
            for bytes in [0i64, 4, -4, 0x80, -0x590, 0x7fff_fff0, -(1 << 40)] {
                let w = encode(join(0x7947, 0), layout, bytes).unwrap();
                assert_eq!(decode(w, layout), bytes, "{layout:?} {bytes}");
                assert_eq!(w & 0xfff, 0x947, "the opcode is untouched");
            }
            assert_eq!(encode(0, layout, 2), None);
        }
        assert_eq!(encode(0, Layout::Contiguous(HIGH), 1 << 50), None);
        assert_eq!(encode(0, Layout::Contiguous(HIGH_BSSY_SM100), 1 << 40), None);
    }

    #[test]
    fn lepc_counts_bytes() {
        // sm_90 `LEPC R20, 0x20` at 0x0: bits 24–81 hold 0x10 (bit flips).
        let lepc = join(0x000000001014794e, 0x000fce0000000000);
        let layout = Layout::Bytes(Field::bits(24, 81));
        assert_eq!(decode(lepc, layout), 0x10);
        // Bit 81 is the sign.
        assert_eq!(decode(lepc | 1 << 81, layout), 0x10 - (1 << 57));
        assert_eq!(encode(lepc & !(0xff << 24), layout, 0x10), Some(lepc));
        assert_eq!(encode(0, layout, 3), Some(3 << 24));
    }
}
