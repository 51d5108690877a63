//! Packed f16 and bf16 arithmetic: HFMA2, HADD2, HMUL2, HMNMX2, VHMNMX and
//! the comparisons HSET2 and HSETP2.
//!
//! This module owns these instructions' semantics: [`HalfOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num::{self, Round};
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::{Mod, Op as Opcode};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum HalfOp {
    /// HFMA2: per half, `a * b + c` rounded once; `.FTZ` flushes subnormal
    /// inputs and results, `.SAT` clamps to [0, 1], `.RELU` gives +0 for a
    /// negative result (and -0) and the canonical NaN for a NaN: ptxas
    /// 13.5 compiles `max.NaN.f16 d, x, 0` to `HFMA2.RELU d, x, 1, 1, RZ`,
    /// and PTX gives that maximum those values (inferred from ptxas's
    /// code and the PTX ISA's `max.NaN`, not measured on hardware).
    Hfma2 { d: u16, a: S, b: S, c: S, bf16: bool, ftz: bool, sat: bool, relu: bool },
    /// HMNMX2: per half, the minimum (`p` true) or the maximum of `a` and `b`.
    /// With `xorsign` (PTX `min/max.xorsign.abs`), a number's sign is the
    /// exclusive or of the sources' signs before `|x|`.
    Hmnmx2 { d: u16, a: S, b: S, p: P, bf16: bool, ftz: bool, nan: bool, xorsign: bool },
    /// VHMNMX: per half, the minimum (`p` true) or the maximum of `a`, `b`
    /// and `c`, as HMNMX2 of HMNMX2(a, b) and c.
    Vhmnmx { d: u16, a: S, b: S, c: S, p: P, bf16: bool, ftz: bool, nan: bool },
    /// HSET2: per half, all ones (1.0 with `bf`) where the comparison
    /// combined with `p` holds, else 0.
    Hset2 { d: u16, a: S, b: S, cmp: Cmp, p: P, bop: u8, bf: bool, ftz: bool, bf16: bool },
    /// HADD2 / HMUL2: per half (or the low halves into one f32 with
    /// `.F32`), with HFMA2's `.FTZ` and `.SAT`.
    Half2 { d: u16, a: S, b: S, mul: bool, bf16: bool, f32: bool, ftz: bool, sat: bool },
    Hsetp2 { d: [u8; 2], a: S, b: S, cmp: Cmp, pin: P, bop: u8, ftz: bool, bf16: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_half(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            // `.MMA` only names the pipe; `.BF16_V2` makes both halves bf16
            // (`.FMZ` and `.F32` are not modelled).
            // `.RELU`'s trailing predicate is not modelled: PT only.
            Opcode::HFMA2 if toks.iter().all(|t| matches!(t, Mod::MMA | Mod::BF16_V2 | Mod::FTZ | Mod::SAT | Mod::RELU)) && (cx.n < 5 || self.psrc(cx.o(4)?)? == P::TRUE) => Op::Half(HalfOp::Hfma2 {
                d: self.dst(cx.o(0)?)?,
                a: cx.half_src(self.src(cx.o(1)?, cx.sl(1), 1)?, 1)?,
                b: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                c: cx.half_src(self.src(cx.o(3)?, cx.sl(3), 1)?, 3)?,
                bf16: cx.has(Mod::BF16_V2),
                ftz: cx.has(Mod::FTZ),
                sat: cx.has(Mod::SAT),
                relu: cx.has(Mod::RELU),
            }),
            Opcode::HMNMX2 => Op::Half(HalfOp::Hmnmx2 {
                d: self.dst(cx.o(0)?)?,
                a: cx.half_src(self.src(cx.o(1)?, cx.sl(1), 1)?, 1)?,
                b: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                p: self.psrc(cx.o(3)?)?,
                bf16: cx.has(Mod::BF16_V2),
                ftz: cx.has(Mod::FTZ),
                nan: cx.has(Mod::NAN),
                xorsign: cx.has(Mod::XORSIGN),
            }),
            // `.XORSIGN` of three sources: how the signs combine is not
            // measured (PTX's xorsign min/max take two).
            Opcode::VHMNMX if cx.has(Mod::XORSIGN) => return Err(Bad),
            Opcode::VHMNMX => Op::Half(HalfOp::Vhmnmx {
                d: self.dst(cx.o(0)?)?,
                a: cx.half_src(self.src(cx.o(1)?, cx.sl(1), 1)?, 1)?,
                b: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                c: cx.half_src(self.src(cx.o(3)?, cx.sl(3), 1)?, 3)?,
                p: self.psrc(cx.o(4)?)?,
                bf16: cx.has(Mod::BF16_V2),
                ftz: cx.has(Mod::FTZ),
                nan: cx.has(Mod::NAN),
            }),
            Opcode::HSET2 => Op::Half(HalfOp::Hset2 {
                d: self.dst(cx.o(0)?)?,
                a: cx.half_src(self.src(cx.o(1)?, cx.sl(1), 1)?, 1)?,
                b: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                cmp: cx.mod_value(1) & 15,
                p: self.psrc(cx.o(3)?)?,
                bop: cx.bop(),
                bf: cx.has(Mod::BF),
                ftz: cx.has(Mod::FTZ),
                bf16: cx.has(Mod::BF16_V2),
            }),
            // HADD2 / HMUL2 (HMUL2's `.FMZ` not modelled); `.F32` (HADD2)
            // writes the low lanes' sum as one f32.
            Opcode::HADD2 | Opcode::HMUL2 if toks.iter().all(|t| matches!(t, Mod::BF16_V2 | Mod::F32 | Mod::FTZ | Mod::SAT)) => Op::Half(HalfOp::Half2 {
                d: self.dst(cx.o(0)?)?,
                a: cx.half_src(self.src(cx.o(1)?, cx.sl(1), 1)?, 1)?,
                b: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                mul: cx.opcode == Opcode::HMUL2,
                bf16: cx.has(Mod::BF16_V2),
                f32: cx.has(Mod::F32),
                ftz: cx.has(Mod::FTZ),
                sat: cx.has(Mod::SAT),
            }),
            Opcode::HSETP2 if !cx.has(Mod::H_AND) => Op::Half(HalfOp::Hsetp2 {
                d: [self.pdst(cx.o(0)?)?, self.pdst(cx.o(1)?)?],
                a: cx.half_src(self.src(cx.o(2)?, cx.sl(2), 1)?, 2)?,
                b: cx.half_src(self.src(cx.o(3)?, cx.sl(3), 1)?, 3)?,
                cmp: cx.mod_value(0) & 15,
                pin: self.psrc(cx.o(4)?)?,
                bop: cx.bop(),
                ftz: cx.has(Mod::FTZ),
                bf16: cx.has(Mod::BF16_V2),
            }),
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &HalfOp) -> Result<(), InterpError> {
    match *op {
        HalfOp::Hfma2 { d, a, b, c, bf16, ftz, sat, relu } => {
            let wide = |h: u16| num::half_to_f64(if ftz { num::ftz_half(h, bf16) } else { h }, bf16);
            for l in lanes(exec) {
                let (x, y, z) = (w.halves(a, l), w.halves(b, l), w.halves(c, l));
                // The product of two halves is exact in f64; the sum is
                // exact for f16 and for bf16 unless the exponents are
                // more than ~37 apart (then rounded twice).
                let h = |k: usize| {
                    let r = wide(x[k]) * wide(y[k]) + wide(z[k]);
                    let half = num::half_result(r, bf16, ftz, sat);
                    let relu_of = |h: u16| if num::half_to_f64(h, bf16).is_nan() { 0x7fff } else if h & 0x8000 != 0 { 0 } else { h };
                    u32::from(if relu { relu_of(half) } else { half })
                };
                w.set(d, l, h(0) | h(1) << 16);
            }
        }
        HalfOp::Hmnmx2 { d, a, b, p, bf16, ftz, nan, xorsign } => {
            let pm = w.pm(p);
            // The sources' halves before `|x|` and `-x`, for `.XORSIGN`.
            let plain = |s: S| S { m: s.m & !(ABS | NEG), ..s };
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                let signs = [w.halves(plain(a), l), w.halves(plain(b), l)];
                let min = pm >> l & 1 == 1;
                let mut out = 0u32;
                for k in 0..2 {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    let mut v = num::min_max_half(hx, hy, min, bf16, nan);
                    if xorsign && !num::half_to_f64(v, bf16).is_nan() {
                        v = (v & 0x7fff) | ((signs[0][k] ^ signs[1][k]) & 0x8000);
                    }
                    out |= u32::from(v) << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        HalfOp::Vhmnmx { d, a, b, c, p, bf16, ftz, nan } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y, z) = (w.halves(a, l), w.halves(b, l), w.halves(c, l));
                let min = pm >> l & 1 == 1;
                let flush = |h: u16| if ftz { num::ftz_half(h, bf16) } else { h };
                let mut out = 0u32;
                for k in 0..2 {
                    let v = num::min_max_half(flush(x[k]), flush(y[k]), min, bf16, nan);
                    let v = num::min_max_half(v, flush(z[k]), min, bf16, nan);
                    out |= u32::from(v) << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        HalfOp::Hset2 { d, a, b, cmp, p, bop, bf, ftz, bf16 } => {
            let pm = w.pm(p);
            let wide = |h: u16| if bf16 { num::bf16_to_f64(h) } else { num::f16_to_f64(h) };
            // `.BF`: 1.0 of the lane type.
            let one = if bf16 { 0x3f80 } else { 0x3c00 };
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                let pin = pm >> l & 1;
                let mut out = 0u32;
                for k in 0..2 {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    let r = u32::from(fcmp(cmp, wide(hx), wide(hy)));
                    let (set, _) = combine(r, pin, bop);
                    let half = if set & 1 == 0 { 0 } else if bf { one } else { 0xffff };
                    out |= half << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        HalfOp::Half2 { d, a, b, mul, bf16, f32, ftz, sat } => {
            let wide = |h: u16| num::half_to_f64(if ftz { num::ftz_half(h, bf16) } else { h }, bf16);
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                // Sums and products of two halves are exact in f64: one rounding.
                let r = |k: usize| if mul { wide(x[k]) * wide(y[k]) } else { wide(x[k]) + wide(y[k]) };
                let v = if f32 {
                    fout(num::f64_to_f32(r(0), Round::Nearest), ftz, sat)
                } else {
                    let h = |k| u32::from(num::half_result(r(k), bf16, ftz, sat));
                    h(0) | h(1) << 16
                };
                w.set(d, l, v);
            }
        }
        HalfOp::Hsetp2 { d, a, b, cmp, pin, bop, ftz, bf16 } => {
            // One result per half (lane 0 into the first predicate).
            let pinm = w.pm(pin);
            let wide = |h: u16| if bf16 { num::bf16_to_f64(h) } else { num::f16_to_f64(h) };
            let mut r = [0u32; 2];
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                for (k, rk) in r.iter_mut().enumerate() {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    *rk |= u32::from(fcmp(cmp, wide(hx), wide(hy))) << l;
                }
            }
            w.setp(d[0], exec, combine(r[0], pinm, bop).0);
            w.setp(d[1], exec, combine(r[1], pinm, bop).0);
        }
    }
    Ok(())
}
