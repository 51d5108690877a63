//! Findings of the differential fuzzer (`fuzz/`, `fuzz/findings/README.md`)
//! as regression tests:
//! * each minimized program of `tests/data/fuzz_findings` (a PTX file, its
//!   launch spec, a `// sms:` line and what was found) must give ptxas's
//!   outputs in the SASS interpreter on each of its SMs
//!   ([`common::ptxas_match`]);
//! * each kernel of `tests/data/ptx_interp_findings` must give, in the PTX
//!   interpreter, the outputs of ptxas's cubin in the SASS interpreter,
//!   byte for byte, on each SM of its `// sms:` line (where the PTX
//!   interpreter differed from ptxas's code).
//!
//! Each failed before its fix.

mod common;

use common::ptxas_match;
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::ptx as iptx;
use ptx2sass::internals::interp::sass::HazardCheck;
use std::path::Path;

#[test]
fn fuzzer_findings_match_ptxas_on_the_sass_interpreter() {
    ptxas_match::all_kernels_match("fuzz_findings", 10, |_, _| Ok(()));
}

/// The PTX interpreter's output buffers (the spec's `"output": true`
/// parameters, in order) for `source`.
fn ptx_interpreter_outputs(source: &str, spec: &LaunchSpec, spec_text: &str) -> Result<Vec<u8>, String> {
    let module = ptx2sass::internals::ptx::parse(source).map_err(|d| format!("parse: {d:?}"))?;
    let out = iptx::run(&module, spec, &iptx::Options::default()).map_err(|e| e.to_string())?;
    ptxas_match::output_bytes(&out.launch, spec_text)
}

#[test]
fn ptx_interpreter_findings_match_ptxas_code() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "ptx_interp_findings") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join("target/ptx_interp_findings-kernel-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    let mut jobs = Vec::new();
    for ptx in common::ptx_files(&root.join("tests/data/ptx_interp_findings")) {
        let text = std::fs::read_to_string(&ptx).expect("kernel");
        let sms = ptxas_match::sms_of(&text);
        assert!(!sms.is_empty(), "{}: no `// sms:` line", ptx.display());
        jobs.extend(sms.into_iter().map(|sm| (ptx.clone(), text.clone(), sm)));
    }
    assert!(jobs.len() >= 8, "only {} kernel runs", jobs.len());
    let results = common::par_map(&jobs, |(ptx, text, sm)| -> Result<(), String> {
        let spec_text = std::fs::read_to_string(ptx.with_extension("json")).map_err(|e| e.to_string())?;
        let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{e:?}"))?;
        let cubin = common::cached_cubin(&ptxas, &cache, ptx, *sm)?;
        let want = ptxas_match::outputs(&cubin, &spec, &spec_text, HazardCheck::Off).map_err(|e| format!("ptxas's cubin: {e}"))?;
        let got = ptx_interpreter_outputs(text, &spec, &spec_text)?;
        if want.iter().all(|&b| b == 0) {
            return Err("ptxas's cubin writes only zeros: the test proves nothing".into());
        }
        match want.iter().zip(&got).position(|(a, b)| a != b) {
            None if want.len() == got.len() => Ok(()),
            at => Err(format!("outputs differ from byte {} ({} vs {} bytes)", at.unwrap_or(want.len().min(got.len())), got.len(), want.len())),
        }
    });
    let failures: Vec<String> = jobs
        .iter()
        .zip(&results)
        .filter_map(|((ptx, _, sm), r)| r.as_ref().err().map(|e| format!("{} sm_{sm}: {e}", ptx.file_stem().unwrap_or_default().to_string_lossy())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
