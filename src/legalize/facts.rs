//! Target facts legalization needs, as tables.

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
];

/// The S2R number of `reg` on `sm`, if it is read with S2R/CS2R.
pub fn sr_number(reg: SpecialReg, sm: Sm) -> Option<u8> {
    let name = SREG_NAMES.iter().find(|(r, _)| *r == reg)?.1;
    crate::isa::inst::special_register_number(name, sm)
}

/// Byte offset of the kernel parameter block in constant bank 0, from the
/// first SM number it holds for: ptxas 13.5 reads the first parameter of
/// `.entry k(.param .u64 p)` at `c[0x0][0x160]` on sm_75..sm_89,
/// `c[0x0][0x210]` on sm_90 and `c[0x0][0x380]` on sm_100 and later
/// (`ptxas -arch=sm_XX` then `cuobjdump -sass`).
pub const PARAM_BASE: &[(u16, u32)] = &[(75, 0x160), (90, 0x210), (100, 0x380)];

/// The parameter block's offset on `sm` (the sm_75 value below sm_75).
pub fn param_base(sm: Sm) -> u32 {
    PARAM_BASE.iter().rev().find(|(from, _)| sm.number >= *from).map_or(PARAM_BASE[0].1, |(_, base)| *base)
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
}
