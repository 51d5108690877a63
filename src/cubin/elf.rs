//! The cubin's ELF container: sections, symbols and the file layout exactly
//! as ptxas lays them out, read losslessly and written back byte for byte.
//!
//! This is the level below [`super::module`]: it knows ELF and ptxas's
//! layout conventions but not what a kernel is. What it owns:
//! * the file header fields that vary (`EI_OSABI`, `EI_ABIVERSION`,
//!   `e_type`, `e_flags`);
//! * the sections in header order, with typed contents where the format is
//!   known ([`Content`]): `.nv.info*` attribute records, relocations, notes;
//!   the string tables and the symbol table are derived on writing;
//! * where each section's bytes go ([`Placement`]): ptxas writes the data of
//!   sections back to back in header order, each aligned to its
//!   `sh_addralign`, except that the sm_100+ `.nv.merc.*` copies of
//!   constant and global data share the bytes of the section they mirror;
//! * the program headers, derived from the sections by [`super::layout`].
//!
//! The reader records where a file departs from those conventions
//! ([`Read::anomalies`]); a ptxas cubin has none, and then writing what was
//! read gives the identical file.
//!
//! Why not `object::write::elf::Writer`: its string tables are sorted for
//! suffix sharing, and ptxas's are in insertion order with the zeroed names
//! of dropped sections left in place, so the file could not be identical.
//! The header, section, symbol, relocation and program-header records are
//! `object`'s `elf` structures all the same.

use super::info::{self, Attribute};
use super::layout;
use object::LittleEndian as LE;
use object::elf;
use object::endian::{U16, U32, U64};
use object::pod::{self, Pod};

/// `SHT_CUDA_INFO` (`.nv.info`, `.nv.info.<fn>`; CUDA's `elf.h` name).
pub const SHT_CUDA_INFO: u32 = 0x7000_0000;
/// `SHT_CUDA_CALLGRAPH`.
pub const SHT_CUDA_CALLGRAPH: u32 = 0x7000_0001;
/// `SHT_CUDA_COMPAT_INFO` (`.nv.compat`, records in the `.nv.info` format).
pub const SHT_CUDA_COMPAT_INFO: u32 = 0x7000_0086;
/// The sm_100+ `.nv.merc.nv.info*` copies (same record format).
pub const SHT_CUDA_MERC_INFO: u32 = 0x7000_0083;
/// The sm_100+ `.nv.merc.rela*` copies (same entry format as `SHT_RELA`).
pub const SHT_CUDA_MERC_RELA: u32 = 0x7000_0082;

const SHT_SYMTAB: u32 = elf::SHT_SYMTAB.0;
const SHT_RELA: u32 = elf::SHT_RELA.0;
const SHT_NOTE: u32 = elf::SHT_NOTE.0;

/// `EI_OSABI` of cubins written by CUDA 13 tools (FACTS.md).
pub const OSABI_CUDA13: u8 = 0x41;

/// `e_machine` of every cubin.
pub const EM_CUDA: u16 = 190;

/// The header fields that vary between cubins (the rest are fixed by ELF64
/// and the section and program header counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `EI_OSABI` (0x41 for CUDA 13 tools, 0x33 for CUDA 12).
    pub os_abi: u8,
    /// `EI_ABIVERSION` (8 for CUDA 13).
    pub abi_version: u8,
    /// `ET_EXEC` (whole-program) or `ET_REL` (`ptxas -c`).
    pub file_type: u16,
    /// `e_flags` (the SM, address size and toolkit flags; see FACTS.md).
    pub flags: u32,
    /// `e_entry` (0 in every ptxas cubin).
    pub entry: u64,
}

/// One section other than the null section 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Its name (`.text.kern`).
    pub name: String,
    /// `sh_type`.
    pub kind: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr` (0 in ptxas's cubins).
    pub addr: u64,
    /// `sh_link`, a section header index (0 = none).
    pub link: u32,
    /// `sh_info` (a section index, a symbol index or packed flags).
    pub info: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// What it holds.
    pub content: Content,
    /// Where its bytes go in the file.
    pub placement: Placement,
}

/// What a section holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Bytes this layer does not interpret (code, constant banks, DWARF…).
    Bytes(Vec<u8>),
    /// `SHT_NOBITS` (or a CUDA type without file bytes, see
    /// [`layout::is_nobits`]): only a size.
    NoBits(u64),
    /// `.nv.info`-format attribute records.
    Info(Vec<Attribute>),
    /// `Elf64_Rela` entries.
    Rela(Vec<Rela>),
    /// ELF notes.
    Notes(Vec<Note>),
    /// The symbol table, written from [`Elf::symbols`].
    Symtab,
    /// The symbol string table, written from [`Elf::strings`].
    Strtab,
    /// The section-name string table, written from [`Elf::section_names`].
    Shstrtab,
}

/// Where a section's bytes are in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// After the previous section's bytes, aligned to `sh_addralign`.
    Next,
    /// Sharing the bytes of an earlier section (header index) with identical
    /// contents: the sm_100+ `.nv.merc.*` mirrors.
    Shares(u32),
    /// At a fixed file offset (a layout ptxas does not make; kept so that
    /// such a file is still written with every section where it was).
    At(u64),
}

/// An `Elf64_Rela`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rela {
    /// `r_offset` in the section the relocation applies to.
    pub offset: u64,
    /// Symbol table index.
    pub symbol: u32,
    /// `R_CUDA_*` type.
    pub kind: u32,
    /// `r_addend`.
    pub addend: i64,
}

/// One ELF note (4-byte aligned name and descriptor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The name without its terminating NUL.
    pub name: Vec<u8>,
    /// `n_type`.
    pub kind: u32,
    /// The descriptor bytes.
    pub desc: Vec<u8>,
}

/// One symbol table entry other than the null symbol 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Its name; `None` for a nameless symbol (`st_name` 0).
    pub name: Option<String>,
    /// `st_info` (binding << 4 | type).
    pub info: u8,
    /// `st_other` (visibility and CUDA's flags, e.g. 0x10 on kernels).
    pub other: u8,
    /// `st_shndx`.
    pub section: u16,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
}

/// A whole cubin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elf {
    /// The file header's variable fields.
    pub header: Header,
    /// Sections 1.. in header order.
    pub sections: Vec<Section>,
    /// Symbols 1.. in table order.
    pub symbols: Vec<Symbol>,
    /// The symbol string table; symbol names are found in it, and ptxas
    /// leaves strings there that no symbol uses.
    pub strings: StringTable,
    /// The section-name string table. ptxas writes the names in the order it
    /// created the sections, not header order, and zeroes the names of
    /// sections it dropped (empty strings here).
    pub section_names: StringTable,
}

/// An ELF string table as a list of strings in file order (after the
/// leading NUL), each written with its terminating NUL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringTable {
    /// The strings.
    pub strings: Vec<String>,
}

impl StringTable {
    /// The table's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut table = vec![0u8];
        for s in &self.strings {
            table.extend_from_slice(s.as_bytes());
            table.push(0);
        }
        table
    }

    /// The offset a name refers to: the first string equal to it, else the
    /// tail of the first string that ends with it (ELF lets names share a
    /// tail; `None` when neither is there). The empty name is offset 0.
    pub fn offset_of(&self, name: &str) -> Option<u32> {
        if name.is_empty() {
            return Some(0);
        }
        let mut offset = 1u32;
        let mut tail = None;
        for s in &self.strings {
            if s == name {
                return Some(offset);
            }
            if tail.is_none() && s.ends_with(name) {
                tail = Some(offset + (s.len() - name.len()) as u32);
            }
            offset += s.len() as u32 + 1;
        }
        tail
    }

    /// A resolver for many names at once: a map of every string's first
    /// offset, built in one pass, so resolving n names costs O(n) rather
    /// than a scan each ([`StringTable::offset_of`] for tail-shared names).
    pub fn resolver(&self) -> impl Fn(&str) -> Option<u32> + '_ {
        let mut first = std::collections::HashMap::with_capacity(self.strings.len());
        let mut offset = 1u32;
        for s in &self.strings {
            first.entry(s.as_str()).or_insert(offset);
            offset += s.len() as u32 + 1;
        }
        move |name: &str| if name.is_empty() { Some(0) } else { first.get(name).copied().or_else(|| self.offset_of(name)) }
    }

    /// Adds `name` unless the table holds it already (as a whole string:
    /// ptxas does not share tails, so neither does this).
    pub fn intern(&mut self, name: &str) {
        if !self.strings.iter().any(|s| s == name) {
            self.strings.push(name.to_string());
        }
    }

    /// Splits a table's bytes; `None` unless it starts and ends with NUL.
    pub fn parse(bytes: &[u8]) -> Option<StringTable> {
        if bytes.first() != Some(&0) || bytes.last() != Some(&0) {
            return None;
        }
        let mut strings = Vec::new();
        if bytes.len() > 1 {
            for s in bytes[1..bytes.len() - 1].split(|&b| b == 0) {
                strings.push(String::from_utf8(s.to_vec()).ok()?);
            }
        }
        Some(StringTable { strings })
    }

    /// The NUL-terminated name at `offset` of a table's bytes.
    fn name_at(bytes: &[u8], offset: u32) -> Option<String> {
        let tail = bytes.get(offset as usize..)?;
        let end = tail.iter().position(|&b| b == 0)?;
        String::from_utf8(tail[..end].to_vec()).ok()
    }
}

/// What [`read`] returns.
#[derive(Clone, Debug)]
pub struct Read {
    /// What was read.
    pub elf: Elf,
    /// Where the file departs from ptxas's conventions, so that writing the
    /// model would not give the identical file (empty for ptxas's cubins).
    pub anomalies: Vec<String>,
}

/// Why a file could not be read as a cubin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn error(message: impl Into<String>) -> ReadError {
    ReadError(message.into())
}

impl Section {
    /// The section's bytes as written to the file (empty for `NOBITS`).
    pub fn bytes(&self, elf: &Elf) -> Vec<u8> {
        match &self.content {
            Content::Bytes(b) => b.clone(),
            Content::NoBits(_) => Vec::new(),
            Content::Info(records) => info::write(records),
            Content::Rela(entries) => write_rela(entries),
            Content::Notes(notes) => write_notes(notes),
            Content::Symtab => elf.symtab_bytes(),
            Content::Strtab => elf.strings.bytes(),
            Content::Shstrtab => elf.section_names.bytes(),
        }
    }

    /// `sh_size`.
    pub fn size(&self, elf: &Elf) -> u64 {
        match &self.content {
            Content::NoBits(size) => *size,
            Content::Bytes(b) => b.len() as u64,
            _ => self.bytes(elf).len() as u64,
        }
    }
}

impl Elf {
    /// The SM number `e_flags` names (bits 8–15 with CUDA 13's `EI_OSABI`,
    /// bits 0–7 before).
    pub fn sm(&self) -> Option<u32> {
        let flags = self.header.flags;
        let sm = if self.header.os_abi == OSABI_CUDA13 { (flags >> 8) & 0xff } else { flags & 0xff };
        (sm != 0).then_some(sm)
    }

    /// The header index of the first section named `name`.
    pub fn section_index(&self, name: &str) -> Option<u32> {
        self.sections.iter().position(|s| s.name == name).map(|i| i as u32 + 1)
    }

    /// The section with header index `index` (1-based; 0 is the null section).
    pub fn section(&self, index: u32) -> Option<&Section> {
        self.sections.get((index as usize).checked_sub(1)?)
    }

    fn symtab_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity((self.symbols.len() + 1) * 24);
        out.extend_from_slice(pod::bytes_of(&elf::Sym64::<LE>::default()));
        let resolve = self.strings.resolver();
        for s in &self.symbols {
            let name = s.name.as_deref().and_then(&resolve).unwrap_or(0);
            let sym = elf::Sym64::<LE> {
                st_name: U32::new(LE, name),
                st_info: elf::SymbolInfo(s.info),
                st_other: elf::SymbolOther(s.other),
                st_shndx: U16::new(LE, elf::SymbolSection(s.section)),
                st_value: U64::new(LE, s.value),
                st_size: U64::new(LE, s.size),
            };
            out.extend_from_slice(pod::bytes_of(&sym));
        }
        out
    }
}

fn write_rela(entries: &[Rela]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * 24);
    for r in entries {
        let rela = elf::Rela64::<LE> {
            r_offset: U64::new(LE, r.offset),
            r_info: U64::new(LE, (u64::from(r.symbol) << 32) | u64::from(r.kind)),
            r_addend: object::endian::I64::new(LE, r.addend),
        };
        out.extend_from_slice(pod::bytes_of(&rela));
    }
    out
}

fn read_rela(data: &[u8]) -> Option<Vec<Rela>> {
    let (entries, rest) = pod::slice_from_bytes::<elf::Rela64<LE>>(data, data.len() / 24).ok()?;
    if !rest.is_empty() {
        return None;
    }
    Some(
        entries
            .iter()
            .map(|r| {
                let info = r.r_info.get(LE);
                Rela { offset: r.r_offset.get(LE), symbol: (info >> 32) as u32, kind: info as u32, addend: r.r_addend.get(LE) }
            })
            .collect(),
    )
}

fn align4(n: usize) -> usize {
    (n + 3) & !3
}

fn write_notes(notes: &[Note]) -> Vec<u8> {
    let mut out = Vec::new();
    for n in notes {
        let header = elf::NoteHeader32::<LE> {
            n_namesz: U32::new(LE, n.name.len() as u32 + 1),
            n_descsz: U32::new(LE, n.desc.len() as u32),
            n_type: U32::new(LE, elf::NoteType(n.kind)),
        };
        out.extend_from_slice(pod::bytes_of(&header));
        out.extend_from_slice(&n.name);
        out.push(0);
        out.resize(align4(out.len()), 0);
        out.extend_from_slice(&n.desc);
        out.resize(align4(out.len()), 0);
    }
    out
}

/// Notes in `data`, when they are well formed and rewrite to the same bytes.
fn read_notes(data: &[u8]) -> Option<Vec<Note>> {
    let mut notes = Vec::new();
    let mut at = 0usize;
    while at < data.len() {
        let (header, _) = pod::from_bytes::<elf::NoteHeader32<LE>>(data.get(at..)?).ok()?;
        let name_size = header.n_namesz.get(LE) as usize;
        let desc_size = header.n_descsz.get(LE) as usize;
        let name_start = at + 12;
        let name = data.get(name_start..name_start.checked_add(name_size)?)?;
        let (&0, name) = name.split_last()? else { return None };
        let desc_start = align4(name_start + name_size);
        let desc = data.get(desc_start..desc_start.checked_add(desc_size)?)?;
        notes.push(Note { name: name.to_vec(), kind: header.n_type.get(LE).0, desc: desc.to_vec() });
        at = align4(desc_start + desc_size);
    }
    (write_notes(&notes) == data).then_some(notes)
}

fn get<T: Pod>(data: &[u8], offset: u64, what: &str) -> Result<T, ReadError> {
    let start = usize::try_from(offset).map_err(|_| error(format!("{what} at offset {offset:#x} is outside the file")))?;
    let bytes = data.get(start..).ok_or_else(|| error(format!("{what} at offset {offset:#x} is outside the file")))?;
    pod::from_bytes::<T>(bytes).map(|(v, _)| *v).map_err(|_| error(format!("{what} at offset {offset:#x} runs past the end of the file")))
}

fn slice(data: &[u8], offset: u64, size: u64, what: &str) -> Result<Vec<u8>, ReadError> {
    let end = offset.checked_add(size).ok_or_else(|| error(format!("{what}: offset + size overflows")))?;
    usize::try_from(offset)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(s, e)| data.get(s..e))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| error(format!("{what}: bytes {offset:#x}..{end:#x} are outside the file ({:#x} bytes)", data.len())))
}

/// Reads a cubin. Fails only where the file is not a well-formed 64-bit
/// little-endian `EM_CUDA` ELF file; a layout that ptxas would not make is
/// read all the same and noted in [`Read::anomalies`].
pub fn read(data: &[u8]) -> Result<Read, ReadError> {
    let header: elf::FileHeader64<LE> = get(data, 0, "ELF header")?;
    let ident = header.e_ident;
    if ident.magic != elf::ELFMAG {
        return Err(error("not an ELF file (bad magic)"));
    }
    if ident.class != elf::ELFCLASS64 || ident.data != elf::ELFDATA2LSB {
        return Err(error("not a 64-bit little-endian ELF file"));
    }
    let machine = header.e_machine.get(LE).0;
    if machine != EM_CUDA {
        return Err(error(format!("ELF machine {machine} is not EM_CUDA (190)")));
    }
    let mut anomalies = Vec::new();
    let shoff = header.e_shoff.get(LE);
    let shnum = u64::from(header.e_shnum.get(LE));
    if header.e_shentsize.get(LE) != 64 && shnum != 0 {
        return Err(error(format!("section header size {} is not 64", header.e_shentsize.get(LE))));
    }
    let mut raw = Vec::with_capacity(shnum as usize);
    for i in 0..shnum {
        raw.push(get::<elf::SectionHeader64<LE>>(data, shoff.saturating_add(64 * i), "section header")?);
    }
    let shstrndx = u32::from(header.e_shstrndx.get(LE).0);
    let names = match raw.get(shstrndx as usize) {
        Some(h) if layout::is_nobits(h.sh_type.get(LE).0) => return Err(error("the section name table has no bytes (NOBITS)")),
        Some(h) if shstrndx != 0 => slice(data, h.sh_offset.get(LE), h.sh_size.get(LE), "section name table")?,
        _ => return Err(error("no section name table")),
    };
    let name_at = |offset: u32| StringTable::name_at(&names, offset).ok_or_else(|| error(format!("section name offset {offset:#x} is not a name in the name table")));

    let mut sections = Vec::with_capacity(raw.len().saturating_sub(1));
    let mut symtab_index = None;
    for (i, h) in raw.iter().enumerate().skip(1) {
        let name = name_at(h.sh_name.get(LE))?;
        let kind = h.sh_type.get(LE).0;
        let size = h.sh_size.get(LE);
        let offset = h.sh_offset.get(LE);
        let content = if layout::is_nobits(kind) {
            Content::NoBits(size)
        } else {
            let bytes = slice(data, offset, size, &format!("section {name}"))?;
            typed_content(i as u32, kind, &name, shstrndx, bytes, &mut symtab_index)
        };
        sections.push(Section {
            name,
            kind,
            flags: h.sh_flags.get(LE).0,
            addr: h.sh_addr.get(LE),
            link: h.sh_link.get(LE),
            info: h.sh_info.get(LE),
            align: h.sh_addralign.get(LE),
            entsize: h.sh_entsize.get(LE),
            content,
            placement: Placement::At(offset),
        });
    }

    let mut elf = Elf {
        header: Header {
            os_abi: ident.os_abi.0,
            abi_version: ident.abi_version,
            file_type: header.e_type.get(LE).0,
            flags: header.e_flags.get(LE).0,
            entry: header.e_entry.get(LE),
        },
        sections,
        symbols: Vec::new(),
        strings: StringTable::default(),
        section_names: StringTable::default(),
    };

    if let Some(index) = symtab_index {
        read_symbols(&mut elf, index, shstrndx, data, &raw, &mut anomalies)?;
    }
    check_section_names(&mut elf, &raw, &names, &mut anomalies);
    layout::infer_placements(&mut elf, &raw, &mut anomalies);
    layout::check_file_layout(&elf, data, &header, &mut anomalies);
    Ok(Read { elf, anomalies })
}

/// The typed form of a section's bytes, when that form writes back the
/// identical bytes; otherwise the bytes.
fn typed_content(index: u32, kind: u32, name: &str, shstrndx: u32, bytes: Vec<u8>, symtab: &mut Option<u32>) -> Content {
    if index == shstrndx {
        return Content::Shstrtab;
    }
    match kind {
        SHT_SYMTAB if symtab.is_none() => {
            *symtab = Some(index);
            return Content::Symtab;
        }
        SHT_CUDA_INFO | SHT_CUDA_COMPAT_INFO | SHT_CUDA_MERC_INFO => {
            if let Some(records) = info::read(&bytes) {
                return Content::Info(records);
            }
        }
        SHT_RELA | SHT_CUDA_MERC_RELA => {
            if let Some(entries) = read_rela(&bytes) {
                return Content::Rela(entries);
            }
        }
        SHT_NOTE => {
            if let Some(notes) = read_notes(&bytes) {
                return Content::Notes(notes);
            }
        }
        _ => {}
    }
    let _ = name;
    Content::Bytes(bytes)
}

/// Reads the symbol table at header index `index` and its string table.
fn read_symbols(elf: &mut Elf, index: u32, shstrndx: u32, data: &[u8], raw: &[elf::SectionHeader64<LE>], anomalies: &mut Vec<String>) -> Result<(), ReadError> {
    let h = &raw[index as usize];
    let link = h.sh_link.get(LE);
    if link == index || link == shstrndx {
        return Err(error("the symbol table's string table must be a section of its own"));
    }
    let strtab_header = raw.get(link as usize).filter(|_| link != 0).ok_or_else(|| error("symbol table has no string table"))?;
    if layout::is_nobits(strtab_header.sh_type.get(LE).0) {
        return Err(error("the symbol string table has no bytes (NOBITS)"));
    }
    let strtab = slice(data, strtab_header.sh_offset.get(LE), strtab_header.sh_size.get(LE), "symbol string table")?;
    let table = slice(data, h.sh_offset.get(LE), h.sh_size.get(LE), "symbol table")?;
    let count = table.len() / 24;
    let (syms, rest) = pod::slice_from_bytes::<elf::Sym64<LE>>(&table, count).map_err(|_| error("symbol table is misaligned"))?;
    if !rest.is_empty() {
        anomalies.push(format!("symbol table size {:#x} is not a multiple of 24", table.len()));
    }
    let parsed = StringTable::parse(&strtab);
    if parsed.is_none() {
        anomalies.push("symbol string table is not NUL-delimited UTF-8".into());
    }
    elf.strings = parsed.clone().unwrap_or_default();
    let name_at = |offset: u32| StringTable::name_at(&strtab, offset);
    if syms.first().is_some_and(|s| pod::bytes_of(s).iter().any(|&b| b != 0)) {
        anomalies.push("symbol 0 is not all zero".into());
    }
    for (i, s) in syms.iter().enumerate().skip(1) {
        let offset = s.st_name.get(LE);
        // An empty name at a non-zero offset is the same as no name.
        let name = if offset == 0 { None } else { name_at(offset).filter(|n| !n.is_empty()) };
        if offset != 0 && StringTable::name_at(&strtab, offset).is_none() {
            anomalies.push(format!("symbol {i}: name offset {offset:#x} is outside the string table"));
        }
        elf.symbols.push(Symbol {
            name,
            info: s.st_info.0,
            other: s.st_other.0,
            section: s.st_shndx.get(LE).0,
            value: s.st_value.get(LE),
            size: s.st_size.get(LE),
        });
    }
    if parsed.is_none() {
        // Rebuild a table that holds every name.
        let names: Vec<String> = elf.symbols.iter().filter_map(|s| s.name.clone()).collect();
        for n in names {
            elf.strings.intern(&n);
        }
    }
    for (i, s) in syms.iter().enumerate().skip(1) {
        let offset = s.st_name.get(LE);
        if offset != 0 {
            let written = elf.symbols[i - 1].name.as_deref().and_then(|n| elf.strings.offset_of(n)).unwrap_or(0);
            let written = Some(written);
            if written != Some(offset) {
                anomalies.push(format!("symbol {i}: name offset {offset:#x}, the writer's is {written:x?}"));
            }
        }
    }
    if elf.strings.bytes() != strtab {
        anomalies.push("symbol string table would not be written identically".into());
    }
    let first_global = syms.iter().position(|s| s.st_info.0 >> 4 != elf::STB_LOCAL.0).unwrap_or(syms.len());
    if h.sh_info.get(LE) as usize != first_global {
        // ptxas's sh_info is not always the first non-local index; it is
        // kept as read (the symbol table section's `info` field).
    }
    if let Some(strtab_section) = elf.sections.get_mut(link as usize - 1) {
        strtab_section.content = Content::Strtab;
    }
    Ok(())
}

/// Reads the section-name table and checks that every `sh_name` is the
/// offset the writer gives that name.
fn check_section_names(elf: &mut Elf, raw: &[elf::SectionHeader64<LE>], names: &[u8], anomalies: &mut Vec<String>) {
    match StringTable::parse(names) {
        Some(table) => elf.section_names = table,
        None => {
            anomalies.push("section name table is not NUL-delimited UTF-8".into());
            for i in 0..elf.sections.len() {
                let name = elf.sections[i].name.clone();
                elf.section_names.intern(&name);
            }
        }
    }
    for (i, (h, s)) in raw.iter().skip(1).zip(&elf.sections).enumerate() {
        let want = elf.section_names.offset_of(&s.name);
        if Some(h.sh_name.get(LE)) != want {
            anomalies.push(format!("section {}: name offset {:#x}, the writer's is {want:x?}", i + 1, h.sh_name.get(LE)));
        }
    }
}

/// Writes a cubin: the file header, every section's bytes where
/// [`Placement`] puts them, the section headers, then the program headers
/// ([`layout::segments`]), as ptxas orders them.
pub fn write(elf: &Elf) -> Vec<u8> {
    let contents: Vec<Vec<u8>> = elf.sections.iter().map(|s| s.bytes(elf)).collect();
    let placed = layout::place(elf, &contents);
    let resolve = elf.section_names.resolver();
    let name_offsets: Vec<u32> = elf.sections.iter().map(|s| resolve(&s.name).unwrap_or(0)).collect();
    let shstrndx = elf.sections.iter().position(|s| matches!(s.content, Content::Shstrtab)).map_or(0, |i| i + 1);

    let segments = layout::segments(elf, &placed);
    let shoff = layout::section_headers_offset(elf, &placed);
    let shnum = elf.sections.len() as u64 + 1;
    let phoff = if segments.is_empty() { 0 } else { shoff + 64 * shnum };
    let mut out = vec![0u8; shoff as usize];
    let header = elf::FileHeader64::<LE> {
        e_ident: elf::Ident {
            magic: elf::ELFMAG,
            class: elf::ELFCLASS64,
            data: elf::ELFDATA2LSB,
            version: elf::EV_CURRENT,
            os_abi: elf::OsAbi(elf.header.os_abi),
            abi_version: elf.header.abi_version,
            padding: [0; 7],
        },
        e_type: U16::new(LE, elf::FileType(elf.header.file_type)),
        e_machine: U16::new(LE, elf::Machine(EM_CUDA)),
        e_version: U32::new(LE, u32::from(elf::EV_CURRENT.0)),
        e_entry: U64::new(LE, elf.header.entry),
        e_phoff: U64::new(LE, phoff),
        e_shoff: U64::new(LE, shoff),
        e_flags: U32::new(LE, elf::FileFlags(elf.header.flags)),
        e_ehsize: U16::new(LE, 64),
        // ptxas below sm_90 gives the entry size even without program
        // headers (`ptxas -c`); from sm_90 on only with them (measured).
        e_phentsize: U16::new(LE, if segments.is_empty() && elf.sm().is_none_or(|sm| sm >= 90) { 0 } else { 56 }),
        e_phnum: U16::new(LE, segments.len() as u16),
        e_shentsize: U16::new(LE, 64),
        e_shnum: U16::new(LE, shnum as u16),
        e_shstrndx: U16::new(LE, elf::SymbolSection(shstrndx as u16)),
    };
    out[..64].copy_from_slice(pod::bytes_of(&header));
    for ((s, bytes), &offset) in elf.sections.iter().zip(&contents).zip(&placed.offsets) {
        if !layout::is_nobits(s.kind) && !matches!(s.placement, Placement::Shares(_)) {
            out[offset as usize..offset as usize + bytes.len()].copy_from_slice(bytes);
        }
    }
    out.extend_from_slice(&[0u8; 64]);
    for (((s, &size), &offset), &name) in elf.sections.iter().zip(&placed.sizes).zip(&placed.offsets).zip(&name_offsets) {
        let h = elf::SectionHeader64::<LE> {
            sh_name: U32::new(LE, name),
            sh_type: U32::new(LE, elf::SectionType(s.kind)),
            sh_flags: U64::new(LE, elf::SectionFlags(s.flags)),
            sh_addr: U64::new(LE, s.addr),
            sh_offset: U64::new(LE, offset),
            sh_size: U64::new(LE, size),
            sh_link: U32::new(LE, s.link),
            sh_info: U32::new(LE, s.info),
            sh_addralign: U64::new(LE, s.align),
            sh_entsize: U64::new(LE, s.entsize),
        };
        out.extend_from_slice(pod::bytes_of(&h));
    }
    for p in &segments {
        out.extend_from_slice(pod::bytes_of(&p.to_elf(phoff, segments.len())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cubin::module::{self, Kernel, Module, Param, ToolInfo};

    fn sample() -> Vec<u8> {
        let mut kernel = Kernel::new("k", vec![0x7918, 0x794d], 8);
        kernel.params = vec![Param::new(0, 8)];
        kernel.exit_offsets = vec![0x10];
        let m = Module { sm: 90, virtual_sm: 90, tool: ToolInfo::default(), kernels: vec![kernel], globals: Vec::new(), constants: Vec::new(), global_addresses: Vec::new(), isa_class: 1, flags_top: 6, line_info: Vec::new(), merc: Vec::new() };
        write(&module::build(&m).expect("builds"))
    }

    fn header_offset(file: &[u8], index: usize) -> usize {
        let shoff = u64::from_le_bytes(file[0x28..0x30].try_into().unwrap()) as usize;
        shoff + 64 * index
    }

    fn contents(e: &Elf) -> Vec<(String, Vec<u8>)> {
        e.sections.iter().map(|s| (s.name.clone(), s.bytes(e))).collect()
    }

    #[test]
    fn a_built_module_reads_back_without_anomalies() {
        let file = sample();
        let read = read(&file).expect("reads");
        assert!(read.anomalies.is_empty(), "{:?}", read.anomalies);
        assert_eq!(write(&read.elf), file);
    }

    #[test]
    fn section_data_over_the_file_header_is_moved_not_lost() {
        // Found by the read_cubin fuzz target: a section at offset 0 was
        // written over the ELF header.
        let mut file = sample();
        let first = read(&file).unwrap().elf;
        let index = first.section_index(".debug_frame").unwrap() as usize;
        let at = header_offset(&file, index) + 24; // sh_offset
        let size = first.section(index as u32).unwrap().size(&first) as usize;
        let original = file[0..size].to_vec();
        file[at..at + 8].copy_from_slice(&0u64.to_le_bytes());
        let damaged = read(&file).expect("still reads");
        assert!(damaged.anomalies.iter().any(|a| a.contains("overlaps")), "{:?}", damaged.anomalies);
        assert_eq!(damaged.elf.section(index as u32).unwrap().bytes(&damaged.elf), original);
        let again = read(&write(&damaged.elf)).expect("written file reads");
        assert_eq!(contents(&again.elf), contents(&damaged.elf));
    }

    #[test]
    fn a_nobits_section_far_past_the_end_does_not_overflow_the_layout() {
        // Found by the read_cubin fuzz target: the placement cursor followed
        // a NOBITS section to an offset near 2^64 and overflowed.
        let mut file = sample();
        let e = read(&file).unwrap().elf;
        let index = e.section_index(".nv.shared.reserved.0").unwrap() as usize;
        let at = header_offset(&file, index) + 24;
        file[at..at + 8].copy_from_slice(&(u64::MAX - 8).to_le_bytes());
        let damaged = read(&file).expect("still reads");
        let again = read(&write(&damaged.elf)).expect("written file reads");
        assert_eq!(contents(&again.elf), contents(&damaged.elf));
    }

    #[test]
    fn a_symbol_table_that_is_its_own_string_table_is_refused() {
        let mut file = sample();
        let e = read(&file).unwrap().elf;
        let symtab = e.sections.iter().position(|s| matches!(s.content, Content::Symtab)).unwrap() + 1;
        let at = header_offset(&file, symtab) + 40; // sh_link
        file[at..at + 4].copy_from_slice(&(symtab as u32).to_le_bytes());
        assert!(read(&file).unwrap_err().0.contains("string table"));
    }

    #[test]
    fn an_empty_name_at_a_nonzero_offset_is_no_name() {
        let mut file = sample();
        let e = read(&file).unwrap().elf;
        let symtab = e.sections.iter().position(|s| matches!(s.content, Content::Symtab)).unwrap() + 1;
        let sym_offset = u64::from_le_bytes(file[header_offset(&file, symtab) + 24..][..8].try_into().unwrap()) as usize;
        let strtab_size = e.strings.bytes().len() as u32;
        // Symbol 1's st_name -> the table's final NUL.
        file[sym_offset + 24..sym_offset + 28].copy_from_slice(&(strtab_size - 1).to_le_bytes());
        let damaged = read(&file).unwrap();
        assert_eq!(damaged.elf.symbols[0].name, None);
        let again = read(&write(&damaged.elf)).unwrap();
        assert_eq!(again.elf.symbols, damaged.elf.symbols);
    }
}
