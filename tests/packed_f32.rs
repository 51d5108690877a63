//! Packed f32 arithmetic (`add/sub/mul/fma.f32x2`, `tests/data/packed_f32`).
//! On sm_100 ptxas and ptx2sass emit FADD2/FMUL2/FFMA2, on sm_120 the f32
//! instruction on each word; both cubins must give the same outputs in
//! the SASS interpreter ([`common::ptxas_match`]), and ours must use the
//! packed instructions where ptxas does. That the interpreter's packed
//! instructions mean what ptxas's scalar code means is checked apart:
//! ptxas's sm_100 cubin (FADD2 with pair, swapped and broadcast sources)
//! gives the outputs of its sm_120 cubin (FADD, FMUL, FFMA only).

mod common;

use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::HazardCheck;
use std::path::Path;

#[test]
fn packed_f32_kernels_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("packed_f32", 2, |_, cubin| {
        let listing = ptx2sass::disassemble(cubin).map_err(|e| e.to_string())?;
        let packed = ["FADD2", "FMUL2", "FFMA2"].iter().any(|op| listing.contains(op));
        match (listing.contains(".target sm_100"), packed) {
            (true, false) => Err("no FADD2, FMUL2 or FFMA2 in our sm_100 code".into()),
            (false, true) => Err("packed f32 instructions outside sm_100".into()),
            _ => Ok(()),
        }
    });
}

#[test]
fn packed_instructions_compute_what_scalar_ones_do() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "packed_f32") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Not the other test's cache: both run at once in one process.
    let cache = root.join("target/packed_f32-scalar-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    for ptx in common::ptx_files(&root.join("tests/data/packed_f32")) {
        let spec_text = std::fs::read_to_string(ptx.with_extension("json")).expect("spec");
        let spec = LaunchSpec::from_json(&spec_text).expect("spec parses");
        let run = |sm: u16| {
            let cubin = common::cached_cubin(&ptxas, &cache, &ptx, sm).expect("ptxas compiles");
            common::ptxas_match::outputs(&cubin, &spec, &spec_text, HazardCheck::Fail).expect("runs")
        };
        let (packed, scalar) = (run(100), run(120));
        assert!(scalar.iter().any(|&b| b != 0), "{}: only zeros", ptx.display());
        assert_eq!(packed, scalar, "{}: FADD2/FMUL2/FFMA2 disagree with FADD/FMUL/FFMA", ptx.display());
    }
}
