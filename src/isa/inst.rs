//! Machine instructions: the model ([`Inst`]), and decoding, encoding and
//! printing derived from the form table ([`super::table`]).
//!
//! An instruction is its [`Form`], the value of each of the form's modifier
//! fields, one operand per slot, a guard predicate and the control fields.
//! The printed text is `nvdisasm`'s, byte for byte (checked on every corpus
//! word the table covers by `tests/isa_corpus.rs`).

use super::bits::Field;
use super::branch;
use super::ctrl::Ctrl;
use super::family::measured_sm;
use super::form::{AliasWhen, CBANK_BANK, CBANK_OFFSET, Form, IMM32, PredShow, Slot, UNIFORM_B_FLAG, UNMEASURED};
use super::operand::{Operand, Reg, RegFile, RegNum, SrcMods};
use super::table::forms;
use crate::target::Sm;
use std::fmt::Write as _;

const GUARD: Field = Field::bits(12, 14);
const GUARD_NOT: u8 = 15;

/// The modifier values of an instruction (inline: no allocation to decode).
pub type ModValues = smallvec::SmallVec<[u8; 6]>;

/// The operands of an instruction (inline up to seven).
pub type InstOperands = smallvec::SmallVec<[Operand; 7]>;

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

fn bit(word: u128, b: Option<u8>) -> bool {
    b.is_some_and(|b| word >> b & 1 == 1)
}

fn pred_reg(file: RegFile, v: u64) -> Reg {
    if v == 7 { Reg::zero(file) } else { Reg { file, num: RegNum::Phys(v as u8) } }
}

/// The uniform register a field value names (all ones = URZ).
fn uniform_reg(field: Field, v: u64) -> Reg {
    if v == field.max() { Reg::zero(RegFile::Uniform) } else { Reg { file: RegFile::Uniform, num: RegNum::Phys(v as u8) } }
}

/// The field value of a general register (RZ is 255), if it is allocated.
fn gpr_num(reg: Reg) -> Option<u64> {
    match (reg.file, reg.num) {
        (RegFile::Gpr, RegNum::Zero) => Some(255),
        (RegFile::Gpr, RegNum::Phys(n)) if n < 255 => Some(n.into()),
        _ => None,
    }
}

/// The field value of a uniform register, if it is one the field can hold.
fn uniform_num(field: Field, reg: Reg) -> Option<u64> {
    match (reg.file, reg.num) {
        (RegFile::Uniform, RegNum::Zero) => Some(field.max()),
        (RegFile::Uniform, RegNum::Phys(n)) if u64::from(n) < field.max() => Some(n.into()),
        _ => None,
    }
}

/// The indices (into [`forms`]) and bit masks of the forms with an opcode
/// value, in table order: decoding looks at a handful of forms, and rejects
/// most by their mask, instead of walking the whole table.
fn forms_with_opcode(opcode: u16) -> &'static [(usize, u128)] {
    static INDEX: std::sync::OnceLock<Vec<Vec<(usize, u128)>>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut v = vec![Vec::new(); 1 << 12];
        for (k, f) in forms().iter().enumerate() {
            v[usize::from(f.opcode & 0xfff)].push((k, f.mask()));
        }
        v
    });
    &index[usize::from(opcode & 0xfff)]
}

/// Whether the text of these operands says everything about them:
/// * optional predicates print only when not PT, so a shown one after a
///   hidden one would read back into the wrong slot (and what nvdisasm
///   prints then is not measured);
/// * a 32-bit absolute address (`[0x10]`) prints no base, so its base
///   scale must be zero.
fn representable(form: &Form, operands: &[Operand]) -> bool {
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
            (Slot::Addr { wide: false, .. }, Operand::Mem { base, offset, scale, .. }) => {
                if base.num == RegNum::Zero && *offset != 0 && *scale != 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Decodes a word with a given form, if the form explains it.
/// (The caller has checked that the form's mask covers the word.)
fn decode_with(form: &'static Form, word: u128) -> Option<Inst> {
    if form.fixed.iter().any(|(f, v)| f.get(word) != *v) {
        return None;
    }
    let mut mods = ModValues::new();
    for m in form.mods {
        let v = m.get(word) as usize;
        if v >= m.names.len() || m.names[v] == UNMEASURED {
            return None;
        }
        mods.push(v as u8);
    }
    let ctrl = Ctrl::decode(word);
    let mut reuse_used = 0u8;
    let mut operands = InstOperands::new();
    for slot in form.slots {
        operands.push(match *slot {
            Slot::Gpr { field, neg, abs, not, reuse } => {
                let v = field.get(word);
                let reg = if v == 255 { Reg::zero(RegFile::Gpr) } else { Reg::gpr(v as u8) };
                let r = reuse.is_some_and(|k| ctrl.reuse >> k & 1 == 1);
                if let (true, Some(k)) = (r, reuse) {
                    reuse_used |= 1 << k;
                }
                let mods = SrcMods { neg: bit(word, neg), abs: bit(word, abs), not: bit(word, not) };
                Operand::Reg { reg, mods, reuse: r }
            }
            Slot::Ur { field, neg, not } => {
                let reg = uniform_reg(field, field.get(word));
                Operand::Reg { reg, mods: SrcMods { neg: bit(word, neg), abs: false, not: bit(word, not) }, reuse: false }
            }
            Slot::UniformB { field, neg, not } => {
                if word >> UNIFORM_B_FLAG & 1 == 0 {
                    return None;
                }
                let reg = uniform_reg(field, field.get(word));
                Operand::Reg { reg, mods: SrcMods { neg: bit(word, neg), abs: false, not: bit(word, not) }, reuse: false }
            }
            Slot::Barrier(field) => {
                Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(field.get(word) as u8) }, mods: SrcMods::default(), reuse: false }
            }
            Slot::Pred { field, not, .. } => {
                let reg = pred_reg(RegFile::Pred, field.get(word));
                Operand::Reg { reg, mods: SrcMods { not: bit(word, not), ..SrcMods::default() }, reuse: false }
            }
            Slot::Imm32 { .. } => Operand::Imm(IMM32.get(word) as u32),
            Slot::LoadBank { offset } => Operand::CBank {
                bank: CBANK_BANK.get(word) as u8,
                offset: offset.get(word) as u16,
                mods: SrcMods::default(),
            },
            Slot::CBank { neg, abs, not } => Operand::CBank {
                bank: CBANK_BANK.get(word) as u8,
                offset: CBANK_OFFSET.get(word) as u16,
                mods: SrcMods { neg: bit(word, neg), abs: bit(word, abs), not: bit(word, not) },
            },
            Slot::Hex(field) => Operand::Hex(field.get(word) as u32),
            Slot::Float { f64 } => {
                let bits = IMM32.get(word) as u32;
                // Only values nvdisasm is known to print as `%.20g` decode.
                float_text(bits, f64)?;
                Operand::Imm(bits)
            }
            Slot::Half2 => {
                let bits = IMM32.get(word) as u32;
                half2_text(bits)?;
                Operand::Imm(bits)
            }
            Slot::Target(layout) => Operand::Target(branch::decode(word, layout)),
            Slot::Addr { base, offset, scale, desc, .. } => {
                let b = base.get(word);
                Operand::Mem {
                    base: if b == 255 { Reg::zero(RegFile::Gpr) } else { Reg::gpr(b as u8) },
                    offset: offset.get_signed(word) as i32,
                    scale: scale.map_or(0, |f| f.get(word) as u8),
                    desc: desc.map(|f| uniform_reg(f, f.get(word))),
                }
            }
            Slot::SpecialReg(field) => Operand::SpecialReg(field.get(word) as u8),
        });
    }
    if !representable(form, &operands) {
        return None;
    }
    // Reuse flags only on operands that have them, and only where nvdisasm shows
    // them (bit 109 set); anything else is not representable in the text.
    if ctrl.reuse != reuse_used || (ctrl.reuse != 0 && !ctrl.yield_bit) {
        return None;
    }
    // The `;` spacing rule of sm_89+ also looks at bits 102–103, which no form
    // explains, so they are zero here.
    let guard = (pred_reg(RegFile::Pred, GUARD.get(word)), word >> GUARD_NOT & 1 == 1);
    Some(Inst { form, guard, mods, operands, ctrl })
}

impl Inst {
    /// Decodes an instruction word for an SM.
    pub fn decode(word: u128, sm: Sm) -> Result<Inst, DecodeError> {
        let table_sm = measured_sm(sm).ok_or(DecodeError::UnsupportedSm)?;
        let opcode = Field::bits(0, 11).get(word) as u16;
        forms_with_opcode(opcode)
            .iter()
            .filter(|&&(k, mask)| word & !mask == 0 && forms()[k].applies_to(table_sm))
            .find_map(|&(k, _)| decode_with(&forms()[k], word))
            .ok_or(DecodeError::Unknown)
    }

    /// Encodes the instruction for an SM.
    pub fn encode(&self, sm: Sm) -> Result<u128, EncodeError> {
        let err = |m: String| EncodeError(format!("{}: {m}", self.form.name));
        let form = self.form;
        let table_sm = measured_sm(sm).ok_or_else(|| err(format!("no encoding tables for {sm}")))?;
        if !form.applies_to(table_sm) {
            return Err(err(format!("this form does not exist on {sm}")));
        }
        if self.mods.len() != form.mods.len() || self.operands.len() != form.slots.len() {
            return Err(err("modifier or operand count does not match the form".into()));
        }
        if !representable(form, &self.operands) {
            return Err(err("these operands have no text that reads back to them (a predicate after a hidden PT, or a scaled absolute address)".into()));
        }
        let set = |w: u128, f: Field, v: u64, what: &str| f.set(w, v).ok_or_else(|| err(format!("{what} {v} does not fit")));
        let set_bit = |w: u128, b: Option<u8>, on: bool, what: &str| -> Result<u128, EncodeError> {
            match (b, on) {
                (_, false) => Ok(w),
                (Some(b), true) => Ok(w | 1u128 << b),
                (None, true) => Err(err(format!("{what} is not available on this operand"))),
            }
        };
        let pred_num = |r: Reg| -> Result<u64, EncodeError> {
            match (r.file, r.num) {
                (RegFile::Pred, RegNum::Zero) => Ok(7),
                (RegFile::Pred, RegNum::Phys(n)) if n < 7 => Ok(n.into()),
                _ => Err(err(format!("{r} is not a predicate register"))),
            }
        };
        let mut w = set(0, Field::bits(0, 11), form.opcode.into(), "opcode")?;
        w = set(w, GUARD, pred_num(self.guard.0)?, "guard")?;
        w = set_bit(w, Some(GUARD_NOT), self.guard.1, "guard negation")?;
        for (f, v) in form.fixed {
            w = set(w, *f, *v, "fixed field")?;
        }
        for (m, v) in form.mods.iter().zip(&self.mods) {
            if usize::from(*v) >= m.names.len() {
                return Err(err(format!("modifier value {v} has no spelling")));
            }
            w = m.set(w, (*v).into()).ok_or_else(|| err(format!("modifier value {v} does not fit")))?;
        }
        let mut reuse = 0u8;
        for (slot, op) in form.slots.iter().zip(&self.operands) {
            w = match (*slot, *op) {
                (Slot::Gpr { field, neg, abs, not, reuse: r }, Operand::Reg { reg, mods, reuse: used }) => {
                    let n = gpr_num(reg).ok_or_else(|| err(format!("{reg} is not an allocated general register")))?;
                    if used {
                        reuse |= 1 << r.ok_or_else(|| err("this operand has no reuse flag".into()))?;
                    }
                    let w = set(w, field, n, "register")?;
                    let w = set_bit(w, neg, mods.neg, "negation")?;
                    let w = set_bit(w, abs, mods.abs, "absolute value")?;
                    set_bit(w, not, mods.not, "bitwise not")?
                }
                (Slot::Ur { field, neg, not }, Operand::Reg { reg, mods, reuse: false }) => {
                    let n = uniform_num(field, reg).ok_or_else(|| err(format!("{reg} is not an allocated uniform register")))?;
                    let w = set(w, field, n, "uniform register")?;
                    let w = set_bit(w, neg, mods.neg, "negation")?;
                    set_bit(w, not, mods.not, "bitwise not")?
                }
                (Slot::UniformB { field, neg, not }, Operand::Reg { reg, mods, reuse: false }) => {
                    let n = uniform_num(field, reg).ok_or_else(|| err(format!("{reg} is not an allocated uniform register")))?;
                    let w = set(w, field, n, "uniform register")? | 1u128 << UNIFORM_B_FLAG;
                    let w = set_bit(w, neg, mods.neg, "negation")?;
                    set_bit(w, not, mods.not, "bitwise not")?
                }
                (Slot::Barrier(field), Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(n) }, reuse: false, .. }) => {
                    set(w, field, n.into(), "barrier register")?
                }
                (Slot::Pred { field, not, .. }, Operand::Reg { reg, mods, reuse: false }) => {
                    let w = set(w, field, pred_num(reg)?, "predicate")?;
                    set_bit(w, not, mods.not, "predicate negation")?
                }
                (Slot::Imm32 { .. }, Operand::Imm(v)) => set(w, IMM32, v.into(), "immediate")?,
                (Slot::LoadBank { offset: field }, Operand::CBank { bank, offset, mods }) if mods == SrcMods::default() => {
                    let w = set(w, CBANK_BANK, bank.into(), "constant bank")?;
                    set(w, field, offset.into(), "constant offset")?
                }
                (Slot::CBank { neg, abs, not }, Operand::CBank { bank, offset, mods }) => {
                    let w = set(w, CBANK_BANK, bank.into(), "constant bank")?;
                    let w = set(w, CBANK_OFFSET, offset.into(), "constant offset")?;
                    let w = set_bit(w, neg, mods.neg, "negation")?;
                    let w = set_bit(w, abs, mods.abs, "absolute value")?;
                    set_bit(w, not, mods.not, "bitwise not")?
                }
                (Slot::Hex(field), Operand::Hex(v)) => set(w, field, v.into(), "constant")?,
                (Slot::Float { .. } | Slot::Half2, Operand::Imm(v)) => set(w, IMM32, v.into(), "immediate")?,
                (Slot::Addr { base: bf, offset: of, scale: sf, desc: df, .. }, Operand::Mem { base, offset, scale, desc }) => {
                    let b = gpr_num(base).ok_or_else(|| err(format!("{base} is not an allocated general register")))?;
                    let w = set(w, bf, b, "address register")?;
                    let w = of.set_signed(w, offset.into()).ok_or_else(|| err(format!("address offset {offset} does not fit")))?;
                    let w = match sf {
                        Some(f) => set(w, f, scale.into(), "address scale")?,
                        None if scale == 0 => w,
                        None => return Err(err("this address has no scale".into())),
                    };
                    match (df, desc) {
                        (Some(f), Some(r)) => {
                            let n = uniform_num(f, r).ok_or_else(|| err(format!("{r} is not a uniform register")))?;
                            set(w, f, n, "descriptor register")?
                        }
                        (None, None) => w,
                        _ => return Err(err("descriptor register does not match the form".into())),
                    }
                }
                (Slot::Target(layout), Operand::Target(t)) => {
                    branch::encode(w, layout, t).ok_or_else(|| err(format!("branch offset {t} does not fit")))?
                }
                (Slot::SpecialReg(field), Operand::SpecialReg(v)) => set(w, field, v.into(), "special register")?,
                (slot, op) => return Err(err(format!("operand {op:?} does not fit slot {slot:?}"))),
            };
        }
        if self.ctrl.reuse != reuse {
            return Err(err("reuse flags in the control fields differ from the operands' .reuse".into()));
        }
        self.ctrl.encode(w).map_err(|e| err(e.0))
    }

    /// The instruction at `address` as `nvdisasm -b` prints it for `sm`
    /// (without address or control prefix; branch targets are absolute).
    pub fn text(&self, sm: Sm, address: u64) -> String {
        let mut out = String::new();
        let (g, neg) = self.guard;
        if g.num != RegNum::Zero || neg {
            // Uniform-datapath instructions are guarded by uniform predicates.
            let g = if self.form.uniform_guard { Reg { file: RegFile::UniformPred, ..g } } else { g };
            let _ = write!(out, "@{}{} ", if neg { "!" } else { "" }, g);
        }
        out.push_str(self.printed_name());
        for (m, v) in self.form.mods.iter().zip(&self.mods) {
            out.push_str(m.names[usize::from(*v)]);
        }
        out.push_str(self.form.suffix);
        let mut first = true;
        for (slot, op) in self.form.slots.iter().zip(&self.operands) {
            if let (Slot::Pred { show: PredShow::UnlessTrue, .. }, Operand::Reg { reg, mods, .. }) = (slot, op) {
                if reg.num == RegNum::Zero && !mods.not {
                    continue;
                }
            }
            out.push_str(if first { " " } else { ", " });
            first = false;
            write_operand(&mut out, slot, op, sm, address);
        }
        out.push_str(if self.ctrl.stall == 0 && self.ctrl.wait == 0 { ";" } else { " ;" });
        out
    }
}

impl Inst {
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

fn write_operand(out: &mut String, slot: &Slot, op: &Operand, sm: Sm, address: u64) {
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
            Slot::Float { f64 } => out.push_str(&float_text(v, *f64).unwrap_or_default()),
            Slot::Half2 => out.push_str(&half2_text(v).unwrap_or_default()),
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
            let text = match (slot, offset) {
                (Slot::LoadBank { .. }, 0) => format!("c[{bank:#x}][RZ]"),
                _ => format!("c[{bank:#x}][{offset:#x}]"),
            };
            if mods.abs {
                let _ = write!(out, "|{text}|");
            } else {
                out.push_str(&text);
            }
        }
        Operand::SpecialReg(n) => out.push_str(&special_register_name(n, sm)),
        Operand::Hex(v) => {
            let _ = write!(out, "{v:#x}");
        }
        Operand::Mem { base, offset, scale, desc } => {
            if let (Slot::Addr { show_desc: true, .. }, Some(d)) = (slot, desc) {
                let _ = write!(out, "desc[{d}]");
            }
            out.push('[');
            // A 64-bit base always prints (`[RZ.64+0x600]`); a 32-bit RZ base
            // prints only without offset (`[RZ]`, but `[0x10]`).
            let wide = matches!(slot, Slot::Addr { wide: true, .. });
            let zero_base = base.num == RegNum::Zero && !wide;
            if !zero_base || offset == 0 {
                let _ = write!(out, "{base}");
                if wide {
                    out.push_str(".64");
                }
                out.push_str(["", ".X4", ".X8", ".X16"][usize::from(scale & 3)]);
            }
            match (zero_base, offset) {
                (_, 0) => {}
                // An absolute address prints as the unsigned 24-bit field (`[0xfff140]`).
                (true, o) => {
                    let _ = write!(out, "{:#x}", (o as u32) & 0xff_ffff);
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
/// value (`1`, `-0.052303962409496307373`, `5.9604644775390625e-08`), or
/// `None` where its format is not known yet: magnitudes of 1.23e8 and above
/// (nvdisasm switches to `%.20e` somewhere below 1e9), infinities and NaNs
/// (survey §5.4).
pub fn float_text(bits: u32, high_half_of_f64: bool) -> Option<String> {
    let v = if high_half_of_f64 { f64::from_bits(u64::from(bits) << 32) } else { f64::from(f32::from_bits(bits)) };
    // Negative zero: the f16 pair prints it as `-0.0 `; unmeasured here.
    if !v.is_finite() || v.abs() >= 1.23e8 || (v == 0.0 && v.is_sign_negative()) {
        return None;
    }
    Some(c_format_g(v, 20))
}

/// A pair of `f16` immediates as `nvdisasm` prints them: high half, `", "`,
/// low half, each as `%.20g` (`0, 2.384185791015625e-07`); `None` for
/// infinities and NaNs (not measured).
pub fn half2_text(bits: u32) -> Option<String> {
    let half = |h: u16| -> Option<String> {
        let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exp = (h >> 10) & 0x1f;
        let mant = f64::from(h & 0x3ff);
        if h == 0x8000 {
            // nvdisasm prints -0 as `-0.0 ` (trailing space): not modelled yet.
            return None;
        }
        let v = match exp {
            0 => sign * mant * 2f64.powi(-24),
            31 => return None,
            e => sign * (1.0 + mant / 1024.0) * 2f64.powi(i32::from(e) - 15),
        };
        Some(c_format_g(v, 20))
    };
    Some(format!("{}, {}", half((bits >> 16) as u16)?, half(bits as u16)?))
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

/// `nvdisasm`'s name of a special register on an SM (survey, Appendix B);
/// unnamed numbers print as `SR<n>`.
pub fn special_register_name(n: u8, sm: Sm) -> String {
    let newer: &[(u8, &str)] = if sm.number >= 90 { super::table::SPECIAL_REGISTERS_SM90 } else { &[] };
    super::table::SPECIAL_REGISTERS
        .iter()
        .chain(newer)
        .find(|(k, _)| *k == n)
        .map_or_else(|| format!("SR{n}"), |(_, name)| (*name).to_string())
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
            assert_eq!(float_text(v.to_bits(), false).as_deref(), Some(expected));
        }
        // DFMA's `1` and `-3`: the high half of an f64.
        assert_eq!(float_text(0x3ff00000, true).as_deref(), Some("1"));
        assert_eq!(float_text(0xc0080000, true).as_deref(), Some("-3"));
        // Formats not measured yet are refused, not guessed.
        assert_eq!(float_text(1e9f32.to_bits(), false), None);
        assert_eq!(float_text(f32::NAN.to_bits(), false), None);
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
        inst.operands[0] = Operand::reg(Reg { file: RegFile::Gpr, num: RegNum::Virt(3) });
        assert!(inst.encode(Sm::new(80)).unwrap_err().0.contains("not an allocated general register"));
        inst.operands[0] = Operand::Imm(1);
        assert!(inst.encode(Sm::new(80)).is_err());
        let ok = Inst::decode(join(0x0000000004047210, 0x004fc80007ffe005), Sm::new(80)).unwrap();
        assert!(ok.encode(Sm::new(100)).is_err(), "the sm_80 form does not exist on sm_100");
    }
}
