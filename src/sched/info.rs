//! What the schedulers and checkers need to know of one instruction: the
//! register units it reads and writes (operand widths included), its
//! latency class and the in-order queue of its unit ([`HazardInfo`]).
//! Shared by the scheduler ([`super`]), the static checker
//! ([`super::check`]) and the SASS interpreter's dynamic checker
//! ([`crate::interp::sass::hazard`]), so that all three see the same
//! dependences.

use super::latency::{Class, File, Table};
use crate::isa::form::{Form, Slot};
use crate::isa::inst::Inst;
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

/// Register widths of an instruction's operands, in 32-bit registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// Width of a general or uniform register result.
    dst: u8,
    /// Width of the general or uniform register source at printed source
    /// position 0–3 (positions count every source operand but predicates).
    src: [u8; 4],
}

/// The operand widths of a mnemonic with its modifiers (`LDG.E.64`,
/// `F2F.F64.F32`): what the ISA reference (and the register pairs ptxas
/// allocates in the corpus) shows each form reads and writes.
fn shape(mnemonic: &str) -> Shape {
    let tokens: Vec<&str> = mnemonic.split('.').collect();
    let has = |t: &str| tokens.contains(&t);
    let base = tokens.first().copied().unwrap_or("");
    let all = |w: u8| Shape { dst: w, src: [w; 4] };
    // Memory access size, from the size modifier.
    let size = if has("128") || tokens.iter().any(|t| t.ends_with("x8") || t.ends_with("x4") && t.starts_with("F32")) {
        4
    } else if has("64") || has("S64") || has("U64") || has("F64") || tokens.iter().any(|t| t.ends_with("x4") || t.starts_with("F32x2")) {
        2
    } else {
        1
    };
    // Float conversion types in order: destination, then source.
    let types: Vec<&str> = tokens.iter().copied().filter(|t| matches!(*t, "F64" | "F32" | "F16" | "BF16")).collect();
    let one = Shape { dst: 1, src: [1; 4] };
    match base {
        "DFMA" | "DADD" | "DMUL" | "DMNMX" => all(2),
        "DSETP" => Shape { dst: 1, src: [2; 4] },
        "IMAD" | "UIMAD" if has("WIDE") => Shape { dst: 2, src: [1, 1, 2, 1] },
        "LDG" | "LD" | "LDS" | "LDL" | "LDC" | "LDCU" | "ULDC" => Shape { dst: size, src: [1; 4] },
        // Address first, then the data.
        "STG" | "ST" | "STS" | "STL" | "ATOMG" | "ATOMS" | "ATOM" | "RED" | "REDG" => Shape { dst: size, src: [1, size, size, size] },
        "F2F" => Shape { dst: if types.first() == Some(&"F64") { 2 } else { 1 }, src: [if types.get(1) == Some(&"F64") { 2 } else { 1 }; 4] },
        "F2I" => Shape { dst: if has("S64") || has("U64") { 2 } else { 1 }, src: [if has("F64") { 2 } else { 1 }; 4] },
        "I2F" => Shape { dst: if has("F64") { 2 } else { 1 }, src: [if has("S64") || has("U64") { 2 } else { 1 }; 4] },
        "FRND" if has("F64") => all(2),
        "CS2R" => Shape { dst: if has("32") { 1 } else { 2 }, src: [1; 4] },
        "LEPC" => Shape { dst: 2, src: [1; 4] },
        "MOV" | "UMOV" | "SEL" | "USEL" | "IADD" | "UIADD3" if has("64") => all(2),
        "ISETP" | "UISETP" if has("U64") || has("S64") => Shape { dst: 1, src: [2; 4] },
        "IMNMX" | "UIMNMX" if has("U64") || has("S64") => all(2),
        _ => one,
    }
}

/// Whether a slot is a destination: the result register field (bits 16–23)
/// and the two predicate result fields (81–83, 84–86), as every form of the
/// table places them.
fn is_destination(slot: &Slot) -> bool {
    match slot {
        Slot::Gpr { field, .. } | Slot::Ur { field, .. } => field.start == 16,
        Slot::Pred { field, .. } => field.start == 81 || field.start == 84,
        _ => false,
    }
}

/// Queues of variable-latency units whose results arrive in issue order,
/// as ptxas's code relies on (see the module documentation): the
/// transcendental/conversion unit (MUFU, F2I/I2F/F2F/FRND/FCHK, FLO, POPC,
/// BREV share one: ptxas covers an `I2F` without a scoreboard by a wait on a
/// later `MUFU`'s), the double-precision unit, and one queue per memory or
/// other variable-latency opcode. 0: fixed-latency classes (no queue).
const QUEUES: &[(&str, u8)] = &[
    ("LDS", 3),
    ("LDG", 4),
    ("LD", 5),
    ("LDL", 6),
    ("LDC", 7),
    ("LDCU", 7),
    ("ATOMS", 8),
    ("ATOMG", 9),
    ("ATOM", 10),
    ("S2R", 11),
    ("S2UR", 12),
    ("SHFL", 13),
    ("REDUX", 14),
    ("B2R", 15),
    ("BMOV", 16),
];
/// Number of queue identifiers (0 included; 17: any other variable-latency opcode).
pub const QUEUE_IDS: usize = 18;

/// The in-order queue of an instruction (0 for none).
pub fn queue(mnemonic: &str, class: Class) -> u8 {
    let base = mnemonic.split('.').next().unwrap_or("");
    match class {
        Class::Mufu | Class::Conv | Class::Bitop => 1,
        Class::Fp64 => 2,
        Class::Mem | Class::Ldc | Class::Sreg | Class::Shfl | Class::Misc => QUEUES.iter().find(|(m, _)| *m == base).map_or(17, |(_, q)| *q),
        _ => 0,
    }
}

/// The mnemonic with its modifiers (form name, modifier spellings, suffix).
pub fn mnemonic(inst: &Inst) -> String {
    // The form's name, not an alias (`IMAD.MOV` is an IMAD): the latency
    // tables are keyed by it. Operand suffixes (`.H0_H0`) are not part of it.
    let mut m = inst.form.name.to_string();
    for (k, (field, &v)) in inst.form.mods.iter().zip(inst.mods.iter()).enumerate() {
        if !inst.form.is_operand_mod(k) {
            m += field.names.get(usize::from(v)).copied().unwrap_or("");
        }
    }
    m + inst.form.suffix
}

/// A memo for [`HazardInfo::of_cached`]: per form and modifier values,
/// the operand widths, class and queue its mnemonic gives.
#[derive(Default, Debug)]
pub struct InfoCache {
    map: std::collections::HashMap<FormKey, (Shape, Class, u8), crate::fxhash::FxBuild>,
}

/// A form (by address) with its modifier values and their count.
type FormKey = (usize, [u8; 6], u8);

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
}

impl HazardInfo {
    /// Classifies an instruction for an SM (the SM does not change the
    /// classification today; it is part of the interface because which
    /// classes are variable-latency is per SM, in the tables).
    pub fn of(inst: &Inst, _sm: Sm) -> HazardInfo {
        let m = mnemonic(inst);
        let class = Class::of_mnemonic(&m);
        HazardInfo::with(inst, shape(&m), class, queue(&m, class))
    }

    /// [`HazardInfo::of`], with what the mnemonic decides looked up in
    /// `cache` (the mnemonic is built once per form and modifier values).
    pub fn of_cached(inst: &Inst, sm: Sm, cache: &mut InfoCache) -> HazardInfo {
        if cache.map.len() > 4096 {
            cache.map.clear();
        }
        let mut key = (inst.form as *const Form as usize, [0u8; 6], inst.mods.len() as u8);
        for (k, v) in key.1.iter_mut().zip(inst.mods.iter()) {
            *k = *v;
        }
        match cache.map.get(&key) {
            Some(&(shape, class, queue)) => HazardInfo::with(inst, shape, class, queue),
            None => {
                let m = mnemonic(inst);
                let (shape, class) = (self::shape(&m), Class::of_mnemonic(&m));
                let _ = sm;
                let q = queue(&m, class);
                cache.map.insert(key, (shape, class, q));
                HazardInfo::with(inst, shape, class, q)
            }
        }
    }

    fn with(inst: &Inst, shape: Shape, class: Class, queue: u8) -> HazardInfo {
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
        };
        let mut position = 0usize;
        for (slot, op) in inst.form.slots.iter().zip(inst.operands.iter()) {
            match *op {
                Operand::Reg { reg, .. } => {
                    let wide = matches!(reg.file, RegFile::Gpr | RegFile::Uniform);
                    if is_destination(slot) {
                        info.push_write(reg, if wide { shape.dst } else { 1 });
                    } else {
                        let width = if wide { shape.src.get(position).copied().unwrap_or(1) } else { 1 };
                        if reg.file != RegFile::Barrier {
                            info.push_read(reg, width);
                        }
                        if reg.file != RegFile::Pred && reg.file != RegFile::UniformPred {
                            position += 1;
                        }
                    }
                }
                Operand::Mem(m) => {
                    let wide = matches!(slot, Slot::Addr { wide: true, .. });
                    info.push_read(m.base(), if wide { 2 } else { 1 });
                    if let Some(d) = m.desc() {
                        info.push_read(d, 2);
                    }
                    if let Some(u) = m.uniform() {
                        info.push_read(u, 1);
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

/// A memory space, as far as ordering memory operations goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `.global` (LDG, STG, ATOMG, REDG).
    Global,
    /// `.shared` (LDS, STS, ATOMS, LDSM).
    Shared,
    /// `.local` (LDL, STL).
    Local,
    /// Generic addresses (LD, ST, ATOM, RED): any of the others.
    Generic,
}

impl Space {
    /// Whether two accesses may touch the same memory.
    pub fn may_alias(self, other: Space) -> bool {
        self == other || self == Space::Generic || other == Space::Generic
    }
}

/// What an instruction does to memory: `(space, reads, writes)`; `None`
/// for no memory access (constant-bank loads read memory nothing writes).
pub fn memory_access(base: &str) -> Option<(Space, bool, bool)> {
    Some(match base {
        "LDG" => (Space::Global, true, false),
        "STG" => (Space::Global, false, true),
        "ATOMG" | "REDG" => (Space::Global, true, true),
        "LDS" | "LDSM" => (Space::Shared, true, false),
        "STS" => (Space::Shared, false, true),
        "ATOMS" => (Space::Shared, true, true),
        "LDL" => (Space::Local, true, false),
        "STL" => (Space::Local, false, true),
        "LD" => (Space::Generic, true, false),
        "ST" => (Space::Generic, false, true),
        "ATOM" | "RED" => (Space::Generic, true, true),
        _ => return None,
    })
}

/// Opcodes whose register operands the operand-width rules of [`HazardInfo`]
/// do not describe (matrix operations read and write register tuples whose
/// size depends on the shape): the scheduler keeps them in place, waits
/// for everything before them and lets their results settle before going
/// on.
const OPAQUE: &[&str] = &["HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QMMA", "OMMA", "UTMALDG", "UTMASTG", "STSM", "MOVM", "LDGSTS", "LDGDEPBAR", "DEPBAR", "ARRIVES", "SYNCS", "UBLKCP", "UTMAPF", "CCTL", "LEPC", "SETCTAID", "ACQBULK"];

/// Whether the instruction's operands are outside the width model ([`OPAQUE`]).
pub fn opaque(base: &str) -> bool {
    OPAQUE.contains(&base)
}

/// Whether an instruction is a fence for reordering: control transfer,
/// barriers and convergence, memory fences, anything whose effects the
/// dependence model does not see (convergence-barrier registers, matrix
/// operands). The scheduler moves nothing across one.
pub fn fence(inst: &Inst, class: Class) -> bool {
    let base = inst.form.base_name();
    matches!(class, Class::Control | Class::Misc)
        || opaque(base)
        || inst.operands.iter().any(|op| matches!(op, Operand::Reg { reg, .. } if reg.file == RegFile::Barrier) || matches!(op, Operand::Target(_)))
        || matches!(base, "S2R" | "CS2R" | "S2UR") && reads_clock(inst)
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
pub fn branch_like(base: &str) -> bool {
    matches!(base, "BRA" | "BRX" | "JMP" | "JMX" | "EXIT" | "RET" | "CALL" | "BSYNC" | "BREAK" | "WARPSYNC" | "KILL" | "BPT")
}
