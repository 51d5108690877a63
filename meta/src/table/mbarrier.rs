//! The asynchronous path of sm_90 and later: mbarrier operations (SYNCS),
//! bulk copies between global and shared memory that complete on an
//! mbarrier (UBLKCP) and the proxy fence before them (FENCE.VIEW.ASYNC).
//!
//! Words of ptxas 13.5 for the library corpus's `thrust_transform` (sm_90,
//! sm_100, sm_120) and `cub_device_scan` (sm_100, sm_120), with single-bit
//! flips under nvdisasm 13.5 on sm_90 and sm_100. The
//! uniform-register fields are 6 bits wide up to sm_90 (URZ 63) and 8 from
//! sm_100 (URZ 255), as everywhere else.

use super::{Generation, RD, f, gpr, pred_plain};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, PredShow, Slot};
use crate::isa::widths::{Declare, OperandWidths, Width};

/// The forms of this module.
pub(super) fn async_path(v: &mut Vec<Form>, g: Generation) {
    if !g.wide_ur && g.sms.1 < 90 {
        return;
    }
    let sms = (g.sms.0.max(90), g.sms.1);
    // FENCE.VIEW.ASYNC.S (0x3c6): makes the generic proxy's shared-memory
    // accesses visible to the asynchronous proxy (`fence.proxy.async
    // .shared::cta`; ptxas also puts one before `mbarrier.init`).
    // 0x00000000000073c6 on sm_90, 100, 120; no operands.
    v.push(Form { sms, ..g.form("FENCE.VIEW.ASYNC.S", 0x3c6, &[], &[], vec![]) });

    // A shared address that is one uniform register (no base register,
    // signed offset 40–63: bit flips on SYNCS.EXCH.64, sm_90 and sm_100).
    let uniform_addr = |lo: u8| Slot::Addr {
        base: None,
        wide: false,
        offset: Some(f(40, 63)),
        scale: None,
        desc: None,
        show_desc: false,
        uniform: Some(g.ur_field(lo)),
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    // A register plus a uniform register (`[R9+URZ]`, `[UR23]` with RZ):
    // base 24–31, uniform 64–, signed offset 40–63 (bit flips on
    // SYNCS.PHASECHK, sm_90 and sm_100).
    let mixed_addr = Slot::Addr {
        base: Some(f(24, 31)),
        wide: false,
        offset: Some(f(40, 63)),
        scale: None,
        desc: None,
        show_desc: false,
        uniform: Some(g.ur_field(64)),
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    let ur = |lo: u8| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };

    // SYNCS.EXCH.64 (0x5b2) URd, [URa+off], URb: stores the 64-bit word
    // URb:URb+1 into the mbarrier at URa (`mbarrier.init`, the word
    // computed from the count), its old value to URd (URZ from ptxas).
    // `SYNCS.EXCH.64 URZ, [UR8], UR4` = 0x00000004083f75b2 /
    // 0x...0008000100 on sm_90 (URZ 63), 0x0000000415ff75b2 with UR21 on
    // sm_100; bit 72 and 91 set; a uniform guard (`@UP0`).
    const EXCH_FIXED: &[(Field, u64)] = &[(f(72, 72), 1), (f(91, 91), 1)];
    const EXCH_FIXED6: &[(Field, u64)] = &[(f(22, 23), 0), (f(30, 31), 0), (f(38, 39), 0), (f(72, 72), 1), (f(91, 91), 1)];
    let exch_fixed = if g.wide_ur { EXCH_FIXED } else { EXCH_FIXED6 };
    // The old value and the stored word are pairs.
    let exch_widths = OperandWidths::ONE.result(Width::Regs(2)).source(1, Width::Regs(2));
    v.push(Form { sms, uniform_guard: true, ..g.form("SYNCS.EXCH.64", 0x5b2, exch_fixed, &[], vec![ur(16), uniform_addr(24), ur(32)]) }.widths(exch_widths));

    // SYNCS.ARRIVE.TRANS64 (0x9a7) Rd, [Ra+URc+off], Rb: one arrival on the
    // mbarrier that also expects Rb more transaction bytes
    // (`mbarrier.arrive.expect_tx`); bit 84 `.A1T0`: an arrival without
    // transactions (`mbarrier.arrive`, Rb RZ). Rd the barrier's state
    // before (RZ from ptxas). `SYNCS.ARRIVE.TRANS64 RZ, [UR9], R11` =
    // 0x0000000bffff79a7 / 0x...0008000009 on sm_90; `.A1T0 RZ,
    // [R16+URZ], RZ` = 0x000000ff10ff79a7 / 0x...00081000ff on sm_100.
    const A1T0: ModField = ModField { field: f(84, 84), names: &["", ".A1T0"], extra: None };
    const ARRIVE_FIXED: &[(Field, u64)] = &[(f(91, 91), 1)];
    const ARRIVE_FIXED6: &[(Field, u64)] = &[(f(70, 71), 0), (f(91, 91), 1)];
    let arrive_fixed = if g.wide_ur { ARRIVE_FIXED } else { ARRIVE_FIXED6 };
    // The state is a 64-bit pair.
    let arrive_widths = OperandWidths::ONE.result(Width::Regs(2));
    v.push(Form { sms, ..g.form("SYNCS.ARRIVE.TRANS64", 0x9a7, arrive_fixed, &[A1T0], vec![RD, mixed_addr, gpr(32, None, None)]) }.widths(arrive_widths));

    // SYNCS.PHASECHK.TRANS64 (0x5a7) Pd, [Ra+URc+off], Rb: Pd true when the
    // mbarrier's phase of parity Rb has completed; bit 72 `.TRYWAIT` (the
    // thread may be suspended a while first: `mbarrier.try_wait`). The
    // operation field (PHASECHK = 1) is 70–71 on sm_90, 76–77 from sm_100
    // (0 and 3 print `???0`, `???3`). Pd 81–83.
    // `SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R9+URZ], R0` =
    // 0x00000000090075a7 / 0x...000800017f on sm_90; `P0, [UR23], R2` =
    // 0x00000002ff0075a7 / 0x...0008001117 on sm_100.
    const TRYWAIT: ModField = ModField { field: f(72, 72), names: &["", ".TRYWAIT"], extra: None };
    const PHASECHK: &[(Field, u64)] = &[(f(76, 77), 1), (f(91, 91), 1)];
    const PHASECHK6: &[(Field, u64)] = &[(f(70, 71), 1), (f(91, 91), 1)];
    let phasechk = if g.wide_ur { PHASECHK } else { PHASECHK6 };
    v.push(Form {
        sms,
        ..g.form("SYNCS.PHASECHK.TRANS64", 0x5a7, phasechk, &[TRYWAIT], vec![pred_plain(81, PredShow::Always), mixed_addr, gpr(32, None, None)])
    });

    // UBLKCP (0x3ba) [URd], [URs], URn: a bulk copy of URn's low 16 bits
    // times 16 bytes (ptxas: the byte count >> 4 through `UPRMT 0x5410`)
    // from URs:URs+1 to URd, completing its bytes as transactions on the
    // mbarrier at URd+1 (`.S.G`, global to shared: `cp.async.bulk
    // .shared::cta.global.mbarrier::complete_tx::bytes`), or from shared
    // memory at URs to global memory at URd:URd+1 in the open bulk group
    // (`.G.S`); the direction 73–74 (0 `.G.G` and 3 `.S.S` by bit flips, sm_90). Bit 84 `.DST_G_BYTE_MASK`: a
    // byte-masked store (`.cp_mask`). Destination 32–, source 24–, size
    // 64–. No address offsets (flips of 40–63 change nothing on sm_90).
    // Bit 75 `.MULTICAST`, 76 a descriptor operand, 81–82 an L2 hint, 83
    // `.SEQUENCED` (flips, sm_90): kept clear. `UBLKCP.S.G [UR8], [UR4], UR15` = 0x00000008040073ba /
    // 0x...000800020f on sm_90; `.G.S [UR6], [UR34], UR24` =
    // 0x00000006220073ba / 0x...0008000418 on sm_100.
    const DIRECTION: ModField = ModField { field: f(73, 74), names: &[".G.G", ".S.G", ".G.S", ".S.S"], extra: None };
    const BYTE_MASK: ModField = ModField { field: f(84, 84), names: &["", ".DST_G_BYTE_MASK"], extra: None };
    const BLKCP_FIXED: &[(Field, u64)] = &[(f(75, 76), 0), (f(81, 83), 0), (f(91, 91), 1)];
    // sm_90 prints no `.DST_G_BYTE_MASK` (random instances under nvdisasm):
    // bit 84 kept clear there.
    const BLKCP_FIXED6: &[(Field, u64)] = &[(f(30, 31), 0), (f(38, 39), 0), (f(70, 71), 0), (f(75, 76), 0), (f(81, 84), 0), (f(91, 91), 1)];
    let (blkcp_fixed, blkcp_mods): (_, &'static [ModField]) = if g.wide_ur { (BLKCP_FIXED, &[DIRECTION, BYTE_MASK]) } else { (BLKCP_FIXED6, &[DIRECTION]) };
    let whole = |lo: u8| Slot::Addr {
        base: None,
        wide: false,
        offset: None,
        scale: None,
        desc: None,
        show_desc: false,
        uniform: Some(g.ur_field(lo)),
        zero_base: true, u32_base: false, offset_shift: 0,
    };
    // The destination with its mbarrier (a pair) and the 64-bit source.
    let blkcp_widths = OperandWidths::ONE.source(0, Width::Regs(2)).source(1, Width::Regs(2));
    v.push(Form { sms, uniform_guard: true, ..g.form("UBLKCP", 0x3ba, blkcp_fixed, blkcp_mods, vec![whole(32), whole(24), ur(64)]) }.widths(blkcp_widths));

    // UTMACMDFLUSH (0x9b7): closes the open bulk group
    // (`cp.async.bulk.commit_group`). 0x00000000000079b7 on sm_90, 100,
    // 120; no operands; a uniform guard; bit 91 set makes another
    // instruction (flips under nvdisasm, sm_100).
    const CLEAR_91: &[(Field, u64)] = &[(f(91, 91), 0)];
    v.push(Form { sms, uniform_guard: true, ..g.form("UTMACMDFLUSH", 0x9b7, CLEAR_91, &[], vec![]) });

    // SYNCS.CCTL.IVALL (0x9b1): invalidates the cached mbarrier state
    // (ptxas puts it around cub_device_scan's mbarrier waits); bit 72
    // `.WBALL`, bit 73 an unnamed operation, bit 91 an address form (flips
    // under nvdisasm on sm_90, 100, 120). 0x00000000000079b1.
    const CCTL_OP: ModField = ModField { field: f(72, 72), names: &[".IVALL", ".WBALL"], extra: None };
    const CCTL_FIXED: &[(Field, u64)] = &[(f(73, 73), 0), (f(91, 91), 0)];
    v.push(Form { sms, ..g.form("SYNCS.CCTL", 0x9b1, CCTL_FIXED, &[CCTL_OP], vec![]) });

    // UGETNEXTWORKID (0x3ca, sm_100+) [URa], [URa+1]: cluster launch
    // control's `try_cancel`, its response to shared memory at URa and its
    // bytes completing on the mbarrier at URa+1; bit 72 `.BROADCAST` (the
    // multicast form), 91 set. `UGETNEXTWORKID.SELFCAST [UR8], [UR9]` =
    // 0x00000000080073ca / 0x...0008000000 on sm_100 and sm_120 (flips of
    // 24–31 move both registers).
    if g.wide_ur {
        const CAST: ModField = ModField { field: f(72, 72), names: &[".SELFCAST", ".BROADCAST"], extra: None };
        const SET_91: &[(Field, u64)] = &[(f(91, 91), 1)];
        // The response's address and the mbarrier's: one pair.
        let pair = OperandWidths::ONE.source(0, Width::Regs(2));
        v.push(Form { sms: (sms.0.max(100), sms.1), uniform_guard: true, ..g.form("UGETNEXTWORKID", 0x3ca, SET_91, &[CAST], vec![whole(24), Slot::NextUr(0)]) }.widths(pair));
        // UTCATOMSWS (0x5e3, sm_100 only: nvdisasm refuses it on sm_90 and
        // sm_120): ptxas 13.5's `tcgen05.alloc` claims tensor-memory columns
        // with `UTCATOMSWS.FIND_AND_SET.ALIGN UP0, UR4, UR8` (0x00000008000475e3
        // / 0x000e220008000800): the success predicate 81–83, the result 16–23,
        // the request 32–39; bit 75 `.ALIGN`, 85 `.2CTA`, 91 set. Flips of
        // 24–31, 40–74, 76–80, 84, 86–90 print nothing (kept 0).
        const TC_FIXED: &[(Field, u64)] = &[(f(24, 31), 0), (f(40, 74), 0), (f(76, 80), 0), (f(84, 84), 0), (f(86, 90), 0), (f(91, 91), 1)];
        const TC_CTA: ModField = ModField { field: f(85, 85), names: &[".FIND_AND_SET", ".2CTA.FIND_AND_SET"], extra: None };
        const TC_ALIGN: ModField = ModField { field: f(75, 75), names: &["", ".ALIGN"], extra: None };
        let ur = |lo| Slot::Ur { field: g.ur_field(lo), neg: None, abs: None, not: None };
        let up = Slot::Pred { uniform: true, field: f(81, 83), not: None, show: PredShow::Always };
        v.push(Form { sms: (100, 100), uniform_guard: true, ..g.form("UTCATOMSWS", 0x5e3, TC_FIXED, &[TC_CTA, TC_ALIGN], vec![up, ur(16), ur(32)]) });
    }
}
