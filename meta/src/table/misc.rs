//! BMOV, FCHK, IMNMX, VIMNMX, VOTE, VOTEU, the SHFL forms with a clamp
//! register, and MUFU with an immediate. Fields from single-bit flips and
//! field enumerations of corpus words with nvdisasm 13.5 (sm_80, sm_90).

use super::{COMBINE, DATA_WIDTHS, Generation, ISETP_CMP, LOAD_WIDTHS, NONE, RD, SIGNED_73, SIZED_WIDTHS, alu, cbank, f, gpr, gpr_not, pred, pred_plain, uniform_twin};
use crate::isa::bits::Field;
use crate::isa::branch::Layout;
use crate::isa::form::{Form, ModField, OperandSuffix, PredShow, Slot, UNMEASURED as U};
use crate::isa::widths::{Declare, OperandWidths, Width};

/// The forms of this module.
pub(super) fn misc_ops(v: &mut Vec<Form>, g: Generation) {
    use PredShow::Always;
    // ---- BMOV.32: a convergence barrier (24–27; larger values name other
    // state, not modelled) to a register (0x355, bit 84 `.CLEAR`), or a
    // register (32–39) to a barrier (0x356, bit 84 `.PQUAD`).
    const CLEAR: ModField = ModField { field: f(84, 84), names: &["", ".CLEAR"], extra: None };
    const PQUAD: ModField = ModField { field: f(84, 84), names: &["", ".PQUAD"], extra: None };
    let barrier = Slot::Barrier(f(24, 27));
    const FROM_B: &[(Field, u64)] = &[(f(28, 31), 0)];
    const TO_B: &[(Field, u64)] = &[(f(28, 31), 0), (f(16, 23), 0)];
    v.push(g.form("BMOV.32", 0x355, FROM_B, &[CLEAR], vec![RD, barrier]));
    v.push(g.form("BMOV.32", 0x356, TO_B, &[PQUAD], vec![barrier, gpr(32, None, Some(1))]));

    // ---- FCHK P, a, b: predicate 81–83, a with `-` 72 and `|x|` 73, b in
    // forms 1, 4 (f32), 5, 6 with `-` 63 and `|x|` 62; 16–23 unused.
    const FCHK_FIXED: &[(Field, u64)] = &[(f(16, 23), 0)];
    let a_fp = Slot::Gpr { field: f(24, 31), neg: Some(72), abs: Some(73), not: None, reuse: Some(0) };
    for (form, b) in [
        (0x200u16, Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(1) }),
        (0x800, Slot::Float { f64: false, shadowed: None }),
        (0xa00, cbank(Some(63), Some(62), None)),
        (0xc00, g.uniform_float_b()),
    ] {
        if g.wide_ur && form == 0xa00 {
            continue;
        }
        v.push(g.form("FCHK", form | 0x102, FCHK_FIXED, &[], vec![pred_plain(81, Always), a_fp, b]));
    }

    // ---- IMNMX (up to sm_90): d, a, b, and the predicate choosing min or max
    // (87–90); bit 73 signedness.
    if !g.wide_ur {
        let mut imnmx = Vec::new();
        alu(&mut imnmx, g, "IMNMX", 0x017, NONE, &[SIGNED_73], &[RD, gpr(24, None, Some(0))], None, false, true, &[pred(87, Always)]);
        v.extend(imnmx.into_iter().map(|form| Form { sms: (75, 89), ..form }));
    }

    // ---- VIMNMX (sm_90+, 0x048): the lane type of VIADDMNMX (72–73:
    // `.U32`, signed 32 — spelled `.S32` on sm_120 —, `.U16x2`, `.S16x2`)
    // and `.RELU` (76); its two predicate results (81–83, 84–86) print on
    // sm_100 only; elsewhere they hold PT (other values print `???7`).
    // sm_100 and sm_120: bit flips of ptxas's `VIMNMX.U16x2 R28, PT, PT,
    // R28, R30, !PT` (nvdisasm 13.5).
    if g.wide_ur || g.sms.1 >= 90 {
        const LANES_120: &[ModField] = &[
            // 72–74: bit 74 the byte lanes (`VIMNMX.U8x4`, ptxas 13.5's
            // sm_120 vabsdiff4; bit flips print `.S8x4` for 5 and
            // `.INVALID6`/`.INVALID7` above).
            ModField { field: f(72, 74), names: &[".U32", ".S32", ".U16x2", ".S16x2", ".U8x4", ".S8x4", U, U], extra: None },
            ModField { field: f(76, 76), names: &["", ".RELU"], extra: None },
        ];
        const PT_PT: &[(Field, u64)] = &[(f(81, 86), 0x3f)];
        let a = gpr(24, None, Some(0));
        let variants: Vec<((u16, u16), &'static [ModField], &'static [(Field, u64)], Vec<Slot>)> = if g.wide_ur {
            vec![
                ((100, 100), VIADDMNMX_MODS, NONE, vec![RD, pred_plain(81, Always), pred_plain(84, Always), a]),
                ((120, 120), LANES_120, PT_PT, vec![RD, a]),
            ]
        } else {
            // sm_90: the lane type of VIADDMNMX (72–73: `.U16x2`, `.S16x2`)
            // and `.RELU` (76) too (library-corpus words of ptxas 13.5,
            // `VIMNMX.U16x2 R4, R4, R8, !PT`; bit flips). nvdisasm prints
            // 81–86 as two predicates when the first is not PT (a PT second
            // then prints `???7`, so neither may be PT here): ptxas 13.5's
            // sm_90 code for a generated program (seed 9958412) has
            // `VIMNMX.S16x2 R11, P2, P2, R4, 0x1458, PT` with P2 live across
            // it (read later, not written in between), so on sm_90 the two
            // are not results; bit flips on SM90.
            vec![((90, 90), VIADDMNMX_MODS, PT_PT, vec![RD, a]), ((90, 90), VIADDMNMX_MODS, NONE, vec![RD, pred_plain(81, Always), pred_plain(84, Always), a])]
        };
        for (sms, mods, fixed, pre) in variants {
            let mut out = Vec::new();
            alu(&mut out, g, "VIMNMX", 0x048, fixed, mods, &pre, None, false, true, &[pred(87, Always)]);
            // The sm_90 form with printed predicates: neither is PT.
            let nonzero: &'static [usize] = if sms == (90, 90) && pre.len() == 4 { &[1, 2] } else { &[] };
            v.extend(out.into_iter().map(|form| Form { sms, nonzero, ..form }));
        }
    }

    viaddmnmx(v, g);
    qspc(v, g);
    super::copy::async_copies(v, g);
    super::mbarrier::async_path(v, g);
    if g.wide_ur {
        minmax_sm120(v, g);
    }
    if g.wide_ur || g.sms.1 >= 90 {
        uiadd3_64(v, g);
    }

    // ---- VOTE (0x806) and VOTEU (0x886): mode 72–73, predicate result
    // 81–83, source predicate 87–90; the destination register is not
    // printed when it is RZ (URZ), so that form comes first.
    const VOTE_MODE: ModField = ModField { field: f(72, 73), names: &[".ALL", ".ANY", ".EQ", U], extra: None };
    const NO_D: &[(Field, u64)] = &[(f(16, 23), 0xff)];
    let src = pred(87, Always);
    v.push(g.form("VOTE", 0x806, NO_D, &[VOTE_MODE], vec![pred_plain(81, Always), src]));
    v.push(g.form("VOTE", 0x806, NONE, &[VOTE_MODE], vec![RD, pred_plain(81, Always), src]));
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    let up = Slot::Pred { uniform: true, field: f(81, 83), not: None, show: Always };
    // VOTEU is guarded by a general predicate.
    let voteu = |fixed, slots| g.form("VOTEU", 0x886, fixed, &[VOTE_MODE], slots);
    const NO_UD6: &[(Field, u64)] = &[(f(16, 21), 0x3f), (f(22, 23), 0)];
    const UD6: &[(Field, u64)] = &[(f(22, 23), 0)];
    let (no_ud, ud) = if g.wide_ur { (NO_D, NONE) } else { (NO_UD6, UD6) };
    v.push(voteu(no_ud, vec![up, src]));
    v.push(voteu(ud, vec![ur_d, up, src]));

    // ---- SHFL with the clamp in a register (64–71): lane immediate
    // (0x989, 53–57) or register (0x389, 32–39).
    const SHFL_MODE: ModField = ModField { field: f(58, 59), names: &[".IDX", ".UP", ".DOWN", ".BFLY"], extra: None };
    let head = [pred_plain(81, Always), RD, gpr(24, None, Some(0))];
    let clamp = gpr(64, None, Some(2));
    const SHFL_IMM_LANE: &[(Field, u64)] = &[(f(32, 52), 0)];
    const SHFL_REG_LANE: &[(Field, u64)] = &[(f(40, 57), 0)];
    let imm_lane: Vec<Slot> = head.iter().copied().chain([Slot::Hex(f(53, 57)), clamp]).collect();
    let reg_lane: Vec<Slot> = head.iter().copied().chain([gpr(32, None, Some(1)), clamp]).collect();
    v.push(g.form("SHFL", 0x989, SHFL_IMM_LANE, &[SHFL_MODE], imm_lane));
    v.push(g.form("SHFL", 0x389, SHFL_REG_LANE, &[SHFL_MODE], reg_lane));

    // ---- MUFU with an immediate (0x908): an f32, or for `.RCP64H` and
    // `.RSQ64H` the high half of an f64 (`MUFU.RCP64H R5, 3`).
    const MUFU_F32: ModField = ModField {
        field: f(74, 77),
        names: &[".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", U, U, ".SQRT", ".TANH"],
        extra: None,
    };
    const MUFU_F64H: ModField = ModField { field: f(74, 77), names: &[U, U, U, U, U, U, ".RCP64H", ".RSQ64H"], extra: None };
    v.push(g.form("MUFU", 0x908, NONE, &[MUFU_F32], vec![RD, Slot::Float { f64: false, shadowed: None }]));
    v.push(g.form("MUFU", 0x908, NONE, &[MUFU_F64H], vec![RD, Slot::Float { f64: true, shadowed: None }]));

    control_misc(v, g);
    more_misc(v, g);
    f2fp(v, g);
    reductions(v, g);
    // REDUX (0x3c4, sm_80+): a warp reduction of a register (24–31) into a
    // uniform register; operation 78–80 (0 is AND, printed as nothing; 6, 7
    // print `.INVALIDn`), bit 73 `.S32` (field enumeration, sm_90).
    const REDUX_OP: ModField = ModField { field: f(78, 80), names: &["", ".OR", ".XOR", ".SUM", ".MIN", ".MAX"], extra: None };
    const REDUX_SIGN: ModField = ModField { field: f(73, 73), names: &["", ".S32"], extra: None };
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    let redux_fixed = if g.wide_ur { NONE } else { UD6 };
    v.push(Form { sms: (g.sms.0.max(80), g.sms.1), ..g.form("REDUX", 0x3c4, redux_fixed, &[REDUX_OP, REDUX_SIGN], vec![ur_d, gpr(24, None, None)]) });
    if g.wide_ur {
        // CREDUX (0x2cc, sm_100 only: nvdisasm refuses the word on sm_120,
        // and ptxas takes `redux.sync.f32` only for sm_100a/sm_100f/sm_103a):
        // the minimum or maximum across the warp of a register (24–31) into
        // a uniform register (16–23). ptxas emits it for `redux.sync.{min,
        // max}{.abs}{.NaN}.f32` and for the unsigned and signed integer
        // minimum and maximum. Operation 78–79 (bit 79 minimum, bit 78 the
        // absolute values), bit 77 `.NAN`, type 73–74 (unsigned printed as
        // nothing, `.S32`, `.F32`; 3 prints `.INVALID3`). ptxas's words and
        // bit flips (sm_100); ptxas sets the source's reuse flag (bit 122).
        const CREDUX_OP: ModField = ModField { field: f(78, 79), names: &[".MAX", ".MAXABS", ".MIN", ".MINABS"], extra: None };
        const CREDUX_TYPE: ModField = ModField { field: f(73, 74), names: &["", ".S32", ".F32"], extra: None };
        const CREDUX_NAN: ModField = ModField { field: f(77, 77), names: &["", ".NAN"], extra: None };
        v.push(Form { sms: (100, 100), ..g.form("CREDUX", 0x2cc, NONE, &[CREDUX_OP, CREDUX_TYPE, CREDUX_NAN], vec![ur_d, gpr(24, None, Some(0))]) });
        blackwell_ops(v, g);
    }
    local_uniform(v, g);
}

/// Forms of sm_100/sm_120 only: MOV.64 and UMOV.64 (a 64-bit immediate in
/// 24–87, or MOV.64 of a register pair with bit 80), IADD with a carry in
/// (bit 74 `.X`) and 64-bit ISETP (bit 80; `.U64`/`.S64` by bit 73).
/// Corpus words and bit flips (sm_120).
fn blackwell_ops(v: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    let sm120 = |form: Form| Form { sms: (120, 120), ..form };
    let imm64 = Slot::Imm64(f(24, 87));
    v.push(sm120(g.form("MOV.64", 0x402, NONE, &[], vec![RD, imm64])).widths(SIZED_WIDTHS));
    const MOV64_REG: &[(Field, u64)] = &[(f(72, 75), 0xf), (f(80, 80), 1)];
    v.push(sm120(g.form("MOV.64", 0x202, MOV64_REG, &[], vec![RD, gpr(32, None, Some(1))])).widths(SIZED_WIDTHS));
    v.push(sm120(g.form("MOV.64", 0xc02, MOV64_REG, &[], vec![RD, g.uniform_b(None, None)])).widths(SIZED_WIDTHS));
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    const UNIFORM: &[(Field, u64)] = &[(f(91, 91), 1)];
    v.push(Form { uniform_guard: true, ..sm120(g.form("UMOV.64", 0x482, UNIFORM, &[], vec![ur_d, imm64])) }.widths(SIZED_WIDTHS));
    // UMOV.64 of a uniform pair: UMOV's 0xc82 with bit 80 (ptxas 13.5's
    // `UMOV.64 UR4, URZ`; bit flips: the source pair in 32-39, bits 24 and
    // 81 print nothing and stay clear).
    const UMOV64_REG: &[(Field, u64)] = &[(f(80, 80), 1)];
    v.push(Form { uniform_guard: true, ..sm120(g.form("UMOV.64", 0xc82, UMOV64_REG, &[], vec![ur_d, g.uniform_b(None, None)])) }.widths(SIZED_WIDTHS));
    // IADD.X: carry in 87–90 printed last, the a and b flag bits are `~`.
    const IADD_X: &[(Field, u64)] = &[(f(74, 74), 1)];
    const WIDE_64: ModField = ModField { field: f(73, 73), names: &["", ".64"], extra: None };
    let pre = [RD, pred_plain(81, UnlessTrue), gpr_not(24, Some(72), Some(0))];
    for (form, b) in [
        (0x200u16, gpr_not(32, Some(63), Some(1))),
        (0x800, Slot::Imm32 { signed: true }),
        (0xc00, g.uniform_b(None, Some(63))),
    ] {
        let slots: Vec<Slot> = pre.iter().copied().chain([b, pred(87, Always)]).collect();
        v.push(Form { suffix: ".X", ..sm120(g.form("IADD", form | 0x035, IADD_X, &[WIDE_64], slots)) }.widths(SIZED_WIDTHS));
    }
    // FMNMX3 (0x276): the minimum or maximum of three f32 registers, a with
    // `-` 72 and `|x|` 73, b with 63/62, c with 75/74; `.FTZ` 80, `.NAN` 81;
    // the predicate 87–90 chooses (bit flips, sm_100).
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const NAN: ModField = ModField { field: f(81, 81), names: &["", ".NAN"], extra: None };
    let fp = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let slots = vec![RD, fp(24, 72, 73, 0), fp(32, 63, 62, 1), fp(64, 75, 74, 2), pred(87, Always)];
    v.push(Form { sms: (100, 100), ..g.form("FMNMX3", 0x276, NONE, &[FTZ, NAN], slots) });
    // b an f32 immediate in 32–63 (0x876; ptxas 13.5 joins `min.f32` with
    // 0f7F800000: `FMNMX3 R9, R0, +INF , R7, PT`; bit flips on SM100: the
    // same a, c and modifier bits).
    let slots = vec![RD, fp(24, 72, 73, 0), Slot::Float { f64: false, shadowed: None }, fp(64, 75, 74, 2), pred(87, Always)];
    v.push(Form { sms: (100, 100), ..g.form("FMNMX3", 0x876, NONE, &[FTZ, NAN], slots) });
    // SEL.64: a register b (0x607) or a signed 33-bit immediate in 32–64
    // (0x407; corpus words, bit flips).
    const SEL64_REG: &[(Field, u64)] = &[(f(64, 71), 0)];
    const SEL64_IMM: &[(Field, u64)] = &[(f(65, 71), 0)];
    let a = gpr(24, None, Some(0));
    v.push(sm120(g.form("SEL.64", 0x607, SEL64_REG, &[], vec![RD, a, gpr(32, None, Some(1)), pred(87, Always)])).widths(SIZED_WIDTHS));
    v.push(sm120(g.form("SEL.64", 0x407, SEL64_IMM, &[], vec![RD, a, Slot::SImm(f(32, 64)), pred(87, Always)])).widths(SIZED_WIDTHS));
    // b a uniform register (0xe07; `SEL.64 R2, R4, UR10, P0` in library-corpus
    // words of ptxas 13.5 for sm_120).
    v.push(sm120(g.form("SEL.64", 0xe07, SEL64_REG, &[], vec![RD, a, g.uniform_b(None, None), pred(87, Always)])).widths(SIZED_WIDTHS));
    // USEL.64 (sm_120): SEL.64 on uniform registers, bit 91 set, b a
    // uniform register (0xc87) or the signed 33-bit immediate (0x487), the
    // uniform predicate 87–90. ptxas 13.5's `USEL.64 UR10, UR10, 0x800,
    // !UP0` and `USEL.64 UR4, UR4, URZ, !UP0` of thrust_sort and
    // thrust_transform; flips on sm_120 (63, 64 the immediate, 87 and 90
    // the predicate).
    const USEL64_REG: &[(Field, u64)] = &[(f(64, 71), 0), (f(91, 91), 1)];
    const USEL64_IMM: &[(Field, u64)] = &[(f(65, 71), 0), (f(91, 91), 1)];
    let ur = |lo| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
    let up = Slot::Pred { uniform: true, field: f(87, 89), not: Some(90), show: Always };
    v.push(sm120(Form { uniform_guard: true, ..g.form("USEL.64", 0xc87, USEL64_REG, &[], vec![ur(16), ur(24), ur(32), up]) }).widths(SIZED_WIDTHS));
    v.push(sm120(Form { uniform_guard: true, ..g.form("USEL.64", 0x487, USEL64_IMM, &[], vec![ur(16), ur(24), Slot::SImm(f(32, 64)), up]) }).widths(SIZED_WIDTHS));
    // 64-bit ISETP.
    const ISETP64: &[(Field, u64)] = &[(f(72, 72), 0), (f(68, 71), 7), (f(80, 80), 1)];
    const SIGNED64: ModField = ModField { field: f(73, 73), names: &[".U64", ".S64"], extra: None };
    let isetp_pre = [pred_plain(81, Always), pred_plain(84, Always), gpr(24, None, Some(0))];
    let mut isetp = Vec::new();
    alu(&mut isetp, g, "ISETP", 0x00c, ISETP64, &[ISETP_CMP, SIGNED64, COMBINE], &isetp_pre, None, false, true, &[pred(87, Always)]).widths(OperandWidths::ONE.sources(Width::Size));
    // And its uniform twins (`UISETP.NE.U64.AND UP0, UPT, UR6, URZ, UPT`,
    // 0x28c: library-corpus words of ptxas 13.5 for sm_120, bit flips).
    let twins: Vec<Form> = isetp.iter().filter_map(|form| uniform_twin(g, form)).collect();
    v.extend(isetp.into_iter().chain(twins).map(sm120));
}

/// LDL and STL with a uniform register added (bit 91; LDL's in 32–39,
/// STL's in 64–71 with the data in 32–39), on every SM: corpus words and
/// bit flips on sm_120, `STL.64 [UR9], R12` in library-corpus words of
/// ptxas 13.5 for sm_90, the same words under nvdisasm for sm_75 to sm_120.
fn local_uniform(v: &mut Vec<Form>, g: Generation) {
    const SIZE: ModField = ModField { field: f(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64", ".128"], extra: None };
    let local_u = |lo: u8| Slot::Addr {
        base: Some(f(24, 31)),
        wide: false,
        offset: Some(f(40, 63)),
        scale: None,
        desc: None,
        show_desc: false,
        uniform: Some(g.ur_field(lo)), zero_base: true, u32_base: false, offset_shift: 0,
    };
    // Eviction priority 84–86 as LDL's.
    const LDL_U: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 83), 0), (f(87, 90), 0), (f(91, 91), 1), (f(64, 71), 0)];
    const STL_U: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 83), 0), (f(87, 90), 0), (f(91, 91), 1), (f(16, 23), 0)];
    v.push(g.form("LDL", 0x983, LDL_U, &[super::EVICT_75, SIZE], vec![RD, local_u(32)]).widths(LOAD_WIDTHS));
    v.push(g.form("STL", 0x987, STL_U, &[super::EVICT_75, SIZE], vec![local_u(64), gpr(32, None, None)]).widths(DATA_WIDTHS));
}

/// CS2R, WARPSYNC, YIELD, NANOSLEEP, ERRBAR, MEMBAR, B2R.RESULT, BPT.TRAP,
/// SGXT and LEPC (bit flips and field enumerations of corpus words, sm_80).
fn control_misc(v: &mut Vec<Form>, g: Generation) {
    use PredShow::UnlessTrue;
    // CS2R: a special register (72–79, S2R's names) into a register pair, or
    // one register with `.32` (bit 80 clear).
    const CS2R_SIZE: ModField = ModField { field: f(80, 80), names: &[".32", ""], extra: None };
    v.push(g.form("CS2R", 0x805, NONE, &[CS2R_SIZE], vec![RD, Slot::SpecialReg(f(72, 79))]).widths(OperandWidths::ONE.result(Width::ByMod(0, &[1, 2]))));
    // CS2UR: the same into a uniform register (16–), sm_120 only (nvdisasm
    // reads 0x8cb on no earlier SM). ptxas 13.5 reads `%pm0` with
    // `CS2UR.32 UR7, SR_PM0` (word 0x...778cb / 0x000fe20000006400, sm_120);
    // bit 80 set prints `CS2UR UR7, SR_PM0`.
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    if g.wide_ur {
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("CS2UR", 0x8cb, NONE, &[CS2R_SIZE], vec![ur_d, Slot::SpecialReg(f(72, 79))]) }.widths(OperandWidths::ONE.result(Width::ByMod(0, &[1, 2]))));
    }
    // WARPSYNC, YIELD, NANOSLEEP: a condition predicate (87–90) printed first
    // when not PT; WARPSYNC's mask immediate (0x948) prints `.ALL` when zero,
    // or a register (0x348, 32–39); NANOSLEEP's duration immediate (0x95d).
    let cond = pred(87, UnlessTrue);
    // Bit 86 clear: `.COLLECTIVE` (below).
    const ZERO_IMM_PT: &[(Field, u64)] = &[(f(32, 63), 0), (f(86, 86), 0), (f(87, 90), 7)];
    const COND_PT: &[(Field, u64)] = &[(f(87, 90), 7)];
    const NO_COLLECTIVE: &[(Field, u64)] = &[(f(86, 86), 0)];
    // 0x948 takes a mask immediate up to sm_89 and is `WARPSYNC.ALL` from
    // sm_90, whatever its 32–63 and 87–90 hold (oracle; kept zero and PT).
    if g.wide_ur {
        v.push(g.form("WARPSYNC.ALL", 0x948, ZERO_IMM_PT, &[], vec![]));
    } else {
        v.push(Form { sms: (90, 90), ..g.form("WARPSYNC.ALL", 0x948, ZERO_IMM_PT, &[], vec![]) });
        v.push(Form { sms: (75, 89), ..g.form("WARPSYNC", 0x948, COND_PT, &[], vec![Slot::Imm32 { signed: false }]) });
    }
    // The mask register: 32–39 up to sm_89, 24–31 from sm_90 (oracle).
    // From sm_90, bit 85 is `.EXCLUSIVE`, and bit 86 `.COLLECTIVE` with the
    // branch offset of the code past the collective block's ENDCOLLECTIVE
    // (16–23 and 34–81, BRA's layout; `.ALL` with no register): ptxas 13.5
    // words of the library corpus (`WARPSYNC.COLLECTIVE R9, `(.L_x_15)`,
    // `WARPSYNC.EXCLUSIVE R4`), bit flips on sm_90, sm_100 and sm_120.
    const PLAIN_90: &[(Field, u64)] = &[(f(85, 86), 0)];
    const EXCLUSIVE: &[(Field, u64)] = &[(f(85, 86), 1)];
    const COLLECTIVE: &[(Field, u64)] = &[(f(85, 86), 2)];
    const COLLECTIVE_ALL: &[(Field, u64)] = &[(f(32, 33), 0), (f(85, 86), 2)];
    let sms_90 = if g.wide_ur { g.sms } else { (90, 90) };
    if !g.wide_ur {
        v.push(Form { sms: (75, 89), ..g.form("WARPSYNC", 0x348, NO_COLLECTIVE, &[], vec![cond, gpr(32, None, None)]) });
        // sm_80–sm_89 spell `.EXCLUSIVE` with bit 86 (library-corpus words
        // of ptxas 13.5 for sm_80, `WARPSYNC.EXCLUSIVE R4`; bit flips on
        // sm_80, sm_86, sm_89; sm_75 ignores the bit).
        const EXCLUSIVE_80: &[(Field, u64)] = &[(f(86, 86), 1)];
        v.push(Form { sms: (80, 89), ..g.form("WARPSYNC.EXCLUSIVE", 0x348, EXCLUSIVE_80, &[], vec![cond, gpr(32, None, None)]) });
    }
    let target = Slot::Target(crate::isa::branch::Layout::Split);
    v.push(Form { sms: sms_90, ..g.form("WARPSYNC", 0x348, PLAIN_90, &[], vec![cond, gpr(24, None, None)]) });
    v.push(Form { sms: sms_90, ..g.form("WARPSYNC.EXCLUSIVE", 0x348, EXCLUSIVE, &[], vec![cond, gpr(24, None, None)]) });
    v.push(Form { sms: sms_90, ..g.form("WARPSYNC.COLLECTIVE", 0x348, COLLECTIVE, &[], vec![cond, gpr(24, None, None), target]) });
    v.push(Form { sms: sms_90, ..g.form("WARPSYNC.COLLECTIVE.ALL", 0x948, COLLECTIVE_ALL, &[], vec![cond, target]) });
    v.push(g.form("YIELD", 0x946, NONE, &[], vec![cond]));
    // PMTRIG: the 16-bit event mask (32–47), the condition predicate first
    // when not PT (ptxas 13.5's `PMTRIG 0x2` for `pmevent 1`, word
    // 0x0000000200007801 / 0x000fe20003800000, every SM sm_75..sm_120;
    // nvdisasm reads 48–63 as nothing).
    const PMTRIG_FIXED: &[(Field, u64)] = &[(f(48, 63), 0)];
    v.push(g.form("PMTRIG", 0x801, PMTRIG_FIXED, &[], vec![cond, Slot::Hex(f(32, 47))]));
    // Bit 85 `.WARP` (`NANOSLEEP.WARP 0x64`: every measured SM; ptxas
    // 13.5 emits it for sm_75's `nanosleep`), 86 `.RAND` (kept 0); 83–84
    // kept 0 (`.CLEAR`, `.SYNCS` from sm_100). Bit flips (nvdisasm 13.5).
    const NANOSLEEP_FIXED: &[(Field, u64)] = &[(f(83, 84), 0), (f(86, 86), 0)];
    const WARP: &[ModField] = &[ModField { field: f(85, 85), names: &["", ".WARP"], extra: None }];
    v.push(g.form("NANOSLEEP", 0x95d, NANOSLEEP_FIXED, WARP, vec![cond, Slot::Imm32 { signed: false }]));
    // The duration in a register (0x35d, 32–39: `NANOSLEEP R4` is
    // 0x000000040000735d on sm_80, sm_90 and sm_100) or, before sm_100, a
    // constant-bank word (0xb5d: `NANOSLEEP c[0x0][0x160]` is
    // 0x0000580000007b5d on sm_80); ptxas 13.5 words.
    v.push(g.form("NANOSLEEP", 0x35d, NANOSLEEP_FIXED, WARP, vec![cond, gpr(32, None, None)]));
    if !g.wide_ur {
        v.push(Form { sms: (75, 90), ..g.form("NANOSLEEP", 0xb5d, NANOSLEEP_FIXED, WARP, vec![cond, cbank(None, None, None)]) });
    }
    v.push(g.form("ERRBAR", 0x9ab, NONE, &[], vec![]));
    // MEMBAR: semantics 79–80, scope 76–78 (values 4, 6, 7 print `.INVALIDn`).
    // sm_75 has no `.MMIO` (3 prints `.INVALID3`).
    const MEMBAR_SEM: ModField = ModField { field: f(79, 80), names: &[".SC", ".ALL", "", ".MMIO"], extra: None };
    const MEMBAR_SEM_75: ModField = ModField { field: f(79, 80), names: &[".SC", ".ALL", "", U], extra: None };
    const MEMBAR_SCOPE: ModField = ModField { field: f(76, 78), names: &[".CTA", ".SM", ".GPU", ".SYS", U, ".VC"], extra: None };
    if g.wide_ur {
        v.push(g.form("MEMBAR", 0x992, NONE, &[MEMBAR_SEM, MEMBAR_SCOPE], vec![]));
    } else {
        v.push(Form { sms: (75, 75), ..g.form("MEMBAR", 0x992, NONE, &[MEMBAR_SEM_75, MEMBAR_SCOPE], vec![]) });
        v.push(Form { sms: (80, 90), ..g.form("MEMBAR", 0x992, NONE, &[MEMBAR_SEM, MEMBAR_SCOPE], vec![]) });
    }
    // B2R.RESULT: bits 78–79 = 1, the result predicate 81–83.
    const B2R_RESULT: &[(Field, u64)] = &[(f(78, 79), 1)];
    v.push(g.form("B2R.RESULT", 0x31c, B2R_RESULT, &[], vec![RD, pred_plain(81, UnlessTrue)]));
    // BPT.TRAP: code in 34–36 (zero prints no operand; bits above ignored),
    // bits 84–85 = 3 (`.TRAP`).
    const TRAP: &[(Field, u64)] = &[(f(84, 86), 3), (f(32, 33), 0)];
    const TRAP_ZERO: &[(Field, u64)] = &[(f(84, 86), 3), (f(32, 36), 0)];
    v.push(g.form("BPT.TRAP", 0x95c, TRAP_ZERO, &[], vec![]));
    v.push(g.form("BPT.TRAP", 0x95c, TRAP, &[], vec![Slot::Hex(f(34, 36))]));
    // SGXT: d, a, b (forms 1, 4, 5, 6); bit 73 signedness, bit 75 `.W`.
    const SGXT_W: ModField = ModField { field: f(75, 75), names: &["", ".W"], extra: None };
    let first = v.len();
    alu(v, g, "SGXT", 0x01a, NONE, &[SGXT_W, SIGNED_73], &[RD, gpr(24, None, Some(0))], None, false, false, &[]);
    // USGXT, its uniform twin (`USGXT.U32 UR4, UR4, 0x12`: ptxas 13.5's
    // sm_86 code for a generated program, seed 9929073; nvdisasm reads the
    // word on sm_75–120).
    let twins: Vec<Form> = v[first..].iter().filter_map(|form| uniform_twin(g, form)).collect();
    v.extend(twins);
    // LEPC: the address of the next instruction (0x34e), or from sm_90 of a
    // target (0x94e: a byte offset from the next instruction in 24–81, see
    // [`Layout::Bytes`]; bit flips, sm_90–sm_120), into a register pair.
    let address = OperandWidths::ONE.result(Width::Regs(2));
    v.push(g.form("LEPC", 0x34e, NONE, &[], vec![RD]).widths(address));
    if g.sms.1 >= 90 {
        v.push(Form { sms: (g.sms.0.max(90), g.sms.1), ..g.form("LEPC", 0x94e, NONE, &[], vec![RD, Slot::Target(Layout::Bytes(f(24, 81)))]) }.widths(address));
    }
    // LDGDEPBAR (0x9af, sm_80+): closes a group of LDGSTS copies (no operands).
    v.push(Form { sms: (g.sms.0.max(80), g.sms.1), ..g.form("LDGDEPBAR", 0x9af, NONE, &[], vec![]) });
    // UI2F with an immediate (0x85a, sm_100+): I2F on the uniform datapath;
    // bit 74 signedness (`.U32` when clear), 75–77 the f32 result (2),
    // rounding 78–79, source size 84–85 (2: 32 bits), bit 91 set (bit flips
    // of a ZLUDA word, sm_120).
    if g.wide_ur {
        // Only `.U32`: a signed source prints its immediate signed (oracle).
        // sm_100 refuses it (oracle).
        const UI2F_FIXED_U32: &[(Field, u64)] = &[(f(74, 74), 0), (f(75, 77), 2), (f(84, 85), 2), (f(91, 91), 1)];
        const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
        let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2F.U32", 0x85a, UI2F_FIXED_U32, &[ROUND], vec![ur_d, Slot::Imm32 { signed: false }]) });
        // With a uniform register (0x25a, 32–39): bit 74 clear `.U32`, set
        // signed (printed as nothing); the same fixed fields (ptxas's
        // `UI2F.U32.RP UR4, UR5`, ZLUDA corpus; bit flips, sm_120).
        // The result type, 75–77: 2 f32 (printed as nothing), 1 `.F16`
        // (`UI2F.F16.U32.RZ UR4, UR5`: ptxas 13.5's sm_120 code for a
        // generated program, seed 10188031; bit flips, sm_120), the other
        // values `.???n`.
        const UI2F_RESULT: ModField = ModField { field: f(75, 77), names: &[U, ".F16", "", U, U, U, U, U], extra: None };
        const UI2F_FIXED: &[(Field, u64)] = &[(f(84, 85), 2), (f(91, 91), 1)];
        const UI2F_SIGN: ModField = ModField { field: f(74, 74), names: &[".U32", ""], extra: None };
        let ur_b = Slot::Ur { field: g.ur_field(32), neg: None, abs: None, not: None };
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2F", 0x25a, UI2F_FIXED, &[UI2F_RESULT, UI2F_SIGN, ROUND], vec![ur_d, ur_b]) });
        // A signed immediate (bit 74 set): no size token, the immediate
        // printed signed (`UI2F.RP UR4, -0x2`; bit flips of the word above,
        // sm_120).
        const UI2F_FIXED_S32: &[(Field, u64)] = &[(f(74, 74), 1), (f(75, 77), 2), (f(84, 85), 2), (f(91, 91), 1)];
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2F", 0x85a, UI2F_FIXED_S32, &[ROUND], vec![ur_d, Slot::Imm32 { signed: true }]) });
        // A 16-bit source register (84–85 = 1): `.U16`, or `.S16` with bit 74
        // (`UI2F.U16.RP UR5, UR4`; bit flips, sm_120).
        const UI2F_FIXED_16: &[(Field, u64)] = &[(f(84, 85), 1), (f(91, 91), 1)];
        const UI2F_SIGN_16: ModField = ModField { field: f(74, 74), names: &[".U16", ".S16"], extra: None };
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2F", 0x25a, UI2F_FIXED_16, &[UI2F_RESULT, UI2F_SIGN_16, ROUND], vec![ur_d, ur_b]) });
        // An 8-bit source register (84–85 = 0): `.U8`, or `.S8` with bit 74
        // (`UI2F.S8.RP UR4, URZ`: ptxas 13.5's sm_120 code for a generated
        // program, seed 9106390; bit flips, sm_120).
        const UI2F_FIXED_8: &[(Field, u64)] = &[(f(84, 85), 0), (f(91, 91), 1)];
        const UI2F_SIGN_8: ModField = ModField { field: f(74, 74), names: &[".U8", ".S8"], extra: None };
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2F", 0x25a, UI2F_FIXED_8, &[UI2F_RESULT, UI2F_SIGN_8, ROUND], vec![ur_d, ur_b]) });
        // UI2FP (0x25e, 0x85e with an immediate; sm_120): I2FP on the
        // uniform datapath; 75–77 the f32 result (2), bit 74 signedness,
        // 84–85 the source size (2), rounding 78–79 (nearest or `.RZ`, 1
        // and 2 print `.INVALIDn`), bit 91 set; a signed immediate prints
        // signed (`UI2FP.F32.S32 UR4, UR22`: ptxas 13.5's sm_120 code for a
        // generated program, seed 10045887; bit flips, sm_120; sm_100
        // refuses the word).
        const UI2FP_FIXED: &[(Field, u64)] = &[(f(75, 77), 2), (f(84, 85), 2), (f(91, 91), 1)];
        const UI2FP_SIGN: ModField = ModField { field: f(74, 74), names: &[".U32", ".S32"], extra: None };
        const UI2FP_ROUND: ModField = ModField { field: f(78, 79), names: &["", U, U, ".RZ"], extra: None };
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2FP.F32", 0x25e, UI2FP_FIXED, &[UI2FP_SIGN, UI2FP_ROUND], vec![ur_d, ur_b]) });
        const UI2FP_FIXED_U32: &[(Field, u64)] = &[(f(74, 74), 0), (f(75, 77), 2), (f(84, 85), 2), (f(91, 91), 1)];
        const UI2FP_FIXED_S32: &[(Field, u64)] = &[(f(74, 74), 1), (f(75, 77), 2), (f(84, 85), 2), (f(91, 91), 1)];
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2FP.F32.U32", 0x85e, UI2FP_FIXED_U32, &[UI2FP_ROUND], vec![ur_d, Slot::Imm32 { signed: false }]) });
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UI2FP.F32.S32", 0x85e, UI2FP_FIXED_S32, &[UI2FP_ROUND], vec![ur_d, Slot::Imm32 { signed: true }]) });
        // UI2I (0x24e, sm_120): I2I on the uniform datapath, a uniform
        // register 32–39 saturated from s32 to 76–77's type (I2I's), bit 91
        // set (`UI2I.U8.S32.SAT UR4, UR10`: ptxas 13.5's sm_120 code for a
        // generated program, seed 9108952; bit flips, sm_120; SM90 and
        // SM100 refuse the word).
        const UI2I_TO: ModField = ModField { field: f(76, 77), names: &[".U8", ".S8", ".U16", ".S16"], extra: None };
        const UI2I_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
        v.push(Form { sms: (120, 120), uniform_guard: true, suffix: ".S32.SAT", ..g.form("UI2I", 0x24e, UI2I_FIXED, &[UI2I_TO], vec![ur_d, ur_b]) });
        // UVIMNMX (0x04a, sm_120): VIMNMX on uniform registers, b a uniform
        // register (0x24a, 32–39) or an immediate (0x84a); the lane type
        // 72–74 (0 `.U32`, 1 `.S32`, 3 `.S16x2`, 5 `.S8x4`; the others not
        // measured), `.RELU` 76, the uniform predicate choosing the minimum
        // 87–90; 81–86 hold PT, PT and bit 91 is set (ptxas's `UVIMNMX.S32
        // UR4, UR4, 0x1, !UPT`, ZLUDA corpus; bit flips, sm_120).
        const UVIMNMX_TYPE: ModField = ModField { field: f(72, 74), names: &[".U32", ".S32", U, ".S16x2", U, ".S8x4", U, U], extra: None };
        const UVIMNMX_RELU: ModField = ModField { field: f(76, 76), names: &["", ".RELU"], extra: None };
        const UVIMNMX_FIXED: &[(Field, u64)] = &[(f(81, 86), 0x3f), (f(91, 91), 1)];
        let ur = |lo| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
        let upred = Slot::Pred { uniform: true, field: f(87, 89), not: Some(90), show: PredShow::Always };
        for (form, b) in [(0x24au16, ur(32)), (0x84a, Slot::Imm32 { signed: true })] {
            v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UVIMNMX", form, UVIMNMX_FIXED, &[UVIMNMX_TYPE, UVIMNMX_RELU], vec![ur(16), ur(24), b, upred]) });
        }
    }
}

/// F2FP.PACK_AB (0x03e, sm_80+): two f32 sources a and b packed into one
/// register of two halves; bit 77 `.SATFINITE`, 75 `.RELU`, 76 BF16 instead
/// of F16 (spelled `.BF16` / nothing up to sm_86, `.BF16.F32` / `.F16.F32`
/// from sm_89), rounding 79–80 (3 `.RZ`, 1 and 2 not measured) after
/// `.PACK_AB`; c (64–71) unused, 86–90 (the FP8 forms) clear. Field
/// enumerations of a corpus word (sm_80, sm_90).
fn f2fp(v: &mut Vec<Form>, g: Generation) {
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SATFINITE"], extra: None };
    const RELU: ModField = ModField { field: f(75, 75), names: &["", ".RELU"], extra: None };
    const TYPE_80: ModField = ModField { field: f(76, 76), names: &[".PACK_AB", ".BF16.PACK_AB"], extra: None };
    const TYPE_90: ModField = ModField { field: f(76, 76), names: &[".F16.F32.PACK_AB", ".BF16.F32.PACK_AB"], extra: None };
    const ROUND: ModField = ModField { field: f(79, 80), names: &["", U, U, ".RZ"], extra: None };
    const FIXED: &[(Field, u64)] = &[(f(64, 71), 0xff), (f(72, 74), 0), (f(78, 78), 0), (f(81, 90), 0)];
    let variants: &[((u16, u16), &'static [ModField])] = if g.wide_ur {
        &[((100, 120), &[SAT, RELU, TYPE_90, ROUND])]
    } else {
        &[((80, 86), &[SAT, RELU, TYPE_80, ROUND]), ((89, 90), &[SAT, RELU, TYPE_90, ROUND])]
    };
    let a = gpr(24, None, Some(0));
    for &(sms, mods) in variants {
        // An f32 immediate b too (0x83e, 32–63: `F2FP.F16.F32.PACK_AB.RZ
        // R11, RZ, 1`, ptxas 13.5's sm_120 code for a generated program,
        // seed 9970999; nvdisasm reads the word alike on SM90).
        let imm = Slot::Float { f64: false, shadowed: None };
        for (form, b) in [(0x200u16, gpr(32, None, Some(1))), (0x800, imm), (0xa00, cbank(None, None, None)), (0xc00, g.uniform_b(None, None))] {
            if g.wide_ur && form == 0xa00 {
                continue;
            }
            v.push(Form { sms, ..g.form("F2FP", form | 0x03e, FIXED, mods, vec![RD, a, b]) });
        }
    }
    // One f32 rounded to tf32 (`cvt.rn/rz.tf32.f32`, sm_90+): b (32–39)
    // rounded to 10 mantissa bits, in the f32 layout with the low 13 bits
    // clear: bits 76 and 78 set (76 clear prints `.???2`, 86–88 other
    // than 1 `.???n`, 89–90 = 1), a unused (RZ), `.RELU` 75 and `.RZ`
    // 79–80 as the pair's; `.SATFINITE` 77 from sm_100 (sm_90 prints
    // nothing for it). ptxas 13.5's `F2FP.TF32.F32.PACK_B R5, R5` (word
    // 0x00000005ff05723e / 0x...024050ff) and `.RZ`, sm_90a; bit flips on
    // SM89, SM90, SM100, SM120.
    const TF32: ModField = ModField { field: f(78, 78), names: &[U, ".TF32.F32.PACK_B"], extra: None };
    const TF32_FIXED: &[(Field, u64)] = &[(f(24, 31), 0xff), (f(64, 71), 0xff), (f(72, 74), 0), (f(76, 76), 1), (f(81, 85), 0), (f(86, 88), 1), (f(89, 90), 1)];
    const TF32_FIXED_NO_SAT: &[(Field, u64)] = &[(f(24, 31), 0xff), (f(64, 71), 0xff), (f(72, 74), 0), (f(76, 77), 1), (f(81, 85), 0), (f(86, 88), 1), (f(89, 90), 1)];
    if g.wide_ur {
        v.push(Form { sms: g.sms, ..g.form("F2FP", 0x23e, TF32_FIXED, &[SAT, RELU, TF32, ROUND], vec![RD, gpr(32, None, Some(1))]) });
    } else {
        v.push(Form { sms: (90, 90), ..g.form("F2FP", 0x23e, TF32_FIXED_NO_SAT, &[RELU, TF32, ROUND], vec![RD, gpr(32, None, Some(1))]) });
    }
    // FP8 (sm_89+, register form 0x23e; bit flips of ZLUDA's cvt words on
    // sm_90): 86–88 = 2 with bit 78 and bit 90 set packs a and b into two
    // e4m3 / e5m2 values (bit 76) merged into c (`.PACK_AB_MERGE_C`); with
    // bits 73–74 and 89 instead, the two fp8 values of b (bit 73 e4m3) are
    // unpacked to f16 or bf16 (bit 76; a and c RZ). Bits 79–81 print
    // `.???n` and 72 a half of c or b: kept 0.
    let sms = (g.sms.0.max(89), g.sms.1);
    const FP8: ModField = ModField { field: f(76, 76), names: &[".E5M2.F32.PACK_AB_MERGE_C", ".E4M3.F32.PACK_AB_MERGE_C"], extra: None };
    const PACK_FIXED: &[(Field, u64)] = &[(f(72, 74), 0), (f(78, 78), 1), (f(79, 81), 0), (f(86, 88), 2), (f(89, 90), 2)];
    v.push(Form { sms, ..g.form("F2FP", 0x23e, PACK_FIXED, &[SAT, RELU, FP8], vec![RD, a, gpr(32, None, Some(1)), gpr(64, None, Some(2))]) });
    // (nvdisasm refuses the bf16 results, bit 76, on sm_120: oracle.)
    const FROM: ModField = ModField { field: f(73, 73), names: &[".F16.E5M2.UNPACK_B", ".F16.E4M3.UNPACK_B"], extra: None };
    const UNPACK_FIXED: &[(Field, u64)] =
        &[(f(24, 31), 0xff), (f(64, 71), 0xff), (f(72, 72), 0), (f(74, 74), 1), (f(76, 78), 0), (f(79, 81), 0), (f(86, 88), 0), (f(89, 90), 1)];
    v.push(Form { sms, ..g.form("F2FP", 0x23e, UNPACK_FIXED, &[RELU, FROM], vec![RD, gpr(32, None, Some(1))]) });
}

/// RED (sm_80–sm_89) / REDG (sm_90+), opcode 0x98e: a reduction on global
/// memory, `[R2.64]` (bit 91; bit 90 set) with the data register in 32–39
/// and the descriptor register in 64– (printed from sm_90); operation
/// 87–89, operand type 73–76 (values past 6 print `.INVALIDn`), memory order
/// and scope 77–80 (LDG's spellings), eviction priority 84–86 (1, the
/// default, measured). Bit 71 (up to sm_90) or 81 (sm_100+) is set: clear,
/// the register is added to the address instead. Field enumerations of
/// corpus words (sm_80, sm_90, sm_100).
fn reductions(v: &mut Vec<Form>, g: Generation) {
    const OP: ModField = ModField { field: f(87, 89), names: &[".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR"], extra: None };
    // Operand types: sm_80–sm_89 (values past 6 print `.INVALIDn`); from
    // sm_90 floats have their own opcode (0x9a6) and 0x98e keeps four.
    const TYPE_80: ModField =
        ModField { field: f(73, 76), names: &["", ".S32", ".64", ".F32.FTZ.RN", ".F16x2.RN", ".S64", ".F64.RN"], extra: None };
    const TYPE_90: ModField = ModField { field: f(73, 76), names: &["", ".S32", ".64", ".S64"], extra: None };
    const EVICT: ModField = ModField { field: f(84, 86), names: &[U, ""], extra: None };
    // The memory orders that LDG's and STG's spellings agree on (sm_89 spells
    // 4 as a store does, sm_80 as a load does; the others not measured).
    const ORDER: ModField = ModField {
        field: f(77, 80),
        names: &["", U, U, U, U, ".STRONG.SM", ".STRONG.GPU.PRIVATE", ".STRONG.GPU", ".MMIO.GPU", U, ".STRONG.SYS", U, ".MMIO.SYS"],
        extra: None,
    };
    // REDG on floats (0x9a6, sm_90+): operation 88–89, bit 87 clear (set, the
    // type prints `.INVALID25`), type 73–76.
    const FOP: ModField = ModField { field: f(88, 89), names: &[".ADD", ".MIN", ".MAX"], extra: None };
    const FTYPE: ModField = ModField {
        field: f(73, 76),
        names: &[
            ".F16x2.RN", ".F16x4.RN", ".F16x8.RN", ".BF16x2.RN", ".BF16x4.RN", ".BF16x8.RN", U, U, U, ".F32.FTZ.RN", ".F32x2.FTZ.RN",
            ".F32x4.FTZ.RN", ".F32.RN", ".F32x2.RN", ".F32x4.RN", ".F64.RN",
        ],
        extra: None,
    };
    // sm_75's orders without `.CONSTANT` and `.MMIO` (those print `.INVALID0`, `.INVALID3`).
    const ORDER_75_RED: ModField = ModField {
        field: f(77, 80),
        names: &[U, U, U, U, ".CTA", ".SM", ".GPU", ".SYS", ".STRONG.CTA", ".STRONG.SM", ".STRONG.GPU", ".STRONG.SYS"],
        extra: None,
    };
    let mods_80: &'static [ModField] = &[OP, EVICT, TYPE_80, ORDER];
    let mods: &'static [ModField] = &[OP, EVICT, TYPE_90, ORDER];
    let fmods: &'static [ModField] = &[FOP, EVICT, FTYPE, ORDER];
    let addr = |show_desc: bool| Slot::Addr {
        base: Some(f(24, 31)),
        wide: true,
        offset: Some(f(40, 63)),
        scale: None,
        desc: Some(g.ur_field(64)),
        show_desc,
        uniform: None, zero_base: true, u32_base: false, offset_shift: 0,
    };
    const FIXED_6: &[(Field, u64)] = &[(f(16, 23), 0), (f(70, 70), 0), (f(71, 71), 1), (f(72, 72), 1), (f(81, 83), 0), (f(90, 91), 3)];
    const FIXED_8: &[(Field, u64)] = &[(f(16, 23), 0), (f(72, 72), 1), (f(81, 81), 1), (f(82, 83), 0), (f(90, 91), 3)];
    const FFIXED_6: &[(Field, u64)] = &[(f(16, 23), 0), (f(70, 70), 0), (f(71, 71), 1), (f(72, 72), 1), (f(81, 83), 0), (f(87, 87), 0), (f(90, 91), 3)];
    const FFIXED_8: &[(Field, u64)] = &[(f(16, 23), 0), (f(72, 72), 1), (f(81, 81), 1), (f(82, 83), 0), (f(87, 87), 0), (f(90, 91), 3)];
    let data = gpr(32, None, None);
    // ATOMG (0x9a8): RED's layout with a result register (16–23) and a
    // predicate result (81–83, printed always); operation 87–90 (9
    // `.SAFEADD`), type 73–75; bit 70 set (clear: refused), bit 76 set on
    // sm_100+ (corpus words, field enumerations on sm_90).
    const AOP: ModField = ModField {
        field: f(87, 90),
        names: &[".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".EXCH", ".SAFEADD"],
        extra: None,
    };
    const ATYPE: ModField = ModField { field: f(73, 75), names: &["", ".S32", ".64", ".S64", ".128"], extra: None };
    const ATYPE_80: ModField =
        ModField { field: f(73, 75), names: &["", ".S32", ".64", ".F32.FTZ.RN", ".F16x2.RN", ".S64", ".F64.RN"], extra: None };
    let amods: &'static [ModField] = &[AOP, EVICT, ATYPE, ORDER];
    let amods_80: &'static [ModField] = &[AOP, EVICT, ATYPE_80, ORDER];
    const AFIXED_6: &[(Field, u64)] = &[(f(70, 71), 3), (f(72, 72), 1), (f(76, 76), 0), (f(91, 91), 1)];
    // sm_100+: the descriptor flag is bit 76 (clear: the register is added
    // to the address); bit 63 is set (clear: refused), the offset 23 bits.
    const AFIXED_8: &[(Field, u64)] = &[(f(63, 63), 1), (f(72, 72), 1), (f(76, 76), 1), (f(91, 91), 1)];
    // ATOM.E (0x98a): the generic-address atomic, in ATOMG's layout without
    // `.SAFEADD` (9 prints `.INVALID9`; bit flips of ZLUDA's atom_inc
    // words, sm_80, sm_90, sm_120, and the oracle).
    const ATOM_OP: ModField = ModField { field: f(87, 90), names: &[".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".EXCH"], extra: None };
    let atom_mods: &'static [ModField] = &[ATOM_OP, EVICT, ATYPE, ORDER];
    let atom_mods_80: &'static [ModField] = &[ATOM_OP, EVICT, ATYPE_80, ORDER];
    let aslots = |show: bool| vec![pred_plain(81, PredShow::Always), RD, addr(show), data];
    if g.wide_ur {
        let addr23 = Slot::Addr {
            base: Some(f(24, 31)),
            wide: true,
            offset: Some(f(40, 62)),
            scale: None,
            desc: Some(g.ur_field(64)),
            show_desc: true,
            uniform: None, zero_base: true, u32_base: false, offset_shift: 0,
        };
        for (name, opcode, mods) in [("ATOMG.E", 0x9a8, amods), ("ATOM.E", 0x98a, atom_mods)] {
            v.push(g.form(name, opcode, AFIXED_8, mods, vec![pred_plain(81, PredShow::Always), RD, addr23, data]).widths(DATA_WIDTHS));
        }
    } else {
        // sm_80–sm_89 refuse a zero base register here (oracle).
        let no_rz = Slot::Addr { base: Some(f(24, 31)), wide: true, offset: Some(f(40, 63)), scale: None, desc: Some(g.ur_field(64)), show_desc: false, uniform: None, zero_base: false, u32_base: false, offset_shift: 0 };
        for (name, opcode, mods_80, mods) in [("ATOMG.E", 0x9a8, amods_80, amods), ("ATOM.E", 0x98a, atom_mods_80, atom_mods)] {
            v.push(Form { sms: (80, 89), ..g.form(name, opcode, AFIXED_6, mods_80, vec![pred_plain(81, PredShow::Always), RD, no_rz, data]) }.widths(DATA_WIDTHS));
            v.push(Form { sms: (90, 90), ..g.form(name, opcode, AFIXED_6, mods, aslots(true)) }.widths(DATA_WIDTHS));
        }
    }
    // sm_75: the uniform register (64–69) is added to the address (`[UR4]`,
    // `[R2.64+UR4]`), bits 70–71 clear for RED and 70 set for ATOMG; types
    // 73–75, `.PRIVATE` 76, sm_75's order and eviction spellings.
    if !g.wide_ur {
        use super::{EVICT_75, PRIVATE};

        let addr_75 = super::addr_75_uniform(64);
        const TYPE_75: ModField =
            ModField { field: f(73, 75), names: &["", ".S32", ".64", ".F32.FTZ.RN", ".F16x2.RN", ".S64", ".F64.RN"], extra: None };
        const RED_75: &[(Field, u64)] = &[(f(16, 23), 0), (f(70, 71), 0), (f(72, 72), 1), (f(81, 83), 0), (f(90, 91), 3)];
        const ATOMG_75: &[(Field, u64)] = &[(f(70, 71), 1), (f(72, 72), 1), (f(91, 91), 1)];
        let turing = |form: Form| Form { sms: (75, 75), ..form };
        v.push(turing(g.form("RED.E", 0x98e, RED_75, &[OP, EVICT_75, TYPE_75, ORDER_75_RED, PRIVATE], vec![addr_75, data])).widths(DATA_WIDTHS));
        // Bit 91 clear: no uniform register (64–71 ignored: kept 0, as
        // 90), the address the register pair alone with a signed 24-bit
        // offset at 40–63 (`RED.E.MIN.STRONG.GPU [R30], R35`; bit flips,
        // nvdisasm 13.5).
        const RED_75_REG: &[(Field, u64)] = &[(f(16, 23), 0), (f(64, 71), 0), (f(72, 72), 1), (f(81, 83), 0), (f(90, 91), 0)];
        let addr_reg = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
        v.push(turing(g.form("RED.E", 0x98e, RED_75_REG, &[OP, EVICT_75, TYPE_75, ORDER_75_RED, PRIVATE], vec![addr_reg, data])).widths(DATA_WIDTHS));
        let slots = vec![pred_plain(81, PredShow::Always), RD, addr_75, data];
        v.push(turing(g.form("ATOMG.E", 0x9a8, ATOMG_75, &[AOP, EVICT_75, TYPE_75, ORDER_75_RED, PRIVATE], slots.clone())).widths(DATA_WIDTHS));
        // ATOM.E (0x98a) on sm_75: ATOMG's sm_75 layout, the generic twin
        // (`ATOM.E.INC.STRONG.GPU PT, R4, [UR4], R3`); and 0x38a, the same
        // with a 32-bit register address `[R2]` (24–31, offset 40–63) and
        // no uniform register, 64–71 RZ, bit 91 clear (`ATOM.E.ADD.F16x2.RN
        // .STRONG.GPU P0, RZ, [R2], R5`). Bit 72 is `.E` in both (clear
        // prints `ATOM.ADD`: kept set); no `.SAFEADD` (9 prints `.INVALID9`).
        // Single-bit flips of corpus words (sm_75, nvdisasm 13.5).
        v.push(turing(g.form("ATOM.E", 0x98a, ATOMG_75, &[ATOM_OP, EVICT_75, TYPE_75, ORDER_75_RED, PRIVATE], slots)).widths(DATA_WIDTHS));
        const ATOM_38A: &[(Field, u64)] = &[(f(64, 71), 0xff), (f(72, 72), 1), (f(91, 91), 0)];
        let addr32 = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
        let slots = vec![pred_plain(81, PredShow::Always), RD, addr32, data];
        v.push(turing(g.form("ATOM.E", 0x38a, ATOM_38A, &[ATOM_OP, EVICT_75, TYPE_75, ORDER_75_RED, PRIVATE], slots)).widths(DATA_WIDTHS));
    }
    // ATOM.E on floats (0x9a2, sm_90+): REDG's float layout (operation
    // 88–89 with 87 clear, type 73–76, order 77–80, eviction 84–86) with a
    // result register (16–23) and a predicate result (81–83); `.E` 72 and
    // 91 set. Up to sm_90 the descriptor flag is bit 71 (with 70 set, as
    // ATOMG); from sm_100 it is bit 90, the offset 23 bits (40–62) and bit
    // 63 set (clear: refused). Clear, the register is added to the address
    // instead (`[R2.64+UR4]`): not modelled. Single-bit flips and field
    // enumerations of half_ops' `ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ,
    // desc[UR4][R2.64], R0` (sm_90, sm_100, sm_120). ATOMG.E on floats
    // (0x9a3) is the same layout: `ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT,
    // R13, desc[UR6][R16.64+0x14], R13` is 0x0000140d100d79a3,
    // 0x000f6800081ef3c6 on sm_90 and 0x8000140d100d79a3,
    // 0x000f68000c1ef306 on sm_100 (ptxas 13.5 words; `.F64.RN` type 15).
    {
        let fatom: &'static [ModField] = &[FOP, EVICT, FTYPE, ORDER];
        if g.wide_ur {
            const FATOM_8: &[(Field, u64)] = &[(f(63, 63), 1), (f(72, 72), 1), (f(87, 87), 0), (f(90, 91), 3)];
            let addr23 = Slot::Addr { base: Some(f(24, 31)), wide: true, offset: Some(f(40, 62)), scale: None, desc: Some(g.ur_field(64)), show_desc: true, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
            for (name, opcode) in [("ATOM.E", 0x9a2), ("ATOMG.E", 0x9a3)] {
                v.push(g.form(name, opcode, FATOM_8, fatom, vec![pred_plain(81, PredShow::Always), RD, addr23, data]).widths(DATA_WIDTHS));
            }
        } else {
            const FATOM_6: &[(Field, u64)] = &[(f(70, 71), 3), (f(72, 72), 1), (f(87, 87), 0), (f(91, 91), 1)];
            for (name, opcode) in [("ATOM.E", 0x9a2), ("ATOMG.E", 0x9a3)] {
                v.push(Form { sms: (90, 90), ..g.form(name, opcode, FATOM_6, fatom, aslots(true)) }.widths(DATA_WIDTHS));
            }
        }
    }
    // ATOMG.E.CAS (0x3a9): compare (32–39) and swap (64–71) at a 32-bit
    // register address `[R2]` (no descriptor), type 73–75 (corpus words).
    let cas_addr = Slot::Addr {
        base: Some(f(24, 31)),
        wide: false,
        offset: Some(f(40, 63)),
        scale: None,
        desc: None,
        show_desc: false,
        uniform: None,
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    const CAS_FIXED: &[(Field, u64)] = &[(f(72, 72), 1), (f(76, 76), 0), (f(87, 91), 0)];
    // Types other than these print `.INVALIDn` (oracle).
    const CAS_TYPE: ModField = ModField { field: f(73, 75), names: &["", ".S32", ".64"], extra: None };
    let cas_slots = vec![pred_plain(81, PredShow::Always), RD, cas_addr, data, gpr(64, None, None)];
    // ATOM.E.CAS (0x38b): the generic-address compare-and-swap, in
    // ATOMG.E.CAS's layout from sm_80 (bit flips of ZLUDA's atom_cas words).
    let atom_cas = |sms| Form { sms, ..g.form("ATOM.E.CAS", 0x38b, CAS_FIXED, &[EVICT, CAS_TYPE, ORDER], cas_slots.clone()) };
    v.push(atom_cas((g.sms.0.max(80), g.sms.1)).widths(DATA_WIDTHS));
    if g.wide_ur {
        v.push(g.form("ATOMG.E.CAS", 0x3a9, CAS_FIXED, &[EVICT, CAS_TYPE, ORDER], cas_slots).widths(DATA_WIDTHS));
    } else {
        use super::{EVICT_75, PRIVATE};
        const CAS_FIXED_75: &[(Field, u64)] = &[(f(72, 72), 1), (f(87, 91), 0)];
        v.push(Form { sms: (75, 75), nonzero: &[3], ..g.form("ATOMG.E.CAS", 0x3a9, CAS_FIXED_75, &[EVICT_75, CAS_TYPE, ORDER_75_RED, PRIVATE], cas_slots.clone()) }.widths(DATA_WIDTHS));
        // sm_75's ATOM.E.CAS (0x38b) in the same layout (bit flips of a corpus word).
        v.push(Form { sms: (75, 75), nonzero: &[3], ..g.form("ATOM.E.CAS", 0x38b, CAS_FIXED_75, &[EVICT_75, CAS_TYPE, ORDER_75_RED, PRIVATE], cas_slots.clone()) }.widths(DATA_WIDTHS));
        v.push(Form { sms: (80, 89), ..g.form("ATOMG.E.CAS", 0x3a9, CAS_FIXED, &[EVICT, CAS_TYPE, ORDER], cas_slots.clone()) }.widths(DATA_WIDTHS));
        v.push(Form { sms: (90, 90), ..g.form("ATOMG.E.CAS", 0x3a9, CAS_FIXED, &[EVICT, CAS_TYPE, ORDER], cas_slots) }.widths(DATA_WIDTHS));
    }
    if g.wide_ur {
        v.push(g.form("REDG.E", 0x98e, FIXED_8, mods, vec![addr(true), data]).widths(DATA_WIDTHS));
        v.push(g.form("REDG.E", 0x9a6, FFIXED_8, fmods, vec![addr(true), data]).widths(DATA_WIDTHS));
    } else {
        v.push(Form { sms: (80, 89), ..g.form("RED.E", 0x98e, FIXED_6, mods_80, vec![addr(false), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: (90, 90), ..g.form("REDG.E", 0x98e, FIXED_6, mods, vec![addr(true), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: (90, 90), ..g.form("REDG.E", 0x9a6, FFIXED_6, fmods, vec![addr(true), data]) }.widths(DATA_WIDTHS));
    }
}

/// IABS with an immediate, constant or uniform source; PLOP3 with a uniform
/// predicate as its third source; UFLO and UPOPC; BREAK; BRX; CGAERRBAR and
/// ENDCOLLECTIVE (sm_90+); CCTL.IVALL (corpus words and bit flips).
fn more_misc(v: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    for (form, b) in [(0x800u16, Slot::Imm32 { signed: true }), (0xa00, cbank(None, None, None)), (0xc00, g.uniform_b(None, None))] {
        if g.wide_ur && form == 0xa00 {
            continue;
        }
        v.push(g.form("IABS", form | 0x013, NONE, &[], vec![RD, b]));
    }
    // PLOP3.LUT with bit 67 set: the third source (68–70, `!` 71) is a
    // uniform predicate (`PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0`).
    const PLOP3_UP: &[(Field, u64)] = &[(f(67, 67), 1)];
    let p = |lo: u8, not: bool| Slot::Pred { uniform: false, field: f(lo, lo + 2), not: not.then_some(lo + 3), show: Always };
    let up = Slot::Pred { uniform: true, field: f(68, 70), not: Some(71), show: Always };
    let lut = [Slot::HexSplit(f(64, 66), f(72, 76)), Slot::Hex(f(16, 23))];
    v.push(g.form("PLOP3.LUT", 0x81c, PLOP3_UP, &[], vec![p(81, false), p(84, false), p(87, true), p(77, true), up, lut[0], lut[1]]));
    // PLOP3.LUT of register signs (0x21f): the sources are the sign bits of
    // a (24), b (32) and c (64), printed `R0.SIGN`; the lookup table is
    // 72–79, the second constant 16–23 (bit flips of add.sat.s32 words,
    // every SM).
    const SIGNS: &[OperandSuffix] =
        &[OperandSuffix::Text { text: ".SIGN", slot: 2 }, OperandSuffix::Text { text: ".SIGN", slot: 3 }, OperandSuffix::Text { text: ".SIGN", slot: 4 }];
    let signs = vec![p(81, false), p(84, false), gpr(24, None, Some(0)), gpr(32, None, Some(1)), gpr(64, None, Some(2)), Slot::Hex(f(72, 79)), Slot::Hex(f(16, 23))];
    v.push(Form { operand_suffixes: SIGNS, ..g.form("PLOP3.LUT", 0x21f, NONE, &[], signs.clone()) });
    // b a constant-bank word (0xa1f, up to sm_90) or a uniform register
    // (0xc1f), as the ALU forms place them (`PLOP3.LUT P0, PT, R19.SIGN,
    // c[0x2] [0x0].SIGN, R4.SIGN, 0x2, 0x0` on sm_75, `..., UR4.SIGN, ...`
    // on sm_100; ptxas's words for generated programs, nvdisasm 13.5).
    let with_b = |b: Slot| signs.iter().enumerate().map(|(k, s)| if k == 3 { b } else { *s }).collect::<Vec<_>>();
    if !g.wide_ur {
        v.push(Form { operand_suffixes: SIGNS, ..g.form("PLOP3.LUT", 0xa1f, NONE, &[], with_b(cbank(None, None, None))) });
    }
    v.push(Form { operand_suffixes: SIGNS, ..g.form("PLOP3.LUT", 0xc1f, NONE, &[], with_b(g.uniform_b(None, None))) });
    // UPLOP3.LUT of uniform register signs (0x29f): the same layout with
    // uniform predicates and registers, bit 91 set (`UPLOP3.LUT UP0, UPT,
    // UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x80, 0x0`; written words, nvdisasm
    // 13.5 on SM90, which refuses them with bit 91 clear).
    const UPLOP3_SIGN_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
    let up_d = |lo: u8| Slot::Pred { uniform: true, field: f(lo, lo + 2), not: None, show: Always };
    let ur = |lo: u8| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
    let usigns = vec![up_d(81), up_d(84), ur(24), ur(32), ur(64), Slot::Hex(f(72, 79)), Slot::Hex(f(16, 23))];
    v.push(Form { operand_suffixes: SIGNS, uniform_guard: true, ..g.form("UPLOP3.LUT", 0x29f, UPLOP3_SIGN_FIXED, &[], usigns) });
    // UFLO (0x2bd) and UPOPC (0x2bf): FLO and POPC of a uniform register
    // (32–) into one; bit 91 set; UFLO's 81–83 hold UPT.
    const FLO_SH: ModField = ModField { field: f(74, 74), names: &["", ".SH"], extra: None };
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    let ur_b = Slot::Ur { field: g.ur_field(32), neg: None, abs: None, not: Some(63) };
    const UFLO_FIXED: &[(Field, u64)] = &[(f(81, 83), 7), (f(91, 91), 1)];
    const UPOPC_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
    let uniform = |form: Form| Form { uniform_guard: true, ..form };
    v.push(uniform(g.form("UFLO", 0x2bd, UFLO_FIXED, &[SIGNED_73, FLO_SH], vec![ur_d, ur_b])));
    v.push(uniform(g.form("UPOPC", 0x2bf, UPOPC_FIXED, &[], vec![ur_d, ur_b])));
    // UBREV (0x2be): BREV of a uniform register, between them; bit 91 set
    // (nvdisasm 13.5 on SM75 to SM120 refuses it clear), 63 prints nothing
    // (kept 0; `UBREV UR5, UR4`, `@UP1 UBREV UR5, UR4`, written words).
    const UBREV_FIXED: &[(Field, u64)] = &[(f(63, 63), 0), (f(91, 91), 1)];
    let ur_b_plain = Slot::Ur { field: g.ur_field(32), neg: None, abs: None, not: None };
    v.push(uniform(g.form("UBREV", 0x2be, UBREV_FIXED, &[], vec![ur_d, ur_b_plain])));
    // BREAK (0x942): a convergence barrier (16–19); a condition predicate
    // (87–89, `!` 90) printed first when not PT (ptxas 13.5's `@!P2 BREAK
    // !P3, B4` leaving a loop nest on every SM); sm_100+ bit 72 `.RELIABLE`.
    const COND_PT: &[(Field, u64)] = &[(f(87, 90), 7)];
    const RELIABLE: ModField = ModField { field: f(72, 72), names: &["", ".RELIABLE"], extra: None };
    let barrier = Slot::Barrier(f(16, 19));
    let cond = pred(87, PredShow::UnlessTrue);
    if g.wide_ur {
        v.push(g.form("BREAK", 0x942, NONE, &[RELIABLE], vec![cond, barrier]));
    } else {
        v.push(g.form("BREAK", 0x942, NONE, &[], vec![cond, barrier]));
    }
    // BRX (0x949): an indirect branch to a register (24–31) plus an offset
    // from the next instruction, printed signed after a space; BRA's
    // offset layouts; condition 87–90 printed first when not PT.
    let layouts: &[((u16, u16), Layout)] =
        if g.wide_ur { &[((100, 120), Layout::Split)] } else { &[((75, 89), Layout::Contiguous(f(34, 81))), ((90, 90), Layout::Split)] };
    const BRX_FIXED: &[(Field, u64)] = &[(f(32, 33), 0), (f(85, 86), 0), (f(91, 91), 0)];
    // A zero offset prints nothing (oracle): that form comes first.
    const BRX_ZERO: &[(Field, u64)] = &[(f(32, 33), 0), (f(85, 86), 0), (f(91, 91), 0), (f(16, 23), 0), (f(34, 81), 0)];
    for &(sms, layout) in layouts {
        v.push(Form { sms, ..g.form("BRX", 0x949, BRX_ZERO, &[], vec![pred(87, UnlessTrue), gpr(24, None, None)]) });
        let slots = vec![pred(87, UnlessTrue), gpr(24, None, None), Slot::RelOffset(layout)];
        v.push(Form { sms, space_before_last: true, ..g.form("BRX", 0x949, BRX_FIXED, &[], slots) });
    }
    // BRXU (0x958): BRX of a uniform register (24–), bit 91 set (ptxas
    // 13.5's `brx.idx.uni` of a kernel parameter on sm_120: `BRXU UR4
    // -0xa0`; nvdisasm reads the word alike on SM90 and SM100; on sm_89
    // ptxas's `brx.idx` of a uniform index in a generated program, `BRXU
    // UR4 -0x900`, with BRX's contiguous offset, read alike on SM75–SM89).
    const BRXU_FIXED: &[(Field, u64)] = &[(f(32, 33), 0), (f(85, 86), 0), (f(91, 91), 1)];
    const BRXU_ZERO: &[(Field, u64)] = &[(f(32, 33), 0), (f(85, 86), 0), (f(91, 91), 1), (f(16, 23), 0), (f(34, 81), 0)];
    let ur_a = Slot::Ur { field: g.ur_field(24), neg: None, abs: None, not: None };
    for &(sms, layout) in layouts {
        v.push(Form { sms, uniform_guard: false, ..g.form("BRXU", 0x958, BRXU_ZERO, &[], vec![pred(87, UnlessTrue), ur_a]) });
        let slots = vec![pred(87, UnlessTrue), ur_a, Slot::RelOffset(layout)];
        v.push(Form { sms, space_before_last: true, ..g.form("BRXU", 0x958, BRXU_FIXED, &[], slots) });
    }
    if g.wide_ur || g.sms.1 >= 90 {
        let sms = (g.sms.0.max(90), g.sms.1);
        v.push(Form { sms, ..g.form("CGAERRBAR", 0x5ab, NONE, &[], vec![]) });
        v.push(Form { sms, ..g.form("ENDCOLLECTIVE", 0x91b, COND_PT, &[], vec![]) });
        // ACQBULK (0x82e: waits for the grids this one depends on,
        // `griddepcontrol.wait`) and PREEXIT (0x82d: lets dependent grids
        // launch, `griddepcontrol.launch_dependents`): no operands;
        // 0x000000000000782e / 0x000000000000782d with 0x000fe20000000000
        // on sm_90, sm_100 and sm_120 (ptxas 13.5 words).
        v.push(Form { sms, ..g.form("ACQBULK", 0x82e, NONE, &[], vec![]) });
        v.push(Form { sms, ..g.form("PREEXIT", 0x82d, NONE, &[], vec![]) });
        // ELECT (0x82f): elects one lane of the threads whose predicate
        // source (87–89, `!` 90) is true; its predicate result (81–83) is
        // true in that lane, its uniform result (16–) the lane's index
        // (`ELECT P0, UR4, PT` = 0x000000000004782f / 0x...03800000 on
        // sm_90, 100 and 120; bit 91 makes the source a uniform register,
        // a form ptxas does not emit, left out; ptxas writes URZ as 63 on
        // sm_90, as VOTEU).
        let elect_src = Slot::Pred { uniform: false, field: f(87, 89), not: Some(90), show: Always };
        let elect_ud = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
        const ELECT_FIXED: &[(Field, u64)] = &[(f(91, 91), 0)];
        const ELECT_FIXED6: &[(Field, u64)] = &[(f(22, 23), 0), (f(91, 91), 0)];
        let elect_fixed = if g.wide_ur { ELECT_FIXED } else { ELECT_FIXED6 };
        v.push(Form { sms, ..g.form("ELECT", 0x82f, elect_fixed, &[], vec![pred_plain(81, Always), elect_ud, elect_src]) });
        // UCGABAR_ARV (0x9c7) and UCGABAR_WAIT (0xdc7): arrive at and wait
        // on the cluster's barrier; bit 91 set (clear is illegal) (ptxas
        // 13.5 words
        // 0x00000000000079c7 / 0x0000000000007dc7 with 0x000fe20008000000
        // on sm_90, 100, 120; nvdisasm bit flips); the guard is a uniform
        // predicate (`@!UP0 UCGABAR_ARV`).
        const CGABAR_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
        v.push(Form { sms, uniform_guard: true, ..g.form("UCGABAR_ARV", 0x9c7, CGABAR_FIXED, &[], vec![]) });
        v.push(Form { sms, uniform_guard: true, ..g.form("UCGABAR_WAIT", 0xdc7, CGABAR_FIXED, &[], vec![]) });
        // USETMAXREG (0x9c8, `setmaxnreg`): the warp's register count (the
        // immediate, 32–41) taken from or given back to the CTA's pool
        // (bit 74 `.CTAPOOL`; clear prints `???0`); mode 72–73: 1
        // `.DEALLOC`, 2 `.TRY_ALLOC` (0 and 3 are illegal), whose uniform
        // predicate result (81–83) says whether the registers were granted;
        // `.DEALLOC` keeps UPT there. Bit 91 set (clear is illegal); a
        // uniform guard. ptxas 13.5 words 0x000000c8000079c8 /
        // 0x000e640008000600 (`TRY_ALLOC.CTAPOOL UP0, 0xc8`) and
        // 0x00000038000079c8 / 0x001e0000080e0500 (`DEALLOC.CTAPOOL 0x38`),
        // alike on sm_90a, sm_100a and sm_120a; nvdisasm bit flips.
        const TRY_ALLOC: &[(Field, u64)] = &[(f(72, 74), 6), (f(91, 91), 1)];
        const DEALLOC: &[(Field, u64)] = &[(f(72, 74), 5), (f(81, 83), 7), (f(91, 91), 1)];
        let count = Slot::Hex(f(32, 41));
        let granted = Slot::Pred { uniform: true, field: f(81, 83), not: None, show: Always };
        v.push(Form { sms, uniform_guard: true, ..g.form("USETMAXREG.TRY_ALLOC.CTAPOOL", 0x9c8, TRY_ALLOC, &[], vec![granted, count]) });
        v.push(Form { sms, uniform_guard: true, ..g.form("USETMAXREG.DEALLOC.CTAPOOL", 0x9c8, DEALLOC, &[], vec![count]) });
    }
    // BAR.RED (0xb1d with 77–79 = 2): a barrier (54–57) that also reduces a
    // predicate (87–90, printed always); operation 74–75, bit 80
    // `.DEFER_BLOCKING`; a thread count (42–53) prints only when not zero,
    // so only zero decodes (bit flips, sm_80).
    const RED_OP: ModField = ModField { field: f(74, 75), names: &[".POPC", ".AND", ".OR"], extra: None };
    const DEFER: ModField = ModField { field: f(80, 80), names: &["", ".DEFER_BLOCKING"], extra: None };
    const BAR_RED: &[(Field, u64)] = &[(f(42, 53), 0), (f(77, 79), 2)];
    v.push(g.form("BAR.RED", 0xb1d, BAR_RED, &[RED_OP, DEFER], vec![Slot::Hex(f(54, 57)), pred(87, Always)]));
    // ATOMS (0x38c): an atomic on shared memory, `[R2.X4+0x10]` (scale
    // 78–79), data 32–39, operation 87–90, type 73–75; with bit 91 (0x98c)
    // a uniform register (64–) is added to the address (corpus words, bit
    // flips, sm_80).
    const ATOMS_OP: ModField =
        ModField { field: f(87, 90), names: &[".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".EXCH"], extra: None };
    const ATOMS_TYPE: ModField = ModField { field: f(73, 75), names: &["", ".S32", ".64"], extra: None };
    let shared = |uniform: Option<Field>| Slot::Addr {
        base: Some(f(24, 31)),
        wide: false,
        offset: Some(f(40, 63)),
        scale: Some(f(78, 79)),
        desc: None,
        show_desc: false,
        uniform,
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    const ATOMS_FIXED: &[(Field, u64)] = &[(f(64, 71), 0), (f(72, 72), 0), (f(76, 77), 0), (f(80, 86), 0), (f(91, 91), 0)];
    const ATOMS_UR: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 86), 0), (f(91, 91), 1)];
    const ATOMS_UR6: &[(Field, u64)] = &[(f(70, 71), 0), (f(72, 72), 0), (f(76, 77), 0), (f(80, 86), 0), (f(91, 91), 1)];
    let data = gpr(32, None, None);
    if g.wide_ur {
        v.push(g.form("ATOMS", 0x38c, ATOMS_FIXED, &[ATOMS_OP, ATOMS_TYPE], vec![RD, shared(None), data]).widths(DATA_WIDTHS));
    } else {
        // sm_75's ptxas fills 64–71 with ones (nvdisasm ignores them there:
        // bit flips, sm_75 and sm_80); one variant per SM keeps text to word unique.
        const ATOMS_FIXED_75: &[(Field, u64)] = &[(f(64, 71), 0xff), (f(72, 72), 0), (f(76, 77), 0), (f(80, 86), 0), (f(91, 91), 0)];
        v.push(Form { sms: (75, 75), ..g.form("ATOMS", 0x38c, ATOMS_FIXED_75, &[ATOMS_OP, ATOMS_TYPE], vec![RD, shared(None), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: (80, 90), ..g.form("ATOMS", 0x38c, ATOMS_FIXED, &[ATOMS_OP, ATOMS_TYPE], vec![RD, shared(None), data]) }.widths(DATA_WIDTHS));
    }
    let ur_fixed = if g.wide_ur { ATOMS_UR } else { ATOMS_UR6 };
    v.push(g.form("ATOMS", 0x98c, ur_fixed, &[ATOMS_OP, ATOMS_TYPE], vec![RD, shared(Some(g.ur_field(64))), data]).widths(DATA_WIDTHS));
    // ATOMS.CAS / .CAST / .CAST.SPIN: compare (32–39) and store (64–71) at
    // a shared address, the old value into a register (0x38d) or, for
    // `.CAST`, the success into a predicate (0x58d, 81–83; 16–23 zero);
    // kind 87–88 (0 also prints `.CAS` on 0x38d, `.???0` on 0x58d: not
    // decoded), type 73–75 (bit flips of ZLUDA's atom_add_float words,
    // sm_80, sm_90, sm_120; of half_ops' words on sm_75 and sm_100).
    const CAS_KIND: ModField = ModField { field: f(87, 88), names: &[U, ".CAST", ".CAS", ".CAST.SPIN"], extra: None };
    const CAST_KIND: ModField = ModField { field: f(87, 88), names: &[U, ".CAST", U, ".CAST.SPIN"], extra: None };
    // (sm_75–sm_89 print no `.128`; sm_90 refuses 0x58d. `.64` of 0x58d:
    // ptxas 13.5's `ATOMS.CAST.SPIN.64 P0, [R33], R24, R26` for cub's
    // 64-bit shared atomics on sm_100 and sm_120, compare and store pairs;
    // 3 prints `.INVALID3`.)
    const CAS_TYPE: ModField = ModField { field: f(73, 75), names: &["", ".S32", ".64"], extra: None };
    const CAST_TYPE: ModField = CAS_TYPE;
    const CAST_P: &[(Field, u64)] = &[(f(16, 23), 0)];
    // The result a predicate; the compare and store values the size.
    const CAST_WIDTHS: OperandWidths = OperandWidths::ONE.source(1, Width::Size).source(2, Width::Size);
    let from = |sm: u16, form: Form| Form { sms: (g.sms.0.max(sm), g.sms.1), ..form };
    v.push(g.form("ATOMS", 0x38d, NONE, &[CAS_KIND, CAS_TYPE], vec![RD, shared(None), data, gpr(64, None, None)]).widths(DATA_WIDTHS));
    if g.wide_ur {
        v.push(from(100, g.form("ATOMS", 0x58d, CAST_P, &[CAST_KIND, CAST_TYPE], vec![pred_plain(81, Always), shared(None), data, gpr(64, None, None)])).widths(CAST_WIDTHS));
    }
    // ATOMS.POPC.INC.32 (0xf8c; 87–91 = 0x1b): count the active threads into
    // shared memory, `[R0+URZ]` (the uniform register printed even when
    // zero); no data operand (corpus words, bit flips, sm_120).
    const POPC_INC: &[(Field, u64)] = &[(f(32, 39), 0), (f(72, 77), 0), (f(80, 86), 0), (f(87, 91), 0x1b)];
    let popc_inc = |sms| Form { sms, ..g.form("ATOMS.POPC.INC.32", 0xf8c, POPC_INC, &[], vec![RD, shared(Some(g.ur_field(64)))]) };
    // sm_80–sm_89 take 87–91 = 0x1a for it (0x1b there, and 0x1a on sm_90,
    // print other operations; bit flips of corpus words, sm_80, sm_89,
    // sm_90); sm_75 refuses both.
    if g.wide_ur {
        v.push(popc_inc(g.sms));
    } else {
        v.push(popc_inc((90, 90)));
        const POPC_INC_80: &[(Field, u64)] = &[(f(32, 39), 0), (f(72, 77), 0), (f(80, 86), 0), (f(87, 91), 0x1a)];
        v.push(Form { sms: (80, 89), ..g.form("ATOMS.POPC.INC.32", 0xf8c, POPC_INC_80, &[], vec![RD, shared(Some(g.ur_field(64)))]) });
    }
    // CCTL.IVALL: invalidate all cache lines (no address: 24–31 RZ, bit 89).
    const IVALL: &[(Field, u64)] = &[(f(24, 31), 0xff), (f(87, 91), 4)];
    v.push(g.form("CCTL.IVALL", 0x98f, IVALL, &[], vec![]));
    // CCTL.E.PF2 [R6]: a prefetch of the line at a 64-bit address (24–31,
    // printed as one register; bit 72 `.E`, 87–91 = 1): ptxas 13.5 words of
    // thrust_transform on sm_80 to sm_100 (`0x000000000600798f /
    // 0x...0000800100`); flips of 32–104 on sm_90 show no offset; the
    // same word prints the same on sm_75 to sm_120.
    {
        const PF2: &[(Field, u64)] = &[(f(72, 72), 1), (f(87, 91), 1)];
        let line = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: None, scale: None, desc: None, show_desc: false, uniform: None, zero_base: false, u32_base: false, offset_shift: 0 };
        v.push(g.form("CCTL.E.PF2", 0x98f, PF2, &[], vec![line]));
    }
}

/// VIADDMNMX (0x046, sm_90 and sm_100): `d = min(a + b, c)` when the
/// predicate (87–90) holds, else the maximum. Bits 72–73 the type (0
/// `.U32`, 1 signed, printed as nothing, 2 `.U16x2`, 3 `.S16x2`), 76
/// `.RELU`. The forms ptxas emits: 2 (b a register in 64–71 with `-` 75, c
/// an immediate), 4 (b an immediate, c a register in 64–71 without a flag)
/// and 7 (b in 64–71 with `-` 75, c a uniform register). Single-bit flips
/// of corpus words (sm_90, sm_100, nvdisasm 13.5); sm_120 has no VIADDMNMX
/// (nvdisasm refuses 0x046 there).
fn viaddmnmx(v: &mut Vec<Form>, g: Generation) {
    let sms = if g.wide_ur { (100, 100) } else { (90, 90) };
    let a = gpr(24, None, Some(0));
    let b64 = gpr(64, Some(75), Some(1));
    let c64 = gpr(64, None, Some(2));
    let imm = Slot::Imm32 { signed: false };
    let sel = pred(87, PredShow::Always);
    // Three registers (0x246): b's negation is bit 63 (library-corpus
    // words of ptxas 13.5, `VIADDMNMX R19, R15, -R17, R18, PT`; bit flips
    // on sm_90 and sm_100).
    let b32 = gpr(32, Some(63), Some(1));
    // b a uniform register (0xc46, `-` 63) and c in 64–71: ptxas 13.5's
    // `VIADDMNMX.U32 R0, R0, UR4, R3, PT` and `VIADDMNMX R25, R22, -UR8,
    // RZ, !PT` of cub's radix and merge sorts (sm_90, sm_100; flips on both).
    let (bu, cu) = (g.uniform_b(Some(63), None), gpr(64, None, Some(2)));
    for (form, slots) in [
        (0x246u16, vec![RD, a, b32, c64, sel]),
        (0x446, vec![RD, a, b64, imm, sel]),
        (0x846, vec![RD, a, imm, c64, sel]),
        (0xc46, vec![RD, a, bu, cu, sel]),
        (0xe46, vec![RD, a, b64, g.uniform_b(None, None), sel]),
    ] {
        v.push(Form { sms, ..g.form("VIADDMNMX", form, NONE, VIADDMNMX_MODS, slots) });
    }
    // VIMNMX3 (0x20f): the minimum or maximum of three registers, the same
    // type and `.RELU` fields (library-corpus words, `VIMNMX3 R4, R5, R4,
    // R6, !PT`; bit flips on sm_90 and sm_100; sm_120 refuses it).
    v.push(Form { sms, ..g.form("VIMNMX3", 0x20f, NONE, VIADDMNMX_MODS, vec![RD, a, gpr(32, None, Some(1)), gpr(64, None, Some(2)), sel]) });
    // b a 32-bit immediate (0x80f, printed unsigned; ptxas 13.5 for sm_100
    // joins `max.u32` with a constant: `VIMNMX3.U32 R9, R0, 0x3e8, R7, !PT`,
    // `VIMNMX3.U16x2 R11, R0, 0x50007, R6, !PT`, `VIMNMX3 R13, R7,
    // 0xfffffffb, R6, PT`).
    v.push(Form { sms, ..g.form("VIMNMX3", 0x80f, NONE, VIADDMNMX_MODS, vec![RD, a, imm, c64, sel]) });
}

/// The lane type (72–73) and `.RELU` (76) of VIADDMNMX, VIMNMX3 and sm_90's VIMNMX.
const VIADDMNMX_MODS: &[ModField] = &[
    ModField { field: f(72, 73), names: &[".U32", "", ".U16x2", ".S16x2"], extra: None },
    ModField { field: f(76, 76), names: &["", ".RELU"], extra: None },
];

/// IMNMX (0x017) and UIMNMX (0x085, uniform registers, bit 91 set) on
/// sm_120: two predicate results (81–83, 84–86) printed first, d, a, b
/// (forms 1, 4 and 6; the immediate signed), the predicate choosing min
/// (87–90) and a second predicate source (77–80). Bits 73–74 the type (0
/// `.U32`, 1 signed 32-bit, printed as nothing, 2 `.U64`, 3 `.S64`); 72,
/// 75, 76 print nothing (kept 0). nvdisasm refuses a reuse flag on b in the
/// immediate form and on c (index 2). Bit flips of ZLUDA words (sm_120;
/// sm_100 prints 0x017 as the older IMNMX).
fn minmax_sm120(v: &mut Vec<Form>, g: Generation) {
    use PredShow::Always;
    const TYPE: ModField = ModField { field: f(73, 74), names: &[".U32", "", ".U64", ".S64"], extra: None };
    let p = |lo| Slot::Pred { uniform: false, field: f(lo, lo + 2), not: None, show: Always };
    let up = |lo| Slot::Pred { uniform: true, field: f(lo, lo + 2), not: None, show: Always };
    let upred = |lo| Slot::Pred { uniform: true, field: f(lo, lo + 2), not: Some(lo + 3), show: Always };
    let a = gpr(24, None, Some(0));
    let imm = Slot::Imm32 { signed: true };
    for (form, b) in [(0x217u16, gpr(32, None, Some(1))), (0x817, imm), (0xc17, g.uniform_b(None, None))] {
        let slots = vec![p(81), p(84), RD, a, b, pred(87, Always), pred(77, Always)];
        v.push(Form { sms: (120, 120), ..g.form("IMNMX", form, NONE, &[TYPE], slots) }.widths(SIZED_WIDTHS));
    }
    const UNIFORM: &[(Field, u64)] = &[(f(91, 91), 1)];
    let ur = |lo| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
    for (form, b) in [(0x285u16, ur(32)), (0x885, imm)] {
        let slots = vec![up(81), up(84), ur(16), ur(24), b, upred(87), upred(77)];
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UIMNMX", form, UNIFORM, &[TYPE], slots) }.widths(SIZED_WIDTHS));
    }
}

/// UIADD3.64 (0x097 + 0x080, sm_120): UIADD3's layout on register pairs
/// (carry-out predicates 81–83, 84–86; a 24 with `-` 72; b an immediate,
/// signed, or a uniform register 32–39; c 64–71 with `-` 75; no carry in:
/// 74 clear, 77–80 and 87–90 hold `!UPT`); bit 91 set. Bit flips of a ZLUDA
/// word (sm_120).
fn uiadd3_64(v: &mut Vec<Form>, g: Generation) {
    const PLAIN: &[(Field, u64)] = &[(f(74, 74), 0), (f(77, 80), 0xf), (f(87, 90), 0xf), (f(91, 91), 1)];
    let ur = |lo, neg| Slot::Ur { field: g.ur_field(lo), neg, abs: None, not: None };
    // sm_90 (6-bit fields) prints the carry predicates only when not UPT
    // (ptxas 13.5 words of thrust_transform: `UIADD3.64 UR4, UR10, UR12,
    // UR4` = 0x0000000c0a047297 / 0x000fe4000fffe004); sm_100 as sm_120.
    let (sms, show) = if g.wide_ur { ((100, 120), PredShow::Always) } else { ((90, 90), PredShow::UnlessTrue) };
    let up = |lo| Slot::Pred { uniform: true, field: f(lo, lo + 2), not: None, show };
    // b's `-` is bit 63 (ptxas 13.5's `UIADD3.64 UR4, UPT, UPT, UR12, -UR10,
    // URZ` of cub's radix sort on sm_120; the flip on sm_90).
    for (form, b) in [(0x297u16, ur(32, Some(63))), (0x897, Slot::Imm32 { signed: true })] {
        let slots = vec![ur(16, None), up(81), up(84), ur(24, Some(72)), b, ur(64, Some(75))];
        v.push(Form { sms, uniform_guard: true, ..g.form("UIADD3.64", form, PLAIN, &[], slots) }.widths(SIZED_WIDTHS));
    }
}

/// QSPC (query space): whether a generic address lies in a state space,
/// into a predicate (81–83, printed always) and a register (16–23; ptxas
/// writes RZ). Space 73–74 (0 `.G`, 1 `.L`, 2 `.S`; 3 `.D` from sm_90,
/// `.INVALID3` before). 0x3aa: a register address `[R2+0x10]` (24–31,
/// offset 40–63), bit 72 `.E` (a 64-bit pair, printed as one register, as
/// ATOMG.E.CAS's). 0x9aa: a register pair plus a uniform register
/// (`[R6.64+UR8]`, 32–), bit 72 set (clear prints `.???0`), bit 90 set
/// (clear prints `.U32`: not modelled), bit 91 set; a zero base prints
/// `???255`. Single-bit flips and field enumerations of half_ops' words on
/// every measured SM (nvdisasm 13.5).
fn qspc(v: &mut Vec<Form>, g: Generation) {
    const SPACE_75: ModField = ModField { field: f(73, 74), names: &[".G", ".L", ".S"], extra: None };
    const SPACE_90: ModField = ModField { field: f(73, 74), names: &[".G", ".L", ".S", ".D"], extra: None };
    const E: ModField = ModField { field: f(72, 72), names: &["", ".E"], extra: None };
    const UNIFORM: &[(Field, u64)] = &[(f(72, 72), 1), (f(90, 91), 3)];
    let reg = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
    let with_ur =
        Slot::Addr { base: Some(f(24, 31)), wide: true, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: Some(g.ur_field(32)), zero_base: false, u32_base: false, offset_shift: 0 };
    let p = pred_plain(81, PredShow::Always);
    let variants: &[((u16, u16), ModField)] = if g.wide_ur { &[((100, 120), SPACE_90)] } else { &[((75, 89), SPACE_75), ((90, 90), SPACE_90)] };
    for &(sms, space) in variants {
        let mods: &'static [ModField] = if space == SPACE_90 { &[E, SPACE_90] } else { &[E, SPACE_75] };
        v.push(Form { sms, ..g.form("QSPC", 0x3aa, NONE, mods, vec![p, RD, reg]) });
        let mods: &'static [ModField] = if space == SPACE_90 { &[SPACE_90] } else { &[SPACE_75] };
        v.push(Form { sms, ..g.form("QSPC.E", 0x9aa, UNIFORM, mods, vec![p, RD, with_ur]) });
    }
}
