//! What lowering knows about every interned name of a module, worked out
//! once per module: how a register name splits into a `%r<N>` range prefix
//! and an index, and which special register a `%name` is. Also the
//! [`Binding`]s names resolve to.

use crate::ir::{GlobalId, SpecialReg, Type, Variable};
use crate::ptx::ast::{Interner, Symbol};

/// What a name is bound to in a function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// A scalar register: one SSA variable.
    Reg(Variable),
    /// A `%r<N>` range: elements get variables on first use (keyed by the
    /// declaration's number and the index).
    Range {
        /// The declaration's number within the function.
        id: u32,
        /// N.
        count: u32,
        /// Type of every element.
        ty: Type,
    },
    /// A `.vN` register: element `k` is variable `(id, k)` of the range map.
    VecReg {
        /// The declaration's number within the function.
        id: u32,
        /// N.
        n: u8,
        /// Type of each element.
        ty: Type,
        /// Bits of each element (its PTX type).
        bits: u16,
    },
    /// A `.vN` register range `%x<count>`: element `k` is the vector
    /// register of declaration number `first + k`.
    VecRange {
        /// The first element's declaration number.
        first: u32,
        /// The range's size.
        count: u32,
        /// N.
        n: u8,
        /// Type of each vector element.
        ty: Type,
        /// Bits of each vector element.
        bits: u16,
    },
    /// A module variable (module scope, or function-scope `.shared`,
    /// `.global`, `.const`).
    Global(GlobalId),
    /// A function `.local` variable: a slot of the frame.
    Frame {
        /// Byte offset in the frame.
        offset: u32,
    },
    /// A kernel parameter: the index in `Function::params`.
    KernelParam(u32),
    /// A `.param` variable held in a register: a device function's
    /// parameter or return value, or a call sequence's argument or result.
    ParamVar {
        /// The variable holding the whole parameter.
        var: Variable,
        /// Its size in bytes.
        size: u32,
    },
    /// A `.param` aggregate of more than 16 bytes (a struct passed or
    /// returned by value): held in registers as parts of 16 bytes (the
    /// last one smaller), part `k` the element variable `(id, k)` of type
    /// [`super::types::aggregate_part_type`]. Each part is one argument
    /// or result of the call, so the words go in registers as every other
    /// argument's do.
    ParamAggregate {
        /// The declaration's number within the function.
        id: u32,
        /// Its size in bytes.
        size: u32,
    },
}

/// How a special register is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SregName {
    /// Not a special register.
    No,
    /// A `.x/.y/.z` triple (`%tid`): the `x` register; `y` and `z` follow it
    /// in [`SpecialReg::ALL`].
    Xyz(SpecialReg),
    /// A single register.
    Plain(SpecialReg),
    /// `%cluster_ctaid.{x,y,z}`: `%ctaid` modulo `%cluster_nctaid`.
    ClusterCtaid,
    /// `%clusterid.{x,y,z}`: `%ctaid` divided by `%cluster_nctaid`.
    Clusterid,
    /// `%is_explicit_cluster`: whether the launch's cluster word is 1.
    IsExplicitCluster,
    /// One of a numbered family (`%envreg3`, `%pm1`, `%pm1_64`): the
    /// register and its number.
    Numbered(SpecialReg, u8),
}

/// A numbered special register's register and number: `%envreg0` to
/// `%envreg31`, `%pm0` to `%pm7` and `%pm0_64` to `%pm7_64` (PTX ISA,
/// "Special Registers").
fn numbered_sreg(text: &str) -> Option<SregName> {
    let number = |digits: &str, below: u8| digits.parse::<u8>().ok().filter(|&n| n < below && digits == n.to_string());
    if let Some(d) = text.strip_prefix("%envreg") {
        return number(d, 32).map(|n| SregName::Numbered(SpecialReg::EnvReg, n));
    }
    let d = text.strip_prefix("%pm")?;
    match d.strip_suffix("_64") {
        Some(d) => number(d, 8).map(|n| SregName::Numbered(SpecialReg::PerfCounter64, n)),
        None => number(d, 8).map(|n| SregName::Numbered(SpecialReg::PerfCounter, n)),
    }
}

/// Special registers by PTX name (PTX ISA, "Special Registers").
const SREGS: &[(&str, SregName)] = &[
    ("%tid", SregName::Xyz(SpecialReg::TidX)),
    ("%ntid", SregName::Xyz(SpecialReg::NtidX)),
    ("%ctaid", SregName::Xyz(SpecialReg::CtaidX)),
    ("%nctaid", SregName::Xyz(SpecialReg::NctaidX)),
    ("%laneid", SregName::Plain(SpecialReg::LaneId)),
    ("%warpid", SregName::Plain(SpecialReg::WarpId)),
    ("%nwarpid", SregName::Plain(SpecialReg::NwarpId)),
    ("%smid", SregName::Plain(SpecialReg::SmId)),
    ("%nsmid", SregName::Plain(SpecialReg::NsmId)),
    ("%gridid", SregName::Plain(SpecialReg::GridId)),
    ("%lanemask_eq", SregName::Plain(SpecialReg::LanemaskEq)),
    ("%lanemask_le", SregName::Plain(SpecialReg::LanemaskLe)),
    ("%lanemask_lt", SregName::Plain(SpecialReg::LanemaskLt)),
    ("%lanemask_ge", SregName::Plain(SpecialReg::LanemaskGe)),
    ("%lanemask_gt", SregName::Plain(SpecialReg::LanemaskGt)),
    ("%clock", SregName::Plain(SpecialReg::Clock)),
    ("%clock64", SregName::Plain(SpecialReg::Clock64)),
    ("%globaltimer", SregName::Plain(SpecialReg::GlobalTimer)),
    ("%dynamic_smem_size", SregName::Plain(SpecialReg::DynamicSmemSize)),
    ("%total_smem_size", SregName::Plain(SpecialReg::TotalSmemSize)),
    ("%cluster_ctarank", SregName::Plain(SpecialReg::ClusterCtaRank)),
    ("%cluster_nctarank", SregName::Plain(SpecialReg::ClusterNctaRank)),
    ("%cluster_nctaid", SregName::Xyz(SpecialReg::ClusterNctaidX)),
    ("%nclusterid", SregName::Xyz(SpecialReg::NclusteridX)),
    ("%cluster_ctaid", SregName::ClusterCtaid),
    ("%clusterid", SregName::Clusterid),
    ("%is_explicit_cluster", SregName::IsExplicitCluster),
];

/// The value type of a special register: 64 bits for `%clock64`,
/// `%globaltimer` and `%gridid` (PTX declares them `.u64`), else 32.
pub(super) fn sreg_type(r: SpecialReg) -> Type {
    match r {
        SpecialReg::Clock64 | SpecialReg::GlobalTimer | SpecialReg::GridId | SpecialReg::PerfCounter64 => Type::R64,
        _ => Type::R32,
    }
}

/// Per-symbol facts of one module's name table.
pub(super) struct NameFacts {
    /// `%r12` → (`%r`, 12) when the prefix is itself an interned name.
    pub split: Vec<Option<(Symbol, u32)>>,
    /// Special-register names.
    pub sreg: Vec<SregName>,
    /// `WARP_SZ`, if interned.
    pub warp_sz: Option<Symbol>,
}

impl NameFacts {
    /// Scans the name table once.
    pub fn new(names: &Interner) -> NameFacts {
        let mut split = Vec::with_capacity(names.len());
        let mut sreg = Vec::with_capacity(names.len());
        for text in names.names() {
            sreg.push(if text.starts_with('%') {
                SREGS.iter().find(|(n, _)| *n == text).map(|(_, s)| *s).or_else(|| numbered_sreg(text)).unwrap_or(SregName::No)
            } else {
                SregName::No
            });
            split.push(split_name(names, text));
        }
        NameFacts { split, sreg, warp_sz: names.get("WARP_SZ") }
    }
}

/// Splits a decimal suffix (no leading zeros, fits 32 bits) off a name
/// whose remaining prefix is interned.
fn split_name(names: &Interner, text: &str) -> Option<(Symbol, u32)> {
    let bytes = text.as_bytes();
    let at = bytes.len() - bytes.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let digits = &bytes[at..];
    if at == 0 || digits.is_empty() || digits.len() > 10 || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    let n = digits.iter().try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(u32::from(d - b'0')))?;
    Some((names.get(&text[..at])?, n))
}
