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

use super::info::{HazardInfo, UNITS, base_name, fence, file_of, memory_access, Space};
use super::latency::{self, Class, NEEDS_SCOREBOARD, Table};
use crate::isa::inst::Inst;
use crate::target::Sm;

/// Cycles a variable-latency result is assumed to take, for priorities
/// only (the scoreboards make any real latency safe): rough figures of the
/// Volta/Turing microbenchmark studies (arXiv 1804.06826, 1903.07486) —
/// global and local memory a few hundred cycles when missing the caches,
/// tens when hitting them; shared memory and constants about 20–30.
fn estimate(class: Class, base: &str) -> u32 {
    match (class, base) {
        (Class::Mem, "LDS" | "LDSM" | "ATOMS") => 24,
        (Class::Mem, _) => 40,
        (Class::Ldc, _) => 20,
        (Class::Sreg, _) => 20,
        (Class::Shfl, _) => 24,
        (Class::Fp64, _) => 16,
        _ => 14,
    }
}

/// The latency of a RAW edge from `p` to `c` through a unit of `file`.
fn raw_latency(table: &Table, unit: u16, p: &HazardInfo, p_base: &str, c: &HazardInfo) -> u32 {
    match table.latency(file_of(unit), p.class(), c.class()) {
        NEEDS_SCOREBOARD => estimate(p.class(), p_base),
        l => u32::from(l),
    }
}

/// Reorders `insts` in place; returns how many instructions moved.
pub fn reorder(insts: &mut Vec<Inst>, sm: Sm) -> usize {
    let table = latency::table(sm);
    let infos: Vec<HazardInfo> = insts.iter().map(|i| HazardInfo::of(i, sm)).collect();
    let fences: Vec<bool> = insts.iter().zip(&infos).map(|(i, h)| fence(i, h.class())).collect();
    let mut order: Vec<usize> = (0..insts.len()).collect();
    let mut start = 0;
    while start < insts.len() {
        if fences[start] {
            start += 1;
            continue;
        }
        let end = (start..insts.len()).find(|&k| fences[k]).unwrap_or(insts.len());
        if end - start > 1 {
            let local = schedule_stretch(table, &insts[start..end], &infos[start..end]);
            for (k, &x) in local.iter().enumerate() {
                order[start + k] = start + x;
            }
        }
        start = end;
    }
    let moved = order.iter().enumerate().filter(|(k, x)| *k != **x).count();
    if moved > 0 {
        let mut old: Vec<Option<Inst>> = std::mem::take(insts).into_iter().map(Some).collect();
        *insts = order.iter().filter_map(|&x| old[x].take()).collect();
    }
    moved
}

/// One edge of the dependence graph.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    latency: u32,
}

/// The new order of a stretch with no fences, as indices into it.
fn schedule_stretch(table: &Table, insts: &[Inst], infos: &[HazardInfo]) -> Vec<usize> {
    let n = insts.len();
    let bases: Vec<&str> = insts.iter().map(base_name).collect();
    let mut succs: Vec<Vec<Edge>> = vec![Vec::new(); n];
    let mut last_write: Vec<u32> = vec![u32::MAX; UNITS];
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); UNITS];
    let mut mem: Vec<(u32, Space, bool)> = Vec::new();
    let add = |succs: &mut Vec<Vec<Edge>>, from: u32, to: usize, latency: u32| {
        if from as usize != to {
            succs[from as usize].push(Edge { to: to as u32, latency });
        }
    };
    for (j, h) in infos.iter().enumerate() {
        for r in h.guard().into_iter().chain(h.reads().iter().copied()) {
            let p = last_write[usize::from(r)];
            if p != u32::MAX {
                let l = raw_latency(table, r, &infos[p as usize], bases[p as usize], h);
                add(&mut succs, p, j, l);
            }
            readers[usize::from(r)].push(j as u32);
        }
        for &w in h.writes() {
            let p = last_write[usize::from(w)];
            if p != u32::MAX {
                add(&mut succs, p, j, 1);
            }
            for q in std::mem::take(&mut readers[usize::from(w)]) {
                add(&mut succs, q, j, 0);
            }
            last_write[usize::from(w)] = j as u32;
        }
        if let Some((space, _, writes)) = memory_access(bases[j]) {
            for &(k, s, w) in &mem {
                if (writes || w) && space.may_alias(s) {
                    add(&mut succs, k, j, 0);
                }
            }
            mem.push((j as u32, space, writes));
        }
    }
    // Heights: edges go forward, so a reverse sweep sees successors first.
    let mut height = vec![0u32; n];
    let mut preds_left = vec![0u32; n];
    for j in (0..n).rev() {
        height[j] = succs[j].iter().map(|e| e.latency + height[e.to as usize]).max().unwrap_or(0);
        for e in &succs[j] {
            preds_left[e.to as usize] += 1;
        }
    }
    let mut earliest = vec![0u32; n];
    let mut ready: Vec<usize> = (0..n).filter(|&j| preds_left[j] == 0).collect();
    let mut out = Vec::with_capacity(n);
    let mut cycle = 0u32;
    while !ready.is_empty() {
        let avail = ready.iter().copied().filter(|&j| earliest[j] <= cycle);
        let best = avail.max_by_key(|&j| (height[j], std::cmp::Reverse(j)));
        let pick = match best {
            Some(j) => j,
            None => {
                // Nothing can issue yet: go to the soonest ready one.
                let j = ready.iter().copied().min_by_key(|&j| (earliest[j], std::cmp::Reverse(height[j]), j)).unwrap_or(ready[0]);
                cycle = earliest[j];
                j
            }
        };
        ready.retain(|&j| j != pick);
        out.push(pick);
        for e in &succs[pick] {
            let t = e.to as usize;
            earliest[t] = earliest[t].max(cycle + e.latency);
            preds_left[t] -= 1;
            if preds_left[t] == 0 {
                ready.push(t);
            }
        }
        cycle += 1;
    }
    out
}
