//! SASS interpreter speed: a corpus kernel (`early_exit.cu`'s
//! `collatz_steps`, a data-dependent loop) compiled by the reference ptxas
//! for sm_90 and run under its launch spec (`tests/data/launch`), hazard
//! checking on. Reports warp-instructions per second (divan's item counter
//! counts one item per interpreted warp-instruction).
//!
//! `cargo bench --bench interp_sass`

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::interp::LaunchSpec;
use ptx2sass::interp::sass::{HazardCheck, Options, run};
use std::sync::OnceLock;

fn main() {
    if let Some((_, _, steps)) = kernel() {
        eprintln!("interp_sass bench: collatz_steps (sm_90), {steps} warp-instructions per run");
    } else {
        eprintln!("interp_sass bench: SKIPPED (no reference ptxas or corpus)");
    }
    divan::main();
}

/// The cubin, its spec and the warp-instructions one run issues.
fn kernel() -> Option<&'static (Vec<u8>, LaunchSpec, u64)> {
    static KERNEL: OnceLock<Option<(Vec<u8>, LaunchSpec, u64)>> = OnceLock::new();
    KERNEL
        .get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let ptx = root.join("../shared/corpus/kernels/early_exit.sm_90.ptx");
            let ptxas = ptx2sass::reference::find("ptxas")?;
            let cubin = std::env::temp_dir().join(format!("ptx2sass-interp-bench-{}.cubin", std::process::id()));
            let ok = std::process::Command::new(ptxas).arg("-arch=sm_90").arg(&ptx).arg("-o").arg(&cubin).status().ok()?.success();
            let bytes = std::fs::read(&cubin).ok().filter(|_| ok)?;
            let _ = std::fs::remove_file(&cubin);
            let spec = LaunchSpec::from_json(&std::fs::read_to_string(root.join("tests/data/launch/early_exit.collatz_steps.json")).ok()?).ok()?;
            let steps = run(&bytes, &spec, &options()).ok()?.warp_instructions;
            Some((bytes, spec, steps))
        })
        .as_ref()
}

fn options() -> Options {
    Options { step_budget: u64::MAX, hazards: HazardCheck::Fail, trace: false }
}

#[divan::bench]
fn collatz_steps_sm90(bencher: Bencher) {
    let Some((cubin, spec, steps)) = kernel() else { return };
    bencher.counter(ItemsCount::new(*steps)).bench(|| run(divan::black_box(cubin), spec, &options()).map(|o| o.warp_instructions));
}
