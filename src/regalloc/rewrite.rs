//! From regalloc2's answers to code on physical registers: virtual
//! registers replaced by their allocation at each instruction, the moves
//! and spills regalloc2 asks for as instructions, the pseudo instructions
//! expanded, the prologue and the frame.

use super::layout::Layout;
use super::prep::{PInst, PKind, Prog};
use super::run::RunOut;
use super::{AllocBlock, AllocInst, Allocated, Kind, abi};
use crate::ir::SrcLoc;
use crate::isa::inst::Inst as MInst;
use crate::isa::op::{Mnemonic, Mod, Op};
use crate::isa::operand::{Mem, Operand, Reg, RegFile, RegNum, SrcMods};
use crate::select::cbank_offsets::stack_offset;
use crate::target::Sm;
use regalloc2::{Allocation, ProgPoint};
use smallvec::SmallVec;

/// The output under construction.
struct Out<'a> {
    sm: Sm,
    layout: &'a Layout,
    /// Byte offset of each run's spill area in the frame.
    slot_base: Vec<u32>,
    insts: Vec<AllocInst>,
    /// The source position of each of `insts`.
    locs: Vec<SrcLoc>,
    gpr_top: u32,
    ugpr_top: u32,
    spill_stores: u32,
    spill_loads: u32,
}

fn reg(file: RegFile, n: u8) -> Reg {
    Reg { file, num: RegNum::Phys(n) }
}

fn r(n: u8) -> Operand {
    Operand::reg(reg(RegFile::Gpr, n))
}

fn zero(file: RegFile) -> Operand {
    Operand::reg(Reg::zero(file))
}

fn file_of(kind: Kind) -> RegFile {
    match kind {
        Kind::R1 | Kind::R2 | Kind::R4 => RegFile::Gpr,
        Kind::U1 | Kind::U2 => RegFile::Uniform,
        Kind::P => RegFile::Pred,
        Kind::Up => RegFile::UniformPred,
    }
}

fn mem(offset: u32) -> Operand {
    Operand::Mem(Mem::new(RegNum::Phys(1), offset as i32))
}

impl Out<'_> {
    fn build(&self, m: Mnemonic, ops: &[Operand]) -> Result<MInst, String> {
        m.build(self.sm, None, ops).map_err(|e| format!("{m}: {e}"))
    }

    fn emit(&mut self, m: Mnemonic, ops: &[Operand]) -> Result<(), String> {
        let i = self.build(m, ops)?;
        self.insts.push(AllocInst::Inst(i));
        Ok(())
    }

    /// Notes the registers of a value of `kind` at `base` as used.
    fn note(&mut self, kind: Kind, base: u8) {
        let top = u32::from(base) + kind.width();
        match file_of(kind) {
            RegFile::Gpr => self.gpr_top = self.gpr_top.max(top),
            RegFile::Uniform => self.ugpr_top = self.ugpr_top.max(top),
            _ => {}
        }
    }

    /// The base register of unit `u` of `kind`'s class in run `run`.
    fn phys(&mut self, run: usize, kind: Kind, u: usize) -> Result<u8, String> {
        self.phys_in(run, kind.slot().1, kind, u)
    }

    /// The base register of unit `u` of class `class` in run `run`, which
    /// holds a value of `kind` (a single may sit in a pair unit,
    /// [`super::split`]).
    fn phys_in(&mut self, run: usize, class: usize, kind: Kind, u: usize) -> Result<u8, String> {
        let p = self.layout.phys(run, class, u).ok_or_else(|| format!("unit {u} of {kind:?} is outside the layout"))?;
        self.note(kind, p);
        Ok(p)
    }

    fn scratch(&mut self) -> Result<u8, String> {
        let s = self.layout.scratch.ok_or("a UR or predicate spill without a scratch register")?;
        self.note(Kind::R1, s);
        Ok(s)
    }

    /// Copies one 32-bit (or predicate) register to another, across files
    /// where an instruction does it.
    fn mov_word(&mut self, dst: Reg, src: Reg) -> Result<(), String> {
        if dst == src {
            return Ok(());
        }
        let (d, s) = (Operand::reg(dst), Operand::reg(src));
        match (dst.file, src.file) {
            (RegFile::Gpr, RegFile::Gpr | RegFile::Uniform) => self.emit(Mnemonic::new(Op::MOV), &[d, s]),
            (RegFile::Uniform, RegFile::Uniform) => self.emit(Mnemonic::new(Op::UMOV), &[d, s]),
            (RegFile::Uniform, RegFile::Gpr) => self.emit(Mnemonic::new(Op::R2UR), &[d, s]),
            (RegFile::Pred, RegFile::Pred) => {
                let pt = zero(RegFile::Pred);
                self.emit(Mnemonic::of(Op::PLOP3, &[Mod::LUT]), &[d, pt, s, pt, pt, Operand::Hex(0x80), Operand::Hex(0)])
            }
            (RegFile::UniformPred, RegFile::UniformPred) => {
                let upt = zero(RegFile::UniformPred);
                self.emit(Mnemonic::of(Op::UPLOP3, &[Mod::LUT]), &[d, upt, s, upt, upt, Operand::Hex(0x80), Operand::Hex(0)])
            }
            _ => Err(format!("no copy from {src} to {dst}")),
        }
    }

    /// Word copies that read their sources as if all at once: a part may
    /// sit in a register of the result (a single kept in a pair unit,
    /// [`super::split`], shares the unit of a pair defined where the
    /// single dies), so a copy whose destination another copy still reads
    /// waits for that read. The parts of one result form no cycle (only
    /// one part can sit in the result's unit, at its low register); a
    /// cycle is refused rather than copied wrongly.
    fn parallel_words(&mut self, mut words: SmallVec<[(Reg, Reg); 4]>) -> Result<(), String> {
        while !words.is_empty() {
            let ready = (0..words.len()).find(|&k| !words.iter().enumerate().any(|(j, w)| j != k && w.1 == words[k].0 && w.0 != w.1));
            let k = ready.ok_or("a concatenation whose parts and result form a cycle")?;
            let (dst, src) = words.remove(k);
            self.mov_word(dst, src)?;
        }
        Ok(())
    }

    /// A value of `kind` copied between registers, word by word.
    fn mov(&mut self, kind: Kind, dst: u8, src: u8) -> Result<(), String> {
        let file = file_of(kind);
        for k in 0..kind.width() as u8 {
            self.mov_word(reg(file, dst + k), reg(file, src + k))?;
        }
        Ok(())
    }

    /// A value of `kind` in register `src` stored to the frame at `off`.
    fn spill(&mut self, kind: Kind, src: u8, off: u32) -> Result<(), String> {
        match kind {
            Kind::R1 => self.emit(Mnemonic::new(Op::STL), &[mem(off), r(src)])?,
            Kind::R2 => self.emit(Mnemonic::of(Op::STL, &[Mod::_64]), &[mem(off), r(src)])?,
            Kind::R4 => self.emit(Mnemonic::of(Op::STL, &[Mod::_128]), &[mem(off), r(src)])?,
            Kind::U1 | Kind::U2 => {
                let s = self.scratch()?;
                for k in 0..kind.width() as u8 {
                    self.emit(Mnemonic::new(Op::MOV), &[r(s), Operand::reg(reg(RegFile::Uniform, src + k))])?;
                    self.emit(Mnemonic::new(Op::STL), &[mem(off + 4 * u32::from(k)), r(s)])?;
                }
            }
            Kind::P => {
                let s = self.scratch()?;
                let p = Operand::Reg { reg: reg(RegFile::Pred, src), mods: SrcMods { not: true, ..SrcMods::default() }, reuse: false };
                // s = P ? 1 : 0 (SEL picks its first source when the predicate holds).
                self.emit(Mnemonic::new(Op::SEL), &[r(s), zero(RegFile::Gpr), Operand::Imm(1), p])?;
                self.emit(Mnemonic::new(Op::STL), &[mem(off), r(s)])?;
            }
            Kind::Up => return Err("a uniform predicate spill (not supported)".into()),
        }
        self.spill_stores += 4 * kind.width();
        Ok(())
    }

    /// A value of `kind` loaded from the frame at `off` into `dst`.
    fn reload(&mut self, kind: Kind, dst: u8, off: u32) -> Result<(), String> {
        match kind {
            Kind::R1 => self.emit(Mnemonic::new(Op::LDL), &[r(dst), mem(off)])?,
            Kind::R2 => self.emit(Mnemonic::of(Op::LDL, &[Mod::_64]), &[r(dst), mem(off)])?,
            Kind::R4 => self.emit(Mnemonic::of(Op::LDL, &[Mod::_128]), &[r(dst), mem(off)])?,
            Kind::U1 | Kind::U2 => {
                let s = self.scratch()?;
                for k in 0..kind.width() as u8 {
                    self.emit(Mnemonic::new(Op::LDL), &[r(s), mem(off + 4 * u32::from(k))])?;
                    self.emit(Mnemonic::new(Op::R2UR), &[Operand::reg(reg(RegFile::Uniform, dst + k)), r(s)])?;
                }
            }
            Kind::P => {
                let s = self.scratch()?;
                let pt = zero(RegFile::Pred);
                self.emit(Mnemonic::new(Op::LDL), &[r(s), mem(off)])?;
                self.emit(Mnemonic::of(Op::ISETP, &[Mod::NE, Mod::AND]), &[Operand::reg(reg(RegFile::Pred, dst)), pt, r(s), zero(RegFile::Gpr), pt])?;
            }
            Kind::Up => return Err("a uniform predicate reload (not supported)".into()),
        }
        self.spill_loads += 4 * kind.width();
        Ok(())
    }

    /// The R register holding UR/P spill slot `slot` (see
    /// [`Layout::homes`]).
    fn home(&mut self, slot: usize) -> Result<u8, String> {
        let h = *self.layout.homes.get(slot).ok_or_else(|| format!("spill slot {slot} has no home register"))?;
        self.note(Kind::R1, h);
        Ok(h)
    }

    /// A UR or predicate value in register `src` kept in its home
    /// registers from spill slot `slot` on: no frame, no memory access.
    fn spill_home(&mut self, kind: Kind, src: u8, slot: usize) -> Result<(), String> {
        match kind {
            Kind::U1 | Kind::U2 => {
                for k in 0..kind.width() as u8 {
                    let h = self.home(slot + usize::from(k))?;
                    self.emit(Mnemonic::new(Op::MOV), &[r(h), Operand::reg(reg(RegFile::Uniform, src + k))])?;
                }
            }
            Kind::P => {
                let h = self.home(slot)?;
                match self.layout.home_bits.get(slot).copied().flatten() {
                    // The slot's bit of h cleared, then set where P holds.
                    Some(bit) => {
                        let lop3 = Mnemonic::of(Op::LOP3, &[Mod::LUT]);
                        let npt = Operand::Reg { reg: Reg::zero(RegFile::Pred), mods: SrcMods { not: true, ..SrcMods::default() }, reuse: false };
                        self.emit(lop3, &[r(h), r(h), Operand::Imm(!(1u32 << bit)), zero(RegFile::Gpr), Operand::Hex(0xc0), npt])?;
                        let set = lop3.build(self.sm, Some((reg(RegFile::Pred, src), false)), &[r(h), r(h), Operand::Imm(1u32 << bit), zero(RegFile::Gpr), Operand::Hex(0xfc), npt]).map_err(|e| format!("{lop3}: {e}"))?;
                        self.insts.push(AllocInst::Inst(set));
                    }
                    None => {
                        let p = Operand::Reg { reg: reg(RegFile::Pred, src), mods: SrcMods { not: true, ..SrcMods::default() }, reuse: false };
                        // h = P ? 1 : 0 (SEL picks its first source when the predicate holds).
                        self.emit(Mnemonic::new(Op::SEL), &[r(h), zero(RegFile::Gpr), Operand::Imm(1), p])?;
                    }
                }
            }
            _ => return Err(format!("a {kind:?} value has no home register")),
        }
        Ok(())
    }

    /// A UR or predicate value restored from its home registers.
    fn reload_home(&mut self, kind: Kind, dst: u8, slot: usize) -> Result<(), String> {
        match kind {
            Kind::U1 | Kind::U2 => {
                for k in 0..kind.width() as u8 {
                    let h = self.home(slot + usize::from(k))?;
                    self.emit(Mnemonic::new(Op::R2UR), &[Operand::reg(reg(RegFile::Uniform, dst + k)), r(h)])?;
                }
            }
            Kind::P => {
                let h = self.home(slot)?;
                let pt = zero(RegFile::Pred);
                match self.layout.home_bits.get(slot).copied().flatten() {
                    // P = (h & bit) != 0: LOP3's predicate result.
                    Some(bit) => {
                        let npt = Operand::Reg { reg: Reg::zero(RegFile::Pred), mods: SrcMods { not: true, ..SrcMods::default() }, reuse: false };
                        let z = zero(RegFile::Gpr);
                        self.emit(Mnemonic::of(Op::LOP3, &[Mod::LUT]), &[Operand::reg(reg(RegFile::Pred, dst)), z, r(h), Operand::Imm(1u32 << bit), z, Operand::Hex(0xc0), npt])?;
                    }
                    None => self.emit(Mnemonic::of(Op::ISETP, &[Mod::NE, Mod::AND]), &[Operand::reg(reg(RegFile::Pred, dst)), pt, r(h), zero(RegFile::Gpr), pt])?,
                }
            }
            _ => return Err(format!("a {kind:?} value has no home register")),
        }
        Ok(())
    }

    /// One of regalloc2's moves.
    fn edit(&mut self, run: usize, from: Allocation, to: Allocation, kind: Kind) -> Result<(), String> {
        let (_, class) = kind.slot();
        match (from.as_reg(), to.as_reg(), from.as_stack(), to.as_stack()) {
            (Some(f), Some(t), _, _) => {
                let (f, t) = (self.phys(run, kind, f.hw_enc())?, self.phys(run, kind, t.hw_enc())?);
                self.mov(kind, t, f)
            }
            (Some(f), None, _, Some(slot)) if run == 1 && !self.layout.homes.is_empty() => {
                let f = self.phys(run, kind, f.hw_enc())?;
                self.spill_home(kind, f, slot.index())
            }
            (None, Some(t), Some(slot), _) if run == 1 && !self.layout.homes.is_empty() => {
                let t = self.phys(run, kind, t.hw_enc())?;
                self.reload_home(kind, t, slot.index())
            }
            (Some(f), None, _, Some(slot)) => {
                let f = self.phys(run, kind, f.hw_enc())?;
                let off = self.slot_base[run] + 4 * slot.index() as u32;
                self.spill(kind, f, off)
            }
            (None, Some(t), Some(slot), _) => {
                let t = self.phys(run, kind, t.hw_enc())?;
                let off = self.slot_base[run] + 4 * slot.index() as u32;
                self.reload(kind, t, off)
            }
            _ => Err(format!("an unexpected move of class {class}")),
        }
    }
}

/// Replaces the virtual registers of `inst` by their registers in `map`.
fn substitute(inst: &MInst, map: &[(u32, Reg)]) -> Result<MInst, String> {
    let find = |x: &mut Reg| -> Result<(), String> {
        if let RegNum::Virt(v) = x.num {
            let (_, p) = map.iter().find(|(m, _)| *m == v.get()).ok_or_else(|| format!("virtual register {v} of {} has no allocation", inst.form.name))?;
            x.num = p.num;
        }
        Ok(())
    };
    let mut out = inst.clone();
    find(&mut out.guard.0)?;
    for op in out.operands.iter_mut() {
        match op {
            Operand::Reg { reg, .. } => find(reg)?,
            Operand::ConstAddr { index, .. } => find(index)?,
            Operand::Mem(m) => {
                *m = m.map_regs(|mut r| find(&mut r).map(|()| r.num))?;
            }
            _ => {}
        }
    }
    Ok(out)
}

fn align16(x: u32) -> u32 {
    x.div_ceil(16) * 16
}

/// Builds the allocated function.
///
/// `runs` are the runs' results by run index (R, UR and P, UP, then the
/// further R runs); each has its spill area in the frame in that order.
pub fn rewrite(prog: &Prog, layout: &Layout, runs: Vec<RunOut>) -> Result<Allocated, String> {
    let mut slot_base = Vec::with_capacity(runs.len());
    let mut end = prog.local_bytes;
    for run in &runs {
        let base = align16(end);
        slot_base.push(base);
        // The UR/P run's slots take no frame when they live in registers.
        let slots = if run.run == 1 && !layout.homes.is_empty() { 0 } else { run.slots };
        end = base + 4 * slots;
    }
    let frame = if end == 0 { 0 } else { align16(end) };
    let mut out = Out { sm: prog.sm, layout, slot_base, insts: Vec::new(), locs: Vec::new(), gpr_top: 2, ugpr_top: 0, spill_stores: 0, spill_loads: 0 };
    // Moves of all runs in program order.
    let mut moves: Vec<(ProgPoint, usize, Allocation, Allocation, Kind)> = Vec::new();
    for run in &runs {
        moves.extend(run.moves.iter().map(|(p, f, t, k)| (*p, run.run, *f, *t, *k)));
    }
    moves.sort_by_key(|m| m.0);
    let mut next_move = 0;
    let mut debug_defs = Vec::new();
    let mut blocks = Vec::with_capacity(prog.blocks.len());
    // Per block and instruction, the wide R values it names (for the
    // recolouring).
    let mut wide: super::recolour::Wide = Vec::with_capacity(prog.blocks.len());
    for (b, block) in prog.blocks.iter().enumerate() {
        // The block's instructions and a few moves or spills: sized once
        // rather than grown by doubling (each instruction is large).
        let len = (block.end - block.start) as usize;
        out.insts.reserve_exact(len + len / 4 + 2);
        let mut block_wide = Vec::with_capacity(len + len / 4 + 2);
        if b == 0 {
            prologue(&mut out, prog, frame)?;
            // The stack pointer's set-up has no position of its own (line
            // information gives it the function's entry).
            out.locs.resize(out.insts.len(), SrcLoc::default());
        }
        for i in block.start..block.end {
            // Moves and spills around an instruction share its position.
            let loc = prog.locs.get(i as usize).copied().unwrap_or_default();
            let inst = regalloc2::Inst::new(i as usize);
            while let Some(&(p, run, f, t, k)) = moves.get(next_move) {
                if p > ProgPoint::before(inst) {
                    break;
                }
                out.edit(run, f, t, k)?;
                next_move += 1;
            }
            // This instruction's registers.
            let mut map: SmallVec<[(u32, Reg); 8]> = SmallVec::new();
            let mut kinds: SmallVec<[(u32, Kind, u8); 8]> = SmallVec::new();
            for run in &runs {
                for &(v, class, u) in run.allocs_of(i as usize) {
                    let kind = prog.kinds[v as usize];
                    let p = out.phys_in(run.run, class, kind, u)?;
                    map.push((v, reg(file_of(kind), p)));
                    kinds.push((v, kind, p));
                }
            }
            for &(named, carrier, part) in &prog.insts[i as usize].alias {
                let (_, kind, p) = kinds.iter().copied().find(|k| k.0 == carrier).ok_or("a part of a register without an allocation")?;
                map.push((named, reg(file_of(kind), p + part)));
            }
            let before = out.insts.len();
            out.locs.resize(out.insts.len(), loc);
            expand(&mut out, prog, i as usize, &map, &kinds, frame)?;
            // With -g, what this instruction defines goes with the
            // instructions it became (not with the moves around it).
            let tagged = if prog.debug { defined(&mut debug_defs, &prog.insts[i as usize], &map, loc) } else { loc };
            out.locs.resize(out.insts.len(), tagged);
            // A machine instruction's wide values (the copies of the
            // other kinds name words, and so do the instructions of an
            // expansion: a 64-bit add's IADD3 and IADD3.X each write one
            // word of the pair).
            let single = out.insts.len() == before + 1;
            let named: SmallVec<[(u8, u8); 4]> = if single && matches!(prog.insts[i as usize].kind, PKind::Inst(_)) {
                // A carrier whose 32-bit parts the instruction names is
                // named by part, not as a whole.
                let aliased = |v: u32| prog.insts[i as usize].alias.iter().any(|&(_, carrier, _)| carrier == v);
                kinds.iter().filter(|&&(v, k, _)| file_of(k) == RegFile::Gpr && k.width() > 1 && !aliased(v)).map(|&(_, k, p)| (p, k.width() as u8)).collect()
            } else {
                SmallVec::new()
            };
            block_wide.resize(before, SmallVec::new());
            block_wide.resize(out.insts.len(), named);
            while let Some(&(p, run, f, t, k)) = moves.get(next_move) {
                if p > ProgPoint::after(inst) {
                    break;
                }
                out.edit(run, f, t, k)?;
                next_move += 1;
            }
            out.locs.resize(out.insts.len(), loc);
        }
        out.locs.resize(out.insts.len(), SrcLoc::default());
        block_wide.resize(out.insts.len(), SmallVec::new());
        wide.push(block_wide);
        blocks.push(AllocBlock { insts: std::mem::take(&mut out.insts), locs: std::mem::take(&mut out.locs) });
    }
    // The calling convention fixes a device function's registers (and
    // the recolouring leaves functions with calls alone); with -g the
    // debug records name the registers as allocated.
    if prog.kernel && !prog.debug {
        if let Some(top) = super::recolour::recolour(&mut blocks, &wide) {
            out.gpr_top = top;
        }
    }
    let blocks = drop_forwarders(blocks);
    Ok(Allocated {
        name: prog.name.clone(),
        sm: prog.sm,
        blocks,
        gpr_count: out.gpr_top,
        ugpr_count: out.ugpr_top,
        frame_bytes: frame,
        spill_stores: out.spill_stores,
        spill_loads: out.spill_loads,
        register_limit: None,
        declared_registers: None,
        constant2: Vec::new(),
        debug_defs,
        register_naming: None,
    })
}

/// Records the registers instruction `inst` defines (its definitions and
/// the parts of them its machine instruction names) in `defs`; `loc`
/// tagged with them ([`SrcLoc::defs`]).
fn defined(defs: &mut Vec<SmallVec<[(u32, Reg); 2]>>, inst: &PInst, map: &[(u32, Reg)], loc: SrcLoc) -> SrcLoc {
    let is_def = |v: u32| inst.defs().any(|o| o.vreg == v);
    let group: SmallVec<[(u32, Reg); 2]> = map.iter().copied().filter(|&(v, _)| is_def(v) || inst.alias.iter().any(|&(named, carrier, _)| named == v && is_def(carrier))).collect();
    if group.is_empty() {
        return loc;
    }
    defs.push(group);
    SrcLoc { defs: defs.len() as u32, ..loc }
}

/// The stack pointer's set-up: loaded in a kernel, lowered by the frame.
fn prologue(out: &mut Out, prog: &Prog, frame: u32) -> Result<(), String> {
    if prog.kernel {
        let off = stack_offset(prog.sm).ok_or("no stack pointer offset for this SM")?;
        if prog.sm.number < 90 {
            out.emit(Mnemonic::new(Op::MOV), &[r(1), Operand::CBank { bank: 0, offset: off as u16, mods: SrcMods::default() }])?;
        } else {
            out.emit(Mnemonic::new(Op::LDC), &[r(1), Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: off as i32 }])?;
        }
    }
    if frame > 0 {
        adjust_sp(out, -(frame as i32))?;
    }
    Ok(())
}

fn adjust_sp(out: &mut Out, by: i32) -> Result<(), String> {
    let pt = zero(RegFile::Pred);
    out.emit(Mnemonic::new(Op::IADD3), &[r(1), pt, pt, r(1), Operand::Imm(by as u32), zero(RegFile::Gpr)])
}

/// One regalloc2 instruction as machine instructions.
fn expand(out: &mut Out, prog: &Prog, i: usize, map: &[(u32, Reg)], kinds: &[(u32, Kind, u8)], frame: u32) -> Result<(), String> {
    let inst = &prog.insts[i];
    let at = |v: u32| kinds.iter().find(|k| k.0 == v).map(|k| (k.1, k.2)).ok_or_else(|| format!("virtual register {v} has no allocation"));
    let def = || inst.defs().next().map(|o| o.vreg).ok_or("a pseudo instruction without a result");
    match &inst.kind {
        PKind::Inst(m) => {
            let s = substitute(m, map)?;
            out.insts.push(AllocInst::Inst(s));
        }
        PKind::Branch { inst: m, target } => out.insts.push(AllocInst::Branch { inst: substitute(m, map)?, target: *target as usize }),
        PKind::CondBranch { first, taken, second, other } => {
            out.insts.push(AllocInst::Branch { inst: substitute(first, map)?, target: *taken as usize });
            out.insts.push(AllocInst::Branch { inst: substitute(second, map)?, target: *other as usize });
        }
        PKind::Call { inst: m, callee, external: false } => {
            let ra = out.build(Mnemonic::new(Op::MOV), &[r(abi::RETURN_ADDRESS), Operand::Imm(0)])?;
            out.insts.push(AllocInst::ReturnAddress { inst: ra });
            out.emit(Mnemonic::new(Op::MOV), &[r(abi::RETURN_ADDRESS + 1), zero(RegFile::Gpr)])?;
            out.note(Kind::R2, abi::RETURN_ADDRESS);
            out.insts.push(AllocInst::Call { inst: substitute(m, map)?, callee: *callee, external: false });
        }
        PKind::Call { inst: m, callee, external: true } => {
            // Emission loads the callee's address into the target pair and
            // the return address into R20:R21 just before the call; both
            // pairs are free there (the call clobbers every register).
            out.note(Kind::R2, abi::EXTERN_TARGET);
            out.note(Kind::R2, abi::EXTERN_RETURN_ADDRESS);
            out.insts.push(AllocInst::Call { inst: substitute(m, map)?, callee: *callee, external: true });
        }
        PKind::Ret(m) => {
            if frame > 0 {
                adjust_sp(out, frame as i32)?;
            }
            let mut s = substitute(m, map)?;
            for op in s.operands.iter_mut() {
                if let Operand::Reg { reg: x, .. } = op {
                    if x.file == RegFile::Gpr {
                        *x = reg(RegFile::Gpr, abi::RETURN_ADDRESS);
                        break;
                    }
                }
            }
            out.insts.push(AllocInst::Inst(s));
        }
        PKind::Params => {}
        PKind::Copy => {
            let (dk, d) = at(def()?)?;
            let src = inst.uses().next().ok_or("a copy without a source")?.vreg;
            let (sk, s) = at(src)?;
            if dk.width() != sk.width() {
                return Err("a copy between values of different widths".into());
            }
            for k in 0..dk.width() as u8 {
                out.mov_word(reg(file_of(dk), d + k), reg(file_of(sk), s + k))?;
            }
        }
        PKind::Extract { part } => {
            let (dk, d) = at(def()?)?;
            let src = inst.uses().next().ok_or("an extract without a source")?.vreg;
            let (sk, s) = at(src)?;
            if u32::from(*part) + dk.width() > sk.width() {
                return Err(format!("part {part} of a {sk:?} value"));
            }
            for k in 0..dk.width() as u8 {
                out.mov_word(reg(file_of(dk), d + k), reg(file_of(sk), s + part + k))?;
            }
        }
        PKind::Concat => {
            let (dk, d) = at(def()?)?;
            let mut words: SmallVec<[(Reg, Reg); 4]> = SmallVec::new();
            for u in inst.uses() {
                let (sk, s) = at(u.vreg)?;
                for k in 0..sk.width() as u8 {
                    if words.len() as u32 >= dk.width() {
                        return Err("a concatenation wider than its result".into());
                    }
                    words.push((reg(file_of(dk), d + words.len() as u8), reg(file_of(sk), s + k)));
                }
            }
            out.parallel_words(words)?;
        }
        PKind::SymAddr { global, offset, function } => {
            let (dk, d) = at(def()?)?;
            if file_of(dk) != RegFile::Gpr {
                return Err("a variable's address in a uniform register".into());
            }
            for k in 0..dk.width().min(2) as u8 {
                let m = out.build(Mnemonic::new(Op::MOV), &[r(d + k), Operand::Imm(0)])?;
                out.insts.push(AllocInst::SymAddr { inst: m, global: *global, offset: *offset, high: k == 1, function: *function });
            }
        }
    }
    Ok(())
}

/// The destination of a block that is nothing but an unconditional branch.
fn forwards(block: &AllocBlock) -> Option<usize> {
    match block.insts.as_slice() {
        [AllocInst::Branch { inst, target }] if inst.guard.0.num == RegNum::Zero && !inst.guard.1 => Some(*target),
        _ => None,
    }
}

/// Removes the blocks (but the entry) that only branch elsewhere (edge
/// blocks that got no moves), sending their predecessors straight on.
fn drop_forwarders(blocks: Vec<AllocBlock>) -> Vec<AllocBlock> {
    let n = blocks.len();
    let final_target = |mut b: usize| {
        for _ in 0..n {
            match forwards(&blocks[b]) {
                Some(t) if b != 0 && t != b => b = t,
                _ => break,
            }
        }
        b
    };
    let dest: Vec<usize> = (0..n).map(final_target).collect();
    let keep: Vec<bool> = (0..n).map(|b| b == 0 || forwards(&blocks[b]).is_none() || dest[b] == b).collect();
    let mut new_index = vec![0usize; n];
    let mut k = 0;
    for b in 0..n {
        new_index[b] = k;
        if keep[b] {
            k += 1;
        }
    }
    blocks
        .into_iter()
        .enumerate()
        .filter(|(b, _)| keep[*b])
        .map(|(_, mut block)| {
            for i in &mut block.insts {
                if let AllocInst::Branch { target, .. } = i {
                    *target = new_index[dest[*target]];
                }
            }
            block
        })
        .collect()
}
