//! Middle-end throughput: lowering (PTX → Ori), and lowering plus
//! legalization plus selection (`lower_legalize_select`), for every `.ptx` file of the shared
//! corpus (`../shared/corpus`, or `$PTX2SASS_CORPUS`; `examples/*.ptx` when
//! the corpus is absent) that parses and checks. Parsing happens once,
//! outside the timing; one iteration lowers every module. The counter is
//! PTX instructions, so divan prints instructions/s.
//!
//! `cargo bench --bench lower`. Two variants: blocks sealed as soon as
//! their last predecessor is emitted (what `lower_module` does) and all at
//! the end. For instruction counts:
//! `valgrind --tool=callgrind --toggle-collect='*lower_with*'
//! target/release/deps/lower-* --bench lower_early --sample-count 1
//! --sample-size 1` (divide by the calls callgrind reports).

mod common;
use common::ptx_files;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::internals::ptx::ast::{Module, Statement};
use ptx2sass::internals::{lower, ptx, target::Sm};

fn main() {
    let set = inputs();
    eprintln!("lower bench: {} modules, {} PTX instructions from {}", set.modules.len(), set.insts, set.origin);
    divan::main();
}

struct Inputs {
    modules: Vec<Module>,
    insts: usize,
    origin: String,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let corpus = std::env::var_os("PTX2SASS_CORPUS").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/corpus"));
        let mut files = ptx_files(&corpus);
        let mut origin = corpus.display().to_string();
        if files.is_empty() {
            files = ptx_files(&root.join("examples"));
            origin = root.join("examples").display().to_string();
        }
        let modules: Vec<Module> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .filter_map(|t| ptx::parse(&t).ok())
            .filter(|m| ptx::check(m, &Default::default()).is_ok())
            .collect();
        let insts = modules.iter().map(count_insts).sum();
        Inputs { modules, insts, origin }
    })
}

fn count_insts(m: &Module) -> usize {
    fn stmts(s: &[Statement]) -> usize {
        s.iter()
            .map(|s| match s {
                Statement::Instruction(_) => 1,
                Statement::Block(b) => stmts(&b.stmts),
                _ => 0,
            })
            .sum()
    }
    m.items
        .iter()
        .map(|i| match i {
            ptx::ast::Item::Function(f) => f.body.as_ref().map_or(0, |b| stmts(&b.stmts)),
            _ => 0,
        })
        .sum()
}


fn run(bencher: Bencher, seal_early: bool) {
    let set = inputs();
    bencher.counter(ItemsCount::new(set.insts)).bench(|| {
        let mut values = 0usize;
        for m in &set.modules {
            let l = lower::lower_with(divan::black_box(m), Sm::new(90), None, seal_early);
            values += l.module.functions.iter().map(|(_, f)| f.values.len()).sum::<usize>();
        }
        values
    });
}

/// Blocks sealed when their last predecessor is emitted.
#[divan::bench]
fn lower_early(bencher: Bencher) {
    run(bencher, true);
}

/// Blocks sealed at the end.
#[divan::bench]
fn lower_late(bencher: Bencher) {
    run(bencher, false);
}

/// The modules whose every function gets through lowering, legalization
/// and selection for sm_90, with their PTX instruction count: the input of
/// the middle-end benchmark (a module that stops at some stage would
/// measure only part of the pipeline).
fn compilable() -> &'static (Vec<&'static Module>, usize) {
    static SET: OnceLock<(Vec<&'static Module>, usize)> = OnceLock::new();
    SET.get_or_init(|| {
        let options = ptx2sass::internals::driver::Options { verify: false, ..Default::default() };
        let modules: Vec<&'static Module> = inputs()
            .modules
            .iter()
            .filter(|m| {
                let (machine, errors) = ptx2sass::internals::driver::compile_module(m, Sm::new(90), None, options);
                errors.is_empty() && machine.iter().any(Option::is_some)
            })
            .collect();
        let insts = modules.iter().map(|m| count_insts(m)).sum();
        eprintln!("lower_legalize_select bench: {} modules ({insts} PTX instructions) compile through selection for sm_90", modules.len());
        (modules, insts)
    })
}

/// Lowering, early and late legalization and selection (no verifier) for
/// sm_90 over every module that gets through all of them: the middle of
/// the compiler's throughput in PTX instructions per second.
#[divan::bench]
fn lower_legalize_select(bencher: Bencher) {
    let (modules, insts) = compilable();
    let options = ptx2sass::internals::driver::Options { verify: false, ..Default::default() };
    bencher.counter(ItemsCount::new(*insts)).bench(|| {
        let mut machine_insts = 0usize;
        for m in modules {
            let (machine, _) = ptx2sass::internals::driver::compile_module(divan::black_box(m), Sm::new(90), None, options);
            machine_insts += machine.iter().flatten().map(|f| f.blocks.iter().map(|b| b.insts.len()).sum::<usize>()).sum::<usize>();
        }
        machine_insts
    });
}
