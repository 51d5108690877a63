//! Memory: constant loads (LDC, ULDC), loads and stores of every space,
//! atomics and reductions, QSPC, asynchronous copies (LDGSTS, UBLKCP),
//! mbarriers (SYNCS) and UGETNEXTWORKID.
//!
//! This module owns these instructions' semantics: [`MemoryOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::num::{self, Round};
use super::super::op::*;
use crate::interp::InterpError;
use crate::interp::memory::{FaultKind, MemFault};
use crate::isa::form::Slot;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::Operand;

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// Add (integer or float).
    Add,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Increment modulo.
    Inc,
    /// Decrement modulo.
    Dec,
    /// And.
    And,
    /// Or.
    Or,
    /// Xor.
    Xor,
    /// Exchange.
    Exch,
    /// Compare and swap.
    Cas,
}

/// Operand type of an atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomType {
    /// u32.
    U32,
    /// s32.
    S32,
    /// u64.
    U64,
    /// s64.
    S64,
    /// f32.
    F32,
    /// f64.
    F64,
    /// f16x2.
    F16x2,
}

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum MemoryOp {
    Ldc { d: u16, bank: u8, index: u16, offset: i32, w: Width },
    Ld { d: u16, addr: Addr, w: Width, space: Space },
    /// LDG.E.ENL2.256: of 32 bytes of global memory, the 32-bit components
    /// each quad's mask selects (bit `c`: component `c`), into consecutive
    /// rows from the quad's (the sink's for RZ): components 0–3 go to the
    /// quad printed second (bits 16–23), 4–7 to the one printed first
    /// (64–71); ptxas 13.5's `ld.global.v8.b32` on sm_100 reads the PTX's
    /// first four values from the former ([`Inst::quad_components`]).
    ///
    /// [`Inst::quad_components`]: crate::isa::inst::Inst::quad_components
    Ld256 { quads: [(u16, u8); 2], addr: Addr },
    St { s: u16, addr: Addr, w: Width, space: Space },
    /// STG.E.ENL2.256: the components each quad's mask selects, from
    /// consecutive rows from the quad's (zeros for RZ), to their places in
    /// the 32 bytes at `addr`; the other bytes are left alone.
    St256 { quads: [(u16, u8); 2], addr: Addr },
    /// An atomic; `pd` (a sink when the text says `PT`) gets whether it
    /// was performed (see the executor for generic packed-half atomics).
    Atom { d: u16, pd: u8, addr: Addr, b: u16, c: u16, op: AtomOp, ty: AtomType, space: Space },
    /// QSPC: whether each lane's generic address lies in `space` (global,
    /// local or shared), into the predicate `pd`.
    Qspc { pd: u8, addr: Addr, space: Space },
    /// LDGSTS: per lane where `valid` holds, `bytes` bytes from the global
    /// address `src` to the shared address `dst`; with `zfill` the source
    /// address's bytes below the size count bytes zero-filled at the end.
    /// Where `valid` does not hold, zeros.
    Ldgsts { dst: Addr, src: Addr, bytes: u8, zfill: bool, valid: P },
    /// SYNCS.EXCH.64: once per warp, the uniform pair `data` stored as the
    /// mbarrier word at the shared address `addr`; the old word to the pair
    /// `d` (the word's layout: `super::exec`, "mbarrier").
    MbarExch { d: u16, addr: Addr, data: S },
    /// SYNCS.ARRIVE.TRANS64 (`.A1T0`: `tx` is RZ): per lane, one arrival at
    /// the mbarrier at `addr` that also expects `tx` transaction bytes; the
    /// word before it to the pair `d`.
    MbarArrive { d: u16, addr: Addr, tx: S },
    /// SYNCS.PHASECHK.TRANS64(.TRYWAIT): per lane, whether the mbarrier's
    /// phase of parity `parity` has completed, to `pd`.
    MbarPhase { pd: u8, addr: Addr, parity: S },
    /// UBLKCP.S.G: once per warp, `units` (low 16 bits) × 16 bytes from the
    /// global pair `src` to the shared address `dst`; the next register
    /// after `dst`'s holds the mbarrier on which the bytes complete.
    BulkToShared { dst: Addr, src: Addr, units: S },
    /// UBLKCP.G.S{.DST_G_BYTE_MASK}: once per warp, `count`'s low 16 bits ×
    /// 16 bytes from the shared address `src` to the global pair `dst`;
    /// `masked`: only the bytes whose bit (byte offset mod 16) of `count`'s
    /// high half is set.
    BulkToGlobal { dst: Addr, src: Addr, count: S, masked: bool },
    /// UGETNEXTWORKID.SELFCAST: once per warp, the response of a
    /// cancellation that fails (16 zero bytes: no CTA is left to cancel
    /// while one runs here at a time) to the shared address `resp`; its
    /// bytes complete on the mbarrier at the next register's address.
    NextWorkId { resp: Addr },
    AtomsPopcInc { d: u16, addr: Addr },
    /// ATOMS.CAST(.SPIN): where the shared word (pair with `wide`) at
    /// `addr` equals `b`, store `c`; the success (1 or 0) to `d`, or to the
    /// predicate `pd` (sm_120's form; the other destination is a sink).
    AtomsCast { d: u16, pd: u8, addr: Addr, b: u16, c: u16, wide: bool },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_memory(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::SYNCS if toks == [Mod::EXCH, Mod::_64] => Op::Memory(MemoryOp::MbarExch { d: self.dst(cx.o(0)?)?, addr: self.addr(cx.o(1)?)?, data: self.src(cx.o(2)?, cx.sl(2), 2)? }),
            Opcode::SYNCS if toks == [Mod::ARRIVE, Mod::TRANS64] || toks == [Mod::ARRIVE, Mod::TRANS64, Mod::A1T0] => {
                Op::Memory(MemoryOp::MbarArrive { d: self.dst(cx.o(0)?)?, addr: self.addr(cx.o(1)?)?, tx: self.src(cx.o(2)?, cx.sl(2), 1)? })
            }
            Opcode::SYNCS if toks == [Mod::PHASECHK, Mod::TRANS64, Mod::TRYWAIT] || toks == [Mod::PHASECHK, Mod::TRANS64] => {
                Op::Memory(MemoryOp::MbarPhase { pd: self.pdst(cx.o(0)?)?, addr: self.addr(cx.o(1)?)?, parity: self.src(cx.o(2)?, cx.sl(2), 1)? })
            }
            Opcode::UBLKCP if toks == [Mod::S, Mod::G] => {
                let mut src = self.addr(cx.o(1)?)?;
                src.wide = true;
                Op::Memory(MemoryOp::BulkToShared { dst: self.addr(cx.o(0)?)?, src, units: self.src(cx.o(2)?, cx.sl(2), 1)? })
            }
            Opcode::UBLKCP if toks == [Mod::G, Mod::S] || toks == [Mod::G, Mod::S, Mod::DST_G_BYTE_MASK] => {
                let mut dst = self.addr(cx.o(0)?)?;
                dst.wide = true;
                Op::Memory(MemoryOp::BulkToGlobal { dst, src: self.addr(cx.o(1)?)?, count: self.src(cx.o(2)?, cx.sl(2), 1)?, masked: cx.has(Mod::DST_G_BYTE_MASK) })
            }
            Opcode::UGETNEXTWORKID if toks == [Mod::SELFCAST] => Op::Memory(MemoryOp::NextWorkId { resp: self.addr(cx.o(0)?)? }),
            // Bulk groups complete at once here: nothing to close or wait
            // for; the mbarrier state is never cached.
            Opcode::UTMACMDFLUSH => Op::Nop,
            Opcode::SYNCS if toks == [Mod::CCTL, Mod::IVALL] => Op::Nop,
            Opcode::ULDC => {
                let w = width(toks);
                match cx.o(1)? {
                    Operand::CBank { bank, offset, .. } => Op::Memory(MemoryOp::Ldc { d: self.dst(cx.o(0)?)?, bank: *bank, index: URZ, offset: i32::from(*offset), w }),
                    // `ULDC UR4, c[0x2][UR4+0x10]`: a uniform index register.
                    Operand::ConstAddr { bank, index, offset } => Op::Memory(MemoryOp::Ldc { d: self.dst(cx.o(0)?)?, bank: *bank, index: read_row(*index).ok_or(Bad)?, offset: *offset, w }),
                    _ => return Err(Bad),
                }
            }
            Opcode::LDC | Opcode::LDCU => {
                let w = width(toks);
                match cx.o(1)? {
                    Operand::ConstAddr { bank, index, offset } => Op::Memory(MemoryOp::Ldc { d: self.dst(cx.o(0)?)?, bank: *bank, index: read_row(*index).ok_or(Bad)?, offset: *offset, w }),
                    _ => return Err(Bad),
                }
            }
            // `LDG.E.ENL2.256 R8, R4, desc[UR4][R4.64]`: two result quads;
            // `STG.E.ENL2.256 desc[UR4][R2.64], R4, R8`: two data quads;
            // either with a mask of the components that move (`, 0x80`).
            Opcode::LDG | Opcode::STG if cx.has(Mod::_256) => {
                let at = cx.slots.iter().position(|s| matches!(s, Slot::Addr { .. })).ok_or(Bad)?;
                let mut addr = self.addr(cx.o(at)?)?;
                addr.wide = true;
                let load = cx.opcode == Opcode::LDG;
                let mut quads = [(0, 0); 2];
                for (q, (k, mask)) in quads.iter_mut().zip(cx.inst.quad_components().ok_or(Bad)?) {
                    // Four zero rows read as RZ and four sink rows take its
                    // writes: a quad of RZ stays within them.
                    let row = match cx.o(k)? {
                        op @ Operand::Reg { .. } if load => self.dst(op)?,
                        Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                        _ => return Err(Bad),
                    };
                    *q = (row, mask);
                }
                Op::Memory(if load { MemoryOp::Ld256 { quads, addr } } else { MemoryOp::St256 { quads, addr } })
            }
            Opcode::LDG | Opcode::LD | Opcode::LDS | Opcode::LDL => {
                let space = space(cx.opcode);
                let mut addr = self.addr(cx.o(1)?)?;
                addr.wide = matches!(cx.sl(1), Slot::Addr { wide: true, .. }) || self.e_is_wide(space, cx.has(Mod::E));
                addr.base32 = matches!(cx.sl(1), Slot::Addr { u32_base: true, .. });
                Op::Memory(MemoryOp::Ld { d: self.dst(cx.o(0)?)?, addr, w: width(toks), space })
            }
            Opcode::STG | Opcode::ST | Opcode::STS | Opcode::STL => {
                let space = space(cx.opcode);
                let mut addr = self.addr(cx.o(0)?)?;
                addr.wide = matches!(cx.sl(0), Slot::Addr { wide: true, .. }) || self.e_is_wide(space, cx.has(Mod::E));
                addr.base32 = matches!(cx.sl(0), Slot::Addr { u32_base: true, .. });
                let s = match cx.o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::Memory(MemoryOp::St { s, addr, w: width(toks), space })
            }
            Opcode::ATOMG | Opcode::ATOMS | Opcode::RED | Opcode::REDG | Opcode::ATOM => {
                if cx.opcode == Opcode::ATOMS && cx.has(Mod::POPC) {
                    let mut addr = self.addr(cx.o(1)?)?;
                    addr.wide = false;
                    return Ok(Some(Op::Memory(MemoryOp::AtomsPopcInc { d: self.dst(cx.o(0)?)?, addr })));
                }
                let space = match cx.opcode {
                    Opcode::ATOMS => Space::Shared,
                    Opcode::ATOM => Space::Generic,
                    _ => Space::Global,
                };
                if cx.opcode == Opcode::ATOMS && cx.has(Mod::CAST) {
                    let (d, pd) = match cx.sl(0) {
                        Slot::Pred { .. } => (R_SINK, self.pdst(cx.o(0)?)?),
                        _ => (self.dst(cx.o(0)?)?, P_SINK),
                    };
                    let mut addr = self.addr(cx.o(1)?)?;
                    addr.wide = false;
                    let reg = |k: usize| -> R<u16> {
                        match cx.o(k)? {
                            Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                            _ => Err(Bad),
                        }
                    };
                    return Ok(Some(Op::Memory(MemoryOp::AtomsCast { d, pd, addr, b: reg(2)?, c: reg(3)?, wide: cx.has(Mod::_64) })));
                }
                let op = atom_op(toks).ok_or(Bad)?;
                let ty = atom_type(toks).ok_or(Bad)?;
                // Packed halves only add; f64 only adds, exchanges and compares
                // (other operations on them are not modelled).
                if ty == AtomType::F16x2 && op != AtomOp::Add || ty == AtomType::F64 && matches!(op, AtomOp::Min | AtomOp::Max) {
                    return Err(Bad);
                }
                // Operand lists: ATOMG (Pred, Rd, [a], Rb[, Rc]); ATOMS (Rd, [a], Rb); RED (addr, Rb).
                let (d, pd, ai) = match (cx.opcode, cx.sl(0)) {
                    (Opcode::RED | Opcode::REDG, _) => (R_SINK, P_SINK, 0),
                    (_, Slot::Pred { .. }) => (self.dst(cx.o(1)?)?, self.pdst(cx.o(0)?)?, 2),
                    _ => (self.dst(cx.o(0)?)?, P_SINK, 1),
                };
                let mut addr = self.addr(cx.o(ai)?)?;
                // `.E` is a 64-bit address even where the text prints `[R2]`
                // (ATOMG.E.CAS has no `.64` on its address operand).
                addr.wide = matches!(cx.sl(ai), Slot::Addr { wide: true, .. }) || (space != Space::Shared && cx.has(Mod::E));
                let reg = |k: usize| -> R<u16> {
                    match cx.o(k)? {
                        Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                        _ => Err(Bad),
                    }
                };
                let b = reg(ai + 1)?;
                let c = if op == AtomOp::Cas { reg(ai + 2)? } else { RZ };
                Op::Memory(MemoryOp::Atom { d, pd, addr, b, c, op, ty, space })
            }
            Opcode::LDGSTS => {
                let dst = match cx.sl(0) {
                    // The zero-base form (`[RZ]`, a fixed text).
                    Slot::Text(_) => Addr { base: RZ, wide: false, base32: false, offset: 0, ur: URZ, shift: 0 },
                    _ => self.addr(cx.o(0)?)?,
                };
                let mut src = self.addr(cx.o(1)?)?;
                src.wide = true;
                let bytes = if cx.has(Mod::_128) { 16 } else if cx.has(Mod::_64) { 8 } else { 4 };
                Op::Memory(MemoryOp::Ldgsts { dst, src, bytes, zfill: cx.has(Mod::ZFILL), valid: self.psrc(cx.o(2)?)? })
            }
            Opcode::QSPC => {
                let space = if cx.has(Mod::G) {
                    Space::Global
                } else if cx.has(Mod::L) {
                    Space::Local
                } else if cx.has(Mod::S) {
                    Space::Shared
                } else {
                    // `.D` (distributed shared memory of a cluster): no clusters here.
                    return Err(Bad);
                };
                // The register result is RZ in all ptxas emits; what it would
                // hold is not measured.
                if self.dst(cx.o(1)?)? != R_SINK {
                    return Err(Bad);
                }
                let mut addr = self.addr(cx.o(2)?)?;
                // `.E`: a 64-bit pair, printed as one register (`[R2]`).
                addr.wide = matches!(cx.sl(2), Slot::Addr { wide: true, .. }) || cx.has(Mod::E);
                Op::Memory(MemoryOp::Qspc { pd: self.pdst(cx.o(0)?)?, addr, space })
            }
            _ => return Ok(None),
        }))
    }
}

fn space(opcode: Opcode) -> Space {
    match opcode {
        Opcode::LDG | Opcode::STG => Space::Global,
        Opcode::LDS | Opcode::STS => Space::Shared,
        Opcode::LDL | Opcode::STL => Space::Local,
        _ => Space::Generic,
    }
}

fn width(toks: &[Mod]) -> Width {
    for t in toks {
        let w = match t {
            Mod::U8 => Width { bytes: 1, signed: false },
            Mod::S8 => Width { bytes: 1, signed: true },
            Mod::U16 => Width { bytes: 2, signed: false },
            Mod::S16 => Width { bytes: 2, signed: true },
            Mod::_64 => Width { bytes: 8, signed: false },
            Mod::_128 => Width { bytes: 16, signed: false },
            _ => continue,
        };
        return w;
    }
    Width { bytes: 4, signed: false }
}

fn atom_op(toks: &[Mod]) -> Option<AtomOp> {
    toks.iter().find_map(|t| {
        Some(match t {
            Mod::ADD => AtomOp::Add,
            Mod::MIN => AtomOp::Min,
            Mod::MAX => AtomOp::Max,
            Mod::INC => AtomOp::Inc,
            Mod::DEC => AtomOp::Dec,
            Mod::AND => AtomOp::And,
            Mod::OR => AtomOp::Or,
            Mod::XOR => AtomOp::Xor,
            Mod::EXCH => AtomOp::Exch,
            Mod::CAS => AtomOp::Cas,
            _ => return None,
        })
    })
}

/// The operand type of an atomic; `None` for the vector and bf16 types
/// (`.F16x4`, `.BF16x2`, `.F32x2`, `.128`, …), not modelled.
fn atom_type(toks: &[Mod]) -> Option<AtomType> {
    let unmodelled = |t: &Mod| {
        matches!(t, Mod::F16x4 | Mod::F16x8 | Mod::F32x2 | Mod::F32x4 | Mod::BF16 | Mod::BF16x2 | Mod::BF16x4 | Mod::BF16x8 | Mod::_128)
    };
    if toks.iter().any(unmodelled) {
        return None;
    }
    Some(if toks.contains(&Mod::F32) {
        AtomType::F32
    } else if toks.contains(&Mod::F64) {
        AtomType::F64
    } else if toks.contains(&Mod::F16x2) {
        AtomType::F16x2
    } else if toks.contains(&Mod::S64) {
        AtomType::S64
    } else if toks.contains(&Mod::_64) {
        AtomType::U64
    } else if toks.contains(&Mod::S32) {
        AtomType::S32
    } else {
        AtomType::U32
    })
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(cta: &mut Cta, w: &mut Warp, exec: u32, op: &MemoryOp, memory: &mut crate::interp::memory::GlobalMemory) -> Result<(), InterpError> {
    match *op {
        MemoryOp::Ldc { d, bank, index, offset, w: width } => {
            let data = cta.loaded.banks.get(usize::from(bank)).map_or(&[][..], Vec::as_slice);
            for l in lanes(exec) {
                let at = i64::from(w.raw(S { r: index, m: 0 }, l) as i32) + i64::from(offset);
                let n = usize::from(width.bytes);
                let bytes = usize::try_from(at).ok().and_then(|at| data.get(at..at + n)).ok_or_else(|| fault(MemFault { address: at as u64, size: n as u64, kind: FaultKind::OutOfBounds, space: "constant" }))?;
                write_loaded(w, d, l, bytes, width);
            }
        }
        MemoryOp::Ld { d, addr, w: width @ Width { bytes: 4, .. }, space: Space::Local } => {
            // Stack traffic (spills, frames of calls): a word the thread
            // has touched before is read in place; anything else (first
            // touch, a fault) takes the general path.
            let at = addresses(w, &addr, exec);
            let threads = cta.local.get(w.first_thread as usize..).unwrap_or_default();
            let mut slow = exec;
            if let Some(dst) = w.r.get_mut(d as usize) {
                for l in lanes(exec) {
                    if let Some(v) = threads.get(l).and_then(|m| m.word(at[l])) {
                        dst[l] = v;
                        slow &= !(1 << l);
                    }
                }
            }
            for l in lanes(slow) {
                load_lane(cta, memory, w, d, at[l], width, Space::Local, l)?;
            }
        }
        MemoryOp::Ld { d, addr, w: width, space } => {
            let at = addresses(w, &addr, exec);
            for l in lanes(exec) {
                load_lane(cta, memory, w, d, at[l], width, space, l)?;
            }
        }
        MemoryOp::Ld256 { quads, addr } => {
            let word = Width { bytes: 4, signed: false };
            for (l, row, at) in quad_words(w, &addr, exec, &quads)? {
                load_lane(cta, memory, w, row, at, word, Space::Global, l)?;
            }
        }
        MemoryOp::St256 { quads, addr } => {
            let word = Width { bytes: 4, signed: false };
            for (l, row, at) in quad_words(w, &addr, exec, &quads)? {
                store_lane(cta, memory, w, row, at, word, Space::Global, l)?;
            }
        }
        MemoryOp::St { s, addr, w: width @ Width { bytes: 4, .. }, space: Space::Local } => {
            let at = addresses(w, &addr, exec);
            let src = w.r.get(s as usize).unwrap_or(&ZERO_ROW);
            let threads = cta.local.get_mut(w.first_thread as usize..).unwrap_or_default();
            let mut slow = 0u32;
            for l in lanes(exec) {
                if !threads.get_mut(l).is_some_and(|m| m.set_word(at[l], src[l])) {
                    slow |= 1 << l;
                }
            }
            for l in lanes(slow) {
                store_lane(cta, memory, w, s, at[l], width, Space::Local, l)?;
            }
        }
        MemoryOp::St { s, addr, w: width, space } => {
            let at = addresses(w, &addr, exec);
            for l in lanes(exec) {
                store_lane(cta, memory, w, s, at[l], width, space, l)?;
            }
        }
        MemoryOp::Atom { d, pd, addr, b, c, op: aop, ty, space } => {
            let mut performed = 0u32;
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                // A generic packed-half atomic acts on global memory only: on
                // a shared or local address it leaves memory and `d` alone
                // and clears its predicate. ptxas relies on that: after
                // `ATOM.E.ADD.F16x2 P0, …` it exits where P0 holds and
                // otherwise asks QSPC whether the address is shared and does
                // the add itself (an ATOMS.CAST.SPIN loop; half_ops.cu's
                // h_atomic_accum on every SM).
                if space == Space::Generic && ty == AtomType::F16x2 && resolve(space, at).0 != Space::Global {
                    continue;
                }
                performed |= LANE_BITS[l];
                let wide = matches!(ty, AtomType::U64 | AtomType::S64 | AtomType::F64);
                let n = if wide { 8 } else { 4 };
                let mut buf = [0u8; 8];
                read_mem(cta, memory, space, w.first_thread as usize + l, at, &mut buf[..n])?;
                let old = u64::from_le_bytes(buf);
                let bv = if wide { w.r64(S { r: b, m: 0 }, l) } else { u64::from(w.raw(S { r: b, m: 0 }, l)) };
                let cv = if wide { w.r64(S { r: c, m: 0 }, l) } else { u64::from(w.raw(S { r: c, m: 0 }, l)) };
                let new = atom_apply(aop, ty, old, bv, cv);
                write_mem(cta, memory, space, w.first_thread as usize + l, at, &new.to_le_bytes()[..n])?;
                if wide {
                    w.set64(d, l, old);
                } else {
                    w.set(d, l, old as u32);
                }
            }
            w.setp(pd, exec, performed);
        }
        MemoryOp::Ldgsts { dst, src, bytes, zfill, valid } => {
            // Done at once: the copy's completion (LDGDEPBAR, DEPBAR.LE) has
            // nothing left to wait for.
            let n = usize::from(bytes);
            let ok = w.pm(valid);
            for l in lanes(exec) {
                let from = address(w, &src, l);
                let fill = match (ok & LANE_BITS[l] != 0, zfill) {
                    (false, _) => n,
                    (true, true) => (from % u64::from(bytes)) as usize,
                    (true, false) => 0,
                };
                let from = from - (fill as u64 % u64::from(bytes));
                let mut buf = [0u8; 16];
                // Byte by byte: the source may end before the copy's size.
                for (k, b) in buf[..n - fill].iter_mut().enumerate() {
                    read_mem(cta, memory, Space::Global, w.first_thread as usize + l, from + k as u64, std::slice::from_mut(b))?;
                }
                write_mem(cta, memory, Space::Shared, w.first_thread as usize + l, address(w, &dst, l), &buf[..n])?;
            }
        }
        MemoryOp::MbarExch { d, addr, data } => {
            if let Some(l) = lanes(exec).next() {
                let at = address(w, &addr, l);
                let old = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, w.r64(data, l))?;
                for l in lanes(exec) {
                    w.set64(d, l, old);
                }
            }
        }
        MemoryOp::MbarArrive { d, addr, tx } => {
            // Lanes in order, each seeing the arrivals of the lanes before it.
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                let old = mbarrier::read(cta, memory, at)?;
                let new = mbarrier::complete_if_done(mbarrier::arrive(old, w.raw(tx, l)));
                mbarrier::write(cta, memory, at, new)?;
                w.set64(d, l, old);
            }
        }
        MemoryOp::MbarPhase { pd, addr, parity } => {
            let mut done = 0u32;
            for l in lanes(exec) {
                let word = mbarrier::read(cta, memory, address(w, &addr, l))?;
                if mbarrier::phase_done(word, w.raw(parity, l)) {
                    done |= LANE_BITS[l];
                }
            }
            w.setp(pd, exec, done);
        }
        MemoryOp::BulkToShared { dst, src, units } => {
            // Done at once, its bytes completing on the mbarrier as it issues.
            if let Some(l) = lanes(exec).next() {
                let n = (w.raw(units, l) & 0xffff) as usize * 16;
                let (to, from) = (address(w, &dst, l), address(w, &src, l));
                let mut buf = vec![0u8; n];
                read_mem(cta, memory, Space::Global, 0, from, &mut buf)?;
                write_mem(cta, memory, Space::Shared, 0, to, &buf)?;
                let at = u64::from(w.raw(S { r: dst.ur + 1, m: 0 }, l));
                let word = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, mbarrier::complete_if_done(mbarrier::complete_tx(word, n as u32)))?;
            }
        }
        MemoryOp::BulkToGlobal { dst, src, count, masked } => {
            if let Some(l) = lanes(exec).next() {
                let c = w.raw(count, l);
                let n = (c & 0xffff) as usize * 16;
                let (to, from) = (address(w, &dst, l), address(w, &src, l));
                let mut buf = vec![0u8; n];
                read_mem(cta, memory, Space::Shared, 0, from, &mut buf)?;
                if masked {
                    // Byte by byte where the mask keeps it.
                    for (k, b) in buf.iter().enumerate() {
                        if c >> (16 + k % 16) & 1 == 1 {
                            write_mem(cta, memory, Space::Global, 0, to + k as u64, std::slice::from_ref(b))?;
                        }
                    }
                } else {
                    write_mem(cta, memory, Space::Global, 0, to, &buf)?;
                }
            }
        }
        MemoryOp::NextWorkId { resp } => {
            if let Some(l) = lanes(exec).next() {
                write_mem(cta, memory, Space::Shared, 0, address(w, &resp, l), &[0u8; 16])?;
                let at = u64::from(w.raw(S { r: resp.ur + 1, m: 0 }, l));
                let word = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, mbarrier::complete_if_done(mbarrier::complete_tx(word, 16)))?;
            }
        }
        MemoryOp::Qspc { pd, addr, space } => {
            let at = addresses(w, &addr, exec);
            let inside = mask_of(|l| exec & LANE_BITS[l] != 0 && resolve(Space::Generic, at[l]).0 == space);
            w.setp(pd, exec, inside);
        }
        MemoryOp::AtomsCast { d, pd, addr, b, c, wide } => {
            // Lanes in order, each seeing the stores of the lanes before it.
            let n = if wide { 8 } else { 4 };
            let mut success = 0u32;
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                let mut buf = [0u8; 8];
                read_mem(cta, memory, Space::Shared, 0, at, &mut buf[..n])?;
                let old = u64::from_le_bytes(buf);
                let (bv, cv) = if wide {
                    (w.r64(S { r: b, m: 0 }, l), w.r64(S { r: c, m: 0 }, l))
                } else {
                    (u64::from(w.raw(S { r: b, m: 0 }, l)), u64::from(w.raw(S { r: c, m: 0 }, l)))
                };
                let stored = old == bv;
                if stored {
                    write_mem(cta, memory, Space::Shared, 0, at, &cv.to_le_bytes()[..n])?;
                }
                success |= u32::from(stored) << l;
                w.set(d, l, u32::from(stored));
            }
            w.setp(pd, exec, success);
        }
        MemoryOp::AtomsPopcInc { d, addr } => {
            // Lanes may name different words (ptxas emits this for
            // `atomicAdd(&shared[i], 1)` with per-lane i, e.g. a histogram):
            // each distinct word is incremented once by the number of lanes
            // naming it, and each lane gets that word's old value plus its
            // rank among those lanes (lowest lane first).
            let mut left = exec;
            while left != 0 {
                let first = left.trailing_zeros() as usize;
                let at = address(w, &addr, first);
                let same = mask_of(|l| left & LANE_BITS[l] != 0 && address(w, &addr, l) == at);
                left &= !same;
                let mut buf = [0u8; 4];
                read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                let old = u32::from_le_bytes(buf);
                write_mem(cta, memory, Space::Shared, 0, at, &old.wrapping_add(same.count_ones()).to_le_bytes())?;
                for l in lanes(same) {
                    let rank = (same & ((1u32 << l) - 1)).count_ones();
                    w.set(d, l, old.wrapping_add(rank));
                }
            }
        }
    }
    Ok(())
}

/// Loads lane `l`'s `width` bytes at `at` of `space` into its rows from `d`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn load_lane(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, w: &mut Warp, d: u16, at: u64, width: super::super::op::Width, space: Space, l: usize) -> Result<(), InterpError> {
    let n = usize::from(width.bytes);
    let mut buf = [0u8; 16];
    read_mem(cta, memory, space, w.first_thread as usize + l, at, &mut buf[..n])?;
    write_loaded(w, d, l, &buf[..n], width);
    Ok(())
}

/// Stores lane `l`'s `width` bytes from rows `s`… at `at` of `space`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn store_lane(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, w: &Warp, s: u16, at: u64, width: super::super::op::Width, space: Space, l: usize) -> Result<(), InterpError> {
    let n = usize::from(width.bytes);
    let mut buf = [0u8; 16];
    for k in 0..n.div_ceil(4) {
        let v = w.raw(S { r: s + k as u16, m: 0 }, l).to_le_bytes();
        let take = (n - 4 * k).min(4);
        buf[4 * k..4 * k + take].copy_from_slice(&v[..take]);
    }
    write_mem(cta, memory, space, w.first_thread as usize + l, at, &buf[..n])
}

fn atom_apply(op: AtomOp, ty: AtomType, old: u64, b: u64, c: u64) -> u64 {
    let f32v = |x: u64| f32::from_bits(x as u32);
    match op {
        AtomOp::Exch => b,
        AtomOp::Cas => {
            let eq = match ty {
                AtomType::U64 | AtomType::S64 | AtomType::F64 => old == b,
                _ => old as u32 == b as u32,
            };
            if eq { c } else { old }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Inc => {
            let (o, b) = (old as u32, b as u32);
            u64::from(if o >= b { 0 } else { o + 1 })
        }
        AtomOp::Dec => {
            let (o, b) = (old as u32, b as u32);
            u64::from(if o == 0 || o > b { b } else { o - 1 })
        }
        AtomOp::Add => match ty {
            AtomType::F32 => u64::from((f32v(old) + f32v(b)).to_bits()),
            AtomType::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            AtomType::F16x2 => {
                let mut r = 0u32;
                for h in 0..2 {
                    let x = num::f16_to_f64((old >> (16 * h)) as u16) + num::f16_to_f64((b >> (16 * h)) as u16);
                    r |= u32::from(num::f64_to_f16(x, Round::Nearest)) << (16 * h);
                }
                u64::from(r)
            }
            AtomType::U64 | AtomType::S64 => old.wrapping_add(b),
            _ => u64::from((old as u32).wrapping_add(b as u32)),
        },
        AtomOp::Min | AtomOp::Max => {
            let min = op == AtomOp::Min;
            match ty {
                AtomType::S32 => {
                    let (x, y) = (old as i32, b as i32);
                    u64::from((if min { x.min(y) } else { x.max(y) }) as u32)
                }
                AtomType::S64 => {
                    let (x, y) = (old as i64, b as i64);
                    (if min { x.min(y) } else { x.max(y) }) as u64
                }
                AtomType::U64 => {
                    if min {
                        old.min(b)
                    } else {
                        old.max(b)
                    }
                }
                AtomType::F32 => {
                    let (x, y) = (f32v(old), f32v(b));
                    u64::from((if min { x.min(y) } else { x.max(y) }).to_bits())
                }
                _ => {
                    let (x, y) = (old as u32, b as u32);
                    u64::from(if min { x.min(y) } else { x.max(y) })
                }
            }
        }
    }
}

/// The mbarrier object as the interpreter models it: one 64-bit word in
/// shared memory, laid out so that the word ptxas's `mbarrier.init` stores
/// (`(2^20 - count) << 1` low, `(2^20 - count) << 11` high: see
/// `lower/mbarrier.rs`) is its initial state. Bits 1–20 count arrivals up
/// from `2^20 - expected` (the phase's arrivals are all in when they wrap
/// to 0), 21–41 the pending transaction bytes (21-bit two's complement:
/// expected bytes add, completed ones subtract), 43–62 the count the
/// arrivals restart from, 63 the current phase's parity. A phase completes
/// when its arrivals are in and no transaction bytes are pending: the
/// parity flips and the arrivals restart. Where the hardware keeps these
/// fields is not documented; only SYNCS instructions read the word here.
mod mbarrier {
    use super::super::super::exec::{Cta, read_mem, write_mem};
    use super::super::super::op::Space;
    use crate::interp::InterpError;

    const ARRIVALS: u64 = 0xf_ffff << 1;
    const TX_SHIFT: u32 = 21;
    const TX: u64 = 0x1f_ffff << TX_SHIFT;
    const RESTART_SHIFT: u32 = 43;
    const PHASE: u64 = 1 << 63;

    pub(super) fn read(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, at: u64) -> Result<u64, InterpError> {
        let mut buf = [0u8; 8];
        read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
        Ok(u64::from_le_bytes(buf))
    }

    pub(super) fn write(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, at: u64, word: u64) -> Result<(), InterpError> {
        write_mem(cta, memory, Space::Shared, 0, at, &word.to_le_bytes())
    }

    fn with_tx(word: u64, tx: u64) -> u64 {
        word & !TX | (tx << TX_SHIFT) & TX
    }

    /// One arrival that also expects `bytes` more transaction bytes.
    pub(super) fn arrive(word: u64, bytes: u32) -> u64 {
        let arrivals = (((word & ARRIVALS) >> 1) + 1) & 0xf_ffff;
        let tx = ((word & TX) >> TX_SHIFT).wrapping_add(u64::from(bytes));
        with_tx(word & !ARRIVALS | arrivals << 1, tx)
    }

    /// `bytes` transaction bytes completed.
    pub(super) fn complete_tx(word: u64, bytes: u32) -> u64 {
        with_tx(word, ((word & TX) >> TX_SHIFT).wrapping_sub(u64::from(bytes)))
    }

    /// The word with its phase completed, where it is.
    pub(super) fn complete_if_done(word: u64) -> u64 {
        if word & (ARRIVALS | TX) != 0 {
            return word;
        }
        let restart = (word >> RESTART_SHIFT) & 0xf_ffff;
        (word ^ PHASE) | restart << 1
    }

    /// Whether the phase of parity `parity` has completed: the current
    /// phase has the other parity.
    pub(super) fn phase_done(word: u64, parity: u32) -> bool {
        (word >> 63) as u32 != parity & 1
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The word ptxas's code stores for `mbarrier.init` with `count`.
        fn init(count: u64) -> u64 {
            let n = (1 << 20) - count;
            n << 1 | (n << 11) << 32
        }

        #[test]
        fn one_arrival_with_transactions_completes_the_phase() {
            // mbarrier.init 1; two bulk copies of 32 and 16 bytes complete
            // before the arrival that expects their 48 bytes.
            let w = init(1);
            assert!(!phase_done(w, 0));
            let w = complete_if_done(complete_tx(w, 32));
            let w = complete_if_done(complete_tx(w, 16));
            assert!(!phase_done(w, 0), "the arrival is still missing");
            let w = complete_if_done(arrive(w, 48));
            assert!(phase_done(w, 0) && !phase_done(w, 1));
            // The next phase restarts at one pending arrival.
            assert_eq!(w, init(1) | 1 << 63);
        }

        #[test]
        fn a_phase_waits_for_every_arrival_and_every_byte() {
            let w = complete_if_done(arrive(init(3), 0));
            let w = complete_if_done(arrive(w, 64));
            assert!(!phase_done(w, 0));
            let w = complete_if_done(arrive(w, 0));
            assert!(!phase_done(w, 0), "64 bytes pending");
            let w = complete_if_done(complete_tx(w, 64));
            assert!(phase_done(w, 0));
            assert_eq!(w, init(3) | 1 << 63);
        }
    }
}

/// The 32-bit words a 256-bit access of `exec` moves: per lane, each
/// register of each quad with the address of its component (a quad holds
/// only its mask's components, from its first register); a fault where a
/// lane's address is not 32-byte aligned (PTX's `ld.v8`/`st.v8` want that,
/// whichever components move).
fn quad_words(w: &Warp, addr: &Addr, exec: u32, quads: &[(u16, u8)]) -> Result<Vec<(usize, u16, u64)>, InterpError> {
    let at = addresses(w, addr, exec);
    let mut out = Vec::new();
    for l in lanes(exec) {
        if at[l] % 32 != 0 {
            return Err(fault(MemFault { address: at[l], size: 32, kind: FaultKind::Misaligned, space: "global" }));
        }
        for &(row, mask) in quads {
            for (k, c) in (0..8u64).filter(|c| mask >> c & 1 == 1).enumerate() {
                out.push((l, row + k as u16, at[l] + 4 * c));
            }
        }
    }
    Ok(out)
}
