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
    #[inline]
    pub const fn gpr(n: u8) -> Reg {
        Reg { file: RegFile::Gpr, num: RegNum::Phys(n) }
    }
    /// The zero register of a file.
    #[inline]
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
    /// A memory address `[base+offset]` ([`Mem`]).
    Mem(Mem),
}

/// A memory address: a general base register (`RZ` for an absolute
/// address), a byte offset, a scale of the base and, where the instruction
/// has one, a uniform register that is either the global-memory descriptor
/// (`desc[UR4]`) or added to the address (`[R8.64+UR6]`); no encoding has
/// both. Kept in 15 bytes (the base's file implied, the uniform
/// register's role in its tag, the offset unaligned) so that an
/// [`Operand`] is 16 bytes: instructions carry eight operands and are
/// copied through every stage.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mem {
    base: RegNum,
    offset: [u8; 4],
    scale: u8,
    ur: Option<AddrUr>,
}

/// A memory address's uniform register and its role, in five bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum AddrUr {
    DescPhys(u8),
    DescZero,
    DescVirt(VirtNum),
    AddPhys(u8),
    AddZero,
    AddVirt(VirtNum),
}

impl AddrUr {
    #[inline]
    const fn new(desc: bool, num: RegNum) -> AddrUr {
        match (desc, num) {
            (true, RegNum::Phys(n)) => AddrUr::DescPhys(n),
            (true, RegNum::Zero) => AddrUr::DescZero,
            (true, RegNum::Virt(v)) => AddrUr::DescVirt(v),
            (false, RegNum::Phys(n)) => AddrUr::AddPhys(n),
            (false, RegNum::Zero) => AddrUr::AddZero,
            (false, RegNum::Virt(v)) => AddrUr::AddVirt(v),
        }
    }

    /// Whether it is the descriptor, and its number.
    #[inline]
    const fn parts(self) -> (bool, RegNum) {
        match self {
            AddrUr::DescPhys(n) => (true, RegNum::Phys(n)),
            AddrUr::DescZero => (true, RegNum::Zero),
            AddrUr::DescVirt(v) => (true, RegNum::Virt(v)),
            AddrUr::AddPhys(n) => (false, RegNum::Phys(n)),
            AddrUr::AddZero => (false, RegNum::Zero),
            AddrUr::AddVirt(v) => (false, RegNum::Virt(v)),
        }
    }
}

impl Mem {
    /// `[base+offset]` with general register `base`, no scale, no uniform register.
    #[inline]
    pub const fn new(base: RegNum, offset: i32) -> Mem {
        Mem { base, offset: offset.to_le_bytes(), scale: 0, ur: None }
    }

    /// With the base scaled (shared memory: 0 none, 1 `.X4`, 2 `.X8`, 3 `.X16`).
    #[inline]
    pub const fn with_scale(self, scale: u8) -> Mem {
        Mem { scale, ..self }
    }

    /// With uniform register `num` as the memory descriptor (replacing an
    /// added uniform register).
    #[inline]
    pub const fn with_desc(self, num: RegNum) -> Mem {
        Mem { ur: Some(AddrUr::new(true, num)), ..self }
    }

    /// With uniform register `num` added to the address (replacing a
    /// descriptor).
    #[inline]
    pub const fn with_uniform(self, num: RegNum) -> Mem {
        Mem { ur: Some(AddrUr::new(false, num)), ..self }
    }

    /// The address from its parts, if they make one: a general base
    /// register, uniform descriptor and added registers, not both.
    #[inline]
    pub fn from_parts(base: Reg, offset: i32, scale: u8, desc: Option<Reg>, uniform: Option<Reg>) -> Option<Mem> {
        let uniform_reg = |r: Reg| (r.file == RegFile::Uniform).then_some(r.num);
        let mem = Mem::new((base.file == RegFile::Gpr).then_some(base.num)?, offset).with_scale(scale);
        Some(match (desc, uniform) {
            (None, None) => mem,
            (Some(d), None) => mem.with_desc(uniform_reg(d)?),
            (None, Some(u)) => mem.with_uniform(uniform_reg(u)?),
            (Some(_), Some(_)) => return None,
        })
    }

    /// The base register.
    #[inline]
    pub const fn base(self) -> Reg {
        Reg { file: RegFile::Gpr, num: self.base }
    }

    /// The byte offset.
    #[inline]
    pub const fn offset(self) -> i32 {
        i32::from_le_bytes(self.offset)
    }

    /// The scale of the base.
    #[inline]
    pub const fn scale(self) -> u8 {
        self.scale
    }

    /// The memory descriptor register.
    #[inline]
    pub const fn desc(self) -> Option<Reg> {
        self.uniform_in_role(true)
    }

    /// The uniform register added to the address.
    #[inline]
    pub const fn uniform(self) -> Option<Reg> {
        self.uniform_in_role(false)
    }

    /// The uniform register if it is the descriptor (`desc`) or the added
    /// register (not `desc`).
    #[inline]
    const fn uniform_in_role(self, desc: bool) -> Option<Reg> {
        match self.ur {
            Some(ur) => match ur.parts() {
                (role, num) if role == desc => Some(Reg { file: RegFile::Uniform, num }),
                _ => None,
            },
            None => None,
        }
    }

    /// Its registers: the base, then the uniform register if any.
    #[inline]
    pub fn regs(self) -> impl Iterator<Item = Reg> {
        std::iter::once(self.base()).chain(self.desc().or(self.uniform()))
    }

    /// The address with each register replaced by `f`'s number for it
    /// (the register files stay).
    pub fn map_regs<E>(self, mut f: impl FnMut(Reg) -> Result<RegNum, E>) -> Result<Mem, E> {
        let base = f(self.base())?;
        let ur = match self.ur {
            Some(ur) => {
                let (desc, num) = ur.parts();
                Some(AddrUr::new(desc, f(Reg { file: RegFile::Uniform, num })?))
            }
            None => None,
        };
        Ok(Mem { base, ur, ..self })
    }
}

impl fmt::Debug for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mem")
            .field("base", &self.base())
            .field("offset", &self.offset())
            .field("scale", &self.scale)
            .field("desc", &self.desc())
            .field("uniform", &self.uniform())
            .finish()
    }
}

impl Default for Operand {
    /// Special register 0 (what an empty operand list is filled with): the
    /// variant with the least to write, a tag and one byte, since every
    /// decoded instruction starts from an empty list.
    fn default() -> Operand {
        Operand::SpecialReg(0)
    }
}

impl Operand {
    /// A register operand without modifiers.
    #[inline]
    pub const fn reg(reg: Reg) -> Operand {
        Operand::Reg { reg, mods: SrcMods { neg: false, abs: false, not: false }, reuse: false }
    }
}

#[cfg(test)]
mod size_tests {
    use super::{Mem, Operand, Reg, RegFile, RegNum};

    /// An address keeps what it was built with, the uniform register's
    /// role included, and refuses parts it cannot hold.
    #[test]
    fn addresses_keep_their_parts() {
        let ur = |n: u32| Reg { file: RegFile::Uniform, num: RegNum::virt(n) };
        let base = Reg { file: RegFile::Gpr, num: RegNum::virt(70_000) };
        let m = Mem::from_parts(base, -0x7fff_fff0, 3, Some(ur(1 << 20)), None).unwrap();
        assert_eq!((m.base(), m.offset(), m.scale(), m.desc(), m.uniform()), (base, -0x7fff_fff0, 3, Some(ur(1 << 20)), None));
        let m = Mem::from_parts(Reg::zero(RegFile::Gpr), 16, 0, None, Some(Reg::zero(RegFile::Uniform))).unwrap();
        assert_eq!((m.desc(), m.uniform()), (None, Some(Reg::zero(RegFile::Uniform))));
        assert_eq!(m.regs().count(), 2);
        assert!(Mem::from_parts(base, 0, 0, Some(ur(1)), Some(ur(2))).is_none(), "descriptor and added register");
        assert!(Mem::from_parts(ur(1), 0, 0, None, None).is_none(), "a uniform base");
        assert!(Mem::from_parts(base, 0, 0, Some(Reg::gpr(4)), None).is_none(), "a general descriptor");
        let mapped = m.map_regs(|r| Ok::<_, ()>(if r.file == RegFile::Uniform { RegNum::Phys(6) } else { RegNum::Phys(2) })).unwrap();
        assert_eq!((mapped.base(), mapped.uniform()), (Reg::gpr(2), Some(Reg { file: RegFile::Uniform, num: RegNum::Phys(6) })));
    }

    /// Instructions are copied through every stage of the compiler, eight
    /// operands each: keep registers and operands small.
    #[test]
    fn registers_and_operands_stay_small() {
        assert_eq!(std::mem::size_of::<Reg>(), 6);
        assert_eq!(std::mem::size_of::<Option<Reg>>(), 6);
        assert_eq!(std::mem::size_of::<super::Mem>(), 15);
        assert_eq!(std::mem::size_of::<Operand>(), 16);
    }
}
