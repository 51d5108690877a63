//! A memo for the checker: instruction heads (family, modifiers, operand
//! count) whose head-only rules, those that look at nothing but the head
//! and the module's PTX version and target, already passed.
//!
//! Those rules (version and target requirements, modifier combinations,
//! the types a family allows, the signature's type count) give the same
//! verdict every time a head recurs, and real programs repeat a few dozen
//! heads thousands of times. A head that passed once is remembered with its
//! modifier summary, and the checker then runs only the rules that look at
//! operands. Heads that failed are never remembered, so every failing
//! instruction is still reported.
//!
//! The version and target are not part of the key: the only head-only
//! rules that read them are minimum requirements, so a head that passed
//! keeps the highest version and target it requires, and it stands for
//! every module at or above them. (Rules that forbid something from a
//! version or target upward would break this; the checker does not memoise
//! the heads they apply to.) One entry then serves a head in modules of
//! every target, where a key per version and target needed three times
//! as many entries for the corpus and thrashed the table.
//!
//! Two-way set-associative: a new head takes the first slot of its set and
//! moves the head there to the second (dropping the one in the second).
//! Heads with more than [`MAX_MODS`] modifiers are not memoised.

use super::headcache::{FIRST_SETS, SETS, grows};
use crate::ptx::modifier::Modifier;
use crate::ptx::opcode::Opcode;

/// Most modifiers of a memoised head.
pub(crate) const MAX_MODS: usize = 8;

/// What identifies a head: everything the head-only rules read but the
/// version and target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeadKey {
    /// Family, operand count and modifier count, then one word per
    /// modifier; a word pair past the last modifier is zero.
    words: [u32; MAX_MODS + 2],
}

impl HeadKey {
    /// The key of a head; `None` when it has too many modifiers.
    pub(crate) fn new(opcode: Opcode, operands: usize, mods: &[(Modifier, impl Copy)]) -> Option<HeadKey> {
        if mods.len() > MAX_MODS || operands > 0xff {
            return None;
        }
        let mut words = [0u32; MAX_MODS + 2];
        words[0] = (opcode as u32) << 16 | (operands as u32) << 8 | mods.len() as u32;
        for (w, (m, _)) in words[1..].iter_mut().zip(mods) {
            *w = code(*m);
        }
        Some(HeadKey { words })
    }

    /// The first slot of the key's set, of `sets` sets (a power of two).
    fn set(&self, sets: usize) -> usize {
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
        2 * ((h.rotate_left(23) ^ h).wrapping_mul(K[0]) >> (64 - sets.trailing_zeros())) as usize
    }
}

/// The lowest PTX version and target for which a memoised head's
/// head-only rules pass: the highest of its requirements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needs {
    /// PTX ISA version.
    pub(crate) ptx: (u8, u8),
    /// SM number.
    pub(crate) sm: u16,
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

/// One remembered head.
#[derive(Clone, Copy)]
struct Entry<V: Copy> {
    key: HeadKey,
    needs: Needs,
    value: V,
}

/// The memo: heads that passed, with a value the checker keeps for each.
pub(crate) struct HeadMemo<V: Copy> {
    slots: Vec<Option<Entry<V>>>,
    /// Heads remembered so far; past the number of sets, the memo grows
    /// to [`SETS`] (emptied: it is a cache).
    inserts: usize,
}

impl<V: Copy> HeadMemo<V> {
    /// An empty memo.
    pub(crate) fn new() -> HeadMemo<V> {
        HeadMemo { slots: vec![None; 2 * FIRST_SETS], inserts: 0 }
    }

    /// The value remembered for a head that passed, if any, when its
    /// verdict holds for a module of PTX version `ptx` and target `sm`.
    #[inline]
    pub(crate) fn get(&self, key: &HeadKey, ptx: (u8, u8), sm: u16) -> Option<V> {
        let at = key.set(self.slots.len() / 2);
        let set = self.slots.get(at..at + 2)?;
        let e = set.iter().flatten().find(|e| e.key == *key)?;
        (ptx >= e.needs.ptx && sm >= e.needs.sm).then_some(e.value)
    }

    /// Remembers that a head passed, in a module that meets `needs`.
    pub(crate) fn insert(&mut self, key: HeadKey, needs: Needs, value: V) {
        self.inserts += 1;
        if grows(self.inserts, self.slots.len()) {
            self.slots = vec![None; 2 * SETS];
        }
        let at = key.set(self.slots.len() / 2);
        if let Some([first, second]) = self.slots.get_mut(at..at + 2) {
            // A head already here is replaced, not duplicated.
            if second.is_some_and(|e| e.key == key) {
                *second = None;
            }
            if !first.is_some_and(|e| e.key == key) {
                *second = first.take();
            }
            *first = Some(Entry { key, needs, value });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::ast::ScalarType;

    const ANY: Needs = Needs { ptx: (1, 0), sm: 0 };

    #[test]
    fn keys_differ_in_every_part() {
        let m = |t| [(Modifier::Type(t), ())];
        let base = HeadKey::new(Opcode::Add, 3, &m(ScalarType::S32)).unwrap();
        let mut memo = HeadMemo::new();
        memo.insert(base, ANY, 7u8);
        assert_eq!(memo.get(&base, (8, 0), 80), Some(7));
        for other in [
            HeadKey::new(Opcode::Sub, 3, &m(ScalarType::S32)),
            HeadKey::new(Opcode::Add, 2, &m(ScalarType::S32)),
            HeadKey::new(Opcode::Add, 3, &m(ScalarType::U32)),
            HeadKey::new(Opcode::Add, 3, &[] as &[(Modifier, ())]),
        ] {
            assert_ne!(memo.get(&other.unwrap(), (8, 0), 80), Some(7));
        }
    }

    /// A verdict stands for modules at or above the head's needs only.
    #[test]
    fn verdicts_hold_from_the_needs_upward() {
        let key = HeadKey::new(Opcode::Add, 3, &[(Modifier::Type(ScalarType::S32), ())]).unwrap();
        let mut memo = HeadMemo::new();
        memo.insert(key, Needs { ptx: (7, 8), sm: 80 }, 1u8);
        assert_eq!(memo.get(&key, (7, 8), 80), Some(1));
        assert_eq!(memo.get(&key, (8, 0), 120), Some(1));
        assert_eq!(memo.get(&key, (7, 7), 90), None, "below the version");
        assert_eq!(memo.get(&key, (6, 9), 90), None, "below the version");
        assert_eq!(memo.get(&key, (8, 0), 75), None, "below the target");
        // Remembering the head again replaces its entry.
        memo.insert(key, Needs { ptx: (6, 0), sm: 50 }, 2u8);
        assert_eq!(memo.get(&key, (6, 9), 75), Some(2));
        let copies = memo.slots.iter().flatten().filter(|e| e.key == key).count();
        assert_eq!(copies, 1);
    }

    /// Two heads of one set both stay; a third drops the older of them.
    #[test]
    fn a_set_keeps_its_two_latest_heads() {
        // 65536 distinct keys: every operand count with every `.vN`.
        let key = |n: usize| HeadKey::new(Opcode::Add, n % 256, &[(Modifier::Vector((n / 256) as u8), ())]).unwrap();
        let first = key(0);
        let same: Vec<HeadKey> = (1..65536).map(key).filter(|k| k.set(FIRST_SETS) == first.set(FIRST_SETS)).take(2).collect();
        assert_eq!(same.len(), 2);
        let mut memo = HeadMemo::new();
        memo.insert(first, ANY, 0u8);
        memo.insert(same[0], ANY, 1);
        assert_eq!(memo.get(&first, (8, 0), 80), Some(0));
        assert_eq!(memo.get(&same[0], (8, 0), 80), Some(1));
        memo.insert(same[1], ANY, 2);
        assert_eq!(memo.get(&first, (8, 0), 80), None);
        assert_eq!(memo.get(&same[0], (8, 0), 80), Some(1));
        assert_eq!(memo.get(&same[1], (8, 0), 80), Some(2));
    }

    /// A memo starts small and grows once more heads than it has sets were
    /// remembered, keeping what is remembered after the growth.
    #[test]
    fn grows_past_its_first_sets() {
        let key = |n: usize| HeadKey::new(Opcode::Add, n, &[(Modifier::Vector(2), ())]).unwrap();
        let mut memo = HeadMemo::new();
        for n in 0..FIRST_SETS {
            memo.insert(key(n), ANY, 0u8);
        }
        assert_eq!(memo.slots.len(), 2 * FIRST_SETS);
        memo.insert(key(FIRST_SETS), ANY, 1);
        assert_eq!(memo.slots.len(), 2 * SETS);
        assert_eq!(memo.get(&key(FIRST_SETS), (8, 0), 80), Some(1));
    }
}
