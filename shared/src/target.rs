//! GPU targets: the SM list ptx2sass knows, parsing of `sm_XX[a|f]` /
//! `compute_XX[a|f]` names, and the target-lexicon triple of the platform.

use std::fmt;

/// The variant suffix of an SM name: none, `a` (architecture-specific) or
/// `f` (family-specific).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SmVariant {
    /// `sm_90`
    Base,
    /// `sm_90a`
    Arch,
    /// `sm_100f`
    Family,
}

/// One streaming-multiprocessor architecture, e.g. `sm_90a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sm {
    /// Major*10 + minor, e.g. 90.
    pub number: u16,
    /// Suffix.
    pub variant: SmVariant,
}

/// SM numbers `ptxas` 13.x accepts (and this project targets); older ones are
/// parsed so that PTX naming them can be read and checked.
pub const KNOWN_SMS: &[u16] = &[
    20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101,
    103, 107, 110, 120, 121,
];

/// 32-bit registers in one SM's register file (64K on every SM here; the
/// same table), shared by the warps resident on it.
pub const REGISTERS_PER_SM: u32 = 65536;

/// The triple Rust and LLVM use for CUDA code (target-lexicon spelling).
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";

impl Sm {
    /// A base SM by number.
    #[inline]
    pub const fn new(number: u16) -> Sm {
        Sm { number, variant: SmVariant::Base }
    }

    /// Parses the part after `sm_` / `compute_`: `90`, `90a`, `100f`.
    pub fn parse_number(text: &str) -> Option<Sm> {
        let (digits, variant) = match text.as_bytes().last()? {
            b'a' => (&text[..text.len() - 1], SmVariant::Arch),
            b'f' => (&text[..text.len() - 1], SmVariant::Family),
            _ => (text, SmVariant::Base),
        };
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: u16 = digits.parse().ok()?;
        if !KNOWN_SMS.contains(&number) {
            return None;
        }
        Some(Sm { number, variant })
    }

    /// The threads one SM holds at once (the CUDA C++ Programming Guide's
    /// table of compute capabilities: 1024 on 7.5, 2048 on 8.0, 9.0 and
    /// 10.x, 1536 on 8.6, 8.7, 8.9 and 12.x).
    pub const fn max_threads_per_sm(self) -> u32 {
        match self.number {
            75 => 1024,
            80 | 90 | 100..=119 => 2048,
            _ => 1536,
        }
    }

    /// Parses `sm_XX[a|f]`.
    #[inline]
    pub fn parse_sm(text: &str) -> Option<Sm> {
        Sm::parse_number(text.strip_prefix("sm_")?)
    }
}

impl fmt::Display for Sm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = match self.variant {
            SmVariant::Base => "",
            SmVariant::Arch => "a",
            SmVariant::Family => "f",
        };
        write!(f, "sm_{}{}", self.number, suffix)
    }
}

/// What the `-arch` option names: a real SM (compile) or a virtual
/// `compute_XX` architecture (parse and check only, as `ptxas` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// `sm_XX`: generate code.
    Real(Sm),
    /// `compute_XX`: parse and check only.
    Virtual(Sm),
}

impl Arch {
    /// Parses `sm_XX` or `compute_XX` (with optional `a`/`f`).
    #[inline]
    pub fn parse(text: &str) -> Option<Arch> {
        if let Some(rest) = text.strip_prefix("compute_") {
            return Sm::parse_number(rest).map(Arch::Virtual);
        }
        Sm::parse_sm(text).map(Arch::Real)
    }
    /// The SM either way.
    #[inline]
    pub fn sm(self) -> Sm {
        match self {
            Arch::Real(sm) | Arch::Virtual(sm) => sm,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names() {
        assert_eq!(Arch::parse("sm_90a"), Some(Arch::Real(Sm { number: 90, variant: SmVariant::Arch })));
        assert_eq!(Arch::parse("compute_80"), Some(Arch::Virtual(Sm::new(80))));
        assert_eq!(Arch::parse("sm_100f").map(|a| a.sm().to_string()), Some("sm_100f".into()));
        assert_eq!(Arch::parse("sm_91"), None);
        assert_eq!(Arch::parse("sm_"), None);
        assert_eq!(Arch::parse("gfx90a"), None);
    }
}
