//! A read-only map from fixed strings (the opcode table's names and
//! modifier spellings) to small values, for the parser's per-token lookups.
//!
//! Open addressing over a power-of-two table of `NameKey`s: one key, usually
//! one probe, one comparison of two packed words.
//! Faster here than a general hash map, whose `str` hashing and probing are
//! built for arbitrary keys.
//!
//! The indexes of the opcode table's names and spellings are built by the
//! build script (which runs [`StrIndex::new`] too) and compiled in as
//! static slot arrays (`StrIndex::from_slots`), so no run of the compiler
//! builds them.

use super::namekey::{NameKey, same_name};

/// One slot of an index: `(key, name, value)`, `None` when empty.
pub type Slot<V> = Option<(NameKey, &'static str, V)>;

/// An immutable string-keyed index.
#[derive(Debug)]
pub struct StrIndex<V: Copy + 'static> {
    /// A power-of-two number of slots.
    slots: &'static [Slot<V>],
}

impl<V: Copy + 'static> StrIndex<V> {
    /// Builds the index. A key given twice keeps its last value. The slots
    /// live as long as the program (indexes are built once, into statics).
    pub fn new(entries: impl IntoIterator<Item = (&'static str, V)>) -> StrIndex<V> {
        StrIndex { slots: Box::leak(Self::build_slots(entries).into_boxed_slice()) }
    }

    /// An index over slots [`StrIndex::slots`] of an index gave.
    pub const fn from_slots(slots: &'static [Slot<V>]) -> StrIndex<V> {
        StrIndex { slots }
    }

    /// The slots, for writing the index out as data.
    #[allow(dead_code)] // the build script's
    pub fn slots(&self) -> &'static [Slot<V>] {
        self.slots
    }

    fn build_slots(entries: impl IntoIterator<Item = (&'static str, V)>) -> Vec<Slot<V>> {
        let entries: Vec<(&'static str, V)> = entries.into_iter().collect();
        let size = (entries.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![None; size];
        for (key, value) in entries {
            let packed = NameKey::new(key.as_bytes());
            let mask = size - 1;
            let mut i = packed.hash as usize & mask;
            loop {
                match &mut slots[i] {
                    slot @ None => {
                        *slot = Some((packed, key, value));
                        break;
                    }
                    Some((_, k, v)) if *k == key => {
                        *v = value;
                        break;
                    }
                    Some(_) => i = (i + 1) & mask,
                }
            }
        }
        slots
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<V> {
        let packed = NameKey::new(key.as_bytes());
        let mask = self.slots.len() - 1;
        let mut i = packed.hash as usize & mask;
        loop {
            match &self.slots[i] {
                None => return None,
                Some((p, k, v)) if same_name(*p, k.as_bytes(), packed, key.as_bytes()) => return Some(*v),
                Some(_) => i = (i + 1) & mask,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_key_and_nothing_else() {
        let keys = [".u32", ".s32", ".f32", ".global", ".shared::cta", "cp.async.bulk", "a", ""];
        let index = StrIndex::new(keys.iter().enumerate().map(|(k, s)| (*s, k)));
        for (k, s) in keys.iter().enumerate() {
            assert_eq!(index.get(s), Some(k), "{s}");
        }
        assert_eq!(index.get(".u64"), None);
        assert_eq!(index.get(".u3"), None);
        assert_eq!(index.get("cp.async"), None);
    }

    #[test]
    fn later_duplicates_win() {
        let index = StrIndex::new([("x", 1), ("x", 2)]);
        assert_eq!(index.get("x"), Some(2));
    }
}
