//! Front-end throughput: parse (and parse + check) every `.ptx` file of the
//! shared corpus (`../shared/corpus`, or `$PTX2SASS_CORPUS`; `examples/*.ptx`
//! when the corpus is absent). One iteration handles the whole set, file by
//! file (the files are separate modules), and the byte counter makes divan
//! print MB/s.
//!
//! `cargo bench --bench parse`

mod common;
use common::ptx_files;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::BytesCount;
use ptx2sass::internals::ptx;

fn main() {
    let set = inputs();
    eprintln!(
        "parse bench: {} files, {} bytes from {}",
        set.texts.len(),
        set.bytes,
        set.origin
    );
    divan::main();
}

/// The benchmark's input: file contents, loaded once, outside the timing.
struct Inputs {
    texts: Vec<String>,
    bytes: usize,
    origin: String,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let corpus = std::env::var_os("PTX2SASS_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../shared/corpus"));
        let mut files = ptx_files(&corpus);
        let mut origin = corpus.display().to_string();
        if files.is_empty() {
            files = ptx_files(&root.join("examples"));
            origin = root.join("examples").display().to_string();
        }
        assert!(!files.is_empty(), "no .ptx files in {origin}");
        let texts: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
            .collect();
        let bytes = texts.iter().map(String::len).sum();
        Inputs {
            texts,
            bytes,
            origin,
        }
    })
}


/// `ptx::parse` over the whole set.
#[divan::bench]
fn parse(bencher: Bencher) {
    let set = inputs();
    bencher.counter(BytesCount::new(set.bytes)).bench(|| {
        let mut parsed = 0usize;
        for text in &set.texts {
            parsed += ptx::parse(divan::black_box(text)).is_ok() as usize;
        }
        parsed
    });
}

/// `ptx::parse` then `ptx::check` over the whole set.
#[divan::bench]
fn parse_and_check(bencher: Bencher) {
    let set = inputs();
    let opts = ptx::CheckOptions::default();
    bencher.counter(BytesCount::new(set.bytes)).bench(|| {
        let mut accepted = 0usize;
        for text in &set.texts {
            if let Ok(module) = ptx::parse(divan::black_box(text)) {
                accepted += ptx::check(&module, &opts).is_ok() as usize;
            }
        }
        accepted
    });
}

/// The lexer alone (every token of every file), the floor under `parse`:
/// `lex_into` with one reused buffer, as the parser lexes.
#[divan::bench]
fn lex(bencher: Bencher) {
    let set = inputs();
    let mut buf = Vec::new();
    bencher.counter(BytesCount::new(set.bytes)).bench_local(|| {
        let mut tokens = 0usize;
        for text in &set.texts {
            ptx::lexer::lex_into(divan::black_box(text), &mut buf);
            tokens += buf.len();
        }
        tokens
    });
}
