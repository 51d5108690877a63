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
//! Bulk copies from shared to global memory join the open bulk group
//! (`cp.async.bulk.global.shared::cta.bulk_group`, with `.cp_mask` a
//! byte-masked store: UBLKCP.G.S{.DST_G_BYTE_MASK}, its operand the
//! 16-byte units in the low half and the byte mask in the high one);
//! `cp.async.bulk.commit_group` closes the group (UTMACMDFLUSH, counted on
//! scoreboard 0 as LDGDEPBAR's groups are) and `cp.async.bulk.wait_group
//! n` waits on that count (`DEPBAR.LE SB0, n`), then, without `.read`,
//! invalidates the L1 cache (CCTL.IVALL) as ptxas 13.5 does. The
//! `.ignore_oob` operands of the global-to-shared copy change nothing in
//! ptxas 13.5's code (the same UBLKCP.S.G with and without them), and so
//! here.
//!
//! Cluster launch control (sm_100+): `clusterlaunchcontrol.try_cancel`
//! asks for a not-yet-launched CTA's work (UGETNEXTWORKID.SELFCAST, its
//! 16-byte response in shared memory and its bytes completing on an
//! mbarrier, in the election loop); `query_cancel` reads the response as
//! ptxas does: `is_canceled` is bit 64, the first CTA's x the first word,
//! y and z the halves of the second.
//!
//! The state an `mbarrier.arrive` returns is not modelled: ptxas writes it
//! to RZ where it is unused (the only use in the corpus), and this lowering
//! gives it the value 0; a program that passes it to `mbarrier.test_wait`
//! is refused there (only the `.parity` waits are lowered).

use super::error::LowerError;
use super::function::FnLower;
use super::memory::Addr;
use super::types;
use crate::ir::{Attrs, Cmp, DataType, InstData, MemOrder, MemScope, Opcode, Space, SpecialReg, Type, Value};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};
use crate::ptx::opcode::Opcode as P;

/// Whether lowering of `op` is in this module.
pub(super) fn handles(op: P) -> bool {
    matches!(
        op,
        P::MbarrierInit
            | P::MbarrierArrive
            | P::MbarrierTryWait
            | P::CpAsyncBulk
            | P::CpAsyncBulkCommitGroup
            | P::CpAsyncBulkWaitGroup
            | P::FenceProxyAsync
            | P::FenceProxyAlias
            | P::ClusterlaunchcontrolTryCancel
            | P::ClusterlaunchcontrolQueryCancel
    )
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
            P::CpAsyncBulkCommitGroup => self.bulk_commit(i),
            P::CpAsyncBulkWaitGroup => self.bulk_wait(i),
            P::FenceProxyAsync => self.proxy_fence(i),
            P::FenceProxyAlias => self.alias_fence(i),
            P::ClusterlaunchcontrolTryCancel => self.try_cancel(i),
            P::ClusterlaunchcontrolQueryCancel => self.query_cancel(i),
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
        match spellings.as_slice() {
            [".global", ".shared::cta", ".bulk_group"] => return self.bulk_store(i, false),
            [".global", ".shared::cta", ".bulk_group", ".cp_mask"] => return self.bulk_store(i, true),
            _ => {}
        }
        let to_shared = matches!(spellings.first(), Some(&(".shared::cta" | ".shared::cluster")));
        let ignore_oob = spellings.last() == Some(&".ignore_oob");
        let rest = if ignore_oob { &spellings[1..spellings.len() - 1] } else { spellings.get(1..).unwrap_or(&[]) };
        if !to_shared || rest != [".global", ".mbarrier::complete_tx::bytes"] {
            return Err(self.unsupported(i));
        }
        // With `.ignore_oob`, the two ignored-byte counts come before the
        // mbarrier; ptxas's code does not use them.
        let ops = self.operands_n(i, if ignore_oob { 6 } else { 4 })?;
        let (dst, dst_off) = self.shared_address(&ops[0])?;
        let dst = self.add_offset32(dst, dst_off);
        let src = self.global_address64(&ops[1], i)?;
        let size = self.u32_operand(&ops[2], i)?;
        let (mbar, mbar_off) = self.shared_address(&ops[ops.len() - 1])?;
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

    /// A global address operand as one 64-bit value.
    fn global_address64(&mut self, o: &Operand, i: &Instruction) -> Result<Value, LowerError> {
        let Addr::Mem { base, offset } = self.address(o, Space::Global)? else { return Err(self.unsupported(i)) };
        let mut a = self.coerce(base, Type::R64, false, o.loc.span())?;
        if offset != 0 {
            let k = self.iconst(Type::R64, offset as u64);
            a = self.op(Opcode::Add, Attrs::typed(DataType::U64), &[a, k], Type::R64);
        }
        Ok(a)
    }

    /// A 32-bit operand, register or immediate.
    fn u32_operand(&mut self, o: &Operand, i: &Instruction) -> Result<Value, LowerError> {
        match &o.kind {
            OperandKind::Imm(e) => {
                let n = types::imm_bits(e, ScalarType::U32).ok_or_else(|| self.unsupported(i))?;
                Ok(self.iconst(Type::R32, n))
            }
            _ => self.read(o, ScalarType::U32),
        }
    }

    /// `cp.async.bulk.global.shared::cta.bulk_group{.cp_mask} [g], [s],
    /// size{, mask}`: UBLKCP.G.S with the 16-byte units in the low half of
    /// its count operand and the byte mask in the high half (ptxas: `UPRMT
    /// UR5, UR5, 0x5410, UR6`), once per thread (the election loop; ptxas
    /// groups the threads whose operands agree instead, to the same
    /// effect).
    fn bulk_store(&mut self, i: &Instruction, masked: bool) -> Result<(), LowerError> {
        let ops = self.operands_n(i, if masked { 4 } else { 3 })?;
        let dst = self.global_address64(&ops[0], i)?;
        let (src, src_off) = self.shared_address(&ops[1])?;
        let src = self.add_offset32(src, src_off);
        let size = self.u32_operand(&ops[2], i)?;
        let four = self.iconst(Type::R32, 4);
        let units = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[size, four], Type::R32);
        let low = self.iconst(Type::R32, 0xffff);
        let mut count = self.op(Opcode::And, Attrs::typed(DataType::B32), &[units, low], Type::R32);
        if masked {
            let mask = self.read(&ops[3], ScalarType::U16)?;
            let mask = self.coerce(mask, Type::R32, false, ops[3].loc.span())?;
            let sixteen = self.iconst(Type::R32, 16);
            let high = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[mask, sixteen], Type::R32);
            count = self.op(Opcode::Or, Attrs::typed(DataType::B32), &[count, high], Type::R32);
        }
        self.once_per_thread(|s| {
            let (d, src, n) = (s.to_uniform(dst), s.to_uniform(src), s.to_uniform(count));
            let op = if masked { Opcode::BulkStoreMasked } else { Opcode::BulkStore };
            let mut data = InstData::new(op, Attrs::default());
            data.args.extend([d, src, n]);
            s.emit(data, &[]);
            Ok(())
        })
    }

    /// `cp.async.bulk.commit_group`: UTMACMDFLUSH.
    fn bulk_commit(&mut self, i: &Instruction) -> Result<(), LowerError> {
        if !i.modifiers.is_empty() || !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        self.emit(InstData::new(Opcode::BulkCommit, Attrs::default()), &[]);
        Ok(())
    }

    /// `cp.async.bulk.wait_group{.read} n`: `DEPBAR.LE SB0, n`, then
    /// without `.read` CCTL.IVALL (ptxas 13.5).
    fn bulk_wait(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let read = match i.modifiers.iter().map(|(m, _)| m.spelling()).collect::<Vec<_>>().as_slice() {
            [] => false,
            [".read"] => true,
            _ => return Err(self.unsupported(i)),
        };
        let ops = self.operands_n(i, 1)?;
        let n = match &ops[0].kind {
            OperandKind::Imm(e) => match types::imm_bits(e, ScalarType::U32) {
                Some(n) if n < 64 => n,
                _ => return Err(self.error(ops[0].loc.span(), "cp.async.bulk.wait_group waits for at most 63 groups")),
            },
            _ => return Err(self.unsupported(i)),
        };
        let mut data = InstData::new(Opcode::AsyncWait, Attrs::default());
        data.imm = n;
        self.emit(data, &[]);
        if !read {
            self.emit(InstData::new(Opcode::CacheInvalidate, Attrs::default()), &[]);
        }
        Ok(())
    }

    /// `clusterlaunchcontrol.try_cancel.async.shared::cta
    /// .mbarrier::complete_tx::bytes{.multicast::cluster::all}.b128 [r],
    /// [mbar]`: UGETNEXTWORKID.SELFCAST [URr], [URr+1] in the election loop
    /// (ptxas 13.5, sm_100). The multicast form is refused.
    fn try_cancel(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let spellings: Vec<&str> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        if spellings != [".async", ".shared::cta", ".mbarrier::complete_tx::bytes", ".b128"] {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2)?;
        let (resp, resp_off) = self.shared_address(&ops[0])?;
        let resp = self.add_offset32(resp, resp_off);
        let (mbar, mbar_off) = self.shared_address(&ops[1])?;
        let mbar = self.add_offset32(mbar, mbar_off);
        let both = self.concat(&[resp, mbar]);
        self.once_per_thread(|s| {
            let pair = s.to_uniform(both);
            let mut data = InstData::new(Opcode::NextWorkId, Attrs::default());
            data.args.push(pair);
            s.emit(data, &[]);
            Ok(())
        })
    }

    /// `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r` and
    /// `.get_first_ctaid{::x,::y,::z}.b32.b128 d, r` / `.get_first_ctaid
    /// .v4.b32.b128 {x, y, z, w}, r`: fields of the response (module docs;
    /// the fourth element is 0, as ptxas makes it).
    fn query_cancel(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let spellings: Vec<&str> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        let ops = self.operands_n(i, 2)?;
        let response = self.read(&ops[1], ScalarType::B128)?;
        let response = self.coerce(response, Type::R128, false, ops[1].loc.span())?;
        let word = |s: &mut Self, k: u8| s.extract(response, k);
        let half = |s: &mut Self, high: bool| {
            let w = s.extract(response, 1);
            if high {
                let sixteen = s.iconst(Type::R32, 16);
                s.op(Opcode::Shr, Attrs::typed(DataType::U32), &[w, sixteen], Type::R32)
            } else {
                let low = s.iconst(Type::R32, 0xffff);
                s.op(Opcode::And, Attrs::typed(DataType::B32), &[w, low], Type::R32)
            }
        };
        match spellings.as_slice() {
            [".is_canceled", ".pred", ".b128"] => {
                let w = word(self, 2);
                let one = self.iconst(Type::R32, 1);
                let bit = self.op(Opcode::And, Attrs::typed(DataType::B32), &[w, one], Type::R32);
                let zero = self.iconst(Type::R32, 0);
                let p = self.op(Opcode::Setp, Attrs { cmp: Some(Cmp::Ne), ..Attrs::typed(DataType::U32) }, &[bit, zero], Type::P);
                self.write(&ops[0], p, false)
            }
            [".get_first_ctaid::x", ".b32", ".b128"] => {
                let v = word(self, 0);
                self.write(&ops[0], v, false)
            }
            [".get_first_ctaid::y", ".b32", ".b128"] => {
                let v = half(self, false);
                self.write(&ops[0], v, false)
            }
            [".get_first_ctaid::z", ".b32", ".b128"] => {
                let v = half(self, true);
                self.write(&ops[0], v, false)
            }
            [".get_first_ctaid", ".v4", ".b32", ".b128"] => {
                let (x, y, z) = (word(self, 0), half(self, false), half(self, true));
                let w = self.iconst(Type::R32, 0);
                let places = self.dests(&ops[0])?;
                if places.len() != 4 {
                    return Err(self.error(ops[0].loc.span(), "get_first_ctaid.v4 writes a vector of four"));
                }
                for (place, v) in places.into_iter().zip([x, y, z, w]) {
                    self.assign(place, v, false, ops[0].loc.span())?;
                }
                Ok(())
            }
            _ => Err(self.unsupported(i)),
        }
    }

    /// `fence.proxy.alias`: ordering across virtual aliases of one physical
    /// location. ptxas 13.5 emits `MEMBAR.SC.GPU ; CCTL.IVALL` on sm_75 and
    /// from sm_80 chooses `MEMBAR.SC.SYS` or `MEMBAR.SC.GPU` by a word of
    /// bank 0 the driver writes (c[0x0][0x128] zero: SYS, sm_80; bit 0 of
    /// c[0x0][0x18c] clear: SYS, sm_90; c[0x0][0x2d8] from sm_100), then
    /// `CCTL.IVALL`. Here always the system-scope fence, which orders at
    /// least as much (`fence.sc.sys`: `MEMBAR.SC.SYS ; ERRBAR ;
    /// (CGAERRBAR) ; CCTL.IVALL`).
    fn alias_fence(&mut self, i: &Instruction) -> Result<(), LowerError> {
        if !i.modifiers.is_empty() || !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        let sys = Attrs { order: Some(MemOrder::Sc), scope: Some(MemScope::Sys), ..Attrs::default() };
        self.emit(InstData::new(Opcode::Fence, sys), &[]);
        Ok(())
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
