//! The machine layer against the reference disassembler: every instruction
//! word ptxas emits for the corpus, on each measured SM, is decoded by
//! `nvdisasm` and by [`ptx2sass::isa`], and the two must agree on
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
use ptx2sass::isa::{self, bits, branch, ctrl::Ctrl};
use ptx2sass::target::Sm;
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

/// The corpus PTX files to compile for `sm`: every ZLUDA kernel, and of the
/// nvcc-made kernels the variant for the highest SM not above `sm`.
fn inputs_for(corpus: &Path, sm: u16) -> Vec<PathBuf> {
    let files = common::ptx_files(corpus);
    let variant = |p: &Path| -> Option<u16> {
        let name = p.file_name()?.to_str()?;
        let rest = name.split(".sm_").nth(1)?;
        rest.split('.').next()?.parse().ok()
    };
    let best = files.iter().filter_map(|p| variant(p)).filter(|v| *v <= sm).max();
    files
        .iter()
        .filter(|p| match variant(p) {
            None => p.components().any(|c| c.as_os_str() == "zluda"),
            Some(v) => Some(v) == best,
        })
        .cloned()
        .collect()
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

/// Runs `nvdisasm -b SMxx -hex` on raw words and parses its listing.
fn disassemble(nvdisasm: &Path, sm: u16, raw: &Path) -> Vec<Listed> {
    let out = Command::new(nvdisasm)
        .arg("-b")
        .arg(isa::family::nvdisasm_name(Sm::new(sm)))
        .arg("-hex")
        .arg(raw)
        .output()
        .expect("run nvdisasm");
    assert!(out.status.success(), "nvdisasm failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
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
    failures: Vec<String>,
}

fn check_word(sm: u16, l: &Listed, t: &mut Tally) {
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
    if c.encode(w & !control_bits).ok() != Some(w) {
        fail(t, format!("control fields {c:?} do not re-encode to the same bits"));
    }
    if l.text.is_empty() {
        t.unrendered += 1;
        return;
    }
    // Full decoding, where the form table covers the word: the same text, and
    // the same bits when encoded again.
    if let Ok(inst) = isa::inst::Inst::decode(w, Sm::new(sm)) {
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
        // The assembler reads the text back to the same word.
        match isa::parse::parse_inst(&text, Sm::new(sm), l.address, inst.ctrl).map(|i| i.encode(Sm::new(sm))) {
            Ok(Ok(again)) if again == w => {}
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
    let tight = c.stall == 0 && c.wait == 0 && (sm < 89 || bits_102_103 == 0);
    let listed_tight = l.text.ends_with(';') && !l.text.ends_with(" ;");
    if tight != listed_tight {
        fail(t, format!("';' spacing: predicted {}, listed {}", tight, listed_tight));
    }
    // `.reuse` shows the reuse flags only when bit 109 is set.
    let shown = l.text.matches(".reuse").count() as u32;
    let expected = if c.yield_bit { c.reuse.count_ones() } else { 0 };
    if shown != expected {
        fail(t, format!("{shown} operands print .reuse, reuse flags {:#06b} with bit 109 = {}", c.reuse, c.yield_bit));
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
}

#[test]
fn corpus_words_agree_with_nvdisasm() {
    let Some(corpus) = common::corpus_dir("corpus_words_agree_with_nvdisasm") else { return };
    let Some(ptxas) = ptx2sass::reference::require("ptxas", "corpus_words_agree_with_nvdisasm") else { return };
    let Some(nvdisasm) = ptx2sass::reference::require("nvdisasm", "corpus_words_agree_with_nvdisasm") else { return };
    let scratch = std::env::temp_dir().join(format!("ptx2sass-isa-corpus-{}", std::process::id()));
    let mut all_failures = Vec::new();
    for &sm in SMS {
        let dir = scratch.join(format!("sm_{sm}"));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let files = inputs_for(&corpus, sm);
        let (text, compiled) = compiled_text(&ptxas, sm, &files, &dir);
        assert!(compiled * 10 >= files.len() * 8, "sm_{sm}: ptxas compiled only {compiled} of {} files", files.len());
        let raw = dir.join("text.bin");
        std::fs::write(&raw, &text).expect("write raw words");
        let listed = disassemble(&nvdisasm, sm, &raw);
        assert_eq!(listed.len() * 16, text.len(), "sm_{sm}: nvdisasm listed every word");
        let mut t = Tally::default();
        for l in &listed {
            check_word(sm, l, &mut t);
        }
        eprintln!(
            "sm_{sm}: {compiled}/{} files, {} words ({} without text), decoded {} ({:.1}%), mnemonics {}, branch targets {}, .reuse {}, failures {}",
            files.len(),
            t.words,
            t.unrendered,
            t.decoded,
            100.0 * t.decoded as f64 / t.words.max(1) as f64,
            t.mnemonic_checked,
            t.branches,
            t.reuse,
            t.failures.len()
        );
        all_failures.extend(t.failures.into_iter().filter(|f| !f.is_empty()));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(all_failures.is_empty(), "{} disagreements, first ones:\n{}", all_failures.len(), all_failures.join("\n"));
}
