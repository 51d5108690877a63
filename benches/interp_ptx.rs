//! PTX interpreter throughput: runs corpus kernels (`../shared/corpus/kernels`,
//! sm_90 PTX) under their launch specs (`tests/data/launch`) and reports
//! interpreted warp-instructions per second (divan's item counter; one
//! item is one warp-instruction).
//!
//! `cargo bench --bench interp_ptx`

use std::path::Path;

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::internals::interp::ptx::{run, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::ptx::ast::Module;

fn main() {
    divan::main();
}

/// The module and spec of `file.kernel`, or `None` when the corpus is absent.
fn load(file: &str, kernel: &str) -> Option<(Module, LaunchSpec)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join(format!("../shared/corpus/kernels/{file}.sm_90.ptx"))).ok()?;
    let spec = std::fs::read_to_string(root.join(format!("tests/data/launch/{file}.{kernel}.json"))).ok()?;
    Some((ptx2sass::internals::ptx::parse(&src).ok()?, LaunchSpec::from_json(&spec).ok()?))
}

fn bench_kernel(bencher: Bencher, file: &str, kernel: &str) {
    let Some((module, spec)) = load(file, kernel) else {
        eprintln!("interp_ptx bench: corpus kernel {file}.{kernel} not found, skipped");
        return;
    };
    let options = Options::default();
    let steps = run(&module, &spec, &options).map(|o| o.warp_instructions).unwrap_or(0);
    bencher.counter(ItemsCount::new(steps)).bench(|| run(&module, &spec, &options).map(|o| o.warp_instructions));
}

#[divan::bench(sample_count = 10)]
fn mandelbrot(bencher: Bencher) {
    bench_kernel(bencher, "early_exit", "mandelbrot");
}

#[divan::bench(sample_count = 10)]
fn sgemm_tiled(bencher: Bencher) {
    bench_kernel(bencher, "sgemm_tiled", "sgemm_tiled");
}

#[divan::bench(sample_count = 10)]
fn rec_fib(bencher: Bencher) {
    bench_kernel(bencher, "recursion", "rec_fib");
}

#[divan::bench(sample_count = 10)]
fn softmax_rows(bencher: Bencher) {
    bench_kernel(bencher, "softmax", "softmax_rows");
}
