//! The checks the `compile`, `differential` and `accept_reject` targets
//! and the `fuzzgen` driver make on one PTX program, and what they report.
//!
//! * [`compile_checked`]: ptx2sass with the IR verifier after every stage,
//!   regalloc2's checker on every allocation and the hazard checker on the
//!   final code (`driver::Options::verify`, `CodegenOptions::check`).
//! * [`ptxas`]: NVIDIA's ptxas as a process (`--fmad=false`, so it never
//!   contracts a mul and an add; generated programs forbid it anyway with
//!   explicit rounding modes).
//! * [`differential`]: both cubins in the SASS interpreter and the PTX
//!   program in the PTX interpreter on the same launch; every output
//!   buffer must be equal byte for byte.
//! * [`verdicts`]: ptx2sass's parse-and-check verdict against ptxas's
//!   `-arch=compute_XX` one.

use ptx2sass::internals::driver::{self, CodegenOptions};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::{ptx as iptx, sass as isass};
use ptx2sass::internals::ptx::check::CheckOptions;
use ptx2sass::internals::target::Sm;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Warp-instructions an interpreter run may take (generated programs are
/// bounded well below: at most ~80 statements, loops of at most 4 trips
/// nested 3 deep, recursion 7 deep, 8 warps).
pub const STEP_BUDGET: u64 = 2_000_000;

/// ptx2sass's cubin with every internal check on, or the stage errors.
pub fn compile_checked(ptx: &str, sm: u32) -> Result<Vec<u8>, String> {
    let module = ptx2sass::internals::ptx::parse(ptx).map_err(|d| format!("parse: {d:?}"))?;
    let sm = Sm::new(sm as u16);
    let check = CheckOptions { arch: Some(sm), resolve_calls: true };
    ptx2sass::internals::ptx::check::check(&module, &check).map_err(|d| format!("check: {d:?}"))?;
    let options = driver::Options { verify: true };
    let codegen = CodegenOptions { check: true, threads: Some(1), ..Default::default() };
    driver::compile_to_cubin(&module, sm, Some(ptx), options, codegen)
        .map(|c| c.cubin)
        .map_err(|errs| errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))
}

/// Whether ptx2sass's front end accepts `ptx` for `arch` (`compute_XX`
/// semantics: parse and check, calls need not resolve).
pub fn ours_accepts(ptx: &str, sm: u32) -> bool {
    let Ok(module) = ptx2sass::internals::ptx::parse(ptx) else { return false };
    let check = CheckOptions { arch: Some(Sm::new(sm as u16)), resolve_calls: false };
    ptx2sass::internals::ptx::check::check(&module, &check).is_ok()
}

/// The reference ptxas, if installed.
pub fn ptxas_path() -> Option<PathBuf> {
    ptx2sass::internals::reference::find("ptxas")
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh path in the temporary directory for this process.
fn temp_path(ext: &str) -> PathBuf {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("ptx2sass-fuzz-{}-{n}.{ext}", std::process::id()))
}

/// Runs ptxas on `ptx`: `-arch=sm_XX` (a cubin) or, with `check_only`,
/// `-arch=compute_XX` (parse and check only; `Ok(empty)` when accepted).
/// `Err` holds ptxas's messages.
pub fn ptxas(ptxas: &std::path::Path, ptx: &str, sm: u32, check_only: bool) -> Result<Vec<u8>, String> {
    let input = temp_path("ptx");
    let output = temp_path("cubin");
    std::fs::write(&input, ptx).map_err(|e| format!("write {}: {e}", input.display()))?;
    let arch = if check_only { format!("-arch=compute_{sm}") } else { format!("-arch=sm_{sm}") };
    let result = Command::new(ptxas).arg(arch).arg("--fmad=false").arg(&input).arg("-o").arg(&output).output();
    let _ = std::fs::remove_file(&input);
    let result = match result {
        Ok(out) if out.status.success() => Ok(if check_only { Vec::new() } else { std::fs::read(&output).map_err(|e| format!("read cubin: {e}"))? }),
        Ok(out) => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        Err(e) => Err(format!("cannot run ptxas: {e}")),
    };
    let _ = std::fs::remove_file(&output);
    result
}

/// What one differential run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// ptxas rejected the generated program (a generator bug, or ptxas's
    /// stricter rules): not ours to compare.
    PtxasRejects(String),
    /// ptx2sass refused a program ptxas compiles (a stage error, the
    /// verifier, the regalloc checker or the hazard checker).
    OursRejects(String),
    /// ptxas's cubin does not run in the SASS interpreter (decoder gap,
    /// hazard false alarm is not counted: hazards are only reported).
    RefDoesNotRun(String),
    /// Our cubin does not run in the SASS interpreter.
    OursDoesNotRun(String),
    /// The two cubins' outputs differ (a miscompile, or an interpreter
    /// bug on one side).
    Mismatch { ours: String, reference: String },
    /// The PTX interpreter fails or disagrees with ptxas's cubin.
    PtxInterp(String),
}

impl Finding {
    /// A short class name for counts.
    pub fn class(&self) -> &'static str {
        match self {
            Finding::PtxasRejects(_) => "ptxas-rejects",
            Finding::OursRejects(_) => "ours-rejects",
            Finding::RefDoesNotRun(_) => "ref-does-not-run",
            Finding::OursDoesNotRun(_) => "ours-does-not-run",
            Finding::Mismatch { .. } => "mismatch",
            Finding::PtxInterp(_) => "ptx-interp",
        }
    }
}

/// Runs a cubin in the SASS interpreter (hazards reported, not fatal:
/// ptxas's own code trips known false alarms, issue 22) and returns its
/// output buffers as `param N: <hex>` lines.
pub fn run_sass(cubin: &[u8], spec: &LaunchSpec) -> Result<String, String> {
    let options = isass::Options { step_budget: STEP_BUDGET, hazards: isass::HazardCheck::Off, trace: false };
    isass::run(cubin, spec, &options).map(|o| o.launch.outputs_text()).map_err(|e| e.to_string())
}

/// Runs the PTX interpreter.
pub fn run_ptx(ptx: &str, spec: &LaunchSpec) -> Result<String, String> {
    let module = ptx2sass::internals::ptx::parse(ptx).map_err(|d| format!("parse: {d:?}"))?;
    iptx::run(&module, spec, &iptx::Options { step_budget: STEP_BUDGET }).map(|o| o.launch.outputs_text()).map_err(|e| e.to_string())
}

/// The differential check of one program: `Ok(())` when ptxas's cubin,
/// ours and the PTX interpreter agree.
pub fn differential(ptxas_bin: &std::path::Path, ptx: &str, sm: u32, spec: &LaunchSpec, with_ptx_interp: bool) -> Result<(), Finding> {
    let reference = ptxas(ptxas_bin, ptx, sm, false).map_err(Finding::PtxasRejects)?;
    let ours = compile_checked(ptx, sm).map_err(Finding::OursRejects)?;
    let ref_out = run_sass(&reference, spec).map_err(Finding::RefDoesNotRun)?;
    let our_out = run_sass(&ours, spec).map_err(Finding::OursDoesNotRun)?;
    if ref_out != our_out {
        return Err(Finding::Mismatch { ours: our_out, reference: ref_out });
    }
    if with_ptx_interp {
        let ptx_out = run_ptx(ptx, spec).map_err(Finding::PtxInterp)?;
        if ptx_out != ref_out {
            return Err(Finding::PtxInterp(first_difference(&ptx_out, &ref_out)));
        }
    }
    Ok(())
}

/// Where two output texts first differ (byte offset in the hex of the
/// first differing line), for reports.
pub fn first_difference(a: &str, b: &str) -> String {
    for (la, lb) in a.lines().zip(b.lines()) {
        if la != lb {
            let at = la.bytes().zip(lb.bytes()).position(|(x, y)| x != y).unwrap_or(0);
            let from = at.saturating_sub(at % 2);
            let (pa, pb) = (&la[from..la.len().min(from + 32)], &lb[from..lb.len().min(from + 32)]);
            let prefix = la.split(':').next().unwrap_or("");
            let byte = (from.saturating_sub(prefix.len() + 2)) / 2;
            return format!("{prefix} byte {byte}: {pa} vs {pb}");
        }
    }
    format!("{} vs {} lines", a.lines().count(), b.lines().count())
}
