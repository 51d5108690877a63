//! The DWARF a PTX module carries for a debugger, in the form the cubin
//! writer needs it ([`crate::cubin::debug_info`] places it):
//! * each `.section .debug_*` block flattened to its bytes (blocks of the
//!   same name joined in order), the labels it defines (offsets in it)
//!   and the symbols its data names (`.b64 $L__func_begin0`,
//!   `.b32 .debug_abbrev`, `.b32 $L__info_string0+4`), left as zeros with
//!   a [`Reference`] to resolve;
//! * where each label of a function body is (its function and PTX line),
//!   for code addresses;
//! * the `.loc` directives in PTX line order with their `function_name`,
//!   for the line program's inlining records.
//!
//! Nothing in the parsed sections is dropped: a value that is neither a
//! constant nor a symbol plus or minus a constant is an error naming its
//! line.

use super::ast::{BinaryOp, Expr, FunctionKind, Item, Module, SectionEntry, StateSpace, Statement, TargetEntry, UnaryOp, VarType};
use crate::diag::LineMap;

/// One debug section as written in the PTX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugData {
    /// Its name with the dot (`.debug_info`).
    pub name: String,
    /// Its bytes, zero where a [`Reference`] goes.
    pub bytes: Vec<u8>,
    /// The labels it defines, with their offsets.
    pub labels: Vec<(String, u64)>,
    /// The symbols its data names.
    pub references: Vec<Reference>,
}

/// A symbol in section data: `width` bytes at `offset` hold its value
/// plus `addend`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Byte offset in the section.
    pub offset: u64,
    /// Bytes of the value (1, 2, 4 or 8).
    pub width: u8,
    /// The symbol: a label, a section name or a variable.
    pub symbol: String,
    /// Added to its value.
    pub addend: i64,
    /// The PTX line of the data.
    pub line: u32,
}

/// A label in a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLabel {
    /// Its name.
    pub name: String,
    /// The function it is in.
    pub function: String,
    /// Its PTX line.
    pub line: u32,
}

/// A function with a body: its name and the PTX lines of its `{` and `}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionLines {
    /// Its name.
    pub name: String,
    /// The line of the body's `{`.
    pub first: u32,
    /// The line of the body's `}`.
    pub last: u32,
}

/// A `.loc` directive: its PTX line and its `function_name` label and
/// offset, where it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocName {
    /// The PTX line of the directive.
    pub line: u32,
    /// `function_name label[+offset]`.
    pub function_name: Option<(String, i64)>,
}

/// Everything a module says for its debug information.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleDebug {
    /// `.target ..., debug`: ptxas then writes every PTX debug section
    /// (without it, with `-lineinfo`, only `.debug_str`; measured).
    pub debug_target: bool,
    /// The `.section` blocks, in first-appearance order.
    pub sections: Vec<DebugData>,
    /// The labels of function bodies, in source order.
    pub code_labels: Vec<CodeLabel>,
    /// The functions with bodies, in source order.
    pub functions: Vec<FunctionLines>,
    /// The `.loc` directives, in source order.
    pub locs: Vec<LocName>,
    /// The parameters of kernels: name, kernel, index in its list.
    pub kernel_params: Vec<(String, String, usize)>,
    /// The `.local` variables of function bodies (nvcc's
    /// `__local_depotN`, the frame): name and size in bytes.
    pub local_variables: Vec<(String, u64)>,
}

impl ModuleDebug {
    /// The `function_name` of the `.loc` in force at PTX line `line` (the
    /// last one above it), if any.
    pub fn function_name_at(&self, line: u32) -> Option<&(String, i64)> {
        let k = self.locs.partition_point(|l| l.line < line);
        k.checked_sub(1).and_then(|k| self.locs[k].function_name.as_ref())
    }

    /// The `function_name` of the `.loc` directive at PTX line `line`, if
    /// there is one and it has one.
    pub fn function_name_of(&self, line: u32) -> Option<&(String, i64)> {
        let k = self.locs.partition_point(|l| l.line < line);
        self.locs.get(k).filter(|l| l.line == line).and_then(|l| l.function_name.as_ref())
    }

    /// The section named `name`.
    pub fn section(&self, name: &str) -> Option<&DebugData> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// Collects a parsed module's debug data; `source` is the text it was
/// parsed from (for lines). Errors name the PTX line.
pub fn collect(module: &Module, source: &str) -> Result<ModuleDebug, String> {
    let map = LineMap::new(source);
    let mut out = ModuleDebug { debug_target: module.target.as_ref().is_some_and(|t| t.entries.iter().any(|(e, _)| *e == TargetEntry::Debug)), ..ModuleDebug::default() };
    for item in &module.items {
        match item {
            Item::Section(section) => {
                let k = match out.sections.iter().position(|s| s.name == section.name) {
                    Some(k) => k,
                    None => {
                        out.sections.push(DebugData { name: section.name.clone(), bytes: Vec::new(), labels: Vec::new(), references: Vec::new() });
                        out.sections.len() - 1
                    }
                };
                let data = &mut out.sections[k];
                for entry in &section.entries {
                    match entry {
                        SectionEntry::Label(name, _) => data.labels.push((module.names.name(*name).to_string(), data.bytes.len() as u64)),
                        SectionEntry::Data(bits, values, loc) => {
                            let line = map.line(loc.0.start);
                            let width = bits / 8;
                            for v in values {
                                let (symbol, value) = evaluate(module, v).ok_or_else(|| format!("line {line}: {} data that is not a constant or a symbol plus a constant", section.name))?;
                                let offset = data.bytes.len() as u64;
                                match symbol {
                                    Some(symbol) => {
                                        data.references.push(Reference { offset, width, symbol, addend: value, line });
                                        data.bytes.extend(std::iter::repeat_n(0, usize::from(width)));
                                    }
                                    None => data.bytes.extend_from_slice(&value.to_le_bytes()[..usize::from(width)]),
                                }
                            }
                        }
                    }
                }
            }
            Item::Function(f) => {
                let Some(body) = &f.body else { continue };
                let name = module.names.name(f.name).to_string();
                if f.kind == FunctionKind::Entry {
                    for (k, p) in f.params.iter().flatten().enumerate() {
                        out.kernel_params.push((module.names.name(p.name).to_string(), name.clone(), k));
                    }
                }
                out.functions.push(FunctionLines { name: name.clone(), first: map.line(body.loc.0.start), last: map.line(body.loc.0.end.saturating_sub(1)) });
                walk(module, &map, &name, &body.stmts, &mut out);
            }
            _ => {}
        }
    }
    Ok(out)
}

fn walk(module: &Module, map: &LineMap, function: &str, stmts: &[Statement], out: &mut ModuleDebug) {
    for s in stmts {
        match s {
            Statement::Label(name, loc) => out.code_labels.push(CodeLabel { name: module.names.name(*name).to_string(), function: function.to_string(), line: map.line(loc.0.start) }),
            Statement::Loc(l) => {
                let function_name = l.function_name.map(|(s, off)| (module.names.name(s).to_string(), off));
                out.locs.push(LocName { line: map.line(l.loc.0.start), function_name });
            }
            Statement::Block(b) => walk(module, map, function, &b.stmts, out),
            Statement::Variable(v) if v.space == StateSpace::Local => {
                let VarType::Scalar(t) = v.ty else { continue };
                let element = u64::from(t.bits().div_ceil(8)) * u64::from(v.vector.unwrap_or(1));
                for d in &v.declarators {
                    let size = d.dims.iter().map(|n| n.unwrap_or(0)).fold(element, u64::saturating_mul);
                    out.local_variables.push((module.names.name(d.name).to_string(), size));
                }
            }
            _ => {}
        }
    }
}

/// A value as (symbol, constant): a constant, a symbol, or a symbol plus
/// or minus a constant. `None` for anything else.
fn evaluate(module: &Module, e: &Expr) -> Option<(Option<String>, i64)> {
    match e {
        Expr::Int { value, .. } => Some((None, *value as i64)),
        Expr::Symbol(s, _) => Some((Some(module.names.name(*s).to_string()), 0)),
        Expr::Unary(UnaryOp::Plus, a, _) => evaluate(module, a),
        Expr::Unary(UnaryOp::Neg, a, _) => match evaluate(module, a)? {
            (None, v) => Some((None, v.wrapping_neg())),
            _ => None,
        },
        Expr::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b, _) => {
            let (sa, va) = evaluate(module, a)?;
            let (sb, vb) = evaluate(module, b)?;
            match (op, sa, sb) {
                (BinaryOp::Add, s, None) | (BinaryOp::Add, None, s) => Some((s, va.wrapping_add(vb))),
                (BinaryOp::Sub, s, None) => Some((s, va.wrapping_sub(vb))),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".version 8.5\n.target sm_80, debug\n.address_size 64\n\
        .visible .entry k()\n{\n$L__func_begin0:\n\t.loc 1 3 0\n\tret;\n$L__func_end0:\n}\n\
        .file 1 \"/home/dev/k.cu\"\n\
        .section .debug_str\n{\n$L__info_string0:\n.b8 107,0\n$L__info_string1:\n.b8 120,0\n}\n\
        .section .debug_info\n{\n.b32 12\n.b8 2,0\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n.b64 $L__func_end0\n.b32 $L__info_string1+1\n.b16 -2\n}\n";

    #[test]
    fn sections_flatten_to_bytes_labels_and_references() {
        let m = crate::ptx::parse(PTX).expect("parses");
        let d = collect(&m, PTX).expect("collects");
        assert!(d.debug_target);
        let s = d.section(".debug_str").expect("strings");
        assert_eq!(s.bytes, b"k\0x\0");
        assert_eq!(s.labels, vec![("$L__info_string0".to_string(), 0), ("$L__info_string1".to_string(), 2)]);
        let i = d.section(".debug_info").expect("info");
        // 4 + 2 + 4 + 8 + 8 + 4 + 2 bytes; -2 as two bytes.
        assert_eq!(i.bytes.len(), 32);
        assert_eq!(&i.bytes[..6], &[12, 0, 0, 0, 2, 0]);
        assert_eq!(&i.bytes[30..], &[0xfe, 0xff]);
        let refs: Vec<(u64, u8, &str, i64, u32)> = i.references.iter().map(|r| (r.offset, r.width, r.symbol.as_str(), r.addend, r.line)).collect();
        assert_eq!(refs, vec![(6, 4, ".debug_abbrev", 0, 23), (10, 8, "$L__func_begin0", 0, 24), (18, 8, "$L__func_end0", 0, 25), (26, 4, "$L__info_string1", 1, 26)]);
        assert_eq!(d.code_labels.iter().map(|l| (l.name.as_str(), l.function.as_str(), l.line)).collect::<Vec<_>>(), vec![("$L__func_begin0", "k", 6), ("$L__func_end0", "k", 9)]);
        assert_eq!(d.functions, vec![FunctionLines { name: "k".into(), first: 5, last: 10 }]);
    }

    #[test]
    fn an_expression_that_is_not_symbol_plus_constant_is_an_error_with_its_line() {
        let ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.section .debug_info\n{\n.b32 a+b\n}\n";
        let m = crate::ptx::parse(ptx).expect("parses");
        assert_eq!(collect(&m, ptx).unwrap_err(), "line 6: .debug_info data that is not a constant or a symbol plus a constant");
    }

    #[test]
    fn the_function_name_in_force_is_the_last_loc_above() {
        let ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\t.loc 1 3 0, function_name $L__info_string0, inlined_at 1 9 2\n\tret;\n\t.loc 1 4 0\n\tret;\n}\n";
        let m = crate::ptx::parse(ptx).expect("parses");
        let d = collect(&m, ptx).expect("collects");
        assert_eq!(d.function_name_at(7), Some(&("$L__info_string0".to_string(), 0)));
        assert_eq!(d.function_name_at(9), None);
        assert_eq!(d.function_name_at(6), None);
    }
}
