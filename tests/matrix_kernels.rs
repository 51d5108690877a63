//! The tensor-core test kernels (`tests/data/matrix`, written by its
//! `generate.py`): every `mma` shape and type ptx2sass lowers, every
//! `ldmatrix` form, and an ldmatrix-fed mma chain. Each kernel names the
//! SMs it runs on (`// sms: 80 90 120`: where ptxas emits one machine
//! instruction for it); for each, ptxas's cubin (cached under
//! `target/matrix-kernel-cubins`) and ours must give the same outputs
//! ([`common::ptxas_match`]).

mod common;

use common::ptxas_match::{check, sms_of};
use std::path::{Path, PathBuf};

fn kernels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matrix");
    let mut v = common::ptx_files(&dir);
    v.sort();
    v
}

#[test]
fn matrix_kernels_match_ptxas_on_the_sass_interpreter() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "matrix_kernels") else { return };
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/matrix-kernel-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    let mut jobs = Vec::new();
    for ptx in kernels() {
        let text = std::fs::read_to_string(&ptx).expect("kernel");
        let sms = sms_of(&text);
        assert!(!sms.is_empty(), "{}: no `// sms:` line", ptx.display());
        jobs.extend(sms.into_iter().map(|sm| (ptx.clone(), sm)));
    }
    assert!(jobs.len() >= 60, "only {} kernel runs", jobs.len());
    let results = common::par_map(&jobs, |(ptx, sm)| check(&ptxas, &cache, ptx, *sm).map(drop));
    let failures: Vec<String> = jobs
        .iter()
        .zip(&results)
        .filter_map(|((ptx, sm), r)| r.as_ref().err().map(|e| format!("{} sm_{sm}: {e}", ptx.file_stem().unwrap_or_default().to_string_lossy())))
        .collect();
    eprintln!("matrix kernels: {} of {} runs identical to ptxas's cubin", jobs.len() - failures.len(), jobs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
