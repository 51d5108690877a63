//! The parser's tables that the build script derives from the opcode
//! table ([`super::opcode::OpcodeInfo`]): the sorted modifier spellings,
//! each opcode's allowed keywords as a bit set, and the dotted family
//! names with their prefixes, and the indexes of spellings and names.
//! Derived at build time so that no run of the compiler spends its start
//! building them (build.rs, `ptx_tables`).

use super::modifier::Keyword;
use super::namekey::NameKey;
use super::strindex::StrIndex;

include!(concat!(env!("OUT_DIR"), "/ptx_tables.rs"));
