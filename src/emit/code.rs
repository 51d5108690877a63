//! One function's code, from allocated blocks to instruction words:
//! variable addresses materialised, branches to the next block dropped,
//! the blocks scheduled ([`crate::sched`]), branch targets resolved, the
//! end marker ptxas puts after every function appended, and every
//! instruction encoded.
//!
//! Until targets are resolved, a `BRA`'s target operand holds the index of
//! the block it goes to (selection produces block-targeted control flow
//! only through [`AllocInst::Branch`]).
//!
//! Calls: each function becomes a [`Part`] on its own (its branches are
//! relative, so it can go anywhere); [`link`] places a kernel's part and
//! those of the device functions it reaches in one section, as ptxas does
//! without `-c`, and patches what depends on where things are: `CALL`
//! targets, return addresses (`MOV R2, <offset of the return point>`),
//! and the `RET`s' base (the section start).

use super::variables::{SharedWindow, Variables};
use crate::ir::{self, SrcLoc};
use crate::isa::inst::Inst;
use crate::isa::op::{Mnemonic, Mod, Op};
use crate::isa::op_facts::Control;
use crate::isa::operand::{Operand, Reg, RegNum};
use crate::regalloc::{AllocInst, Allocated};
use crate::sched::{self, Block, SchedOptions};
use crate::target::Sm;
use smallvec::SmallVec;

/// A function's final code.
#[derive(Clone, Debug)]
pub struct Code {
    /// The instructions, control codes set, targets resolved.
    pub insts: Vec<Inst>,
    /// Their encodings.
    pub words: Vec<u128>,
    /// The source position of each instruction (the end marker takes the
    /// last one's): line information.
    pub locs: Vec<SrcLoc>,
    /// Instructions before the end marker.
    pub body: usize,
    /// Byte offsets of the `EXIT`s.
    pub exits: Vec<u32>,
    /// Named barriers used (highest barrier number + 1; 16 when one is
    /// chosen at run time).
    pub barriers: u32,
    /// The device functions placed after the kernel's own code.
    pub functions: Vec<Placed>,
    /// Byte offsets of the calls of functions outside the module
    /// (`EIATTR_SYSCALL_OFFSETS`).
    pub syscalls: Vec<u32>,
    /// The functions outside the module that the code calls (function
    /// indices, in order of first call).
    pub externs: Vec<u32>,
}

/// A device function placed in a kernel's section.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Its function index.
    pub callee: u32,
    /// Byte offset in the section.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Its `.debug_frame` call-frame instructions.
    pub frame_program: Vec<u8>,
}

/// Whether the instruction has no guard.
fn unguarded(inst: &Inst) -> bool {
    inst.guard.0.num == RegNum::Zero && !inst.guard.1
}

/// Whether control never falls through the instruction.
fn ends_flow(inst: &Inst) -> bool {
    unguarded(inst) && inst.op().facts().control.leaves()
}

fn set_target(inst: &mut Inst, value: i64) -> Result<(), String> {
    let op = inst.op();
    let slot = inst.operands.iter_mut().find(|o| matches!(o, Operand::Target(_))).ok_or_else(|| format!("branch `{op}` has no target operand"))?;
    *slot = Operand::Target(value);
    Ok(())
}

/// The destination register of a `SymAddr`'s placeholder instruction.
fn destination(inst: &Inst) -> Result<Reg, String> {
    match inst.operands.first() {
        Some(Operand::Reg { reg, .. }) => Ok(*reg),
        _ => Err("a variable address without a destination register".into()),
    }
}

/// Whether an allocated instruction passes control on unconditionally.
fn alloc_ends_flow(inst: &AllocInst) -> bool {
    match inst {
        AllocInst::Branch { inst, .. } => unguarded(inst),
        AllocInst::Inst(i) => ends_flow(i),
        _ => false,
    }
}

/// The block layout emission keeps: branches to blocks that only branch on
/// are sent to the final destination (critical-edge blocks the allocator
/// left empty), and blocks no path reaches any more are dropped. Returns,
/// per allocated block, its final destination, and the kept blocks in
/// order.
fn thread_and_prune(func: &Allocated) -> (Vec<usize>, Vec<usize>) {
    let n = func.blocks.len();
    let only_jump: Vec<Option<usize>> = func
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| match b.insts.as_slice() {
            [AllocInst::Branch { inst, target }] if unguarded(inst) && *target != k && *target < n => Some(*target),
            _ => None,
        })
        .collect();
    let resolve = |mut t: usize| {
        for _ in 0..n {
            match only_jump[t] {
                Some(next) => t = next,
                None => break,
            }
        }
        t
    };
    let dest: Vec<usize> = (0..n).map(resolve).collect();
    let mut reachable = vec![false; n];
    let mut work = vec![0usize];
    while let Some(k) = work.pop() {
        if k >= n || reachable[k] {
            continue;
        }
        reachable[k] = true;
        let b = &func.blocks[k];
        for i in &b.insts {
            if let AllocInst::Branch { target, .. } = i {
                work.push(dest[*target]);
            }
        }
        if !b.insts.last().is_some_and(alloc_ends_flow) {
            work.push(k + 1);
        }
    }
    let kept = (0..n).filter(|&k| reachable[k]).collect();
    (dest, kept)
}

/// The block target a `BRA` holds before resolution.
fn target_block(inst: &Inst) -> Option<usize> {
    inst.operands.iter().find_map(|o| match o {
        Operand::Target(t) => usize::try_from(*t).ok(),
        _ => None,
    })
}

/// Drops an unconditional branch to the next block at the end of a block,
/// and turns `@P BRA next; BRA other` into `@!P BRA other`, except where
/// the conditional branch is `BRA.U.ANY` (the whole warp branches when
/// the condition holds in any lane, which `!P` does not complement).
fn drop_branches_to_next(insts: &mut Vec<Inst>, next: usize) -> Result<(), String> {
    let is_bra = |i: &Inst| i.op().facts().control == Control::Jump;
    if insts.last().is_some_and(|l| is_bra(l) && unguarded(l) && target_block(l) == Some(next)) {
        insts.pop();
        return Ok(());
    }
    let n = insts.len();
    if n >= 2 && is_bra(&insts[n - 1]) && unguarded(&insts[n - 1]) && is_bra(&insts[n - 2]) && !unguarded(&insts[n - 2]) && !insts[n - 2].has(Mod::ANY) && target_block(&insts[n - 2]) == Some(next) {
        let other = target_block(&insts[n - 1]).ok_or("a branch without a target")?;
        insts.pop();
        let cond = &mut insts[n - 2];
        cond.guard.1 = !cond.guard.1;
        set_target(cond, other as i64)?;
    }
    Ok(())
}

/// The immediate a return-address `MOV` carries from allocation until
/// it is patched: marks it among the instructions of its block after
/// scheduling (the block ends with its call).
const RETURN_ADDRESS_TAG: u32 = 0xca11_0000;

/// The immediate of the `MOV` that holds, before sm_90, the distance from
/// a `LEPC` to the return point of the call after it, until patched.
const LEPC_DISTANCE_TAG: u32 = 0xca11_0001;

/// The immediates of the `MOV`s that hold a function's address (the low
/// word) until [`link`] places the function: this tag plus the function
/// index (below 2^16). A `MOV` of the same immediate that is not one of
/// them makes the count differ, which is an error, not a wrong address.
const FUNCTION_ADDRESS_TAG: u32 = 0xfadd_0000;

/// One function's code before it is placed in its section: scheduled,
/// its own branches resolved (they are relative), its calls, returns and
/// return addresses still to be patched by [`link`].
#[derive(Clone, Debug)]
pub struct Part {
    /// The instructions.
    insts: Vec<Inst>,
    /// Their source positions.
    locs: Vec<SrcLoc>,
    /// Calls of module functions: (instruction index, callee).
    calls: Vec<(usize, u32)>,
    /// Calls of functions outside the module: (index of the
    /// `CALL.ABS.NOINC`, callee).
    external_calls: Vec<(usize, u32)>,
    /// Return-address `MOV`s: (index, index of the instruction control
    /// returns to).
    return_addresses: Vec<(usize, usize)>,
    /// `RET`s.
    rets: Vec<usize>,
    /// Function-address `MOV`s: (index, function index).
    function_addresses: Vec<(usize, u32)>,
}

/// What a call in the allocated code becomes at emission.
enum CallKind {
    /// `CALL.REL.NOINC` of a module function.
    Internal(u32),
    /// `CALL.ABS.NOINC` of a function outside the module.
    External(u32),
}

/// Builds the code of `func` (a kernel without calls of module functions).
pub fn function_code(func: &Allocated, module: &ir::Module, vars: &Variables, window: &SharedWindow, check: bool) -> Result<Code, String> {
    let p = part(func, module, vars, window)?;
    link(p, Vec::new(), func.sm, check)
}

/// Builds one function's part: layout, scheduling, its branches.
pub fn part(func: &Allocated, module: &ir::Module, vars: &Variables, window: &SharedWindow) -> Result<Part, String> {
    let sm = func.sm;
    let n = func.blocks.len();
    if let Some(bad) = func.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match i {
        AllocInst::Branch { target, .. } if *target >= n => Some(*target),
        _ => None,
    }) {
        return Err(format!("branch to block {bad} of {n}"));
    }
    let (dest, kept) = thread_and_prune(func);
    // A call ends a scheduling block (control goes to the callee and
    // comes back to the next instruction), so an allocated block becomes
    // one scheduling block per call plus one. Index of each kept block's
    // first scheduling block:
    let mut position = vec![usize::MAX; n];
    let mut count = 0;
    for &k in &kept {
        position[k] = count;
        count += 1 + func.blocks[k].insts.iter().filter(|i| matches!(i, AllocInst::Call { .. })).count();
    }
    let mut blocks: Vec<Block> = Vec::with_capacity(count);
    let mut function_addresses = 0usize;
    let mut ends_in_call: Vec<Option<CallKind>> = Vec::with_capacity(count);
    for (p, &k) in kept.iter().enumerate() {
        let block = &func.blocks[k];
        let mut insts = Vec::with_capacity(block.insts.len());
        let mut locs: Vec<SrcLoc> = Vec::with_capacity(block.insts.len());
        let mut succs: SmallVec<[usize; 2]> = SmallVec::new();
        for (j, inst) in block.insts.iter().enumerate() {
            let loc = block.locs.get(j).copied().unwrap_or_default();
            match inst {
                AllocInst::Inst(i) => insts.push(i.clone()),
                AllocInst::Branch { inst, target } => {
                    let to = position[dest[*target]];
                    if !succs.contains(&to) {
                        succs.push(to);
                    }
                    let mut b = inst.clone();
                    set_target(&mut b, to as i64)?;
                    insts.push(b);
                }
                AllocInst::Call { inst, callee, external } => {
                    let kind = if *external {
                        insts.extend(external_call(inst, *callee, module, vars, sm)?);
                        CallKind::External(*callee)
                    } else {
                        insts.push(inst.clone());
                        CallKind::Internal(*callee)
                    };
                    let next = blocks.len() + 1;
                    locs.resize(insts.len(), loc);
                    blocks.push(Block { insts: std::mem::take(&mut insts), succs: [next].into_iter().collect(), locs: std::mem::take(&mut locs) });
                    ends_in_call.push(Some(kind));
                }
                AllocInst::ReturnAddress { inst } => {
                    let mut i = inst.clone();
                    let imm = i.operands.iter_mut().rev().find(|o| matches!(o, Operand::Imm(_))).ok_or("a return address without an immediate")?;
                    *imm = Operand::Imm(RETURN_ADDRESS_TAG);
                    insts.push(i);
                }
                AllocInst::SymAddr { inst, global, high, function: true, .. } => {
                    if *global >= 1 << 16 {
                        return Err(format!("the address of function {global}: too many functions"));
                    }
                    let value = if *high { 0 } else { FUNCTION_ADDRESS_TAG | global };
                    let mut i = Mnemonic::new(Op::MOV).build(sm, None, &[Operand::reg(destination(inst)?), Operand::Imm(value)]).map_err(|e| e.to_string())?;
                    i.guard = inst.guard;
                    insts.push(i);
                    function_addresses += usize::from(!*high);
                }
                AllocInst::SymAddr { inst, global, offset, high, function: false } => {
                    let mut i = vars.materialise(module, window, *global, *offset, *high, destination(inst)?, sm)?;
                    i.guard = inst.guard;
                    insts.push(i);
                }
            }
            locs.resize(insts.len(), loc);
        }
        if let Some(next) = kept.get(p + 1).map(|&k| position[k]) {
            drop_branches_to_next(&mut insts, next)?;
            if !insts.last().is_some_and(ends_flow) && !succs.contains(&next) {
                succs.push(next);
            }
        }
        locs.truncate(insts.len());
        blocks.push(Block { insts, succs, locs });
        ends_in_call.push(None);
    }

    sched::schedule(&mut blocks, sm, &SchedOptions::default()).map_err(|e| format!("scheduling: {e}"))?;

    let mut starts = Vec::with_capacity(blocks.len());
    let mut at = 0i64;
    for b in &blocks {
        starts.push(at);
        at += 16 * b.insts.len() as i64;
    }
    let mut out = Part { insts: Vec::with_capacity(at as usize / 16 + 8), locs: Vec::with_capacity(at as usize / 16 + 8), calls: Vec::new(), external_calls: Vec::new(), return_addresses: Vec::new(), rets: Vec::new(), function_addresses: Vec::new() };
    for (b, block) in blocks.into_iter().enumerate() {
        let first = out.insts.len();
        let end = first + block.insts.len();
        let mut lepc = None;
        out.locs.extend(block.locs.iter().copied());
        out.locs.resize(end, SrcLoc::default());
        for mut inst in block.insts {
            let k = out.insts.len();
            let control = inst.op().facts().control;
            match inst.op() {
                _ if control == Control::Call => match ends_in_call[b] {
                    Some(CallKind::Internal(callee)) if k + 1 == end => out.calls.push((k, callee)),
                    Some(CallKind::External(callee)) if k + 1 == end => out.external_calls.push((k, callee)),
                    _ => return Err("a call that does not end its block after scheduling".into()),
                },
                _ if control == Control::Return => out.rets.push(k),
                // The return address of a call outside the module: the
                // instruction after the call (relative to the next one).
                Op::LEPC if inst.operands.iter().any(|o| matches!(o, Operand::Target(_))) => set_target(&mut inst, 16 * (end as i64 - (k as i64 + 1)))?,
                Op::LEPC => lepc = Some(k),
                Op::MOV if ends_in_call[b].is_some() && inst.operands.get(1) == Some(&Operand::Imm(RETURN_ADDRESS_TAG)) => out.return_addresses.push((k, end)),
                Op::MOV if function_addresses > 0 && matches!(inst.operands.get(1), Some(Operand::Imm(v)) if v >> 16 == FUNCTION_ADDRESS_TAG >> 16) => {
                    if let Some(Operand::Imm(v)) = inst.operands.get(1) {
                        out.function_addresses.push((k, v & 0xffff));
                    }
                }
                _ => {
                    if let Some(Operand::Target(t)) = inst.operands.iter().find(|o| matches!(o, Operand::Target(_))).copied() {
                        let target = usize::try_from(t).ok().and_then(|t| starts.get(t).copied()).ok_or_else(|| format!("branch to a block that does not exist ({t})"))?;
                        let next = 16 * (k as i64 + 1);
                        set_target(&mut inst, target - next)?;
                    }
                }
            }
            out.insts.push(inst);
        }
        // Before sm_90 the return address is the LEPC's own address plus
        // the distance to the return point.
        if let Some(at) = lepc.filter(|_| matches!(ends_in_call[b], Some(CallKind::External(_)))) {
            let distance = 16 * (end - at) as u32;
            let mov = out.insts[first..end].iter_mut().find(|i| i.op() == Op::MOV && i.operands.get(1) == Some(&Operand::Imm(LEPC_DISTANCE_TAG))).ok_or("a LEPC without its distance")?;
            mov.operands[1] = Operand::Imm(distance);
        }
    }
    if out.function_addresses.len() != function_addresses {
        return Err(format!("{} function addresses placed, {} found after scheduling (a MOV of a tag immediate)", function_addresses, out.function_addresses.len()));
    }
    Ok(out)
}

/// A call of a function outside the module as ptxas makes it (measured
/// on its `printf` code, sm_75 to sm_120): the callee's address from its
/// bank 4 slot (relocated by the loader), the absolute return address
/// into R20:R21 with `LEPC`, then `CALL.ABS.NOINC` through the pair.
/// Before sm_90 `LEPC` takes no target and gives its own address (ptxas
/// adds the distance to the return point: `LEPC R8`, then R20:R21 =
/// R8:R9 + (return point − LEPC's offset)); here the distance goes
/// through R0, free at the call (it clobbers every register and R0 is
/// never an argument), and `IMAD.WIDE.U32` adds it to the pair.
fn external_call(call: &Inst, callee: u32, module: &ir::Module, vars: &Variables, sm: Sm) -> Result<Vec<Inst>, String> {
    use crate::ir::entity::EntityRef;
    use crate::regalloc::abi;
    let f = module.functions.get(ir::FuncId::new(callee as usize)).ok_or_else(|| format!("call of an unknown function {callee}"))?;
    let slot = vars.function_slot(&f.name)?;
    let pair = Reg { file: crate::isa::operand::RegFile::Gpr, num: RegNum::Phys(abi::EXTERN_TARGET) };
    let ra = Reg { file: crate::isa::operand::RegFile::Gpr, num: RegNum::Phys(abi::EXTERN_RETURN_ADDRESS) };
    let ldc = Mnemonic::of(Op::LDC, &[Mod::_64]).build(sm, None, &[Operand::reg(pair), Operand::ConstAddr { bank: 4, index: Reg::zero(crate::isa::operand::RegFile::Gpr), offset: 8 * slot as i32 }]).map_err(|e| e.to_string())?;
    let build = |m: Mnemonic, ops: &[Operand]| m.build(sm, None, ops).map_err(|e| e.to_string());
    let mut out = vec![ldc];
    if sm.number >= 90 {
        out.push(build(Mnemonic::new(Op::LEPC), &[Operand::reg(ra), Operand::Target(0)])?);
    } else {
        let r0 = Operand::reg(Reg { file: crate::isa::operand::RegFile::Gpr, num: RegNum::Phys(0) });
        out.push(build(Mnemonic::new(Op::LEPC), &[Operand::reg(ra)])?);
        out.push(build(Mnemonic::new(Op::MOV), &[r0, Operand::Imm(LEPC_DISTANCE_TAG)])?);
        out.push(build(Mnemonic::of(Op::IMAD, &[Mod::WIDE, Mod::U32]), &[Operand::reg(ra), r0, Operand::Imm(1), Operand::reg(ra)])?);
    }
    let mut abs = build(Mnemonic::of(Op::CALL, &[Mod::ABS, Mod::NOINC]), &[Operand::reg(pair)])?;
    abs.guard = call.guard;
    out.push(abs);
    Ok(out)
}

/// Places a kernel's part and its callees' parts (in this order) in one
/// section, as ptxas does without `-c` (each kernel gets its own copy of
/// its callees): calls, returns and return addresses patched, the end
/// marker appended, everything encoded. `callees` pairs each part with
/// its function index.
pub fn link(kernel: Part, callees: Vec<(u32, Part)>, sm: Sm, check: bool) -> Result<Code, String> {
    let mut parts = vec![(u32::MAX, kernel)];
    parts.extend(callees);
    let mut offsets = Vec::with_capacity(parts.len());
    let mut at = 0usize;
    for (_, p) in &parts {
        offsets.push(at);
        at += p.insts.len();
    }
    let offset_of = |callee: u32| parts.iter().position(|(id, _)| *id == callee).map(|k| offsets[k]);
    let mut insts: Vec<Inst> = Vec::with_capacity(at + 8);
    let mut locs: Vec<SrcLoc> = Vec::with_capacity(at + 8);
    let mut syscalls = Vec::new();
    let mut externs = Vec::new();
    for (k, (_, p)) in parts.iter().enumerate() {
        let base = offsets[k];
        let mut code = p.insts.clone();
        for &(i, callee) in &p.calls {
            // Through a register: the register holds an offset from the
            // section start, which the target names (as RET.REL's).
            if callee == crate::select::mach::INDIRECT_CALLEE {
                set_target(&mut code[i], -16 * (base + i + 1) as i64)?;
                continue;
            }
            let to = offset_of(callee).ok_or_else(|| format!("a call of function {callee}, which is not placed with the kernel"))?;
            set_target(&mut code[i], 16 * (to as i64 - (base + i + 1) as i64))?;
        }
        for &(i, back) in &p.return_addresses {
            let imm = code[i].operands.iter_mut().rev().find(|o| matches!(o, Operand::Imm(_))).ok_or("a return address without an immediate")?;
            *imm = Operand::Imm(16 * (base + back) as u32);
        }
        // `RET.REL.NODEC R2 0x0`: the return address counts from the
        // start of the section.
        for &i in &p.rets {
            set_target(&mut code[i], -16 * (base + i + 1) as i64)?;
        }
        for &(i, f) in &p.function_addresses {
            let to = offset_of(f).ok_or_else(|| format!("the address of function {f}, which is not placed with the kernel"))?;
            code[i].operands[1] = Operand::Imm(16 * to as u32);
        }
        for &(i, callee) in &p.external_calls {
            syscalls.push(16 * (base + i) as u32);
            if !externs.contains(&callee) {
                externs.push(callee);
            }
        }
        insts.extend(code);
        locs.extend(p.locs.iter().copied());
        locs.resize(insts.len(), SrcLoc::default());
    }
    let body = insts.len();
    append_end_marker(&mut insts, sm)?;
    let last = locs.last().copied().unwrap_or_default();
    locs.resize(insts.len(), last);

    let mut words = Vec::with_capacity(insts.len());
    let mut exits = Vec::new();
    let mut barriers = 0u32;
    for (k, inst) in insts.iter().enumerate() {
        let word = inst.encode(sm).map_err(|e| format!("instruction {k} (`{}`) does not encode: {}", inst.text(sm, 16 * k as u64).trim(), e.0))?;
        words.push(word);
        match inst.op() {
            _ if inst.op().facts().control == Control::Exit => exits.push(16 * k as u32),
            Op::BAR => {
                // The barrier number is printed in hex (`BAR.SYNC.DEFER_BLOCKING
                // 0x0`): the form holds it as a hex operand. One in a register
                // may be any of the 16.
                let used = match inst.operands.first() {
                    Some(Operand::Imm(id) | Operand::Hex(id)) => id + 1,
                    _ => 16,
                };
                barriers = barriers.max(used.min(16));
            }
            _ => {}
        }
    }
    if check {
        sched::check(&insts, sm).map_err(|h| format!("hazard check: {} hazards, first: {}", h.len(), h.first().map(|x| format!("{x:?}")).unwrap_or_default()))?;
    }
    let end = 16 * insts.len() as u32;
    let functions = parts
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, (callee, _))| {
            let offset = 16 * offsets[k] as u32;
            // The last function runs to the end of the section (ptxas
            // counts the end marker and padding in its symbol's size).
            let size = offsets.get(k + 1).map_or(end, |&o| 16 * o as u32) - offset;
            let program = frame_program_of(&insts[offsets[k]..offsets[k] + parts[k].1.insts.len()]);
            Placed { callee: *callee, offset, size, frame_program: program }
        })
        .collect();
    Ok(Code { insts, words, locs, body, exits, barriers, functions, syscalls, externs })
}

/// The `.debug_frame` call-frame instructions of a device function: the
/// canonical frame address is R1 plus what the function has taken off it
/// (each `IADD3 R1, R1, ±n` changes it; after an unconditional `RET` the
/// code that follows is inside the frame again).
pub fn frame_program_of(code: &[Inst]) -> Vec<u8> {
    let mut changes = Vec::new();
    let mut depth = 0i64;
    let mut frame = 0i64;
    for (k, inst) in code.iter().enumerate() {
        let after = 16 * (k as u32 + 1);
        if let Some(by) = stack_adjustment(inst) {
            depth -= by;
            frame = frame.max(depth);
            changes.push((after, depth.max(0) as u32));
        } else if inst.op().facts().control == Control::Return && unguarded(inst) && depth != frame && k + 1 < code.len() {
            depth = frame;
            changes.push((after, depth.max(0) as u32));
        }
    }
    crate::cubin::build::frame_program(&changes)
}

/// `IADD3 R1, R1, imm, RZ` (the stack pointer moved by `imm`).
fn stack_adjustment(inst: &Inst) -> Option<i64> {
    if inst.op() != Op::IADD3 || !unguarded(inst) {
        return None;
    }
    let regs: SmallVec<[(Reg, usize); 4]> = inst.operands.iter().enumerate().filter_map(|(k, o)| match o {
        Operand::Reg { reg, .. } if reg.file == crate::isa::operand::RegFile::Gpr => Some((*reg, k)),
        _ => None,
    }).collect();
    let sp = |r: &Reg| r.num == RegNum::Phys(1);
    if regs.len() < 2 || !sp(&regs[0].0) || !sp(&regs[1].0) {
        return None;
    }
    inst.operands.iter().find_map(|o| match o {
        Operand::Imm(v) => Some(i64::from(*v as i32)),
        _ => None,
    })
}

/// ptxas ends every function with a branch to itself and pads the code to
/// a multiple of 128 bytes with NOPs (both with a zero stall: measured on
/// ptxas 13.5 output for sm_75 to sm_120).
fn append_end_marker(insts: &mut Vec<Inst>, sm: Sm) -> Result<(), String> {
    let bra = Mnemonic::new(Op::BRA).build(sm, None, &[Operand::Target(-16)]).map_err(|e| e.to_string())?;
    insts.push(bra);
    let nop = Mnemonic::new(Op::NOP).build(sm, None, &[]).map_err(|e| e.to_string())?;
    while insts.len() % 8 != 0 {
        insts.push(nop.clone());
    }
    Ok(())
}
