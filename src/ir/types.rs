//! Value types of the Ori IR: which register file a value lives in and how
//! many consecutive registers it takes.
//!
//! The machine has four files (DESIGN.md, "The Ori IR"): R (per-thread
//! 32-bit registers), UR (per-warp uniform 32-bit registers), P (per-thread
//! predicates) and UP (per-warp uniform predicates). A 64-bit value is an
//! aligned register pair and a 128-bit value an aligned quad; predicates are
//! single bits. Types print as `r32 r64 r128 ur32 ur64 ur128 p up`.

use std::fmt;

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// Per-thread general registers.
    R,
    /// Per-warp uniform registers.
    Ur,
    /// Per-thread predicates.
    P,
    /// Per-warp uniform predicates.
    Up,
}

impl RegFile {
    /// Whether the file holds predicates (one bit per register).
    pub fn is_predicate(self) -> bool {
        matches!(self, RegFile::P | RegFile::Up)
    }
    /// Whether the file is per-warp.
    pub fn is_uniform(self) -> bool {
        matches!(self, RegFile::Ur | RegFile::Up)
    }
}

/// A value's type: its file and its size in registers (1, 2 or 4; always 1
/// for predicates).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type {
    file: RegFile,
    regs: u8,
}

impl Type {
    /// `r32`.
    pub const R32: Type = Type { file: RegFile::R, regs: 1 };
    /// `r64`: an aligned R pair.
    pub const R64: Type = Type { file: RegFile::R, regs: 2 };
    /// `r128`: an aligned R quad.
    pub const R128: Type = Type { file: RegFile::R, regs: 4 };
    /// `ur32`.
    pub const UR32: Type = Type { file: RegFile::Ur, regs: 1 };
    /// `ur64`.
    pub const UR64: Type = Type { file: RegFile::Ur, regs: 2 };
    /// `ur128`.
    pub const UR128: Type = Type { file: RegFile::Ur, regs: 4 };
    /// `p`.
    pub const P: Type = Type { file: RegFile::P, regs: 1 };
    /// `up`.
    pub const UP: Type = Type { file: RegFile::Up, regs: 1 };

    const ALL: [(Type, &'static str); 8] = [
        (Type::R32, "r32"),
        (Type::R64, "r64"),
        (Type::R128, "r128"),
        (Type::UR32, "ur32"),
        (Type::UR64, "ur64"),
        (Type::UR128, "ur128"),
        (Type::P, "p"),
        (Type::UP, "up"),
    ];

    /// The type of `regs` registers of `file`; `None` for sizes the file
    /// does not have (predicates are single, data values 1, 2 or 4).
    pub fn new(file: RegFile, regs: u8) -> Option<Type> {
        let ok = if file.is_predicate() { regs == 1 } else { matches!(regs, 1 | 2 | 4) };
        ok.then_some(Type { file, regs })
    }
    /// The register file.
    pub fn file(self) -> RegFile {
        self.file
    }
    /// Registers taken (also the alignment of the first one).
    pub fn regs(self) -> u8 {
        self.regs
    }
    /// Width in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        if self.file.is_predicate() { 1 } else { 32 * u32::from(self.regs) }
    }
    /// The text form.
    pub fn name(self) -> &'static str {
        Type::ALL.iter().find(|(t, _)| *t == self).map_or("?", |(_, n)| n)
    }
    /// Parses the text form.
    pub fn parse(text: &str) -> Option<Type> {
        Type::ALL.iter().find(|(_, n)| *n == text).map(|(t, _)| *t)
    }
    /// The same size in the other file of the pair R/UR or P/UP (`r64` ↔ `ur64`).
    pub fn with_uniformity(self, uniform: bool) -> Type {
        let file = match (self.file, uniform) {
            (RegFile::R | RegFile::Ur, false) => RegFile::R,
            (RegFile::R | RegFile::Ur, true) => RegFile::Ur,
            (RegFile::P | RegFile::Up, false) => RegFile::P,
            (RegFile::P | RegFile::Up, true) => RegFile::Up,
        };
        Type { file, regs: self.regs }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sizes_follow_the_file() {
        for (t, n) in Type::ALL {
            assert_eq!(Type::parse(n), Some(t));
            assert_eq!(t.to_string(), n);
        }
        assert_eq!(Type::new(RegFile::P, 2), None);
        assert_eq!(Type::new(RegFile::R, 3), None);
        assert_eq!(Type::new(RegFile::Ur, 2), Some(Type::UR64));
        assert_eq!((Type::R128.bits(), Type::P.bits(), Type::UR64.regs()), (128, 1, 2));
        assert_eq!(Type::R64.with_uniformity(true), Type::UR64);
        assert_eq!(Type::UP.with_uniformity(false), Type::P);
        assert_eq!(Type::parse("r16"), None);
    }
}
