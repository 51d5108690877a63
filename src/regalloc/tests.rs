//! Tests of the register allocator on small hand-built machine functions
//! (the checker runs in every one of them).

use super::*;
use crate::ir::Type;
use crate::isa::inst::Inst as MInst;
use crate::isa::operand::{Mem, Operand, Reg, RegFile, RegNum};
use crate::select::{MBlock, MachBlock, MachFunction, MachInst, MachKind, VReg};
use smallvec::SmallVec;

const SM: Sm = Sm::new(80);

fn file(ty: Type) -> RegFile {
    match ty.file() {
        crate::ir::RegFile::R => RegFile::Gpr,
        crate::ir::RegFile::Ur => RegFile::Uniform,
        crate::ir::RegFile::P => RegFile::Pred,
        crate::ir::RegFile::Up => RegFile::UniformPred,
    }
}

/// A function under construction: virtual registers and blocks.
struct F {
    vregs: Vec<Type>,
    blocks: Vec<MachBlock>,
    kernel: bool,
    local_bytes: u32,
}

impl F {
    fn new() -> F {
        F { vregs: Vec::new(), blocks: vec![MachBlock::default()], kernel: true, local_bytes: 0 }
    }
    fn v(&mut self, ty: Type) -> u32 {
        self.vregs.push(ty);
        (self.vregs.len() - 1) as u32
    }
    fn reg(&self, v: u32) -> Operand {
        Operand::reg(Reg { file: file(self.vregs[v as usize]), num: RegNum::virt(v) })
    }
    fn block(&mut self) -> usize {
        self.blocks.push(MachBlock::default());
        self.blocks.len() - 1
    }
    /// A machine instruction in block `b` defining `defs` (its uses are
    /// the other virtual registers of its operands and guard).
    fn inst(&mut self, b: usize, name: &str, guard: Option<u32>, ops: &[Operand], defs: &[u32]) {
        let g = guard.map(|p| (Reg { file: RegFile::Pred, num: RegNum::virt(p) }, false));
        let inst = MInst::build(SM, name, g, ops).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut uses: SmallVec<[VReg; 4]> = SmallVec::new();
        let mut all = SmallVec::<[u32; 4]>::new();
        for op in ops {
            super::prep::operand_virts(op, &mut all);
        }
        all.extend(guard);
        for u in all {
            if !defs.contains(&u) && !uses.contains(&VReg(u)) {
                uses.push(VReg(u));
            }
        }
        self.blocks[b].insts.push(MachInst { kind: MachKind::Inst(inst), defs: defs.iter().map(|d| VReg(*d)).collect(), uses, tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
    }
    fn pseudo(&mut self, b: usize, kind: MachKind, defs: &[u32], uses: &[u32]) {
        self.blocks[b].insts.push(MachInst { kind, defs: defs.iter().map(|d| VReg(*d)).collect(), uses: uses.iter().map(|u| VReg(*u)).collect(), tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
    }
    fn branch(&mut self, b: usize, guard: Option<u32>, target: usize, args: &[u32]) {
        let g = guard.map(|p| (Reg { file: RegFile::Pred, num: RegNum::virt(p) }, false));
        let inst = MInst::build(SM, "BRA", g, &[Operand::Target(0)]).expect("BRA");
        let uses = guard.iter().map(|p| VReg(*p)).collect();
        self.blocks[b].insts.push(MachInst { kind: MachKind::Branch { inst, target: MBlock(target as u32) }, defs: SmallVec::new(), uses, tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
        self.blocks[b].succs.push(MBlock(target as u32));
        self.blocks[b].succ_args.push(args.iter().map(|a| VReg(*a)).collect());
    }
    fn exit(&mut self, b: usize) {
        self.inst(b, "EXIT", None, &[], &[]);
    }
    fn finish(self) -> MachFunction {
        MachFunction { name: "t".into(), sm: SM, blocks: self.blocks, vregs: self.vregs, kernel: self.kernel, local_bytes: self.local_bytes, constant2: Vec::new(), register_names: Vec::new() }
    }
}

fn cbank(offset: u16) -> Operand {
    Operand::CBank { bank: 0, offset, mods: Default::default() }
}
fn imm(x: u32) -> Operand {
    Operand::Imm(x)
}
fn rz() -> Operand {
    Operand::reg(Reg::zero(RegFile::Gpr))
}
fn pt() -> Operand {
    Operand::reg(Reg::zero(RegFile::Pred))
}
fn not_pt() -> Operand {
    Operand::Reg { reg: Reg::zero(RegFile::Pred), mods: crate::isa::operand::SrcMods { not: true, ..Default::default() }, reuse: false }
}

fn alloc(f: &MachFunction, max: Option<u32>) -> Allocated {
    let a = allocate(f, &RegallocOptions { max_registers: max, check: true }).unwrap_or_else(|e| panic!("{e}"));
    for b in &a.blocks {
        for i in &b.insts {
            let inst = i.inst();
            assert!(inst.encode(SM).is_ok(), "{} does not encode", inst.text(SM, 0));
        }
    }
    a
}

fn lines(a: &Allocated) -> Vec<String> {
    a.text().lines().map(|l| l.trim().to_string()).collect()
}

/// A global store of `v` at `[addr.64 + off]` (the descriptor `desc`).
fn store(f: &mut F, b: usize, addr: u32, desc: u32, off: i32, v: u32) {
    let mem = Operand::Mem(Mem::new(RegNum::virt(addr), off).with_desc(RegNum::virt(desc)));
    let val = f.reg(v);
    f.inst(b, "STG.E", None, &[mem, val], &[]);
}

/// Descriptor and output address loaded in block 0.
fn prologue(f: &mut F) -> (u32, u32) {
    let desc = f.v(Type::UR64);
    let out = f.v(Type::R64);
    let (d, o) = (f.reg(desc), f.reg(out));
    f.inst(0, "ULDC.64", None, &[d, cbank(0x118)], &[desc]);
    f.inst(0, "LDC.64", None, &[o, Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: 0x160 }], &[out]);
    (desc, out)
}

#[test]
fn straight_line_kernel_gets_the_stack_pointer_and_few_registers() {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let x = f.v(Type::R32);
    let y = f.v(Type::R32);
    let (rx, ry) = (f.reg(x), f.reg(y));
    f.inst(0, "MOV", None, &[rx, cbank(0x168)], &[x]);
    f.inst(0, "IADD3", None, &[ry, rx, imm(5), rz()], &[y]);
    store(&mut f, 0, out, desc, 0, y);
    f.exit(0);
    let a = alloc(&f.finish(), None);
    let l = lines(&a);
    assert_eq!(l[2], "MOV R1, c[0x0][0x28]", "{}", a.text());
    // out (pair), x and y: y may take x's register; R1 counts.
    assert!(a.gpr_count <= 5, "{}", a.text());
    assert_eq!((a.frame_bytes, a.spill_stores, a.spill_loads), (0, 0, 0));
    assert!(a.ugpr_count <= 4, "{}", a.ugpr_count);
}

#[test]
fn extract_and_concat_are_done_in_place() {
    // A 64-bit add of two pairs through their halves: no MOV at all.
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let a = f.v(Type::R64);
    let ra = f.reg(a);
    f.inst(0, "LDC.64", None, &[ra, Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: 0x168 }], &[a]);
    let (lo, hi, slo, shi, c, sum) = (f.v(Type::R32), f.v(Type::R32), f.v(Type::R32), f.v(Type::R32), f.v(Type::P), f.v(Type::R64));
    f.pseudo(0, MachKind::Extract { part: 0 }, &[lo], &[a]);
    f.pseudo(0, MachKind::Extract { part: 1 }, &[hi], &[a]);
    let (rlo, rhi, rslo, rshi, rc) = (f.reg(lo), f.reg(hi), f.reg(slo), f.reg(shi), f.reg(c));
    f.inst(0, "IADD3", None, &[rslo, rc, pt(), rlo, imm(1), rz()], &[slo, c]);
    f.inst(0, "IADD3.X", None, &[rshi, pt(), pt(), rhi, rz(), rz(), rc, not_pt()], &[shi]);
    f.pseudo(0, MachKind::Concat, &[sum], &[slo, shi]);
    let mem = Operand::Mem(Mem::new(RegNum::virt(out), 0).with_desc(RegNum::virt(desc)));
    let rsum = f.reg(sum);
    f.inst(0, "STG.E.64", None, &[mem, rsum], &[]);
    f.exit(0);
    let al = alloc(&f.finish(), None);
    let t = al.text();
    assert!(!t.contains("MOV R") || t.matches("MOV R").count() == 1, "only the stack pointer's MOV: {t}");
    // The sum's halves are written where the store reads its pair.
    let l = lines(&al);
    let add = l.iter().find(|x| x.starts_with("IADD3 ")).expect("IADD3");
    let addx = l.iter().find(|x| x.starts_with("IADD3.X")).expect("IADD3.X");
    let stg = l.iter().find(|x| x.starts_with("STG.E.64")).expect("STG");
    let dst = |s: &str| s.split_whitespace().nth(1).unwrap_or("").trim_end_matches(',').to_string();
    let lo_reg: u32 = dst(add).trim_start_matches('R').parse().expect("R");
    assert_eq!(dst(addx), format!("R{}", lo_reg + 1), "{t}");
    assert_eq!(lo_reg % 2, 0, "{t}");
    assert!(stg.ends_with(&format!("R{lo_reg}")), "{t}");
}

#[test]
fn a_guarded_result_keeps_the_register_of_its_prior_value() {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let (x, p, y) = (f.v(Type::R32), f.v(Type::P), f.v(Type::R32));
    let (rx, rp, ry) = (f.reg(x), f.reg(p), f.reg(y));
    f.inst(0, "MOV", None, &[rx, cbank(0x168)], &[x]);
    f.inst(0, "ISETP.LT.U32.AND", None, &[rp, pt(), rx, cbank(0x16c), pt()], &[p]);
    f.inst(0, "IADD3", Some(p), &[ry, rx, imm(7), rz()], &[y]);
    f.blocks[0].insts.last_mut().expect("inst").tied.push((0, 0));
    store(&mut f, 0, out, desc, 0, y);
    store(&mut f, 0, out, desc, 4, x);
    f.exit(0);
    let a = alloc(&f.finish(), None);
    let l = lines(&a);
    // x stays live after the guarded add: it is copied first, and the add
    // writes the copy's register.
    let add = l.iter().find(|s| s.starts_with("@P0 IADD3")).unwrap_or_else(|| panic!("{}", a.text()));
    let parts: Vec<&str> = add.split([' ', ',']).filter(|s| !s.is_empty()).collect();
    let (dst, src) = (parts[2], parts[3]);
    assert_eq!(dst, src, "{}", a.text());
    assert!(l.iter().any(|s| s == &format!("MOV {dst}, R0") || s.starts_with(&format!("MOV {dst}, "))), "{}", a.text());
}

/// A counted loop: `i` and `acc` as block parameters of the header.
fn counted_loop(pairs: bool) -> MachFunction {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let head = f.block();
    let exit = f.block();
    let ty = if pairs { Type::R64 } else { Type::R32 };
    let (i0, a0) = (f.v(Type::R32), f.v(ty));
    let (ri0, ra0) = (f.reg(i0), f.reg(a0));
    f.inst(0, "MOV", None, &[ri0, rz()], &[i0]);
    if pairs {
        f.inst(0, "LDC.64", None, &[ra0, Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: 0x170 }], &[a0]);
    } else {
        f.inst(0, "MOV", None, &[ra0, rz()], &[a0]);
    }
    f.branch(0, None, head, &[i0, a0]);
    let (i, acc, i1, acc1, p) = (f.v(Type::R32), f.v(ty), f.v(Type::R32), f.v(ty), f.v(Type::P));
    f.blocks[head].params = vec![VReg(i), VReg(acc)];
    let (ri, racc, ri1, racc1, rp) = (f.reg(i), f.reg(acc), f.reg(i1), f.reg(acc1), f.reg(p));
    if pairs {
        f.inst(head, "DADD", None, &[racc1, racc, racc], &[acc1]);
    } else {
        f.inst(head, "IADD3", None, &[racc1, racc, ri, rz()], &[acc1]);
    }
    f.inst(head, "IADD3", None, &[ri1, ri, imm(1), rz()], &[i1]);
    f.inst(head, "ISETP.LT.U32.AND", None, &[rp, pt(), ri1, cbank(0x168), pt()], &[p]);
    f.branch(head, Some(p), head, &[i1, acc1]);
    f.branch(head, None, exit, &[]);
    if pairs {
        let mem = Operand::Mem(Mem::new(RegNum::virt(out), 0).with_desc(RegNum::virt(desc)));
        f.inst(exit, "STG.E.64", None, &[mem, racc1], &[]);
    } else {
        store(&mut f, exit, out, desc, 0, acc1);
    }
    f.exit(exit);
    f.finish()
}

#[test]
fn a_loop_with_block_parameters_splits_its_back_edge() {
    let a = alloc(&counted_loop(false), None);
    let t = a.text();
    // The back edge is critical (the header has two predecessors and
    // two successors): the moves of the parameters sit in an edge block
    // that branches back to the header.
    let header = a.blocks.iter().position(|b| b.insts.iter().any(|i| i.inst().text(SM, 0).starts_with("ISETP"))).expect("header");
    let back = a.blocks.iter().enumerate().filter(|(k, _)| *k != header).find(|(_, b)| matches!(b.insts.last(), Some(AllocInst::Branch { target, .. }) if *target == header));
    assert!(back.is_some(), "{t}");
    assert!(a.gpr_count <= 8, "{t}");
}

#[test]
fn pairs_as_block_parameters_move_as_pairs() {
    let a = alloc(&counted_loop(true), None);
    let t = a.text();
    assert!(t.contains("DADD"), "{t}");
    // The accumulator stays in one pair: the add is in place and the
    // loop needs no move.
    let dadd = t.lines().find(|l| l.contains("DADD")).expect("DADD").trim().to_string();
    let regs: Vec<&str> = dadd.split([' ', ',']).filter(|s| s.starts_with('R')).collect();
    assert_eq!(regs[0], regs[1], "{t}");
    assert!(!t.lines().any(|l| l.trim().starts_with("MOV R") && !l.contains("R1, c[") && !l.contains(", RZ")), "{t}");
}

/// A kernel keeping `n` values live at once, then summing them.
fn pressure(n: usize) -> MachFunction {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let vals: Vec<u32> = (0..n).map(|_| f.v(Type::R32)).collect();
    for (k, &v) in vals.iter().enumerate() {
        let r = f.reg(v);
        f.inst(0, "MOV", None, &[r, cbank(0x170 + 4 * k as u16)], &[v]);
    }
    let mut acc = vals[0];
    for &v in &vals[1..] {
        let s = f.v(Type::R32);
        let (rs, ra, rv) = (f.reg(s), f.reg(acc), f.reg(v));
        f.inst(0, "IADD3", None, &[rs, ra, rv, rz()], &[s]);
        acc = s;
    }
    store(&mut f, 0, out, desc, 0, acc);
    f.exit(0);
    f.finish()
}

#[test]
fn pressure_sets_the_region_size() {
    let a = alloc(&pressure(40), None);
    // 40 values live, the output pair, R1: no spill, about 44 registers.
    assert_eq!(a.spill_stores, 0, "{}", a.text());
    assert!((43..=46).contains(&a.gpr_count), "{}", a.gpr_count);
}

#[test]
fn max_registers_forces_spills_to_the_frame() {
    let a = alloc(&pressure(40), Some(24));
    let t = a.text();
    assert!(a.gpr_count <= 24, "{}", a.gpr_count);
    assert!(a.spill_stores > 0 && a.spill_loads > 0, "{t}");
    assert!(a.frame_bytes >= a.spill_stores.min(4) && a.frame_bytes % 16 == 0, "{}", a.frame_bytes);
    assert!(t.contains(&format!("IADD3 R1, R1, -{:#x}, RZ", a.frame_bytes)), "{t}");
    assert!(t.contains("STL [R1") && t.contains("LDL R"), "{t}");
}

#[test]
fn more_than_sixty_four_singles_live_take_registers_past_the_first_run() {
    // n values live at once, the output pair and R1: n + 3 registers at
    // least, and a few more for each run's room; no spill.
    for n in [80, 200] {
        let a = alloc(&pressure(n), None);
        assert_eq!((a.spill_stores, a.spill_loads, a.frame_bytes), (0, 0, 0), "{}", a.text());
        assert!((n as u32 + 3..=n as u32 + 12).contains(&a.gpr_count), "{n}: {}", a.gpr_count);
    }
}

#[test]
fn more_than_sixty_four_singles_under_a_register_limit_spill() {
    let a = alloc(&pressure(80), Some(64));
    assert!(a.gpr_count <= 64, "{}", a.gpr_count);
    assert!(a.spill_stores > 0 && a.spill_loads > 0, "{}", a.text());
}

/// A loop carrying `n` values through its header's parameters, each
/// incremented per iteration, then summed and stored.
fn wide_loop(n: usize) -> MachFunction {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let head = f.block();
    let exit = f.block();
    let init: Vec<u32> = (0..n).map(|_| f.v(Type::R32)).collect();
    for (k, &v) in init.iter().enumerate() {
        let r = f.reg(v);
        f.inst(0, "MOV", None, &[r, cbank(0x170 + 4 * k as u16)], &[v]);
    }
    f.branch(0, None, head, &init);
    let params: Vec<u32> = (0..n).map(|_| f.v(Type::R32)).collect();
    f.blocks[head].params = params.iter().map(|v| VReg(*v)).collect();
    let mut next = Vec::with_capacity(n);
    for (k, &v) in params.iter().enumerate() {
        let w = f.v(Type::R32);
        let (rw, rv) = (f.reg(w), f.reg(v));
        f.inst(head, "IADD3", None, &[rw, rv, imm(k as u32 + 1), rz()], &[w]);
        next.push(w);
    }
    let p = f.v(Type::P);
    let (rp, r0) = (f.reg(p), f.reg(next[0]));
    f.inst(head, "ISETP.LT.U32.AND", None, &[rp, pt(), r0, cbank(0x168), pt()], &[p]);
    f.branch(head, Some(p), head, &next);
    f.branch(head, None, exit, &[]);
    let mut acc = next[0];
    for &v in &next[1..] {
        let s = f.v(Type::R32);
        let (rs, ra, rv) = (f.reg(s), f.reg(acc), f.reg(v));
        f.inst(exit, "IADD3", None, &[rs, ra, rv, rz()], &[s]);
        acc = s;
    }
    store(&mut f, exit, out, desc, 0, acc);
    f.exit(exit);
    f.finish()
}

#[test]
fn block_parameters_past_sixty_four_singles_stay_in_registers() {
    let a = alloc(&wide_loop(100), None);
    let t = a.text();
    assert_eq!((a.spill_stores, a.spill_loads), (0, 0), "{t}");
    // 100 values (parameters and their increments share registers), the
    // output pair, R1, and room per run.
    assert!((103..=115).contains(&a.gpr_count), "{}", a.gpr_count);
    // Each increment is in place: the loop moves nothing.
    assert!(!t.lines().any(|l| l.trim().starts_with("MOV R") && !l.contains("c[")), "{t}");
}

#[test]
fn local_variables_come_before_the_spill_slots() {
    let mut f = F::new();
    f.local_bytes = 20;
    let (desc, out) = prologue(&mut f);
    let x = f.v(Type::R32);
    let rx = f.reg(x);
    f.inst(0, "MOV", None, &[rx, cbank(0x168)], &[x]);
    store(&mut f, 0, out, desc, 0, x);
    f.exit(0);
    let a = alloc(&f.finish(), None);
    assert_eq!(a.frame_bytes, 32, "{}", a.text());
    assert!(a.text().contains("IADD3 R1, R1, -0x20, RZ"), "{}", a.text());
}

/// A kernel that calls function 1 with `x` (R32) and `y` (R64), gets an
/// R32 back and stores it; `p` is live across the call when `keep_pred`.
fn caller(keep_pred: bool) -> MachFunction {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let (x, y, r, p) = (f.v(Type::R32), f.v(Type::R64), f.v(Type::R32), f.v(Type::P));
    let (rx, ry, rp) = (f.reg(x), f.reg(y), f.reg(p));
    f.inst(0, "MOV", None, &[rx, cbank(0x168)], &[x]);
    f.inst(0, "LDC.64", None, &[ry, Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: 0x170 }], &[y]);
    f.inst(0, "ISETP.LT.U32.AND", None, &[rp, pt(), rx, cbank(0x16c), pt()], &[p]);
    let call = MInst::build(SM, "CALL.REL.NOINC", None, &[Operand::Target(0)]).expect("CALL");
    f.blocks[0].insts.push(MachInst { kind: MachKind::Call { inst: call, callee: 1, external: false }, defs: [VReg(r)].into_iter().collect(), uses: [VReg(x), VReg(y)].into_iter().collect(), tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
    if keep_pred {
        f.inst(0, "IADD3", Some(p), &[Operand::reg(Reg { file: RegFile::Gpr, num: RegNum::virt(r) }), rx, imm(1), rz()], &[]);
    }
    store(&mut f, 0, out, desc, 0, r);
    f.exit(0);
    f.finish()
}

#[test]
fn calls_pass_words_in_the_convention_registers() {
    let a = alloc(&caller(false), None);
    let t = a.text();
    let l = lines(&a);
    let call = l.iter().position(|s| s.starts_with("CALL.REL.NOINC func1")).unwrap_or_else(|| panic!("{t}"));
    assert_eq!(l[call - 2], "MOV R2, <return address>", "{t}");
    assert_eq!(l[call - 1], "MOV R3, RZ", "{t}");
    // x in R4, y's halves in R5 and R6 (written before the call), result
    // read from R4 afterwards.
    let before = l[..call].join("\n");
    assert!(before.contains("R4, c[0x0][0x168]") || before.contains("MOV R4, R"), "{t}");
    assert!(before.contains("MOV R5, R") && before.contains("MOV R6, R"), "{t}");
    let after = l[call + 1..].join("\n");
    assert!(after.contains("R4") , "{t}");
    // The descriptor lives across the call: spilled through a scratch R.
    assert!(a.spill_stores >= 8 && t.contains("MOV R") && t.contains("R2UR UR"), "{t}");
}

#[test]
fn a_predicate_live_across_a_call_spills_through_an_r_register() {
    let a = alloc(&caller(true), None);
    let t = a.text();
    assert!(t.contains("SEL R") && t.contains(", RZ, 0x1, !P"), "{t}");
    assert!(t.contains("ISETP.NE.AND P"), "{t}");
}

#[test]
fn a_device_function_receives_words_and_returns_through_r2() {
    let mut f = F::new();
    f.kernel = false;
    let entry = 0;
    let (x, y, s) = (f.v(Type::R32), f.v(Type::R64), f.v(Type::R32));
    f.blocks[entry].params = vec![VReg(x), VReg(y)];
    let lo = f.v(Type::R32);
    f.pseudo(0, MachKind::Extract { part: 0 }, &[lo], &[y]);
    let (rs, rx, rlo) = (f.reg(s), f.reg(x), f.reg(lo));
    f.inst(0, "IADD3", None, &[rs, rx, rlo, rz()], &[s]);
    let ret = MInst::build(SM, "RET.REL.NODEC", None, &[Operand::reg(Reg::gpr(20)), Operand::Target(0)]).expect("RET");
    f.blocks[0].insts.push(MachInst { kind: MachKind::Inst(ret), defs: SmallVec::new(), uses: [VReg(s)].into_iter().collect(), tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() });
    let a = alloc(&f.finish(), None);
    let t = a.text();
    // x arrives in R4, y in R5:R6; the sum leaves in R4; no stack pointer load.
    assert!(!t.contains("c[0x0][0x28]"), "{t}");
    assert!(t.contains("IADD3 R4, R4, R5, RZ") || t.contains("R5"), "{t}");
    assert!(t.lines().any(|l| l.trim() == "RET.REL.NODEC R2 0x10"), "{t}");
    let ret_at = t.lines().position(|l| l.contains("RET")).expect("RET");
    let before: Vec<&str> = t.lines().take(ret_at).collect();
    assert!(before.iter().any(|l| l.trim().starts_with("IADD3 R4,") || l.trim().starts_with("MOV R4,")), "{t}");
}

#[test]
fn errors_name_the_function() {
    let mut f = F::new();
    let x = f.v(Type::R32);
    f.blocks[0].succs.push(MBlock(7));
    f.blocks[0].succ_args.push(vec![VReg(x)]);
    let e = allocate(&f.finish(), &RegallocOptions::default()).expect_err("bad successor");
    assert_eq!(e.function, "t");
    assert!(e.to_string().contains("register allocation of t"), "{e}");
}

/// Twelve predicates live at once, five more than P0–P6: the ones
/// regalloc2 spills live in bits of one R register (cleared, then set
/// under the predicate; read back by LOP3's predicate result), not in
/// the frame and not in a register each.
#[test]
fn spilled_predicates_share_one_home_register() {
    let mut f = F::new();
    let (desc, out) = prologue(&mut f);
    let x = f.v(Type::R32);
    let rx = f.reg(x);
    f.inst(0, "LDC", None, &[rx.clone(), Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Gpr), offset: 0x168 }], &[x]);
    let preds: Vec<u32> = (0..12).map(|_| f.v(Type::P)).collect();
    for (k, &p) in preds.iter().enumerate() {
        let rp = f.reg(p);
        f.inst(0, "ISETP.GT.U32.AND", None, &[rp, pt(), rx.clone(), imm(k as u32), pt()], &[p]);
    }
    for (k, &p) in preds.iter().enumerate() {
        let mem = Operand::Mem(Mem::new(RegNum::virt(out), 4 * k as i32).with_desc(RegNum::virt(desc)));
        f.inst(0, "STG.E", Some(p), &[mem, rx.clone()], &[]);
    }
    f.exit(0);
    let a = alloc(&f.finish(), None);
    let t = a.text();
    assert_eq!((a.frame_bytes, a.spill_stores, a.spill_loads), (0, 0, 0), "{t}");
    // Each spilled predicate: its bit cleared, then set where it holds.
    let clears: Vec<&str> = t.lines().map(str::trim).filter(|l| l.starts_with("LOP3.LUT R") && l.ends_with(", RZ, 0xc0, !PT")).collect();
    let sets: Vec<&str> = t.lines().map(str::trim).filter(|l| l.starts_with("@P") && l.contains("LOP3.LUT R") && l.ends_with(", RZ, 0xfc, !PT")).collect();
    let reloads: Vec<&str> = t.lines().map(str::trim).filter(|l| l.starts_with("LOP3.LUT P")).collect();
    assert!(clears.len() >= 5 && clears.len() == sets.len() && reloads.len() >= 5, "{t}");
    // All in one home register, each slot its own bit.
    let home = |l: &str| l.split([' ', ',']).find(|w| w.starts_with('R')).map(str::to_string);
    let homes: std::collections::BTreeSet<Option<String>> = clears.iter().chain(&sets).map(|l| home(l.trim_start_matches(|c| c != 'L'))).collect();
    assert_eq!(homes.len(), 1, "{t}");
    let bits: std::collections::BTreeSet<&str> = sets.iter().filter_map(|l| l.split(", ").nth(2)).collect();
    assert_eq!(bits.len(), sets.len(), "{t}");
    assert!(!t.contains("SEL R"), "{t}");
}

#[test]
fn launch_bounds_give_ptxas_register_limits() {
    use crate::ir::function::LaunchBounds;
    let sm80 = Sm::new(80);
    let bounds = |threads: Option<u32>, ctas: Option<u32>, regs: Option<u32>| LaunchBounds {
        max_ntid: threads.map(|t| [t, 1, 1]),
        req_ntid: None,
        min_ctas_per_sm: ctas,
        max_regs: regs,
    };
    // Values from ptxas 13.5 -v on a kernel needing more (the doc comment's).
    assert_eq!(launch_register_limit(&bounds(None, None, None), sm80), None);
    assert_eq!(launch_register_limit(&bounds(None, None, Some(40)), sm80), Some(40));
    assert_eq!(launch_register_limit(&bounds(Some(1024), Some(1), None), sm80), Some(64));
    assert_eq!(launch_register_limit(&bounds(Some(256), Some(3), None), sm80), Some(80));
    assert_eq!(launch_register_limit(&bounds(Some(640), None, None), sm80), Some(96));
    assert_eq!(launch_register_limit(&bounds(Some(128), Some(16), None), sm80), Some(32));
    // sm_120 holds 1536 threads: 16 CTAs of 128 cannot be resident, and the
    // hint is dropped (ptxas used 96 registers there).
    assert_eq!(launch_register_limit(&bounds(Some(128), Some(16), None), Sm::new(120)), Some(255));
    // Whole warps: 100 threads take 4 warps' registers.
    assert_eq!(launch_register_limit(&bounds(Some(100), Some(8), None), sm80), Some(64));
    assert_eq!(launch_register_limit(&bounds(Some(1024), Some(1), Some(40)), sm80), Some(40));
}
