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
//! registers. The groups come from linear scans over the values' extents
//! in program order ([`layout::extents`]), with slots numbered from 0 and
//! each group owning a range of them (`Pools`); a group's region is then
//! sized by the pressure of the values it got. Interference is
//! approximated by extents (a value covers every point between its first
//! and last), which for the straight-line and loop code where this
//! matters is close to liveness.
//!
//! Regions of different widths do not share registers, so singles and
//! pairs peaking at different points would need the sum of both peaks.
//! Part of that is won back by letting a single sit in a pair unit (its
//! low register) where no pair needs that unit over the single's extent:
//! the pairs are placed first, then a single takes a free single slot,
//! else a pair slot free over its whole extent, else a new single slot;
//! the single slots so needed decide the singles' groups. A single in a
//! pair unit is in the pair class of its run; regalloc2 moves and spills
//! it as a pair (both registers of the unit are its own). This sharing is
//! asked for (`share`) rather than always done: where singles outnumber
//! the free pair units a single takes two registers for one, and CUB's
//! radix sorts spill more with it.

use super::Kind;
use super::layout::{self, Liveness, MAX_UNITS};
use super::prep::Prog;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

/// The most slots of one group: a class's units less a few that regalloc2
/// needs for moves into fixed registers and reuses.
pub const GROUP_SLOTS: u32 = MAX_UNITS - 4;

/// The run of every virtual register.
#[derive(Clone, Debug)]
pub struct Runs {
    run: Vec<u8>,
    /// The class of every virtual register in its run: its kind's
    /// ([`Kind::slot`]), or the pairs' for a single kept in a pair unit.
    class: Vec<u8>,
    /// Number of runs (at least the three of [`super::RUNS`]).
    pub count: usize,
}

impl Runs {
    /// One run per file group ([`Kind::slot`]): no split.
    pub fn plain(prog: &Prog) -> Runs {
        Runs { run: prog.kinds.iter().map(|k| k.slot().0 as u8).collect(), class: prog.kinds.iter().map(|k| k.slot().1 as u8).collect(), count: 3 }
    }

    /// The class of virtual register `v` in its run.
    pub fn class_of(&self, v: u32) -> usize {
        self.class.get(v as usize).map_or(0, |c| usize::from(*c))
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
pub fn split(prog: &Prog, liveness: &Liveness, split_kinds: &[Kind], at_least: u32, share: bool) -> Runs {
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
    let values_of = |k: Kind| {
        let mut values: Vec<(u32, u32, u32)> = (0..nv as u32).filter(|&v| kind(v) == Some(k)).filter_map(|v| extents[v as usize].map(|(a, b)| (a, b, v))).collect();
        values.sort_unstable();
        values
    };
    let mut runs = Runs::plain(prog);
    let run_of_group = |g: u32| if g == 0 { 0 } else { (2 + g) as u8 };
    // Pairs first: their slots, and the extents during which each slot is
    // taken, so that singles may use a pair slot where no pair needs it.
    let pairs = values_of(Kind::R2);
    let pair_needed = most_live(&pairs);
    let pair_groups = if split_kinds.contains(&Kind::R2) { pair_needed.div_ceil(GROUP_SLOTS).max(at_least) } else { 1 };
    let pair_per_group = pair_needed.div_ceil(pair_groups.max(1));
    let mut pair_busy: Vec<BTreeMap<u32, u32>> = vec![BTreeMap::new(); (pair_groups * pair_per_group) as usize];
    if pair_needed > 0 {
        let mut pools = Pools::new(pair_groups, pair_per_group, nv);
        for &(start, end, v) in &pairs {
            pools.expire(start);
            let root = sets.find(v) as usize;
            let group = pools.group_for(root, pinned[root]);
            if let Some(slot) = pools.take(group, end, v) {
                pair_busy[slot as usize].insert(start, end);
            }
            runs.run[v as usize] = run_of_group(group);
        }
        runs.count = runs.count.max(2 + pair_groups as usize);
    }
    if split_kinds.contains(&Kind::R1) {
        let singles = values_of(Kind::R1);
        // The single slots needed where a single takes a free pair slot
        // rather than a new single slot.
        let needed = {
            let mut busy = pair_busy.clone();
            let mut free: BTreeSet<u32> = BTreeSet::new();
            let mut active: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
            let mut most = 0;
            for &(start, end, _) in &singles {
                while active.peek().is_some_and(|e| e.0.0 < start) {
                    if let Some(Reverse((_, s))) = active.pop() {
                        free.insert(s);
                    }
                }
                if let Some(s) = free.pop_first() {
                    active.push(Reverse((end, s)));
                } else if let Some(p) = free_pair(&busy, 0..busy.len(), start, end).filter(|_| share) {
                    busy[p].insert(start, end);
                } else {
                    active.push(Reverse((end, most)));
                    most += 1;
                }
            }
            most
        };
        let groups = needed.div_ceil(GROUP_SLOTS).max(at_least);
        if groups > 1 && needed > 0 {
            let per_group = needed.div_ceil(groups);
            let mut pools = Pools::new(groups, per_group, nv);
            // The pair group (plus one) of the sets that live in pair slots.
            let mut pair_group_of_set: Vec<u32> = vec![0; nv];
            for &(start, end, v) in &singles {
                pools.expire(start);
                let root = sets.find(v) as usize;
                let first = pools.group_of_set[root].is_none() && pair_group_of_set[root] == 0;
                if share && first && !pinned[root] && pools.free.is_empty() {
                    if let Some(p) = free_pair(&pair_busy, 0..pair_busy.len(), start, end) {
                        pair_group_of_set[root] = p as u32 / pair_per_group + 1;
                    }
                }
                if pair_group_of_set[root] > 0 {
                    let g = pair_group_of_set[root] - 1;
                    let range = (g * pair_per_group) as usize..((g + 1) * pair_per_group) as usize;
                    if let Some(p) = free_pair(&pair_busy, range, start, end) {
                        pair_busy[p].insert(start, end);
                    }
                    runs.run[v as usize] = run_of_group(g);
                    runs.class[v as usize] = Kind::R2.slot().1 as u8;
                    continue;
                }
                let group = pools.group_for(root, pinned[root]);
                pools.take(group, end, v);
                runs.run[v as usize] = run_of_group(group);
            }
            runs.count = runs.count.max(2 + groups as usize);
        }
    }
    runs
}

/// The most values live at once by their extents (sorted by start).
fn most_live(values: &[(u32, u32, u32)]) -> u32 {
    let mut ends: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
    let mut most = 0;
    for &(start, end, _) in values {
        while ends.peek().is_some_and(|e| e.0 < start) {
            ends.pop();
        }
        ends.push(Reverse(end));
        most = most.max(ends.len() as u32);
    }
    most
}

/// The first pair slot of `range` that no value holds between `start`
/// and `end`.
fn free_pair(busy: &[BTreeMap<u32, u32>], range: std::ops::Range<usize>, start: u32, end: u32) -> Option<usize> {
    range.into_iter().find(|&p| busy.get(p).is_some_and(|b| b.range(..=end).next_back().is_none_or(|(_, &e)| e < start)))
}

/// Slots in groups for a linear scan: a value takes the lowest free slot
/// of its set's group; the first value of a set decides the group, the
/// one with the most free slots (so that the set's later values find room
/// in it too), or the first for a set with a fixed register.
struct Pools {
    per_group: u32,
    groups: u32,
    free: BTreeSet<u32>,
    free_in: Vec<u32>,
    group_of_set: Vec<Option<u32>>,
    /// (end, value, slot) of the values holding slots.
    active: BinaryHeap<Reverse<(u32, u32, u32)>>,
}

impl Pools {
    fn new(groups: u32, per_group: u32, nv: usize) -> Pools {
        Pools { per_group, groups, free: (0..groups * per_group).collect(), free_in: vec![per_group; groups as usize], group_of_set: vec![None; nv], active: BinaryHeap::new() }
    }
    /// Frees the slots of the values that end before `start`.
    fn expire(&mut self, start: u32) {
        while let Some(Reverse((e, _, slot))) = self.active.peek().copied() {
            if e >= start {
                break;
            }
            self.active.pop();
            self.free.insert(slot);
            self.free_in[(slot / self.per_group) as usize] += 1;
        }
    }
    /// The group of the set `root` (decided now for its first value).
    fn group_for(&mut self, root: usize, pinned: bool) -> u32 {
        let free_in = &self.free_in;
        let group = match self.group_of_set[root] {
            Some(g) => g,
            None if pinned => 0,
            None => (0..self.groups).rev().max_by_key(|&g| free_in[g as usize]).unwrap_or(0),
        };
        self.group_of_set[root] = Some(group);
        group
    }
    /// The lowest free slot of `group` for a value ending at `end`; none
    /// when the group is full (the value is then over the group's slots).
    fn take(&mut self, group: u32, end: u32, v: u32) -> Option<u32> {
        let slot = self.free.range(group * self.per_group..(group + 1) * self.per_group).next().copied()?;
        self.free.remove(&slot);
        self.free_in[group as usize] -= 1;
        self.active.push(Reverse((end, v, slot)));
        Some(slot)
    }
}
