//! Build script: compiles the ISLE programs (`isle/*.isle`) into Rust in
//! `OUT_DIR` (DESIGN.md, "ISLE"). Each program is a list of ISLE files
//! compiled together; `src/<stage>/generated.rs` `include!`s the result.
//! An ISLE error (syntax, types, overlapping or shadowed rules) fails the
//! build with the file and line of every problem.

use std::path::{Path, PathBuf};

/// The ISLE programs: name (the generated file is `isle_<name>.rs`) and
/// the files compiled together, in order.
const PROGRAMS: &[(&str, &[&str])] = &[
    ("legalize", &["isle/prelude.isle", "isle/emit_ori.isle", "isle/legalize.isle"]),
    ("legalize_late", &["isle/prelude.isle", "isle/emit_ori.isle", "isle/legalize_late.isle"]),
    ("select", &["isle/select_prelude.isle", "isle/select.isle"]),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    // Debug builds split large match arms into closures, which keeps the
    // unoptimised generated functions' stack frames small.
    let debug = std::env::var("PROFILE").map(|p| p == "debug").unwrap_or(false);
    let options = cranelift_isle::codegen::CodegenOptions {
        exclude_global_allow_pragmas: true,
        split_match_arms: debug,
        // File names in generated comments relative to the crate, so the
        // output does not depend on where the crate is checked out.
        prefixes: vec![cranelift_isle::codegen::Prefix {
            prefix: format!("{}/", manifest.display()),
            name: String::new(),
        }],
        ..Default::default()
    };
    let mut failed = false;
    for &(name, files) in PROGRAMS {
        let paths: Vec<PathBuf> = files.iter().map(|f| manifest.join(f)).collect();
        for f in files {
            println!("cargo::rerun-if-changed={f}");
        }
        match cranelift_isle::compile::from_files(&paths, &options) {
            Ok(code) => write_if_changed(&out_dir.join(format!("isle_{name}.rs")), &code),
            Err(errors) => {
                failed = true;
                // One `cargo::error` line per line of the report: each
                // error names its file and line.
                for line in errors.to_string().lines() {
                    println!("cargo::error=ISLE program `{name}`: {line}");
                }
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}

/// Writes `code` unless the file already holds it (keeps the crate from
/// recompiling when nothing changed).
fn write_if_changed(path: &Path, code: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == code) {
        return;
    }
    if let Err(e) = std::fs::write(path, code) {
        println!("cargo::error=cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}
