//! Build script. The ISLE programs (`isle/*.isle`) are compiled here once the
//! legalization and selection stages exist; the front end needs nothing yet.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=isle");
}
