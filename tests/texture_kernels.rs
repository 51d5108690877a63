//! ZLUDA's texture kernels (`tex_read_{1d,2d,3d}_{float,int}` with float or
//! s32 coordinates, through a `.texref` or a texture object) on the SASS
//! interpreter: for every SM, our cubin must fetch the texel the
//! coordinates name (hand-derived below) from a texture the launch binds,
//! and ptxas's cubin (cached under `target/texture-kernel-cubins`) and the
//! PTX interpreter must give the same bytes. Texel k of the bound texture
//! holds the words `0x100 k + c` (c = 0..3), so an output names its texel.

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;
use std::path::Path;

const SMS: [u16; 7] = [75, 80, 86, 89, 90, 100, 120];

/// Texture sizes per dimension count.
fn dims(dim: usize) -> Vec<u32> {
    [vec![8], vec![4, 3], vec![4, 3, 2]][dim - 1].clone()
}

/// The launch spec of a kernel and the texel its coordinates fetch:
/// float coordinates (2.5, 1.25, 1.75) fall in texel (2, 1, 1), integer
/// ones are (3, 2, 1); index x + w (y + h z) on 8, 4x3 and 4x3x2 texels.
fn spec_and_texel(name: &str) -> Option<(String, u32)> {
    let dim: usize = name.strip_prefix("tex_read_")?[..1].parse().ok()?;
    let s32 = name.contains("_s32coord");
    let object = name.ends_with("_texobj");
    let mut params = vec![r#"{"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}"#.to_string()];
    if object {
        params.push(r#"{"kind": "u64", "value": "0x7"}"#.into());
    }
    for k in 0..dim {
        params.push(if s32 { format!(r#"{{"kind": "s32", "value": "{}"}}"#, [3, 2, 1][k]) } else { format!(r#"{{"kind": "f32", "value": "{:#x}"}}"#, [2.5f32, 1.25, 1.75][k].to_bits()) });
    }
    let size = dims(dim);
    let count: u32 = size.iter().product();
    let texels: String = (0..count).flat_map(|k| (0..4).map(move |c| 0x100 * k + c)).map(|w: u32| w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>()).collect();
    let texref = if object { String::new() } else { r#""texref": "tex", "#.into() };
    let spec = format!(
        r#"{{"kernel": "{name}", "grid": [1, 1, 1], "block": [1, 1, 1], "params": [{}], "textures": [{{"handle": 7, {texref}"dims": {size:?}, "address": "clamp", "fill": "hex", "hex": "{texels}"}}]}}"#,
        params.join(", ")
    );
    let texel = match (dim, s32) {
        (1, false) => 2,
        (1, true) => 3,
        (2, false) => 2 + 4,
        (2, true) => 3 + 4 * 2,
        (3, false) => 2 + 4 * (1 + 3),
        _ => 3 + 4 * (2 + 3),
    };
    Some((spec, texel))
}

fn output(cubin: &[u8], spec: &LaunchSpec) -> Result<Vec<u8>, String> {
    let out = sass::run(cubin, spec, &RunOptions { step_budget: 100_000, hazards: HazardCheck::Fail, ..Default::default() }).map_err(|e| e.to_string())?;
    out.launch.buffer_bytes(0).map(<[u8]>::to_vec).ok_or_else(|| "no output buffer".into())
}

#[test]
fn texture_kernels_fetch_the_texel_ptxas_fetches() {
    let Some(corpus) = common::corpus_dir("texture_kernels") else { return };
    let ptxas = ptx2sass::internals::reference::find("ptxas");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join("target/texture-kernel-cubins");
    std::fs::create_dir_all(&cache).expect("cache directory");
    let files: Vec<_> = common::ptx_files(&corpus.join("zluda/ptx")).into_iter().filter(|p| p.file_stem().is_some_and(|s| s.to_string_lossy().starts_with("tex_read_"))).collect();
    assert_eq!(files.len(), 24, "ZLUDA's tex_read kernels");
    let jobs: Vec<(std::path::PathBuf, u16)> = files.iter().flat_map(|f| SMS.iter().map(move |&sm| (f.clone(), sm))).collect();
    let results = common::par_map(&jobs, |(ptx, sm)| -> Result<bool, String> {
        let name = ptx.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let (spec_text, texel) = spec_and_texel(&name).ok_or("no spec")?;
        let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{e:?}"))?;
        let source = std::fs::read_to_string(ptx).map_err(|e| e.to_string())?;
        let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|_| "does not parse".to_string())?;
        let ours = driver::compile_to_cubin(&module, Sm::new(*sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
        let got = output(&ours.cubin, &spec).map_err(|e| format!("our cubin: {e}"))?;
        let want: Vec<u8> = (0..4).flat_map(|c| (0x100 * texel + c).to_le_bytes()).collect();
        if got != want {
            return Err(format!("our cubin fetched {got:02x?}, texel {texel} is {want:02x?}"));
        }
        if *sm == 80 {
            // The PTX interpreter on the same spec (once: it reads no SM).
            let out = ptx2sass::internals::interp::ptx::run(&module, &spec, &Default::default()).map_err(|e| format!("PTX interpreter: {e}"))?;
            let ptx_out = out.launch.buffer_bytes(0).map(<[u8]>::to_vec).unwrap_or_default();
            if ptx_out != want {
                return Err(format!("the PTX interpreter fetched {ptx_out:02x?}, texel {texel} is {want:02x?}"));
            }
        }
        let Some(ptxas) = &ptxas else { return Ok(false) };
        let theirs = common::cached_cubin(ptxas, &cache, ptx, *sm)?;
        let theirs = output(&theirs, &spec).map_err(|e| format!("ptxas's cubin: {e}"))?;
        if theirs != got {
            return Err(format!("ptxas's cubin fetched {theirs:02x?}, ours {got:02x?}"));
        }
        Ok(true)
    });
    let failures: Vec<String> = jobs.iter().zip(&results).filter_map(|((p, sm), r)| r.as_ref().err().map(|e| format!("{} sm_{sm}: {e}", p.display()))).collect();
    let compared = results.iter().filter(|r| matches!(r, Ok(true))).count();
    eprintln!("texture kernels: {} of {} runs fetch the right texel, {compared} compared with ptxas's cubin", jobs.len() - failures.len(), jobs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
