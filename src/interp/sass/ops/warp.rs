//! Warp-wide operations: shuffles (SHFL), votes (VOTE, VOTEU), ELECT, MATCH
//! and reductions (REDUX, CREDUX).
//!
//! This module owns these instructions' semantics: [`WarpOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::{Mod, Op as Opcode};

/// Shuffle modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// Indexed.
    Idx,
    /// Up.
    Up,
    /// Down.
    Down,
    /// Butterfly.
    Bfly,
}

/// Vote modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// All.
    All,
    /// Any.
    Any,
    /// All equal.
    Eq,
}

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum WarpOp {
    Shfl { pd: u8, d: u16, a: S, b: S, c: S, mode: ShflMode },
    Vote { d: u16, pd: u8, p: P, mode: VoteMode, uniform: bool },
    /// ELECT: the lowest lane whose source is true gets a true `pd`; the
    /// uniform `d` holds its index.
    Elect { d: u16, pd: u8, p: P },
    Redux { d: u16, a: S, op: u8, signed: bool },
    /// CREDUX.F32: the f32 minimum (`min`) or maximum of the active lanes'
    /// sources, of their absolute values with `abs`; NaN sources are
    /// skipped unless `nan`, where any NaN gives the canonical NaN.
    ReduxF32 { d: u16, a: S, min: bool, abs: bool, nan: bool },
    /// MATCH.ANY / MATCH.ALL (32 or 64 bits).
    Match { d: u16, pd: u8, a: S, wide: bool, all: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_warp(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let n = cx.n;
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::SHFL => {
                let mode = match toks.first().copied() {
                    Some(Mod::IDX) => ShflMode::Idx,
                    Some(Mod::UP) => ShflMode::Up,
                    Some(Mod::DOWN) => ShflMode::Down,
                    _ => ShflMode::Bfly,
                };
                Op::Warp(WarpOp::Shfl { pd: self.pdst(cx.o(0)?)?, d: self.dst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, b: self.src(cx.o(3)?, cx.sl(3), 1)?, c: self.src(cx.o(4)?, cx.sl(4), 1)?, mode })
            }
            Opcode::VOTE | Opcode::VOTEU => {
                let mode = match toks.first().copied() {
                    Some(Mod::ALL) => VoteMode::All,
                    Some(Mod::ANY) => VoteMode::Any,
                    Some(Mod::EQ) => VoteMode::Eq,
                    _ => return Err(Bad),
                };
                let uniform = cx.opcode == Opcode::VOTEU;
                let (d, pd, p) = if n == 3 { (self.dst(cx.o(0)?)?, self.pdst(cx.o(1)?)?, self.psrc(cx.o(2)?)?) } else { (if uniform { UR_SINK } else { R_SINK }, self.pdst(cx.o(0)?)?, self.psrc(cx.o(1)?)?) };
                Op::Warp(WarpOp::Vote { d, pd, p, mode, uniform })
            }
            Opcode::ELECT => Op::Warp(WarpOp::Elect { pd: self.pdst(cx.o(0)?)?, d: self.dst(cx.o(1)?)?, p: self.psrc(cx.o(2)?)? }),
            Opcode::MATCH => {
                let all = cx.has(Mod::ALL);
                let wide = cx.has(Mod::U64);
                let w = if wide { 2 } else { 1 };
                if all {
                    Op::Warp(WarpOp::Match { pd: self.pdst(cx.o(0)?)?, d: self.dst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), w)?, wide, all })
                } else {
                    Op::Warp(WarpOp::Match { pd: P_SINK, d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), w)?, wide, all })
                }
            }
            Opcode::REDUX => {
                let op = match toks.first().copied() {
                    None | Some(Mod::S32) => 0, // AND
                    Some(Mod::OR) => 1,
                    Some(Mod::XOR) => 2,
                    Some(Mod::SUM) => 3,
                    Some(Mod::MIN) => 4,
                    Some(Mod::MAX) => 5,
                    _ => return Err(Bad),
                };
                Op::Warp(WarpOp::Redux { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)?, op, signed: cx.has(Mod::S32) })
            }
            // CREDUX.{MIN,MAX,MINABS,MAXABS}[.S32|.F32][.NAN]: the integer
            // forms are REDUX's minimum and maximum; the absolute values and
            // `.NAN` are the f32 form's only.
            Opcode::CREDUX => {
                let (d, a) = (self.dst(cx.o(0)?)?, self.src(cx.o(1)?, cx.sl(1), 1)?);
                let (min, abs) = match toks.first().copied() {
                    Some(Mod::MAX) => (false, false),
                    Some(Mod::MAXABS) => (false, true),
                    Some(Mod::MIN) => (true, false),
                    Some(Mod::MINABS) => (true, true),
                    _ => return Err(Bad),
                };
                let nan = cx.has(Mod::NAN);
                if cx.has(Mod::F32) {
                    Op::Warp(WarpOp::ReduxF32 { d, a, min, abs, nan })
                } else if abs || nan {
                    return Err(Bad);
                } else {
                    Op::Warp(WarpOp::Redux { d, a, op: if min { 4 } else { 5 }, signed: cx.has(Mod::S32) })
                }
            }
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &WarpOp) -> Result<(), InterpError> {
    match *op {
        WarpOp::Shfl { pd, d, a, b, c, mode } => {
            let mut vals = [0u32; 32];
            let mut ok = 0u32;
            for l in lanes(exec) {
                vals[l] = w.ri(a, l);
            }
            let mut out = [0u32; 32];
            for l in lanes(exec) {
                let (bv, cv) = (w.ri(b, l), w.ri(c, l));
                let lane = l as i32;
                let clamp = (cv & 0x1f) as i32;
                let segmask = ((cv >> 8) & 0x1f) as i32;
                let min_lane = lane & segmask;
                let max_lane = min_lane | (clamp & !segmask);
                let bv = (bv & 0x1f) as i32;
                let (j, pval) = match mode {
                    ShflMode::Up => (lane - bv, lane - bv >= max_lane),
                    ShflMode::Down => (lane + bv, lane + bv <= max_lane),
                    ShflMode::Bfly => (lane ^ bv, (lane ^ bv) <= max_lane),
                    ShflMode::Idx => {
                        let j = min_lane | (bv & !segmask);
                        (j, j <= max_lane)
                    }
                };
                let src = if pval && (0..32).contains(&j) { j as usize } else { l };
                out[l] = if exec >> src & 1 == 1 { vals[src] } else { vals[l] };
                ok |= u32::from(pval) << l;
            }
            for l in lanes(exec) {
                w.set(d, l, out[l]);
            }
            w.setp(pd, exec, ok);
        }
        WarpOp::Vote { d, pd, p, mode, uniform } => {
            let pm = w.pm(p) & exec;
            let res = match mode {
                VoteMode::All => pm == exec,
                VoteMode::Any => pm != 0,
                VoteMode::Eq => pm == 0 || pm == exec,
            };
            let res_mask = if res { u32::MAX } else { 0 };
            if uniform {
                if exec != 0 {
                    for l in 0..32 {
                        w.set(d, l, pm);
                    }
                    w.setp(pd, u32::MAX, res_mask);
                }
            } else {
                for l in lanes(exec) {
                    w.set(d, l, pm);
                }
                w.setp(pd, exec, res_mask);
            }
        }
        WarpOp::Elect { d, pd, p } => {
            let candidates = w.pm(p) & exec;
            if exec != 0 {
                let elected = if candidates == 0 { 0 } else { 1u32 << candidates.trailing_zeros() };
                let lane = if candidates == 0 { 0 } else { candidates.trailing_zeros() };
                for l in 0..32 {
                    w.set(d, l, lane);
                }
                w.setp(pd, exec, elected);
            }
        }
        WarpOp::Redux { d, a, op, signed } => {
            if exec != 0 {
                let mut acc: Option<u32> = None;
                for l in lanes(exec) {
                    let v = w.ri(a, l);
                    acc = Some(match acc {
                        None => v,
                        Some(x) => match op {
                            0 => x & v,
                            1 => x | v,
                            2 => x ^ v,
                            3 => x.wrapping_add(v),
                            4 if signed => (x as i32).min(v as i32) as u32,
                            4 => x.min(v),
                            5 if signed => (x as i32).max(v as i32) as u32,
                            _ => x.max(v),
                        },
                    });
                }
                let v = acc.unwrap_or(0);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
        WarpOp::ReduxF32 { d, a, min, abs, nan } => {
            if exec != 0 {
                let v = num::redux_f32(lanes(exec).map(|l| w.ri(a, l)), min, abs, nan);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
        WarpOp::Match { d, pd, a, wide, all } => {
            let key = |w: &Warp, l: usize| if wide { w.r64(a, l) } else { u64::from(w.raw(a, l)) };
            let mut same_all = true;
            let first = if exec != 0 { Some(key(w, exec.trailing_zeros() as usize)) } else { None };
            let mut out = [0u32; 32];
            for l in lanes(exec) {
                let k = key(w, l);
                let m = lanes(exec).filter(|&o| key(w, o) == k).fold(0u32, |m, o| m | 1 << o);
                out[l] = m;
                same_all &= Some(k) == first;
            }
            for l in lanes(exec) {
                let v = if all { if same_all { exec } else { 0 } } else { out[l] };
                w.set(d, l, v);
            }
            if all {
                w.setp(pd, exec, if same_all { u32::MAX } else { 0 });
            }
        }
    }
    Ok(())
}
