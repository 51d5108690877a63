//! Scheduling of machine code after register allocation: the order of
//! instructions within each block, and every instruction's control fields
//! ([`crate::isa::ctrl`]) — stall cycles, yield bit, write and read
//! scoreboards, wait mask, reuse flags — from the per-SM latency tables
//! ([`latency`]); and the independent hazard checker ([`check`](mod@check)) that
//! re-derives every dependence of the final linear code.
//!
//! * [`info`]: what an instruction reads, writes and which unit runs it
//!   (shared with the SASS interpreter's dynamic checker);
//! * [`latency`]: the per-SM latency tables, measured from ptxas's code;
//! * `list`: list scheduling within the stretches of a block between
//!   instructions nothing moves across;
//! * `codes`: control fields, block by block in layout order;
//! * [`check`](mod@check): the checker, a dataflow over the CFG the branches give;
//! * [`linear`]: rescheduling code already laid out (ptxas's, in tests).
//!
//! ## The model (what the hardware needs, as the interpreter checks it)
//! Fixed-latency results are readable [`latency::Table::latency`] cycles
//! after their producer issues, counted in stall cycles. Variable-latency
//! producers (memory, constant loads, special registers, MUFU, the
//! conversion unit, bit counting, warp exchange, convergence-barrier moves,
//! and double precision where the SM's table has no fixed latency for it)
//! set one of the six write scoreboards; readers and overwriters of their
//! results wait on it. A variable-latency instruction reads its general
//! registers after issue, so when a later instruction of the block (or of a
//! successor) may overwrite one, it sets a read scoreboard that the
//! overwriter waits on. Scoreboards are shared by instructions of the same
//! in-order unit when all six are busy, else the least recently set one is
//! waited for and reused.
//!
//! ## Across blocks
//! Blocks are visited in layout order. A block starts with the join of the
//! states its earlier predecessors left (pending scoreboards and held
//! reads, and each fixed-latency result in flight with its producer's class
//! and cycle; where predecessors disagree on the class, the cycle from
//! which any reader may read). A block that ends `@P BRA X; BRA Y` leaves
//! at each branch: the state its successors start with is the join of the
//! states at both, each counted from its own branch's issue and stall. A
//! block whose first instruction must wait for such a result starts with
//! a NOP carrying the stall, or, where it fits, its predecessors' first
//! branches (else last instructions) stall longer. A block with a
//! successor at or before it in the layout (a loop's back edge) settles
//! everything at each of its branches: the branch waits on every pending
//! scoreboard and stalls until every fixed-latency result is written, so
//! the loop head needs nothing from it. CALL, RET and indirect branches
//! settle the same way (the callee starts with nothing pending); matrix
//! instructions wait for everything before them and let 32 cycles pass
//! after them ([`info::opaque`]). This is dataflow over forward edges and a
//! drain at back edges, not a fixpoint.
//!
//! ## Control fields as ptxas sets them (measured over the corpus, sm_80/90/120)
//! * branches, EXIT, RET, CALL, BSYNC, WARPSYNC stall 5 (ptxas: 5 in
//!   over 95% of them); BAR 6; everything else at least 1;
//! * bit 109 (`Y` in listings) is set with stalls 1–11 except when the
//!   stall is there for a dependence (ptxas: S01 always `Y`, S00 and
//!   S12–S15 never, S02–S11 mixed, clear where the next instruction needs
//!   the cycles);
//! * reuse flags: none yet (legal: they only save register-file reads).
//!
//! Register pressure: the scheduler runs on allocated registers, where
//! every anti- and output dependence of the allocation is an edge, so it
//! cannot raise the register count; among ready instructions it prefers
//! the longest latency-weighted path, then the original order (which keeps
//! live ranges as the allocator saw them).

pub mod check;
mod codes;
pub mod info;
pub mod latency;
pub mod linear;
mod list;

pub use check::{Hazard, HazardKind, check};

use crate::isa::inst::Inst;
use crate::isa::operand::{Operand, RegNum};
use crate::target::Sm;
use smallvec::SmallVec;
use std::fmt;

/// A basic block of machine code, in layout order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The instructions; the last ones may be branches or EXIT.
    pub insts: Vec<Inst>,
    /// Indices of the blocks control may go to next (fall-through included).
    pub succs: SmallVec<[usize; 2]>,
    /// The source position of each instruction, kept with it through
    /// reordering (an inserted NOP takes that of the instruction it waits
    /// before); empty when the caller keeps no line information.
    pub locs: Vec<crate::ir::SrcLoc>,
}

/// Scheduling options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedOptions {
    /// Reorder instructions within blocks (off: keep the order, set control fields only).
    pub reorder: bool,
}

impl Default for SchedOptions {
    fn default() -> SchedOptions {
        SchedOptions { reorder: true }
    }
}

/// What scheduling did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchedStats {
    /// Instructions after scheduling (inserted NOPs included).
    pub instructions: usize,
    /// Sum of the stall fields.
    pub stall_cycles: u64,
    /// NOPs inserted for waits longer than one stall field holds.
    pub nops: usize,
    /// Instructions that wait on at least one scoreboard.
    pub waits: usize,
    /// Instructions that moved from their position.
    pub moved: usize,
    /// Blocks that settle everything at their branches.
    pub drained_blocks: usize,
}

/// Why a function cannot be scheduled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedError {
    /// Block index.
    pub block: usize,
    /// Instruction index within the block.
    pub inst: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block {} instruction {}: {}", self.block, self.inst, self.message)
    }
}

impl std::error::Error for SchedError {}

/// Reorders the instructions of each block and sets every instruction's
/// control fields (see the module documentation). Branch targets are not
/// touched: the caller resolves them after scheduling (instructions with
/// targets keep their order within the block; NOPs may be inserted).
pub fn schedule(blocks: &mut [Block], sm: Sm, options: &SchedOptions) -> Result<SchedStats, SchedError> {
    for (b, block) in blocks.iter().enumerate() {
        if let Some(&s) = block.succs.iter().find(|&&s| s >= blocks.len()) {
            return Err(SchedError { block: b, inst: block.insts.len(), message: format!("successor {s} is not a block ({} blocks)", blocks.len()) });
        }
        for (k, inst) in block.insts.iter().enumerate() {
            if has_virtual(inst) {
                return Err(SchedError { block: b, inst: k, message: format!("{} has a virtual register (scheduling runs after register allocation)", inst.form.name) });
            }
        }
    }
    let mut stats = SchedStats::default();
    let mut infos: Vec<Vec<info::HazardInfo>> = blocks.iter().map(|b| b.insts.iter().map(|i| info::HazardInfo::of(i, sm)).collect()).collect();
    if options.reorder {
        let mut units = list::UnitTables::new();
        for (block, infos) in blocks.iter_mut().zip(infos.iter_mut()) {
            stats.moved += list::reorder(&mut block.insts, infos, &mut block.locs, sm, &mut units);
        }
    }
    codes::assign(blocks, &infos, sm, &mut stats)?;
    Ok(stats)
}

/// Whether an instruction names a virtual register.
fn has_virtual(inst: &Inst) -> bool {
    let virt = |r: &crate::isa::operand::Reg| matches!(r.num, RegNum::Virt(_));
    virt(&inst.guard.0)
        || inst.operands.iter().any(|op| match op {
            Operand::Reg { reg, .. } => virt(reg),
            Operand::Mem(m) => m.regs().any(|r| virt(&r)),
            Operand::ConstAddr { index, .. } => virt(index),
            _ => false,
        })
}

#[cfg(test)]
mod tests;
