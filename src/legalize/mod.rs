//! Legalization: Ori functions of PTX-layer operations become functions of
//! SASS-layer operations legal on the target SM (DESIGN.md, "ISLE").
//!
//! Two ISLE programs do the work (`isle/legalize.isle`,
//! `isle/legalize_late.isle`, over `isle/prelude.isle`,
//! `isle/legalize_prelude.isle` and `isle/emit_ori.isle`; compiled by
//! `build.rs`). Rules match the instruction being legalized and, through
//! `def_inst`, the instructions that produced its operands (see
//! [`context`], "Producers"); they build SASS-layer instructions through
//! the typed constructors of `isle/emit_ori.isle`:
//! * [`legalize`] (early): every PTX-layer operation to SASS-layer ones.
//!   Operations optimization should see whole (division, remainder) become
//!   single pseudo operations ([`Opcode::Idiv`], [`Opcode::Irem`],
//!   [`Opcode::Fdiv`]).
//! * [`legalize_late`]: expands those pseudo operations.
//!
//! Both build a new function; the input is not changed. Blocks keep their
//! indices and layout, 64-bit values stay `r64` (rules split them with
//! `Extract`/`Concat` where an operation works on halves), and guarded
//! instructions keep their meaning (see [`context`] for how).
//!
//! The operand conventions of the SASS-layer operations legalization emits
//! (which argument is what, where a `LOP3` table or `LDC` bank goes) are
//! written at the top of `isle/emit_ori.isle`.
//!
//! [`Opcode::Idiv`]: crate::ir::Opcode::Idiv
//! [`Opcode::Irem`]: crate::ir::Opcode::Irem
//! [`Opcode::Fdiv`]: crate::ir::Opcode::Fdiv

mod context;
mod error;
pub mod launch_abi;
mod generated;

pub use error::LegalizeError;

use crate::ir::{FuncId, Function, Module};
use crate::target::Sm;
use context::{Legalizer, Program};

/// Legalizes one function for `sm`: the result has only shared and
/// SASS-layer opcodes (division and remainder as pseudo operations).
pub fn legalize(func: &Function, sm: Sm) -> Result<Function, LegalizeError> {
    Legalizer::run(func, sm, Program::Early)
}

/// Expands the pseudo operations of a legalized function.
pub fn legalize_late(func: &Function, sm: Sm) -> Result<Function, LegalizeError> {
    Legalizer::run(func, sm, Program::Late)
}

/// Legalizes function `id` of a module for the module's SM.
pub fn legalize_in(module: &Module, id: FuncId) -> Result<Function, LegalizeError> {
    legalize(&module.functions[id], module.sm)
}

/// Legalizes every function of a module (declarations, without blocks,
/// stay as they are).
pub fn legalize_module(module: &Module) -> Result<Module, LegalizeError> {
    let mut out = Module { sm: module.sm, functions: Default::default(), globals: module.globals.clone(), inline_chains: module.inline_chains.clone(), texrefs: module.texrefs.clone(), surfrefs: module.surfrefs.clone() };
    for (_, f) in module.functions.iter() {
        out.functions.push(legalize(f, module.sm)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod fp_tests;
