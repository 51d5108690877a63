//! Operands: resolving names to registers, variables and special
//! registers; reading an operand as a value of an instruction's type;
//! assigning results to destination registers; and the conversions
//! between value widths (register pairs split and joined, vectors packed
//! and unpacked) that PTX's loosely typed registers need.

use super::error::LowerError;
use super::function::FnLower;
use super::names::{sreg_type, Binding, SregName};
use super::types::{self, imm_bits, scalar_value_type};
use crate::diag::Span;
use crate::ir::entity::EntityRef;
use crate::ir::{Attrs, DataType, GlobalId, Inst, InstData, Opcode, Space, SpecialReg, Type, Value, Variable};
use crate::ptx::ast::{Component, Operand, OperandKind, ScalarType, Symbol};
use smallvec::SmallVec;

/// Where a destination operand's value goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    /// A register variable.
    Var(Variable),
    /// `_`: nowhere.
    Sink,
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Appends an instruction for the PTX instruction being lowered.
    pub fn emit(&mut self, data: InstData, result_types: &[Type]) -> Inst {
        let inst = self.b.ins(data, result_types);
        self.emitted.push(inst);
        inst
    }

    /// Appends an instruction with one result.
    pub fn op(&mut self, opcode: Opcode, attrs: Attrs, args: &[Value], ty: Type) -> Value {
        let mut data = InstData::new(opcode, attrs);
        data.args.extend_from_slice(args);
        let inst = self.emit(data, &[ty]);
        self.b.func.insts[inst].results[0]
    }

    /// A constant.
    pub fn iconst(&mut self, ty: Type, bits: u64) -> Value {
        let mut data = InstData::new(Opcode::Iconst, Attrs::default());
        data.imm = bits;
        let inst = self.emit(data, &[ty]);
        self.b.func.insts[inst].results[0]
    }

    /// What a name is bound to here (a `%r12` of a `%r<N>` range resolves
    /// to its element's variable).
    pub fn resolve(&mut self, s: Symbol) -> Option<Binding> {
        if let Some(b) = self.cx.scope.get(s) {
            return Some(b);
        }
        let (prefix, n) = self.cx.facts.split.get(s.0 as usize).copied().flatten()?;
        match self.cx.scope.get(prefix)? {
            Binding::Range { id, count, ty } if n < count => Some(Binding::Reg(self.elem_var(id, n, ty))),
            Binding::VecRange { first, count, n: width, ty, bits } if n < count => Some(Binding::VecReg { id: first + n, n: width, ty, bits }),
            _ => None,
        }
    }

    /// The variable of a register operand (a vector register's component
    /// with `comp`).
    pub fn reg_var(&mut self, s: Symbol, comp: Option<Component>, span: Span) -> Result<Variable, LowerError> {
        match (self.resolve(s), comp) {
            (Some(Binding::Reg(var)), None) => Ok(var),
            (Some(Binding::VecReg { id, n, ty, .. }), Some(c)) if (c as u8) < n => Ok(self.elem_var(id, c as u32, ty)),
            _ => Err(self.error(span, format!("'{}' is not a register here", self.cx.m.names.name(s)))),
        }
    }

    /// Converts a value to another width: zero- or sign-extends (`signed`)
    /// a narrower one, keeps the low part of a wider one.
    pub fn coerce(&mut self, v: Value, to: Type, signed: bool, span: Span) -> Result<Value, LowerError> {
        let from = self.b.func.value_type(v);
        if from == to {
            return Ok(v);
        }
        if from.file().is_predicate() || to.file().is_predicate() {
            return Err(self.error(span, format!("a {from} value where a {to} is needed")));
        }
        Ok(match (from.regs(), to.regs()) {
            (1, 2) => {
                let (ty, src) = if signed { (DataType::S64, DataType::S32) } else { (DataType::U64, DataType::U32) };
                self.op(Opcode::Cvt, Attrs { ty: Some(ty), src_ty: Some(src), ..Attrs::default() }, &[v], Type::R64)
            }
            (_, 1) => self.extract(v, 0),
            (4, 2) => {
                let (lo, hi) = (self.extract(v, 0), self.extract(v, 1));
                self.concat(&[lo, hi])
            }
            (f, 4) => {
                let mut words: SmallVec<[Value; 4]> = (0..f).map(|k| self.extract(v, k)).collect();
                let zero = self.iconst(Type::R32, 0);
                words.resize(4, zero);
                self.concat(&words)
            }
            _ => return Err(self.error(span, format!("a {from} value where a {to} is needed"))),
        })
    }

    /// `coerce` for values whose widths are known to be compatible
    /// (no predicates), giving zero on a mismatch instead of an error.
    pub fn coerce_or_zero(&mut self, v: Value, to: Type) -> Value {
        match self.coerce(v, to, false, Span::default()) {
            Ok(v) => v,
            Err(_) => self.iconst(to, 0),
        }
    }

    /// 32-bit part `k` of a wider value (the value itself for `r32`).
    pub fn extract(&mut self, v: Value, k: u8) -> Value {
        if self.b.func.value_type(v) == Type::R32 && k == 0 {
            return v;
        }
        let mut data = InstData::new(Opcode::Extract, Attrs::default());
        data.args.push(v);
        data.imm = u64::from(k);
        let inst = self.emit(data, &[Type::R32]);
        self.b.func.insts[inst].results[0]
    }

    /// Joins 32-bit parts (low first) into an `r64` or `r128`; one part is
    /// itself.
    pub fn concat(&mut self, parts: &[Value]) -> Value {
        match parts.len() {
            0 => self.iconst(Type::R32, 0),
            1 => parts[0],
            2 => self.op(Opcode::Concat, Attrs::default(), parts, Type::R64),
            4 => self.op(Opcode::Concat, Attrs::default(), parts, Type::R128),
            _ => {
                // Three parts (or more than four): pad or cut to a quad.
                let mut quad: SmallVec<[Value; 4]> = parts.iter().copied().take(4).collect();
                while quad.len() < 4 {
                    let zero = self.iconst(Type::R32, 0);
                    quad.push(zero);
                }
                self.op(Opcode::Concat, Attrs::default(), &quad, Type::R128)
            }
        }
    }

    /// The address of module variable `g` plus `offset`, as a value of
    /// type `ty`.
    pub fn sym_addr(&mut self, g: GlobalId, offset: i64, ty: Type, span: Span) -> Result<Value, LowerError> {
        let space = self.cx.globals.get(g).map(|v| v.space);
        let mut data = InstData::new(Opcode::SymAddr, Attrs { space, ..Attrs::default() });
        data.imm = g.index() as u64;
        data.offset = i32::try_from(offset).map_err(|_| self.error(span, "address offset does not fit 32 bits"))?;
        let inst = self.emit(data, &[ty]);
        Ok(self.b.func.insts[inst].results[0])
    }

    /// The address of the frame slot at `offset` (a `.local` variable).
    pub fn frame_addr(&mut self, offset: i64, ty: Type, span: Span) -> Result<Value, LowerError> {
        let mut data = InstData::new(Opcode::SymAddr, Attrs { space: Some(Space::Local), ..Attrs::default() });
        data.offset = i32::try_from(offset).map_err(|_| self.error(span, "address offset does not fit 32 bits"))?;
        let inst = self.emit(data, &[ty]);
        Ok(self.b.func.insts[inst].results[0])
    }

    /// A special register read.
    pub(super) fn sreg(&mut self, r: SpecialReg) -> Value {
        self.op(Opcode::Sreg, Attrs { sreg: Some(r), ..Attrs::default() }, &[], sreg_type(r))
    }

    /// Reads an operand as a value of PTX type `ty` (registers of another
    /// width are converted; immediates become constants; a variable's name
    /// is its address).
    pub fn read(&mut self, op: &Operand, ty: ScalarType) -> Result<Value, LowerError> {
        let span = op.loc.span();
        let want = scalar_value_type(ty).ok_or_else(|| self.error(span, format!("unsupported in lowering: {} operand", ty.spelling())))?;
        let signed = ty.kind() == crate::ptx::ast::TypeKind::Signed;
        let v = match &op.kind {
            OperandKind::Name(s, comp) => self.read_name(*s, *comp, want, span)?,
            OperandKind::NameOffset(s, off) => match self.resolve(*s) {
                Some(Binding::Global(g)) => self.sym_addr(g, *off, want, span)?,
                Some(Binding::Frame { offset }) => self.frame_addr(i64::from(offset) + off, want, span)?,
                // `reg + imm` (accepted by ptxas as an operand): the sum.
                Some(Binding::Reg(var)) if !self.b.var_type(var).file().is_predicate() => {
                    let r = self.b.use_var(var);
                    let r = self.coerce(r, want, signed, span)?;
                    let c = self.iconst(want, types::truncate(*off as u64, ty.bits()));
                    let add_ty = if want == Type::R64 { DataType::U64 } else { DataType::U32 };
                    self.op(Opcode::Add, Attrs::typed(add_ty), &[r, c], want)
                }
                _ => return Err(self.error(span, format!("'{}' is not a variable", self.cx.m.names.name(*s)))),
            },
            OperandKind::Imm(e) => {
                let bits = imm_bits(e, ty).ok_or_else(|| self.error(span, "constant expression does not fold"))?;
                self.iconst(want, bits)
            }
            OperandKind::NotPred(s) => {
                let var = self.reg_var(*s, None, span)?;
                let p = self.b.use_var(var);
                if self.b.func.value_type(p) != Type::P {
                    return Err(self.error(span, "unsupported in lowering: negated non-predicate operand"));
                }
                self.op(Opcode::Not, Attrs::typed(DataType::Pred), &[p], Type::P)
            }
            _ => return Err(self.error(span, "unsupported in lowering: operand form")),
        };
        self.coerce(v, want, signed, span)
    }

    fn read_name(&mut self, s: Symbol, comp: Option<Component>, want: Type, span: Span) -> Result<Value, LowerError> {
        match self.resolve(s) {
            Some(Binding::Reg(var)) if comp.is_none() => Ok(self.b.use_var(var)),
            Some(Binding::VecReg { id, n, ty, bits }) => match comp {
                Some(c) if (c as u8) < n => {
                    let var = self.elem_var(id, c as u32, ty);
                    Ok(self.b.use_var(var))
                }
                Some(_) => Err(self.error(span, "vector component out of range")),
                None => {
                    let parts: SmallVec<[Value; 4]> = (0..n)
                        .map(|c| {
                            let var = self.elem_var(id, u32::from(c), ty);
                            self.b.use_var(var)
                        })
                        .collect();
                    Ok(self.pack(&parts, bits))
                }
            },
            Some(Binding::Global(g)) => self.sym_addr(g, 0, want, span),
            Some(Binding::Frame { offset }) => self.frame_addr(i64::from(offset), want, span),
            // A kernel parameter's address in the `.param` state space: its
            // offset in the parameter block (a `ld.param` through it reads
            // the block, see `memory::address`).
            Some(Binding::KernelParam(k)) => {
                let at = self.b.func.params.get(k as usize).map_or(0, |p| u64::from(p.offset));
                Ok(self.iconst(want, at))
            }
            Some(Binding::ParamVar { .. } | Binding::ParamAggregate { .. }) => Err(self.error(span, "unsupported in lowering: address of a parameter")),
            Some(Binding::Reg(_)) | Some(Binding::Range { .. }) | Some(Binding::VecRange { .. }) => Err(self.error(span, format!("'{}' is not a value here", self.cx.m.names.name(s)))),
            None => {
                if Some(s) == self.cx.facts.warp_sz {
                    return Ok(self.iconst(want, 32));
                }
                match (self.cx.facts.sreg.get(s.0 as usize).copied().unwrap_or(SregName::No), comp) {
                    (SregName::Xyz(x), Some(c)) if c != Component::W => {
                        let r = SpecialReg::ALL.get(x as usize + c as usize).map_or(x, |r| r.0);
                        Ok(self.sreg(r))
                    }
                    (SregName::Plain(r), None) => Ok(self.sreg(r)),
                    (SregName::Numbered(r, n), None) => {
                        let mut data = InstData::new(Opcode::Sreg, Attrs { sreg: Some(r), ..Attrs::default() });
                        data.imm = u64::from(n);
                        let inst = self.emit(data, &[sreg_type(r)]);
                        let v = self.b.func.insts[inst].results[0];
                        self.coerce(v, want, false, span)
                    }
                    // The CTA's place in its cluster and the cluster's in
                    // the grid, per axis (PTX ISA; ptxas 13.5 divides with
                    // a reciprocal sequence, sm_90 and sm_120).
                    (name @ (SregName::ClusterCtaid | SregName::Clusterid), Some(c)) if c != Component::W => {
                        let pick = |x: SpecialReg| SpecialReg::ALL.get(x as usize + c as usize).map_or(x, |r| r.0);
                        let ctaid = self.sreg(pick(SpecialReg::CtaidX));
                        let shape = self.sreg(pick(SpecialReg::ClusterNctaidX));
                        let op = if name == SregName::Clusterid { Opcode::Div } else { Opcode::Rem };
                        let v = self.op(op, Attrs::typed(DataType::U32), &[ctaid, shape], Type::R32);
                        self.coerce(v, want, false, span)
                    }
                    // ptxas 13.5 (sm_90): `ISETP.EQ` of the cluster word and 1.
                    (SregName::IsExplicitCluster, None) => {
                        let word = self.sreg(SpecialReg::ClusterLaunch);
                        let one = self.iconst(Type::R32, 1);
                        Ok(self.op(Opcode::Setp, Attrs { cmp: Some(crate::ir::Cmp::Eq), ..Attrs::typed(DataType::U32) }, &[word, one], Type::P))
                    }
                    _ => {
                        let name = self.cx.m.names.name(s);
                        if let Some(f) = super::func_of(self.cx, s) {
                            if self.cx.sigs.get(f.index()).is_some_and(|sig| sig.kernel) {
                                return Err(self.error(span, format!("unsupported in lowering: the address of kernel '{name}'")));
                            }
                            let mut data = InstData::new(Opcode::FuncAddr, Attrs::default());
                            data.imm = f.index() as u64;
                            let inst = self.emit(data, &[want]);
                            Ok(self.b.func.insts[inst].results[0])
                        } else if name.starts_with('%') {
                            Err(self.error(span, format!("unsupported in lowering: special register {name}")))
                        } else {
                            Err(self.error(span, format!("unknown name '{name}'")))
                        }
                    }
                }
            }
        }
    }

    /// The place a destination operand names.
    pub fn dest(&mut self, op: &Operand) -> Result<Place, LowerError> {
        match &op.kind {
            OperandKind::Name(s, comp) => {
                let var = self.reg_var(*s, *comp, op.loc.span())?;
                if self.cx.name_registers && comp.is_none() {
                    self.name_register(*s, var);
                }
                Ok(Place::Var(var))
            }
            OperandKind::Sink => Ok(Place::Sink),
            _ => Err(self.error(op.loc.span(), "unsupported in lowering: destination operand form")),
        }
    }

    /// Records the PTX register `s` names as `var`'s (once).
    fn name_register(&mut self, s: Symbol, var: Variable) {
        if self.var_names.contains_key(&var) {
            return;
        }
        let declared = if self.cx.scope.get(s).is_some() { Some(s) } else { self.cx.facts.split.get(s.0 as usize).copied().flatten().map(|(prefix, _)| prefix) };
        if let Some(&ty) = declared.and_then(|d| self.reg_types.get(&d)) {
            self.var_names.insert(var, (self.cx.m.names.name(s).to_string(), ty));
        }
    }

    /// The places of a destination that is a vector (`{a, b}` or a `.vN`
    /// register) — or a single place.
    pub fn dests(&mut self, op: &Operand) -> Result<SmallVec<[Place; 4]>, LowerError> {
        match &op.kind {
            OperandKind::Vector(list) => {
                let m = self.cx.m;
                m.operands(*list).iter().map(|o| self.dest(o)).collect()
            }
            OperandKind::Name(s, None) => match self.resolve(*s) {
                Some(Binding::VecReg { id, n, ty, .. }) => Ok((0..n).map(|c| Place::Var(self.elem_var(id, u32::from(c), ty))).collect()),
                _ => Ok(smallvec::smallvec![self.dest(op)?]),
            },
            _ => Ok(smallvec::smallvec![self.dest(op)?]),
        }
    }

    /// Assigns `v` to a place (after the instruction), converting it to the
    /// register's width (`signed`: sign-extending).
    pub fn assign(&mut self, place: Place, v: Value, signed: bool, span: Span) -> Result<(), LowerError> {
        if let Place::Var(var) = place {
            let ty = self.b.var_type(var);
            let v = self.coerce(v, ty, signed, span)?;
            self.pending.push((var, v));
        }
        Ok(())
    }

    /// Writes the single destination operand.
    pub fn write(&mut self, op: &Operand, v: Value, signed: bool) -> Result<(), LowerError> {
        let place = self.dest(op)?;
        self.assign(place, v, signed, op.loc.span())
    }

    /// Reads a call argument: a whole `.param` variable, a register or a
    /// constant, as a value of type `ty`.
    pub fn read_whole(&mut self, op: &Operand, ty: Type) -> Result<Value, LowerError> {
        let span = op.loc.span();
        let v = match &op.kind {
            OperandKind::Name(s, None) => match self.resolve(*s) {
                Some(Binding::ParamVar { var, .. }) => self.b.use_var(var),
                _ => self.read(op, whole_type(ty))?,
            },
            _ => self.read(op, whole_type(ty))?,
        };
        self.coerce(v, ty, false, span)
    }

    /// Writes a call result to a whole `.param` variable or a register.
    pub fn write_whole(&mut self, op: &Operand, v: Value) -> Result<(), LowerError> {
        let span = op.loc.span();
        if let OperandKind::Name(s, None) = &op.kind {
            match self.resolve(*s) {
                Some(Binding::ParamVar { var, .. }) => return self.assign(Place::Var(var), v, false, span),
                Some(Binding::VecReg { n, bits, .. }) => {
                    let places = self.dests(op)?;
                    let parts = self.unpack(v, n, bits);
                    for (p, part) in places.into_iter().zip(parts) {
                        self.assign(p, part, false, span)?;
                    }
                    return Ok(());
                }
                _ => {}
            }
        }
        self.write(op, v, false)
    }

    /// Packs `n` elements of `bits` bits each (in the low bits of their
    /// values) into one value, element 0 lowest.
    pub fn pack(&mut self, elems: &[Value], bits: u16) -> Value {
        let mut words: SmallVec<[Value; 4]> = SmallVec::new();
        if bits >= 32 {
            for &e in elems {
                let regs = self.b.func.value_type(e).regs();
                for k in 0..(bits / 32).max(1) {
                    let part = if regs > 1 { self.extract(e, k as u8) } else { e };
                    words.push(part);
                }
            }
        } else {
            let per_word = (32 / bits.max(1)) as usize;
            let mask = (1u64 << bits) - 1;
            for chunk in elems.chunks(per_word) {
                let mut acc: Option<Value> = None;
                for (k, &e) in chunk.iter().enumerate() {
                    let e = self.extract(e, 0);
                    let m = self.iconst(Type::R32, mask);
                    let mut part = self.op(Opcode::And, Attrs::typed(DataType::B32), &[e, m], Type::R32);
                    if k > 0 {
                        let sh = self.iconst(Type::R32, (k * bits as usize) as u64);
                        part = self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[part, sh], Type::R32);
                    }
                    acc = Some(match acc {
                        None => part,
                        Some(a) => self.op(Opcode::Or, Attrs::typed(DataType::B32), &[a, part], Type::R32),
                    });
                }
                if let Some(a) = acc {
                    words.push(a);
                }
            }
        }
        match words.len() {
            0 => self.iconst(Type::R32, 0),
            1 | 2 => self.concat(&words),
            3 => {
                let zero = self.iconst(Type::R32, 0);
                words.push(zero);
                self.concat(&words)
            }
            _ => {
                words.truncate(4);
                self.concat(&words)
            }
        }
    }

    /// Splits a value into `n` elements of `bits` bits each (element 0 in
    /// the low bits); sub-word elements come back zero-extended in `r32`.
    pub fn unpack(&mut self, v: Value, n: u8, bits: u16) -> SmallVec<[Value; 4]> {
        let regs = self.b.func.value_type(v).regs();
        let mut out = SmallVec::new();
        for i in 0..u32::from(n) {
            let at = i * u32::from(bits);
            let word = (at / 32) as u8;
            if bits >= 64 {
                let lo = self.word_of(v, word, regs);
                let hi = self.word_of(v, word + 1, regs);
                out.push(self.concat(&[lo, hi]));
            } else if bits == 32 {
                out.push(self.word_of(v, word, regs));
            } else {
                let w = self.word_of(v, word, regs);
                let sh = at % 32;
                let mut e = w;
                if sh > 0 {
                    let c = self.iconst(Type::R32, u64::from(sh));
                    e = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[e, c], Type::R32);
                }
                if sh + u32::from(bits) < 32 {
                    let m = self.iconst(Type::R32, (1u64 << bits) - 1);
                    e = self.op(Opcode::And, Attrs::typed(DataType::B32), &[e, m], Type::R32);
                }
                out.push(e);
            }
        }
        out
    }

    /// 32-bit part `k` of a value of `regs` registers (zero past its end).
    fn word_of(&mut self, v: Value, k: u8, regs: u8) -> Value {
        if k >= regs {
            return self.iconst(Type::R32, 0);
        }
        self.extract(v, k)
    }
}

/// The untyped PTX type of a value type's width (for reading a call
/// argument or a whole parameter).
pub(super) fn whole_type(ty: Type) -> ScalarType {
    match (ty.file().is_predicate(), ty.regs()) {
        (true, _) => ScalarType::Pred,
        (_, 1) => ScalarType::B32,
        (_, 2) => ScalarType::B64,
        _ => ScalarType::B128,
    }
}
