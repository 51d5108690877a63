//! The executable form of SASS instructions: [`Op`], one per static
//! instruction, with every operand resolved to a row of the warp's register
//! array (see [`Rows`]) so that the interpreter's main loop does no decoding.
//!
//! [`Op`] has one variant per family of operations; each family's module
//! in [`super::ops`] declares its instructions' executable form, their
//! translation and their execution. This module owns what the families
//! share: the operand model (rows, sources, predicates, addresses), the
//! [`Translator`]'s operand readings, the [`Ctx`] of one instruction, and
//! the routing of an instruction through the families' translations.
//!
//! Translation reads an [`Inst`] the way `nvdisasm` text reads: the
//! opcode and the tokens of its modifiers (typed [`Mod`] values, never
//! text), then the operands in printed order. Constant-bank operands are
//! constants for the whole launch, so they become constant rows, like
//! immediates.
//!
//! Register rows of a warp (each row holds one 32-bit value per lane):
//! `R0..R254` are rows 0–254; four rows of zeros stand for RZ (read as a
//! pair or quad too); four sink rows take writes to RZ; the uniform file
//! follows the same way; then one row per distinct constant operand. A
//! uniform register is a row whose lanes all hold the same value: uniform
//! instructions execute on all 32 lanes. Predicates are lane masks: P0–P6,
//! PT, a sink, then UP0–UP6, UPT, a sink (a uniform predicate is all ones
//! or all zeros).

use super::num::Round;
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
pub(super) const PRMT_MODES: [Mod; 6] = [Mod::F4E, Mod::B4E, Mod::RC8, Mod::ECL, Mod::ECR, Mod::RC16];
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
    pub(super) fn constant(&mut self, v: u32) -> u16 {
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

/// One executable instruction.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Op {
    /// Does nothing.
    Nop,
    /// Executing it is an error (undecodable word, unmodelled instruction).
    Unsupported(Box<str>),
    /// See [`super::ops::control`].
    Control(super::ops::control::ControlOp),
    /// See [`super::ops::int`].
    Int(super::ops::int::IntOp),
    /// See [`super::ops::bits`].
    Bits(super::ops::bits::BitsOp),
    /// See [`super::ops::compare`].
    Compare(super::ops::compare::CompareOp),
    /// See [`super::ops::float32`].
    Float32(super::ops::float32::Float32Op),
    /// See [`super::ops::float64`].
    Float64(super::ops::float64::Float64Op),
    /// See [`super::ops::half`].
    Half(super::ops::half::HalfOp),
    /// See [`super::ops::convert`].
    Convert(super::ops::convert::ConvertOp),
    /// See [`super::ops::special`].
    Special(super::ops::special::SpecialOp),
    /// See [`super::ops::memory`].
    Memory(super::ops::memory::MemoryOp),
    /// See [`super::ops::warp`].
    Warp(super::ops::warp::WarpOp),
    /// See [`super::ops::texture`].
    Texture(super::ops::texture::TextureOp),
    /// See [`super::ops::mma`].
    Mma(super::ops::mma::MmaOp),
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

/// What every family's translation reads of one instruction: its opcode,
/// the tokens of its mnemonic, its operands by slot, and the readings of
/// modifiers that several families share.
pub(super) struct Ctx<'i> {
    /// The instruction.
    pub inst: &'i Inst,
    /// Its opcode.
    pub opcode: Opcode,
    /// The tokens of its mnemonic ([`Inst::tokens`]).
    pub toks: crate::isa::inst::Tokens,
    /// Its operands, one per slot.
    pub ops: &'i [Operand],
    /// The slots of its form.
    pub slots: &'static [Slot],
    /// Operands in all.
    pub n: usize,
    /// Byte offset of the next instruction (relative targets count from it).
    pub next: u32,
}

impl<'i> Ctx<'i> {
    /// The context of `inst` at byte `offset`.
    pub fn new(inst: &'i Inst, offset: u32) -> Ctx<'i> {
        let ops: &[Operand] = &inst.operands;
        Ctx { inst, opcode: inst.op(), toks: inst.tokens(), ops, slots: inst.form.slots, n: ops.len(), next: offset.wrapping_add(16) }
    }

    /// Whether the mnemonic has modifier `m`.
    pub fn has(&self, m: Mod) -> bool {
        self.inst.has(m)
    }

    /// Slot `k` (an unsigned immediate's past the last).
    pub fn sl(&self, k: usize) -> &'static Slot {
        self.slots.get(k).unwrap_or(&Slot::Imm32 { signed: false })
    }

    /// Operand `k`.
    pub fn o(&self, k: usize) -> R<&'i Operand> {
        self.ops.get(k).ok_or(Bad)
    }

    /// Operand `k` as a branch target: an instruction's byte address.
    pub fn target(&self, k: usize) -> R<u32> {
        match self.o(k)? {
            Operand::Target(t) => {
                let abs = match self.sl(k) {
                    Slot::AbsTarget(_) => *t,
                    _ => i64::from(self.next) + t,
                };
                u32::try_from(abs).map_err(|_| Bad)
            }
            _ => Err(Bad),
        }
    }

    /// The float rounding modifier (`.RZ`, `.RM`, `.RP`; nearest without).
    pub fn rnd(&self) -> Round {
        if self.has(Mod::RZ) {
            Round::Zero
        } else if self.has(Mod::RM) {
            Round::Down
        } else if self.has(Mod::RP) {
            Round::Up
        } else {
            Round::Nearest
        }
    }

    /// The rounding to an integer (`.FLOOR`, `.CEIL`, `.TRUNC`; nearest without).
    pub fn int_rnd(&self) -> Round {
        if self.has(Mod::FLOOR) {
            Round::Down
        } else if self.has(Mod::CEIL) {
            Round::Up
        } else if self.has(Mod::TRUNC) {
            Round::Zero
        } else {
            Round::Nearest
        }
    }

    /// The value of modifier field `k` of the form.
    pub fn mod_value(&self, k: usize) -> u8 {
        self.inst.mods.get(k).copied().unwrap_or(0)
    }

    /// A packed-half source with the swizzle printed after operand `k`.
    pub fn half_src(&self, s: S, k: usize) -> R<S> {
        let swizzle = match self.inst.operand_tokens(k) {
            [] => 0,
            [Mod::H0_H0] => H0H0,
            [Mod::H1_H1] => H1H1,
            [Mod::F32] => F32H,
            _ => return Err(Bad),
        };
        Ok(S { m: s.m | swizzle, ..s })
    }

    /// How a comparison combines with the predicate source: `.AND` (0)
    /// unless `.OR` (1) or `.XOR` (2).
    pub fn bop(&self) -> u8 {
        if self.has(Mod::OR) {
            1
        } else if self.has(Mod::XOR) {
            2
        } else {
            0
        }
    }
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

pub(super) fn bank_word(banks: &[Vec<u8>], bank: u8, offset: u32) -> u32 {
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
pub(super) fn read_row(reg: Reg) -> Option<u16> {
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

pub(super) fn pred_row(reg: Reg, write: bool) -> Option<u8> {
    match (reg.file, reg.num) {
        (RegFile::Pred, RegNum::Phys(n)) if n < 7 => Some(n),
        (RegFile::Pred, RegNum::Zero) => Some(if write { P_SINK } else { PT }),
        (RegFile::UniformPred, RegNum::Phys(n)) if n < 7 => Some(UP_BASE + n),
        (RegFile::UniformPred, RegNum::Zero) => Some(if write { UP_SINK } else { UPT }),
        _ => None,
    }
}

pub(super) struct Bad;

pub(super) type R<T> = Result<T, Bad>;

impl Translator<'_> {
    /// Whether a load's or store's `.E` makes its address a 64-bit pair:
    /// on sm_75 `LDG.E.SYS R0, [R2]` (ptxas's and ours) reads the pair
    /// R2:R3 and the address operand has no `.64`; from sm_80 on `.E`
    /// names the memory descriptor and `[R2.64]` the width.
    pub(super) fn e_is_wide(&self, space: Space, e: bool) -> bool {
        e && self.sm.number < 80 && matches!(space, Space::Global | Space::Generic)
    }

    /// A source operand (`width` 32-bit words: constants become as many rows).
    pub(super) fn src(&mut self, op: &Operand, slot: &Slot, width: usize) -> R<S> {
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

    pub(super) fn dst(&self, op: &Operand) -> R<u16> {
        match *op {
            Operand::Reg { reg, .. } => write_row(reg).ok_or(Bad),
            _ => Err(Bad),
        }
    }

    pub(super) fn pdst(&self, op: &Operand) -> R<u8> {
        match *op {
            Operand::Reg { reg, .. } => pred_row(reg, true).ok_or(Bad),
            _ => Err(Bad),
        }
    }

    pub(super) fn psrc(&self, op: &Operand) -> R<P> {
        match *op {
            Operand::Reg { reg, mods, .. } => Ok(P { r: pred_row(reg, false).ok_or(Bad)?, not: mods.not }),
            _ => Err(Bad),
        }
    }

    pub(super) fn addr(&self, op: &Operand) -> R<Addr> {
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

    /// Offers the instruction to each family in turn: the first that knows
    /// its opcode and form translates it.
    fn translate_inner(&mut self, inst: &Inst, offset: u32) -> R<Op> {
        let c = Ctx::new(inst, offset);
        if let Some(op) = self.translate_control(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_int(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_bits(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_compare(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_float32(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_float64(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_half(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_convert(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_special(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_memory(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_warp(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_texture(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.translate_mma(&c)? {
            return Ok(op);
        }
        Err(Bad)
    }
}

pub(super) fn fmt(t: Mod) -> Option<Fmt> {
    Some(match t {
        Mod::F16 => Fmt::F16,
        Mod::BF16 => Fmt::Bf16,
        Mod::F32 => Fmt::F32,
        Mod::F64 => Fmt::F64,
        _ => return None,
    })
}

pub(super) fn int_fmt(t: Mod) -> Option<IntFmt> {
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
