//! Lexically scoped bindings of names, over the dense symbol indices of a
//! module's [`Interner`](super::ast::Interner).
//!
//! The checker resolves a name on every operand, so a lookup must be cheap:
//! each symbol has one slot holding its innermost binding, and entering a
//! scope costs nothing until something is declared in it. A declaration
//! that shadows an outer one logs the outer binding, and leaving the scope
//! puts the logged bindings back.

use super::ast::Symbol;

/// A map from symbols to values of type `T` with nested scopes.
#[derive(Debug)]
pub struct ScopedTable<T: Copy> {
    /// The innermost binding of each symbol, with the scope depth that made it.
    slots: Vec<Option<(u32, T)>>,
    /// Bindings replaced by declarations in open scopes, to restore on exit.
    undo: Vec<(Symbol, Option<(u32, T)>)>,
    /// Length of `undo` when each open scope was entered.
    marks: Vec<usize>,
}

impl<T: Copy> ScopedTable<T> {
    /// A table for symbols `0..len`, with no scope open.
    pub fn new(len: usize) -> ScopedTable<T> {
        // Every declaration logs the binding it replaces: room for a
        // typical function's declarations, so the log is not regrown.
        ScopedTable { slots: vec![None; len], undo: Vec::with_capacity(len.min(256)), marks: Vec::with_capacity(8) }
    }

    /// Opens a scope.
    pub fn push_scope(&mut self) {
        self.marks.push(self.undo.len());
    }

    /// Closes the innermost scope, dropping its bindings.
    pub fn pop_scope(&mut self) {
        let Some(mark) = self.marks.pop() else { return };
        for (s, old) in self.undo.drain(mark..).rev() {
            self.slots[s.0 as usize] = old;
        }
    }

    /// The innermost binding of `s`.
    pub fn get(&self, s: Symbol) -> Option<T> {
        self.slots.get(s.0 as usize).copied().flatten().map(|(_, v)| v)
    }

    /// Binds `s` in the innermost scope. Returns `false` when the scope
    /// already bound it (the new value replaces the old one, as a map's
    /// insert does). Without an open scope nothing is bound.
    pub fn insert(&mut self, s: Symbol, value: T) -> bool {
        let depth = self.marks.len() as u32;
        let Some(slot) = self.slots.get_mut(s.0 as usize) else { return true };
        if depth == 0 {
            return true;
        }
        match *slot {
            Some((d, _)) if d == depth => {
                *slot = Some((depth, value));
                false
            }
            old => {
                self.undo.push((s, old));
                *slot = Some((depth, value));
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_shadow_and_restore() {
        let (a, b) = (Symbol(0), Symbol(1));
        let mut t = ScopedTable::new(2);
        t.push_scope();
        assert!(t.insert(a, 1));
        t.push_scope();
        assert_eq!(t.get(a), Some(1));
        assert!(t.insert(a, 2));
        assert!(t.insert(b, 3));
        assert_eq!(t.get(a), Some(2));
        t.pop_scope();
        assert_eq!(t.get(a), Some(1));
        assert_eq!(t.get(b), None);
        t.pop_scope();
        assert_eq!(t.get(a), None);
    }

    #[test]
    fn redeclaring_in_one_scope_is_reported() {
        let a = Symbol(0);
        let mut t = ScopedTable::new(1);
        t.push_scope();
        assert!(t.insert(a, 1));
        assert!(!t.insert(a, 2));
        assert_eq!(t.get(a), Some(2));
        t.push_scope();
        assert!(t.insert(a, 3), "shadowing an outer scope is not a duplicate");
        t.pop_scope();
        assert_eq!(t.get(a), Some(2));
    }
}
