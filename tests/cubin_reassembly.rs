//! Re-assembly of every corpus cubin: each PTX file of the shared corpus
//! that the reference ptxas accepts (the selection of
//! `common::ptx_inputs_for_sm`) is compiled for sm_75, 80, 89, 90, 100 and
//! 120; its listing (what `sass dis` prints: the module form where the
//! module model rebuilds the file, else the section form) is read back as
//! `sass asm` reads it and written. Each result must be byte-identical to
//! ptxas's file, or else have the same `.text` sections and the same
//! `cuobjdump -elf` output; the counts are printed per SM, and the number of
//! listings in the module form must not drop below what was measured.
//!
//! ptxas's cubins come from the cache of `cubin_cache`.

mod common;
mod cubin_cache;

use ptx2sass::internals::cubin::{elf, listing};
use ptx2sass::internals::target::Sm;
use std::path::{Path, PathBuf};
use std::process::Command;

const SMS: &[u16] = &[75, 80, 89, 90, 100, 120];

/// Fewest cubins per SM whose listing must have the module form (measured
/// when written: 172, 190, 190, 250, 243, 216 of 220, 241, 241, 278, 278,
/// 247): fewer means the module model stopped rebuilding files it did.
const MODULE_FORM_AT_LEAST: &[(u16, usize)] = &[(75, 170), (80, 188), (89, 188), (90, 248), (100, 241), (120, 214)];

/// What became of one cubin.
#[derive(Debug)]
enum Outcome {
    NotCompiled,
    /// Byte-identical; whether the listing had the module form.
    Identical { module_form: bool },
    /// Same `.text` sections and `cuobjdump -elf` output.
    Equivalent,
    Failed(String),
}

fn text_sections(file: &elf::Elf) -> Vec<(String, Vec<u8>)> {
    file.sections.iter().filter(|s| s.name.starts_with(".text.")).map(|s| (s.name.clone(), s.bytes(file))).collect()
}

fn cuobjdump_elf(cuobjdump: &Path, bytes: &[u8], scratch: &Path) -> String {
    std::fs::write(scratch, bytes).expect("scratch file");
    let out = Command::new(cuobjdump).arg("-elf").arg(scratch).output().expect("cuobjdump runs");
    let _ = std::fs::remove_file(scratch);
    String::from_utf8_lossy(&out.stdout).replace(&scratch.display().to_string(), "FILE") + &String::from_utf8_lossy(&out.stderr)
}

fn reassemble(original: &[u8], sm: u16, cuobjdump: &Path, scratch: &Path) -> Outcome {
    let sm_id = Sm::new(sm);
    let file = match elf::read(original) {
        Ok(r) => r.elf,
        Err(e) => return Outcome::Failed(format!("read: {e}")),
    };
    let mut text = String::new();
    listing::write_cubin(&mut text, &file, original, sm_id, false);
    let module_form = !ptx2sass::internals::cubin::section_listing::is_section_listing(&text);
    let back = match listing::read(&text, sm_id) {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("listing line {}: {}: {:?}", e.line, e.message, text.lines().nth(e.line.saturating_sub(1)))),
    };
    let written = elf::write(&back);
    if written == original {
        return Outcome::Identical { module_form };
    }
    if text_sections(&back) != text_sections(&file) {
        return Outcome::Failed("the .text sections differ".into());
    }
    if cuobjdump_elf(cuobjdump, &written, scratch) != cuobjdump_elf(cuobjdump, original, scratch) {
        return Outcome::Failed("neither byte-identical nor the same `cuobjdump -elf` output".into());
    }
    Outcome::Equivalent
}

#[test]
fn every_corpus_cubin_reassembles() {
    let Some(corpus) = common::corpus_dir("every_corpus_cubin_reassembles") else { return };
    let tools: Vec<PathBuf> = ["ptxas", "cuobjdump"].iter().filter_map(|t| ptx2sass::internals::reference::require(t, "every_corpus_cubin_reassembles")).collect();
    let [ptxas, cuobjdump] = &tools[..] else { return };
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("reassembly-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut failures = Vec::new();
    for &sm in SMS {
        let files = common::ptx_inputs_for_sm(&corpus, sm);
        let jobs: Vec<(usize, &PathBuf)> = files.iter().enumerate().collect();
        let outcomes = common::par_map(&jobs, |(k, file)| match cubin_cache::ptxas_cubin(ptxas, &corpus, sm, file) {
            None => Outcome::NotCompiled,
            Some(bytes) => reassemble(&bytes, sm, cuobjdump, &scratch.join(format!("{sm}-{k}.cubin"))),
        });
        let (mut compiled, mut identical, mut module_form, mut equivalent) = (0, 0, 0, 0);
        for (file, outcome) in files.iter().zip(outcomes) {
            match outcome {
                Outcome::NotCompiled => continue,
                Outcome::Identical { module_form: m } => {
                    identical += 1;
                    module_form += usize::from(m);
                }
                Outcome::Equivalent => equivalent += 1,
                Outcome::Failed(why) => failures.push(format!("sm_{sm} {}: {why}", file.display())),
            }
            compiled += 1;
        }
        println!("sm_{sm}: {compiled} cubins; {identical} byte-identical after dis -> asm ({module_form} through the module form), {equivalent} with identical .text and cuobjdump -elf only");
        if compiled == 0 {
            failures.push(format!("sm_{sm}: ptxas compiled no corpus file"));
        }
        let floor = MODULE_FORM_AT_LEAST.iter().find(|(s, _)| *s == sm).map_or(0, |(_, n)| *n);
        if module_form < floor {
            failures.push(format!("sm_{sm}: {module_form} listings in the module form, fewer than the {floor} measured"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{} cubins failed:\n{}", failures.len(), failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}
