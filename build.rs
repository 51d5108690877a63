//! Build script: writes the generated sources into `OUT_DIR` by a call
//! into `ptx2sass-meta` (`meta/`, a build dependency: the definitions and
//! the generators), as `cranelift-codegen`'s build script calls
//! `cranelift-codegen-meta`. What it writes: the ISLE programs
//! (`isle/*.isle`) compiled to Rust, which `src/<stage>/generated.rs`
//! `include!`s (DESIGN.md, "ISLE"); the SASS form table's forms, encoding
//! plans, opcode rows and opcode and modifier-token enums (`isa_*.rs`),
//! which `src/isa/` includes; the PTX parser's keyword and name tables
//! (`ptx_tables.rs`). An error (an ISLE program's syntax, types,
//! overlapping or shadowed rules; a form table inconsistency) fails the
//! build with every problem, each with its file and line where it has one.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for input in ptx2sass_meta::inputs() {
        println!("cargo::rerun-if-changed={input}");
    }
    // The command-line tools run once per file, often on small files, so
    // their start counts: a position-dependent executable needs no load-time
    // relocation of its tables (measured: ~120 K fewer instructions and 44
    // fewer page faults per `ptx2sass --version`).
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    // Debug builds split large match arms into closures, which keeps the
    // unoptimised generated functions' stack frames small.
    let debug = std::env::var("PROFILE").map(|p| p == "debug").unwrap_or(false);
    if let Err(problems) = ptx2sass_meta::generate(&manifest, &out_dir, debug) {
        for problem in problems {
            println!("cargo::error={problem}");
        }
        std::process::exit(1);
    }
}
