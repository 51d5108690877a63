//! The Rust that `build.rs` generates from the ISLE programs, one module
//! per program, with the names the generated code expects in scope.
//!
//! The generated code is machine-written: the lints it trips are allowed
//! here, locally, and nowhere else.

/// Names every generated program refers to.
mod scope {
    pub(crate) use super::super::context::{Args, Output, Src, Unit, ValuePair};
    pub(crate) use crate::ir::{Attrs, BoolOp, Cmp, DataType, FpClass, Inst, MemOrder, MemScope, MufuFunc, MulMode, Opcode, RedOp, Round, Space, SpecialReg, Type, Value, WarpMode};

    pub(crate) use super::super::launch_abi::SHARED_WINDOW_CBANK as SHARED_WINDOW;

    /// `$R32` and the other type constants of the prelude.
    pub(crate) const R32: Type = Type::R32;
    pub(crate) const R64: Type = Type::R64;
    pub(crate) const P: Type = Type::P;
    pub(crate) const UR32: Type = Type::UR32;
}

/// `legalize`: PTX-layer operations to SASS-layer operations.
#[allow(missing_docs, dead_code, unused_variables, unused_imports, unreachable_patterns, unreachable_code, irrefutable_let_patterns, non_snake_case, non_camel_case_types, clippy::all)]
pub(crate) mod legalize {
    extern crate alloc;
    use super::scope::*;
    include!(concat!(env!("OUT_DIR"), "/isle_legalize.rs"));
}

/// `legalize_late`: expansion of the pseudo operations kept whole.
#[allow(missing_docs, dead_code, unused_variables, unused_imports, unreachable_patterns, unreachable_code, non_snake_case, non_camel_case_types, clippy::all)]
pub(crate) mod legalize_late {
    extern crate alloc;
    use super::scope::*;
    include!(concat!(env!("OUT_DIR"), "/isle_legalize_late.rs"));
}
