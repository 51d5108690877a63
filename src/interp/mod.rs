//! Executable semantics on both ends of the compiler, without a GPU.
//!
//! * [`launch`]: launch specs (the JSON of `scripts/gpu-run.py`), shared by
//!   both interpreters, the command-line tools and the GPU script;
//! * [`memory`]: bounds- and alignment-checked device memory;
//! * [`error`]: run-time errors with the instruction and thread at fault;
//! * [`ptx`]: the PTX interpreter (runs a parsed and checked module);
//! * [`sass`]: the SASS interpreter (runs the code of a cubin, checking the
//!   control codes for hazards);
//! * [`conformance`]: the ZLUDA conformance corpus as launch specs and
//!   expected outputs.

pub mod conformance;
pub mod error;
pub mod launch;
pub mod memory;
pub mod ptx;
pub mod sass;

pub use error::{ErrorKind, InterpError, Site};
pub use launch::{Launch, LaunchSpec};
