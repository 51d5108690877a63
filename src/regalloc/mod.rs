//! Register allocation: machine functions on virtual registers
//! ([`MachFunction`]) to code on physical registers ([`Allocated`]), with
//! the unmodified `regalloc2` crate (DESIGN.md, "Register allocation with
//! regalloc2").
//!
//! # Regions
//! regalloc2 knows three classes of at most 64 registers each and no
//! aliasing. Each register file is therefore carved into *regions* of one
//! width, a region being one regalloc2 class whose units are physical
//! registers (singles), aligned pairs or aligned quads ([`layout`]). Three
//! regalloc2 runs cover the four files ([`Kind`]):
//! * R: 32-bit singles, 64-bit pairs, 128-bit quads;
//! * UR and P: uniform singles, uniform pairs, predicates;
//! * UP: uniform predicates.
//!
//! Every run sees the same instructions and blocks ([`prep`]), so their
//! moves merge by program point. Region sizes come from the function's
//! pressure (the most values of one kind live at once) and grow when
//! regalloc2 spills while the register limit leaves room. R0 is a single
//! and R1 is the stack pointer, never allocated; RZ/URZ/PT/UPT are not
//! registers of any class.
//!
//! # Past 64 values of a width
//! One class holds at most 64 units, the R file 255 registers (253 named:
//! the count a cubin declares is two more). Where more than 64 singles
//! (or pairs) are live at once, or where the single R run spills a width
//! whose class is full, the values of that width are divided into
//! groups, one further R run each, over registers of their own
//! ([`split`]): run 0 keeps the first group of every width, runs 3, 4, …
//! hold the others. The runs' moves merge by program point like the other
//! runs'; each run has its own spill area. Of this design and its
//! alternatives:
//! * several runs over disjoint registers keep regalloc2 unmodified, its
//!   checker meaningful run by run, and every function that fits one R
//!   run's classes without spilling exactly as before (the split is only
//!   tried where that run spills or cannot fit);
//! * one class unit standing for several registers (singles allocated
//!   in bundles) would need values that live and die together, which
//!   the code rarely has; the one case of it kept is a single in a pair
//!   unit where no pair needs the unit (below);
//! * the division keeps together what regalloc2 must see in one run
//!   (a definition and the use it reuses, a block's argument and
//!   parameter) and puts the calling convention's fixed registers in run
//!   0; the groups come from a linear scan over the values' extents, so
//!   that each group's peak stays within its class.
//!
//! The regions of different widths stay separate, so a function whose
//! pairs and singles peak at different points needs the sum of the two
//! peaks, less what the singles placed in pair units away from the pairs'
//! peak save ([`split`], tried only where the split without them spills,
//! and kept where it spills less); where that passes the limit the
//! regions shrink and spill, and the single R run is kept when it spills
//! less.
//!
//! The regions of different widths never overlap; the one overlap of
//! values of different widths is a single in a pair unit, which a pair
//! defined where the single dies may reuse (a `CONCAT` of it therefore
//! copies its words as one parallel move in the rewrite). So the pair plumbing
//! of selection is kept out of regalloc2's sight where it can be
//! ([`prep`]): an `EXTRACT` whose result only machine instructions read
//! disappears (they name the part of the wide register), and a `CONCAT`
//! whose parts are each written by one machine instruction of its block
//! and read nowhere else disappears too (those instructions write the
//! parts of the wide register; each after the first carries a reuse
//! constraint on the partly written one). Over the corpus this removed
//! 39% of the allocated instructions (35,230 → 21,476 on sm_75). The
//! rest costs one MOV per 32-bit part whose registers differ. A `COPY`
//! within one width is a reuse constraint: free unless both values stay
//! live. The price of the plan is registers: a pair region and a single
//! region are sized separately, so a function holding pairs at one point
//! and singles at another would need the sum of the two peaks.
//!
//! # Sharing the file across widths
//! After the rewrite a kernel's R registers are packed again over the
//! whole file ([`recolour`]): the allocated code's values per register
//! become webs, the webs a wide operand names side by side are placed
//! together (aligned as before), and every web takes the lowest register
//! free over its live range, whatever its width. Of the options weighed:
//! * the recolouring works on the code regalloc2 produced and checked,
//!   so regalloc2 stays unmodified and its checker meaningful; it only
//!   renames registers (and drops the `MOV`s left copying a register to
//!   itself), and is kept only where it lowers the highest register;
//! * region sizes from a joint peak (overlapping regions time-shared by
//!   widths that never coexist) would still give each class fixed units
//!   over the whole function, which saves nothing where the widths'
//!   peaks overlap in time only partly;
//! * it does not remove spills: the regions are still sized under the
//!   register limit before the runs. Triton's attention on sm_80 spills
//!   as before and then uses 171 registers instead of 237 (ptxas: 233,
//!   no spills), its matmul 210 instead of 251 (ptxas: 168). Over the
//!   shared corpus the registers of all kernels went from 8,667 to 6,561
//!   on sm_80 (ptxas: 6,104) and from 14,308 to 10,888 on sm_90 (ptxas:
//!   10,469).
//!
//! An instruction whose operand the form table gives fewer registers than
//! the allocator's value keeps the whole kernel's registers (the scheduler
//! reads the same widths and would miss the new sharing's dependences);
//! a value named by its 32-bit parts, and the instructions of a
//! multi-instruction expansion, name words on purpose and do not count.
//! Device functions and kernels with calls keep their registers (the
//! calling convention fixes them), and so does code compiled with -g
//! (its debug records name the registers as allocated). The filetests
//! under `filetests/regalloc` compare the counts with ptxas's.
//!
//! # Frame
//! R1 holds the stack pointer: a kernel loads it first (`MOV R1,
//! c[0x0][0x28]` up to sm_89, `LDC R1, c[0x0][0x28]` on sm_90 and
//! `c[0x0][0x37c]` from sm_100, as ptxas does) and lowers it by the frame
//! size; a device function lowers it on entry and raises it again before
//! each `RET`. The frame holds the function's `.local` variables from
//! `[R1]`, then the spill slots (16-byte aligned): R values spill with
//! `STL`/`LDL` of their width. UR values and predicates spill into R
//! registers of their own and take no frame ([`layout::Layout::homes`]):
//! a uniform word into a register (`MOV`/`R2UR`), a predicate into one
//! bit of a register shared by 32 predicate slots (`LOP3` clearing the
//! bit, a `LOP3` guarded by the predicate setting it; `LOP3`'s predicate
//! result reading it back); in a function with calls,
//! or where those registers do not fit under the limit, they go to the
//! frame through a scratch R register reserved for the purpose.
//!
//! # Calling convention
//! All functions of a module are compiled together, so the convention is
//! ours ([`abi`]):
//! * the return address is the pair R2:R3 (`RET.REL.NODEC R2`); the caller
//!   writes it just before the call ([`AllocInst::ReturnAddress`] then
//!   `MOV R3, RZ`);
//! * arguments, and then results, are passed as 32-bit words in R4, R5, …
//!   (a 64-bit value in two consecutive words, low first, no alignment);
//!   predicates are not passed;
//! * every allocatable register of every file is caller-saved (a call
//!   clobbers them all); R1 is preserved by the callee.
//!
//! A call of a function outside the module (`vprintf`) follows NVIDIA's
//! convention instead ([`abi`]: return address R20:R21, 64-bit arguments
//! at even registers); it clobbers every register too, which is more
//! than NVIDIA's convention asks.

pub mod abi;
pub mod layout;
pub mod prep;
mod rewrite;
mod run;
pub mod split;
mod recolour;

use crate::ir::Type;
use crate::isa::inst::Inst as MInst;
use crate::select::MachFunction;
use crate::target::Sm;
use std::fmt;

/// A function after register allocation: physical registers everywhere.
#[derive(Clone, Debug)]
pub struct Allocated {
    /// Symbol name.
    pub name: String,
    /// Target.
    pub sm: Sm,
    /// Blocks in layout order, entry first (with the edge blocks that split
    /// critical edges).
    pub blocks: Vec<AllocBlock>,
    /// Highest R register number used + 1 (R1, the stack pointer, counts).
    pub gpr_count: u32,
    /// Highest UR register number used + 1 (0 when none).
    pub ugpr_count: u32,
    /// Per-thread local memory frame in bytes (`.local` variables and
    /// spill slots), 0 when none.
    pub frame_bytes: u32,
    /// Spill stores (`STL` instructions written for spills).
    pub spill_stores: u32,
    /// Spill loads (`LDL` instructions written for reloads).
    pub spill_loads: u32,
    /// The register limit it was allocated under (`--maxrregcount`, the
    /// launch bounds), as the allocator applied it; the count the cubin
    /// declares stays within it.
    pub register_limit: Option<u32>,
    /// The register count the kernel declares whatever its code uses
    /// (`setmaxnreg`'s, [`RegisterCountChanges::declared`]), set by the
    /// driver.
    pub declared_registers: Option<u32>,
    /// The function's constant bank 2, as selection filled it
    /// ([`MachFunction::constant2`]).
    pub constant2: Vec<u8>,
    /// With `-g` (a function with [`MachFunction::register_names`]): per
    /// instruction that defines registers, the virtual registers and the
    /// registers they were given ([`crate::ir::SrcLoc::defs`] indexes it).
    pub debug_defs: Vec<smallvec::SmallVec<[(u32, crate::isa::operand::Reg); 2]>>,
    /// With `-g`: which PTX register each virtual register's words hold,
    /// set by the driver ([`crate::emit::register_maps::naming`]).
    pub register_naming: Option<Box<crate::emit::register_maps::Naming>>,
}

impl Allocated {
    /// The text form: a line of counts, then one line per instruction as
    /// nvdisasm prints it, branch targets as block names, calls as
    /// `funcN`, patched immediates by what they stand for.
    pub fn text(&self) -> String {
        let mut out = format!(
            "// {} R, {} UR, frame {} bytes, spill stores {} bytes, spill loads {} bytes\n",
            self.gpr_count, self.ugpr_count, self.frame_bytes, self.spill_stores, self.spill_loads
        );
        for (k, block) in self.blocks.iter().enumerate() {
            out.push_str(&format!("bb{k}:\n"));
            for inst in &block.insts {
                let text = inst.inst().text(self.sm, 0);
                let text = text.trim_end().trim_end_matches(';').trim_end();
                let line = match inst {
                    AllocInst::Inst(_) => text.to_string(),
                    AllocInst::Branch { target, .. } => format!("{} bb{target}", without_last(text)),
                    AllocInst::Call { callee, external: false, .. } => format!("{} func{callee}", without_last(text)),
                    AllocInst::Call { callee, external: true, .. } => format!("{} extern func{callee}", without_last(text)),
                    AllocInst::ReturnAddress { .. } => format!("{} <return address>", without_last(text)),
                    AllocInst::SymAddr { global, offset, high, function: false, .. } => {
                        format!("{} {}(global{global}{offset:+#x})", without_last(text), if *high { "32@hi" } else { "32@lo" })
                    }
                    AllocInst::SymAddr { global, high, function: true, .. } => format!("{} {}(func{global})", without_last(text), if *high { "32@hi" } else { "32@lo" }),
                };
                out.push_str(&format!("    {line}\n"));
            }
        }
        out
    }
}

/// An instruction's text without its last operand (a branch target or an
/// immediate that emission patches).
fn without_last(text: &str) -> &str {
    match text.rsplit_once(' ') {
        Some((head, _)) => head,
        None => text,
    }
}

/// A block of allocated code.
#[derive(Clone, Debug, Default)]
pub struct AllocBlock {
    /// Instructions; the branches last.
    pub insts: Vec<AllocInst>,
    /// The source position of each instruction (line information).
    pub locs: Vec<crate::ir::SrcLoc>,
}

/// One instruction of allocated code.
#[derive(Clone, Debug)]
pub enum AllocInst {
    /// A machine instruction, every register physical.
    Inst(MInst),
    /// A branch; `target` indexes [`Allocated::blocks`] (emission fills the
    /// offset and drops a `BRA` to the next block).
    Branch {
        /// The `BRA`, possibly guarded.
        inst: MInst,
        /// Destination block.
        target: usize,
    },
    /// A call of module function `callee` (arguments and results placed
    /// by the calling convention, module documentation).
    Call {
        /// The `CALL.REL.NOINC`.
        inst: MInst,
        /// Callee's function index.
        callee: u32,
        /// The callee is outside the module (NVIDIA's convention,
        /// [`abi`]): emission puts its address in the pair at
        /// [`abi::EXTERN_TARGET`] and the return address in R20:R21, and
        /// calls through the pair (`CALL.ABS.NOINC`).
        external: bool,
    },
    /// `inst` is a MOV of an immediate into R2, the low word of the return
    /// address; emission patches the immediate with the byte offset of the
    /// instruction that follows the next [`AllocInst::Call`] (as ptxas's
    /// `MOV R4, 0x80` before its `CALL.REL.NOINC`).
    ReturnAddress {
        /// The MOV.
        inst: MInst,
    },
    /// `inst` is a MOV of an immediate into the destination; emission
    /// patches the immediate with the address of module variable `global`
    /// plus `offset`: its low word, or its high word when `high` (a 64-bit
    /// address is two of these, low then high, as ptxas's `32@lo(x)` and
    /// `32@hi(x)`).
    SymAddr {
        /// The MOV.
        inst: MInst,
        /// Variable index.
        global: u32,
        /// Byte offset.
        offset: i32,
        /// The high word of the address (else the low word).
        high: bool,
        /// `global` is a function index: the address is the function's
        /// offset in the kernel's section (high word zero).
        function: bool,
    },
}

impl AllocInst {
    /// The machine instruction.
    pub fn inst(&self) -> &MInst {
        match self {
            AllocInst::Inst(i) | AllocInst::Branch { inst: i, .. } | AllocInst::Call { inst: i, .. } | AllocInst::ReturnAddress { inst: i } | AllocInst::SymAddr { inst: i, .. } => i,
        }
    }
}

/// Options of the allocator.
#[derive(Clone, Copy, Debug)]
pub struct RegallocOptions {
    /// The most R registers the function may use (`--maxrregcount`; R1
    /// counts), at least 16; `None` for the hardware's 255.
    pub max_registers: Option<u32>,
    /// Run regalloc2's checker on every run's result (on in tests and
    /// debug builds).
    pub check: bool,
}

impl Default for RegallocOptions {
    fn default() -> Self {
        RegallocOptions { max_registers: None, check: cfg!(debug_assertions) }
    }
}

/// The most R registers a kernel may use so that its launch bounds can
/// be met, as ptxas 13.5 limits them: `.maxnreg` as given; `.maxntid` or
/// `.reqntid` (whole warps) times `.minnctapersm` (1 when absent, and
/// ignored when that many threads exceed what the SM holds) must fit the
/// register file, in steps of 8 registers per thread (the warp's
/// allocation unit). Measured with `ptxas -v` on a kernel needing 96+
/// registers: `.maxnreg 40` → 40; 1024 threads, 1 CTA → 64; 256 threads,
/// 3 CTAs → 80; 640 threads → 96; 128 threads, 16 CTAs → 32 on sm_80,
/// and unlimited on sm_120 (1536 threads per SM). ptxas limits more where
/// `.maxntid` exceeds 896 without `.minnctapersm` (32 registers, as if
/// two CTAs; 64 on sm_120); that is its choice, not a launch condition.
pub fn launch_register_limit(bounds: &crate::ir::function::LaunchBounds, sm: crate::target::Sm) -> Option<u32> {
    let threads = bounds.max_ntid.or(bounds.req_ntid).map(|[x, y, z]| u64::from(x) * u64::from(y) * u64::from(z));
    let by_threads = threads.filter(|&t| t > 0).map(|t| {
        let warp_threads = t.div_ceil(32) * 32;
        let ctas = u64::from(bounds.min_ctas_per_sm.unwrap_or(1).max(1));
        let ctas = if ctas * warp_threads > u64::from(sm.max_threads_per_sm()) { 1 } else { ctas };
        let per_thread = u64::from(crate::target::REGISTERS_PER_SM) / (ctas * warp_threads);
        (per_thread / 8 * 8).min(255) as u32
    });
    tightest_limit([bounds.max_regs, by_threads])
}

/// The tightest of some optional register limits (`None` when none is
/// given): `--maxrregcount`, `.maxnreg`, launch bounds and `setmaxnreg`
/// each only ever lower what the others allow.
pub fn tightest_limit(limits: impl IntoIterator<Item = Option<u32>>) -> Option<u32> {
    limits.into_iter().flatten().min()
}

/// What a kernel's `setmaxnreg` instructions make of its register count,
/// as ptxas 13.5 does (measured with `ptxas -v` and the cubin's
/// `EIATTR_REGCOUNT` on sm_90a, sm_100a, sm_120a): the count at entry is
/// `.maxnreg` (they are dropped without it, in lowering), lowered to the
/// highest `.inc` target where there is one (`.maxnreg 100` and only
/// `inc 40` declares 40; `.maxnreg 64`, `inc 200` declares 64), and it is
/// the count the kernel declares whatever its code uses. The code must
/// fit the lowest count it may run under, so the allocation limit is the
/// launch bounds' (`launch_limit`, [`launch_register_limit`]) capped at
/// that count and at the lowest `.dec` target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterCountChanges {
    /// The count the kernel declares.
    pub declared: u32,
    /// The allocation limit.
    pub limit: u32,
}

/// The `setmaxnreg` targets of `f` (the highest `.inc` and the lowest
/// `.dec`, each with where it is) and, from them, the kernel's register
/// counts ([`RegisterCountChanges`]); `None` where `f` has none or no
/// `.maxnreg`. A `.dec` above the highest count the kernel can reach is
/// ptxas's fatal C7406, an error here.
pub fn register_count_changes(f: &crate::ir::Function, launch_limit: Option<u32>) -> Result<Option<RegisterCountChanges>, (String, crate::ir::SrcLoc)> {
    use crate::ir::Opcode;
    let Some(entry) = f.bounds.max_regs else { return Ok(None) };
    // ptxas raises a `.maxnreg` below 24 to 24 (its warning).
    let entry = entry.max(24);
    let mut inc: Option<u32> = None;
    let mut dec: Option<(u32, crate::ir::SrcLoc)> = None;
    let mut decs = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if !matches!(d.opcode, Opcode::RegCountInc | Opcode::RegCountDec) {
                continue;
            }
            let Some(n) = d.args.first().and_then(|&v| f.value_inst(v)).map(|c| &f.insts[c]).filter(|c| c.opcode == Opcode::Iconst).map(|c| c.imm as u32) else {
                return Err(("setmaxnreg without a constant register count".into(), f.locs[i]));
            };
            if d.opcode == Opcode::RegCountInc {
                inc = Some(inc.map_or(n, |m| m.max(n)));
            } else {
                decs.push((n, f.locs[i]));
                if dec.is_none_or(|(m, _)| n < m) {
                    dec = Some((n, f.locs[i]));
                }
            }
        }
    }
    if inc.is_none() && dec.is_none() {
        return Ok(None);
    }
    let highest = inc.unwrap_or(entry);
    if let Some(&(n, loc)) = decs.iter().find(|(n, _)| *n > highest) {
        return Err((format!("setmaxnreg.dec has register count ({n}) which is larger than the largest temporal register count in the program ({highest})"), loc));
    }
    let declared = entry.min(highest);
    let limit = tightest_limit([launch_limit, Some(declared), dec.map(|(n, _)| n)]).unwrap_or(declared);
    Ok(Some(RegisterCountChanges { declared, limit }))
}

/// Why a function could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegallocError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for RegallocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "register allocation of {}: {}", self.function, self.message)
    }
}

impl std::error::Error for RegallocError {}

/// The kind of a virtual register: its file and width, which decide its
/// regalloc2 run and class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A 32-bit R register.
    R1,
    /// An aligned R pair.
    R2,
    /// An aligned R quad.
    R4,
    /// A 32-bit UR register.
    U1,
    /// An aligned UR pair.
    U2,
    /// A predicate.
    P,
    /// A uniform predicate.
    Up,
}

/// The kinds of each run, by regalloc2 class (Int, Float, Vector); the
/// further R runs ([`split`]) have the first run's.
pub const RUNS: [&[Kind]; 3] = [&[Kind::R1, Kind::R2, Kind::R4], &[Kind::U1, Kind::U2, Kind::P], &[Kind::Up]];

impl Kind {
    /// The kind of a value type (`UR128` has none).
    pub fn of(ty: Type) -> Option<Kind> {
        use crate::ir::RegFile as F;
        Some(match (ty.file(), ty.regs()) {
            (F::R, 1) => Kind::R1,
            (F::R, 2) => Kind::R2,
            (F::R, 4) => Kind::R4,
            (F::Ur, 1) => Kind::U1,
            (F::Ur, 2) => Kind::U2,
            (F::P, _) => Kind::P,
            (F::Up, _) => Kind::Up,
            _ => return None,
        })
    }

    /// (run, class index) of the kind.
    pub fn slot(self) -> (usize, usize) {
        match self {
            Kind::R1 => (0, 0),
            Kind::R2 => (0, 1),
            Kind::R4 => (0, 2),
            Kind::U1 => (1, 0),
            Kind::U2 => (1, 1),
            Kind::P => (1, 2),
            Kind::Up => (2, 0),
        }
    }

    /// Registers per unit.
    pub fn width(self) -> u32 {
        match self {
            Kind::R2 | Kind::U2 => 2,
            Kind::R4 => 4,
            _ => 1,
        }
    }
}

/// Allocates registers for a machine function.
pub fn allocate(f: &MachFunction, options: &RegallocOptions) -> Result<Allocated, RegallocError> {
    let fail = |message: String| RegallocError { function: f.name.clone(), message };
    let prog = prep::prepare(f).map_err(fail)?;
    let mut allocated = run::allocate_prog(&prog, options).map_err(fail)?;
    // The hardware's 255 limits nothing: only a lower limit caps the count.
    allocated.register_limit = options.max_registers.map(|m| m.max(16)).filter(|&m| m < layout::MAX_GPR);
    allocated.constant2 = f.constant2.clone();
    Ok(allocated)
}

#[cfg(test)]
mod tests;
