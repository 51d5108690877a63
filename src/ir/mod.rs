//! The Ori IR: a SASS-level IR on virtual registers (DESIGN.md, "The Ori
//! IR").
//!
//! * [`entity`]: the storage scheme (newtype indices, dense maps);
//! * [`types`]: value types by register file and width;
//! * [`opcode`], [`attrs`]: the two opcode layers and their typed variants;
//! * [`function`], [`module`]: functions of blocks with parameters, SSA
//!   values, module-scope variables;
//! * [`builder`]: the public construction API (with SSA construction from
//!   mutable variables);
//! * [`cfg`]: predecessors, reverse post-order, dominators.

pub mod attrs;
pub mod builder;
pub mod cfg;
pub mod entity;
pub mod function;
pub mod module;
pub mod opcode;
pub mod types;

pub use attrs::{Attrs, BoolOp, Cmp, DataType, MufuFunc, MulMode, Round, Space, SpecialReg};
pub use builder::{FunctionBuilder, Variable};
pub use function::{Block, BlockCall, BlockData, Function, FunctionKind, Guard, Inst, InstData, LaunchBounds, Param, SrcLoc, Value, ValueData, ValueDef};
pub use module::{FuncId, GlobalId, GlobalVar, Module};
pub use opcode::{Class, Layer, Opcode};
pub use types::{RegFile, Type};
