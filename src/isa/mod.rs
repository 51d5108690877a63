//! The SASS machine layer: instruction words of sm_75 and later, their
//! fields, control information, and (as it grows) the instruction model,
//! text syntax, encoder and decoder of each encoding family.
//!
//! What is here so far, each part checked against `nvdisasm` on every word
//! ptxas emits for the corpus (`tests/isa_corpus.rs`):
//! * [`bits`]: 128-bit words and their bit fields;
//! * [`ctrl`]: the scheduling control fields and their listing prefix;
//! * [`family`]: which SMs share an encoding and which measured tables apply;
//! * [`opcode`]: opcode values and the mnemonics they print as, per SM;
//! * [`branch`]: branch-offset fields, whose layout changes at sm_90;
//! * [`operand`], [`form`], [`table`], [`inst`]: the instruction model, the
//!   declarative form table, and decoding, encoding and `nvdisasm`-identical
//!   printing derived from it (a first set of instructions of every family),
//!   with `plan` compiling each form once into what decoding and encoding
//!   run per word;
//! * [`listing`]: the text `sass dis` prints, and [`parse`], reading it back;
//! * [`op`], [`op_facts`]: the opcode and modifier-token types generated from
//!   the table, and what later stages know of each opcode;
//! * [`build`]: instructions made from an opcode, tokens and operands
//!   (instruction selection).

pub mod build;
pub mod ctrl;
pub mod inline;
pub mod inst;
pub mod listing;
pub mod op;
pub mod opcode;
pub mod parse;

// The machine layer's data types, which the build script's generator
// (`ptx2sass-meta`) reads too: the shared crate's, at these paths.
pub use ptx2sass_shared::isa::{bits, branch, family, op_facts, operand};

/// Forms (see `ptx2sass-shared`'s `isa::form`) over the generated opcode
/// and modifier-token enums ([`op`]).
pub mod form {
    pub use ptx2sass_shared::isa::form::*;
    /// One encoding (see [`ptx2sass_shared::isa::form::Form`]).
    pub type Form = ptx2sass_shared::isa::form::Form<super::op::Op, super::op::Mod>;
    /// A form's mnemonic as tokens (see [`ptx2sass_shared::isa::form::Spelling`]).
    pub type Spelling = ptx2sass_shared::isa::form::Spelling<super::op::Mod>;
}
mod plan;
pub mod table;
