//! The pass pipeline from checked PTX to a cubin (DESIGN.md, "Pipeline and
//! module map"): lowering, inlining, early and late legalization,
//! selection, register allocation and emission ([`compile_to_cubin`]), with
//! the IR verifier between the IR stages when asked (tests and debug builds
//! ask). [`compile_function`] and [`compile_module`] stop after selection.
//!
//! Each stage works one function at a time, so a kernel that uses an
//! operation the compiler does not handle yet fails alone; the error says
//! which stage refused it and why.

use crate::diag::{LineMap, Span};
use crate::ir::verify::{Stage as VerifyStage, verify_function};
use crate::ir::{self, FuncId, Function, Opcode};
use crate::legalize;
use crate::lower;
use crate::ptx::ast;
use crate::select::{self, MachFunction};
use crate::target::Sm;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A stage of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// PTX → raw Ori.
    Lower,
    /// Operation legalization (PTX-layer ops → SASS-layer ops).
    Legalize,
    /// Late expansions (division and other ops kept whole until now).
    LegalizeLate,
    /// Ori → machine instructions on virtual registers.
    Select,
    /// Register allocation.
    Regalloc,
    /// Scheduling, encoding and the cubin record of a kernel.
    Emit,
}

impl Stage {
    /// The stage's name (as `--dump-ir=<name>` and filetests spell it).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lower => "lower",
            Stage::Legalize => "legalize",
            Stage::LegalizeLate => "legalize-late",
            Stage::Select => "select",
            Stage::Regalloc => "regalloc",
            Stage::Emit => "emit",
        }
    }
}

/// Why a function did not get through a stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageError {
    /// The stage that refused it.
    pub stage: Stage,
    /// The function.
    pub function: String,
    /// What went wrong, with the source location where there is one.
    pub message: String,
    /// The PTX line of the instruction or declaration it is about (1-based;
    /// 0 when unknown).
    pub line: u32,
    /// Its column (1-based; 0 when unknown).
    pub column: u32,
    /// Its bytes in the PTX text, where the stage knows them (lowering).
    pub span: Option<Span>,
}

impl StageError {
    /// An error without a source location.
    pub fn new(stage: Stage, function: impl Into<String>, message: impl Into<String>) -> StageError {
        StageError { stage, function: function.into(), message: message.into(), line: 0, column: 0, span: None }
    }

    /// The same error at a source position.
    pub fn at(self, loc: ir::SrcLoc) -> StageError {
        StageError { line: loc.line, column: loc.col, ..self }
    }
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.stage.name(), self.function, self.message)
    }
}

impl std::error::Error for StageError {}

/// Pipeline options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Run the IR verifier after every stage (and the hazard checker on
    /// the final code).
    pub verify: bool,
    /// Contract multiplies and adds into fused multiply-adds where `ptxas`
    /// does ([`crate::opt::contract`]); `ptxas`'s `--fmad`, on by default.
    pub fma_contraction: bool,
}

impl Default for Options {
    /// No verification; contraction on, as `ptxas` compiles by default.
    fn default() -> Options {
        Options { verify: false, fma_contraction: true }
    }
}

/// Options of the stages after selection.
#[derive(Clone, Copy, Debug, Default)]
pub struct CodegenOptions {
    /// `--maxrregcount`: the most general registers a function may use.
    pub max_registers: Option<u32>,
    /// Run regalloc2's checker on every allocation.
    pub check: bool,
    /// Threads compiling kernels at the same time; `None` (the default)
    /// is the machine's available parallelism for a module of at least
    /// [`PARALLEL_MIN_INSTS`] instructions and the calling thread alone for
    /// a smaller one, `Some(1)` the calling thread only. The output does not
    /// depend on it.
    pub threads: Option<usize>,
    /// Write line information (`-lineinfo`, also `-g`): the tables mapping
    /// each instruction to its PTX line and its `.loc` source position
    /// ([`crate::cubin::line_info`]). Needs the PTX text.
    pub line_info: bool,
    /// `-g`: with the line information, every DWARF section of the PTX
    /// (nvcc `-G` output), as ptxas copies them whether or not the
    /// `.target` says `debug` ([`crate::cubin::line_info::with_dwarf`]).
    pub device_debug: bool,
}

/// The size of module (instructions of its kernels after lowering, all
/// together) from which [`CodegenOptions::threads`] `None` compiles kernels
/// on several threads. Below it a thread's start, and waking an idle CPU
/// for it, cost about as much as the parallel work saves: over the
/// corpus (`scripts/bench.sh` against `--threads 1`, a 2-CPU virtual
/// machine) files under about 500 lowered instructions compiled 5-20%
/// faster on one thread and larger ones 5-20% faster on two.
pub const PARALLEL_MIN_INSTS: usize = 500;

/// Lowers a checked module; `source` (the PTX text) gives instructions
/// their PTX line and column. Functions that do not lower are reported
/// and left as declarations.
pub fn lower(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options) -> (ir::Module, Vec<StageError>) {
    lower_naming(module, sm, source, options, false)
}

/// [`lower`], recording the PTX register of each value when
/// `name_registers` (`-g`'s register maps).
fn lower_naming(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options, name_registers: bool) -> (ir::Module, Vec<StageError>) {
    let lowered = if name_registers { lower::lower_module_naming_registers(module, sm, source) } else { lower::lower_module_partial(module, sm, source) };
    let lines = source.filter(|_| !lowered.errors.is_empty()).map(|s| (s, LineMap::new(s)));
    let mut errors: Vec<StageError> = lowered
        .errors
        .iter()
        .map(|e| {
            let (line, column) = lines.as_ref().map_or((0, 0), |(s, map)| map.line_col(s, e.span.start));
            StageError { line, column, span: Some(e.span), ..StageError::new(Stage::Lower, e.function.clone(), e.to_string()) }
        })
        .collect();
    if options.verify {
        for (_, f) in lowered.module.functions.iter().filter(|(_, f)| !f.layout.is_empty()) {
            if let Err(errs) = verify_function(&lowered.module, f, VerifyStage::Raw) {
                errors.push(verifier_error(Stage::Lower, f, &errs));
            }
        }
    }
    (lowered.module, errors)
}

fn verifier_error(stage: Stage, f: &Function, errs: &[ir::verify::VerifyError]) -> StageError {
    let first = errs.first().map(ToString::to_string).unwrap_or_default();
    StageError::new(stage, f.name.clone(), format!("IR verifier ({} problems), first: {first}", errs.len()))
}

/// Legalizes one function of a raw module (early, then late), verifying
/// the result when asked; multiplies and adds are contracted first when
/// [`Options::fma_contraction`] asks.
pub fn legalize_function(raw: &ir::Module, id: FuncId, options: Options) -> Result<Function, StageError> {
    let mut func = &raw.functions[id];
    let contracted;
    if options.fma_contraction {
        let mut f = func.clone();
        if crate::opt::contract::contract_mul_add(&mut f) > 0 {
            contracted = f;
            func = &contracted;
        }
    }
    let sm = raw.sm;
    let fail = |stage, e: legalize::LegalizeError| StageError::new(stage, func.name.clone(), e.to_string()).at(e.loc);
    let early = legalize::legalize(func, sm).map_err(|e| fail(Stage::Legalize, e))?;
    if options.verify {
        verify_function(raw, &early, VerifyStage::Legal).map_err(|errs| verifier_error(Stage::Legalize, &early, &errs))?;
    }
    let mut late = legalize::legalize_late(&early, sm).map_err(|e| fail(Stage::LegalizeLate, e))?;
    crate::opt::special_registers::reuse_special_register_reads(&mut late, sm);
    if options.verify {
        verify_function(raw, &late, VerifyStage::Legal).map_err(|errs| verifier_error(Stage::LegalizeLate, &late, &errs))?;
    }
    Ok(late)
}

/// Selects machine instructions for a legalized function.
pub fn select_function(func: &Function, sm: Sm) -> Result<MachFunction, StageError> {
    select::select_function(func, sm).map_err(|e| StageError::new(Stage::Select, func.name.clone(), e.to_string()).at(e.loc))
}

/// The device functions (indices) that `root`'s calls reach, directly or
/// not, in the order the calls are first met: depth first, each
/// function's calls in code order.
fn calls_in_order(module: &ir::Module, root: FuncId) -> Vec<u32> {
    use crate::ir::entity::EntityRef;
    let mut order = Vec::new();
    let mut seen = BTreeSet::from([root]);
    let mut stack = vec![(root, 0usize)];
    while let Some((id, at)) = stack.pop() {
        let f = &module.functions[id];
        let callees = f.layout.iter().flat_map(|&b| f.blocks[b].insts.iter()).map(|&i| &f.insts[i]).filter(|d| d.opcode == Opcode::Call || d.opcode == Opcode::FuncAddr);
        let next = callees.enumerate().skip(at).find_map(|(k, d)| {
            let callee = FuncId::new(usize::try_from(d.imm).ok()?);
            (module.functions.is_valid(callee) && !seen.contains(&callee)).then_some((k, callee))
        });
        if let Some((k, callee)) = next {
            seen.insert(callee);
            order.push(callee.index() as u32);
            stack.push((id, k + 1));
            stack.push((callee, 0));
        }
    }
    order
}

/// The functions a function reaches through calls and function addresses,
/// itself included, in increasing index order.
pub fn call_closure(module: &ir::Module, root: FuncId) -> Vec<FuncId> {
    use crate::ir::entity::EntityRef;
    let mut seen = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let f = &module.functions[id];
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                // A function whose address is taken is placed in the
                // section too (its address is its offset there).
                if data.opcode == Opcode::Call || data.opcode == Opcode::FuncAddr {
                    if let Ok(index) = usize::try_from(data.imm) {
                        let callee = FuncId::new(index);
                        if module.functions.is_valid(callee) {
                            stack.push(callee);
                        }
                    }
                }
            }
        }
    }
    seen.into_iter().collect()
}

/// A function through every stage: its machine form, or the first stage
/// that refused it.
pub fn compile_function(raw: &ir::Module, id: FuncId, options: Options) -> Result<MachFunction, StageError> {
    use crate::ir::entity::EntityRef;
    let legal = legalize_function(raw, id, options)?;
    let mut mach = select_function(&legal, raw.sm)?;
    // Calls of functions without a body follow NVIDIA's convention.
    mach.mark_external_calls(|callee| raw.functions.get(FuncId::new(callee as usize)).is_some_and(|f| f.layout.is_empty()));
    Ok(mach)
}

/// The device functions a kernel's calls reach (inlining left them:
/// recursion), each through every stage to allocated code, with its
/// function index; emission places them in the kernel's section.
pub fn allocate_callees(raw: &ir::Module, kernel: FuncId, options: Options, codegen: CodegenOptions) -> Result<Vec<(u32, crate::regalloc::Allocated)>, StageError> {
    use crate::ir::entity::EntityRef;
    let mut out = Vec::new();
    for id in call_closure(raw, kernel) {
        if id == kernel || raw.functions[id].layout.is_empty() {
            continue;
        }
        let mach = compile_function(raw, id, options)?;
        out.push((id.index() as u32, allocate_function(&mach, codegen)?));
    }
    Ok(out)
}

/// Every stage for every defined function of a checked module: the
/// machine functions (by the raw module's function order; `None` for
/// declarations and failures) and the errors.
pub fn compile_module(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options) -> (Vec<Option<MachFunction>>, Vec<StageError>) {
    let (raw, mut errors) = lower(module, sm, source, options);
    let failed: BTreeSet<String> = errors.iter().map(|e| e.function.clone()).collect();
    let mut out = Vec::with_capacity(raw.functions.len());
    for (id, f) in raw.functions.iter() {
        if f.layout.is_empty() || failed.contains(&f.name) {
            out.push(None);
            continue;
        }
        match compile_function(&raw, id, options) {
            Ok(m) => out.push(Some(m)),
            Err(e) => {
                errors.push(e);
                out.push(None);
            }
        }
    }
    (out, errors)
}

/// One kernel of a compiled module, with what `ptxas -v` reports of it.
#[derive(Clone, Debug)]
pub struct KernelReport {
    /// The kernel.
    pub name: String,
    /// Registers (as the cubin records them).
    pub registers: u32,
    /// Named barriers.
    pub barriers: u32,
    /// Local frame bytes.
    pub frame_bytes: u32,
    /// Spill stores, bytes.
    pub spill_store_bytes: u32,
    /// Spill loads, bytes.
    pub spill_load_bytes: u32,
    /// Static shared memory bytes.
    pub shared_bytes: u64,
    /// Bytes of constant bank 0 the kernel uses (driver area and parameters).
    pub cbank0_bytes: u32,
    /// Bytes of the kernel's constant bank 2.
    pub cbank2_bytes: u32,
    /// Instructions, the end marker and padding excluded.
    pub instructions: usize,
    /// The kernel's code words (end marker and padding included).
    pub words: Vec<u128>,
    /// Whether the stack it needs has no static bound (recursion, or a
    /// call through a register).
    pub stack_unbounded: bool,
    /// The device functions compiled with it (calls not inlined).
    pub functions: Vec<FunctionReport>,
    /// Milliseconds spent compiling it (its stages; the module's lowering
    /// is counted with the kernel `-v` lists first): `-v`'s one figure
    /// that differs from run to run (the cubin never does).
    pub compile_ms: f64,
}

/// A device function compiled with a kernel, with what `ptxas -v` reports
/// of it.
#[derive(Clone, Debug)]
pub struct FunctionReport {
    /// The function's PTX name.
    pub name: String,
    /// Its own frame bytes.
    pub frame_bytes: u32,
    /// Spill stores, bytes.
    pub spill_store_bytes: u32,
    /// Spill loads, bytes.
    pub spill_load_bytes: u32,
}

/// A compiled module.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The cubin's bytes.
    pub cubin: Vec<u8>,
    /// Its kernels in PTX order.
    pub kernels: Vec<KernelReport>,
    /// Bytes of `.global` variables.
    pub global_bytes: u64,
    /// Bytes of constant bank 3 (`.const` variables).
    pub const_bytes: u64,
    /// Bytes of constant bank 4 (addresses of globals the code loads).
    pub address_bytes: u64,
}

impl Compiled {
    /// The warnings ptxas prints whether or not `-v` is given, before its
    /// report: each kernel whose stack cannot be bounded, then (with
    /// `--warn-on-spills`) each kernel and device function that spills,
    /// kernels in ptxas's order ([`Compiled::verbose_report`]), each line
    /// ending with a line break (ptxas 13.5's wording).
    pub fn warnings(&self, warn_on_spills: bool) -> String {
        let mut out = String::new();
        for k in self.kernels.iter().rev().filter(|k| k.stack_unbounded) {
            out.push_str(&format!("ptxas warning : Stack size for entry function '{}' cannot be statically determined\n", k.name));
        }
        if warn_on_spills {
            let mut warned: Vec<&str> = Vec::new();
            for k in self.kernels.iter().rev() {
                let own = std::iter::once((k.name.as_str(), k.spill_store_bytes, k.spill_load_bytes));
                let functions = k.functions.iter().map(|f| (f.name.as_str(), f.spill_store_bytes, f.spill_load_bytes));
                for (name, stores, loads) in own.chain(functions) {
                    if (stores > 0 || loads > 0) && !warned.contains(&name) {
                        warned.push(name);
                        out.push_str(&format!("ptxas warning : Registers are spilled to local memory in function '{name}', {stores} bytes spill stores, {loads} bytes spill loads\n"));
                    }
                }
            }
        }
        out
    }

    /// The `ptxas -v` report (ptxas 13.5's wording and order, measured):
    /// the module's global bytes; then per kernel, the last in the PTX
    /// first (ptxas's order), its entry line, frame and spills, registers,
    /// barriers, shared memory (when there is some), stack (with a frame)
    /// and constant banks (before sm_90 only), its compile time, and the
    /// frame and spills of each device function compiled with it. Each
    /// line ends with a line break. Without `with_times` the compile-time
    /// lines are left out (the report is then the same on every run).
    pub fn verbose_report(&self, sm: Sm, with_times: bool) -> String {
        let mut out = format!("ptxas info    : {} bytes gmem", self.global_bytes);
        // From sm_90 on ptxas names no constant bank in -v (its cubin has
        // banks 3 and 4 all the same; measured on sm_90, 100, 120).
        if self.const_bytes > 0 && sm.number < 90 {
            out.push_str(&format!(", {} bytes cmem[3]", self.const_bytes));
        }
        if self.address_bytes > 0 && sm.number < 90 {
            out.push_str(&format!(", {} bytes cmem[4]", self.address_bytes));
        }
        out.push('\n');
        for k in self.kernels.iter().rev() {
            out.push_str(&format!("ptxas info    : Compiling entry function '{}' for '{sm}'\n", k.name));
            out.push_str(&properties(&k.name, k.frame_bytes, k.spill_store_bytes, k.spill_load_bytes));
            let mut used = format!("ptxas info    : Used {} registers, used {} barriers", k.registers, k.barriers);
            if k.shared_bytes > 0 {
                used.push_str(&format!(", {} bytes smem", k.shared_bytes));
            }
            if k.frame_bytes > 0 {
                used.push_str(&format!(", {} bytes cumulative stack size", k.frame_bytes));
            }
            if sm.number < 90 {
                used.push_str(&format!(", {} bytes cmem[0]", k.cbank0_bytes));
                // Bank 2 only where the kernel has one (ptxas 13.5:
                // "368 bytes cmem[0], 8 bytes cmem[2]" on sm_80).
                if k.cbank2_bytes > 0 {
                    used.push_str(&format!(", {} bytes cmem[2]", k.cbank2_bytes));
                }
            }
            out.push_str(&used);
            out.push('\n');
            if with_times {
                out.push_str(&format!("ptxas info    : Compile time = {:.3} ms\n", k.compile_ms));
            }
            for f in &k.functions {
                out.push_str(&properties(&f.name, f.frame_bytes, f.spill_store_bytes, f.spill_load_bytes));
            }
        }
        out
    }
}

/// `-v`'s two lines of a function's frame and spills.
fn properties(name: &str, frame: u32, stores: u32, loads: u32) -> String {
    format!("ptxas info    : Function properties for {name}\n    {frame} bytes stack frame, {stores} bytes spill stores, {loads} bytes spill loads\n")
}

/// Allocates registers for a selected function.
pub fn allocate_function(mach: &MachFunction, options: CodegenOptions) -> Result<crate::regalloc::Allocated, StageError> {
    let ra = crate::regalloc::RegallocOptions { max_registers: options.max_registers, check: options.check };
    crate::regalloc::allocate(mach, &ra).map_err(|e| StageError::new(Stage::Regalloc, mach.name.clone(), e.to_string()))
}

/// Compiles a checked module to a cubin: every kernel through every stage.
/// Calls of device functions are inlined first ([`crate::opt::inline`]);
/// the device functions a kernel still calls (recursion) are compiled
/// with it and placed in its section ([`allocate_callees`]). Errors name
/// the stage and the function.
pub fn compile_to_cubin(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options, codegen: CodegenOptions) -> Result<Compiled, Vec<StageError>> {
    let started = std::time::Instant::now();
    let (raw, errors) = lower_naming(module, sm, source, options, codegen.device_debug && codegen.line_info && source.is_some());
    let virtual_sm = module.target.as_ref().and_then(|t| t.sm()).map_or(u32::from(sm.number), |s| u32::from(s.number));
    let lines = source.filter(|_| codegen.line_info).map(|ptx| LineSource { ptx, files: source_files(module), entries: entry_positions(module, ptx) });
    let lowering_ms = started.elapsed().as_secs_f64() * 1000.0;
    compile_lowered_with_lines(raw, errors, virtual_sm, options, codegen, lines, lowering_ms)
}

/// What line information is written from besides the code: the PTX text
/// and its `.file` directives.
struct LineSource<'a> {
    ptx: &'a str,
    files: Vec<crate::cubin::line_info::SourceFile>,
    /// Each function's entry position ([`entry_positions`]).
    entries: std::collections::HashMap<String, crate::cubin::line_info::Position>,
}

/// Each function's entry position: the PTX line of its body's `{` and
/// the first `.loc` of the body (ptxas's first row of a function, and of
/// the instructions it adds at the start, measured).
fn entry_positions(module: &ast::Module, source: &str) -> std::collections::HashMap<String, crate::cubin::line_info::Position> {
    fn first_loc(stmts: &[ast::Statement]) -> Option<&ast::LocDirective> {
        stmts.iter().find_map(|s| match s {
            ast::Statement::Loc(l) => Some(l),
            ast::Statement::Block(b) => first_loc(&b.stmts),
            _ => None,
        })
    }
    let map = LineMap::new(source);
    let mut out = std::collections::HashMap::new();
    for item in &module.items {
        let ast::Item::Function(f) = item else { continue };
        let Some(body) = &f.body else { continue };
        let (ptx_line, _) = map.line_col(source, body.loc.span().start);
        let first = first_loc(&body.stmts);
        let (file, line) = first.map_or((0, 0), |l| (l.file, l.line));
        // A call site of the body's first `.loc` is outside the body: no
        // `.loc` of it is known here.
        let mut inlined = ir::function::InlineChain::default();
        if let Some(l) = first.filter(|l| l.inlined_at.is_some()) {
            inlined.loc = map.line_col(source, l.loc.span().start).0;
            if let Some((file, line, _)) = l.inlined_at {
                inlined.sites[0] = ir::function::CallSite { file, line, loc: 0 };
            }
        }
        out.insert(module.names.name(f.name).to_string(), crate::cubin::line_info::Position { ptx_line, file, line, inlined });
    }
    out
}

/// The `.file` directives of a module.
fn source_files(module: &ast::Module) -> Vec<crate::cubin::line_info::SourceFile> {
    module
        .items
        .iter()
        .filter_map(|item| match item {
            ast::Item::File(f) => {
                let (timestamp, size) = f.timestamp_size.unwrap_or((0, 0));
                Some(crate::cubin::line_info::SourceFile { index: f.index, name: f.name.clone(), timestamp, size })
            }
            _ => None,
        })
        .collect()
}

/// The stages after lowering, for a raw module (lowering's output, or
/// one built with [`crate::ir::FunctionBuilder`] and verified): inlining,
/// then every kernel through every stage to the cubin, as
/// [`compile_to_cubin`] does. `errors` are lowering's (their functions are
/// skipped and the errors returned with the others); `virtual_sm` is the
/// PTX target the cubin records.
pub fn compile_lowered(raw: ir::Module, errors: Vec<StageError>, virtual_sm: u32, options: Options, codegen: CodegenOptions) -> Result<Compiled, Vec<StageError>> {
    compile_lowered_with_lines(raw, errors, virtual_sm, options, codegen, None, 0.0)
}

/// `lowering_ms`: the time lowering took, counted in `-v` with the kernel
/// it lists first.
fn compile_lowered_with_lines(mut raw: ir::Module, mut errors: Vec<StageError>, virtual_sm: u32, options: Options, codegen: CodegenOptions, lines: Option<LineSource>, lowering_ms: f64) -> Result<Compiled, Vec<StageError>> {
    use crate::emit::{self, EmitOptions, variables::Variables};
    let sm = raw.sm;
    // The device functions each kernel's calls reach before inlining: the
    // function-scope shared variables of all of them are in its shared
    // window (emit::variables), inlined or called. Only looked for where
    // a device function declares a shared variable.
    let device_shared = raw.globals.iter().any(|(_, g)| g.space == ir::Space::Shared && g.owner.is_some_and(|f| raw.functions.get(f).is_some_and(|f| f.kind != Some(ir::FunctionKind::Kernel))));
    let reached: BTreeMap<FuncId, Vec<u32>> = if device_shared {
        raw.functions
            .iter()
            .filter(|(_, f)| f.kind == Some(ir::FunctionKind::Kernel))
            .map(|(id, _)| (id, calls_in_order(&raw, id)))
            .collect()
    } else {
        BTreeMap::new()
    };
    crate::opt::inline::inline_calls(&mut raw);
    let kernel_ids: Vec<FuncId> = raw
        .functions
        .iter()
        .filter(|(_, f)| f.kind == Some(ir::FunctionKind::Kernel) && !f.layout.is_empty() && !errors.iter().any(|e| e.function == f.name))
        .map(|(id, _)| id)
        .collect();
    // Every stage sees one kernel at a time, so kernels are compiled on
    // worker threads, in two rounds: legalization, selection and
    // allocation; then, once the module-wide bank 4 slots are given out in
    // kernel order (so the cubin does not depend on timing), scheduling
    // and encoding.
    let alloc_options = CodegenOptions { check: codegen.check || options.verify, ..codegen };
    let threads = codegen.threads.unwrap_or_else(|| {
        let size: usize = kernel_ids.iter().map(|&id| raw.functions[id].insts.len()).sum();
        if size >= PARALLEL_MIN_INSTS { crate::parallel::default_threads() } else { 1 }
    });
    type Section = (crate::regalloc::Allocated, Vec<(u32, crate::regalloc::Allocated)>);
    let ms = |since: std::time::Instant| since.elapsed().as_secs_f64() * 1000.0;
    let allocated: Vec<(Result<Section, StageError>, f64)> = crate::parallel::map(&kernel_ids, threads, |&id| {
        let started = std::time::Instant::now();
        let section = (|| {
            emit::check_external_calls(&raw, &call_closure(&raw, id)).map_err(|e| StageError::new(Stage::Emit, e.function, e.message))?;
            let mach = compile_function(&raw, id, options)?;
            // The kernel's launch bounds limit its registers (and those of
            // the functions it calls, which run on its registers).
            let limit = crate::regalloc::launch_register_limit(&raw.functions[id].bounds, sm);
            // `setmaxnreg` lowers it further and fixes the declared count.
            let changes = crate::regalloc::register_count_changes(&raw.functions[id], limit)
                .map_err(|(message, loc)| StageError::new(Stage::Regalloc, raw.functions[id].name.clone(), message).at(loc))?;
            let limit = changes.map_or(limit, |c| Some(c.limit));
            let max_registers = crate::regalloc::tightest_limit([alloc_options.max_registers, limit]);
            let alloc_options = CodegenOptions { max_registers, ..alloc_options };
            let mut alloc = allocate_function(&mach, alloc_options)?;
            alloc.declared_registers = changes.map(|c| c.declared);
            if !mach.register_names.is_empty() {
                alloc.register_naming = Some(Box::new(emit::register_maps::naming(&mach)));
            }
            let callees = allocate_callees(&raw, id, options, alloc_options)?;
            Ok((alloc, callees))
        })();
        (section, ms(started))
    });
    let (allocated, mut times): (Vec<Result<Section, StageError>>, Vec<f64>) = allocated.into_iter().unzip();
    let mut vars = Variables::new(&raw);
    let mut reserved = Vec::with_capacity(allocated.len());
    for section in allocated {
        reserved.push(section.and_then(|(alloc, callees)| {
            emit::reserve_slots(&mut vars, &raw, &alloc, &callees).map_err(|e| StageError::new(Stage::Emit, e.function, e.message))?;
            Ok((alloc, callees))
        }));
    }
    let emit_options = EmitOptions { check_hazards: options.verify };
    let jobs: Vec<(FuncId, Result<Section, StageError>)> = kernel_ids.iter().copied().zip(reserved).collect();
    let emitted = crate::parallel::map(&jobs, threads, |(id, section)| {
        let started = std::time::Instant::now();
        let (alloc, callees) = section.as_ref().map_err(Clone::clone)?;
        let k = emit::emit_kernel(alloc, &raw.functions[*id], &raw, &vars, callees, reached.get(id).map_or(&[][..], Vec::as_slice), emit_options).map_err(|e| StageError::new(Stage::Emit, e.function, e.message))?;
        Ok((k, ms(started)))
    });
    // The module's lowering counts with the kernel -v lists first (the
    // last one).
    if let Some(last) = times.last_mut() {
        *last += lowering_ms;
    }
    let mut kernels = Vec::new();
    let mut positions = Vec::new();
    let mut windows = Vec::new();
    let mut reports = Vec::new();
    let mut register_maps = Vec::new();
    for (((&id, result), (_, section)), allocating_ms) in kernel_ids.iter().zip(emitted).zip(&jobs).zip(times) {
        let f = &raw.functions[id];
        match result {
            Ok((k, emitting_ms)) => {
                let functions = section
                    .as_ref()
                    .map(|(_, callees)| {
                        callees
                            .iter()
                            .map(|(_, a)| FunctionReport { name: a.name.clone(), frame_bytes: a.frame_bytes, spill_store_bytes: a.spill_stores, spill_load_bytes: a.spill_loads })
                            .collect()
                    })
                    .unwrap_or_default();
                let params_end = f.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
                reports.push(KernelReport {
                    name: f.name.clone(),
                    registers: k.kernel.registers,
                    barriers: k.kernel.barriers,
                    frame_bytes: k.kernel.frame_size,
                    spill_store_bytes: k.spill_store_bytes,
                    spill_load_bytes: k.spill_load_bytes,
                    shared_bytes: k.kernel.shared_bytes,
                    cbank0_bytes: crate::cubin::module::param_base(u32::from(sm.number)) + params_end,
                    cbank2_bytes: k.kernel.constant2.len() as u32,
                    instructions: k.code.body,
                    words: k.code.words.clone(),
                    stack_unbounded: k.kernel.min_stack_size == crate::emit::UNBOUNDED_STACK,
                    functions,
                    compile_ms: allocating_ms + emitting_ms,
                });
                if let Some(source) = &lines {
                    let at = |l: &ir::SrcLoc| {
                        let inlined = (l.inlined_at as usize).checked_sub(1).and_then(|k| raw.inline_chains.get(k)).copied().unwrap_or_default();
                        crate::cubin::line_info::Position { ptx_line: l.line, file: l.debug_file, line: l.debug_line, inlined }
                    };
                    let mut entries: Vec<(usize, crate::cubin::line_info::Position)> = source.entries.get(&f.name).map(|p| (0, *p)).into_iter().collect();
                    for p in &k.code.functions {
                        let name = raw.functions.get(<FuncId as crate::ir::entity::EntityRef>::new(p.callee as usize)).map(|c| c.name.as_str()).unwrap_or("");
                        if let Some(e) = source.entries.get(name) {
                            entries.push((p.offset as usize / 16, *e));
                        }
                    }
                    positions.push((k.code.locs.iter().map(at).collect::<Vec<_>>(), entries));
                    if let Some(map) = section.as_ref().ok().and_then(|(alloc, _)| emit::register_maps::function_map(&f.name, alloc, &k.code, sm)) {
                        register_maps.push(map);
                    }
                    windows.push(k.shared);
                }
                kernels.push(k.kernel);
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let global_bytes = vars.global_bytes;
    let const_bytes = vars.constants.iter().map(|v| v.offset + v.size).max().unwrap_or(0);
    let address_bytes = 8 * vars.global_addresses.len() as u64;
    let mut cubin_module = emit::module(sm, virtual_sm, kernels, vars);
    if let Some(source) = lines {
        // One sequence per kernel section, in the sections' order.
        let sections: Vec<crate::cubin::line_info::SectionLines> = cubin_module.kernels.iter().zip(positions).map(|(k, (positions, entries))| crate::cubin::line_info::SectionLines { symbol: k.name.clone(), positions, entries }).collect();
        // A shared variable's address is the one it has in the first
        // kernel whose code uses it (ptxas lays shared variables out once
        // for the module; this compiler per kernel).
        let shared = raw
            .globals
            .iter()
            .filter(|(_, g)| g.space == ir::Space::Shared)
            .filter_map(|(id, g)| windows.iter().find_map(|w| w.offset(crate::ir::entity::EntityRef::index(id) as u32)).map(|at| (g.name.clone(), u64::from(at))))
            .collect();
        let placed = crate::cubin::debug_info::Placed { shared };
        cubin_module.line_info = crate::cubin::line_info::with_dwarf(&source.files, &sections, source.ptx, codegen.device_debug, &placed).map_err(|e| vec![StageError::new(Stage::Emit, String::new(), e)])?;
        if codegen.device_debug && !register_maps.is_empty() {
            // ptxas's order: after the PTX text, before the copied DWARF.
            let (sass, types) = crate::cubin::register_maps::encode(&register_maps).map_err(|e| vec![StageError::new(Stage::Emit, String::new(), e)])?;
            let at = cubin_module.line_info.iter().position(|d| d.name == ".nv_debug_ptx_txt").map_or(cubin_module.line_info.len(), |k| k + 1);
            let section = |name: &str, bytes| crate::cubin::module::DebugSection { name: name.into(), bytes, relocations: Vec::new(), parameters: Vec::new() };
            cubin_module.line_info.splice(at..at, [section(".nv_debug_info_reg_sass", sass), section(".nv_debug_info_reg_type", types)]);
        }
        // e_flags' top byte with line information (ptxas 13.5, sm_80 to
        // sm_120; what the bits mean is not known).
        cubin_module.flags_top = 0x09;
    }
    let elf = crate::cubin::module::build(&cubin_module).map_err(|e| vec![StageError::new(Stage::Emit, String::new(), format!("cubin: {e}"))])?;
    Ok(Compiled { cubin: crate::cubin::elf::write(&elf), kernels: reports, global_bytes, const_bytes, address_bytes })
}
