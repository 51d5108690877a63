//! What the schedulers and checkers need to know of one instruction: the
//! register units it reads and writes (operand widths included), its
//! latency class and the in-order queue of its unit ([`HazardInfo`]).
//! Shared by the scheduler ([`super`]), the static checker
//! ([`super::check`](mod@super::check)) and the SASS interpreter's dynamic checker
//! ([`crate::interp::sass::hazard`]), so that all three see the same
//! dependences.

use super::latency::{Class, File, Table};
use crate::isa::form::{Form, Slot};
use crate::isa::inst::Inst;
use crate::isa::op::{Mod, Op};
use crate::isa::operand::{Operand, Reg, RegFile, RegNum};
use crate::target::Sm;

/// Register units: R0–R254 at 0, UR0–UR254 at 256, P0–P6 at 512, UP0–UP6 at 520.
pub const UNITS: usize = 528;
/// First unit of the uniform registers.
pub const UR_BASE: u16 = 256;
/// First unit of the predicates.
pub const P_BASE: u16 = 512;
/// First unit of the uniform predicates.
pub const UP_BASE: u16 = 520;
const MAX_READS: usize = 16;
const MAX_WRITES: usize = 8;

/// The register unit of one 32-bit register (or predicate).
pub fn unit(reg: Reg) -> Option<u16> {
    let RegNum::Phys(n) = reg.num else { return None };
    let n = u16::from(n);
    match reg.file {
        RegFile::Gpr if n < 255 => Some(n),
        RegFile::Uniform if n < 255 => Some(UR_BASE + n),
        RegFile::Pred if n < 7 => Some(P_BASE + n),
        RegFile::UniformPred if n < 7 => Some(UP_BASE + n),
        _ => None,
    }
}

/// The register file of a unit.
#[inline]
pub fn file_of(unit: u16) -> File {
    // Branch-free: R and UR are 256 units each, P and UP 8 each.
    const FILES: [File; 4] = [File::R, File::Ur, File::P, File::Up];
    FILES[usize::from((unit >> 8).min(2) + u16::from(unit >= UP_BASE))]
}

/// The name of a unit (`R4`, `UR6`, `P0`, `UP1`).
pub fn unit_name(unit: u16) -> String {
    match file_of(unit) {
        File::R => format!("R{unit}"),
        File::Ur => format!("UR{}", unit - UR_BASE),
        File::P => format!("P{}", unit - P_BASE),
        File::Up => format!("UP{}", unit - UP_BASE),
    }
}

pub use crate::isa::op_facts::QUEUE_IDS;

/// The latency class of an instruction: its opcode's, but for IMAD's
/// `.WIDE` forms (a register-pair result), which have their own.
pub fn class_of(inst: &Inst) -> Class {
    match inst.op().facts().class {
        Class::Imad if inst.has(Mod::WIDE) => Class::ImadWide,
        class => class,
    }
}

/// The in-order queue of an instruction's unit (0 for none): results of
/// one queue arrive in issue order, as ptxas's code relies on (the
/// transcendental/conversion unit, the double-precision unit, one queue
/// per memory or other variable-latency opcode; see
/// [`crate::isa::op_facts::OpFacts::queue`]).
pub fn queue(inst: &Inst) -> u8 {
    inst.op().facts().queue
}

/// What the checker needs of one static instruction: its class and the
/// register units it reads and writes.
#[derive(Clone, Debug)]
pub struct HazardInfo {
    pub(crate) class: Class,
    pub(crate) queue: u8,
    pub(crate) form: &'static Form,
    pub(crate) guard: Option<u16>,
    reads: [u16; MAX_READS],
    n_reads: u8,
    writes: [u16; MAX_WRITES],
    n_writes: u8,
    /// Per write, the latency row of its result ([`Table::row_index`]).
    pub(crate) write_rows: [u8; MAX_WRITES],
    /// Bit `k` set when read `k` is a general register of a global store's
    /// address (STG's `[R4.64]`): see [`HazardInfo::overwrites_store_address_early`].
    store_address: u16,
    /// The instruction is a shared-memory load (LDS).
    shared_load: bool,
}

impl HazardInfo {
    /// Classifies an instruction for an SM (the SM does not change the
    /// classification today; it is part of the interface because which
    /// classes are variable-latency is per SM, in the tables).
    pub fn of(inst: &Inst, _sm: Sm) -> HazardInfo {
        HazardInfo::with(inst, class_of(inst), queue(inst))
    }

    fn with(inst: &Inst, class: Class, queue: u8) -> HazardInfo {
        // [result, source 0, …, source 3], from the form table.
        let widths = inst.widths();
        let mut info = HazardInfo {
            class,
            queue,
            form: inst.form,
            // Uniform instructions' guards (`@UP0`) decode as `P` registers.
            guard: unit(if inst.form.uniform_guard { Reg { file: RegFile::UniformPred, ..inst.guard.0 } } else { inst.guard.0 }),
            reads: [0; MAX_READS],
            n_reads: 0,
            writes: [0; MAX_WRITES],
            n_writes: 0,
            write_rows: [0; MAX_WRITES],
            store_address: 0,
            shared_load: inst.op() == Op::LDS,
        };
        let mut position = 0usize;
        for (k, (slot, op)) in inst.form.slots.iter().zip(inst.operands.iter()).enumerate() {
            match *op {
                Operand::Reg { reg, .. } => {
                    let wide = matches!(reg.file, RegFile::Gpr | RegFile::Uniform);
                    if inst.form.writes(k) {
                        info.push_write(reg, if wide { widths[0] } else { 1 });
                    } else {
                        let width = if wide { widths.get(1 + position).copied().unwrap_or(1) } else { 1 };
                        if reg.file != RegFile::Barrier {
                            info.push_read(reg, width);
                        }
                        if reg.file != RegFile::Pred && reg.file != RegFile::UniformPred {
                            position += 1;
                        }
                    }
                }
                Operand::Mem(m) => {
                    // The slot's `.64`, or the form's width for the address
                    // (a compare-and-swap's pair prints without `.64`).
                    let wide = matches!(slot, Slot::Addr { wide: true, .. });
                    let first = info.n_reads;
                    info.push_read(m.base(), if wide { 2 } else { widths.get(1 + position).copied().unwrap_or(1) });
                    if inst.op() == Op::STG {
                        info.store_address = ((1u32 << info.n_reads) - (1u32 << first)) as u16;
                    }
                    if let Some(d) = m.desc() {
                        info.push_read(d, 2);
                    }
                    if let Some(u) = m.uniform() {
                        // Without a base register the uniform register is the
                        // whole address, as wide as the form says (UBLKCP's
                        // destination and mbarrier pair).
                        let whole = matches!(slot, Slot::Addr { base: None, .. });
                        info.push_read(u, if whole { widths.get(1 + position).copied().unwrap_or(1) } else { 1 });
                    }
                    position += 1;
                }
                Operand::ConstAddr { index, .. } => {
                    info.push_read(index, 1);
                    position += 1;
                }
                // Immediates, constant-bank operands, special registers, targets.
                _ => position += 1,
            }
        }
        for (row, &w) in info.write_rows.iter_mut().zip(&info.writes[..usize::from(info.n_writes)]) {
            *row = Table::row_index(file_of(w), class);
        }
        info
    }

    fn push_read(&mut self, reg: Reg, width: u8) {
        let Some(u) = unit(reg) else { return };
        for k in 0..u16::from(width) {
            if let (Some(slot), true) = (self.reads.get_mut(usize::from(self.n_reads)), same_file(u, u + k)) {
                *slot = u + k;
                self.n_reads += 1;
            }
        }
    }

    fn push_write(&mut self, reg: Reg, width: u8) {
        let Some(u) = unit(reg) else { return };
        for k in 0..u16::from(width) {
            if let (Some(slot), true) = (self.writes.get_mut(usize::from(self.n_writes)), same_file(u, u + k)) {
                *slot = u + k;
                self.n_writes += 1;
            }
        }
    }

    /// The instruction's class.
    #[inline]
    pub fn class(&self) -> Class {
        self.class
    }

    /// The in-order queue of the instruction's unit ([`queue`]; 0: none).
    #[inline]
    pub fn queue(&self) -> u8 {
        self.queue
    }

    /// Register units read by the operands (the guard is not among them):
    /// see [`HazardInfo::unit_name`].
    #[inline]
    pub fn reads(&self) -> &[u16] {
        &self.reads[..usize::from(self.n_reads)]
    }

    /// Register units written.
    #[inline]
    pub fn writes(&self) -> &[u16] {
        &self.writes[..usize::from(self.n_writes)]
    }

    /// Whether read `k` is a general register of a global store's address.
    #[inline]
    pub fn reads_store_address(&self, k: usize) -> bool {
        k < 16 && self.store_address >> k & 1 != 0
    }

    /// Whether this instruction, setting write scoreboard `write_sb`, may
    /// overwrite a register that an earlier global store (STG) still holds
    /// on a read scoreboard as its address, without a wait on it: ptxas
    /// 13.5 on sm_80, sm_86 and sm_89 does so with LDS (`STG.E.U16
    /// [R4.64], R19` on read scoreboard 1, then `LDS R4, [R6]` on W2 three
    /// instructions later with no wait on 1, while the ALU write of R5
    /// right after that waits on 1; also in a Triton attention kernel,
    /// `STG.E.U16 [R10.64]` then `LDS R11`). Both pass through the
    /// memory-input queue in order, and the store has read its address
    /// by the time the load writes. Not seen for the store's data, for
    /// other overwriters, or on sm_75, sm_90 and sm_120 (the same kernels
    /// there, 72 compilations, gave no such pair): not allowed there.
    #[inline]
    pub fn overwrites_store_address_early(&self, write_sb: Option<u8>, sm: Sm) -> bool {
        self.shared_load && write_sb.is_some() && (80..90).contains(&sm.number)
    }

    /// The guard predicate's unit, when the instruction is guarded.
    #[inline]
    pub fn guard(&self) -> Option<u16> {
        self.guard
    }

    /// The name of a register unit (`R4`, `UR6`, `P0`, `UP1`).
    pub fn unit_name(unit: u16) -> String {
        unit_name(unit)
    }
}

/// Whether `unit` is still a register of the file `start` is in (a pair or
/// quad that would run past R254, UR254, P6 or UP6 is cut there).
fn same_file(start: u16, unit: u16) -> bool {
    let end = match file_of(start) {
        File::R => 255,
        File::Ur => UR_BASE + 255,
        File::P => P_BASE + 7,
        File::Up => UP_BASE + 7,
    };
    unit < end
}

pub use crate::isa::op_facts::Space;

/// What an instruction does to memory: `(space, reads, writes)`; `None`
/// for no memory access (constant-bank loads read memory nothing writes).
pub fn memory_access(op: Op) -> Option<(Space, bool, bool)> {
    op.facts().memory.map(|m| (m.space, m.reads, m.writes))
}

/// Whether the instruction's operands are outside the width model
/// (matrix operations read and write register tuples whose size depends
/// on the shape): the scheduler keeps them in place, waits for everything
/// before them and lets their results settle before going on.
pub fn opaque(op: Op) -> bool {
    op.facts().opaque
}

/// Whether an instruction is a fence for reordering: control transfer,
/// barriers and convergence, memory fences, anything whose effects the
/// dependence model does not see (convergence-barrier registers, matrix
/// operands). The scheduler moves nothing across one.
pub fn fence(inst: &Inst, class: Class) -> bool {
    let facts = inst.op().facts();
    matches!(class, Class::Control | Class::Misc)
        || facts.opaque
        || inst.operands.iter().any(|op| matches!(op, Operand::Reg { reg, .. } if reg.file == RegFile::Barrier) || matches!(op, Operand::Target(_)))
        || facts.special_register && reads_clock(inst)
}

/// Whether a special-register read is a clock (its value depends on where
/// it issues).
fn reads_clock(inst: &Inst) -> bool {
    // SR_CLOCK (0x1), SR_CLOCKLO/HI (0x50/0x51) and SR_GLOBALTIMERLO/HI (0x52/0x53), numbers
    // from nvdisasm's special-register names (isa::inst::special_register_name).
    inst.operands.iter().any(|op| matches!(op, Operand::SpecialReg(0x1 | 0x50..=0x53)))
}

/// Whether an instruction transfers control: it ends a block, issues no
/// earlier than the branch unit allows, and is where pending work must be
/// settled when the path leaves for code scheduled apart.
pub fn branch_like(op: Op) -> bool {
    op.facts().control.transfers()
}
