//! f32 arithmetic: FADD, FMUL, FFMA, their packed pairs (FADD2, FMUL2,
//! FFMA2), FSEL, minimum and maximum (FMNMX, FMNMX3), MUFU approximations
//! and FCHK.
//!
//! This module owns these instructions' semantics: [`Float32Op`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num::{self, Mufu, Round};
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::form::Slot;
use crate::isa::op::{Mod, Op as Opcode};

/// Which f32 of a source each lane of a packed-f32 instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// The pair as it is (`.F32x2.HI_LO`): the low lane the first register.
    Pair,
    /// The pair's halves swapped (`.F32x2.LO_HI`).
    Swapped,
    /// One register (or an immediate), read by both lanes (`.F32`).
    Single,
}

/// The operation of FADD2, FMUL2 and FFMA2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackedOp {
    /// `a + b`.
    Add,
    /// `a * b`.
    Mul,
    /// `a * b + c`, rounded once.
    Fma,
}

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Float32Op {
    Fadd { d: u16, a: S, b: S, rnd: Round, ftz: bool, sat: bool },
    Fmul { d: u16, a: S, b: S, rnd: Round, ftz: bool, sat: bool },
    Ffma { d: u16, a: S, b: S, c: S, rnd: Round, ftz: bool, sat: bool },
    /// FHADD / FHFMA: FADD or FFMA (`c` present) whose a (FFMA: a and b)
    /// is the low or high half (`high`, per source) of its register, f16
    /// or `bf16`, widened to f32 (exact) before its negate and absolute
    /// flags apply; FHADD's b and FHFMA's c are f32.
    HalfSource { d: u16, a: S, b: S, high: [bool; 2], bf16: bool, c: Option<S>, rnd: Round, sat: bool },
    Fmnmx { d: u16, a: S, b: S, p: P, ftz: bool, nan: bool, xorsign: bool },
    /// FADD2 / FMUL2 / FFMA2: FADD, FMUL or FFMA on each f32 lane of the
    /// pair `d` (the low lane first), each source read as it selects.
    PackedF32 { d: u16, srcs: [S; 3], lanes: [Lanes; 3], op: PackedOp, rnd: Round, ftz: bool },
    Fsel { d: u16, a: S, b: S, p: P },
    Mufu { d: u16, a: S, op: Mufu },
    /// MUFU.F16 / MUFU.BF16: the function of one half of `a` (the high
    /// one with `.H1`), the result a half in the low 16 bits (the high 16
    /// written 0: not measured, and no code reads them).
    MufuHalf { d: u16, a: S, op: Mufu, bf16: bool },
    Fchk { p: u8, a: S, b: S },
    /// FMNMX3 (sm_100): FMNMX of three sources, `(a, b)` then `c`, the
    /// predicate choosing the minimum.
    Fmnmx3 { d: u16, a: S, b: S, c: S, p: P, ftz: bool, nan: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_float32(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let inst = cx.inst;
        let form = inst.form;
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            // FSEL's `-QNAN ` operand (a text slot) is the immediate its form fixes.
            Opcode::FSEL if matches!(cx.sl(2), Slot::Text(_)) => {
                let imm = form.fixed.iter().find(|(f, _)| *f == crate::isa::form::IMM32).map(|(_, v)| *v as u32).ok_or(Bad)?;
                Op::Float32(Float32Op::Fsel { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: S { r: self.rows.constant(imm), m: 0 }, p: self.psrc(cx.o(3)?)? })
            }
            Opcode::FSEL => Op::Float32(Float32Op::Fsel { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, p: self.psrc(cx.o(3)?)? }),
            Opcode::FADD | Opcode::UFADD => Op::Float32(Float32Op::Fadd { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, rnd: cx.rnd(), ftz: cx.has(Mod::FTZ), sat: cx.has(Mod::SAT) }),
            Opcode::FMUL | Opcode::UFMUL => Op::Float32(Float32Op::Fmul { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, rnd: cx.rnd(), ftz: cx.has(Mod::FTZ) || cx.has(Mod::FMZ), sat: cx.has(Mod::SAT) }),
            Opcode::FFMA | Opcode::UFFMA => Op::Float32(Float32Op::Ffma { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, rnd: cx.rnd(), ftz: cx.has(Mod::FTZ) || cx.has(Mod::FMZ), sat: cx.has(Mod::SAT) }),
            Opcode::FHADD | Opcode::FHFMA => Op::Float32(Float32Op::HalfSource {
                d: self.dst(cx.o(0)?)?,
                a: self.src(cx.o(1)?, cx.sl(1), 1)?,
                b: self.src(cx.o(2)?, cx.sl(2), 1)?,
                high: [inst.operand_tokens(1) == [Mod::H1], inst.operand_tokens(2) == [Mod::H1]],
                bf16: cx.has(Mod::BF16),
                c: if cx.opcode == Opcode::FHFMA { Some(self.src(cx.o(3)?, cx.sl(3), 1)?) } else { None },
                rnd: cx.rnd(),
                sat: cx.has(Mod::SAT),
            }),
            Opcode::FADD2 | Opcode::FMUL2 | Opcode::FFMA2 => {
                let (op, n) = match cx.opcode {
                    Opcode::FADD2 => (PackedOp::Add, 2),
                    Opcode::FMUL2 => (PackedOp::Mul, 2),
                    _ => (PackedOp::Fma, 3),
                };
                let mut srcs = [S { r: RZ, m: 0 }; 3];
                let mut lanes = [Lanes::Single; 3];
                for k in 0..n {
                    let slot = k + 1;
                    lanes[k] = match inst.operand_tokens(slot) {
                        [Mod::F32x2, Mod::HI_LO] => Lanes::Pair,
                        [Mod::F32x2, Mod::LO_HI] => Lanes::Swapped,
                        // `.F32`, or an immediate (no selection printed).
                        [Mod::F32] | [] => Lanes::Single,
                        _ => return Err(Bad),
                    };
                    let width = if lanes[k] == Lanes::Single { 1 } else { 2 };
                    srcs[k] = self.src(cx.o(slot)?, cx.sl(slot), width)?;
                }
                Op::Float32(Float32Op::PackedF32 { d: self.dst(cx.o(0)?)?, srcs, lanes, op, rnd: cx.rnd(), ftz: cx.has(Mod::FTZ) || cx.has(Mod::FMZ) })
            }
            Opcode::FMNMX3 => Op::Float32(Float32Op::Fmnmx3 {
                d: self.dst(cx.o(0)?)?,
                a: self.src(cx.o(1)?, cx.sl(1), 1)?,
                b: self.src(cx.o(2)?, cx.sl(2), 1)?,
                c: self.src(cx.o(3)?, cx.sl(3), 1)?,
                p: self.psrc(cx.o(4)?)?,
                ftz: cx.has(Mod::FTZ),
                nan: cx.has(Mod::NAN),
            }),
            Opcode::FMNMX => Op::Float32(Float32Op::Fmnmx { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, p: self.psrc(cx.o(3)?)?, ftz: cx.has(Mod::FTZ), nan: cx.has(Mod::NAN), xorsign: cx.has(Mod::XORSIGN) }),
            Opcode::MUFU => {
                let op = match toks.first().copied() {
                    Some(Mod::COS) => Mufu::Cos,
                    Some(Mod::SIN) => Mufu::Sin,
                    Some(Mod::EX2) => Mufu::Ex2,
                    Some(Mod::LG2) => Mufu::Lg2,
                    Some(Mod::RCP) => Mufu::Rcp,
                    Some(Mod::RSQ) => Mufu::Rsq,
                    Some(Mod::RCP64H) => Mufu::Rcp64h,
                    Some(Mod::RSQ64H) => Mufu::Rsq64h,
                    Some(Mod::SQRT) => Mufu::Sqrt,
                    Some(Mod::TANH) => Mufu::Tanh,
                    _ => return Err(Bad),
                };
                let (d, a) = (self.dst(cx.o(0)?)?, self.src(cx.o(1)?, cx.sl(1), 1)?);
                if cx.has(Mod::F16) || cx.has(Mod::BF16) {
                    let a = match cx.inst.operand_tokens(1) {
                        [] => a,
                        [Mod::H1] => S { m: a.m | H1H1, ..a },
                        _ => return Err(Bad),
                    };
                    Op::Float32(Float32Op::MufuHalf { d, a, op, bf16: cx.has(Mod::BF16) })
                } else {
                    Op::Float32(Float32Op::Mufu { d, a, op })
                }
            }
            Opcode::FCHK => Op::Float32(Float32Op::Fchk { p: self.pdst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)? }),
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &Float32Op) -> Result<(), InterpError> {
    match *op {
        Float32Op::Fsel { d, a, b, p } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let v = if pm >> l & 1 == 1 { w.rf(a, l) } else { w.rf(b, l) };
                w.set(d, l, v.to_bits());
            }
        }
        Float32Op::Fadd { d, a, b, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = fout(num::add32(x, y, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Float32Op::Fmul { d, a, b, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = fout(num::mul32(x, y, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Float32Op::Ffma { d, a, b, c, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let z = if ftz { num::ftz32(w.rf(c, l)) } else { w.rf(c, l) };
                let v = fout(num::fma32(x, y, z, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Float32Op::HalfSource { d, a, b, high, bf16, c, rnd, sat } => {
            // A half source widened, then its flags.
            let widened = |w: &Warp, s: S, high: bool, l: usize| {
                let raw = w.raw(S { r: s.r, m: 0 }, l);
                let half = if high { (raw >> 16) as u16 } else { raw as u16 };
                let mut bits = (num::half_to_f64(half, bf16) as f32).to_bits();
                if s.m & ABS != 0 {
                    bits &= 0x7fff_ffff;
                }
                if s.m & NEG != 0 {
                    bits ^= 0x8000_0000;
                }
                f32::from_bits(bits)
            };
            for l in lanes(exec) {
                let x = widened(w, a, high[0], l);
                let v = match c {
                    Some(c) => num::fma32(x, widened(w, b, high[1], l), w.rf(c, l), rnd),
                    None => num::add32(x, w.rf(b, l), rnd),
                };
                w.set(d, l, fout(v, false, sat));
            }
        }
        Float32Op::PackedF32 { d, srcs, lanes: sel, op, rnd, ftz } => {
            // The f32 that lane `half` (0 low, 1 high) of source `k` reads.
            let read = |w: &Warp, k: usize, half: u16, l: usize| {
                let s = srcs[k];
                let row = match sel[k] {
                    Lanes::Pair => s.r + half,
                    Lanes::Swapped => s.r + (1 - half),
                    Lanes::Single => s.r,
                };
                let v = w.rf(S { r: row, m: s.m }, l);
                if ftz { num::ftz32(v) } else { v }
            };
            for l in lanes(exec) {
                // Both results first: `d` may be a source.
                let mut out = [0u32; 2];
                for half in 0..2u16 {
                    let (x, y) = (read(w, 0, half, l), read(w, 1, half, l));
                    let v = match op {
                        PackedOp::Add => num::add32(x, y, rnd),
                        PackedOp::Mul => num::mul32(x, y, rnd),
                        PackedOp::Fma => num::fma32(x, y, read(w, 2, half, l), rnd),
                    };
                    out[usize::from(half)] = fout(v, ftz, false);
                }
                w.set(d, l, out[0]);
                w.set(d + 1, l, out[1]);
            }
        }
        Float32Op::Fmnmx { d, a, b, p, ftz, nan, xorsign } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = num::min_max_f32(x, y, pm >> l & 1 == 1, nan);
                // `.XORSIGN` (PTX `min/max.xorsign.abs`): the sign is the
                // registers' signs exclusive-ored (before `|x|`); a NaN
                // result stays the canonical NaN.
                let v = if xorsign { xorsign_of(v, w.raw(a, l), w.raw(b, l)) } else { v };
                w.set(d, l, v);
            }
        }
        Float32Op::Fmnmx3 { d, a, b, c, p, ftz, nan } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let z = if ftz { num::ftz32(w.rf(c, l)) } else { w.rf(c, l) };
                let min = pm >> l & 1 == 1;
                // A canonical NaN from the first pair is skipped by the
                // second as any NaN is, unless `.NAN` keeps it.
                let v = num::min_max_f32(f32::from_bits(num::min_max_f32(x, y, min, nan)), z, min, nan);
                w.set(d, l, v);
            }
        }
        Float32Op::Mufu { d, a, op } => {
            for l in lanes(exec) {
                let x = w.rf(a, l).to_bits();
                w.set(d, l, num::mufu(op, x));
            }
        }
        Float32Op::MufuHalf { d, a, op, bf16 } => {
            for l in lanes(exec) {
                let h = w.halves(S { m: a.m & !H1H1, ..a }, l)[usize::from(a.m & H1H1 != 0)];
                w.set(d, l, u32::from(num::mufu_half(op, h, bf16)));
            }
        }
        Float32Op::Fchk { p, a, b } => {
            // Whether a / b needs the slow path: ptxas's division checks for
            // denormal, huge or special operands; this model takes the slow
            // path whenever the quotient's fast form could be inexact in range.
            let mut r = 0u32;
            for l in lanes(exec) {
                let slow = super::super::num::fchk(w.rf(a, l), w.rf(b, l));
                r |= u32::from(slow) << l;
            }
            w.setp(p, exec, r);
        }
    }
    Ok(())
}

#[inline]
fn fin(x: f32, y: f32, ftz: bool) -> (f32, f32) {
    if ftz { (num::ftz32(x), num::ftz32(y)) } else { (x, y) }
}

/// FMNMX.XORSIGN's result from the plain minimum/maximum `v` of the
/// operands' magnitudes and the registers `ra`, `rb`: a number takes the
/// exclusive-or of their signs; a NaN stays as it is.
fn xorsign_of(v: u32, ra: u32, rb: u32) -> u32 {
    if f32::from_bits(v).is_nan() { v } else { (v & 0x7fff_ffff) | ((ra ^ rb) & 0x8000_0000) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xorsign_puts_the_sign_exclusive_or_on_numbers_only() {
        // min.xorsign.abs(-2, 3) = -2; (-2, -3) = +2; (2, 3) = +2.
        assert_eq!(xorsign_of(0x4000_0000, 0xc000_0000, 0x4040_0000), 0xc000_0000);
        assert_eq!(xorsign_of(0x4000_0000, 0xc000_0000, 0xc040_0000), 0x4000_0000);
        assert_eq!(xorsign_of(0x4000_0000, 0x4000_0000, 0x4040_0000), 0x4000_0000);
        assert_eq!(xorsign_of(0, 0x8000_0000, 0), 0x8000_0000);
        assert_eq!(xorsign_of(0x7fff_ffff, 0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
    }
}
