//! The parser's tables that the build script derives from the opcode
//! table ([`crate::ptx::opcode::OpcodeInfo`]): the sorted modifier spellings,
//! each opcode's allowed keywords as a bit set, and the dotted family
//! names with their prefixes, and the indexes of spellings and names.
//! Derived at build time so that no run of the compiler spends its start
//! building them (`ptx2sass-meta`, `ptx_tables`).

use super::namekey::NameKey;
use super::strindex::StrIndex;
use crate::ptx::modifier::Keyword;

include!(concat!(env!("OUT_DIR"), "/ptx_tables.rs"));
