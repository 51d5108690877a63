//! Control-flow analyses over any graph of blocks: predecessors, reverse
//! post-order and the dominator tree.
//!
//! The analyses take the graph as a successor function rather than a
//! concrete function type, so they serve the Ori IR, the SASS interpreter's
//! reconvergence analysis and tests alike. Dominators use the iterative
//! algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
//! Algorithm", 2001) over reverse post-order, which is near-linear on the
//! reducible graphs compilers produce and correct on irreducible ones.

use super::entity::{EntityRef, SecondaryMap};

/// Reverse post-order of the blocks reachable from `entry`, by an explicit
/// stack (no recursion, so deep graphs cannot overflow the stack).
pub fn reverse_post_order<B: EntityRef>(entry: B, blocks: usize, successors: impl Fn(B) -> Vec<B>) -> Vec<B> {
    let mut visited = vec![false; blocks];
    let mut post = Vec::with_capacity(blocks);
    if entry.index() >= blocks {
        return post;
    }
    // (block, its successors, next successor to visit)
    let mut stack: Vec<(B, Vec<B>, usize)> = Vec::new();
    visited[entry.index()] = true;
    stack.push((entry, successors(entry), 0));
    while let Some((block, succs, next)) = stack.last_mut() {
        if let Some(&s) = succs.get(*next) {
            *next += 1;
            if s.index() < blocks && !visited[s.index()] {
                visited[s.index()] = true;
                let ss = successors(s);
                stack.push((s, ss, 0));
            }
        } else {
            post.push(*block);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Predecessor lists of every block, from the successor function; each
/// edge appears once per occurrence (a block branching twice to the same
/// target is two edges).
pub fn predecessors<B: EntityRef>(blocks: usize, successors: impl Fn(B) -> Vec<B>) -> Vec<Vec<B>> {
    let mut preds = vec![Vec::new(); blocks];
    for b in (0..blocks).map(B::new) {
        for s in successors(b) {
            if let Some(p) = preds.get_mut(s.index()) {
                p.push(b);
            }
        }
    }
    preds
}

/// The dominator tree of the blocks reachable from the entry.
#[derive(Clone, Debug)]
pub struct DominatorTree<B: EntityRef> {
    /// Immediate dominator; `None` for the entry and unreachable blocks.
    idom: SecondaryMap<B, Option<B>>,
    /// Position in reverse post-order; `u32::MAX` when unreachable.
    rpo_number: SecondaryMap<B, u32>,
    rpo: Vec<B>,
}

impl<B: EntityRef> DominatorTree<B> {
    /// Computes the tree.
    pub fn compute(entry: B, blocks: usize, successors: impl Fn(B) -> Vec<B>) -> DominatorTree<B> {
        let rpo = reverse_post_order(entry, blocks, &successors);
        let preds = predecessors(blocks, &successors);
        let mut rpo_number = SecondaryMap::with_capacity(blocks, u32::MAX);
        for (i, &b) in rpo.iter().enumerate() {
            rpo_number[b] = i as u32;
        }
        let mut idom: SecondaryMap<B, Option<B>> = SecondaryMap::with_capacity(blocks, None);
        if rpo.is_empty() {
            return DominatorTree { idom, rpo_number, rpo };
        }
        // The entry is its own dominator while iterating; reset at the end.
        idom[entry] = Some(entry);
        let intersect = |idom: &SecondaryMap<B, Option<B>>, mut a: B, mut b: B| -> B {
            while a != b {
                while rpo_number[a] > rpo_number[b] {
                    a = idom[a].unwrap_or(entry);
                }
                while rpo_number[b] > rpo_number[a] {
                    b = idom[b].unwrap_or(entry);
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<B> = None;
                for &p in &preds[b.index()] {
                    if idom[p].is_none() {
                        continue; // unreachable, or not processed yet
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(d) => intersect(&idom, p, d),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        idom[entry] = None;
        DominatorTree { idom, rpo_number, rpo }
    }

    /// The immediate dominator (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: B) -> Option<B> {
        self.idom[b]
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: B) -> bool {
        self.rpo_number[b] != u32::MAX
    }

    /// The reachable blocks in reverse post-order.
    pub fn rpo(&self) -> &[B] {
        &self.rpo
    }

    /// Whether `a` dominates `b` (every block dominates itself; an
    /// unreachable block is dominated by nothing and dominates nothing).
    pub fn dominates(&self, a: B, b: B) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            // Walking up only reaches blocks earlier in RPO.
            if self.rpo_number[x] < self.rpo_number[a] {
                return false;
            }
            match self.idom[x] {
                Some(d) => x = d,
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::ir_entity!(
        /// A test block.
        B,
        "b"
    );

    fn graph(edges: &[(usize, usize)], n: usize) -> impl Fn(B) -> Vec<B> + '_ {
        move |b: B| edges.iter().filter(|(f, _)| *f == b.index()).map(|(_, t)| B::new(*t)).filter(|t| t.index() < n).collect()
    }

    #[test]
    fn diamond_with_loop_and_unreachable_block() {
        // 0 → 1, 0 → 2, 1 → 3, 2 → 3, 3 → 1 (loop back), 4 → 3 (unreachable)
        let edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 1), (4, 3)];
        let dt = DominatorTree::compute(B::new(0), 5, graph(&edges, 5));
        let b = B::new;
        assert_eq!(dt.idom(b(0)), None);
        assert_eq!(dt.idom(b(1)), Some(b(0)));
        assert_eq!(dt.idom(b(2)), Some(b(0)));
        assert_eq!(dt.idom(b(3)), Some(b(0)), "3 is reached from 1 and from 2");
        assert!(dt.dominates(b(0), b(3)));
        assert!(!dt.dominates(b(1), b(3)));
        assert!(dt.dominates(b(3), b(3)));
        assert!(!dt.is_reachable(b(4)));
        assert!(!dt.dominates(b(4), b(3)));
        assert_eq!(dt.rpo()[0], b(0));
        assert_eq!(dt.rpo().len(), 4);
    }

    #[test]
    fn irreducible_loop_and_a_chain() {
        // 0 → 1, 0 → 2, 1 ↔ 2 (two-entry loop), 2 → 3, 3 → 4
        let edges = [(0, 1), (0, 2), (1, 2), (2, 1), (2, 3), (3, 4)];
        let dt = DominatorTree::compute(B::new(0), 5, graph(&edges, 5));
        let b = B::new;
        assert_eq!(dt.idom(b(1)), Some(b(0)));
        assert_eq!(dt.idom(b(2)), Some(b(0)));
        assert_eq!(dt.idom(b(3)), Some(b(2)));
        assert_eq!(dt.idom(b(4)), Some(b(3)));
        assert!(dt.dominates(b(2), b(4)));
        let preds = predecessors(5, graph(&edges, 5));
        assert_eq!(preds[1], vec![b(0), b(2)]);
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let n = 200_000;
        let dt = DominatorTree::compute(B::new(0), n, |b: B| if b.index() + 1 < n { vec![B::new(b.index() + 1)] } else { vec![] });
        assert_eq!(dt.idom(B::new(n - 1)), Some(B::new(n - 2)));
        assert_eq!(dt.rpo().len(), n);
    }
}
