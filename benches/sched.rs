//! Scheduler and static hazard checker speed on ptxas's code: every
//! `corpus/kernels/*.sm_90*.ptx` compiled by the reference ptxas for sm_90
//! (at start-up, into a temporary folder), each function decoded once;
//! `reschedule` clears the control fields, splits, schedules and re-resolves
//! branches ([`ptx2sass::internals::sched::linear::reschedule`]), `check` runs the
//! checker on ptxas's code. divan's item counter counts instructions.
//!
//! `cargo bench --bench sched`; for instruction counts, run one sample
//! under callgrind: `valgrind --tool=callgrind target/release/deps/sched-*
//! --bench --sample-count 1 --sample-size 1 reschedule`.

mod common;

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::sched::{SchedOptions, check, linear};
use ptx2sass::internals::target::Sm;
use std::sync::OnceLock;

const SM: u16 = 90;

fn main() {
    let n: usize = corpus().iter().map(Vec::len).sum();
    eprintln!("sched bench: {} functions, {n} instructions (sm_{SM})", corpus().len());
    divan::main();
}

/// The decoded, scheduled functions of the corpus (empty without ptxas).
fn corpus() -> &'static Vec<Vec<Inst>> {
    static C: OnceLock<Vec<Vec<Inst>>> = OnceLock::new();
    C.get_or_init(|| {
        use object::{Object, ObjectSection};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let Some(ptxas) = ptx2sass::internals::reference::find("ptxas") else { return Vec::new() };
        let dir = std::env::temp_dir().join(format!("ptx2sass-sched-bench-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let mut out = Vec::new();
        let files = common::ptx_files(&root.join("../shared/corpus/kernels"));
        // `cargo test` runs each benchmark once (`--test`): a few files do.
        let take = if std::env::args().any(|a| a == "--test") { 4 } else { usize::MAX };
        for (k, ptx) in files.iter().filter(|p| p.to_string_lossy().contains(&format!(".sm_{SM}"))).take(take).enumerate() {
            let cubin = dir.join(format!("{k}.cubin"));
            let ok = std::process::Command::new(&ptxas).arg(format!("-arch=sm_{SM}")).arg(ptx).arg("-o").arg(&cubin).output().is_ok_and(|o| o.status.success());
            let Some(bytes) = std::fs::read(&cubin).ok().filter(|_| ok) else { continue };
            let Ok(elf) = object::File::parse(&*bytes) else { continue };
            for s in elf.sections().filter(|s| s.name().is_ok_and(|n| n.starts_with(".text."))) {
                let Some(words) = s.data().ok().and_then(ptx2sass::internals::isa::bits::words_from_bytes) else { continue };
                let Ok(code) = words.iter().map(|&w| Inst::decode(w, Sm::new(SM))).collect::<Result<Vec<_>, _>>() else { continue };
                if ptx2sass::internals::interp::sass::hazard::scheduled(&code) {
                    out.push(code);
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        out
    })
}

fn items() -> ItemsCount {
    ItemsCount::new(corpus().iter().map(Vec::len).sum::<usize>())
}

#[divan::bench]
fn reschedule(b: Bencher) {
    b.counter(items()).bench(|| {
        for f in corpus() {
            let _ = divan::black_box(linear::reschedule(f, Sm::new(SM), &SchedOptions::default()));
        }
    });
}

#[divan::bench]
fn check_ptxas_code(b: Bencher) {
    b.counter(items()).bench(|| {
        for f in corpus() {
            let _ = divan::black_box(check(f, Sm::new(SM)));
        }
    });
}
