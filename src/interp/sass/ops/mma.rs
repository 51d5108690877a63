//! Matrix operations: HMMA, IMMA, BMMA, DMMA (the arithmetic is
//! [`super::super::matrix`]), the matrix loads and stores LDSM and STSM,
//! and MOVM.
//!
//! This module owns these instructions' semantics: [`MmaOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::matrix::MmaKind;
use super::super::op::*;
use crate::interp::InterpError;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Mem, Operand, Reg, RegFile};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum MmaOp {
    /// LDSM: `n` 8×8 matrices of 16-bit elements from shared memory, rows
    /// addressed by lanes, optionally transposed.
    Ldsm { d: u16, addr: Addr, n: u8, trans: bool },
    /// STSM: `n` 8×8 matrices of 16-bit elements to shared memory, LDSM's
    /// inverse (lanes 8k..8k+7 address the rows of matrix k).
    Stsm { addr: Addr, v: u16, n: u8, trans: bool },
    /// MOVM.16.MT88: the warp's 8×8 matrix of 16-bit elements transposed.
    Movm { d: u16, a: u16 },
    /// HMMA / IMMA.
    Mma { d: u16, a: u16, b: u16, c: u16, kind: MmaKind },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_mma(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let toks: &[Mod] = &cx.toks;
        Ok(Some(match cx.opcode {
            Opcode::LDSM => {
                let n = if cx.has(Mod::_4) { 4 } else if cx.has(Mod::_2) { 2 } else { 1 };
                if !cx.has(Mod::_16) {
                    return Err(Bad);
                }
                // The `[RZ]` form's text operand: shared address 0.
                let mut addr = match cx.o(1)? {
                    Operand::Hex(0) => self.addr(&Operand::Mem(Mem::from_parts(Reg::zero(RegFile::Gpr), 0, 0, None, None).ok_or(Bad)?))?,
                    o => self.addr(o)?,
                };
                addr.wide = false;
                Op::Mma(MmaOp::Ldsm { d: self.dst(cx.o(0)?)?, addr, n, trans: cx.has(Mod::MT88) })
            }
            Opcode::STSM => {
                let n = if cx.has(Mod::_4) { 4 } else if cx.has(Mod::_2) { 2 } else { 1 };
                if !cx.has(Mod::_16) {
                    return Err(Bad);
                }
                let mut addr = self.addr(cx.o(0)?)?;
                addr.wide = false;
                let v = match cx.o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::Mma(MmaOp::Stsm { addr, v, n, trans: cx.has(Mod::MT88) })
            }
            Opcode::MOVM => {
                let a = match cx.o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::Mma(MmaOp::Movm { d: self.dst(cx.o(0)?)?, a })
            }
            Opcode::HMMA | Opcode::IMMA | Opcode::BMMA | Opcode::DMMA => {
                let kind = mma_kind(cx.opcode, toks).ok_or(Bad)?;
                let reg = |k: usize| -> R<u16> {
                    match cx.o(k)? {
                        Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                        _ => Err(Bad),
                    }
                };
                Op::Mma(MmaOp::Mma { d: self.dst(cx.o(0)?)?, a: reg(1)?, b: reg(2)?, c: reg(3)?, kind })
            }
            _ => return Ok(None),
        }))
    }
}

/// The matrix operation an HMMA, IMMA, BMMA or DMMA spells: shape and
/// types from its tokens (`HMMA.1688.F32.TF32`, `IMMA.16832.U8.S8.SAT`,
/// `BMMA.168256.XOR.POPC`, `DMMA.884`).
fn mma_kind(opcode: Opcode, toks: &[Mod]) -> Option<MmaKind> {
    use crate::ir::matrix::{MmaAcc, MmaBitOp, MmaElem as E, MmaShape as S};
    let has = |m: Mod| toks.contains(&m);
    let mma = |shape, a, b, acc| MmaKind { shape, a, b, acc, sat: has(Mod::SAT), bitop: None };
    let kind = match opcode {
        Opcode::HMMA => {
            let input = if has(Mod::BF16) { E::Bf16 } else if has(Mod::TF32) { E::Tf32 } else { E::F16 };
            let shape = if has(Mod::_16816) { S::M16N8K16 } else if has(Mod::_1688) { S::M16N8K8 } else if has(Mod::_1684) { S::M16N8K4 } else { return None };
            let acc = if has(Mod::F32) { MmaAcc::F32 } else { MmaAcc::F16 };
            mma(shape, input, input, acc)
        }
        Opcode::IMMA => {
            let ints: Vec<E> = toks
                .iter()
                .filter_map(|t| match t {
                    Mod::U8 => Some(E::U8),
                    Mod::S8 => Some(E::S8),
                    Mod::U4 => Some(E::U4),
                    Mod::S4 => Some(E::S4),
                    _ => None,
                })
                .collect();
            let [a, b] = ints[..] else { return None };
            let shape = if has(Mod::_16832) { S::M16N8K32 } else if has(Mod::_16816) { S::M16N8K16 } else if has(Mod::_16864) { S::M16N8K64 } else { return None };
            mma(shape, a, b, MmaAcc::S32)
        }
        Opcode::BMMA => {
            let shape = if has(Mod::_88128) { S::M8N8K128 } else if has(Mod::_168128) { S::M16N8K128 } else if has(Mod::_168256) { S::M16N8K256 } else { return None };
            let op = if has(Mod::AND) { MmaBitOp::And } else { MmaBitOp::Xor };
            MmaKind { bitop: Some(op), ..mma(shape, E::B1, E::B1, MmaAcc::S32) }
        }
        _ => mma(S::M8N8K4, E::F64, E::F64, MmaAcc::F64),
    };
    kind.valid().then_some(kind)
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(cta: &mut Cta, w: &mut Warp, exec: u32, op: &MmaOp, memory: &mut crate::interp::memory::GlobalMemory) -> Result<(), InterpError> {
    match *op {
        MmaOp::Ldsm { d, addr, n, trans } => {
            // Lanes 8k..8k+7 address the rows of matrix k.
            let rows: Vec<u64> = (0..32).map(|l| address(w, &addr, l)).collect();
            let mut out = vec![[0u32; 32]; usize::from(n)];
            for l in lanes(exec) {
                for k in 0..usize::from(n) {
                    let v = if trans {
                        let mut v = 0u32;
                        for e in 0..2 {
                            let at = rows[8 * k + (l % 4) * 2 + e] + (l / 4) as u64 * 2;
                            let mut buf = [0u8; 2];
                            read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                            v |= u32::from(u16::from_le_bytes(buf)) << (16 * e);
                        }
                        v
                    } else {
                        let at = rows[8 * k + l / 4] + (l % 4) as u64 * 4;
                        let mut buf = [0u8; 4];
                        read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                        u32::from_le_bytes(buf)
                    };
                    out[k][l] = v;
                }
            }
            for (k, row) in out.iter().enumerate() {
                w.put(d + k as u16, exec, row);
            }
        }
        MmaOp::Stsm { addr, v, n, trans } => {
            // LDSM's layout, written: lane l holds row l/4, columns
            // 2(l%4) and 2(l%4)+1 of each matrix (transposed: column l/4,
            // rows 2(l%4) and 2(l%4)+1).
            let rows: Vec<u64> = (0..32).map(|l| address(w, &addr, l)).collect();
            for l in lanes(exec) {
                for k in 0..usize::from(n) {
                    let value = w.row(v + k as u16)[l];
                    if trans {
                        for e in 0..2 {
                            let at = rows[8 * k + (l % 4) * 2 + e] + (l / 4) as u64 * 2;
                            write_mem(cta, memory, Space::Shared, 0, at, &((value >> (16 * e)) as u16).to_le_bytes())?;
                        }
                    } else {
                        let at = rows[8 * k + l / 4] + (l % 4) as u64 * 4;
                        write_mem(cta, memory, Space::Shared, 0, at, &value.to_le_bytes())?;
                    }
                }
            }
        }
        MmaOp::Movm { d, a } => {
            let out = super::super::matrix::transpose_8x8(&w.row(a));
            w.put(d, exec, &out);
        }
        MmaOp::Mma { d, a, b, c, kind } => {
            let (ka, kb, kc) = kind.registers();
            let rows = |r: u16, k: usize| -> Vec<[u32; 32]> { (0..k).map(|i| w.row(r + i as u16)).collect() };
            let out = super::super::matrix::mma(kind, &rows(a, usize::from(ka)), &rows(b, usize::from(kb)), &rows(c, usize::from(kc)));
            for (k, row) in out.iter().enumerate() {
                w.put(d + k as u16, exec, row);
            }
        }
    }
    Ok(())
}
