//! Fuzz target: ptx2sass compiles generated and mutated PTX for every SM
//! without panicking, and a generated program never trips the IR verifier,
//! regalloc2's checker or the hazard checker (only "not supported yet"
//! refusals and the known findings of `fuzz/findings/known.txt` are
//! allowed). Input: the first byte's low bit picks plain or mutated; the
//! rest drives the generator (`progen::program`), and for a mutant the
//! last 16 bytes are a token edit script (`Edit`, `fuzz/src/lib.rs`).

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use ptx2sass_fuzz::{oracle, progen};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let (gen_bytes, edit) = if mode & 1 == 1 && rest.len() > 16 { rest.split_at(rest.len() - 16) } else { (rest, &[][..]) };
    let Ok(p) = progen::program(&mut Unstructured::new(gen_bytes)) else { return };
    if edit.is_empty() {
        if let Err(errs) = oracle::compile_checked(&p.ptx, p.sm) {
            let bugs: Vec<&str> = errs.iter().map(|e| e.1.as_str()).filter(|m| oracle::gap_form(m).is_none() && !oracle::known_finding(m)).collect();
            assert!(bugs.is_empty(), "sm_{}: {}\n{}", p.sm, bugs.join("\n"), p.ptx);
        }
    } else {
        let mut input = vec![ptx2sass_fuzz::EDIT_MODE, edit.len() as u8];
        input.extend_from_slice(edit);
        input.extend_from_slice(p.ptx.as_bytes());
        let _ = oracle::compile_checked(&ptx2sass_fuzz::decode(&input), p.sm);
    }
});
