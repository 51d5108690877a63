//! A memo for the checker: instruction heads (family, modifiers, operand
//! count, under one PTX version and target) whose head-only rules, those
//! that look at nothing but the head, already passed.
//!
//! Those rules (version and target requirements, modifier combinations,
//! the types a family allows, the signature's type count) give the same
//! verdict every time a head recurs, and real programs repeat a few dozen
//! heads thousands of times. A head that passed once is remembered with its
//! modifier summary, and the checker then runs only the rules that look at
//! operands. Heads that failed are never remembered, so every failing
//! instruction is still reported.
//!
//! Direct-mapped (a new head overwrites the one sharing its slot); heads
//! with more than [`MAX_MODS`] modifiers are not memoised.

use super::modifier::Modifier;
use super::opcode::Opcode;

/// Most modifiers of a memoised head.
pub(crate) const MAX_MODS: usize = 8;
/// Number of slots (a power of two).
const SLOTS: usize = 512;

/// What identifies a head: everything the head-only rules read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeadKey {
    words: [u32; MAX_MODS + 2],
}

impl HeadKey {
    /// The key of a head; `None` when it has too many modifiers.
    pub(crate) fn new(version: (u8, u8), target: u16, opcode: Opcode, operands: usize, mods: &[(Modifier, impl Copy)]) -> Option<HeadKey> {
        if mods.len() > MAX_MODS || operands > 0xff {
            return None;
        }
        let mut words = [0u32; MAX_MODS + 2];
        words[0] = u32::from(version.0) << 24 | u32::from(version.1) << 16 | u32::from(target);
        words[1] = (opcode as u32) << 16 | (operands as u32) << 8 | mods.len() as u32;
        for (w, (m, _)) in words[2..].iter_mut().zip(mods) {
            *w = code(*m);
        }
        Some(HeadKey { words })
    }

    fn slot(&self) -> usize {
        // Every word, in pairs, each pair through its own multiplier: no
        // loop and no dependence between the products (unused words are
        // zero, so they add nothing but a multiply).
        const K: [u64; 5] = [0x517c_c1b7_2722_0a95, 0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9, 0x27d4_eb2f_1656_67c5];
        let w = &self.words;
        let mut h = 0u64;
        for (k, pair) in w.chunks_exact(2).enumerate() {
            h ^= (u64::from(pair[0]) | u64::from(pair[1]) << 32).wrapping_mul(K[k % K.len()]);
        }
        // The top bits of a product mix all of its input.
        ((h.rotate_left(23) ^ h).wrapping_mul(K[0]) >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

/// A modifier as one number (kind in the high half, value in the low).
fn code(m: Modifier) -> u32 {
    let (kind, value) = match m {
        Modifier::Type(t) => (1, t as u32),
        Modifier::Vector(n) => (2, u32::from(n)),
        Modifier::Space(s) => (3, s as u32),
        Modifier::Rounding(r) => (4, r as u32),
        Modifier::Cmp(c) => (5, c as u32),
        Modifier::Bool(b) => (6, b as u32),
        Modifier::Sem(s) => (7, s as u32),
        Modifier::Scope(s) => (8, s as u32),
        Modifier::Ftz => (9, 0),
        Modifier::Sat => (10, 0),
        Modifier::Word(k) => (11, u32::from(k.0)),
    };
    kind << 16 | value
}

/// The memo: heads that passed, with a value the checker keeps for each.
pub(crate) struct HeadMemo<V: Copy> {
    slots: Vec<Option<(HeadKey, V)>>,
}

impl<V: Copy> HeadMemo<V> {
    /// An empty memo.
    pub(crate) fn new() -> HeadMemo<V> {
        HeadMemo { slots: vec![None; SLOTS] }
    }

    /// The value remembered for a head that passed, if any.
    #[inline]
    pub(crate) fn get(&self, key: &HeadKey) -> Option<V> {
        match self.slots.get(key.slot()) {
            Some(Some((k, v))) if k == key => Some(*v),
            _ => None,
        }
    }

    /// Remembers that a head passed.
    pub(crate) fn insert(&mut self, key: HeadKey, value: V) {
        if let Some(slot) = self.slots.get_mut(key.slot()) {
            *slot = Some((key, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::ast::ScalarType;

    #[test]
    fn keys_differ_in_every_part() {
        let m = |t| [(Modifier::Type(t), ())];
        let base = HeadKey::new((8, 0), 80, Opcode::Add, 3, &m(ScalarType::S32)).unwrap();
        let mut memo = HeadMemo::new();
        memo.insert(base, 7u8);
        assert_eq!(memo.get(&base), Some(7));
        for other in [
            HeadKey::new((8, 1), 80, Opcode::Add, 3, &m(ScalarType::S32)),
            HeadKey::new((8, 0), 90, Opcode::Add, 3, &m(ScalarType::S32)),
            HeadKey::new((8, 0), 80, Opcode::Sub, 3, &m(ScalarType::S32)),
            HeadKey::new((8, 0), 80, Opcode::Add, 2, &m(ScalarType::S32)),
            HeadKey::new((8, 0), 80, Opcode::Add, 3, &m(ScalarType::U32)),
            HeadKey::new((8, 0), 80, Opcode::Add, 3, &[] as &[(Modifier, ())]),
        ] {
            assert_ne!(memo.get(&other.unwrap()), Some(7));
        }
    }
}
