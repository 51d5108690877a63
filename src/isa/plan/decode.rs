//! Decoding a word with a plan: reading each modifier and operand from the
//! resolved fields, and refusing the word where the form does not explain
//! it or its text would not say everything about it.

use super::{ImmCheck, NO_BIT, Plan, Step, bit};
use crate::isa::branch;
use crate::isa::ctrl::Ctrl;
use crate::isa::form::{CBANK_BANK, CBANK_OFFSET, IMM32, UNIFORM_B_FLAG};
use crate::isa::inst::{Inst, float_printable, half2_printable};
use crate::isa::operand::{Operand, Reg, RegFile, RegNum, SrcMods};

/// Bits 12–14: the guard predicate; bit 15 negates it.
const GUARD_SHIFT: u32 = 12;
const GUARD_NOT: u8 = 15;

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

/// A predicate field value (7 is PT / UPT).
#[inline(always)]
fn pred(file: RegFile, v: u64) -> Reg {
    if v == 7 { Reg::zero(file) } else { Reg { file, num: RegNum::Phys(v as u8) } }
}

impl Plan {
    /// Decodes `word` into `out` if the plan explains it. On `false`, `out`
    /// holds its old form with some of this plan's values (the caller tries
    /// the next plan or resets it).
    #[inline]
    pub(in crate::isa) fn decode(&self, word: u128, out: &mut Inst) -> bool {
        if word & !self.mask != 0 || word & self.fixed_mask != self.fixed_value {
            return false;
        }
        let Some(mods) = out.mods.resize_for_write(self.mods.len()) else { return false };
        for (m, dst) in self.mods.iter().zip(mods) {
            let v = m.get(word);
            if v >= 32 || m.ok >> v & 1 == 0 {
                return false;
            }
            *dst = v as u8;
        }
        let ctrl = Ctrl::decode(word);
        let mut reuse_used = 0u8;
        // Most words set no negate / absolute / not bit and no reuse flag:
        // then no operand needs to look for its own.
        let any_flags = word & self.flags != 0;
        let any_reuse = ctrl.reuse != 0;
        // A shown optional predicate after a hidden one would read back into
        // the wrong slot (see `Inst::text`), so such words do not decode.
        let mut hidden_optional = false;
        let Some(operands) = out.operands.resize_for_write(self.steps.len()) else { return false };
        for (step, dst) in self.steps.iter().zip(operands.iter_mut()) {
            match *step {
                Step::Gpr { field, neg, abs, not, reuse: k } => {
                    let reuse = any_reuse && k != NO_BIT && ctrl.reuse >> k & 1 == 1;
                    if reuse {
                        reuse_used |= 1 << k;
                    }
                    let mods = if any_flags { SrcMods { neg: bit(word, neg), abs: bit(word, abs), not: bit(word, not) } } else { SrcMods::default() };
                    *dst = Operand::Reg { reg: gpr(field.get(word)), mods, reuse };
                }
                Step::Pred { file, field, not, optional } => {
                    let reg = pred(file, field.get(word));
                    let not = any_flags && bit(word, not);
                    if optional {
                        let hidden = reg.num == RegNum::Zero && !not;
                        if !hidden && hidden_optional {
                            return false;
                        }
                        hidden_optional |= hidden;
                    }
                    *dst = Operand::Reg { reg, mods: SrcMods { not, ..SrcMods::default() }, reuse: false };
                }
                Step::Ur { field, neg, not, flag_b } => {
                    if flag_b && !bit(word, UNIFORM_B_FLAG) {
                        return false;
                    }
                    let mods = if any_flags { SrcMods { neg: bit(word, neg), abs: false, not: bit(word, not) } } else { SrcMods::default() };
                    *dst = Operand::Reg { reg: uniform(field.get(word), field.max()), mods, reuse: false };
                }
                Step::Imm32(ImmCheck::Any) => *dst = Operand::Imm(IMM32.get(word) as u32),
                Step::Hex(field) => *dst = Operand::Hex(field.get(word) as u32),
                _ => {
                    if !decode_other(step, word, dst) {
                        return false;
                    }
                }
            }
        }
        // Slots that may not hold a zero register (it prints as `???255`).
        for &k in self.form.nonzero {
            if matches!(operands.get(k), Some(Operand::Reg { reg: Reg { num: RegNum::Zero, .. }, .. })) {
                return false;
            }
        }
        // Reuse flags only on operands that have them, and only where nvdisasm shows
        // them (bit 109 set); anything else is not representable in the text.
        if ctrl.reuse != reuse_used || (ctrl.reuse != 0 && !ctrl.yield_bit) {
            return false;
        }
        // The `;` spacing rule of sm_89+ also looks at bits 102–103, which no form
        // explains, so they are zero here.
        out.form = self.form;
        out.guard = (pred(RegFile::Pred, (word >> GUARD_SHIFT) as u64 & 7), bit(word, GUARD_NOT));
        out.ctrl = ctrl;
        true
    }
}

/// The operands of the less common steps (out of line, so that the common
/// ones' loop stays small and computes nothing for them up front).
#[inline(never)]
fn decode_other(step: &Step, word: u128, dst: &mut Operand) -> bool {
    *dst = match *step {
        Step::Barrier(field) => {
            Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(field.get(word) as u8) }, mods: SrcMods::default(), reuse: false }
        }
        Step::Imm32(check) => {
            let bits = IMM32.get(word) as u32;
            // Only values nvdisasm is known to print as `%.20g` decode.
            let printable = match check {
                ImmCheck::Any => true,
                ImmCheck::Float { f64 } => float_printable(bits, f64),
                ImmCheck::Half2 => half2_printable(bits),
            };
            if !printable {
                return false;
            }
            Operand::Imm(bits)
        }
        Step::CBank { neg, abs, not } => Operand::CBank {
            bank: CBANK_BANK.get(word) as u8,
            offset: CBANK_OFFSET.get(word) as u16,
            mods: SrcMods { neg: bit(word, neg), abs: bit(word, abs), not: bit(word, not) },
        },
        Step::LoadBank { offset, index, uniform: is_uniform } => {
            let v = index.get(word);
            let index = if is_uniform { uniform(v, index.max()) } else { gpr(v) };
            let offset = if index.num == RegNum::Zero { offset.get(word) as i32 } else { offset.get_signed(word) as i32 };
            Operand::ConstAddr { bank: CBANK_BANK.get(word) as u8, index, offset }
        }
        Step::Hex(field) => Operand::Hex(field.get(word) as u32),
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
        Step::Addr { base, offset, scale, desc, uniform: added, wide, zero_base } => {
            let base = gpr(base.get(word));
            let scale = scale.map_or(0, |f| f.get(word) as u8);
            // The text of a zero base says nothing of a scale with a
            // 32-bit base or an added uniform register (`[RZ]`,
            // oracle), and some addresses take no zero base at all.
            if base.num == RegNum::Zero && (scale != 0 && (!wide || added.is_some()) || !zero_base) {
                return false;
            }
            Operand::Mem {
                uniform: added.map(|f| uniform(f.get(word), f.max())),
                base,
                offset: offset.get_signed(word) as i32,
                scale,
                desc: desc.map(|f| uniform(f.get(word), f.max())),
            }
        }
        Step::SpecialReg(field) => Operand::SpecialReg(field.get(word) as u8),
        Step::Text => Operand::Hex(0),
        // The common steps, which the caller decodes itself.
        Step::Gpr { .. } | Step::Pred { .. } | Step::Ur { .. } => return false,
    };
    true
}
