//! [`Error`] and [`Diagnostic`]: what went wrong and where, as data
//! (severity, message, line, column, byte span, function, stage) or as
//! text in `ptxas`'s form (`ptxas k.ptx, line 7; error   : ...`), in the
//! caret form of the `ptx2sass` tool, or as JSON.

use crate::diag::{self, LineMap};
use crate::driver::StageError;
use std::fmt;
use std::ops::Range;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An option, a target name or a triple is not valid.
    InvalidOptions,
    /// The PTX does not parse, or breaks a rule of the PTX ISA (what
    /// `ptxas` reports as errors).
    InvalidPtx,
    /// The PTX's `.version` is newer than the newest PTX ISA version
    /// ptx2sass reads (the last of [`PTX_ISA_VERSIONS`](crate::PTX_ISA_VERSIONS)).
    UnsupportedPtxVersion,
    /// An Ori module built with [`ori`](crate::ori) is not well-formed.
    InvalidModule,
    /// The input is valid but the compiler does not handle something in
    /// it yet (an instruction on a target, a calling pattern); the
    /// diagnostic names the stage and the function.
    Unsupported,
    /// The bytes given to [`disassemble`](crate::disassemble) are not a
    /// cubin it can read.
    InvalidCubin,
    /// A bug in ptx2sass (a stage failed where it never should); the
    /// message says where.
    Internal,
}

impl ErrorKind {
    /// A short name: `invalid_options`, `invalid_ptx`,
    /// `unsupported_ptx_version`, `invalid_module`, `unsupported`,
    /// `invalid_cubin`, `internal`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidOptions => "invalid_options",
            ErrorKind::InvalidPtx => "invalid_ptx",
            ErrorKind::UnsupportedPtxVersion => "unsupported_ptx_version",
            ErrorKind::InvalidModule => "invalid_module",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::InvalidCubin => "invalid_cubin",
            ErrorKind::Internal => "internal",
        }
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Compilation goes on.
    Warning,
    /// Compilation fails.
    Error,
}

impl Severity {
    /// `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Where in the source a diagnostic points: the PTX text given to
/// [`compile`](crate::compile), or the positions given to
/// [`ori::FunctionBuilder::set_location`](crate::ori::FunctionBuilder::set_location).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Location {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters (0 when only the line is known).
    pub column: u32,
    /// The bytes of the source text it covers, where known.
    pub span: Option<Range<usize>>,
}

/// One error or warning.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What, in one sentence without a trailing period.
    pub message: String,
    /// Where, when it concerns one place of the source.
    pub location: Option<Location>,
    /// The function (kernel or device function) it concerns, if one.
    pub function: Option<String>,
    /// The compiler stage that reported it (`lower`, `legalize`,
    /// `select`, `regalloc`, `emit`), for errors after checking.
    pub stage: Option<String>,
}

impl Diagnostic {
    /// An error without a location.
    pub(crate) fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), location: None, function: None, stage: None }
    }

    /// A warning without a location.
    pub(crate) fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message) }
    }

    /// A front-end diagnostic, located in `source`.
    pub(crate) fn from_front_end(d: &diag::Diagnostic, map: &LineMap, source: &str) -> Diagnostic {
        let (line, column) = map.line_col(source, d.span.start);
        let severity = match d.severity {
            diag::Severity::Error => Severity::Error,
            diag::Severity::Warning => Severity::Warning,
        };
        let span = Some(d.span.start as usize..d.span.end as usize);
        Diagnostic { severity, message: d.message.clone(), location: Some(Location { line, column, span }), function: None, stage: None }
    }

    /// A stage's error.
    pub(crate) fn from_stage(e: &StageError) -> Diagnostic {
        let location = (e.line > 0).then(|| Location { line: e.line, column: e.column, span: e.span.map(|s| s.start as usize..s.end as usize) });
        Diagnostic {
            severity: Severity::Error,
            message: e.message.clone(),
            location,
            function: (!e.function.is_empty()).then(|| e.function.clone()),
            stage: Some(e.stage.name().to_string()),
        }
    }

    /// The diagnostic as `ptxas` prints one, without a line break:
    /// `ptxas FILE, line N; error   : MESSAGE` (`warning :` for a
    /// warning), or `ptxas error   : MESSAGE` without a location. A
    /// stage's error names the stage and the function before the message.
    pub fn render_ptxas(&self, file_name: &str) -> String {
        let kind = match self.severity {
            Severity::Error => "error   ",
            Severity::Warning => "warning ",
        };
        let mut text = String::new();
        if let Some(stage) = &self.stage {
            text.push_str(stage);
            text.push_str(": ");
        }
        if let (Some(f), Some(_)) = (&self.function, &self.stage) {
            text.push_str(f);
            text.push_str(": ");
        }
        text.push_str(&self.message);
        match &self.location {
            Some(l) => format!("ptxas {file_name}, line {}; {kind}: {text}", l.line),
            None => format!("ptxas {kind}: {text}"),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `LINE:COLUMN: error: MESSAGE` (without the location when there is
    /// none; with the function and the stage for a stage's error).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = &self.location {
            write!(f, "{}:{}: ", l.line, l.column)?;
        }
        write!(f, "{}: ", self.severity.name())?;
        if let Some(stage) = &self.stage {
            write!(f, "{stage}: ")?;
            if let Some(func) = &self.function {
                write!(f, "{func}: ")?;
            }
        }
        f.write_str(&self.message)
    }
}

/// Why [`compile`](crate::compile) (or another call of the library)
/// failed: a kind and one or more diagnostics, errors first in the order
/// found (warnings found before the failure follow them).
///
/// ```
/// let error = ptx2sass::compile(".version 8.5\n.target sm_90\nbogus;\n", &Default::default()).unwrap_err();
/// assert_eq!(error.kind(), ptx2sass::ErrorKind::InvalidPtx);
/// assert_eq!(error.diagnostics()[0].location.as_ref().unwrap().line, 3);
/// let text = error.render_ptxas("k.ptx");
/// assert!(text.starts_with("ptxas k.ptx, line 3; error   : "));
/// assert!(text.ends_with("ptxas fatal   : Ptx assembly aborted due to errors\n"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error of `kind` with its diagnostics (at least one).
    pub(crate) fn new(kind: ErrorKind, mut diagnostics: Vec<Diagnostic>) -> Error {
        if diagnostics.is_empty() {
            diagnostics.push(Diagnostic::error("failed without a message"));
        }
        // Errors first, each group in the order found.
        diagnostics.sort_by_key(|d| std::cmp::Reverse(d.severity));
        Error { kind, diagnostics }
    }

    /// An invalid option.
    pub(crate) fn options(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidOptions, vec![Diagnostic::error(message)])
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The diagnostics: errors, then any warnings.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The error as `ptxas` reports one: a line per diagnostic
    /// ([`Diagnostic::render_ptxas`]), then, for invalid PTX and for code
    /// the compiler could not generate, `ptxas fatal   : Ptx assembly
    /// aborted due to errors`; an invalid option is one `ptxas fatal`
    /// line. Every line ends with a line break.
    pub fn render_ptxas(&self, file_name: &str) -> String {
        let mut out = String::new();
        if self.kind == ErrorKind::InvalidOptions {
            for d in &self.diagnostics {
                out.push_str(&format!("ptxas fatal   : {}\n", d.message));
            }
            return out;
        }
        for d in &self.diagnostics {
            out.push_str(&d.render_ptxas(file_name));
            out.push('\n');
        }
        if matches!(self.kind, ErrorKind::InvalidPtx | ErrorKind::UnsupportedPtxVersion | ErrorKind::Unsupported) {
            out.push_str("ptxas fatal   : Ptx assembly aborted due to errors\n");
        }
        out
    }

    /// The error in the `ptx2sass` tool's form: `FILE:LINE:COLUMN:
    /// error: MESSAGE`, then, where the diagnostic has a span in
    /// `source` (the text compiled), that source line and a caret line
    /// under the span.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            match d.location.as_ref().and_then(|l| l.span.clone()) {
                Some(span) if span.start <= span.end && span.end <= source.len() => {
                    let severity = match d.severity {
                        Severity::Error => diag::Severity::Error,
                        Severity::Warning => diag::Severity::Warning,
                    };
                    let one = diag::Diagnostics {
                        list: vec![diag::Diagnostic { severity, span: diag::Span::new(span.start as u32, span.end as u32), message: d.to_string_without_location() }],
                    };
                    out.push_str(&one.render(file_name, source));
                }
                _ if d.location.is_some() => out.push_str(&format!("{file_name}:{d}\n")),
                _ => out.push_str(&format!("{file_name}: {d}\n")),
            }
        }
        out
    }

    /// The error as one JSON object: `{"kind": "invalid_ptx",
    /// "diagnostics": [{"severity": "error", "message": "...", "line": 3,
    /// "column": 1, "span": [20, 25], "function": null, "stage": null}]}`
    /// (`line`, `column` and `span` are null where unknown).
    pub fn to_json(&self) -> String {
        let diagnostics: Vec<serde_json::Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                let loc = d.location.as_ref();
                serde_json::json!({
                    "severity": d.severity.name(),
                    "message": d.message,
                    "line": loc.map(|l| l.line),
                    "column": loc.map(|l| l.column),
                    "span": loc.and_then(|l| l.span.clone()).map(|s| [s.start, s.end]),
                    "function": d.function,
                    "stage": d.stage,
                })
            })
            .collect();
        serde_json::json!({ "kind": self.kind.name(), "diagnostics": diagnostics }).to_string()
    }
}

impl Diagnostic {
    /// [`Display`](fmt::Display) without the `LINE:COLUMN:` and severity
    /// prefix (the caret renderer prints those itself).
    fn to_string_without_location(&self) -> String {
        match (&self.stage, &self.function) {
            (Some(stage), Some(func)) => format!("{stage}: {func}: {}", self.message),
            (Some(stage), None) => format!("{stage}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

impl fmt::Display for Error {
    /// One line per diagnostic, as [`Diagnostic`] displays.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, d) in self.diagnostics.iter().enumerate() {
            if n > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_in_every_form() {
        let source = "abc\n  def ghi\n";
        let d = Diagnostic { location: Some(Location { line: 2, column: 3, span: Some(6..9) }), ..Diagnostic::error("bad thing") };
        let e = Error::new(ErrorKind::InvalidPtx, vec![Diagnostic::warning("w"), d]);
        assert_eq!(e.diagnostics()[0].message, "bad thing", "errors come first");
        assert_eq!(e.render_ptxas("f.ptx"), "ptxas f.ptx, line 2; error   : bad thing\nptxas warning : w\nptxas fatal   : Ptx assembly aborted due to errors\n");
        assert_eq!(e.render("f.ptx", source), "f.ptx:2:3: error: bad thing\n  def ghi\n  ^~~\nf.ptx: warning: w\n");
        assert_eq!(e.to_string(), "2:3: error: bad thing\nwarning: w");
        let json: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(json["kind"], "invalid_ptx");
        assert_eq!(json["diagnostics"][0]["span"], serde_json::json!([6, 9]));
        assert_eq!(json["diagnostics"][1]["line"], serde_json::Value::Null);
    }

    #[test]
    fn a_span_outside_the_source_does_not_panic() {
        let d = Diagnostic { location: Some(Location { line: 9, column: 1, span: Some(50..60) }), ..Diagnostic::error("x") };
        let e = Error::new(ErrorKind::InvalidPtx, vec![d]);
        assert_eq!(e.render("f", "short"), "f:9:1: error: x\n");
        assert_eq!(Error::options("bad").render_ptxas("f"), "ptxas fatal   : bad\n");
    }
}
