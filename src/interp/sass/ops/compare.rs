//! Comparisons into predicates or values: ISETP, FSETP, DSETP and FSET.
//!
//! This module owns these instructions' semantics: [`CompareOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::{Mod, Op as Opcode};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum CompareOp {
    Isetp { d: [u8; 2], a: S, b: S, cmp: Cmp, signed: bool, wide: bool, bop: u8, pin: P, ex: Option<P> },
    Fsetp { d: [u8; 2], a: S, b: S, cmp: Cmp, ftz: bool, bop: u8, pin: P, f64: bool },
    /// FSET.BF: FSETP's comparison written as 1.0 or 0.0.
    Fset { d: u16, a: S, b: S, cmp: Cmp, ftz: bool, bop: u8, pin: P },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_compare(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::ISETP | Opcode::UISETP => {
                let wide = cx.has(Mod::U64) || cx.has(Mod::S64);
                let w = if wide { 2 } else { 1 };
                let ex = if cx.has(Mod::EX) { Some(self.psrc(cx.o(5)?)?) } else { None };
                Op::Compare(CompareOp::Isetp {
                    d: [self.pdst(cx.o(0)?)?, self.pdst(cx.o(1)?)?],
                    a: self.src(cx.o(2)?, cx.sl(2), w)?,
                    b: self.src(cx.o(3)?, cx.sl(3), w)?,
                    cmp: cx.mod_value(0) & 7,
                    signed: !(cx.has(Mod::U32) || cx.has(Mod::U64)),
                    wide,
                    bop: cx.bop(),
                    pin: self.psrc(cx.o(4)?)?,
                    ex,
                })
            }
            // FSET.BF: 1.0 where the comparison combined with the predicate
            // holds, else 0.
            Opcode::FSET if toks.first() == Some(&Mod::BF) => {
                Op::Compare(CompareOp::Fset { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, cmp: cx.mod_value(0) & 15, ftz: cx.has(Mod::FTZ), bop: cx.bop(), pin: self.psrc(cx.o(3)?)? })
            }
            Opcode::FSETP | Opcode::DSETP | Opcode::UFSETP => {
                let f64 = cx.opcode == Opcode::DSETP;
                let w = if f64 { 2 } else { 1 };
                Op::Compare(CompareOp::Fsetp { d: [self.pdst(cx.o(0)?)?, self.pdst(cx.o(1)?)?], a: self.src(cx.o(2)?, cx.sl(2), w)?, b: self.src(cx.o(3)?, cx.sl(3), w)?, cmp: cx.mod_value(0) & 15, ftz: cx.has(Mod::FTZ), bop: cx.bop(), pin: self.psrc(cx.o(4)?)?, f64 })
            }
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &CompareOp) -> Result<(), InterpError> {
    match *op {
        CompareOp::Fset { d, a, b, cmp, ftz, bop, pin } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            for l in lanes(exec) {
                let (mut x, mut y) = (w.rf(a, l), w.rf(b, l));
                if ftz {
                    x = num::ftz32(x);
                    y = num::ftz32(y);
                }
                r |= u32::from(fcmp(cmp, f64::from(x), f64::from(y))) << l;
            }
            let (hold, _) = combine(r, pinm, bop);
            for l in lanes(exec) {
                w.set(d, l, if hold >> l & 1 == 1 { 1.0f32.to_bits() } else { 0 });
            }
        }
        CompareOp::Isetp { d, a, b, cmp, signed, wide, bop, pin, ex } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            if wide {
                for l in lanes(exec) {
                    let (x, y) = (apply64(w.r64(a, l), a.m), apply64(w.r64(b, l), b.m));
                    let ord = if signed { (x as i64).cmp(&(y as i64)) } else { x.cmp(&y) };
                    r |= u32::from(icmp(cmp, ord)) << l;
                }
            } else {
                let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
                let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
                // Unsigned order is signed order with the sign bits flipped.
                let flip = if signed { 0 } else { 0x8000_0000u32 };
                let lt = |x: &[u32; 32], y: &[u32; 32]| mask_of(|l| ((x[l] ^ flip) as i32) < ((y[l] ^ flip) as i32));
                // Only the masks the comparison needs (EQ/NE the equality, the
                // orders one strict comparison each) unless .EX needs equality.
                let need_eq = ex.is_some() || matches!(cmp, 2 | 5);
                let eq = if need_eq { mask_of(|l| x[l] == y[l]) } else { 0 };
                r = match cmp {
                    0 => 0,
                    1 => lt(x, y),
                    2 => eq,
                    3 => !lt(y, x),
                    4 => lt(y, x),
                    5 => !eq,
                    6 => !lt(x, y),
                    _ => u32::MAX,
                };
                // .EX: the high words of a 64-bit comparison; where they are
                // equal the result is the low words' comparison, given as the
                // extra predicate (EQ/NE/LT/LE/GT/GE all take it as is).
                if let Some(p) = ex {
                    let low = match cmp {
                        0 => 0,
                        1..=6 => w.pm(p),
                        _ => u32::MAX,
                    };
                    r = (r & !eq) | (low & eq);
                }
            }
            let (p0, p1) = combine(r, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
        // DSETP.MIN / DSETP.MAX (comparisons 0 and 15 of DSETP), ptxas's
        // min.f64 / max.f64: the first result says a is the minimum (the
        // maximum), NaNs losing to numbers and -0 below +0; the second that
        // both are NaN. Read off ptxas's use of them (`DSETP.MAX.AND P1,
        // P2, a, b, PT`, `FSEL hi, a.hi, b.hi, P1`, `SEL lo, a.lo, b.lo,
        // P1`, `@P2 LOP3.LUT hi, b.hi, 0x80000, RZ, 0xfc`): with two NaNs
        // ptxas makes b's high word quiet, so the first result is false
        // there (b's low word with it; true would pair a's low word with
        // b's high word, a NaN of neither operand; generated program seed
        // 9988829 on sm_100).
        CompareOp::Fsetp { d, a, b, cmp, bop, pin, f64: true, .. } if cmp == 0 || cmp == 15 => {
            let pinm = w.pm(pin);
            let (mut first, mut nan) = (0u32, 0u32);
            for l in lanes(exec) {
                let (x, y) = (w.rd(a, l), w.rd(b, l));
                let pick_a = if x.is_nan() {
                    false
                } else if y.is_nan() {
                    true
                } else if x == y {
                    (x.is_sign_negative() && y.is_sign_positive()) == (cmp == 0) || x.is_sign_negative() == y.is_sign_negative()
                } else {
                    (x < y) == (cmp == 0)
                };
                first |= u32::from(pick_a) << l;
                nan |= u32::from(x.is_nan() && y.is_nan()) << l;
            }
            let (p0, _) = combine(first, pinm, bop);
            let (p1, _) = combine(nan, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
        CompareOp::Fsetp { d, a, b, cmp, ftz, bop, pin, f64 } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            for l in lanes(exec) {
                let (x, y) = if f64 {
                    (w.rd(a, l), w.rd(b, l))
                } else {
                    let (mut x, mut y) = (w.rf(a, l), w.rf(b, l));
                    if ftz {
                        x = num::ftz32(x);
                        y = num::ftz32(y);
                    }
                    (f64::from(x), f64::from(y))
                };
                r |= u32::from(fcmp(cmp, x, y)) << l;
            }
            let (p0, p1) = combine(r, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
    }
    Ok(())
}

fn icmp(cmp: Cmp, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match cmp {
        0 => false,
        1 => o == Less,
        2 => o == Equal,
        3 => o != Greater,
        4 => o == Greater,
        5 => o != Equal,
        6 => o != Less,
        _ => true,
    }
}
