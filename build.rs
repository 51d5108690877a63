//! Build script: compiles the ISLE programs (`isle/*.isle`) into Rust in
//! `OUT_DIR` (DESIGN.md, "ISLE"). Each program is a list of ISLE files
//! compiled together; `src/<stage>/generated.rs` `include!`s the result.
//! An ISLE error (syntax, types, overlapping or shadowed rules) fails the
//! build with the file and line of every problem.
//!
//! It also derives the PTX parser's keyword and name tables from the
//! opcode table (`src/ptx/opcode_info.rs`, plain data compiled in here
//! too) into `ptx_tables.rs`, so a run of the compiler does not build them.
//! For the same reason it runs the SASS form table's definition
//! (`src/isa/table/define.rs`, with the types it builds) and writes the
//! forms as static data (`isa_forms.rs`, see `build/forms.rs`), and
//! compiles each form into its encoding plan (`src/isa/plan/compile.rs`)
//! written the same way (`isa_plans.rs`, see `build/isa/plans.rs`). From
//! the opcode rows (`src/isa/table/opcodes.rs`) and the forms' spellings
//! it generates the opcode and modifier-token enums (`isa_ops.rs`, see
//! `build/isa/ops.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[allow(dead_code)]
#[path = "src/ptx/opcode_info.rs"]
mod opcode_info;

// The Ori opcodes, whose ISLE enum is generated from them.
#[allow(dead_code)]
#[path = "src/ir/opcode.rs"]
mod ir_opcode;

// The parser's string index, to build its indexes here.
#[allow(dead_code)]
#[path = "src/ptx/lookup/namekey.rs"]
mod namekey;
#[allow(dead_code)]
#[path = "src/ptx/lookup/strindex.rs"]
mod strindex;

// The form table's definition and what it needs of the crate, at the
// paths the crate has them (`crate::isa::form`, ...).
#[allow(dead_code)]
#[path = "src/target.rs"]
mod target;
#[allow(dead_code)]
#[path = "src/isa/bits.rs"]
mod bits;
#[allow(dead_code)]
#[path = "src/isa/branch.rs"]
mod branch;
#[allow(dead_code)]
#[path = "src/isa/form.rs"]
mod form;
#[allow(dead_code)]
#[path = "src/isa/family.rs"]
mod family;
#[allow(dead_code)]
#[path = "src/isa/operand.rs"]
mod operand;

#[allow(dead_code)]
#[path = "src/isa/op_facts.rs"]
mod op_facts;
/// The form table's opcode and modifier types, before the build script
/// has generated them: plain numbers (an index into the opcode rows, a
/// token number), which the table's definition leaves for the writer to set.
mod op {
    pub type Op = u16;
    pub type Mod = u16;
}

#[path = "src/isa/table/opcodes.rs"]
mod opcodes;

#[path = "src/isa/table/define.rs"]
mod define;
#[macro_use]
#[path = "build/forms.rs"]
mod forms;
// After `forms`, whose `write_struct!` the plans' writer uses.
#[path = "build/isa/mod.rs"]
mod isa;

/// The ISLE programs: name (the generated file is `isle_<name>.rs`) and
/// the files compiled together, in order, after the shared prelude
/// (`isle/prelude.isle`) and the generated `Opcode` enum ([`ORI_OPCODES_ISLE`]).
/// A program that builds machine instructions also gets the generated SASS
/// opcode and modifier enums ([`SASS_OPS_ISLE`]).
const PROGRAMS: &[(&str, bool, &[&str])] = &[
    ("legalize", false, &["isle/legalize_prelude.isle", "isle/emit_ori.isle", "isle/legalize.isle"]),
    ("legalize_late", false, &["isle/legalize_prelude.isle", "isle/emit_ori.isle", "isle/legalize_late.isle"]),
    ("select", true, &["isle/select_prelude.isle", "isle/select.isle"]),
];

/// The generated ISLE declaration of the SASS opcodes and modifier tokens
/// (in `OUT_DIR`).
const SASS_OPS_ISLE: &str = "isle_sass_ops.isle";

/// The prelude every ISLE program starts with.
const ISLE_PRELUDE: &str = "isle/prelude.isle";

/// The generated ISLE declaration of the Ori opcodes (in `OUT_DIR`).
const ORI_OPCODES_ISLE: &str = "isle_ori_opcodes.isle";

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
        prefixes: vec![
            cranelift_isle::codegen::Prefix { prefix: format!("{}/", manifest.display()), name: String::new() },
            cranelift_isle::codegen::Prefix { prefix: format!("{}/", out_dir.display()), name: "<generated>/".to_string() },
        ],
        ..Default::default()
    };
    // The command-line tools run once per file, often on small files, so
    // their start counts: a position-dependent executable needs no load-time
    // relocation of its tables (measured: ~120 K fewer instructions and 44
    // fewer page faults per `ptx2sass --version`).
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
    println!("cargo::rerun-if-changed=src/ptx/opcode_info.rs");
    println!("cargo::rerun-if-changed=src/ptx/lookup/namekey.rs");
    println!("cargo::rerun-if-changed=src/ptx/lookup/strindex.rs");
    write_if_changed(&out_dir.join("ptx_tables.rs"), &ptx_tables());
    for input in ["build", "src/target.rs", "src/isa/bits.rs", "src/isa/branch.rs", "src/isa/family.rs", "src/isa/form.rs", "src/isa/operand.rs", "src/isa/op_facts.rs", "src/isa/table", "src/isa/plan/compile.rs"] {
        println!("cargo::rerun-if-changed={input}");
    }
    let generations = forms::generations();
    let ops = match isa::ops::Ops::of(generations) {
        Ok(ops) => ops,
        Err(problems) => {
            for p in problems {
                println!("cargo::error=form table: {p}");
            }
            std::process::exit(1);
        }
    };
    write_if_changed(&out_dir.join("isa_ops.rs"), &ops.source());
    write_if_changed(&out_dir.join(SASS_OPS_ISLE), &ops.isle());
    write_if_changed(&out_dir.join("isa_forms.rs"), &forms::source(generations, &ops));
    write_if_changed(&out_dir.join("isa_plans.rs"), &isa::plans::source(generations));
    println!("cargo::rerun-if-changed=src/ir/opcode.rs");
    println!("cargo::rerun-if-changed={ISLE_PRELUDE}");
    write_if_changed(&out_dir.join(ORI_OPCODES_ISLE), &ori_opcodes_isle());
    let mut failed = false;
    for &(name, machine, files) in PROGRAMS {
        let mut paths = vec![manifest.join(ISLE_PRELUDE), out_dir.join(ORI_OPCODES_ISLE)];
        if machine {
            paths.push(out_dir.join(SASS_OPS_ISLE));
        }
        paths.extend(files.iter().map(|f| manifest.join(f)));
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

/// The ISLE declaration of every Ori opcode (`ir::Opcode`, from the rows
/// of `src/ir/opcode.rs`), so that no program keeps a list of its own.
fn ori_opcodes_isle() -> String {
    let mut out = String::from(";; Generated by build.rs from src/ir/opcode.rs; do not edit.\n\n");
    out.push_str(";; Every Ori opcode (`ir::Opcode`).\n(type Opcode extern\n  (enum");
    for (k, (op, _, _, _)) in ir_opcode::OPCODES.iter().enumerate() {
        out.push_str(if k % 8 == 0 { "\n   " } else { "" });
        let _ = write!(out, " {op:?}");
    }
    out.push_str("))\n");
    out
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

/// The parser's tables derived from the opcode table: every distinct
/// modifier spelling, sorted (a keyword is its position here); per opcode
/// the bit set of keywords it allows; an index of the spellings; an index
/// of every dotted family name and dotted prefix of one, with the family
/// of exactly that name and whether a longer name continues it.
fn ptx_tables() -> String {
    let info = &opcode_info::INFO;
    let mut spellings: Vec<&str> = info.iter().flat_map(|op| op.modifiers.iter().copied()).collect();
    spellings.sort_unstable();
    spellings.dedup();
    let words = spellings.len().div_ceil(64);
    let mut out = String::from("// Generated by build.rs from src/ptx/opcode_info.rs; do not edit.\n\n");
    let _ = writeln!(out, "/// Every distinct modifier spelling of the opcode table, sorted.");
    let _ = writeln!(out, "pub static KEYWORD_SPELLINGS: [&str; {}] = {:?};", spellings.len(), spellings);
    let _ = writeln!(out, "/// Words of a bit set over keywords.");
    let _ = writeln!(out, "pub const KEYWORD_WORDS: usize = {words};");
    let _ = writeln!(out, "/// Per opcode (by discriminant), the keywords it allows.");
    let _ = writeln!(out, "pub static KEYWORDS_ALLOWED: [[u64; KEYWORD_WORDS]; {}] = [", info.len());
    for op in info {
        let mut bits = vec![0u64; words];
        for m in op.modifiers {
            if let Ok(k) = spellings.binary_search(m) {
                bits[k / 64] |= 1u64 << (k % 64);
            }
        }
        let _ = writeln!(out, "    {bits:#x?},");
    }
    let _ = writeln!(out, "];");
    // name -> (opcode discriminant or u16::MAX, continues)
    let mut names: BTreeMap<&str, (u16, bool)> = BTreeMap::new();
    for (k, op) in info.iter().enumerate() {
        names.entry(op.name).or_insert((u16::MAX, false)).0 = k as u16;
        for (dot, _) in op.name.match_indices('.') {
            names.entry(&op.name[..dot]).or_insert((u16::MAX, false)).1 = true;
        }
    }
    let _ = writeln!(out, "/// [`KEYWORD_SPELLINGS`] by spelling.");
    let keywords = strindex::StrIndex::new(spellings.iter().enumerate().map(|(k, s)| (*s, k as u16)));
    write_index(&mut out, "KEYWORD_INDEX", "Keyword", &keywords, |k| format!("Keyword({k})"));
    let _ = writeln!(out, "/// Dotted family names and their dotted prefixes: (opcode discriminant or");
    let _ = writeln!(out, "/// `u16::MAX`, whether a longer name continues it) by name.");
    let name_index = strindex::StrIndex::new(names.iter().map(|(name, &entry)| (*name, entry)));
    write_index(&mut out, "OPCODE_NAME_INDEX", "(u16, bool)", &name_index, |(op, continues)| format!("({op}, {continues})"));
    out
}

/// Writes `index` as `pub static NAME: StrIndex<TYPE>` over its slots,
/// each value written by `value`.
fn write_index<V: Copy>(out: &mut String, name: &str, value_type: &str, index: &strindex::StrIndex<V>, value: impl Fn(V) -> String) {
    let slots = index.slots();
    let _ = writeln!(out, "pub static {name}: StrIndex<{value_type}> = StrIndex::from_slots(&[");
    for slot in slots {
        match slot {
            Some((key, text, v)) => {
                let (a, b, len, hash) = key.parts();
                let _ = writeln!(out, "    Some((NameKey::from_parts({a:#x}, {b:#x}, {len}, {hash:#x}), {text:?}, {})),", value(*v));
            }
            None => out.push_str("    None,\n"),
        }
    }
    let _ = writeln!(out, "]);");
}
