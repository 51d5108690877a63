//! The build script's `crate::isa`: the crate's machine-layer modules it
//! compiles, at the paths the crate has them, so that their `crate::isa::…`
//! paths resolve here as in the crate.

pub(crate) use crate::{bits, branch, family, form, op_facts, operand};

/// The crate's `isa::table`, as far as the table's definition reads it.
pub(crate) mod table {
    pub(crate) use crate::opcodes;
}

#[allow(dead_code)]
#[path = "../../src/isa/plan/compile.rs"]
pub(crate) mod plan_compile;

// The plans' writer, here so that it sees the plan types.
pub(crate) mod plans;

// The opcode and modifier-token enums' generator.
pub(crate) mod ops;

// The operand widths' rule and writer.
pub(crate) mod widths;
