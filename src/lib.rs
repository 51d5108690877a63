//! ptx2sass compiles NVIDIA PTX to SASS machine code in loadable cubins,
//! in process and without a CUDA installation: a library for compilers
//! that produce GPU code, and the engine of the `ptxas`-compatible
//! `ptx2sass` tool.
//!
//! One call compiles: [`compile`] takes PTX text (or an Ori module built
//! in memory with [`ori`]) and [`Options`] (the [`Target`] GPU, the
//! optimisation level, a register limit, …) and returns an [`Output`]:
//! the cubin's bytes, what each kernel uses (registers, spills, stack,
//! shared memory, barriers) and the warnings; or an [`Error`] whose
//! [`Diagnostic`]s point into the source and render as `ptxas` prints
//! them.
//!
//! ```
//! use ptx2sass::{compile, Options, Target};
//!
//! let ptx = r#"
//! .version 8.5
//! .target sm_80
//! .address_size 64
//! .visible .entry fill(.param .u64 out, .param .u32 value)
//! {
//!     .reg .b32 %r<3>;
//!     .reg .b64 %rd<4>;
//!     ld.param.u64 %rd1, [out];
//!     ld.param.u32 %r1, [value];
//!     cvta.to.global.u64 %rd2, %rd1;
//!     mov.u32 %r2, %tid.x;
//!     mul.wide.u32 %rd3, %r2, 4;
//!     add.s64 %rd2, %rd2, %rd3;
//!     st.global.u32 [%rd2], %r1;
//!     ret;
//! }
//! "#;
//! let target: Target = "sm_90".parse()?;
//! let output = compile(ptx, &Options::new(target))?;
//! assert_eq!(&output.cubin[..4], b"\x7fELF");
//! let fill = &output.kernels[0];
//! assert_eq!(fill.name, "fill");
//! assert!(fill.registers > 0 && fill.spill_store_bytes == 0);
//!
//! // A mistake comes back with its line, in ptxas's words or as data.
//! let error = compile(&ptx.replace("%r1, [value]", "%r9, [value]"), &Options::new(target)).unwrap_err();
//! let first = &error.diagnostics()[0];
//! assert_eq!(first.location.as_ref().map(|l| l.line), Some(10));
//! assert!(error.render_ptxas("fill.ptx").starts_with("ptxas fill.ptx, line 10; error   : "));
//! # Ok::<(), ptx2sass::Error>(())
//! ```
//!
//! The same call takes an [`ori::Module`]: functions, parameters, blocks
//! and instructions built in memory, for a compiler that would rather not
//! print PTX (`examples/build_kernel.rs` builds, compiles and disassembles
//! one). [`disassemble`] lists a cubin's SASS.
//!
//! # Stability
//!
//! The items at the crate root and in [`ori`] are the library's interface;
//! `tests/public_api.rs` records them, so changes to them are deliberate.
//! [`internals`] holds the compiler's stages for the tools and tests of
//! this repository and is not stable.
//!
//! # The C library
//!
//! `capi/` (a crate of this workspace) builds a static and a shared library
//! with the functions of NVIDIA's `nvPTXCompiler.h`, so that a C or C++
//! program written against NVIDIA's PTX compiler library links against
//! ptx2sass unchanged.

#![deny(missing_docs)]

mod api;
pub mod internals;
pub mod ori;

pub use api::compile::{Input, KernelInfo, Output, compile, disassemble};
pub use api::error::{Diagnostic, Error, ErrorKind, Location, Severity};
pub use api::options::Options;
pub use api::target::{PTX_ISA_VERSIONS, TRIPLE, Target};

/// The version of this crate (`Cargo.toml`'s).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The stages under their own names inside the crate: `crate::ir`,
// `crate::lower`, … (the paths every module uses).
pub(crate) use internals::{args, cubin, diag, driver, emit, fxhash, interp, ir, isa, legalize, lower, opt, parallel, ptx, regalloc, sched, select, target};
#[cfg(test)] // the unit tests that compare with NVIDIA's tools
pub(crate) use internals::reference;
pub(crate) use internals::ir::entity::ir_entity;
