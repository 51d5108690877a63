//! Fuzz target: on token-mutated generated PTX, ptx2sass's parse-and-check
//! verdict (`-arch=compute_XX`) equals ptxas's. Needs the reference ptxas;
//! without it every input is skipped. Input: as the `compile` target's
//! mutated mode (the last 16 bytes are the edit script).

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use ptx2sass_fuzz::{oracle, progen};
use std::sync::OnceLock;

static PTXAS: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some(ptxas) = PTXAS.get_or_init(oracle::ptxas_path) else { return };
    if data.len() <= 16 {
        return;
    }
    let (gen_bytes, edit) = data.split_at(data.len() - 16);
    let Ok(p) = progen::program(&mut Unstructured::new(gen_bytes)) else { return };
    let mut input = vec![ptx2sass_fuzz::EDIT_MODE, edit.len() as u8];
    input.extend_from_slice(edit);
    input.extend_from_slice(p.ptx.as_bytes());
    let mutant = ptx2sass_fuzz::decode(&input);
    let theirs = oracle::ptxas(ptxas, &mutant, p.sm, true);
    let ours = oracle::ours_accepts(&mutant, p.sm);
    if ours != theirs.is_ok() && !oracle::known_verdict_difference(&mutant, theirs.as_ref().err().map(String::as_str), p.sm) {
        panic!("sm_{}: ptx2sass accepts: {ours}, ptxas: {theirs:?}\n{mutant}", p.sm);
    }
});
