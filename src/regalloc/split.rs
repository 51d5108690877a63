//! Which regalloc2 run allocates each value ([`Runs`]), and the split of
//! the R values of one width over several runs when more of them are live
//! at once than one regalloc2 class holds ([`split`]).
//!
//! A regalloc2 class has at most 64 units, so one run gives at most 64
//! singles (and 64 pairs, 64 quads) while the R file has 255 registers.
//! When more values of a width are live at once, they are divided into
//! *groups*, each allocated by a run of its own over registers of its own
//! (run 0 holds the first group of every width, runs 3, 4, … the further
//! ones; runs 1 and 2 stay the UR/P and UP runs). The runs see the same
//! instructions, so their moves merge by program point as the other runs'
//! do, and a run's moves and spills touch only its own registers.
//!
//! The division must keep each group's pressure within a class, and must
//! keep together what regalloc2 ties: a definition and the use it reuses
//! (ties, copies, parts written into a wide register), a block's argument
//! and the parameter it becomes. Values with a fixed register (the calling
//! convention's) belong to the first group, whose singles hold those
//! registers. The groups come from a linear scan over the values' extents
//! in program order ([`layout::extents`]) with slots numbered from 0, each
//! group owning a range of slots: a value takes the lowest free slot of
//! its set's group; the first value of a set decides the group, the one
//! with the most free slots (so that the set's later values find room). At no point does a group hold
//! more values than its range has slots, save where a set's values are
//! live at once beyond its group's free slots (they take a slot past the
//! ranges, and the group's region grows by the pressure measured after).
//! Interference is approximated by extents (a value covers every point
//! between its first and last), which for the straight-line and loop code
//! where this matters is close to liveness.

use super::Kind;
use super::layout::{self, Liveness, MAX_UNITS};
use super::prep::Prog;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// The most slots of one group: a class's units less a few that regalloc2
/// needs for moves into fixed registers and reuses.
pub const GROUP_SLOTS: u32 = MAX_UNITS - 4;

/// The run of every virtual register.
#[derive(Clone, Debug)]
pub struct Runs {
    run: Vec<u8>,
    /// Number of runs (at least the three of [`super::RUNS`]).
    pub count: usize,
}

impl Runs {
    /// One run per file group ([`Kind::slot`]): no split.
    pub fn plain(prog: &Prog) -> Runs {
        Runs { run: prog.kinds.iter().map(|k| k.slot().0 as u8).collect(), count: 3 }
    }

    /// The run of virtual register `v`.
    pub fn of(&self, v: u32) -> usize {
        self.run.get(v as usize).map_or(usize::MAX, |r| usize::from(*r))
    }

    /// The R runs: 0, then 3 onwards.
    pub fn r_runs(&self) -> Vec<usize> {
        std::iter::once(0).chain(3..self.count).collect()
    }

    /// The runs whose classes are the R file's.
    pub fn is_r(run: usize) -> bool {
        run == 0 || run >= 3
    }
}

/// Union-find over virtual registers.
struct Sets(Vec<u32>);

impl Sets {
    fn find(&mut self, v: u32) -> u32 {
        let mut r = v;
        while self.0[r as usize] != r {
            r = self.0[r as usize];
        }
        let mut x = v;
        while self.0[x as usize] != r {
            let next = self.0[x as usize];
            self.0[x as usize] = r;
            x = next;
        }
        r
    }
    /// Joins the sets of `a` and `b` (the smaller root stays, so that the
    /// result does not depend on the order of the joins' discovery).
    fn join(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.0[hi as usize] = lo;
    }
}

/// Splits the values of each kind of `split_kinds` over as many runs as
/// their extents need ([`GROUP_SLOTS`] values live at once per run), and
/// at least `at_least`; other values keep their run of [`Runs::plain`].
pub fn split(prog: &Prog, liveness: &Liveness, split_kinds: &[Kind], at_least: u32) -> Runs {
    let nv = prog.kinds.len();
    let kind = |v: u32| prog.kinds.get(v as usize).copied();
    let mut sets = Sets((0..nv as u32).collect());
    let mut pinned = vec![false; nv];
    let same_r = |a: u32, b: u32| kind(a) == kind(b) && kind(a).is_some_and(|k| k.slot().0 == 0);
    for inst in &prog.insts {
        for op in &inst.ops {
            if op.fixed.is_some() {
                if let Some(p) = pinned.get_mut(op.vreg as usize) {
                    *p = true;
                }
            }
            if let Some(used) = op.reuse.and_then(|at| inst.ops.get(usize::from(at))) {
                if same_r(op.vreg, used.vreg) {
                    sets.join(op.vreg, used.vreg);
                }
            }
        }
    }
    for block in &prog.blocks {
        for (k, args) in block.args.iter().enumerate() {
            let Some(target) = block.succs.get(k).and_then(|s| prog.blocks.get(*s as usize)) else { continue };
            for (&a, &p) in args.iter().zip(&target.params) {
                if same_r(a, p) {
                    sets.join(a, p);
                }
            }
        }
    }
    for v in 0..nv as u32 {
        if pinned[v as usize] {
            let r = sets.find(v);
            pinned[r as usize] = true;
        }
    }
    let extents = layout::extents(prog, liveness);
    let mut runs = Runs::plain(prog);
    for &k in split_kinds {
        let mut values: Vec<(u32, u32, u32)> = (0..nv as u32).filter(|&v| kind(v) == Some(k)).filter_map(|v| extents[v as usize].map(|(a, b)| (a, b, v))).collect();
        values.sort_unstable();
        // The most values live at once, by extents: the slots needed.
        let needed = {
            let mut ends: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
            let mut most = 0;
            for &(start, end, _) in &values {
                while ends.peek().is_some_and(|e| e.0 < start) {
                    ends.pop();
                }
                ends.push(Reverse(end));
                most = most.max(ends.len() as u32);
            }
            most
        };
        let groups = needed.div_ceil(GROUP_SLOTS).max(at_least);
        if groups == 1 {
            continue;
        }
        let per_group = needed.div_ceil(groups);
        let mut free: BTreeSet<u32> = (0..groups * per_group).collect();
        let mut free_in: Vec<u32> = vec![per_group; groups as usize];
        let mut group_of_set: Vec<Option<u32>> = vec![None; nv];
        // (end, value, slot); a value past its group's slots has none.
        let mut active: BinaryHeap<Reverse<(u32, u32, Option<u32>)>> = BinaryHeap::new();
        for &(start, end, v) in &values {
            while let Some(Reverse((e, _, slot))) = active.peek().copied() {
                if e >= start {
                    break;
                }
                active.pop();
                if let Some(s) = slot {
                    free.insert(s);
                    free_in[(s / per_group) as usize] += 1;
                }
            }
            let root = sets.find(v) as usize;
            let group = match group_of_set[root] {
                Some(g) => g,
                None if pinned[root] => 0,
                // The group with the most free slots, so that the set's
                // later values find room in it too.
                None => (0..groups).rev().max_by_key(|&g| free_in[g as usize]).unwrap_or(0),
            };
            group_of_set[root] = Some(group);
            let slot = free.range(group * per_group..(group + 1) * per_group).next().copied();
            if let Some(s) = slot {
                free.remove(&s);
                free_in[group as usize] -= 1;
            }
            active.push(Reverse((end, v, slot)));
            if group > 0 {
                runs.run[v as usize] = (2 + group) as u8;
            }
        }
        runs.count = runs.count.max(2 + groups as usize);
    }
    runs
}
