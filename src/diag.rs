//! Diagnostics: source spans, error and warning records, and their rendering
//! in the `file:line:col: error: message` form with the source line and a caret.
//!
//! Every stage reports user-facing problems through [`Diagnostics`]; nothing
//! on user input panics.

use std::fmt::Write as _;

/// A byte range in one source text. `start <= end`; both are byte offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end`.
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Compilation goes on.
    Warning,
    /// Compilation fails.
    Error,
}

/// One message attached to a source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where.
    pub span: Span,
    /// What, in one sentence without a trailing period.
    pub message: String,
}

/// A list of diagnostics, in source order of discovery.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// The records.
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds an error.
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.list.push(Diagnostic { severity: Severity::Error, span, message: message.into() });
    }
    /// Adds a warning.
    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.list.push(Diagnostic { severity: Severity::Warning, span, message: message.into() });
    }
    /// Whether any record is an error.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }
    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.severity == Severity::Error).count()
    }
    /// Whether there are no records at all.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// Appends another list.
    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }
    /// Renders every record as `file:line:col: error: message`, the source
    /// line, and a caret line under the span.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let map = LineMap::new(source);
        let mut out = String::new();
        for d in &self.list {
            render_one(&mut out, &map, file_name, source, d);
        }
        out
    }
}

fn render_one(out: &mut String, map: &LineMap, file: &str, source: &str, d: &Diagnostic) {
    let (line, col) = map.line_col(source, d.span.start);
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(out, "{file}:{line}:{col}: {kind}: {}", d.message);
    let text = map.line_text(source, line);
    let _ = writeln!(out, "{text}");
    // Caret line: keep tabs so the caret lines up under the source text.
    let mut caret = String::new();
    for ch in text.chars().take(col.saturating_sub(1) as usize) {
        caret.push(if ch == '\t' { '\t' } else { ' ' });
    }
    let start = d.span.start as usize;
    let line_end = map.line_end(source, line);
    let width = (d.span.end as usize).min(line_end).saturating_sub(start).max(1);
    let width = source.get(start..start + width).map_or(1, |s| s.chars().count().max(1));
    caret.push('^');
    for _ in 1..width {
        caret.push('~');
    }
    let _ = writeln!(out, "{caret}");
}

/// Byte offsets of line starts, for turning spans into line:column.
#[derive(Clone, Debug)]
pub struct LineMap {
    starts: Vec<u32>,
}

impl LineMap {
    /// Scans `source` for line breaks.
    pub fn new(source: &str) -> LineMap {
        let mut starts = vec![0];
        for (i, b) in source.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i as u32 + 1);
            }
        }
        LineMap { starts }
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, source: &str, offset: u32) -> (u32, u32) {
        let offset = offset.min(source.len() as u32);
        let line_idx = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line_idx] as usize;
        let mut end = offset as usize;
        while !source.is_char_boundary(end) {
            end -= 1;
        }
        let col = source[start..end].chars().count() as u32 + 1;
        (line_idx as u32 + 1, col)
    }
    /// 1-based line number of a byte offset.
    pub fn line(&self, offset: u32) -> u32 {
        match self.starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }
    fn line_end(&self, source: &str, line: u32) -> usize {
        let next = self.starts.get(line as usize).map_or(source.len(), |&s| s as usize - 1);
        next.min(source.len())
    }
    /// Text of a 1-based line without its line break.
    pub fn line_text<'a>(&self, source: &'a str, line: u32) -> &'a str {
        let start = self.starts[(line as usize - 1).min(self.starts.len() - 1)] as usize;
        let end = self.line_end(source, line);
        source.get(start..end).unwrap_or("").trim_end_matches('\r')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_col_and_caret() {
        let src = "abc\n  def ghi\n";
        let mut d = Diagnostics::new();
        d.error(Span::new(6, 9), "bad thing");
        let text = d.render("f.ptx", src);
        assert_eq!(text, "f.ptx:2:3: error: bad thing\n  def ghi\n  ^~~\n");
    }

    #[test]
    fn span_at_end_of_file_does_not_panic() {
        let src = "abc";
        let mut d = Diagnostics::new();
        d.error(Span::new(3, 3), "unexpected end of file");
        assert!(d.render("f", src).starts_with("f:1:4: error"));
    }
}
