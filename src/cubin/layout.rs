//! Where ptxas puts things in a cubin file, as rules (measured on ptxas 13.5
//! output for sm_75..sm_120; the corpus round-trip test checks them on every
//! cubin it writes):
//! * section data starts right after the 64-byte file header, in section
//!   header order, each section at the next multiple of its `sh_addralign`;
//!   `NOBITS` sections take no room; sm_100+ `.nv.merc.*` mirrors of
//!   constant and global data point at the bytes of the section they copy;
//! * the section header table follows the last byte of section data (from
//!   sm_90 on unaligned, below sm_90 at the next multiple of 8), and the
//!   program header table follows it directly;
//! * an executable cubin has these program headers: `PHDR` and a `LOAD` of
//!   the program header table itself, then one `LOAD` per run of
//!   consecutive allocated sections with the same permissions: read-only
//!   (constant banks), R E (code), RW (global data, with the shared-memory
//!   `NOBITS` sections counted in its memory size only). Relocatable cubins
//!   (`ptxas -c`) have none. Below sm_90 ptxas lays them out differently:
//!   read-only and code sections share one R E run, the table's own `LOAD`
//!   comes last, and the table's headers are R E too.

use super::elf::{Content, Elf, Placement};
use object::LittleEndian as LE;
use object::elf;
use object::endian::{U32, U64};

/// Each section's file offset and the end of section data.
pub struct Placed {
    /// `sh_offset` of each section.
    pub offsets: Vec<u64>,
    /// `sh_size` of each section (bytes written, or the `NOBITS` size).
    pub sizes: Vec<u64>,
    /// One past the last byte of section data.
    pub end: u64,
}

/// `n` rounded up to `align`. Only power-of-two alignments up to 4 KiB are
/// honoured (ptxas uses at most 128); any other `sh_addralign` value, which
/// ELF does not allow anyway, places the section unaligned, so that a
/// damaged file cannot make the writer lay out an enormous one.
fn align_up(n: u64, align: u64) -> u64 {
    if align <= 1 || !align.is_power_of_two() || align > 4096 { n } else { n.checked_next_multiple_of(align).unwrap_or(u64::MAX) }
}

/// Whether sections of type `kind` have a size but no bytes in the file:
/// `SHT_NOBITS`, and in relocatable cubins (`ptxas -c`) the CUDA types
/// ptxas gives zero-initialised globals (0x70000007) and shared memory
/// (0x7000000a), and sm_100+ `.nv.merc.nv.shared.*` (0x70000015) (measured).
pub fn is_nobits(kind: u32) -> bool {
    matches!(kind, 8 | 0x7000_0007 | 0x7000_000a | 0x7000_0015)
}

/// Lays out section data (the rules in the module docs).
pub fn place(elf: &Elf, contents: &[Vec<u8>]) -> Placed {
    let mut offsets = Vec::with_capacity(elf.sections.len());
    let mut cursor = 64u64;
    let mut end = 64u64;
    for (s, bytes) in elf.sections.iter().zip(contents) {
        let offset = match s.placement {
            Placement::Next => {
                let at = align_up(cursor, s.align);
                if !is_nobits(s.kind) {
                    cursor = at + bytes.len() as u64;
                }
                at
            }
            Placement::Shares(index) => offsets.get(index as usize - 1).copied().unwrap_or(cursor),
            Placement::At(at) => {
                // Where the sections before it grew (a string table that had
                // to be rebuilt), it moves up rather than overlap them.
                let at = if at >= cursor { at } else { align_up(cursor, s.align) };
                if !is_nobits(s.kind) {
                    cursor = at + bytes.len() as u64;
                }
                at
            }
        };
        if !is_nobits(s.kind) {
            end = end.max(offset + bytes.len() as u64);
        }
        offsets.push(offset);
    }
    let sizes = elf.sections.iter().zip(contents).map(|(s, b)| if let Content::NoBits(n) = s.content { n } else { b.len() as u64 }).collect();
    Placed { offsets, sizes, end: end.max(cursor) }
}

/// The file offset of the section header table: right after the section
/// data, aligned to 8 below sm_90 (not aligned from sm_90 on).
pub fn section_headers_offset(elf: &Elf, placed: &Placed) -> u64 {
    if elf.sm().is_some_and(|sm| sm < 90) { align_up(placed.end, 8) } else { placed.end }
}

/// A program header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// `p_type`.
    pub kind: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_filesz`.
    pub file_size: u64,
    /// `p_memsz`.
    pub memory_size: u64,
}

impl Segment {
    /// The ELF record.
    pub fn to_elf(&self, _phoff: u64, _count: usize) -> elf::ProgramHeader64<LE> {
        elf::ProgramHeader64 {
            p_type: U32::new(LE, elf::ProgramType(self.kind)),
            p_flags: U32::new(LE, elf::ProgramFlags(self.flags)),
            p_offset: U64::new(LE, self.offset),
            p_vaddr: U64::new(LE, 0),
            p_paddr: U64::new(LE, 0),
            p_filesz: U64::new(LE, self.file_size),
            p_memsz: U64::new(LE, self.memory_size),
            p_align: U64::new(LE, 8),
        }
    }
}

/// The permissions (`PF_*`) of a `LOAD` holding sections with `sh_flags`,
/// `None` for sections not loaded.
fn permissions(flags: u64) -> Option<u32> {
    if flags & elf::SHF_ALLOC.0 == 0 {
        None
    } else if flags & elf::SHF_EXECINSTR.0 != 0 {
        Some(elf::PF_R.0 | elf::PF_X.0)
    } else if flags & elf::SHF_WRITE.0 != 0 {
        Some(elf::PF_R.0 | elf::PF_W.0)
    } else {
        Some(elf::PF_R.0)
    }
}

/// The program headers of `elf` laid out as `placed` (empty unless `ET_EXEC`).
pub fn segments(elf: &Elf, placed: &Placed) -> Vec<Segment> {
    if elf.header.file_type != elf::ET_EXEC.0 {
        return Vec::new();
    }
    // One LOAD per run of consecutive allocated sections (in header order)
    // with the same permissions. Only PROGBITS and NOBITS sections count:
    // the sm_100+ `.nv.merc.*` sections (processor-specific types) are not
    // in any, even where they are allocated.
    let legacy = elf.sm().is_some_and(|sm| sm < 90);
    let mut loads: Vec<Segment> = Vec::new();
    let mut memory = 0u64;
    let mut run_flags = None;
    for (index, (s, &offset)) in elf.sections.iter().zip(&placed.offsets).enumerate() {
        if matches!(s.placement, Placement::Shares(_)) || (s.kind != elf::SHT_PROGBITS.0 && s.kind != elf::SHT_NOBITS.0) {
            continue;
        }
        let Some(mut flags) = permissions(s.flags) else { continue };
        if legacy && flags == elf::PF_R.0 {
            flags |= elf::PF_X.0;
        }
        if run_flags != Some(flags) {
            run_flags = Some(flags);
            memory = 0;
            loads.push(Segment { kind: elf::PT_LOAD.0, flags, offset, file_size: 0, memory_size: 0 });
        }
        let load = loads.last_mut().expect("a run was just started");
        let size = placed.sizes[index];
        // File bytes count from where they are; shared memory (NOBITS) is
        // appended to the run's memory image at its alignment.
        // (Saturating: a damaged file may claim any NOBITS size.)
        if is_nobits(s.kind) {
            memory = align_up(memory, s.align).saturating_add(size);
        } else {
            load.file_size = load.file_size.max((offset + size).saturating_sub(load.offset));
            memory = memory.max(load.file_size);
        }
        load.memory_size = memory;
    }
    let count = loads.len() as u64 + 2;
    let table = 56 * count;
    let phoff = section_headers_offset(elf, placed) + 64 * (elf.sections.len() as u64 + 1);
    let table_flags = if legacy { elf::PF_R.0 | elf::PF_X.0 } else { elf::PF_R.0 };
    let phdr = Segment { kind: elf::PT_PHDR.0, flags: table_flags, offset: phoff, file_size: table, memory_size: table };
    let table_load = Segment { kind: elf::PT_LOAD.0, ..phdr };
    let mut all = vec![phdr];
    if legacy {
        all.extend(loads);
        all.push(table_load);
    } else {
        all.push(table_load);
        all.extend(loads);
    }
    all
}

/// Decides each section's [`Placement`] from the offsets read, noting the
/// sections ptxas's rules would not put where they are.
pub fn infer_placements(elf: &mut Elf, raw: &[elf::SectionHeader64<LE>], anomalies: &mut Vec<String>) {
    let mut cursor = 64u64;
    for i in 0..elf.sections.len() {
        let offset = raw[i + 1].sh_offset.get(LE);
        let s = &elf.sections[i];
        let nobits = is_nobits(s.kind);
        let size = if nobits { 0 } else { raw[i + 1].sh_size.get(LE) };
        let expected = align_up(cursor, s.align);
        let shared = (!nobits && offset != expected)
            .then(|| {
                (0..i).find(|&j| {
                    let other = &elf.sections[j];
                    raw[j + 1].sh_offset.get(LE) == offset
                        && !is_nobits(other.kind)
                        && matches!((&other.content, &s.content), (Content::Bytes(a), Content::Bytes(b)) if a == b)
                })
            })
            .flatten();
        // NOBITS sections never move the cursor (as in `place`), whatever
        // offset a damaged file gives them.
        let placement = if offset == expected {
            if !nobits {
                cursor = expected.saturating_add(size);
            }
            Placement::Next
        } else if let Some(j) = shared {
            Placement::Shares(j as u32 + 1)
        } else if offset >= cursor {
            anomalies.push(format!("section {} ({}) at {offset:#x}, the writer would put it at {expected:#x}", i + 1, s.name));
            if !nobits {
                cursor = offset.saturating_add(size);
            }
            Placement::At(offset)
        } else {
            // Overlapping an earlier section or the file header: keep the
            // contents, lay the section out in sequence.
            anomalies.push(format!("section {} ({}) at {offset:#x} overlaps earlier data; written at {expected:#x}", i + 1, s.name));
            if !nobits {
                cursor = expected.saturating_add(size);
            }
            Placement::Next
        };
        elf.sections[i].placement = placement;
    }
}

/// Compares the file's section and program header tables with the ones the
/// writer derives.
pub fn check_file_layout(elf: &Elf, data: &[u8], header: &elf::FileHeader64<LE>, anomalies: &mut Vec<String>) {
    let contents: Vec<Vec<u8>> = elf.sections.iter().map(|s| s.bytes(elf)).collect();
    let placed = place(elf, &contents);
    let shoff = section_headers_offset(elf, &placed);
    if header.e_shoff.get(LE) != shoff {
        anomalies.push(format!("section headers at {:#x}, the writer would put them at {shoff:#x}", header.e_shoff.get(LE)));
    }
    let derived = segments(elf, &placed);
    let phnum = u64::from(header.e_phnum.get(LE));
    let phoff = header.e_phoff.get(LE);
    let mut read = Vec::new();
    for i in 0..phnum {
        let at = phoff.saturating_add(56 * i);
        let Some(bytes) = usize::try_from(at).ok().and_then(|a| data.get(a..a.checked_add(56)?)) else {
            anomalies.push("program headers run past the end of the file".into());
            return;
        };
        let Ok((p, _)) = object::pod::from_bytes::<elf::ProgramHeader64<LE>>(bytes) else { return };
        read.push(Segment {
            kind: p.p_type.get(LE).0,
            flags: p.p_flags.get(LE).0,
            offset: p.p_offset.get(LE),
            file_size: p.p_filesz.get(LE),
            memory_size: p.p_memsz.get(LE),
        });
        if p.p_align.get(LE) != 8 || p.p_vaddr.get(LE) != 0 || p.p_paddr.get(LE) != 0 {
            anomalies.push(format!("program header {i}: address or alignment differs from ptxas's"));
        }
    }
    if read != derived {
        anomalies.push(format!("program headers {read:x?}, the writer derives {derived:x?}"));
    }
    if derived.is_empty() && phnum == 0 && phoff != 0 {
        anomalies.push("no program headers but e_phoff is set".into());
    }
    let trailing = data.len() as u64;
    let written_end = shoff + 64 * (elf.sections.len() as u64 + 1) + 56 * derived.len() as u64;
    if trailing != written_end {
        anomalies.push(format!("file is {trailing:#x} bytes, the writer's would be {written_end:#x}"));
    }
}
