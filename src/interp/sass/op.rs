//! The executable form of SASS instructions: [`Op`], one per static
//! instruction, with every operand resolved to a row of the warp's register
//! array (see [`Rows`]) so that the interpreter's main loop does no decoding.
//!
//! Translation reads an [`Inst`] the way `nvdisasm` text reads: the
//! opcode and the tokens of its modifiers, then the operands in printed
//! order. Constant-bank operands are constants for the whole launch, so they
//! become constant rows, like immediates.
//!
//! Register rows of a warp (each row holds one 32-bit value per lane):
//! `R0..R254` are rows 0–254; four rows of zeros stand for RZ (read as a
//! pair or quad too); four sink rows take writes to RZ; the uniform file
//! follows the same way; then one row per distinct constant operand. A
//! uniform register is a row whose lanes all hold the same value: uniform
//! instructions execute on all 32 lanes. Predicates are lane masks: P0–P6,
//! PT, a sink, then UP0–UP6, UPT, a sink (a uniform predicate is all ones
//! or all zeros).

use super::matrix::MmaKind;
use super::num::{Fp8, Mufu, Round};
use crate::isa::form::Slot;
use crate::isa::inst::Inst;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Operand, Reg, RegFile, RegNum};
use crate::target::Sm;

/// Row of R0.
pub const R_BASE: u16 = 0;
/// Rows of zeros read as RZ.
pub const RZ: u16 = 255;
/// Rows written for RZ.
pub const R_SINK: u16 = 259;
/// Row of UR0.
pub const UR_BASE: u16 = 263;
/// Rows of zeros read as URZ.
pub const URZ: u16 = UR_BASE + 255;
/// Rows written for URZ.
pub const UR_SINK: u16 = URZ + 4;
/// The first constant row.
pub const CONST_BASE: u16 = UR_SINK + 4;

/// Predicate rows.
pub const PT: u8 = 7;
/// PRMT's mode words in the order of its mode field (1..6).
const PRMT_MODES: [Mod; 6] = [Mod::F4E, Mod::B4E, Mod::RC8, Mod::ECL, Mod::ECR, Mod::RC16];
/// Predicate sink.
pub const P_SINK: u8 = 8;
/// Row of UP0.
pub const UP_BASE: u8 = 9;
/// UPT.
pub const UPT: u8 = 16;
/// Uniform predicate sink.
pub const UP_SINK: u8 = 17;
/// Predicate rows in all.
pub const PRED_ROWS: usize = 18;

/// Source modifier bits.
pub const NEG: u8 = 1;
/// `|x|`.
pub const ABS: u8 = 2;
/// `~x`.
pub const NOT: u8 = 4;
/// Packed-half sources: both lanes read the low half (`R0.H0_H0`).
pub const H0H0: u8 = 8;
/// Packed-half sources: both lanes read the high half (`R0.H1_H1`).
pub const H1H1: u8 = 16;
/// Packed-half sources: both lanes read the register as one f32 value
/// converted to f16 toward zero (`R0.F32`, sm_75–sm_89).
pub const F32H: u8 = 32;

/// A source operand: a row and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S {
    /// Row.
    pub r: u16,
    /// Modifier bits.
    pub m: u8,
}

/// A predicate source: row and negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct P {
    /// Predicate row.
    pub r: u8,
    /// `!p`.
    pub not: bool,
}

impl P {
    /// PT.
    pub const TRUE: P = P { r: PT, not: false };
}

/// The constant rows a program needs (values for all lanes).
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// Value of each constant row.
    pub constants: Vec<u32>,
}

impl Rows {
    fn constant(&mut self, v: u32) -> u16 {
        self.constant_pair(&[v])
    }
    /// Consecutive constant rows holding `vs` (for pair operands).
    fn constant_pair(&mut self, vs: &[u32]) -> u16 {
        if let Some(i) = self.constants.windows(vs.len()).position(|w| w == vs) {
            return CONST_BASE + i as u16;
        }
        let at = self.constants.len();
        self.constants.extend_from_slice(vs);
        CONST_BASE + at as u16
    }
    /// Total rows of a warp's register array.
    pub fn total(&self) -> usize {
        CONST_BASE as usize + self.constants.len()
    }
}

/// Comparison of ISETP / FSETP / DSETP, by encoding value.
pub type Cmp = u8;

/// Memory spaces of loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Global (LDG/STG).
    Global,
    /// Generic (LD/ST).
    Generic,
    /// Shared (LDS/STS).
    Shared,
    /// Local (LDL/STL).
    Local,
}

/// An address operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// Base row (RZ rows for none).
    pub base: u16,
    /// Whether the base is a 64-bit pair.
    pub wide: bool,
    /// With `wide`, the base is one register, zero-extended (the address
    /// and the uniform register stay 64-bit: sm_75's `[R0.U32+UR4]`).
    pub base32: bool,
    /// Byte offset.
    pub offset: i32,
    /// Uniform register row added (URZ rows for none).
    pub ur: u16,
    /// Scale shift of the base (`.X4` is 2).
    pub shift: u8,
}

/// Access width and extension of a load or store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Width {
    /// Bytes: 1, 2, 4, 8 or 16.
    pub bytes: u8,
    /// Sign-extend sub-word loads.
    pub signed: bool,
}

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// Add (integer or float).
    Add,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Increment modulo.
    Inc,
    /// Decrement modulo.
    Dec,
    /// And.
    And,
    /// Or.
    Or,
    /// Xor.
    Xor,
    /// Exchange.
    Exch,
    /// Compare and swap.
    Cas,
}

/// Operand type of an atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomType {
    /// u32.
    U32,
    /// s32.
    S32,
    /// u64.
    U64,
    /// s64.
    S64,
    /// f32.
    F32,
    /// f64.
    F64,
    /// f16x2.
    F16x2,
}

/// Float formats of conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    /// f16.
    F16,
    /// bf16.
    Bf16,
    /// f32.
    F32,
    /// f64.
    F64,
}

/// Integer formats of conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntFmt {
    /// Bits.
    pub bits: u8,
    /// Signed.
    pub signed: bool,
}

/// Shuffle modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// Indexed.
    Idx,
    /// Up.
    Up,
    /// Down.
    Down,
    /// Butterfly.
    Bfly,
}

/// Which f32 of a source each lane of a packed-f32 instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// The pair as it is (`.F32x2.HI_LO`): the low lane the first register.
    Pair,
    /// The pair's halves swapped (`.F32x2.LO_HI`).
    Swapped,
    /// One register (or an immediate), read by both lanes (`.F32`).
    Single,
}

/// The operation of FADD2, FMUL2 and FFMA2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackedOp {
    /// `a + b`.
    Add,
    /// `a * b`.
    Mul,
    /// `a * b + c`, rounded once.
    Fma,
}

/// Vote modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// All.
    All,
    /// Any.
    Any,
    /// All equal.
    Eq,
}

/// One executable instruction.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Op {
    Nop,
    Exit,
    Trap,
    /// Executing it is an error (undecodable word, unmodelled instruction).
    Unsupported(Box<str>),
    Mov { d: u16, a: S, n: u8 },
    Iadd3 { d: u16, co: [u8; 2], a: S, b: S, c: S, ci: Option<[P; 2]> },
    Iadd64 { d: u16, co: u8, a: S, b: S, ci: Option<P>, wide: bool },
    /// UIADD3.64 with a third source (sm_90's ptxas: `UIADD3.64 UR4, UR12,
    /// UR14, UR4`): the 64-bit sum of three pairs, negations applied.
    Uiadd3x64 { d: u16, a: S, b: S, c: S },
    /// VIADD.S32.ISAT: `a + b` clamped to the signed 32-bit range.
    IaddSat { d: u16, a: S, b: S },
    Imad { d: u16, a: S, b: S, c: S, signed: bool, kind: u8, co: u8, ci: Option<P> },
    Lea { d: u16, co: u8, a: S, b: S, c: S, s: u8, hi: bool, sx: bool, ci: Option<P> },
    Lop3 { d: u16, pd: u8, a: S, b: S, c: S, lut: u8, pin: P },
    Plop3 { d: [u8; 2], a: P, b: P, c: P, lut: [u8; 2] },
    Sel { d: u16, a: S, b: S, p: P, n: u8 },
    Shf { d: u16, a: S, b: S, c: S, left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool },
    /// PRMT: `mode` 0 takes the selector's four nibbles; 1..6 are
    /// `.F4E .B4E .RC8 .ECL .ECR .RC16` (the byte index from the selector's
    /// low two bits, PTX ISA "prmt").
    Prmt { d: u16, a: S, b: S, c: S, mode: u8 },
    Iabs { d: u16, a: S },
    Popc { d: u16, a: S },
    Brev { d: u16, a: S },
    Flo { d: u16, a: S, signed: bool, sh: bool },
    Sgxt { d: u16, a: S, b: S, wrap: bool, signed: bool },
    Imnmx { d: u16, a: S, b: S, p: P, signed: bool },
    Viaddmnmx { d: u16, a: S, b: S, c: S, p: P, signed: bool },
    /// VIMNMX, VIMNMX3 and VIADDMNMX in general: per 32-bit lane, or per
    /// 16-bit half with `half`, the minimum (`p` true) or maximum of the
    /// first `count` sources (with `add`: of `srcs[0] + srcs[1]`, wrapping
    /// in the lane, and `srcs[2]`), then at least zero with `relu`.
    MinMax { d: u16, srcs: [S; 3], count: u8, add: bool, p: P, half: bool, signed: bool, relu: bool },
    Vabsdiff { d: u16, a: S, b: S, c: S, signed: bool },
    P2r { d: u16, a: S, mask: S, byte: u8, uniform: bool },
    R2p { a: S, mask: u32, byte: u8 },
    Imnmx64 { d: u16, a: S, b: S, p: P, signed: bool },
    Isetp { d: [u8; 2], a: S, b: S, cmp: Cmp, signed: bool, wide: bool, bop: u8, pin: P, ex: Option<P> },
    Fsetp { d: [u8; 2], a: S, b: S, cmp: Cmp, ftz: bool, bop: u8, pin: P, f64: bool },
    /// FSET.BF: FSETP's comparison written as 1.0 or 0.0.
    Fset { d: u16, a: S, b: S, cmp: Cmp, ftz: bool, bop: u8, pin: P },
    Fadd { d: u16, a: S, b: S, rnd: Round, ftz: bool, sat: bool },
    Fmul { d: u16, a: S, b: S, rnd: Round, ftz: bool, sat: bool },
    Ffma { d: u16, a: S, b: S, c: S, rnd: Round, ftz: bool, sat: bool },
    Fmnmx { d: u16, a: S, b: S, p: P, ftz: bool, nan: bool, xorsign: bool },
    /// FADD2 / FMUL2 / FFMA2: FADD, FMUL or FFMA on each f32 lane of the
    /// pair `d` (the low lane first), each source read as it selects.
    PackedF32 { d: u16, srcs: [S; 3], lanes: [Lanes; 3], op: PackedOp, rnd: Round, ftz: bool },
    Fsel { d: u16, a: S, b: S, p: P },
    Dadd { d: u16, a: S, b: S, rnd: Round },
    Dmul { d: u16, a: S, b: S, rnd: Round },
    Dfma { d: u16, a: S, b: S, c: S, rnd: Round },
    Mufu { d: u16, a: S, op: Mufu },
    Fchk { p: u8, a: S, b: S },
    /// HFMA2: per half, `a * b + c` rounded once; `.FTZ` flushes subnormal
    /// inputs and results, `.SAT` clamps to [0, 1].
    Hfma2 { d: u16, a: S, b: S, c: S, bf16: bool, ftz: bool, sat: bool },
    /// HMNMX2: per half, the minimum (`p` true) or the maximum of `a` and `b`.
    /// With `xorsign` (PTX `min/max.xorsign.abs`), a number's sign is the
    /// exclusive or of the sources' signs before `|x|`.
    Hmnmx2 { d: u16, a: S, b: S, p: P, bf16: bool, ftz: bool, nan: bool, xorsign: bool },
    /// VHMNMX: per half, the minimum (`p` true) or the maximum of `a`, `b`
    /// and `c`, as HMNMX2 of HMNMX2(a, b) and c.
    Vhmnmx { d: u16, a: S, b: S, c: S, p: P, bf16: bool, ftz: bool, nan: bool },
    /// HSET2: per half, all ones (1.0 with `bf`) where the comparison
    /// combined with `p` holds, else 0.
    Hset2 { d: u16, a: S, b: S, cmp: Cmp, p: P, bop: u8, bf: bool, ftz: bool, bf16: bool },
    /// HADD2 / HMUL2: per half (or the low halves into one f32 with
    /// `.F32`), with HFMA2's `.FTZ` and `.SAT`.
    Half2 { d: u16, a: S, b: S, mul: bool, bf16: bool, f32: bool, ftz: bool, sat: bool },
    Hsetp2 { d: [u8; 2], a: S, b: S, cmp: Cmp, pin: P, bop: u8, ftz: bool, bf16: bool },
    /// PLOP3.LUT of the sign bits of three registers.
    Plop3Sign { d: [u8; 2], a: S, b: S, c: S, lut: [u8; 2] },
    F2f { d: u16, a: S, from: Fmt, to: Fmt, rnd: Round, ftz: bool },
    F2i { d: u16, a: S, from: Fmt, to: IntFmt, rnd: Round, ftz: bool },
    /// I2F and I2FP: `shift` moves the source's selected byte or half
    /// (`R2.B1`, `R2.H1`) to the bottom first.
    I2f { d: u16, a: S, from: IntFmt, to: Fmt, rnd: Round, shift: u8 },
    F2fp { d: u16, a: S, b: S, bf16: bool, relu: bool, satfinite: bool, rnd: Round },
    Frnd { d: u16, a: S, fmt: Fmt, rnd: Round, ftz: bool },
    S2r { d: u16, sr: u8 },
    Cs2r { d: u16, sr: u8, n: u8 },
    /// R2UR: the value of the first active lane, to all lanes.
    R2ur { d: u16, a: S },
    /// R2UR with a predicate result: set where every active lane's `a` is
    /// the same.
    R2urUniform { p: u8, d: u16, a: S },
    Ldc { d: u16, bank: u8, index: u16, offset: i32, w: Width },
    Ld { d: u16, addr: Addr, w: Width, space: Space },
    St { s: u16, addr: Addr, w: Width, space: Space },
    /// An atomic; `pd` (a sink when the text says `PT`) gets whether it
    /// was performed (see the executor for generic packed-half atomics).
    Atom { d: u16, pd: u8, addr: Addr, b: u16, c: u16, op: AtomOp, ty: AtomType, space: Space },
    /// QSPC: whether each lane's generic address lies in `space` (global,
    /// local or shared), into the predicate `pd`.
    Qspc { pd: u8, addr: Addr, space: Space },
    /// LDGSTS: per lane where `valid` holds, `bytes` bytes from the global
    /// address `src` to the shared address `dst`; with `zfill` the source
    /// address's bytes below the size count bytes zero-filled at the end.
    /// Where `valid` does not hold, zeros.
    Ldgsts { dst: Addr, src: Addr, bytes: u8, zfill: bool, valid: P },
    /// SYNCS.EXCH.64: once per warp, the uniform pair `data` stored as the
    /// mbarrier word at the shared address `addr`; the old word to the pair
    /// `d` (the word's layout: `super::exec`, "mbarrier").
    MbarExch { d: u16, addr: Addr, data: S },
    /// SYNCS.ARRIVE.TRANS64 (`.A1T0`: `tx` is RZ): per lane, one arrival at
    /// the mbarrier at `addr` that also expects `tx` transaction bytes; the
    /// word before it to the pair `d`.
    MbarArrive { d: u16, addr: Addr, tx: S },
    /// SYNCS.PHASECHK.TRANS64(.TRYWAIT): per lane, whether the mbarrier's
    /// phase of parity `parity` has completed, to `pd`.
    MbarPhase { pd: u8, addr: Addr, parity: S },
    /// UBLKCP.S.G: once per warp, `units` (low 16 bits) × 16 bytes from the
    /// global pair `src` to the shared address `dst`; the next register
    /// after `dst`'s holds the mbarrier on which the bytes complete.
    BulkToShared { dst: Addr, src: Addr, units: S },
    /// UBLKCP.G.S{.DST_G_BYTE_MASK}: once per warp, `count`'s low 16 bits ×
    /// 16 bytes from the shared address `src` to the global pair `dst`;
    /// `masked`: only the bytes whose bit (byte offset mod 16) of `count`'s
    /// high half is set.
    BulkToGlobal { dst: Addr, src: Addr, count: S, masked: bool },
    /// UGETNEXTWORKID.SELFCAST: once per warp, the response of a
    /// cancellation that fails (16 zero bytes: no CTA is left to cancel
    /// while one runs here at a time) to the shared address `resp`; its
    /// bytes complete on the mbarrier at the next register's address.
    NextWorkId { resp: Addr },
    AtomsPopcInc { d: u16, addr: Addr },
    /// ATOMS.CAST(.SPIN): where the shared word (pair with `wide`) at
    /// `addr` equals `b`, store `c`; the success (1 or 0) to `d`, or to the
    /// predicate `pd` (sm_120's form; the other destination is a sink).
    AtomsCast { d: u16, pd: u8, addr: Addr, b: u16, c: u16, wide: bool },
    /// `any` (`.ANY`): the whole group branches when any of its lanes would.
    Bra { target: u32, cond: P, uniform: bool, any: bool },
    /// `BRA.DIV URm` (taken unless every live thread of the mask runs here)
    /// and `BRA.CONV URm` (taken when they all do).
    BraConv { target: u32, cond: P, mask: S, conv: bool },
    Brx { a: S, base: u32 },
    Bssy { b: u8 },
    Bsync { b: u8 },
    /// `BREAK [cond,] Bn`: the lanes whose guard and condition hold leave Bn.
    Break { b: u8, cond: P },
    BmovToR { d: u16, b: u8, clear: bool },
    BmovToB { b: u8, a: S },
    Warpsync { a: S },
    Call { target: u32 },
    /// Call through a register holding a code address: absolute
    /// (`CALL.ABS`, `base` none) or an offset from `base` (`CALL.REL`,
    /// the section start).
    CallReg { a: S, base: Option<u32> },
    /// LEPC: a code address (the next instruction's, or a target's) into a pair.
    Lepc { d: u16, addr: u32 },
    Ret { a: S, base: u32 },
    Bar { id: S, red: Option<(u8, P)> },
    B2r { d: u16, p: u8 },
    Shfl { pd: u8, d: u16, a: S, b: S, c: S, mode: ShflMode },
    Vote { d: u16, pd: u8, p: P, mode: VoteMode, uniform: bool },
    /// ELECT: the lowest lane whose source is true gets a true `pd`; the
    /// uniform `d` holds its index.
    Elect { d: u16, pd: u8, p: P },
    Redux { d: u16, a: S, op: u8, signed: bool },
    /// CREDUX.F32: the f32 minimum (`min`) or maximum of the active lanes'
    /// sources, of their absolute values with `abs`; NaN sources are
    /// skipped unless `nan`, where any NaN gives the canonical NaN.
    ReduxF32 { d: u16, a: S, min: bool, abs: bool, nan: bool },
    /// FMNMX3 (sm_100): FMNMX of three sources, `(a, b)` then `c`, the
    /// predicate choosing the minimum.
    Fmnmx3 { d: u16, a: S, b: S, c: S, p: P, ftz: bool, nan: bool },
    /// I2I.{U8,S8,U16,S16}.S32.SAT: `b` saturated to the narrow type.
    I2i { d: u16, b: S, dst_signed: bool, src_signed: bool, half: bool },
    Flou { d: u16, a: S },
    /// BMSK: `b` one bits from bit `a` (clamped, or wrapped with `.W`).
    Bmsk { d: u16, a: S, b: S, wrap: bool },
    /// IDP.4A / IDP.2A.{LO,HI}: dot product of packed integers plus `c`.
    Idp { d: u16, a: S, b: S, c: S, two: bool, hi: bool, a_signed: bool, b_signed: bool },
    /// I2IP.{U8,S8}.{S32,U32}.SAT: `a` and `b` saturated to 8 bits, packed
    /// over the low half of `c`.
    I2ip { d: u16, a: S, b: S, c: S, dst_signed: bool, src_signed: bool, half: bool },
    /// F2FP.SATFINITE.{E4M3,E5M2}.F32.PACK_AB_MERGE_C: `a` to the high
    /// byte, `b` to the low byte, over `c`'s high half.
    F2fp8 { d: u16, a: S, b: S, c: S, fmt: Fp8 },
    /// F2FP.F16.{E4M3,E5M2}.UNPACK_B: two 8-bit floats to an f16 pair.
    F2fpUnpack { d: u16, a: S, fmt: Fp8 },
    /// MATCH.ANY / MATCH.ALL (32 or 64 bits).
    Match { d: u16, pd: u8, a: S, wide: bool, all: bool },
    /// LDSM: `n` 8×8 matrices of 16-bit elements from shared memory, rows
    /// addressed by lanes, optionally transposed.
    Ldsm { d: u16, addr: Addr, n: u8, trans: bool },
    /// TEX / TLD: the four components of the texture whose handle `handle`
    /// holds at the first `dim` of the values in rows `a..a+na` then
    /// `b..b+nb` (the rest a level of detail, unused by point sampling
    /// without mipmaps), written to `rg`, `rg+1`, `ba`, `ba+1`; TLD4
    /// (`gather`): that component of the four texels bilinear filtering
    /// reads instead. Only the components of `mask` (bit k: component k)
    /// are written, packed in that order.
    Tex { rg: u16, ba: u16, a: u16, na: u8, b: u16, nb: u8, handle: S, dim: u8, int_coords: bool, gather: Option<u8>, mask: u8, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
    /// SULD / SUST (`.D.BA`: raw bytes, x in bytes): `d` the first result
    /// register (a load) or data register (a store), `a` the coordinate
    /// tuple (x, then y, then z or the layer: `coords` words), `bytes`
    /// moved (a sub-word load extends by `signed`), the geometry as SASS
    /// numbers it and the clamp (0 `.IGN`, 1 clamp, 2 `.TRAP`).
    Surface { store: bool, d: u16, a: u16, coords: u8, bytes: u8, signed: bool, geometry: u8, clamp: u8, handle: S, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
    /// TXQ `TEX_HEADER_DIMENSION`: the components of `mask` (0x1 width,
    /// 0x2 height, 0x4 depth) of the bound texture's or surface's size,
    /// written to consecutive registers from `d`.
    TexQuery { d: u16, mask: u8, handle: S, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
    /// STSM: `n` 8×8 matrices of 16-bit elements to shared memory, LDSM's
    /// inverse (lanes 8k..8k+7 address the rows of matrix k).
    Stsm { addr: Addr, v: u16, n: u8, trans: bool },
    /// MOVM.16.MT88: the warp's 8×8 matrix of 16-bit elements transposed.
    Movm { d: u16, a: u16 },
    /// HMMA / IMMA.
    Mma { d: u16, a: u16, b: u16, c: u16, kind: MmaKind },
}

/// The guard predicate of an instruction as a predicate row (uniform
/// instructions are guarded by uniform predicates).
pub fn guard_of(inst: &Inst) -> P {
    let (reg, not) = inst.guard;
    let r = match reg.num {
        RegNum::Phys(n) if n < 7 => {
            if inst.form.uniform_guard {
                UP_BASE + n
            } else {
                n
            }
        }
        _ => PT,
    };
    P { r, not }
}

/// Why an instruction cannot be translated.
pub fn unsupported(inst: &Inst, sm: Sm) -> Op {
    Op::Unsupported(format!("instruction not modelled: {}", inst.text(sm, 0).trim_end_matches(';').trim_end()).into_boxed_str())
}

/// A translator for one program: constant rows accumulate in `rows`.
pub struct Translator<'a> {
    /// Constant rows.
    pub rows: Rows,
    /// Constant banks (for constant operands).
    pub banks: &'a [Vec<u8>],
    /// The launch's bound textures (for texture fetches).
    pub textures: &'a [crate::interp::launch::Texture],
    /// The SM.
    pub sm: Sm,
}

fn bank_word(banks: &[Vec<u8>], bank: u8, offset: u32) -> u32 {
    let Some(b) = banks.get(usize::from(bank)) else { return 0 };
    let at = offset as usize;
    match b.get(at..at + 4) {
        Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        None => 0,
    }
}

fn mods_bits(m: crate::isa::operand::SrcMods) -> u8 {
    (if m.neg { NEG } else { 0 }) | (if m.abs { ABS } else { 0 }) | (if m.not { NOT } else { 0 })
}

/// Read row of a register.
fn read_row(reg: Reg) -> Option<u16> {
    match (reg.file, reg.num) {
        (RegFile::Gpr, RegNum::Phys(n)) if n < 255 => Some(R_BASE + u16::from(n)),
        (RegFile::Gpr, RegNum::Zero) => Some(RZ),
        (RegFile::Uniform, RegNum::Phys(n)) if n < 255 => Some(UR_BASE + u16::from(n)),
        (RegFile::Uniform, RegNum::Zero) => Some(URZ),
        _ => None,
    }
}

/// Write row of a register.
fn write_row(reg: Reg) -> Option<u16> {
    match (reg.file, reg.num) {
        (RegFile::Gpr, RegNum::Zero) => Some(R_SINK),
        (RegFile::Uniform, RegNum::Zero) => Some(UR_SINK),
        _ => read_row(reg),
    }
}

fn pred_row(reg: Reg, write: bool) -> Option<u8> {
    match (reg.file, reg.num) {
        (RegFile::Pred, RegNum::Phys(n)) if n < 7 => Some(n),
        (RegFile::Pred, RegNum::Zero) => Some(if write { P_SINK } else { PT }),
        (RegFile::UniformPred, RegNum::Phys(n)) if n < 7 => Some(UP_BASE + n),
        (RegFile::UniformPred, RegNum::Zero) => Some(if write { UP_SINK } else { UPT }),
        _ => None,
    }
}

struct Bad;

type R<T> = Result<T, Bad>;

impl Translator<'_> {
    /// Whether a load's or store's `.E` makes its address a 64-bit pair:
    /// on sm_75 `LDG.E.SYS R0, [R2]` (ptxas's and ours) reads the pair
    /// R2:R3 and the address operand has no `.64`; from sm_80 on `.E`
    /// names the memory descriptor and `[R2.64]` the width.
    fn e_is_wide(&self, space: Space, e: bool) -> bool {
        e && self.sm.number < 80 && matches!(space, Space::Global | Space::Generic)
    }

    /// Source 1 of a conversion or rounding (F2F, F2I, FRND): a register
    /// may name its high f16 half (`R9.H1`, operand token H1).
    fn half_aware_src(&mut self, inst: &Inst, op: &Operand, slot: &Slot, width: usize) -> R<S> {
        let a = self.src(op, slot, width)?;
        match inst.operand_tokens(1) {
            [] => Ok(a),
            [Mod::H1] => Ok(S { m: a.m | H1H1, ..a }),
            _ => Err(Bad),
        }
    }

    /// A source operand (`width` 32-bit words: constants become as many rows).
    fn src(&mut self, op: &Operand, slot: &Slot, width: usize) -> R<S> {
        match *op {
            Operand::Reg { reg, mods, .. } => Ok(S { r: read_row(reg).ok_or(Bad)?, m: mods_bits(mods) }),
            Operand::Imm(v) => {
                let f64_high = matches!(slot, Slot::Float { f64: true, .. });
                if width == 2 {
                    // A 64-bit immediate operand is the high half of an f64 (low half zero),
                    // or a sign-extended 32-bit integer.
                    let pair = if f64_high { [0, v] } else { [v, if (v as i32) < 0 { u32::MAX } else { 0 }] };
                    Ok(S { r: self.rows.constant_pair(&pair), m: 0 })
                } else {
                    Ok(S { r: self.rows.constant(v), m: 0 })
                }
            }
            Operand::Hex(v) => Ok(S { r: self.rows.constant(v), m: 0 }),
            Operand::Imm64(v) => Ok(S { r: self.rows.constant_pair(&[v as u32, (v >> 32) as u32]), m: 0 }),
            Operand::CBank { bank, offset, mods } => {
                let vs: Vec<u32> = (0..width.max(1)).map(|k| bank_word(self.banks, bank, u32::from(offset) + 4 * k as u32)).collect();
                Ok(S { r: self.rows.constant_pair(&vs), m: mods_bits(mods) })
            }
            _ => Err(Bad),
        }
    }

    /// The handle of a surface access or header query: the constant-bank
    /// word the two hex operands at `at` name (a `0x0` bank first), or the
    /// uniform or general register there.
    fn handle_at(&mut self, ops: &[Operand], at: usize, form: &crate::isa::form::Form) -> R<S> {
        match (form.slots.get(at), ops.get(at), ops.get(at + 1)) {
            (Some(Slot::Hex(_)), Some(Operand::Hex(bank)), Some(Operand::Hex(word))) => {
                let bank = u8::try_from(*bank).map_err(|_| Bad)?;
                Ok(S { r: self.rows.constant(bank_word(self.banks, bank, word.wrapping_mul(4))), m: 0 })
            }
            (_, Some(Operand::Reg { reg, .. }), _) if matches!(reg.file, RegFile::Uniform | RegFile::Gpr) => Ok(S { r: read_row(*reg).ok_or(Bad)?, m: 0 }),
            _ => Err(Bad),
        }
    }

    /// SULD and SUST by their form (see `surface_ops` in the form table):
    /// the geometry is the name's last token, the size, scope and clamp
    /// its modifiers.
    fn surface(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        let store = inst.op() == Opcode::SUST;
        let toks = inst.tokens();
        let has = |m: Mod| toks.contains(&m);
        let (geometry, coords) = if has(Mod::_1D_ARRAY) {
            (2, 2)
        } else if has(Mod::_2D_ARRAY) {
            (4, 3)
        } else if has(Mod::_3D) {
            (5, 3)
        } else if has(Mod::_2D) {
            (3, 2)
        } else if has(Mod::_1D) {
            (0, 1)
        } else {
            return Err(Bad);
        };
        let (bytes, signed) = if has(Mod::U8) {
            (1, false)
        } else if has(Mod::S8) {
            (1, true)
        } else if has(Mod::U16) {
            (2, false)
        } else if has(Mod::S16) {
            (2, true)
        } else if has(Mod::_64) {
            (8, false)
        } else if has(Mod::_128) {
            (16, false)
        } else {
            (4, false)
        };
        let clamp = if has(Mod::IGN) {
            0
        } else if has(Mod::TRAP) {
            2
        } else {
            1
        };
        let (d_op, a_op) = if store { (ops.get(1), ops.first()) } else { (ops.first(), ops.get(1)) };
        let d = if store {
            match d_op {
                Some(Operand::Reg { reg, .. }) => read_row(*reg).ok_or(Bad)?,
                _ => return Err(Bad),
            }
        } else {
            self.dst(d_op.ok_or(Bad)?)?
        };
        let a = match a_op {
            Some(Operand::Mem(m)) => read_row(m.base()).ok_or(Bad)?,
            _ => return Err(Bad),
        };
        let handle = self.handle_at(ops, 2, form)?;
        Ok(Op::Surface { store, d, a, coords, bytes, signed, geometry, clamp, handle, textures: self.textures.into() })
    }

    /// TXQ `TEX_HEADER_DIMENSION`: the write mask is the last operand, the
    /// handle after the query.
    fn header_query(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        let d = self.dst(ops.get(1).ok_or(Bad)?)?;
        let Some(Operand::Hex(mask)) = ops.last() else { return Err(Bad) };
        let handle = self.handle_at(ops, 4, form)?;
        Ok(Op::TexQuery { d, mask: (*mask & 0xf) as u8, handle, textures: self.textures.into() })
    }

    /// TEX and TLD by their form (see `crate::isa::table::texture`): the
    /// dimension is the form's `1D`/`2D`/`3D` operand, `.LL` adds a level
    /// of detail after the coordinates, `.SCR` splits the values in halves
    /// (the larger in a) and reads the handle from the constant-bank word
    /// its two hex operands name; other forms read the coordinates from a,
    /// the level from b and the handle from a uniform register.
    fn texture(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        let dim = form.slots.iter().find_map(|s| match s {
            Slot::Text(t) if t.len() == 2 && t.ends_with('D') => t[..1].parse::<u8>().ok(),
            _ => None,
        });
        let dim = dim.filter(|d| (1..=3).contains(d)).ok_or(Bad)?;
        let lod = u8::from(form.name.contains(".LL"));
        let scr = form.name.contains(".SCR");
        let has_b = matches!(form.slots.get(3), Some(Slot::Gpr { .. }));
        let (na, nb) = if scr { ((dim + lod).div_ceil(2), (dim + lod) / 2) } else { (dim, lod) };
        if has_b != (nb > 0) {
            return Err(Bad);
        }
        let ba = self.dst(ops.first().ok_or(Bad)?)?;
        let rg = self.dst(ops.get(1).ok_or(Bad)?)?;
        let a = read_row(match ops.get(2) {
            Some(Operand::Reg { reg, .. }) => *reg,
            _ => return Err(Bad),
        })
        .ok_or(Bad)?;
        let b = if has_b {
            match ops.get(3) {
                Some(Operand::Reg { reg, .. }) => read_row(*reg).ok_or(Bad)?,
                _ => return Err(Bad),
            }
        } else {
            RZ
        };
        let rest = &ops[if has_b { 4 } else { 3 }..];
        let handle = if scr {
            let (Some(Operand::Hex(bank)), Some(Operand::Hex(word))) = (rest.first(), rest.get(1)) else { return Err(Bad) };
            let bank = u8::try_from(*bank).map_err(|_| Bad)?;
            S { r: self.rows.constant(bank_word(self.banks, bank, word.wrapping_mul(4))), m: 0 }
        } else {
            match rest.first() {
                Some(Operand::Reg { reg, .. }) if reg.file == RegFile::Uniform => S { r: read_row(*reg).ok_or(Bad)?, m: 0 },
                _ => return Err(Bad),
            }
        };
        let int_coords = inst.op() == Opcode::TLD;
        // TLD4's component (`.R` … `.A`).
        let gather = if inst.op() == Opcode::TLD4 {
            let toks = inst.tokens();
            Some([Mod::R, Mod::G, Mod::B, Mod::A].iter().position(|m| toks.contains(m)).ok_or(Bad)? as u8)
        } else {
            None
        };
        // The components written (red, green, blue, alpha in bits 0–3),
        // packed into the result pairs in that order.
        let mask = match (form.slots.last(), ops.last()) {
            (Some(Slot::Mask(_)), Some(Operand::Hex(m))) => u8::try_from(*m).map_err(|_| Bad)?,
            _ => 0xf,
        };
        Ok(Op::Tex { rg, ba, a, na, b, nb, handle, dim, int_coords, gather, mask, textures: self.textures.into() })
    }

    fn dst(&self, op: &Operand) -> R<u16> {
        match *op {
            Operand::Reg { reg, .. } => write_row(reg).ok_or(Bad),
            _ => Err(Bad),
        }
    }

    fn pdst(&self, op: &Operand) -> R<u8> {
        match *op {
            Operand::Reg { reg, .. } => pred_row(reg, true).ok_or(Bad),
            _ => Err(Bad),
        }
    }

    fn psrc(&self, op: &Operand) -> R<P> {
        match *op {
            Operand::Reg { reg, mods, .. } => Ok(P { r: pred_row(reg, false).ok_or(Bad)?, not: mods.not }),
            _ => Err(Bad),
        }
    }

    fn addr(&self, op: &Operand) -> R<Addr> {
        match *op {
            Operand::Mem(m) => Ok(Addr {
                base: read_row(m.base()).ok_or(Bad)?,
                wide: false,
                base32: false,
                offset: m.offset(),
                ur: match m.uniform() {
                    Some(u) => read_row(u).ok_or(Bad)?,
                    None => URZ,
                },
                shift: if m.scale() == 0 { 0 } else { m.scale() + 1 },
            }),
            _ => Err(Bad),
        }
    }

    /// Translates one instruction at byte `offset`.
    pub fn translate(&mut self, inst: &Inst, offset: u32) -> Op {
        match self.translate_inner(inst, offset) {
            Ok(op) => op,
            Err(Bad) => unsupported(inst, self.sm),
        }
    }

    fn translate_inner(&mut self, inst: &Inst, offset: u32) -> R<Op> {
        let form = inst.form;
        let opcode = inst.op();
        let toks = inst.tokens();
        let toks: &[Mod] = &toks;
        let has = |m: Mod| inst.has(m);
        let ops: &[Operand] = &inst.operands;
        let slots = form.slots;
        let n = ops.len();
        let sl = |k: usize| -> &Slot { slots.get(k).unwrap_or(&Slot::Imm32 { signed: false }) };
        let o = |k: usize| -> R<&Operand> { ops.get(k).ok_or(Bad) };
        let next = offset.wrapping_add(16);
        let target = |k: usize| -> R<u32> {
            match o(k)? {
                Operand::Target(t) => {
                    let abs = match sl(k) {
                        Slot::AbsTarget(_) => *t,
                        _ => i64::from(next) + t,
                    };
                    u32::try_from(abs).map_err(|_| Bad)
                }
                _ => Err(Bad),
            }
        };
        let rnd = || {
            if has(Mod::RZ) {
                Round::Zero
            } else if has(Mod::RM) {
                Round::Down
            } else if has(Mod::RP) {
                Round::Up
            } else {
                Round::Nearest
            }
        };
        let int_rnd = || {
            if has(Mod::FLOOR) {
                Round::Down
            } else if has(Mod::CEIL) {
                Round::Up
            } else if has(Mod::TRUNC) {
                Round::Zero
            } else {
                Round::Nearest
            }
        };
        let mod_value = |k: usize| -> u8 { inst.mods.get(k).copied().unwrap_or(0) };
        // sm_100's VIMNMX: its two predicate results (operands 1, 2) are
        // PT, as in ptxas's words (their meaning is not measured).
        let vimnmx_pt_results = opcode == Opcode::VIMNMX && n == 6 && [1, 2].iter().all(|&k| matches!(o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true) == Some(P_SINK)));
        // A packed-half source with the swizzle printed after operand `k`.
        let half_src = |s: S, k: usize| -> R<S> {
            let swizzle = match inst.operand_tokens(k) {
                [] => 0,
                [Mod::H0_H0] => H0H0,
                [Mod::H1_H1] => H1H1,
                [Mod::F32] => F32H,
                _ => return Err(Bad),
            };
            Ok(S { m: s.m | swizzle, ..s })
        };
        // How a comparison combines with the predicate source: `.AND` unless
        // `.OR` or `.XOR`.
        let bop = || -> u8 {
            if has(Mod::OR) {
                1
            } else if has(Mod::XOR) {
                2
            } else {
                0
            }
        };
        Ok(match opcode {
            Opcode::NOP | Opcode::MEMBAR | Opcode::ERRBAR | Opcode::CCTL | Opcode::YIELD | Opcode::NANOSLEEP | Opcode::CGAERRBAR | Opcode::ENDCOLLECTIVE | Opcode::DEPBAR | Opcode::LDGDEPBAR => Op::Nop,
            // One grid at a time: nothing to wait for, nothing to let launch.
            Opcode::ACQBULK | Opcode::PREEXIT => Op::Nop,
            // The interpreter's memory accesses happen in program order, in
            // one proxy: nothing to order.
            Opcode::FENCE => Op::Nop,
            Opcode::SYNCS if toks == [Mod::EXCH, Mod::_64] => Op::MbarExch { d: self.dst(o(0)?)?, addr: self.addr(o(1)?)?, data: self.src(o(2)?, sl(2), 2)? },
            Opcode::SYNCS if toks == [Mod::ARRIVE, Mod::TRANS64] || toks == [Mod::ARRIVE, Mod::TRANS64, Mod::A1T0] => {
                Op::MbarArrive { d: self.dst(o(0)?)?, addr: self.addr(o(1)?)?, tx: self.src(o(2)?, sl(2), 1)? }
            }
            Opcode::SYNCS if toks == [Mod::PHASECHK, Mod::TRANS64, Mod::TRYWAIT] || toks == [Mod::PHASECHK, Mod::TRANS64] => {
                Op::MbarPhase { pd: self.pdst(o(0)?)?, addr: self.addr(o(1)?)?, parity: self.src(o(2)?, sl(2), 1)? }
            }
            Opcode::UBLKCP if toks == [Mod::S, Mod::G] => {
                let mut src = self.addr(o(1)?)?;
                src.wide = true;
                Op::BulkToShared { dst: self.addr(o(0)?)?, src, units: self.src(o(2)?, sl(2), 1)? }
            }
            Opcode::UBLKCP if toks == [Mod::G, Mod::S] || toks == [Mod::G, Mod::S, Mod::DST_G_BYTE_MASK] => {
                let mut dst = self.addr(o(0)?)?;
                dst.wide = true;
                Op::BulkToGlobal { dst, src: self.addr(o(1)?)?, count: self.src(o(2)?, sl(2), 1)?, masked: has(Mod::DST_G_BYTE_MASK) }
            }
            Opcode::UGETNEXTWORKID if toks == [Mod::SELFCAST] => Op::NextWorkId { resp: self.addr(o(0)?)? },
            // Bulk groups complete at once here: nothing to close or wait
            // for; the mbarrier state is never cached.
            Opcode::UTMACMDFLUSH => Op::Nop,
            Opcode::SYNCS if toks == [Mod::CCTL, Mod::IVALL] => Op::Nop,
            Opcode::EXIT => Op::Exit,
            Opcode::BPT => Op::Trap,
            Opcode::MOV | Opcode::UMOV => {
                let w = if has(Mod::_64) { 2 } else { 1 };
                Op::Mov { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), w)?, n: w as u8 }
            }
            // UIADD3.64 without a third source or carry outs (what ptxas emits).
            Opcode::UIADD3 if has(Mod::_64) => {
                let zero = |k: usize| matches!(o(k), Ok(Operand::Reg { reg, mods, .. }) if reg.num == RegNum::Zero && !mods.neg);
                let sink = |k: usize| matches!(o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true) == Some(UP_SINK));
                if !(sink(1) && sink(2)) {
                    return Err(Bad);
                }
                if !zero(5) {
                    return Ok(Op::Uiadd3x64 { d: self.dst(o(0)?)?, a: self.src(o(3)?, sl(3), 2)?, b: self.src(o(4)?, sl(4), 2)?, c: self.src(o(5)?, sl(5), 2)? });
                }
                Op::Iadd64 { d: self.dst(o(0)?)?, co: UP_SINK, a: self.src(o(3)?, sl(3), 2)?, b: self.src(o(4)?, sl(4), 2)?, ci: None, wide: true }
            }
            Opcode::IADD3 | Opcode::UIADD3 => {
                let (d, p0, p1, a, b, c) = (self.dst(o(0)?)?, self.pdst(o(1)?)?, self.pdst(o(2)?)?, self.src(o(3)?, sl(3), 1)?, self.src(o(4)?, sl(4), 1)?, self.src(o(5)?, sl(5), 1)?);
                let ci = if has(Mod::X) { Some([self.psrc(o(6)?)?, self.psrc(o(7)?)?]) } else { None };
                Op::Iadd3 { d, co: [p0, p1], a, b, c, ci }
            }
            Opcode::IADD => {
                let wide = has(Mod::_64);
                let w = if wide { 2 } else { 1 };
                let ci = if has(Mod::X) { Some(self.psrc(o(4)?)?) } else { None };
                Op::Iadd64 { d: self.dst(o(0)?)?, co: self.pdst(o(1)?)?, a: self.src(o(2)?, sl(2), w)?, b: self.src(o(3)?, sl(3), w)?, ci, wide }
            }
            // `.S32.ISAT`: a saturating signed add; other lane types are not modelled.
            Opcode::VIADD if has(Mod::ISAT) => match toks {
                [Mod::S32, Mod::ISAT] => Op::IaddSat { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)? },
                _ => return Err(Bad),
            },
            Opcode::VIADD if toks.iter().all(|t| *t == Mod::_32) => {
                let z = S { r: RZ, m: 0 };
                Op::Iadd3 { d: self.dst(o(0)?)?, co: [P_SINK, P_SINK], a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: z, ci: None }
            }
            Opcode::IMAD | Opcode::UIMAD => {
                let signed = !has(Mod::U32);
                let x = has(Mod::X);
                if has(Mod::WIDE) || has(Mod::HI) {
                    let kind = if has(Mod::WIDE) { 1 } else { 2 };
                    // Both read c as a 64-bit pair (IMAD.HI adds it before taking the high word).
                    let cw = 2;
                    let ci = if x { Some(self.psrc(o(5)?)?) } else { None };
                    Op::Imad { d: self.dst(o(0)?)?, co: self.pdst(o(1)?)?, a: self.src(o(2)?, sl(2), 1)?, b: self.src(o(3)?, sl(3), 1)?, c: self.src(o(4)?, sl(4), cw)?, signed, kind, ci }
                } else {
                    let ci = if x { Some(self.psrc(o(4)?)?) } else { None };
                    Op::Imad { d: self.dst(o(0)?)?, co: P_SINK, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, signed, kind: 0, ci }
                }
            }
            Opcode::LEA | Opcode::ULEA => {
                let hi = has(Mod::HI);
                let sx = has(Mod::SX32);
                let x = has(Mod::X);
                let (d, co, a, b) = (self.dst(o(0)?)?, self.pdst(o(1)?)?, self.src(o(2)?, sl(2), 1)?, self.src(o(3)?, sl(3), 1)?);
                let mut k = 4;
                let c = if hi && !sx {
                    k += 1;
                    self.src(o(4)?, sl(4), 1)?
                } else {
                    S { r: RZ, m: 0 }
                };
                let s = match o(k)? {
                    Operand::Hex(v) => (*v & 63) as u8,
                    _ => return Err(Bad),
                };
                let ci = if x { Some(self.psrc(o(k + 1)?)?) } else { None };
                Op::Lea { d, co, a, b, c, s, hi, sx, ci }
            }
            Opcode::LOP3 | Opcode::ULOP3 => {
                let lut = match o(5)? {
                    Operand::Hex(v) => *v as u8,
                    _ => return Err(Bad),
                };
                Op::Lop3 { pd: self.pdst(o(0)?)?, d: self.dst(o(1)?)?, a: self.src(o(2)?, sl(2), 1)?, b: self.src(o(3)?, sl(3), 1)?, c: self.src(o(4)?, sl(4), 1)?, lut, pin: self.psrc(o(6)?)? }
            }
            Opcode::PLOP3 | Opcode::UPLOP3 if matches!(sl(2), Slot::Gpr { .. } | Slot::Ur { .. }) => {
                let (l0, l1) = match (o(5)?, o(6)?) {
                    (Operand::Hex(a), Operand::Hex(b)) => (*a as u8, *b as u8),
                    _ => return Err(Bad),
                };
                Op::Plop3Sign { d: [self.pdst(o(0)?)?, self.pdst(o(1)?)?], a: self.src(o(2)?, sl(2), 1)?, b: self.src(o(3)?, sl(3), 1)?, c: self.src(o(4)?, sl(4), 1)?, lut: [l0, l1] }
            }
            Opcode::PLOP3 | Opcode::UPLOP3 => {
                let (l0, l1) = match (o(5)?, o(6)?) {
                    (Operand::Hex(a), Operand::Hex(b)) => (*a as u8, *b as u8),
                    _ => return Err(Bad),
                };
                Op::Plop3 { d: [self.pdst(o(0)?)?, self.pdst(o(1)?)?], a: self.psrc(o(2)?)?, b: self.psrc(o(3)?)?, c: self.psrc(o(4)?)?, lut: [l0, l1] }
            }
            Opcode::SEL | Opcode::USEL => {
                let w = if has(Mod::_64) { 2 } else { 1 };
                Op::Sel { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), w)?, b: self.src(o(2)?, sl(2), w)?, p: self.psrc(o(3)?)?, n: w as u8 }
            }
            // FSEL's `-QNAN ` operand (a text slot) is the immediate its form fixes.
            Opcode::FSEL if matches!(sl(2), Slot::Text(_)) => {
                let imm = form.fixed.iter().find(|(f, _)| *f == crate::isa::form::IMM32).map(|(_, v)| *v as u32).ok_or(Bad)?;
                Op::Fsel { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: S { r: self.rows.constant(imm), m: 0 }, p: self.psrc(o(3)?)? }
            }
            Opcode::FSEL => Op::Fsel { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, p: self.psrc(o(3)?)? },
            Opcode::SHF | Opcode::USHF => {
                let bits64 = has(Mod::S64) || has(Mod::U64);
                let signed = has(Mod::S64) || has(Mod::S32);
                Op::Shf { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, left: has(Mod::L), hi: has(Mod::HI), wrap: has(Mod::W), bits64, signed }
            }
            Opcode::PRMT | Opcode::UPRMT => {
                let mode = match toks[..] {
                    [] => 0,
                    [m] => match PRMT_MODES.iter().position(|x| *x == m) {
                        Some(k) => k as u8 + 1,
                        None => return Err(Bad),
                    },
                    _ => return Err(Bad),
                };
                Op::Prmt { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, mode }
            }
            Opcode::IABS => Op::Iabs { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)? },
            Opcode::POPC | Opcode::UPOPC => Op::Popc { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)? },
            Opcode::BREV | Opcode::UBREV => Op::Brev { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)? },
            Opcode::FLO | Opcode::UFLO => Op::Flo { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, signed: !has(Mod::U32), sh: has(Mod::SH) },
            Opcode::SGXT => Op::Sgxt { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, wrap: has(Mod::W), signed: !has(Mod::U32) },
            Opcode::VIMNMX | Opcode::VIMNMX3 | Opcode::VIADDMNMX if has(Mod::U16x2) || has(Mod::S16x2) || has(Mod::RELU) || opcode == Opcode::VIMNMX3 || opcode == Opcode::VIADDMNMX && matches!(sl(2), Slot::Gpr { field, .. } if field.start == 32) => {
                // sm_100's VIMNMX has two predicate results (PT in ptxas's
                // words) before its sources.
                let sinks = vimnmx_pt_results;
                let first = if sinks { 3 } else { 1 };
                let (count, add) = match opcode {
                    Opcode::VIMNMX if n == 4 || sinks => (2, false),
                    Opcode::VIMNMX3 if n == 5 => (3, false),
                    Opcode::VIADDMNMX if n == 5 => (3, true),
                    _ => return Err(Bad),
                };
                let (a, b) = (self.src(o(first)?, sl(first), 1)?, self.src(o(first + 1)?, sl(first + 1), 1)?);
                let c = if count == 3 { self.src(o(3)?, sl(3), 1)? } else { b };
                Op::MinMax {
                    d: self.dst(o(0)?)?,
                    srcs: [a, b, c],
                    count,
                    add,
                    p: self.psrc(o(n - 1)?)?,
                    half: has(Mod::U16x2) || has(Mod::S16x2),
                    signed: !has(Mod::U32) && !has(Mod::U16x2),
                    relu: has(Mod::RELU),
                }
            }
            // UVIMNMX.{U32,S32} (sm_120): the 32-bit lanes only.
            Opcode::UVIMNMX if n == 4 && !has(Mod::RELU) && (has(Mod::U32) || has(Mod::S32)) => {
                Op::Imnmx { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, p: self.psrc(o(3)?)?, signed: has(Mod::S32) }
            }
            Opcode::IMNMX | Opcode::VIMNMX if n == 4 => Op::Imnmx { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, p: self.psrc(o(3)?)?, signed: !has(Mod::U32) },
            // sm_100: the predicate results PT, as ptxas emits it.
            Opcode::VIMNMX if vimnmx_pt_results => {
                Op::Imnmx { d: self.dst(o(0)?)?, a: self.src(o(3)?, sl(3), 1)?, b: self.src(o(4)?, sl(4), 1)?, p: self.psrc(o(5)?)?, signed: !has(Mod::U32) }
            }
            Opcode::VIADDMNMX if toks.iter().all(|t| *t == Mod::U32) => Op::Viaddmnmx {
                d: self.dst(o(0)?)?,
                a: self.src(o(1)?, sl(1), 1)?,
                b: self.src(o(2)?, sl(2), 1)?,
                c: self.src(o(3)?, sl(3), 1)?,
                p: self.psrc(o(4)?)?,
                signed: !has(Mod::U32),
            },
            // Only without the predicate result (PT), whose meaning is not measured.
            Opcode::VABSDIFF if matches!(o(1)?, Operand::Reg { reg, .. } if pred_row(*reg, true) == Some(P_SINK)) => Op::Vabsdiff {
                d: self.dst(o(0)?)?,
                a: self.src(o(2)?, sl(2), 1)?,
                b: self.src(o(3)?, sl(3), 1)?,
                c: self.src(o(4)?, sl(4), 1)?,
                signed: !has(Mod::U32),
            },
            Opcode::R2P => match o(2)? {
                Operand::Imm(mask) => Op::R2p { a: self.src(o(1)?, sl(1), 1)?, mask: *mask, byte: mod_value(0) },
                _ => return Err(Bad),
            },
            // sm_120's form with two predicate results and a second predicate
            // source, executed where ptxas's words have them: results PT and
            // the second source !PT (their meaning is not measured).
            Opcode::IMNMX | Opcode::UIMNMX if n == 7 && {
                let sink = |k: usize| matches!(o(k), Ok(Operand::Reg { reg, .. }) if pred_row(*reg, true).is_some_and(|r| r == P_SINK || r == UP_SINK));
                let not_true = matches!(o(6), Ok(Operand::Reg { reg, mods, .. }) if mods.not && pred_row(*reg, false).is_some_and(|r| r == PT || r == UPT));
                sink(0) && sink(1) && not_true
            } =>
            {
                let (d, signed) = (self.dst(o(2)?)?, !has(Mod::U32) && !has(Mod::U64));
                if has(Mod::S64) || has(Mod::U64) {
                    Op::Imnmx64 { d, a: self.src(o(3)?, sl(3), 2)?, b: self.src(o(4)?, sl(4), 2)?, p: self.psrc(o(5)?)?, signed }
                } else {
                    Op::Imnmx { d, a: self.src(o(3)?, sl(3), 1)?, b: self.src(o(4)?, sl(4), 1)?, p: self.psrc(o(5)?)?, signed }
                }
            }
            Opcode::P2R | Opcode::UP2UR => Op::P2r { d: self.dst(o(0)?)?, a: self.src(o(2)?, sl(2), 1)?, mask: self.src(o(3)?, sl(3), 1)?, byte: mod_value(0), uniform: opcode == Opcode::UP2UR },
            Opcode::ISETP | Opcode::UISETP => {
                let wide = has(Mod::U64) || has(Mod::S64);
                let w = if wide { 2 } else { 1 };
                let ex = if has(Mod::EX) { Some(self.psrc(o(5)?)?) } else { None };
                Op::Isetp {
                    d: [self.pdst(o(0)?)?, self.pdst(o(1)?)?],
                    a: self.src(o(2)?, sl(2), w)?,
                    b: self.src(o(3)?, sl(3), w)?,
                    cmp: mod_value(0) & 7,
                    signed: !(has(Mod::U32) || has(Mod::U64)),
                    wide,
                    bop: bop(),
                    pin: self.psrc(o(4)?)?,
                    ex,
                }
            }
            // FSET.BF: 1.0 where the comparison combined with the predicate
            // holds, else 0.
            Opcode::FSET if toks.first() == Some(&Mod::BF) => {
                Op::Fset { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, cmp: mod_value(0) & 15, ftz: has(Mod::FTZ), bop: bop(), pin: self.psrc(o(3)?)? }
            }
            Opcode::FSETP | Opcode::DSETP | Opcode::UFSETP => {
                let f64 = opcode == Opcode::DSETP;
                let w = if f64 { 2 } else { 1 };
                Op::Fsetp { d: [self.pdst(o(0)?)?, self.pdst(o(1)?)?], a: self.src(o(2)?, sl(2), w)?, b: self.src(o(3)?, sl(3), w)?, cmp: mod_value(0) & 15, ftz: has(Mod::FTZ), bop: bop(), pin: self.psrc(o(4)?)?, f64 }
            }
            Opcode::FADD | Opcode::UFADD => Op::Fadd { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, rnd: rnd(), ftz: has(Mod::FTZ), sat: has(Mod::SAT) },
            Opcode::FMUL | Opcode::UFMUL => Op::Fmul { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, rnd: rnd(), ftz: has(Mod::FTZ) || has(Mod::FMZ), sat: has(Mod::SAT) },
            Opcode::FFMA | Opcode::UFFMA => Op::Ffma { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, rnd: rnd(), ftz: has(Mod::FTZ) || has(Mod::FMZ), sat: has(Mod::SAT) },
            Opcode::FADD2 | Opcode::FMUL2 | Opcode::FFMA2 => {
                let (op, n) = match opcode {
                    Opcode::FADD2 => (PackedOp::Add, 2),
                    Opcode::FMUL2 => (PackedOp::Mul, 2),
                    _ => (PackedOp::Fma, 3),
                };
                let mut srcs = [S { r: RZ, m: 0 }; 3];
                let mut lanes = [Lanes::Single; 3];
                for k in 0..n {
                    let slot = k + 1;
                    lanes[k] = match inst.operand_tokens(slot) {
                        [Mod::F32x2, Mod::HI_LO] => Lanes::Pair,
                        [Mod::F32x2, Mod::LO_HI] => Lanes::Swapped,
                        // `.F32`, or an immediate (no selection printed).
                        [Mod::F32] | [] => Lanes::Single,
                        _ => return Err(Bad),
                    };
                    let width = if lanes[k] == Lanes::Single { 1 } else { 2 };
                    srcs[k] = self.src(o(slot)?, sl(slot), width)?;
                }
                Op::PackedF32 { d: self.dst(o(0)?)?, srcs, lanes, op, rnd: rnd(), ftz: has(Mod::FTZ) || has(Mod::FMZ) }
            }
            Opcode::FMNMX3 => Op::Fmnmx3 {
                d: self.dst(o(0)?)?,
                a: self.src(o(1)?, sl(1), 1)?,
                b: self.src(o(2)?, sl(2), 1)?,
                c: self.src(o(3)?, sl(3), 1)?,
                p: self.psrc(o(4)?)?,
                ftz: has(Mod::FTZ),
                nan: has(Mod::NAN),
            },
            Opcode::FMNMX => Op::Fmnmx { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, p: self.psrc(o(3)?)?, ftz: has(Mod::FTZ), nan: has(Mod::NAN), xorsign: has(Mod::XORSIGN) },
            Opcode::DADD => Op::Dadd { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 2)?, b: self.src(o(2)?, sl(2), 2)?, rnd: rnd() },
            Opcode::DMUL => Op::Dmul { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 2)?, b: self.src(o(2)?, sl(2), 2)?, rnd: rnd() },
            Opcode::DFMA => Op::Dfma { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 2)?, b: self.src(o(2)?, sl(2), 2)?, c: self.src(o(3)?, sl(3), 2)?, rnd: rnd() },
            Opcode::MUFU => {
                let op = match toks.first().copied() {
                    Some(Mod::COS) => Mufu::Cos,
                    Some(Mod::SIN) => Mufu::Sin,
                    Some(Mod::EX2) => Mufu::Ex2,
                    Some(Mod::LG2) => Mufu::Lg2,
                    Some(Mod::RCP) => Mufu::Rcp,
                    Some(Mod::RSQ) => Mufu::Rsq,
                    Some(Mod::RCP64H) => Mufu::Rcp64h,
                    Some(Mod::RSQ64H) => Mufu::Rsq64h,
                    Some(Mod::SQRT) => Mufu::Sqrt,
                    Some(Mod::TANH) => Mufu::Tanh,
                    _ => return Err(Bad),
                };
                Op::Mufu { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, op }
            }
            Opcode::FCHK => Op::Fchk { p: self.pdst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)? },
            // `.MMA` only names the pipe; `.BF16_V2` makes both halves bf16
            // (`.FMZ` and `.F32` are not modelled).
            Opcode::HFMA2 if toks.iter().all(|t| matches!(t, Mod::MMA | Mod::BF16_V2 | Mod::FTZ | Mod::SAT)) => Op::Hfma2 {
                d: self.dst(o(0)?)?,
                a: half_src(self.src(o(1)?, sl(1), 1)?, 1)?,
                b: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                c: half_src(self.src(o(3)?, sl(3), 1)?, 3)?,
                bf16: has(Mod::BF16_V2),
                ftz: has(Mod::FTZ),
                sat: has(Mod::SAT),
            },
            Opcode::HMNMX2 => Op::Hmnmx2 {
                d: self.dst(o(0)?)?,
                a: half_src(self.src(o(1)?, sl(1), 1)?, 1)?,
                b: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                p: self.psrc(o(3)?)?,
                bf16: has(Mod::BF16_V2),
                ftz: has(Mod::FTZ),
                nan: has(Mod::NAN),
                xorsign: has(Mod::XORSIGN),
            },
            // `.XORSIGN` of three sources: how the signs combine is not
            // measured (PTX's xorsign min/max take two).
            Opcode::VHMNMX if has(Mod::XORSIGN) => return Err(Bad),
            Opcode::VHMNMX => Op::Vhmnmx {
                d: self.dst(o(0)?)?,
                a: half_src(self.src(o(1)?, sl(1), 1)?, 1)?,
                b: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                c: half_src(self.src(o(3)?, sl(3), 1)?, 3)?,
                p: self.psrc(o(4)?)?,
                bf16: has(Mod::BF16_V2),
                ftz: has(Mod::FTZ),
                nan: has(Mod::NAN),
            },
            Opcode::HSET2 => Op::Hset2 {
                d: self.dst(o(0)?)?,
                a: half_src(self.src(o(1)?, sl(1), 1)?, 1)?,
                b: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                cmp: mod_value(1) & 15,
                p: self.psrc(o(3)?)?,
                bop: bop(),
                bf: has(Mod::BF),
                ftz: has(Mod::FTZ),
                bf16: has(Mod::BF16_V2),
            },
            // HADD2 / HMUL2 (HMUL2's `.FMZ` not modelled); `.F32` (HADD2)
            // writes the low lanes' sum as one f32.
            Opcode::HADD2 | Opcode::HMUL2 if toks.iter().all(|t| matches!(t, Mod::BF16_V2 | Mod::F32 | Mod::FTZ | Mod::SAT)) => Op::Half2 {
                d: self.dst(o(0)?)?,
                a: half_src(self.src(o(1)?, sl(1), 1)?, 1)?,
                b: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                mul: opcode == Opcode::HMUL2,
                bf16: has(Mod::BF16_V2),
                f32: has(Mod::F32),
                ftz: has(Mod::FTZ),
                sat: has(Mod::SAT),
            },
            Opcode::HSETP2 if !has(Mod::H_AND) => Op::Hsetp2 {
                d: [self.pdst(o(0)?)?, self.pdst(o(1)?)?],
                a: half_src(self.src(o(2)?, sl(2), 1)?, 2)?,
                b: half_src(self.src(o(3)?, sl(3), 1)?, 3)?,
                cmp: mod_value(0) & 15,
                pin: self.psrc(o(4)?)?,
                bop: bop(),
                ftz: has(Mod::FTZ),
                bf16: has(Mod::BF16_V2),
            },
            Opcode::F2F => {
                let fmts: Vec<Fmt> = toks.iter().copied().filter_map(fmt).collect();
                let (to, from) = match fmts.as_slice() {
                    [to, from] => (*to, *from),
                    _ => return Err(Bad),
                };
                let w = if from == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, o(1)?, sl(1), w)?;
                Op::F2f { d: self.dst(o(0)?)?, a, from, to, rnd: rnd(), ftz: has(Mod::FTZ) }
            }
            Opcode::F2I => {
                let to = toks.iter().copied().find_map(int_fmt).unwrap_or(IntFmt { bits: 32, signed: true });
                let from = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let w = if from == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, o(1)?, sl(1), w)?;
                Op::F2i { d: self.dst(o(0)?)?, a, from, to, rnd: int_rnd(), ftz: has(Mod::FTZ) }
            }
            // F2IP.U8.F32.NTZ d, RZ, b, RZ: b converted to u8 (saturating,
            // NaN to 0) in the low byte, the rest 0: the only form ptxas
            // 13.5 emits (`cvt.rni.u8.f32` from sm_86 on). Where a and c go
            // otherwise is not measured: refused.
            Opcode::F2IP => {
                let rz = |k: usize| matches!(o(k), Ok(Operand::Reg { reg, mods, .. }) if reg.num == RegNum::Zero && !mods.neg && !mods.abs);
                if !(rz(1) && rz(3) && has(Mod::U8) && has(Mod::NTZ) && !has(Mod::RELU) && inst.operand_tokens(3).is_empty()) {
                    return Err(Bad);
                }
                Op::F2i { d: self.dst(o(0)?)?, a: self.src(o(2)?, sl(2), 1)?, from: Fmt::F32, to: IntFmt { bits: 8, signed: false }, rnd: int_rnd(), ftz: false }
            }
            Opcode::I2F | Opcode::I2FP | Opcode::UI2F => {
                let to = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let from = toks.iter().copied().find_map(int_fmt).unwrap_or(IntFmt { bits: 32, signed: true });
                let w = if from.bits == 64 { 2 } else { 1 };
                // A byte or half of the register (`R2.B1`, `R2.H1`: the
                // operand's suffix).
                let shift = match inst.operand_tokens(1) {
                    [] => 0,
                    [Mod::B1] => 8,
                    [Mod::B2] | [Mod::H1] => 16,
                    [Mod::B3] => 24,
                    _ => return Err(Bad),
                };
                Op::I2f { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), w)?, from, to, rnd: rnd(), shift }
            }
            Opcode::F2FP if has(Mod::E4M3) || has(Mod::E5M2) => {
                let fmt = if has(Mod::E4M3) { Fp8::E4M3 } else { Fp8::E5M2 };
                if has(Mod::UNPACK_B) {
                    Op::F2fpUnpack { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, fmt }
                } else if has(Mod::PACK_AB_MERGE_C) && has(Mod::SATFINITE) {
                    Op::F2fp8 { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, fmt }
                } else {
                    return Err(Bad);
                }
            }
            Opcode::F2FP => {
                let bf16 = has(Mod::BF16);
                Op::F2fp { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, bf16, relu: has(Mod::RELU), satfinite: has(Mod::SATFINITE), rnd: rnd() }
            }
            Opcode::FRND => {
                let fmt = toks.iter().copied().find_map(fmt).unwrap_or(Fmt::F32);
                let w = if fmt == Fmt::F64 { 2 } else { 1 };
                let a = self.half_aware_src(inst, o(1)?, sl(1), w)?;
                Op::Frnd { d: self.dst(o(0)?)?, a, fmt, rnd: int_rnd(), ftz: has(Mod::FTZ) }
            }
            Opcode::S2R | Opcode::S2UR => match o(1)? {
                Operand::SpecialReg(sr) => Op::S2r { d: self.dst(o(0)?)?, sr: *sr },
                _ => return Err(Bad),
            },
            Opcode::CS2R => match o(1)? {
                Operand::SpecialReg(sr) => Op::Cs2r { d: self.dst(o(0)?)?, sr: *sr, n: if has(Mod::_32) { 1 } else { 2 } },
                _ => return Err(Bad),
            },
            Opcode::R2UR if n == 2 => Op::R2ur { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)? },
            // The predicate result: whether every active lane holds the same
            // value (what ptxas tests before a `BRA.DIV`); `.OR` unmeasured.
            Opcode::R2UR if n == 3 && !has(Mod::OR) => Op::R2urUniform { p: self.pdst(o(0)?)?, d: self.dst(o(1)?)?, a: self.src(o(2)?, sl(2), 1)? },
            Opcode::ULDC => {
                let w = width(toks);
                match o(1)? {
                    Operand::CBank { bank, offset, .. } => Op::Ldc { d: self.dst(o(0)?)?, bank: *bank, index: URZ, offset: i32::from(*offset), w },
                    _ => return Err(Bad),
                }
            }
            Opcode::LDC | Opcode::LDCU => {
                let w = width(toks);
                match o(1)? {
                    Operand::ConstAddr { bank, index, offset } => Op::Ldc { d: self.dst(o(0)?)?, bank: *bank, index: read_row(*index).ok_or(Bad)?, offset: *offset, w },
                    _ => return Err(Bad),
                }
            }
            Opcode::LDG | Opcode::LD | Opcode::LDS | Opcode::LDL => {
                let space = space(opcode);
                let mut addr = self.addr(o(1)?)?;
                addr.wide = matches!(sl(1), Slot::Addr { wide: true, .. }) || self.e_is_wide(space, has(Mod::E));
                addr.base32 = matches!(sl(1), Slot::Addr { u32_base: true, .. });
                Op::Ld { d: self.dst(o(0)?)?, addr, w: width(toks), space }
            }
            Opcode::STG | Opcode::ST | Opcode::STS | Opcode::STL => {
                let space = space(opcode);
                let mut addr = self.addr(o(0)?)?;
                addr.wide = matches!(sl(0), Slot::Addr { wide: true, .. }) || self.e_is_wide(space, has(Mod::E));
                addr.base32 = matches!(sl(0), Slot::Addr { u32_base: true, .. });
                let s = match o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::St { s, addr, w: width(toks), space }
            }
            Opcode::ATOMG | Opcode::ATOMS | Opcode::RED | Opcode::REDG | Opcode::ATOM => {
                if opcode == Opcode::ATOMS && has(Mod::POPC) {
                    let mut addr = self.addr(o(1)?)?;
                    addr.wide = false;
                    return Ok(Op::AtomsPopcInc { d: self.dst(o(0)?)?, addr });
                }
                let space = match opcode {
                    Opcode::ATOMS => Space::Shared,
                    Opcode::ATOM => Space::Generic,
                    _ => Space::Global,
                };
                if opcode == Opcode::ATOMS && has(Mod::CAST) {
                    let (d, pd) = match sl(0) {
                        Slot::Pred { .. } => (R_SINK, self.pdst(o(0)?)?),
                        _ => (self.dst(o(0)?)?, P_SINK),
                    };
                    let mut addr = self.addr(o(1)?)?;
                    addr.wide = false;
                    let reg = |k: usize| -> R<u16> {
                        match o(k)? {
                            Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                            _ => Err(Bad),
                        }
                    };
                    return Ok(Op::AtomsCast { d, pd, addr, b: reg(2)?, c: reg(3)?, wide: has(Mod::_64) });
                }
                let op = atom_op(toks).ok_or(Bad)?;
                let ty = atom_type(toks).ok_or(Bad)?;
                // Packed halves only add; f64 only adds, exchanges and compares
                // (other operations on them are not modelled).
                if ty == AtomType::F16x2 && op != AtomOp::Add || ty == AtomType::F64 && matches!(op, AtomOp::Min | AtomOp::Max) {
                    return Err(Bad);
                }
                // Operand lists: ATOMG (Pred, Rd, [a], Rb[, Rc]); ATOMS (Rd, [a], Rb); RED (addr, Rb).
                let (d, pd, ai) = match (opcode, sl(0)) {
                    (Opcode::RED | Opcode::REDG, _) => (R_SINK, P_SINK, 0),
                    (_, Slot::Pred { .. }) => (self.dst(o(1)?)?, self.pdst(o(0)?)?, 2),
                    _ => (self.dst(o(0)?)?, P_SINK, 1),
                };
                let mut addr = self.addr(o(ai)?)?;
                // `.E` is a 64-bit address even where the text prints `[R2]`
                // (ATOMG.E.CAS has no `.64` on its address operand).
                addr.wide = matches!(sl(ai), Slot::Addr { wide: true, .. }) || (space != Space::Shared && has(Mod::E));
                let reg = |k: usize| -> R<u16> {
                    match o(k)? {
                        Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                        _ => Err(Bad),
                    }
                };
                let b = reg(ai + 1)?;
                let c = if op == AtomOp::Cas { reg(ai + 2)? } else { RZ };
                Op::Atom { d, pd, addr, b, c, op, ty, space }
            }
            Opcode::LDGSTS => {
                let dst = match sl(0) {
                    // The zero-base form (`[RZ]`, a fixed text).
                    Slot::Text(_) => Addr { base: RZ, wide: false, base32: false, offset: 0, ur: URZ, shift: 0 },
                    _ => self.addr(o(0)?)?,
                };
                let mut src = self.addr(o(1)?)?;
                src.wide = true;
                let bytes = if has(Mod::_128) { 16 } else if has(Mod::_64) { 8 } else { 4 };
                Op::Ldgsts { dst, src, bytes, zfill: has(Mod::ZFILL), valid: self.psrc(o(2)?)? }
            }
            Opcode::QSPC => {
                let space = if has(Mod::G) {
                    Space::Global
                } else if has(Mod::L) {
                    Space::Local
                } else if has(Mod::S) {
                    Space::Shared
                } else {
                    // `.D` (distributed shared memory of a cluster): no clusters here.
                    return Err(Bad);
                };
                // The register result is RZ in all ptxas emits; what it would
                // hold is not measured.
                if self.dst(o(1)?)? != R_SINK {
                    return Err(Bad);
                }
                let mut addr = self.addr(o(2)?)?;
                // `.E`: a 64-bit pair, printed as one register (`[R2]`).
                addr.wide = matches!(sl(2), Slot::Addr { wide: true, .. }) || has(Mod::E);
                Op::Qspc { pd: self.pdst(o(0)?)?, addr, space }
            }
            Opcode::BRA => {
                let uniform = has(Mod::U) || has(Mod::DIV);
                let t = target(n - 1)?;
                // Forms: (cond pred, target), (uniform pred, cond pred, target), (pred, UR, target).
                if let (3, Some(Operand::Reg { reg: Reg { file: RegFile::Uniform, .. }, .. })) = (n, ops.get(1)) {
                    return Ok(Op::BraConv { target: t / 16, cond: self.psrc(o(0)?)?, mask: self.src(o(1)?, sl(1), 1)?, conv: has(Mod::CONV) });
                }
                let cond = match (n, ops.first()) {
                    (3, Some(Operand::Reg { reg: Reg { file: RegFile::Pred | RegFile::UniformPred, .. }, .. })) => match o(1)? {
                        Operand::Reg { reg: Reg { file: RegFile::Pred | RegFile::UniformPred, .. }, .. } => {
                            let a = self.psrc(o(0)?)?;
                            let b = self.psrc(o(1)?)?;
                            if b != P::TRUE && a != P::TRUE {
                                return Err(Bad);
                            }
                            if a == P::TRUE { b } else { a }
                        }
                        _ => return Err(Bad),
                    },
                    (2, _) => self.psrc(o(0)?)?,
                    // `.ANY`: the condition is PT.
                    (1, _) => P::TRUE,
                    _ => return Err(Bad),
                };
                Op::Bra { target: t / 16, cond, uniform, any: has(Mod::ANY) }
            }
            Opcode::BRX | Opcode::BRXU => {
                let (a, rel) = match n {
                    2 => (self.src(o(1)?, sl(1), 1)?, 0i64),
                    3 => (self.src(o(1)?, sl(1), 1)?, match o(2)? {
                        Operand::Target(t) => *t,
                        _ => return Err(Bad),
                    }),
                    _ => return Err(Bad),
                };
                if self.psrc(o(0)?)? != P::TRUE {
                    return Err(Bad);
                }
                Op::Brx { a, base: u32::try_from(i64::from(next) + rel).map_err(|_| Bad)? }
            }
            Opcode::BSSY => Op::Bssy { b: barrier(o(0)?)? },
            Opcode::BSYNC => Op::Bsync { b: barrier(o(0)?)? },
            Opcode::BREAK => Op::Break { b: barrier(o(1)?)?, cond: self.psrc(o(0)?)? },
            Opcode::BMOV => match (o(0)?, o(1)?) {
                (Operand::Reg { reg: Reg { file: RegFile::Barrier, .. }, .. }, a) => Op::BmovToB { b: barrier(o(0)?)?, a: self.src(a, sl(1), 1)? },
                (d, b) => Op::BmovToR { d: self.dst(d)?, b: barrier(b)?, clear: has(Mod::CLEAR) },
            },
            Opcode::WARPSYNC => {
                if has(Mod::ALL) {
                    Op::Warpsync { a: S { r: self.rows.constant(u32::MAX), m: 0 } }
                } else if n == 1 {
                    Op::Warpsync { a: self.src(o(0)?, sl(0), 1)? }
                } else {
                    Op::Warpsync { a: self.src(o(1)?, sl(1), 1)? }
                }
            }
            Opcode::LEPC => match n {
                1 => Op::Lepc { d: self.dst(o(0)?)?, addr: next },
                _ => Op::Lepc { d: self.dst(o(0)?)?, addr: target(1)? },
            },
            Opcode::CALL => {
                if self.psrc(o(0)?)? != P::TRUE {
                    return Err(Bad);
                }
                match o(1)? {
                    Operand::Target(_) => Op::Call { target: target(1)? / 16 },
                    // `CALL.REL.NOINC R6 0x0`: an offset in the section
                    // (the base, as RET.REL's); `CALL.ABS.NOINC R12`: an
                    // absolute address.
                    Operand::Reg { .. } => Op::CallReg { a: self.src(o(1)?, sl(1), 1)?, base: if has(Mod::REL) { Some(target(2)?) } else { None } },
                    _ => return Err(Bad),
                }
            }
            Opcode::RET => {
                if self.psrc(o(0)?)? != P::TRUE {
                    return Err(Bad);
                }
                let base = if has(Mod::ABS) { 0 } else { target(2)? };
                Op::Ret { a: self.src(o(1)?, sl(1), 1)?, base }
            }
            Opcode::BAR => {
                let id = self.src(o(0)?, sl(0), 1)?;
                if has(Mod::RED) {
                    let kind = if has(Mod::POPC) { 0 } else if has(Mod::AND) { 1 } else { 2 };
                    Op::Bar { id, red: Some((kind, self.psrc(o(1)?)?)) }
                } else if has(Mod::SYNC) && o(1).is_ok() {
                    // A named barrier for part of the CTA: every barrier
                    // here waits for the whole CTA.
                    Op::Unsupported("BAR.SYNC with a thread count (a barrier of part of the CTA) is not modelled".into())
                } else if has(Mod::SYNC) {
                    Op::Bar { id, red: None }
                } else {
                    return Err(Bad);
                }
            }
            Opcode::B2R => Op::B2r { d: self.dst(o(0)?)?, p: self.pdst(o(1)?)? },
            Opcode::SHFL => {
                let mode = match toks.first().copied() {
                    Some(Mod::IDX) => ShflMode::Idx,
                    Some(Mod::UP) => ShflMode::Up,
                    Some(Mod::DOWN) => ShflMode::Down,
                    _ => ShflMode::Bfly,
                };
                Op::Shfl { pd: self.pdst(o(0)?)?, d: self.dst(o(1)?)?, a: self.src(o(2)?, sl(2), 1)?, b: self.src(o(3)?, sl(3), 1)?, c: self.src(o(4)?, sl(4), 1)?, mode }
            }
            Opcode::VOTE | Opcode::VOTEU => {
                let mode = match toks.first().copied() {
                    Some(Mod::ALL) => VoteMode::All,
                    Some(Mod::ANY) => VoteMode::Any,
                    Some(Mod::EQ) => VoteMode::Eq,
                    _ => return Err(Bad),
                };
                let uniform = opcode == Opcode::VOTEU;
                let (d, pd, p) = if n == 3 { (self.dst(o(0)?)?, self.pdst(o(1)?)?, self.psrc(o(2)?)?) } else { (if uniform { UR_SINK } else { R_SINK }, self.pdst(o(0)?)?, self.psrc(o(1)?)?) };
                Op::Vote { d, pd, p, mode, uniform }
            }
            Opcode::ELECT => Op::Elect { pd: self.pdst(o(0)?)?, d: self.dst(o(1)?)?, p: self.psrc(o(2)?)? },
            // A launch without clusters is a cluster of one CTA: arriving
            // at the cluster's barrier is nothing and waiting on it waits
            // for the CTA's threads (a CTA barrier).
            Opcode::UCGABAR_ARV => Op::Nop,
            Opcode::UCGABAR_WAIT => Op::Bar { id: S { r: RZ, m: 0 }, red: None },
            Opcode::BMSK | Opcode::UBMSK => Op::Bmsk { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, wrap: has(Mod::W) },
            Opcode::IDP => {
                let two = has(Mod::_2A);
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (ta, tb) = match ints.as_slice() {
                    [a, b] => (*a, *b),
                    _ => return Err(Bad),
                };
                Op::Idp { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, two, hi: has(Mod::HI), a_signed: ta.signed, b_signed: tb.signed }
            }
            Opcode::I2I => {
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (to, from) = match ints.as_slice() {
                    [to, from] if matches!(to.bits, 8 | 16) && from.bits == 32 && has(Mod::SAT) => (*to, *from),
                    _ => return Err(Bad),
                };
                Op::I2i { d: self.dst(o(0)?)?, b: self.src(o(1)?, sl(1), 1)?, dst_signed: to.signed, src_signed: from.signed, half: to.bits == 16 }
            }
            Opcode::I2IP => {
                let ints: Vec<IntFmt> = toks.iter().copied().filter_map(int_fmt).collect();
                let (to, from) = match ints.as_slice() {
                    [to, from] if matches!(to.bits, 8 | 16) && from.bits == 32 && has(Mod::SAT) => (*to, *from),
                    _ => return Err(Bad),
                };
                Op::I2ip { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, b: self.src(o(2)?, sl(2), 1)?, c: self.src(o(3)?, sl(3), 1)?, dst_signed: to.signed, src_signed: from.signed, half: to.bits == 16 }
            }
            Opcode::MATCH => {
                let all = has(Mod::ALL);
                let wide = has(Mod::U64);
                let w = if wide { 2 } else { 1 };
                if all {
                    Op::Match { pd: self.pdst(o(0)?)?, d: self.dst(o(1)?)?, a: self.src(o(2)?, sl(2), w)?, wide, all }
                } else {
                    Op::Match { pd: P_SINK, d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), w)?, wide, all }
                }
            }
            Opcode::TEX | Opcode::TLD | Opcode::TLD4 => self.texture(inst)?,
            Opcode::SULD | Opcode::SUST => self.surface(inst)?,
            Opcode::TXQ => self.header_query(inst)?,
            Opcode::LDSM => {
                let n = if has(Mod::_4) { 4 } else if has(Mod::_2) { 2 } else { 1 };
                if !has(Mod::_16) {
                    return Err(Bad);
                }
                let mut addr = self.addr(o(1)?)?;
                addr.wide = false;
                Op::Ldsm { d: self.dst(o(0)?)?, addr, n, trans: has(Mod::MT88) }
            }
            Opcode::STSM => {
                let n = if has(Mod::_4) { 4 } else if has(Mod::_2) { 2 } else { 1 };
                if !has(Mod::_16) {
                    return Err(Bad);
                }
                let mut addr = self.addr(o(0)?)?;
                addr.wide = false;
                let v = match o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::Stsm { addr, v, n, trans: has(Mod::MT88) }
            }
            Opcode::MOVM => {
                let a = match o(1)? {
                    Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad)?,
                    _ => return Err(Bad),
                };
                Op::Movm { d: self.dst(o(0)?)?, a }
            }
            Opcode::HMMA | Opcode::IMMA | Opcode::BMMA | Opcode::DMMA => {
                let kind = mma_kind(opcode, toks).ok_or(Bad)?;
                let reg = |k: usize| -> R<u16> {
                    match o(k)? {
                        Operand::Reg { reg, .. } => read_row(*reg).ok_or(Bad),
                        _ => Err(Bad),
                    }
                };
                Op::Mma { d: self.dst(o(0)?)?, a: reg(1)?, b: reg(2)?, c: reg(3)?, kind }
            }
            Opcode::REDUX => {
                let op = match toks.first().copied() {
                    None | Some(Mod::S32) => 0, // AND
                    Some(Mod::OR) => 1,
                    Some(Mod::XOR) => 2,
                    Some(Mod::SUM) => 3,
                    Some(Mod::MIN) => 4,
                    Some(Mod::MAX) => 5,
                    _ => return Err(Bad),
                };
                Op::Redux { d: self.dst(o(0)?)?, a: self.src(o(1)?, sl(1), 1)?, op, signed: has(Mod::S32) }
            }
            // CREDUX.{MIN,MAX,MINABS,MAXABS}[.S32|.F32][.NAN]: the integer
            // forms are REDUX's minimum and maximum; the absolute values and
            // `.NAN` are the f32 form's only.
            Opcode::CREDUX => {
                let (d, a) = (self.dst(o(0)?)?, self.src(o(1)?, sl(1), 1)?);
                let (min, abs) = match toks.first().copied() {
                    Some(Mod::MAX) => (false, false),
                    Some(Mod::MAXABS) => (false, true),
                    Some(Mod::MIN) => (true, false),
                    Some(Mod::MINABS) => (true, true),
                    _ => return Err(Bad),
                };
                let nan = has(Mod::NAN);
                if has(Mod::F32) {
                    Op::ReduxF32 { d, a, min, abs, nan }
                } else if abs || nan {
                    return Err(Bad);
                } else {
                    Op::Redux { d, a, op: if min { 4 } else { 5 }, signed: has(Mod::S32) }
                }
            }
            _ => return Err(Bad),
        })
    }
}

fn barrier(op: &Operand) -> R<u8> {
    match op {
        Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(n) }, .. } if *n < 16 => Ok(*n),
        _ => Err(Bad),
    }
}

fn space(opcode: Opcode) -> Space {
    match opcode {
        Opcode::LDG | Opcode::STG => Space::Global,
        Opcode::LDS | Opcode::STS => Space::Shared,
        Opcode::LDL | Opcode::STL => Space::Local,
        _ => Space::Generic,
    }
}

fn width(toks: &[Mod]) -> Width {
    for t in toks {
        let w = match t {
            Mod::U8 => Width { bytes: 1, signed: false },
            Mod::S8 => Width { bytes: 1, signed: true },
            Mod::U16 => Width { bytes: 2, signed: false },
            Mod::S16 => Width { bytes: 2, signed: true },
            Mod::_64 => Width { bytes: 8, signed: false },
            Mod::_128 => Width { bytes: 16, signed: false },
            _ => continue,
        };
        return w;
    }
    Width { bytes: 4, signed: false }
}

fn fmt(t: Mod) -> Option<Fmt> {
    Some(match t {
        Mod::F16 => Fmt::F16,
        Mod::BF16 => Fmt::Bf16,
        Mod::F32 => Fmt::F32,
        Mod::F64 => Fmt::F64,
        _ => return None,
    })
}

/// The matrix operation an HMMA, IMMA, BMMA or DMMA spells: shape and
/// types from its tokens (`HMMA.1688.F32.TF32`, `IMMA.16832.U8.S8.SAT`,
/// `BMMA.168256.XOR.POPC`, `DMMA.884`).
fn mma_kind(opcode: Opcode, toks: &[Mod]) -> Option<MmaKind> {
    use crate::ir::matrix::{MmaAcc, MmaBitOp, MmaElem as E, MmaShape as S};
    let has = |m: Mod| toks.contains(&m);
    let mma = |shape, a, b, acc| MmaKind { shape, a, b, acc, sat: has(Mod::SAT), bitop: None };
    let kind = match opcode {
        Opcode::HMMA => {
            let input = if has(Mod::BF16) { E::Bf16 } else if has(Mod::TF32) { E::Tf32 } else { E::F16 };
            let shape = if has(Mod::_16816) { S::M16N8K16 } else if has(Mod::_1688) { S::M16N8K8 } else if has(Mod::_1684) { S::M16N8K4 } else { return None };
            let acc = if has(Mod::F32) { MmaAcc::F32 } else { MmaAcc::F16 };
            mma(shape, input, input, acc)
        }
        Opcode::IMMA => {
            let ints: Vec<E> = toks
                .iter()
                .filter_map(|t| match t {
                    Mod::U8 => Some(E::U8),
                    Mod::S8 => Some(E::S8),
                    Mod::U4 => Some(E::U4),
                    Mod::S4 => Some(E::S4),
                    _ => None,
                })
                .collect();
            let [a, b] = ints[..] else { return None };
            let shape = if has(Mod::_16832) { S::M16N8K32 } else if has(Mod::_16816) { S::M16N8K16 } else if has(Mod::_16864) { S::M16N8K64 } else { return None };
            mma(shape, a, b, MmaAcc::S32)
        }
        Opcode::BMMA => {
            let shape = if has(Mod::_88128) { S::M8N8K128 } else if has(Mod::_168128) { S::M16N8K128 } else if has(Mod::_168256) { S::M16N8K256 } else { return None };
            let op = if has(Mod::AND) { MmaBitOp::And } else { MmaBitOp::Xor };
            MmaKind { bitop: Some(op), ..mma(shape, E::B1, E::B1, MmaAcc::S32) }
        }
        _ => mma(S::M8N8K4, E::F64, E::F64, MmaAcc::F64),
    };
    kind.valid().then_some(kind)
}

fn int_fmt(t: Mod) -> Option<IntFmt> {
    let (bits, signed) = match t {
        Mod::U8 => (8, false),
        Mod::U16 => (16, false),
        Mod::U32 => (32, false),
        Mod::U64 => (64, false),
        Mod::S8 => (8, true),
        Mod::S16 => (16, true),
        Mod::S32 => (32, true),
        Mod::S64 => (64, true),
        _ => return None,
    };
    Some(IntFmt { bits, signed })
}

fn atom_op(toks: &[Mod]) -> Option<AtomOp> {
    toks.iter().find_map(|t| {
        Some(match t {
            Mod::ADD => AtomOp::Add,
            Mod::MIN => AtomOp::Min,
            Mod::MAX => AtomOp::Max,
            Mod::INC => AtomOp::Inc,
            Mod::DEC => AtomOp::Dec,
            Mod::AND => AtomOp::And,
            Mod::OR => AtomOp::Or,
            Mod::XOR => AtomOp::Xor,
            Mod::EXCH => AtomOp::Exch,
            Mod::CAS => AtomOp::Cas,
            _ => return None,
        })
    })
}

/// The operand type of an atomic; `None` for the vector and bf16 types
/// (`.F16x4`, `.BF16x2`, `.F32x2`, `.128`, …), not modelled.
fn atom_type(toks: &[Mod]) -> Option<AtomType> {
    let unmodelled = |t: &Mod| {
        matches!(t, Mod::F16x4 | Mod::F16x8 | Mod::F32x2 | Mod::F32x4 | Mod::BF16 | Mod::BF16x2 | Mod::BF16x4 | Mod::BF16x8 | Mod::_128)
    };
    if toks.iter().any(unmodelled) {
        return None;
    }
    Some(if toks.contains(&Mod::F32) {
        AtomType::F32
    } else if toks.contains(&Mod::F64) {
        AtomType::F64
    } else if toks.contains(&Mod::F16x2) {
        AtomType::F16x2
    } else if toks.contains(&Mod::S64) {
        AtomType::S64
    } else if toks.contains(&Mod::_64) {
        AtomType::U64
    } else if toks.contains(&Mod::S32) {
        AtomType::S32
    } else {
        AtomType::U32
    })
}
