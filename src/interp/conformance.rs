//! The ZLUDA conformance corpus (`../shared/corpus/zluda`): its manifest's
//! run cases as [`LaunchSpec`]s with expected outputs, the comparison ZLUDA
//! itself makes, and the known-failures lists that every runner keeps.
//!
//! The launch follows the corpus README's harness rules: grid 1, block
//! `block_dim_x`×1×1, 1024 bytes of dynamic shared memory; the input array
//! in a buffer of exactly its size as parameter 0 and the zero-filled output
//! buffer as parameter 1; a case without input passes the output buffer in
//! every parameter slot. Outputs compare element by element as Rust's `==`
//! on the element type does: integers bitwise, floats by IEEE equality
//! (`-0.0 == +0.0`, a NaN equals nothing).
//!
//! A runner (a test) judges its results with [`judge`] against a
//! known-failures file: lines `test<TAB>where<TAB>reason`, `where` being `-`
//! (the PTX interpreter), `all`, or a comma list of SMs (`sm_80,sm_90`);
//! `#` starts a comment. A miss not listed fails the runner, and so does a
//! listed case that passes (the list stays honest).

use super::launch::{Fill, LaunchSpec, ParamSpec, ScalarKind};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// An element type of the manifest's arrays: Rust's spellings (`i32`),
/// which are the launch spec's scalar kinds with `s` for `i`.
fn parse_elem_type(s: &str) -> Option<ScalarKind> {
    match s.strip_prefix('i') {
        Some(bits) => ScalarKind::parse(&format!("s{bits}")),
        None => ScalarKind::parse(s),
    }
}

/// Whether two elements' bit patterns are equal as Rust's `==` on the type
/// sees them.
pub fn elements_equal(ty: ScalarKind, a: u64, b: u64) -> bool {
    match ty {
        ScalarKind::F32 => f32::from_bits(a as u32) == f32::from_bits(b as u32),
        ScalarKind::F64 => f64::from_bits(a) == f64::from_bits(b),
        ScalarKind::F16 | ScalarKind::Bf16 => {
            // Same rule on 16-bit floats: a NaN equals nothing, zeros of
            // either sign are equal, otherwise the bits decide.
            let (exp_mask, man_mask) = if ty == ScalarKind::F16 { (0x7c00, 0x03ff) } else { (0x7f80, 0x007f) };
            let nan = |x: u64| x & exp_mask == exp_mask && x & man_mask != 0;
            let zero = |x: u64| x & 0x7fff == 0;
            !nan(a) && !nan(b) && (a == b || (zero(a) && zero(b)))
        }
        _ => a == b,
    }
}

/// One array of the manifest: its type and exact bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// Element type.
    pub ty: ScalarKind,
    /// Element count.
    pub count: usize,
    /// The elements, little-endian.
    pub bytes: Vec<u8>,
}

impl Array {
    fn from_value(v: &Value, what: &str) -> Result<Array, String> {
        let ty = v.get("type").and_then(Value::as_str).and_then(parse_elem_type).ok_or(format!("{what}.type: missing or unknown"))?;
        let values = v.get("values").and_then(Value::as_array).ok_or(format!("{what}.values: missing"))?;
        let mut bytes = Vec::with_capacity(values.len() * ty.size());
        for (i, x) in values.iter().enumerate() {
            let bits = x
                .as_str()
                .and_then(|s| s.strip_prefix("0x"))
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .ok_or(format!("{what}.values[{i}]: not a hex bit pattern"))?;
            bytes.extend_from_slice(&bits.to_le_bytes()[..ty.size()]);
        }
        Ok(Array { ty, count: values.len(), bytes })
    }

    /// Element `i`'s bits.
    pub fn element(&self, i: usize) -> u64 {
        let n = self.ty.size();
        super::memory::le_u64(&self.bytes[i * n..(i + 1) * n])
    }
}

/// One run case of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Test name (also the kernel's name, see [`Case::kernel`]).
    pub name: String,
    /// The entry to launch.
    pub kernel: String,
    /// The PTX file.
    pub ptx: PathBuf,
    /// Threads in the one CTA.
    pub block_x: u32,
    /// Dynamic shared bytes.
    pub shared_bytes: u32,
    /// Number of parameters the entry declares.
    pub param_count: usize,
    /// Input array, if any.
    pub input: Option<Array>,
    /// Expected output.
    pub output: Array,
    /// SMs the reference ptxas accepts the file for (`sm_80` ...).
    pub ptxas_accepts: Vec<String>,
}

/// The manifest's run cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The corpus folder.
    pub dir: PathBuf,
    /// Cases with run data, in manifest order.
    pub cases: Vec<Case>,
    /// Entries without run data (compile-only), by name.
    pub compile_only: Vec<String>,
}

impl Manifest {
    /// The corpus folder next to the repository (`../shared/corpus/zluda`).
    pub fn default_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zluda")
    }

    /// Reads `manifest.json` of a corpus folder.
    pub fn load(dir: &Path) -> Result<Manifest, String> {
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let tests = value.get("tests").and_then(Value::as_array).ok_or(format!("{}: no tests array", path.display()))?;
        let mut cases = Vec::new();
        let mut compile_only = Vec::new();
        for (i, t) in tests.iter().enumerate() {
            let name = t.get("name").and_then(Value::as_str).ok_or(format!("tests[{i}].name: missing"))?.to_string();
            let runs = t.get("runs_on_gpu").and_then(Value::as_bool).unwrap_or(false);
            let output = t.get("output").filter(|o| !o.is_null());
            let (true, Some(output)) = (runs, output) else {
                compile_only.push(name);
                continue;
            };
            let what = format!("tests[{i}] ({name})");
            let number = |field: &str, default: u64| t.get(field).and_then(Value::as_u64).unwrap_or(default);
            let ptxas_accepts = t
                .get("ptxas")
                .and_then(Value::as_object)
                .map(|m| m.iter().filter(|(_, r)| r.get("ok").and_then(Value::as_bool) == Some(true)).map(|(sm, _)| sm.clone()).collect())
                .unwrap_or_default();
            cases.push(Case {
                kernel: t.get("kernel").and_then(Value::as_str).unwrap_or(&name).to_string(),
                ptx: dir.join(t.get("ptx").and_then(Value::as_str).ok_or(format!("{what}.ptx: missing"))?),
                block_x: u32::try_from(number("block_dim_x", 1)).map_err(|_| format!("{what}.block_dim_x: too large"))?,
                shared_bytes: u32::try_from(number("dynamic_shared_bytes", 0)).map_err(|_| format!("{what}.dynamic_shared_bytes: too large"))?,
                param_count: t.get("entry_params").and_then(Value::as_array).map_or(0, Vec::len),
                input: match t.get("input") {
                    Some(v) if !v.is_null() => Some(Array::from_value(v, &format!("{what}.input"))?),
                    _ => None,
                },
                output: Array::from_value(output, &format!("{what}.output"))?,
                ptxas_accepts,
                name,
            });
        }
        Ok(Manifest { dir: dir.to_path_buf(), cases, compile_only })
    }
}

impl Case {
    /// The parameter index of the output buffer.
    pub fn output_param(&self) -> usize {
        if self.input.is_some() { 1 } else { 0 }
    }

    /// Whether the reference ptxas accepts the file for `sm` (`"sm_90"`).
    pub fn accepted_by_ptxas(&self, sm: &str) -> bool {
        self.ptxas_accepts.iter().any(|s| s == sm)
    }

    /// The launch, per the harness rules (module docs).
    pub fn launch_spec(&self) -> LaunchSpec {
        let output = ParamSpec::Buffer { bytes: self.output.bytes.len(), fill: Fill::Zero, output: true };
        let mut params = Vec::new();
        match &self.input {
            Some(input) => {
                params.push(ParamSpec::Buffer { bytes: input.bytes.len(), fill: Fill::Hex(input.bytes.clone()), output: false });
                params.push(output);
            }
            None => params.push(output),
        }
        // Slots beyond the harness's two (or the output's one) get the output
        // buffer's address, as the harness passes it in every slot it fills.
        let out = self.output_param();
        while params.len() < self.param_count {
            params.push(ParamSpec::SameAs { param: out });
        }
        params.truncate(self.param_count.max(1).min(params.len()));
        LaunchSpec { kernel: self.kernel.clone(), grid: [1, 1, 1], block: [self.block_x.max(1), 1, 1], shared_bytes: self.shared_bytes, params, textures: Vec::new() }
    }

    /// Compares the output buffer's bytes after a run with the expected
    /// output; the error names the first differing elements.
    pub fn check_output(&self, bytes: &[u8]) -> Result<(), String> {
        let want = &self.output;
        if bytes.len() != want.bytes.len() {
            return Err(format!("output has {} bytes, expected {}", bytes.len(), want.bytes.len()));
        }
        let n = want.ty.size();
        let mut bad = Vec::new();
        for i in 0..want.count {
            let got = super::memory::le_u64(&bytes[i * n..(i + 1) * n]);
            let expected = want.element(i);
            if !elements_equal(want.ty, got, expected) {
                bad.push((i, got, expected));
            }
        }
        if bad.is_empty() {
            return Ok(());
        }
        let width = n * 2;
        let mut msg = format!("{} of {} elements differ:", bad.len(), want.count);
        for (i, got, expected) in bad.iter().take(4) {
            let _ = write!(msg, " [{i}] got {got:#0w$x} expected {expected:#0w$x}", w = width + 2);
            if want.ty == ScalarKind::F32 {
                let _ = write!(msg, " ({} vs {})", f32::from_bits(*got as u32), f32::from_bits(*expected as u32));
            }
        }
        Err(msg)
    }
}

/// A known-failures list: `(test, where) → reason`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownFailures {
    entries: Vec<KnownFailure>,
}

/// One line of a known-failures list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownFailure {
    /// Test name.
    pub test: String,
    /// `-`, `all`, or SMs.
    pub scope: Vec<String>,
    /// Why it fails.
    pub reason: String,
    /// Line number in the file.
    pub line: usize,
}

impl KnownFailures {
    /// Reads a list; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<KnownFailures, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => KnownFailures::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KnownFailures::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Parses the text form (module docs).
    pub fn parse(text: &str) -> Result<KnownFailures, String> {
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim_end();
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let mut cols = line.splitn(3, '\t');
            let (Some(test), Some(scope), Some(reason)) = (cols.next(), cols.next(), cols.next()) else {
                return Err(format!("line {line_no}: expected test<TAB>where<TAB>reason"));
            };
            if reason.trim().is_empty() {
                return Err(format!("line {line_no}: {test} has no reason"));
            }
            let scope: Vec<String> = scope.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            if scope.is_empty() {
                return Err(format!("line {line_no}: {test} has no scope (-, all, or SMs)"));
            }
            entries.push(KnownFailure { test: test.trim().to_string(), scope, reason: reason.trim().to_string(), line: line_no });
        }
        Ok(KnownFailures { entries })
    }

    /// The reason `test` is expected to fail under `runner` (`-` for the PTX
    /// interpreter, else an SM such as `sm_90`).
    pub fn reason(&self, test: &str, runner: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.test == test && e.scope.iter().any(|s| s == runner || (s == "all" && runner != "-")))
            .map(|e| e.reason.as_str())
    }
}

/// A runner's results judged against its known failures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Which runner (`ptx`, `sass sm_90`).
    pub runner: String,
    /// Cases run.
    pub cases: usize,
    /// Cases that matched.
    pub passed: usize,
    /// Misses listed in the known-failures file: `(test, reason, what happened)`.
    pub known: Vec<(String, String, String)>,
    /// Misses not listed: `(test, what happened)`.
    pub unexpected: Vec<(String, String)>,
    /// Listed cases that passed.
    pub stale: Vec<String>,
}

/// Judges results (`test → Ok` or the miss) for `runner` (`-` or an SM).
pub fn judge(label: &str, runner: &str, results: &[(String, Result<(), String>)], known: &KnownFailures) -> Tally {
    let mut t = Tally { runner: label.to_string(), cases: results.len(), ..Tally::default() };
    for (test, result) in results {
        match (result, known.reason(test, runner)) {
            (Ok(()), None) => t.passed += 1,
            (Ok(()), Some(_)) => {
                t.passed += 1;
                t.stale.push(test.clone());
            }
            (Err(e), Some(reason)) => t.known.push((test.clone(), reason.to_string(), e.clone())),
            (Err(e), None) => t.unexpected.push((test.clone(), e.clone())),
        }
    }
    t
}

impl Tally {
    /// Whether the runner passes: no unlisted miss, no stale entry.
    pub fn ok(&self) -> bool {
        self.unexpected.is_empty() && self.stale.is_empty()
    }

    /// Share of cases that matched, in percent.
    pub fn percent(&self) -> f64 {
        if self.cases == 0 { 100.0 } else { 100.0 * self.passed as f64 / self.cases as f64 }
    }

    /// A human-readable report: the figure, then every miss.
    pub fn report(&self) -> String {
        let mut s = format!("{}: {}/{} cases match ({:.1}%)\n", self.runner, self.passed, self.cases, self.percent());
        for (test, reason, what) in &self.known {
            let _ = writeln!(s, "  known   {test}: {reason} [{what}]");
        }
        for (test, what) in &self.unexpected {
            let _ = writeln!(s, "  FAILED  {test}: {what}");
        }
        for test in &self.stale {
            let _ = writeln!(s, "  STALE   {test}: listed as a known failure but passes; remove it from the list");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_equality_is_rusts() {
        use ScalarKind::*;
        assert!(elements_equal(F32, 0x8000_0000, 0));
        assert!(!elements_equal(F32, 0x7fc0_0000, 0x7fc0_0000));
        assert!(!elements_equal(U32, 0x8000_0000, 0));
        assert!(elements_equal(F16, 0x8000, 0x0000));
        assert!(!elements_equal(F16, 0x7e00, 0x7e00));
        assert!(elements_equal(F16, 0x7c00, 0x7c00), "infinities are equal");
        assert!(!elements_equal(Bf16, 0x7fc0, 0x7fc0));
        assert!(elements_equal(F64, 1u64 << 63, 0));
        assert_eq!(parse_elem_type("i16"), Some(S16));
        assert_eq!(parse_elem_type("bf16"), Some(Bf16));
        assert_eq!(parse_elem_type("q8"), None);
    }

    #[test]
    fn known_failures_parse_and_scope() {
        let k = KnownFailures::parse("# c\nfoo\tsm_80,sm_90\tneeds X\nbar\t-\tuses Y\nbaz\tall\tZ\n").unwrap();
        assert_eq!(k.reason("foo", "sm_90"), Some("needs X"));
        assert_eq!(k.reason("foo", "sm_120"), None);
        assert_eq!(k.reason("bar", "-"), Some("uses Y"));
        assert_eq!(k.reason("bar", "sm_80"), None);
        assert_eq!(k.reason("baz", "sm_120"), Some("Z"));
        assert_eq!(k.reason("baz", "-"), None, "`all` means every SM, not the PTX interpreter");
        assert!(KnownFailures::parse("foo\tsm_80\t \n").is_err());
        assert!(KnownFailures::parse("foo sm_80 why\n").is_err());

        let results = vec![("foo".to_string(), Err("x".to_string())), ("baz".to_string(), Ok(())), ("new".to_string(), Err("y".to_string())), ("ok".to_string(), Ok(()))];
        let t = judge("sass sm_90", "sm_90", &results, &k);
        assert_eq!((t.cases, t.passed, t.known.len(), t.unexpected.len(), t.stale.clone()), (4, 2, 1, 1, vec!["baz".to_string()]));
        assert!(!t.ok());
        assert!(t.report().starts_with("sass sm_90: 2/4 cases match (50.0%)"));
    }

    #[test]
    fn manifest_cases_follow_the_harness_rules() {
        let dir = Manifest::default_dir();
        if !dir.join("manifest.json").exists() {
            eprintln!("skipped: no corpus at {}", dir.display());
            return;
        }
        let m = Manifest::load(&dir).unwrap();
        // The corpus README: 182 invocations with run data, 7 compile-only.
        assert_eq!((m.cases.len(), m.compile_only.len()), (182, 7));
        let ld_st = m.cases.iter().find(|c| c.name == "ld_st").unwrap();
        let spec = ld_st.launch_spec();
        assert_eq!((spec.grid, spec.block, spec.shared_bytes), ([1, 1, 1], [1, 1, 1], 1024));
        assert_eq!(spec.params[0], ParamSpec::Buffer { bytes: 8, fill: Fill::Hex(1u64.to_le_bytes().to_vec()), output: false });
        assert_eq!(spec.params[1], ParamSpec::Buffer { bytes: 8, fill: Fill::Zero, output: true });
        assert!(ld_st.check_output(&1u64.to_le_bytes()).is_ok());
        assert!(ld_st.check_output(&2u64.to_le_bytes()).unwrap_err().contains("[0] got 0x0000000000000002"));
        assert!(ld_st.check_output(&[0; 4]).is_err());
        // A warp test: 64 threads, the output buffer in both slots when the
        // entry declares two parameters.
        let bar = m.cases.iter().find(|c| c.name == "bar_red_and_pred").unwrap();
        let spec = bar.launch_spec();
        assert_eq!(spec.block, [64, 1, 1]);
        assert_eq!(spec.params[1], ParamSpec::SameAs { param: 0 });
        assert_eq!(bar.output_param(), 0);
        let launch = spec.materialize().unwrap();
        assert_eq!(launch.args[0].bytes, launch.args[1].bytes);
        assert!(m.cases.iter().all(|c| c.ptx.exists()));
        assert!(ld_st.accepted_by_ptxas("sm_90"));
    }
}
