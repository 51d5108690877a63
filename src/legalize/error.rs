//! The error legalization reports: which instruction, where, and why.

use crate::ir::{Attrs, Function, Inst, Opcode, SrcLoc};
use crate::target::Sm;
use std::fmt;

/// An instruction legalization cannot handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalizeError {
    /// The function.
    pub function: String,
    /// The instruction (in the function given to legalization).
    pub inst: Inst,
    /// Its opcode and attributes as text (`div.rn.f64`).
    pub op: String,
    /// The whole instruction as the IR printer writes it.
    pub text: String,
    /// Its source location.
    pub loc: SrcLoc,
    /// The target.
    pub sm: Sm,
    /// What went wrong.
    pub reason: String,
}

impl LegalizeError {
    /// An error about instruction `inst` of `func`.
    pub(crate) fn new(func: &Function, inst: Inst, sm: Sm, reason: impl Into<String>) -> LegalizeError {
        let data = &func.insts[inst];
        LegalizeError {
            function: func.name.clone(),
            inst,
            op: op_text(data.opcode, &data.attrs),
            text: crate::ir::print::print_inst(func, inst),
            loc: func.locs[inst],
            sm,
            reason: reason.into(),
        }
    }
}

/// `opcode.words` (`div.rn.f64`, `IDIV.u64`).
fn op_text(opcode: Opcode, attrs: &Attrs) -> String {
    format!("{}{}", opcode.name(), attrs.words())
}

impl fmt::Display for LegalizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {} for {} on {}: `{}` (in {})", self.loc.line, self.loc.col, self.reason, self.op, self.sm, self.text, self.function)
    }
}

impl std::error::Error for LegalizeError {}
