//! Integer forms for PTX's bit-field, dot-product, pack and warp-match
//! instructions: BMSK (`bmsk`, `bfi`), IDP.4A / IDP.2A (`dp4a`, `dp2a`),
//! I2IP (`cvt.pack.sat`), MATCH (`match.sync`), VABSDIFF (`sad`), VABSDIFF4
//! (`vabsdiff4`), P2R and R2P. Fields from single-bit
//! flips and field enumerations of the words ptxas emits for ZLUDA's tests
//! (sm_80, sm_90, sm_120, nvdisasm 13.5).

use super::{Generation, NONE, RD, alu, cbank, f, gpr, pred_plain};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, PredShow, Slot};

/// The forms of this module.
pub(super) fn bit_ops(v: &mut Vec<Form>, g: Generation) {
    let a = gpr(24, None, Some(0));
    let b = gpr(32, None, Some(1));
    // ---- BMSK (0x01b): a mask of b bits from bit a; bit 75 `.W` (wrap).
    // b in the ALU forms: a register (0x21b), an immediate (0x81b, 32–63,
    // printed unsigned: ptxas 13.5 words of the library corpus, `BMSK R0,
    // RZ, 0x4`), a constant (0xa1b, sm_75–sm_90: `@P2 BMSK R12, RZ,
    // c[0x0][0x178]` of cub's radix sort on sm_80 and sm_86) or a uniform
    // register (0xc1b: `BMSK R8, RZ, UR4` written, on sm_90 and sm_120;
    // bit 75 `.W` measured on the constant and uniform forms too).
    const WRAP: ModField = ModField { field: f(75, 75), names: &["", ".W"], extra: None };
    alu(v, g, "BMSK", 0x01b, &[], &[WRAP], &[RD, a], None, false, false, &[]);
    let imm = Slot::Imm32 { signed: false };
    // The uniform twins UBMSK (0x29b, 0x89b; bit 91): bit flips on sm_75,
    // sm_80, sm_90, sm_100 and sm_120.
    const UNIFORM: &[(Field, u64)] = &[(f(91, 91), 1)];
    let ur = |lo| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
    for (opcode, b) in [(0x29b, ur(32)), (0x89b, imm)] {
        v.push(Form { uniform_guard: true, ..g.form("UBMSK", opcode, UNIFORM, &[WRAP], vec![ur(16), ur(24), b]) });
    }
    // ---- VABSDIFF (0x214, sm_75–sm_100; sm_120 refuses it): d = |a - b| + c
    // (`sad`); bit 73 signedness (clear `.U32`), a predicate result 81–83
    // printed after d when not PT. Other bits (74–80, 84–90) print nothing
    // (kept 0). Bit flips of a corpus word (sm_75, sm_80, sm_90, sm_100).
    const SIGNED: ModField = ModField { field: f(73, 73), names: &[".U32", ""], extra: None };
    let vabsdiff = g.form("VABSDIFF", 0x214, &[], &[SIGNED], vec![RD, pred_plain(81, PredShow::UnlessTrue), a, b, gpr(64, None, Some(2))]);
    v.push(Form { sms: (vabsdiff.sms.0, vabsdiff.sms.1.min(100)), ..vabsdiff });
    // ---- VABSDIFF4 (0x215, sm_75–sm_100; nvdisasm refuses it on sm_120):
    // the absolute differences of the four bytes, `.ACC` (bit 75) their
    // sum plus c (`vabsdiff4.u32.u32.u32{.add}`); bit 73 the signedness
    // (clear `.U8`, the only one ptxas emits), the predicate result 81–83
    // as VABSDIFF's; 72, 74, 76–80, 84–90 print nothing (kept 0). Bit flips
    // of ptxas's words on sm_75, sm_80, sm_90 and sm_100.
    const SIGNED_BYTES: ModField = ModField { field: f(73, 73), names: &[".U8", ""], extra: None };
    const ACC: ModField = ModField { field: f(75, 75), names: &["", ".ACC"], extra: None };
    let vabsdiff4 = g.form("VABSDIFF4", 0x215, &[], &[SIGNED_BYTES, ACC], vec![RD, pred_plain(81, PredShow::UnlessTrue), a, b, gpr(64, None, Some(2))]);
    v.push(Form { sms: (vabsdiff4.sms.0, vabsdiff4.sms.1.min(100)), ..vabsdiff4 });
    // ---- P2R (0x803): the predicate register PR (no bits) masked by an
    // immediate (32–63, printed signed up to sm_89, unsigned from sm_90 as
    // R2P's; oracle), into byte 76–77 of a (24–31, its bits elsewhere
    // kept); `.B1`…`.B3` name the byte. nvdisasm refuses a reuse flag on
    // the immediate's position (oracle). Bit flips of corpus words (sm_75,
    // sm_90, sm_120).
    const BYTE: ModField = ModField { field: f(76, 77), names: &["", ".B1", ".B2", ".B3"], extra: None };
    let p2r = |signed| g.form("P2R", 0x803, &[], &[BYTE], vec![RD, Slot::Text("PR"), a, Slot::Imm32 { signed }]);
    if g.wide_ur {
        v.push(p2r(false));
    } else {
        v.push(Form { sms: (75, 89), ..p2r(true) });
        v.push(Form { sms: (90, 90), ..p2r(false) });
    }
    // ---- UP2UR (0x883): P2R of the uniform predicates (UPR) into a
    // uniform register: a 24, the unsigned mask 32–63, the byte 76–77, bit
    // 91 set (clear is refused). nvdisasm 13.5 prints it on every measured
    // SM; bit flips on SM80, SM90 and SM120 (ptxas emits it for predicates
    // it keeps in the uniform datapath: fuzz/findings).
    let ur = |lo: u8| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
    const UP2UR_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
    v.push(Form { uniform_guard: true, ..g.form("UP2UR", 0x883, UP2UR_FIXED, &[BYTE], vec![ur(16), Slot::Text("UPR"), ur(24), Slot::Imm32 { signed: false }]) });
    // ---- R2P (0x804): the reverse: the bits of byte 76–77 of a (printed
    // after it, `R8.reuse.B1`) masked by the immediate into PR; 16–23
    // print nothing (kept 0). Bit flips of a corpus word (sm_120; the same
    // on sm_75, sm_90, sm_100).
    const R2P_BYTE: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 0, slot: 1 }];
    v.push(Form { operand_suffixes: R2P_BYTE, ..g.form("R2P", 0x804, &[], &[BYTE], vec![Slot::Text("PR"), a, Slot::Imm32 { signed: false }]) });
    // ---- IDP (0x226): d = c + dot(a, b); bit 76 chooses 2A (bit 77 `.HI`
    // half of b) over 4A; signedness of a 73, of b 74; `-c` 75.
    let c = gpr(64, Some(75), Some(2));
    const A8: ModField = ModField { field: f(73, 73), names: &[".U8", ".S8"], extra: None };
    const B8: ModField = ModField { field: f(74, 74), names: &[".U8", ".S8"], extra: None };
    const A16: ModField = ModField { field: f(73, 73), names: &[".U16", ".S16"], extra: None };
    const HALF: ModField = ModField { field: f(77, 77), names: &[".LO", ".HI"], extra: None };
    const FOUR: &[(Field, u64)] = &[(f(76, 77), 0)];
    const TWO: &[(Field, u64)] = &[(f(76, 76), 1)];
    v.push(g.form("IDP.4A", 0x226, FOUR, &[A8, B8], vec![RD, a, b, c]));
    v.push(g.form("IDP.2A", 0x226, TWO, &[HALF, A16, B8], vec![RD, a, b, gpr(64, Some(75), Some(2))]));
    // b from a constant bank (0xa26, up to sm_90) or a uniform register
    // (0xc26), the other fields as above: ptxas 13.5 sums the bytes of
    // `vadd4.add`'s operands with a 0x01010101 multiplier there
    // (`IDP.4A.U8.U8 R6, R6, c[0x2][0x0], RZ` on sm_75 and sm_80,
    // `IDP.4A.U8.U8 R0, R0, UR6, R7` on sm_90 to sm_120; nvdisasm 13.5).
    for (opcode, b) in [(0xa26, cbank(None, None, None)), (0xc26, g.uniform_b(None, None))] {
        if g.wide_ur && opcode == 0xa26 {
            continue;
        }
        v.push(g.form("IDP.4A", opcode, FOUR, &[A8, B8], vec![RD, a, b, c]));
        v.push(g.form("IDP.2A", opcode, TWO, &[HALF, A16, B8], vec![RD, a, b, gpr(64, Some(75), Some(2))]));
    }
    // ---- I2I (0x238): b (a register 32–39, or up to sm_90 a constant
    // bank) saturated from s32 to 8 or 16 bits, ptxas's `cvt.sat.s8.s32`;
    // result size and sign 76–77 (`.U8`, `.S8`, `.U16`, `.S16`), the source
    // always `.S32.SAT`. nvdisasm ignores the other bits (flips of ptxas's
    // words, sm_75, 80, 120; the constant bank by bit 11 up to sm_90, refused
    // from sm_100 as the ALU instructions' are).
    const I2I_TO: ModField = ModField { field: f(76, 77), names: &[".U8", ".S8", ".U16", ".S16"], extra: None };
    v.push(Form { suffix: ".S32.SAT", ..g.form("I2I", 0x238, NONE, &[I2I_TO], vec![RD, gpr(32, None, Some(1))]) });
    if !g.wide_ur {
        v.push(Form { suffix: ".S32.SAT", ..g.form("I2I", 0xa38, NONE, &[I2I_TO], vec![RD, cbank(None, None, None)]) });
    }
    // A uniform-register b (0xc38 with bit 91 set, which nvdisasm refuses
    // clear; every SM: `I2I.U16.S32.SAT R38, UR4`, ptxas 13.5 on a
    // generated program, seed 9901471, sm_80).
    v.push(Form { suffix: ".S32.SAT", ..g.form("I2I", 0xc38, UNIFORM, &[I2I_TO], vec![RD, ur(32)]) });
    // ---- I2IP (0x239): a and b saturated to 8 bits and packed with the
    // high half of c; bit 76 signedness. Bits 72–73 select a half of c
    // (`R6.H1`: an operand suffix, not modelled: kept 0); 77–78 the
    // result size (16, 2, 4 bits: not modelled); nvdisasm ignores 74–75,
    // which ptxas sets in some words: those words print like the others and
    // stay undecoded, so that text reads back to one word.
    // From sm_90 bit 74 is `.SAT` (clear, nvdisasm prints none; oracle).
    const PACK: &[(Field, u64)] = &[(f(72, 75), 0), (f(77, 78), 0)];
    const PACK_90: &[(Field, u64)] = &[(f(72, 73), 0), (f(75, 75), 0), (f(77, 78), 0)];
    const SIGN: ModField = ModField { field: f(76, 76), names: &[".U8", ".S8"], extra: None };
    const SAT: ModField = ModField { field: f(74, 74), names: &[".S32", ".S32.SAT"], extra: None };
    let c = gpr(64, None, Some(2));
    // 16-bit lanes (`cvt.pack.sat.s16.s32`, c RZ): bit 77 set (78 `.U2`/
    // `.U4` sizes, not modelled), 76 the signedness (flips of ptxas's
    // `I2IP.S16.S32.SAT` words, sm_80 and sm_120).
    const PACK16: &[(Field, u64)] = &[(f(72, 75), 0), (f(77, 78), 1)];
    const PACK16_90: &[(Field, u64)] = &[(f(72, 73), 0), (f(75, 75), 0), (f(77, 78), 1)];
    const SIGN16: ModField = ModField { field: f(76, 76), names: &[".U16", ".S16"], extra: None };
    if g.wide_ur {
        v.push(g.form("I2IP", 0x239, PACK_90, &[SIGN, SAT], vec![RD, a, b, c]));
        v.push(g.form("I2IP", 0x239, PACK16_90, &[SIGN16, SAT], vec![RD, a, b, c]));
    } else {
        v.push(Form { sms: (75, 89), suffix: ".S32.SAT", ..g.form("I2IP", 0x239, PACK, &[SIGN], vec![RD, a, b, c]) });
        v.push(Form { sms: (90, 90), ..g.form("I2IP", 0x239, PACK_90, &[SIGN, SAT], vec![RD, a, b, c]) });
        v.push(Form { sms: (75, 89), suffix: ".S32.SAT", ..g.form("I2IP", 0x239, PACK16, &[SIGN16], vec![RD, a, b, c]) });
        v.push(Form { sms: (90, 90), ..g.form("I2IP", 0x239, PACK16_90, &[SIGN16, SAT], vec![RD, a, b, c]) });
    }
    // ---- MATCH (0x3a1): the lanes holding the same value as a; bit 73
    // `.U64`; bit 79 `.ANY` (else `.ALL`, with a predicate result 81–83).
    const U64: ModField = ModField { field: f(73, 73), names: &["", ".U64"], extra: None };
    const ANY: &[(Field, u64)] = &[(f(79, 79), 1), (f(81, 83), 7)];
    const ALL: &[(Field, u64)] = &[(f(79, 79), 0)];
    // Its source has no reuse flag (oracle). sm_75 has the same layout
    // (ptxas 13.5: `MATCH.ANY R5, R0` is 0x00000000000573a1,
    // 0x000e2400000e8000 there).
    let src = gpr(24, None, None);
    v.push(g.form("MATCH.ANY", 0x3a1, ANY, &[U64], vec![RD, src]));
    v.push(g.form("MATCH.ALL", 0x3a1, ALL, &[U64], vec![pred_plain(81, PredShow::Always), RD, src]));
}
