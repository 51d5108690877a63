//! The Ori IR: a SASS-level IR on virtual registers (DESIGN.md, "The Ori
//! IR").
//!
//! Present so far: the storage scheme ([`entity`]: newtype indices and dense
//! maps), value types by register file and width ([`types`]), and the
//! control-flow analyses ([`cfg`]: predecessors, reverse post-order,
//! dominators). Functions, instructions, the verifier, printer, parser and
//! builder come with the lowering (issue 6).

pub mod cfg;
pub mod entity;
pub mod types;
