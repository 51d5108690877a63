//! Encoding families: which SMs share an instruction encoding, and which
//! measured SM's tables describe each SM.
//!
//! The families follow the encodings (SASS-ENCODING-SURVEY §6, cross-decoding
//! ptxas words of one SM with `nvdisasm` for another): sm_80, sm_86 and sm_89
//! decode each other's words identically except for a few modifier bits;
//! sm_75 shares the ALU layout but not the memory instructions; sm_90 moves
//! the branch offset and R2UR; sm_100 and sm_120 widen uniform-register
//! fields, replace ULDC by LDCU, and differ from each other in a few
//! opcodes (IADD on sm_120).

use crate::target::Sm;

/// A group of SMs with one instruction encoding (differences inside a
/// family are data keyed by [`measured_sm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// sm_75, sm_80, sm_86, sm_87, sm_88, sm_89 (Turing, Ampere, Ada).
    TuringAmpere,
    /// sm_90, sm_90a.
    Hopper,
    /// sm_100, sm_101, sm_103, sm_107, sm_110, sm_120, sm_121 and their `a`/`f` forms.
    Blackwell,
}

impl Family {
    /// The family of an SM, or `None` for SMs before sm_75 (other encodings).
    #[inline]
    pub fn of(sm: Sm) -> Option<Family> {
        match sm.number {
            75 | 80 | 86 | 87 | 88 | 89 => Some(Family::TuringAmpere),
            90 => Some(Family::Hopper),
            100 | 101 | 103 | 107 | 110 | 120 | 121 => Some(Family::Blackwell),
            _ => None,
        }
    }
}

/// SMs whose encodings were measured against the reference tools.
pub const MEASURED_SMS: &[u16] = &[75, 80, 86, 89, 90, 100, 120];

/// The measured SM whose tables apply to `sm`: itself when measured, else
/// the nearest measured SM of its family (sm_87/88 → sm_86, sm_101–110 →
/// sm_100, sm_121 → sm_120: assumed, not yet checked with `nvdisasm`).
#[inline]
pub fn measured_sm(sm: Sm) -> Option<u16> {
    measured_number(sm.number)
}

/// [`measured_sm`] of an SM number.
#[inline]
const fn measured_number(n: u16) -> Option<u16> {
    Some(match n {
        n if is_measured(n) => n,
        87 | 88 => 86,
        101 | 103 | 107 | 110 => 100,
        121 => 120,
        _ => return None,
    })
}

/// Whether `n` is in [`MEASURED_SMS`].
#[inline]
const fn is_measured(n: u16) -> bool {
    let mut k = 0;
    while k < MEASURED_SMS.len() {
        if MEASURED_SMS[k] == n {
            return true;
        }
        k += 1;
    }
    false
}

/// Position in [`MEASURED_SMS`] of each SM number's measured SM (`NONE`
/// for SMs without tables), for numbers below 128: decoding looks it up
/// for every word.
const MEASURED_INDEX: [u8; 128] = {
    let mut index = [NONE; 128];
    let mut n = 0;
    while n < 128 {
        if let Some(m) = measured_number(n as u16) {
            let mut k = 0;
            while MEASURED_SMS[k] != m {
                k += 1;
            }
            index[n] = k as u8;
        }
        n += 1;
    }
    index
};
const NONE: u8 = u8::MAX;

/// The position in [`MEASURED_SMS`] of the measured SM whose tables apply
/// to `sm` ([`measured_sm`]).
#[inline]
pub fn measured_index(sm: Sm) -> Option<usize> {
    match MEASURED_INDEX.get(usize::from(sm.number)) {
        Some(&k) if k != NONE => Some(usize::from(k)),
        Some(_) => None,
        // Past the table (no such SM yet): search.
        None => measured_sm(sm).and_then(|m| MEASURED_SMS.iter().position(|&s| s == m)),
    }
}

/// The `nvdisasm -b` name of an SM (`SM90A` for `sm_90a`).
pub fn nvdisasm_name(sm: Sm) -> String {
    sm.to_string().replacen("sm_", "SM", 1).to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::SmVariant;

    #[test]
    fn families_and_tables() {
        assert_eq!(Family::of(Sm::new(86)), Some(Family::TuringAmpere));
        assert_eq!(Family::of(Sm { number: 90, variant: SmVariant::Arch }), Some(Family::Hopper));
        assert_eq!(Family::of(Sm::new(121)), Some(Family::Blackwell));
        assert_eq!(Family::of(Sm::new(70)), None);
        assert_eq!(measured_sm(Sm::new(88)), Some(86));
        assert_eq!(measured_sm(Sm::new(103)), Some(100));
        assert_eq!(measured_sm(Sm::new(120)), Some(120));
        assert_eq!(measured_sm(Sm::new(61)), None);
        for n in 0..300 {
            let sm = Sm::new(n);
            assert_eq!(measured_index(sm).map(|k| MEASURED_SMS[k]), measured_sm(sm), "sm_{n}");
        }
        assert_eq!(nvdisasm_name(Sm { number: 100, variant: SmVariant::Family }), "SM100F");
    }
}
