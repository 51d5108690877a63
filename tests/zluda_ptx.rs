//! The ZLUDA conformance corpus under the PTX interpreter: every manifest
//! case with run data is launched as ZLUDA's harness launches it
//! ([`Case::launch_spec`]) and its output compared with the expected values
//! ([`Case::check_output`]). Fails on any miss not listed in
//! `tests/data/zluda-known-failures-ptx.tsv`, and on any listed case that
//! now passes.

use ptx2sass::internals::interp::conformance::{judge, Case, KnownFailures, Manifest};
use ptx2sass::internals::interp::ptx::{run, Options};
use std::path::Path;

/// `Ok(())` when the case matches, else what happened.
fn check(case: &Case) -> Result<(), String> {
    let name = case.ptx.display().to_string();
    let src = std::fs::read_to_string(&case.ptx).map_err(|e| format!("{name}: {e}"))?;
    let module = ptx2sass::internals::ptx::parse(&src).map_err(|e| format!("parse: {}", e.render(&name, &src)))?;
    ptx2sass::internals::ptx::check(&module, &Default::default()).map_err(|e| format!("check: {}", e.render(&name, &src)))?;
    let out = run(&module, &case.launch_spec(), &Options { step_budget: 1_000_000 }).map_err(|e| e.render(&name, &src))?;
    let bytes = out.launch.buffer_bytes(case.output_param()).ok_or("no output buffer")?;
    case.check_output(bytes)
}

#[test]
fn zluda_conformance_under_the_ptx_interpreter() {
    let dir = Manifest::default_dir();
    if !dir.join("manifest.json").exists() {
        eprintln!("SKIPPED (no corpus at {}): zluda_conformance_under_the_ptx_interpreter", dir.display());
        return;
    }
    let manifest = Manifest::load(&dir).expect("manifest loads");
    let cases = &manifest.cases;
    assert!(cases.len() >= 150, "manifest has {} run cases", cases.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let results: Vec<(String, Result<(), String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(cases.len().div_ceil(threads))
            .map(|chunk| s.spawn(move || chunk.iter().map(|c| (c.name.clone(), check(c))).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker")).collect()
    });
    let known = KnownFailures::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zluda-known-failures-ptx.tsv")).expect("known failures parse");
    let tally = judge("ptx interpreter", "-", &results, &known);
    println!("{}", tally.report());
    assert!(tally.ok(), "{}", tally.report());
}
