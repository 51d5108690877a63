//! Findings of the differential fuzzer (`fuzz/`, `fuzz/findings/README.md`)
//! as regression tests: each minimized program of `tests/data/fuzz_findings`
//! (a PTX file, its launch spec, a `// sms:` line and what was found) must
//! give ptxas's outputs in the SASS interpreter on each of its SMs
//! ([`common::ptxas_match`]). Each failed before its fix.

mod common;

#[test]
fn fuzzer_findings_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("fuzz_findings", 10, |_, _| Ok(()));
}
