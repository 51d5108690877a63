//! [`compile`]: PTX text or an Ori module in, a cubin and what its kernels
//! use out; and [`disassemble`], a cubin's SASS as text.
//!
//! Both are guarded: a stage that fails where it never should (a bug)
//! comes back as an [`ErrorKind::Internal`] error, not a panic in the
//! caller.

use super::error::{Diagnostic, Error, ErrorKind, Location};
use super::options::Options;
use super::target::Target;
use crate::diag::LineMap;
use crate::driver::{self, CodegenOptions, StageError};
use crate::ir::verify::{Stage as VerifyStage, verify_module};
use crate::ptx::CheckOptions;
use crate::target::{Arch, Sm};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What [`compile`] compiles: PTX text or an Ori module built with
/// [`ori`](crate::ori). Both convert into it (`compile(ptx, …)`,
/// `compile(&module, …)`).
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// PTX text: a whole module (`.version`, `.target`, functions).
    Ptx(&'a str),
    /// A module built in memory.
    Ori(&'a crate::ori::Module),
}

impl<'a> From<&'a str> for Input<'a> {
    fn from(ptx: &'a str) -> Self {
        Input::Ptx(ptx)
    }
}

impl<'a> From<&'a String> for Input<'a> {
    fn from(ptx: &'a String) -> Self {
        Input::Ptx(ptx)
    }
}

impl<'a> From<&'a crate::ori::Module> for Input<'a> {
    fn from(module: &'a crate::ori::Module) -> Self {
        Input::Ori(module)
    }
}

/// What one kernel uses, as `ptxas -v` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct KernelInfo {
    /// The kernel's name (its symbol in the cubin).
    pub name: String,
    /// General registers per thread.
    pub registers: u32,
    /// Bytes of spill stores (to local memory).
    pub spill_store_bytes: u32,
    /// Bytes of spill loads.
    pub spill_load_bytes: u32,
    /// Bytes of stack frame per thread.
    pub stack_bytes: u32,
    /// Bytes of static shared memory per block.
    pub shared_bytes: u64,
    /// Named barriers.
    pub barriers: u32,
    /// Bytes of constant bank 0 (the driver's area and the parameters).
    pub constant_bank0_bytes: u32,
    /// Bytes of the kernel's constant bank 2 (constants its code reads
    /// from there; 0 when it has none).
    pub constant_bank2_bytes: u32,
    /// SASS instructions (the end marker and padding excluded).
    pub instructions: usize,
}

/// The result of a compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Output {
    /// The target compiled for.
    pub target: Target,
    /// The cubin (an ELF file for the CUDA driver); empty for a virtual
    /// target, which only checks.
    pub cubin: Vec<u8>,
    /// The kernels in source order.
    pub kernels: Vec<KernelInfo>,
    /// Warnings (none when [`Options::warnings`] is off).
    pub warnings: Vec<Diagnostic>,
    /// Bytes of `.global` variables.
    pub global_bytes: u64,
    /// Bytes of `.const` variables (constant bank 3).
    pub const_bytes: u64,
    info: String,
}

impl Output {
    /// With [`Options::verbose`], the `ptxas -v` report (the `ptx2sass
    /// -v` tool's, byte for byte but for its compile-time lines: `ptxas
    /// info    : Used 10 registers, …`); otherwise empty.
    pub fn info_log(&self) -> &str {
        &self.info
    }

    /// Whether this is a check without code (a virtual target).
    pub fn is_check_only(&self) -> bool {
        self.target.is_virtual()
    }

    fn check_only(target: Target, warnings: Vec<Diagnostic>) -> Output {
        Output { target, cubin: Vec::new(), kernels: Vec::new(), warnings, global_bytes: 0, const_bytes: 0, info: String::new() }
    }
}

/// Compiles PTX text or an Ori module for `options.target`.
///
/// For a real SM the output holds the cubin, byte for byte what the
/// `ptx2sass` tool writes for the same input and options; for a virtual
/// `compute_XX` target the input is checked and no code is generated.
/// The output depends only on the input and the options (not on the
/// thread count or the machine).
///
/// Errors: [`ErrorKind::InvalidPtx`] when the PTX does not parse or
/// check (every problem found, located);
/// [`ErrorKind::UnsupportedPtxVersion`] when its `.version` is newer than
/// the newest ptx2sass reads ([`PTX_ISA_VERSIONS`](crate::PTX_ISA_VERSIONS));
/// [`ErrorKind::InvalidModule`]
/// for an Ori module that is not well-formed; [`ErrorKind::Unsupported`]
/// when a stage does not handle a function (each such function, with the
/// stage); [`ErrorKind::InvalidOptions`] for an optimisation level above 3.
pub fn compile<'a>(input: impl Into<Input<'a>>, options: &Options) -> Result<Output, Error> {
    let input = input.into();
    guarded(|| match input {
        Input::Ptx(source) => compile_ptx(source, options),
        Input::Ori(module) => compile_ori(module, options),
    })
}

fn compile_ptx(source: &str, options: &Options) -> Result<Output, Error> {
    check_options(options)?;
    let arch = options.target.arch();
    let front_end = |d: &crate::diag::Diagnostics| {
        let map = LineMap::new(source);
        d.list.iter().map(|x| Diagnostic::from_front_end(x, &map, source)).collect::<Vec<_>>()
    };
    let module = crate::ptx::parse(source).map_err(|d| Error::new(ErrorKind::InvalidPtx, front_end(&d)))?;
    let check = CheckOptions { arch: Some(arch.sm()), resolve_calls: matches!(arch, Arch::Real(_)) };
    let mut warnings = match crate::ptx::check::check(&module, &check) {
        Ok(w) => front_end(&w),
        Err(d) => {
            let newer = module.version.is_some_and(|v| v.pair() > crate::ptx::check::MAX_PTX_VERSION);
            let kind = if newer { ErrorKind::UnsupportedPtxVersion } else { ErrorKind::InvalidPtx };
            return Err(Error::new(kind, front_end(&d)));
        }
    };
    let Arch::Real(sm) = arch else {
        return Ok(Output::check_only(options.target, filter_warnings(warnings, options)));
    };
    warnings.extend(option_warnings(options));
    let compiled = driver::compile_to_cubin(&module, sm, Some(source), pipeline(options), codegen(options)).map_err(stage_errors)?;
    Ok(output(compiled, sm, options, warnings))
}

fn compile_ori(module: &crate::ori::Module, options: &Options) -> Result<Output, Error> {
    check_options(options)?;
    let sm = options.target.arch().sm();
    let raw = module.to_ir(sm)?;
    verify_module(&raw, VerifyStage::Raw).map_err(|errors| {
        let diagnostics = errors
            .iter()
            .map(|e| {
                let loc = raw.function_by_name(&e.function).zip(e.inst).map(|(f, i)| raw.functions[f].locs[i]).filter(|l| l.line > 0);
                Diagnostic {
                    location: loc.map(|l| Location { line: l.line, column: l.col, span: None }),
                    function: Some(e.function.clone()),
                    ..Diagnostic::error(if e.text.is_empty() { e.message.clone() } else { format!("{} (`{}`)", e.message, e.text) })
                }
            })
            .collect();
        Error::new(ErrorKind::InvalidModule, diagnostics)
    })?;
    if options.target.is_virtual() {
        return Ok(Output::check_only(options.target, Vec::new()));
    }
    let virtual_sm = u32::from(sm.number);
    let compiled = driver::compile_lowered(raw, Vec::new(), virtual_sm, pipeline(options), codegen(options)).map_err(stage_errors)?;
    Ok(output(compiled, sm, options, option_warnings(options)))
}

fn check_options(options: &Options) -> Result<(), Error> {
    if options.opt_level > 3 {
        return Err(Error::options(format!("invalid optimisation level '{}' (0 to 3)", options.opt_level)));
    }
    Ok(())
}

/// The pipeline's options: contraction as `ptxas` decides it (`--fmad`,
/// not at `-O0` or with `-g`).
fn pipeline(options: &Options) -> driver::Options {
    driver::Options { verify: false, fma_contraction: options.fma_contraction && options.opt_level > 0 && !options.debug }
}

fn codegen(options: &Options) -> CodegenOptions {
    CodegenOptions { max_registers: options.max_registers, check: false, threads: options.threads, line_info: options.line_info || options.debug, device_debug: options.debug }
}

/// The warnings about options that change nothing yet.
fn option_warnings(options: &Options) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if options.debug {
        out.push(Diagnostic::warning("debug information (-g): line information and the PTX's DWARF sections are written, not the register maps (variables held in registers are not located), and the code is optimised"));
    }
    out
}

fn filter_warnings(warnings: Vec<Diagnostic>, options: &Options) -> Vec<Diagnostic> {
    if options.warnings { warnings } else { Vec::new() }
}

fn stage_errors(errors: Vec<StageError>) -> Error {
    Error::new(ErrorKind::Unsupported, errors.iter().map(Diagnostic::from_stage).collect())
}

fn output(compiled: driver::Compiled, sm: Sm, options: &Options, warnings: Vec<Diagnostic>) -> Output {
    let info = if options.verbose { crate::args::inert_notes(&options.ignored_options) + &compiled.verbose_report(sm, false) } else { String::new() };
    let kernels = compiled
        .kernels
        .iter()
        .map(|k| KernelInfo {
            name: k.name.clone(),
            registers: k.registers,
            spill_store_bytes: k.spill_store_bytes,
            spill_load_bytes: k.spill_load_bytes,
            stack_bytes: k.frame_bytes,
            shared_bytes: k.shared_bytes,
            barriers: k.barriers,
            constant_bank0_bytes: k.cbank0_bytes,
            constant_bank2_bytes: k.cbank2_bytes,
            instructions: k.instructions,
        })
        .collect();
    Output {
        target: options.target,
        cubin: compiled.cubin,
        kernels,
        warnings: filter_warnings(warnings, options),
        global_bytes: compiled.global_bytes,
        const_bytes: compiled.const_bytes,
        info,
    }
}

/// Lists a cubin's SASS: the kernel directives and each instruction with
/// its control codes, as the `sass dis` tool prints them (text that
/// `sass asm` turns back into the same cubin). The SM is read from the
/// cubin's header.
///
/// ```
/// # let ptx = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";
/// let output = ptx2sass::compile(ptx, &ptx2sass::Options::new("sm_90".parse()?))?;
/// let text = ptx2sass::disassemble(&output.cubin)?;
/// assert!(text.contains(".kernel k") && text.contains("EXIT"));
/// # Ok::<(), ptx2sass::Error>(())
/// ```
pub fn disassemble(cubin: &[u8]) -> Result<String, Error> {
    guarded(|| {
        let invalid = |message: String| Error::new(ErrorKind::InvalidCubin, vec![Diagnostic::error(message)]);
        let container = crate::cubin::elf::read(cubin).map_err(|e| invalid(format!("not a cubin: {e}")))?.elf;
        let sm = container
            .sm()
            .and_then(|n| Sm::parse_number(&n.to_string()))
            .ok_or_else(|| invalid("the cubin's header names no SM ptx2sass knows".into()))?;
        if crate::isa::family::measured_sm(sm).is_none() {
            return Err(invalid(format!("{sm} has no SASS tables (sm_75 and later do)")));
        }
        let mut out = String::new();
        crate::cubin::listing::write_cubin(&mut out, &container, cubin, sm, false);
        Ok(out)
    })
}

/// Runs `f`, turning a panic (a bug in a stage) into an internal error.
fn guarded<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a stage failed".to_string());
            Err(Error::new(ErrorKind::Internal, vec![Diagnostic::error(format!("internal error in ptx2sass: {what}"))]))
        }
    }
}
