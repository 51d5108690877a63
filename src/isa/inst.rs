//! Machine instructions: the model ([`Inst`]), and decoding, encoding and
//! printing derived from the form table ([`super::table`]); decoding and
//! encoding run the table's compiled forms (`plan`).
//!
//! An instruction is its [`Form`], the value of each of the form's modifier
//! fields, one operand per slot, a guard predicate and the control fields.
//! The printed text is `nvdisasm`'s, byte for byte (checked on every corpus
//! word the table covers by `tests/isa_corpus.rs`).

use super::ctrl::Ctrl;
use super::family::{measured_index, measured_sm};
use super::form::{AliasWhen, Form, OperandSuffix, PredShow, Slot, Spelling, Widths};
use super::op::{Mod, Op};
use super::inline::Inline;
use super::operand::{Operand, Reg, RegFile, RegNum, SrcMods};
use super::plan::{Encode, plans};
use crate::target::Sm;
use std::fmt::Write as _;

/// The memory descriptor a text without one stands for where nvdisasm does
/// not print it (sm_80–sm_89): UR4, the register ptxas loads it into.
pub const HIDDEN_DESC: Reg = Reg { file: RegFile::Uniform, num: RegNum::Phys(4) };

/// The modifier values of an instruction (inline: no allocation to decode).
pub type ModValues = Inline<u8, 6>;

/// The operands of an instruction (inline, up to eight: `IADD3.X` has two
/// carry-out and two carry-in predicates).
pub type InstOperands = Inline<Operand, 8>;

/// One machine instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// The encoding.
    pub form: &'static Form,
    /// Guard predicate (`PT` when unguarded) and whether it is negated.
    pub guard: (Reg, bool),
    /// Value of each of the form's modifier fields.
    pub mods: ModValues,
    /// One operand per slot of the form.
    pub operands: InstOperands,
    /// Control fields.
    pub ctrl: Ctrl,
}

/// Why a word does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// No SM table for this target.
    UnsupportedSm,
    /// No form of the table explains every bit of the word.
    Unknown,
}

/// Why an instruction does not encode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

/// Why an instruction does not encode, as a small value (the encoder's
/// fast path builds no strings).
#[derive(Clone, Copy, Debug)]
pub(super) enum Why {
    NoTables,
    NotOnSm,
    Counts,
    NoText,
    TooBig(&'static str, u64),
    NoFlag(&'static str),
    NotReg(Reg, &'static str),
    NoSpelling(u8),
    Descriptor,
    Mismatch(usize),
    Reuse,
}

/// Whether the text of these operands says everything about them:
/// * optional predicates print only when not PT, so a shown one after a
///   hidden one would read back into the wrong slot (and what nvdisasm
///   prints then is not measured);
/// * a 32-bit zero base (`[RZ]`, `[0x10]`) prints no scale, so its
///   scale must be zero; some addresses take no zero base at all;
/// * the form's [`Form::nonzero`] slots do not hold a zero register (nor
///   a zero index register, in a constant address).
pub(super) fn representable(form: &Form, operands: &[Operand]) -> bool {
    for &k in form.nonzero {
        if matches!(operands.get(k), Some(Operand::Reg { reg: Reg { num: RegNum::Zero, .. }, .. } | Operand::Hex(0) | Operand::ConstAddr { index: Reg { num: RegNum::Zero, .. }, .. })) {
            return false;
        }
    }
    let mut hidden_optional = false;
    for (slot, op) in form.slots.iter().zip(operands) {
        match (slot, op) {
            (Slot::Pred { show: PredShow::UnlessTrue, .. }, Operand::Reg { reg, mods, .. }) => {
                let hidden = reg.num == RegNum::Zero && !mods.not;
                if !hidden && hidden_optional {
                    return false;
                }
                hidden_optional |= hidden;
            }
            // Nor is the scale of a zero 32-bit base (`[RZ]`, oracle), nor a
            // zero base with a uniform register.
            (Slot::Addr { wide, zero_base, .. }, Operand::Mem(m)) => {
                if m.base().num == RegNum::Zero && (m.scale() != 0 && (!wide || m.uniform().is_some()) || !zero_base) {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// A form no SM has, which [`Inst::empty`] holds (it does not encode).
static EMPTY_FORM: Form = Form {
    name: "NOP",
    op: Op::NOP,
    spelling: Spelling::EMPTY,
    defs: 0,
    widths: Widths::ONE,
    sms: (0, 0),
    opcode: 0x918,
    fixed: &[],
    mods: &[],
    suffix: "",
    aliases: &[],
    space_before_last: false,
    nonzero: &[],
    uniform_guard: false,
    slots: &[],
    operand_suffixes: &[],
};

impl Inst {
    /// Decodes an instruction word for an SM.
    // Inline: the caller's result is then decoded in place instead of being
    // copied there (an instruction is over 400 bytes).
    #[inline]
    pub fn decode(word: u128, sm: Sm) -> Result<Inst, DecodeError> {
        let mut inst = Inst::empty();
        inst.decode_from(word, sm)?;
        Ok(inst)
    }

    /// Decodes an instruction word for an SM into `self` (the fast path of
    /// [`Inst::decode`]: no instruction is moved). On error `self` holds
    /// some valid instruction, not necessarily the one it held.
    pub fn decode_from(&mut self, word: u128, sm: Sm) -> Result<(), DecodeError> {
        let sm_index = measured_index(sm).ok_or(DecodeError::UnsupportedSm)?;
        if plans().decode(sm_index, word, self) {
            return Ok(());
        }
        // Leave no partial instruction behind.
        *self = Inst::empty();
        Err(DecodeError::Unknown)
    }

    /// `NOP` with no control fields set: the instruction a decode starts from.
    #[inline]
    pub fn empty() -> Inst {
        Inst { form: &EMPTY_FORM, guard: (Reg::zero(RegFile::Pred), false), mods: ModValues::new(), operands: InstOperands::new(), ctrl: Ctrl::default() }
    }

    /// Encodes the instruction for an SM.
    pub fn encode(&self, sm: Sm) -> Result<u128, EncodeError> {
        self.encode_word(sm).map_err(|why| EncodeError(format!("{}: {}", self.form.name, self.explain(why, sm))))
    }

    /// The message of an encoding error.
    fn explain(&self, why: Why, sm: Sm) -> String {
        match why {
            Why::NoTables => format!("no encoding tables for {sm}"),
            Why::NotOnSm => format!("this form does not exist on {sm}"),
            Why::Counts => "modifier or operand count does not match the form".into(),
            Why::NoText => "these operands have no text that reads back to them (a predicate after a hidden PT, a scaled zero base, or a zero register where the instruction takes none)".into(),
            Why::TooBig(what, v) => format!("{what} {v:#x} does not fit"),
            Why::NoFlag(what) => format!("{what} is not available on this operand"),
            Why::NotReg(reg, what) => format!("{reg} is not {what}"),
            Why::NoSpelling(v) => format!("modifier value {v} has no spelling"),
            Why::Descriptor => "descriptor register does not match the form".into(),
            Why::Mismatch(k) => format!("operand {:?} does not fit slot {:?}", self.operands[k], self.form.slots[k]),
            Why::Reuse => "reuse flags in the control fields differ from the operands' .reuse".into(),
        }
    }

    /// [`Inst::encode`] with a small error value (the message is built
    /// only when it is wanted).
    fn encode_word(&self, sm: Sm) -> Result<u128, Why> {
        let k = measured_index(sm).ok_or(Why::NoTables)?;
        // The plan says which measured SMs its form applies to.
        let plan = super::plan::plan_for_encoding(self.form).filter(|p| p.sms >> k & 1 == 1).ok_or(Why::NotOnSm)?;
        plan.encode(self)
    }

    /// The instruction at `address` as `nvdisasm -b` prints it for `sm`
    /// (without address or control prefix; branch targets are absolute).
    pub fn text(&self, sm: Sm, address: u64) -> String {
        self.text_with(sm, address, false)
    }

    /// Whether the instruction's text reads back as the same word: false
    /// for a float immediate that is a NaN other than the ones
    /// [`SPECIAL_FLOATS`] spells (the text keeps only its sign and quiet
    /// bit), and for reuse flags without bit 109 (nvdisasm shows none).
    pub fn text_reads_back(&self) -> bool {
        !self.hides_reuse()
            && self.form.slots.iter().zip(&self.operands).all(|(slot, op)| match (slot, op) {
            (Slot::Float { f64, .. }, Operand::Imm(v)) => float_printable(*v, *f64),
            (Slot::Half2, Operand::Imm(v)) => half2_printable(*v),
            (Slot::Half, Operand::Imm(v)) => half2_printable(*v),
            _ => true,
            })
    }

    /// Reuse flags nvdisasm does not print: bit 109 is clear, or the
    /// instruction is a texture fetch or TXQ (their flags decode, and
    /// ptxas sets them, but nvdisasm prints none: `table/texture.rs`;
    /// random instances with bit 109 set, nvdisasm 13.5).
    fn hides_reuse(&self) -> bool {
        self.ctrl.reuse() != 0 && (!self.ctrl.yield_bit() || matches!(self.form.op, Op::TEX | Op::TLD | Op::TLD4 | Op::TXQ))
    }

    /// [`Inst::text`], except that a memory descriptor nvdisasm does not
    /// print (sm_80–sm_89) is written out (`desc.hidden[UR6][R2.64]`) when
    /// it is not UR4, the one its absence reads back as: text that reads back to
    /// the same word (when [`Inst::text_reads_back`]), which `sass dis` prints and `sass asm` reads.
    pub fn listing_text(&self, sm: Sm, address: u64) -> String {
        self.text_with(sm, address, true)
    }

    fn text_with(&self, sm: Sm, address: u64, explicit_desc: bool) -> String {
        let mut out = String::new();
        let (g, neg) = self.guard;
        if g.num != RegNum::Zero || neg {
            // Uniform-datapath instructions are guarded by uniform predicates.
            let g = if self.form.uniform_guard { Reg { file: RegFile::UniformPred, ..g } } else { g };
            let _ = write!(out, "@{}{} ", if neg { "!" } else { "" }, g);
        }
        out.push_str(&self.mnemonic());
        let mut first = true;
        for (k, (slot, op)) in self.form.slots.iter().zip(&self.operands).enumerate() {
            if let (Slot::Pred { show: PredShow::UnlessTrue, .. }, Operand::Reg { reg, mods, .. }) = (slot, op) {
                if reg.num == RegNum::Zero && !mods.not {
                    continue;
                }
            }
            let last = k + 1 == self.form.slots.len();
            out.push_str(if first || (last && self.form.space_before_last) { " " } else { ", " });
            first = false;
            let suffix = self.operand_suffix(k);
            if let Slot::Again(of) = slot {
                if let Some(op @ Operand::Reg { .. }) = self.operands.get(usize::from(*of)) {
                    let plain = match *op {
                        Operand::Reg { reg, .. } => Operand::Reg { reg, mods: SrcMods::default(), reuse: false },
                        other => other,
                    };
                    if let Some(s) = self.form.slots.get(usize::from(*of)) {
                        write_operand(&mut out, s, &plain, sm, address, explicit_desc, false);
                    }
                }
                out.push_str(suffix);
                continue;
            }
            if let Slot::NextUr(of) = slot {
                // The register after the address's uniform one (a pair).
                let ur = match self.operands.get(usize::from(*of)) {
                    Some(Operand::Mem(m)) => m.uniform(),
                    _ => None,
                };
                match ur.map(|r| r.num) {
                    Some(RegNum::Phys(n)) => {
                        let _ = write!(out, "[UR{}]", u16::from(n) + 1);
                    }
                    _ => out.push_str("[URZ]"),
                }
                out.push_str(suffix);
                continue;
            }
            let shown = match *op {
                Operand::Reg { reg, mods, .. } if self.hides_reuse() => Operand::Reg { reg, mods, reuse: false },
                other => other,
            };
            // A bank prints `c[0x0] [0x168]` wherever a suffix may follow,
            // even an empty one, and an `|x|` bank takes the suffix inside
            // its bars (`|c[0x0] [0x168].H0_H0|`), as does a register whose
            // form says so (`|R0.H1|`).
            let suffixed = !suffix.is_empty() || self.form.operand_suffix_of(k).is_some();
            let in_bars = matches!(self.form.operand_suffix_of(k), Some(OperandSuffix::ModInBars { .. }));
            match shown {
                Operand::CBank { bank, offset, mods } if mods.abs && !suffix.is_empty() => {
                    let inner = Operand::CBank { bank, offset, mods: SrcMods { abs: false, ..mods } };
                    let mut text = String::new();
                    write_operand(&mut text, slot, &inner, sm, address, explicit_desc, true);
                    let sign_end = text.find('c').unwrap_or(0);
                    let (sign, rest) = text.split_at(sign_end);
                    let _ = write!(out, "{sign}|{rest}{suffix}|");
                }
                Operand::Reg { reg, mods, reuse } if in_bars && mods.abs && !suffix.is_empty() => {
                    let inner = Operand::Reg { reg, mods: SrcMods::default(), reuse };
                    let mut text = String::new();
                    write_operand(&mut text, slot, &inner, sm, address, explicit_desc, true);
                    let sign = if mods.neg { "-" } else { "" };
                    let _ = write!(out, "{sign}|{text}{suffix}|");
                }
                _ => {
                    write_operand(&mut out, slot, &shown, sm, address, explicit_desc, suffixed);
                    out.push_str(suffix);
                }
            }
        }
        out.push_str(if self.ctrl.stall() == 0 && self.ctrl.wait() == 0 { ";" } else { " ;" });
        out
    }
}

/// The tokens of an instruction's mnemonic (see [`Inst::tokens`]).
pub type Tokens = Inline<Mod, 16>;

impl Inst {
    /// The opcode.
    #[inline]
    pub fn op(&self) -> Op {
        self.form.op
    }

    /// The tokens of the mnemonic after the opcode, in printed order: the
    /// form's name, the values of the modifiers printed after it, the
    /// suffix (`IADD3.X` → `X`; `LDG.E.64` → `E`, `64`). Modifiers printed
    /// after an operand (`.H0_H0`) are not among them: see
    /// [`Inst::operand_suffix`].
    pub fn tokens(&self) -> Tokens {
        let mut out = Tokens::new();
        let spelling = &self.form.spelling;
        let mut push = |toks: &[Mod]| {
            for &t in toks {
                let _ = out.try_push(t);
            }
        };
        push(spelling.name);
        for (k, (values, &v)) in spelling.mods.iter().zip(&self.mods).enumerate() {
            if !self.form.is_operand_mod(k) {
                push(values.get(usize::from(v)).copied().unwrap_or(&[]));
            }
        }
        push(spelling.suffix);
        out
    }

    /// Whether the mnemonic has the token `m` (`has(Mod::WIDE)` of
    /// `IMAD.WIDE.U32`), as [`Inst::tokens`] lists them.
    pub fn has(&self, m: Mod) -> bool {
        let spelling = &self.form.spelling;
        if spelling.name.contains(&m) || spelling.suffix.contains(&m) {
            return true;
        }
        spelling.mods.iter().zip(&self.mods).enumerate().any(|(k, (values, &v))| {
            values.get(usize::from(v)).is_some_and(|toks| toks.contains(&m)) && !self.form.is_operand_mod(k)
        })
    }

    /// The register widths of the operands: `[result, source 0, …, source
    /// 3]` in 32-bit registers ([`Widths`]).
    #[inline]
    pub fn widths(&self) -> [u8; 5] {
        self.form.widths.get(&self.mods)
    }

    /// The two data quads of LDG.E.ENL2.256 and STG.E.ENL2.256 (`None` for
    /// other instructions), each as its slot and the components it holds
    /// (bit `c`: the 32-bit word `c` of the 32 bytes), packed from its
    /// register on: the mask operand's bits of its half, all four where
    /// the form has no mask. LDG's quad at 16–23 and STG's at 32–39 hold
    /// components 0–3, the other (LDG's 64–71, STG's 16–23) components
    /// 4–7 (ptxas 13.5's `LDG.E.ENL2.256 R7, R2, desc[UR4][R2.64], 0x26`
    /// loads components 1 and 2 into R2 and R3, 5 into R7; `STG.E.ENL2.256
    /// desc[UR4][R2.64], R6, R8, 0x9a` stores R6, R7 as components 1, 3
    /// and R8, R9 as 4, 7).
    pub fn quad_components(&self) -> Option<[(usize, u8); 2]> {
        let low_field = match self.op() {
            Op::LDG => 16,
            Op::STG => 32,
            _ => return None,
        };
        if !self.has(Mod::_256) {
            return None;
        }
        let slots = self.form.slots.iter().zip(self.operands.iter());
        let mask = slots.clone().find_map(|(s, o)| match (s, o) {
            (Slot::MaskSplit(..), Operand::Hex(m)) => Some(*m as u8),
            _ => None,
        });
        let mask = mask.unwrap_or(0xff);
        let mut quads = [(0, 0); 2];
        let mut n = 0;
        for (k, slot) in self.form.slots.iter().enumerate() {
            if let (Slot::Gpr { field, .. }, Some(q)) = (slot, quads.get_mut(n)) {
                *q = (k, mask & if field.start == low_field { 0x0f } else { 0xf0 });
                n += 1;
            }
        }
        (n == 2).then_some(quads)
    }

    /// The tokens printed after the operand of slot `k` (`H0_H0` of
    /// `R0.H0_H0`, `SIGN` of `R0.SIGN`), or none.
    pub fn operand_tokens(&self, k: usize) -> &'static [Mod] {
        let form = self.form;
        let Some(n) = form.operand_suffixes.iter().position(|s| s.slot() == k) else { return &[] };
        match form.operand_suffixes[n] {
            OperandSuffix::Mod { modifier, .. } | OperandSuffix::ModInBars { modifier, .. } => {
                let m = usize::from(modifier);
                form.spelling.mods.get(m).zip(self.mods.get(m)).and_then(|(values, &v)| values.get(usize::from(v))).copied().unwrap_or(&[])
            }
            OperandSuffix::Text { .. } => form.spelling.operand_texts.get(n).copied().unwrap_or(&[]),
        }
    }

    /// The printed name with the modifiers that follow it and the form's
    /// suffix (`IADD3.X`, `HMNMX2.BF16_V2`): everything before the
    /// operands, without the guard.
    pub fn mnemonic(&self) -> String {
        let mut out = String::from(self.printed_name());
        for (k, (m, v)) in self.form.mods.iter().zip(&self.mods).enumerate() {
            if !self.form.is_operand_mod(k) {
                out.push_str(m.names.get(usize::from(*v)).copied().unwrap_or(""));
            }
        }
        out.push_str(self.form.suffix);
        out
    }

    /// What prints after the operand of slot `k` (`.H0_H0`, `.SIGN`), or `""`.
    pub fn operand_suffix(&self, k: usize) -> &'static str {
        match self.form.operand_suffix_of(k) {
            Some(OperandSuffix::Mod { modifier, .. } | OperandSuffix::ModInBars { modifier, .. }) => {
                let m = usize::from(modifier);
                self.form.mods.get(m).and_then(|f| f.names.get(usize::from(*self.mods.get(m)?))).copied().unwrap_or("")
            }
            Some(OperandSuffix::Text { text, .. }) => text,
            None => "",
        }
    }

    /// The form's name, or the first alias whose condition holds.
    fn printed_name(&self) -> &'static str {
        let zero = |k: usize| {
            matches!(self.operands.get(k), Some(Operand::Reg { reg: Reg { num: RegNum::Zero, .. }, mods, .. }) if *mods == SrcMods::default())
        };
        let imm = |k: usize| match self.operands.get(k) {
            Some(Operand::Imm(v)) => Some(*v),
            _ => None,
        };
        for a in self.form.aliases {
            let holds = match a.when {
                AliasWhen::Zero(slots) => slots.iter().all(|k| zero(*k)),
                AliasWhen::AnyZero(slots) => slots.iter().any(|k| zero(*k)),
                AliasWhen::ImmOne(k) => imm(k) == Some(1),
                AliasWhen::ImmPow2Zero(k, z) => imm(k).is_some_and(|v| v.is_power_of_two() && v != 1 << 16) && zero(z),
            };
            if holds {
                return a.name;
            }
        }
        self.form.name
    }
}

/// `suffixed`: an operand suffix (`.SIGN`, `.H0_H0`) follows.
fn write_operand(out: &mut String, slot: &Slot, op: &Operand, sm: Sm, address: u64, explicit_desc: bool, suffixed: bool) {
    match *op {
        Operand::Reg { reg, mods, reuse } => {
            out.push_str(if mods.neg { "-" } else { "" });
            out.push_str(if mods.not { if reg.file == RegFile::Gpr || reg.file == RegFile::Uniform { "~" } else { "!" } } else { "" });
            if mods.abs {
                let _ = write!(out, "|{reg}|");
            } else {
                let _ = write!(out, "{reg}");
            }
            if reuse {
                out.push_str(".reuse");
            }
        }
        Operand::Imm(v) => match slot {
            Slot::Float { f64, .. } => out.push_str(&float_text(v, *f64)),
            Slot::Half2 => out.push_str(&half2_text(v).unwrap_or_default()),
            Slot::Half => out.push_str(&half_text(v as u16)),
            Slot::Imm32 { signed: true } if (v as i32) < 0 => {
                let _ = write!(out, "-{:#x}", (v as i32).unsigned_abs());
            }
            _ => {
                let _ = write!(out, "{v:#x}");
            }
        },
        Operand::CBank { bank, offset, mods } => {
            out.push_str(if mods.neg { "-" } else { "" });
            out.push_str(if mods.not { "~" } else { "" });
            // nvdisasm separates the bank and the offset by a space when a
            // suffix follows (`c[0x2] [0x0].SIGN`, `c[0x0] [0x168].H0_H0`).
            let text = format!("c[{bank:#x}]{}[{offset:#x}]", if suffixed { " " } else { "" });
            if mods.abs {
                let _ = write!(out, "|{text}|");
            } else {
                out.push_str(&text);
            }
        }
        Operand::ConstAddr { bank, index, offset } => {
            let _ = write!(out, "c[{bank:#x}][");
            match (index.num == RegNum::Zero, offset) {
                (true, 0) => {
                    let _ = write!(out, "{index}");
                }
                (true, o) => {
                    let _ = write!(out, "{o:#x}");
                }
                (false, 0) => {
                    let _ = write!(out, "{index}");
                }
                (false, o) if o > 0 => {
                    let _ = write!(out, "{index}+{o:#x}");
                }
                (false, o) => {
                    let _ = write!(out, "{index}+-{:#x}", o.unsigned_abs());
                }
            }
            out.push(']');
        }
        Operand::SpecialReg(n) => out.push_str(&special_register_name(n, sm)),
        Operand::Hex(v) => match slot {
            Slot::Text(text) => out.push_str(text),
            _ => {
                let _ = write!(out, "{v:#x}");
            }
        },
        Operand::Imm64(v) if matches!(slot, Slot::SImm(_)) && (v as i64) < 0 => {
            let _ = write!(out, "-{:#x}", (v as i64).unsigned_abs());
        }
        Operand::Imm64(v) => {
            let _ = write!(out, "{v:#x}");
        }
        Operand::Mem(m) => {
            let (base, offset, scale, uniform) = (m.base(), m.offset(), m.scale(), m.uniform());
            if let (Slot::Addr { show_desc, .. }, Some(d)) = (slot, m.desc()) {
                if *show_desc {
                    let _ = write!(out, "desc[{d}]");
                } else if explicit_desc && d != HIDDEN_DESC {
                    // Not `desc[..]`: nvdisasm prints that for a cache
                    // policy (sm_80–89 bit 101), another word.
                    let _ = write!(out, "desc.hidden[{d}]");
                }
            }
            out.push('[');
            // A 64-bit base always prints (`[RZ.64+0x600]`) unless a uniform
            // register is added (`[UR4+0x2]`); a 32-bit RZ base prints only
            // without offset (`[RZ]`, but `[0x10]`).
            let wide = matches!(slot, Slot::Addr { wide: true, .. });
            let zero_base = base.num == RegNum::Zero && !wide && uniform.is_none();
            if let Some(u) = uniform {
                if base.num != RegNum::Zero {
                    let size = match slot {
                        Slot::Addr { u32_base: true, .. } => ".U32",
                        _ if wide => ".64",
                        _ => "",
                    };
                    let _ = write!(out, "{base}{size}{}+", ["", ".X4", ".X8", ".X16"][usize::from(scale & 3)]);
                }
                let _ = write!(out, "{u}");
            } else if !zero_base || offset == 0 {
                let _ = write!(out, "{base}");
                if wide {
                    out.push_str(".64");
                }
                out.push_str(["", ".X4", ".X8", ".X16"][usize::from(scale & 3)]);
            }
            match (zero_base, offset) {
                (_, 0) => {}
                // An absolute address prints as the unsigned offset field (`[0xfff140]`).
                (true, o) => {
                    let width = if let Slot::Addr { offset: Some(offset), .. } = slot { offset.max() } else { 0xff_ffff };
                    let _ = write!(out, "{:#x}", u64::from(o as u32) & width);
                }
                (false, o) if o > 0 => {
                    let _ = write!(out, "+{o:#x}");
                }
                (false, o) => {
                    let _ = write!(out, "+-{:#x}", o.unsigned_abs());
                }
            }
            out.push(']');
        }
        Operand::Target(t) if matches!(slot, Slot::RelOffset(_)) => {
            if t < 0 {
                let _ = write!(out, "-{:#x}", t.unsigned_abs());
            } else {
                let _ = write!(out, "{t:#x}");
            }
        }
        Operand::Target(t) if matches!(slot, Slot::AbsTarget(_)) => {
            let _ = write!(out, "{t:#x}");
        }
        Operand::Target(t) => {
            let target = address as i64 + 16 + t;
            if target < 0 {
                let _ = write!(out, "-{:#x}", target.unsigned_abs());
            } else {
                let _ = write!(out, "{target:#x}");
            }
        }
    }
}

/// A floating-point immediate as `nvdisasm` prints it: C's `%.20g` of the
/// value (`1`, `-0.052303962409496307373`, `5.9604644775390625e-08`) below
/// 1e9 in magnitude, `%.20e` from 1e9 on (`1.00000000000000000000e+09`;
/// 999999936 still prints as `999999936`), and the spellings of
/// [`SPECIAL_FLOATS`] (`+INF `, with a trailing space). Every NaN prints
/// as its sign and `QNAN ` or `SNAN ` (the quiet bit: 22 of an f32, 19 of
/// an f64's high half), whatever its payload (measured with nvdisasm 13.5
/// on FADD and DFMA immediates: 0x7fc00000 and 0x7fffffff are both
/// `+QNAN `, 0x7f800001 and 0x7fbfffff `+SNAN `), so the text of a NaN
/// other than [`SPECIAL_FLOATS`]' does not read back as the same bits
/// ([`float_printable`] says which do).
pub fn float_text(bits: u32, high_half_of_f64: bool) -> String {
    if let Some((_, _, text)) = SPECIAL_FLOATS.iter().find(|(b, f, _)| *b == bits && *f == high_half_of_f64) {
        return (*text).to_string();
    }
    let v = float_value(bits, high_half_of_f64);
    if v.is_nan() {
        let quiet = bits & (1 << if high_half_of_f64 { 19 } else { 22 }) != 0;
        let sign = if bits >> 31 != 0 { '-' } else { '+' };
        return format!("{sign}{} ", if quiet { "QNAN" } else { "SNAN" });
    }
    if v.abs() >= 1e9 { c_format_e(v, 20) } else { c_format_g(v, 20) }
}

/// Immediates `nvdisasm` spells by name: (bits, high half of an f64, text).
/// NaNs print as `+QNAN ` / `-QNAN ` / `+SNAN ` / `-SNAN ` whatever their
/// payload, so only the payloads ptxas emits are representable.
pub const SPECIAL_FLOATS: &[(u32, bool, &str)] = &[
    (0x7f80_0000, false, "+INF "),
    (0xff80_0000, false, "-INF "),
    (0x8000_0000, false, "-0.0 "),
    // `FSEL R12, R2, +QNAN , !P0` and `MUFU.RSQ R0, -QNAN` (corpus).
    (0x7fff_ffff, false, "+QNAN "),
    (0xffc0_0000, false, "-QNAN "),
    (0x7ff0_0000, true, "+INF "),
    (0xfff0_0000, true, "-INF "),
    (0x8000_0000, true, "-0.0 "),
];

fn float_value(bits: u32, high_half_of_f64: bool) -> f64 {
    if high_half_of_f64 { f64::from_bits(u64::from(bits) << 32) } else { f64::from(f32::from_bits(bits)) }
}

/// Whether [`float_text`]'s spelling of the value reads back as the same
/// bits (every value but the NaNs outside [`SPECIAL_FLOATS`]; checked
/// without formatting it). Selection makes immediates only of these, and a
/// listing prints an instruction with another NaN as `.raw`.
pub fn float_printable(bits: u32, high_half_of_f64: bool) -> bool {
    float_value(bits, high_half_of_f64).is_finite() || SPECIAL_FLOATS.iter().any(|(b, f, _)| *b == bits && *f == high_half_of_f64)
}

/// C's `%.{precision}e` of a finite value (`1.00000000000000000000e+09`).
fn c_format_e(v: f64, precision: usize) -> String {
    let sci = format!("{:.*e}", precision, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    format!("{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
}

/// A pair of `f16` immediates as `nvdisasm` prints them: high half, `", "`,
/// low half, each as `%.20g`, or `-0.0 `, `+INF `, `-INF `, and a NaN as its
/// sign and `QNAN ` or `SNAN ` by its quiet bit (9), whatever its payload
/// (nvdisasm 13.5 on HMUL2 immediates, sm_89: 0x7e00 and 0x7fff `+QNAN `,
/// 0x7c01, 0x7d00 `+SNAN `, 0xfceb, 0xfdff `-SNAN `; ptxas's sm_89 code for
/// a generated program has `HMUL2 R19, R42.H0_H0, -SNAN , -SNAN `). Only
/// 0x7fff, the NaN ptxas writes for `+QNAN` (sm_120's `HFMA2 R15, -RZ, RZ,
/// 0, +QNAN `), reads back from the text ([`half2_printable`]).
pub fn half2_text(bits: u32) -> Option<String> {
    Some(format!("{}, {}", half_text((bits >> 16) as u16), half_text(bits as u16)))
}

/// nvdisasm's spelling of one `f16` immediate (a half of [`Slot::Half2`],
/// or [`Slot::Half`]): specials by name with a trailing space, NaNs by
/// sign and quiet bit.
pub fn half_text(h: u16) -> String {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let mant = f64::from(h & 0x3ff);
    match (h, exp) {
        (0x8000, _) => "-0.0 ".into(),
        (0x7c00, _) => "+INF ".into(),
        (0xfc00, _) => "-INF ".into(),
        (_, 31) => format!("{}{} ", if h & 0x8000 != 0 { '-' } else { '+' }, if h & 0x200 != 0 { "QNAN" } else { "SNAN" }),
        (_, 0) => c_format_g(sign * mant * 2f64.powi(-24), 20),
        (_, e) => c_format_g(sign * (1.0 + mant / 1024.0) * 2f64.powi(i32::from(e) - 15), 20),
    }
}

/// Whether [`half2_text`]'s spelling of the pair reads back as the same
/// bits (no NaN but 0x7fff).
pub(super) fn half2_printable(bits: u32) -> bool {
    let ok = |h: u32| (h >> 10) & 0x1f != 31 || h & 0x3ff == 0 || h == 0x7fff;
    ok(bits & 0xffff) && ok(bits >> 16 & 0xffff)
}

/// C's `%.{precision}g` of a finite value.
fn c_format_g(v: f64, precision: usize) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // `{:.*e}` rounds to `precision` significant digits exactly as printf does.
    let sci = format!("{:.*e}", precision - 1, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s.to_string() }
    };
    if exp < -4 || exp >= precision as i32 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.unsigned_abs())
    } else {
        let decimals = (precision as i32 - 1 - exp).max(0) as usize;
        trim(&format!("{v:.decimals$}"))
    }
}

/// `nvdisasm`'s name of a special register on an SM (survey, Appendix B,
/// and [`super::table::SPECIAL_REGISTERS_BY_SM`]); unnamed numbers print as `SR<n>`.
pub fn special_register_name(n: u8, sm: Sm) -> String {
    table_special_register_name(n, sm).map_or_else(|| format!("SR{n}"), str::to_string)
}

/// The name a table gives special register `n` on `sm`, if any.
fn table_special_register_name(n: u8, sm: Sm) -> Option<&'static str> {
    let table_sm = measured_sm(sm).unwrap_or(sm.number);
    let changed = super::table::SPECIAL_REGISTERS_BY_SM.iter().find(|(k, (lo, hi), _)| *k == n && (*lo..=*hi).contains(&table_sm));
    changed.map(|(_, _, name)| *name).or_else(|| super::table::SPECIAL_REGISTERS.iter().find(|(k, _)| *k == n).map(|(_, name)| *name))
}

/// Whether `name` is how special register `n` prints on `sm` (without
/// building the text).
fn special_register_named(n: u8, sm: Sm, name: &str) -> bool {
    match table_special_register_name(n, sm) {
        Some(t) => t == name,
        None => name.strip_prefix("SR").is_some_and(|d| d.parse::<u8>().ok() == Some(n) && d == n.to_string()),
    }
}

/// The number of a special register by its name on an SM (`SR<n>` included).
pub fn special_register_number(name: &str, sm: Sm) -> Option<u8> {
    // Only the numbers some table spells `name` (or `SR<n>`) can qualify;
    // each is confirmed against the name the SM gives it (a number renamed
    // on this SM no longer answers to its common name).
    let by_sm = super::table::SPECIAL_REGISTERS_BY_SM.iter().filter(|(_, _, n)| *n == name).map(|(k, _, _)| *k);
    let common = super::table::SPECIAL_REGISTERS.iter().filter(|(_, n)| *n == name).map(|(k, _)| *k);
    let numbered = name.strip_prefix("SR").and_then(|d| d.parse::<u8>().ok());
    by_sm.chain(common).chain(numbered).filter(|&k| special_register_named(k, sm, name)).min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    fn round_trip(lo: u64, hi: u64, sm: u16, text: &str) -> Inst {
        let word = join(lo, hi);
        let inst = Inst::decode(word, Sm::new(sm)).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(inst.text(Sm::new(sm), 0), text);
        assert_eq!(inst.encode(Sm::new(sm)), Ok(word), "{text}");
        inst
    }

    /// Instructions are copied through every stage of the compiler: keep
    /// them small (their operands' sizes: `ptx2sass-shared`'s operand tests).
    #[test]
    fn instructions_stay_small() {
        assert!(std::mem::size_of::<Inst>() <= 168, "Inst is {} bytes", std::mem::size_of::<Inst>());
    }

    #[test]
    fn ptxas_words_print_as_nvdisasm_does() {
        // Words and texts from ptxas / nvdisasm 13.5 (survey tables and corpus).
        round_trip(0x0000000004047210, 0x004fc80007ffe005, 80, "IADD3 R4, R4, R0, R5 ;");
        round_trip(0xffffffe80900780c, 0x000fe40003f62270, 80, "ISETP.EQ.AND P3, PT, R9, -0x18, PT ;");
        round_trip(0x0000000600051c07, 0x000fca000c000000, 80, "@P1 SEL R5, R0, UR6, !P0 ;");
        round_trip(0x00000018ff037819, 0x000fc80000011603, 80, "SHF.R.U32.HI R3, RZ, 0x18, R3 ;");
        round_trip(0x0000000000007918, 0x000fc00000000000, 80, "NOP;");
        round_trip(0x0000000000007919, 0x000e280000002500, 80, "S2R R0, SR_CTAID.X ;");
        let x = round_trip(0x80000009ff027210, 0x000fe200007fe4ff, 80, "IADD3.X R2, RZ, ~R9, RZ, P0, !PT ;");
        round_trip(0x3f80000006070421, 0x001fca0000000100, 80, "@P0 FADD R7, -R6, 1 ;");
        round_trip(0x000000ffff077224, 0x000fc600078e00ff, 80, "IMAD.MOV.U32 R7, RZ, RZ, RZ ;");
        // `/*00e0*/ @!P0 BRA 0x110 ;` (survey §5.1): the target is absolute.
        let bra = round_trip(0x0000002000008947, 0x000fea0003800000, 80, "@!P0 BRA 0x30 ;");
        assert_eq!(bra.text(Sm::new(80), 0xe0), "@!P0 BRA 0x110 ;");
        // sm_120: convergence modifiers of BSSY in bits 72-73 (survey §4.1).
        let bssy = round_trip(0x0000009000007945, 0x000fe20003800200, 120, "BSSY.RECONVERGENT B0, 0xa0 ;");
        assert_eq!(bssy.text(Sm::new(120), 0xd0), "BSSY.RECONVERGENT B0, 0x170 ;");
        round_trip(0x0000460000047ab9, 0x000fd20000000a00, 80, "ULDC.64 UR4, c[0x0][0x118] ;");
        assert!(matches!(x.operands[4], Operand::Reg { mods: SrcMods { not: true, .. }, .. }));
    }

    #[test]
    fn float_immediates_print_as_c_does() {
        // Texts nvdisasm printed for corpus immediates (survey §5.4).
        for v in [1.0f32, -1.0, 0.70710676908493041992, 2.8853900432586669922, -12583039.0, 1.469367938527859385e-39, -0.00076476467074826359749, 5.9604644775390625e-08] {
            let expected = match v {
                1.0 => "1",
                -1.0 => "-1",
                -12583039.0 => "-12583039",
                _ if v == 0.70710676908493041992 => "0.70710676908493041992",
                _ if v == 2.8853900432586669922 => "2.8853900432586669922",
                _ if v == 1.469367938527859385e-39 => "1.469367938527859385e-39",
                _ if v == -0.00076476467074826359749 => "-0.00076476467074826359749",
                _ => "5.9604644775390625e-08",
            };
            assert_eq!(float_text(v.to_bits(), false), expected);
        }
        // DFMA's `1` and `-3`: the high half of an f64.
        assert_eq!(float_text(0x3ff00000, true), "1");
        assert_eq!(float_text(0xc0080000, true), "-3");
        // From 1e9 on, `%.20e`; specials by name; NaNs by sign and quiet bit
        // (nvdisasm 13.5 on FADD and DFMA immediates).
        assert_eq!(float_text(999999936f32.to_bits(), false), "999999936");
        assert_eq!(float_text(1e9f32.to_bits(), false), "1.00000000000000000000e+09");
        assert_eq!(float_text(1e-45f32.to_bits(), false), "1.4012984643248170709e-45");
        assert_eq!(float_text(0x4690_0000, true), "8.11296384146066816958e+31");
        assert_eq!(float_text(f32::INFINITY.to_bits(), false), "+INF ");
        assert_eq!(float_text(0x7fc0_0000, false), "+QNAN ");
        assert_eq!(float_text(0x7fbf_ffff, false), "+SNAN ");
        assert_eq!(float_text(0xffc0_0001, false), "-QNAN ");
        assert_eq!(float_text(0xff80_0001, false), "-SNAN ");
        assert_eq!(float_text(0x7ff8_0000, true), "+QNAN ");
        assert_eq!(float_text(0x7ff0_0001, true), "+SNAN ");
        assert!(!float_printable(0x7fc0_0000, false) && float_printable(0x7fff_ffff, false));
    }

    #[test]
    fn decodes_half_nan_immediates() {
        // ptxas 13.5's sm_89 word for a generated program's `mul.f16x2` by
        // a NaN pair (seed 9103895), and nvdisasm's text of NaN halves by
        // sign and quiet bit 9 (HMUL2 immediates on SM89).
        let word = join(0xfcebfceb2a137832, 0x000fe40000000800);
        let inst = Inst::decode(word, Sm::new(89)).unwrap();
        assert_eq!(inst.text(Sm::new(89), 0), "HMUL2 R19, R42.H0_H0, -SNAN , -SNAN  ;");
        assert_eq!(inst.encode(Sm::new(89)), Ok(word));
        assert!(!inst.text_reads_back(), "the text loses the payload");
        assert_eq!(half2_text(0x7c01_7e00).unwrap(), "+SNAN , +QNAN ");
        assert_eq!(half2_text(0x7fff_fdff).unwrap(), "+QNAN , -SNAN ");
        assert!(half2_printable(0x7fff_3c00) && !half2_printable(0x7e00_3c00));
    }

    #[test]
    fn unexplained_bits_do_not_decode() {
        // `IADD3 R4, R4, R0, R5` with bit 100 set: no form explains it.
        let word = join(0x0000000004047210, 0x004fc80007ffe005 | 1 << 36);
        assert_eq!(Inst::decode(word, Sm::new(80)), Err(DecodeError::Unknown));
        assert_eq!(Inst::decode(join(0x0000000004047210, 0x004fc80007ffe005), Sm::new(61)), Err(DecodeError::UnsupportedSm));
    }

    #[test]
    fn encoding_checks_operands() {
        let mut inst = Inst::decode(join(0x0000000004047210, 0x004fc80007ffe005), Sm::new(80)).unwrap();
        inst.operands[0] = Operand::reg(Reg { file: RegFile::Gpr, num: RegNum::virt(3) });
        assert!(inst.encode(Sm::new(80)).unwrap_err().0.contains("not an allocated general register"));
        inst.operands[0] = Operand::Imm(1);
        assert!(inst.encode(Sm::new(80)).is_err());
        let ok = Inst::decode(join(0x0000000004047210, 0x004fc80007ffe005), Sm::new(80)).unwrap();
        assert!(ok.encode(Sm::new(100)).is_err(), "the sm_80 form does not exist on sm_100");
    }
}
