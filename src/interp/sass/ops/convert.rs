//! Conversions and roundings: F2F, F2I, F2IP, I2F, I2FP, F2FP (f16, bf16
//! and 8-bit floats), FRND, I2I and I2IP.
//!
//! This module owns these instructions' semantics: [`ConvertOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num::{self, Fp8, Round};
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::form::Slot;
use crate::isa::inst::Inst;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Operand, RegNum};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum ConvertOp {
    F2f { d: u16, a: S, from: Fmt, to: Fmt, rnd: Round, ftz: bool },
    F2i { d: u16, a: S, from: Fmt, to: IntFmt, rnd: Round, ftz: bool },
    /// I2F and I2FP: `shift` moves the source's selected byte or half
    /// (`R2.B1`, `R2.H1`) to the bottom first.
    I2f { d: u16, a: S, from: IntFmt, to: Fmt, rnd: Round, shift: u8 },
    F2fp { d: u16, a: S, b: S, bf16: bool, relu: bool, satfinite: bool, rnd: Round },
    /// F2FP.TF32.F32.PACK_B: the f32 `b` rounded to tf32 (10 mantissa
    /// bits, the low 13 cleared) to nearest even or toward zero; `.RELU`
    /// makes a negative value +0, `.SATFINITE` an infinite result (not an
    /// infinite NaN) the largest finite tf32. A NaN gives 0x7fffffff (the
    /// model's canonical NaN, not measured).
    F2fpTf32 { d: u16, b: S, relu: bool, satfinite: bool, toward_zero: bool },
    Frnd { d: u16, a: S, fmt: Fmt, rnd: Round, ftz: bool },
    /// I2I.{U8,S8,U16,S16}.S32.SAT: `b` saturated to the narrow type.
    I2i { d: u16, b: S, dst_signed: bool, src_signed: bool, half: bool },
    /// I2IP.{U8,S8}.{S32,U32}.SAT: `a` and `b` saturated to 8 bits, packed
    /// over the low half of `c`.
    I2ip { d: u16, a: S, b: S, c: S, dst_signed: bool, src_signed: bool, half: bool },
    /// F2FP.SATFINITE.{E4M3,E5M2}.F32.PACK_AB_MERGE_C: `a` to the high
    /// byte, `b` to the low byte, over `c`'s high half.
    F2fp8 { d: u16, a: S, b: S, c: S, fmt: Fp8 },
    /// F2FP.F16.{E4M3,E5M2}.UNPACK_B: two 8-bit floats to an f16 pair.
    F2fpUnpack { d: u16, a: S, fmt: Fp8 },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_convert(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let inst = cx.inst;
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::F2F => {
                let fmts: Vec<Fmt> = toks.iter().copied().filter_map(fmt).collect();
                let (to, from) = match fmts.as_slice() {
                    [to, from] => (*to, *from),
                    _ => return Err(Bad),
                };
                let w = if from == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, cx.o(1)?, cx.sl(1), w)?;
                Op::Convert(ConvertOp::F2f { d: self.dst(cx.o(0)?)?, a, from, to, rnd: cx.rnd(), ftz: cx.has(Mod::FTZ) })
            }
            Opcode::F2I | Opcode::UF2I => {
                let to = toks.iter().copied().find_map(int_fmt).unwrap_or(IntFmt { bits: 32, signed: true });
                let from = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let w = if from == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, cx.o(1)?, cx.sl(1), w)?;
                Op::Convert(ConvertOp::F2i { d: self.dst(cx.o(0)?)?, a, from, to, rnd: cx.int_rnd(), ftz: cx.has(Mod::FTZ) })
            }
            // F2IP.U8.F32.NTZ d, RZ, b, RZ: b converted to u8 (saturating,
            // NaN to 0) in the low byte, the rest 0: the only form ptxas
            // 13.5 emits (`cvt.rni.u8.f32` from sm_86 on). Where a and c go
            // otherwise is not measured: refused.
            Opcode::F2IP => {
                let rz = |k: usize| matches!(cx.o(k), Ok(Operand::Reg { reg, mods, .. }) if reg.num == RegNum::Zero && !mods.neg && !mods.abs);
                if !(rz(1) && rz(3) && cx.has(Mod::U8) && cx.has(Mod::NTZ) && !cx.has(Mod::RELU) && inst.operand_tokens(3).is_empty()) {
                    return Err(Bad);
                }
                Op::Convert(ConvertOp::F2i { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, from: Fmt::F32, to: IntFmt { bits: 8, signed: false }, rnd: cx.int_rnd(), ftz: false })
            }
            Opcode::I2F | Opcode::I2FP | Opcode::UI2F | Opcode::UI2FP => {
                let to = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let from = toks.iter().copied().find_map(int_fmt).unwrap_or(IntFmt { bits: 32, signed: true });
                let w = if from.bits == 64 { 2 } else { 1 };
                // A byte or half of the register (`R2.B1`, `R2.H1`: the
                // operand's suffix).
                let shift = match inst.operand_tokens(1) {
                    [] => 0,
                    [Mod::B1] => 8,
                    [Mod::B2] | [Mod::H1] => 16,
                    [Mod::B3] => 24,
                    _ => return Err(Bad),
                };
                Op::Convert(ConvertOp::I2f { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), w)?, from, to, rnd: cx.rnd(), shift })
            }
            Opcode::F2FP if cx.has(Mod::E4M3) || cx.has(Mod::E5M2) => {
                let fmt = if cx.has(Mod::E4M3) { Fp8::E4M3 } else { Fp8::E5M2 };
                if cx.has(Mod::UNPACK_B) {
                    Op::Convert(ConvertOp::F2fpUnpack { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, fmt })
                } else if cx.has(Mod::PACK_AB_MERGE_C) && cx.has(Mod::SATFINITE) {
                    Op::Convert(ConvertOp::F2fp8 { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, fmt })
                } else {
                    return Err(Bad);
                }
            }
            Opcode::F2FP if cx.has(Mod::TF32) => Op::Convert(ConvertOp::F2fpTf32 {
                d: self.dst(cx.o(0)?)?,
                b: self.src(cx.o(1)?, cx.sl(1), 1)?,
                relu: cx.has(Mod::RELU),
                satfinite: cx.has(Mod::SATFINITE),
                toward_zero: cx.rnd() == Round::Zero,
            }),
            Opcode::F2FP => {
                let bf16 = cx.has(Mod::BF16);
                Op::Convert(ConvertOp::F2fp { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, bf16, relu: cx.has(Mod::RELU), satfinite: cx.has(Mod::SATFINITE), rnd: cx.rnd() })
            }
            Opcode::FRND | Opcode::UFRND => {
                let fmt = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let w = if fmt == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, cx.o(1)?, cx.sl(1), w)?;
                Op::Convert(ConvertOp::Frnd { d: self.dst(cx.o(0)?)?, a, fmt, rnd: cx.int_rnd(), ftz: cx.has(Mod::FTZ) })
            }
            Opcode::I2I | Opcode::UI2I => {
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (to, from) = match ints.as_slice() {
                    [to, from] if matches!(to.bits, 8 | 16) && from.bits == 32 && cx.has(Mod::SAT) => (*to, *from),
                    _ => return Err(Bad),
                };
                Op::Convert(ConvertOp::I2i { d: self.dst(cx.o(0)?)?, b: self.src(cx.o(1)?, cx.sl(1), 1)?, dst_signed: to.signed, src_signed: from.signed, half: to.bits == 16 })
            }
            Opcode::I2IP => {
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (to, from) = match ints.as_slice() {
                    [to, from] if matches!(to.bits, 8 | 16) && from.bits == 32 && cx.has(Mod::SAT) => (*to, *from),
                    _ => return Err(Bad),
                };
                Op::Convert(ConvertOp::I2ip { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, dst_signed: to.signed, src_signed: from.signed, half: to.bits == 16 })
            }
            _ => return Ok(None),
        }))
    }
}

impl Translator<'_> {
    /// Source 1 of a conversion or rounding (F2F, F2I, FRND): a register
    /// may name its high f16 half (`R9.H1`, operand token H1).
    fn half_aware_src(&mut self, inst: &Inst, op: &Operand, slot: &Slot, width: usize) -> R<S> {
        let a = self.src(op, slot, width)?;
        match inst.operand_tokens(1) {
            [] => Ok(a),
            [Mod::H1] => Ok(S { m: a.m | H1H1, ..a }),
            _ => Err(Bad),
        }
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &ConvertOp) -> Result<(), InterpError> {
    match *op {
        ConvertOp::F2f { d, a, from, to, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, from, ftz);
                match to {
                    Fmt::F64 => w.set64(d, l, x.to_bits()),
                    Fmt::F32 => {
                        let v = num::f64_to_f32(x, rnd);
                        let v = if ftz { num::ftz32(v) } else { v };
                        w.set(d, l, canon32(v));
                    }
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(x, rnd))),
                    Fmt::Bf16 => w.set(d, l, u32::from(num::f64_to_bf16(x, rnd))),
                }
            }
        }
        ConvertOp::F2i { d, a, from, to, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, from, ftz);
                let v = num::float_to_int(x, rnd, u32::from(to.bits), to.signed);
                if to.bits == 64 {
                    w.set64(d, l, v);
                } else {
                    let v = if to.signed && to.bits < 32 { sext(v, to.bits) } else { v as u32 };
                    w.set(d, l, v);
                }
            }
        }
        ConvertOp::I2f { d, a, from, to, rnd, shift } => {
            for l in lanes(exec) {
                let raw = if from.bits == 64 { w.r64(a, l) } else { u64::from(w.raw(a, l)) };
                let raw = (raw >> shift) & num::mask(u32::from(from.bits));
                let exact: i128 = if from.signed {
                    let sh = 64 - u32::from(from.bits);
                    i128::from(((raw << sh) as i64) >> sh)
                } else {
                    i128::from(raw)
                };
                match to {
                    Fmt::F64 => w.set64(d, l, int_to_f64(exact, rnd).to_bits()),
                    Fmt::F32 => {
                        let v = int_to_f32(exact, rnd);
                        w.set(d, l, v.to_bits());
                    }
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(int_to_f64(exact, Round::Nearest), rnd))),
                    Fmt::Bf16 => w.set(d, l, u32::from(num::f64_to_bf16(int_to_f64(exact, Round::Nearest), rnd))),
                }
            }
        }
        ConvertOp::F2fp { d, a, b, bf16, relu, satfinite, rnd } => {
            for l in lanes(exec) {
                let conv = |v: f32| -> u32 {
                    let mut x = f64::from(v);
                    if relu && (x < 0.0 || x.is_nan()) {
                        x = if x.is_nan() { x } else { 0.0 };
                    }
                    let h = if bf16 { num::f64_to_bf16(x, rnd) } else { num::f64_to_f16(x, rnd) };
                    let h = if satfinite && !x.is_nan() {
                        let inf = if bf16 { 0x7f80 } else { 0x7c00 };
                        if h & 0x7fff == inf { (h & 0x8000) | (inf - 1) } else { h }
                    } else {
                        h
                    };
                    u32::from(h)
                };
                let v = conv(w.rf(a, l)) << 16 | conv(w.rf(b, l));
                w.set(d, l, v);
            }
        }
        ConvertOp::F2fpTf32 { d, b, relu, satfinite, toward_zero } => {
            for l in lanes(exec) {
                let x = w.rf(b, l);
                let v = if x.is_nan() {
                    0x7fff_ffff
                } else {
                    let bits = if relu && x < 0.0 { 0 } else { x.to_bits() };
                    // Ties to even: half the dropped unit less one, plus the
                    // kept unit's low bit (a carry into the exponent gives
                    // the next binade or infinity, as the rounding does).
                    let up = if toward_zero { 0 } else { 0xfff + (bits >> 13 & 1) };
                    let r = bits.wrapping_add(up) & 0xffff_e000;
                    if satfinite && r & 0x7fff_ffff == 0x7f80_0000 { (r & 0x8000_0000) | 0x7f7f_e000 } else { r }
                };
                w.set(d, l, v);
            }
        }
        ConvertOp::Frnd { d, a, fmt, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, fmt, ftz);
                let r = num::round_int(x, rnd);
                match fmt {
                    Fmt::F64 => w.set64(d, l, r.to_bits()),
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(r, Round::Nearest))),
                    _ => w.set(d, l, canon32(r as f32)),
                }
            }
        }
        ConvertOp::I2i { d, b, dst_signed, src_signed, half } => {
            let bits = if half { 16 } else { 8 };
            for l in lanes(exec) {
                w.set(d, l, num::saturate_narrow(w.ri(b, l), src_signed, dst_signed, bits));
            }
        }
        ConvertOp::I2ip { d, a, b, c, dst_signed, src_signed, half } => {
            let bits = if half { 16 } else { 8 };
            for l in lanes(exec) {
                let sat = |v: u32| num::saturate_narrow(v, src_signed, dst_signed, bits);
                // 16-bit lanes fill the register (ptxas gives c as RZ).
                let above = if half { 0 } else { w.ri(c, l) << 16 };
                let v = above | (sat(w.ri(a, l)) << bits) | sat(w.ri(b, l));
                w.set(d, l, v);
            }
        }
        ConvertOp::F2fp8 { d, a, b, c, fmt } => {
            for l in lanes(exec) {
                let hi = fmt.encode_satfinite(f64::from(w.rf(a, l)));
                let lo = fmt.encode_satfinite(f64::from(w.rf(b, l)));
                let v = (w.ri(c, l) & 0xffff_0000) | u32::from(hi) << 8 | u32::from(lo);
                w.set(d, l, v);
            }
        }
        ConvertOp::F2fpUnpack { d, a, fmt } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                let h = |byte: u32| -> u32 {
                    let x = fmt.decode(byte as u8);
                    if x.is_nan() { 0x7fff } else { u32::from(num::f64_to_f16(x, Round::Nearest)) }
                };
                w.set(d, l, h(v & 0xff) | h((v >> 8) & 0xff) << 16);
            }
        }
    }
    Ok(())
}

fn sext(v: u64, bits: u8) -> u32 {
    let sh = 64 - u32::from(bits);
    (((v << sh) as i64) >> sh) as u32
}

fn int_to_f32(v: i128, mode: Round) -> f32 {
    // Integers of up to 64 bits: the f64 value is exact below 2^53; above it
    // round once to f64 (toward zero, keeping a sticky bit) and then to f32.
    let r = v as f64;
    if r as i128 == v {
        return num::f64_to_f32(r, mode);
    }
    let t = int_to_f64(v, Round::Zero);
    let sticky = f64::from_bits(t.to_bits() | 1);
    num::f64_to_f32(sticky, mode)
}

fn read_fmt(w: &Warp, a: S, l: usize, f: Fmt, ftz: bool) -> f64 {
    match f {
        Fmt::F64 => w.rd(a, l),
        Fmt::F32 => {
            let x = w.rf(a, l);
            f64::from(if ftz { num::ftz32(x) } else { x })
        }
        Fmt::F16 => {
            // `R0.H1` (F2I) reads the high half.
            let raw = w.raw(a, l);
            let mut h = if a.m & H1H1 != 0 { (raw >> 16) as u16 } else { raw as u16 };
            if a.m & ABS != 0 {
                h &= 0x7fff;
            }
            if a.m & NEG != 0 {
                h ^= 0x8000;
            }
            num::f16_to_f64(h)
        }
        Fmt::Bf16 => num::bf16_to_f64(w.raw(a, l) as u16),
    }
}
