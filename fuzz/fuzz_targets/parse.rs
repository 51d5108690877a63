//! Fuzz target: the PTX parser, checker and printer never panic, and printing
//! round-trips. Input format and properties: `fuzz/src/lib.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = ptx2sass_fuzz::decode(data);
    ptx2sass_fuzz::check_parse_properties(&text);
});
