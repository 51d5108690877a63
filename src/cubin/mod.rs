//! Cubins: NVIDIA's ELF container for GPU code.
//!
//! Two levels:
//! * [`elf`] (with [`layout`] and [`info`]): the container as ptxas writes
//!   it, read losslessly and written back byte for byte;
//! * [`module`]: what a compiled module is (kernels, parameters, resources,
//!   variables), [`build`] to lay one out as ptxas would, [`extract`] to read
//!   one back from a ptxas cubin, and [`listing`] for its text form in
//!   `sass dis` / `sass asm`; [`section_listing`] is the text form of any
//!   other cubin, section by section (code still as instructions).
//!
//! [`read_code`] is the quick path for tools that only need the SM and the
//! code of every function.

pub mod build;
pub mod debug_info;
pub mod elf;
pub mod extract;
pub mod info;
pub mod layout;
pub mod line_info;
pub mod listing;
pub mod module;
pub mod register_maps;
pub mod section_listing;

use crate::isa::bits;
use crate::target::Sm;

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
    code_of(&elf::read(bytes).map_err(|e| e.to_string())?.elf)
}

/// The SM and the functions' code of a cubin already read.
pub fn code_of(file: &elf::Elf) -> Result<Code, String> {
    let sm = file.sm().and_then(|n| Sm::parse_number(&n.to_string()));
    let mut functions = Vec::new();
    for s in &file.sections {
        let Some(function) = s.name.strip_prefix(".text.") else { continue };
        let data = s.bytes(file);
        let words = bits::words_from_bytes(&data).ok_or_else(|| format!("section {}: size {} is not a multiple of 16", s.name, data.len()))?;
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
