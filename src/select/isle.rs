//! The selection program's extern terms, the glue between the ISLE rules
//! and Rust (Cranelift names its own `lower/isle.rs`): `impl Context for
//! SelectCtx`. Two kinds of terms:
//! * readers of the Ori instruction the rules match on (opcode, arguments,
//!   immediates, the target SM; operand classes and machine operands are
//!   worked out by [`super::context`]);
//! * emitters, which spell a machine opcode from the instruction's
//!   attributes and build the `isa::Inst` (through
//!   [`crate::isa::inst::Inst::build`]) with the operands the rules chose,
//!   including the instructions that need no choice (constants, copies,
//!   pair plumbing, memory, calls, terminators).
//!
//! The shapes of the SASS-layer Ori instructions accepted here (arguments
//! beyond the first three are read by the emitters):
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

use super::context::{Arg, Class, SelectCtx, operand_vregs};
use super::generated::{Context, MemModel, Src, Unit};
use super::mach::{INDIRECT_CALLEE, MBlock, MachInst, MachKind, VReg};
use crate::ir::{BoolOp, Cmp, DataType, Inst, MufuFunc, MulMode, Opcode, Round, Space, Type};
use crate::isa::op::{Mnemonic, Mod, Op};
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

/// nvdisasm's integer comparison token and whether it is unsigned.
fn int_cmp(cmp: Cmp, mirrored: bool) -> Option<(Mod, bool)> {
    let cmp = if mirrored { mirror(cmp) } else { cmp };
    Some(match cmp {
        Cmp::Eq => (Mod::EQ, false),
        Cmp::Ne => (Mod::NE, false),
        Cmp::Lt => (Mod::LT, false),
        Cmp::Le => (Mod::LE, false),
        Cmp::Gt => (Mod::GT, false),
        Cmp::Ge => (Mod::GE, false),
        Cmp::Lo => (Mod::LT, true),
        Cmp::Ls => (Mod::LE, true),
        Cmp::Hi => (Mod::GT, true),
        Cmp::Hs => (Mod::GE, true),
        _ => return None,
    })
}

/// The comparison with its operands exchanged.
fn mirror(cmp: Cmp) -> Cmp {
    match cmp {
        Cmp::Lt => Cmp::Gt,
        Cmp::Gt => Cmp::Lt,
        Cmp::Le => Cmp::Ge,
        Cmp::Ge => Cmp::Le,
        Cmp::Lo => Cmp::Hi,
        Cmp::Hi => Cmp::Lo,
        Cmp::Ls => Cmp::Hs,
        Cmp::Hs => Cmp::Ls,
        Cmp::Ltu => Cmp::Gtu,
        Cmp::Gtu => Cmp::Ltu,
        Cmp::Leu => Cmp::Geu,
        Cmp::Geu => Cmp::Leu,
        other => other,
    }
}

fn float_cmp(cmp: Cmp, mirrored: bool) -> Mod {
    let cmp = if mirrored { mirror(cmp) } else { cmp };
    match cmp {
        Cmp::Eq => Mod::EQ,
        Cmp::Ne => Mod::NE,
        Cmp::Lt | Cmp::Lo => Mod::LT,
        Cmp::Le | Cmp::Ls => Mod::LE,
        Cmp::Gt | Cmp::Hi => Mod::GT,
        Cmp::Ge | Cmp::Hs => Mod::GE,
        Cmp::Equ => Mod::EQU,
        Cmp::Neu => Mod::NEU,
        Cmp::Ltu => Mod::LTU,
        Cmp::Leu => Mod::LEU,
        Cmp::Gtu => Mod::GTU,
        Cmp::Geu => Mod::GEU,
        Cmp::Num => Mod::NUM,
        Cmp::Nan => Mod::NAN,
    }
}

fn combine(op: Option<BoolOp>) -> Mod {
    match op {
        Some(BoolOp::Or) => Mod::OR,
        Some(BoolOp::Xor) => Mod::XOR,
        _ => Mod::AND,
    }
}

/// A float rounding (none for round-to-nearest, the default).
fn round(r: Option<Round>) -> Option<Mod> {
    match r {
        Some(Round::Rm) => Some(Mod::RM),
        Some(Round::Rp) => Some(Mod::RP),
        Some(Round::Rz) => Some(Mod::RZ),
        _ => None,
    }
}

/// A rounding to an integral value (none for to-nearest).
fn round_int(r: Option<Round>) -> Option<Mod> {
    match r {
        Some(Round::Rmi | Round::Rm) => Some(Mod::FLOOR),
        Some(Round::Rpi | Round::Rp) => Some(Mod::CEIL),
        Some(Round::Rzi | Round::Rz) => Some(Mod::TRUNC),
        _ => None,
    }
}

fn unsigned(ty: Option<DataType>) -> bool {
    ty.is_some_and(|t| !t.is_signed() && !t.is_float())
}

/// Integer size of conversions (`.U8`…, none for s32, `.S64`).
fn int_size(t: DataType) -> Option<Mod> {
    Some(match (t.bits(), t.is_signed()) {
        (8, false) => Mod::U8,
        (8, true) => Mod::S8,
        (16, false) => Mod::U16,
        (16, true) => Mod::S16,
        (32, false) => Mod::U32,
        (32, true) => return None,
        (_, false) => Mod::U64,
        (_, true) => Mod::S64,
    })
}

/// Float type of conversions (`.F16`, none for f32, `.F64`).
fn float_size(t: DataType) -> Option<Mod> {
    match t {
        DataType::F16 => Some(Mod::F16),
        DataType::Bf16 => Some(Mod::BF16),
        DataType::F64 => Some(Mod::F64),
        _ => None,
    }
}

/// Float type of F2F pairs (always written: `.F32.F16`).
fn float_name(t: DataType) -> Mod {
    float_size(t).unwrap_or(Mod::F32)
}

/// Memory access size for an element type and vector width (none for 32
/// bits); `None` for a size no access has.
fn access_size(elem: DataType, n: u32) -> Option<Option<Mod>> {
    Some(match (elem.bits() * n.max(1), elem.is_signed() && n <= 1) {
        (8, false) => Some(Mod::U8),
        (8, true) => Some(Mod::S8),
        (16, false) => Some(Mod::U16),
        (16, true) => Some(Mod::S16),
        (32, _) => None,
        (64, _) => Some(Mod::_64),
        (128, _) => Some(Mod::_128),
        _ => return None,
    })
}

/// PRMT's modes, by the value of the mode field (1..6; 0 is the plain
/// selector).
const PRMT_MODES: [Mod; 6] = [Mod::F4E, Mod::B4E, Mod::RC8, Mod::ECL, Mod::ECR, Mod::RC16];

fn mufu_name(f: MufuFunc) -> Mod {
    match f {
        MufuFunc::Rcp => Mod::RCP,
        MufuFunc::Rsq => Mod::RSQ,
        MufuFunc::Sqrt => Mod::SQRT,
        MufuFunc::Sin => Mod::SIN,
        MufuFunc::Cos => Mod::COS,
        MufuFunc::Ex2 => Mod::EX2,
        MufuFunc::Lg2 => Mod::LG2,
        MufuFunc::Rcp64h => Mod::RCP64H,
        MufuFunc::Rsq64h => Mod::RSQ64H,
        MufuFunc::Tanh => Mod::TANH,
    }
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

    /// Predicate argument `k` as an operand (`absent` when missing).
    fn pred_arg(&mut self, k: usize, absent: Operand) -> Operand {
        match self.arg(k) {
            Some(a) => self.src_pred(a),
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

    /// Pseudo instructions take no guard (predication applies to machine
    /// instructions).
    fn no_guard(&mut self) -> bool {
        if self.data().guard.is_some() {
            self.fail(format!("guarded {} is not selected (guard the machine instructions instead)", self.data().opcode));
            return false;
        }
        true
    }

    // ---- shared opcodes ----------------------------------------------------

    fn select_iconst(&mut self) {
        let d = self.data();
        let Some(&res) = d.results.first() else { return };
        let ty = self.func.value_type(res);
        let bits = d.imm;
        match ty.file() {
            crate::ir::RegFile::P | crate::ir::RegFile::Up => {
                let lut = if bits != 0 { 0xff } else { 0 };
                let ops = [self.result(0, pt()), pt(), pt(), pt(), pt(), Operand::Hex(lut), Operand::Hex(0)];
                self.emit(Mnemonic::of(Op::PLOP3, &[Mod::LUT]), &ops);
            }
            // A uniform word: `UMOV UR4, 0x0` (the value a guarded
            // instruction with a uniform result keeps where its guard fails).
            crate::ir::RegFile::Ur if ty.regs() == 1 => {
                let ops = [self.result(0, rz()), Operand::Imm(bits as u32)];
                self.emit(Mnemonic::new(Op::UMOV), &ops);
            }
            _ if ty.regs() == 1 => {
                let ops = [self.result(0, rz()), Operand::Imm(bits as u32)];
                self.emit(Mnemonic::new(Op::MOV), &ops);
            }
            _ => {
                if !self.no_guard() {
                    return;
                }
                // Wider constants: one MOV per 32-bit part, then the parts joined.
                let n = usize::from(ty.regs());
                let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
                for k in 0..n {
                    let word = if k < 2 { (bits >> (32 * k)) as u32 } else { 0 };
                    let t = self.fresh(Type::R32);
                    self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(t)), Operand::Imm(word)], &[t]);
                    parts.push(t);
                }
                let dst = self.vreg(res);
                self.pseudo(MachKind::Concat, &[dst], &parts);
            }
        }
    }

    fn select_copy(&mut self) {
        let d = self.data();
        let (Some(&src), Some(&dst)) = (d.args.first(), d.results.first()) else { return self.fail("copy without operand") };
        if self.func.value_type(dst) == Type::R32 {
            let s = self.use_value(src);
            let ops = [self.result(0, rz()), Operand::reg(s)];
            return self.emit(Mnemonic::new(Op::MOV), &ops);
        }
        if self.no_guard() {
            self.use_value(src);
            let (s, t) = (self.vreg(src), self.vreg(dst));
            self.pseudo(MachKind::Copy, &[t], &[s]);
        }
    }

    fn select_extract(&mut self) {
        let d = self.data();
        let (Some(&src), Some(&dst)) = (d.args.first(), d.results.first()) else { return self.fail("extract without operand") };
        let part = d.imm as u8;
        if self.no_guard() {
            self.use_value(src);
            let (s, t) = (self.vreg(src), self.vreg(dst));
            self.pseudo(MachKind::Extract { part }, &[t], &[s]);
        }
    }

    fn select_concat(&mut self) {
        let d = self.data();
        let Some(&dst) = d.results.first() else { return };
        if !self.no_guard() {
            return;
        }
        let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
        for &a in d.args.iter() {
            // A zero part is RZ, which no virtual register names: a MOV makes one.
            if let Some((0, _)) = self.constant(a) {
                let t = self.fresh(Type::R32);
                self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(t)), rz()], &[t]);
                parts.push(t);
            } else {
                self.use_value(a);
                parts.push(self.vreg(a));
            }
        }
        let t = self.vreg(dst);
        self.pseudo(MachKind::Concat, &[t], &parts);
    }

    fn select_symaddr(&mut self) {
        let d = self.data();
        if d.attrs.space == Some(Space::Local) {
            // A frame slot: the stack pointer (R1, reserved) plus the slot's offset.
            let sum = [pt(), pt(), Operand::reg(Reg::gpr(1)), Operand::Imm(d.offset as u32), rz()];
            let Some(&dst) = d.results.first() else { return };
            if self.func.value_type(dst) != Type::R64 {
                let ops = [self.result(0, rz()), sum[0], sum[1], sum[2], sum[3], sum[4]];
                return self.emit(Mnemonic::new(Op::IADD3), &ops);
            }
            // In a 64-bit register (`mov.u64 %rd, local_array`): the
            // local-window address, high word zero.
            if !self.no_guard() {
                return;
            }
            let (lo, hi) = (self.fresh(Type::R32), self.fresh(Type::R32));
            self.push_helper(Mnemonic::new(Op::IADD3), &[Operand::reg(self.reg_of(lo)), sum[0], sum[1], sum[2], sum[3], sum[4]], &[lo]);
            self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(hi)), rz()], &[hi]);
            let t = self.vreg(dst);
            return self.pseudo(MachKind::Concat, &[t], &[lo, hi]);
        }
        if self.no_guard() {
            let Some(&dst) = d.results.first() else { return };
            let t = self.vreg(dst);
            self.pseudo(MachKind::SymAddr { global: d.imm as u32, offset: d.offset, function: false }, &[t], &[]);
        }
    }

    fn select_funcaddr(&mut self) {
        let d = self.data();
        if !self.no_guard() {
            return self.fail("a guarded function address");
        }
        let Some(&dst) = d.results.first() else { return };
        let t = self.vreg(dst);
        self.pseudo(MachKind::SymAddr { global: d.imm as u32, offset: 0, function: true }, &[t], &[]);
    }

    fn branch(&mut self, guard: Option<(Reg, bool)>, target: MBlock, extra: &[VReg]) {
        match Mnemonic::new(Op::BRA).build(self.sm, guard, &[Operand::Target(0)]) {
            Ok(inst) => {
                let mut uses = SmallVec::<[VReg; 4]>::new();
                operand_vregs(&Operand::reg(inst.guard.0), &mut uses);
                uses.extend(extra.iter().copied());
                self.out.push(MachInst { kind: MachKind::Branch { inst, target }, defs: SmallVec::new(), uses, tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Marks branch arguments as needed; returns their registers.
    fn dest_args(&mut self, k: usize) -> Vec<VReg> {
        let args: Vec<_> = self.data().dests.get(k).map(|d| d.args.to_vec()).unwrap_or_default();
        args.into_iter()
            .map(|a| {
                self.use_value(a);
                self.vreg(a)
            })
            .collect()
    }

    fn select_terminator(&mut self, block_index: &dyn Fn(crate::ir::Block) -> MBlock) {
        let d = self.data();
        match d.opcode {
            Opcode::Jump => {
                let Some(dest) = d.dests.first() else { return self.fail("jump without destination") };
                let args = self.dest_args(0);
                self.branch(None, block_index(dest.block), &args);
            }
            Opcode::Brif => {
                let (Some(taken), Some(other), Some(&cond)) = (d.dests.first(), d.dests.get(1), d.args.first()) else {
                    return self.fail("brif needs a condition and two destinations");
                };
                let c = self.use_value(cond);
                let taken_args = self.dest_args(0);
                let other_args = self.dest_args(1);
                self.branch(Some((c, d.attrs.negated)), block_index(taken.block), &taken_args);
                self.branch(None, block_index(other.block), &other_args);
            }
            Opcode::Exit => self.emit(Mnemonic::new(Op::EXIT), &[]),
            Opcode::Trap => self.emit(Mnemonic::of(Op::BPT, &[Mod::TRAP]), &[Operand::Hex(1)]),
            Opcode::Return => {
                // The return address is in R20 (ptxas's convention for
                // `CALL.REL.NOINC`); the returned values are uses placed by
                // the calling convention at allocation.
                let vals: Vec<VReg> = d.args.iter().map(|a| {
                    self.use_value(*a);
                    self.vreg(*a)
                }).collect();
                match Mnemonic::of(Op::RET, &[Mod::REL, Mod::NODEC]).build(self.sm, None, &[Operand::reg(Reg::gpr(20)), Operand::Target(0)]) {
                    Ok(inst) => self.push_abi(MachKind::Inst(inst), vals),
                    Err(e) => self.fail(e.to_string()),
                }
            }
            _ => {}
        }
    }

    /// A call through a register: the target's low word (an offset in the
    /// section) goes last among the uses, where allocation fixes it to R0.
    fn select_call_indirect(&mut self) {
        let d = self.data();
        let Some((&target, rest)) = d.args.split_first() else { return self.fail("an indirect call without a target") };
        let mut uses: Vec<VReg> = rest.iter().map(|a| {
            self.use_value(*a);
            self.vreg(*a)
        }).collect();
        self.use_value(target);
        let mut t = self.vreg(target);
        if self.func.value_type(target) != Type::R32 {
            let lo = self.fresh(Type::R32);
            self.pseudo(MachKind::Extract { part: 0 }, &[lo], &[t]);
            t = lo;
        }
        uses.push(t);
        let guard = self.guard();
        match Mnemonic::of(Op::CALL, &[Mod::REL, Mod::NOINC]).build(self.sm, guard, &[Operand::reg(self.reg_of(t)), Operand::Target(0)]) {
            Ok(inst) => self.push_abi(MachKind::Call { inst, callee: INDIRECT_CALLEE, external: false }, uses),
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn select_call(&mut self) {
        let d = self.data();
        let args: Vec<VReg> = d.args.iter().map(|a| {
            self.use_value(*a);
            self.vreg(*a)
        }).collect();
        let guard = self.guard();
        match Mnemonic::of(Op::CALL, &[Mod::REL, Mod::NOINC]).build(self.sm, guard, &[Operand::Target(0)]) {
            Ok(inst) => self.push_abi(MachKind::Call { inst, callee: d.imm as u32, external: false }, args),
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Records a call or return: the uses are the passed values in order,
    /// repeats kept (the calling convention places each one), then the
    /// guard's register when it is virtual.
    fn push_abi(&mut self, kind: MachKind, vals: Vec<VReg>) {
        let defs: SmallVec<[VReg; 2]> = self.data().results.iter().map(|v| self.vreg(*v)).collect();
        let mut uses: SmallVec<[VReg; 4]> = vals.into_iter().collect();
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

    /// The address operand of the current memory instruction (argument 0
    /// plus the offset), folding frame slots (`[R1+x]`) and constants
    /// (`[RZ+x]`), and adding an offset that does not fit the 24-bit field
    /// to a 32-bit base with IADD3.
    fn address(&mut self, desc: bool) -> Option<Operand> {
        let d = self.data();
        self.address_at(0, i64::from(d.offset), desc, false)
    }

    /// The address in argument `k` plus `offset` (with the descriptor when
    /// `desc`); `no_zero_base`: a constant address goes into a register
    /// unless it is zero (for forms whose `[RZ]` takes no offset).
    fn address_at(&mut self, k: usize, offset: i64, desc: bool, no_zero_base: bool) -> Option<Operand> {
        let d = self.data();
        let Some(&addr) = d.args.get(k) else {
            self.fail("memory access without address");
            return None;
        };
        let mut offset = offset;
        let base = if let Some(sym) = self.func.value_inst(addr).map(|i| &self.func.insts[i]).filter(|s| s.opcode == Opcode::SymAddr && s.attrs.space == Some(Space::Local) && s.guard.is_none()) {
            offset += i64::from(sym.offset);
            Reg::gpr(1)
        } else if let Some((c, _)) = self.constant(addr).filter(|&(c, _)| !no_zero_base || c as i64 + offset == 0) {
            offset += c as i64;
            Reg::zero(RegFile::Gpr)
        } else if no_zero_base && self.constant(addr).is_some() {
            // `[RZ+offset]` has no form: the constant in a register.
            let t = self.fresh(self.func.value_type(addr));
            self.use_value(addr);
            self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(t)), Operand::reg(self.reg_of(self.vreg(addr)))], &[t]);
            self.reg_of(t)
        } else {
            self.use_value(addr)
        };
        let wide = self.func.value_type(addr) == Type::R64;
        let base = if (-(1 << 23)..1 << 23).contains(&offset) {
            base
        } else if !wide {
            let t = self.fresh(Type::R32);
            self.push_helper(Mnemonic::new(Op::IADD3), &[Operand::reg(self.reg_of(t)), pt(), pt(), Operand::reg(base), Operand::Imm(offset as u32), rz()], &[t]);
            offset = 0;
            self.reg_of(t)
        } else {
            self.fail(format!("address offset {offset:#x} does not fit a 64-bit address's 24-bit field"));
            return None;
        };
        let desc = if desc { Some(self.descriptor()) } else { None };
        match Mem::from_parts(base, offset as i32, 0, desc, None) {
            Some(mem) => Some(Operand::Mem(mem)),
            None => {
                self.fail(format!("an address in {base}, not a general register"));
                None
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

    fn select_memory(&mut self, model: MemModel) {
        let d = self.data();
        let Some(elem) = d.attrs.ty else { return self.fail(format!("{} without an element type", d.opcode)) };
        let n = u32::from(d.attrs.vector.max(1));
        let Some(size) = access_size(elem, n) else { return self.fail(format!("no {}-bit access", elem.bits() * n)) };
        let desc = model == MemModel::Desc;
        let global = matches!(d.opcode, Opcode::Ldg | Opcode::Stg | Opcode::Ldgen | Opcode::Stgen);
        // sm_75 spells the default (weak) order of global accesses `.SYS`;
        // an ordered access is `.STRONG` at its scope (the CTA's is `.SM`
        // from sm_80, `.CTA` on sm_75; the cluster's the GPU's).
        let scope = d.attrs.order.and(d.attrs.scope).map(|s| match s {
            crate::ir::MemScope::Cta if desc => Mod::SM,
            crate::ir::MemScope::Cta => Mod::CTA,
            crate::ir::MemScope::Cluster | crate::ir::MemScope::Gpu => Mod::GPU,
            crate::ir::MemScope::Sys => Mod::SYS,
        });
        let strong;
        let order: &[Mod] = match (global, desc, d.attrs.volatile, scope) {
            (true, _, _, Some(s)) => {
                strong = [Mod::STRONG, s];
                &strong
            }
            (true, _, true, None) => &[Mod::STRONG, Mod::SYS],
            (true, false, false, None) => &[Mod::SYS],
            _ => &[],
        };
        let (op, load) = match d.opcode {
            Opcode::Ldg => (Op::LDG, true),
            Opcode::Ldgen => (Op::LD, true),
            Opcode::Stg => (Op::STG, false),
            Opcode::Stgen => (Op::ST, false),
            Opcode::Lds => (Op::LDS, true),
            Opcode::Sts => (Op::STS, false),
            Opcode::Ldl => (Op::LDL, true),
            Opcode::Stl => (Op::STL, false),
            _ => return,
        };
        // Global and generic accesses: `.E`, the size, the order.
        let name = Mnemonic::new(op).flag(global, Mod::E).opt(size).all(order);
        let Some(addr) = self.address(desc && global) else { return };
        let total = (elem.bits() * n).max(32);
        let wide = Type::new(crate::ir::RegFile::R, (total / 32) as u8).unwrap_or(Type::R32);
        if load {
            let results = d.results.clone();
            if results.len() == 1 && self.func.value_type(results[0]) == wide {
                let ops = [self.result(0, rz()), addr];
                return self.emit(name, &ops);
            }
            // A vector: one wide load, then its parts.
            let t = self.fresh(wide);
            if self.data().guard.is_some() {
                // Guarded (`@%p ld.global.v4.b32 {...}`, Triton's masked
                // loads): where the guard fails each element keeps its prior
                // value, so the wide register starts as the priors put
                // together, tied to the load's result, and is split after.
                if elem.bits() < 32 && n > 1 {
                    return self.fail("a guarded vector load of 8- or 16-bit elements is not supported");
                }
                let prior = self.data().prior.clone();
                if prior.len() != results.len() {
                    return self.fail("a guarded vector load without the prior value of each element");
                }
                let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
                for &p in prior.iter() {
                    self.use_value(p);
                    let ty = self.func.value_type(p);
                    for k in 0..ty.regs() {
                        if ty.regs() == 1 {
                            parts.push(self.vreg(p));
                        } else {
                            let part = self.fresh(Type::R32);
                            self.pseudo(MachKind::Extract { part: k }, &[part], &[self.vreg(p)]);
                            parts.push(part);
                        }
                    }
                }
                let kept = self.fresh(wide);
                self.pseudo(MachKind::Concat, &[kept], &parts);
                let guard = self.guard();
                match name.build(self.sm, guard, &[Operand::reg(self.reg_of(t)), addr]) {
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
                    Err(e) => return self.fail(e.to_string()),
                }
            } else {
                self.push_helper(name, &[Operand::reg(self.reg_of(t)), addr], &[t]);
            }
            if elem.bits() < 32 && n > 1 {
                self.split_subword(t, wide, &results, elem);
            } else {
                self.split(t, &results);
            }
        } else {
            let values: Vec<_> = d.args.iter().skip(1).copied().collect();
            let data = if elem.bits() < 32 && n > 1 {
                let t = self.pack_subword(&values, wide, elem);
                self.reg_of(t)
            } else if values.len() == 1 && self.func.value_type(values[0]) == wide {
                self.use_value(values[0])
            } else {
                let t = self.fresh(wide);
                let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
                for v in values {
                    self.use_value(v);
                    let ty = self.func.value_type(v);
                    if ty.regs() == 1 {
                        parts.push(self.vreg(v));
                    } else {
                        for k in 0..ty.regs() {
                            let p = self.fresh(Type::R32);
                            self.pseudo(MachKind::Extract { part: k }, &[p], &[self.vreg(v)]);
                            parts.push(p);
                        }
                    }
                }
                self.pseudo(MachKind::Concat, &[t], &parts);
                self.reg_of(t)
            };
            self.emit(name, &[addr, Operand::reg(data)]);
        }
    }

    /// The elements of a vector of 8- or 16-bit elements loaded as one
    /// access: element k is bits k·size.. of the loaded value, zero- or
    /// sign-extended to 32 bits with a PRMT (as ptxas: `PRMT R6, R2,
    /// 0x7772, RZ` takes byte 2 and zeros; a selector nibble 8+i repeats
    /// the sign of byte i).
    fn split_subword(&mut self, wide: VReg, wide_ty: Type, results: &[crate::ir::Value], elem: DataType) {
        let bytes = elem.bits() / 8;
        for (k, &r) in results.iter().enumerate() {
            let at = k as u32 * bytes;
            let (word, byte) = (at / 4, at % 4);
            let src = if wide_ty.regs() > 1 {
                let p = self.fresh(Type::R32);
                self.pseudo(MachKind::Extract { part: word as u8 }, &[p], &[wide]);
                p
            } else {
                wide
            };
            let top = byte + bytes - 1;
            let fill = if elem.is_signed() { 8 + top } else { 7 };
            let mut selector = 0u32;
            for i in 0..4 {
                let nibble = if i < bytes { byte + i } else { fill };
                selector |= nibble << (4 * i);
            }
            let dst = self.vreg(r);
            self.push_helper(Mnemonic::new(Op::PRMT), &[Operand::reg(self.reg_of(dst)), Operand::reg(self.reg_of(src)), Operand::Imm(selector), rz()], &[dst]);
        }
    }

    /// Packs 8- or 16-bit elements (each in the low bits of a 32-bit
    /// value) into the register of one access: each word is built by
    /// PRMTs that keep the bytes placed so far and take the next
    /// element's low bytes from the second source.
    fn pack_subword(&mut self, values: &[crate::ir::Value], wide_ty: Type, elem: DataType) -> VReg {
        let bytes = elem.bits() / 8;
        let per_word = (4 / bytes) as usize;
        let mut words: SmallVec<[VReg; 4]> = SmallVec::new();
        for chunk in values.chunks(per_word) {
            let mut acc: Option<VReg> = None;
            for (j, &v) in chunk.iter().enumerate() {
                self.use_value(v);
                let e = self.vreg(v);
                let Some(prev) = acc else {
                    acc = Some(e);
                    continue;
                };
                let first = j as u32 * bytes;
                let mut selector = 0u32;
                for i in 0..4 {
                    let nibble = if i >= first && i < first + bytes { 4 + (i - first) } else { i };
                    selector |= nibble << (4 * i);
                }
                let t = self.fresh(Type::R32);
                self.push_helper(Mnemonic::new(Op::PRMT), &[Operand::reg(self.reg_of(t)), Operand::reg(self.reg_of(prev)), Operand::Imm(selector), Operand::reg(self.reg_of(e))], &[t]);
                acc = Some(t);
            }
            if let Some(a) = acc {
                words.push(a);
            }
        }
        if wide_ty.regs() == 1 {
            return words[0];
        }
        let t = self.fresh(wide_ty);
        self.pseudo(MachKind::Concat, &[t], &words);
        t
    }

    /// Extracts the results (each one or more 32-bit parts) from a wide register.
    fn split(&mut self, wide: VReg, results: &[crate::ir::Value]) {
        let mut part = 0u8;
        for &r in results {
            let ty = self.func.value_type(r);
            let dst = self.vreg(r);
            if ty.regs() == 1 {
                self.pseudo(MachKind::Extract { part }, &[dst], &[wide]);
            } else {
                let mut parts: SmallVec<[VReg; 4]> = SmallVec::new();
                for k in 0..ty.regs() {
                    let p = self.fresh(Type::R32);
                    self.pseudo(MachKind::Extract { part: part + k }, &[p], &[wide]);
                    parts.push(p);
                }
                self.pseudo(MachKind::Concat, &[dst], &parts);
            }
            part += ty.regs();
        }
    }

    fn select_ldc(&mut self) {
        let d = self.data();
        let ty = d.results.first().map_or(Type::R32, |r| self.func.value_type(*r));
        let size = if ty == Type::R64 { Some(Mod::_64) } else { d.attrs.ty.filter(|t| t.bits() < 32).and_then(int_size) };
        // The immediate is the bank, the offset absolute (legalization's
        // convention: parameters at the SM's base in bank 0, `.const` in 3).
        let Ok(bank) = u8::try_from(d.imm) else { return self.fail("constant bank number out of range") };
        let index = match d.args.first() {
            Some(&a) if self.func.value_type(a) == Type::R32 => self.use_value(a),
            Some(_) => return self.fail("LDC takes a 32-bit index"),
            None => Reg::zero(RegFile::Gpr),
        };
        let addr = Operand::ConstAddr { bank, index, offset: d.offset };
        let results = d.results.clone();
        if results.len() > 1 {
            // A vector (`ld.const.v2.u32`, `ld.const.v4.u8`): one 16-, 32-
            // or 64-bit load, then its parts (sub-word elements by PRMT).
            let elem = d.attrs.ty.filter(|t| t.bits() < 32);
            let bits = match elem {
                Some(t) => t.bits() * results.len() as u32,
                None => 32 * results.iter().map(|&r| u32::from(self.func.value_type(r).regs())).sum::<u32>(),
            };
            let (wide, name) = match bits {
                16 => (Type::R32, Mnemonic::of(Op::LDC, &[Mod::U16])),
                32 => (Type::R32, Mnemonic::new(Op::LDC)),
                64 => (Type::R64, Mnemonic::of(Op::LDC, &[Mod::_64])),
                _ => return self.fail(format!("no {bits}-bit constant-bank load")),
            };
            if !self.no_guard() {
                return;
            }
            let t = self.fresh(wide);
            self.push_helper(name, &[Operand::reg(self.reg_of(t)), addr], &[t]);
            return match elem {
                Some(e) => self.split_subword(t, wide, &results, e),
                None => self.split(t, &results),
            };
        }
        let ops = [self.result(0, rz()), addr];
        self.emit(Mnemonic::new(Op::LDC).opt(size), &ops);
    }

    fn select_sreg(&mut self) {
        let d = self.data();
        // Legalization put the register's number on this SM in the immediate.
        let Ok(n) = u8::try_from(d.imm) else { return self.fail(format!("special register number {} out of range", d.imm)) };
        let wide = d.results.first().is_some_and(|r| self.func.value_type(*r) == Type::R64);
        let ops = [self.result(0, rz()), Operand::SpecialReg(n)];
        match (d.opcode, wide) {
            (Opcode::Cs2r, true) => self.emit(Mnemonic::new(Op::CS2R), &ops),
            (Opcode::Cs2r, false) => self.emit(Mnemonic::of(Op::CS2R, &[Mod::_32]), &ops),
            _ => self.emit(Mnemonic::new(Op::S2R), &ops),
        }
    }

    fn select_bar(&mut self) {
        let d = self.data();
        let id = d.args.first().and_then(|a| self.constant(*a)).map(|c| c.0);
        match (id, d.args.len()) {
            (Some(id), 1) if id < 16 => self.emit(Mnemonic::of(Op::BAR, &[Mod::SYNC, Mod::DEFER_BLOCKING]), &[Operand::Hex(id as u32)]),
            _ => self.fail("BAR with a register barrier or a thread count has no form yet"),
        }
    }

    /// The conversion's opcode and modifiers.
    fn conversion_name(&self) -> Option<Mnemonic> {
        let d = self.data();
        let (dst, src) = (d.attrs.ty?, d.attrs.src_ty?);
        let ftz = d.attrs.ftz;
        Some(match d.opcode {
            Opcode::I2f => Mnemonic::new(Op::I2F).opt(float_size(dst)).opt(int_size(src)).opt(round(d.attrs.round)),
            // sm_90+: I2FP.F32.S32 (the 32-bit conversion without a size field).
            Opcode::I2fp => Mnemonic::of(Op::I2FP, &[Mod::F32, if src.is_signed() { Mod::S32 } else { Mod::U32 }]).opt(round(d.attrs.round)),
            Opcode::F2i => {
                // ptxas 13.5 writes `.NTZ` on every F2I from an f32 or f16
                // to at most 32 bits, whatever the rounding (`F2I.NTZ`,
                // `F2I.U32.FLOOR.NTZ`, `F2I.F16.NTZ`), and never from an
                // f64 or to 64 bits.
                let ntz = matches!(src, DataType::F32 | DataType::F16) && dst.bits() <= 32;
                Mnemonic::new(Op::F2I).flag(ftz, Mod::FTZ).opt(int_size(dst)).opt(float_size(src)).opt(round_int(d.attrs.round)).flag(ntz, Mod::NTZ)
            }
            Opcode::F2f => Mnemonic::new(Op::F2F).flag(ftz, Mod::FTZ).with(float_name(dst)).with(float_name(src)).opt(round(d.attrs.round)),
            Opcode::Frnd => Mnemonic::new(Op::FRND).flag(ftz, Mod::FTZ).opt(float_size(dst)).opt(round_int(d.attrs.round)),
            _ => return None,
        })
    }
}

/// Trait methods `term(&mut self, _: Inst)` that call the inherent method
/// `method(&mut self)` selecting the current instruction.
macro_rules! selected_whole {
    ($($term:ident => $method:ident),* $(,)?) => {
        $(fn $term(&mut self, _: Inst) -> Unit {
            self.$method()
        })*
    };
}

/// A machine instruction's operands in printed order (ISLE `Ops`).
pub type Ops = SmallVec<[Operand; 6]>;

impl Context for SelectCtx<'_> {
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
    fn mem_address(&mut self, _: Inst, model: &MemModel) -> Src {
        match self.address(*model == MemModel::Desc) {
            Some(Operand::Mem(m)) if *model == MemModel::UniformZero => {
                match Mem::from_parts(m.base(), m.offset(), 0, None, Some(Reg::zero(RegFile::Uniform))) {
                    Some(m) => Operand::Mem(m),
                    None => {
                        self.fail("an address with a uniform register");
                        rz()
                    }
                }
            }
            Some(a) => a,
            None => rz(),
        }
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
    fn inst_ty(&mut self, i: Inst) -> DataType {
        self.func.insts[i].attrs.ty.unwrap_or(DataType::B32)
    }
    fn inst_src_ty(&mut self, i: Inst) -> DataType {
        self.func.insts[i].attrs.src_ty.unwrap_or(DataType::B32)
    }
    fn inst_sc(&mut self, i: Inst) -> Option<Unit> {
        (self.func.insts[i].attrs.order == Some(crate::ir::MemOrder::Sc)).then_some(())
    }
    fn mn_with(&mut self, m: Mnemonic, t: &Mod) -> Mnemonic {
        m.with(*t)
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
    fn src_uniform_param(&mut self, a: Arg) -> Src {
        SelectCtx::src_uniform_param(self, a)
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

    fn emit_iadd3(&mut self, _: Inst, a: Src, b: Src, c: Src) -> Unit {
        let x = self.data().attrs.x;
        let mut ops = vec![self.result(0, rz()), self.result(1, pt()), self.result(2, pt()), a, b, c];
        if x {
            let (c0, c1) = (self.pred_arg(3, not_pt()), self.pred_arg(4, not_pt()));
            ops.extend([c0, c1]);
        }
        self.emit(Mnemonic::new(Op::IADD3).flag(x, Mod::X), &ops);
    }
    fn emit_imad(&mut self, _: Inst, a: Src, b: Src, c: Src) -> Unit {
        let d = self.data();
        // The wide and high forms (a carry-out predicate after the result).
        let form = match (d.opcode, d.attrs.mul) {
            (Opcode::ImadWide, _) => Some(Mod::WIDE),
            (_, Some(MulMode::Hi)) => Some(Mod::HI),
            _ => None,
        };
        let name = Mnemonic::new(Op::IMAD).opt(form).flag(unsigned(d.attrs.ty), Mod::U32).flag(d.attrs.x, Mod::X);
        let mut ops = vec![self.result(0, rz())];
        if form.is_some() {
            ops.push(self.result(1, pt()));
        }
        // IMAD.HI adds a 64-bit c (a register pair) before taking the high
        // word, so the Ori addend `hi(a*b) + c` is the pair {0, c}
        // (ptxas: `IMAD.HI.U32 R5, R5, R7, R4` with R4 = 0, R5 = c).
        let c = match c {
            Operand::Reg { reg: Reg { num: crate::isa::operand::RegNum::Virt(n), .. }, .. } if form == Some(Mod::HI) => {
                let (zero, pair) = (self.fresh(Type::R32), self.fresh(Type::R64));
                self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(zero)), rz()], &[zero]);
                self.pseudo(MachKind::Concat, &[pair], &[zero, VReg(n.get())]);
                Operand::reg(self.reg_of(pair))
            }
            c => c,
        };
        ops.extend([a, b, c]);
        if d.attrs.x {
            ops.push(self.pred_arg(3, not_pt()));
        }
        self.emit(name, &ops);
    }
    fn emit_lop3(&mut self, _: Inst, a: Src, b: Src, c: Src, lut: u32) -> Unit {
        let p = self.pred_arg(3, not_pt());
        let ops = [self.result(1, pt()), self.result(0, rz()), a, b, c, Operand::Hex(lut), p];
        self.emit(Mnemonic::of(Op::LOP3, &[Mod::LUT]), &ops);
    }
    fn emit_plop3(&mut self, _: Inst, a: Src, b: Src, c: Src, lut: u32) -> Unit {
        let ops = [self.result(0, pt()), self.result(1, pt()), a, b, c, Operand::Hex(lut), Operand::Hex(0)];
        self.emit(Mnemonic::of(Op::PLOP3, &[Mod::LUT]), &ops);
    }
    fn emit_shf(&mut self, _: Inst, a: Src, b: Src, c: Src) -> Unit {
        let d = self.data();
        let ty = match d.attrs.ty {
            Some(DataType::S64) => Mod::S64,
            Some(DataType::U64 | DataType::B64) => Mod::U64,
            Some(DataType::S32) => Mod::S32,
            _ => Mod::U32,
        };
        let name = Mnemonic::new(Op::SHF).with(if d.attrs.left { Mod::L } else { Mod::R }).flag(d.attrs.wrap, Mod::W).with(ty).flag(d.attrs.mul == Some(MulMode::Hi), Mod::HI);
        let ops = [self.result(0, rz()), a, b, c];
        self.emit(name, &ops);
    }
    fn emit_setp(&mut self, _: Inst, a: Src, b: Src, mirrored: bool) -> Unit {
        let d = self.data();
        let Some(cmp) = d.attrs.cmp else { return self.fail(format!("{} without comparison", d.opcode)) };
        let comb = combine(d.attrs.combine);
        let name = match d.opcode {
            Opcode::Isetp => {
                let Some((c, u)) = int_cmp(cmp, mirrored) else { return self.fail(format!("ISETP has no {cmp:?}")) };
                // A 64-bit compare (sm_120's one-instruction form) spells
                // its width: `.U64` / `.S64`.
                let size = match d.attrs.ty {
                    Some(t) if t.bits() == 64 => Some(if u || unsigned(d.attrs.ty) { Mod::U64 } else { Mod::S64 }),
                    _ => (u || unsigned(d.attrs.ty)).then_some(Mod::U32),
                };
                Mnemonic::of(Op::ISETP, &[c]).opt(size).with(comb).flag(d.attrs.x, Mod::EX)
            }
            Opcode::Fsetp => Mnemonic::of(Op::FSETP, &[float_cmp(cmp, mirrored)]).flag(d.attrs.ftz, Mod::FTZ).with(comb),
            Opcode::Hsetp2 => Mnemonic::new(Op::HSETP2).flag(is_bf16(d.attrs.ty), Mod::BF16_V2).with(float_cmp(cmp, mirrored)).flag(d.attrs.ftz, Mod::FTZ).with(comb),
            _ => Mnemonic::of(Op::DSETP, &[float_cmp(cmp, mirrored), comb]),
        };
        let mut c = self.pred_arg(2, pt());
        // Legalization marks a negated combined predicate (`setp.eq.or
        // p, a, b, !q`) with the `negated` attribute.
        if d.attrs.negated {
            if let Operand::Reg { mods, .. } = &mut c {
                mods.not = !mods.not;
            }
        }
        let mut ops = vec![self.result(0, pt()), self.result(1, pt()), a, b, c];
        if d.attrs.x {
            ops.push(self.pred_arg(3, pt()));
        }
        self.emit(name, &ops);
    }
    fn emit_minmax(&mut self, _: Inst, a: Src, b: Src, _preds: bool) -> Unit {
        let d = self.data();
        let p = self.min_pred();
        let ops = [self.result(0, rz()), a, b, p];
        self.emit(Mnemonic::new(Op::IMNMX).flag(unsigned(d.attrs.ty), Mod::U32), &ops);
    }
    fn emit_vimnmx(&mut self, _: Inst, a: Src, b: Src, preds: bool) -> Unit {
        let d = self.data();
        let p = self.min_pred();
        let mut ops = vec![self.result(0, rz())];
        if preds {
            ops.extend([pt(), pt()]);
        }
        ops.extend([a, b, p]);
        if unsigned(d.attrs.ty) {
            return self.emit(Mnemonic::of(Op::VIMNMX, &[Mod::U32]), &ops);
        }
        // The signed form's spelling differs by SM (`.S32` on sm_120): the table's.
        let guard = self.guard();
        match Mnemonic::new(Op::VIMNMX).build(self.sm, guard, &ops).or_else(|_| Mnemonic::of(Op::VIMNMX, &[Mod::S32]).build(self.sm, guard, &ops)) {
            Ok(i) => self.push_main(MachKind::Inst(i), &[]),
            Err(e) => self.fail(e.to_string()),
        }
    }
    fn emit_fmnmx(&mut self, _: Inst, a: Src, b: Src) -> Unit {
        let p = self.min_pred();
        let ops = [self.result(0, rz()), a, b, p];
        let at = self.data().attrs;
        let name = Mnemonic::new(Op::FMNMX).flag(at.ftz, Mod::FTZ).flag(at.nan, Mod::NAN).flag(at.xorsign, Mod::XORSIGN);
        self.emit(name, &ops);
    }
    fn emit_sel(&mut self, _: Inst, a: Src, b: Src, inverted: bool) -> Unit {
        let mut p = self.pred_arg(2, pt());
        if let (true, Operand::Reg { mods, .. }) = (inverted, &mut p) {
            mods.not = !mods.not;
        }
        let ops = [self.result(0, rz()), a, b, p];
        let name = if self.data().opcode == Opcode::Fsel { Mnemonic::new(Op::FSEL).flag(self.data().attrs.ftz, Mod::FTZ) } else { Mnemonic::new(Op::SEL) };
        self.emit(name, &ops);
    }
    fn emit_unary(&mut self, _: Inst, m: Mnemonic, s: Src) -> Unit {
        let ops = [self.result(0, rz()), s];
        self.emit(m, &ops);
    }
    fn mnemonic(&mut self, op: &Op) -> Mnemonic {
        Mnemonic::new(*op)
    }
    fn mn_flag(&mut self, m: Mnemonic, on: bool, t: &Mod) -> Mnemonic {
        m.flag(on, *t)
    }
    fn inst_unsigned(&mut self, i: Inst) -> bool {
        unsigned(self.func.insts[i].attrs.ty)
    }
    fn inst_shiftamt(&mut self, i: Inst) -> bool {
        self.func.insts[i].attrs.shiftamt
    }
    fn attr_mnemonic(&mut self, _: Inst) -> Mnemonic {
        let d = self.data();
        // On an error the instruction is not built (the first error is the
        // one reported), so what is returned then does not matter.
        let failed = Mnemonic::new(Op::NOP);
        match d.opcode {
            Opcode::Mufu => match d.attrs.mufu {
                Some(f) => Mnemonic::of(Op::MUFU, &[mufu_name(f)]),
                None => {
                    self.fail("MUFU without function");
                    failed
                }
            },
            // A saturating integer narrowing (`cvt.sat.s16.s32`) is I2I on
            // the hardware, which the form table does not have yet.
            Opcode::I2i => {
                self.fail("a saturating integer conversion (I2I) has no form yet");
                failed
            }
            Opcode::Fset => Mnemonic::of(Op::FSET, &[Mod::BF, float_cmp(d.attrs.cmp.unwrap_or(Cmp::Eq), false)]).flag(d.attrs.ftz, Mod::FTZ).with(combine(d.attrs.combine)),
            // HSET2: `src_ty` the compared lanes' type (`.BF16_V2`), `ty`
            // the result's (a half: 1.0 per lane, `.BF`; else a mask).
            Opcode::Hset2 => Mnemonic::new(Op::HSET2)
                .flag(is_bf16(d.attrs.src_ty), Mod::BF16_V2)
                .flag(matches!(d.attrs.ty, Some(DataType::F16 | DataType::F16x2 | DataType::Bf16 | DataType::Bf16x2)), Mod::BF)
                .with(float_cmp(d.attrs.cmp.unwrap_or(Cmp::Eq), false))
                .flag(d.attrs.ftz, Mod::FTZ)
                .with(combine(d.attrs.combine)),
            // With a register selector, PRMT's immediate is its mode
            // (`prmt.f4e` and the others).
            Opcode::Prmt => match (d.args.len(), d.imm) {
                (3, m @ 1..=6) => Mnemonic::of(Op::PRMT, &[PRMT_MODES[m as usize - 1]]),
                (3, 0) | (2, _) => Mnemonic::new(Op::PRMT),
                (_, m) => {
                    self.fail(format!("PRMT mode {m} does not exist"));
                    failed
                }
            },
            // IDP.4A.{U8,S8}.{U8,S8}, IDP.2A.{LO,HI}.{U16,S16}.{U8,S8}.
            Opcode::Idp4a | Opcode::Idp2a => {
                let (Some(ta), Some(tb)) = (d.attrs.ty, d.attrs.src_ty) else {
                    self.fail("IDP needs the types of a and b");
                    return failed;
                };
                let byte = |t: DataType| if t.is_signed() { Mod::S8 } else { Mod::U8 };
                if d.opcode == Opcode::Idp4a {
                    Mnemonic::of(Op::IDP, &[Mod::_4A, byte(ta), byte(tb)])
                } else {
                    let half = if d.attrs.mul == Some(MulMode::Hi) { Mod::HI } else { Mod::LO };
                    let short = if ta.is_signed() { Mod::S16 } else { Mod::U16 };
                    Mnemonic::of(Op::IDP, &[Mod::_2A, half, short, byte(tb)])
                }
            }
            _ => match self.conversion_name() {
                Some(n) => n,
                None => {
                    self.fail(format!("{} needs destination and source types", d.opcode));
                    failed
                }
            },
        }
    }
    fn emit_binary(&mut self, _: Inst, a: Src, b: Src, name: Mnemonic) -> Unit {
        let d = self.data();
        let mut ops = vec![self.result(0, rz()), a, b];
        if matches!(d.opcode, Opcode::Fset | Opcode::Hset2) {
            // FSET.BF's and HSET2's combined predicate (PT without one), `!` where
            // legalization marked it negated.
            let negated = d.attrs.negated;
            let mut c = self.pred_arg(2, pt());
            if let (true, Operand::Reg { mods, .. }) = (negated, &mut c) {
                mods.not = !mods.not;
            }
            ops.push(c);
        }
        self.emit(name, &ops);
    }
    fn emit_ternary(&mut self, _: Inst, a: Src, b: Src, c: Src, name: Mnemonic) -> Unit {
        let ops = [self.result(0, rz()), a, b, c];
        self.emit(name, &ops);
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
    fn mn_round(&mut self, m: Mnemonic, i: Inst) -> Mnemonic {
        m.opt(round(self.func.insts[i].attrs.round))
    }
    fn emit_fchk(&mut self, _: Inst, a: Src, b: Src) -> Unit {
        let ops = [self.result(0, pt()), a, b];
        self.emit(Mnemonic::new(Op::FCHK), &ops);
    }
    fn emit_param_mov(&mut self, i: Inst) -> Unit {
        let Some(&r) = self.func.insts[i].results.first() else { return };
        let Some((off, _)) = self.param(r) else { return self.select_ldc() };
        let ops = [self.result(0, rz()), Operand::CBank { bank: 0, offset: off as u16, mods: SrcMods::default() }];
        self.emit(Mnemonic::new(Op::MOV), &ops);
    }
    fn mma_mnemonic(&mut self, i: Inst) -> Mnemonic {
        let imm = self.func.insts[i].imm;
        match crate::ir::matrix::Mma::decode(imm).ok_or_else(|| format!("an mma descriptor {imm:#x}")).and_then(|m| super::matrix::mma_mnemonic(m, self.sm.number)) {
            Ok(m) => m,
            Err(e) => {
                self.fail(e);
                Mnemonic::new(Op::HMMA)
            }
        }
    }
    fn ldsm_mnemonic(&mut self, i: Inst) -> Mnemonic {
        self.matrix_move_mnemonic(i, "an ldmatrix", super::matrix::ldsm_mnemonic, Op::LDSM)
    }
    fn stsm_mnemonic(&mut self, i: Inst) -> Mnemonic {
        self.matrix_move_mnemonic(i, "a stmatrix", super::matrix::stsm_mnemonic, Op::STSM)
    }
    fn ldgsts_mnemonic(&mut self, i: Inst) -> Mnemonic {
        let imm = self.func.insts[i].imm;
        match crate::ir::matrix::AsyncCopy::decode(imm) {
            Some(c) => super::matrix::ldgsts_mnemonic(c),
            None => {
                self.fail(format!("a cp.async descriptor {imm:#x}"));
                Mnemonic::new(Op::LDGSTS)
            }
        }
    }
    fn ldgsts_shared(&mut self, i: Inst) -> Src {
        let offset = crate::ir::matrix::AsyncCopy::decode(self.func.insts[i].imm).map_or(0, |c| c.shared_offset);
        self.address_at(0, i64::from(offset), false, true).unwrap_or(rz())
    }
    fn ldgsts_global(&mut self, i: Inst) -> Src {
        let offset = self.func.insts[i].offset;
        self.address_at(1, i64::from(offset), true, false).unwrap_or(rz())
    }
    fn emit_memory(&mut self, _: Inst, model: &MemModel) -> Unit {
        self.select_memory(*model);
    }
    // Operations the rules dispatch on the opcode alone: each term is the
    // inherent method that selects the whole instruction.
    selected_whole! {
        emit_iconst => select_iconst,
        emit_copy => select_copy,
        emit_extract => select_extract,
        emit_concat => select_concat,
        emit_symaddr => select_symaddr,
        emit_funcaddr => select_funcaddr,
        emit_call => select_call,
        emit_call_indirect => select_call_indirect,
        emit_ldc => select_ldc,
        emit_sreg => select_sreg,
        emit_bar => select_bar,
    }
    fn no_selection(&mut self, _: Inst) -> Unit {
        match self.data().opcode {
            op if op.is_terminator() => self.fail("terminators are selected by the driver"),
            op => self.fail(format!("no selection rule for {op} with these operands")),
        }
    }
    fn emit_tex(&mut self, _: Inst) -> Unit {
        self.select_tex()
    }
}

impl SelectCtx<'_> {
    /// The mnemonic of an ldmatrix or stmatrix from its descriptor, or a
    /// selection failure naming `what` when the descriptor does not decode.
    fn matrix_move_mnemonic(&mut self, i: Inst, what: &str, mnemonic: fn(crate::ir::matrix::MatrixMove) -> Mnemonic, fallback: Op) -> Mnemonic {
        let imm = self.func.insts[i].imm;
        match crate::ir::matrix::MatrixMove::decode(imm) {
            Some(m) => mnemonic(m),
            None => {
                self.fail(format!("{what} descriptor {imm:#x}"));
                Mnemonic::new(fallback)
            }
        }
    }

    /// The predicate choosing the minimum: argument 2, else PT (or !PT
    /// for the maximum, the `negated` attribute).
    fn min_pred(&mut self) -> Operand {
        let neg = self.data().attrs.negated;
        self.pred_arg(2, if neg { not_pt() } else { pt() })
    }

    /// Selects a terminator (called by the driver, which knows the block numbering).
    pub fn terminator(&mut self, block_index: &dyn Fn(crate::ir::Block) -> MBlock) {
        self.select_terminator(block_index)
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

/// Whether a half type is bfloat16 (the `.BF16_V2` instructions).
fn is_bf16(ty: Option<DataType>) -> bool {
    matches!(ty, Some(DataType::Bf16 | DataType::Bf16x2))
}
