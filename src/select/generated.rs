//! The selection program compiled from `isle/select.isle` (and its
//! prelude) by the build script, and the names its code refers to.

#![allow(missing_docs, dead_code, unreachable_code, unreachable_patterns, unused_imports, unused_variables, non_snake_case, unused_mut, irrefutable_let_patterns, unused_assignments, non_camel_case_types, clippy::all)]

pub use crate::ir::Inst;
pub use crate::ir::Opcode;
pub use crate::ir::matrix::{MmaAcc, MmaBitOp, MmaElem, MmaShape};
pub use crate::ir::{BoolOp, Cmp, DataType, MemOrder, MemScope, MufuFunc, MulMode, RedOp, Round, Space, SpecialReg, WarpMode};
pub use super::context::{Arg, Class, Failure, MemModel, Shape};
pub use super::isle::{Guard, VRegs};
pub use super::mach::{MBlock, VReg};
pub use super::isle::Ops;
pub use crate::isa::op::{Mnemonic, Mod, Op as MachOp};
pub use crate::isa::op::mach::*;
/// A machine operand (legal for the slot it was made for).
pub type Src = crate::isa::operand::Operand;
/// ISLE's unit.
pub type Unit = ();

extern crate alloc;

include!(concat!(env!("OUT_DIR"), "/isle_select.rs"));
