//! Fuzz target: the Ori IR text parser, printer and verifier never panic,
//! and printing round-trips. The input is text (lossy UTF-8); seeds are the
//! `.ori` filetests (`scripts/fuzz.sh parse_ir`).
//!
//! Properties:
//! 1. `parse_module` and `parse_function` never panic.
//! 2. On a parsed module the verifier never panics (both stages).
//! 3. The printed module parses again to an equal module, and printing
//!    that gives the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ptx2sass::internals::ir::{Stage, parse_function, parse_module, print_module, verify_module};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_function(&text);
    let Ok(module) = parse_module(&text) else { return };
    let _ = verify_module(&module, Stage::Raw);
    let _ = verify_module(&module, Stage::Legal);
    let printed = print_module(&module);
    let again = match parse_module(&printed) {
        Ok(m) => m,
        Err(e) => panic!("printed module does not parse: {e}\n{printed}"),
    };
    assert!(again == module, "re-parsed module differs\n{printed}");
    assert_eq!(print_module(&again), printed, "printing is not idempotent");
});
