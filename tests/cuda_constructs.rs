//! PTX constructs of CUDA C++ code (`tests/data/cuda_constructs`): the
//! half-precision MUFU functions (`ex2.approx`, `tanh.approx` of f16, bf16
//! and their pairs), `fma.rn.relu` of halves, `min/max.relu.s32`, `ldu`,
//! `%dynamic_smem_size`, `cvt` to tf32 (every rounding) and `add/min/max`
//! of 16-bit lane pairs. On each SM of a kernel's `// sms:` line ptxas's
//! cubin and ours must give the same outputs in the SASS interpreter
//! ([`common::ptxas_match`]), and the PTX interpreter the same outputs as
//! our cubin. The PTX checker's verdicts on `ex2`'s `.ftz` and on lane
//! pairs are ptxas's.

mod common;

use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::interp::{self, LaunchSpec};
use std::path::Path;

/// The PTX interpreter's output buffers for the kernel `text` (whose
/// `// name:` line names its launch spec) against our cubin's.
/// A kernel with a `// ptx interpreter: not compared (why)` line is
/// compared with ptxas's cubin only.
fn ptx_interpreter_agrees(text: &str, cubin: &[u8]) -> Result<(), String> {
    if text.lines().any(|l| l.starts_with("// ptx interpreter: not compared")) {
        return Ok(());
    }
    let name = text.lines().find_map(|l| l.strip_prefix("// name: ")).ok_or("no `// name:` line")?;
    let spec_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cuda_constructs").join(format!("{name}.json"));
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

#[test]
fn cuda_constructs_match_ptxas_and_the_ptx_interpreter() {
    common::ptxas_match::all_kernels_match("cuda_constructs", 43, ptx_interpreter_agrees);
}

/// ptxas 13.5's verdicts (`-arch=sm_90`): bf16 `ex2.approx` requires
/// `.ftz`, f16 refuses it, `tanh` has none; 16-bit lane pairs take
/// registers only, and `.relu` only on s32 and s16x2.
#[test]
fn verdicts_are_ptxas_s() {
    let cases = [
        ("ex2.approx.ftz.bf16 %h2, %h1;", true),
        ("ex2.approx.ftz.bf16x2 %r2, %r1;", true),
        ("ex2.approx.bf16 %h2, %h1;", false),
        ("ex2.approx.ftz.f16 %h2, %h1;", false),
        ("ex2.approx.f16x2 %r2, %r1;", true),
        ("tanh.approx.ftz.bf16 %h2, %h1;", false),
        ("tanh.approx.bf16 %h2, %h1;", true),
        ("add.s16x2 %r2, %r1, %r1;", true),
        ("min.relu.s16x2 %r2, %r1, %r1;", true),
        ("max.u16x2 %r2, %r1, 7;", false),
        ("max.relu.u16x2 %r2, %r1, %r1;", false),
        ("min.relu.u32 %r2, %r1, %r1;", false),
    ];
    let ptxas = ptx2sass::internals::reference::require("ptxas", "cuda construct verdicts");
    for (line, accepted) in cases {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n .reg .b16 %h<4>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [p];\n ld.global.u16 %h1, [%rd1]; ld.global.u32 %r1, [%rd1];\n {line}\n st.global.u16 [%rd1], %h2; st.global.u32 [%rd1+4], %r2;\n ret;\n}}\n"
        );
        let ours = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).is_ok();
        assert_eq!(ours, accepted, "`{line}`: ours {}", if ours { "accepts" } else { "refuses" });
        if let Some(ptxas) = &ptxas {
            let dir = std::env::temp_dir().join(format!("ptx2sass-cuda-verdicts-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let file = dir.join("k.ptx");
            std::fs::write(&file, &text).expect("write");
            let ok = std::process::Command::new(ptxas).args(["-arch=sm_90", "-o"]).arg(dir.join("k.cubin")).arg(&file).output().expect("ptxas runs").status.success();
            assert_eq!(ok, accepted, "`{line}`: ptxas disagrees with the recorded verdict");
        }
    }
}
