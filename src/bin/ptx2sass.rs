//! `ptx2sass`: a drop-in for NVIDIA's `ptxas` (argument handling only; the
//! work happens in the library).

use ptx2sass::internals::diag::Diagnostics;
use ptx2sass::internals::ptx::ast::{Function, FunctionKind, Item, Module, Statement};
use ptx2sass::internals::ptx::{self, CheckOptions};
use ptx2sass::internals::args::{CompileArgs, Cursor};
use ptx2sass::internals::target::{Arch, Sm};
use std::process::ExitCode;

const USAGE: &str = "\
usage: ptx2sass [options] file.ptx...

options (ptxas-compatible):
  -arch=<sm_XX|compute_XX>, --gpu-name <arch>  target; compute_XX only parses and checks
  -o <file>, --output-file <file>              output cubin (default elf.o)
  -O<0-3>, --opt-level <n>                     optimisation level (default 3)
  -v, --verbose                                print resource usage
  --maxrregcount <n>                           register limit
  --fmad <true|false>                          contract mul+add into fma as ptxas does (default true)
  -lineinfo, --generate-line-info              line information: .debug_line (.loc positions),
                                               .nv_debug_line_sass (PTX lines), .nv_debug_ptx_txt
  -g, --device-debug                           the same line information; no variable locations,
                                               the code stays optimised
  -suppress-debug-info                         no line information even with -lineinfo or -g
  -c                                           accepted: the output is always a complete cubin
  -w, --disable-warnings                       print no warnings
  -Werror, --warning-as-error                  a warning fails the compilation
  --warn-on-spills                             warn of each function that spills registers
  other ptxas options                          those that tune ptxas's optimiser or govern
                                               warnings (--regAllocOptLevel, -dlcm, -dscm,
                                               --allow-expensive-optimizations, -Ofc, -ewp,
                                               -pic, -m64, -warn-lmem-usage, ...) are
                                               accepted and change nothing; -v names them
  --split-compile <n>                          compile kernels on up to n threads (0, the
                                               default here: as many as the machine has
                                               for a large module, one for a small one)
  --version, -V                                print version, and the CUDA release whose ptxas
                                               reads the same newest PTX ISA (for Triton)
ptx2sass options:
  --summary                                    print one line per function after checking
  --dump-ir=<stage>                            print each function after a stage: lower, legalize,
                                               select, regalloc, sass (the final code, as `sass dis`
                                               prints it)
  --run <spec.json>                            run a kernel in the PTX interpreter (launch spec
                                               as for scripts/gpu-run.py); prints the output
                                               buffers as `param N: <hex>` lines
";

struct Options {
    /// The compile options, parsed by the library (as the C library parses
    /// `nvPTXCompilerCompile`'s).
    compile: CompileArgs,
    output: Option<String>,
    inputs: Vec<String>,
    summary: bool,
    run: Option<String>,
    dump_ir: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut compile = CompileArgs::default();
    let mut output = None;
    let mut inputs = Vec::new();
    let mut summary = false;
    let mut run = None;
    let mut dump_ir = None;
    let mut cursor = Cursor::new(args);
    while let Some(arg) = cursor.next() {
        if compile.apply(&arg, &mut cursor).map_err(|e| e.message)? {
            continue;
        }
        match arg.name {
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "--version" | "-V" => {
                print!("{}", version_text());
                return Ok(None);
            }
            "-o" | "--output-file" => output = Some(cursor.value(&arg).map_err(|e| e.message)?.to_string()),
            "--summary" => summary = true,
            "--run" => run = Some(cursor.value(&arg).map_err(|e| e.message)?.to_string()),
            "--dump-ir" => {
                let v = cursor.value(&arg).map_err(|e| e.message)?;
                if !DUMP_STAGES.contains(&v) {
                    return Err(format!("unknown stage '{v}' for --dump-ir (one of {})", DUMP_STAGES.join(", ")));
                }
                dump_ir = Some(v.to_string());
            }
            _ if arg.text.starts_with('-') && arg.text.len() > 1 => return Err(format!("unknown option '{}'", arg.text)),
            _ => inputs.push(arg.text.to_string()),
        }
    }
    if inputs.is_empty() {
        return Err("no input file".to_string());
    }
    Ok(Some(Options { compile, output, inputs, summary, run, dump_ir }))
}

/// `--version`: ptx2sass's own version, then the PTX ISA it reads and the
/// CUDA release whose ptxas reads the same newest ISA, written as ptxas
/// writes its release (`release 13.5`): Triton reads that line with
/// `release (\d+)\.(\d+)` to choose the `.version` of the PTX it emits
/// (CUDA 13.x reads PTX ISA 9.x; ISA 9.5 is CUDA 13.5's).
fn version_text() -> String {
    let (major, minor) = ptx2sass::internals::ptx::check::MAX_PTX_VERSION;
    format!(
        "ptx2sass: PTX to SASS compiler\nversion {}\nReads PTX ISA up to {major}.{minor}, as ptxas of Cuda compilation tools, release {}.{minor}\n",
        env!("CARGO_PKG_VERSION"),
        major + 4
    )
}

/// The exit status of every failure, as ptxas: 255 for a bad option, a
/// missing file, invalid PTX and an unsupported feature alike (Triton
/// reads 255 as a code-generation error).
const FAILURE: u8 = 255;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ptx2sass fatal   : {e}\n{USAGE}");
            return ExitCode::from(FAILURE);
        }
    };
    let mut failed = false;

    for path in &opts.inputs {
        let source = match std::fs::read(path) {
            // Valid UTF-8 (nearly always) is checked by the fast validator
            // and kept without a copy; anything else is read lossily.
            Ok(bytes) => String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            Err(e) => {
                eprintln!("ptx2sass fatal   : cannot read '{path}': {e}");
                failed = true;
                continue;
            }
        };
        let check_opts = CheckOptions { arch: Some(opts.compile.arch.sm()), resolve_calls: matches!(opts.compile.arch, Arch::Real(_)) };
        let module = match ptx::parse(&source) {
            Ok(m) => m,
            Err(d) => {
                report(path, &source, &d);
                failed = true;
                continue;
            }
        };
        match ptx::check::check(&module, &check_opts) {
            Ok(warnings) => {
                if !warnings.is_empty() && !opts.compile.disable_warnings {
                    eprint!("{}", warnings.render(path, &source));
                    if opts.compile.warnings_as_errors {
                        eprintln!("ptx2sass fatal   : warnings are errors (-Werror) in '{path}'");
                        failed = true;
                        continue;
                    }
                }
            }
            Err(d) => {
                report(path, &source, &d);
                failed = true;
                continue;
            }
        }
        if opts.summary {
            print_summary(&module);
        }
        if let Some(spec_path) = &opts.run {
            if !run_kernel(path, &source, &module, spec_path) {
                failed = true;
            }
            continue;
        }
        if let Arch::Real(sm) = opts.compile.arch {
            if let Some(stage) = &opts.dump_ir {
                if stage != "sass" {
                    failed |= !dump_ir(&module, sm, &source, stage);
                    continue;
                }
            }
            if !compile(path, &source, &module, sm, &opts) {
                failed = true;
            }
        }
    }
    if failed { ExitCode::from(FAILURE) } else { ExitCode::SUCCESS }
}

const DUMP_STAGES: [&str; 5] = ["lower", "legalize", "select", "regalloc", "sass"];

/// Compiles to a cubin, writes it, prints ptxas's warnings and what `-v`
/// and `--dump-ir=sass` ask for; false on failure.
fn compile(path: &str, source: &str, module: &Module, sm: Sm, opts: &Options) -> bool {
    use ptx2sass::internals::driver::{self, CodegenOptions};
    let options = driver::Options { verify: cfg!(debug_assertions), fma_contraction: opts.compile.contracts_fma() };
    let codegen = CodegenOptions { max_registers: opts.compile.max_registers, check: cfg!(debug_assertions), threads: opts.compile.threads, line_info: (opts.compile.line_info || opts.compile.debug) && !opts.compile.suppress_debug_info, device_debug: opts.compile.debug && !opts.compile.suppress_debug_info };
    let compiled = match driver::compile_to_cubin(module, sm, Some(source), options, codegen) {
        Ok(c) => c,
        Err(errors) => {
            for e in &errors {
                if e.line > 0 {
                    eprintln!("{path}:{}:{}: error: {e}", e.line, e.column);
                } else {
                    eprintln!("{path}: error: {e}");
                }
            }
            eprintln!("ptx2sass fatal   : {} function(s) of '{path}' could not be compiled for {sm}", errors.len());
            return false;
        }
    };
    // Warnings ptxas prints with or without -v (errors under -Werror,
    // and then no cubin; none under -w).
    let warnings = compiled.warnings(opts.compile.warn_on_spills);
    if !warnings.is_empty() && !opts.compile.disable_warnings {
        if opts.compile.warnings_as_errors {
            eprint!("{}", warnings.replace("ptxas warning :", "ptxas error   :"));
            return false;
        }
        eprint!("{warnings}");
    }
    let out = opts.output.as_deref().unwrap_or("elf.o");
    // An existing regular file is removed rather than truncated, as linkers
    // do: truncating a file written moments ago makes the file system
    // write back its old blocks first. (Devices, pipes and links to them
    // are written in place.)
    if std::fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_file()) {
        let _ = std::fs::remove_file(out);
    }
    if let Err(e) = std::fs::write(out, &compiled.cubin) {
        eprintln!("ptx2sass fatal   : cannot write '{out}': {e}");
        return false;
    }
    // On standard error, as ptxas prints it (Triton keeps only that).
    if opts.compile.verbose {
        eprint!("{}{}", ptx2sass::internals::args::inert_notes(&opts.compile.inert), compiled.verbose_report(sm, true));
    }
    if opts.dump_ir.as_deref() == Some("sass") {
        match ptx2sass::internals::cubin::elf::read(&compiled.cubin) {
            Ok(read) => {
                let mut text = String::new();
                ptx2sass::internals::cubin::listing::write_cubin(&mut text, &read.elf, &compiled.cubin, sm, false);
                print!("{text}");
            }
            Err(e) => {
                eprintln!("ptx2sass fatal   : the cubin written does not read back: {e}");
                return false;
            }
        }
    }
    true
}

/// `--dump-ir=<stage>` for the stages before register allocation: every
/// function after the stage; false when a function did not get there.
fn dump_ir(module: &Module, sm: Sm, source: &str, stage: &str) -> bool {
    use ptx2sass::internals::driver::{self, Options};
    let options = Options { verify: true, ..Default::default() };
    let (raw, errors) = driver::lower(module, sm, Some(source), options);
    let mut ok = errors.is_empty();
    for e in &errors {
        eprintln!("error: {e}");
    }
    for (id, f) in raw.functions.iter() {
        if f.layout.is_empty() || errors.iter().any(|e| e.function == f.name) {
            continue;
        }
        let text = match stage {
            "lower" => Ok(ptx2sass::internals::ir::print_function(id, f)),
            "legalize" => driver::legalize_function(&raw, id, options).map(|l| ptx2sass::internals::ir::print_function(id, &l)),
            "select" => driver::compile_function(&raw, id, options).map(|m| format!("function {}:\n{}", f.name, m.text())),
            _ => driver::compile_function(&raw, id, options)
                .and_then(|m| driver::allocate_function(&m, Default::default()))
                .map(|a| format!("function {}:\n{}", f.name, a.text())),
        };
        match text {
            Ok(t) => println!("{t}"),
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    ok
}

/// `--run`: interprets the launch and prints the output buffers; false on
/// failure (reported on stderr with the PTX location).
fn run_kernel(path: &str, source: &str, module: &Module, spec_path: &str) -> bool {
    use ptx2sass::internals::interp::{self, LaunchSpec};
    let spec = match std::fs::read_to_string(spec_path).map_err(|e| e.to_string()).and_then(|t| LaunchSpec::from_json(&t).map_err(|e| e.to_string())) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ptx2sass fatal   : {spec_path}: {e}");
            return false;
        }
    };
    match interp::ptx::run(module, &spec, &Default::default()) {
        Ok(out) => {
            print!("{}", out.launch.outputs_text());
            true
        }
        Err(e) => {
            eprintln!("{}", e.render(path, source));
            false
        }
    }
}

fn report(path: &str, source: &str, d: &Diagnostics) {
    eprint!("{}", d.render(path, source));
    eprintln!("ptx2sass fatal   : {} error(s) in '{path}'", d.error_count());
}

fn print_summary(m: &Module) {
    let target = m.target.as_ref().and_then(|t| t.sm()).map_or("?".to_string(), |s| s.to_string());
    for item in &m.items {
        if let Item::Function(f) = item {
            println!("{}", summary_line(m, f, &target));
        }
    }
}

fn summary_line(m: &Module, f: &Function, target: &str) -> String {
    let kind = match f.kind {
        FunctionKind::Entry => ".entry",
        FunctionKind::Func => ".func",
    };
    let params = f.params.as_ref().map_or(0, |p| p.len());
    let Some(body) = &f.body else {
        return format!("{}: {kind} declaration, {params} params, target {target}", m.names.name(f.name));
    };
    let (mut insts, mut regs, mut labels) = (0usize, 0u64, 0usize);
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        for s in &b.stmts {
            match s {
                Statement::Instruction(_) => insts += 1,
                Statement::Label(..) => labels += 1,
                Statement::Block(inner) => stack.push(inner),
                Statement::Variable(v) if v.space == ptx2sass::internals::ptx::ast::StateSpace::Reg => {
                    regs += v.declarators.iter().map(|d| d.range.map_or(1, u64::from)).sum::<u64>();
                }
                _ => {}
            }
        }
    }
    format!(
        "{}: {kind}, {params} params, {insts} instructions, {labels} labels, {regs} virtual registers, target {target}",
        m.names.name(f.name)
    )
}
