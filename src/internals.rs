//! The compiler's stages, one module each, for the command-line tools,
//! the tests, the benchmarks and the fuzzers of this repository.
//!
//! **Not a stable interface.** Everything here changes with the compiler:
//! a program that compiles PTX or Ori IR uses the crate root
//! ([`compile`](crate::compile), [`Options`](crate::Options),
//! [`ori`](crate::ori)), which is versioned; code here is not, and its
//! paths, types and functions change between any two commits.
//!
//! The pipeline (DESIGN.md, "Pipeline and module map"), run by
//! [`driver`]: [`ptx`] parses and checks PTX text; [`lower`] turns it
//! into the Ori IR ([`ir`]) of PTX-layer operations; [`opt`] transforms
//! that IR (inlining); [`legalize`] rewrites it into SASS-layer operations
//! legal on the target SM and [`select`] into machine instructions on
//! virtual registers (both ISLE programs); [`regalloc`] assigns registers;
//! [`emit`] schedules ([`sched`]) and encodes each kernel into the cubin
//! model that [`cubin`] writes.
//!
//! Beside the pipeline: [`isa`], the SASS machine layer (instruction words
//! and forms, encoding, decoding and text, per SM); [`interp`], the PTX and
//! SASS interpreters; [`target`], [`diag`], [`args`] (the `ptxas` option
//! parser the CLI and the C library share), [`parallel`], [`fxhash`], and
//! [`reference`](mod@reference) (NVIDIA's tools, for the tests that
//! compare with them).
//!
//! The stage modules keep their files where they were (`src/<stage>`);
//! inside the crate they are also reachable as `crate::<stage>`.

// Each `#[path]` names the module's own file: the stages live at the top
// of `src/`, one folder or file each, and are declared here so that the
// crate root exports them under this one name.

#[path = "args.rs"]
pub mod args;
#[path = "cubin/mod.rs"]
pub mod cubin;
#[path = "diag.rs"]
pub mod diag;
#[path = "driver.rs"]
pub mod driver;
#[path = "emit/mod.rs"]
pub mod emit;
#[path = "fxhash.rs"]
pub mod fxhash;
#[path = "interp/mod.rs"]
pub mod interp;
#[path = "ir/mod.rs"]
pub mod ir;
#[path = "isa/mod.rs"]
pub mod isa;
// Links in these two stages' docs that rustdoc cannot follow (hex offsets
// written in brackets, links to private items) are allowed here until
// those docs are next edited.
#[allow(rustdoc::broken_intra_doc_links, rustdoc::private_intra_doc_links)]
#[path = "legalize/mod.rs"]
pub mod legalize;
#[allow(rustdoc::private_intra_doc_links)]
#[path = "lower/mod.rs"]
pub mod lower;
#[path = "opt/mod.rs"]
pub mod opt;
#[path = "parallel.rs"]
pub mod parallel;
#[path = "ptx/mod.rs"]
pub mod ptx;
#[path = "reference.rs"]
pub mod reference;
#[path = "regalloc/mod.rs"]
pub mod regalloc;
#[path = "sched/mod.rs"]
pub mod sched;
#[path = "select/mod.rs"]
pub mod select;
// SM versions and the target triple: the shared crate's (the build
// script's generator reads them too).
pub use ptx2sass_shared::target;
