//! The selection program's extern terms, the glue between the ISLE rules
//! and Rust (Cranelift names its own `lower/isle.rs`): `impl Context for
//! SelectCtx`. The rules (`isle/select.isle`) make every choice: which
//! machine instruction, which modifiers, which operand goes in which slot,
//! which addressing form, which constant. The terms here only
//! * read the Ori instruction (opcode, arguments, attributes, immediates,
//!   value shapes, the target SM) and compute pure facts about it (whether
//!   an offset fits 24 bits, a PRMT selector, a vector's width); operand
//!   classes and machine operands are worked out by [`super::context`];
//! * make operands (registers, immediates, memory operands, the memory
//!   descriptor, fresh virtual registers);
//! * push what the rules chose: one machine instruction built from a
//!   [`Mnemonic`] (which the typed constructors `mn_<op>` make) and
//!   operands through [`crate::isa::inst::Inst::build`] (`emit_ops`, which
//!   the generated `mach_<op>` rules call, guarded as the Ori instruction;
//!   `emit_def`, a helper defining a fresh register), a pseudo-op register allocation expands
//!   (COPY, EXTRACT, CONCAT, SYMADDR), a branch, call or return with the
//!   values the calling convention places;
//! * record a refusal the rules name ([`Failure`]) with its message.
//!
//! The shapes of the SASS-layer Ori instructions the rules accept
//! (arguments beyond the first three are read through `inst_arg`):
//! * `IADD3 a, b, c [, cin0 [, cin1]]` → `d [, cout0 [, cout1]]`; `.X` with carry-ins;
//! * `IMAD a, b, c [, cin]` → `d [, cout]` (`.HI` with `mul = hi`); `IMAD.WIDE a, b, c64` → `d64`;
//!   `.U32` when the type is unsigned;
//! * `LOP3 a, b, c [, p]` (table in `imm`) → `d [, pout]`; `PLOP3 a, b, c` → `p [, q]`;
//! * `SHF lo, shift, hi` (`.l` for left, `mul = hi` for `.HI`, type u32/s32/u64/s64);
//! * `ISETP/FSETP/DSETP a, b [, c [, cin]]` (`cmp`, `combine`, `.x`) → `p`;
//! * `IMNMX/FMNMX a, b [, p]`: `p` true (or absent) is the minimum; without
//!   `p`, the `negated` attribute asks for the maximum;
//! * `SEL/FSEL a, b, p`; `MOV a`; `IABS a`; `MUFU a`; `PRMT a, sel, c` or
//!   `PRMT a, c` with the selector in `imm`; FADD/FMUL/DADD/DMUL `a, b`;
//!   FFMA/DFMA `a, b, c`; conversions `a` (`ty` destination, `src_ty` source);
//! * loads `addr` → N results (a vector load's elements), stores `addr, v…`;
//!   `LDC` of a kernel parameter has no address (the offset is the
//!   parameter's); `S2R`/`CS2R` read `sreg`; `BAR id`.
//!
//! Source modifiers are the `neg`/`abs` attribute masks.

use super::context::{Arg, Class, Failure, SelectCtx, Shape, operand_vregs};
use super::generated::{Context, Src, Unit};
use super::mach::{INDIRECT_CALLEE, MBlock, MachInst, MachKind, VReg};
use crate::ir::entity::EntityRef;
use crate::ir::matrix::{AsyncCopy, MatrixMove, Mma, MmaAcc, MmaBitOp, MmaElem, MmaShape};
use crate::ir::{BoolOp, Cmp, DataType, Inst, MufuFunc, MulMode, Opcode, Round, Space, Type};
use crate::isa::op::Mnemonic;
use crate::isa::operand::{Mem, Operand, Reg, RegFile, SrcMods};
use smallvec::SmallVec;

fn pt() -> Operand {
    Operand::reg(Reg::zero(RegFile::Pred))
}
fn not_pt() -> Operand {
    Operand::Reg { reg: Reg::zero(RegFile::Pred), mods: SrcMods { not: true, ..SrcMods::default() }, reuse: false }
}
fn rz() -> Operand {
    Operand::reg(Reg::zero(RegFile::Gpr))
}

fn unsigned(ty: Option<DataType>) -> bool {
    ty.is_some_and(|t| !t.is_signed() && !t.is_float())
}

/// The table of a three-input function with inputs `x` and `y` exchanged,
/// where input `k` contributes bit `k` of the row index (a = 2, b = 1, c = 0).
fn lut_swap(lut: u32, x: u32, y: u32) -> u32 {
    let mut out = 0;
    for row in 0..8u32 {
        let (bx, by) = ((row >> x) & 1, (row >> y) & 1);
        let src = (row & !(1 << x) & !(1 << y)) | (by << x) | (bx << y);
        out |= ((lut >> src) & 1) << row;
    }
    out
}

impl SelectCtx<'_> {
    /// The guard of the current instruction as an isa guard.
    fn guard(&mut self) -> Option<(Reg, bool)> {
        let g = self.data().guard?;
        let r = self.use_value(g.pred);
        Some((r, g.negated))
    }

    /// Result `k` of the current instruction as an operand, or `absent`.
    fn result(&self, k: usize, absent: Operand) -> Operand {
        match self.data().results.get(k) {
            Some(v) => Operand::reg(self.reg_of(self.vreg(*v))),
            None => absent,
        }
    }

    /// Builds `m` with `ops`, guarded as the current instruction, and
    /// records it with the current instruction's results as definitions.
    fn emit(&mut self, m: Mnemonic, ops: &[Operand]) {
        if self.error.is_some() {
            return;
        }
        let guard = self.guard();
        match m.build(self.sm, guard, ops) {
            Ok(inst) => self.push_main(MachKind::Inst(inst), &[]),
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Records the main instruction of the current Ori instruction: its
    /// definitions are the results, its uses the virtual registers of its
    /// operands and guard plus `extra`, and each kept (prior) value tied
    /// to its result.
    fn push_main(&mut self, kind: MachKind, extra: &[VReg]) {
        let defs: SmallVec<[VReg; 2]> = self.data().results.iter().map(|v| self.vreg(*v)).collect();
        let mut regs = SmallVec::<[VReg; 4]>::new();
        if let MachKind::Inst(i) | MachKind::Branch { inst: i, .. } | MachKind::Call { inst: i, .. } = &kind {
            for op in i.operands.iter() {
                operand_vregs(op, &mut regs);
            }
            operand_vregs(&Operand::reg(i.guard.0), &mut regs);
        }
        let mut uses: SmallVec<[VReg; 4]> = SmallVec::new();
        for r in regs.into_iter().chain(extra.iter().copied()) {
            if !defs.contains(&r) && !uses.contains(&r) {
                uses.push(r);
            }
        }
        let mut tied = SmallVec::new();
        let prior = self.data().prior.clone();
        for (k, p) in prior.iter().enumerate() {
            self.use_value(*p);
            let u = self.vreg(*p);
            let at = match uses.iter().position(|x| *x == u) {
                Some(at) => at,
                None => {
                    uses.push(u);
                    uses.len() - 1
                }
            };
            tied.push((k as u8, at as u8));
        }
        self.out.push(MachInst { kind, defs, uses, tied, loc: crate::ir::SrcLoc::default() });
    }

    /// Records a helper instruction (not the current instruction's result).
    fn push_helper(&mut self, m: Mnemonic, ops: &[Operand], defs: &[VReg]) {
        match m.build(self.sm, None, ops) {
            Ok(inst) => {
                let mut uses = SmallVec::new();
                for op in inst.operands.iter() {
                    operand_vregs(op, &mut uses);
                }
                uses.retain(|u| !defs.contains(u));
                self.out.push(MachInst { kind: MachKind::Inst(inst), defs: defs.iter().copied().collect(), uses, tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn pseudo(&mut self, kind: MachKind, defs: &[VReg], uses: &[VReg]) {
        self.out.push(MachInst { kind, defs: defs.iter().copied().collect(), uses: uses.iter().copied().collect(), tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
    }

    /// Records a call or return: the uses are the passed values in order,
    /// repeats kept (the calling convention places each one), then the
    /// guard's register when it is virtual.
    fn push_abi(&mut self, kind: MachKind, vals: VRegs) {
        let defs: SmallVec<[VReg; 2]> = self.data().results.iter().map(|v| self.vreg(*v)).collect();
        let mut uses: SmallVec<[VReg; 4]> = vals;
        if let MachKind::Inst(i) | MachKind::Call { inst: i, .. } = &kind {
            let mut guard = SmallVec::<[VReg; 4]>::new();
            operand_vregs(&Operand::reg(i.guard.0), &mut guard);
            uses.extend(guard);
        }
        let tied = if self.data().prior.is_empty() {
            SmallVec::new()
        } else {
            return self.fail("a guarded call with results is not supported");
        };
        self.out.push(MachInst { kind, defs, uses, tied, loc: crate::ir::SrcLoc::default() });
    }

    // ---- memory ----------------------------------------------------------

    /// The memory operand `[base+offset]` (with the descriptor or a uniform
    /// register); an error when the base is not a general register.
    fn mem_operand(&mut self, base: Operand, offset: i64, desc: Option<Reg>, uniform: Option<Reg>) -> Operand {
        let base = match base {
            Operand::Reg { reg, .. } => reg,
            _ => Reg::zero(RegFile::Gpr),
        };
        match Mem::from_parts(base, offset as i32, 0, desc, uniform) {
            Some(mem) => Operand::Mem(mem),
            None => {
                self.fail(format!("an address in {base}, not a general register"));
                rz()
            }
        }
    }

    /// The memory descriptor register (one per function).
    fn descriptor(&mut self) -> Reg {
        let v = match self.desc {
            Some(v) => v,
            None => {
                let v = self.fresh(Type::UR64);
                self.desc = Some(v);
                v
            }
        };
        self.reg_of(v)
    }
}

/// A machine instruction's operands in printed order (ISLE `Ops`).
pub type Ops = SmallVec<[Operand; 8]>;

/// A machine instruction's guard (ISLE `Guard`): the predicate register
/// and whether it is negated.
pub type Guard = Option<(Reg, bool)>;

/// Virtual registers (ISLE `VRegs`): the parts of a CONCAT, low first.
pub type VRegs = SmallVec<[VReg; 4]>;

impl Context for SelectCtx<'_> {
    // `mn_<op>`: the typed machine instructions' mnemonics.
    crate::isa::op::mach::mach_constructors!();
    fn unit(&mut self) -> Unit {}
    fn ops0(&mut self) -> Ops {
        Ops::new()
    }
    fn ops1(&mut self, a: Src) -> Ops {
        smallvec::smallvec![a]
    }
    fn ops2(&mut self, a: Src, b: Src) -> Ops {
        smallvec::smallvec![a, b]
    }
    fn ops3(&mut self, a: Src, b: Src, c: Src) -> Ops {
        smallvec::smallvec![a, b, c]
    }
    fn ops4(&mut self, a: Src, b: Src, c: Src, d: Src) -> Ops {
        smallvec::smallvec![a, b, c, d]
    }
    fn ops5(&mut self, a: Src, b: Src, c: Src, d: Src, e: Src) -> Ops {
        smallvec::smallvec![a, b, c, d, e]
    }
    fn emit_ops(&mut self, _: Inst, m: Mnemonic, ops: Ops) -> Unit {
        self.emit(m, &ops);
    }
    fn res_reg(&mut self, _: Inst, k: u8) -> Src {
        self.result(usize::from(k), rz())
    }
    fn res_pred(&mut self, _: Inst, k: u8) -> Src {
        self.result(usize::from(k), pt())
    }
    fn inst_relu(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.relu
    }
    fn inst_nan(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.nan
    }
    fn inst_xorsign(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.xorsign
    }
    fn inst_bf16(&mut self, i: Inst) -> bool {
        matches!(self.func.insts[i].attrs.ty, Some(DataType::Bf16 | DataType::Bf16x2))
    }
    fn src_rz(&mut self) -> Src {
        rz()
    }
    fn inst_imm_below(&mut self, i: Inst, bound: u32) -> Option<u32> {
        let imm = self.func.insts[i].imm;
        (imm < u64::from(bound)).then_some(imm as u32)
    }
    fn src_pt(&mut self) -> Src {
        pt()
    }
    fn pred_negated(&mut self, _: Inst, a: Arg) -> Src {
        let mut p = self.src_pred(a);
        if let (true, Operand::Reg { mods, .. }) = (self.data().attrs.negated, &mut p) {
            mods.not = !mods.not;
        }
        p
    }
    fn arg_const(&mut self, a: Arg) -> Option<u32> {
        let (bits, ty) = self.constant(a.value)?;
        (ty == Type::R32).then_some(bits as u32)
    }
    fn const_below(&mut self, a: Arg, bound: u32) -> Option<u32> {
        self.arg_const(a).filter(|&c| c < bound)
    }
    fn src_urz(&mut self) -> Src {
        Operand::reg(Reg::zero(RegFile::Uniform))
    }
    /// A shared address that is one uniform register (`[UR8]`: SYNCS.EXCH,
    /// UBLKCP), a pair where the form reads two.
    fn uniform_addr(&mut self, a: Arg) -> Src {
        match SelectCtx::src_reg(self, a) {
            Operand::Reg { reg, .. } if reg.file == RegFile::Uniform => match Mem::from_parts(Reg::zero(RegFile::Gpr), 0, 0, None, Some(reg)) {
                Some(m) => Operand::Mem(m),
                None => {
                    self.fail("a uniform address");
                    rz()
                }
            },
            other => {
                self.fail(format!("a uniform address in {other:?}, not a uniform register"));
                rz()
            }
        }
    }
    fn src_hex(&mut self, v: u32) -> Src {
        Operand::Hex(v)
    }
    fn inst_warp(&mut self, i: Inst) -> crate::ir::WarpMode {
        self.func.insts[i].attrs.warp.unwrap_or(crate::ir::WarpMode::Idx)
    }
    fn inst_red(&mut self, i: Inst) -> crate::ir::RedOp {
        self.func.insts[i].attrs.red.unwrap_or(crate::ir::RedOp::Add)
    }
    fn inst_scope(&mut self, i: Inst) -> crate::ir::MemScope {
        self.func.insts[i].attrs.scope.unwrap_or(crate::ir::MemScope::Gpu)
    }
    fn inst_space_of(&mut self, i: Inst) -> Space {
        self.func.insts[i].attrs.space.unwrap_or(Space::Generic)
    }
    fn inst_ty(&mut self, i: Inst) -> DataType {
        self.func.insts[i].attrs.ty.unwrap_or(DataType::B32)
    }
    fn inst_src_ty(&mut self, i: Inst) -> DataType {
        self.func.insts[i].attrs.src_ty.unwrap_or(DataType::B32)
    }
    fn inst_sc(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].attrs.order == Some(crate::ir::MemOrder::Sc)).then_some(())
    }
    fn sm_at_least(&mut self, n: u32) -> Option<Unit> {
        (u32::from(self.sm.number) >= n).then_some(())
    }
    fn sm_below(&mut self, n: u32) -> Option<Unit> {
        (u32::from(self.sm.number) < n).then_some(())
    }
    fn sm_is(&mut self, n: u32) -> Option<Unit> {
        (crate::isa::family::measured_sm(self.sm).map(u32::from) == Some(n)).then_some(())
    }
    fn inst_opcode(&mut self, i: Inst) -> Opcode {
        self.func.insts[i].opcode
    }
    fn inst_args1(&mut self, i: Inst) -> Option<Arg> {
        (i == self.cur).then_some(())?;
        self.arg(0)
    }
    fn inst_args2(&mut self, i: Inst) -> Option<(Arg, Arg)> {
        (i == self.cur).then_some(())?;
        Some((self.arg(0)?, self.arg(1)?))
    }
    fn inst_args3(&mut self, i: Inst) -> Option<(Arg, Arg, Arg)> {
        (i == self.cur).then_some(())?;
        Some((self.arg(0)?, self.arg(1)?, self.arg(2)?))
    }
    fn inst_lut(&mut self, i: Inst) -> u32 {
        (self.func.insts[i].imm & 0xff) as u32
    }
    fn inst_imm32(&mut self, i: Inst) -> u32 {
        self.func.insts[i].imm as u32
    }
    fn imad_c_imm(&mut self, i: Inst) -> Option<Unit> {
        let d = &self.func.insts[i];
        (d.opcode == Opcode::Imad && d.attrs.mul != Some(MulMode::Hi)).then_some(())
    }
    fn param_load(&mut self, i: Inst) -> Option<Unit> {
        let r = *self.func.insts[i].results.first()?;
        self.param(r).map(|_| ())
    }
    fn result_r32(&mut self, i: Inst) -> Option<Unit> {
        let r = *self.func.insts[i].results.first()?;
        (self.func.value_type(r) == Type::R32).then_some(())
    }
    fn prmt_imm_selector(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].args.len() == 2).then_some(())
    }
    fn class_int(&mut self, a: Arg) -> Class {
        SelectCtx::class_int(self, a)
    }
    fn arg_abs(&mut self, a: Arg) -> Option<Unit> {
        a.mods.abs.then_some(())
    }
    fn class_f32(&mut self, a: Arg) -> Class {
        SelectCtx::class_f32(self, a)
    }
    fn class_f64(&mut self, a: Arg) -> Class {
        SelectCtx::class_f64(self, a)
    }
    fn src_reg(&mut self, a: Arg) -> Src {
        SelectCtx::src_reg(self, a)
    }
    fn src_pred(&mut self, a: Arg) -> Src {
        SelectCtx::src_pred(self, a)
    }
    fn src_imm_int(&mut self, a: Arg) -> Src {
        SelectCtx::src_imm_int(self, a)
    }
    fn src_imm_f32(&mut self, a: Arg) -> Src {
        SelectCtx::src_imm_f32(self, a)
    }
    fn src_imm_f64(&mut self, a: Arg) -> Src {
        SelectCtx::src_imm_f64(self, a)
    }
    fn src_imm_u32(&mut self, v: u32) -> Src {
        Operand::Imm(v)
    }
    fn src_cbank(&mut self, a: Arg) -> Src {
        SelectCtx::src_cbank(self, a)
    }
    fn src_pool_f64(&mut self, a: Arg) -> Src {
        SelectCtx::src_pool_f64(self, a)
    }
    fn arg_param_offset(&mut self, a: Arg) -> Option<u32> {
        self.param(a.value).map(|(off, _)| off)
    }
    fn uniform_of(&mut self, shape: &Shape) -> Shape {
        Shape::of(shape.ty().with_uniformity(true))
    }
    fn const_addr_urz(&mut self, off: u32) -> Src {
        Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Uniform), offset: off as i32 }
    }
    fn cbank0(&mut self, off: u32) -> Src {
        Operand::CBank { bank: 0, offset: off as u16, mods: SrcMods::default() }
    }
    fn with_mods(&mut self, s: Src, a: Arg) -> Src {
        match s {
            Operand::Reg { reg, reuse, .. } => Operand::Reg { reg, mods: a.mods, reuse },
            other => other,
        }
    }
    fn lut_swap_ab(&mut self, lut: u32) -> u32 {
        lut_swap(lut, 2, 1)
    }
    fn lut_swap_bc(&mut self, lut: u32) -> u32 {
        lut_swap(lut, 1, 0)
    }
    fn uses_descriptor(&mut self, o: &Opcode) -> Option<Unit> {
        matches!(*o, Opcode::Ldg | Opcode::Stg | Opcode::Ldgen | Opcode::Stgen).then_some(())
    }
    fn memory_access(&mut self, o: &Opcode) -> Option<Unit> {
        matches!(*o, Opcode::Ldg | Opcode::Stg | Opcode::Ldgen | Opcode::Stgen | Opcode::Lds | Opcode::Sts | Opcode::Ldl | Opcode::Stl).then_some(())
    }

    fn inst_unsigned(&mut self, i: Inst) -> bool {
        unsigned(self.func.insts[i].attrs.ty)
    }
    fn inst_shiftamt(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.shiftamt
    }
    fn inst_ftz(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.ftz
    }
    fn inst_sat(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.sat
    }
    fn inst_wrap(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.wrap
    }
    // ---- context glue: values, virtual registers, pseudo-ops ----------

    fn result_shape(&mut self, i: Inst, k: u8) -> Shape {
        self.func.insts[i].results.get(usize::from(k)).map_or(Shape::None, |r| Shape::of(self.func.value_type(*r)))
    }
    fn arg_shape(&mut self, a: Arg) -> Shape {
        Shape::of(self.func.value_type(a.value))
    }
    fn vregs0(&mut self) -> VRegs {
        VRegs::new()
    }
    fn vregs2(&mut self, a: VReg, b: VReg) -> VRegs {
        smallvec::smallvec![a, b]
    }
    fn vregs3(&mut self, a: VReg, b: VReg, c: VReg) -> VRegs {
        smallvec::smallvec![a, b, c]
    }
    fn vregs4(&mut self, a: VReg, b: VReg, c: VReg, d: VReg) -> VRegs {
        smallvec::smallvec![a, b, c, d]
    }
    fn fresh(&mut self, shape: &Shape) -> VReg {
        SelectCtx::fresh(self, shape.ty())
    }
    fn fresh_upred(&mut self) -> VReg {
        SelectCtx::fresh(self, Type::UP)
    }
    fn result_vreg(&mut self, i: Inst, k: u8) -> Option<VReg> {
        self.func.insts[i].results.get(usize::from(k)).map(|r| self.vreg(*r))
    }
    fn arg_vreg(&mut self, a: Arg) -> VReg {
        self.use_value(a.value);
        self.vreg(a.value)
    }
    fn vreg_src(&mut self, v: VReg) -> Src {
        Operand::reg(self.reg_of(v))
    }
    fn value_reg(&mut self, a: Arg) -> Src {
        Operand::reg(self.use_value(a.value))
    }
    fn emit_def(&mut self, d: VReg, m: Mnemonic, ops: Ops) -> Unit {
        self.push_helper(m, &ops, &[d]);
    }
    fn push_copy(&mut self, d: VReg, s: VReg) -> Unit {
        self.pseudo(MachKind::Copy, &[d], &[s]);
    }
    fn push_extract(&mut self, d: VReg, s: VReg, part: u8) -> Unit {
        self.pseudo(MachKind::Extract { part }, &[d], &[s]);
    }
    fn push_concat(&mut self, d: VReg, parts: VRegs) -> Unit {
        self.pseudo(MachKind::Concat, &[d], &parts);
    }
    fn push_symaddr(&mut self, d: VReg, global: u32, offset: i32, function: bool) -> Unit {
        self.pseudo(MachKind::SymAddr { global, offset, function }, &[d], &[]);
    }
    fn guarded(&mut self, i: Inst) -> Option<Unit> {
        self.func.insts[i].guard.map(|_| ())
    }
    fn fail(&mut self, _: Inst, why: &Failure) -> Unit {
        let message = self.failure_message(*why);
        SelectCtx::fail(self, message);
    }
    // ---- context glue: facts of the Ori instruction ----------------------

    fn inst_nargs(&mut self, i: Inst) -> u8 {
        self.func.insts[i].args.len().min(255) as u8
    }
    fn multi_result(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].results.len() > 1).then_some(())
    }
    fn imm_word(&mut self, i: Inst, k: u8) -> u32 {
        let bits = self.func.insts[i].imm;
        if k < 2 { (bits >> (32 * u32::from(k))) as u32 } else { 0 }
    }
    fn imm_zero(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].imm == 0).then_some(())
    }
    fn imm_u8(&mut self, i: Inst) -> Option<u8> {
        u8::try_from(self.func.insts[i].imm).ok()
    }
    fn inst_offset(&mut self, i: Inst) -> i32 {
        self.func.insts[i].offset
    }
    fn inst_offset_u32(&mut self, i: Inst) -> u32 {
        self.func.insts[i].offset as u32
    }
    fn inst_local(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].attrs.space == Some(Space::Local)).then_some(())
    }
    fn const_bits_below(&mut self, a: Arg, bound: u32) -> Option<u32> {
        let (bits, _) = self.constant(a.value)?;
        (bits < u64::from(bound)).then_some(bits as u32)
    }
    fn arg_zero(&mut self, a: Arg) -> Option<Unit> {
        matches!(self.constant(a.value), Some((0, _))).then_some(())
    }
    fn inst_args4(&mut self, i: Inst) -> Option<(Arg, Arg, Arg, Arg)> {
        (i == self.cur).then_some(())?;
        Some((self.arg(0)?, self.arg(1)?, self.arg(2)?, self.arg(3)?))
    }
    fn ldc_vector_bits(&mut self, i: Inst) -> u32 {
        let d = &self.func.insts[i];
        match d.attrs.ty.filter(|t| t.bits() < 32) {
            Some(t) => t.bits() * d.results.len() as u32,
            None => 32 * d.results.iter().map(|&r| u32::from(self.func.value_type(r).regs())).sum::<u32>(),
        }
    }

    // ---- context glue: memory --------------------------------------------

    fn inst_arg(&mut self, i: Inst, k: u8) -> Option<Arg> {
        (i == self.cur).then_some(())?;
        self.arg(usize::from(k))
    }
    fn ldgsts_shared_offset(&mut self, i: Inst) -> i64 {
        i64::from(crate::ir::matrix::AsyncCopy::decode(self.func.insts[i].imm).map_or(0, |c| c.shared_offset))
    }
    fn inst_offset64(&mut self, i: Inst) -> i64 {
        i64::from(self.func.insts[i].offset)
    }
    fn i64_add(&mut self, a: i64, b: i64) -> i64 {
        a.wrapping_add(b)
    }
    fn i64_low(&mut self, a: i64) -> u32 {
        a as u32
    }
    fn u8_inc(&mut self, a: u8) -> u8 {
        a.wrapping_add(1)
    }
    fn frame_slot(&mut self, a: Arg) -> Option<i64> {
        let sym = &self.func.insts[self.func.value_inst(a.value)?];
        (sym.opcode == Opcode::SymAddr && sym.attrs.space == Some(Space::Local) && sym.guard.is_none()).then_some(i64::from(sym.offset))
    }
    fn const_i64(&mut self, a: Arg) -> Option<i64> {
        self.constant(a.value).map(|(c, _)| c as i64)
    }
    fn offset_fits24(&mut self, offset: i64) -> Option<Unit> {
        (-(1 << 23)..1 << 23).contains(&offset).then_some(())
    }
    fn fail_offset(&mut self, offset: i64) -> Unit {
        SelectCtx::fail(self, format!("address offset {offset:#x} does not fit a 64-bit address's 24-bit field"));
    }
    fn src_descriptor(&mut self) -> Src {
        Operand::reg(self.descriptor())
    }
    fn mem_src(&mut self, base: Src, offset: i64, desc: Src) -> Src {
        let desc = match desc {
            Operand::Reg { reg, .. } => reg,
            _ => Reg::zero(RegFile::Uniform),
        };
        self.mem_operand(base, offset, Some(desc), None)
    }
    fn mem_src_plain(&mut self, base: Src, offset: i64) -> Src {
        self.mem_operand(base, offset, None, None)
    }
    fn mem_src_urz(&mut self, base: Src, offset: i64) -> Src {
        let plain = self.mem_operand(base, offset, None, None);
        match plain {
            Operand::Mem(m) => match Mem::from_parts(m.base(), m.offset(), 0, None, Some(Reg::zero(RegFile::Uniform))) {
                Some(m) => Operand::Mem(m),
                None => {
                    SelectCtx::fail(self, "an address with a uniform register");
                    rz()
                }
            },
            other => other,
        }
    }
    fn access_bits(&mut self, i: Inst) -> Option<u32> {
        let d = &self.func.insts[i];
        Some(d.attrs.ty?.bits() * u32::from(d.attrs.vector.max(1)))
    }
    fn access_signed_scalar(&mut self, i: Inst) -> Option<Unit> {
        let d = &self.func.insts[i];
        (d.attrs.ty?.is_signed() && d.attrs.vector <= 1).then_some(())
    }
    fn access_shape(&mut self, i: Inst) -> Shape {
        match self.access_bits(i) {
            Some(bits) => Shape::of(Type::new(crate::ir::RegFile::R, (bits.max(32) / 32) as u8).unwrap_or(Type::R32)),
            None => Shape::None,
        }
    }
    fn subword_elem(&mut self, i: Inst) -> Option<DataType> {
        self.func.insts[i].attrs.ty.filter(|t| t.bits() < 32)
    }
    fn inst_ordered_scope(&mut self, i: Inst) -> Option<crate::ir::MemScope> {
        let a = &self.func.insts[i].attrs;
        a.order.and(a.scope)
    }
    fn inst_volatile(&mut self, i: Inst) -> Option<Unit> {
        self.func.insts[i].attrs.volatile.then_some(())
    }
    fn inst_stores(&mut self, i: Inst) -> Option<Unit> {
        matches!(self.func.insts[i].opcode, Opcode::Stg | Opcode::Stgen | Opcode::Sts | Opcode::Stl).then_some(())
    }
    fn one_whole_result(&mut self, i: Inst) -> Option<Unit> {
        let wide = self.access_shape(i);
        let d = &self.func.insts[i];
        (d.results.len() == 1 && Shape::of(self.func.value_type(d.results[0])) == wide).then_some(())
    }
    fn subword_word(&mut self, e: &DataType, k: u8) -> u8 {
        (u32::from(k) * (e.bits() / 8) / 4) as u8
    }
    fn subword_extract_selector(&mut self, e: &DataType, k: u8) -> u32 {
        let bytes = e.bits() / 8;
        let byte = u32::from(k) * bytes % 4;
        let top = byte + bytes - 1;
        let fill = if e.is_signed() { 8 + top } else { 7 };
        let mut selector = 0u32;
        for i in 0..4 {
            let nibble = if i < bytes { byte + i } else { fill };
            selector |= nibble << (4 * i);
        }
        selector
    }
    fn subword_vector(&mut self, i: Inst) -> Option<DataType> {
        let d = &self.func.insts[i];
        d.attrs.ty.filter(|e| e.bits() < 32 && d.attrs.vector > 1)
    }
    fn elems_per_word(&mut self, e: &DataType) -> u8 {
        (32 / e.bits().max(8)) as u8
    }
    fn pack_selector(&mut self, e: &DataType, j: u8) -> Option<u32> {
        let bytes = e.bits() / 8;
        let first = u32::from(j) * bytes;
        if first >= 4 {
            return None;
        }
        let mut selector = 0u32;
        for i in 0..4 {
            let nibble = if i >= first && i < first + bytes { 4 + (i - first) } else { i };
            selector |= nibble << (4 * i);
        }
        Some(selector)
    }
    fn u8_add(&mut self, a: u8, b: u8) -> u8 {
        a.wrapping_add(b)
    }
    fn shape_is(&mut self, a: &Shape, b: &Shape) -> Option<Unit> {
        (a == b).then_some(())
    }

    // ---- context glue: control flow and calls ----------------------------

    fn unguarded(&mut self) -> Guard {
        None
    }
    fn branch_guard(&mut self, i: Inst, c: Arg) -> Guard {
        let r = self.use_value(c.value);
        Some((r, self.func.insts[i].attrs.negated))
    }
    fn dest_block(&mut self, i: Inst, k: u8) -> Option<MBlock> {
        let dest = self.func.insts[i].dests.get(usize::from(k))?;
        Some(MBlock(self.block_index.get(dest.block.index()).copied().unwrap_or(0)))
    }
    fn dest_args(&mut self, i: Inst, k: u8) -> VRegs {
        let Some(dest) = self.func.insts[i].dests.get(usize::from(k)) else { return VRegs::new() };
        dest.args
            .iter()
            .map(|&a| {
                self.use_value(a);
                self.vreg(a)
            })
            .collect()
    }
    fn arg_vregs(&mut self, i: Inst, from: u8) -> VRegs {
        let args = &self.func.insts[i].args;
        args.iter()
            .skip(usize::from(from))
            .map(|&a| {
                self.use_value(a);
                self.vreg(a)
            })
            .collect()
    }
    fn vregs_push(&mut self, vs: VRegs, v: VReg) -> VRegs {
        let mut vs = vs;
        vs.push(v);
        vs
    }
    fn src_gpr(&mut self, n: u8) -> Src {
        Operand::reg(Reg::gpr(n))
    }
    fn src_target(&mut self) -> Src {
        Operand::Target(0)
    }
    fn indirect_callee(&mut self) -> u32 {
        INDIRECT_CALLEE
    }
    fn push_branch(&mut self, m: Mnemonic, guard: Guard, target: MBlock, args: VRegs) -> Unit {
        match m.build(self.sm, guard, &[Operand::Target(0)]) {
            Ok(inst) => {
                let mut uses = SmallVec::<[VReg; 4]>::new();
                operand_vregs(&Operand::reg(inst.guard.0), &mut uses);
                uses.extend(args.iter().copied());
                self.out.push(MachInst { kind: MachKind::Branch { inst, target }, defs: SmallVec::new(), uses, tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
            }
            Err(e) => SelectCtx::fail(self, e.to_string()),
        }
    }
    fn push_return(&mut self, m: Mnemonic, ops: Ops, vals: VRegs) -> Unit {
        match m.build(self.sm, None, &ops) {
            Ok(inst) => self.push_abi(MachKind::Inst(inst), vals),
            Err(e) => SelectCtx::fail(self, e.to_string()),
        }
    }
    fn push_call(&mut self, _: Inst, m: Mnemonic, ops: Ops, callee: u32, vals: VRegs) -> Unit {
        let guard = self.guard();
        match m.build(self.sm, guard, &ops) {
            Ok(inst) => self.push_abi(MachKind::Call { inst, callee, external: false }, vals),
            Err(e) => SelectCtx::fail(self, e.to_string()),
        }
    }

    fn guarded_vector_load(&mut self, i: Inst, m: Mnemonic, addr: Src, t: VReg) -> Unit {
        if self.subword_elem(i).is_some() && self.func.insts[i].attrs.vector > 1 {
            let message = self.failure_message(Failure::GuardedSubwordLoad);
            return SelectCtx::fail(self, message);
        }
        let d = &self.func.insts[i];
        let prior = d.prior.clone();
        if prior.len() != d.results.len() {
            return SelectCtx::fail(self, "a guarded vector load without the prior value of each element");
        }
        let wide = self.access_shape(i).ty();
        let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
        for &p in prior.iter() {
            self.use_value(p);
            let ty = self.func.value_type(p);
            for k in 0..ty.regs() {
                if ty.regs() == 1 {
                    parts.push(self.vreg(p));
                } else {
                    let part = SelectCtx::fresh(self, Type::R32);
                    self.pseudo(MachKind::Extract { part: k }, &[part], &[self.vreg(p)]);
                    parts.push(part);
                }
            }
        }
        let kept = SelectCtx::fresh(self, wide);
        self.pseudo(MachKind::Concat, &[kept], &parts);
        let guard = self.guard();
        match m.build(self.sm, guard, &[Operand::reg(self.reg_of(t)), addr]) {
            Ok(inst) => {
                let mut uses: SmallVec<[VReg; 4]> = SmallVec::new();
                for op in inst.operands.iter() {
                    operand_vregs(op, &mut uses);
                }
                operand_vregs(&Operand::reg(inst.guard.0), &mut uses);
                uses.retain(|u| *u != t);
                uses.push(kept);
                let tied = smallvec::smallvec![(0u8, (uses.len() - 1) as u8)];
                self.out.push(MachInst { kind: MachKind::Inst(inst), defs: smallvec::smallvec![t], uses, tied, loc: crate::ir::SrcLoc::default() });
            }
            Err(e) => SelectCtx::fail(self, e.to_string()),
        }
    }

    // ---- context glue: attributes and operands of arithmetic ------------

    fn inst_x(&mut self, i: Inst) -> Option<Unit> {
        self.func.insts[i].attrs.x.then_some(())
    }
    fn inst_x_flag(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.x
    }
    fn inst_negated(&mut self, i: Inst) -> Option<Unit> {
        self.func.insts[i].attrs.negated.then_some(())
    }
    fn inst_negated_flag(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.negated
    }
    fn inst_left(&mut self, i: Inst) -> Option<Unit> {
        self.func.insts[i].attrs.left.then_some(())
    }
    fn inst_mul_hi(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.mul == Some(MulMode::Hi)
    }
    fn inst_mul(&mut self, i: Inst) -> Option<MulMode> {
        self.func.insts[i].attrs.mul
    }
    fn inst_cmp(&mut self, i: Inst) -> Option<Cmp> {
        self.func.insts[i].attrs.cmp
    }
    fn inst_minmax(&mut self, i: Inst) -> Option<crate::ir::RedOp> {
        let a = &self.func.insts[i].attrs;
        a.red.filter(|r| a.cmp.is_none() && matches!(r, crate::ir::RedOp::Min | crate::ir::RedOp::Max))
    }
    fn inst_cmp_or_eq(&mut self, i: Inst) -> Cmp {
        self.func.insts[i].attrs.cmp.unwrap_or(Cmp::Eq)
    }
    fn inst_combine(&mut self, i: Inst) -> BoolOp {
        self.func.insts[i].attrs.combine.unwrap_or(BoolOp::And)
    }
    fn inst_round(&mut self, i: Inst) -> Option<Round> {
        self.func.insts[i].attrs.round
    }
    fn inst_mufu(&mut self, i: Inst) -> Option<MufuFunc> {
        self.func.insts[i].attrs.mufu
    }
    fn inst_ty_some(&mut self, i: Inst) -> Option<DataType> {
        self.func.insts[i].attrs.ty
    }
    fn inst_src_ty_some(&mut self, i: Inst) -> Option<DataType> {
        self.func.insts[i].attrs.src_ty
    }
    fn imm_fits_u32(&mut self, i: Inst) -> bool {
        u32::try_from(self.func.insts[i].imm).is_ok()
    }
    fn ty_bits(&mut self, t: &DataType) -> u32 {
        t.bits()
    }
    fn ty_at_most_32(&mut self, t: &DataType) -> bool {
        t.bits() <= 32
    }
    fn src_not_pt(&mut self) -> Src {
        not_pt()
    }
    fn negate_if(&mut self, p: Src, on: bool) -> Src {
        let mut p = p;
        if let (true, Operand::Reg { mods, .. }) = (on, &mut p) {
            mods.not = !mods.not;
        }
        p
    }
    fn src_vreg(&mut self, s: Src) -> Option<VReg> {
        match s {
            Operand::Reg { reg: Reg { num: crate::isa::operand::RegNum::Virt(n), .. }, .. } => Some(VReg(n.get())),
            _ => None,
        }
    }
    fn ops8(&mut self, a: Src, b: Src, c: Src, d: Src, e: Src, f: Src, g: Src, h: Src) -> Ops {
        smallvec::smallvec![a, b, c, d, e, f, g, h]
    }

    // ---- context glue: tensor-core and asynchronous-copy descriptors ----

    fn mma_decodes(&mut self, i: Inst) -> Option<Unit> {
        self.mma(i).map(|_| ())
    }
    fn mma_shape(&mut self, i: Inst) -> MmaShape {
        self.mma(i).map_or(MmaShape::M16N8K16, |m| m.shape)
    }
    fn mma_a(&mut self, i: Inst) -> MmaElem {
        self.mma(i).map_or(MmaElem::F16, |m| m.a)
    }
    fn mma_b(&mut self, i: Inst) -> MmaElem {
        self.mma(i).map_or(MmaElem::F16, |m| m.b)
    }
    fn mma_acc(&mut self, i: Inst) -> MmaAcc {
        self.mma(i).map_or(MmaAcc::F32, |m| m.acc)
    }
    fn mma_sat(&mut self, i: Inst) -> bool {
        self.mma(i).is_some_and(|m| m.sat)
    }
    fn mma_bitop(&mut self, i: Inst) -> Option<MmaBitOp> {
        self.mma(i)?.bitop
    }
    fn matrix_move_count(&mut self, i: Inst) -> Option<u8> {
        MatrixMove::decode(self.func.insts[i].imm).map(|m| m.count)
    }
    fn matrix_move_trans(&mut self, i: Inst) -> bool {
        MatrixMove::decode(self.func.insts[i].imm).is_some_and(|m| m.trans)
    }
    fn async_copy_size(&mut self, i: Inst) -> Option<u8> {
        self.async_copy(i).map(|c| c.size)
    }
    fn async_copy_prefetch(&mut self, i: Inst) -> u16 {
        self.async_copy(i).map_or(0, |c| c.prefetch)
    }
    fn async_copy_bypass(&mut self, i: Inst) -> bool {
        self.async_copy(i).is_some_and(|c| c.bypass)
    }
    fn async_copy_zfill(&mut self, i: Inst) -> bool {
        self.async_copy(i).is_some_and(|c| c.zfill)
    }

    // ---- context glue: operands ------------------------------------------

    fn src_sp(&mut self) -> Src {
        Operand::reg(Reg::gpr(1))
    }
    fn sreg_src(&mut self, i: Inst) -> Src {
        let imm = self.func.insts[i].imm;
        match u8::try_from(imm) {
            Ok(n) => Operand::SpecialReg(n),
            Err(_) => {
                SelectCtx::fail(self, format!("special register number {imm} out of range"));
                rz()
            }
        }
    }
    fn ldc_addr(&mut self, i: Inst) -> Src {
        let d = &self.func.insts[i];
        let Ok(bank) = u8::try_from(d.imm) else {
            SelectCtx::fail(self, "constant bank number out of range");
            return rz();
        };
        let index = match d.args.first() {
            Some(&a) if self.func.value_type(a) == Type::R32 => self.use_value(a),
            Some(_) => {
                SelectCtx::fail(self, "LDC takes a 32-bit index");
                return rz();
            }
            None => Reg::zero(RegFile::Gpr),
        };
        Operand::ConstAddr { bank, index, offset: d.offset }
    }
    fn param_cbank(&mut self, i: Inst) -> Src {
        match self.func.insts[i].results.first().and_then(|r| self.param(*r)) {
            Some((off, _)) => Operand::CBank { bank: 0, offset: off as u16, mods: SrcMods::default() },
            None => {
                SelectCtx::fail(self, "not a kernel parameter");
                rz()
            }
        }
    }
    fn ops6(&mut self, a: Src, b: Src, c: Src, d: Src, e: Src, f: Src) -> Ops {
        smallvec::smallvec![a, b, c, d, e, f]
    }
    fn ops7(&mut self, a: Src, b: Src, c: Src, d: Src, e: Src, f: Src, g: Src) -> Ops {
        smallvec::smallvec![a, b, c, d, e, f, g]
    }

    fn no_selection(&mut self, _: Inst) -> Unit {
        let op = self.data().opcode;
        SelectCtx::fail(self, format!("no selection rule for {op} with these operands"));
    }
    fn emit_tex(&mut self, _: Inst) -> Unit {
        self.select_tex()
    }
    fn emit_surface(&mut self, _: Inst) -> Unit {
        self.select_surface()
    }
    fn emit_header_query(&mut self, _: Inst) -> Unit {
        self.select_header_query()
    }
    fn emit_uniform_pick(&mut self, _: Inst) -> Unit {
        self.select_uniform_pick()
    }
}

impl SelectCtx<'_> {
    /// The `mma` descriptor of an instruction's immediate.
    fn mma(&self, i: Inst) -> Option<Mma> {
        Mma::decode(self.func.insts[i].imm)
    }

    /// The `cp.async` descriptor of an instruction's immediate.
    fn async_copy(&self, i: Inst) -> Option<AsyncCopy> {
        AsyncCopy::decode(self.func.insts[i].imm)
    }

    /// The message of a failure the rules chose, with the current
    /// instruction's details.
    fn failure_message(&self, why: Failure) -> String {
        let d = self.data();
        match why {
            Failure::GuardedPseudo => format!("guarded {} is not selected (guard the machine instructions instead)", d.opcode),
            Failure::BarForm => "BAR with a register barrier or a thread count has no form yet".into(),
            Failure::NoAddress => "memory access without address".into(),
            Failure::NoElementType => format!("{} without an element type", d.opcode),
            Failure::AccessSize => {
                let n = u32::from(d.attrs.vector.max(1));
                format!("no {}-bit access", d.attrs.ty.map_or(0, |e| e.bits()) * n)
            }
            Failure::GuardedSubwordLoad => "a guarded vector load of 8- or 16-bit elements is not supported".into(),
            Failure::NoComparison => format!("{} without comparison", d.opcode),
            Failure::IsetpCmp => format!("ISETP has no {:?}", d.attrs.cmp.unwrap_or(Cmp::Eq)),
            Failure::MufuFunction => "MUFU without function".into(),
            Failure::I2iForm => "a saturating integer conversion (I2I) has no form yet".into(),
            Failure::PrmtMode => format!("PRMT mode {} does not exist", d.imm),
            Failure::IdpTypes => "IDP needs the types of a and b".into(),
            Failure::ConversionTypes => format!("{} needs destination and source types", d.opcode),
            Failure::AtomForm => format!("{} has no form for {:?} of {:?}", d.opcode, d.attrs.red, d.attrs.ty),
            Failure::ConversionForm => format!("{} has no form converting {:?} to {:?} with rounding {:?}", d.opcode, d.attrs.src_ty, d.attrs.ty, d.attrs.round),
            Failure::NoImma => format!("no IMMA for {:?}", self.mma(self.cur)),
            Failure::NoMma => format!("no machine instruction for {:?}", self.mma(self.cur)),
            Failure::MmaDescriptor => format!("an mma descriptor {:#x}", d.imm),
            Failure::LdmatrixDescriptor => format!("an ldmatrix descriptor {:#x}", d.imm),
            Failure::StmatrixDescriptor => format!("a stmatrix descriptor {:#x}", d.imm),
            Failure::AsyncCopyDescriptor => format!("a cp.async descriptor {:#x}", d.imm),
            Failure::LdcVectorSize => {
                let bits = match d.attrs.ty.filter(|t| t.bits() < 32) {
                    Some(t) => t.bits() * d.results.len() as u32,
                    None => 32 * d.results.iter().map(|&r| u32::from(self.func.value_type(r).regs())).sum::<u32>(),
                };
                format!("no {bits}-bit constant-bank load")
            }
        }
    }
}

mod texture;

#[cfg(test)]
mod tests {
    use super::lut_swap;

    #[test]
    fn lut_permutations_compute_the_same_function() {
        // a & ~b: 0xf0 & ~0xcc = 0x30; with a and b exchanged, b & ~a = 0xcc & ~0xf0 = 0x0c.
        assert_eq!(lut_swap(0x30, 2, 1), 0x0c);
        // a ^ c = 0x5a; exchanging b and c gives a ^ b = 0x3c.
        assert_eq!(lut_swap(0x5a, 1, 0), 0x3c);
        // Symmetric functions do not change.
        assert_eq!(lut_swap(0x96, 2, 1), 0x96);
        assert_eq!(lut_swap(0xe8, 1, 0), 0xe8);
    }
}
