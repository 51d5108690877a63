//! ptx2sass: compiles NVIDIA PTX to SASS machine code in loadable cubins.
//!
//! The pipeline (see DESIGN.md) runs PTX text through [`ptx`] (parse and
//! check) and, as later stages land, lowering to the Ori IR, ISLE
//! legalization and selection, register allocation, scheduling, encoding and
//! cubin writing. Today the front end is complete.

#![deny(missing_docs)]

pub mod diag;
pub mod ptx;
pub mod reference;
pub mod target;
