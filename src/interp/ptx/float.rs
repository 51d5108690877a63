//! Bit-exact floating point for the PTX interpreter: rounding an exact (or
//! exactly bracketed) value to any binary format under any IEEE rounding
//! mode, the formats PTX names (f64, f32, f16, bf16, tf32, e4m3, e5m2), and
//! the arithmetic of `add/sub/mul/fma/div/sqrt/rcp` with directed rounding.
//!
//! How directed rounding is made exact: every f32/f16/bf16 operation is
//! computed in f64 as `r + e`, where `r` is the f64 result and `e` the exact
//! error term (TwoSum for sums, exact products of f32 inputs, FMA residuals
//! for quotients and roots); [`round_to`] then rounds the true value using
//! `r`'s bits and the sign of `e` as a sticky bit. f64 operations get the
//! same treatment against f64 itself: the round-to-nearest result is
//! computed by the host and moved one ulp toward the true value when the
//! error term says the mode wants the other neighbour. The only inexact
//! case is f64 `fma` with directed rounding, whose error term is the sum of
//! two exact error terms, rounded (its sign is right except when the two
//! nearly cancel).

/// IEEE rounding of a result (PTX `.rn .rz .rm .rp` and `.rna`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// To nearest, ties to even.
    Nearest,
    /// Toward zero.
    Zero,
    /// Toward minus infinity.
    Down,
    /// Toward plus infinity.
    Up,
    /// To nearest, ties away from zero.
    NearestAway,
}

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Stored mantissa bits.
    pub man_bits: u32,
    /// Whether the all-ones exponent means infinity/NaN (false for e4m3,
    /// whose only NaN is S.1111.111 and which has no infinity).
    pub ieee_specials: bool,
}

/// IEEE binary64.
pub const F64: Format = Format { exp_bits: 11, man_bits: 52, ieee_specials: true };
/// IEEE binary32.
pub const F32: Format = Format { exp_bits: 8, man_bits: 23, ieee_specials: true };
/// IEEE binary16.
pub const F16: Format = Format { exp_bits: 5, man_bits: 10, ieee_specials: true };
/// bfloat16.
pub const BF16: Format = Format { exp_bits: 8, man_bits: 7, ieee_specials: true };
/// OCP FP8 E5M2 (IEEE-like).
pub const E5M2: Format = Format { exp_bits: 5, man_bits: 2, ieee_specials: true };
/// OCP FP8 E4M3 (no infinity, NaN is the all-ones pattern, max 448).
pub const E4M3: Format = Format { exp_bits: 4, man_bits: 3, ieee_specials: false };

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    /// The sign bit.
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.exp_bits + self.man_bits)
    }
    /// Largest finite magnitude's bits.
    pub fn max_finite(self) -> u64 {
        if self.ieee_specials {
            (((1u64 << self.exp_bits) - 2) << self.man_bits) | ((1u64 << self.man_bits) - 1)
        } else {
            // e4m3: exponent all ones with mantissa 110.
            (((1u64 << self.exp_bits) - 1) << self.man_bits) | ((1u64 << self.man_bits) - 2)
        }
    }
    /// Infinity's bits (the max finite value where there is none).
    pub fn infinity(self) -> u64 {
        if self.ieee_specials {
            ((1u64 << self.exp_bits) - 1) << self.man_bits
        } else {
            self.max_finite()
        }
    }
    /// The canonical NaN PTX produces in this format (all mantissa bits set,
    /// sign clear: 0x7fffffff for f32, 0x7fff for f16).
    pub fn canonical_nan(self) -> u64 {
        (1u64 << (self.exp_bits + self.man_bits)) - 1
    }

    /// Whether `bits` is a NaN.
    pub fn is_nan(self, bits: u64) -> bool {
        let mag = bits & (self.sign_bit() - 1);
        if self.ieee_specials {
            mag > self.infinity()
        } else {
            mag == (1u64 << (self.exp_bits + self.man_bits)) - 1
        }
    }

    /// Whether `bits` is subnormal (nonzero with a zero exponent).
    pub fn is_subnormal(self, bits: u64) -> bool {
        let mag = bits & (self.sign_bit() - 1);
        mag != 0 && mag < (1u64 << self.man_bits)
    }

    /// The exact value of `bits` as f64 (every format here fits).
    pub fn to_f64(self, bits: u64) -> f64 {
        if self == F64 {
            return f64::from_bits(bits);
        }
        if self == F32 {
            return f32::from_bits(bits as u32) as f64;
        }
        let neg = bits & self.sign_bit() != 0;
        let exp = ((bits >> self.man_bits) & ((1 << self.exp_bits) - 1)) as i32;
        let man = bits & ((1 << self.man_bits) - 1);
        let mag = if self.is_nan(bits) {
            f64::NAN
        } else if self.ieee_specials && exp == (1 << self.exp_bits) - 1 {
            f64::INFINITY
        } else if exp == 0 {
            man as f64 * pow2(1 - self.bias() - self.man_bits as i32)
        } else {
            ((1u64 << self.man_bits) | man) as f64 * pow2(exp - self.bias() - self.man_bits as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// Flushes a subnormal to a zero of the same sign (`.ftz`).
    pub fn flush(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
}

/// `2^k` for the exponents the formats here need (normal in f64).
#[inline]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k.clamp(-1022, 1023) + 1023) as u64) << 52)
}

/// Rounds `x + tail` to `fmt` under `mode`, where `x` is an f64 and `tail`
/// an error term far below `x`'s last bit (only its sign matters; 0 when
/// `x` is exact). `satfinite` clamps overflow to the largest finite value
/// (and NaN to NaN). Returns the bits.
pub fn round_to(x: f64, tail: f64, fmt: Format, mode: Mode, satfinite: bool) -> u64 {
    if x.is_nan() {
        return fmt.canonical_nan();
    }
    let neg = x.is_sign_negative();
    let sign = if neg { fmt.sign_bit() } else { 0 };
    let overflow = |sign: u64| -> u64 {
        let to_inf = match mode {
            Mode::Nearest | Mode::NearestAway => true,
            Mode::Zero => false,
            Mode::Up => sign == 0,
            Mode::Down => sign != 0,
        };
        if to_inf && !satfinite {
            sign | fmt.infinity()
        } else {
            sign | fmt.max_finite()
        }
    };
    if x.is_infinite() {
        return if satfinite { sign | fmt.max_finite() } else { sign | fmt.infinity() };
    }
    if fmt == F64 {
        return round_f64(x, tail, mode);
    }
    let a = x.abs();
    // Tail's sign relative to the magnitude.
    let tail = if tail.is_nan() { 0.0 } else { tail };
    let mag_tail: i32 = if tail == 0.0 {
        0
    } else if (tail > 0.0) != neg {
        1
    } else {
        -1
    };
    if a == 0.0 {
        // The tail is relative to x; a zero x with a tail only comes from
        // an exact zero sum, which IEEE signs by the mode.
        return sign;
    }
    // a = m * 2^e with m a 53-bit integer whose top bit is set.
    let raw = a.to_bits();
    let (mut m, mut e) = if raw >> 52 == 0 { (raw, -1074i32) } else { ((raw & ((1 << 52) - 1)) | (1 << 52), ((raw >> 52) as i32) - 1075) };
    while m < (1 << 52) {
        m <<= 1;
        e -= 1;
    }
    let top = e + 52; // floor(log2 a)
    let bias = fmt.bias();
    let emin = 1 - bias;
    let mb = fmt.man_bits as i32;
    let emax = if fmt.ieee_specials { bias } else { bias + 1 };
    if top > emax {
        return overflow(sign);
    }
    let mut q = if top < emin { emin - mb } else { top - mb };
    let shift = q - e;
    let (mut kept, rem_class) = if shift <= 0 {
        (m << (-shift) as u32, 0i32) // exact
    } else if shift > 60 {
        (0u64, -2) // far below half, nonzero
    } else {
        let kept = m >> shift;
        let r = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let class = if r == 0 {
            0
        } else if r < half {
            -2
        } else if r == half {
            -1 // exact tie (before the tail)
        } else {
            2
        };
        (kept, class)
    };
    // Fold the tail into a classification of the dropped fraction:
    // 0 exact, 1 below half, 2 tie, 3 above half.
    let frac = match (rem_class, mag_tail) {
        (0, 0) => 0,
        (0, 1) => 1,
        (0, _) => {
            // Just below `kept`: step down, the fraction is just below one.
            // Below a power of two (a normal `kept` of 2^mb) the value is
            // in the binade beneath, whose last bit is half as large: the
            // kept bits gain a one and the fraction stays just below one
            // (1 - tiny rounds toward zero to 0x3f7fffff, not to the
            // subnormal 0x007fffff).
            kept -= 1;
            if kept < 1u64 << mb && q > emin - mb {
                kept = (kept << 1) | 1;
                q -= 1;
            }
            3
        }
        (-2, _) => 1,
        (-1, 0) => 2,
        (-1, 1) => 3,
        (-1, _) => 1,
        _ => 3,
    };
    let up = match mode {
        Mode::Zero => false,
        Mode::Nearest => frac == 3 || (frac == 2 && kept & 1 == 1),
        Mode::NearestAway => frac >= 2,
        Mode::Up => frac != 0 && !neg,
        Mode::Down => frac != 0 && neg,
    };
    if up {
        kept += 1;
    }
    if kept >= 1u64 << (mb + 1) {
        kept >>= 1;
        q += 1;
    }
    if kept == 0 {
        return sign;
    }
    let bits = if kept >= 1u64 << mb {
        let biased = q + mb + bias;
        let max_biased = if fmt.ieee_specials { (1 << fmt.exp_bits) - 2 } else { (1 << fmt.exp_bits) - 1 };
        if biased > max_biased {
            return overflow(sign);
        }
        let b = ((biased as u64) << mb) | (kept - (1u64 << mb));
        if !fmt.ieee_specials && b > fmt.max_finite() {
            return overflow(sign);
        }
        b
    } else {
        kept
    };
    sign | bits
}

/// `x + tail` rounded to f64: `x` is the round-to-nearest result.
fn round_f64(x: f64, tail: f64, mode: Mode) -> u64 {
    if tail == 0.0 || tail.is_nan() || !x.is_finite() {
        return x.to_bits();
    }
    let r = match mode {
        Mode::Nearest | Mode::NearestAway => x,
        Mode::Zero => {
            if (tail > 0.0) != (x > 0.0) && x != 0.0 {
                toward_zero(x)
            } else {
                x
            }
        }
        Mode::Up => {
            if tail > 0.0 {
                next_up(x)
            } else {
                x
            }
        }
        Mode::Down => {
            if tail < 0.0 {
                next_down(x)
            } else {
                x
            }
        }
    };
    r.to_bits()
}

fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

fn toward_zero(x: f64) -> f64 {
    if x > 0.0 {
        next_down(x)
    } else {
        next_up(x)
    }
}

/// Exact sum as `(rounded, error)` (Knuth's TwoSum).
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, if err.is_finite() { err } else { 0.0 })
}

/// An exact-or-bracketed result: value `hi`, error `lo`.
#[derive(Clone, Copy, Debug)]
pub struct Exact {
    /// The f64 result.
    pub hi: f64,
    /// The error term's sign (and rough size).
    pub lo: f64,
    /// The exact value of finite operands is beyond f64's range, so `hi`
    /// is the round-to-nearest ±infinity: under a directed rounding the
    /// result is the largest finite value instead (PTX ISA, "Floating
    /// Point Instructions": IEEE 754 rounding, where a mode toward zero
    /// or away from the value's infinity never produces it).
    pub overflowed: bool,
    /// The exact value is a zero from addends of opposite signs (`x - x`,
    /// `+0 + -0`): IEEE 754 gives +0 under every mode but toward -infinity,
    /// which gives -0 (the round-to-nearest `hi` is +0).
    pub zero_sum: bool,
}

impl Exact {
    /// A value with no error term.
    pub fn exact(x: f64) -> Exact {
        Exact { hi: x, lo: 0.0, overflowed: false, zero_sum: false }
    }

    /// `hi` rounded to nearest from the finite operands `operands`:
    /// infinite only when the exact result overflowed.
    fn from_finite(hi: f64, lo: f64, operands: &[f64]) -> Exact {
        Exact { hi, lo, overflowed: hi.is_infinite() && operands.iter().all(|x| x.is_finite()), zero_sum: false }
    }

    /// A product or quotient of nonzero finite values that rounded to
    /// nearest to ±0: the exact value is nonzero, below half the smallest
    /// subnormal, so a directed rounding away from zero gives the smallest
    /// subnormal of the zero's sign (IEEE 754 underflow). The tail carries
    /// that sign.
    fn underflowed(hi: f64) -> Exact {
        Exact { hi, lo: hi.signum() * f64::from_bits(1), overflowed: false, zero_sum: false }
    }
}

/// Whether `x + y`, whose exact sum is `hi + lo`, is a zero from addends
/// that are not two zeros of one sign.
fn is_zero_sum(hi: f64, lo: f64, x: f64, y: f64) -> bool {
    hi == 0.0 && lo == 0.0 && !(x == 0.0 && y == 0.0 && x.is_sign_negative() == y.is_sign_negative())
}

/// `a + b` exactly bracketed.
pub fn add(a: f64, b: f64) -> Exact {
    let (hi, lo) = two_sum(a, b);
    Exact { zero_sum: is_zero_sum(hi, lo, a, b), ..Exact::from_finite(hi, lo, &[a, b]) }
}

/// `a * b` exactly bracketed.
pub fn mul(a: f64, b: f64) -> Exact {
    let hi = a * b;
    if is_tiny_product(a, b, hi) {
        let (lo, _) = tiny_product_tail(a, b, 0.0, hi);
        return Exact { hi, lo, overflowed: false, zero_sum: false };
    }
    let lo = if hi.is_finite() { a.mul_add(b, -hi) } else { 0.0 };
    Exact::from_finite(hi, lo, &[a, b])
}

/// `a * b + c` (f64 inputs); exact when `a*b` fits in f64 (inputs of at
/// most 26 significant bits, e.g. f32 values).
pub fn fma(a: f64, b: f64, c: f64) -> Exact {
    let hi = a.mul_add(b, c);
    if !hi.is_finite() {
        return Exact::from_finite(hi, 0.0, &[a, b, c]);
    }
    let p = a * b;
    if is_tiny_product(a, b, p) {
        let (lo, zero) = tiny_product_tail(a, b, c, hi);
        return Exact { hi, lo, overflowed: false, zero_sum: zero };
    }
    let pe = a.mul_add(b, -p);
    let (s, se) = two_sum(p, c);
    // hi is the correctly rounded a*b+c; the remainder (s - hi) + se + pe.
    let lo = ((s - hi) + se) + pe;
    // The product's sign with its zero (p is exact when it is zero and a,
    // b are finite: a zero factor).
    let zero_sum = pe == 0.0 && is_zero_sum(hi, lo, p, c);
    Exact { hi, lo, overflowed: false, zero_sum }
}

/// Whether the finite nonzero factors' product `p` (rounded) is so small
/// that its rounding error falls below the subnormals: `fma(a, b, -p)`
/// then rounds the error itself (to zero, often), and the tail it gives
/// loses its sign. Below 2^-968 a 106-bit product's low half is no longer
/// representable.
#[inline]
fn is_tiny_product(a: f64, b: f64, p: f64) -> bool {
    p.abs() < pow2(-968) && a != 0.0 && b != 0.0 && a.is_finite() && b.is_finite()
}

/// `floor(log2 |x|)` of a finite nonzero `x`, subnormals included.
fn ilogb(x: f64) -> i32 {
    let bits = x.abs().to_bits();
    if bits >> 52 == 0 {
        -1074 + (63 - bits.leading_zeros() as i32)
    } else {
        (bits >> 52) as i32 - 1023
    }
}

/// `x * 2^k`, in steps that stay within f64's exponent range (exact
/// whenever the result is normal or zero: only the exponent changes).
fn scale(x: f64, k: i32) -> f64 {
    let (mut x, mut k) = (x, k);
    while k > 1000 {
        x *= pow2(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= pow2(-1000);
        k += 1000;
    }
    x * pow2(k)
}

/// The error term of `hi`, the round-to-nearest value of `a*b + c`, when
/// the product is tiny ([`is_tiny_product`]): the same error-free sum as
/// [`fma`]'s, computed with `a` and `b` scaled to near one and `c` and
/// `hi` by the same power of two, where every partial result is normal.
/// Returns the tail (only its sign is meaningful: the smallest subnormal
/// of that sign, or 0 when `hi` is exact) and whether the exact value is a
/// zero from addends of opposite signs.
fn tiny_product_tail(a: f64, b: f64, c: f64, hi: f64) -> (f64, bool) {
    let (ka, kb) = (-ilogb(a), -ilogb(b));
    let k = ka + kb;
    let (sa, sb) = (scale(a, ka), scale(b, kb));
    let (sc, sh) = (scale(c, k), scale(hi, k));
    let smallest = f64::from_bits(1);
    if !sc.is_finite() || !sh.is_finite() {
        // c is more than 2^1000 times the product: the result is c (to
        // nearest), and the product is all of the error.
        let negative = a.is_sign_negative() != b.is_sign_negative();
        return (if negative { -smallest } else { smallest }, false);
    }
    let p = sa * sb;
    let pe = sa.mul_add(sb, -p);
    let (s, se) = two_sum(p, sc);
    let rem = ((s - sh) + se) + pe;
    let tail = if rem == 0.0 { 0.0 } else { rem.signum() * smallest };
    (tail, hi == 0.0 && rem == 0.0)
}

/// `a / b` exactly bracketed.
pub fn div(a: f64, b: f64) -> Exact {
    let hi = a / b;
    if hi == 0.0 && a != 0.0 && a.is_finite() && b.is_finite() {
        return Exact::underflowed(hi);
    }
    if !hi.is_finite() || hi == 0.0 {
        // A zero divisor gives an exact infinity, not an overflow.
        return Exact { hi, lo: 0.0, overflowed: hi.is_infinite() && a.is_finite() && b.is_finite() && b != 0.0, zero_sum: false };
    }
    // a - hi*b, exact; for a below about 2^-968 its last bits fall below
    // the subnormals, so a is scaled by 2^1000 and so is b (below one) or
    // else hi (then at most a): the sign is kept and nothing overflows.
    let rem = if a.abs() >= pow2(-900) {
        (-hi).mul_add(b, a)
    } else if b.abs() < 1.0 {
        (-hi).mul_add(scale(b, 1000), scale(a, 1000))
    } else {
        (-scale(hi, 1000)).mul_add(b, scale(a, 1000))
    };
    Exact { hi, lo: tail_of(rem, rem / b, b.signum()), overflowed: false, zero_sum: false }
}

/// `sqrt(a)` exactly bracketed.
pub fn sqrt(a: f64) -> Exact {
    let hi = a.sqrt();
    if !hi.is_finite() || hi == 0.0 {
        return Exact::exact(hi);
    }
    // a - hi^2 is exact unless its last bits fall below the subnormals
    // (a below about 2^-968): then a is scaled by 2^1000 and hi by 2^500,
    // which keeps the remainder's sign.
    let rem = if a < pow2(-900) { (-scale(hi, 500)).mul_add(scale(hi, 500), scale(a, 1000)) } else { (-hi).mul_add(hi, a) };
    Exact { hi, lo: tail_of(rem, rem / (2.0 * hi), 1.0), overflowed: false, zero_sum: false }
}

/// A tail value, keeping its sign when it underflows to zero.
fn tail_of(rem: f64, value: f64, divisor_sign: f64) -> f64 {
    if rem == 0.0 || rem.is_nan() {
        0.0
    } else if value != 0.0 {
        value
    } else {
        rem.signum() * divisor_sign * f64::from_bits(1)
    }
}

impl Exact {
    /// The value rounded to `fmt`.
    #[inline]
    pub fn round(self, fmt: Format, mode: Mode) -> u64 {
        if self.zero_sum {
            return if mode == Mode::Down { fmt.sign_bit() } else { 0 };
        }
        if self.overflowed {
            // Beyond every format's range: the mode decides between the
            // infinity and the largest finite value of the value's sign.
            let sign = if self.hi.is_sign_negative() { fmt.sign_bit() } else { 0 };
            let to_inf = match mode {
                Mode::Nearest | Mode::NearestAway => true,
                Mode::Zero => false,
                Mode::Up => sign == 0,
                Mode::Down => sign != 0,
            };
            return sign | if to_inf { fmt.infinity() } else { fmt.max_finite() };
        }
        if mode == Mode::Nearest && fmt == F32 {
            // Fast path: the host's f64→f32 conversion rounds `hi` to nearest
            // correctly; only when `hi` is exactly halfway between two f32
            // values (low 29 bits 1000...0) can `lo` change the result, and
            // below f32's normal range the halfway bit sits elsewhere.
            let a = self.hi.abs();
            if a >= f32::MIN_POSITIVE as f64 && a <= f32::MAX as f64 && self.hi.to_bits() & ((1 << 29) - 1) != 1 << 28 {
                return (self.hi as f32).to_bits() as u64;
            }
        }
        round_to(self.hi, self.lo, fmt, mode, false)
    }
}

/// Rounds an f64 value (exact) to `fmt`.
pub fn from_f64(x: f64, fmt: Format, mode: Mode) -> u64 {
    round_to(x, 0.0, fmt, mode, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_like_the_host_to_nearest() {
        for &x in &[1.0f64, 1.0 + f64::EPSILON, 0.1, -3.7e-40, 1e-46, 3.4028235677973366e38, 3.5e38, -0.0, 5.877471754111438e-39] {
            assert_eq!(round_to(x, 0.0, F32, Mode::Nearest, false) as u32, (x as f32).to_bits(), "{x}");
        }
    }

    #[test]
    fn directed_rounding_brackets_the_value() {
        // 1/3 in f32 is 0x3eaaaaaa.aaa... in units of the last place: RZ
        // and RM give the lower neighbour, RP and RN (fraction above half)
        // the upper.
        let e = div(1.0, 3.0);
        assert_eq!(e.round(F32, Mode::Zero), 0x3eaa_aaaa);
        assert_eq!(e.round(F32, Mode::Down), 0x3eaa_aaaa);
        assert_eq!(e.round(F32, Mode::Up), 0x3eaa_aaab);
        assert_eq!(e.round(F32, Mode::Nearest), 0x3eaa_aaab);
        let n = div(-1.0, 3.0);
        assert_eq!(n.round(F32, Mode::Down), 0xbeaa_aaab);
        assert_eq!(n.round(F32, Mode::Zero), 0xbeaa_aaaa);
        // f64: 1/3 = 0x3fd5555555555555 and a remainder below half an ulp
        // (the pattern 0101... continues), so nearest is down and up is one more.
        assert_eq!((1.0f64 / 3.0).to_bits(), 0x3fd5_5555_5555_5555);
        assert_eq!(div(1.0, 3.0).round(F64, Mode::Up), 0x3fd5_5555_5555_5556);
        assert_eq!(div(1.0, 3.0).round(F64, Mode::Down), 0x3fd5_5555_5555_5555);
        assert_eq!(div(-1.0, 3.0).round(F64, Mode::Zero), 0xbfd5_5555_5555_5555);
        assert_eq!(div(-1.0, 3.0).round(F64, Mode::Down), 0xbfd5_5555_5555_5556);
        // Overflow: RZ gives the max finite.
        assert_eq!(mul(3e38, 10.0).round(F32, Mode::Zero), 0x7f7f_ffff);
        assert_eq!(mul(3e38, 10.0).round(F32, Mode::Nearest), 0x7f80_0000);
    }

    /// A product whose rounding error is below the subnormals still
    /// decides a directed rounding: `fma.rp.f64` of a positive product of
    /// about 6.4e-325 (below the smallest subnormal) added to a negative
    /// c gives the neighbour of c toward zero (ptxas's DFMA.RP, fuzzing
    /// seed 5000024 on sm_120); f32 products scaled into the f64
    /// subnormals keep their tail too.
    #[test]
    fn directed_rounding_of_tiny_products() {
        let c = -f64::from_bits(0x43b7_4436_ec77_052b);
        let sum = fma(-4.2369868497248335e-17, -1.521478907334323e-308, c);
        assert_eq!(sum.round(F64, Mode::Up), 0xc3b7_4436_ec77_052a);
        assert_eq!(sum.round(F64, Mode::Down), 0xc3b7_4436_ec77_052b);
        assert_eq!(sum.round(F64, Mode::Zero), 0xc3b7_4436_ec77_052a);
        // The smallest subnormal times 0.75 is 0.75 of it: to nearest 1
        // unit, toward zero 0, up 1.
        let p = mul(f64::from_bits(1), 0.75);
        assert_eq!(p.round(F64, Mode::Zero), 0);
        assert_eq!(p.round(F64, Mode::Up), 1);
        // 3 units times 0.5 is 1.5 units: nearest even 2, down 1, up 2.
        let p = mul(f64::from_bits(3), 0.5);
        assert_eq!(p.round(F64, Mode::Down), 1);
        assert_eq!(p.round(F64, Mode::Up), 2);
        // A tiny product cancelling c exactly is a zero sum: -0 only
        // toward -infinity.
        let z = fma(f64::from_bits(4), 0.5, -f64::from_bits(2));
        assert_eq!(z.round(F64, Mode::Down), 1 << 63);
        assert_eq!(z.round(F64, Mode::Up), 0);
    }

    /// Square roots and quotients of values near the bottom of the normal
    /// range: the remainder `a - hi^2` falls below the subnormals unless
    /// scaled. sqrt.rm.f64 of 0x1.4c1fb8f51e9d4p-1021 is
    /// 0x1.9c5e3b692ea9cp-511 (ptxas's code; its square is below the
    /// input and the next value's above), fuzzing seed 5003169 on sm_120.
    #[test]
    fn directed_rounding_of_tiny_roots_and_quotients() {
        let r = sqrt(f64::from_bits(0x0024_c1fb_8f51_e9d4));
        assert_eq!(r.round(F64, Mode::Down), 0x2009_c5e3_b692_ea9c);
        assert_eq!(r.round(F64, Mode::Up), 0x2009_c5e3_b692_ea9d);
        // 2^-1060 / (3 * 2^-60) = 2^-1000 / 3: 1/3 rounds down to nearest
        // in f64, so up is one more; the remainder (about 2^-1113) is
        // below the subnormals unscaled.
        let q = div((2f64).powi(-1060), 3.0 * (2f64).powi(-60));
        let nearest = ((2f64).powi(-1000) / 3.0).to_bits();
        assert_eq!(q.round(F64, Mode::Down), nearest);
        assert_eq!(q.round(F64, Mode::Up), nearest + 1);
        // A tiny dividend over a tinier divisor: an exact quotient of
        // about 2^68 (ptxas's div.rz.f64, fuzzing seed 6000502 on sm_90)
        // stays exact; scaling the quotient by 2^1000 would overflow.
        let (a, b) = (f64::from_bits(0x861c_d1f3_e6e4_ac04), f64::from_bits(0x01d3_5ed5_dc05_143d));
        let q = div(a, b);
        assert_eq!(q.hi.to_bits(), 0xc437_ce31_2000_0000);
        assert_eq!(q.round(F64, Mode::Zero), 0xc437_ce31_2000_0000);
        assert_eq!(q.round(F64, Mode::Up), 0xc437_ce31_2000_0000);
    }

    /// A sum just below a power of two (1 - 2^-100: the f64 sum is 1.0
    /// with a negative tail) rounds toward zero to the largest f32 below
    /// one, 0x3f7fffff, as ptxas's `sub.rz.f32` computes it; rounding
    /// down from a power of two must step into the binade beneath, whose
    /// last place is half as large. Nearest and up give 1.0.
    #[test]
    fn directed_rounding_just_below_a_power_of_two() {
        let below_one = add(1.0, -(2f64).powi(-100));
        assert_eq!(below_one.round(F32, Mode::Zero), 0x3f7f_ffff);
        assert_eq!(below_one.round(F32, Mode::Down), 0x3f7f_ffff);
        assert_eq!(below_one.round(F32, Mode::Nearest), 0x3f80_0000);
        assert_eq!(below_one.round(F32, Mode::Up), 0x3f80_0000);
        let above_minus_two = add(-2.0, (2f64).powi(-90));
        assert_eq!(above_minus_two.round(F32, Mode::Zero), 0xbfff_ffff);
        assert_eq!(above_minus_two.round(F32, Mode::Up), 0xbfff_ffff);
        assert_eq!(above_minus_two.round(F32, Mode::Down), 0xc000_0000);
        // f16: 1 - tiny toward zero is 0x3bff.
        assert_eq!(below_one.round(F16, Mode::Zero), 0x3bff);
        // At the bottom of the normal range the step down lands on the
        // largest subnormal: 2^-126 - tiny toward zero is 0x007fffff.
        let below_min_normal = add((2f64).powi(-126), -(2f64).powi(-200));
        assert_eq!(below_min_normal.round(F32, Mode::Zero), 0x007f_ffff);
    }

    /// An f64 result beyond the range: IEEE 754 (which the PTX ISA's
    /// `.rn`/`.rz`/`.rm`/`.rp` follow) gives the infinity only when the
    /// mode rounds toward it; `.rz` and the mode toward the other infinity
    /// give the largest finite value of the sign (0x7fefffffffffffff). An
    /// infinity that is exact (an infinite operand, a zero divisor) stays
    /// infinite under every mode.
    #[test]
    fn f64_overflow_follows_the_rounding_mode() {
        const MAX: u64 = 0x7fef_ffff_ffff_ffff;
        const INF: u64 = 0x7ff0_0000_0000_0000;
        const NEG: u64 = 0x8000_0000_0000_0000;
        let big = mul(1e308, 10.0);
        assert_eq!(big.round(F64, Mode::Nearest), INF);
        assert_eq!(big.round(F64, Mode::Zero), MAX);
        assert_eq!(big.round(F64, Mode::Down), MAX);
        assert_eq!(big.round(F64, Mode::Up), INF);
        let small = mul(-1e308, 10.0);
        assert_eq!(small.round(F64, Mode::Zero), NEG | MAX);
        assert_eq!(small.round(F64, Mode::Up), NEG | MAX);
        assert_eq!(small.round(F64, Mode::Down), NEG | INF);
        assert_eq!(add(f64::MAX, f64::MAX).round(F64, Mode::Zero), MAX);
        assert_eq!(fma(f64::MAX, 2.0, 1.0).round(F64, Mode::Down), MAX);
        assert_eq!(div(1e308, 1e-10).round(F64, Mode::Zero), MAX);
        // 1 / 2^-1074 = 2^1074: the reciprocal of the smallest subnormal.
        assert_eq!(div(1.0, f64::from_bits(1)).round(F64, Mode::Zero), MAX);
        // Exact infinities.
        assert_eq!(add(f64::INFINITY, 1.0).round(F64, Mode::Zero), INF);
        assert_eq!(div(1.0, 0.0).round(F64, Mode::Zero), INF);
        assert_eq!(mul(f64::NEG_INFINITY, 2.0).round(F64, Mode::Up), NEG | INF);
    }

    /// A nonzero f64 product or quotient below half the smallest subnormal
    /// (2^-1075): to nearest and toward zero it is a zero of its sign,
    /// away from zero the smallest subnormal 0x0000000000000001 (IEEE 754).
    /// Seed 130 of the differential fuzzer: div.rm.f64 of 2.1e-214 by
    /// -2.95e141.
    #[test]
    fn f64_underflow_follows_the_rounding_mode() {
        let q = div(2.1177332930412802e-214, -2.9512678094761856e141);
        assert_eq!(q.round(F64, Mode::Down), 0x8000_0000_0000_0001);
        assert_eq!(q.round(F64, Mode::Zero), 0x8000_0000_0000_0000);
        assert_eq!(q.round(F64, Mode::Up), 0x8000_0000_0000_0000);
        assert_eq!(q.round(F64, Mode::Nearest), 0x8000_0000_0000_0000);
        let p = mul(1e-200, 1e-200);
        assert_eq!(p.round(F64, Mode::Up), 1);
        assert_eq!(p.round(F64, Mode::Down), 0);
        assert_eq!(fma(-1e-200, 1e-200, 0.0).round(F64, Mode::Down), 0x8000_0000_0000_0001);
        // Exact zeros stay zeros.
        assert_eq!(mul(0.0, -5.0).round(F64, Mode::Down), 0x8000_0000_0000_0000);
        assert_eq!(div(0.0, 3.0).round(F64, Mode::Up), 0);
    }

    /// IEEE 754 (6.3): an exact zero sum of addends of opposite signs is
    /// +0, except under roundTowardNegative (PTX's .rm), where it is -0;
    /// two zeros of one sign keep it.
    #[test]
    fn exact_zero_sums_are_negative_only_toward_minus_infinity() {
        for fmt in [F32, F64] {
            let neg = fmt.sign_bit();
            assert_eq!(add(1.5, -1.5).round(fmt, Mode::Down), neg);
            assert_eq!(add(1.5, -1.5).round(fmt, Mode::Zero), 0);
            assert_eq!(add(1.5, -1.5).round(fmt, Mode::Up), 0);
            assert_eq!(add(1.5, -1.5).round(fmt, Mode::Nearest), 0);
            assert_eq!(add(0.0, -0.0).round(fmt, Mode::Down), neg);
            assert_eq!(add(-0.0, -0.0).round(fmt, Mode::Up), neg);
            assert_eq!(add(0.0, 0.0).round(fmt, Mode::Down), 0);
            assert_eq!(fma(2.0, 3.0, -6.0).round(fmt, Mode::Down), neg);
            assert_eq!(fma(2.0, 3.0, -6.0).round(fmt, Mode::Up), 0);
            assert_eq!(fma(-0.0, 3.0, 0.0).round(fmt, Mode::Down), neg);
            assert_eq!(fma(-0.0, 3.0, -0.0).round(fmt, Mode::Up), neg);
        }
    }

    #[test]
    fn small_formats() {
        assert_eq!(from_f64(1.0, F16, Mode::Nearest), 0x3c00);
        assert_eq!(from_f64(65520.0, F16, Mode::Nearest), 0x7c00);
        assert_eq!(from_f64(65519.0, F16, Mode::Nearest), 0x7bff);
        assert_eq!(from_f64(1.0, BF16, Mode::Nearest), 0x3f80);
        assert_eq!(round_to(1000.0, 0.0, E4M3, Mode::Nearest, true), 0x7e);
        assert_eq!(from_f64(448.0, E4M3, Mode::Nearest), 0x7e);
        assert_eq!(F16.to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(E4M3.to_f64(0x7e), 448.0);
        assert!(E4M3.is_nan(0x7f));
        assert_eq!(round_to(1e6, 0.0, E5M2, Mode::Nearest, true), 0x7b);
        assert_eq!(F32.canonical_nan(), 0x7fff_ffff);
    }
}
