//! Shared helpers of the crate-level tests: the corpus location and running
//! the reference `ptxas`.

#![allow(dead_code)]

pub mod measured_words;
pub mod ptxas_match;
pub mod verdicts;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared test corpus (`$PTX2SASS_CORPUS` or `../shared/corpus` next to
/// the repository). `None` (with a visible skip line) when absent: it lives
/// outside the repository.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("PTX2SASS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED (corpus not found at {}; set PTX2SASS_CORPUS): {test}", dir.display());
        None
    }
}

/// Every `.ptx` file under `dir`, sorted.
pub fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    files_with_extensions(dir, &["ptx"])
}

/// Every file under `dir` whose extension is one of `extensions`, sorted.
pub fn files_with_extensions(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|x| x.to_str()).is_some_and(|x| extensions.contains(&x)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Result of running a checker on one file.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// Accepted (exit 0).
    pub ok: bool,
    /// Exit code, or `None` when killed by a signal.
    pub code: Option<i32>,
    /// First lines of the messages.
    pub message: String,
}

fn run(cmd: &mut Command) -> Verdict {
    match cmd.output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
            let message = text.lines().take(3).collect::<Vec<_>>().join(" | ");
            Verdict { ok: out.status.success(), code: out.status.code(), message }
        }
        Err(e) => Verdict { ok: false, code: Some(-1), message: format!("could not run: {e}") },
    }
}

/// `ptxas -arch=<arch> file -o /dev/null`.
pub fn ptxas(ptxas: &Path, arch: &str, file: &Path) -> Verdict {
    run(Command::new(ptxas).arg(format!("-arch={arch}")).arg(file).arg("-o").arg("/dev/null"))
}

/// Our binary with the same arguments.
pub fn ours(arch: &str, file: &Path) -> Verdict {
    run(Command::new(env!("CARGO_BIN_EXE_ptx2sass")).arg(format!("-arch={arch}")).arg(file))
}

/// Compiles `file` for `sm_<sm>` with the reference `ptxas` into `cubin`;
/// false when ptxas rejects it.
pub fn compile_cubin(ptxas: &Path, sm: u16, file: &Path, cubin: &Path) -> bool {
    compile_cubin_with(ptxas, sm, file, cubin, &[])
}

/// [`compile_cubin`] with extra ptxas options (`-c` for a relocatable cubin).
pub fn compile_cubin_with(ptxas: &Path, sm: u16, file: &Path, cubin: &Path, options: &[&str]) -> bool {
    Command::new(ptxas).arg(format!("-arch=sm_{sm}")).args(options).arg(file).arg("-o").arg(cubin).output().is_ok_and(|o| o.status.success())
}

/// Runs `f` over `items` on all cores, keeping order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(16);
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items.chunks(chunk).map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<_>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker thread")).collect()
    })
}

/// The corpus PTX files ptxas compiles for `sm`: every ZLUDA kernel, and of
/// the nvcc-made kernels (`name.sm_NN[.variant].ptx`) the ones made for the
/// highest SM not above `sm`.
pub fn ptx_inputs_for_sm(corpus: &Path, sm: u16) -> Vec<PathBuf> {
    let files = ptx_files(corpus);
    let variant = |p: &Path| -> Option<u16> {
        let name = p.file_name()?.to_str()?;
        let rest = name.split(".sm_").nth(1)?;
        rest.split('.').next()?.parse().ok()
    };
    let best = files.iter().filter_map(|p| variant(p)).filter(|v| *v <= sm).max();
    files
        .iter()
        .filter(|p| match variant(p) {
            None => p.components().any(|c| c.as_os_str() == "zluda"),
            Some(v) => Some(v) == best,
        })
        .cloned()
        .collect()
}

/// FNV-1a of the PTX text: the cache key of [`cached_cubin`] (with the SM
/// and the ptxas path).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The cubin ptxas makes of `ptx` for `sm_<sm>`, cached under `cache`
/// (keyed by the PTX's hash, the ptxas path and the SM).
pub fn cached_cubin(ptxas: &Path, cache: &Path, ptx: &Path, sm: u16) -> Result<Vec<u8>, String> {
    let text = std::fs::read(ptx).map_err(|e| format!("{}: {e}", ptx.display()))?;
    let key = fnv(&text) ^ fnv(ptxas.to_string_lossy().as_bytes()).rotate_left(7);
    let path = cache.join(format!("{:016x}.sm_{sm}.cubin", key));
    if let Ok(bytes) = std::fs::read(&path) {
        return Ok(bytes);
    }
    // One temporary name per call (tests of one process may compile the
    // same kernel at once).
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = cache.join(format!("{:016x}.sm_{sm}.{}.{call}.tmp", key, std::process::id()));
    if !compile_cubin(ptxas, sm, ptx, &tmp) {
        return Err(format!("ptxas rejected {} for sm_{sm}", ptx.display()));
    }
    std::fs::rename(&tmp, &path).map_err(|e| e.to_string())?;
    std::fs::read(&path).map_err(|e| e.to_string())
}
