//! The calling conventions (the module documentation of [`super`] states
//! them): which physical R registers hold the return address and the
//! argument and result words.
//!
//! Two conventions:
//! * between the functions of a module, ours: return address R2:R3,
//!   words from R4 with no alignment ([`word_reg`]);
//! * for a function outside the module (`vprintf`, `__assertfail`, …,
//!   which the driver links), NVIDIA's, as ptxas 13.5 calls them
//!   (measured on its code for `printf` and ZLUDA's `assertfail.ptx`):
//!   the absolute return address in R20:R21 (`LEPC R20`), the callee's
//!   address in a pair (`CALL.ABS.NOINC`), arguments from R4 with every
//!   64-bit value at an even register (`__assertfail(b64, b64, b32, b64,
//!   b64)` takes R4:R5, R6:R7, R8, R10:R11, R12:R13), the result from R4
//!   ([`extern_words`]).

/// The low register of the return-address pair (R2:R3).
pub const RETURN_ADDRESS: u8 = 2;

/// The register of the first argument (and result) word.
pub const FIRST_WORD: u8 = 4;

/// The register of the target of a call through a register (the
/// callee's offset in the section): below the return address and the
/// words, so it is free at the call.
pub const INDIRECT_TARGET: u8 = 0;

/// The most words passed one way (arguments or results): the words must
/// be singles of the R run, which has at most 64 of them.
pub const MAX_WORDS: u32 = 48;

/// The register of word `k` (arguments and results both count from 0).
pub fn word_reg(k: u32) -> Option<u8> {
    (k < MAX_WORDS).then(|| FIRST_WORD + k as u8)
}

/// The low register of the return-address pair of a call outside the
/// module (R20:R21, where ptxas's `LEPC` puts it).
pub const EXTERN_RETURN_ADDRESS: u8 = 20;

/// The low register of the pair that holds the address of a function
/// outside the module at its call (free there: below the argument words
/// and clobbered by the call).
pub const EXTERN_TARGET: u8 = 2;

/// The registers of the words of values passed to (or returned from) a
/// function outside the module, given each value's width in words (1 or
/// 2): from R4, a 64-bit value at the next even register. An error when a
/// value is wider or the words would reach the return-address pair
/// (NVIDIA's convention passes those through memory, which is not
/// implemented).
pub fn extern_words(widths: &[u32]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut next = u32::from(FIRST_WORD);
    for &w in widths {
        match w {
            1 => {}
            2 => next = next.next_multiple_of(2),
            _ => return Err(format!("a {}-bit value is passed to or from a function outside the module (only 32- and 64-bit values are)", 32 * w)),
        }
        for k in 0..w {
            out.push(next as u8 + k as u8);
        }
        next += w;
    }
    if next > u32::from(EXTERN_RETURN_ADDRESS) {
        return Err("the arguments or results of a call outside the module do not fit R4–R19 (NVIDIA's convention passes more through memory: not supported)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extern_words_align_pairs_as_ptxas_calls_assertfail() {
        // ptxas 13.5, ZLUDA assertfail.ptx on sm_90: R4:R5, R6:R7, R8, R10:R11, R12:R13.
        assert_eq!(extern_words(&[2, 2, 1, 2, 2]), Ok(vec![4, 5, 6, 7, 8, 10, 11, 12, 13]));
        assert_eq!(extern_words(&[1]), Ok(vec![4]));
        assert!(extern_words(&[4]).is_err());
        assert!(extern_words(&[1; 17]).is_err());
        assert_eq!(extern_words(&[1; 16]).map(|w| w.len()), Ok(16));
    }
}
