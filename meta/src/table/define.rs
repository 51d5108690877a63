//! The definition of the form table (see `super`): the code that lists
//! every encoding the decoder, encoder and printer know, per generation of
//! the sm_70+ layout. Only the build script runs it (`ptx2sass-meta` writes
//! the tables it builds as `static` data, `isa_forms.rs`), so a compilation
//! reads the tables rather than building them.
//!
//! Positions and spellings were measured with ptxas 13.5 and nvdisasm 13.5
//! (single-bit flips and field enumerations of ptxas-emitted words; notes:
//! SASS-ENCODING-SURVEY §2) and every form is checked against nvdisasm on
//! the corpus by `tests/isa_corpus.rs`.

use crate::isa::bits::Field;
use crate::isa::branch::Layout;
use crate::isa::form::{Alias, AliasWhen, Bit, Form, ModField, OperandSuffix, PredShow, Slot, Spelling, UNMEASURED};
use crate::isa::widths::{Declare, OperandWidths, Width};
use crate::isa::table::opcodes::OPCODES;

mod bitops;
mod convert;
mod copy;
mod half;
mod matrix;
mod mbarrier;
mod misc;
mod texture;

const fn f(lo: u8, hi: u8) -> Field {
    Field::bits(lo, hi)
}

const fn gpr(lo: u8, neg: Bit, reuse: Option<u8>) -> Slot {
    Slot::Gpr { field: f(lo, lo + 7), neg, abs: None, not: None, reuse }
}
/// A register whose flag bit means bitwise not (`~R9`), as in IADD3.X.
const fn gpr_not(lo: u8, not: Bit, reuse: Option<u8>) -> Slot {
    Slot::Gpr { field: f(lo, lo + 7), neg: None, abs: None, not, reuse }
}

/// The destination register, bits 16–23.
const RD: Slot = gpr(16, None, None);
/// Predicate at `lo..lo+2` with its `!` bit after it.
const fn pred(lo: u8, show: PredShow) -> Slot {
    Slot::Pred { uniform: false, field: f(lo, lo + 2), not: Some(lo + 3), show }
}
/// A predicate field without a negate bit.
const fn pred_plain(lo: u8, show: PredShow) -> Slot {
    Slot::Pred { uniform: false, field: f(lo, lo + 2), not: None, show }
}
/// A uniform predicate at `lo..lo+2` with its `!` bit after it.
const fn upred(lo: u8, show: PredShow) -> Slot {
    Slot::Pred { uniform: true, field: f(lo, lo + 2), not: Some(lo + 3), show }
}

const fn cbank(neg: Bit, abs: Bit, not: Bit) -> Slot {
    Slot::CBank { neg, abs, not }
}

/// What differs between the two generations of the sm_70+ layout.
#[derive(Clone, Copy)]
pub struct Generation {
    /// Measured SMs covered.
    pub sms: (u16, u16),
    /// Uniform-register fields are 8 bits wide (URZ = 255) instead of 6 (URZ = 63).
    wide_ur: bool,
}

const TURING_TO_HOPPER: Generation = Generation { sms: (75, 90), wide_ur: false };
const BLACKWELL: Generation = Generation { sms: (100, 120), wide_ur: true };

impl Generation {
    /// A uniform register field starting at `lo`.
    const fn ur_field(self, lo: u8) -> Field {
        if self.wide_ur { f(lo, lo + 7) } else { f(lo, lo + 5) }
    }
    /// A uniform register as a b or c operand (bits 32–, with bit 91).
    const fn uniform_b(self, neg: Bit, not: Bit) -> Slot {
        Slot::UniformB { field: self.ur_field(32), neg, abs: None, not }
    }
    /// A float instruction's uniform b (form 6) or c (form 7): `-` 63 and
    /// `|x|` 62, as its register b's (single-bit flips under nvdisasm on
    /// SM75, SM90 and SM120 of FADD, DADD, FMUL, DMUL, FFMA and DFMA (b and
    /// c), FSETP, DSETP, FMNMX, FSEL, MUFU and FCHK words; ptxas 13.5's
    /// sm_90 code for a generated program has `DADD R32, -RZ, |UR4|`, seed
    /// 10082588).
    const fn uniform_float_b(self) -> Slot {
        self.uniform_b_abs(Some(63), Some(62))
    }
    /// A uniform b or c with an `|x|` bit.
    const fn uniform_b_abs(self, neg: Bit, abs: Bit) -> Slot {
        Slot::UniformB { field: self.ur_field(32), neg, abs, not: None }
    }
    /// How optional carry-out predicates print (always from sm_100).
    const fn carry_show(self) -> PredShow {
        if self.wide_ur { PredShow::Always } else { PredShow::UnlessTrue }
    }
    fn form(self, name: &'static str, opcode: u16, fixed: &'static [(Field, u64)], mods: &'static [ModField], slots: Vec<Slot>) -> Form {
        Form { name, op: 0, spelling: Spelling::EMPTY, defs: 0, widths: OperandWidths::ONE, sms: self.sms, opcode, fixed, mods, suffix: "", aliases: &[], space_before_last: false, uniform_guard: false, nonzero: &[], operand_suffixes: &[], slots: Box::leak(slots.into_boxed_slice()) }
    }
}

/// The forms 1, 4, 5 and 6 of an ALU instruction whose b operand is the
/// variable one, with `pre` operands before it and `post` after it; the b
/// flag bit is a negation, or a bitwise not when `b_not`. Returns them (a
/// row declares its operand widths on them).
#[allow(clippy::too_many_arguments)] // one call per instruction family; named at each call
fn alu<'a>(
    out: &'a mut Vec<Form>,
    g: Generation,
    name: &'static str,
    op9: u16,
    fixed: &'static [(Field, u64)],
    mods: &'static [ModField],
    pre: &[Slot],
    b_flag: Bit,
    b_not: bool,
    signed_imm: bool,
    post: &[Slot],
) -> &'a mut [Form] {
    let first = out.len();
    let (neg, not) = if b_not { (None, b_flag) } else { (b_flag, None) };
    let b_forms = [
        (0x200, Slot::Gpr { field: f(32, 39), neg, abs: None, not, reuse: Some(1) }),
        (0x800, Slot::Imm32 { signed: signed_imm }),
        (0xa00, cbank(neg, None, not)),
        (0xc00, g.uniform_b(neg, not)),
    ];
    for (form, b) in b_forms {
        // sm_100+ has no constant-bank operands in ALU instructions (nvdisasm refuses them).
        if g.wide_ur && form == 0xa00 {
            continue;
        }
        let slots: Vec<Slot> = pre.iter().copied().chain([b]).chain(post.iter().copied()).collect();
        out.push(g.form(name, form | op9, fixed, mods, slots));
    }
    &mut out[first..]
}

// ---- modifier fields ----------------------------------------------------

const ISETP_CMP: ModField = ModField { field: f(76, 78), names: &[".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".T"], extra: None };
const SIGNED_73: ModField = ModField { field: f(73, 73), names: &[".U32", ""], extra: None };
const COMBINE: ModField = ModField { field: f(74, 75), names: &[".AND", ".OR", ".XOR"], extra: None };
const SHF_DIR: ModField = ModField { field: f(76, 76), names: &[".L", ".R"], extra: None };
const SHF_WRAP: ModField = ModField { field: f(75, 75), names: &["", ".W"], extra: None };
const SHF_TYPE: ModField = ModField { field: f(73, 74), names: &[".S64", ".U64", ".S32", ".U32"], extra: None };
const SHF_HI: ModField = ModField { field: f(80, 80), names: &["", ".HI"], extra: None };
/// Load size (LDC/ULDC/LDG/...): 4 is 32 bits, printed as nothing.
const LOAD_SIZE: ModField = ModField { field: f(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64", ".128"], extra: None };
/// Constant loads (LDC, ULDC, LDCU): sizes up to 64 bits (6 prints `.INVALID6`).
const CONST_SIZE: ModField = ModField { field: f(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64"], extra: None };
/// BSSY/BSYNC on sm_100+: bit 72 `.RELIABLE`, bit 73 `.RECONVERGENT`.
const CONVERGENCE: ModField = ModField { field: f(72, 73), names: &["", ".RELIABLE", ".RECONVERGENT"], extra: None };

/// A floating-point comparison, bits 76–79 (FSETP, FSET, HSETP2, HSET2).
pub(super) const FLOAT_CMP: ModField = ModField {
    field: f(76, 79),
    names: &[".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM", ".NAN", ".LTU", ".EQU", ".LEU", ".GTU", ".NEU", ".GEU", ".T"],
    extra: None,
};

/// An sm_75 global address with a uniform register added at `lo..lo+5`
/// (`[R8.64+UR6]`): 64-bit base 24–31, 24-bit offset 40–63, a zero base
/// not printed (bit flips of corpus words).
pub(super) const fn addr_75_uniform(lo: u8) -> Slot {
    Slot::Addr { base: Some(f(24, 31)), wide: true, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: Some(f(lo, lo + 5)), zero_base: true, u32_base: false, offset_shift: 0 }
}

// ---- sm_75 memory-access spellings (every value enumerated with nvdisasm
// on corpus words; used by LDG/STG/LD/ST and the sm_75 reductions) -------

/// Memory order and scope, bits 77–80, as sm_75 spells them.
pub(super) const ORDER_75: ModField = ModField {
    field: f(77, 80),
    names: &[
    ".CONSTANT.CTA", ".CONSTANT.SM", ".CONSTANT.GPU", ".CONSTANT.SYS", ".CTA", ".SM", ".GPU", ".SYS", ".STRONG.CTA", ".STRONG.SM",
    ".STRONG.GPU", ".STRONG.SYS", ".MMIO.CTA", ".MMIO.SM", ".MMIO.GPU", ".MMIO.SYS",
    ],
    extra: None,
};
/// Eviction priority, bits 84–86, as sm_75 spells it.
pub(super) const EVICT_75: ModField = ModField { field: f(84, 86), names: &[".EF", "", ".EL", ".LU", ".EU", ".NA"], extra: None };
/// Bit 76 `.PRIVATE` (sm_75).
pub(super) const PRIVATE: ModField = ModField { field: f(76, 76), names: &["", ".PRIVATE"], extra: None };

// ---- operand widths ---------------------------------------------------------

/// A load's: the result the access size (`.64`, `.128`), the address
/// (source 0) a pair where `.E` says so.
pub(super) const LOAD_WIDTHS: OperandWidths = OperandWidths::ONE.result(Width::Size).source(0, Width::Address);
/// A store's or an atomic's: the address first, every other operand the
/// access size (a compare-and-swap's compare and swap values too).
pub(super) const DATA_WIDTHS: OperandWidths = OperandWidths::all(Width::Size).source(0, Width::Address);
/// A 64-bit operation on register pairs spelled `.64`, `.U64`, `.S64`
/// (MOV.64, SEL.64, IADD.64, IMNMX.S64): every operand the size.
pub(super) const SIZED_WIDTHS: OperandWidths = OperandWidths::all(Width::Size);

// ---- fixed fields ---------------------------------------------------------

const NONE: &[(Field, u64)] = &[];
/// IADD3 without `.X`: bit 74 clear, both carry-in predicates `!PT`.
const IADD3_PLAIN: &[(Field, u64)] = &[(f(74, 74), 0), (f(77, 80), 0xf), (f(87, 90), 0xf)];
const IADD3_X: &[(Field, u64)] = &[(f(74, 74), 1)];
/// ISETP: no `.EX`; bits 68–71 (a predicate operand on sm_75) hold PT.
const ISETP_FIXED: &[(Field, u64)] = &[(f(72, 72), 0), (f(68, 71), 7)];
/// MOV: lane mask 0xf (all bytes), which nvdisasm does not print.
const MOV_FIXED: &[(Field, u64)] = &[(f(72, 75), 0xf)];
/// LOP3 without `.PAND`.
const LOP3_FIXED: &[(Field, u64)] = &[(f(80, 80), 0)];
/// Condition predicate PT of EXIT/BSYNC.
const COND_PT: &[(Field, u64)] = &[(f(87, 90), 7)];
/// Condition predicate PT and no `.U`/`.DIV` of BRA/BSSY.
const BRANCH_FIXED: &[(Field, u64)] = &[(f(87, 90), 7), (f(32, 33), 0)];
/// ULDC: no index register (24–31 zero), 6-bit destination (22–23 zero).
const ULDC_FIXED: &[(Field, u64)] = &[(f(24, 31), 0), (f(22, 23), 0)];
/// ULDC with an index register (24–29): 30–31 and 22–23 zero, 91 set
/// (clear, nvdisasm refuses the word).
const ULDC_INDEXED_FIXED: &[(Field, u64)] = &[(f(30, 31), 0), (f(22, 23), 0), (f(91, 91), 1)];

/// The generations, in table order: the runtime table's generation `k`
/// is [`build_generation`]`(k)`.
pub const GENERATIONS: [Generation; 2] = [TURING_TO_HOPPER, BLACKWELL];

/// The forms of generation `k`, in the order the decoder tries them.
pub fn build_generation(k: usize) -> Vec<Form> {
    let g = GENERATIONS[k];
    let mut v = Vec::new();
    integer_ops(&mut v, g);
    more_ops(&mut v, g);
    imad(&mut v, g);
    let twins: Vec<Form> = v.iter().filter_map(|form| uniform_twin(g, form)).collect();
    v.extend(twins);
    memory_ops(&mut v, g);
    half_ops(&mut v, g);
    float_ops(&mut v, g);
    if g.wide_ur {
        packed_f32_ops(&mut v, g);
    }
    convert::conversions(&mut v, g);
    misc::misc_ops(&mut v, g);
    matrix::matrix_ops(&mut v, g);
    texture::texture_ops(&mut v, g);
    texture::surface_ops(&mut v, g);
    bitops::bit_ops(&mut v, g);
    half::half_ops(&mut v, g);
    control(&mut v, g);
    for form in &mut v {
        strip_reuse(form);
    }
    if g.sms == BLACKWELL.sms {
        // sm_120 shows no reuse flags on the f64 instructions (oracle):
        // their Blackwell forms split into sm_100 and a flagless sm_120
        // copy, after every other form.
        let f64_ops = ["DSETP", "DFMA", "DADD", "DMUL"];
        let mut sm120 = Vec::new();
        for form in &mut v {
            if form.sms == BLACKWELL.sms && f64_ops.contains(&form.name) {
                form.sms = (100, 100);
                let mut copy = Form { sms: (120, 120), ..*form };
                strip_all_reuse(&mut copy);
                sm120.push(copy);
            }
        }
        v.extend(sm120);
    } else {
        v.push(Form {
            uniform_guard: true,
            ..TURING_TO_HOPPER.form(
                "ULDC",
                0xab9,
                ULDC_FIXED,
                &[CONST_SIZE],
                vec![Slot::Ur { field: f(16, 21), neg: None, abs: None, not: None }, cbank(None, None, None)],
            )
        }
        .widths(OperandWidths::ONE.result(Width::Size)));
        // ULDC with a uniform index register (0xabb: `ULDC UR4, c[0x2][UR4+0x10]`,
        // ptxas 13.5's load of a `.const` array element at a uniform index
        // in a generated program, sm_89): destination 16–21, index 24–29
        // (URZ prints `URZ+`), offset 38–53, bank 54–58, size 73–75 as the
        // plain form's; 22–23 and 30–31 print nothing and stay clear. Bit
        // flips with nvdisasm 13.5 on SM89; SM75–SM90 decode it, SM100 not.
        // With URZ nvdisasm prints `c[0x2][URZ+0x10]`, which the text of a
        // constant address does not say: such words are not this form's.
        v.push(Form {
            uniform_guard: true,
            nonzero: &[1],
            ..TURING_TO_HOPPER.form(
                "ULDC",
                0xabb,
                ULDC_INDEXED_FIXED,
                &[CONST_SIZE],
                vec![Slot::Ur { field: f(16, 21), neg: None, abs: None, not: None }, Slot::LoadBank { offset: f(38, 53), index: f(24, 29), uniform: true }],
            )
        }
        .widths(OperandWidths::ONE.result(Width::Size)));
    }
    v
}

/// Removes the reuse flags of a form whose opcode takes none
/// ([`crate::isa::op_facts::OpFacts::reuse`]): nvdisasm prints no
/// `.reuse` for their register operands whatever the flags say (oracle,
/// every SM), so a word with one set is not theirs.
///
/// Except R2UR from sm_90 (0x2ca), whose source does print `.reuse`
/// (`R2UR UR5, R13.reuse`: library-corpus words of ptxas 13.5 on sm_90;
/// bit 122 flips on sm_90, sm_100, sm_120; sm_80's 0x3c2 prints none): the
/// decoder reads such words, while code generation, which goes by the
/// opcode's facts, still sets no flag on it.
///
/// And TXQ, on which ptxas sets reuse flags (bits 122 and 124, the level's
/// and the second pair's) that nvdisasm never prints: the decoder reads
/// them and the printer hides them (`Inst::text`).
fn strip_reuse(form: &mut Form) {
    let head = form.name.split('.').next().unwrap_or("");
    // The texture fetches and TXQ keep theirs: ptxas sets flags nvdisasm
    // never prints (`table/texture.rs`; `Inst::text` hides them by the facts).
    if head == "R2UR" && form.opcode == 0x2ca || matches!(head, "TEX" | "TLD" | "TLD4" | "TXQ") {
        return;
    }
    if OPCODES.iter().any(|op| op.name == head && !op.reuse) {
        strip_all_reuse(form);
    }
}

/// Removes the reuse flags of every register operand of a form.
fn strip_all_reuse(form: &mut Form) {
    if !form.slots.iter().any(|s| matches!(s, Slot::Gpr { reuse: Some(_), .. })) {
        return;
    }
    let slots: Vec<Slot> = form
        .slots
        .iter()
        .map(|s| match *s {
            Slot::Gpr { field, neg, abs, not, .. } => Slot::Gpr { field, neg, abs, not, reuse: None },
            other => other,
        })
        .collect();
    form.slots = Box::leak(slots.into_boxed_slice());
}

/// The uniform-datapath twin of an integer ALU form (`UIADD3` of
/// `IADD3`): opcode + 0x080, every general register a uniform one in the
/// same field (6 bits up to sm_90, 8 from sm_100), every predicate a uniform
/// predicate, guarded by a uniform predicate, bit 91 set; only the register and
/// immediate operand forms (1 and 4; and IMAD's 2) exist (corpus words and bit flips;
/// Mesa NAK's sm70 encoder also encodes the uniform ops this way).
fn uniform_twin(g: Generation, form: &Form) -> Option<Form> {
    const NAMES: &[&str] = &[
        "IADD3", "IADD3.X", "ISETP", "LOP3.LUT", "SEL", "SHF", "LEA", "LEA.HI", "LEA.HI.X", "LEA.HI.SX32", "LEA.HI.X.SX32", "LEA.X", "PRMT", "IMAD",
        "IMAD.WIDE", "IMAD.HI", "SGXT",
    ];
    // Forms of a later SM than the generation's first have no twin, except
    // ISETP.EX, whose sm_75 form differs from sm_80–sm_90's only in how it
    // prints (UISETP.EX, corpus words of sm_80 and sm_90).
    // IMAD's immediate-c form (2) has a twin too (`UIMAD UR4, UR5, UR6,
    // -0x7fffffff`: library-corpus words of ptxas 13.5, bit flips on sm_75, sm_80, sm_90).
    // SHF's immediate-c form (2) too (`USHF.L.U64.HI UR5, UR5, UR4,
    // 0x3fffff`: ptxas 13.5's sm_89 code for a generated program, seed
    // 9904343; nvdisasm reads the word on sm_75–120).
    let operand_form = matches!(form.opcode & 0xe00, 0x200 | 0x800) || form.opcode & 0xe00 == 0x400 && matches!(form.name, "IMAD" | "SHF");
    if !NAMES.contains(&form.name) || !operand_form || form.sms.0 > g.sms.0 && form.suffix != ".EX" {
        return None;
    }
    // UIMAD.HI only on sm_120, and as opcode 0x0a6, not IMAD.HI's 0x027 +
    // 0x080 (`UIMAD.HI.U32 UR4, UR5, UR7, UR4`: ptxas 13.5's sm_120 code
    // for a generated program, seed 9110786; bit flips on SM120 give
    // IMAD.HI's fields, 0x8a6 takes an immediate b; 0x2a7 is illegal and
    // SM75–SM100 refuse the word).
    let (sms, opcode) = match form.name {
        "IMAD.HI" if !g.wide_ur => return None,
        "IMAD.HI" => ((form.sms.0.max(120), form.sms.1), form.opcode & 0xe00 | 0x0a6),
        _ => (form.sms, form.opcode | 0x080),
    };
    let slots: Vec<Slot> = form
        .slots
        .iter()
        .map(|s| match *s {
            Slot::Gpr { field, neg, not, .. } => Slot::Ur { field: g.ur_field(field.start), neg, abs: None, not },
            // UISETP.EX prints its 68–71 predicate even when it is UPT, on sm_75 too.
            Slot::Pred { field, not, .. } if field.start == 68 => Slot::Pred { uniform: true, field, not, show: PredShow::Always },
            Slot::Pred { field, not, show, .. } => Slot::Pred { uniform: true, field, not, show },
            other => other,
        })
        .collect();
    let name: &'static str = Box::leak(format!("U{}", form.name).into_boxed_str());
    // Bit 91 is set in every uniform ALU word (nvdisasm refuses them without it).
    // A fixed general register RZ (LEA's unused c, 64–71) is URZ in the
    // uniform-register field (ULEA words hold 0x3f in 64–69 up to sm_90).
    let fixed: Vec<(Field, u64)> = form
        .fixed
        .iter()
        .flat_map(|&(field, value)| match (field.start, field.width, value) {
            (64, 8, 0xff) if !g.wide_ur => vec![(f(64, 69), 0x3f), (f(70, 71), 0)],
            _ => vec![(field, value)],
        })
        .chain([(f(91, 91), 1)])
        // UPRMT has no mode field: nvdisasm prints PRMT's mode values in
        // 72–74 as nothing or `.???1` there (oracle); kept 0.
        .chain((form.name == "PRMT").then_some((f(72, 74), 0)))
        .collect();
    let mods = if form.name == "PRMT" { &[][..] } else { form.mods };
    let (fixed, slots) = (Box::leak(fixed.into_boxed_slice()), Box::leak(slots.into_boxed_slice()));
    Some(Form { name, opcode, fixed, mods, aliases: &[], uniform_guard: true, slots, sms, ..*form })
}

/// NOP, S2R, MOV, IADD3, ISETP, LOP3, SEL, SHF.
fn integer_ops(v: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    v.push(g.form("NOP", 0x918, NONE, &[], vec![]));
    v.push(g.form("S2R", 0x919, NONE, &[], vec![RD, Slot::SpecialReg(f(72, 79))]));
    let carry = g.carry_show();
    let carry_outs = [RD, pred_plain(81, carry), pred_plain(84, carry), gpr(24, Some(72), Some(0))];
    alu(v, g, "IADD3", 0x010, IADD3_PLAIN, &[], &carry_outs, Some(63), false, true, &[gpr(64, Some(75), Some(2))]);
    // With a carry in, the negate bits are bitwise nots (`IADD3.X R2, RZ, ~R9, …`).
    let carry_outs_x = [RD, pred_plain(81, carry), pred_plain(84, carry), gpr_not(24, Some(72), Some(0))];
    alu(v, g, "IADD3.X", 0x010, IADD3_X, &[], &carry_outs_x, Some(63), true, true, &[gpr_not(64, Some(75), Some(2)), pred(87, Always), pred(77, Always)]);
    let isetp_pre = [pred_plain(81, Always), pred_plain(84, Always), gpr(24, None, Some(0))];
    alu(v, g, "ISETP", 0x00c, ISETP_FIXED, &[ISETP_CMP, SIGNED_73, COMBINE], &isetp_pre, None, false, true, &[pred(87, Always)]);
    // `.EX` (bit 72): the comparison continues one of the low halves, whose
    // result predicate (68–70, `!` 71) prints last (corpus words).
    const ISETP_EX: &[(Field, u64)] = &[(f(72, 72), 1)];
    // sm_75 prints that predicate only when it is not PT.
    let ex_sms: &[((u16, u16), PredShow)] = if g.wide_ur { &[((100, 120), Always)] } else { &[((75, 75), UnlessTrue), ((80, 90), Always)] };
    for &(sms, show) in ex_sms {
        let mut ex = Vec::new();
        alu(&mut ex, g, "ISETP", 0x00c, ISETP_EX, &[ISETP_CMP, SIGNED_73, COMBINE], &isetp_pre, None, false, true, &[pred(87, Always), pred(68, show)]);
        v.extend(ex.into_iter().map(|form| Form { sms, suffix: ".EX", ..form }));
    }
    alu(v, g, "MOV", 0x002, MOV_FIXED, &[], &[RD], None, false, false, &[]);
    let lop3_pre = [pred_plain(81, UnlessTrue), RD, gpr(24, None, Some(0))];
    let lop3_post = [gpr(64, None, Some(2)), Slot::Hex(f(72, 79)), pred(87, Always)];
    alu(v, g, "LOP3.LUT", 0x012, LOP3_FIXED, &[], &lop3_pre, None, false, false, &lop3_post);
    alu(v, g, "SEL", 0x007, NONE, &[], &[RD, gpr(24, None, Some(0))], None, false, false, &[pred(87, Always)]);
    let shf_mods: &'static [ModField] = &[SHF_DIR, SHF_WRAP, SHF_TYPE, SHF_HI];
    alu(v, g, "SHF", 0x019, NONE, shf_mods, &[RD, gpr(24, None, Some(0))], None, false, false, &[gpr(64, None, Some(2))]);
    // Form 2: the shift in 64–71 (b's reuse flag), c an immediate
    // (`SHF.L.W.U32.HI R5, R5, R4, 0xfffffffe`; bit flips of a corpus word,
    // sm_75–sm_100: no flag bits, 77–79 and 81–90 unused).
    v.push(g.form("SHF", 0x419, NONE, shf_mods, vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), Slot::Imm32 { signed: false }]));
    // Form 3: the same with c from the constant bank (`SHF.L.W.U32.HI R27,
    // R55, R25, c[0x0][0x0]`, sm_75, a word of ptxas's code for a generated
    // program); no constant-bank ALU forms from sm_100 (as alu()).
    if !g.wide_ur {
        v.push(g.form("SHF", 0x619, NONE, shf_mods, vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), cbank(None, None, None)]));
    }
    // Form 7: c a uniform register in b's field 32–, the shift in 64–71
    // (`SHF.L.W.U32.HI R8, R0, R7, UR6`: ptxas 13.5 for sm_100 and sm_120,
    // `shf.l.wrap.b32` with a kernel parameter high word; `SHF.L.U32.HI
    // R12, R41, R12, UR4`: ptxas 13.5 for sm_80, a generated program; bit
    // flips on SM75, SM100 and SM120: the same 73–76 and 80 modifiers).
    v.push(g.form("SHF", 0xe19, NONE, shf_mods, vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), g.uniform_b(None, None)]));
}

/// FSETP, FSEL, FMNMX, MUFU, LEA, PRMT, LDC, S2UR, UMOV, and the ops of
/// newer SMs (VIADD from sm_90, IADD on sm_120, LDCU from sm_100).
fn more_ops(v: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const NAN: ModField = ModField { field: f(81, 81), names: &["", ".NAN"], extra: None };
    // FMNMX.XORSIGN (ptxas 13.5, sm_90/100/120: `FMNMX.XORSIGN R7, |R16|, |R17|, !PT` sets bit 82).
    const FMNMX_XORSIGN: ModField = ModField { field: f(82, 82), names: &["", ".XORSIGN"], extra: None };
    const MUFU_OP: ModField = ModField {
        field: f(74, 77),
        names: &[".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", ".RCP64H", ".RSQ64H", ".SQRT", ".TANH"],
        extra: None,
    };
    /// Plain LEA: no `.HI` (80), no `.X` (74), c unused (RZ), carry-in `!PT`.
    const LEA_FIXED: &[(Field, u64)] = &[(f(80, 80), 0), (f(73, 74), 0), (f(64, 71), 0xff), (f(87, 90), 0xf)];
    const LDC_FIXED: &[(Field, u64)] = &[];
    const LDCU_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
    // LDCU loads up to 128 bits (`LDCU.128 UR8, c[0x0][0x390]`, corpus).
    const LDCU_SIZE: ModField = ModField { field: f(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64", ".128"], extra: None };
    const IADD_FIXED: &[(Field, u64)] = &[(f(87, 90), 0xf)];
    let a_fp = Slot::Gpr { field: f(24, 31), neg: Some(72), abs: Some(73), not: None, reuse: Some(0) };
    // The b operand of float ops: register, float immediate, constant, uniform register.
    let b_fp = |form: u16| match form {
        0x200 => Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(1) },
        0x800 => Slot::Float { f64: false, shadowed: None },
        0xa00 => cbank(Some(63), Some(62), None),
        _ => g.uniform_float_b(),
    };
    // DSETP's comparisons: FSETP's, but 0 and 15 print `.MIN` and `.MAX` (oracle).
    const DSETP_CMP: ModField = ModField {
        field: f(76, 79),
        names: &[".MIN", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM", ".NAN", ".LTU", ".EQU", ".LEU", ".GTU", ".NEU", ".GEU", ".MAX"],
        extra: None,
    };
    // DSETP (0x02a): FSETP's fields without `.FTZ`; like DADD, its second
    // source takes the c position in the immediate (an f64 high half),
    // constant and uniform forms (2, 3, 7), keeping b's flag bits 63/62.
    let b_dp = |form: u16| match form {
        // b's reuse flag is bit 124, the c position's (ptxas 13.5 sets it:
        // `DSETP.GT.AND P1, PT, R36, R12.reuse, PT`; nvdisasm refuses 123).
        0x200 => Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(2) },
        0x400 => Slot::Float { f64: true, shadowed: None },
        0x600 => cbank(Some(63), Some(62), None),
        _ => g.uniform_float_b(),
    };
    for form in [0x200u16, 0x400, 0x600, 0xe00] {
        if g.wide_ur && form == 0x600 {
            continue;
        }
        let setp = vec![pred_plain(81, Always), pred_plain(84, Always), a_fp, b_dp(form), pred(87, Always)];
        v.push(g.form("DSETP", form | 0x02a, NONE, &[DSETP_CMP, COMBINE], setp).widths(OperandWidths::ONE.sources(Width::Regs(2))));
    }
    // FSEL with the NaN 0xfff00000 (what ptxas selects for a NaN result of
    // f32 functions): nvdisasm prints `-QNAN ` for every negative quiet NaN,
    // so this form, listed before the general one, is what that text reads
    // back as (the general form's `-QNAN ` is 0xffc00000, MUFU's).
    const FSEL_QNAN: &[(Field, u64)] = &[(f(32, 63), 0xfff0_0000)];
    v.push(g.form("FSEL", 0x808, FSEL_QNAN, &[FTZ], vec![RD, a_fp, Slot::Text("-QNAN "), pred(87, Always)]));
    for form in [0x200u16, 0x800, 0xa00, 0xc00] {
        if g.wide_ur && form == 0xa00 {
            continue;
        }
        let setp = vec![pred_plain(81, Always), pred_plain(84, Always), a_fp, b_fp(form), pred(87, Always)];
        v.push(g.form("FSETP", form | 0x00b, NONE, &[FLOAT_CMP, FTZ, COMBINE], setp));
        // FSET.BF (0x00a): FSETP's fields with a register result, 1.0 where
        // the comparison (combined with c) holds, else 0 (ptxas 13.5:
        // `set.eq.f32.f32` -> FSET.BF.EQ.AND R5, R4, R5, PT, word
        // 0x000000050405720a / 0x...03802000; `.BF` sets no bit).
        v.push(g.form("FSET.BF", form | 0x00a, NONE, &[FLOAT_CMP, FTZ, COMBINE], vec![RD, a_fp, b_fp(form), pred(87, Always)]));
        // The -QNAN 0xffc00000 of the immediate form prints as the form
        // above reads back (`Slot::Float::shadowed`).
        let b = if form == 0x800 { Slot::Float { f64: false, shadowed: Some(0xffc0_0000) } } else { b_fp(form) };
        v.push(g.form("FSEL", form | 0x008, NONE, &[FTZ], vec![RD, a_fp, b, pred(87, Always)]));
        let fmnmx = vec![RD, a_fp, b_fp(form), pred(87, Always)];
        if g.wide_ur {
            v.push(g.form("FMNMX", form | 0x009, NONE, &[FTZ, NAN, FMNMX_XORSIGN], fmnmx));
        } else {
            // sm_75 has no `.NAN` (bit 81 prints nothing there); `.XORSIGN`
            // (bit 82) comes with sm_86 (ptxas 13.5 rejects `.xorsign`
            // below it).
            const NO_NAN: &[(Field, u64)] = &[(f(81, 81), 0)];
            const NO_XORSIGN: &[(Field, u64)] = &[(f(82, 82), 0)];
            v.push(Form { sms: (75, 75), ..g.form("FMNMX", form | 0x009, NO_NAN, &[FTZ], fmnmx.clone()) });
            v.push(Form { sms: (80, 80), ..g.form("FMNMX", form | 0x009, NO_XORSIGN, &[FTZ, NAN], fmnmx.clone()) });
            v.push(Form { sms: (86, 90), ..g.form("FMNMX", form | 0x009, NONE, &[FTZ, NAN, FMNMX_XORSIGN], fmnmx) });
        }
    }
    let mufu_src = |form: u16| match form {
        0x200 => Slot::Gpr { field: f(32, 39), neg: Some(63), abs: Some(62), not: None, reuse: Some(1) },
        _ => g.uniform_float_b(),
    };
    // The immediate form is left out: its immediate is an f32 or the high
    // half of an f64 depending on the operation (`MUFU.RCP64H R5, 3`).
    // The f32 forms keep the half type (72–73) and the source half (60–61)
    // clear: with a half type those bits are the forms below.
    const MUFU_F32: &[(Field, u64)] = &[(f(60, 61), 0), (f(72, 73), 0)];
    for form in [0x200u16, 0xc00] {
        v.push(g.form("MUFU", form | 0x108, MUFU_F32, &[MUFU_OP], vec![RD, mufu_src(form)]));
    }
    // MUFU of a half (`ex2.approx.f16`, `tanh.approx.bf16`): the type in
    // 72–73 from sm_90 (1 `.F16`, 2 `.BF16`; 3 is refused), bit 73 `.F16`
    // before (72 prints nothing there: kept 0); the source's high half
    // with bit 60 (`.H1` after the register, inside its `|x|` bars; 61
    // prints `.INVALIDn`), the low half otherwise. The result is one half,
    // in the register's low 16 bits. ptxas 13.5's `MUFU.EX2.F16 R5,
    // R0.H1` (`ex2.approx.f16x2`, sm_75 to sm_120), `MUFU.TANH.F16 R5, R0`,
    // `MUFU.EX2.BF16 R5, R0` (sm_90+); bit flips on SM75, SM80, SM90.
    // No RCP64H / RSQ64H of a half (nvdisasm prints `.INVALID6`/`7`).
    const MUFU_HALF_OP: ModField = ModField {
        field: f(74, 77),
        names: &[".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", UNMEASURED, UNMEASURED, ".SQRT", ".TANH"],
        extra: None,
    };
    const HALF_HIGH: ModField = ModField { field: f(60, 61), names: &["", ".H1", UNMEASURED, UNMEASURED], extra: None };
    const HALF_SUFFIX: &[OperandSuffix] = &[OperandSuffix::ModInBars { modifier: 2, slot: 1 }];
    const F16_ONLY: ModField = ModField { field: f(73, 73), names: &[UNMEASURED, ".F16"], extra: None };
    const HALF_TYPE: ModField = ModField { field: f(72, 73), names: &[UNMEASURED, ".F16", ".BF16", UNMEASURED], extra: None };
    let half_src = mufu_src(0x200);
    if g.wide_ur {
        v.push(Form { operand_suffixes: HALF_SUFFIX, ..g.form("MUFU", 0x308, NONE, &[MUFU_HALF_OP, HALF_TYPE, HALF_HIGH], vec![RD, half_src]) });
    } else {
        const F16_FIXED: &[(Field, u64)] = &[(f(72, 72), 0)];
        v.push(Form { sms: (75, 89), operand_suffixes: HALF_SUFFIX, ..g.form("MUFU", 0x308, F16_FIXED, &[MUFU_HALF_OP, F16_ONLY, HALF_HIGH], vec![RD, half_src]) });
        v.push(Form { sms: (90, 90), operand_suffixes: HALF_SUFFIX, ..g.form("MUFU", 0x308, NONE, &[MUFU_HALF_OP, HALF_TYPE, HALF_HIGH], vec![RD, half_src]) });
    }
    // A constant-bank source (0xb08, sm_75–sm_90; sm_100+ refuses it):
    // ptxas 13.5's `MUFU.RSQ64H R17, c[0x0][0x17c]` for cuRAND's Poisson
    // kernels on sm_80–sm_89; bits 63 `-`, 62 `|c|` (flips on sm_80).
    if !g.wide_ur {
        v.push(g.form("MUFU", 0xb08, NONE, &[MUFU_OP], vec![RD, cbank(Some(63), Some(62), None)]));
    }
    let lea_pre = [RD, pred_plain(81, UnlessTrue), gpr(24, Some(72), Some(0))];
    alu(v, g, "LEA", 0x011, LEA_FIXED, &[], &lea_pre, Some(63), false, false, &[Slot::Hex(f(75, 79))]);
    // The other LEAs (bit flips of corpus words): bit 80 `.HI` (c at 64–71
    // printed), bit 74 `.X` (carry-in predicate 87–90 printed, and the a/b
    // flag bits 72/63 print as `~`), bit 73 `.SX32` (c not printed, RZ).
    const LEA_HI: &[(Field, u64)] = &[(f(80, 80), 1), (f(73, 74), 0), (f(87, 90), 0xf)];
    const LEA_HI_X: &[(Field, u64)] = &[(f(80, 80), 1), (f(73, 74), 2)];
    const LEA_HI_SX32: &[(Field, u64)] = &[(f(80, 80), 1), (f(73, 74), 1), (f(64, 71), 0xff), (f(87, 90), 0xf)];
    const LEA_HI_X_SX32: &[(Field, u64)] = &[(f(80, 80), 1), (f(73, 74), 3), (f(64, 71), 0xff)];
    const LEA_X: &[(Field, u64)] = &[(f(80, 80), 0), (f(73, 74), 2), (f(64, 71), 0xff)];
    let shift = Slot::Hex(f(75, 79));
    let c = gpr(64, None, Some(2));
    let lea_x_pre = [RD, pred_plain(81, UnlessTrue), gpr_not(24, Some(72), Some(0))];
    alu(v, g, "LEA.HI", 0x011, LEA_HI, &[], &lea_pre, Some(63), false, false, &[c, shift]);
    alu(v, g, "LEA.HI.X", 0x011, LEA_HI_X, &[], &lea_x_pre, Some(63), true, false, &[c, shift, pred(87, Always)]);
    alu(v, g, "LEA.HI.SX32", 0x011, LEA_HI_SX32, &[], &lea_pre, Some(63), false, false, &[shift]);
    alu(v, g, "LEA.HI.X.SX32", 0x011, LEA_HI_X_SX32, &[], &lea_x_pre, Some(63), true, false, &[shift, pred(87, Always)]);
    alu(v, g, "LEA.X", 0x011, LEA_X, &[], &lea_x_pre, Some(63), true, false, &[shift, pred(87, Always)]);
    // PLOP3.LUT (0x81c) and UPLOP3.LUT (0x89c): destinations 81, 84; sources
    // 87, 77, 68 with `!` bits 90, 80, 71; lookup table 64–66 and 72–76; a
    // second constant in 16–23; bit 67 (which would make c uniform) clear.
    const PLOP3_FIXED: &[(Field, u64)] = &[(f(67, 67), 0)];
    let lut = [Slot::HexSplit(f(64, 66), f(72, 76)), Slot::Hex(f(16, 23))];
    for (name, opcode, uniform) in [("PLOP3.LUT", 0x81c, false), ("UPLOP3.LUT", 0x89c, true)] {
        let p = |lo: u8, not: bool| Slot::Pred { uniform, field: f(lo, lo + 2), not: not.then_some(lo + 3), show: Always };
        let slots = vec![p(81, false), p(84, false), p(87, true), p(77, true), p(68, true), lut[0], lut[1]];
        v.push(Form { uniform_guard: uniform, ..g.form(name, opcode, PLOP3_FIXED, &[], slots) });
    }
    // PRMT's mode (72–74): the selector's bytes (0), or a mode taking the
    // byte index from the selector's low bits (ptxas 13.5, `prmt.b32.f4e`
    // … `.rc16` give 1 … 6; nvdisasm 13.5 prints them so).
    const PRMT_MODE: ModField = ModField { field: f(72, 74), names: &["", ".F4E", ".B4E", ".RC8", ".ECL", ".ECR", ".RC16"], extra: None };
    alu(v, g, "PRMT", 0x016, NONE, &[PRMT_MODE], &[RD, gpr(24, None, Some(0))], None, false, false, &[gpr(64, None, Some(2))]);
    // c an immediate, the selector register in 64–71 (`PRMT.RC8 R42, R6,
    // RZ, 0xffffffff`, sm_80; `PRMT.RC16 R25, R24, R24, 0xffffffff`,
    // sm_120: words of ptxas's code for generated programs).
    v.push(g.form("PRMT", 0x416, NONE, &[PRMT_MODE], vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), Slot::Imm32 { signed: false }]));
    // c from the constant bank, the selector register in 64–71 (`PRMT.ECR
    // R2, R11, R9, c[0x0][0xc]`, sm_80, a word of ptxas's code for a
    // generated program); not from sm_100 (as alu()).
    if !g.wide_ur {
        v.push(g.form("PRMT", 0x616, NONE, &[PRMT_MODE], vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), cbank(None, None, None)]));
    }
    // c a uniform register (32–), the selector register in 64–71
    // (`PRMT.RC16 R27, R17, R36, UR5`: ptxas 13.5's code for a generated
    // program, sm_86; nvdisasm reads the word alike on SM75–SM100).
    v.push(g.form("PRMT", 0xe16, NONE, &[PRMT_MODE], vec![RD, gpr(24, None, Some(0)), gpr(64, None, Some(1)), g.uniform_b(None, None)]));
    v.push(Form { ..g.form("LDC", 0xb82, LDC_FIXED, &[CONST_SIZE], vec![RD, Slot::LoadBank { offset: f(38, 53), index: f(24, 31), uniform: false }]) }.widths(OperandWidths::ONE.result(Width::Size)));
    let ur_d = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    let uniform = |form: Form| Form { uniform_guard: true, ..form };
    v.push(uniform(g.form("S2UR", 0x9c3, NONE, &[], vec![ur_d, Slot::SpecialReg(f(72, 79))])));
    v.push(uniform(g.form("UMOV", 0x882, NONE, &[], vec![ur_d, Slot::Imm32 { signed: false }])));
    v.push(uniform(g.form("UMOV", 0xc82, NONE, &[], vec![ur_d, g.uniform_b(None, None)])));
    // sm_120 prints this encoding as `VIADD.32` (and ptxas uses IADD there).
    let viadd_sms = if g.wide_ur { (100, 100) } else { (90, 90) };
    v.push(Form { sms: viadd_sms, ..g.form("VIADD", 0x836, NONE, &[], vec![RD, gpr(24, None, Some(0)), Slot::Imm32 { signed: false }]) });
    v.push(Form { sms: viadd_sms, ..g.form("VIADD", 0xc36, NONE, &[], vec![RD, gpr(24, None, Some(0)), g.uniform_b(Some(63), None)]) });
    // VIADD with two registers on sm_90 and sm_100 (0x236): bit 73
    // `.16x2` (sums of the 16-bit lanes), 63 negates b; 72, 74–75 and 80
    // print nothing there (kept 0). ptxas 13.5's `add.u16x2` ->
    // `VIADD.16x2 R5, R0, R5` (word 0x0000000500057236 / 0x...00000200,
    // sm_90 and sm_100); bit flips on SM90 and SM100.
    const LANES_16X2: ModField = ModField { field: f(73, 73), names: &["", ".16x2"], extra: None };
    const VIADD_2R_FIXED: &[(Field, u64)] = &[(f(72, 72), 0), (f(74, 75), 0), (f(80, 80), 0)];
    v.push(Form { sms: viadd_sms, ..g.form("VIADD", 0x236, VIADD_2R_FIXED, &[LANES_16X2], vec![RD, gpr(24, None, Some(0)), gpr(32, Some(63), Some(1))]) });
    // VIADD with two registers (0x236, sm_120): lane type 73–75, bit 80
    // `.ISAT` (saturating), 72 and 63 negate a and b (bit flips of
    // add.sat.s32's word).
    if g.wide_ur {
        const LANES: ModField = ModField { field: f(73, 75), names: &[".32", ".16x2", ".S32", ".S16x2", ".U8x4", ".S8x4", UNMEASURED, UNMEASURED], extra: None };
        const ISAT: ModField = ModField { field: f(80, 80), names: &["", ".ISAT"], extra: None };
        v.push(Form { sms: (120, 120), ..g.form("VIADD", 0x236, NONE, &[LANES, ISAT], vec![RD, gpr(24, Some(72), Some(0)), gpr(32, Some(63), Some(1))]) });
        // The same fields with an immediate or a uniform register as b
        // (ptxas 13.5's sm_120 add.sat.s32 of a constant or a kernel
        // parameter: `VIADD.S32.ISAT R43, R42, 0xfffffffe`, `VIADD.S32.ISAT
        // R37, R22, UR4`; bit flips print `.32`, `.16x2`, ..., `-R42`).
        v.push(Form { sms: (120, 120), ..g.form("VIADD", 0x836, NONE, &[LANES, ISAT], vec![RD, gpr(24, Some(72), Some(0)), Slot::Imm32 { signed: false }]) });
        v.push(Form { sms: (120, 120), ..g.form("VIADD", 0xc36, NONE, &[LANES, ISAT], vec![RD, gpr(24, Some(72), Some(0)), g.uniform_b(Some(63), None)]) });
        // UVIADD, the uniform datapath's (sm_120; nvdisasm refuses the
        // words on SM100 and SM90): b a uniform register (0x249, `-` 63)
        // or an immediate (0x849); VIADD's lane type and `.ISAT`, a's `-`
        // 72, bit 91 set (`UVIADD.S32.ISAT UR5, UR4, 0x2`: ptxas 13.5's
        // sm_120 code for a generated program, seed 9930775; bit flips).
        const UNIFORM_ALU: &[(Field, u64)] = &[(f(91, 91), 1)];
        let ur = |lo: u8, neg: u8| Slot::Ur { field: g.ur_field(lo), neg: Some(neg), abs: None, not: None };
        v.push(uniform(Form { sms: (120, 120), ..g.form("UVIADD", 0x249, UNIFORM_ALU, &[LANES, ISAT], vec![ur_d, ur(24, 72), ur(32, 63)]) }));
        v.push(uniform(Form { sms: (120, 120), ..g.form("UVIADD", 0x849, UNIFORM_ALU, &[LANES, ISAT], vec![ur_d, ur(24, 72), Slot::Imm32 { signed: false }]) }));
    }
    // POPC, BREV, FLO: one source in the b position (bit 63 prints `~`);
    // FLO's bit 73 is signedness (`.U32` when clear), bit 74 `.SH`, and its
    // 81–83 (a predicate result) hold PT (corpus words, bit flips).
    alu(v, g, "POPC", 0x109, NONE, &[], &[RD], Some(63), true, false, &[]);
    // BREV has no `~` (nvdisasm ignores its bit 63).
    alu(v, g, "BREV", 0x101, NONE, &[], &[RD], None, false, false, &[]);
    const FLO_SH: ModField = ModField { field: f(74, 74), names: &["", ".SH"], extra: None };
    const FLO_FIXED: &[(Field, u64)] = &[(f(81, 83), 7)];
    alu(v, g, "FLO", 0x100, FLO_FIXED, &[SIGNED_73, FLO_SH], &[RD], Some(63), true, false, &[]);
    // IABS: one source, in the b field.
    v.push(g.form("IABS", 0x213, NONE, &[], vec![RD, gpr(32, None, Some(1))]));
    // R2UR: no predicate destination (81–83 PT); opcode 0x3c2 up to sm_89, 0x2ca from sm_90.
    // With a predicate destination (81–83, printed first; bit 84 `.OR`),
    // which ptxas tests as "a is uniform" before a `BRA.DIV` (`R2UR P1,
    // URZ, R4`: library-corpus words of ptxas 13.5, bit flips on sm_80,
    // sm_90, sm_100, sm_120); the PT form prints no predicate, unless
    // with `.OR` (`R2UR.OR PT, UR4, R4`). sm_75 has the predicate form
    // too (nvdisasm 13.5 on SM75: `R2UR P1, UR4, R4`, `R2UR.OR P1, …`).
    const R2UR_FIXED: &[(Field, u64)] = &[(f(81, 84), 7)];
    const R2UR_OR: &[ModField] = &[ModField { field: f(84, 84), names: &["", ".OR"], extra: None }];
    let r2ur = |sms, opcode| Form { sms, ..g.form("R2UR", opcode, R2UR_FIXED, &[], vec![ur_d, gpr(24, None, Some(0))]) };
    let r2ur_pred = |sms, opcode| Form { sms, ..g.form("R2UR", opcode, NONE, R2UR_OR, vec![pred_plain(81, Always), ur_d, gpr(24, None, Some(0))]) };
    if g.wide_ur {
        v.push(r2ur(g.sms, 0x2ca));
        v.push(r2ur_pred(g.sms, 0x2ca));
    } else {
        v.push(r2ur((75, 89), 0x3c2));
        v.push(r2ur((90, 90), 0x2ca));
        v.push(r2ur_pred((75, 89), 0x3c2));
        v.push(r2ur_pred((90, 90), 0x2ca));
    }
    // SHFL: mode 58–59, clamp immediate 40–52; lane in a register (b field) or
    // an immediate (53–57); the predicate destination always prints.
    const SHFL_MODE: ModField = ModField { field: f(58, 59), names: &[".IDX", ".UP", ".DOWN", ".BFLY"], extra: None };
    let shfl_head = [pred_plain(81, Always), RD, gpr(24, None, Some(0))];
    let shfl_reg: Vec<Slot> = shfl_head.iter().copied().chain([gpr(32, None, Some(1)), Slot::Hex(f(40, 52))]).collect();
    let shfl_imm: Vec<Slot> = shfl_head.iter().copied().chain([Slot::Hex(f(53, 57)), Slot::Hex(f(40, 52))]).collect();
    v.push(g.form("SHFL", 0x589, NONE, &[SHFL_MODE], shfl_reg));
    v.push(g.form("SHFL", 0xf89, NONE, &[SHFL_MODE], shfl_imm));
    if g.wide_ur {
        // LDCU's byte offset starts one bit lower than LDC's (`c[0x0][0x360]` has 0x6c00 in bits 32–).
        v.push(Form { uniform_guard: true, ..g.form("LDCU", 0x7ac, LDCU_FIXED, &[LDCU_SIZE], vec![ur_d, Slot::LoadBank { offset: f(37, 53), index: g.ur_field(24), uniform: true }]) }.widths(OperandWidths::ONE.result(Width::Size)));
        let iadd_pre = [RD, pred_plain(81, UnlessTrue), gpr(24, Some(72), Some(0))];
        // Bit 73 is `.64` (`IADD.64 R8, R6, 0x1`, corpus); form 6 takes a uniform register.
        const WIDE_64: ModField = ModField { field: f(73, 73), names: &["", ".64"], extra: None };
        for (form, b) in [(0x200u16, gpr(32, Some(63), Some(1))), (0x800, Slot::Imm32 { signed: true }), (0xc00, g.uniform_b(Some(63), None))] {
            let slots: Vec<Slot> = iadd_pre.iter().copied().chain([b]).collect();
            v.push(Form { sms: (120, 120), ..g.form("IADD", form | 0x035, IADD_FIXED, &[WIDE_64], slots) }.widths(SIZED_WIDTHS));
        }
    }
}

/// Loads and stores: LDG, LD, STG, ST (64-bit addresses with a memory
/// descriptor, from sm_80; nvdisasm prints the descriptor from sm_90), LDL,
/// STL, LDS, STS.
fn memory_ops(v: &mut Vec<Form>, g: Generation) {
    use crate::isa::form::UNMEASURED as U;
    // Memory order and scope, bits 77–80 (survey §2.3, LDG).
    const ORDER: ModField = ModField {
        field: f(77, 80),
        names: &[
            "", ".CONSTANT.PRIVATE", ".CONSTANT.CTA", ".CONSTANT.CTA.PRIVATE", ".CONSTANT", ".STRONG.SM", ".STRONG.GPU.PRIVATE",
            ".STRONG.GPU", ".MMIO.GPU", ".CONSTANT.SM", ".STRONG.SYS", ".CONSTANT.SM.PRIVATE", ".MMIO.SYS", ".CONSTANT.VC",
            ".CONSTANT.VC.PRIVATE", ".CONSTANT.GPU",
        ],
        extra: None,
    };
    // Stores: value 4 is `.STRONG.SM.PRIVATE` (survey); the constant orders are not measured.
    const STORE_ORDER: ModField =
        ModField { field: f(77, 80), names: &["", U, U, U, ".STRONG.SM.PRIVATE", ".STRONG.SM", ".STRONG.GPU.PRIVATE", ".STRONG.GPU", ".MMIO.GPU", U, ".STRONG.SYS", U, ".MMIO.SYS"], extra: None };
    // Eviction priority, bits 84–86, printed right after `.E`: the values
    // and spellings of sm_75's field (`EVICT_75`), measured with nvdisasm
    // 13.5 on LDG, LD, STG and ST words of sm_80, sm_90, sm_100 and sm_120
    // (values 0–5; 6 and 7 print `.INVALID6`/`.INVALID7`). ptxas writes
    // `.EF` and `.EL` for Triton's `evict_first`/`evict_last` loads and
    // stores.
    const EVICT: ModField = EVICT_75;
    const SCALE: Field = f(78, 79);
    let global = |desc_lo: u8, show_desc: bool| Slot::Addr {
        base: Some(f(24, 31)),
        wide: true,
        offset: Some(f(40, 63)),
        scale: None,
        desc: Some(g.ur_field(desc_lo)),
        show_desc,
        uniform: None, zero_base: true, u32_base: false, offset_shift: 0,
    };
    let local = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
    let shared = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(f(40, 63)), scale: Some(SCALE), desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
    let data = gpr(32, None, None);
    const LDG_FIXED: &[(Field, u64)] = &[(f(72, 72), 1), (f(76, 76), 1), (f(81, 83), 7), (f(87, 91), 0x18), (f(64, 71), 0)];
    const LD_FIXED: &[(Field, u64)] = &[(f(72, 72), 1), (f(76, 76), 1), (f(81, 83), 0), (f(87, 91), 0x18), (f(64, 71), 0)];
    const ST_FIXED: &[(Field, u64)] = &[(f(72, 72), 1), (f(76, 76), 1), (f(81, 83), 0), (f(87, 91), 0x18), (f(16, 23), 0)];
    const LOCAL_LOAD: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 83), 0), (f(87, 91), 0), (f(64, 71), 0)];
    const LOCAL_STORE: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 83), 0), (f(87, 91), 0), (f(64, 71), 0), (f(16, 23), 0)];
    const SHARED_LOAD: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 91), 0), (f(64, 71), 0)];
    const SHARED_STORE: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 91), 0), (f(64, 71), 0), (f(16, 23), 0)];
    let mods_load: &'static [ModField] = &[EVICT, LOAD_SIZE, ORDER];
    let mods_store: &'static [ModField] = &[EVICT, LOAD_SIZE, STORE_ORDER];
    // sm_75 addresses global memory without a descriptor (other bits, `.SYS`).
    // sm_80–sm_89 words carry a descriptor register (loads 32–37, stores
    // 64–69) that nvdisasm does not print. Such words decode with the
    // register kept in the operand, so that they encode back exactly; their
    // text, nvdisasm's, does not say which register it is, and reading it
    // back assumes UR4 (what ptxas loads with `ULDC.64 UR4, c[0x0][0x118]`),
    // so only for UR4 does text give the word again (`isa::parse`).
    if g.wide_ur {
        v.push(g.form("LDG.E", 0x981, LDG_FIXED, mods_load, vec![RD, global(32, true)]).widths(LOAD_WIDTHS));
        v.push(g.form("LD.E", 0x980, LD_FIXED, mods_load, vec![RD, global(32, true)]).widths(LOAD_WIDTHS));
        // LDG.E.ENL2.256 (0x97e) and STG.E.ENL2.256 (0x97f), sm_100 and
        // sm_120: 32 bytes of global memory, eight 32-bit components in two
        // register quads. ptxas 13.5 writes them for `ld.global.v8.f32`,
        // `st.global.v8.f32`, `.v4.u64` and the like (`LDG.E.ENL2.256 R4,
        // R12, desc[UR4][R4.64]` = 0xfe000004040c797e / 0x000ea20008121904,
        // `STG.E.ENL2.256 desc[UR8][R2.64], R4, R8` = 0xf80000040208797f /
        // 0x0081e4000f121808: Thrust's transform kernels). Fields measured
        // with nvdisasm 13.5 bit flips and enumerations on sm_100 and
        // sm_120 (the same there):
        // * LDG: the quad of components 4–7 in 64–71 (printed first),
        //   that of 0–3 in 16–23; the descriptor in 32–39; STG: the quad
        //   of components 0–3 in 32–39 (printed first), that of 4–7 in
        //   16–23, the descriptor in 64–71; the base pair in 24–31.
        // * A signed offset counting 32-byte units: LDG 40–56, STG 40–58
        //   (`[R2.64+0x2000]`, `+-0x200000` for LDG's bit 56).
        // * A mask of the components that move, printed after the operands
        //   unless all ones: LDG 57–63 (bits 0–6) and 72 (bit 7), STG 59–63
        //   (bits 0–4) and 88–90 (bits 5–7). A quad holds its half's
        //   selected components packed from its first register (ptxas's
        //   `ld.global.v8.u32` of which only element 7 is used: `LDG.E.ENL2.256
        //   R3, RZ, desc[UR4][R2.64], 0x80`, then `ST.E …, R3`; of elements
        //   1, 2, 5: `R7, R2, …, 0x26`, the values in R2, R3, R7), RZ where
        //   the half selects none.
        // * Bit 76 clear: the uniform register is added to the address
        //   instead of being the descriptor (`[R2.64+UR8+0x2000]`, `[UR8]`
        //   with RZ as the base; with bit 76 set nvdisasm refuses RZ).
        // * 77–80 the memory order and scope, spelled as the other LDG and
        //   STG forms' on the SM (STG's 1–3, 9 and 11 are the load's
        //   `.CONSTANT…` orders, 13–15 `.SYS.ORDERED`, `.STRONG.SYS.ORDERED`,
        //   `.MMIO.SYS.ORDERED`: left out as `STORE_ORDER` leaves them), 81–82 the L2
        //   eviction hint (0 `.EFL2`, 1 `.ENL2`, 2 `.ELL2`; 3 prints
        //   `.INVALID3`), 84–86 the eviction priority as LDG's, LDG's 73–74
        //   the L2 prefetch size (`.LTC64B`, `.LTC128B`, `.LTC256B`:
        //   `ld.global.L2::128B.v8.f32`), bit 75 `.256` (clear: refused),
        //   bit 91 set (clear: refused).
        // * LDG's 87–90 a predicate printed last unless 0 (7 minus the
        //   predicate's number, 90 its `!`: 1 is `P6`, 8 `!PT`), which ptxas
        //   does not write: kept clear, as are 83 and, on STG, 72–74 and 87
        //   (nvdisasm ignores them; ptxas writes them clear).
        const L2_HINT: ModField = ModField { field: f(81, 82), names: &[".EFL2", ".ENL2", ".ELL2"], extra: None };
        const SIZE_256: ModField = ModField { field: f(75, 75), names: &[U, ".256"], extra: None };
        const LTC: ModField = ModField { field: f(73, 74), names: &["", ".LTC64B", ".LTC128B", ".LTC256B"], extra: None };
        let mods_256_store: &'static [ModField] = &[EVICT, L2_HINT, SIZE_256, STORE_ORDER];
        const LDG_256: &[(Field, u64)] = &[(f(83, 83), 0), (f(87, 90), 0), (f(91, 91), 1)];
        const STG_256: &[(Field, u64)] = &[(f(72, 74), 0), (f(83, 83), 0), (f(87, 87), 0), (f(91, 91), 1)];
        const LDG_MASK: (Field, Field) = (f(57, 63), f(72, 72));
        const STG_MASK: (Field, Field) = (f(59, 63), f(88, 90));
        let wide_addr = |offset: Field, ur: Field, desc: bool| Slot::Addr {
            base: Some(f(24, 31)),
            wide: true,
            offset: Some(offset),
            offset_shift: 5,
            scale: None,
            desc: desc.then_some(ur),
            show_desc: desc,
            uniform: (!desc).then_some(ur),
            zero_base: !desc,
            u32_base: false,
        };
        let load_quads = OperandWidths::ONE.result(Width::Regs(4)).source(0, Width::Address);
        let store_quads = OperandWidths::ONE.source(0, Width::Address).source(1, Width::Regs(4)).source(2, Width::Regs(4));
        // The forms with all components (both mask fields all ones, no
        // mask printed) come first, and decode those words.
        for masked in [false, true] {
            for desc in [true, false] {
                let with = |fixed: &'static [(Field, u64)], (lo, hi): (Field, Field)| {
                    let fixed = fixed_and(fixed, (f(76, 76), u64::from(desc)));
                    if masked { fixed } else { fixed_and(fixed_and(fixed, (lo, lo.max())), (hi, hi.max())) }
                };
                let mask = |(lo, hi): (Field, Field)| masked.then_some(Slot::MaskSplit(lo, hi));
                let load: Vec<Slot> = [gpr(64, None, None), RD, wide_addr(f(40, 56), g.ur_field(32), desc)].into_iter().chain(mask(LDG_MASK)).collect();
                v.push(g.form("LDG.E", 0x97e, with(LDG_256, LDG_MASK), &[EVICT, L2_HINT, LTC, SIZE_256, ORDER], load).widths(load_quads));
                let store: Vec<Slot> = [wide_addr(f(40, 58), g.ur_field(64), desc), gpr(32, None, None), gpr(16, None, None)].into_iter().chain(mask(STG_MASK)).collect();
                v.push(g.form("STG.E", 0x97f, with(STG_256, STG_MASK), mods_256_store, store).widths(store_quads));
            }
        }
        v.push(g.form("STG.E", 0x986, ST_FIXED, mods_store, vec![global(64, true), data]).widths(DATA_WIDTHS));
        v.push(g.form("ST.E", 0x985, ST_FIXED, mods_store, vec![global(64, true), data]).widths(DATA_WIDTHS));
    } else {
        let old = (80, 89);
        v.push(Form { sms: old, ..g.form("LDG.E", 0x981, LDG_FIXED, mods_load, vec![RD, global(32, false)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: old, ..g.form("LD.E", 0x980, LD_FIXED, mods_load, vec![RD, global(32, false)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: old, ..g.form("STG.E", 0x986, ST_FIXED, mods_store, vec![global(64, false), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: old, ..g.form("ST.E", 0x985, ST_FIXED, mods_store, vec![global(64, false), data]) }.widths(DATA_WIDTHS));
        // Bit 101 set: the descriptor register is an explicit cache policy
        // (PTX's `createpolicy` operand of `ld`/`st`), and nvdisasm prints
        // it (`LDG.E.EL R6, desc[UR4][R2.64]`: ptxas 13.5 on Triton's
        // evict_hints, sm_80; the same on LDG, LD, STG and ST of sm_80, 86
        // and 89 under nvdisasm).
        let policy = |fixed: &'static [(Field, u64)]| fixed_and(fixed, (f(101, 101), 1));
        v.push(Form { sms: old, ..g.form("LDG.E", 0x981, policy(LDG_FIXED), mods_load, vec![RD, global(32, true)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: old, ..g.form("LD.E", 0x980, policy(LD_FIXED), mods_load, vec![RD, global(32, true)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: old, ..g.form("STG.E", 0x986, policy(ST_FIXED), mods_store, vec![global(64, true), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: old, ..g.form("ST.E", 0x985, policy(ST_FIXED), mods_store, vec![global(64, true), data]) }.widths(DATA_WIDTHS));
        // sm_75: no descriptor; 32-bit base register names printed without
        // `.64` (bit 72 `.E` is the 64-bit address); memory order and scope
        // in 77–80 spelled differently, `.PRIVATE` in bit 76; LDG/STG (0x381,
        // 0x386) take a 24-bit offset at 40–63, LD/ST (0x980, 0x385) a
        // 32-bit one at 32–63 (ST's data register at 64–71). Every value of
        // the modifier fields enumerated with nvdisasm on corpus words.
        // Values 0–3 print `.INVALID0.<scope>`.
        const STORE_ORDER_75: ModField = ModField {
            field: f(77, 80),
            names: &[U, U, U, U, ".CTA", ".SM", ".GPU", ".SYS", ".STRONG.CTA", ".STRONG.SM", ".STRONG.GPU", ".STRONG.SYS", ".MMIO.CTA", ".MMIO.SM", ".MMIO.GPU", ".MMIO.SYS"],
            extra: None,
        };
        const SIZE_75: ModField = ModField { field: f(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64", ".128", ".U.128"], extra: None };
        let load_75: &'static [ModField] = &[EVICT_75, SIZE_75, ORDER_75, PRIVATE];
        let store_75: &'static [ModField] = &[EVICT_75, SIZE_75, STORE_ORDER_75, PRIVATE];
        let addr_75 = |offset: Field| Slot::Addr { base: Some(f(24, 31)), wide: false, offset: Some(offset), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base: false, offset_shift: 0 };
        const LDG_75: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 7), (f(87, 91), 0), (f(64, 71), 0)];
        const LD_75: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 0), (f(87, 91), 0), (f(64, 71), 0)];
        const STG_75: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 0), (f(87, 91), 0), (f(64, 71), 0), (f(16, 23), 0)];
        const ST_75: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 0), (f(87, 91), 0), (f(16, 23), 0)];
        let turing = (75, 75);
        v.push(Form { sms: turing, ..g.form("LDG.E", 0x381, LDG_75, load_75, vec![RD, addr_75(f(40, 63))]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: turing, ..g.form("STG.E", 0x386, STG_75, store_75, vec![addr_75(f(40, 63)), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: turing, ..g.form("LD.E", 0x980, LD_75, load_75, vec![RD, addr_75(f(32, 63))]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: turing, ..g.form("ST.E", 0x385, ST_75, store_75, vec![addr_75(f(32, 63)), gpr(64, None, None)]) }.widths(DATA_WIDTHS));
        // Opcodes 0x981, 0x986, 0x980, 0x985 with bit 91: a uniform register
        // is added to the address (loads:
        // 32–37; stores: 64–69, the data register then in 32–39) and the
        // offset is 24 bits at 40–63 for all four; bit 90 makes the base
        // 64-bit (`[R8.64+UR6]`), clear a 32-bit one that prints `.U32`
        // (`LDG.E.SYS R7, [R0.U32+UR4]`: ptxas 13.5's sm_75 constant_mem);
        // a zero base is not printed (`[UR6+0x2]`), so only the 64-bit form
        // takes one (the two would print alike and read back as the first).
        // Bit flips of corpus words.
        const LDG_75U: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 7), (f(87, 89), 0), (f(91, 91), 1), (f(64, 71), 0), (f(38, 39), 0)];
        const LD_75U: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 0), (f(87, 89), 0), (f(91, 91), 1), (f(64, 71), 0), (f(38, 39), 0)];
        const ST_75U: &[(Field, u64)] = &[(f(72, 72), 1), (f(81, 83), 0), (f(87, 89), 0), (f(91, 91), 1), (f(16, 23), 0), (f(70, 71), 0)];
        let with_base = |fixed: &'static [(Field, u64)], wide: bool| fixed_and(fixed, (f(90, 90), u64::from(wide)));
        for wide in [true, false] {
            let addr_75u = |lo: u8| match addr_75_uniform(lo) {
                Slot::Addr { base, offset, offset_shift, scale, desc, show_desc, uniform, zero_base, .. } => {
                    Slot::Addr { base, wide, offset, offset_shift, scale, desc, show_desc, uniform, zero_base: zero_base && wide, u32_base: !wide }
                }
                other => other,
            };
            v.push(Form { sms: turing, ..g.form("LDG.E", 0x981, with_base(LDG_75U, wide), load_75, vec![RD, addr_75u(32)]) }.widths(LOAD_WIDTHS));
            v.push(Form { sms: turing, ..g.form("STG.E", 0x986, with_base(ST_75U, wide), store_75, vec![addr_75u(64), data]) }.widths(DATA_WIDTHS));
            v.push(Form { sms: turing, ..g.form("LD.E", 0x980, with_base(LD_75U, wide), load_75, vec![RD, addr_75u(32)]) }.widths(LOAD_WIDTHS));
            v.push(Form { sms: turing, ..g.form("ST.E", 0x985, with_base(ST_75U, wide), store_75, vec![addr_75u(64), data]) }.widths(DATA_WIDTHS));
        }
        let hopper = (90, 90);
        v.push(Form { sms: hopper, ..g.form("LDG.E", 0x981, LDG_FIXED, mods_load, vec![RD, global(32, true)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: hopper, ..g.form("LD.E", 0x980, LD_FIXED, mods_load, vec![RD, global(32, true)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: hopper, ..g.form("STG.E", 0x986, ST_FIXED, mods_store, vec![global(64, true), data]) }.widths(DATA_WIDTHS));
        v.push(Form { sms: hopper, ..g.form("ST.E", 0x985, ST_FIXED, mods_store, vec![global(64, true), data]) }.widths(DATA_WIDTHS));
    }
    // Local memory's eviction priorities are measured (`LDL.LU.64`: spill
    // refills in library-corpus words of ptxas 13.5; the field's seven
    // values enumerated under nvdisasm on sm_75, sm_80, sm_90, sm_100, sm_120).
    v.push(g.form("LDL", 0x983, LOCAL_LOAD, &[EVICT_75, LOAD_SIZE], vec![RD, local]).widths(LOAD_WIDTHS));
    v.push(g.form("STL", 0x387, LOCAL_STORE, &[EVICT_75, LOAD_SIZE], vec![local, data]).widths(DATA_WIDTHS));
    // sm_75 prints bit 76 of LDS as `.U` (later SMs ignore it; bit flips).
    const LDS_U: ModField = ModField { field: f(76, 76), names: &["", ".U"], extra: None };
    const SHARED_LOAD_75: &[(Field, u64)] = &[(f(72, 72), 0), (f(77, 77), 0), (f(80, 91), 0), (f(64, 71), 0)];
    if g.wide_ur {
        v.push(g.form("LDS", 0x984, SHARED_LOAD, &[LOAD_SIZE], vec![RD, shared]).widths(LOAD_WIDTHS));
    } else {
        v.push(Form { sms: (75, 75), ..g.form("LDS", 0x984, SHARED_LOAD_75, &[LDS_U, LOAD_SIZE], vec![RD, shared]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: (80, 90), ..g.form("LDS", 0x984, SHARED_LOAD, &[LOAD_SIZE], vec![RD, shared]) }.widths(LOAD_WIDTHS));
    }
    v.push(g.form("STS", 0x388, SHARED_STORE, &[LOAD_SIZE], vec![shared, data]).widths(DATA_WIDTHS));
    // Bit 91 (STS: opcode 0x988): a uniform register is added to the address (LDS 32–, STS 64–,
    // STS's data then in 32–39), `[R2+UR7]`, or `[UR4]` with a zero base
    // (corpus words, bit flips).
    let shared_u = |lo: u8| Slot::Addr {
        base: Some(f(24, 31)),
        wide: false,
        offset: Some(f(40, 63)),
        scale: Some(SCALE),
        desc: None,
        show_desc: false,
        uniform: Some(g.ur_field(lo)), zero_base: true, u32_base: false, offset_shift: 0,
    };
    const LDS_UR: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 90), 0), (f(91, 91), 1), (f(64, 71), 0)];
    const STS_UR: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 90), 0), (f(91, 91), 1), (f(16, 23), 0)];
    // With 6-bit uniform fields the two bits above them stay clear.
    const LDS_UR6: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 90), 0), (f(91, 91), 1), (f(64, 71), 0), (f(38, 39), 0)];
    const STS_UR6: &[(Field, u64)] = &[(f(72, 72), 0), (f(76, 77), 0), (f(80, 90), 0), (f(91, 91), 1), (f(16, 23), 0), (f(70, 71), 0)];
    let (lds_u, sts_u) = if g.wide_ur { (LDS_UR, STS_UR) } else { (LDS_UR6, STS_UR6) };
    if g.wide_ur {
        v.push(g.form("LDS", 0x984, lds_u, &[LOAD_SIZE], vec![RD, shared_u(32)]).widths(LOAD_WIDTHS));
    } else {
        // sm_75's `.U` (bit 76) here too (`LDS.U R3, [R5+UR5]`: ptxas
        // 13.5's sm_75 scan_block; bit flips).
        const LDS_UR6_75: &[(Field, u64)] = &[(f(72, 72), 0), (f(77, 77), 0), (f(80, 90), 0), (f(91, 91), 1), (f(64, 71), 0), (f(38, 39), 0)];
        v.push(Form { sms: (75, 75), ..g.form("LDS", 0x984, LDS_UR6_75, &[LDS_U, LOAD_SIZE], vec![RD, shared_u(32)]) }.widths(LOAD_WIDTHS));
        v.push(Form { sms: (80, 90), ..g.form("LDS", 0x984, lds_u, &[LOAD_SIZE], vec![RD, shared_u(32)]) }.widths(LOAD_WIDTHS));
    }
    v.push(g.form("STS", 0x988, sts_u, &[LOAD_SIZE], vec![shared_u(64), data]).widths(DATA_WIDTHS));
}

/// HFMA2.MMA with two `f16` immediates as c (as ptxas uses it to set
/// constants: `HFMA2.MMA R3, -RZ, RZ, 0, 2.384185791015625e-07`), on
/// sm_80–sm_90.
fn half_ops(v: &mut Vec<Form>, g: Generation) {
    // b sits in the c field here but keeps b's reuse flag (oracle).
    let slots = vec![RD, gpr(24, Some(72), Some(0)), gpr(64, None, Some(1)), Slot::Half2];
    // (The plain HFMA2 of this shape, 0x431, is with its modifiers in
    // the half-precision table.)
    if !g.wide_ur {
        v.push(Form { sms: (80, 90), ..g.form("HFMA2.MMA", 0x435, NONE, &[], slots) });
    }
}

/// EXIT, BSYNC, BRA and BSSY. BRA's offset layout changes at sm_90; BSSY
/// keeps the old one, narrowed on sm_100+ where bits 72–73 are its
/// convergence modifiers (see `isa::branch`).
fn control(v: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    let barrier = Slot::Barrier(f(16, 19));
    let old = Slot::Target(Layout::Contiguous(f(34, 81)));
    // A condition predicate (87–89, `!` 90) prints first when not PT
    // (`@!P1 BRA !P2, 0x1b500`, `BRA.U P6, !UP0, …` by bit flips).
    let cond = pred(87, UnlessTrue);
    v.push(g.form("EXIT", 0x94d, COND_PT, &[], vec![]));
    // Bits 32–33 of BRA: "", `.U`, `.DIV`, `.CONV`; with a uniform register
    // operand (bit 91) value 0 prints `.INVALID0`; the uniform-predicate
    // form (0x547, bit 91 set) is `.U` (bit flips of corpus words).
    const BRA_MODE: ModField = ModField { field: f(32, 33), names: &["", ".U", ".DIV", ".CONV"], extra: None };
    const BRA_MODE_UR: ModField = ModField { field: f(32, 33), names: &[UNMEASURED, UNMEASURED, ".DIV", ".CONV"], extra: None };
    const BRA_MODE_UP: ModField = ModField { field: f(32, 33), names: &[UNMEASURED, ".U"], extra: None };
    // Bits 85–86 (`.INC`, `.DEC`) clear; bit 91 says whether a uniform operand follows.
    const BRA_PLAIN: &[(Field, u64)] = &[(f(85, 86), 0), (f(91, 91), 0)];
    const BRA_UNIFORM: &[(Field, u64)] = &[(f(85, 86), 0), (f(91, 91), 1)];
    // The uniform register of `BRA.DIV UR5`: 24–29 with `~` at 30, or 24–31 from sm_100.
    let bra_ur = Slot::Ur { field: g.ur_field(24), neg: None, abs: None, not: if g.wide_ur { None } else { Some(30) } };
    // RET: bit 85 `.ABS` (else `.REL`), bit 86 `.NODEC`; the return-address
    // register and the target print without a comma between them.
    const NODEC: ModField = ModField { field: f(86, 86), names: &["", ".NODEC"], extra: None };
    const NOINC: ModField = ModField { field: f(86, 86), names: &["", ".NOINC"], extra: None };
    const REL: &[(Field, u64)] = &[(f(85, 85), 0), (f(91, 91), 0), (f(32, 33), 0)];
    const ABS: &[(Field, u64)] = &[(f(85, 85), 1), (f(91, 91), 0), (f(32, 33), 0)];
    const CALL_ABS: &[(Field, u64)] = &[(f(85, 85), 0), (f(91, 91), 0), (f(32, 33), 0)];
    // CALL.ABS with a register: a zero offset prints nothing, so only it decodes.
    const CALL_ABS_REG: &[(Field, u64)] = &[(f(85, 85), 0), (f(91, 91), 0), (f(32, 33), 0), (f(16, 23), 0), (f(34, 81), 0)];
    let ret_reg = gpr(24, None, None);
    let layouts: &[((u16, u16), Layout)] =
        if g.wide_ur { &[((100, 120), Layout::Split)] } else { &[((75, 89), Layout::Contiguous(f(34, 81))), ((90, 90), Layout::Split)] };
    for &(sms, layout) in layouts {
        let at = |form: Form| Form { sms, ..form };
        let target = Slot::Target(layout);
        let abs = Slot::AbsTarget(layout);
        // From sm_90, bit 84 of `BRA.U` with no condition predicate (PT) is `.ANY`
        // (`@P1 BRA.U.ANY`, the loop of an elected thread in library-corpus
        // words of ptxas 13.5; bit flips on sm_90 and sm_120, where sm_75 and
        // sm_80 ignore it); with a condition nvdisasm prints nothing for it
        // (random instances), so that form ignores the bit as before.
        // It prints only after `.U` (random instances).
        const BRA_ANY: &[(Field, u64)] = &[(f(32, 33), 1), (f(84, 84), 1), (f(85, 86), 0), (f(87, 90), 7), (f(91, 91), 0)];
        if layout == Layout::Split {
            v.push(Form { suffix: ".U.ANY", ..at(g.form("BRA", 0x947, BRA_ANY, &[], vec![target])) });
        }
        v.push(at(g.form("BRA", 0x947, BRA_PLAIN, &[BRA_MODE], vec![cond, target])));
        // sm_75 has neither uniform form (nvdisasm ignores bit 91 and refuses 0x547 there).
        let from_80 = |form: Form| Form { sms: (form.sms.0.max(80), form.sms.1), ..form };
        v.push(from_80(at(g.form("BRA", 0x947, BRA_UNIFORM, &[BRA_MODE_UR], vec![cond, bra_ur, target]))));
        v.push(from_80(at(g.form("BRA", 0x547, BRA_UNIFORM, &[BRA_MODE_UP], vec![cond, upred(24, Always), target]))));
        // The uniform-predicate form's bit 84 is `.ANY` from sm_90 too
        // (`BRA.U.ANY !UP0` = 0x0000000108047547 / 0x000fea000b900000,
        // ptxas 13.5's mrg32k3a Poisson kernel in the library corpus on
        // sm_100 and sm_120; nvdisasm prints it after the mode on sm_90,
        // 100 and 120, and takes the bit for no field on sm_80).
        if layout == Layout::Split {
            // Only `.U` measured before it, as the 0x947 form's.
            const BRA_UNIFORM_ANY: &[(Field, u64)] = &[(f(32, 33), 1), (f(84, 84), 1), (f(85, 86), 0), (f(91, 91), 1)];
            v.push(Form { suffix: ".U.ANY", ..at(g.form("BRA", 0x547, BRA_UNIFORM_ANY, &[], vec![cond, upred(24, Always), target])) });
        }
        v.push(at(g.form("CALL.REL", 0x944, REL, &[NOINC], vec![cond, target])));
        v.push(at(g.form("CALL.ABS", 0x943, CALL_ABS, &[NOINC], vec![cond, abs])));
        v.push(at(g.form("CALL.ABS", 0x343, CALL_ABS_REG, &[NOINC], vec![cond, ret_reg])));
        // An indirect call: the callee's offset in the section in a
        // register, the target the section start as RET.REL's (ptxas 13.5
        // on a call through a function pointer: `CALL.REL.NOINC R6
        // `(fptr)` = 0xffffff2006007344 on sm_80, 0xfffffffc06c47344 on
        // sm_90, the address from `MOV R6, 0x150`).
        v.push(Form { space_before_last: true, ..at(g.form("CALL.REL", 0x344, REL, &[NOINC], vec![cond, ret_reg, target])) });
        v.push(Form { space_before_last: true, ..at(g.form("RET.REL", 0x950, REL, &[NODEC], vec![cond, ret_reg, target])) });
        v.push(Form { space_before_last: true, ..at(g.form("RET.ABS", 0x950, ABS, &[NODEC], vec![cond, ret_reg, abs])) });
    }
    // BAR.SYNC with an immediate barrier (54–57); a thread count (42–53)
    // prints only when not zero, so only zero decodes; bit 80 `.DEFER_BLOCKING`.
    const BAR_FIXED: &[(Field, u64)] = &[(f(42, 53), 0), (f(77, 79), 0)];
    const DEFER: ModField = ModField { field: f(80, 80), names: &["", ".DEFER_BLOCKING"], extra: None };
    v.push(g.form("BAR.SYNC", 0xb1d, BAR_FIXED, &[DEFER], vec![Slot::Hex(f(54, 57))]));
    // With a thread count (`barrier.sync 1, 64`: `BAR.SYNC.DEFER_BLOCKING
    // 0x1, 0x40` = 0x0041000000007b1d on sm_100; flips of 42–53 on sm_75
    // and sm_100 change the count, bit 48 clear prints none).
    const BAR_COUNT_FIXED: &[(Field, u64)] = &[(f(77, 79), 0)];
    v.push(Form { nonzero: &[1], ..g.form("BAR.SYNC", 0xb1d, BAR_COUNT_FIXED, &[DEFER], vec![Slot::Hex(f(54, 57)), Slot::Hex(f(42, 53))]) });
    // The register forms (ptxas 13.5 for `barrier.sync a, b`, `bar.sync a`,
    // `bar.sync 1, b` with registers, sm_75 to sm_120; bit flips on sm_90):
    // 0x31d one register (32–39) holding the barrier in its low 4 bits and
    // the thread count from bit 16 (ptxas builds it with SHF and LOP3),
    // printed twice (`BAR.SYNC.DEFER_BLOCKING R11, R11`: 24–31 and 64–71
    // print nothing); 0x51d the barrier in a register, every thread; 0x91d
    // the barrier an immediate (54–57) and the count a register.
    const BAR_REG_FIXED: &[(Field, u64)] = &[(f(24, 31), 0), (f(40, 63), 0), (f(64, 71), 0), (f(77, 79), 0)];
    const BAR_IMM_REG_FIXED: &[(Field, u64)] = &[(f(24, 31), 0), (f(40, 53), 0), (f(58, 63), 0), (f(64, 71), 0), (f(77, 79), 0)];
    let bar_reg = gpr(32, None, None);
    v.push(g.form("BAR.SYNC", 0x31d, BAR_REG_FIXED, &[DEFER], vec![bar_reg, Slot::Again(0)]));
    v.push(g.form("BAR.SYNC", 0x51d, BAR_REG_FIXED, &[DEFER], vec![bar_reg]));
    // A zero count register prints nothing (random instances under
    // nvdisasm): that text is the immediate form's.
    v.push(Form { nonzero: &[1], ..g.form("BAR.SYNC", 0x91d, BAR_IMM_REG_FIXED, &[DEFER], vec![Slot::Hex(f(54, 57)), bar_reg]) });
    if g.wide_ur {
        v.push(g.form("BSYNC", 0x941, COND_PT, &[CONVERGENCE], vec![barrier]));
        v.push(g.form("BSSY", 0x945, BRANCH_FIXED, &[CONVERGENCE], vec![barrier, Slot::Target(Layout::Contiguous(f(34, 71)))]));
    } else {
        v.push(g.form("BSYNC", 0x941, COND_PT, &[], vec![barrier]));
        v.push(g.form("BSSY", 0x945, BRANCH_FIXED, &[], vec![barrier, old]));
    }
}

/// `fixed` with one more fixed field value (a variant of a form that
/// differs in one bit).
fn fixed_and(fixed: &'static [(Field, u64)], more: (Field, u64)) -> &'static [(Field, u64)] {
    Box::leak(fixed.iter().copied().chain([more]).collect::<Vec<_>>().into_boxed_slice())
}

/// FFMA, FADD, FMUL and DFMA, DADD, DMUL: a and b (and c) with negate and
/// absolute-value bits (a 72/73, b 63/62, c 75/74), rounding, `.FTZ`,
/// `.SAT`, `.FMZ` where the float ops have them.
fn float_ops(v: &mut Vec<Form>, g: Generation) {
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    // `.FTZ` (80) and `.FMZ` (76) are one field: both set prints `.INVALID3`.
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", crate::isa::form::UNMEASURED], extra: Some(76) };
    const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    // FMUL without scale: bits 84–86 hold 4 (survey §2.3).
    const FMUL_FIXED: &[(Field, u64)] = &[(f(84, 86), 4)];
    let reg = |lo: u8, neg, abs, reuse| Slot::Gpr { field: f(lo, lo + 7), neg, abs, not: None, reuse };
    let a = reg(24, Some(72), Some(73), Some(0));
    for (op9, name, f64, mods, three) in [
        (0x023u16, "FFMA", false, &[FTZ_FMZ, ROUND, SAT][..], true),
        (0x021, "FADD", false, &[FTZ, ROUND, SAT][..], false),
        (0x020, "FMUL", false, &[FTZ_FMZ, ROUND, SAT][..], false),
        (0x02b, "DFMA", true, &[ROUND][..], true),
        (0x029, "DADD", true, &[ROUND][..], false),
        (0x028, "DMUL", true, &[ROUND][..], false),
    ] {
        let imm = Slot::Float { f64, shadowed: None };
        let b_reg = reg(32, Some(63), Some(62), Some(1));
        let b_cb = cbank(Some(63), Some(62), None);
        let b_ur = g.uniform_float_b();
        let fixed: &'static [(Field, u64)] = if name == "FMUL" { FMUL_FIXED } else { NONE };
        let forms: Vec<(u16, Vec<Slot>)> = if three {
            let c = reg(64, Some(75), Some(74), Some(2));
            // Forms 2, 3 and 7 keep b in the c field, with the c field's flag bits.
            // b in the c field keeps b's reuse flag (index 1; oracle).
            let b64 = reg(64, Some(75), Some(74), Some(1));
            vec![
                (0x200, vec![a, b_reg, c]),
                (0x400, vec![a, b64, imm]),
                // Form 3: bits 75/74 belong to b (in the c field); the constant's are 63/62.
                (0x600, vec![a, b64, cbank(Some(63), Some(62), None)]),
                (0x800, vec![a, imm, c]),
                (0xa00, vec![a, b_cb, c]),
                (0xc00, vec![a, b_ur, c]),
                (0xe00, vec![a, b64, g.uniform_float_b()]),
            ]
        } else if matches!(name, "FADD" | "DADD") {
            // The second source of FADD and DADD takes the c position in the
            // immediate (2), constant (3) and uniform (7) forms, keeping b's flag
            // bits; DADD's register form also uses the c field (`DADD R6, R2, R4`).
            // Forms 4–6, which would print the same text, are not what ptxas emits
            // and are left out so that text reads back to one word.
            // FADD's register in the b field has the c operand's reuse flag (index 2,
            // corpus words and oracle), as DADD's in the c field.
            let reg_form = if name == "DADD" { reg(64, Some(75), Some(74), Some(2)) } else { reg(32, Some(63), Some(62), Some(2)) };
            vec![(0x200, vec![a, reg_form]), (0x400, vec![a, imm]), (0x600, vec![a, b_cb]), (0xe00, vec![a, b_ur])]
        } else {
            // FMUL, DMUL: forms 1, 4, 5, 6 (ptxas output; forms 2, 3, 7 would print alike).
            vec![(0x200, vec![a, b_reg]), (0x800, vec![a, imm]), (0xa00, vec![a, b_cb]), (0xc00, vec![a, b_ur])]
        };
        for (form, slots) in forms {
            if g.wide_ur && slots.iter().any(|s| matches!(s, Slot::CBank { .. })) {
                continue;
            }
            let slots: Vec<Slot> = [RD].into_iter().chain(slots).collect();
            // An f64 operation's registers are pairs (its immediate the
            // high half of an f64, its constant a 64-bit word).
            let widths = if f64 { OperandWidths::all(Width::Regs(2)) } else { OperandWidths::ONE };
            v.push(g.form(name, form | op9, fixed, mods, slots).widths(widths));
        }
    }
    if g.wide_ur {
        uniform_float_ops(v, g);
        half_source_float_ops(v, g);
    }
}

/// FHADD and FHFMA (sm_100, sm_120): FADD and FFMA (register forms, 0x221
/// and 0x223) whose a (FHFMA: a and b) is a half of a register widened to
/// f32, bit 81 set: 82 `.BF16` (else f16), 83 a's high half (`R28.H1`),
/// 84 FHFMA's b's; the negate and absolute bits apply after widening
/// (`|R28|.H1`). ptxas 13.5 writes them
/// for PTX's mixed-precision `add.rn.f32.bf16` and `fma.rn.f32.f16` (Triton's
/// convert_bf16_fp8 and layernorm on sm_100a and sm_120a); the fields are
/// single-bit flips under nvdisasm on SM100 and SM120, printed in the order
/// `.BF16.RM.SAT`. Bits 76 and 80 (FFMA's `.FMZ`, `.FTZ`) print nothing:
/// kept clear. The immediate form prints as FADD (bit 81 not read), the
/// uniform and constant forms are refused.
fn half_source_float_ops(v: &mut Vec<Form>, g: Generation) {
    const FIXED: &[(Field, u64)] = &[(f(81, 81), 1), (f(80, 80), 0), (f(76, 76), 0)];
    const BF16: ModField = ModField { field: f(82, 82), names: &["", ".BF16"], extra: None };
    const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    const HIGH: ModField = ModField { field: f(83, 83), names: &["", ".H1"], extra: None };
    const MODS: &[ModField] = &[BF16, ROUND, SAT, HIGH];
    const A_HALF: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 3, slot: 1 }];
    let reg = |lo: u8, neg, abs, reuse| Slot::Gpr { field: f(lo, lo + 7), neg, abs, not: None, reuse };
    let a = reg(24, Some(72), Some(73), Some(0));
    v.push(Form { operand_suffixes: A_HALF, ..g.form("FHADD", 0x221 | 0x200, FIXED, MODS, vec![RD, a, reg(32, Some(63), Some(62), Some(2))]) });
    // FHFMA's b is a half too (bit 84 its high half); c is an f32.
    const B_HIGH: ModField = ModField { field: f(84, 84), names: &["", ".H1"], extra: None };
    const FMA_MODS: &[ModField] = &[BF16, ROUND, SAT, HIGH, B_HIGH];
    const AB_HALF: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 3, slot: 1 }, OperandSuffix::Mod { modifier: 4, slot: 2 }];
    v.push(Form { operand_suffixes: AB_HALF, ..g.form("FHFMA", 0x223 | 0x200, FIXED, FMA_MODS, vec![RD, a, reg(32, Some(63), Some(62), Some(1)), reg(64, Some(75), Some(74), Some(2))]) });
}

/// The uniform-datapath float instructions of sm_120 (nvdisasm refuses
/// them on SM100): UFADD (0x254, 0x454), UFFMA (0x255, 0x455, 0x855),
/// UFMUL (0x256, 0x856), UFSETP (0x253, 0x853) and UFRND (below), with FADD's, FFMA's,
/// FMUL's and FSETP's fields and uniform registers (8 bits) where those
/// have general ones: a 24 (`-` 72, `|x|` 73), b 32 (`-` 63, `|x|` 62) or
/// in the c field 64 (`-` 75, `|x|` 74), an f32 immediate in 32–63; bit 91
/// set (clear is refused). UFADD's second source is always in the c field;
/// its bit 81 is `UFHADD` (kept 0). Bit flips of ptxas 13.5's sm_120 words
/// for a float loop of kernel parameters (`UFADD UR4, |UR4|, -URZ`,
/// `UFFMA UR5, |UR4|, UR9, 1.5`, `UFMUL UR5, UR5, 3.5`, `UFSETP.GEU.AND
/// UP0, UPT, UR5, UR9, UPT`) and opcode enumeration (nvdisasm 13.5).
fn uniform_float_ops(v: &mut Vec<Form>, g: Generation) {
    use PredShow::Always;
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", UNMEASURED], extra: Some(76) };
    const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
    const SAT: ModField = ModField { field: f(77, 77), names: &["", ".SAT"], extra: None };
    const UNIFORM: &[(Field, u64)] = &[(f(91, 91), 1)];
    // UFMUL without scale: bits 84–86 hold 4, as FMUL's (`.M2`, `.M4` else).
    const UFMUL_FIXED: &[(Field, u64)] = &[(f(91, 91), 1), (f(84, 86), 4)];
    let ur = |lo: u8, neg: u8, abs: u8| Slot::Ur { field: g.ur_field(lo), neg: Some(neg), abs: Some(abs), not: None };
    let ud = Slot::Ur { field: g.ur_field(16), neg: None, abs: None, not: None };
    let (a, b, c) = (ur(24, 72, 73), ur(32, 63, 62), ur(64, 75, 74));
    let imm = Slot::Float { f64: false, shadowed: None };
    let up = |lo: u8| Slot::Pred { uniform: true, field: f(lo, lo + 2), not: None, show: Always };
    let forms: [(&'static str, u16, &'static [(Field, u64)], &'static [ModField], Vec<Slot>); 9] = [
        ("UFADD", 0x254, UNIFORM, &[FTZ, ROUND, SAT], vec![ud, a, c]),
        ("UFADD", 0x454, UNIFORM, &[FTZ, ROUND, SAT], vec![ud, a, imm]),
        ("UFFMA", 0x255, UNIFORM, &[FTZ_FMZ, ROUND, SAT], vec![ud, a, b, c]),
        ("UFFMA", 0x455, UNIFORM, &[FTZ_FMZ, ROUND, SAT], vec![ud, a, c, imm]),
        ("UFFMA", 0x855, UNIFORM, &[FTZ_FMZ, ROUND, SAT], vec![ud, a, imm, c]),
        ("UFMUL", 0x256, UFMUL_FIXED, &[FTZ_FMZ, ROUND, SAT], vec![ud, a, b]),
        ("UFMUL", 0x856, UFMUL_FIXED, &[FTZ_FMZ, ROUND, SAT], vec![ud, a, imm]),
        ("UFSETP", 0x253, UNIFORM, &[FLOAT_CMP, FTZ, COMBINE], vec![up(81), up(84), a, b, upred(87, Always)]),
        ("UFSETP", 0x853, UNIFORM, &[FLOAT_CMP, FTZ, COMBINE], vec![up(81), up(84), a, imm, upred(87, Always)]),
    ];
    for (name, opcode, fixed, mods, slots) in forms {
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form(name, opcode, fixed, mods, slots) });
    }
    // UFRND: FRND's fields (the type 75–77 and 84–85, 1 `.F16` or 2 for
    // f32, no f64; rounding 78–79, `.FTZ` 80) with the source in b, a
    // uniform register (0x25d, `-` 63, `|x|` 62) or an immediate of the
    // type (0x85d). `UFRND.F16.TRUNC UR4, UR4`: ptxas 13.5's sm_120 code
    // for a generated program, seed 9933311; bit flips.
    const ROUND_INT: ModField = ModField { field: f(78, 79), names: &["", ".FLOOR", ".CEIL", ".TRUNC"], extra: None };
    const F16_TYPE: ModField = ModField { field: f(84, 85), names: &[UNMEASURED, ".F16", UNMEASURED, UNMEASURED], extra: None };
    const F32_TYPE: ModField = ModField { field: f(84, 85), names: &[UNMEASURED, UNMEASURED, "", UNMEASURED], extra: None };
    const F16_FIXED: &[(Field, u64)] = &[(f(91, 91), 1), (f(75, 77), 1), (f(72, 74), 0)];
    const F32_FIXED: &[(Field, u64)] = &[(f(91, 91), 1), (f(75, 77), 2), (f(72, 74), 0)];
    for (fixed, ty, immediate) in [(F16_FIXED, F16_TYPE, Slot::Half), (F32_FIXED, F32_TYPE, imm)] {
        let mods: &'static [ModField] = Box::leak(vec![FTZ, ty, ROUND_INT].into_boxed_slice());
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UFRND", 0x25d, fixed, mods, vec![ud, b]) });
        v.push(Form { sms: (120, 120), uniform_guard: true, ..g.form("UFRND", 0x85d, fixed, mods, vec![ud, immediate]) });
    }
}

/// FADD2 (0x24b), FMUL2 (0x24a) and FFMA2 (0x249), sm_100 only: the f32
/// operation on both halves of register pairs (`add/mul/fma.f32x2`; sm_120
/// has none: nvdisasm refuses the words and ptxas emits two FADDs). Each
/// register source prints its lane selection after it: `.F32x2.HI_LO`
/// (the pair as it is), `.F32x2.LO_HI` (its halves swapped) or `.F32`
/// (one register, read by both lanes), from a 2-bit field (a 81–82, b
/// 87–88 or FADD2's 84–85, c 84–85); the field's third bit (83, 89, 86)
/// prints `.NP` (not measured: kept 0). A `.F32` source reads one
/// register, a selection of the pair two, so the two are separate forms
/// with the value fixed (their widths differ). Neg/abs bits as FADD's and
/// FFMA's (a 72/73, b 63/62, c 75/74); `.FTZ` 80 (FMUL2, FFMA2: `.FMZ`
/// 76 as FFMA's), rounding 78–79. FMUL2 takes an f32 immediate b (form
/// 4), FFMA2 an immediate b (4) or c (2: b moves to the c field with c's
/// flag bits and its selection at 87–88). Single-bit flips of ptxas's
/// words for `add/mul/fma/sub.f32x2` and Triton 3.9's softmax (ptxas and
/// nvdisasm 13.5, sm_100a); reuse flags as FADD's and FFMA's (FADD2's b
/// carries index 2: `R16.reuse.F32x2.HI_LO`, 0x100fe2 control word).
fn packed_f32_ops(v: &mut Vec<Form>, g: Generation) {
    const FTZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ"], extra: None };
    const FTZ_FMZ: ModField = ModField { field: f(80, 80), names: &["", ".FTZ", ".FMZ", UNMEASURED], extra: Some(76) };
    const ROUND: ModField = ModField { field: f(78, 79), names: &["", ".RM", ".RP", ".RZ"], extra: None };
    const fn pair_select(lo: u8) -> ModField {
        ModField { field: f(lo, lo + 1), names: &[".F32x2.HI_LO", ".F32x2.LO_HI", UNMEASURED, UNMEASURED], extra: None }
    }
    let reg = |lo: u8, neg: u8, abs: u8, reuse: u8| Slot::Gpr { field: f(lo, lo + 7), neg: Some(neg), abs: Some(abs), not: None, reuse: Some(reuse) };
    let imm = Slot::Float { f64: false, shadowed: None };
    // (opcode, name, mnemonic modifiers, the operands after the result:
    // each a slot and the low bit of its selection field). An immediate is
    // one word: ptxas sets its selection to `.F32` (bit 88 of FMUL2's
    // `FMUL2 R22, R4.F32x2.HI_LO, 1.4426950216293334961`, 85 of FFMA2's
    // form 2), which nvdisasm does not print.
    let a = (reg(24, 72, 73, 0), 81);
    let families: Vec<(u16, &'static str, &'static [ModField], Vec<(Slot, u8)>)> = vec![
        (0x24b, "FADD2", &[FTZ, ROUND], vec![a, (reg(32, 63, 62, 2), 84)]),
        (0x24a, "FMUL2", &[FTZ_FMZ, ROUND], vec![a, (reg(32, 63, 62, 1), 87)]),
        (0x84a, "FMUL2", &[FTZ_FMZ, ROUND], vec![a, (imm, 87)]),
        (0x249, "FFMA2", &[FTZ_FMZ, ROUND], vec![a, (reg(32, 63, 62, 1), 87), (reg(64, 75, 74, 2), 84)]),
        (0x849, "FFMA2", &[FTZ_FMZ, ROUND], vec![a, (imm, 87), (reg(64, 75, 74, 2), 84)]),
        (0x449, "FFMA2", &[FTZ_FMZ, ROUND], vec![a, (reg(64, 75, 74, 1), 87), (imm, 84)]),
    ];
    for (opcode, name, base_mods, sources) in families {
        let registers: Vec<(usize, u8)> = sources.iter().enumerate().filter(|(_, s)| matches!(s.0, Slot::Gpr { .. })).map(|(k, s)| (k + 1, s.1)).collect();
        // Every combination of pair (bit clear) and single (bit set) register sources.
        for single in 0..1u32 << registers.len() {
            // The `.NP` bits, and the immediate's selection.
            let mut fixed: Vec<(Field, u64)> = sources.iter().map(|s| (f(s.1 + 2, s.1 + 2), 0)).collect();
            fixed.extend(sources.iter().filter(|s| !matches!(s.0, Slot::Gpr { .. })).map(|s| (f(s.1, s.1 + 1), 2)));
            let mut mods = base_mods.to_vec();
            let mut suffixes = Vec::new();
            // The result a pair; a source a pair where it selects one (an
            // immediate is one word).
            let mut widths = OperandWidths::ONE.result(Width::Regs(2));
            for (k, &(slot, lo)) in registers.iter().enumerate() {
                if single >> k & 1 == 1 {
                    fixed.push((f(lo, lo + 1), 2));
                    suffixes.push(OperandSuffix::Text { text: ".F32", slot: slot as u8 });
                } else {
                    suffixes.push(OperandSuffix::Mod { modifier: mods.len() as u8, slot: slot as u8 });
                    mods.push(pair_select(lo));
                    widths = widths.source(slot - 1, Width::Regs(2));
                }
            }
            let slots: Vec<Slot> = [RD].into_iter().chain(sources.iter().map(|s| s.0)).collect();
            let form = Form { sms: (100, 100), operand_suffixes: Box::leak(suffixes.into_boxed_slice()), ..g.form(name, opcode, Box::leak(fixed.into_boxed_slice()), Box::leak(mods.into_boxed_slice()), slots) };
            v.push(form.widths(widths));
        }
    }
}

/// IMAD, IMAD.WIDE and IMAD.HI in all seven operand forms, with and without
/// a carry in (`.X`). Text order: d, carry-out predicate (when not PT), a,
/// b, c, carry-in predicate (`.X` only). Forms 2, 3 and 7 keep b in bits
/// 64–71 and put the immediate, constant or uniform register in c.
fn imad(out: &mut Vec<Form>, g: Generation) {
    use PredShow::{Always, UnlessTrue};
    const PLAIN: &[(Field, u64)] = &[(f(74, 74), 0), (f(87, 90), 0xf)];
    const X: &[(Field, u64)] = &[(f(74, 74), 1)];
    // nvdisasm's other names for IMAD (corpus): a = b = RZ with c a register,
    // immediate or constant is IMAD.MOV; b = 1 is IMAD.IADD; b a power of two
    // with c = RZ is IMAD.SHL, except 2^16 (`IMAD.U32 R6, R4, 0x10000, RZ`).
    // Slots of IMAD: d 0, a 1, b 2, c 3.
    const MOV: &[Alias] = &[Alias { name: "IMAD.MOV", when: AliasWhen::AnyZero(&[1, 2]) }];
    // With b an immediate or constant, a = RZ is IMAD.MOV (before IADD/SHL).
    const MOV_A: &[Alias] = &[Alias { name: "IMAD.MOV", when: AliasWhen::AnyZero(&[1]) }];
    const IADD_SHL: &[Alias] = &[
        Alias { name: "IMAD.MOV", when: AliasWhen::AnyZero(&[1]) },
        Alias { name: "IMAD.IADD", when: AliasWhen::ImmOne(2) },
        Alias { name: "IMAD.SHL", when: AliasWhen::ImmPow2Zero(2, 3) },
    ];
    let a = gpr(24, None, Some(0));
    let b32 = gpr(32, None, Some(1));
    // b in the c field (forms 2, 3, 7) keeps b's reuse flag (index 1; oracle).
    let b64 = gpr(64, None, Some(1));
    let imm = Slot::Imm32 { signed: true };
    // With a carry in (`.X`) the c flag bit is a bitwise not (`IMAD.X R6, RZ, RZ, ~R13, P0`).
    for x in [false, true] {
        let (neg, not) = if x { (None, Some(75)) } else { (Some(75), None) };
        let c64 = Slot::Gpr { field: f(64, 71), neg, abs: None, not, reuse: Some(2) };
        let operand_forms: [(u16, Slot, Slot, &'static [Alias]); 7] = [
            (0x200, b32, c64, MOV),
            (0x400, b64, imm, MOV),
            // Forms 3 and 7: the constant's or uniform register's flag is bit 63
            // (bit 75 would be the c field's, which holds b here).
            (0x600, b64, cbank(neg.map(|_| 63), None, not.map(|_| 63)), MOV),
            (0x800, imm, c64, IADD_SHL),
            (0xa00, cbank(None, None, None), c64, MOV_A),
            (0xc00, g.uniform_b(None, None), c64, &[]),
            (0xe00, b64, g.uniform_b(neg.map(|_| 63), not.map(|_| 63)), &[]),
        ];
        // IMAD.WIDE writes the 64-bit sum into a pair and adds the pair c;
        // IMAD.HI adds the pair c:c+1 before taking the high word (the
        // compiler's `emit_imad`): its c reads two registers, so a write
        // of c+1 may not move above it.
        let wide = OperandWidths::ONE.result(Width::Regs(2)).source(2, Width::Regs(2));
        let high = OperandWidths::ONE.source(2, Width::Regs(2));
        for (op9, name, widths) in [(0x024, "IMAD", OperandWidths::ONE), (0x025, "IMAD.WIDE", wide), (0x027, "IMAD.HI", high)] {
            for (form, b, c, aliases) in operand_forms {
                // nvdisasm refuses IMAD.WIDE and IMAD.HI with an immediate c (form 2),
                // and constant operands in ALU instructions from sm_100.
                if form == 0x400 && op9 != 0x024 || g.wide_ur && matches!(form, 0x600 | 0xa00) {
                    continue;
                }
                let aliases = if op9 == 0x024 && !x { aliases } else { &[] };
                // IMAD.WIDE and IMAD.HI have a carry-out predicate (`IMAD.HI.U32
                // R10, P0, R12, R7, R10`); IMAD keeps bits 81–83 at PT (nvdisasm
                // prints nothing for them).
                let mut slots = if op9 != 0x024 { vec![RD, pred_plain(81, UnlessTrue), a, b, c] } else { vec![RD, a, b, c] };
                if x {
                    slots.push(pred(87, Always));
                }
                const PLAIN_PT: &[(Field, u64)] = &[(f(74, 74), 0), (f(87, 90), 0xf), (f(81, 83), 7)];
                const X_PT: &[(Field, u64)] = &[(f(74, 74), 1), (f(81, 83), 7)];
                let wide = op9 != 0x024;
                out.push(Form {
                    fixed: match (x, wide) {
                        (false, true) => PLAIN,
                        (true, true) => X,
                        (false, false) => PLAIN_PT,
                        (true, false) => X_PT,
                    },
                    suffix: if x { ".X" } else { "" },
                    aliases,
                    ..g.form(name, form | op9, NONE, &[SIGNED_73], slots)
                }
                .widths(widths));
            }
        }
    }
}

