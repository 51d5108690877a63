//! IEEE division, reciprocal and square root, f32 and f64, in each of the
//! four rounding modes: ptx2sass's code for `div.rnd`, `rcp.rnd` and
//! `sqrt.rnd`, run in the SASS interpreter over special and random inputs,
//! must give the correctly rounded result bit for bit.
//!
//! The reference is exact integer arithmetic (below): operands split into
//! integer significands and exponents, the quotient or square root taken
//! with enough extra bits and a sticky bit, then rounded once to the format
//! in the asked mode, subnormals and overflow included. It shares nothing
//! with the compiler or either interpreter. NaN results compare as NaN
//! (PTX leaves the payload open); every other result compares bit for bit,
//! the sign of zero included. No `.ftz`: subnormal inputs and results are
//! kept, as PTX requires for these instructions.
//!
//! `PTX2SASS_IEEE_N` inputs per operation (default 4096, so that the suite
//! stays fast); `scripts/ieee-check.sh` runs the full count (10⁷) on each
//! SM of `PTX2SASS_IEEE_SMS` (default 90).

use ptx2sass::internals::interp::launch::{Fill, LaunchSpec, ParamSpec, ScalarKind};
use ptx2sass::internals::interp::sass;
use ptx2sass::{Options, Target, compile};

/// A binary floating-point format.
#[derive(Clone, Copy, Debug)]
struct Format {
    /// Significand bits, the hidden one included.
    p: u32,
    /// Exponent bits.
    e: u32,
}

const F32: Format = Format { p: 24, e: 8 };
const F64: Format = Format { p: 53, e: 11 };

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.e - 1)) - 1
    }
    /// The exponent of a subnormal's (and the smallest normal's) last bit.
    fn lsb_min(self) -> i32 {
        1 - self.bias() - (self.p as i32 - 1)
    }
    fn sign_bit(self) -> u64 {
        1 << (self.p + self.e - 1)
    }
    fn inf(self, neg: bool) -> u64 {
        (if neg { self.sign_bit() } else { 0 }) | (((1u64 << self.e) - 1) << (self.p - 1))
    }
    fn max_finite(self, neg: bool) -> u64 {
        self.inf(neg) - 1
    }
    fn nan(self) -> u64 {
        self.inf(false) | (1 << (self.p - 2))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Nearest,
    Zero,
    Down,
    Up,
}

const MODES: [(Mode, &str); 4] = [(Mode::Nearest, "rn"), (Mode::Zero, "rz"), (Mode::Down, "rm"), (Mode::Up, "rp")];

/// A decoded operand.
#[derive(Clone, Copy, Debug)]
enum Value {
    Nan,
    Inf(bool),
    Zero(bool),
    /// sign, significand, exponent: the value is `m · 2^e`.
    Finite(bool, u128, i32),
}

fn decode(f: Format, bits: u64) -> Value {
    let neg = bits & f.sign_bit() != 0;
    let exp = ((bits >> (f.p - 1)) & ((1 << f.e) - 1)) as i32;
    let frac = u128::from(bits & ((1u64 << (f.p - 1)) - 1));
    match exp {
        0 if frac == 0 => Value::Zero(neg),
        0 => Value::Finite(neg, frac, f.lsb_min()),
        e if e == (1 << f.e) - 1 => {
            if frac == 0 {
                Value::Inf(neg)
            } else {
                Value::Nan
            }
        }
        e => Value::Finite(neg, frac | 1 << (f.p - 1), e - f.bias() - (f.p as i32 - 1)),
    }
}

/// `m · 2^e` with exactly `p` significant bits.
fn normalize(f: Format, m: u128, e: i32) -> (u128, i32) {
    let shift = f.p as i32 - (128 - m.leading_zeros() as i32);
    (m << shift, e - shift)
}

/// Rounds `sig · 2^exp` (plus something below its last bit when `sticky`)
/// to the format in `mode`.
fn round(f: Format, neg: bool, sig: u128, exp: i32, sticky: bool, mode: Mode) -> u64 {
    let sign = if neg { f.sign_bit() } else { 0 };
    if sig == 0 {
        // Only reached with an exact zero (callers keep guard bits otherwise).
        return sign;
    }
    let bits = 128 - sig.leading_zeros() as i32;
    let shift = (bits - f.p as i32).max(f.lsb_min() - exp);
    let (mut m, mut e, rem, half) = if shift > 0 {
        if shift >= 128 {
            (0, exp + shift, sig, u128::MAX)
        } else {
            (sig >> shift, exp + shift, sig & ((1u128 << shift) - 1), 1u128 << (shift - 1))
        }
    } else {
        (sig << -shift, exp + shift, 0, 1)
    };
    let inexact = rem != 0 || sticky;
    let up = match mode {
        Mode::Nearest => rem > half || rem == half && (sticky || m & 1 == 1) && half != u128::MAX,
        Mode::Zero => false,
        Mode::Down => inexact && neg,
        Mode::Up => inexact && !neg,
    };
    if up {
        m += 1;
        if m == 1 << f.p {
            m >>= 1;
            e += 1;
        }
    }
    if m == 0 {
        return sign;
    }
    if m < 1 << (f.p - 1) {
        // Subnormal: its last bit has the smallest exponent.
        return sign | m as u64;
    }
    let biased = e + f.p as i32 - 1 + f.bias();
    if biased >= (1 << f.e) - 1 {
        let to_inf = match mode {
            Mode::Nearest => true,
            Mode::Zero => false,
            Mode::Down => neg,
            Mode::Up => !neg,
        };
        return if to_inf { f.inf(neg) } else { f.max_finite(neg) };
    }
    sign | (biased as u64) << (f.p - 1) | (m as u64 & ((1 << (f.p - 1)) - 1))
}

fn divide(f: Format, a: u64, b: u64, mode: Mode) -> u64 {
    match (decode(f, a), decode(f, b)) {
        (Value::Nan, _) | (_, Value::Nan) => f.nan(),
        (Value::Inf(_), Value::Inf(_)) | (Value::Zero(_), Value::Zero(_)) => f.nan(),
        (Value::Inf(x), Value::Zero(y) | Value::Finite(y, ..)) | (Value::Finite(x, ..), Value::Zero(y)) => f.inf(x != y),
        (Value::Zero(x), Value::Inf(y) | Value::Finite(y, ..)) | (Value::Finite(x, ..), Value::Inf(y)) => if x != y { f.sign_bit() } else { 0 },
        (Value::Finite(x, ma, ea), Value::Finite(y, mb, eb)) => {
            let ((ma, ea), (mb, eb)) = (normalize(f, ma, ea), normalize(f, mb, eb));
            // A quotient of p + 3 or p + 4 bits: two guard bits at least.
            let k = f.p + 3;
            let num = ma << k;
            round(f, x != y, num / mb, ea - eb - k as i32, num % mb != 0, mode)
        }
    }
}

fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // Newton's iteration from above.
    let mut x = 1u128 << ((128 - n.leading_zeros()).div_ceil(2));
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

fn square_root(f: Format, a: u64, mode: Mode) -> u64 {
    match decode(f, a) {
        Value::Nan | Value::Inf(true) | Value::Finite(true, ..) => f.nan(),
        Value::Inf(false) => f.inf(false),
        Value::Zero(neg) => if neg { f.sign_bit() } else { 0 },
        Value::Finite(false, m, e) => {
            let (mut m, mut e) = normalize(f, m, e);
            if e % 2 != 0 {
                m <<= 1;
                e -= 1;
            }
            // A root of at least p + 2 bits.
            let k = f.p / 2 + 3;
            let n = m << (2 * k);
            let r = isqrt(n);
            round(f, false, r, (e - 2 * k as i32) / 2, r * r != n, mode)
        }
    }
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Inputs: every pair of special values first (zeros, subnormal and
/// normal boundaries, ones, the largest finite, infinities, a NaN, and
/// values whose quotients and roots land on rounding boundaries), then
/// random bit patterns, random values near 1 and random subnormals.
fn inputs(f: Format, n: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let width = f.p + f.e;
    let mask = if width == 64 { u64::MAX } else { (1 << width) - 1 };
    let one = (f.bias() as u64) << (f.p - 1);
    let specials: Vec<u64> = [
        0,
        1,
        2,
        3,
        (1 << (f.p - 1)) - 1,
        1 << (f.p - 1),
        (1 << (f.p - 1)) + 1,
        one,
        one + 1,
        one - 1,
        one + (1 << (f.p - 1)) - 1,
        one + (1 << (f.p - 2)),
        (f.bias() as u64 + 1) << (f.p - 1),
        (3 * f.bias() as u64 / 2) << (f.p - 1),
        f.max_finite(false),
        f.max_finite(false) - 1,
        f.inf(false),
        f.nan(),
    ]
    .into_iter()
    .flat_map(|v| [v, v | f.sign_bit()])
    .collect();
    let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
    'pairs: for &x in &specials {
        for &y in &specials {
            if a.len() == n {
                break 'pairs;
            }
            a.push(x);
            b.push(y);
        }
    }
    let mut rng = Rng(seed);
    while a.len() < n {
        let pick = |rng: &mut Rng| -> u64 {
            let r = rng.next();
            match r % 8 {
                // Near 1: exponent of 1 ± 2, random significand.
                0 | 1 => ((f.bias() as u64 - 2 + (r >> 3) % 5) << (f.p - 1)) | (rng.next() & ((1 << (f.p - 1)) - 1)) | (r >> 63) << (width - 1),
                // Subnormal.
                2 => rng.next() & ((1 << (f.p - 1)) - 1),
                _ => rng.next() & mask,
            }
        };
        a.push(pick(&mut rng));
        b.push(pick(&mut rng));
    }
    (a, b)
}

/// The PTX kernel: thread i computes `op` of a[i] (and b[i]) into out[i].
fn kernel(sm: u16, ty: &str, op: &str) -> String {
    let (reg, bytes) = if ty == "f32" { ("f", 4) } else { ("fd", 8) };
    let decl = if ty == "f32" { ".reg .f32 %f<4>;" } else { ".reg .f64 %fd<4>;" };
    let body = if op.starts_with("div") {
        format!("{op}.{ty} %{reg}3, %{reg}1, %{reg}2;")
    } else {
        format!("{op}.{ty} %{reg}3, %{reg}1;")
    };
    format!(
        ".version 8.7
.target sm_{sm}
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pout, .param .u32 n) {{
  .reg .pred %p1; .reg .b32 %r<6>; .reg .b64 %rd<8>; {decl}
  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  ld.param.u32 %r5, [n];
  setp.ge.u32 %p1, %r4, %r5;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pout];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3;
  mul.wide.u32 %rd4, %r4, {bytes};
  add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4; add.s64 %rd7, %rd3, %rd4;
  ld.global.{ty} %{reg}1, [%rd5];
  ld.global.{ty} %{reg}2, [%rd6];
  {body}
  st.global.{ty} [%rd7], %{reg}3;
DONE:
  ret;
}}
"
    )
}

fn bytes_of(f: Format, v: &[u64]) -> Vec<u8> {
    if f.p == 24 { v.iter().flat_map(|x| (*x as u32).to_le_bytes()).collect() } else { v.iter().flat_map(|x| x.to_le_bytes()).collect() }
}

fn count() -> usize {
    std::env::var("PTX2SASS_IEEE_N").ok().and_then(|s| s.parse().ok()).unwrap_or(4096)
}

fn sms() -> Vec<u16> {
    std::env::var("PTX2SASS_IEEE_SMS").ok().map(|s| s.split(',').filter_map(|x| x.trim().trim_start_matches("sm_").parse().ok()).collect()).unwrap_or_else(|| vec![90])
}

/// Runs one operation over `n` inputs on `sm`; returns the mismatches (at most 10 shown).
fn check(sm: u16, f: Format, op: &str, mode: Mode, n: usize) -> Vec<String> {
    let ty = if f.p == 24 { "f32" } else { "f64" };
    let ptx = kernel(sm, ty, op);
    let cubin = match compile(ptx.as_str(), &Options::new(Target::sm(sm.into()).expect("SM"))) {
        Ok(out) => out.cubin,
        Err(e) => return vec![format!("sm_{sm} {op}.{ty}: does not compile: {e}")],
    };
    let (a, b) = inputs(f, n, 0x1eee_0000 + u64::from(sm) * 131 + op.len() as u64 * 7 + f.p as u64);
    let size = if f.p == 24 { 4 } else { 8 };
    let mut bad = Vec::new();
    // Launches of at most 2^18 threads keep the interpreter's memory small.
    for start in (0..n).step_by(1 << 18) {
        let end = (start + (1 << 18)).min(n);
        let (ca, cb) = (&a[start..end], &b[start..end]);
        let m = ca.len();
        let spec = LaunchSpec {
            kernel: "k".into(),
            grid: [m.div_ceil(128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![
                ParamSpec::Buffer { bytes: m * size, fill: Fill::Hex(bytes_of(f, ca)), output: false },
                ParamSpec::Buffer { bytes: m * size, fill: Fill::Hex(bytes_of(f, cb)), output: false },
                ParamSpec::Buffer { bytes: m * size, fill: Fill::Zero, output: true },
                ParamSpec::Scalar { kind: ScalarKind::U32, bits: m as u64 },
            ],
            textures: Vec::new(),
        };
        let options = sass::Options { step_budget: u64::MAX, ..Default::default() };
        let out = match sass::run(&cubin, &spec, &options) {
            Ok(out) => out,
            Err(e) => return vec![format!("sm_{sm} {op}.{ty}: SASS interpreter: {e}")],
        };
        let got = out.launch.buffer_bytes(2).expect("output buffer");
        for (i, (x, y)) in ca.iter().zip(cb).enumerate() {
            let r = if size == 4 { u64::from(u32::from_le_bytes(got[i * 4..i * 4 + 4].try_into().unwrap())) } else { u64::from_le_bytes(got[i * 8..i * 8 + 8].try_into().unwrap()) };
            let want = if op.starts_with("div") {
                divide(f, *x, *y, mode)
            } else if op.starts_with("rcp") {
                divide(f, f.bias() as u64 * (1 << (f.p - 1)), *x, mode)
            } else {
                square_root(f, *x, mode)
            };
            let nan = |v: u64| matches!(decode(f, v), Value::Nan);
            if !(r == want || nan(r) && nan(want)) {
                if bad.len() < 10 {
                    bad.push(format!("sm_{sm} {op}.{ty} a={x:#x} b={y:#x}: ours {r:#x}, correctly rounded {want:#x}"));
                } else {
                    bad.push(String::new());
                }
            }
        }
    }
    bad
}

#[test]
fn reference_rounding_agrees_with_the_host() {
    // The reference itself, against the host's round-to-nearest f32 and
    // f64 arithmetic (correctly rounded by IEEE 754) over the same inputs.
    let n = 20_000;
    for (f, seed) in [(F32, 1u64), (F64, 2)] {
        let (a, b) = inputs(f, n, seed);
        for (x, y) in a.iter().zip(&b) {
            let (q, s) = if f.p == 24 {
                let (x, y) = (f32::from_bits(*x as u32), f32::from_bits(*y as u32));
                (u64::from((x / y).to_bits()), u64::from(x.sqrt().to_bits()))
            } else {
                let (x, y) = (f64::from_bits(*x), f64::from_bits(*y));
                ((x / y).to_bits(), x.sqrt().to_bits())
            };
            let nan = |v: u64| matches!(decode(f, v), Value::Nan);
            let dq = divide(f, *x, *y, Mode::Nearest);
            assert!(dq == q || nan(dq) && nan(q), "{x:#x} / {y:#x}: reference {dq:#x}, host {q:#x}");
            let ds = square_root(f, *x, Mode::Nearest);
            assert!(ds == s || nan(ds) && nan(s), "sqrt {x:#x}: reference {ds:#x}, host {s:#x}");
        }
    }
    // Directed modes, by hand: 1/3 in f32 is 0x3eaaaaab rounded to nearest
    // and up, 0x3eaaaaaa toward zero and down; -1/3 mirrors it.
    let one = 0x3f80_0000;
    let three = 0x4040_0000;
    assert_eq!(divide(F32, one, three, Mode::Nearest), 0x3eaa_aaab);
    assert_eq!(divide(F32, one, three, Mode::Up), 0x3eaa_aaab);
    assert_eq!(divide(F32, one, three, Mode::Zero), 0x3eaa_aaaa);
    assert_eq!(divide(F32, one, three, Mode::Down), 0x3eaa_aaaa);
    assert_eq!(divide(F32, one | 0x8000_0000, three, Mode::Down), 0xbeaa_aaab);
    assert_eq!(divide(F32, one | 0x8000_0000, three, Mode::Up), 0xbeaa_aaaa);
    // The largest finite over a half overflows: infinity to nearest and up,
    // the largest finite toward zero and down.
    assert_eq!(divide(F32, 0x7f7f_ffff, 0x3f00_0000, Mode::Nearest), 0x7f80_0000);
    assert_eq!(divide(F32, 0x7f7f_ffff, 0x3f00_0000, Mode::Zero), 0x7f7f_ffff);
    assert_eq!(divide(F32, 0x7f7f_ffff, 0x3f00_0000, Mode::Down), 0x7f7f_ffff);
    // The smallest subnormal halved: 0 to nearest (a tie to even), the
    // smallest subnormal up.
    assert_eq!(divide(F32, 1, 0x4000_0000, Mode::Nearest), 0);
    assert_eq!(divide(F32, 1, 0x4000_0000, Mode::Up), 1);
    // sqrt(2) in f32: 0x3fb504f3 to nearest and up, 0x3fb504f3 is above it?
    // The root is 1.41421353816986083984375 (0x3fb504f3) below sqrt(2) =
    // 1.41421356237..., so toward zero and down give 0x3fb504f3, up 0x3fb504f4.
    assert_eq!(square_root(F32, 0x4000_0000, Mode::Zero), 0x3fb5_04f3);
    assert_eq!(square_root(F32, 0x4000_0000, Mode::Up), 0x3fb5_04f4);
}

#[test]
fn division_reciprocal_and_root_are_correctly_rounded() {
    let n = count();
    let mut failures = Vec::new();
    for sm in sms() {
        for f in [F32, F64] {
            for (mode, name) in MODES {
                for op in ["div", "rcp", "sqrt"] {
                    let bad = check(sm, f, &format!("{op}.{name}"), mode, n);
                    if !bad.is_empty() {
                        let shown: Vec<&String> = bad.iter().filter(|s| !s.is_empty()).collect();
                        failures.push(format!("{} mismatches, first: {}", bad.len(), shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ")));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
