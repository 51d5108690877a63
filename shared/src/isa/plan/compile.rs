//! Compiling a form into a [`Plan`]: the resolved fields, steps and
//! masks decoding and encoding run per word (see the parent module). The
//! build script runs [`Plan::of`] on every form of the table and writes
//! the plans as static data (`ptx2sass-meta`, `src/isa/plans.rs`), so its
//! checks (disjoint fields, flag bits, reuse indices) fail the build, not a
//! run; the compiler reads the plans through these types, and its test
//! re-derives every plan with [`compile`].

use crate::isa::bits::Field;
use crate::isa::branch::Layout;
use crate::isa::family::MEASURED_SMS;
use crate::isa::form::{Form, ModField, PredShow, Slot, UNIFORM_B_FLAG, UNMEASURED, Widths};
use crate::isa::operand::RegFile;

/// The "no such bit" position of an optional flag: bit 127, which no form
/// explains (control bits end at 125), so it is clear in every word that
/// decodes and reading it needs no test for absence.
pub const NO_BIT: u8 = 127;

/// The reuse flags of the control field (bits 122–125).
const REUSE_BITS: u128 = 0xf << 122;

/// The "no reuse flag" index of a general register operand: bit 8 of the
/// 4-bit reuse mask, always clear (decoding reads no flag there; encoding
/// a flag there gives a mask that cannot match the control field's).
pub const NO_REUSE: u8 = 8;

/// A field of 1 to 64 bits, whose mask is computed without a branch
/// ([`Field::max`] tests for 64 bits). Two bytes, so that plans stay small
/// (encoding a list of instructions reads a plan per instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fld {
    pub start: u8,
    pub width: u8,
}

impl Fld {
    /// No field: an address without a base register ([`Slot::Addr`]'s
    /// `base: None`); only [`Fld::is_none`] may be asked of it.
    pub const NONE: Fld = Fld { start: 0, width: 0 };

    /// Whether this is [`Fld::NONE`].
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.width == 0
    }

    /// The resolved form of a field.
    pub const fn of(f: Field) -> Fld {
        assert!(f.width >= 1 && f.width <= 64, "fields are 1 to 64 bits wide");
        Fld { start: f.start, width: f.width }
    }

    /// The largest value the field holds.
    #[inline(always)]
    pub fn max(self) -> u64 {
        u64::MAX >> (64 - u32::from(self.width))
    }

    /// The field's value in `word`.
    #[inline(always)]
    pub fn get(self, word: u128) -> u64 {
        (word >> self.start) as u64 & self.max()
    }

    /// The value read as a two's-complement number.
    #[inline(always)]
    pub fn get_signed(self, word: u128) -> i64 {
        let shift = 64 - u32::from(self.width);
        ((self.get(word) << shift) as i64) >> shift
    }

    /// `word`, whose field is clear, with the field holding `value`, if it
    /// fits (the fields of a form are disjoint: see [`Plan::of`]).
    #[inline(always)]
    pub fn put(self, word: u128, value: u64) -> Option<u128> {
        (value <= self.max()).then(|| word | u128::from(value) << self.start)
    }

    /// [`Fld::put`] of a signed value.
    #[inline(always)]
    pub fn put_signed(self, word: u128, value: i64) -> Option<u128> {
        let shift = 64 - u32::from(self.width);
        ((value << shift) >> shift == value).then(|| word | u128::from(value as u64 & self.max()) << self.start)
    }
}

/// A field of at most 32 bits as the decoder reads it: a shift within one
/// of a word's three overlapping 64-bit windows (bits 0–63, 32–95 and
/// 64–127, [`windows`]), one of which holds any such field whole. Reading
/// it is a load and a shift, where a variable shift of the 128-bit word
/// costs a double shift and a select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// Which window: 0, 1 or 2.
    pub window: u8,
    /// The field's first bit within the window.
    pub shift: u8,
}

impl At {
    /// Where the field of `width` bits at `start` lies.
    pub const fn of(start: u8, width: u8) -> At {
        assert!(width >= 1 && width <= 32 && start as u32 + width as u32 <= 128, "windowed fields are 1 to 32 bits wide");
        // The last window starting at or below the field that holds it whole
        // (the field's end is at most 32 bits past the window's start).
        let window = if start + width <= 64 { 0 } else if start >= 32 && start + width <= 96 { 1 } else { 2 };
        At { window, shift: start - window * 32 }
    }

    /// The field's first bit in the word.
    pub fn start(self) -> u8 {
        self.window * 32 + self.shift
    }

    /// The field's bits of `windows` (the word's [`windows`]) and those above it.
    #[inline(always)]
    pub fn read(self, windows: &[u64; 4]) -> u64 {
        windows[usize::from(self.window & 3)] >> (self.shift & 63)
    }
}

/// The windows of `word` that [`At`] reads (a fourth, zero, so that the
/// index needs no bounds check).
#[inline(always)]
pub fn windows(word: u128) -> [u64; 4] {
    [word as u64, (word >> 32) as u64, (word >> 64) as u64, 0]
}

/// Whether bit `b` of `word` is set ([`NO_BIT`] reads as clear in decodable words).
#[inline(always)]
pub fn bit(word: u128, b: u8) -> bool {
    (word >> b) as u8 & 1 == 1
}

fn flag(b: Option<u8>) -> u8 {
    b.unwrap_or(NO_BIT)
}

/// A modifier field, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModStep {
    pub field: Fld,
    /// Where the decoder reads the field.
    pub at: At,
    /// The field's mask ([`Fld::max`]).
    pub mask: u32,
    /// The value's next bit, or [`NO_BIT`].
    pub extra: u8,
    /// Bit `v` set when value `v` has a measured spelling (decodes).
    pub ok: u32,
    /// Number of spellings (values from it on do not encode).
    pub names: u16,
}

impl ModStep {
    /// The value in `word`, whose [`windows`] are `win` (as [`ModField::get`]).
    #[inline(always)]
    pub fn get(self, word: u128, win: &[u64; 4]) -> u32 {
        let low = self.at.read(win) as u32 & self.mask;
        // Few fields have an extra bit: test for it rather than read bit 127.
        if self.extra == NO_BIT { low } else { low | u32::from(bit(word, self.extra)) << self.field.width }
    }
}

/// One operand's encoding, resolved (one per [`Slot`] kind; flags are bit
/// positions or [`NO_BIT`]). An explicit tag byte makes dispatch one load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// [`Slot::Gpr`], [`Slot::Pred`], [`Slot::Ur`] and [`Slot::UniformB`]:
    /// a register of `file` in the field of `mask`'s width (8, 3, 6 bits)
    /// at `at`, whose all-ones value is the file's zero register (RZ,
    /// PT, UPT, URZ). One step for the four, so that the operands of most
    /// forms decode and encode through one branch-free path. Its flags
    /// are bit positions or [`NO_BIT`] (a predicate has no `neg` and `abs`,
    /// a uniform register no `abs`: see [`Step::of`]); `reuse` is the
    /// reuse-mask index or [`NO_REUSE`]. (UniformB's bit 91 is a fixed field
    /// of its plan.)
    Reg { at: At, mask: u8, file: RegFile, neg: u8, abs: u8, not: u8, reuse: u8 },
    /// [`Slot::Barrier`].
    Barrier(Fld),
    /// [`Slot::Imm32`], [`Slot::Float`], [`Slot::Half2`] and
    /// [`Slot::Half`] (bits 32–63); the value check of the last three.
    Imm32(ImmCheck),
    /// [`Slot::CBank`].
    CBank { neg: u8, abs: u8, not: u8 },
    /// [`Slot::LoadBank`].
    LoadBank { offset: Fld, index: Fld, uniform: bool },
    /// [`Slot::Hex`].
    Hex(Fld),
    /// [`Slot::HexSplit`] and [`Slot::MaskSplit`].
    HexSplit(Fld, Fld),
    /// [`Slot::Imm64`].
    Imm64(Fld),
    /// [`Slot::SImm`].
    SImm(Fld),
    /// [`Slot::Target`] and [`Slot::RelOffset`].
    Target(Layout),
    /// [`Slot::AbsTarget`].
    AbsTarget(Layout),
    /// [`Slot::Addr`]; `wide`, `zero_base` as there, `shift` its
    /// `offset_shift`; [`Fld::NONE`] where it has no base, offset or scale
    /// field (the scale is not an `Option`, which keeps a step in 16 bytes).
    Addr { base: Fld, offset: Fld, scale: Fld, desc: Option<Fld>, uniform: Option<Fld>, wide: bool, zero_base: bool, shift: u8 },
    /// [`Slot::SpecialReg`].
    SpecialReg(Fld),
    /// [`Slot::Text`]: no bits.
    Text,
}

/// Which immediates decode ([`Step::Imm32`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmCheck {
    /// Any bits.
    Any,
    /// A float `nvdisasm` prints as a number or a known name.
    Float { f64: bool, shadowed: Option<u32> },
    /// A pair of halves without NaN.
    Half2,
    /// One half in the low 16 bits, the high 16 clear ([`Slot::Half`]).
    Half,
}

impl Step {
    /// The step of a slot.
    pub fn of(slot: Slot) -> Step {
        match slot {
            Slot::Gpr { field, neg, abs, not, reuse } => {
                assert!(field.width == 8, "general register fields are 8 bits");
                Step::Reg { at: At::of(field.start, field.width), mask: 0xff, file: RegFile::Gpr, neg: flag(neg), abs: flag(abs), not: flag(not), reuse: reuse.unwrap_or(NO_REUSE) }
            }
            Slot::Ur { field, neg, abs, not } => {
                assert!(field.width <= 8, "uniform register fields are at most 8 bits");
                Step::Reg { at: At::of(field.start, field.width), mask: field.max() as u8, file: RegFile::Uniform, neg: flag(neg), abs: flag(abs), not: flag(not), reuse: NO_REUSE }
            }
            Slot::UniformB { field, neg, abs, not } => {
                assert!(field.width <= 8, "uniform register fields are at most 8 bits");
                Step::Reg { at: At::of(field.start, field.width), mask: field.max() as u8, file: RegFile::Uniform, neg: flag(neg), abs: flag(abs), not: flag(not), reuse: NO_REUSE }
            }
            Slot::Barrier(f) => Step::Barrier(Fld::of(f)),
            Slot::Pred { uniform, field, not, .. } => {
                assert!(field.width == 3, "predicate fields are 3 bits");
                let file = if uniform { RegFile::UniformPred } else { RegFile::Pred };
                Step::Reg { at: At::of(field.start, field.width), mask: 7, file, neg: NO_BIT, abs: NO_BIT, not: flag(not), reuse: NO_REUSE }
            }
            Slot::Imm32 { .. } => Step::Imm32(ImmCheck::Any),
            Slot::Float { f64, shadowed } => Step::Imm32(ImmCheck::Float { f64, shadowed }),
            Slot::Half2 => Step::Imm32(ImmCheck::Half2),
            Slot::Half => Step::Imm32(ImmCheck::Half),
            Slot::CBank { neg, abs, not } => Step::CBank { neg: flag(neg), abs: flag(abs), not: flag(not) },
            Slot::LoadBank { offset, index, uniform } => Step::LoadBank { offset: Fld::of(offset), index: Fld::of(index), uniform },
            Slot::Hex(f) | Slot::Mask(f) => Step::Hex(Fld::of(f)),
            Slot::HexSplit(lo, hi) | Slot::MaskSplit(lo, hi) => Step::HexSplit(Fld::of(lo), Fld::of(hi)),
            Slot::Imm64(f) => Step::Imm64(Fld::of(f)),
            Slot::SImm(f) => Step::SImm(Fld::of(f)),
            Slot::Target(layout) | Slot::RelOffset(layout) => Step::Target(layout),
            Slot::AbsTarget(layout) => Step::AbsTarget(layout),
            Slot::Addr { base, wide, offset, offset_shift, scale, desc, uniform, zero_base, .. } => {
                assert!(offset_shift < 32, "an offset unit of 2^{offset_shift} bytes");
                Step::Addr {
                    base: base.map_or(Fld::NONE, Fld::of),
                    offset: offset.map_or(Fld::NONE, Fld::of),
                    scale: scale.map_or(Fld::NONE, Fld::of),
                    desc: desc.map(Fld::of),
                    uniform: uniform.map(Fld::of),
                    wide,
                    zero_base,
                    shift: offset_shift,
                }
            }
            Slot::SpecialReg(f) => Step::SpecialReg(Fld::of(f)),
            Slot::Text(_) | Slot::NextUr(_) | Slot::Again(_) => Step::Text,
        }
    }
}

/// A form, compiled: two cache lines. The first holds what encoding reads
/// (and decoding, once a word matched); the second what decoding tests
/// every candidate word against, and the rarer flags.
#[derive(Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Plan<Op: 'static, Mod: 'static, W: 'static = Widths> {
    pub mods: &'static [ModStep],
    pub steps: &'static [Step],
    /// The opcode and fixed fields: the word encoding starts from.
    pub base: u128,
    pub form: &'static Form<Op, Mod, W>,
    /// Bit `k` set when slot `k` may not hold a zero register ([`Form::nonzero`]).
    pub nonzero: u8,
    /// Bit `k` set when slot `k` is an optional predicate (printed only
    /// when not PT).
    pub optional: u8,
    /// `optional | nonzero`: whether the decoder checks the operands
    /// against the text's readability rules.
    pub text_rules: u8,
    /// Whether every step is a [`Step::Reg`] or an [`ImmCheck::Any`]
    /// immediate (the decoder's inline path).
    pub simple: bool,
    /// Bit `k` set when the form applies to measured SM `k` (of
    /// [`MEASURED_SMS`]).
    pub sms: u8,
    /// Whether some operand values have no readable text (optional
    /// predicates, zero bases, [`Form::nonzero`]): encoding checks them first.
    pub check_text: bool,
    /// Bit `k` set when an operand has reuse flag `k` (of the control
    /// field's four); no two operands share one.
    pub reuse_slots: u8,
    /// Bit `k` set when slot `k` has a negate, absolute-value or not bit.
    pub flag_slots: u8,
    /// The bits a word of the form has no say in (outside [`Plan::mask`])
    /// and those of its fixed fields: a word is the form's only if these
    /// bits of it are [`Plan::fixed_value`] (one test for both).
    pub check: u128,
    /// The values of the fixed fields (zero elsewhere).
    pub fixed_value: u128,
    /// Every negate, absolute-value and not bit of the operands.
    pub flags: u128,
    /// Those and the control field's reuse flags: a word with none of
    /// these bits set has no source modifier and no reuse flag (most).
    pub marks: u128,
    /// The slot of the operand of each reuse flag (of those of `reuse_slots`).
    pub reuse_slot: [u8; 4],
}

impl<Op: 'static, Mod: 'static, W: 'static> Plan<Op, Mod, W> {
    /// The plan of `form`, whose modifiers and slots compile to `mods` and
    /// `steps`. Panics where the form breaks what plans rely on.
    pub fn of(form: &'static Form<Op, Mod, W>, mods: &'static [ModStep], steps: &'static [Step]) -> Plan<Op, Mod, W> {
        let (mut fixed_mask, mut fixed_value) = (0u128, 0u128);
        for (f, v) in form.fixed {
            assert!(*v <= f.max(), "{}: fixed value {v} does not fit its field", form.name);
            fixed_mask |= u128::from(f.max()) << f.start;
            fixed_value |= u128::from(*v) << f.start;
        }
        // A uniform register as operand b or c: bit 91 is set.
        if form.slots.iter().any(|s| matches!(s, Slot::UniformB { .. })) {
            fixed_mask |= 1u128 << UNIFORM_B_FLAG;
            fixed_value |= 1u128 << UNIFORM_B_FLAG;
        }
        let mask = form.mask();
        assert!(mask >> NO_BIT == 0, "{}: bit {NO_BIT} stands for no flag bit", form.name);
        assert!(disjoint(form), "{}: two of its fields share a bit", form.name);
        let check_text = !form.nonzero.is_empty()
            || form.slots.iter().any(|s| {
                matches!(
                    s,
                    Slot::Pred { show: PredShow::UnlessTrue, .. } | Slot::Addr { wide: false, .. } | Slot::Addr { uniform: Some(_), .. } | Slot::Addr { zero_base: false, .. }
                )
            });
        let base = u128::from(form.opcode & 0xfff) | fixed_value;
        let bits = |bs: &[u8]| bs.iter().filter(|&&b| b != NO_BIT).fold(0u128, |m, &b| m | 1 << b);
        let flags = steps.iter().fold(0u128, |m, step| {
            m | match *step {
                Step::Reg { neg, abs, not, .. } | Step::CBank { neg, abs, not } => bits(&[neg, abs, not]),
                _ => 0,
            }
        });
        let nonzero = form.nonzero.iter().fold(0u8, |m, &k| {
            assert!(k < 8, "{}: slot {k} past the eight operands", form.name);
            m | 1 << k
        });
        let reuse_slots = steps.iter().fold(0u8, |m, step| match *step {
            Step::Reg { reuse, .. } if reuse != NO_REUSE => {
                assert!(reuse < 4 && m >> reuse & 1 == 0, "{}: reuse flag {reuse} taken twice or past the four", form.name);
                m | 1 << reuse
            }
            _ => m,
        });
        let optional = form.slots.iter().enumerate().fold(0u8, |m, (k, slot)| match *slot {
            Slot::Pred { show: PredShow::UnlessTrue, .. } => m | 1 << k,
            _ => m,
        });
        assert!(MEASURED_SMS.len() <= 8, "one bit per measured SM");
        let sms = MEASURED_SMS.iter().enumerate().fold(0u8, |m, (k, &sm)| if form.applies_to(sm) { m | 1 << k } else { m });
        let mut reuse_slot = [0u8; 4];
        let mut flag_slots = 0u8;
        for (k, step) in steps.iter().enumerate() {
            if let Step::Reg { reuse, .. } = *step
                && reuse != NO_REUSE
            {
                reuse_slot[usize::from(reuse)] = k as u8;
            }
            if let Step::Reg { neg, abs, not, .. } | Step::CBank { neg, abs, not } = *step
                && neg & abs & not != NO_BIT
            {
                assert!(k < 8, "{}: slot {k} past the eight operands", form.name);
                flag_slots |= 1 << k;
            }
        }
        let simple = steps.iter().all(|step| matches!(step, Step::Reg { .. } | Step::Imm32(ImmCheck::Any)));
        let marks = flags | REUSE_BITS;
        let text_rules = optional | nonzero;
        Plan { check: !mask | fixed_mask, fixed_value, flags, marks, mods, steps, form, nonzero, reuse_slots, reuse_slot, flag_slots, optional, text_rules, simple, sms, base, check_text }
    }
}

/// Whether no two of a form's fields (opcode and guard, control bits,
/// fixed fields, modifiers, operands) share a bit: then encoding can OR
/// each value into a word that starts with the fixed bits only.
fn disjoint<Op, Mod, W>(form: &Form<Op, Mod, W>) -> bool {
    let field = |f: Field| u128::from(f.max()) << f.start;
    let parts = [field(Field::bits(0, 15)), field(Field::bits(105, 125))]
        .into_iter()
        .chain(form.fixed.iter().map(|(f, _)| field(*f)))
        .chain(form.mods.iter().map(|m| field(m.field) | m.extra.map_or(0, |b| 1u128 << b)))
        .chain(form.slots.iter().map(Slot::mask));
    let mut seen = 0u128;
    for part in parts {
        if seen & part != 0 {
            return false;
        }
        seen |= part;
    }
    true
}

/// The step of a modifier field.
pub fn mod_step(m: &ModField) -> ModStep {
    let mut ok = 0u32;
    for (v, name) in m.names.iter().enumerate().take(32) {
        if *name != UNMEASURED {
            ok |= 1 << v;
        }
    }
    // Values past the 32 of `ok` never decode, so a wider field is not needed.
    assert!(m.field.width <= 32, "modifier fields are at most 32 bits wide");
    let field = Fld::of(m.field);
    ModStep { field, at: At::of(field.start, field.width), mask: field.max() as u32, extra: flag(m.extra), ok, names: m.names.len().min(usize::from(u16::MAX)) as u16 }
}


/// The plan of `form`, with its steps leaked (the build script compiles
/// each form once; so does the test that checks the static plans).
pub fn compile<Op, Mod, W>(form: &'static Form<Op, Mod, W>) -> Plan<Op, Mod, W> {
    let mods: &'static [ModStep] = Box::leak(form.mods.iter().map(mod_step).collect::<Vec<_>>().into_boxed_slice());
    let steps: &'static [Step] = Box::leak(form.slots.iter().map(|s| Step::of(*s)).collect::<Vec<_>>().into_boxed_slice());
    Plan::of(form, mods, steps)
}
