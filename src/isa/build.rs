//! Building machine instructions by name: the one door through which
//! instruction selection (and anything else that creates code rather than
//! decoding it) makes an [`Inst`].
//!
//! [`Inst::build_op`] takes an opcode and the modifier tokens of its
//! mnemonic (`Op::IADD3, [X]`; `Op::ISETP, [GE, U32, AND]`; `Op::LDG, [E,
//! 64]`), a guard and the operands, and finds the form of the SM's table
//! whose name and modifier spellings are those tokens and whose slots
//! accept the operands' kinds (a register of the right file with modifiers the slot has bits
//! for, an immediate, a constant-bank reference, an address…). The
//! tokens-to-forms step is cached per measured SM, so selecting a function
//! does not re-scan the table for every instruction.
//!
//! Operands are given in printed order, one per slot; optional predicates
//! that print only when not `PT` (IADD3's carry-outs before sm_100) may be
//! left out, and are then `PT`. Registers may be virtual: the form is
//! chosen by kinds, so an instruction on virtual registers becomes
//! encodable once allocation replaces them.

use super::ctrl::Ctrl;
use super::family::{MEASURED_SMS, measured_index};
use super::form::{Form, PredShow, Slot, UNMEASURED};
use super::inst::{Inst, InstOperands, ModValues, float_printable, half2_printable};
use super::operand::{Operand, Reg, RegFile, SrcMods};
use super::inline::Inline;
use super::op::{MAX_TOKENS, Mod, Op, mnemonic_text, parse_mnemonic};
use super::table::forms_of;
use crate::target::Sm;
/// Keys are opcodes with tokens the compiler makes: a fast hasher.
type HashMap<K, V> = std::collections::HashMap<K, V, crate::fxhash::FxBuild>;
use std::fmt;
use std::sync::{OnceLock, RwLock};

/// Why no instruction was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The SM has no encoding tables.
    UnsupportedSm(Sm),
    /// No form of the SM spells this opcode text.
    UnknownName(String),
    /// Forms spell the text, but none takes these operands.
    NoForm {
        /// The opcode text.
        name: String,
        /// The operands, as debug text.
        operands: String,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::UnsupportedSm(sm) => write!(f, "{sm} has no encoding tables"),
            BuildError::UnknownName(n) => write!(f, "no instruction form is spelled '{n}'"),
            BuildError::NoForm { name, operands } => write!(f, "no form of '{name}' takes the operands {operands}"),
        }
    }
}

/// The forms (with the modifier values that spell the tokens) of one
/// opcode and tokens on one measured SM.
type Candidates = Vec<(&'static Form, ModValues)>;

/// An opcode with its tokens, as a cache key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    op: Op,
    len: u8,
    tokens: [u16; MAX_TOKENS],
}

impl Key {
    fn new(op: Op, mods: &[Mod]) -> Option<Key> {
        let mut tokens = [0u16; MAX_TOKENS];
        for (t, m) in tokens.iter_mut().zip(mods) {
            *t = *m as u16;
        }
        (mods.len() <= MAX_TOKENS).then_some(Key { op, len: mods.len() as u8, tokens })
    }
}

/// Per measured SM (index into [`MEASURED_SMS`]): opcode and tokens → candidates.
fn cache() -> &'static [RwLock<HashMap<Key, Candidates>>] {
    static CACHE: OnceLock<Vec<RwLock<HashMap<Key, Candidates>>>> = OnceLock::new();
    CACHE.get_or_init(|| MEASURED_SMS.iter().map(|_| RwLock::new(HashMap::default())).collect())
}

/// The forms of `op` on the measured SM `sm_index` that spell `mods`,
/// with their modifier values.
fn candidates(sm_index: usize, op: Op, mods: &[Mod]) -> Candidates {
    forms_of(sm_index, op).filter_map(|form| Some((form, spell_mods(form, mods.strip_prefix(form.spelling.name)?)?))).collect()
}

/// The modifier values that spell `rest` (the tokens after the form's
/// name) followed by the form's suffix. Every split is tried, as
/// spellings may be prefixes of each other (`.RCP` and `.RCP64H` are not,
/// as tokens, but `.E` and `.E.64` are) or empty.
fn spell_mods(form: &Form, rest: &[Mod]) -> Option<ModValues> {
    fn go(form: &Form, k: usize, rest: &[Mod], values: &mut ModValues) -> bool {
        let (Some(m), Some(spellings)) = (form.mods.get(k), form.spelling.mods.get(k)) else { return rest == form.spelling.suffix };
        for (v, (name, toks)) in m.names.iter().zip(spellings.iter()).enumerate() {
            if *name == UNMEASURED {
                continue;
            }
            let Some(after) = rest.strip_prefix(*toks) else { continue };
            if !values.try_push(v as u8) {
                return false;
            }
            if go(form, k + 1, after, values) {
                return true;
            }
            let _ = values.resize_for_write(k);
        }
        false
    }
    let mut values = ModValues::new();
    (form.mods.len() <= ModValues::CAPACITY && go(form, 0, rest, &mut values)).then_some(values)
}

/// Whether a slot's flag bit allows a modifier.
fn allowed(mods: SrcMods, neg: bool, abs: bool, not: bool) -> bool {
    (!mods.neg || neg) && (!mods.abs || abs) && (!mods.not || not)
}

/// Whether an operand is of a kind the slot encodes. (Matched by
/// reference: both enums are large, and this runs for every candidate
/// form of every instruction selection builds.)
fn fits(slot: &Slot, op: &Operand) -> bool {
    match (slot, op) {
        (Slot::Gpr { neg, abs, not, .. }, Operand::Reg { reg, mods, .. }) => reg.file == RegFile::Gpr && allowed(*mods, neg.is_some(), abs.is_some(), not.is_some()),
        (Slot::Ur { neg, abs, not, .. }, Operand::Reg { reg, mods, .. }) => reg.file == RegFile::Uniform && allowed(*mods, neg.is_some(), abs.is_some(), not.is_some()),
        (Slot::UniformB { neg, abs, not, .. }, Operand::Reg { reg, mods, .. }) => reg.file == RegFile::Uniform && allowed(*mods, neg.is_some(), abs.is_some(), not.is_some()),
        (Slot::Pred { uniform, not, .. }, Operand::Reg { reg, mods, .. }) => {
            reg.file == if *uniform { RegFile::UniformPred } else { RegFile::Pred } && allowed(*mods, false, false, not.is_some())
        }
        (Slot::Barrier(_), Operand::Reg { reg, .. }) => reg.file == RegFile::Barrier,
        (Slot::Imm32 { .. }, Operand::Imm(_)) => true,
        (Slot::Float { f64, .. }, Operand::Imm(v)) => float_printable(*v, *f64),
        (Slot::Half2, Operand::Imm(v)) => half2_printable(*v),
        (Slot::Half, Operand::Imm(v)) => *v >> 16 == 0 && half2_printable(*v),
        (Slot::CBank { neg, abs, not }, Operand::CBank { mods, .. }) => allowed(*mods, neg.is_some(), abs.is_some(), not.is_some()),
        (Slot::LoadBank { uniform, .. }, Operand::ConstAddr { index, .. }) => index.file == if *uniform { RegFile::Uniform } else { RegFile::Gpr },
        (Slot::SpecialReg(_), Operand::SpecialReg(_)) => true,
        (Slot::Text(_) | Slot::NextUr(_) | Slot::Again(_), Operand::Hex(v)) => *v == 0,
        (Slot::Hex(f), Operand::Hex(v)) => u64::from(*v) <= f.max(),
        // All ones is the twin form's (the mask is then not printed).
        (Slot::Mask(f), Operand::Hex(v)) => u64::from(*v) < f.max(),
        (Slot::HexSplit(lo, hi), Operand::Hex(v)) => u64::from(*v) < 1u64 << (lo.width + hi.width),
        (Slot::MaskSplit(lo, hi), Operand::Hex(v)) => u64::from(*v) < (1u64 << (lo.width + hi.width)) - 1,
        (Slot::Imm64(_) | Slot::SImm(_), Operand::Imm64(_)) => true,
        (Slot::Target(_) | Slot::AbsTarget(_) | Slot::RelOffset(_), Operand::Target(_)) => true,
        (Slot::Addr { offset, offset_shift, scale, desc, uniform, .. }, Operand::Mem(m)) => {
            let in_range = match offset {
                Some(offset) => {
                    // A multiple of the field's unit, in range once divided.
                    let (half, v) = (1i64 << (offset.width - 1), i64::from(m.offset()));
                    v & ((1i64 << offset_shift) - 1) == 0 && (-half..half).contains(&(v >> offset_shift))
                }
                None => m.offset() == 0,
            };
            in_range
                && (m.scale() == 0 || scale.is_some())
                && desc.is_some() == m.desc().is_some()
                && uniform.is_some() == m.uniform().is_some()
        }
        _ => false,
    }
}

/// The operands for every slot of `form` from fewer given ones: the
/// optional (shown unless `PT`) predicates set to `PT`, when leaving those
/// out makes the count right ([`choose`] takes one operand per slot as it is).
fn fill_optional(form: &Form, given: &[Operand]) -> Option<InstOperands> {
    if given.len() > InstOperands::CAPACITY {
        return None;
    }
    let optional = form.slots.iter().filter(|s| matches!(s, Slot::Pred { show: PredShow::UnlessTrue, .. })).count();
    if given.len() + optional != form.slots.len() {
        return None;
    }
    let mut it = given.iter();
    let mut out = InstOperands::new();
    for slot in form.slots {
        match slot {
            Slot::Pred { show: PredShow::UnlessTrue, uniform, .. } => {
                out.push(Operand::reg(Reg::zero(if *uniform { RegFile::UniformPred } else { RegFile::Pred })));
            }
            _ => out.push(*it.next()?),
        }
    }
    Some(out)
}

impl Inst {
    /// Builds the instruction of opcode `op` with the modifier tokens
    /// `mods` (in printed order: `Op::ISETP, [GE, U32, AND]`) for `sm`,
    /// guarded by `guard` (a predicate and whether it is negated; `None`
    /// for always), with `operands` in printed order. The first form (in
    /// table order) that spells the tokens and whose slots take the
    /// operands' kinds is used.
    pub fn build_op(sm: Sm, op: Op, mods: &[Mod], guard: Option<(Reg, bool)>, operands: &[Operand]) -> Result<Inst, BuildError> {
        let sm_index = measured_index(sm).ok_or(BuildError::UnsupportedSm(sm))?;
        let key = Key::new(op, mods).ok_or_else(|| BuildError::UnknownName(mnemonic_text(op, mods)))?;
        let lock = &cache()[sm_index];
        let found = {
            let map = lock.read().unwrap_or_else(|e| e.into_inner());
            map.get(&key).and_then(|c| choose(c, operands))
        };
        let (form, values, ops) = match found {
            Some(hit) => hit,
            None => {
                let mut map = lock.write().unwrap_or_else(|e| e.into_inner());
                let list = map.entry(key).or_insert_with(|| candidates(sm_index, op, mods));
                if list.is_empty() {
                    return Err(BuildError::UnknownName(mnemonic_text(op, mods)));
                }
                choose(list, operands).ok_or_else(|| BuildError::NoForm { name: mnemonic_text(op, mods), operands: format!("{operands:?}") })?
            }
        };
        let guard = guard.unwrap_or((Reg::zero(RegFile::Pred), false));
        Ok(Inst { form, guard, mods: values, operands: ops, ctrl: Ctrl::default() })
    }

    /// Builds the instruction spelled `text` (opcode and modifiers as
    /// nvdisasm prints them: `"ISETP.GE.U32.AND"`), as [`Inst::build_op`]
    /// does from the opcode and tokens. For the assembler and tests; the
    /// compiler builds by [`Inst::build_op`].
    pub fn build(sm: Sm, text: &str, guard: Option<(Reg, bool)>, operands: &[Operand]) -> Result<Inst, BuildError> {
        measured_index(sm).ok_or(BuildError::UnsupportedSm(sm))?;
        let unknown = || BuildError::UnknownName(text.to_string());
        let (op, tokens) = parse_mnemonic(text).ok_or_else(unknown)?;
        let mut mods = Inline::<Mod, MAX_TOKENS>::new();
        for t in tokens {
            if !mods.try_push(t.ok_or_else(unknown)?) {
                return Err(unknown());
            }
        }
        Inst::build_op(sm, op, &mods, guard, operands)
    }
}

/// The first candidate whose slots take the operands. Operands given one
/// per slot (the usual case) are tested where they are, and copied only
/// for the form that takes them.
fn choose(list: &Candidates, operands: &[Operand]) -> Option<(&'static Form, ModValues, InstOperands)> {
    list.iter().find_map(|(form, mods)| {
        if operands.len() == form.slots.len() {
            let taken = operands.len() <= InstOperands::CAPACITY && form.slots.iter().zip(operands).all(|(s, o)| fits(s, o));
            return taken.then(|| (*form, *mods, operands.iter().copied().collect()));
        }
        let ops = fill_optional(form, operands)?;
        form.slots.iter().zip(ops.iter()).all(|(s, o)| fits(s, o)).then_some((*form, *mods, ops))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::operand::RegNum;

    fn r(n: u8) -> Operand {
        Operand::reg(Reg::gpr(n))
    }
    fn rz() -> Operand {
        Operand::reg(Reg::zero(RegFile::Gpr))
    }
    fn pt() -> Operand {
        Operand::reg(Reg::zero(RegFile::Pred))
    }

    #[test]
    fn builds_by_name_and_operand_kinds() {
        let sm = Sm::new(80);
        let i = Inst::build(sm, "IADD3", None, &[r(4), r(4), r(0), r(5)]).unwrap();
        assert_eq!(i.text(sm, 0), "IADD3 R4, R4, R0, R5;");
        assert!(i.encode(sm).is_ok());
        let i = Inst::build(sm, "IADD3", None, &[r(4), r(4), Operand::Imm(0x12345), rz()]).unwrap();
        assert_eq!(i.text(sm, 0), "IADD3 R4, R4, 0x12345, RZ;");
        let i = Inst::build(sm, "IADD3", None, &[r(4), r(4), Operand::CBank { bank: 0, offset: 0x168, mods: SrcMods::default() }, rz()]).unwrap();
        assert_eq!(i.text(sm, 0), "IADD3 R4, R4, c[0x0][0x168], RZ;");
        // sm_100: no constant-bank ALU form; carry-outs always printed.
        let e = Inst::build(Sm::new(100), "IADD3", None, &[r(4), r(4), Operand::CBank { bank: 0, offset: 0x168, mods: SrcMods::default() }, rz()]);
        assert!(matches!(e, Err(BuildError::NoForm { .. })));
        let i = Inst::build(Sm::new(100), "IADD3", None, &[r(4), pt(), pt(), r(4), r(2), rz()]).unwrap();
        assert_eq!(i.text(Sm::new(100), 0), "IADD3 R4, PT, PT, R4, R2, RZ;");
        let g = Some((Reg { file: RegFile::Pred, num: RegNum::Phys(0) }, true));
        let i = Inst::build(sm, "ISETP.GE.U32.AND", g, &[Operand::reg(Reg { file: RegFile::Pred, num: RegNum::Phys(1) }), pt(), r(2), Operand::Imm(1000), pt()]).unwrap();
        assert_eq!(i.text(sm, 0), "@!P0 ISETP.GE.U32.AND P1, PT, R2, 0x3e8, PT;");
        assert!(matches!(Inst::build(sm, "IADD4", None, &[]), Err(BuildError::UnknownName(_))));
        // Virtual registers choose the same form; they print with `%`.
        let v = Operand::reg(Reg { file: RegFile::Gpr, num: RegNum::virt(12) });
        let i = Inst::build(sm, "MOV", None, &[v, Operand::Imm(7)]).unwrap();
        assert_eq!(i.text(sm, 0), "MOV %R12, 0x7;");
        assert!(Inst::build(Sm::new(61), "MOV", None, &[v, Operand::Imm(7)]).is_err());
    }
}
