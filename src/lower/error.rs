//! Lowering's errors: a source span, the function it arose in, and a
//! message — rendered like the front end's diagnostics.

use crate::diag::{Diagnostics, LineMap, Span};
use std::fmt;

/// One problem that keeps a function (or a module-scope declaration) from
/// lowering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// Where in the PTX text (the offending instruction or declaration).
    pub span: Span,
    /// The function being lowered (empty for module-scope declarations).
    pub function: String,
    /// What, in one sentence without a trailing period. Unsupported
    /// instructions read `unsupported in lowering: <instruction name with
    /// its modifiers>`.
    pub message: String,
}

impl LowerError {
    /// 1-based line and column of the error in `source` (the text the
    /// module was parsed from).
    pub fn line_col(&self, source: &str) -> (u32, u32) {
        LineMap::new(source).line_col(source, self.span.start)
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.function.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{} (in {})", self.message, self.function)
        }
    }
}

/// Every problem found in a module, in source order per function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerErrors {
    /// The errors.
    pub errors: Vec<LowerError>,
}

impl LowerErrors {
    /// The errors as front-end diagnostics (one error record each).
    pub fn to_diagnostics(&self) -> Diagnostics {
        let mut d = Diagnostics::new();
        for e in &self.errors {
            d.error(e.span, e.to_string());
        }
        d
    }

    /// Renders every error as `file:line:col: error: message` with the
    /// source line and a caret, like [`Diagnostics::render`].
    pub fn render(&self, file_name: &str, source: &str) -> String {
        self.to_diagnostics().render(file_name, source)
    }
}

impl fmt::Display for LowerErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LowerErrors {}
