//! The generators of the compiler's machine-layer tables, and the
//! definition's view of the machine layer: the shared crate's modules at
//! the paths the compiler has them (`crate::isa::form`, ...), with the
//! form types over plain numbers for the opcode and modifier tokens, which
//! the writers turn into the compiler's generated enums.

pub(crate) use ptx2sass_shared::isa::{bits, branch, family, op_facts, operand};

/// The form types as the definition builds them: opcode and modifier
/// tokens as plain numbers (an index into the opcode rows, a token
/// number), which the table's definition leaves for the writer to set,
/// and operand widths as the rows declare them (`widths`), which the
/// writer evaluates.
pub(crate) mod form {
    pub(crate) use ptx2sass_shared::isa::form::*;
    pub(crate) type Form = ptx2sass_shared::isa::form::Form<u16, u16, crate::isa::widths::OperandWidths>;
    pub(crate) type Spelling = ptx2sass_shared::isa::form::Spelling<u16>;
}

/// The compiler's `isa::table`, as far as the table's definition reads it.
pub(crate) mod table {
    pub(crate) use crate::opcodes;
}

/// The plan compiler, over the definition's forms.
pub(crate) mod plan_compile {
    pub(crate) use ptx2sass_shared::isa::plan::compile::*;
    pub(crate) type Plan = ptx2sass_shared::isa::plan::compile::Plan<u16, u16, crate::isa::widths::OperandWidths>;
}

// The plans' writer, here so that it sees the plan types.
pub(crate) mod plans;

// The opcode and modifier-token enums' generator.
pub(crate) mod ops;

// The opcode rows' writer.
pub(crate) mod facts;

// The operand widths: the rows' declaration, its evaluation and writer.
pub(crate) mod widths;

// The typed machine instructions' generator.
pub(crate) mod mach;
