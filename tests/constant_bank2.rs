//! f64 constants in a kernel's constant bank 2 (`tests/data/constant_bank2`,
//! `ptx2sass::internals::select::pool`): ptxas's cubin and ours give the
//! same outputs in the SASS interpreter; ours reads the constants as
//! `c[0x2][…]` operands on sm_75-89 (and not from sm_90 on); where the code
//! reads the same constants in the same order as ptxas's, the bank's bytes,
//! its section header and `-v`'s cmem[2] are ptxas's.

mod common;

use ptx2sass::internals::cubin::elf::{self, Content, Elf};
use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::target::Sm;
use std::path::Path;

#[test]
fn constant_bank2_kernels_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("constant_bank2", 5, |_, cubin| {
        let listing = ptx2sass::disassemble(cubin).map_err(|e| e.to_string())?;
        let digits: String = listing.split(".target sm_").nth(1).unwrap_or("").chars().take_while(char::is_ascii_digit).collect();
        let sm: u16 = digits.parse().map_err(|_| "no target in the listing")?;
        match (sm < 90, listing.contains("c[0x2][")) {
            (true, false) => Err(format!("sm_{sm}: no c[0x2][…] operand in our code")),
            (false, true) => Err(format!("sm_{sm}: a c[0x2][…] operand from sm_90 on")),
            _ => Ok(()),
        }
    });
}

/// The kernel's bank 2 section: its bytes and header, and the index of the
/// section that follows it.
fn bank2(file: &Elf, kernel: &str) -> Option<(Vec<u8>, (u32, u64, u32, u64), String, String)> {
    let index = file.sections.iter().position(|s| s.name == format!(".nv.constant2.{kernel}"))?;
    let s = &file.sections[index];
    let Content::Bytes(bytes) = &s.content else { return None };
    let info = file.sections.get((s.info as usize).checked_sub(1)?)?.name.clone();
    let next = file.sections.get(index + 1).map(|n| n.name.clone()).unwrap_or_default();
    Some((bytes.clone(), (s.kind, s.flags, s.link, s.align), info, next))
}

/// The `, N bytes cmem[2]` of a `-v` report's "Used" line, or "" without one.
fn cmem2(report: &str) -> String {
    let used = report.lines().find(|l| l.contains("Used ")).unwrap_or("");
    used.split(", ").find(|f| f.ends_with("cmem[2]")).unwrap_or("").to_string()
}

#[test]
fn constant_bank2_section_and_report_match_ptxas() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "constant_bank2") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ptx = root.join("tests/data/constant_bank2/f64-constants.ptx");
    let source = std::fs::read_to_string(&ptx).expect("kernel");
    let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).expect("parses");
    let scratch = root.join("target/constant_bank2-report");
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    for sm in [75u16, 80] {
        let out = scratch.join(format!("k.sm_{sm}.cubin"));
        let run = std::process::Command::new(&ptxas).arg(format!("-arch=sm_{sm}")).arg("-v").arg(&ptx).arg("-o").arg(&out).output().expect("ptxas runs");
        assert!(run.status.success(), "ptxas rejected the kernel for sm_{sm}");
        let their_report = String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
        let theirs = elf::read(&std::fs::read(&out).expect("ptxas's cubin")).expect("reads").elf;
        let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options::default(), CodegenOptions::default()).expect("compiles");
        let our_report = ours.verbose_report(Sm::new(sm), false);
        let ours_elf = elf::read(&ours.cubin).expect("reads").elf;
        let want = bank2(&theirs, "k").expect("ptxas writes bank 2");
        assert_eq!(want.0.len(), 48, "sm_{sm}: ptxas's bank holds six entries (what the kernel was written for)");
        assert_eq!(bank2(&ours_elf, "k"), Some(want), "sm_{sm}: bank 2 differs from ptxas's");
        assert_eq!(cmem2(&our_report), cmem2(&their_report), "sm_{sm}: -v's cmem[2] differs");
        assert_eq!(cmem2(&our_report), "48 bytes cmem[2]");
    }
}
