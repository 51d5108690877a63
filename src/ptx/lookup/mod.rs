//! The front end's fast lookups: the caches, memo tables and indexes that
//! make parsing and checking cheap without changing what they decide. Everything here stands in for a plain search or a recomputation
//! that would give the same answer more slowly.
//!
//! Keys and indexes:
//! * [`namekey`]: a name packed into two machine words with its length and
//!   hash, the key the interner ([`crate::ptx::ast::Interner`]), the
//!   indexes below and the checker hash and compare names by;
//! * [`strindex`]: a read-only open-addressing map from fixed strings to
//!   small values (modifier spellings, opcode names, special registers);
//! * [`tables`]: the indexes of the opcode table's modifier spellings and
//!   family names, and each opcode's allowed keywords as a bit set, which
//!   the build script derives from the opcode table and compiles in;
//! * [`spelling`]: the search of the small type and state-space tables by
//!   spellings packed into integers.
//!
//! Caches of per-instruction-head work (real programs repeat a few dozen
//! heads thousands of times):
//! * [`headcache`]: the parser's cache from a head's text (`ld.global.v4.f32`)
//!   to its family and typed modifiers;
//! * [`headmemo`]: the checker's memo of the heads whose head-only rules
//!   passed;
//! * [`sigplan`]: the signature check planned for a head, which the memo
//!   keeps.
//!
//! `namekey` and `strindex` use nothing of the crate but each other: they
//! are `ptx2sass-shared`'s, which the build script's generator
//! (`ptx2sass-meta`) uses too, to build the indexes of `tables`.

pub(super) mod headcache;
pub(super) mod headmemo;
pub(super) use ptx2sass_shared::ptx::lookup::namekey;
pub(super) mod sigplan;
pub(super) mod spelling;
pub use ptx2sass_shared::ptx::lookup::strindex;
pub(super) mod tables;
