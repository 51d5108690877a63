//! PTX → Ori lowering over the corpus: every ZLUDA kernel for sm_75, 80,
//! 90, 100 and 120, and every nvcc-made kernel of the `kernels` corpus
//! (its sm_90 PTX). A kernel lowers when it and every function it calls
//! lower; the lowered functions must pass the IR verifier (raw stage). The
//! kernels that do not lower are listed, with the first error that stops
//! each, in `tests/data/lower-zluda-unsupported.tsv` and
//! `tests/data/lower-kernels-unsupported.tsv`: the test fails when a
//! kernel newly fails, newly lowers, or fails for another reason.
//! `BLESS=1` rewrites the lists (review the diff).

mod common;

use common::verdicts::{Verdicts, compare};

use ptx2sass::internals::ir::entity::EntityRef;
use ptx2sass::internals::ir::verify::{verify_function, Stage};
use ptx2sass::internals::ir::{Function, FunctionKind, Module, Opcode};
use ptx2sass::internals::lower::lower_module_partial;
use ptx2sass::internals::target::Sm;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

/// The IR verifier's verdict on a lowered function (first error).
fn check_function(m: &Module, f: &Function) -> Result<(), String> {
    verify_function(m, f, Stage::Raw).map_err(|e| e.first().map_or_else(String::new, |e| e.to_string()))
}

/// Every kernel of one file with the reason it does not lower (`None`
/// when it lowers and checks), for one SM.
fn kernels_of(path: &Path, sm: u16) -> Result<Vec<(String, Option<String>)>, String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let module = ptx2sass::internals::ptx::parse(&src).map_err(|_| "parse error".to_string())?;
    ptx2sass::internals::ptx::check(&module, &Default::default()).map_err(|_| "check error".to_string())?;
    let lowered = lower_module_partial(&module, Sm::new(sm), Some(&src));
    let m = &lowered.module;
    // First error of each function.
    let mut first: BTreeMap<&str, String> = BTreeMap::new();
    for e in &lowered.errors {
        first.entry(e.function.as_str()).or_insert_with(|| e.message.clone());
    }
    if let Some(e) = first.get("") {
        return Err(format!("module: {e}"));
    }
    for (_, f) in m.functions.iter() {
        if !first.contains_key(f.name.as_str()) {
            if let Err(e) = check_function(m, f) {
                first.insert(f.name.as_str(), format!("malformed IR: {e}"));
            }
        }
    }
    let mut out = Vec::new();
    for (_, f) in m.functions.iter().filter(|(_, f)| f.kind == Some(FunctionKind::Kernel)) {
        // The kernel and everything it calls.
        let mut seen = BTreeSet::new();
        let mut stack = vec![f.name.as_str()];
        let mut reason = None;
        while let Some(name) = stack.pop() {
            if !seen.insert(name) {
                continue;
            }
            if let Some(e) = first.get(name) {
                reason = Some(if name == f.name { e.clone() } else { format!("{e} (in callee {name})") });
                break;
            }
            let Some(id) = m.function_by_name(name) else { continue };
            let g = &m.functions[id];
            for &b in &g.layout {
                for &i in &g.blocks[b].insts {
                    if g.insts[i].opcode == Opcode::Call {
                        if let Some(c) = m.functions.get(ptx2sass::internals::ir::FuncId::new(g.insts[i].imm as usize)) {
                            stack.push(c.name.as_str());
                        }
                    }
                }
            }
        }
        out.push((f.name.clone(), reason));
    }
    Ok(out)
}

/// The shape of a module: per function and block, the number of block
/// parameters and the opcodes in order.
fn shape(m: &Module) -> Vec<(usize, Vec<Opcode>)> {
    let mut out = Vec::new();
    for (_, f) in m.functions.iter() {
        for &b in &f.layout {
            out.push((f.blocks[b].params.len(), f.blocks[b].insts.iter().map(|&i| f.insts[i].opcode).collect()));
        }
    }
    out
}

/// Sealing blocks as soon as their last predecessor is emitted (the
/// default) must give what sealing at the end gives: a miscounted
/// predecessor would make a read skip a merge.
fn sealing_agrees(path: &Path) -> Result<(), String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let Ok(module) = ptx2sass::internals::ptx::parse(&src) else { return Ok(()) };
    let early = ptx2sass::internals::lower::lower_with(&module, Sm::new(90), None, true);
    let late = ptx2sass::internals::lower::lower_with(&module, Sm::new(90), None, false);
    if early.errors != late.errors || shape(&early.module) != shape(&late.module) {
        return Err("early and late sealing disagree".into());
    }
    Ok(())
}


fn run(files: &[PathBuf], sms: &[u16]) -> (usize, usize, Verdicts) {
    let per_file = common::par_map(files, |p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut total = 0;
        let mut ok = 0;
        let mut bad = Verdicts::new();
        if let Err(e) = sealing_agrees(p) {
            bad.insert((name.clone(), "-".into(), e));
        }
        for &sm in sms {
            match kernels_of(p, sm) {
                Ok(ks) => {
                    for (k, reason) in ks {
                        total += 1;
                        match reason {
                            None => ok += 1,
                            Some(r) => {
                                bad.insert((name.clone(), k, r));
                            }
                        }
                    }
                }
                Err(e) => {
                    bad.insert((name.clone(), "-".into(), e));
                }
            }
        }
        (total, ok, bad)
    });
    let mut total = 0;
    let mut ok = 0;
    let mut bad = Verdicts::new();
    for (t, o, b) in per_file {
        total += t;
        ok += o;
        bad.extend(b);
    }
    (total / sms.len(), ok / sms.len(), bad)
}

#[test]
fn zluda_kernels_lower_for_every_target() {
    let Some(corpus) = common::corpus_dir("zluda_kernels_lower_for_every_target") else { return };
    let files = common::ptx_files(&corpus.join("zluda/ptx"));
    assert!(files.len() >= 200, "{} ZLUDA files", files.len());
    let (total, ok, bad) = run(&files, &SMS);
    println!("ZLUDA: {ok} of {total} kernels lower and check for sm_75/80/90/100/120; stopped by:\n{}", common::verdicts::summary(&bad, |r| r.split(" (in callee").next().unwrap_or(r).to_string()));
    compare(
        "lower-zluda-unsupported.tsv",
        "# ZLUDA kernels that do not lower (tests/lower_zluda.rs): file<TAB>kernel<TAB>first error\n# (`-` as kernel: the file does not parse or check). BLESS=1 cargo test --test lower_zluda rewrites it.\n",
        &bad,
    );
}

#[test]
fn nvcc_kernels_lower() {
    let Some(corpus) = common::corpus_dir("nvcc_kernels_lower") else { return };
    let files: Vec<PathBuf> = common::ptx_files(&corpus.join("kernels"))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".sm_90.ptx")))
        .collect();
    assert!(files.len() >= 30, "{} sm_90 files", files.len());
    let (total, ok, bad) = run(&files, &[90]);
    println!("kernels corpus (sm_90 PTX): {ok} of {total} kernels lower and check; stopped by:\n{}", common::verdicts::summary(&bad, |r| r.split(" (in callee").next().unwrap_or(r).to_string()));
    compare(
        "lower-kernels-unsupported.tsv",
        "# nvcc-made kernels (corpus/kernels/*.sm_90.ptx) that do not lower (tests/lower_zluda.rs):\n# file<TAB>kernel<TAB>first error. BLESS=1 cargo test --test lower_zluda rewrites it.\n",
        &bad,
    );
}
