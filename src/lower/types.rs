//! PTX types, modifiers and immediates in Ori terms: which value type a
//! PTX type lives in, which [`Attrs`] an instruction's modifiers make, and
//! the bits of a constant operand.
//!
//! Modifiers lowering drops (documented here, once): the `.uni` of
//! `bra`/`call`/`ret` (a uniformity promise; a later analysis finds it
//! anyway), `.aligned` of barriers, the cache-operator hints of `ld`/`st`
//! (`.ca .cg .cs .lu .cv .wb .wt`), `.nc` (the non-coherent read-only path:
//! a plain load is always correct), `.weak` (the default ordering) and the
//! `.L1::*`/`.L2::*` eviction hints (and `prefetch`/`prefetchu` whole:
//! [`super::ops`]). Every other modifier either maps to an
//! attribute or makes the instruction unsupported, so nothing that changes
//! meaning is lost silently.

use crate::ir::{Attrs, BoolOp, Cmp, DataType, FpClass, MemOrder, MemScope, MulMode, RedOp, Round, Space, Type, WarpMode};
use crate::ptx::ast::{Expr, ScalarType, StateSpace, UnaryOp};
use crate::ptx::modifier::{self, KEYWORD_COUNT, Keyword, Modifier, Rounding, Semantics};
use std::sync::OnceLock;

/// The value type holding a PTX type of `bits` bits: predicates are `p`,
/// up to 32 bits `r32` (sub-word values in the low bits), then `r64` and
/// `r128`.
pub(super) fn value_type(bits: u32) -> Option<Type> {
    match bits {
        1 => Some(Type::P),
        2..=32 => Some(Type::R32),
        33..=64 => Some(Type::R64),
        65..=128 => Some(Type::R128),
        _ => None,
    }
}

/// The value type of a scalar type.
pub(super) fn scalar_value_type(t: ScalarType) -> Option<Type> {
    value_type(t.bits())
}

/// The value type of `bytes` bytes of `.param` data.
pub(super) fn bytes_value_type(bytes: u32) -> Option<Type> {
    match bytes {
        1..=4 => Some(Type::R32),
        5..=8 => Some(Type::R64),
        9..=16 => Some(Type::R128),
        _ => None,
    }
}

/// Bytes of each register part of a `.param` aggregate larger than one
/// value (see [`super::names::Binding::ParamAggregate`]).
pub(super) const AGGREGATE_PART: u32 = 16;

/// The most bytes a `.param` aggregate may have: its words are passed in
/// registers, at most [`crate::regalloc::abi::MAX_WORDS`] each way (ptxas
/// passes the rest through the stack, which is not implemented).
pub(super) const MAX_AGGREGATE: u32 = 4 * crate::regalloc::abi::MAX_WORDS;

/// The value types of the parts of a `.param` variable of `size` bytes:
/// one value up to 16 bytes, else 16-byte parts and a smaller last one.
pub(super) fn param_part_types(size: u32) -> Option<Vec<Type>> {
    if size <= AGGREGATE_PART {
        return bytes_value_type(size).map(|t| vec![t]);
    }
    if size > MAX_AGGREGATE {
        return None;
    }
    (0..size.div_ceil(AGGREGATE_PART)).map(|k| aggregate_part_type(size, k)).collect()
}

/// The value type of part `k` of an aggregate of `size` bytes.
pub(super) fn aggregate_part_type(size: u32, k: u32) -> Option<Type> {
    bytes_value_type(size.saturating_sub(k * AGGREGATE_PART).min(AGGREGATE_PART))
}

/// The Ori data type of a PTX scalar type, for the types the IR names.
pub(super) fn data_type(t: ScalarType) -> Option<DataType> {
    use ScalarType as S;
    Some(match t {
        S::Pred => DataType::Pred,
        S::B8 => DataType::B8,
        S::B16 => DataType::B16,
        S::B32 => DataType::B32,
        S::B64 => DataType::B64,
        S::B128 => DataType::B128,
        S::U8 => DataType::U8,
        S::U16 => DataType::U16,
        S::U32 => DataType::U32,
        S::U64 => DataType::U64,
        S::S8 => DataType::S8,
        S::S16 => DataType::S16,
        S::S32 => DataType::S32,
        S::S64 => DataType::S64,
        S::F16 => DataType::F16,
        S::F16x2 => DataType::F16x2,
        S::Bf16 => DataType::Bf16,
        S::Bf16x2 => DataType::Bf16x2,
        S::E4m3x2 => DataType::E4m3x2,
        S::E5m2x2 => DataType::E5m2x2,
        S::F32 => DataType::F32,
        S::U16x2 => DataType::U16x2,
        S::S16x2 => DataType::S16x2,
        S::Tf32 => DataType::Tf32,
        S::F32x2 => DataType::F32x2,
        S::F64 => DataType::F64,
        _ => return None,
    })
}

/// The integer type twice as wide (the operands of `mul.wide` give the
/// result's type).
pub(super) fn widened(t: ScalarType) -> Option<ScalarType> {
    use ScalarType as S;
    Some(match t {
        S::U16 => S::U32,
        S::S16 => S::S32,
        S::U32 => S::U64,
        S::S32 => S::S64,
        S::B16 => S::B32,
        S::B32 => S::B64,
        _ => return None,
    })
}

/// The memory space of a state-space modifier.
pub(super) fn space(s: StateSpace) -> Option<Space> {
    Some(match s {
        StateSpace::Global => Space::Global,
        StateSpace::Shared | StateSpace::SharedCta => Space::Shared,
        StateSpace::Local => Space::Local,
        StateSpace::Const => Space::Const,
        StateSpace::Param | StateSpace::ParamEntry | StateSpace::ParamFunc => Space::Param,
        _ => return None,
    })
}

/// What a keyword modifier means to lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// Not understood: the instruction is unsupported.
    Unknown,
    /// A hint lowering drops (see the module documentation).
    Drop,
    Mul(MulMode),
    Approx,
    Full,
    To,
    /// A word only some integer instructions take (see [`Ext`]).
    Ext(ExtWord),
    /// A `testp` class.
    Class(FpClass),
    /// `min/max.NaN`.
    NaN,
    /// `cvt.relu` (the packing conversions only: see `FnLower::cvt`).
    Relu,
    /// `cvt.satfinite`: the `sat` attribute.
    SatFinite,
    /// `min/max.xorsign`.
    Xorsign,
    /// `min/max.abs`: both operands' absolute values.
    Abs,
    /// A warp operation's lane pattern (`shfl.up`, `vote.ballot`).
    Warp(WarpMode),
    /// An atomic's or reduction's operation (`atom.add`, `redux.max`).
    Red(RedOp),
}

/// The modifiers of the integer, bit and carry instructions
/// ([`super::integer`]) that have no attribute of their own in every
/// instruction: `.cc`, `.clamp`, `.wrap`, `.shiftamt`, `.l`/`.r` and PRMT's
/// modes. [`attrs`] refuses them; [`attrs_ext`] returns them for the
/// instructions that take them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Ext {
    /// `.cc`: the instruction writes the carry flag.
    pub cc: bool,
    /// `.clamp` (the default of `shf`, `bmsk`, `szext`) was written.
    pub clamp: bool,
    /// `.wrap`.
    pub wrap: bool,
    /// `.shiftamt`.
    pub shiftamt: bool,
    /// `.l` (true) or `.r` (false) of `shf`, when written.
    pub left: Option<bool>,
    /// PRMT's mode (1..6 for `.f4e .b4e .rc8 .ecl .ecr .rc16`; 0 none).
    pub prmt_mode: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExtWord {
    Cc,
    Clamp,
    Wrap,
    ShiftAmt,
    Left,
    Right,
    Prmt(u8),
}

/// PRMT's mode words in the order of the machine's mode field.
const PRMT_MODES: [&str; 6] = [".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"];

/// The meaning of keyword `k` to lowering, worked out on its first use
/// (a module uses a few of the table's keywords; classifying them all
/// took ~90 K instructions of every compilation).
fn word(k: Keyword) -> Word {
    static MEANINGS: [OnceLock<Word>; KEYWORD_COUNT] = [const { OnceLock::new() }; KEYWORD_COUNT];
    let Some(slot) = MEANINGS.get(usize::from(k.0)) else { return Word::Unknown };
    *slot.get_or_init(|| word_meaning(k.spelling()))
}

/// What a keyword spelling means to lowering.
fn word_meaning(spelling: &str) -> Word {
    match spelling {
        ".lo" => Word::Mul(MulMode::Lo),
        ".hi" => Word::Mul(MulMode::Hi),
        ".wide" => Word::Mul(MulMode::Wide),
        ".approx" => Word::Approx,
        ".full" => Word::Full,
        ".to" => Word::To,
        ".NaN" => Word::NaN,
        ".relu" => Word::Relu,
        // `cvt.satfinite` (to f16x2, bf16x2 and the fp8 pairs): the
        // conversions' saturation (`F2FP.SATFINITE`).
        ".satfinite" => Word::SatFinite,
        ".xorsign" => Word::Xorsign,
        ".abs" => Word::Abs,
        ".up" => Word::Warp(WarpMode::Up),
        ".down" => Word::Warp(WarpMode::Down),
        ".bfly" => Word::Warp(WarpMode::Bfly),
        ".idx" => Word::Warp(WarpMode::Idx),
        ".all" => Word::Warp(WarpMode::All),
        ".any" => Word::Warp(WarpMode::Any),
        ".ballot" => Word::Warp(WarpMode::Ballot),
        ".add" => Word::Red(RedOp::Add),
        ".min" => Word::Red(RedOp::Min),
        ".max" => Word::Red(RedOp::Max),
        ".inc" => Word::Red(RedOp::Inc),
        ".dec" => Word::Red(RedOp::Dec),
        ".exch" => Word::Red(RedOp::Exch),
        ".and" => Word::Red(RedOp::And),
        ".or" => Word::Red(RedOp::Or),
        ".xor" => Word::Red(RedOp::Xor),
        ".cas" => Word::Red(RedOp::Cas),
        ".popc" => Word::Red(RedOp::Popc),
        // `.sync` (`match.any.sync`): the warp operations are all
        // synchronising. `.noftz` (`atom.add.noftz.f16x2`): the machine's
        // half-precision atomic add never flushes subnormals.
        ".sync" | ".noftz" => Word::Drop,
        // `vote.uni`; the `.uni` of `bra`/`call`/`ret` is a uniformity
        // promise those lowerings ignore.
        ".uni" => Word::Warp(WarpMode::Uni),
        ".aligned" | ".ca" | ".cg" | ".cs" | ".lu" | ".cv" | ".wb" | ".wt" | ".nc" => Word::Drop,
        ".cc" => Word::Ext(ExtWord::Cc),
        ".clamp" => Word::Ext(ExtWord::Clamp),
        ".wrap" => Word::Ext(ExtWord::Wrap),
        ".shiftamt" => Word::Ext(ExtWord::ShiftAmt),
        ".l" => Word::Ext(ExtWord::Left),
        ".r" => Word::Ext(ExtWord::Right),
        s if PRMT_MODES.contains(&s) => Word::Ext(ExtWord::Prmt(PRMT_MODES.iter().position(|m| *m == s).map_or(0, |k| k as u8 + 1))),
        s if s.starts_with(".L1::") || s.starts_with(".L2::") => Word::Drop,
        s => s.strip_prefix('.').and_then(FpClass::from_word).map_or(Word::Unknown, Word::Class),
    }
}

/// The attributes of an instruction's modifiers: the first type is `ty`,
/// the second `src_ty`. `Err` names nothing: the caller reports the whole
/// instruction as unsupported (as it does for the words of [`Ext`]).
pub(super) fn attrs(mods: &[(Modifier, crate::ptx::ast::Loc)]) -> Result<Attrs, ()> {
    match attrs_ext(mods)? {
        (a, ext) if ext == Ext::default() => Ok(a),
        _ => Err(()),
    }
}

/// [`attrs`], with the words of [`Ext`] returned instead of refused.
pub(super) fn attrs_ext(mods: &[(Modifier, crate::ptx::ast::Loc)]) -> Result<(Attrs, Ext), ()> {
    let mut ext = Ext::default();
    let mut a = Attrs::default();
    for (m, _) in mods {
        match *m {
            Modifier::Type(t) => {
                let d = data_type(t).ok_or(())?;
                if a.ty.is_none() {
                    a.ty = Some(d);
                } else if a.src_ty.is_none() {
                    a.src_ty = Some(d);
                } else if d != DataType::B32 {
                    // A third type: `cvt.pack.sat.u8.s32.b32`'s `c`, which
                    // lowering reads as 32 bits.
                    return Err(());
                }
            }
            Modifier::Vector(n) => a.vector = n,
            Modifier::Space(s) => a.space = Some(space(s).ok_or(())?),
            Modifier::Rounding(r) => a.round = Some(rounding(r).ok_or(())?),
            Modifier::Cmp(c) => a.cmp = Some(cmp(c)),
            Modifier::Bool(b) => {
                a.combine = Some(match b {
                    modifier::BoolOp::And => BoolOp::And,
                    modifier::BoolOp::Or => BoolOp::Or,
                    modifier::BoolOp::Xor => BoolOp::Xor,
                })
            }
            Modifier::Sem(Semantics::Weak) => {}
            Modifier::Sem(Semantics::Volatile) => a.volatile = true,
            Modifier::Sem(Semantics::Relaxed) => a.order = Some(MemOrder::Relaxed),
            Modifier::Sem(Semantics::Acquire) => a.order = Some(MemOrder::Acquire),
            Modifier::Sem(Semantics::Release) => a.order = Some(MemOrder::Release),
            Modifier::Sem(Semantics::AcqRel) => a.order = Some(MemOrder::AcqRel),
            Modifier::Sem(Semantics::Sc) => a.order = Some(MemOrder::Sc),
            Modifier::Sem(_) => return Err(()),
            Modifier::Scope(s) => {
                a.scope = Some(match s {
                    modifier::Scope::Cta => MemScope::Cta,
                    modifier::Scope::Cluster => MemScope::Cluster,
                    modifier::Scope::Gpu => MemScope::Gpu,
                    modifier::Scope::Sys => MemScope::Sys,
                })
            }
            Modifier::Ftz => a.ftz = true,
            Modifier::Sat => a.sat = true,
            Modifier::Word(k) => match word(k) {
                Word::Unknown => return Err(()),
                Word::Drop => {}
                Word::Mul(mm) => a.mul = Some(mm),
                Word::Approx => a.approx = true,
                Word::Full => a.full = true,
                Word::To => a.to = true,
                Word::Ext(w) => match w {
                    ExtWord::Cc => ext.cc = true,
                    ExtWord::Clamp => ext.clamp = true,
                    ExtWord::Wrap => ext.wrap = true,
                    ExtWord::ShiftAmt => ext.shiftamt = true,
                    ExtWord::Left => ext.left = Some(true),
                    ExtWord::Right => ext.left = Some(false),
                    ExtWord::Prmt(m) => ext.prmt_mode = m,
                },
                Word::Class(c) => a.class = Some(c),
                Word::NaN => a.nan = true,
                Word::Relu => a.relu = true,
                Word::SatFinite => a.sat = true,
                Word::Xorsign => a.xorsign = true,
                Word::Abs => a.abs = 0b11,
                Word::Warp(m) => a.warp = Some(m),
                Word::Red(r) => a.red = Some(r),
            },
        }
    }
    Ok((a, ext))
}

fn rounding(r: Rounding) -> Option<Round> {
    Some(match r {
        Rounding::Rn => Round::Rn,
        Rounding::Rz => Round::Rz,
        Rounding::Rm => Round::Rm,
        Rounding::Rp => Round::Rp,
        Rounding::Rni => Round::Rni,
        Rounding::Rzi => Round::Rzi,
        Rounding::Rmi => Round::Rmi,
        Rounding::Rpi => Round::Rpi,
        Rounding::Rna | Rounding::Rs => return None,
    })
}

fn cmp(c: modifier::CmpOp) -> Cmp {
    use modifier::CmpOp as C;
    match c {
        C::Eq => Cmp::Eq,
        C::Ne => Cmp::Ne,
        C::Lt => Cmp::Lt,
        C::Le => Cmp::Le,
        C::Gt => Cmp::Gt,
        C::Ge => Cmp::Ge,
        C::Lo => Cmp::Lo,
        C::Ls => Cmp::Ls,
        C::Hi => Cmp::Hi,
        C::Hs => Cmp::Hs,
        C::Equ => Cmp::Equ,
        C::Neu => Cmp::Neu,
        C::Ltu => Cmp::Ltu,
        C::Leu => Cmp::Leu,
        C::Gtu => Cmp::Gtu,
        C::Geu => Cmp::Geu,
        C::Num => Cmp::Num,
        C::Nan => Cmp::Nan,
    }
}

/// The comparison that holds exactly where `c` does not (the second
/// destination of `setp p|q`): integer orders swap, and a float's ordered
/// comparison becomes the unordered opposite (NaN makes `lt` false, so
/// `!lt` is `geu`).
pub(super) fn inverse_cmp(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Neu,
        Cmp::Ne => Cmp::Equ,
        Cmp::Lt => Cmp::Geu,
        Cmp::Le => Cmp::Gtu,
        Cmp::Gt => Cmp::Leu,
        Cmp::Ge => Cmp::Ltu,
        Cmp::Lo => Cmp::Hs,
        Cmp::Ls => Cmp::Hi,
        Cmp::Hi => Cmp::Ls,
        Cmp::Hs => Cmp::Lo,
        Cmp::Equ => Cmp::Ne,
        Cmp::Neu => Cmp::Eq,
        Cmp::Ltu => Cmp::Ge,
        Cmp::Leu => Cmp::Gt,
        Cmp::Gtu => Cmp::Le,
        Cmp::Geu => Cmp::Lt,
        Cmp::Num => Cmp::Nan,
        Cmp::Nan => Cmp::Num,
    }
}

/// The inverse of an integer comparison (`eq`↔`ne`, `lt`↔`ge`…): on
/// integers there is no unordered case.
pub(super) fn inverse_int_cmp(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
        Cmp::Ge => Cmp::Lt,
        other => inverse_cmp(other),
    }
}

/// The bits of a constant operand for an instruction of type `ty`: float
/// literals are rounded to the type's format; integers are taken as bits
/// (as `ptxas` reads `mov.f32 %f, 0`); the result is truncated to the
/// type's width. `None` for an expression that does not fold.
pub(super) fn imm_bits(e: &Expr, ty: ScalarType) -> Option<u64> {
    let bits = match e {
        Expr::F32(b, _) => float_bits(f64::from(f32::from_bits(*b)), Some(u64::from(*b)), ty),
        Expr::F64(b, _) | Expr::Decimal(b, _) => float_bits(f64::from_bits(*b), None, ty),
        Expr::Unary(UnaryOp::Neg, inner, _) if matches!(**inner, Expr::F32(..) | Expr::F64(..) | Expr::Decimal(..)) => {
            let b = imm_bits(inner, ty)?;
            b ^ (1u64 << (ty.bits().clamp(1, 64) - 1))
        }
        _ => crate::ptx::parser::fold_int(e, &mut |leaf| match leaf {
            Expr::F32(b, _) => Some(u64::from(*b)),
            Expr::F64(b, _) | Expr::Decimal(b, _) => Some(*b),
            _ => None,
        })?,
    };
    Some(truncate(bits, ty.bits()))
}

/// The low `bits` bits of `v`.
pub(super) fn truncate(v: u64, bits: u32) -> u64 {
    if bits >= 64 { v } else { v & ((1u64 << bits) - 1) }
}

/// The bits of float value `v` in the format of `ty` (`f32_bits`: the
/// literal's own bits when it was written as `0f`, kept exactly for 32-bit
/// types).
fn float_bits(v: f64, f32_bits: Option<u64>, ty: ScalarType) -> u64 {
    match ty.bits() {
        64 => v.to_bits(),
        16 if matches!(ty, ScalarType::Bf16 | ScalarType::Bf16x2) => u64::from(round_f64(v, 8, 7)),
        16 => u64::from(round_f64(v, 5, 10)),
        _ if ty == ScalarType::Bf16x2 => u64::from(round_f64(v, 8, 7)),
        _ if ty == ScalarType::F16x2 => u64::from(round_f64(v, 5, 10)),
        _ => f32_bits.unwrap_or_else(|| u64::from((v as f32).to_bits())),
    }
}

/// Rounds `v` to nearest-even in a binary format with `e` exponent and `m`
/// mantissa bits (at most 16 bits in all), giving its bit pattern.
/// Overflow gives infinity; NaN a quiet NaN.
pub(super) fn round_f64(v: f64, e: u32, m: u32) -> u16 {
    let sign = u16::from(v.is_sign_negative()) << (e + m);
    let inf = ((1u16 << e) - 1) << m;
    if v.is_nan() {
        return sign | inf | (1 << (m - 1));
    }
    let a = v.abs();
    if a.is_infinite() {
        return sign | inf;
    }
    if a == 0.0 {
        return sign;
    }
    let bias = (1i32 << (e - 1)) - 1;
    // The exponent of the value, and the smallest normal exponent.
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let min_exp = 1 - bias;
    // Units of the last place: 2^(exp - m) for normals, 2^(min_exp - m)
    // for subnormals.
    let ulp_exp = exp.max(min_exp) - m as i32;
    let scaled = a * 2f64.powi(-ulp_exp);
    // Round half to even (exact: `scaled` < 2^(m+2) fits f64 exactly).
    let floor = scaled.floor();
    let rem = scaled - floor;
    let mut q = floor as u64;
    if rem > 0.5 || (rem == 0.5 && q & 1 == 1) {
        q += 1;
    }
    // q counts ulps: q = 2^m .. 2^(m+1) for a normal (may carry to 2^(m+1)).
    let mut biased = if exp < min_exp { 0 } else { exp + bias };
    if biased == 0 && q >= 1 << m {
        biased = 1;
    }
    if q >= 1 << (m + 1) {
        q >>= 1;
        biased += 1;
    }
    if biased >= (1 << e) - 1 {
        return sign | inf;
    }
    let mant = (q as u16) & ((1 << m) - 1);
    sign | ((biased as u16) << m) | mant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding_matches_known_encodings() {
        // Encodings from the IEEE 754 binary16 and bfloat16 definitions.
        assert_eq!(round_f64(1.0, 5, 10), 0x3c00);
        assert_eq!(round_f64(-2.0, 5, 10), 0xc000);
        assert_eq!(round_f64(65504.0, 5, 10), 0x7bff);
        assert_eq!(round_f64(65520.0, 5, 10), 0x7c00, "rounds up to infinity");
        assert_eq!(round_f64(2f64.powi(-24), 5, 10), 0x0001, "smallest subnormal");
        assert_eq!(round_f64(2f64.powi(-14), 5, 10), 0x0400, "smallest normal");
        assert_eq!(round_f64(1.0 + 2f64.powi(-11), 5, 10), 0x3c00, "tie to even");
        assert_eq!(round_f64(1.0 + 3.0 * 2f64.powi(-11), 5, 10), 0x3c02, "tie to even, up");
        assert_eq!(round_f64(1.0, 8, 7), 0x3f80);
        assert_eq!(round_f64(f64::NAN, 5, 10) & 0x7e00, 0x7e00);
    }

    #[test]
    fn inverse_comparisons_are_involutions() {
        for &(c, _) in Cmp::ALL {
            assert_eq!(inverse_cmp(inverse_cmp(c)), c);
        }
        for c in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Lo, Cmp::Ls, Cmp::Hi, Cmp::Hs] {
            assert_eq!(inverse_int_cmp(inverse_int_cmp(c)), c);
        }
        assert_eq!(inverse_cmp(Cmp::Lt), Cmp::Geu);
        assert_eq!(inverse_int_cmp(Cmp::Lt), Cmp::Ge);
    }
}
