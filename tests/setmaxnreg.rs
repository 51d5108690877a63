//! `setmaxnreg` (`tests/data/setmaxnreg`): on sm_90a, sm_100a and sm_120a
//! the kernel declares its `.maxnreg` as ptxas 13.5 does, its code has
//! `USETMAXREG.DEALLOC.CTAPOOL` and a `USETMAXREG.TRY_ALLOC.CTAPOOL` retry
//! loop with ptxas's instruction words, and ptxas's cubin and ours give the
//! same outputs in the SASS interpreter (which grants every request, see
//! `interp::sass::ops::control`). A target without the instruction is an
//! error at its line.

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::target::Sm;
use std::path::Path;

const SMS: [&str; 3] = ["90a", "100a", "120a"];

fn data(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/setmaxnreg").join(name)).expect("test data")
}

fn compile(source: &str, sm: &str) -> Vec<u8> {
    let module = ptx2sass::internals::ptx::parse_and_check(source, &Default::default()).expect("parses and checks");
    let sm = Sm::parse_number(sm).expect("an SM");
    driver::compile_to_cubin(&module, sm, Some(source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))
        .cubin
}

/// The `.registers` line and the instruction lines (control fields and
/// addresses left out) of a cubin's listing.
fn listing(cubin: &[u8]) -> (u32, Vec<String>) {
    let text = ptx2sass::disassemble(cubin).expect("disassembles");
    let regs = text.lines().find_map(|l| l.strip_prefix(".registers ")).and_then(|n| n.trim().parse().ok()).expect(".registers");
    let insts = text.lines().filter_map(|l| l.split_once("] ").map(|(_, i)| i.trim_end_matches([' ', ';']).to_string())).collect();
    (regs, insts)
}

#[test]
fn declared_count_and_instructions_as_ptxas() {
    let source = data("warp_roles.ptx");
    for sm in SMS {
        let text = source.replace(".target sm_90a", &format!(".target sm_{sm}"));
        let (regs, insts) = listing(&compile(&text, sm));
        // ptxas 13.5 -v: "Used 128 registers" for this kernel on each SM.
        assert_eq!(regs, 128, "sm_{sm}");
        assert!(insts.iter().any(|i| i == "USETMAXREG.DEALLOC.CTAPOOL 0x28"), "sm_{sm}: {insts:?}");
        let alloc = insts.iter().position(|i| i == "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8").unwrap_or_else(|| panic!("sm_{sm}: {insts:?}"));
        assert!(insts[alloc + 1].starts_with("PLOP3.LUT P") && insts[alloc + 1].contains("UP0, 0x80, 0x0"), "sm_{sm}: {insts:?}");
        assert!(insts[alloc + 2].starts_with("@!P") && insts[alloc + 2].contains("BRA"), "sm_{sm}: {insts:?}");
    }
}

/// Without `.maxnreg` ptxas drops the instruction (info C7508) and
/// declares what the code uses.
#[test]
fn without_maxnreg_nothing_is_emitted() {
    let source = data("warp_roles.ptx").replace(" .maxnreg 128", "");
    let (regs, insts) = listing(&compile(&source, "90a"));
    assert!(regs < 40, "{regs}");
    assert!(!insts.iter().any(|i| i.contains("USETMAXREG")), "{insts:?}");
}

/// ptxas 13.5's words (`cuobjdump -sass`, sm_90a/100a/120a alike).
#[test]
fn words_as_ptxas() {
    let source = data("warp_roles.ptx");
    for sm in SMS {
        let text = source.replace(".target sm_90a", &format!(".target sm_{sm}"));
        let cubin = compile(&text, sm);
        let code = ptx2sass::internals::cubin::read_code(&cubin).expect("a cubin");
        let words = &code.functions.iter().find(|f| f.name == "k").expect("the kernel's code").words;
        let low: Vec<u64> = words.iter().map(|w| *w as u64).collect();
        let high: Vec<u64> = words.iter().map(|w| (*w >> 64) as u64).collect();
        // Bits 64-104 (the control fields above are the scheduler's).
        let mask = (1u64 << 41) - 1;
        let find = |lo: u64, hi: u64| low.iter().zip(&high).any(|(&l, &h)| l == lo && h & mask == hi & mask);
        assert!(find(0x00000028000079c8, 0x000e0000080e0500), "sm_{sm}: DEALLOC.CTAPOOL 0x28");
        assert!(find(0x000000e8000079c8, 0x000e640008000600), "sm_{sm}: TRY_ALLOC.CTAPOOL UP0, 0xe8");
    }
}

#[test]
fn outputs_as_ptxas() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "setmaxnreg") else { return };
    let source = data("warp_roles.ptx");
    let spec_text = data("warp_roles.json");
    let spec = LaunchSpec::from_json(&spec_text).expect("launch spec");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/setmaxnreg-cubins");
    std::fs::create_dir_all(&dir).expect("directory");
    for sm in SMS {
        let text = source.replace(".target sm_90a", &format!(".target sm_{sm}"));
        let ptx = dir.join(format!("warp_roles.sm_{sm}.ptx"));
        let theirs = dir.join(format!("warp_roles.sm_{sm}.cubin"));
        std::fs::write(&ptx, &text).expect("write");
        let out = std::process::Command::new(&ptxas).arg("-v").arg(format!("-arch=sm_{sm}")).arg(&ptx).arg("-o").arg(&theirs).output().expect("ptxas runs");
        assert!(out.status.success(), "ptxas rejected sm_{sm}");
        let report = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let their_regs: u32 = report.split("Used ").nth(1).and_then(|r| r.split_whitespace().next()).and_then(|n| n.parse().ok()).expect("ptxas -v's register count");
        let theirs = std::fs::read(&theirs).expect("ptxas's cubin");
        let ours = compile(&text, sm);
        assert_eq!(listing(&ours).0, their_regs, "sm_{sm}: declared registers");
        let want = common::ptxas_match::outputs(&theirs, &spec, &spec_text, HazardCheck::Fail).expect("ptxas's cubin runs");
        let got = common::ptxas_match::outputs(&ours, &spec, &spec_text, HazardCheck::Fail).expect("our cubin runs");
        assert!(want.iter().any(|&b| b != 0));
        assert_eq!(want, got, "sm_{sm}");
    }
}

/// ptxas: "Instruction 'setmaxnreg.dec' not supported on .target 'sm_90'"
/// (and sm_80), at the instruction's line.
#[test]
fn targets_without_it_are_located_errors() {
    for target in ["sm_90", "sm_80", "sm_100"] {
        let source = data("warp_roles.ptx").replace(".target sm_90a", &format!(".target {target}"));
        let errors = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).expect_err(target);
        let text = format!("{errors:?}");
        assert!(text.contains("not supported on .target"), "{target}: {text}");
        // Line 19: the first setmaxnreg.
        assert!(text.contains("setmaxnreg"), "{target}: {text}");
    }
}
