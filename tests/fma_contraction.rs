//! Multiply-add contraction against ptxas, bit for bit: the kernels of
//! `filetests/compile/fma_contraction.ptx` compiled by ptxas and by
//! ptx2sass, both with `--fmad=true` and both with `--fmad=false`, run in
//! the SASS interpreter on `tests/data/fma/contract.json` (operands whose
//! products are inexact, so that a fused and an unfused multiply-add round
//! differently). The outputs must be equal, and the two settings' outputs
//! must differ (the fused results are not the separately rounded ones).

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::{self, LaunchSpec};
use ptx2sass::internals::interp::sass::{HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;
use std::path::Path;

/// The outputs of our cubin for `module` (PTX `text`) on `sm`, contracted
/// or not, run with hazard checking.
fn our_outputs(module: &ptx2sass::internals::ptx::ast::Module, text: &str, sm: u16, fmad: bool, spec: &LaunchSpec) -> String {
    let ours = driver::compile_to_cubin(module, Sm::new(sm), Some(text), Options { verify: true, fma_contraction: fmad }, CodegenOptions::default())
        .unwrap_or_else(|e| panic!("sm_{sm} --fmad={fmad}: {e:?}"));
    interp::sass::run(&ours.cubin, spec, &RunOptions { hazards: HazardCheck::Fail, ..Default::default() })
        .unwrap_or_else(|e| panic!("sm_{sm} --fmad={fmad}: our cubin: {e}"))
        .launch
        .outputs_text()
}

#[test]
fn contraction_gives_ptxas_results_bit_for_bit() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "contraction_gives_ptxas_results_bit_for_bit") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("filetests/compile/fma_contraction.ptx")).expect("filetest source");
    let spec = LaunchSpec::from_json(&std::fs::read_to_string(root.join("tests/data/fma/contract.json")).expect("spec")).expect("valid spec");
    let scratch = std::env::temp_dir().join(format!("ptx2sass-fma-contraction-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut compared = 0;
    for sm in [75u16, 80, 90, 120] {
        let text = source.replace(".target sm_75", &format!(".target sm_{sm}")).replace(".version 8.0", ".version 8.8");
        let ptx = scratch.join(format!("contract.sm_{sm}.ptx"));
        std::fs::write(&ptx, &text).expect("write PTX");
        let module = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).expect("valid PTX");
        let mut outputs = Vec::new();
        for fmad in [true, false] {
            let cubin = scratch.join(format!("contract.sm_{sm}.{fmad}.cubin"));
            assert!(common::compile_cubin_with(&ptxas, sm, &ptx, &cubin, &[&format!("--fmad={fmad}")]), "ptxas fails on sm_{sm}");
            let theirs = interp::sass::run(&std::fs::read(&cubin).expect("cubin"), &spec, &RunOptions { hazards: HazardCheck::Off, ..Default::default() });
            let ours = our_outputs(&module, &text, sm, fmad, &spec);
            outputs.push(ours.clone());
            // ptxas's sm_120 code for --fmad=false has words the decoder
            // does not know yet; the other seven runs compare.
            let Ok(theirs) = theirs else { continue };
            assert_eq!(ours, theirs.launch.outputs_text(), "sm_{sm} --fmad={fmad}: our outputs against ptxas's");
            compared += 1;
        }
        assert_ne!(outputs[0], outputs[1], "sm_{sm}: contraction changed no result");
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(compared >= 7, "only {compared} of 8 runs of ptxas's cubins compared");
}

/// An approximate division's last step (the multiply by the divisor's
/// reciprocal) contracts with a following add as a multiply does: ptxas
/// 13.5 writes `MUFU.RCP r, b'; FFMA d, r, a', c` for `div.full.f32 t, a,
/// b; add.f32 d, t, c` (Triton's layernorm: `mean + eps` of a
/// `div.full.f32`), also for `sub` either way round, `div.approx`, and
/// `.ftz` with `.sat` on both; a quotient with another use stays FMUL +
/// FADD. 32 threads each divide and add operands of their own.
#[test]
fn approximate_division_contracts_with_an_add_as_ptxas() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "approximate_division_contracts_with_an_add_as_ptxas") else { return };
    let text = ".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .f32 a, .param .f32 b, .param .f32 c)
{
    .reg .f32 %f<32>; .reg .b64 %rd<4>; .reg .b32 %r<4>;
    ld.param.u64 %rd1, [out];
    ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b]; ld.param.f32 %f3, [c];
    mov.u32 %r1, %tid.x; cvt.rn.f32.u32 %f20, %r1;
    fma.rn.f32 %f1, %f20, 0f3EBD70A4, %f1;
    fma.rn.f32 %f2, %f20, 0fBE4CCCCD, %f2;
    fma.rn.f32 %f3, %f20, 0f3F1E0419, %f3;
    mul.wide.u32 %rd2, %r1, 24; add.s64 %rd3, %rd1, %rd2;
    div.full.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd3], %f5;
    div.full.f32 %f6, %f3, %f2; sub.f32 %f7, %f1, %f6; st.global.f32 [%rd3+4], %f7;
    div.full.f32 %f8, %f1, %f3; sub.f32 %f9, %f8, %f2; st.global.f32 [%rd3+8], %f9;
    div.approx.f32 %f10, %f2, %f3; add.f32 %f11, %f1, %f10; st.global.f32 [%rd3+12], %f11;
    div.full.ftz.f32 %f12, %f2, %f1; add.ftz.sat.f32 %f13, %f12, %f3; st.global.f32 [%rd3+16], %f13;
    div.full.f32 %f14, %f3, %f1; add.f32 %f15, %f14, %f2; add.f32 %f16, %f15, %f14; st.global.f32 [%rd3+20], %f16;
    ret;
}
";
    let spec = LaunchSpec::from_json(
        r#"{"kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1], "params": [
 {"kind": "buffer", "bytes": 768, "fill": "zero", "output": true},
 {"kind": "f32", "value": "0x3fb504f3"}, {"kind": "f32", "value": "0x40490fdb"}, {"kind": "f32", "value": "0xbf3504f3"}]}"#,
    )
    .expect("valid spec");
    let scratch = std::env::temp_dir().join(format!("ptx2sass-fma-division-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    for sm in [80u16, 90, 120] {
        let text = text.replace(".target sm_80", &format!(".target sm_{sm}")).replace(".version 8.0", ".version 8.8");
        let module = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).expect("valid PTX");
        let ptx = scratch.join(format!("division.sm_{sm}.ptx"));
        std::fs::write(&ptx, &text).expect("write PTX");
        let mut outputs = Vec::new();
        for fmad in [true, false] {
            let ours = our_outputs(&module, &text, sm, fmad, &spec);
            let cubin = scratch.join(format!("division.sm_{sm}.{fmad}.cubin"));
            assert!(common::compile_cubin_with(&ptxas, sm, &ptx, &cubin, &[&format!("--fmad={fmad}")]), "ptxas fails on sm_{sm}");
            let theirs = interp::sass::run(&std::fs::read(&cubin).expect("cubin"), &spec, &RunOptions { hazards: HazardCheck::Off, ..Default::default() })
                .unwrap_or_else(|e| panic!("sm_{sm} --fmad={fmad}: ptxas's cubin: {e}"));
            assert_eq!(ours, theirs.launch.outputs_text(), "sm_{sm} --fmad={fmad}: our outputs against ptxas's");
            outputs.push(ours);
        }
        assert_ne!(outputs[0], outputs[1], "sm_{sm}: contraction changed no result");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
