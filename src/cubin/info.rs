//! `.nv.info`-format attribute records (`EIATTR_*`), as they appear in
//! `.nv.info`, `.nv.info.<function>`, `.nv.compat` and the sm_100+
//! `.nv.merc.nv.info*` copies.
//!
//! A record is a format byte, an attribute byte and two more bytes; the
//! format says what those two bytes are (measured on ptxas 13.5 cubins):
//! `01` none (zero), `02` a byte and a zero, `03` a little-endian u16, `04`
//! the u16 length of a payload that follows. The attribute names are the
//! ones `cuobjdump -elf` prints ([`ATTRIBUTE_NAMES`]).

/// One record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// `EIATTR_*` number.
    pub attr: u8,
    /// Its value.
    pub value: Value,
}

/// A record's value, by format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Format `01`: no value.
    None,
    /// Format `02`.
    Byte(u8),
    /// Format `03`.
    Half(u16),
    /// Format `04`: a payload of up to 65535 bytes.
    Bytes(Vec<u8>),
}

const EIFMT_NVAL: u8 = 1;
const EIFMT_BVAL: u8 = 2;
const EIFMT_HVAL: u8 = 3;
const EIFMT_SVAL: u8 = 4;

impl Attribute {
    /// A format-01 record.
    pub fn none(attr: u8) -> Self {
        Attribute { attr, value: Value::None }
    }
    /// A format-02 record.
    pub fn byte(attr: u8, v: u8) -> Self {
        Attribute { attr, value: Value::Byte(v) }
    }
    /// A format-03 record.
    pub fn half(attr: u8, v: u16) -> Self {
        Attribute { attr, value: Value::Half(v) }
    }
    /// A format-04 record.
    pub fn bytes(attr: u8, v: Vec<u8>) -> Self {
        Attribute { attr, value: Value::Bytes(v) }
    }
    /// A record whose payload is little-endian u32 words.
    pub fn words(attr: u8, words: &[u32]) -> Self {
        Attribute::bytes(attr, words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    /// The payload as little-endian u32 words (`None` unless a format-04
    /// payload whose length is a multiple of 4).
    pub fn as_words(&self) -> Option<Vec<u32>> {
        match &self.value {
            Value::Bytes(b) if b.len() % 4 == 0 => Some(b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()),
            _ => None,
        }
    }

    /// The name `cuobjdump` prints, or `EIATTR_<number>` for one not in the table.
    pub fn name(&self) -> String {
        attribute_name(self.attr).map_or_else(|| format!("EIATTR_{:#04x}", self.attr), str::to_string)
    }
}

/// Parses a whole record section; `None` when the bytes are not exactly a
/// sequence of records (the caller keeps such a section as bytes).
pub fn read(data: &[u8]) -> Option<Vec<Attribute>> {
    let mut records = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let head = data.get(at..at + 4)?;
        let (format, attr, lo, hi) = (head[0], head[1], head[2], head[3]);
        let half = u16::from_le_bytes([lo, hi]);
        at += 4;
        let value = match format {
            EIFMT_NVAL if half == 0 => Value::None,
            EIFMT_BVAL if hi == 0 => Value::Byte(lo),
            EIFMT_HVAL => Value::Half(half),
            EIFMT_SVAL => {
                let payload = data.get(at..at + half as usize)?;
                at += half as usize;
                Value::Bytes(payload.to_vec())
            }
            _ => return None,
        };
        records.push(Attribute { attr, value });
    }
    Some(records)
}

/// Writes records back to back.
pub fn write(records: &[Attribute]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        match &r.value {
            Value::None => out.extend_from_slice(&[EIFMT_NVAL, r.attr, 0, 0]),
            Value::Byte(b) => out.extend_from_slice(&[EIFMT_BVAL, r.attr, *b, 0]),
            Value::Half(h) => {
                out.extend_from_slice(&[EIFMT_HVAL, r.attr]);
                out.extend_from_slice(&h.to_le_bytes());
            }
            Value::Bytes(b) => {
                out.extend_from_slice(&[EIFMT_SVAL, r.attr]);
                out.extend_from_slice(&(b.len() as u16).to_le_bytes());
                out.extend_from_slice(b);
            }
        }
    }
    out
}

/// `EIATTR_*` numbers used by name in this crate.
pub mod attr {
    #![allow(missing_docs)]
    pub const PARAM_CBANK: u8 = 0x0a;
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    pub const KPARAM_INFO: u8 = 0x17;
    pub const BINDLESS_TEXTURE_BANK: u8 = 0x15;
    pub const BINDLESS_SURFACE_BANK: u8 = 0x16;
    pub const MAXREG_COUNT: u8 = 0x1b;
    pub const EXIT_INSTR_OFFSETS: u8 = 0x1c;
    pub const REQNTID: u8 = 0x10;
    pub const MAX_THREADS: u8 = 0x05;
    pub const FRAME_SIZE: u8 = 0x11;
    pub const CRS_STACK_SIZE: u8 = 0x1e;
    pub const COOP_GROUP_INSTR_OFFSETS: u8 = 0x28;
    pub const COOP_GROUP_MASK_REGIDS: u8 = 0x29;
    pub const INT_WARP_WIDE_INSTR_OFFSETS: u8 = 0x31;
    pub const MIN_STACK_SIZE: u8 = 0x12;
    pub const REGCOUNT: u8 = 0x2f;
    pub const SW_WAR: u8 = 0x36;
    pub const CUDA_API_VERSION: u8 = 0x37;
    pub const NUM_BARRIERS: u8 = 0x4c;
    pub const LANGUAGE: u8 = 0x66;
    pub const EXTERNS: u8 = 0x0f;
    pub const SYSCALL_OFFSETS: u8 = 0x46;
    pub const INDIRECT_BRANCH_TARGETS: u8 = 0x34;
}

/// Attribute names as `cuobjdump -elf` (CUDA 13.5) prints them, by number:
/// collected by matching its output with the records of ptxas's cubins for
/// the corpus (sm_75, sm_90, sm_120) and of `.reqntid`/`.maxntid` probes.
/// A number missing here prints as `EIATTR_0x..`; 0x5f is one cuobjdump
/// itself calls "unknown Attribute".
pub const ATTRIBUTE_NAMES: &[(u8, &str)] = &[
    (0x05, "EIATTR_MAX_THREADS"),
    (0x0a, "EIATTR_PARAM_CBANK"),
    (0x0f, "EIATTR_EXTERNS"),
    (0x10, "EIATTR_REQNTID"),
    (0x11, "EIATTR_FRAME_SIZE"),
    (0x12, "EIATTR_MIN_STACK_SIZE"),
    (0x15, "EIATTR_BINDLESS_TEXTURE_BANK"),
    (0x16, "EIATTR_BINDLESS_SURFACE_BANK"),
    (0x17, "EIATTR_KPARAM_INFO"),
    (0x19, "EIATTR_CBANK_PARAM_SIZE"),
    (0x1b, "EIATTR_MAXREG_COUNT"),
    (0x1c, "EIATTR_EXIT_INSTR_OFFSETS"),
    (0x1e, "EIATTR_CRS_STACK_SIZE"),
    (0x28, "EIATTR_COOP_GROUP_INSTR_OFFSETS"),
    (0x29, "EIATTR_COOP_GROUP_MASK_REGIDS"),
    (0x2f, "EIATTR_REGCOUNT"),
    (0x31, "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS"),
    (0x34, "EIATTR_INDIRECT_BRANCH_TARGETS"),
    (0x36, "EIATTR_SW_WAR"),
    (0x37, "EIATTR_CUDA_API_VERSION"),
    (0x46, "EIATTR_SYSCALL_OFFSETS"),
    (0x4a, "EIATTR_VRC_CTA_INIT_COUNT"),
    (0x4c, "EIATTR_NUM_BARRIERS"),
    (0x50, "EIATTR_SPARSE_MMA_MASK"),
    (0x53, "EIATTR_GEN_ERRBAR_AT_EXIT"),
    (0x66, "EIATTR_LANGUAGE"),
    (0x6b, "EIATTR_NVSAL_SW_WAR"),
    (0x6d, "EIATTR_PREEXIT_USED"),
];

/// `.nv.compat` record names, collected the same way (0x07 and 0x0d are
/// "unknown Attribute" to cuobjdump).
pub const COMPAT_ATTRIBUTE_NAMES: &[(u8, &str)] = &[
    (0x02, "EICOMPAT_ATTR_ISA_CLASS"),
    (0x03, "EICOMPAT_ATTR_INST_TENSORMAP_V1"),
    (0x09, "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET"),
    (0x0b, "EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE"),
    (0x0c, "EICOMPAT_ATTR_CUDA_INTERNAL_TARGET"),
    (0x0e, "EICOMPAT_ATTR_FINALIZER_VERSION"),
];

/// The name of attribute number `attr`, when known.
pub fn attribute_name(attr: u8) -> Option<&'static str> {
    ATTRIBUTE_NAMES.iter().find(|(n, _)| *n == attr).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_from_a_ptxas_cubin_round_trip() {
        // `.nv.info.kern` of a ptxas 13.5 sm_120 cubin (LANGUAGE, CUDA_API_VERSION,
        // EXIT_INSTR_OFFSETS, 0x50, MAXREG_COUNT, NUM_BARRIERS, 0x5f, 0x4a, 0x6b, 0x6d).
        let hex = "04660400030000000437040087000000041c0800400000008001000003500000031bff00024c0100035f0101024a0000036b0100026d0000";
        let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        let records = read(&bytes).expect("well-formed records");
        assert_eq!(records.len(), 10);
        assert_eq!(records[1], Attribute::words(attr::CUDA_API_VERSION, &[0x87]));
        assert_eq!(records[2].as_words(), Some(vec![0x40, 0x180]));
        assert_eq!(records[4], Attribute::half(attr::MAXREG_COUNT, 0xff));
        assert_eq!(records[5], Attribute::byte(attr::NUM_BARRIERS, 1));
        assert_eq!(write(&records), bytes);
    }

    #[test]
    fn malformed_records_are_refused() {
        assert_eq!(read(&[4, 0x2f, 8, 0, 1, 2]), None); // payload cut short
        assert_eq!(read(&[9, 0x2f, 0, 0]), None); // unknown format
        assert_eq!(read(&[1, 0x2f, 1, 0]), None); // format 01 with a value
        assert_eq!(read(&[3, 0x5f]), None); // header cut short
    }
}
