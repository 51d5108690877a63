//! Fuzz target: module listings on arbitrary text (properties in
//! `fuzz/src/cubin.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptx2sass_fuzz::cubin::check_listing_properties(data);
});
