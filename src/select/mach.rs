//! The machine function selection produces: blocks of machine instructions
//! (`isa::Inst`) on virtual registers, shaped for register allocation with
//! regalloc2 (DESIGN.md, "Register allocation").
//!
//! * Every value lives in one virtual register ([`VReg`]) whose type (file
//!   and width: `r32`, `r64` pair, `p`, `ur64`…) is in
//!   [`MachFunction::vregs`]. Virtual register `n` below the Ori function's
//!   value count is Ori value `n`; fresh ones (materialised constants,
//!   uniform parameter copies, the memory descriptor) follow.
//! * Each instruction lists the virtual registers it defines and uses, and
//!   which definitions must take the register of a use ([`MachInst::tied`]:
//!   a guarded instruction's result and the value it keeps where the guard
//!   fails).
//! * Blocks keep their parameters, and branches their block targets and
//!   arguments ([`MachBlock::succs`]): regalloc2 resolves block parameters
//!   itself. A conditional branch is `@P BRA taken` followed by `BRA other`
//!   (emission drops a branch to the next block).
//! * Register-pair plumbing stays symbolic ([`MachKind::Copy`],
//!   [`MachKind::Extract`], [`MachKind::Concat`]): after allocation each
//!   becomes one MOV per 32-bit part that is not already in place, or
//!   nothing when the allocator put the parts where they belong.

use crate::ir::{RegFile as IrFile, SrcLoc, Type};
use crate::isa::inst::Inst as MInst;
use crate::isa::operand::{Reg, RegFile, RegNum};
use crate::target::Sm;
use smallvec::SmallVec;
use std::fmt::Write as _;

/// A virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// A block of a machine function (its index in [`MachFunction::blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MBlock(pub u32);

/// What a machine instruction is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MachKind {
    /// A machine instruction.
    Inst(MInst),
    /// A branch (`BRA`, possibly guarded) to a block; the instruction's
    /// target operand is filled in at emission.
    Branch {
        /// The instruction.
        inst: MInst,
        /// The destination.
        target: MBlock,
    },
    /// A call (`CALL.REL.NOINC`) of the module function `callee`; its
    /// arguments and results are the uses and definitions, placed by the
    /// calling convention at allocation.
    Call {
        /// The instruction.
        inst: MInst,
        /// Callee's function index.
        callee: u32,
        /// The callee has no body in the module (an `.extern .func` such
        /// as `vprintf`): the call follows NVIDIA's convention and goes
        /// through a relocated address ([`MachFunction::mark_external_calls`]).
        external: bool,
    },
    /// `defs[0] = uses[0]`, any width.
    Copy,
    /// `defs[0]` = 32-bit part `part` of `uses[0]`.
    Extract {
        /// 0 for the low register.
        part: u8,
    },
    /// `defs[0]` = the parts `uses`, low first.
    Concat,
    /// `defs[0]` = the address of module variable `global` plus `offset`
    /// (relocated at emission), or of module function `global` when
    /// `function` (its offset in the kernel's section, known at emission).
    SymAddr {
        /// Variable index (function index when `function`).
        global: u32,
        /// Byte offset.
        offset: i32,
        /// The address of a function, not of a variable.
        function: bool,
    },
}

/// A machine instruction with its register operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachInst {
    /// The instruction.
    pub kind: MachKind,
    /// Registers defined.
    pub defs: SmallVec<[VReg; 2]>,
    /// Registers read (operands, guard, kept values).
    pub uses: SmallVec<[VReg; 4]>,
    /// `(d, u)`: definition `defs[d]` must be allocated the register of
    /// use `uses[u]` (partial writes: DESIGN.md, "Partial writes").
    pub tied: SmallVec<[(u8, u8); 1]>,
    /// The source position of the Ori instruction it was selected from
    /// (unknown for instructions the compiler adds): line information.
    pub loc: SrcLoc,
}

/// A block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MachBlock {
    /// Parameters.
    pub params: Vec<VReg>,
    /// Instructions, the branches last.
    pub insts: Vec<MachInst>,
    /// Successors, in the order of the branches.
    pub succs: SmallVec<[MBlock; 2]>,
    /// Arguments passed to each successor's parameters.
    pub succ_args: SmallVec<[Vec<VReg>; 2]>,
}

/// A function after instruction selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachFunction {
    /// Symbol name.
    pub name: String,
    /// Target.
    pub sm: Sm,
    /// Blocks in layout order; the first is the entry.
    pub blocks: Vec<MachBlock>,
    /// Type of each virtual register.
    pub vregs: Vec<Type>,
    /// Whether the function is a kernel (`.entry`); device functions
    /// (`.func`) are called and return.
    pub kernel: bool,
    /// Bytes of the function's `.local` variables at the bottom of its
    /// frame (addressed from R1).
    pub local_bytes: u32,
    /// The kernel's constant bank 2: the constants its code reads as
    /// `c[0x2][offset]` operands ([`super::pool`]); empty for device
    /// functions.
    pub constant2: Vec<u8>,
    /// The PTX registers values hold (the Ori function's, a value's
    /// virtual register having its number): `-g`'s register maps.
    pub register_names: Vec<crate::ir::RegisterName>,
}

/// The isa register naming virtual register `v` of type `ty`.
pub fn vreg_reg(v: VReg, ty: Type) -> Reg {
    let file = match ty.file() {
        IrFile::R => RegFile::Gpr,
        IrFile::Ur => RegFile::Uniform,
        IrFile::P => RegFile::Pred,
        IrFile::Up => RegFile::UniformPred,
    };
    Reg { file, num: RegNum::virt(v.0) }
}

/// The callee of a [`MachKind::Call`] through a register (the target is
/// its last use).
pub const INDIRECT_CALLEE: u32 = u32::MAX;

impl MachFunction {
    /// Marks the calls of functions without a body (selection sees one
    /// function at a time; the caller knows the module).
    pub fn mark_external_calls(&mut self, is_external: impl Fn(u32) -> bool) {
        for b in &mut self.blocks {
            for i in &mut b.insts {
                if let MachKind::Call { callee, external, .. } = &mut i.kind {
                    *external = is_external(*callee);
                }
            }
        }
    }

    /// The register naming a virtual register.
    pub fn reg(&self, v: VReg) -> Reg {
        vreg_reg(v, self.vregs.get(v.0 as usize).copied().unwrap_or(Type::R32))
    }

    /// Number of instructions.
    pub fn inst_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len()).sum()
    }

    /// The text form: one line per instruction as nvdisasm would print it
    /// (virtual registers as `%R12`, `%P3`, `%UR14`), branch targets as
    /// block names with their arguments, the pair plumbing as `COPY`,
    /// `EXTRACT`, `CONCAT`, `SYMADDR` lines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (k, block) in self.blocks.iter().enumerate() {
            let params: Vec<String> = block.params.iter().map(|p| self.reg(*p).to_string()).collect();
            if params.is_empty() {
                let _ = writeln!(out, "bb{k}:");
            } else {
                let _ = writeln!(out, "bb{k}({}):", params.join(", "));
            }
            for inst in &block.insts {
                let _ = writeln!(out, "    {}", self.inst_text(block, inst));
            }
        }
        out
    }

    fn list(&self, regs: &[VReg]) -> String {
        regs.iter().map(|r| self.reg(*r).to_string()).collect::<Vec<_>>().join(", ")
    }

    fn inst_text(&self, block: &MachBlock, inst: &MachInst) -> String {
        let one = |v: Option<&VReg>| v.map_or_else(|| "?".to_string(), |v| self.reg(*v).to_string());
        let mut text = match &inst.kind {
            MachKind::Inst(i) => strip(&i.text(self.sm, 0)).to_string(),
            MachKind::Branch { inst: i, target } => {
                let head = without_target(&i.text(self.sm, 0));
                let args = block.succs.iter().position(|s| s == target).and_then(|k| block.succ_args.get(k)).filter(|a| !a.is_empty());
                match args {
                    Some(a) => format!("{head} bb{}({})", target.0, self.list(a)),
                    None => format!("{head} bb{}", target.0),
                }
            }
            MachKind::Call { inst: i, callee, external } => {
                let mut t = format!("{} {}func{callee}", without_target(&i.text(self.sm, 0)), if *external { "extern " } else { "" });
                if !inst.uses.is_empty() {
                    let _ = write!(t, "({})", self.list(&inst.uses));
                }
                if !inst.defs.is_empty() {
                    let _ = write!(t, " -> {}", self.list(&inst.defs));
                }
                t
            }
            MachKind::Copy => format!("COPY {}, {}", one(inst.defs.first()), one(inst.uses.first())),
            MachKind::Extract { part } => format!("EXTRACT {}, {}, {part}", one(inst.defs.first()), one(inst.uses.first())),
            MachKind::Concat => format!("CONCAT {}, {}", one(inst.defs.first()), self.list(&inst.uses)),
            MachKind::SymAddr { global, offset, function: false } => format!("SYMADDR {}, global{global}{offset:+#x}", one(inst.defs.first())),
            MachKind::SymAddr { global, function: true, .. } => format!("FUNCADDR {}, func{global}", one(inst.defs.first())),
        };
        for (d, u) in &inst.tied {
            let _ = write!(text, " ; {} keeps {}", one(inst.defs.get(usize::from(*d))), one(inst.uses.get(usize::from(*u))));
        }
        text
    }
}

/// An instruction's text without the final `;`.
fn strip(text: &str) -> &str {
    text.trim_end().trim_end_matches(';').trim_end()
}

/// A branch's text without its target (the last operand).
fn without_target(text: &str) -> String {
    let t = strip(text);
    match t.rsplit_once(' ') {
        Some((head, _)) => head.trim_end_matches(',').to_string(),
        None => t.to_string(),
    }
}
