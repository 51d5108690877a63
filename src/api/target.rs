//! [`Target`]: the GPU architecture to compile for, by its `ptxas` name
//! (`sm_90`, `sm_90a`, `sm_100f`, `compute_90`) or as a target triple and
//! a chosen SM (`nvptx64-nvidia-cuda` and `sm_90`, as Rust and LLVM name
//! CUDA code).

use super::error::Error;
use crate::target::{Arch, KNOWN_SMS, Sm, SmVariant};
use std::fmt;
use std::str::FromStr;

/// The PTX ISA versions [`compile`](crate::compile) reads, oldest first
/// (`(9, 5)` is `.version 9.5`, the newest, as `ptxas` 13.5 reads).
#[rustfmt::skip]
pub const PTX_ISA_VERSIONS: &[(u8, u8)] = &[
    (1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5),
    (2, 0), (2, 1), (2, 2), (2, 3),
    (3, 0), (3, 1), (3, 2),
    (4, 0), (4, 1), (4, 2), (4, 3),
    (5, 0), (5, 1),
    (6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5),
    (7, 0), (7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 6), (7, 7), (7, 8),
    (8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7), (8, 8),
    (9, 0), (9, 1), (9, 2), (9, 3), (9, 4), (9, 5),
];

/// The target triple of CUDA code, as `target-lexicon` and `rustc` spell
/// it. It names no SM: [`Target::from_triple`] takes one beside it.
pub const TRIPLE: &str = crate::target::TRIPLE;

/// A GPU architecture: a real SM, for which [`compile`](crate::compile)
/// generates code, or a virtual `compute_XX` architecture, for which it
/// only parses and checks (as `ptxas -arch=compute_XX` does).
///
/// ```
/// use ptx2sass::Target;
///
/// let t: Target = "sm_90a".parse()?;
/// assert_eq!((t.number(), t.is_arch_specific(), t.is_virtual()), (90, true, false));
/// assert_eq!(t.to_string(), "sm_90a");
/// assert_eq!(Target::from_triple("nvptx64-nvidia-cuda", "sm_100f")?.to_string(), "sm_100f");
/// assert_eq!(t.triple(), "nvptx64-nvidia-cuda");
/// assert!("compute_90".parse::<Target>()?.is_virtual());
/// assert!("sm_91".parse::<Target>().is_err());
/// # Ok::<(), ptx2sass::Error>(())
/// ```
///
/// A `target_lexicon::Triple` converts through its text: pass it (or
/// anything else that prints as the triple) to [`Target::from_triple`],
/// and parse [`Target::triple`] to get one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    arch: Arch,
}

impl Target {
    /// The real SM `sm_<number>` (`Target::sm(90)` is `sm_90`); an error
    /// for a number no NVIDIA GPU has.
    pub fn sm(number: u16) -> Result<Target, Error> {
        format!("sm_{number}").parse()
    }

    /// The SM number: 90 for `sm_90a` and `compute_90`.
    pub fn number(self) -> u16 {
        self.arch.sm().number
    }

    /// Whether this is a virtual `compute_XX` architecture (check only).
    pub fn is_virtual(self) -> bool {
        matches!(self.arch, Arch::Virtual(_))
    }

    /// Whether the name has the `a` suffix (`sm_90a`: architecture-specific
    /// features, code for that SM only).
    pub fn is_arch_specific(self) -> bool {
        self.arch.sm().variant == SmVariant::Arch
    }

    /// Whether the name has the `f` suffix (`sm_100f`: family-specific
    /// features, code for the SMs of that family).
    pub fn is_family_specific(self) -> bool {
        self.arch.sm().variant == SmVariant::Family
    }

    /// Whether [`compile`](crate::compile) generates code for this SM
    /// (sm_75 and later); for an older one it checks PTX only and code
    /// generation fails with [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported).
    pub fn has_code_generation(self) -> bool {
        !self.is_virtual() && crate::isa::family::measured_sm(self.arch.sm()).is_some()
    }

    /// The real SM numbers code is generated for, in increasing order.
    pub fn code_generation_sms() -> impl Iterator<Item = u16> {
        KNOWN_SMS.iter().copied().filter(|&n| crate::isa::family::measured_sm(Sm::new(n)).is_some())
    }

    /// The target triple of CUDA code ([`TRIPLE`]); with
    /// [`Target`]'s name it says what to compile for.
    pub fn triple(self) -> &'static str {
        TRIPLE
    }

    /// The target for a triple and a chosen SM, as `rustc` and LLVM take
    /// them (`--target nvptx64-nvidia-cuda -C target-cpu=sm_90`). The
    /// triple is anything that prints as [`TRIPLE`] (a `&str`, a
    /// `target_lexicon::Triple`); the SM is a name as [`Target`] parses
    /// it. 32-bit `nvptx` and other triples are errors.
    pub fn from_triple(triple: impl fmt::Display, sm: &str) -> Result<Target, Error> {
        let text = triple.to_string();
        if text != TRIPLE {
            return Err(Error::options(format!("unsupported target triple '{text}' (ptx2sass compiles for {TRIPLE})")));
        }
        sm.parse()
    }

    /// The internal architecture value.
    pub(crate) fn arch(self) -> Arch {
        self.arch
    }

    /// The target of an internal architecture value.
    pub(crate) fn from_arch(arch: Arch) -> Target {
        Target { arch }
    }
}

impl Default for Target {
    /// `sm_75`, the target `ptxas` 13.x assumes without `-arch`.
    fn default() -> Self {
        Target { arch: Arch::Real(Sm::new(75)) }
    }
}

impl FromStr for Target {
    type Err = Error;

    /// Parses `sm_XX`, `sm_XXa`, `sm_XXf`, `compute_XX` (with the same
    /// suffixes), for the SM numbers NVIDIA's tools know.
    fn from_str(text: &str) -> Result<Target, Error> {
        Arch::parse(text).map(Target::from_arch).ok_or_else(|| Error::options(format!("unknown architecture '{text}'")))
    }
}

impl fmt::Display for Target {
    /// The `ptxas` name: `sm_90a`, `compute_90`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.arch {
            Arch::Real(sm) => write!(f, "{sm}"),
            Arch::Virtual(sm) => write!(f, "compute_{}", &sm.to_string()["sm_".len()..]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["sm_75", "sm_90a", "sm_100f", "compute_90", "compute_100a", "sm_121"] {
            assert_eq!(name.parse::<Target>().unwrap().to_string(), name);
        }
        for bad in ["sm_91", "sm_", "gfx90a", "compute_", "sm_90b", ""] {
            assert!(bad.parse::<Target>().is_err(), "{bad}");
        }
    }

    #[test]
    fn triples_other_than_nvptx64_are_refused() {
        assert!(Target::from_triple("nvptx-nvidia-cuda", "sm_90").is_err());
        assert!(Target::from_triple("x86_64-unknown-linux-gnu", "sm_90").is_err());
        assert_eq!(Target::from_triple(TRIPLE, "compute_80").unwrap(), "compute_80".parse().unwrap());
    }

    #[test]
    fn the_newest_ptx_version_is_the_checker_s() {
        assert_eq!(PTX_ISA_VERSIONS.last(), Some(&crate::ptx::check::MAX_PTX_VERSION));
        assert!(PTX_ISA_VERSIONS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn code_generation_starts_at_turing() {
        let sms: Vec<u16> = Target::code_generation_sms().collect();
        assert_eq!(sms.first(), Some(&75));
        assert!(sms.contains(&90) && sms.contains(&120) && !sms.contains(&70));
        assert!(!Target::sm(70).unwrap().has_code_generation());
        assert!(!"compute_90".parse::<Target>().unwrap().has_code_generation());
    }
}
