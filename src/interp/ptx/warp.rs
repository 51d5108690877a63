//! Warp-wide instructions: `shfl`, `vote`, `match`, `redux`, `activemask`,
//! `elect`, `ldmatrix` and `mma`.
//!
//! The participating lanes are the group executing the instruction (see
//! [`super::exec`]) whose guard holds; the member mask operand is not
//! waited on (a member that diverged elsewhere cannot be made to arrive).
//! A lane reading a value from a lane that does not participate gets that
//! lane's register as it stands, as `shfl` on the GPU gives an unspecified
//! value there.
//!
//! `mma` and `ldmatrix` use the fragment layouts of the PTX ISA manual
//! ("Matrix fragments for mma.m16n8k16" / "m16n8k32", "ldmatrix"), and need
//! the whole warp. f32 accumulation is done exactly (products of f16/bf16
//! values and their sums are exact in f64 for these shapes up to
//! cancellation) and rounded once, which can differ from the GPU's adder in
//! the last bit for sums needing more than f64's precision.

use super::exec::{lanes, Cta, Machine};
use super::lower::{opn, f, Inst, Opnd};
use super::ops::{mask, sext};
use super::float::{self, Mode};
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::interp::memory::Region;
use crate::ptx::ast::ScalarType;
use crate::ptx::opcode::Opcode;

type R<T> = Result<T, InterpError>;

fn unsupported(inst: &Inst, what: &str) -> InterpError {
    InterpError::new(ErrorKind::Unsupported, format!("{} {what}", inst.op.name())).at(Site::Ptx(inst.span))
}

/// Executes a warp-wide instruction for the `active` lanes of the warp at `lo`.
#[allow(clippy::too_many_arguments)]
pub fn exec(m: &mut Machine, cta: &mut Cta, shared: &mut Region, lo: usize, hi: usize, active: u32, inst: &Inst, clock: u64) -> R<()> {
    let n = hi - lo;
    // Reads operand `k` of every lane in `mask` as `ty`.
    macro_rules! gather {
        ($k:expr, $ty:expr, $mask:expr) => {{
            let mut v = [0u64; 32];
            for i in lanes($mask) {
                // A lane that has exited has no registers left: it reads as 0.
                if cta.threads[lo + i as usize].frames.is_empty() {
                    continue;
                }
                if let Some(op) = inst.ops.get($k) {
                    v[i as usize] = m.lane(cta, shared, lo + i as usize, clock, inst, |l| l.get(op, $ty))?;
                }
            }
            v
        }};
    }
    let all: u32 = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    // Each active lane's participants: the active lanes of its member
    // mask (operand `k`; every active lane where the instruction has
    // none, as `vote.ballot` without `.sync`). Lanes running together may
    // name different masks (a warp of 16-lane tiles): each is its own
    // group.
    macro_rules! members {
        ($k:expr) => {{
            let mut part = [active; 32];
            if inst.ops.len() > $k {
                let masks = gather!($k, ScalarType::B32, active);
                for i in lanes(active) {
                    part[i as usize] = masks[i as usize] as u32 & active;
                }
            }
            part
        }};
    }
    match inst.op {
        Opcode::Activemask => {
            for i in lanes(active) {
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| l.set(opn(inst, 0)?, active as u64))?;
            }
        }
        Opcode::ShflSync | Opcode::Shfl => {
            let a = gather!(1, ScalarType::B32, all);
            let b = gather!(2, ScalarType::U32, active);
            let c = gather!(3, ScalarType::U32, active);
            for i in lanes(active) {
                let lane = i as u64;
                let (bv, cv) = (b[i as usize] & 0x1f, c[i as usize] & 0x1f);
                let seg = (c[i as usize] >> 8) & 0x1f;
                let max_lane = (lane & seg) | (cv & !seg);
                let min_lane = lane & seg;
                let (j, ok): (i64, bool) = if inst.has(f::UP) {
                    let j = lane as i64 - bv as i64;
                    (j, j >= max_lane as i64)
                } else if inst.has(f::DOWN) {
                    let j = lane as i64 + bv as i64;
                    (j, j <= max_lane as i64)
                } else if inst.has(f::BFLY) {
                    let j = (lane ^ bv) as i64;
                    (j, j <= max_lane as i64)
                } else {
                    let j = (min_lane | (bv & !seg)) as i64;
                    (j, j <= max_lane as i64)
                };
                let src = if ok && (0..n as i64).contains(&j) { j as usize } else { i as usize };
                let v = a[src] & 0xffff_ffff;
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| match opn(inst, 0)? {
                    Opnd::PredPair(d, p) => {
                        l.set_reg(*d, v);
                        l.set_reg(*p, ok as u64);
                        Ok(())
                    }
                    d => l.set(d, v),
                })?;
            }
        }
        Opcode::VoteSync | Opcode::Vote => {
            let p = gather!(1, ScalarType::Pred, active);
            let members = members!(2);
            let mut ballot = 0u32;
            for i in lanes(active) {
                if p[i as usize] & 1 != 0 {
                    ballot |= 1 << i;
                }
            }
            for i in lanes(active) {
                let part = members[i as usize];
                let b = ballot & part;
                // A ballot has the bits of every participating thread,
                // as ptxas's code gives it (`VOTE.ANY R, PT, P` whatever
                // the member masks).
                let v = if inst.has(f::BALLOT) {
                    ballot as u64
                } else if inst.has(f::ALL) {
                    (b == part) as u64
                } else if inst.has(f::ANY) {
                    (b != 0) as u64
                } else {
                    (b == part || b == 0) as u64
                };
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| l.set(opn(inst, 0)?, v))?;
            }
        }
        Opcode::Match => {
            let ty = inst.ty();
            let a = gather!(1, ty, active);
            let members = members!(2);
            let w = mask(ty.bits());
            for i in lanes(active) {
                let mine = a[i as usize] & w;
                let part = members[i as usize];
                let same: u32 = lanes(part).filter(|&k| a[k as usize] & w == mine).fold(0, |acc, k| acc | (1 << k));
                let (d, p) = if inst.has(f::ALL) {
                    let eq = same == part;
                    (if eq { part } else { 0 }, eq)
                } else {
                    (same, true)
                };
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| match opn(inst, 0)? {
                    Opnd::PredPair(dd, pp) => {
                        l.set_reg(*dd, d as u64);
                        l.set_reg(*pp, p as u64);
                        Ok(())
                    }
                    dd => l.set(dd, d as u64),
                })?;
            }
        }
        Opcode::ReduxSync => {
            let ty = inst.ty();
            let a = gather!(1, ty, active);
            let members = members!(2);
            for i in lanes(active) {
                let v = redux_value(inst, ty, lanes(members[i as usize]).map(|k| a[k as usize] & 0xffff_ffff).collect())?;
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| l.set(opn(inst, 0)?, v))?;
            }
        }
        Opcode::ElectSync => {
            let leader = active.trailing_zeros();
            for i in lanes(active) {
                m.lane(cta, shared, lo + i as usize, clock, inst, |l| match opn(inst, 0)? {
                    Opnd::PredPair(d, p) => {
                        l.set_reg(*d, leader as u64);
                        l.set_reg(*p, (i == leader) as u64);
                        Ok(())
                    }
                    d => l.set(d, (i == leader) as u64),
                })?;
            }
        }
        Opcode::Ldmatrix => ldmatrix(m, cta, shared, lo, active, all, inst, clock)?,
        Opcode::Mma => mma(m, cta, shared, lo, active, all, inst, clock)?,
        _ => return Err(unsupported(inst, "is not a warp instruction")),
    }
    Ok(())
}

/// `redux.sync`'s result over the values of a lane's participants.
fn redux_value(inst: &Inst, ty: ScalarType, vals: Vec<u64>) -> R<u64> {
    let signed = ty == ScalarType::S32;
    let v = if inst.has(f::ADD) {
        vals.iter().fold(0u64, |s, &x| s.wrapping_add(x)) & 0xffff_ffff
    } else if ty == ScalarType::F32 && (inst.has(f::MIN) || inst.has(f::MAX)) {
        // PTX ISA, redux.sync: `.abs` compares magnitudes; NaN
        // sources are left out unless `.NaN`, where any gives the
        // canonical NaN (as does an all-NaN warp); -0 is below +0.
        let abs = if inst.has(f::ABS) { 0x7fff_ffff } else { 0xffff_ffff };
        let xs: Vec<f32> = vals.iter().map(|&x| f32::from_bits(x as u32 & abs)).collect();
        let any_nan = xs.iter().any(|x| x.is_nan());
        let numbers = xs.iter().copied().filter(|x| !x.is_nan());
        let pick = if inst.has(f::MIN) { numbers.min_by(|a, b| a.total_cmp(b)) } else { numbers.max_by(|a, b| a.total_cmp(b)) };
        match pick {
            Some(x) if !(any_nan && inst.has(f::NAN)) => u64::from(x.to_bits()),
            _ => 0x7fff_ffff,
        }
    } else if inst.has(f::MIN) || inst.has(f::MAX) {
        let is_min = inst.has(f::MIN);
        if signed {
            let it = vals.iter().map(|&x| sext(x, 32));
            (if is_min { it.min() } else { it.max() }).unwrap_or(0) as u64 & 0xffff_ffff
        } else {
            let it = vals.iter().copied();
            (if is_min { it.min() } else { it.max() }).unwrap_or(0)
        }
    } else if inst.has(f::AND) {
        vals.iter().fold(0xffff_ffff, |s, &x| s & x)
    } else if inst.has(f::OR) {
        vals.iter().fold(0, |s, &x| s | x)
    } else if inst.has(f::XOR) {
        vals.iter().fold(0, |s, &x| s ^ x)
    } else {
        return Err(unsupported(inst, "operation"));
    };
    Ok(v)
}

fn need_full(inst: &Inst, active: u32, all: u32) -> R<()> {
    if active != u32::MAX || all != u32::MAX {
        return Err(InterpError::new(ErrorKind::Unsupported, format!("{} with fewer than 32 converged lanes", inst.op.name())).at(Site::Ptx(inst.span)));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn ldmatrix(m: &mut Machine, cta: &mut Cta, shared: &mut Region, lo: usize, active: u32, all: u32, inst: &Inst, clock: u64) -> R<()> {
    need_full(inst, active, all)?;
    let count = if inst.has(f::X4) {
        4
    } else if inst.has(f::X2) {
        2
    } else {
        1
    };
    let trans = inst.has(f::TRANS);
    // rows[k][r]: 8 b16 elements of row r of matrix k, from lane 8k + r's address.
    let mut rows = vec![[[0u16; 8]; 8]; count];
    for (k, mat) in rows.iter_mut().enumerate() {
        for (r, row) in mat.iter_mut().enumerate() {
            let lane = 8 * k + r;
            let bytes = m.lane(cta, shared, lo + lane, clock, inst, |l| {
                let (sp, a) = l.address(opn(inst, 1)?, inst.space)?;
                l.read(sp, a, 16, 16)
            })?;
            for (e, x) in row.iter_mut().enumerate() {
                *x = u16::from_le_bytes([bytes[2 * e], bytes[2 * e + 1]]);
            }
        }
    }
    let dsts: Vec<Opnd> = match opn(inst, 0)? {
        Opnd::Vec(v) => v.clone(),
        d => vec![d.clone()],
    };
    for lane in 0..32usize {
        let (g, t) = (lane / 4, lane % 4);
        for (k, d) in dsts.iter().enumerate().take(count) {
            let mat = &rows[k];
            let (x, y) = if trans { (mat[2 * t][g], mat[2 * t + 1][g]) } else { (mat[g][2 * t], mat[g][2 * t + 1]) };
            let v = x as u64 | ((y as u64) << 16);
            m.lane(cta, shared, lo + lane, clock, inst, |l| l.set(d, v))?;
        }
    }
    Ok(())
}

fn vec_ops(op: &Opnd) -> Vec<Opnd> {
    match op {
        Opnd::Vec(v) => v.clone(),
        o => vec![o.clone()],
    }
}

#[allow(clippy::too_many_arguments)]
fn mma(m: &mut Machine, cta: &mut Cta, shared: &mut Region, lo: usize, active: u32, all: u32, inst: &Inst, clock: u64) -> R<()> {
    need_full(inst, active, all)?;
    // Types: d, a, b, c.
    if inst.types.len() != 4 {
        return Err(unsupported(inst, "form"));
    }
    let (td, ta, tb, tc) = (inst.types[0], inst.types[1], inst.types[2], inst.types[3]);
    let (dv, av, bv, cv) = (vec_ops(opn(inst, 0)?), vec_ops(opn(inst, 1)?), vec_ops(opn(inst, 2)?), vec_ops(opn(inst, 3)?));
    let read = |m: &mut Machine, cta: &mut Cta, shared: &mut Region, ops: &[Opnd]| -> R<Vec<Vec<u64>>> {
        let mut out = vec![Vec::new(); 32];
        for (lane, o) in out.iter_mut().enumerate() {
            for op in ops {
                o.push(m.lane(cta, shared, lo + lane, clock, inst, |l| l.get(op, ScalarType::B32))?);
            }
        }
        Ok(out)
    };
    let (a, b, c) = (read(m, cta, shared, &av)?, read(m, cta, shared, &bv)?, read(m, cta, shared, &cv)?);
    let (mm, nn, kk) = if inst.has(f::M16N8K16) {
        (16, 8, 16)
    } else if inst.has(f::M16N8K32) {
        (16, 8, 32)
    } else {
        return Err(unsupported(inst, "shape"));
    };
    let mut am = vec![vec![0f64; kk]; mm];
    let mut bm = vec![vec![0f64; nn]; kk];
    let mut cm = vec![vec![0f64; nn]; mm];
    let mut ai = vec![vec![0i64; kk]; mm];
    let mut bi = vec![vec![0i64; nn]; kk];
    let mut ci = vec![vec![0i64; nn]; mm];
    let int = matches!(ta, ScalarType::S8 | ScalarType::U8);
    let half = |t: ScalarType, bits: u64| -> f64 {
        match t {
            ScalarType::Bf16 => float::BF16.to_f64(bits),
            _ => float::F16.to_f64(bits),
        }
    };
    for lane in 0..32usize {
        let (g, t) = (lane / 4, lane % 4);
        if !int {
            // m16n8k16 f16/bf16.
            for i in 0..8 {
                let reg = a[lane].get(i / 2).copied().unwrap_or(0);
                let e = (reg >> (16 * (i % 2))) & 0xffff;
                let row = if (i / 2) % 2 == 0 { g } else { g + 8 };
                let col = 2 * t + (i % 2) + if i >= 4 { 8 } else { 0 };
                am[row][col] = half(ta, e);
            }
            for i in 0..4 {
                let reg = b[lane].get(i / 2).copied().unwrap_or(0);
                let e = (reg >> (16 * (i % 2))) & 0xffff;
                let row = 2 * t + (i % 2) + if i >= 2 { 8 } else { 0 };
                bm[row][g] = half(tb, e);
            }
            for i in 0..4 {
                let v = c[lane].get(i).copied().unwrap_or(0);
                let row = if i < 2 { g } else { g + 8 };
                cm[row][2 * t + (i % 2)] = if tc == ScalarType::F32 { f32::from_bits(v as u32) as f64 } else { half(tc, v) };
            }
        } else {
            let elem = |t: ScalarType, reg: u64, k: usize| -> i64 {
                let x = (reg >> (8 * k)) & 0xff;
                if t == ScalarType::S8 {
                    sext(x, 8)
                } else {
                    x as i64
                }
            };
            for i in 0..16 {
                let reg = a[lane].get(i / 4).copied().unwrap_or(0);
                let row = if i < 4 || (8..12).contains(&i) { g } else { g + 8 };
                let col = 4 * t + (i & 3) + if i >= 8 { 16 } else { 0 };
                ai[row][col] = elem(ta, reg, i % 4);
            }
            for i in 0..8 {
                let reg = b[lane].get(i / 4).copied().unwrap_or(0);
                let row = 4 * t + (i & 3) + if i >= 4 { 16 } else { 0 };
                bi[row][g] = elem(tb, reg, i % 4);
            }
            for i in 0..4 {
                let v = c[lane].get(i).copied().unwrap_or(0);
                let row = if i < 2 { g } else { g + 8 };
                ci[row][2 * t + (i % 2)] = sext(v, 32);
            }
        }
    }
    for lane in 0..32usize {
        let (g, t) = (lane / 4, lane % 4);
        for (i, d) in dv.iter().enumerate().take(4) {
            let row = if i < 2 { g } else { g + 8 };
            let col = 2 * t + (i % 2);
            let v = if int {
                let s: i64 = ci[row][col] + (0..kk).map(|k| ai[row][k] * bi[k][col]).sum::<i64>();
                let s = if inst.has(f::SATFINITE) { s.clamp(i32::MIN as i64, i32::MAX as i64) } else { s };
                (s as u64) & 0xffff_ffff
            } else {
                let mut s = cm[row][col];
                for k in 0..kk {
                    s += am[row][k] * bm[k][col];
                }
                match td {
                    ScalarType::F32 => float::from_f64(s, float::F32, Mode::Nearest),
                    _ => float::from_f64(s, float::F16, Mode::Nearest),
                }
            };
            m.lane(cta, shared, lo + lane, clock, inst, |l| l.set(d, v))?;
        }
    }
    Ok(())
}
