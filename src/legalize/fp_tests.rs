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
use crate::ir::{Attrs, Cmp, DataType, Function, FunctionBuilder, FunctionKind, MufuFunc, MulMode, Opcode, Round, Type, Value};
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
                        u64::from(if at.neg & (1 << k) == 0 { x } else if at.x { !x } else { x.wrapping_neg() })
                    };
                    let cin = if at.x { a.get(3).copied().unwrap_or(0) } else { 0 };
                    let s = op(0) + op(1) + op(2) + cin;
                    res = [s & 0xffff_ffff, u64::from(s >> 32 != 0)];
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
                Opcode::Isetp => {
                    let (x, y) = (a[0] as u32, a[1] as u32);
                    let ord = if at.ty == Some(DataType::S32) { (x as i32).cmp(&(y as i32)) } else { x.cmp(&y) };
                    use std::cmp::Ordering::*;
                    let t = match at.cmp {
                        Some(Cmp::Eq) => ord == Equal,
                        Some(Cmp::Ne) => ord != Equal,
                        Some(Cmp::Lt) => ord == Less,
                        Some(Cmp::Le) => ord != Greater,
                        Some(Cmp::Gt) => ord == Greater,
                        _ => ord != Less,
                    };
                    res[0] = u64::from(t && (a[2] != 0) != at.negated);
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
                    res[0] = u64::from(t && (a[2] != 0) != at.negated);
                }
                Opcode::Sel | Opcode::Fsel => res[0] = if a[2] != 0 { a[0] } else { a[1] },
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
                Opcode::I2f => {
                    let x = if at.src_ty == Some(DataType::S32) { f64::from(a[0] as i32) } else { a[0] as f64 };
                    res[0] = u64::from(num::f64_to_f32(x, m).to_bits());
                }
                Opcode::F2i => res[0] = num::float_to_int(f64::from(ftz(f32v(a[0]))), m, 32, at.ty == Some(DataType::S32)),
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
