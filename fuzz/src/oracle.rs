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

/// One ptx2sass error: the PTX line it names (0 when none) and its text.
pub type StageError = (u32, String);

/// ptx2sass's cubin with every internal check on, or the errors.
pub fn compile_checked(ptx: &str, sm: u32) -> Result<Vec<u8>, Vec<StageError>> {
    let module = ptx2sass::internals::ptx::parse(ptx).map_err(|d| vec![(0, format!("parse: {d:?}"))])?;
    let sm = Sm::new(sm as u16);
    let check = CheckOptions { arch: Some(sm), resolve_calls: true };
    ptx2sass::internals::ptx::check::check(&module, &check).map_err(|d| vec![(0, format!("check: {d:?}"))])?;
    // No contraction, as ptxas is run with `--fmad=false` (see [`ptxas`]).
    let options = driver::Options { verify: true, fma_contraction: false };
    let codegen = CodegenOptions { check: true, threads: Some(1), ..Default::default() };
    driver::compile_to_cubin(&module, sm, Some(ptx), options, codegen).map(|c| c.cubin).map_err(|errs| errs.iter().map(|e| (e.line, e.to_string())).collect())
}

/// The PTX form a "not supported yet" error names (`abs.f16`,
/// `cvt.rn.f16.s32`), or `None` for any other error (a finding).
pub fn gap_form(message: &str) -> Option<String> {
    if let Some(rest) = message.split("no legalization rule for ").nth(1).or_else(|| message.split("no late legalization rule for ").nth(1)) {
        return Some(rest.split(" on sm_").next().unwrap_or(rest).to_string());
    }
    let rest = message.split("unsupported in lowering: ").nth(1)?;
    Some(rest.split([':', '`']).next().unwrap_or(rest).trim().to_string())
}

/// What [`compile_pruned`] did.
#[derive(Clone, Debug, Default)]
pub struct Pruned {
    /// The program with every line ptx2sass refused blanked (line
    /// numbers kept).
    pub ptx: String,
    /// Forms refused as not supported yet ([`gap_form`]).
    pub gaps: Vec<String>,
    /// Other errors (verifier, regalloc checker, hazard checker, selection
    /// failures): findings, their lines blanked too so the rest of the
    /// program is still compared.
    pub errors: Vec<String>,
}

/// Compiles `ptx`, blanking each line ptx2sass refuses and compiling again
/// (at most 40 rounds), so that a program using a form not supported yet
/// still has the rest of it compared. Blanking an instruction keeps a
/// generated program valid: every register is defined before the
/// statements run. The result is the cubin of the pruned program, or the
/// errors that name no line.
pub fn compile_pruned(ptx: &str, sm: u32) -> (Pruned, Result<Vec<u8>, Vec<StageError>>) {
    let mut pruned = Pruned { ptx: ptx.to_string(), ..Default::default() };
    for _ in 0..40 {
        match compile_checked(&pruned.ptx, sm) {
            Ok(cubin) => return (pruned, Ok(cubin)),
            Err(errs) => {
                let lines: Vec<u32> = errs.iter().map(|e| e.0).filter(|&l| l > 0).collect();
                if lines.is_empty() || lines.iter().any(|&l| pruned.ptx.lines().nth(l as usize - 1).is_none_or(|t| t.trim().is_empty() || t.trim_end().ends_with(':'))) {
                    return (pruned, Err(errs));
                }
                for (_, m) in &errs {
                    match gap_form(m) {
                        Some(g) => pruned.gaps.push(g),
                        None => pruned.errors.push(m.clone()),
                    }
                }
                pruned.ptx = pruned.ptx.lines().enumerate().map(|(i, t)| if lines.contains(&(i as u32 + 1)) { "" } else { t }).collect::<Vec<_>>().join("\n");
            }
        }
    }
    let result = compile_checked(&pruned.ptx, sm);
    (pruned, result)
}

/// ptx2sass's front-end verdict on `ptx` for `arch` (`compute_XX`
/// semantics: parse and check, calls need not resolve): `Err` holds the
/// diagnostics.
pub fn ours_verdict(ptx: &str, sm: u32) -> Result<(), String> {
    let module = ptx2sass::internals::ptx::parse(ptx).map_err(|d| format!("{d:?}"))?;
    let check = CheckOptions { arch: Some(Sm::new(sm as u16)), resolve_calls: false };
    ptx2sass::internals::ptx::check::check(&module, &check).map(|_| ()).map_err(|d| format!("{d:?}"))
}

/// Whether ptx2sass's front end accepts `ptx` ([`ours_verdict`]).
pub fn ours_accepts(ptx: &str, sm: u32) -> bool {
    ours_verdict(ptx, sm).is_ok()
}

/// The known findings not fixed yet (`fuzz/findings/known.txt`): lines
/// `KIND<TAB>TEXT`, KIND `compile` (TEXT is part of a ptx2sass error or
/// interpreter failure) or `verdict` (part of ptxas's or ptx2sass's
/// message on a mutant where the two verdicts differ).
const KNOWN: &str = include_str!("../findings/known.txt");

fn known(kind: &str, message: &str) -> bool {
    KNOWN.lines().filter_map(|l| l.split_once('\t')).any(|(k, text)| k == kind && !text.is_empty() && message.contains(text))
}

/// One line of a PTX program as the known-defect kinds read it.
struct Line<'a> {
    /// Whether it has a guard (`@%p0 ...`).
    guarded: bool,
    /// The line without leading space and without its guard (`max.f16
    /// %h1, %h3, %h3;`; a label keeps its colon).
    inst: &'a str,
    /// Its operands up to the `;`, destination first, trimmed.
    operands: Vec<&'a str>,
    /// The line without leading space, guard included.
    raw: &'a str,
}

impl<'a> Line<'a> {
    fn parse(line: &'a str) -> Line<'a> {
        let line = line.trim_start();
        let inst = unguarded(line);
        let operands = inst.split_once(char::is_whitespace).map_or("", |(_, r)| r).split(';').next().unwrap_or("").split(',').map(str::trim).collect();
        Line { guarded: line.starts_with('@'), inst, operands, raw: line }
    }
    /// The guard's predicate register (`%p0` of `@!%p0 ...`), empty when
    /// unguarded.
    fn inst_guard(&self) -> &'a str {
        self.raw.strip_prefix('@').and_then(|g| g.split_whitespace().next()).map_or("", |g| g.trim_start_matches('!'))
    }
    /// The opcode with its modifiers (`max.f16`).
    fn opcode(&self) -> &'a str {
        self.inst.split_whitespace().next().unwrap_or("")
    }
    fn starts_with_any(&self, prefixes: &[&str]) -> bool {
        prefixes.iter().any(|o| self.inst.starts_with(o))
    }
    /// Operand `k`, when there is one.
    fn operand(&self, k: usize) -> Option<&'a str> {
        self.operands.get(k).copied()
    }
}

/// The opcode prefixes `known.txt` lists under `kind`.
fn listed(kind: &str) -> Vec<&'static str> {
    KNOWN.lines().filter_map(|l| l.strip_prefix(kind)).filter_map(|l| l.strip_prefix('\t')).filter(|o| !o.is_empty()).collect()
}

/// Whether `ptx` holds a construct whose code from ptxas contradicts the
/// PTX ISA (`fuzz/findings/README.md`; each kind is described in
/// `known.txt`). A mismatch where our cubin agrees with the PTX
/// interpreter is then ptxas's, not ours to follow. The program's lines
/// are read once; each kind is a query over them.
pub fn known_ptxas_defect(ptx: &str) -> bool {
    let lines: Vec<Line> = ptx.lines().map(Line::parse).collect();
    let written_by = |producers: &dyn Fn(&Line) -> bool| -> Vec<&str> { lines.iter().filter(|l| producers(l)).filter_map(|l| l.operand(0)).collect() };
    // `ptxas-guarded`: an opcode whose guarded form ptxas's code changes
    // also where the guard is false.
    let guarded = listed("ptxas-guarded");
    if lines.iter().any(|l| l.guarded && l.starts_with_any(&guarded)) {
        return true;
    }
    // `ptxas-sat-int-source`: a saturating float conversion reading a
    // register an (unguarded) saturating conversion to an integer type
    // wrote (`cvt.sat.s16.u64`, `cvt.rzi.sat.u8.f32`: the first type after
    // the modifiers is the destination's).
    let saturated_ints = written_by(&|l: &Line| {
        let parts: Vec<&str> = l.opcode().split('.').collect();
        let is_type = |p: &&&str| matches!(p.as_bytes().first(), Some(b's' | b'u' | b'f' | b'b')) && p[1..].parse::<u32>().is_ok();
        !l.guarded && parts.first() == Some(&"cvt") && parts.contains(&"sat") && parts.iter().find(is_type).is_some_and(|t| t.starts_with('s') || t.starts_with('u'))
    });
    let sat_int_source = listed("ptxas-sat-int-source");
    if lines.iter().any(|l| !l.guarded && l.starts_with_any(&sat_int_source) && l.operand(1).is_some_and(|src| saturated_ints.contains(&src))) {
        return true;
    }
    // `ptxas-double-negation`: `neg.f16 d, s` with `s` itself written by
    // such a negation (the same line in a loop: `neg.f16 %h3, %h3`).
    let double_negation = listed("ptxas-double-negation");
    let negations: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l.starts_with_any(&double_negation))
        .filter_map(|l| match l.operands[..] {
            [d, s] => Some((d, s)),
            _ => None,
        })
        .collect();
    if negations.iter().any(|(_, s)| negations.iter().any(|(d, _)| d == s)) {
        return true;
    }
    if nan_sign_source(&lines) {
        return true;
    }
    // `ptxas-sunk-guard`: a guarded opcode (ptxas turns its guard into a
    // select's condition) whose guard predicate a later `setp` rewrites:
    // ptxas sinks the select below the rewrite and reads the new value
    // (`@!%p0 max.f64 %fd0, %fd1, %fd0` then, in a branch,
    // `setp.le.or.s64 %p0|%p3, ...`: `FSEL R6, R4, R12, !P1` after `@!P3
    // ISETP.LE.OR.EX P1, ...`; sm_103, seed 10182438).
    let sunk = listed("ptxas-sunk-guard");
    for (k, l) in lines.iter().enumerate() {
        if !l.guarded || !l.starts_with_any(&sunk) {
            continue;
        }
        let guard = l.inst_guard();
        let rewrites = |m: &Line| m.opcode().starts_with("setp.") && m.operand(0).is_some_and(|d| d.split('|').any(|p| p == guard));
        if !guard.is_empty() && lines[k + 1..].iter().any(rewrites) {
            return true;
        }
    }
    // `ptxas-f16-guarded-redefinition`: an f16 operation reading a
    // register that a later guarded instruction of the same straight-line
    // code rewrites: ptxas pairs the f16 operation with a later one into
    // one HADD2 and reads the register after the rewrite.
    for redefiner in listed("ptxas-f16-guarded-redefinition") {
        let mut read: Vec<&str> = Vec::new();
        for l in &lines {
            if l.inst.ends_with(':') {
                read.clear();
                continue;
            }
            let opcode = l.opcode();
            if ["add.", "sub.", "mul.", "fma."].iter().any(|o| opcode.starts_with(o)) && opcode.ends_with(".f16") {
                read.extend(l.operands.iter().skip(1));
            } else if l.guarded && opcode.starts_with(redefiner) && l.operand(0).is_some_and(|d| read.contains(&d)) {
                return true;
            }
        }
    }
    // `ptxas-packed-half-test`: an opcode whose 16-bit source ptxas tests
    // in the whole 32-bit register that packs it with another 16-bit
    // register (`cnot.b16`).
    if lines.iter().any(|l| l.starts_with_any(&listed("ptxas-packed-half-test"))) {
        return true;
    }
    // `ptxas-folded-pair PRODUCER CONSUMER K`: a CONSUMER whose operand K
    // is written by a PRODUCER (`cvt.s64.u32` then `shl.b64`'s source;
    // `cnot.b32` then a 16-bit shift's amount).
    for entry in listed("ptxas-folded-pair") {
        let mut fields = entry.split(' ');
        let (Some(producer), Some(consumer), Some(Ok(k))) = (fields.next(), fields.next(), fields.next().map(str::parse::<usize>)) else { continue };
        let produced = written_by(&|l: &Line| l.inst.starts_with(producer));
        if lines.iter().any(|l| l.inst.starts_with(consumer) && l.operand(k).is_some_and(|a| produced.contains(&a))) {
            return true;
        }
    }
    // `ptxas-same-sources`: an opcode that ptxas folds to a copy when both
    // sources are one register (`min.f16 %h4, %h2, %h2`, guarded or not),
    // seen through register copies (`mov.b16 %h2, %h0` makes `min.f16
    // %h0, %h2, %h0` one source twice; so does `cvt.s16.s16 %h2, %h0`,
    // a conversion between integer types of one width: seed 10094966).
    // An integer min or max of one register twice is a copy too (`max.s16
    // %h3, %h2, %h2`: seed 10191903, sm_120).
    let int_min_max_of_one = |l: &Line| {
        let parts: Vec<&str> = l.opcode().split('.').collect();
        matches!(parts[..], ["min" | "max", t] if matches!(t.as_bytes().first(), Some(b's' | b'u')) && t[1..].parse::<u32>().is_ok()) && matches!(l.operands[..], [_, a, b] if a == b)
    };
    let copies: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l.inst.starts_with("mov.") || same_width_int_cvt(l.opcode()) || int_min_max_of_one(l))
        .filter_map(|l| match l.operands[..] {
            [d, s] | [d, s, _] if s.starts_with('%') && d.starts_with('%') => Some((d, s)),
            _ => None,
        })
        .collect();
    let sources = |r| copy_sources(&copies, r);
    let same_sources = listed("ptxas-same-sources");
    lines.iter().any(|l| {
        l.starts_with_any(&same_sources) && l.operands.len() == 3 && {
            let (a, b) = (sources(l.operands[1]), sources(l.operands[2]));
            l.operands[1] == l.operands[2] || a.iter().any(|x| b.contains(x))
        }
    })
}

/// Every register a chain of `copies` (destination, source) may lead back
/// from `r` to, `r` included: a register name is written in several places
/// (and in each function of the program), so every copy into it counts,
/// up to 8 steps.
fn copy_sources<'a>(copies: &[(&'a str, &'a str)], r: &'a str) -> Vec<&'a str> {
    let mut seen = vec![r];
    let mut frontier = vec![r];
    for _ in 0..8 {
        let next: Vec<&'a str> = copies.iter().filter(|(d, s)| frontier.contains(d) && !seen.contains(s)).map(|(_, s)| *s).collect();
        if next.is_empty() {
            break;
        }
        seen.extend(&next);
        frontier = next;
    }
    seen
}

/// `nan-sign-source`: `copysign.f32 d, a, b` (or a bit copy) with `a`
/// written by a negation or absolute value, whose sign PTX leaves open
/// for a NaN, directly or through float copies and selections (`abs.f32
/// %f3, %f0; selp.f32 %f2, %f3, %f3, %p3; mov.b32 %r2, %f2`: ptxas folds
/// the `|x|` into an FSEL; seed 10105074, sm_86).
fn nan_sign_source(lines: &[Line]) -> bool {
    let written_by = |producers: &dyn Fn(&Line) -> bool| -> Vec<&str> { lines.iter().filter(|l| producers(l)).filter_map(|l| l.operand(0)).collect() };
    let mut signed_results = written_by(&|l: &Line| l.inst.starts_with("neg.f") || l.inst.starts_with("abs.f"));
    loop {
        let carried = written_by(&|l: &Line| {
            let copy = l.inst.starts_with("mov.f") || l.inst.starts_with("selp.f");
            copy && l.operand(0).is_some_and(|d| !signed_results.contains(&d)) && [1, 2].iter().any(|&k| l.operand(k).is_some_and(|s| signed_results.contains(&s)) && (k == 1 || l.inst.starts_with("selp.")))
        });
        if carried.is_empty() {
            break;
        }
        signed_results.extend(carried);
    }
    let nan_sign = listed("nan-sign-source");
    // A store counts where the program may read its bits back: not the
    // result stores into the thread's slot (`[%slot+120]`), whose float
    // slots are compared up to NaNs.
    let rereadable = |l: &Line| !l.inst.starts_with("st.") || l.operand(0).is_some_and(|a| !a.starts_with("[%slot"));
    lines.iter().any(|l| l.starts_with_any(&nan_sign) && rereadable(l) && l.operand(1).is_some_and(|a| signed_results.contains(&a)))
}

/// Whether the sign or payload of a NaN that PTX leaves open can reach
/// the outputs of `ptx` as bits (`nan-payload-open` and `nan-sign-source`
/// lines of `known.txt`): both cubins must still agree, and a difference
/// from the PTX interpreter alone is then not a finding.
pub fn nan_bits_open(ptx: &str) -> bool {
    nan_payload_open(ptx) || nan_sign_source(&ptx.lines().map(Line::parse).collect::<Vec<_>>())
}

/// Whether `opcode` is `cvt` between two integer types of one width with
/// no modifier (`cvt.s16.u16`): a copy of the bits.
fn same_width_int_cvt(opcode: &str) -> bool {
    let int_bits = |t: &str| match t.as_bytes().first() {
        Some(b's' | b'u' | b'b') => t[1..].parse::<u32>().ok(),
        _ => None,
    };
    match opcode.split('.').collect::<Vec<_>>()[..] {
        ["cvt", d, s] => int_bits(d).is_some() && int_bits(d) == int_bits(s),
        _ => false,
    }
}

/// Whether `ptx` holds an instruction whose NaN result's bits PTX leaves
/// open and whose code from ptxas does not give the PTX interpreter's
/// choice (`nan-payload-open` lines of `known.txt`: `min.f64` of two NaNs
/// gives one of them made quiet, which one by ptxas's operand order). The
/// cubins must still agree; a difference from the PTX interpreter alone
/// is then not a finding.
pub fn nan_payload_open(ptx: &str) -> bool {
    let open = listed("nan-payload-open");
    ptx.lines().map(Line::parse).any(|l| l.starts_with_any(&open))
}

/// `line` without its guard (`@%p0 max.f16 ...` -> `max.f16 ...`).
fn unguarded(line: &str) -> &str {
    match line.strip_prefix('@') {
        Some(rest) => rest.split_once(char::is_whitespace).map_or("", |(_, rest)| rest.trim_start()),
        None => line,
    }
}

/// Whether a ptx2sass error or run failure is a known finding.
pub fn known_finding(message: &str) -> bool {
    known("compile", message)
}

/// Whether the SASS interpreter's failure on ptxas's cubin is a word
/// ptxas emitted that is no instruction (`ptxas-illegal-word` lines of
/// `known.txt`).
pub fn known_ptxas_illegal_word(message: &str) -> bool {
    known("ptxas-illegal-word", message)
}

/// Whether a verdict difference on `mutant` is a known one: ptxas's
/// message (when it rejects) or ptx2sass's (when it rejects) names a known
/// class.
pub fn known_verdict_difference(mutant: &str, ptxas_error: Option<&str>, sm: u32) -> bool {
    let ours = ours_verdict(mutant, sm).err().unwrap_or_default();
    known("verdict", ptxas_error.unwrap_or("")) || known("verdict", &ours)
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
    /// ptxas's cubin does not run in the SASS interpreter (a decoder or
    /// interpreter gap).
    RefDoesNotRun(String),
    /// Our cubin does not run in the SASS interpreter.
    OursDoesNotRun(String),
    /// The interpreter's hazard checker reported a hazard in ptxas's
    /// cubin, whose code is correct: a false alarm of the checker (the
    /// outputs agreed).
    RefHazard(String),
    /// The interpreter's hazard checker reported a hazard in our cubin
    /// (the outputs agreed).
    OursHazard(String),
    /// The two cubins' outputs differ (a miscompile, or an interpreter
    /// bug on one side). `ptx_agrees` says which side the PTX interpreter
    /// agrees with: `Some("ptxas")` points at our code, `Some("ours")` at
    /// the SASS interpreter's reading of ptxas's code, `None` at neither.
    Mismatch { ours: String, reference: String, ptx_agrees: Option<&'static str> },
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
            Finding::RefHazard(_) => "ref-hazard",
            Finding::OursHazard(_) => "ours-hazard",
            Finding::Mismatch { ptx_agrees: Some("ptxas"), .. } => "miscompile",
            Finding::Mismatch { ptx_agrees: Some(_), .. } => "ref-interp",
            Finding::Mismatch { .. } => "mismatch",
            Finding::PtxInterp(_) => "ptx-interp",
        }
    }
}

/// Runs a cubin in the SASS interpreter and returns its output buffers
/// as `param N: <hex>` lines.
pub fn run_sass(cubin: &[u8], spec: &LaunchSpec) -> Result<String, String> {
    run_sass_checked(cubin, spec).map(|(out, _)| out)
}

/// [`run_sass`] with the hazard checker reporting (not stopping the run):
/// the outputs and the first hazard reported, if any. On unless
/// `PTX2SASS_FUZZ_HAZARDS=0`: the checker has no false alarm left on
/// ptxas's code for the generated programs of the campaigns (`campaign.log`).
pub fn run_sass_checked(cubin: &[u8], spec: &LaunchSpec) -> Result<(String, Option<String>), String> {
    static CHECK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let check = *CHECK.get_or_init(|| std::env::var_os("PTX2SASS_FUZZ_HAZARDS").is_none_or(|v| v != "0"));
    let hazards = if check { isass::HazardCheck::Report } else { isass::HazardCheck::Off };
    let options = isass::Options { step_budget: STEP_BUDGET, hazards, ..Default::default() };
    isass::run(cubin, spec, &options).map(|o| (o.launch.outputs_text(), o.hazards.first().map(|h| h.to_string()))).map_err(|e| e.to_string())
}

/// Runs the PTX interpreter.
pub fn run_ptx(ptx: &str, spec: &LaunchSpec) -> Result<String, String> {
    let module = ptx2sass::internals::ptx::parse(ptx).map_err(|d| format!("parse: {d:?}"))?;
    iptx::run(&module, spec, &iptx::Options { step_budget: STEP_BUDGET }).map(|o| o.launch.outputs_text()).map_err(|e| e.to_string())
}

/// The differential check of one program: ptx2sass compiles the program
/// pruned of what it does not support ([`compile_pruned`]), ptxas the
/// same pruned text; `Ok(())` when ptxas's cubin, ours and (with
/// `with_ptx_interp`) the PTX interpreter give the same outputs (up to
/// NaN payloads in float slots, [`same_outputs_up_to_nan`]).
pub fn differential(ptxas_bin: &std::path::Path, ptx: &str, sm: u32, spec: &LaunchSpec, with_ptx_interp: bool) -> (Pruned, Result<(), Finding>) {
    let (pruned, ours) = compile_pruned(ptx, sm);
    let result = (|| {
        let ours = ours.map_err(|e| Finding::OursRejects(e.iter().map(|e| e.1.clone()).collect::<Vec<_>>().join("; ")))?;
        let reference = ptxas(ptxas_bin, &pruned.ptx, sm, false).map_err(Finding::PtxasRejects)?;
        let (ref_out, ref_hazard) = run_sass_checked(&reference, spec).map_err(Finding::RefDoesNotRun)?;
        let (our_out, our_hazard) = run_sass_checked(&ours, spec).map_err(Finding::OursDoesNotRun)?;
        // The two cubins too are compared up to NaN payloads in float
        // slots: PTX leaves them open (ptxas folds `max.f32 d, a, a` to a
        // copy, which keeps a signalling NaN's payload, where FMNMX gives
        // the canonical NaN; `neg` of a NaN may or may not flip its sign).
        let cubins_agree = same_outputs_up_to_nan(&ref_out, &our_out, spec);
        let ptx_out = if with_ptx_interp || !cubins_agree { Some(run_ptx(&pruned.ptx, spec)) } else { None };
        let agrees = |x: &str| ptx_out.as_ref().is_some_and(|p| p.as_ref().is_ok_and(|p| same_outputs_up_to_nan(p, x, spec)));
        if !cubins_agree {
            let ptx_agrees = if agrees(&ref_out) { Some("ptxas") } else if agrees(&our_out) { Some("ours") } else { None };
            return Err(Finding::Mismatch { ours: our_out, reference: ref_out, ptx_agrees });
        }
        match &ptx_out {
            Some(Err(e)) => return Err(Finding::PtxInterp(e.clone())),
            Some(Ok(p)) if !agrees(&ref_out) => return Err(Finding::PtxInterp(first_difference(p, &ref_out))),
            _ => {}
        }
        // With equal outputs, what the hazard checker said of each cubin.
        match (ref_hazard, our_hazard) {
            (Some(h), _) => Err(Finding::RefHazard(h)),
            (None, Some(h)) => Err(Finding::OursHazard(h)),
            (None, None) => Ok(()),
        }
    })();
    (pruned, result)
}

/// Whether two `param N: <hex>` output texts of a generated program are
/// equal up to unspecified NaN payloads ([`crate::progen::equal_up_to_nan`]).
pub fn same_outputs_up_to_nan(a: &str, b: &str, spec: &LaunchSpec) -> bool {
    let threads = spec.grid.iter().product::<u32>() * spec.block.iter().product::<u32>();
    let bytes = |t: &str| t.lines().map(|l| l.split_once(": ").map(|(_, h)| ptx2sass::internals::interp::launch::unhex(h)).unwrap_or_default()).collect::<Vec<_>>();
    let (a, b) = (bytes(a), bytes(b));
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| match (x, y) {
        (Some(x), Some(y)) => crate::progen::equal_up_to_nan(x, y, threads),
        _ => false,
    })
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

#[cfg(test)]
mod tests {
    use super::known_ptxas_defect;

    #[test]
    fn an_all_zero_word_of_ptxas_is_known() {
        assert!(super::known_ptxas_illegal_word("k+0x0370: unsupported: undecodable instruction word 0x00000000000000000000000000000000 (ctaid 0,0,0 tid 0,0,0)"));
        assert!(!super::known_ptxas_illegal_word("k+0x06c0: unsupported: undecodable instruction word 0x000fe2000800010040000004ff207e29"));
    }

    #[test]
    fn f64_min_max_leave_the_nan_payload_open() {
        assert!(super::nan_payload_open("\t@%p1 min.f64 %fd3, %fd2, %fd0;\n"));
        assert!(super::nan_payload_open("\tmax.f64 %fd3, %fd2, %fd0;\n"));
        assert!(super::nan_payload_open("\tcvt.f64.f16 %fd3, %h0;\n"));
        assert!(!super::nan_payload_open("\tcvt.f64.f32 %fd3, %f0;\n"));
        // A negation's NaN sign through a selection into a bit copy, both
        // cubins folding it into FSEL (seed 10121678, sm_103).
        assert!(super::nan_bits_open("\tneg.f32 %f4, %f2;\n\tselp.f32 %f2, %f5, %f4, %p1;\n\tmov.b32 %r5, %f2;\n"));
        assert!(!super::nan_bits_open("\tneg.f32 %f4, %f2;\n\tselp.f32 %f2, %f5, %f4, %p1;\n\tadd.f32 %f3, %f2, %f1;\n"));
        assert!(!super::nan_payload_open("\tmax.f32 %f3, %f2, %f0;\n\tmin.s64 %rd1, %rd2, %rd3;\n"));
    }

    #[test]
    fn guarded_set_and_testp_are_known_ptxas_defects() {
        assert!(known_ptxas_defect("\t@!%p1 set.ls.u32.u16 %r6, %h5, %h2;\n"));
        assert!(known_ptxas_defect("  @%p0 testp.finite.f32 %p1, %f0;"));
        assert!(known_ptxas_defect("\t@%p1 cvt.sat.u8.s16 %h2, %h4;\n\tcvt.u64.u8 %rd5, %h2;\n"));
        assert!(known_ptxas_defect("\t@!%p2 cvt.sat.u16.u32 %h3, %r3;\n\tmax.u16 %h4, %h0, %h3;\n"));
        assert!(!known_ptxas_defect("\tcvt.sat.u16.u32 %h3, %r3;\n\tmax.u16 %h4, %h0, %h3;\n"));
        // A negation's NaN bits seen through a bit copy (seed 9967058).
        assert!(known_ptxas_defect("\t@%p3 neg.f32 %f2, %f4;\n\tmov.b32 %r2, %f2;\n"));
        assert!(!known_ptxas_defect("\tadd.f32 %f2, %f4, %f4;\n\tmov.b32 %r2, %f2;\n"));
        // Unguarded, or setp (a predicate destination): not the defect.
        assert!(!known_ptxas_defect("\tset.ls.u32.u16 %r6, %h5, %h2;\n\t@%p0 setp.lt.u32 %p1, %r0, %r1;\n"));
        assert!(!known_ptxas_defect("\t@%p0 add.u32 %r0, %r0, 1; // set. in a comment\n"));
        assert!(known_ptxas_defect("\tmin.f16 %h4, %h2, %h2;\n"));
        assert!(!known_ptxas_defect("\tmin.f16 %h4, %h2, %h3;\n"));
        // Through a copy (seed 9923906, sm_80).
        assert!(known_ptxas_defect("\tmov.b16 %h2, %h0;\n\tmin.f16 %h0, %h2, %h0;\n"));
        assert!(!known_ptxas_defect("\tmov.b16 %h2, %h1;\n\tmin.f16 %h0, %h2, %h0;\n"));
        // Through an integer conversion of one width (seed 10094966, sm_103).
        assert!(known_ptxas_defect("\tcvt.s16.s16 %h5, %h4;\n\tmin.f16 %h4, %h5, %h4;\n"));
        assert!(!known_ptxas_defect("\tcvt.s16.s8 %h5, %h4;\n\tmin.f16 %h4, %h5, %h4;\n"));
        assert!(!known_ptxas_defect("\tcvt.sat.s16.s16 %h5, %h4;\n\tmin.f16 %h4, %h5, %h4;\n"));
        // Through an integer max of one register twice (seed 10191903).
        assert!(known_ptxas_defect("\tmov.b16 %h2, %h0;\n\tmax.s16 %h3, %h2, %h2;\n\tmax.f16 %h0, %h3, %h0;\n"));
        assert!(!known_ptxas_defect("\tmax.s16 %h3, %h2, %h1;\n\tmax.f16 %h0, %h3, %h2;\n"));
        assert!(!known_ptxas_defect("\tadd.s16 %h3, %h2, %h2;\n\tmax.f16 %h0, %h3, %h2;\n"));
    }

    #[test]
    fn guarded_same_sources_and_double_negations_are_known() {
        // Seed 9109224 (sm_100), minimized: a guarded fold.
        assert!(known_ptxas_defect("\t@%p0 max.f16 %h1, %h3, %h3;\n"));
        // Seeds 9111784 (sm_89) and 9107365 (sm_80): a negation in a loop,
        // which ptxas unrolls and folds (neg(neg(x)) = x keeps a NaN's
        // payload).
        assert!(known_ptxas_defect("$loop_8:\n\tneg.f16 %h3, %h3;\n\tand.b16 %h4, %h3, %h0;\n"));
        assert!(known_ptxas_defect("\tneg.f16 %h3, %h1;\n\tneg.f16 %h2, %h3;\n"));
        assert!(!known_ptxas_defect("\tneg.f16 %h3, %h1;\n\tneg.f16 %h2, %h4;\n"));
    }

    #[test]
    fn copysign_of_a_negated_value_is_known() {
        // Seed 9112232 (sm_89), minimized.
        assert!(known_ptxas_defect("\t@%p3 neg.f32 %f4, %f0;\n\tcopysign.f32 %f0, %f4, %f1;\n"));
        assert!(!known_ptxas_defect("\tneg.f32 %f4, %f0;\n\tcopysign.f32 %f0, %f1, %f4;\n"));
        // Stored, its bits read back by an integer load (seed 10130538).
        assert!(known_ptxas_defect("\t@%p3 neg.f32 %f1, %f0;\n\tst.global.f32 [%td0+160], %f1;\n"));
        assert!(!known_ptxas_defect("\tadd.f32 %f1, %f0, %f2;\n\tst.global.f32 [%td0+160], %f1;\n"));
        assert!(!known_ptxas_defect("\tneg.f32 %f1, %f0;\n\tst.global.f32 [%slot+124], %f1;\n"));
        // Through selections and copies (seed 10105074, sm_86).
        assert!(known_ptxas_defect("\tabs.f32 %f3, %f0;\n\t@%p3 selp.f32 %f2, %f3, %f3, %p3;\n\tselp.f32 %f0, %f2, %f2, %p0;\n\tmov.b32 %r2, %f0;\n"));
        assert!(known_ptxas_defect("\tneg.f32 %f3, %f0;\n\tmov.f32 %f2, %f3;\n\tmov.b32 %r2, %f2;\n"));
        assert!(!known_ptxas_defect("\tabs.f32 %f3, %f0;\n\tselp.f32 %f2, %f1, %f1, %p3;\n\tmov.b32 %r2, %f2;\n"));
        assert!(!known_ptxas_defect("\tabs.f32 %f3, %f0;\n\tadd.f32 %f2, %f3, %f1;\n\tmov.b32 %r2, %f2;\n"));
    }

    #[test]
    fn pairs_ptxas_folds_wrongly_are_known_ptxas_defects() {
        assert!(known_ptxas_defect("\tcvt.s64.u32 %rd2, %r7;\n\tshl.b64 %rd0, %rd2, 28;\n"));
        assert!(known_ptxas_defect("\t@%p1 cvt.s64.u32 %rd2, %r7;\n\t@!%p0 shl.b64 %rd0, %rd2, 4;\n"));
        assert!(!known_ptxas_defect("\tcvt.u64.u32 %rd2, %r7;\n\tshl.b64 %rd0, %rd2, 28;\n"));
        assert!(!known_ptxas_defect("\tcvt.s64.u32 %rd2, %r7;\n\tshl.b64 %rd0, %rd1, 28;\n"));
        // A 16-bit shift by a `cnot` result (ptxas shifts by R1, or crashes).
        assert!(known_ptxas_defect("\tcnot.b32 %r8, %r8;\n\tshl.b16 %h0, %h4, %r8;\n"));
        assert!(known_ptxas_defect("\tcnot.b32 %r9, %r8;\n\tshr.u16 %h0, %h4, %r9;\n"));
        assert!(!known_ptxas_defect("\tcnot.b32 %r9, %r8;\n\tshl.b16 %h0, %h4, %r8;\n"));
        assert!(!known_ptxas_defect("\tcnot.b32 %r9, %r8;\n\tshl.b32 %r0, %r4, %r9;\n"));
        assert!(known_ptxas_defect("\tredux.sync.max.u32 %r8, %r2, 0xffffffff;\n\tbfe.s32 %r1, %r8, %t2, %t3;\n"));
        assert!(!known_ptxas_defect("\tredux.sync.max.u32 %r8, %r2, 0xffffffff;\n\tbfe.s32 %r1, %r2, %r8, %t3;\n"));
        // An unpack of a reduction's result (seed 10114127, sm_120).
        assert!(known_ptxas_defect("\tredux.sync.min.s32 %r1, %r2, 0xffffffff;\n\t@!%p0 mov.b32 {%h2, %h4}, %r1;\n"));
        // An unpack of a 16-bit load into a 32-bit register (seed 10064439).
        assert!(known_ptxas_defect("\tld.global.s16 %r0, [%td0+160];\n\tmov.b32 {%h4, %h1}, %r0;\n\tabs.s16 %h4, %h1;\n"));
        assert!(known_ptxas_defect("\tld.global.nc.s16 %r3, [%td0];\n\tmov.b32 {%h0,%h2}, %r3;\n"));
        assert!(!known_ptxas_defect("\tld.global.s16 %r0, [%td0+160];\n\tmov.b32 {%h4, %h1}, %r1;\n"));
        assert!(!known_ptxas_defect("\tld.global.u32 %r0, [%td0+160];\n\tmov.b32 {%h4, %h1}, %r0;\n"));
        // An f16 add reading %h0, then a guarded conversion rewriting it
        // (seed 9939363; not after a label in between, nor unguarded).
        assert!(known_ptxas_defect("\tadd.rn.f16 %h2, %h0, %h1;\n\t@%p1 cvt.rzi.sat.s16.f32 %h0, %f1;\n"));
        assert!(!known_ptxas_defect("\tadd.rn.f16 %h2, %h0, %h1;\n$L:\n\t@%p1 cvt.rzi.sat.s16.f32 %h0, %f1;\n"));
        assert!(!known_ptxas_defect("\tadd.rn.f16 %h2, %h0, %h1;\n\tcvt.rzi.sat.s16.f32 %h0, %f1;\n"));
        // `cnot.b16` of a register ptxas packs with another.
        assert!(known_ptxas_defect("\t@%p1 cnot.b16 %h4, %h2;\n"));
        assert!(!known_ptxas_defect("\tcnot.b32 %r4, %r2;\n"));
        // A value xor its `cnot` (ptxas gives 1 for 0xffffffff ^ 0).
        assert!(known_ptxas_defect("\tset.ne.u32.u32 %r0, %a0, %a1;\n\tcnot.b32 %r1, %r0;\n\txor.b32 %r2, %r0, %r1;\n"));
        assert!(known_ptxas_defect("\tcnot.b32 %r1, %r0;\n\txor.b32 %r2, %r1, %r0;\n"));
        assert!(!known_ptxas_defect("\tcnot.b32 %r1, %r0;\n\tor.b32 %r2, %r0, %r1;\n"));
        // A wrapping difference then `add.sat.s32` of it and 0, which
        // ptxas joins into a saturating subtract (seed 10165207, sm_120).
        assert!(known_ptxas_defect("\tsub.u32 %r3, %a1, %a0;\n\tadd.sat.s32 %r2, %r3, 0;\n"));
        assert!(!known_ptxas_defect("\tsub.u32 %r3, %a1, %a0;\n\tadd.s32 %r2, %r3, 0;\n"));
        assert!(!known_ptxas_defect("\tadd.u32 %r3, %a1, %a0;\n\tadd.sat.s32 %r2, %r3, 0;\n"));
        // A guarded f64 max whose guard a later setp rewrites (seed
        // 10182438, sm_103).
        assert!(known_ptxas_defect("\t@!%p0 max.f64 %fd0, %fd1, %fd0;\n\tsetp.le.or.s64 %p0|%p3, %rd4, %rd3, !%p3;\n"));
        assert!(!known_ptxas_defect("\t@!%p0 max.f64 %fd0, %fd1, %fd0;\n\tsetp.le.or.s64 %p1|%p3, %rd4, %rd3, !%p3;\n"));
        assert!(!known_ptxas_defect("\tsetp.le.s64 %p0, %rd4, %rd3;\n\t@!%p0 max.f64 %fd0, %fd1, %fd0;\n"));
        // A saturating conversion to u32 of an `abs.s32` result, whose
        // clamp ptxas drops (seed 10169295, sm_120).
        assert!(known_ptxas_defect("\tabs.s32 %r6, %r1;\n\t@%p1 cvt.sat.u32.s32 %r4, %r6;\n"));
        assert!(!known_ptxas_defect("\tabs.s32 %r6, %r1;\n\t@%p1 cvt.sat.u32.s32 %r4, %r1;\n"));
    }

    #[test]
    fn saturation_after_a_saturating_integer_conversion_is_a_known_ptxas_defect() {
        // Seed 9106689 (sm_90), minimized.
        assert!(known_ptxas_defect("\tcvt.sat.s16.u64 %h1, %rd3;\n\tcvt.sat.f32.f16 %f0, %h1;\n"));
        assert!(known_ptxas_defect("\tcvt.sat.f64.f16 %fd0, %h1;\n\tcvt.rzi.sat.u16.f32 %h1, %f2;\n"));
        // Not saturating, or another register: ptxas keeps the `.sat`.
        assert!(!known_ptxas_defect("\tcvt.u16.u64 %h1, %rd3;\n\tcvt.sat.f32.f16 %f0, %h1;\n"));
        assert!(!known_ptxas_defect("\tcvt.sat.s16.u64 %h1, %rd3;\n\tcvt.sat.f32.f16 %f0, %h2;\n"));
        assert!(!known_ptxas_defect("\tcvt.sat.f16.f32 %h1, %f3;\n\tcvt.sat.f32.f16 %f0, %h1;\n"));
    }
}
