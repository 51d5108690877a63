//! Asynchronous copies (sm_80+): LDGSTS, global memory to shared memory
//! without a register (`cp.async`), and DEPBAR.LE, the wait for a
//! scoreboard's count of outstanding copies (`cp.async.wait_group`).
//! Single-bit flips and field enumerations of the words ptxas emits for
//! ZLUDA's cp_async test and variants of it (sm_80, sm_90, sm_100,
//! sm_120; nvdisasm 13.5).

use super::{Generation, f, pred};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, PredShow, Slot, UNMEASURED as U};

/// The forms of this module.
pub(super) fn async_copies(v: &mut Vec<Form>, g: Generation) {
    ldgsts(v, g);
    depbar(v, g);
}

/// LDGSTS (0xfae): the shared destination `[R7+0x10]` (base 16–23, signed
/// offset 44–63) then the global source `desc[UR4][R4.64+0x4]` (pair 24–31,
/// signed offset 32–43, descriptor 64–, printed from sm_90; with the
/// descriptor flag 76 clear the uniform register is added to the address
/// instead: not modelled), and the predicate 87–90 (printed unless PT:
/// false copies nothing and zero-fills). Bit 82 `.ZFILL`: the low bits of
/// the source address (below the size) count the bytes zero-filled at the
/// end (ptxas encodes `cp.async … 16, 12` as `[R4.64+0x4]`). Bit 81 clear
/// is `.BYPASS` (`cp.async.cg`); eviction 84–86; a cache hint (`.LTC64B`,
/// `.LTC128B`, `.LTC256B`) 71–72 (72–73 from sm_100). Size 73–75 (4
/// nothing, 5 `.64`, 6 `.128`; 74–75 from sm_100: 0, 1, 2). Memory order
/// 77–80 kept 0. Bits 70 (up to sm_90) and 83 (from sm_100) set, 91 set.
///
/// A zero shared base prints `[RZ]` without offset and the offset signed
/// otherwise (`[-0x1]`, unlike other absolute addresses): only `[RZ]` is
/// modelled (a form with that text).
fn ldgsts(v: &mut Vec<Form>, g: Generation) {
    const BYPASS: ModField = ModField { field: f(81, 81), names: &[".BYPASS", ""], extra: None };
    const EVICT: ModField = ModField { field: f(84, 86), names: &[".EF", "", U, ".LU", U, ".NA"], extra: None };
    const ZFILL: ModField = ModField { field: f(82, 82), names: &["", ".ZFILL"], extra: None };
    const HINT_80: ModField = ModField { field: f(71, 72), names: &["", ".LTC64B", ".LTC128B", ".LTC256B"], extra: None };
    const HINT_100: ModField = ModField { field: f(72, 73), names: &["", ".LTC64B", ".LTC128B", ".LTC256B"], extra: None };
    const SIZE_80: ModField = ModField { field: f(73, 75), names: &[U, U, U, U, "", ".64", ".128"], extra: None };
    const SIZE_100: ModField = ModField { field: f(74, 75), names: &["", ".64", ".128"], extra: None };
    const FIXED_80: &[(Field, u64)] = &[(f(70, 70), 1), (f(76, 76), 1), (f(77, 80), 0), (f(91, 91), 1)];
    const FIXED_100: &[(Field, u64)] = &[(f(76, 76), 1), (f(77, 80), 0), (f(83, 83), 1), (f(91, 91), 1)];
    const ZERO_80: &[(Field, u64)] = &[(f(16, 23), 0xff), (f(44, 63), 0), (f(70, 70), 1), (f(76, 76), 1), (f(77, 80), 0), (f(91, 91), 1)];
    const ZERO_100: &[(Field, u64)] = &[(f(16, 23), 0xff), (f(44, 63), 0), (f(76, 76), 1), (f(77, 80), 0), (f(83, 83), 1), (f(91, 91), 1)];
    let shared = Slot::Addr { base: Some(f(16, 23)), wide: false, offset: Some(f(44, 63)), scale: None, desc: None, show_desc: false, uniform: None, zero_base: false, u32_base: false, offset_shift: 0 };
    let global = |show_desc: bool| Slot::Addr {
        base: Some(f(24, 31)),
        wide: true,
        offset: Some(f(32, 43)),
        scale: None,
        desc: Some(g.ur_field(64)),
        show_desc,
        uniform: None,
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    let valid = pred(87, PredShow::UnlessTrue);
    type Variant = ((u16, u16), bool, [&'static [(Field, u64)]; 2], &'static [ModField]);
    let variants: &[Variant] = if g.wide_ur {
        &[((100, 120), true, [FIXED_100, ZERO_100], &[BYPASS, EVICT, HINT_100, SIZE_100, ZFILL])]
    } else {
        const MODS: &[ModField] = &[BYPASS, EVICT, HINT_80, SIZE_80, ZFILL];
        &[((80, 89), false, [FIXED_80, ZERO_80], MODS), ((90, 90), true, [FIXED_80, ZERO_80], MODS)]
    };
    for &(sms, show_desc, [fixed, zero], mods) in variants {
        // `[RZ]` first: its text also reads as an address with a zero base, which the other form refuses.
        v.push(Form { sms, ..g.form("LDGSTS.E", 0xfae, zero, mods, vec![Slot::Text("[RZ]"), global(show_desc), valid]) });
        v.push(Form { sms, ..g.form("LDGSTS.E", 0xfae, fixed, mods, vec![shared, global(show_desc), valid]) });
    }
}

/// DEPBAR.LE (0x91a): wait until scoreboard 44–46 (SB0–SB5; 6 and 7 print
/// `INVALIDn`; the same on sm_75) counts at most 38–43 (hex) outstanding operations; bit 47
/// set (clear: a plain DEPBAR), 32–37 a list of further scoreboards
/// (`, {0}`; kept 0). The scoreboard prints as a fixed text per form.
fn depbar(v: &mut Vec<Form>, g: Generation) {
    const SCOREBOARDS: [&str; 6] = ["SB0", "SB1", "SB2", "SB3", "SB4", "SB5"];
    const FIXED: [&[(Field, u64)]; 6] = [
        &[(f(32, 37), 0), (f(44, 46), 0), (f(47, 47), 1)],
        &[(f(32, 37), 0), (f(44, 46), 1), (f(47, 47), 1)],
        &[(f(32, 37), 0), (f(44, 46), 2), (f(47, 47), 1)],
        &[(f(32, 37), 0), (f(44, 46), 3), (f(47, 47), 1)],
        &[(f(32, 37), 0), (f(44, 46), 4), (f(47, 47), 1)],
        &[(f(32, 37), 0), (f(44, 46), 5), (f(47, 47), 1)],
    ];
    for (sb, fixed) in SCOREBOARDS.iter().zip(FIXED) {
        v.push(g.form("DEPBAR.LE", 0x91a, fixed, &[], vec![Slot::Text(sb), Slot::Hex(f(38, 43))]));
    }
}
