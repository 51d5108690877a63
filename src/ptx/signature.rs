//! Operand signatures: the opcode table's operand mini-language
//! (`"T T T | W T T W"`) parsed once into [`Signature`]s the checker reads.
//!
//! Grammar: alternatives separated by ` | `; each a space-separated list of
//! slots; a slot is a role, optionally followed by `?` (optional, trailing)
//! or `*` (any number, last). Roles: `T` instruction type, `W` twice its
//! width, `T1`/`T2` first/second type modifier, `p` predicate, `a` address,
//! `l` label or function, `x` anything, or a fixed type such as `u32`.

use super::ast::ScalarType;
use super::opcode::Opcode;
use std::sync::OnceLock;

/// What an operand slot must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `T`
    InstType,
    /// `W`
    Wide,
    /// `T1`
    FirstType,
    /// `T2`
    SecondType,
    /// `p`
    Pred,
    /// `a`
    Address,
    /// `l`
    Label,
    /// `x`
    Any,
    /// A fixed type.
    Fixed(ScalarType),
}

/// How many times a slot may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// Exactly once.
    One,
    /// `?`
    Optional,
    /// `*`
    Many,
}

/// One alternative operand list, with the facts the checker asks of it on
/// every instruction worked out when it is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Slots in order.
    pub slots: Vec<(Role, Repeat)>,
    /// Number of slots that must be present.
    required: usize,
    /// Whether the last slot repeats.
    many: bool,
    /// Whether a slot names `T2`.
    second_type: bool,
    /// Whether a slot names `T` or `W`.
    inst_type: bool,
}

impl Signature {
    /// A signature of these slots.
    pub fn new(slots: Vec<(Role, Repeat)>) -> Signature {
        Signature {
            required: slots.iter().filter(|(_, r)| *r == Repeat::One).count(),
            many: slots.iter().any(|(_, r)| *r == Repeat::Many),
            second_type: slots.iter().any(|(r, _)| *r == Role::SecondType),
            inst_type: slots.iter().any(|(r, _)| matches!(r, Role::InstType | Role::Wide)),
            slots,
        }
    }
    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    /// Whether there are no slots.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    /// Whether `n` operands fit.
    #[inline]
    pub fn accepts_count(&self, n: usize) -> bool {
        n >= self.required && (self.many || n <= self.slots.len())
    }
    /// The role of operand `k` (the last slot repeats for `*`).
    #[inline]
    pub fn role_at(&self, k: usize) -> Role {
        self.slots.get(k).or(self.slots.last()).map_or(Role::Any, |(r, _)| *r)
    }
    /// Whether a slot names `T2`.
    pub fn uses_second_type(&self) -> bool {
        self.second_type
    }
    /// Whether a slot names `T` or `W`.
    pub fn uses_inst_type(&self) -> bool {
        self.inst_type
    }
}

/// Parses one signature string; `None` if it does not follow the grammar.
pub fn parse_signatures(text: &str) -> Option<Vec<Signature>> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        out.push(Signature::new(Vec::new()));
        return Some(out);
    }
    for alt in text.split('|') {
        let mut slots = Vec::new();
        for word in alt.split_whitespace() {
            let (body, rep) = if let Some(b) = word.strip_suffix('?') {
                (b, Repeat::Optional)
            } else if let Some(b) = word.strip_suffix('*') {
                (b, Repeat::Many)
            } else {
                (word, Repeat::One)
            };
            let role = match body {
                "T" => Role::InstType,
                "W" => Role::Wide,
                "T1" => Role::FirstType,
                "T2" => Role::SecondType,
                "p" => Role::Pred,
                "a" => Role::Address,
                "l" => Role::Label,
                "x" => Role::Any,
                _ => Role::Fixed(ScalarType::from_spelling(&format!(".{body}"))?),
            };
            slots.push((role, rep));
        }
        out.push(Signature::new(slots));
    }
    Some(out)
}

/// The parsed signatures of an opcode, parsed on the first use of the
/// opcode (a module uses few of the table's families).
pub fn signatures(op: Opcode) -> &'static [Signature] {
    const OPCODES: usize = Opcode::ALL.len();
    static TABLE: [OnceLock<Vec<Signature>>; OPCODES] = [const { OnceLock::new() }; OPCODES];
    TABLE.get(op as usize).map_or(&[], |slot| slot.get_or_init(|| parse_signatures(op.info().operands).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_grammar() {
        let s = parse_signatures("p T T | p T T p").unwrap();
        assert_eq!(s.len(), 2);
        assert!(s[0].accepts_count(3) && !s[0].accepts_count(4));
        assert_eq!(s[1].role_at(3), Role::Pred);
        let s = parse_signatures("T a u64?").unwrap();
        assert!(s[0].accepts_count(2) && s[0].accepts_count(3) && !s[0].accepts_count(1));
        assert_eq!(s[0].role_at(2), Role::Fixed(ScalarType::U64));
        assert!(parse_signatures("T q").is_none());
        assert!(parse_signatures("x*").unwrap()[0].accepts_count(9));
    }

    #[test]
    fn every_table_signature_parses() {
        for op in Opcode::ALL {
            assert!(parse_signatures(op.info().operands).is_some(), "{}: {}", op.name(), op.info().operands);
        }
    }
}
