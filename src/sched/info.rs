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

/// The class whose latency row a result of `class` takes in the
/// checkers' tables. A tensor-core result is read as soon as the shape
/// allows, which the tables' one class does not tell apart: ptxas reads a
/// `BMMA.88128` result 12 cycles on and an `HMMA.1688` one 15 cycles on
/// (tests/data/matrix, sm_80 and sm_90), and HMMA.16816's 23 cycles on in
/// the shared corpus. So a matrix result keeps the ALU's row there, as it
/// did before the tensor cores were a class of readers of their own: the
/// checkers do not time it (the scheduler gives it a write scoreboard).
pub fn producer_class(class: Class) -> Class {
    match class {
        Class::Mma => Class::Alu,
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
    /// Per entry `e` of [`EARLY_OVERWRITES`] that applies on the SM: bit
    /// `k` set when read `k` is held as that entry's `held_as`.
    early_holds: [u16; EARLY_KINDS],
    /// The entries of [`EARLY_OVERWRITES`] whose overwriter this
    /// instruction is on the SM (bit `e`).
    early_writer: u16,
    /// For `DEPBAR.LE SBs, n`: the scoreboard and the count of operations
    /// it may still have outstanding.
    pub(crate) depbar: Option<(u8, u8)>,
    /// Bit `k` set when read `k` is taken [`LATE_READ_CYCLES`] later than
    /// the instruction's class reads ([`HazardInfo::reads_with_relief`]).
    late_reads: u16,
}

/// How much later IMAD's 64-bit datapath (IMAD.WIDE, IMAD.HI) reads the
/// high register of its `c` pair than its `a` and `b` operands: NVIDIA's
/// scheduling tables, as Mesa NAK publishes them, give the `c`-high read
/// 2 cycles less than the `a`/`b` read after every fixed-latency writer
/// (`IMADWideReadCH` against `IMADWideReadAB` in `sm80_instr_latencies.rs`:
/// 3 against 5 after an ALU result, 2 against 4 after an FMA one, 8
/// against 10 after FP64; the same rows in `latencies/sm100/reg_raw.csv`).
/// ptxas relies on it for IMAD.HI too: `@P1 MOV R5, R29`, then `@P1
/// IMAD.HI.U32 R37, R3, 0x10000, R4` 3 cycles on (a fuzz-generated
/// program, seed 9910841, sm_100), where an `a` read needs 5.
pub const LATE_READ_CYCLES: u8 = 2;

/// What a general register an instruction holds on a read scoreboard was
/// read as (for [`EARLY_OVERWRITES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldAs {
    /// A global load's address (LDG's `[R2.64]`).
    GlobalLoadAddress,
    /// A global store's address (STG's `[R4.64]`).
    GlobalStoreAddress,
    /// A global store's data (STG's `R19`).
    GlobalStoreData,
    /// A shared-memory atomic's address or data (ATOMS's `[R13.X4+0x400]`
    /// and `R29`).
    SharedAtomicOperand,
    /// A local store's address or data (STL's `[R29]` and `R8`).
    LocalStoreOperand,
    /// A local load's address (LDL's `[R19]`).
    LocalLoadAddress,
}

/// An overwrite of a register still held on a read scoreboard that needs
/// no wait on it: `by`, setting a write scoreboard, may overwrite a
/// register that every instruction still holding it holds as `held_as`,
/// on sm_`sms.0` to sm_`sms.1`. The two pass through the memory unit's
/// input in order, and the earlier one has read the register by the time
/// the later one writes.
#[derive(Clone, Copy, Debug)]
pub struct EarlyOverwrite {
    /// What every holder holds the register as.
    pub held_as: HeldAs,
    /// The overwriting opcode.
    pub by: Op,
    /// The SMs, first and last.
    pub sms: (u16, u16),
}

/// The early overwrites ptxas 13.5 relies on, each measured on its code
/// (anything else held on a read scoreboard waits for it):
/// * a global store's address or data, overwritten by LDS, on every SM:
///   - address: `STG.E.U16 [R4.64], R19` on read scoreboard 1, then `LDS
///     R4, [R6]` on W2 three instructions later with no wait on 1, while
///     the ALU write of R5 right after it waits on 1 (CUB and Thrust
///     kernels on sm_80, 86, 89); on sm_120 `@P4 STG.E.U16
///     desc[UR8][R22.64], R46` on read scoreboard 3, then `LDS.64 R22,
///     [R36+UR5+0x180]` on W4 six instructions later (Triton's matmul);
///   - data: `STG.E desc[UR8][R14.64], R5` on read scoreboard 0, then
///     `LDS R5, [R2+0x1200]` on W1 four instructions later (9 kernels of
///     CUB's block histogram and Thrust's reduce-by-key and merge sort, on
///     each of sm_90 and sm_100); on sm_80 `@!P1 STG.E.U16 [R6.64], R13`
///     on read scoreboard 1, then `LDS R13, [R3+0x900]` with no scoreboard
///     three instructions later (Triton's attention);
///   - on sm_75 `STG.E.U16.SYS [R18], R29` on read scoreboard 0, then
///     `LDS.U.U16 R29, [R0+0x2800]` on W2 two instructions later (CUB's
///     radix-sort downsweep and onesweep kernels, 16 instances in the
///     library corpus; the shared corpus's kernels there wait);
///   - the store reads address and data together, so the two are one
///     rule;
/// * the same by a warp shuffle, which enters the memory unit as LDS does
///   (fuzz-generated programs, ptxas 13.5): `STG.E.64.SYS [R4+0x30], R2`
///   on read scoreboard 1, then `SHFL.IDX PT, R3, R21, 0x1f, 0x1f` on W2
///   four instructions later with no wait on 1 (sm_75); the same with
///   SHFL.BFLY, .DOWN, .UP and .IDX on sm_80, 86, 90 and 100; and after a
///   reduction, `RED.E.INC.STRONG.GPU [R32.64], R36` on read scoreboard 0,
///   then `SHFL.BFLY PT, R36, …` on W1 (sm_80): RED and REDG hold their
///   address and data as a store does;
/// * a shared-memory atomic's address or data, overwritten by LDS:
///   `ATOMS.MIN.S32 RZ, [R13.X4+0x400], R29` on read scoreboard 0, then
///   `LDS.64 R28, [R28]` with no scoreboard six instructions later and no
///   wait on 0 (a fuzz-generated program, sm_89; ATOMS is a queue apart
///   from LDS for its results, not for reading its operands); taken for
///   every SM, as the global store's rule; and by a warp shuffle:
///   `ATOMS.AND RZ, [R18+UR6], R43` on read scoreboard 1, then
///   `SHFL.UP PT, R43, R6, 0x10, RZ` on W0 three instructions later with
///   no wait on 1 (a fuzz-generated program, seed 9804967, sm_90);
/// * a local store's address or data, overwritten by a warp shuffle:
///   `STL [R29], R8` on read scoreboard 1, then `SHFL.UP PT, R8, R5,
///   0x1b, RZ` at once, setting the same read scoreboard and no wait on
///   it (a fuzz-generated program, seed 9902441, sm_100); and by LDS:
///   `STL [R7], R2` on read scoreboard 0, then `LDS.64 R6, [R6]` with no
///   scoreboard eight instructions later, a barrier between and no wait
///   on 0 (seed 9908378, sm_120); taken for every SM, as the global
///   store's rule;
/// * sm_90, 100, 120: `LDG.E.STRONG.SYS R40, desc[UR4][R38.64+0x278]` on
///   read scoreboard 0, then `LDL.LU R39, [R1+0x14]` on W0 two
///   instructions later with no wait on 0 (tests/data/launch_bounds'
///   spilling kernels on each of the three; on sm_120 also
///   `LDG.E.CONSTANT R34, desc[UR10][R2.64]` then `LDL.LU.64 R2` at once,
///   in the library corpus); not seen on sm_75–sm_89 (the same kernels
///   there wait);
/// * the converse on sm_90: `@P0 LDL R2, [R19]` on read scoreboard 0,
///   then `LDG.E.U16.CONSTANT R19, desc[UR8][R44.64]` on W5 at once with
///   no wait on 0 (a fuzz-generated program, seed 10136924); taken for the
///   SMs of the rule above.
///
/// The overwriter sets a write scoreboard, or is in the shared-memory
/// queue (as [`HazardInfo::writes_after_its_queue_reads`]).
pub const EARLY_OVERWRITES: [EarlyOverwrite; 10] = [
    EarlyOverwrite { held_as: HeldAs::GlobalStoreAddress, by: Op::LDS, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::GlobalStoreData, by: Op::LDS, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::GlobalStoreAddress, by: Op::SHFL, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::GlobalStoreData, by: Op::SHFL, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::SharedAtomicOperand, by: Op::LDS, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::SharedAtomicOperand, by: Op::SHFL, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::LocalStoreOperand, by: Op::SHFL, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::LocalStoreOperand, by: Op::LDS, sms: (75, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::GlobalLoadAddress, by: Op::LDL, sms: (90, u16::MAX) },
    EarlyOverwrite { held_as: HeldAs::LocalLoadAddress, by: Op::LDG, sms: (90, u16::MAX) },
];

/// The number of [`EARLY_OVERWRITES`] entries (bits of the checkers' masks).
pub const EARLY_KINDS: usize = EARLY_OVERWRITES.len();
const _: () = assert!(EARLY_KINDS <= 16, "HazardInfo::early_writer has a bit per kind");

/// Where a register operand sits in its instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A register operand (`Operand::Reg`).
    Reg,
    /// A memory address's base register.
    MemBase,
    /// A memory address's descriptor (`desc[UR4]`).
    MemDesc,
    /// A uniform register added to a memory address.
    MemUniform,
    /// A constant-bank load's index register.
    ConstIndex,
}

/// One register operand of an instruction and the consecutive registers
/// it covers.
#[derive(Clone, Copy, Debug)]
pub struct RegAccess {
    /// The operand's slot.
    pub slot: usize,
    /// What the register is in the operand.
    pub role: Role,
    /// The first register.
    pub reg: Reg,
    /// Registers covered (1 for a predicate).
    pub width: u8,
    /// Written (else read).
    pub write: bool,
}

/// Calls `f` with each register operand of `inst` (the guard excepted,
/// barrier registers read excepted), in slot order, with the width the
/// form table gives it: the one description of which registers an
/// instruction reads and writes, for the hazard checkers and the
/// register allocator's recolouring.
pub fn register_operands(inst: &Inst, mut f: impl FnMut(RegAccess)) {
    // [result, source 0, …, source 3], from the form table.
    let widths = inst.widths();
    // A 256-bit access's data quads cover the components its mask selects
    // (`LDG.E.ENL2.256 R3, RZ, …, 0x80` writes R3 alone).
    let quads = inst.quad_components();
    let quad_width = |k: usize| quads.and_then(|q| q.iter().find(|&&(s, _)| s == k).map(|&(_, m)| m.count_ones() as u8));
    let mut position = 0usize;
    for (k, (slot, op)) in inst.form.slots.iter().zip(inst.operands.iter()).enumerate() {
        match *op {
            Operand::Reg { reg, .. } => {
                let wide = matches!(reg.file, RegFile::Gpr | RegFile::Uniform);
                if inst.form.writes(k) {
                    let width = quad_width(k).unwrap_or(if wide { widths[0] } else { 1 });
                    f(RegAccess { slot: k, role: Role::Reg, reg, width, write: true });
                } else {
                    let width = quad_width(k).unwrap_or(if wide { widths.get(1 + position).copied().unwrap_or(1) } else { 1 });
                    if reg.file != RegFile::Barrier {
                        f(RegAccess { slot: k, role: Role::Reg, reg, width, write: false });
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
                f(RegAccess { slot: k, role: Role::MemBase, reg: m.base(), width: if wide { 2 } else { widths.get(1 + position).copied().unwrap_or(1) }, write: false });
                if let Some(d) = m.desc() {
                    f(RegAccess { slot: k, role: Role::MemDesc, reg: d, width: 2, write: false });
                }
                if let Some(u) = m.uniform() {
                    // Without a base register the uniform register is the
                    // whole address, as wide as the form says (UBLKCP's
                    // destination and mbarrier pair).
                    let whole = matches!(slot, Slot::Addr { base: None, .. });
                    f(RegAccess { slot: k, role: Role::MemUniform, reg: u, width: if whole { widths.get(1 + position).copied().unwrap_or(1) } else { 1 }, write: false });
                }
                position += 1;
            }
            Operand::ConstAddr { index, .. } => {
                f(RegAccess { slot: k, role: Role::ConstIndex, reg: index, width: 1, write: false });
                position += 1;
            }
            // Immediates, constant-bank operands, special registers, targets.
            _ => position += 1,
        }
    }
}

/// The scoreboard (bits 44–46 of the form's fixed fields) and the count
/// (its hex operand) of a `DEPBAR.LE`.
fn depbar_count(inst: &Inst) -> Option<(u8, u8)> {
    if inst.op() != Op::DEPBAR {
        return None;
    }
    let sb = inst.form.fixed.iter().find(|(field, _)| field.start == 44 && field.width == 3).map(|&(_, v)| v as u8)?;
    let count = inst.operands.iter().find_map(|o| match o {
        Operand::Hex(n) => Some(*n as u8),
        _ => None,
    })?;
    Some((sb, count))
}

impl HazardInfo {
    /// Classifies an instruction for an SM (the SM does not change the
    /// classification today; it is part of the interface because which
    /// classes are variable-latency is per SM, in the tables).
    pub fn of(inst: &Inst, sm: Sm) -> HazardInfo {
        HazardInfo::with(inst, class_of(inst), queue(inst), sm)
    }

    fn with(inst: &Inst, class: Class, queue: u8, sm: Sm) -> HazardInfo {
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
            early_holds: [0; EARLY_KINDS],
            early_writer: 0,
            depbar: depbar_count(inst),
            late_reads: 0,
        };
        // Reads by what they are held as (bit per read, per HeldAs).
        let mut held = [0u16; 6];
        let span = |from: u8, to: u8| (((1u32 << to) - (1u32 << from)) & 0xffff) as u16;
        register_operands(inst, |access| {
            if access.write {
                info.push_write(access.reg, access.width);
                return;
            }
            let first = info.n_reads;
            info.push_read(access.reg, access.width);
            match (inst.op(), access.role) {
                (Op::STG | Op::RED | Op::REDG, Role::Reg) => held[HeldAs::GlobalStoreData as usize] |= span(first, info.n_reads),
                (Op::STG | Op::RED | Op::REDG, Role::MemBase) => held[HeldAs::GlobalStoreAddress as usize] |= span(first, info.n_reads),
                (Op::LDG, Role::MemBase) => held[HeldAs::GlobalLoadAddress as usize] |= span(first, info.n_reads),
                (Op::ATOMS, Role::Reg | Role::MemBase) => held[HeldAs::SharedAtomicOperand as usize] |= span(first, info.n_reads),
                (Op::STL, Role::Reg | Role::MemBase) => held[HeldAs::LocalStoreOperand as usize] |= span(first, info.n_reads),
                (Op::LDL, Role::MemBase) => held[HeldAs::LocalLoadAddress as usize] |= span(first, info.n_reads),
                // IMAD's only 64-bit source is its `c` pair.
                (Op::IMAD, Role::Reg) if access.width == 2 && info.n_reads == first + 2 && first + 1 < 16 => info.late_reads |= 1 << (first + 1),
                _ => {}
            }
        });
        for (row, &w) in info.write_rows.iter_mut().zip(&info.writes[..usize::from(info.n_writes)]) {
            *row = Table::row_index(file_of(w), producer_class(class));
        }
        // IMAD.WIDE's low result register has a row of its own
        // (`latency::WIDE_LOW_ROW`: ready sooner for the coupled readers).
        if producer_class(class) == Class::ImadWide && info.n_writes >= 2 && file_of(info.writes[0]) == File::R && info.writes[1] == info.writes[0] + 1 {
            info.write_rows[0] = crate::sched::latency::WIDE_LOW_ROW;
        }
        for (e, entry) in EARLY_OVERWRITES.iter().enumerate() {
            if (entry.sms.0..=entry.sms.1).contains(&sm.number) {
                info.early_holds[e] = held[entry.held_as as usize];
                if inst.op() == entry.by {
                    info.early_writer |= 1 << e;
                }
            }
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

    /// The class of the instruction's results in the checkers' tables
    /// ([`producer_class`]).
    #[inline]
    pub fn producer_class(&self) -> Class {
        producer_class(self.class)
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

    /// [`HazardInfo::reads`], each with the cycles by which its read comes
    /// later than its class's ([`LATE_READ_CYCLES`] or 0): a fixed-latency
    /// result of latency `l` for the class may be read `l - relief`
    /// cycles on.
    #[inline]
    pub fn reads_with_relief(&self) -> impl Iterator<Item = (u16, u8)> + '_ {
        let late = self.late_reads;
        self.reads().iter().enumerate().map(move |(k, &r)| (r, if k < 16 && late >> k & 1 != 0 { LATE_READ_CYCLES } else { 0 }))
    }

    /// Register units written.
    #[inline]
    pub fn writes(&self) -> &[u16] {
        &self.writes[..usize::from(self.n_writes)]
    }

    /// The latency row ([`Table::rows`]) of the result in register unit
    /// `u`, if this instruction writes it.
    pub fn write_row(&self, u: u16) -> Option<u8> {
        self.writes().iter().position(|&w| w == u).map(|k| self.write_rows[k])
    }

    /// Whether this instruction, setting write scoreboard `write_sb`,
    /// writes its registers only after every earlier instruction of its
    /// in-order queue has read its sources, so that it may overwrite them
    /// without a wait: with a write scoreboard (`LDG.E R2, [R2.64+0x4]`
    /// after `LDG.E R5, [R2.64]`), and in the shared-memory queue without
    /// one too — ptxas 13.5 overwrites a register an STS holds on a read
    /// scoreboard with an unscoreboarded LDS (`STS [R25+0x400], R17` on
    /// read scoreboard 3, then `LDS R17, [R31+0x18]` with no scoreboard and
    /// no wait on 3: CUB's scans and Thrust's sorts and reduce-by-key, 40
    /// instances over sm_80–sm_120). Not seen in other queues.
    #[inline]
    pub fn writes_after_its_queue_reads(&self, write_sb: Option<u8>) -> bool {
        self.queue != 0 && (write_sb.is_some() || self.queue == crate::isa::op_facts::QUEUE_SHARED_MEMORY)
    }

    /// Records that read `k` is held on read scoreboard `s` in a
    /// checker's per-entry masks of [`EARLY_OVERWRITES`] (`early[e]`: the
    /// read scoreboards whose every holder holds the unit as entry `e`'s
    /// `held_as`); `newly`: the unit was not held on `s` before.
    #[inline]
    pub fn hold_early(&self, k: usize, s: u8, newly: bool, early: &mut [u8; EARLY_KINDS]) {
        for (mask, holds) in early.iter_mut().zip(self.early_holds) {
            let bit = if k < 16 && holds >> k & 1 != 0 { 1u8 << s } else { 0 };
            *mask = if newly { (*mask & !(1 << s)) | bit } else { *mask & (bit | !(1 << s)) };
        }
    }

    /// Whether this instruction, setting write scoreboard `write_sb` (or
    /// none, in the shared-memory queue), may overwrite a register held on
    /// the read scoreboards `read_sbs`
    /// without a wait on them: an entry of [`EARLY_OVERWRITES`] has it as
    /// overwriter and every holder of each of those scoreboards as holder
    /// (`early`, kept by [`HazardInfo::hold_early`]).
    #[inline]
    pub fn overwrites_early(&self, write_sb: Option<u8>, read_sbs: u8, early: &[u8; EARLY_KINDS]) -> bool {
        self.early_writer != 0 && self.writes_after_its_queue_reads(write_sb) && (0..EARLY_KINDS).any(|e| self.early_writer >> e & 1 != 0 && read_sbs & !early[e] == 0)
    }

    /// The join of two checkers' `early` masks where the read scoreboards
    /// `mine` and `theirs` hold the unit: a scoreboard held on both sides
    /// keeps an entry only where both do.
    pub fn join_early(early: &mut [u8; EARLY_KINDS], mine: u8, theirs: u8, other: &[u8; EARLY_KINDS]) {
        for (m, t) in early.iter_mut().zip(other) {
            *m = (*m & (*t | !theirs) & (mine | !theirs)) | (*t & theirs & !mine);
        }
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
