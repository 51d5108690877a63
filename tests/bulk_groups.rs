//! Bulk groups and cluster launch control (sm_100, sm_120): stores from
//! shared to global memory in a bulk group (`cp.async.bulk.global
//! .shared::cta.bulk_group`, with `.cp_mask`), their commit and wait, and
//! `clusterlaunchcontrol.try_cancel` / `query_cancel` (cub_device_scan's
//! operations), and a bulk copy from global into shared memory completed
//! on an mbarrier (sm_90 on). Our cubin runs in the SASS interpreter with hazard
//! checking; its outputs are the hand-derived ones below, and ptxas's
//! cubin gives the same where ptxas is installed.

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::{LaunchSpec, sass};
use ptx2sass::internals::target::Sm;
use std::path::Path;

/// What the kernel stores: thread t writes the words (t × 0x01010101) ^
/// 0x80402010 and t at shared byte 8t; 128 bytes are copied whole, the
/// next 128 under the byte mask 0x00f3 (bytes 0, 1, 4–7 of every 16); a
/// failed cancellation (every one here) gives `is_canceled` false (3) and
/// first x 0.
fn expected() -> Vec<u8> {
    let mut buf = Vec::new();
    for t in 0..32u32 {
        buf.extend_from_slice(&(t.wrapping_mul(0x0101_0101) ^ 0x8040_2010).to_le_bytes());
        buf.extend_from_slice(&t.to_le_bytes());
    }
    let mut out = vec![0u8; 264];
    out[..128].copy_from_slice(&buf[..128]);
    for k in 128..256 {
        if 0x00f3u32 >> (k % 16) & 1 == 1 {
            out[k] = buf[k];
        }
    }
    out[256..260].copy_from_slice(&3u32.to_le_bytes());
    out
}

fn output_bytes(text: &str) -> Vec<u8> {
    let hex = text.trim().strip_prefix("param ").and_then(|t| t.split_once(": ")).map(|(_, hex)| hex).filter(|hex| !hex.contains('\n')).unwrap_or_else(|| panic!("one output buffer: {text}"));
    (0..hex.len() / 2).map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).expect("hex")).collect()
}

#[test]
fn bulk_group_stores_and_a_failed_cancellation_give_the_expected_bytes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bulk_groups");
    let ptx_path = dir.join("bulk_groups.ptx");
    let source = std::fs::read_to_string(&ptx_path).expect("test PTX");
    let spec = LaunchSpec::from_json(&std::fs::read_to_string(dir.join("bulk_groups.json")).expect("spec")).expect("spec");
    let want = expected();
    ours_and_ptxas_give(&ptx_path, &source, &spec, &[100, 120], &want);
}

/// `bulk_copy_wait` of the filetest `compile/mbarrier_bulk_copy`: thread 0
/// copies 128 bytes from `in` into shared memory on an mbarrier, every
/// thread waits on it and stores its word to `out`, so `out` is `in`.
/// ptxas's cubin must pass the hazard checker too: its sm_120 code reads
/// a `@!P0 MOV R2, 0x80` in `SYNCS.ARRIVE.TRANS64` 4 cycles on.
#[test]
fn a_bulk_copy_waited_on_an_mbarrier_delivers_its_bytes() {
    let ptx_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests/compile/mbarrier_bulk_copy.ptx");
    let source = std::fs::read_to_string(&ptx_path).expect("filetest PTX");
    let input: Vec<u8> = (0..128u32).map(|k| (k.wrapping_mul(0x9e) ^ 0x5a) as u8).collect();
    let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
    let spec = LaunchSpec::from_json(&format!(
        r#"{{"kernel": "bulk_copy_wait", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 256, "params": [
            {{"kind": "buffer", "bytes": 128, "fill": "hex", "hex": "{hex}"}},
            {{"kind": "buffer", "bytes": 128, "fill": "zero", "output": true}}]}}"#
    ))
    .expect("spec");
    ours_and_ptxas_give(&ptx_path, &source, &spec, &[90, 100, 120], &input);
}

/// Our cubin of `source` (the text of `ptx_path`) for each of `sms`, and
/// ptxas's where it is installed, run in the SASS interpreter with
/// hazards fatal, must each give `want` as their one output buffer.
fn ours_and_ptxas_give(ptx_path: &Path, source: &str, spec: &LaunchSpec, sms: &[u16], want: &[u8]) {
    let module = ptx2sass::internals::ptx::parse_and_check(source, &Default::default()).expect("parses");
    let ptxas = ptx2sass::internals::reference::require("ptxas", &ptx_path.display().to_string());
    for &sm in sms {
        let compiled = driver::compile_to_cubin(&module, Sm::new(sm), Some(source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .unwrap_or_else(|es| panic!("sm_{sm}: {}", es.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
        let options = sass::Options { hazards: sass::HazardCheck::Fail, ..Default::default() };
        let ours = sass::run(&compiled.cubin, spec, &options).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
        assert_eq!(output_bytes(&ours.launch.outputs_text()), want, "sm_{sm}: our cubin");
        if let Some(ptxas) = &ptxas {
            let name = ptx_path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let scratch = std::env::temp_dir().join(format!("ptx2sass-{name}-{}-{sm}.cubin", std::process::id()));
            assert!(common::compile_cubin(ptxas, sm, ptx_path, &scratch), "ptxas rejected {} for sm_{sm}", ptx_path.display());
            let bytes = std::fs::read(&scratch).expect("cubin");
            let _ = std::fs::remove_file(&scratch);
            let theirs = sass::run(&bytes, spec, &options).unwrap_or_else(|e| panic!("sm_{sm}, ptxas's cubin: {e}"));
            assert_eq!(output_bytes(&theirs.launch.outputs_text()), want, "sm_{sm}: ptxas's cubin");
        }
    }
}
