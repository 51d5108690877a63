//! The video instructions (`tests/data/video_ops`): the scalar `vadd vsub
//! vabsdiff vmin vmax vset` with `.sat` and `.add`/`.min`/`.max`, the
//! shifts `vshl vshr` with `.clamp`/`.wrap` and the secondary operations,
//! `vmad` with `.sat`, `.shr7`/`.shr15`, `.po` and operand negation, and
//! the SIMD `vop2`/`vop4`/`vset2`/`vset4` with `.sat` and `.add`, over
//! every combination of operand signs, on inputs at the byte and half
//! boundaries (0, 0x7f/0x80/0xff bytes, 0x7fff/0x8000 halves, 0x7fffffff
//! and 0x80000000), shift counts around 32, and random words. On each SM of a kernel's `// sms:`
//! line ptxas's cubin and ours must give the same outputs in the SASS
//! interpreter ([`common::ptxas_match`]), and the PTX interpreter the
//! same outputs as our cubin: its semantics are checked against ptxas's
//! code, not against the compiler's own.

mod common;

use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::interp::{self, LaunchSpec};
use std::path::Path;

/// The PTX interpreter's output buffers for the kernel `text` (whose
/// `// name:` line names its launch spec) against our cubin's.
fn ptx_interpreter_agrees(text: &str, cubin: &[u8]) -> Result<(), String> {
    let name = text.lines().find_map(|l| l.strip_prefix("// name: ")).ok_or("no `// name:` line")?;
    let spec_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/video_ops").join(format!("{name}.json"));
    let spec_text = std::fs::read_to_string(&spec_path).map_err(|e| e.to_string())?;
    let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{e:?}"))?;
    let module = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).map_err(|_| "does not parse")?;
    let out = interp::ptx::run(&module, &spec, &Default::default()).map_err(|e| format!("PTX interpreter: {e}"))?;
    let want = common::ptxas_match::output_bytes(&out.launch, &spec_text)?;
    let got = common::ptxas_match::outputs(cubin, &spec, &spec_text, HazardCheck::Fail)?;
    match want.iter().zip(&got).position(|(a, b)| a != b) {
        None if want.len() == got.len() => Ok(()),
        at => Err(format!("the PTX interpreter differs from our cubin at byte {}", at.unwrap_or(want.len().min(got.len())))),
    }
}

/// sm_120 has no VABSDIFF4: our code for `vabsdiff4.u32.u32.u32` there
/// (bytes by PRMT, maximum less minimum) against the PTX interpreter
/// (ptxas's uses VIMNMX.U8x4, which the SASS decoder does not know).
#[test]
fn byte_absolute_differences_without_vabsdiff4_match_the_ptx_interpreter() {
    use ptx2sass::internals::driver::{self, CodegenOptions, Options};
    use ptx2sass::internals::target::Sm;
    let text = include_str!("data/video_ops/absdiff4.ptx");
    let module = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).expect("parses");
    let ours = driver::compile_to_cubin(&module, Sm::new(120), Some(text), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
    let listing = ptx2sass::disassemble(&ours.cubin).expect("disassembles");
    assert!(!listing.contains("VABSDIFF4"), "VABSDIFF4 on sm_120");
    ptx_interpreter_agrees(text, &ours.cubin).unwrap_or_else(|e| panic!("sm_120: {e}"));
}

#[test]
fn video_instructions_match_ptxas_and_the_ptx_interpreter() {
    common::ptxas_match::all_kernels_match("video_ops", 29, |text, cubin| ptx_interpreter_agrees(text, cubin));
}
