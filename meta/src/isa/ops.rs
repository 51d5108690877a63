//! Generates `isa_ops.rs`: the [`Op`] enum, one variant per row of the
//! opcode table (`table/opcodes.rs`, in row order, so a variant's
//! value is its row), and the `Mod` enum, one variant per modifier token
//! (the text between the dots of a mnemonic: `E` and `64` of `LDG.E.64`)
//! of every form, sorted by text. It checks that the rows are sorted and
//! unique, that every form's opcode has a row and every row has forms,
//! that every spelling is made of tokens and that no form has more than
//! the eight operands an instruction holds.
//!
//! A variant is named as nvdisasm spells it (`Op::IADD3`, `Mod::FTZ`,
//! `Mod::BF16_V2`), a token that starts with a digit with a leading
//! underscore (`Mod::_64`), so code reads as the listing it produces.
//!
//! [`Op`]: ../../src/isa/op.rs

use crate::isa::form::{Form, OperandSuffix, Slot, UNMEASURED};
use crate::isa::table::opcodes::OPCODES;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The opcode rows and the modifier tokens, checked against the forms.
pub struct Ops {
    tokens: BTreeSet<&'static str>,
}

/// The opcode of a form's name: up to its first dot.
pub fn base(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

/// The tokens of a spelling (`.E.64` → `E`, `64`; the empty spelling has
/// none; a modifier printed as an operand of its own is one token with no
/// dot: `2D`); `None` when it is not a sequence of dotted tokens.
pub fn tokens(spelling: &'static str) -> Option<Vec<&'static str>> {
    if spelling.is_empty() {
        return Some(Vec::new());
    }
    let rest = match spelling.strip_prefix('.') {
        Some(rest) => rest,
        None => return (spelling.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then(|| vec![spelling]),
    };
    let parts: Vec<&str> = rest.split('.').collect();
    parts.iter().all(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then_some(parts)
}

/// The `Mod` variant of a token.
pub fn mod_variant(token: &str) -> String {
    if token.starts_with(|c: char| c.is_ascii_digit()) { format!("_{token}") } else { token.to_string() }
}

/// Whether modifier `k` of `form` prints as an operand of its own: the
/// operand suffix of an empty text slot (a fetch's dimension, `2D`), its
/// spellings one token with no dot.
pub fn own_operand(form: &Form, k: usize) -> bool {
    form.operand_suffixes
        .iter()
        .any(|s| matches!(*s, OperandSuffix::Mod { modifier, slot } if usize::from(modifier) == k && form.slots.get(usize::from(slot)) == Some(&Slot::Text(""))))
}

/// Every spelling of a form that is part of its text: the name after the
/// opcode, the suffix, every modifier value, the operand suffix texts;
/// each with whether it must start with a dot (all but the spellings of
/// a modifier printed as an operand of its own, [`own_operand`]).
fn spellings(form: &Form) -> Vec<(&'static str, bool)> {
    let mut out = vec![(&form.name[base(form.name).len()..], true), (form.suffix, true)];
    for (k, m) in form.mods.iter().enumerate() {
        let dotted = !own_operand(form, k);
        out.extend(m.names.iter().copied().filter(|n| *n != UNMEASURED).map(|n| (n, dotted)));
    }
    for s in form.operand_suffixes {
        if let OperandSuffix::Text { text, .. } = s {
            out.push((text, true));
        }
    }
    out
}

impl Ops {
    /// Checks the rows against the forms of every generation and collects
    /// the tokens; every problem found when they disagree.
    pub fn of(generations: &[Vec<Form>]) -> Result<Ops, Vec<String>> {
        let mut problems = Vec::new();
        for pair in OPCODES.windows(2) {
            if pair[0].name >= pair[1].name {
                problems.push(format!("meta/src/table/opcodes.rs: `{}` is not sorted before `{}`", pair[0].name, pair[1].name));
            }
        }
        let mut all = BTreeSet::new();
        let mut used = BTreeSet::new();
        for form in generations.iter().flatten() {
            let b = base(form.name);
            if !b.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') || b.starts_with(|c: char| c.is_ascii_digit()) {
                problems.push(format!("the opcode of form `{}` is not a name", form.name));
            }
            if OPCODES.iter().all(|op| op.name != b) {
                problems.push(format!("the opcode `{b}` (form `{}`) has no row in meta/src/table/opcodes.rs", form.name));
            }
            if form.slots.len() > 8 {
                problems.push(format!("form `{}` has {} operands; an instruction holds at most 8", form.name, form.slots.len()));
            }
            used.insert(b);
            for (s, dotted) in spellings(form) {
                match tokens(s) {
                    Some(t) if s.is_empty() || s.starts_with('.') == dotted => all.extend(t),
                    Some(_) if !dotted => problems.push(format!("the spelling `{s}` of form `{}` prints as an operand: one TOKEN with no dot", form.name)),
                    _ => problems.push(format!("the spelling `{s}` of form `{}` is not a sequence of `.TOKEN`s", form.name)),
                }
            }
        }
        problems.extend(crate::isa::widths::check(generations));
        for op in OPCODES {
            if !used.contains(op.name) {
                problems.push(format!("meta/src/table/opcodes.rs: `{}` has no form", op.name));
            }
        }
        if problems.is_empty() { Ok(Ops { tokens: all }) } else { Err(problems) }
    }

    /// The source of `isa_ops.rs`.
    pub fn source(&self) -> String {
        let mut out = String::from("// Generated by ptx2sass-meta (src/isa/ops.rs) from its src/table/opcodes.rs and the form table.\n\n");
        out.push_str("/// A SASS opcode: one variant per row of `table/opcodes.rs`, whose value is\n");
        out.push_str("/// its row (see `Op::facts`).\n");
        out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(u16)]\n#[allow(non_camel_case_types)]\npub enum Op {\n");
        for op in OPCODES {
            let _ = writeln!(out, "    /// `{}`", op.name);
            let _ = writeln!(out, "    {},", op.name);
        }
        out.push_str("}\n\n/// Every opcode, in row order.\n");
        let _ = writeln!(out, "pub const OPS: [Op; {}] = [", OPCODES.len());
        for op in OPCODES {
            let _ = writeln!(out, "    Op::{},", op.name);
        }
        out.push_str("];\n\n");
        out.push_str("/// A modifier token: the text between two dots of a mnemonic (`E` and\n");
        out.push_str("/// `64` of `LDG.E.64`), as nvdisasm spells it (a leading digit behind an\n");
        out.push_str("/// underscore: `Mod::_64`). Sorted by text, so a value is its text's position\n");
        out.push_str("/// in `MOD_NAMES`.\n");
        out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(u16)]\n#[allow(non_camel_case_types)]\npub enum Mod {\n");
        for t in &self.tokens {
            let _ = writeln!(out, "    /// `.{t}`");
            let _ = writeln!(out, "    {},", mod_variant(t));
        }
        out.push_str("}\n\n/// Every token, sorted by text.\n");
        let _ = writeln!(out, "pub const MODS: [Mod; {}] = [", self.tokens.len());
        for t in &self.tokens {
            let _ = writeln!(out, "    Mod::{},", mod_variant(t));
        }
        out.push_str("];\n\n/// Each token's text, sorted.\n");
        let _ = writeln!(out, "static MOD_NAMES: [&str; {}] = {:?};", self.tokens.len(), self.tokens.iter().collect::<Vec<_>>());
        out
    }
}

impl Ops {
    /// The ISLE declarations of the opcode and token enums (`MachOp`, the
    /// Rust `Op`; `Mod`), so that selection rules name machine
    /// instructions as types.
    pub fn isle(&self) -> String {
        let mut out = String::from(";; Generated by ptx2sass-meta (src/isa/ops.rs) from the form table; do not edit.\n\n");
        out.push_str(";; A SASS opcode (`isa::op::Op`).\n(type MachOp extern\n  (enum");
        for (k, op) in OPCODES.iter().enumerate() {
            out.push_str(if k % 10 == 0 { "\n   " } else { "" });
            let _ = write!(out, " {}", op.name);
        }
        out.push_str("))\n\n;; A modifier token (`isa::op::Mod`).\n(type Mod extern\n  (enum");
        for (k, t) in self.tokens.iter().enumerate() {
            out.push_str(if k % 10 == 0 { "\n   " } else { "" });
            let _ = write!(out, " {}", mod_variant(t));
        }
        out.push_str("))\n");
        out
    }
}
