//! Cluster synchronisation (sm_90+): `barrier.cluster.arrive` and
//! `barrier.cluster.wait`.
//!
//! ptxas branches on the launch's cluster word (bank 0; 1 when the launch
//! has explicit clusters): with clusters it uses the cluster barrier, else
//! the CTA is the whole cluster, so `arrive` does nothing and `wait` is
//! `bar.sync 0` (`barrier.cluster.arrive; barrier.cluster.wait` ->
//! `ISETP.EQ.U32.AND P1, PT, c[0x0][0x140], 0x1` ; `@!P1 BRA` ; ... ;
//! `UCGABAR_ARV` ... `@!P1 BRA` ; `UCGABAR_WAIT` ; `CCTL.IVALL` ; `BRA` ;
//! `BAR.SYNC.DEFER_BLOCKING 0x0`, ptxas 13.5 on sm_90). Lowering builds
//! that diamond; legalization expands the two cluster operations.

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::{Attrs, Cmp, DataType, InstData, MemOrder, MemScope, Opcode, SpecialReg, Type};
use crate::ptx::ast::Instruction;
use crate::ptx::opcode::Opcode as P;

impl<'a> FnLower<'_, 'a, '_> {
    /// `barrier.cluster.arrive{.release,.relaxed}{.aligned}` and
    /// `barrier.cluster.wait{.acquire}{.aligned}` (unguarded).
    pub(super) fn cluster_barrier(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let arrive = i.opcode == P::BarrierClusterArrive;
        if i.guard.is_some() || !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        let mut order = if arrive { MemOrder::Release } else { MemOrder::Acquire };
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".aligned" => {}
                ".release" if arrive => {}
                ".relaxed" if arrive => order = MemOrder::Relaxed,
                ".acquire" if !arrive => {}
                _ => return Err(self.unsupported(i)),
            }
        }
        let word = self.sreg(SpecialReg::ClusterLaunch);
        let one = self.iconst(Type::R32, 1);
        let explicit = self.op(Opcode::Setp, Attrs { cmp: Some(Cmp::Eq), ..Attrs::typed(DataType::U32) }, &[word, one], Type::P);
        let (clustered, alone, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.brif(explicit, false, clustered, &[], alone, &[]);
        self.b.switch_to_block(clustered);
        self.b.seal_block(clustered);
        let opcode = if arrive { Opcode::ClusterArrive } else { Opcode::ClusterWait };
        // The release of `arrive` is a fence of the cluster's scope.
        let attrs = Attrs { order: Some(order), scope: Some(MemScope::Cluster), ..Attrs::default() };
        self.emit(InstData::new(opcode, attrs), &[]);
        self.b.jump(join, &[]);
        self.b.switch_to_block(alone);
        self.b.seal_block(alone);
        if !arrive {
            let zero = self.iconst(Type::R32, 0);
            let mut bar = InstData::new(Opcode::BarSync, Attrs::default());
            bar.args.push(zero);
            self.emit(bar, &[]);
        }
        self.b.jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        Ok(())
    }
}
