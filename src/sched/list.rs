//! List scheduling of one block: the block is cut at fences
//! ([`super::info::fence`]: control instructions and whatever the
//! dependence model does not see), which keep their places, and each
//! stretch between two fences is reordered by a cycle-driven list scheduler
//! over its dependence graph.
//!
//! Edges: register RAW (weighted by the fixed latency of the table, or an
//! estimate for variable-latency producers), WAR and WAW of every file
//! (order only: the control fields cover the timing), and memory order (a
//! write ordered against every access that may alias it; loads among
//! themselves move freely). Priority: the longest latency-weighted path to
//! the end of the stretch, then the original order.

use super::info::{HazardInfo, Space, UNITS, fence, file_of, memory_access};
use crate::isa::op::Op;
use crate::isa::op_facts::MemAccess;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use super::latency::{self, Class, NEEDS_SCOREBOARD, Table};
use crate::isa::inst::Inst;
use crate::target::Sm;

/// Cycles a variable-latency result is assumed to take, for priorities
/// only (the scoreboards make any real latency safe): rough figures of the
/// Volta/Turing microbenchmark studies (arXiv 1804.06826, 1903.07486) —
/// global and local memory a few hundred cycles when missing the caches,
/// tens when hitting them; shared memory and constants about 20–30.
fn estimate(class: Class, op: Op) -> u32 {
    match (class, op.facts().memory) {
        // Shared memory (LDS, LDSM, ATOMS; STS has no result).
        (Class::Mem | Class::Async, Some(MemAccess { space: Space::Shared, .. })) => 24,
        (Class::Mem | Class::Async | Class::Texture, _) => 40,
        (Class::Ldc, _) => 20,
        (Class::Sreg, _) => 20,
        (Class::Shfl, _) => 24,
        (Class::Fp64, _) => 16,
        _ => 14,
    }
}

/// The latency of a RAW edge from `p` to `c` through a unit of `file`.
fn raw_latency(table: &Table, unit: u16, p: &HazardInfo, p_op: Op, reader: Class, relief: u8) -> u32 {
    match latency::relieved(table.latency(file_of(unit), p.class(), reader), relief) {
        NEEDS_SCOREBOARD => estimate(p.class(), p_op),
        l => u32::from(l),
    }
}

/// Reorders `insts` (and their `infos`) in place; returns how many
/// instructions moved. `units` is scratch space, reused across blocks
/// (its dense tables are 4 KiB; filling fresh ones for every block cost
/// more than scheduling a small one).
pub fn reorder(insts: &mut Vec<Inst>, infos: &mut Vec<HazardInfo>, locs: &mut [crate::ir::SrcLoc], sm: Sm, units: &mut UnitTables) -> usize {
    let table = latency::table(sm);
    let fences: Vec<bool> = insts.iter().zip(infos.iter()).map(|(i, h)| fence(i, h.class())).collect();
    let mut order: Vec<usize> = (0..insts.len()).collect();
    let mut start = 0;
    while start < insts.len() {
        if fences[start] {
            start += 1;
            continue;
        }
        let end = (start..insts.len()).find(|&k| fences[k]).unwrap_or(insts.len());
        if end - start > 1 {
            let local = schedule_stretch(table, &insts[start..end], &infos[start..end], units);
            for (k, &x) in local.iter().enumerate() {
                order[start + k] = start + x;
            }
        }
        start = end;
    }
    let moved = order.iter().enumerate().filter(|(k, x)| *k != **x).count();
    if moved > 0 {
        permute(insts, infos, &order);
        if locs.len() == order.len() {
            let old = locs.to_vec();
            for (slot, &from) in locs.iter_mut().zip(&order) {
                *slot = old[from];
            }
        }
    }
    moved
}

/// Puts the instruction (and facts) at `order[k]` at position `k`, in
/// place: each cycle of the permutation is followed with swaps, so no
/// instruction is copied into a new vector.
fn permute(insts: &mut [Inst], infos: &mut [HazardInfo], order: &[usize]) {
    let mut placed = vec![false; order.len()];
    for start in 0..order.len() {
        if placed[start] {
            continue;
        }
        // Position `k` holds the instruction that started the cycle
        // until the cycle closes.
        let mut k = start;
        loop {
            placed[k] = true;
            let from = order[k];
            if from == start || from >= order.len() {
                break;
            }
            insts.swap(k, from);
            infos.swap(k, from);
            k = from;
        }
    }
}

/// One edge of the dependence graph.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    latency: u32,
}

/// Per register unit, the last writer and the readers since, for building
/// one stretch's edges: dense tables over the units, reset after each
/// stretch through the list of units it touched.
pub struct UnitTables {
    last_write: Vec<u32>,
    /// Head of each unit's reader list in `nodes` (`NONE`: empty).
    readers: Vec<u32>,
    /// Reader lists: (instruction, next node).
    nodes: Vec<(u32, u32)>,
    touched: Vec<u16>,
}

const NONE: u32 = u32::MAX;

impl UnitTables {
    /// Empty tables.
    pub fn new() -> UnitTables {
        UnitTables { last_write: vec![NONE; UNITS], readers: vec![NONE; UNITS], nodes: Vec::new(), touched: Vec::new() }
    }
    fn reset(&mut self) {
        for u in self.touched.drain(..) {
            self.last_write[usize::from(u)] = NONE;
            self.readers[usize::from(u)] = NONE;
        }
        self.nodes.clear();
    }
}

/// The new order of a stretch with no fences, as indices into it.
fn schedule_stretch(table: &Table, insts: &[Inst], infos: &[HazardInfo], units: &mut UnitTables) -> Vec<usize> {
    let n = insts.len();
    let ops: Vec<Op> = insts.iter().map(Inst::op).collect();
    // Edges (from, to, latency), in one list; duplicates are harmless.
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(4 * n);
    let mut mem: Vec<(u32, Space, bool)> = Vec::new();
    let add = |edges: &mut Vec<(u32, u32, u32)>, from: u32, to: usize, latency: u32| {
        if from as usize != to {
            edges.push((from, to as u32, latency));
        }
    };
    units.reset();
    for (j, h) in infos.iter().enumerate() {
        // The guard is read as a guard (`Class::Guard`), the operands as the instruction's class.
        let reads = h.guard().map(|g| (g, Class::Guard, 0)).into_iter().chain(h.reads_with_relief().map(|(r, relief)| (r, h.class(), relief)));
        for (r, reader, relief) in reads {
            let Some(&p) = units.last_write.get(usize::from(r)) else { continue };
            if p != NONE {
                let l = raw_latency(table, r, &infos[p as usize], ops[p as usize], reader, relief);
                add(&mut edges, p, j, l);
            }
            let head = units.readers[usize::from(r)];
            units.nodes.push((j as u32, head));
            units.readers[usize::from(r)] = (units.nodes.len() - 1) as u32;
            units.touched.push(r);
        }
        for &w in h.writes() {
            let Some(&p) = units.last_write.get(usize::from(w)) else { continue };
            if p != NONE {
                add(&mut edges, p, j, 1);
            }
            let mut at = std::mem::replace(&mut units.readers[usize::from(w)], NONE);
            while at != NONE {
                let (q, next) = units.nodes[at as usize];
                add(&mut edges, q, j, 0);
                at = next;
            }
            units.last_write[usize::from(w)] = j as u32;
            units.touched.push(w);
        }
        if let Some((space, _, writes)) = memory_access(ops[j]) {
            for &(k, s, w) in &mem {
                if (writes || w) && space.may_alias(s) {
                    add(&mut edges, k, j, 0);
                }
            }
            mem.push((j as u32, space, writes));
        }
    }
    // Successor lists in one array, grouped by source (counting sort).
    let mut first = vec![0u32; n + 1];
    for &(from, _, _) in &edges {
        first[from as usize + 1] += 1;
    }
    for k in 0..n {
        first[k + 1] += first[k];
    }
    let mut fill = first.clone();
    let mut flat = vec![Edge { to: 0, latency: 0 }; edges.len()];
    for &(from, to, latency) in &edges {
        flat[fill[from as usize] as usize] = Edge { to, latency };
        fill[from as usize] += 1;
    }
    let succs: Vec<&[Edge]> = (0..n).map(|k| &flat[first[k] as usize..first[k + 1] as usize]).collect();
    // Heights: edges go forward, so a reverse sweep sees successors first.
    let mut height = vec![0u32; n];
    let mut preds_left = vec![0u32; n];
    for j in (0..n).rev() {
        height[j] = succs[j].iter().map(|e| e.latency + height[e.to as usize]).max().unwrap_or(0);
        for e in succs[j] {
            preds_left[e.to as usize] += 1;
        }
    }
    let mut earliest = vec![0u32; n];
    // Instructions whose predecessors are all placed: those that may issue
    // at the current cycle (highest first, then the earliest in the
    // original order), and those still waiting for a latency (soonest
    // first, then highest, then original order). An instruction's earliest
    // cycle is final once it is ready, so the keys do not change in a heap.
    let mut avail: BinaryHeap<(u32, Reverse<usize>)> = BinaryHeap::new();
    let mut waiting: BinaryHeap<Reverse<(u32, Reverse<u32>, usize)>> = BinaryHeap::new();
    for j in (0..n).filter(|&j| preds_left[j] == 0) {
        waiting.push(Reverse((earliest[j], Reverse(height[j]), j)));
    }
    let mut out = Vec::with_capacity(n);
    let mut cycle = 0u32;
    loop {
        while let Some(&Reverse((at, _, j))) = waiting.peek() {
            if at > cycle {
                break;
            }
            waiting.pop();
            avail.push((height[j], Reverse(j)));
        }
        let pick = match avail.pop() {
            Some((_, Reverse(j))) => j,
            // Nothing can issue yet: go to the soonest ready one.
            None => match waiting.pop() {
                Some(Reverse((at, _, j))) => {
                    cycle = at;
                    j
                }
                None => break,
            },
        };
        out.push(pick);
        for e in succs[pick] {
            let t = e.to as usize;
            earliest[t] = earliest[t].max(cycle + e.latency);
            preds_left[t] -= 1;
            if preds_left[t] == 0 {
                waiting.push(Reverse((earliest[t], Reverse(height[t]), t)));
            }
        }
        cycle += 1;
    }
    out
}
