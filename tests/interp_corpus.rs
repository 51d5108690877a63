//! Both interpreters on the realistic corpus: every kernel of
//! `../shared/corpus/kernels` runs under its launch spec from
//! `tests/data/launch/NAME.KERNEL.json` in the PTX interpreter (sm_90 PTX)
//! and in the SASS interpreter (ptxas's sm_90 cubin, hazard checking on).
//! Neither may report an error, and their output buffers must agree, except
//! for the kernels `tests/data/interp-corpus-exceptions.tsv` lists with a
//! reason (lines `KERNEL-SPEC<TAB>reason`, the spec's file stem).

mod common;

use ptx2sass::internals::interp::{self, LaunchSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn specs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/launch");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect()).unwrap_or_default();
    v.sort();
    v
}

fn exceptions() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/interp-corpus-exceptions.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, r) = l.split_once('\t').unwrap_or((l, ""));
            assert!(!r.trim().is_empty(), "exception without a reason: {l}");
            (k.trim().to_string(), r.trim().to_string())
        })
        .collect()
}

#[test]
fn interpreters_agree_on_the_corpus_kernels() {
    let Some(corpus) = common::corpus_dir("interpreters_agree_on_the_corpus_kernels") else { return };
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "interpreters_agree_on_the_corpus_kernels") else { return };
    let specs = specs();
    assert!(specs.len() >= 125, "tests/data/launch holds {} specs, expected one per corpus kernel (125)", specs.len());
    let scratch = std::env::temp_dir().join(format!("ptx2sass-interp-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    // One cubin per source file.
    let mut files: Vec<String> = specs.iter().map(|p| stem_file(p)).collect();
    files.dedup();
    let compiled = common::par_map(&files, |name| {
        let ptx = corpus.join("kernels").join(format!("{name}.sm_90.ptx"));
        let cubin = scratch.join(format!("{name}.sm_90.cubin"));
        (name.clone(), common::compile_cubin(&ptxas, 90, &ptx, &cubin).then_some(cubin))
    });
    let cubins: BTreeMap<String, Option<PathBuf>> = compiled.into_iter().collect();
    let results = common::par_map(&specs, |spec_path| -> (String, Result<(), String>) {
        let key = spec_path.file_stem().unwrap().to_string_lossy().into_owned();
        let name = stem_file(spec_path);
        (key, run_both(&corpus, &name, spec_path, cubins.get(&name).and_then(|c| c.as_deref())))
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let known = exceptions();
    let (mut agree, mut listed, mut failures, mut stale) = (0, 0, Vec::new(), Vec::new());
    for (key, r) in &results {
        match (r, known.get(key)) {
            (Ok(()), None) => agree += 1,
            (Ok(()), Some(_)) => stale.push(key.clone()),
            (Err(_), Some(_)) => listed += 1,
            (Err(e), None) => failures.push(format!("{key}: {e}")),
        }
    }
    eprintln!("corpus kernels: {agree}/{} agree, {listed} listed exceptions", results.len());
    for (key, r) in &results {
        if let (Err(e), Some(reason)) = (r, known.get(key)) {
            eprintln!("  exception {key}: {reason} [{e}]");
        }
    }
    assert!(failures.is_empty() && stale.is_empty(), "unlisted failures:\n{}\nlisted but agreeing (remove from the exceptions): {stale:?}", failures.join("\n"));
}

/// `NAME` of `NAME.KERNEL.json`.
fn stem_file(p: &Path) -> String {
    let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
    stem.split('.').next().unwrap_or(&stem).to_string()
}

fn run_both(corpus: &Path, name: &str, spec_path: &Path, cubin: Option<&Path>) -> Result<(), String> {
    let spec = LaunchSpec::from_json(&std::fs::read_to_string(spec_path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let ptx_path = corpus.join("kernels").join(format!("{name}.sm_90.ptx"));
    let source = std::fs::read_to_string(&ptx_path).map_err(|e| e.to_string())?;
    let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|d| d.render(&ptx_path.display().to_string(), &source))?;
    let ptx_out = interp::ptx::run(&module, &spec, &Default::default()).map_err(|e| format!("PTX interpreter: {}", e.render(&ptx_path.display().to_string(), &source)))?;
    let cubin = cubin.ok_or("ptxas failed")?;
    let bytes = std::fs::read(cubin).map_err(|e| e.to_string())?;
    let sass_out = interp::sass::run(&bytes, &spec, &Default::default()).map_err(|e| format!("SASS interpreter: {e}"))?;
    let (a, b) = (ptx_out.launch.outputs_text(), sass_out.launch.outputs_text());
    if a != b {
        let first = a.lines().zip(b.lines()).find(|(x, y)| x != y).map(|(x, y)| {
            let at = x.bytes().zip(y.bytes()).position(|(p, q)| p != q).unwrap_or(0);
            format!("{} differs from byte {}", x.split(':').next().unwrap_or(""), at.saturating_sub(at % 2) / 2)
        });
        return Err(format!("outputs differ: {}", first.unwrap_or_default()));
    }
    Ok(())
}

/// The corpus kernels whose calls survive inlining (recursion, `printf`),
/// compiled by ptx2sass for sm_80, sm_90 and sm_120 and run in the SASS
/// interpreter with hazard checking on: their outputs must be the PTX
/// interpreter's. (`debug_print`'s spill reloads on the two sides of a
/// divergent branch write the same register: no hazard, as the checker
/// keeps divergent groups apart.)
#[test]
fn our_cubins_of_the_calling_kernels_agree_with_the_ptx_interpreter() {
    use ptx2sass::internals::driver::{self, CodegenOptions, Options};
    use ptx2sass::internals::interp::sass::{HazardCheck, Options as RunOptions};
    use ptx2sass::internals::target::Sm;
    let Some(corpus) = common::corpus_dir("our_cubins_of_the_calling_kernels_agree_with_the_ptx_interpreter") else { return };
    let launch = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/launch");
    let cases = [("recursion", "rec_fib"), ("recursion", "rec_factorial"), ("recursion", "rec_gcd"), ("recursion", "rec_tree_sum"), ("printf_debug", "debug_print")];
    let jobs: Vec<(u16, usize)> = [80u16, 90, 120].iter().flat_map(|&sm| (0..cases.len()).map(move |k| (sm, k))).collect();
    let results = common::par_map(&jobs, |&(sm, k)| -> Result<(), String> {
        let (file, kernel) = cases[k];
        let spec_path = launch.join(format!("{file}.{kernel}.json"));
        let spec = LaunchSpec::from_json(&std::fs::read_to_string(&spec_path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        // The PTX of the SM's family (the corpus has sm_80, sm_90, sm_120 files).
        let ptx_path = corpus.join("kernels").join(format!("{file}.sm_{sm}.ptx"));
        let source = std::fs::read_to_string(&ptx_path).map_err(|e| e.to_string())?;
        let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|d| d.render(&ptx_path.display().to_string(), &source))?;
        let ptx_out = interp::ptx::run(&module, &spec, &Default::default()).map_err(|e| format!("PTX interpreter: {}", e.render(&ptx_path.display().to_string(), &source)))?;
        let compiled = driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
        let options = RunOptions { hazards: HazardCheck::Fail, ..Default::default() };
        let sass_out = interp::sass::run(&compiled.cubin, &spec, &options).map_err(|e| format!("SASS interpreter: {e}"))?;
        if ptx_out.launch.outputs_text() != sass_out.launch.outputs_text() {
            return Err("outputs differ".into());
        }
        Ok(())
    });
    let failures: Vec<String> = jobs.iter().zip(&results).filter_map(|(&(sm, k), r)| r.as_ref().err().map(|e| format!("sm_{sm} {}.{}: {e}", cases[k].0, cases[k].1))).collect();
    eprintln!("calling kernels, our cubins: {}/{} agree with the PTX interpreter", results.len() - failures.len(), results.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
