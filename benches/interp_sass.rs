//! SASS interpreter speed on corpus kernels compiled by the reference ptxas
//! for sm_90 and run under their launch specs (`tests/data/launch`), hazard
//! checking on: `early_exit.cu`'s `collatz_steps` (a data-dependent loop,
//! mostly straight-line integer code) and `recursion.cu`'s `rec_fib` (deep
//! divergent recursion: many thread groups per warp, calls and returns).
//! Reports warp-instructions per second (divan's item counter counts one
//! item per interpreted warp-instruction): `*_whole_run` loads, decodes and
//! translates the cubin every time as [`ptx2sass::internals::interp::sass::run`] does;
//! `*_steady_state` translates once and measures execution alone (the
//! figure for long-running kernels).
//!
//! `cargo bench --bench interp_sass`

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::{HazardCheck, Options, exec, load, run, translate};
use std::sync::OnceLock;

fn main() {
    for (file, name, k) in [("early_exit", "collatz_steps", collatz()), ("recursion", "rec_fib", rec_fib())] {
        match k {
            Some((_, _, steps)) => eprintln!("interp_sass bench: {file}.{name} (sm_90), {steps} warp-instructions per run"),
            None => eprintln!("interp_sass bench: {file}.{name} SKIPPED (no reference ptxas or corpus)"),
        }
    }
    divan::main();
}

type Kernel = Option<(Vec<u8>, LaunchSpec, u64)>;

/// The cubin of `file`'s sm_90 PTX, the spec of `kernel` and the
/// warp-instructions one run issues.
fn kernel(file: &str, kernel: &str) -> Kernel {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let ptx = root.join(format!("../shared/corpus/kernels/{file}.sm_90.ptx"));
    let ptxas = ptx2sass::internals::reference::find("ptxas")?;
    let cubin = std::env::temp_dir().join(format!("ptx2sass-interp-bench-{file}-{}.cubin", std::process::id()));
    let ok = std::process::Command::new(ptxas).arg("-arch=sm_90").arg(&ptx).arg("-o").arg(&cubin).output().ok()?.status.success();
    let bytes = std::fs::read(&cubin).ok().filter(|_| ok)?;
    let _ = std::fs::remove_file(&cubin);
    let spec = LaunchSpec::from_json(&std::fs::read_to_string(root.join(format!("tests/data/launch/{file}.{kernel}.json"))).ok()?).ok()?;
    let steps = run(&bytes, &spec, &options()).ok()?.warp_instructions;
    Some((bytes, spec, steps))
}

fn collatz() -> &'static Kernel {
    static K: OnceLock<Kernel> = OnceLock::new();
    K.get_or_init(|| kernel("early_exit", "collatz_steps"))
}

fn rec_fib() -> &'static Kernel {
    static K: OnceLock<Kernel> = OnceLock::new();
    K.get_or_init(|| kernel("recursion", "rec_fib"))
}

fn options() -> Options {
    Options { step_budget: u64::MAX, hazards: HazardCheck::Fail, ..Default::default() }
}

fn whole_run(bencher: Bencher, k: &'static Kernel) {
    let Some((cubin, spec, steps)) = k else { return };
    bencher.counter(ItemsCount::new(*steps)).bench(|| run(divan::black_box(cubin), spec, &options()).map(|o| o.warp_instructions));
}

fn steady_state(bencher: Bencher, k: &'static Kernel) {
    let Some((cubin, spec, steps)) = k else { return };
    let Ok(mut loaded) = load::load(cubin, spec) else { return };
    let Ok(program) = translate(&loaded) else { return };
    // The kernels overwrite their whole output each run, so runs on the same
    // device memory repeat the same work.
    bencher.counter(ItemsCount::new(*steps)).bench_local(|| exec::run_grid(divan::black_box(&program), &mut loaded, spec, &options()).map(|c| c.steps));
}

#[divan::bench]
fn collatz_whole_run(bencher: Bencher) {
    whole_run(bencher, collatz());
}

#[divan::bench]
fn collatz_steady_state(bencher: Bencher) {
    steady_state(bencher, collatz());
}

#[divan::bench]
fn rec_fib_whole_run(bencher: Bencher) {
    whole_run(bencher, rec_fib());
}

#[divan::bench]
fn rec_fib_steady_state(bencher: Bencher) {
    steady_state(bencher, rec_fib());
}
