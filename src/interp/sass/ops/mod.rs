//! The instructions' semantics, one module per family of operations.
//!
//! Each module owns its family's executable form (an enum that
//! [`super::super::op::Op`] holds one variant of), the translation of a decoded
//! [`crate::isa::inst::Inst`] into it (`Translator::translate_FAMILY`,
//! which answers `None` for another family's instruction) and its
//! execution on a warp (`exec`). Adding an instruction to a family touches
//! that family's module only; [`super::op`] routes translation through the
//! families in turn and [`super::exec`] routes execution by family.

pub mod bits;
pub mod compare;
pub mod control;
pub mod convert;
pub mod float32;
pub mod float64;
pub mod half;
pub mod int;
pub mod memory;
pub mod mma;
pub mod special;
pub mod texture;
pub mod warp;
