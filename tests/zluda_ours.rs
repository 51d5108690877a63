//! Conformance (c): the ZLUDA run cases compiled by ptx2sass and run in
//! the SASS interpreter with hazard checking on, for sm_80, sm_90 and
//! sm_120 (every case the reference ptxas accepts for the SM).
//!
//! A case either does not compile (its ops are not handled yet: the list
//! `tests/data/zluda-ours-uncompiled.tsv` names the first error per case
//! and SM; the test fails when it changes, `BLESS=1` rewrites it), or it
//! compiles and must give the expected output, unless it is listed with
//! a reason in `tests/data/zluda-known-failures-ours.tsv`. The compiled
//! cubin must also read back as a cubin (the interpreter loads it).

mod common;

use common::verdicts::{Verdicts, compare};
use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::conformance::{self, KnownFailures, Manifest};
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;
use std::path::Path;

const SMS: [u16; 3] = [80, 90, 120];

enum Outcome {
    /// Did not compile: the first error.
    Uncompiled(String),
    /// Compiled and ran: matched, or what went wrong.
    Ran(Result<(), String>),
}

fn run_case(manifest: &Manifest, case: &conformance::Case, sm: u16) -> Outcome {
    let path = manifest.dir.join(&case.ptx);
    let Ok(source) = std::fs::read_to_string(&path) else { return Outcome::Uncompiled("unreadable".into()) };
    let Ok(module) = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()) else {
        return Outcome::Uncompiled("does not parse or check".into());
    };
    let compiled = match driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default()) {
        Ok(c) => c,
        Err(errors) => {
            let first = errors.iter().find(|e| e.function == case.kernel).or(errors.first());
            return Outcome::Uncompiled(first.map_or_else(|| "unknown error".into(), ToString::to_string));
        }
    };
    let spec = case.launch_spec();
    let options = RunOptions { step_budget: 20_000_000, hazards: HazardCheck::Fail, ..Default::default() };
    let result = sass::run(&compiled.cubin, &spec, &options).map_err(|e| e.to_string()).and_then(|out| {
        let bytes = out.launch.buffer_bytes(case.output_param()).ok_or("no output buffer")?;
        case.check_output(bytes)
    });
    Outcome::Ran(result)
}

#[test]
fn zluda_cases_compiled_by_us_run_on_the_sass_interpreter() {
    let Some(corpus) = common::corpus_dir("zluda_ours") else { return };
    let manifest = Manifest::load(&corpus.join("zluda")).expect("manifest");
    let known_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zluda-known-failures-ours.tsv");
    let known = KnownFailures::load(&known_path).expect("known failures");
    let mut jobs = Vec::new();
    for sm in SMS {
        for (i, case) in manifest.cases.iter().enumerate() {
            if case.accepted_by_ptxas(&format!("sm_{sm}")) {
                jobs.push((sm, i));
            }
        }
    }
    let results = common::par_map(&jobs, |&(sm, i)| (sm, i, run_case(&manifest, &manifest.cases[i], sm)));

    let mut uncompiled = Verdicts::new();
    let mut ok = true;
    let mut report = String::new();
    for sm in SMS {
        let runner = format!("sm_{sm}");
        let mut ran = Vec::new();
        let mut cases = 0;
        for (s, i, outcome) in &results {
            if *s != sm {
                continue;
            }
            cases += 1;
            let case = &manifest.cases[*i];
            match outcome {
                Outcome::Uncompiled(e) => {
                    uncompiled.insert((case.name.clone(), runner.clone(), e.clone()));
                }
                Outcome::Ran(r) => ran.push((case.name.clone(), r.clone())),
            }
        }
        let tally = conformance::judge(&format!("ours {runner}"), &runner, &ran, &known);
        report.push_str(&format!("ours {runner}: {} of {cases} cases compile; ", ran.len()));
        report.push_str(&tally.report());
        ok &= tally.ok();
    }
    eprintln!("{report}");
    compare(
        "zluda-ours-uncompiled.tsv",
        "# ZLUDA run cases ptx2sass does not compile yet (tests/zluda_ours.rs): case<TAB>sm<TAB>first error.\n# BLESS=1 cargo test --release --test zluda_ours rewrites it.\n",
        &uncompiled,
    );
    assert!(ok, "our cubins on the SASS interpreter:\n{report}");
}
