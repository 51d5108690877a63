//! Dense entity maps with newtype indices: the storage scheme of the Ori IR.
//!
//! Every IR object (block, instruction, value) is a `u32` index newtype
//! into a [`PrimaryMap`] that owns the objects; side tables keyed by the same
//! index are [`SecondaryMap`]s. No pointers, no reference counting: a
//! function is a handful of vectors, cheap to clone and to drop.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A newtype index.
pub trait EntityRef: Copy + Eq + fmt::Debug {
    /// The entity with this index.
    fn new(index: usize) -> Self;
    /// Its index.
    fn index(self) -> usize;
}

/// Declares a `u32` newtype index that prints as `<prefix><index>`
/// (`block3`, `v12`). Crate-internal (`crate::ir_entity!`).
macro_rules! ir_entity {
    ($(#[$attr:meta])* $name:ident, $prefix:literal) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $crate::ir::entity::EntityRef for $name {
            #[inline]
            fn new(index: usize) -> Self {
                // Four billion entities in one function is far beyond any
                // kernel; saturate rather than wrap.
                $name(u32::try_from(index).unwrap_or(u32::MAX))
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }
    };
}
pub(crate) use ir_entity;

/// The map that owns entities: pushing allocates the next index.
#[derive(Clone, PartialEq, Eq)]
pub struct PrimaryMap<K: EntityRef, V> {
    elems: Vec<V>,
    key: PhantomData<K>,
}

impl<K: EntityRef, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        PrimaryMap { elems: Vec::new(), key: PhantomData }
    }
}

impl<K: EntityRef, V> PrimaryMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Makes room for `additional` more entities (a pass that knows about
    /// how many it will make saves the copies of growing).
    pub fn reserve(&mut self, additional: usize) {
        self.elems.reserve(additional);
    }
    /// Adds an entity and returns its key.
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.elems.len());
        self.elems.push(v);
        k
    }
    /// Number of entities.
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
    /// The entity, if the key is in range.
    pub fn get(&self, k: K) -> Option<&V> {
        self.elems.get(k.index())
    }
    /// Whether `k` names an entity of this map.
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.elems.len()
    }
    /// Every key, in allocation order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = K> + use<K, V> {
        (0..self.elems.len()).map(K::new)
    }
    /// Every `(key, entity)`.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Index<K> for PrimaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        &self.elems[k.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for PrimaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.elems[k.index()]
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for PrimaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A side table keyed by entities of a [`PrimaryMap`]; keys never written
/// read as the default value, and writing grows the table.
#[derive(Clone, PartialEq, Eq)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    elems: Vec<V>,
    default: V,
    key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        SecondaryMap::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty table whose unset keys read as `default`.
    pub fn with_default(default: V) -> Self {
        SecondaryMap { elems: Vec::new(), default, key: PhantomData }
    }
    /// An empty table with room for `n` keys.
    pub fn with_capacity(n: usize, default: V) -> Self {
        SecondaryMap { elems: Vec::with_capacity(n), default, key: PhantomData }
    }
    /// Empties the table (keeps its memory).
    pub fn clear(&mut self) {
        self.elems.clear();
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        if i >= self.elems.len() {
            self.elems.resize(i + 1, self.default.clone());
        }
        &mut self.elems[i]
    }
}

impl<K: EntityRef, V: Clone + fmt::Debug> fmt::Debug for SecondaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::ir_entity!(
        /// A test entity.
        Thing,
        "t"
    );

    #[test]
    fn primary_keys_are_dense_and_print_with_their_prefix() {
        let mut m: PrimaryMap<Thing, &str> = PrimaryMap::new();
        let a = m.push("a");
        let b = m.push("b");
        assert_eq!((a.index(), b.index()), (0, 1));
        assert_eq!(m[b], "b");
        assert_eq!(format!("{b}"), "t1");
        assert_eq!(m.keys().collect::<Vec<_>>(), vec![a, b]);
        assert!(!m.is_valid(Thing::new(2)));
        assert_eq!(m.get(Thing::new(2)), None);
    }

    #[test]
    fn secondary_maps_default_and_grow() {
        let mut s: SecondaryMap<Thing, u32> = SecondaryMap::with_default(7);
        assert_eq!(s[Thing::new(5)], 7);
        s[Thing::new(3)] = 1;
        assert_eq!((s[Thing::new(3)], s[Thing::new(2)], s[Thing::new(9)]), (1, 7, 7));
        s.clear();
        assert_eq!(s[Thing::new(3)], 7);
    }
}
