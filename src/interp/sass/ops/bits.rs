//! Bit operations: LOP3, PLOP3, funnel shifts (SHF), byte permutes (PRMT),
//! population count, bit reversal, leading one (FLO), sign extension
//! (SGXT), bit masks (BMSK) and the moves between predicates and registers
//! (P2R, R2P).
//!
//! This module owns these instructions' semantics: [`BitsOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::form::Slot;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::Operand;

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum BitsOp {
    Lop3 { d: u16, pd: u8, a: S, b: S, c: S, lut: u8, pin: P },
    Plop3 { d: [u8; 2], a: P, b: P, c: P, lut: [u8; 2] },
    Shf { d: u16, a: S, b: S, c: S, left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool },
    /// PRMT: `mode` 0 takes the selector's four nibbles; 1..6 are
    /// `.F4E .B4E .RC8 .ECL .ECR .RC16` (the byte index from the selector's
    /// low two bits, PTX ISA "prmt").
    Prmt { d: u16, a: S, b: S, c: S, mode: u8 },
    Popc { d: u16, a: S },
    Brev { d: u16, a: S },
    Flo { d: u16, a: S, signed: bool, sh: bool },
    Sgxt { d: u16, a: S, b: S, wrap: bool, signed: bool },
    P2r { d: u16, a: S, mask: S, byte: u8, uniform: bool },
    R2p { a: S, mask: u32, byte: u8 },
    /// PLOP3.LUT of the sign bits of three registers.
    Plop3Sign { d: [u8; 2], a: S, b: S, c: S, lut: [u8; 2] },
    Flou { d: u16, a: S },
    /// BMSK: `b` one bits from bit `a` (clamped, or wrapped with `.W`).
    Bmsk { d: u16, a: S, b: S, wrap: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_bits(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::LOP3 | Opcode::ULOP3 => {
                let lut = match cx.o(5)? {
                    Operand::Hex(v) => *v as u8,
                    _ => return Err(Bad),
                };
                Op::Bits(BitsOp::Lop3 { pd: self.pdst(cx.o(0)?)?, d: self.dst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, b: self.src(cx.o(3)?, cx.sl(3), 1)?, c: self.src(cx.o(4)?, cx.sl(4), 1)?, lut, pin: self.psrc(cx.o(6)?)? })
            }
            Opcode::PLOP3 | Opcode::UPLOP3 if matches!(cx.sl(2), Slot::Gpr { .. } | Slot::Ur { .. }) => {
                let (l0, l1) = match (cx.o(5)?, cx.o(6)?) {
                    (Operand::Hex(a), Operand::Hex(b)) => (*a as u8, *b as u8),
                    _ => return Err(Bad),
                };
                Op::Bits(BitsOp::Plop3Sign { d: [self.pdst(cx.o(0)?)?, self.pdst(cx.o(1)?)?], a: self.src(cx.o(2)?, cx.sl(2), 1)?, b: self.src(cx.o(3)?, cx.sl(3), 1)?, c: self.src(cx.o(4)?, cx.sl(4), 1)?, lut: [l0, l1] })
            }
            Opcode::PLOP3 | Opcode::UPLOP3 => {
                let (l0, l1) = match (cx.o(5)?, cx.o(6)?) {
                    (Operand::Hex(a), Operand::Hex(b)) => (*a as u8, *b as u8),
                    _ => return Err(Bad),
                };
                Op::Bits(BitsOp::Plop3 { d: [self.pdst(cx.o(0)?)?, self.pdst(cx.o(1)?)?], a: self.psrc(cx.o(2)?)?, b: self.psrc(cx.o(3)?)?, c: self.psrc(cx.o(4)?)?, lut: [l0, l1] })
            }
            Opcode::SHF | Opcode::USHF => {
                let bits64 = cx.has(Mod::S64) || cx.has(Mod::U64);
                let signed = cx.has(Mod::S64) || cx.has(Mod::S32);
                Op::Bits(BitsOp::Shf { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, left: cx.has(Mod::L), hi: cx.has(Mod::HI), wrap: cx.has(Mod::W), bits64, signed })
            }
            Opcode::PRMT | Opcode::UPRMT => {
                let mode = match toks[..] {
                    [] => 0,
                    [m] => match PRMT_MODES.iter().position(|x| *x == m) {
                        Some(k) => k as u8 + 1,
                        None => return Err(Bad),
                    },
                    _ => return Err(Bad),
                };
                Op::Bits(BitsOp::Prmt { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, mode })
            }
            Opcode::POPC | Opcode::UPOPC => Op::Bits(BitsOp::Popc { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)? }),
            Opcode::BREV | Opcode::UBREV => Op::Bits(BitsOp::Brev { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)? }),
            Opcode::FLO | Opcode::UFLO => Op::Bits(BitsOp::Flo { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, signed: !cx.has(Mod::U32), sh: cx.has(Mod::SH) }),
            Opcode::SGXT | Opcode::USGXT => Op::Bits(BitsOp::Sgxt { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, wrap: cx.has(Mod::W), signed: !cx.has(Mod::U32) }),
            Opcode::R2P => match cx.o(2)? {
                Operand::Imm(mask) => Op::Bits(BitsOp::R2p { a: self.src(cx.o(1)?, cx.sl(1), 1)?, mask: *mask, byte: cx.mod_value(0) }),
                _ => return Err(Bad),
            },
            Opcode::P2R | Opcode::UP2UR => Op::Bits(BitsOp::P2r { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, mask: self.src(cx.o(3)?, cx.sl(3), 1)?, byte: cx.mod_value(0), uniform: cx.opcode == Opcode::UP2UR }),
            Opcode::BMSK | Opcode::UBMSK => Op::Bits(BitsOp::Bmsk { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, wrap: cx.has(Mod::W) }),
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &BitsOp) -> Result<(), InterpError> {
    match *op {
        BitsOp::Lop3 { d, pd, a, b, c, lut, pin } => {
            let pinm = w.pm(pin);
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let v = lop3_rows(w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc), lut);
            let nz = mask_of(|l| v[l] != 0);
            w.put(d, exec, &v);
            w.setp(pd, exec, nz | pinm);
        }
        BitsOp::Plop3 { d, a, b, c, lut } => {
            let (x, y, z) = (w.pm(a), w.pm(b), w.pm(c));
            w.setp(d[0], exec, lop3(x, y, z, lut[0]));
            w.setp(d[1], exec, lop3(x, y, z, lut[1]));
        }
        BitsOp::Plop3Sign { d, a, b, c, lut } => {
            let sign = |s: S| mask_of(|l| w.raw(s, l) >> 31 == 1);
            let (x, y, z) = (sign(a), sign(b), sign(c));
            w.setp(d[0], exec, lop3(x, y, z, lut[0]));
            w.setp(d[1], exec, lop3(x, y, z, lut[1]));
        }
        BitsOp::Shf { d, a, b, c, left, hi, wrap, bits64, signed } => {
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (av, bv, cv) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            // One loop per shape, each free of per-lane shape tests.
            let out = match (left, hi, wrap, bits64, signed) {
                (true, false, false, false, _) => shf_rows::<true, false, false, false, false>(av, bv, cv),
                (true, true, false, false, _) => shf_rows::<true, true, false, false, false>(av, bv, cv),
                (true, false, true, false, _) => shf_rows::<true, false, true, false, false>(av, bv, cv),
                (true, true, true, false, _) => shf_rows::<true, true, true, false, false>(av, bv, cv),
                (false, false, false, false, false) => shf_rows::<false, false, false, false, false>(av, bv, cv),
                (false, true, false, false, false) => shf_rows::<false, true, false, false, false>(av, bv, cv),
                (false, false, false, true, false) => shf_rows::<false, false, false, true, false>(av, bv, cv),
                (false, true, false, true, false) => shf_rows::<false, true, false, true, false>(av, bv, cv),
                (false, false, false, false, true) => shf_rows::<false, false, false, false, true>(av, bv, cv),
                (false, true, false, false, true) => shf_rows::<false, true, false, false, true>(av, bv, cv),
                (false, false, false, true, true) => shf_rows::<false, false, false, true, true>(av, bv, cv),
                (false, true, false, true, true) => shf_rows::<false, true, false, true, true>(av, bv, cv),
                (l, h, wr, b64, sg) => shf_rows_any(av, bv, cv, l, h, wr, b64, sg),
            };
            w.put(d, exec, &out);
        }
        BitsOp::Prmt { d, a, b, c, mode } => {
            for l in lanes(exec) {
                let (x, sel, y) = (w.ri(a, l), w.ri(b, l), w.ri(c, l));
                w.set(d, l, prmt(x, sel, y, mode));
            }
        }
        BitsOp::Popc { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l).count_ones();
                w.set(d, l, v);
            }
        }
        BitsOp::Brev { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l).reverse_bits();
                w.set(d, l, v);
            }
        }
        BitsOp::Flo { d, a, signed, sh } => {
            for l in lanes(exec) {
                let mut v = w.ri(a, l);
                if signed && (v as i32) < 0 {
                    v = !v;
                }
                let r = if v == 0 {
                    u32::MAX
                } else if sh {
                    v.leading_zeros()
                } else {
                    31 - v.leading_zeros()
                };
                w.set(d, l, r);
            }
        }
        BitsOp::Sgxt { d, a, b, wrap, signed } => {
            for l in lanes(exec) {
                let (v, n) = (w.ri(a, l), w.ri(b, l));
                let n = if wrap { n & 31 } else { n.min(32) };
                let r = if n == 0 {
                    0
                } else if n >= 32 {
                    v
                } else if signed {
                    (((v << (32 - n)) as i32) >> (32 - n)) as u32
                } else {
                    v & ((1u32 << n) - 1)
                };
                w.set(d, l, r);
            }
        }
        BitsOp::P2r { d, a, mask, byte, uniform } => {
            // PR: P0…P6 in bits 0–6 (bit 7 and up read as clear: not
            // measured); UP2UR's UPR: UP0…UP6.
            let first = if uniform { usize::from(UP_BASE) } else { 0 };
            for l in lanes(exec) {
                let pr = (0..7).fold(0u32, |acc, k| acc | (w.p[first + k] >> l & 1) << k);
                let shift = 8 * u32::from(byte);
                let m = w.ri(mask, l) << shift;
                w.set(d, l, (w.ri(a, l) & !m) | (pr << shift & m));
            }
        }
        BitsOp::R2p { a, mask, byte } => {
            // P0…P6 from bits 0–6 of the byte (mask bits 7 and up: not measured).
            let mut bits = [0u32; 7];
            for l in lanes(exec) {
                let v = w.ri(a, l) >> (8 * u32::from(byte));
                for (k, b) in bits.iter_mut().enumerate() {
                    *b |= (v >> k & 1) << l;
                }
            }
            for (k, b) in bits.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    w.setp(k as u8, exec, *b);
                }
            }
        }
        BitsOp::Flou { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                w.set(d, l, if v == 0 { u32::MAX } else { 31 - v.leading_zeros() });
            }
        }
        BitsOp::Bmsk { d, a, b, wrap } => {
            for l in lanes(exec) {
                let (pos, len) = (w.ri(a, l), w.ri(b, l));
                let (pos, len) = if wrap { (pos & 31, len & 31) } else { (pos.min(32), len.min(32)) };
                let ones = if len >= 32 { u64::MAX } else { (1u64 << len) - 1 };
                w.set(d, l, (ones << pos) as u32);
            }
        }
    }
    Ok(())
}

/// One funnel shift of SHF: `high:lo` shifted by `sh` (clamped, or wrapped
/// with `.W`), the low or high word.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn shf1(lo: u32, sh: u32, high: u32, left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool) -> u32 {
    let limit = if bits64 { 64 } else { 32 };
    let s = if wrap { sh & (limit - 1) } else { sh.min(limit) };
    let v = u64::from(high) << 32 | u64::from(lo);
    let r: u64 = if left {
        if s >= 64 { 0 } else { v << s }
    } else if signed {
        let sv = if bits64 { v as i64 } else { i64::from(high as i32) << 32 | i64::from(lo) };
        (sv >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        v >> s
    };
    if hi { (r >> 32) as u32 } else { r as u32 }
}

/// PRMT of `a` (bytes 0–3) and `b` (bytes 4–7): with `mode` 0 each
/// nibble of `sel` picks a byte (its top bit replicating the byte's sign);
/// modes 1..6 (`.F4E .B4E .RC8 .ECL .ECR .RC16`) derive the four byte
/// indices from `sel & 3` (PTX ISA, "prmt", table of the modes).
fn prmt(a: u32, sel: u32, b: u32, mode: u8) -> u32 {
    let bytes = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
    let s = sel & 3;
    let mut out = 0u32;
    for k in 0..4u32 {
        let pick = match mode {
            1 => (s + k) & 7,
            2 => (s + 8 - k) & 7,
            3 => s,
            4 => k.max(s),
            5 => k.min(s),
            6 => 2 * (s & 1) + (k & 1),
            _ => (sel >> (4 * k)) & 0xf,
        };
        let mut byte = bytes[(pick & 7) as usize];
        if mode == 0 && pick & 8 != 0 {
            byte = if byte & 0x80 != 0 { 0xff } else { 0 };
        }
        out |= u32::from(byte) << (8 * k);
    }
    out
}

/// SHF over whole rows, one shape.
#[inline(always)]
fn shf_rows<const LEFT: bool, const HI: bool, const WRAP: bool, const B64: bool, const SIGNED: bool>(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) -> [u32; 32] {
    let mut out = [0u32; 32];
    for l in 0..32 {
        out[l] = shf1(a[l], b[l], c[l], LEFT, HI, WRAP, B64, SIGNED);
    }
    out
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shf_rows_any(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool) -> [u32; 32] {
    let mut out = [0u32; 32];
    for l in 0..32 {
        out[l] = shf1(a[l], b[l], c[l], left, hi, wrap, bits64, signed);
    }
    out
}

/// LOP3 over whole rows: the union of the minterms the table selects.
#[inline(always)]
fn lop3_rows(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], lut: u8) -> [u32; 32] {
    let mut r = [0u32; 32];
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let (na, nb, nc) = (if k & 4 != 0 { 0 } else { u32::MAX }, if k & 2 != 0 { 0 } else { u32::MAX }, if k & 1 != 0 { 0 } else { u32::MAX });
            for l in 0..32 {
                r[l] |= (a[l] ^ na) & (b[l] ^ nb) & (c[l] ^ nc);
            }
        }
    }
    r
}

fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut r = 0u32;
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let ma = if k & 4 != 0 { a } else { !a };
            let mb = if k & 2 != 0 { b } else { !b };
            let mc = if k & 1 != 0 { c } else { !c };
            r |= ma & mb & mc;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lop3_rows_match_the_table_lane_by_lane() {
        let a: [u32; 32] = std::array::from_fn(|l| (l as u32).wrapping_mul(0x9e37_79b9));
        let b: [u32; 32] = std::array::from_fn(|l| (l as u32) ^ 0x5555_aaaa);
        let c: [u32; 32] = std::array::from_fn(|l| !(l as u32) << 3);
        for lut in [0x00u8, 0xc0, 0xfc, 0x96, 0xe8, 0xf8, 0x3c, 0xff] {
            let rows = lop3_rows(&a, &b, &c, lut);
            for l in 0..32 {
                assert_eq!(rows[l], lop3(a[l], b[l], c[l], lut), "lut {lut:#x} lane {l}");
            }
        }
    }
}
