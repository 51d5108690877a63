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
//! * [`cfg`](mod@cfg): predecessors, reverse post-order, dominators;
//! * [`print`](mod@print), [`parse`]: the stable text form and its parser;
//! * [`verify`]: the invariants checked between stages.

pub mod attrs;
pub mod builder;
pub mod cfg;
pub mod entity;
pub mod function;
pub mod matrix;
pub mod module;
pub mod texture;
// The opcode rows: the shared crate's (the build script's generator
// writes their ISLE declaration).
pub use ptx2sass_shared::ir::opcode;
pub mod parse;
pub mod print;
pub mod types;
pub mod verify;

pub use attrs::{Attrs, BoolOp, Cmp, DataType, FpClass, MemOrder, MemScope, MufuFunc, MulMode, RedOp, Round, Space, SpecialReg, WarpMode};
pub use builder::{FunctionBuilder, Variable};
pub use function::{Block, BlockCall, BlockData, Function, FunctionKind, Guard, Inst, InstData, LaunchBounds, Param, RegisterName, SrcLoc, Value, ValueData, ValueDef};
pub use module::{AddressInit, FuncId, GlobalId, GlobalVar, Module};
pub use opcode::{Class, Layer, Opcode};
pub use parse::{parse_function, parse_module, parse_module_for, IrParseError};
pub use print::{print_function, print_inst, print_module};
pub use types::{RegFile, Type};
pub use verify::{verify_function, verify_function_id, verify_module, Stage, VerifyError};
