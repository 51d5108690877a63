//! The types and rows that ptx2sass's compiler (the `ptx2sass` crate) and
//! its build-time generator (`ptx2sass-meta`, run by the compiler's build
//! script) both read, as `cranelift-codegen-shared` serves Cranelift: the
//! generator runs the form table's definition, which builds values of these
//! types, and writes them as static data the compiler reads through the
//! same types. Nothing here depends on either crate.
//!
//! Modules sit at the paths the compiler has them (`crate::isa::form`,
//! `crate::target`, ...), which re-exports them there:
//! * [`target`]: SM versions and the target triple;
//! * [`isa`]: the SASS machine layer's data: bit fields of 128-bit words
//!   ([`isa::bits`]), branch-offset layouts ([`isa::branch`]), the measured
//!   SMs and their encoding families ([`isa::family`]), operands
//!   ([`isa::operand`]), the per-opcode facts' types ([`isa::op_facts`]),
//!   instruction forms ([`isa::form`], generic over the opcode and
//!   modifier-token enums the generator derives from the table), and the
//!   encoding plans compiled from forms ([`isa::plan::compile`]);
//! * [`ptx`]: the PTX instruction families' facts ([`ptx::opcode_info`]) and
//!   the parser's string keys and index ([`ptx::lookup`]), from which the
//!   generator builds the parser's keyword and name tables;
//! * [`ir`]: the Ori IR's opcodes ([`ir::opcode`]), whose ISLE declaration
//!   the generator writes.

pub mod target;

/// The SASS machine layer's shared data (the compiler's `isa`).
pub mod isa {
    pub mod bits;
    pub mod branch;
    pub mod family;
    pub mod form;
    pub mod op_facts;
    pub mod operand;

    /// Encoding plans (the compiler's `isa::plan`).
    pub mod plan {
        pub mod compile;
    }
}

/// The PTX front end's shared data (the compiler's `ptx`).
pub mod ptx {
    pub mod opcode_info;

    /// The parser's keys and indexes (the compiler's `ptx::lookup`).
    pub mod lookup {
        pub mod namekey;
        pub mod strindex;
    }
}

/// The Ori IR's shared data (the compiler's `ir`).
pub mod ir {
    pub mod opcode;
}
