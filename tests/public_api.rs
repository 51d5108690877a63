//! The library's public interface, recorded: the items the crate root
//! exports (its `pub use` and `pub mod` lines, and every public item,
//! field, variant, method and trait implementation of the files that
//! define them: `src/api/*.rs`, `src/ori.rs`) are listed from the source
//! and compared with `tests/public-api.txt`. A change to the interface
//! fails this test until the listing is updated with it, so that it is
//! deliberate: run `PTX2SASS_BLESS=1 cargo test --release --test
//! public_api` and commit the new listing with the change.
//!
//! `internals` is listed as one line: its contents are not stable.

use std::path::Path;

/// The files that define the interface, in listing order.
const FILES: &[&str] = &["src/lib.rs", "src/api/target.rs", "src/api/options.rs", "src/api/compile.rs", "src/api/error.rs", "src/ori.rs"];

const LISTING: &str = "tests/public-api.txt";

/// Collapses runs of whitespace to one space.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `line` without a trailing `//` comment (outside strings,
/// which the interface's declarations do not hold).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(k) if !line[..k].contains('"') => &line[..k],
        _ => line,
    }
}

/// The `{` and `}` of a line of code, those in string and character
/// literals left out.
fn braces(text: &str) -> (usize, usize) {
    let (mut opens, mut closes) = (0, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // '{' and '}' as characters (a lifetime has no closing quote).
            '\'' => {
                let mut ahead = chars.clone();
                if let (Some(_), Some('\'')) = (ahead.next(), ahead.next()) {
                    chars.next();
                    chars.next();
                }
            }
            '{' => opens += 1,
            '}' => closes += 1,
            _ => {}
        }
    }
    (opens, closes)
}

/// What a block opened by a line is, for what to list inside it.
#[derive(Clone, Debug, PartialEq)]
enum Scope {
    /// A module's top level.
    Module,
    /// A `pub struct` (its `pub` fields are listed).
    Struct(String),
    /// A `pub enum` (its variants are listed).
    Enum(String),
    /// An `impl` block of a public type (its `pub fn`s are listed).
    Impl(String),
    /// Anything else (a function body, a private item, a test module).
    Skip,
}

/// The public items of one file's source, one line each.
fn items(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut scopes = vec![Scope::Module];
    let mut attrs: Vec<String> = Vec::new();
    let mut lines = source.lines();
    let mut pending_cfg_test = false;
    while let Some(raw) = lines.next() {
        let line = code(raw).trim();
        if line.is_empty() || line.starts_with("///") || line.starts_with("//!") {
            continue;
        }
        let scope = scopes.last().cloned().unwrap_or(Scope::Skip);
        if line.starts_with("#[") {
            if line.starts_with("#[cfg(test)]") {
                pending_cfg_test = true;
            }
            if line.starts_with("#[derive") || line.starts_with("#[non_exhaustive]") || line.starts_with("#[repr") {
                attrs.push(squash(line));
            }
            continue;
        }
        // A declaration may run over several lines: up to its `{` or `;`.
        let mut decl = line.to_string();
        let open = |d: &str| d.matches(['(', '[']).count() > d.matches([')', ']']).count();
        while open(&decl) || (!decl.contains('{') && !decl.ends_with(';') && !decl.ends_with(',') && !decl.ends_with('}')) {
            match lines.next() {
                Some(more) => {
                    decl.push(' ');
                    decl.push_str(code(more).trim());
                }
                None => break,
            }
        }
        // The declaration up to its body (a `use` keeps its braces).
        let head = if decl.starts_with("pub use ") { squash(decl.trim_end_matches(';')) } else { squash(decl.split('{').next().unwrap_or(&decl).trim_end_matches(';')) };
        let public = decl.starts_with("pub ") && !decl.starts_with("pub(");
        let named = |kind: &str| head.split(kind).nth(1).and_then(|r| r.split(|c: char| !c.is_alphanumeric() && c != '_').next()).unwrap_or("").to_string();
        let mut opened = None;
        match &scope {
            Scope::Module if pending_cfg_test => opened = Some(Scope::Skip),
            Scope::Module if public => {
                for a in attrs.drain(..) {
                    out.push(a);
                }
                out.push(head.clone());
                opened = Some(if head.contains(" struct ") || head.starts_with("pub struct ") {
                    Scope::Struct(named("struct "))
                } else if head.starts_with("pub enum ") {
                    Scope::Enum(named("enum "))
                } else {
                    Scope::Skip
                });
            }
            Scope::Module if decl.starts_with("impl") => {
                out.push(head.clone());
                opened = Some(Scope::Impl(head.clone()));
            }
            Scope::Struct(name) if public => out.push(format!("  {name}.{}", head.trim_start_matches("pub ").trim_end_matches(','))),
            Scope::Enum(name) if !decl.starts_with('}') => {
                // The whole variant: its fields and its value too. (A
                // last variant without a comma came with the enum's `}`.)
                let whole = squash(&decl);
                let variant = if braces(&whole).1 > braces(&whole).0 { whole.trim_end_matches('}').trim() } else { whole.as_str() };
                out.push(format!("  {name}::{}", variant.trim_end_matches(',')));
            }
            Scope::Impl(_) if public => {
                out.push(format!("  {head}"));
                opened = Some(Scope::Skip);
            }
            _ => {}
        }
        attrs.clear();
        pending_cfg_test = false;
        // Follow the braces of the declaration's own lines.
        let (opens, closes) = braces(&decl);
        if opens > closes {
            scopes.push(opened.unwrap_or(Scope::Skip));
            for _ in 1..opens - closes {
                scopes.push(Scope::Skip);
            }
        } else {
            for _ in 0..closes - opens {
                scopes.pop();
            }
        }
    }
    out
}

fn listing(root: &Path) -> String {
    let mut out = String::from("# The public interface of the ptx2sass crate (tests/public_api.rs).\n");
    for file in FILES {
        let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        out.push_str(&format!("\n## {file}\n"));
        for item in items(&source) {
            out.push_str(&item);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_public_interface_is_the_recorded_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let now = listing(root);
    let path = root.join(LISTING);
    if std::env::var_os("PTX2SASS_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    if now != recorded {
        let diff = similar::TextDiff::from_lines(&recorded, &now);
        panic!(
            "the public interface changed (- recorded, + now):\n{}\nIf the change is deliberate, run `PTX2SASS_BLESS=1 cargo test --release --test public_api` and commit {LISTING} with it.",
            diff.unified_diff().context_radius(2)
        );
    }
}

#[test]
fn the_root_exports_only_the_interface_files_and_internals() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let exported = items(&lib);
    let modules: Vec<&String> = exported.iter().filter(|l| l.starts_with("pub mod ")).collect();
    assert_eq!(modules, ["pub mod internals", "pub mod ori"]);
    for line in exported.iter().filter(|l| l.starts_with("pub use ")) {
        assert!(line.starts_with("pub use api::"), "the root re-exports from the interface files only: {line}");
    }
    // Every public item of the interface files is exported at the root.
    for file in ["src/api/target.rs", "src/api/options.rs", "src/api/compile.rs", "src/api/error.rs"] {
        let source = std::fs::read_to_string(root.join(file)).unwrap();
        for item in items(&source).iter().filter(|l| !l.starts_with(' ') && !l.starts_with('#') && !l.starts_with("impl")) {
            let name = item.split(['(', '<', ':', ' ']).filter(|w| !w.is_empty()).nth(2).unwrap_or("");
            assert!(exported.iter().any(|l| l.starts_with("pub use api::") && l.contains(name)), "{file}: `{item}` is public but not exported at the root");
        }
    }
}

#[test]
fn the_listing_sees_a_change_of_signature_field_variant_or_impl() {
    let base = "#[derive(Clone)]\npub struct A {\n    pub x: u32,\n    y: u8,\n}\npub enum E {\n    One,\n    Two { a: u8 },\n}\nimpl A {\n    pub fn f(&self) -> u32 {\n        if true { 1 } else { 2 }\n    }\n    fn hidden() {}\n}\n#[cfg(test)]\nmod tests {\n    pub fn not_listed() {}\n}\n";
    let listed = items(base);
    assert_eq!(listed, ["#[derive(Clone)]", "pub struct A", "  A.x: u32", "pub enum E", "  E::One", "  E::Two { a: u8 }", "impl A", "  pub fn f(&self) -> u32"]);
    for changed in [
        base.replace("pub x: u32", "pub x: u64"),
        base.replace("    Two { a: u8 },\n", ""),
        base.replace("Two { a: u8 }", "Two { a: u16 }"),
        base.replace("pub fn f(&self)", "pub fn f(&mut self)"),
        base.replace("fn hidden", "pub fn hidden"),
        base.replace("#[derive(Clone)]", "#[derive(Clone, Copy)]"),
        base.replace("y: u8", "pub y: u8"),
    ] {
        assert_ne!(items(&changed), listed, "not seen:\n{changed}");
    }
    // Bodies, private items and comments are not the interface.
    let same = base.replace("if true { 1 } else { 2 }", "let s = \"{\"; let c = '}'; s.len() as u32").replace("fn hidden() {}", "fn hidden() { let _ = 1; }");
    assert_eq!(items(&same), listed);
}
