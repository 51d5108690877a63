//! Register allocation over the corpus: every function of the ZLUDA corpus
//! and of `../shared/corpus/kernels` that gets through
//! `driver::compile_function` is allocated for sm_75, 80, 90, 100 and 120
//! with regalloc2's checker on, and every resulting instruction must
//! encode for its SM, decode back to the same operands, and name no
//! virtual register. The functions that do
//! not allocate are listed in `tests/data/regalloc-unsupported.tsv` (the
//! test fails when that list changes; `BLESS=1` rewrites it).

mod common;

use common::verdicts::{Verdicts, compare, summary};
use ptx2sass::internals::driver::{self, Options};
use ptx2sass::internals::isa::operand::{Operand, RegNum};
use ptx2sass::internals::regalloc::{Allocated, RegallocOptions, allocate};
use ptx2sass::internals::target::Sm;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

#[derive(Default, Clone, Copy)]
struct Counts {
    selected: usize,
    allocated: usize,
    insts: usize,
    spilled: usize,
}

/// Why an allocated function is wrong, if it is.
fn check(a: &Allocated) -> Option<String> {
    for block in &a.blocks {
        for i in &block.insts {
            let inst = i.inst();
            let virt = |r: &ptx2sass::internals::isa::operand::Reg| matches!(r.num, RegNum::Virt(_));
            let mut bad = virt(&inst.guard.0);
            for op in inst.operands.iter() {
                bad |= match op {
                    Operand::Reg { reg, .. } => virt(reg),
                    Operand::ConstAddr { index, .. } => virt(index),
                    Operand::Mem(m) => m.regs().any(|r| virt(&r)),
                    _ => false,
                };
            }
            if bad {
                return Some(format!("a virtual register left in {}", inst.text(a.sm, 0)));
            }
            match inst.encode(a.sm) {
                Err(e) => return Some(format!("does not encode: {} ({})", inst.text(a.sm, 0), e.0)),
                // The word must read back to the same registers.
                Ok(word) => match ptx2sass::internals::isa::inst::Inst::decode(word, a.sm) {
                    Ok(back) if back.operands == inst.operands && back.guard == inst.guard => {}
                    Ok(back) => return Some(format!("{} reads back as {}", inst.text(a.sm, 0), back.text(a.sm, 0))),
                    Err(_) => return Some(format!("{} does not decode", inst.text(a.sm, 0))),
                },
            }
        }
    }
    None
}

fn run_file(path: &Path, sm: u16) -> (Counts, Vec<(String, String)>) {
    let mut counts = Counts::default();
    let Ok(src) = std::fs::read_to_string(path) else { return (counts, Vec::new()) };
    let Ok(module) = ptx2sass::internals::ptx::parse_and_check(&src, &Default::default()) else { return (counts, Vec::new()) };
    let options = Options { verify: false, ..Default::default() };
    let (raw, _) = driver::lower(&module, Sm::new(sm), Some(&src), options);
    let mut bad = Vec::new();
    for (id, f) in raw.functions.iter() {
        if f.layout.is_empty() {
            continue;
        }
        let Ok(mach) = driver::compile_function(&raw, id, options) else { continue };
        counts.selected += 1;
        match allocate(&mach, &RegallocOptions { max_registers: None, check: true }) {
            Ok(a) => match check(&a) {
                None => {
                    counts.allocated += 1;
                    counts.insts += a.blocks.iter().map(|b| b.insts.len()).sum::<usize>();
                    counts.spilled += usize::from(a.spill_stores > 0);
                }
                Some(why) => bad.push((f.name.clone(), format!("sm_{sm}: {why}"))),
            },
            Err(e) => bad.push((f.name.clone(), format!("sm_{sm}: {}", e.message))),
        }
    }
    (counts, bad)
}

fn files(corpus: &Path) -> Vec<PathBuf> {
    let mut files = common::ptx_files(&corpus.join("zluda/ptx"));
    files.extend(common::ptx_files(&corpus.join("kernels")));
    files
}

#[test]
fn corpus_functions_allocate_and_encode() {
    let Some(corpus) = common::corpus_dir("corpus_functions_allocate_and_encode") else { return };
    let files = files(&corpus);
    assert!(files.len() >= 200, "{} corpus files", files.len());
    let results = common::par_map(&files, |p| {
        let name = p.strip_prefix(&corpus).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        SMS.map(|sm| (name.clone(), sm, run_file(p, sm)))
    });
    let mut per_sm: BTreeMap<u16, Counts> = BTreeMap::new();
    let mut got = Verdicts::new();
    for (name, sm, (c, bad)) in results.into_iter().flatten() {
        let e = per_sm.entry(sm).or_default();
        e.selected += c.selected;
        e.allocated += c.allocated;
        e.insts += c.insts;
        e.spilled += c.spilled;
        for (f, r) in bad {
            got.insert((name.clone(), f, r));
        }
    }
    for (sm, c) in &per_sm {
        println!("sm_{sm}: {} of {} selected functions allocated (checker on, every instruction encodes; {} instructions, {} functions spill)", c.allocated, c.selected, c.insts, c.spilled);
    }
    println!("not allocated:\n{}", summary(&got, |r| r.split(": ").nth(1).unwrap_or(r).chars().take(70).collect()));
    compare(
        "regalloc-unsupported.tsv",
        "# Corpus functions that select but do not allocate (tests/regalloc_corpus.rs):\n# file<TAB>function<TAB>sm: reason. BLESS=1 cargo test --release --test regalloc_corpus rewrites it.\n",
        &got,
    );
}

/// Triton's matmul (tests/data/triton/matmul.sm_80.ptx): 102 singles and
/// 67 pairs live at once, more than one regalloc2 class of each holds, and
/// 34 predicates. With the checker on, it allocates within R0..R252
/// without a spill and without a frame: the R values fit the split runs
/// (singles in pair units where the pairs leave them free), and the
/// predicates the P file cannot hold live in bits of one R register.
/// (ptxas 13.x keeps it in 168 registers without spilling; before the
/// split over several R runs the R values spilled too, and before the
/// shared predicate homes 29 predicate slots went to the frame.)
#[test]
fn triton_matmul_keeps_its_values_in_registers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/triton/matmul.sm_80.ptx");
    let src = std::fs::read_to_string(&path).expect("matmul.sm_80.ptx");
    let module = ptx2sass::internals::ptx::parse_and_check(&src, &Default::default()).expect("parses");
    let options = Options { verify: false, ..Default::default() };
    let (raw, errors) = driver::lower(&module, Sm::new(80), Some(&src), options);
    assert!(errors.is_empty(), "{errors:?}");
    let (id, _) = raw.functions.iter().find(|(_, f)| f.name == "matmul").expect("matmul");
    let mach = driver::compile_function(&raw, id, options).expect("selects");
    let a = allocate(&mach, &RegallocOptions { max_registers: None, check: true }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(check(&a), None);
    assert!(a.gpr_count <= 253, "{}", a.gpr_count);
    let text = a.text();
    assert_eq!((a.spill_stores, a.spill_loads, a.frame_bytes), (0, 0, 0), "{text}");
    assert!(!text.contains("STL") && !text.contains("LDL"), "{text}");
}

/// Triton's matmul (tests/data/triton/matmul.sm_80.ptx, the launch spec of
/// `corpus/triton/launch/matmul.json`) compiled for sm_80, 90, 100 and 120
/// gives the outputs of ptxas's sm_80 cubin in the SASS interpreter. On
/// sm_100 and sm_120 a single kept in a pair unit is the second part of a
/// concatenation whose result takes that unit: copied word by word in
/// order, the first copy overwrote it (a quarter of C came out wrong).
#[test]
fn triton_matmul_gives_ptxas_outputs() {
    use common::ptxas_match::outputs;
    use ptx2sass::internals::driver::CodegenOptions;
    use ptx2sass::internals::interp::LaunchSpec;
    use ptx2sass::internals::interp::sass::HazardCheck;
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "triton_matmul_gives_ptxas_outputs") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ptx = root.join("tests/data/triton/matmul.sm_80.ptx");
    let spec_text = std::fs::read_to_string(root.join("corpus/triton/launch/matmul.json")).expect("launch spec");
    let spec = LaunchSpec::from_json(&spec_text).expect("launch spec");
    let cache = root.join("target/triton-kernel-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    let theirs = common::cached_cubin(&ptxas, &cache, &ptx, 80).expect("ptxas compiles matmul");
    let want = outputs(&theirs, &spec, &spec_text, HazardCheck::Fail).expect("ptxas's cubin runs");
    assert!(want.iter().any(|&b| b != 0), "ptxas's cubin writes only zeros");
    let src = std::fs::read_to_string(&ptx).expect("matmul.sm_80.ptx");
    let module = ptx2sass::internals::ptx::parse_and_check(&src, &Default::default()).expect("parses");
    for sm in [80, 90, 100, 120] {
        let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&src), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .unwrap_or_else(|e| panic!("sm_{sm}: {}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
        let got = outputs(&ours.cubin, &spec, &spec_text, HazardCheck::Fail).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
        assert!(got == want, "sm_{sm}: C differs from ptxas's from byte {}", want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(0));
    }
}
