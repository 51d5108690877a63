//! The pass pipeline from checked PTX to machine functions on virtual
//! registers (DESIGN.md, "Pipeline and module map"): lowering, early and
//! late legalization, selection, with the IR verifier between the stages
//! when asked (tests and debug builds ask).
//!
//! Each stage works one function at a time, so a kernel that uses an
//! operation the compiler does not handle yet fails alone; the error says
//! which stage refused it and why.

use crate::ir::verify::{Stage as VerifyStage, verify_function};
use crate::ir::{self, FuncId, Function, Opcode};
use crate::legalize;
use crate::lower;
use crate::ptx::ast;
use crate::select::{self, MachFunction};
use crate::target::Sm;
use std::collections::BTreeSet;
use std::fmt;

/// A stage of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// PTX → raw Ori.
    Lower,
    /// Operation legalization (PTX-layer ops → SASS-layer ops).
    Legalize,
    /// Late expansions (division and other ops kept whole until now).
    LegalizeLate,
    /// Ori → machine instructions on virtual registers.
    Select,
}

impl Stage {
    /// The stage's name (as `--dump-ir=<name>` and filetests spell it).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lower => "lower",
            Stage::Legalize => "legalize",
            Stage::LegalizeLate => "legalize-late",
            Stage::Select => "select",
        }
    }
}

/// Why a function did not get through a stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageError {
    /// The stage that refused it.
    pub stage: Stage,
    /// The function.
    pub function: String,
    /// What went wrong, with the source location where there is one.
    pub message: String,
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.stage.name(), self.function, self.message)
    }
}

impl std::error::Error for StageError {}

/// Pipeline options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Run the IR verifier after every stage.
    pub verify: bool,
}

/// Lowers a checked module; `source` (the PTX text) gives instructions
/// their PTX line and column. Functions that do not lower are reported
/// and left as declarations.
pub fn lower(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options) -> (ir::Module, Vec<StageError>) {
    let lowered = lower::lower_module_partial(module, sm, source);
    let mut errors: Vec<StageError> = lowered
        .errors
        .iter()
        .map(|e| StageError { stage: Stage::Lower, function: e.function.clone(), message: e.to_string() })
        .collect();
    if options.verify {
        for (_, f) in lowered.module.functions.iter().filter(|(_, f)| !f.layout.is_empty()) {
            if let Err(errs) = verify_function(&lowered.module, f, VerifyStage::Raw) {
                errors.push(verifier_error(Stage::Lower, f, &errs));
            }
        }
    }
    (lowered.module, errors)
}

fn verifier_error(stage: Stage, f: &Function, errs: &[ir::verify::VerifyError]) -> StageError {
    let first = errs.first().map(ToString::to_string).unwrap_or_default();
    StageError { stage, function: f.name.clone(), message: format!("IR verifier ({} problems), first: {first}", errs.len()) }
}

/// Legalizes one function of a raw module (early, then late), verifying
/// the result when asked.
pub fn legalize_function(raw: &ir::Module, id: FuncId, options: Options) -> Result<Function, StageError> {
    let func = &raw.functions[id];
    let sm = raw.sm;
    let fail = |stage, message: String| StageError { stage, function: func.name.clone(), message };
    let early = legalize::legalize(func, sm).map_err(|e| fail(Stage::Legalize, e.to_string()))?;
    if options.verify {
        verify_function(raw, &early, VerifyStage::Legal).map_err(|errs| verifier_error(Stage::Legalize, &early, &errs))?;
    }
    let late = legalize::legalize_late(&early, sm).map_err(|e| fail(Stage::LegalizeLate, e.to_string()))?;
    if options.verify {
        verify_function(raw, &late, VerifyStage::Legal).map_err(|errs| verifier_error(Stage::LegalizeLate, &late, &errs))?;
    }
    Ok(late)
}

/// Selects machine instructions for a legalized function.
pub fn select_function(func: &Function, sm: Sm) -> Result<MachFunction, StageError> {
    select::select_function(func, sm).map_err(|e| StageError { stage: Stage::Select, function: func.name.clone(), message: e.to_string() })
}

/// The functions a function reaches through calls, itself included, in
/// increasing index order.
pub fn call_closure(module: &ir::Module, root: FuncId) -> Vec<FuncId> {
    use crate::ir::entity::EntityRef;
    let mut seen = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let f = &module.functions[id];
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                if data.opcode == Opcode::Call {
                    if let Ok(index) = usize::try_from(data.imm) {
                        let callee = FuncId::new(index);
                        if module.functions.is_valid(callee) {
                            stack.push(callee);
                        }
                    }
                }
            }
        }
    }
    seen.into_iter().collect()
}

/// A function through every stage: its machine form, or the first stage
/// that refused it.
pub fn compile_function(raw: &ir::Module, id: FuncId, options: Options) -> Result<MachFunction, StageError> {
    let legal = legalize_function(raw, id, options)?;
    select_function(&legal, raw.sm)
}

/// Every stage for every defined function of a checked module: the
/// machine functions (by the raw module's function order; `None` for
/// declarations and failures) and the errors.
pub fn compile_module(module: &ast::Module, sm: Sm, source: Option<&str>, options: Options) -> (Vec<Option<MachFunction>>, Vec<StageError>) {
    let (raw, mut errors) = lower(module, sm, source, options);
    let failed: BTreeSet<String> = errors.iter().map(|e| e.function.clone()).collect();
    let mut out = Vec::with_capacity(raw.functions.len());
    for (id, f) in raw.functions.iter() {
        if f.layout.is_empty() || failed.contains(&f.name) {
            out.push(None);
            continue;
        }
        match compile_function(&raw, id, options) {
            Ok(m) => out.push(Some(m)),
            Err(e) => {
                errors.push(e);
                out.push(None);
            }
        }
    }
    (out, errors)
}
