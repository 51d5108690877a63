//! A memo of instruction heads: the text `ld.global.nc.v4.f32` (opcode name
//! and the dotted words glued to it) and what the parser made of it, the
//! family and the typed modifiers.
//!
//! Finding the family (a longest-prefix search over the opcode names) and
//! classifying each modifier cost a few hash lookups per instruction, while
//! real programs repeat a few dozen heads thousands of times. Working a
//! head out is a pure function of its text, so the parser looks it up here
//! first and only works out heads it has not seen (or that were evicted).
//!
//! The table is two-way set-associative: a head may sit in either slot of
//! its set, and a new head takes the first slot, moving the one there to
//! the second (whatever was in the second is dropped). Two frequent heads
//! that hash to one set (`mov.b32` and `add.s32` did, direct-mapped) then
//! both stay. It holds heads of at most [`MAX_HEAD`] bytes with at most
//! [`MAX_MODS`] modifiers; longer ones are simply not memoised. It lives in
//! a thread-local between parses, so that one file's heads speed up the
//! next; a parse takes it out and puts it back, paying no thread-local
//! access per instruction.

use super::namekey::NameKey;
use crate::ptx::modifier::Modifier;
use crate::ptx::opcode::Opcode;
use std::cell::Cell;

/// Longest head text memoised, in bytes.
pub(crate) const MAX_HEAD: usize = 40;
/// Most modifiers of a memoised head.
pub(crate) const MAX_MODS: usize = 6;
/// Number of sets (a power of two), of two slots each, of a grown table
/// (this cache's and the checker's head memo's, `headmemo`).
pub(crate) const SETS: usize = 512;
/// Number of sets a table starts with: enough for the distinct heads of a
/// typical file, and a twelfth of a grown table's pages to fault in.
pub(crate) const FIRST_SETS: usize = 64;

/// Whether a two-way table of `slots` slots that has taken `inserts`
/// entries grows to [`SETS`] sets: once it has taken more entries than it
/// has sets, while it is smaller.
#[inline]
pub(crate) fn grows(inserts: usize, slots: usize) -> bool {
    inserts > slots / 2 && slots < 2 * SETS
}

/// What a head means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    /// The family.
    pub opcode: Opcode,
    /// How many of the dotted words belong to the family name (`cp.async` has one).
    pub family_words: u8,
    /// How many modifiers follow.
    pub nmods: u8,
    /// The modifiers, in order (`nmods` of them).
    pub mods: [Modifier; MAX_MODS],
}

#[derive(Clone, Copy)]
struct Entry {
    key: NameKey,
    text: [u8; MAX_HEAD],
    head: Head,
}

/// The memo table.
pub(crate) struct HeadCache {
    slots: Box<[Option<Entry>]>,
    /// Heads memoised so far; past the number of sets, the table grows to
    /// [`SETS`] (emptied: it is a cache).
    inserts: usize,
}

thread_local! {
    static CACHE: Cell<Option<Box<HeadCache>>> = const { Cell::new(None) };
}

impl HeadCache {
    /// This thread's table (a new, empty one if another parse holds it).
    pub(crate) fn take() -> Box<HeadCache> {
        CACHE.with(Cell::take).unwrap_or_else(|| Box::new(HeadCache::with_sets(FIRST_SETS)))
    }

    /// An empty table of `sets` sets (a power of two).
    fn with_sets(sets: usize) -> HeadCache {
        HeadCache { slots: vec![None; 2 * sets].into_boxed_slice(), inserts: 0 }
    }

    /// The index of the first slot of a key's set.
    #[inline]
    fn set_of(&self, key: NameKey) -> usize {
        (key.hash as usize & (self.slots.len() / 2 - 1)) * 2
    }

    /// Hands the table back to this thread for the next parse.
    pub(crate) fn put_back(self: Box<HeadCache>) {
        CACHE.with(|c| c.set(Some(self)));
    }

    /// The memoised meaning of `text`, if any.
    #[inline]
    pub(crate) fn get(&self, text: &[u8]) -> Option<Head> {
        if text.len() > MAX_HEAD {
            return None;
        }
        let key = NameKey::new(text);
        let first = self.set_of(key);
        let set = self.slots.get(first..first + 2)?;
        let hit = |e: &Entry| e.key.matches(key) && (key.is_exact() || e.text.get(..text.len()) == Some(text));
        set.iter().flatten().find(|e| hit(e)).map(|e| e.head)
    }

    /// Memoises the meaning of `text` (ignored when too long).
    pub(crate) fn insert(&mut self, text: &[u8], head: Head) {
        if text.len() > MAX_HEAD {
            return;
        }
        let mut buf = [0u8; MAX_HEAD];
        buf[..text.len()].copy_from_slice(text);
        self.inserts += 1;
        if grows(self.inserts, self.slots.len()) {
            *self = HeadCache { inserts: self.inserts, ..HeadCache::with_sets(SETS) };
        }
        let key = NameKey::new(text);
        let at = self.set_of(key);
        if let Some([first, second]) = self.slots.get_mut(at..at + 2) {
            *second = first.take();
            *first = Some(Entry { key, text: buf, head });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(op: Opcode) -> Head {
        Head { opcode: op, family_words: 0, nmods: 0, mods: [Modifier::Ftz; MAX_MODS] }
    }

    #[test]
    fn finds_what_was_stored_and_nothing_else() {
        let mut c = HeadCache::take();
        let long = b"cp.async.bulk.tensor.2d.shared::cluster.x";
        c.insert(b"add.s32", head(Opcode::Add));
        c.insert(b"ld.global.nc.v4.f32.L2::64B", head(Opcode::Ld));
        c.insert(long, head(Opcode::Ld));
        assert_eq!(c.get(b"add.s32"), Some(head(Opcode::Add)));
        assert_eq!(c.get(b"ld.global.nc.v4.f32.L2::64B"), Some(head(Opcode::Ld)));
        assert_eq!(c.get(b"ld.global.nc.v4.f32.L2::64C"), None);
        assert_eq!(c.get(b"add.s3"), None);
        assert_eq!(c.get(long), None, "heads over MAX_HEAD bytes are not memoised");
        c.put_back();
    }

    /// Two heads of one set both stay; a third drops the older of them.
    #[test]
    fn a_set_keeps_its_two_latest_heads() {
        let mut c = HeadCache::with_sets(SETS);
        let set = |t: &str| c.set_of(NameKey::new(t.as_bytes()));
        let texts: Vec<String> = (0..100_000).map(|k| format!("add.s{k}")).collect();
        let first = &texts[0];
        let same: Vec<&String> = texts[1..].iter().filter(|t| set(t) == set(first)).take(2).collect();
        assert_eq!(same.len(), 2, "100000 texts over {SETS} sets give two more for a set");
        c.insert(first.as_bytes(), head(Opcode::Add));
        c.insert(same[0].as_bytes(), head(Opcode::Sub));
        assert_eq!(c.get(first.as_bytes()), Some(head(Opcode::Add)));
        assert_eq!(c.get(same[0].as_bytes()), Some(head(Opcode::Sub)));
        c.insert(same[1].as_bytes(), head(Opcode::Mul));
        assert_eq!(c.get(first.as_bytes()), None, "the older head of the set is dropped");
        assert_eq!(c.get(same[0].as_bytes()), Some(head(Opcode::Sub)));
        assert_eq!(c.get(same[1].as_bytes()), Some(head(Opcode::Mul)));
    }

    /// A table starts small and grows once more heads than it has sets
    /// were memoised, keeping what is memoised after the growth.
    #[test]
    fn grows_past_its_first_sets() {
        let mut c = HeadCache::with_sets(FIRST_SETS);
        let texts: Vec<String> = (0..=FIRST_SETS).map(|k| format!("add.s{k}")).collect();
        for t in &texts[..FIRST_SETS] {
            c.insert(t.as_bytes(), head(Opcode::Add));
        }
        assert_eq!(c.slots.len(), 2 * FIRST_SETS);
        c.insert(texts[FIRST_SETS].as_bytes(), head(Opcode::Sub));
        assert_eq!(c.slots.len(), 2 * SETS);
        assert_eq!(c.get(texts[FIRST_SETS].as_bytes()), Some(head(Opcode::Sub)));
    }
}
