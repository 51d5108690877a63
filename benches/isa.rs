//! Decoding and encoding speed of the machine layer: the sm_90 words ptxas
//! emits for the whole corpus that the form table decodes (from the encoding
//! corpus `target/encoding-corpus`, which `scripts/encoding-corpus.sh` or
//! `tests/isa_corpus.rs` makes), else for the example kernel (compiled with
//! the reference `ptxas`), else a built-in sample of sm_80 words; decoded
//! and re-encoded per iteration. Reports instructions per second.
//!
//! `cargo bench --bench isa`
//!
//! Machine instructions per word, independent of the machine's load: run
//! one benchmark under callgrind twice, e.g. `valgrind --tool=callgrind
//! target/release/deps/isa-… --bench decode_from --sample-count N
//! --sample-size 1` for N = 2 and 12, and divide the difference of the
//! totals by ten times the word count (the setup cancels out).

use divan::Bencher;
use divan::counter::ItemsCount;
use ptx2sass::internals::isa::bits::join;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::target::Sm;
use std::sync::OnceLock;

fn main() {
    let (words, origin) = words();
    eprintln!("isa bench: {} words ({origin})", words.len());
    divan::main();
}

/// The benchmark's words (sm_90), loaded once.
fn words() -> &'static (Vec<u128>, String) {
    static WORDS: OnceLock<(Vec<u128>, String)> = OnceLock::new();
    WORDS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        if let Ok(listing) = std::fs::read_to_string(root.join("target/encoding-corpus/sm_90.lst")) {
            let words: Vec<u128> = listing_words(&listing).into_iter().filter(|w| Inst::decode(*w, Sm::new(90)).is_ok()).collect();
            if !words.is_empty() {
                return (words, "every sm_90 corpus word the table decodes (target/encoding-corpus)".to_string());
            }
        }
        let ptxas = root.join(".reference/bin/ptxas");
        let cubin = std::env::temp_dir().join(format!("ptx2sass-isa-bench-{}.cubin", std::process::id()));
        let compiled = std::process::Command::new(&ptxas)
            .arg("-arch=sm_90")
            .arg(root.join("examples/saxpy.ptx"))
            .arg("-o")
            .arg(&cubin)
            .output()
            .is_ok_and(|o| o.status.success());
        if compiled {
            if let Ok(code) = std::fs::read(&cubin).map_err(|e| e.to_string()).and_then(|b| ptx2sass::internals::cubin::read_code(&b)) {
                let _ = std::fs::remove_file(&cubin);
                let words: Vec<u128> = code.functions.iter().flat_map(|f| f.words.iter().copied()).collect();
                // Repeat to a size where per-iteration overhead does not matter.
                let words: Vec<u128> = words.iter().copied().cycle().take(words.len() * 64).collect();
                return (words, "examples/saxpy.ptx compiled by ptxas for sm_90".to_string());
            }
        }
        let sample = [
            join(0x0000000004047210, 0x004fc80007ffe005),
            join(0xffffffe80900780c, 0x000fe40003f62270),
            join(0x000000ffff077224, 0x000fc600078e00ff),
            join(0x0000000000007918, 0x000fc00000000000),
        ];
        (sample.iter().copied().cycle().take(4096).collect(), "built-in sm_80 sample".to_string())
    })
}

/// The instruction words of an `nvdisasm -hex` listing (low word on the
/// instruction's line, high word on the next).
fn listing_words(text: &str) -> Vec<u128> {
    let hex = |s: &str| -> Option<u64> { u64::from_str_radix(s.trim().strip_prefix("/* 0x")?.strip_suffix("*/")?.trim(), 16).ok() };
    let mut words = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        // `/*0040*/  TEXT ;  /* 0x… */`: an address, then the low word.
        let Some((address, rest)) = line.trim_start().strip_prefix("/*").and_then(|r| r.split_once("*/")) else { continue };
        let (Ok(_), Some(at)) = (u64::from_str_radix(address, 16), rest.rfind("/* 0x")) else { continue };
        if let (Some(lo), Some(hi)) = (hex(&rest[at..]), lines.next().and_then(hex)) {
            words.push(join(lo, hi));
        }
    }
    words
}

fn sm() -> Sm {
    if words().1.contains("sm_90") { Sm::new(90) } else { Sm::new(80) }
}

/// `Inst::decode` over every word.
#[divan::bench]
fn decode(bencher: Bencher) {
    let (words, _) = words();
    let sm = sm();
    bencher.counter(ItemsCount::new(words.len())).bench(|| {
        let mut ok = 0usize;
        for &w in words {
            ok += Inst::decode(divan::black_box(w), sm).is_ok() as usize;
        }
        ok
    });
}

/// `Inst::decode_from` over every word, into one instruction (the decoder
/// without moving its result).
#[divan::bench]
fn decode_from(bencher: Bencher) {
    let (words, _) = words();
    let sm = sm();
    bencher.counter(ItemsCount::new(words.len())).bench(|| {
        let mut inst = Inst::empty();
        let mut ok = 0usize;
        for &w in words {
            ok += inst.decode_from(divan::black_box(w), sm).is_ok() as usize;
            divan::black_box(&inst);
        }
        ok
    });
}

/// `Inst::encode` of every decodable word.
#[divan::bench]
fn encode(bencher: Bencher) {
    let (words, _) = words();
    let sm = sm();
    let insts: Vec<Inst> = words.iter().filter_map(|&w| Inst::decode(w, sm).ok()).collect();
    bencher.counter(ItemsCount::new(insts.len())).bench(|| {
        let mut x = 0u128;
        for i in &insts {
            x ^= divan::black_box(i).encode(sm).unwrap_or(0);
        }
        x
    });
}
