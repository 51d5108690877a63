//! `tld4` (SASS TLD4): a gather of one component of the 2×2 texels that
//! bilinear filtering at (x, y) reads, in the PTX ISA's order
//! (counter-clockwise from the lower left). A 4×3 texture, clamped, whose
//! texel (i, j) holds the words 0x100 (i + 4j) + c for component c, so an
//! output names its texel; the expected words are worked out here from
//! the coordinates. Our cubin on every SM family, with hazard checking,
//! must give them, and so must ptxas's cubin (its TLD4 words carry reuse
//! flags nvdisasm does not print), also with partial write masks (a TLD4
//! of which only some components are kept).

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;
use std::path::Path;

/// Coordinates in texels (not normalized): inside, at the edges, past
/// them on both sides.
const COORDS: [(f32, f32); 6] = [(1.5, 1.5), (0.2, 0.2), (3.9, 2.9), (2.0, 1.0), (-3.0, 7.25), (2.75, 0.5)];

fn word(i: i64, j: i64, c: u32) -> u32 {
    0x100 * (i.clamp(0, 3) as u32 + 4 * j.clamp(0, 2) as u32) + c
}

/// Per thread: red of the four texels, then their alpha.
fn expected() -> Vec<u8> {
    let mut out = Vec::new();
    for (x, y) in COORDS {
        let (i0, j0) = ((x - 0.5).floor() as i64, (y - 0.5).floor() as i64);
        let four = [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)];
        for (i, j) in four {
            out.extend_from_slice(&word(i, j, 0).to_le_bytes());
        }
        for (i, j) in four {
            out.extend_from_slice(&word(i, j, 3).to_le_bytes());
        }
    }
    out
}

/// Per thread (`tld4_partial.ptx`): red of the second and fourth texel,
/// alpha of the first, a zero word.
fn expected_partial() -> Vec<u8> {
    let mut out = Vec::new();
    for (x, y) in COORDS {
        let (i0, j0) = ((x - 0.5).floor() as i64, (y - 0.5).floor() as i64);
        let four = [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)];
        for w in [word(four[1].0, four[1].1, 0), word(four[3].0, four[3].1, 0), word(four[0].0, four[0].1, 3), 0] {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out
}

fn spec() -> LaunchSpec {
    spec_with(32)
}

/// [`spec`] with 16 output bytes a thread.
fn spec_partial() -> LaunchSpec {
    spec_with(16)
}

/// The launch: `out_bytes` output bytes a thread.
fn spec_with(out_bytes: usize) -> LaunchSpec {
    let hex = |words: &mut dyn Iterator<Item = u32>| words.map(|w| w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>()).collect::<String>();
    let coords = hex(&mut COORDS.iter().flat_map(|(x, y)| [x.to_bits(), y.to_bits()]));
    let texels = hex(&mut (0..12u32).flat_map(|k| (0..4).map(move |c| 0x100 * k + c)));
    let n = COORDS.len();
    LaunchSpec::from_json(&format!(
        r#"{{"kernel": "tld4_gather", "grid": [1, 1, 1], "block": [{n}, 1, 1], "params": [
            {{"kind": "buffer", "bytes": {}, "fill": "zero", "output": true}},
            {{"kind": "buffer", "bytes": {}, "fill": "hex", "hex": "{coords}", "output": false}},
            {{"kind": "u64", "value": "0x7"}}],
          "textures": [{{"handle": 7, "dims": [4, 3], "address": "clamp", "fill": "hex", "hex": "{texels}"}}]}}"#,
        out_bytes * n,
        8 * n
    ))
    .expect("spec")
}

#[test]
fn tld4_gathers_the_bilinear_footprint_on_every_sm() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gather/tld4.ptx");
    let source = std::fs::read_to_string(&path).expect("test PTX");
    let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).expect("parses");
    let (spec, want) = (spec(), expected());
    let run = |cubin: &[u8], hazards| -> Vec<u8> {
        let out = sass::run(cubin, &spec, &RunOptions { step_budget: 100_000, hazards, ..Default::default() }).unwrap_or_else(|e| panic!("{e}"));
        out.launch.buffer_bytes(0).expect("output").to_vec()
    };
    for sm in [75u16, 80, 86, 89, 90, 100, 120] {
        let compiled = driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .unwrap_or_else(|es| panic!("sm_{sm}: {}", es.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
        assert_eq!(run(&compiled.cubin, HazardCheck::Fail), want, "sm_{sm}: our cubin");
    }
}

#[test]
fn ptxas_tld4_with_reuse_flags_and_partial_masks_gathers_the_same() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "ptxas_tld4_with_reuse_flags_and_partial_masks_gathers_the_same") else { return };
    let dir = std::env::temp_dir().join(format!("ptx2sass-tld4-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gather");
    for (file, spec, want) in [("tld4.ptx", spec(), expected()), ("tld4_partial.ptx", spec_partial(), expected_partial())] {
        for sm in [75u16, 80, 86, 89, 90, 100, 120] {
            let cubin = dir.join(format!("{file}.{sm}.cubin"));
            assert!(common::compile_cubin(&ptxas, sm, &data.join(file), &cubin), "ptxas rejected {file} for sm_{sm}");
            let bytes = std::fs::read(&cubin).expect("cubin");
            let out = sass::run(&bytes, &spec, &RunOptions { step_budget: 100_000, hazards: HazardCheck::Fail, ..Default::default() }).unwrap_or_else(|e| panic!("{file} sm_{sm}: {e}"));
            assert_eq!(out.launch.buffer_bytes(0).expect("output"), &want[..], "{file} sm_{sm}: ptxas's cubin");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
