//! The static hazard checker: takes final linear code (branch targets
//! resolved as encoded), re-derives the control-flow graph from the
//! branches and, by a dataflow over it, every RAW/WAR/WAW dependence that
//! the control fields leave uncovered, with the latency tables.
//!
//! It applies the rules of the SASS interpreter's dynamic checker
//! ([`crate::interp::sass::hazard`], whose documentation states the
//! model) to every path at once: the state at a block entry is the join of
//! what every predecessor leaves, each pending obligation kept until it is
//! met on all paths. An obligation is one of
//! * a fixed-latency result: (latency row, issue cycle) — readable once
//!   the table's latency has passed;
//! * a result pending on write scoreboards — readable, and overwritable,
//!   once they are all waited for;
//! * a variable-latency result set without a scoreboard (an "orphan") —
//!   covered when a later instruction of its in-order queue sets a write
//!   scoreboard and that one is waited for;
//! * a general register held by a read scoreboard — overwritable once it is
//!   waited for, or once every holder's write scoreboard is.
//!
//! Only the scheduler's code and ptxas's code are judged here, so where
//! the dynamic checker follows one path and this one joins several, the
//! join is the conservative side (a hazard on any path is one). Cycles are
//! the least the stall counts give; a taken branch adds nothing.
//!
//! Control flow: BRA to its target (and on when guarded), EXIT ends a
//! path, CALL goes to its callee, RET to the instruction after every CALL
//! of its function (the nearest callee entry before it), BRX/JMX (jump
//! tables, whose targets are data) to every later block of its function
//! that control cannot fall into and that is not inside a convergence
//! region (BSSY…) opened after the BRX — where ptxas lays out the cases —,
//! JMP to every block. Device functions inside the code are reached through their CALLs.

use super::info::{EARLY_KINDS, HazardInfo, P_BASE, UNITS, UR_BASE, unit_name};
use super::latency::{self, Class, File, NEEDS_SCOREBOARD, Table};
use crate::isa::ctrl::SCOREBOARDS;
use crate::isa::inst::Inst;
use crate::isa::op::Op;
use crate::isa::op_facts::Control;
use crate::isa::operand::{Operand, RegNum};
use crate::target::Sm;
use smallvec::SmallVec;
use std::fmt;

/// The kind of an uncovered dependence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    /// A read of a result not yet written.
    Raw,
    /// An overwrite of a register an earlier instruction may not have read yet.
    War,
    /// An overwrite of a register whose earlier result is still pending.
    Waw,
}

/// One uncovered dependence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    /// Index of the instruction that reads or overwrites too early.
    pub consumer: usize,
    /// Index of the instruction it depends on (on some path).
    pub producer: Option<usize>,
    /// The register (`R4`, `UR6`, `P0`, `UP1`).
    pub register: String,
    /// The kind.
    pub kind: HazardKind,
    /// Why, in words.
    pub why: String,
}

impl fmt::Display for Hazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            HazardKind::Raw => "RAW",
            HazardKind::War => "WAR",
            HazardKind::Waw => "WAW",
        };
        write!(f, "/*{:04x}*/ {kind} on {}", self.consumer * 16, self.register)?;
        if let Some(p) = self.producer {
            write!(f, " (after /*{:04x}*/)", p * 16)?;
        }
        write!(f, ": {}", self.why)
    }
}

/// Bit of `holders` for a read held by an instruction with no write scoreboard.
const NO_WRITE_SB: u8 = 1 << 6;
const NONE: u32 = u32::MAX;

/// Obligations of one register unit.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Obl {
    /// Fixed-latency results in flight: (latency row, issue cycle, producer).
    fixed: SmallVec<[(u8, i64, u32); 1]>,
    /// Write scoreboards the result is pending on.
    wsb: u8,
    /// Queues with an unattached orphan result (bit per queue).
    orph_q: u32,
    /// Scoreboards an attached orphan waits on.
    orph_att: u8,
    /// The producer of the pending (scoreboarded or orphan) result.
    by_w: u32,
    /// The in-order queue of the producers whose results are pending on
    /// `wsb` (0: none, or several queues).
    wq: u8,
    /// The guard under which every pending result (fixed, scoreboarded or
    /// orphan) was produced ([`guard_key`]; [`NO_GUARD`] for
    /// unconditional or mixed).
    wg: u16,
    /// The guard under which every holder of the read scoreboards read
    /// the unit.
    rg: u16,
    /// Read scoreboards holding the unit.
    rsb: u8,
    /// Per held read scoreboard: the write scoreboards of its holders.
    holders: [u8; SCOREBOARDS as usize],
    /// The last holder.
    by_r: u32,
    /// Per entry of [`super::info::EARLY_OVERWRITES`]: the read scoreboards
    /// whose every holder holds the unit as the entry's `held_as` (bit `s`;
    /// meaningful where `rsb` has it).
    early: [u8; EARLY_KINDS],
}

impl Obl {
    fn is_empty(&self) -> bool {
        !self.writing() && self.rsb == 0
    }

    /// Whether a result is pending (or was, for fixed latencies: an
    /// expired one stays until the block end).
    fn writing(&self) -> bool {
        !self.fixed.is_empty() || self.wsb != 0 || self.orph_q != 0 || self.orph_att != 0
    }

    fn join(&mut self, o: &Obl) {
        match (self.writing(), o.writing()) {
            (false, true) => self.wg = o.wg,
            (true, true) if self.wg != o.wg => self.wg = NO_GUARD,
            _ => {}
        }
        match (self.wsb != 0, o.wsb != 0) {
            (false, true) => self.wq = o.wq,
            (true, true) if self.wq != o.wq => self.wq = 0,
            _ => {}
        }
        match (self.rsb != 0, o.rsb != 0) {
            (false, true) => self.rg = o.rg,
            (true, true) if self.rg != o.rg => self.rg = NO_GUARD,
            _ => {}
        }
        for &(row, t, by) in &o.fixed {
            match self.fixed.iter_mut().find(|f| f.0 == row) {
                Some(f) if f.1 < t => *f = (row, t, by),
                Some(_) => {}
                None => self.fixed.push((row, t, by)),
            }
        }
        if self.by_w == NONE {
            self.by_w = o.by_w;
        }
        self.wsb |= o.wsb;
        self.orph_q |= o.orph_q;
        self.orph_att |= o.orph_att;
        for s in 0..usize::from(SCOREBOARDS) {
            match (self.rsb >> s & 1, o.rsb >> s & 1) {
                (1, 1) => self.holders[s] |= o.holders[s],
                (0, 1) => self.holders[s] = o.holders[s],
                _ => {}
            }
        }
        HazardInfo::join_early(&mut self.early, self.rsb, o.rsb, &o.early);
        if self.by_r == NONE || self.rsb == 0 {
            self.by_r = o.by_r;
        }
        self.rsb |= o.rsb;
    }
}

fn fresh() -> Obl {
    Obl { by_w: NONE, by_r: NONE, wg: NO_GUARD, rg: NO_GUARD, ..Obl::default() }
}

/// An instruction's guard as a key: the predicate's unit times two, plus
/// one when negated; [`NO_GUARD`] when unconditional.
fn guard_key(inst: &Inst, h: &HazardInfo) -> u16 {
    match h.guard() {
        Some(p) => p << 1 | u16::from(inst.guard.1),
        None => NO_GUARD,
    }
}

const NO_GUARD: u16 = u16::MAX;

/// Whether two guards never hold in the same lane: one predicate, opposite
/// senses (and not redefined in between: a predicate's redefinition turns
/// the guards on it into [`NO_GUARD`]).
fn complementary(a: u16, b: u16) -> bool {
    a != NO_GUARD && b != NO_GUARD && a ^ b == 1
}

/// The bit of a predicate unit in a mask of predicates that guard pending
/// obligations (P0–P6 and UP0–UP6: 16 units from [`P_BASE`]).
fn guard_bit(key: u16) -> u16 {
    if key == NO_GUARD { 0 } else { 1 << ((key >> 1) - P_BASE).min(15) }
}

/// A state at a block boundary: the units with obligations (cycles
/// relative to the boundary), and per read scoreboard the queues of its
/// last setters.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Edge {
    units: Vec<(u16, Obl)>,
    read_queue: [u32; SCOREBOARDS as usize],
}

impl Edge {
    fn join(&mut self, o: &Edge) {
        let mut merged: Vec<(u16, Obl)> = Vec::with_capacity(self.units.len() + o.units.len());
        let (mut a, mut b) = (std::mem::take(&mut self.units).into_iter().peekable(), o.units.iter().peekable());
        loop {
            match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if x.0 == y.0 => {
                    let (u, mut ob) = a.next().expect("peeked");
                    ob.join(&b.next().expect("peeked").1);
                    merged.push((u, ob));
                }
                (Some(x), Some(y)) if x.0 < y.0 => merged.push(a.next().expect("peeked")),
                (Some(_), Some(_)) | (None, Some(_)) => merged.push(b.next().expect("peeked").clone()),
                (Some(_), None) => merged.push(a.next().expect("peeked")),
                (None, None) => break,
            }
        }
        self.units = merged;
        for (m, t) in self.read_queue.iter_mut().zip(o.read_queue) {
            *m |= t;
        }
    }
}

/// Whether an instruction ends a block.
fn ends_block(op: Op) -> bool {
    op.facts().control.leaves() || op.facts().control == Control::Call
}

/// The in-code target of an instruction's target operand, as an index.
pub(crate) fn target_of(inst: &Inst, index: usize, len: usize) -> Option<usize> {
    inst.operands.iter().find_map(|op| match op {
        Operand::Target(off) => usize::try_from((index as i64 + 1) * 16 + off).ok().filter(|a| a % 16 == 0).map(|a| a / 16).filter(|&t| t < len),
        _ => None,
    })
}

fn unconditional(inst: &Inst) -> bool {
    inst.guard.0.num == RegNum::Zero && !inst.guard.1
}

fn never(inst: &Inst) -> bool {
    inst.guard.0.num == RegNum::Zero && inst.guard.1
}

/// The blocks (index ranges, in order) and their successors.
pub(crate) fn cfg(code: &[Inst]) -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let n = code.len();
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    // (callee entry, return site) of every CALL with a target in the code.
    let mut calls: Vec<(Option<usize>, usize)> = Vec::new();
    for (k, inst) in code.iter().enumerate() {
        let op = inst.op();
        if ends_block(op) {
            leader[k + 1] = true;
        }
        let control = op.facts().control;
        if control == Control::Call {
            calls.push((target_of(inst, k, n), k + 1));
        }
        // A jump's or call's target starts a block, and so does a BSSY's:
        // the warp reconverges there.
        if let Some(t) = target_of(inst, k, n).filter(|_| matches!(control, Control::Jump | Control::Call) || op == Op::BSSY) {
            leader[t] = true;
        }
    }
    let mut blocks = Vec::new();
    let mut start = 0;
    for (k, &lead) in leader.iter().enumerate().skip(1) {
        if lead || k == n {
            blocks.push((start, k));
            start = k;
        }
    }
    let mut index = vec![None; n + 1];
    for (b, r) in blocks.iter().enumerate() {
        index[r.0] = Some(b);
    }
    let block_of = |at: usize| index.get(at).copied().flatten();
    let mut succs = vec![Vec::new(); blocks.len()];
    for (b, &(_, end)) in blocks.iter().enumerate() {
        let last = &code[end - 1];
        let k = end - 1;
        let next = (end < n).then_some(b + 1);
        let s = &mut succs[b];
        match last.op().facts().control {
            Control::Jump => {
                // (A branch out of the code has nothing to follow.)
                if let Some(t) = target_of(last, k, n).and_then(block_of).filter(|_| !never(last)) {
                    s.push(t);
                }
                if !unconditional(last) {
                    s.extend(next);
                }
            }
            Control::Exit => {
                if !unconditional(last) {
                    s.extend(next);
                }
            }
            Control::Return => {
                // Back to the callers of the function the RET is in: the
                // one whose entry (a CALL target) is the nearest before it;
                // every return site when no entry is.
                let entry = calls.iter().filter_map(|c| c.0).filter(|&e| e <= k).max();
                s.extend(calls.iter().filter(|c| entry.is_none() || c.0 == entry || c.0.is_none()).filter_map(|c| block_of(c.1)));
                if !unconditional(last) {
                    s.extend(next);
                }
            }
            Control::Call => match target_of(last, k, n).and_then(block_of) {
                Some(t) => s.push(t),
                None => s.extend(next),
            },
            // Jump tables (the targets are data in a constant bank): every
            // later block that control cannot fall into, where ptxas puts
            // the cases (each after the previous case's branch out).
            Control::JumpTable => s.extend((b + 1..blocks.len()).filter(|&t| {
                let next_function = calls.iter().filter_map(|c| c.0).filter(|&e| e > k).min().unwrap_or(n);
                let before = &code[blocks[t].0 - 1];
                // Not into a convergence region opened after the BRX.
                let inside = (k + 1..blocks[t].0).any(|j| code[j].op() == Op::BSSY && target_of(&code[j], j, n).is_some_and(|r| r > blocks[t].0));
                blocks[t].0 < next_function && !inside &&
                    before.op().facts().control.leaves()
                    && unconditional(before)
            })),
            _ => s.extend(next),
        }
        s.sort_unstable();
        s.dedup();
    }
    (blocks, succs)
}

/// The dense state of the block being run, reused across blocks: only
/// the units touched since the block began are reset.
struct Scratch {
    units: Vec<Obl>,
    touched: Vec<u16>,
}

/// The per-instruction facts the checker uses.
struct Facts<'a> {
    table: &'static Table,
    code: &'a [Inst],
    infos: Vec<HazardInfo>,
    /// Per latency row: the largest latency to any consumer (0 for none).
    row_max: Vec<i64>,
    /// Per class: whether it has no fixed latency on the SM.
    variable: [bool; latency::CLASSES],
}

/// Checks final linear code against the scheduler's latencies
/// ([`latency::table`]); every uncovered dependence is a [`Hazard`].
pub fn check(code: &[Inst], sm: Sm) -> Result<(), Vec<Hazard>> {
    check_against(code, sm, latency::table(sm))
}

/// [`check`] with another latency table: [`latency::checking_table`]
/// judges ptxas's code by the least distances ptxas was seen to leave, as
/// the SASS interpreter's checker does.
pub fn check_against(code: &[Inst], sm: Sm, table: &'static Table) -> Result<(), Vec<Hazard>> {
    // Per row of the table (IMAD.WIDE's low half's included), the
    // largest latency to any consumer.
    let mut row_max = vec![0i64; 256];
    for (m, row) in row_max.iter_mut().zip(table.rows().iter()) {
        *m = i64::from(Class::ALL.iter().map(|&c| row[c as usize]).filter(|&l| l != NEEDS_SCOREBOARD).max().unwrap_or(0));
    }
    let mut variable = [false; latency::CLASSES];
    for c in Class::ALL {
        variable[c as usize] = File::ALL.iter().all(|&f| table.latency(f, c, Class::Alu) == NEEDS_SCOREBOARD);
    }
    let facts = Facts { table, code, infos: code.iter().map(|i| HazardInfo::of(i, sm)).collect(), row_max, variable };
    let mut scratch = Scratch { units: vec![fresh(); UNITS], touched: Vec::new() };
    let (blocks, succs) = cfg(code);
    let mut entry: Vec<Option<Edge>> = vec![None; blocks.len()];
    let mut has_pred = vec![false; blocks.len()];
    for s in succs.iter().flatten() {
        has_pred[*s] = true;
    }
    for (b, e) in entry.iter_mut().enumerate() {
        if b == 0 || !has_pred[b] {
            *e = Some(Edge::default());
        }
    }
    // Iterate to a fixpoint: entries only grow (joins), over a finite lattice.
    let mut work: Vec<usize> = (0..blocks.len()).rev().collect();
    let mut queued = vec![true; blocks.len()];
    let mut rounds = 0usize;
    while let Some(b) = work.pop() {
        queued[b] = false;
        rounds += 1;
        if rounds > 64 * blocks.len() + 64 {
            break;
        }
        let Some(state) = entry[b].clone() else { continue };
        let exit = run_block(&facts, &mut scratch, blocks[b], state, &mut None);
        for &s in &succs[b] {
            let changed = match &mut entry[s] {
                Some(e) => {
                    let before = e.clone();
                    e.join(&exit);
                    *e != before
                }
                slot @ None => {
                    *slot = Some(exit.clone());
                    true
                }
            };
            if changed && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    let mut hazards = Vec::new();
    for (b, &range) in blocks.iter().enumerate() {
        if let Some(state) = entry[b].clone() {
            run_block(&facts, &mut scratch, range, state, &mut Some(&mut hazards));
        }
    }
    if hazards.is_empty() { Ok(()) } else { Err(hazards) }
}

/// Runs one block from its entry state; returns the exit state and, when
/// asked, records the hazards found.
fn run_block(f: &Facts, scratch: &mut Scratch, (start, end): (usize, usize), entry: Edge, hazards: &mut Option<&mut Vec<Hazard>>) -> Edge {
    let Scratch { units, touched } = scratch;
    for u in touched.drain(..) {
        units[usize::from(u)] = fresh();
    }
    // The predicates that guard some obligation (their redefinition
    // unguards those).
    let mut guarded: u16 = 0;
    for (u, o) in entry.units {
        guarded |= guard_bit(o.wg) | guard_bit(o.rg);
        units[usize::from(u)] = o;
        touched.push(u);
    }
    let mut read_queue = entry.read_queue;
    let mut cycle: i64 = 0;
    let rows = f.table.rows();
    for k in start..end {
        let inst = &f.code[k];
        let h = &f.infos[k];
        let ctrl = inst.ctrl;
        let class = h.class();
        let g = guard_key(inst, h);
        // Waits.
        let mask = ctrl.wait() & ((1 << SCOREBOARDS) - 1);
        if mask != 0 {
            if touched.len() > 256 {
                touched.sort_unstable();
                touched.dedup();
            }
            for u in touched.iter().map(|&n| usize::from(n)) {
                let u = &mut units[u];
                u.wsb &= !mask;
                u.orph_att &= !mask;
                for s in 0..usize::from(SCOREBOARDS) {
                    if u.rsb >> s & 1 == 0 {
                        continue;
                    }
                    if mask >> s & 1 == 1 {
                        u.rsb &= !(1 << s);
                        u.holders[s] = 0;
                    } else {
                        u.holders[s] &= !mask;
                        if u.holders[s] == 0 {
                            u.rsb &= !(1 << s);
                        }
                    }
                }
            }
        }
        let write_sb = ctrl.write_sb().filter(|s| *s < SCOREBOARDS);
        if let Some(out) = hazards.as_deref_mut() {
            let mut report = |unit: u16, kind: HazardKind, producer: u32, why: String| {
                if !out.iter().any(|x| x.consumer == k && x.register == unit_name(unit)) {
                    out.push(Hazard { consumer: k, producer: (producer != NONE).then_some(producer as usize), register: unit_name(unit), kind, why });
                }
            };
            // (The guard is read in every lane; an operand only in the
            // lanes the guard selects, none of which a result produced
            // under the complementary guard was written in.)
            let guard_read = h.guard().map(|p| (p, NO_GUARD, Class::Guard, 0));
            for (r, g, reader, relief) in guard_read.into_iter().chain(h.reads_with_relief().map(|(r, relief)| (r, g, class, relief))) {
                let u = &units[usize::from(r)];
                if complementary(u.wg, g) {
                    continue;
                }
                if u.wsb != 0 {
                    report(r, HazardKind::Raw, u.by_w, format!("read while its result is pending on scoreboard(s) {:#b} not waited for", u.wsb));
                }
                if u.orph_q != 0 || u.orph_att != 0 {
                    report(r, HazardKind::Raw, u.by_w, "read while a variable-latency result set without a scoreboard is not covered by a wait on a later one of its unit".into());
                }
                for &(row, t, by) in &u.fixed {
                    let need = latency::relieved(rows[usize::from(row)][reader as usize], relief);
                    if need != NEEDS_SCOREBOARD && cycle - t < i64::from(need) {
                        report(r, HazardKind::Raw, by, format!("read {} cycles after its producer issued (needs {need})", cycle - t));
                    }
                }
            }
            for &w in h.writes() {
                let u = &units[usize::from(w)];
                // Results of one in-order queue land in issue order: a
                // later instruction of the pending producers' queue that
                // sets a write scoreboard (or any, in the shared-memory
                // queue) overwrites last (`LDS.128 R8` on W0, then `LDS
                // R10` on W1 with no wait; on sm_75 `LDS.U.128 R40` on W2,
                // then `LDS.U R43` with none; the SASS interpreter's rule
                // too).
                let in_order = h.writes_after_its_queue_reads(write_sb) && u.wq == h.queue();
                if u.wsb != 0 && !in_order && !complementary(u.wg, g) {
                    report(w, HazardKind::Waw, u.by_w, format!("overwritten while its result is pending on scoreboard(s) {:#b} not waited for", u.wsb));
                }
                // (See `EARLY_OVERWRITES`.)
                let early = h.overwrites_early(write_sb, u.rsb, &u.early);
                if u.rsb != 0 && !read_before(h, write_sb, u.rsb, &read_queue) && !early && !complementary(u.rg, g) {
                    report(w, HazardKind::War, u.by_r, format!("overwritten while held by read scoreboard(s) {:#b} not waited for", u.rsb));
                }
            }
        }
        if let Some(s) = ctrl.read_sb().filter(|s| *s < SCOREBOARDS) {
            let bit = match write_sb {
                Some(w) if w != s => 1 << w,
                _ => NO_WRITE_SB,
            };
            for (i, &r) in h.reads().iter().enumerate().filter(|&(_, &r)| r < UR_BASE) {
                let u = &mut units[usize::from(r)];
                let newly = u.rsb >> s & 1 == 0;
                u.rg = if u.rsb == 0 || u.rg == g { g } else { NO_GUARD };
                guarded |= guard_bit(u.rg);
                h.hold_early(i, s, newly, &mut u.early);
                if newly {
                    u.rsb |= 1 << s;
                    u.holders[usize::from(s)] = 0;
                }
                touched.push(r);
                u.holders[usize::from(s)] |= bit;
                u.by_r = k as u32;
            }
            read_queue[usize::from(s)] = queue_bit(h.queue());
        }
        match write_sb {
            Some(s) => {
                if h.queue() != 0 {
                    let q = queue_bit(h.queue());
                    for u in touched.iter().map(|&n| usize::from(n)) {
                        let u = &mut units[u];
                        if u.orph_q & q != 0 {
                            u.orph_q &= !q;
                            u.orph_att |= 1 << s;
                        }
                    }
                }
                for &w in h.writes() {
                    touched.push(w);
                    let u = &mut units[usize::from(w)];
                    if u.writing() && complementary(u.wg, g) {
                        // Lanes apart: both results are pending, each
                        // in its own lanes.
                        u.wq = if u.wsb == 0 || u.wq == h.queue() { h.queue() } else { 0 };
                        u.wsb |= 1 << s;
                        u.wg = NO_GUARD;
                    } else {
                        u.wsb = 1 << s;
                        u.wq = h.queue();
                        u.wg = g;
                        u.fixed.clear();
                        u.orph_q = 0;
                        u.orph_att = 0;
                    }
                    guarded |= guard_bit(u.wg);
                    u.by_w = k as u32;
                }
            }
            None => {
                // A variable-latency instruction with a read scoreboard and
                // no write scoreboard has its predicate results once its
                // sources are read: they are pending on the read scoreboard
                // (sm_90+'s `ATOM.E.ADD.F16x2 P0, …` then `@P0 EXIT` after a
                // wait on it; the SASS interpreter's rule too).
                let pred_sb = ctrl.read_sb().filter(|s| *s < SCOREBOARDS && h.queue() != 0 && f.variable[h.producer_class() as usize]);
                for (&w, &row) in h.writes().iter().zip(h.write_rows.iter()) {
                    touched.push(w);
                    let u = &mut units[usize::from(w)];
                    // Lanes apart (see above): the earlier results stay.
                    let apart = u.writing() && complementary(u.wg, g);
                    let kept_wsb = !apart && u.wsb != 0 && !(pred_sb.is_some() && w >= P_BASE);
                    if !apart {
                        u.fixed.clear();
                        u.orph_att = 0;
                    }
                    if let Some(s) = pred_sb.filter(|_| w >= P_BASE) {
                        u.wq = 0;
                        if apart {
                            u.wsb |= 1 << s;
                        } else {
                            u.wsb = 1 << s;
                            u.orph_q = 0;
                        }
                    } else if f.variable[h.producer_class() as usize] {
                        u.orph_q = if apart { u.orph_q | queue_bit(h.queue()) } else { queue_bit(h.queue()) };
                    } else {
                        if !apart {
                            u.orph_q = 0;
                        }
                        u.fixed.push((row, cycle, k as u32));
                    }
                    // A pending scoreboarded result an unscoreboarded
                    // write leaves (a hazard reported) keeps its guard.
                    u.wg = if apart || (kept_wsb && u.wg != g) { NO_GUARD } else { g };
                    guarded |= guard_bit(u.wg);
                    u.by_w = k as u32;
                }
            }
        }
        // A redefined predicate no longer tells which lanes the
        // obligations produced under it are in.
        let redefined = h.writes().iter().filter(|&&w| w >= P_BASE).fold(0u16, |m, &w| m | guard_bit(w << 1));
        if guarded & redefined != 0 {
            for u in touched.iter().map(|&n| usize::from(n)) {
                let u = &mut units[u];
                if guard_bit(u.wg) & redefined != 0 {
                    u.wg = NO_GUARD;
                }
                if guard_bit(u.rg) & redefined != 0 {
                    u.rg = NO_GUARD;
                }
            }
            guarded &= !redefined;
        }
        cycle += i64::from(ctrl.stall());
    }
    // Relative to the block end; results already readable by anyone dropped.
    let mut out = Edge { units: Vec::new(), read_queue };
    touched.sort_unstable();
    touched.dedup();
    for &n in touched.iter() {
        let mut u = units[usize::from(n)].clone();
        u.fixed.retain(|(row, t, _)| {
            *t -= cycle;
            *t + f.row_max[usize::from(*row)] > 0
        });
        if !u.is_empty() {
            out.units.push((n, u));
        }
    }
    out
}

/// The bit of a queue (queue 0, no unit, has bit 0: such an orphan is
/// never covered).
fn queue_bit(q: u8) -> u32 {
    1u32 << q.min(31)
}

/// Whether every instruction holding a unit for reading reads it before a
/// scoreboarded write of the same in-order queue lands (the dynamic
/// checker's rule, with the queues of all paths).
fn read_before(h: &HazardInfo, write_sb: Option<u8>, rsb: u8, read_queue: &[u32; SCOREBOARDS as usize]) -> bool {
    h.writes_after_its_queue_reads(write_sb) && (0..usize::from(SCOREBOARDS)).all(|s| rsb >> s & 1 == 0 || read_queue[s] == queue_bit(h.queue()))
}
