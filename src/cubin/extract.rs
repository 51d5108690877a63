//! Reads a ptxas cubin back into a [`Module`], for the shape
//! [`super::build::build`] writes.

use super::build::{STO_CUDA_ENTRY, function_cie};
use super::elf::{Content, Elf};
use super::info::{Attribute, attr};
use super::module::{CodeAddress, DebugSection, Function, Kernel, Module, Param, ToolInfo, Variable, reserved_shared};
use object::elf as e;

/// Sections [`build`](super::build::build) writes (or knows to leave out: the sm_100+ merc
/// copies); a cubin with any other is outside what [`Module`] describes.
fn modelled_section(name: &str) -> bool {
    const FIXED: &[&str] = &[
        ".shstrtab",
        ".strtab",
        ".symtab",
        ".debug_frame",
        ".note.nv.tkinfo",
        ".note.nv.cuinfo",
        ".nv.info",
        ".nv.compat",
        ".nv.callgraph",
        ".nv.rel.action",
        ".rela.debug_frame",
        ".rel.debug_frame",
        ".nv.shared.reserved.0",
        ".nv.global",
        ".nv.global.init",
        ".nv.constant3",
        ".nv.constant4",
        ".rela.nv.constant4",
        ".rel.nv.constant4",
    ];
    const PER_KERNEL: &[&str] = &[".nv.info.", ".text.", ".nv.constant0.", ".nv.constant2.", ".nv.shared.", ".rela.text."];
    FIXED.contains(&name) || PER_KERNEL.iter().any(|p| name.starts_with(p)) || is_merc(name) || LINE_INFO.iter().any(|l| name == *l || name.strip_prefix(".rela") == Some(l))
}

/// The line-information sections the model carries ([`Module::line_info`]),
/// in the order ptxas writes them.
const LINE_INFO: &[&str] = &[".debug_line", ".debug_str", ".nv_debug_line_sass", ".nv_debug_ptx_txt"];

/// The line-information sections and their relocations (by symbol name).
fn read_line_info(file: &Elf) -> Result<Vec<DebugSection>, String> {
    let mut out = Vec::new();
    for (index, s) in file.sections.iter().enumerate() {
        if !LINE_INFO.contains(&s.name.as_str()) {
            continue;
        }
        if (s.kind, s.flags, s.link, s.info, s.align, s.entsize) != (e::SHT_PROGBITS.0, 0, 0, 0, 1, 0) {
            return Err(format!("section {} has a header the model does not write", s.name));
        }
        let Content::Bytes(bytes) = &s.content else { return Err(format!("section {} holds no bytes", s.name)) };
        let mut relocations = Vec::new();
        if let Some(r) = file.sections.iter().find(|r| r.name == format!(".rela{}", s.name)) {
            let Content::Rela(entries) = &r.content else { return Err(format!("{} is not Elf64_Rela entries", r.name)) };
            if r.info as usize != index + 1 {
                return Err(format!("{} does not apply to {}", r.name, s.name));
            }
            for entry in entries {
                let y = file.symbols.get((entry.symbol as usize).wrapping_sub(1)).filter(|y| y.info & 0xf == e::STT_FUNC.0).ok_or_else(|| format!("{}: a relocation to something other than a function", r.name))?;
                let symbol = y.name.clone().ok_or_else(|| format!("{}: a relocation to a nameless function", r.name))?;
                relocations.push(CodeAddress { offset: entry.offset, symbol, kind: entry.kind, addend: entry.addend });
            }
        }
        out.push(DebugSection { name: s.name.clone(), bytes: bytes.clone(), relocations, parameters: Vec::new() });
    }
    if !out.is_empty() && file.sm().is_some_and(|sm| sm < 90) {
        return Err("line information below sm_90 is not modelled".into());
    }
    Ok(out)
}

/// The sm_100+ sections for the driver's finalisation, which the model
/// carries unread ([`Module::merc`]).
fn is_merc(name: &str) -> bool {
    name.starts_with(".nv.merc.") || name.starts_with(".nv.capmerc.")
}

/// Reads a cubin back into a [`Module`], for the shape [`build`](super::build::build) writes:
/// kernels with globals, `.const` data and bank-4 address tables (no
/// device functions of their own, textures or other banks). `Err` names what is outside that shape.
pub fn from_elf(file: &Elf) -> Result<Module, String> {
    let sm = file.sm().ok_or("e_flags name no SM")?;
    if let Some(s) = file.sections.iter().find(|s| !modelled_section(&s.name)) {
        return Err(format!("section {} is not modelled", s.name));
    }
    // The merc sections come last (ptxas appends them); the builder puts
    // them back there.
    let first_merc = file.sections.iter().position(|s| is_merc(&s.name)).unwrap_or(file.sections.len());
    if let Some(s) = file.sections[first_merc..].iter().find(|s| !is_merc(&s.name)) {
        return Err(format!("section {} follows the merc sections", s.name));
    }
    let merc = file.sections[first_merc..].to_vec();
    let mut virtual_sm = sm;
    let mut tool = ToolInfo::default();
    for s in &file.sections {
        let Content::Notes(notes) = &s.content else { continue };
        for n in notes {
            if s.name == ".note.nv.cuinfo" && n.desc.len() >= 4 {
                virtual_sm = u32::from(u16::from_le_bytes([n.desc[2], n.desc[3]]));
            }
            if s.name == ".note.nv.tkinfo" && n.desc.len() >= 24 {
                let word = |i: usize| u32::from_le_bytes([n.desc[i], n.desc[i + 1], n.desc[i + 2], n.desc[i + 3]]) as usize;
                let area = &n.desc[24..];
                let text = |o: usize| area.get(o..).map(|t| String::from_utf8_lossy(&t[..t.iter().position(|&c| c == 0).unwrap_or(t.len())]).into_owned()).unwrap_or_default();
                tool = ToolInfo { name: text(word(8)), version: text(word(12)), branch: text(word(16)), arguments: text(word(20)) };
            }
        }
    }
    let module_records: &[Attribute] = match file.section_index(".nv.info").and_then(|i| file.section(i)).map(|s| &s.content) {
        Some(Content::Info(r)) => r,
        _ => &[],
    };
    let mut kernels = Vec::new();
    for (index, s) in file.sections.iter().enumerate() {
        let Some(name) = s.name.strip_prefix(".text.") else { continue };
        let Content::Bytes(code) = &s.content else { return Err(format!("{} has no code bytes", s.name)) };
        let symbol = file
            .symbols
            .iter()
            .position(|y| y.name.as_deref() == Some(name) && y.section as usize == index + 1)
            .ok_or_else(|| format!("no symbol for kernel {name}"))? as u32
            + 1;
        if file.symbols[symbol as usize - 1].other & STO_CUDA_ENTRY == 0 {
            return Err(format!("{name} is a device function, not a kernel"));
        }
        let per_function = |attr: u8| module_records.iter().filter(|r| r.attr == attr).filter_map(Attribute::as_words).find(|w| w.len() == 2 && w[0] == symbol).map_or(0, |w| w[1]);
        let records: &[Attribute] = match file.section_index(&format!(".nv.info.{name}")).and_then(|i| file.section(i)).map(|s| &s.content) {
            Some(Content::Info(r)) => r,
            _ => return Err(format!("no .nv.info.{name}")),
        };
        // Jump tables (ptxas's switch tables in bank 2) are not modelled.
        if records.iter().any(|r| r.attr == attr::INDIRECT_BRANCH_TARGETS) {
            return Err(format!("{name}: indirect branch targets are not modelled"));
        }
        let words = |attr: u8| records.iter().find(|r| r.attr == attr).and_then(Attribute::as_words);
        let mut params: Vec<(u32, Param)> = Vec::new();
        for r in records.iter().filter(|r| r.attr == attr::KPARAM_INFO) {
            let w = r.as_words().filter(|w| w.len() == 3).ok_or_else(|| format!("{name}: a parameter record of another form"))?;
            let param = Param { offset: w[1] >> 16, size: (w[2] >> 18) & 0x3fff, flags: (w[2] & 0xfff) as u16 };
            // Index 0, constant bank 0x1f: the only form the builder writes.
            if w[0] != 0 || w[2] != 0x1f000 | param.size << 18 | u32::from(param.flags) {
                return Err(format!("{name}: parameter record {w:x?} is not modelled"));
            }
            params.push((w[1] & 0xffff, param));
        }
        params.sort_by_key(|(ordinal, _)| *ordinal);
        let barriers = records.iter().find_map(|r| match (r.attr, &r.value) {
            (attr::NUM_BARRIERS, super::info::Value::Byte(b)) => Some(u32::from(*b)),
            _ => None,
        });
        let max_registers = records.iter().find_map(|r| match (r.attr, &r.value) {
            (attr::MAXREG_COUNT, super::info::Value::Half(h)) if *h != 0xff => Some(u32::from(*h)),
            _ => None,
        });
        let triple = |attr: u8| words(attr).filter(|w| w.len() == 3).map(|w| [w[0], w[1], w[2]]);
        let shared = file.section_index(&format!(".nv.shared.{name}")).and_then(|i| file.section(i));
        let shared_bytes = shared.map_or(0, |s| s.size(file).saturating_sub(reserved_shared(sm)));
        kernels.push(Kernel {
            name: name.to_string(),
            code: crate::isa::bits::words_from_bytes(code).ok_or_else(|| format!("{} is not whole instructions", s.name))?,
            params: params.into_iter().map(|(_, p)| p).collect(),
            registers: per_function(attr::REGCOUNT),
            barriers: barriers.unwrap_or(0),
            shared_bytes,
            shared_align: shared.map_or(4, |s| s.align),
            dynamic_shared: shared.is_some() && shared_bytes == 0,
            frame_size: per_function(attr::FRAME_SIZE),
            min_stack_size: per_function(attr::MIN_STACK_SIZE),
            max_registers,
            required_threads: triple(attr::REQNTID),
            max_threads: triple(attr::MAX_THREADS),
            exit_offsets: words(attr::EXIT_INSTR_OFFSETS).unwrap_or_default(),
            warp_wide_offsets: words(attr::INT_WARP_WIDE_INSTR_OFFSETS).unwrap_or_default(),
            coop_group_offsets: words(attr::COOP_GROUP_INSTR_OFFSETS).unwrap_or_default(),
            coop_group_mask_registers: words(attr::COOP_GROUP_MASK_REGIDS).unwrap_or_default(),
            crs_stack_size: words(attr::CRS_STACK_SIZE).and_then(|w| w.first().copied()),
            frame_program: None,
            functions: Vec::new(),
            externs: match words(attr::EXTERNS) {
                Some(list) => list.iter().map(|&y| file.symbols.get((y as usize).wrapping_sub(1)).and_then(|y| y.name.clone()).ok_or_else(|| format!("{name}: an external function record names no symbol"))).collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
            syscall_offsets: words(attr::SYSCALL_OFFSETS).unwrap_or_default(),
            // Texref relocations are not read back.
            textures: Vec::new(),
            surfaces: Vec::new(),
            constant2: match file.section_index(&format!(".nv.constant2.{name}")).and_then(|i| file.section(i)).map(|s| &s.content) {
                Some(Content::Bytes(bytes)) => bytes.clone(),
                Some(_) => return Err(format!("{name}: constant bank 2 holds no bytes")),
                None => Vec::new(),
            },
        });
        let kernel = kernels.last_mut().expect("just pushed");
        read_functions(file, sm, index as u32 + 1, symbol, module_records, kernel)?;
    }
    let (globals, constants, global_addresses) = read_variables(file)?;
    let isa_class = match file.section_index(".nv.compat").and_then(|i| file.section(i)).map(|s| &s.content) {
        Some(Content::Info(records)) => records.iter().find_map(|r| match (r.attr, &r.value) {
            (0x02, super::info::Value::Byte(b)) => Some(*b),
            _ => None,
        }),
        _ => None,
    };
    Ok(Module { sm, virtual_sm, tool, kernels, globals, constants, global_addresses, isa_class: isa_class.unwrap_or(1), flags_top: (file.header.flags >> 24) as u8, line_info: read_line_info(file)?, merc })
}

/// The variables of `.nv.global.init`, `.nv.global` and `.nv.constant3`,
/// and the globals whose addresses `.nv.constant4` holds.
fn read_variables(file: &Elf) -> Result<(Vec<Variable>, Vec<Variable>, Vec<String>), String> {
    let section_of = |name: &str| file.section_index(name);
    let (init, zero, constant, addresses) = (section_of(".nv.global.init"), section_of(".nv.global"), section_of(".nv.constant3"), section_of(".nv.constant4"));
    let mut globals = Vec::new();
    let mut constants = Vec::new();
    for sym in &file.symbols {
        if sym.info & 0xf != e::STT_OBJECT.0 || sym.section == 0 {
            continue;
        }
        let index = u32::from(sym.section);
        let Some(name) = sym.name.clone() else { continue };
        let bytes = |section: u32| -> Option<Vec<u8>> {
            let s = file.section(section)?;
            let b = s.bytes(file);
            b.get(sym.value as usize..(sym.value.checked_add(sym.size)?) as usize).map(<[u8]>::to_vec)
        };
        let visible = sym.info >> 4 == e::STB_GLOBAL.0;
        let align = file.section(index).map_or(1, |s| s.align.max(1));
        // ptxas does not record a variable's own alignment; the section's
        // is the largest, and the largest power of two dividing the offset
        // bounds it.
        let align = if sym.value == 0 { align } else { align.min(1 << sym.value.trailing_zeros()) };
        let variable = |init| Variable { name: name.clone(), offset: sym.value, size: sym.size, align, init, visible };
        if Some(index) == init {
            globals.push(variable(Some(bytes(index).ok_or_else(|| format!("variable {name} lies outside .nv.global.init"))?)));
        } else if Some(index) == zero {
            globals.push(variable(None));
        } else if Some(index) == constant {
            constants.push(variable(Some(bytes(index).ok_or_else(|| format!("variable {name} lies outside .nv.constant3"))?)));
        }
    }
    let mut global_addresses = Vec::new();
    if let Some(bank) = addresses {
        let relocations = file.sections.iter().find(|s| (s.name == ".rela.nv.constant4" || s.name == ".rel.nv.constant4") && s.info == bank);
        let mut entries: Vec<(u64, u32)> = match relocations.map(|s| &s.content) {
            Some(Content::Rela(r)) => r.iter().map(|r| (r.offset, r.symbol)).collect(),
            Some(Content::Bytes(b)) => b.chunks_exact(16).map(|c| (u64::from_le_bytes(c[..8].try_into().expect("8 bytes")), u32::from_le_bytes(c[12..16].try_into().expect("4 bytes")))).collect(),
            _ => return Err("constant bank 4 without relocations".into()),
        };
        entries.sort();
        for (i, (offset, symbol)) in entries.into_iter().enumerate() {
            if offset != i as u64 * 8 {
                return Err("constant bank 4 is not a dense table of addresses".into());
            }
            let sym = file.symbols.get((symbol as usize).wrapping_sub(1)).ok_or("bank 4 relocation without a symbol")?;
            let name = sym.name.clone().ok_or("bank 4 relocation without a symbol")?;
            // An undefined function: one outside the module (`vprintf`).
            let external = sym.section == 0 && sym.info & 0xf == object::elf::STT_FUNC.0;
            if !external && !globals.iter().any(|g| g.name == name) {
                return Err(format!("constant bank 4 holds the address of {name}, which is not a variable of the module"));
            }
            global_addresses.push(name);
        }
    }
    Ok((globals, constants, global_addresses))
}

/// The `.debug_frame` entries (64-bit DWARF: `ffffffff`, a u64 length, the
/// body) by offset; `None` when the bytes are not such a sequence.
fn frame_entries(bytes: &[u8]) -> Option<Vec<(u64, &[u8])>> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        if bytes.get(at..at + 4)? != [0xff; 4] {
            return None;
        }
        let length = usize::try_from(u64::from_le_bytes(bytes.get(at + 4..at + 12)?.try_into().ok()?)).ok()?;
        let body = bytes.get(at + 12..at.checked_add(12)?.checked_add(length)?)?;
        out.push((at as u64, body));
        at += 12 + length;
    }
    Some(out)
}

/// The `.debug_frame` relocations as (offset, symbol, addend); `.rel`
/// entries (below sm_90) keep the addend in the relocated bytes.
fn frame_relocations(file: &Elf, frame: &[u8]) -> Vec<(u64, u32, i64)> {
    let Some(section) = file.sections.iter().find(|s| s.name == ".rela.debug_frame" || s.name == ".rel.debug_frame") else { return Vec::new() };
    match &section.content {
        Content::Rela(r) => r.iter().map(|r| (r.offset, r.symbol, r.addend)).collect(),
        Content::Bytes(b) => b
            .chunks_exact(16)
            .map(|c| {
                let offset = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
                let symbol = u32::from_le_bytes(c[12..16].try_into().expect("4 bytes"));
                let implicit = usize::try_from(offset).ok().and_then(|o| frame.get(o..o.checked_add(8)?)).map_or(0, |a| i64::from_le_bytes(a.try_into().expect("8 bytes")));
                (offset, symbol, implicit)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The device functions in a kernel's section (FUNC symbols of the
/// section other than the kernel's) and the kernel's and their
/// `.debug_frame` programs.
fn read_functions(file: &Elf, sm: u32, section: u32, kernel_symbol: u32, module_records: &[Attribute], kernel: &mut Kernel) -> Result<(), String> {
    let frame = file.section_index(".debug_frame").and_then(|i| file.section(i)).map(|s| s.bytes(file)).unwrap_or_default();
    let entries = frame_entries(&frame).unwrap_or_default();
    let relocations = frame_relocations(file, &frame);
    // The entry relocated to the kernel's symbol plus `addend`: its CIE
    // offset and its call-frame instructions.
    let entry = |addend: i64| -> Option<(u64, &[u8], u64)> {
        let (at, _, _) = relocations.iter().find(|(_, s, a)| *s == kernel_symbol && *a == addend)?;
        let (_, body) = entries.iter().find(|(o, _)| o + 12 + 8 == *at)?;
        Some((u64::from_le_bytes(body.get(..8)?.try_into().ok()?), body.get(24..)?, u64::from_le_bytes(body.get(8..16)?.try_into().ok()?)))
    };
    for (i, y) in file.symbols.iter().enumerate() {
        if y.info & 0xf != e::STT_FUNC.0 || u32::from(y.section) != section || y.other & STO_CUDA_ENTRY != 0 {
            continue;
        }
        let name = y.name.clone().ok_or("a nameless device function")?;
        let symbol = i as u32 + 1;
        let frame_size = module_records.iter().filter(|r| r.attr == attr::FRAME_SIZE).filter_map(Attribute::as_words).find(|w| w.len() == 2 && w[0] == symbol).map_or(0, |w| w[1]);
        let (offset, size) = (u32::try_from(y.value).map_err(|_| format!("{name}: offset out of range"))?, u32::try_from(y.size).map_err(|_| format!("{name}: size out of range"))?);
        let (cie_at, program, frame_location) = entry(i64::from(offset)).ok_or_else(|| format!("device function {name} has no frame entry"))?;
        let cie = entries.iter().find(|(o, _)| *o == cie_at).map(|(_, b)| *b).ok_or_else(|| format!("device function {name}: no CIE at {cie_at:#x}"))?;
        // The return register is the third DW_CFA_same_value operand.
        let register = cie.get(33..37).map(|r| (u32::from(r[0] & 0x7f) | u32::from(r[1] & 0x7f) << 7 | u32::from(r[2] & 0x7f) << 14) & 0x1f_ffff).unwrap_or(0);
        let whole = frame.get(cie_at as usize..cie_at as usize + 12 + cie.len()).unwrap_or_default();
        if function_cie(register).0 != whole {
            return Err(format!("device function {name}: its frame CIE is not the modelled one"));
        }
        let visible = y.info >> 4 == e::STB_GLOBAL.0;
        kernel.functions.push(Function { name, offset, size, visible, frame_size, return_register: register, frame_program: program.to_vec(), frame_location });
    }
    kernel.functions.sort_by_key(|f| f.offset);
    if let Some((cie_at, program, _)) = entry(0) {
        let own = kernel.functions.first().map_or(kernel.code.len() as u64 * 16, |f| u64::from(f.offset));
        let derived = super::build::fde(sm, cie_at, own, kernel.exit_offsets.first().copied());
        if derived.get(12 + 24..) != Some(program) {
            kernel.frame_program = Some(program.to_vec());
        }
    }
    Ok(())
}
