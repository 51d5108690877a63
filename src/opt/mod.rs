//! Transformations of the Ori IR between the stages (DESIGN.md, "opt
//! passes"). Each pass is a module of its own.

pub mod contract;
pub mod inline;
pub mod special_registers;
