//! One function's code, from allocated blocks to instruction words:
//! variable addresses materialised, branches to the next block dropped,
//! the blocks scheduled ([`crate::sched`]), branch targets resolved, the
//! end marker ptxas puts after every function appended, and every
//! instruction encoded.
//!
//! Until targets are resolved, a `BRA`'s target operand holds the index of
//! the block it goes to (selection produces block-targeted control flow
//! only through [`AllocInst::Branch`]).

use super::variables::{SharedWindow, Variables};
use crate::ir;
use crate::isa::inst::Inst;
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
    /// Instructions before the end marker.
    pub body: usize,
    /// Byte offsets of the `EXIT`s.
    pub exits: Vec<u32>,
    /// Named barriers used (highest barrier number + 1; 16 when one is
    /// chosen at run time).
    pub barriers: u32,
}

/// The opcode without modifiers.
pub fn base_name(inst: &Inst) -> &'static str {
    inst.form.name.split('.').next().unwrap_or("")
}

/// Whether the instruction has no guard.
fn unguarded(inst: &Inst) -> bool {
    inst.guard.0.num == RegNum::Zero && !inst.guard.1
}

/// Whether control never falls through the instruction.
fn ends_flow(inst: &Inst) -> bool {
    unguarded(inst) && matches!(base_name(inst), "BRA" | "EXIT" | "RET" | "JMP" | "BRX" | "JMX")
}

fn set_target(inst: &mut Inst, value: i64) -> Result<(), String> {
    let name = base_name(inst);
    let slot = inst.operands.iter_mut().find(|o| matches!(o, Operand::Target(_))).ok_or_else(|| format!("branch `{name}` has no target operand"))?;
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
/// and turns `@P BRA next; BRA other` into `@!P BRA other`.
fn drop_branches_to_next(insts: &mut Vec<Inst>, next: usize) -> Result<(), String> {
    let is_bra = |i: &Inst| base_name(i) == "BRA";
    if insts.last().is_some_and(|l| is_bra(l) && unguarded(l) && target_block(l) == Some(next)) {
        insts.pop();
        return Ok(());
    }
    let n = insts.len();
    if n >= 2 && is_bra(&insts[n - 1]) && unguarded(&insts[n - 1]) && is_bra(&insts[n - 2]) && !unguarded(&insts[n - 2]) && target_block(&insts[n - 2]) == Some(next) {
        let other = target_block(&insts[n - 1]).ok_or("a branch without a target")?;
        insts.pop();
        let cond = &mut insts[n - 2];
        cond.guard.1 = !cond.guard.1;
        set_target(cond, other as i64)?;
    }
    Ok(())
}

/// The variables whose addresses the code of `func` takes, in the order
/// the emitted code takes them (blocks emission drops left out): the
/// order their bank 4 slots are reserved in.
pub fn address_uses(func: &Allocated) -> Vec<u32> {
    let (_, kept) = thread_and_prune(func);
    kept.iter()
        .flat_map(|&k| &func.blocks[k].insts)
        .filter_map(|i| match i {
            AllocInst::SymAddr { global, .. } => Some(*global),
            _ => None,
        })
        .collect()
}

/// Builds the code of `func`.
pub fn function_code(func: &Allocated, module: &ir::Module, vars: &Variables, window: &SharedWindow, check: bool) -> Result<Code, String> {
    let sm = func.sm;
    let n = func.blocks.len();
    if let Some(bad) = func.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match i {
        AllocInst::Branch { target, .. } if *target >= n => Some(*target),
        _ => None,
    }) {
        return Err(format!("branch to block {bad} of {n}"));
    }
    let (dest, kept) = thread_and_prune(func);
    // Index of each kept block in the final layout.
    let mut position = vec![usize::MAX; n];
    for (p, &k) in kept.iter().enumerate() {
        position[k] = p;
    }
    let mut blocks: Vec<Block> = Vec::with_capacity(kept.len());
    for (p, &k) in kept.iter().enumerate() {
        let block = &func.blocks[k];
        let mut insts = Vec::with_capacity(block.insts.len());
        let mut succs: SmallVec<[usize; 2]> = SmallVec::new();
        for inst in &block.insts {
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
                AllocInst::Call { .. } | AllocInst::ReturnAddress { .. } => return Err("calls are not supported by emission yet".into()),
                AllocInst::SymAddr { inst, global, offset, high } => {
                    let mut i = vars.materialise(module, window, *global, *offset, *high, destination(inst)?, sm)?;
                    i.guard = inst.guard;
                    insts.push(i);
                }
            }
        }
        drop_branches_to_next(&mut insts, p + 1)?;
        if p + 1 < kept.len() && !insts.last().is_some_and(ends_flow) && !succs.contains(&(p + 1)) {
            succs.push(p + 1);
        }
        blocks.push(Block { insts, succs });
    }

    sched::schedule(&mut blocks, sm, &SchedOptions::default()).map_err(|e| format!("scheduling: {e}"))?;

    let mut starts = Vec::with_capacity(n);
    let mut at = 0i64;
    for b in &blocks {
        starts.push(at);
        at += 16 * b.insts.len() as i64;
    }
    let mut insts: Vec<Inst> = Vec::with_capacity(at as usize / 16 + 8);
    for b in blocks {
        for mut inst in b.insts {
            if let Some(Operand::Target(t)) = inst.operands.iter().find(|o| matches!(o, Operand::Target(_))).copied() {
                let target = usize::try_from(t).ok().and_then(|t| starts.get(t).copied()).ok_or_else(|| format!("branch to a block that does not exist ({t})"))?;
                let next = 16 * (insts.len() as i64 + 1);
                set_target(&mut inst, target - next)?;
            }
            insts.push(inst);
        }
    }
    let body = insts.len();
    append_end_marker(&mut insts, sm)?;

    let mut words = Vec::with_capacity(insts.len());
    let mut exits = Vec::new();
    let mut barriers = 0u32;
    for (k, inst) in insts.iter().enumerate() {
        let word = inst.encode(sm).map_err(|e| format!("instruction {k} (`{}`) does not encode: {}", inst.text(sm, 16 * k as u64).trim(), e.0))?;
        words.push(word);
        match base_name(inst) {
            "EXIT" => exits.push(16 * k as u32),
            "BAR" => {
                let used = match inst.operands.first() {
                    Some(Operand::Imm(id)) => id + 1,
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
    Ok(Code { insts, words, body, exits, barriers })
}

/// ptxas ends every function with a branch to itself and pads the code to
/// a multiple of 128 bytes with NOPs (both with a zero stall: measured on
/// ptxas 13.5 output for sm_75 to sm_120).
fn append_end_marker(insts: &mut Vec<Inst>, sm: Sm) -> Result<(), String> {
    let bra = Inst::build(sm, "BRA", None, &[Operand::Target(-16)]).map_err(|e| e.to_string())?;
    insts.push(bra);
    let nop = Inst::build(sm, "NOP", None, &[]).map_err(|e| e.to_string())?;
    while insts.len() % 8 != 0 {
        insts.push(nop.clone());
    }
    Ok(())
}
