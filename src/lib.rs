//! ptx2sass: compiles NVIDIA PTX to SASS machine code in loadable cubins.
//!
//! The pipeline (DESIGN.md, "Pipeline and module map"), one module per
//! stage, run by [`driver`]: [`ptx`] parses and checks PTX text; [`lower`]
//! turns it into the Ori IR ([`ir`]) of PTX-layer operations; [`opt`]
//! transforms that IR (inlining); [`legalize`] rewrites it into SASS-layer
//! operations legal on the target SM and [`select`] into machine
//! instructions on virtual registers (both ISLE programs); [`regalloc`]
//! assigns registers; [`emit`] schedules ([`sched`]) and encodes each
//! kernel into the cubin model that [`cubin`] writes.
//!
//! Beside the pipeline: [`isa`], the SASS machine layer (instruction words
//! and forms, encoding, decoding and text, per SM); [`interp`], the PTX and
//! SASS interpreters; [`target`], [`diag`], [`parallel`], [`fxhash`], and
//! [`reference`](mod@reference) (NVIDIA's tools, for the tests that compare
//! with them).

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
