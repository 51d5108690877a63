//! The `ptxas` options that say how to compile (`-arch`, `-O3`,
//! `--maxrregcount`, `-lineinfo`, …), parsed in one place for the
//! `ptx2sass` command-line tool, [`Options::from_ptxas_args`] and the C
//! library (whose `nvPTXCompilerCompile` takes the same strings).
//!
//! An option is written `-name value`, `-name=value` or, for a flag,
//! `-name`; one or two leading dashes are the same option (`-arch` and
//! `--gpu-name` are two names of one option, as in `ptxas`). This module
//! owns the option names and their values; what to do with input files,
//! `-o` and the tool's own options is the caller's.
//!
//! [`Options::from_ptxas_args`]: crate::Options::from_ptxas_args

use crate::target::{Arch, Sm};
use std::fmt;

/// The compile options of a `ptxas` command line, with `ptxas`'s
/// defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileArgs {
    /// `-arch` / `--gpu-name` (default `sm_75`, as `ptxas` 13.x).
    pub arch: Arch,
    /// `-O<n>` / `--opt-level` (default 3).
    pub opt_level: u8,
    /// `--fmad` / `-fmad` (default true).
    pub fmad: bool,
    /// `--maxrregcount`.
    pub max_registers: Option<u32>,
    /// `-lineinfo` / `--generate-line-info`.
    pub line_info: bool,
    /// `-g` / `--device-debug`.
    pub debug: bool,
    /// `-suppress-debug-info` / `--suppress-debug-info`: no line or debug
    /// information even with `-lineinfo` or `-g` (ptxas 13.5 then writes
    /// none; Triton adds it when `TRITON_DISABLE_LINE_INFO` is set).
    pub suppress_debug_info: bool,
    /// `-v` / `--verbose`.
    pub verbose: bool,
    /// `-w` / `--disable-warnings`.
    pub disable_warnings: bool,
    /// `-c` / `--compile-only` (accepted; the output is a complete cubin
    /// either way).
    pub compile_only: bool,
    /// `--split-compile <n>`: threads compiling kernels (`None`: chosen
    /// by module size; the output does not depend on it).
    pub threads: Option<usize>,
    /// `-Werror` / `--warning-as-error`: a warning fails the compilation.
    pub warnings_as_errors: bool,
    /// `--warn-on-spills` / `-warn-spills`: a warning for each function
    /// that spills registers to local memory, with its spill bytes.
    pub warn_on_spills: bool,
    /// The options accepted that change nothing in ptx2sass's output
    /// (`--regAllocOptLevel=2`, `--def-load-cache
    /// cg`, ...: see [`INERT_OPTIONS`]), as written, value included; `-v`
    /// lists them.
    pub inert: Vec<String>,
}

/// What an option of [`INERT_OPTIONS`] takes after its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InertValue {
    /// Nothing: a flag.
    Flag,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// Any text (a file name, a list).
    Text,
}

/// One option `ptxas` takes that ptx2sass accepts and ignores: its long
/// name, its short name, its value, and why it changes nothing here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InertOption {
    /// The long name, without dashes (`def-load-cache`).
    pub long: &'static str,
    /// The short name, without dashes (`dlcm`); empty when none.
    pub short: &'static str,
    /// What follows the name.
    pub value: InertValue,
    /// Why accepting it and doing nothing is right, for `-v`.
    pub why: &'static str,
}

const fn inert(long: &'static str, short: &'static str, value: InertValue, why: &'static str) -> InertOption {
    InertOption { long, short, value, why }
}

const NO_TUNING: &str = "a tuning knob of ptxas's own optimiser";
const NO_TOOLS: &str = "for NVIDIA's debugging and sanitizer tools";
const NO_WARNING: &str = "the warning it governs is never given";

/// The `ptxas` options (from `ptxas --help` 13.5, and the undocumented
/// `--regAllocOptLevel` that Triton passes) that ptx2sass accepts and
/// ignores: they tune ptxas's own optimiser, govern warnings ptx2sass does
/// not give, or ask for what ptx2sass does anyway. An option that would
/// change the meaning of the code (`--force-load-cache`, `--entry`,
/// `--sanitize`, `--input-as-string`, `--options-file`) is not here: it
/// is refused rather than silently ignored.
pub const INERT_OPTIONS: &[InertOption] = &[
    inert("regAllocOptLevel", "", InertValue::Number, "register allocation is regalloc2's, with no levels"),
    inert("register-usage-level", "regUsageLevel", InertValue::Number, NO_TUNING),
    inert("Ofast-compile", "Ofc", InertValue::OneOf(&["0", "min", "mid", "max"]), NO_TUNING),
    inert("allow-expensive-optimizations", "allow-expensive-optimizations", InertValue::Bool, NO_TUNING),
    inert("dont-merge-basicblocks", "no-bb-merge", InertValue::Flag, NO_TUNING),
    inert("disable-optimizer-constants", "disable-optimizer-consts", InertValue::Flag, NO_TUNING),
    inert("optimize-float-atomics", "opt-fp-atomics", InertValue::Flag, NO_TUNING),
    inert("enable-func-clone-sc", "enable-func-clone-sc", InertValue::Bool, NO_TUNING),
    inert("return-at-end", "ret-end", InertValue::Flag, NO_TUNING),
    // The default cache operators of ld/st: ptx2sass gives every load and
    // store the cache operator its PTX names (`.ca` by default), as ptxas
    // does with the defaults `ca` and `wb`.
    inert("def-load-cache", "dlcm", InertValue::OneOf(&["ca", "cg", "cs", "lu", "cv"]), "loads keep the cache operator their PTX names"),
    inert("def-store-cache", "dscm", InertValue::OneOf(&["wb", "cg", "cs", "wt"]), "stores keep the cache operator their PTX names"),
    inert("extensible-whole-program", "ewp", InertValue::Flag, "every function is compiled whole; calls are inlined"),
    inert("position-independent-code", "pic", InertValue::Bool, "the code is position independent (ptxas: no longer functional)"),
    inert("preserve-relocs", "preserve-relocs", InertValue::Flag, "the cubin keeps the relocations it has"),
    inert("machine", "m", InertValue::OneOf(&["64"]), "64-bit addresses are the only ones"),
    inert("maxntid", "maxntid", InertValue::Text, "the thread count does not change the code yet"),
    inert("minnctapersm", "minnctapersm", InertValue::Number, "the block count does not change the code yet"),
    inert("device-function-maxrregcount", "func-maxrregcount", InertValue::Text, "device functions are inlined into kernels"),
    inert("override-directive-values", "override-directive-values", InertValue::Flag, "the thread count does not change the code yet"),
    inert("legacy-bar-warp-wide-behavior", "legacy-bar-warp-wide-behavior", InertValue::Flag, "barriers are compiled as PTX 6.0 and later define them"),
    inert("warn-on-local-memory-usage", "warn-lmem-usage", InertValue::Flag, NO_WARNING),
    inert("warn-on-double-precision-use", "warn-double-usage", InertValue::Flag, NO_WARNING),
    inert("suppress-stack-size-warning", "suppress-stack-size-warning", InertValue::Flag, NO_WARNING),
    inert("suppress-double-demote-warning", "suppress-double-demote-warning", InertValue::Flag, NO_WARNING),
    inert("suppress-async-bulk-multicast-advisory-warning", "suppress-async-bulk-multicast-advisory-warning", InertValue::Flag, NO_WARNING),
    inert("suppress-sparse-mma-advisory-info", "suppress-sparse-mma-advisory-info", InertValue::Flag, NO_WARNING),
    inert("suppress-position-independent-code-warning", "suppress-position-independent-code-warning", InertValue::Flag, NO_WARNING),
    inert("verbose2", "v2", InertValue::Flag, "-v's report is the one given"),
    inert("make-errors-visible-at-exit", "make-errors-visible-at-exit", InertValue::Flag, "errors are printed as they are found"),
    inert("jobserver", "jobserver", InertValue::Flag, "kernels are compiled on --split-compile threads"),
    inert("compiler-annotations", "annotate", InertValue::Flag, NO_TOOLS),
    inert("compile-as-tools-patch", "astoolspatch", InertValue::Flag, NO_TOOLS),
    inert("sp-bounds-check", "sp-bounds-check", InertValue::Flag, NO_TOOLS),
    inert("device-stack-protector", "device-stack-protector", InertValue::Bool, NO_TOOLS),
    inert("g-tensor-memory-access-check", "g-tmem-access-check", InertValue::Flag, NO_TOOLS),
    inert("gno-tensor-memory-access-check", "gno-tmem-access-check", InertValue::Flag, NO_TOOLS),
    inert("gno-fabric-access-check", "gno-fabric-access-check", InertValue::Flag, NO_TOOLS),
];

/// The `-v` lines that name each inert option accepted (as written in
/// `accepted`) and why it changes nothing, one line each, in the order
/// given.
pub fn inert_notes(accepted: &[String]) -> String {
    let mut out = String::new();
    for text in accepted {
        let name = split(text).0;
        let why = match name {
            "-m64" => "64-bit addresses are the only ones",
            "-Werror" => "the library returns warnings in its output for the caller to judge",
            _ => inert_option(name).map_or("", |o| o.why),
        };
        out.push_str(&format!("ptx2sass info : option '{text}' accepted and ignored: {why}\n"));
    }
    out
}

/// The inert option named `name` (one or two leading dashes, long or short
/// name), if it is one.
pub fn inert_option(name: &str) -> Option<&'static InertOption> {
    let bare = name.strip_prefix("--").or_else(|| name.strip_prefix('-'))?;
    INERT_OPTIONS.iter().find(|o| o.long == bare || (!o.short.is_empty() && o.short == bare))
}

impl Default for CompileArgs {
    fn default() -> Self {
        CompileArgs {
            arch: Arch::Real(Sm::new(75)),
            opt_level: 3,
            fmad: true,
            max_registers: None,
            line_info: false,
            debug: false,
            suppress_debug_info: false,
            verbose: false,
            disable_warnings: false,
            compile_only: false,
            threads: None,
            warnings_as_errors: false,
            warn_on_spills: false,
            inert: Vec::new(),
        }
    }
}

/// Why an option was refused. The text is the CLI's (`unknown option
/// '-x'`, `unknown architecture 'sm_91'`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError {
    /// What, in one sentence without a trailing period.
    pub message: String,
}

impl ArgError {
    /// An error with this text.
    pub fn new(message: impl Into<String>) -> ArgError {
        ArgError { message: message.into() }
    }
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ArgError {}

/// An option's name and, when written `-name=value`, its value; any other
/// argument (an input file, `-`) is its own name without a value.
pub fn split(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with('-') => (flag, Some(value)),
        _ => (arg, None),
    }
}

/// Reads a list of arguments one option at a time: [`Cursor::next`]
/// gives the next argument split into name and inline value, and
/// [`Cursor::value`] the option's value (the inline one, else the next
/// argument).
#[derive(Debug)]
pub struct Cursor<'a, S> {
    args: &'a [S],
    pos: usize,
}

/// One argument as [`Cursor::next`] returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg<'a> {
    /// The whole argument.
    pub text: &'a str,
    /// Its name (the text before `=` of an option; else the whole text).
    pub name: &'a str,
    /// The value written after `=`.
    pub inline: Option<&'a str>,
}

impl<'a, S: AsRef<str>> Cursor<'a, S> {
    /// A cursor at the first argument.
    pub fn new(args: &'a [S]) -> Self {
        Cursor { args, pos: 0 }
    }

    /// The next argument.
    #[allow(clippy::should_implement_trait)] // `value` below also advances: not an iterator
    pub fn next(&mut self) -> Option<Arg<'a>> {
        let text = self.args.get(self.pos)?.as_ref();
        self.pos += 1;
        let (name, inline) = split(text);
        Some(Arg { text, name, inline })
    }

    /// The value of option `arg`: its inline value, else the next
    /// argument (consumed).
    pub fn value(&mut self, arg: &Arg<'a>) -> Result<&'a str, ArgError> {
        if let Some(v) = arg.inline {
            return Ok(v);
        }
        let v = self.args.get(self.pos).ok_or_else(|| ArgError::new(format!("option '{}' needs a value", arg.name)))?;
        self.pos += 1;
        Ok(v.as_ref())
    }
}

impl CompileArgs {
    /// Whether multiplies and adds are contracted into fused
    /// multiply-adds: `--fmad=true` (the default) at `-O1` and above;
    /// `ptxas` contracts nothing at `-O0` or with `-g`.
    pub fn contracts_fma(&self) -> bool {
        self.fmad && self.opt_level > 0 && !self.debug
    }

    /// Applies `arg` if it is a compile option, reading its value from
    /// `cursor` where it takes one: `Ok(true)` when it was one,
    /// `Ok(false)` when it is not (an input file, `-o`, an option of the
    /// caller's own), an error when its value is not valid.
    pub fn apply<'a, S: AsRef<str>>(&mut self, arg: &Arg<'a>, cursor: &mut Cursor<'a, S>) -> Result<bool, ArgError> {
        // A flag takes no value: `-v=1` is not `-v`.
        let flag = |set: &mut bool| {
            if arg.inline.is_some() {
                return Err(ArgError::new(format!("option '{}' takes no value", arg.name)));
            }
            *set = true;
            Ok(true)
        };
        match arg.name {
            "-arch" | "--arch" | "--gpu-name" | "-gpu-name" => {
                let v = cursor.value(arg)?;
                self.arch = Arch::parse(v).ok_or_else(|| ArgError::new(format!("unknown architecture '{v}'")))?;
                Ok(true)
            }
            "-O0" | "-O1" | "-O2" | "-O3" if arg.inline.is_none() => {
                self.opt_level = arg.name.as_bytes()[2] - b'0';
                Ok(true)
            }
            "--opt-level" | "-opt-level" | "-O" => {
                let v = cursor.value(arg)?;
                self.opt_level = match v {
                    "0" | "1" | "2" | "3" => v.as_bytes()[0] - b'0',
                    _ => return Err(ArgError::new(format!("invalid optimisation level '{v}'"))),
                };
                Ok(true)
            }
            "--fmad" | "-fmad" => {
                let v = cursor.value(arg)?;
                self.fmad = parse_bool(v).ok_or_else(|| ArgError::new(format!("invalid value '{v}' for option '{}' (true or false)", arg.name)))?;
                Ok(true)
            }
            "--maxrregcount" | "-maxrregcount" => {
                let v = cursor.value(arg)?;
                self.max_registers = Some(v.parse::<u32>().map_err(|_| ArgError::new(format!("invalid register count '{v}'")))?);
                Ok(true)
            }
            "--split-compile" | "-split-compile" => {
                let v = cursor.value(arg)?;
                let n = v.parse::<usize>().map_err(|_| ArgError::new(format!("invalid thread count '{v}'")))?;
                self.threads = (n > 0).then_some(n);
                Ok(true)
            }
            "-v" | "--verbose" | "-verbose" => flag(&mut self.verbose),
            "-lineinfo" | "--generate-line-info" | "-generate-line-info" => flag(&mut self.line_info),
            "-g" | "--device-debug" | "-device-debug" => flag(&mut self.debug),
            "-suppress-debug-info" | "--suppress-debug-info" => flag(&mut self.suppress_debug_info),
            "-w" | "--disable-warnings" | "-disable-warnings" => flag(&mut self.disable_warnings),
            "-c" | "--compile-only" | "-compile-only" => flag(&mut self.compile_only),
            "-Werror" | "--warning-as-error" | "-warning-as-error" => flag(&mut self.warnings_as_errors),
            "--warn-on-spills" | "-warn-spills" | "-warn-on-spills" | "--warn-spills" => flag(&mut self.warn_on_spills),
            // `-m64`: ptxas's short name with its value glued on.
            "-m64" if arg.inline.is_none() => {
                self.inert.push(arg.text.to_string());
                Ok(true)
            }
            name => {
                let Some(option) = inert_option(name) else { return Ok(false) };
                let text = match option.value {
                    InertValue::Flag => {
                        let mut ignored = false;
                        flag(&mut ignored)?;
                        arg.text.to_string()
                    }
                    value => {
                        let v = cursor.value(arg)?;
                        let valid = match value {
                            InertValue::Bool => parse_bool(v).is_some(),
                            InertValue::Number => v.parse::<u32>().is_ok(),
                            InertValue::OneOf(words) => words.contains(&v),
                            InertValue::Flag | InertValue::Text => true,
                        };
                        if !valid {
                            return Err(ArgError::new(format!("invalid value '{v}' for option '{}'", arg.name)));
                        }
                        format!("{}={v}", arg.name)
                    }
                };
                self.inert.push(text);
                Ok(true)
            }
        }
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[&str]) -> Result<(CompileArgs, Vec<String>), ArgError> {
        let mut out = CompileArgs::default();
        let mut rest = Vec::new();
        let mut cursor = Cursor::new(list);
        while let Some(arg) = cursor.next() {
            if !out.apply(&arg, &mut cursor)? {
                rest.push(arg.text.to_string());
            }
        }
        Ok((out, rest))
    }

    #[test]
    fn every_spelling_of_an_option_is_the_same_option() {
        for args in [&["-arch=sm_90"][..], &["-arch", "sm_90"], &["--gpu-name=sm_90"], &["--gpu-name", "sm_90"]] {
            assert_eq!(parse(args).unwrap().0.arch, Arch::Real(Sm::new(90)), "{args:?}");
        }
        let (a, rest) = parse(&["-O1", "--maxrregcount=40", "-lineinfo", "--fmad=false", "-v", "k.ptx", "-o", "k.cubin"]).unwrap();
        assert_eq!((a.opt_level, a.max_registers, a.line_info, a.fmad, a.verbose), (1, Some(40), true, false, true));
        assert_eq!(rest, ["k.ptx", "-o", "k.cubin"]);
        assert_eq!(parse(&["--opt-level", "2"]).unwrap().0.opt_level, 2);
        assert_eq!(parse(&["-arch=compute_90"]).unwrap().0.arch, Arch::Virtual(Sm::new(90)));
    }

    #[test]
    fn bad_values_are_errors_with_the_cli_wording() {
        assert_eq!(parse(&["-arch=sm_91"]).unwrap_err().message, "unknown architecture 'sm_91'");
        assert_eq!(parse(&["--maxrregcount=x"]).unwrap_err().message, "invalid register count 'x'");
        assert_eq!(parse(&["-O", "4"]).unwrap_err().message, "invalid optimisation level '4'");
        assert_eq!(parse(&["--gpu-name"]).unwrap_err().message, "option '--gpu-name' needs a value");
        assert_eq!(parse(&["-v=1"]).unwrap_err().message, "option '-v' takes no value");
        assert!(parse(&["--fmad=maybe"]).is_err());
        assert_eq!(parse(&["-dlcm=zz"]).unwrap_err().message, "invalid value 'zz' for option '-dlcm'");
        assert_eq!(parse(&["--regAllocOptLevel=high"]).unwrap_err().message, "invalid value 'high' for option '--regAllocOptLevel'");
        assert_eq!(parse(&["-suppress-debug-info=1"]).unwrap_err().message, "option '-suppress-debug-info' takes no value");
    }

    #[test]
    fn the_options_triton_nvcc_and_pytorch_pass_are_accepted() {
        // Triton 3.9's command line (make_cubin in its NVIDIA backend), with
        // the options it adds on request.
        let triton = ["-lineinfo", "-suppress-debug-info", "--fmad=false", "-v", "--opt-level", "0", "--regAllocOptLevel=2", "--gpu-name=sm_90a", "X.ptx", "-o", "X.ptx.o"];
        let (a, rest) = parse(&triton).unwrap();
        assert_eq!((a.line_info, a.suppress_debug_info, a.fmad, a.verbose, a.opt_level), (true, true, false, true, 0));
        assert_eq!(a.inert, ["--regAllocOptLevel=2"]);
        assert_eq!(rest, ["X.ptx", "-o", "X.ptx.o"]);
        // nvcc's -Xptxas favourites, in both spellings and both value forms.
        let nvcc = ["-Werror", "--warn-on-spills", "-warn-lmem-usage", "--def-load-cache", "cg", "-dscm=wt", "--allow-expensive-optimizations=true", "-pic", "false", "--extensible-whole-program", "-m64", "--machine", "64", "-Ofc", "max", "-regUsageLevel=3"];
        let (a, rest) = parse(&nvcc).unwrap();
        assert!(a.warnings_as_errors && a.warn_on_spills && rest.is_empty());
        assert_eq!(
            a.inert,
            ["-warn-lmem-usage", "--def-load-cache=cg", "-dscm=wt", "--allow-expensive-optimizations=true", "-pic=false", "--extensible-whole-program", "-m64", "--machine=64", "-Ofc=max", "-regUsageLevel=3"]
        );
        let (a, _) = parse(&["--device-debug", "--compile-only", "--generate-line-info", "--maxrregcount", "32"]).unwrap();
        assert_eq!((a.debug, a.compile_only, a.line_info, a.max_registers, a.inert.len()), (true, true, true, Some(32), 0));
        // Options that change what the code means are not ignored.
        for refused in ["--force-load-cache", "--entry", "--sanitize", "--options-file", "--input-as-string"] {
            assert!(inert_option(refused).is_none(), "{refused}");
        }
    }
}
