//! The asynchronous path of sm_90 and later, as far as the library corpus
//! uses it: `mbarrier.init`, `mbarrier.arrive` (with `.expect_tx`),
//! `mbarrier.try_wait.parity`, `cp.async.bulk.shared::cta.global` with its
//! mbarrier, and `fence.proxy.async.shared::cta`. Each becomes its SASS-layer
//! operation directly (legalization has nothing to choose).
//!
//! `mbarrier.init` and `cp.async.bulk` become instructions of the uniform
//! datapath (SYNCS.EXCH.64, UBLKCP): one execution per warp, with the
//! operands in uniform registers. Each thread that executes the PTX
//! instruction must still do it once with its own operands, so ptxas wraps
//! them in a loop that elects one of the remaining threads each time
//! (`ELECT` … `BRA.U.ANY`); here the loop elects a thread, that thread
//! alone copies its operands into uniform registers (R2UR) and runs the
//! instruction, and the others go round again.
//!
//! `mbarrier.init` writes the barrier's first word as ptxas computes it:
//! with `n = 2^20 - count`, `n << 1` in the low 32 bits and `n << 11` in the
//! high ones (`UIADD3 UR4, -UR5, 0x100000` ; `USHF.L.U32 UR5, UR4, 0xb` ;
//! `USHF.L.U32 UR4, UR4, 0x1` for a count of 1, ptxas 13.5 on sm_90), after
//! a FENCE.VIEW.ASYNC.S, as ptxas puts one there in thrust_transform's
//! kernels (not in every kernel: when it does is not known; the fence only
//! orders, so one more never changes what the program computes).
//!
//! The state an `mbarrier.arrive` returns is not modelled: ptxas writes it
//! to RZ where it is unused (the only use in the corpus), and this lowering
//! gives it the value 0; a program that passes it to `mbarrier.test_wait`
//! is refused there (only the `.parity` waits are lowered).

use super::error::LowerError;
use super::function::FnLower;
use super::memory::Addr;
use super::types;
use crate::ir::{Attrs, DataType, InstData, MemOrder, MemScope, Opcode, Space, SpecialReg, Type, Value};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};
use crate::ptx::opcode::Opcode as P;

/// Whether lowering of `op` is in this module.
pub(super) fn handles(op: P) -> bool {
    matches!(op, P::MbarrierInit | P::MbarrierArrive | P::MbarrierTryWait | P::CpAsyncBulk | P::FenceProxyAsync)
}

/// The state-space modifiers of a shared mbarrier address.
fn is_shared(spelling: &str) -> bool {
    matches!(spelling, ".shared" | ".shared::cta")
}

impl<'a> FnLower<'_, 'a, '_> {
    /// One instruction of the asynchronous path (see the module docs).
    pub(super) fn async_path(&mut self, i: &Instruction) -> Result<(), LowerError> {
        if i.guard.is_some() {
            // A guard around the election loop: not needed by the corpus.
            return Err(self.unsupported(i));
        }
        match i.opcode {
            P::MbarrierInit => self.mbarrier_init(i),
            P::MbarrierArrive => self.mbarrier_arrive(i),
            P::MbarrierTryWait => self.mbarrier_try_wait(i),
            P::CpAsyncBulk => self.bulk_copy(i),
            P::FenceProxyAsync => self.proxy_fence(i),
            _ => Err(self.unsupported(i)),
        }
    }

    /// Checks that every modifier is one of `allowed` (a shared state space
    /// among them is required).
    fn async_modifiers(&self, i: &Instruction, allowed: &[&str]) -> Result<(), LowerError> {
        let mut shared = false;
        for (m, _) in &i.modifiers {
            let s = m.spelling();
            if is_shared(s) {
                shared = true;
            } else if !allowed.contains(&s) {
                return Err(self.unsupported(i));
            }
        }
        if shared { Ok(()) } else { Err(self.unsupported(i)) }
    }

    /// A shared address operand as a 32-bit register value and an offset,
    /// the value in the cluster's shared window: the CTA's rank in its
    /// cluster in bits 24 and up, as ptxas computes the addresses of SYNCS
    /// and UBLKCP (`S2UR UR5, SR_CgaCtaId` ; `ULEA UR9, UR5, UR9, 0x18`;
    /// the rank is 0 without clusters).
    fn shared_address(&mut self, o: &Operand) -> Result<(Value, i64), LowerError> {
        let Addr::Mem { base, offset } = self.address(o, Space::Shared)? else {
            return Err(self.error(o.loc.span(), "unsupported in lowering: an mbarrier or bulk-copy address outside shared memory"));
        };
        let base = self.coerce(base, Type::R32, false, o.loc.span())?;
        let rank = self.sreg(SpecialReg::CgaCtaId);
        let shift = self.iconst(Type::R32, 24);
        let rank = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[rank, shift], Type::R32);
        let base = self.op(Opcode::Add, Attrs::typed(DataType::U32), &[base, rank], Type::R32);
        Ok((base, offset))
    }

    /// `base + offset` as one 32-bit value.
    fn add_offset32(&mut self, base: Value, offset: i64) -> Value {
        if offset == 0 {
            return base;
        }
        let k = self.iconst(Type::R32, offset as u64);
        self.op(Opcode::Add, Attrs::typed(DataType::U32), &[base, k], Type::R32)
    }

    /// `v` copied into a uniform register of its width (R2UR).
    fn to_uniform(&mut self, v: Value) -> Value {
        let ty = self.b.func.value_type(v).with_uniformity(true);
        self.op(Opcode::Copy, Attrs::default(), &[v], ty)
    }

    /// Runs `body` once for each thread that gets here, one thread at a
    /// time (the election loop of the module docs).
    fn once_per_thread(&mut self, body: impl FnOnce(&mut Self) -> Result<(), LowerError>) -> Result<(), LowerError> {
        let (head, elected, again, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.jump(head, &[]);
        self.b.switch_to_block(head);
        let all = self.iconst(Type::R32, 0xffff_ffff);
        let mut data = InstData::new(Opcode::Elect, Attrs::default());
        data.args.push(all);
        let inst = self.emit(data, &[Type::R32, Type::P]);
        let chosen = self.b.func.insts[inst].results[1];
        self.b.brif(chosen, false, elected, &[], again, &[]);
        self.b.switch_to_block(again);
        self.b.seal_block(again);
        self.b.jump(head, &[]);
        self.b.seal_block(head);
        self.b.switch_to_block(elected);
        self.b.seal_block(elected);
        body(self)?;
        self.b.jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        Ok(())
    }

    /// `mbarrier.init.shared{::cta}.b64 [a], count`.
    fn mbarrier_init(&mut self, i: &Instruction) -> Result<(), LowerError> {
        self.async_modifiers(i, &[".b64"])?;
        let ops = self.operands_n(i, 2)?;
        let (base, offset) = self.shared_address(&ops[0])?;
        let addr = self.add_offset32(base, offset);
        let count = self.read(&ops[1], ScalarType::U32)?;
        let u32_attrs = Attrs::typed(DataType::U32);
        let limit = self.iconst(Type::R32, 1 << 20);
        let n = self.op(Opcode::Sub, u32_attrs, &[limit, count], Type::R32);
        let (one, eleven) = (self.iconst(Type::R32, 1), self.iconst(Type::R32, 11));
        let lo = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[n, one], Type::R32);
        let hi = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[n, eleven], Type::R32);
        let word = self.concat(&[lo, hi]);
        self.emit(InstData::new(Opcode::ProxyFence, Attrs::default()), &[]);
        self.once_per_thread(|s| {
            let (ua, uw) = (s.to_uniform(addr), s.to_uniform(word));
            let mut data = InstData::new(Opcode::MbarExchange, Attrs::default());
            data.args.extend([ua, uw]);
            s.emit(data, &[]);
            Ok(())
        })
    }

    /// `mbarrier.arrive{.release}{.cta}.shared{::cta}.b64 state, [a]` and
    /// `mbarrier.arrive.expect_tx{.release}{.cta}.shared{::cta}.b64 state,
    /// [a], tx`.
    fn mbarrier_arrive(&mut self, i: &Instruction) -> Result<(), LowerError> {
        self.async_modifiers(i, &[".b64", ".release", ".cta", ".expect_tx"])?;
        let expect = i.modifiers.iter().any(|(m, _)| m.spelling() == ".expect_tx");
        let ops = self.cx.m.operands(i.operands);
        if ops.len() != if expect { 3 } else { 2 } {
            // An arrival count other than one: not needed by the corpus.
            return Err(self.unsupported(i));
        }
        let (base, offset) = self.shared_address(&ops[1])?;
        let mut data = InstData::new(Opcode::MbarArrive, Attrs::default());
        data.args.push(base);
        data.offset = i32::try_from(offset).map_err(|_| self.error(ops[1].loc.span(), "an mbarrier address offset beyond 32 bits"))?;
        if expect {
            let tx = self.read(&ops[2], ScalarType::U32)?;
            data.args.push(tx);
        }
        self.emit(data, &[]);
        self.write_state(&ops[0])
    }

    /// Writes 0 to an arrival's state destination (see the module docs).
    fn write_state(&mut self, o: &Operand) -> Result<(), LowerError> {
        let sink = match o.kind {
            OperandKind::Sink => true,
            OperandKind::Name(s, None) => self.cx.m.names.name(s) == "_",
            _ => false,
        };
        if sink {
            return Ok(());
        }
        let zero = self.iconst(Type::R64, 0);
        self.write(o, zero, false)
    }

    /// `mbarrier.try_wait.parity{.acquire}{.cta}.shared{::cta}.b64 p, [a],
    /// parity` (a suspend-time hint, a fourth operand, is refused).
    fn mbarrier_try_wait(&mut self, i: &Instruction) -> Result<(), LowerError> {
        self.async_modifiers(i, &[".b64", ".acquire", ".cta", ".parity"])?;
        if !i.modifiers.iter().any(|(m, _)| m.spelling() == ".parity") {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 3)?;
        let (base, offset) = self.shared_address(&ops[1])?;
        let parity = self.read(&ops[2], ScalarType::U32)?;
        let mut data = InstData::new(Opcode::MbarTryWait, Attrs::default());
        data.args.extend([base, parity]);
        data.offset = i32::try_from(offset).map_err(|_| self.error(ops[1].loc.span(), "an mbarrier address offset beyond 32 bits"))?;
        let inst = self.emit(data, &[Type::P]);
        let p = self.b.func.insts[inst].results[0];
        self.write(&ops[0], p, false)
    }

    /// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d],
    /// [s], size, [mbar]` (also `.shared::cluster` as the destination, the
    /// executing CTA's own shared memory).
    fn bulk_copy(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let spellings: Vec<&str> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        let to_shared = matches!(spellings.first(), Some(&(".shared::cta" | ".shared::cluster")));
        if !to_shared || spellings[1..] != [".global", ".mbarrier::complete_tx::bytes"] {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 4)?;
        let (dst, dst_off) = self.shared_address(&ops[0])?;
        let dst = self.add_offset32(dst, dst_off);
        let Addr::Mem { base: src, offset: src_off } = self.address(&ops[1], Space::Global)? else { return Err(self.unsupported(i)) };
        let mut src = self.coerce(src, Type::R64, false, ops[1].loc.span())?;
        if src_off != 0 {
            let k = self.iconst(Type::R64, src_off as u64);
            src = self.op(Opcode::Add, Attrs::typed(DataType::U64), &[src, k], Type::R64);
        }
        let size = match &ops[2].kind {
            OperandKind::Imm(e) => {
                let n = types::imm_bits(e, ScalarType::U32).ok_or_else(|| self.unsupported(i))?;
                self.iconst(Type::R32, n)
            }
            _ => self.read(&ops[2], ScalarType::U32)?,
        };
        let (mbar, mbar_off) = self.shared_address(&ops[3])?;
        let mbar = self.add_offset32(mbar, mbar_off);
        // The size in 16-byte units, in the low 16 bits (ptxas: USHF.R.U32.HI
        // by 4, then UPRMT 0x5410 with URZ).
        let four = self.iconst(Type::R32, 4);
        let units = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[size, four], Type::R32);
        let mask = self.iconst(Type::R32, 0xffff);
        let units = self.op(Opcode::And, Attrs::typed(DataType::B32), &[units, mask], Type::R32);
        let dst_and_mbar = self.concat(&[dst, mbar]);
        self.once_per_thread(|s| {
            let (d, src, n) = (s.to_uniform(dst_and_mbar), s.to_uniform(src), s.to_uniform(units));
            let mut data = InstData::new(Opcode::BulkCopy, Attrs::default());
            data.args.extend([d, src, n]);
            s.emit(data, &[]);
            Ok(())
        })
    }

    /// `fence.proxy.async.shared::cta` (other spaces refused): ptxas 13.5
    /// emits MEMBAR.ALL.CTA ; FENCE.VIEW.ASYNC.S (the fence of
    /// `fence.acq_rel.cta`, then the proxy's).
    fn proxy_fence(&mut self, i: &Instruction) -> Result<(), LowerError> {
        match i.modifiers.iter().map(|(m, _)| m.spelling()).collect::<Vec<_>>().as_slice() {
            [".shared::cta"] if self.cx.m.operands(i.operands).is_empty() => {
                let cta = Attrs { order: Some(MemOrder::AcqRel), scope: Some(MemScope::Cta), ..Attrs::default() };
                self.emit(InstData::new(Opcode::Fence, cta), &[]);
                self.emit(InstData::new(Opcode::ProxyFence, Attrs::default()), &[]);
                Ok(())
            }
            _ => Err(self.unsupported(i)),
        }
    }
}
