//! The DWARF sections ptxas copies from the PTX into the cubin: the
//! `.section .debug_*` blocks of nvcc `-G` (and LLVM `-g`) PTX, with
//! their symbols resolved. See `docs/debug-info.md` for what ptxas
//! writes and how it was measured.
//!
//! ptxas (13.5, sm_75 to sm_120) copies the blocks' bytes as they are and
//! resolves the symbols in them:
//! * a debug section's name (`.b32 .debug_abbrev`, `.debug_line`) is the
//!   offset 0 of that section, and a label in a debug section
//!   (`$L__info_string0` in `.debug_str`) its offset there: the bytes
//!   hold the value, no relocation (the sections are in the same file);
//! * a label in a function body (`$L__func_begin0`, `$L__tmp3`) is a code
//!   address: an `R_CUDA_64` relocation against the function's symbol
//!   with the address in the function as addend; `.debug_info`'s in a
//!   `.rela` section at every SM (the bytes zero), the others' (as the
//!   line tables') in a `.rel` section below sm_90 with the addend in the
//!   bytes (`.rel.debug_loc`, measured);
//! * a kernel parameter (`.b64 bit_counts_param_0` in a
//!   `DW_AT_location`'s `DW_OP_addr`) is its address in constant bank 0
//!   (0x160 and up at sm_80), filled in when the cubin is built
//!   ([`super::module::ParamAddress`]);
//! * a `.shared` variable is its address in the kernel's shared window
//!   (the value of its symbol: after the 0x400 bytes reserved from sm_90
//!   on), no relocation; ours is where our layout put it ([`Placed`]).
//!
//! Which blocks it copies: with `.target ..., debug` or with `-g`, every
//! non-empty one (with the debug target whatever the options: `-g`,
//! `-lineinfo` or neither); else, with `-lineinfo`, only `.debug_str` (the
//! strings `.loc function_name` names). Where: `.debug_str` right after `.debug_line`, the others after
//! `.nv_debug_ptx_txt` in the order [`SECTION_ORDER`] (not the PTX's:
//! ZLUDA's `vectorAdd_kernel64.ptx` has `.debug_info` before
//! `.debug_abbrev`, its cubin the other way round).
//!
//! Our code is not ptxas's (device functions are inlined, instructions
//! move), so a code label's address is an estimate made from the PTX line
//! each instruction comes from ([`code_address`]); a label whose function
//! has no code of its own in the cubin (inlined everywhere) gets address
//! 0 and no relocation. The DIE trees are the PTX's, byte for byte.

use super::module::{CodeAddress, DebugSection, ParamAddress};
use crate::ptx::debug_sections::{DebugData, ModuleDebug, Reference};

/// `R_CUDA_64`: a 64-bit absolute address.
const R_CUDA_64: u32 = 2;

/// The order ptxas writes the copied sections in (measured: nvcc `-G`
/// PTX gives `.debug_abbrev .debug_loc .debug_info .debug_macinfo`,
/// ZLUDA's `.debug_abbrev .debug_info .debug_pubnames`; the place of
/// `.debug_ranges` is assumed, not measured). Sections not listed follow
/// in PTX order.
pub const SECTION_ORDER: &[&str] = &[".debug_abbrev", ".debug_loc", ".debug_info", ".debug_ranges", ".debug_pubnames", ".debug_macinfo"];

/// Where code labels are: for a label's function and PTX line, the
/// symbol to relocate against and the byte address in it; `None` where
/// the function has no code of its own.
pub trait CodePlaces {
    /// The place of a label at PTX line `line` of function `function`.
    fn place(&self, function: &str, line: u32) -> Option<(String, u64)>;
}

/// Where the compilation put the PTX's variables.
#[derive(Clone, Debug, Default)]
pub struct Placed {
    /// Each `.shared` variable's address in the shared window of the
    /// first kernel (in section order) whose code uses it, the reserved
    /// area included.
    pub shared: Vec<(String, u64)>,
}

/// The copied sections that go right after `.debug_line` (`.debug_str`)
/// and those that go after `.nv_debug_ptx_txt`, resolved; `device_debug`:
/// compiled with `-g`.
pub fn sections(debug: &ModuleDebug, places: &dyn CodePlaces, placed: &Placed, device_debug: bool) -> Result<(Vec<DebugSection>, Vec<DebugSection>), String> {
    let copied = |d: &DebugData| !d.bytes.is_empty() && (debug.debug_target || device_debug || d.name == ".debug_str");
    let mut early = Vec::new();
    let mut late: Vec<&DebugData> = Vec::new();
    for d in debug.sections.iter().filter(|d| copied(d)) {
        if d.name == ".debug_str" {
            early.push(resolve(debug, d, places, placed)?);
        } else {
            late.push(d);
        }
    }
    late.sort_by_key(|d| SECTION_ORDER.iter().position(|n| *n == d.name).unwrap_or(SECTION_ORDER.len()));
    let late = late.into_iter().map(|d| resolve(debug, d, places, placed)).collect::<Result<Vec<_>, String>>()?;
    Ok((early, late))
}

/// One section's bytes with its symbols filled in or relocated.
fn resolve(debug: &ModuleDebug, d: &DebugData, places: &dyn CodePlaces, placed: &Placed) -> Result<DebugSection, String> {
    let mut bytes = d.bytes.clone();
    let mut relocations = Vec::new();
    let mut parameters = Vec::new();
    for r in &d.references {
        if let Some(&(_, size)) = debug.local_variables.iter().find(|(name, _)| *name == r.symbol) {
            frame_offset(&mut bytes, r, size);
            continue;
        }
        if let Some((_, kernel, index)) = debug.kernel_params.iter().find(|(name, _, _)| *name == r.symbol) {
            parameters.push(ParamAddress { offset: r.offset, width: r.width, kernel: kernel.clone(), index: *index, addend: r.addend });
            continue;
        }
        let section_offset = if debug.sections.iter().any(|s| s.name == r.symbol) || GENERATED.contains(&r.symbol.as_str()) {
            Some(0)
        } else {
            debug.sections.iter().find_map(|s| s.labels.iter().find(|(n, _)| *n == r.symbol).map(|(_, at)| *at))
        };
        let value = match section_offset {
            Some(at) => at as i64 + r.addend,
            None => match debug.code_labels.iter().find(|l| l.name == r.symbol) {
                Some(label) => match places.place(&label.function, label.line) {
                    Some((symbol, address)) if r.width == 8 => {
                        relocations.push(CodeAddress { offset: r.offset, symbol, kind: R_CUDA_64, addend: address as i64 + r.addend });
                        continue;
                    }
                    Some(_) => return Err(format!("line {}: a code address in {} needs 8 bytes, not {}", r.line, d.name, r.width)),
                    None => 0,
                },
                // A shared variable: its address in the shared window, as
                // ptxas's (its symbol's value). Other variables: 0 (what
                // ptxas gives them is not measured).
                None => placed.shared.iter().find(|(n, _)| *n == r.symbol).map_or(0, |&(_, at)| at as i64 + r.addend),
            },
        };
        let at = r.offset as usize;
        bytes[at..at + usize::from(r.width)].copy_from_slice(&value.to_le_bytes()[..usize::from(r.width)]);
    }
    if d.name == ".debug_loc" {
        location_ranges(&mut bytes, &mut relocations);
    }
    // ptxas lists the relocations from the last offset down (measured on
    // `.rela.debug_info`).
    relocations.reverse();
    Ok(DebugSection { name: d.name.clone(), bytes, relocations, parameters })
}

/// A local variable's address in a location expression: ptxas turns
/// `DW_OP_addr var+k` (nvcc's `__local_depotN`, the function's frame of
/// `size` bytes) into `DW_OP_fbreg -X` and pads the 9 bytes with
/// `DW_OP_nop` (measured); X comes from its frame (`__local_depot0[8]`
/// gives -8, a 16-byte depot -64), ours is `k - size`, as our frame is
/// not ptxas's. Elsewhere the value stays 0.
fn frame_offset(bytes: &mut [u8], r: &Reference, size: u64) {
    const DW_OP_ADDR: u8 = 0x03;
    const DW_OP_FBREG: u8 = 0x91;
    const DW_OP_NOP: u8 = 0x96;
    let at = r.offset as usize;
    if r.width != 8 || at == 0 || bytes.get(at - 1) != Some(&DW_OP_ADDR) || bytes.len() < at + 8 {
        return;
    }
    let mut op = vec![DW_OP_FBREG];
    let mut v = r.addend.wrapping_sub(size as i64);
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        op.push(if done { byte } else { byte | 0x80 });
        if done {
            break;
        }
    }
    if op.len() > 9 {
        return;
    }
    op.resize(9, DW_OP_NOP);
    bytes[at - 1..at + 8].copy_from_slice(&op);
}

/// Keeps each relocated range of a DWARF 2 location list (`.debug_loc`:
/// begin, end, a 2-byte length and that many bytes of expression; a
/// begin and end of 0 ends a list) a range: our code addresses are
/// estimates, and two labels that land on the same instruction would
/// make an empty range, or with address 0 a list's end in the middle of
/// it (cuobjdump: "Checked Data was Invalid"). Such an end moves one
/// instruction past its begin. The addresses also go into the bytes, as
/// ptxas writes them with `.rel` and `.rela` entries alike (measured).
fn location_ranges(bytes: &mut [u8], relocations: &mut [CodeAddress]) {
    let read = |bytes: &[u8], at: usize| bytes.get(at..at + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    let mut at = 0usize;
    while let (Some(begin), Some(end)) = (read(bytes, at), read(bytes, at + 8)) {
        let relocated = |relocations: &[CodeAddress], offset: usize| relocations.iter().position(|r| r.offset == offset as u64);
        match (relocated(relocations, at), relocated(relocations, at + 8)) {
            (Some(b), Some(e)) => {
                if relocations[e].symbol == relocations[b].symbol && relocations[e].addend <= relocations[b].addend {
                    relocations[e].addend = relocations[b].addend + 16;
                }
                for k in [b, e] {
                    let offset = relocations[k].offset as usize;
                    bytes[offset..offset + 8].copy_from_slice(&relocations[k].addend.to_le_bytes());
                }
            }
            // A list's end, or a base address selection: no expression.
            (None, None) if (begin == 0 && end == 0) || begin == u64::MAX => {
                at += 16;
                continue;
            }
            _ => {}
        }
        let Some(length) = bytes.get(at + 16..at + 18).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]]))) else { return };
        at += 18 + length;
    }
}

/// The debug sections the cubin writer makes itself, which PTX data may
/// name.
const GENERATED: &[&str] = &[".debug_line", ".debug_frame", ".nv_debug_line_sass", ".nv_debug_ptx_txt"];

/// A code label's address in a function's code, from the PTX line each
/// instruction comes from (`lines[i]`, 0 for one the compiler added):
/// the first instruction from a line at or after the label's, of the
/// function's own lines `first..=last`; the start when no instruction
/// from a line before the label comes first; the end when none comes
/// after it. With ptxas's `-G` code, which keeps the PTX order, that is
/// where the label is.
pub fn code_address(lines: &[u32], first: u32, last: u32, label: u32) -> usize {
    let own = |l: u32| l > first && l <= last;
    if !lines.iter().any(|&l| own(l) && l < label) {
        return 0;
    }
    lines.iter().position(|&l| own(l) && l >= label).unwrap_or(lines.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::debug_sections::collect;

    struct Kernel;
    impl CodePlaces for Kernel {
        fn place(&self, function: &str, line: u32) -> Option<(String, u64)> {
            (function == "k").then(|| ("k".to_string(), u64::from(line) * 16))
        }
    }

    #[test]
    fn section_names_and_string_labels_are_offsets_code_labels_relocations() {
        let ptx = ".version 8.5\n.target sm_80, debug\n.address_size 64\n\
            .visible .entry k()\n{\n$L__func_begin0:\n\tret;\n$L__func_end0:\n}\n\
            .section .debug_info\n{\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n.b64 $L__func_end0+4\n.b32 $L__info_string1+1\n}\n\
            .section .debug_abbrev\n{\n.b8 1,0\n}\n\
            .section .debug_str\n{\n$L__info_string0:\n.b8 107,0\n$L__info_string1:\n.b8 120,0\n}\n\
            .section .debug_ranges\n{\n}\n";
        let m = crate::ptx::parse(ptx).expect("parses");
        let d = collect(&m, ptx).expect("collects");
        let (early, late) = sections(&d, &Kernel, &Placed::default(), false).expect("resolves");
        assert_eq!(early.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), vec![".debug_str"]);
        // Abbreviations first; the empty ranges are not written.
        assert_eq!(late.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), vec![".debug_abbrev", ".debug_info"]);
        let info = &late[1];
        assert_eq!(info.bytes, [0, 0, 0, 0].iter().chain(&[0; 16]).chain(&[3, 0, 0, 0]).copied().collect::<Vec<u8>>());
        let relocations: Vec<(u64, &str, i64)> = info.relocations.iter().map(|r| (r.offset, r.symbol.as_str(), r.addend)).collect();
        assert_eq!(relocations, vec![(12, "k", 8 * 16 + 4), (4, "k", 6 * 16)]);
    }

    #[test]
    fn without_the_debug_target_only_strings_are_copied() {
        let ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.section .debug_info\n{\n.b8 1\n}\n.section .debug_str\n{\n.b8 120,0\n}\n";
        let m = crate::ptx::parse(ptx).expect("parses");
        let (early, late) = sections(&collect(&m, ptx).expect("collects"), &Kernel, &Placed::default(), false).expect("resolves");
        assert_eq!((early.len(), late.len()), (1, 0));
    }

    #[test]
    fn location_list_ranges_stay_ranges_and_hold_their_addresses() {
        // Two entries (2-byte expressions), then the list's end.
        let mut bytes = vec![0u8; 2 * 20 + 16];
        bytes[16] = 2;
        bytes[36] = 2;
        let at = |offset: u64, addend: i64| CodeAddress { offset, symbol: "k".into(), kind: R_CUDA_64, addend };
        let mut relocations = vec![at(0, 0), at(8, 0), at(20, 0x40), at(28, 0x80)];
        location_ranges(&mut bytes, &mut relocations);
        assert_eq!(relocations.iter().map(|r| r.addend).collect::<Vec<_>>(), vec![0, 16, 0x40, 0x80]);
        assert_eq!(&bytes[8..16], &16u64.to_le_bytes());
        assert_eq!(&bytes[20..28], &0x40u64.to_le_bytes());
        assert_eq!(&bytes[28..36], &0x80u64.to_le_bytes());
    }

    #[test]
    fn a_frame_address_becomes_a_frame_base_offset() {
        // DW_OP_addr __local_depot0+4 in a frame of 8 bytes, then
        // DW_OP_plus_uconst 0: DW_OP_fbreg -4 and seven DW_OP_nop.
        let mut bytes = vec![0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0x23, 0];
        frame_offset(&mut bytes, &Reference { offset: 1, width: 8, symbol: "__local_depot0".into(), addend: 4, line: 1 }, 8);
        assert_eq!(bytes, vec![0x91, 0x7c, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x23, 0]);
    }

    #[test]
    fn code_addresses_follow_the_lines_instructions_come_from() {
        // Function body lines 10..=20; an inlined instruction from line 40
        // and an added one (0) in between.
        let lines = [0, 12, 13, 40, 15, 14, 18];
        assert_eq!(code_address(&lines, 10, 20, 11), 0, "a label before all code is the start");
        assert_eq!(code_address(&lines, 10, 20, 14), 4, "the first instruction from its line or later");
        assert_eq!(code_address(&lines, 10, 20, 16), 6);
        assert_eq!(code_address(&lines, 10, 20, 19), 7, "after all code: the end");
    }
}
