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
//! The table is direct-mapped (a new head overwrites whatever shared its
//! slot) and holds heads of at most [`MAX_HEAD`] bytes with at most
//! [`MAX_MODS`] modifiers; longer ones are simply not memoised. It lives in
//! a thread-local between parses, so that one file's heads speed up the
//! next; a parse takes it out and puts it back, paying no thread-local
//! access per instruction.

use super::modifier::Modifier;
use super::namekey::NameKey;
use super::opcode::Opcode;
use std::cell::Cell;

/// Longest head text memoised, in bytes.
pub(crate) const MAX_HEAD: usize = 40;
/// Most modifiers of a memoised head.
pub(crate) const MAX_MODS: usize = 6;
/// Number of slots (a power of two).
const SLOTS: usize = 512;

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
}

thread_local! {
    static CACHE: Cell<Option<Box<HeadCache>>> = const { Cell::new(None) };
}

impl HeadCache {
    /// This thread's table (a new, empty one if another parse holds it).
    pub(crate) fn take() -> Box<HeadCache> {
        CACHE.with(Cell::take).unwrap_or_else(|| Box::new(HeadCache { slots: vec![None; SLOTS].into_boxed_slice() }))
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
        let e = self.slots.get(key.hash as usize % SLOTS)?.as_ref()?;
        (e.key.matches(key) && (key.is_exact() || e.text.get(..text.len()) == Some(text))).then_some(e.head)
    }

    /// Memoises the meaning of `text` (ignored when too long).
    pub(crate) fn insert(&mut self, text: &[u8], head: Head) {
        if text.len() > MAX_HEAD {
            return;
        }
        let mut buf = [0u8; MAX_HEAD];
        buf[..text.len()].copy_from_slice(text);
        let key = NameKey::new(text);
        if let Some(slot) = self.slots.get_mut(key.hash as usize % SLOTS) {
            *slot = Some(Entry { key, text: buf, head });
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
}
