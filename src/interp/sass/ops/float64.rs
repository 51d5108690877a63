//! f64 arithmetic: DADD, DMUL and DFMA.
//!
//! This module owns these instructions' semantics: [`Float64Op`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num::{self, Round};
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::Op as Opcode;

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Float64Op {
    Dadd { d: u16, a: S, b: S, rnd: Round },
    Dmul { d: u16, a: S, b: S, rnd: Round },
    Dfma { d: u16, a: S, b: S, c: S, rnd: Round },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_float64(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        Ok(Some(match cx.opcode {
            Opcode::DADD => Op::Float64(Float64Op::Dadd { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 2)?, b: self.src(cx.o(2)?, cx.sl(2), 2)?, rnd: cx.rnd() }),
            Opcode::DMUL => Op::Float64(Float64Op::Dmul { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 2)?, b: self.src(cx.o(2)?, cx.sl(2), 2)?, rnd: cx.rnd() }),
            Opcode::DFMA => Op::Float64(Float64Op::Dfma { d: self.dst(cx.o(0)?)?, a: self.src(cx.o(1)?, cx.sl(1), 2)?, b: self.src(cx.o(2)?, cx.sl(2), 2)?, c: self.src(cx.o(3)?, cx.sl(3), 2)?, rnd: cx.rnd() }),
            _ => return Ok(None),
        }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(w: &mut Warp, exec: u32, op: &Float64Op) -> Result<(), InterpError> {
    match *op {
        Float64Op::Dadd { d, a, b, rnd } => {
            for l in lanes(exec) {
                let v = num::add64(w.rd(a, l), w.rd(b, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
        Float64Op::Dmul { d, a, b, rnd } => {
            for l in lanes(exec) {
                let v = num::mul64(w.rd(a, l), w.rd(b, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
        Float64Op::Dfma { d, a, b, c, rnd } => {
            for l in lanes(exec) {
                let v = num::fma64(w.rd(a, l), w.rd(b, l), w.rd(c, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
    }
    Ok(())
}
