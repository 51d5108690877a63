//! Filetests: golden tests of the pipeline's stages, one test per file
//! under `filetests/` (format: `filetests/README.md`).
//!
//! Each `.ptx` or `.ori` file names a stage (`// test: NAME`, `; test:
//! NAME` in `.ori` files) and targets (`// target: sm_75 sm_90`); the
//! stage runs on the file's source for every target, and its output must
//! equal the expectation stored after the source as comment blocks headed
//! `// ---- sm_75 sm_90 ----` (the targets sharing that output). A mismatch
//! fails with a unified diff; `BLESS=1 cargo test --test filetests`
//! rewrites the expectations instead. Arguments are libtest's (a name
//! filter, `--list`, …).
//!
//! Stages plug in through [`STAGES`]: one function per `test:` name from
//! (target, source) to the text to compare; an error compares as
//! `error: …`.

mod common;

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use ptx2sass::ir::{Stage, parse_module_for, print_module, verify_module};
use ptx2sass::driver::{self, Options};
use ptx2sass::target::Sm;

/// A stage: (target, source text) → output text.
type StageFn = fn(Sm, &str) -> Result<String, String>;

/// The stages a filetest can name, by their `test:` word.
const STAGES: &[(&str, StageFn)] = &[
    ("parse", stage_parse),
    ("lower", stage_lower),
    ("legalize", stage_legalize),
    ("select", stage_select),
    ("regalloc", stage_regalloc),
    ("compile", stage_compile),
];

/// Runs the stage `test` on `input` for `sm`.
fn run_stage(test: &str, sm: Sm, input: &str) -> Result<String, String> {
    match STAGES.iter().find(|(name, _)| *name == test) {
        Some((_, run)) => run(sm, input),
        None => {
            let known: Vec<&str> = STAGES.iter().map(|s| s.0).collect();
            Err(format!("unknown test kind `{test}` (known: {})", known.join(", ")))
        }
    }
}

/// `test: parse`: Ori IR text is parsed (the header's target applies
/// unless the text has a `target` line), verified as raw IR, and printed;
/// printing must be stable (the printed text parses and prints the same).
fn stage_parse(sm: Sm, input: &str) -> Result<String, String> {
    let module = parse_module_for(input, sm).map_err(|e| e.to_string())?;
    verify_module(&module, Stage::Raw).map_err(|es| es.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))?;
    let text = print_module(&module);
    let again = parse_module_for(&text, sm).map_err(|e| format!("the printed text does not parse: {e}\n{text}"))?;
    if again != module || print_module(&again) != text {
        return Err(format!("printing is not stable:\n{text}"));
    }
    Ok(text)
}

/// PTX text parsed, checked and lowered (verifier on): the raw module, or
/// every error.
fn lowered(sm: Sm, input: &str) -> Result<ptx2sass::ir::Module, String> {
    let ast = ptx2sass::ptx::parse_and_check(input, &Default::default()).map_err(|d| d.render("input.ptx", input))?;
    let (raw, errors) = driver::lower(&ast, sm, Some(input), Options { verify: true });
    if errors.is_empty() { Ok(raw) } else { Err(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")) }
}

/// `test: lower`: PTX is lowered to raw Ori, verified, and printed.
fn stage_lower(sm: Sm, input: &str) -> Result<String, String> {
    Ok(print_module(&lowered(sm, input)?))
}

/// `test: legalize`: PTX is lowered and legalized (early and late) for the
/// target; every defined function is verified at the legal stage and
/// printed.
fn stage_legalize(sm: Sm, input: &str) -> Result<String, String> {
    let raw = lowered(sm, input)?;
    let mut legal = raw.clone();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            legal.functions[id] = driver::legalize_function(&raw, id, Options { verify: true }).map_err(|e| e.to_string())?;
        }
    }
    Ok(print_module(&legal))
}

/// `test: select`: PTX through lowering, legalization and selection; the
/// machine functions (virtual registers) are printed.
fn stage_select(sm: Sm, input: &str) -> Result<String, String> {
    let raw = lowered(sm, input)?;
    let mut out = String::new();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            let mach = driver::compile_function(&raw, id, Options { verify: true }).map_err(|e| e.to_string())?;
            out.push_str(&mach.text());
        }
    }
    Ok(out)
}

/// `test: compile`: PTX through every stage to a cubin (IR verifier and
/// hazard checker on); each kernel's record and final code (control codes
/// included, the end marker and padding left out) are printed.
fn stage_compile(sm: Sm, input: &str) -> Result<String, String> {
    let ast = ptx2sass::ptx::parse_and_check(input, &Default::default()).map_err(|d| d.render("input.ptx", input))?;
    let compiled = driver::compile_to_cubin(&ast, sm, Some(input), Options { verify: true }, driver::CodegenOptions::default())
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let mut out = String::new();
    for k in &compiled.kernels {
        out.push_str(&format!(
            "{}: {} registers, {} barriers, {} bytes shared, {} bytes frame\n",
            k.name, k.registers, k.barriers, k.shared_bytes, k.frame_bytes
        ));
        for (n, w) in k.words.iter().take(k.instructions).enumerate() {
            let inst = ptx2sass::isa::inst::Inst::decode(*w, sm).map_err(|e| format!("word {n} of {} does not decode: {e:?}", k.name))?;
            out.push_str(&format!("    /*{:04x}*/ {} {}\n", 16 * n, inst.ctrl, inst.listing_text(sm, 16 * n as u64).trim_end()));
        }
    }
    Ok(out)
}

/// `test: regalloc`: PTX through selection and register allocation
/// (regalloc2's checker on); the allocated functions are printed, each
/// after a line with its name.
fn stage_regalloc(sm: Sm, input: &str) -> Result<String, String> {
    let raw = lowered(sm, input)?;
    let mut out = String::new();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            let mach = driver::compile_function(&raw, id, Options { verify: true }).map_err(|e| e.to_string())?;
            // `// maxrregcount: N` in the file limits the registers.
            let max_registers = input.lines().find_map(|l| l.trim().strip_prefix("// maxrregcount:")).and_then(|n| n.trim().parse().ok());
            let options = ptx2sass::regalloc::RegallocOptions { max_registers, check: true };
            let a = ptx2sass::regalloc::allocate(&mach, &options).map_err(|e| e.to_string())?;
            out.push_str(&format!("// function {}\n", a.name));
            out.push_str(&a.text());
        }
    }
    Ok(out)
}

/// One file, split into header, source and expectations.
struct FileTest {
    /// The comment prefix of the file's language.
    comment: &'static str,
    test: String,
    targets: Vec<Sm>,
    /// Everything before the first expectation block.
    source: String,
    /// (targets, expected output) per block, in file order.
    expected: Vec<(Vec<String>, String)>,
    /// The whole file.
    text: String,
}

fn marker_targets<'a>(line: &'a str, comment: &str) -> Option<Vec<&'a str>> {
    let inner = line.strip_prefix(comment)?.trim().strip_prefix("----")?.strip_suffix("----")?;
    let names: Vec<&str> = inner.split_whitespace().collect();
    (!names.is_empty() && names.iter().all(|n| n.starts_with("sm_"))).then_some(names)
}

fn read_test(path: &Path) -> Result<FileTest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let comment = match path.extension().and_then(|e| e.to_str()) {
        Some("ori") => ";",
        _ => "//",
    };
    let mut test = None;
    let mut targets = Vec::new();
    // The header: the leading comment lines.
    for line in text.lines().take_while(|l| l.trim_start().starts_with(comment) || l.trim().is_empty()) {
        let body = line.trim_start().strip_prefix(comment).unwrap_or("").trim();
        if let Some(t) = body.strip_prefix("test:") {
            test = Some(t.trim().to_string());
        } else if let Some(ts) = body.strip_prefix("target:") {
            for name in ts.split_whitespace() {
                targets.push(Sm::parse_sm(name).ok_or_else(|| format!("unknown target `{name}`"))?);
            }
        }
    }
    let test = test.ok_or_else(|| format!("no `{comment} test:` line in the header"))?;
    if targets.is_empty() {
        return Err(format!("no `{comment} target:` line in the header"));
    }
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| marker_targets(l, comment).is_some()).unwrap_or(lines.len());
    let mut source = lines[..first].join("\n");
    source.push('\n');
    let mut expected: Vec<(Vec<String>, String)> = Vec::new();
    for line in &lines[first..] {
        if let Some(names) = marker_targets(line, comment) {
            expected.push((names.into_iter().map(String::from).collect(), String::new()));
            continue;
        }
        let Some((_, out)) = expected.last_mut() else { continue };
        if line.trim().is_empty() {
            continue; // between blocks (an empty output line is a bare comment)
        }
        let body = line.strip_prefix(comment).ok_or_else(|| format!("expectation line without `{comment}`: {line:?}"))?;
        out.push_str(body.strip_prefix(' ').unwrap_or(body));
        out.push('\n');
    }
    for (_, out) in &mut expected {
        let trimmed = out.trim_end_matches('\n').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    let source = source.trim_end_matches('\n').to_string() + "\n";
    Ok(FileTest { comment, test, targets, source, expected, text })
}

/// The stage's output as compared: trailing blank lines dropped, trailing
/// spaces of lines dropped (comments cannot keep them reliably).
fn normalize(out: &str) -> String {
    let mut s: String = out.lines().map(|l| l.trim_end().to_string() + "\n").collect();
    let keep = s.trim_end_matches('\n').len();
    s.truncate(keep);
    s.push('\n');
    s
}

fn run_file(path: &Path, bless: bool) -> Result<(), Failed> {
    let ft = read_test(path)?;
    let mut actual: Vec<(String, String)> = Vec::new();
    for &sm in &ft.targets {
        let out = match run_stage(&ft.test, sm, &ft.source) {
            Ok(s) => normalize(&s),
            Err(e) => normalize(&format!("error: {e}")),
        };
        actual.push((sm.to_string(), out));
    }
    if bless {
        std::fs::write(path, render(&ft, &actual)).map_err(|e| format!("cannot write: {e}"))?;
        return Ok(());
    }
    let mut report = String::new();
    for (name, out) in &actual {
        let want = ft.expected.iter().find(|(names, _)| names.contains(name)).map(|(_, o)| o.as_str());
        match want {
            Some(w) if w == out => {}
            _ => {
                let w = want.unwrap_or("");
                let diff = similar::TextDiff::from_lines(w, out.as_str());
                report.push_str(&format!("---- {name}: output differs (- expected, + actual) ----\n"));
                report.push_str(&diff.unified_diff().context_radius(3).header("expected", "actual").to_string());
            }
        }
    }
    for (names, _) in &ft.expected {
        for n in names {
            if !actual.iter().any(|(a, _)| a == n) {
                report.push_str(&format!("an expectation for {n}, which is not a target of the test\n"));
            }
        }
    }
    if report.is_empty() && render(&ft, &actual) != ft.text {
        report.push_str("the expectations are right but not in the blessed layout (one block per distinct output, in target order)\n");
    }
    if report.is_empty() {
        Ok(())
    } else {
        report.push_str("(rerun with BLESS=1 to accept the actual output)\n");
        Err(report.into())
    }
}

/// The file with fresh expectations: targets with equal output share a
/// block, in the header's order.
fn render(ft: &FileTest, actual: &[(String, String)]) -> String {
    let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
    for (name, out) in actual {
        match groups.iter_mut().find(|(_, o)| *o == out.as_str()) {
            Some((names, _)) => names.push(name),
            None => groups.push((vec![name], out)),
        }
    }
    let c = ft.comment;
    let mut text = ft.source.clone();
    for (names, out) in groups {
        text.push_str(&format!("\n{c} ---- {} ----\n", names.join(" ")));
        for line in out.lines() {
            if line.is_empty() {
                text.push_str(c);
            } else {
                text.push_str(&format!("{c} {line}"));
            }
            text.push('\n');
        }
    }
    text
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests");
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let files = common::files_with_extensions(&root, &["ptx", "ori"]);
    let mut trials: Vec<Trial> = files
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            Trial::test(name, move || run_file(&path, bless))
        })
        .collect();
    trials.push(Trial::test("harness::mismatch_diff_and_bless", harness_self_check));
    libtest_mimic::run(&args, trials).exit();
}

/// The harness on a scratch file: a wrong expectation fails with a diff
/// naming the target, blessing rewrites it, and the blessed file passes.
fn harness_self_check() -> Result<(), Failed> {
    let dir = std::env::temp_dir().join(format!("ptx2sass-filetests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join("scratch.ori");
    let source = "; test: parse\n; target: sm_80 sm_90\nfunc fn0 \"f\" () {\nblock0:\n    exit\n}\n";
    let wrong = format!("{source}\n; ---- sm_80 sm_90 ----\n; target sm_80\n; func fn0 \"f\" () {{\n; block0:\n;     trap\n; }}\n");
    std::fs::write(&path, &wrong).map_err(|e| e.to_string())?;
    let failure = run_file(&path, false).err().ok_or("a wrong expectation passed")?;
    let msg = failure.message().unwrap_or_default().to_string();
    for needle in ["---- sm_80: output differs", "-    trap", "+    exit", "---- sm_90: output differs", "+target sm_90"] {
        if !msg.contains(needle) {
            return Err(format!("the report lacks {needle:?}:\n{msg}").into());
        }
    }
    run_file(&path, true)?;
    let blessed = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let want = format!(
        "{source}\n; ---- sm_80 ----\n; target sm_80\n; func fn0 \"f\" () {{\n; block0:\n;     exit\n; }}\n\n; ---- sm_90 ----\n; target sm_90\n; func fn0 \"f\" () {{\n; block0:\n;     exit\n; }}\n"
    );
    if blessed != want {
        return Err(format!("blessed file:\n{blessed}\nexpected:\n{want}").into());
    }
    run_file(&path, false)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
