//! A fixed-capacity inline list ([`Inline`]): an instruction's modifier
//! values and operands. Decoding fills one per word, tens of millions of
//! times a second, so the list never allocates and has no spilled case to
//! test on every push (the form table bounds the lengths: at most
//! [`Inline::CAPACITY`] items, checked by the table's tests).

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Up to `N` items of a `Copy` type, stored inline.
#[derive(Clone, Copy)]
pub struct Inline<T: Copy + Default, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Inline<T, N> {
    /// Most items the list holds.
    pub const CAPACITY: usize = N;

    /// The empty list.
    pub fn new() -> Self {
        Inline { len: 0, items: [T::default(); N] }
    }

    /// Appends an item; `false` (and nothing appended) when the list is full.
    #[inline]
    pub fn try_push(&mut self, item: T) -> bool {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = item;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Appends an item. Panics when the list is full (a form with more
    /// operands than the model holds, which the table's tests rule out).
    #[inline]
    pub fn push(&mut self, item: T) {
        assert!(self.try_push(item), "an instruction holds at most {N} of these");
    }

    /// Makes the list `n` items long (new items are `T::default()` or what
    /// the list held there before) and returns them to be written; `None`
    /// when `n` exceeds the capacity.
    #[inline]
    pub fn resize_for_write(&mut self, n: usize) -> Option<&mut [T]> {
        let items = self.items.get_mut(..n)?;
        self.len = n as u8;
        Some(items)
    }

    /// Removes every item.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Inline<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Inline<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Inline<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Inline<T, N> {}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for Inline<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Inline<T, N> {
    /// Collects up to `N` items; panics on more (see [`Inline::push`]).
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Self::new();
        for item in iter {
            out.push(item);
        }
        out
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_up_to_capacity() {
        let mut l: Inline<u8, 2> = Inline::new();
        assert!(l.is_empty());
        assert!(l.try_push(1) && l.try_push(2));
        assert!(!l.try_push(3), "full");
        assert_eq!(&*l, &[1, 2]);
        l[0] = 5;
        assert_eq!(l.iter().copied().collect::<Vec<_>>(), vec![5, 2]);
        let m: Inline<u8, 2> = [5, 2].into_iter().collect();
        assert_eq!(l, m);
        l.clear();
        assert_eq!(l.len(), 0);
    }
}
