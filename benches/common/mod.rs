//! Inputs shared by the benchmarks.

use std::path::{Path, PathBuf};

/// Every `.ptx` file under `dir`, sorted (empty when `dir` is missing).
pub fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ptx") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
