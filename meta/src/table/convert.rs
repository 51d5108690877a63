//! Conversions: F2I, I2F, I2FP, F2F and FRND, each with one source in the b
//! position (register, immediate, constant or uniform register: forms 1, 4,
//! 5, 6). Fields (single-bit flips and field enumerations of corpus words
//! with nvdisasm 13.5 on sm_80 and sm_90):
//! * destination type 75–76 (F2F, FRND: 75–77) and source type 84–85,
//!   each a size (0 = 8, 1 = 16, 2 = 32, 3 = 64 bits; for floats 1 = F16,
//!   2 = F32, 3 = F64, and F2F's destination 4 = BF16); the integer side's
//!   signedness is bit 72 (F2I) or bit 74 (I2F, I2FP);
//! * rounding 78–79, `.FTZ` 80, F2I's `.NTZ` 77;
//! * the float source's `|x|` 62 and `-x` 63 (nvdisasm ignores them on
//!   integer sources, so they stay clear there);
//! * a second opcode for conversions with a 64-bit side (F2I 0x311, I2F
//!   0x312, F2F 0x310, FRND 0x313), on which a 32-bit-only combination is
//!   refused.
//!
//! Only the type combinations nvdisasm accepts are spelled; the others stay
//! [`UNMEASURED`] and do not decode. Immediates are spelled as the source
//! type says (an `f32`, the high half of an `f64`, or a hex integer, signed
//! when the source is, or an `f16` in the low half for F16 sources); 8-
//! and 16-bit integer sources take no immediate here, as their printing is
//! not measured.

use super::{Generation, RD, cbank, f};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, Slot, UNMEASURED as U};
use crate::isa::widths::{Declare, OperandWidths, Width};

/// A static list of spellings, `names[v]` for each `(v, name)` and
/// [`U`] elsewhere.
fn names(len: usize, spelled: &[(usize, &'static str)]) -> &'static [&'static str] {
    let mut out = vec![U; len];
    for &(v, s) in spelled {
        out[v] = s;
    }
    Box::leak(out.into_boxed_slice())
}

fn leak_fixed(fixed: Vec<(Field, u64)>) -> &'static [(Field, u64)] {
    Box::leak(fixed.into_boxed_slice())
}

fn leak_mods(mods: Vec<ModField>) -> &'static [ModField] {
    Box::leak(mods.into_boxed_slice())
}

const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
const ROUND_INT: ModField = ModField { field: f(78, 79), names: &["", ".FLOOR", ".CEIL", ".TRUNC"], extra: None };
const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
const NTZ: ModField = ModField { field: f(77, 77), names: &["", ".NTZ"], extra: None };

/// The source operand of a conversion.
#[derive(Clone, Copy)]
enum Source {
    /// A float: register with `-`/`|x|`, immediate `f32` or `f64` high half.
    Float,
    /// An integer: no source modifiers; immediate in hex.
    Int,
}

/// Pushes the register, constant and uniform forms (1, 5, 6) of a
/// conversion, and the immediate form (4) for each `(fixed, mods, slot)`;
/// returns them (the row declares their operand widths).
#[allow(clippy::too_many_arguments)] // one call per opcode and type layout
fn push<'a>(
    v: &'a mut Vec<Form>,
    g: Generation,
    sms: (u16, u16),
    name: &'static str,
    op9: u16,
    fixed: &[(Field, u64)],
    mods: &'static [ModField],
    cbank_mods: Option<&'static [ModField]>,
    src: Source,
    imms: &[(Vec<(Field, u64)>, &'static [ModField], Slot)],
) -> &'a mut [Form] {
    let first = v.len();
    // a (24–31), c (64–71) unused; 81–83 and 86–90 clear (nvdisasm ignores them).
    let common = [(f(24, 31), 0), (f(64, 71), 0), (f(81, 83), 0), (f(86, 90), 0)];
    let (neg, abs) = match src {
        Source::Float => (Some(63), Some(62)),
        Source::Int => (None, None),
    };
    // Integer sources: bits 60–63 (byte select of 8-bit sources) clear.
    let int_fixed: &[(Field, u64)] = match src {
        Source::Float => &[],
        Source::Int => &[(f(60, 63), 0)],
    };
    let all: Vec<(Field, u64)> = common.iter().chain(fixed).chain(int_fixed).copied().collect();
    let all = leak_fixed(all);
    let reg = Slot::Gpr { field: f(32, 39), neg, abs, not: None, reuse: Some(1) };
    let at = |form: Form| Form { sms, ..form };
    v.push(at(g.form(name, 0x200 | op9, all, mods, vec![RD, reg])));
    // sm_100+ has no constant-bank operands in ALU instructions.
    if let (false, Some(m)) = (g.wide_ur, cbank_mods) {
        v.push(at(g.form(name, 0xa00 | op9, all, m, vec![RD, cbank(neg, abs, None)])));
    }
    // A float source's uniform register takes `|x|` (62) as its register
    // does (`F2I.U8.F16.TRUNC.NTZ R0, |UR4|`: ptxas 13.5's code for
    // `cvt.rzi.u8.f16` of a parameter's |high half|, sm_80 to sm_120; bit
    // flips of F2I, F2F and FRND words on SM90).
    v.push(at(g.form(name, 0xc00 | op9, all, mods, vec![RD, g.uniform_b_abs(neg, abs)])));
    for (extra, mods, slot) in imms {
        let fixed: Vec<(Field, u64)> = common.iter().chain(fixed).chain(extra).copied().collect();
        v.push(at(g.form(name, 0x800 | op9, leak_fixed(fixed), mods, vec![RD, *slot])));
    }
    &mut v[first..]
}

/// F2I, I2F, I2FP, F2F, FRND.
pub(super) fn conversions(v: &mut Vec<Form>, g: Generation) {
    let sms = g.sms;
    let f32_imm = Slot::Float { f64: false, shadowed: None };
    let f64_imm = Slot::Float { f64: true, shadowed: None };
    // An F16 source's immediate: bits 32–47 (48–63, and the register
    // forms' `-`/`|x|` bits 62–63, print nothing and stay clear). ptxas
    // 13.5's `cvt.rmi.s32.f16` of a constant (`F2I.F16.FLOOR.NTZ R12,
    // 14.484375`, word 0x00004b3e000c7905: sm_75 to sm_120); FRND, F2F and
    // the 64-bit F2I by the source-type bits of that word (nvdisasm 13.5,
    // SM75, SM90, SM120).
    let f16_imm = Slot::Half;

    // ---- F2I: destination size 75–76 with signedness 72 (value + 4 when signed).
    let int_dst = |spelled: &[(usize, &'static str)]| ModField { field: f(75, 76), names: names(8, spelled), extra: Some(72) };
    let dst32 = [(0, ".U8"), (1, ".U16"), (2, ".U32"), (4, ".S8"), (5, ".S16"), (6, "")];
    let dst64 = [(3, ".U64"), (7, ".S64")];
    let float_src = |spelled: &[(usize, &'static str)]| ModField { field: f(84, 85), names: names(4, spelled), extra: None };
    let f2i_fixed = [(f(73, 74), 0)];
    // The result as wide as the destination type (`.S64`, `.U64`: a pair),
    // the source as the source type (`.F64`).
    let f2i_widths = OperandWidths::ONE.result(Width::SizeOf(1)).sources(Width::SizeOf(2));
    // 0x105: F16/F32 to at most 32 bits.
    let mods = |dst: ModField, src: ModField| leak_mods(vec![FTZ, dst, src, ROUND_INT, NTZ]);
    let d32 = int_dst(&dst32);
    let imm_f32 = vec![(vec![], mods(d32, float_src(&[(2, "")])), f32_imm), (vec![], mods(d32, float_src(&[(1, ".F16")])), f16_imm)];
    // Constant operands of F16 sources print as `c[0x8] [0x2ed0]`: not modelled.
    push(v, g, sms, "F2I", 0x105, &f2i_fixed, mods(d32, float_src(&[(1, ".F16"), (2, "")])), Some(imm_f32[0].1), Source::Float, &imm_f32).widths(f2i_widths);
    // 0x111: from F64 to any size, or from F16/F32 to 64 bits.
    let all_dst: Vec<(usize, &'static str)> = dst32.iter().chain(&dst64).copied().collect();
    let dall = int_dst(&all_dst);
    let from_f64 = mods(dall, float_src(&[(3, ".F64")]));
    push(v, g, sms, "F2I", 0x111, &f2i_fixed, from_f64, Some(from_f64), Source::Float, &[(vec![], from_f64, f64_imm)]).widths(f2i_widths);
    let d64 = int_dst(&dst64);
    let imm = vec![(vec![], mods(d64, float_src(&[(2, "")])), f32_imm), (vec![], mods(d64, float_src(&[(1, ".F16")])), f16_imm)];
    push(v, g, sms, "F2I", 0x111, &f2i_fixed, mods(d64, float_src(&[(1, ".F16"), (2, "")])), Some(imm[0].1), Source::Float, &imm).widths(f2i_widths);

    // UF2I (0x25c, sm_120): F2I of an F32 uniform register (32–39, `-` 63,
    // `|x|` 62) into a uniform register, with F2I's 32-bit destination
    // types, rounding, `.FTZ` and `.NTZ`; 84–85 hold the F32 source (2; the
    // others are refused), bit 91 set (`UF2I.FTZ.U32.TRUNC.NTZ UR5, UR4`:
    // ptxas 13.5's sm_120 code for a generated program, seed 9110786; bit
    // flips, sm_120; SM100 refuses the word).
    if g.wide_ur {
        let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
        let ur_b = Slot::Ur { field: g.ur_field(32), neg: Some(63), abs: Some(62), not: None };
        let fixed = leak_fixed(vec![(f(73, 74), 0), (f(84, 85), 2), (f(91, 91), 1)]);
        let mods = leak_mods(vec![FTZ, d32, ROUND_INT, NTZ]);
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UF2I", 0x25c, fixed, mods, vec![ur_d, ur_b]) });
        // An f32 immediate source (0x85c, 32–63): `UF2I.S16.NTZ UR4, 1`,
        // ptxas 13.5's sm_120 code for a generated program, seed 9970999.
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UF2I", 0x85c, fixed, mods, vec![ur_d, f32_imm]) });
        // An F16 source (84–85 = 1, printed `.F16` after the destination
        // type): the register's low half, its high half with bit 60 (`.H1`,
        // inside `|x|` as F2I's), or an f16 immediate in 32–47
        // (`UF2I.U8.F16.TRUNC.NTZ UR4, URZ`: ptxas 13.5's sm_120 code for
        // a generated program, seed 10087343; bit flips of that word,
        // sm_120).
        let f16_fixed = leak_fixed(vec![(f(73, 74), 0), (f(91, 91), 1)]);
        let f16_mods = leak_mods(vec![FTZ, d32, float_src(&[(1, ".F16")]), ROUND_INT, NTZ]);
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UF2I", 0x25c, f16_fixed, f16_mods, vec![ur_d, ur_b]) });
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UF2I", 0x85c, f16_fixed, f16_mods, vec![ur_d, f16_imm]) });
        let high_mods = leak_mods(vec![FTZ, d32, float_src(&[(1, ".F16")]), ROUND_INT, NTZ, F16_HIGH]);
        v.push(Form { sms: (120, 120), uniform_guard: true, operand_suffixes: HIGH, ..g.form("UF2I", 0x25c, f16_fixed, high_mods, vec![ur_d, ur_b]) });
    }

    // The high half of an F16 source (bit 60 `.H1`, printed after the
    // register; 61 prints `.INVALID2`/`.INVALID3`, and with an F32 source
    // the bit prints nothing), `|x|` 62 printed around register and suffix
    // (`|R0.H1|`, `-|R0.H1|`). ptxas 13.5's `cvt.rni.s32.f16` /
    // `cvt.rni.s64.f16` of a register's high half (`F2I.F16.NTZ R8,
    // R0.H1`, `F2I.S64.F16 R6, R0.H1`: sm_75, sm_86, sm_90, sm_120), and
    // of its absolute value (`F2I.F16.FLOOR.NTZ R7, |R0.H1|`,
    // `F2I.S64.F16.FLOOR R4, |R0.H1|`: sm_75 to sm_120); bit flips on SM90.
    const F16_HIGH: ModField = ModField { field: f(60, 61), names: &[U, ".H1", U, U], extra: None };
    const HIGH: &[OperandSuffix] = &[OperandSuffix::ModInBars { modifier: 5, slot: 1 }];
    let high_fixed = leak_fixed([(f(24, 31), 0), (f(64, 71), 0), (f(81, 83), 0), (f(86, 90), 0)].into_iter().chain(f2i_fixed).collect());
    let high_reg = Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(1) };
    for (op9, dst) in [(0x105u16, d32), (0x111, d64)] {
        let mods = leak_mods(vec![FTZ, dst, float_src(&[(1, ".F16")]), ROUND_INT, NTZ, F16_HIGH]);
        v.push(Form { sms, operand_suffixes: HIGH, ..g.form("F2I", 0x200 | op9, high_fixed, mods, vec![RD, high_reg]) }.widths(f2i_widths));
    }
    // An F16 source in a constant bank (sm_75–sm_90; sm_100+ has no banks in
    // ALU instructions): the register form's fields, `.H1` 60 optional,
    // and nvdisasm spaces the bank from the offset as before any suffix
    // (`F2I.U32.F16 R5, c[0x0] [0x168]`, `FRND.F16 R5, |c[0x0]
    // [0x168].H1|`). ptxas 13.5's `cvt.rni.f16.f16` of a parameter (word
    // 0x00005a0000057b07 on sm_75 and sm_80), bit flips on SM75, SM80 and
    // SM90 for F2I, F2F and FRND.
    const F16_HIGH_OR_LOW: ModField = ModField { field: f(60, 61), names: &["", ".H1", U, U], extra: None };
    let f16_bank = Slot::CBank { neg: Some(63), abs: Some(62), not: None };
    let bank_fixed = |extra: &[(Field, u64)]| leak_fixed([(f(24, 31), 0), (f(64, 71), 0), (f(81, 83), 0), (f(86, 90), 0)].into_iter().chain(extra.iter().copied()).collect());
    if !g.wide_ur {
        for (op9, dst) in [(0x105u16, d32), (0x111, d64)] {
            let mods = leak_mods(vec![FTZ, dst, float_src(&[(1, ".F16")]), ROUND_INT, NTZ, F16_HIGH_OR_LOW]);
            v.push(Form { sms, operand_suffixes: HIGH, ..g.form("F2I", 0xa00 | op9, bank_fixed(&f2i_fixed), mods, vec![RD, f16_bank]) }.widths(f2i_widths));
        }
    }

    // ---- I2F: destination float 75–76, source size 84–85 with signedness 74.
    let float_dst = |spelled: &[(usize, &'static str)]| ModField { field: f(75, 76), names: names(4, spelled), extra: None };
    let int_src = |spelled: &[(usize, &'static str)]| ModField { field: f(84, 85), names: names(8, spelled), extra: Some(74) };
    // Immediates: the signedness fixed, so that the immediate prints signed or not.
    let int_src_of = |spelled: &[(usize, &'static str)], signed: bool| {
        let only: Vec<(usize, &'static str)> = spelled.iter().filter(|(k, _)| (*k >= 4) == signed).map(|&(k, s)| (k & 3, s)).collect();
        ModField { field: f(84, 85), names: names(4, &only), extra: None }
    };
    let src32 = [(0, ".U8"), (1, ".U16"), (2, ".U32"), (4, ".S8"), (5, ".S16"), (6, "")];
    let src64 = [(3, ".U64"), (7, ".S64")];
    let i2f_fixed = [(f(72, 73), 0), (f(77, 77), 0), (f(80, 80), 0)];
    let i2f_mods = |dst: ModField, src: ModField| leak_mods(vec![dst, src, ROUND]);
    // The result as wide as the destination type (`.F64`: a pair), the
    // source as the source type (`.S64`, `.U64`).
    let i2f_widths = OperandWidths::ONE.result(Width::SizeOf(0)).sources(Width::SizeOf(1));
    let imms = |dst: ModField, spelled: &[(usize, &'static str)]| -> Vec<(Vec<(Field, u64)>, &'static [ModField], Slot)> {
        // Only 32- and 64-bit sources take an immediate here.
        let wide: Vec<(usize, &'static str)> = spelled.iter().filter(|(k, _)| k & 3 >= 2).copied().collect();
        [false, true]
            .into_iter()
            .filter(|s| wide.iter().any(|(k, _)| (*k >= 4) == *s))
            .map(|signed| (vec![(f(74, 74), u64::from(signed))], i2f_mods(dst, int_src_of(&wide, signed)), Slot::Imm32 { signed }))
            .collect()
    };
    let f32_dst = float_dst(&[(1, ".F16"), (2, "")]);
    // Constant operands of 8- and 16-bit sources print as `c[0x8] [0x2ed0]`: not modelled.
    let wide = |spelled: &[(usize, &'static str)]| -> Vec<(usize, &'static str)> { spelled.iter().filter(|(k, _)| k & 3 >= 2).copied().collect() };
    push(v, g, sms, "I2F", 0x106, &i2f_fixed, i2f_mods(f32_dst, int_src(&src32)), Some(i2f_mods(f32_dst, int_src(&wide(&src32)))), Source::Int, &imms(f32_dst, &src32)).widths(i2f_widths);
    let all_src: Vec<(usize, &'static str)> = src32.iter().chain(&src64).copied().collect();
    let f64_dst = float_dst(&[(3, ".F64")]);
    push(v, g, sms, "I2F", 0x112, &i2f_fixed, i2f_mods(f64_dst, int_src(&all_src)), Some(i2f_mods(f64_dst, int_src(&wide(&all_src)))), Source::Int, &imms(f64_dst, &all_src)).widths(i2f_widths);
    push(v, g, sms, "I2F", 0x112, &i2f_fixed, i2f_mods(f32_dst, int_src(&src64)), Some(i2f_mods(f32_dst, int_src(&src64))), Source::Int, &imms(f32_dst, &src64)).widths(i2f_widths);
    // A byte or half of a register as the source: bits 60–61 select it
    // for 8-bit sources (`I2F.U8 R5, R2.B1`; 0 prints nothing, the forms
    // above) and 16-bit ones (1 `.H1`; 2 and 3 print `.INVALIDn`), printed
    // after the register. ptxas's words (sm_75, sm_80) and bit flips
    // (sm_80, 90, 120).
    const BYTE: ModField = ModField { field: f(60, 61), names: &[U, ".B1", ".B2", ".B3"], extra: None };
    const HALF: ModField = ModField { field: f(60, 61), names: &[U, ".H1", U, U], extra: None };
    const SELECT: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 3, slot: 1 }];
    let select_fixed: Vec<(Field, u64)> = [(f(24, 31), 0), (f(64, 71), 0), (f(81, 83), 0), (f(86, 90), 0), (f(62, 63), 0)].into_iter().chain(i2f_fixed).collect();
    let select_fixed = leak_fixed(select_fixed);
    let reg = Slot::Gpr { field: f(32, 39), neg: None, abs: None, not: None, reuse: Some(1) };
    for (op9, dst) in [(0x106u16, f32_dst), (0x112, f64_dst)] {
        for (sizes, select) in [(&[(0usize, ".U8"), (4, ".S8")][..], BYTE), (&[(1, ".U16"), (5, ".S16")][..], HALF)] {
            let mods = leak_mods(vec![dst, int_src(sizes), ROUND, select]);
            v.push(Form { sms, operand_suffixes: SELECT, ..g.form("I2F", 0x200 | op9, select_fixed, mods, vec![RD, reg]) }.widths(i2f_widths));
        }
    }

    // ---- I2FP (sm_86+): F32 from a 32-bit integer; destination 75–77 and
    // both types always printed; 78–79 clear (other values print `.INVALIDn`).
    let i2fp_sms = (sms.0.max(86), sms.1);
    let i2fp_dst = ModField { field: f(75, 77), names: names(8, &[(2, ".F32")]), extra: None };
    let i2fp_src = [(2, ".U32"), (6, ".S32")];
    // Rounding 78–79: I2FP has nearest (0) and `.RZ` (3); ptxas 13.5 uses
    // I2F for `.rm`/`.rp` (`cvt.rz.f32.s32` -> I2FP.F32.S32.RZ, high word
    // 0x...d400 against 0x...1400 for `.rn`).
    let i2fp_round = ModField { field: f(78, 79), names: names(4, &[(0, ""), (3, ".RZ")]), extra: None };
    let i2fp_fixed = [(f(72, 73), 0), (f(80, 80), 0)];
    let i2fp_mods = |src: ModField| leak_mods(vec![i2fp_dst, src, i2fp_round]);
    let i2fp_imms: Vec<_> = [false, true]
        .into_iter()
        .map(|signed| (vec![(f(74, 74), u64::from(signed))], i2fp_mods(int_src_of(&i2fp_src, signed)), Slot::Imm32 { signed }))
        .collect();
    push(v, g, i2fp_sms, "I2FP", 0x045, &i2fp_fixed, i2fp_mods(int_src(&i2fp_src)), Some(i2fp_mods(int_src(&i2fp_src))), Source::Int, &i2fp_imms);

    // ---- F2F: one form per destination (75–77), the pair printed by the source field (84–85).
    // The result a pair for an F64 destination (3), the source for an F64
    // source (the source field's value 3).
    const F64_PAIR: &[u8] = &[1, 1, 1, 2];
    let f2f_widths = |dst: u64| OperandWidths::ONE.result(Width::Regs(if dst == 3 { 2 } else { 1 })).sources(Width::ByMod(1, F64_PAIR));
    let f2f = |v: &mut Vec<Form>, sms: (u16, u16), op9: u16, dst: u64, pairs: &[(usize, &'static str)]| {
        let pair = ModField { field: f(84, 85), names: names(4, pairs), extra: None };
        let m = leak_mods(vec![FTZ, pair, ROUND]);
        let imms: Vec<_> = pairs
            .iter()
            .filter(|(src, _)| *src >= 2)
            .map(|&(src, s)| {
                let only = ModField { field: f(84, 85), names: names(4, &[(src, s)]), extra: None };
                (vec![], leak_mods(vec![FTZ, only, ROUND]), if src == 3 { f64_imm } else { f32_imm })
            })
            .chain(pairs.iter().filter(|(src, _)| *src == 1).map(|&(src, s)| {
                let only = ModField { field: f(84, 85), names: names(4, &[(src, s)]), extra: None };
                (vec![], leak_mods(vec![FTZ, only, ROUND]), f16_imm)
            }))
            .collect();
        let wide: Vec<(usize, &'static str)> = pairs.iter().filter(|(src, _)| *src >= 2).copied().collect();
        let cb = (!wide.is_empty()).then(|| leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &wide), extra: None }, ROUND]));
        push(v, g, sms, "F2F", op9, &[(f(75, 77), dst), (f(72, 74), 0)], m, cb, Source::Float, &imms).widths(f2f_widths(dst));
    };
    f2f(v, sms, 0x104, 2, &[(1, ".F32.F16")]);
    f2f(v, sms, 0x104, 1, &[(2, ".F16.F32")]);
    // BF16 from sm_80 (sm_75 prints nothing for it).
    f2f(v, (sms.0.max(80), sms.1), 0x104, 4, &[(2, ".BF16.F32")]);
    f2f(v, sms, 0x110, 3, &[(1, ".F64.F16"), (2, ".F64.F32")]);
    f2f(v, sms, 0x110, 1, &[(3, ".F16.F64")]);
    f2f(v, sms, 0x110, 2, &[(3, ".F32.F64")]);

    // ---- FRND: same type on both sides (75–76 = 84–85); bit 77 clear.
    for (op9, ty, text) in [(0x107u16, 1u64, ".F16"), (0x107, 2, ""), (0x113, 3, ".F64")] {
        let m = leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &[(ty as usize, text)]), extra: None }, ROUND_INT]);
        let imm = match ty {
            1 => vec![(vec![], m, f16_imm)],
            2 => vec![(vec![], m, f32_imm)],
            _ => vec![(vec![], m, f64_imm)],
        };
        // Both sides of the type's size (`.F64`: pairs).
        push(v, g, sms, "FRND", op9, &[(f(75, 77), ty), (f(72, 74), 0)], m, (ty >= 2).then_some(m), Source::Float, &imm).widths(OperandWidths::all(Width::SizeOf(1)));
    }

    // ---- F2F and FRND of an F16 source's high half: bit 60 `.H1` after
    // the register, as F2I's above (61 prints `.INVALID2`/`.INVALID3`,
    // `|x|` 62 prints around register and suffix). ptxas 13.5's
    // `cvt.f64.f16` and `cvt.rpi.f16.f16` of a register's high half
    // (`F2F.F64.F16 R38, R9.H1`, `FRND.F16.CEIL R32, R21.H1`: sm_75 to
    // sm_120) and `cvt.rmi.f16.f16` of its absolute value (`FRND.F16.FLOOR
    // R9, |R0.H1|`: sm_75 to sm_120), bit flips on SM90 (`F2F.F32.F16 R38,
    // R9.H1` is 0x304's).
    const HIGH_HALF: ModField = ModField { field: f(60, 61), names: &[U, ".H1", U, U], extra: None };
    const HIGH_SUFFIX: &[OperandSuffix] = &[OperandSuffix::ModInBars { modifier: 3, slot: 1 }];
    let high_fixed = |dst: u64| leak_fixed(vec![(f(24, 31), 0), (f(64, 71), 0), (f(81, 83), 0), (f(86, 90), 0), (f(75, 77), dst), (f(72, 74), 0)]);
    for (op9, dst, text) in [(0x104u16, 2u64, ".F32.F16"), (0x110, 3, ".F64.F16")] {
        let m = leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &[(1, text)]), extra: None }, ROUND, HIGH_HALF]);
        v.push(Form { sms, operand_suffixes: HIGH_SUFFIX, ..g.form("F2F", 0x200 | op9, high_fixed(dst), m, vec![RD, high_reg]) }.widths(f2f_widths(dst)));
    }
    let m = leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &[(1, ".F16")]), extra: None }, ROUND_INT, HIGH_HALF]);
    v.push(Form { sms, operand_suffixes: HIGH_SUFFIX, ..g.form("FRND", 0x307, high_fixed(1), m, vec![RD, high_reg]) });
    if !g.wide_ur {
        for (op9, dst, text) in [(0x104u16, 2u64, ".F32.F16"), (0x110, 3, ".F64.F16")] {
            let m = leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &[(1, text)]), extra: None }, ROUND, F16_HIGH_OR_LOW]);
            v.push(Form { sms, operand_suffixes: HIGH_SUFFIX, ..g.form("F2F", 0xa00 | op9, bank_fixed(&[(f(75, 77), dst), (f(72, 74), 0)]), m, vec![RD, f16_bank]) }.widths(f2f_widths(dst)));
        }
        let m = leak_mods(vec![FTZ, ModField { field: f(84, 85), names: names(4, &[(1, ".F16")]), extra: None }, ROUND_INT, F16_HIGH_OR_LOW]);
        v.push(Form { sms, operand_suffixes: HIGH_SUFFIX, ..g.form("FRND", 0xa00 | 0x107, bank_fixed(&[(f(75, 77), 1), (f(72, 74), 0)]), m, vec![RD, f16_bank]) }.widths(OperandWidths::all(Width::SizeOf(1))));
    }

    // ---- F2IP (sm_86+, 0x043): an F32 converted to an 8-bit integer
    // (ptxas 13.5's `cvt.rni.u8.f32` / `cvt.rzi.u8.f32` from sm_86 on:
    // `F2IP.U8.F32.NTZ R0, RZ, R23, RZ`, `F2IP.U8.F32.TRUNC.NTZ R8, RZ, R3,
    // RZ`, the result in the low byte, a and c RZ). Bit flips on SM90: a
    // 24–31, b 32–39 (register, f32 immediate, constant, uniform register;
    // 60–63 print nothing and stay clear), c 64–71 (0x443/0x643 put the
    // immediate or constant there instead: not modelled), 72 `c.H1` (kept
    // 0), 74 `.NTZ`, 75 `.RELU`, 76–77 the type (2, 3 `.INVALIDn`), 78–79
    // the rounding (1, 2 `.INVALIDn`); 73 and 80–90 print nothing (clear).
    // sm_80 refuses the opcode.
    const F2IP_TYPE: ModField = ModField { field: f(76, 77), names: &[".U8.F32", ".S8.F32", U, U], extra: None };
    const F2IP_ROUND: ModField = ModField { field: f(78, 79), names: &["", U, U, ".TRUNC"], extra: None };
    const F2IP_NTZ: ModField = ModField { field: f(74, 74), names: &["", ".NTZ"], extra: None };
    const F2IP_RELU: ModField = ModField { field: f(75, 75), names: &["", ".RELU"], extra: None };
    const F2IP_MODS: &[ModField] = &[F2IP_TYPE, F2IP_ROUND, F2IP_NTZ, F2IP_RELU];
    let f2ip_sms = (sms.0.max(86), sms.1);
    let a = Slot::Gpr { field: f(24, 31), neg: None, abs: None, not: None, reuse: Some(0) };
    let c = Slot::Gpr { field: f(64, 71), neg: None, abs: None, not: None, reuse: Some(2) };
    let sources = [
        (0x243u16, Slot::Gpr { field: f(32, 39), neg: None, abs: None, not: None, reuse: Some(1) }),
        (0x843, f32_imm),
        (0xa43, cbank(None, None, None)),
        (0xc43, g.uniform_b(None, None)),
    ];
    for (opcode, b) in sources {
        if g.wide_ur && opcode == 0xa43 {
            continue;
        }
        v.push(Form { sms: f2ip_sms, ..g.form("F2IP", opcode, &[], F2IP_MODS, vec![RD, a, b, c]) });
    }
}
