//! The warp-wide matrix instructions: `mma.sync.aligned` and
//! `ldmatrix.sync.aligned`. Each PTX fragment (`{a0, a1, a2, a3}`) becomes
//! one register tuple (a `concat` of its registers, the tuple the machine
//! instruction reads), the result tuple is split back into the
//! destination registers. The descriptor ([`crate::ir::matrix`]) goes in
//! the instruction's immediate.

use super::error::LowerError;
use super::function::FnLower;
use super::memory::Addr;
use crate::ir::matrix::{MatrixMove, Mma, MmaAcc, MmaBitOp, MmaElem, MmaShape};
use crate::ir::{Attrs, InstData, Opcode, Space, Type, Value};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};
use crate::ptx::modifier::Modifier;
use crate::ptx::opcode::Opcode as P;
use smallvec::SmallVec;

/// Whether [`FnLower::matrix_op`] lowers the opcode.
pub fn handles(op: P) -> bool {
    matches!(op, P::Mma | P::Ldmatrix | P::Stmatrix | P::Movmatrix)
}

/// The `mma` descriptor of an instruction's modifiers: `.sync.aligned`,
/// a shape, `.row.col`, the types d, a, b, c (d = c), `.satfinite`,
/// `.and.popc` / `.xor.popc`. `None` when something else is there.
fn mma_descriptor(i: &Instruction) -> Option<Mma> {
    let mut shape = None;
    let mut types: SmallVec<[&str; 4]> = SmallVec::new();
    let (mut row, mut col, mut sat, mut popc, mut bitop) = (false, false, false, false, None);
    for (m, _) in &i.modifiers {
        let word = m.spelling();
        match word {
            ".sync" | ".aligned" => {}
            ".row" => row = true,
            ".col" => col = true,
            ".satfinite" => sat = true,
            ".popc" => popc = true,
            ".and" => bitop = Some(MmaBitOp::And),
            ".xor" => bitop = Some(MmaBitOp::Xor),
            _ => match (MmaShape::from_spelling(word), m) {
                (Some(s), _) => shape = Some(s),
                (None, Modifier::Type(_)) => types.push(word),
                _ => return None,
            },
        }
    }
    let acc_of = |w: &str| match w {
        ".f32" => Some(MmaAcc::F32),
        ".f16" => Some(MmaAcc::F16),
        ".s32" => Some(MmaAcc::S32),
        ".f64" => Some(MmaAcc::F64),
        _ => None,
    };
    let [d, a, b, c] = types[..] else { return None };
    let acc = acc_of(d)?;
    if acc_of(c)? != acc || !row || !col || popc != bitop.is_some() {
        return None;
    }
    let mma = Mma { shape: shape?, a: MmaElem::from_spelling(a)?, b: MmaElem::from_spelling(b)?, acc, sat, bitop };
    mma.valid().then_some(mma)
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Lowers `mma`, `ldmatrix`, `stmatrix` and `movmatrix`.
    pub fn matrix_op(&mut self, i: &Instruction) -> Result<(), LowerError> {
        match i.opcode {
            P::Mma => self.mma(i),
            P::Ldmatrix => self.ldmatrix(i),
            P::Stmatrix => self.stmatrix(i),
            P::Movmatrix => self.movmatrix(i),
            _ => Err(self.unsupported(i)),
        }
    }

    /// The elements of a `{...}` fragment operand.
    fn fragment(&self, op: &'a Operand) -> Option<&'a [Operand]> {
        match &op.kind {
            OperandKind::Vector(list) => Some(self.cx.m.operands(*list)),
            _ => None,
        }
    }

    /// One tuple of `regs` registers from a fragment's elements, each read
    /// at `elem` (64-bit elements give two registers each).
    fn read_fragment(&mut self, op: &'a Operand, elem: ScalarType, regs: u8, i: &Instruction) -> Result<Value, LowerError> {
        let elems = self.fragment(op).ok_or_else(|| self.unsupported(i))?;
        let per = if elem == ScalarType::F64 { 2 } else { 1 };
        if elems.len() * per != usize::from(regs) {
            return Err(self.error(op.loc.span(), format!("a fragment of {} registers where {regs} are needed", elems.len() * per)));
        }
        let mut parts: SmallVec<[Value; 4]> = SmallVec::new();
        for e in elems {
            let v = self.read(e, elem)?;
            for k in 0..per {
                parts.push(self.extract(v, k as u8));
            }
        }
        Ok(self.concat(&parts))
    }

    /// Writes a result tuple's registers to a fragment's elements.
    fn write_fragment(&mut self, op: &'a Operand, tuple: Value, elem: ScalarType, regs: u8, i: &Instruction) -> Result<(), LowerError> {
        let elems = self.fragment(op).ok_or_else(|| self.unsupported(i))?;
        let per = if elem == ScalarType::F64 { 2 } else { 1 };
        if elems.len() * per != usize::from(regs) {
            return Err(self.error(op.loc.span(), format!("a fragment of {} registers where {regs} are needed", elems.len() * per)));
        }
        for (k, e) in elems.iter().enumerate() {
            let v = if per == 2 {
                let lo = self.extract(tuple, 2 * k as u8);
                let hi = self.extract(tuple, 2 * k as u8 + 1);
                self.concat(&[lo, hi])
            } else {
                self.extract(tuple, k as u8)
            };
            self.write(e, v, false)?;
        }
        Ok(())
    }

    /// `mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
    /// d, a, b, c` (`.and.popc`/`.xor.popc` for b1): one `mma` of the
    /// three fragment tuples.
    fn mma(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let desc = mma_descriptor(i).ok_or_else(|| self.unsupported(i))?;
        let ops = self.operands_n(i, 4)?;
        let (ra, rb, rc) = desc.registers();
        let elem = |e: MmaElem| if e == MmaElem::F64 { ScalarType::F64 } else { ScalarType::B32 };
        let acc_elem = if desc.acc == MmaAcc::F64 { ScalarType::F64 } else { ScalarType::B32 };
        let a = self.read_fragment(&ops[1], elem(desc.a), ra, i)?;
        let b = self.read_fragment(&ops[2], elem(desc.b), rb, i)?;
        let c = self.read_fragment(&ops[3], acc_elem, rc, i)?;
        let mut data = InstData::new(Opcode::Mma, Attrs::default());
        data.args.extend([a, b, c]);
        data.imm = desc.encode();
        let ty = Type::new(crate::ir::RegFile::R, rc).unwrap_or(Type::R128);
        let inst = self.emit(data, &[ty]);
        let d = self.b.func.insts[inst].results[0];
        self.write_fragment(&ops[0], d, acc_elem, rc, i)
    }

    /// The descriptor of `{ld,st}matrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}
    /// {.shared{::cta}}.b16` (the b8 shapes of sm_100 are not lowered).
    fn matrix_move(&self, i: &Instruction) -> Result<MatrixMove, LowerError> {
        let (mut count, mut trans, mut shape, mut b16) = (1u8, false, false, false);
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".sync" | ".aligned" | ".shared" | ".shared::cta" => {}
                ".m8n8" => shape = true,
                ".x1" => count = 1,
                ".x2" => count = 2,
                ".x4" => count = 4,
                ".trans" => trans = true,
                ".b16" => b16 = true,
                _ => return Err(self.unsupported(i)),
            }
        }
        if !shape || !b16 {
            return Err(self.unsupported(i));
        }
        Ok(MatrixMove { count, trans })
    }

    /// `stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16
    /// [a], {r...}` (sm_90+).
    fn stmatrix(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let MatrixMove { count, trans } = self.matrix_move(i)?;
        let ops = self.operands_n(i, 2)?;
        let Addr::Mem { base, offset } = self.address(&ops[0], Space::Shared)? else { return Err(self.unsupported(i)) };
        let values = match self.fragment(&ops[1]) {
            Some(_) => self.read_fragment(&ops[1], ScalarType::B32, count, i)?,
            None if count == 1 => self.read(&ops[1], ScalarType::B32)?,
            None => return Err(self.unsupported(i)),
        };
        let mut data = InstData::new(Opcode::Stmatrix, Attrs { space: Some(Space::Shared), ..Attrs::default() });
        data.args.extend([base, values]);
        data.offset = self.offset32(offset, ops[0].loc.span())?;
        data.imm = MatrixMove { count, trans }.encode();
        self.emit(data, &[]);
        Ok(())
    }

    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`: the 8x8 matrix of
    /// 16-bit elements the warp holds (a row per 4 lanes), transposed.
    fn movmatrix(&mut self, i: &Instruction) -> Result<(), LowerError> {
        for (m, _) in &i.modifiers {
            if !matches!(m.spelling(), ".sync" | ".aligned" | ".m8n8" | ".trans" | ".b16") {
                return Err(self.unsupported(i));
            }
        }
        if !i.modifiers.iter().any(|(m, _)| m.spelling() == ".trans") {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ScalarType::B32)?;
        let d = self.op(Opcode::Movmatrix, Attrs::default(), &[a], Type::R32);
        self.write(&ops[0], d, false)
    }

    /// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16
    /// d, [a]`: `ldmatrix` of a shared address (a generic one is refused).
    fn ldmatrix(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let MatrixMove { count, trans } = self.matrix_move(i)?;
        let ops = self.operands_n(i, 2)?;
        let Addr::Mem { base, offset } = self.address(&ops[1], Space::Shared)? else { return Err(self.unsupported(i)) };
        let mut data = InstData::new(Opcode::Ldmatrix, Attrs { space: Some(Space::Shared), ..Attrs::default() });
        data.args.push(base);
        data.offset = self.offset32(offset, ops[1].loc.span())?;
        data.imm = MatrixMove { count, trans }.encode();
        let ty = Type::new(crate::ir::RegFile::R, count).unwrap_or(Type::R32);
        let inst = self.emit(data, &[ty]);
        let d = self.b.func.insts[inst].results[0];
        match self.fragment(&ops[0]) {
            Some(_) => self.write_fragment(&ops[0], d, ScalarType::B32, count, i),
            // `.x1` may name its one register without braces.
            None if count == 1 => self.write(&ops[0], d, false),
            None => Err(self.unsupported(i)),
        }
    }
}
