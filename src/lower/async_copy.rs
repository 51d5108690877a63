//! `cp.async` (sm_80+): asynchronous copies from global to shared memory
//! and their groups. A copy is one `cp.async` (LDGSTS) with an
//! [`AsyncCopy`] descriptor; `cp.async.commit_group` closes a group
//! (LDGDEPBAR), `cp.async.wait_group n` waits until at most `n` groups are
//! pending (DEPBAR.LE SB0, n), and `cp.async.wait_all` is a commit and a
//! wait for none, as ptxas emits them.
//!
//! A source size below the copy's size is LDGSTS's zero-fill: the source
//! address is moved up by the bytes to fill (they are its low bits, the
//! copy being aligned to its size) and `.ZFILL` set; a source size of zero
//! (or `ignore-src` true) is a copy whose predicate is false, which
//! copies nothing and zero-fills. A source size in a register is the same
//! at run time (ptxas: `ISETP.NE P1, n, 0`, address + `(size - n) &
//! (size - 1)`, `LDGSTS.E.64.ZFILL [R9+0x8], [R6.64+0x8], P1`).

use super::error::LowerError;
use super::function::FnLower;
use super::memory::Addr;
use super::types;
use crate::ir::matrix::AsyncCopy;
use crate::ir::{Attrs, Cmp, DataType, InstData, Opcode, Space, Type};
use crate::ptx::ast::{Instruction, OperandKind, ScalarType};
use crate::ptx::opcode::Opcode as P;

/// LDGSTS's signed offset fields: 20 bits for the shared address, 12 for
/// the global one (`meta/src/table/copy.rs`).
const SHARED_OFFSET: std::ops::RangeInclusive<i64> = -(1 << 19)..=(1 << 19) - 1;
const GLOBAL_OFFSET: std::ops::RangeInclusive<i64> = -(1 << 11)..=(1 << 11) - 1;

impl<'a> FnLower<'_, 'a, '_> {
    /// `cp.async.{ca,cg}.shared{::cta}.global{.L2::NB} [d], [s], size{,
    /// src_size | ignore_src}`.
    pub fn cp_async(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut copy = AsyncCopy { size: 0, bypass: false, prefetch: 0, zfill: false, shared_offset: 0 };
        let mut level = false;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".ca" => level = true,
                ".cg" => (level, copy.bypass) = (true, true),
                ".shared" | ".shared::cta" | ".global" => {}
                ".L2::64B" => copy.prefetch = 64,
                ".L2::128B" => copy.prefetch = 128,
                ".L2::256B" => copy.prefetch = 256,
                _ => return Err(self.unsupported(i)),
            }
        }
        let ops = self.cx.m.operands(i.operands);
        let span = i.loc.span();
        let imm = |o: &crate::ptx::ast::Operand| match &o.kind {
            OperandKind::Imm(e) => types::imm_bits(e, ScalarType::U32),
            _ => None,
        };
        let size = match ops.get(2).and_then(imm) {
            Some(s @ (4 | 8 | 16)) if level && ops.len() <= 4 && (!copy.bypass || s == 16) => s,
            _ => return Err(self.unsupported(i)),
        };
        copy.size = size as u8;
        let Addr::Mem { base: dst, offset: dst_off } = self.address(&ops[0], Space::Shared)? else { return Err(self.unsupported(i)) };
        let Addr::Mem { base: src, offset: mut src_off } = self.address(&ops[1], Space::Global)? else { return Err(self.unsupported(i)) };
        let mut src = self.coerce(src, Type::R64, false, span)?;
        // Whether the copy reads its source: a predicate.
        let valid = match ops.get(3) {
            None => self.iconst(Type::P, 1),
            Some(o) => match (&o.kind, imm(o)) {
                (_, Some(n)) if n > size => return Err(self.error(o.loc.span(), format!("a source size of {n} bytes in a copy of {size}"))),
                (_, Some(0)) => self.iconst(Type::P, 0),
                (_, Some(n)) => {
                    copy.zfill = n < size;
                    src_off += (size - n) as i64;
                    self.iconst(Type::P, 1)
                }
                _ => {
                    let is_pred = match o.kind {
                        OperandKind::Name(n, None) => matches!(self.resolve(n), Some(super::names::Binding::Reg(var)) if self.b.var_type(var).file().is_predicate()),
                        _ => false,
                    };
                    let v = self.read(o, if is_pred { ScalarType::Pred } else { ScalarType::B32 })?;
                    if is_pred {
                        // `ignore-src`: true copies nothing.
                        self.op(Opcode::Not, Attrs { ty: Some(DataType::Pred), ..Attrs::default() }, &[v], Type::P)
                    } else {
                        // A source size in a register.
                        copy.zfill = true;
                        let u32_attrs = Attrs { ty: Some(DataType::U32), ..Attrs::default() };
                        let total = self.iconst(Type::R32, size);
                        let fill = self.op(Opcode::Sub, u32_attrs, &[total, v], Type::R32);
                        let mask = self.iconst(Type::R32, size - 1);
                        let fill = self.op(Opcode::And, Attrs { ty: Some(DataType::B32), ..Attrs::default() }, &[fill, mask], Type::R32);
                        let fill = self.coerce(fill, Type::R64, false, span)?;
                        src = self.op(Opcode::Add, Attrs { ty: Some(DataType::U64), ..Attrs::default() }, &[src, fill], Type::R64);
                        let zero = self.iconst(Type::R32, 0);
                        self.op(Opcode::Setp, Attrs { ty: Some(DataType::U32), cmp: Some(Cmp::Ne), ..Attrs::default() }, &[v, zero], Type::P)
                    }
                }
            },
        };
        // Offsets beyond the fields go into the addresses.
        let mut dst = dst;
        let mut dst_off = dst_off;
        if !SHARED_OFFSET.contains(&dst_off) {
            let ty = self.b.func.value_type(dst);
            let (dt, width) = if ty == Type::R64 { (DataType::U64, Type::R64) } else { (DataType::U32, Type::R32) };
            let k = self.iconst(width, dst_off as u64);
            dst = self.op(Opcode::Add, Attrs { ty: Some(dt), ..Attrs::default() }, &[dst, k], width);
            dst_off = 0;
        }
        if !GLOBAL_OFFSET.contains(&src_off) {
            let k = self.iconst(Type::R64, src_off as u64);
            src = self.op(Opcode::Add, Attrs { ty: Some(DataType::U64), ..Attrs::default() }, &[src, k], Type::R64);
            src_off = 0;
        }
        copy.shared_offset = dst_off as i32;
        let mut data = InstData::new(Opcode::CpAsync, Attrs { space: Some(Space::Shared), ..Attrs::default() });
        data.args.extend([dst, src, valid]);
        data.offset = src_off as i32;
        data.imm = copy.encode();
        self.emit(data, &[]);
        Ok(())
    }

    /// `cp.async.commit_group`, `cp.async.wait_group n` (n at most 63, the
    /// DEPBAR count field), `cp.async.wait_all`.
    pub fn async_group(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ops = self.cx.m.operands(i.operands);
        let wait = |s: &mut Self, n: u64| {
            let mut data = InstData::new(Opcode::CpAsyncWait, Attrs::default());
            data.imm = n;
            s.emit(data, &[]);
        };
        let commit = |s: &mut Self| {
            s.emit(InstData::new(Opcode::CpAsyncCommit, Attrs::default()), &[]);
        };
        match (i.opcode, ops) {
            (P::CpAsyncCommitGroup, []) => commit(self),
            (P::CpAsyncWaitAll, []) => {
                commit(self);
                wait(self, 0);
            }
            (P::CpAsyncWaitGroup, [n]) => match &n.kind {
                OperandKind::Imm(e) => match types::imm_bits(e, ScalarType::U32) {
                    Some(n) if n < 64 => wait(self, n),
                    _ => return Err(self.error(n.loc.span(), "cp.async.wait_group waits for at most 63 groups")),
                },
                _ => return Err(self.unsupported(i)),
            },
            _ => return Err(self.unsupported(i)),
        }
        Ok(())
    }
}
