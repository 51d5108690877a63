//! Decoding a word with a plan: reading each modifier and operand from the
//! resolved fields, and refusing the word where the form does not explain
//! it or its text would not say everything about it.

use super::{ImmCheck, Plan, Step, windows};
use crate::isa::branch;
use crate::isa::ctrl::Ctrl;
use crate::isa::form::{CBANK_BANK, CBANK_OFFSET, IMM32};
use crate::isa::inst::Inst;
use crate::isa::operand::{Mem, Operand, Reg, RegFile, RegNum, SrcMods};

/// Bits 12–14: the guard predicate; bit 15 negates it.
const GUARD_SHIFT: u32 = 12;

/// The guard of each value of bits 12–15 (7 is PT).
static GUARDS: [(Reg, bool); 16] = {
    let mut table = [(Reg::zero(RegFile::Pred), false); 16];
    let mut k = 0;
    while k < 16 {
        let p = k as u8 & 7;
        let num = if p == 7 { RegNum::Zero } else { RegNum::Phys(p) };
        table[k] = (Reg { file: RegFile::Pred, num }, k >= 8);
        k += 1;
    }
    table
};

/// A general register field value (255 is RZ).
#[inline(always)]
fn gpr(v: u64) -> Reg {
    if v == 255 { Reg::zero(RegFile::Gpr) } else { Reg::gpr(v as u8) }
}

/// A uniform register field value (all ones is URZ).
#[inline(always)]
fn uniform(v: u64, max: u64) -> Reg {
    if v == max { Reg::zero(RegFile::Uniform) } else { Reg { file: RegFile::Uniform, num: RegNum::Phys(v as u8) } }
}

/// Decoding by a plan (the plan types are the shared crate's, which the
/// build script's generator compiles too: the decoder is this crate's).
pub(crate) trait Decode {
    /// Decodes `word` into `out` if the plan explains it. On `false`, `out`
    /// holds its old form with some of this plan's values (the caller tries
    /// the next plan or resets it).
    fn decode(&self, word: u128, out: &mut Inst) -> bool;
    /// [`Decode::decode`] of a form with other operands than registers and
    /// 32-bit immediates.
    fn decode_general(&self, word: u128, out: &mut Inst) -> bool;
    /// [`Decode::decode`] after the fixed bits matched; `GENERAL` when the
    /// form has steps other than [`Step::Reg`] and [`ImmCheck::Any`].
    fn decode_steps<const GENERAL: bool>(&self, word: u128, out: &mut Inst) -> bool;
}

impl Decode for Plan {
    /// Decodes `word` into `out` if the plan explains it. On `false`, `out`
    /// holds its old form with some of this plan's values (the caller tries
    /// the next plan or resets it).
    #[inline(always)]
    fn decode(&self, word: u128, out: &mut Inst) -> bool {
        // No bit outside the form's fields, and the fixed fields' values.
        if word & self.check != self.fixed_value {
            return false;
        }
        // Most forms have only register and immediate operands: they decode
        // inline, with nothing called in the operand loop (so nothing is
        // kept across calls); the others out of line.
        if self.simple { self.decode_steps::<false>(word, out) } else { self.decode_general(word, out) }
    }

    /// [`Plan::decode`] of a form with other operands than registers and
    /// 32-bit immediates.
    #[inline(never)]
    fn decode_general(&self, word: u128, out: &mut Inst) -> bool {
        self.decode_steps::<true>(word, out)
    }

    /// [`Plan::decode`] after the fixed bits matched; `GENERAL` when the
    /// form has steps other than [`Step::Reg`] and [`ImmCheck::Any`].
    #[inline(always)]
    fn decode_steps<const GENERAL: bool>(&self, word: u128, out: &mut Inst) -> bool {
        let win = windows(word);
        let Some(mods) = out.mods.resize_for_write(self.mods.len()) else { return false };
        for (m, dst) in self.mods.iter().zip(mods) {
            let v = m.get(word, &win);
            if v >= 32 || m.ok >> v & 1 == 0 {
                return false;
            }
            *dst = v as u8;
        }
        // The operands without their negate / absolute / not bits and reuse
        // flags, which most words do not set: those come after, from the
        // steps that have them, only when the word sets one.
        let Some(operands) = out.operands.resize_for_write(self.steps.len()) else { return false };
        for (step, dst) in self.steps.iter().zip(operands.iter_mut()) {
            match *step {
                Step::Reg { at, mask, file, .. } => {
                    let v = at.read(&win) as u8 & mask;
                    let num = if v == mask { RegNum::Zero } else { RegNum::Phys(v) };
                    *dst = Operand::Reg { reg: Reg { file, num }, mods: SrcMods::default(), reuse: false };
                }
                // Bits 32–63 are window 1's low half.
                Step::Imm32(ImmCheck::Any) => *dst = Operand::Imm(win[1] as u32),
                // Addresses, the most common of the other operands, without
                // a call (in the general instance: the inline one has none).
                Step::Addr { .. } if GENERAL => match decode_addr(step, word) {
                    Some(op) => *dst = op,
                    None => return false,
                },
                _ => {
                    if !GENERAL || !decode_other(step, word, dst) {
                        return false;
                    }
                }
            }
        }
        if word & self.marks != 0 && !add_marks(self, word, operands) {
            return false;
        }
        if self.text_rules != 0 && !text_rules_hold(self, operands) {
            return false;
        }
        // The `;` spacing rule of sm_89+ also looks at bits 102–103, which no form
        // explains, so they are zero here.
        out.form = self.form;
        out.guard = GUARDS[(word >> GUARD_SHIFT) as usize & 15];
        out.ctrl = Ctrl::decode(word);
        true
    }
}

/// Sets the source modifiers and reuse flags `word` gives the operands (a
/// word with some: see [`Plan::marks`]); `false` when a reuse flag is on an
/// operand without one (each has its own bit of the mask). Flags without
/// bit 109 set, which nvdisasm does not show (ptxas's `TLD4.SCR.R R10, R8,
/// R2, R3, …` on sm_75), decode; their text does not read back
/// ([`Inst::text_reads_back`](crate::isa::inst::Inst::text_reads_back)).
#[inline(never)]
fn add_marks(plan: &Plan, word: u128, operands: &mut [Operand]) -> bool {
    let control = control_bits(word);
    let reuse = (control >> 17 & 15) as u8;
    if reuse & !plan.reuse_slots != 0 {
        return false;
    }
    if word & plan.flags != 0 {
        add_flags(plan, word, operands);
    }
    if reuse != 0 {
        add_reuse(plan, reuse, operands);
    }
    true
}

/// Whether the operands satisfy the form's readability rules: no shown
/// optional predicate after a hidden one (it would read back into the wrong
/// slot, see `Inst::text`), and no zero register where the form takes none
/// (it prints as `???255`).
#[inline(never)]
fn text_rules_hold(plan: &Plan, operands: &[Operand]) -> bool {
    (plan.optional == 0 || optional_order(plan.optional, operands)) && (plan.nonzero == 0 || !nonzero_slot_is_zero(plan.nonzero, operands))
}

/// Bits 105–125 of a word, the control fields: stall (4), yield, write
/// and read scoreboards (3 each), wait mask (6), reuse flags (4).
#[inline(always)]
fn control_bits(word: u128) -> u32 {
    (word >> 105) as u32
}

/// Sets the negate, absolute-value and not flags of the register and
/// constant operands of `plan` from `word`: of the slots of
/// [`Plan::flag_slots`] only (a flag without a bit reads bit 127,
/// `NO_BIT`, clear).
fn add_flags(plan: &Plan, word: u128, operands: &mut [Operand]) {
    let (lo, hi) = (word as u64, (word >> 64) as u64);
    let bit = |b: u8| (if b & 64 == 0 { lo } else { hi }) >> (b & 63) & 1 == 1;
    let mut left = plan.flag_slots;
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        if let (Some(Step::Reg { neg, abs, not, .. } | Step::CBank { neg, abs, not }), Some(Operand::Reg { mods, .. } | Operand::CBank { mods, .. })) =
            (plan.steps.get(k), operands.get_mut(k))
        {
            *mods = SrcMods { neg: bit(*neg), abs: bit(*abs), not: bit(*not) };
        }
    }
}

/// Sets the reuse flags of the general-register operands of `plan` from
/// the control field's mask `reuse_bits`, whose flags all have an operand
/// (flag `k` is that of slot `plan.reuse_slot[k]`).
fn add_reuse(plan: &Plan, reuse_bits: u8, operands: &mut [Operand]) {
    let mut left = reuse_bits & 15;
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        if let Some(Operand::Reg { reuse, .. }) = operands.get_mut(usize::from(plan.reuse_slot[k])) {
            *reuse = true;
        }
    }
}

/// Whether no optional predicate (slot `k` for bit `k` of `optional`)
/// shows after a hidden one (PT without `!`).
#[inline(never)]
pub(super) fn optional_order(optional: u8, operands: &[Operand]) -> bool {
    let (mut left, mut hidden_before) = (optional, false);
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        let hidden = matches!(operands.get(k), Some(Operand::Reg { reg: Reg { num: RegNum::Zero, .. }, mods: SrcMods { not: false, .. }, .. }));
        if !hidden && hidden_before {
            return false;
        }
        hidden_before |= hidden;
    }
    true
}

/// Whether a slot of `nonzero` (bit `k` for slot `k`) holds a zero register.
pub(super) fn nonzero_slot_is_zero(nonzero: u8, operands: &[Operand]) -> bool {
    operands.iter().enumerate().any(|(k, op)| {
        nonzero >> k & 1 == 1 && matches!(op, Operand::Reg { reg: Reg { num: RegNum::Zero, .. }, .. } | Operand::Hex(0) | Operand::ConstAddr { index: Reg { num: RegNum::Zero, .. }, .. })
    })
}

/// The operand of a [`Step::Addr`] (inline in the general decoder: the
/// most common of its operands); `None` where its text would not say
/// everything about it.
#[inline(always)]
fn decode_addr(step: &Step, word: u128) -> Option<Operand> {
    let Step::Addr { base, offset, scale, desc, uniform: added, wide, zero_base, shift } = *step else { return None };
    let base = if base.is_none() { gpr(0xff) } else { gpr(base.get(word)) };
    let scale = if scale.is_none() { 0 } else { scale.get(word) as u8 };
    // The text of a zero base says nothing of a scale with a 32-bit base
    // or an added uniform register (`[RZ]`, oracle), and some addresses
    // take no zero base at all.
    if base.num == RegNum::Zero && (scale != 0 && (!wide || added.is_some()) || !zero_base) {
        return None;
    }
    // In units of `1 << shift` bytes (32-byte units of the 256-bit
    // accesses, whose 19-bit field stays within an i32 of bytes).
    let offset = if offset.is_none() { 0 } else { (offset.get_signed(word) << shift) as i32 };
    let mem = Mem::new(base.num, offset).with_scale(scale);
    // A form has a descriptor or an added uniform register, never both
    // (a test of the table checks it).
    Some(Operand::Mem(match (desc, added) {
        (Some(f), _) => mem.with_desc(uniform(f.get(word), f.max()).num),
        (None, Some(f)) => mem.with_uniform(uniform(f.get(word), f.max()).num),
        (None, None) => mem,
    }))
}

/// The operands of the less common steps (out of line, so that the common
/// ones' loop stays small and computes nothing for them up front).
#[inline(never)]
fn decode_other(step: &Step, word: u128, dst: &mut Operand) -> bool {
    *dst = match *step {
        Step::Barrier(field) => {
            Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(field.get(word) as u8) }, mods: SrcMods::default(), reuse: false }
        }
        // Its flags, if any, come with the registers' (`add_marks`).
        Step::CBank { .. } => Operand::CBank { bank: CBANK_BANK.get(word) as u8, offset: CBANK_OFFSET.get(word) as u16, mods: SrcMods::default() },
        Step::Hex(field) => Operand::Hex(field.get(word) as u32),
        Step::SpecialReg(field) => Operand::SpecialReg(field.get(word) as u8),
        Step::Imm32(check) => {
            let bits = IMM32.get(word) as u32;
            // Float immediates and pairs of halves decode whatever their
            // value (a NaN's text loses its payload: a listing prints such
            // a word `.raw`, see `Inst::text_reads_back`).
            let printable = match check {
                ImmCheck::Any | ImmCheck::Half2 => true,
                ImmCheck::Half => bits >> 16 == 0,
                ImmCheck::Float { shadowed, .. } => shadowed != Some(bits),
            };
            if !printable {
                return false;
            }
            Operand::Imm(bits)
        }
        Step::LoadBank { offset, index, uniform: is_uniform } => {
            let v = index.get(word);
            let index = if is_uniform { uniform(v, index.max()) } else { gpr(v) };
            let offset = if index.num == RegNum::Zero { offset.get(word) as i32 } else { offset.get_signed(word) as i32 };
            Operand::ConstAddr { bank: CBANK_BANK.get(word) as u8, index, offset }
        }
        Step::HexSplit(lo, hi) => Operand::Hex((lo.get(word) | hi.get(word) << lo.width) as u32),
        Step::Imm64(field) => Operand::Imm64(field.get(word)),
        Step::SImm(field) => Operand::Imm64(field.get_signed(word) as u64),
        Step::Target(layout) => Operand::Target(branch::decode(word, layout)),
        Step::AbsTarget(layout) => {
            // Negative addresses: how nvdisasm prints them is not measured.
            let t = branch::decode(word, layout);
            if t < 0 {
                return false;
            }
            Operand::Target(t)
        }
        Step::Text => Operand::Hex(0),
        // The steps the caller decodes itself.
        Step::Reg { .. } | Step::Addr { .. } => return false,
    };
    true
}
