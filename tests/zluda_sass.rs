//! The ZLUDA conformance corpus on the SASS interpreter: every run case
//! the reference ptxas accepts for sm_80, sm_90 and sm_120 is compiled by
//! it (cubins cached under `target/zluda-sass-cubins`, keyed by the PTX's
//! hash and the SM) and run; at least 95% of them must match per SM, a
//! case whose code does not decode counting as a miss (the share of all
//! the manifest's run cases is printed too), and every miss must be listed
//! in `tests/data/zluda-known-failures-sass.tsv` (a listed case that
//! passes fails the test too).

mod common;

use ptx2sass::internals::interp::conformance::{self, KnownFailures, Manifest};
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options};
use std::path::{Path, PathBuf};


const SMS: [u16; 3] = [80, 90, 120];

#[test]
fn zluda_cases_run_on_the_sass_interpreter() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "zluda_sass") else { return };
    let Some(corpus) = common::corpus_dir("zluda_sass") else { return };
    let manifest = Manifest::load(&corpus.join("zluda")).expect("manifest");
    let known_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zluda-known-failures-sass.tsv");
    let known = KnownFailures::load(&known_path).expect("known failures");
    let cache: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/zluda-sass-cubins");
    std::fs::create_dir_all(&cache).expect("cache dir");

    let mut jobs = Vec::new();
    for sm in SMS {
        for (i, case) in manifest.cases.iter().enumerate() {
            if case.accepted_by_ptxas(&format!("sm_{sm}")) {
                jobs.push((sm, i));
            }
        }
    }
    let options = Options { step_budget: 20_000_000, hazards: HazardCheck::Fail, ..Default::default() };
    let results: Vec<(u16, String, Result<(), String>)> = common::par_map(&jobs, |&(sm, i)| {
        let case = &manifest.cases[i];
        let result = (|| {
            let cubin = common::cached_cubin(&ptxas, &cache, &manifest.dir.join(&case.ptx), sm)?;
            let spec = case.launch_spec();
            let out = sass::run(&cubin, &spec, &options).map_err(|e| e.to_string())?;
            let bytes = out.launch.buffer_bytes(case.output_param()).ok_or("no output buffer")?;
            case.check_output(bytes)
        })();
        (sm, case.name.clone(), result)
    });

    let mut ok = true;
    let mut report = String::new();
    for sm in SMS {
        let runner = format!("sm_{sm}");
        let mine: Vec<(String, Result<(), String>)> = results.iter().filter(|r| r.0 == sm).map(|r| (r.1.clone(), r.2.clone())).collect();
        let tally = conformance::judge(&format!("sass {runner}"), &runner, &mine, &known);
        report.push_str(&tally.report());
        // Every case ptxas compiles for the SM counts, those that stop at a
        // word the isa decoder has no form for as misses. A case ptxas
        // rejects for the SM (its PTX needs a newer one) has no code to run:
        // it is outside the bar but inside the share of all run cases.
        let all = manifest.cases.len();
        let undecodable = mine.iter().filter(|(_, r)| r.as_ref().is_err_and(|e| e.contains("undecodable instruction word"))).count();
        let percent = if tally.cases == 0 { 100.0 } else { 100.0 * tally.passed as f64 / tally.cases as f64 };
        report.push_str(&format!(
            "sass {runner}: {}/{} compiled cases match ({percent:.1}%; {undecodable} stop at undecodable words); {}/{all} of all run cases\n",
            tally.passed, tally.cases, tally.passed
        ));
        if !tally.ok() || percent < 95.0 {
            ok = false;
        }
    }
    eprintln!("{report}");
    assert!(ok, "SASS interpreter conformance:\n{report}");
}
