//! Operands of machine instructions: registers of the four files (and
//! barrier registers), physical or virtual, with their source modifiers;
//! immediates; constant-bank references; special registers.
//!
//! Registers are [`RegNum::Phys`] after allocation and in decoded code, and
//! [`RegNum::Virt`] when instruction selection produces them; the zero
//! registers (RZ, URZ, PT, UPT) are [`RegNum::Zero`] in every family, so
//! the family's encoding of them (URZ is 63 up to sm_90 and 255 from
//! sm_100) stays in the encoder.

use std::fmt;

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// `R0`…`R254`, `RZ`.
    Gpr,
    /// `UR0`…, `URZ`.
    Uniform,
    /// `P0`…`P6`, `PT`.
    Pred,
    /// `UP0`…`UP6`, `UPT`.
    UniformPred,
    /// Convergence barriers `B0`…`B15`.
    Barrier,
}

/// Which register of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegNum {
    /// A hardware register.
    Phys(u8),
    /// The file's zero / true register (RZ, URZ, PT, UPT).
    Zero,
    /// A virtual register (before register allocation).
    Virt(VirtNum),
}

/// The number of a virtual register: a `u32` stored unaligned, so that a
/// [`Reg`] is 6 bytes with alignment 1 rather than 12 with alignment 4. An
/// operand holds up to three registers (a memory address's base, descriptor
/// and uniform offset) and an instruction eight operands, so this halves
/// the size of every instruction the compiler copies.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, packed)]
pub struct VirtNum(u32);

impl VirtNum {
    /// The number.
    #[inline]
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl From<u32> for VirtNum {
    #[inline]
    fn from(n: u32) -> VirtNum {
        VirtNum(n)
    }
}

impl fmt::Debug for VirtNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

impl fmt::Display for VirtNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
    }
}

impl RegNum {
    /// Virtual register `n`.
    #[inline]
    pub const fn virt(n: u32) -> RegNum {
        RegNum::Virt(VirtNum(n))
    }
}

/// A register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// File.
    pub file: RegFile,
    /// Number.
    pub num: RegNum,
}

impl Reg {
    /// `R<n>`.
    pub const fn gpr(n: u8) -> Reg {
        Reg { file: RegFile::Gpr, num: RegNum::Phys(n) }
    }
    /// The zero register of a file.
    pub const fn zero(file: RegFile) -> Reg {
        Reg { file, num: RegNum::Zero }
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, zero) = match self.file {
            RegFile::Gpr => ("R", "RZ"),
            RegFile::Uniform => ("UR", "URZ"),
            RegFile::Pred => ("P", "PT"),
            RegFile::UniformPred => ("UP", "UPT"),
            RegFile::Barrier => ("B", "B?"),
        };
        match self.num {
            RegNum::Phys(n) => write!(f, "{prefix}{n}"),
            RegNum::Zero => f.write_str(zero),
            RegNum::Virt(v) => write!(f, "%{prefix}{v}"),
        }
    }
}

/// Modifiers applied to a source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SrcMods {
    /// `-x`.
    pub neg: bool,
    /// `|x|`.
    pub abs: bool,
    /// `~x` (bitwise) or `!p` (predicate).
    pub not: bool,
}

/// One operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register, with source modifiers and its reuse-cache flag.
    Reg {
        /// The register.
        reg: Reg,
        /// Source modifiers.
        mods: SrcMods,
        /// Keep the value in the operand reuse cache (`.reuse`).
        reuse: bool,
    },
    /// A 32-bit immediate, as its bits (integer or `f32`).
    Imm(u32),
    /// `c[bank][offset]`, with source modifiers.
    CBank {
        /// Constant bank.
        bank: u8,
        /// Byte offset.
        offset: u16,
        /// Source modifiers.
        mods: SrcMods,
    },
    /// A constant-bank load address `c[bank][index+offset]` (LDC, LDCU).
    ConstAddr {
        /// Constant bank.
        bank: u8,
        /// Index register (the zero register for none).
        index: Reg,
        /// Byte offset (signed with an index register).
        offset: i32,
    },
    /// A special register (`SR_TID.X` is 0x21), by number.
    SpecialReg(u8),
    /// A small constant printed in hex (`LOP3`'s lookup table).
    Hex(u32),
    /// A 64-bit immediate (`MOV.64`).
    Imm64(u64),
    /// A branch target: byte offset from the next instruction.
    Target(i64),
    /// A memory address `[base+offset]`, with the uniform register holding
    /// the global-memory descriptor (`desc[UR4]`) where the instruction has one.
    Mem {
        /// Base register (`RZ` for an absolute address).
        base: Reg,
        /// Byte offset.
        offset: i32,
        /// Scale of the base register (shared memory: 0 none, 1 `.X4`, 2 `.X8`, 3 `.X16`).
        scale: u8,
        /// Memory descriptor register.
        desc: Option<Reg>,
        /// A uniform register added to the address (`[R8.64+UR6]`).
        uniform: Option<Reg>,
    },
}

impl Default for Operand {
    /// The immediate 0 (what an empty operand list is filled with).
    fn default() -> Operand {
        Operand::Imm(0)
    }
}

impl Operand {
    /// A register operand without modifiers.
    pub const fn reg(reg: Reg) -> Operand {
        Operand::Reg { reg, mods: SrcMods { neg: false, abs: false, not: false }, reuse: false }
    }
}

#[cfg(test)]
mod size_tests {
    use super::{Operand, Reg};

    /// Instructions are copied through every stage of the compiler, eight
    /// operands each: keep registers and operands small.
    #[test]
    fn registers_and_operands_stay_small() {
        assert_eq!(std::mem::size_of::<Reg>(), 6);
        assert_eq!(std::mem::size_of::<Option<Reg>>(), 6);
        assert!(std::mem::size_of::<Operand>() <= 24, "Operand is {} bytes", std::mem::size_of::<Operand>());
        assert!(std::mem::size_of::<crate::isa::inst::Inst>() <= 240, "Inst is {} bytes", std::mem::size_of::<crate::isa::inst::Inst>());
    }
}
