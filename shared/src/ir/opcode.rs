//! Opcodes of the Ori IR, in two layers, and the facts every stage asks
//! about them (DESIGN.md, "The Ori IR").
//!
//! * The **PTX layer** is what lowering produces: one opcode per PTX
//!   operation family, its variants in the instruction's `Attrs`
//!   (`add.s32` is [`Opcode::Add`] with type `s32`).
//! * The **SASS layer** is what legalization produces: one opcode per
//!   machine operation (`IADD3`, `LOP3`, `FFMA`, `LDG`…), operands still SSA
//!   values; selection turns them into `isa::Inst` with encodable operands.
//! * **Shared** opcodes are legal at every stage: constants, copies,
//!   register-pair plumbing, calls and the terminators (control flow stays
//!   structural until emission).
//!
//! After legalization no PTX-layer opcode may remain; the verifier checks
//! it (ptxas's "SetAfterLegalization").
//!
//! Every opcode's text name, layer and class are one row of [`OPCODES`].

/// Which layer an opcode belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Legal at every stage.
    Shared,
    /// Produced by lowering; removed by legalization.
    Ptx,
    /// Produced by legalization; selected into machine instructions.
    Sass,
}

/// What an opcode does beyond computing its results, which decides what
/// optimizations and the verifier may assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Results depend only on the arguments; no side effect.
    Pure,
    /// Reads memory.
    Load,
    /// Writes (or reads and writes) memory.
    Store,
    /// A synchronisation or other side effect without memory operands.
    Effect,
    /// Calls a function.
    Call,
    /// Ends a block.
    Terminator,
}

macro_rules! opcodes {
    ($($(#[$doc:meta])* $name:ident = $text:literal, $layer:ident, $class:ident;)*) => {
        /// An Ori opcode (see the module documentation for the layers).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode {
            $($(#[$doc])* $name,)*
        }

        /// Every opcode with its text name, layer and class, in
        /// declaration order (the index is the opcode's discriminant).
        pub const OPCODES: &[(Opcode, &str, Layer, Class)] = &[
            $((Opcode::$name, $text, Layer::$layer, Class::$class),)*
        ];
    };
}

opcodes! {
    // ---- shared -------------------------------------------------------
    /// A constant: the instruction's immediate, as the result's bits.
    Iconst = "iconst", Shared, Pure;
    /// The address of a module variable (the immediate is its
    /// `GlobalVar` index) plus the offset in
    /// the attributes.
    SymAddr = "symaddr", Shared, Pure;
    /// The address of the module function whose index is the immediate:
    /// its byte offset in the calling kernel's section, where emission
    /// places it (ptxas 13.5: `mov.u64 %rd, f` -> `MOV R7, 0xc0`, the
    /// offset of its copy `$kernel$f`, no relocation; `CALL.REL.NOINC`
    /// and `RET.REL.NODEC` count from the section start too).
    FuncAddr = "funcaddr", Shared, Pure;
    /// A copy of one value.
    Copy = "copy", Shared, Pure;
    /// The low 32 bits of a 64-bit value (or register `imm` of a wider one).
    Extract = "extract", Shared, Pure;
    /// A 64- or 128-bit value made of 32-bit parts, low part first.
    Concat = "concat", Shared, Pure;
    /// Calls the module function whose index is the immediate.
    Call = "call", Shared, Call;
    /// Calls the function whose address (a [`Opcode::FuncAddr`] value:
    /// its offset in the kernel's section) is the first argument; the
    /// other arguments and the results follow the module convention as
    /// a direct call's (`call (r), %rd, (a, b), proto;`).
    CallIndirect = "call_indirect", Shared, Call;
    /// Continues at a block, passing arguments to its parameters.
    Jump = "jump", Shared, Terminator;
    /// Continues at the first destination when the predicate argument
    /// holds (is false with the `negated` attribute), else at the second.
    Brif = "brif", Shared, Terminator;
    /// Returns from a device function (the arguments are the returns).
    Return = "return", Shared, Terminator;
    /// Ends the thread.
    Exit = "exit", Shared, Terminator;
    /// Marks a point control never reaches (traps on the machine).
    Trap = "trap", Shared, Terminator;

    // ---- PTX layer (lowering's output) ----------------------------------
    /// `add`.
    Add = "add", Ptx, Pure;
    /// `sub`.
    Sub = "sub", Ptx, Pure;
    /// `mul` (`.lo/.hi/.wide` in the attributes; float `mul` too).
    Mul = "mul", Ptx, Pure;
    /// `mad` (`.lo/.hi/.wide`).
    Mad = "mad", Ptx, Pure;
    /// `fma`.
    Fma = "fma", Ptx, Pure;
    /// `div`.
    Div = "div", Ptx, Pure;
    /// `rem`.
    Rem = "rem", Ptx, Pure;
    /// `abs`.
    Abs = "abs", Ptx, Pure;
    /// `neg`.
    Neg = "neg", Ptx, Pure;
    /// `min`.
    Min = "min", Ptx, Pure;
    /// `max`.
    Max = "max", Ptx, Pure;
    /// `and`.
    And = "and", Ptx, Pure;
    /// `or`.
    Or = "or", Ptx, Pure;
    /// `xor`.
    Xor = "xor", Ptx, Pure;
    /// `not`.
    Not = "not", Ptx, Pure;
    /// `shl`.
    Shl = "shl", Ptx, Pure;
    /// `shr`.
    Shr = "shr", Ptx, Pure;
    /// `setp` (one predicate result; `p|q` lowers to two).
    Setp = "setp", Ptx, Pure;
    /// `set` (a 0/-1 or 0/1.0 register result).
    Set = "set", Ptx, Pure;
    /// `selp`.
    Selp = "selp", Ptx, Pure;
    /// `cvt` (destination type `ty`, source type `src_ty`).
    Cvt = "cvt", Ptx, Pure;
    /// `cvta` / `cvta.to` (the direction in `to_generic`).
    Cvta = "cvta", Ptx, Pure;
    /// `isspacep.space p, a`: whether the generic address `a` lies in the
    /// attribute's state space; `.const` carries the module's constant
    /// bank size in `imm` (the window's length).
    Isspacep = "isspacep", Ptx, Pure;
    /// `ld` from the attribute's state space at `address + offset`.
    Ld = "ld", Ptx, Load;
    /// `st` of the value arguments to `address + offset`.
    St = "st", Ptx, Store;
    /// A special register read (`%tid.x`…; which one in `sreg`).
    Sreg = "sreg", Ptx, Pure;
    /// `bar.sync` / `barrier.sync` (barrier number and thread count args).
    BarSync = "bar.sync", Ptx, Effect;
    /// `rcp` (`.approx` or an IEEE rounding).
    Rcp = "rcp", Ptx, Pure;
    /// `sqrt` (`.approx` or an IEEE rounding).
    Sqrt = "sqrt", Ptx, Pure;
    /// `rsqrt.approx`.
    Rsqrt = "rsqrt", Ptx, Pure;
    /// `sin.approx`.
    Sin = "sin", Ptx, Pure;
    /// `cos.approx`.
    Cos = "cos", Ptx, Pure;
    /// `lg2.approx`.
    Lg2 = "lg2", Ptx, Pure;
    /// `ex2.approx`.
    Ex2 = "ex2", Ptx, Pure;
    /// `tanh.approx`.
    Tanh = "tanh", Ptx, Pure;
    /// `copysign d, a, b`: b's magnitude with a's sign.
    Copysign = "copysign", Ptx, Pure;
    // ---- PTX layer: integer, bit and carry operations ----
    /// `add.cc`/`addc`: `a + b`, plus the carry-in predicate (a third
    /// argument) with `.x` (`addc`); a second result, when present, is the
    /// carry-out (`.cc`). PTX's condition code is this predicate value.
    Addc = "addc", Ptx, Pure;
    /// `sub.cc`/`subc`: `a - b` (minus the borrow: with `.x` the third
    /// argument is the machine carry, true when nothing is borrowed); a
    /// second result is the carry-out.
    Subc = "subc", Ptx, Pure;
    /// `mad.cc`/`madc` (`.lo`/`.hi`): the product's half plus `c` (plus
    /// the carry-in fourth argument with `.x`); a second result is the
    /// carry-out.
    Madc = "madc", Ptx, Pure;
    /// `popc` (the result is a 32-bit count).
    Popc = "popc", Ptx, Pure;
    /// `clz` (the result is a 32-bit count).
    Clz = "clz", Ptx, Pure;
    /// `brev`.
    Brev = "brev", Ptx, Pure;
    /// `bfind` (`.shiftamt` in the attributes; the result is 32 bits).
    Bfind = "bfind", Ptx, Pure;
    /// `bfe d, a, pos, len`.
    Bfe = "bfe", Ptx, Pure;
    /// `bfi d, field, base, pos, len`.
    Bfi = "bfi", Ptx, Pure;
    /// `bmsk d, pos, len` (`.wrap`; clamp otherwise).
    Bmsk = "bmsk", Ptx, Pure;
    /// `szext d, a, len` (`.wrap`; clamp otherwise; `s32` sign-extends).
    Szext = "szext", Ptx, Pure;
    /// `mul24` (`.lo`/`.hi`).
    Mul24 = "mul24", Ptx, Pure;
    /// `mad24` (`.lo`/`.hi`, `.sat`).
    Mad24 = "mad24", Ptx, Pure;
    /// `sad d, a, b, c`: `c + |a - b|`.
    Sad = "sad", Ptx, Pure;
    /// `dp4a` (`ty` the type of a, `src_ty` that of b).
    Dp4a = "dp4a", Ptx, Pure;
    /// `vabsdiff4.u32.u32.u32 d, a, b, c` of all four bytes: the bytes'
    /// absolute differences, as bytes.
    Vabsdiff4 = "vabsdiff4", Ptx, Pure;
    /// `vabsdiff4.u32.u32.u32.add d, a, b, c`: `c` plus the sum of the
    /// bytes' absolute differences.
    Sad4 = "sad4", Ptx, Pure;
    /// `dp2a` (`.lo`/`.hi`; types as [`Opcode::Dp4a`]).
    Dp2a = "dp2a", Ptx, Pure;
    /// `shf d, lo, hi, shift` (`.l` for left, `.wrap`; clamp otherwise).
    Funnel = "shf", Ptx, Pure;
    /// `prmt d, a, b, c`: the mode in the immediate (0 the selector `c`,
    /// 1..6 `.f4e .b4e .rc8 .ecl .ecr .rc16`, PRMT's mode field).
    Permute = "prmt", Ptx, Pure;
    /// `lop3 d, a, b, c` with the lookup table in the immediate.
    Logic3 = "lop3", Ptx, Pure;
    /// `testp.class p, a`: whether float `a` is of the class in `class`.
    Testp = "testp", Ptx, Pure;
    // ---- PTX layer: warp, atomic and synchronisation operations ----
    // Warp operations read other lanes: they stay where they are written
    // (an effect), as code motion could change the lanes taking part.
    /// `shfl.sync.mode d[|p], a, b, c, membermask` (`warp` the mode).
    Shfl = "shfl", Ptx, Effect;
    /// `vote.sync.mode d, p, membermask`: a predicate (`all`, `any`,
    /// `uni`) or, for `ballot`, a 32-bit mask; `activemask` is a ballot of
    /// true.
    Vote = "vote", Ptx, Effect;
    /// `match.mode.sync d[|p], a, membermask` (`warp` any/all).
    Match = "match", Ptx, Effect;
    /// `redux.sync.op d, a, membermask` (`red` the operation).
    Redux = "redux", Ptx, Effect;
    /// `elect.sync d|p, membermask`: the elected lane's index and a
    /// predicate true in that lane.
    Elect = "elect", Ptx, Effect;
    /// `barrier.cluster.arrive` (`order` relaxed, else release), in the
    /// block lowering reaches when the launch has explicit clusters.
    ClusterArrive = "barrier.cluster.arrive", Ptx, Effect;
    /// `barrier.cluster.wait` (acquire), likewise.
    ClusterWait = "barrier.cluster.wait", Ptx, Effect;
    /// `atom.space.op.type d, [a], b[, c]` (`red`, `order`, `scope`).
    Atom = "atom", Ptx, Store;
    /// `red.space.op.type [a], b`: an atomic without a result.
    Red = "red", Ptx, Store;
    /// `fence` / `membar` (`order`, `scope`).
    Fence = "fence", Ptx, Effect;
    /// `nanosleep t`.
    Nanosleep = "nanosleep", Ptx, Effect;
    /// `bar.warp.sync membermask`.
    WarpSync = "bar.warp.sync", Ptx, Effect;
    /// `setmaxnreg.inc.sync.aligned.u32 n, membermask`: waits until the
    /// warp's register count is raised to the constant `n` (the mask is
    /// every lane: the instruction is `.aligned`).
    RegCountInc = "setmaxnreg.inc", Ptx, Effect;
    /// `setmaxnreg.dec.sync.aligned.u32 n, membermask`: lowers the warp's
    /// register count to the constant `n`.
    RegCountDec = "setmaxnreg.dec", Ptx, Effect;
    /// `bar.red.op d, barrier, [!]p`: a CTA barrier that also reduces a
    /// predicate (`red` popc, giving a count; and/or, giving a predicate).
    BarRed = "bar.red", Ptx, Effect;
    /// `griddepcontrol.wait`: waits for the grids this one depends on.
    GridWait = "griddepcontrol.wait", Ptx, Effect;
    /// `griddepcontrol.launch_dependents`: dependent grids may launch.
    GridLaunch = "griddepcontrol.launch_dependents", Ptx, Effect;

    // ---- SASS layer (legalization's output) -----------------------------
    /// `IADD3 d, a, b, c` (with `.X`: plus carry-in predicates).
    Iadd3 = "IADD3", Sass, Pure;
    /// `IMAD d, a, b, c` (`.HI`, `.U32` in the attributes).
    Imad = "IMAD", Sass, Pure;
    /// `IMAD.WIDE d64, a, b, c64`.
    ImadWide = "IMAD.WIDE", Sass, Pure;
    /// `LOP3.LUT d, a, b, c, lut` (the table is the immediate).
    Lop3 = "LOP3", Sass, Pure;
    /// `PLOP3.LUT p, a, b, c, lut` on predicates.
    Plop3 = "PLOP3", Sass, Pure;
    /// `SHF.L/R d, lo, shift, hi` (funnel shift).
    Shf = "SHF", Sass, Pure;
    /// `ISETP.cmp.combine p, a, b, c` (`.EX` with carry for 64 bits).
    Isetp = "ISETP", Sass, Pure;
    /// `IMNMX d, a, b, p`.
    Imnmx = "IMNMX", Sass, Pure;
    /// `IABS d, a`.
    Iabs = "IABS", Sass, Pure;
    /// `SEL d, a, b, p`.
    Sel = "SEL", Sass, Pure;
    /// `FSEL d, a, b, p`.
    Fsel = "FSEL", Sass, Pure;
    /// `MOV d, a`.
    Mov = "MOV", Sass, Pure;
    /// `PRMT d, a, sel, b`.
    Prmt = "PRMT", Sass, Pure;
    /// `FADD d, a, b`.
    Fadd = "FADD", Sass, Pure;
    /// `FMUL d, a, b`.
    Fmul = "FMUL", Sass, Pure;
    /// `FFMA d, a, b, c`.
    Ffma = "FFMA", Sass, Pure;
    /// `FADD2 d, a, b`: FADD on both f32 lanes of 64-bit values (sm_100).
    Fadd2 = "FADD2", Sass, Pure;
    /// `FMUL2 d, a, b`, as [`Opcode::Fadd2`].
    Fmul2 = "FMUL2", Sass, Pure;
    /// `FFMA2 d, a, b, c`, as [`Opcode::Fadd2`].
    Ffma2 = "FFMA2", Sass, Pure;
    /// `FMNMX d, a, b, p`.
    Fmnmx = "FMNMX", Sass, Pure;
    /// `FSETP.cmp.combine p, a, b, c`.
    Fsetp = "FSETP", Sass, Pure;
    /// `FSET.BF.cmp d, a, b` (a 1.0/0.0 result).
    Fset = "FSET", Sass, Pure;
    /// `MUFU.func d, a`.
    Mufu = "MUFU", Sass, Pure;
    /// `DADD d64, a64, b64`.
    Dadd = "DADD", Sass, Pure;
    /// `DMUL d64, a64, b64`.
    Dmul = "DMUL", Sass, Pure;
    /// `DFMA d64, a64, b64, c64`.
    Dfma = "DFMA", Sass, Pure;
    /// `DSETP.cmp.combine p, a64, b64, c`.
    Dsetp = "DSETP", Sass, Pure;
    /// `I2F` (destination `ty`, source `src_ty`).
    I2f = "I2F", Sass, Pure;
    /// `F2I`.
    F2i = "F2I", Sass, Pure;
    /// `F2F`.
    F2f = "F2F", Sass, Pure;
    /// `I2I` (narrowing with saturation).
    I2i = "I2I", Sass, Pure;
    /// `FRND` (float to integral float).
    Frnd = "FRND", Sass, Pure;
    /// `LDG` (global load).
    Ldg = "LDG", Sass, Load;
    /// `STG`.
    Stg = "STG", Sass, Store;
    /// `LDS` (shared).
    Lds = "LDS", Sass, Load;
    /// `STS`.
    Sts = "STS", Sass, Store;
    /// `LDL` (local).
    Ldl = "LDL", Sass, Load;
    /// `STL`.
    Stl = "STL", Sass, Store;
    /// `LD` (generic address).
    Ldgen = "LD", Sass, Load;
    /// `ST` (generic address).
    Stgen = "ST", Sass, Store;
    /// `LDC` (constant bank, the bank in the attributes).
    Ldc = "LDC", Sass, Load;
    /// `S2R d, SR_*`.
    S2r = "S2R", Sass, Pure;
    /// `CS2R d64, SR_*` (clock and other 64-bit special registers).
    Cs2r = "CS2R", Sass, Pure;
    /// `BAR.SYNC`.
    Bar = "BAR", Sass, Effect;
    /// Integer division (`ty` s32/u32/s64/u64): a pseudo operation kept
    /// whole through optimization and expanded by late legalization.
    Idiv = "IDIV", Sass, Pure;
    /// Integer remainder (`ty` s32/u32/s64/u64): a pseudo operation like
    /// [`Opcode::Idiv`].
    Irem = "IREM", Sass, Pure;
    /// Float division (`ty` f32/f64 with `.approx`, `.full` or a rounding):
    /// a pseudo operation like [`Opcode::Idiv`].
    Fdiv = "FDIV", Sass, Pure;
    /// `I2FP.F32.{S32,U32}`: the integer-to-float conversion sm_90 and
    /// later use for 32-bit sources (ptxas 13.5 emits it there instead of
    /// `I2F`).
    I2fp = "I2FP", Sass, Pure;
    /// `VIMNMX d, a, b, m`: the integer minimum/maximum of sm_90 and later
    /// (replacing `IMNMX`), operands as [`Opcode::Imnmx`].
    Vimnmx = "VIMNMX", Sass, Pure;
    /// `FCHK p, a, b`: whether `a / b` needs the division's slow path
    /// (operands or quotient out of the range the fast path handles).
    Fchk = "FCHK", Sass, Pure;
    /// IEEE reciprocal (`ty` f32/f64, a rounding): a pseudo operation like
    /// [`Opcode::Idiv`], expanded by late legalization.
    Frcp = "FRCP", Sass, Pure;
    /// IEEE square root (`ty` f32/f64, a rounding): a pseudo operation
    /// like [`Opcode::Idiv`].
    Fsqrt = "FSQRT", Sass, Pure;
    /// `rsqrt.approx.f64`: a pseudo operation (its range-reduction slow
    /// path branches), expanded by late legalization.
    Drsq = "DRSQ", Sass, Pure;
    // ---- SASS layer: integer bit operations ----
    /// `POPC d, a`.
    Popcnt = "POPC", Sass, Pure;
    /// `FLO(.U32)(.SH) d, a` (`ty` u32/s32, `.SH` by `shiftamt`; the
    /// `neg` bit 1 complements a: `~R`).
    Flo = "FLO", Sass, Pure;
    /// `BREV d, a`.
    Bitrev = "BREV", Sass, Pure;
    /// `BMSK(.W) d, pos, len`.
    Bitmask = "BMSK", Sass, Pure;
    /// `SGXT(.W)(.U32) d, a, bits`.
    Sgxt = "SGXT", Sass, Pure;
    /// `IDP.4A.{U8,S8}.{U8,S8} d, a, b, c` (`ty` a's type, `src_ty` b's).
    Idp4a = "IDP.4A", Sass, Pure;
    /// `IDP.2A.{LO,HI}.{U16,S16}.{U8,S8} d, a, b, c` (`mul` the half).
    Idp2a = "IDP.2A", Sass, Pure;
    /// `VABSDIFF4.U8 d, a, b, RZ`: the unsigned bytes' absolute differences.
    ByteAbsdiff = "VABSDIFF4", Sass, Pure;
    /// `VABSDIFF4.U8.ACC d, a, b, c`: `c` plus their sum.
    ByteSad = "VABSDIFF4.ACC", Sass, Pure;
    /// `VIMNMX.U8x4 d, a, b, p` (sm_120): the unsigned bytes' minima
    /// (`p` true) or maxima (`p` false), operands as [`Opcode::Vimnmx`].
    ByteMinmax = "VIMNMX.U8x4", Sass, Pure;
    /// `VIADD.U8x4 d, a, b` (sm_120): the bytes' sums modulo 256 (of a
    /// negated `b`, the differences).
    ByteAdd = "VIADD.U8x4", Sass, Pure;
    /// `VIADD.16x2 d, a, b` (sm_90+): the 16-bit lanes' sums modulo 2^16.
    LaneAdd16 = "VIADD.16x2", Sass, Pure;
    // ---- SASS layer: warp, atomic and synchronisation operations ----
    /// `SHFL.mode p, d, a, b, c` (results `d[, p]`; `warp` the mode).
    Shuffle = "SHFL", Sass, Effect;
    /// `VOTE.mode d|p, a`: `all`/`any`/`uni` give a predicate, `ballot` a
    /// register (`VOTE.ANY R, PT, a`).
    WarpVote = "VOTE", Sass, Effect;
    /// `MATCH.mode d[, p], a` (`ty` b32/b64).
    WarpMatch = "MATCH", Sass, Effect;
    /// `REDUX.op ud, a`: a warp reduction into a uniform register.
    WarpReduce = "REDUX", Sass, Effect;
    /// `ELECT p, ud, PT` (sm_90+): results `ud` (the lane), `p`.
    WarpElect = "ELECT", Sass, Effect;
    /// `@pending R2UR differ, ud, a` (the predicate form): `ud` is `a` of
    /// the first lane where `pending` holds; `differ` is whether this
    /// lane's `a` is another value where `pending` holds, `rest` (the third
    /// argument) elsewhere. One step of the loop over the warp's texture
    /// and surface handles (arguments `pending, a, rest`, results `ud,
    /// differ`).
    UniformPick = "R2UR", Sass, Effect;
    /// `USETMAXREG.TRY_ALLOC.CTAPOOL up, n` then the uniform predicate
    /// into `p` (sm_90a+): asks the CTA's pool for registers up to the
    /// count `n` (the immediate); `p` says whether they were granted.
    RegTryAlloc = "USETMAXREG.TRY_ALLOC", Sass, Effect;
    /// `USETMAXREG.DEALLOC.CTAPOOL n` (sm_90a+): gives the registers above
    /// the count `n` (the immediate) back to the CTA's pool.
    RegDealloc = "USETMAXREG.DEALLOC", Sass, Effect;
    /// `UCGABAR_ARV` (sm_90+): arrives at the cluster's barrier.
    ClusterBarArrive = "UCGABAR_ARV", Sass, Effect;
    /// `UCGABAR_WAIT` (sm_90+): waits on the cluster's barrier.
    ClusterBarWait = "UCGABAR_WAIT", Sass, Effect;
    /// `ATOMG d, [a], b[, c]`: a global atomic (`red`, `ty`, `scope`).
    AtomGlobal = "ATOMG", Sass, Store;
    /// `ATOMS d, [a], b[, c]`: a shared-memory atomic.
    AtomShared = "ATOMS", Sass, Store;
    /// `ATOM d, [a], b[, c]`: a generic-address atomic.
    AtomGeneric = "ATOM", Sass, Store;
    /// `RED [a], b`: a global reduction (`REDG` from sm_90).
    RedGlobal = "REDG", Sass, Store;
    /// `RED [a], b` on a generic address.
    RedGeneric = "RED", Sass, Store;
    /// `MEMBAR.order.scope` (`order` sc or acq_rel, `scope`).
    Membar = "MEMBAR", Sass, Effect;
    /// `BPT.TRAP 0x1` (`brkpt`): a breakpoint; execution goes on after it
    /// (ptxas 13.5 keeps the code that follows).
    Breakpoint = "BPT.TRAP", Sass, Effect;
    /// `PMTRIG mask` (`pmevent`): signals the performance-monitor events
    /// of the immediate's bits.
    PerfTrigger = "PMTRIG", Sass, Effect;
    /// `ERRBAR`: waits for outstanding memory errors.
    Errbar = "ERRBAR", Sass, Effect;
    /// `CGAERRBAR` (sm_90+): the same for the cluster.
    Cgaerrbar = "CGAERRBAR", Sass, Effect;
    /// `CCTL.IVALL`: invalidates the L1 cache.
    CacheInvalidate = "CCTL", Sass, Effect;
    /// `NANOSLEEP t`.
    Sleep = "NANOSLEEP", Sass, Effect;
    /// `QSPC.E.space p, RZ, [a]`: whether the generic address `a` lies in
    /// the global, local or shared window.
    Qspc = "QSPC", Sass, Pure;
    /// `WARPSYNC mask`.
    Warpsync = "WARPSYNC", Sass, Effect;
    /// `BAR.RED.op.DEFER_BLOCKING id, [!]p` (the barrier number in the
    /// immediate); its result is read by the [`Opcode::BarResult`] after it.
    BarReduce = "BAR.RED", Sass, Effect;
    /// `B2R.RESULT d` / `B2R.RESULT RZ, p`: the last barrier reduction's
    /// result (`red` popc: a count, else a predicate).
    BarResult = "B2R.RESULT", Sass, Effect;
    /// `F2FP(.RELU)(.SATFINITE).{F16,BF16}.F32.PACK_AB d, a, b` (sm_80+):
    /// two f32 values rounded to halves, a in the high half (`ty` the
    /// packed type).
    F2fp = "F2FP", Sass, Pure;
    /// `F2FP(.SATFINITE)(.RELU).{E4M3,E5M2}.F32.PACK_AB_MERGE_C d, a, b, c`
    /// (sm_89+): two f32 values to 8-bit floats (`ty`), a above b, in c's
    /// low half's place (`cvt.rn.satfinite.e4m3x2.f32`).
    F2fpPack8 = "F2FP.PACK8", Sass, Pure;
    /// `F2FP(.RELU).F16.{E4M3,E5M2}.UNPACK_B d, b` (sm_89+): the two 8-bit
    /// floats (`src_ty`) of b's low half to an f16 pair.
    F2fpUnpack8 = "F2FP.UNPACK8", Sass, Pure;
    /// `HADD2(.BF16_V2)(.FTZ)(.SAT) d, a, b`: packed-half addition (`ty`
    /// f16, f16x2, bf16 or bf16x2; a scalar half is the low lane).
    Hadd2 = "HADD2", Sass, Pure;
    /// `HMUL2 d, a, b`, as [`Opcode::Hadd2`].
    Hmul2 = "HMUL2", Sass, Pure;
    /// `HFMA2 d, a, b, c`, as [`Opcode::Hadd2`].
    Hfma2 = "HFMA2", Sass, Pure;
    /// `HMNMX2(.BF16_V2)(.FTZ)(.NAN)(.XORSIGN) d, a, b, m` (sm_80+): m true
    /// the minimum, false the maximum, per lane.
    Hmnmx2 = "HMNMX2", Sass, Pure;
    /// `HSETP2(.BF16_V2).cmp.comb p, a, b, c`: the low lanes' comparison
    /// (`ty` f16, f16x2, bf16 or bf16x2).
    Hsetp2 = "HSETP2", Sass, Pure;
    /// `HSET2(.BF16_V2)(.BF).cmp.comb d, a, b, c`: per lane all ones where
    /// the comparison combined with `c` holds, else 0; `src_ty` the
    /// compared halves' type, `ty` the result's (a half type: 1.0 of the
    /// lane type instead of all ones, `.BF`).
    Hset2 = "HSET2", Sass, Pure;
    /// `I2IP.{U8,S8,U16,S16}.S32.SAT d, a, b, c`: `a` and `b` saturated
    /// to the lane type and packed, `a` above `b`; 8-bit lanes keep `c`'s
    /// low half in the upper half (`cvt.pack.sat`).
    I2ip = "I2IP", Sass, Pure;
    /// `ACQBULK` (sm_90+): `griddepcontrol.wait`.
    Acqbulk = "ACQBULK", Sass, Effect;
    /// `PREEXIT` (sm_90+): `griddepcontrol.launch_dependents`.
    Preexit = "PREEXIT", Sass, Effect;
    // ---- warp-wide matrix operations (both layers; `crate::ir::matrix`
    // describes them, the descriptor in the immediate) ----
    // Matrix operations read other lanes' registers: effects, as the warp
    // operations are.
    /// `mma.sync.aligned d, a, b, c`: each operand one register tuple of
    /// the fragment's registers (`Mma` descriptor).
    Mma = "mma", Ptx, Effect;
    /// `ldmatrix.sync.aligned d, [a]`: a tuple of one register per matrix
    /// from a shared address (`MatrixMove`).
    Ldmatrix = "ldmatrix", Ptx, Load;
    /// `HMMA` / `IMMA` / `BMMA` / `DMMA` / `QMMA d, a, b, c`.
    MatrixMma = "MMA", Sass, Effect;
    /// `LDSM.16.{M88,MT88}{,.2,.4} d, [a]`.
    MatrixLoad = "LDSM", Sass, Load;
    /// `stmatrix.sync.aligned [a], v`: a tuple of one register per
    /// matrix to a shared address (`MatrixMove`).
    Stmatrix = "stmatrix", Ptx, Store;
    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`.
    Movmatrix = "movmatrix", Ptx, Effect;
    /// `STSM.16.{M88,MT88}{,.2,.4} [a], v`.
    MatrixStore = "STSM", Sass, Store;
    /// `tex.{1d,2d,3d}.v4.dtype.ctype {d0, d1, d2, d3}, [t, {c..}]`: a
    /// texture fetch ([`TexFetch`](super::texture::TexFetch) in the
    /// immediate); arguments the 64-bit handle (absent for a texref) and
    /// one 32-bit word per coordinate, results the first two components
    /// and the last two as pairs.
    Tex = "tex", Ptx, Load;
    /// `TEX` / `TLD`: the fetch with the handle and coordinates as the
    /// SM's form takes them (selection places them).
    TexFetch = "TEX", Sass, Load;
    /// `MOVM.16.MT88 d, a`.
    MatrixTranspose = "MOVM", Sass, Effect;
    /// `suld.b.{1d,a1d,2d,a2d,3d}{,.v2,.v4}.bN.clamp d, [s, {c..}]`: a
    /// surface load (`SurfaceAccess` in the immediate); arguments the
    /// 64-bit handle (absent for a surfref) and one 32-bit word per
    /// coordinate (x in bytes), the result the bytes loaded (one word,
    /// zero-extended, up to 4 bytes; a pair for 8, a quad for 16).
    Suld = "suld", Ptx, Load;
    /// `SULD.D.BA`: the load with the handle and coordinates as the SM's
    /// form takes them.
    SurfaceLoad = "SULD", Sass, Load;
    /// `sust.b... [s, {c..}], v`: a surface store; arguments the handle
    /// (absent for a surfref), the coordinates, then the data (as
    /// `suld`'s result).
    Sust = "sust", Ptx, Store;
    /// `SUST.D.BA`.
    SurfaceStore = "SUST", Sass, Store;
    /// `txq.{width,height,depth}.b32`, `suq.{width,height,depth}.b32`: a
    /// header query (`HeaderQuery` in the immediate); the argument the
    /// 64-bit handle (absent for a reference).
    Txq = "txq", Ptx, Load;
    /// `TXQ ... TEX_HEADER_DIMENSION`.
    TexQuery = "TXQ", Sass, Load;
    /// `cp.async [shared], [global], valid`: an asynchronous copy
    /// (`AsyncCopy` descriptor; `valid` false
    /// copies nothing and zero-fills).
    CpAsync = "cp.async", Ptx, Store;
    /// `cp.async.commit_group`: closes a group of copies.
    CpAsyncCommit = "cp.async.commit_group", Ptx, Effect;
    /// `cp.async.wait_group n` (`n` the immediate): waits until at most n
    /// groups are pending.
    CpAsyncWait = "cp.async.wait_group", Ptx, Effect;
    /// `LDGSTS.E{.BYPASS}{.LTCnB}{.64,.128}{.ZFILL} [s], [g.64], p`.
    AsyncCopy = "LDGSTS", Sass, Store;
    /// `LDGDEPBAR`: counts a group on scoreboard 0.
    AsyncCommit = "LDGDEPBAR", Sass, Effect;
    /// `DEPBAR.LE SB0, n`.
    AsyncWait = "DEPBAR.LE", Sass, Effect;
    /// `FENCE.VIEW.ASYNC.S` (sm_90+): orders the generic proxy's shared
    /// memory accesses before the asynchronous proxy's
    /// (`fence.proxy.async.shared::cta`, and before `mbarrier.init`).
    ProxyFence = "FENCE.VIEW.ASYNC.S", Sass, Effect;
    /// `SYNCS.EXCH.64 URZ, [a], w` (sm_90+): stores the 64-bit word `w`
    /// (`ur64`) into the mbarrier at shared address `a` (`ur32`):
    /// `mbarrier.init`. Uniform operands: one execution per warp.
    MbarExchange = "SYNCS.EXCH.64", Sass, Store;
    /// `SYNCS.ARRIVE.TRANS64 RZ, [a+URZ], tx` (sm_90+): one arrival at the
    /// mbarrier at `a` (`r32`, plus the offset) that also expects `tx`
    /// (`r32`) transaction bytes; without `tx`, `.A1T0` (an arrival
    /// alone).
    MbarArrive = "SYNCS.ARRIVE.TRANS64", Sass, Store;
    /// `SYNCS.PHASECHK.TRANS64.TRYWAIT p, [a+URZ], parity` (sm_90+): `p`
    /// whether the phase of the mbarrier at `a` (`r32`, plus the offset)
    /// with that parity has completed. A store for the optimizer: it is
    /// polled in loops and may never be hoisted or merged.
    MbarTryWait = "SYNCS.PHASECHK.TRANS64.TRYWAIT", Sass, Store;
    /// `UBLKCP.S.G [d], [s], n` (sm_90+): a bulk copy from global memory
    /// at `s` (`ur64`) to shared memory at `d` (`ur64`: the destination,
    /// then the mbarrier the copy's bytes complete on), `n` (`ur32`) the
    /// byte count / 16. Uniform operands: one copy per execution by a
    /// warp.
    BulkCopy = "UBLKCP.S.G", Sass, Store;
    /// `UBLKCP.G.S [d], [s], n` (sm_90+): a bulk copy from shared memory at
    /// `s` (`ur32`) to global memory at `d` (`ur64`) in the open bulk
    /// group, `n` (`ur32`) the byte count / 16. Uniform operands.
    BulkStore = "UBLKCP.G.S", Sass, Store;
    /// `UBLKCP.G.S.DST_G_BYTE_MASK [d], [s], n`: the same, storing only the
    /// bytes whose bit of `n`'s high half is set (`.cp_mask`).
    BulkStoreMasked = "UBLKCP.G.S.DST_G_BYTE_MASK", Sass, Store;
    /// `UTMACMDFLUSH` (sm_90+): closes the open bulk group
    /// (`cp.async.bulk.commit_group`), counted on scoreboard 0.
    BulkCommit = "UTMACMDFLUSH", Sass, Effect;
    /// `UGETNEXTWORKID.SELFCAST [r], [r+1]` (sm_100+): asks to cancel a CTA
    /// not yet launched and take its work, the 16-byte response to shared
    /// memory at `r` and its bytes completing on the mbarrier at `r+1`
    /// (`ur64`: the two addresses).
    NextWorkId = "UGETNEXTWORKID.SELFCAST", Sass, Store;
}

impl Opcode {
    #[inline]
    fn row(self) -> &'static (Opcode, &'static str, Layer, Class) {
        // The table is in declaration order (checked by a test).
        &OPCODES[self as usize]
    }
    /// The text name.
    #[inline]
    pub fn name(self) -> &'static str {
        self.row().1
    }
    /// The layer.
    #[inline]
    pub fn layer(self) -> Layer {
        self.row().2
    }
    /// The class.
    #[inline]
    pub fn class(self) -> Class {
        self.row().3
    }
    /// Whether the opcode ends a block.
    #[inline]
    pub fn is_terminator(self) -> bool {
        self.class() == Class::Terminator
    }
    /// Whether the opcode has effects beyond its results (so dead-code
    /// elimination must keep it).
    #[inline]
    pub fn has_side_effects(self) -> bool {
        matches!(self.class(), Class::Store | Class::Effect | Class::Call | Class::Terminator)
    }
    /// Whether the opcode reads `Attrs::mul`
    /// (which decides whether the words `hi`/`lo` are a multiply mode or a
    /// comparison).
    #[inline]
    pub fn takes_mul_mode(self) -> bool {
        matches!(self, Opcode::Mul | Opcode::Mad | Opcode::Imad | Opcode::Shf | Opcode::Madc | Opcode::Mul24 | Opcode::Mad24 | Opcode::Dp2a | Opcode::Idp2a)
    }
    /// Whether the opcode reads `Attrs::red`
    /// (which decides whether `and`/`or`/`xor` are a reduction or a
    /// combining operation). DSETP takes `min`/`max` in place of a
    /// comparison (DSETP.MIN/.MAX).
    pub fn takes_reduction(self) -> bool {
        matches!(
            self,
            Opcode::Atom
                | Opcode::Dsetp
                | Opcode::Red
                | Opcode::Redux
                | Opcode::AtomGlobal
                | Opcode::AtomShared
                | Opcode::AtomGeneric
                | Opcode::RedGlobal
                | Opcode::RedGeneric
                | Opcode::WarpReduce
                | Opcode::BarRed
                | Opcode::BarReduce
                | Opcode::BarResult
        )
    }
    /// The opcode with this text name.
    #[inline]
    pub fn from_name(name: &str) -> Option<Opcode> {
        OPCODES.iter().find(|row| row.1 == name).map(|row| row.0)
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_declaration_order_and_names_unique() {
        for (i, row) in OPCODES.iter().enumerate() {
            assert_eq!(row.0 as usize, i, "{}", row.1);
            assert_eq!(Opcode::from_name(row.1), Some(row.0));
        }
        assert_eq!(Opcode::Iadd3.layer(), Layer::Sass);
        assert_eq!(Opcode::Add.layer(), Layer::Ptx);
        assert!(Opcode::Brif.is_terminator() && !Opcode::Ld.is_terminator());
        assert!(Opcode::St.has_side_effects() && !Opcode::Ld.has_side_effects());
        assert_eq!(Opcode::from_name("ADD"), None);
    }
}
