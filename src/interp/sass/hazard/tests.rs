//! Hand-built instruction sequences: what each rule of the checker flags
//! and accepts. Latencies come from the measured tables, so the sequences
//! read them instead of repeating numbers.

use super::*;
use crate::isa::ctrl::Ctrl;
use crate::isa::parse::parse_inst;
use crate::sched::info::LATE_READ_CYCLES;
use crate::sched::latency::{Class, File};

/// One instruction from its listing text and control prefix.
fn inst(sm: u16, ctrl: &str, text: &str) -> Inst {
    let ctrl = Ctrl::parse(ctrl).unwrap_or_else(|e| panic!("{ctrl}: {}", e.0));
    parse_inst(text, Sm::new(sm), 0, ctrl).unwrap_or_else(|e| panic!("`{text}`: {}", e.0))
}

/// Runs a sequence on a fresh warp; the index and message of the first hazard.
fn run(sm: u16, code: &[(&str, &str)]) -> Result<(), (usize, String)> {
    let mut warp = WarpHazards::new(Sm::new(sm));
    for (k, (ctrl, text)) in code.iter().enumerate() {
        let i = inst(sm, ctrl, text);
        warp.issue(&HazardInfo::of(&i, Sm::new(sm)), &i).map_err(|m| (k, m))?;
    }
    Ok(())
}

fn names(units: &[u16]) -> Vec<String> {
    units.iter().map(|u| HazardInfo::unit_name(*u)).collect()
}

#[test]
fn operands_are_classified_with_their_widths() {
    let sm = Sm::new(80);
    let i = inst(80, "[B------:R-:W-:-:S04]", "IMAD.WIDE R2, R7, 0x4, R4 ;");
    let h = HazardInfo::of(&i, sm);
    assert_eq!((names(h.reads()), names(h.writes()), h.class()), (vec!["R7".into(), "R4".into(), "R5".into()], vec!["R2".into(), "R3".into()], Class::ImadWide));
    let i = inst(80, "[B------:R-:W-:-:S04]", "DFMA R4, R6, R8, R10 ;");
    assert_eq!(names(HazardInfo::of(&i, sm).reads()), ["R6", "R7", "R8", "R9", "R10", "R11"]);
    assert_eq!(names(HazardInfo::of(&i, sm).writes()), ["R4", "R5"]);
    // The descriptor nvdisasm does not print on sm_80 is UR4.
    let i = inst(80, "[B------:R-:W2:-:S04]", "LDG.E.128 R8, [R2.64] ;");
    assert_eq!(names(HazardInfo::of(&i, sm).reads()), ["R2", "R3", "UR4", "UR5"]);
    assert_eq!(names(HazardInfo::of(&i, sm).writes()), ["R8", "R9", "R10", "R11"]);
    let i = inst(80, "[B------:R-:W-:-:S04]", "@!P1 STG.E.64 [R2.64], R6 ;");
    let h = HazardInfo::of(&i, sm);
    assert_eq!((names(h.reads()), h.writes().len(), h.guard().map(HazardInfo::unit_name)), (vec!["R2".into(), "R3".into(), "UR4".into(), "UR5".into(), "R6".into(), "R7".into()], 0, Some("P1".to_string())));
    let i = inst(80, "[B------:R-:W-:-:S04]", "ISETP.GE.U32.AND P0, PT, R2, UR6, PT ;");
    let h = HazardInfo::of(&i, sm);
    assert_eq!((names(h.reads()), names(h.writes())), (vec!["R2".into(), "UR6".into()], vec!["P0".into()]));
    let i = inst(80, "[B------:R-:W-:-:S04]", "F2F.F64.F32 R8, R17 ;");
    assert_eq!((names(HazardInfo::of(&i, sm).reads()), names(HazardInfo::of(&i, sm).writes())), (vec!["R17".into()], vec!["R8".into(), "R9".into()]));
    let i = inst(80, "[B------:R-:W-:-:S04]", "IADD3.X R5, RZ, R5, RZ, P1, !PT ;");
    assert_eq!(names(HazardInfo::of(&i, sm).reads()), ["R5", "P1"]);
}

#[test]
fn fixed_latency_needs_its_stall_cycles() {
    let need = latency::checking_table(Sm::new(80)).latency(File::R, Class::Alu, Class::Alu);
    assert!((1..16).contains(&need), "measured IADD3 → IADD3 latency on sm_80: {need}");
    let producer = format!("[B------:R-:W-:-:S{need:02}]");
    assert_eq!(run(80, &[(&producer, "IADD3 R4, R2, R3, RZ ;"), ("[B------:R-:W-:-:S01]", "IADD3 R5, R4, 0x1, RZ ;")]), Ok(()));
    let short = format!("[B------:R-:W-:-:S{:02}]", need - 1);
    let err = run(80, &[(&short, "IADD3 R4, R2, R3, RZ ;"), ("[B------:R-:W-:-:S01]", "IADD3 R5, R4, 0x1, RZ ;")]).unwrap_err();
    assert_eq!(err, (1, format!("R4 read {} cycles after IADD3 (needs {need})", need - 1)));
    // Stalls of instructions in between count.
    let one = "[B------:R-:W-:-:S01]";
    let mut code = vec![(one, "IADD3 R4, R2, R3, RZ ;")];
    code.extend(std::iter::repeat_n((one, "IADD3 R9, R2, R3, RZ ;"), usize::from(need) - 1));
    code.push((one, "IADD3 R5, R4, 0x1, RZ ;"));
    assert_eq!(run(80, &code), Ok(()));
    code.remove(1);
    assert!(run(80, &code).is_err());
    // Predicates too.
    let p_need = latency::checking_table(Sm::new(80)).latency(File::P, Class::Alu, Class::Alu);
    let short = format!("[B------:R-:W-:-:S{:02}]", p_need - 1);
    let err = run(80, &[(&short, "ISETP.NE.AND P0, PT, R2, RZ, PT ;"), (one, "@P0 IADD3 R5, R4, 0x1, RZ ;")]).unwrap_err();
    assert!(err.1.starts_with("P0 read"), "{err:?}");
}

#[test]
fn scoreboards_cover_variable_latency() {
    let ldg = ("[B------:R-:W2:-:S01]", "LDG.E R2, [R2.64] ;");
    // RAW: the consumer waits on scoreboard 2.
    assert_eq!(run(80, &[ldg, ("[B--2---:R-:W-:-:S04]", "IADD3 R4, R2, 0x1, RZ ;")]), Ok(()));
    let err = run(80, &[ldg, ("[B-1----:R-:W-:-:S04]", "IADD3 R4, R2, 0x1, RZ ;")]).unwrap_err();
    assert_eq!(err, (1, "R2 read while scoreboard 2 (LDG.E, 1 instructions earlier) not waited for".to_string()));
    // WAW: overwriting the pending result.
    let err = run(80, &[ldg, ("[B------:R-:W-:-:S04]", "MOV R2, 0x1 ;")]).unwrap_err();
    assert!(err.1.starts_with("R2 overwritten while scoreboard 2"), "{err:?}");
    // A wait by any earlier instruction releases it.
    assert_eq!(run(80, &[ldg, ("[B--2---:R-:W-:-:S01]", "NOP ;"), ("[B------:R-:W-:-:S04]", "MOV R2, 0x1 ;")]), Ok(()));
    // WAR: a store's data register, held by its read scoreboard.
    let stg = ("[B------:R0:W-:-:S01]", "STG.E [R2.64], R5 ;");
    let err = run(80, &[stg, ("[B------:R-:W-:-:S04]", "MOV R5, 0x1 ;")]).unwrap_err();
    assert!(err.1.starts_with("R5 overwritten while scoreboard 0 (STG.E reading it"), "{err:?}");
    assert_eq!(run(80, &[stg, ("[B0-----:R-:W-:-:S04]", "MOV R5, 0x1 ;")]), Ok(()));
    // Reading a register a store reads is no hazard.
    assert_eq!(run(80, &[stg, ("[B------:R-:W-:-:S04]", "IADD3 R6, R5, 0x1, RZ ;")]), Ok(()));
}

#[test]
fn variable_latency_without_a_scoreboard_is_flagged() {
    let err = run(80, &[("[B------:R-:W-:-:S15]", "MUFU.RCP R6, R6 ;"), ("[B------:R-:W-:-:S15]", "NOP ;"), ("[B------:R-:W-:-:S01]", "FADD R7, R6, R6 ;")]).unwrap_err();
    assert_eq!(err, (2, "R6 read but MUFU (variable latency on sm_80) set no write scoreboard, nor was a later one of its unit waited for".to_string()));
    // A later MUFU's scoreboard, once waited for, covers it (in-order unit).
    assert_eq!(run(80, &[("[B------:R-:W-:-:S01]", "MUFU.RCP R6, R6 ;"), ("[B------:R-:W0:-:S01]", "MUFU.EX2 R8, R8 ;"), ("[B0-----:R-:W-:-:S01]", "FADD R7, R6, R6 ;")]), Ok(()));
    // But not an earlier one's, nor one of another unit.
    assert!(run(80, &[("[B------:R-:W0:-:S01]", "MUFU.EX2 R8, R8 ;"), ("[B------:R-:W-:-:S01]", "MUFU.RCP R6, R6 ;"), ("[B0-----:R-:W-:-:S01]", "FADD R7, R6, R6 ;")]).is_err());
    assert!(run(80, &[("[B------:R-:W-:-:S01]", "MUFU.RCP R6, R6 ;"), ("[B------:R-:W0:-:S01]", "LDG.E R8, [R2.64] ;"), ("[B0-----:R-:W-:-:S01]", "FADD R7, R6, R6 ;")]).is_err());
    // With a scoreboard and a wait it is fine.
    assert_eq!(run(80, &[("[B------:R-:W1:-:S01]", "MUFU.RCP R6, R6 ;"), ("[B-1----:R-:W-:-:S01]", "FADD R7, R6, R6 ;")]), Ok(()));
}

#[test]
fn uniform_guards_are_uniform_predicates() {
    let i = inst(90, "[B------:R-:W-:-:S01]", "@UP0 UMOV UR4, 0x1 ;");
    assert_eq!(HazardInfo::of(&i, Sm::new(90)).guard().map(HazardInfo::unit_name), Some("UP0".to_string()));
}

#[test]
fn completion_releases_what_an_instruction_read() {
    // DADD holds R6 on read scoreboard 0 and writes on 2: a wait on 2 alone
    // covers overwriting R6 (ptxas does this, sm_80).
    let dadd = ("[B------:R0:W2:-:S06]", "DADD R8, |R6|, R12 ;");
    assert_eq!(run(80, &[dadd, ("[B--2---:R-:W-:-:S04]", "MOV R6, 0x1 ;")]), Ok(()));
    assert!(run(80, &[dadd, ("[B-1----:R-:W-:-:S04]", "MOV R6, 0x1 ;")]).is_err());
    // But not when another instruction, whose write scoreboard was not
    // waited on, holds it too.
    let second = ("[B------:R0:W3:-:S06]", "DADD R10, R6, R12 ;");
    let err = run(80, &[dadd, second, ("[B--2---:R-:W-:-:S04]", "MOV R6, 0x1 ;")]).unwrap_err();
    assert!(err.1.starts_with("R6 overwritten while scoreboard 0 (DADD reading it"), "{err:?}");
    assert_eq!(run(80, &[dadd, second, ("[B--23--:R-:W-:-:S04]", "MOV R6, 0x1 ;")]), Ok(()));
}

#[test]
fn loads_of_one_queue_read_before_a_later_one_writes() {
    // `LDG R5, [R2.64]` holds R2/R3; a later LDG may overwrite R2 (the
    // global-load queue reads in order), an ALU op may not.
    let first = ("[B------:R0:W5:-:S01]", "LDG.E R5, [R2.64] ;");
    assert_eq!(run(80, &[first, ("[B------:R-:W4:-:S01]", "LDG.E R2, [R2.64+0x4] ;")]), Ok(()));
    assert!(run(80, &[first, ("[B------:R-:W-:-:S04]", "IADD3 R2, R2, 0x4, RZ ;")]).is_err());
    // Nor a load of another queue.
    assert!(run(80, &[first, ("[B------:R-:W4:-:S01]", "LDS R2, [R7] ;")]).is_err());
}

#[test]
fn uniform_registers_are_read_at_issue() {
    // A read scoreboard does not hold UR6 (ptxas rewrites it right away).
    assert_eq!(run(80, &[("[B------:R0:W1:-:S01]", "DFMA R4, R2, UR6, R4 ;"), ("[B------:R-:W-:-:S01]", "UMOV UR6, 0x1 ;")]), Ok(()));
}

#[test]
fn debug_code_is_unscheduled() {
    // nvdisasm writes `X;` when stall and wait mask are zero.
    let zero = inst(80, "[B------:R-:W-:-:S00]", "IADD3 R4, R2, R3, RZ;");
    let scheduled_one = inst(80, "[B------:R-:W-:-:S04]", "IADD3 R4, R2, R3, RZ ;");
    assert!(!scheduled([&zero, &zero]));
    assert!(scheduled([&zero, &scheduled_one]));
}

#[test]
fn divergent_groups_are_checked_apart_and_joined() {
    let sm = Sm::new(120);
    let issue = |w: &mut WarpHazards, ctrl: &str, text: &str| {
        let i = inst(120, ctrl, text);
        w.issue(&HazardInfo::of(&i, sm), &i)
    };
    // scan_inclusive_hs on sm_120: one path stores R0 holding it on read
    // scoreboard 0, the other overwrites R0 without waiting.
    let mut a = WarpHazards::new(sm);
    let mut b = a.clone();
    issue(&mut a, "[B------:R0:W-:Y:S01]", "STS [R9], R0 ;").unwrap();
    issue(&mut b, "[B------:R-:W-:Y:S02]", "IMAD R0, R0, 0x800, R7 ;").unwrap();
    // After reconvergence both sides' state is in flight.
    a.join(&b);
    let err = issue(&mut a, "[B------:R-:W-:Y:S01]", "MOV R0, RZ ;").unwrap_err();
    assert!(err.starts_with("R0 overwritten while scoreboard 0"), "{err}");
    let mut a = WarpHazards::new(sm);
    let mut b = a.clone();
    issue(&mut b, "[B------:R-:W1:Y:S01]", "LDS R3, [R2] ;").unwrap();
    a.join(&b);
    assert!(issue(&mut a, "[B------:R-:W-:Y:S01]", "MOV R4, R3 ;").unwrap_err().starts_with("R3 read while scoreboard 1"));
    assert!(issue(&mut a, "[B-1----:R-:W-:Y:S01]", "MOV R4, R3 ;").is_ok());
}

/// The shared-memory pipe is one in-order queue: an `LDS` overwrites what
/// an earlier `LDS` or `STS` of it still has pending or holds (ptxas's
/// sm_90 library code), but a global load's pending result is no queue-mate.
#[test]
fn shared_memory_results_and_reads_stay_in_issue_order() {
    let waw = [("[B------:R-:W0:Y:S04]", "LDS.128 R4, [UR4+0x1200] ;"), ("[B------:R-:W1:Y:S01]", "LDS R6, [UR4+0x1208] ;")];
    assert_eq!(run(90, &waw), Ok(()));
    let war = [("[B------:R0:W-:Y:S04]", "STS [R13], R8 ;"), ("[B------:R-:W-:Y:S06]", "BAR.SYNC.DEFER_BLOCKING 0x0 ;"), ("[B------:R4:W1:Y:S01]", "LDS.128 R8, [R14] ;")];
    assert_eq!(run(90, &war), Ok(()));
    let global = [("[B------:R-:W0:Y:S04]", "LDG.E.128 R4, desc[UR4][R2.64] ;"), ("[B------:R-:W1:Y:S01]", "LDS R6, [UR4+0x1208] ;")];
    assert!(run(90, &global).is_err_and(|(k, m)| k == 1 && m.contains("R6 overwritten while scoreboard 0")));
}

/// A guarded-off instruction of a variable-latency queue still passes
/// through the queue: its write scoreboard covers the queue's earlier
/// unscoreboarded results (cuRAND's Philox `normal2_double` on sm_80: `DFMA
/// R22` with no write scoreboard, `@!P0 DMUL R14` on W0, a wait on 0, then
/// a read of R23, whatever P0 is).
#[test]
fn a_guarded_off_queue_member_still_orders_its_queue() {
    let sm = Sm::new(80);
    let issue = |w: &mut WarpHazards, ctrl: &str, text: &str, on: bool| {
        let i = inst(80, ctrl, text);
        let info = HazardInfo::of(&i, sm);
        if on { w.issue(&info, &i) } else { w.issue_predicated_off(&info, i.ctrl) }
    };
    for dmul_on in [true, false] {
        let mut w = WarpHazards::new(sm);
        issue(&mut w, "[B------:R0:W-:Y:S01]", "DFMA R22, R8, R10, R22 ;", true).unwrap();
        issue(&mut w, "[B------:R-:W0:Y:S01]", "@!P0 DMUL R14, R14, R16 ;", dmul_on).unwrap();
        issue(&mut w, "[B0-----:R-:W-:-:S04]", "IADD3 R4, R6, 0x1, RZ ;", true).unwrap();
        assert_eq!(issue(&mut w, "[B------:R-:W-:-:S04]", "IMAD.SHL.U32 R5, R23, 0x2, RZ ;", true), Ok(()), "DMUL issued with its guard {dmul_on}");
    }
    // Without the queue mate's scoreboard, the DFMA result is unreadable.
    let mut w = WarpHazards::new(sm);
    issue(&mut w, "[B------:R0:W-:Y:S01]", "DFMA R22, R8, R10, R22 ;", true).unwrap();
    issue(&mut w, "[B0-----:R-:W-:-:S04]", "IADD3 R4, R6, 0x1, RZ ;", true).unwrap();
    assert!(issue(&mut w, "[B------:R-:W-:-:S04]", "IMAD.SHL.U32 R5, R23, 0x2, RZ ;", true).is_err());
}

/// A result pending in some lanes may be read without a wait in others
/// (ptxas, generated programs on sm_80: `@!P5 LDG.E.S8 R17` on W5, then
/// `@P5 PRMT R43, R17` with no wait, P5 unchanged between); a lane of the
/// load must wait.
#[test]
fn a_result_pending_in_other_lanes_may_be_read() {
    let sm = Sm::new(80);
    let load = inst(80, "[B------:R1:W5:Y:S01]", "@!P5 LDG.E.S8 R17, [R44.64+0xa0] ;");
    let read = inst(80, "[B------:R-:W-:-:S05]", "@P5 PRMT R43, R17, 0x9910, RZ ;");
    let (load_info, read_info) = (HazardInfo::of(&load, sm), HazardInfo::of(&read, sm));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, 0x0000_ffff).unwrap();
    assert_eq!(w.issue_lanes(&read_info, read.ctrl, 0xffff_0000), Ok(()));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, 0x0000_ffff).unwrap();
    assert!(w.issue_lanes(&read_info, read.ctrl, 0x0001_0001).is_err_and(|m| m.contains("R17 read while scoreboard 5")));
}

/// A fixed-latency result written in other lanes than a pending load's is
/// read after its own latency, the load not waited for (ptxas, a generated
/// program on sm_86: `@!P6 LDG.E.S16 R6` on W5, then `@P6 SEL R6, R21, R6,
/// !P4` and `@P6 IADD3.X R10, P3, R6, …` with no wait on 5); a lane of the
/// load must still wait.
#[test]
fn a_fixed_latency_result_beside_a_pending_load_of_other_lanes() {
    let sm = Sm::new(86);
    let load = inst(86, "[B------:R0:W5:Y:S01]", "@!P6 LDG.E.S16 R6, [R44.64] ;");
    let select = inst(86, "[B------:R-:W-:Y:S04]", "@P6 SEL R6, R21, R6, !P4 ;");
    let read = inst(86, "[B------:R-:W-:-:S04]", "@P6 IADD3.X R10, P3, R6, R11, RZ, P3, !PT ;");
    let (load_info, select_info, read_info) = (HazardInfo::of(&load, sm), HazardInfo::of(&select, sm), HazardInfo::of(&read, sm));
    let (theirs, mine) = (0x0000_00ff, 0xffff_ff00);
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, theirs).unwrap();
    w.issue_lanes(&select_info, select.ctrl, mine).unwrap();
    assert_eq!(w.issue_lanes(&read_info, read.ctrl, mine), Ok(()));
    // The load's lanes read its pending result.
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, theirs).unwrap();
    w.issue_lanes(&select_info, select.ctrl, mine).unwrap();
    assert!(w.issue_lanes(&read_info, read.ctrl, 0x0000_0100 | 0x1).is_err_and(|m| m.contains("R6 read while scoreboard 5")));
    // The select's result read too soon in its own lanes.
    let early = inst(86, "[B------:R-:W-:-:S01]", "@P6 SEL R6, R21, R6, !P4 ;");
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, theirs).unwrap();
    w.issue_lanes(&HazardInfo::of(&early, sm), early.ctrl, mine).unwrap();
    assert!(w.issue_lanes(&read_info, read.ctrl, mine).is_err_and(|m| m.contains("R6 read 1 cycles after SEL")));
}

/// A wait on one read scoreboard releases its holders' lanes only (ptxas,
/// a generated program on sm_86: `@P5 LDG.E R5, [R12.64]` on read
/// scoreboard 0, `@!P5 I2F.F64.S64 R34, R12` on 3, a wait on 3 only, then
/// `@!P5 IMAD.X R13`); a lane of the load may not overwrite.
#[test]
fn a_wait_on_one_read_scoreboard_releases_its_lanes() {
    let sm = Sm::new(86);
    let load = inst(86, "[B------:R0:W2:Y:S01]", "@P5 LDG.E R5, [R12.64] ;");
    let convert = inst(86, "[B------:R3:W4:Y:S01]", "@!P5 I2F.F64.S64 R34, R12 ;");
    let write = inst(86, "[B---3--:R-:W-:Y:S02]", "@!P5 IMAD.X R13, RZ, RZ, ~R31, P1 ;");
    let (load_info, convert_info, write_info) = (HazardInfo::of(&load, sm), HazardInfo::of(&convert, sm), HazardInfo::of(&write, sm));
    let (p5, not_p5) = (0x0000_ffff, 0xffff_0000);
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, p5).unwrap();
    w.issue_lanes(&convert_info, convert.ctrl, not_p5).unwrap();
    assert_eq!(w.issue_lanes(&write_info, write.ctrl, not_p5), Ok(()));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&load_info, load.ctrl, p5).unwrap();
    w.issue_lanes(&convert_info, convert.ctrl, not_p5).unwrap();
    assert!(w.issue_lanes(&write_info, write.ctrl, 0x0001_0001).is_err_and(|m| m.contains("R13 overwritten while scoreboard 0")));
}

/// An unscoreboarded result of some lanes may be read at once in others
/// (ptxas, a generated program on sm_89: `@P2 DMUL.RZ R30, R30, R42` with
/// no scoreboard, then `@!P2 DFMA.RZ R36, R30, R42, R12`); in its own
/// lanes it must be covered.
#[test]
fn an_unscoreboarded_result_of_other_lanes_may_be_read() {
    let sm = Sm::new(89);
    let mul = inst(89, "[B------:R-:W-:-:S03]", "@P2 DMUL.RZ R30, R30, R42 ;");
    let fma = inst(89, "[B------:R-:W0:Y:S01]", "@!P2 DFMA.RZ R36, R30, R42, R12 ;");
    let (mul_info, fma_info) = (HazardInfo::of(&mul, sm), HazardInfo::of(&fma, sm));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&mul_info, mul.ctrl, 0x0000_000f).unwrap();
    assert_eq!(w.issue_lanes(&fma_info, fma.ctrl, 0xffff_fff0), Ok(()));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&mul_info, mul.ctrl, 0x0000_000f).unwrap();
    assert!(w.issue_lanes(&fma_info, fma.ctrl, 0x0000_0018).is_err_and(|m| m.contains("R30")));
}

/// A register held for reading in some lanes may be overwritten without a
/// wait in others (ptxas, generated programs on sm_86: `@P2 STG.E.U16 [R2.64],
/// R38` on R0, then `@!P2 LDG.E.U16 R38` with no wait); a lane of the store
/// must wait.
#[test]
fn a_register_held_in_other_lanes_may_be_overwritten() {
    let sm = Sm::new(86);
    let store = inst(86, "[B------:R0:W-:Y:S04]", "@P2 STG.E.U16 [R2.64+0xa0], R38 ;");
    let load = inst(86, "[B------:R-:W3:Y:S01]", "@!P2 LDG.E.U16 R38, [R10.64+0xa0] ;");
    let (store_info, load_info) = (HazardInfo::of(&store, sm), HazardInfo::of(&load, sm));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&store_info, store.ctrl, 0x0000_00ff).unwrap();
    assert_eq!(w.issue_lanes(&load_info, load.ctrl, 0xffff_ff00), Ok(()));
    let mut w = WarpHazards::new(sm);
    w.issue_lanes(&store_info, store.ctrl, 0x0000_00ff).unwrap();
    assert!(w.issue_lanes(&load_info, load.ctrl, 0x0000_0180).is_err_and(|m| m.contains("R38 overwritten while scoreboard 0")));
}

/// A register is held per read scoreboard with the queue of its holders
/// there: a later member of that queue may overwrite it once the other
/// scoreboards holding it are waited on (ptxas, a generated program on
/// sm_80: `F2F.F64.F32 R24, R17` on read scoreboard 0, an STG of R17 on 4,
/// more conversions setting 0, then `F2F.F64.F32 R16` after a wait on 4
/// only); without that wait, or by an ALU, it is a hazard.
#[test]
fn a_queue_member_overwrites_what_its_queue_holds() {
    let convert = ("[B------:R0:W1:Y:S01]", "F2F.F64.F32 R24, R17 ;");
    let store = ("[B------:R4:W-:Y:S04]", "STG.E [R14.64+0x78], R17 ;");
    let other = ("[B------:R0:W3:Y:S03]", "I2F R29, R10 ;");
    let overwrite = ("[B----4-:R4:W2:Y:S03]", "F2F.F64.F32 R16, R13 ;");
    assert_eq!(run(80, &[convert, store, other, overwrite]), Ok(()));
    let no_wait = ("[B------:R4:W2:Y:S03]", "F2F.F64.F32 R16, R13 ;");
    assert!(run(80, &[convert, store, other, no_wait]).is_err_and(|(k, m)| k == 3 && m.contains("R17 overwritten")));
    let alu = ("[B----4-:R-:W-:Y:S03]", "IADD3 R17, R13, 0x1, RZ ;");
    assert!(run(80, &[convert, store, other, alu]).is_err_and(|(k, m)| k == 3 && m.contains("R17 overwritten")));
}

/// An unscoreboarded result of an in-order queue has landed once any later
/// instruction of its queue that set a write scoreboard is waited on, not
/// only the first (ptxas, sm_120: `I2F.S8 R34` with none, `F2F.F64.F32` on
/// W1, `I2F.S8 R27` on W5, a wait on 5 only, then a read of R34).
#[test]
fn any_later_setter_of_the_queue_covers_an_unscoreboarded_result() {
    let code = |wait: &'static str| {
        [
            ("[B------:R-:W-:Y:S01]", "I2F.S8 R34, R26 ;"),
            ("[B------:R-:W1:Y:S03]", "F2F.F64.F32 R30, R45 ;"),
            ("[B------:R-:W5:Y:S01]", "I2F.S8 R27, R27 ;"),
            (wait, "FMUL R27, R27, 0.25 ;"),
            ("[B------:R-:W-:-:S02]", "FMUL R11, R34, 0.25 ;"),
        ]
    };
    assert_eq!(run(120, &code("[B-----5:R-:W-:Y:S01]")), Ok(()));
    assert_eq!(run(120, &code("[B-1---5:R-:W-:Y:S01]")), Ok(()));
    // No wait on either: R34 is not known landed.
    assert!(run(120, &code("[B------:R-:W-:Y:S01]")).is_err_and(|(k, _)| k == 3));
}

#[test]
fn imad_reads_the_high_half_of_its_c_pair_later() {
    // IMAD.HI and IMAD.WIDE read c's high register LATE_READ_CYCLES later
    // than a and b: ptxas's `@P1 MOV R5, R29` then `@P1 IMAD.HI.U32 R37,
    // R3, 0x10000, R4` 3 cycles on (sm_100). Checked on sm_80, where a
    // MOV's latency leaves room for a stall one cycle short of the
    // relieved need (on sm_100 it is the ALU's, 3: ptxas's generated code
    // reads c-high 3 cycles after IADD3).
    let table = latency::checking_table(Sm::new(80));
    let need = table.latency(File::R, Class::Mov, Class::Imad);
    let late = need - LATE_READ_CYCLES;
    let mov = format!("[B------:R-:W-:-:S{late:02}]");
    let one = "[B------:R-:W-:-:S01]";
    assert_eq!(run(80, &[(&mov, "MOV R5, R29 ;"), (one, "IMAD.HI.U32 R37, R3, 0x10000, R4 ;")]), Ok(()));
    let wide = format!("[B------:R-:W-:-:S{:02}]", table.latency(File::R, Class::Mov, Class::ImadWide) - LATE_READ_CYCLES);
    assert_eq!(run(80, &[(&wide, "MOV R5, R29 ;"), (one, "IMAD.WIDE.U32 R6, R3, 0x10, R4 ;")]), Ok(()));
    // One cycle sooner is a hazard, and the message gives the relieved need.
    let short = format!("[B------:R-:W-:-:S{:02}]", late - 1);
    assert_eq!(run(80, &[(&short, "MOV R5, R29 ;"), (one, "IMAD.HI.U32 R37, R3, 0x10000, R4 ;")]), Err((1, format!("R5 read {} cycles after MOV (needs {late})", late - 1))));
    // The low half and the a and b operands are read at the class's time.
    assert!(run(80, &[(&mov, "MOV R4, R29 ;"), (one, "IMAD.HI.U32 R37, R3, 0x10000, R4 ;")]).is_err());
    assert!(run(80, &[(&mov, "MOV R3, R29 ;"), (one, "IMAD.HI.U32 R37, R3, 0x10000, R4 ;")]).is_err());
    // A 32-bit IMAD has no pair.
    assert!(run(80, &[(&mov, "MOV R5, R29 ;"), (one, "IMAD R37, R3, 0x10000, R5 ;")]).is_err());
}

/// From sm_90 a global load may overwrite a local load's address without
/// waiting for its read scoreboard (ptxas 13.5's sm_90 code for a
/// generated program, seed 10136924: `@P0 LDL R2, [R19]` on read
/// scoreboard 0, then `LDG.E.U16.CONSTANT R19` on W5 at once); an ALU
/// write of it still waits, and sm_89 has no such rule.
#[test]
fn a_global_load_overwrites_a_local_load_address_early_from_sm90() {
    let early = [("[B------:R0:W5:Y:S04]", "LDL R2, [R19] ;"), ("[B------:R0:W5:Y:S01]", "LDG.E.U16.CONSTANT R19, desc[UR8][R44.64] ;")];
    assert_eq!(run(90, &early), Ok(()));
    let alu = [("[B------:R0:W5:Y:S04]", "LDL R2, [R19] ;"), ("[B------:R-:W-:Y:S01]", "MOV R19, RZ ;")];
    assert!(run(90, &alu).is_err_and(|(k, m)| k == 1 && m.contains("R19 overwritten while scoreboard 0")));
    let ada = [("[B------:R0:W5:Y:S04]", "LDL R2, [R19] ;"), ("[B------:R0:W5:Y:S01]", "LDG.E.U16.CONSTANT R19, [R44.64] ;")];
    assert!(run(89, &ada).is_err_and(|(k, m)| k == 1 && m.contains("R19 overwritten while scoreboard 0")));
}
