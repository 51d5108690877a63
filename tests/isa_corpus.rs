//! The machine layer against the reference disassembler: every instruction
//! word ptxas emits for the corpus, on each measured SM, is decoded by
//! `nvdisasm` and by [`ptx2sass::internals::isa`], and the two must agree on
//! * the mnemonic ([`isa::opcode`]);
//! * whether the text ends in `";"` or `" ;"` (the stall / wait-mask rule of
//!   [`isa::ctrl`]);
//! * which operands print `.reuse` (reuse flags shown only with bit 109);
//! * every BRA and BSSY target ([`isa::branch`]).
//!
//! It also checks that the control fields of every word re-encode to the
//! same bits, and, for every word the form table ([`isa::table`]) covers,
//! that [`isa::inst::Inst`] prints exactly nvdisasm's text and encodes back
//! to the same 128 bits, and that [`isa::parse`] reads that text back to the
//! same word (the coverage is printed per SM).

mod common;

use object::{Object, ObjectSection};
use ptx2sass::internals::isa::{self, bits, branch, ctrl::Ctrl};
use ptx2sass::internals::target::Sm;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The SMs whose tables were measured (`isa::family::MEASURED_SMS`).
const SMS: &[u16] = isa::family::MEASURED_SMS;

/// One instruction as `nvdisasm -b SMxx -hex` lists it.
struct Listed {
    address: u64,
    word: u128,
    /// The text between the address and the hex comment, trimmed; empty
    /// when nvdisasm prints only the words.
    text: String,
}


/// The `.text.*` section bytes of every file ptxas compiles for `sm`, back to back.
fn compiled_text(ptxas: &Path, sm: u16, files: &[PathBuf], scratch: &Path) -> (Vec<u8>, usize) {
    let sections: Vec<Option<Vec<u8>>> = common::par_map(&files.iter().enumerate().collect::<Vec<_>>(), |(k, file)| {
        let cubin = scratch.join(format!("{k}.cubin"));
        let ok = Command::new(ptxas)
            .arg(format!("-arch=sm_{sm}"))
            .arg(file)
            .arg("-o")
            .arg(&cubin)
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            return None;
        }
        let data = std::fs::read(&cubin).ok()?;
        let elf = object::File::parse(&*data).expect("ptxas writes ELF");
        let mut text = Vec::new();
        for section in elf.sections() {
            if section.name().is_ok_and(|n| n.starts_with(".text.")) {
                text.extend_from_slice(section.data().expect("section data"));
            }
        }
        Some(text)
    });
    let compiled = sections.iter().filter(|s| s.is_some()).count();
    (sections.into_iter().flatten().flatten().collect(), compiled)
}

/// Runs `nvdisasm -b SMxx -hex` on raw words; its listing.
fn run_nvdisasm(nvdisasm: &Path, sm: u16, raw: &Path) -> String {
    let out = Command::new(nvdisasm)
        .arg("-b")
        .arg(isa::family::nvdisasm_name(Sm::new(sm)))
        .arg("-hex")
        .arg(raw)
        .output()
        .expect("run nvdisasm");
    assert!(out.status.success(), "nvdisasm failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The instructions of an `nvdisasm -hex` listing.
fn parse_listing(text: &str) -> Vec<Listed> {
    let hex = |s: &str| -> Option<u64> {
        let s = s.trim().strip_prefix("/* 0x")?.strip_suffix("*/")?.trim();
        u64::from_str_radix(s, 16).ok()
    };
    let mut listed = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix("/*") else { continue };
        let Some((address, rest)) = rest.split_once("*/") else { continue };
        let Ok(address) = u64::from_str_radix(address, 16) else { continue };
        let Some(at) = rest.rfind("/* 0x") else { continue };
        let lo = hex(&rest[at..]).expect("low word");
        let hi = lines.next().and_then(hex).expect("high word on the next line");
        listed.push(Listed { address, word: bits::join(lo, hi), text: rest[..at].trim().to_string() });
    }
    listed
}

/// The mnemonic of a listing line: first word after the guard, without modifiers.
fn listed_mnemonic(text: &str) -> &str {
    let body = if text.starts_with('@') { text.split_once(' ').map_or("", |(_, b)| b) } else { text };
    let op = body.split([' ', ';']).next().unwrap_or("");
    op.split('.').next().unwrap_or("")
}

/// The absolute target a BRA/BSSY line prints (its last operand), if any.
fn listed_target(text: &str) -> Option<i64> {
    let body = text.trim_end_matches(';').trim_end();
    let last = body.rsplit([' ', ',']).next()?;
    let (neg, hex) = match last.strip_prefix('-') {
        Some(h) => (true, h),
        None => (false, last),
    };
    let v = i64::from_str_radix(hex.strip_prefix("0x")?, 16).ok()?;
    Some(if neg { -v } else { v })
}

#[derive(Default)]
struct Tally {
    words: usize,
    unrendered: usize,
    mnemonic_checked: usize,
    decoded: usize,
    branches: usize,
    reuse: usize,
    /// Words whose descriptor register the text does not show and is not UR4.
    hidden_descriptors: usize,
    failures: Vec<String>,
}

/// Checks one word; whether the form table decodes it.
fn check_word(sm: u16, l: &Listed, t: &mut Tally) -> bool {
    t.words += 1;
    let w = l.word;
    let c = Ctrl::decode(w);
    let fail = |t: &mut Tally, what: String| {
        if t.failures.len() < 40 {
            t.failures.push(format!("sm_{sm} /*{:04x}*/ {:#034x} `{}`: {what}", l.address, w, l.text));
        } else {
            t.failures.push(String::new());
        }
    };
    // Bits 105–125 rebuilt from the decoded fields alone give the word back
    // (bits 126–127, which nothing uses, are never set by ptxas).
    let control_bits = ((1u128 << 21) - 1) << 105;
    if c.encode(w & !control_bits) != w {
        fail(t, format!("control fields {c:?} do not re-encode to the same bits"));
    }
    if l.text.is_empty() {
        t.unrendered += 1;
        return false;
    }
    // Full decoding, where the form table covers the word: the same text, and
    // the same bits when encoded again.
    let decoded = isa::inst::Inst::decode(w, Sm::new(sm));
    if let Ok(inst) = &decoded {
        t.decoded += 1;
        let text = inst.text(Sm::new(sm), l.address);
        if text != l.text {
            fail(t, format!("text: ours `{text}`"));
        }
        match inst.encode(Sm::new(sm)) {
            Ok(again) if again == w => {}
            Ok(again) => fail(t, format!("re-encodes as {again:#034x}")),
            Err(e) => fail(t, format!("does not re-encode: {}", e.0)),
        }
        // The assembler reads the text back to the same word, except for a
        // descriptor register nvdisasm does not print (sm_80–sm_89), which
        // text reads back as UR4.
        let expected = with_printed_descriptor(inst).encode(Sm::new(sm)).unwrap_or(w);
        if expected != w {
            t.hidden_descriptors += 1;
            // The listing's text, which spells such a descriptor out, reads back exactly.
            let listed = inst.listing_text(Sm::new(sm), l.address);
            match isa::parse::parse_inst(&listed, Sm::new(sm), l.address, inst.ctrl).map(|i| i.encode(Sm::new(sm))) {
                Ok(Ok(again)) if again == w => {}
                other => fail(t, format!("listing text `{listed}` reads back as {other:?}")),
            }
        }
        match isa::parse::parse_inst(&text, Sm::new(sm), l.address, inst.ctrl).map(|i| i.encode(Sm::new(sm))) {
            Ok(Ok(again)) if again == expected => {}
            Ok(Ok(again)) => fail(t, format!("assembles as {again:#034x}")),
            Ok(Err(e)) => fail(t, format!("assembled text does not encode: {}", e.0)),
            Err(e) => fail(t, format!("does not assemble: {}", e.0)),
        }
    }
    // Mnemonic.
    let listed = listed_mnemonic(&l.text);
    match isa::opcode::mnemonic(w, Sm::new(sm)) {
        Some(ours) if ours == listed => t.mnemonic_checked += 1,
        ours => fail(t, format!("mnemonic: nvdisasm {listed}, ours {ours:?}")),
    }
    // `;` spacing: "empty" scheduling fields print `X;`.
    let bits_102_103 = bits::Field::bits(102, 103).get(w);
    let tight = c.stall() == 0 && c.wait() == 0 && (sm < 89 || bits_102_103 == 0);
    let listed_tight = l.text.ends_with(';') && !l.text.ends_with(" ;");
    if tight != listed_tight {
        fail(t, format!("';' spacing: predicted {}, listed {}", tight, listed_tight));
    }
    // `.reuse` shows the reuse flags only when bit 109 is set.
    let shown = l.text.matches(".reuse").count() as u32;
    let expected = if c.yield_bit() { c.reuse().count_ones() } else { 0 };
    if shown != expected {
        fail(t, format!("{shown} operands print .reuse, reuse flags {:#06b} with bit 109 = {}", c.reuse(), c.yield_bit()));
    }
    t.reuse += shown as usize;
    // Branch targets.
    if matches!(listed, "BRA" | "BSSY") {
        if let Some(target) = listed_target(&l.text) {
            let layout = branch::layout(Sm::new(sm), listed == "BSSY");
            let ours = l.address as i64 + 16 + branch::decode(w, layout);
            if ours != target {
                fail(t, format!("branch target: listed {target:#x}, ours {ours:#x}"));
            } else {
                t.branches += 1;
            }
        }
    }
    decoded.is_ok()
}

/// Where the encoding corpus lives: `$PTX2SASS_ENCODING_CORPUS`, or
/// `target/encoding-corpus` (git-ignored; `scripts/encoding-corpus.sh` fills it).
fn cache_dir() -> PathBuf {
    std::env::var_os("PTX2SASS_ENCODING_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/encoding-corpus"))
}

/// What the cached listing of an SM was made from: the tools and every
/// input file (name, size, modification time). A cache whose stamp differs
/// is stale and made again.
fn stamp(sm: u16, tools: &[&Path], corpus: &Path, files: &[PathBuf]) -> String {
    let meta = |p: &Path| -> String {
        let m = std::fs::metadata(p).ok();
        let size = m.as_ref().map_or(0, |m| m.len());
        let time = m.and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
        format!("{size} {time}")
    };
    let mut out = format!("sm_{sm}\n");
    for t in tools {
        out += &format!("{} {}\n", t.display(), meta(t));
    }
    for f in files {
        out += &format!("{} {}\n", f.strip_prefix(corpus).unwrap_or(f).display(), meta(f));
    }
    out
}

/// The `nvdisasm -hex` listing of every word ptxas emits for the corpus on
/// `sm`, and how many of how many files compiled: from the encoding corpus
/// when its stamp is current (and `PTX2SASS_ENCODING_CORPUS_REBUILD` is
/// unset), else compiled now and stored there.
fn corpus_listing(sm: u16, corpus: &Path, ptxas: &Path, nvdisasm: &Path, scratch: &Path) -> (String, usize, usize) {
    let files = common::ptx_inputs_for_sm(corpus, sm);
    let cache = cache_dir();
    let stamp = stamp(sm, &[ptxas, nvdisasm], corpus, &files);
    let (stamp_file, listing_file) = (cache.join(format!("sm_{sm}.stamp")), cache.join(format!("sm_{sm}.lst")));
    let rebuild = std::env::var_os("PTX2SASS_ENCODING_CORPUS_REBUILD").is_some();
    if !rebuild {
        if let (Ok(old), Ok(listing)) = (std::fs::read_to_string(&stamp_file), std::fs::read_to_string(&listing_file)) {
            if let Some((compiled, rest)) = old.split_once('\n') {
                if rest == stamp {
                    if let Ok(compiled) = compiled.parse() {
                        return (listing, compiled, files.len());
                    }
                }
            }
        }
    }
    let dir = scratch.join(format!("sm_{sm}"));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let (text, compiled) = compiled_text(ptxas, sm, &files, &dir);
    let raw = dir.join("text.bin");
    std::fs::write(&raw, &text).expect("write raw words");
    let listing = run_nvdisasm(nvdisasm, sm, &raw);
    // The cache is an optimisation: failing to write it is not an error.
    if std::fs::create_dir_all(&cache).is_ok() && std::fs::write(&listing_file, &listing).is_ok() {
        let _ = std::fs::write(&stamp_file, format!("{compiled}\n{stamp}"));
    }
    (listing, compiled, files.len())
}

/// The instruction with every descriptor register that nvdisasm does not
/// print replaced by UR4 (what reading its text back gives).
fn with_printed_descriptor(inst: &isa::inst::Inst) -> isa::inst::Inst {
    use isa::form::Slot;
    use isa::operand::{Operand, RegNum};
    let mut out = inst.clone();
    for (slot, op) in inst.form.slots.iter().zip(out.operands.iter_mut()) {
        if let (Slot::Addr { show_desc: false, desc: Some(_), .. }, Operand::Mem(m)) = (slot, op) {
            *m = m.with_desc(RegNum::Phys(4));
        }
    }
    out
}

/// A known gap: words of some SMs that the machine layer does not decode
/// yet, named by nvdisasm's mnemonic (`RET`: every variant) or mnemonic
/// with modifiers (`RET.REL.NODEC`), with the reason.
struct Gap {
    sms: Vec<u16>,
    key: String,
    reason: String,
}

/// The known gaps (`src/isa/data/known-gaps.tsv`).
fn known_gaps() -> Vec<Gap> {
    let text = include_str!("../src/isa/data/known-gaps.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').map(str::trim).collect();
            let [sms, key, reason] = cols[..] else { panic!("known-gaps.tsv: `{l}` is not SMs, mnemonic, reason") };
            let sms = sms.split(',').map(|s| s.parse().unwrap_or_else(|_| panic!("known-gaps.tsv: bad SM list `{sms}`"))).collect();
            assert!(!reason.is_empty(), "known-gaps.tsv: every gap has a reason");
            Gap { sms, key: key.to_string(), reason: reason.to_string() }
        })
        .collect()
}

/// The mnemonic and modifiers of a listed text, after the guard (`RET.REL.NODEC`).
fn gap_key(text: &str) -> &str {
    let body = if text.starts_with('@') { text.split_once(' ').map_or("", |(_, b)| b) } else { text };
    body.split([' ', ';']).next().unwrap_or("")
}

impl Gap {
    /// Whether a word of `sm` listed as `text` is this gap.
    fn covers(&self, sm: u16, text: &str) -> bool {
        let key = gap_key(text);
        self.sms.contains(&sm) && (key == self.key || key.split('.').next() == Some(self.key.as_str()))
    }
}

#[test]
fn corpus_words_agree_with_nvdisasm() {
    let Some(corpus) = common::corpus_dir("corpus_words_agree_with_nvdisasm") else { return };
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "corpus_words_agree_with_nvdisasm") else { return };
    let Some(nvdisasm) = ptx2sass::internals::reference::require("nvdisasm", "corpus_words_agree_with_nvdisasm") else { return };
    let scratch = std::env::temp_dir().join(format!("ptx2sass-isa-corpus-{}", std::process::id()));
    let gaps = known_gaps();
    let mut gap_used = vec![false; gaps.len()];
    let mut all_failures = Vec::new();
    let mut uncovered = Vec::new();
    for &sm in SMS {
        let (listing, compiled, files) = corpus_listing(sm, &corpus, &ptxas, &nvdisasm, &scratch);
        assert!(compiled * 10 >= files * 8, "sm_{sm}: ptxas compiled only {compiled} of {files} files");
        let listed = parse_listing(&listing);
        let mut t = Tally::default();
        let mut missing: std::collections::BTreeMap<String, usize> = Default::default();
        let mut gap_words = 0;
        // The words not decoded, for whoever extends the table.
        let mut undecoded = String::new();
        for l in &listed {
            if !check_word(sm, l, &mut t) {
                let (lo, hi) = bits::split(l.word);
                undecoded += &format!("{lo:#018x} {hi:#018x} {}\n", l.text);
                if let Some(g) = gaps.iter().position(|g| g.covers(sm, &l.text)) {
                    gap_words += 1;
                    gap_used[g] = true;
                } else {
                    *missing.entry(gap_key(&l.text).to_string()).or_default() += 1;
                }
            }
        }
        eprintln!(
            "sm_{sm}: {compiled}/{files} files, {} words ({} without text), decoded {} ({:.2}%), known gaps {} ({:.2}%), mnemonics {}, branch targets {}, .reuse {}, hidden descriptors other than UR4 {}, failures {}",
            t.words,
            t.unrendered,
            t.decoded,
            100.0 * t.decoded as f64 / t.words.max(1) as f64,
            gap_words,
            100.0 * gap_words as f64 / t.words.max(1) as f64,
            t.mnemonic_checked,
            t.branches,
            t.reuse,
            t.hidden_descriptors,
            t.failures.len()
        );
        let _ = std::fs::write(cache_dir().join(format!("undecoded-sm_{sm}.txt")), undecoded);
        // The acceptance limit: known gaps are at most 0.5% of each SM's words.
        if gap_words * 200 > t.words {
            uncovered.push(format!("sm_{sm}: known gaps are {gap_words} of {} words, above 0.5%", t.words));
        }
        let mut by_count: Vec<_> = missing.into_iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (key, n) in &by_count {
            uncovered.push(format!("sm_{sm}: {n} words `{key}` neither decode nor are a known gap"));
        }
        all_failures.extend(t.failures.into_iter().filter(|f| !f.is_empty()));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    // A gap that no longer occurs is removed from the list (it stays short).
    for (g, used) in gaps.iter().zip(&gap_used) {
        if !used {
            uncovered.push(format!("known gap `{}` ({}) no longer occurs: remove it from known-gaps.tsv", g.key, g.reason));
        }
    }
    for u in uncovered.iter().take(60) {
        eprintln!("  {u}");
    }
    assert!(all_failures.is_empty(), "{} disagreements, first ones:\n{}", all_failures.len(), all_failures.join("\n"));
    assert!(uncovered.is_empty(), "{} kinds of undecoded words outside src/isa/data/known-gaps.tsv, first ones:\n{}", uncovered.len(), uncovered.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
}
