//! Encoding an instruction with its form's plan: the opcode and fixed
//! fields, the guard, each modifier and operand into its resolved field,
//! the control fields. The checks run in a fixed order (readable text
//! first, then guard, modifiers and operands in slot order), so the first
//! reason an instruction does not encode is always the same one.
//!
//! A form's fields are disjoint (checked when plans are built), so each
//! value is ORed into a word that starts with the opcode and fixed bits.

use super::{Fld, NO_BIT, Plan, Step};
use crate::isa::branch;
use crate::isa::form::{CBANK_BANK, CBANK_OFFSET, IMM32, UNIFORM_B_FLAG};
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

impl Plan {
    /// The word of `inst`, whose form is this plan's, or why there is none.
    /// (The caller has checked that the form applies to the SM.)
    #[inline]
    pub(in crate::isa) fn encode(&self, inst: &Inst) -> Result<u128, Why> {
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
                Step::Gpr { field, neg, abs, not, reuse: r } => {
                    let Operand::Reg { reg, mods, reuse: used } = *op else { return Err(Why::Mismatch(k)) };
                    let n = gpr_num(reg).ok_or(Why::NotReg(reg, "an allocated general register"))?;
                    if used {
                        if r == NO_BIT {
                            return Err(Why::NoFlag("a reuse flag"));
                        }
                        reuse |= 1 << r;
                    }
                    put_mods(put(w, field, n, "register")?, (neg, abs, not), mods)?
                }
                Step::Pred { file, field, not, .. } => {
                    let Operand::Reg { reg, mods, reuse: false } = *op else { return Err(Why::Mismatch(k)) };
                    let n = match (reg.file == file, reg.num) {
                        (true, RegNum::Zero) => 7,
                        (true, RegNum::Phys(n)) if n < 7 => u64::from(n),
                        _ => {
                            let what = if file == RegFile::UniformPred { "a uniform predicate register" } else { "a predicate register" };
                            return Err(Why::NotReg(reg, what));
                        }
                    };
                    put_bit(put(w, field, n, "predicate")?, not, mods.not, "predicate negation")?
                }
                Step::Ur { field, neg, not, flag_b } => {
                    let Operand::Reg { reg, mods, reuse: false } = *op else { return Err(Why::Mismatch(k)) };
                    let n = uniform_num(field.max(), reg).ok_or(Why::NotReg(reg, "an allocated uniform register"))?;
                    let w = put(w, field, n, "uniform register")? | u128::from(flag_b) << UNIFORM_B_FLAG;
                    let w = put_bit(w, neg, mods.neg, "negation")?;
                    put_bit(w, not, mods.not, "bitwise not")?
                }
                Step::Imm32(_) => {
                    let Operand::Imm(v) = *op else { return Err(Why::Mismatch(k)) };
                    w | u128::from(v) << IMM32.start
                }
                _ => encode_other(step, op, w, k)?,
            };
        }
        if inst.ctrl.reuse != reuse {
            return Err(Why::Reuse);
        }
        inst.ctrl.encode(w).map_err(|_| Why::Ctrl)
    }
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
        (Step::Addr { base: bf, offset: of, scale: sf, desc: df, uniform: uf, .. }, Operand::Mem { base, offset, scale, desc, uniform }) => {
            let b = gpr_num(base).ok_or(Why::NotReg(base, "an allocated general register"))?;
            let w = put(w, bf, b, "address register")?;
            let w = of.put_signed(w, offset.into()).ok_or(Why::TooBig("address offset", u64::from(offset as u32)))?;
            let w = match sf {
                Some(f) => put(w, f, scale.into(), "address scale")?,
                None if scale == 0 => w,
                None => return Err(Why::NoFlag("an address scale")),
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
