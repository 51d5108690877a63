//! Cubins: NVIDIA's ELF container for GPU code.
//!
//! Two levels:
//! * [`elf`] (with [`layout`] and [`info`]): the container as ptxas writes
//!   it, read losslessly and written back byte for byte;
//! * [`module`]: what a compiled module is (kernels, parameters, resources,
//!   variables), [`build`] to lay one out as ptxas would, [`extract`] to read
//!   one back from a ptxas cubin, and [`listing`] for its text form in
//!   `sass dis` / `sass asm`.
//!
//! [`read_code`] is the quick path for tools that only need the SM and the
//! code of every function.

pub mod build;
pub mod elf;
pub mod extract;
pub mod info;
pub mod layout;
pub mod listing;
pub mod module;

use crate::isa::bits;
use crate::target::Sm;
use object::read::elf::{ElfFile64, FileHeader};

use object::{Object, ObjectSection};

/// ELF `EI_OSABI` of cubins written by CUDA 13 tools; they keep the SM in
/// bits 8–15 of `e_flags` (`sm_80`: `0x06005004`), where CUDA 12's (OSABI
/// 0x33) kept it in bits 0–7 (FACTS.md, measured on ptxas output).
const OSABI_CUDA13: u8 = 0x41;

/// The code of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionCode {
    /// Name (the section `.text.<name>`).
    pub name: String,
    /// Instruction words.
    pub words: Vec<u128>,
}

/// What `read_code` finds in a cubin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The SM the cubin is for, when `e_flags` names a known one.
    pub sm: Option<Sm>,
    /// Every `.text.*` section, in file order.
    pub functions: Vec<FunctionCode>,
}

/// Reads the SM and the functions' code of a cubin.
pub fn read_code(bytes: &[u8]) -> Result<Code, String> {
    let elf = ElfFile64::<object::Endianness>::parse(bytes).map_err(|e| format!("not a 64-bit ELF file: {e}"))?;
    let header = elf.elf_header();
    let endian = elf.endian();
    if header.e_machine(endian) != object::elf::EM_CUDA {
        return Err(format!("ELF machine {} is not EM_CUDA (190)", header.e_machine(endian)));
    }
    // EI_OSABI is byte 7 and e_flags the u32 at offset 48 of an ELF64 header
    // (little-endian, as cubins are); `parse` has checked the header's size.
    let os_abi = bytes[7];
    let flags = u32::from_le_bytes([bytes[48], bytes[49], bytes[50], bytes[51]]);
    let number = if os_abi == OSABI_CUDA13 { (flags >> 8) & 0xff } else { flags & 0xff };
    let sm = Sm::parse_number(&number.to_string());
    let mut functions = Vec::new();
    for section in elf.sections() {
        let Ok(name) = section.name() else { continue };
        let Some(function) = name.strip_prefix(".text.") else { continue };
        let data = section.data().map_err(|e| format!("section {name}: {e}"))?;
        let words = bits::words_from_bytes(data).ok_or_else(|| format!("section {name}: size {} is not a multiple of 16", data.len()))?;
        functions.push(FunctionCode { name: function.to_string(), words });
    }
    Ok(Code { sm, functions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_what_is_not_a_cubin() {
        assert!(read_code(b"not an elf").is_err());
        assert!(read_code(&[]).is_err());
    }
}
