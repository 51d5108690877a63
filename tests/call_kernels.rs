//! Calls and addresses (`tests/data/calls`): structs passed and returned
//! by value through `.param` aggregates (nvcc's PTX for the `.cu` file of
//! the same name), inlined and across a real call, and `.const`
//! initialisers that hold variables' addresses. Each kernel names its SMs
//! (`// sms:`); ptxas's cubin (cached under `target/call-kernel-cubins`)
//! and ours must give the same outputs ([`common::ptxas_match`]). A
//! kernel with a `// calls: kept` line must keep a `CALL` in our code
//! (its callee is recursive, so the inliner leaves it), so the call
//! convention itself is what the outputs check.

mod common;

use common::ptxas_match::{check, sms_of};
use std::path::{Path, PathBuf};

fn kernels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/calls");
    let mut v = common::ptx_files(&dir);
    v.sort();
    v
}

fn check_kernel(ptxas: &Path, cache: &Path, ptx: &Path, sm: u16, calls_kept: bool) -> Result<(), String> {
    let cubin = check(ptxas, cache, ptx, sm)?;
    if calls_kept {
        let listing = ptx2sass::disassemble(&cubin).map_err(|e| e.to_string())?;
        if !listing.contains("CALL.REL") {
            return Err("no CALL.REL in our code: the call was inlined, the convention is not tested".into());
        }
    }
    Ok(())
}

#[test]
fn call_kernels_match_ptxas_on_the_sass_interpreter() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "call_kernels") else { return };
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/call-kernel-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    let mut jobs = Vec::new();
    for ptx in kernels() {
        let text = std::fs::read_to_string(&ptx).expect("kernel");
        let sms = sms_of(&text);
        assert!(!sms.is_empty(), "{}: no `// sms:` line", ptx.display());
        let kept = text.lines().any(|l| l.starts_with("// calls: kept"));
        jobs.extend(sms.into_iter().map(|sm| (ptx.clone(), sm, kept)));
    }
    assert!(jobs.len() >= 12, "only {} kernel runs", jobs.len());
    let results = common::par_map(&jobs, |(ptx, sm, kept)| check_kernel(&ptxas, &cache, ptx, *sm, *kept));
    let failures: Vec<String> = jobs
        .iter()
        .zip(&results)
        .filter_map(|((ptx, sm, _), r)| r.as_ref().err().map(|e| format!("{} sm_{sm}: {e}", ptx.file_stem().unwrap_or_default().to_string_lossy())))
        .collect();
    eprintln!("call kernels: {} of {} runs identical to ptxas's cubin", jobs.len() - failures.len(), jobs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
