//! The descriptors of the tensor-core path's operations: what one
//! `mma.sync` multiplies (shape, element types of A and B, accumulator
//! type, saturation, the single-bit product), what one `ldmatrix` moves,
//! and how one `cp.async` copies (size, cache level, prefetch hint,
//! zero-fill, the shared offset), each packed into an Ori instruction's
//! immediate so that lowering, legalization, selection and the printers
//! share one spelling.
//!
//! Fragment sizes (registers of 32 bits per lane) follow the PTX ISA's
//! "Matrix fragments for mma.m16n8kK" sections: each lane holds
//! `M·K / 32` elements of A, `K·N / 32` of B and `M·N / 32` of C and D.

/// An `mma` shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaShape {
    /// m16n8k4 (tf32).
    M16N8K4,
    /// m16n8k8 (f16, bf16, tf32).
    M16N8K8,
    /// m16n8k16 (f16, bf16, s8/u8).
    M16N8K16,
    /// m16n8k32 (s8/u8, s4/u4, e4m3/e5m2).
    M16N8K32,
    /// m16n8k64 (s4/u4).
    M16N8K64,
    /// m16n8k128 (b1).
    M16N8K128,
    /// m16n8k256 (b1).
    M16N8K256,
    /// m8n8k4 (f64).
    M8N8K4,
    /// m8n8k128 (b1).
    M8N8K128,
}

const SHAPES: [(MmaShape, &str, u32, u32, u32); 9] = [
    (MmaShape::M16N8K4, ".m16n8k4", 16, 8, 4),
    (MmaShape::M16N8K8, ".m16n8k8", 16, 8, 8),
    (MmaShape::M16N8K16, ".m16n8k16", 16, 8, 16),
    (MmaShape::M16N8K32, ".m16n8k32", 16, 8, 32),
    (MmaShape::M16N8K64, ".m16n8k64", 16, 8, 64),
    (MmaShape::M16N8K128, ".m16n8k128", 16, 8, 128),
    (MmaShape::M16N8K256, ".m16n8k256", 16, 8, 256),
    (MmaShape::M8N8K4, ".m8n8k4", 8, 8, 4),
    (MmaShape::M8N8K128, ".m8n8k128", 8, 8, 128),
];

impl MmaShape {
    /// The shape spelled `word` (with its dot).
    pub fn from_spelling(word: &str) -> Option<MmaShape> {
        SHAPES.iter().find(|s| s.1 == word).map(|s| s.0)
    }
    /// M, N and K.
    pub fn mnk(self) -> (u32, u32, u32) {
        let s = SHAPES[self as usize];
        (s.2, s.3, s.4)
    }
}

/// An element type of A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaElem {
    /// `.f16`.
    F16,
    /// `.bf16`.
    Bf16,
    /// `.tf32`.
    Tf32,
    /// `.f64`.
    F64,
    /// `.u8`.
    U8,
    /// `.s8`.
    S8,
    /// `.u4`.
    U4,
    /// `.s4`.
    S4,
    /// `.b1`.
    B1,
    /// `.e4m3`.
    E4m3,
    /// `.e5m2`.
    E5m2,
}

const ELEMS: [(MmaElem, &str, u32); 11] = [
    (MmaElem::F16, ".f16", 16),
    (MmaElem::Bf16, ".bf16", 16),
    (MmaElem::Tf32, ".tf32", 32),
    (MmaElem::F64, ".f64", 64),
    (MmaElem::U8, ".u8", 8),
    (MmaElem::S8, ".s8", 8),
    (MmaElem::U4, ".u4", 4),
    (MmaElem::S4, ".s4", 4),
    (MmaElem::B1, ".b1", 1),
    (MmaElem::E4m3, ".e4m3", 8),
    (MmaElem::E5m2, ".e5m2", 8),
];

impl MmaElem {
    /// The type spelled `word` (with its dot).
    pub fn from_spelling(word: &str) -> Option<MmaElem> {
        ELEMS.iter().find(|e| e.1 == word).map(|e| e.0)
    }
    /// Bits per element.
    pub fn bits(self) -> u32 {
        ELEMS[self as usize].2
    }
    /// Whether a signed integer.
    pub fn signed(self) -> bool {
        matches!(self, MmaElem::S8 | MmaElem::S4)
    }
    /// Whether an integer (or single-bit) type.
    pub fn integer(self) -> bool {
        matches!(self, MmaElem::U8 | MmaElem::S8 | MmaElem::U4 | MmaElem::S4 | MmaElem::B1)
    }
    fn from_index(k: u64) -> Option<MmaElem> {
        ELEMS.get(k as usize).map(|e| e.0)
    }
}

/// The accumulator (C and D) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaAcc {
    /// `.f32`.
    F32,
    /// `.f16` (two per register).
    F16,
    /// `.s32`.
    S32,
    /// `.f64`.
    F64,
}

/// The single-bit product of `b1` shapes: `.and.popc` or `.xor.popc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaBitOp {
    /// `popc(a & b)`.
    And,
    /// `popc(a ^ b)`.
    Xor,
}

/// One `mma.sync.aligned` (row-major A, column-major B: the only layouts
/// PTX allows outside m8n8k4 f16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mma {
    /// The shape.
    pub shape: MmaShape,
    /// A's element type.
    pub a: MmaElem,
    /// B's element type.
    pub b: MmaElem,
    /// C's and D's type.
    pub acc: MmaAcc,
    /// `.satfinite` (integer accumulators clamp instead of wrapping).
    pub sat: bool,
    /// The single-bit product (b1 shapes).
    pub bitop: Option<MmaBitOp>,
}

impl Mma {
    /// The descriptor as an instruction immediate.
    pub fn encode(self) -> u64 {
        let bitop = match self.bitop {
            None => 0,
            Some(MmaBitOp::And) => 1,
            Some(MmaBitOp::Xor) => 2,
        };
        self.shape as u64 | (self.a as u64) << 4 | (self.b as u64) << 8 | (self.acc as u64) << 12 | u64::from(self.sat) << 14 | bitop << 16
    }
    /// The descriptor an immediate holds (`None` for no descriptor).
    pub fn decode(imm: u64) -> Option<Mma> {
        let shape = SHAPES.get((imm & 0xf) as usize)?.0;
        let a = MmaElem::from_index(imm >> 4 & 0xf)?;
        let b = MmaElem::from_index(imm >> 8 & 0xf)?;
        let acc = [MmaAcc::F32, MmaAcc::F16, MmaAcc::S32, MmaAcc::F64][(imm >> 12 & 3) as usize];
        let bitop = match imm >> 16 & 3 {
            0 => None,
            1 => Some(MmaBitOp::And),
            2 => Some(MmaBitOp::Xor),
            _ => return None,
        };
        let mma = Mma { shape, a, b, acc, sat: imm >> 14 & 1 == 1, bitop };
        (imm >> 18 == 0 && mma.encode() == imm && mma.valid()).then_some(mma)
    }
    /// Whether PTX defines this combination (the ISA's table "mma shapes
    /// and types"; m8n8k4 with f16 is the sm_70 form, not lowered).
    pub fn valid(self) -> bool {
        use MmaElem::*;
        use MmaShape::*;
        let same_family = match (self.a, self.b) {
            (U8 | S8, U8 | S8) | (U4 | S4, U4 | S4) | (E4m3 | E5m2, E4m3 | E5m2) => true,
            (x, y) => x == y,
        };
        let shape_ok = match self.a {
            F16 => matches!(self.shape, M16N8K8 | M16N8K16) && matches!(self.acc, MmaAcc::F32 | MmaAcc::F16),
            Bf16 => matches!(self.shape, M16N8K8 | M16N8K16) && self.acc == MmaAcc::F32,
            Tf32 => matches!(self.shape, M16N8K4 | M16N8K8) && self.acc == MmaAcc::F32,
            F64 => self.shape == M8N8K4 && self.acc == MmaAcc::F64,
            U8 | S8 => matches!(self.shape, M16N8K16 | M16N8K32) && self.acc == MmaAcc::S32,
            U4 | S4 => matches!(self.shape, M16N8K32 | M16N8K64) && self.acc == MmaAcc::S32,
            B1 => matches!(self.shape, M8N8K128 | M16N8K128 | M16N8K256) && self.acc == MmaAcc::S32 && self.bitop.is_some(),
            E4m3 | E5m2 => self.shape == M16N8K32 && self.acc == MmaAcc::F32,
        };
        let sat_ok = !self.sat || (self.a.integer() && self.a != B1);
        let bitop_ok = self.bitop.is_none() || self.a == B1;
        same_family && shape_ok && sat_ok && bitop_ok
    }
    /// Whether `sm` has one machine instruction for it, as ptxas 13.5
    /// emits (measured on sm_80, 86, 89, 90, 100, 120): from sm_90 ptxas
    /// calls emulation routines for the 4-bit types and `.xor.popc`, from
    /// sm_100 for every b1 shape, and for e4m3/e5m2 everywhere but sm_89
    /// and sm_120/121 (QMMA). Those are not lowered.
    pub fn native_on(self, sm: u16) -> bool {
        use MmaElem::*;
        // sm_75: m16n8k8 from f16 (HMMA.1688, ptxas 13.5).
        if (75..80).contains(&sm) {
            return self.shape == MmaShape::M16N8K8 && self.a == F16;
        }
        sm >= 80
            && match self.a {
                F16 | Bf16 | Tf32 | F64 | U8 | S8 => true,
                U4 | S4 => sm < 90,
                B1 if self.bitop == Some(MmaBitOp::And) => sm <= 90,
                B1 => sm < 90,
                E4m3 | E5m2 => sm == 89 || (120..=121).contains(&sm),
            }
    }
    /// Registers of 32 bits per lane of A, B and C (= D).
    pub fn registers(self) -> (u8, u8, u8) {
        let (m, n, k) = self.shape.mnk();
        let acc_bits = match self.acc {
            MmaAcc::F16 => 16,
            MmaAcc::F64 => 64,
            MmaAcc::F32 | MmaAcc::S32 => 32,
        };
        let regs = |elems: u32, bits: u32| (elems * bits).div_ceil(32 * 32) as u8;
        (regs(m * k, self.a.bits()), regs(k * n, self.b.bits()), regs(m * n, acc_bits))
    }
}

/// One `ldmatrix` / `stmatrix`: `count` 8×8 matrices of 16-bit elements
/// (one register per matrix and lane), transposed or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatrixMove {
    /// 1, 2 or 4 matrices.
    pub count: u8,
    /// `.trans`.
    pub trans: bool,
}

impl MatrixMove {
    /// The descriptor as an instruction immediate.
    pub fn encode(self) -> u64 {
        u64::from(self.count) | u64::from(self.trans) << 4
    }
    /// The descriptor an immediate holds.
    pub fn decode(imm: u64) -> Option<MatrixMove> {
        let count = (imm & 0xf) as u8;
        (matches!(count, 1 | 2 | 4) && imm >> 5 == 0).then_some(MatrixMove { count, trans: imm >> 4 & 1 == 1 })
    }
}

/// One `cp.async.{ca,cg}.shared.global` (LDGSTS): the global address and
/// its offset are the instruction's argument and offset, the shared
/// address its argument with [`AsyncCopy::shared_offset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AsyncCopy {
    /// Bytes: 4, 8 or 16.
    pub size: u8,
    /// `.cg`: bypass L1 (`.BYPASS`).
    pub bypass: bool,
    /// `.L2::64B`, `.L2::128B`, `.L2::256B` prefetch: 64, 128, 256 (0 none).
    pub prefetch: u16,
    /// The low bits of the source address count bytes zero-filled at the
    /// end (`.ZFILL`: a source size below the copy's).
    pub zfill: bool,
    /// Byte offset added to the shared address.
    pub shared_offset: i32,
}

impl AsyncCopy {
    /// The descriptor as an instruction immediate.
    pub fn encode(self) -> u64 {
        let size = match self.size {
            4 => 0,
            8 => 1,
            _ => 2,
        };
        let prefetch = match self.prefetch {
            64 => 1,
            128 => 2,
            256 => 3,
            _ => 0,
        };
        size | u64::from(self.bypass) << 2 | prefetch << 3 | u64::from(self.zfill) << 5 | u64::from(self.shared_offset as u32) << 32
    }
    /// The descriptor an immediate holds.
    pub fn decode(imm: u64) -> Option<AsyncCopy> {
        let size = [4, 8, 16].get((imm & 3) as usize).copied()?;
        let prefetch = [0, 64, 128, 256][(imm >> 3 & 3) as usize];
        let copy = AsyncCopy { size, bypass: imm >> 2 & 1 == 1, prefetch, zfill: imm >> 5 & 1 == 1, shared_offset: (imm >> 32) as u32 as i32 };
        (imm >> 6 & 0x3ff_ffff == 0 && (!copy.bypass || size == 16)).then_some(copy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_sizes_are_the_isa_tables() {
        // PTX ISA: m16n8k16 f16 → A 4, B 2, C 4 (f32) or 2 (f16);
        // m16n8k8 f16 → A 2, B 1; m16n8k4 tf32 → A 2, B 1; m8n8k4 f64 →
        // one f64 of A and B, two of C; m16n8k32 s8 → A 4, B 2;
        // m16n8k64 s4 → A 4, B 2; m8n8k128 b1 → A 1, B 1, C 2.
        let mma = |shape, a, acc, bitop| Mma { shape, a, b: a, acc, sat: false, bitop };
        assert_eq!(mma(MmaShape::M16N8K16, MmaElem::F16, MmaAcc::F32, None).registers(), (4, 2, 4));
        assert_eq!(mma(MmaShape::M16N8K16, MmaElem::F16, MmaAcc::F16, None).registers(), (4, 2, 2));
        assert_eq!(mma(MmaShape::M16N8K8, MmaElem::Bf16, MmaAcc::F32, None).registers(), (2, 1, 4));
        assert_eq!(mma(MmaShape::M16N8K4, MmaElem::Tf32, MmaAcc::F32, None).registers(), (2, 1, 4));
        assert_eq!(mma(MmaShape::M16N8K8, MmaElem::Tf32, MmaAcc::F32, None).registers(), (4, 2, 4));
        assert_eq!(mma(MmaShape::M8N8K4, MmaElem::F64, MmaAcc::F64, None).registers(), (2, 2, 4));
        assert_eq!(mma(MmaShape::M16N8K32, MmaElem::S8, MmaAcc::S32, None).registers(), (4, 2, 4));
        assert_eq!(mma(MmaShape::M16N8K64, MmaElem::S4, MmaAcc::S32, None).registers(), (4, 2, 4));
        assert_eq!(mma(MmaShape::M8N8K128, MmaElem::B1, MmaAcc::S32, Some(MmaBitOp::Xor)).registers(), (1, 1, 2));
        assert_eq!(mma(MmaShape::M16N8K256, MmaElem::B1, MmaAcc::S32, Some(MmaBitOp::And)).registers(), (4, 2, 4));
    }

    #[test]
    fn descriptors_round_trip_and_invalid_ones_do_not_decode() {
        let m = Mma { shape: MmaShape::M16N8K32, a: MmaElem::U8, b: MmaElem::S8, acc: MmaAcc::S32, sat: true, bitop: None };
        assert_eq!(Mma::decode(m.encode()), Some(m));
        // bf16 with f16 accumulators is not a PTX form.
        let bad = Mma { shape: MmaShape::M16N8K16, a: MmaElem::Bf16, b: MmaElem::Bf16, acc: MmaAcc::F16, sat: false, bitop: None };
        assert_eq!(Mma::decode(bad.encode()), None);
        assert_eq!(Mma::decode(u64::MAX), None);
        let mv = MatrixMove { count: 4, trans: true };
        assert_eq!(MatrixMove::decode(mv.encode()), Some(mv));
        assert_eq!(MatrixMove::decode(3), None);
        let cp = AsyncCopy { size: 16, bypass: true, prefetch: 256, zfill: true, shared_offset: -16 };
        assert_eq!(AsyncCopy::decode(cp.encode()), Some(cp));
        // `.cg` copies 16 bytes only.
        assert_eq!(AsyncCopy::decode(AsyncCopy { size: 8, ..cp }.encode()), None);
    }
}
