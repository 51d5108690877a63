//! Memory access: `ld`, `st`, the atomics `atom` and `red`, and `cvta`,
//! and the address operands `[reg+off]`, `[var+off]`, `[param+off]`.
//!
//! A load or store in a real state space becomes `Ld`/`St` with the
//! address value as the first argument and the constant offset in
//! `offset`; a variable's address is a `SymAddr` (in the variable's own
//! space; a generic access to a non-global variable converts it with
//! `Cvta`). Kernel parameters are read with an address-less `Ld` of space
//! `param` at the parameter's offset. `.param` variables held in registers
//! (device-function parameters, call arguments and results) are not memory
//! at all: loading one reads (a 32-bit-aligned part or a low sub-word of)
//! the variable, storing one redefines it.

use super::error::LowerError;
use super::function::FnLower;
use super::names::Binding;
use super::operands::Place;
use super::types::{self, aggregate_part_type, scalar_value_type, AGGREGATE_PART};
use crate::diag::Span;
use crate::ir::{Attrs, DataType, InstData, Opcode, Space, Type, Value, Variable};
use crate::ptx::ast::{Address, Instruction, Operand, OperandKind, ScalarType, TypeKind};
use smallvec::SmallVec;

/// What an address operand designates.
pub(super) enum Addr {
    /// Memory at `base + offset` in a state space.
    Mem { base: Value, offset: i64 },
    /// The kernel parameter block at `offset`.
    KernelParam { offset: i64 },
    /// Bytes `offset..` of a `.param` variable held in a register.
    ParamVar { var: Variable, offset: i64 },
    /// Bytes `offset..` of a `.param` aggregate held in 16-byte parts
    /// (declaration `id`, `size` bytes).
    ParamAggregate { id: u32, size: u32, offset: i64 },
}

impl<'a> FnLower<'_, 'a, '_> {
    /// The element type of a load or store (one type, no `.b128` vectors).
    fn mem_type(&self, i: &Instruction) -> Result<ScalarType, LowerError> {
        let mut ts = i.types();
        match (ts.next(), ts.next()) {
            (Some(t), None) if types::data_type(t).is_some() && t != ScalarType::Pred => Ok(t),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `ld[.space][.volatile][.vN].type d, [a]`.
    pub fn ld(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let attrs = self.ordered(i, attrs, crate::ir::MemOrder::Acquire)?;
        let ty = self.mem_type(i)?;
        let ops = self.operands_n(i, 2 + usize::from(has_cache_hint(i)))?;
        let span = i.loc.span();
        let places = self.dests(&ops[0])?;
        let n = usize::from(attrs.vector.max(1));
        if places.len() != n {
            return Err(self.error(span, "the destination does not match the vector width"));
        }
        let elem = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let signed = ty.kind() == TypeKind::Signed;
        let space = attrs.space.unwrap_or(Space::Generic);
        let mut attrs = attrs;
        attrs.space = Some(space);
        // A memory address, or a kernel parameter (read without one); a
        // `.param` variable is a register variable, read piece by piece.
        let (base, offset) = match self.address(&ops[1], space)? {
            Addr::Mem { base, offset } => (Some(base), offset),
            Addr::KernelParam { offset } => (None, offset),
            Addr::ParamVar { var, offset } => {
                let whole = self.b.use_var(var);
                let bytes = i64::from(ty.bits().div_ceil(8));
                for (k, p) in places.into_iter().enumerate() {
                    let v = self.piece(whole, offset + k as i64 * bytes, ty, span)?;
                    self.assign(p, v, signed, span)?;
                }
                return Ok(());
            }
            Addr::ParamAggregate { id, size, offset } => {
                let bytes = i64::from(ty.bits().div_ceil(8));
                for (k, p) in places.into_iter().enumerate() {
                    let (var, within) = self.aggregate_part(id, size, offset + k as i64 * bytes, bytes, span)?;
                    let whole = self.b.use_var(var);
                    let v = self.piece(whole, within, ty, span)?;
                    self.assign(p, v, signed, span)?;
                }
                return Ok(());
            }
        };
        let mut data = InstData::new(Opcode::Ld, attrs);
        data.args.extend(base);
        data.offset = self.offset32(offset, span)?;
        let types: SmallVec<[Type; 4]> = smallvec::smallvec![elem; n];
        let inst = self.emit(data, &types);
        let results = self.b.func.insts[inst].results.clone();
        for (p, v) in places.into_iter().zip(results) {
            self.assign(p, v, signed, span)?;
        }
        Ok(())
    }

    /// `st[.space][.volatile][.vN].type [a], b`.
    pub fn st(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let attrs = self.ordered(i, attrs, crate::ir::MemOrder::Release)?;
        let ty = self.mem_type(i)?;
        let ops = self.operands_n(i, 2 + usize::from(has_cache_hint(i)))?;
        let span = i.loc.span();
        let n = usize::from(attrs.vector.max(1));
        let values = self.store_values(&ops[1], ty, n)?;
        let space = attrs.space.unwrap_or(Space::Generic);
        let mut attrs = attrs;
        attrs.space = Some(space);
        match self.address(&ops[0], space)? {
            Addr::Mem { .. } if space == Space::Param => return Err(self.error(span, "unsupported in lowering: store to a kernel parameter")),
            Addr::Mem { base, offset } => {
                let mut data = InstData::new(Opcode::St, attrs);
                data.args.push(base);
                data.args.extend(values);
                data.offset = self.offset32(offset, span)?;
                self.emit(data, &[]);
            }
            Addr::KernelParam { .. } => return Err(self.error(span, "unsupported in lowering: store to a kernel parameter")),
            Addr::ParamVar { var, offset } => {
                let mut whole = self.b.use_var(var);
                let bytes = i64::from(ty.bits().div_ceil(8));
                for (k, v) in values.into_iter().enumerate() {
                    whole = self.insert(whole, offset + k as i64 * bytes, ty, v, span)?;
                }
                self.assign(Place::Var(var), whole, false, span)?;
            }
            Addr::ParamAggregate { id, size, offset } => {
                let bytes = i64::from(ty.bits().div_ceil(8));
                for (k, v) in values.into_iter().enumerate() {
                    let (var, within) = self.aggregate_part(id, size, offset + k as i64 * bytes, bytes, span)?;
                    let whole = self.b.use_var(var);
                    let whole = self.insert(whole, within, ty, v, span)?;
                    self.assign(Place::Var(var), whole, false, span)?;
                }
            }
        }
        Ok(())
    }

    /// The part of a `.param` aggregate (declaration `id`, `size` bytes)
    /// that holds bytes `offset..offset + bytes`, and the offset within
    /// it. An element that straddles two parts (unaligned in its
    /// aggregate) is not supported.
    fn aggregate_part(&mut self, id: u32, size: u32, offset: i64, bytes: i64, span: Span) -> Result<(Variable, i64), LowerError> {
        let part = i64::from(AGGREGATE_PART);
        if offset < 0 || offset + bytes > i64::from(size) {
            return Err(self.error(span, format!("access to bytes {offset}..{} of a .param aggregate of {size} bytes", offset + bytes)));
        }
        let k = offset / part;
        if (offset + bytes - 1) / part != k {
            return Err(self.error(span, "unsupported in lowering: an unaligned element of a .param aggregate (it straddles two 16-byte parts)"));
        }
        let ty = aggregate_part_type(size, k as u32).ok_or_else(|| self.error(span, "a .param aggregate part without a type"))?;
        Ok((self.elem_var(id, k as u32, ty), offset - k * part))
    }

    /// The memory order of a load or store: none, `.relaxed.scope`, or
    /// `ordering.scope` (`.acquire` for loads, `.release` for stores); a
    /// scope needs an order and `.volatile` none.
    fn ordered(&self, i: &Instruction, attrs: Attrs, ordering: crate::ir::MemOrder) -> Result<Attrs, LowerError> {
        use crate::ir::MemOrder::Relaxed;
        match (attrs.order, attrs.scope) {
            (None, None) => Ok(attrs),
            (Some(o), Some(_)) if (o == Relaxed || o == ordering) && !attrs.volatile => Ok(attrs),
            _ => Err(self.unsupported(i)),
        }
    }

    /// `atom[.sem][.scope][.space].op.type d, [a], b[, c]` and
    /// `red[.sem][.scope][.space].op.type [a], b`: global, shared or
    /// generic memory, every order but `.sc` (relaxed by default); the
    /// operation in `red` (`and`/`or`/`xor` arrive as a combining
    /// operation).
    pub fn atomic(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ty = self.mem_type(i)?;
        let span = i.loc.span();
        let red = attrs.red.or(attrs.combine.map(|c| match c {
            crate::ir::BoolOp::And => crate::ir::RedOp::And,
            crate::ir::BoolOp::Or => crate::ir::RedOp::Or,
            crate::ir::BoolOp::Xor => crate::ir::RedOp::Xor,
        }));
        let Some(red) = red.filter(|r| *r != crate::ir::RedOp::Popc) else { return Err(self.unsupported(i)) };
        let space = attrs.space.unwrap_or(Space::Generic);
        let ordered = attrs.order.is_none_or(|o| o != crate::ir::MemOrder::Sc);
        if !ordered || !matches!(space, Space::Global | Space::Shared | Space::Generic) || attrs.vector != 0 || attrs.volatile {
            return Err(self.unsupported(i));
        }
        let returns = i.opcode == crate::ptx::opcode::Opcode::Atom;
        let sources = if red == crate::ir::RedOp::Cas { 2 } else { 1 };
        let ops = self.operands_n(i, usize::from(returns) + 1 + sources)?;
        let at = usize::from(returns);
        let Addr::Mem { base, offset } = self.address(&ops[at], space)? else {
            return Err(self.error(span, "unsupported in lowering: an atomic on a parameter"));
        };
        let elem = scalar_value_type(ty).ok_or_else(|| self.unsupported(i))?;
        let opcode = if returns { Opcode::Atom } else { Opcode::Red };
        let attrs = Attrs { space: Some(space), red: Some(red), ty: attrs.ty, order: attrs.order, scope: attrs.scope, ..Attrs::default() };
        let mut data = InstData::new(opcode, attrs);
        data.args.push(base);
        for o in &ops[at + 1..] {
            let v = self.read(o, ty)?;
            data.args.push(v);
        }
        data.offset = self.offset32(offset, span)?;
        let types = [elem];
        let inst = self.emit(data, if returns { &types[..] } else { &[] });
        if returns {
            let v = self.b.func.insts[inst].results[0];
            self.write(&ops[0], v, ty.kind() == TypeKind::Signed)?;
        }
        Ok(())
    }

    /// `createpolicy.fractional.L2::primary[.L2::secondary].b64 d[, f]`:
    /// the policy as a constant ([`fractional_policy`]). A fraction in a
    /// register, and `createpolicy.range` / `.cvt`, are unsupported.
    pub fn createpolicy(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let words: SmallVec<[&str; 6]> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        if !words.contains(&".fractional") {
            return Err(self.unsupported(i));
        }
        let policies: SmallVec<[&str; 2]> = words.iter().filter_map(|w| w.strip_prefix(".L2::")).collect();
        let (primary, secondary_first) = match policies.as_slice() {
            [p] => (*p, false),
            [p, "evict_first"] => (*p, true),
            [p, "evict_unchanged"] => (*p, false),
            _ => return Err(self.unsupported(i)),
        };
        let ops = self.cx.m.operands(i.operands);
        let fraction = match ops {
            [_] => 1.0,
            [_, f] => match &f.kind {
                OperandKind::Imm(e) => f64::from_bits(types::imm_bits(e, ScalarType::F64).ok_or_else(|| self.unsupported(i))?),
                _ => return Err(self.error(i.loc.span(), "unsupported in lowering: createpolicy with the fraction in a register")),
            },
            _ => return Err(self.unsupported(i)),
        };
        let policy = fractional_policy(primary, secondary_first, fraction).ok_or_else(|| self.unsupported(i))?;
        let v = self.iconst(Type::R64, policy);
        self.write(&ops[0], v, false)
    }

    /// The values a store writes: `{a, b}`, a `.vN` register, or one value.

    /// The values a store writes: `{a, b}`, a `.vN` register, or one value.
    fn store_values(&mut self, op: &Operand, ty: ScalarType, n: usize) -> Result<SmallVec<[Value; 4]>, LowerError> {
        let span = op.loc.span();
        let values: SmallVec<[Value; 4]> = match &op.kind {
            OperandKind::Vector(list) => {
                let m = self.cx.m;
                let mut out = SmallVec::new();
                for o in m.operands(*list) {
                    out.push(self.read(o, ty)?);
                }
                out
            }
            OperandKind::Name(s, None) if n > 1 => match self.resolve(*s) {
                Some(Binding::VecReg { id, n: k, ty: et, .. }) => {
                    let mut out = SmallVec::new();
                    for c in 0..k {
                        let var = self.elem_var(id, u32::from(c), et);
                        let v = self.b.use_var(var);
                        let want = scalar_value_type(ty).unwrap_or(Type::R32);
                        out.push(self.coerce(v, want, false, span)?);
                    }
                    out
                }
                _ => return Err(self.error(span, "a vector store needs a vector of values")),
            },
            _ => smallvec::smallvec![self.read(op, ty)?],
        };
        if values.len() != n {
            return Err(self.error(span, "the stored values do not match the vector width"));
        }
        Ok(values)
    }

    pub(super) fn offset32(&self, offset: i64, span: Span) -> Result<i32, LowerError> {
        i32::try_from(offset).map_err(|_| self.error(span, "address offset does not fit 32 bits"))
    }

    /// Resolves an address operand for an access in `space`.
    pub(super) fn address(&mut self, op: &Operand, space: Space) -> Result<Addr, LowerError> {
        let span = op.loc.span();
        let OperandKind::Address(Address { base, offset }) = &op.kind else {
            return Err(self.error(span, "unsupported in lowering: address operand form"));
        };
        let offset = *offset;
        let Some(s) = *base else {
            // An absolute address.
            let ty = if matches!(space, Space::Shared | Space::Local) { Type::R32 } else { Type::R64 };
            let base = self.iconst(ty, offset as u64);
            return Ok(Addr::Mem { base, offset: 0 });
        };
        let m = self.cx.m;
        let name = || m.names.name(s).to_string();
        match self.resolve(s) {
            Some(Binding::Reg(var)) => {
                // Through a register, the parameter block of a kernel (the
                // register holds an offset in it: a parameter's address is
                // its offset, see `operands::read_name`).
                if space == Space::Param && !self.is_kernel() {
                    return Err(self.error(span, "unsupported in lowering: .param access through a register address"));
                }
                let base = self.b.use_var(var);
                if self.b.func.value_type(base).file().is_predicate() {
                    return Err(self.error(span, "a predicate used as an address"));
                }
                Ok(Addr::Mem { base, offset })
            }
            Some(Binding::KernelParam(k)) if space == Space::Param => {
                let at = self.b.func.params.get(k as usize).map_or(0, |p| i64::from(p.offset));
                Ok(Addr::KernelParam { offset: at + offset })
            }
            Some(Binding::ParamVar { var, .. }) if space == Space::Param => Ok(Addr::ParamVar { var, offset }),
            Some(Binding::ParamAggregate { id, size }) if space == Space::Param => Ok(Addr::ParamAggregate { id, size, offset }),
            Some(Binding::Global(g)) => {
                let own = self.cx.globals.get(g).map_or(Space::Global, |v| v.space);
                if space == own {
                    let ty = if own == Space::Shared { Type::R32 } else { Type::R64 };
                    let base = self.sym_addr(g, 0, ty, span)?;
                    Ok(Addr::Mem { base, offset })
                } else if space == Space::Generic {
                    let a = self.sym_addr(g, 0, Type::R64, span)?;
                    let base = if own == Space::Global { a } else { self.generic_of(a, own) };
                    Ok(Addr::Mem { base, offset })
                } else {
                    Err(self.error(span, format!("'{}' is in .{}, not .{}", name(), own.word(), space.word())))
                }
            }
            Some(Binding::Frame { offset: slot }) => match space {
                Space::Local => {
                    let base = self.frame_addr(i64::from(slot), Type::R32, span)?;
                    Ok(Addr::Mem { base, offset })
                }
                Space::Generic => {
                    let a = self.frame_addr(i64::from(slot), Type::R64, span)?;
                    let base = self.generic_of(a, Space::Local);
                    Ok(Addr::Mem { base, offset })
                }
                _ => Err(self.error(span, format!("'{}' is in .local, not .{}", name(), space.word()))),
            },
            Some(Binding::KernelParam(_) | Binding::ParamVar { .. } | Binding::ParamAggregate { .. }) => {
                Err(self.error(span, format!("unsupported in lowering: .{} access to parameter '{}'", space.word(), name())))
            }
            _ => Err(self.error(span, format!("'{}' is not an address", name()))),
        }
    }

    /// `cvta` of a 64-bit address in `space` to a generic one.
    fn generic_of(&mut self, a: Value, space: Space) -> Value {
        let attrs = Attrs { space: Some(space), ty: Some(DataType::U64), ..Attrs::default() };
        self.op(Opcode::Cvta, attrs, &[a], Type::R64)
    }

    /// `cvta[.to].space.size d, a`.
    pub fn cvta(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let mut ts = i.types();
        let ty = match (ts.next(), ts.next()) {
            (Some(t @ (ScalarType::U32 | ScalarType::U64)), None) => t,
            _ => return Err(self.unsupported(i)),
        };
        if !matches!(attrs.space, Some(Space::Global | Space::Shared | Space::Local | Space::Const | Space::Param)) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ty)?;
        let v = self.op(Opcode::Cvta, attrs, &[a], scalar_value_type(ty).unwrap_or(Type::R64));
        self.write(&ops[0], v, false)
    }

    /// `isspacep.space p, a`: global, shared (of this CTA), local, const
    /// or param. A `.const` or `.global` test carries the module's
    /// constant bank size, the length of the constant window (ptxas 13.5
    /// compares with the window's base plus that size; a global address
    /// is one QSPC calls global outside that window).
    pub fn isspacep(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let cluster = i.modifiers.iter().any(|(m, _)| m.spelling() == ".shared::cluster");
        let Some(space @ (Space::Global | Space::Shared | Space::Local | Space::Const | Space::Param)) = attrs.space else {
            return Err(self.unsupported(i));
        };
        if cluster {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 2)?;
        let a = self.read(&ops[1], ScalarType::U64)?;
        let mut data = InstData::new(Opcode::Isspacep, attrs);
        data.args.push(a);
        if matches!(space, Space::Const | Space::Global) {
            data.imm = crate::ir::module::constant_bank_layout(self.cx.globals.iter()).1;
        }
        let inst = self.emit(data, &[Type::P]);
        let p = self.b.func.insts[inst].results[0];
        self.write(&ops[0], p, false)
    }

    /// `istypep.{texref,samplerref,surfref} p, h`: whether the 64-bit handle
    /// has the kind's bit (61, 62, 63) set, as ptxas 13.5 tests it (`LOP3.LUT
    /// R0, R0, 0x20000000, RZ, 0xc0, !PT` on the handle's high word, then
    /// `ISETP.NE.U32.AND.EX` against the same bit, for `.texref`; 0x40000000
    /// for `.samplerref`, 0x80000000 for `.surfref`; sm_75, sm_90, sm_100).
    pub fn istypep(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let bit = match i.modifiers.iter().map(|(m, _)| m.spelling()).find(|m| matches!(*m, ".texref" | ".samplerref" | ".surfref")) {
            Some(".texref") => 61,
            Some(".samplerref") => 62,
            Some(".surfref") => 63,
            _ => return Err(self.unsupported(i)),
        };
        let ops = self.operands_n(i, 2)?;
        let h = self.read(&ops[1], ScalarType::U64)?;
        let high = self.extract(h, 1);
        let mask = self.iconst(Type::R32, 1u64 << (bit - 32));
        let kind = self.op(Opcode::And, Attrs::typed(DataType::B32), &[high, mask], Type::R32);
        let zero = self.iconst(Type::R32, 0);
        let p = self.op(Opcode::Setp, Attrs { cmp: Some(crate::ir::Cmp::Ne), ..Attrs::typed(DataType::U32) }, &[kind, zero], Type::P);
        self.write(&ops[0], p, false)
    }

    /// Bytes `offset..` of a `.param` value, as a value of type `ty`:
    /// whole 32-bit parts, or a sub-word zero- or sign-extended.
    fn piece(&mut self, whole: Value, offset: i64, ty: ScalarType, span: Span) -> Result<Value, LowerError> {
        let wty = self.b.func.value_type(whole);
        let size = i64::from(wty.regs()) * 4;
        let bits = ty.bits();
        let bytes = i64::from(bits.div_ceil(8));
        if offset < 0 || offset + bytes > size {
            return Err(self.error(span, "access outside the parameter"));
        }
        if bits >= 32 {
            if offset % 4 != 0 {
                return Err(self.error(span, "unsupported in lowering: unaligned .param access"));
            }
            if offset == 0 && bits == wty.bits() {
                return Ok(whole);
            }
            let first = (offset / 4) as u8;
            let parts: SmallVec<[Value; 4]> = (0..(bits / 32) as u8).map(|k| self.extract(whole, first + k)).collect();
            return Ok(self.concat(&parts));
        }
        let word = self.extract(whole, (offset / 4) as u8);
        let shift = (offset % 4) * 8;
        let mut v = word;
        if shift > 0 {
            let c = self.iconst(Type::R32, shift as u64);
            v = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[v, c], Type::R32);
        }
        if ty.kind() == TypeKind::Signed {
            let src = if bits <= 8 { DataType::S8 } else { DataType::S16 };
            let attrs = Attrs { ty: Some(DataType::S32), src_ty: Some(src), ..Attrs::default() };
            Ok(self.op(Opcode::Cvt, attrs, &[v], Type::R32))
        } else {
            let m = self.iconst(Type::R32, (1u64 << bits) - 1);
            Ok(self.op(Opcode::And, Attrs::typed(DataType::B32), &[v, m], Type::R32))
        }
    }

    /// `whole` with bytes `offset..` replaced by `v` (of type `ty`).
    fn insert(&mut self, whole: Value, offset: i64, ty: ScalarType, v: Value, span: Span) -> Result<Value, LowerError> {
        let wty = self.b.func.value_type(whole);
        let size = i64::from(wty.regs()) * 4;
        let bits = ty.bits();
        let bytes = i64::from(bits.div_ceil(8));
        if offset < 0 || offset + bytes > size {
            return Err(self.error(span, "access outside the parameter"));
        }
        if offset == 0 && (bits >= wty.bits() || wty.regs() == 1 && bits >= 32) {
            return self.coerce(v, wty, false, span);
        }
        let mut words: SmallVec<[Value; 4]> = (0..wty.regs()).map(|k| self.extract(whole, k)).collect();
        let at = (offset / 4) as usize;
        if bits >= 32 {
            if offset % 4 != 0 {
                return Err(self.error(span, "unsupported in lowering: unaligned .param access"));
            }
            for k in 0..(bits / 32) as usize {
                words[at + k] = self.extract(v, k as u8);
            }
        } else {
            let shift = ((offset % 4) * 8) as u64;
            let mask = (1u64 << bits) - 1;
            let keep = self.iconst(Type::R32, !(mask << shift) & 0xffff_ffff);
            let kept = self.op(Opcode::And, Attrs::typed(DataType::B32), &[words[at], keep], Type::R32);
            let m = self.iconst(Type::R32, mask);
            let low = self.extract(v, 0);
            let mut new = self.op(Opcode::And, Attrs::typed(DataType::B32), &[low, m], Type::R32);
            if shift > 0 {
                let c = self.iconst(Type::R32, shift);
                new = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[new, c], Type::R32);
            }
            words[at] = self.op(Opcode::Or, Attrs::typed(DataType::B32), &[kept, new], Type::R32);
        }
        Ok(self.concat(&words))
    }
}

/// Whether `i` carries `.L2::cache_hint`: its last operand is then a
/// 64-bit cache policy (made by `createpolicy`), which the access ignores
/// as it ignores the other eviction hints ([`super::types`]): a policy
/// only steers what the L2 cache keeps, never what a load reads.
pub(super) fn has_cache_hint(i: &Instruction) -> bool {
    i.modifiers.iter().any(|(m, _)| m.spelling() == ".L2::cache_hint")
}

/// The 64-bit cache policy `createpolicy.fractional` makes, as ptxas 13.5
/// computes it (measured: ptxas folds it to a constant on sm_80 and
/// builds the same value with uniform ALU operations on sm_90+). The low
/// word is 0; the high word holds, from bit 20, the fraction as sixteenths
/// rounded up, less one (1.0 → 15, 0.5 → 7, 0.3 → 4, 0.01 → 0), and from
/// bit 24 the primary policy (`evict_unchanged` 0x10, `evict_first` 0x12,
/// `evict_last` 0x14, `evict_normal` 0x16) plus one when the secondary
/// policy is `evict_first` (the default secondary is `evict_unchanged`).
/// `None` for a policy name or fraction outside those.
pub(super) fn fractional_policy(primary: &str, secondary_first: bool, fraction: f64) -> Option<u64> {
    let code: u64 = match primary {
        "evict_unchanged" => 0x10,
        "evict_first" => 0x12,
        "evict_last" => 0x14,
        "evict_normal" => 0x16,
        _ => return None,
    };
    if !(fraction > 0.0 && fraction <= 1.0) {
        return None;
    }
    let sixteenths = (fraction * 16.0).ceil() as u64;
    let high = ((code + u64::from(secondary_first)) << 24) | ((sixteenths - 1) << 20);
    Some(high << 32)
}

#[cfg(test)]
mod policy_tests {
    use super::fractional_policy;

    #[test]
    fn policies_are_the_values_ptxas_computes() {
        // High words read from ptxas 13.5's sm_80 code for each createpolicy.
        let cases = [
            ("evict_last", false, 1.0, 0x14f0_0000u64),
            ("evict_first", false, 1.0, 0x12f0_0000),
            ("evict_normal", false, 1.0, 0x16f0_0000),
            ("evict_unchanged", false, 1.0, 0x10f0_0000),
            ("evict_last", false, 0.5, 0x1470_0000),
            ("evict_last", true, 1.0, 0x15f0_0000),
            ("evict_normal", true, 0.25, 0x1730_0000),
            ("evict_last", false, 0.3, 0x1440_0000),
            ("evict_last", false, 0.0625, 0x1400_0000),
            ("evict_last", false, 0.99, 0x14f0_0000),
            ("evict_last", false, 0.01, 0x1400_0000),
        ];
        for (primary, first, fraction, high) in cases {
            assert_eq!(fractional_policy(primary, first, fraction), Some(high << 32), "{primary} {first} {fraction}");
        }
        assert_eq!(fractional_policy("evict_last", false, 0.0), None);
        assert_eq!(fractional_policy("evict_sometimes", false, 1.0), None);
    }
}
