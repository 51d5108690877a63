//! The machine spelling of the tensor-core path's operations
//! ([`crate::ir::matrix`]): which of HMMA, IMMA, BMMA and DMMA, with which
//! shape and type tokens, performs an `mma` descriptor, LDSM's tokens
//! for an `ldmatrix` one and LDGSTS's for a `cp.async`. The spellings are those ptxas 13.5 emits for
//! each PTX form (sm_80 to sm_120, read with nvdisasm).

use crate::ir::matrix::{AsyncCopy, MatrixMove, Mma, MmaAcc, MmaBitOp, MmaElem, MmaShape};
use crate::isa::op::{Mnemonic, Mod, Op};

/// The instruction performing `mma` on `sm`, or why there is none.
pub fn mma_mnemonic(mma: Mma, sm: u16) -> Result<Mnemonic, String> {
    use MmaElem::*;
    use MmaShape::*;
    let int = |e: MmaElem| match e {
        U8 => Some(Mod::U8),
        S8 => Some(Mod::S8),
        U4 => Some(Mod::U4),
        S4 => Some(Mod::S4),
        _ => None,
    };
    let m = match (mma.a, mma.shape, mma.acc) {
        // HMMA.16816.F32(.BF16), HMMA.16816.F16, HMMA.1688.F32(.BF16/.TF32),
        // HMMA.1688.F16, HMMA.1684.F32.TF32.
        (F16 | Bf16, M16N8K16, MmaAcc::F32) => Mnemonic::of(Op::HMMA, &[Mod::_16816, Mod::F32]).opt(bf16(mma.a)),
        (F16, M16N8K16, MmaAcc::F16) => Mnemonic::of(Op::HMMA, &[Mod::_16816, Mod::F16]),
        (F16 | Bf16, M16N8K8, MmaAcc::F32) => Mnemonic::of(Op::HMMA, &[Mod::_1688, Mod::F32]).opt(bf16(mma.a)),
        (F16, M16N8K8, MmaAcc::F16) => Mnemonic::of(Op::HMMA, &[Mod::_1688, Mod::F16]),
        (Tf32, M16N8K8, MmaAcc::F32) => Mnemonic::of(Op::HMMA, &[Mod::_1688, Mod::F32, Mod::TF32]),
        (Tf32, M16N8K4, MmaAcc::F32) => Mnemonic::of(Op::HMMA, &[Mod::_1684, Mod::F32, Mod::TF32]),
        // IMMA.16832.S8.U8(.SAT) R, R.ROW, R.COL, R.
        (U8 | S8 | U4 | S4, shape, MmaAcc::S32) => {
            let shape = match (shape, mma.a.bits()) {
                (M16N8K16, 8) => Mod::_16816,
                (M16N8K32, _) => Mod::_16832,
                (M16N8K64, 4) => Mod::_16864,
                _ => return Err(format!("no IMMA for {mma:?}")),
            };
            let (Some(a), Some(b)) = (int(mma.a), int(mma.b)) else { return Err(format!("no IMMA for {mma:?}")) };
            Mnemonic::of(Op::IMMA, &[shape, a, b]).flag(mma.sat, Mod::SAT).with(Mod::ROW).with(Mod::COL)
        }
        // BMMA.168256.XOR.POPC R, R.ROW, R.COL, R.
        (B1, shape, MmaAcc::S32) => {
            let shape = match shape {
                M8N8K128 => Mod::_88128,
                M16N8K128 => Mod::_168128,
                _ => Mod::_168256,
            };
            let op = if mma.bitop == Some(MmaBitOp::And) { Mod::AND } else { Mod::XOR };
            Mnemonic::of(Op::BMMA, &[shape, op, Mod::POPC, Mod::ROW, Mod::COL])
        }
        (F64, M8N8K4, MmaAcc::F64) => Mnemonic::of(Op::DMMA, &[if sm >= 90 { Mod::_8x8x4 } else { Mod::_884 }]),
        _ => return Err(format!("no machine instruction for {mma:?}")),
    };
    Ok(m)
}

fn bf16(e: MmaElem) -> Option<Mod> {
    (e == MmaElem::Bf16).then_some(Mod::BF16)
}

/// LDSM's spelling for an `ldmatrix`: `LDSM.16.M88.4`, `LDSM.16.MT88.2`.
pub fn ldsm_mnemonic(m: MatrixMove) -> Mnemonic {
    matrix_move(Op::LDSM, m)
}

/// STSM's spelling for a `stmatrix`: `STSM.16.M88.4`, `STSM.16.MT88.2`.
pub fn stsm_mnemonic(m: MatrixMove) -> Mnemonic {
    matrix_move(Op::STSM, m)
}

fn matrix_move(op: Op, m: MatrixMove) -> Mnemonic {
    let count = match m.count {
        2 => Some(Mod::_2),
        4 => Some(Mod::_4),
        _ => None,
    };
    Mnemonic::of(op, &[Mod::_16, if m.trans { Mod::MT88 } else { Mod::M88 }]).opt(count)
}

/// LDGSTS's spelling for a `cp.async`: `LDGSTS.E.BYPASS.LTC128B.128.ZFILL`.
pub fn ldgsts_mnemonic(c: AsyncCopy) -> Mnemonic {
    let hint = match c.prefetch {
        64 => Some(Mod::LTC64B),
        128 => Some(Mod::LTC128B),
        256 => Some(Mod::LTC256B),
        _ => None,
    };
    let size = match c.size {
        8 => Some(Mod::_64),
        16 => Some(Mod::_128),
        _ => None,
    };
    Mnemonic::of(Op::LDGSTS, &[Mod::E]).flag(c.bypass, Mod::BYPASS).opt(hint).opt(size).flag(c.zfill, Mod::ZFILL)
}
