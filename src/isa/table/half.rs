//! Packed-half register forms: HFMA2 and HFMA2.MMA with three registers
//! (`fma.rn.f16x2`, `fma.rn.bf16x2`). Source swizzles (`.H0_H0`, `.F32`:
//! a 74–75, b 60–61, c 81–82) are operand suffixes the model has no slot
//! for: only the default (nothing printed) decodes. Fields from single-bit
//! flips of the words ptxas emits for ZLUDA's fma tests (sm_80, sm_90,
//! sm_120, nvdisasm 13.5).

use super::{Generation, RD, f};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, Slot, UNMEASURED as U};

/// The forms of this module.
pub(super) fn half_ops(v: &mut Vec<Form>, g: Generation) {
    // Bit 85 `.BF16_V2`; `.FTZ` 80 and `.FMZ` 76 (both: `.INVALID3`);
    // `.SAT` 77; bit 79 `.RELU` (another operand: kept 0), 78 kept 0.
    const TYPE: ModField = ModField { field: f(85, 85), names: &["", ".BF16_V2"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", U], extra: Some(76) };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    const FIXED: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0)];
    let reg = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let slots = vec![RD, reg(24, 72, 73, 0), reg(32, 63, 62, 1), reg(64, 84, 83, 2)];
    // sm_75 has no `.BF16_V2`, nor HFMA2.MMA before sm_90 (bit 85 prints
    // nothing there: kept 0; oracle).
    const NO_BF16: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0), (f(85, 85), 0)];
    if g.wide_ur {
        v.push(g.form("HFMA2", 0x231, FIXED, &[TYPE, FTZ_FMZ, SAT], slots));
    } else {
        v.push(Form { sms: (75, 75), ..g.form("HFMA2", 0x231, NO_BF16, &[FTZ_FMZ, SAT], slots.clone()) });
        v.push(Form { sms: (80, 90), ..g.form("HFMA2", 0x231, FIXED, &[TYPE, FTZ_FMZ, SAT], slots.clone()) });
        v.push(Form { sms: (80, 89), ..g.form("HFMA2.MMA", 0x235, NO_BF16, &[FTZ_FMZ, SAT], slots.clone()) });
        v.push(Form { sms: (90, 90), ..g.form("HFMA2.MMA", 0x235, FIXED, &[TYPE, FTZ_FMZ, SAT], slots) });
    }
}
