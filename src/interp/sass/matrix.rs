//! Warp-wide matrix multiply-accumulate (HMMA, IMMA, BMMA, DMMA, QMMA):
//! the fragments of A, B, C and D spread over the registers of the warp's
//! 32 lanes, gathered into matrices, multiplied and scattered back.
//!
//! Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8kK" and
//! "mma.m8n8k4 / m8n8k128"): with `g = lane / 4` and `t = lane % 4`,
//! * A (M×K): register `j`, element `e` of it, is row `g + 8·(j & 1)`,
//!   column `t·P + e + (K/2)·(j >> 1)` for M = 16 (row `g`, column
//!   `t·P + e` for M = 8), where `P` elements pack a register (1 tf32,
//!   2 halves, 4 bytes, 8 nibbles, 32 bits);
//! * B (K×8): register `j`, element `e`, is row `t·P + e + (K/2)·j`,
//!   column `g`;
//! * C and D (M×8): register `j` is row `g + 8·(j >> 1)`, column
//!   `2t + (j & 1)` (f32 or s32 accumulators; M = 8: row `g`, column
//!   `2t + j`); with f16 accumulators, register `j` holds columns `2t`
//!   and `2t + 1` of row `g + 8·j`; f64 (m8n8k4) has its own layout
//!   ([`dmma`]).
//!
//! Products are exact and summed in `f64`, then rounded once (the test
//! data stays within `f64`'s exact range); integer sums wrap, or clamp
//! with `.SAT`; b1 products are `a & b` or `a ^ b`, summed (popc).

use super::num::{self, Round};
use crate::ir::matrix::{Mma, MmaAcc, MmaBitOp, MmaElem};

/// The element types of an MMA: the descriptor the compiler's IR uses
/// (shape, types of A and B, accumulator, saturation, b1 product).
pub type MmaKind = Mma;

type Row = [u32; 32];

/// An element of A or B: a float (exact in `f64`) or an integer (b1: 0/1).
#[derive(Clone, Copy)]
enum Elem {
    F(f64),
    I(i64),
}

/// e4m3 (no infinities, S.1111.111 NaN) and e5m2 (IEEE-like) to f64.
fn fp8_to_f64(b: u8, e5m2: bool) -> f64 {
    let (ebits, mbits, bias) = if e5m2 { (5, 2, 15) } else { (4, 3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = i32::from(b >> mbits) & ((1 << ebits) - 1);
    let m = f64::from(b & ((1 << mbits) - 1));
    let frac = m / f64::from(1 << mbits);
    if e5m2 && e == 31 {
        return if m == 0.0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if !e5m2 && e == 15 && m == 7.0 {
        return f64::NAN;
    }
    if e == 0 { sign * frac * 2f64.powi(1 - bias) } else { sign * (1.0 + frac) * 2f64.powi(e - bias) }
}

/// Element `e` of a 32-bit register holding elements of type `t`.
fn element(v: u32, e: usize, t: MmaElem) -> Elem {
    let bits = t.bits() as usize;
    let raw = if bits >= 32 { v } else { (v >> (bits * e)) & ((1u32 << bits) - 1) };
    match t {
        MmaElem::F16 => Elem::F(num::f16_to_f64(raw as u16)),
        MmaElem::Bf16 => Elem::F(num::bf16_to_f64(raw as u16)),
        // The tensor cores read the top 19 bits of a tf32 register (sign,
        // exponent, 10 mantissa bits); the rest is ignored.
        MmaElem::Tf32 => Elem::F(f64::from(f32::from_bits(raw & 0xffff_e000))),
        MmaElem::E4m3 => Elem::F(fp8_to_f64(raw as u8, false)),
        MmaElem::E5m2 => Elem::F(fp8_to_f64(raw as u8, true)),
        MmaElem::S8 => Elem::I(i64::from(raw as u8 as i8)),
        MmaElem::S4 => Elem::I(i64::from(((raw as u8) << 4) as i8 >> 4)),
        MmaElem::U8 | MmaElem::U4 | MmaElem::B1 => Elem::I(i64::from(raw)),
        MmaElem::F64 => Elem::F(f64::NAN),
    }
}

/// D = A·B + C for one warp; `a`, `b`, `c` are the register rows of the
/// fragments (as many as [`Mma::registers`] says), the result D's rows.
pub fn mma(kind: MmaKind, a: &[Row], b: &[Row], c: &[Row]) -> Vec<Row> {
    let (ka, kb, kc) = kind.registers();
    let (ka, kb, kc) = (usize::from(ka), usize::from(kb), usize::from(kc));
    if a.len() < ka || b.len() < kb || c.len() < kc {
        return vec![[0; 32]; kc];
    }
    if kind.a == MmaElem::F64 {
        return dmma(a, b, c);
    }
    let (m, n, k) = kind.shape.mnk();
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let zero = if kind.a.integer() { Elem::I(0) } else { Elem::F(0.0) };
    let mut am = vec![vec![zero; k]; m];
    let mut bm = vec![vec![zero; n]; k];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        let per = 32 / kind.a.bits() as usize;
        for (j, reg) in a.iter().take(ka).enumerate() {
            for e in 0..per {
                let row = if m == 16 { g + 8 * (j & 1) } else { g };
                let col = t * per + e + if m == 16 { (k / 2) * (j >> 1) } else { 0 };
                am[row][col] = element(reg[lane], e, kind.a);
            }
        }
        let per = 32 / kind.b.bits() as usize;
        for (j, reg) in b.iter().take(kb).enumerate() {
            for e in 0..per {
                bm[t * per + e + (k / 2) * j][g] = element(reg[lane], e, kind.b);
            }
        }
    }
    // D[row][col] from the matrices.
    let entry = |row: usize, col: usize, cv: Elem| -> Elem {
        match cv {
            Elem::I(acc) => {
                let sum: i64 = (0..k)
                    .map(|x| match (am[row][x], bm[x][col]) {
                        (Elem::I(p), Elem::I(q)) => match kind.bitop {
                            Some(MmaBitOp::And) => p & q,
                            Some(MmaBitOp::Xor) => p ^ q,
                            None => p * q,
                        },
                        _ => 0,
                    })
                    .sum();
                let total = acc + sum;
                Elem::I(if kind.sat { total.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) } else { i64::from(total as i32) })
            }
            Elem::F(acc) => {
                let sum: f64 = (0..k)
                    .map(|x| match (am[row][x], bm[x][col]) {
                        (Elem::F(p), Elem::F(q)) => p * q,
                        _ => 0.0,
                    })
                    .sum();
                Elem::F(sum + acc)
            }
        }
    };
    let f32_bits = |v: f64| {
        let v = num::f64_to_f32(v, Round::Nearest);
        if v.is_nan() { 0x7fff_ffff } else { v.to_bits() }
    };
    let mut d = vec![[0u32; 32]; kc];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        match kind.acc {
            MmaAcc::F16 => {
                for (j, dj) in d.iter_mut().enumerate() {
                    let row = g + 8 * j;
                    let mut out = 0u32;
                    for e in 0..2 {
                        let cv = Elem::F(num::f16_to_f64((c[j][lane] >> (16 * e)) as u16));
                        if let Elem::F(v) = entry(row, 2 * t + e, cv) {
                            let h = if v.is_nan() { 0x7fff } else { num::f64_to_f16(v, Round::Nearest) };
                            out |= u32::from(h) << (16 * e);
                        }
                    }
                    dj[lane] = out;
                }
            }
            _ => {
                for (j, dj) in d.iter_mut().enumerate() {
                    let (row, col) = if m == 16 { (g + 8 * (j >> 1), 2 * t + (j & 1)) } else { (g, 2 * t + j) };
                    let cv = if kind.acc == MmaAcc::S32 { Elem::I(i64::from(c[j][lane] as i32)) } else { Elem::F(f64::from(f32::from_bits(c[j][lane]))) };
                    dj[lane] = match entry(row, col, cv) {
                        Elem::I(v) => v as i32 as u32,
                        Elem::F(v) => f32_bits(v),
                    };
                }
            }
        }
    }
    d
}

/// m8n8k4 f64: A (8×4) one f64 per lane at row `g`, column `t`; B (4×8)
/// at row `t`, column `g`; C and D two f64 per lane, row `g`, columns
/// `2t` and `2t + 1`. Each element is a chain of fused multiply-adds in
/// k order, starting from C.
fn dmma(a: &[Row], b: &[Row], c: &[Row]) -> Vec<Row> {
    let f = |rows: &[Row], k: usize, lane: usize| f64::from_bits(u64::from(rows[2 * k][lane]) | u64::from(rows[2 * k + 1][lane]) << 32);
    let mut am = [[0f64; 4]; 8];
    let mut bm = [[0f64; 8]; 4];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        am[g][t] = f(a, 0, lane);
        bm[t][g] = f(b, 0, lane);
    }
    let mut d = vec![[0u32; 32]; 4];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..2 {
            let mut acc = f(c, i, lane);
            for x in 0..4 {
                acc = am[g][x].mul_add(bm[x][2 * t + i], acc);
            }
            let bits = acc.to_bits();
            d[2 * i][lane] = bits as u32;
            d[2 * i + 1][lane] = (bits >> 32) as u32;
        }
    }
    d
}

/// MOVM.16.MT88 (`movmatrix.trans`): the 8×8 matrix of 16-bit elements
/// whose row `l / 4`, columns `2(l % 4)` and `2(l % 4) + 1`, lane `l`
/// holds (low half first), transposed: element (r, c) of the result is
/// element (c, r) of the source.
pub fn transpose_8x8(src: &Row) -> Row {
    let mut out = [0u32; 32];
    for (l, o) in out.iter_mut().enumerate() {
        for e in 0..2 {
            let (r, c) = (l / 4, 2 * (l % 4) + e);
            let half = (src[4 * c + r / 2] >> (16 * (r % 2))) & 0xffff;
            *o |= half << (16 * e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movm_transposes_the_fragment_matrix() {
        // Element (r, c) = 0x100·r + c; lane l holds (l/4, 2(l%4)) low and
        // (l/4, 2(l%4)+1) high. After the transposition lane 1 holds row 0,
        // columns 2 and 3 of the transpose: elements (2, 0) and (3, 0).
        let mut m = [0u32; 32];
        for (l, v) in m.iter_mut().enumerate() {
            let (r, c) = ((l / 4) as u32, (2 * (l % 4)) as u32);
            *v = (0x100 * r + c) | (0x100 * r + c + 1) << 16;
        }
        let t = transpose_8x8(&m);
        assert_eq!(t[1], 0x0300_0200);
        assert_eq!(t[4 * 7 + 3], 0x0707_0607, "row 7, columns 6 and 7: elements (6, 7) and (7, 7)");
        assert_eq!(transpose_8x8(&t), m);
    }

    #[test]
    fn b1_xor_popc_counts_differing_bits() {
        // m8n8k128: A row g is lane 4g+t's 32 bits t·32.., B column g the
        // same. All A bits set, B bits zero: every product counts 128.
        let a = vec![[u32::MAX; 32]];
        let b = vec![[0u32; 32]];
        let c = vec![[5u32; 32], [7u32; 32]];
        let kind = Mma { shape: crate::ir::matrix::MmaShape::M8N8K128, a: MmaElem::B1, b: MmaElem::B1, acc: MmaAcc::S32, sat: false, bitop: Some(MmaBitOp::Xor) };
        let d = mma(kind, &a, &b, &c);
        assert_eq!((d[0][0], d[1][31]), (133, 135));
        let and = Mma { bitop: Some(MmaBitOp::And), ..kind };
        assert_eq!(mma(and, &a, &b, &c)[0][3], 5);
    }

    #[test]
    fn satfinite_clamps_and_plain_sums_wrap() {
        // m16n8k16 u8: A and B all 255 (16·255·255 = 1040400 per entry), C
        // i32::MAX: saturated to i32::MAX, else wrapped.
        let a = vec![[u32::MAX; 32]; 2];
        let b = vec![[u32::MAX; 32]];
        let c = vec![[i32::MAX as u32; 32]; 4];
        let kind = Mma { shape: crate::ir::matrix::MmaShape::M16N8K16, a: MmaElem::U8, b: MmaElem::U8, acc: MmaAcc::S32, sat: true, bitop: None };
        assert_eq!(mma(kind, &a, &b, &c)[2][9], i32::MAX as u32);
        let wrap = Mma { sat: false, ..kind };
        assert_eq!(mma(wrap, &a, &b, &c)[2][9], (i32::MAX as u32).wrapping_add(1_040_400));
    }

    /// A times B computed from the matrices directly, against the fragment
    /// scatter/gather: A = identity-like pattern, B = small integers.
    #[test]
    fn int8_mma_multiplies_the_matrices_the_fragments_hold() {
        // A[r][c] = (r + 2c) % 5 - 2, B[r][c] = (3r + c) % 7 - 3, C[r][c] = r·8 + c.
        let av = |r: usize, c: usize| ((r + 2 * c) % 5) as i64 - 2;
        let bv = |r: usize, c: usize| ((3 * r + c) % 7) as i64 - 3;
        let mut a = vec![[0u32; 32]; 4];
        let mut b = vec![[0u32; 32]; 2];
        let mut c = vec![[0u32; 32]; 4];
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for j in 0..4 {
                for e in 0..4 {
                    let (row, col) = (g + 8 * (j & 1), t * 4 + e + 16 * (j >> 1));
                    a[j][lane] |= u32::from(av(row, col) as i8 as u8) << (8 * e);
                }
                let (row, col) = (g + 8 * (j >> 1), 2 * t + (j & 1));
                c[j][lane] = (row * 8 + col) as u32;
            }
            for j in 0..2 {
                for e in 0..4 {
                    b[j][lane] |= u32::from(bv(t * 4 + e + 16 * j, g) as i8 as u8) << (8 * e);
                }
            }
        }
        let kind = Mma { shape: crate::ir::matrix::MmaShape::M16N8K32, a: MmaElem::S8, b: MmaElem::S8, acc: MmaAcc::S32, sat: false, bitop: None };
        let d = mma(kind, &a, &b, &c);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for j in 0..4 {
                let (row, col) = (g + 8 * (j >> 1), 2 * t + (j & 1));
                let want: i64 = (0..32).map(|x| av(row, x) * bv(x, col)).sum::<i64>() + (row * 8 + col) as i64;
                assert_eq!(d[j][lane] as i32, want as i32, "lane {lane} reg {j}");
            }
        }
    }
}
