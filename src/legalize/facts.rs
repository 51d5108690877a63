//! Target facts legalization needs, as tables.

use crate::target::Sm;

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
