//! Recolouring of the allocated R registers over the whole file.
//!
//! The regalloc2 runs place each width in a region of its own
//! ([module documentation](super)), so a kernel holding pairs at one
//! point and singles at another needs the sum of the two peaks. Here the
//! allocated code is taken as it is, its R values regrouped as *webs* (a
//! web: the definitions of one register that reach a common use, with
//! their uses) and the webs packed again over the whole file, whatever
//! their width, lowest register first:
//! * the registers an operand of width 2 or 4 names are its webs side by
//!   side: such webs form a *bundle* placed as one, at a base congruent
//!   to its old one modulo the bundle's widest alignment, so every wide
//!   operand stays aligned;
//! * two webs interfere where both hold a value at one program point
//!   (each instruction has a read point and a write point after it; a
//!   definition occupies its register at its write point even when
//!   nothing reads it, so that it overwrites nothing live);
//! * a guarded definition keeps what it may not overwrite: its web is
//!   the web of the value before it; an instruction that reads and
//!   writes one register keeps the two in one web too (no form needs
//!   more than that of a tied operand);
//! * values live at the entry (read before any definition) keep their
//!   registers, as does R1, the stack pointer.
//!
//! The result is kept only where it lowers the highest register; the
//! instructions are otherwise the same (a `MOV` whose two registers
//! became one disappears). Functions with calls or returns keep their
//! registers (the calling convention fixes them). Every register operand
//! is enumerated by [`crate::sched::info::register_operands`], the
//! description the hazard checkers use.

use super::{AllocBlock, AllocInst};
use crate::isa::op::Op;
use crate::isa::operand::{Operand, RegFile, RegNum};
use crate::sched::info::{Role, register_operands};
use smallvec::SmallVec;

const NONE: u32 = u32::MAX;
/// R0–R254 (RZ is not a register).
const REGS: usize = 255;
/// The stack pointer.
const SP: usize = 1;

/// An R operand: its slot and role, first register, width, whether
/// written, and its first web node (one node per register it covers).
#[derive(Clone, Copy)]
struct Acc {
    slot: u8,
    role: Role,
    reg: u8,
    width: u8,
    write: bool,
    node: u32,
}

struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn add(&mut self) -> u32 {
        let n = self.parent.len() as u32;
        self.parent.push(n);
        n
    }
    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }
    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            self.parent[hi as usize] = lo;
        }
    }
}

/// The registers of the values of width 2 and 4 each instruction names,
/// as the allocator placed them (base, width): per block, per instruction.
pub type Wide = Vec<Vec<SmallVec<[(u8, u8); 4]>>>;

/// Recolours the R registers of `blocks` ([module documentation](self));
/// the new register count (highest R register + 1), or `None` where the
/// code is left unchanged (the analysis does not apply, or nothing is
/// gained).
pub fn recolour(blocks: &mut [AllocBlock], wide: &Wide) -> Option<u32> {
    let (map, accs, top) = plan(blocks, wide)?;
    apply(blocks, &map, &accs);
    Some(top)
}

/// The R operands of every instruction, blocks in order; `None` where an
/// operand's width in the form table is less than that of the value the
/// allocator placed there.
fn accesses(f: &[AllocBlock], wide: &Wide) -> Option<Vec<SmallVec<[Acc; 6]>>> {
    let mut all = Vec::new();
    for (b, block) in f.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            let hints = wide.get(b).and_then(|w| w.get(i));
            if matches!(inst, AllocInst::Call { .. }) || matches!(inst.inst().op(), Op::RET | Op::CALL | Op::BRX | Op::BRXU) {
                return None;
            }
            let mut accs: SmallVec<[Acc; 6]> = SmallVec::new();
            let mut ok = true;
            register_operands(inst.inst(), |a| {
                if a.reg.file != RegFile::Gpr {
                    return;
                }
                match a.reg.num {
                    RegNum::Phys(n) if usize::from(n) < REGS => {
                        let width = a.width.max(1);
                        // The scheduler and the hazard checkers read the
                        // same widths: where the allocator's value is wider
                        // than the form says (the matrix instructions' tuples
                        // are one register in the form table), they would
                        // miss the dependences of registers shared anew, so
                        // the code keeps its registers.
                        if a.role == Role::Reg && hints.into_iter().flatten().any(|&(base, w)| base == n && w > width) {
                            ok = false;
                        }
                        if usize::from(n) + usize::from(width) > REGS || (usize::from(n) <= SP && usize::from(n) + usize::from(width) > SP && !(n as usize == SP && width == 1)) {
                            ok = false;
                        }
                        accs.push(Acc { slot: a.slot as u8, role: a.role, reg: n, width, write: a.write, node: NONE });
                    }
                    RegNum::Phys(_) | RegNum::Zero => {}
                    RegNum::Virt(_) => ok = false,
                }
            });
            if !ok {
                return None;
            }
            all.push(accs);
        }
    }
    Some(all)
}

/// The new register of every web and the operands with their nodes, or
/// `None` where the code keeps its registers.
#[allow(clippy::type_complexity)]
fn plan(f: &[AllocBlock], wide: &Wide) -> Option<(Vec<u8>, Vec<SmallVec<[Acc; 6]>>, u32)> {
    let mut accs = accesses(f, wide)?;
    // Units at or above `top` are never accessed, so every table entry of
    // theirs stays empty: the scans over units stop there.
    let top = accs.iter().flatten().map(|a| usize::from(a.reg) + usize::from(a.width)).max().unwrap_or(0).min(REGS);
    let nb = f.len();
    // Instruction index range of each block.
    let mut starts = Vec::with_capacity(nb + 1);
    let mut n = 0usize;
    for b in f {
        starts.push(n);
        n += b.insts.len();
    }
    starts.push(n);
    if n == 0 {
        return None;
    }
    // Successors: branch targets, and the next block unless the block ends
    // in an unguarded BRA or EXIT (more successors than real only make
    // more values live).
    let mut succs: Vec<SmallVec<[usize; 2]>> = vec![SmallVec::new(); nb];
    for (b, block) in f.iter().enumerate() {
        let mut falls = true;
        for inst in &block.insts {
            if let AllocInst::Branch { target, .. } = inst {
                if !succs[b].contains(target) {
                    succs[b].push(*target);
                }
            }
        }
        if let Some(last) = block.insts.last() {
            let i = last.inst();
            let unguarded = i.guard.0.num == RegNum::Zero && !i.guard.1;
            if unguarded && (matches!(last, AllocInst::Branch { .. }) || i.op() == Op::EXIT) {
                falls = false;
            }
        }
        if falls && b + 1 < nb && !succs[b].contains(&(b + 1)) {
            succs[b].push(b + 1);
        }
    }
    // Webs: a node per register an operand writes, and per register live
    // into a block; a use joins the nodes reaching it.
    let mut uf = UnionFind { parent: Vec::new() };
    let mut live_in = vec![NONE; nb * top];
    let mut last_def = vec![NONE; nb * top];
    let mut unit_of: Vec<u8> = Vec::new();
    let new_node = |uf: &mut UnionFind, unit: usize, unit_of: &mut Vec<u8>| {
        unit_of.push(unit as u8);
        uf.add()
    };
    let mut idx = 0usize;
    let mut cur = [NONE; REGS];
    // Nodes of each operand's registers, in operand order.
    let mut acc_nodes: Vec<u32> = Vec::new();
    for (b, block) in f.iter().enumerate() {
        cur.fill(NONE);
        for inst in &block.insts {
            let guarded = !(inst.inst().guard.0.num == RegNum::Zero && !inst.inst().guard.1);
            let list = &mut accs[idx];
            let mut reads: SmallVec<[(usize, u32); 8]> = SmallVec::new();
            let mut reach = |u: usize, cur: &mut [u32; REGS], uf: &mut UnionFind, unit_of: &mut Vec<u8>| -> u32 {
                if cur[u] == NONE {
                    if live_in[b * top + u] == NONE {
                        live_in[b * top + u] = new_node(uf, u, unit_of);
                    }
                    cur[u] = live_in[b * top + u];
                }
                cur[u]
            };
            for a in list.iter_mut().filter(|a| !a.write) {
                a.node = acc_nodes.len() as u32;
                for k in 0..usize::from(a.width) {
                    let u = usize::from(a.reg) + k;
                    if u == SP {
                        acc_nodes.push(NONE);
                        continue;
                    }
                    let node = reach(u, &mut cur, &mut uf, &mut unit_of);
                    acc_nodes.push(node);
                    reads.push((u, node));
                }
            }
            let mut written: SmallVec<[usize; 8]> = SmallVec::new();
            for a in list.iter_mut().filter(|a| a.write) {
                a.node = acc_nodes.len() as u32;
                for k in 0..usize::from(a.width) {
                    let u = usize::from(a.reg) + k;
                    if u == SP {
                        acc_nodes.push(NONE);
                        continue;
                    }
                    if written.contains(&u) {
                        return None;
                    }
                    written.push(u);
                    let node = new_node(&mut uf, u, &mut unit_of);
                    if guarded {
                        let before = reach(u, &mut cur, &mut uf, &mut unit_of);
                        uf.union(node, before);
                    }
                    if let Some(&(_, r)) = reads.iter().find(|(x, _)| *x == u) {
                        uf.union(node, r);
                    }
                    acc_nodes.push(node);
                }
            }
            for a in list.iter().filter(|a| a.write) {
                for k in 0..usize::from(a.width) {
                    let u = usize::from(a.reg) + k;
                    if u == SP {
                        continue;
                    }
                    cur[u] = acc_nodes[a.node as usize + k];
                }
            }
            idx += 1;
        }
        last_def[b * top..(b + 1) * top].copy_from_slice(&cur[..top]);
    }
    // Values live into a block come from every predecessor's end.
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            for &s in &succs[b] {
                for u in 0..top {
                    let into = live_in[s * top + u];
                    if into == NONE {
                        continue;
                    }
                    let out = last_def[b * top + u];
                    if out != NONE {
                        uf.union(out, into);
                    } else {
                        if live_in[b * top + u] == NONE {
                            live_in[b * top + u] = new_node(&mut uf, u, &mut unit_of);
                            last_def[b * top + u] = NONE;
                            changed = true;
                        }
                        uf.union(live_in[b * top + u], into);
                    }
                }
            }
        }
    }
    // A block whose register is live in and not defined passes the
    // live-in value through: its end value is the live-in one.
    let end_node = |b: usize, u: usize| if last_def[b * top + u] != NONE { last_def[b * top + u] } else { live_in[b * top + u] };
    let nodes = unit_of.len();
    // Webs, numbered densely.
    let mut web_of = vec![NONE; nodes];
    let mut webs = 0u32;
    for x in 0..nodes as u32 {
        let r = uf.find(x) as usize;
        if web_of[r] == NONE {
            web_of[r] = webs;
            webs += 1;
        }
        web_of[x as usize] = web_of[r];
    }
    let nw = webs as usize;
    let mut orig = vec![0u8; nw];
    for x in 0..nodes {
        orig[web_of[x] as usize] = unit_of[x];
    }
    let mut pinned = vec![false; nw];
    for u in 0..top {
        if live_in[u] != NONE {
            pinned[web_of[live_in[u] as usize] as usize] = true;
        }
    }
    // Live intervals of each web, [start, end) over points 2i (reads of
    // instruction i) and 2i + 1 (its writes).
    let mut intervals: Vec<(u32, u32, u32)> = Vec::new();
    let mut live_end = [NONE; REGS];
    let mut live_web = [NONE; REGS];
    for b in (0..nb).rev() {
        live_end.fill(NONE);
        let end_point = 2 * starts[b + 1] as u32;
        for &s in &succs[b] {
            for u in 0..top {
                if live_in[s * top + u] != NONE && live_end[u] == NONE {
                    live_end[u] = end_point;
                    let node = end_node(b, u);
                    live_web[u] = if node == NONE { web_of[live_in[s * top + u] as usize] } else { web_of[node as usize] };
                }
            }
        }
        for i in (starts[b]..starts[b + 1]).rev() {
            let p = 2 * i as u32;
            for a in accs[i].iter().filter(|a| a.write) {
                for k in 0..usize::from(a.width) {
                    let u = usize::from(a.reg) + k;
                    if u == SP {
                        continue;
                    }
                    let w = web_of[acc_nodes[a.node as usize + k] as usize];
                    if live_end[u] != NONE {
                        intervals.push((live_web[u], p + 1, live_end[u]));
                        live_end[u] = NONE;
                    } else {
                        intervals.push((w, p + 1, p + 2));
                    }
                }
            }
            let guarded = {
                let inst = f[b].insts[i - starts[b]].inst();
                !(inst.guard.0.num == RegNum::Zero && !inst.guard.1)
            };
            for a in accs[i].iter() {
                if a.write && !guarded {
                    continue;
                }
                for k in 0..usize::from(a.width) {
                    let u = usize::from(a.reg) + k;
                    if u == SP {
                        continue;
                    }
                    if live_end[u] == NONE {
                        live_end[u] = p + 1;
                        live_web[u] = web_of[acc_nodes[a.node as usize + k] as usize];
                    }
                }
            }
        }
        let start_point = 2 * starts[b] as u32;
        for u in 0..top {
            if live_end[u] != NONE {
                intervals.push((live_web[u], start_point, live_end[u]));
            }
        }
    }
    intervals.sort_unstable();
    let mut first = vec![0usize; nw + 1];
    for &(w, _, _) in &intervals {
        first[w as usize + 1] += 1;
    }
    for w in 0..nw {
        first[w + 1] += first[w];
    }
    // Bundles: webs an operand names side by side, each with its offset
    // from the bundle's root (a union-find keeping offsets).
    let mut parent: Vec<u32> = (0..nw as u32).collect();
    let mut offset = vec![0i32; nw];
    let mut align = vec![1u32; nw];
    fn root(parent: &mut [u32], offset: &mut [i32], x: u32) -> (u32, i32) {
        let mut path = SmallVec::<[u32; 8]>::new();
        let mut r = x;
        while parent[r as usize] != r {
            path.push(r);
            r = parent[r as usize];
        }
        // Offsets relative to the root, nearest the root first.
        for &y in path.iter().rev() {
            let p = parent[y as usize];
            if p != r {
                offset[y as usize] += offset[p as usize];
            }
            parent[y as usize] = r;
        }
        (r, if x == r { 0 } else { offset[x as usize] })
    }
    for list in &accs {
        for a in list.iter().filter(|a| a.width > 1) {
            let w0 = web_of[acc_nodes[a.node as usize] as usize];
            let (r0, o0) = root(&mut parent, &mut offset, w0);
            let need = u32::from(a.width).next_power_of_two();
            align[r0 as usize] = align[r0 as usize].max(need);
            for k in 1..usize::from(a.width) {
                let wk = web_of[acc_nodes[a.node as usize + k] as usize];
                let (rk, ok) = root(&mut parent, &mut offset, wk);
                let (r0, o0) = root(&mut parent, &mut offset, w0);
                let _ = o0;
                if rk == r0 {
                    if ok - o0 != k as i32 {
                        return None;
                    }
                    continue;
                }
                // Hang rk under r0: offset(wk) = o0 + k.
                parent[rk as usize] = r0;
                offset[rk as usize] = o0 + k as i32 - ok;
                align[r0 as usize] = align[r0 as usize].max(align[rk as usize]);
            }
            let _ = o0;
        }
    }
    // Members of each bundle, offsets from the bundle's lowest register:
    // (root, web, offset from the root), grouped by root.
    let mut by_root: Vec<(u32, u32, i32)> = (0..nw as u32)
        .map(|w| {
            let (r, o) = root(&mut parent, &mut offset, w);
            (r, w, o)
        })
        .collect();
    by_root.sort_unstable_by_key(|&(r, w, _)| (r, w));
    // Each web's occupied points as a bit set over the words it spans:
    // `occ[occ_at[w]..]` holds words `occ_lo[w]..occ_hi[w]`. A register
    // is free for a web where none of these bits is set in its busy row,
    // the same test as each interval against the row.
    let mut occ_lo = vec![0u32; nw];
    let mut occ_at = vec![0u32; nw + 1];
    let mut occ: Vec<u64> = Vec::new();
    for w in 0..nw {
        let ivs = &intervals[first[w]..first[w + 1]];
        let lo = ivs.iter().map(|x| x.1 as usize / 64).min().unwrap_or(0);
        let hi = ivs.iter().map(|x| (x.2 as usize).div_ceil(64)).max().unwrap_or(0).max(lo);
        occ_lo[w] = lo as u32;
        let at = occ.len();
        occ.resize(at + (hi - lo), 0);
        for &(_, s, e) in ivs {
            set_range(&mut occ[at..], s as usize - lo * 64, e as usize - lo * 64);
        }
        occ_at[w + 1] = occ.len() as u32;
    }
    struct Bundle {
        /// `members[first..end]`: (web, offset from the bundle's base).
        first: usize,
        end: usize,
        base: u32,
        align: u32,
        pinned: bool,
        start: u32,
        span: u32,
    }
    let mut members: Vec<(u32, u32)> = Vec::with_capacity(nw);
    let mut bundles = Vec::new();
    let mut g = 0;
    while g < by_root.len() {
        let r = by_root[g].0;
        let mut h = g;
        while h < by_root.len() && by_root[h].0 == r {
            h += 1;
        }
        let group = &by_root[g..h];
        g = h;
        let low = group.iter().map(|x| x.2).min().unwrap_or(0);
        let first_member = members.len();
        members.extend(group.iter().map(|&(_, w, o)| (w, (o - low) as u32)));
        let m = &members[first_member..];
        let base = i32::from(orig[m[0].0 as usize]) - m[0].1 as i32;
        if base < 0 || m.iter().any(|&(w, o)| i32::from(orig[w as usize]) != base + o as i32) {
            return None;
        }
        let start = m.iter().filter_map(|&(w, _)| intervals.get(first[w as usize]).map(|x| x.1)).min().unwrap_or(0);
        let span = m.iter().map(|x| x.1).max().unwrap_or(0) + 1;
        let pinned = m.iter().any(|&(w, _)| pinned[w as usize]);
        bundles.push(Bundle { first: first_member, end: members.len(), pinned, base: base as u32, align: align[r as usize], start, span });
    }
    let old_top = orig.iter().map(|&r| u32::from(r) + 1).max().unwrap_or(0);
    let points = 2 * n + 2;
    let words = points.div_ceil(64);
    // Whether web `w` may take register `reg` in `busy`.
    let free = |busy: &[u64], reg: usize, w: usize| -> bool {
        let lo = occ_lo[w] as usize;
        let bits = &occ[occ_at[w] as usize..occ_at[w + 1] as usize];
        let row = &busy[reg * words + lo..reg * words + lo + bits.len()];
        row.iter().zip(bits).all(|(b, o)| b & o == 0)
    };
    // Two orders, the better kept: by start, and widest first by start.
    let mut best: Option<(u32, Vec<u8>)> = None;
    let mut idx: Vec<usize> = (0..bundles.len()).collect();
    let mut busy = vec![0u64; REGS * words];
    for order in 0..2 {
        if order == 0 {
            idx.sort_by_key(|&i| (!bundles[i].pinned, bundles[i].start, std::cmp::Reverse(bundles[i].span)));
        } else {
            // From bundle order again: the sort is stable, ties keep it.
            idx.iter_mut().enumerate().for_each(|(k, i)| *i = k);
            idx.sort_by_key(|&i| (!bundles[i].pinned, std::cmp::Reverse(bundles[i].span), bundles[i].start));
            busy.fill(0);
        }
        let mut colour = vec![0u8; nw];
        let mut top = 0u32;
        let mut failed = false;
        for &i in &idx {
            let bundle = &bundles[i];
            let bundle_members = &members[bundle.first..bundle.end];
            let fits = |busy: &[u64], base: u32| -> bool {
                bundle_members.iter().all(|&(w, o)| {
                    let reg = (base + o) as usize;
                    reg < REGS && reg != SP && free(busy, reg, w as usize)
                })
            };
            let base = if bundle.pinned {
                Some(bundle.base)
            } else {
                let mut b = bundle.base % bundle.align;
                let mut found = None;
                while b + bundle.span <= REGS as u32 {
                    if fits(&busy, b) {
                        found = Some(b);
                        break;
                    }
                    b += bundle.align;
                }
                found
            };
            let Some(base) = base else {
                failed = true;
                break;
            };
            for &(w, o) in bundle_members {
                let reg = (base + o) as usize;
                colour[w as usize] = reg as u8;
                top = top.max(reg as u32 + 1);
                let lo = occ_lo[w as usize] as usize;
                let bits = &occ[occ_at[w as usize] as usize..occ_at[w as usize + 1] as usize];
                for (b, o) in busy[reg * words + lo..reg * words + lo + bits.len()].iter_mut().zip(bits) {
                    *b |= o;
                }
            }
        }
        if !failed && best.as_ref().is_none_or(|(t, _)| top < *t) {
            best = Some((top, colour));
        }
    }
    let (top, colour) = best?;
    if top >= old_top {
        return None;
    }
    // Per operand register, its new register.
    let mut out_accs = accs;
    for list in out_accs.iter_mut() {
        for a in list.iter_mut() {
            let first_node = acc_nodes[a.node as usize];
            if first_node == NONE {
                // R1 alone.
                a.node = NONE;
                continue;
            }
            for k in 1..usize::from(a.width) {
                let node = acc_nodes[a.node as usize + k];
                if node == NONE || colour[web_of[node as usize] as usize] != colour[web_of[first_node as usize] as usize] + k as u8 {
                    return None;
                }
            }
            a.node = web_of[first_node as usize];
        }
    }
    Some((colour, out_accs, top.max(2)))
}

fn set_range(bits: &mut [u64], s: usize, e: usize) {
    let mut i = s;
    while i < e {
        let word = i / 64;
        let lo = i % 64;
        let hi = (e - word * 64).min(64);
        let mask = if hi - lo == 64 { u64::MAX } else { ((1u64 << (hi - lo)) - 1) << lo };
        bits[word] |= mask;
        i = (word + 1) * 64;
    }
}

/// Renames every R operand by its web's colour and drops the `MOV`s that
/// became copies of a register to itself.
fn apply(blocks: &mut [AllocBlock], colour: &[u8], accs: &[SmallVec<[Acc; 6]>]) {
    let mut idx = 0usize;
    for block in blocks.iter_mut() {
        let mut keep = Vec::with_capacity(block.insts.len());
        for inst in block.insts.iter_mut() {
            let list = &accs[idx];
            idx += 1;
            let m = match inst {
                AllocInst::Inst(i) | AllocInst::Branch { inst: i, .. } | AllocInst::Call { inst: i, .. } | AllocInst::ReturnAddress { inst: i } | AllocInst::SymAddr { inst: i, .. } => i,
            };
            for a in list.iter().filter(|a| a.node != NONE) {
                let new = RegNum::Phys(colour[a.node as usize]);
                let Some(op) = m.operands.get_mut(usize::from(a.slot)) else { continue };
                match (op, a.role) {
                    (Operand::Reg { reg, .. }, Role::Reg) => reg.num = new,
                    (Operand::ConstAddr { index, .. }, Role::ConstIndex) => index.num = new,
                    (Operand::Mem(mem), Role::MemBase) => {
                        if let Ok(x) = mem.map_regs(|r| Ok::<RegNum, ()>(if r.file == RegFile::Gpr { new } else { r.num })) {
                            *mem = x;
                        }
                    }
                    _ => {}
                }
            }
            let is_self_move = matches!(inst, AllocInst::Inst(_)) && {
                let i = inst.inst();
                i.op() == Op::MOV
                    && i.guard.0.num == RegNum::Zero
                    && !i.guard.1
                    && list.len() == 2
                    && list.iter().all(|a| a.width == 1 && a.role == Role::Reg && a.node != NONE)
                    && colour[list[0].node as usize] == colour[list[1].node as usize]
            };
            keep.push(!is_self_move);
        }
        // A block keeps at least one instruction.
        if !keep.iter().any(|k| *k) {
            if let Some(k) = keep.first_mut() {
                *k = true;
            }
        }
        let mut it = keep.iter();
        block.insts.retain(|_| *it.next().unwrap_or(&true));
        let mut it = keep.iter();
        block.locs.retain(|_| *it.next().unwrap_or(&true));
    }
}
