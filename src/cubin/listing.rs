//! Module listings: the text `sass dis` prints for a cubin and `sass asm`
//! turns back into one. A listing is the instruction listing of
//! [`crate::isa::listing`] with directives that describe each kernel the
//! way [`Module`] does:
//!
//! ```text
//! .target sm_90            // optional; `sass asm -arch=` must agree
//! .virtual sm_75           // optional: the PTX target (`.note.nv.cuinfo`)
//! .tool "ptx2sass" "ptx2sass 0.1.0" "" ""   // optional: `.note.nv.tkinfo`
//!                          // (name, version, build, arguments)
//! .global gtab 0x0 0x10 8 0102030405060708090a0b0c0d0e0f10
//!                          // name, offset, size, alignment, [visible], [bytes]
//! .global gzero 0x0 0x4 4  // no bytes: zero-initialised (.nv.global)
//! .const cscale 0x0 0x4 4 00000040        // constant bank 3
//! .address gtab            // the next 8-byte entry of constant bank 4
//! .isa_class 2             // optional (.nv.compat ISA class; default 1)
//! .elf_flags_top 0x9       // optional: e_flags bits 24-31 (default 0x6;
//!                          // other values with line information)
//!
//! .kernel saxpy            // starts a kernel; its code follows
//! .param 0x0 8             // parameter: byte offset and size, in order,
//!                          // [flags: low bits of its KPARAM_INFO record,
//!                          // 0x500 on sm_120 pointers]
//! .param 0x8 4
//! .registers 10            // required
//! .barriers 1              // optional, default 0
//! .shared 0x100            // optional static shared bytes (sm_90+ adds its reserve)
//! .shared_align 16         // optional: the shared section's alignment (default 4)
//! .dynamic_shared          // optional: the kernel uses .extern shared memory
//!                          // (a shared section even without static bytes)
//! .frame 0                 // optional local frame bytes
//! .min_stack 0             // optional
//! .maxnreg 64              // optional (.maxnreg)
//! .reqntid 128 1 1         // optional (.reqntid)
//! .maxntid 256 1 1         // optional (.maxntid)
//! .exits 0x50              // optional: EXIT offsets; found in the code when absent
//! .warp_wide 0xd0 0x1c0    // optional: warp-wide instruction offsets
//! .coop_group 0xe0 0x100   // optional: cooperative-group instruction offsets
//! .coop_group_masks 0xffffffff 0xffffffff   // and their mask registers
//! .crs_stack 0x0           // optional: EIATTR_CRS_STACK_SIZE
//! .externs vprintf         // optional: functions outside the module the
//!                          // code calls (EIATTR_EXTERNS; their bank 4
//!                          // slots are `.address` lines)
//! .syscalls 0x3c0 0x4c0    // optional: offsets of those calls
//! .frame_program 04100000000c818080280004   // optional: the kernel's
//!                          // .debug_frame call-frame instructions (hex;
//!                          // derived from the exits when absent)
//! .constant2 110000000000f03f   // optional: the bytes of the kernel's
//!                          // constant bank 2 (hex; `c[0x2][…]` operands)
//! .function $saxpy$f 0xb0 0x150 0x0 R0 0x100 0408000000 visible
//!                          // a device function in the kernel's code:
//!                          // name, offset, size, frame size, return-address
//!                          // register, the initial-location bytes of its
//!                          // frame entry, its call-frame instructions
//!                          // (hex, `-` for none), and `visible` for a
//!                          // GLOBAL symbol
//! saxpy:
//!         /*0000*/ [B------:R-:W-:-:S02] MOV R1, c[0x0][0x28] ;
//! ```
//!
//! Numbers are decimal or `0x` hexadecimal; `//` starts a comment. A line
//! `name:` is a label; addresses restart at 0 for each kernel.
//!
//! Line information (`ptxas -lineinfo`, [`Module::line_info`]) is carried
//! as bytes: `.debug .debug_line` starts a section, `.debug_bytes HEX` lines
//! hold its bytes, `.debug_reloc OFFSET SYMBOL TYPE ADDEND` its relocations
//! (to a kernel or device function).
//!
//! On sm_100+ the module directives are followed by the `.nv.merc.*` /
//! `.nv.capmerc.*` sections the module carries unread
//! ([`Module::merc`]), written in the syntax of a [`section_listing`]
//! (`.section` lines with `.bytes`, `.record`, `.rela`, `.nobits` content).
//!
//! A cubin the module form does not describe exactly (device functions,
//! jump tables, textures, debug sections, records the model lacks) is
//! listed as a whole [`section_listing`]; [`write_cubin`] picks the form
//! and [`read`] reads either.

use super::elf::{self, Elf};
use super::module::{CodeAddress, DebugSection, Function, Kernel, Module, Param, ToolInfo, Variable};
use super::section_listing;
use crate::isa::{self, listing as code_listing};
use crate::target::Sm;

/// Writes the listing of a cubin (`file`, read from `original`): the module
/// form when [`super::module::build`] writes exactly `original` again from
/// the module [`super::module::from_elf`] reads, else the section form of
/// [`section_listing`] (a comment says why). Either reads back with [`read`].
pub fn write_cubin(out: &mut String, file: &Elf, original: &[u8], sm: Sm, hex: bool) {
    let why = match super::module::from_elf(file) {
        Err(why) => why,
        Ok(m) if !tool_printable(&m.tool) => "the tool note has quotes or line breaks".into(),
        Ok(m) => match super::module::build(&m) {
            Err(e) => format!("the module does not build: {e}"),
            Ok(built) if elf::write(&built) != original => "the module model does not reproduce the file".into(),
            Ok(_) => {
                write_module_header(out, &m);
                for k in &m.kernels {
                    out.push('\n');
                    write_kernel_header(out, k);
                    out.push_str(&format!("{}:\n", k.name));
                    write_code(out, file, &k.name, &k.code, sm, hex);
                }
                return;
            }
        },
    };
    out.push_str(&format!(".target {sm}\n// section listing: {why}\n"));
    section_listing::write(out, file, hex);
}

/// Reads either form of listing for `sm` into the cubin it describes.
pub fn read(text: &str, sm: Sm) -> Result<Elf, ListingError> {
    if section_listing::is_section_listing(text) {
        return section_listing::read(text, sm);
    }
    let module = read_module(text, sm)?;
    super::module::build(&module).map_err(|e| ListingError { line: 1, message: e.0 })
}

/// The listing of one function's code, with a comment line where a device
/// function ptxas placed inside it starts (a local FUNC symbol of its
/// section, such as `$kernel$callee`). Comments do not change what is read
/// back, so the listing still assembles to the same words.
pub fn write_code(out: &mut String, file: &Elf, section: &str, words: &[u128], sm: Sm, hex: bool) {
    let section = if section.starts_with(".text.") { section.to_string() } else { format!(".text.{section}") };
    let mut starts: Vec<(u64, &str, u64)> = Vec::new();
    if let Some(index) = file.section_index(&section) {
        for sym in &file.symbols {
            let is_function = sym.info & 0xf == object::elf::STT_FUNC.0;
            if let (true, Some(name)) = (is_function && u32::from(sym.section) == index && sym.value > 0, sym.name.as_deref()) {
                starts.push((sym.value, name, sym.size));
            }
        }
    }
    starts.sort();
    let mut from = 0usize;
    for (offset, name, size) in starts {
        let at = usize::try_from(offset / 16).unwrap_or(usize::MAX).min(words.len());
        if at < from {
            continue;
        }
        code_listing::write_listing(out, &words[from..at], sm, from as u64 * 16, hex);
        out.push_str(&format!("        // device function {} (at {offset:#x}, {size:#x} bytes)\n", name.escape_debug()));
        from = at;
    }
    code_listing::write_listing(out, &words[from..], sm, from as u64 * 16, hex);
}

fn tool_printable(t: &ToolInfo) -> bool {
    [&t.name, &t.version, &t.branch, &t.arguments].iter().all(|f| !f.contains(['"', '\n', '\r']))
}

/// A listing line that does not assemble.
pub type ListingError = code_listing::ListingError;

/// One kernel block of a listing before it becomes a [`Kernel`].
struct Block {
    name: Option<String>,
    line: usize,
    directives: Vec<(usize, Vec<String>)>,
    /// The code lines, other lines blanked so line numbers stay right.
    code: String,
}

/// What a listing holds: module directives and kernel blocks.
struct Parsed {
    target: Option<(usize, String)>,
    virtual_sm: Option<(usize, String)>,
    tool: Option<(usize, String)>,
    isa_class: Option<(usize, String)>,
    flags_top: Option<(usize, String)>,
    /// `.global`, `.const` and `.address` lines.
    variables: Vec<(usize, Vec<String>)>,
    /// `.debug`, `.debug_bytes` and `.debug_reloc` lines.
    debug: Vec<(usize, Vec<String>)>,
    /// The lines of the carried merc sections.
    merc: Vec<(usize, String)>,
    blocks: Vec<Block>,
}

fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed { target: None, virtual_sm: None, tool: None, isa_class: None, flags_top: None, variables: Vec::new(), debug: Vec::new(), merc: Vec::new(), blocks: Vec::new() };
    let mut current = Block { name: None, line: 1, directives: Vec::new(), code: String::new() };
    for (k, raw) in text.lines().enumerate() {
        let line_no = k + 1;
        let line = raw.split("//").next().unwrap_or("").trim();
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match words.first().map(String::as_str) {
            None => {}
            Some(".kernel") => {
                let done = std::mem::replace(&mut current, Block { name: words.get(1).cloned(), line: line_no, directives: Vec::new(), code: String::new() });
                if done.name.is_some() || !done.code.trim().is_empty() {
                    parsed.blocks.push(done);
                }
                // Keep line numbering: the new block's code starts with blank lines.
                current.code.push_str(&"\n".repeat(line_no));
                if words.len() != 2 {
                    current.directives.push((line_no, vec![".kernel".into()]));
                }
                continue;
            }
            Some(".target") if current.name.is_none() => parsed.target = Some((line_no, words.get(1).cloned().unwrap_or_default())),
            Some(".virtual") if current.name.is_none() => parsed.virtual_sm = Some((line_no, words.get(1).cloned().unwrap_or_default())),
            Some(".global" | ".const" | ".address") if current.name.is_none() => parsed.variables.push((line_no, words)),
            Some(".debug" | ".debug_bytes" | ".debug_reloc") if current.name.is_none() => parsed.debug.push((line_no, words)),
            // The merc sections a module carries (section-listing syntax).
            Some(".section" | ".bytes" | ".record" | ".rela" | ".note" | ".nobits" | ".derived") if current.name.is_none() => parsed.merc.push((line_no, raw.to_string())),
            Some(".elf_flags_top") if current.name.is_none() => parsed.flags_top = Some((line_no, words.get(1).cloned().unwrap_or_default())),
            Some(".isa_class") if current.name.is_none() => parsed.isa_class = Some((line_no, words.get(1).cloned().unwrap_or_default())),
            Some(".tool") if current.name.is_none() => parsed.tool = Some((line_no, raw.trim().trim_start_matches(".tool").to_string())),
            Some(d) if d.starts_with('.') && d != ".raw" => current.directives.push((line_no, words)),
            _ => {
                current.code.push_str(raw);
                current.code.push('\n');
                continue;
            }
        }
        current.code.push('\n');
    }
    if current.name.is_some() || !current.code.trim().is_empty() {
        parsed.blocks.push(current);
    }
    parsed
}

fn number(line: usize, text: Option<&String>, what: &str) -> Result<u64, ListingError> {
    let err = |message: String| ListingError { line, message };
    let t = text.ok_or_else(|| err(format!("{what} is missing")))?;
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse(),
    };
    parsed.map_err(|_| err(format!("{what} '{t}' is not a number")))
}

fn number_u32(line: usize, text: Option<&String>, what: &str) -> Result<u32, ListingError> {
    let n = number(line, text, what)?;
    u32::try_from(n).map_err(|_| ListingError { line, message: format!("{what} {n} does not fit 32 bits") })
}

/// `n`, unless it exceeds the hardware's `limit` of `what`.
fn bounded(line: usize, n: u32, limit: u32, what: &str) -> Result<u32, ListingError> {
    if n > limit { Err(ListingError { line, message: format!("{n} {what}: the limit is {limit}") }) } else { Ok(n) }
}

fn sm_named(line: usize, name: &str) -> Result<Sm, ListingError> {
    Sm::parse_sm(name).ok_or_else(|| ListingError { line, message: format!("unknown SM '{name}'") })
}

/// The instruction words of every block, in listing order (what `sass asm
/// -o FILE.bin` writes); directives are checked for form only.
pub fn read_words(text: &str, sm: Sm) -> Result<Vec<u128>, ListingError> {
    let parsed = parse(text);
    let mut words = Vec::new();
    for b in &parsed.blocks {
        words.extend(code_listing::read_listing(&b.code, sm)?);
    }
    Ok(words)
}

/// Reads a module listing for `sm`.
pub fn read_module(text: &str, sm: Sm) -> Result<Module, ListingError> {
    let parsed = parse(text);
    if let Some((line, name)) = &parsed.target {
        let named = sm_named(*line, name)?;
        if named != sm {
            return Err(ListingError { line: *line, message: format!("the listing is for {named}, not {sm}") });
        }
    }
    let number_of = |s: Sm| u32::from(s.number);
    let virtual_sm = match &parsed.virtual_sm {
        Some((line, name)) => number_of(sm_named(*line, name)?),
        None => number_of(sm),
    };
    let tool = match &parsed.tool {
        Some((line, text)) => parse_tool(*line, text)?,
        None => ToolInfo::default(),
    };
    let (globals, constants, addresses) = read_variables(&parsed.variables)?;
    let line_info = read_line_info(&parsed.debug)?;
    let flags_top = match &parsed.flags_top {
        Some((line, text)) => u8::try_from(number(*line, Some(text), "flags byte")?).map_err(|_| ListingError { line: *line, message: format!("{text} does not fit a byte") })?,
        None => 6,
    };
    let merc = section_listing::read_sections(parsed.merc.iter().map(|(line, text)| (*line, text.as_str())), sm)?;
    let mut kernels = Vec::new();
    for b in parsed.blocks {
        let Some(name) = b.name else {
            let line = b.code.lines().position(|l| !l.trim().is_empty()).map_or(1, |p| p + 1);
            return Err(ListingError { line, message: "code outside a kernel: start it with '.kernel NAME'".into() });
        };
        let code = code_listing::read_listing(&b.code, sm)?;
        let mut kernel = Kernel::new(name, code, 0);
        let mut registers = None;
        let mut exits = None;
        for (line, words) in &b.directives {
            let arg = |i: usize, what: &str| number_u32(*line, words.get(i), what);
            let triple = || -> Result<[u32; 3], ListingError> { Ok([arg(1, "x")?, arg(2, "y")?, arg(3, "z")?]) };
            match words[0].as_str() {
                ".kernel" => return Err(ListingError { line: *line, message: "'.kernel' takes one name".into() }),
                ".param" => {
                    let flags = if words.len() > 3 { u16::try_from(arg(3, "parameter flags")?).ok().filter(|f| *f < 0x1000).ok_or(ListingError { line: *line, message: "parameter flags are 12 bits".into() })? } else { 0 };
                    kernel.params.push(Param { offset: arg(1, "parameter offset")?, size: arg(2, "parameter size")?, flags });
                }
                ".registers" => registers = Some(bounded(*line, arg(1, "register count")?, 255, "registers")?),
                ".barriers" => kernel.barriers = bounded(*line, arg(1, "barrier count")?, 16, "barriers")?,
                ".shared" => kernel.shared_bytes = number(*line, words.get(1), "shared bytes")?,
                ".shared_align" => {
                    let align = number(*line, words.get(1), "shared alignment")?;
                    if !align.is_power_of_two() || align > 4096 {
                        return Err(ListingError { line: *line, message: format!("shared alignment {align} is not a power of two up to 4096") });
                    }
                    kernel.shared_align = align;
                }
                ".dynamic_shared" => kernel.dynamic_shared = true,
                ".frame" => kernel.frame_size = arg(1, "frame size")?,
                ".min_stack" => kernel.min_stack_size = arg(1, "minimum stack size")?,
                ".maxnreg" => kernel.max_registers = Some(bounded(*line, arg(1, "register limit")?, 255, "registers")?),
                ".reqntid" => kernel.required_threads = Some(triple()?),
                ".maxntid" => kernel.max_threads = Some(triple()?),
                ".exits" => exits = Some(numbers(*line, &words[1..], "exit offset")?),
                ".warp_wide" => kernel.warp_wide_offsets = numbers(*line, &words[1..], "instruction offset")?,
                ".coop_group" => kernel.coop_group_offsets = numbers(*line, &words[1..], "instruction offset")?,
                ".coop_group_masks" => kernel.coop_group_mask_registers = numbers(*line, &words[1..], "mask register")?,
                ".crs_stack" => kernel.crs_stack_size = Some(arg(1, "CRS stack size")?),
                ".externs" => kernel.externs = words[1..].to_vec(),
                ".syscalls" => kernel.syscall_offsets = numbers(*line, &words[1..], "call offset")?,
                ".frame_program" => kernel.frame_program = Some(hex_arg(*line, words.get(1), "call-frame instructions")?),
                ".constant2" => kernel.constant2 = hex_arg(*line, words.get(1), "constant bank 2 bytes")?,
                ".function" => kernel.functions.push(read_function(*line, words)?),
                ".target" | ".virtual" => return Err(ListingError { line: *line, message: format!("'{}' belongs before the first '.kernel'", words[0]) }),
                other => return Err(ListingError { line: *line, message: format!("unknown directive '{other}'") }),
            }
        }
        kernel.registers = registers.ok_or_else(|| ListingError { line: b.line, message: format!("kernel {} needs '.registers N'", kernel.name) })?;
        kernel.exit_offsets = match exits {
            Some(e) => e,
            None => (0u32..).zip(&kernel.code).filter(|(_, w)| isa::opcode::mnemonic(**w, sm) == Some("EXIT")).map(|(i, _)| i * 16).collect(),
        };
        kernels.push(kernel);
    }
    if kernels.is_empty() {
        return Err(ListingError { line: 1, message: "the listing has no kernel".into() });
    }
    let isa_class = match &parsed.isa_class {
        Some((line, text)) => u8::try_from(number(*line, Some(text), "ISA class")?).map_err(|_| ListingError { line: *line, message: format!("ISA class {text} does not fit a byte") })?,
        None => 1,
    };
    Ok(Module { sm: number_of(sm), virtual_sm, tool, kernels, globals, constants, global_addresses: addresses, isa_class, flags_top, line_info, merc })
}

/// `.global NAME OFFSET SIZE ALIGN [visible] [HEX]`, `.const` (same, the
/// bytes required) and `.address NAME` lines.
fn read_variables(lines: &[(usize, Vec<String>)]) -> Result<(Vec<Variable>, Vec<Variable>, Vec<String>), ListingError> {
    let (mut globals, mut constants, mut addresses) = (Vec::new(), Vec::new(), Vec::new());
    for (line, words) in lines {
        let line = *line;
        if words[0] == ".address" {
            match &words[..] {
                [_, name] => addresses.push(name.clone()),
                _ => return Err(ListingError { line, message: "'.address' takes one global's name".into() }),
            }
            continue;
        }
        let name = words.get(1).cloned().ok_or(ListingError { line, message: format!("'{}' needs a name", words[0]) })?;
        let offset = number(line, words.get(2), "offset")?;
        let size = number(line, words.get(3), "size")?;
        let align = number(line, words.get(4), "alignment")?;
        let mut rest = &words[5.min(words.len())..];
        let visible = rest.first().is_some_and(|w| w == "visible");
        if visible {
            rest = &rest[1..];
        }
        let init = match rest {
            [] => None,
            [hex] => Some(parse_hex(hex).ok_or(ListingError { line, message: format!("'{hex}' is not hex bytes") })?),
            _ => return Err(ListingError { line, message: "too many fields".into() }),
        };
        if init.as_ref().is_some_and(|i| i.len() as u64 != size) {
            return Err(ListingError { line, message: format!("{name}: the initial bytes are not {size} bytes") });
        }
        let v = Variable { name, offset, size, align, init, visible };
        if words[0] == ".const" {
            if v.init.is_none() {
                return Err(ListingError { line, message: "'.const' needs its bytes".into() });
            }
            constants.push(v);
        } else {
            globals.push(v);
        }
    }
    Ok((globals, constants, addresses))
}

/// Every word as a 32-bit number.
fn numbers(line: usize, words: &[String], what: &str) -> Result<Vec<u32>, ListingError> {
    words.iter().map(|w| number_u32(line, Some(w), what)).collect()
}

fn hex_arg(line: usize, text: Option<&String>, what: &str) -> Result<Vec<u8>, ListingError> {
    let t = text.ok_or_else(|| ListingError { line, message: format!("{what} are missing") })?;
    if t == "-" {
        return Ok(Vec::new());
    }
    parse_hex(t).ok_or_else(|| ListingError { line, message: format!("{what} '{t}' are not hex bytes") })
}

/// `.function NAME OFFSET SIZE FRAME_SIZE RETURN_REGISTER LOCATION PROGRAM [visible]`.
fn read_function(line: usize, words: &[String]) -> Result<Function, ListingError> {
    let name = words.get(1).cloned().ok_or(ListingError { line, message: "'.function' needs a name".into() })?;
    let visible = match words.get(8).map(String::as_str) {
        None => false,
        Some("visible") if words.len() == 9 => true,
        Some(other) => return Err(ListingError { line, message: format!("unexpected '{other}'") }),
    };
    let register = words.get(5).ok_or(ListingError { line, message: "the return register is missing".into() })?;
    let return_register = register.strip_prefix('R').and_then(|n| n.parse().ok()).filter(|&n: &u32| n < 256).ok_or_else(|| ListingError { line, message: format!("return register '{register}' is not R0..R255") })?;
    Ok(Function {
        name,
        offset: number_u32(line, words.get(2), "function offset")?,
        size: number_u32(line, words.get(3), "function size")?,
        visible,
        frame_size: number_u32(line, words.get(4), "frame size")?,
        return_register,
        frame_location: number(line, words.get(6), "frame location")?,
        frame_program: hex_arg(line, words.get(7), "call-frame instructions")?,
    })
}

/// `.debug NAME`, then `.debug_bytes HEX` (concatenated) and
/// `.debug_reloc OFFSET SYMBOL TYPE ADDEND` lines for it.
fn read_line_info(lines: &[(usize, Vec<String>)]) -> Result<Vec<DebugSection>, ListingError> {
    let mut out: Vec<DebugSection> = Vec::new();
    for (line, words) in lines {
        let line = *line;
        let err = |message: String| ListingError { line, message };
        if words[0] == ".debug" {
            let [_, name] = &words[..] else { return Err(err("'.debug' takes a section name".into())) };
            out.push(DebugSection { name: name.clone(), bytes: Vec::new(), relocations: Vec::new(), parameters: Vec::new() });
            continue;
        }
        let Some(section) = out.last_mut() else { return Err(err(format!("'{}' before '.debug NAME'", words[0]))) };
        if words[0] == ".debug_bytes" {
            section.bytes.extend(hex_arg(line, words.get(1), "bytes")?);
            if words.len() > 2 {
                return Err(err("'.debug_bytes' takes one hex string".into()));
            }
            continue;
        }
        let [_, offset, symbol, kind, addend] = &words[..] else { return Err(err("'.debug_reloc' takes an offset, a symbol, a type and an addend".into())) };
        let addend = match addend.strip_prefix('-') {
            Some(n) => number(line, Some(&n.to_string()), "addend")?.wrapping_neg() as i64,
            None => number(line, Some(addend), "addend")? as i64,
        };
        section.relocations.push(CodeAddress { offset: number(line, Some(offset), "offset")?, symbol: symbol.clone(), kind: number_u32(line, Some(kind), "relocation type")?, addend });
    }
    Ok(out)
}

fn parse_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// `"name" "version" "build" "arguments"` (no quotes inside the strings).
fn parse_tool(line: usize, text: &str) -> Result<ToolInfo, ListingError> {
    let err = || ListingError { line, message: "'.tool' takes four quoted strings: name, version, build, arguments".into() };
    let mut fields = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let body = rest.strip_prefix('"').ok_or_else(err)?;
        let end = body.find('"').ok_or_else(err)?;
        fields.push(body[..end].to_string());
        rest = body[end + 1..].trim_start();
    }
    let [name, version, branch, arguments] = <[String; 4]>::try_from(fields).map_err(|_| err())?;
    Ok(ToolInfo { name, version, branch, arguments })
}

/// Writes the module directives (`.target`, `.virtual`, `.tool`).
pub fn write_module_header(out: &mut String, m: &Module) {
    out.push_str(&format!(".target sm_{}\n.virtual sm_{}\n", m.sm, m.virtual_sm));
    let t = &m.tool;
    if tool_printable(t) {
        out.push_str(&format!(".tool \"{}\" \"{}\" \"{}\" \"{}\"\n", t.name, t.version, t.branch, t.arguments));
    }
    if m.isa_class != 1 {
        out.push_str(&format!(".isa_class {}\n", m.isa_class));
    }
    if m.flags_top != 6 {
        out.push_str(&format!(".elf_flags_top {:#x}\n", m.flags_top));
    }
    for (directive, vars) in [(".global", &m.globals), (".const", &m.constants)] {
        for v in vars {
            out.push_str(&format!("{directive} {} {:#x} {:#x} {}", v.name, v.offset, v.size, v.align));
            if v.visible {
                out.push_str(" visible");
            }
            if let Some(init) = &v.init {
                out.push(' ');
                out.extend(init.iter().map(|b| format!("{b:02x}")));
            }
            out.push('\n');
        }
    }
    for name in &m.global_addresses {
        out.push_str(&format!(".address {name}\n"));
    }
    for d in &m.line_info {
        out.push_str(&format!(".debug {}\n", d.name));
        for chunk in d.bytes.chunks(32) {
            out.push_str(".debug_bytes ");
            out.extend(chunk.iter().map(|b| format!("{b:02x}")));
            out.push('\n');
        }
        for r in &d.relocations {
            out.push_str(&format!(".debug_reloc {:#x} {} {} {}\n", r.offset, r.symbol, r.kind, r.addend));
        }
    }
    if !m.merc.is_empty() {
        out.push_str("// the merc sections, carried as they are (section-listing syntax)\n");
        section_listing::write_sections(out, None, &m.merc, false);
    }
}

/// Writes the directives of one kernel (the code follows, written by the caller).
pub fn write_kernel_header(out: &mut String, k: &Kernel) {
    out.push_str(&format!(".kernel {}\n", k.name));
    for p in &k.params {
        out.push_str(&format!(".param {:#x} {}", p.offset, p.size));
        if p.flags != 0 {
            out.push_str(&format!(" {:#x}", p.flags));
        }
        out.push('\n');
    }
    out.push_str(&format!(".registers {}\n", k.registers));
    if k.barriers > 0 {
        out.push_str(&format!(".barriers {}\n", k.barriers));
    }
    if k.shared_bytes > 0 {
        out.push_str(&format!(".shared {:#x}\n", k.shared_bytes));
    }
    if k.shared_align != 4 {
        out.push_str(&format!(".shared_align {}\n", k.shared_align));
    }
    if k.dynamic_shared {
        out.push_str(".dynamic_shared\n");
    }
    if k.frame_size > 0 {
        out.push_str(&format!(".frame {:#x}\n", k.frame_size));
    }
    if k.min_stack_size > 0 {
        out.push_str(&format!(".min_stack {:#x}\n", k.min_stack_size));
    }
    if let Some(n) = k.max_registers {
        out.push_str(&format!(".maxnreg {n}\n"));
    }
    if let Some([x, y, z]) = k.required_threads {
        out.push_str(&format!(".reqntid {x} {y} {z}\n"));
    }
    if let Some([x, y, z]) = k.max_threads {
        out.push_str(&format!(".maxntid {x} {y} {z}\n"));
    }
    let list = |l: &[u32]| l.iter().map(|e| format!("{e:#x}")).collect::<Vec<_>>().join(" ");
    out.push_str(&format!(".exits {}\n", list(&k.exit_offsets)));
    for (directive, l) in [(".warp_wide", &k.warp_wide_offsets), (".coop_group", &k.coop_group_offsets), (".coop_group_masks", &k.coop_group_mask_registers)] {
        if !l.is_empty() {
            out.push_str(&format!("{directive} {}\n", list(l)));
        }
    }
    if let Some(n) = k.crs_stack_size {
        out.push_str(&format!(".crs_stack {n:#x}\n"));
    }
    if !k.externs.is_empty() {
        out.push_str(&format!(".externs {}\n", k.externs.join(" ")));
    }
    if !k.syscall_offsets.is_empty() {
        out.push_str(&format!(".syscalls {}\n", list(&k.syscall_offsets)));
    }
    let hex = |b: &[u8]| if b.is_empty() { "-".to_string() } else { b.iter().map(|x| format!("{x:02x}")).collect() };
    if !k.constant2.is_empty() {
        out.push_str(&format!(".constant2 {}\n", hex(&k.constant2)));
    }
    if let Some(p) = &k.frame_program {
        out.push_str(&format!(".frame_program {}\n", hex(p)));
    }
    for f in &k.functions {
        out.push_str(&format!(".function {} {:#x} {:#x} {:#x} R{} {:#x} {}{}\n", f.name, f.offset, f.size, f.frame_size, f.return_register, f.frame_location, hex(&f.frame_program), if f.visible { " visible" } else { "" }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = "\
.target sm_90
.virtual sm_75
.kernel k2          // a kernel
.param 0x0 8
.param 8 4
.registers 8
.shared 0x80
k2:
        /*0000*/ [B------:R-:W-:-:S01] NOP ;
        /*0010*/ [B------:R-:W-:-:S05] EXIT ;
";

    #[test]
    fn reads_directives_and_finds_exits() {
        let sm = Sm::parse_sm("sm_90").unwrap();
        let m = read_module(LISTING, sm).expect("listing reads");
        assert_eq!((m.sm, m.virtual_sm), (90, 75));
        let k = &m.kernels[0];
        assert_eq!(k.params, vec![Param::new(0, 8), Param::new(8, 4)]);
        assert_eq!((k.registers, k.shared_bytes, k.code.len()), (8, 0x80, 2));
        assert_eq!(k.exit_offsets, vec![0x10]);
        let mut header = String::new();
        write_kernel_header(&mut header, k);
        assert!(header.starts_with(".kernel k2\n.param 0x0 8\n.param 0x8 4\n.registers 8\n.shared 0x80\n.exits 0x10\n"), "{header}");
    }

    #[test]
    fn errors_name_the_line() {
        let sm = Sm::parse_sm("sm_90").unwrap();
        let e = read_module(&LISTING.replace(".registers 8", ".registers eight"), sm).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(e.message.contains("'eight'"), "{}", e.message);
        let e = read_module(&LISTING.replace(".registers 8", ".registers 256"), sm).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (6, "256 registers: the limit is 255"));
        let e = read_module(&LISTING.replace(".shared 0x80", ".bogus 1"), sm).unwrap_err();
        assert_eq!(e.line, 7);
        let e = read_module(&LISTING.replace(".registers 8\n", ""), sm).unwrap_err();
        assert!(e.message.contains("needs '.registers N'"), "{}", e.message);
        let e = read_module(&LISTING.replace("EXIT", "EXITT"), sm).unwrap_err();
        assert_eq!(e.line, 10);
        let e = read_module(LISTING, Sm::parse_sm("sm_80").unwrap()).unwrap_err();
        assert_eq!(e.line, 1);
    }
}
