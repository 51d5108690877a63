//! Tensor-core forms: HMMA (half / bf16 / tf32 matrix multiply-accumulate),
//! IMMA (8- and 4-bit integers), BMMA (single bits), DMMA (f64), MOVM
//! (8×8 transposition), STSM (matrix stores to shared memory) and LDSM (matrix loads from shared memory). `nvdisasm` prints only the
//! first register of each register tuple, so the operands are plain
//! registers here. Fields from single-bit flips and field enumerations of
//! the words ptxas emits for ZLUDA's mma and ldmatrix tests (sm_80, sm_90,
//! sm_120, nvdisasm 13.5).

use super::{Generation, RD, f, gpr};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, Slot, UNMEASURED as U};
use crate::isa::widths::{Declare, OperandWidths, Width};

/// The forms of this module.
pub(super) fn matrix_ops(v: &mut Vec<Form>, g: Generation) {
    // ---- HMMA (0x23c): d, a, b, c; shape bit 75 with 78 as its high bit
    // (0 `.1688`, 1 `.16816`, 2 `.1684`), result type 76 (`.F16`,
    // `.F32`), input type 82–83 (f16, `.BF16`, `.TF32`); bit 73 is the
    // sparse form (`.SP`); 72 and 63 negate a and b. nvdisasm refuses many
    // combinations of these (some SMs refuse negation, 1688 with f16
    // results and bf16, tf32 with 16816...), so only the forms PTX's mma
    // emits are here (ptxas 13.5 on sm_80, 86, 89, 90, 100, 120):
    // m16n8k16 and m16n8k8 with f32 results from f16 or bf16 (m16n8k8
    // also tf32), f16 results from f16, m16n8k4 tf32.
    const F32: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 3), (f(78, 78), 0), (f(83, 83), 0)];
    const F16: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 1), (f(78, 78), 0), (f(82, 83), 0)];
    const K8_F32: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 2), (f(78, 78), 0)];
    const K8_F16: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 0), (f(78, 78), 0), (f(82, 83), 0)];
    const K4_TF32: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 2), (f(78, 78), 1), (f(82, 83), 2)];
    const INPUT: ModField = ModField { field: f(82, 82), names: &["", ".BF16"], extra: None };
    const INPUT_K8: ModField = ModField { field: f(82, 83), names: &["", ".BF16", ".TF32", U], extra: None };
    // c has no reuse flag (nvdisasm refuses one: oracle). sm_120 keeps
    // b's flag (bit 123; ptxas 13.5 sets it in Triton's matmul:
    // `HMMA.16816.F32 R68, R36, R28.reuse, R68`) but not a's: of the 512
    // combinations of stall, bit 109 and the four reuse bits nvdisasm was
    // given for that word, bit 122 is accepted only with bit 109 clear,
    // and then prints no `.reuse` (it is read with the control fields).
    let slots = vec![RD, gpr(24, None, Some(0)), gpr(32, None, Some(1)), gpr(64, None, None)];
    let b_only = vec![RD, gpr(24, None, None), gpr(32, None, Some(1)), gpr(64, None, None)];
    let hmma_sms: &[((u16, u16), &Vec<Slot>)] = if g.wide_ur { &[((100, 100), &slots), ((120, 120), &b_only)] } else { &[((80, 90), &slots)] };
    // The operands' registers are the fragments of PTX's `mma` per lane
    // (PTX ISA, "Matrix fragments for mma.m16n8k*"): m16n8k16 a 4, b 2;
    // m16n8k8 a 2, b 1 (tf32: 4 and 2); m16n8k4 tf32 a 2, b 1; an f32
    // accumulator 4, an f16 one 2. The scheduler and the hazard checkers
    // track a result's every register through these widths.
    let (r, by) = (Width::Regs, Width::ByMod);
    let k16 = |acc: u8| OperandWidths::ONE.result(r(acc)).source(0, r(4)).source(1, r(2)).source(2, r(acc));
    let k8_f32 = OperandWidths::ONE.result(r(4)).source(0, by(0, &[2, 2, 4, 2])).source(1, by(0, &[1, 1, 2, 1])).source(2, r(4));
    let k8_f16 = OperandWidths::ONE.result(r(2)).source(0, r(2)).source(1, r(1)).source(2, r(2));
    let k4_tf32 = OperandWidths::ONE.result(r(4)).source(0, r(2)).source(1, r(1)).source(2, r(4));
    for &(sms, slots) in hmma_sms {
        v.push(Form { sms, ..g.form("HMMA.16816.F32", 0x23c, F32, &[INPUT], slots.clone()) }.widths(k16(4)));
        v.push(Form { sms, ..g.form("HMMA.16816.F16", 0x23c, F16, &[], slots.clone()) }.widths(k16(2)));
        v.push(Form { sms, ..g.form("HMMA.1688.F32", 0x23c, K8_F32, &[INPUT_K8], slots.clone()) }.widths(k8_f32));
        v.push(Form { sms, ..g.form("HMMA.1688.F16", 0x23c, K8_F16, &[], slots.clone()) }.widths(k8_f16));
        v.push(Form { sms, ..g.form("HMMA.1684.F32.TF32", 0x23c, K4_TF32, &[], slots.clone()) }.widths(k4_tf32));
    }
    // sm_75 (Turing) has m16n8k8 from f16 alone: ptxas 13.5's
    // `HMMA.1688.F32 R4, R2, R0, R4` (word 0x000000000204723c /
    // 0x008f5c0000001004) and `HMMA.1688.F16`, sm_80's layout; nvdisasm
    // prints nothing for input types 1 and 2 there, and refuses a's reuse
    // flag (oracle: `HMMA.1688.F32 R32, R104.reuse, R156, R132`).
    if !g.wide_ur {
        const K8_F32_F16: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 2), (f(78, 78), 0), (f(82, 83), 0)];
        let k8_f32_f16 = OperandWidths::ONE.result(r(4)).source(0, r(2)).source(1, r(1)).source(2, r(4));
        v.push(Form { sms: (75, 75), ..g.form("HMMA.1688.F32", 0x23c, K8_F32_F16, &[], b_only.clone()) }.widths(k8_f32_f16));
        v.push(Form { sms: (75, 75), ..g.form("HMMA.1688.F16", 0x23c, K8_F16, &[], b_only.clone()) }.widths(k8_f16));
    }
    // ---- IMMA (0x237): d, a, b, c like HMMA; the shape is 75 with 85–86
    // as its high bits (5 `.16832`, 4 `.16816`, 6 `.16864`, others
    // `.INVALIDn`), 76–77 and 78–79 the types of a and b (0 `.U8`, 1
    // `.S8`; 83 and 84 set make them 4-bit: `.U4`, `.S4`), bit 73 a's
    // layout (0 `.ROW`) and 74 b's (1 `.COL`), printed after those
    // operands (the other values print `.???`); 82 `.SAT`; 72 the sparse
    // form, 87–90 a uniform predicate on sm_120: kept 0.
    const IMMA_K32: &[(Field, u64)] = &[(f(72, 72), 0), (f(75, 75), 1), (f(83, 85), 0), (f(86, 86), 1), (f(87, 90), 0)];
    const IMMA_K16: &[(Field, u64)] = &[(f(72, 72), 0), (f(75, 75), 0), (f(83, 85), 0), (f(86, 86), 1), (f(87, 90), 0)];
    const IMMA_K64_4: &[(Field, u64)] = &[(f(72, 72), 0), (f(75, 75), 0), (f(83, 84), 3), (f(85, 86), 3), (f(87, 90), 0)];
    const IMMA_K32_4: &[(Field, u64)] = &[(f(72, 72), 0), (f(75, 75), 1), (f(83, 84), 3), (f(85, 86), 2), (f(87, 90), 0)];
    const INT8: ModField = ModField { field: f(76, 77), names: &[".U8", ".S8", U, U], extra: None };
    const INT8_B: ModField = ModField { field: f(78, 79), names: &[".U8", ".S8", U, U], extra: None };
    const INT4: ModField = ModField { field: f(76, 77), names: &[".U4", ".S4", U, U], extra: None };
    const INT4_B: ModField = ModField { field: f(78, 79), names: &[".U4", ".S4", U, U], extra: None };
    const SAT: ModField = ModField { field: f(82, 82), names: &["", ".SAT"], extra: None };
    const ROW: ModField = ModField { field: f(73, 73), names: &[".ROW", U], extra: None };
    const COL: ModField = ModField { field: f(74, 74), names: &[U, ".COL"], extra: None };
    const LAYOUTS: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 3, slot: 1 }, OperandSuffix::Mod { modifier: 4, slot: 2 }];
    const LAYOUTS_BMMA: &[OperandSuffix] = LAYOUTS;
    // Fragments (PTX ISA): an s32 accumulator of 4; a and b of 4 and 2
    // (m16n8k32 bytes, m16n8k64 nibbles) or 2 and 1 (m16n8k16 bytes,
    // m16n8k32 nibbles).
    let imma = |a: u8, b: u8| OperandWidths::ONE.result(r(4)).source(0, r(a)).source(1, r(b)).source(2, r(4));
    for &(sms, slots) in hmma_sms {
        v.push(Form { sms, operand_suffixes: LAYOUTS, ..g.form("IMMA.16832", 0x237, IMMA_K32, &[INT8, INT8_B, SAT, ROW, COL], slots.clone()) }.widths(imma(4, 2)));
        v.push(Form { sms, operand_suffixes: LAYOUTS, ..g.form("IMMA.16816", 0x237, IMMA_K16, &[INT8, INT8_B, SAT, ROW, COL], slots.clone()) }.widths(imma(2, 1)));
    }
    // The 4-bit shapes exist as instructions up to sm_89 (from sm_90
    // ptxas emulates them with 8-bit IMMA).
    if !g.wide_ur {
        let sms = (80, 89);
        v.push(Form { sms, operand_suffixes: LAYOUTS, ..g.form("IMMA.16864", 0x237, IMMA_K64_4, &[INT4, INT4_B, SAT, ROW, COL], slots.clone()) }.widths(imma(4, 2)));
        v.push(Form { sms, operand_suffixes: LAYOUTS, ..g.form("IMMA.16832", 0x237, IMMA_K32_4, &[INT4, INT4_B, SAT, ROW, COL], slots.clone()) }.widths(imma(2, 1)));
    }
    // ---- BMMA (0x23d, single-bit products, up to sm_90): shape 75–76
    // (0 `.88128`, 1 `.168128`, 2 `.168256`), the product 78 (`.XOR`,
    // `.AND`), 80 `.POPC`, layouts 73–74 as IMMA's.
    const BMMA_FIXED: &[(Field, u64)] = &[(f(72, 72), 0), (f(79, 79), 0), (f(81, 90), 0)];
    const BMMA_SHAPE: ModField = ModField { field: f(75, 76), names: &[".88128", ".168128", ".168256", U], extra: None };
    const BMMA_OP: ModField = ModField { field: f(78, 78), names: &[".XOR", ".AND"], extra: None };
    const POPC: ModField = ModField { field: f(80, 80), names: &[U, ".POPC"], extra: None };
    // sm_90 has only `.AND` (`.XOR` prints `.???0`: oracle).
    const BMMA_OP_90: ModField = ModField { field: f(78, 78), names: &[U, ".AND"], extra: None };
    // Fragments (PTX ISA) by shape: m8n8k128 a 1, b 1, s32 accumulator 2;
    // m16n8k128 a 2, b 1, accumulator 4; m16n8k256 a 4, b 2, accumulator 4.
    let acc = by(0, &[2, 4, 4, 2]);
    let bmma = OperandWidths::ONE.result(acc).source(0, by(0, &[1, 2, 4, 1])).source(1, by(0, &[1, 1, 2, 1])).source(2, acc);
    if !g.wide_ur {
        v.push(Form { sms: (80, 89), operand_suffixes: LAYOUTS_BMMA, ..g.form("BMMA", 0x23d, BMMA_FIXED, &[BMMA_SHAPE, BMMA_OP, POPC, ROW, COL], slots.clone()) }.widths(bmma));
        v.push(Form { sms: (90, 90), operand_suffixes: LAYOUTS_BMMA, ..g.form("BMMA", 0x23d, BMMA_FIXED, &[BMMA_SHAPE, BMMA_OP_90, POPC, ROW, COL], slots.clone()) }.widths(bmma));
    }
    // ---- DMMA (0x23f): m8n8k4 f64, d, a, b, c (pairs a and b, quads c
    // and d), no modifier bits; spelled `.884` up to sm_89, `.8x8x4`
    // from sm_90. ptxas sets no reuse flags on it.
    const DMMA_FIXED: &[(Field, u64)] = &[(f(72, 90), 0)];
    let plain = vec![RD, gpr(24, None, None), gpr(32, None, None), gpr(64, None, None)];
    let dmma_widths = OperandWidths::ONE.result(r(4)).source(0, r(2)).source(1, r(2)).source(2, r(4));
    let dmma = |sms: (u16, u16), name: &'static str| Form { sms, ..g.form(name, 0x23f, DMMA_FIXED, &[], plain.clone()) }.widths(dmma_widths);
    if g.wide_ur {
        v.push(dmma((100, 120), "DMMA.8x8x4"));
    } else {
        v.push(dmma((80, 89), "DMMA.884"));
        v.push(dmma((90, 90), "DMMA.8x8x4"));
    }
    // ---- LDSM (0x83b): d, a shared address (base 24–31, signed offset
    // 40–63; with RZ nvdisasm prints the offset signed, which the address
    // slot does not: not decoded); element size 75–77 (0 `.16`; others print nothing or
    // `.INVALIDn`), matrix shape 78–79, matrix count 72–73. The same bits
    // on sm_75 (Turing has LDSM: ptxas 13.5 `LDSM.16.M88.2 R8, [R8]` =
    // 0x000000000808783b on sm_75 and sm_80; the flips of 72–79 print
    // the same on both).
    const LDSM_SIZE: &[(Field, u64)] = &[(f(75, 77), 0)];
    const LDSM_SHAPE: ModField = ModField { field: f(78, 79), names: &[".M88", ".MT88", ".M816", ".M832"], extra: None };
    const LDSM_COUNT: ModField = ModField { field: f(72, 73), names: &["", ".2", ".4", U], extra: None };
    // One register per matrix: the count's registers, by its value.
    const MATRICES: Width = Width::ByMod(1, &[1, 2, 4, 1]);
    let shared = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: false, u32_base: false, offset_shift: 0 };
    // A zero base with offset 0 prints `[RZ]` on every SM (ptxas 13.5's
    // `LDSM.16.M88 R9, [RZ]` in Triton's row reductions on sm_80; nvdisasm
    // on sm_75, 80, 90, 120): a text form with those bits fixed, before the
    // register form, which refuses a zero base. (With another offset the
    // text is signed on sm_80+, unsigned on sm_75: not decoded.)
    const LDSM_RZ: &[(Field, u64)] = &[(f(75, 77), 0), (f(24, 31), 0xff), (f(40, 63), 0)];
    v.push(g.form("LDSM.16", 0x83b, LDSM_RZ, &[LDSM_SHAPE, LDSM_COUNT], vec![RD, Slot::Text("[RZ]")]).widths(OperandWidths::ONE.result(MATRICES)));
    v.push(g.form("LDSM.16", 0x83b, LDSM_SIZE, &[LDSM_SHAPE, LDSM_COUNT], vec![RD, shared]).widths(OperandWidths::ONE.result(MATRICES)));
    // LDSM with a uniform register added to the address (bit 91, the
    // register in 32–39, 32–37 up to sm_90 where 38–39 print nothing):
    // `[R8+UR4]`, `[UR4]` with RZ. ptxas 13.5's `LDSM.16.M88 R5, [UR4]`
    // (Triton's row_max, sm_100a); bit flips on sm_75, 80, 90, 120. Not
    // on sm_75, where nvdisasm prints the offset after a lone uniform
    // register unsigned (`[UR34+0xfffb80]`, random instances), which the
    // address slot does not.
    const LDSM_UR: &[(Field, u64)] = &[(f(75, 77), 0), (f(91, 91), 1)];
    const LDSM_UR6: &[(Field, u64)] = &[(f(75, 77), 0), (f(91, 91), 1), (f(38, 39), 0)];
    let shared_u = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: Some(g.ur_field(32)), zero_base: true, u32_base: false, offset_shift: 0 };
    let ldsm_ur = if g.wide_ur { LDSM_UR } else { LDSM_UR6 };
    v.push(Form { sms: (g.sms.0.max(80), g.sms.1), ..g.form("LDSM.16", 0x83b, ldsm_ur, &[LDSM_SHAPE, LDSM_COUNT], vec![RD, shared_u]) }.widths(OperandWidths::ONE.result(MATRICES)));
    // ---- STSM (0x844, sm_90+): the store of LDSM's matrices: the shared
    // address (base 24–31, offset 40–63), then the first data register
    // (32–39); size, shape and count in LDSM's fields (ptxas 13.5 on
    // sm_90/sm_120: `STSM.16.MT88.2 [R15+0x200], R2`).
    let shared_st = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: false, u32_base: false, offset_shift: 0 };
    let from_90 = |form: Form| Form { sms: (g.sms.0.max(90), g.sms.1), ..form };
    // Bit 79 is not LDSM's: 0 and 1 with it print `.M88`/`.MT88` on
    // sm_90, other shapes (`.MT168`) from sm_100 (oracle); kept 0.
    const STSM_SHAPE: ModField = ModField { field: f(78, 79), names: &[".M88", ".MT88", U, U], extra: None };
    // The address, then one register per matrix stored.
    let stsm_widths = OperandWidths::all(MATRICES).source(0, Width::Address);
    v.push(from_90(g.form("STSM.16", 0x844, LDSM_SIZE, &[STSM_SHAPE, LDSM_COUNT], vec![shared_st, gpr(32, None, None)])).widths(stsm_widths));
    // ---- MOVM (0x23a): `movmatrix.trans`, d, a; every field above the
    // operands 0 for `MOVM.16.MT88` (ptxas 13.5 on sm_75, 80, 90, 120;
    // sm_75's word 0x000000000000723a / 0x004e280000000000).
    const MOVM_FIXED: &[(Field, u64)] = &[(f(72, 90), 0)];
    v.push(g.form("MOVM.16.MT88", 0x23a, MOVM_FIXED, &[], vec![RD, gpr(24, None, None)]));
}
