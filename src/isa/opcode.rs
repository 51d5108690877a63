//! Opcode identification: the value of bits 0–11 of an instruction word
//! (the 9-bit opcode and, for ALU-layout instructions, the 3-bit operand
//! form) and the mnemonic `nvdisasm` prints for it, per measured SM.
//!
//! The facts live in `data/opcodes.tsv` (how they were measured is in its
//! header); this module parses them once into a per-SM index. Only values
//! ptxas emitted for the corpus are listed so far: a word whose value is
//! missing is reported as unknown, never guessed.

use super::bits::Field;
use super::family::measured_sm;
use crate::target::Sm;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Bits 0–11: opcode and operand form.
pub const OPCODE: Field = Field::bits(0, 11);

const TABLE: &str = include_str!("data/opcodes.tsv");

/// `(measured SM, bits 0–11)` → mnemonic.
fn index() -> &'static HashMap<(u16, u16), &'static str> {
    static INDEX: OnceLock<HashMap<(u16, u16), &'static str>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map = HashMap::new();
        for line in TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let mut cols = line.split('\t');
            let (Some(sm), Some(value), Some(name)) = (cols.next(), cols.next(), cols.next()) else { continue };
            let (Ok(sm), Some(Ok(value))) =
                (sm.parse::<u16>(), value.strip_prefix("0x").map(|v| u16::from_str_radix(v, 16)))
            else {
                continue;
            };
            map.insert((sm, value), name);
        }
        map
    })
}

/// The mnemonic of a word on an SM (`IMAD`, `LDG`, ...), if the table knows
/// its opcode value.
pub fn mnemonic(word: u128, sm: Sm) -> Option<&'static str> {
    let table_sm = measured_sm(sm)?;
    index().get(&(table_sm, OPCODE.get(word) as u16)).copied()
}

/// Number of `(SM, opcode value)` entries in the table.
pub fn table_len() -> usize {
    index().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    #[test]
    fn table_parses_whole() {
        let rows = TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count();
        assert_eq!(table_len(), rows, "every data row is a distinct, well-formed (sm, value) entry");
    }

    #[test]
    fn family_specific_opcodes() {
        // R2UR moved at sm_90; ULDC gave way to LDCU at sm_100; 0x235 is IADD on sm_120 only
        // (survey §4).
        let r2ur_80 = join(0x000000000a0473c2, 0x000fc000000e0000);
        assert_eq!(mnemonic(r2ur_80, Sm::new(80)), Some("R2UR"));
        assert_eq!(mnemonic(r2ur_80, Sm::new(90)), None);
        assert_eq!(mnemonic(join(0x00000000000772ca, 0), Sm::new(90)), Some("R2UR"));
        let uldc = join(0x0000820000047ab9, 0x000fce0000000a00);
        assert_eq!(mnemonic(uldc, Sm::new(90)), Some("ULDC"));
        assert_eq!(mnemonic(uldc, Sm::new(100)), None);
        assert_eq!(mnemonic(join(0x00006b00ff0477ac, 0), Sm::new(100)), Some("LDCU"));
        assert_eq!(mnemonic(join(0x235, 0), Sm::new(120)), Some("IADD"));
        assert_eq!(mnemonic(join(0x235, 0), Sm::new(80)), Some("HFMA2"));
        assert_eq!(mnemonic(join(0x210, 0), Sm::new(61)), None, "no table before sm_75");
    }
}
