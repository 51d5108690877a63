//! Every ZLUDA kernel file compiled by ptx2sass for sm_75, 80, 86, 89, 90,
//! 100 and 120, with the IR verifier and the static hazard checker on:
//! * files that do not compile are listed with the first error in
//!   `tests/data/zluda-compile-unsupported.tsv` (the test fails when the
//!   list changes; `BLESS=1` rewrites it);
//! * `cuobjdump -elf` accepts every cubin;
//! * `nvdisasm` prints, for every instruction word of every cubin, the
//!   text our printer gives for it (one raw-word run per SM), and accepts
//!   a sample of the cubins whole (`scripts/check-outputs.sh` runs it on
//!   all of them: nvdisasm takes half a second per file).

mod common;

use common::verdicts::{Verdicts, compare};
use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::isa::family::nvdisasm_name;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::target::Sm;
use std::path::{Path, PathBuf};
use std::process::Command;

const SMS: [u16; 7] = [75, 80, 86, 89, 90, 100, 120];
/// Cubins per SM that nvdisasm reads whole.
const WHOLE_SAMPLE: usize = 3;

struct Output {
    file: String,
    sm: u16,
    result: Result<(Vec<u8>, Vec<Vec<u128>>), String>,
}

fn compile(path: &Path, sm: u16) -> Output {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let result = (|| {
        let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|_| "does not parse or check".to_string())?;
        let compiled = driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .map_err(|errors| errors.first().map_or_else(|| "unknown error".into(), ToString::to_string))?;
        let words = compiled.kernels.iter().map(|k| k.words.clone()).collect();
        Ok((compiled.cubin, words))
    })();
    Output { file, sm, result }
}

/// nvdisasm's text for each word of a raw file, by index.
fn nvdisasm_texts(nvdisasm: &Path, sm: u16, words: &[u128], scratch: &Path) -> Result<Vec<Option<String>>, String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(scratch, bytes).map_err(|e| e.to_string())?;
    let out = Command::new(nvdisasm).arg("-b").arg(nvdisasm_name(Sm::new(sm))).arg("-hex").arg(scratch).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let mut texts = vec![None; words.len()];
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(rest) = l.trim_start().strip_prefix("/*") else { continue };
        let Some((address, rest)) = rest.split_once("*/") else { continue };
        let Some(at) = rest.rfind("/* 0x") else { continue };
        if let Some(t) = usize::from_str_radix(address, 16).ok().and_then(|a| texts.get_mut(a / 16)) {
            *t = Some(rest[..at].trim().to_string());
        }
    }
    Ok(texts)
}

#[test]
fn zluda_kernels_compile_and_the_reference_tools_read_the_cubins() {
    let Some(corpus) = common::corpus_dir("zluda_compile") else { return };
    let nvdisasm = ptx2sass::internals::reference::require("nvdisasm", "zluda_compile");
    let cuobjdump = ptx2sass::internals::reference::require("cuobjdump", "zluda_compile");
    let files = common::ptx_files(&corpus.join("zluda/ptx"));
    let jobs: Vec<(PathBuf, u16)> = files.iter().flat_map(|f| SMS.map(|sm| (f.clone(), sm))).collect();
    let outputs = common::par_map(&jobs, |(f, sm)| compile(f, *sm));

    let mut unsupported = Verdicts::new();
    let mut failures = Vec::new();
    let scratch_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp/zluda-compile");
    std::fs::create_dir_all(&scratch_dir).expect("scratch dir");
    let mut summary = String::new();
    for sm in SMS {
        let mine: Vec<&Output> = outputs.iter().filter(|o| o.sm == sm).collect();
        let mut cubins = Vec::new();
        let mut words = Vec::new();
        for o in &mine {
            match &o.result {
                Ok((cubin, code)) => {
                    let path = scratch_dir.join(format!("{}.sm_{sm}.cubin", o.file));
                    std::fs::write(&path, cubin).expect("write cubin");
                    cubins.push(path);
                    for k in code {
                        words.extend_from_slice(k);
                    }
                }
                Err(e) => {
                    unsupported.insert((o.file.clone(), format!("sm_{sm}"), e.clone()));
                }
            }
        }
        summary.push_str(&format!("sm_{sm}: {} of {} files compile ({} instruction words)\n", cubins.len(), mine.len(), words.len()));
        if cubins.is_empty() {
            continue;
        }
        if let Some(cuobjdump) = &cuobjdump {
            // One file per run (cuobjdump reads only its first argument); it starts fast.
            for cubin in &cubins {
                let out = Command::new(cuobjdump).arg("-elf").arg(cubin).output().expect("run cuobjdump");
                if !out.status.success() || !String::from_utf8_lossy(&out.stdout).contains("64-bit ELF") {
                    failures.push(format!("cuobjdump -elf refuses {}: {}", cubin.display(), String::from_utf8_lossy(&out.stderr).trim()));
                }
            }
        }
        if let Some(nvdisasm) = &nvdisasm {
            match nvdisasm_texts(nvdisasm, sm, &words, &scratch_dir.join(format!("words.sm_{sm}.bin"))) {
                Err(e) => failures.push(format!("sm_{sm}: nvdisasm refuses our words: {e}")),
                Ok(texts) => {
                    for (k, (w, theirs)) in words.iter().zip(texts).enumerate() {
                        let ours = Inst::decode(*w, Sm::new(sm)).map(|i| i.text(Sm::new(sm), 16 * k as u64));
                        match (ours, theirs) {
                            (Ok(o), Some(t)) if o == t => {}
                            (o, t) => failures.push(format!("sm_{sm} word {w:#034x}: ours {o:?}, nvdisasm {t:?}")),
                        }
                    }
                }
            }
            for cubin in cubins.iter().step_by((cubins.len() / WHOLE_SAMPLE).max(1)).take(WHOLE_SAMPLE) {
                let out = Command::new(nvdisasm).arg(cubin).output().expect("run nvdisasm");
                if !out.status.success() {
                    failures.push(format!("nvdisasm refuses {}: {}", cubin.display(), String::from_utf8_lossy(&out.stderr).trim()));
                }
            }
        }
    }
    eprintln!("{summary}");
    compare(
        "zluda-compile-unsupported.tsv",
        "# ZLUDA files ptx2sass does not compile (tests/zluda_compile.rs): file<TAB>sm<TAB>first error.\n# BLESS=1 cargo test --release --test zluda_compile rewrites it.\n",
        &unsupported,
    );
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
}
