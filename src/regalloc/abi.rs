//! The calling convention between the functions of a module (the module
//! documentation of [`super`] states it): which physical R registers hold
//! the return address and the argument and result words.

/// The low register of the return-address pair (R2:R3).
pub const RETURN_ADDRESS: u8 = 2;

/// The register of the first argument (and result) word.
pub const FIRST_WORD: u8 = 4;

/// The most words passed one way (arguments or results): the words must
/// be singles of the R run, which has at most 64 of them.
pub const MAX_WORDS: u32 = 48;

/// The register of word `k` (arguments and results both count from 0).
pub fn word_reg(k: u32) -> Option<u8> {
    (k < MAX_WORDS).then(|| FIRST_WORD + k as u8)
}
