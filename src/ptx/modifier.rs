//! Instruction modifiers as typed values: the dotted words after an
//! instruction's family name (`add.rn.ftz.f32` has `.rn`, `.ftz`, `.f32`).
//!
//! Semantic classes the later stages read (types, vectors, state spaces,
//! rounding, comparisons, memory order and scope, `.ftz`, `.sat`) are typed
//! variants; every other ISA keyword is a [`Keyword`], an index into the
//! table of spellings the opcode table ([`super::opcode`]) allows.

use super::ast::{ScalarType, StateSpace};
use super::lookup::strindex::StrIndex;
use super::lookup::tables::{KEYWORD_INDEX, KEYWORD_SPELLINGS, KEYWORD_WORDS, KEYWORDS_ALLOWED};
use super::opcode::Opcode;
use std::sync::OnceLock;

/// Rounding modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Rounding {
    Rn, Rz, Rm, Rp, Rna, Rs, Rni, Rzi, Rmi, Rpi,
}

impl Rounding {
    const SPELLINGS: &'static [(Rounding, &'static str)] = &[
        (Rounding::Rn, ".rn"),
        (Rounding::Rz, ".rz"),
        (Rounding::Rm, ".rm"),
        (Rounding::Rp, ".rp"),
        (Rounding::Rna, ".rna"),
        (Rounding::Rs, ".rs"),
        (Rounding::Rni, ".rni"),
        (Rounding::Rzi, ".rzi"),
        (Rounding::Rmi, ".rmi"),
        (Rounding::Rpi, ".rpi"),
    ];
    /// Whether this is an integer rounding (`.rni` etc., float→float to integral value).
    pub fn is_integer(self) -> bool {
        matches!(self, Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi)
    }
}

/// Comparison operators of `setp`, `set`, `slct`-like instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CmpOp {
    Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
}

impl CmpOp {
    const SPELLINGS: &'static [(CmpOp, &'static str)] = &[
        (CmpOp::Eq, ".eq"),
        (CmpOp::Ne, ".ne"),
        (CmpOp::Lt, ".lt"),
        (CmpOp::Le, ".le"),
        (CmpOp::Gt, ".gt"),
        (CmpOp::Ge, ".ge"),
        (CmpOp::Lo, ".lo"),
        (CmpOp::Ls, ".ls"),
        (CmpOp::Hi, ".hi"),
        (CmpOp::Hs, ".hs"),
        (CmpOp::Equ, ".equ"),
        (CmpOp::Neu, ".neu"),
        (CmpOp::Ltu, ".ltu"),
        (CmpOp::Leu, ".leu"),
        (CmpOp::Gtu, ".gtu"),
        (CmpOp::Geu, ".geu"),
        (CmpOp::Num, ".num"),
        (CmpOp::Nan, ".nan"),
    ];
    /// Whether the comparison is only defined on unsigned integers (`.lo .ls .hi .hs`).
    pub fn is_unsigned_only(self) -> bool {
        matches!(self, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs)
    }
    /// Whether the comparison is only defined on floats (unordered forms, `.num`, `.nan`).
    pub fn is_float_only(self) -> bool {
        matches!(
            self,
            CmpOp::Equ | CmpOp::Neu | CmpOp::Ltu | CmpOp::Leu | CmpOp::Gtu | CmpOp::Geu | CmpOp::Num | CmpOp::Nan
        )
    }
}

/// Boolean combining operators (`setp.lt.and.s32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BoolOp {
    And, Or, Xor,
}

/// Memory-ordering semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Semantics {
    Weak, Relaxed, Acquire, Release, AcqRel, Volatile, Mmio, Sc,
}

impl Semantics {
    const SPELLINGS: &'static [(Semantics, &'static str)] = &[
        (Semantics::Weak, ".weak"),
        (Semantics::Relaxed, ".relaxed"),
        (Semantics::Acquire, ".acquire"),
        (Semantics::Release, ".release"),
        (Semantics::AcqRel, ".acq_rel"),
        (Semantics::Volatile, ".volatile"),
        (Semantics::Mmio, ".mmio"),
        (Semantics::Sc, ".sc"),
    ];
}

/// Memory-consistency scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Scope {
    Cta, Cluster, Gpu, Sys,
}

impl Scope {
    const SPELLINGS: &'static [(Scope, &'static str)] = &[
        (Scope::Cta, ".cta"),
        (Scope::Cluster, ".cluster"),
        (Scope::Gpu, ".gpu"),
        (Scope::Sys, ".sys"),
    ];
}

/// Any other ISA modifier: an index into [`keyword_table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Keyword(pub u16);

impl Keyword {
    /// The spelling with its dot.
    pub fn spelling(self) -> &'static str {
        KEYWORD_SPELLINGS.get(self.0 as usize).copied().unwrap_or("")
    }
    /// Looks a spelling up.
    pub fn from_spelling(s: &str) -> Option<Keyword> {
        keyword_table().index.get(s)
    }
}

/// One modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// A type: `.u32`, `.f16x2`, ...
    Type(ScalarType),
    /// `.v2`, `.v4`, `.v8`.
    Vector(u8),
    /// A state space: `.global`, `.shared::cta`, ...
    Space(StateSpace),
    /// Rounding.
    Rounding(Rounding),
    /// Comparison (only on comparison instructions; elsewhere `.lo`/`.hi` are keywords).
    Cmp(CmpOp),
    /// Boolean combining op (only on `setp`/`set`).
    Bool(BoolOp),
    /// Memory order.
    Sem(Semantics),
    /// Scope.
    Scope(Scope),
    /// `.ftz`.
    Ftz,
    /// `.sat`.
    Sat,
    /// Anything else.
    Word(Keyword),
}

impl Modifier {
    /// The spelling with its dot.
    pub fn spelling(self) -> &'static str {
        match self {
            Modifier::Type(t) => t.spelling(),
            Modifier::Vector(2) => ".v2",
            Modifier::Vector(4) => ".v4",
            Modifier::Vector(8) => ".v8",
            Modifier::Vector(_) => ".v16",
            Modifier::Space(s) => s.spelling(),
            Modifier::Rounding(r) => lookup_rev(Rounding::SPELLINGS, r),
            Modifier::Cmp(c) => lookup_rev(CmpOp::SPELLINGS, c),
            Modifier::Bool(BoolOp::And) => ".and",
            Modifier::Bool(BoolOp::Or) => ".or",
            Modifier::Bool(BoolOp::Xor) => ".xor",
            Modifier::Sem(s) => lookup_rev(Semantics::SPELLINGS, s),
            Modifier::Scope(s) => lookup_rev(Scope::SPELLINGS, s),
            Modifier::Ftz => ".ftz",
            Modifier::Sat => ".sat",
            Modifier::Word(k) => k.spelling(),
        }
    }

    /// Classifies a spelling (with its dot) on a given instruction. Returns
    /// `None` when the instruction does not accept it.
    pub fn classify(opcode: Opcode, spelling: &str) -> Option<Modifier> {
        let t = keyword_table();
        let id = t.index.get(spelling)?;
        let allowed = &t.allowed[opcode as usize];
        let (word, bit) = (id.0 as usize / 64, id.0 % 64);
        if allowed.get(word).is_none_or(|w| w & (1u64 << bit) == 0) {
            return None;
        }
        let k = id.0 as usize;
        let on_comparison = opcode.is_comparison();
        let meanings = if on_comparison { &t.on_comparison } else { &t.elsewhere };
        Some(*meanings[k].get_or_init(|| Modifier::classify_spelling(t.spellings[k], on_comparison, id)))
    }

    /// The typed meaning of a spelling from the table.
    fn classify_spelling(s: &str, on_comparison: bool, id: Keyword) -> Modifier {
        if let Some(t) = ScalarType::from_spelling(s) {
            return Modifier::Type(t);
        }
        match s {
            ".v2" => return Modifier::Vector(2),
            ".v4" => return Modifier::Vector(4),
            ".v8" => return Modifier::Vector(8),
            ".ftz" => return Modifier::Ftz,
            ".sat" => return Modifier::Sat,
            _ => {}
        }
        if let Some(sp) = StateSpace::from_spelling(s) {
            return Modifier::Space(sp);
        }
        if let Some(r) = lookup(Rounding::SPELLINGS, s) {
            return Modifier::Rounding(r);
        }
        if on_comparison {
            if let Some(c) = lookup(CmpOp::SPELLINGS, s) {
                return Modifier::Cmp(c);
            }
            match s {
                ".and" => return Modifier::Bool(BoolOp::And),
                ".or" => return Modifier::Bool(BoolOp::Or),
                ".xor" => return Modifier::Bool(BoolOp::Xor),
                _ => {}
            }
        }
        if let Some(x) = lookup(Semantics::SPELLINGS, s) {
            return Modifier::Sem(x);
        }
        if let Some(x) = lookup(Scope::SPELLINGS, s) {
            return Modifier::Scope(x);
        }
        Modifier::Word(id)
    }
}

fn lookup<T: Copy>(table: &[(T, &'static str)], s: &str) -> Option<T> {
    table.iter().find(|(_, n)| *n == s).map(|(v, _)| *v)
}

fn lookup_rev<T: Copy + PartialEq>(table: &[(T, &'static str)], v: T) -> &'static str {
    table.iter().find(|(x, _)| *x == v).map_or("", |(_, n)| n)
}

/// Every modifier spelling of the opcode table, sorted, with an index,
/// which opcode allows which, and what each means, so that classifying a
/// modifier is one index lookup and two array reads. The spellings, the
/// index and the bit sets come from the build script
/// (`lookup::tables`); a spelling's meaning is worked out on its
/// first use.
pub struct KeywordTable {
    /// Spellings by keyword index.
    pub spellings: &'static [&'static str],
    index: &'static StrIndex<Keyword>,
    /// Per opcode (by discriminant), a bit set over keyword indices.
    allowed: &'static [[u64; KEYWORD_WORDS]],
    /// Meaning on `setp`/`set`/`vset*`.
    on_comparison: [OnceLock<Modifier>; KEYWORD_COUNT],
    /// Meaning on every other instruction.
    elsewhere: [OnceLock<Modifier>; KEYWORD_COUNT],
}

/// How many spellings the table has.
pub const KEYWORD_COUNT: usize = KEYWORD_SPELLINGS.len();

/// The keyword table.
pub fn keyword_table() -> &'static KeywordTable {
    static TABLE: KeywordTable = KeywordTable {
        spellings: &KEYWORD_SPELLINGS,
        index: &KEYWORD_INDEX,
        allowed: &KEYWORDS_ALLOWED,
        on_comparison: [const { OnceLock::new() }; KEYWORD_COUNT],
        elsewhere: [const { OnceLock::new() }; KEYWORD_COUNT],
    };
    &TABLE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_spelling_classifies_and_prints_back() {
        for &op in Opcode::ALL {
            for &s in op.info().modifiers {
                let m = Modifier::classify(op, s).expect("table spelling accepted");
                assert_eq!(m.spelling(), s, "{} {}", op.name(), s);
            }
        }
    }

    #[test]
    fn opcode_discriminants_index_all() {
        for (i, op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i, "Opcode::ALL must list opcodes in declaration order");
        }
    }

    #[test]
    fn lo_is_a_comparison_only_on_setp() {
        let setp = Opcode::from_name("setp").unwrap();
        let mul = Opcode::from_name("mul").unwrap();
        assert_eq!(Modifier::classify(setp, ".lo"), Some(Modifier::Cmp(CmpOp::Lo)));
        assert!(matches!(Modifier::classify(mul, ".lo"), Some(Modifier::Word(_))));
        assert_eq!(Modifier::classify(mul, ".bogus"), None);
    }
}
