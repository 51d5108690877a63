//! The middle of the compiler over the ZLUDA corpus: every kernel is
//! lowered, legalized (early and late) and selected for sm_75, 80, 90, 100
//! and 120, with the IR verifier after every stage ([`ptx2sass::internals::driver`]).
//! A kernel passes when it and every function it calls get through every
//! stage. The kernels that do not are
//! listed with the stage and first error that stop them in
//! `tests/data/pipeline-zluda-unsupported.tsv` (one line per kernel and
//! SM); the test fails when that list changes. `BLESS=1` rewrites it.

mod common;

use common::verdicts::{Verdicts, compare, summary};
use ptx2sass::internals::driver::{self, Options};
use ptx2sass::internals::ir::FunctionKind;
use ptx2sass::internals::target::Sm;
use std::collections::BTreeMap;
use std::path::Path;

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

/// (kernels, kernels through every stage, failures) of one file on one SM.
fn run_file(path: &Path, sm: u16) -> (usize, usize, Vec<(String, String)>) {
    let Ok(src) = std::fs::read_to_string(path) else { return (0, 0, vec![("-".into(), "unreadable".into())]) };
    let Ok(module) = ptx2sass::internals::ptx::parse_and_check(&src, &Default::default()) else {
        return (0, 0, vec![("-".into(), "does not parse or check".into())]);
    };
    let options = Options { verify: true, ..Default::default() };
    let (raw, errors) = driver::lower(&module, Sm::new(sm), Some(&src), options);
    if let Some(e) = errors.iter().find(|e| e.function.is_empty()) {
        return (0, 0, vec![("-".into(), format!("sm_{sm}: {e}"))]);
    }
    let mut first: BTreeMap<&str, String> = BTreeMap::new();
    for e in &errors {
        first.entry(e.function.as_str()).or_insert_with(|| e.to_string());
    }
    let (mut total, mut ok, mut bad) = (0, 0, Vec::new());
    for (id, kernel) in raw.functions.iter().filter(|(_, f)| f.kind == Some(FunctionKind::Kernel)) {
        total += 1;
        let mut reason = None;
        for g in driver::call_closure(&raw, id) {
            let f = &raw.functions[g];
            if let Some(e) = first.get(f.name.as_str()) {
                reason = Some(e.clone());
                break;
            }
            if f.layout.is_empty() {
                continue;
            }
            if let Err(e) = driver::compile_function(&raw, g, options) {
                reason = Some(e.to_string());
                break;
            }
        }
        match reason {
            None => ok += 1,
            Some(r) => bad.push((kernel.name.clone(), format!("sm_{sm}: {r}"))),
        }
    }
    (total, ok, bad)
}

/// The reason without its location and operands: the stage and the
/// operation (for the summary).
fn reason_key(r: &str) -> String {
    // "sm_XX: stage: function: message (in function)"
    let mut parts = r.splitn(4, ": ");
    let (_, stage, _, message) = (parts.next(), parts.next().unwrap_or(""), parts.next(), parts.next().unwrap_or(r));
    let message = message.split(" (in ").next().unwrap_or(message);
    let message = message.split('`').next().unwrap_or(message);
    format!("{stage}: {}", message.chars().take(80).collect::<String>())
}

#[test]
fn zluda_kernels_through_lower_legalize_select() {
    let Some(corpus) = common::corpus_dir("zluda_kernels_through_lower_legalize_select") else { return };
    let files = common::ptx_files(&corpus.join("zluda/ptx"));
    assert!(files.len() >= 200, "{} ZLUDA files", files.len());
    let results = common::par_map(&files, |p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        SMS.map(|sm| (name.clone(), sm, run_file(p, sm)))
    });
    let mut per_sm: BTreeMap<u16, (usize, usize)> = BTreeMap::new();
    let mut got = Verdicts::new();
    for (name, sm, (t, o, bad)) in results.into_iter().flatten() {
        let e = per_sm.entry(sm).or_default();
        e.0 += t;
        e.1 += o;
        for (k, r) in bad {
            got.insert((name.clone(), k, r));
        }
    }
    for (sm, (t, o)) in &per_sm {
        println!("sm_{sm}: {o} of {t} ZLUDA kernels lower, legalize and select with the verifier passing");
    }
    println!("stopped by:\n{}", summary(&got, reason_key));
    compare(
        "pipeline-zluda-unsupported.tsv",
        "# ZLUDA kernels that do not get through lowering, legalization and selection (tests/pipeline_zluda.rs):\n# file<TAB>kernel<TAB>sm: stage: function: first error. BLESS=1 cargo test --release --test pipeline_zluda rewrites it.\n",
        &got,
    );
}
