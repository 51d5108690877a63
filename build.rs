//! Build script: compiles the ISLE programs (`isle/*.isle`) with
//! cranelift-isle into `OUT_DIR`, where `src/*/generated.rs` include them.
//! An ISLE error fails the build with its file and line.

use std::path::{Path, PathBuf};

/// Each program: the output file name and its source files, in order.
const PROGRAMS: &[(&str, &[&str])] = &[("isle_select.rs", &["isle/select_prelude.isle", "isle/select.isle"])];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=isle");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    for (output, inputs) in PROGRAMS {
        compile(&manifest, inputs, &out_dir.join(output));
    }
}

fn compile(manifest: &Path, inputs: &[&str], output: &Path) {
    let paths: Vec<PathBuf> = inputs.iter().map(|p| manifest.join(p)).collect();
    for p in &paths {
        println!("cargo::rerun-if-changed={}", p.display());
    }
    let options = cranelift_isle::codegen::CodegenOptions {
        exclude_global_allow_pragmas: true,
        // File names in the generated code relative to the crate (deterministic output).
        prefixes: vec![cranelift_isle::codegen::Prefix { prefix: format!("{}/", manifest.display()), name: String::new() }],
        split_match_arms: std::env::var("PROFILE").as_deref() == Ok("debug"),
        ..Default::default()
    };
    match cranelift_isle::compile::from_files(&paths, &options) {
        Ok(code) => {
            if let Err(e) = std::fs::write(output, code) {
                panic!("cannot write {}: {e}", output.display());
            }
        }
        Err(errors) => {
            eprintln!("{errors}");
            panic!("ISLE compilation of {inputs:?} failed (errors above)");
        }
    }
}
