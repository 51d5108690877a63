//! Where a kernel finds, on each SM, what its launch gives it, as
//! legalization compiles against it: the S2R register behind each PTX
//! special register that has one, and the offsets in constant bank 0 at
//! which the driver puts the kernel parameter block, the launch dimensions
//! (`%ntid`, `%nctaid`) and the generic bases of the shared and local
//! windows (as ptxas 13.5 reads them).
//!
//! The other constant-bank-0 offsets, those selection reads (the
//! global-memory descriptor, the initial stack pointer), are in
//! [`crate::select::cbank_offsets`].

use crate::ir::SpecialReg;
use crate::target::Sm;

/// The machine special register `S2R` reads for each PTX one that has a
/// direct counterpart (names as nvdisasm prints them; the numbers come from
/// the instruction model's table, [`crate::isa::inst::special_register_number`]).
/// Registers not listed are read otherwise (constant bank, `CS2R`).
pub const SREG_NAMES: &[(SpecialReg, &str)] = &[
    (SpecialReg::TidX, "SR_TID.X"),
    (SpecialReg::TidY, "SR_TID.Y"),
    (SpecialReg::TidZ, "SR_TID.Z"),
    (SpecialReg::CtaidX, "SR_CTAID.X"),
    (SpecialReg::CtaidY, "SR_CTAID.Y"),
    (SpecialReg::CtaidZ, "SR_CTAID.Z"),
    (SpecialReg::LaneId, "SR_LANEID"),
    (SpecialReg::SmId, "SR_VIRTUALSMID"),
    (SpecialReg::LanemaskEq, "SR_EQMASK"),
    (SpecialReg::LanemaskLt, "SR_LTMASK"),
    (SpecialReg::LanemaskLe, "SR_LEMASK"),
    (SpecialReg::LanemaskGt, "SR_GTMASK"),
    (SpecialReg::LanemaskGe, "SR_GEMASK"),
    (SpecialReg::Clock, "SR_CLOCKLO"),
    (SpecialReg::Clock64, "SR_CLOCKLO"),
    (SpecialReg::GlobalTimer, "SR_GLOBALTIMERLO"),
    (SpecialReg::CgaCtaId, "SR_CgaCtaId"),
    // ptxas: mov.u32 %r, %cluster_ctarank -> S2R R9, SR_CgaCtaId (sm_90..120).
    (SpecialReg::ClusterCtaRank, "SR_CgaCtaId"),
    (SpecialReg::SharedWindowHi, "SR_SWINHI"),
    (SpecialReg::CgaSize, "SR_CgaSize"),
    // ptxas: %total_smem_size -> S2R R0, SR_SMEMSZ (sm_75; from sm_80 less
    // the driver's reserved bytes, [`RESERVED_SMEM_CBANK`]).
    (SpecialReg::TotalSmemSize, "SR_SMEMSZ"),
];

/// The S2R number of `reg` on `sm`, if it is read with S2R/CS2R.
pub fn sr_number(reg: SpecialReg, sm: Sm) -> Option<u8> {
    let name = SREG_NAMES.iter().find(|(r, _)| *r == reg)?.1;
    crate::isa::inst::special_register_number(name, sm)
}

/// The value of a table keyed by the first SM number each row holds for,
/// on `sm` (the first row's below it).
fn by_generation<T: Copy>(table: &[(u16, T)], sm: Sm) -> T {
    table.iter().rev().find(|(from, _)| sm.number >= *from).map_or(table[0].1, |(_, v)| *v)
}

/// Byte offset of the kernel parameter block in constant bank 0, from the
/// first SM number it holds for: ptxas 13.5 reads the first parameter of
/// `.entry k(.param .u64 p)` at `c[0x0][0x160]` on sm_75..sm_89,
/// `c[0x0][0x210]` on sm_90 and `c[0x0][0x380]` on sm_100 and later
/// (`ptxas -arch=sm_XX` then `cuobjdump -sass`).
pub const PARAM_BASE: &[(u16, u32)] = &[(75, 0x160), (90, 0x210), (100, 0x380)];

/// The parameter block's offset on `sm` (the sm_75 value below sm_75).
pub fn param_base(sm: Sm) -> u32 {
    by_generation(PARAM_BASE, sm)
}

/// Byte offsets in constant bank 0 of the launch dimensions, from the
/// first SM number they hold for: (SM, `%ntid.x`, `%nctaid.x`), `.y`/`.z`
/// following at +4/+8. ptxas 13.5 reads `%ntid.x` at c[0x0][0x0] and
/// `%nctaid.x` at c[0x0][0xc] on sm_75..sm_90, at c[0x0][0x360] and
/// c[0x0][0x370] on sm_100 and sm_120.
pub const LAUNCH_DIMS: &[(u16, u32, u32)] = &[(75, 0x0, 0xc), (100, 0x360, 0x370)];

/// Byte offsets in constant bank 0 of the launch's cluster word (1 when
/// the launch has explicit clusters) and of `%cluster_nctarank`, from the
/// first SM number they hold for: ptxas 13.5 reads c[0x0][0x140] and
/// c[0x0][0x188] on sm_90, the word at c[0x0][0x36c] on sm_100/120, where
/// `%cluster_nctarank` is in a table indexed by `SR_CgaSize` (no offset
/// here: no rule reads it yet).
pub const CLUSTER_WORDS: &[(u16, u32, Option<u32>)] = &[(90, 0x140, Some(0x188)), (100, 0x36c, None)];

/// From sm_100, ptxas 13.5 reads `%cluster_nctarank` from a table of
/// bank 0 that `SR_CgaSize` indexes: `CS2R.32 R5, SR_CgaSize` ;
/// `IMAD R5, R5, -0xa0, RZ` ; `LDC R5, c[0x0][R5+0x2cc]`: (stride, offset).
pub const CLUSTER_TABLE_NCTARANK: (i32, u32) = (-0xa0, 0x2cc);

/// The cluster's shape and the grid's shape in clusters in constant bank 0
/// (`.y`/`.z` at +4/+8): ptxas 13.5 reads `%cluster_nctaid.x` at
/// c[0x0][0x144] and `%nclusterid.x` at c[0x0][0x15c] on sm_90 (for
/// `%clusterid`: `LDC R0, c[0x0][0x144]`), and from sm_100 at 0x2a0 and
/// 0x2c0 of the table `SR_CgaSize` indexes (`CS2R.32 R0, SR_CgaSize ;
/// IMAD R0, R0, -0xa0, RZ ; LDC R0, c[0x0][R0+0x2a0]`, sm_120).
pub const CLUSTER_SHAPE_WORDS: &[(u16, u32, u32)] = &[(90, 0x144, 0x15c), (100, 0x2a0, 0x2c0)];

/// The offset of a cluster-shape register (`%cluster_nctaid`,
/// `%nclusterid`) on `sm` ([`CLUSTER_SHAPE_WORDS`]); from sm_100 an
/// offset into the table `SR_CgaSize` indexes.
pub fn cluster_shape_offset(reg: SpecialReg, sm: Sm) -> Option<u32> {
    let row = CLUSTER_SHAPE_WORDS.iter().rev().find(|r| sm.number >= r.0)?;
    let (base, k) = match reg {
        SpecialReg::ClusterNctaidX => (row.1, 0),
        SpecialReg::ClusterNctaidY => (row.1, 1),
        SpecialReg::ClusterNctaidZ => (row.1, 2),
        SpecialReg::NclusteridX => (row.2, 0),
        SpecialReg::NclusteridY => (row.2, 1),
        SpecialReg::NclusteridZ => (row.2, 2),
        _ => return None,
    };
    Some(base + 4 * k)
}

/// `%dynamic_smem_size` (the launch's dynamic shared bytes) in constant
/// bank 0, from the first SM number it holds for: ptxas 13.5 reads
/// c[0x0][0x2c] on sm_75..sm_90; from sm_100 it reads a table that
/// `SR_CgaSize` indexes without scaling (`CS2R.32 R5, SR_CgaSize` ; `LDC
/// R5, c[0x0][R5+0x2ac]`, sm_100 and sm_120).
pub const DYNAMIC_SMEM_SIZE: &[(u16, u32)] = &[(75, 0x2c), (100, 0x2ac)];

/// The offset of `%dynamic_smem_size` on `sm` ([`DYNAMIC_SMEM_SIZE`]).
pub fn dynamic_smem_size_offset(sm: Sm) -> u32 {
    by_generation(DYNAMIC_SMEM_SIZE, sm)
}

/// The word of bank 0 holding the shared bytes the driver reserves per
/// CTA, which `SR_SMEMSZ` counts and `%total_smem_size` does not, from the
/// first SM number it holds for: ptxas 13.5 reads `SR_SMEMSZ` alone on
/// sm_75, and subtracts c[0x0][0x114] on sm_80..sm_90 (`IADD3 R5, R5,
/// -c[0x0][0x114], RZ`) and c[0x0][0x16c] from sm_100.
pub const RESERVED_SMEM_CBANK: &[(u16, Option<u32>)] = &[(75, None), (80, Some(0x114)), (100, Some(0x16c))];

/// The reserved-shared word on `sm`, if `%total_smem_size` subtracts one.
pub fn reserved_smem_offset(sm: Sm) -> Option<u32> {
    by_generation(RESERVED_SMEM_CBANK, sm)
}

/// `%envreg0` (`%envreg<n>` at +4n) in constant bank 0, from the first SM
/// number it holds for: ptxas 13.5 reads `%envreg3` at c[0x0][0x94] on
/// sm_75..sm_89 (`MOV R0, c[0x0][0x88]` for `%envreg0`, 0x104 for
/// `%envreg31`), at c[0x0][0x4c] on sm_90, and from sm_100 `%envreg16`
/// to `%envreg31` at 0xd0 to 0x10c (below them, [`ENVREG_TABLE`]).
pub const ENVREG_WORDS: &[(u16, u32)] = &[(75, 0x88), (90, 0x40), (100, 0x90)];

/// From sm_100, `%envreg0` to `%envreg15` are in the bank-0 table that
/// `SR_CgaSize` indexes ([`CLUSTER_TABLE_NCTARANK`]'s stride): (first SM,
/// registers in the table, offset of `%envreg0`). ptxas 13.5: `CS2R.32
/// R5, SR_CgaSize` ; `IMAD R5, R5, -0xa0, RZ` ; `LDC R5, c[0x0][R5+0x254]`
/// for `%envreg1`, 0x28c for `%envreg15` (sm_100, sm_120).
pub const ENVREG_TABLE: (u16, u8, u32) = (100, 16, 0x250);

/// Where `%envreg<n>` is a fixed word of bank 0 on `sm`.
pub fn envreg_offset(n: u8, sm: Sm) -> Option<u32> {
    let in_table = sm.number >= ENVREG_TABLE.0 && n < ENVREG_TABLE.1;
    (n < 32 && !in_table).then(|| by_generation(ENVREG_WORDS, sm) + 4 * u32::from(n))
}

/// Where `%envreg<n>` is in the table `SR_CgaSize` indexes on `sm`.
pub fn envreg_table_offset(n: u8, sm: Sm) -> Option<u32> {
    (sm.number >= ENVREG_TABLE.0 && n < ENVREG_TABLE.1).then(|| ENVREG_TABLE.2 + 4 * u32::from(n))
}

/// The number `CS2R` reads performance counter `n` (0–7) by on `sm`:
/// ptxas 13.5 reads `%pm3` with `CS2R.32 R5, SR_PM3` and `%pm2_64` with
/// `CS2R R4, SR_PM2` (sm_75, sm_90, sm_100).
pub fn perf_counter_number(n: u8, sm: Sm) -> Option<u8> {
    const NAMES: [&str; 8] = ["SR_PM0", "SR_PM1", "SR_PM2", "SR_PM3", "SR_PM4", "SR_PM5", "SR_PM6", "SR_PM7"];
    crate::isa::inst::special_register_number(NAMES.get(usize::from(n))?, sm)
}

/// Where `%ntid`/`%nctaid` and the cluster words live in constant bank 0
/// on `sm`.
pub fn sreg_cbank_offset(reg: SpecialReg, sm: Sm) -> Option<u32> {
    if matches!(reg, SpecialReg::ClusterLaunch | SpecialReg::ClusterNctaRank) {
        let row = CLUSTER_WORDS.iter().rev().find(|r| sm.number >= r.0)?;
        return if reg == SpecialReg::ClusterLaunch { Some(row.1) } else { row.2 };
    }
    if let Some(offset) = cluster_shape_offset(reg, sm) {
        // From sm_100 an indexed read (a rule of its own).
        return (sm.number < 100).then_some(offset);
    }
    if reg == SpecialReg::DynamicSmemSize {
        // From sm_100 an indexed read (a rule of its own).
        return (sm.number < 100).then(|| dynamic_smem_size_offset(sm));
    }
    let row = LAUNCH_DIMS.iter().rev().find(|r| sm.number >= r.0).unwrap_or(&LAUNCH_DIMS[0]);
    let (base, slot) = match reg {
        SpecialReg::NtidX => (row.1, 0),
        SpecialReg::NtidY => (row.1, 1),
        SpecialReg::NtidZ => (row.1, 2),
        SpecialReg::NctaidX => (row.2, 0),
        SpecialReg::NctaidY => (row.2, 1),
        SpecialReg::NctaidZ => (row.2, 2),
        _ => return None,
    };
    Some(base + 4 * slot)
}

/// Byte offset in constant bank 0 of the 64-bit generic address of this
/// CTA's shared-memory window on sm_75..sm_89: ptxas 13.5 converts
/// `cvta.shared.u64` by adding c[0x0][0x18] (a pair) and
/// `cvta.to.shared.u64` by subtracting it.
pub const SHARED_WINDOW_CBANK: u32 = 0x18;

/// Byte offset in constant bank 0 of the 64-bit generic base of the local
/// window, from the first SM number it holds for: ptxas 13.5 converts
/// `cvta.local.u64` by adding c[0x0][0x20] on sm_75..sm_90 and
/// c[0x0][0x2f8] on sm_100/sm_120.
pub const LOCAL_WINDOW_CBANK: &[(u16, u32)] = &[(75, 0x20), (100, 0x2f8)];

/// The local window's offset in bank 0 on `sm`.
pub fn local_window(sm: Sm) -> u32 {
    by_generation(LOCAL_WINDOW_CBANK, sm)
}

/// Byte offset in constant bank 0 of the 64-bit generic base of the
/// module's constant bank 3 window, from the first SM number it holds for:
/// ptxas 13.5 tests `isspacep.const` as `base <= a < base + size` (size
/// the module's `.const` bytes) and converts `cvta.const` by adding the
/// base, reading c[0x0][0x50] on sm_75..sm_89, c[0x0][0xd0] on sm_90 and
/// c[0x0][0x120] on sm_100/sm_120.
pub const CONST_WINDOW_CBANK: &[(u16, u32)] = &[(75, 0x50), (90, 0xd0), (100, 0x120)];

/// The constant window's offset in bank 0 on `sm`.
pub fn const_window(sm: Sm) -> u32 {
    by_generation(CONST_WINDOW_CBANK, sm)
}

/// Where the generic window of the kernel parameter block is described
/// in constant bank 0 (ptxas 13.5 tests `isspacep.param` as `first <= a <=
/// last`, and converts `cvta.param` by adding the parameter's offset to
/// `first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamWindow {
    /// sm_75..sm_89: `first` is bank 0's own generic base plus the
    /// block's offset in the bank ([`param_base`]), `last` the same base
    /// plus a 32-bit offset.
    BankRelative {
        /// Where the 64-bit generic base of bank 0 is.
        bank: u32,
        /// Where the 32-bit offset of `last` in the bank is.
        last_offset: u32,
    },
    /// sm_90 on: both as 64-bit generic addresses.
    Bounds {
        /// Where `first` is.
        first: u32,
        /// Where `last` is.
        last: u32,
    },
}

/// The parameter window's words, from the first SM number they hold for
/// (ptxas 13.5: c[0x0][0x40] with c[0x0][0x114] on sm_75, c[0x0][0x12c]
/// on sm_80..sm_89; c[0x0][0x198]/c[0x0][0x1a0] on sm_90;
/// c[0x0][0x348]/c[0x0][0x350] on sm_100/sm_120).
pub const PARAM_WINDOW_CBANK: &[(u16, ParamWindow)] = &[
    (75, ParamWindow::BankRelative { bank: 0x40, last_offset: 0x114 }),
    (80, ParamWindow::BankRelative { bank: 0x40, last_offset: 0x12c }),
    (90, ParamWindow::Bounds { first: 0x198, last: 0x1a0 }),
    (100, ParamWindow::Bounds { first: 0x348, last: 0x350 }),
];

/// The parameter window's words on `sm`.
pub fn param_window(sm: Sm) -> ParamWindow {
    by_generation(PARAM_WINDOW_CBANK, sm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_base_by_generation() {
        assert_eq!(param_base(Sm::new(75)), 0x160);
        assert_eq!(param_base(Sm::new(89)), 0x160);
        assert_eq!(param_base(Sm::new(90)), 0x210);
        assert_eq!(param_base(Sm::new(100)), 0x380);
        assert_eq!(param_base(Sm::new(120)), 0x380);
    }

    /// The words ptxas 13.5 reads (`mov.u32 %r, %envreg<n>`, `-arch=sm_XX`
    /// then `cuobjdump -sass`).
    #[test]
    fn envreg_words_are_ptxas_s() {
        assert_eq!(envreg_offset(0, Sm::new(75)), Some(0x88));
        assert_eq!(envreg_offset(31, Sm::new(80)), Some(0x104));
        assert_eq!(envreg_offset(3, Sm::new(90)), Some(0x4c));
        assert_eq!(envreg_offset(31, Sm::new(90)), Some(0xbc));
        assert_eq!(envreg_offset(15, Sm::new(100)), None);
        assert_eq!(envreg_table_offset(15, Sm::new(100)), Some(0x28c));
        assert_eq!(envreg_table_offset(1, Sm::new(120)), Some(0x254));
        assert_eq!(envreg_offset(16, Sm::new(100)), Some(0xd0));
        assert_eq!(envreg_offset(31, Sm::new(120)), Some(0x10c));
        assert_eq!(envreg_table_offset(16, Sm::new(120)), None);
        assert_eq!(envreg_table_offset(3, Sm::new(90)), None);
        assert_eq!(envreg_offset(32, Sm::new(90)), None);
        assert_eq!(perf_counter_number(3, Sm::new(90)), Some(0x6a));
        assert_eq!(perf_counter_number(8, Sm::new(90)), None);
    }

    #[test]
    fn local_window_by_generation() {
        assert_eq!(local_window(Sm::new(75)), 0x20);
        assert_eq!(local_window(Sm::new(90)), 0x20);
        assert_eq!(local_window(Sm::new(100)), 0x2f8);
        assert_eq!(local_window(Sm::new(120)), 0x2f8);
    }

    #[test]
    fn generic_windows_by_generation() {
        assert_eq!(const_window(Sm::new(75)), 0x50);
        assert_eq!(const_window(Sm::new(89)), 0x50);
        assert_eq!(const_window(Sm::new(90)), 0xd0);
        assert_eq!(const_window(Sm::new(120)), 0x120);
        assert_eq!(param_window(Sm::new(75)), ParamWindow::BankRelative { bank: 0x40, last_offset: 0x114 });
        assert_eq!(param_window(Sm::new(86)), ParamWindow::BankRelative { bank: 0x40, last_offset: 0x12c });
        assert_eq!(param_window(Sm::new(90)), ParamWindow::Bounds { first: 0x198, last: 0x1a0 });
        assert_eq!(param_window(Sm::new(100)), ParamWindow::Bounds { first: 0x348, last: 0x350 });
    }

    #[test]
    fn machine_only_registers_have_numbers_where_they_exist() {
        assert!(sr_number(SpecialReg::CgaCtaId, Sm::new(90)).is_some());
        assert!(sr_number(SpecialReg::SharedWindowHi, Sm::new(80)).is_some());
    }

    #[test]
    fn launch_dimensions_by_generation() {
        assert_eq!(sreg_cbank_offset(SpecialReg::NtidX, Sm::new(80)), Some(0x0));
        assert_eq!(sreg_cbank_offset(SpecialReg::NctaidX, Sm::new(90)), Some(0xc));
        assert_eq!(sreg_cbank_offset(SpecialReg::NtidX, Sm::new(100)), Some(0x360));
        assert_eq!(sreg_cbank_offset(SpecialReg::NctaidX, Sm::new(120)), Some(0x370));
        assert_eq!(sreg_cbank_offset(SpecialReg::TidX, Sm::new(120)), None);
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterLaunch, Sm::new(90)), Some(0x140));
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterNctaRank, Sm::new(90)), Some(0x188));
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterLaunch, Sm::new(120)), Some(0x36c));
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterNctaRank, Sm::new(120)), None);
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterLaunch, Sm::new(80)), None);
        // The cluster's shape: fixed words on sm_90, the indexed table after.
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterNctaidY, Sm::new(90)), Some(0x148));
        assert_eq!(sreg_cbank_offset(SpecialReg::NclusteridZ, Sm::new(90)), Some(0x164));
        assert_eq!(sreg_cbank_offset(SpecialReg::ClusterNctaidX, Sm::new(100)), None);
        assert_eq!(cluster_shape_offset(SpecialReg::NclusteridX, Sm::new(120)), Some(0x2c0));
        assert_eq!(cluster_shape_offset(SpecialReg::ClusterNctaidX, Sm::new(80)), None);
    }
}
