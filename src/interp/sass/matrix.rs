//! Warp-wide matrix multiply-accumulate (HMMA, IMMA): the fragments of A,
//! B, C and D spread over the registers of the warp's 32 lanes, gathered
//! into matrices, multiplied and scattered back.
//!
//! Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16" and
//! "mma.m16n8k32"): with `g = lane / 4` and `t = lane % 4`,
//! * A (16×K): register `j`, element `e` of it, is row `g + 8·(j & 1)`,
//!   column `t·P + e + (K/2)·(j >> 1)`, where `P` elements pack a register
//!   (2 halves, or 4 bytes);
//! * B (K×8): register `j`, element `e`, is row `t·P + e + (K/2)·j`,
//!   column `g`;
//! * C and D (16×8): register `j` is row `g + 8·(j >> 1)`, column
//!   `2t + (j & 1)` (f32 or s32 accumulators); with f16 accumulators,
//!   register `j` holds columns `2t` and `2t + 1` of row `g + 8·j`.
//!
//! Products are exact and summed in `f64`, then rounded once (the test
//! data of the corpus stays within `f64`'s exact range); integer sums wrap.

use super::num::{self, Round};

/// The element types of an MMA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaKind {
    /// m16n8k16, f16 or bf16 inputs, f32 accumulators.
    HalfF32 {
        /// bf16 rather than f16 inputs.
        bf16: bool,
    },
    /// m16n8k16, f16 inputs and accumulators.
    HalfF16,
    /// m16n8k32, 8-bit integer inputs, s32 accumulators.
    Int8 {
        /// A is s8 (else u8).
        a_signed: bool,
        /// B is s8 (else u8).
        b_signed: bool,
    },
}

impl MmaKind {
    /// Registers of A, B, C/D per lane.
    pub fn registers(self) -> (usize, usize, usize) {
        match self {
            MmaKind::HalfF32 { .. } | MmaKind::Int8 { .. } => (4, 2, 4),
            MmaKind::HalfF16 => (4, 2, 2),
        }
    }
}

type Row = [u32; 32];

fn half(v: u32, e: usize, bf16: bool) -> f64 {
    let h = (v >> (16 * e)) as u16;
    if bf16 { num::bf16_to_f64(h) } else { num::f16_to_f64(h) }
}

fn byte(v: u32, e: usize, signed: bool) -> i64 {
    let b = (v >> (8 * e)) as u8;
    if signed { i64::from(b as i8) } else { i64::from(b) }
}

/// D = A·B + C for one warp; `a`, `b`, `c` are the register rows of the
/// fragments (as many as [`MmaKind::registers`] says), the result D's rows.
pub fn mma(kind: MmaKind, a: &[Row], b: &[Row], c: &[Row]) -> Vec<Row> {
    let (ka, kb, kc) = kind.registers();
    if a.len() < ka || b.len() < kb || c.len() < kc {
        return vec![[0; 32]; kc];
    }
    let k = if matches!(kind, MmaKind::Int8 { .. }) { 32 } else { 16 };
    let per = k / 8; // elements per register: 2 halves or 4 bytes
    let mut am = vec![[0f64; 32]; 16];
    let mut bm = vec![[0f64; 8]; 32];
    let mut ai = vec![[0i64; 32]; 16];
    let mut bi = vec![[0i64; 8]; 32];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for (j, reg) in a.iter().take(ka).enumerate() {
            for e in 0..per {
                let (row, col) = (g + 8 * (j & 1), t * per + e + (k / 2) * (j >> 1));
                match kind {
                    MmaKind::Int8 { a_signed, .. } => ai[row][col] = byte(reg[lane], e, a_signed),
                    MmaKind::HalfF32 { bf16 } => am[row][col] = half(reg[lane], e, bf16),
                    MmaKind::HalfF16 => am[row][col] = half(reg[lane], e, false),
                }
            }
        }
        for (j, reg) in b.iter().take(kb).enumerate() {
            for e in 0..per {
                let row = t * per + e + (k / 2) * j;
                match kind {
                    MmaKind::Int8 { b_signed, .. } => bi[row][g] = byte(reg[lane], e, b_signed),
                    MmaKind::HalfF32 { bf16 } => bm[row][g] = half(reg[lane], e, bf16),
                    MmaKind::HalfF16 => bm[row][g] = half(reg[lane], e, false),
                }
            }
        }
    }
    let mut d = vec![[0u32; 32]; kc];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        match kind {
            MmaKind::HalfF16 => {
                for j in 0..2 {
                    let row = g + 8 * j;
                    let mut out = 0u32;
                    for e in 0..2 {
                        let col = 2 * t + e;
                        let sum: f64 = (0..k).map(|x| am[row][x] * bm[x][col]).sum::<f64>() + half(c[j][lane], e, false);
                        out |= u32::from(num::f64_to_f16(sum, Round::Nearest)) << (16 * e);
                    }
                    d[j][lane] = out;
                }
            }
            _ => {
                for j in 0..4 {
                    let (row, col) = (g + 8 * (j >> 1), 2 * t + (j & 1));
                    d[j][lane] = match kind {
                        MmaKind::Int8 { .. } => {
                            let sum: i64 = (0..k).map(|x| ai[row][x] * bi[x][col]).sum();
                            (sum as i32).wrapping_add(c[j][lane] as i32) as u32
                        }
                        _ => {
                            let sum: f64 = (0..k).map(|x| am[row][x] * bm[x][col]).sum::<f64>() + f64::from(f32::from_bits(c[j][lane]));
                            let v = num::f64_to_f32(sum, Round::Nearest);
                            if v.is_nan() { 0x7fff_ffff } else { v.to_bits() }
                        }
                    };
                }
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let d = mma(MmaKind::Int8 { a_signed: true, b_signed: true }, &a, &b, &c);
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
