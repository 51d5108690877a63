//! The late expansions (integer division, IEEE division, reciprocal and
//! square root) run on many inputs: a small evaluator of SASS-layer Ori
//! executes the legalized function with the SASS interpreter's number
//! semantics (`interp::sass::num`: rounding modes, MUFU, FCHK), and the
//! results are compared with exact ones computed here independently.
//!
//! MUFU can be perturbed (a deterministic other faithful result per input) so the
//! refinements are checked against an approximate unit like the
//! hardware's, not only against the interpreter's exact model.

use super::{legalize, legalize_late};
use crate::interp::sass::num::{self, Mufu, Round as NRound};
use crate::ir::entity::EntityRef;
use crate::ir::{Attrs, BoolOp, Cmp, DataType, FpClass, Function, FunctionBuilder, FunctionKind, MufuFunc, MulMode, Opcode, RedOp, Round, Type, Value};
use crate::target::Sm;

/// A device function `f(a[, b]) = op(a[, b])` of type `ty`.
fn function(op: Opcode, attrs: Attrs, ty: Type, n: usize) -> Function {
    let mut f = Function::new("f", FunctionKind::Device);
    f.returns.push(ty);
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    let args: Vec<Value> = (0..n).map(|_| b.append_block_param(entry, ty)).collect();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let v = b.op(op, attrs, &args, ty);
    b.ret(&[v]);
    b.finish();
    f
}

fn expand(f: &Function, sm: u16) -> Function {
    let early = legalize(f, Sm::new(sm)).expect("legalizes");
    legalize_late(&early, Sm::new(sm)).expect("late legalization")
}

fn mode(r: Option<Round>) -> NRound {
    match r {
        Some(Round::Rz | Round::Rzi) => NRound::Zero,
        Some(Round::Rm | Round::Rmi) => NRound::Down,
        Some(Round::Rp | Round::Rpi) => NRound::Up,
        _ => NRound::Nearest,
    }
}

/// A compare's result `t` combined with its predicate operand `c`
/// (negated when the attributes say so).
fn combine(at: Attrs, t: bool, c: bool) -> bool {
    let c = c != at.negated;
    match at.combine {
        Some(BoolOp::Or) => t || c,
        Some(BoolOp::Xor) => t != c,
        _ => t && c,
    }
}

/// Runs `f` on `args` (bits); `jitter` perturbs MUFU results.
fn run(f: &Function, args: &[u64], jitter: u32) -> u64 {
    let mut val = vec![0u64; f.values.len()];
    let mut block = f.layout[0];
    for (p, a) in f.blocks[block].params.iter().zip(args) {
        val[p.index()] = *a;
    }
    let f32v = |v: u64| f32::from_bits(v as u32);
    for _ in 0..64 {
        let mut next = None;
        for &inst in &f.blocks[block].insts {
            let d = &f.insts[inst];
            let a: Vec<u64> = d.args.iter().map(|v| val[v.index()]).collect();
            let at = d.attrs;
            // Operand k with |x| and -x applied (float sign bit `sign`).
            let fmod = |k: usize, sign: u32| -> u64 {
                let mut x = a[k];
                if at.abs & (1 << k) != 0 {
                    x &= !(1u64 << sign);
                }
                if at.neg & (1 << k) != 0 {
                    x ^= 1u64 << sign;
                }
                x
            };
            let ftz = |x: f32| if at.ftz { num::ftz32(x) } else { x };
            let f32r = |x: f32| u64::from(ftz(x).to_bits());
            let m = mode(at.round);
            if let Some(g) = d.guard
                && (val[g.pred.index()] != 0) == g.negated
            {
                for (r, p) in d.results.iter().zip(&d.prior) {
                    val[r.index()] = val[p.index()];
                }
                continue;
            }
            let mut res = [0u64; 2];
            match d.opcode {
                Opcode::Iconst => res[0] = d.imm,
                Opcode::Extract => res[0] = (a[0] >> (32 * d.imm)) & 0xffff_ffff,
                Opcode::Concat => res[0] = a[0] | a[1] << 32,
                Opcode::Iadd3 => {
                    let op = |k: usize| -> u64 {
                        let x = a[k] as u32;
                        // -x is ~x + 1 (a zero negated carries out).
                        if at.neg & (1 << k) == 0 {
                            u64::from(x)
                        } else if at.x {
                            u64::from(!x)
                        } else {
                            u64::from(!x) + 1
                        }
                    };
                    let cin = if at.x { a.get(3).copied().unwrap_or(0) } else { 0 };
                    let s = op(0) + op(1) + op(2) + cin;
                    res = [s & 0xffff_ffff, (s >> 32) & 1];
                }
                Opcode::Imad => {
                    let signed = at.ty == Some(DataType::S32);
                    let p = if signed { (a[0] as i32 as i64 * a[1] as i32 as i64) as u64 } else { a[0] * a[1] };
                    res[0] = if at.mul == Some(MulMode::Hi) { ((p >> 32) + a[2]) & 0xffff_ffff } else { (p + a[2]) & 0xffff_ffff };
                }
                Opcode::Iabs => res[0] = u64::from((a[0] as i32).unsigned_abs()),
                Opcode::Lop3 | Opcode::Plop3 => {
                    let w = if d.opcode == Opcode::Lop3 { 32 } else { 1 };
                    for bit in 0..w {
                        let idx = ((a[0] >> bit) & 1) << 2 | ((a[1] >> bit) & 1) << 1 | ((a[2] >> bit) & 1);
                        res[0] |= ((d.imm >> idx) & 1) << bit;
                    }
                }
                Opcode::Isetp if at.x => {
                    // The high-word step of a 64-bit compare: equal high
                    // words defer to the low words' predicate.
                    let (x, y) = (a[0] as u32, a[1] as u32);
                    let ord = if at.ty == Some(DataType::S32) { (x as i32).cmp(&(y as i32)) } else { x.cmp(&y) };
                    use std::cmp::Ordering::*;
                    let k = a[3] != 0;
                    let t = match at.cmp {
                        Some(Cmp::Eq) => ord == Equal && k,
                        Some(Cmp::Ne) => ord != Equal || k,
                        Some(Cmp::Lt | Cmp::Le) => ord == Less || (ord == Equal && k),
                        _ => ord == Greater || (ord == Equal && k),
                    };
                    res[0] = u64::from(combine(at, t, a[2] != 0));
                }
                Opcode::Isetp => {
                    // 32-bit, or (sm_120) one 64-bit compare of pairs.
                    let wide = at.ty.is_some_and(|t| t.bits() == 64);
                    let (x, y) = if wide { (a[0], a[1]) } else { (a[0] & 0xffff_ffff, a[1] & 0xffff_ffff) };
                    let signed = matches!(at.ty, Some(DataType::S32 | DataType::S64));
                    let ord = match (signed, wide) {
                        (true, true) => (x as i64).cmp(&(y as i64)),
                        (true, false) => (x as u32 as i32).cmp(&(y as u32 as i32)),
                        _ => x.cmp(&y),
                    };
                    use std::cmp::Ordering::*;
                    let t = match at.cmp {
                        Some(Cmp::Eq) => ord == Equal,
                        Some(Cmp::Ne) => ord != Equal,
                        Some(Cmp::Lt) => ord == Less,
                        Some(Cmp::Le) => ord != Greater,
                        Some(Cmp::Gt) => ord == Greater,
                        _ => ord != Less,
                    };
                    res[0] = u64::from(combine(at, t, a[2] != 0));
                }
                // DSETP.MIN/.MAX: a is the minimum (maximum), a NaN losing
                // to a number, -0 below +0; two NaNs: b, and the second
                // result says so.
                Opcode::Dsetp if matches!(at.red, Some(RedOp::Min | RedOp::Max)) => {
                    let (x, y) = (f64::from_bits(fmod(0, 63)), f64::from_bits(fmod(1, 63)));
                    let min = at.red == Some(RedOp::Min);
                    let pick_a = match (x.is_nan(), y.is_nan()) {
                        (true, _) => false,
                        (false, true) => true,
                        _ if x == y => (x.is_sign_negative() == min) || x.is_sign_negative() == y.is_sign_negative(),
                        _ => (x < y) == min,
                    };
                    res[0] = u64::from(pick_a);
                    res[1] = u64::from(x.is_nan() && y.is_nan());
                }
                Opcode::Fsetp | Opcode::Dsetp => {
                    let (x, y) = if d.opcode == Opcode::Fsetp {
                        (f64::from(ftz(f32v(fmod(0, 31)))), f64::from(ftz(f32v(fmod(1, 31)))))
                    } else {
                        (f64::from_bits(fmod(0, 63)), f64::from_bits(fmod(1, 63)))
                    };
                    let un = x.is_nan() || y.is_nan();
                    let t = match at.cmp {
                        Some(Cmp::Eq) => x == y,
                        Some(Cmp::Ne) => !un && x != y,
                        Some(Cmp::Lt) => x < y,
                        Some(Cmp::Le) => x <= y,
                        Some(Cmp::Gt) => x > y,
                        Some(Cmp::Ge) => x >= y,
                        Some(Cmp::Geu) => un || x >= y,
                        Some(Cmp::Nan) => un,
                        c => panic!("comparison {c:?} not modelled"),
                    };
                    res[0] = u64::from(combine(at, t, a[2] != 0));
                }
                Opcode::Fmnmx => {
                    // PTX's rules, written out here: a NaN operand gives
                    // the other (two NaNs, or any with `.NaN`: the
                    // canonical NaN), -0 is below +0; `.xorsign` puts the
                    // exclusive-or of the registers' signs on a number.
                    let (x, y) = (ftz(f32v(fmod(0, 31))), ftz(f32v(fmod(1, 31))));
                    let min = a[2] != 0;
                    let v = match (x.is_nan(), y.is_nan()) {
                        (true, true) => 0x7fff_ffff,
                        (true, false) | (false, true) if at.nan => 0x7fff_ffff,
                        (true, false) => y.to_bits(),
                        (false, true) => x.to_bits(),
                        _ if x == 0.0 && y == 0.0 => {
                            if min { (x.to_bits() | y.to_bits()) & 0x8000_0000 } else { x.to_bits() & y.to_bits() & 0x8000_0000 }
                        }
                        _ => if (x < y) == min { x.to_bits() } else { y.to_bits() },
                    };
                    let v = if at.xorsign && v != 0x7fff_ffff { (v & 0x7fff_ffff) | ((a[0] ^ a[1]) as u32 & 0x8000_0000) } else { v };
                    res[0] = u64::from(v);
                }
                Opcode::Sel => res[0] = if a[2] != 0 { a[0] } else { a[1] },
                // FSEL's source modifiers act on the sign bit alone.
                Opcode::Fsel => res[0] = if a[2] != 0 { fmod(0, 31) } else { fmod(1, 31) },
                Opcode::Mufu => {
                    let op = match at.mufu {
                        Some(MufuFunc::Rcp) => Mufu::Rcp,
                        Some(MufuFunc::Rsq) => Mufu::Rsq,
                        Some(MufuFunc::Rcp64h) => Mufu::Rcp64h,
                        Some(MufuFunc::Rsq64h) => Mufu::Rsq64h,
                        f => panic!("MUFU {f:?} not modelled"),
                    };
                    let r = num::mufu(op, a[0] as u32);
                    // With jitter, a finite nonzero result is another
                    // faithful one (within an ulp of the exact value, the
                    // accuracy PTX gives rcp/rsqrt.approx): the exact value
                    // rounded down or up; RCP64H/RSQ64H's high word moves
                    // by one unit.
                    let finite = r & 0x7f80_0000 != 0x7f80_0000 && r & 0x7fff_ffff != 0;
                    let k = (a[0] as u32).wrapping_mul(0x9e37_79b9).rotate_left(7) ^ jitter;
                    res[0] = u64::from(match op {
                        _ if jitter == 0 || !finite => r,
                        Mufu::Rcp | Mufu::Rsq => {
                            let x = f64::from(num::ftz32(f32::from_bits(a[0] as u32)));
                            let e = if op == Mufu::Rcp { 1.0 / x } else { 1.0 / x.sqrt() };
                            let side = if k.is_multiple_of(2) { NRound::Down } else { NRound::Up };
                            let j = num::ftz32(num::f64_to_f32(e, side));
                            if j.is_finite() && j != 0.0 { j.to_bits() } else { r }
                        }
                        _ => r.wrapping_add_signed([0i32, 1, -1][(k % 3) as usize]),
                    });
                }
                Opcode::Fadd => res[0] = f32r(num::add32(ftz(f32v(fmod(0, 31))), ftz(f32v(fmod(1, 31))), m)),
                Opcode::Fmul => res[0] = f32r(num::mul32(ftz(f32v(fmod(0, 31))), ftz(f32v(fmod(1, 31))), m)),
                Opcode::Ffma => res[0] = f32r(num::fma32(ftz(f32v(fmod(0, 31))), ftz(f32v(fmod(1, 31))), ftz(f32v(fmod(2, 31))), m)),
                Opcode::Dadd => res[0] = num::add64(f64::from_bits(fmod(0, 63)), f64::from_bits(fmod(1, 63)), m).to_bits(),
                Opcode::Dmul => res[0] = num::mul64(f64::from_bits(fmod(0, 63)), f64::from_bits(fmod(1, 63)), m).to_bits(),
                Opcode::Dfma => res[0] = num::fma64(f64::from_bits(fmod(0, 63)), f64::from_bits(fmod(1, 63)), f64::from_bits(fmod(2, 63)), m).to_bits(),
                Opcode::F2f if at.ty == Some(DataType::F64) => res[0] = f64::from(f32v(a[0])).to_bits(),
                Opcode::F2f => res[0] = u64::from(num::f64_to_f32(f64::from_bits(a[0]), m).to_bits()),
                Opcode::ImadWide => {
                    let p = if at.ty == Some(DataType::S32) { (a[0] as i32 as i64 * a[1] as i32 as i64) as u64 } else { a[0] * a[1] };
                    res[0] = p.wrapping_add(a[2]);
                }
                Opcode::I2f if at.src_ty == Some(DataType::U64) => {
                    // Exactly rounded: the f64 nearest may itself be rounded.
                    let c = a[0] as f64;
                    let mut r = num::f64_to_f32(c, m);
                    let exact = |r: f32| f64::from(r) as u128;
                    if m == NRound::Up && exact(r) < u128::from(a[0]) {
                        r = f32::from_bits(r.to_bits() + 1);
                    }
                    res[0] = u64::from(r.to_bits());
                }
                Opcode::I2f => {
                    let x = if at.src_ty == Some(DataType::S32) { f64::from(a[0] as i32) } else { a[0] as f64 };
                    res[0] = u64::from(num::f64_to_f32(x, m).to_bits());
                }
                Opcode::F2i => {
                    let bits = if matches!(at.ty, Some(DataType::U64 | DataType::S64)) { 64 } else { 32 };
                    res[0] = num::float_to_int(f64::from(ftz(f32v(a[0]))), m, bits, matches!(at.ty, Some(DataType::S32 | DataType::S64)));
                }
                Opcode::Frnd if at.ty == Some(DataType::F64) => res[0] = num::round_int(f64::from_bits(a[0]), m).to_bits(),
                Opcode::Imnmx | Opcode::Vimnmx => {
                    let (x, y) = (a[0] as u32, a[1] as u32);
                    let less = if at.ty == Some(DataType::S32) { (x as i32) < (y as i32) } else { x < y };
                    res[0] = u64::from(if (a[2] != 0) == less { x } else { y });
                }
                Opcode::Shf => {
                    // The funnel {c:a} shifted by b (clamped at 32 for
                    // 32-bit types, 64 for 64-bit ones).
                    let wide = matches!(at.ty, Some(DataType::U64 | DataType::S64));
                    let s = (a[1] as u32).min(if wide { 64 } else { 32 });
                    let signed = matches!(at.ty, Some(DataType::S32 | DataType::S64));
                    let hi_half = at.mul == Some(MulMode::Hi);
                    let v = if at.left {
                        let f = (a[2] & 0xffff_ffff) << 32 | (a[0] & 0xffff_ffff);
                        let sh = if wide || hi_half { u128::from(f) << s } else { u128::from(a[0] & 0xffff_ffff) << s };
                        if hi_half { (sh >> 32) as u64 } else { sh as u64 }
                    } else {
                        let f = if wide { (a[2] & 0xffff_ffff) << 32 | (a[0] & 0xffff_ffff) } else { (a[2] & 0xffff_ffff) << 32 };
                        let sh = if signed { ((f as i64) >> s.min(63)) as u64 } else if s >= 64 { 0 } else { f >> s };
                        if wide { if hi_half { sh >> 32 } else { sh } } else { sh >> 32 }
                    };
                    res[0] = v & 0xffff_ffff;
                }
                Opcode::Fchk => res[0] = u64::from(num::fchk(f32v(a[0]), f32v(a[1]))),
                Opcode::Jump => next = Some(&d.dests[0]),
                Opcode::Brif => next = Some(&d.dests[usize::from((a[0] != 0) == d.attrs.negated)]),
                Opcode::Return => return a[0],
                o => panic!("{o} not modelled"),
            }
            for (k, r) in d.results.iter().enumerate() {
                val[r.index()] = res[k];
            }
        }
        let Some(call) = next else { panic!("block without jump") };
        let args: Vec<u64> = call.args.iter().map(|v| val[v.index()]).collect();
        block = call.block;
        for (p, a) in f.blocks[block].params.iter().zip(args) {
            val[p.index()] = a;
        }
    }
    panic!("no return")
}

/// Inputs: edge values and pseudo-random bit patterns (every exponent).
fn inputs32(n: usize, seed: u64) -> Vec<u32> {
    let mut v = vec![0, 0x8000_0000, 1, 0x8000_0001, 0x007f_ffff, 0x0080_0000, 0x0080_0001, 0x3f80_0000, 0xbf80_0000, 0x3fff_ffff, 0x4000_0000, 0x7f7f_ffff, 0xff7f_ffff, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001, 0x0d00_0000, 0x7e80_0000, 0x0100_0000, 0x0040_0000, 0x3400_0000, 0x4b80_0000, 0x5f80_0000];
    let mut x = seed;
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push((x >> 16) as u32);
    }
    v
}

/// The correctly rounded f32 of an exact value known as a nearest f64 `q`
/// and the side the exact value lies on (`above`: > q; None: exact).
fn round_f32(q: f64, above: Option<bool>, m: NRound) -> f32 {
    let w = match above {
        None => q,
        Some(true) => f64::from_bits(if q > 0.0 { q.to_bits() + 1 } else { q.to_bits() - 1 }),
        Some(false) => f64::from_bits(if q > 0.0 { q.to_bits() - 1 } else { q.to_bits() + 1 }),
    };
    num::f64_to_f32(w, m)
}

/// a / b exactly rounded (the f64 quotient of two f32 is within half an
/// f64 ulp; the exact remainder a - q·b says on which side the quotient
/// lies).
fn div_ref(a: f32, b: f32, m: NRound, ftz: bool) -> u32 {
    let (a, b) = if ftz { (num::ftz32(a), num::ftz32(b)) } else { (a, b) };
    let (x, y) = (f64::from(a), f64::from(b));
    let q = x / y;
    if q.is_nan() {
        return 0x7fff_ffff;
    }
    if !q.is_finite() || q == 0.0 {
        return (q as f32).to_bits();
    }
    let r = (-q).mul_add(y, x);
    let above = if r == 0.0 { None } else { Some((r > 0.0) == (y > 0.0)) };
    let out = round_f32(q, above, m);
    if ftz {
        // Subnormal after rounding to 24 bits with an unbounded exponent.
        let t = round_f32(q * 2f64.powi(64), above, m);
        if t.abs() < 2f32.powi(-62) {
            return out.to_bits() & 0x8000_0000;
        }
    }
    out.to_bits()
}

fn sqrt_ref(a: f32, m: NRound, ftz: bool) -> u32 {
    let a = if ftz { num::ftz32(a) } else { a };
    let x = f64::from(a);
    if x.is_nan() || x < 0.0 {
        return 0x7fff_ffff;
    }
    if x == 0.0 || x.is_infinite() {
        return a.to_bits();
    }
    let s = x.sqrt();
    let r = (-s).mul_add(s, x);
    let above = if r == 0.0 { None } else { Some(r > 0.0) };
    round_f32(s, above, m).to_bits()
}

const ROUNDS: [Round; 4] = [Round::Rn, Round::Rz, Round::Rm, Round::Rp];

#[test]
fn f32_division_is_correctly_rounded_for_every_input_class() {
    let xs = inputs32(500, 0x1234_5678_9abc_def1);
    for round in ROUNDS {
        for ftz in [false, true] {
            let attrs = Attrs { ty: Some(DataType::F32), round: Some(round), ftz, ..Attrs::default() };
            let f = expand(&function(Opcode::Div, attrs, Type::R32, 2), 90);
            for (i, &a) in xs.iter().enumerate() {
                for &b in xs.iter().skip(i % 7).step_by(7) {
                    let want = div_ref(f32::from_bits(a), f32::from_bits(b), mode(Some(round)), ftz);
                    for jitter in [0, 0x55] {
                        let got = run(&f, &[u64::from(a), u64::from(b)], jitter) as u32;
                        assert_eq!(got, want, "div.{round:?} ftz={ftz} {a:#x} / {b:#x} (jitter {jitter:#x}): {} / {}", f32::from_bits(a), f32::from_bits(b));
                    }
                }
            }
        }
    }
}

#[test]
fn f32_reciprocal_and_square_root_are_correctly_rounded() {
    let xs = inputs32(4000, 0x0bad_cafe_f00d_0001);
    for round in ROUNDS {
        for ftz in [false, true] {
            let attrs = Attrs { ty: Some(DataType::F32), round: Some(round), ftz, ..Attrs::default() };
            let rcp = expand(&function(Opcode::Rcp, attrs, Type::R32, 1), 80);
            let sqrt = expand(&function(Opcode::Sqrt, attrs, Type::R32, 1), 120);
            for &a in &xs {
                for jitter in [0, 0x3c] {
                    let x = f32::from_bits(a);
                    assert_eq!(run(&rcp, &[u64::from(a)], jitter) as u32, div_ref(1.0, x, mode(Some(round)), ftz), "rcp.{round:?} ftz={ftz} {a:#x}");
                    assert_eq!(run(&sqrt, &[u64::from(a)], jitter) as u32, sqrt_ref(x, mode(Some(round)), ftz), "sqrt.{round:?} ftz={ftz} {a:#x}");
                }
            }
        }
    }
}

#[test]
fn integer_division_matches_ptxas_semantics() {
    let xs: Vec<u32> = inputs32(300, 0x5eed_0000_0000_0042).into_iter().chain([0, 1, 2, 3, 7, 0xffff_ffff, 0xffff_fffe, 0x8000_0000, 0x7fff_ffff, 0x8000_0001, 10, 0xffff_fff6]).collect();
    for (op, ty) in [(Opcode::Div, DataType::U32), (Opcode::Rem, DataType::U32), (Opcode::Div, DataType::S32), (Opcode::Rem, DataType::S32)] {
        let f = expand(&function(op, Attrs::typed(ty), Type::R32, 2), 90);
        for &a in &xs {
            for &b in &xs {
                // A zero divisor gives ~0 (ptxas's `@!P LOP3 ~b`); otherwise
                // the truncating quotient and the dividend-signed remainder
                // (INT_MIN / -1 wraps).
                let want = match (op, ty, b) {
                    (_, _, 0) => 0xffff_ffff,
                    (Opcode::Div, DataType::U32, _) => a / b,
                    (Opcode::Rem, DataType::U32, _) => a % b,
                    (Opcode::Div, _, _) => (a as i32).wrapping_div(b as i32) as u32,
                    _ => (a as i32).wrapping_rem(b as i32) as u32,
                };
                for jitter in [0, 0x11] {
                    let got = run(&f, &[u64::from(a), u64::from(b)], jitter) as u32;
                    assert_eq!(got, want, "{op}.{ty:?} {a:#x}, {b:#x} (jitter {jitter:#x})");
                }
            }
        }
    }
}

#[test]
fn f64_reciprocal_square_root_handles_every_input_class() {
    let attrs = Attrs { ty: Some(DataType::F64), approx: true, ..Attrs::default() };
    let f = expand(&function(Opcode::Rsqrt, attrs, Type::R64, 1), 90);
    let special: [(f64, u64); 6] = [
        (0.0, f64::INFINITY.to_bits()),
        (-0.0, f64::NEG_INFINITY.to_bits()),
        (-1.0, 0xfff8_0000_0000_0000),
        (f64::NEG_INFINITY, 0xfff8_0000_0000_0000),
        (f64::INFINITY, 0),
        (4.0, 0.5f64.to_bits()),
    ];
    for (x, want) in special {
        assert_eq!(run(&f, &[x.to_bits()], 0), want, "rsqrt.approx.f64 {x}");
    }
    assert!(f64::from_bits(run(&f, &[f64::NAN.to_bits()], 0)).is_nan());
    // Normal and subnormal inputs: within a few ulps of 1/sqrt(x).
    for bits in [1u64, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000, 0x3ff8_0000_0000_0001, 0x7fef_ffff_ffff_ffff, 0x0000_0000_1234_5678, 0x4123_4567_89ab_cdef] {
        let x = f64::from_bits(bits);
        let got = f64::from_bits(run(&f, &[bits], 0));
        let want = 1.0 / x.sqrt();
        assert!(((got - want) / want).abs() < 1e-15, "rsqrt.approx.f64 {x:e}: {got:e} against {want:e}");
    }
}

/// The f64 nearest `num / den * 2^e` in mode `m` (num, den < 2^64 and
/// nonzero; sign `neg`), computed with integers: the quotient to 61+
/// bits and a sticky bit, then rounded on the grid of its binade (or of
/// the subnormals).
fn round_ratio(num: u128, den: u128, e: i32, m: NRound, neg: bool) -> u64 {
    // Normalize so that num / den is in [1, 2) times 2^e.
    let (mut num, mut den, mut e) = (num, den, e);
    while num < den {
        num <<= 1;
        e -= 1;
    }
    while num >= den << 1 {
        den <<= 1;
        e += 1;
    }
    let q = (num << 61) / den;
    let sticky = (num << 61) % den != 0;
    round_int_scaled(q, sticky, e - 61, m, neg)
}

/// `q * 2^e` (+ a sticky fraction of a unit) rounded to f64; q has at
/// least 55 bits.
fn round_int_scaled(q: u128, sticky: bool, e: i32, m: NRound, neg: bool) -> u64 {
    let msb = 127 - q.leading_zeros() as i32 + e;
    let lsb = (msb - 52).max(-1074);
    let shift = (lsb - e) as u32;
    // Far below the smallest subnormal: n = 0 and less than half a unit.
    let (mut n, rem, half) = if shift >= 127 { (0, 1, 2) } else { (q >> shift, q & ((1u128 << shift) - 1), 1u128 << (shift - 1)) };
    let inexact = rem != 0 || sticky;
    let up = match m {
        NRound::Nearest => rem > half || (rem == half && (sticky || n & 1 == 1)),
        NRound::Zero => false,
        NRound::Up => inexact && !neg,
        NRound::Down => inexact && neg,
    };
    n += u128::from(up);
    let sign = u64::from(neg) << 63;
    let (mut n, mut lsb) = (n, lsb);
    if n == 1 << 53 {
        n >>= 1;
        lsb += 1;
    }
    if lsb + 52 > 1023 {
        let to_inf = match m {
            NRound::Nearest => true,
            NRound::Zero => false,
            NRound::Up => !neg,
            NRound::Down => neg,
        };
        return sign | if to_inf { 0x7ff0_0000_0000_0000 } else { 0x7fef_ffff_ffff_ffff };
    }
    if lsb == -1074 && n < 1 << 52 {
        return sign | n as u64;
    }
    sign | ((lsb + 52 + 1023) as u64) << 52 | (n as u64 & ((1 << 52) - 1))
}

/// Significand and exponent of a finite nonzero f64 (x = m * 2^e).
fn split64(x: f64) -> (u128, i32) {
    let b = x.to_bits() & !(1 << 63);
    let ex = (b >> 52) as i32;
    let frac = u128::from(b & ((1 << 52) - 1));
    if ex == 0 { (frac, -1074) } else { (frac | 1 << 52, ex - 1075) }
}

fn quiet64(x: u64) -> u64 {
    x | 0x0008_0000_0000_0000
}

fn div64_ref(a: f64, b: f64, m: NRound) -> u64 {
    let neg = a.is_sign_negative() != b.is_sign_negative();
    let sign = u64::from(neg) << 63;
    if a.is_nan() {
        return quiet64(a.to_bits());
    }
    if b.is_nan() {
        return quiet64(b.to_bits());
    }
    if (a == 0.0 && b == 0.0) || (a.is_infinite() && b.is_infinite()) {
        return 0xfff8_0000_0000_0000;
    }
    if a.is_infinite() || b == 0.0 {
        return sign | 0x7ff0_0000_0000_0000;
    }
    if a == 0.0 || b.is_infinite() {
        return sign;
    }
    let (ma, ea) = split64(a);
    let (mb, eb) = split64(b);
    round_ratio(ma, mb, ea - eb, m, neg)
}

fn sqrt64_ref(a: f64, m: NRound) -> u64 {
    if a.is_nan() {
        return quiet64(a.to_bits());
    }
    if a == 0.0 || a == f64::INFINITY {
        return a.to_bits();
    }
    if a < 0.0 {
        return 0xfff8_0000_0000_0000;
    }
    let (ma, ea) = split64(a);
    // ma * 2^ea = (ma * 2^s) * 2^(ea - s) with ea - s even and the
    // scaled significand near 2^122.
    let s = 122 - (127 - ma.leading_zeros() as i32);
    let s = if (ea - s) % 2 != 0 { s + 1 } else { s };
    let big = ma << s;
    // Integer square root (f64 estimate, then corrected).
    let mut r = (big as f64).sqrt() as u128;
    while r * r > big {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= big {
        r += 1;
    }
    round_int_scaled(r, r * r != big, (ea - s) / 2, m, false)
}

/// f64 inputs: edge values and pseudo-random bit patterns, some with
/// exponents near each other's (and near the subnormals) so quotients
/// land everywhere.
fn inputs64(n: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = vec![0, 1 << 63, 1, 2, 3, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000, 0x0010_0000_0000_0001, 0x3ff0_0000_0000_0000, 0xbff0_0000_0000_0000, 0x3ff0_0000_0000_0001, 0x3fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x4008_0000_0000_0000, 0x7fef_ffff_ffff_ffff, 0xffef_ffff_ffff_ffff, 0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0001, 0xfff4_0000_0000_0000, 0x0000_0000_0000_0006, 0x0008_0000_0000_0000, 0x3cb0_0000_0000_0000, 0x4340_0000_0000_0000, 0x7fe0_0000_0000_0000, 0x0020_0000_0000_0000, 0x3fe0_0000_0000_0000];
    let mut x = seed;
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
        v.push(match v.len() % 4 {
            // Exponents of moderate size, small ones, huge ones.
            0 => (r & 0x800f_ffff_ffff_ffff) | (0x3c0 + (r >> 52) % 0x80) << 52,
            1 => (r & 0x800f_ffff_ffff_ffff) | ((r >> 52) % 0x60) << 52,
            2 => (r & 0x800f_ffff_ffff_ffff) | (0x7a0 + (r >> 52) % 0x5f) << 52,
            _ => r,
        });
    }
    v
}

#[test]
fn f64_division_is_correctly_rounded_for_every_input_class() {
    let xs = inputs64(400, 0x0f64_d1d1_0000_0001);
    for round in ROUNDS {
        let attrs = Attrs { ty: Some(DataType::F64), round: Some(round), ..Attrs::default() };
        let f = expand(&function(Opcode::Div, attrs, Type::R64, 2), 90);
        for (i, &a) in xs.iter().enumerate() {
            for &b in xs.iter().skip(i % 5).step_by(5) {
                let want = div64_ref(f64::from_bits(a), f64::from_bits(b), mode(Some(round)));
                for jitter in [0, 0x55] {
                    let got = run(&f, &[a, b], jitter);
                    assert_eq!(got, want, "div.{round:?}.f64 {a:#x} / {b:#x} (jitter {jitter:#x}): {:e} / {:e}", f64::from_bits(a), f64::from_bits(b));
                }
            }
        }
        // Exact quotients and ties among the subnormals.
        for (a, b) in [(3u64, 0x4000_0000_0000_0000u64), (5, 0x4000_0000_0000_0000), (0x0010_0000_0000_0001, 0x4000_0000_0000_0000), (0x000f_ffff_ffff_ffff, 0x4000_0000_0000_0000), (0x4008_0000_0000_0000, 0x4008_0000_0000_0000), (7, 0x4010_0000_0000_0000)] {
            let want = div64_ref(f64::from_bits(a), f64::from_bits(b), mode(Some(round)));
            assert_eq!(run(&f, &[a, b], 0), want, "div.{round:?}.f64 {a:#x} / {b:#x}");
        }
    }
}

#[test]
fn f64_reciprocal_and_square_root_are_correctly_rounded() {
    let xs = inputs64(3000, 0x5eed_f64f_64f6_4f64);
    for round in ROUNDS {
        let attrs = Attrs { ty: Some(DataType::F64), round: Some(round), ..Attrs::default() };
        let rcp = expand(&function(Opcode::Rcp, attrs, Type::R64, 1), 80);
        let sqrt = expand(&function(Opcode::Sqrt, attrs, Type::R64, 1), 100);
        for &a in &xs {
            let x = f64::from_bits(a);
            for jitter in [0, 0x3c] {
                assert_eq!(run(&rcp, &[a], jitter), div64_ref(1.0, x, mode(Some(round))), "rcp.{round:?}.f64 {a:#x} (jitter {jitter:#x})");
                assert_eq!(run(&sqrt, &[a], jitter), sqrt64_ref(x, mode(Some(round))), "sqrt.{round:?}.f64 {a:#x} (jitter {jitter:#x})");
            }
        }
    }
}

#[test]
fn f64_reference_rounding_agrees_with_the_host() {
    // The integer reference against the host's own (nearest) arithmetic.
    let xs = inputs64(300, 7);
    for &a in &xs {
        for &b in xs.iter().step_by(7) {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let want = x / y;
            let got = div64_ref(x, y, NRound::Nearest);
            assert!(got == want.to_bits() || want.is_nan(), "{x:e} / {y:e}");
        }
        let x = f64::from_bits(a);
        assert!(sqrt64_ref(x, NRound::Nearest) == x.sqrt().to_bits() || x.sqrt().is_nan(), "sqrt {x:e}");
    }
}

#[test]
fn integer_division_64_matches_ptxas_semantics() {
    let mut xs: Vec<u64> = inputs64(120, 0x6464_0000_0000_0064);
    xs.extend([0, 1, 2, 3, 7, 10, u64::MAX, u64::MAX - 1, 1 << 63, (1 << 63) - 1, (1 << 63) + 1, 0xffff_ffff, 0x1_0000_0000, 0x1_0000_0001, 0xffff_ffff_0000_0000, 0x8000_0000, (-10i64) as u64]);
    // Small values and values of 32 bits or fewer as well.
    let mut x = 0x1234_5678u64;
    for _ in 0..40 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        xs.push(x >> (x % 60));
    }
    for (op, ty) in [(Opcode::Div, DataType::U64), (Opcode::Rem, DataType::U64), (Opcode::Div, DataType::S64), (Opcode::Rem, DataType::S64)] {
        let f = expand(&function(op, Attrs::typed(ty), Type::R64, 2), 90);
        for &a in &xs {
            for &b in &xs {
                // A zero divisor gives all ones (ptxas's SEL ..., 0xffffffff
                // on both words); INT64_MIN / -1 wraps.
                let want = match (op, ty, b) {
                    (_, _, 0) => u64::MAX,
                    (Opcode::Div, DataType::U64, _) => a / b,
                    (Opcode::Rem, DataType::U64, _) => a % b,
                    (Opcode::Div, _, _) => (a as i64).wrapping_div(b as i64) as u64,
                    _ => (a as i64).wrapping_rem(b as i64) as u64,
                };
                for jitter in [0, 0x11] {
                    let got = run(&f, &[a, b], jitter);
                    assert_eq!(got, want, "{op}.{ty:?} {a:#x}, {b:#x} (jitter {jitter:#x})");
                }
            }
        }
    }
}

// ---- testp, min/max modifiers, div.full ----------------------------------

/// A device function `f(a[, b]) = op(a[, b])` with arguments of `arg` and
/// a result of `result`.
fn function_to(op: Opcode, attrs: Attrs, arg: Type, n: usize, result: Type) -> Function {
    let mut f = Function::new("f", FunctionKind::Device);
    f.returns.push(result);
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    let args: Vec<Value> = (0..n).map(|_| b.append_block_param(entry, arg)).collect();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let v = b.op(op, attrs, &args, result);
    b.ret(&[v]);
    b.finish();
    f
}

const CLASSES: [FpClass; 6] = [FpClass::Finite, FpClass::Infinite, FpClass::Number, FpClass::NotANumber, FpClass::Normal, FpClass::Subnormal];

/// The PTX ISA's classes from the host's classification (zeros count as
/// normal for `testp.normal`).
fn in_class(c: std::num::FpCategory, class: FpClass) -> bool {
    use std::num::FpCategory as C;
    match class {
        FpClass::Finite => !matches!(c, C::Infinite | C::Nan),
        FpClass::Infinite => c == C::Infinite,
        FpClass::Number => c != C::Nan,
        FpClass::NotANumber => c == C::Nan,
        FpClass::Normal => matches!(c, C::Normal | C::Zero),
        FpClass::Subnormal => c == C::Subnormal,
    }
}

#[test]
fn testp_classifies_every_input_class() {
    let xs = inputs32(300, 0x7e57_0000_0000_0001);
    let ds = inputs64(300, 0x7e57_0000_0000_0002);
    // sm_120 compares f64 pairs in one 64-bit ISETP; the others in two steps.
    for sm in [80, 120] {
        for class in CLASSES {
            let attrs = Attrs { ty: Some(DataType::F32), class: Some(class), ..Attrs::default() };
            let f = expand(&function_to(Opcode::Testp, attrs, Type::R32, 1, Type::P), sm);
            for &a in &xs {
                let want = in_class(f32::from_bits(a).classify(), class);
                assert_eq!(run(&f, &[u64::from(a)], 0) != 0, want, "sm_{sm} testp.{class:?}.f32 {a:#x}");
            }
            let attrs = Attrs { ty: Some(DataType::F64), ..attrs };
            let f = expand(&function_to(Opcode::Testp, attrs, Type::R64, 1, Type::P), sm);
            for &a in ds.iter().chain(&[0x7ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0x8000_0000_0000_0001, 0xfff0_0000_0000_0000]) {
                let want = in_class(f64::from_bits(a).classify(), class);
                assert_eq!(run(&f, &[a], 0) != 0, want, "sm_{sm} testp.{class:?}.f64 {a:#x}");
            }
        }
    }
}

/// PTX's `min/max[.NaN][.xorsign.abs].f32`, from the ISA text: with
/// `.xorsign.abs` the magnitudes are compared and the result's sign is the
/// exclusive-or of the operands'; NaN results are the canonical NaN.
fn minmax_ref(a: u32, b: u32, min: bool, nan: bool, xorsign: bool, ftz: bool) -> u32 {
    let flush = |x: u32| if ftz && x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x };
    let sign = (a ^ b) & 0x8000_0000;
    let (a, b) = (flush(a), flush(b));
    let (a, b) = if xorsign { (a & 0x7fff_ffff, b & 0x7fff_ffff) } else { (a, b) };
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = if x.is_nan() || y.is_nan() {
        if nan || (x.is_nan() && y.is_nan()) {
            return 0x7fff_ffff;
        }
        if x.is_nan() { b } else { a }
    } else {
        // Ordered with -0 below +0: compare as sign-magnitude integers.
        let key = |v: u32| if v & 0x8000_0000 != 0 { -i64::from(v & 0x7fff_ffff) - 1 } else { i64::from(v) };
        if (key(a) < key(b)) == min { a } else { b }
    };
    if xorsign { r | sign } else { r }
}

#[test]
fn f32_min_max_follow_the_nan_and_xorsign_rules() {
    let xs = inputs32(120, 0x0dd_ba11_0000_0003);
    for (op, min) in [(Opcode::Min, true), (Opcode::Max, false)] {
        for (nan, xorsign, ftz) in [(false, false, false), (true, false, false), (true, false, true), (false, true, false), (true, true, false), (true, true, true)] {
            let attrs = Attrs { ty: Some(DataType::F32), nan, xorsign, ftz, abs: if xorsign { 0b11 } else { 0 }, ..Attrs::default() };
            let f = expand(&function(op, attrs, Type::R32, 2), 90);
            for &a in &xs {
                for &b in &xs {
                    let want = minmax_ref(a, b, min, nan, xorsign, ftz);
                    let got = run(&f, &[u64::from(a), u64::from(b)], 0) as u32;
                    assert_eq!(got, want, "{op} nan={nan} xorsign={xorsign} ftz={ftz} {a:#x}, {b:#x}");
                }
            }
        }
    }
}

/// `op.f64 d, x, y` where one source (`which`, 0 or 1) is first negated
/// (`neg.f64`) or made absolute (`abs.f64`), the function's arguments being
/// x and y.
fn min_max_of_modified(op: Opcode, modifier: Opcode, which: usize) -> Function {
    let mut f = Function::new("f", FunctionKind::Device);
    f.returns.push(Type::R64);
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    let mut args: Vec<Value> = (0..2).map(|_| b.append_block_param(entry, Type::R64)).collect();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let f64 = Attrs::typed(DataType::F64);
    args[which] = b.op(modifier, f64, &[args[which]], Type::R64);
    let v = b.op(op, f64, &args, Type::R64);
    b.ret(&[v]);
    b.finish();
    f
}

#[test]
fn f64_min_max_fold_a_negated_or_absolute_source() {
    let xs = inputs64(48, 0x0dd_ba11_0000_0005);
    for (op, min) in [(Opcode::Min, true), (Opcode::Max, false)] {
        for modifier in [Opcode::Neg, Opcode::Abs] {
            for which in [0, 1] {
                let f = expand(&min_max_of_modified(op, modifier, which), 90);
                // Folded: DSETP reads the source with the modifier (the
                // producer is left for selection to drop, unused).
                let dsetp = f.layout.iter().flat_map(|&b| &f.blocks[b].insts).map(|&i| &f.insts[i]).find(|d| d.opcode == Opcode::Dsetp);
                assert!(dsetp.is_some_and(|d| (d.attrs.neg | d.attrs.abs) == 1 << which), "{op}.f64 of a {modifier}: {dsetp:?}");
                for &a in &xs {
                    for &b in &xs {
                        let mut v = [a, b];
                        v[which] = if modifier == Opcode::Neg { v[which] ^ 1 << 63 } else { v[which] & !(1 << 63) };
                        let (x, y) = (f64::from_bits(v[0]), f64::from_bits(v[1]));
                        let got = run(&f, &[a, b], 0);
                        let want = if x.is_nan() && y.is_nan() {
                            // b made quiet, its bits as the register holds
                            // them (ptxas's LOP3 reads the unmodified
                            // register).
                            [a, b][1] | 1 << 51
                        } else if x.is_nan() {
                            v[1]
                        } else if y.is_nan() {
                            v[0]
                        } else if x == 0.0 && y == 0.0 {
                            if min { (v[0] | v[1]) & 1 << 63 } else { v[0] & v[1] & 1 << 63 }
                        } else if min {
                            x.min(y).to_bits()
                        } else {
                            x.max(y).to_bits()
                        };
                        assert_eq!(got, want, "{op}.f64 with source {which} a {modifier}: {a:#x}, {b:#x}");
                    }
                }
            }
        }
    }
}

#[test]
fn f64_min_max_return_the_number_when_one_operand_is_nan() {
    let xs = inputs64(80, 0x0dd_ba11_0000_0004);
    for (op, min) in [(Opcode::Min, true), (Opcode::Max, false)] {
        let f = expand(&function(op, Attrs::typed(DataType::F64), Type::R64, 2), 80);
        for &a in &xs {
            for &b in &xs {
                let (x, y) = (f64::from_bits(a), f64::from_bits(b));
                let got = run(&f, &[a, b], 0);
                if x.is_nan() && y.is_nan() {
                    // ptxas's rule (its `@P LOP3.LUT hi, b.hi, 0x80000`
                    // after DSETP.MIN/MAX): b made quiet.
                    assert_eq!(got, b | 1 << 51, "{op}.f64 {a:#x}, {b:#x}");
                } else if x == 0.0 && y == 0.0 {
                    let want = if min { (a | b) & 1 << 63 } else { a & b & 1 << 63 };
                    assert_eq!(got, want, "{op}.f64 {a:#x}, {b:#x}");
                } else {
                    let want = if min { x.min(y) } else { x.max(y) };
                    assert_eq!(got, want.to_bits(), "{op}.f64 {a:#x}, {b:#x}");
                }
            }
        }
    }
}

/// Distance in units of the last place between two finite f32 of the same
/// sign (or zero).
fn ulps(a: f32, b: f32) -> u32 {
    let key = |v: f32| if v.is_sign_negative() { -i64::from(v.to_bits() & 0x7fff_ffff) } else { i64::from(v.to_bits()) };
    (key(a) - key(b)).unsigned_abs() as u32
}

#[test]
fn f32_full_division_is_within_two_ulps() {
    // The PTX ISA: div.full.f32 has a maximum error of 2 ulp for |b| in
    // [2^-126, 2^126]; here also for subnormal |b| (the 2^24 scaling) and
    // with a faithful (jittered) reciprocal unit.
    let xs = inputs32(400, 0xf011_0000_0000_0005);
    for ftz in [false, true] {
        let attrs = Attrs { ty: Some(DataType::F32), full: true, ftz, ..Attrs::default() };
        let f = expand(&function(Opcode::Div, attrs, Type::R32, 2), 90);
        for &a in &xs {
            for &b in &xs {
                let (x, y) = (f32::from_bits(a), f32::from_bits(b));
                let (x, y) = if ftz { (num::ftz32(x), num::ftz32(y)) } else { (x, y) };
                let q = f64::from(x) / f64::from(y);
                let in_range = y.abs() <= 2f32.powi(126) && (y.abs() >= 2f32.powi(-126) || !ftz && y != 0.0);
                for jitter in [0, 0x2d] {
                    let got = f32::from_bits(run(&f, &[u64::from(a), u64::from(b)], jitter) as u32);
                    if q.is_nan() {
                        assert!(got.is_nan(), "div.full ftz={ftz} {a:#x} / {b:#x}: {got}");
                    } else if !in_range || !x.is_finite() || x == 0.0 || q.abs() >= f64::from(f32::MAX) || q.abs() < 2f64.powi(-126) {
                        // Infinities, zeros, huge or tiny quotients: the
                        // right sign, and the right kind where it is clear.
                        if q.is_infinite() && y != 0.0 && x.is_infinite() {
                            assert!(got.is_infinite(), "div.full ftz={ftz} {a:#x} / {b:#x}: {got}");
                        }
                        if q != 0.0 || got != 0.0 {
                            assert_eq!(got.is_sign_negative(), q.is_sign_negative(), "div.full ftz={ftz} {a:#x} / {b:#x}: {got} against {q}");
                        }
                    } else {
                        let want = q as f32;
                        assert!(ulps(got, want) <= 2, "div.full ftz={ftz} {a:#x} / {b:#x}: {got:e} against {want:e} (jitter {jitter:#x})");
                    }
                }
            }
        }
    }
}
