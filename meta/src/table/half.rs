//! Packed-half register forms: HFMA2 and HFMA2.MMA with three registers
//! (`fma.rn.f16x2`, `fma.rn.bf16x2`), HMNMX2 (`min`/`max` of halves) and
//! HSET2 (`set` of halves). Source swizzles (`R0.H0_H0`, `R5.F32`: a
//! 74–75, b 60–61, HFMA2's c 81–82) print after their operand
//! ([`OperandSuffix`]). Fields from single-bit flips of the words ptxas
//! emits for ZLUDA's fma, min/max and set tests (sm_80, sm_90, sm_120,
//! nvdisasm 13.5).

use super::{Generation, RD, f, pred};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, PredShow, Slot, UNMEASURED as U};

/// A source's half-lane swizzle: 0 the pair as it is (nothing printed),
/// 2 the low half in both lanes, 3 the high half in both. 1 prints `.F32`
/// up to sm_89 and `.INVALID1` from sm_90 on: not decoded here (the forms
/// of sm_75–sm_89 take [`SWIZZLE_F32`]'s spellings, `with_f32_sources`).
const fn swizzle(lo: u8) -> ModField {
    ModField { field: f(lo, lo + 1), names: &SWIZZLE, extra: None }
}

/// The swizzle spellings from sm_90 on.
const SWIZZLE: [&str; 4] = ["", U, ".H0_H0", ".H1_H1"];
/// The swizzle spellings of sm_75–sm_89: 1 is `.F32`, the register read
/// as one f32 value (nvdisasm 13.5 prints it for every packed-half source
/// of HADD2, HMUL2, HFMA2, HSET2, HSETP2 and HMNMX2 on SM75–SM89, bit
/// flips; ptxas 13.5 compiles sm_75's `cvt.rz.f16.f32` to `HADD2 R3,
/// R0.F32, -RZ.H0_H0`, so the value is converted to f16 rounding toward
/// zero).
const SWIZZLE_F32: [&str; 4] = ["", ".F32", ".H0_H0", ".H1_H1"];

/// The a (slot 1) and b (slot 2) swizzles, as modifiers `a` and `a + 1`.
const fn ab_swizzles(a: u8) -> [OperandSuffix; 2] {
    [OperandSuffix::Mod { modifier: a, slot: 1 }, OperandSuffix::Mod { modifier: a + 1, slot: 2 }]
}

/// [`ab_swizzles`] where b is a uniform register, whose swizzle nvdisasm
/// prints inside its `|x|` bars (`|UR4.H0_H0|`, where a register's is
/// `|R2|.H0_H0`).
const fn ab_swizzles_uniform_b(a: u8) -> [OperandSuffix; 2] {
    [OperandSuffix::Mod { modifier: a, slot: 1 }, OperandSuffix::ModInBars { modifier: a + 1, slot: 2 }]
}

/// [`abc_swizzles`] where b is a uniform register ([`ab_swizzles_uniform_b`]).
const fn abc_swizzles_uniform_b(a: u8) -> [OperandSuffix; 3] {
    let [x, y] = ab_swizzles_uniform_b(a);
    [x, y, OperandSuffix::Mod { modifier: a + 2, slot: 3 }]
}

/// The a, b and c (slots 1–3) swizzles, as modifiers `a`, `a + 1`, `a + 2`.
const fn abc_swizzles(a: u8) -> [OperandSuffix; 3] {
    let [x, y] = ab_swizzles(a);
    [x, y, OperandSuffix::Mod { modifier: a + 2, slot: 3 }]
}

/// The forms of this module.
pub(super) fn half_ops(v: &mut Vec<Form>, g: Generation) {
    let first = v.len();
    // Bit 85 `.BF16_V2`; `.FTZ` 80 and `.FMZ` 76 (both: `.INVALID3`);
    // `.SAT` 77; bit 79 `.RELU` (another operand: kept 0), 78 kept 0.
    const TYPE: ModField = ModField { field: f(85, 85), names: &["", ".BF16_V2"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", U], extra: Some(76) };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    const FIXED: &[(Field, u64)] = &[(f(78, 79), 0)];
    let reg = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let slots = vec![RD, reg(24, 72, 73, 0), reg(32, 63, 62, 1), reg(64, 84, 83, 2)];
    // The three sources' swizzles (a 74–75, b 60–61, c 81–82), printed
    // after their operands; bit flips of ptxas's `HFMA2.FTZ R19,
    // R36.H1_H1, R36.H1_H1, R15.H0_H0` (sm_75, nvdisasm 13.5).
    const MODS: &[ModField] = &[TYPE, FTZ_FMZ, SAT, swizzle(74), swizzle(60), swizzle(81)];
    const MODS_NO_BF16: &[ModField] = &[FTZ_FMZ, SAT, swizzle(74), swizzle(60), swizzle(81)];
    const SWZ: [OperandSuffix; 3] = abc_swizzles(3);
    const SWZ_NO_BF16: [OperandSuffix; 3] = abc_swizzles(2);
    // sm_75 has no `.BF16_V2`, nor HFMA2.MMA before sm_90 (bit 85 prints
    // nothing there: kept 0; oracle).
    const NO_BF16: &[(Field, u64)] = &[(f(78, 79), 0), (f(85, 85), 0)];
    let form = |sms, name, opcode, fixed, mods, sw: &'static [OperandSuffix], slots| Form { sms, operand_suffixes: sw, ..g.form(name, opcode, fixed, mods, slots) };
    if g.wide_ur {
        v.push(form(g.sms, "HFMA2", 0x231, FIXED, MODS, &SWZ, slots));
    } else {
        v.push(form((75, 75), "HFMA2", 0x231, NO_BF16, MODS_NO_BF16, &SWZ_NO_BF16, slots.clone()));
        v.push(form((80, 90), "HFMA2", 0x231, FIXED, MODS, &SWZ, slots.clone()));
        // HFMA2.MMA prints no swizzles (nvdisasm ignores those bits: kept 0;
        // oracle).
        const MMA: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0)];
        const MMA_NO_BF16: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0), (f(85, 85), 0)];
        v.push(form((80, 89), "HFMA2.MMA", 0x235, MMA_NO_BF16, &[FTZ_FMZ, SAT], &[], slots.clone()));
        v.push(form((90, 90), "HFMA2.MMA", 0x235, MMA, &[TYPE, FTZ_FMZ, SAT], &[], slots));
    }
    // `.RELU` (bit 79, from sm_80; sm_75 prints nothing for it) with a
    // trailing predicate (87–90, printed unless PT), `.SAT` (77) refused
    // with it, as the immediate forms' (`add_mul`): ptxas 13.5's
    // `fma.rn.relu.f16` -> `HFMA2.RELU R0, R0.H0_H0, R0.H0_H0, R0.H0_H0`
    // (sm_80), `fma.rn.relu.bf16x2` -> `HFMA2.BF16_V2.RELU R5, R0, R5, R4`
    // (sm_80, sm_120), `fma.rn.ftz.relu.f16x2` -> `HFMA2.MMA.FTZ.RELU R5,
    // R0, R5, R4` (sm_80, sm_90) and `HFMA2.FTZ.RELU` (sm_100); bit flips
    // on SM80 (79 drops `.RELU`, 87 prints the predicate).
    const RELU_FIXED: &[(Field, u64)] = &[(f(77, 79), 0b100)];
    const RELU_MODS: &[ModField] = &[TYPE, FTZ_FMZ, swizzle(74), swizzle(60), swizzle(81)];
    const SWZ_RELU: [OperandSuffix; 3] = abc_swizzles(2);
    let relu_slots = vec![RD, reg(24, 72, 73, 0), reg(32, 63, 62, 1), reg(64, 84, 83, 2), pred(87, PredShow::UnlessTrue)];
    let relu = |sms, name, opcode, fixed, mods, sw: &'static [OperandSuffix]| Form { sms, operand_suffixes: sw, suffix: ".RELU", ..g.form(name, opcode, fixed, mods, relu_slots.clone()) };
    if g.wide_ur {
        v.push(relu(g.sms, "HFMA2", 0x231, RELU_FIXED, RELU_MODS, &SWZ_RELU));
    } else {
        v.push(relu((80, 90), "HFMA2", 0x231, RELU_FIXED, RELU_MODS, &SWZ_RELU));
        const MMA_RELU: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(77, 79), 0b100), (f(81, 82), 0)];
        const MMA_RELU_NO_BF16: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(77, 79), 0b100), (f(81, 82), 0), (f(85, 85), 0)];
        v.push(relu((80, 89), "HFMA2.MMA", 0x235, MMA_RELU_NO_BF16, &[FTZ_FMZ], &[]));
        v.push(relu((90, 90), "HFMA2.MMA", 0x235, MMA_RELU, &[TYPE, FTZ_FMZ], &[]));
    }
    // b a uniform register (0xc31, bit 91): `-` 63, `|x|` 62 and swizzle
    // 60–61 as the register b's (`HFMA2 R45, R0.H1_H1, UR4.H1_H1,
    // R37.H0_H0`: ptxas 13.5's sm_75 code for a generated program, seed
    // 9985880; bit flips on SM75, SM90, SM100 and SM120).
    const UNIFORM_B: &[(Field, u64)] = &[(f(78, 79), 0)];
    const UNIFORM_B_NO_BF16: &[(Field, u64)] = &[(f(78, 79), 0), (f(85, 85), 0)];
    let uniform_slots = vec![RD, reg(24, 72, 73, 0), g.uniform_b_abs(Some(63), Some(62)), reg(64, 84, 83, 2)];
    const SWZ_U: [OperandSuffix; 3] = abc_swizzles_uniform_b(3);
    const SWZ_U_NO_BF16: [OperandSuffix; 3] = abc_swizzles_uniform_b(2);
    if g.wide_ur {
        v.push(form(g.sms, "HFMA2", 0xc31, UNIFORM_B, MODS, &SWZ_U, uniform_slots));
    } else {
        v.push(form((75, 75), "HFMA2", 0xc31, UNIFORM_B_NO_BF16, MODS_NO_BF16, &SWZ_U_NO_BF16, uniform_slots.clone()));
        v.push(form((80, 90), "HFMA2", 0xc31, UNIFORM_B, MODS, &SWZ_U, uniform_slots));
    }
    min_max_set(v, g);
    add_mul(v, g);
    setp(v, g);
    if !g.wide_ur {
        const_bank(v, g);
        with_f32_sources(v, first);
    }
}

/// The forms from `first` on with their swizzles' `.F32` (value 1) up to
/// sm_89: a form of sm_75–sm_90 becomes one of sm_75–sm_89 with
/// [`SWIZZLE_F32`]'s spellings and one of sm_90 with [`SWIZZLE`]'s.
fn with_f32_sources(v: &mut Vec<Form>, first: usize) {
    let swizzled = |form: &Form| form.mods.iter().any(|m| m.names == SWIZZLE);
    let mut k = first;
    while k < v.len() {
        let form = v[k];
        if !swizzled(&form) || form.sms.0 > 89 {
            k += 1;
            continue;
        }
        let mods: Vec<ModField> = form.mods.iter().map(|m| if m.names == SWIZZLE { ModField { names: &SWIZZLE_F32, ..*m } } else { *m }).collect();
        let old = Form { sms: (form.sms.0, form.sms.1.min(89)), mods: Box::leak(mods.into_boxed_slice()), ..form };
        v[k] = old;
        if form.sms.1 >= 90 {
            v.insert(k + 1, Form { sms: (90, form.sms.1), ..form });
            k += 1;
        }
        k += 1;
    }
}

/// The constant-bank forms of sm_75–sm_90 (nvdisasm refuses them from
/// sm_100): HADD2 0x630 and HMUL2 0xa32 with b `c[..]`, HFMA2 0xa31 (b)
/// and 0x631 (c; the register b then sits in c's field, 64, with c's
/// flags), HSET2 0x633 and HSETP2 0x634 (b), and HFMA2.MMA 0xa35 / 0x635
/// (sm_80–sm_90, no swizzles). The bank's `-` is bit 63, `|x|` 62 and its
/// swizzle 60–61; every other field is the register form's. nvdisasm
/// prints `c[0x0] [0x164]` (a space) wherever a swizzle may follow, even
/// an empty one (`HSETP2.GT.AND P0, PT, R0.H0_H0, c[0x0] [0x168], PT`),
/// and `|c[0x0] [0x168].H0_H0|` with the swizzle inside the bars. Bit
/// flips of ptxas 13.5's sm_75 and sm_80 words (`HFMA2 R7, R2, c[0x0]
/// [0x164], R7`, `@P1 HSETP2.GT.AND P0, PT, R0.H0_H0, c[0x0]
/// [0x168].H0_H0, PT`: the corpus's half_ops), field enumerations of the
/// other opcodes (nvdisasm 13.5).
fn const_bank(v: &mut Vec<Form>, g: Generation) {
    const TYPE: ModField = ModField { field: f(85, 85), names: &["", ".BF16_V2"], extra: None };
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", U], extra: Some(76) };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    let reg = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let a = reg(24, 72, 73, 0);
    let bank = Slot::CBank { neg: Some(63), abs: Some(62), not: None };
    // Bit 85 `.BF16_V2`: HFMA2's from sm_80, HADD2's and HMUL2's from
    // sm_90 (printed nothing before: kept 0), as in the register forms.
    for (sms, bf16, bf16_add) in [((75, 75), false, false), ((80, 89), true, false), ((90, 90), true, true)] {
        let at = |form: Form, sw: &'static [OperandSuffix]| Form { sms, operand_suffixes: sw, ..form };
        const F32_OFF: &[(Field, u64)] = &[(f(78, 78), 0)];
        const F32_OFF_NO_BF16: &[(Field, u64)] = &[(f(78, 78), 0), (f(85, 85), 0)];
        const FMA_FIXED: &[(Field, u64)] = &[(f(78, 79), 0)];
        const FMA_FIXED_NO_BF16: &[(Field, u64)] = &[(f(78, 79), 0), (f(85, 85), 0)];
        const ADD: &[ModField] = &[TYPE, FTZ, SAT, swizzle(74), swizzle(60)];
        const ADD_NO_BF16: &[ModField] = &[FTZ, SAT, swizzle(74), swizzle(60)];
        const MUL: &[ModField] = &[TYPE, FTZ_FMZ, SAT, swizzle(74), swizzle(60)];
        const MUL_NO_BF16: &[ModField] = &[FTZ_FMZ, SAT, swizzle(74), swizzle(60)];
        // HFMA2's swizzles in printed order: a 74, b, c.
        const FMA_B: &[ModField] = &[TYPE, FTZ_FMZ, SAT, swizzle(74), swizzle(60), swizzle(81)];
        const FMA_B_NO_BF16: &[ModField] = &[FTZ_FMZ, SAT, swizzle(74), swizzle(60), swizzle(81)];
        const FMA_C: &[ModField] = &[TYPE, FTZ_FMZ, SAT, swizzle(74), swizzle(81), swizzle(60)];
        const FMA_C_NO_BF16: &[ModField] = &[FTZ_FMZ, SAT, swizzle(74), swizzle(81), swizzle(60)];
        const SW2_3: [OperandSuffix; 2] = ab_swizzles(3);
        const SW2_2: [OperandSuffix; 2] = ab_swizzles(2);
        const SW3_3: [OperandSuffix; 3] = abc_swizzles(3);
        const SW3_2: [OperandSuffix; 3] = abc_swizzles(2);
        let (off, add, mul, fma_fixed, fma_b, fma_c, sw2, sw3): (_, _, _, _, _, _, &'static [OperandSuffix], &'static [OperandSuffix]) = if bf16 {
            (F32_OFF, ADD, MUL, FMA_FIXED, FMA_B, FMA_C, &SW2_3, &SW3_3)
        } else {
            (F32_OFF_NO_BF16, ADD_NO_BF16, MUL_NO_BF16, FMA_FIXED_NO_BF16, FMA_B_NO_BF16, FMA_C_NO_BF16, &SW2_2, &SW3_2)
        };
        let (off, add, mul, sw2): (_, _, _, &'static [OperandSuffix]) = if bf16_add { (off, add, mul, sw2) } else { (F32_OFF_NO_BF16, ADD_NO_BF16, MUL_NO_BF16, &SW2_2) };
        v.push(at(g.form("HADD2", 0x630, off, add, vec![RD, a, bank]), sw2));
        v.push(at(g.form("HMUL2", 0xa32, off, mul, vec![RD, a, bank]), sw2));
        v.push(at(g.form("HFMA2", 0xa31, fma_fixed, fma_b, vec![RD, a, bank, reg(64, 84, 83, 2)]), sw3));
        v.push(at(g.form("HFMA2", 0x631, fma_fixed, fma_c, vec![RD, a, reg(64, 84, 83, 1), bank]), sw3));
    }
    // HFMA2.MMA prints no swizzles (kept 0) and no space in `c[0x0][0x164]`.
    const MMA: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0)];
    const MMA_NO_BF16: &[(Field, u64)] = &[(f(60, 61), 0), (f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0), (f(85, 85), 0)];
    for (sms, fixed, mods) in [((80, 89), MMA_NO_BF16, &[FTZ_FMZ, SAT][..]), ((90, 90), MMA, &[TYPE, FTZ_FMZ, SAT][..])] {
        let mods: &'static [ModField] = Box::leak(mods.to_vec().into_boxed_slice());
        v.push(Form { sms, ..g.form("HFMA2.MMA", 0xa35, fixed, mods, vec![RD, a, bank, reg(64, 84, 83, 2)]) });
        v.push(Form { sms, ..g.form("HFMA2.MMA", 0x635, fixed, mods, vec![RD, a, reg(64, 84, 83, 1), bank]) });
    }
    // HSET2 and HSETP2: the register forms' fields with b a bank.
    const BF: ModField = ModField { field: f(71, 71), names: &["", ".BF"], extra: None };
    const H_AND: ModField = ModField { field: f(71, 71), names: &["", ".H_AND"], extra: None };
    const COMBINE: ModField = ModField { field: f(69, 70), names: &[".AND", ".OR", ".XOR"], extra: None };
    const SET_FIXED: &[(Field, u64)] = &[(f(64, 65), 0)];
    const SET_MODS: &[ModField] = &[BF, super::FLOAT_CMP, FTZ, COMBINE, swizzle(74), swizzle(60)];
    const SET_SWZ: [OperandSuffix; 2] = ab_swizzles(4);
    v.push(Form { operand_suffixes: &SET_SWZ, ..g.form("HSET2", 0x633, SET_FIXED, SET_MODS, vec![RD, a, bank, pred(87, PredShow::Always)]) });
    const SETP_MODS: &[ModField] = &[super::FLOAT_CMP, H_AND, FTZ, COMBINE, swizzle(74), swizzle(60)];
    const SETP_SWZ: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 4, slot: 2 }, OperandSuffix::Mod { modifier: 5, slot: 3 }];
    let p = |lo| Slot::Pred { uniform: false, field: f(lo, lo + 2), not: None, show: PredShow::Always };
    let setp_slots = vec![p(81), p(84), a, bank, pred(87, PredShow::Always)];
    v.push(Form { operand_suffixes: &SETP_SWZ, ..g.form("HSETP2", 0x634, SET_FIXED, SETP_MODS, setp_slots.clone()) });
    if let Some(sms) = bf16_sms(g) {
        v.push(Form { sms, operand_suffixes: &SET_SWZ, ..g.form("HSET2.BF16_V2", 0x633, COMPARE_BF16_V2, SET_MODS, vec![RD, a, bank, pred(87, PredShow::Always)]) });
        v.push(Form { sms, operand_suffixes: &SETP_SWZ, ..g.form("HSETP2.BF16_V2", 0x634, COMPARE_BF16_V2, SETP_MODS, setp_slots) });
    }
}

/// HADD2 (0x230) and HMUL2 (0x232) with two register sources, and HFMA2
/// with two `f16` immediates in the b position (form 4: `HFMA2.MMA R13,
/// R2, 1, 1, R5`). Sources: a 24 (`-` 72, `|x|` 73, swizzle 74–75), b 32
/// (`-` 63, `|x|` 62, swizzle 60–61); HADD2's b carries the c operand's
/// reuse flag (index 2; index 1 is refused), HMUL2's its own. Bit 85
/// `.BF16_V2` from sm_90 (printed nothing before: kept 0); 77 `.SAT`;
/// HADD2: 78 `.F32` (one f32 result; with `.BF16_V2` refused), 80 `.FTZ`
/// (76 ignored: kept 0); HMUL2: `.FTZ` 80 / `.FMZ` 76 as HFMA2's, 78
/// `.F32` up to sm_89 and `.INVALID1` later (kept 0). Single-bit flips of
/// corpus words on every measured SM (nvdisasm 13.5).
fn add_mul(v: &mut Vec<Form>, g: Generation) {
    const TYPE: ModField = ModField { field: f(85, 85), names: &["", ".BF16_V2"], extra: None };
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", U], extra: Some(76) };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    const SWZ: [ModField; 2] = [swizzle(74), swizzle(60)];
    const F32_ON: &[(Field, u64)] = &[(f(78, 78), 1), (f(85, 85), 0)];
    const F32_OFF: &[(Field, u64)] = &[(f(78, 78), 0)];
    const F32_OFF_NO_BF16: &[(Field, u64)] = &[(f(78, 78), 0), (f(85, 85), 0)];
    let src = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let a = src(24, 72, 73, 0);
    let generations: &[((u16, u16), bool)] = if g.wide_ur { &[((100, 120), true)] } else { &[((75, 89), false), ((90, 90), true)] };
    for &(sms, bf16) in generations {
        // Modifiers: [type,] rounding flags, then the two swizzles (printed after their operands).
        const ADD: &[ModField] = &[TYPE, FTZ, SAT, SWZ[0], SWZ[1]];
        const ADD_NO_BF16: &[ModField] = &[FTZ, SAT, SWZ[0], SWZ[1]];
        const ADD_F32: &[ModField] = &[FTZ, SAT, SWZ[0], SWZ[1]];
        const MUL: &[ModField] = &[TYPE, FTZ_FMZ, SAT, SWZ[0], SWZ[1]];
        const MUL_NO_BF16: &[ModField] = &[FTZ_FMZ, SAT, SWZ[0], SWZ[1]];
        const SWZ_3: [OperandSuffix; 2] = ab_swizzles(3);
        const SWZ_2: [OperandSuffix; 2] = ab_swizzles(2);
        const SWZ_U3: [OperandSuffix; 2] = ab_swizzles_uniform_b(3);
        const SWZ_U2: [OperandSuffix; 2] = ab_swizzles_uniform_b(2);
        let (add, mul): (&'static [ModField], &'static [ModField]) = if bf16 { (ADD, MUL) } else { (ADD_NO_BF16, MUL_NO_BF16) };
        let (off, sw): (&'static [(Field, u64)], &'static [OperandSuffix]) = if bf16 { (F32_OFF, &SWZ_3) } else { (F32_OFF_NO_BF16, &SWZ_2) };
        let sw_u: &'static [OperandSuffix] = if bf16 { &SWZ_U3 } else { &SWZ_U2 };
        let form = |name, opcode, fixed, mods, b, sw| Form { sms, operand_suffixes: sw, ..g.form(name, opcode, fixed, mods, vec![RD, a, b]) };
        v.push(form("HADD2", 0x230, off, add, src(32, 63, 62, 2), sw));
        // b a uniform register (0xe30, bit 91): its `-` 63, `|x|` 62 and
        // swizzle 60–61 as the register b's (`HADD2 R0, R15.H0_H0,
        // -UR4.H0_H0`: ptxas 13.5 for sm_100, a generated program's
        // `sub.f16`; `HADD2 R63, -RZ.H0_H0, |UR4.H0_H0|`, its sm_80 code
        // for another, seed 10103809; bit flips on SM75, SM80 and SM100,
        // the words decode alike on SM75–SM120).
        v.push(form("HADD2", 0xe30, off, add, g.uniform_b_abs(Some(63), Some(62)), sw_u));
        // `.F32`: from sm_86 a has no `|x|` (73 prints nothing: kept 0)
        // and nvdisasm refuses its reuse flag (oracle); sm_75 and sm_80
        // print both (`HADD2.F32 R0, R5.reuse.H0_H0, -RZ.H0_H0`, ptxas
        // 13.5's sm_75 casts; bit flips on SM75, SM80, SM86, SM89).
        let a_f32 = Slot::Gpr { field: f(24, 31), neg: Some(72), abs: None, not: None, reuse: None };
        let parts: &[((u16, u16), Slot)] = if sms.0 == 75 { &[((75, 80), a), ((86, 89), a_f32)] } else { &[(sms, a_f32)] };
        for &(sms, a) in parts {
            v.push(Form { sms, operand_suffixes: &SWZ_2, ..g.form("HADD2.F32", 0x230, F32_ON, ADD_F32, vec![RD, a, src(32, 63, 62, 2)]) });
            // The constant-bank b (0x630; see `const_bank`).
            if !g.wide_ur {
                let bank = Slot::CBank { neg: Some(63), abs: Some(62), not: None };
                v.push(Form { sms, operand_suffixes: &SWZ_2, ..g.form("HADD2.F32", 0x630, F32_ON, ADD_F32, vec![RD, a, bank]) });
            }
        }
        v.push(form("HMUL2", 0x232, off, mul, src(32, 63, 62, 1), sw));
        // b a uniform register: 0xc32 (not HADD2's 0xe30 pattern), `-` 63,
        // `|x|` 62, swizzle 60–61 as HADD2's (`HMUL2 R6, R17.H0_H0,
        // UR4.H0_H0`: ptxas 13.5's sm_103 code for a generated program,
        // seed 9932830; bit flips on SM100, the word decodes alike on
        // SM75–SM120).
        v.push(form("HMUL2", 0xc32, off, mul, g.uniform_b_abs(Some(63), Some(62)), sw_u));
    }
    // HADD2 with two f16 immediates (0x430): a as in the register form,
    // the immediates in 32–63; 85 (`.BF16_V2`, which prints them as bf16)
    // and 78 (`.F32`, one immediate) kept 0. Bit flips of the word ptxas
    // emits in a generic f16x2 atomic's shared-memory loop (sm_75, sm_90,
    // sm_120).
    const HADD2_IMM: &[(Field, u64)] = &[(f(78, 78), 0), (f(85, 85), 0)];
    const A_SWZ: [OperandSuffix; 1] = [OperandSuffix::Mod { modifier: 2, slot: 1 }];
    v.push(Form { operand_suffixes: &A_SWZ, ..g.form("HADD2", 0x430, HADD2_IMM, &[FTZ, SAT, SWZ[0]], vec![RD, a, Slot::Half2]) });
    // HFMA2 with two f16 immediates: c 64 (`-` 84, `|x|` 83, reuse 2);
    // swizzles (a 74–75, c 81–82) kept 0, and 85 (`.BF16_V2` prints the
    // immediates as bf16) kept 0; 79 `.RELU` adds an operand (kept 0), 78
    // `.F32` from sm_100 (kept 0). `.MMA` (0x835) from sm_80 to sm_90.
    // The a and c swizzles (74–75, 81–82) print after their operands
    // (`HFMA2 R21, R17.H0_H0, -6048, -6048, R21.H0_H0`: ptxas 13.5's sm_89
    // code for a generated program, seed 9103937; bit flips on SM89, the
    // word decodes alike on SM90 and SM120).
    const IMM_FIXED: &[(Field, u64)] = &[(f(74, 75), 0), (f(78, 79), 0), (f(81, 82), 0), (f(85, 85), 0)];
    const IMM_FIXED_SWZ: &[(Field, u64)] = &[(f(78, 79), 0), (f(85, 85), 0)];
    const IMM_SWZ: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 2, slot: 1 }, OperandSuffix::Mod { modifier: 3, slot: 3 }];
    const IMM_MODS: &[ModField] = &[FTZ_FMZ, SAT, SWZ[0], swizzle(81)];
    let imm = vec![RD, a, Slot::Half2, src(64, 84, 83, 2)];
    // From sm_80 bit 79 is `.RELU`, printed after `.FTZ`, and brings a
    // trailing predicate (87–90, printed unless PT) (`HFMA2.RELU R14,
    // R53.H0_H0, 1, 1, RZ.H0_H0`, ptxas 13.5's `max.NaN.f16 %h4, %h3, 0`
    // on sm_89 for a generated program, seed 10180675, with PT; bit flips
    // on SM89, the word decodes alike on SM80–SM120; SM75 prints nothing
    // for the bit, kept 0 there).
    // `.SAT` (77) and `.RELU` exclude each other (nvdisasm refuses both),
    // and the predicate prints only with `.RELU` (ignored without it): a
    // form of its own, 77 clear and 79 set.
    const IMM_FIXED_RELU: &[(Field, u64)] = &[(f(77, 79), 0b100), (f(85, 85), 0)];
    const IMM_MODS_RELU: &[ModField] = &[FTZ_FMZ, SWZ[0], swizzle(81)];
    const IMM_SWZ_RELU: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 1, slot: 1 }, OperandSuffix::Mod { modifier: 2, slot: 3 }];
    v.push(Form { operand_suffixes: &IMM_SWZ, ..g.form("HFMA2", 0x831, IMM_FIXED_SWZ, IMM_MODS, imm.clone()) });
    if g.sms.1 >= 80 {
        let imm_relu = vec![RD, a, Slot::Half2, src(64, 84, 83, 2), pred(87, PredShow::UnlessTrue)];
        v.push(Form { operand_suffixes: &IMM_SWZ_RELU, sms: (g.sms.0.max(80), g.sms.1), suffix: ".RELU", ..g.form("HFMA2", 0x831, IMM_FIXED_RELU, IMM_MODS_RELU, imm_relu) });
    }
    // HFMA2 with two f16 immediates as c (0x431, ptxas's way of setting a
    // constant: `HFMA2 R3, -RZ, RZ, 0, 2.38e-07`): b in 64 (`-` 84, `|x|`
    // 83, b's reuse flag), the modifiers and a's swizzle as above, b's
    // swizzle in 81–82 (`@P5 HFMA2.FTZ.SAT R2, R0.H0_H0, R61.H0_H0,
    // -0.9541015625, -0.9541015625`: ptxas 13.5's sm_90 code for a
    // generated program, seed 9914767; bit flips on SM90, the word decodes
    // alike on SM75–SM120).
    const IMM_C_SWZ: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 2, slot: 1 }, OperandSuffix::Mod { modifier: 3, slot: 2 }];
    v.push(Form { operand_suffixes: &IMM_C_SWZ, ..g.form("HFMA2", 0x431, IMM_FIXED_SWZ, IMM_MODS, vec![RD, a, src(64, 84, 83, 1), Slot::Half2]) });
    // HMUL2 with two f16 immediates (0x832): a as in the register form,
    // `.FTZ`/`.FMZ` and `.SAT` as the register form's; 78 (`.F32`) and 85
    // (prints nothing on SM89) kept 0 (`HMUL2 R19, R42.H0_H0, -SNAN ,
    // -SNAN `: ptxas 13.5's sm_89 code for a generated program, seed
    // 9103895; bit flips on SM89, the word decodes alike on SM75–SM120).
    v.push(Form { operand_suffixes: &A_SWZ, ..g.form("HMUL2", 0x832, HADD2_IMM, &[FTZ_FMZ, SAT, SWZ[0]], vec![RD, a, Slot::Half2]) });
    if !g.wide_ur {
        v.push(Form { sms: (80, 90), ..g.form("HFMA2.MMA", 0x835, IMM_FIXED, &[FTZ_FMZ, SAT], imm.clone()) });
        // `.RELU` and its predicate as HFMA2's (`HFMA2.MMA.RELU R7, R7, 1,
        // 1, RZ`: ptxas 13.5's sm_80 `add.rn.f16 x, 0, x; max.NaN.f16 d,
        // x, 0`; bit flips on SM80, the word decodes alike on SM89–SM90).
        const MMA_FIXED_RELU: &[(Field, u64)] = &[(f(74, 75), 0), (f(77, 79), 0b100), (f(81, 82), 0), (f(85, 85), 0)];
        let imm_relu = vec![RD, a, Slot::Half2, src(64, 84, 83, 2), pred(87, PredShow::UnlessTrue)];
        v.push(Form { sms: (80, 90), suffix: ".RELU", ..g.form("HFMA2.MMA", 0x835, MMA_FIXED_RELU, &[FTZ_FMZ], imm_relu) });
    }
}

/// HSETP2 (0x234): two predicate results (81–83, 84–86), one per half (or
/// both halves combined with `.H_AND`, bit 71), each the comparison (76–79,
/// FSETP's) combined (69–70) with the predicate 87–90; 80 `.FTZ`. Sources
/// and swizzles as HSET2's; b has the c operand's reuse flag (index 2).
/// Bits 64–65: `.BF16_V2` from sm_90 (a form of its own), kept 0 before
/// (ignored there). Bit flips of a corpus word
/// (every measured SM; the same layout on sm_75).
fn setp(v: &mut Vec<Form>, g: Generation) {
    const CMP: ModField = super::FLOAT_CMP;
    const H_AND: ModField = ModField { field: f(71, 71), names: &["", ".H_AND"], extra: None };
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const COMBINE: ModField = ModField { field: f(69, 70), names: &[".AND", ".OR", ".XOR"], extra: None };
    const FIXED: &[(Field, u64)] = &[(f(64, 65), 0)];
    const SWZ: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 4, slot: 2 }, OperandSuffix::Mod { modifier: 5, slot: 3 }];
    let a = Slot::Gpr { field: f(24, 31), neg: Some(72), abs: Some(73), not: None, reuse: Some(0) };
    let b = Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(2) };
    let p = |lo| Slot::Pred { uniform: false, field: f(lo, lo + 2), not: None, show: PredShow::Always };
    let slots = vec![p(81), p(84), a, b, pred(87, PredShow::Always)];
    const MODS: &[ModField] = &[CMP, H_AND, FTZ, COMBINE, swizzle(74), swizzle(60)];
    v.push(Form { operand_suffixes: &SWZ, ..g.form("HSETP2", 0x234, FIXED, MODS, slots.clone()) });
    if let Some(sms) = bf16_sms(g) {
        v.push(Form { sms, operand_suffixes: &SWZ, ..g.form("HSETP2.BF16_V2", 0x234, COMPARE_BF16_V2, MODS, slots) });
    }
    // b a uniform register (0xe34, bit 91): `-` 63, `|x|` 62, swizzle
    // 60–61 as HADD2's (`HSETP2.LT.AND P1, PT, R17.H0_H0, UR4.H0_H0, P4`:
    // ptxas 13.5's sm_103 code for a generated program, seed 9932830; bit
    // flips on SM103, the word decodes alike on SM75).
    const UNIFORM_FIXED: &[(Field, u64)] = &[(f(64, 65), 0)];
    let uniform_slots = vec![p(81), p(84), a, g.uniform_b_abs(Some(63), Some(62)), pred(87, PredShow::Always)];
    const SWZ_U: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 4, slot: 2 }, OperandSuffix::ModInBars { modifier: 5, slot: 3 }];
    v.push(Form { operand_suffixes: &SWZ_U, ..g.form("HSETP2", 0xe34, UNIFORM_FIXED, MODS, uniform_slots) });
}

/// HSET2's and HSETP2's `.BF16_V2`: bits 64–65 = 2 (1 and 3 print
/// `.INVALID1`/`.INVALID3`), from sm_90 (ignored before).
const COMPARE_BF16_V2: &[(Field, u64)] = &[(f(64, 65), 2)];

/// The SMs of a generation with the compares' `.BF16_V2`.
fn bf16_sms(g: Generation) -> Option<(u16, u16)> {
    (g.sms.1 >= 90).then_some((g.sms.0.max(90), g.sms.1))
}

/// HMNMX2 and HSET2 with two register sources (sm_80+).
fn min_max_set(v: &mut Vec<Form>, g: Generation) {
    let a = Slot::Gpr { field: f(24, 31), neg: Some(72), abs: Some(73), not: None, reuse: Some(0) };
    let b = Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(1) };
    let slots = vec![RD, a, b, pred(87, PredShow::Always)];
    // HMNMX2 (0x240): the predicate picks min (true) or max; bit 85
    // `.BF16_V2`, 80 `.FTZ`, 81 `.NAN`, from sm_100 82 `.XORSIGN`
    // (printed in that order); 78 prints `.F32` on sm_80 (`.INVALID1`
    // later): kept 0.
    const BF16_V2: ModField = ModField { field: f(85, 85), names: &["", ".BF16_V2"], extra: None };
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const NAN: ModField = ModField { field: f(81, 81), names: &["", ".NAN"], extra: None };
    const XORSIGN: ModField = ModField { field: f(82, 82), names: &["", ".XORSIGN"], extra: None };
    const MNMX_FIXED: &[(Field, u64)] = &[(f(78, 78), 0)];
    const SWZ: [ModField; 2] = [swizzle(74), swizzle(60)];
    const MNMX_MODS: &[ModField] = &[BF16_V2, FTZ, NAN, SWZ[0], SWZ[1]];
    const MNMX_MODS_XORSIGN: &[ModField] = &[BF16_V2, FTZ, NAN, XORSIGN, SWZ[0], SWZ[1]];
    const MNMX_SWZ: [OperandSuffix; 2] = ab_swizzles(3);
    const MNMX_SWZ_XORSIGN: [OperandSuffix; 2] = ab_swizzles(4);
    // `.XORSIGN` (bit 82) from sm_86: ptxas emits it for
    // `min.xorsign.abs.f16` on sm_86 and sm_90, and nvdisasm prints the bit
    // as `.XORSIGN` on SM86, SM89 and SM90 but as nothing on SM80 (where
    // ptxas refuses `.xorsign`).
    let xorsign_from = if g.wide_ur { g.sms.0 } else { 86 };
    if g.sms.0 < xorsign_from {
        let before = g.form("HMNMX2", 0x240, MNMX_FIXED, MNMX_MODS, slots.clone());
        v.push(Form { operand_suffixes: &MNMX_SWZ, sms: (g.sms.0.max(80), xorsign_from - 1), ..before });
    }
    let with_xorsign = g.form("HMNMX2", 0x240, MNMX_FIXED, MNMX_MODS_XORSIGN, slots);
    v.push(Form { operand_suffixes: &MNMX_SWZ_XORSIGN, sms: (xorsign_from.max(80), g.sms.1), ..with_xorsign });
    // Form 5 (0xa40, sm_80–sm_90; nvdisasm refuses it from SM100): b a
    // constant bank (`-` 63, `|x|` 62, swizzle 60–61, inside the bars with
    // `|x|`), the register form's other fields (`HMNMX2.NAN R5,
    // R68.H0_H0, c[0x0] [0xc].H1_H1, !PT`: ptxas 13.5's sm_89 code for a
    // generated program, seed 10196547; bit flips on SM89, the word
    // decodes alike on SM80 and SM90, where bit 82 prints nothing on SM80).
    if !g.wide_ur {
        let bank_slots = vec![RD, a, Slot::CBank { neg: Some(63), abs: Some(62), not: None }, pred(87, PredShow::Always)];
        if g.sms.0 < xorsign_from {
            let before = g.form("HMNMX2", 0xa40, MNMX_FIXED, MNMX_MODS, bank_slots.clone());
            v.push(Form { operand_suffixes: &MNMX_SWZ, sms: (g.sms.0.max(80), xorsign_from - 1), ..before });
        }
        let with_xorsign = g.form("HMNMX2", 0xa40, MNMX_FIXED, MNMX_MODS_XORSIGN, bank_slots);
        v.push(Form { operand_suffixes: &MNMX_SWZ_XORSIGN, sms: (xorsign_from.max(80), g.sms.1.min(90)), ..with_xorsign });
    }
    // Form 6 (0xc40): b a uniform register with the register form's
    // fields (`HMNMX2.NAN R6, R15.H0_H0, UR4.H0_H0, !PT`: ptxas 13.5's code
    // for a generated program, sm_86; bit flips of 32–37 and 60–63 on SM86,
    // the word read alike on SM80–SM120); bit 91 set (the uniform-register
    // flag of form 6, as in the ALU forms).
    // nvdisasm prints the uniform register's swizzle inside its bars
    // (`|UR4.H1_H1|`, where the register form prints `|R4|.H1_H1`).
    const MNMX_UR_FIXED: &[(Field, u64)] = &[(f(78, 78), 0), (f(91, 91), 1)];
    const UR_SWZ: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 3, slot: 1 }, OperandSuffix::ModInBars { modifier: 4, slot: 2 }];
    const UR_SWZ_XORSIGN: [OperandSuffix; 2] = [OperandSuffix::Mod { modifier: 4, slot: 1 }, OperandSuffix::ModInBars { modifier: 5, slot: 2 }];
    let ur_b = Slot::Ur { field: g.ur_field(32), neg: Some(63), abs: Some(62), not: None };
    let ur_slots = vec![RD, a, ur_b, pred(87, PredShow::Always)];
    if g.sms.0 < xorsign_from {
        let before = g.form("HMNMX2", 0xc40, MNMX_UR_FIXED, MNMX_MODS, ur_slots.clone());
        v.push(Form { operand_suffixes: &UR_SWZ, sms: (g.sms.0.max(80), xorsign_from - 1), ..before });
    }
    let with_xorsign = g.form("HMNMX2", 0xc40, MNMX_UR_FIXED, MNMX_MODS_XORSIGN, ur_slots);
    v.push(Form { operand_suffixes: &UR_SWZ_XORSIGN, sms: (xorsign_from.max(80), g.sms.1), ..with_xorsign });
    // Form 4 (0x840): b two f16 immediates (`HMNMX2.XORSIGN R8, |R8|, 4,
    // 4, PT`, ptxas 13.5's `min.xorsign.abs.f16` of a constant in Triton
    // 3.9's fma_clamp_f16 on sm_90 and sm_100; single-bit flips on sm_90;
    // the same word without bit 82 decodes on sm_80). `.BF16_V2` prints
    // the immediates as bf16 values (kept 0), bit 65 adds `.IS_A` and two
    // predicates (kept 0).
    const IMM_FIXED: &[(Field, u64)] = &[(f(78, 78), 0), (f(85, 85), 0)];
    const IMM_MODS: &[ModField] = &[FTZ, NAN, SWZ[0]];
    const IMM_MODS_XORSIGN: &[ModField] = &[FTZ, NAN, XORSIGN, SWZ[0]];
    const IMM_SWZ: [OperandSuffix; 1] = [OperandSuffix::Mod { modifier: 2, slot: 1 }];
    const IMM_SWZ_XORSIGN: [OperandSuffix; 1] = [OperandSuffix::Mod { modifier: 3, slot: 1 }];
    let imm_slots = vec![RD, a, Slot::Half2, pred(87, PredShow::Always)];
    if g.sms.0 < xorsign_from {
        let before = g.form("HMNMX2", 0x840, IMM_FIXED, IMM_MODS, imm_slots.clone());
        v.push(Form { operand_suffixes: &IMM_SWZ, sms: (g.sms.0.max(80), xorsign_from - 1), ..before });
    }
    let with_xorsign = g.form("HMNMX2", 0x840, IMM_FIXED, IMM_MODS_XORSIGN, imm_slots);
    v.push(Form { operand_suffixes: &IMM_SWZ_XORSIGN, sms: (xorsign_from.max(80), g.sms.1), ..with_xorsign });
    // VHMNMX (0x247, sm_90 and sm_100): HMNMX2 of three sources, c in
    // 64–71 (`-` 84, `|x|` 83, swizzle 76–77): ptxas 13.5 joins two
    // min.f16 / max.f16 into one (`VHMNMX R16, R16.H0_H0, R25.H0_H0,
    // R25.H0_H0, PT`, `VHMNMX.NAN ..., !PT`). Bit flips on SM90: HMNMX2's
    // a and b fields and modifiers (80 `.FTZ`, 81 `.NAN`, 82 `.XORSIGN`,
    // 85 `.BF16_V2`), 78 `.INVALID1` (kept 0), 79 and 86 print nothing
    // (clear); nvdisasm refuses the opcode on SM80 and SM120.
    if g.sms.0 <= 100 && g.sms.1 >= 90 {
        let c = Slot::Gpr { field: f(64, 71), neg: Some(84), abs: Some(83), not: None, reuse: Some(2) };
        // `.XORSIGN` kept 0: an instruction holds at most six modifiers.
        const VH_FIXED: &[(Field, u64)] = &[(f(78, 78), 0), (f(82, 82), 0)];
        const VH_MODS: &[ModField] = &[BF16_V2, FTZ, NAN, swizzle(74), swizzle(60), swizzle(76)];
        const VH_SWZ: [OperandSuffix; 3] = abc_swizzles(3);
        let sms = (g.sms.0.max(90), g.sms.1.min(100));
        v.push(Form { operand_suffixes: &VH_SWZ, sms, ..g.form("VHMNMX", 0x247, VH_FIXED, VH_MODS, vec![RD, a, b, c, pred(87, PredShow::Always)]) });
        // Bit 82 set: `.XORSIGN`, printed after `.NAN` (bit flips on SM90
        // and SM100: `VHMNMX.BF16_V2.FTZ.NAN.XORSIGN R5, R0.H0_H0, ...`).
        const VH_XORSIGN: &[(Field, u64)] = &[(f(78, 78), 0), (f(82, 82), 1)];
        v.push(Form { operand_suffixes: &VH_SWZ, sms, suffix: ".XORSIGN", ..g.form("VHMNMX", 0x247, VH_XORSIGN, VH_MODS, vec![RD, a, b, c, pred(87, PredShow::Always)]) });
    }
    // HSET2 (0x233): a mask (or 1.0 with `.BF`, bit 71) per half where the
    // comparison (76–79, FSETP's) combined with the predicate holds; 80
    // `.FTZ`, 69–70 the combination. 64–65 (`.BF16_V2` from sm_90) kept 0.
    const BF: ModField = ModField { field: f(71, 71), names: &["", ".BF"], extra: None };
    const CMP: ModField = super::FLOAT_CMP;
    const COMBINE: ModField = ModField { field: f(69, 70), names: &[".AND", ".OR", ".XOR"], extra: None };
    const SET_FIXED: &[(Field, u64)] = &[(f(64, 65), 0)];
    const SET_SWZ: [OperandSuffix; 2] = ab_swizzles(4);
    // HSET2's b carries the c operand's reuse flag (index 2; nvdisasm
    // refuses index 1; oracle). The same layout on sm_75 (bit flips).
    let b_reuse_c = Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(2) };
    let set_slots = vec![RD, a, b_reuse_c, pred(87, PredShow::Always)];
    const SET_MODS: &[ModField] = &[BF, CMP, FTZ, COMBINE, SWZ[0], SWZ[1]];
    v.push(Form { operand_suffixes: &SET_SWZ, ..g.form("HSET2", 0x233, SET_FIXED, SET_MODS, set_slots.clone()) });
    if let Some(sms) = bf16_sms(g) {
        v.push(Form { sms, operand_suffixes: &SET_SWZ, ..g.form("HSET2.BF16_V2", 0x233, COMPARE_BF16_V2, SET_MODS, set_slots) });
    }
    // HSET2 with b two f16 immediates (0x433, 32–63), the rest as the
    // register form's (a's swizzle 74–75); 64–65 kept 0 (`HSET2.LT.FTZ.AND
    // R6, R60.H0_H0, -0.134521484375, -0.134521484375, PT`: ptxas 13.5's
    // sm_75 code for a generated program, seed 10160472; single-bit flips
    // on SM75, the word decodes alike on SM80–SM120).
    const SET_IMM_SWZ: [OperandSuffix; 1] = [OperandSuffix::Mod { modifier: 4, slot: 1 }];
    const SET_IMM_MODS: &[ModField] = &[BF, CMP, FTZ, COMBINE, SWZ[0]];
    v.push(Form { operand_suffixes: &SET_IMM_SWZ, ..g.form("HSET2", 0x433, SET_FIXED, SET_IMM_MODS, vec![RD, a, Slot::Half2, pred(87, PredShow::Always)]) });
}
