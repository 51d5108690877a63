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
//! so does this module. The line programs are built with `gimli`; its
//! choice among equivalent opcodes differs from ptxas's in places (it
//! uses `DW_LNS_const_add_pc` where ptxas writes `DW_LNS_advance_pc`), so
//! the bytes differ where the decoded tables do not.
//!
//! Everything here is a function of the PTX text and the code: no time,
//! path or environment enters the bytes (ptxas records the source file's
//! time stamp and size only as the `.file` directive gives them, and so
//! does this module).

use super::module::{CodeAddress, DebugSection};
use gimli::write::{Address, DebugLine, EndianVec, FileId, FileInfo, LineProgram, LineString, LineStringTable, StringTable, Writer};
use gimli::{Encoding, Format, LineEncoding, LittleEndian};

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
    /// The call sites of the inlined functions it is in, innermost first
    /// (`inlined_at`; (0, 0) past the last).
    pub inlined_at: [(u32, u32); CALL_SITES],
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

/// The most call sites a [`Position`] holds.
pub const CALL_SITES: usize = 8;

/// `R_CUDA_64`: a 64-bit absolute address.
const R_CUDA_64: u32 = 2;

/// Bytes of one instruction.
const INSTRUCTION_BYTES: u64 = 16;

/// The DWARF version and line encoding of ptxas's line programs (read
/// from their headers: version 3, minimum instruction length 1, line base
/// -5, line range 14, opcode base 13).
fn encodings() -> (Encoding, LineEncoding) {
    let encoding = Encoding { format: Format::Dwarf32, version: 3, address_size: 8 };
    let line = LineEncoding { minimum_instruction_length: 1, maximum_operations_per_instruction: 1, default_is_stmt: true, line_base: -5, line_range: 14 };
    (encoding, line)
}

/// The line-information sections of a module whose kernel sections are
/// `sections` (in the cubin's section order), compiled from `ptx` with
/// the `.file` directives `files`.
///
/// The DWARF sections of the PTX go with them ([`super::debug_info`]):
/// `.debug_str` after `.debug_line`, and with `.target ..., debug` the
/// others (`.debug_abbrev`, `.debug_info`, ...) after `.nv_debug_ptx_txt`.
pub fn sections(files: &[SourceFile], sections: &[SectionLines], ptx: &str) -> Result<Vec<DebugSection>, String> {
    with_dwarf(files, sections, ptx, false)
}

/// [`sections`] for a compilation with `-g` (`device_debug`), which
/// copies every DWARF section of the PTX, debug target or not (measured:
/// ptxas `-g` on nvcc `-G` PTX whose `.target` lost its `debug`).
pub fn with_dwarf(files: &[SourceFile], sections: &[SectionLines], ptx: &str, device_debug: bool) -> Result<Vec<DebugSection>, String> {
    let debug = match crate::ptx::parse(ptx) {
        Ok(module) => crate::ptx::debug_sections::collect(&module, ptx)?,
        // The compiler has parsed it already; a text that does not parse
        // here has no sections to copy.
        Err(_) => crate::ptx::debug_sections::ModuleDebug::default(),
    };
    let (copied_early, copied_late) = super::debug_info::sections(&debug, &CodePlaces { functions: &debug.functions, sections }, device_debug)?;
    let (debug_line, debug_relocations) = source_lines(files, sections)?;
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

/// `.debug_line`: code addresses to `.loc` positions.
fn source_lines(files: &[SourceFile], sections: &[SectionLines]) -> Result<(Vec<u8>, Vec<CodeAddress>), String> {
    let (encoding, line_encoding) = encodings();
    // Directory 0 (the compilation directory) is implicit in DWARF 3: its
    // name is not written.
    let mut program = LineProgram::new(encoding, line_encoding, LineString::String(b".".to_vec()), None, LineString::String(b"-".to_vec()), None);
    let mut sorted: Vec<&SourceFile> = files.iter().collect();
    sorted.sort_by_key(|f| f.index);
    let mut ids: Vec<(u32, FileId)> = Vec::with_capacity(sorted.len());
    for f in sorted {
        let Some((dir, name)) = split_path(&f.name) else { continue };
        let dir_id = match dir {
            Some(d) => program.add_directory(LineString::String(d.as_bytes().to_vec())),
            None => program.default_directory(),
        };
        let info = FileInfo { timestamp: f.timestamp, size: f.size, ..FileInfo::default() };
        let id = program.add_file(LineString::String(name.as_bytes().to_vec()), dir_id, Some(info));
        if !ids.iter().any(|(i, _)| *i == f.index) {
            ids.push((f.index, id));
        }
    }
    let file_of = |index: u32| ids.iter().find(|(i, _)| *i == index).map(|(_, id)| *id);
    for (k, s) in sections.iter().enumerate() {
        let known = |p: &Position| {
            let mut sites = [None; CALL_SITES];
            for (slot, &(f, line)) in sites.iter_mut().zip(&p.inlined_at) {
                *slot = if line > 0 { file_of(f).map(|f| (f, line)) } else { None };
            }
            if p.line > 0 { file_of(p.file).map(|f| (f, p.line, sites)) } else { None }
        };
        // A section without any `.loc` gets no sequence (ptxas writes none).
        let Some(first) = s.positions.iter().find_map(known) else { continue };
        let entry = |i: usize| s.entries.iter().find(|(at, _)| *at == i).and_then(|(_, p)| known(p));
        program.begin_sequence(Some(Address::Symbol { symbol: k, addend: 0 }));
        // Code inlined at a call site: ptxas gives the call site a row of
        // its own, at the address of the first instruction of each
        // inlining it meets (measured on nvcc's `inlined_at` positions of
        // `__ldg`); later instructions of the same inlining get one row.
        // Nested inlining: each call site from the outermost in, each
        // inlining told apart by its whole chain of call sites.
        let mut entered: Vec<Vec<Option<(FileId, u32)>>> = Vec::new();
        rows(&mut program, s.positions.iter().enumerate().map(|(i, p)| known(p).or_else(|| entry(i))), first, |program, (file, line, sites)| {
            for k in (0..sites.len()).rev() {
                let Some(site) = sites[k] else { continue };
                let key = sites[k..].to_vec();
                if entered.contains(&key) {
                    continue;
                }
                entered.push(key);
                let row = program.row();
                row.file = site.0;
                row.line = u64::from(site.1);
                program.generate_row();
            }
            let row = program.row();
            row.file = file;
            row.line = u64::from(line);
        });
        program.end_sequence(s.positions.len() as u64 * INSTRUCTION_BYTES);
    }
    write(&program, sections)
}

/// `.nv_debug_line_sass`: code addresses to lines of `.nv_debug_ptx_txt`.
///
/// Written here rather than with `gimli`: its rows name file 0 (the
/// table is empty; `nvdisasm -gp` crashes on a program whose rows name
/// file 1, the DWARF 3 default, measured), and a DWARF 3 writer numbers
/// files from 1. The opcodes are ptxas's: a special opcode where one
/// fits, else `DW_LNS_advance_line`, `DW_LNS_advance_pc`, `DW_LNS_copy`.
fn ptx_lines(sections: &[SectionLines]) -> (Vec<u8>, Vec<CodeAddress>) {
    const LINE_BASE: i64 = -5;
    const LINE_RANGE: i64 = 14;
    const OPCODE_BASE: i64 = 13;
    // unit_length (filled in last), version 3, header_length 19, then the
    // header fields of `encodings()`, the standard opcodes' operand
    // counts, no directories, no files.
    let mut out: Vec<u8> = vec![0, 0, 0, 0, 3, 0, 19, 0, 0, 0, 1, 1, LINE_BASE as u8, LINE_RANGE as u8, OPCODE_BASE as u8];
    out.extend_from_slice(&[0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0]);
    let mut relocations = Vec::new();
    for s in sections {
        let known = |p: &Position| (p.ptx_line > 0).then_some(p.ptx_line);
        let entry = |i: usize| s.entries.iter().find(|(at, _)| *at == i).and_then(|(_, p)| known(p));
        let first = entry(0).or_else(|| s.positions.iter().find_map(known)).unwrap_or(1);
        // DW_LNE_set_address (relocated), DW_LNS_set_file 0.
        out.extend_from_slice(&[0, 9, 2]);
        relocations.push(CodeAddress { offset: out.len() as u64, symbol: s.symbol.clone(), kind: R_CUDA_64, addend: 0 });
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&[4, 0]);
        let (mut line, mut address) = (1i64, 0i64);
        for (emitted, (i, p)) in row_starts(s.positions.iter().enumerate().map(|(i, p)| known(p).or_else(|| entry(i))), first).enumerate() {
            if emitted == 1 {
                out.push(10); // DW_LNS_set_prologue_end
            }
            let (dl, da) = (i64::from(p) - line, i as i64 * INSTRUCTION_BYTES as i64 - address);
            let special = (dl - LINE_BASE) + LINE_RANGE * da + OPCODE_BASE;
            if emitted > 0 && (LINE_BASE..LINE_BASE + LINE_RANGE).contains(&dl) && special <= 255 {
                out.push(special as u8);
            } else {
                if dl != 0 {
                    out.push(3);
                    sleb128(&mut out, dl);
                }
                if da != 0 {
                    out.push(2);
                    uleb128(&mut out, da as u64);
                }
                out.push(1); // DW_LNS_copy
            }
            line = i64::from(p);
            address = i as i64 * INSTRUCTION_BYTES as i64;
        }
        let end = s.positions.len() as i64 * INSTRUCTION_BYTES as i64;
        if end > address {
            out.push(2);
            uleb128(&mut out, (end - address) as u64);
        }
        out.extend_from_slice(&[0, 1, 1]); // DW_LNE_end_sequence
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

/// The rows of one sequence ([`row_starts`]), the second marked as the
/// prologue's end. `set` fills in the row at the instruction's address
/// (and may write rows before it).
fn rows<T: Copy + PartialEq>(program: &mut LineProgram, positions: impl Iterator<Item = Option<T>>, first: T, mut set: impl FnMut(&mut LineProgram, T)) {
    for (emitted, (i, p)) in row_starts(positions, first).enumerate() {
        program.row().address_offset = i as u64 * INSTRUCTION_BYTES;
        if emitted == 1 {
            program.row().prologue_end = true;
        }
        set(program, p);
        program.generate_row();
    }
}

/// Writes a line program; each sequence's start address becomes a
/// relocation against its section's symbol.
fn write(program: &LineProgram, sections: &[SectionLines]) -> Result<(Vec<u8>, Vec<CodeAddress>), String> {
    let (encoding, _) = encodings();
    let mut out = DebugLine(Relocating { bytes: EndianVec::new(LittleEndian), relocations: Vec::new() });
    program.write(&mut out, encoding, &mut LineStringTable::default(), &mut StringTable::default()).map_err(|e| format!("line program: {e}"))?;
    let w = out.0;
    let relocations = w
        .relocations
        .into_iter()
        .map(|(offset, symbol, addend)| {
            let name = sections.get(symbol).map(|s| s.symbol.clone()).ok_or_else(|| format!("line program: no section {symbol}"))?;
            Ok(CodeAddress { offset: offset as u64, symbol: name, kind: R_CUDA_64, addend })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((w.bytes.into_vec(), relocations))
}

/// A section writer that leaves symbol addresses zero and records where
/// they go (`.rela` entries carry the address).
struct Relocating {
    bytes: EndianVec<LittleEndian>,
    relocations: Vec<(usize, usize, i64)>,
}

impl Writer for Relocating {
    type Endian = LittleEndian;

    fn endian(&self) -> LittleEndian {
        LittleEndian
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }

    fn write(&mut self, bytes: &[u8]) -> gimli::write::Result<()> {
        self.bytes.write(bytes)
    }

    fn write_at(&mut self, offset: usize, bytes: &[u8]) -> gimli::write::Result<()> {
        self.bytes.write_at(offset, bytes)
    }

    fn write_address(&mut self, address: Address, size: u8) -> gimli::write::Result<()> {
        match address {
            Address::Constant(value) => self.write_udata(value, size),
            Address::Symbol { symbol, addend } => {
                self.relocations.push((self.len(), symbol, addend));
                self.write_udata(0, size)
            }
        }
    }
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
}
