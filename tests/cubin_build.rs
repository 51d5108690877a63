//! The module builder against ptxas: every corpus cubin whose shape
//! [`ptx2sass::internals::cubin::module`] describes (kernels and module variables) is read back into a
//! `Module`, built again, and compared with ptxas's file part by part:
//! the section headers (name, type, flags, link, info, alignment, entry
//! size, size), the attribute records of every `.nv.info*` section, the
//! symbols, and whole sections' bytes. The listing `sass dis` prints for
//! each such cubin must read back to the same module. The sm_100+
//! `.nv.merc.*` and `.nv.capmerc.*` sections, which the module carries as
//! they are, are not compared.

mod common;
mod cubin_cache;

use ptx2sass::internals::cubin::elf::{self, Content, Elf};
use ptx2sass::internals::cubin::{listing, module};
use std::collections::BTreeMap;
use std::path::PathBuf;

const SMS: &[u16] = &[75, 80, 89, 90, 100, 120];

fn compared(elf: &Elf) -> Vec<&elf::Section> {
    elf.sections.iter().filter(|s| !s.name.starts_with(".nv.merc.") && !s.name.starts_with(".nv.capmerc.")).collect()
}

/// Each part that differs, by name.
fn differences(theirs: &Elf, ours: &Elf) -> Vec<String> {
    let mut out = Vec::new();
    let (a, b) = (compared(theirs), compared(ours));
    let header = |s: &elf::Section, e: &Elf| (s.name.clone(), s.kind, s.flags, s.link, s.info, s.align, s.entsize, s.size(e));
    let ha: Vec<_> = a.iter().map(|s| header(s, theirs)).collect();
    let hb: Vec<_> = b.iter().map(|s| header(s, ours)).collect();
    if ha != hb {
        out.push("section headers".to_string());
    }
    for s in &a {
        let Some(o) = b.iter().find(|o| o.name == s.name) else { continue };
        match (&s.content, &o.content) {
            (Content::Info(x), Content::Info(y)) if x != y => out.push(format!("records of {}", s.name)),
            (Content::Info(_), Content::Info(_)) => {}
            _ if s.name == ".note.nv.tkinfo" => {}
            _ if s.bytes(theirs) != o.bytes(ours) => out.push(format!("bytes of {}", s.name)),
            _ => {}
        }
    }
    let symbols = |e: &Elf| e.symbols.iter().filter(|s| s.name.as_deref().is_none_or(|n| !n.starts_with(".nv.merc"))).cloned().collect::<Vec<_>>();
    if symbols(theirs) != symbols(ours) {
        out.push("symbols".to_string());
    }
    out
}

#[test]
fn built_modules_match_ptxas() {
    let Some(corpus) = common::corpus_dir("built_modules_match_ptxas") else { return };
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "built_modules_match_ptxas") else { return };
    let mut failures = Vec::new();
    for &sm in SMS {
        let files = common::ptx_inputs_for_sm(&corpus, sm);
        let jobs: Vec<(usize, &PathBuf)> = files.iter().enumerate().collect();
        let results = common::par_map(&jobs, |(k, file)| -> Option<Result<Vec<String>, String>> {
            let _ = k;
            let bytes = cubin_cache::ptxas_cubin(&ptxas, &corpus, sm, file)?;
            let theirs = elf::read(&bytes).expect("ptxas cubins read").elf;
            let Ok(m) = module::from_elf(&theirs) else { return Some(Err(String::new())) };
            // The listing `sass dis` prints must read back to the same module
            // (what makes `sass dis` -> `sass asm` rebuild the cubin).
            let sm_id = ptx2sass::internals::target::Sm::new(sm);
            let mut text = String::new();
            listing::write_module_header(&mut text, &m);
            for k in &m.kernels {
                listing::write_kernel_header(&mut text, k);
                ptx2sass::internals::isa::listing::write_listing(&mut text, &k.code, sm_id, 0, false);
            }
            match listing::read_module(&text, sm_id) {
                Ok(back) if back == m => {}
                Ok(_) => return Some(Ok(vec![format!("build failed: the listing reads back to a different module")])),
                Err(e) => return Some(Ok(vec![format!("build failed: the listing does not read back: line {}: {}", e.line, e.message)])),
            }
            let ours = match module::build(&m) {
                Ok(e) => e,
                Err(e) => return Some(Ok(vec![format!("build failed: {e}")])),
            };
            Some(Ok(differences(&theirs, &ours)))
        });
        let mut tally: BTreeMap<String, usize> = BTreeMap::new();
        let (mut modelled, mut exact, mut other) = (0, 0, 0);
        for (file, r) in files.iter().zip(results) {
            match r {
                None => {}
                Some(Err(_)) => other += 1,
                Some(Ok(diffs)) => {
                    modelled += 1;
                    if diffs.is_empty() {
                        exact += 1;
                    }
                    for d in diffs {
                        if d.starts_with("build failed") {
                            failures.push(format!("sm_{sm} {}: {d}", file.display()));
                        }
                        let kind = d.split(" of ").next().unwrap_or(&d).to_string();
                        *tally.entry(kind).or_default() += 1;
                    }
                }
            }
        }
        println!("sm_{sm}: {modelled} cubins of the modelled shape ({other} of other shapes), {exact} built identically (bar the tool note); differing parts: {tally:?}");
        // Measured when written: 172/194, 190/215, 190/215, 250/254,
        // 243/254, 216/226 for sm_75, 80, 89, 90, 100, 120 (196/202 and
        // 216/222 for sm_75 and sm_80/89 once bank 2 was modelled) (the sm_100+
        // merc sections are carried, not compared); a drop below 85% means
        // a layout rule broke.
        if exact * 100 < modelled * 85 {
            failures.push(format!("sm_{sm}: only {exact} of {modelled} built identically"));
        }
        if modelled == 0 {
            failures.push(format!("sm_{sm}: no corpus cubin has the modelled shape"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
