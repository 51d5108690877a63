//! The integer-only instruction families that have PTX-layer opcodes of
//! their own: the bit, field and byte instructions `popc clz brev bfind
//! bfe bfi bmsk szext cnot shf prmt lop3`, the multiply variants `mul24
//! mad24 sad dp4a dp2a`, and the extended-precision (carry) family `add.cc
//! addc sub.cc subc mad.cc madc`. Plain integer arithmetic (`add`, `mul`,
//! `shl`, ...) shares its lowering with float's, in [`super::ops`].
//!
//! Each becomes one PTX-layer instruction of its own opcode (legalization
//! expands it), except `cnot`, which is a comparison and a selection.
//!
//! **The carry flag.** PTX's condition code `CC.CF` is a predicate
//! variable of the function (declared on first use, zero where nothing set
//! it, like any register read before its first write). An instruction with
//! `.cc` has the carry-out as its second result and assigns it to that
//! variable; `addc`/`subc`/`madc` read it as their last argument (the `x`
//! attribute). The value is the machine's carry: for subtraction, true
//! when nothing is borrowed (ptxas: `sub.cc` → `IADD3 d, P0, a, -b, RZ`,
//! `subc` → `IADD3.X d, a, ~b, RZ, P0`).

use super::error::LowerError;
use super::function::FnLower;
use super::types::{self, Ext, scalar_value_type};
use crate::ir::{Attrs, Cmp, DataType, InstData, MulMode, Opcode, Type, Value};
use crate::ptx::ast::{Instruction, OperandKind, ScalarType, TypeKind};
use crate::ptx::opcode::Opcode as P;

/// Whether [`FnLower::int_op`] lowers this opcode (with or without the
/// words of [`Ext`]).
pub(super) fn handles(op: P) -> bool {
    matches!(
        op,
        P::Addc
            | P::Subc
            | P::Madc
            | P::Fns
            | P::Popc
            | P::Clz
            | P::Brev
            | P::Bfind
            | P::Bfe
            | P::Bfi
            | P::Bmsk
            | P::Szext
            | P::Mul24
            | P::Mad24
            | P::Sad
            | P::Dp4a
            | P::Dp2a
            | P::Cnot
            | P::Shf
            | P::Prmt
            | P::Lop3
    )
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Lowers an instruction of this module's families, or one of another
    /// family that carries a word of [`Ext`] (`add.cc`, `sub.cc`,
    /// `mad.lo.cc`); anything else with such a word is unsupported.
    pub fn int_op(&mut self, i: &Instruction, attrs: Attrs, ext: Ext) -> Result<(), LowerError> {
        let only = |allowed: Ext| -> bool {
            // Every word present is one the instruction takes.
            (!ext.cc || allowed.cc)
                && (!ext.clamp || allowed.clamp)
                && (!ext.wrap || allowed.wrap)
                && (!ext.shiftamt || allowed.shiftamt)
                && (ext.left.is_none() || allowed.left.is_some())
                && (ext.prmt_mode == 0 || allowed.prmt_mode != 0)
        };
        let cc = Ext { cc: true, ..Ext::default() };
        let clamp_wrap = Ext { clamp: true, wrap: true, ..Ext::default() };
        let ok = match i.opcode {
            P::Add | P::Sub | P::Mad => ext.cc && only(cc),
            P::Addc | P::Subc | P::Madc => only(cc),
            P::Bfind => only(Ext { shiftamt: true, ..Ext::default() }),
            P::Bmsk | P::Szext => only(clamp_wrap),
            P::Shf => ext.left.is_some() && only(Ext { left: Some(true), ..clamp_wrap }),
            P::Prmt => only(Ext { prmt_mode: 1, ..Ext::default() }),
            op => handles(op) && ext == Ext::default(),
        };
        if !ok || attrs.vector != 0 || attrs.space.is_some() {
            return Err(self.unsupported(i));
        }
        let mut attrs = attrs;
        attrs.wrap = ext.wrap;
        attrs.shiftamt = ext.shiftamt;
        match i.opcode {
            P::Add => self.carry_op(i, Opcode::Addc, attrs, false, true),
            P::Sub => self.carry_op(i, Opcode::Subc, attrs, false, true),
            P::Mad => self.carry_op(i, Opcode::Madc, attrs, false, true),
            P::Addc => self.carry_op(i, Opcode::Addc, attrs, true, ext.cc),
            P::Subc => self.carry_op(i, Opcode::Subc, attrs, true, ext.cc),
            P::Madc => self.carry_op(i, Opcode::Madc, attrs, true, ext.cc),
            P::Popc => self.count(i, Opcode::Popc, attrs),
            P::Clz => self.count(i, Opcode::Clz, attrs),
            P::Bfind => self.count(i, Opcode::Bfind, attrs),
            P::Brev => self.typed(i, Opcode::Brev, attrs, &[None]),
            P::Bfe => self.typed(i, Opcode::Bfe, attrs, &[None, Some(ScalarType::U32), Some(ScalarType::U32)]),
            P::Bfi => self.typed(i, Opcode::Bfi, attrs, &[None, None, Some(ScalarType::U32), Some(ScalarType::U32)]),
            P::Bmsk => self.typed(i, Opcode::Bmsk, attrs, &[None, None]),
            P::Szext => self.typed(i, Opcode::Szext, attrs, &[None, Some(ScalarType::U32)]),
            P::Sad => self.typed(i, Opcode::Sad, attrs, &[None, None, None]),
            P::Mul24 | P::Mad24 => {
                if attrs.mul.is_none() || attrs.mul == Some(MulMode::Wide) {
                    return Err(self.unsupported(i));
                }
                let (op, n) = if i.opcode == P::Mul24 { (Opcode::Mul24, 2) } else { (Opcode::Mad24, 3) };
                self.typed(i, op, attrs, &[None; 3][..n])
            }
            P::Dp4a | P::Dp2a => self.dot(i, attrs),
            P::Cnot => self.cnot(i),
            P::Shf => {
                attrs.left = ext.left == Some(true);
                self.typed(i, Opcode::Funnel, attrs, &[None, None, Some(ScalarType::U32)])
            }
            P::Prmt => {
                let v = self.typed_value(i, Opcode::Permute, attrs, &[None, None, Some(ScalarType::B32)], u64::from(ext.prmt_mode))?;
                let ops = self.operands_n(i, 4)?;
                self.write(&ops[0], v, false)
            }
            P::Lop3 => self.lop3(i, attrs),
            P::Fns => self.fns(i),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `fns.b32 d, mask, base, offset`: the position of the `offset`-th set
    /// bit of `mask` counted from bit `base` up (`offset` > 0) or down
    /// (< 0), `mask`'s bit `base` itself for `offset` 0; 0xffffffff where
    /// there is none (PTX ISA, "fns"). Without a loop, as ptxas 13.5's code
    /// (a `BREV` for the downward search, then halving with `POPC`): the
    /// candidate bits (those at or above `base`, or at or below it and
    /// reversed) are halved five times, keeping the half that holds the
    /// bit sought and counting off the set bits of the half passed over.
    fn fns(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 4)?;
        let mask = self.read(&ops[1], ScalarType::B32)?;
        let base = self.read(&ops[2], ScalarType::U32)?;
        let offset = self.read(&ops[3], ScalarType::S32)?;
        let b32 = Attrs::typed(DataType::B32);
        let u32_ = Attrs::typed(DataType::U32);
        let cmp = |c: Cmp, t: DataType| Attrs { cmp: Some(c), ..Attrs::typed(t) };
        let k = |s: &mut Self, v: u64| s.iconst(Type::R32, v);
        let ones = k(self, 0xffff_ffff);
        let zero = k(self, 0);
        let up = self.op(Opcode::Setp, cmp(Cmp::Gt, DataType::S32), &[offset, zero], Type::P);
        // Bits at or above `base` (none for a base past 31: PTX's shifts
        // saturate), or at or below it, reversed.
        let above = self.op(Opcode::Shl, b32, &[ones, base], Type::R32);
        let upper = self.op(Opcode::And, b32, &[mask, above], Type::R32);
        let thirty_one = k(self, 31);
        let below_shift = self.op(Opcode::Sub, u32_, &[thirty_one, base], Type::R32);
        let below = self.op(Opcode::Shr, u32_, &[ones, below_shift], Type::R32);
        let lower = self.op(Opcode::And, b32, &[mask, below], Type::R32);
        let reversed = self.op(Opcode::Brev, b32, &[lower], Type::R32);
        let mut x = self.op(Opcode::Selp, b32, &[upper, reversed, up], Type::R32);
        // The count sought, from 1.
        let negated = self.op(Opcode::Neg, Attrs::typed(DataType::S32), &[offset], Type::R32);
        let mut want = self.op(Opcode::Selp, b32, &[offset, negated, up], Type::R32);
        let mut at = zero;
        for width in [16u64, 8, 4, 2, 1] {
            let low_mask = k(self, (1 << width) - 1);
            let low = self.op(Opcode::And, b32, &[x, low_mask], Type::R32);
            let count = self.op(Opcode::Popc, b32, &[low], Type::R32);
            let past = self.op(Opcode::Setp, cmp(Cmp::Lt, DataType::U32), &[count, want], Type::P);
            let left = self.op(Opcode::Sub, u32_, &[want, count], Type::R32);
            want = self.op(Opcode::Selp, b32, &[left, want, past], Type::R32);
            let w = k(self, width);
            let high = self.op(Opcode::Shr, u32_, &[x, w], Type::R32);
            x = self.op(Opcode::Selp, b32, &[high, low, past], Type::R32);
            let moved = self.op(Opcode::Add, u32_, &[at, w], Type::R32);
            at = self.op(Opcode::Selp, b32, &[moved, at, past], Type::R32);
        }
        // Found: the last bit left is set and is the one counted to.
        let one = k(self, 1);
        let bit = self.op(Opcode::And, b32, &[x, one], Type::R32);
        let set = self.op(Opcode::Setp, cmp(Cmp::Ne, DataType::U32), &[bit, zero], Type::P);
        let last = self.op(Opcode::Setp, cmp(Cmp::Eq, DataType::U32), &[want, one], Type::P);
        let found = self.op(Opcode::And, Attrs::typed(DataType::Pred), &[set, last], Type::P);
        let from_top = self.op(Opcode::Sub, u32_, &[thirty_one, at], Type::R32);
        let position = self.op(Opcode::Selp, b32, &[at, from_top, up], Type::R32);
        let searched = self.op(Opcode::Selp, b32, &[position, ones, found], Type::R32);
        // `offset` 0: `base` itself where its bit is set.
        let shifted = self.op(Opcode::Shr, u32_, &[mask, base], Type::R32);
        let own = self.op(Opcode::And, b32, &[shifted, one], Type::R32);
        let own_set = self.op(Opcode::Setp, cmp(Cmp::Ne, DataType::U32), &[own, zero], Type::P);
        let itself = self.op(Opcode::Selp, b32, &[base, ones, own_set], Type::R32);
        let none = self.op(Opcode::Setp, cmp(Cmp::Eq, DataType::S32), &[offset, zero], Type::P);
        let d = self.op(Opcode::Selp, b32, &[itself, searched, none], Type::R32);
        self.write(&ops[0], d, false)
    }

    /// The predicate variable holding PTX's carry flag.
    fn carry_var(&mut self) -> crate::ir::Variable {
        match self.cc {
            Some(v) => v,
            None => {
                let v = self.b.declare_var(Type::P);
                self.cc = Some(v);
                v
            }
        }
    }

    /// `add/sub/mad[.lo|.hi].cc` (carry-out, no carry-in) and
    /// `addc/subc/madc[.cc]` (carry-in `x`, carry-out with `.cc`).
    fn carry_op(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs, carry_in: bool, carry_out: bool) -> Result<(), LowerError> {
        let ty = self.single_int_type(i)?;
        if !matches!(ty, ScalarType::U32 | ScalarType::S32 | ScalarType::U64 | ScalarType::S64) {
            return Err(self.unsupported(i));
        }
        if opcode == Opcode::Madc {
            // `mad.cc` needs `.lo` or `.hi` (no `.wide` with a carry).
            match attrs.mul {
                Some(MulMode::Lo | MulMode::Hi) => {}
                _ => return Err(self.unsupported(i)),
            }
        }
        let n = if opcode == Opcode::Madc { 3 } else { 2 };
        let ops = self.operands_n(i, n + 1)?;
        let mut data = InstData::new(opcode, Attrs { x: carry_in, ..attrs });
        for o in &ops[1..] {
            let v = self.read(o, ty)?;
            data.args.push(v);
        }
        if carry_in {
            let var = self.carry_var();
            let c = self.b.use_var(var);
            data.args.push(c);
        }
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let inst = if carry_out { self.emit(data, &[result, Type::P]) } else { self.emit(data, &[result]) };
        let results = self.b.func.insts[inst].results.clone();
        self.write(&ops[0], results[0], false)?;
        if carry_out {
            let var = self.carry_var();
            self.pending.push((var, results[1]));
        }
        Ok(())
    }

    /// The instruction's one integer type.
    fn single_int_type(&self, i: &Instruction) -> Result<ScalarType, LowerError> {
        let mut ts = i.types();
        match (ts.next(), ts.next()) {
            (Some(t), None) if types::data_type(t).is_some() && !matches!(t.kind(), TypeKind::Float) && t != ScalarType::Pred => Ok(t),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `popc`/`clz`/`bfind d, a`: a count in a 32-bit register.
    fn count(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.single_int_type(i)?;
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ty)?;
        let v = self.op(opcode, attrs, &[a], Type::R32);
        self.write(&ops[0], v, false)
    }

    /// `d = op(args…)`, the destination of the instruction's type; each
    /// argument is read as that type or as the type given for it.
    fn typed(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs, args: &[Option<ScalarType>]) -> Result<(), LowerError> {
        let v = self.typed_value(i, opcode, attrs, args, 0)?;
        let ty = self.single_int_type(i)?;
        let ops = self.operands_n(i, args.len() + 1)?;
        self.write(&ops[0], v, ty.kind() == TypeKind::Signed)
    }

    /// The value of [`Self::typed`], with `imm` as the instruction's immediate.
    fn typed_value(&mut self, i: &Instruction, opcode: Opcode, attrs: Attrs, args: &[Option<ScalarType>], imm: u64) -> Result<Value, LowerError> {
        let ty = self.single_int_type(i)?;
        let ops = self.operands_n(i, args.len() + 1)?;
        let mut data = InstData::new(opcode, attrs);
        data.imm = imm;
        for (o, t) in ops[1..].iter().zip(args) {
            let v = self.read(o, t.unwrap_or(ty))?;
            data.args.push(v);
        }
        let result = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let inst = self.emit(data, &[result]);
        Ok(self.b.func.insts[inst].results[0])
    }

    /// `dp4a.atype.btype d, a, b, c` / `dp2a.mode.atype.btype`: the two
    /// types are `ty` and `src_ty`; every operand is 32 bits.
    fn dot(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let (Some(_), Some(_)) = (attrs.ty, attrs.src_ty) else { return Err(self.unsupported(i)) };
        let two = i.opcode == P::Dp2a;
        if two != attrs.mul.is_some() || attrs.mul == Some(MulMode::Wide) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 4)?;
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        for o in &ops[1..] {
            args.push(self.read(o, ScalarType::B32)?);
        }
        let v = self.op(if two { Opcode::Dp2a } else { Opcode::Dp4a }, attrs, &args, Type::R32);
        self.write(&ops[0], v, false)
    }

    /// `cnot.type d, a`: 1 where a is zero, else 0 (a comparison with zero
    /// and a selection, as ptxas does: ISETP then SEL).
    fn cnot(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ty = self.single_int_type(i)?;
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ty)?;
        let vt = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let dt = types::data_type(ty).ok_or_else(|| self.unsupported(i))?;
        let unsigned = match dt.bits() {
            64 => DataType::U64,
            32 => DataType::U32,
            _ => DataType::U16,
        };
        let zero = self.iconst(vt, 0);
        let p = self.op(Opcode::Setp, Attrs { cmp: Some(Cmp::Eq), ..Attrs::typed(unsigned) }, &[a, zero], Type::P);
        let one = self.iconst(vt, 1);
        let v = self.op(Opcode::Selp, Attrs::typed(unsigned), &[one, zero, p], vt);
        self.write(&ops[0], v, false)
    }

    /// `lop3.b32 d, a, b, c, lut` (the predicate forms with `.or`/`.and`
    /// are not lowered yet).
    fn lop3(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        if attrs.combine.is_some() {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 5)?;
        let lut = match &ops[4].kind {
            OperandKind::Imm(e) => types::imm_bits(e, ScalarType::U32).filter(|&l| l <= 0xff),
            _ => None,
        };
        let Some(lut) = lut else { return Err(self.error(i.loc.span(), "lop3 needs a constant lookup table of 8 bits")) };
        let mut data = InstData::new(Opcode::Logic3, attrs);
        data.imm = lut;
        for o in &ops[1..4] {
            let v = self.read(o, ScalarType::B32)?;
            data.args.push(v);
        }
        let inst = self.emit(data, &[Type::R32]);
        let v = self.b.func.insts[inst].results[0];
        self.write(&ops[0], v, false)
    }
}
