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
            verbose: false,
            disable_warnings: false,
            compile_only: false,
            threads: None,
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
            "-w" | "--disable-warnings" | "-disable-warnings" => flag(&mut self.disable_warnings),
            "-c" | "--compile-only" | "-compile-only" => flag(&mut self.compile_only),
            _ => Ok(false),
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
    }
}
