//! Control fields: a forward pass over each block in its final order,
//! with the state its earlier predecessors leave (module documentation of
//! [`super`]). The state says, per register unit, which scoreboards its
//! pending result or held read waits on and from which cycle a reader may
//! read it; per scoreboard, the unit of the instruction that set it last.

use super::info::{HazardInfo, UNITS, UR_BASE, branch_like, opaque};
use crate::isa::op::Op;
use crate::isa::op_facts::{AsyncGroup, Control};
use super::latency::{self, CLASSES, Class, File, NEEDS_SCOREBOARD, Table};
use super::{Block, SchedError, SchedStats};
use crate::isa::ctrl::{Ctrl, SCOREBOARDS};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::target::Sm;

/// All scoreboards.
const ALL: u8 = (1 << SCOREBOARDS) - 1;
/// Cycles left after a matrix instruction before the next one issues (no
/// table has them; the longest fixed latencies of the corpus are below).
const OPAQUE_SETTLE: i64 = 32;
/// A cycle before every other.
const NEVER: i64 = i64::MIN / 4;

/// What the pass knows of one register unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    /// The last fixed-latency write: issue cycle and latency row (in an
    /// exit state, relative to the block end).
    fixed: Option<(i64, u8)>,
    /// The cycle from which any reader may read (results from predecessors).
    ready: i64,
    /// Write scoreboards the result may be pending on.
    wsb: u8,
    /// Read scoreboards holding it.
    rsb: u8,
}

const FREE: Unit = Unit { fixed: None, ready: NEVER, wsb: 0, rsb: 0 };

/// The state at a point of the code; cycles are absolute within the block
/// being assigned. One dense state is reused for every block; the states
/// passed between blocks are sparse ([`Exit`]).
#[derive(Clone, Debug)]
struct State {
    units: Vec<Unit>,
    /// Units changed since the block started (with repeats): the only ones
    /// to reset and to scan for the exit state.
    touched: Vec<u16>,
    /// Per scoreboard: units that got its bit (some may have lost it since).
    lists: [Vec<u16>; SCOREBOARDS as usize],
    /// Per scoreboard: the queue of its last setter (0 none or unknown).
    queue: [u8; SCOREBOARDS as usize],
    /// Per scoreboard: when it was last set (for least-recently-set eviction).
    set_at: [i64; SCOREBOARDS as usize],
}

/// The state a block leaves to its successors, relative to the cycle they
/// may issue: the units with something pending. A unit that two
/// predecessors left with results of different classes gets the later
/// cycle from which any reader may read.
#[derive(Clone, Debug, Default)]
struct Exit {
    units: Vec<(u16, Unit)>,
    queue: [u8; SCOREBOARDS as usize],
    set_at: [i64; SCOREBOARDS as usize],
}

impl Exit {
    fn join(&mut self, other: &Exit, rows: &[u8]) {
        let mut merged: Vec<(u16, Unit)> = Vec::with_capacity(self.units.len() + other.units.len());
        let (mut a, mut b) = (std::mem::take(&mut self.units).into_iter().peekable(), other.units.iter().copied().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if x.0 == y.0 => {
                    let (u, mut p) = a.next().expect("peeked");
                    let (_, q) = b.next().expect("peeked");
                    p.ready = p.ready.max(q.ready);
                    p.fixed = match (p.fixed, q.fixed) {
                        (Some((t, r)), Some((t2, r2))) if r == r2 => Some((t.max(t2), r)),
                        (Some((t, r)), Some((t2, r2))) => {
                            // Two producer classes: from the later of the
                            // two cycles any reader may read.
                            p.ready = p.ready.max(t + i64::from(rows[usize::from(r)])).max(t2 + i64::from(rows[usize::from(r2)]));
                            None
                        }
                        (f, None) | (None, f) => f,
                    };
                    p.wsb |= q.wsb;
                    p.rsb |= q.rsb;
                    (u, p)
                }
                (Some(x), Some(y)) if x.0 < y.0 => a.next().expect("peeked"),
                (Some(_), Some(_)) | (None, Some(_)) => b.next().expect("peeked"),
                (Some(_), None) => a.next().expect("peeked"),
                (None, None) => break,
            };
            merged.push(next);
        }
        self.units = merged;
        for s in 0..usize::from(SCOREBOARDS) {
            if self.queue[s] != other.queue[s] {
                self.queue[s] = 0;
            }
            self.set_at[s] = self.set_at[s].max(other.set_at[s]);
        }
    }
}

impl State {
    fn new() -> State {
        State { units: vec![FREE; UNITS], touched: Vec::new(), lists: Default::default(), queue: [0; SCOREBOARDS as usize], set_at: [NEVER; SCOREBOARDS as usize] }
    }

    /// Back to `entry` (the previous block left its units in `lists` or
    /// with fixed results; everything is reset).
    fn load(&mut self, entry: &Exit) {
        for u in self.touched.drain(..) {
            self.units[usize::from(u)] = FREE;
        }
        for l in &mut self.lists {
            l.clear();
        }
        for &(u, unit) in &entry.units {
            self.units[usize::from(u)] = unit;
            self.touched.push(u);
            for s in 0..SCOREBOARDS {
                if (unit.wsb | unit.rsb) >> s & 1 == 1 {
                    self.lists[usize::from(s)].push(u);
                }
            }
        }
        self.queue = entry.queue;
        self.set_at = entry.set_at;
    }

    /// Scoreboards something waits on.
    fn busy(&mut self) -> u8 {
        let mut mask = 0;
        for s in 0..SCOREBOARDS {
            let bit = 1 << s;
            let units = &self.units;
            let list = &mut self.lists[usize::from(s)];
            if list.len() > 64 {
                list.retain(|&u| (units[usize::from(u)].wsb | units[usize::from(u)].rsb) & bit != 0);
            }
            if list.iter().any(|&u| (units[usize::from(u)].wsb | units[usize::from(u)].rsb) & bit != 0) {
                mask |= bit;
            }
        }
        mask
    }

    fn wait(&mut self, mask: u8) {
        for s in 0..SCOREBOARDS {
            if mask >> s & 1 == 1 {
                for u in self.lists[usize::from(s)].drain(..) {
                    let unit = &mut self.units[usize::from(u)];
                    unit.wsb &= !(1 << s);
                    unit.rsb &= !(1 << s);
                }
            }
        }
    }

    fn set_write(&mut self, u: u16, s: u8) {
        self.units[usize::from(u)].wsb = 1 << s;
        self.touched.push(u);
        self.lists[usize::from(s)].push(u);
    }

    fn hold_read(&mut self, u: u16, s: u8) {
        self.units[usize::from(u)].rsb |= 1 << s;
        self.touched.push(u);
        self.lists[usize::from(s)].push(u);
    }
}

/// Whether results of `class` need a write scoreboard on this SM.
pub(super) fn variable(table: &Table, class: Class) -> bool {
    match class {
        Class::Mem | Class::Async | Class::Texture | Class::Mma | Class::Ldc | Class::Sreg | Class::Shfl | Class::Misc | Class::Mufu | Class::Conv | Class::Bitop => true,
        // Double precision is fixed-latency where the table measured it
        // (sm_90), variable elsewhere.
        Class::Fp64 => File::ALL.iter().all(|&f| table.latency(f, class, Class::Alu) == NEEDS_SCOREBOARD),
        _ => false,
    }
}

/// The least stall of an instruction (ptxas's figures: module documentation).
fn min_stall(op: Op) -> u8 {
    match op {
        Op::BAR => 6,
        b if branch_like(b) => 5,
        _ => 1,
    }
}

/// Whether an instruction settles everything before the path goes on
/// somewhere scheduled apart: calls, returns and indirect branches always,
/// other branches of a block with a back edge.
fn drains(op: Op, back_edge: bool) -> bool {
    matches!(op.facts().control, Control::Call | Control::Return | Control::JumpTable) || back_edge && branch_like(op)
}

/// Whether an instruction may go on at a successor block other than the
/// next instruction.
fn leaves(op: Op) -> bool {
    matches!(op.facts().control, Control::Jump | Control::JumpTable)
}

/// The instruction at which control first leaves a block: its first branch
/// (a block may end `@P BRA X; BRA Y`), else its last instruction.
fn first_exit(insts: &[Inst]) -> Option<usize> {
    insts.iter().position(|i| leaves(i.op())).or(insts.len().checked_sub(1))
}

/// Sets the control fields of every block.
pub fn assign(blocks: &mut [Block], infos: &[Vec<HazardInfo>], sm: Sm, stats: &mut SchedStats) -> Result<(), SchedError> {
    let table = latency::table(sm);
    // A value live across a block boundary waits for every consumer class
    // but the texture unit's, which counts only in a function that fetches
    // (its measured reads, MOV -> TEX 7 cycles on sm_80, would lengthen
    // every block's end in code without textures). A fetch in a called
    // function reads its arguments after the call's own issue and the
    // branch into the callee, which cover the cycle or two TEX reads later
    // than a load.
    // The same for the tensor cores' late fragment reads (7 cycles after
    // an ALU result on sm_80), in a function with matrix instructions.
    let has = |class: Class| blocks.iter().flat_map(|b| &b.insts).any(|i| i.op().facts().class == class);
    let (fetches, multiplies) = (has(Class::Texture), has(Class::Mma));
    let rows: &[u8] = table.row_max(fetches, multiplies);
    let mut nop = crate::isa::op::Mnemonic::new(Op::NOP).build(sm, None, &[]).map_err(|e| SchedError { block: 0, inst: 0, message: format!("no NOP on {sm}: {e}") })?;
    nop.ctrl = Ctrl::NONE.with_stall(1);
    // Scoreboard 0 counts the asynchronous copies' groups wherever a
    // function closes one (LDGDEPBAR): no other instruction may use it.
    let reserved: u8 = if blocks.iter().any(|b| b.insts.iter().any(|i| i.op().facts().async_group == AsyncGroup::Commit)) { 1 } else { 0 };
    let mut entry: Vec<Option<Exit>> = vec![None; blocks.len()];
    let mut st = State::new();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for (b, block) in blocks.iter().enumerate() {
        for &s in &block.succs {
            // Once per predecessor, however many of its branches lead here
            // (its stall grows once).
            if !preds[s].contains(&b) {
                preds[s].push(b);
            }
        }
    }
    for b in 0..blocks.len() {
        let back_edge = blocks[b].succs.iter().any(|&s| s <= b);
        stats.drained_blocks += usize::from(back_edge);
        st.load(&entry[b].take().unwrap_or_default());
        let insts = std::mem::take(&mut blocks[b].insts);
        // The last stalls of the earlier predecessors (the later ones, back
        // edges, settle everything) may grow instead of a NOP starting
        // this block.
        let earlier = || preds[b].iter().copied().filter(|&p| p < b);
        // The stall that grows is that of the predecessor's first way out
        // ([`first_exit`]), which delays every later one too.
        let slack = if earlier().all(|p| !blocks[p].insts.is_empty()) {
            earlier().filter_map(|p| first_exit(&blocks[p].insts).map(|k| &blocks[p].insts[k])).map(|l| 15 - i64::from(l.ctrl.stall())).min().unwrap_or(0)
        } else {
            0
        };
        let mut borrowed = 0;
        // Which instruction of the block each one issued stands for (a
        // NOP: the instruction it waits before), to carry the positions.
        let mut origin: Vec<u32> = Vec::new();
        let (insts, exit) = assign_block(table, rows, &nop, insts, &infos[b], &mut st, back_edge, !blocks[b].succs.is_empty(), slack, &mut borrowed, reserved, stats, &mut origin);
        if !blocks[b].locs.is_empty() {
            let locs = std::mem::take(&mut blocks[b].locs);
            blocks[b].locs = origin.iter().map(|&k| locs.get(k as usize).copied().unwrap_or_default()).collect();
        }
        if borrowed > 0 {
            for p in preds[b].iter().copied().filter(|&p| p < b) {
                if let Some(exit) = first_exit(&blocks[p].insts).map(|k| &mut blocks[p].insts[k]) {
                    exit.ctrl = exit.ctrl.with_stall(exit.ctrl.stall() + borrowed as u8).with_yield(false);
                    stats.stall_cycles += borrowed as u64;
                }
            }
        }
        blocks[b].insts = insts;
        for &s in &blocks[b].succs.clone() {
            if s > b {
                match &mut entry[s] {
                    Some(e) => e.join(&exit, rows),
                    slot @ None => *slot = Some(exit.clone()),
                }
            }
        }
    }
    Ok(())
}

/// Assigns one block; returns its instructions (NOPs inserted) and the
/// state it leaves, relative to the cycle its successor may issue.
#[allow(clippy::too_many_arguments)]
///
/// `slack`: cycles the last stalls of all the block's earlier
/// predecessors may still grow by; the cycles taken from them
/// come back in `borrowed`. `reserved`: scoreboards no instruction may
/// take (scoreboard 0 where LDGDEPBAR counts on it).
fn assign_block(table: &Table, rows: &[u8], nop: &Inst, insts: Vec<Inst>, infos: &[HazardInfo], st: &mut State, back_edge: bool, has_succs: bool, slack: i64, borrowed: &mut i64, reserved: u8, stats: &mut SchedStats, origin: &mut Vec<u32>) -> (Vec<Inst>, Exit) {
    // Per instruction, whether a later instruction of the block overwrites
    // one of its general-register sources.
    let mut overwritten = vec![false; insts.len()];
    {
        // A bit per unit, on the stack (a zeroed heap buffer per block
        // cost more than the scan).
        let mut written_later = [0u64; UNITS.div_ceil(64)];
        let is_set = |set: &[u64], u: u16| set.get(usize::from(u) / 64).is_some_and(|w| w >> (u % 64) & 1 == 1);
        for k in (0..insts.len()).rev() {
            overwritten[k] = infos[k].reads().iter().any(|&r| r < UR_BASE && is_set(&written_later, r));
            for &w in infos[k].writes() {
                if let Some(word) = written_later.get_mut(usize::from(w) / 64) {
                    *word |= 1 << (w % 64);
                }
            }
        }
    }
    let mut out: Vec<Inst> = Vec::with_capacity(insts.len() + 2);
    // Issue cycle of the last emitted instruction, and the least cycle of the next.
    let mut last_issue: i64 = 0;
    let mut next_min: i64 = 0;
    let mut after_opaque = false;
    // Exit states of the branches before the last instruction.
    let mut early: Vec<Exit> = Vec::new();
    let count = insts.len();
    for (k, (mut inst, h)) in insts.into_iter().zip(infos.iter()).enumerate() {
        let op = inst.op();
        let class = h.class();
        let var = variable(table, class);
        let mut wait = 0u8;
        let mut at = next_min;
        // The guard is read as a guard (`Class::Guard`), the operands as the instruction's class.
        let guard = h.guard().map(|g| (g, Class::Guard, 0));
        for (r, reader, relief) in guard.into_iter().chain(h.reads_with_relief().map(|(r, relief)| (r, class, relief))) {
            let u = &st.units[usize::from(r)];
            wait |= u.wsb;
            at = at.max(u.ready);
            if let Some((t, row)) = u.fixed {
                let l = latency::relieved(table.rows()[usize::from(row)][reader as usize], relief);
                at = at.max(t + i64::from(l));
            }
        }
        for &w in h.writes() {
            let u = &st.units[usize::from(w)];
            wait |= u.wsb | u.rsb;
        }
        let is_opaque = opaque(op);
        if is_opaque || after_opaque || drains(op, back_edge) {
            wait |= st.busy();
        }
        if is_opaque || after_opaque {
            at = at.max(settled(st, rows));
        }
        if after_opaque {
            at = at.max(last_issue + OPAQUE_SETTLE);
        }
        if drains(op, back_edge) {
            // Its own stall (at most 15) must cover what is still in flight.
            at = at.max(settled(st, rows) - 15);
        }
        after_opaque = is_opaque;
        // Scoreboards: waited ones are free again.
        let busy = st.busy() & !wait;
        let group = op.facts().async_group;
        let needs_write = var && !h.writes().is_empty();
        // LDGSTS reads its registers at issue (ptxas gives it no scoreboard).
        let needs_read = var && group != AsyncGroup::Copy && h.reads().iter().any(|&r| r < UR_BASE) && (overwritten[k] || has_succs);
        let mut taken = busy | reserved;
        let pick = |taken: &mut u8, wait: &mut u8, st: &State, prefer: Option<u8>| -> u8 {
            let free = ALL & !*taken;
            let s = if free != 0 {
                free.trailing_zeros() as u8
            } else if let Some(p) = prefer {
                p
            } else {
                // Share with the latest scoreboard of the same unit, else
                // wait for the least recently set one.
                let usable = |s: &u8| reserved >> s & 1 == 0;
                let same = (0..SCOREBOARDS).filter(usable).filter(|&s| h.queue() != 0 && st.queue[usize::from(s)] == h.queue()).max_by_key(|&s| st.set_at[usize::from(s)]);
                same.unwrap_or_else(|| {
                    let s = (0..SCOREBOARDS).filter(usable).min_by_key(|&s| st.set_at[usize::from(s)]).unwrap_or(SCOREBOARDS - 1);
                    *wait |= 1 << s;
                    s
                })
            };
            *taken |= 1 << s;
            s
        };
        let write_sb = if group == AsyncGroup::Commit { Some(0) } else { needs_write.then(|| pick(&mut taken, &mut wait, st, None)) };
        let read_sb = needs_read.then(|| pick(&mut taken, &mut wait, st, write_sb));
        // A wait for an evicted scoreboard may cover what an earlier pick
        // thought busy; harmless (the pick stays valid).
        // Issue: pad with NOPs where one stall field is not enough (and at
        // the start of a block whose predecessor left results in flight).
        let tight = at > next_min;
        if out.is_empty() && at > 0 {
            if at <= slack {
                // The predecessors' last stalls grow instead.
                *borrowed = at;
            } else {
                out.push(Inst { ctrl: Ctrl::NONE.with_stall(1), ..nop.clone() });
                origin.push(k as u32);
                stats.nops += 1;
                last_issue = 0;
            }
        }
        if let Some(prev) = out.last_mut() {
            let mut gap = at - last_issue;
            let mut prev_tight = tight;
            let mut prev = prev;
            while gap > 15 {
                prev.ctrl = prev.ctrl.with_stall(15).with_yield(false);
                out.push(Inst { ctrl: Ctrl::NONE.with_stall(1), ..nop.clone() });
                origin.push(k as u32);
                stats.nops += 1;
                last_issue += 15;
                gap -= 15;
                prev_tight = true;
                prev = out.last_mut().expect("just pushed");
            }
            let stall = gap.max(1) as u8;
            prev.ctrl = prev.ctrl.with_stall(stall).with_yield(!prev_tight && (1..=11).contains(&stall));
        }
        let issue = at.max(if out.is_empty() { 0 } else { last_issue + 1 });
        st.wait(wait);
        if let Some(r) = read_sb {
            for &u in h.reads().iter().filter(|&&u| u < UR_BASE) {
                st.hold_read(u, r);
            }
            st.queue[usize::from(r)] = h.queue();
            st.set_at[usize::from(r)] = issue;
        }
        for (&w, &row) in h.writes().iter().zip(h.write_rows.iter()) {
            st.touched.push(w);
            let u = &mut st.units[usize::from(w)];
            // A guarded write may not happen: the value before it must
            // still be ready for the readers after it (a fixed-latency
            // MOV then a predicated-off LDG of the same register: the
            // load's scoreboard is no wait for the MOV's result).
            let before = if h.guard().is_some() { u.fixed.map_or(u.ready, |(t, r)| u.ready.max(t + i64::from(rows[usize::from(r)]))) } else { NEVER };
            u.ready = before;
            match write_sb {
                Some(s) => {
                    u.fixed = None;
                    st.set_write(w, s);
                }
                None => u.fixed = Some((issue, row)),
            }
        }
        if let Some(s) = write_sb {
            st.queue[usize::from(s)] = h.queue();
            st.set_at[usize::from(s)] = issue;
        }
        // Reuse flags: none (the operands' flags must agree with the field).
        for op in inst.operands.iter_mut() {
            if let Operand::Reg { reuse, .. } = op {
                *reuse = false;
            }
        }
        inst.ctrl = Ctrl::NONE.with_write_sb(write_sb).with_read_sb(read_sb).with_wait(wait);
        stats.waits += usize::from(wait != 0);
        out.push(inst);
        origin.push(k as u32);
        last_issue = issue;
        next_min = issue + i64::from(min_stall(op));
        if drains(op, back_edge) {
            // The path that leaves here finds everything settled (`at`
            // kept this within one stall field).
            next_min = next_min.max(settled(st, rows));
        }
        if leaves(op) && has_succs && k + 1 < count {
            // A branch before the block's last instruction (`@P BRA` then
            // `BRA`) leaves at its own stall, earlier than the block end:
            // its successor may issue from `next_min` on (the stall is at
            // least that).
            early.push(exit_state(st, rows, next_min));
        }
    }
    // The last instruction's stall: its own minimum, or, at a drain, until
    // everything fixed has landed.
    let mut end = next_min;
    if let Some(last) = out.last_mut() {
        if drains(last.op(), back_edge) || after_opaque {
            end = end.max(settled(st, rows)).min(last_issue + 15);
        }
        let stall = (end - last_issue).clamp(1, 15) as u8;
        last.ctrl = last.ctrl.with_stall(stall).with_yield((1..=11).contains(&stall));
        end = last_issue + i64::from(stall);
    }
    stats.instructions += out.len();
    stats.stall_cycles += out.iter().map(|i| u64::from(i.ctrl.stall())).sum::<u64>();
    // The successors' entry holds for every way out: the block end and
    // each earlier branch.
    let mut exit = exit_state(st, rows, end);
    for e in &early {
        exit.join(e, rows);
    }
    (out, exit)
}

/// The state a path leaving at cycle `end` takes along, relative to `end`:
/// fixed results become a cycle from which every reader may read.
fn exit_state(st: &mut State, rows: &[u8], end: i64) -> Exit {
    let mut exit = Exit { units: Vec::new(), queue: st.queue, set_at: st.set_at };
    st.touched.sort_unstable();
    st.touched.dedup();
    for &n in &st.touched {
        let mut u = st.units[usize::from(n)];
        // Fixed results still in flight keep their producer's row (readers
        // of other classes may need fewer cycles), relative to `end`.
        u.fixed = u.fixed.filter(|(t, row)| t + i64::from(rows[usize::from(*row)]) > end).map(|(t, row)| (t - end, row));
        u.ready = if u.ready <= end { NEVER } else { u.ready - end };
        if u != FREE {
            exit.units.push((n, u));
        }
    }
    for s in &mut exit.set_at {
        *s = if *s == NEVER { NEVER } else { *s - end };
    }
    exit
}

/// The cycle by which every fixed-latency result in flight is readable by
/// any consumer.
fn settled(st: &State, rows: &[u8]) -> i64 {
    st.touched.iter().map(|&n| &st.units[usize::from(n)]).map(|u| u.fixed.map_or(u.ready, |(t, row)| u.ready.max(t + i64::from(rows[usize::from(row)])))).max().unwrap_or(NEVER)
}

const _: () = assert!(CLASSES < 256);
