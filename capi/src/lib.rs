//! NVIDIA's PTX compiler library interface (`nvPTXCompiler.h`: create a
//! compiler for a PTX program, compile it with `ptxas` option strings,
//! read the cubin and the logs, destroy it) implemented with ptx2sass, as
//! a static library (`libptx2sass_capi.a`) and a shared one
//! (`libptx2sass_capi.so`). A C or C++ program written against NVIDIA's
//! header links against either in place of `libnvptxcompiler_static.a`
//! unchanged; `include/nvPTXCompiler.h` here declares the same functions
//! for programs built without NVIDIA's header.
//!
//! The crate uses the ptx2sass crate-root interface only
//! ([`ptx2sass::compile`], [`ptx2sass::Options::from_ptxas_args`]), so a
//! cubin from `nvPTXCompilerCompile` is, byte for byte, the one the
//! `ptx2sass` tool writes for the same file and options.
//!
//! # Semantics
//!
//! * Every function returns an `nvPTXCompileResult` and never unwinds
//!   into C: a failure inside ptx2sass is `NVPTXCOMPILE_ERROR_INTERNAL`.
//!   Null pointers are `NVPTXCOMPILE_ERROR_INVALID_INPUT`.
//! * A handle is an opaque token, never dereferenced: a null, destroyed
//!   or made-up handle is `NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE`
//!   (never a crash). One handle may be used from several threads; calls
//!   on it take turns.
//! * `nvPTXCompilerCompile` takes `ptxas`'s options (`--gpu-name=sm_90`,
//!   `-arch sm_90` as two strings, `-O3`, `--verbose`, `-lineinfo`,
//!   `--maxrregcount=N`, …); without `--gpu-name` the target is `sm_75`,
//!   as for `ptxas`. A virtual target (`compute_90`) checks the PTX and
//!   returns `NVPTXCOMPILE_PARSE_ONLY_SUCCESS` without a program.
//! * The logs are those of the last `nvPTXCompilerCompile` on the handle:
//!   the error log in `ptxas`'s words (`ptxas application ptx input, line
//!   7; error   : ...`), the info log with warnings and, with
//!   `--verbose`, the `ptxas -v` report. A log's size counts its
//!   terminating zero byte; an empty log has size 0 and its getter writes
//!   nothing.
//! * The compiled program is that of the last successful compile; after a
//!   failed one (or before any) its getters return
//!   `NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE`.
//! * `nvPTXCompilerGetVersion` gives 13.5: the `ptxas` release whose
//!   output and PTX ISA (up to 9.5) ptx2sass follows.
//! * A flow callback (`nvPTXCompilerSetFlowCallback`) is asked before and
//!   after the compilation; returning 1 cancels it
//!   (`NVPTXCOMPILE_ERROR_CANCELLED`, no program).

#![allow(non_camel_case_types, non_snake_case)]
#![deny(missing_docs)]

use ptx2sass::{ErrorKind, Options, Severity, compile};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The result of every function (`nvPTXCompileResult`), with NVIDIA's
/// values.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum nvPTXCompileResult {
    /// The call succeeded.
    NVPTXCOMPILE_SUCCESS = 0,
    /// The handle is null, destroyed or not one this library made.
    NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
    /// An argument is not valid (a null pointer, a negative count).
    NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
    /// The PTX or the options were refused; see the error log.
    NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
    /// A failure inside the library.
    NVPTXCOMPILE_ERROR_INTERNAL = 4,
    /// Memory ran out.
    NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
    /// No program: `nvPTXCompilerCompile` has not succeeded on the handle.
    NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
    /// The PTX's `.version` is newer than the library reads.
    NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
    /// Device-side synchronisation is not supported on the SM (not
    /// returned by this library).
    NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8,
    /// The flow callback cancelled the compilation.
    NVPTXCOMPILE_ERROR_CANCELLED = 9,
    /// The PTX was checked for a virtual target; there is no program.
    NVPTXCOMPILE_PARSE_ONLY_SUCCESS = 10,
}

use nvPTXCompileResult::*;

/// A compiler handle: an opaque token (`struct nvPTXCompiler *` in C).
pub type nvPTXCompilerHandle = *mut c_void;

/// A flow callback: called with the payload and a null pointer; 1 cancels.
pub type nvPTXCompilerFlowCallback = Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>;

/// The version `nvPTXCompilerGetVersion` reports.
pub const VERSION: (c_uint, c_uint) = (13, 5);

/// The file name in the error log's lines, as NVIDIA's library writes it.
const LOG_FILE_NAME: &str = "application ptx input";

/// One compiler: the PTX and the results of the last compilation.
#[derive(Default)]
struct Compiler {
    ptx: String,
    program: Option<Vec<u8>>,
    error_log: String,
    info_log: String,
    callback: Option<(unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int, usize)>,
}

/// The live handles: token → compiler. A token is never reused, so a
/// destroyed handle stays invalid.
struct Registry {
    next: usize,
    live: HashMap<usize, Arc<Mutex<Compiler>>>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    let r = REGISTRY.get_or_init(|| Mutex::new(Registry { next: 1, live: HashMap::new() }));
    // A panic while the lock was held left nothing half-done that
    // matters here (insert and remove are single steps).
    r.lock().unwrap_or_else(|e| e.into_inner())
}

/// The compiler of a handle.
fn lookup(handle: nvPTXCompilerHandle) -> Option<Arc<Mutex<Compiler>>> {
    registry().live.get(&(handle as usize)).cloned()
}

fn locked(c: &Mutex<Compiler>) -> MutexGuard<'_, Compiler> {
    c.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f`, turning a panic into `NVPTXCOMPILE_ERROR_INTERNAL`.
fn guard(f: impl FnOnce() -> nvPTXCompileResult) -> nvPTXCompileResult {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(NVPTXCOMPILE_ERROR_INTERNAL)
}

/// Runs `f` on the compiler of `handle`.
fn with_compiler(handle: nvPTXCompilerHandle, f: impl FnOnce(&mut Compiler) -> nvPTXCompileResult) -> nvPTXCompileResult {
    guard(|| match lookup(handle) {
        Some(c) => f(&mut locked(&c)),
        None => NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE,
    })
}

/// Writes the API version (13.5) to `major` and `minor`.
///
/// # Safety
/// `major` and `minor` are null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetVersion(major: *mut c_uint, minor: *mut c_uint) -> nvPTXCompileResult {
    guard(|| {
        if major.is_null() || minor.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        // SAFETY: both checked non-null; the caller gives writable ints.
        unsafe {
            *major = VERSION.0;
            *minor = VERSION.1;
        }
        NVPTXCOMPILE_SUCCESS
    })
}

/// Writes the number of PTX ISA versions read.
///
/// # Safety
/// `count` is null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetNumSupportedVersions(count: *mut c_int) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { write_count(count, ptx2sass::PTX_ISA_VERSIONS.len()) }
}

/// Writes the PTX ISA versions read, oldest first, as (major, minor)
/// rows of a `[count][2]` array.
///
/// # Safety
/// `versions` is null or valid for writing as many rows as
/// `nvPTXCompilerGetNumSupportedVersions` counts.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetSupportedVersions(versions: *mut [c_int; 2]) -> nvPTXCompileResult {
    guard(|| {
        if versions.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        for (n, &(major, minor)) in ptx2sass::PTX_ISA_VERSIONS.iter().enumerate() {
            // SAFETY: the caller sized the array by the count.
            unsafe { *versions.add(n) = [c_int::from(major), c_int::from(minor)] };
        }
        NVPTXCOMPILE_SUCCESS
    })
}

/// Writes the number of SMs code is generated for.
///
/// # Safety
/// `count` is null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetNumSupportedArchs(count: *mut c_int) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { write_count(count, ptx2sass::Target::code_generation_sms().count()) }
}

/// Writes the SM numbers code is generated for (75, 80, …), in increasing
/// order.
///
/// # Safety
/// `archs` is null or valid for writing as many ints as
/// `nvPTXCompilerGetNumSupportedArchs` counts.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetSupportedArchs(archs: *mut c_int) -> nvPTXCompileResult {
    guard(|| {
        if archs.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        for (n, sm) in ptx2sass::Target::code_generation_sms().enumerate() {
            // SAFETY: the caller sized the array by the count.
            unsafe { *archs.add(n) = c_int::from(sm) };
        }
        NVPTXCOMPILE_SUCCESS
    })
}

/// # Safety
/// `out` is null or valid for a write.
unsafe fn write_count(out: *mut c_int, n: usize) -> nvPTXCompileResult {
    guard(|| {
        if out.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        // SAFETY: checked non-null.
        unsafe { *out = c_int::try_from(n).unwrap_or(c_int::MAX) };
        NVPTXCOMPILE_SUCCESS
    })
}

/// Makes a compiler for the PTX program of `ptx_len` bytes at `ptx` (up
/// to its first zero byte, if it has one) and writes its handle to
/// `compiler`. Bytes that are not UTF-8 are read as U+FFFD.
///
/// # Safety
/// `compiler` is null or valid for a write; `ptx` is null or valid for
/// reading `ptx_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerCreate(compiler: *mut nvPTXCompilerHandle, ptx_len: usize, ptx: *const c_char) -> nvPTXCompileResult {
    guard(|| {
        if compiler.is_null() || (ptx.is_null() && ptx_len > 0) {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let bytes: &[u8] = if ptx_len == 0 {
            &[]
        } else {
            // SAFETY: non-null, and the caller gives `ptx_len` readable bytes.
            unsafe { std::slice::from_raw_parts(ptx.cast::<u8>(), ptx_len) }
        };
        let bytes = bytes.iter().position(|&b| b == 0).map_or(bytes, |end| &bytes[..end]);
        let state = Compiler { ptx: String::from_utf8_lossy(bytes).into_owned(), ..Compiler::default() };
        let token = {
            let mut r = registry();
            // Tokens are multiples of 16 (aligned like a pointer to a
            // struct), never 0.
            let token = r.next.wrapping_mul(16);
            r.next += 1;
            r.live.insert(token, Arc::new(Mutex::new(state)));
            token
        };
        // SAFETY: checked non-null.
        unsafe { *compiler = token as nvPTXCompilerHandle };
        NVPTXCOMPILE_SUCCESS
    })
}

/// Destroys the compiler `*compiler` and sets `*compiler` to null.
///
/// # Safety
/// `compiler` is null or valid for reading and writing a handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerDestroy(compiler: *mut nvPTXCompilerHandle) -> nvPTXCompileResult {
    guard(|| {
        if compiler.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        // SAFETY: checked non-null; the caller gives a readable handle.
        let handle = unsafe { *compiler };
        if registry().live.remove(&(handle as usize)).is_none() {
            return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
        }
        // SAFETY: as above, writable.
        unsafe { *compiler = std::ptr::null_mut() };
        NVPTXCOMPILE_SUCCESS
    })
}

/// Compiles the compiler's PTX with `count` option strings (`ptxas`'s).
///
/// # Safety
/// `options` is null (with `count` 0) or valid for reading `count`
/// pointers, each null or a zero-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerCompile(compiler: nvPTXCompilerHandle, count: c_int, options: *const *const c_char) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        let Ok(n) = usize::try_from(count) else { return NVPTXCOMPILE_ERROR_INVALID_INPUT };
        if options.is_null() && n > 0 {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let mut args = Vec::with_capacity(n);
        for k in 0..n {
            // SAFETY: the caller gives `count` readable pointers.
            let p = unsafe { *options.add(k) };
            if p.is_null() {
                return NVPTXCOMPILE_ERROR_INVALID_INPUT;
            }
            // SAFETY: non-null and zero-terminated, from the caller.
            args.push(unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned());
        }
        c.program = None;
        c.error_log.clear();
        c.info_log.clear();
        if c.cancelled() {
            return NVPTXCOMPILE_ERROR_CANCELLED;
        }
        let options = match Options::from_ptxas_args(&args) {
            Ok(o) => o,
            Err(e) => {
                c.error_log = e.render_ptxas(LOG_FILE_NAME);
                return NVPTXCOMPILE_ERROR_COMPILATION_FAILURE;
            }
        };
        let result = compile(c.ptx.as_str(), &options);
        if c.cancelled() {
            return NVPTXCOMPILE_ERROR_CANCELLED;
        }
        match result {
            Ok(out) => {
                for w in out.warnings.iter().filter(|w| w.severity == Severity::Warning) {
                    c.info_log.push_str(&w.render_ptxas(LOG_FILE_NAME));
                    c.info_log.push('\n');
                }
                c.info_log.push_str(out.info_log());
                if out.is_check_only() {
                    return NVPTXCOMPILE_PARSE_ONLY_SUCCESS;
                }
                c.program = Some(out.cubin);
                NVPTXCOMPILE_SUCCESS
            }
            Err(e) => {
                c.error_log = e.render_ptxas(LOG_FILE_NAME);
                match e.kind() {
                    ErrorKind::UnsupportedPtxVersion => NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION,
                    ErrorKind::Internal => NVPTXCOMPILE_ERROR_INTERNAL,
                    _ => NVPTXCOMPILE_ERROR_COMPILATION_FAILURE,
                }
            }
        }
    })
}

impl Compiler {
    /// Asks the flow callback whether to stop.
    fn cancelled(&self) -> bool {
        // SAFETY: the caller of nvPTXCompilerSetFlowCallback gave a
        // function of this type and a payload it accepts.
        self.callback.is_some_and(|(f, payload)| unsafe { f(payload as *mut c_void, std::ptr::null_mut()) } == 1)
    }
}

/// Writes the size in bytes of the compiled program.
///
/// # Safety
/// `size` is null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetCompiledProgramSize(compiler: nvPTXCompilerHandle, size: *mut usize) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        if size.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let Some(program) = &c.program else { return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE };
        // SAFETY: checked non-null.
        unsafe { *size = program.len() };
        NVPTXCOMPILE_SUCCESS
    })
}

/// Copies the compiled program (a cubin) to `image`.
///
/// # Safety
/// `image` is null or valid for writing the program's size in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetCompiledProgram(compiler: nvPTXCompilerHandle, image: *mut c_void) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        if image.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let Some(program) = &c.program else { return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE };
        // SAFETY: the caller sized `image` by GetCompiledProgramSize.
        unsafe { std::ptr::copy_nonoverlapping(program.as_ptr(), image.cast::<u8>(), program.len()) };
        NVPTXCOMPILE_SUCCESS
    })
}

/// # Safety
/// `size` is null or valid for a write.
unsafe fn log_size(compiler: nvPTXCompilerHandle, size: *mut usize, log: fn(&Compiler) -> &str) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        if size.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let text = log(c);
        // SAFETY: checked non-null.
        unsafe { *size = if text.is_empty() { 0 } else { text.len() + 1 } };
        NVPTXCOMPILE_SUCCESS
    })
}

/// # Safety
/// `out` is null or valid for writing the log's size in bytes.
unsafe fn log_text(compiler: nvPTXCompilerHandle, out: *mut c_char, log: fn(&Compiler) -> &str) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        if out.is_null() {
            return NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        let text = log(c);
        if !text.is_empty() {
            // SAFETY: the caller sized `out` by the log size (text + 1).
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), out.cast::<u8>(), text.len());
                *out.add(text.len()) = 0;
            }
        }
        NVPTXCOMPILE_SUCCESS
    })
}

/// Writes the size of the error log (its terminating zero included; 0 when
/// empty).
///
/// # Safety
/// `size` is null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetErrorLogSize(compiler: nvPTXCompilerHandle, size: *mut usize) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { log_size(compiler, size, |c| &c.error_log) }
}

/// Copies the error log, zero-terminated, to `log` (nothing when empty).
///
/// # Safety
/// `log` is null or valid for writing the error log's size in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetErrorLog(compiler: nvPTXCompilerHandle, log: *mut c_char) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { log_text(compiler, log, |c| &c.error_log) }
}

/// Writes the size of the info log (its terminating zero included; 0 when
/// empty).
///
/// # Safety
/// `size` is null or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetInfoLogSize(compiler: nvPTXCompilerHandle, size: *mut usize) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { log_size(compiler, size, |c| &c.info_log) }
}

/// Copies the info log, zero-terminated, to `log` (nothing when empty).
///
/// # Safety
/// `log` is null or valid for writing the info log's size in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetInfoLog(compiler: nvPTXCompilerHandle, log: *mut c_char) -> nvPTXCompileResult {
    // SAFETY: forwarded from the caller.
    unsafe { log_text(compiler, log, |c| &c.info_log) }
}

/// Sets the flow callback, called with `payload` before and after each
/// compilation; it returns 1 to cancel, 0 to go on.
///
/// # Safety
/// `callback` is null or a function of this type that accepts `payload`
/// and may run on the compiling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerSetFlowCallback(compiler: nvPTXCompilerHandle, callback: nvPTXCompilerFlowCallback, payload: *mut c_void) -> nvPTXCompileResult {
    with_compiler(compiler, |c| {
        let Some(f) = callback else { return NVPTXCOMPILE_ERROR_INVALID_INPUT };
        c.callback = Some((f, payload as usize));
        NVPTXCOMPILE_SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::{null, null_mut};

    const SAXPY: &str = include_str!("../../examples/saxpy.ptx");

    fn create(ptx: &str) -> nvPTXCompilerHandle {
        let mut h = null_mut();
        assert_eq!(unsafe { nvPTXCompilerCreate(&mut h, ptx.len(), ptx.as_ptr().cast()) }, NVPTXCOMPILE_SUCCESS);
        assert!(!h.is_null());
        h
    }

    fn compile_with(h: nvPTXCompilerHandle, opts: &[&str]) -> nvPTXCompileResult {
        let owned: Vec<std::ffi::CString> = opts.iter().map(|o| std::ffi::CString::new(*o).unwrap()).collect();
        let ptrs: Vec<*const c_char> = owned.iter().map(|o| o.as_ptr()).collect();
        unsafe { nvPTXCompilerCompile(h, ptrs.len() as c_int, ptrs.as_ptr()) }
    }

    fn log(h: nvPTXCompilerHandle, error: bool) -> String {
        let mut size = 7;
        let r = unsafe { if error { nvPTXCompilerGetErrorLogSize(h, &mut size) } else { nvPTXCompilerGetInfoLogSize(h, &mut size) } };
        assert_eq!(r, NVPTXCOMPILE_SUCCESS);
        if size == 0 {
            return String::new();
        }
        let mut buf = vec![0xffu8; size];
        let r = unsafe { if error { nvPTXCompilerGetErrorLog(h, buf.as_mut_ptr().cast()) } else { nvPTXCompilerGetInfoLog(h, buf.as_mut_ptr().cast()) } };
        assert_eq!(r, NVPTXCOMPILE_SUCCESS);
        assert_eq!(buf.pop(), Some(0), "zero-terminated, and the size counts the zero");
        String::from_utf8(buf).unwrap()
    }

    fn program(h: nvPTXCompilerHandle) -> Result<Vec<u8>, nvPTXCompileResult> {
        let mut size = 0;
        match unsafe { nvPTXCompilerGetCompiledProgramSize(h, &mut size) } {
            NVPTXCOMPILE_SUCCESS => {}
            e => return Err(e),
        }
        let mut buf = vec![0u8; size];
        assert_eq!(unsafe { nvPTXCompilerGetCompiledProgram(h, buf.as_mut_ptr().cast()) }, NVPTXCOMPILE_SUCCESS);
        Ok(buf)
    }

    #[test]
    fn compiles_like_the_library_and_reports_like_ptxas() {
        let mut h = create(SAXPY);
        assert_eq!(program(h), Err(NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE));
        assert_eq!(compile_with(h, &["--gpu-name=sm_90", "--verbose"]), NVPTXCOMPILE_SUCCESS);
        let want = ptx2sass::compile(SAXPY, &Options::from_ptxas_args(&["-arch=sm_90", "-v"]).unwrap()).unwrap();
        assert_eq!(program(h).unwrap(), want.cubin);
        assert_eq!(log(h, false), want.info_log());
        assert_eq!(log(h, true), "");
        // The same compiler again, with the option and its value apart.
        assert_eq!(compile_with(h, &["-arch", "sm_80"]), NVPTXCOMPILE_SUCCESS);
        assert_eq!(log(h, false), "", "the logs are the last compilation's");
        assert_eq!(compile_with(h, &["--bogus"]), NVPTXCOMPILE_ERROR_COMPILATION_FAILURE);
        assert_eq!(log(h, true), "ptxas fatal   : unknown option '--bogus'\n");
        assert_eq!(program(h), Err(NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE));
        assert_eq!(compile_with(h, &["-O3"]), NVPTXCOMPILE_ERROR_COMPILATION_FAILURE, "sm_75 by default, below the PTX's .target");
        assert_eq!(compile_with(h, &["--gpu-name=compute_90"]), NVPTXCOMPILE_PARSE_ONLY_SUCCESS);
        assert_eq!(program(h), Err(NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE));
        assert_eq!(unsafe { nvPTXCompilerDestroy(&mut h) }, NVPTXCOMPILE_SUCCESS);
        assert!(h.is_null());
    }

    #[test]
    fn errors_come_back_with_their_line() {
        let bad = SAXPY.replace("mad.lo.s32 \t%r5, %r2, %r3, %r4;", "mad.lo.s32 \t%r5, %r2, %r3, %r99;");
        assert_ne!(bad, SAXPY);
        let mut h = create(&bad);
        assert_eq!(compile_with(h, &["--gpu-name=sm_90"]), NVPTXCOMPILE_ERROR_COMPILATION_FAILURE);
        let line = 1 + SAXPY.lines().position(|l| l.contains("mad.lo.s32")).unwrap();
        let text = log(h, true);
        assert!(text.starts_with(&format!("ptxas application ptx input, line {line}; error   : ")), "{text}");
        assert!(text.ends_with("ptxas fatal   : Ptx assembly aborted due to errors\n"), "{text}");
        unsafe { nvPTXCompilerDestroy(&mut h) };
        let mut h = create(&SAXPY.replace(".version 8.5", ".version 9.9"));
        assert_eq!(compile_with(h, &["--gpu-name=sm_90"]), NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION);
        unsafe { nvPTXCompilerDestroy(&mut h) };
    }

    #[test]
    fn bad_handles_and_null_pointers_are_errors() {
        let mut h = create("");
        let copy = h;
        assert_eq!(unsafe { nvPTXCompilerDestroy(&mut h) }, NVPTXCOMPILE_SUCCESS);
        let mut again = copy;
        assert_eq!(unsafe { nvPTXCompilerDestroy(&mut again) }, NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE);
        assert_eq!(compile_with(copy, &[]), NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE);
        assert_eq!(compile_with(0x1234 as nvPTXCompilerHandle, &[]), NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE);
        assert_eq!(compile_with(null_mut(), &[]), NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE);
        unsafe {
            assert_eq!(nvPTXCompilerDestroy(null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerCreate(null_mut(), 3, c"abc".as_ptr()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            let mut h2 = null_mut();
            assert_eq!(nvPTXCompilerCreate(&mut h2, 3, null()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerGetVersion(null_mut(), null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerGetNumSupportedArchs(null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            let h = create(SAXPY);
            assert_eq!(nvPTXCompilerCompile(h, 2, null()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerCompile(h, -1, null()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            let opts = [c"-arch=sm_90".as_ptr(), null()];
            assert_eq!(nvPTXCompilerCompile(h, 2, opts.as_ptr()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerGetCompiledProgramSize(h, null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerGetErrorLog(h, null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            assert_eq!(nvPTXCompilerSetFlowCallback(h, None, null_mut()), NVPTXCOMPILE_ERROR_INVALID_INPUT);
            let mut h = h;
            nvPTXCompilerDestroy(&mut h);
        }
    }

    #[test]
    fn versions_and_archs_are_listed_in_order() {
        let (mut major, mut minor) = (0, 0);
        assert_eq!(unsafe { nvPTXCompilerGetVersion(&mut major, &mut minor) }, NVPTXCOMPILE_SUCCESS);
        assert_eq!((major, minor), (13, 5));
        let mut n = 0;
        assert_eq!(unsafe { nvPTXCompilerGetNumSupportedArchs(&mut n) }, NVPTXCOMPILE_SUCCESS);
        let mut archs = vec![0; n as usize];
        assert_eq!(unsafe { nvPTXCompilerGetSupportedArchs(archs.as_mut_ptr()) }, NVPTXCOMPILE_SUCCESS);
        assert!(archs.windows(2).all(|w| w[0] < w[1]) && archs.contains(&75) && archs.contains(&120));
        assert_eq!(unsafe { nvPTXCompilerGetNumSupportedVersions(&mut n) }, NVPTXCOMPILE_SUCCESS);
        let mut versions = vec![[0; 2]; n as usize];
        assert_eq!(unsafe { nvPTXCompilerGetSupportedVersions(versions.as_mut_ptr()) }, NVPTXCOMPILE_SUCCESS);
        assert_eq!((versions[0], versions[versions.len() - 1]), ([1, 0], [9, 5]));
    }

    unsafe extern "C" fn count_then_cancel(payload: *mut c_void, reserved: *mut c_void) -> c_int {
        assert!(reserved.is_null());
        // SAFETY: the test passes a pointer to its counter.
        let calls = unsafe { &mut *payload.cast::<u32>() };
        *calls += 1;
        (*calls >= 3) as c_int
    }

    #[test]
    fn the_flow_callback_is_asked_and_can_cancel() {
        let mut calls = 0u32;
        let mut h = create(SAXPY);
        assert_eq!(unsafe { nvPTXCompilerSetFlowCallback(h, Some(count_then_cancel), (&raw mut calls).cast()) }, NVPTXCOMPILE_SUCCESS);
        assert_eq!(compile_with(h, &["-arch=sm_90"]), NVPTXCOMPILE_SUCCESS);
        assert_eq!(compile_with(h, &["-arch=sm_90"]), NVPTXCOMPILE_ERROR_CANCELLED);
        assert_eq!(calls, 3, "asked before and after the first compilation, before the second");
        assert_eq!(program(h), Err(NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE));
        unsafe { nvPTXCompilerDestroy(&mut h) };
    }

    #[test]
    fn one_handle_from_many_threads() {
        let h = create(SAXPY) as usize;
        std::thread::scope(|s| {
            for sm in ["sm_80", "sm_90", "sm_120", "sm_86"] {
                s.spawn(move || {
                    for _ in 0..3 {
                        assert_eq!(compile_with(h as nvPTXCompilerHandle, &[&format!("-arch={sm}")]), NVPTXCOMPILE_SUCCESS);
                    }
                });
            }
        });
        let mut h = h as nvPTXCompilerHandle;
        unsafe { nvPTXCompilerDestroy(&mut h) };
    }
}
