//! Instruction selection: SASS-layer Ori functions to machine functions
//! ([`MachFunction`]) of `isa::Inst` on virtual registers (DESIGN.md,
//! "ISLE"). The module owns the driver; the rules are `isle/select.isle`.
//!
//! * [`generated`]: the ISLE program compiled by the build script;
//! * [`context`]: the selection state and the operand terms (classes and
//!   machine operands of Ori operands);
//! * [`isle`]: the program's extern terms, the context glue: readers of
//!   Ori instructions (attributes, immediates, shapes, pure facts),
//!   operand makers, and the terms that push one machine instruction,
//!   pseudo-op, branch or call; every choice of instruction, form and
//!   operand slot is a rule;
//! * [`cbank_offsets`]: the per-SM constant-bank-0 offsets of the
//!   global-memory descriptor and the stack pointer;
//! * [`pool`]: the kernel's constant bank 2, the f64 constants no
//!   immediate holds;
//! * [`mach`]: the machine function, shaped for regalloc2, and its text.
//!
//! The driver selects every instruction through the rules (terminators
//! too: the block numbering is in the context) and walks the blocks in reverse post-order backwards, and each
//! block's instructions backwards (as Cranelift does), so that every use
//! of a value is selected before its definition: a pure instruction whose
//! results no selected instruction reads from a register is not selected
//! at all. That is how folding works without a separate pass: a constant
//! or kernel parameter that every user folded into an immediate or a
//! `c[0x0][…]` operand leaves nothing behind, and one that some user needs
//! in a register is materialised once, at its definition. Blocks that
//! cannot be reached are left out.

pub mod cbank_offsets;
pub mod context;
pub mod generated;
pub mod isle;
pub mod mach;
pub mod pool;

pub use mach::{MBlock, MachBlock, MachFunction, MachInst, MachKind, VReg};

use crate::ir::cfg::reverse_post_order;
use crate::ir::entity::EntityRef;
use crate::ir::{Block, Function, SrcLoc};
use crate::isa::family::measured_index;
use crate::target::Sm;
use context::SelectCtx;
use std::fmt;

/// Why a function could not be selected, with the instruction's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectError {
    /// The function.
    pub function: String,
    /// Source location of the instruction (zero when unknown).
    pub loc: SrcLoc,
    /// The instruction, as its opcode and attribute words.
    pub inst: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: in {}: cannot select `{}`: {}", self.function, self.loc.line, self.loc.col, self.function, self.inst, self.message)
    }
}

impl std::error::Error for SelectError {}

/// Selects machine instructions for a SASS-layer function on `sm`.
pub fn select_function(func: &Function, sm: Sm) -> Result<MachFunction, SelectError> {
    let error = |inst: Option<crate::ir::Inst>, message: String| SelectError {
        function: func.name.clone(),
        loc: inst.map(|i| func.locs[i]).unwrap_or_default(),
        inst: inst.map(|i| format!("{}{}", func.insts[i].opcode, func.insts[i].attrs.words())).unwrap_or_default(),
        message,
    };
    if measured_index(sm).is_none() {
        return Err(error(None, format!("{sm} has no instruction tables")));
    }
    let Some(entry) = func.entry() else { return Err(error(None, "function without blocks".into())) };
    let rpo = reverse_post_order(entry, func.blocks.len(), |b: Block| func.successors(b).collect());
    // Machine blocks in layout order, reachable ones only.
    let mut index = vec![u32::MAX; func.blocks.len()];
    let mut order = Vec::new();
    for &b in &func.layout {
        if rpo.contains(&b) && index[b.index()] == u32::MAX {
            index[b.index()] = order.len() as u32;
            order.push(b);
        }
    }
    let block_index = |b: Block| MBlock(index.get(b.index()).copied().unwrap_or(0));
    let mut ctx = SelectCtx::new(func, sm);
    ctx.block_index = index.clone();
    let mut blocks: Vec<MachBlock> = vec![MachBlock::default(); order.len()];
    // A block's instructions, last first (selection walks the block
    // backwards); one buffer for every block, so that each block's list is
    // allocated once at its exact length rather than grown by doubling.
    let mut reversed: Vec<MachInst> = Vec::new();
    for &b in rpo.iter().rev() {
        reversed.clear();
        for &inst in func.blocks[b].insts.iter().rev() {
            let data = &func.insts[inst];
            let live = data.opcode.has_side_effects() || data.attrs.volatile || data.results.iter().any(|r| ctx.needed[r.index()]);
            if !live {
                continue;
            }
            ctx.cur = inst;
            ctx.error = None;
            ctx.out.clear();
            if data.opcode.layer() == crate::ir::Layer::Ptx {
                ctx.fail(format!("{} is a PTX-level operation (legalization runs before selection)", data.opcode));
            } else if generated::constructor_select(&mut ctx, inst).is_none() {
                ctx.fail("no rule matches");
            }
            if let Some(message) = ctx.error.take() {
                return Err(error(Some(inst), message));
            }
            let loc = func.locs[inst];
            reversed.extend(ctx.out.drain(..).rev().map(|mut m| {
                m.loc = loc;
                m
            }));
        }
        let mb = &mut blocks[block_index(b).0 as usize];
        mb.insts = reversed.drain(..).rev().collect();
        mb.params = func.blocks[b].params.iter().map(|v| ctx.vreg(*v)).collect();
        if let Some(t) = func.terminator(b) {
            for d in &func.insts[t].dests {
                mb.succs.push(block_index(d.block));
                mb.succ_args.push(d.args.iter().map(|v| ctx.vreg(*v)).collect());
            }
        }
    }
    // The memory descriptor, loaded once at the top of the entry block.
    if let (Some(desc), Some(off)) = (ctx.desc, cbank_offsets::desc_offset(sm)) {
        ctx.error = None;
        ctx.out.clear();
        generated::constructor_load_descriptor(&mut ctx, desc, off);
        if let Some(message) = ctx.error.take() {
            return Err(error(None, message));
        }
        if let Some(first) = blocks.first_mut() {
            first.insts.splice(0..0, ctx.out.drain(..));
        }
    }
    let kernel = func.kind != Some(crate::ir::FunctionKind::Device);
    let constant2 = pool::lay_out(&ctx.pool, &mut blocks);
    Ok(MachFunction { name: func.name.clone(), sm, blocks, vregs: ctx.vregs, kernel, local_bytes: func.local_bytes, constant2, register_names: func.register_names.clone() })
}

#[cfg(test)]
mod tests;
