//! Texture fetches: TEX (filtered, f32 coordinates) and TLD (unfiltered,
//! integer texel coordinates), as ptxas 13.5 emits them for PTX `tex` with
//! a `.texref` or a bindless handle (`.u64` texture object).
//!
//! Operands, as `nvdisasm` prints them: the second result pair (bits
//! 64–71: blue, alpha), the first (16–23: red, green), the coordinate
//! registers a (24–31) and b (32–39), then the texture: before sm_90 a
//! constant-bank word holding the handle (`.SCR`: bank 54–58, word index
//! 40–53: `0x0, 0x5a` is `c[0x0][0x168]`), from sm_90 a uniform register
//! pair whose low word is the handle (40–45, 40–47 from sm_100), and last
//! the dimension (61–62: 0 `1D`, 1 `2D`, 2 `3D`, 3 `CUBE`; 63 arrays).
//! Where b is RZ nvdisasm does not print it: such forms fix it to 255, and
//! forms that print b take no RZ there. The first coordinate a is never RZ
//! (nvdisasm prints `???255` for it), nor is the uniform handle URZ (`???63`;
//! random instances with nvdisasm 13.5).
//! The write mask (72–75) says which of the four components (red, green,
//! blue, alpha: bits 0–3) are written, packed in that order into the
//! first pair, then the second (ptxas 13.5: `TEX.SCR.LL RZ, R6, R4, R0,
//! 0x0, 0x5a, 2D, 0x3` for a fetch whose blue and alpha are unused,
//! `TLD4.SCR.R RZ, R8, …, 2D, 0xa` for gathered texels 1 and 3 in R8 and
//! R9); nvdisasm prints it last, in hex, unless it is 0xf (every value
//! 0x0–0xe on SM86, SM90, SM120): each form has a twin with the mask as
//! an operand ([`Slot::Mask`]) after the forms of 0xf. The level of
//! detail is 87–89 (`.LZ` 1, `.LL` 3; Blackwell also uses bit 59).
//!
//! How the coordinates are split between a and b (ptxas 13.5, ZLUDA's
//! `tex_read_*` kernels): before sm_90 the first half of the n values
//! (rounded up) in a, the rest in b (TLD 2D: x in a, y in b); from sm_90
//! every coordinate in a and the level of detail in b. Each dimension is
//! its own form, whose row declares the widths of a and b
//! ([`fetch_widths`]); the dimension is a modifier printed as an operand
//! ([`dim_mod`]), so the typed instruction names it.
//! Fields from single-bit flips of ptxas's words (sm_80, sm_90, sm_120)
//! with nvdisasm 13.5.
//!
//! TLD4 (0xb63 with `.SCR`, 0xf63 from sm_90; `tld4`) gathers one
//! component of the four texels bilinear filtering reads: the fields are
//! TEX's without a level of detail, the component in 87–88 (`.R`, `.G`,
//! `.B`, `.A`), 89 unused (flips print nothing new), the coordinates placed
//! as TEX's (sm_80: `TLD4.SCR.R R6, R4, R4, R5, 0x0, 0x5a, 2D` =
//! 0x30005a0504047b63 / 0x...001e0f06; sm_90: `TLD4.R R6, R4, R4, UR4,
//! 0x0, 2D` = 0x200004ff04047f63; sm_100 and sm_120 `TLD4.R R6, R4, R4,
//! UR4, 2D` = 0x20ff04ff04047f63). ptxas sets reuse flags on TLD4 with
//! bit 109 clear (sm_75: bit 0 on `TLD4.SCR.R R10, R8, R2, R3`, bit 2 on
//! the `.A` fetch after it; sm_75 `TEX.SCR.LL` with bit 0), which nvdisasm
//! never prints, bit 109 set or clear (bit flips on SM75): the forms'
//! registers take reuse flags 0 (a, 24) and 2 (the field at 64) so that
//! such words decode (flag 1 is not taken: nvdisasm refuses it with 2), and the opcodes' facts (no reuse) keep
//! them from printing (`Inst::text`) and code generation from setting them.

use super::{Generation, RD, f, gpr};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, Slot, UNMEASURED};
use crate::isa::widths::{Declare, OperandWidths, Width};

/// TLD4's gathered component.
const COMPONENT: ModField = ModField { field: Field::bits(87, 88), names: &[".R", ".G", ".B", ".A"], extra: None };

/// The spellings of a fetch's dimension (61–62), which nvdisasm prints as
/// an operand of its own after the handle (`0x0, 0x5b, 2D`).
const DIM_NAMES: [&str; 3] = ["1D", "2D", "3D"];

/// The dimension of a fetch as a modifier whose one measured value is
/// `dim` (0 `1D`, 1 `2D`, 2 `3D`): each dimension stays a form of its own
/// (its coordinate widths and slots differ), and words of another
/// dimension do not decode as it. Printed as the operand of an empty text
/// slot ([`dim_slot`]), so that selection names the dimension as a typed
/// modifier value (`TexDim::_2D`) rather than by the form's text.
fn dim_mod(dim: u64) -> ModField {
    let names: Vec<&'static str> = DIM_NAMES.iter().enumerate().map(|(k, n)| if k as u64 == dim { *n } else { UNMEASURED }).collect();
    ModField { field: Field::bits(61, 62), names: Box::leak(names.into_boxed_slice()), extra: None }
}

/// The slot the dimension prints in: an operand with no bits of its own,
/// followed by the dimension modifier (index `modifier` of the form's
/// modifiers); with the operand suffix that places it, for slot `slot`.
fn dim_slot(modifier: u8, slot: u8) -> (Slot, &'static [OperandSuffix]) {
    (Slot::Text(""), Box::leak(vec![OperandSuffix::Mod { modifier, slot }].into_boxed_slice()))
}

/// A fetch's operand widths: two result pairs, then the coordinate
/// registers a and b, holding the `dims` coordinates and, with `lod`,
/// TEX's level of detail: before sm_90 (`split`, the `.SCR` forms) those
/// values split in halves, the larger in a; from sm_90 the coordinates in
/// a, the level of detail in b. Three registers are an aligned quad
/// (ptxas: `R4` holding x, y, z).
fn fetch_widths(dims: u64, lod: bool, split: bool) -> OperandWidths {
    let values = dims as u8 + u8::from(lod);
    let (a, b) = if split { (values.div_ceil(2), values / 2) } else { (dims as u8, u8::from(lod)) };
    let regs = |n: u8| Width::Regs(if n == 3 { 4 } else { n.max(1) });
    OperandWidths::ONE.result(Width::Regs(2)).source(0, regs(a)).source(1, regs(b))
}

/// A `.B` fetch's operand widths ([`fetch_widths`] with the handle's low
/// word a value after the `dims` coordinates): split in halves, or the
/// coordinates in a and the handle (then the level of detail) in b.
fn bound_widths(dims: u64, lod: bool, split: bool) -> OperandWidths {
    let values = dims as u8 + 1 + u8::from(lod);
    let (a, b) = if split { (values.div_ceil(2), values / 2) } else { (dims as u8, 1 + u8::from(lod)) };
    let regs = |n: u8| Width::Regs(if n == 3 { 4 } else { n.max(1) });
    OperandWidths::ONE.result(Width::Regs(2)).source(0, regs(a)).source(1, regs(b))
}

/// The forms of this module.
pub(super) fn texture_ops(v: &mut Vec<Form>, g: Generation) {
    let first = v.len();
    const DIMS: [u64; 3] = [0, 1, 2];
    // TEX's dimensions (1D fetches as 2D).
    const TEX_DIMS: [u64; 2] = [1, 2];
    // Reuse flags 0 (a) and 2 (the field at 64), which ptxas sets and
    // nvdisasm never prints (see the module doc); flag 1 is left out, as
    // nvdisasm refuses it together with flag 2 (SM75, every value).
    let second = gpr(64, None, Some(2));
    let a = gpr(24, None, Some(0));
    let b = gpr(32, None, None);
    // Every field of the fetch but the dimension (a modifier) and, where
    // nvdisasm prints no b, b fixed to RZ.
    let with_rz_b = |common: &'static [(Field, u64)]| -> &'static [(Field, u64)] {
        let mut all: Vec<(Field, u64)> = common.to_vec();
        all.push((f(32, 39), 255));
        Box::leak(all.into_boxed_slice())
    };
    // TLD4's fields: a fetch's, its level of detail (87–89, and bit 59 on
    // sm_100+) replaced by the component (87–88) and a clear 89; 2D only.
    let gather = |common: &'static [(Field, u64)], rz_b: bool| -> &'static [(Field, u64)] {
        let mut all: Vec<(Field, u64)> = common.iter().copied().filter(|(fl, _)| *fl != f(87, 89)).collect();
        all.push((f(89, 89), 0));
        if rz_b {
            all.push((f(32, 39), 255));
        }
        Box::leak(all.into_boxed_slice())
    };
    // A fetch of dimension `dim` with the operands `slots` before the
    // dimension; TLD4 (`component`) has its component modifier first.
    let fetch = |name: &'static str, opcode: u16, fixed: &'static [(Field, u64)], component: bool, dim: u64, mut slots: Vec<Slot>| -> Form {
        let mods: Vec<ModField> = if component { vec![COMPONENT, dim_mod(dim)] } else { vec![dim_mod(dim)] };
        let (slot, suffix) = dim_slot(mods.len() as u8 - 1, slots.len() as u8);
        slots.push(slot);
        Form { operand_suffixes: suffix, ..g.form(name, opcode, fixed, Box::leak(mods.into_boxed_slice()), slots) }
    };
    if !g.wide_ur {
        // sm_75–sm_89: `.SCR` (60), the handle in a constant-bank word;
        // 59 (`.B`) and 63 (arrays) clear, predicate result 81–83 PT,
        // cache 84–86 1 (default), 76–80, 90–104 clear.
        const TEX_SCR: &[(Field, u64)] = &[(f(59, 60), 2), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 3), (f(90, 104), 0)];
        const TLD_SCR: &[(Field, u64)] = &[(f(59, 60), 2), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 1), (f(90, 104), 0)];
        let bank = Slot::Hex(f(54, 58));
        let word = Slot::Hex(f(40, 53));
        let sms = (75, 89);
        for d in TEX_DIMS {
            v.push(Form { nonzero: &[2, 3], sms, ..fetch("TEX.SCR.LL", 0xb60, TEX_SCR, false, d, vec![second, RD, a, b, bank, word]) }.widths(fetch_widths(d + 1, true, true)));
        }
        for d in DIMS {
            if d > 0 {
                v.push(Form { nonzero: &[2, 3], sms, ..fetch("TLD.SCR.LZ", 0xb66, TLD_SCR, false, d, vec![second, RD, a, b, bank, word]) }.widths(fetch_widths(d + 1, false, true)));
            } else {
                v.push(Form { nonzero: &[2], sms, ..fetch("TLD.SCR.LZ", 0xb66, with_rz_b(TLD_SCR), false, d, vec![second, RD, a, bank, word]) }.widths(fetch_widths(d + 1, false, true)));
            }
        }
        v.push(Form { nonzero: &[2, 3], sms, ..fetch("TLD4.SCR", 0xb63, gather(TEX_SCR, false), true, 1, vec![second, RD, a, b, bank, word]) }.widths(fetch_widths(2, false, true)));
        // A handle computed in registers (PTX bindless handles held in a
        // register): `.B` (59 set), opcodes 0x361, 0x367, 0x364, the
        // handle's low word a value after the coordinates (before TEX's
        // level of detail), 40–58 clear. The values split in halves as
        // the `.SCR` forms' do. (TEX 3D, five values, is `TEX.B.LL`, 60
        // clear, the coordinates in a and the handle and level in b; not
        // in the table yet: the typed-instruction generator does not join
        // a 3D-only name with TEX's other names.)
        // ptxas 13.5 (sm_75, sm_80): `TEX.SCR.B.LL R10, R8, R6, R4, 2D,
        // 0x7` = 0x3800000406087361 / 0x044f4200019e070a, `TEX.B.LL RZ, R8,
        // R8, R4, 3D, 0x3` = 0x4800000408087361 / 0x060f4200019e03ff,
        // `TLD.SCR.B.LZ RZ, R12, R17, R4, 1D, 0x3` = 0x18000004110c7367 /
        // 0x100f4400009e03ff, `TLD.SCR.B.LZ RZ, R14, R12, R14, 3D, 0x5`,
        // `TLD4.SCR.R.B RZ, R2, R8, R4, 2D, 0xc` = 0x3800000408027364 /
        // 0x060f4600001e0cff.
        let with_b = |common: &'static [(Field, u64)]| -> &'static [(Field, u64)] {
            let mut all: Vec<(Field, u64)> = common.iter().copied().filter(|(fl, _)| *fl != f(59, 60)).collect();
            all.extend([(f(40, 58), 0), (f(59, 60), 3)]);
            Box::leak(all.into_boxed_slice())
        };
        v.push(Form { nonzero: &[2, 3], sms, ..fetch("TEX.SCR.B.LL", 0x361, with_b(TEX_SCR), false, 1, vec![second, RD, a, b]) }.widths(bound_widths(2, true, true)));
        for d in DIMS {
            v.push(Form { nonzero: &[2, 3], sms, ..fetch("TLD.SCR.B.LZ", 0x367, with_b(TLD_SCR), false, d, vec![second, RD, a, b]) }.widths(bound_widths(d + 1, false, true)));
        }
        v.push(Form { nonzero: &[2, 3], sms, suffix: ".B", ..fetch("TLD4.SCR", 0x364, with_b(gather(TEX_SCR, false)), true, 1, vec![second, RD, a, b]) }.widths(bound_widths(2, false, true)));
        // sm_90: the handle in a uniform register pair (40–45), bit 91
        // set; 46–53 a constant printed after it (0 here).
        const TEX_UR: &[(Field, u64)] = &[(f(46, 60), 0), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 3), (f(90, 90), 0), (f(91, 91), 1), (f(92, 104), 0)];
        const TLD_UR: &[(Field, u64)] = &[(f(46, 60), 0), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 1), (f(90, 90), 0), (f(91, 91), 1), (f(92, 104), 0)];
        let handle = Slot::Ur { field: f(40, 45), neg: None, abs: None, not: None };
        let zero = Slot::Text("0x0");
        let sms = (90, 90);
        for d in TEX_DIMS {
            v.push(Form { nonzero: &[2, 3, 4], sms, ..fetch("TEX.LL", 0xf60, TEX_UR, false, d, vec![second, RD, a, b, handle, zero]) }.widths(fetch_widths(d + 1, true, false)));
        }
        for d in DIMS {
            v.push(Form { nonzero: &[2, 3], sms, ..fetch("TLD.LZ", 0xf66, with_rz_b(TLD_UR), false, d, vec![second, RD, a, handle, zero]) }.widths(fetch_widths(d + 1, false, false)));
        }
        v.push(Form { nonzero: &[2, 3], sms, ..fetch("TLD4", 0xf63, gather(TEX_UR, true), true, 1, vec![second, RD, a, handle, zero]) }.widths(fetch_widths(2, false, false)));
    } else {
        // sm_100/sm_120: the handle pair 40–47, a second uniform register
        // 48–55 (URZ, not printed), 56–58 clear; the level of detail is
        // 59 with 87–89 (`.LL`: 1 and 1, none: 0 and 0; TLD's `.LZ`: 0
        // and 0). ptxas 13.5 uses `.LL` on sm_120 for `tex.level` alone
        // (`TEX.LL RZ, R5, R4, R0, UR4, 2D, 0x8`).
        const TEX_LL: &[(Field, u64)] = &[(f(48, 55), 255), (f(56, 58), 0), (f(59, 59), 1), (f(60, 60), 0), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 1), (f(90, 90), 0), (f(91, 91), 1), (f(92, 104), 0)];
        const TEX_PLAIN: &[(Field, u64)] = &[(f(48, 55), 255), (f(56, 58), 0), (f(59, 59), 0), (f(60, 60), 0), (f(63, 63), 0), (f(72, 75), 0xf), (f(76, 80), 0), (f(81, 83), 7), (f(84, 86), 1), (f(87, 89), 0), (f(90, 90), 0), (f(91, 91), 1), (f(92, 104), 0)];
        let handle = Slot::Ur { field: f(40, 47), neg: None, abs: None, not: None };
        for d in TEX_DIMS {
            v.push(Form { nonzero: &[2, 3, 4], sms: (100, 120), ..fetch("TEX.LL", 0xf60, TEX_LL, false, d, vec![second, RD, a, b, handle]) }.widths(fetch_widths(d + 1, true, false)));
            v.push(Form { nonzero: &[2, 3], sms: (120, 120), ..fetch("TEX", 0xf60, with_rz_b(TEX_PLAIN), false, d, vec![second, RD, a, handle]) }.widths(fetch_widths(d + 1, false, false)));
        }
        for d in DIMS {
            v.push(Form { nonzero: &[2, 3], sms: (100, 120), ..fetch("TLD.LZ", 0xf66, with_rz_b(TEX_PLAIN), false, d, vec![second, RD, a, handle]) }.widths(fetch_widths(d + 1, false, false)));
        }
        v.push(Form { nonzero: &[2, 3], sms: (100, 120), ..fetch("TLD4", 0xf63, gather(TEX_PLAIN, true), true, 1, vec![second, RD, a, handle]) }.widths(fetch_widths(2, false, false)));
    }
    // The partial write masks: every form again with the mask an operand.
    let mask = f(72, 75);
    let twins: Vec<Form> = v[first..]
        .iter()
        .map(|form| {
            let fixed: Vec<(Field, u64)> = form.fixed.iter().copied().filter(|&(fl, _)| fl != mask).collect();
            let slots: Vec<Slot> = form.slots.iter().copied().chain([Slot::Mask(mask)]).collect();
            Form { fixed: Box::leak(fixed.into_boxed_slice()), slots: Box::leak(slots.into_boxed_slice()), ..*form }
        })
        .collect();
    v.extend(twins);
}

/// A surface access's element size (73–75): `.U8`, `.S8`, `.U16`, `.S16`,
/// 32 bits (nothing printed), `.64`, `.128` (7 prints `.INVALID7`).
const SURFACE_SIZE: ModField = ModField { field: Field::bits(73, 75), names: &[".U8", ".S8", ".U16", ".S16", "", ".64", ".128", UNMEASURED], extra: None };
/// What an out-of-bounds surface access does (59–60): `.IGN` (PTX
/// `.zero`: loads give zero, stores are dropped), nothing (`.clamp`),
/// `.TRAP` (3 prints `.INVALID3`).
const SURFACE_CLAMP: ModField = ModField { field: Field::bits(59, 60), names: &[".IGN", "", ".TRAP", UNMEASURED], extra: None };
/// The components a formatted store writes (72–75, SUST.P: PTX `sust.p`
/// with one, two or four elements): red (`.R`, 0x1), red and green
/// (`.RG`, 0x3) or all four (0xf, nothing printed), as ptxas 13.5 writes
/// them for `.b32`, `.v2.b32` and `.v4.b32`; other masks not measured.
const SURFACE_COMPONENTS: ModField = ModField { field: Field::bits(72, 75), names: &COMPONENT_NAMES, extra: None };
const COMPONENT_NAMES: [&str; 16] = {
    let mut n = [UNMEASURED; 16];
    n[1] = ".R";
    n[3] = ".RG";
    n[15] = "";
    n
};
/// The data registers of a formatted store per component mask (one per
/// component, four for three, as a quad).
const COMPONENT_REGS: [u8; 16] = [1, 1, 1, 2, 1, 2, 2, 4, 1, 2, 2, 4, 2, 4, 4, 4];
/// The memory order and scope of a surface access (76–80), as ptxas 13.5
/// writes them: `.STRONG.CTA` (16) on sm_75, `.STRONG.SM` (10) from sm_80;
/// the other values print other orders and scopes, not measured here.
const SURFACE_SCOPE_75: ModField = ModField { field: Field::bits(76, 80), names: &SCOPE_NAMES_75, extra: None };
const SURFACE_SCOPE_80: ModField = ModField { field: Field::bits(76, 80), names: &SCOPE_NAMES_80, extra: None };
const SCOPE_NAMES_75: [&str; 17] = {
    let mut n = [UNMEASURED; 17];
    n[16] = ".STRONG.CTA";
    n
};
const SCOPE_NAMES_80: [&str; 11] = {
    let mut n = [UNMEASURED; 11];
    n[10] = ".STRONG.SM";
    n
};

/// The forms of surface loads and stores (SULD, SUST: PTX `suld.b` and
/// `sust.b`) and texture header queries (TXQ: PTX `txq` and `suq` of a
/// width, height or depth), as ptxas 13.5 emits them. Fields from
/// single-bit flips of ptxas's words (sm_75, sm_80, sm_90, sm_100) with
/// nvdisasm 13.5:
///
/// * SULD (0xb99 with the handle's constant-bank word, 0xf99 with a
///   uniform register) `SULD.D.BA.2D.128.STRONG.SM.TRAP R4, [R2], 0x0,
///   0x59`: the result in 16–23, the coordinate tuple in 24–31 (x in
///   bytes, then y, then z or the layer), the handle's bank 54–58 and word
///   40–53 (or a uniform register in 40–45, 40–47 from sm_100, whose
///   second register 48–55 is URZ and not printed), the clamp 59–60, the
///   dimension 61–63 (0 `1D`, 1 `1D_BUFFER`, 2 `1D_ARRAY`, 3 `2D`, 4
///   `2D_ARRAY`, 5 `3D`), 72 `.BA` (byte addressing: PTX `.b`), the size
///   73–75, order and scope 76–80, a predicate result 81–83 (PT, not
///   printed), the eviction priority 84–86 (1, the default), 91 the
///   uniform handle. 32–39 are clear.
///   Before sm_90 a handle computed in registers is read from a general
///   register in 64–71 (0x99a, `SULD.D.BA.1D.STRONG.SM.TRAP R0, [R6],
///   R4`; 40–58 clear).
/// * SUST (0xb9d, 0xf9d, 0x99e): SULD's fields, the data in 32–39, no
///   result.
/// * TXQ (0xb6f, 0xf6f) `TXQ RZ, R5, R5, TEX_HEADER_DIMENSION, 0x0, 0x58,
///   0x1`: a second result pair 64–71 (RZ), the result 16–23, the level of
///   detail 24–31, the query 62–63 (0 `TEX_HEADER_DIMENSION`), the
///   handle as SULD's, and the write mask 72–75 (0x1 the width, 0x2 the
///   height, 0x4 the depth: one component per query in ptxas's code).
///   Bit 59 is `.B` (a handle in a register: `TXQ.B`, 0x370) and 90
///   `.NODEP`. ptxas sets reuse flags on the level and the second pair,
///   which nvdisasm never prints.
///
/// Each dimension is its own form (the coordinate tuple's width follows
/// it, the data's the size modifier).
pub(super) fn surface_ops(v: &mut Vec<Form>, g: Generation) {
    // (load, store, dimension, registers of the coordinate tuple: x, then
    // y, then z or the layer; three are an aligned quad, as ptxas
    // allocates them).
    const DIMS: [(&str, &str, u64, u8); 5] = [
        ("SULD.D.BA.1D", "SUST.D.BA.1D", 0, 1),
        ("SULD.D.BA.1D_ARRAY", "SUST.D.BA.1D_ARRAY", 2, 2),
        ("SULD.D.BA.2D", "SUST.D.BA.2D", 3, 2),
        ("SULD.D.BA.2D_ARRAY", "SUST.D.BA.2D_ARRAY", 4, 4),
        ("SULD.D.BA.3D", "SUST.D.BA.3D", 5, 4),
    ];
    // Formatted stores (SUST.P: 0xb9b, 0xf9b; PTX `sust.p`), per
    // dimension: SUST's fields with 72–75 the components written instead
    // of `.BA` and the size (ptxas 13.5 on sm_75/80/90/120:
    // `SUST.P.2D.STRONG.SM.R.TRAP [R20], R10, 0x0, 0x58` =
    // 0x7000580a14007b9b / 0x000fe2000010a100, `SUST.P.1D.STRONG.SM.TRAP
    // [R16], R10, UR4, 0x0` = 0x1000040a10007f9b / 0x000fe2000810af00,
    // `SUST.P.2D.STRONG.SM.RG.IGN [R28], R26, UR4` = 0x60ff041a1c007f9b /
    // 0x000fe2000810a300).
    const FORMATTED: [(&str, u64, u8); 5] = [("SUST.P.1D", 0, 1), ("SUST.P.1D_ARRAY", 2, 2), ("SUST.P.2D", 3, 2), ("SUST.P.2D_ARRAY", 4, 4), ("SUST.P.3D", 5, 4)];
    let formatted_widths = |coords: u8| OperandWidths::ONE.source(0, Width::Regs(coords)).source(1, Width::ByMod(1, &COMPONENT_REGS));
    // A load's result and a store's data are the size; the handle after
    // them one word.
    let load_widths = |coords: u8| OperandWidths::ONE.result(Width::Size).source(0, Width::Regs(coords));
    let store_widths = |coords: u8| OperandWidths::all(Width::Size).source(0, Width::Regs(coords)).source(2, Width::Regs(1)).source(3, Width::Regs(1));
    // nvdisasm refuses a coordinate tuple of RZ (`[RZ]`: random instances).
    let addr = Slot::Addr { base: Some(f(24, 31)), wide: false, offset: None, scale: None, desc: None, show_desc: false, u32_base: false, offset_shift: 0, uniform: None, zero_base: false };
    let data = gpr(32, None, None);
    let leak = |v: Vec<(Field, u64)>| -> &'static [(Field, u64)] { Box::leak(v.into_boxed_slice()) };
    // Fields every surface access fixes; `load` the predicate result (PT)
    // and the clear data field.
    let access = |dim: u64, load: bool, uniform: bool, handle: &[(Field, u64)]| -> &'static [(Field, u64)] {
        let mut all = vec![(f(61, 63), dim), (f(72, 72), 1), (f(81, 83), if load { 7 } else { 0 }), (f(84, 86), 1), (f(87, 90), 0), (f(91, 91), u64::from(uniform)), (f(92, 104), 0)];
        if load {
            all.push((f(32, 39), 0));
        }
        all.extend_from_slice(handle);
        leak(all)
    };
    // A formatted store's: a store's, 72 being part of the components.
    let formatted = |dim: u64, uniform: bool, handle: &[(Field, u64)]| -> &'static [(Field, u64)] { leak(access(dim, false, uniform, handle).iter().copied().filter(|&(fl, _)| fl != f(72, 72)).collect()) };
    let query = |uniform: bool, handle: &[(Field, u64)]| -> &'static [(Field, u64)] {
        let mut all = vec![(f(32, 39), 0), (f(59, 61), 0), (f(62, 63), 0), (f(76, 90), 0), (f(91, 91), u64::from(uniform)), (f(92, 104), 0)];
        all.extend_from_slice(handle);
        leak(all)
    };
    let header = Slot::Text("TEX_HEADER_DIMENSION");
    let mask = Slot::Hex(f(72, 75));
    // ptxas sets reuse flags 0 and 2 on TXQ (bits 122 and 124; nvdisasm
    // prints none): those of the a and c slots.
    let second = gpr(64, None, Some(2));
    let level = gpr(24, None, Some(0));
    let zero = Slot::Text("0x0");
    if !g.wide_ur {
        let bank = Slot::Hex(f(54, 58));
        let word = Slot::Hex(f(40, 53));
        let handle_ur = Slot::Ur { field: f(40, 45), neg: None, abs: None, not: None };
        const UR_HANDLE: &[(Field, u64)] = &[(f(46, 58), 0)];
        const REG_HANDLE: &[(Field, u64)] = &[(f(40, 58), 0)];
        for (sms, scope) in [((75, 75), SURFACE_SCOPE_75), ((80, 90), SURFACE_SCOPE_80)] {
            // The formatted stores first: SUST's typed struct then has one
            // choice of `.P.<dim>` or `.D.BA.<dim>` and one of the scopes
            // (the generator merges the forms' modifiers in table order).
            let mods: &'static [ModField] = leak_mods(vec![scope, SURFACE_COMPONENTS, SURFACE_CLAMP]);
            for (st, dim, coords) in FORMATTED {
                let bank_sms = (sms.0, sms.1.min(89));
                v.push(Form { sms: bank_sms, ..g.form(st, 0xb9b, formatted(dim, false, &[]), mods, vec![addr, data, bank, word]) }.widths(formatted_widths(coords)));
                v.push(Form { nonzero: &[2], sms, ..g.form(st, 0xf9b, formatted(dim, true, UR_HANDLE), mods, vec![addr, data, handle_ur, zero]) }.widths(formatted_widths(coords)));
            }
            let mods: &'static [ModField] = leak_mods(vec![SURFACE_SIZE, scope, SURFACE_CLAMP]);
            for (ld, st, dim, coords) in DIMS {
                // The constant-bank forms stop at sm_89 (sm_90's code reads
                // every handle into a uniform register).
                let bank_sms = (sms.0, sms.1.min(89));
                v.push(Form { sms: bank_sms, ..g.form(ld, 0xb99, access(dim, true, false, &[]), mods, vec![RD, addr, bank, word]) }.widths(load_widths(coords)));
                v.push(Form { sms: bank_sms, ..g.form(st, 0xb9d, access(dim, false, false, &[]), mods, vec![addr, data, bank, word]) }.widths(store_widths(coords)));
                // A handle in a general register (its low word, 64–71):
                // before sm_90, for a handle computed in registers.
                // Never RZ (nvdisasm prints `???255`).
                v.push(Form { nonzero: &[2], sms: bank_sms, ..g.form(ld, 0x99a, access(dim, true, false, REG_HANDLE), mods, vec![RD, addr, gpr(64, None, None)]) }.widths(load_widths(coords)));
                v.push(Form { nonzero: &[2], sms: bank_sms, ..g.form(st, 0x99e, access(dim, false, false, REG_HANDLE), mods, vec![addr, data, gpr(64, None, None)]) }.widths(store_widths(coords)));
                v.push(Form { nonzero: &[2], sms, ..g.form(ld, 0xf99, access(dim, true, true, UR_HANDLE), mods, vec![RD, addr, handle_ur, zero]) }.widths(load_widths(coords)));
                v.push(Form { nonzero: &[2], sms, ..g.form(st, 0xf9d, access(dim, false, true, UR_HANDLE), mods, vec![addr, data, handle_ur, zero]) }.widths(store_widths(coords)));
            }
        }
        v.push(Form { sms: (75, 89), ..g.form("TXQ", 0xb6f, query(false, &[]), &[], vec![second, RD, level, header, bank, word, mask]) });
        // A handle computed in registers (`.B`, 59; 0x370): the handle's
        // low word and the level of detail a register pair, 40–58 clear
        // (ptxas 13.5, sm_75 and sm_80: `TXQ.B RZ, R0, R18,
        // TEX_HEADER_DIMENSION, 0x1` = 0x0800000012007370 /
        // 0x000fe200000001ff, R19 = 0). The handle is never RZ (nvdisasm
        // prints `???255`: random instances).
        const B_HANDLE: &[(Field, u64)] = &[(f(40, 58), 0)];
        let bound: Vec<(Field, u64)> = query(false, B_HANDLE).iter().map(|&(fl, v)| if fl == f(59, 61) { (fl, 1) } else { (fl, v) }).collect();
        v.push(Form { nonzero: &[2], sms: (75, 89), ..g.form("TXQ.B", 0x370, leak(bound), &[], vec![second, RD, level, header, mask]) }.widths(OperandWidths::ONE.source(0, Width::Regs(2))));
        v.push(Form { nonzero: &[4], sms: (75, 90), ..g.form("TXQ", 0xf6f, query(true, UR_HANDLE), &[], vec![second, RD, level, header, handle_ur, zero, mask]) });
    } else {
        let handle_ur = Slot::Ur { field: f(40, 47), neg: None, abs: None, not: None };
        // SULD and SUST: a second uniform register 48–55 (URZ, not
        // printed); TXQ: 48–55 clear and a `0x0` printed after the handle.
        const UR_ACCESS: &[(Field, u64)] = &[(f(48, 55), 255), (f(56, 58), 0)];
        const UR_QUERY: &[(Field, u64)] = &[(f(48, 55), 0), (f(56, 58), 0)];
        let formatted_mods: &'static [ModField] = leak_mods(vec![SURFACE_SCOPE_80, SURFACE_COMPONENTS, SURFACE_CLAMP]);
        for (st, dim, coords) in FORMATTED {
            v.push(Form { nonzero: &[2], ..g.form(st, 0xf9b, formatted(dim, true, UR_ACCESS), formatted_mods, vec![addr, data, handle_ur]) }.widths(formatted_widths(coords)));
        }
        let mods: &'static [ModField] = leak_mods(vec![SURFACE_SIZE, SURFACE_SCOPE_80, SURFACE_CLAMP]);
        for (ld, st, dim, coords) in DIMS {
            v.push(Form { nonzero: &[2], ..g.form(ld, 0xf99, access(dim, true, true, UR_ACCESS), mods, vec![RD, addr, handle_ur]) }.widths(load_widths(coords)));
            v.push(Form { nonzero: &[2], ..g.form(st, 0xf9d, access(dim, false, true, UR_ACCESS), mods, vec![addr, data, handle_ur]) }.widths(store_widths(coords)));
        }
        v.push(Form { nonzero: &[4], ..g.form("TXQ", 0xf6f, query(true, UR_QUERY), &[], vec![second, RD, level, header, handle_ur, zero, mask]) });
    }
}

/// A modifier list that lives as long as the table.
fn leak_mods(m: Vec<ModField>) -> &'static [ModField] {
    Box::leak(m.into_boxed_slice())
}
