//! ptx2sass: compiles NVIDIA PTX to SASS machine code in loadable cubins.
//!
//! The pipeline (see DESIGN.md) runs PTX text through [`ptx`] (parse and
//! check) and, as later stages land, lowering to the Ori IR, ISLE
//! legalization and selection, register allocation, scheduling, encoding and
//! cubin writing. Today the front end is complete, and [`isa`] holds the
//! first parts of the machine layer (word fields, control information,
//! opcode identification per SM).

#![deny(missing_docs)]

pub mod cubin;
pub mod diag;
pub mod driver;
pub mod emit;
pub mod fxhash;
pub mod interp;
pub mod ir;
pub mod isa;
pub mod legalize;
pub mod lower;
pub mod opt;
pub mod parallel;
pub mod ptx;
pub mod reference;
pub mod regalloc;
pub mod sched;
pub mod select;
pub mod target;
