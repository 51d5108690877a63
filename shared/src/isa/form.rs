//! The declarative description of an instruction encoding: one [`Form`] per
//! (mnemonic, operand form, SM range) says where every operand and modifier
//! lives in the word and how `nvdisasm` spells it. Decoding, encoding and
//! printing (the compiler's `isa::inst`) are derived from it, so the three cannot
//! drift apart.
//!
//! A form explains every bit of the words it matches: the opcode (bits
//! 0–11), the guard (12–15), its fixed fields, modifier fields and operand
//! fields, and the control bits (105–125). A word with any other bit set is
//! not that form, so an unknown variant is reported as undecodable instead
//! of being printed wrongly.

use super::bits::Field;

/// A single bit position, when a slot has that flag.
pub type Bit = Option<u8>;

/// A modifier field: the printed spelling (with its dot, or empty for the
/// default) of each value; values past the list, and values whose spelling
/// is [`UNMEASURED`], do not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModField {
    /// Where.
    pub field: Field,
    /// Spelling per value.
    pub names: &'static [&'static str],
    /// A further bit, elsewhere in the word, that is the value's next bit
    /// (FFMA's `.FTZ` 80 and `.FMZ` 76 are one field: both set is `.INVALID3`).
    pub extra: Option<u8>,
}

impl ModField {
    /// The field's value in a word.
    #[inline]
    pub fn get(&self, word: u128) -> u64 {
        let high = self.extra.map_or(0, |b| ((word >> b) & 1) as u64);
        self.field.get(word) | high << self.field.width
    }

    /// `word` with the field set to `value`, if it fits.
    #[inline]
    pub fn set(&self, word: u128, value: u64) -> Option<u128> {
        let low = value & self.field.max();
        let w = self.field.set(word, low)?;
        match self.extra {
            Some(b) => {
                let high = value >> self.field.width;
                (high <= 1).then(|| (w & !(1u128 << b)) | (u128::from(high) << b))
            }
            None => (value == low).then_some(w),
        }
    }
}

/// The spelling of a modifier value not measured yet (such words do not decode).
pub const UNMEASURED: &str = "?";

/// When a predicate operand is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredShow {
    /// Always (`ISETP.NE.AND P0, PT, …`).
    Always,
    /// Only when it is not `PT` (optional leading carry-out predicates).
    UnlessTrue,
}

/// How an operand is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A general register (255 = RZ) with optional negate / abs / not bits and
    /// reuse flag (index into the control reuse mask).
    Gpr {
        /// Register number.
        field: Field,
        /// `-x` bit.
        neg: Bit,
        /// `|x|` bit.
        abs: Bit,
        /// `~x` bit.
        not: Bit,
        /// Reuse-mask bit (0 = operand a, 1 = b, 2 = c).
        reuse: Option<u8>,
    },
    /// A uniform register; the all-ones value is URZ (63 in the 6-bit
    /// fields of sm_75–sm_90, 255 in the 8-bit fields of sm_100+).
    Ur {
        /// Register number.
        field: Field,
        /// `-x` bit.
        neg: Bit,
        /// `|x|` bit (the uniform float instructions of sm_120).
        abs: Bit,
        /// `~x` bit.
        not: Bit,
    },
    /// A uniform register as the b (form 6) or c (form 7) operand: a field
    /// at bit 32 (all ones = URZ) and bit 91 set.
    UniformB {
        /// Register number (32–37, or 32–39 from sm_100).
        field: Field,
        /// `-x` bit.
        neg: Bit,
        /// `|x|` bit (the float instructions' b or c).
        abs: Bit,
        /// `~x` bit.
        not: Bit,
    },
    /// A convergence barrier register `B0`…`B15`.
    Barrier(Field),
    /// A predicate (7 = PT, or UPT) with an optional `!` bit.
    Pred {
        /// A uniform predicate (`UP0`…`UP6`, `UPT`) instead of `P0`…`PT`.
        uniform: bool,
        /// Register number.
        field: Field,
        /// `!p` bit.
        not: Bit,
        /// Whether it prints when true.
        show: PredShow,
    },
    /// A 32-bit immediate in bits 32–63, printed in hex, as a signed number
    /// when `signed` (`-0x18`).
    Imm32 {
        /// Print negative values with a minus sign.
        signed: bool,
    },
    /// `c[bank][offset]`: bank in bits 54–58, byte offset in 38–53.
    CBank {
        /// `-c[..]` bit.
        neg: Bit,
        /// `|c[..]|` bit.
        abs: Bit,
        /// `~c[..]` bit.
        not: Bit,
    },
    /// The bank (54–58), index register (24–31) and byte offset of LDC and
    /// LDCU: `c[0x3][R16+0x4]` (offset signed), `c[0x3][0x10]` with the zero
    /// register (offset unsigned), `c[0x3][RZ]` (LDCU: `URZ`) when both are
    /// zero. The offset field is LDCU's (37–53) or LDC's (38–53).
    LoadBank {
        /// Byte offset field.
        offset: Field,
        /// Index register field.
        index: Field,
        /// The index is a uniform register (LDCU).
        uniform: bool,
    },
    /// A constant printed in hex (LOP3's lookup table).
    Hex(Field),
    /// A texture fetch's component write mask, printed in hex after the
    /// other operands when not all ones; a twin form without it fixes the
    /// field to all ones and decodes those words (`TEX … 2D, 0x3`).
    Mask(Field),
    /// A 64-bit immediate, printed in hex (`MOV.64 R10, 0xfff8000000000000`:
    /// bits 24–87 on sm_120).
    Imm64(Field),
    /// A signed immediate as wide as its field, printed `-0x…` when
    /// negative (SEL.64's 33 bits 32–64 on sm_120: `-0xfffffffb`).
    SImm(Field),
    /// A constant printed in hex, its low bits in one field and its high
    /// bits in another (PLOP3's lookup table: 64–66 and 72–76).
    HexSplit(Field, Field),
    /// A [`Slot::Mask`] whose low bits are in one field and high bits in
    /// another: which 32-bit components of LDG.E.ENL2.256 and
    /// STG.E.ENL2.256 move (57–63 and 72; 59–63 and 88–90), printed after
    /// the other operands when not all ones (a twin form fixes both
    /// fields to all ones).
    MaskSplit(Field, Field),
    /// A 32-bit floating-point immediate in bits 32–63 (printed as C's
    /// `%.20g`), or with `f64` the high half of a double (low half zero).
    Float {
        /// The bits are the high half of an `f64`.
        f64: bool,
        /// A value that does not decode here: nvdisasm prints it as it
        /// prints an earlier form's fixed value, which is what the text
        /// reads back as (FSEL's `-QNAN `: 0xffc00000 here, 0xfff00000 in
        /// the form of that fixed value, which ptxas emits).
        shadowed: Option<u32>,
    },
    /// Two `f16` immediates in bits 32–63, printed high half first
    /// (`HFMA2 R0, -RZ, RZ, 15, 0`).
    Half2,
    /// One `f16` immediate in bits 32–47, printed as [`Slot::Half2`]'s
    /// halves (`F2I.F16.FLOOR.NTZ R12, 14.484375`); nvdisasm ignores bits
    /// 48–63, which are clear in the words that decode.
    Half,
    /// A relative branch target.
    Target(super::branch::Layout),
    /// An absolute code address (`RET.ABS.NODEC R20 0x0`, `CALL.ABS.NOINC
    /// 0x0`), in the same fields as a relative target, printed as it is.
    AbsTarget(super::branch::Layout),
    /// A branch offset printed as it is, relative to the next instruction
    /// and signed (`BRX R4 -0x1a0`), in the fields of a relative target.
    RelOffset(super::branch::Layout),
    /// A memory address: base register, signed offset, optional scale of the
    /// base (`[R9.X8]`) and memory-descriptor uniform register (`desc[UR4]`,
    /// printed from sm_90 on).
    Addr {
        /// Base register field; none where the address has no register
        /// part (`[UR8]` of the uniform datapath's SYNCS.EXCH and UBLKCP:
        /// the base is then RZ).
        base: Option<Field>,
        /// The base is a 64-bit pair (`[R2.64]`).
        wide: bool,
        /// Signed offset field; none where the address takes no offset
        /// (UBLKCP's: the offset is then zero).
        offset: Option<Field>,
        /// The offset field counts units of `1 << offset_shift` bytes (0:
        /// bytes; LDG.E.ENL2.256 and STG.E.ENL2.256 count 32-byte units,
        /// 5). The operand holds the byte offset, a multiple of the unit.
        offset_shift: u8,
        /// Scale field of the base register.
        scale: Option<Field>,
        /// Descriptor register field.
        desc: Option<Field>,
        /// Whether `nvdisasm` prints the descriptor (sm_80–sm_89 words carry
        /// one it does not print: see the compiler's `isa::parse` for how text reads back).
        show_desc: bool,
        /// A uniform register added to the address (`[R8.64+UR6]`, `[UR4+0x2]`
        /// on sm_75; a zero base register is then not printed).
        uniform: Option<Field>,
        /// Whether the base may be the zero register (nvdisasm refuses
        /// sm_80–sm_89 ATOMG with `[RZ.64]`).
        zero_base: bool,
        /// The base is a 32-bit register added to the 64-bit uniform one,
        /// printed `.U32` (`[R0.U32+UR4]`: sm_75's global accesses with
        /// bit 90 clear).
        u32_base: bool,
    },
    /// A special register number (printed by name).
    SpecialReg(Field),
    /// An operand with no bits, always printed the same (`PR`, the
    /// predicate register of P2R; FSEL's `-QNAN ` whose payload a fixed
    /// field holds). Decoded as `Operand::Hex(0)`.
    Text(&'static str),
    /// The uniform register after the one of the address in the slot of
    /// this index, printed as an address of its own (`UGETNEXTWORKID
    /// [UR8], [UR9]`: one 8-bit field names the pair). No bits; decoded
    /// as `Operand::Hex(0)`.
    NextUr(u8),
    /// The register of the slot of this index printed again (BAR.SYNC's
    /// `R11, R11`: one register holds the barrier and the thread count).
    /// No bits; decoded as `Operand::Hex(0)`.
    Again(u8),
}

/// Bank and offset fields of a constant-bank operand.
pub const CBANK_BANK: Field = Field::bits(54, 58);
/// Byte offset field of a constant-bank operand.
pub const CBANK_OFFSET: Field = Field::bits(38, 53);
/// Bit 91: the b operand is a uniform register.
pub const UNIFORM_B_FLAG: u8 = 91;
/// Bits 32–63: 32-bit immediate.
pub const IMM32: Field = Field::bits(32, 63);

/// A condition on operand values under which `nvdisasm` prints another
/// name for the same encoding (`IMAD` with `a = b = RZ` is `IMAD.MOV`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasWhen {
    /// The operands in these slots are all the zero register, unmodified.
    Zero(&'static [usize]),
    /// The operand in one of these slots is the zero register, unmodified.
    AnyZero(&'static [usize]),
    /// The operand in this slot is the immediate 1.
    ImmOne(usize),
    /// The operand in the first slot is an immediate power of two other than
    /// 2^16 (which nvdisasm leaves as `IMAD.U32`) and the one in the second
    /// slot is the zero register.
    ImmPow2Zero(usize, usize),
}

/// An alternative printed name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    /// Replaces [`Form::name`] when `when` holds.
    pub name: &'static str,
    /// Condition.
    pub when: AliasWhen,
}

/// Text that `nvdisasm` prints after an operand (after its `.reuse`):
/// the half-lane swizzles of packed-half sources (`R0.H0_H0`, `R5.F32`),
/// matrix layouts (`R4.ROW`), register signs (`R0.SIGN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandSuffix {
    /// The spelling of a modifier, which stays in [`Form::mods`] (decoded
    /// and encoded as any other; only where it prints differs).
    Mod {
        /// Index into [`Form::mods`].
        modifier: u8,
        /// Index into [`Form::slots`].
        slot: u8,
    },
    /// The spelling of a modifier printed inside the operand's `|x|` bars
    /// when it has them (`|R0.H1|`, where [`OperandSuffix::Mod`] prints
    /// `|R0|.H1`): the F16 high-half sources of F2I, F2F and FRND.
    ModInBars {
        /// Index into [`Form::mods`].
        modifier: u8,
        /// Index into [`Form::slots`].
        slot: u8,
    },
    /// A text that is always there (no bits: the form fixes them).
    Text {
        /// The text, with its dot.
        text: &'static str,
        /// Index into [`Form::slots`].
        slot: u8,
    },
}

impl OperandSuffix {
    /// The slot it follows.
    #[inline]
    pub fn slot(self) -> usize {
        match self {
            OperandSuffix::Mod { slot, .. } | OperandSuffix::ModInBars { slot, .. } | OperandSuffix::Text { slot, .. } => usize::from(slot),
        }
    }

    /// The modifier it prints, if it prints one.
    #[inline]
    pub fn modifier(self) -> Option<usize> {
        match self {
            OperandSuffix::Mod { modifier, .. } | OperandSuffix::ModInBars { modifier, .. } => Some(usize::from(modifier)),
            OperandSuffix::Text { .. } => None,
        }
    }
}

/// A form's mnemonic (what `nvdisasm` prints before the operands) as
/// modifier tokens, the text between its dots: derived by the build script
/// from [`Form::name`], the modifier spellings and [`Form::suffix`], so
/// that the compiler builds and reads instructions by typed values
/// (`Mod`: the compiler's modifier-token enum, which the build script
/// generates; the table's definition leaves the tokens empty) rather than by text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelling<Mod: 'static> {
    /// The tokens of the name after the opcode (`X` of `IADD3.X`).
    pub name: &'static [Mod],
    /// Per modifier field, per value: the tokens of its spelling.
    pub mods: &'static [&'static [&'static [Mod]]],
    /// The tokens of the suffix.
    pub suffix: &'static [Mod],
    /// Per operand suffix ([`Form::operand_suffixes`]), the tokens of its
    /// text (none for a modifier's, whose tokens are in `mods`).
    pub operand_texts: &'static [&'static [Mod]],
}

impl<Mod: 'static> Spelling<Mod> {
    /// What the table's definition gives a form; the build script fills it in.
    pub const EMPTY: Spelling<Mod> = Spelling { name: &[], mods: &[], suffix: &[], operand_texts: &[] };
}

/// The register widths of a form's operands (in 32-bit registers): of a
/// general or uniform result, then of the general or uniform sources at
/// positions 0–3 (positions count every source operand but predicates).
/// Worked out by the build script per form from what the form's row in
/// the table declares (`ptx2sass-meta`'s `isa/widths.rs`): one entry, or
/// one per value of the modifier that decides them (`LDG`'s size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widths {
    /// The modifier whose value indexes `table`, if they vary.
    pub by: Option<u8>,
    /// `[result, source 0, source 1, source 2, source 3]`, per value of
    /// `by` (one entry when `by` is `None`).
    pub table: &'static [[u8; 5]],
}

impl Widths {
    /// Every operand one register wide (what the table's definition gives a
    /// form; the build script fills the real widths in).
    pub const ONE: Widths = Widths { by: None, table: &[[1; 5]] };

    /// The widths for the form's modifier values `mods`.
    #[inline]
    pub fn get(&self, mods: &[u8]) -> [u8; 5] {
        let k = self.by.map_or(0, |m| mods.get(usize::from(m)).copied().map_or(0, usize::from));
        self.table.get(k).or(self.table.first()).copied().unwrap_or([1; 5])
    }
}

/// One encoding, of opcode type `Op` and modifier-token type `Mod` (the
/// compiler's generated enums; plain numbers in the table's definition,
/// before the build script has derived them) and operand widths `W` (the
/// compiler's [`Widths`] tables; in the table's definition what the row
/// declares, which the build script evaluates into those tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form<Op, Mod: 'static, W = Widths> {
    /// What `nvdisasm` prints before the variable modifiers (`IADD3.X`).
    pub name: &'static str,
    /// The opcode (the name up to its first dot), with its facts; set by
    /// the build script from the name.
    pub op: Op,
    /// The mnemonic's tokens; set by the build script from the spellings.
    pub spelling: Spelling<Mod>,
    /// The slots the instruction writes (bit `k`: slot `k`); the others
    /// are read. Set by the build script from the layout every form of the
    /// table follows ([`Form::result_slot`]).
    pub defs: u8,
    /// The register widths of the operands: declared by the row, written
    /// as a table by the build script.
    pub widths: W,
    /// Measured SMs it applies to (inclusive range of SM numbers).
    pub sms: (u16, u16),
    /// Bits 0–11.
    pub opcode: u16,
    /// Other fields with a fixed value.
    pub fixed: &'static [(Field, u64)],
    /// Variable modifiers, in printed order.
    pub mods: &'static [ModField],
    /// Printed after the modifiers (`.X` of `IMAD.U32.X`).
    pub suffix: &'static str,
    /// Other names, the first whose condition holds replacing `name`.
    pub aliases: &'static [Alias],
    /// The last operand follows the one before it after a space, not `", "`
    /// (`RET.REL.NODEC R2 0x880`).
    pub space_before_last: bool,
    /// The guard is a uniform predicate (`@UP0`), as on uniform-datapath
    /// instructions (ULDC, UMOV, S2UR, ...).
    pub uniform_guard: bool,
    /// Operands, in printed order.
    pub slots: &'static [Slot],
    /// Slots whose register may not be the zero register (nvdisasm prints
    /// `???255` for it: sm_75 ATOMG.E.CAS's compare value), or whose hex
    /// value may not be zero (BAR.SYNC's thread count: nvdisasm prints it
    /// only when not zero, which another form decodes).
    pub nonzero: &'static [usize],
    /// What prints after operands (modifiers printed there rather than
    /// after the name, and fixed texts).
    pub operand_suffixes: &'static [OperandSuffix],
}

impl Slot {
    /// Every bit the slot's encoding occupies.
    pub fn mask(&self) -> u128 {
        let field = |f: Field| (f.max() as u128) << f.start;
        let bit = |b: Bit| b.map_or(0, |b| 1u128 << b);
        match *self {
            Slot::Gpr { field: f, neg, abs, not, .. } => field(f) | bit(neg) | bit(abs) | bit(not),
            Slot::Ur { field: f, neg, abs, not } => field(f) | bit(neg) | bit(abs) | bit(not),
            Slot::UniformB { field: f, neg, abs, not } => field(f) | 1u128 << UNIFORM_B_FLAG | bit(neg) | bit(abs) | bit(not),
            Slot::Barrier(f) => field(f),
            Slot::Pred { field: f, not, .. } => field(f) | bit(not),
            Slot::Imm32 { .. } => field(IMM32),
            Slot::CBank { neg, abs, not } => field(CBANK_BANK) | field(CBANK_OFFSET) | bit(neg) | bit(abs) | bit(not),
            Slot::LoadBank { offset, index, .. } => field(CBANK_BANK) | field(offset) | field(index),
            Slot::Hex(f) | Slot::Mask(f) | Slot::SpecialReg(f) | Slot::Imm64(f) | Slot::SImm(f) => field(f),
            Slot::Text(_) | Slot::NextUr(_) | Slot::Again(_) => 0,
            Slot::HexSplit(lo, hi) | Slot::MaskSplit(lo, hi) => field(lo) | field(hi),
            Slot::Float { .. } | Slot::Half2 | Slot::Half => field(IMM32),
            Slot::Target(super::branch::Layout::Contiguous(f) | super::branch::Layout::Bytes(f))
            | Slot::AbsTarget(super::branch::Layout::Contiguous(f) | super::branch::Layout::Bytes(f))
            | Slot::RelOffset(super::branch::Layout::Contiguous(f) | super::branch::Layout::Bytes(f)) => field(f),
            Slot::Target(super::branch::Layout::Split) | Slot::AbsTarget(super::branch::Layout::Split) | Slot::RelOffset(super::branch::Layout::Split) => {
                field(Field::bits(16, 23)) | field(Field::bits(34, 81))
            }
            Slot::Addr { base, offset, scale, desc, uniform, .. } => {
                base.map_or(0, field) | offset.map_or(0, field) | scale.map_or(0, field) | desc.map_or(0, field) | uniform.map_or(0, field)
            }
        }
    }
}

impl<Op, Mod: 'static, W> Form<Op, Mod, W> {
    /// Whether a slot of a form named `name` holds a result, by the layout
    /// of sm_70+ words: the result register in bits 16–23 (general or
    /// uniform) and the result predicates in 81–83 and 84–86, and for the
    /// texture fetches (TEX, TLD) and queries (TXQ) their second result
    /// pair in 64–71, and LDG.E.ENL2.256 its first quad there (no other
    /// LDG form has a register at 64); every other operand is read. A
    /// global store writes no register: STG.E.ENL2.256's second data quad
    /// is in 16–23 (the other STG forms fix those bits to zero).
    #[inline]
    pub fn result_slot(name: &str, slot: &Slot) -> bool {
        let texture = name.starts_with("TEX") || name.starts_with("TLD") || name.starts_with("TXQ");
        let second = texture || name.starts_with("LDG");
        match slot {
            Slot::Gpr { field, .. } if second && field.start == 64 => true,
            Slot::Gpr { .. } if name.starts_with("STG") => false,
            Slot::Gpr { field, .. } | Slot::Ur { field, .. } => field.start == 16,
            Slot::Pred { field, .. } => field.start == 81 || field.start == 84,
            _ => false,
        }
    }

    /// Whether the instruction writes the operand of slot `k`.
    #[inline]
    pub fn writes(&self, k: usize) -> bool {
        k < 8 && self.defs >> k & 1 != 0
    }

    /// Every bit the form explains (control bits included).
    pub fn mask(&self) -> u128 {
        let field = |f: Field| (f.max() as u128) << f.start;
        let mut m = field(Field::bits(0, 15)) | field(Field::bits(105, 125));
        for (f, _) in self.fixed {
            m |= field(*f);
        }
        for md in self.mods {
            m |= field(md.field) | md.extra.map_or(0, |b| 1u128 << b);
        }
        for s in self.slots {
            m |= s.mask();
        }
        m
    }

    /// Whether modifier `m` prints after an operand ([`Form::operand_suffixes`]).
    #[inline]
    pub fn is_operand_mod(&self, m: usize) -> bool {
        self.operand_suffixes.iter().any(|s| s.modifier() == Some(m))
    }

    /// What prints after the operand of slot `k`, if anything.
    #[inline]
    pub fn operand_suffix_of(&self, k: usize) -> Option<OperandSuffix> {
        self.operand_suffixes.iter().copied().find(|s| s.slot() == k)
    }

    /// Whether the form applies to a measured SM.
    #[inline]
    pub fn applies_to(&self, measured_sm: u16) -> bool {
        (self.sms.0..=self.sms.1).contains(&measured_sm)
    }

    /// The opcode: the name up to its first modifier (`IADD3` of
    /// `IADD3.X`). A byte scan, not `split('.')`: the scheduler and the
    /// emitter ask it of every instruction several times.
    #[inline]
    pub fn base_name(&self) -> &'static str {
        let name = self.name;
        match name.bytes().position(|b| b == b'.') {
            Some(k) => name.get(..k).unwrap_or(name),
            None => name,
        }
    }
}
