//! Line information as `ptxas -lineinfo` writes it: the sections that
//! map each SASS instruction back to the program it came from.
//!
//! Three sections, in this order (measured on ptxas 13.5 cubins of Triton
//! and nvcc `-lineinfo` PTX, sm_90 and later):
//! * `.debug_line`: a DWARF 3 line program whose rows give, per code
//!   address, the high-level source position of the PTX `.loc` in force
//!   (files from the PTX `.file` directives, a path split into directory
//!   and name); one sequence per kernel section, its start relocated to
//!   the kernel's symbol;
//! * `.nv_debug_line_sass`: the same shape with no file table, whose rows
//!   give the line of the PTX instruction in `.nv_debug_ptx_txt`;
//! * `.nv_debug_ptx_txt`: the PTX text the lines count in, one NUL-ended
//!   line per PTX line: comments, `.loc` and `.file` directives and the
//!   data of `.section` blocks blanked, the rest trimmed.
//!
//! ptxas starts a new row only where the position changes, marks the
//! second row of a sequence as the prologue's end, and writes no columns;
//! so does this module. Both line programs are written here, byte for
//! byte as ptxas writes them (its header, its choice among equivalent
//! opcodes, its inlining records): a DWARF writer such as `gimli`'s
//! chooses other opcodes (`DW_LNS_const_add_pc`) and has no way to write
//! ptxas's vendor opcode for inlined code ([`DW_LNE_NV_INLINED_AT`]).
//! `nvdisasm -g`/`-gi`, `cuobjdump` and any DWARF 3 reader read them.
//!
//! Everything here is a function of the PTX text and the code: no time,
//! path or environment enters the bytes (ptxas records the source file's
//! time stamp and size only as the `.file` directive gives them, and so
//! does this module).

use super::module::{CodeAddress, DebugSection};
use crate::fxhash::FxBuild;
use crate::ir::function::{CallSite, InlineChain};
use std::collections::HashMap;

/// A PTX `.file` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The index `.loc` directives name it by.
    pub index: u32,
    /// Its path, as written.
    pub name: String,
    /// Modification time and size, where the directive gives them.
    pub timestamp: u64,
    /// Size in bytes, where the directive gives it.
    pub size: u64,
}

/// Where one instruction comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// The PTX line of the instruction it was compiled from (1-based; 0
    /// for instructions the compiler adds).
    pub ptx_line: u32,
    /// The `.loc` file index in force (0: none).
    pub file: u32,
    /// The `.loc` line in force (0: none).
    pub line: u32,
    /// Where an inlined position comes from (its `.loc` directive and
    /// call sites); the default when it is not inlined.
    pub inlined: InlineChain,
}

/// The code of one kernel section and where each instruction comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionLines {
    /// The kernel's symbol (the sequence's start is relocated to it).
    pub symbol: String,
    /// One position per 16-byte instruction of the section, in order.
    pub positions: Vec<Position>,
    /// Where each function in the section starts (instruction index) and
    /// its entry position: the line of its body's `{` and the first `.loc`
    /// of the body. An instruction the compiler adds there (the stack
    /// pointer's set-up) takes it, as in ptxas's tables.
    pub entries: Vec<(usize, Position)>,
}

/// `R_CUDA_64`: a 64-bit absolute address.
const R_CUDA_64: u32 = 2;

/// Bytes of one instruction.
const INSTRUCTION_BYTES: u64 = 16;

/// The header fields of ptxas's line programs (read from their headers:
/// DWARF version 3, minimum instruction length 1, `is_stmt` by default,
/// line base -5, line range 14, opcode base 13, and the standard opcodes'
/// operand counts).
const LINE_BASE: i64 = -5;
const LINE_RANGE: i64 = 14;
const OPCODE_BASE: i64 = 13;
const HEADER_FIELDS: [u8; 17] = [1, 1, LINE_BASE as u8, LINE_RANGE as u8, OPCODE_BASE as u8, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1];

/// ptxas's extended line opcode for inlining (`DW_LNE_lo_user` + 0x10):
/// its operands are the row, counted from 1 in the sequence, of the call
/// site the following rows are inlined at (0: not inlined) and the
/// `.debug_str` offset of the `function_name` of the function they are in.
/// `nvdisasm -gi` prints the chain of call sites it gives. Measured on
/// ptxas 13.5 cubins of nvcc and Triton `-lineinfo` PTX.
const DW_LNE_NV_INLINED_AT: u8 = 0x90;

/// The line-information sections of a module whose kernel sections are
/// `sections` (in the cubin's section order), compiled from `ptx` with
/// the `.file` directives `files`.
///
/// The DWARF sections of the PTX go with them ([`super::debug_info`]):
/// `.debug_str` after `.debug_line`, and with `.target ..., debug` the
/// others (`.debug_abbrev`, `.debug_info`, ...) after `.nv_debug_ptx_txt`.
pub fn sections(files: &[SourceFile], sections: &[SectionLines], ptx: &str) -> Result<Vec<DebugSection>, String> {
    with_dwarf(files, sections, ptx, false, &super::debug_info::Placed::default())
}

/// [`sections`] for a compilation with `-g` (`device_debug`), which
/// copies every DWARF section of the PTX, debug target or not (measured:
/// ptxas `-g` on nvcc `-G` PTX whose `.target` lost its `debug`);
/// `placed`: where the compilation put the PTX's variables.
pub fn with_dwarf(files: &[SourceFile], sections: &[SectionLines], ptx: &str, device_debug: bool, placed: &super::debug_info::Placed) -> Result<Vec<DebugSection>, String> {
    let debug = match crate::ptx::parse(ptx) {
        Ok(module) => crate::ptx::debug_sections::collect(&module, ptx)?,
        // The compiler has parsed it already; a text that does not parse
        // here has no sections to copy.
        Err(_) => crate::ptx::debug_sections::ModuleDebug::default(),
    };
    let (copied_early, copied_late) = super::debug_info::sections(&debug, &CodePlaces { functions: &debug.functions, sections }, placed, device_debug)?;
    let strings = debug.sections.iter().find(|d| d.name == ".debug_str");
    let name_offset = |loc_line: u32| -> u64 {
        let Some((label, addend)) = debug.function_name_of(loc_line) else { return 0 };
        let Some(&(_, offset)) = strings.and_then(|d| d.labels.iter().find(|(l, _)| l == label)) else { return 0 };
        offset.saturating_add_signed(*addend)
    };
    let (debug_line, debug_relocations) = source_lines(files, sections, &name_offset);
    let (sass_line, sass_relocations) = ptx_lines(sections);
    let mut out = vec![DebugSection { name: ".debug_line".into(), bytes: debug_line, relocations: debug_relocations, parameters: Vec::new() }];
    out.extend(copied_early);
    out.push(DebugSection { name: ".nv_debug_line_sass".into(), bytes: sass_line, relocations: sass_relocations, parameters: Vec::new() });
    out.push(DebugSection { name: ".nv_debug_ptx_txt".into(), bytes: ptx_text(ptx), relocations: Vec::new(), parameters: Vec::new() });
    out.extend(copied_late);
    Ok(out)
}

/// Where the code labels of the PTX are in the kernel sections: a
/// kernel's in its own section, a device function's where the section
/// holds its code (an entry at its body's `{` line), or else where its
/// code is inlined (the first section with instructions from its lines:
/// from the first such instruction to the last); relocated against the
/// kernel's symbol.
struct CodePlaces<'a> {
    functions: &'a [crate::ptx::debug_sections::FunctionLines],
    sections: &'a [SectionLines],
}

impl super::debug_info::CodePlaces for CodePlaces<'_> {
    fn place(&self, function: &str, line: u32) -> Option<(String, u64)> {
        let f = self.functions.iter().find(|f| f.name == function)?;
        self.sections.iter().find_map(|s| {
            let start = if s.symbol == function { 0 } else { s.entries.iter().find(|(at, p)| *at > 0 && p.ptx_line == f.first)?.0 };
            let end = s.entries.iter().map(|(at, _)| *at).filter(|&at| at > start).min().unwrap_or(s.positions.len()).min(s.positions.len());
            let lines: Vec<u32> = s.positions.get(start..end)?.iter().map(|p| p.ptx_line).collect();
            let at = start + super::debug_info::code_address(&lines, f.first, f.last, line);
            Some((s.symbol.clone(), at as u64 * INSTRUCTION_BYTES))
        })
        .or_else(|| {
            self.sections.iter().find_map(|s| {
                let own = |p: &Position| p.ptx_line > f.first && p.ptx_line <= f.last;
                let first = s.positions.iter().position(own)?;
                let last = s.positions.iter().rposition(own)?;
                let lines: Vec<u32> = s.positions[first..=last].iter().map(|p| p.ptx_line).collect();
                let at = first + super::debug_info::code_address(&lines, f.first, f.last, line);
                Some((s.symbol.clone(), at as u64 * INSTRUCTION_BYTES))
            })
        })
    }
}

/// A path as ptxas's file table holds it: the directory (up to the last
/// `/`, none for a bare name) and the name. `None` for a path that cannot
/// be a table entry (empty name, NUL bytes).
fn split_path(path: &str) -> Option<(Option<&str>, &str)> {
    if path.contains('\0') {
        return None;
    }
    let (dir, name) = match path.rfind('/') {
        Some(0) => (Some("/"), &path[1..]),
        Some(k) => (Some(&path[..k]), &path[k + 1..]),
        None => (None, path),
    };
    (!name.is_empty()).then_some((dir, name))
}

/// One row of a `.debug_line` sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SourceRow {
    /// Byte offset in the section.
    address: u64,
    /// File number in the table (from 1).
    file: u64,
    line: u64,
    /// [`DW_LNE_NV_INLINED_AT`]'s operands.
    inlined_at: (u64, u64),
}

/// A line program's file table: directories and files, numbered from 1
/// (directory 0, the compilation directory, is implicit in DWARF 3), each
/// once, in the order of the `.file` indices.
struct FileTable<'a> {
    directories: Vec<&'a str>,
    /// Name, directory, time stamp, size.
    files: Vec<(&'a str, u64, u64, u64)>,
    /// `.file` index to file number.
    numbers: Vec<(u32, u64)>,
}

impl<'a> FileTable<'a> {
    fn new(files: &'a [SourceFile]) -> FileTable<'a> {
        let mut table = FileTable { directories: Vec::new(), files: Vec::new(), numbers: Vec::new() };
        let mut sorted: Vec<&SourceFile> = files.iter().collect();
        sorted.sort_by_key(|f| f.index);
        for f in sorted {
            let Some((dir, name)) = split_path(&f.name) else { continue };
            let dir = match dir {
                Some(d) => match table.directories.iter().position(|x| *x == d) {
                    Some(k) => k as u64 + 1,
                    None => {
                        table.directories.push(d);
                        table.directories.len() as u64
                    }
                },
                None => 0,
            };
            let number = match table.files.iter().position(|(n, d, _, _)| *n == name && *d == dir) {
                Some(k) => k as u64 + 1,
                None => {
                    table.files.push((name, dir, f.timestamp, f.size));
                    table.files.len() as u64
                }
            };
            if !table.numbers.iter().any(|(i, _)| *i == f.index) {
                table.numbers.push((f.index, number));
            }
        }
        table
    }

    fn number(&self, index: u32) -> Option<u64> {
        self.numbers.iter().find(|(i, _)| *i == index).map(|(_, n)| *n)
    }

    /// The header after `header_length`, as ptxas writes it (with four
    /// zero bytes after the file table, inside the header's length).
    fn header(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&HEADER_FIELDS);
        for d in &self.directories {
            out.extend_from_slice(d.as_bytes());
            out.push(0);
        }
        out.push(0);
        for (name, dir, time, size) in &self.files {
            out.extend_from_slice(name.as_bytes());
            out.push(0);
            uleb128(out, *dir);
            uleb128(out, *time);
            uleb128(out, *size);
        }
        out.push(0);
        out.extend_from_slice(&[0; 4]);
    }
}

/// `.debug_line`: code addresses to `.loc` positions. `function_name`
/// gives the `.debug_str` offset of the `function_name` of the `.loc`
/// directive at a PTX line (0 when it has none).
fn source_lines(files: &[SourceFile], sections: &[SectionLines], function_name: &dyn Fn(u32) -> u64) -> (Vec<u8>, Vec<CodeAddress>) {
    let table = FileTable::new(files);
    let mut out = vec![0, 0, 0, 0, 3, 0, 0, 0, 0, 0];
    table.header(&mut out);
    let header_length = (out.len() - 10) as u32;
    out[6..10].copy_from_slice(&header_length.to_le_bytes());
    let mut relocations = Vec::new();
    for s in sections {
        // A position's row, up to the call sites' rows: file, line, the
        // call sites (their `.loc` directives) and the function name.
        let known = |p: &Position| {
            let file = table.number(p.file).filter(|_| p.line > 0)?;
            let name = if p.inlined.sites[0].line > 0 { function_name(p.inlined.loc) } else { 0 };
            Some((file, p.line, p.inlined.sites, name))
        };
        // A section without any `.loc` gets no sequence (ptxas writes none).
        let Some(first) = s.positions.iter().find_map(known) else { continue };
        let entry = |i: usize| s.entries.iter().find(|(at, _)| *at == i).and_then(|(_, p)| known(p));
        let mut rows: Vec<SourceRow> = Vec::new();
        // Code inlined at a call site: ptxas gives the call site a row of
        // its own, at the address of the first instruction inlined there,
        // once per call site `.loc` directive (a second `.loc` at the same
        // position is a second inlining, with a row of its own); each
        // inlined row names the row of its innermost call site, each call
        // site's row that of the call site it is itself inlined at.
        let mut entered: HashMap<CallSite, u64, FxBuild> = HashMap::default();
        for (i, (file, line, sites, name)) in row_starts(s.positions.iter().enumerate().map(|(i, p)| known(p).or_else(|| entry(i))), first) {
            let address = i as u64 * INSTRUCTION_BYTES;
            let depth = sites.iter().take_while(|c| c.line > 0).count();
            let mut outer_row = 0;
            for (k, site) in sites[..depth].iter().enumerate().rev() {
                if let Some(&row) = entered.get(site) {
                    outer_row = row;
                    continue;
                }
                let Some(site_file) = table.number(site.file) else { continue };
                let inlined_at = if k + 1 < depth && outer_row > 0 { (outer_row, function_name(site.loc)) } else { (0, 0) };
                rows.push(SourceRow { address, file: site_file, line: u64::from(site.line), inlined_at });
                outer_row = rows.len() as u64;
                entered.insert(*site, outer_row);
            }
            let inlined_at = if outer_row > 0 { (outer_row, name) } else { (0, 0) };
            rows.push(SourceRow { address, file, line: u64::from(line), inlined_at });
        }
        relocations.push(CodeAddress { offset: out.len() as u64 + 3, symbol: s.symbol.clone(), kind: R_CUDA_64, addend: 0 });
        sequence(&mut out, &rows, s.positions.len() as u64 * INSTRUCTION_BYTES);
    }
    let length = (out.len() - 4) as u32;
    out[..4].copy_from_slice(&length.to_le_bytes());
    (out, relocations)
}

/// One sequence of `.debug_line`, with ptxas's choice of opcodes: its
/// address (to be relocated), `DW_LNS_set_file` at the start and where the
/// file changes, [`DW_LNE_NV_INLINED_AT`] where the inlining changes, a
/// special opcode where one fits (not for the first row), else
/// `DW_LNS_advance_line`, `DW_LNS_advance_pc` and `DW_LNS_copy` (a row
/// on the same line takes no special opcode, and the address step is
/// written as a signed LEB128: `02 c0 00` for 0x40, measured); after
/// the first row `DW_LNS_set_prologue_end` and, when the second row is
/// past the second instruction, an advance to that instruction first
/// (ptxas's bytes, measured: `0a 02 10 ...`).
fn sequence(out: &mut Vec<u8>, rows: &[SourceRow], end: u64) {
    out.extend_from_slice(&[0, 9, 2]);
    out.extend_from_slice(&[0; 8]);
    let (mut address, mut file, mut line, mut inlined_at) = (0u64, 1u64, 1i64, (0u64, 0u64));
    for (n, row) in rows.iter().enumerate() {
        if n == 1 {
            out.push(10); // DW_LNS_set_prologue_end
            if row.address > INSTRUCTION_BYTES {
                out.push(2);
                uleb128(out, INSTRUCTION_BYTES);
                address = INSTRUCTION_BYTES;
            }
        }
        if n == 0 || row.file != file {
            out.push(4);
            uleb128(out, row.file);
            file = row.file;
        }
        if row.inlined_at != inlined_at {
            let mut operands = Vec::with_capacity(8);
            uleb128(&mut operands, row.inlined_at.0);
            uleb128(&mut operands, row.inlined_at.1);
            out.push(0);
            uleb128(out, operands.len() as u64 + 1);
            out.push(DW_LNE_NV_INLINED_AT);
            out.extend_from_slice(&operands);
            inlined_at = row.inlined_at;
        }
        let (dl, da) = (row.line as i64 - line, (row.address - address) as i64);
        let special = (dl - LINE_BASE) + LINE_RANGE * da + OPCODE_BASE;
        if n > 0 && dl != 0 && (LINE_BASE..LINE_BASE + LINE_RANGE).contains(&dl) && special <= 255 {
            out.push(special as u8);
        } else {
            if dl != 0 {
                out.push(3);
                sleb128(out, dl);
            }
            if da != 0 {
                out.push(2);
                sleb128(out, da);
            }
            out.push(1); // DW_LNS_copy
        }
        line = row.line as i64;
        address = row.address;
    }
    if end > address {
        out.push(2);
        sleb128(out, (end - address) as i64);
    }
    out.extend_from_slice(&[0, 1, 1]); // DW_LNE_end_sequence
}

/// `.nv_debug_line_sass`: code addresses to lines of `.nv_debug_ptx_txt`.
///
/// Its rows name file 0 (the table is empty; `nvdisasm -gp` crashes on a
/// program whose rows name file 1, the DWARF 3 default, measured); the
/// opcodes are those of [`sequence`].
fn ptx_lines(sections: &[SectionLines]) -> (Vec<u8>, Vec<CodeAddress>) {
    // unit_length (filled in last), version 3, header_length 19: the
    // header fields, no directories, no files.
    let mut out: Vec<u8> = vec![0, 0, 0, 0, 3, 0, 19, 0, 0, 0];
    out.extend_from_slice(&HEADER_FIELDS);
    out.extend_from_slice(&[0, 0]);
    let mut relocations = Vec::new();
    for s in sections {
        let known = |p: &Position| (p.ptx_line > 0).then_some(p.ptx_line);
        let entry = |i: usize| s.entries.iter().find(|(at, _)| *at == i).and_then(|(_, p)| known(p));
        let first = entry(0).or_else(|| s.positions.iter().find_map(known)).unwrap_or(1);
        let rows: Vec<SourceRow> = row_starts(s.positions.iter().enumerate().map(|(i, p)| known(p).or_else(|| entry(i))), first)
            .map(|(i, line)| SourceRow { address: i as u64 * INSTRUCTION_BYTES, file: 0, line: u64::from(line), inlined_at: (0, 0) })
            .collect();
        relocations.push(CodeAddress { offset: out.len() as u64 + 3, symbol: s.symbol.clone(), kind: R_CUDA_64, addend: 0 });
        sequence(&mut out, &rows, s.positions.len() as u64 * INSTRUCTION_BYTES);
    }
    let length = (out.len() - 4) as u32;
    out[..4].copy_from_slice(&length.to_le_bytes());
    (out, relocations)
}

fn uleb128(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn sleb128(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0) {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Where the rows of one sequence start, with their positions: at each
/// instruction whose position differs from the row before (an instruction
/// without one continues that row; the first instruction takes `first`,
/// the function's first known position).
fn row_starts<T: Copy + PartialEq>(positions: impl Iterator<Item = Option<T>>, first: T) -> impl Iterator<Item = (usize, T)> {
    let mut current: Option<T> = None;
    positions.enumerate().filter_map(move |(i, p)| {
        let p = match (p, current) {
            (Some(p), _) => p,
            (None, None) => first,
            (None, Some(_)) => return None,
        };
        (current != Some(p)).then(|| {
            current = Some(p);
            (i, p)
        })
    })
}

/// `.nv_debug_ptx_txt`: the PTX text line for line, each line ended by a
/// NUL, with comments, `.loc` and `.file` directives and the data of
/// `.section` blocks blanked and the rest trimmed of surrounding blanks
/// (measured against ptxas 13.5 on Triton and nvcc output).
pub fn ptx_text(ptx: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(ptx.len());
    let mut in_comment = false;
    let mut in_section = false;
    let mut lines = ptx.split('\n').peekable();
    while let Some(raw) = lines.next() {
        let code = strip_comments(raw, &mut in_comment);
        let text = code.trim_matches(|c| c == ' ' || c == '\t' || c == '\r');
        let word = text.split(|c: char| c.is_ascii_whitespace()).next().unwrap_or("");
        let kept = if in_section {
            if text.starts_with('}') {
                in_section = false;
            }
            text == "{" || text.starts_with('}')
        } else {
            if word == ".section" && !text.contains('}') {
                in_section = true;
            }
            word != ".loc" && word != ".file"
        };
        if kept {
            out.extend_from_slice(text.as_bytes());
        }
        // The text after the last newline ends the file without one.
        if lines.peek().is_some() {
            out.push(0);
        }
    }
    out
}

/// A line without its comments (`//` to the end, `/* */` across lines;
/// not inside string literals).
fn strip_comments(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::with_capacity(line.len());
    let bytes = line.as_bytes();
    let mut k = 0;
    let mut in_string = false;
    while k < bytes.len() {
        if *in_comment {
            if bytes[k..].starts_with(b"*/") {
                *in_comment = false;
                k += 2;
            } else {
                k += 1;
            }
            continue;
        }
        let c = bytes[k];
        if in_string {
            if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if bytes[k..].starts_with(b"//") {
            break;
        } else if bytes[k..].starts_with(b"/*") {
            *in_comment = true;
            k += 2;
            continue;
        }
        // Whole characters: `k` only stops on ASCII bytes.
        let len = line[k..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&line[k..k + len]);
        k += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_text_blanks_what_ptxas_blanks() {
        // Lines and expected text from ptxas 13.5's `.nv_debug_ptx_txt` of
        // a Triton kernel (tests/data/triton/vector_add.sm_80.ptx).
        let ptx = "//\n.version 9.5\n\t.loc\t1 7 0                           // vector_add.py:7:0\n\tld.param.b64 \t%rd7, [vector_add_param_0];\n\t.file\t1 \"/a/b.py\"\n\t.section\t.debug_abbrev\n\t{\n.b8 1                                   // Abbreviation Code\n\t}\n\t.section\t.debug_macinfo\t{\t}\n";
        let expected: &[u8] = b"\0.version 9.5\0\0ld.param.b64 \t%rd7, [vector_add_param_0];\0\0.section\t.debug_abbrev\0{\0\0}\0.section\t.debug_macinfo\t{\t}\0";
        assert_eq!(ptx_text(ptx), expected);
    }

    #[test]
    fn block_comments_span_lines() {
        assert_eq!(ptx_text("a /* x\ny */ b\n\"//\" c // d\n"), b"a\0b\0\"//\" c\0");
    }

    #[test]
    fn paths_split_as_ptxas_splits_them() {
        // ptxas: `.file 1 "/home/dev/kernels/vector_add.py"` is directory 1
        // "/home/dev/kernels", file "vector_add.py"; "conditions.cu" has
        // directory 0.
        assert_eq!(split_path("/home/dev/kernels/vector_add.py"), Some((Some("/home/dev/kernels"), "vector_add.py")));
        assert_eq!(split_path("conditions.cu"), Some((None, "conditions.cu")));
        assert_eq!(split_path("/x.cu"), Some((Some("/"), "x.cu")));
        assert_eq!(split_path("dir/"), None);
        assert_eq!(split_path("a\0b"), None);
    }
}

#[cfg(test)]
mod encoding_tests {
    use super::*;

    fn at_ptx_lines(lines: &[u32]) -> SectionLines {
        SectionLines { symbol: "k".into(), positions: lines.iter().map(|&ptx_line| Position { ptx_line, ..Position::default() }).collect(), entries: Vec::new() }
    }

    #[test]
    fn ptx_line_program_is_written_with_ptxas_opcodes() {
        // The first four rows of ptxas 13.5's `.nv_debug_line_sass` for
        // Triton's vector_add on sm_90 (PTX lines 20, 39, 62, 52 at 0x0,
        // 0x10, 0x20, 0x30), ended after the fourth instruction.
        let (bytes, relocations) = ptx_lines(&[at_ptx_lines(&[20, 39, 62, 52])]);
        let mut expected: Vec<u8> = vec![0, 0, 0, 0, 0x03, 0x00, 0x13, 0, 0, 0, 0x01, 0x01, 0xfb, 0x0e, 0x0d, 0x00, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00];
        expected.extend_from_slice(&[0x00, 0x09, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x04, 0x00, 0x03, 0x13, 0x01, 0x0a, 0x03, 0x13, 0x02, 0x10, 0x01, 0x03, 0x17, 0x02, 0x10, 0x01, 0x03, 0x76, 0x02, 0x10, 0x01]);
        expected.extend_from_slice(&[0x02, 0x10, 0x00, 0x01, 0x01]);
        let length = (expected.len() - 4) as u32;
        expected[..4].copy_from_slice(&length.to_le_bytes());
        assert_eq!(bytes, expected);
        // The address after DW_LNE_set_address is relocated to the kernel.
        assert_eq!(relocations, vec![CodeAddress { offset: 0x20, symbol: "k".into(), kind: 2, addend: 0 }]);
    }

    #[test]
    fn small_steps_take_special_opcodes() {
        // ptxas: PTX lines 40, 41, 43, 44 at consecutive instructions are
        // the special opcodes 0xf3, 0xf4 (16 bytes, +1 and +2 lines).
        let (bytes, _) = ptx_lines(&[at_ptx_lines(&[40, 41, 43])]);
        let program = &bytes[29..];
        assert_eq!(program[11..], [0x04, 0x00, 0x03, 0x27, 0x01, 0x0a, 0xf3, 0xf4, 0x02, 0x10, 0x00, 0x01, 0x01]);
    }

    #[test]
    fn inlined_rows_carry_ptxas_call_site_records() {
        // ptxas 13.5's whole `.debug_line` for this PTX (sm_80): a chain of
        // dependent FFMAs, so that every `.loc` has its instruction in
        // order. Two `.loc 1 11 10` are two inlinings at the same position;
        // `.loc 1 22 3` twice, each a call site of an `inlined_at 1 22 3`.
        //   7 .loc 1 10 1 (5 instructions)     17 .loc 1 21 3, f1, inlined_at 1 11 10
        //  11 .loc 1 11 10                      19 .loc 1 12 3
        //  13 .loc 1 20 3, f0, inlined_at 1 11 10  21 .loc 1 22 3, f1, inlined_at 1 11 10
        //  15 .loc 1 11 10                      23 .loc 1 40 3, f0, inlined_at 1 22 3
        //  25, 27: 21 and 23 again              29 .loc 1 13 3 (then 17 instructions of no line)
        // f0 and f1 are `.debug_str` offsets 0 and 3.
        let expected = "a70000000300240000000101fb0e0d0001010101000000010000012f78000073796e2e6375000100000000000000000902000000000000000004010309010a0210030102c000010210010003900300030901000390000003770210010210010003900603030a01000390000003770210010003900603030a0210010210010003900a000312010003900603036e0210010210010003900d000312010003900000036502100102a002000101";
        let site = |line: u32, loc: u32| CallSite { file: 1, line, loc };
        let at = |line: u32, loc: u32, sites: &[CallSite]| {
            let mut inlined = InlineChain { loc, ..InlineChain::default() };
            inlined.sites[..sites.len()].copy_from_slice(sites);
            Position { ptx_line: loc + 1, file: 1, line, inlined }
        };
        let mut positions = vec![at(10, 7, &[]); 5];
        positions.extend([
            at(11, 11, &[]),
            at(20, 13, &[site(11, 11)]),
            at(11, 15, &[]),
            at(21, 17, &[site(11, 15)]),
            at(12, 19, &[]),
            at(22, 21, &[site(11, 15)]),
            at(40, 23, &[site(22, 21), site(11, 15)]),
            at(22, 25, &[site(11, 15)]),
            at(40, 27, &[site(22, 25), site(11, 15)]),
            at(13, 29, &[]),
        ]);
        positions.extend([Position::default(); 17]);
        let files = [SourceFile { index: 1, name: "/x/syn.cu".into(), timestamp: 0, size: 0 }];
        let section = SectionLines { symbol: "k".into(), positions, entries: Vec::new() };
        let names = |loc: u32| if matches!(loc, 17 | 21 | 25) { 3 } else { 0 };
        let (bytes, relocations) = source_lines(&files, &[section], &names);
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, expected);
        // ptxas relocates offset 0x31 against the kernel (readelf -r).
        assert_eq!(relocations, vec![CodeAddress { offset: 0x31, symbol: "k".into(), kind: 2, addend: 0 }]);
    }
}
