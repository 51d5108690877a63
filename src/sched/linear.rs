//! Rescheduling linear code that is already laid out (ptxas's functions in
//! the tests and benchmarks): split into blocks at branch targets, clear
//! every control field, [`super::schedule`], lay the blocks out again and
//! re-resolve every branch target.

use super::check::{cfg, target_of};
use super::{Block, SchedError, SchedOptions, SchedStats, schedule};
use crate::isa::ctrl::Ctrl;
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::target::Sm;

/// Reschedules a function's code; returns the new code and what
/// scheduling did.
pub fn reschedule(code: &[Inst], sm: Sm, options: &SchedOptions) -> Result<(Vec<Inst>, SchedStats), SchedError> {
    let (ranges, succs) = cfg(code);
    let mut index = vec![None; code.len() + 1];
    for (b, r) in ranges.iter().enumerate() {
        index[r.0] = Some(b);
    }
    let block_at = |at: usize| index.get(at).copied().flatten();
    // Per block, the target block of each target-bearing instruction in
    // order (they keep their order: the scheduler moves nothing across them).
    let mut targets: Vec<Vec<Option<usize>>> = Vec::with_capacity(ranges.len());
    let mut blocks: Vec<Block> = Vec::with_capacity(ranges.len());
    for (b, &(start, end)) in ranges.iter().enumerate() {
        let mut t = Vec::new();
        let mut insts = Vec::with_capacity(end - start);
        for (k, inst) in code[start..end].iter().enumerate() {
            if has_target(inst) {
                t.push(target_of(inst, start + k, code.len()).and_then(block_at));
            }
            let mut inst = inst.clone();
            inst.ctrl = Ctrl::default();
            for op in inst.operands.iter_mut() {
                if let Operand::Reg { reuse, .. } = op {
                    *reuse = false;
                }
            }
            insts.push(inst);
        }
        targets.push(t);
        blocks.push(Block { insts, succs: succs[b].iter().copied().collect(), locs: Vec::new() });
    }
    let stats = schedule(&mut blocks, sm, options)?;
    let mut starts = Vec::with_capacity(blocks.len());
    let mut at = 0usize;
    for b in &blocks {
        starts.push(at);
        at += b.insts.len();
    }
    let mut out = Vec::with_capacity(at);
    for (b, block) in blocks.into_iter().enumerate() {
        let mut next_target = targets[b].iter();
        for inst in block.insts {
            let mut inst = inst;
            if let Some(Some(t)) = has_target(&inst).then(|| next_target.next()).flatten() {
                let here = out.len() as i64;
                for op in inst.operands.iter_mut() {
                    if let Operand::Target(off) = op {
                        *off = (starts[*t] as i64 - (here + 1)) * 16;
                    }
                }
            }
            out.push(inst);
        }
    }
    Ok((out, stats))
}

fn has_target(inst: &Inst) -> bool {
    inst.operands.iter().any(|op| matches!(op, Operand::Target(_)))
}
