//! Fuzz target: the SASS decoder on arbitrary words (properties in
//! `fuzz/src/sass.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptx2sass_fuzz::sass::check_word_properties(data);
});
