//! Number formats and rounding for the SASS interpreter: `f16` / `bf16`
//! conversions, IEEE rounding modes other than round-to-nearest, flushing
//! of subnormals, float-to-integer conversion, and the multi-function unit
//! (MUFU) approximations.
//!
//! Directed rounding (`.RZ`, `.RM`, `.RP`) is derived from the
//! round-to-nearest result and its exact error (TwoSum for additions, a
//! fused multiply-add for products): the nearest result moves one unit in
//! the last place when the error points the other way. That is exact for
//! additions and multiplications; fused multiply-adds use the same rule
//! with the error of the `f64` evaluation (exact whenever the `f64` result
//! is).
//!
//! MUFU results are computed exactly (in `f64`) and rounded to the format:
//! the hardware's approximations differ from that by an ulp or two, which
//! the conformance tests list where it shows.

/// A rounding mode (the `.RN`/`.RZ`/`.RM`/`.RP` of SASS, in encoding order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    Nearest,
    /// Toward −∞.
    Down,
    /// Toward +∞.
    Up,
    /// Toward zero.
    Zero,
}

/// Flushes an `f32` subnormal to a zero of the same sign.
#[inline]
pub fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x }
}

/// The next `f32` toward +∞.
fn up32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// The next `f32` toward −∞.
fn down32(x: f32) -> f32 {
    -up32(-x)
}

fn up64(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn down64(x: f64) -> f64 {
    -up64(-x)
}

/// Moves a nearest result `r` with exact error `e` (exact = r + e) to the
/// result of another rounding mode.
fn adjust32(r: f32, e: f64, mode: Round) -> f32 {
    // No error, or a NaN one: the exact result is infinite (an infinite
    // operand) or there is none.
    if e == 0.0 || e.is_nan() || mode == Round::Nearest {
        return r;
    }
    if r.is_infinite() {
        // A finite exact result past the largest finite value (its error is
        // infinite): IEEE 754 overflow, by the rounding's direction.
        return match (mode, r > 0.0) {
            (Round::Zero, _) | (Round::Down, true) | (Round::Up, false) => f32::MAX.copysign(r),
            _ => r,
        };
    }
    match mode {
        Round::Up if e > 0.0 => up32(r),
        Round::Down if e < 0.0 => down32(r),
        Round::Zero if r > 0.0 && e < 0.0 => down32(r),
        Round::Zero if r < 0.0 && e > 0.0 => up32(r),
        _ => r,
    }
}

fn adjust64(r: f64, e: f64, mode: Round) -> f64 {
    if e == 0.0 || !r.is_finite() {
        return r;
    }
    match mode {
        Round::Nearest => r,
        Round::Up if e > 0.0 => up64(r),
        Round::Down if e < 0.0 => down64(r),
        Round::Zero if r > 0.0 && e < 0.0 => down64(r),
        Round::Zero if r < 0.0 && e > 0.0 => up64(r),
        _ => r,
    }
}

/// The exact error of `a + b` rounded to `f64` (TwoSum).
fn two_sum_err(a: f64, b: f64, s: f64) -> f64 {
    let bb = s - a;
    (a - (s - bb)) + (b - bb)
}

/// `a + b` in `f32` with a rounding mode.
pub fn add32(a: f32, b: f32, mode: Round) -> f32 {
    let r = a + b;
    if mode == Round::Nearest || !r.is_finite() {
        return if mode != Round::Nearest && r.is_infinite() && a.is_finite() && b.is_finite() { adjust32(r, -r as f64, mode) } else { r };
    }
    // The f64 sum of two f32 is exact unless exponents are far apart; the
    // error of rounding it to f32 plus that error is the total.
    let s = a as f64 + b as f64;
    let e1 = two_sum_err(a as f64, b as f64, s);
    let e = (s - r as f64) + e1;
    if r == 0.0 && e == 0.0 && mode == Round::Down && !both_positive_zero(f64::from(a), f64::from(b)) {
        return -0.0;
    }
    adjust32(r, e, mode)
}

/// `a * b` in `f32` with a rounding mode (the `f64` product is exact).
pub fn mul32(a: f32, b: f32, mode: Round) -> f32 {
    let p = a as f64 * b as f64;
    let r = p as f32;
    if mode == Round::Nearest {
        return r;
    }
    adjust32(r, p - r as f64, mode)
}

/// `a * b + c` in `f32`, one rounding.
pub fn fma32(a: f32, b: f32, c: f32, mode: Round) -> f32 {
    let r = a.mul_add(b, c);
    if mode == Round::Nearest || !r.is_finite() {
        // As add32: an overflow from finite operands is the largest finite
        // value where the mode rounds toward zero.
        return if mode != Round::Nearest && r.is_infinite() && a.is_finite() && b.is_finite() && c.is_finite() { adjust32(r, -r as f64, mode) } else { r };
    }
    let p = a as f64 * b as f64;
    let s = p + c as f64;
    let e1 = two_sum_err(p, c as f64, s);
    let e = (s - r as f64) + e1;
    // An exact zero sum is -0 under rounding toward -infinity unless both
    // the product and c are +0 (IEEE 754 §6.3; FFMA.RM of -1, -1, -1 is -0).
    if r == 0.0 && e == 0.0 && mode == Round::Down && !both_positive_zero(p, f64::from(c)) {
        return -0.0;
    }
    adjust32(r, e, mode)
}

/// An overflowed result `r` (infinite from finite operands) in a directed
/// mode: the largest finite value of its sign where the mode rounds
/// toward zero (IEEE 754 overflow).
fn overflow64(r: f64, mode: Round) -> f64 {
    match (mode, r > 0.0) {
        (Round::Zero, _) | (Round::Down, true) | (Round::Up, false) => f64::MAX.copysign(r),
        _ => r,
    }
}

/// `a + b` in `f64` with a rounding mode.
pub fn add64(a: f64, b: f64, mode: Round) -> f64 {
    let s = a + b;
    if mode == Round::Nearest {
        return s;
    }
    if s.is_infinite() && a.is_finite() && b.is_finite() {
        return overflow64(s, mode);
    }
    if s == 0.0 && mode == Round::Down && !both_positive_zero(a, b) {
        return -0.0;
    }
    adjust64(s, two_sum_err(a, b, s), mode)
}

/// Whether `a` and `b` are both +0: the one exact zero sum that stays +0
/// under rounding toward -∞ (IEEE 754 §6.3: otherwise -0 in that mode; a
/// sum that is zero is exact, as addition does not underflow).
fn both_positive_zero(a: f64, b: f64) -> bool {
    a == 0.0 && b == 0.0 && a.is_sign_positive() && b.is_sign_positive()
}

/// `a * b` in `f64` with a rounding mode: the exact product (106 bits)
/// rounded once, so that results in the subnormal range are right too
/// (there the error `a * b - p` of the nearest product underflows and
/// cannot say which way to move it).
pub fn mul64(a: f64, b: f64, mode: Round) -> f64 {
    let p = a * b;
    if mode == Round::Nearest || !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return p;
    }
    let (x, y) = (Exact::of(a), Exact::of(b));
    round_exact(x.neg != y.neg, u128::from(x.m) * u128::from(y.m), x.e + y.e, mode)
}

/// `a * b + c` in `f64`, rounded once (exactly: the product and the sum
/// are formed in integers, see [`round_exact`]).
pub fn fma64(a: f64, b: f64, c: f64, mode: Round) -> f64 {
    let r = a.mul_add(b, c);
    if mode == Round::Nearest || !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return r;
    }
    if a == 0.0 || b == 0.0 {
        // An exact zero product: the sum rounds as an addition.
        return add64(a * b, c, mode);
    }
    if c == 0.0 {
        return mul64(a, b, mode);
    }
    let (x, y, z) = (Exact::of(a), Exact::of(b), Exact::of(c));
    let (pn, pm, pe) = (x.neg != y.neg, u128::from(x.m) * u128::from(y.m), x.e + y.e);
    let (cn, cm, ce) = (z.neg, u128::from(z.m), z.e);
    // The term whose leading bit is higher sets the window: its leading
    // bit goes to bit 124, the other is aligned to it, and bits shifted
    // out of the window leave a sticky 1 in bit 0 (every rounding point
    // is at least 2 bits above it, so a value strictly between two
    // window units rounds as the sticky one does).
    let top = |m: u128, e: i32| 127 - m.leading_zeros() as i32 + e;
    let ((xn, xm, xe), (yn, ym, ye)) = if top(pm, pe) >= top(cm, ce) { ((pn, pm, pe), (cn, cm, ce)) } else { ((cn, cm, ce), (pn, pm, pe)) };
    let lift = 124 - (127 - xm.leading_zeros() as i32);
    let (xm, e) = (xm << lift, xe - lift);
    let shift = e - ye;
    let ym = if shift <= 0 {
        ym << -shift
    } else if shift >= 128 {
        1
    } else {
        (ym >> shift) | u128::from(ym & ((1u128 << shift) - 1) != 0)
    };
    let (neg, m) = if xn == yn {
        (xn, xm + ym)
    } else if xm >= ym {
        (xn, xm - ym)
    } else {
        (yn, ym - xm)
    };
    if m == 0 {
        // An exact zero sum of opposite terms: -0 only toward -∞.
        return if mode == Round::Down { -0.0 } else { 0.0 };
    }
    round_exact(neg, m, e, mode)
}

/// A finite `f64` as sign, integer significand and exponent (|x| = m·2^e).
struct Exact {
    neg: bool,
    m: u64,
    e: i32,
}

impl Exact {
    fn of(x: f64) -> Exact {
        let bits = x.to_bits();
        let field = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1 << 52) - 1);
        let (m, e) = if field == 0 { (frac, -1074) } else { (frac | 1 << 52, field - 1075) };
        Exact { neg: bits >> 63 == 1, m, e }
    }
}

/// `±m·2^e` (m > 0) rounded to `f64` in a mode: to 53 bits, or to the
/// subnormal spacing 2^-1074 below the normal range; past the largest
/// finite value, IEEE 754 overflow (infinity, or the largest finite value
/// where the mode rounds toward zero).
fn round_exact(neg: bool, m: u128, e: i32, mode: Round) -> f64 {
    let lead = 127 - m.leading_zeros() as i32 + e;
    let lsb = (lead - 52).max(-1074);
    let shift = lsb - e;
    let (mut q, above_half, at_half, inexact) = if shift <= 0 {
        (m << -shift, false, false, false)
    } else if shift > 128 {
        (0, false, false, true)
    } else {
        let q = if shift == 128 { 0 } else { m >> shift };
        let rem = if shift == 128 { m } else { m & ((1u128 << shift) - 1) };
        let half = 1u128 << (shift - 1);
        (q, rem > half, rem == half, rem != 0)
    };
    let up = match mode {
        Round::Nearest => above_half || at_half && q & 1 == 1,
        Round::Zero => false,
        Round::Up => inexact && !neg,
        Round::Down => inexact && neg,
    };
    q += u128::from(up);
    let mut lsb = lsb;
    if q >> 53 != 0 {
        q >>= 1;
        lsb += 1;
    }
    let sign = if neg { -1.0 } else { 1.0 };
    if lsb + 52 > 1023 {
        return overflow64(f64::INFINITY * sign, mode);
    }
    let bits = if q >> 52 == 0 { q as u64 } else { ((lsb + 52 + 1023) as u64) << 52 | (q as u64 & ((1 << 52) - 1)) };
    f64::from_bits(bits) * sign
}

/// An `f64` rounded to `f32` with a rounding mode.
pub fn f64_to_f32(x: f64, mode: Round) -> f32 {
    let r = x as f32;
    if mode == Round::Nearest || x.is_nan() {
        return r;
    }
    if r.is_infinite() && x.is_finite() {
        return match (mode, x > 0.0) {
            (Round::Zero, true) | (Round::Down, true) => f32::MAX,
            (Round::Zero, false) | (Round::Up, false) => -f32::MAX,
            _ => r,
        };
    }
    adjust32(r, x - r as f64, mode)
}

/// Bits of an `f16` from an `f64`, rounded with a mode.
pub fn f64_to_f16(x: f64, mode: Round) -> u16 {
    to_small(x, mode, 5, 10)
}

/// Bits of a `bf16` from an `f64`, rounded with a mode.
pub fn f64_to_bf16(x: f64, mode: Round) -> u16 {
    to_small(x, mode, 8, 7)
}

/// Rounds `x` to a binary format with `ebits` exponent bits and `mbits`
/// fraction bits (at most 16 bits in all).
fn to_small(x: f64, mode: Round, ebits: u32, mbits: u32) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 1 << (ebits + mbits) } else { 0 };
    let emax_field = (1u32 << ebits) - 1;
    if x.is_nan() {
        // The hardware's canonical NaN: sign clear, every fraction bit set
        // (0x7fff for both f16 and bf16), whatever the input NaN's sign or
        // payload. PTX ISA calls it the canonical NaN; CUDA's host emulation
        // of __float2half / __float2bfloat16 returns 0x7fff for any NaN to
        // match the device.
        return ((emax_field << mbits) | ((1 << mbits) - 1)) as u16;
    }
    let inf = (emax_field << mbits) as u16 | sign;
    if x.is_infinite() {
        return inf;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let bias = (1i32 << (ebits - 1)) - 1;
    // Exponent of a, and the quantum (value of the last fraction bit).
    let e = (a.log2().floor() as i32).max(1 - bias);
    let mut e = e;
    // log2 may be off by one near powers of two.
    if 2f64.powi(e) > a && e > 1 - bias {
        e -= 1;
    }
    if 2f64.powi(e + 1) <= a {
        e += 1;
    }
    let quantum = 2f64.powi(e - mbits as i32);
    let scaled = a / quantum; // exact (power of two scaling)
    let floor = scaled.floor();
    let frac = scaled - floor;
    let negative = sign != 0;
    let up = match mode {
        Round::Nearest => frac > 0.5 || frac == 0.5 && floor % 2.0 == 1.0,
        Round::Zero => false,
        Round::Up => frac > 0.0 && !negative,
        Round::Down => frac > 0.0 && negative,
    };
    let m = floor as u64 + u64::from(up);
    // m counts quanta of 2^(e - mbits); value = m * quantum.
    let value_exp = e; // exponent the quantum belongs to
    let (field_e, field_m) = if value_exp == 1 - bias && m < (1 << mbits) {
        (0u64, m) // subnormal
    } else {
        let mut exp = (value_exp + bias) as u64;
        let mut mm = m;
        if mm >= (2 << mbits) {
            mm >>= 1;
            exp += 1;
        }
        (exp, mm & ((1 << mbits) - 1))
    };
    if field_e >= u64::from(emax_field) {
        // Overflow: infinity, or the largest finite value when rounding away from it.
        let toward_inf = match mode {
            Round::Nearest => true,
            Round::Zero => false,
            Round::Up => !negative,
            Round::Down => negative,
        };
        return if toward_inf { inf } else { inf - 1 };
    }
    sign | ((field_e << mbits) | field_m) as u16
}

/// The value of `f16` bits.
pub fn f16_to_f64(h: u16) -> f64 {
    small_to_f64(h, 5, 10)
}

/// The value of `bf16` bits.
pub fn bf16_to_f64(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// The value of a half (`f16`, or `bf16` with `bf16`).
pub fn half_to_f64(h: u16, bf16: bool) -> f64 {
    if bf16 { bf16_to_f64(h) } else { f16_to_f64(h) }
}

/// A packed-half arithmetic result (HADD2, HMUL2, HFMA2) of the exact
/// value `r`: clamped to [+0.0, 1.0] with `.SAT` (NaN and -0.0 give +0.0,
/// as FADD.SAT's), rounded to the nearest half, and a subnormal result
/// flushed to a zero of its sign with `.FTZ` (PTX ISA, `add.f16`: `.ftz`
/// flushes subnormal inputs and results; `.sat` clamps to [0.0, 1.0] with
/// NaN results flushed to +0.0).
pub fn half_result(r: f64, bf16: bool, ftz: bool, sat: bool) -> u16 {
    let r = if sat && (r.is_nan() || r <= 0.0) { 0.0 } else if sat { r.min(1.0) } else { r };
    let h = if bf16 { f64_to_bf16(r, Round::Nearest) } else { f64_to_f16(r, Round::Nearest) };
    if ftz { ftz_half(h, bf16) } else { h }
}

/// A half's subnormals flushed to a zero of the same sign.
pub fn ftz_half(h: u16, bf16: bool) -> u16 {
    let exponent = if bf16 { 0x7f80 } else { 0x7c00 };
    if h & exponent == 0 { h & 0x8000 } else { h }
}

/// HMNMX2 on one lane: the minimum (`min`) or maximum of two halves, as
/// FMNMX does it for `f32`: a NaN operand yields the other one; two NaNs,
/// or any NaN with `.NAN`, the canonical NaN 0x7fff; −0 is below +0.
pub fn min_max_half(x: u16, y: u16, min: bool, bf16: bool, nan: bool) -> u16 {
    let (a, b) = (half_to_f64(x, bf16), half_to_f64(y, bf16));
    if a.is_nan() || b.is_nan() {
        return if nan || a.is_nan() && b.is_nan() {
            0x7fff
        } else if a.is_nan() {
            y
        } else {
            x
        };
    }
    if a == 0.0 && b == 0.0 {
        let negative = if min { (x | y) & 0x8000 != 0 } else { x & y & 0x8000 != 0 };
        return if negative { 0x8000 } else { 0 };
    }
    if (a < b) == min { x } else { y }
}

/// A 32-bit integer (`src_signed`) saturated to `bits` (8 or 16) of
/// `dst_signed`, as the narrow value's bits zero-extended: I2I and I2IP.
/// (ptxas follows a signed I2I with a PRMT sign extension, `0x8880` or
/// `0x9910`, and an unsigned one with nothing.)
pub fn saturate_narrow(v: u32, src_signed: bool, dst_signed: bool, bits: u32) -> u32 {
    let mask = (1u32 << bits) - 1;
    let v = if src_signed { i64::from(v as i32) } else { i64::from(v) };
    let (lo, hi) = if dst_signed { (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) } else { (0, i64::from(mask)) };
    (v.clamp(lo, hi) as u32) & mask
}

/// FMNMX on one lane: the minimum (`min`) or maximum of two f32 values,
/// as bits. A NaN operand yields the other one; two NaNs, or any NaN with
/// `.NAN` (`nan`), the canonical NaN 0x7fffffff; −0 is below +0.
pub fn min_max_f32(x: f32, y: f32, min: bool, nan: bool) -> u32 {
    if x.is_nan() || y.is_nan() {
        return if nan || x.is_nan() && y.is_nan() {
            0x7fff_ffff
        } else if x.is_nan() {
            y.to_bits()
        } else {
            x.to_bits()
        };
    }
    if x == y && x == 0.0 {
        let negative = if min { x.is_sign_negative() || y.is_sign_negative() } else { x.is_sign_negative() && y.is_sign_negative() };
        return if negative { 0x8000_0000 } else { 0 };
    }
    if min { x.min(y).to_bits() } else { x.max(y).to_bits() }
}

/// CREDUX.F32 over the active lanes' sources (`values`, as bits): the
/// minimum (`min`) or maximum, of the absolute values with `abs`, −0 below
/// +0. NaN sources are skipped, and all NaN (or no source) gives the
/// canonical NaN 0x7fffffff; with `nan` any NaN source gives it (PTX ISA,
/// `redux.sync`: "+0.0 > -0.0", `.abs`, `.NaN`). Subnormals are kept: the
/// instruction has no flush-to-zero form.
pub fn redux_f32(values: impl Iterator<Item = u32>, min: bool, abs: bool, nan: bool) -> u32 {
    const CANONICAL_NAN: u32 = 0x7fff_ffff;
    let mut best: Option<u32> = None;
    for bits in values {
        let bits = if abs { bits & 0x7fff_ffff } else { bits };
        let x = f32::from_bits(bits);
        if x.is_nan() {
            if nan {
                return CANONICAL_NAN;
            }
            continue;
        }
        best = Some(best.map_or(bits, |b| min_max_f32(x, f32::from_bits(b), min, false)));
    }
    best.unwrap_or(CANONICAL_NAN)
}

fn small_to_f64(h: u16, ebits: u32, mbits: u32) -> f64 {
    let sign = if h >> (ebits + mbits) & 1 == 1 { -1.0 } else { 1.0 };
    let e = (u32::from(h) >> mbits) & ((1 << ebits) - 1);
    let m = f64::from(u32::from(h) & ((1 << mbits) - 1));
    let bias = (1i32 << (ebits - 1)) - 1;
    if e == (1 << ebits) - 1 {
        return if m == 0.0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if e == 0 {
        return sign * m * 2f64.powi(1 - bias - mbits as i32);
    }
    sign * (1.0 + m / f64::from(1u32 << mbits)) * 2f64.powi(e as i32 - bias)
}

/// Rounds to an integral value in a float format's arithmetic.
pub fn round_int(x: f64, mode: Round) -> f64 {
    match mode {
        Round::Nearest => x.round_ties_even(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
        Round::Zero => x.trunc(),
    }
}

/// Float to integer: rounded with `mode`, saturated to the range of a
/// `bits`-bit integer (signed or not); NaN gives 0.
pub fn float_to_int(x: f64, mode: Round, bits: u32, signed: bool) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_int(x, mode);
    if signed {
        let max = if bits == 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
        let min = if bits == 64 { i64::MIN } else { -(1i64 << (bits - 1)) };
        let v = if r >= max as f64 { max } else if r <= min as f64 { min } else { r as i64 };
        v as u64 & mask(bits)
    } else {
        let max = mask(bits);
        if r >= max as f64 {
            max
        } else if r <= 0.0 {
            0
        } else {
            r as u64
        }
    }
}

/// All ones in the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// The multi-function unit's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mufu {
    /// cos(2πx).
    Cos,
    /// sin(2πx).
    Sin,
    /// 2^x.
    Ex2,
    /// log2(x).
    Lg2,
    /// 1/x.
    Rcp,
    /// 1/√x.
    Rsq,
    /// High word of 1/x for the double whose high word is the input.
    Rcp64h,
    /// High word of 1/√x for the double whose high word is the input.
    Rsq64h,
    /// √x.
    Sqrt,
    /// tanh(x).
    Tanh,
}

/// One MUFU operation on a 32-bit input (subnormal inputs flush to zero,
/// as the unit does).
pub fn mufu(op: Mufu, bits: u32) -> u32 {
    let hi64 = |f: fn(f64) -> f64| -> u32 {
        let x = f64::from_bits(u64::from(bits) << 32);
        (f(x).to_bits() >> 32) as u32
    };
    let x = f64::from(ftz32(f32::from_bits(bits)));
    let r = match op {
        Mufu::Rcp64h => return hi64(|x| 1.0 / x),
        Mufu::Rsq64h => return hi64(|x| 1.0 / x.sqrt()),
        _ => mufu_f64(op, x),
    };
    let r = ftz32(r as f32);
    if r.is_nan() { 0x7fff_ffff } else { r.to_bits() }
}

/// The function a MUFU computes, on an f64 (the f64 halves' RCP64H and
/// RSQ64H as RCP and RSQ).
fn mufu_f64(op: Mufu, x: f64) -> f64 {
    match op {
        // The hardware's sine and cosine take the angle in turns (ptxas
        // multiplies by 1/2π first).
        Mufu::Cos => (x * std::f64::consts::TAU).cos(),
        Mufu::Sin => (x * std::f64::consts::TAU).sin(),
        Mufu::Ex2 => x.exp2(),
        Mufu::Lg2 => x.log2(),
        Mufu::Rcp | Mufu::Rcp64h => 1.0 / x,
        Mufu::Rsq | Mufu::Rsq64h => 1.0 / x.sqrt(),
        Mufu::Sqrt => x.sqrt(),
        Mufu::Tanh => x.tanh(),
    }
}

/// MUFU.F16 / MUFU.BF16 of the half `h`: the function rounded to the
/// nearest half (the model, as MUFU's f32 one, of an approximation whose
/// error the hardware does not document). `.EX2.BF16` flushes subnormal
/// inputs and results (PTX's bf16 `ex2` exists only with `.ftz`); the
/// others keep them (PTX ISA: `tanh.approx` of halves supports
/// subnormals). Not measured on hardware.
pub fn mufu_half(op: Mufu, h: u16, bf16: bool) -> u16 {
    let ftz = bf16 && op == Mufu::Ex2;
    let h = if ftz { ftz_half(h, true) } else { h };
    half_result(mufu_f64(op, half_to_f64(h, bf16)), bf16, ftz, false)
}

/// FCHK's predicate: whether `a / b` needs the division's slow path. The
/// model is conservative: denormal, huge or special operands and exponent
/// differences the fast path's reciprocal could mishandle (the late
/// expansions' slow path is exact for every input, so a conservative
/// model changes only which path runs).
pub fn fchk(x: f32, y: f32) -> bool {
    let ex = |v: f32| ((v.to_bits() >> 23) & 0xff) as i32;
    !x.is_normal() && x != 0.0 || !y.is_normal() || ex(x) - ex(y) >= 126 || ex(x) - ex(y) <= -126 || ex(y) >= 253 || ex(x) >= 253 || ex(x) <= 24
}

/// An 8-bit float format of F2FP (sm_89+): `E4M3` (bias 7, no
/// infinities, `S.1111.111` the only NaN, largest finite 448) or `E5M2`
/// (bias 15, IEEE-like: infinities and NaNs at exponent 31, largest finite
/// 57344). Facts: PTX ISA, "Alternate Floating Point Data Formats".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8 {
    /// 4 exponent bits, 3 mantissa bits.
    E4M3,
    /// 5 exponent bits, 2 mantissa bits.
    E5M2,
}

impl Fp8 {
    fn shape(self) -> (u32, u32, i32) {
        match self {
            Fp8::E4M3 => (4, 3, 7),
            Fp8::E5M2 => (5, 2, 15),
        }
    }

    /// The value of a code (NaN for the NaN codes, infinities for E5M2's).
    pub fn decode(self, code: u8) -> f64 {
        let (e, m, bias) = self.shape();
        let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
        let exp = (u32::from(code) >> m) & ((1 << e) - 1);
        let man = u32::from(code) & ((1 << m) - 1);
        let top = (1 << e) - 1;
        match self {
            Fp8::E4M3 if exp == top && man == (1 << m) - 1 => return f64::NAN,
            Fp8::E5M2 if exp == top => return if man == 0 { sign * f64::INFINITY } else { f64::NAN },
            _ => {}
        }
        let scale = |k: i32| 2f64.powi(k);
        if exp == 0 {
            sign * f64::from(man) * scale(1 - bias - m as i32)
        } else {
            sign * (1.0 + f64::from(man) / f64::from(1u32 << m)) * scale(exp as i32 - bias)
        }
    }

    /// `x` rounded to nearest-even, saturated to the largest finite value
    /// (`.SATFINITE`, infinities included); NaN gives the NaN code `0x7f`.
    pub fn encode_satfinite(self, x: f64) -> u8 {
        if x.is_nan() {
            return 0x7f;
        }
        let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
        let a = x.abs();
        // The finite codes of one sign increase with their value: pick the
        // nearest, ties to the even code.
        let mut best = 0u8;
        let mut best_err = f64::INFINITY;
        for code in 0u8..0x80 {
            let v = self.decode(code);
            if !v.is_finite() {
                continue;
            }
            let err = (v - a).abs();
            if err < best_err || (err == best_err && code & 1 == 0) {
                best = code;
                best_err = err;
            }
        }
        sign | best
    }
}

#[cfg(test)]
mod overflow_tests {
    use super::*;

    #[test]
    fn f64_overflow_in_directed_modes_gives_the_largest_finite_value() {
        let big = f64::MAX;
        assert_eq!(mul64(big, 2.0, Round::Zero), f64::MAX);
        assert_eq!(mul64(big, -2.0, Round::Zero), -f64::MAX);
        assert_eq!(mul64(big, 2.0, Round::Down), f64::MAX);
        assert_eq!(mul64(big, 2.0, Round::Up), f64::INFINITY);
        assert_eq!(mul64(big, -2.0, Round::Up), -f64::MAX);
        assert_eq!(add64(big, big, Round::Zero), f64::MAX);
        assert_eq!(fma64(big, 2.0, 0.0, Round::Down), f64::MAX);
        assert_eq!(mul64(f64::INFINITY, 2.0, Round::Zero), f64::INFINITY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Products and fused multiply-adds whose exact result lies below the
    /// smallest normal f64, where the nearest result's error underflows:
    /// operands and results worked out by hand from their bit patterns.
    #[test]
    fn f64_products_round_exactly_in_the_subnormal_range() {
        let f = f64::from_bits;
        let all = [Round::Nearest, Round::Zero, Round::Down, Round::Up];
        // 2^-537 · -2^-538 = -2^-1075, half the smallest subnormal.
        let (a, b) = (f(0x1e60_0000_0000_0000), f(0x9e50_0000_0000_0000));
        let want = [0x8000_0000_0000_0000u64, 0x8000_0000_0000_0000, 0x8000_0000_0000_0001, 0x8000_0000_0000_0000];
        for (mode, w) in all.iter().zip(want) {
            assert_eq!(mul64(a, b, *mode).to_bits(), w, "{mode:?}");
        }
        // 1.5·2^-599 · 2^-476 = 3·2^-1076, three quarters of the smallest subnormal.
        let (a, b) = (f(0x1a88_0000_0000_0000), f(0x2230_0000_0000_0000));
        let want = [1u64, 0, 0, 1];
        for (mode, w) in all.iter().zip(want) {
            assert_eq!(mul64(a, b, *mode).to_bits(), w, "{mode:?}");
        }
        // The same product plus -2^-1074: -2^-1076.
        let c = f(0x8000_0000_0000_0001);
        let want = [0x8000_0000_0000_0000u64, 0x8000_0000_0000_0000, 0x8000_0000_0000_0001, 0x8000_0000_0000_0000];
        for (mode, w) in all.iter().zip(want) {
            assert_eq!(fma64(a, b, c, *mode).to_bits(), w, "{mode:?}");
        }
        // 2^-1022 (the smallest normal) · (1 - 2^-53) (0x3fef_ffff_ffff_ffff)
        // = 2^-1022 - 2^-1075, halfway between the largest subnormal and
        // 2^-1022 (ties to the even 2^-1022).
        let (a, b) = (f(0x0010_0000_0000_0000), f(0x3fef_ffff_ffff_ffff));
        let want = [0x0010_0000_0000_0000u64, 0x000f_ffff_ffff_ffff, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000];
        for (mode, w) in all.iter().zip(want) {
            assert_eq!(mul64(a, b, *mode).to_bits(), w, "{mode:?}");
        }
        // A far smaller addend only decides the direction: 1 + 2^-1074 · 2^-1074.
        let tiny = f(1);
        let want = [0x3ff0_0000_0000_0000u64, 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0001];
        for (mode, w) in all.iter().zip(want) {
            assert_eq!(fma64(tiny, tiny, 1.0, *mode).to_bits(), w, "{mode:?}");
        }
        // 1 - 2^-1074 · 2^-1074 under .RZ and .RM: the largest double below 1.
        assert_eq!(fma64(tiny, -tiny, 1.0, Round::Zero).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(fma64(tiny, -tiny, 1.0, Round::Down).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(fma64(tiny, -tiny, 1.0, Round::Up).to_bits(), 0x3ff0_0000_0000_0000);
        // x·y - x·y is an exact zero: +0, -0 under .RM.
        let (x, y) = (f(0x3ff8_0000_0000_0000), f(0x4008_0000_0000_0000));
        assert_eq!(fma64(x, y, -4.5, Round::Down).to_bits(), 0x8000_0000_0000_0000);
        assert_eq!(fma64(x, y, -4.5, Round::Up).to_bits(), 0);
    }

    #[test]
    fn fused_multiply_add_zero_sums_and_overflow_follow_ieee() {
        // (-1)(-1) + (-1) is an exact zero: -0 toward -infinity, +0 else.
        assert_eq!(fma32(-1.0, -1.0, -1.0, Round::Down).to_bits(), 0x8000_0000);
        assert_eq!(fma32(-1.0, -1.0, -1.0, Round::Up).to_bits(), 0);
        assert_eq!(fma32(-1.0, -1.0, -1.0, Round::Zero).to_bits(), 0);
        // (-0)(-0) + (-0) = +0 + -0: -0 toward -infinity.
        assert_eq!(fma32(-0.0, -0.0, -0.0, Round::Down).to_bits(), 0x8000_0000);
        assert_eq!(fma32(0.0, 1.0, 0.0, Round::Down).to_bits(), 0);
        // Overflow toward zero: the largest finite value.
        assert_eq!(fma32(f32::MAX, 2.0, 0.0, Round::Zero), f32::MAX);
        assert_eq!(fma32(f32::MAX, 2.0, 0.0, Round::Up), f32::INFINITY);
        assert_eq!(fma32(f32::MAX, -2.0, 0.0, Round::Up), -f32::MAX);
    }

    #[test]
    fn directed_overflow_and_zero_sums_follow_ieee() {
        let bits = |x: f32| x.to_bits();
        // Overflow of a finite exact result: the largest finite value where
        // the rounding points back toward zero, infinity where it points away.
        assert_eq!(bits(add32(-3e38, -3e38, Round::Up)), 0xff7f_ffff);
        assert_eq!(bits(add32(-3e38, -3e38, Round::Down)), 0xff80_0000);
        assert_eq!(bits(add32(3e38, 3e38, Round::Down)), 0x7f7f_ffff);
        assert_eq!(bits(add32(3e38, 3e38, Round::Zero)), 0x7f7f_ffff);
        assert_eq!(bits(mul32(1e20, -1e20, Round::Up)), 0xff7f_ffff);
        assert_eq!(bits(fma32(1e20, 1e20, 1.0, Round::Zero)), 0x7f7f_ffff);
        // An infinite operand's result stays infinite in every mode.
        assert_eq!(bits(mul32(f32::INFINITY, 2.0, Round::Zero)), 0x7f80_0000);
        assert_eq!(bits(fma32(f32::NEG_INFINITY, 2.0, 1.0, Round::Up)), 0xff80_0000);
        // Exact zero sums: -0 toward -inf unless both operands are +0.
        assert_eq!(bits(add32(1.0, -1.0, Round::Down)), 0x8000_0000);
        assert_eq!(bits(add32(0.0, -0.0, Round::Down)), 0x8000_0000);
        assert_eq!(bits(add32(0.0, 0.0, Round::Down)), 0);
        assert_eq!(bits(add32(1.0, -1.0, Round::Up)), 0);
        assert_eq!(add64(1.0, -1.0, Round::Down).to_bits(), 0x8000_0000_0000_0000);
        assert_eq!(add64(0.0, -0.0, Round::Down).to_bits(), 0x8000_0000_0000_0000);
        assert_eq!(add64(0.0, 0.0, Round::Down).to_bits(), 0);
        assert_eq!(add64(2.0, -2.0, Round::Zero).to_bits(), 0);
    }

    #[test]
    fn half_min_max_as_fmnmx() {
        // f16 bits: 1.0 = 0x3c00, -2.0 = 0xc000, +0 = 0, -0 = 0x8000, NaN 0x7e00.
        assert_eq!(min_max_half(0x3c00, 0xc000, true, false, false), 0xc000);
        assert_eq!(min_max_half(0x3c00, 0xc000, false, false, false), 0x3c00);
        assert_eq!(min_max_half(0x0000, 0x8000, true, false, false), 0x8000);
        assert_eq!(min_max_half(0x0000, 0x8000, false, false, false), 0x0000);
        assert_eq!(min_max_half(0x7e00, 0x3c00, true, false, false), 0x3c00);
        assert_eq!(min_max_half(0x7e00, 0x3c00, true, false, true), 0x7fff);
        // bf16 bits: 1.0 = 0x3f80, 2.0 = 0x4000.
        assert_eq!(min_max_half(0x4000, 0x3f80, true, true, false), 0x3f80);
        // A subnormal f16 (0x0001) flushes to +0, a normal one stays.
        assert_eq!((ftz_half(0x0001, false), ftz_half(0x8001, false), ftz_half(0x0400, false)), (0, 0x8000, 0x0400));
    }

    #[test]
    fn half_conversions_round_and_saturate() {
        // 1.0, 65504 (largest), 2^-24 (smallest subnormal), from IEEE 754 binary16.
        assert_eq!(f64_to_f16(1.0, Round::Nearest), 0x3c00);
        assert_eq!(f64_to_f16(65504.0, Round::Nearest), 0x7bff);
        assert_eq!(f64_to_f16(65520.0, Round::Nearest), 0x7c00);
        assert_eq!(f64_to_f16(65520.0, Round::Zero), 0x7bff);
        assert_eq!(f64_to_f16(2f64.powi(-24), Round::Nearest), 0x0001);
        assert_eq!(f64_to_f16(-0.0, Round::Nearest), 0x8000);
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11), Round::Nearest), 0x3c00, "tie to even");
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11), Round::Nearest), 0x3c02, "tie to even, up");
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-12), Round::Up), 0x3c01);
        assert_eq!(f16_to_f64(0x3555), 0.333251953125);
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(f64_to_bf16(1.0, Round::Nearest), 0x3f80);
        assert_eq!(bf16_to_f64(0x4049), 3.140625);
        // Any NaN, negative or with a payload, becomes the canonical 0x7fff.
        assert_eq!(f64_to_bf16(f64::from(f32::from_bits(0xffc0_0001)), Round::Nearest), 0x7fff);
        assert_eq!(f64_to_f16(-f64::NAN, Round::Nearest), 0x7fff);
        assert_eq!(f64_to_f16(f64::NAN, Round::Zero), 0x7fff);
        for h in 0..=0xffffu16 {
            let v = f16_to_f64(h);
            if !v.is_nan() {
                assert_eq!(f64_to_f16(v, Round::Nearest), h, "{h:#x}");
            }
        }
    }

    #[test]
    fn directed_rounding_moves_by_one_ulp_when_inexact() {
        let third = add32(1.0, 2f32.powi(-30), Round::Up);
        assert_eq!(third, up32(1.0));
        assert_eq!(add32(1.0, 2f32.powi(-30), Round::Down), 1.0);
        assert_eq!(add32(1.0, -(2f32.powi(-30)), Round::Zero), down32(1.0));
        assert_eq!(mul32(3.0, 1.0 / 3.0, Round::Nearest), 1.0);
        assert_eq!(f64_to_f32(1.0 / 3.0, Round::Zero).to_bits(), 0x3eaa_aaaa);
        assert_eq!(f64_to_f32(1.0 / 3.0, Round::Up).to_bits(), 0x3eaa_aaab);
        assert_eq!(float_to_int(-1.5, Round::Nearest, 32, true), (-2i64) as u64 & 0xffff_ffff);
        assert_eq!(float_to_int(3e9, Round::Zero, 32, true), 0x7fff_ffff);
        assert_eq!(float_to_int(-3.0, Round::Zero, 32, false), 0);
        assert_eq!(float_to_int(f64::NAN, Round::Zero, 32, true), 0);
    }

    #[test]
    fn fp8_codes_round_trip_and_saturate() {
        // E5M2 is the high byte of an f16 (PTX ISA): its values are those.
        for code in 0u8..=0xff {
            let v = Fp8::E5M2.decode(code);
            let h = f16_to_f64(u16::from(code) << 8);
            assert!(v == h || (v.is_nan() && h.is_nan()), "e5m2 {code:#x}: {v} vs {h}");
        }
        assert_eq!(Fp8::E4M3.decode(0x7e), 448.0);
        assert_eq!(Fp8::E4M3.decode(0x01), 2f64.powi(-9));
        assert_eq!(Fp8::E4M3.decode(0x38), 1.0);
        assert!(Fp8::E4M3.decode(0x7f).is_nan());
        assert_eq!(Fp8::E4M3.encode_satfinite(1.0), 0x38);
        assert_eq!(Fp8::E4M3.encode_satfinite(-1e9), 0xfe);
        assert_eq!(Fp8::E4M3.encode_satfinite(f64::INFINITY), 0x7e);
        assert_eq!(Fp8::E5M2.encode_satfinite(1e9), 0x7b);
        // 1.0625 lies halfway between 1.0 (0x38, even) and 1.125 (0x39).
        assert_eq!(Fp8::E4M3.encode_satfinite(1.0625), 0x38);
        assert_eq!(Fp8::E4M3.encode_satfinite(1.1875), 0x3a);
    }

    #[test]
    fn warp_float_reduction_follows_the_isa() {
        // Words worked out by hand from the PTX ISA's rules for
        // `redux.sync.{min,max}{.abs}{.NaN}.f32`.
        const NAN: u32 = 0x7fc0_0000;
        const NEG_NAN: u32 = 0xffc0_0001;
        let r = |v: &[u32], min, abs, nan| redux_f32(v.iter().copied(), min, abs, nan);
        // 1.0, -3.5, 2.0: min -3.5, max 2.0, min |x| 1.0, max |x| 3.5.
        let plain = [0x3f80_0000, 0xc060_0000, 0x4000_0000];
        assert_eq!(r(&plain, true, false, false), 0xc060_0000);
        assert_eq!(r(&plain, false, false, false), 0x4000_0000);
        assert_eq!(r(&plain, true, true, false), 0x3f80_0000);
        assert_eq!(r(&plain, false, true, false), 0x4060_0000);
        // A NaN is skipped without `.NaN`, gives the canonical NaN with it.
        let with_nan = [0x3f80_0000, NEG_NAN, 0xc060_0000];
        assert_eq!(r(&with_nan, true, false, false), 0xc060_0000);
        assert_eq!(r(&with_nan, false, true, false), 0x4060_0000);
        assert_eq!(r(&with_nan, false, false, true), 0x7fff_ffff);
        assert_eq!(r(&with_nan, true, true, true), 0x7fff_ffff);
        // Only NaNs, or no lane: the canonical NaN.
        assert_eq!(r(&[NAN, NEG_NAN], true, false, false), 0x7fff_ffff);
        assert_eq!(r(&[], false, false, false), 0x7fff_ffff);
        // +0.0 > -0.0, in either order; |−0.0| is +0.0.
        assert_eq!(r(&[0, 0x8000_0000], true, false, false), 0x8000_0000);
        assert_eq!(r(&[0x8000_0000, 0], false, false, false), 0);
        assert_eq!(r(&[0x8000_0000, 0x8000_0000], true, true, false), 0);
        // Infinities and subnormals are values like any other (no flush).
        assert_eq!(r(&[0xff80_0000, 0x0000_0001], false, true, false), 0x7f80_0000);
        assert_eq!(r(&[0x3f80_0000, 0x0000_0001], true, false, false), 0x0000_0001);
    }
}
