//! The form table: the encodings the decoder, encoder and printer know, as
//! data (see [`super::form`]). Positions and spellings were measured with
//! ptxas 13.5 and nvdisasm 13.5 (single-bit flips and field enumerations of
//! ptxas-emitted words; notes: SASS-ENCODING-SURVEY §2) and every form is
//! checked against nvdisasm on the corpus by `tests/isa_corpus.rs`.
//!
//! Operand slots follow the ALU layout of sm_70+: `a` in bits 24–31, `b`
//! in 32–39 (or a 32-bit immediate / constant-bank reference in 32–63, or a
//! uniform register in 32–37 — 32–39 from sm_100 — with bit 91 set), `c` in
//! 64–71; bits 9–11 of the opcode say which (`form 1` b,c registers; `2` c
//! immediate with b in 64–71; `3` c constant with b in 64–71; `4` b
//! immediate; `5` b constant; `6` b uniform register; `7` c uniform register
//! with b in 64–71).
//!
//! The table is defined (`ptx2sass-meta`'s `table/define.rs`) for two generations of the
//! same layout: sm_75–sm_90 and sm_100–sm_120, which differ in the width
//! of uniform-register fields, in IADD3 printing its carry-out predicates
//! always, in BRA's offset layout (which changes at sm_90 already) and in a
//! few opcodes (ULDC exists up to sm_90).
//!
//! So far: NOP, EXIT, BSYNC, BSSY, BRA (condition predicate, `.U`, `.DIV`,
//! `.CONV`, uniform register and uniform predicate forms), CALL.REL,
//! CALL.ABS, RET.REL, RET.ABS, BAR.SYNC, S2R, S2UR, MOV, UMOV, IADD3(.X),
//! IADD(.64) (sm_120), VIADD, ISETP(.EX), LOP3, PLOP3, UPLOP3, SEL, SHF,
//! POPC, BREV, FLO, LEA (.HI/.X/.SX32), PRMT, IABS, IMAD (.WIDE/.HI/.X, with
//! its alias names), the uniform twins of the integer ALU forms (UIADD3,
//! UISETP, ULOP3, USEL, USHF, ULEA, UPRMT, UIMAD), R2UR, SHFL, ULDC, LDC and
//! LDCU (index registers included), FFMA, FADD, FMUL, FSETP, DSETP, FSEL,
//! FMNMX, MUFU, DFMA, DADD, DMUL, LDG, LD, STG, ST (sm_75 without
//! descriptor, or with a uniform register added; sm_80+), LDL, STL, LDS,
//! STS, HFMA2(.MMA); the conversions F2I, I2F, I2FP, F2F, FRND (F2I, F2F
//! and FRND of an F16 source's high half, `R0.H1`), F2IP.U8
//! (`table/convert.rs`); and (`table/misc.rs`) BMOV, FCHK, IMNMX, VIMNMX, VOTE, VOTEU,
//! SHFL with a clamp register, MUFU with an immediate, CS2R, WARPSYNC,
//! YIELD, NANOSLEEP, ERRBAR, MEMBAR, B2R.RESULT, BPT.TRAP, SGXT, LEPC,
//! F2FP.PACK_AB, REDUX, RED/REDG, ATOMG, ATOMG.E.CAS, ATOMS,
//! ATOMS.POPC.INC.32, BAR.RED, PLOP3 with a uniform predicate, UFLO, UPOPC,
//! BREAK (with a condition predicate), BRX, CGAERRBAR, ENDCOLLECTIVE, CCTL.IVALL, FMNMX3 (sm_100), ATOM.E
//! and ATOM.E.CAS (generic atomics), ATOMS.CAS/.CAST(.SPIN), F2FP fp8
//! pack/unpack, LDGDEPBAR, UI2F, PLOP3.LUT of register signs (`R0.SIGN`);
//! HMMA (m16n8k16), IMMA (m16n8k32, `R4.ROW`/`R2.COL`) and LDSM
//! (`table/matrix.rs`); BMSK, IDP, I2IP, MATCH, VABSDIFF, P2R, R2P
//! (`table/bitops.rs`); HFMA2 register forms and with two f16 immediates,
//! HADD2(.F32), HMUL2, HMNMX2, HSET2 and HSETP2 with half swizzles
//! (`R0.H0_H0`, `table/half.rs`); VIADDMNMX (sm_90, sm_100), LEPC with a
//! target, FSEL with `-QNAN `; and on
//! sm_120 MOV.64, UMOV.64, SEL.64, IADD.X, 64-bit ISETP, LDL/STL with a
//! uniform register, VIADD with two registers, an immediate or a uniform
//! register (`.S32.ISAT`), UMOV.64 of a uniform pair, IMNMX/UIMNMX
//! with two predicate results (`.S64`), UIADD3.64 — each in the
//! variants ptxas emits for the corpus. What the corpus holds beyond that is
//! listed, with reasons, in `data/known-gaps.tsv` (`sass dis` prints such
//! words as `.raw`).
//!
//! The definition runs in the build script, which writes each generation's
//! forms as a `static` array (`OUT_DIR/isa_forms.rs`, included here): a
//! compilation finds the tables in the executable instead of building them
//! (building one took ~0.3 M instructions and ~60 fresh pages, ~5% of a
//! small kernel's compilation).

use super::bits::Field;
use super::branch::Layout;
use super::family::MEASURED_SMS;
use super::form::{Alias, AliasWhen, Form, ModField, OperandSuffix, PredShow, Slot, Spelling, Widths};
use super::op::{Mod, Op};

/// Every SASS opcode of the form table with its facts, one row per opcode
/// sorted by name: the rows of `ptx2sass-meta`'s `table/opcodes.rs`,
/// written by the build script (`isa_opcodes.rs`).
pub mod opcodes {
    use crate::isa::op_facts::{AsyncGroup, Class, Control, MemAccess, OpFacts, Space};
    include!(concat!(env!("OUT_DIR"), "/isa_opcodes.rs"));
}

// `GENERATION_SMS` and `GENERATION_<k>`: the forms of each generation,
// as `table/define.rs` builds them; `FORMS_BY_OP` (see `ptx2sass-meta`'s `forms.rs`).
include!(concat!(env!("OUT_DIR"), "/isa_forms.rs"));

/// How many generations the table has.
pub(super) const GENERATION_COUNT: usize = GENERATION_SMS.len();

/// Each generation's forms, in the order the decoder tries them.
static GENERATIONS: [&[Form]; GENERATION_COUNT] = [&GENERATION_0, &GENERATION_1];

/// The index of the generation whose forms apply to measured SM `sm`:
/// 0 for sm_75–sm_90, 1 from sm_100 (every form applies to SMs of one
/// generation only; a test checks it).
pub fn generation_of(sm: u16) -> usize {
    usize::from(sm >= GENERATION_SMS[1].0)
}

/// The forms of generation `k` (0: sm_75–sm_90, 1: sm_100 on; see
/// [`generation_of`]).
pub fn generation(k: usize) -> &'static [Form] {
    GENERATIONS[k % GENERATION_COUNT]
}

/// The forms that may apply to measured SM `sm`: those of its generation.
pub fn forms_for(sm: u16) -> &'static [Form] {
    generation(generation_of(sm))
}

/// The forms of opcode `op` that apply to measured SM
/// `MEASURED_SMS[sm_index]`, in table order; none for an index past the
/// list.
pub fn forms_of(sm_index: usize, op: Op) -> impl Iterator<Item = &'static Form> {
    let sm = MEASURED_SMS.get(sm_index).copied().unwrap_or(0);
    let forms = generation(generation_of(sm));
    let positions: &[u16] = FORMS_BY_OP.get(sm_index).and_then(|by_op| by_op.get(op as usize)).copied().unwrap_or(&[]);
    positions.iter().filter_map(move |&i| forms.get(usize::from(i)))
}

/// Where `form` is, if it is one of the table's: its generation and its
/// index there (found by its address: the tables are statics, so this is
/// a subtraction and a compare against constants per generation).
#[inline(always)]
pub fn locate(form: &Form) -> Option<(usize, usize)> {
    let size = std::mem::size_of::<Form>();
    let address = form as *const Form as usize;
    GENERATIONS.iter().enumerate().find_map(|(k, forms)| {
        let offset = address.wrapping_sub(forms.as_ptr() as usize);
        (offset < forms.len() * size).then(|| (k, offset / size))
    })
}

/// The position of `form` among [`all_forms`], if it is one of the
/// table's ([`locate`]).
#[inline(always)]
pub fn position(form: &Form) -> Option<usize> {
    let (k, index) = locate(form)?;
    Some(GENERATIONS[..k].iter().map(|forms| forms.len()).sum::<usize>() + index)
}

/// Every form the table knows: each generation's, in order.
pub fn all_forms() -> impl Iterator<Item = &'static Form> {
    GENERATIONS.iter().flat_map(|forms| forms.iter())
}

/// Special-register names by number as `nvdisasm` 13.5 prints them (S2R bits
/// 72–79, every value enumerated on sm_80: survey Appendix B); other numbers
/// print as `SR<n>`. [`SPECIAL_REGISTERS_BY_SM`] has the names that differ by SM.
pub const SPECIAL_REGISTERS: &[(u8, &str)] = &[
    (0x0, "SR_LANEID"),
    (0x1, "SR_CLOCK"),
    (0x2, "SR_VIRTCFG"),
    (0x3, "SR_VIRTID"),
    (0xf, "SR_ORDERING_TICKET"),
    (0x10, "SR_PRIM_TYPE"),
    (0x11, "SR_INVOCATION_ID"),
    (0x12, "SR_Y_DIRECTION"),
    (0x13, "SR_THREAD_KILL"),
    (0x14, "SM_SHADER_TYPE"),
    (0x15, "SR_DIRECTCBEWRITEADDRESSLOW"),
    (0x16, "SR_DIRECTCBEWRITEADDRESSHIGH"),
    (0x17, "SR_DIRECTCBEWRITEENABLED"),
    (0x18, "SR_SW_SCRATCH"),
    (0x19, "SR_MACHINE_ID_1"),
    (0x1a, "SR_MACHINE_ID_2"),
    (0x1b, "SR_MACHINE_ID_3"),
    (0x1c, "SR_AFFINITY"),
    (0x1d, "SR_INVOCATION_INFO"),
    (0x1e, "SR_WSCALEFACTOR_XY"),
    (0x1f, "SR_WSCALEFACTOR_Z"),
    (0x20, "SR_TID"),
    (0x21, "SR_TID.X"),
    (0x22, "SR_TID.Y"),
    (0x23, "SR_TID.Z"),
    (0x25, "SR_CTAID.X"),
    (0x26, "SR_CTAID.Y"),
    (0x27, "SR_CTAID.Z"),
    (0x28, "SR_NTID"),
    (0x29, "SR_CirQueueIncrMinusOne"),
    (0x2a, "SR_NLATC"),
    (0x2c, "SR_SM_SPA_VERSION"),
    (0x2d, "SR_MULTIPASSSHADERINFO"),
    (0x2e, "SR_LWINHI"),
    (0x2f, "SR_SWINHI"),
    (0x30, "SR_SWINLO"),
    (0x31, "SR_SWINSZ"),
    (0x32, "SR_SMEMSZ"),
    (0x33, "SR_SMEMBANKS"),
    (0x34, "SR_LWINLO"),
    (0x35, "SR_LWINSZ"),
    (0x36, "SR_LMEMLOSZ"),
    (0x37, "SR_LMEMHIOFF"),
    (0x38, "SR_EQMASK"),
    (0x39, "SR_LTMASK"),
    (0x3a, "SR_LEMASK"),
    (0x3b, "SR_GTMASK"),
    (0x3c, "SR_GEMASK"),
    (0x3d, "SR_REGALLOC"),
    (0x3e, "SR_BARRIERALLOC"),
    (0x40, "SR_GLOBALERRORSTATUS"),
    (0x42, "SR_WARPERRORSTATUS"),
    (0x43, "SR_VIRTUALSMID"),
    (0x44, "SR_VIRTUALENGINEID"),
    (0x50, "SR_CLOCKLO"),
    (0x51, "SR_CLOCKHI"),
    (0x52, "SR_GLOBALTIMERLO"),
    (0x53, "SR_GLOBALTIMERHI"),
    (0x54, "SR_ESR_PC"),
    (0x55, "SR_ESR_PC_HI"),
    (0x60, "SR_HWTASKID"),
    (0x61, "SR_CIRCULARQUEUEENTRYINDEX"),
    (0x62, "SR_CIRCULARQUEUEENTRYADDRESSLOW"),
    (0x63, "SR_CIRCULARQUEUEENTRYADDRESSHIGH"),
    (0x64, "SR_PM0"),
    (0x65, "SR_PM_HI0"),
    (0x66, "SR_PM1"),
    (0x67, "SR_PM_HI1"),
    (0x68, "SR_PM2"),
    (0x69, "SR_PM_HI2"),
    (0x6a, "SR_PM3"),
    (0x6b, "SR_PM_HI3"),
    (0x6c, "SR_PM4"),
    (0x6d, "SR_PM_HI4"),
    (0x6e, "SR_PM5"),
    (0x6f, "SR_PM_HI5"),
    (0x70, "SR_PM6"),
    (0x71, "SR_PM_HI6"),
    (0x72, "SR_PM7"),
    (0x73, "SR_PM_HI7"),
    (0x74, "SR_SNAP_PM0"),
    (0x75, "SR_SNAP_PM_HI0"),
    (0x76, "SR_SNAP_PM1"),
    (0x77, "SR_SNAP_PM_HI1"),
    (0x78, "SR_SNAP_PM2"),
    (0x79, "SR_SNAP_PM_HI2"),
    (0x7a, "SR_SNAP_PM3"),
    (0x7b, "SR_SNAP_PM_HI3"),
    (0x7c, "SR_SNAP_PM4"),
    (0x7d, "SR_SNAP_PM_HI4"),
    (0x7e, "SR_SNAP_PM5"),
    (0x7f, "SR_SNAP_PM_HI5"),
    (0x80, "SR_SNAP_PM6"),
    (0x81, "SR_SNAP_PM_HI6"),
    (0x82, "SR_SNAP_PM7"),
    (0x83, "SR_SNAP_PM_HI7"),
    (0x84, "SR_VARIABLE_RATE"),
    (0x85, "__HIR0X000"),
    (0xff, "SRZ"),
];

/// Special-register names that differ from [`SPECIAL_REGISTERS`] on some
/// measured SMs: (number, SMs, name). Every number enumerated with S2R on
/// sm_75, 80, 90, 100 and 120 (`nvdisasm` 13.5).
pub const SPECIAL_REGISTERS_BY_SM: &[(u8, (u16, u16), &str)] = &[
    (0x18, (75, 75), "SR_MACHINE_ID_0"),
    (0x41, (90, 120), "SR_CGAERRORSTATUS"),
    (0x86, (90, 90), "SR_WARPGROUP_INFO"),
    (0x87, (90, 90), "SR_WARPGROUPID"),
    (0x88, (90, 120), "SR_CgaCtaId"),
    (0x89, (90, 120), "SR_GpcLocalCgaId"),
    (0x8a, (100, 120), "SR_CgaSize"),
    (0x8b, (90, 120), "SR_CTARegPoolSz"),
    (0x8d, (100, 120), "SR_TMemSz"),
    (0x8e, (120, 120), "SR_CONTEXT_SAVE_ADDR_LO"),
    (0x8f, (120, 120), "SR_CONTEXT_SAVE_ADDR_HI"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The by-opcode index lists, for each measured SM, exactly the forms
    /// that apply to it, under the opcode their name starts with, and a
    /// form's opcode and spelling are its name's and its spellings'.
    #[test]
    fn forms_of_lists_each_applying_form_once_under_its_opcode() {
        for (s, &sm) in MEASURED_SMS.iter().enumerate() {
            let mut listed = 0;
            for form in forms_for(sm).iter().filter(|f| f.applies_to(sm)) {
                let base = form.name.split('.').next().unwrap_or(form.name);
                assert_eq!(form.op.name(), base, "{}", form.name);
                assert_eq!(forms_of(s, form.op).filter(|f| std::ptr::eq(*f, form)).count(), 1, "{} on sm_{sm}", form.name);
                listed += 1;
            }
            let total: usize = FORMS_BY_OP[s].iter().map(|p| p.len()).sum();
            assert_eq!(total, listed, "sm_{sm}");
        }
        assert_eq!(forms_of(MEASURED_SMS.len(), Op::IADD3).count(), 0);
    }

    /// The written slots are the results: the register in 16–23 and the
    /// predicates in 81–86 (and nothing of a store).
    #[test]
    fn defs_are_the_result_slots() {
        use super::super::inst::Inst;
        use super::super::operand::{Mem, Operand, Reg, RegFile, RegNum};
        let sm = crate::target::Sm::new(80);
        let r = |n| Operand::reg(Reg::gpr(n));
        let p = |n| Operand::reg(Reg { file: RegFile::Pred, num: RegNum::Phys(n) });
        let pt = Operand::reg(Reg::zero(RegFile::Pred));
        let written = |i: Inst| (0..i.operands.len()).filter(|&k| i.form.writes(k)).collect::<Vec<_>>();
        let build = |text: &str, ops: &[Operand]| Inst::build(sm, text, None, ops).unwrap_or_else(|e| panic!("{e}"));
        // The result and the two carry-out predicates (PT when not shown).
        assert_eq!(written(build("IADD3", &[r(4), r(4), r(0), r(5)])), [0, 1, 2]);
        assert_eq!(written(build("ISETP.GE.AND", &[p(0), p(1), r(2), r(3), pt])), [0, 1]);
        let addr = Operand::Mem(Mem::new(RegNum::Phys(2), 0).with_desc(RegNum::Phys(4)));
        assert_eq!(written(build("STG.E", &[addr, r(4)])), [0usize; 0]);
        for form in all_forms() {
            for (k, slot) in form.slots.iter().enumerate() {
                assert_eq!(form.writes(k), Form::result_slot(form.name, slot), "{} slot {k}", form.name);
            }
        }
    }

    /// Operand widths come from the form's row and the modifier that
    /// decides them (a load's size, a conversion's types, IMAD's `.WIDE`).
    #[test]
    fn widths_follow_the_modifiers() {
        use super::super::inst::Inst;
        use super::super::operand::{Mem, Operand, Reg, RegNum};
        let sm = crate::target::Sm::new(80);
        let r = |n| Operand::reg(Reg::gpr(n));
        let build = |text: &str, ops: &[Operand]| Inst::build(sm, text, None, ops).unwrap_or_else(|e| panic!("{e}"));
        let global = Operand::Mem(Mem::new(RegNum::Phys(2), 0).with_desc(RegNum::Phys(4)));
        let shared = Operand::Mem(Mem::new(RegNum::Phys(2), 0));
        // `.E`: the address is a pair (the slot's `.64` says so too here;
        // on sm_75 nothing else does).
        assert_eq!(build("LDG.E.64", &[r(4), global]).widths(), [2, 2, 1, 1, 1]);
        assert_eq!(build("LDG.E", &[r(4), global]).widths(), [1, 2, 1, 1, 1]);
        let sm75 = crate::target::Sm::new(75);
        let plain = Operand::Mem(Mem::new(RegNum::Phys(2), 0));
        assert_eq!(Inst::build(sm75, "LDG.E.SYS", None, &[r(4), plain]).map(|i| i.widths()).ok(), Some([1, 2, 1, 1, 1]));
        assert_eq!(Inst::build(sm75, "STG.E.SYS", None, &[plain, r(4)]).map(|i| i.widths()).ok(), Some([1, 2, 1, 1, 1]));
        assert_eq!(build("STS.128", &[shared, r(4)]).widths(), [4, 1, 4, 4, 4]);
        assert_eq!(build("IMAD.WIDE.U32", &[r(2), r(4), r(5), r(6)]).widths(), [2, 1, 1, 2, 1]);
        assert_eq!(build("IMAD.HI.U32", &[r(2), r(4), r(5), r(6)]).widths(), [1, 1, 1, 2, 1]);
        assert_eq!(build("F2F.F64.F32", &[r(2), r(4)]).widths(), [2, 1, 1, 1, 1]);
        assert_eq!(build("DADD", &[r(2), r(4), r(6)]).widths(), [2; 5]);
        assert_eq!(build("IADD3", &[r(4), r(4), r(0), r(5)]).widths(), [1; 5]);
    }

    /// Matrix operands span their PTX `mma` fragments per lane (PTX ISA,
    /// "Matrix fragments for mma"): each line is ptxas 13.5's own
    /// instruction for one `mma.sync` shape on sm_80, whose register
    /// allocation places the next operand right after each fragment
    /// (`HMMA.16816.F16 R4, R4, R8, R10`: a R4–R7, b R8–R9, c R10–R11).
    /// The widths are `[d, a, b, c, 1]`. LDSM and STSM span one register
    /// per matrix (`ldmatrix .x1/.x2/.x4`); LDGSTS's global address is a pair.
    #[test]
    fn matrix_operands_span_their_fragments() {
        use super::super::ctrl::Ctrl;
        use super::super::parse::parse_inst;
        let sm = crate::target::Sm::new(80);
        let ctrl = Ctrl::parse("[B------:R-:W0:-:S01]").expect("control prefix");
        let widths = |text: &str| parse_inst(text, sm, 0, ctrl).map(|i| i.widths()).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let cases: &[(&str, [u8; 5])] = &[
            ("HMMA.16816.F32 R4, R4, R8, R12 ;", [4, 4, 2, 4, 1]),
            ("HMMA.16816.F32.BF16 R4, R4, R8, R12 ;", [4, 4, 2, 4, 1]),
            ("HMMA.16816.F16 R4, R4, R8, R10 ;", [2, 4, 2, 2, 1]),
            ("HMMA.1688.F32 R8, R4, R0, R8 ;", [4, 2, 1, 4, 1]),
            ("HMMA.1688.F32.BF16 R8, R4, R0, R8 ;", [4, 2, 1, 4, 1]),
            ("HMMA.1688.F32.TF32 R4, R4, R8, R12 ;", [4, 4, 2, 4, 1]),
            ("HMMA.1688.F16 R4, R4, R0, R6 ;", [2, 2, 1, 2, 1]),
            ("HMMA.1684.F32.TF32 R8, R4, R0, R8 ;", [4, 2, 1, 4, 1]),
            ("IMMA.16832.S8.S8 R4, R4.ROW, R8.COL, R12 ;", [4, 4, 2, 4, 1]),
            ("IMMA.16816.U8.U8 R8, R4.ROW, R0.COL, R8 ;", [4, 2, 1, 4, 1]),
            ("IMMA.16864.S4.S4 R4, R4.ROW, R8.COL, R12 ;", [4, 4, 2, 4, 1]),
            ("IMMA.16832.S4.S4 R8, R4.ROW, R0.COL, R8 ;", [4, 2, 1, 4, 1]),
            ("BMMA.88128.XOR.POPC R6, R0.ROW, R5.COL, R6 ;", [2, 1, 1, 2, 1]),
            ("BMMA.168128.AND.POPC R8, R4.ROW, R0.COL, R8 ;", [4, 2, 1, 4, 1]),
            ("BMMA.168256.AND.POPC R4, R4.ROW, R8.COL, R12 ;", [4, 4, 2, 4, 1]),
            ("DMMA.884 R4, R4, R6, R8 ;", [4, 2, 2, 4, 1]),
            ("LDSM.16.M88 R9, [R8] ;", [1, 1, 1, 1, 1]),
            ("LDSM.16.M88.2 R8, [R8] ;", [2, 1, 1, 1, 1]),
            ("LDSM.16.M88.4 R8, [R8] ;", [4, 1, 1, 1, 1]),
            ("MOVM.16.MT88 R4, R2 ;", [1, 1, 1, 1, 1]),
        ];
        for (text, expected) in cases {
            assert_eq!(widths(text)[..4], expected[..4], "{text}");
        }
        // `[R7+0x10]` (one register), then the global pair `[R4.64]` (its
        // memory descriptor's uniform pair follows).
        let ldgsts = parse_inst("LDGSTS.E [R7+0x10], [R4.64] ;", sm, 0, ctrl).expect("LDGSTS");
        let info = crate::sched::info::HazardInfo::of(&ldgsts, sm);
        assert_eq!(&info.reads()[..3], &[7, 4, 5]);
        assert!(info.writes().is_empty());
        // STSM (sm_90): the shared address, then one register per matrix.
        let sm90 = crate::target::Sm::new(90);
        let stsm = parse_inst("STSM.16.MT88.2 [R15+0x200], R2 ;", sm90, 0, ctrl).expect("STSM");
        assert_eq!(crate::sched::info::HazardInfo::of(&stsm, sm90).reads(), &[15, 2, 3]);
    }

    /// The data quads of LDG.E.ENL2.256 and STG.E.ENL2.256 cover the
    /// components their mask selects, packed from their first register
    /// (ptxas 13.5's `ld.global.v8.u32` of which element 7 alone is used:
    /// `R3, RZ, …, 0x80`, then `ST.E …, R3`; of elements 1, 2 and 5: `R7,
    /// R2, …, 0x26`; `st.global.v8.b32` with holes: `R6, R8, 0x9a` stores
    /// R6, R7, R8, R9), all four registers without a mask; a store writes
    /// none of them.
    #[test]
    fn wide_memory_quads_cover_their_masks() {
        use super::super::ctrl::Ctrl;
        use super::super::parse::parse_inst;
        use crate::sched::info::{HazardInfo, UR_BASE};
        let sm = crate::target::Sm::new(120);
        let ctrl = Ctrl::parse("[B------:R-:W0:-:S01]").expect("control prefix");
        let info = |text: &str| HazardInfo::of(&parse_inst(text, sm, 0, ctrl).unwrap_or_else(|e| panic!("{text}: {e:?}")), sm);
        let ur4 = [UR_BASE + 4, UR_BASE + 5];
        let ldg = info("LDG.E.ENL2.256 R3, RZ, desc[UR4][R2.64], 0x80 ;");
        assert_eq!((ldg.writes(), ldg.reads()), (&[3][..], &[2, 3, ur4[0], ur4[1]][..]));
        let ldg = info("LDG.E.ENL2.256 R7, R2, desc[UR4][R2.64+0x20], 0x26 ;");
        assert_eq!(ldg.writes(), &[7, 2, 3]);
        let ldg = info("LDG.E.ENL2.256 R8, R4, desc[UR4][R4.64] ;");
        assert_eq!(ldg.writes(), &[8, 9, 10, 11, 4, 5, 6, 7]);
        let stg = info("STG.E.ENL2.256 desc[UR4][R2.64], R6, R8, 0x9a ;");
        assert_eq!((stg.writes(), stg.reads()), (&[][..], &[2, 3, ur4[0], ur4[1], 6, 7, 8, 9][..]));
        let stg = info("STG.E.ENL2.256 desc[UR8][R2.64+0x2000], R4, R16 ;");
        assert_eq!(&stg.reads()[4..], &[4, 5, 6, 7, 16, 17, 18, 19]);
    }

    /// A form's spelling tokens, joined with dots, are its texts.
    #[test]
    fn spellings_are_the_texts_as_tokens() {
        let text = |toks: &[Mod]| toks.iter().map(|t| format!(".{}", t.name())).collect::<String>();
        for form in all_forms() {
            assert_eq!(form.op.name().to_string() + &text(form.spelling.name), form.name);
            assert_eq!(text(form.spelling.suffix), form.suffix, "{}", form.name);
            assert_eq!(form.spelling.mods.len(), form.mods.len(), "{}", form.name);
            assert_eq!(form.spelling.operand_texts.len(), form.operand_suffixes.len(), "{}", form.name);
            for (s, toks) in form.operand_suffixes.iter().zip(form.spelling.operand_texts) {
                if let OperandSuffix::Text { text: spelled, .. } = s {
                    assert_eq!(text(toks), *spelled, "{}", form.name);
                }
            }
            for (k, (m, values)) in form.mods.iter().zip(form.spelling.mods).enumerate() {
                // A modifier printed as an operand of its own (after an
                // empty text slot: a fetch's `2D`) is one token, no dot.
                let own_operand = form.operand_suffixes.iter().any(|s| matches!(*s, OperandSuffix::Mod { modifier, slot } if usize::from(modifier) == k && form.slots.get(usize::from(slot)) == Some(&Slot::Text(""))));
                for (name, toks) in m.names.iter().zip(values.iter()) {
                    if *name != super::super::form::UNMEASURED {
                        let spelled = if own_operand { toks.iter().map(|t| t.name()).collect::<String>() } else { text(toks) };
                        assert_eq!(spelled, *name, "{}", form.name);
                    }
                }
            }
        }
    }

    /// No address has both a descriptor and an added uniform register, as
    /// [`super::super::operand::Mem`] (which holds one of them) assumes.
    #[test]
    fn addresses_have_one_uniform_register_at_most() {
        for form in all_forms() {
            for slot in form.slots {
                if let Slot::Addr { desc, uniform, .. } = slot {
                    assert!(desc.is_none() || uniform.is_none(), "{} sm_{}", form.name, form.sms.0);
                }
            }
        }
    }

    /// Each generation's forms apply to its own SMs only, as
    /// [`generation_of`] assumes.
    #[test]
    fn forms_apply_within_their_generation() {
        for (k, sms) in GENERATION_SMS.iter().enumerate() {
            for form in generation(k) {
                assert!(form.sms.0 >= sms.0 && form.sms.1 <= sms.1, "{} sm_{}..{} in generation {k}", form.name, form.sms.0, form.sms.1);
                assert_eq!(generation_of(form.sms.0), k, "{}", form.name);
                assert_eq!(generation_of(form.sms.1), k, "{}", form.name);
            }
        }
    }
}
