//! Per-lane instruction semantics: moves, loads and stores, integer and
//! floating-point arithmetic, comparisons, conversions, atomics.
//!
//! Register values are kept as raw 64-bit patterns; every operation reads
//! the width its type names (a 32-bit op ignores a register's upper bits)
//! and writes its result zero-extended (sign-extended where PTX says so:
//! loads and conversions to wider signed types).
//!
//! Floating point follows [`super::float`]: NaN results are the canonical
//! NaN of the format (0x7fffffff for f32), `.ftz` flushes subnormal inputs
//! and results to signed zero, `.sat` clamps to [0, 1] with NaN giving 0.
//! The `.approx` functions (sin, cos, lg2, ex2, tanh, rcp, sqrt, rsqrt,
//! div) are the host's f64 result rounded to nearest: they agree with the
//! GPU wherever its special-function unit is exact and can differ from it
//! by its documented error (a few ulp) elsewhere.

use super::exec::Lane;
use super::float::{self, Exact, Format, Mode};
use super::layout::{self, Space};
use super::lower::{f, opn, type_bytes, Imm, Inst, Opnd};
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::ptx::ast::{ScalarType, StateSpace, TypeKind};
use crate::ptx::modifier::{CmpOp, Rounding};
use crate::ptx::opcode::Opcode;

type R<T> = Result<T, InterpError>;

fn unsupported(inst: &Inst, what: &str) -> InterpError {
    InterpError::new(ErrorKind::Unsupported, format!("{} {what}", inst.op.name())).at(Site::Ptx(inst.span))
}

/// All ones in the low `bits` bits.
#[inline]
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

fn signed(t: ScalarType) -> bool {
    t.kind() == TypeKind::Signed
}

fn is_float(t: ScalarType) -> bool {
    t.kind() == TypeKind::Float
}

/// The rounding mode a modifier names (`None`: to nearest).
pub fn mode_of(r: Option<Rounding>) -> Mode {
    match r {
        Some(Rounding::Rz | Rounding::Rzi) => Mode::Zero,
        Some(Rounding::Rm | Rounding::Rmi) => Mode::Down,
        Some(Rounding::Rp | Rounding::Rpi) => Mode::Up,
        Some(Rounding::Rna) => Mode::NearestAway,
        _ => Mode::Nearest,
    }
}

/// A float type's format, lane count and lane width.
pub fn float_format(t: ScalarType) -> Option<(Format, u32, u32)> {
    Some(match t {
        ScalarType::F32 => (float::F32, 1, 32),
        ScalarType::F64 => (float::F64, 1, 64),
        ScalarType::F16 => (float::F16, 1, 16),
        ScalarType::Bf16 => (float::BF16, 1, 16),
        ScalarType::F16x2 => (float::F16, 2, 16),
        ScalarType::Bf16x2 => (float::BF16, 2, 16),
        ScalarType::F32x2 => (float::F32, 2, 32),
        ScalarType::E4m3 => (float::E4M3, 1, 8),
        ScalarType::E5m2 => (float::E5M2, 1, 8),
        ScalarType::E4m3x2 => (float::E4M3, 2, 8),
        ScalarType::E5m2x2 => (float::E5M2, 2, 8),
        _ => return None,
    })
}

/// Float operation flags.
#[derive(Clone, Copy)]
pub struct FOpts {
    /// Rounding.
    pub mode: Mode,
    /// Flush subnormals.
    pub ftz: bool,
    /// Clamp to [0, 1].
    pub sat: bool,
}

/// Applies `op` lane-wise over a float type's packed lanes.
pub fn fapply(ty: ScalarType, o: FOpts, srcs: &[u64], op: &dyn Fn(&[f64]) -> Exact) -> Option<u64> {
    let (fmt, n, w) = float_format(ty)?;
    let mut out = 0u64;
    for k in 0..n {
        let mut xs = [0f64; 3];
        let mut nan = false;
        for (i, s) in srcs.iter().enumerate().take(3) {
            let mut b = (s >> (k * w)) & mask(w);
            if o.ftz {
                b = fmt.flush(b);
            }
            nan |= fmt.is_nan(b);
            xs[i] = fmt.to_f64(b);
        }
        // `.sat` flushes a NaN result to +0.0 (PTX ISA, "Floating Point
        // Instructions": add, sub, mul, fma with `.sat`), a NaN operand's
        // included.
        let r = if nan && o.sat {
            0
        } else if nan {
            fmt.canonical_nan()
        } else {
            finish(fmt, o, op(&xs[..srcs.len()]))
        };
        out |= r << (k * w);
    }
    Some(out)
}

/// Rounds an exact result and applies NaN canonicalisation, `.ftz`, `.sat`.
pub fn finish(fmt: Format, o: FOpts, e: Exact) -> u64 {
    let mut r = if e.hi.is_nan() { fmt.canonical_nan() } else { e.round(fmt, o.mode) };
    if fmt.is_nan(r) {
        r = fmt.canonical_nan();
    }
    if o.ftz {
        r = fmt.flush(r);
    }
    if o.sat {
        r = saturate(fmt, r);
    }
    r
}

/// `.sat`: NaN → +0, below zero → +0, above one → 1.
pub fn saturate(fmt: Format, r: u64) -> u64 {
    let v = fmt.to_f64(r);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v > 1.0 {
        float::from_f64(1.0, fmt, Mode::Nearest)
    } else {
        r
    }
}

fn exact(x: f64) -> Exact {
    Exact::exact(x)
}

/// Executes one per-lane instruction.
pub fn exec(l: &mut Lane, inst: &Inst) -> R<()> {
    // The mixed-precision forms compute in their first type, f32 (their
    // last names the half operands).
    let ty = if is_mixed_f32(inst) { ScalarType::F32 } else { inst.ty() };
    let ops = &inst.ops;
    let op = |i: usize| ops.get(i).ok_or_else(|| InterpError::new(ErrorKind::Malformed, "missing operand").at(Site::Ptx(inst.span)));
    match inst.op {
        Opcode::Mov => return mov(l, inst),
        Opcode::Ld | Opcode::Ldu => return load(l, inst),
        // One device: `multimem` accesses are those of their address.
        Opcode::St | Opcode::MultimemSt => return store(l, inst),
        Opcode::Atom | Opcode::Red | Opcode::MultimemRed => return atomic(l, inst),
        Opcode::Cvt => return cvt(l, inst),
        Opcode::CvtPack => return cvt_pack(l, inst),
        Opcode::Setp | Opcode::Set => return setp(l, inst),
        Opcode::CpAsync => return cp_async(l, inst),
        Opcode::Tex => return tex(l, inst),
        Opcode::Suld | Opcode::Sust => return surface(l, inst),
        Opcode::Txq | Opcode::Suq => return header_query(l, inst),
        Opcode::Prefetch | Opcode::Prefetchu | Opcode::Membar | Opcode::Fence | Opcode::FenceProxyAlias | Opcode::FenceProxyAsync
        | Opcode::Nanosleep | Opcode::Pmevent | Opcode::Griddepcontrol | Opcode::Discard | Opcode::Applypriority
        | Opcode::CpAsyncCommitGroup | Opcode::CpAsyncWaitGroup | Opcode::CpAsyncWaitAll | Opcode::BarWarpSync => return Ok(()),
        Opcode::Createpolicy => return l.set(op(0)?, 0),
        Opcode::Cvta => {
            let a = l.get(op(1)?, ScalarType::U64)?;
            let space = match inst.space {
                Some(StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster) => Space::Shared,
                Some(StateSpace::Local) => Space::Local,
                Some(StateSpace::Const) => Space::Const,
                _ => Space::Global,
            };
            // Kernel parameter addresses are generic already.
            let w = layout::window(space);
            let v = if inst.has(f::TO) { a.wrapping_sub(w) } else { a.wrapping_add(w) };
            return l.set(op(0)?, v & mask(ty.bits()));
        }
        Opcode::Isspacep => {
            let a = l.get(op(1)?, ScalarType::U64)?;
            let (sp, _) = layout::classify(a);
            let want = match inst.space {
                Some(StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster) => Space::Shared,
                Some(StateSpace::Local) => Space::Local,
                Some(StateSpace::Const) => Space::Const,
                Some(StateSpace::Param | StateSpace::ParamEntry) => Space::Param,
                _ => Space::Global,
            };
            let v = sp == want && (want != Space::Global || l.mem.global.find(a).is_some());
            return l.set(op(0)?, v as u64);
        }
        _ => {}
    }
    // Generic n-ary: destination, then sources of the instruction type.
    let nsrc = ops.len().saturating_sub(1);
    let mut s = [0u64; 4];
    for i in 0..nsrc.min(4) {
        let t = src_type(inst, i);
        s[i] = l.get(&ops[i + 1], t)?;
    }
    // `add/sub.f32.{f16,bf16} d, a, c` and `fma.f32.{f16,bf16} d, a, b, c`:
    // the half sources widened to f32 (exactly) before the f32 operation.
    if is_mixed_f32(inst)
        && let Some((half_format, _, _)) = float_format(inst.ty_at(1))
    {
        let halves = if inst.op == Opcode::Fma { 2 } else { 1 };
        for v in s.iter_mut().take(halves) {
            *v = float::from_f64(half_format.to_f64(*v), float::F32, Mode::Nearest);
        }
    }
    let v = if is_float(ty) && !matches!(inst.op, Opcode::Selp | Opcode::Slct | Opcode::Mov | Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not) {
        float_op(inst, ty, &s, nsrc.min(4))?
    } else {
        int_op(l, inst, ty, &s)?
    };
    if inst.op == Opcode::Testp || (inst.op == Opcode::Selp && false) {
        return l.set(op(0)?, v);
    }
    l.set(op(0)?, v)
}

/// Whether `inst` is `add/sub.f32.{f16,bf16}` or `fma.f32.{f16,bf16}`.
fn is_mixed_f32(inst: &Inst) -> bool {
    matches!(inst.types[..], [ScalarType::F32, ScalarType::F16 | ScalarType::Bf16]) && matches!(inst.op, Opcode::Add | Opcode::Sub | Opcode::Fma)
}

/// The type a source operand is read as (immediates are converted to it).
fn src_type(inst: &Inst, i: usize) -> ScalarType {
    let ty = inst.ty();
    match inst.op {
        Opcode::Shl | Opcode::Shr | Opcode::Bfe | Opcode::Shf if i >= 1 => ScalarType::U32,
        // bfi.bN d, a, b, pos, len: b is the base value, of the
        // instruction's type; only pos and len are .u32.
        Opcode::Bfi if i >= 2 => ScalarType::U32,
        Opcode::Selp if i == 2 => ScalarType::Pred,
        Opcode::Slct if i == 2 => inst.ty(),
        Opcode::Slct => inst.ty_at(0),
        Opcode::Mad | Opcode::Madc if inst.has(f::WIDE) && i == 2 => double(ty),
        // The mixed-precision forms: the half operands (a; a and b of fma)
        // in the second type, the rest in f32.
        Opcode::Add | Opcode::Sub if is_mixed_f32(inst) => if i == 0 { inst.ty_at(1) } else { ScalarType::F32 },
        Opcode::Fma if is_mixed_f32(inst) => if i < 2 { inst.ty_at(1) } else { ScalarType::F32 },
        Opcode::Fma | Opcode::Mad if i == 2 && inst.types.len() > 1 => inst.ty_at(1),
        Opcode::Add | Opcode::Sub | Opcode::Mul if inst.types.len() > 1 => inst.ty_at(1),
        _ => ty,
    }
}

fn double(t: ScalarType) -> ScalarType {
    match t {
        ScalarType::U16 => ScalarType::U32,
        ScalarType::S16 => ScalarType::S32,
        ScalarType::U32 => ScalarType::U64,
        ScalarType::S32 => ScalarType::S64,
        ScalarType::F32 => ScalarType::F64,
        other => other,
    }
}

fn fopts(inst: &Inst) -> FOpts {
    FOpts { mode: mode_of(inst.rnd), ftz: inst.ftz, sat: inst.sat }
}

/// The NaN results of ptxas's f64 division, reciprocal and square-root
/// routines (IEEE, not `.approx`), where PTX leaves the NaN's bits open
/// but a program can store them: `None` where the result is not a NaN of
/// the routine's own (the ordinary path computes it). Measured with
/// ptxas 13.5's code for sm_75, sm_90 and sm_120 (identical):
/// * an invalid quotient (0/0, ±inf/±inf) and the root of a negative
///   value (-inf included, -0 excluded) are 0xfff8000000000000, a
///   constant in the routines;
/// * a NaN operand comes back quieted (bit 51 set), sign and payload
///   kept: the dividend's first, then the divisor's; for `sqrt.rn` the
///   hardware's canonical NaN instead (its code computes `x + x`).
fn f64_routine_special(inst: &Inst, ty: ScalarType, mode: Mode, s: &[u64]) -> Option<u64> {
    if ty != ScalarType::F64 || inst.has(f::APPROX) {
        return None;
    }
    const INVALID: u64 = 0xfff8_0000_0000_0000;
    let fmt = float::F64;
    let quiet = |b: u64| b | 1 << 51;
    let (inf, zero) = (|b: u64| b << 1 == 0xffe0_0000_0000_0000, |b: u64| b << 1 == 0);
    match inst.op {
        Opcode::Div => {
            let (a, b) = (*s.first()?, *s.get(1)?);
            if fmt.is_nan(a) {
                Some(quiet(a))
            } else if fmt.is_nan(b) {
                Some(quiet(b))
            } else if (zero(a) && zero(b)) || (inf(a) && inf(b)) {
                Some(INVALID)
            } else {
                None
            }
        }
        Opcode::Rcp => s.first().filter(|&&a| fmt.is_nan(a)).map(|&a| quiet(a)),
        Opcode::Sqrt => {
            let a = *s.first()?;
            if fmt.is_nan(a) {
                (mode != Mode::Nearest).then(|| quiet(a))
            } else if a >> 63 == 1 && !zero(a) {
                Some(INVALID)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn float_op(inst: &Inst, ty: ScalarType, all: &[u64; 4], n: usize) -> R<u64> {
    let s = &all[..n];
    let o = fopts(inst);
    let (fmt, _, _) = float_format(ty).ok_or_else(|| unsupported(inst, &format!("on {}", ty.spelling())))?;
    // Computed once: a cheap None for everything but f64 div/rcp/sqrt.
    let special = f64_routine_special(inst, ty, o.mode, s);
    let r = match inst.op {
        _ if special.is_some() => special,
        Opcode::Add => fapply(ty, o, s, &|x| float::add(x[0], x[1])),
        Opcode::Sub => fapply(ty, o, s, &|x| float::add(x[0], -x[1])),
        Opcode::Mul => fapply(ty, o, s, &|x| float::mul(x[0], x[1])),
        Opcode::Fma | Opcode::Mad => {
            let r = fapply(ty, FOpts { sat: false, ..o }, s, &|x| float::fma(x[0], x[1], x[2]));
            r.map(|v| if inst.has(f::RELU) { relu(ty, v) } else if o.sat { sat_lanes(ty, v) } else { v })
        }
        Opcode::Div => {
            if inst.has(f::APPROX) || inst.has(f::FULL) {
                fapply(ty, FOpts { mode: Mode::Nearest, ..o }, s, &|x| exact(x[0] / x[1]))
            } else {
                fapply(ty, o, s, &|x| float::div(x[0], x[1]))
            }
        }
        Opcode::Rcp => {
            if inst.has(f::APPROX) {
                fapply(ty, FOpts { mode: Mode::Nearest, ..o }, s, &|x| exact(1.0 / x[0]))
            } else {
                fapply(ty, o, s, &|x| float::div(1.0, x[0]))
            }
        }
        Opcode::Sqrt => {
            if inst.has(f::APPROX) {
                fapply(ty, FOpts { mode: Mode::Nearest, ..o }, s, &|x| exact(x[0].sqrt()))
            } else {
                fapply(ty, o, s, &|x| float::sqrt(x[0]))
            }
        }
        Opcode::Rsqrt => fapply(ty, o, s, &|x| exact(1.0 / x[0].sqrt())),
        Opcode::Sin => fapply(ty, o, s, &|x| exact(x[0].sin())),
        Opcode::Cos => fapply(ty, o, s, &|x| exact(x[0].cos())),
        Opcode::Lg2 => fapply(ty, o, s, &|x| exact(x[0].log2())),
        Opcode::Ex2 => fapply(ty, o, s, &|x| exact(x[0].exp2())),
        Opcode::Tanh => fapply(ty, o, s, &|x| exact(x[0].tanh())),
        Opcode::Abs | Opcode::Neg => {
            let (_, n, w) = float_format(ty).unwrap_or((fmt, 1, 32));
            let mut out = 0;
            for k in 0..n {
                let mut b = (all[0] >> (k * w)) & mask(w);
                if o.ftz {
                    b = fmt.flush(b);
                }
                // PTX leaves the NaN open; the GPU's FADD/HADD2/DADD forms
                // that ptxas and ptx2sass select give the canonical one, for
                // f16 and f64 as for f32 (both cubins agree on 0x7fff for
                // abs.f16 of 0x7ef3 and on 0x7fffffffffffffff for abs.f64 of
                // 0xfff8000000000000 in the differential fuzzer, seed
                // 9101230: `DADD R6, -RZ, |R2|`), so the interpreter does
                // too: registers are also read as integers.
                if fmt.is_nan(b) && matches!(ty, ScalarType::F32 | ScalarType::F16 | ScalarType::F64) {
                    b = fmt.canonical_nan();
                } else if inst.op == Opcode::Abs {
                    b &= !fmt.sign_bit();
                } else {
                    b ^= fmt.sign_bit();
                }
                out |= b << (k * w);
            }
            Some(out)
        }
        Opcode::Min | Opcode::Max => Some(minmax(inst, ty, all)),
        Opcode::Copysign => {
            let sb = fmt.sign_bit();
            Some((all[1] & !sb) | (all[0] & sb))
        }
        Opcode::Testp => {
            let b = all[0];
            let v = fmt.to_f64(b);
            let r = if inst.has(f::FINITE) {
                v.is_finite()
            } else if inst.has(f::INFINITE) {
                v.is_infinite()
            } else if inst.has(f::NUMBER) {
                !v.is_nan()
            } else if inst.has(f::NOTANUMBER) {
                v.is_nan()
            } else if inst.has(f::NORMAL) {
                // "As a special case, positive and negative zero are
                // considered normal numbers" (PTX ISA, testp).
                v.is_finite() && !fmt.is_subnormal(b)
            } else if inst.has(f::SUBNORMAL) {
                fmt.is_subnormal(b)
            } else {
                false
            };
            Some(r as u64)
        }
        _ => None,
    };
    r.ok_or_else(|| unsupported(inst, &format!("on {}", ty.spelling())))
}

fn relu(ty: ScalarType, v: u64) -> u64 {
    let Some((fmt, n, w)) = float_format(ty) else { return v };
    let mut out = 0;
    for k in 0..n {
        let b = (v >> (k * w)) & mask(w);
        let r = if fmt.is_nan(b) {
            fmt.canonical_nan()
        } else if b & fmt.sign_bit() != 0 {
            0
        } else {
            b
        };
        out |= r << (k * w);
    }
    out
}

fn sat_lanes(ty: ScalarType, v: u64) -> u64 {
    let Some((fmt, n, w)) = float_format(ty) else { return v };
    let mut out = 0;
    for k in 0..n {
        out |= saturate(fmt, (v >> (k * w)) & mask(w)) << (k * w);
    }
    out
}

/// Float min/max: one NaN input gives the other input, both give the
/// canonical NaN (f64: the second input made quiet, see below); `.NaN`
/// makes any NaN input give the canonical NaN; −0 is
/// less than +0; `.xorsign.abs` compares magnitudes and gives the result
/// the XOR of the input signs; `.relu` clamps negative results to +0.
fn minmax(inst: &Inst, ty: ScalarType, s: &[u64]) -> u64 {
    let Some((fmt, n, w)) = float_format(ty) else { return 0 };
    let is_min = inst.op == Opcode::Min;
    let mut out = 0;
    for k in 0..n {
        let mut a = (s[0] >> (k * w)) & mask(w);
        let mut b = (s[1] >> (k * w)) & mask(w);
        if inst.ftz {
            a = fmt.flush(a);
            b = fmt.flush(b);
        }
        let xs = inst.has(f::XORSIGN);
        let sign = (a ^ b) & fmt.sign_bit();
        if xs {
            a &= !fmt.sign_bit();
            b &= !fmt.sign_bit();
        }
        let (an, bn) = (fmt.is_nan(a), fmt.is_nan(b));
        let mut r = if an && bn && w == 64 && !inst.has(f::NAN) {
            // PTX gives a NaN; ptxas's code (DSETP.MIN/.MAX, then `@P
            // LOP3.LUT hi, b.hi, 0x80000`) gives b made quiet, not the
            // canonical NaN, and so does ours.
            b | 1 << 51
        } else if an && bn || (inst.has(f::NAN) && (an || bn)) {
            fmt.canonical_nan()
        } else if an {
            b
        } else if bn {
            a
        } else {
            let (x, y) = (fmt.to_f64(a), fmt.to_f64(b));
            let pick_a = if x == y {
                // -0 vs +0: min takes the negative one.
                let a_neg = a & fmt.sign_bit() != 0;
                if is_min {
                    a_neg
                } else {
                    !a_neg
                }
            } else if is_min {
                x < y
            } else {
                x > y
            };
            if pick_a {
                a
            } else {
                b
            }
        };
        if xs && !fmt.is_nan(r) {
            r |= sign;
        }
        if inst.has(f::RELU) && !fmt.is_nan(r) && r & fmt.sign_bit() != 0 {
            r = 0;
        }
        out |= r << (k * w);
    }
    out
}

fn int_op(l: &mut Lane, inst: &Inst, ty: ScalarType, s: &[u64; 4]) -> R<u64> {
    // `add/min/max` of two 16-bit lanes (`.relu`: a negative lane 0).
    if matches!(ty, ScalarType::U16x2 | ScalarType::S16x2) && matches!(inst.op, Opcode::Add | Opcode::Min | Opcode::Max) {
        let lane = |v: u64, k: u32| -> i64 {
            let h = (v >> (16 * k)) & 0xffff;
            if ty == ScalarType::S16x2 { sext(h, 16) } else { h as i64 }
        };
        let mut out = 0u64;
        for k in 0..2 {
            let (x, y) = (lane(s[0], k), lane(s[1], k));
            let r = match inst.op {
                Opcode::Add => x + y,
                Opcode::Min => x.min(y),
                _ => x.max(y),
            };
            let r = if inst.has(f::RELU) { r.max(0) } else { r };
            out |= ((r as u64) & 0xffff) << (16 * k);
        }
        return Ok(out);
    }
    if matches!(ty, ScalarType::U16x2 | ScalarType::S16x2 | ScalarType::U8x4 | ScalarType::S8x4 | ScalarType::B128) {
        return Err(unsupported(inst, &format!("on {}", ty.spelling())));
    }
    let bits = ty.bits().min(64);
    let m = mask(bits);
    let sg = signed(ty);
    let (a, b, c) = (s[0] & m, s[1] & m, s[2]);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let sat_s32 = |v: i64| -> u64 { (v.clamp(i32::MIN as i64, i32::MAX as i64) as u64) & m };
    Ok(match inst.op {
        Opcode::Add | Opcode::Addc => {
            let cin = if inst.op == Opcode::Addc { l.t.cc & 1 } else { 0 };
            if inst.sat && ty == ScalarType::S32 {
                sat_s32(sa + sb)
            } else {
                let full = (a as u128) + (b as u128) + cin as u128;
                if inst.has(f::CC) {
                    l.t.cc = ((full >> bits) & 1) as u64;
                }
                (full as u64) & m
            }
        }
        Opcode::Sub | Opcode::Subc => {
            // The GPU subtracts as a + !b + carry-in (1 for `sub`), so the
            // carry flag afterwards is "no borrow", as the hardware leaves it.
            let cin = if inst.op == Opcode::Subc { l.t.cc & 1 } else { 1 };
            if inst.sat && ty == ScalarType::S32 {
                sat_s32(sa - sb)
            } else {
                let full = (a as u128) + ((!b & m) as u128) + cin as u128;
                if inst.has(f::CC) {
                    l.t.cc = ((full >> bits) & 1) as u64;
                }
                (full as u64) & m
            }
        }
        Opcode::Mul | Opcode::Mad | Opcode::Madc => {
            let wide = inst.has(f::WIDE);
            // The full product fits in 128 bits either way.
            let ps = (sa as i128).wrapping_mul(sb as i128);
            let pu = (a as u128).wrapping_mul(b as u128);
            let p: u128 = if sg { ps as u128 } else { pu };
            let r: u128 = if wide {
                p & mask(2 * bits) as u128
            } else if inst.has(f::HI) {
                (if sg { (ps >> bits) as u128 } else { pu >> bits }) & m as u128
            } else {
                p & m as u128
            };
            if inst.op == Opcode::Mul {
                r as u64
            } else {
                let rbits = if wide { 2 * bits } else { bits };
                let rm = mask(rbits);
                let cin = if inst.op == Opcode::Madc { l.t.cc & 1 } else { 0 };
                if inst.sat && ty == ScalarType::S32 && inst.has(f::HI) {
                    sat_s32(sext(r as u64, 32) + sext(c, 32))
                } else {
                    let full = (r & rm as u128) + (c & rm) as u128 + cin as u128;
                    if inst.has(f::CC) {
                        l.t.cc = ((full >> rbits) & 1) as u64;
                    }
                    (full as u64) & rm
                }
            }
        }
        Opcode::Mul24 | Opcode::Mad24 => {
            let (x, y) = if sg { (sext(a, 24) as i128, sext(b, 24) as i128) } else { ((a & 0xff_ffff) as i128, (b & 0xff_ffff) as i128) };
            let p = x * y;
            let r = if inst.has(f::HI) { ((p >> 16) as u64) & 0xffff_ffff } else { (p as u64) & 0xffff_ffff };
            if inst.op == Opcode::Mad24 {
                r.wrapping_add(c) & 0xffff_ffff
            } else {
                r
            }
        }
        Opcode::Sad => {
            let d = if sg { ((sa as i128 - sb as i128).unsigned_abs()) as u64 } else { a.abs_diff(b) };
            d.wrapping_add(c) & m
        }
        Opcode::Div => {
            if b == 0 {
                m
            } else if sg {
                (sa.wrapping_div(sb) as u64) & m
            } else {
                a / b
            }
        }
        Opcode::Rem => {
            if b == 0 {
                a
            } else if sg {
                (sa.wrapping_rem(sb) as u64) & m
            } else {
                a % b
            }
        }
        Opcode::Abs => (sa.wrapping_abs() as u64) & m,
        Opcode::Neg => (sa.wrapping_neg() as u64) & m,
        Opcode::Min | Opcode::Max => {
            let pick_a = if sg { (sa < sb) == (inst.op == Opcode::Min) } else { (a < b) == (inst.op == Opcode::Min) };
            let r = if (sg && sa == sb) || (!sg && a == b) || pick_a { a } else { b };
            if inst.has(f::RELU) && sg && sext(r, bits) < 0 {
                0
            } else {
                r
            }
        }
        Opcode::Popc => a.count_ones() as u64,
        Opcode::Clz => (a.leading_zeros() - (64 - bits)) as u64,
        Opcode::Bfind => {
            let v = if sg && sa < 0 { !a & m } else { a };
            if v == 0 {
                0xffff_ffff
            } else {
                let msb = 63 - v.leading_zeros() as u64;
                if inst.has(f::SHIFTAMT) {
                    (bits as u64 - 1) - msb
                } else {
                    msb
                }
            }
        }
        Opcode::Brev => a.reverse_bits() >> (64 - bits),
        Opcode::Bfe => {
            let pos = (s[1] & 0xff) as u32;
            let len = (s[2] & 0xff) as u32;
            // PTX ISA, bfe: d[i] = a[pos+i] for i < len while pos+i is a
            // bit of a, the sign bit (0 for .u) above: the field is the
            // `kept` bits a holds, not always `len`.
            let kept = if pos >= bits { 0 } else { len.min(bits - pos) };
            let field = if kept == 0 { 0 } else { (a >> pos) & mask(kept) };
            // Sign bit: bit pos+len-1 of a (or a's msb when past it).
            let sbit = if sg && len > 0 { (a >> (pos + len - 1).min(bits - 1)) & 1 } else { 0 };
            if sbit == 1 && kept < bits {
                (field | !mask(kept)) & m
            } else {
                field & m
            }
        }
        Opcode::Bfi => {
            let pos = (s[2] & 0xff) as u32;
            let len = (s[3] & 0xff) as u32;
            if pos >= bits || len == 0 {
                b
            } else {
                let fm = mask(len.min(bits)) << pos & m;
                (b & !fm) | ((a << pos) & fm)
            }
        }
        Opcode::Bmsk => {
            let (pos, width) = (a as u32, b as u32);
            let (pos, width) = if inst.has(f::WRAP) { (pos & 31, width & 31) } else { (pos.min(32), width.min(32)) };
            (mask(width) << pos) & 0xffff_ffff
        }
        Opcode::Szext => {
            let pos = if inst.has(f::WRAP) { (b & 31) as u32 } else { (b as u32).min(32) };
            if pos == 0 {
                0
            } else if sg {
                (sext(a, pos) as u64) & 0xffff_ffff
            } else {
                a & mask(pos)
            }
        }
        Opcode::Fns => {
            // Find the n-th set bit of mask a starting at base b (u32), offset c (s32).
            let (msk, base, off) = (a as u32, (b as u32), sext(c, 32));
            fns(msk, base, off as i32) as u64
        }
        Opcode::Dp4a | Opcode::Dp2a => {
            let (ta, tb) = (inst.ty_at(0), inst.ty_at(1));
            let (sa_, sb_) = (signed(ta), signed(tb));
            let byte = |v: u64, k: u32, s: bool| -> i64 { if s { sext(v >> (8 * k), 8) } else { ((v >> (8 * k)) & 0xff) as i64 } };
            let half = |v: u64, k: u32, s: bool| -> i64 { if s { sext(v >> (16 * k), 16) } else { ((v >> (16 * k)) & 0xffff) as i64 } };
            let acc = if sa_ || sb_ { sext(c, 32) } else { (c & 0xffff_ffff) as i64 };
            let mut sum: i64 = 0;
            if inst.op == Opcode::Dp4a {
                for k in 0..4 {
                    sum += byte(a, k, sa_) * byte(b, k, sb_);
                }
            } else {
                let hi = inst.has(f::HI);
                for k in 0..2 {
                    sum += half(a, k, sa_) * byte(b, k + if hi { 2 } else { 0 }, sb_);
                }
            }
            (sum.wrapping_add(acc) as u64) & 0xffff_ffff
        }
        Opcode::And => s[0] & s[1] & m,
        Opcode::Or => (s[0] | s[1]) & m,
        Opcode::Xor => (s[0] ^ s[1]) & m,
        Opcode::Not => if ty == ScalarType::Pred { (s[0] & 1) ^ 1 } else { !s[0] & m },
        Opcode::Cnot => (a == 0) as u64,
        Opcode::Lop3 => {
            let lut = s[3] as u8;
            let (x, y, z) = (s[0], s[1], s[2]);
            let mut r = 0u64;
            for bit in 0..bits {
                let idx = (((x >> bit) & 1) << 2) | (((y >> bit) & 1) << 1) | ((z >> bit) & 1);
                r |= (((lut >> idx) & 1) as u64) << bit;
            }
            r
        }
        Opcode::Shl => {
            let n = (s[1] & 0xffff_ffff) as u32;
            if n >= bits {
                0
            } else {
                (a << n) & m
            }
        }
        Opcode::Shr => {
            let n = (s[1] & 0xffff_ffff) as u32;
            if sg {
                ((sa >> n.min(bits - 1).min(63)) as u64) & m
            } else if n >= bits {
                0
            } else {
                a >> n
            }
        }
        Opcode::Shf => {
            let n = (s[2] & 0xffff_ffff) as u32;
            let n = if inst.has(f::WRAP) { n & 31 } else { n.min(32) };
            let wide = ((s[1] & 0xffff_ffff) << 32) | (s[0] & 0xffff_ffff);
            if inst.has(f::L) {
                ((wide << n) >> 32) & 0xffff_ffff
            } else {
                (wide >> n) & 0xffff_ffff
            }
        }
        Opcode::Prmt => prmt(inst, s[0] as u32, s[1] as u32, s[2] as u32) as u64,
        Opcode::Selp => {
            if s[2] & 1 != 0 {
                s[0]
            } else {
                s[1]
            }
        }
        Opcode::Slct => {
            let ct = inst.ty();
            let pos = if ct == ScalarType::F32 {
                let v = f32::from_bits(s[2] as u32);
                let v = if inst.ftz && float::F32.is_subnormal(s[2] & 0xffff_ffff) { 0.0 } else { v };
                v >= 0.0
            } else {
                sext(s[2], 32) >= 0
            };
            if pos {
                s[0]
            } else {
                s[1]
            }
        }
        op if super::video::handles(op) => super::video::eval(inst, s)?,
        Opcode::Testp | Opcode::Copysign => return Err(unsupported(inst, "on an integer type")),
        _ => return Err(unsupported(inst, "is not modelled by the interpreter")),
    })
}

fn fns(mask_: u32, base: u32, offset: i32) -> u32 {
    if base >= 32 {
        return 0xffff_ffff;
    }
    // The base bit itself, where it is set (PTX ISA, "fns").
    if offset == 0 {
        return if mask_ >> base & 1 == 1 { base } else { 0xffff_ffff };
    }
    let mut n = offset;
    if n > 0 {
        let mut pos = base as i32;
        loop {
            if pos > 31 {
                return 0xffff_ffff;
            }
            if mask_ >> pos & 1 == 1 {
                n -= 1;
                if n == 0 {
                    return pos as u32;
                }
            }
            pos += 1;
        }
    } else {
        let mut pos = base as i32;
        loop {
            if pos < 0 {
                return 0xffff_ffff;
            }
            if mask_ >> pos & 1 == 1 {
                n += 1;
                if n == 0 {
                    return pos as u32;
                }
            }
            pos -= 1;
        }
    }
}

fn prmt(inst: &Inst, a: u32, b: u32, c: u32) -> u32 {
    let bytes = ((b as u64) << 32 | a as u64).to_le_bytes();
    let pick = |sel: u32| -> u8 {
        let byte = bytes[(sel & 7) as usize];
        if sel & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        }
    };
    let mode_sel = |idx: [u32; 4]| -> u32 { idx.iter().enumerate().map(|(k, &i)| (bytes[(i & 7) as usize] as u32) << (8 * k)).sum() };
    let n = c & 3;
    if inst.has(f::F4E) {
        mode_sel([n, n + 1, n + 2, n + 3])
    } else if inst.has(f::B4E) {
        let s = |k: u32| (n + 8 - k) & 7;
        mode_sel([s(0), s(1), s(2), s(3)])
    } else if inst.has(f::RC8) {
        mode_sel([n, n, n, n])
    } else if inst.has(f::ECL) {
        let s = [n, n.max(1), n.max(2), n.max(3)];
        mode_sel(s)
    } else if inst.has(f::ECR) {
        mode_sel([0, n.min(1), n.min(2), n])
    } else if inst.has(f::RC16) {
        let k = (c & 1) * 2;
        mode_sel([k, k + 1, k, k + 1])
    } else {
        (0..4).map(|k| (pick((c >> (4 * k)) & 0xf) as u32) << (8 * k)).sum()
    }
}

fn setp(l: &mut Lane, inst: &Inst) -> R<()> {
    // setp: d[|q], a, b [, c]; set: d, a, b [, c].
    let st = if inst.op == Opcode::Set { inst.ty_at(1) } else { inst.ty() };
    let (a, b) = (l.get(opn(inst, 1)?, st)?, l.get(inst.ops.get(2).unwrap_or(&Opnd::Sink), st)?);
    let c = match inst.ops.get(3) {
        Some(o) => Some(l.get(o, ScalarType::Pred)? & 1 != 0),
        None => None,
    };
    let cmp = inst.cmp.unwrap_or(CmpOp::Eq);
    let combine = |t: bool| -> bool {
        match c {
            None => t,
            Some(c) => {
                if inst.has(f::AND) {
                    t && c
                } else if inst.has(f::OR) {
                    t || c
                } else if inst.has(f::XOR) {
                    t ^ c
                } else {
                    t
                }
            }
        }
    };
    let lanes: Vec<bool> = match float_format(st) {
        Some((fmt, n, w)) => (0..n)
            .map(|k| {
                let mut x = (a >> (k * w)) & mask(w);
                let mut y = (b >> (k * w)) & mask(w);
                if inst.ftz {
                    x = fmt.flush(x);
                    y = fmt.flush(y);
                }
                fcmp(cmp, fmt.to_f64(x), fmt.to_f64(y))
            })
            .collect(),
        None => {
            let bits = st.bits().min(64);
            let (ua, ub) = (a & mask(bits), b & mask(bits));
            let (sa, sb) = (sext(ua, bits), sext(ub, bits));
            let sg = signed(st);
            vec![match cmp {
                CmpOp::Eq => ua == ub,
                CmpOp::Ne => ua != ub,
                CmpOp::Lt => if sg { sa < sb } else { ua < ub },
                CmpOp::Le => if sg { sa <= sb } else { ua <= ub },
                CmpOp::Gt => if sg { sa > sb } else { ua > ub },
                CmpOp::Ge => if sg { sa >= sb } else { ua >= ub },
                CmpOp::Lo => ua < ub,
                CmpOp::Ls => ua <= ub,
                CmpOp::Hi => ua > ub,
                CmpOp::Hs => ua >= ub,
                _ => false,
            }]
        }
    };
    if inst.op == Opcode::Setp {
        let t = combine(lanes[0]);
        match opn(inst, 0)? {
            Opnd::PredPair(p, q) => {
                l.set_reg(*p, t as u64);
                // Packed halves: p the low, q the high half's result;
                // scalars: q the complement.
                let nq = if lanes.len() == 2 { combine(lanes[1]) } else { combine(!lanes[0]) };
                l.set_reg(*q, nq as u64);
            }
            o => {
                if lanes.len() == 2 {
                    // setp on f16x2 writes two predicates: p for the low half... handled as pair only.
                    l.set(o, t as u64)?;
                } else {
                    l.set(o, t as u64)?;
                }
            }
        }
        return Ok(());
    }
    // set.cmp.dtype.stype: all ones / 1.0 per result lane.
    let dt = inst.ty_at(0);
    let one = |t: ScalarType| -> u64 {
        match t {
            ScalarType::F32 => 0x3f80_0000,
            ScalarType::F16 | ScalarType::F16x2 => 0x3c00,
            ScalarType::Bf16 | ScalarType::Bf16x2 => 0x3f80,
            _ => u64::MAX,
        }
    };
    let v = if lanes.len() == 2 {
        let w = 16;
        let mut out = 0;
        for (k, &t) in lanes.iter().enumerate() {
            if combine(t) {
                out |= (one(dt) & mask(w)) << (k as u32 * w);
            }
        }
        out
    } else if combine(lanes[0]) {
        one(dt) & mask(dt.bits())
    } else {
        0
    };
    l.set(opn(inst, 0)?, v)
}

fn fcmp(cmp: CmpOp, x: f64, y: f64) -> bool {
    let un = x.is_nan() || y.is_nan();
    match cmp {
        CmpOp::Eq => !un && x == y,
        CmpOp::Ne => !un && x != y,
        CmpOp::Lt => !un && x < y,
        CmpOp::Le => !un && x <= y,
        CmpOp::Gt => !un && x > y,
        CmpOp::Ge => !un && x >= y,
        CmpOp::Equ => un || x == y,
        CmpOp::Neu => un || x != y,
        CmpOp::Ltu => un || x < y,
        CmpOp::Leu => un || x <= y,
        CmpOp::Gtu => un || x > y,
        CmpOp::Geu => un || x >= y,
        CmpOp::Num => !un,
        CmpOp::Nan => un,
        _ => false,
    }
}

fn mov(l: &mut Lane, inst: &Inst) -> R<()> {
    let ty = inst.ty();
    let (d, s) = (opn(inst, 0)?, inst.ops.get(1).unwrap_or(&Opnd::Sink));
    match (d, s) {
        (Opnd::Vec(ds), Opnd::Vec(ss)) => {
            let vals: Vec<u64> = ss.iter().map(|x| l.get(x, ty)).collect::<R<_>>()?;
            for (dd, v) in ds.iter().zip(vals) {
                l.set(dd, v & mask(ty.bits()))?;
            }
            Ok(())
        }
        (Opnd::Vec(ds), _) => {
            let v = l.get(s, ty)?;
            let n = ds.len().max(1) as u32;
            let w = ty.bits() / n;
            for (k, dd) in ds.iter().enumerate() {
                l.set(dd, v.checked_shr(w * k as u32).unwrap_or(0) & mask(w))?;
            }
            Ok(())
        }
        _ => {
            let v = l.get(s, ty)?;
            let v = if ty == ScalarType::Pred { v & 1 } else { v & mask(ty.bits()) };
            l.set(d, v)
        }
    }
}

/// Register value of a loaded element: sign-extended for signed types.
fn extend(v: u64, t: ScalarType) -> u64 {
    if signed(t) {
        sext(v, t.bits()) as u64
    } else {
        v
    }
}

fn load(l: &mut Lane, inst: &Inst) -> R<()> {
    let ty = inst.ty();
    let es = type_bytes(ty) as usize;
    let n = inst.vec.max(1) as usize;
    let (space, addr) = l.address(opn(inst, 1)?, inst.space)?;
    let total = es * n;
    // Up to 8 elements of up to 8 bytes: no allocation per load.
    let mut vals = [0u64; 8];
    {
        let bytes = l.read_slice(space, addr, total, total.min(16) as u64)?;
        for (k, v) in vals.iter_mut().enumerate().take(n.min(8)) {
            *v = extend(crate::interp::memory::le_u64(bytes.get(k * es..(k + 1) * es).unwrap_or(&[])), ty);
        }
    }
    match opn(inst, 0)? {
        Opnd::Vec(ds) => {
            for (d, v) in ds.iter().zip(vals).take(n) {
                l.set(d, v)?;
            }
        }
        d => l.set(d, vals[0])?,
    }
    Ok(())
}

fn store(l: &mut Lane, inst: &Inst) -> R<()> {
    let ty = inst.ty();
    let es = type_bytes(ty) as usize;
    let n = inst.vec.max(1) as usize;
    let (space, addr) = l.address(opn(inst, 0)?, inst.space)?;
    let mut bytes: smallvec::SmallVec<[u8; 64]> = smallvec::SmallVec::new();
    match inst.ops.get(1) {
        Some(Opnd::Vec(ss)) => {
            for s in ss.iter().take(n) {
                let v = l.get(s, ty)?;
                bytes.extend_from_slice(&v.to_le_bytes()[..es.min(8)]);
            }
        }
        Some(s) => {
            let v = l.get(s, ty)?;
            bytes.extend_from_slice(&v.to_le_bytes()[..es.min(8)]);
        }
        None => return Err(unsupported(inst, "without a source")),
    }
    bytes.resize(es * n, 0);
    let total = bytes.len();
    l.write(space, addr, &bytes, total.min(16) as u64)
}

/// `tex.{1d,2d,3d}.v4.dtype.ctype {d0..d3}, [t, {c..}]`: the four words
/// of the texel the coordinates name in the texture whose handle the
/// texref variable or the texture-object register holds (point sampling:
/// [`crate::interp::launch::Texture::fetch`]).
fn tex(l: &mut Lane, inst: &Inst) -> R<()> {
    let bad = || InterpError::new(ErrorKind::Malformed, "tex operands").at(Site::Ptx(inst.span));
    let (Some(Opnd::Vec(dests)), Some(Opnd::List(src))) = (inst.ops.first(), inst.ops.get(1)) else { return Err(bad()) };
    let (Some(handle), Some(Opnd::Vec(coords))) = (src.first(), src.get(1)) else { return Err(bad()) };
    let dim = if inst.has(f::_3D) { 3 } else if inst.has(f::_2D) { 2 } else { 1 };
    let int_coords = inst.types.get(1) == Some(&ScalarType::S32);
    let h = match handle {
        Opnd::Var(..) => {
            let (space, at) = l.address(handle, None)?;
            let bytes = l.read(space, at, 4, 4)?;
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
        }
        other => l.get(other, ScalarType::U64)? as u32,
    };
    let mut c = Vec::with_capacity(dim);
    for o in coords.iter().take(dim) {
        c.push(l.get(o, ScalarType::B32)? as u32);
    }
    let texel = match l.mem.textures.iter().find(|t| t.spec.handle == h) {
        Some(t) => t.fetch(&c, int_coords),
        None => return Err(InterpError::new(ErrorKind::Launch, format!("no texture is bound to handle {h:#x} (the launch spec's \"textures\")")).at(Site::Ptx(inst.span))),
    };
    for (d, v) in dests.iter().zip(texel) {
        if !matches!(d, Opnd::Sink) {
            l.set(d, u64::from(v))?;
        }
    }
    Ok(())
}

/// The 32-bit handle a texture or surface operand names: a reference's
/// variable holds it (the launch writes it there), a register the object.
fn handle_of(l: &mut Lane, o: &Opnd) -> R<u32> {
    let var = match o {
        Opnd::Var(v, 0) | Opnd::Addr(super::lower::Base::Var(v), 0) => Some(Opnd::Var(*v, 0)),
        _ => None,
    };
    match (var, o) {
        (Some(v), _) => {
            let (space, at) = l.address(&v, None)?;
            let bytes = l.read(space, at, 4, 4)?;
            Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        }
        (None, Opnd::Addr(super::lower::Base::Reg(r), 0)) => Ok(l.get(&Opnd::Reg(*r), ScalarType::U64)? as u32),
        (None, other) => Ok(l.get(other, ScalarType::U64)? as u32),
    }
}

/// `suld.b` / `sust.b` (raw, x in bytes) as the PTX ISA defines them: the
/// elements' bytes at (x, y, z or the layer) of the bound surface; out of
/// bounds `.trap` faults, `.zero` loads zero and drops a store, `.clamp`
/// accesses the nearest element. The same rules as the SASS
/// interpreter's SULD/SUST.
fn surface(l: &mut Lane, inst: &Inst) -> R<()> {
    let at_site = |e: InterpError| e.at(Site::Ptx(inst.span));
    let bad = || InterpError::new(ErrorKind::Malformed, "surface operands").at(Site::Ptx(inst.span));
    let store = inst.op == Opcode::Sust;
    if !inst.has(f::B) {
        return Err(InterpError::new(ErrorKind::Unsupported, "formatted (.p) surface accesses").at(Site::Ptx(inst.span)));
    }
    let (target, data) = if store { (inst.ops.first(), inst.ops.get(1)) } else { (inst.ops.get(1), inst.ops.first()) };
    let (Some(Opnd::List(target)), Some(data)) = (target, data) else { return Err(bad()) };
    let (Some(handle), Some(coords)) = (target.first(), target.get(1)) else { return Err(bad()) };
    let coords: Vec<Opnd> = match coords {
        Opnd::Vec(v) => v.clone(),
        other => vec![other.clone()],
    };
    let elems: Vec<Opnd> = match data {
        Opnd::Vec(v) => v.clone(),
        other => vec![other.clone()],
    };
    let h = handle_of(l, handle)?;
    let mut c = [0i64; 4];
    for (k, o) in coords.iter().take(4).enumerate() {
        c[k] = i64::from(l.get(o, ScalarType::B32)? as u32 as i32);
    }
    // PTX order: arrays name the layer first.
    let (x, y, z) = if inst.has(f::A1D) {
        (c[1], 0, c[0])
    } else if inst.has(f::A2D) {
        (c[1], c[2], c[0])
    } else if inst.has(f::_3D) {
        (c[0], c[1], c[2])
    } else if inst.has(f::_2D) {
        (c[0], c[1], 0)
    } else {
        (c[0], 0, 0)
    };
    let elem = type_bytes(inst.types.first().copied().unwrap_or(ScalarType::B32)) as usize;
    let n = (elem * elems.len()) as i64;
    let Some((dims, e, base)) = l.mem.textures.iter().find(|t| t.spec.handle == h).and_then(|t| Some((t.spec.dims, t.spec.element_bytes?, t.surface?))) else {
        return Err(at_site(InterpError::new(ErrorKind::Launch, format!("no surface is bound to handle {h:#x} (the launch spec's \"textures\" with \"element_bytes\")"))));
    };
    let row = i64::from(dims[0]) * i64::from(e);
    let (height, depth) = (i64::from(dims[1]), i64::from(dims[2]));
    let inside = x >= 0 && x + n <= row && (0..height).contains(&y) && (0..depth).contains(&z);
    let at = if inside {
        Some((x, y, z))
    } else if inst.has(f::TRAP) {
        return Err(at_site(InterpError::new(ErrorKind::Memory, format!("surface access out of bounds (.trap) at x = {x} bytes, y = {y}, z = {z}"))));
    } else if inst.has(f::ZERO) {
        None
    } else {
        Some((x.clamp(0, (row - n).max(0)) / n.max(1) * n.max(1), y.clamp(0, height - 1), z.clamp(0, depth - 1)))
    };
    let address = at.map(|(x, y, z)| base.wrapping_add(((z * height + y) * row + x) as u64));
    let ty = if elem == 8 { ScalarType::B64 } else { ScalarType::B32 };
    if store {
        let mut bytes = Vec::with_capacity(n as usize);
        for o in &elems {
            let v = l.get(o, ty)?;
            bytes.extend_from_slice(&v.to_le_bytes()[..elem]);
        }
        if let Some(address) = address {
            l.write(Space::Global, address, &bytes, 1)?;
        }
    } else {
        let bytes = match address {
            Some(address) => l.read(Space::Global, address, n as usize, 1)?,
            None => vec![0; n as usize],
        };
        for (k, o) in elems.iter().enumerate() {
            if matches!(o, Opnd::Sink) {
                continue;
            }
            let mut v = [0u8; 8];
            v[..elem].copy_from_slice(&bytes[k * elem..(k + 1) * elem]);
            l.set(o, u64::from_le_bytes(v))?;
        }
    }
    Ok(())
}

/// `txq` / `suq` of a width, height or depth: the bound texture's or
/// surface's size in elements, as the launch spec gives it.
fn header_query(l: &mut Lane, inst: &Inst) -> R<()> {
    let (Some(d), Some(t)) = (inst.ops.first(), inst.ops.get(1)) else {
        return Err(InterpError::new(ErrorKind::Malformed, "query operands").at(Site::Ptx(inst.span)));
    };
    let k = if inst.has(f::WIDTH) {
        0
    } else if inst.has(f::HEIGHT) {
        1
    } else if inst.has(f::DEPTH) {
        2
    } else {
        return Err(InterpError::new(ErrorKind::Unsupported, "header queries other than a width, height or depth").at(Site::Ptx(inst.span)));
    };
    let t = match t {
        Opnd::List(v) if v.len() == 1 => v[0].clone(),
        other => other.clone(),
    };
    let h = handle_of(l, &t)?;
    let Some(size) = l.mem.textures.iter().find(|t| t.spec.handle == h).map(|t| t.spec.dims[k]) else {
        return Err(InterpError::new(ErrorKind::Launch, format!("no texture or surface is bound to handle {h:#x} (the launch spec's \"textures\")")).at(Site::Ptx(inst.span)));
    };
    l.set(d, u64::from(size))
}

fn cp_async(l: &mut Lane, inst: &Inst) -> R<()> {
    let size = l.get(inst.ops.get(2).unwrap_or(&Opnd::Imm(Imm::Int(0))), ScalarType::U32)? as usize;
    let src_size = match inst.ops.get(3) {
        Some(o @ (Opnd::Imm(_) | Opnd::Reg(_))) => (l.get(o, ScalarType::U32)? as usize).min(size),
        _ => size,
    };
    let (ds, da) = l.address(opn(inst, 0)?, Some(StateSpace::Shared))?;
    let (ss, sa) = l.address(opn(inst, 1)?, Some(StateSpace::Global))?;
    let mut data = l.read(ss, sa, src_size, 1)?;
    data.resize(size, 0);
    l.write(ds, da, &data, size.min(16) as u64)
}

fn atomic(l: &mut Lane, inst: &Inst) -> R<()> {
    let ty = inst.ty();
    let es = type_bytes(ty) as usize;
    let is_red = matches!(inst.op, Opcode::Red | Opcode::MultimemRed);
    let (addr_op, srcs) = if is_red { (opn(inst, 0)?, inst.ops.get(1..).unwrap_or(&[])) } else { (opn(inst, 1)?, inst.ops.get(2..).unwrap_or(&[])) };
    let (space, addr) = l.address(addr_op, inst.space)?;
    let b = l.get(srcs.first().unwrap_or(&Opnd::Sink), ty)?;
    let c = match srcs.get(1) {
        Some(o) => l.get(o, ty)?,
        None => 0,
    };
    let bits = ty.bits().min(64);
    let m = mask(bits);
    let cell = l.bytes_mut(space, addr, es)?;
    let old = crate::interp::memory::le_u64(cell) & m;
    let new = if inst.has(f::CAS) {
        if old == b & m {
            c & m
        } else {
            old
        }
    } else if inst.has(f::EXCH) {
        b & m
    } else if inst.has(f::AND) {
        old & b
    } else if inst.has(f::OR) {
        old | b
    } else if inst.has(f::XOR) {
        old ^ b
    } else if inst.has(f::INC) {
        if old >= b & m {
            0
        } else {
            old + 1
        }
    } else if inst.has(f::DEC) {
        if old == 0 || old > b & m {
            b & m
        } else {
            old - 1
        }
    } else if inst.has(f::ADD) {
        if is_float(ty) {
            let o = FOpts { mode: Mode::Nearest, ftz: ty == ScalarType::F32, sat: false };
            fapply(ty, o, &[old, b], &|x| float::add(x[0], x[1])).ok_or_else(|| unsupported(inst, "type"))?
        } else {
            old.wrapping_add(b) & m
        }
    } else if inst.has(f::MIN) || inst.has(f::MAX) {
        let is_min = inst.has(f::MIN);
        if is_float(ty) {
            let fake = Inst { op: if is_min { Opcode::Min } else { Opcode::Max }, flags: 0, ..inst.clone() };
            minmax(&fake, ty, &[old, b])
        } else if signed(ty) {
            let (x, y) = (sext(old, bits), sext(b, bits));
            (if (x < y) == is_min { x } else { y } as u64) & m
        } else {
            let y = b & m;
            if (old < y) == is_min {
                old
            } else {
                y
            }
        }
    } else {
        return Err(unsupported(inst, "operation"));
    };
    cell.copy_from_slice(&new.to_le_bytes()[..es]);
    if !is_red {
        l.set(opn(inst, 0)?, extend(old, ty))?;
    }
    Ok(())
}

fn cvt(l: &mut Lane, inst: &Inst) -> R<()> {
    let dt = inst.ty_at(0);
    let st = inst.ty_at(1);
    let nsrc = inst.ops.len().saturating_sub(1);
    // Two-source packing forms: cvt.rn.f16x2.f32 d, a, b (a → upper half).
    if nsrc == 2 {
        let a = l.get(opn(inst, 1)?, st)?;
        let b = l.get(opn(inst, 2)?, st)?;
        let (fmt, _, w) = float_format(dt).ok_or_else(|| unsupported(inst, "packing type"))?;
        let one = |x: u64| -> u64 { cvt_float(inst, st, fmt, x) };
        let v = (one(a) << w) | one(b);
        return l.set(opn(inst, 0)?, v);
    }
    let a = l.get(opn(inst, 1)?, st)?;
    // Unpacking widening forms: cvt.rn.f16x2.e4m3x2 d, a.
    if let (Some((dfmt, 2, dw)), Some((sfmt, 2, sw))) = (float_format(dt), float_format(st)) {
        let mut out = 0;
        for k in 0..2 {
            let x = (a >> (k * sw)) & mask(sw);
            let v = if sfmt.is_nan(x) { dfmt.canonical_nan() } else { float::round_to(sfmt.to_f64(x), 0.0, dfmt, mode_of(inst.rnd), false) };
            let v = if inst.has(f::RELU) { relu(ScalarType::F16, v) } else { v };
            out |= v << (k * dw);
        }
        return l.set(opn(inst, 0)?, out);
    }
    let v = match (float_format(dt), float_format(st)) {
        _ if dt == ScalarType::Tf32 && st == ScalarType::F32 => {
            // tf32: f32's exponent with a 10-bit mantissa, kept in the f32
            // layout with the low 13 bits clear.
            const TF32: Format = Format { exp_bits: 8, man_bits: 10, ieee_specials: true };
            let x = a & 0xffff_ffff;
            // `.relu`: a negative value (not -0) becomes +0.
            let x = if inst.has(f::RELU) && f32::from_bits(x as u32) < 0.0 { 0 } else { x };
            if float::F32.is_nan(x) {
                0x7fff_ffff
            } else {
                let mode = if inst.rnd == Some(Rounding::Rna) { Mode::NearestAway } else { mode_of(inst.rnd) };
                let r = float::round_to(f32::from_bits(x as u32) as f64, 0.0, TF32, mode, inst.has(f::SATFINITE));
                ((r & 0x3ffff) << 13) | (((r >> 18) & 1) << 31)
            }
        }
        (Some((dfmt, 1, _)), Some(_)) => cvt_float(inst, st, dfmt, a),
        (Some((dfmt, 1, _)), None) => {
            // Integer to float.
            let bits = st.bits().min(64);
            let x = a & mask(bits);
            let (hi, lo) = if signed(st) {
                let v = sext(x, bits);
                let hi = v as f64;
                let lo = if hi.abs() >= 9.223372036854776e18 { (v as i128 - hi as i128) as f64 } else { (v as i128 - hi as i64 as i128) as f64 };
                (hi, lo)
            } else {
                let hi = x as f64;
                let lo = (x as i128 - hi as u128 as i128) as f64;
                (hi, lo)
            };
            let mut r = float::round_to(hi, lo, dfmt, mode_of(inst.rnd), false);
            if inst.ftz {
                r = dfmt.flush(r);
            }
            if inst.sat {
                r = saturate(dfmt, r);
            }
            r
        }
        (None, Some((sfmt, 1, _))) => {
            // Float to integer: round as told, saturate, NaN → 0.
            let mut x = a & mask(st.bits());
            if inst.ftz {
                x = sfmt.flush(x);
            }
            let v = sfmt.to_f64(x);
            let r = match mode_of(inst.rnd) {
                Mode::Zero => v.trunc(),
                Mode::Down => v.floor(),
                Mode::Up => v.ceil(),
                Mode::NearestAway => v.round(),
                Mode::Nearest => v.round_ties_even(),
            };
            let bits = dt.bits().min(64);
            if v.is_nan() {
                0
            } else if signed(dt) {
                let half = (1u64 << (bits - 1)) as f64;
                let (lo, hi) = (-half, half - 1.0);
                let c = if r < lo { i64::MIN >> (64 - bits) } else if r > hi { i64::MAX >> (64 - bits) } else { r as i64 };
                // A signed result narrower than its register is
                // sign-extended to the register (PTX ISA, "Operand Size
                // Exceeding Instruction-Type Size"), as the integer forms do.
                extend((c as u64) & mask(bits), dt)
            } else {
                let hi = mask(bits) as f64;
                if r <= 0.0 {
                    0
                } else if r >= hi {
                    mask(bits)
                } else {
                    r as u64
                }
            }
        }
        (None, None) => {
            // Integer to integer: extend from the source, then saturate or truncate.
            let sb = st.bits().min(64);
            let db = dt.bits().min(64);
            let v: i128 = if signed(st) { sext(a & mask(sb), sb) as i128 } else { (a & mask(sb)) as i128 };
            let r = if inst.sat {
                let (lo, hi): (i128, i128) = if signed(dt) { (-(1i128 << (db - 1)), (1i128 << (db - 1)) - 1) } else { (0, (1i128 << db) - 1) };
                v.clamp(lo, hi)
            } else {
                v
            };
            let r = (r as u64) & mask(db);
            extend(r, dt)
        }
        _ => return Err(unsupported(inst, &format!("from {} to {}", st.spelling(), dt.spelling()))),
    };
    l.set(opn(inst, 0)?, v)
}

/// Float to float conversion of one value.
fn cvt_float(inst: &Inst, st: ScalarType, dfmt: Format, a: u64) -> u64 {
    let Some((sfmt, _, sw)) = float_format(st) else { return 0 };
    let mut x = a & mask(sw);
    // `.ftz` flushes f32 subnormals only (PTX ISA, cvt: "subnormal inputs
    // and results [of .f32] to sign-preserving zero"): an f16 subnormal
    // converted to f32 is a normal f32 and stays.
    let ftz_in = inst.ftz && sfmt == float::F32;
    let ftz_out = inst.ftz && dfmt == float::F32;
    if ftz_in {
        x = sfmt.flush(x);
    }
    if sfmt.is_nan(x) {
        // `.sat` flushes NaN results to +0.0 (PTX ISA, cvt), before any
        // NaN format conversion.
        // Within one format (`cvt.rni.f16.f16`: rounding to an integral
        // value, an arithmetic operation) the NaN is the canonical one, as
        // the arithmetic instructions give it here and the GPU's FRND does.
        return if inst.sat {
            0
        } else if sfmt == dfmt || (sfmt == float::F16 && dfmt == float::F32) {
            // f16 -> f32 too: ptxas converts with an addition (HADD2.F32
            // x + -0, sm_75 to sm_120), which gives the canonical NaN.
            dfmt.canonical_nan()
        } else {
            widen_nan(sfmt, dfmt, x)
        };
    }
    let v = sfmt.to_f64(x);
    let satfinite = inst.has(f::SATFINITE);
    let mut r = match inst.rnd {
        Some(r) if r.is_integer() => {
            let i = match r {
                Rounding::Rzi => v.trunc(),
                Rounding::Rmi => v.floor(),
                Rounding::Rpi => v.ceil(),
                _ => v.round_ties_even(),
            };
            // Keep the sign of zero results.
            let i = if i == 0.0 { 0.0f64.copysign(v) } else { i };
            float::round_to(i, 0.0, dfmt, Mode::Nearest, false)
        }
        r => float::round_to(v, 0.0, dfmt, mode_of(r), satfinite),
    };
    if ftz_out {
        r = dfmt.flush(r);
    }
    if inst.sat {
        r = saturate(dfmt, r);
    }
    if inst.has(f::RELU) && !dfmt.is_nan(r) && r & dfmt.sign_bit() != 0 {
        r = 0;
    }
    r
}

/// A NaN converted between formats: a widening conversion keeps the sign
/// and payload bit for bit (as the exact shift compilers emit for bf16→f32
/// does, so `cvt.f32.bf16` and `mov.b32 %f, {0, %h}` agree); a narrowing
/// one gives the canonical NaN.
fn widen_nan(sfmt: Format, dfmt: Format, x: u64) -> u64 {
    if !dfmt.ieee_specials || !sfmt.ieee_specials || dfmt.man_bits < sfmt.man_bits || dfmt.exp_bits < sfmt.exp_bits {
        return dfmt.canonical_nan();
    }
    let sign = if x & sfmt.sign_bit() != 0 { dfmt.sign_bit() } else { 0 };
    let payload = (x & mask(sfmt.man_bits)) << (dfmt.man_bits - sfmt.man_bits);
    // A conversion instruction (F2F: f32 -> f64) quiets a signalling NaN
    // (IEEE 754; ptxas's F2F.F64.F32 of 0xff8bf8d0 gives
    // 0xfff97f1a00000000); bf16 -> f32 is a shift, which does not.
    let quiet = if sfmt.exp_bits == dfmt.exp_bits { 0 } else { 1 << (dfmt.man_bits - 1) };
    sign | dfmt.infinity() | payload | quiet
}

fn cvt_pack(l: &mut Lane, inst: &Inst) -> R<()> {
    // cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c: a and b
    // saturated to the narrow type, b in the lowest field, a above it, c's
    // low bits above both.
    let dt = inst.ty_at(0);
    let w = dt.bits();
    let a = sext(l.get(opn(inst, 1)?, ScalarType::S32)?, 32);
    let b = sext(l.get(opn(inst, 2)?, ScalarType::S32)?, 32);
    let c = match inst.ops.get(3) {
        Some(o) => l.get(o, ScalarType::B32)?,
        None => 0,
    };
    let (lo, hi) = if signed(dt) { (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1) } else { (0, (1i64 << w) - 1) };
    let sa = (a.clamp(lo, hi) as u64) & mask(w);
    let sb = (b.clamp(lo, hi) as u64) & mask(w);
    let v = ((c << (2 * w)) | (sa << w) | sb) & 0xffff_ffff;
    l.set(opn(inst, 0)?, v)
}

/// `Imm` passthrough for other modules.
pub fn imm_bits(i: Imm, t: ScalarType) -> u64 {
    super::lower::float_imm_bits(i, t)
}
