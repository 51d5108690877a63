//! The selection context: the state the ISLE program's extern terms read
//! and write (the Ori function, the virtual registers, which values are
//! needed in registers, the instructions emitted for the current Ori
//! instruction), and the operand terms: what each Ori operand can become
//! (its [`Class`]) and making the machine operand for a slot.

use super::mach::{MachInst, VReg, vreg_reg};
use crate::ir::entity::EntityRef;
use crate::ir::{Function, Inst, InstData, Opcode, Type, Value, ValueDef};
use crate::isa::inst::float_printable;
use crate::isa::operand::{Operand, Reg, RegFile, RegNum, SrcMods};
use crate::target::Sm;
use smallvec::SmallVec;

/// An operand of an Ori instruction: its value and source modifiers
/// (already in the form the slot spells them: `~` for bitwise and carry
/// operands, `!` for predicates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The value.
    pub value: Value,
    /// Modifiers.
    pub mods: SrcMods,
}

/// What an operand can become in one kind of slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Zero: the zero register fits every register slot.
    Zero,
    /// A constant that fits the slot's immediate.
    Imm,
    /// A kernel parameter (constant bank 0): a `c[0x0][…]` operand or a
    /// uniform register.
    Param,
    /// An f64 constant the kernel's constant pool holds: a `c[0x2][…]`
    /// operand ([`super::pool`]).
    Pool,
    /// Anything else: a register.
    Reg,
}

/// A value's register shape as the rules match it: its file and width
/// (`Pred` for both predicate files; `None` for a missing value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No such value.
    None,
    /// A predicate (per-thread or uniform).
    Pred,
    /// `r32`.
    R32,
    /// `r64`.
    R64,
    /// `r128`.
    R128,
    /// `ur32`.
    Ur32,
    /// `ur64`.
    Ur64,
    /// `ur128`.
    Ur128,
}

impl Shape {
    /// The shape of a type.
    pub fn of(ty: Type) -> Shape {
        match (ty.file(), ty.regs()) {
            (crate::ir::RegFile::P | crate::ir::RegFile::Up, _) => Shape::Pred,
            (crate::ir::RegFile::R, 1) => Shape::R32,
            (crate::ir::RegFile::R, 2) => Shape::R64,
            (crate::ir::RegFile::R, _) => Shape::R128,
            (crate::ir::RegFile::Ur, 1) => Shape::Ur32,
            (crate::ir::RegFile::Ur, 2) => Shape::Ur64,
            (crate::ir::RegFile::Ur, _) => Shape::Ur128,
        }
    }

    /// The type of a fresh register of the shape (`r32` for `None`).
    pub fn ty(self) -> Type {
        match self {
            Shape::None | Shape::R32 => Type::R32,
            Shape::Pred => Type::P,
            Shape::R64 => Type::R64,
            Shape::R128 => Type::R128,
            Shape::Ur32 => Type::UR32,
            Shape::Ur64 => Type::UR64,
            Shape::Ur128 => Type::UR128,
        }
    }
}

/// Why the rules refused an instruction (the message is
/// [`SelectCtx::failure_message`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A guarded instruction that selects to pseudo-ops, which take no guard.
    GuardedPseudo,
    /// A barrier with a register id or a thread count.
    BarForm,
    /// A vector constant-bank load of a size LDC has no form for.
    LdcVectorSize,
    /// A memory access without its address argument.
    NoAddress,
    /// A load or store without an element type.
    NoElementType,
    /// A load or store of a width no access has.
    AccessSize,
    /// A guarded vector load of 8- or 16-bit elements.
    GuardedSubwordLoad,
    /// A comparison without its comparison attribute.
    NoComparison,
    /// An integer comparison of a float-only kind (`equ`, `num`…).
    IsetpCmp,
    /// A MUFU without its function.
    MufuFunction,
    /// A saturating integer conversion (I2I, not in the form table).
    I2iForm,
    /// A PRMT mode above 6.
    PrmtMode,
    /// An IDP without the types of its sources.
    IdpTypes,
    /// A conversion without its types, or not a conversion.
    ConversionTypes,
    /// A conversion between types (or with a rounding) no form of its
    /// machine instruction spells (I2F to bf16, I2FP.RM, F2F.F32.F32).
    ConversionForm,
    /// An atomic or reduction of an operation or type no form of its
    /// machine instruction spells (`RED.E.EXCH`, `ATOMS.F32`).
    AtomForm,
    /// An `mma` of integer elements with no IMMA shape or type.
    NoImma,
    /// An `mma` no machine instruction performs.
    NoMma,
    /// An immediate that holds no `mma` descriptor.
    MmaDescriptor,
    /// An immediate that holds no `ldmatrix` descriptor.
    LdmatrixDescriptor,
    /// An immediate that holds no `stmatrix` descriptor.
    StmatrixDescriptor,
    /// An immediate that holds no `cp.async` descriptor.
    AsyncCopyDescriptor,
}

/// How global and generic memory accesses address memory on the SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemModel {
    /// A 64-bit address alone (sm_75).
    NoDesc,
    /// A 64-bit address and the memory descriptor (sm_80 on).
    Desc,
    /// A 64-bit address plus a uniform register, URZ (sm_75's atomics and
    /// reductions, `[R2.64]` printing as `[R2.64+URZ]` only when not zero).
    UniformZero,
}

/// The selection state of one function.
pub struct SelectCtx<'f> {
    /// The function being selected.
    pub func: &'f Function,
    /// Target.
    pub sm: Sm,
    /// Type of every virtual register (the first ones are the values').
    pub vregs: Vec<Type>,
    /// Per value: some selected instruction reads it from a register.
    pub needed: Vec<bool>,
    /// What the current Ori instruction became, in order.
    pub out: Vec<MachInst>,
    /// The Ori instruction being selected.
    pub cur: Inst,
    /// The first error met while selecting the current instruction.
    pub error: Option<String>,
    /// The global-memory descriptor (sm_80 on), loaded once in the entry block.
    pub desc: Option<VReg>,
    /// Per Ori block: its machine block (branch targets).
    pub block_index: Vec<u32>,
    /// The kernel's constant bank 2.
    pub pool: super::pool::Pool,
}

impl<'f> SelectCtx<'f> {
    /// A context for `func` on `sm`.
    pub fn new(func: &'f Function, sm: Sm) -> SelectCtx<'f> {
        SelectCtx {
            func,
            sm,
            vregs: func.values.iter().map(|(_, d)| d.ty).collect(),
            needed: vec![false; func.values.len()],
            out: Vec::new(),
            cur: Inst::new(0),
            error: None,
            desc: None,
            block_index: Vec::new(),
            pool: super::pool::Pool::new(super::pool::enabled(sm) && func.kind != Some(crate::ir::FunctionKind::Device)),
        }
    }

    /// The current instruction's data.
    pub fn data(&self) -> &'f InstData {
        &self.func.insts[self.cur]
    }

    /// Records an error (the first one is kept).
    pub fn fail(&mut self, message: impl Into<String>) {
        if self.error.is_none() {
            self.error = Some(message.into());
        }
    }

    /// The virtual register of a value.
    pub fn vreg(&self, v: Value) -> VReg {
        VReg(v.index() as u32)
    }

    /// A fresh virtual register.
    pub fn fresh(&mut self, ty: Type) -> VReg {
        self.vregs.push(ty);
        VReg(self.vregs.len() as u32 - 1)
    }

    /// The isa register of a virtual register.
    pub fn reg_of(&self, v: VReg) -> Reg {
        vreg_reg(v, self.vregs.get(v.0 as usize).copied().unwrap_or(Type::R32))
    }

    /// Marks a value as read from its register and returns the register.
    pub fn use_value(&mut self, v: Value) -> Reg {
        if let Some(n) = self.needed.get_mut(v.index()) {
            *n = true;
        }
        self.reg_of(self.vreg(v))
    }

    /// The constant a value is (an unguarded `iconst`), with its type.
    pub fn constant(&self, v: Value) -> Option<(u64, Type)> {
        let inst = self.func.value_inst(v)?;
        let d = &self.func.insts[inst];
        (d.opcode == Opcode::Iconst && d.guard.is_none()).then_some((d.imm, self.func.value_type(v)))
    }

    /// The byte offset in constant bank 0 a value is loaded from (an
    /// unguarded `Ldc` of bank 0 — the Ldc's immediate is the bank, its
    /// offset the absolute byte offset, as legalization writes them:
    /// kernel parameters, launch dimensions — without an index register),
    /// with the value's type.
    pub fn param(&self, v: Value) -> Option<(u32, Type)> {
        let inst = self.func.value_inst(v)?;
        let d = &self.func.insts[inst];
        let is_param = d.opcode == Opcode::Ldc && d.imm == 0 && d.guard.is_none() && d.args.is_empty() && d.results.len() == 1;
        let off = u32::try_from(d.offset).ok()?;
        (is_param && off < 0x1_0000).then_some((off, self.func.value_type(v)))
    }

    /// The `k`-th argument of the current instruction as an operand.
    pub fn arg(&self, k: usize) -> Option<Arg> {
        let d = self.data();
        let value = *d.args.get(k)?;
        let bit = 1u8.checked_shl(k as u32).unwrap_or(0);
        let neg = d.attrs.neg & bit != 0;
        let abs = d.attrs.abs & bit != 0;
        let predicate = self.func.value_type(value).file().is_predicate();
        // Carry forms and bitwise operations spell negation as `~`, predicates as `!`.
        let bitwise = predicate || matches!(d.opcode, Opcode::Lop3 | Opcode::Plop3) || (d.attrs.x && matches!(d.opcode, Opcode::Iadd3 | Opcode::Imad | Opcode::ImadWide));
        let mods = if bitwise { SrcMods { not: neg, ..SrcMods::default() } } else { SrcMods { neg, abs, not: false } };
        Some(Arg { value, mods })
    }

    // ---- classes -------------------------------------------------------

    /// The class of an operand for an integer slot.
    pub fn class_int(&self, a: Arg) -> Class {
        if a.mods.abs {
            return Class::Reg;
        }
        if let Some((bits, ty)) = self.constant(a.value) {
            return match ty {
                _ if bits == 0 && !a.mods.not => Class::Zero,
                Type::R32 => Class::Imm,
                _ => Class::Reg,
            };
        }
        if self.param(a.value).is_some() { Class::Param } else { Class::Reg }
    }

    /// The class of an operand for an f32 slot.
    pub fn class_f32(&self, a: Arg) -> Class {
        if let Some((bits, ty)) = self.constant(a.value) {
            return match ty {
                _ if bits == 0 => Class::Zero,
                Type::R32 if float_printable(apply_float_mods(bits as u32, a.mods), false) => Class::Imm,
                _ => Class::Reg,
            };
        }
        if self.param(a.value).is_some() { Class::Param } else { Class::Reg }
    }

    /// The class of an operand for an f64 slot.
    pub fn class_f64(&self, a: Arg) -> Class {
        if let Some((bits, ty)) = self.constant(a.value) {
            return match ty {
                _ if bits == 0 => Class::Zero,
                Type::R64 if bits as u32 == 0 && float_printable(apply_float_mods((bits >> 32) as u32, a.mods), true) => Class::Imm,
                Type::R64 if self.pool.open() => Class::Pool,
                _ => Class::Reg,
            };
        }
        if self.param(a.value).is_some() { Class::Param } else { Class::Reg }
    }

    // ---- operands ------------------------------------------------------

    /// A register operand (RZ for a zero constant).
    pub fn src_reg(&mut self, a: Arg) -> Operand {
        if let Some((0, ty)) = self.constant(a.value) {
            if !ty.file().is_predicate() {
                return Operand::Reg { reg: Reg::zero(RegFile::Gpr), mods: a.mods, reuse: false };
            }
        }
        let reg = self.use_value(a.value);
        Operand::Reg { reg, mods: a.mods, reuse: false }
    }

    /// A predicate operand (PT or !PT for a constant).
    pub fn src_pred(&mut self, a: Arg) -> Operand {
        if let Some((bits, ty)) = self.constant(a.value) {
            if ty.file().is_predicate() {
                let not = (bits == 0) != a.mods.not;
                return Operand::Reg { reg: Reg::zero(RegFile::Pred), mods: SrcMods { not, ..SrcMods::default() }, reuse: false };
            }
        }
        let reg = self.use_value(a.value);
        Operand::Reg { reg, mods: SrcMods { not: a.mods.not || a.mods.neg, ..SrcMods::default() }, reuse: false }
    }

    /// An integer immediate (negation and bitwise not folded in).
    pub fn src_imm_int(&mut self, a: Arg) -> Operand {
        let bits = self.constant(a.value).map_or(0, |(b, _)| b as u32);
        let bits = if a.mods.neg { bits.wrapping_neg() } else { bits };
        Operand::Imm(if a.mods.not { !bits } else { bits })
    }

    /// An f32 immediate (sign modifiers folded in).
    pub fn src_imm_f32(&mut self, a: Arg) -> Operand {
        let bits = self.constant(a.value).map_or(0, |(b, _)| b as u32);
        Operand::Imm(apply_float_mods(bits, a.mods))
    }

    /// The high half of an f64 immediate whose low half is zero.
    pub fn src_imm_f64(&mut self, a: Arg) -> Operand {
        let bits = self.constant(a.value).map_or(0, |(b, _)| (b >> 32) as u32);
        Operand::Imm(apply_float_mods(bits, a.mods))
    }

    /// An f64 constant (sign modifiers folded in) as its entry in the
    /// kernel's constant pool.
    pub fn src_pool_f64(&mut self, a: Arg) -> Operand {
        let bits = self.constant(a.value).map_or(0, |(b, _)| b);
        let bits = if a.mods.abs { bits & !(1 << 63) } else { bits };
        self.pool.slot(if a.mods.neg { bits ^ 1 << 63 } else { bits })
    }

    /// A kernel parameter as a constant-bank operand.
    pub fn src_cbank(&mut self, a: Arg) -> Operand {
        match self.param(a.value) {
            Some((off, _)) => Operand::CBank { bank: 0, offset: off as u16, mods: a.mods },
            None => self.src_reg(a),
        }
    }
}

/// Applies `|x|` then `-x` to the bits of a float (or a double's high half).
pub fn apply_float_mods(bits: u32, mods: SrcMods) -> u32 {
    let bits = if mods.abs { bits & 0x7fff_ffff } else { bits };
    if mods.neg { bits ^ 0x8000_0000 } else { bits }
}

/// Whether a virtual register appears in an operand, and which.
pub fn operand_vregs(op: &Operand, out: &mut SmallVec<[VReg; 4]>) {
    let mut push = |r: &Reg| {
        if let RegNum::Virt(n) = r.num {
            out.push(VReg(n.get()));
        }
    };
    match op {
        Operand::Reg { reg, .. } => push(reg),
        Operand::ConstAddr { index, .. } => push(index),
        Operand::Mem(m) => {
            for r in m.regs() {
                push(&r);
            }
        }
        _ => {}
    }
}

/// Whether a value is a block parameter (for the driver's liveness).
pub fn is_param(func: &Function, v: Value) -> bool {
    matches!(func.values[v].def, ValueDef::Param(..))
}
