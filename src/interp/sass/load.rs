//! Loading a cubin for a launch: the kernel's code, its parameter layout,
//! the constant banks as the SM sees them (bank 0 with the driver-filled
//! words and the arguments, bank 3 `.const` data, bank 4 global-address
//! tables, any other `.nv.constantN`), the module's global variables placed
//! in device memory, and `R_CUDA_64` relocations applied to the loaded copies.
//!
//! Bank 0 layout (FACTS.md, checked against ptxas output of the ZLUDA and
//! kernel corpora): up to sm_90 `ntid` at 0x0/0x4/0x8, `nctaid` at
//! 0xc/0x10/0x14, the shared window at 0x18, the local window at 0x20, the
//! initial stack pointer at 0x28 and the global-memory descriptor at 0x118
//! (sm_90: 0x208); from sm_100 `ntid` at 0x360, `nctaid` at 0x370, the stack
//! pointer at 0x37c, the local window at 0x2f8 and the descriptor at 0x358.
//! Parameters start at [`crate::cubin::module::param_base`].

use crate::cubin::elf::{self, Content, Elf};
use crate::cubin::info::{Attribute, attr};
use crate::cubin::module::param_base;
use crate::interp::launch::Launch;
use crate::interp::memory::Region;
use crate::interp::{ErrorKind, InterpError, LaunchSpec};
use crate::legalize::launch_abi::ParamWindow;
use crate::target::Sm;

/// The generic-address window of shared memory: generic addresses whose
/// high word is [`SHARED_WINDOW_HI`] are shared-memory offsets.
pub const SHARED_WINDOW_HI: u32 = 0x0001_0000;
/// The generic-address window of local memory (high word).
pub const LOCAL_WINDOW_HI: u32 = 0x0002_0000;
/// The generic-address window of the module's constant bank 3 (high
/// word): only `isspacep.const` and `cvta.const` read its base; a generic
/// access through it is not modelled (it reads as a global address).
pub const CONST_WINDOW_HI: u32 = 0x0003_0000;
/// The generic-address window of bank 0, whose kernel parameter block
/// `isspacep.param` and `cvta.param` locate (high word; generic access
/// through it is not modelled either).
pub const BANK0_WINDOW_HI: u32 = 0x0004_0000;
/// Bytes of local memory each thread gets beyond its declared frame and
/// stack (the stack grows down from the top of its window).
pub const LOCAL_SLACK: u32 = 1024;

const R_CUDA_64: u32 = 2;
const R_CUDA_32: u32 = 1;
/// The word of a kernel's constant bank 0 that the driver fills with the
/// handle of the texture bound to a `.texref` symbol (ptxas 13.5: type 6
/// in `.rel.nv.constant0.<kernel>`, the symbol of type STT_CUDA_TEXTURE).
const R_CUDA_TEX_HANDLE: u32 = 6;
/// Likewise for a `.surfref` (type 52, the symbol of type STT_CUDA_SURFACE).
const R_CUDA_SURF_HANDLE: u32 = 52;

/// The driver-filled words of bank 0 on one SM.
#[derive(Clone, Copy, Debug)]
pub struct BankLayout {
    /// `ntid.x` (y, z follow).
    pub ntid: u32,
    /// `nctaid.x` (y, z follow).
    pub nctaid: u32,
    /// The initial stack pointer (R1).
    pub stack: u32,
    /// The 64-bit local window base.
    pub local_window: u32,
    /// The 64-bit shared window base.
    pub shared_window: u32,
    /// The 64-bit global memory descriptor.
    pub descriptor: u32,
    /// The first parameter.
    pub params: u32,
    /// The 64-bit generic base of the module's constant bank 3.
    pub const_window: u32,
    /// Where the parameter block's generic window is described (the
    /// compiler's type; the interpreter's own values, [`bank_layout`]).
    pub param_window: ParamWindow,
}

/// Bank 0 offsets for an SM.
pub fn bank_layout(sm: u32) -> BankLayout {
    let params = param_base(sm);
    // The constant and parameter windows: the words ptxas 13.5 reads for
    // `isspacep.const/.param` and `cvta.const/.param` (kept apart from the
    // compiler's own table, so that a wrong offset there shows as a
    // difference from ptxas's code).
    if sm >= 100 {
        let param_window = ParamWindow::Bounds { first: 0x348, last: 0x350 };
        BankLayout { ntid: 0x360, nctaid: 0x370, stack: 0x37c, local_window: 0x2f8, shared_window: 0x2f0, descriptor: 0x358, params, const_window: 0x120, param_window }
    } else {
        let (const_window, param_window) = match sm {
            90.. => (0xd0, ParamWindow::Bounds { first: 0x198, last: 0x1a0 }),
            80.. => (0x50, ParamWindow::BankRelative { bank: 0x40, last_offset: 0x12c }),
            _ => (0x50, ParamWindow::BankRelative { bank: 0x40, last_offset: 0x114 }),
        };
        let descriptor = if sm >= 90 { 0x208 } else { 0x118 };
        BankLayout { ntid: 0x0, nctaid: 0xc, stack: 0x28, local_window: 0x20, shared_window: 0x18, descriptor, params, const_window, param_window }
    }
}

/// The bank-0 words a launch without clusters gives the cluster special
/// registers (a cluster of one CTA), as (offset, value). ptxas 13.5 reads,
/// on sm_90: whether the launch has explicit clusters at 0x140 (`== 1`:
/// `%is_explicit_cluster`; `barrier.cluster` uses the cluster barrier only
/// then), `%cluster_nctaid` at 0x144/0x148/0x14c, the float reciprocals
/// of its y and z at 0x154/0x158 (`%clusterid.y` is ctaid.y times it,
/// truncated), `%nclusterid` at 0x15c/0x160/0x164 and `%cluster_nctarank`
/// at 0x188. From sm_100 the flag is at 0x36c and the rest in a table
/// indexed by `SR_CgaSize` times -0xa0: `%cluster_nctaid` at 0x2a0, the
/// reciprocals at 0x2b4/0x2b8, `%nclusterid` at 0x2c0, `%cluster_nctarank`
/// at 0x2cc with `SR_CgaSize` 0, what the interpreter's reads.
pub fn cluster_words(sm: u32, grid: [u32; 3]) -> Vec<(u32, u32)> {
    // (flag, cluster_nctaid.x, reciprocal of .y, nclusterid.x, nctarank)
    let (flag, nctaid, reciprocal, nclusterid, nctarank) = if sm >= 100 {
        (0x36c, 0x2a0, 0x2b4, 0x2c0, 0x2cc)
    } else if sm >= 90 {
        (0x140, 0x144, 0x154, 0x15c, 0x188)
    } else {
        return Vec::new();
    };
    let one = 1.0f32.to_bits();
    let mut words = vec![(flag, 0), (nctarank, 1), (reciprocal, one), (reciprocal + 4, one)];
    for k in 0..3 {
        words.push((nctaid + 4 * k, 1));
        words.push((nclusterid + 4 * k, grid[k as usize]));
    }
    words
}

/// A kernel ready to run.
#[derive(Debug)]
pub struct Loaded {
    /// The SM of the cubin.
    pub sm: Sm,
    /// The kernel's name.
    pub name: String,
    /// Its code (device functions ptxas placed in its section included).
    pub words: Vec<u128>,
    /// Constant banks by number (0..=17): bytes, empty when absent.
    pub banks: Vec<Vec<u8>>,
    /// Static shared memory bytes (the reserved area of sm_90+ included).
    pub static_shared: u64,
    /// Local memory bytes per thread.
    pub local_bytes: u32,
    /// Device memory: the launch's buffers and the module's globals.
    pub launch: Launch,
}

fn launch_error(message: impl Into<String>) -> InterpError {
    InterpError::new(ErrorKind::Launch, message)
}

fn malformed(message: impl Into<String>) -> InterpError {
    InterpError::new(ErrorKind::Malformed, message)
}

/// The shared bytes the driver reserves per CTA from sm_80 (1 KB, CUDA's
/// `cudaDevAttrReservedSharedMemoryPerBlock`), which `SR_SMEMSZ` counts
/// on top of the CTA's own.
pub const RESERVED_SHARED: u32 = 0x400;

/// The bank-0 word that holds [`RESERVED_SHARED`]: ptxas 13.5's code for
/// `%total_smem_size` subtracts c[0x0][0x114] from `SR_SMEMSZ` on
/// sm_80..sm_90 and c[0x0][0x16c] from sm_100; sm_75 reserves nothing.
/// (Kept apart from the compiler's table, so that a wrong offset there
/// shows as a difference from ptxas's code.)
pub fn reserved_shared_word(sm: u32) -> Option<u32> {
    match sm {
        100.. => Some(0x16c),
        80.. => Some(0x114),
        _ => None,
    }
}

/// Reads the cubin and lays out everything a launch of `spec` needs.
pub fn load(cubin: &[u8], spec: &LaunchSpec) -> Result<Loaded, InterpError> {
    let read = elf::read(cubin).map_err(|e| malformed(format!("not a cubin: {e}")))?;
    let file = &read.elf;
    let sm_number = file.sm().ok_or_else(|| malformed("e_flags name no SM"))?;
    let sm = Sm::parse_number(&sm_number.to_string()).ok_or_else(|| InterpError::new(ErrorKind::Unsupported, format!("unknown SM {sm_number}")))?;
    let text_name = format!(".text.{}", spec.kernel);
    let text_index = file.section_index(&text_name).ok_or_else(|| launch_error(format!("no kernel {} in the cubin", spec.kernel)))?;
    let text = file.section(text_index).ok_or_else(|| malformed("section index out of range"))?;
    let Content::Bytes(code) = &text.content else { return Err(malformed(format!("{text_name} holds no code"))) };
    let words = crate::isa::bits::words_from_bytes(code).ok_or_else(|| malformed(format!("{text_name} is not whole instructions")))?;

    let records: Vec<Attribute> = match file.section_index(&format!(".nv.info.{}", spec.kernel)).and_then(|i| file.section(i)).map(|s| &s.content) {
        Some(Content::Info(r)) => r.clone(),
        _ => Vec::new(),
    };
    let mut params: Vec<(u32, u32, u32)> = records
        .iter()
        .filter(|r| r.attr == attr::KPARAM_INFO)
        .filter_map(Attribute::as_words)
        .filter(|w| w.len() == 3)
        .map(|w| (w[1] & 0xffff, w[1] >> 16, (w[2] >> 18) & 0x3fff))
        .collect();
    params.sort_by_key(|p| p.0);
    params.dedup_by_key(|p| p.0);
    if params.len() != spec.params.len() {
        return Err(launch_error(format!("kernel {} takes {} parameters, the spec gives {}", spec.kernel, params.len(), spec.params.len())));
    }

    // Per-kernel sizes from the module-wide records (symbol index of the kernel).
    let symbol = file.symbols.iter().position(|y| y.name.as_deref() == Some(spec.kernel.as_str()) && u32::from(y.section) == text_index).map(|i| i as u32 + 1);
    let module_records: &[Attribute] = match file.section_index(".nv.info").and_then(|i| file.section(i)).map(|s| &s.content) {
        Some(Content::Info(r)) => r,
        _ => &[],
    };
    let per_function = |a: u8| -> u32 { module_records.iter().filter(|r| r.attr == a).filter_map(Attribute::as_words).filter(|w| w.len() == 2 && Some(w[0]) == symbol).map(|w| w[1]).max().unwrap_or(0) };
    let frame = per_function(attr::FRAME_SIZE).max(records.iter().filter(|r| r.attr == attr::FRAME_SIZE).filter_map(Attribute::as_words).flatten().max().unwrap_or(0));
    let stack = per_function(attr::MIN_STACK_SIZE);
    let local_bytes = frame.saturating_add(stack).min(1 << 20).div_ceil(16) * 16 + LOCAL_SLACK;

    let static_shared = file.section_index(&format!(".nv.shared.{}", spec.kernel)).and_then(|i| file.section(i)).map_or(0, |s| s.size(file));
    let static_shared = static_shared.max(crate::cubin::module::reserved_shared(sm_number));

    let mut launch = spec.materialize()?;

    // Globals: one allocation per global section, then their symbols' addresses.
    let mut section_base: Vec<Option<u64>> = vec![None; file.sections.len() + 1];
    for (i, s) in file.sections.iter().enumerate() {
        let index = i + 1;
        if s.name == ".nv.global" || s.name == ".nv.global.init" {
            let size = usize::try_from(s.size(file)).ok().filter(|&n| n <= 1 << 28).ok_or_else(|| malformed(format!("{} is too large", s.name)))?;
            let mut data = s.bytes(file);
            data.resize(size, 0);
            section_base[index] = Some(launch.memory.allocate(data, s.name.clone()));
        }
    }

    let mut banks: Vec<Vec<u8>> = vec![Vec::new(); 18];
    // Bank sections: `.nv.constantN` (module) and `.nv.constantN.<kernel>`.
    let mut bank_sections: Vec<(usize, u32)> = Vec::new();
    for (i, s) in file.sections.iter().enumerate() {
        let Some(rest) = s.name.strip_prefix(".nv.constant") else { continue };
        let (num, owner) = match rest.split_once('.') {
            Some((n, k)) => (n, Some(k)),
            None => (rest, None),
        };
        let Ok(bank) = num.parse::<usize>() else { continue };
        if bank >= banks.len() || owner.is_some_and(|k| k != spec.kernel) {
            continue;
        }
        let mut data = s.bytes(file);
        let size = usize::try_from(s.size(file)).unwrap_or(0).min(1 << 16);
        data.resize(size, 0);
        banks[bank] = data;
        bank_sections.push((i + 1, bank as u32));
    }

    // Relocations of the loaded data sections.
    for s in &file.sections {
        let target = s.info;
        let entries: Vec<(u64, u32, u32, i64)> = match &s.content {
            Content::Rela(r) if s.kind == 4 => r.iter().map(|r| (r.offset, r.symbol, r.kind, r.addend)).collect(),
            Content::Bytes(b) if s.kind == 9 => b
                .chunks_exact(16)
                .map(|c| {
                    let off = u64::from_le_bytes(c[..8].try_into().unwrap_or([0; 8]));
                    let info = u64::from_le_bytes(c[8..16].try_into().unwrap_or([0; 8]));
                    (off, (info >> 32) as u32, info as u32, 0)
                })
                .collect(),
            _ => continue,
        };
        let bank = bank_sections.iter().find(|(i, _)| *i as u32 == target).map(|(_, b)| *b);
        let global = section_base.get(target as usize).copied().flatten();
        if bank.is_none() && global.is_none() {
            continue;
        }
        for (offset, sym, kind, addend) in entries {
            let value = symbol_address(file, sym, &section_base).wrapping_add(addend as u64);
            let bytes: Vec<u8> = match kind {
                R_CUDA_64 => value.to_le_bytes().to_vec(),
                R_CUDA_32 => (value as u32).to_le_bytes().to_vec(),
                R_CUDA_TEX_HANDLE | R_CUDA_SURF_HANDLE => {
                    let name = (sym as usize).checked_sub(1).and_then(|i| file.symbols.get(i)).and_then(|y| y.name.as_deref());
                    let surface = kind == R_CUDA_SURF_HANDLE;
                    let bound = launch.textures.iter().find(|t| t.spec.texref.is_some() && t.spec.texref.as_deref() == name && t.spec.element_bytes.is_some() == surface);
                    match bound {
                        Some(t) => t.spec.handle.to_le_bytes().to_vec(),
                        None => return Err(launch_error(format!("no texture of the launch spec is bound to texref {}", name.unwrap_or("?")))),
                    }
                }
                _ => continue,
            };
            if let Some(b) = bank {
                let data = &mut banks[b as usize];
                let at = offset as usize;
                if at.checked_add(bytes.len()).is_some_and(|e| e <= data.len()) {
                    data[at..at + bytes.len()].copy_from_slice(&bytes);
                }
            } else if let Some(base) = global {
                launch.memory.write(base.wrapping_add(offset), &bytes, 1).map_err(|_| malformed("relocation outside its section"))?;
            }
        }
    }

    // Bank 0: driver words and arguments.
    let layout = bank_layout(sm_number);
    let params_end = params.iter().map(|&(_, off, size)| layout.params + off + size).max().unwrap_or(layout.params);
    let bank0 = &mut banks[0];
    let need = (params_end.max(layout.stack + 8).max(layout.descriptor + 8).max(0x400)) as usize;
    if bank0.len() < need {
        bank0.resize(need, 0);
    }
    let mut put = |at: u32, v: u32| {
        let at = at as usize;
        bank0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    for k in 0..3 {
        put(layout.ntid + 4 * k, spec.block[k as usize]);
        put(layout.nctaid + 4 * k, spec.grid[k as usize]);
    }
    for (at, v) in cluster_words(sm_number, spec.grid) {
        put(at, v);
    }
    // The launch's dynamic shared bytes (`%dynamic_smem_size`): ptxas
    // 13.5 reads c[0x0][0x2c] up to sm_90, and from sm_100 the table
    // `SR_CgaSize` indexes (0 here) at 0x2ac.
    put(if sm_number >= 100 { 0x2ac } else { 0x2c }, spec.shared_bytes);
    if let Some(at) = reserved_shared_word(sm_number) {
        put(at, RESERVED_SHARED);
    }
    put(layout.stack, local_bytes);
    put(layout.local_window, 0);
    put(layout.local_window + 4, LOCAL_WINDOW_HI);
    put(layout.shared_window, 0);
    put(layout.shared_window + 4, SHARED_WINDOW_HI);
    // The constant and parameter windows; the parameter window's last
    // address is the block's last byte (ptxas tests `a <= last`).
    put(layout.const_window, 0);
    put(layout.const_window + 4, CONST_WINDOW_HI);
    let last = params_end.max(layout.params + 1) - 1;
    match layout.param_window {
        ParamWindow::BankRelative { bank, last_offset } => {
            put(bank, 0);
            put(bank + 4, BANK0_WINDOW_HI);
            put(last_offset, last);
        }
        ParamWindow::Bounds { first, last: last_at } => {
            put(first, layout.params);
            put(first + 4, BANK0_WINDOW_HI);
            put(last_at, last);
            put(last_at + 4, BANK0_WINDOW_HI);
        }
    }
    for ((_, off, size), arg) in params.iter().zip(&launch.args) {
        if arg.bytes.len() != *size as usize {
            return Err(launch_error(format!("parameter at offset {off:#x} is {size} bytes, the spec gives {}", arg.bytes.len())));
        }
        let at = (layout.params + off) as usize;
        bank0[at..at + arg.bytes.len()].copy_from_slice(&arg.bytes);
    }
    Ok(Loaded { sm, name: spec.kernel.clone(), words, banks, static_shared, local_bytes, launch })
}

/// The address a relocation's symbol stands for: a global's device address,
/// a code symbol's offset in its section.
fn symbol_address(file: &Elf, symbol: u32, section_base: &[Option<u64>]) -> u64 {
    let Some(sym) = (symbol as usize).checked_sub(1).and_then(|i| file.symbols.get(i)) else { return 0 };
    match section_base.get(usize::from(sym.section)).copied().flatten() {
        Some(base) => base.wrapping_add(sym.value),
        None => sym.value,
    }
}

/// Shared memory for one CTA (static, then dynamic).
pub fn shared_region(loaded: &Loaded, dynamic: u32) -> Result<Region, InterpError> {
    let total = loaded.static_shared.div_ceil(16) * 16 + u64::from(dynamic);
    if total > 1 << 20 {
        return Err(launch_error(format!("{total} bytes of shared memory per CTA")));
    }
    Ok(Region::new(0, vec![0; total as usize], "shared"))
}
