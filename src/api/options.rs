//! [`Options`]: how [`compile`](crate::compile) compiles, set field by
//! field or parsed from `ptxas` command-line options.

use super::error::Error;
use super::target::Target;
use crate::args::{CompileArgs, Cursor};

/// How to compile: the target and the `ptxas` options that choose code.
///
/// Start from [`Options::new`] (the target, and `ptxas`'s defaults for
/// everything else) and set fields, or parse `ptxas` options with
/// [`Options::from_ptxas_args`]. New fields may be added in minor
/// versions, with defaults that keep the output unchanged.
///
/// ```
/// use ptx2sass::{Options, Target};
///
/// let mut options = Options::new(Target::sm(90)?);
/// options.max_registers = Some(64);
/// assert_eq!(options, Options::from_ptxas_args(&["-arch=sm_90", "--maxrregcount=64"])?);
/// # Ok::<(), ptx2sass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The GPU (`-arch`, `--gpu-name`). A virtual `compute_XX` target
    /// checks the PTX and generates no code.
    pub target: Target,
    /// Optimisation level 0 to 3 (`-O`; default 3). `-O0` turns
    /// multiply-add contraction off, as in `ptxas`; the rest of the code
    /// does not depend on it yet.
    pub opt_level: u8,
    /// Whether a multiply and an add are contracted into a fused
    /// multiply-add where `ptxas` contracts them (`--fmad`; default true;
    /// at `-O1` and above, and without [`debug`](Self::debug), as in
    /// `ptxas`). With contraction the float results are those of `ptxas`'s
    /// code; without it every `mul` and `add` rounds on its own.
    pub fma_contraction: bool,
    /// The most registers a thread may use (`--maxrregcount`).
    pub max_registers: Option<u32>,
    /// Line information for profilers and debuggers (`-lineinfo`): the
    /// cubin maps each instruction to its PTX line and its `.loc` source
    /// position, as ptxas's does. Off under `-suppress-debug-info`.
    pub line_info: bool,
    /// Debug information and unoptimised code (`-g`): the line information
    /// of [`line_info`](Self::line_info) is written and multiply-add
    /// contraction is off, as `ptxas -g` does; variable locations are not
    /// written and the code is otherwise optimised (a warning in the output
    /// says so).
    pub debug: bool,
    /// Whether [`Output::info_log`](crate::Output::info_log) holds the
    /// `ptxas -v` report of resource usage (`-v`, `--verbose`).
    pub verbose: bool,
    /// Whether warnings are reported (`-w`, `--disable-warnings`, turns
    /// them off; default true).
    pub warnings: bool,
    /// Threads compiling kernels at once (`--split-compile`); `None`
    /// chooses by module size. The output does not depend on it.
    pub threads: Option<usize>,
    /// The `ptxas` options accepted that change nothing in ptx2sass's
    /// output (`--regAllocOptLevel=2`, `--def-load-cache=cg`, ...), as
    /// written; with [`verbose`](Self::verbose)
    /// the info log names each and why.
    pub ignored_options: Vec<String>,
}

impl Options {
    /// Options for `target` with `ptxas`'s defaults: `-O3`, `--fmad=true`,
    /// no register limit, no line or debug information.
    pub fn new(target: Target) -> Options {
        Options::from_args(&CompileArgs { arch: target.arch(), ..CompileArgs::default() })
    }

    /// Options from `ptxas` command-line options, the strings
    /// `nvPTXCompilerCompile` takes: `-arch=sm_90` / `--gpu-name sm_90`,
    /// `-O0`…`-O3` / `--opt-level N`, `--fmad=BOOL`, `--maxrregcount=N`,
    /// `-lineinfo`, `-g`, `-v`, `-w`, `-c` (accepted; the output is always
    /// a complete cubin), `--split-compile N`, and the options of `ptxas`
    /// that tune its own optimiser or govern warnings ptx2sass does not
    /// give (`--regAllocOptLevel=N`, `--def-load-cache`, `-Werror`, ...:
    /// kept in [`ignored_options`](Self::ignored_options)). The target defaults to
    /// `sm_75`, as in `ptxas`. Anything else (an input file, `-o`) is an
    /// [`ErrorKind::InvalidOptions`](crate::ErrorKind::InvalidOptions)
    /// error.
    pub fn from_ptxas_args<S: AsRef<str>>(args: &[S]) -> Result<Options, Error> {
        let mut parsed = CompileArgs::default();
        let mut cursor = Cursor::new(args);
        while let Some(arg) = cursor.next() {
            match parsed.apply(&arg, &mut cursor) {
                Ok(true) => {}
                Ok(false) if arg.text.starts_with('-') && arg.text.len() > 1 => {
                    return Err(Error::options(format!("unknown option '{}'", arg.text)));
                }
                Ok(false) => return Err(Error::options(format!("unexpected argument '{}' (only compile options are taken here)", arg.text))),
                Err(e) => return Err(Error::options(e.message)),
            }
        }
        Ok(Options::from_args(&parsed))
    }

    /// The options a parsed `ptxas` command line gives.
    pub(crate) fn from_args(a: &CompileArgs) -> Options {
        Options {
            target: Target::from_arch(a.arch),
            opt_level: a.opt_level,
            fma_contraction: a.fmad,
            max_registers: a.max_registers,
            line_info: a.line_info && !a.suppress_debug_info,
            debug: a.debug && !a.suppress_debug_info,
            verbose: a.verbose,
            warnings: !a.disable_warnings,
            threads: a.threads,
            // -Werror changes nothing in the library: its warnings are data
            // in the output, and the caller decides what they mean.
            ignored_options: a.inert.iter().cloned().chain(a.warnings_as_errors.then(|| "-Werror".to_string())).collect(),
        }
    }
}

impl Default for Options {
    /// [`Options::new`] for the default target (`sm_75`).
    fn default() -> Self {
        Options::new(Target::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptxas_options_set_the_fields() {
        let o = Options::from_ptxas_args(&["--gpu-name", "sm_120", "-O1", "--fmad=false", "-lineinfo", "-g", "-v", "-w", "--split-compile=2"]).unwrap();
        assert_eq!(o.target.to_string(), "sm_120");
        assert_eq!((o.opt_level, o.fma_contraction, o.line_info, o.debug, o.verbose, o.warnings, o.threads), (1, false, true, true, true, false, Some(2)));
        assert_eq!(Options::from_ptxas_args::<&str>(&[]).unwrap(), Options::default());
        let triton = Options::from_ptxas_args(&["-lineinfo", "-v", "--regAllocOptLevel=2", "--gpu-name=sm_90a"]).unwrap();
        assert_eq!(triton.target.to_string(), "sm_90a");
        assert_eq!(triton.ignored_options, ["--regAllocOptLevel=2"]);
    }

    #[test]
    fn files_and_unknown_options_are_refused() {
        for args in [&["k.ptx"][..], &["-o", "k.cubin"], &["--bogus"], &["-arch=sm_91"], &["--maxrregcount"]] {
            let e = Options::from_ptxas_args(args).unwrap_err();
            assert_eq!(e.kind(), crate::ErrorKind::InvalidOptions, "{args:?}");
        }
    }
}
