//! Special registers and the moves into the uniform datapath: S2R, S2UR,
//! CS2R and R2UR.
//!
//! This module owns these instructions' semantics: [`SpecialOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::Operand;

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum SpecialOp {
    S2r { d: u16, sr: u8 },
    Cs2r { d: u16, sr: u8, n: u8 },
    /// R2UR: the value of the first active lane, to all lanes.
    R2ur { d: u16, a: S },
    /// R2UR with a predicate result: `d` as R2UR's; `p`, in each active
    /// lane, whether its `a` differs from that value (or'ed into `p` with
    /// `.OR`).
    R2urDiffers { p: u8, d: u16, a: S, or: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_special(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let n = cx.n;
        Ok(Some(match cx.opcode {
            Opcode::S2R | Opcode::S2UR => match cx.o(1)? {
                Operand::SpecialReg(sr) => Op::Special(SpecialOp::S2r { d: self.dst(cx.o(0)?)?, sr: *sr }),
                _ => return Err(Bad),
            },
            Opcode::CS2R | Opcode::CS2UR => match cx.o(1)? {
                Operand::SpecialReg(sr) => Op::Special(SpecialOp::Cs2r { d: self.dst(cx.o(0)?)?, sr: *sr, n: if cx.has(Mod::_32) { 1 } else { 2 } }),
                _ => return Err(Bad),
            },
            Opcode::R2UR if n == 2 => Op::Special(SpecialOp::R2ur { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 1)? }),
            // The predicate result, per lane: whether the lane's value is
            // another than the one taken. ptxas 13.5's loop over a warp's
            // texture handles needs exactly that: `@P0 R2UR P1, UR6, R2;
            // @P0 R2UR.OR P1, UR7, R3; @!P1 TEX ... UR6; @P0 PLOP3 P0 = P1;
            // @P0 BRA.U.ANY` runs the fetch in the lanes whose handle was
            // taken and keeps the others in the loop (a warp-wide "all the
            // same" would fetch with one lane's handle for every lane, or
            // loop for ever). Its other use, `R2UR P1, URZ, R4; @!P1
            // BRA.DIV`, then tests for a divergent warp where the member
            // masks agree.
            Opcode::R2UR if n == 3 => Op::Special(SpecialOp::R2urDiffers { p: self.pdst(cx.o(0)?)?, d: self.dst(cx.o(1)?)?, a: self.src(cx.o(2)?, cx.sl(2), 1)?, or: cx.has(Mod::OR) }),
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(cta: &mut Cta, w: &mut Warp, pc: u32, exec: u32, op: &SpecialOp) -> Result<(), InterpError> {
    match *op {
        SpecialOp::S2r { d, sr } => {
            let steps = pc as u64;
            for l in lanes(exec) {
                let v = special(cta, w, sr, l, steps);
                w.set(d, l, v);
            }
        }
        SpecialOp::Cs2r { d, sr, n } => {
            for l in lanes(exec) {
                let v = special(cta, w, sr, l, pc as u64);
                w.set(d, l, v);
                if n == 2 {
                    let hi = if sr == 0x50 { special(cta, w, 0x51, l, pc as u64) } else { 0 };
                    w.set(d + 1, l, hi);
                }
            }
        }
        SpecialOp::R2urDiffers { p, d, a, or } => {
            if exec != 0 {
                let first = w.ri(a, exec.trailing_zeros() as usize);
                let mut differ = lanes(exec).filter(|&l| w.ri(a, l) != first).fold(0u32, |m, l| m | 1 << l);
                if or {
                    differ |= w.pm(P { r: p, not: false });
                }
                for l in 0..32 {
                    w.set(d, l, first);
                }
                w.setp(p, exec, differ);
            }
        }
        SpecialOp::R2ur { d, a } => {
            if exec != 0 {
                let v = w.ri(a, exec.trailing_zeros() as usize);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
    }
    Ok(())
}
