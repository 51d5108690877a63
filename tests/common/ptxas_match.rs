//! Kernels that must give ptxas's outputs: a PTX file with its launch
//! spec (`X.ptx` and `X.json`) and a `// sms: 80 90 120` line naming the
//! SMs it runs on. For each SM, ptxas's cubin (cached) and ours run in the
//! SASS interpreter with hazard checking on; their output buffers must be
//! identical and not all zero. A `// ptxas hazards: off` line runs
//! ptxas's cubin without the hazard check (where the checker's tables are
//! stricter than ptxas's own code; the line says why); ours is always
//! checked.

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::launch::Launch;
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;
use std::path::Path;

/// The SMs of the `// sms:` line.
pub fn sms_of(text: &str) -> Vec<u16> {
    text.lines().find_map(|l| l.strip_prefix("// sms:")).map(|l| l.split_whitespace().filter_map(|s| s.parse().ok()).collect()).unwrap_or_default()
}

/// The output buffers after a run of `cubin`.
pub fn outputs(cubin: &[u8], spec: &LaunchSpec, spec_text: &str, hazards: HazardCheck) -> Result<Vec<u8>, String> {
    let options = RunOptions { step_budget: 1_000_000, hazards, ..Default::default() };
    let out = sass::run(cubin, spec, &options).map_err(|e| e.to_string())?;
    output_bytes(&out.launch, spec_text)
}

/// The output parameters' bytes after a run, in order (the spec's
/// `"output": true` buffers).
pub fn output_bytes(launch: &Launch, spec_text: &str) -> Result<Vec<u8>, String> {
    let json: serde_json::Value = serde_json::from_str(spec_text).map_err(|e| e.to_string())?;
    let params = json.get("params").and_then(|p| p.as_array()).ok_or("no params")?;
    let mut bytes = Vec::new();
    for (k, p) in params.iter().enumerate() {
        if p.get("output").and_then(|o| o.as_bool()) == Some(true) {
            bytes.extend_from_slice(launch.buffer_bytes(k).ok_or("no output buffer")?);
        }
    }
    Ok(bytes)
}

/// Compiles `ptx` for `sm` with ptxas (cached under `cache`) and with
/// ptx2sass and compares the two cubins' outputs; returns our cubin.
pub fn check(ptxas: &Path, cache: &Path, ptx: &Path, sm: u16) -> Result<Vec<u8>, String> {
    let source = std::fs::read_to_string(ptx).map_err(|e| e.to_string())?;
    let spec_path = ptx.with_extension("json");
    let spec_text = std::fs::read_to_string(&spec_path).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{}: {e:?}", spec_path.display()))?;
    let theirs = super::cached_cubin(ptxas, cache, ptx, sm)?;
    let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|_| "does not parse".to_string())?;
    let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    let theirs_checked = if source.lines().any(|l| l.starts_with("// ptxas hazards: off")) { HazardCheck::Off } else { HazardCheck::Fail };
    let want = outputs(&theirs, &spec, &spec_text, theirs_checked).map_err(|e| format!("ptxas's cubin: {e}"))?;
    let got = outputs(&ours.cubin, &spec, &spec_text, HazardCheck::Fail).map_err(|e| format!("our cubin: {e}"))?;
    if want.iter().all(|&b| b == 0) {
        return Err("ptxas's cubin writes only zeros: the test proves nothing".into());
    }
    if want != got {
        let at = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
        return Err(format!("outputs differ from byte {at} ({} vs {} bytes)", got.len(), want.len()));
    }
    Ok(ours.cubin)
}

/// Runs every kernel of `tests/data/<data>` on each SM of its `// sms:`
/// line ([`check`], ptxas's cubins cached under `target/<data>-kernel-cubins`),
/// then `also` on the kernel's text and our cubin; at least `min_runs`
/// runs, and every one must pass.
pub fn all_kernels_match(data: &str, min_runs: usize, also: impl Fn(&str, &[u8]) -> Result<(), String> + Sync) {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", data) else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join(format!("target/{data}-kernel-cubins"));
    std::fs::create_dir_all(&cache).expect("cache directory");
    let mut kernels = super::ptx_files(&root.join("tests/data").join(data));
    kernels.sort();
    let mut jobs = Vec::new();
    for ptx in kernels {
        let text = std::fs::read_to_string(&ptx).expect("kernel");
        let sms = sms_of(&text);
        assert!(!sms.is_empty(), "{}: no `// sms:` line", ptx.display());
        jobs.extend(sms.into_iter().map(|sm| (ptx.clone(), text.clone(), sm)));
    }
    assert!(jobs.len() >= min_runs, "only {} kernel runs", jobs.len());
    let results = super::par_map(&jobs, |(ptx, text, sm)| check(&ptxas, &cache, ptx, *sm).and_then(|cubin| also(text, &cubin)));
    let failures: Vec<String> = jobs
        .iter()
        .zip(&results)
        .filter_map(|((ptx, _, sm), r)| r.as_ref().err().map(|e| format!("{} sm_{sm}: {e}", ptx.file_stem().unwrap_or_default().to_string_lossy())))
        .collect();
    eprintln!("{data} kernels: {} of {} runs identical to ptxas's cubin", jobs.len() - failures.len(), jobs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether the PTX interpreter's output buffers for the kernel `text` of
/// `tests/data/<data>` (its `// name:` line names the launch spec) equal
/// those of our `cubin`. A kernel with a `// ptx interpreter: not
/// compared (why)` line is compared with ptxas's cubin only.
pub fn ptx_interpreter_agrees(data: &str, text: &str, cubin: &[u8]) -> Result<(), String> {
    if text.lines().any(|l| l.starts_with("// ptx interpreter: not compared")) {
        return Ok(());
    }
    let name = text.lines().find_map(|l| l.strip_prefix("// name: ")).ok_or("no `// name:` line")?;
    let spec_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(data).join(format!("{name}.json"));
    let spec_text = std::fs::read_to_string(&spec_path).map_err(|e| e.to_string())?;
    let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{e:?}"))?;
    let module = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).map_err(|_| "does not parse")?;
    let out = ptx2sass::internals::interp::ptx::run(&module, &spec, &Default::default()).map_err(|e| format!("PTX interpreter: {e}"))?;
    let want = output_bytes(&out.launch, &spec_text)?;
    let got = outputs(cubin, &spec, &spec_text, HazardCheck::Fail)?;
    match want.iter().zip(&got).position(|(a, b)| a != b) {
        None if want.len() == got.len() => Ok(()),
        at => Err(format!("the PTX interpreter differs from our cubin at byte {}", at.unwrap_or(want.len().min(got.len())))),
    }
}
