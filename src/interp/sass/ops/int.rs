//! Integer arithmetic: moves, additions (IADD3, IADD, VIADD, UIADD3.64),
//! multiply-adds (IMAD), LEA, selection, absolute value, minimum and
//! maximum (IMNMX, VIMNMX, VIADDMNMX), VABSDIFF and dot products (IDP).
//!
//! This module owns these instructions' semantics: [`IntOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::form::Slot;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Operand, RegNum};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum IntOp {
    Mov { d: u16, a: S, n: u8 },
    Iadd3 { d: u16, co: [u8; 2], a: S, b: S, c: S, ci: Option<[P; 2]> },
    Iadd64 { d: u16, co: u8, a: S, b: S, ci: Option<P>, wide: bool },
    /// UIADD3.64 with a third source (sm_90's ptxas: `UIADD3.64 UR4, UR12,
    /// UR14, UR4`): the 64-bit sum of three pairs, negations applied.
    Uiadd3x64 { d: u16, a: S, b: S, c: S },
    /// VIADD.S32.ISAT: `a + b` clamped to the signed 32-bit range.
    IaddSat { d: u16, a: S, b: S },
    Imad { d: u16, a: S, b: S, c: S, signed: bool, kind: u8, co: u8, ci: Option<P> },
    Lea { d: u16, co: u8, a: S, b: S, c: S, s: u8, hi: bool, sx: bool, ci: Option<P> },
    Sel { d: u16, a: S, b: S, p: P, n: u8 },
    Iabs { d: u16, a: S },
    Imnmx { d: u16, a: S, b: S, p: P, signed: bool },
    Viaddmnmx { d: u16, a: S, b: S, c: S, p: P, signed: bool },
    /// VIMNMX, VIMNMX3 and VIADDMNMX in general: per 32-bit lane, or per
    /// 16-bit half with `half`, the minimum (`p` true) or maximum of the
    /// first `count` sources (with `add`: of `srcs[0] + srcs[1]`, wrapping
    /// in the lane, and `srcs[2]`), then at least zero with `relu`.
    /// `pd`: sm_90 VIMNMX's two predicate results, per 16-bit lane (low,
    /// high) whether the result is a (see the translation).
    MinMax { d: u16, srcs: [S; 3], count: u8, add: bool, p: P, half: bool, signed: bool, relu: bool, pd: Option<[u8; 2]> },
    Vabsdiff { d: u16, a: S, b: S, c: S, signed: bool },
    Imnmx64 { d: u16, a: S, b: S, p: P, signed: bool },
    /// IDP.4A / IDP.2A.{LO,HI}: dot product of packed integers plus `c`.
    Idp { d: u16, a: S, b: S, c: S, two: bool, hi: bool, a_signed: bool, b_signed: bool },
    /// VABSDIFF4: the four bytes' absolute differences, as bytes, or with
    /// `acc` their sum plus `c` (without `.ACC`, `c` is not read: ptxas
    /// gives it for the merge of PTX's default mask, which keeps every
    /// byte).
    Vabsdiff4 { d: u16, a: S, b: S, c: S, signed: bool, acc: bool },
    /// VIMNMX.{U8x4,S8x4} (sm_120): per byte the minimum (`p` true) or
    /// maximum; VIADD.{U8x4,S8x4} (`p` absent): per byte the sum modulo
    /// 256, a source's `-` negating each byte (ptxas 13.5's vabsdiff4 is
    /// `VIADD.U8x4 d, max, -min`, which needs the bytes' differences).
    Bytes { d: u16, a: S, b: S, p: Option<P>, signed: bool },
    /// VIADD.16x2 (sm_90+): per 16-bit lane the sum modulo 2^16, a
    /// source's `-` negating each lane.
    LaneAdd16 { d: u16, a: S, b: S },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_int(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let n = cx.n;
        // sm_100's VIMNMX: its two predicate results (operands 1, 2) are
        // PT, as in ptxas's words (their meaning is not measured).
        let vimnmx_pt_results = cx.opcode == Opcode::VIMNMX && cx.n == 6 && [1, 2].iter().all(|&k| matches!(cx.o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true) == Some(P_SINK)));
        // VIMNMX on 16-bit lanes with its two predicates (sm_90 to
        // sm_103; sm_120 has none): per lane (low, high), whether the
        // result is a. Read off ptxas 13.5's code for `min.s16 %h3, %h5,
        // 5208; setp.eq.s16 %p0, %h3, %h5` (seed 9958412 on sm_90; the
        // same on sm_100): `VIMNMX.S16x2 R11, P2, P2, R4, 0x1458, PT` with
        // %p0 in P2, the low lane's test (the high lane compares 0 with
        // 0), so where both name one register the low lane's is what it
        // holds.
        let vimnmx_lane_results = cx.opcode == Opcode::VIMNMX && cx.n == 6 && (90..120).contains(&self.sm.number) && (cx.has(Mod::U16x2) || cx.has(Mod::S16x2)) && !cx.has(Mod::RELU);
        let vimnmx_results = vimnmx_pt_results || vimnmx_lane_results;
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::MOV | Opcode::UMOV => {
                let w = if cx.has(Mod::_64) { 2 } else { 1 };
                Op::Int(IntOp::Mov { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), w)?, n: w as u8 })
            }
            // UIADD3.64 without a third source or carry outs (what ptxas emits).
            Opcode::UIADD3 if cx.has(Mod::_64) => {
                let zero = |k: usize| matches!(cx.o(k), Ok(Operand::Reg { reg, mods, .. }) if reg.num == RegNum::Zero && !mods.neg);
                let sink = |k: usize| matches!(cx.o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true) == Some(UP_SINK));
                if !(sink(1) && sink(2)) {
                    return Err(Bad);
                }
                if !zero(5) {
                    return Ok(Some(Op::Int(IntOp::Uiadd3x64 { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(3)?, cx.sl(3), 2)?, b: self.src(cx.o(4)?, cx.sl(4), 2)?, c: self.src(cx.o(5)?, cx.sl(5), 2)? })));
                }
                Op::Int(IntOp::Iadd64 { d: self.dst(cx.o(0)?)?, co: UP_SINK, a: self.src(cx.o(3)?, cx.sl(3), 2)?, b: self.src(cx.o(4)?, cx.sl(4), 2)?, ci: None, wide: true })
            }
            Opcode::IADD3 | Opcode::UIADD3 => {
                let (d, p0, p1, a, b, c) = (self.dst(cx.o(0)?)?, self.pdst(cx.o(1)?)?, self.pdst(cx.o(2)?)?, self.src(cx.o(3)?, cx.sl(3), 1)?, self.src(cx.o(4)?, cx.sl(4), 1)?, self.src(cx.o(5)?, cx.sl(5), 1)?);
                let ci = if cx.has(Mod::X) { Some([self.psrc(cx.o(6)?)?, self.psrc(cx.o(7)?)?]) } else { None };
                Op::Int(IntOp::Iadd3 { d, co: [p0, p1], a, b, c, ci })
            }
            Opcode::IADD => {
                let wide = cx.has(Mod::_64);
                let w = if wide { 2 } else { 1 };
                let ci = if cx.has(Mod::X) { Some(self.psrc(cx.o(4)?)?) } else { None };
                Op::Int(IntOp::Iadd64 { d: self.dst(cx.o(0)?)?, co: self.pdst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), w)?, b: self.src(cx.o(3)?, cx.sl(3), w)?, ci, wide })
            }
            Opcode::VIADD | Opcode::VIMNMX if (cx.has(Mod::U8x4) || cx.has(Mod::S8x4)) && !cx.has(Mod::ISAT) && !cx.has(Mod::RELU) => {
                let p = match (cx.opcode, n) {
                    (Opcode::VIMNMX, 4) => Some(self.psrc(cx.o(3)?)?),
                    (Opcode::VIADD, 3) => None,
                    _ => return Err(Bad),
                };
                Op::Int(IntOp::Bytes { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, p, signed: cx.has(Mod::S8x4) })
            }
            Opcode::VIADD if toks == [Mod::_16x2] => Op::Int(IntOp::LaneAdd16 { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)? }),
            // `.S32.ISAT`: a saturating signed add; other lane types are not modelled.
            Opcode::VIADD | Opcode::UVIADD if cx.has(Mod::ISAT) => match toks {
                [Mod::S32, Mod::ISAT] => Op::Int(IntOp::IaddSat { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)? }),
                _ => return Err(Bad),
            },
            Opcode::VIADD | Opcode::UVIADD if toks.iter().all(|t| *t == Mod::_32) => {
                let z = S { r: RZ, m: 0 };
                Op::Int(IntOp::Iadd3 { d: self.dst(cx.o(0)?)?, co: [P_SINK, P_SINK], a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: z, ci: None })
            }
            Opcode::IMAD | Opcode::UIMAD => {
                let signed = !cx.has(Mod::U32);
                let x = cx.has(Mod::X);
                if cx.has(Mod::WIDE) || cx.has(Mod::HI) {
                    let kind = if cx.has(Mod::WIDE) { 1 } else { 2 };
                    // Both read c as a 64-bit pair (IMAD.HI adds it before taking the high word).
                    let cw = 2;
                    let ci = if x { Some(self.psrc(cx.o(5)?)?) } else { None };
                    Op::Int(IntOp::Imad { d: self.dst(cx.o(0)?)?, co: self.pdst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, b: self.src(cx.o(3)?, cx.sl(3), 1)?, c: self.src(cx.o(4)?, cx.sl(4), cw)?, signed, kind, ci })
                } else {
                    let ci = if x { Some(self.psrc(cx.o(4)?)?) } else { None };
                    Op::Int(IntOp::Imad { d: self.dst(cx.o(0)?)?, co: P_SINK, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, signed, kind: 0, ci })
                }
            }
            Opcode::LEA | Opcode::ULEA => {
                let hi = cx.has(Mod::HI);
                let sx = cx.has(Mod::SX32);
                let x = cx.has(Mod::X);
                let (d, co, a, b) = (self.dst(cx.o(0)?)?, self.pdst(cx.o(1)?)?, self.src(cx.o(2)?, cx.sl(2), 1)?, self.src(cx.o(3)?, cx.sl(3), 1)?);
                let mut k = 4;
                let c = if hi && !sx {
                    k += 1;
                    self.src(cx.o(4)?, cx.sl(4), 1)?
                } else {
                    S { r: RZ, m: 0 }
                };
                let s = match cx.o(k)? {
                    Operand::Hex(v) => (*v & 63) as u8,
                    _ => return Err(Bad),
                };
                let ci = if x { Some(self.psrc(cx.o(k + 1)?)?) } else { None };
                Op::Int(IntOp::Lea { d, co, a, b, c, s, hi, sx, ci })
            }
            Opcode::SEL | Opcode::USEL => {
                let w = if cx.has(Mod::_64) { 2 } else { 1 };
                Op::Int(IntOp::Sel { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), w)?, b: self.src(cx.o(2)?, cx.sl(2), w)?, p: self.psrc(cx.o(3)?)?, n: w as u8 })
            }
            Opcode::IABS => Op::Int(IntOp::Iabs { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)? }),
            Opcode::VIMNMX | Opcode::VIMNMX3 | Opcode::VIADDMNMX if cx.has(Mod::U16x2) || cx.has(Mod::S16x2) || cx.has(Mod::RELU) || cx.opcode == Opcode::VIMNMX3 || cx.opcode == Opcode::VIADDMNMX && matches!(cx.sl(2), Slot::Gpr { field, .. } if field.start == 32) => {
                // sm_100's VIMNMX has two predicate results (PT in ptxas's
                // words) before its sources.
                let sinks = vimnmx_results;
                let first = if sinks { 3 } else { 1 };
                let (count, add) = match cx.opcode {
                    Opcode::VIMNMX if n == 4 || sinks => (2, false),
                    Opcode::VIMNMX3 if n == 5 => (3, false),
                    Opcode::VIADDMNMX if n == 5 => (3, true),
                    _ => return Err(Bad),
                };
                let (a, b) = (self.src(cx.o(first)?, cx.sl(first), 1)?, self.src(cx.o(first + 1)?, cx.sl(first + 1), 1)?);
                let c = if count == 3 { self.src(cx.o(3)?, cx.sl(3), 1)? } else { b };
                Op::Int(IntOp::MinMax {
                    d: self.dst(cx.o(0)?)?,
                    srcs: [a, b, c],
                    count,
                    add,
                    p: self.psrc(cx.o(n - 1)?)?,
                    half: cx.has(Mod::U16x2) || cx.has(Mod::S16x2),
                    signed: !cx.has(Mod::U32) && !cx.has(Mod::U16x2),
                    relu: cx.has(Mod::RELU),
                    pd: if vimnmx_lane_results { Some([self.pdst(cx.o(1)?)?, self.pdst(cx.o(2)?)?]) } else { None },
                })
            }
            // UVIMNMX.{U32,S32} (sm_120): the 32-bit lanes only.
            Opcode::UVIMNMX if n == 4 && !cx.has(Mod::RELU) && (cx.has(Mod::U32) || cx.has(Mod::S32)) => {
                Op::Int(IntOp::Imnmx { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, p: self.psrc(cx.o(3)?)?, signed: cx.has(Mod::S32) })
            }
            Opcode::IMNMX | Opcode::VIMNMX if n == 4 => Op::Int(IntOp::Imnmx { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, p: self.psrc(cx.o(3)?)?, signed: !cx.has(Mod::U32) }),
            // sm_100: the predicate results PT, as ptxas emits it.
            Opcode::VIMNMX if vimnmx_pt_results => {
                Op::Int(IntOp::Imnmx { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(3)?, cx.sl(3), 1)?, b: self.src(cx.o(4)?, cx.sl(4), 1)?, p: self.psrc(cx.o(5)?)?, signed: !cx.has(Mod::U32) })
            }
            Opcode::VIADDMNMX if toks.iter().all(|t| *t == Mod::U32) => Op::Int(IntOp::Viaddmnmx {
                d: self.dst(cx.o(0)?)?,
                a: self.src(cx.o(1)?, cx.sl(1), 1)?,
                b: self.src(cx.o(2)?, cx.sl(2), 1)?,
                c: self.src(cx.o(3)?, cx.sl(3), 1)?,
                p: self.psrc(cx.o(4)?)?,
                signed: !cx.has(Mod::U32),
            }),
            // Only without the predicate result (PT), as VABSDIFF.
            Opcode::VABSDIFF4 if matches!(cx.o(1)?, Operand::Reg { reg, .. } if pred_row(*reg, true) == Some(P_SINK)) => Op::Int(IntOp::Vabsdiff4 {
                d: self.dst(cx.o(0)?)?,
                a: self.src(cx.o(2)?, cx.sl(2), 1)?,
                b: self.src(cx.o(3)?, cx.sl(3), 1)?,
                c: self.src(cx.o(4)?, cx.sl(4), 1)?,
                signed: !cx.has(Mod::U8),
                acc: cx.has(Mod::ACC),
            }),
            // Only without the predicate result (PT), whose meaning is not measured.
            Opcode::VABSDIFF if matches!(cx.o(1)?, Operand::Reg { reg, .. } if pred_row(*reg, true) == Some(P_SINK)) => Op::Int(IntOp::Vabsdiff {
                d: self.dst(cx.o(0)?)?,
                a: self.src(cx.o(2)?, cx.sl(2), 1)?,
                b: self.src(cx.o(3)?, cx.sl(3), 1)?,
                c: self.src(cx.o(4)?, cx.sl(4), 1)?,
                signed: !cx.has(Mod::U32),
            }),
            // sm_120's form with two predicate results and a second predicate
            // source, executed where ptxas's words have them: results PT and
            // the second source !PT (their meaning is not measured).
            Opcode::IMNMX | Opcode::UIMNMX if n == 7 && {
                let sink = |k: usize| matches!(cx.o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true).is_some_and(|r| r == P_SINK || r == UP_SINK));
                let not_true = matches!(cx.o(6), Ok(Operand::Reg { reg, mods, .. }) if mods.not && pred_row(*reg, false).is_some_and(|r| r == PT || r == UPT));
                sink(0) && sink(1) && not_true
            } =>
            {
                let (d, signed) = (self.dst(cx.o(2)?)?, !cx.has(Mod::U32) && !cx.has(Mod::U64));
                if cx.has(Mod::S64) || cx.has(Mod::U64) {
                    Op::Int(IntOp::Imnmx64 { d, a: self.src(cx.o(3)?, cx.sl(3), 2)?, b: self.src(cx.o(4)?, cx.sl(4), 2)?, p: self.psrc(cx.o(5)?)?, signed })
                } else {
                    Op::Int(IntOp::Imnmx { d, a: self.src(cx.o(3)?, cx.sl(3), 1)?, b: self.src(cx.o(4)?, cx.sl(4), 1)?, p: self.psrc(cx.o(5)?)?, signed })
                }
            }
            Opcode::IDP => {
                let two = cx.has(Mod::_2A);
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (ta, tb) = match ints.as_slice() {
                    [a, b] => (*a, *b),
                    _ => return Err(Bad),
                };
                Op::Int(IntOp::Idp { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, b: self.src(cx.o(2)?, cx.sl(2), 1)?, c: self.src(cx.o(3)?, cx.sl(3), 1)?, two, hi: cx.has(Mod::HI), a_signed: ta.signed, b_signed: tb.signed })
            }
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &IntOp) -> Result<(), InterpError> {
    match *op {
        IntOp::Mov { d, a, n } => {
            for k in 0..u16::from(n) {
                w.copy_row(d + k, a.r + k, exec);
            }
        }
        IntOp::Iadd3 { d, co: [P_SINK, P_SINK], a, b, c, ci: None } => {
            // No carry out wanted: 32-bit wrapping sums (-x is 2^32 - x).
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (x, y, z) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            for l in 0..32 {
                out[l] = x[l].wrapping_add(y[l]).wrapping_add(z[l]);
            }
            w.put(d, exec, &out);
        }
        IntOp::Iadd3 { d, co, a, b, c, ci } => {
            // A negated operand enters as 2^32 - x (as 33 bits), so a
            // subtraction carries (does not borrow) exactly when bit 32 is set.
            let wide = |s: S, row: [u32; 32]| -> [u64; 32] {
                let mut o = [0u64; 32];
                for (x, &v) in o.iter_mut().zip(row.iter()) {
                    *x = if s.m & NEG != 0 {
                        u64::from(!v) + 1
                    } else if s.m & NOT != 0 {
                        u64::from(!v)
                    } else {
                        u64::from(v)
                    };
                }
                o
            };
            let (x, y, z) = (wide(a, w.row(a.r)), wide(b, w.row(b.r)), wide(c, w.row(c.r)));
            let (p, q) = ci.map_or((0, 0), |[p, q]| (w.pm(p), w.pm(q)));
            let mut sums = [0u64; 32];
            for l in 0..32 {
                sums[l] = x[l] + y[l] + z[l] + u64::from(p & LANE_BITS[l] != 0) + u64::from(q & LANE_BITS[l] != 0);
            }
            let mut out = [0u32; 32];
            for l in 0..32 {
                out[l] = sums[l] as u32;
            }
            let c0 = mask_of(|l| iadd3_carry_preds(sums[l]).0);
            let c1 = mask_of(|l| iadd3_carry_preds(sums[l]).1);
            w.put(d, exec, &out);
            w.setp(co[0], exec, c0);
            w.setp(co[1], exec, c1);
        }
        IntOp::Uiadd3x64 { d, a, b, c } => {
            for l in lanes(exec) {
                let x = |s: S| if s.m & NEG != 0 { w.r64(s, l).wrapping_neg() } else { w.r64(s, l) };
                let v = x(a).wrapping_add(x(b)).wrapping_add(x(c));
                w.set64(d, l, v);
            }
        }
        IntOp::Iadd64 { d, co, a, b, ci, wide } => {
            let mut cm = 0u32;
            let cin = ci.map(|p| w.pm(p));
            for l in lanes(exec) {
                let x = |s: S| -> u128 {
                    let v = if wide { w.r64(s, l) } else { u64::from(w.raw(s, l)) };
                    let bits = if wide { 64 } else { 32 };
                    let m = num::mask(bits) as u128;
                    if s.m & NEG != 0 {
                        ((!u128::from(v)) & m) + 1
                    } else if s.m & NOT != 0 {
                        (!u128::from(v)) & m
                    } else {
                        u128::from(v)
                    }
                };
                let mut sum = x(a) + x(b);
                if let Some(p) = cin {
                    sum += u128::from(p >> l & 1);
                }
                let bits = if wide { 64 } else { 32 };
                let carry = sum >> bits;
                if wide {
                    w.set64(d, l, sum as u64);
                } else {
                    w.set(d, l, sum as u32);
                }
                cm |= ((carry & 1) as u32) << l;
            }
            w.setp(co, exec, cm);
        }
        IntOp::Imad { d, a, b, c, signed, kind: 0, co: _, ci } => {
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (x, y, z) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            // The low word of the product is the same signed or unsigned.
            let _ = signed;
            for l in 0..32 {
                out[l] = x[l].wrapping_mul(y[l]).wrapping_add(z[l]).wrapping_add(u32::from(cin & LANE_BITS[l] != 0));
            }
            w.put(d, exec, &out);
        }
        IntOp::Imad { d, a, b, c: c @ S { m: 0, .. }, signed: false, kind: 1, co: P_SINK, ci: None } => {
            // IMAD.WIDE.U32 with no carry in or out (address arithmetic):
            // a·b + c as 64-bit sums, rows borrowed.
            let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
            let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
            let clo = w.r.get(c.r as usize).unwrap_or(&ZERO_ROW);
            let chi = w.r.get(c.r.saturating_add(1) as usize).unwrap_or(&ZERO_ROW);
            let mut lo = [0u32; 32];
            let mut hi = [0u32; 32];
            for l in 0..32 {
                let sum = (u64::from(x[l]) * u64::from(y[l])).wrapping_add(u64::from(clo[l]) | u64::from(chi[l]) << 32);
                lo[l] = sum as u32;
                hi[l] = (sum >> 32) as u32;
            }
            w.put(d, exec, &lo);
            w.put(d.saturating_add(1), exec, &hi);
        }
        IntOp::Imad { d, a, b, c, signed: false, kind: 1, co, ci } => {
            // IMAD.WIDE.U32 over whole rows: a·b + c (a register pair) + carry.
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
            let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
            let (clo, chi) = (w.row(c.r), w.row(c.r.saturating_add(1)));
            let mut lo = [0u32; 32];
            let mut hi = [0u32; 32];
            let mut carry = [false; 32];
            for l in 0..32 {
                let cv = apply64(u64::from(clo[l]) | u64::from(chi[l]) << 32, c.m);
                let (s1, o1) = (u64::from(x[l]) * u64::from(y[l])).overflowing_add(cv);
                let (s2, o2) = s1.overflowing_add(u64::from(cin & LANE_BITS[l] != 0));
                lo[l] = s2 as u32;
                hi[l] = (s2 >> 32) as u32;
                carry[l] = o1 | o2;
            }
            w.put(d, exec, &lo);
            w.put(d.saturating_add(1), exec, &hi);
            w.setp(co, exec, mask_of(|l| carry[l]));
        }
        IntOp::Imad { d, a, b, c, signed, kind, co, ci } => {
            let cin = ci.map(|p| w.pm(p));
            let mut cm = 0u32;
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let cy = u64::from(cin.is_some_and(|p| p >> l & 1 == 1));
                let prod: u64 = if signed { (i64::from(x as i32) * i64::from(y as i32)) as u64 } else { u64::from(x) * u64::from(y) };
                let cv = apply64(w.r64(c, l), c.m);
                let full = u128::from(prod) + u128::from(cv) + u128::from(cy);
                if kind == 1 {
                    w.set64(d, l, full as u64);
                    cm |= ((full >> 64) as u32 & 1) << l;
                } else {
                    // (a * b + c.64) >> 32, c being the register pair.
                    let (v, carry) = imad_hi(full);
                    w.set(d, l, v);
                    cm |= u32::from(carry) << l;
                }
            }
            w.setp(co, exec, cm);
        }
        IntOp::Lea { d, co, a, b, c, s, hi, sx, ci } => {
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (av, bv, cv) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            let mut cm = 0u32;
            for l in 0..32 {
                let shifted: u32 = if hi {
                    let high = if sx { ((av[l] as i32) >> 31) as u32 } else { cv[l] };
                    let v = (u64::from(high) << 32 | u64::from(av[l])) << s;
                    (v >> 32) as u32
                } else {
                    ((u64::from(av[l])) << s) as u32
                };
                // A negated a enters as 2^32 minus its shifted value (33
                // bits, as IADD3's negated operands), so that `LEA RZ, P0,
                // -R7, R0, 0x5` carries exactly when R0 - (R7 << 5) does not
                // borrow: ptxas's `sub.cc.u32 d, a, c * 32`, whose borrow
                // the 32-bit negation lost where c << 5 is 0 (seed 9118069).
                let shifted = if !hi && a.m & NEG != 0 && shifted == 0 { 1u64 << 32 } else { u64::from(shifted) };
                // A negated b likewise: `LEA.HI.SX32 R6, P0, R5, -R6, 0x1c`
                // is the low word of ptxas's `(a >> 36) - b` (sm_90,
                // sm_100), and carries into the high word's `LEA.HI.X`
                // when b's low word is 0 (seed 9903589).
                let addend = if b.m & NEG != 0 && bv[l] == 0 { 1u64 << 32 } else { u64::from(bv[l]) };
                let sum = shifted + addend + u64::from(cin >> l & 1);
                out[l] = sum as u32;
                cm |= ((sum >> 32) as u32 & 1) << l;
            }
            w.put(d, exec, &out);
            w.setp(co, exec, cm);
        }
        IntOp::IaddSat { d, a, b } => {
            // A negated source is negated before the clamp, in the wider
            // range: ptxas's `sub.sat.s32 d, a, b` is `VIADD.S32.ISAT d,
            // a, -b`, and a - i32::MIN clamps to i32::MAX (wrapping the
            // negation first gave a + i32::MIN).
            let value = |s: S, l: usize| -> i64 {
                let v = i64::from(w.r.get(s.r as usize).unwrap_or(&ZERO_ROW)[l] as i32);
                if s.m & NOT != 0 {
                    !v
                } else if s.m & NEG != 0 {
                    -v
                } else {
                    v
                }
            };
            let out: [u32; 32] = std::array::from_fn(|l| (value(a, l) + value(b, l)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32);
            w.put(d, exec, &out);
        }
        IntOp::Sel { d, a, b, p, n } => {
            let pm = w.pm(p);
            for k in 0..u16::from(n) {
                let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
                let (x, y) = (w.src(S { r: a.r + k, m: 0 }, &mut ta), w.src(S { r: b.r + k, m: 0 }, &mut tb));
                let mut out = [0u32; 32];
                for l in 0..32 {
                    let m = u32::from(pm & LANE_BITS[l] != 0).wrapping_neg();
                    out[l] = (x[l] & m) | (y[l] & !m);
                }
                w.put(d + k, exec, &out);
            }
        }
        IntOp::Iabs { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                w.set(d, l, (v as i32).unsigned_abs());
            }
        }
        IntOp::Imnmx { d, a, b, p, signed } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let min = pm >> l & 1 == 1;
                let r = if signed {
                    let (x, y) = (x as i32, y as i32);
                    (if min { x.min(y) } else { x.max(y) }) as u32
                } else if min {
                    x.min(y)
                } else {
                    x.max(y)
                };
                w.set(d, l, r);
            }
        }
        IntOp::Viaddmnmx { d, a, b, c, p, signed } => {
            // The sum wraps (PTX's add, which ptxas fuses into it, does).
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l).wrapping_add(w.ri(b, l)), w.ri(c, l));
                let min = pm >> l & 1 == 1;
                let flip = if signed { 0x8000_0000 } else { 0 };
                let less = (x ^ flip) < (y ^ flip);
                w.set(d, l, if less == min { x } else { y });
            }
        }
        IntOp::MinMax { d, srcs, count, add, p, half, signed, relu, pd } => {
            let pm = w.pm(p);
            // Per 16-bit lane, the lanes where the result is a.
            let mut is_a = [0u32; 2];
            let (parts, bits) = if half { (2, 16) } else { (1, 32) };
            let mask = if half { 0xffff_u64 } else { 0xffff_ffff };
            // A lane's field as a number: sign-extended when signed.
            let value = |x: u64| -> i64 { if signed { ((x << (64 - bits)) as i64) >> (64 - bits) } else { x as i64 } };
            for l in lanes(exec) {
                let v = srcs.map(|s| u64::from(w.ri(s, l)));
                let min = pm >> l & 1 == 1;
                let mut out = 0u64;
                for k in 0..parts {
                    let field = |x: u64| x >> (bits * k) & mask;
                    let vals: [i64; 3] = if add {
                        [value((field(v[0]) + field(v[1])) & mask), value(field(v[2])), value(field(v[2]))]
                    } else {
                        [value(field(v[0])), value(field(v[1])), value(field(v[if count == 3 { 2 } else { 1 }]))]
                    };
                    let mut r = if min { vals.iter().min() } else { vals.iter().max() }.copied().unwrap_or(0);
                    if pd.is_some() {
                        is_a[k] |= u32::from(r == vals[0]) << l;
                    }
                    if relu {
                        r = r.max(0);
                    }
                    out |= (r as u64 & mask) << (bits * k);
                }
                w.set(d, l, out as u32);
            }
            if let Some([low, high]) = pd {
                w.setp(high, exec, is_a[1]);
                w.setp(low, exec, is_a[0]);
            }
        }
        IntOp::Vabsdiff { d, a, b, c, signed } => {
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let diff = if signed { (x as i32).abs_diff(y as i32) } else { x.abs_diff(y) };
                w.set(d, l, diff.wrapping_add(w.ri(c, l)));
            }
        }
        IntOp::Vabsdiff4 { d, a, b, c, signed, acc } => {
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l).to_le_bytes(), w.ri(b, l).to_le_bytes());
                let diff = |k: usize| if signed { (x[k] as i8).abs_diff(y[k] as i8) } else { x[k].abs_diff(y[k]) };
                let v = if acc {
                    (0..4).fold(w.ri(c, l), |s, k| s.wrapping_add(u32::from(diff(k))))
                } else {
                    u32::from_le_bytes([diff(0), diff(1), diff(2), diff(3)])
                };
                w.set(d, l, v);
            }
        }
        IntOp::LaneAdd16 { d, a, b } => {
            // The lanes of a source, each negated where it is.
            let lanes16 = |v: u32, s: S| {
                let h = [v as u16, (v >> 16) as u16];
                if s.m & NEG != 0 { h.map(u16::wrapping_neg) } else { h }
            };
            for l in lanes(exec) {
                let raw = |s: S| w.ri(S { m: s.m & NOT, ..s }, l);
                let (x, y) = (lanes16(raw(a), a), lanes16(raw(b), b));
                w.set(d, l, u32::from(x[0].wrapping_add(y[0])) | u32::from(x[1].wrapping_add(y[1])) << 16);
            }
        }
        IntOp::Bytes { d, a, b, p, signed } => {
            let pm = p.map_or(0, |p| w.pm(p));
            // The bytes of a source, each negated where it is.
            let bytes = |v: u32, s: S| {
                let v = v.to_le_bytes();
                if s.m & NEG != 0 { v.map(u8::wrapping_neg) } else { v }
            };
            for l in lanes(exec) {
                let raw = |s: S| w.ri(S { m: s.m & NOT, ..s }, l);
                let (x, y) = (bytes(raw(a), a), bytes(raw(b), b));
                let min = pm >> l & 1 == 1;
                let v: [u8; 4] = std::array::from_fn(|k| match p {
                    None => x[k].wrapping_add(y[k]),
                    Some(_) => {
                        let less = if signed { (x[k] as i8) < (y[k] as i8) } else { x[k] < y[k] };
                        if less == min { x[k] } else { y[k] }
                    }
                });
                w.set(d, l, u32::from_le_bytes(v));
            }
        }
        IntOp::Imnmx64 { d, a, b, p, signed } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.r64(a, l), w.r64(b, l));
                let min = pm >> l & 1 == 1;
                let flip = if signed { 1u64 << 63 } else { 0 };
                let less = (x ^ flip) < (y ^ flip);
                w.set64(d, l, if less == min { x } else { y });
            }
        }
        IntOp::Idp { d, a, b, c, two, hi, a_signed, b_signed } => {
            for l in lanes(exec) {
                let (x, y, z) = (w.ri(a, l), w.ri(b, l), w.ri(c, l));
                let bb = |k: u32| -> i64 {
                    let v = (y >> (8 * k)) as u8;
                    if b_signed { i64::from(v as i8) } else { i64::from(v) }
                };
                let sum: i64 = if two {
                    let first = if hi { 2 } else { 0 };
                    (0..2)
                        .map(|k| {
                            let h = (x >> (16 * k)) as u16;
                            let h = if a_signed { i64::from(h as i16) } else { i64::from(h) };
                            h * bb(first + k)
                        })
                        .sum()
                } else {
                    (0..4)
                        .map(|k| {
                            let v = (x >> (8 * k)) as u8;
                            let v = if a_signed { i64::from(v as i8) } else { i64::from(v) };
                            v * bb(k)
                        })
                        .sum()
                };
                w.set(d, l, (sum as u32).wrapping_add(z));
            }
        }
    }
    Ok(())
}

/// The two carry-out predicates of `IADD3 Rd, Pa, Pb, …` for a full sum.
///
/// The carry (0, 1 or 2) is counted in unary, not written as two binary
/// digits: `IADD3.X` adds each of its two carry-in predicates with weight
/// one (ptxas pairs a lone `IMAD.HI.U32 … P1` carry with a lone `IADD3 … P2`
/// carry as `IADD3.X …, P2, P1` in int64_math's sm_90 cubin), and ptxas
/// feeds a three-way `IADD3 R, P0, P1, …`'s pair straight into
/// `IADD3.X …, P0, P1`, so a carry of two must set both. A carry of three
/// (three negated zeros) cannot be expressed and sets both.
fn iadd3_carry_preds(sum: u64) -> (bool, bool) {
    let carry = sum >> 32;
    (carry >= 1, carry >= 2)
}

/// `IMAD.HI`'s result word and carry-out from the full sum a·b + c.64 (+
/// carry-in): the word is bits 32..63 and the carry is bit 64, the carry
/// out of that word (ptxas chains it into `IADD3.X` when it builds the high
/// half of a 128-bit product in its 64-bit division routine).
fn imad_hi(full: u128) -> (u32, bool) {
    ((full >> 32) as u32, full >> 64 & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imad_hi_carries_out_of_bit_63() {
        // int64_math.i64_mul_div, x / 1: 0xffffffff * 0xda13d4de plus the
        // pair 0x78f438cd_611f9c10 is 0x1_53080daa_870bc732 (worked by
        // hand), so the word is 0x53080daa and the carry is set.
        let full = 0xffff_ffffu128 * 0xda13_d4de + 0x78f4_38cd_611f_9c10;
        assert_eq!(full, 0x1_5308_0daa_870b_c732);
        assert_eq!(imad_hi(full), (0x5308_0daa, true));
        assert_eq!(imad_hi(0xffff_ffff_ffff_ffff), (0xffff_ffff, false));
    }

    #[test]
    fn iadd3_carry_of_two_sets_both_predicates() {
        // casts.widen_sum, element 489: (s8)-17 + (u8)130 + (s16)-101 as
        // 32-bit words 0xffffffef + 0x82 + 0xffffff9b = 2^33 + 12, whose high
        // words -1 + -1 plus the carries must give 0 (the true sum is 12).
        let sum = 0xffff_ffefu64 + 0x82 + 0xffff_ff9b;
        let (p0, p1) = iadd3_carry_preds(sum);
        assert_eq!((sum as u32, p0, p1), (12, true, true));
        let hi = 0xffff_ffffu32.wrapping_add(0xffff_ffff).wrapping_add(u32::from(p0)).wrapping_add(u32::from(p1));
        assert_eq!(hi, 0);
        assert_eq!(iadd3_carry_preds(0xffff_ffff), (false, false));
        assert_eq!(iadd3_carry_preds(1 << 32), (true, false));
    }
}
