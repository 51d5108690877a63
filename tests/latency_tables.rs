//! The latency tables and the hazard checker against ptxas's own code.
//!
//! Every corpus PTX file is compiled with the reference `ptxas` for each
//! measured SM (the encoding corpus of `tests/isa_corpus.rs` when current,
//! else compiled here and cached under `target/hazard-corpus`), each
//! function's words decoded with [`Inst::decode`] (functions compiled for
//! debugging, with no schedule, left out), and split into straight-line
//! blocks.
//! * `tables_are_measured_from_ptxas`: the measurement tool. In every block,
//!   for each register a producer without a write scoreboard writes and a
//!   later instruction reads, the stall cycles between the two are a
//!   distance ptxas considered safe; the least per (file, producer class,
//!   consumer class) must be exactly what `src/sched/latency/sm_XX.tsv`
//!   holds. `PTX2SASS_BLESS=1` rewrites the files from the measurement.
//! * `ptxas_code_has_no_hazards`: every block, every fall-through chain of
//!   blocks and every branch edge (a block ending in a branch, then the
//!   target block) replayed through [`WarpHazards`] reports nothing.
//! * `mutants_are_flagged`: ptxas code made wrong in the three ways the
//!   checker exists to catch — a stall count below the latency of a
//!   dependent pair, a wait-mask bit a consumer (RAW/WAW) needs cleared, a
//!   wait on a read scoreboard a later writer (WAR) needs cleared — is
//!   flagged, on every measured SM.

mod common;

use object::{Object, ObjectSection};
use ptx2sass::internals::interp::sass::hazard::{self, HazardInfo, WarpHazards};
use ptx2sass::internals::sched::latency::{self, Class, File};
use ptx2sass::internals::isa::ctrl::SCOREBOARDS;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::isa::operand::Operand;
use ptx2sass::internals::target::Sm;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const SMS: &[u16] = &ptx2sass::internals::sched::latency::LATENCY_SMS;

/// One decoded instruction (`None`: a word the model does not decode).
type Decoded = Option<(Inst, HazardInfo)>;

/// The code of one SM: the functions, each its instructions in order.
struct Code {
    sm: u16,
    functions: Vec<Vec<Decoded>>,
    /// The ptxas release (`13.5`).
    release: String,
}

fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/hazard-corpus")
}

/// What a cached corpus was made from (tools and inputs, sizes and times).
fn stamp(sm: u16, ptxas: &Path, corpus: &Path, files: &[PathBuf]) -> String {
    let meta = |p: &Path| -> String {
        let m = std::fs::metadata(p).ok();
        let size = m.as_ref().map_or(0, |m| m.len());
        let time = m.and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
        format!("{size} {time}")
    };
    let mut out = format!("sm_{sm} {} {}\n", ptxas.display(), meta(ptxas));
    for f in files {
        out += &format!("{} {}\n", f.strip_prefix(corpus).unwrap_or(f).display(), meta(f));
    }
    out
}

/// The encoding corpus of `tests/isa_corpus.rs` (which runs first), when
/// its listing of `sm` is current: the same compiled words, split back into
/// functions (each `.text` section ends in a branch to itself and `NOP`
/// padding). Its stamp is rebuilt here the way that test builds it.
fn encoding_corpus_words(sm: u16, ptxas: &Path, corpus: &Path, files: &[PathBuf]) -> Option<Vec<Vec<u128>>> {
    let nvdisasm = ptx2sass::internals::reference::find("nvdisasm")?;
    let dir = std::env::var_os("PTX2SASS_ENCODING_CORPUS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/encoding-corpus"));
    let meta = |p: &Path| -> String {
        let m = std::fs::metadata(p).ok();
        let size = m.as_ref().map_or(0, |m| m.len());
        let time = m.and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
        format!("{size} {time}")
    };
    let mut expected = format!("sm_{sm}\n");
    for t in [ptxas, nvdisasm.as_path()] {
        expected += &format!("{} {}\n", t.display(), meta(t));
    }
    for f in files {
        expected += &format!("{} {}\n", f.strip_prefix(corpus).unwrap_or(f).display(), meta(f));
    }
    let stamp = std::fs::read_to_string(dir.join(format!("sm_{sm}.stamp"))).ok()?;
    if stamp.split_once('\n')?.1 != expected {
        return None;
    }
    let listing = std::fs::read_to_string(dir.join(format!("sm_{sm}.lst"))).ok()?;
    let words = hex_listing_words(&listing)?;
    let mut functions: Vec<Vec<u128>> = vec![Vec::new()];
    let mut padding = false;
    for (k, &w) in words.iter().enumerate() {
        let inst = Inst::decode(w, Sm::new(sm)).ok();
        let is_nop = inst.as_ref().is_some_and(|i| i.form.name == "NOP");
        if padding && !is_nop {
            functions.push(Vec::new());
            padding = false;
        }
        functions.last_mut()?.push(w);
        if inst.as_ref().is_some_and(|i| i.form.name == "BRA" && target(i, k) == Some(k)) {
            padding = true;
        }
    }
    Some(functions.into_iter().filter(|f| !f.is_empty()).collect())
}

/// The words of an `nvdisasm -hex` listing: each instruction line ends in
/// `/* 0x<low word> */`, and the next line holds `/* 0x<high word> */`.
fn hex_listing_words(text: &str) -> Option<Vec<u128>> {
    let hex = |s: &str| -> Option<u64> { u64::from_str_radix(s.trim().strip_prefix("/* 0x")?.strip_suffix("*/")?.trim(), 16).ok() };
    let mut words = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix("/*") else { continue };
        let Some(at) = rest.rfind("/* 0x").filter(|_| rest.split_once("*/").is_some_and(|(a, _)| u64::from_str_radix(a, 16).is_ok())) else { continue };
        let lo = hex(&rest[at..])?;
        let hi = hex(lines.next()?)?;
        words.push(ptx2sass::internals::isa::bits::join(lo, hi));
    }
    Some(words)
}

/// The `.text.*` sections of every corpus file compiled for `sm`, one per
/// function: from the encoding corpus or this test's cache when current,
/// else compiled now (and cached).
fn functions_words(sm: u16, ptxas: &Path, source: Source, corpus: &Path) -> Vec<Vec<u128>> {
    let files = match source {
        Source::Corpus => common::ptx_inputs_for_sm(corpus, sm),
        Source::Library | Source::Generated => common::ptx_files(&corpus.join(format!("sm_{sm}"))),
        Source::Triton => triton_files(corpus, sm),
    };
    if files.is_empty() {
        return Vec::new();
    }
    if let Some(functions) = encoding_corpus_words(sm, ptxas, corpus, &files).filter(|_| source == Source::Corpus) {
        return functions;
    }
    let stamp = stamp(sm, ptxas, corpus, &files);
    let tag = source.tag();
    let (stamp_file, words_file) = (cache_dir().join(format!("{tag}sm_{sm}.stamp")), cache_dir().join(format!("{tag}sm_{sm}.words")));
    if let (true, Ok(text)) = (std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp), std::fs::read_to_string(&words_file)) {
        return parse_words(&text);
    }
    let scratch = std::env::temp_dir().join(format!("ptx2sass-hazard-{}-{sm}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let per_file: Vec<Vec<Vec<u128>>> = common::par_map(&files.iter().enumerate().collect::<Vec<_>>(), |(k, file)| {
        let cubin = scratch.join(format!("{k}.cubin"));
        let compiled = match source {
            // Triton's PTX names its architecture (`.target sm_90a`).
            Source::Triton => Command::new(ptxas).arg(format!("-arch={}", target_of(file).unwrap_or(format!("sm_{sm}")))).arg(file).arg("-o").arg(&cubin).output().is_ok_and(|o| o.status.success()),
            _ => common::compile_cubin(ptxas, sm, file, &cubin),
        };
        if !compiled {
            return Vec::new();
        }
        let Ok(data) = std::fs::read(&cubin) else { return Vec::new() };
        let elf = object::File::parse(&*data).expect("ptxas writes ELF");
        let mut out = Vec::new();
        for section in elf.sections() {
            if section.name().is_ok_and(|n| n.starts_with(".text.")) {
                let bytes = section.data().expect("section data");
                out.push(ptx2sass::internals::isa::bits::words_from_bytes(bytes).expect("whole words"));
            }
        }
        out
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let functions: Vec<Vec<u128>> = per_file.into_iter().flatten().collect();
    let mut text = String::new();
    for f in &functions {
        text += "function\n";
        for w in f {
            text += &format!("{w:032x}\n");
        }
    }
    // The cache is an optimisation: failing to write it is not an error.
    if std::fs::create_dir_all(cache_dir()).is_ok() && std::fs::write(&words_file, text).is_ok() {
        let _ = std::fs::write(&stamp_file, stamp);
    }
    functions
}

fn parse_words(text: &str) -> Vec<Vec<u128>> {
    let mut out: Vec<Vec<u128>> = Vec::new();
    for line in text.lines() {
        if line == "function" {
            out.push(Vec::new());
        } else if let (Some(f), Ok(w)) = (out.last_mut(), u128::from_str_radix(line, 16)) {
            f.push(w);
        }
    }
    out
}

fn ptxas_release(ptxas: &Path) -> String {
    let out = Command::new(ptxas).arg("--version").output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    out.split("release ").nth(1).and_then(|r| r.split(',').next()).unwrap_or("?").to_string()
}

/// Where ptxas's code comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// The shared corpus (kernels and ZLUDA), always measured.
    Corpus,
    /// The library corpus (CUB, Thrust, cuRAND, cooperative groups: PTX
    /// that `scripts/library-corpus.sh` generates into
    /// `target/library-corpus/sm_XX`, or `PTX2SASS_LIBRARY_CORPUS`),
    /// measured when present; its observations are kept in
    /// `src/sched/latency/sm_XX.library.tsv`.
    Library,
    /// Triton's PTX (`corpus/triton` compiled by Triton into
    /// `target/triton-corpus/<kernel>.sm_NN.ptx` by `scripts/triton-corpus.sh`,
    /// or `PTX2SASS_TRITON_CORPUS`) for the SMs Triton targets, measured
    /// when present; its observations are kept in
    /// `src/sched/latency/sm_XX.triton.tsv`.
    Triton,
    /// Programs of the fuzz crate's generator (`scripts/generated-corpus.sh`
    /// writes them into `target/generated-corpus/sm_XX`, or
    /// `PTX2SASS_GENERATED_CORPUS`), measured when present; its
    /// observations are kept in `src/sched/latency/sm_XX.generated.tsv`.
    Generated,
}

impl Source {
    /// Prefix of its cache and data file names.
    fn tag(self) -> &'static str {
        match self {
            Source::Corpus => "",
            Source::Library => "library-",
            Source::Triton => "triton-",
            Source::Generated => "generated-",
        }
    }
}

/// The library corpus directory, when some SM has its PTX.
fn library_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PTX2SASS_LIBRARY_CORPUS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/library-corpus"));
    SMS.iter().any(|sm| dir.join(format!("sm_{sm}")).is_dir()).then_some(dir)
}

/// The generated corpus directory, when some SM has programs.
fn generated_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PTX2SASS_GENERATED_CORPUS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/generated-corpus"));
    SMS.iter().any(|sm| dir.join(format!("sm_{sm}")).is_dir()).then_some(dir)
}

/// The decoded generated corpus of every measured SM (`None` when it has
/// not been generated: its measurement then stays as checked in).
fn generated_programs() -> Option<&'static Vec<Code>> {
    static CODE: OnceLock<Option<Vec<Code>>> = OnceLock::new();
    CODE.get_or_init(|| generated(Source::Generated, generated_dir(), "generated corpus not generated (scripts/generated-corpus.sh)")).as_ref()
}

/// The Triton corpus directory, when it holds Triton's PTX.
fn triton_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PTX2SASS_TRITON_CORPUS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/triton-corpus"));
    SMS.iter().any(|&sm| !triton_files(&dir, sm).is_empty()).then_some(dir)
}

/// Triton's PTX files for one SM (`<kernel>.sm_NN.ptx`).
fn triton_files(dir: &Path, sm: u16) -> Vec<PathBuf> {
    let suffix = format!(".sm_{sm}.ptx");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.to_str().is_some_and(|n| n.ends_with(&suffix))).collect();
    files.sort();
    files
}

/// The architecture a PTX file's `.target` directive names (`sm_90a`).
fn target_of(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.trim_start().starts_with(".target"))?;
    line.split_whitespace().nth(1).map(|t| t.trim_end_matches(',').to_string())
}

/// The decoded Triton code of the SMs it targets (`None` when it has not
/// been generated: its measurement then stays as checked in).
fn triton() -> Option<&'static Vec<Code>> {
    static CODE: OnceLock<Option<Vec<Code>>> = OnceLock::new();
    CODE.get_or_init(|| generated(Source::Triton, triton_dir(), "Triton corpus not generated (scripts/triton-corpus.sh)")).as_ref()
}

/// The decoded corpus of every measured SM (`None` when the corpus or
/// ptxas is missing: the tests then skip).
fn corpus() -> Option<&'static Vec<Code>> {
    static CODE: OnceLock<Option<Vec<Code>>> = OnceLock::new();
    CODE.get_or_init(|| decoded(Source::Corpus, common::corpus_dir("latency_tables")?)).as_ref()
}

/// The decoded library corpus of every measured SM (`None` when it has
/// not been generated: its measurement then stays as checked in).
fn library() -> Option<&'static Vec<Code>> {
    static CODE: OnceLock<Option<Vec<Code>>> = OnceLock::new();
    CODE.get_or_init(|| generated(Source::Library, library_dir(), "library corpus not generated (scripts/library-corpus.sh)")).as_ref()
}

/// A generated source's decoded code, or `None` (said on stderr) when its
/// directory `dir` is missing.
fn generated(source: Source, dir: Option<PathBuf>, missing: &str) -> Option<Vec<Code>> {
    if dir.is_none() {
        eprintln!("{missing}: its latency observations are not re-measured");
    }
    decoded(source, dir?)
}

/// Every measured SM's code of one source, compiled and decoded.
fn decoded(source: Source, corpus: PathBuf) -> Option<Vec<Code>> {
    {
        let ptxas = ptx2sass::internals::reference::require("ptxas", "latency_tables")?;
        let release = ptxas_release(&ptxas);
        Some(
            SMS.iter()
                .map(|&sm| {
                    let words = functions_words(sm, &ptxas, source, &corpus);
                    let functions = common::par_map(&words, |f| {
                        f.iter()
                            .map(|&w| Inst::decode(w, Sm::new(sm)).ok().map(|i| {
                                let h = HazardInfo::of(&i, Sm::new(sm));
                                (i, h)
                            }))
                            .collect()
                    });
                    // Debug compilations (all control fields zero) are outside the model.
                    let functions = functions.into_iter().filter(|f: &Vec<Decoded>| hazard::scheduled(f.iter().flatten().map(|d| &d.0))).collect();
                    Code { sm, functions, release: release.clone() }
                })
                .collect(),
        )
    }
}

/// Whether an instruction transfers control (ends a straight-line block).
fn ends_block(i: &Inst) -> bool {
    matches!(i.form.name.split('.').next(), Some("BRA" | "BRX" | "JMP" | "EXIT" | "RET" | "CALL" | "BSYNC" | "BREAK" | "WARPSYNC" | "BPT"))
}

/// Whether execution can go on at the next instruction with the state it left.
fn falls_through(i: &Inst) -> bool {
    let name = i.form.name.split('.').next().unwrap_or("");
    let unconditional = i.guard.0.num == ptx2sass::internals::isa::operand::RegNum::Zero && !i.guard.1;
    match name {
        "BRA" | "BRX" | "JMP" | "EXIT" | "RET" => !unconditional,
        // The callee changes the state in ways a replay does not follow.
        "CALL" => false,
        _ => true,
    }
}

/// The in-function targets of a branch-like instruction (BRA, BSSY, CALL.REL).
fn target(i: &Inst, index: usize) -> Option<usize> {
    let name = i.form.name.split('.').next()?;
    if !matches!(name, "BRA" | "BSSY" | "CALL") {
        return None;
    }
    i.operands.iter().find_map(|op| match op {
        Operand::Target(off) => usize::try_from((index as i64 + 1) * 16 + off).ok().filter(|a| a % 16 == 0).map(|a| a / 16),
        _ => None,
    })
}

/// Straight-line blocks of a function: `(start, end)` index ranges (end
/// exclusive), every instruction decoded.
fn blocks(f: &[Decoded]) -> Vec<(usize, usize)> {
    let mut leader = vec![false; f.len() + 1];
    leader[0] = true;
    for (k, d) in f.iter().enumerate() {
        match d {
            None => {
                leader[k] = true;
                leader[k + 1] = true;
            }
            Some((i, _)) => {
                if ends_block(i) {
                    leader[k + 1] = true;
                }
                if let Some(t) = target(i, k).filter(|t| *t < f.len()) {
                    leader[t] = true;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (k, &lead) in leader.iter().enumerate().skip(1) {
        if lead {
            if f[start].is_some() {
                out.push((start, k));
            }
            start = k;
        }
    }
    out
}

/// The straight-line paths of a function the tests replay: fall-through
/// chains (blocks run on while control can fall through, with the state
/// they leave), and branch edges (a block ending in a branch, then the block
/// it branches to).
fn paths(f: &[Decoded]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let blocks = blocks(f);
    let mut chains = Vec::new();
    let mut k = 0;
    while k < blocks.len() {
        let mut j = k;
        while j + 1 < blocks.len() && blocks[j].1 == blocks[j + 1].0 && falls_through(inst(&f[blocks[j].1 - 1]).0) {
            j += 1;
        }
        chains.push((blocks[k].0..blocks[j].1).collect());
        k = j + 1;
    }
    let mut edges = Vec::new();
    for &(start, end) in &blocks {
        let (last, _) = inst(&f[end - 1]);
        let Some(t) = target(last, end - 1).filter(|_| last.form.name.starts_with("BRA")) else { continue };
        let Some(&(ts, te)) = blocks.iter().find(|b| b.0 == t) else { continue };
        edges.push((start..end).chain(ts..te).collect());
    }
    (chains, edges)
}

fn inst(d: &Decoded) -> (&Inst, &HazardInfo) {
    let (i, h) = d.as_ref().expect("blocks hold decoded instructions");
    (i, h)
}

/// Measured distances: (file, producer, consumer) → (least cycles, count).
type Distances = BTreeMap<(File, Class, Class), (u64, u32)>;

fn file_of(name: &str) -> File {
    match name.as_bytes() {
        [b'U', b'R', ..] => File::Ur,
        [b'U', b'P', ..] => File::Up,
        [b'P', ..] => File::P,
        _ => File::R,
    }
}

/// Least stall distances of fixed-latency dependences in straight-line blocks.
fn measure(code: &Code) -> (Distances, BTreeMap<Class, (u32, u32)>, usize, usize) {
    let mut dist = Distances::new();
    let mut sb_use: BTreeMap<Class, (u32, u32)> = BTreeMap::new();
    let (mut insts, mut nblocks) = (0, 0);
    for f in &code.functions {
        insts += f.iter().flatten().count();
        for d in f.iter().flatten() {
            if !d.1.writes().is_empty() {
                let e = sb_use.entry(d.1.class()).or_default();
                if d.0.ctrl.write_sb().is_some() { e.0 += 1 } else { e.1 += 1 }
            }
        }
        nblocks += blocks(f).len();
        for path in paths(f).0 {
            // Unit → (issue cycle, class, queue, scoreboard its queue attached it to, guard).
            let mut last: BTreeMap<u16, (u64, Class, u8, Option<u8>, Option<(u16, bool)>)> = BTreeMap::new();
            // Predicate unit → issue cycle of its last write.
            let mut pred_written: BTreeMap<u16, u64> = BTreeMap::new();
            let mut cycle = 0u64;
            for &x in &path {
                let (i, h) = inst(&f[x]);
                let guard = h.guard().map(|g| (g, i.guard.1));
                // An orphan attached to a scoreboard waited on now is covered.
                last.retain(|_, (_, _, _, sb, _)| !sb.is_some_and(|s| i.ctrl.wait() >> s & 1 == 1));
                // The guard is read as a guard, whatever the instruction.
                let reads = h.guard().map(|g| (g, Class::Guard)).into_iter().chain(h.reads().iter().map(|&r| (r, h.class())));
                for (r, reader) in reads {
                    if let Some(&(c, producer, _, _, pguard)) = last.get(&r) {
                        // Under opposite senses of one predicate not written
                        // in between, no lane runs both: no dependence
                        // (ptxas's `@P0 DSETP P1` … `@!P0 SEL …, P1`).
                        let exclusive = matches!((pguard, guard), (Some((p, a)), Some((q, b))) if p == q && a != b && pred_written.get(&p).is_none_or(|w| *w < c));
                        if exclusive {
                            continue;
                        }
                        let e = dist.entry((file_of(&HazardInfo::unit_name(r)), producer, reader)).or_insert((u64::MAX, 0));
                        e.0 = e.0.min(cycle - c);
                        e.1 += 1;
                    }
                }
                if let (Some(s), q @ 1..) = (i.ctrl.write_sb(), h.queue()) {
                    for (_, (_, _, queue, sb, _)) in last.iter_mut() {
                        if *queue == q && sb.is_none() {
                            *sb = Some(s);
                        }
                    }
                }
                for &w in h.writes() {
                    if i.ctrl.write_sb().is_none() {
                        last.insert(w, (cycle, h.producer_class(), h.queue(), None, guard));
                    } else {
                        last.remove(&w);
                    }
                    pred_written.insert(w, cycle);
                }
                cycle += u64::from(i.ctrl.stall());
            }
        }
    }
    (dist, sb_use, insts, nblocks)
}

/// The data file text for a measurement.
fn table_text(code: &Code, source: Source) -> String {
    let (dist, sb_use, insts, nblocks) = measure(code);
    let what = match source {
        Source::Corpus => "corpus",
        Source::Library => "library-corpus (scripts/library-corpus.sh)",
        Source::Triton => "Triton (scripts/triton-corpus.sh)",
        Source::Generated => "generated-corpus (scripts/generated-corpus.sh)",
    };
    let mut out = format!(
        "# Fixed-latency RAW latencies on sm_{}: measured from ptxas {} output over {insts} {what}\n\
         # instructions ({} functions, {nblocks} basic blocks) by tests/latency_tables.rs\n\
         # (PTX2SASS_BLESS=1 re-measures). cycles: the least stall-cycle sum ptxas left between\n\
         # an instruction that sets no write scoreboard and a reader of its result on a\n\
         # straight-line path (blocks that fall through into each other); observations: how\n\
         # many such dependences the corpus has.\n\
         # file\tproducer\tconsumer\tcycles\tobservations\n",
        code.sm,
        code.release,
        code.functions.len()
    );
    for ((file, p, c), (cycles, n)) in &dist {
        // The tables hold a byte below NEEDS_SCOREBOARD: a least distance
        // past that (one read of a uniform ALU result 6720 cycles on, in
        // sm_120's library code) is written as 254, which bounds nothing
        // either way.
        let cycles = (*cycles).min(u64::from(latency::NEEDS_SCOREBOARD) - 1);
        out += &format!("{}\t{}\t{}\t{cycles}\t{n}\n", file.name(), p.name(), c.name());
    }
    out += "# Write-scoreboard use per class (instructions with a register result):\n# class: with a write scoreboard / without\n";
    for (class, (with, without)) in &sb_use {
        out += &format!("#   {}: {with} / {without}\n", class.name());
    }
    out
}

/// Measures every SM's code of one source against its data files; the SMs
/// whose file differs (rewritten under `PTX2SASS_BLESS`).
fn stale_tables(codes: &[Code], source: Source) -> Vec<String> {
    let bless = std::env::var_os("PTX2SASS_BLESS").is_some();
    let mut stale = Vec::new();
    for code in codes {
        let text = table_text(code, source);
        let (name, current) = match source {
            Source::Corpus => (format!("sm_{}.tsv", code.sm), latency::data_file(code.sm)),
            // A generated corpus built for some SMs only (`ONLY_SMS=103
            // scripts/library-corpus.sh`) re-measures those.
            Source::Library | Source::Generated if code.functions.is_empty() => continue,
            Source::Library => (format!("sm_{}.library.tsv", code.sm), latency::library_data_file(code.sm)),
            // An SM Triton does not target has no file and no code.
            Source::Triton if code.functions.is_empty() && latency::triton_data_file(code.sm).is_none() => continue,
            Source::Triton => (format!("sm_{}.triton.tsv", code.sm), latency::triton_data_file(code.sm)),
            Source::Generated => (format!("sm_{}.generated.tsv", code.sm), latency::generated_data_file(code.sm)),
        };
        if current != Some(text.as_str()) {
            if bless {
                std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sched/latency").join(&name), &text).expect("write the table");
            } else {
                stale.push(name);
            }
        }
    }
    stale
}

#[test]
fn tables_are_measured_from_ptxas() {
    let Some(codes) = corpus() else { return };
    let mut stale = stale_tables(codes, Source::Corpus);
    if let Some(library) = library() {
        stale.extend(stale_tables(library, Source::Library));
    }
    if let Some(triton) = triton() {
        stale.extend(stale_tables(triton, Source::Triton));
    }
    if let Some(programs) = generated_programs() {
        stale.extend(stale_tables(programs, Source::Generated));
    }
    assert!(stale.is_empty(), "the latency tables {} differ from a fresh measurement (PTX2SASS_BLESS=1 rewrites them)", stale.join(", "));
}

/// The least stall distance, over every straight-line path of `code`, from
/// an `F2FP` that sets no write scoreboard to a matrix instruction (HMMA,
/// IMMA, BMMA, DMMA) reading one of the registers it wrote, with nothing
/// writing that register in between.
fn least_f2fp_to_matrix(code: &Code) -> Option<u64> {
    let mut least: Option<u64> = None;
    for f in &code.functions {
        for path in paths(f).0 {
            // Unit → issue cycle of its F2FP writer, while that is the last writer.
            let mut written: BTreeMap<u16, u64> = BTreeMap::new();
            let mut cycle = 0u64;
            for &x in &path {
                let (i, h) = inst(&f[x]);
                if matches!(i.form.name.get(1..4), Some("MMA")) {
                    for r in h.reads() {
                        if let Some(c) = written.get(r) {
                            least = Some(least.map_or(cycle - c, |l| l.min(cycle - c)));
                        }
                    }
                }
                for w in h.writes() {
                    if i.form.name.starts_with("F2FP") && i.ctrl.write_sb().is_none() {
                        written.insert(*w, cycle);
                    } else {
                        written.remove(w);
                    }
                }
                cycle += u64::from(i.ctrl.stall());
            }
        }
    }
    least
}

/// Matrix operands are read across their whole fragments: ptxas's code for
/// the corpus's `mma.m16n8k16` kernels (ZLUDA's `mma_m16n8k16_f32_f16_f16_f32`,
/// `…_bf16_bf16_f32` and `…_bf16_bf16_f32_2x`) packs the fragments with
/// `F2FP` and issues `HMMA.16816.F32 R8, R8, R8, R4` 7 cycles after the
/// `F2FP` writing R9 (a's second register, b's second) on every SM from
/// sm_80 to sm_120 (`S07` on that `F2FP` from sm_90); R8 is written 9
/// cycles or more ahead. 7 is the latency NVIDIA's scheduling tables give
/// an MMA operand read after an ALU result (Mesa NAK's
/// `sm80_instr_latencies.rs`, reader `MMA_1x_collect`/`MMA_2x_collect`
/// after `CoupledAlu`; its `latencies/sm100/reg_raw.csv`, row `hmma`,
/// column `alu`). Counting only a matrix operand's first register (the
/// form table's widths before the fragments were declared) saw the 9 and
/// not the 7, which made the pair 9 from 8 observations; the 16
/// dependences on the fragments' other registers make it 7 from 24, in
/// a class of readers of their own (`mma`: an integer reader of an
/// `F2FP` result needs 4 cycles).
#[test]
fn matrix_fragments_are_read_whole() {
    let Some(codes) = corpus() else { return };
    for code in codes.iter().filter(|c| c.sm >= 80) {
        assert_eq!(least_f2fp_to_matrix(code), Some(7), "sm_{}: the least F2FP → matrix-operand distance in ptxas's code", code.sm);
        let entry = latency::data_file(code.sm).and_then(|t| t.lines().find(|l| l.starts_with("R\tconv_fast\tmma\t")).map(str::to_string));
        assert_eq!(entry.as_deref(), Some("R\tconv_fast\tmma\t7\t24"), "sm_{}", code.sm);
    }
}

/// Replays instructions through a fresh warp; the first hazard, with where.
fn replay<'a>(sm: u16, code: impl Iterator<Item = (usize, &'a Inst, &'a HazardInfo)>) -> Result<(), String> {
    let mut warp = WarpHazards::new(Sm::new(sm));
    for (k, i, h) in code {
        warp.issue(h, i).map_err(|m| format!("/*{:04x}*/ {}: {m}", k * 16, i.text(Sm::new(sm), k as u64 * 16)))?;
    }
    Ok(())
}

/// Replays every straight-line path of every SM's code; the hazards found.
fn hazards_in(codes: &[Code], source: Source) -> Vec<String> {
    let mut failures = Vec::new();
    for code in codes {
        let (mut chains, mut edges, mut nblocks, mut insts) = (0, 0, 0, 0);
        for (n, f) in code.functions.iter().enumerate() {
            nblocks += blocks(f).len();
            let (chain_paths, edge_paths) = paths(f);
            for (what, paths) in [("chain", chain_paths), ("branch edge", edge_paths)] {
                for path in paths {
                    if what == "chain" {
                        chains += 1;
                        insts += path.len();
                    } else {
                        edges += 1;
                    }
                    if let Err(m) = replay(code.sm, path.iter().map(|&x| (x, inst(&f[x]).0, inst(&f[x]).1))) {
                        failures.push(format!("{source:?} sm_{} function {n} ({what}): {m}", code.sm));
                    }
                }
            }
        }
        eprintln!("{source:?} sm_{}: {nblocks} blocks, {chains} fall-through chains ({insts} instructions), {edges} branch edges replayed", code.sm);
    }
    failures
}

#[test]
fn ptxas_code_has_no_hazards() {
    let Some(codes) = corpus() else { return };
    // The library corpus is measured, not replayed: its code guards both
    // sides of many dependences with opposite senses of one predicate
    // (`@P0 LDG R8` … `@!P0 MOV R8`), which a replay without predicate
    // values cannot tell from a hazard; `scripts/library-corpus-launch.sh`
    // runs it in the interpreter, whose checker sees the lanes.
    let failures = hazards_in(codes, Source::Corpus);
    for f in failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{} hazards reported in ptxas code", failures.len());
    issue_speed(codes);
}

/// Prints the time per [`WarpHazards::issue`] call: one warp per SM runs
/// every chain of the corpus back to back (three `NOP`s waiting on every
/// scoreboard and stalling 15 cycles between chains), as an interpreter's
/// warp would (the budget is 20 M warp-instructions per second with
/// checking on: 50 ns for everything an instruction costs).
fn issue_speed(codes: &[Code]) {
    let mut runs = Vec::new();
    for code in codes {
        let sm = Sm::new(code.sm);
        let ctrl = ptx2sass::internals::isa::ctrl::Ctrl::parse("[B012345:R-:W-:-:S15]").expect("control prefix");
        let nop = ptx2sass::internals::isa::parse::parse_inst("NOP ;", sm, 0, ctrl).expect("NOP");
        let nop_info = HazardInfo::of(&nop, sm);
        let mut run: Vec<(Inst, HazardInfo)> = Vec::new();
        for f in &code.functions {
            for path in paths(f).0 {
                run.extend(path.iter().map(|&x| (inst(&f[x]).0.clone(), inst(&f[x]).1.clone())));
                run.extend(std::iter::repeat_n((nop.clone(), nop_info.clone()), 3));
            }
        }
        runs.push((sm, run));
    }
    let (mut issued, mut flagged) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for _ in 0..10 {
        for (sm, run) in &runs {
            let mut warp = WarpHazards::new(*sm);
            for (i, h) in run {
                flagged += u64::from(warp.issue(h, i).is_err());
                issued += 1;
            }
        }
    }
    let elapsed = start.elapsed();
    eprintln!("issue(): {issued} calls in {elapsed:?}, {:.1} ns per call, {flagged} flagged", elapsed.as_nanos() as f64 / issued as f64);
}

/// One way of breaking a block, and where.
#[derive(Debug)]
enum Mutation {
    /// Lower the stall count of instruction `at` by one.
    Stall { at: usize },
    /// Clear wait bit `sb` of instruction `at`.
    Wait { at: usize, sb: u8 },
}

/// The mutations of a block that must be flagged, found by scanning the
/// block (independently of the checker's state machine): `(kind, mutation)`.
fn mutations(sm: u16, f: &[Decoded], (start, end): (usize, usize)) -> Vec<(&'static str, Mutation)> {
    // The checker's bound: ptxas's least distances over both corpora.
    let table = latency::checking_table(Sm::new(sm));
    let mut out = Vec::new();
    let block = &f[start..end];
    // Stalls: a fixed-latency dependence at exactly the table's latency.
    let mut cycles = vec![0u64; block.len() + 1];
    for (k, d) in block.iter().enumerate() {
        cycles[k + 1] = cycles[k] + u64::from(inst(d).0.ctrl.stall());
    }
    let mut seen_stall = std::collections::BTreeSet::new();
    for (j, d) in block.iter().enumerate() {
        let (_, hj) = inst(d);
        let reads = hj.guard().map(|g| (g, Class::Guard, 0)).into_iter().chain(hj.reads_with_relief().map(|(r, relief)| (r, hj.class(), relief)));
        for (r, reader, relief) in reads {
            // The last writer of r before j.
            let Some(p) = (0..j).rev().find(|&p| inst(&block[p]).1.writes().contains(&r)) else { continue };
            let (ip, hp) = inst(&block[p]);
            // Scoreboarded results, and unscoreboarded ones a queue may cover.
            if ip.ctrl.write_sb().is_some() || hp.queue() != 0 {
                continue;
            }
            let row = hp.write_row(r).unwrap_or_else(|| latency::Table::row_index(file_of(&HazardInfo::unit_name(r)), hp.producer_class()));
            let need = latency::relieved(table.rows()[usize::from(row)][reader as usize], relief);
            if u64::from(need) != cycles[j] - cycles[p] {
                continue;
            }
            if let Some(k) = (p..j).rev().find(|&k| inst(&block[k]).0.ctrl.stall() > 0).filter(|k| seen_stall.insert(*k)) {
                out.push(("stall", Mutation::Stall { at: start + k }));
            }
        }
    }
    // Waits: instruction i waits on s, and an instruction j >= i (with no
    // wait on s in between) touches a register pending on s at i.
    for (i, d) in block.iter().enumerate() {
        let wait = inst(d).0.ctrl.wait();
        for s in 0..SCOREBOARDS {
            if wait >> s & 1 == 0 {
                continue;
            }
            // Results pending on s; general registers held for reading by s,
            // with the reader's own write scoreboard and queue.
            // Results pending on s, with their producer's queue.
            let (mut pend_w, mut pend_r) = (Vec::new(), Vec::new());
            for q in (0..i).rev() {
                let (iq, hq) = inst(&block[q]);
                if iq.ctrl.write_sb() == Some(s) {
                    pend_w.extend(hq.writes().iter().map(|u| (*u, hq.queue())));
                }
                if iq.ctrl.read_sb() == Some(s) {
                    pend_r.extend(hq.reads().iter().filter(|u| HazardInfo::unit_name(**u).starts_with('R')).map(|u| (*u, iq.ctrl.write_sb(), hq.queue(), q)));
                }
                if iq.ctrl.wait() >> s & 1 == 1 {
                    break;
                }
            }
            // A reader whose write scoreboard was waited on before i has read.
            pend_r.retain(|&(_, w, _, q)| w.is_none_or(|w| (q + 1..i).all(|k| inst(&block[k]).0.ctrl.wait() >> w & 1 == 0)));
            for (j, dj) in block.iter().enumerate().skip(i) {
                let (ij, hj) = inst(dj);
                if j > i && ij.ctrl.wait() >> s & 1 == 1 {
                    break;
                }
                // Waits of j itself and of instructions between count.
                pend_r.retain(|&(_, w, _, _)| w.is_none_or(|w| ij.ctrl.wait() >> w & 1 == 0));
                let same_queue_load = ij.ctrl.write_sb().is_some() && hj.queue() != 0;
                let pending = |u: u16| pend_w.iter().any(|&(w, _)| w == u);
                // A later scoreboarded result of the producer's queue lands after it.
                let overwrites = |u: u16| pend_w.iter().any(|&(w, q)| w == u && !(same_queue_load && q == hj.queue()));
                let touches_w = hj.guard().into_iter().chain(hj.reads().iter().copied()).any(pending) || hj.writes().iter().any(|&u| overwrites(u));
                let touches_r = hj.writes().iter().any(|u| pend_r.iter().any(|&(r, _, q, _)| r == *u && !(same_queue_load && q == hj.queue())));
                if touches_w || touches_r {
                    out.push((if touches_w { "wait (RAW/WAW)" } else { "wait (WAR)" }, Mutation::Wait { at: start + i, sb: s }));
                    break;
                }
            }
        }
    }
    out
}

#[test]
fn mutants_are_flagged() {
    let Some(codes) = corpus() else { return };
    let mut missed = Vec::new();
    for code in codes {
        let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (n, f) in code.functions.iter().enumerate() {
            for b in blocks(f) {
                for (kind, m) in mutations(code.sm, f, b) {
                    let mut insts: Vec<(usize, Inst, &HazardInfo)> = (b.0..b.1).map(|x| (x, inst(&f[x]).0.clone(), inst(&f[x]).1)).collect();
                    match m {
                        Mutation::Stall { at } => {
                            let c = &mut insts[at - b.0].1.ctrl;
                            *c = c.with_stall(c.stall() - 1);
                        }
                        Mutation::Wait { at, sb } => {
                            let c = &mut insts[at - b.0].1.ctrl;
                            *c = c.with_wait(c.wait() & !(1 << sb));
                        }
                    }
                    let flagged = replay(code.sm, insts.iter().map(|(x, i, h)| (*x, i, *h))).is_err();
                    let e = counts.entry(kind).or_default();
                    e.0 += 1;
                    if flagged {
                        e.1 += 1;
                    } else if missed.len() < 40 {
                        missed.push(format!("sm_{} function {n}: {kind} mutant {m:?} of block {:#x}..{:#x} not flagged", code.sm, b.0 * 16, b.1 * 16));
                    }
                }
            }
        }
        let summary: Vec<String> = counts.iter().map(|(k, (n, f))| format!("{k}: {f}/{n} flagged")).collect();
        eprintln!("sm_{}: {}", code.sm, summary.join(", "));
        for kind in ["stall", "wait (RAW/WAW)", "wait (WAR)"] {
            assert!(counts.get(kind).is_some_and(|(n, _)| *n >= 10), "sm_{}: fewer than 10 `{kind}` mutants", code.sm);
        }
    }
    for m in &missed {
        eprintln!("  {m}");
    }
    assert!(missed.is_empty(), "mutants not flagged");
}
