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
            let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&text), Options { verify: true, fma_contraction: fmad }, CodegenOptions::default())
                .unwrap_or_else(|e| panic!("sm_{sm} --fmad={fmad}: {e:?}"));
            let ours = interp::sass::run(&ours.cubin, &spec, &RunOptions { hazards: HazardCheck::Fail, ..Default::default() })
                .unwrap_or_else(|e| panic!("sm_{sm} --fmad={fmad}: our cubin: {e}"))
                .launch
                .outputs_text();
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
