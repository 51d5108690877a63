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

pub mod bits;
pub mod branch;
pub mod build;
pub mod ctrl;
pub mod family;
pub mod form;
pub mod inline;
pub mod inst;
pub mod listing;
pub mod op;
pub mod op_facts;
pub mod opcode;
pub mod operand;
pub mod parse;
mod plan;
pub mod table;
