//! Writes a [`Module`] as a cubin laid out the way ptxas lays out the same
//! program. The section order, symbol order, attribute records and their
//! order follow ptxas 13.5 (measured on its cubins; `tests/cubin_build.rs`
//! compares against it):
//! * sm_90 and later: `.shstrtab .strtab .symtab .debug_frame
//!   .note.nv.tkinfo .note.nv.cuinfo .nv.info .nv.compat .nv.info.<k>…
//!   .nv.callgraph [.rela.text.<k>] [.rela.nv.constant4] .rela.debug_frame
//!   [.nv.constant4] [.nv.constant3] .text.<k>… [.nv.global.init]
//!   [.nv.shared.<k>] .nv.shared.reserved.0 [.nv.global] .nv.constant0.<k>…`;
//! * before sm_90: no `.nv.compat`, `.nv.rel.action` and `.rel.*` instead
//!   of `.rela.*`, the parameter banks before the code, and the register
//!   count also in the code section's `sh_info` (bits 24–31).
//!
//! Line information goes right after `.debug_frame` (its relocation
//! sections before `.rela.debug_frame`), the sm_100+ merc sections after
//! everything else; device functions in a kernel's code get symbols, frame
//! sizes and `.debug_frame` entries of their own.
//!
//! Module variables go to `.nv.global.init` / `.nv.global` (globals),
//! `.nv.constant3` (`.const`) and, for the addresses the code loads,
//! `.nv.constant4` with one `R_CUDA_64` relocation per entry.

use super::elf::{self, Content, Elf, Header, Placement, Rela, Section, StringTable, Symbol};
use super::info::{Attribute, attr};
use super::module::{Function, Kernel, Module, ToolInfo, Variable, elf_flags, param_base, reserved_shared};
use object::elf as e;

/// `.nv.compat` as ptxas 13.5 writes it (the same records for every kernel
/// shape measured; `0x07` only from sm_100).
fn compat_records(sm: u32, isa_class: u8) -> Vec<Attribute> {
    let mut r = vec![Attribute::byte(0x09, 0), Attribute::byte(0x0c, 0), Attribute::byte(0x02, isa_class), Attribute::half(0x0d, 0x0101)];
    if sm >= 100 {
        r.push(Attribute::half(0x07, 0x0101));
    }
    r.push(Attribute::byte(0x03, 0));
    // CAN_FASTPATH_FINALIZE: 0 on sm_90, 9 on sm_100, 0x50 on sm_120
    // (measured; SMs in between take their family's value).
    let fastpath = match sm {
        ..100 => 0,
        100..120 => 9,
        _ => 0x50,
    };
    r.push(Attribute::words(0x0b, &[fastpath, 0]));
    r.push(Attribute::half(0x0e, 0x0440));
    r
}

/// `.nv.callgraph`: ptxas writes four `<0, -n>` entries for the CUDA
/// runtime's reserved callees even when nothing is called, and a
/// `<caller, callee>` pair of symbol indices after the first for each call
/// of a function outside the module (measured with `vprintf`, sm_75 to
/// sm_120; calls of device functions placed in the caller's section get
/// none).
fn callgraph(edges: &[(u32, u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    for n in 1..=4i32 {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(-n).to_le_bytes());
        if n == 1 {
            for &(caller, callee) in edges {
                out.extend_from_slice(&caller.to_le_bytes());
                out.extend_from_slice(&callee.to_le_bytes());
            }
        }
    }
    out
}

/// A debug section's bytes with the constant bank 0 addresses of the
/// kernel parameters it names filled in. A parameter of a kernel the
/// module does not hold stays 0.
fn debug_bytes(d: &super::module::DebugSection, module: &Module) -> Vec<u8> {
    let mut bytes = d.bytes.clone();
    // REL entries carry no addend: the bytes hold it (ptxas's
    // `.rel.debug_loc`, measured).
    if !with_addends(&d.name, module.sm >= 90) {
        for r in &d.relocations {
            if let Some(slot) = bytes.get_mut(r.offset as usize..r.offset as usize + 8) {
                slot.copy_from_slice(&r.addend.to_le_bytes());
            }
        }
    }
    for p in &d.parameters {
        let Some(param) = module.kernels.iter().find(|k| k.name == p.kernel).and_then(|k| k.params.get(p.index)) else { continue };
        let value = i64::from(param_base(module.sm) + param.offset) + p.addend;
        let width = usize::from(p.width).min(8);
        if let Some(slot) = bytes.get_mut(p.offset as usize..p.offset as usize + width) {
            slot.copy_from_slice(&value.to_le_bytes()[..width]);
        }
    }
    bytes
}

/// e_flags' top byte: the module's, but 0x0c where the cubin holds DWARF
/// beyond the line tables (copied from `-G` PTX). What the bits mean is
/// not known; ptxas writes 0x0e with `-g` and 0x0d with `-lineinfo` on
/// such PTX, with register maps (`.nv_debug_info_reg_sass`) this crate
/// does not write. cuobjdump 13.5 `-elf` reads our cubins of nvcc `-G`
/// PTX (saxpy, switch_cases, warp_vote, sgemm_tiled, bitops,
/// vector_loads) at sm_80, sm_90 and sm_120 with 0x0c only: sm_90 ones
/// are "Invalid ELF" with 0x09, 0x0a or 0x0b, several with 0x0d, sm_120
/// ones with 0x0d (measured by patching the byte).
///
/// With the register maps written (`-g`), ptxas's 0x0e: cuobjdump 13.5
/// reads our sm_90 `-g` cubin of `scale.sm_75.ptx` with it and calls the
/// same bytes "Invalid ELF" with 0x0c (measured by patching the byte).
fn flags_top(module: &Module) -> u8 {
    if module.line_info.iter().any(|d| d.name == ".nv_debug_info_reg_sass") {
        return 0x0e;
    }
    let full_dwarf = module.line_info.iter().any(|d| !matches!(d.name.as_str(), ".debug_line" | ".debug_str" | ".nv_debug_line_sass" | ".nv_debug_ptx_txt"));
    if full_dwarf { 0x0c } else { module.flags_top }
}

/// Whether a debug section's relocations are RELA entries: from sm_90
/// all of them; below, `.debug_info`'s (`.rela.debug_info` at sm_75 and
/// sm_80 beside `.rel.debug_line` and `.rel.debug_loc`; measured).
fn with_addends(section: &str, modern: bool) -> bool {
    modern || section == ".debug_info"
}

/// The `.debug_frame` CIE every ptxas cubin starts with (bytes measured on
/// ptxas 13.5 output: version 3, code alignment 4, data alignment -4,
/// return address column 0xffffffff (unsigned LEB128), CFA = R1 + 0).
const CIE: [u8; 40] = [
    0xff, 0xff, 0xff, 0xff, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03, 0x00, 0x04, 0x7c, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0c, 0x81, 0x80,
    0x80, 0x28, 0x00, 0x08, 0xff, 0x81, 0x80, 0x28,
];
const CIE_TAIL: [u8; 8] = [0x08, 0x81, 0x80, 0x80, 0x28, 0x00, 0x00, 0x00];

/// One FDE per kernel covering its code; the CFA rule never changes in a
/// kernel without calls, so the instructions only restate it after the
/// first exit (ptxas's form: advance to the first EXIT, advance one
/// instruction, `DW_CFA_def_cfa R1, 0`).
pub(crate) fn fde(sm: u32, cie_at: u64, code_bytes: u64, first_exit: Option<u32>) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&cie_at.to_le_bytes()); // CIE pointer (64-bit DWARF)
    body.extend_from_slice(&0u64.to_le_bytes()); // initial location (relocated)
    body.extend_from_slice(&code_bytes.to_le_bytes());
    match first_exit {
        Some(exit) if sm >= 90 => {
            body.push(0x04); // DW_CFA_advance_loc4
            body.extend_from_slice(&(exit / 4).to_le_bytes());
            body.push(0x04);
            body.extend_from_slice(&4u32.to_le_bytes());
            body.extend_from_slice(&[0x0c, 0x81, 0x80, 0x80, 0x28, 0x00]); // def_cfa R1, 0
        }
        Some(exit) => {
            // Before sm_90 ptxas first steps over the instruction that loads
            // the stack pointer, and ends with an advance of 0x3ffffffc units
            // (-16 bytes in 30 bits; bytes as measured).
            body.push(0x04);
            body.extend_from_slice(&4u32.to_le_bytes());
            body.push(0x04);
            body.extend_from_slice(&(exit / 4).to_le_bytes());
            body.extend_from_slice(&[0x0c, 0x81, 0x80, 0x80, 0x28, 0x00]);
            body.push(0x04);
            body.extend_from_slice(&0x3fff_fffcu32.to_le_bytes());
        }
        None => {}
    }
    while (body.len() + 4) % 8 != 0 {
        body.push(0); // DW_CFA_nop
    }
    let mut out = vec![0xff, 0xff, 0xff, 0xff]; // 64-bit DWARF: u64 length follows
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// A frame description entry with given call-frame instructions (padded
/// with `DW_CFA_nop` to a multiple of 8 bytes, as ptxas pads).
fn frame_entry(cie_at: u64, range: u64, program: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&cie_at.to_le_bytes());
    body.extend_from_slice(&0u64.to_le_bytes()); // initial location (relocated)
    body.extend_from_slice(&range.to_le_bytes());
    body.extend_from_slice(program);
    while (body.len() + 4) % 8 != 0 {
        body.push(0);
    }
    let mut out = vec![0xff, 0xff, 0xff, 0xff];
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Call-frame instructions for a function whose canonical frame address
/// is R1 plus `offset` from byte `at` of its code on, for each `(at,
/// offset)` in order: `DW_CFA_advance_loc4` by the bytes since the last
/// change (in units of the CIE's code alignment, 4), then `DW_CFA_def_cfa
/// R1, offset` (the forms ptxas uses in its device functions' entries).
pub fn frame_program(changes: &[(u32, u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut last = 0;
    for &(at, offset) in changes {
        out.push(0x04);
        out.extend_from_slice(&((at.saturating_sub(last)) / 4).to_le_bytes());
        last = at;
        out.push(0x0c);
        out.extend_from_slice(&dwarf_register(1));
        let mut v = offset;
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
    }
    out
}

/// A register operand in ptxas's DWARF: the register number with 0x28 in
/// bits 21–27, as a 4-byte ULEB128 (measured: R1 is `81 80 80 28`).
fn dwarf_register(r: u32) -> [u8; 4] {
    let v = (r & 0x1f_ffff) | (0x28 << 21);
    [(v & 0x7f) as u8 | 0x80, ((v >> 7) & 0x7f) as u8 | 0x80, ((v >> 14) & 0x7f) as u8 | 0x80, (v >> 21) as u8]
}

/// The CIE of a device function whose return address arrives in
/// `return_register`, and the offset in it of the address its expression
/// holds (relocated to the kernel): return address column R256, CFA = R1,
/// R255, R1 and the return register unchanged, and R256 = that address +
/// the return register (bytes measured on ptxas 13.5 output).
pub(crate) fn function_cie(return_register: u32) -> (Vec<u8>, u64) {
    let ra = dwarf_register(256);
    let ret = dwarf_register(return_register);
    let mut body = Vec::new();
    body.extend_from_slice(&u64::MAX.to_le_bytes()); // CIE id
    body.extend_from_slice(&[0x03, 0x00, 0x04, 0x7c]); // version 3, no augmentation, factors 4 and -4
    body.extend_from_slice(&ra);
    body.push(0x0c); // DW_CFA_def_cfa R1, 0
    body.extend_from_slice(&dwarf_register(1));
    body.push(0);
    for r in [dwarf_register(255), dwarf_register(1), ret] {
        body.push(0x08); // DW_CFA_same_value
        body.extend_from_slice(&r);
    }
    body.push(0x16); // DW_CFA_val_expression R256, 16-byte block
    body.extend_from_slice(&ra);
    body.push(16);
    body.push(0x03); // DW_OP_addr
    let address_at = 12 + body.len() as u64;
    body.extend_from_slice(&0u64.to_le_bytes());
    body.push(0x92); // DW_OP_bregx ret, 0
    body.extend_from_slice(&ret);
    body.push(0);
    body.push(0x22); // DW_OP_plus
    while (body.len() + 4) % 8 != 0 {
        body.push(0);
    }
    let mut out = vec![0xff, 0xff, 0xff, 0xff];
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    (out, address_at)
}

/// `.note.nv.tkinfo` (note type 2000, "NVIDIA Corp"): a version word, then
/// offsets of four NUL-terminated strings in a string area (layout measured
/// on ptxas 13.5 output).
fn tool_note(tool: &ToolInfo) -> elf::Note {
    let mut strings = vec![0u8];
    let mut offsets = Vec::new();
    for s in [&tool.name, &tool.version, &tool.branch, &tool.arguments] {
        offsets.push(strings.len() as u32);
        strings.extend_from_slice(s.as_bytes());
        strings.push(0);
    }
    let mut desc = Vec::new();
    desc.extend_from_slice(&2u32.to_le_bytes()); // note version
    desc.extend_from_slice(&0u32.to_le_bytes());
    for o in offsets {
        desc.extend_from_slice(&o.to_le_bytes());
    }
    desc.extend_from_slice(&strings);
    desc.resize(desc.len().next_multiple_of(4), 0); // ptxas counts the padding
    elf::Note { name: b"NVIDIA Corp".to_vec(), kind: 2000, desc }
}

/// `.note.nv.cuinfo` (note type 1000): version 2, the virtual SM, and the
/// toolkit version 13.5 as 0x87 (measured).
fn cuda_note(virtual_sm: u32) -> elf::Note {
    let mut desc = Vec::new();
    desc.extend_from_slice(&2u16.to_le_bytes());
    desc.extend_from_slice(&(virtual_sm as u16).to_le_bytes());
    desc.extend_from_slice(&0x87u32.to_le_bytes());
    elf::Note { name: b"NVIDIA Corp".to_vec(), kind: 1000, desc }
}

/// Why a module cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Section and symbol lists under construction.
struct Builder {
    sections: Vec<Section>,
    symbols: Vec<Symbol>,
    section_names: StringTable,
    strings: StringTable,
}

impl Builder {
    fn section(&mut self, name: &str, kind: u32, flags: u64, align: u64, content: Content) -> u32 {
        self.section_names.intern(name);
        self.sections.push(Section { name: name.into(), kind, flags, addr: 0, link: 0, info: 0, align, entsize: 0, content, placement: Placement::Next });
        self.sections.len() as u32
    }

    fn get(&mut self, index: u32) -> &mut Section {
        &mut self.sections[index as usize - 1]
    }

    fn symbol(&mut self, name: Option<&str>, info: u8, other: u8, section: u16, size: u64) -> u32 {
        if let Some(n) = name {
            self.strings.intern(n);
        }
        self.symbols.push(Symbol { name: name.map(str::to_string), info, other, section, value: 0, size });
        self.symbols.len() as u32
    }

    fn section_symbol(&mut self, section: u32) -> u32 {
        let name = self.sections[section as usize - 1].name.clone();
        self.symbol(Some(&name), e::STT_SECTION.0, 0, section as u16, 0)
    }
}

/// `st_other` of a kernel symbol (CUDA's entry flag).
pub(crate) const STO_CUDA_ENTRY: u8 = 0x10;
const R_CUDA_64: u32 = 2;
/// The relocation that puts a texref's handle into a kernel's bank word
/// (ptxas 13.5: type 6 against the STT_CUDA_TEXTURE symbol).
const R_CUDA_TEX_HANDLE: u32 = 6;
/// The relocation that puts a surfref's handle into a kernel's bank word
/// (ptxas 13.5: type 52 against the STT_CUDA_SURFACE symbol).
const R_CUDA_SURF_HANDLE: u32 = 52;
/// `st_info` type of a surfref symbol (ptxas 13.5: `CUDA_SURFACE`).
const STT_CUDA_SURFACE: u8 = 12;
/// `st_info` type of a texref symbol (ptxas 13.5: `CUDA_TEXTURE`).
const STT_CUDA_TEXTURE: u8 = 10;
const SHF_CUDA_NOTE_OS: u64 = 0x100_0000 | 0x40;

/// Builds the cubin of `module`.
pub fn build(module: &Module) -> Result<Elf, BuildError> {
    let sm = module.sm;
    if !(75..=121).contains(&sm) {
        return Err(BuildError(format!("sm_{sm} is outside sm_75..sm_121")));
    }
    if module.kernels.is_empty() {
        return Err(BuildError("a module needs at least one kernel".into()));
    }
    for v in module.globals.iter().chain(&module.constants) {
        if v.init.as_ref().is_some_and(|i| i.len() as u64 != v.size) {
            return Err(BuildError(format!("variable {}: {} initial bytes for {} bytes", v.name, v.init.as_ref().map_or(0, Vec::len), v.size)));
        }
        if v.size > 1 << 32 || v.offset > 1 << 32 || !v.align.is_power_of_two() {
            return Err(BuildError(format!("variable {}: offset, size or alignment out of range", v.name)));
        }
    }
    // Functions outside the module, in order of first mention.
    let mut externs: Vec<&str> = Vec::new();
    for k in &module.kernels {
        for x in &k.externs {
            if x.is_empty() || x.contains(['\0', ' ']) || module.globals.iter().chain(&module.constants).any(|g| &g.name == x) || module.kernels.iter().any(|k| &k.name == x) {
                return Err(BuildError(format!("kernel {}: '{x}' cannot be the symbol of a function outside the module", k.name)));
            }
            if !externs.contains(&x.as_str()) {
                externs.push(x);
            }
        }
    }
    for name in &module.global_addresses {
        if !module.globals.iter().any(|g| &g.name == name) && !externs.contains(&name.as_str()) {
            return Err(BuildError(format!("constant bank 4 holds the address of {name}, which is not a global")));
        }
    }
    for k in &module.kernels {
        let bytes: u64 = k.params.iter().map(|p| u64::from(p.offset) + u64::from(p.size)).max().unwrap_or(0);
        if bytes > 0x7ff8 {
            return Err(BuildError(format!("kernel {}: {bytes} bytes of parameters exceed the 32 KiB bank", k.name)));
        }
        // Hardware limits: 255 general registers, 16 named barriers.
        if k.registers > 255 || k.max_registers.is_some_and(|m| m > 255) {
            return Err(BuildError(format!("kernel {}: more than 255 registers", k.name)));
        }
        if k.constant2.len() > 0x1_0000 {
            return Err(BuildError(format!("kernel {}: {} bytes of constant bank 2 exceed the 64 KiB bank", k.name, k.constant2.len())));
        }
        if k.barriers > 16 {
            return Err(BuildError(format!("kernel {}: {} barriers (at most 16)", k.name, k.barriers)));
        }
        let code_bytes = k.code.len() as u64 * 16;
        for f in &k.functions {
            if u64::from(f.offset) + u64::from(f.size) > code_bytes || f.offset == 0 || f.name.is_empty() || f.name.contains(['\0', ' ']) {
                return Err(BuildError(format!("kernel {}: device function '{}' must be named and lie inside the kernel's code after its start", k.name, f.name)));
            }
        }
        if k.name.is_empty() || k.name.contains(['\0', ' ']) {
            return Err(BuildError(format!("kernel name '{}' cannot be a symbol", k.name)));
        }
    }
    let modern = sm >= 90;
    let mut b = Builder { sections: Vec::new(), symbols: Vec::new(), section_names: StringTable::default(), strings: StringTable::default() };
    let shstrtab = b.section(".shstrtab", e::SHT_STRTAB.0, 0, 1, Content::Shstrtab);
    let strtab = b.section(".strtab", e::SHT_STRTAB.0, 0, 1, Content::Strtab);
    let symtab = b.section(".symtab", e::SHT_SYMTAB.0, 0, 8, Content::Symtab);
    let _ = shstrtab;
    b.get(symtab).link = strtab;
    b.get(symtab).entsize = 24;
    let debug_frame = b.section(".debug_frame", e::SHT_PROGBITS.0, 0, 1, Content::Bytes(Vec::new()));
    // Line information follows the frame (measured with -lineinfo).
    let line_sections: Vec<u32> = module.line_info.iter().map(|d| b.section(&d.name, e::SHT_PROGBITS.0, 0, 1, Content::Bytes(debug_bytes(d, module)))).collect();
    let tkinfo = b.section(".note.nv.tkinfo", e::SHT_NOTE.0, 0x200_0000, 4, Content::Notes(vec![tool_note(&module.tool)]));
    let cuinfo = b.section(".note.nv.cuinfo", e::SHT_NOTE.0, if modern { SHF_CUDA_NOTE_OS } else { 0x100_0000 }, 4, Content::Notes(vec![cuda_note(module.virtual_sm)]));
    b.get(cuinfo).link = tkinfo;
    let info = b.section(".nv.info", elf::SHT_CUDA_INFO, 0, 4, Content::Info(Vec::new()));
    b.get(info).link = symtab;
    if modern {
        // The note's sh_info is the index of `.nv.compat` (8 without line
        // information, measured).
        let compat = b.section(".nv.compat", elf::SHT_CUDA_COMPAT_INFO, 0, 4, Content::Info(compat_records(sm, module.isa_class)));
        b.get(cuinfo).info = compat;
    }
    let kernel_infos: Vec<u32> = module
        .kernels
        .iter()
        .map(|k| {
            let i = b.section(&format!(".nv.info.{}", k.name), elf::SHT_CUDA_INFO, u64::from(e::SHF_INFO_LINK.0), 4, Content::Info(Vec::new()));
            b.get(i).link = symtab;
            i
        })
        .collect();
    let callgraph_section = b.section(".nv.callgraph", 0x7000_0001, 0, 4, Content::Bytes(callgraph(&[])));
    b.get(callgraph_section).link = symtab;
    b.get(callgraph_section).entsize = 8;
    if !modern {
        // `.nv.rel.action` (type 0x7000000b): the same 16 bytes in every
        // pre-sm_90 ptxas cubin measured.
        let action = b.section(".nv.rel.action", 0x7000_000b, 0, 8, Content::Bytes(vec![0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36]));
        b.get(action).entsize = 8;
    }
    // ptxas opens an (empty) relocation section for the code of a kernel
    // with shared memory or device functions on sm_90+.
    let code_rels: Vec<Option<u32>> = module
        .kernels
        .iter()
        .map(|k| {
            (modern && (has_shared(k) || !k.functions.is_empty())).then(|| {
                let r = b.section(&format!(".rela.text.{}", k.name), e::SHT_RELA.0, u64::from(e::SHF_INFO_LINK.0), 8, Content::Rela(Vec::new()));
                b.get(r).link = symtab;
                b.get(r).entsize = 24;
                r
            })
        })
        .collect();
    let address_rel = (!module.global_addresses.is_empty()).then(|| {
        let (name, kind, entsize) = if modern { (".rela.nv.constant4", e::SHT_RELA.0, 24) } else { (".rel.nv.constant4", e::SHT_REL.0, 16) };
        let r = b.section(name, kind, u64::from(e::SHF_INFO_LINK.0), 8, Content::Bytes(Vec::new()));
        b.get(r).link = symtab;
        b.get(r).entsize = entsize;
        r
    });
    let line_rels: Vec<Option<u32>> = module
        .line_info
        .iter()
        .zip(&line_sections)
        .map(|(d, &section)| {
            (!d.relocations.is_empty()).then(|| {
                // Below sm_90, REL entries (no addend), as for the frame,
                // but for the DWARF copied from the PTX.
                let (prefix, kind, entsize) = if with_addends(&d.name, modern) { (".rela", e::SHT_RELA.0, 24) } else { (".rel", e::SHT_REL.0, 16) };
                let r = b.section(&format!("{prefix}{}", d.name), kind, u64::from(e::SHF_INFO_LINK.0), 8, Content::Rela(Vec::new()));
                b.get(r).link = symtab;
                b.get(r).info = section;
                b.get(r).entsize = entsize;
                r
            })
        })
        .collect();
    // A kernel with texref words: their relocations, REL below sm_90 and
    // RELA from sm_90 as for the frame, before the frame's (measured on
    // ZLUDA's tex_read_2d_float, sm_75..120).
    let texture_rels: Vec<Option<u32>> = module
        .kernels
        .iter()
        .map(|k| {
            (!k.textures.is_empty() || !k.surfaces.is_empty()).then(|| {
                let (prefix, kind, entsize) = if modern { (".rela", e::SHT_RELA.0, 24) } else { (".rel", e::SHT_REL.0, 16) };
                let r = b.section(&format!("{prefix}.nv.constant0.{}", k.name), kind, u64::from(e::SHF_INFO_LINK.0), 8, Content::Bytes(Vec::new()));
                b.get(r).link = symtab;
                b.get(r).entsize = entsize;
                r
            })
        })
        .collect();
    let frame_rel = if modern {
        let r = b.section(".rela.debug_frame", e::SHT_RELA.0, u64::from(e::SHF_INFO_LINK.0), 8, Content::Rela(Vec::new()));
        b.get(r).entsize = 24;
        r
    } else {
        let r = b.section(".rel.debug_frame", e::SHT_REL.0, u64::from(e::SHF_INFO_LINK.0), 8, Content::Bytes(Vec::new()));
        b.get(r).entsize = 16;
        r
    };
    b.get(frame_rel).link = symtab;
    b.get(frame_rel).info = debug_frame;

    let image = |vars: &[&Variable]| -> Vec<u8> {
        let end = vars.iter().map(|v| v.offset + v.size).max().unwrap_or(0);
        let mut bytes = vec![0u8; end as usize];
        for v in vars {
            if let Some(init) = &v.init {
                bytes[v.offset as usize..(v.offset + v.size) as usize].copy_from_slice(init);
            }
        }
        bytes
    };
    let max_align = |vars: &[&Variable], floor: u64| vars.iter().map(|v| v.align).max().unwrap_or(floor).max(floor);
    let address_bank = address_rel.map(|r| {
        let bank = b.section(".nv.constant4", e::SHT_PROGBITS.0, u64::from(e::SHF_ALLOC.0), 8, Content::Bytes(vec![0; module.global_addresses.len() * 8]));
        b.get(r).info = bank;
        bank
    });
    let constant_vars: Vec<&Variable> = module.constants.iter().collect();
    let constant_bank = (!constant_vars.is_empty()).then(|| b.section(".nv.constant3", e::SHT_PROGBITS.0, u64::from(e::SHF_ALLOC.0), max_align(&constant_vars, 4), Content::Bytes(image(&constant_vars))));
    let initialised: Vec<&Variable> = module.globals.iter().filter(|v| v.init.is_some()).collect();
    let zeroed: Vec<&Variable> = module.globals.iter().filter(|v| v.init.is_none()).collect();
    let text_flags = u64::from(e::SHF_ALLOC.0 | e::SHF_EXECINSTR.0);
    let bank_flags = u64::from(e::SHF_ALLOC.0 | e::SHF_INFO_LINK.0);
    // A kernel's bank 2 comes right before its bank 0, its section symbol
    // likewise (ptxas 13.5, sm_75 and sm_80, one and three kernels;
    // alignment 4 although its f64 entries are 8-byte aligned).
    let mut banks2: Vec<Option<u32>> = vec![None; module.kernels.len()];
    let mut bank = |b: &mut Builder, i: usize, k: &Kernel| {
        if !k.constant2.is_empty() {
            banks2[i] = Some(b.section(&format!(".nv.constant2.{}", k.name), e::SHT_PROGBITS.0, bank_flags, 4, Content::Bytes(k.constant2.clone())));
        }
        let params_end = u64::from(param_base(sm)) + k.params.iter().map(|p| u64::from(p.offset + p.size)).max().unwrap_or(0);
        // A texref's handle word ends the bank (ptxas: 0x174 bytes for a
        // word at 0x170 on sm_80).
        let size = k.textures.iter().chain(&k.surfaces).map(|(at, _)| u64::from(*at) + 4).max().unwrap_or(0).max(params_end);
        b.section(&format!(".nv.constant0.{}", k.name), e::SHT_PROGBITS.0, bank_flags, 4, Content::Bytes(vec![0; size as usize]))
    };
    let mut banks = Vec::new();
    // A bank that a texref's relocation fills is laid out as before sm_90
    // on every SM: before the code, its section symbol with the kernel's
    // (ptxas 13.5, ZLUDA's tex_read_2d_float on sm_90, 100 and 120).
    let early_banks = !modern || module.kernels.iter().any(|k| !k.textures.is_empty() || !k.surfaces.is_empty());
    if early_banks {
        for (i, k) in module.kernels.iter().enumerate() {
            banks.push(bank(&mut b, i, k));
        }
    }
    let mut texts = Vec::new();
    for k in &module.kernels {
        let code: Vec<u8> = k.code.iter().flat_map(|w| w.to_le_bytes()).collect();
        let t = b.section(&format!(".text.{}", k.name), e::SHT_PROGBITS.0, text_flags, 128, Content::Bytes(code));
        b.get(t).link = symtab;
        texts.push(t);
    }
    let data_flags = u64::from(e::SHF_WRITE.0 | e::SHF_ALLOC.0);
    let init_section = (!initialised.is_empty()).then(|| b.section(".nv.global.init", e::SHT_PROGBITS.0, data_flags, max_align(&initialised, 1), Content::Bytes(image(&initialised))));
    let zeroed_size = zeroed.iter().map(|v| v.offset + v.size).max().unwrap_or(0);
    // Below sm_90 `.nv.global` follows `.nv.global.init` directly; from
    // sm_90 on it comes after `.nv.shared.reserved.0` (measured).
    let mut zero_section = None;
    if !modern && !zeroed.is_empty() {
        zero_section = Some(b.section(".nv.global", e::SHT_NOBITS.0, data_flags, max_align(&zeroed, 1), Content::NoBits(zeroed_size)));
    }
    // The shared-memory sections; on sm_90+ the reserved area's comes after
    // the first kernel's (measured with several kernels).
    let mut shared = vec![None; module.kernels.len()];
    let mut reserved = None;
    for (i, k) in module.kernels.iter().enumerate() {
        if has_shared(k) {
            let size = reserved_shared(sm) + k.shared_bytes;
            let s = b.section(&format!(".nv.shared.{}", k.name), e::SHT_NOBITS.0, u64::from(e::SHF_WRITE.0 | e::SHF_ALLOC.0 | e::SHF_INFO_LINK.0), k.shared_align, Content::NoBits(size));
            b.get(s).info = texts[i];
            shared[i] = Some(s);
        }
        if i == 0 && modern {
            reserved = Some(b.section(".nv.shared.reserved.0", e::SHT_NOBITS.0, u64::from(e::SHF_WRITE.0 | e::SHF_ALLOC.0), 1, Content::NoBits(if sm >= 100 { 0x40 } else { 0 })));
        }
    }
    if modern && !zeroed.is_empty() {
        zero_section = Some(b.section(".nv.global", e::SHT_NOBITS.0, data_flags, max_align(&zeroed, 1), Content::NoBits(zeroed_size)));
    }
    if !early_banks {
        for (i, k) in module.kernels.iter().enumerate() {
            banks.push(bank(&mut b, i, k));
        }
    }
    for (i, &t) in texts.iter().enumerate() {
        if let Some(r) = code_rels[i] {
            b.get(r).info = t;
        }
        if let Some(c) = banks2[i] {
            b.get(c).info = t;
        }
        b.get(kernel_infos[i]).info = t;
        b.get(banks[i]).info = t;
    }

    // Symbols: local section symbols first (notes, code and shared memory per
    // kernel, pre-sm_90 banks, frame and call graph), then the kernels, then
    // the sm_90+ reserved-shared-memory symbols and the banks.
    b.section_symbol(tkinfo);
    b.section_symbol(cuinfo);
    let mut variable_symbols = std::collections::HashMap::new();
    // The names of the variable symbols in order, and whether each is a
    // section's (pre-sm_90 string tables list them).
    let mut walk: Vec<(String, bool)> = Vec::new();
    // Device functions' symbols by kernel and function.
    let mut function_symbols: Vec<Vec<u32>> = module.kernels.iter().map(|k| vec![0; k.functions.len()]).collect();
    let function_symbol = |b: &mut Builder, t: u32, f: &Function, binding: u8| {
        let symbol = b.symbol(Some(&f.name), (binding << 4) | e::STT_FUNC.0, 0, t as u16, u64::from(f.size));
        b.symbols.last_mut().expect("just pushed").value = u64::from(f.offset);
        symbol
    };
    for (i, &t) in texts.iter().enumerate() {
        b.section_symbol(t);
        // A static shared section's symbol follows the code's; a shared
        // section holding only the reserve (an `.extern .shared` kernel
        // without static shared memory) has none (measured).
        if let Some(s) = shared[i].filter(|_| module.kernels[i].shared_bytes > 0) {
            b.section_symbol(s);
        }
        // Bank 2's symbol before the kernel's functions (ptxas 13.5 on the
        // corpus's double_math, sm_80; not measured from sm_90 on, where
        // this compiler writes no bank 2).
        if let Some(c) = banks2[i] {
            b.section_symbol(c);
        }
        // Then the file-local device functions (ptxas's `$__internal_N_$…`
        // subroutines; measured), before a pre-sm_90 bank's symbol.
        for (j, f) in module.kernels[i].functions.iter().enumerate().filter(|(_, f)| !f.visible) {
            function_symbols[i][j] = function_symbol(&mut b, t, f, e::STB_LOCAL.0);
        }
        if i == 0 {
            // The variables, as the code first uses them: each section's
            // symbol before its first variable, bank 4's after the first
            // variable whose address it holds (measured).
            // A function outside the module whose slot comes first opens
            // bank 4 before any variable (measured with `vprintf`).
            let mut opened = std::collections::HashSet::new();
            if let Some(bank) = address_bank.filter(|_| module.global_addresses.first().is_some_and(|n| externs.contains(&n.as_str()))) {
                opened.insert(bank);
                b.section_symbol(bank);
                walk.push((".nv.constant4".into(), true));
            }
            let mut order: Vec<&Variable> = module.global_addresses.iter().filter_map(|n| module.globals.iter().find(|g| &g.name == n)).collect();
            order.extend(module.globals.iter().filter(|g| !module.global_addresses.contains(&g.name)));
            order.extend(&module.constants);
            for v in order {
                let is_constant = module.constants.iter().any(|c| std::ptr::eq(c, v));
                let section = if is_constant { constant_bank } else if v.init.is_some() { init_section } else { zero_section }.expect("the variable's section exists");
                if opened.insert(section) {
                    b.section_symbol(section);
                    walk.push((b.sections[section as usize - 1].name.clone(), true));
                }
                walk.push((v.name.clone(), false));
                let binding = if v.visible { e::STB_GLOBAL.0 } else { e::STB_LOCAL.0 };
                let symbol = b.symbol(Some(&v.name), (binding << 4) | e::STT_OBJECT.0, 0, section as u16, v.size);
                b.symbols.last_mut().expect("just pushed").value = v.offset;
                variable_symbols.insert(v.name.clone(), symbol);
                if let Some(bank) = address_bank.filter(|_| !is_constant && module.global_addresses.contains(&v.name)) {
                    if opened.insert(bank) {
                        b.section_symbol(bank);
                        walk.push((".nv.constant4".into(), true));
                    }
                }
            }
        }
        if early_banks {
            b.section_symbol(banks[i]);
        }
    }
    let frame_symbol = b.section_symbol(debug_frame);
    for &s in &line_sections {
        b.section_symbol(s);
    }
    b.section_symbol(callgraph_section);
    if !modern {
        let action = b.sections.iter().position(|s| s.name == ".nv.rel.action").map_or(0, |p| p as u32 + 1);
        b.section_symbol(action);
    }
    let _ = frame_symbol;
    // The kernels' symbols; on sm_90+ the reserved-shared-memory symbols
    // come right after the first kernel's (measured with two kernels).
    let mut kernel_symbols = Vec::new();
    let first_size = module.kernels[0].code.len() as u64 * 16;
    kernel_symbols.push(b.symbol(Some(&module.kernels[0].name), (e::STB_GLOBAL.0 << 4) | e::STT_FUNC.0, STO_CUDA_ENTRY, texts[0] as u16, first_size));
    // Texrefs: undefined global symbols right after the first kernel's
    // (measured with one kernel, sm_75..120), each once.
    // Surfrefs likewise, before the texrefs (ptxas 13.5 on sm_80, a module
    // declaring surfrefs sa, sb and texref ta: sa, sb, ta).
    let mut texture_symbols: Vec<(&str, u32)> = Vec::new();
    let mut surface_symbols: Vec<(&str, u32)> = Vec::new();
    // Each kernel's list is last word first: its first use is last.
    for (_, name) in module.kernels.iter().flat_map(|k| k.surfaces.iter().rev()) {
        if !surface_symbols.iter().any(|(n, _)| n == name) {
            let s = b.symbol(Some(name), (e::STB_GLOBAL.0 << 4) | STT_CUDA_SURFACE, 0, 0, 0);
            surface_symbols.push((name, s));
        }
    }
    for (_, name) in module.kernels.iter().flat_map(|k| &k.textures) {
        if !texture_symbols.iter().any(|(n, _)| n == name) {
            let s = b.symbol(Some(name), (e::STB_GLOBAL.0 << 4) | STT_CUDA_TEXTURE, 0, 0, 0);
            texture_symbols.push((name, s));
        }
    }
    if let Some(reserved) = reserved {
        b.symbol(Some(".nv.reservedSmem.offset0"), (e::STB_WEAK.0 << 4) | e::STT_OBJECT.0, 0, 0, 4);
        b.symbols.last_mut().expect("just pushed").value = 0;
        b.symbol(Some("__nv_reservedSMEM_offset_0_alias"), (e::STB_WEAK.0 << 4) | e::STT_NOTYPE.0, 0xa0, reserved as u16, 0);
        if sm >= 100 {
            b.symbols.last_mut().expect("just pushed").value = 0x40;
            let offset0 = b.symbols.len() - 2;
            b.symbols[offset0].value = 0x40;
        }
    }
    // ptxas's reserved-shared-memory cap follows the first kernel with
    // shared memory (measured).
    let cap_after = shared.iter().position(Option::is_some);
    let cap = |b: &mut Builder| {
        if sm >= 100 {
            // From sm_100 on the cap is a symbol: the 1 KiB reserve
            // (measured).
            b.symbol(Some(".nv.reservedSmem.cap"), (e::STB_WEAK.0 << 4) | e::STT_OBJECT.0, 0, 0, 4);
            b.symbols.last_mut().expect("just pushed").value = 0x400;
        } else {
            // ptxas leaves a nameless internal symbol where it dropped
            // `.nv.reservedSmem.cap`, and the name in the string table.
            b.strings.intern(".nv.reservedSmem.cap");
            b.symbol(None, 0, e::STV_INTERNAL.0, 0, 0);
        }
    };
    if modern && cap_after == Some(0) {
        cap(&mut b);
    }
    for (i, k) in module.kernels.iter().enumerate().skip(1) {
        let size = k.code.len() as u64 * 16;
        kernel_symbols.push(b.symbol(Some(&k.name), (e::STB_GLOBAL.0 << 4) | e::STT_FUNC.0, STO_CUDA_ENTRY, texts[i] as u16, size));
        if modern && cap_after == Some(i) {
            cap(&mut b);
        }
    }
    // Visible device functions follow the kernels (measured with one kernel).
    for (i, k) in module.kernels.iter().enumerate() {
        for (j, f) in k.functions.iter().enumerate().filter(|(_, f)| f.visible) {
            function_symbols[i][j] = function_symbol(&mut b, texts[i], f, e::STB_GLOBAL.0);
        }
    }
    // Functions outside the module: undefined global function symbols
    // before the banks' (measured with `vprintf`).
    let mut extern_symbols = Vec::with_capacity(externs.len());
    for x in &externs {
        let symbol = b.symbol(Some(x), (e::STB_GLOBAL.0 << 4) | e::STT_FUNC.0, 0, 0, 0);
        variable_symbols.insert(x.to_string(), symbol);
        extern_symbols.push(symbol);
    }
    let edges: Vec<(u32, u32)> = module
        .kernels
        .iter()
        .enumerate()
        .flat_map(|(i, k)| k.externs.iter().filter_map(|x| externs.iter().position(|y| y == x)).map(move |j| (i, j)))
        .map(|(i, j)| (kernel_symbols[i], extern_symbols[j]))
        .collect();
    b.get(callgraph_section).content = Content::Bytes(callgraph(&edges));
    let mut bank_symbols = vec![0; banks.len()];
    if !early_banks {
        for (i, &bank) in banks.iter().enumerate() {
            bank_symbols[i] = b.section_symbol(bank);
        }
    } else {
        for (i, bank) in banks.iter().enumerate() {
            bank_symbols[i] = b.symbols.iter().position(|s| s.section as u32 == *bank && s.info == e::STT_SECTION.0).map_or(0, |p| p as u32 + 1);
        }
    }
    let symbol_count = b.symbols.len() as u32 + 1;
    b.get(symtab).info = if modern { symbol_count } else { kernel_symbols[0] };

    for (i, k) in module.kernels.iter().enumerate() {
        if let Some(r) = texture_rels[i] {
            let find = |symbols: &[(&str, u32)], name: &str| symbols.iter().find(|(n, _)| *n == name).map_or(0, |(_, s)| *s);
            let mut entries: Vec<Rela> = k
                .textures
                .iter()
                .map(|(at, name)| Rela { offset: u64::from(*at), symbol: find(&texture_symbols, name), kind: R_CUDA_TEX_HANDLE, addend: 0 })
                .chain(k.surfaces.iter().map(|(at, name)| Rela { offset: u64::from(*at), symbol: find(&surface_symbols, name), kind: R_CUDA_SURF_HANDLE, addend: 0 }))
                .collect();
            // The last word first, as ptxas lists them.
            entries.sort_by(|a, b| b.offset.cmp(&a.offset));
            b.get(r).info = banks[i];
            b.get(r).content = if modern { Content::Rela(entries) } else { Content::Bytes(rel_bytes(&entries)) };
        }
    }

    // Bank 4 entries point at their globals; ptxas lists the relocations
    // from the last entry to the first (measured).
    if let Some(r) = address_rel {
        let entries: Vec<Rela> = module.global_addresses.iter().enumerate().rev().map(|(i, n)| Rela { offset: i as u64 * 8, symbol: variable_symbols[n], kind: R_CUDA_64, addend: 0 }).collect();
        b.get(r).content = if modern { Content::Rela(entries) } else { Content::Bytes(rel_bytes(&entries)) };
    }

    // Attribute records.
    // `.nv.info`: register count and frame size from the last kernel to the
    // first, then the minimum stack sizes from the first to the last
    // (measured with two kernels; ptxas walks its call graph so).
    let mut module_records = Vec::new();
    for (i, k) in module.kernels.iter().enumerate().rev() {
        let s = kernel_symbols[i];
        module_records.push(Attribute::words(attr::REGCOUNT, &[s, k.registers]));
        // The kernel's device functions' frames come before its own, the
        // last function first (measured).
        for (j, f) in k.functions.iter().enumerate().rev() {
            module_records.push(Attribute::words(attr::FRAME_SIZE, &[function_symbols[i][j], f.frame_size]));
        }
        module_records.push(Attribute::words(attr::FRAME_SIZE, &[s, k.frame_size]));
    }
    for (i, k) in module.kernels.iter().enumerate() {
        module_records.push(Attribute::words(attr::MIN_STACK_SIZE, &[kernel_symbols[i], k.min_stack_size]));
    }
    b.get(info).content = Content::Info(module_records);
    for (i, k) in module.kernels.iter().enumerate() {
        let called: Vec<u32> = k.externs.iter().filter_map(|x| externs.iter().position(|y| y == x)).map(|j| extern_symbols[j]).collect();
        let records = kernel_records(sm, k, bank_symbols[i], &called);
        b.get(kernel_infos[i]).content = Content::Info(records);
        if !modern {
            b.get(texts[i]).info = (k.registers << 24) | kernel_symbols[i];
        } else {
            b.get(texts[i]).info = kernel_symbols[i];
        }
    }

    // Frame description entries, one per kernel, relocated to the kernel.
    // Each kernel's FDE follows a copy of the CIE of its own (measured with
    // two kernels), and points at that copy.
    // A device function's entry follows a CIE of its own, which says where
    // its return address is; the CIE's address expression is relocated to
    // the kernel (measured). ptxas lists the relocations kernel by kernel
    // from the last: its functions' entries (last first), its own entry,
    // its functions' CIEs (last first).
    let mut frame = Vec::new();
    let mut groups = Vec::new();
    for (i, k) in module.kernels.iter().enumerate() {
        let cie_at = frame.len() as u64;
        frame.extend_from_slice(&CIE);
        frame.extend_from_slice(&CIE_TAIL);
        let own_entry = Rela { offset: frame.len() as u64 + 12 + 8, symbol: kernel_symbols[i], kind: R_CUDA_64, addend: 0 };
        // The kernel's own code ends where its first device function starts.
        let own = k.functions.iter().map(|f| u64::from(f.offset)).min().unwrap_or(k.code.len() as u64 * 16);
        frame.extend_from_slice(&match &k.frame_program {
            Some(program) => frame_entry(cie_at, own, program),
            None => fde(sm, cie_at, own, k.exit_offsets.first().copied()),
        });
        let (mut entries, mut cies) = (Vec::new(), Vec::new());
        for f in &k.functions {
            let cie_at = frame.len() as u64;
            let (cie, address_at) = function_cie(f.return_register);
            cies.push(Rela { offset: cie_at + address_at, symbol: kernel_symbols[i], kind: R_CUDA_64, addend: 0 });
            frame.extend_from_slice(&cie);
            entries.push(Rela { offset: frame.len() as u64 + 12 + 8, symbol: kernel_symbols[i], kind: R_CUDA_64, addend: i64::from(f.offset) });
            let mut entry = frame_entry(cie_at, u64::from(f.size), &f.frame_program);
            entry[20..28].copy_from_slice(&f.frame_location.to_le_bytes());
            frame.extend_from_slice(&entry);
        }
        let mut group: Vec<Rela> = entries.into_iter().rev().collect();
        group.push(own_entry);
        group.extend(cies.into_iter().rev());
        groups.push(group);
    }
    b.get(debug_frame).content = Content::Bytes(frame);
    // Line-information relocations name kernels and device functions.
    for (d, r) in module.line_info.iter().zip(&line_rels) {
        let Some(r) = *r else { continue };
        let mut entries = Vec::new();
        for a in &d.relocations {
            let symbol = b.symbols.iter().position(|y| y.name.as_deref() == Some(a.symbol.as_str()) && y.info & 0xf == e::STT_FUNC.0).ok_or_else(|| BuildError(format!("{}: no function {} to relocate to", d.name, a.symbol)))?;
            entries.push(Rela { offset: a.offset, symbol: symbol as u32 + 1, kind: a.kind, addend: a.addend });
        }
        b.get(r).content = if with_addends(&d.name, modern) { Content::Rela(entries) } else { Content::Bytes(rel_bytes(&entries)) };
    }
    let relocations: Vec<Rela> = groups.into_iter().rev().flatten().collect();
    b.get(frame_rel).content = if modern { Content::Rela(relocations) } else { Content::Bytes(rel_bytes(&relocations)) };

    if !modern {
        // Below sm_90 ptxas's name table holds the names of every section it
        // prepared, in preparation order, used or not, and its symbol string
        // table is a copy of it followed by the symbol names (measured).
        // The two differ in where a kernel's bank and its relocation section
        // go (measured).
        let prepared = |bank_first: bool, with_variables: bool| {
            let mut names = StringTable::default();
            for n in [".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info"] {
                names.intern(n);
            }
            let banks: [&str; 2] = if bank_first { [".nv.constant0.", ".rel.nv.constant0."] } else { [".rel.nv.constant0.", ".nv.constant0."] };
            for (i, k) in module.kernels.iter().enumerate() {
                for prefix in [".text.", ".nv.info.", ".nv.shared."] {
                    names.intern(&format!("{prefix}{}", k.name));
                }
                // Bank 2's name follows, where the kernel has one (measured
                // with three kernels on sm_80).
                if !k.constant2.is_empty() {
                    names.intern(&format!(".nv.constant2.{}", k.name));
                }
                // The symbol table's copy names the kernel's device
                // functions here (measured on the recursion kernels, sm_75).
                if with_variables {
                    for f in &k.functions {
                        names.intern(&f.name);
                    }
                }
                if i == 0 {
                    for (n, is_section) in &walk {
                        if *is_section || with_variables {
                            names.intern(n);
                        }
                    }
                }
                // A kernel that calls outside the module also gets the
                // name of a code relocation section (measured with
                // `vprintf` on sm_75 and sm_80; the section is not written).
                if !k.externs.is_empty() {
                    names.intern(&format!(".rel.text.{}", k.name));
                }
                for prefix in banks {
                    names.intern(&format!("{prefix}{}", k.name));
                }
            }
            names.intern(".debug_frame");
            // Line information: each section, then the name of its
            // relocation section (prepared for the two line programs
            // whether or not it is written; measured with -lineinfo on
            // sm_80).
            for d in &module.line_info {
                names.intern(&d.name);
                if with_addends(&d.name, modern) {
                    if !d.relocations.is_empty() {
                        names.intern(&format!(".rela{}", d.name));
                    }
                } else if !d.relocations.is_empty() || d.name == ".debug_line" || d.name == ".nv_debug_line_sass" {
                    names.intern(&format!(".rel{}", d.name));
                }
            }
            if !module.global_addresses.is_empty() {
                names.intern(".rel.nv.constant4");
            }
            for n in [".rel.debug_frame", ".rela.debug_frame", ".nv.callgraph", ".nv.prototype", ".nv.rel.action"] {
                names.intern(n);
            }
            names
        };
        let names = prepared(true, false);
        let mut strings = prepared(false, true);
        for s in &b.symbols {
            if let Some(n) = &s.name {
                strings.intern(n);
            }
        }
        b.section_names = names;
        b.strings = strings;
    }

    // The sm_100+ merc sections, carried as they are, after everything else.
    for s in &module.merc {
        b.section_names.intern(&s.name);
        b.sections.push(s.clone());
    }

    // ptxas names a `.symtab_shndx` section, drops it and zeroes its name,
    // which stays at the end of the name table (14 zero bytes); with merc
    // sections also `.nv.merc.symtab_shndx` (22 more, measured).
    if modern {
        let mut dropped = ".symtab_shndx".len() + 1;
        if module.merc.iter().any(|s| s.name == ".nv.merc.symtab") {
            dropped += ".nv.merc.symtab_shndx".len() + 1;
        }
        b.section_names.strings.extend(std::iter::repeat_n(String::new(), dropped));
    }

    Ok(Elf {
        header: Header { os_abi: elf::OSABI_CUDA13, abi_version: 8, file_type: e::ET_EXEC.0, flags: (elf_flags(sm) & 0x00ff_ffff) | u32::from(flags_top(module)) << 24, entry: 0 },
        sections: b.sections,
        symbols: b.symbols,
        strings: b.strings,
        section_names: b.section_names,
    })
}

/// `Elf64_Rel` entries (no addend), as pre-sm_90 cubins hold them.
fn rel_bytes(entries: &[Rela]) -> Vec<u8> {
    entries.iter().flat_map(|r| r.offset.to_le_bytes().into_iter().chain(((u64::from(r.symbol) << 32) | u64::from(r.kind)).to_le_bytes())).collect()
}

/// A kernel's `.nv.info.<k>` records in ptxas's order for its SM.
fn kernel_records(sm: u32, k: &Kernel, bank_symbol: u32, externs: &[u32]) -> Vec<Attribute> {
    let param_bytes = k.params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
    let mut r = vec![Attribute::words(attr::LANGUAGE, &[3]), Attribute::words(attr::CUDA_API_VERSION, &[0x87])];
    let kparams: Vec<Attribute> = k
        .params
        .iter()
        .enumerate()
        .rev()
        .map(|(ordinal, p)| {
            // index 0, ordinal and offset as u16s, then 0x1f000 (CBANK
            // space, cbank 0x1f) | size << 18 (FACTS.md).
            Attribute::words(attr::KPARAM_INFO, &[0, (ordinal as u32) | (p.offset << 16), 0x1f000 | (p.size << 18) | u32::from(p.flags & 0xfff)])
        })
        .collect();
    let param_cbank = Attribute::words(attr::PARAM_CBANK, &[bank_symbol, (param_bytes << 16) | param_base(sm)]);
    // No record for a kernel without an EXIT (one that ends in a trap).
    let exits = (!k.exit_offsets.is_empty()).then(|| Attribute::words(attr::EXIT_INSTR_OFFSETS, &k.exit_offsets));
    let crs = k.crs_stack_size.map(|n| Attribute::words(attr::CRS_STACK_SIZE, &[n]));
    // Calls of functions outside the module: the symbols after the
    // register limit, the call offsets right before the exits (measured
    // with `vprintf`, sm_75 to sm_120).
    let externs = (!externs.is_empty()).then(|| Attribute::words(attr::EXTERNS, externs));
    let syscalls = (!k.syscall_offsets.is_empty()).then(|| Attribute::words(attr::SYSCALL_OFFSETS, &k.syscall_offsets));
    // Instruction-offset lists before the exits, in this order (measured on
    // sm_80 and sm_90).
    let mut offset_lists = Vec::new();
    let lists = [(attr::INT_WARP_WIDE_INSTR_OFFSETS, &k.warp_wide_offsets), (attr::COOP_GROUP_MASK_REGIDS, &k.coop_group_mask_registers), (attr::COOP_GROUP_INSTR_OFFSETS, &k.coop_group_offsets)];
    for (attribute, list) in lists {
        if !list.is_empty() {
            offset_lists.push(Attribute::words(attribute, list));
        }
    }
    let maxreg = Attribute::half(attr::MAXREG_COUNT, k.max_registers.unwrap_or(0xff) as u16);
    if sm >= 90 {
        r.extend(kparams);
        r.push(Attribute::half(0x50, 0)); // SPARSE_MMA_MASK
        r.push(maxreg);
        if k.barriers > 0 {
            r.push(Attribute::byte(attr::NUM_BARRIERS, k.barriers as u8));
        }
        r.extend(externs);
        r.push(Attribute::half(0x5f, 0x0101));
        r.extend(offset_lists);
        if sm >= 100 {
            r.push(Attribute::byte(0x4a, 0)); // after the offset lists (measured)
        }
        r.extend(syscalls);
        r.extend(exits);
        r.extend(crs);
        push_thread_limits(&mut r, k);
        r.push(Attribute::half(attr::CBANK_PARAM_SIZE, param_bytes as u16));
        r.push(param_cbank);
        r.push(Attribute::words(attr::SW_WAR, &[if sm >= 120 { 0 } else { 8 }])); // measured on 90, 100, 120
        r.push(Attribute::half(0x6b, 1)); // NVSAL_SW_WAR
        r.push(Attribute::byte(0x6d, 0)); // PREEXIT_USED
        if !k.textures.is_empty() || !k.surfaces.is_empty() {
            // A kernel using a texref or a surfref: the bindless texture
            // and surface banks, 0 (measured on sm_90, 100, 120).
            r.push(Attribute::byte(attr::BINDLESS_TEXTURE_BANK, 0));
            r.push(Attribute::byte(attr::BINDLESS_SURFACE_BANK, 0));
        }
    } else {
        // Per-SM workaround records before the parameters (measured: sm_75
        // adds SW_WAR 1 after LANGUAGE, sm_80–88 the flag 0x35, sm_89 none).
        match sm {
            75..80 => r.insert(1, Attribute::words(attr::SW_WAR, &[1])),
            80..89 => r.push(Attribute::none(0x35)),
            _ => {}
        }
        r.push(param_cbank);
        r.push(Attribute::half(attr::CBANK_PARAM_SIZE, param_bytes as u16));
        r.extend(kparams);
        r.push(maxreg);
        if k.barriers > 0 {
            r.push(Attribute::byte(attr::NUM_BARRIERS, k.barriers as u8));
        }
        r.extend(externs);
        // After the register limit, the surface bank's first (measured on
        // sm_75..89).
        if !k.surfaces.is_empty() {
            r.push(Attribute::byte(attr::BINDLESS_SURFACE_BANK, 0));
        }
        if !k.textures.is_empty() {
            r.push(Attribute::byte(attr::BINDLESS_TEXTURE_BANK, 0));
        }
        r.push(Attribute::half(0x5f, 0));
        r.extend(offset_lists);
        r.extend(syscalls);
        r.extend(exits);
        r.extend(crs);
        push_thread_limits(&mut r, k);
    }
    r
}

/// Whether the kernel gets a `.nv.shared.<k>` section.
fn has_shared(k: &Kernel) -> bool {
    k.shared_bytes > 0 || k.dynamic_shared
}

/// `.reqntid` and `.maxntid` records (after the exit offsets, measured on
/// sm_90).
fn push_thread_limits(r: &mut Vec<Attribute>, k: &Kernel) {
    if let Some([x, y, z]) = k.required_threads {
        r.push(Attribute::words(attr::REQNTID, &[x, y, z]));
    }
    if let Some([x, y, z]) = k.max_threads {
        r.push(Attribute::words(attr::MAX_THREADS, &[x, y, z]));
    }
}

#[cfg(test)]
mod texref_tests {
    use super::super::elf::{self, Content};
    use super::super::module::{Kernel, Module, Param, ToolInfo};

    /// ZLUDA's `tex_read_2d_float` as ptxas 13.5 lays it out: parameters
    /// u64, f32, f32 and the texref `tex`, whose handle word is 0x170 on
    /// sm_80 and 0x224 on sm_90.
    fn texref_module(sm: u32, slot: u32) -> elf::Elf {
        let mut kernel = Kernel::new("k", vec![0x7918, 0x794d], 8);
        kernel.params = vec![Param::new(0, 8), Param::new(8, 4), Param::new(12, 4)];
        kernel.exit_offsets = vec![0x10];
        kernel.textures = vec![(slot, "tex".into())];
        let m = Module { sm, virtual_sm: 30, tool: ToolInfo::default(), kernels: vec![kernel], globals: Vec::new(), constants: Vec::new(), global_addresses: Vec::new(), isa_class: 1, flags_top: 6, line_info: Vec::new(), merc: Vec::new() };
        elf::read(&elf::write(&super::build(&m).expect("builds"))).expect("reads").elf
    }

    /// (offset, symbol, type) of a REL or RELA section.
    fn relocations(e: &elf::Elf, name: &str) -> Vec<(u64, u32, u32)> {
        let s = &e.sections[e.section_index(name).expect(name) as usize - 1];
        match &s.content {
            Content::Rela(r) => r.iter().map(|r| (r.offset, r.symbol, r.kind)).collect(),
            _ => s.bytes(e).chunks_exact(16).map(|c| (u64::from_le_bytes(c[..8].try_into().unwrap()), u32::from_le_bytes(c[12..16].try_into().unwrap()), u32::from_le_bytes(c[8..12].try_into().unwrap()))).collect(),
        }
    }

    #[test]
    fn a_texref_gets_its_symbol_relocation_bank_word_and_records() {
        for (sm, slot, rel) in [(80, 0x170, ".rel.nv.constant0.k"), (90, 0x224, ".rela.nv.constant0.k")] {
            let e = texref_module(sm, slot);
            let relocs = relocations(&e, rel);
            assert_eq!(relocs.len(), 1, "sm_{sm}");
            let (offset, symbol, kind) = relocs[0];
            assert_eq!((offset, kind), (u64::from(slot), 6), "sm_{sm}");
            let sym = &e.symbols[symbol as usize - 1];
            // GLOBAL (1) << 4 | STT_CUDA_TEXTURE (10), undefined.
            assert_eq!((sym.name.as_deref(), sym.info, sym.section), (Some("tex"), 0x1a, 0), "sm_{sm}");
            let bank = e.section_index(".nv.constant0.k").expect("bank");
            assert_eq!(e.section(bank).expect("bank").size(&e), u64::from(slot) + 4, "sm_{sm}");
            // The relocation section, then the frame's; the bank before the code.
            let frame = e.section_index(if sm >= 90 { ".rela.debug_frame" } else { ".rel.debug_frame" }).expect("frame");
            assert!(e.section_index(rel).expect("rel") < frame && bank < e.section_index(".text.k").expect("text"), "sm_{sm}");
            let info = e.section(e.section_index(".nv.info.k").expect("info")).expect("info").bytes(&e);
            let records = super::super::info::read(&info).expect("records");
            let attrs: Vec<u8> = records.iter().map(|r| r.attr).collect();
            let bindless = attrs.iter().position(|&a| a == 0x15).expect("EIATTR_BINDLESS_TEXTURE_BANK");
            if sm >= 90 {
                assert_eq!(&attrs[bindless..], &[0x15, 0x16], "last on sm_90");
            } else {
                assert_eq!(attrs[bindless - 1], 0x1b, "after EIATTR_MAXREG_COUNT below sm_90");
            }
        }
    }
}
