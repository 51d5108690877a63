//! Run-time errors of the interpreters: what went wrong, where in the
//! program (a PTX source span or a SASS function and byte offset) and in
//! which thread.
//!
//! An interpreter never panics on its input; everything it cannot do or
//! that the program does wrong ends the run with an [`InterpError`].

use super::memory::MemFault;
use crate::diag::{LineMap, Span};
use std::fmt;

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The launch spec does not fit the kernel (no such kernel, wrong
    /// argument count or sizes).
    Launch,
    /// The program uses something the interpreter does not model.
    Unsupported,
    /// A memory access faulted.
    Memory,
    /// The step budget ran out (an unbounded loop, or a budget too small).
    StepBudget,
    /// `trap`, `brkpt`, a failed assertion.
    Trap,
    /// Threads wait at barriers that can never complete.
    Deadlock,
    /// A SASS register was read before its producer's result was ready
    /// (scoreboard not waited for, or fixed latency not elapsed).
    Hazard,
    /// The program itself is malformed (undecodable word, undefined
    /// register, a branch out of the function).
    Malformed,
}

/// Where in the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// A PTX instruction or directive.
    Ptx(Span),
    /// A SASS instruction: function name and byte offset in its section.
    Sass {
        /// The function (`.text.<name>`).
        function: String,
        /// Byte offset of the instruction.
        offset: u32,
    },
}

/// A run-time error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError {
    /// What kind.
    pub kind: ErrorKind,
    /// One sentence, no trailing period.
    pub message: String,
    /// The instruction, when the error belongs to one.
    pub site: Option<Site>,
    /// `(ctaid, tid)` of the thread (or of the warp's first active lane),
    /// when one thread or warp is at fault.
    pub thread: Option<([u32; 3], [u32; 3])>,
}

impl InterpError {
    /// An error without a site.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> InterpError {
        InterpError { kind, message: message.into(), site: None, thread: None }
    }

    /// Attaches the instruction's site.
    pub fn at(mut self, site: Site) -> InterpError {
        self.site = Some(site);
        self
    }

    /// Attaches the thread.
    pub fn in_thread(mut self, ctaid: [u32; 3], tid: [u32; 3]) -> InterpError {
        self.thread = Some((ctaid, tid));
        self
    }

    /// The error with a PTX span as `file:line:col`, given the source.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        match &self.site {
            Some(Site::Ptx(span)) => {
                let map = LineMap::new(source);
                let (line, col) = map.line_col(source, span.start);
                format!("{file_name}:{line}:{col}: {}", self.describe())
            }
            Some(Site::Sass { function, offset }) => format!("{file_name}: {function}+{offset:#06x}: {}", self.describe()),
            None => format!("{file_name}: {}", self.describe()),
        }
    }

    fn describe(&self) -> String {
        let kind = match self.kind {
            ErrorKind::Launch => "launch error",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Memory => "memory fault",
            ErrorKind::StepBudget => "step budget exhausted",
            ErrorKind::Trap => "trap",
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::Hazard => "hazard",
            ErrorKind::Malformed => "malformed program",
        };
        match self.thread {
            Some((c, t)) => format!(
                "{kind}: {} (ctaid {},{},{} tid {},{},{})",
                self.message, c[0], c[1], c[2], t[0], t[1], t[2]
            ),
            None => format!("{kind}: {}", self.message),
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.site {
            Some(Site::Ptx(span)) => write!(f, "{} (at byte {})", self.describe(), span.start),
            Some(Site::Sass { function, offset }) => write!(f, "{function}+{offset:#06x}: {}", self.describe()),
            None => f.write_str(&self.describe()),
        }
    }
}

impl std::error::Error for InterpError {}

impl From<MemFault> for InterpError {
    fn from(f: MemFault) -> InterpError {
        InterpError::new(ErrorKind::Memory, f.to_string())
    }
}

impl From<super::launch::SpecError> for InterpError {
    fn from(e: super::launch::SpecError) -> InterpError {
        InterpError::new(ErrorKind::Launch, e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_ptx_sites_as_line_and_column_with_the_thread() {
        let src = ".version 8.0\n  ld.global.u32 %r1, [%rd1];\n";
        let e = InterpError::new(ErrorKind::Memory, "out-of-bounds 4-byte global access at 0x10")
            .at(Site::Ptx(Span::new(15, 40)))
            .in_thread([1, 0, 0], [5, 0, 0]);
        assert_eq!(e.render("k.ptx", src), "k.ptx:2:3: memory fault: out-of-bounds 4-byte global access at 0x10 (ctaid 1,0,0 tid 5,0,0)");
        let s = InterpError::new(ErrorKind::Hazard, "R2 read before scoreboard 0 was waited for").at(Site::Sass { function: "k".into(), offset: 0x30 });
        assert_eq!(s.to_string(), "k+0x0030: hazard: R2 read before scoreboard 0 was waited for");
    }
}
