//! Generates the typed machine instructions from the form table:
//! `isa_mach.rs` (the compiler's `isa::op::mach`) and its ISLE
//! declaration `isle_mach.isle`, which the selection program is compiled
//! with.
//!
//! Per SASS opcode, one struct (`mach::Isetp`) whose fields are the
//! modifiers its forms spell, typed: a modifier with one spelling besides
//! the empty one is a `bool`, one with more is an enum whose variants are
//! its spellings (the empty one `None`), and a spelling every form has is
//! no field at all (`.LUT` of `LOP3.LUT`). The struct's `mnemonic()` gives
//! the tokens in printed order, which `Inst::build_op` looks up as before,
//! so the instructions built are the same as from hand-spelled tokens. Its
//! `OPERANDS` are the operand layouts of its forms: each operand's role
//! (written or read), register file or kind, and width.
//!
//! The forms of one opcode do not all have the same modifiers (`IMAD`,
//! `IMAD.WIDE`, `IMAD.HI`, and `.X` after them; `FMNMX` with and without
//! `.NAN`): their modifier positions are merged in printed order (a longest
//! common subsequence of positions that share a spelling), a position that
//! some form lacks taking the empty spelling there. A run of adjacent
//! positions no one form can spell two of is then one choice, an enum
//! (`ImadMode`: `.WIDE`, `.HI` or nothing; ISETP's `.U32`, `.U64`, `.S64`):
//! when its spellings are of one kind, or are flags none of which follows
//! an earlier choice of its form. Every form's mnemonics are then values
//! of the struct; a value no form of the SM spells is the build error it
//! was before (`Inst::build_op` names it).
//!
//! An enum is named after the first opcode (in row order) whose modifier
//! has that set of spellings and the kind of modifier it is, by its tokens
//! (`IsetpCmp`, `FsetBoolOp`, `ShfShiftDir`, `ImadMode` where no kind fits);
//! opcodes whose modifier has the same set share it (`FSETP`, `HSETP2` and
//! `FSET` read `FsetCmp`).
//!
//! In ISLE, per opcode: the enums as extern types, `(mn_<op> modifiers…)`
//! the typed mnemonic, and `(mach_<op> inst modifiers… operands…)`, which
//! emits it with exactly as many operands as its forms have; an opcode
//! whose forms have several operand counts gets one per count,
//! `mach_<op>_<count>`. The ISLE compiler then checks a rule's modifier
//! types and operand count.

use crate::isa::form::{Form, Slot, UNMEASURED};
use crate::isa::ops::{base, mod_variant, tokens};
use crate::isa::table::opcodes::OPCODES;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Kinds of modifier, by the tokens of their spellings: a modifier whose
/// every token is one kind's is of that kind (the first that fits).
const KINDS: &[(&str, &[&str])] = &[
    ("BoolOp", &["AND", "OR", "XOR"]),
    ("Round", &["RN", "RM", "RP", "RZ", "RNA", "FLOOR", "CEIL", "TRUNC"]),
    ("Cmp", &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T", "MIN", "MAX"]),
    ("IntType", &["U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64", "U4", "S4"]),
    ("FloatType", &["F16", "BF16", "F32", "F64", "TF32", "E4M3", "E5M2"]),
    ("ShiftDir", &["L", "R"]),
    ("Size", &["U8", "S8", "U16", "S16", "32", "64", "128", "U"]),
    ("Scope", &["CTA", "SM", "GPU", "SYS", "STRONG", "CONSTANT", "MMIO", "PRIVATE", "VC", "WEAK"]),
    ("Cache", &["EF", "EL", "LU", "EU", "NA"]),
    ("Prefetch", &["LTC64B", "LTC128B", "LTC256B"]),
    ("Swizzle", &["H0_H0", "H1_H1", "F32"]),
    ("Dim", &["1D", "2D", "3D"]),
];

/// Rust keywords a field name may not be.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "unsafe", "use", "where", "while", "yield", "box", "priv", "abstract", "become", "override", "typeof", "unsized", "virtual",
];

/// A position of a mnemonic: the spellings it takes, in the order the
/// forms give them (`""` where it may print nothing).
type Position = Vec<&'static str>;

/// What a merged position is in the struct.
enum Field {
    /// Always the one spelling.
    Fixed(&'static str),
    /// A `bool`: the spelling or nothing.
    Flag { name: String, spelling: &'static str },
    /// An enum (index into the generated enums).
    Choice { name: String, enum_index: usize },
}

/// A generated modifier enum.
struct ModEnum {
    name: String,
    spellings: Vec<&'static str>,
}

/// One opcode's struct.
struct Mach {
    op: &'static str,
    fields: Vec<Field>,
    /// The distinct operand layouts of its forms.
    layouts: Vec<Vec<(bool, &'static str, u8)>>,
}

/// The typed machine instructions of the form table.
pub struct Machs {
    enums: Vec<ModEnum>,
    machs: Vec<Mach>,
}

/// The mnemonic positions of a form: the name after the opcode, each
/// modifier, the suffix; positions that never print anything are left out.
fn positions(form: &Form) -> Vec<Position> {
    let mut out: Vec<Position> = vec![vec![&form.name[base(form.name).len()..]]];
    for m in form.mods {
        let mut p: Position = Vec::new();
        for n in m.names.iter().copied().filter(|n| *n != UNMEASURED) {
            if !p.contains(&n) {
                p.push(n);
            }
        }
        out.push(p);
    }
    out.push(vec![form.suffix]);
    out.retain(|p| p.iter().any(|s| !s.is_empty()));
    out
}

/// Whether two positions are the same modifier: they share a spelling.
fn same(a: &Position, b: &Position) -> bool {
    a.iter().any(|s| !s.is_empty() && b.contains(s))
}

/// Adds `s` to a position unless it has it.
fn add(p: &mut Position, s: &'static str) {
    if !p.contains(&s) {
        p.push(s);
    }
}

/// Merges a form's positions into the opcode's: matched positions (a
/// longest common subsequence of [`same`] ones) take both spellings, the
/// others the empty spelling too (the forms without them print nothing
/// there). Also gives where each old position and each of the form's
/// went.
fn merge(merged: &[Position], form: &[Position]) -> (Vec<Position>, Vec<usize>, Vec<usize>) {
    let (n, m) = (merged.len(), form.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if same(&merged[i], &form[j]) { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    let (mut old_at, mut form_at) = (Vec::with_capacity(n), Vec::with_capacity(m));
    while i < n || j < m {
        if i < n && j < m && same(&merged[i], &form[j]) && lcs[i][j] == lcs[i + 1][j + 1] + 1 {
            let mut p = merged[i].clone();
            for s in &form[j] {
                add(&mut p, s);
            }
            old_at.push(out.len());
            form_at.push(out.len());
            out.push(p);
            i += 1;
            j += 1;
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            let mut p = merged[i].clone();
            add(&mut p, "");
            old_at.push(out.len());
            out.push(p);
            i += 1;
        } else {
            let mut p = form[j].clone();
            add(&mut p, "");
            form_at.push(out.len());
            out.push(p);
            j += 1;
        }
    }
    (out, old_at, form_at)
}

/// Joins runs of consecutive positions that no one form can spell two of
/// (`IMAD.WIDE` and `IMAD.HI` are forms of their own; ISETP's `.U32` and
/// its 64-bit forms' `.U64`/`.S64`) into one position: a choice among
/// them, not independent flags. `spelled[f]` holds the positions form `f`
/// can print something at, each with whether it may print nothing there.
fn join_exclusive(merged: Vec<Position>, spelled: &[BTreeMap<usize, bool>]) -> Vec<Position> {
    let mut out: Vec<Position> = Vec::new();
    let mut group: Vec<usize> = Vec::new();
    let flush = |group: &mut Vec<usize>, out: &mut Vec<Position>, merged: &[Position]| {
        if group.is_empty() {
            return;
        }
        if group.len() == 1 {
            out.push(merged[group[0]].clone());
            group.clear();
            return;
        }
        let mut p: Position = Vec::new();
        for &k in group.iter() {
            for s in merged[k].iter().filter(|s| !s.is_empty()) {
                add(&mut p, s);
            }
        }
        // A form that may print none of them prints nothing there.
        if spelled.iter().any(|f| group.iter().all(|k| f.get(k).is_none_or(|&may_be_empty| may_be_empty))) {
            add(&mut p, "");
        }
        out.push(p);
        group.clear();
    };
    // A run is one choice when its spellings are of one kind (`.U32`,
    // `.U64`, `.S64`: integer types), or when each is a flag and none
    // follows an earlier choice of its form (`SYNCS.ARRIVE.TRANS64.A1T0`'s
    // `.A1T0` is no alternative to `.PHASECHK.TRANS64`).
    let acceptable = |group: &[usize]| {
        let mut union: Position = Vec::new();
        for &k in group {
            for s in &merged[k] {
                add(&mut union, s);
            }
        }
        let flags = group.iter().all(|&k| merged[k].iter().filter(|s| !s.is_empty()).count() == 1);
        let head = group[0] == 0 || !spelled.iter().any(|f| f.contains_key(&(group[0] - 1)) && group.iter().any(|g| f.contains_key(g)));
        kind(&union) != "Mode" || (flags && head)
    };
    for k in 0..merged.len() {
        let exclusive = !group.is_empty() && spelled.iter().all(|f| !f.contains_key(&k) || group.iter().all(|g| !f.contains_key(g))) && {
            let mut g = group.clone();
            g.push(k);
            acceptable(&g)
        };
        if !exclusive {
            flush(&mut group, &mut out, &merged);
        }
        group.push(k);
    }
    flush(&mut group, &mut out, &merged);
    out
}

/// The kind of a modifier by its tokens ([`KINDS`]), `Mode` where none fits.
fn kind(p: &Position) -> &'static str {
    let toks: Vec<&str> = p.iter().flat_map(|s| tokens(s).unwrap_or_default()).collect();
    KINDS.iter().find(|(_, all)| toks.iter().all(|t| all.contains(t))).map_or("Mode", |(k, _)| k)
}

/// `IADD3` → `Iadd3`, `UCGABAR_ARV` → `UcgabarArv`.
fn camel(op: &str) -> String {
    op.split('_')
        .map(|part| {
            let mut c = part.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()).unwrap_or_default()
        })
        .collect()
}

/// `BoolOp` → `bool_op`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (k, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && k > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A spelling as an identifier: its tokens joined by `_` (`.E.64` →
/// `E_64`, `.64` → `_64`), `None` for the empty one.
fn variant(spelling: &'static str) -> String {
    if spelling.is_empty() {
        return "None".to_string();
    }
    mod_variant(&tokens(spelling).unwrap_or_default().join("_"))
}

/// The `Mod` tokens of a spelling, as a Rust slice.
fn token_slice(spelling: &'static str) -> String {
    let t: Vec<String> = tokens(spelling).unwrap_or_default().iter().map(|t| format!("Mod::{}", mod_variant(t))).collect();
    format!("&[{}]", t.join(", "))
}

/// An operand's file or kind, as `OperandFile` names it.
fn file(slot: &Slot) -> &'static str {
    match slot {
        Slot::Gpr { .. } => "Gpr",
        Slot::Ur { .. } | Slot::UniformB { .. } => "Uniform",
        Slot::Pred { uniform: false, .. } => "Pred",
        Slot::Pred { uniform: true, .. } => "UniformPred",
        Slot::Barrier(_) => "Barrier",
        Slot::CBank { .. } | Slot::LoadBank { .. } => "ConstBank",
        Slot::Addr { .. } => "Address",
        Slot::Target(_) | Slot::AbsTarget(_) | Slot::RelOffset(_) => "Target",
        Slot::SpecialReg(_) => "SpecialReg",
        Slot::Imm32 { .. } | Slot::Imm64(_) | Slot::SImm(_) | Slot::Float { .. } | Slot::Half2 | Slot::Half => "Immediate",
        Slot::Hex(_) | Slot::Mask(_) | Slot::HexSplit(..) | Slot::MaskSplit(..) | Slot::Text(_) | Slot::NextUr(_) | Slot::Again(_) => "Constant",
    }
}

/// A form's operands: written or read, file or kind, width in 32-bit
/// registers (0 where it is no register, or where the width depends on a
/// modifier's value: `LDG`'s size).
fn layout(form: &Form) -> Vec<(bool, &'static str, u8)> {
    let widths = crate::isa::widths::widths_of(form).ok().filter(|(by, _)| by.is_none()).and_then(|(_, w)| w.first().copied());
    let mut source = 0usize;
    let mut out = Vec::new();
    for slot in form.slots {
        let def = Form::result_slot(form.name, slot);
        let f = file(slot);
        let width = match f {
            "Pred" | "UniformPred" | "Barrier" => 1,
            "Gpr" | "Uniform" | "Address" if def => widths.map_or(0, |w| w[0]),
            _ => 0,
        };
        let width = if def || matches!(f, "Pred" | "UniformPred" | "Barrier") {
            width
        } else {
            let w = widths.and_then(|w| w.get(1 + source).copied()).filter(|_| matches!(f, "Gpr" | "Uniform" | "Address")).unwrap_or(0);
            source += 1;
            w
        };
        out.push((def, f, width));
    }
    out
}

impl Machs {
    /// The structs and enums of every opcode of the forms of every generation.
    pub fn of(generations: &[Vec<Form>]) -> Result<Machs, Vec<String>> {
        let mut by_op: BTreeMap<&str, Vec<&Form>> = BTreeMap::new();
        for form in generations.iter().flatten() {
            by_op.entry(base(form.name)).or_default().push(form);
        }
        let mut problems = Vec::new();
        let mut enums: Vec<ModEnum> = Vec::new();
        let mut enum_of: BTreeMap<(&'static str, Vec<&'static str>), usize> = BTreeMap::new();
        let mut enum_names = BTreeSet::new();
        let mut machs = Vec::new();
        for row in OPCODES {
            let Some(forms) = by_op.get(row.name) else { continue };
            let mut merged: Vec<Position> = Vec::new();
            let mut layouts = Vec::new();
            // Per form so far, the merged positions it can print something at.
            let mut spelled: Vec<BTreeMap<usize, bool>> = Vec::new();
            for (k, form) in forms.iter().enumerate() {
                let own = positions(form);
                let own_at: Vec<usize> = if k == 0 {
                    merged = own.clone();
                    (0..own.len()).collect()
                } else {
                    let (out, old_at, form_at) = merge(&merged, &own);
                    merged = out;
                    for f in &mut spelled {
                        *f = f.iter().map(|(&i, &e)| (old_at[i], e)).collect();
                    }
                    form_at
                };
                spelled.push(own.iter().zip(own_at).map(|(p, at)| (at, p.contains(&""))).collect());
                let l = layout(form);
                if !layouts.contains(&l) {
                    layouts.push(l);
                }
            }
            let merged = join_exclusive(merged, &spelled);
            let mut fields = Vec::new();
            let mut field_names = BTreeSet::new();
            let mut unique = |name: String| {
                let mut n = if KEYWORDS.contains(&name.as_str()) { format!("{name}_") } else { name };
                let mut k = 2;
                while !field_names.insert(n.clone()) {
                    n = format!("{}{k}", n.trim_end_matches(|c: char| c.is_ascii_digit()));
                    k += 1;
                }
                n
            };
            for p in merged {
                let spelled: Vec<&'static str> = p.iter().copied().filter(|s| !s.is_empty()).collect();
                let optional = spelled.len() < p.len();
                match (spelled.len(), optional) {
                    (1, false) => fields.push(Field::Fixed(spelled[0])),
                    (1, true) => {
                        let name = unique(variant(spelled[0]).to_ascii_lowercase());
                        fields.push(Field::Flag { name, spelling: spelled[0] });
                    }
                    _ => {
                        let k = kind(&p);
                        let enum_index = *enum_of.entry((k, p.clone())).or_insert_with(|| {
                            let mut name = format!("{}{k}", camel(row.name));
                            let mut n = 2;
                            while !enum_names.insert(name.clone()) {
                                name = format!("{}{k}{n}", camel(row.name));
                                n += 1;
                            }
                            enums.push(ModEnum { name, spellings: p.clone() });
                            enums.len() - 1
                        });
                        let name = unique(snake(k));
                        fields.push(Field::Choice { name, enum_index });
                    }
                }
            }
            machs.push(Mach { op: row.name, fields, layouts });
        }
        for e in &enums {
            let mut seen = BTreeSet::new();
            for s in &e.spellings {
                if !seen.insert(variant(s)) {
                    problems.push(format!("modifier enum `{}`: two spellings are the variant `{}`", e.name, variant(s)));
                }
            }
        }
        if problems.is_empty() { Ok(Machs { enums, machs }) } else { Err(problems) }
    }

    /// The ISLE type of a field, and its Rust type.
    fn field_type(&self, f: &Field) -> Option<(&str, &str)> {
        match f {
            Field::Fixed(_) => None,
            Field::Flag { .. } => Some(("bool", "bool")),
            Field::Choice { enum_index, .. } => self.enums.get(*enum_index).map(|e| (e.name.as_str(), e.name.as_str())),
        }
    }

    /// The source of `isa_mach.rs`.
    pub fn source(&self) -> String {
        let mut out = String::from("// Generated by ptx2sass-meta (src/isa/mach.rs) from the form table; do not edit.\n\n");
        out.push_str(
            "/// What an operand of a form is: a register file, or the kind of\n\
             /// operand that is no register.\n\
             #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n\
             pub enum OperandFile {\n    /// A general register (`R4`, `RZ`).\n    Gpr,\n    /// A uniform register (`UR4`).\n    Uniform,\n\
             \x20   /// A predicate (`P0`, `PT`).\n    Pred,\n    /// A uniform predicate (`UP0`).\n    UniformPred,\n    /// A convergence barrier (`B0`).\n    Barrier,\n\
             \x20   /// A constant-bank word (`c[0x0][0x160]`).\n    ConstBank,\n    /// A memory address (`[R2.64+0x10]`).\n    Address,\n\
             \x20   /// A branch or call target.\n    Target,\n    /// A special register (`SR_TID.X`).\n    SpecialReg,\n\
             \x20   /// An immediate value.\n    Immediate,\n    /// A constant the instruction spells in hex (a lookup table, a mask).\n    Constant,\n}\n\n\
             /// An operand of a form, in printed order.\n\
             #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n\
             pub struct OperandShape {\n    /// The instruction writes it (else reads it).\n    pub def: bool,\n    /// Its file or kind.\n    pub file: OperandFile,\n\
             \x20   /// Its width in 32-bit registers; 0 for no register, or where a\n    /// modifier's value decides it (`LDG`'s size: the form's `widths`).\n    pub width: u8,\n}\n\n\
             const fn shape(def: bool, file: OperandFile, width: u8) -> OperandShape {\n    OperandShape { def, file, width }\n}\n\n",
        );
        for e in &self.enums {
            let _ = writeln!(out, "/// A modifier's spellings: {}.", e.spellings.iter().map(|s| if s.is_empty() { "none".to_string() } else { format!("`{s}`") }).collect::<Vec<_>>().join(", "));
            out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n#[allow(non_camel_case_types)]\n");
            let _ = writeln!(out, "pub enum {} {{", e.name);
            for s in &e.spellings {
                let _ = writeln!(out, "    /// `{}`", if s.is_empty() { "(nothing)" } else { s });
                let _ = writeln!(out, "    {},", variant(s));
            }
            let _ = writeln!(out, "}}\n\nimpl {} {{\n    /// The tokens it prints.\n    pub fn tokens(self) -> &'static [Mod] {{\n        match self {{", e.name);
            for s in &e.spellings {
                let _ = writeln!(out, "            {}::{} => {},", e.name, variant(s), token_slice(s));
            }
            out.push_str("        }\n    }\n}\n\n");
        }
        for m in &self.machs {
            let name = camel(m.op);
            let _ = writeln!(out, "/// `{}`, with its modifiers as typed fields.", m.op);
            out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n");
            let typed: Vec<(&str, &str)> = m
                .fields
                .iter()
                .filter_map(|f| match f {
                    Field::Flag { name, .. } | Field::Choice { name, .. } => self.field_type(f).map(|(_, ty)| (name.as_str(), ty)),
                    Field::Fixed(_) => None,
                })
                .collect();
            if typed.is_empty() {
                let _ = writeln!(out, "pub struct {name};\n");
            } else {
                let _ = writeln!(out, "pub struct {name} {{");
                for f in &m.fields {
                    match f {
                        Field::Flag { name, spelling } => {
                            let _ = writeln!(out, "    /// Prints `{spelling}`.\n    pub {name}: bool,");
                        }
                        Field::Choice { name, enum_index } => {
                            let _ = writeln!(out, "    /// Its spelling.\n    pub {name}: {},", self.enums[*enum_index].name);
                        }
                        Field::Fixed(_) => {}
                    }
                }
                out.push_str("}\n\n");
            }
            let _ = writeln!(out, "impl {name} {{");
            out.push_str("    /// The operands of each of its forms (distinct layouts), in printed order.\n");
            out.push_str("    pub const OPERANDS: &'static [&'static [OperandShape]] = &[\n");
            for l in &m.layouts {
                let items: Vec<String> = l.iter().map(|(def, f, w)| format!("shape({def}, OperandFile::{f}, {w})")).collect();
                let _ = writeln!(out, "        &[{}],", items.join(", "));
            }
            out.push_str("    ];\n\n    /// The opcode and tokens, in printed order.\n    pub fn mnemonic(&self) -> Mnemonic {\n");
            let _ = writeln!(out, "        let m = Mnemonic::new(Op::{});", m.op);
            for f in &m.fields {
                match f {
                    Field::Fixed(s) => {
                        let _ = writeln!(out, "        let m = m.all({});", token_slice(s));
                    }
                    Field::Flag { name, spelling } => {
                        let _ = writeln!(out, "        let m = if self.{name} {{ m.all({}) }} else {{ m }};", token_slice(spelling));
                    }
                    Field::Choice { name, .. } => {
                        let _ = writeln!(out, "        let m = m.all(self.{name}.tokens());");
                    }
                }
            }
            out.push_str("        m\n    }\n}\n\n");
        }
        // The selection context's constructors of the typed mnemonics.
        out.push_str("/// The selection context's methods for the ISLE constructors `mn_<op>`\n/// (in its `impl Context`).\nmacro_rules! mach_constructors {\n    () => {\n");
        for m in &self.machs {
            let params: Vec<String> = m
                .fields
                .iter()
                .filter_map(|f| self.field_type(f))
                .enumerate()
                .map(|(k, (_, ty))| if ty == "bool" { format!("m{k}: bool") } else { format!("m{k}: &$crate::isa::op::mach::{ty}") })
                .collect();
            let mut inits = Vec::new();
            let mut k = 0;
            for f in &m.fields {
                match f {
                    Field::Flag { name, .. } => inits.push(format!("{name}: m{k}")),
                    Field::Choice { name, .. } => inits.push(format!("{name}: *m{k}")),
                    Field::Fixed(_) => continue,
                }
                k += 1;
            }
            let value = if inits.is_empty() { camel(m.op) } else { format!("{} {{ {} }}", camel(m.op), inits.join(", ")) };
            let _ = writeln!(
                out,
                "        fn mn_{}(&mut self, {}) -> $crate::isa::op::Mnemonic {{\n            $crate::isa::op::mach::{value}.mnemonic()\n        }}",
                m.op.to_ascii_lowercase(),
                params.join(", ")
            );
        }
        out.push_str("    };\n}\npub(crate) use mach_constructors;\n");
        out
    }

    /// The source of `isle_mach.isle`.
    pub fn isle(&self) -> String {
        let mut out = String::from(";; Generated by ptx2sass-meta (src/isa/mach.rs) from the form table; do not edit.\n\n");
        out.push_str(";; The modifier enums of the typed machine instructions (`isa::op::mach`).\n");
        for e in &self.enums {
            let _ = writeln!(out, "(type {} extern (enum {}))", e.name, e.spellings.iter().map(|s| variant(s)).collect::<Vec<_>>().join(" "));
        }
        out.push_str("\n;; Per opcode: `mn_<op>`, its mnemonic from typed modifiers; `mach_<op>`\n;; (`mach_<op>_<count>` where its forms differ), the instruction emitted\n;; with its modifiers and operands.\n");
        for m in &self.machs {
            let op = m.op.to_ascii_lowercase();
            let types: Vec<&str> = m.fields.iter().filter_map(|f| self.field_type(f)).map(|(isle, _)| isle).collect();
            let _ = writeln!(out, "\n(decl pure mn_{op} ({}) Mnemonic)\n(extern constructor mn_{op} mn_{op})", types.join(" "));
            let counts: BTreeSet<usize> = m.layouts.iter().map(Vec::len).collect();
            for &n in &counts {
                let name = if counts.len() == 1 { format!("mach_{op}") } else { format!("mach_{op}_{n}") };
                let mods: Vec<String> = (0..types.len()).map(|k| format!("m{k}")).collect();
                let srcs: Vec<String> = (0..n).map(|k| format!("s{k}")).collect();
                let mut params = vec!["Inst"];
                params.extend(types.iter().copied());
                params.extend(std::iter::repeat_n("Src", n));
                let mn = if mods.is_empty() { format!("(mn_{op})") } else { format!("(mn_{op} {})", mods.join(" ")) };
                let ops = if n == 0 { "(ops0)".to_string() } else { format!("(ops{n} {})", srcs.join(" ")) };
                let args: Vec<String> = std::iter::once("i".to_string()).chain(mods.iter().cloned()).chain(srcs.iter().cloned()).collect();
                let _ = writeln!(out, "(decl {name} ({}) Unit)\n(rule ({name} {}) (emit_ops i {mn} {ops}))", params.join(" "), args.join(" "));
            }
        }
        out
    }
}
