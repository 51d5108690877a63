//! Section listings: a whole cubin as text, section by section, for the
//! files the module model ([`super::module`]) does not describe exactly.
//! `sass dis` prints one when building the file's [`super::module::Module`]
//! again would not give the same bytes; `sass asm` reads it back into the
//! same [`Elf`], so `dis` → `asm` reproduces every cubin the container
//! layer ([`super::elf`]) reads losslessly. Code stays an instruction
//! listing; everything else is written at the container level, with typed
//! forms for attribute records, relocations and notes.
//!
//! ```text
//! .elf type 2 osabi 0x41 abi 8 flags 0x6005a04 entry 0x0
//!                     // the file header's variable fields
//! .string "kern"      // the symbol string table (.strtab), in order,
//!                     // unused and repeated strings included
//! .section_name ".text.kern"   // the section-name table (.shstrtab)
//! .symbol "kern" 0x12 0x10 11 0x0 0x180
//!                     // symbol 1, 2, …: name (or `-`), st_info, st_other,
//!                     // st_shndx, st_value, st_size
//! .section ".nv.info.kern" 0x70000000 0x40 3 11 4 0 [addr A] [shares N | at OFFSET]
//!                     // section 1, 2, …: name, sh_type, sh_flags, sh_link,
//!                     // sh_info, sh_addralign, sh_entsize; where its bytes
//!                     // go when not after the previous section's
//! .record EIATTR_REGCOUNT words 0x5 0x20   // `.nv.info`-format records:
//!                     // name (or EIATTR_0xNN) then `none`, `byte V`,
//!                     // `half V`, `words W…` or `bytes HEX`
//! .rela 0x20 5 2 0    // Elf64_Rela: offset, symbol index, R_CUDA type, addend
//! .note "NVIDIA Corp" 1000 0200780087000000   // name, type, descriptor
//! .nobits 0x400       // size of a section without file bytes
//! .bytes 0011…        // raw bytes (may repeat; concatenated)
//! .derived symtab     // the symbol table, .strtab or .shstrtab, written
//!                     // from the `.symbol`, `.string`, `.section_name` lines
//!         /*0000*/ [B------:R-:W-:-:S02] MOV R1, c[0x0][0x28] ;
//!                     // instruction lines: the section's code
//! ```
//!
//! A section with no content line holds no bytes. Strings are quoted with
//! Rust's escapes (`\"`, `\\`, `\n`, `\u{7f}`); hex byte strings may be `-`
//! for none. Section and symbol references are header and table indices,
//! as in the file.

use super::elf::{Content, Elf, Header, Note, Placement, Rela, SHT_CUDA_COMPAT_INFO, Section, StringTable, Symbol};
use super::info::{self, Attribute, Value};
use crate::isa::listing as code_listing;
use crate::isa::{bits, family};
use crate::target::Sm;

/// A listing line that does not read.
pub type ListingError = code_listing::ListingError;

/// Whether `text` is a section listing (it has an `.elf` line).
pub fn is_section_listing(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with(".elf ") || l.trim() == ".elf")
}

/// Writes the section listing of `file`; code sections of an SM with
/// encoding tables print as instructions (`hex` adds the words).
pub fn write(out: &mut String, file: &Elf, hex: bool) {
    let h = &file.header;
    out.push_str(&format!(".elf type {} osabi {:#x} abi {} flags {:#x} entry {:#x}\n", h.file_type, h.os_abi, h.abi_version, h.flags, h.entry));
    write_strings(out, ".string", &file.strings.strings);
    write_strings(out, ".section_name", &file.section_names.strings);
    for (i, y) in file.symbols.iter().enumerate() {
        let name = y.name.as_ref().map_or_else(|| "-".to_string(), |n| format!("{n:?}"));
        out.push_str(&format!(".symbol {name} {:#x} {:#x} {} {:#x} {:#x}   // {}\n", y.info, y.other, y.section, y.value, y.size, i + 1));
    }
    write_sections(out, Some(file), &file.sections, hex);
}

/// Writes `sections` as `.section` blocks (what [`read_sections`] reads):
/// those of `file` (with header index comments, and code as instructions),
/// or with no file, sections to be carried as they are (all content raw).
pub fn write_sections(out: &mut String, file: Option<&Elf>, sections: &[Section], hex: bool) {
    let sm = file.and_then(|f| f.sm()).and_then(|n| Sm::parse_number(&n.to_string())).filter(|&sm| family::measured_sm(sm).is_some());
    for (i, s) in sections.iter().enumerate() {
        out.push_str(&format!("\n.section {:?} {:#x} {:#x} {} {} {} {}", s.name, s.kind, s.flags, s.link, s.info, s.align, s.entsize));
        if s.addr != 0 {
            out.push_str(&format!(" addr {:#x}", s.addr));
        }
        match s.placement {
            Placement::Next => {}
            Placement::Shares(n) => out.push_str(&format!(" shares {n}")),
            Placement::At(at) => out.push_str(&format!(" at {at:#x}")),
        }
        match file {
            Some(_) => out.push_str(&format!("   // {}\n", i + 1)),
            None => out.push('\n'),
        }
        write_content(out, file, s, sm, hex);
    }
}

/// One line per string; a run of equal strings (the zeroed names of
/// dropped sections) as one line with a count.
fn write_strings(out: &mut String, directive: &str, strings: &[String]) {
    let mut i = 0;
    while i < strings.len() {
        let run = strings[i..].iter().take_while(|s| **s == strings[i]).count();
        if run > 1 {
            out.push_str(&format!("{directive} {:?} {run}\n", strings[i]));
        } else {
            out.push_str(&format!("{directive} {:?}\n", strings[i]));
        }
        i += run;
    }
}

fn write_content(out: &mut String, file: Option<&Elf>, s: &Section, sm: Option<Sm>, hex: bool) {
    match &s.content {
        Content::Bytes(b) if b.is_empty() => {}
        Content::Bytes(b) => match (sm, file, s.name.starts_with(".text.")) {
            (Some(sm), Some(file), true) if b.len() % 16 == 0 => {
                let words = bits::words_from_bytes(b).unwrap_or_default();
                // A label restarts the addresses (also for `sass asm -o X.bin`,
                // which reads the code of every section in order).
                let label: String = s.name[".text.".len()..].chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
                out.push_str(&format!("{label}:\n"));
                super::listing::write_code(out, file, &s.name, &words, sm, hex);
            }
            _ => write_bytes(out, b),
        },
        Content::NoBits(n) => out.push_str(&format!(".nobits {n:#x}\n")),
        Content::Info(records) => {
            for r in records {
                let name = match s.kind {
                    SHT_CUDA_COMPAT_INFO => info::COMPAT_ATTRIBUTE_NAMES.iter().find(|(n, _)| *n == r.attr).map(|(_, t)| t.to_string()),
                    _ => None,
                };
                out.push_str(&format!(".record {} {}\n", name.unwrap_or_else(|| r.name()), record_value(r)));
            }
        }
        Content::Rela(entries) => {
            for r in entries {
                out.push_str(&format!(".rela {:#x} {} {} {}\n", r.offset, r.symbol, r.kind, r.addend));
            }
        }
        Content::Notes(notes) => {
            for n in notes {
                let name = match std::str::from_utf8(&n.name) {
                    Ok(t) => format!("{t:?}"),
                    Err(_) => hex_string(&n.name),
                };
                out.push_str(&format!(".note {name} {} {}\n", n.kind, hex_string(&n.desc)));
            }
        }
        Content::Symtab => out.push_str(".derived symtab\n"),
        Content::Strtab => out.push_str(".derived strtab\n"),
        Content::Shstrtab => out.push_str(".derived shstrtab\n"),
    }
}

fn record_value(r: &Attribute) -> String {
    match &r.value {
        Value::None => "none".into(),
        Value::Byte(b) => format!("byte {b:#x}"),
        Value::Half(h) => format!("half {h:#x}"),
        Value::Bytes(b) if !b.is_empty() && b.len() % 4 == 0 => {
            let words: Vec<String> = r.as_words().unwrap_or_default().iter().map(|w| format!("{w:#x}")).collect();
            format!("words {}", words.join(" "))
        }
        Value::Bytes(b) => format!("bytes {}", hex_string(b)),
    }
}

fn hex_string(bytes: &[u8]) -> String {
    if bytes.is_empty() { "-".into() } else { bytes.iter().map(|b| format!("{b:02x}")).collect() }
}

fn write_bytes(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.chunks(32) {
        out.push_str(&format!(".bytes {}\n", hex_string(chunk)));
    }
}

/// One directive line split into words: quoted strings are unescaped, and
/// `//` outside quotes ends the line. `Err` for a malformed string.
fn words_of(line: &str) -> Result<Vec<Word>, String> {
    let mut words = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '/' && line[at..].starts_with("//") {
            break;
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                let Some((_, c)) = chars.next() else { return Err("unterminated string".into()) };
                match c {
                    '"' => break,
                    '\\' => {
                        let Some((_, e)) = chars.next() else { return Err("unterminated string".into()) };
                        s.push(match e {
                            'n' => '\n',
                            'r' => '\r',
                            't' => '\t',
                            '0' => '\0',
                            '\\' | '"' | '\'' => e,
                            'u' => {
                                let mut code = String::new();
                                if chars.next().map(|(_, c)| c) != Some('{') {
                                    return Err("'\\u' needs '{hex}'".into());
                                }
                                loop {
                                    match chars.next() {
                                        Some((_, '}')) => break,
                                        Some((_, h)) if h.is_ascii_hexdigit() && code.len() < 6 => code.push(h),
                                        _ => return Err("bad '\\u{…}' escape".into()),
                                    }
                                }
                                u32::from_str_radix(&code, 16).ok().and_then(char::from_u32).ok_or("bad '\\u{…}' escape")?
                            }
                            other => return Err(format!("unknown escape '\\{other}'")),
                        });
                    }
                    c => s.push(c),
                }
            }
            words.push(Word::Quoted(s));
        } else {
            let end = line[at..].find(char::is_whitespace).map_or(line.len(), |e| at + e);
            words.push(Word::Plain(line[at..end].to_string()));
            while chars.peek().is_some_and(|&(i, _)| i < end) {
                chars.next();
            }
        }
    }
    Ok(words)
}

/// A word of a directive line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Word {
    Plain(String),
    Quoted(String),
}

impl Word {
    fn text(&self) -> &str {
        match self {
            Word::Plain(s) | Word::Quoted(s) => s,
        }
    }
}

/// Reads the words of one directive line.
struct Args<'a> {
    line: usize,
    words: &'a [Word],
    at: usize,
}

impl Args<'_> {
    fn err(&self, message: String) -> ListingError {
        ListingError { line: self.line, message }
    }

    fn next(&mut self, what: &str) -> Result<Word, ListingError> {
        let w = self.words.get(self.at).cloned().ok_or_else(|| self.err(format!("{what} is missing")))?;
        self.at += 1;
        Ok(w)
    }

    fn number(&mut self, what: &str) -> Result<u64, ListingError> {
        let w = self.next(what)?.text().to_string();
        let parsed = match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => w.parse(),
        };
        parsed.map_err(|_| self.err(format!("{what} '{w}' is not a number")))
    }

    fn small<T: TryFrom<u64>>(&mut self, what: &str) -> Result<T, ListingError> {
        let n = self.number(what)?;
        T::try_from(n).map_err(|_| self.err(format!("{what} {n:#x} is out of range")))
    }

    fn signed(&mut self, what: &str) -> Result<i64, ListingError> {
        let w = self.next(what)?.text().to_string();
        let (negative, digits) = match w.strip_prefix('-') {
            Some(d) => (true, d.to_string()),
            None => (false, w.clone()),
        };
        let magnitude = match digits.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => digits.parse(),
        }
        .map_err(|_| self.err(format!("{what} '{w}' is not a number")))?;
        // Two's complement, as r_addend is stored.
        Ok(if negative { (magnitude as i64).wrapping_neg() } else { magnitude as i64 })
    }

    fn string(&mut self, what: &str) -> Result<String, ListingError> {
        match self.next(what)? {
            Word::Quoted(s) => Ok(s),
            Word::Plain(p) => Err(self.err(format!("{what} '{p}' must be a quoted string"))),
        }
    }

    fn hex(&mut self, what: &str) -> Result<Vec<u8>, ListingError> {
        let w = self.next(what)?.text().to_string();
        parse_hex(&w).ok_or_else(|| self.err(format!("{what} '{w}' is not hex bytes")))
    }

    fn rest(&self) -> &[Word] {
        &self.words[self.at.min(self.words.len())..]
    }

    fn done(&self) -> Result<(), ListingError> {
        match self.rest().first() {
            None => Ok(()),
            Some(w) => Err(self.err(format!("unexpected '{}'", w.text()))),
        }
    }
}

fn parse_hex(text: &str) -> Option<Vec<u8>> {
    if text == "-" {
        return Some(Vec::new());
    }
    if text.len() % 2 != 0 || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

fn attribute_number(name: &str) -> Option<u8> {
    if let Some(n) = name.strip_prefix("EIATTR_0x") {
        return u8::from_str_radix(n, 16).ok();
    }
    info::ATTRIBUTE_NAMES.iter().chain(info::COMPAT_ATTRIBUTE_NAMES).find(|(_, s)| *s == name).map(|(n, _)| *n)
}

/// A section being read: its header and the content lines seen so far.
struct Open {
    section: Section,
    /// Content set by a directive (`None`: code lines or nothing).
    content: Option<Content>,
    /// Line of the `.section` directive; code lines are numbered from it.
    line: usize,
    code: String,
    /// The listing line the next line of `code` stands for.
    next_line: usize,
    has_code: bool,
}

/// Reads a section listing for `sm` back into the file it describes.
pub fn read(text: &str, sm: Sm) -> Result<Elf, ListingError> {
    let mut parts = FileParts::default();
    let sections = read_lines(text.lines().enumerate().map(|(k, l)| (k + 1, l)), sm, Some(&mut parts))?;
    let header = parts.header.ok_or(ListingError { line: 1, message: "a section listing needs an '.elf' line".into() })?;
    let file = Elf { header, sections, symbols: parts.symbols, strings: parts.strings, section_names: parts.section_names };
    if file.sm() != Some(u32::from(sm.number)) {
        return Err(ListingError { line: 1, message: format!("the '.elf' flags name {}, not {sm}", file.sm().map_or("no SM".into(), |n| format!("sm_{n}"))) });
    }
    Ok(file)
}

/// Reads `.section` blocks (numbered lines of a larger listing: the merc
/// sections a module listing carries).
pub fn read_sections<'a>(lines: impl Iterator<Item = (usize, &'a str)>, sm: Sm) -> Result<Vec<Section>, ListingError> {
    read_lines(lines, sm, None)
}

/// What a section listing says besides its sections.
#[derive(Default)]
struct FileParts {
    header: Option<Header>,
    strings: StringTable,
    section_names: StringTable,
    symbols: Vec<Symbol>,
}

/// Most strings one `.string` / `.section_name` table may hold (ptxas's
/// hold tens to hundreds; the bound keeps a hostile count from exhausting
/// memory).
const MAX_STRINGS: u64 = 1 << 20;

/// Largest file offset `at` may place a section at (64 MiB, far beyond any
/// ptxas cubin; the writer fills the gap with zeros).
const MAX_OFFSET: u64 = 1 << 26;

/// The sections of numbered listing lines; file-level directives go to
/// `parts` (an error where there is none).
fn read_lines<'a>(lines: impl Iterator<Item = (usize, &'a str)>, sm: Sm, mut parts: Option<&mut FileParts>) -> Result<Vec<Section>, ListingError> {
    let mut sections = Vec::new();
    let mut open: Option<Open> = None;
    for (line, raw) in lines {
        let trimmed = raw.trim_start();
        let is_directive = trimmed.starts_with('.') && !trimmed.starts_with(".raw");
        if !is_directive {
            // Code (or a blank or comment line) of the open section.
            match &mut open {
                Some(o) => {
                    let content = trimmed.trim_end();
                    if !content.is_empty() && !content.starts_with("//") {
                        o.has_code = true;
                    }
                    // Blank lines keep the numbering of the listing.
                    while o.next_line < line {
                        o.code.push('\n');
                        o.next_line += 1;
                    }
                    o.code.push_str(raw);
                    o.code.push('\n');
                    o.next_line = line + 1;
                }
                None => {
                    let content = trimmed.split("//").next().unwrap_or("").trim();
                    if !content.is_empty() {
                        return Err(ListingError { line, message: "code outside a section: start it with '.section'".into() });
                    }
                }
            }
            continue;
        }
        let words = words_of(raw).map_err(|message| ListingError { line, message })?;
        let Some(Word::Plain(directive)) = words.first() else { continue };
        let mut a = Args { line, words: &words[1..], at: 0 };
        let file_level = matches!(directive.as_str(), ".target" | ".elf" | ".string" | ".section_name" | ".symbol");
        if file_level {
            let Some(p) = parts.as_deref_mut() else { return Err(a.err(format!("'{directive}' belongs in a section listing"))) };
            file_directive(&mut a, directive, p, sm)?;
            continue;
        }
        if directive != ".section" {
            let Some(o) = &mut open else { return Err(a.err(format!("'{directive}' outside a section"))) };
            read_content(&mut a, directive, o)?;
            continue;
        }
        if let Some(o) = open.take() {
            sections.push(close(o, sm)?);
        }
        let name = a.string("section name")?;
        let mut section = Section {
            name,
            kind: a.small("sh_type")?,
            flags: a.number("sh_flags")?,
            addr: 0,
            link: a.small("sh_link")?,
            info: a.small("sh_info")?,
            align: a.number("sh_addralign")?,
            entsize: a.number("sh_entsize")?,
            content: Content::Bytes(Vec::new()),
            placement: Placement::Next,
        };
        while !a.rest().is_empty() {
            let key = a.next("field")?.text().to_string();
            match key.as_str() {
                "addr" => section.addr = a.number("address")?,
                "shares" => {
                    let n: u32 = a.small("section index")?;
                    if n == 0 {
                        return Err(a.err("'shares' names a section by its header index, from 1".into()));
                    }
                    section.placement = Placement::Shares(n);
                }
                "at" => {
                    let at = a.number("file offset")?;
                    if at > MAX_OFFSET {
                        return Err(a.err(format!("file offset {at:#x} is beyond {MAX_OFFSET:#x}")));
                    }
                    section.placement = Placement::At(at);
                }
                other => return Err(a.err(format!("unknown section field '{other}'"))),
            }
        }
        open = Some(Open { section, content: None, line, code: String::new(), next_line: line + 1, has_code: false });
    }
    if let Some(o) = open.take() {
        sections.push(close(o, sm)?);
    }
    Ok(sections)
}

/// `.target`, `.elf`, `.string`, `.section_name` and `.symbol`.
fn file_directive(a: &mut Args<'_>, directive: &str, p: &mut FileParts, sm: Sm) -> Result<(), ListingError> {
    match directive {
        ".target" => {
            let name = a.next("SM")?.text().to_string();
            let named = Sm::parse_sm(&name).ok_or_else(|| a.err(format!("unknown SM '{name}'")))?;
            if named != sm {
                return Err(a.err(format!("the listing is for {named}, not {sm}")));
            }
        }
        ".elf" => {
            let mut h = Header { os_abi: 0, abi_version: 0, file_type: 0, flags: 0, entry: 0 };
            while !a.rest().is_empty() {
                let key = a.next("field")?.text().to_string();
                match key.as_str() {
                    "type" => h.file_type = a.small("type")?,
                    "osabi" => h.os_abi = a.small("osabi")?,
                    "abi" => h.abi_version = a.small("abi")?,
                    "flags" => h.flags = a.small("flags")?,
                    "entry" => h.entry = a.number("entry")?,
                    other => return Err(a.err(format!("unknown header field '{other}'"))),
                }
            }
            p.header = Some(h);
        }
        ".string" | ".section_name" => {
            let s = a.string("string")?;
            let count = if a.rest().is_empty() { 1 } else { a.number("count")? };
            a.done()?;
            let table = if directive == ".string" { &mut p.strings } else { &mut p.section_names };
            if count > MAX_STRINGS - (table.strings.len() as u64).min(MAX_STRINGS) {
                return Err(a.err(format!("more than {MAX_STRINGS} strings in one table")));
            }
            table.strings.extend(std::iter::repeat_n(s, count as usize));
        }
        _ => {
            let name = match a.next("symbol name")? {
                Word::Quoted(s) => Some(s),
                Word::Plain(p) if p == "-" => None,
                Word::Plain(p) => return Err(a.err(format!("symbol name '{p}' must be quoted (or '-' for none)"))),
            };
            let symbol = Symbol { name, info: a.small("st_info")?, other: a.small("st_other")?, section: a.small("st_shndx")?, value: a.number("st_value")?, size: a.number("st_size")? };
            a.done()?;
            p.symbols.push(symbol);
        }
    }
    Ok(())
}

/// One content line of the open section.
fn read_content(a: &mut Args<'_>, directive: &str, o: &mut Open) -> Result<(), ListingError> {
    let mismatch = |a: &Args<'_>| a.err(format!("'{directive}' does not fit the section's other content lines"));
    match directive {
        ".bytes" => {
            let bytes = a.hex("bytes")?;
            match &mut o.content {
                None => o.content = Some(Content::Bytes(bytes)),
                Some(Content::Bytes(b)) => b.extend(bytes),
                _ => return Err(mismatch(a)),
            }
        }
        ".nobits" => {
            if o.content.is_some() {
                return Err(mismatch(a));
            }
            o.content = Some(Content::NoBits(a.number("size")?));
        }
        ".derived" => {
            if o.content.is_some() {
                return Err(mismatch(a));
            }
            let which = a.next("table")?.text().to_string();
            o.content = Some(match which.as_str() {
                "symtab" => Content::Symtab,
                "strtab" => Content::Strtab,
                "shstrtab" => Content::Shstrtab,
                other => return Err(a.err(format!("'{other}' is not symtab, strtab or shstrtab"))),
            });
        }
        ".record" => {
            let name = a.next("attribute")?.text().to_string();
            let attr = attribute_number(&name).ok_or_else(|| a.err(format!("unknown attribute '{name}'")))?;
            let form = a.next("format")?.text().to_string();
            let value = match form.as_str() {
                "none" => Value::None,
                "byte" => Value::Byte(a.small("byte")?),
                "half" => Value::Half(a.small("half")?),
                "bytes" => Value::Bytes(a.hex("payload")?),
                "words" => {
                    let mut payload = Vec::new();
                    while !a.rest().is_empty() {
                        payload.extend(a.small::<u32>("word")?.to_le_bytes());
                    }
                    Value::Bytes(payload)
                }
                other => return Err(a.err(format!("record format '{other}' is not none, byte, half, words or bytes"))),
            };
            if matches!(&value, Value::Bytes(b) if b.len() > usize::from(u16::MAX)) {
                return Err(a.err("a record payload holds at most 65535 bytes".into()));
            }
            let record = Attribute { attr, value };
            match &mut o.content {
                None => o.content = Some(Content::Info(vec![record])),
                Some(Content::Info(r)) => r.push(record),
                _ => return Err(mismatch(a)),
            }
        }
        ".rela" => {
            let rela = Rela { offset: a.number("offset")?, symbol: a.small("symbol")?, kind: a.small("type")?, addend: a.signed("addend")? };
            match &mut o.content {
                None => o.content = Some(Content::Rela(vec![rela])),
                Some(Content::Rela(r)) => r.push(rela),
                _ => return Err(mismatch(a)),
            }
        }
        ".note" => {
            let name = match a.next("note name")? {
                Word::Quoted(s) => s.into_bytes(),
                Word::Plain(p) => parse_hex(&p).ok_or_else(|| a.err(format!("note name '{p}' is neither quoted nor hex")))?,
            };
            let note = Note { name, kind: a.small("note type")?, desc: a.hex("descriptor")? };
            match &mut o.content {
                None => o.content = Some(Content::Notes(vec![note])),
                Some(Content::Notes(n)) => n.push(note),
                _ => return Err(mismatch(a)),
            }
        }
        other => return Err(a.err(format!("unknown directive '{other}'"))),
    }
    a.done()
}

/// The section with its content: the content lines, or else its code.
fn close(o: Open, sm: Sm) -> Result<Section, ListingError> {
    let mut section = o.section;
    section.content = match (o.content, o.has_code) {
        (Some(_), true) => return Err(ListingError { line: o.line, message: format!("section {} has both instructions and content lines", section.name) }),
        (Some(c), false) => c,
        (None, true) => {
            let words = code_listing::read_listing(&o.code, sm).map_err(|e| ListingError { line: e.line + o.line, message: e.message })?;
            Content::Bytes(bits::words_to_bytes(&words))
        }
        (None, false) => Content::Bytes(Vec::new()),
    };
    Ok(section)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_unescape_and_stop_at_comments() {
        let w = words_of(r#".string "a b\"c\\\u{7f}" 12 // "not""#).unwrap();
        assert_eq!(w, vec![Word::Plain(".string".into()), Word::Quoted("a b\"c\\\u{7f}".into()), Word::Plain("12".into())]);
        assert!(words_of(r#".string "open"#).is_err());
        assert!(words_of(r#".string "\q""#).is_err());
    }

    /// A small file built by hand, written and read back.
    #[test]
    fn reads_back_what_it_writes() {
        let file = Elf {
            header: Header { os_abi: 0x41, abi_version: 8, file_type: 2, flags: 0x0600_5a04, entry: 0 },
            sections: vec![
                Section { name: ".shstrtab".into(), kind: 3, flags: 0, addr: 0, link: 0, info: 0, align: 1, entsize: 0, content: Content::Shstrtab, placement: Placement::Next },
                Section {
                    name: ".nv.info".into(),
                    kind: 0x7000_0000,
                    flags: 0,
                    addr: 0,
                    link: 0,
                    info: 0,
                    align: 4,
                    entsize: 0,
                    content: Content::Info(vec![Attribute::words(0x2f, &[1, 2]), Attribute::byte(0x4c, 1), Attribute::half(0x1b, 0xff), Attribute::none(0x35), Attribute::bytes(0x99, vec![1, 2, 3])]),
                    placement: Placement::Next,
                },
                Section { name: "odd \"name\"".into(), kind: 1, flags: 2, addr: 0, link: 0, info: 0, align: 8, entsize: 0, content: Content::Bytes(vec![1; 40]), placement: Placement::At(0x400) },
                Section { name: ".bss".into(), kind: 8, flags: 3, addr: 0, link: 0, info: 0, align: 4, entsize: 0, content: Content::NoBits(0x40), placement: Placement::Next },
                Section { name: ".rela".into(), kind: 4, flags: 0, addr: 0, link: 0, info: 0, align: 8, entsize: 24, content: Content::Rela(vec![Rela { offset: 8, symbol: 1, kind: 2, addend: -4 }]), placement: Placement::Next },
            ],
            symbols: vec![Symbol { name: Some("k".into()), info: 0x12, other: 0x10, section: 3, value: 0, size: 16 }, Symbol { name: None, info: 0, other: 0, section: 0, value: 0, size: 0 }],
            strings: StringTable { strings: vec!["k".into(), "".into()] },
            section_names: StringTable { strings: vec![".shstrtab".into(), ".nv.info".into()] },
        };
        let mut text = String::new();
        write(&mut text, &file, false);
        assert!(is_section_listing(&text));
        let back = read(&text, Sm::new(90)).unwrap_or_else(|e| panic!("line {}: {}\n{text}", e.line, e.message));
        assert_eq!(back, file, "{text}");
        let e = read(&text.replace(".nobits 0x40", ".nobits forty"), Sm::new(90)).unwrap_err();
        assert!(e.message.contains("'forty'"), "{}", e.message);
        assert!(read(&text, Sm::new(80)).is_err());
    }
}
