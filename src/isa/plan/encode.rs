//! Encoding an instruction with its form's plan: the opcode and fixed
//! fields, the guard, each modifier and operand into its resolved field,
//! the control fields. The checks run in a fixed order (readable text
//! first, then guard, modifiers and operands in slot order), so the first
//! reason an instruction does not encode is always the same one.
//!
//! A form's fields are disjoint (checked when plans are built), so each
//! value is ORed into a word that starts with the opcode and fixed bits.
//!
//! Two encoders: a fast one for instructions that encode (most), which
//! looks at source modifiers, reuse flags and readable-text rules only
//! where an instruction has them, and the checked one above, which finds
//! the reason one does not; the tests hold them to the same answers.

use super::decode::{nonzero_slot_is_zero, optional_order};
use super::{Fld, ImmCheck, NO_BIT, NO_REUSE, Plan, Step};
use crate::isa::branch;
use crate::isa::form::{CBANK_BANK, CBANK_OFFSET, IMM32};
use crate::isa::inst::{Inst, Why, representable};
use crate::isa::operand::{Operand, Reg, RegFile, RegNum, SrcMods};

/// Bits 12–14: the guard predicate; bit 15 negates it.
const GUARD_SHIFT: u32 = 12;
const GUARD_NOT: u8 = 15;

const BANK: Fld = Fld::of(CBANK_BANK);
const BANK_OFFSET: Fld = Fld::of(CBANK_OFFSET);

/// The field value of a general register (RZ is 255), if it is allocated.
#[inline(always)]
fn gpr_num(reg: Reg) -> Option<u64> {
    match (reg.file, reg.num) {
        (RegFile::Gpr, RegNum::Zero) => Some(255),
        (RegFile::Gpr, RegNum::Phys(n)) if n < 255 => Some(n.into()),
        _ => None,
    }
}

/// The field value of a uniform register in a field whose all-ones value
/// (`max`) is URZ, if the field can hold it.
#[inline(always)]
fn uniform_num(max: u64, reg: Reg) -> Option<u64> {
    match (reg.file, reg.num) {
        (RegFile::Uniform, RegNum::Zero) => Some(max),
        (RegFile::Uniform, RegNum::Phys(n)) if u64::from(n) < max => Some(n.into()),
        _ => None,
    }
}

/// `w` with bit `b` set when `on`; an error when the slot has no such bit.
#[inline(always)]
fn put_bit(w: u128, b: u8, on: bool, what: &'static str) -> Result<u128, Why> {
    match (on, b) {
        (false, _) => Ok(w),
        (true, NO_BIT) => Err(Why::NoFlag(what)),
        (true, b) => Ok(w | 1u128 << b),
    }
}

/// `w` with the negate, absolute-value and bitwise-not bits of `mods`.
#[inline(always)]
fn put_mods(w: u128, (neg, abs, not): (u8, u8, u8), mods: SrcMods) -> Result<u128, Why> {
    if mods == SrcMods::default() {
        return Ok(w);
    }
    let w = put_bit(w, neg, mods.neg, "negation")?;
    let w = put_bit(w, abs, mods.abs, "absolute value")?;
    put_bit(w, not, mods.not, "bitwise not")
}

/// `w` with `f` holding `v`, or the error naming `what` does not fit.
#[inline(always)]
fn put(w: u128, f: Fld, v: u64, what: &'static str) -> Result<u128, Why> {
    f.put(w, v).ok_or(Why::TooBig(what, v))
}

/// Encoding by a plan (the plan types are the shared crate's, which the
/// build script's generator compiles too: the encoder is this crate's).
pub(crate) trait Encode {
    /// The word of `inst`, whose form is this plan's, or why there is none.
    /// (The caller has checked that the form applies to the SM.)
    fn encode(&self, inst: &Inst) -> Result<u128, Why>;
    /// [`Encode::encode`] of an instruction that encodes, `None` for one
    /// that does not.
    fn encode_fast(&self, inst: &Inst) -> Option<u128>;
    /// [`Encode::encode`], checking everything in a fixed order.
    fn encode_checked(&self, inst: &Inst) -> Result<u128, Why>;
}

impl Encode for Plan {
    /// The word of `inst`, whose form is this plan's, or why there is none.
    /// (The caller has checked that the form applies to the SM.)
    #[inline]
    fn encode(&self, inst: &Inst) -> Result<u128, Why> {
        match self.encode_fast(inst) {
            Some(word) => Ok(word),
            None => self.encode_checked(inst),
        }
    }

    /// [`Plan::encode`] of an instruction that encodes, `None` for one that
    /// does not (with the same words and the same instructions refused:
    /// `tests::fast_and_checked_encoders_agree`). The operands' flags,
    /// reuse flags and readable-text rules, which most instructions do not
    /// exercise, are looked at only where an operand has a flag or the
    /// form has such a rule.
    #[inline(always)]
    fn encode_fast(&self, inst: &Inst) -> Option<u128> {
        if inst.mods.len() != self.mods.len() || inst.operands.len() != self.steps.len() {
            return None;
        }
        let guard = match inst.guard.0 {
            Reg { file: RegFile::Pred, num: RegNum::Zero } => 7,
            Reg { file: RegFile::Pred, num: RegNum::Phys(n) } if n < 7 => n,
            _ => return None,
        };
        let mut w = self.base | u128::from(guard) << GUARD_SHIFT | u128::from(inst.guard.1) << GUARD_NOT;
        // Modifiers, registers and immediates go into the word's windows
        // (see `At`): a shift of 64 bits each, where a shift of the 128-bit
        // word costs a double shift and two selects.
        let mut win = [0u64; 4];
        for (m, &v) in self.mods.iter().zip(inst.mods.iter()) {
            if u16::from(v) >= m.names {
                return None;
            }
            let value = u32::from(v);
            let high = value >> m.field.width;
            win[usize::from(m.at.window & 3)] |= u64::from(value & m.mask) << (m.at.shift & 63);
            if high != 0 {
                if m.extra == NO_BIT || high > 1 {
                    return None;
                }
                w |= 1u128 << m.extra;
            }
        }
        // Whether some register operand has a source modifier or a reuse flag.
        let mut marked = false;
        for (step, op) in self.steps.iter().zip(inst.operands.iter()) {
            match *step {
                Step::Reg { at, mask, file, .. } => {
                    let Operand::Reg { reg: Reg { file: f, num }, mods, reuse } = *op else { return None };
                    let n = match num {
                        RegNum::Zero => mask,
                        RegNum::Phys(n) if n < mask => n,
                        _ => return None,
                    };
                    if f != file {
                        return None;
                    }
                    win[usize::from(at.window & 3)] |= u64::from(n) << (at.shift & 63);
                    marked |= reuse | (mods != SrcMods::default());
                }
                Step::Imm32(check) => {
                    let Operand::Imm(v) = *op else { return None };
                    // One half: bits 48–63 stay clear.
                    if check == ImmCheck::Half && v >> 16 != 0 {
                        return None;
                    }
                    // Bits 32–63 are window 1's low half.
                    win[1] |= u64::from(v);
                }
                _ => w = encode_other_fast(step, op, w)?,
            }
        }
        w |= u128::from(win[0]) | u128::from(win[1]) << 32 | u128::from(win[2]) << 64;
        let reuse = if marked { add_marks(self.steps, &inst.operands, &mut w)? } else { 0 };
        if inst.ctrl.reuse() != reuse {
            return None;
        }
        if self.optional != 0 && !optional_order(self.optional, &inst.operands) {
            return None;
        }
        if self.nonzero != 0 && nonzero_slot_is_zero(self.nonzero, &inst.operands) {
            return None;
        }
        // No field of a form is a control bit (`Plan::of`), so they are clear.
        Some(w | inst.ctrl.word_bits())
    }

    /// [`Plan::encode`], checking everything in a fixed order (readable
    /// text first, then guard, modifiers and operands in slot order), so
    /// that the reason an instruction does not encode is always the first.
    #[cold]
    fn encode_checked(&self, inst: &Inst) -> Result<u128, Why> {
        if inst.mods.len() != self.mods.len() || inst.operands.len() != self.steps.len() {
            return Err(Why::Counts);
        }
        if self.check_text && !representable(self.form, &inst.operands) {
            return Err(Why::NoText);
        }
        let guard = match (inst.guard.0.file, inst.guard.0.num) {
            (RegFile::Pred, RegNum::Zero) => 7,
            (RegFile::Pred, RegNum::Phys(n)) if n < 7 => u128::from(n),
            _ => return Err(Why::NotReg(inst.guard.0, "a predicate register")),
        };
        let mut w = self.base | guard << GUARD_SHIFT | u128::from(inst.guard.1) << GUARD_NOT;
        for (m, &v) in self.mods.iter().zip(inst.mods.iter()) {
            if u16::from(v) >= m.names {
                return Err(Why::NoSpelling(v));
            }
            // The value's low bits in the field, its next bit (if the field
            // has one) in the extra bit; a value wider than that does not fit.
            let value = u64::from(v);
            let high = value >> m.field.width;
            w |= u128::from(value & m.field.max()) << m.field.start;
            if high != 0 {
                if m.extra == NO_BIT || high > 1 {
                    return Err(Why::TooBig("modifier value", value));
                }
                w |= 1u128 << m.extra;
            }
        }
        let mut reuse = 0u8;
        for (k, (step, op)) in self.steps.iter().zip(inst.operands.iter()).enumerate() {
            w = match *step {
                Step::Reg { at, mask, file: RegFile::Gpr, neg, abs, not, reuse: r } => {
                    let field = Fld { start: at.start(), width: mask.count_ones() as u8 };
                    let Operand::Reg { reg, mods, reuse: used } = *op else { return Err(Why::Mismatch(k)) };
                    let n = gpr_num(reg).ok_or(Why::NotReg(reg, "an allocated general register"))?;
                    if used {
                        if r == NO_REUSE {
                            return Err(Why::NoFlag("a reuse flag"));
                        }
                        reuse |= 1 << r;
                    }
                    put_mods(put(w, field, n, "register")?, (neg, abs, not), mods)?
                }
                Step::Reg { at, mask, file: file @ (RegFile::Pred | RegFile::UniformPred), not, .. } => {
                    let field = Fld { start: at.start(), width: mask.count_ones() as u8 };
                    let Operand::Reg { reg, mods, reuse: false } = *op else { return Err(Why::Mismatch(k)) };
                    let n = match (reg.file == file, reg.num) {
                        (true, RegNum::Zero) => 7,
                        (true, RegNum::Phys(n)) if n < 7 => u64::from(n),
                        _ => {
                            let what = if file == RegFile::UniformPred { "a uniform predicate register" } else { "a predicate register" };
                            return Err(Why::NotReg(reg, what));
                        }
                    };
                    // A predicate's negate and absolute-value flags are not looked at.
                    put_bit(put(w, field, n, "predicate")?, not, mods.not, "predicate negation")?
                }
                Step::Reg { at, mask, neg, abs, not, .. } => {
                    // A uniform register (UniformB's bit 91 is in the plan's base).
                    let field = Fld { start: at.start(), width: mask.count_ones() as u8 };
                    let Operand::Reg { reg, mods, reuse: false } = *op else { return Err(Why::Mismatch(k)) };
                    let n = uniform_num(field.max(), reg).ok_or(Why::NotReg(reg, "an allocated uniform register"))?;
                    let w = put(w, field, n, "uniform register")?;
                    let w = put_bit(w, neg, mods.neg, "negation")?;
                    let w = put_bit(w, abs, mods.abs, "absolute value")?;
                    put_bit(w, not, mods.not, "bitwise not")?
                }
                Step::Imm32(check) => {
                    let Operand::Imm(v) = *op else { return Err(Why::Mismatch(k)) };
                    if check == ImmCheck::Half && v >> 16 != 0 {
                        return Err(Why::TooBig("immediate", u64::from(v)));
                    }
                    w | u128::from(v) << IMM32.start
                }
                _ => encode_other(step, op, w, k)?,
            };
        }
        if inst.ctrl.reuse() != reuse {
            return Err(Why::Reuse);
        }
        Ok(inst.ctrl.encode(w))
    }
}

/// Sets the negate, absolute-value and not bits of the register operands
/// in `w`, and gives their reuse mask; `None` when an operand has a flag
/// its slot has no bit for (as [`Plan::encode_checked`] refuses). A flag
/// without a bit lands on bit 127 ([`NO_BIT`]), which no form has, and a
/// reuse flag without an index on bit 8 of the mask, which the control
/// field's 4-bit mask never matches.
#[inline(never)]
fn add_marks(steps: &[Step], operands: &[Operand], w: &mut u128) -> Option<u8> {
    let mut reuse = 0u16;
    // The flag bits by half of the word (a shift of 64 bits each).
    let mut flags = [0u64; 2];
    for (step, op) in steps.iter().zip(operands) {
        // Most operands of an instruction with marks have none.
        let Operand::Reg { mods, reuse: used, .. } = *op else { continue };
        if mods == SrcMods::default() && !used {
            continue;
        }
        if let Step::Reg { file, neg, abs, not, reuse: r, .. } = *step {
            // Only general registers have reuse flags (the others' index is
            // `NO_REUSE`). The flags the checked encoder looks at: all three
            // of a general or uniform register, a predicate's `not` (the
            // others are not encoded, and not refused).
            reuse |= u16::from(used) << r;
            let (neg_on, abs_on) = match file {
                RegFile::Gpr | RegFile::Uniform => (mods.neg, mods.abs),
                _ => (false, false),
            };
            flags[usize::from(neg >> 6 & 1)] |= u64::from(neg_on) << (neg & 63);
            flags[usize::from(abs >> 6 & 1)] |= u64::from(abs_on) << (abs & 63);
            flags[usize::from(not >> 6 & 1)] |= u64::from(mods.not) << (not & 63);
        }
    }
    if flags[1] >> (NO_BIT - 64) != 0 || reuse >> NO_REUSE != 0 {
        return None;
    }
    *w |= u128::from(flags[0]) | u128::from(flags[1]) << 64;
    Some(reuse as u8)
}

/// A byte offset in the address field's units of `1 << shift` bytes;
/// `None` when it is not a multiple of the unit.
#[inline(always)]
fn units(offset: i32, shift: u8) -> Option<i64> {
    let v = i64::from(offset);
    (v & ((1i64 << shift) - 1) == 0).then_some(v >> shift)
}

/// [`encode_other`] of an operand that encodes, `None` for one that does not.
#[inline(never)]
fn encode_other_fast(step: &Step, op: &Operand, w: u128) -> Option<u128> {
    Some(match *step {
        Step::Hex(field) => {
            let Operand::Hex(v) = *op else { return None };
            field.put(w, v.into())?
        }
        Step::Addr { base: bf, offset: of, scale: sf, desc: df, uniform: uf, wide, zero_base, shift } => {
            let Operand::Mem(m) = *op else { return None };
            let (base, offset, scale, desc, uniform) = (m.base(), m.offset(), m.scale(), m.desc(), m.uniform());
            // The text of a zero base says nothing of some scales, and some
            // addresses take no zero base (`representable`).
            if base.num == RegNum::Zero && (scale != 0 && (!wide || uniform.is_some()) || !zero_base) {
                return None;
            }
            let w = match bf.is_none() {
                true if base.num == RegNum::Zero => w,
                true => return None,
                false => bf.put(w, gpr_num(base)?)?,
            };
            let w = match of.is_none() {
                true if offset == 0 => w,
                true => return None,
                false => of.put_signed(w, units(offset, shift)?)?,
            };
            let w = match sf.is_none() {
                false => sf.put(w, scale.into())?,
                true if scale == 0 => w,
                true => return None,
            };
            let w = match (df, desc) {
                (Some(f), Some(r)) => f.put(w, uniform_num(f.max(), r)?)?,
                (None, None) => w,
                _ => return None,
            };
            match (uf, uniform) {
                (Some(f), Some(r)) => f.put(w, uniform_num(f.max(), r)?)?,
                (None, None) => w,
                _ => return None,
            }
        }
        Step::Target(layout) => {
            let Operand::Target(t) = *op else { return None };
            branch::encode(w, layout, t)?
        }
        Step::LoadBank { offset: field, index: index_field, uniform } => {
            let Operand::ConstAddr { bank, index, offset } = *op else { return None };
            let n = if uniform { uniform_num(index_field.max(), index)? } else { gpr_num(index)? };
            let w = index_field.put(BANK.put(w, bank.into())?, n)?;
            if index.num == RegNum::Zero { field.put(w, u64::try_from(offset).ok()?)? } else { field.put_signed(w, offset.into())? }
        }
        Step::CBank { neg, abs, not } => {
            let Operand::CBank { bank, offset, mods } = *op else { return None };
            let w = BANK_OFFSET.put(BANK.put(w, bank.into())?, offset.into())?;
            let flags = u128::from(mods.neg) << neg | u128::from(mods.abs) << abs | u128::from(mods.not) << not;
            // A flag without a bit lands on bit 127 ([`NO_BIT`]).
            if flags >> NO_BIT != 0 {
                return None;
            }
            w | flags
        }
        Step::SpecialReg(field) => {
            let Operand::SpecialReg(v) = *op else { return None };
            field.put(w, v.into())?
        }
        Step::Barrier(field) => {
            let Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(n) }, reuse: false, .. } = *op else { return None };
            field.put(w, n.into())?
        }
        _ => return encode_other(step, op, w, 0).ok(),
    })
}

/// `w` with the operand of one of the less common steps (out of line, so
/// that the common ones' loop stays small); `k` is the slot.
#[inline(never)]
fn encode_other(step: &Step, op: &Operand, w: u128, k: usize) -> Result<u128, Why> {
    Ok(match (*step, *op) {
        (Step::Barrier(field), Operand::Reg { reg: Reg { file: RegFile::Barrier, num: RegNum::Phys(n) }, reuse: false, .. }) => {
            put(w, field, n.into(), "barrier register")?
        }
        (Step::LoadBank { offset: field, index: index_field, uniform }, Operand::ConstAddr { bank, index, offset }) => {
            let n = if uniform {
                uniform_num(index_field.max(), index).ok_or(Why::NotReg(index, "an allocated uniform register"))?
            } else {
                gpr_num(index).ok_or(Why::NotReg(index, "an allocated general register"))?
            };
            let w = put(w, BANK, bank.into(), "constant bank")?;
            let w = put(w, index_field, n, "index register")?;
            let too_big = Why::TooBig("constant offset", u64::from(offset as u32));
            if index.num == RegNum::Zero {
                let v = u64::try_from(offset).map_err(|_| too_big)?;
                put(w, field, v, "constant offset")?
            } else {
                field.put_signed(w, offset.into()).ok_or(too_big)?
            }
        }
        (Step::CBank { neg, abs, not }, Operand::CBank { bank, offset, mods }) => {
            let w = put(w, BANK, bank.into(), "constant bank")?;
            let w = put(w, BANK_OFFSET, offset.into(), "constant offset")?;
            put_mods(w, (neg, abs, not), mods)?
        }
        (Step::Hex(field), Operand::Hex(v)) => put(w, field, v.into(), "constant")?,
        (Step::Imm64(field), Operand::Imm64(v)) => put(w, field, v, "immediate")?,
        (Step::SImm(field), Operand::Imm64(v)) => field.put_signed(w, v as i64).ok_or(Why::TooBig("immediate", v))?,
        (Step::HexSplit(lo, hi), Operand::Hex(v)) => {
            let w = put(w, lo, u64::from(v) & lo.max(), "constant")?;
            put(w, hi, u64::from(v) >> lo.width, "constant")?
        }
        (Step::Addr { base: bf, offset: of, scale: sf, desc: df, uniform: uf, shift, .. }, Operand::Mem(m)) => {
            let (base, offset, scale, desc, uniform) = (m.base(), m.offset(), m.scale(), m.desc(), m.uniform());
            let w = if bf.is_none() {
                if base.num != RegNum::Zero {
                    return Err(Why::NotReg(base, "no base register (a uniform address)"));
                }
                w
            } else {
                let b = gpr_num(base).ok_or(Why::NotReg(base, "an allocated general register"))?;
                put(w, bf, b, "address register")?
            };
            let w = match of.is_none() {
                true if offset == 0 => w,
                true => return Err(Why::TooBig("address offset", u64::from(offset as u32))),
                false => units(offset, shift).and_then(|v| of.put_signed(w, v)).ok_or(Why::TooBig("address offset", u64::from(offset as u32)))?,
            };
            let w = match sf.is_none() {
                false => put(w, sf, scale.into(), "address scale")?,
                true if scale == 0 => w,
                true => return Err(Why::NoFlag("an address scale")),
            };
            let w = match (df, desc) {
                (Some(f), Some(r)) => {
                    let n = uniform_num(f.max(), r).ok_or(Why::NotReg(r, "a uniform register"))?;
                    put(w, f, n, "descriptor register")?
                }
                (None, None) => w,
                _ => return Err(Why::Descriptor),
            };
            match (uf, uniform) {
                (Some(f), Some(r)) => {
                    let n = uniform_num(f.max(), r).ok_or(Why::NotReg(r, "a uniform register"))?;
                    put(w, f, n, "address uniform register")?
                }
                (None, None) => w,
                _ => return Err(Why::Descriptor),
            }
        }
        (Step::Target(layout), Operand::Target(t)) => branch::encode(w, layout, t).ok_or(Why::TooBig("branch offset", t as u64))?,
        (Step::AbsTarget(layout), Operand::Target(t)) if t >= 0 => branch::encode(w, layout, t).ok_or(Why::TooBig("code address", t as u64))?,
        (Step::SpecialReg(field), Operand::SpecialReg(v)) => put(w, field, v.into(), "special register")?,
        (Step::Text, Operand::Hex(0)) => w,
        _ => return Err(Why::Mismatch(k)),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Decode, PLANS};
    use super::Encode;
    use crate::isa::inst::Inst;
    use crate::isa::operand::{Operand, Reg, RegFile, RegNum, SrcMods};

    /// A register like `reg` in another file or with another number.
    fn other_reg(reg: Reg, r: u64) -> Reg {
        let files = [RegFile::Gpr, RegFile::Uniform, RegFile::Pred, RegFile::UniformPred, RegFile::Barrier];
        let nums = [RegNum::Zero, RegNum::Phys(0), RegNum::Phys(6), RegNum::Phys(7), RegNum::Phys(62), RegNum::Phys(63), RegNum::Phys(254), RegNum::Phys(255), RegNum::virt(3)];
        match r % 3 {
            0 => Reg { file: files[(r >> 2) as usize % files.len()], ..reg },
            _ => Reg { num: nums[(r >> 2) as usize % nums.len()], ..reg },
        }
    }

    /// The fast encoder accepts exactly the instructions the checked one
    /// accepts, with the same words: instructions decoded from words made
    /// of each form's fields (random values), then changed at random (an
    /// operand of another kind or file, register numbers out of range,
    /// source modifiers and reuse flags where a slot has none, guards,
    /// modifier values, control fields).
    #[test]
    fn fast_and_checked_encoders_agree() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Operands of every kind, from decoded words.
        let mut pool: Vec<Operand> = Vec::new();
        let mut insts: Vec<(usize, Inst)> = Vec::new();
        for (k, plan) in PLANS.iter().enumerate() {
            for _ in 0..16 {
                // No reuse flags (most forms have none to show).
                let random = (u128::from(next()) << 64 | u128::from(next())) & !(0xfu128 << 122);
                let word = plan.fixed_value | (random & !plan.check & !(0xfffu128)) | u128::from(plan.form.opcode & 0xfff);
                let mut inst = Inst::empty();
                if plan.decode(word, &mut inst) {
                    pool.extend(inst.operands.iter().copied());
                    insts.push((k, inst));
                }
            }
        }
        assert!(insts.len() > PLANS.len(), "most forms decode some of their words ({} instructions)", insts.len());
        let mut refused = 0;
        for (k, inst) in &insts {
            let plan = &PLANS[*k];
            assert_eq!(plan.encode_fast(inst), plan.encode_checked(inst).ok(), "{} {:?}", plan.form.name, inst);
            for _ in 0..24 {
                let mut m = inst.clone();
                for _ in 0..1 + next() % 2 {
                    let r = next();
                    let slot = (r >> 8) as usize % m.operands.len().max(1);
                    match r % 8 {
                        0 if !m.operands.is_empty() => m.operands[slot] = pool[(r >> 16) as usize % pool.len()],
                        1 | 2 => {
                            if let Some(Operand::Reg { reg, .. }) = m.operands.get_mut(slot) {
                                *reg = other_reg(*reg, r >> 16);
                            }
                        }
                        3 => {
                            match m.operands.get_mut(slot) {
                                Some(Operand::Reg { mods, reuse, .. }) => {
                                    *mods = SrcMods { neg: r >> 16 & 1 == 1, abs: r >> 17 & 1 == 1, not: r >> 18 & 1 == 1 };
                                    *reuse = r >> 19 & 1 == 1;
                                }
                                Some(Operand::CBank { mods, .. }) => *mods = SrcMods { neg: r >> 16 & 1 == 1, abs: r >> 17 & 1 == 1, not: r >> 18 & 1 == 1 },
                                _ => {}
                            }
                        }
                        4 => m.ctrl = m.ctrl.with_reuse((r >> 16) as u8 & 0xf),
                        5 => m.guard = (other_reg(m.guard.0, r >> 16), r >> 20 & 1 == 1),
                        6 if !m.mods.is_empty() => {
                            let n = (r >> 16) as usize % m.mods.len();
                            m.mods[n] = (r >> 20) as u8 % 12;
                        }
                        _ => {
                            if let Some(op) = m.operands.last().copied() {
                                // One operand fewer, or the last one twice.
                                if r >> 16 & 1 == 0 {
                                    m.operands = m.operands[..m.operands.len() - 1].iter().copied().collect();
                                } else if m.operands.len() < 8 {
                                    m.operands.push(op);
                                }
                            }
                        }
                    }
                }
                let (fast, checked) = (plan.encode_fast(&m), plan.encode_checked(&m).ok());
                refused += usize::from(checked.is_none());
                assert_eq!(fast, checked, "{} {:?}", plan.form.name, m);
            }
        }
        assert!(refused > insts.len(), "the changes make many instructions unencodable ({refused})");
    }
}
