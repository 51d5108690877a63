//! Fuzz target: the cubin reader on arbitrary bytes (properties in
//! `fuzz/src/cubin.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptx2sass_fuzz::cubin::check_cubin_properties(data);
});
