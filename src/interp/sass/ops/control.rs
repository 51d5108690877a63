//! Control flow: exits, traps, branches, convergence barriers
//! (BSSY/BSYNC/BREAK/BMOV/WARPSYNC), calls and returns, CTA barriers, and
//! the instructions that do nothing here (fences, sleeps, dependency
//! barriers).
//!
//! The register file here is as large as any code addresses, so
//! `USETMAXREG`'s pool is not modelled: `.TRY_ALLOC` always gets its
//! registers (its predicate is true), `.DEALLOC` does nothing. Code within
//! the count it asks for runs the same either way.
//!
//! This module owns these instructions' semantics: [`ControlOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::op::*;
use crate::interp::{ErrorKind, InterpError};
use crate::isa::form::Slot;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Operand, Reg, RegFile, RegNum};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum ControlOp {
    Exit,
    Trap,
    /// `any` (`.ANY`): the whole group branches when any of its lanes would.
    Bra { target: u32, cond: P, uniform: bool, any: bool },
    /// `BRA.DIV URm` (taken unless every live thread of the mask runs here)
    /// and `BRA.CONV URm` (taken when they all do).
    BraConv { target: u32, cond: P, mask: S, conv: bool },
    Brx { a: S, base: u32 },
    Bssy { b: u8 },
    Bsync { b: u8 },
    /// `BREAK [cond,] Bn`: the lanes whose guard and condition hold leave Bn.
    Break { b: u8, cond: P },
    BmovToR { d: u16, b: u8, clear: bool },
    BmovToB { b: u8, a: S },
    Warpsync { a: S, exclusive: bool },
    Call { target: u32 },
    /// Call through a register holding a code address: absolute
    /// (`CALL.ABS`, `base` none) or an offset from `base` (`CALL.REL`,
    /// the section start).
    CallReg { a: S, base: Option<u32> },
    /// LEPC: a code address (the next instruction's, or a target's) into a pair.
    Lepc { d: u16, addr: u32 },
    /// A return of the lanes whose guard and condition `cond` hold (the
    /// others go on to the next instruction).
    Ret { a: S, base: u32, cond: P },
    /// A CTA barrier; `count`, where the thread count is a register, is
    /// that register and the shift of the count in it.
    Bar { id: S, red: Option<(u8, P)>, count: Option<(S, u8)> },
    B2r { d: u16, p: u8 },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_control(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let ops = cx.ops;
        let n = cx.n;
        Ok(Some(match cx.opcode {
            Opcode::NOP | Opcode::MEMBAR | Opcode::ERRBAR | Opcode::CCTL | Opcode::YIELD | Opcode::NANOSLEEP | Opcode::PMTRIG | Opcode::CGAERRBAR | Opcode::ENDCOLLECTIVE | Opcode::DEPBAR | Opcode::LDGDEPBAR => Op::Nop,
            // One grid at a time: nothing to wait for, nothing to let launch.
            Opcode::ACQBULK | Opcode::PREEXIT => Op::Nop,
            Opcode::USETMAXREG if cx.has(Mod::DEALLOC) => Op::Nop,
            Opcode::USETMAXREG => {
                let granted = self.pdst(cx.o(0)?)?;
                let t = P { r: UPT, not: false };
                Op::Bits(super::bits::BitsOp::Plop3 { d: [granted, granted], a: t, b: t, c: t, lut: [0xff, 0xff] })
            }
            // The interpreter's memory accesses happen in program order, in
            // one proxy: nothing to order.
            Opcode::FENCE => Op::Nop,
            Opcode::EXIT => Op::Control(ControlOp::Exit),
            Opcode::BPT => Op::Control(ControlOp::Trap),
            Opcode::BRA => {
                let uniform = cx.has(Mod::U) || cx.has(Mod::DIV);
                let t = cx.target(n - 1)?;
                // Forms: (cond pred, target), (uniform pred, cond pred, target), (pred, UR, target).
                if let (3, Some(Operand::Reg { reg: Reg { file: RegFile::Uniform, .. }, .. })) = (n, ops.get(1)) {
                    return Ok(Some(Op::Control(ControlOp::BraConv { target: t / 16, cond: self.psrc(cx.o(0)?)?, mask: self.src(cx.o(1)?, cx.sl(1), 1)?, conv: cx.has(Mod::CONV) })));
                }
                let cond = match (n, ops.first()) {
                    (3, Some(Operand::Reg { reg: Reg { file: RegFile::Pred | RegFile::UniformPred, .. }, .. })) => match cx.o(1)? {
                        Operand::Reg { reg: Reg { file: RegFile::Pred | RegFile::UniformPred, .. }, .. } => {
                            let a = self.psrc(cx.o(0)?)?;
                            let b = self.psrc(cx.o(1)?)?;
                            if b != P::TRUE && a != P::TRUE {
                                return Err(Bad);
                            }
                            if a == P::TRUE { b } else { a }
                        }
                        _ => return Err(Bad),
                    },
                    (2, _) => self.psrc(cx.o(0)?)?,
                    // `.ANY`: the condition is PT.
                    (1, _) => P::TRUE,
                    _ => return Err(Bad),
                };
                Op::Control(ControlOp::Bra { target: t / 16, cond, uniform, any: cx.has(Mod::ANY) })
            }
            Opcode::BRX | Opcode::BRXU => {
                let (a, rel) = match n {
                    2 => (self.src(cx.o(1)?, cx.sl(1), 1)?, 0i64),
                    3 => (self.src(cx.o(1)?, cx.sl(1), 1)?, match cx.o(2)? {
                        Operand::Target(t) => *t,
                        _ => return Err(Bad),
                    }),
                    _ => return Err(Bad),
                };
                if self.psrc(cx.o(0)?)? != P::TRUE {
                    return Err(Bad);
                }
                Op::Control(ControlOp::Brx { a, base: u32::try_from(i64::from(cx.next) + rel).map_err(|_| Bad)? })
            }
            Opcode::BSSY => Op::Control(ControlOp::Bssy { b: barrier(cx.o(0)?)? }),
            Opcode::BSYNC => Op::Control(ControlOp::Bsync { b: barrier(cx.o(0)?)? }),
            Opcode::BREAK => Op::Control(ControlOp::Break { b: barrier(cx.o(1)?)?, cond: self.psrc(cx.o(0)?)? }),
            Opcode::BMOV => match (cx.o(0)?, cx.o(1)?) {
                (Operand::Reg { reg: Reg { file: RegFile::Barrier, .. }, .. }, a) => Op::Control(ControlOp::BmovToB { b: barrier(cx.o(0)?)?, a: self.src(a, cx.sl(1), 1)? }),
                (d, b) => Op::Control(ControlOp::BmovToR { d: self.dst(d)?, b: barrier(b)?, clear: cx.has(Mod::CLEAR) }),
            },
            Opcode::WARPSYNC => {
                if cx.has(Mod::ALL) {
                    Op::Control(ControlOp::Warpsync { a: S { r: self.rows.constant(u32::MAX), m: 0 }, exclusive: false })
                } else if n == 1 {
                    Op::Control(ControlOp::Warpsync { a: self.src(cx.o(0)?, cx.sl(0), 1)?, exclusive: cx.has(Mod::EXCLUSIVE) })
                } else {
                    Op::Control(ControlOp::Warpsync { a: self.src(cx.o(1)?, cx.sl(1), 1)?, exclusive: cx.has(Mod::EXCLUSIVE) })
                }
            }
            Opcode::LEPC => match n {
                1 => Op::Control(ControlOp::Lepc { d: self.dst(cx.o(0)?)?, addr: cx.next }),
                _ => Op::Control(ControlOp::Lepc { d: self.dst(cx.o(0)?)?, addr: cx.target(1)? }),
            },
            Opcode::CALL => {
                if self.psrc(cx.o(0)?)? != P::TRUE {
                    return Err(Bad);
                }
                match cx.o(1)? {
                    Operand::Target(_) => Op::Control(ControlOp::Call { target: cx.target(1)? / 16 }),
                    // `CALL.REL.NOINC R6 0x0`: an offset in the section
                    // (the base, as RET.REL's); `CALL.ABS.NOINC R12`: an
                    // absolute address.
                    Operand::Reg { .. } => Op::Control(ControlOp::CallReg { a: self.src(cx.o(1)?, cx.sl(1), 1)?, base: if cx.has(Mod::REL) { Some(cx.target(2)?) } else { None } }),
                    _ => return Err(Bad),
                }
            }
            // `@P0 RET.REL.NODEC P1, R18`: a condition as BRA's (ptxas
            // 13.5's division routines return where the fast path's result
            // holds and the divisor is not tiny, and fall through to the
            // slow path otherwise).
            Opcode::RET => {
                let cond = self.psrc(cx.o(0)?)?;
                let base = if cx.has(Mod::ABS) { 0 } else { cx.target(2)? };
                Op::Control(ControlOp::Ret { a: self.src(cx.o(1)?, cx.sl(1), 1)?, base, cond })
            }
            Opcode::BAR => {
                let id = self.src(cx.o(0)?, cx.sl(0), 1)?;
                if cx.has(Mod::RED) {
                    let kind = if cx.has(Mod::POPC) { 0 } else if cx.has(Mod::AND) { 1 } else { 2 };
                    Op::Control(ControlOp::Bar { id, red: Some((kind, self.psrc(cx.o(1)?)?)), count: None })
                } else if cx.has(Mod::SYNC) && matches!(cx.sl(1), Slot::Again(_)) {
                    // `BAR.SYNC R11, R11`: the barrier in bits 0–3 of one
                    // register, the thread count from bit 16 (ptxas's code
                    // for `barrier.sync a, b` with registers).
                    Op::Control(ControlOp::Bar { id, red: None, count: Some((id, 16)) })
                } else if cx.has(Mod::SYNC) && matches!(cx.o(1), Ok(Operand::Reg { .. })) {
                    // `BAR.SYNC 0x1, R5`: the thread count in a register.
                    Op::Control(ControlOp::Bar { id, red: None, count: Some((self.src(cx.o(1)?, cx.sl(1), 1)?, 0)) })
                } else if cx.has(Mod::SYNC) && cx.o(1).is_ok() {
                    // A named barrier for part of the CTA: every barrier
                    // here waits for the whole CTA.
                    Op::Unsupported("BAR.SYNC with a thread count (a barrier of part of the CTA) is not modelled".into())
                } else if cx.has(Mod::SYNC) {
                    Op::Control(ControlOp::Bar { id, red: None, count: None })
                } else {
                    return Err(Bad);
                }
            }
            Opcode::B2R => Op::Control(ControlOp::B2r { d: self.dst(cx.o(0)?)?, p: self.pdst(cx.o(1)?)? }),
            // A launch without clusters is a cluster of one CTA: arriving
            // at the cluster's barrier is nothing and waiting on it waits
            // for the CTA's threads (a CTA barrier).
            Opcode::UCGABAR_ARV => Op::Nop,
            Opcode::UCGABAR_WAIT => Op::Control(ControlOp::Bar { id: S { r: RZ, m: 0 }, red: None, count: None }),
            _ => return Ok(None),
        }))
    }
}

fn barrier(op: &Operand) -> R<u8> {
    match op {
        Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(n) }, .. } if *n < 16 => Ok(*n),
        _ => Err(Bad),
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(cta: &mut Cta, w: &mut Warp, gi: usize, pc: u32, exec: u32, op: &ControlOp) -> Result<(), InterpError> {
    match *op {
        ControlOp::Exit => {
            if exec != 0 {
                w.exited |= exec;
                let g = &mut w.groups[gi];
                g.mask &= !exec;
                if g.mask == 0 {
                    let gone = w.groups.swap_remove(gi);
                    w.hz.drop_state(gone.hz);
                    if !w.groups.is_empty() {
                        release(w, false);
                    }
                    return Ok(());
                }
                release(w, false);
                // `gi` may have moved after a release; find the group at pc again.
                if let Some(i) = w.groups.iter().position(|g| g.pc == pc && g.wait == Wait::None) {
                    advance(w, i);
                }
                return Ok(());
            }
        }
        ControlOp::Trap => {
            if exec != 0 {
                return Err(InterpError::new(ErrorKind::Trap, "BPT.TRAP executed"));
            }
        }
        ControlOp::Bra { target, cond, uniform: _, any } => {
            let g = w.groups[gi];
            let taken = match exec & w.pm(cond) {
                0 => 0,
                _ if any => g.mask,
                t => t,
            };
            if taken == g.mask {
                w.groups[gi].pc = target;
                merge(&mut w.groups, &mut w.hz);
            } else if taken == 0 {
                advance(w, gi);
            } else {
                w.groups[gi].mask = g.mask & !taken;
                w.groups[gi].pc += 1;
                let hz = w.hz.split(g.hz);
                w.groups.push(Group { pc: target, mask: taken, wait: Wait::None, hz, exclusive: g.exclusive });
                merge(&mut w.groups, &mut w.hz);
            }
            return Ok(());
        }
        ControlOp::BraConv { target, cond, mask, conv } => {
            let live = !w.exited & w.all;
            let m = if exec != 0 { w.ri(mask, exec.trailing_zeros() as usize) } else { 0 };
            let converged = m & live & !w.groups[gi].mask == 0;
            let taken = exec & w.pm(cond) & if converged == conv { u32::MAX } else { 0 };
            if taken == 0 {
                advance(w, gi);
            } else {
                jump_lanes(w, gi, taken, |_, _| target);
            }
            return Ok(());
        }
        ControlOp::Brx { a, base } => {
            jump_lanes(w, gi, exec, |w, l| (base.wrapping_add(w.ri(a, l))) / 16);
            return Ok(());
        }
        ControlOp::Call { target } => {
            enter_call(w, exec, pc);
            jump_lanes(w, gi, exec, |_, _| target);
            return Ok(());
        }
        ControlOp::CallReg { a, base: Some(base) } => {
            enter_call(w, exec, pc);
            jump_lanes(w, gi, exec, |w, l| base.wrapping_add(w.ri(a, l)) / 16);
            return Ok(());
        }
        ControlOp::CallReg { a, base: None } => {
            // Address 0 is what the loader gives an undefined symbol, an
            // external function (ptxas's printf: `LDC.64 R12, c[0x4][..]`,
            // `CALL.ABS.NOINC R12` to vprintf, relocated). It runs as the PTX
            // interpreter's vprintf: nothing printed, 0 returned in R4, and
            // execution goes on after the call (where LEPC pointed the return).
            if exec != 0 && lanes(exec).all(|l| w.ri(a, l) == 0) {
                for l in lanes(exec) {
                    w.set(R_BASE + 4, l, 0);
                }
            } else {
                enter_call(w, exec, pc);
                jump_lanes(w, gi, exec, |w, l| w.ri(a, l) / 16);
                return Ok(());
            }
        }
        ControlOp::Lepc { d, addr } => {
            for l in lanes(exec) {
                w.set64(d, l, u64::from(addr));
            }
        }
        ControlOp::Ret { a, base, cond } => {
            let exec = exec & w.pm(cond);
            for l in lanes(exec) {
                w.calls[l].1 = w.calls[l].1.saturating_sub(1);
            }
            jump_lanes(w, gi, exec, |w, l| (base.wrapping_add(w.ri(a, l))) / 16);
            return Ok(());
        }
        ControlOp::Bssy { b } => {
            let m = w.groups[gi].mask;
            for l in lanes(m) {
                w.b[b as usize & 15][l] = m;
            }
        }
        ControlOp::Break { b, cond } => {
            // Out of the barrier, for every thread that waits on it, go
            // the threads whose guard and condition hold.
            let out = exec & w.pm(cond);
            for v in w.b[b as usize & 15].iter_mut() {
                *v &= !out;
            }
        }
        ControlOp::BmovToR { d, b, clear } => {
            for l in lanes(exec) {
                let v = w.b[b as usize & 15][l];
                w.set(d, l, v);
                if clear {
                    w.b[b as usize & 15][l] = 0;
                }
            }
        }
        ControlOp::BmovToB { b, a } => {
            for l in lanes(exec) {
                w.b[b as usize & 15][l] = w.ri(a, l);
            }
        }
        ControlOp::Bsync { b } => {
            if exec != 0 {
                hold(w, gi, exec, Wait::Bsync(b));
                return Ok(());
            }
        }
        ControlOp::Warpsync { a, exclusive: true } => {
            if exec != 0 {
                exclusive_sync(w, gi, exec, a);
                return Ok(());
            }
        }
        ControlOp::Warpsync { a, exclusive: false } => {
            if exec != 0 {
                let m = w.ri(a, exec.trailing_zeros() as usize);
                hold(w, gi, exec, Wait::Warpsync(m));
                return Ok(());
            }
        }
        // Guarded off in every lane of the group, a barrier is not arrived
        // at: the group goes on (ptxas's `@!P0 BAR.SYNC` closing a loop
        // whose exit condition is the same in every thread of the CTA).
        ControlOp::Bar { id: _, red, count } if exec != 0 => {
            let g = w.groups[gi];
            if exec != g.mask {
                return Err(InterpError::new(ErrorKind::Unsupported, "a predicated CTA barrier with some threads of the group guarded off"));
            }
            // Every barrier here waits for the whole CTA: a thread count
            // from a register must be the CTA's (0: every thread, as the
            // forms without a count).
            if let Some((c, shift)) = count {
                let n = w.ri(c, exec.trailing_zeros() as usize) >> shift;
                let threads = cta.block.iter().product::<u32>();
                if n != 0 && n != threads {
                    return Err(InterpError::new(ErrorKind::Unsupported, format!("a barrier of {n} of the CTA's {threads} threads is not modelled")));
                }
            }
            let pred = red.map_or(0, |(_, p)| w.pm(p));
            w.bar_pred = (w.bar_pred & !exec) | (pred & exec);
            if let Some((kind, _)) = red {
                cta.bar_kind = kind;
            }
            w.groups[gi].wait = Wait::Bar;
            merge(&mut w.groups, &mut w.hz);
            return Ok(());
        }
        ControlOp::Bar { .. } => {}
        ControlOp::B2r { d, p } => {
            let (count, and, or) = cta.bar_result;
            for l in lanes(exec) {
                w.set(d, l, count);
            }
            // AND and OR reductions read their result as a predicate.
            let v = match cta.bar_kind {
                1 => and,
                2 => or,
                _ => count != 0,
            };
            w.setp(p, exec, if v { u32::MAX } else { 0 });
        }
    }
    advance(w, gi);
    Ok(())
}

/// Moves the lanes of group `gi` to per-lane targets (instruction indices).
fn jump_lanes(w: &mut Warp, gi: usize, exec: u32, target: impl Fn(&Warp, usize) -> u32) {
    let g = w.groups[gi];
    // At most one target per lane: a fixed array, no allocation.
    let mut moved = [(0u32, 0u32); 32];
    let mut n = 0;
    for l in lanes(exec) {
        let t = target(w, l);
        match moved[..n].iter_mut().find(|(pc, _)| *pc == t) {
            Some((_, m)) => *m |= 1 << l,
            None => {
                if let Some(slot) = moved.get_mut(n) {
                    *slot = (t, 1 << l);
                    n += 1;
                }
            }
        }
    }
    let rest = g.mask & !exec;
    w.groups.swap_remove(gi);
    // The first group out keeps the parent's hazard state, the others copy it.
    let mut parent = Some(g.hz);
    let mut state = |hz: &mut GroupHazards| parent.take().unwrap_or_else(|| hz.split(g.hz));
    if rest != 0 {
        let hz = state(&mut w.hz);
        w.groups.push(Group { pc: g.pc + 1, mask: rest, wait: Wait::None, hz, exclusive: g.exclusive });
    }
    for &(pc, mask) in &moved[..n] {
        let hz = state(&mut w.hz);
        w.groups.push(Group { pc, mask, wait: Wait::None, hz, exclusive: g.exclusive });
    }
    merge(&mut w.groups, &mut w.hz);
}

/// `WARPSYNC.EXCLUSIVE a` in the lanes of `exec` of group `gi`: the lanes
/// naming one mask (each lane its own, the masks of a warp of tiles) whose
/// live threads are all here go on past it as an exclusive group each
/// ([`Group::exclusive`]); a mask with threads elsewhere holds its lanes
/// as a plain `WARPSYNC` does. Lanes guarded off go on as they were.
fn exclusive_sync(w: &mut Warp, gi: usize, exec: u32, a: S) {
    let g = w.groups[gi];
    let live = !w.exited & w.all;
    let mut rest = exec;
    let mut parts: smallvec::SmallVec<[(u32, u32); 4]> = smallvec::SmallVec::new();
    while rest != 0 {
        let m = w.ri(a, rest.trailing_zeros() as usize);
        let lanes_of_m = lanes(rest).filter(|&l| w.ri(a, l as usize) == m).fold(0u32, |acc, l| acc | 1 << l);
        rest &= !lanes_of_m;
        parts.push((m, lanes_of_m));
    }
    let off = g.mask & !exec;
    w.groups.swap_remove(gi);
    let mut parent = Some(g.hz);
    let mut state = |hz: &mut GroupHazards| parent.take().unwrap_or_else(|| hz.split(g.hz));
    if off != 0 {
        let hz = state(&mut w.hz);
        w.groups.push(Group { pc: g.pc + 1, mask: off, wait: Wait::None, hz, exclusive: g.exclusive });
    }
    let mut held = false;
    for (turn, (m, mask)) in parts.into_iter().enumerate() {
        let hz = state(&mut w.hz);
        if m & live & !mask == 0 {
            w.groups.push(Group { pc: g.pc + 1, mask, wait: Wait::None, hz, exclusive: turn.min(254) as u8 + 1 });
        } else {
            w.groups.push(Group { pc: g.pc, mask, wait: Wait::Warpsync(m), hz, exclusive: 0 });
            held = true;
        }
    }
    merge(&mut w.groups, &mut w.hz);
    if held {
        release(w, false);
    }
}

/// Records a CALL at `pc` in the lanes of `exec`.
fn enter_call(w: &mut Warp, exec: u32, pc: u32) {
    for l in lanes(exec) {
        let (site, depth) = &mut w.calls[l];
        if *depth == 0 {
            *site = pc;
        }
        *depth = depth.saturating_add(1);
    }
}
