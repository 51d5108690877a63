//! Parses and checks every `.ptx` file under a directory a given number of
//! times (default once): a fixed workload for instruction-count profiling
//! of the front end, e.g. under `valgrind --tool=callgrind`.
//!
//! `cargo run --release --example frontend_pass -- DIR [PASSES] [parse|check]`

use std::path::{Path, PathBuf};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "examples".into()));
    let passes: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let check = args.next().is_none_or(|m| m != "parse");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    let texts: Vec<String> = files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let opts = ptx2sass::internals::ptx::CheckOptions::default();
    let mut accepted = 0usize;
    let t = std::time::Instant::now();
    for _ in 0..passes {
        for text in &texts {
            if let Ok(m) = ptx2sass::internals::ptx::parse(text) {
                accepted += if check { ptx2sass::internals::ptx::check(&m, &opts).is_ok() as usize } else { 1 };
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} files, {bytes} bytes, {passes} passes, {accepted} accepted, {:.1} MB/s",
        texts.len(),
        (bytes * passes) as f64 / secs / 1e6
    );
}

/// Every `.ptx` file under `dir`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}
