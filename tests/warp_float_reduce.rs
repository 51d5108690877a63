//! The warp float reductions `redux.sync.{min,max}{.abs}{.NaN}.f32`, which
//! ptxas takes for sm_100a only (CREDUX.F32), on the kernels of
//! `tests/data/warp_float_reduce`: Triton's `row_max`, `softmax` and
//! `quantize_int8` for sm_100a, and every variant of the instruction over
//! four warps of chosen inputs.
//!
//! * `kernels_match_ptxas_on_sm_100a`: ptxas's cubin (`-arch=sm_100a`,
//!   cached under `target/warp_float_reduce-kernel-cubins`) and ours run in
//!   the SASS interpreter with hazard checking; their outputs must be
//!   identical and not all zero (all but `softmax`, whose ptxas code the
//!   interpreter cannot run yet: `softmax_rows_sum_to_one` checks ours).
//! * `variants_give_the_isa_results`: the variants kernel's outputs, from
//!   ptxas's cubin and from ours, are the words the PTX ISA's rules give
//!   (worked out by hand below), so the interpreter's CREDUX semantics are
//!   checked too, not only the two cubins against each other.
//! * `refused_where_ptxas_refuses_it`: for sm_90 (the PTX checker: the
//!   `.f32` type needs sm_100) and sm_120 (no legalization rule: ptxas
//!   refuses the `.f32` forms there too), compiling fails with an error
//!   naming the instruction.

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::target::Sm;
use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = "warp_float_reduce";

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(DATA)
}

/// ptxas's cubin of `ptx` for sm_100a, cached by the text and the tool.
fn ptxas_cubin(ptxas: &Path, ptx: &Path) -> Result<Vec<u8>, String> {
    let text = std::fs::read(ptx).map_err(|e| format!("{}: {e}", ptx.display()))?;
    let mut key: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.iter().chain(ptxas.to_string_lossy().as_bytes()) {
        key = (key ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/{DATA}-kernel-cubins"));
    std::fs::create_dir_all(&cache).map_err(|e| e.to_string())?;
    let path = cache.join(format!("{key:016x}.sm_100a.cubin"));
    if let Ok(bytes) = std::fs::read(&path) {
        return Ok(bytes);
    }
    // One temporary name per call: two tests of this process compile the
    // same kernel at once (the same pid), and a shared name let one rename
    // the file from under the other.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = cache.join(format!("{key:016x}.sm_100a.{}.{call}.tmp", std::process::id()));
    let ok = Command::new(ptxas).arg("-arch=sm_100a").arg(ptx).arg("-o").arg(&tmp).output().is_ok_and(|o| o.status.success());
    if !ok {
        return Err(format!("ptxas rejected {} for sm_100a", ptx.display()));
    }
    std::fs::rename(&tmp, &path).map_err(|e| e.to_string())?;
    std::fs::read(&path).map_err(|e| e.to_string())
}

/// Our cubin of `source` for `arch` (`100a`, `120a`).
fn our_cubin(source: &str, arch: &str) -> Result<Vec<u8>, String> {
    let sm = Sm::parse_number(arch).ok_or_else(|| format!("no SM {arch}"))?;
    let module = ptx2sass::internals::ptx::parse_and_check(source, &Default::default()).map_err(|d| format!("refused by the checker: {}", d.list.iter().map(|e| e.message.as_str()).collect::<Vec<_>>().join("; ")))?;
    driver::compile_to_cubin(&module, sm, Some(source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .map(|out| out.cubin)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}

/// The output buffers after a run of `cubin`, hazards checked (the shared
/// driver's).
fn outputs(cubin: &[u8], spec_text: &str) -> Result<Vec<u8>, String> {
    let spec = LaunchSpec::from_json(spec_text).map_err(|e| format!("{e:?}"))?;
    common::ptxas_match::outputs(cubin, &spec, spec_text, HazardCheck::Fail)
}

/// ptxas's outputs and ours for one kernel of the data directory.
fn both_outputs(ptxas: &Path, ptx: &Path) -> Result<(Vec<u8>, Vec<u8>), String> {
    let source = std::fs::read_to_string(ptx).map_err(|e| e.to_string())?;
    let spec_text = std::fs::read_to_string(ptx.with_extension("json")).map_err(|e| e.to_string())?;
    let theirs = outputs(&ptxas_cubin(ptxas, ptx)?, &spec_text).map_err(|e| format!("ptxas's cubin: {e}"))?;
    let ours = outputs(&our_cubin(&source, "100a")?, &spec_text).map_err(|e| format!("our cubin: {e}"))?;
    Ok((theirs, ours))
}

/// The kernels whose ptxas cubins the SASS interpreter runs. Triton's
/// `softmax` is not one: ptxas's code for it uses the packed f32 pair
/// instructions (`FADD2 R4, R4.F32x2.HI_LO, -R13.F32`, `FMUL2`), which the
/// decoder does not know yet; [`softmax_rows_sum_to_one`] checks ours.
const MATCHED: [&str; 3] = ["quantize_int8", "redux_f32_variants", "row_max"];

#[test]
fn kernels_match_ptxas_on_sm_100a() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", DATA) else { return };
    let mut kernels = common::ptx_files(&data_dir());
    kernels.sort();
    assert_eq!(kernels.len(), 4, "the four kernels of tests/data/{DATA}");
    kernels.retain(|k| k.file_stem().is_some_and(|s| MATCHED.iter().any(|m| s == *m)));
    assert_eq!(kernels.len(), MATCHED.len());
    let results = common::par_map(&kernels, |ptx| {
        let (theirs, ours) = both_outputs(&ptxas, ptx)?;
        if theirs.iter().all(|&b| b == 0) {
            return Err("ptxas's cubin writes only zeros: the test proves nothing".to_string());
        }
        if theirs != ours {
            let at = theirs.iter().zip(&ours).position(|(a, b)| a != b).unwrap_or(theirs.len().min(ours.len()));
            return Err(format!("outputs differ from byte {at} ({} vs {} bytes)", ours.len(), theirs.len()));
        }
        Ok(())
    });
    let failures: Vec<String> = kernels.iter().zip(results).filter_map(|(k, r)| r.err().map(|e| format!("{}: {e}", k.display()))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The variants kernel's ten words per warp: min, max, min.abs, max.abs,
/// then the same four with `.NaN`, then the integer min.s32 and max.u32 of
/// the same bits. By the PTX ISA's rules (`redux.sync`): NaN inputs are
/// skipped unless `.NaN` (then any NaN gives the canonical NaN 0x7fffffff),
/// all-NaN gives the canonical NaN, and +0.0 > -0.0.
const EXPECTED: [[u32; 10]; 4] = [
    // Warp 0: 1.5, -2.0, -0.0, +0.0, NaN, -7.25, 3.0, then 0.5 (25 lanes).
    // min -7.25, max 3.0, min |x| +0.0 (|-0.0| is +0.0), max |x| 7.25;
    // min.s32 the most negative word -0.0's 0x80000000, max.u32 -7.25's.
    [0xc0e8_0000, 0x4040_0000, 0x0000_0000, 0x40e8_0000, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x8000_0000, 0xc0e8_0000],
    // Warp 1: lane l holds (l - 20) / 4: min -5.0, max 2.75, min |x| +0.0
    // (lane 20), max |x| 5.0, no NaN so `.NaN` changes nothing; min.s32 is
    // -0.25 (the negative float nearest zero is the most negative integer),
    // max.u32 -5.0.
    [0xc0a0_0000, 0x4030_0000, 0x0000_0000, 0x40a0_0000, 0xc0a0_0000, 0x4030_0000, 0x0000_0000, 0x40a0_0000, 0xbe80_0000, 0xc0a0_0000],
    // Warp 2: -0.0 (even lanes) and +0.0: min -0.0, max +0.0, |x| all +0.0.
    [0x8000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x8000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x8000_0000, 0x8000_0000],
    // Warp 3: NaNs only (0x7fc00000, 0xffc00001): the canonical NaN
    // always; the integers see 0xffc00001 (-4194303) as least and greatest.
    [0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0xffc0_0001, 0xffc0_0001],
];

/// Triton's softmax, ours only (see [`MATCHED`]): both rows of outputs
/// lie in (0, 1] and sum to 1 within 1e-5, and the masked-off tail of each
/// row (columns 1000..1024) stays zero.
#[test]
fn softmax_rows_sum_to_one() {
    let dir = data_dir();
    let source = std::fs::read_to_string(dir.join("softmax.ptx")).unwrap();
    let spec_text = std::fs::read_to_string(dir.join("softmax.json")).unwrap();
    let out = outputs(&our_cubin(&source, "100a").unwrap(), &spec_text).unwrap();
    let values: Vec<f32> = out.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4]))).collect();
    assert_eq!(values.len(), 2 * 1024);
    for (r, row) in values.chunks(1024).enumerate() {
        let (live, tail) = row.split_at(1000);
        assert!(live.iter().all(|&v| v > 0.0 && v <= 1.0), "row {r}: a value outside (0, 1]");
        let sum: f64 = live.iter().map(|&v| f64::from(v)).sum();
        assert!((sum - 1.0).abs() < 1e-5, "row {r}: sum {sum}");
        assert!(tail.iter().all(|&v| v == 0.0), "row {r}: the masked-off tail was written");
    }
}

#[test]
fn variants_give_the_isa_results() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", DATA) else { return };
    let (theirs, ours) = both_outputs(&ptxas, &data_dir().join("redux_f32_variants.ptx")).unwrap();
    let want: Vec<u8> = EXPECTED.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
    let words = |b: &[u8]| b.chunks(4).map(|c| format!("{:08x}", u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))).collect::<Vec<_>>().join(" ");
    assert_eq!(words(&theirs), words(&want), "ptxas's cubin in the SASS interpreter");
    assert_eq!(words(&ours), words(&want), "our cubin in the SASS interpreter");
}

#[test]
fn refused_where_ptxas_refuses_it() {
    let source = std::fs::read_to_string(data_dir().join("redux_f32_variants.ptx")).unwrap();
    for arch in ["90a", "120a"] {
        let text = source.replace(".target sm_100a", &format!(".target sm_{arch}"));
        match our_cubin(&text, arch) {
            Ok(_) => panic!("sm_{arch}: redux.sync.min.f32 compiled; ptxas refuses it there"),
            Err(e) => assert!(e.contains("redux.sync") || e.contains("redux.min.f32"), "sm_{arch}: {e}"),
        }
    }
}
