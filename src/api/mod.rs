//! The library's interface at the crate root: [`target`] (which GPU),
//! [`options`] (how to compile), [`compile`] (the one call, its input and
//! output, and disassembly) and [`error`] (diagnostics with source
//! locations). Each item is re-exported at the root; the stages behind it
//! are in [`crate::internals`].

pub mod compile;
pub mod error;
pub mod options;
pub mod target;
