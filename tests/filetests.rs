//! Filetests: golden tests of the pipeline's stages, one test per file
//! under `filetests/` (format: `filetests/README.md`).
//!
//! Each `.ptx` or `.ori` file names a stage (`// test: NAME`, `; test:
//! NAME` in `.ori` files) and targets (`// target: sm_75 sm_90`); the
//! stage runs on the file's source for every target. Its output comes in
//! sections, one per function (plus the lines of no function: an IR
//! module's `target` line and globals, an error about the whole module),
//! and each function's expected output is stored as comment blocks headed
//! `// ---- sm_75 sm_90 ----` (the targets sharing that output) right
//! after the function's source, as Cranelift's filetests do. A mismatch
//! fails with a unified diff; `BLESS=1 cargo test --test filetests`
//! rewrites the expectations instead. Arguments are libtest's (a name
//! filter, `--list`, …).
//!
//! Stages plug in through [`STAGES`]: one function per `test:` name from
//! the input (target, language, source) to the output sections; an error
//! compares as `error: …`.

mod common;

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use ptx2sass::internals::driver::{self, Options};
use ptx2sass::internals::ir::{Stage, parse_module_for, print_function, print_module, verify_module};
use ptx2sass::internals::target::Sm;

/// The language of a file's source, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    /// `.ptx`: PTX, `//` comments.
    Ptx,
    /// `.ori`: Ori IR text (`src/ir/print.rs`), `;` comments.
    Ori,
}

impl Lang {
    fn comment(self) -> &'static str {
        match self {
            Lang::Ptx => "//",
            Lang::Ori => ";",
        }
    }
}

/// What a stage is given: one target and the file's source.
struct Input<'a> {
    sm: Sm,
    lang: Lang,
    text: &'a str,
}

/// A part of a stage's output: the lines about one function (`Some(name)`)
/// or lines about none (`None`). The runner stores each part after the
/// source of its function.
struct Section {
    function: Option<String>,
    text: String,
}

impl Section {
    fn module(text: String) -> Section {
        Section { function: None, text }
    }
    fn function(name: &str, text: String) -> Section {
        Section { function: Some(name.to_string()), text }
    }
}

/// A stage: input → output sections, or an error about the whole module.
type StageFn = fn(&Input) -> Result<Vec<Section>, String>;

/// The stages a filetest can name, by their `test:` word.
const STAGES: &[(&str, StageFn)] = &[
    ("parse", stage_parse),
    ("lower", stage_lower),
    ("legalize", stage_legalize),
    ("select", stage_select),
    ("regalloc", stage_regalloc),
    ("compile", stage_compile),
    ("sched", stage_sched),
];

/// Runs the stage `test` on `input`.
fn run_stage(test: &str, input: &Input) -> Result<Vec<Section>, String> {
    match STAGES.iter().find(|(name, _)| *name == test) {
        Some((_, run)) => run(input),
        None => {
            let known: Vec<&str> = STAGES.iter().map(|s| s.0).collect();
            Err(format!("unknown test kind `{test}` (known: {})", known.join(", ")))
        }
    }
}

fn require(input: &Input, lang: Lang, stage: &str) -> Result<(), String> {
    if input.lang == lang {
        Ok(())
    } else {
        Err(format!("the {stage} stage reads {} files", if lang == Lang::Ptx { ".ptx" } else { ".ori" }))
    }
}

fn join_errors<E: ToString>(errors: &[E]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// A module printed in sections: the module's own lines (`target`,
/// globals) and then one section per function, declarations included.
/// Printed whole, the sections are `print_module`'s text.
fn module_sections(module: &ptx2sass::internals::ir::Module) -> Vec<Section> {
    let functions: Vec<Section> = module.functions.iter().map(|(id, f)| Section::function(&f.name, print_function(id, f))).collect();
    let whole = print_module(module);
    let body: String = functions.iter().map(|s| s.text.as_str()).collect();
    match whole.strip_suffix(body.as_str()) {
        Some(head) => std::iter::once(Section::module(head.to_string())).chain(functions).collect(),
        // A printer that interleaves module lines and functions: keep the
        // text whole rather than cut it wrongly.
        None => vec![Section::module(whole)],
    }
}

/// `test: parse`: Ori IR text is parsed (the header's target applies
/// unless the text has a `target` line), verified as raw IR, and printed;
/// printing must be stable (the printed text parses and prints the same).
fn stage_parse(input: &Input) -> Result<Vec<Section>, String> {
    require(input, Lang::Ori, "parse")?;
    let module = parse_module_for(input.text, input.sm).map_err(|e| e.to_string())?;
    verify_module(&module, Stage::Raw).map_err(|es| join_errors(&es))?;
    let text = print_module(&module);
    let again = parse_module_for(&text, input.sm).map_err(|e| format!("the printed text does not parse: {e}\n{text}"))?;
    if again != module || print_module(&again) != text {
        return Err(format!("printing is not stable:\n{text}"));
    }
    Ok(module_sections(&module))
}

/// PTX text parsed, checked and lowered (verifier on): the raw module, or
/// every error.
fn lowered(sm: Sm, text: &str) -> Result<ptx2sass::internals::ir::Module, String> {
    let ast = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).map_err(|d| d.render("input.ptx", text))?;
    let (raw, errors) = driver::lower(&ast, sm, Some(text), Options { verify: true, ..Default::default() });
    if errors.is_empty() { Ok(raw) } else { Err(join_errors(&errors)) }
}

/// The raw module the stages after lowering start from: PTX lowered, or
/// Ori IR text parsed and verified at the raw stage (what lowering's
/// output must pass), so a test can hand the later stages IR that no PTX
/// lowers to. The text's `target` line, if any, must be the test's.
fn raw_module(input: &Input) -> Result<ptx2sass::internals::ir::Module, String> {
    match input.lang {
        Lang::Ptx => lowered(input.sm, input.text),
        Lang::Ori => {
            let module = parse_module_for(input.text, input.sm).map_err(|e| e.to_string())?;
            if module.sm != input.sm {
                return Err(format!("the text's `target {}` line is not the test's target {}", module.sm, input.sm));
            }
            verify_module(&module, Stage::Raw).map_err(|es| join_errors(&es))?;
            Ok(module)
        }
    }
}

/// `test: lower`: PTX is lowered to raw Ori, verified, and printed.
fn stage_lower(input: &Input) -> Result<Vec<Section>, String> {
    require(input, Lang::Ptx, "lower")?;
    Ok(module_sections(&lowered(input.sm, input.text)?))
}

/// The pipeline's options for a test: the IR verifier on; multiply-add
/// contraction as `ptxas` does by default, off where the file has a
/// `// fmad: false` line (`ptxas --fmad=false`).
fn pipeline_options(input: &Input) -> Options {
    let comment = input.lang.comment();
    let fmad = input.text.lines().find_map(|l| l.trim().strip_prefix(comment)?.trim().strip_prefix("fmad:")).map(str::trim);
    Options { verify: true, fma_contraction: fmad != Some("false") }
}

/// `test: legalize`: the raw module (from PTX or Ori text) is legalized
/// (early and late) for the target; every defined function is verified at
/// the legal stage and printed, or its error given in its place.
fn stage_legalize(input: &Input) -> Result<Vec<Section>, String> {
    let raw = raw_module(input)?;
    let mut legal = raw.clone();
    let mut failed = Vec::new();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            match driver::legalize_function(&raw, id, pipeline_options(input)) {
                Ok(l) => legal.functions[id] = l,
                Err(e) => failed.push((f.name.clone(), format!("error: {e}\n"))),
            }
        }
    }
    let mut sections = module_sections(&legal);
    for s in &mut sections {
        if let Some((_, error)) = failed.iter().find(|(name, _)| s.function.as_ref() == Some(name)) {
            s.text = error.clone();
        }
    }
    Ok(sections)
}

/// `test: select`: the raw module through legalization and selection; the
/// machine functions (virtual registers) are printed.
fn stage_select(input: &Input) -> Result<Vec<Section>, String> {
    let raw = raw_module(input)?;
    let mut out = Vec::new();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            let text = match driver::compile_function(&raw, id, pipeline_options(input)) {
                Ok(mach) => mach.text(),
                Err(e) => format!("error: {e}\n"),
            };
            out.push(Section::function(&f.name, text));
        }
    }
    Ok(out)
}

/// `test: regalloc`: the raw module through selection and register
/// allocation (regalloc2's checker on); the allocated functions are
/// printed, each after a line with its name.
fn stage_regalloc(input: &Input) -> Result<Vec<Section>, String> {
    let raw = raw_module(input)?;
    let comment = input.lang.comment();
    // `// maxrregcount: N` in the file limits the registers.
    let max_registers =
        input.text.lines().find_map(|l| l.trim().strip_prefix(comment)?.trim().strip_prefix("maxrregcount:")).and_then(|n| n.trim().parse().ok());
    let mut out = Vec::new();
    for (id, f) in raw.functions.iter() {
        if !f.layout.is_empty() {
            let allocated = driver::compile_function(&raw, id, pipeline_options(input)).map_err(|e| e.to_string()).and_then(|mach| {
                let options = ptx2sass::internals::regalloc::RegallocOptions { max_registers, check: true };
                ptx2sass::internals::regalloc::allocate(&mach, &options).map_err(|e| e.to_string())
            });
            let text = match allocated {
                Ok(a) => format!("// function {}\n{}", a.name, a.text()),
                Err(e) => format!("error: {e}\n"),
            };
            out.push(Section::function(&f.name, text));
        }
    }
    Ok(out)
}

/// `test: compile`: PTX through every stage to a cubin (IR verifier and
/// hazard checker on); each kernel's record and final code (the end marker
/// and padding left out) are printed without control codes, so that a
/// change of the scheduler's stalls or barriers leaves these files alone.
fn stage_compile(input: &Input) -> Result<Vec<Section>, String> {
    compiled(input, false)
}

/// `test: sched`: as `compile`, with each instruction's control codes
/// (`[B------:R-:W-:Y:S04]`: wait barriers, read and write barriers,
/// yield, stall), the scheduler's output.
fn stage_sched(input: &Input) -> Result<Vec<Section>, String> {
    compiled(input, true)
}

fn compiled(input: &Input, control: bool) -> Result<Vec<Section>, String> {
    require(input, Lang::Ptx, if control { "sched" } else { "compile" })?;
    let (sm, text) = (input.sm, input.text);
    let ast = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).map_err(|d| d.render("input.ptx", text))?;
    let compiled = driver::compile_to_cubin(&ast, sm, Some(text), pipeline_options(input), driver::CodegenOptions::default()).map_err(|es| join_errors(&es))?;
    let mut out = Vec::new();
    for k in &compiled.kernels {
        let mut s = format!("{}: {} registers, {} barriers, {} bytes shared, {} bytes frame\n", k.name, k.registers, k.barriers, k.shared_bytes, k.frame_bytes);
        for (n, w) in k.words.iter().take(k.instructions).enumerate() {
            let inst = ptx2sass::internals::isa::inst::Inst::decode(*w, sm).map_err(|e| format!("word {n} of {} does not decode: {e:?}", k.name))?;
            let listing = inst.listing_text(sm, 16 * n as u64);
            if control {
                s.push_str(&format!("    /*{:04x}*/ {} {}\n", 16 * n, inst.ctrl, listing.trim_end()));
            } else {
                s.push_str(&format!("    /*{:04x}*/ {}\n", 16 * n, listing.trim_end()));
            }
        }
        out.push(Section::function(&k.name, s));
    }
    Ok(out)
}

// ---- the file format ------------------------------------------------------

/// A function of the source, as the runner finds it (before any stage
/// runs, so that it can place expectations in files that have none yet).
#[derive(Debug)]
struct SourceFn {
    name: String,
    /// Whether it has a body (a declaration has none).
    defined: bool,
    /// The index of its last line among the source lines.
    last_line: usize,
}

/// One file, split into header, source and expectations.
struct FileTest {
    lang: Lang,
    test: String,
    targets: Vec<Sm>,
    /// The functions of the source, in source order.
    functions: Vec<SourceFn>,
    /// The source cut after each function definition (and the
    /// declarations right after it): piece `k` holds the `k`-th definition
    /// and is followed by its expectation blocks; the last piece holds what
    /// follows the last cut (often nothing). A source without definitions
    /// has one cut, after its last line. Blank lines at the cuts are not
    /// kept: the expectations and one blank line stand there.
    pieces: Vec<String>,
    /// Where each piece but the last ends: the index of the source line
    /// after it.
    cuts: Vec<usize>,
    /// The expectation blocks after each piece but the last: (targets,
    /// expected output), in file order.
    expected: Vec<Vec<(Vec<String>, String)>>,
    /// The whole file.
    text: String,
}

impl FileTest {
    /// The number of places expectations go: one per definition, or one.
    fn slots(&self) -> usize {
        self.pieces.len() - 1
    }

    /// The text the stages run on: the pieces one after the other (the
    /// file without its expectation blocks and the blank lines at the
    /// cuts). Its line numbers (`!LINE:COL` in IR) therefore do not depend
    /// on the expectations: a change of one function's output never moves
    /// another's.
    fn source(&self) -> String {
        let pieces: Vec<&str> = self.pieces.iter().map(String::as_str).filter(|p| !p.is_empty()).collect();
        pieces.join("\n") + "\n"
    }

    /// The slot a section of output belongs to: its function's definition;
    /// for a function only declared, the piece holding the declaration;
    /// otherwise (module lines, functions the source does not name) the
    /// first slot.
    fn slot_of(&self, section: &Section) -> usize {
        let Some(name) = &section.function else { return 0 };
        if let Some(k) = self.functions.iter().filter(|f| f.defined).position(|f| &f.name == name) {
            return k;
        }
        match self.functions.iter().find(|f| &f.name == name) {
            Some(decl) => self.cuts.iter().position(|&c| c > decl.last_line).unwrap_or(self.slots() - 1),
            None => 0,
        }
    }

    /// What names slot `k` in a report.
    fn slot_name(&self, k: usize) -> String {
        match self.functions.iter().filter(|f| f.defined).nth(k) {
            Some(f) if self.slots() > 1 => format!(" (function {})", f.name),
            _ => String::new(),
        }
    }
}

fn marker_targets<'a>(line: &'a str, comment: &str) -> Option<Vec<&'a str>> {
    let inner = line.strip_prefix(comment)?.trim().strip_prefix("----")?.strip_suffix("----")?;
    let names: Vec<&str> = inner.split_whitespace().collect();
    (!names.is_empty() && names.iter().all(|n| n.starts_with("sm_"))).then_some(names)
}

/// The functions of PTX text, from the parser's spans; none when it does
/// not parse (a test of a parse error: its expectations follow the whole
/// source).
fn ptx_functions(text: &str) -> Vec<SourceFn> {
    let Ok(module) = ptx2sass::internals::ptx::parse(text) else { return Vec::new() };
    let mut out = Vec::new();
    for item in &module.items {
        if let ptx2sass::internals::ptx::ast::Item::Function(f) = item {
            let end = (f.loc.span().end as usize).min(text.len());
            out.push(SourceFn { name: module.names.name(f.name).to_string(), defined: f.body.is_some(), last_line: text[..end].matches('\n').count() });
        }
    }
    out
}

/// The part of an Ori text line before its `;` comment (a `;` in a quoted
/// name does not count).
fn ori_code(line: &str) -> &str {
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The functions of Ori text, by its lines: a function starts with a
/// `kernel`/`func`/`function` line naming `fnN "name"`, which ends with
/// `{` when a body follows; the body ends at a line holding `}` alone
/// (the text form has no other braces). Scanned rather than parsed so
/// that a text the IR parser rejects still has its functions found.
fn ori_functions(text: &str) -> Vec<SourceFn> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let code = ori_code(lines[i]).trim();
        let mut words = code.splitn(3, ' ');
        let header = matches!(words.next(), Some("kernel" | "func" | "function")) && words.next().is_some_and(|w| w.starts_with("fn"));
        if !header {
            i += 1;
            continue;
        }
        let name = words.next().and_then(ori_name).unwrap_or_default();
        let defined = code.ends_with('{');
        let mut last = i;
        if defined {
            while last + 1 < lines.len() && ori_code(lines[last]).trim() != "}" {
                last += 1;
            }
        }
        out.push(SourceFn { name, defined, last_line: last });
        i = last + 1;
    }
    out
}

/// The quoted name at the start of `s`, unescaped.
fn ori_name(s: &str) -> Option<String> {
    let mut chars = s.strip_prefix('"')?.chars();
    let mut name = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(name),
            '\\' => name.push(chars.next()?),
            c => name.push(c),
        }
    }
    None
}

fn read_test(path: &Path) -> Result<FileTest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let lang = match path.extension().and_then(|e| e.to_str()) {
        Some("ori") => Lang::Ori,
        _ => Lang::Ptx,
    };
    let comment = lang.comment();
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

    // Take the expectation blocks out: a block is a marker line and the
    // comment lines under it, up to a blank line, a line of source or the
    // next marker. Each block remembers how many source lines precede it.
    let lines: Vec<&str> = text.lines().collect();
    let mut source: Vec<&str> = Vec::new();
    let mut blocks: Vec<(usize, Vec<String>, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(names) = marker_targets(lines[i], comment) else {
            source.push(lines[i]);
            i += 1;
            continue;
        };
        i += 1;
        let mut out = String::new();
        while i < lines.len() && lines[i].starts_with(comment) && marker_targets(lines[i], comment).is_none() {
            let body = &lines[i][comment.len()..];
            out.push_str(body.strip_prefix(' ').unwrap_or(body));
            out.push('\n');
            i += 1;
        }
        blocks.push((source.len(), names.into_iter().map(String::from).collect(), out));
    }

    // Cut the source after each definition.
    let joined = source.join("\n") + "\n";
    let functions = match lang {
        Lang::Ptx => ptx_functions(&joined),
        Lang::Ori => ori_functions(&joined),
    };
    // A cut after each definition, moved past the declarations that follow
    // it (so that a declaration stays next to the code around it, and its
    // output, if any, goes with that definition's).
    let mut cuts: Vec<usize> = Vec::new();
    let mut seen_definition = false;
    for f in &functions {
        if f.defined {
            cuts.push(f.last_line + 1);
            seen_definition = true;
        } else if let Some(cut) = cuts.last_mut().filter(|_| seen_definition) {
            *cut = f.last_line + 1;
        }
    }
    if cuts.is_empty() {
        cuts.push(source.iter().rposition(|l| !l.trim().is_empty()).map_or(source.len(), |n| n + 1));
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for &end in cuts.iter().chain(std::iter::once(&source.len())) {
        let piece = &source[start.min(end)..end];
        let first = piece.iter().position(|l| !l.trim().is_empty()).unwrap_or(piece.len());
        let last = piece.iter().rposition(|l| !l.trim().is_empty()).map_or(first, |n| n + 1);
        pieces.push(piece[first..last].join("\n"));
        start = end;
    }

    // Each block belongs to the last cut at or before it.
    let mut expected: Vec<Vec<(Vec<String>, String)>> = vec![Vec::new(); cuts.len()];
    for (at, names, out) in blocks {
        let Some(slot) = cuts.iter().rposition(|&c| c <= at) else {
            return Err(format!("an expectation block ({}) before the end of the first function", names.join(" ")));
        };
        expected[slot].push((names, normalize(&out)));
    }
    Ok(FileTest { lang, test, targets, functions, pieces, cuts, expected, text })
}

/// Output as compared: trailing spaces of lines dropped (comments cannot
/// keep them reliably), trailing blank lines dropped; all-blank output is
/// empty (a function with no output has no block).
fn normalize(out: &str) -> String {
    let mut s: String = out.lines().map(|l| l.trim_end().to_string() + "\n").collect();
    let keep = s.trim_end_matches('\n').len();
    s.truncate(keep);
    if !s.is_empty() {
        s.push('\n');
    }
    s
}

/// The actual output of every target, per slot: (target, output) lists.
fn actual_outputs(ft: &FileTest) -> Vec<Vec<(String, String)>> {
    let source = ft.source();
    let mut per_slot: Vec<Vec<(String, String)>> = vec![Vec::new(); ft.slots()];
    for &sm in &ft.targets {
        let mut texts = vec![String::new(); ft.slots()];
        match run_stage(&ft.test, &Input { sm, lang: ft.lang, text: &source }) {
            Ok(sections) => {
                for s in &sections {
                    texts[ft.slot_of(s)].push_str(&s.text);
                }
            }
            Err(e) => texts[0] = format!("error: {e}"),
        }
        for (slot, text) in per_slot.iter_mut().zip(texts) {
            slot.push((sm.to_string(), normalize(&text)));
        }
    }
    per_slot
}

fn run_file(path: &Path, bless: bool) -> Result<(), Failed> {
    let ft = read_test(path)?;
    let actual = actual_outputs(&ft);
    if bless {
        std::fs::write(path, render(&ft, &actual)).map_err(|e| format!("cannot write: {e}"))?;
        return Ok(());
    }
    let mut report = String::new();
    for (slot, (outputs, blocks)) in actual.iter().zip(&ft.expected).enumerate() {
        let function = ft.slot_name(slot);
        for (name, out) in outputs {
            let want = blocks.iter().find(|(names, _)| names.contains(name)).map_or("", |(_, o)| o.as_str());
            if want != out {
                let diff = similar::TextDiff::from_lines(want, out.as_str());
                report.push_str(&format!("---- {name}{function}: output differs (- expected, + actual) ----\n"));
                report.push_str(&diff.unified_diff().context_radius(3).header("expected", "actual").to_string());
            }
        }
        for (names, _) in blocks {
            for n in names.iter().filter(|n| !outputs.iter().any(|(a, _)| a == *n)) {
                report.push_str(&format!("an expectation{function} for {n}, which is not a target of the test\n"));
            }
        }
    }
    if report.is_empty() && render(&ft, &actual) != ft.text {
        report.push_str(
            "the expectations are right but not in the blessed layout (after each function, one block per distinct output, in target order)\n",
        );
    }
    if report.is_empty() {
        Ok(())
    } else {
        report.push_str("(rerun with BLESS=1 to accept the actual output)\n");
        Err(report.into())
    }
}

/// The file with fresh expectations: after each function's piece, its
/// outputs, targets with equal output sharing a block in the header's
/// order; no block where no target has output.
fn render(ft: &FileTest, actual: &[Vec<(String, String)>]) -> String {
    let c = ft.lang.comment();
    let mut text = String::new();
    for (k, piece) in ft.pieces.iter().enumerate() {
        if piece.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(piece);
        text.push('\n');
        let Some(outputs) = actual.get(k) else { continue };
        if outputs.iter().all(|(_, out)| out.is_empty()) {
            continue;
        }
        let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
        for (name, out) in outputs {
            match groups.iter_mut().find(|(_, o)| *o == out.as_str()) {
                Some((names, _)) => names.push(name),
                None => groups.push((vec![name], out)),
            }
        }
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
    trials.push(Trial::test("harness::expectations_after_each_function", harness_per_function_check));
    libtest_mimic::run(&args, trials).exit();
}

/// A scratch directory of one self-check.
fn scratch(name: &str) -> Result<std::path::PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("ptx2sass-filetests-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// The harness on a scratch file: a wrong expectation fails with a diff
/// naming the target, blessing rewrites it, and the blessed file passes.
fn harness_self_check() -> Result<(), Failed> {
    let dir = scratch("mismatch")?;
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

/// The per-function layout on a scratch file of two definitions, each
/// followed by a declaration: blessing a file without expectations puts
/// each function's output right after it and its declaration (the
/// module's lines with the first), and a wrong expectation of the second
/// function fails naming it alone.
fn harness_per_function_check() -> Result<(), Failed> {
    let dir = scratch("per-function")?;
    let path = dir.join("scratch.ori");
    let a = "; test: parse\n; target: sm_80 sm_90\n; The first function.\nfunc fn0 \"a\" () {\nblock0:\n    exit\n}\nfunc fn1 \"c\" () ;";
    let b = "; The second function.\nkernel fn2 \"b\" () {\nblock0:\n    trap\n}\nfunc fn3 \"d\" () ;";
    std::fs::write(&path, format!("{a}\n{b}\n")).map_err(|e| e.to_string())?;
    run_file(&path, true)?;
    let blessed = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let a_out = |sm: &str| format!("\n; ---- {sm} ----\n; target {sm}\n; func fn0 \"a\" () {{\n; block0:\n;     exit\n; }}\n; func fn1 \"c\" () ;\n");
    let b_out = "\n; ---- sm_80 sm_90 ----\n; kernel fn2 \"b\" () {\n; block0:\n;     trap\n; }\n; func fn3 \"d\" () ;\n";
    let want = format!("{a}\n{}{}\n{b}\n{b_out}", a_out("sm_80"), a_out("sm_90"));
    if blessed != want {
        return Err(format!("blessed file:\n{blessed}\nexpected:\n{want}").into());
    }
    run_file(&path, false)?;
    std::fs::write(&path, blessed.replace(";     trap", ";     exit")).map_err(|e| e.to_string())?;
    let msg = run_file(&path, false).err().ok_or("a wrong expectation passed")?.message().unwrap_or_default().to_string();
    for needle in ["---- sm_80 (function b): output differs", "+    trap", "---- sm_90 (function b): output differs"] {
        if !msg.contains(needle) {
            return Err(format!("the report lacks {needle:?}:\n{msg}").into());
        }
    }
    if msg.contains("function a") {
        return Err(format!("the report blames the first function:\n{msg}").into());
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
