//! The build-time half of ptx2sass, as `cranelift-codegen-meta` is
//! Cranelift's: the definitions the compiler is generated from and the
//! generators, run by the compiler's build script (`build.rs`, a call to
//! [`generate`]), which writes Rust and ISLE source into `OUT_DIR`.
//!
//! What it owns:
//! * the SASS form table's definition (`table/define.rs` and its row files,
//!   run here) and the opcode rows with their facts (`table/opcodes.rs`);
//!   the compiler reads the forms (`forms.rs`, `isa_forms.rs`), their
//!   encoding plans (`isa/plans.rs`, `isa_plans.rs`), the opcode and
//!   modifier-token enums (`isa/ops.rs`, `isa_ops.rs`, with their ISLE
//!   declaration) and the opcode rows (`isa/facts.rs`, `isa_opcodes.rs`) as
//!   static data, so a compilation does not build them;
//! * the typed machine instructions (`isa/mach.rs`: `isa_mach.rs`, one
//!   struct per opcode with typed modifier fields, and `isle_mach.isle`,
//!   their ISLE constructors, which the selection program is compiled with);
//! * the ISLE programs' list and their compilation ([`PROGRAMS`]), each a
//!   list of the compiler's `isle/*.isle` files after the shared prelude
//!   and the generated Ori opcode declaration;
//! * the PTX parser's keyword and name tables (`ptx_tables.rs`), derived
//!   from the PTX opcode facts.
//!
//! The types the definitions build and the compiler reads are the
//! `ptx2sass-shared` crate's; the form table is built with plain numbers
//! for its opcode and modifier tokens and the rows' declared operand
//! widths (`Form<u16, u16, OperandWidths>`), which the writers replace by
//! the compiler's generated enums and the evaluated width tables
//! (`isa/widths.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

// The form table's definition; its row files (`mod bitops;`, ...) sit
// beside it in `table/`.
#[path = "table/define.rs"]
mod define;
// The opcode rows (`crate::isa::table::opcodes` to the definition).
#[path = "table/opcodes.rs"]
mod opcodes;
#[macro_use]
mod forms;
// After `forms`, whose `write_struct!` the plans' writer uses.
mod isa;

use ptx2sass_shared::ir::opcode as ir_opcode;
use ptx2sass_shared::ptx::lookup::strindex;
use ptx2sass_shared::ptx::opcode_info;

/// The ISLE programs: name (the generated file is `isle_<name>.rs`),
/// whether it builds machine instructions, and the files (relative to the
/// compiler's crate) compiled together, in order, after the shared prelude
/// ([`ISLE_PRELUDE`]) and the generated `Opcode` enum ([`ORI_OPCODES_ISLE`]).
/// A program that builds machine instructions also gets the generated SASS
/// opcode and modifier enums ([`SASS_OPS_ISLE`]).
pub const PROGRAMS: &[(&str, bool, &[&str])] = &[
    ("legalize", false, &["isle/legalize_prelude.isle", "isle/emit_ori.isle", "isle/legalize.isle"]),
    ("legalize_late", false, &["isle/legalize_prelude.isle", "isle/emit_ori.isle", "isle/legalize_late.isle"]),
    ("select", true, &["isle/select_prelude.isle", "isle/select.isle"]),
];

/// The generated ISLE declaration of the SASS opcodes and modifier tokens
/// (in `OUT_DIR`).
pub const SASS_OPS_ISLE: &str = "isle_sass_ops.isle";

/// The generated ISLE declaration of the typed machine instructions (in
/// `OUT_DIR`): their modifier enums and constructors (`isa/mach.rs`).
pub const MACH_ISLE: &str = "isle_mach.isle";

/// The prelude every ISLE program starts with (relative to the compiler's crate).
pub const ISLE_PRELUDE: &str = "isle/prelude.isle";

/// The generated ISLE declaration of the Ori opcodes (in `OUT_DIR`).
pub const ORI_OPCODES_ISLE: &str = "isle_ori_opcodes.isle";

/// The compiler's files the generated code depends on (relative to its
/// crate): the ISLE sources. A build script reruns when one changes;
/// changes to this crate rebuild the build script anyway.
pub fn inputs() -> Vec<&'static str> {
    let mut files = vec![ISLE_PRELUDE];
    for &(_, _, program) in PROGRAMS {
        for f in program {
            if !files.contains(f) {
                files.push(f);
            }
        }
    }
    files
}

/// Writes every generated file into `out_dir`: the PTX parser's tables, the
/// form table's forms, plans, opcode rows and enums, and the ISLE programs
/// (read from `crate_dir`, the compiler's crate) compiled to Rust. `debug`:
/// the generated ISLE code is for an unoptimised build (large match arms
/// are split into closures, which keeps stack frames small). A file is
/// rewritten only when its contents change. On failure, every problem, one
/// line each (an ISLE error names its file and line).
pub fn generate(crate_dir: &Path, out_dir: &Path, debug: bool) -> Result<(), Vec<String>> {
    let options = cranelift_isle::codegen::CodegenOptions {
        exclude_global_allow_pragmas: true,
        split_match_arms: debug,
        // File names in generated comments relative to the crate, so the
        // output does not depend on where the crate is checked out.
        prefixes: vec![
            cranelift_isle::codegen::Prefix { prefix: format!("{}/", crate_dir.display()), name: String::new() },
            cranelift_isle::codegen::Prefix { prefix: format!("{}/", out_dir.display()), name: "<generated>/".to_string() },
        ],
        ..Default::default()
    };
    write_if_changed(&out_dir.join("ptx_tables.rs"), &ptx_tables())?;
    let generations = forms::generations();
    let ops = isa::ops::Ops::of(generations).map_err(|problems| problems.into_iter().map(|p| format!("form table: {p}")).collect::<Vec<_>>())?;
    write_if_changed(&out_dir.join("isa_ops.rs"), &ops.source())?;
    write_if_changed(&out_dir.join(SASS_OPS_ISLE), &ops.isle())?;
    let machs = isa::mach::Machs::of(generations).map_err(|problems| problems.into_iter().map(|p| format!("form table: {p}")).collect::<Vec<_>>())?;
    write_if_changed(&out_dir.join("isa_mach.rs"), &machs.source())?;
    write_if_changed(&out_dir.join(MACH_ISLE), &machs.isle())?;
    write_if_changed(&out_dir.join("isa_opcodes.rs"), &isa::facts::source())?;
    write_if_changed(&out_dir.join("isa_forms.rs"), &forms::source(generations, &ops))?;
    write_if_changed(&out_dir.join("isa_plans.rs"), &isa::plans::source(generations))?;
    write_if_changed(&out_dir.join(ORI_OPCODES_ISLE), &ori_opcodes_isle())?;
    let mut problems = Vec::new();
    for &(name, machine, files) in PROGRAMS {
        let mut paths = vec![crate_dir.join(ISLE_PRELUDE), out_dir.join(ORI_OPCODES_ISLE)];
        if machine {
            paths.push(out_dir.join(SASS_OPS_ISLE));
            paths.push(out_dir.join(MACH_ISLE));
        }
        paths.extend(files.iter().map(|f| crate_dir.join(f)));
        match cranelift_isle::compile::from_files(&paths, &options) {
            Ok(code) => write_if_changed(&out_dir.join(format!("isle_{name}.rs")), &code)?,
            // One line per line of the report: each error names its file
            // and line.
            Err(errors) => problems.extend(errors.to_string().lines().map(|line| format!("ISLE program `{name}`: {line}"))),
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// The ISLE declaration of every Ori opcode (`ir::Opcode`, from the rows
/// of `ptx2sass-shared`'s `ir/opcode.rs`), so that no program keeps a list
/// of its own.
fn ori_opcodes_isle() -> String {
    let mut out = String::from(";; Generated by ptx2sass-meta from ptx2sass-shared's src/ir/opcode.rs; do not edit.\n\n");
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
fn write_if_changed(path: &Path, code: &str) -> Result<(), Vec<String>> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == code) {
        return Ok(());
    }
    std::fs::write(path, code).map_err(|e| vec![format!("cannot write {}: {e}", path.display())])
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
    let mut out = String::from("// Generated by ptx2sass-meta from ptx2sass-shared's src/ptx/opcode_info.rs; do not edit.\n\n");
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
