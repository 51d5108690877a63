//! What the later stages know of a SASS opcode besides its encodings, as
//! data: its latency class, the in-order queue of its unit, whether its
//! register operands take reuse flags, what it does to memory, whether it
//! transfers control. Each opcode's facts are declared once, in
//! `ptx2sass-meta`'s `table/opcodes.rs`, next to the form table; the build script checks
//! that every opcode of the form table has its row and generates the
//! compiler's `isa::op::Op` enum from the rows.
//!
//! This module holds only the types (the build script's generator reads
//! them too).

/// A group of opcodes that share a pipeline and, as far as the corpus
/// shows, latencies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Class {
    /// Integer ALU: IADD3, IADD, LOP3, SHF, LEA, SEL, ISETP, PRMT, IABS,
    /// IMNMX, VIMNMX, VIADD, SGXT, PLOP3, LEPC, …
    Alu,
    /// IMAD and IMAD.HI (the FMA pipe).
    Imad,
    /// IMAD.WIDE (a register-pair result).
    ImadWide,
    /// MOV, MOV.64, CS2R.
    Mov,
    /// Single precision: FFMA, FADD, FMUL, FSEL, FSETP, FMNMX.
    Fp32,
    /// Packed half precision: HFMA2, HADD2, HMUL2, HSETP2, …
    Half,
    /// Double precision: DFMA, DADD, DMUL, DSETP.
    Fp64,
    /// Conversions through the conversion unit: F2I, I2F, F2F, FRND, and FCHK.
    Conv,
    /// Conversions on the ALU/FMA pipes: I2FP, F2FP.
    ConvFast,
    /// Transcendentals: MUFU.
    Mufu,
    /// Bit counting: FLO, POPC, BREV.
    Bitop,
    /// The uniform datapath: UIADD3, ULOP3, ULEA, UISETP, R2UR, …
    Uniform,
    /// ULDC (uniform constant load).
    Uldc,
    /// UMOV: a uniform move, ready for its readers sooner than the rest of
    /// the uniform datapath. NVIDIA's tables as Mesa NAK publishes them
    /// give a vector instruction's read of a UMOV result 2 cycles where a
    /// UIADD3 result needs 6 (a load's address 9): `Umov` against `Udp`
    /// in `sm75_instr_latencies.rs` and `latencies/sm100/ureg_raw.csv`;
    /// ptxas 13.5 reads one 3 cycles on (`UMOV UR4, 0x3f800000` then
    /// `FADD.FTZ R7, -RZ, -UR4`, a generated program on sm_75).
    Umov,
    /// LDC, LDCU (constant loads into vector or uniform registers).
    Ldc,
    /// Memory: loads, stores, atomics, reductions.
    Mem,
    /// Special registers: S2R, S2UR.
    Sreg,
    /// Warp-wide exchange: SHFL, REDUX, MATCH.
    Shfl,
    /// VOTE, VOTEU.
    Vote,
    /// CREDUX (sm_100): a warp minimum or maximum into a uniform register,
    /// on a unit of its own (nvdisasm's `uC`), fixed-latency where REDUX
    /// is not: ptxas sets no scoreboard and reads the result 13 cycles
    /// later (`IMAD.U32 R0, RZ, RZ, UR4` after `S13`, sm_100a).
    Credux,
    /// Convergence-barrier registers: B2R, BMOV.
    Misc,
    /// Branches, barriers, and other control: BRA, EXIT, RET, BAR, …
    Control,
    /// The asynchronous units of sm_90 and later: SYNCS (mbarrier) and
    /// UBLKCP (bulk copies). A class apart from [`Class::Mem`] because they
    /// read their registers at another time than loads and stores: ptxas
    /// has UBLKCP read a uniform register 2 cycles after R2UR writes it,
    /// where loads and stores need 9 (library corpus, sm_90).
    Async,
    /// The texture unit: TEX, TLD. A class apart from [`Class::Mem`]
    /// because it reads its coordinates earlier than loads and stores read
    /// addresses: on sm_75 ptxas has TEX and TLD read a register 6 cycles
    /// after a MOV or IMAD writes it, where loads and stores need 7 or 8
    /// (ZLUDA's `tex_read_*` kernels).
    Texture,
    /// The tensor cores: HMMA, IMMA, BMMA, DMMA. Their results always take
    /// a write scoreboard; as readers they are a class apart from the ALU
    /// because they collect their fragments later and over several cycles:
    /// ptxas issues `HMMA` 7 cycles after an `F2FP` writes one of its
    /// operands where an integer reader of the same result needs 4
    /// (ZLUDA's `mma_m16n8k16_*` kernels, sm_80); NVIDIA's scheduling
    /// tables give an MMA operand read 7 cycles after an ALU result
    /// (Mesa NAK, `sm80_instr_latencies.rs`, `MMA_*_collect`).
    Mma,
    /// Not an opcode's class: a predicate read as an instruction's guard,
    /// whatever the instruction. The guard is read at issue, before the
    /// operands: ptxas 13.5 leaves at least 13 cycles between an ISETP
    /// and an instruction it guards (`@P0 IADD3`, `@P0 IMAD`, `@P0 BRA`:
    /// generated programs, sm_80, 78, 349 and 345 times), where a SEL or
    /// IADD3.X reading the same predicate as an operand needs 4 and one
    /// after IMAD.HI's carry-out 5 (NVIDIA's scheduling tables as Mesa NAK
    /// publishes them, `sm80_instr_latencies.rs`, agree: a `Guard` reader
    /// needs 13 cycles after an ALU or FMA predicate, a coupled one 4 or 5).
    Guard,
}

/// Number of classes.
pub const CLASSES: usize = 26;

impl Class {
    /// Every class, in table order.
    pub const ALL: [Class; CLASSES] = [
        Class::Alu,
        Class::Imad,
        Class::ImadWide,
        Class::Mov,
        Class::Fp32,
        Class::Half,
        Class::Fp64,
        Class::Conv,
        Class::ConvFast,
        Class::Mufu,
        Class::Bitop,
        Class::Uniform,
        Class::Uldc,
        Class::Umov,
        Class::Ldc,
        Class::Mem,
        Class::Sreg,
        Class::Shfl,
        Class::Vote,
        Class::Credux,
        Class::Misc,
        Class::Control,
        Class::Async,
        Class::Texture,
        Class::Mma,
        Class::Guard,
    ];

    /// The name used in the data files (the scheduler's latency tables).
    pub const fn name(self) -> &'static str {
        match self {
            Class::Alu => "alu",
            Class::Imad => "imad",
            Class::ImadWide => "imad_wide",
            Class::Mov => "mov",
            Class::Fp32 => "fp32",
            Class::Half => "half",
            Class::Fp64 => "fp64",
            Class::Conv => "conv",
            Class::ConvFast => "conv_fast",
            Class::Mufu => "mufu",
            Class::Bitop => "bitop",
            Class::Uniform => "uniform",
            Class::Uldc => "uldc",
            Class::Umov => "umov",
            Class::Ldc => "ldc",
            Class::Mem => "mem",
            Class::Sreg => "sreg",
            Class::Shfl => "shfl",
            Class::Vote => "vote",
            Class::Credux => "credux",
            Class::Misc => "misc",
            Class::Control => "control",
            Class::Async => "async",
            Class::Texture => "tex",
            Class::Mma => "mma",
            Class::Guard => "guard",
        }
    }
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
    #[inline]
    pub fn may_alias(self, other: Space) -> bool {
        self == other || self == Space::Generic || other == Space::Generic
    }
}

/// What an instruction does to memory (constant-bank loads are not
/// accesses: nothing writes that memory while a kernel runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Where.
    pub space: Space,
    /// It reads memory.
    pub reads: bool,
    /// It writes memory.
    pub writes: bool,
}

/// In-order queue of the transcendental/conversion unit (MUFU, F2I, I2F,
/// F2F, FRND, FCHK, FLO, POPC, BREV share one).
pub const QUEUE_TRANSCENDENTAL: u8 = 1;
/// In-order queue of the double-precision unit.
pub const QUEUE_FP64: u8 = 2;
/// In-order queue of the shared-memory pipe, which shuffles go through as
/// well: ptxas's code overwrites a register an `STS` still holds with an
/// `LDS` and no wait, and reads a `SHFL` result (no scoreboard of its own)
/// after waiting for a later `LDS` (library corpus, sm_90); it reads an
/// `LDSM` result (no scoreboard of its own) after waiting for a later
/// `SHFL` (Triton's attention, sm_80).
pub const QUEUE_SHARED_MEMORY: u8 = 3;
/// The queue of a variable-latency opcode not given one of its own.
pub const QUEUE_OTHER: u8 = 17;
/// Number of queue identifiers (0, no queue, included).
pub const QUEUE_IDS: usize = 18;

/// The facts of one opcode (`IADD3`, `LDG`: the name up to the first
/// modifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpFacts {
    /// The opcode as nvdisasm prints it.
    pub name: &'static str,
    /// Latency class (IMAD's `.WIDE` forms are [`Class::ImadWide`]: the
    /// one class a modifier changes).
    pub class: Class,
    /// The in-order queue whose results arrive in issue order (0: none),
    /// as ptxas's code relies on: a wait on a later result of the same
    /// queue covers an earlier one.
    pub queue: u8,
    /// Its register operands take reuse flags (ptxas never sets them on
    /// the transcendental, conversion and shuffle units' operands).
    pub reuse: bool,
    /// What it does to memory.
    pub memory: Option<MemAccess>,
    /// How it transfers control, if it does (pending work settles before
    /// it).
    pub control: Control,
    /// Its register operands are outside the operand-width model (matrix
    /// tuples, asynchronous copies): the scheduler keeps it in place.
    pub opaque: bool,
    /// It reads a special register (a clock read depends on where it issues).
    pub special_register: bool,
    /// Its part in the asynchronous copies' groups.
    pub async_group: AsyncGroup,
}

/// How an opcode transfers control: what follows it in the control-flow
/// graph (the scheduler's block boundaries, the hazard checker's and the
/// emitter's view of the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// It does not.
    None,
    /// To the target operand (BRA).
    Jump,
    /// To one of the function's later blocks, by a register (BRX, BRXU:
    /// the targets are a jump table in a constant bank).
    JumpTable,
    /// To a function, coming back after it (CALL).
    Call,
    /// Out of the thread (EXIT).
    Exit,
    /// Back to the caller (RET).
    Return,
    /// Convergence and warp control that ends no block (BSYNC, BREAK,
    /// WARPSYNC, BPT).
    Converge,
}

impl Control {
    /// Whether it transfers control at all.
    pub const fn transfers(self) -> bool {
        !matches!(self, Control::None)
    }

    /// Whether control may go on somewhere other than the next
    /// instruction within the function (a jump, a jump table, an exit,
    /// a return: not a call, which comes back).
    pub const fn leaves(self) -> bool {
        matches!(self, Control::Jump | Control::JumpTable | Control::Exit | Control::Return)
    }
}

/// What an instruction does in the groups of asynchronous copies
/// (`cp.async`): ptxas gives LDGSTS no scoreboard (its registers are read
/// at issue, its copy completes by the group's wait) and LDGDEPBAR write
/// scoreboard 0, whose count `DEPBAR.LE SB0, n` waits on; no other
/// instruction of the function then uses scoreboard 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncGroup {
    /// Not part of one.
    None,
    /// A copy joining the open group (LDGSTS).
    Copy,
    /// Closes the group, counted on scoreboard 0 (LDGDEPBAR).
    Commit,
}

/// The facts of an opcode of a class: the class's usual queue, reuse
/// flags allowed, no memory access, no control transfer.
pub const fn op(name: &'static str, class: Class) -> OpFacts {
    let queue = match class {
        Class::Mufu | Class::Conv | Class::Bitop => QUEUE_TRANSCENDENTAL,
        Class::Fp64 => QUEUE_FP64,
        Class::Mem | Class::Async | Class::Texture | Class::Ldc | Class::Sreg | Class::Shfl | Class::Misc => QUEUE_OTHER,
        _ => 0,
    };
    OpFacts { name, class, queue, reuse: true, memory: None, control: Control::None, opaque: false, special_register: false, async_group: AsyncGroup::None }
}

impl OpFacts {
    /// With a queue of its own.
    pub const fn queue(self, queue: u8) -> OpFacts {
        OpFacts { queue, ..self }
    }
    /// Without reuse flags.
    pub const fn no_reuse(self) -> OpFacts {
        OpFacts { reuse: false, ..self }
    }
    /// Accessing memory.
    pub const fn memory(self, space: Space, reads: bool, writes: bool) -> OpFacts {
        OpFacts { memory: Some(MemAccess { space, reads, writes }), ..self }
    }
    /// With a part in the asynchronous copies' groups.
    pub const fn async_group(self, async_group: AsyncGroup) -> OpFacts {
        OpFacts { async_group, ..self }
    }
    /// Transferring control.
    pub const fn control(self, control: Control) -> OpFacts {
        OpFacts { control, ..self }
    }
    /// Outside the operand-width model.
    pub const fn opaque(self) -> OpFacts {
        OpFacts { opaque: true, ..self }
    }
    /// Reading a special register.
    pub const fn special_register(self) -> OpFacts {
        OpFacts { special_register: true, ..self }
    }
}
