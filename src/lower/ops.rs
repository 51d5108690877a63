//! The value-computing instructions: arithmetic, logic, shifts,
//! comparisons, selection, `mov` (with vector packing) and `cvt`, plus the
//! dispatch of every non-control instruction to its lowering.
//!
//! Each PTX instruction becomes one PTX-layer Ori instruction of the same
//! family, its modifiers in the attributes (see [`super::types::attrs`]);
//! operands are read at the width of the instruction's type.

use super::error::LowerError;
use super::function::FnLower;
use super::types::{self, inverse_cmp, inverse_int_cmp, scalar_value_type, widened};
use crate::ir::{Attrs, DataType, MulMode, Opcode, Space, Type, Value};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType, TypeKind};
use crate::ptx::opcode::Opcode as P;

/// Whether the instruction says `.satfinite` (lowered as `sat` on the
/// packing conversions only).
fn has_satfinite(i: &Instruction) -> bool {
    i.modifiers.iter().any(|(m, _)| matches!(m, crate::ptx::modifier::Modifier::Word(k) if k.spelling() == ".satfinite"))
}

/// The instruction's type modifiers: the first and the second (if any).
fn ptx_types(i: &Instruction) -> (Option<ScalarType>, Option<ScalarType>) {
    let mut t = i.types();
    (t.next(), t.next())
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Lowers a non-control instruction (emitting into the current block
    /// and leaving register assignments in `pending`).
    pub fn body(&mut self, i: &Instruction) -> Result<(), LowerError> {
        if super::warp::handles(i.opcode) {
            // `membar.gl`, `griddepcontrol.wait` and `setmaxnreg.inc` have
            // words no attribute names: their lowering reads the modifiers
            // itself.
            let attrs = if matches!(i.opcode, P::Membar | P::Griddepcontrol | P::Setmaxnreg) { Attrs::default() } else { types::attrs(&i.modifiers).map_err(|()| self.unsupported(i))? };
            return self.warp_op(i, attrs);
        }
        // `prefetch` / `prefetchu` only warm a cache: dropped (as the
        // cache hints of `ld`/`st` are, see [`super::types`]); the address
        // operand must still be one.
        if matches!(i.opcode, P::Prefetch | P::Prefetchu) {
            let ops = self.cx.m.operands(i.operands);
            return match ops {
                [o] if matches!(o.kind, OperandKind::Address(_)) => Ok(()),
                _ => Err(self.unsupported(i)),
            };
        }
        if i.opcode == P::Mapa {
            return self.mapa(i);
        }
        // `brkpt`: a breakpoint, not a terminator (BPT.TRAP 0x1, ptxas 13.5).
        if i.opcode == P::Brkpt {
            if !self.cx.m.operands(i.operands).is_empty() {
                return Err(self.unsupported(i));
            }
            self.emit(crate::ir::InstData::new(Opcode::Breakpoint, Attrs::default()), &[]);
            return Ok(());
        }
        // `istypep`'s type is a handle kind, not a data type.
        if i.opcode == P::Istypep {
            return self.istypep(i);
        }
        // `pmevent e` signals event `e` (0–15), `pmevent.mask m` the events
        // of the 16-bit mask `m`, both immediates (ptxas 13.5 refuses a
        // register and values out of range; `pmevent 1` -> `PMTRIG 0x2`,
        // `pmevent.mask 0x8003` -> `PMTRIG 0x8003`).
        if i.opcode == P::Pmevent {
            let ops = self.cx.m.operands(i.operands);
            let masked = i.modifiers.iter().any(|(m, _)| m.spelling() == ".mask");
            let [op] = ops else { return Err(self.unsupported(i)) };
            let value = match &op.kind {
                OperandKind::Imm(e) => super::types::imm_bits(e, ScalarType::U32),
                _ => None,
            };
            let mask = match (value, masked) {
                (Some(m), true) if m <= 0xffff => m,
                (Some(e), false) if e < 16 => 1 << e,
                _ => {
                    let what = if masked { "a mask from 0 to 0xffff" } else { "an event number from 0 to 15" };
                    return Err(self.error(op.loc.span(), format!("pmevent takes {what}, an immediate")));
                }
            };
            let mut data = crate::ir::InstData::new(Opcode::PerfTrigger, Attrs::default());
            data.imm = mask;
            self.emit(data, &[]);
            return Ok(());
        }
        // `applypriority` (an L2 eviction priority) and `discard` (an L2
        // line's data made indeterminate, a weak write of an unstable
        // value: keeping the memory as it is is one such value, PTX ISA)
        // change no value a program can rely on: dropped, as `prefetch`
        // (ptxas 13.5 emits `CCTL.E.DML2` / `CCTL.E.RML2`). The operands
        // must still be an address and a size (the checker wants 128).
        if matches!(i.opcode, P::Applypriority | P::Discard) {
            let ops = self.cx.m.operands(i.operands);
            return match ops {
                [a, n] if matches!(a.kind, OperandKind::Address(_)) && matches!(n.kind, OperandKind::Imm(_)) => Ok(()),
                _ => Err(self.unsupported(i)),
            };
        }
        if super::matrix::handles(i.opcode) {
            return self.matrix_op(i);
        }
        if super::mbarrier::handles(i.opcode) {
            return self.async_path(i);
        }
        match i.opcode {
            P::CpAsync => return self.cp_async(i),
            P::Createpolicy => return self.createpolicy(i),
            P::CpAsyncCommitGroup | P::CpAsyncWaitGroup | P::CpAsyncWaitAll => return self.async_group(i),
            _ => {}
        }
        if i.opcode == P::Tex {
            return self.tex(i);
        }
        if i.opcode == P::Tld4 {
            return self.tld4(i);
        }
        match i.opcode {
            P::Suld => return self.surface(i, false),
            P::Sust => return self.surface(i, true),
            P::Txq => return self.header_query(i, false),
            P::Suq => return self.header_query(i, true),
            _ => {}
        }
        if super::video::handles(i.opcode) {
            return self.video(i);
        }
        // `cvt.rna(.satfinite).tf32.f32`: its rounding has no attribute.
        if i.opcode == P::Cvt
            && ptx_types(i) == (Some(ScalarType::Tf32), Some(ScalarType::F32))
            && i.modifiers.iter().any(|(m, _)| m.spelling() == ".rna")
            && i.modifiers.iter().all(|(m, _)| matches!(m.spelling(), ".rna" | ".satfinite" | ".tf32" | ".f32"))
        {
            return self.cvt_tf32_rna(i);
        }
        // `multimem.red` on one device is the reduction on its address
        // (ptxas 13.5 emits the same warp-aggregated `REDG.E.ADD.STRONG.GPU`
        // as for `red.relaxed.gpu.global.add.u32`, sm_90).
        if matches!(i.opcode, P::Atom | P::Red | P::MultimemRed) {
            let attrs = types::attrs(&i.modifiers).map_err(|()| self.unsupported(i))?;
            return self.atomic(i, attrs);
        }
        if ptx_types(i).0 == Some(ScalarType::F32x2) {
            return self.packed_f32x2(i);
        }
        if let (Some(ScalarType::F32), Some(half @ (ScalarType::F16 | ScalarType::Bf16))) = ptx_types(i)
            && matches!(i.opcode, P::Add | P::Sub | P::Fma)
        {
            return self.mixed_f32(i, half);
        }
        let (attrs, ext) = types::attrs_ext(&i.modifiers).map_err(|()| self.unsupported(i))?;
        // `.relu` is lowered for `cvt`, the half `fma` (`HFMA2.RELU`) and
        // `min/max.{s32,s16x2}` (`VIMNMX.RELU`), and `.satfinite` (which sets `sat`) for
        // `cvt` only.
        let half_fma = i.opcode == P::Fma && matches!(ptx_types(i).0, Some(ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2));
        let s32_min_max = matches!(i.opcode, P::Min | P::Max) && matches!(ptx_types(i).0, Some(ScalarType::S32 | ScalarType::S16x2));
        if (attrs.relu && i.opcode != P::Cvt && !half_fma && !s32_min_max) || (has_satfinite(i) && i.opcode != P::Cvt) {
            return Err(self.unsupported(i));
        }
        if ext != types::Ext::default() || super::integer::handles(i.opcode) {
            return self.int_op(i, attrs, ext);
        }
        match i.opcode {
            P::CvtPack => self.cvt_pack(i, attrs),
            P::Add => self.arith(i, Opcode::Add, attrs, 2),
            P::Sub => self.arith(i, Opcode::Sub, attrs, 2),
            P::Div => self.arith(i, Opcode::Div, attrs, 2),
            P::Rem => self.arith(i, Opcode::Rem, attrs, 2),
            P::Min | P::Max if i.operands.len() == 4 => self.min_max3(i, attrs),
            P::Min => self.arith(i, Opcode::Min, attrs, 2),
            P::Max => self.arith(i, Opcode::Max, attrs, 2),
            P::And => self.arith(i, Opcode::And, attrs, 2),
            P::Or => self.arith(i, Opcode::Or, attrs, 2),
            P::Xor => self.arith(i, Opcode::Xor, attrs, 2),
            P::Abs => self.arith(i, Opcode::Abs, attrs, 1),
            P::Neg => self.arith(i, Opcode::Neg, attrs, 1),
            P::Not => self.arith(i, Opcode::Not, attrs, 1),
            P::Fma => self.arith(i, Opcode::Fma, attrs, 3),
            P::Mul => self.mul(i, Opcode::Mul, attrs, 2),
            P::Mad => self.mul(i, Opcode::Mad, attrs, 3),
            P::Shl => self.shift(i, Opcode::Shl, attrs),
            P::Shr => self.shift(i, Opcode::Shr, attrs),
            P::Setp => self.setp(i, attrs),
            P::Set => self.set(i, attrs),
            P::Selp => self.selp(i, attrs),
            P::Mov => self.mov(i, attrs),
            P::Cvt => self.cvt(i, attrs),
            P::Cvta => self.cvta(i, attrs),
            P::Isspacep => self.isspacep(i, attrs),
            P::Ld => self.ld(i, attrs),
            // `ldu` reads global memory (a generic address must point
            // there, PTX ISA): ptxas 13.5 emits a plain LDG.E for it.
            P::Ldu => self.ld(i, Attrs { space: Some(Space::Global), ..attrs }),
            P::St => self.st(i, attrs),
            // `multimem.st` on one device is the store (ptxas 13.5:
            // `STG.E.STRONG.GPU` for `multimem.st.relaxed.gpu.global.u32`).
            P::MultimemSt => self.st(i, attrs),
            P::Call => self.call(i),
            P::Rcp => self.arith(i, Opcode::Rcp, attrs, 1),
            P::Sqrt => self.arith(i, Opcode::Sqrt, attrs, 1),
            P::Rsqrt => self.arith(i, Opcode::Rsqrt, attrs, 1),
            P::Sin => self.arith(i, Opcode::Sin, attrs, 1),
            P::Cos => self.arith(i, Opcode::Cos, attrs, 1),
            P::Lg2 => self.arith(i, Opcode::Lg2, attrs, 1),
            P::Ex2 => self.arith(i, Opcode::Ex2, attrs, 1),
            P::Tanh => self.arith(i, Opcode::Tanh, attrs, 1),
            P::Copysign => self.arith(i, Opcode::Copysign, attrs, 2),
            P::Testp => self.testp(i, attrs),
            P::BarSync | P::BarCtaSync | P::BarrierSync | P::BarrierCtaSync => self.bar_sync(i, attrs),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `add/sub/mul/fma.f32x2 d, a, b[, c]` (sm_100+): one operation of
    /// type `f32x2` on the 64-bit values, with the instruction's rounding
    /// and `.ftz`; legalization chooses between the packed instructions
    /// (FADD2/FMUL2/FFMA2 on sm_100, as ptxas) and the f32 operation on
    /// each word (sm_120, as ptxas).
    fn packed_f32x2(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let (opcode, n) = match i.opcode {
            P::Add => (Opcode::Add, 2),
            P::Sub => (Opcode::Sub, 2),
            P::Mul => (Opcode::Mul, 2),
            P::Fma => (Opcode::Fma, 3),
            _ => return Err(self.unsupported(i)),
        };
        let attrs = types::attrs(&i.modifiers).map_err(|()| self.unsupported(i))?;
        if attrs.vector != 0 || attrs.mul.is_some() || attrs.space.is_some() {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, n + 1)?;
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        for o in &ops[1..] {
            args.push(self.read(o, ScalarType::B64)?);
        }
        let b64 = scalar_value_type(ScalarType::B64).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(opcode, attrs, &args, b64);
        self.write(&ops[0], v, false)
    }

    /// `add/sub.f32.{f16,bf16} d, a, c` and `fma.f32.{f16,bf16} d, a, b,
    /// c` (sm_100+): the half operands widened to f32 (exactly), then the
    /// f32 operation with the instruction's rounding and `.sat`. (ptxas
    /// emits FHADD/FHFMA, which compute the same: the widening is exact,
    /// and a product of two halves is exact in f32, so the one rounding is
    /// the f32 operation's.)
    fn mixed_f32(&mut self, i: &Instruction, half: ScalarType) -> Result<(), LowerError> {
        let (opcode, n) = match i.opcode {
            P::Add => (Opcode::Add, 2),
            P::Sub => (Opcode::Sub, 2),
            P::Fma => (Opcode::Fma, 3),
            _ => return Err(self.unsupported(i)),
        };
        let mut attrs = types::attrs(&i.modifiers).map_err(|()| self.unsupported(i))?;
        if attrs.vector != 0 || attrs.mul.is_some() || attrs.space.is_some() {
            return Err(self.unsupported(i));
        }
        attrs.src_ty = None;
        let ops = self.operands_n(i, n + 1)?;
        let f32_type = scalar_value_type(ScalarType::F32).ok_or_else(|| self.unsupported(i))?;
        let widen = Attrs { ty: types::data_type(ScalarType::F32), src_ty: types::data_type(half), ..Attrs::default() };
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        for (k, o) in ops[1..].iter().enumerate() {
            if k + 1 < n {
                let h = self.read(o, half)?;
                args.push(self.op(Opcode::Cvt, widen, &[h], f32_type));
            } else {
                args.push(self.read(o, ScalarType::F32)?);
            }
        }
        let v = self.op(opcode, attrs, &args, f32_type);
        self.write(&ops[0], v, false)
    }

    /// The operands, checked to number `n`.
    pub fn operands_n(&self, i: &Instruction, n: usize) -> Result<&'a [Operand], LowerError> {
        let m: &'a crate::ptx::ast::Module = self.cx.m;
        let ops = m.operands(i.operands);
        if ops.len() != n {
            return Err(self.error(i.loc.span(), format!("{} takes {n} operands", i.opcode.name())));
        }
        Ok(ops)
    }

    /// The single type of an instruction, or unsupported.
    fn one_type(&self, i: &Instruction) -> Result<ScalarType, LowerError> {
        match ptx_types(i) {
            (Some(t), None) if types::data_type(t).is_some() => Ok(t),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `d = op(a[, b[, c]])`, all of the instruction's type.
    fn arith(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs, n: usize) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        if attrs.mul.is_some() || attrs.vector != 0 || attrs.space.is_some() {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, n + 1)?;
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        for o in &ops[1..] {
            args.push(self.read(o, ty)?);
        }
        let v = self.op(opcode, attrs, &args, result);
        self.write(&ops[0], v, ty.kind() == TypeKind::Signed)
    }

    /// The three-input `min/max.f32 d, a, b, c` (PTX 8.8, sm_100+) as two
    /// two-input ones, `(a op b) op c`: with or without `.NaN` the chain
    /// gives the same result (a NaN input is dropped, or propagated, at
    /// either step alike).
    fn min_max3(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let opcode = if i.opcode == P::Min { Opcode::Min } else { Opcode::Max };
        let ty = self.one_type(i)?;
        if attrs.mul.is_some() || attrs.vector != 0 || attrs.space.is_some() || attrs.xorsign || attrs.abs != 0 || ty.kind() != TypeKind::Float {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 4)?;
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let (a, b, c) = (self.read(&ops[1], ty)?, self.read(&ops[2], ty)?, self.read(&ops[3], ty)?);
        let ab = self.op(opcode, attrs, &[a, b], result);
        let v = self.op(opcode, attrs, &[ab, c], result);
        self.write(&ops[0], v, false)
    }

    /// `mul`/`mad` with `.lo/.hi/.wide` (`.wide` doubles the result and,
    /// for `mad`, the addend).
    fn mul(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs, n: usize) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        let ops = self.operands_n(i, n + 1)?;
        let is_int = !matches!(ty.kind(), TypeKind::Float);
        let wide = attrs.mul == Some(MulMode::Wide);
        let result_ty = if wide { widened(ty).ok_or_else(|| self.unsupported(i))? } else { ty };
        if attrs.vector != 0 {
            return Err(self.unsupported(i));
        }
        let mut attrs = attrs;
        if is_int && attrs.mul.is_none() {
            // An integer multiply without a mode keeps the low half.
            attrs.mul = Some(MulMode::Lo);
        }
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        args.push(self.read(&ops[1], ty)?);
        args.push(self.read(&ops[2], ty)?);
        if n == 3 {
            args.push(self.read(&ops[3], result_ty)?);
        }
        let result = scalar_value_type(result_ty).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(opcode, attrs, &args, result);
        self.write(&ops[0], v, ty.kind() == TypeKind::Signed)
    }

    /// `shl`/`shr`: the shift amount is always `.u32`.
    fn shift(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        let ops = self.operands_n(i, 3)?;
        let a = self.read(&ops[1], ty)?;
        let b = self.read(&ops[2], ScalarType::U32)?;
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(opcode, attrs, &[a, b], result);
        self.write(&ops[0], v, ty.kind() == TypeKind::Signed)
    }

    /// Reads a combining predicate operand (`p` or `!p`): the value and
    /// whether it is negated.
    pub(super) fn combine_operand(&mut self, o: &Operand) -> Result<(Value, bool), LowerError> {
        match &o.kind {
            OperandKind::NotPred(s) => Ok((self.pred_var_value(*s, o.loc.span())?, true)),
            _ => Ok((self.read(o, ScalarType::Pred)?, false)),
        }
    }

    /// The operands of a comparison `d, a, b[, c]` (`setp`, `set`): `a`
    /// and `b` read as `ty`, and with a combining operation the predicate
    /// `c` (its `!` becomes the `negated` attribute).
    fn compare_args(&mut self, i: &Instruction, mut attrs: Attrs, ty: ScalarType) -> Result<(smallvec::SmallVec<[Value; 3]>, Attrs), LowerError> {
        let ops = self.cx.m.operands(i.operands);
        let combined = attrs.combine.is_some();
        if ops.len() != if combined { 4 } else { 3 } || attrs.cmp.is_none() {
            return Err(self.unsupported(i));
        }
        let a = self.read(&ops[1], ty)?;
        let b = self.read(&ops[2], ty)?;
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::smallvec![a, b];
        if combined {
            let (c, negated) = self.combine_operand(&ops[3])?;
            args.push(c);
            attrs.negated = negated;
        }
        Ok((args, attrs))
    }

    /// `setp.cmp[.bop].type p[|q], a, b[, c]`: `p` is one `Setp`; `q`
    /// (the negated comparison, combined the same way) another. On a
    /// packed pair of halves (`.f16x2`, `.bf16x2`) `p` is the low lanes'
    /// comparison and `q` the high lanes' (PTX ISA, `setp`): the high
    /// halves shifted down, compared the same way.
    fn setp(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        let ops = self.cx.m.operands(i.operands);
        let (args, attrs) = self.compare_args(i, attrs, ty)?;
        let (p, q) = match &ops[0].kind {
            OperandKind::PredPair(p, q) => (OperandKind::Name(*p, None), Some(OperandKind::Name(*q, None))),
            other => (other.clone(), None),
        };
        let pv = self.op(Opcode::Setp, attrs, &args, Type::P);
        self.write(&Operand { kind: p, loc: ops[0].loc }, pv, false)?;
        if let Some(q) = q {
            let qv = if matches!(ty, ScalarType::F16x2 | ScalarType::Bf16x2) {
                let sixteen = self.iconst(Type::R32, 16);
                let mut high = args.clone();
                for v in high.iter_mut().take(2) {
                    *v = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[*v, sixteen], Type::R32);
                }
                self.op(Opcode::Setp, attrs, &high, Type::P)
            } else {
                let mut inv = attrs;
                inv.cmp = attrs.cmp.map(|c| if ty.kind() == TypeKind::Float { inverse_cmp(c) } else { inverse_int_cmp(c) });
                self.op(Opcode::Setp, inv, &args, Type::P)
            };
            self.write(&Operand { kind: q, loc: ops[0].loc }, qv, false)?;
        }
        Ok(())
    }

    /// `set.cmp[.bop].dtype.stype d, a, b[, c]`.
    fn set(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let (Some(dty), Some(sty)) = ptx_types(i) else { return Err(self.unsupported(i)) };
        let ops = self.cx.m.operands(i.operands);
        let (args, attrs) = self.compare_args(i, attrs, sty)?;
        let result = scalar_value_type(dty).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(Opcode::Set, attrs, &args, result);
        self.write(&ops[0], v, false)
    }

    /// `selp.type d, a, b, p`.
    fn selp(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        let ops = self.operands_n(i, 4)?;
        let a = self.read(&ops[1], ty)?;
        let b = self.read(&ops[2], ty)?;
        let p = self.read(&ops[3], ScalarType::Pred)?;
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(Opcode::Selp, attrs, &[a, b, p], result);
        self.write(&ops[0], v, ty.kind() == TypeKind::Signed)
    }

    /// `mov`: a copy (no instruction: the destination register just names
    /// the source's value), a constant, an address, a special register —
    /// or packing a vector into a wider register (`mov.b64 %rd, {%r1, %r2}`
    /// is a `Concat`) and unpacking one (`Extract`s).
    fn mov(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        let ops = self.operands_n(i, 2)?;
        let span = i.loc.span();
        let n = attrs.vector;
        let signed = ty.kind() == TypeKind::Signed;
        match (&ops[0].kind, &ops[1].kind) {
            // Element-wise vector move.
            (_, OperandKind::Vector(src)) if n > 1 => {
                let places = self.dests(&ops[0])?;
                let srcs = self.cx.m.operands(*src);
                if places.len() != srcs.len() {
                    return Err(self.error(span, "vector operands of different lengths"));
                }
                for (p, s) in places.into_iter().zip(srcs) {
                    let v = self.read(s, ty)?;
                    self.assign(p, v, signed, span)?;
                }
                Ok(())
            }
            (_, _) if n > 1 => {
                // A vector register moved whole.
                let places = self.dests(&ops[0])?;
                if let OperandKind::Name(s, None) = ops[1].kind
                    && let Some(super::names::Binding::VecReg { id, n: k, ty: et, .. }) = self.resolve(s)
                    && k == n
                    && places.len() == usize::from(n)
                {
                    // Register to register: element by element.
                    for (c, p) in places.into_iter().enumerate() {
                        let var = self.elem_var(id, c as u32, et);
                        let v = self.b.use_var(var);
                        self.assign(p, v, signed, span)?;
                    }
                    return Ok(());
                }
                let packed = self.read(&ops[1], wide_bits(ty.bits() * u32::from(n)))?;
                let parts = self.unpack(packed, n, ty.bits() as u16);
                for (p, v) in places.into_iter().zip(parts) {
                    self.assign(p, v, signed, span)?;
                }
                Ok(())
            }
            // Pack: `mov.b64 %rd, {%r1, %r2}`.
            (_, OperandKind::Vector(src)) => {
                let srcs = self.cx.m.operands(*src);
                let k = srcs.len() as u32;
                if k == 0 || ty.bits() % k != 0 {
                    return Err(self.error(span, "vector does not divide the destination type"));
                }
                let elem = wide_bits(ty.bits() / k);
                let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
                for s in srcs {
                    vals.push(self.read(s, elem)?);
                }
                let v = self.pack(&vals, (ty.bits() / k) as u16);
                self.write(&ops[0], v, false)
            }
            // Unpack: `mov.b64 {%r1, %r2}, %rd`.
            (OperandKind::Vector(dst), _) => {
                let dsts = self.cx.m.operands(*dst);
                let k = dsts.len() as u32;
                if k == 0 || ty.bits() % k != 0 {
                    return Err(self.error(span, "vector does not divide the source type"));
                }
                let v = self.read(&ops[1], ty)?;
                let parts = self.unpack(v, k as u8, (ty.bits() / k) as u16);
                for (d, part) in dsts.iter().zip(parts) {
                    self.write(d, part, false)?;
                }
                Ok(())
            }
            // Unpack into a whole vector register: `mov.b32 %v, %r` with `%v`
            // a `.v2.b16`.
            (OperandKind::Name(s, None), _)
                if matches!(self.resolve(*s), Some(super::names::Binding::VecReg { n: k, bits, .. }) if u32::from(k) * u32::from(bits) == ty.bits()) =>
            {
                let places = self.dests(&ops[0])?;
                let v = self.read(&ops[1], ty)?;
                let k = places.len() as u8;
                let parts = self.unpack(v, k, (ty.bits() / u32::from(k)) as u16);
                for (p, part) in places.into_iter().zip(parts) {
                    self.assign(p, part, false, span)?;
                }
                Ok(())
            }
            _ => {
                let v = self.read(&ops[1], ty)?;
                self.write(&ops[0], v, signed)
            }
        }
    }

    /// `cvt[.rnd][.ftz][.sat].dtype.atype d, a` (and the packing
    /// `cvt.rn[.relu][.satfinite].{f16x2,bf16x2,e4m3x2,e5m2x2}.f32 d, a, b`).
    fn cvt(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let (Some(dty), Some(sty)) = ptx_types(i) else { return Err(self.unsupported(i)) };
        // `cvt.rn.f16x2.f32 d, a, b`: two f32 values packed, a in the high
        // half (the fp8 pairs `cvt.rn.satfinite.e4m3x2.f32` alike).
        if matches!(dty, ScalarType::F16x2 | ScalarType::Bf16x2 | ScalarType::E4m3x2 | ScalarType::E5m2x2) && sty == ScalarType::F32 {
            let ops = self.operands_n(i, 3).map_err(|_| self.unsupported(i))?;
            let a = self.read(&ops[1], sty)?;
            let b = self.read(&ops[2], sty)?;
            let v = self.op(Opcode::Cvt, attrs, &[a, b], Type::R32);
            return self.write(&ops[0], v, false);
        }
        // `.relu` one-source: only unpacking fp8 pairs (`F2FP.RELU...UNPACK_B`)
        // and tf32; `.satfinite` only on the packing forms above and tf32 (a scalar
        // `cvt.rn.satfinite.f16.f32` would need its own saturation).
        // `cvt.rn/rz(.relu)(.satfinite).tf32.f32` takes both (F2FP's flags).
        let tf32 = dty == ScalarType::Tf32 && sty == ScalarType::F32;
        if !tf32 && ((attrs.relu && !matches!(sty, ScalarType::E4m3x2 | ScalarType::E5m2x2)) || has_satfinite(i)) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2).map_err(|_| self.unsupported(i))?;
        let a = self.read(&ops[1], sty)?;
        let result = scalar_value_type(dty).ok_or_else(|| self.unsupported(i))?;
        let v = self.op(Opcode::Cvt, attrs, &[a], result);
        self.write(&ops[0], v, dty.kind() == TypeKind::Signed)
    }

    /// `cvt.rna(.satfinite).tf32.f32 d, a` (sm_80+): the f32 rounded to 10
    /// mantissa bits, ties away from zero, as ptxas 13.5 computes it on
    /// every SM: half of the dropped unit (0x1000) added to the bits of a
    /// finite value, then the low 13 bits cleared (`FSETP.GEU.AND P0, PT,
    /// |R0|, +INF, PT ; @!P0 IMAD.IADD.U32 R0, R0, 0x1, R5 ; LOP3.LUT R5,
    /// R0, 0xffffe000, RZ, 0xc0, !PT`); `.satfinite` then takes 0x2000 off
    /// a result at or beyond infinity (an overflow to infinity becomes the
    /// largest finite tf32; a NaN stays a NaN).
    fn cvt_tf32_rna(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ScalarType::F32)?;
        let u32t = Attrs::typed(DataType::U32);
        let f32t = Attrs::typed(DataType::F32);
        let inf = self.iconst(Type::R32, 0x7f80_0000);
        let not_finite = |this: &mut Self, x: Value| {
            let m = this.op(Opcode::Abs, f32t, &[x], Type::R32);
            this.op(Opcode::Setp, Attrs { cmp: Some(crate::ir::Cmp::Geu), ..f32t }, &[m, inf], Type::P)
        };
        let special = not_finite(self, a);
        let half_unit = self.iconst(Type::R32, 0x1000);
        let up = self.op(Opcode::Add, u32t, &[a, half_unit], Type::R32);
        let kept = self.op(Opcode::Selp, u32t, &[a, up, special], Type::R32);
        let mask = self.iconst(Type::R32, 0xffff_e000);
        let mut d = self.op(Opcode::And, Attrs::typed(DataType::B32), &[kept, mask], Type::R32);
        if has_satfinite(i) {
            let over = not_finite(self, d);
            let unit = self.iconst(Type::R32, 0x2000);
            let below = self.op(Opcode::Sub, u32t, &[d, unit], Type::R32);
            d = self.op(Opcode::Selp, u32t, &[below, d, over], Type::R32);
        }
        self.write(&ops[0], d, false)
    }

    /// `mapa(.shared::cluster).{u32,u64} d, a, rank` (sm_90+): the address
    /// of `a`'s location in the shared memory of the cluster's CTA `rank`:
    /// the address's top byte replaced by the rank's low byte, a 64-bit
    /// address keeping its high word (ptxas 13.5: `PRMT R4, R7, 0x654, R4`,
    /// every form, sm_90 and sm_120).
    fn mapa(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        if !matches!(ty, ScalarType::U32 | ScalarType::U64) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 3)?;
        let a = self.read(&ops[1], ty)?;
        let rank = self.read(&ops[2], ScalarType::U32)?;
        let low = self.extract(a, 0);
        let selector = self.iconst(Type::R32, 0x654);
        let mut data = crate::ir::InstData::new(Opcode::Permute, Attrs::typed(DataType::B32));
        data.args.extend([rank, low, selector]);
        let inst = self.emit(data, &[Type::R32]);
        let moved = self.b.func.insts[inst].results[0];
        let v = if ty == ScalarType::U64 {
            let high = self.extract(a, 1);
            self.concat(&[moved, high])
        } else {
            moved
        };
        self.write(&ops[0], v, false)
    }

    /// `testp.class.type p, a` (`.f32`/`.f64`, one class).
    fn testp(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.one_type(i)?;
        if attrs.class.is_none() || !matches!(ty, ScalarType::F32 | ScalarType::F64) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ty)?;
        let v = self.op(Opcode::Testp, attrs, &[a], Type::P);
        self.write(&ops[0], v, false)
    }

    /// `bar.sync a[, b]` / `barrier.sync[.aligned] a[, b]`.
    fn bar_sync(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let m = self.cx.m;
        let ops = m.operands(i.operands);
        if ops.is_empty() || ops.len() > 2 || attrs != Attrs::default() {
            return Err(self.unsupported(i));
        }
        let mut data = crate::ir::InstData::new(Opcode::BarSync, Attrs::default());
        for o in ops {
            let v = self.read(o, ScalarType::U32)?;
            data.args.push(v);
        }
        self.emit(data, &[]);
        Ok(())
    }
}

/// An untyped PTX type of `bits` bits (for moving vector elements whose
/// own type is not named).
pub(super) fn wide_bits(bits: u32) -> ScalarType {
    match bits {
        0..=8 => ScalarType::B8,
        9..=16 => ScalarType::B16,
        17..=32 => ScalarType::B32,
        33..=64 => ScalarType::B64,
        _ => ScalarType::B128,
    }
}
