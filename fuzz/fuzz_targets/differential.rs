//! Fuzz target: a generated program compiled by ptxas (`--fmad=false`) and
//! by ptx2sass (pruned of forms it does not support yet) gives the same
//! output buffers in the SASS interpreter, and the PTX interpreter agrees.
//! Programs ptxas refuses and ptxas cubins the SASS interpreter cannot run
//! (decoder gaps) are skipped; known findings (`fuzz/findings/known.txt`)
//! are allowed. Needs the reference ptxas (`scripts/install-reference.sh`);
//! without it every input is skipped. Input: `progen::program`'s bytes.

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use ptx2sass_fuzz::oracle::{self, Finding};
use ptx2sass_fuzz::progen;
use std::sync::OnceLock;

static PTXAS: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some(ptxas) = PTXAS.get_or_init(oracle::ptxas_path) else { return };
    let Ok(p) = progen::program(&mut Unstructured::new(data)) else { return };
    let (pruned, result) = oracle::differential(ptxas, &p.ptx, p.sm, &p.spec, true);
    let errors: Vec<&String> = pruned.errors.iter().filter(|m| !oracle::known_finding(m)).collect();
    assert!(errors.is_empty(), "sm_{}: ptx2sass refused: {errors:?}\n{}", p.sm, pruned.ptx);
    match result {
        Ok(()) | Err(Finding::PtxasRejects(_) | Finding::RefDoesNotRun(_)) => {}
        Err(Finding::OursRejects(m) | Finding::OursDoesNotRun(m) | Finding::PtxInterp(m)) if oracle::known_finding(&m) => {}
        Err(f) => panic!("sm_{}: {f:?}\n{}\n{}", p.sm, pruned.ptx, p.spec.to_json()),
    }
});
