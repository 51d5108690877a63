//! ptxas's cubins of the corpus, cached under the target directory
//! (`CARGO_TARGET_TMPDIR/ptxas-cache/sm_NN/`, one file per PTX file, made
//! again when the PTX is newer), so that the cubin tests run ptxas once per
//! file and SM, not once per test run.

#![allow(dead_code)]

use super::common;
use std::path::Path;

/// ptxas's cubin of `file` for `sm`, from the cache or made now; `None`
/// when ptxas rejects the file.
pub fn ptxas_cubin(ptxas: &Path, corpus: &Path, sm: u16, file: &Path) -> Option<Vec<u8>> {
    let relative = file.strip_prefix(corpus).unwrap_or(file).to_string_lossy().replace(['/', '\\'], "__");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ptxas-cache").join(format!("sm_{sm}"));
    std::fs::create_dir_all(&dir).expect("cache dir");
    let cubin = dir.join(format!("{relative}.cubin"));
    let rejected = dir.join(format!("{relative}.rejected"));
    let source_time = std::fs::metadata(file).and_then(|m| m.modified()).ok();
    let fresh = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok().is_some_and(|t| source_time.is_some_and(|s| t >= s));
    if fresh(&rejected) {
        return None;
    }
    if !fresh(&cubin) {
        // Compile to a private name, then rename: parallel runs never see
        // half a file.
        let partial = dir.join(format!("{relative}.{}.partial", std::process::id()));
        if !common::compile_cubin(ptxas, sm, file, &partial) {
            let _ = std::fs::remove_file(&partial);
            std::fs::write(&rejected, b"").expect("cache marker");
            return None;
        }
        std::fs::rename(&partial, &cubin).expect("cache file");
    }
    std::fs::read(&cubin).ok()
}

