//! Control fields: a forward pass over each block in its final order,
//! with the state its earlier predecessors leave (module documentation of
//! [`super`]). The state says, per register unit, which scoreboards its
//! pending result or held read waits on and from which cycle a reader may
//! read it; per scoreboard, the unit of the instruction that set it last.

use super::info::{HazardInfo, UNITS, UR_BASE, base_name, branch_like, opaque};
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
    /// The last fixed-latency write in this block: issue cycle and latency row.
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
/// being assigned, relative to the block start in entry states.
#[derive(Clone, Debug)]
struct State {
    units: Vec<Unit>,
    /// Per scoreboard: the queue of its last setter (0 none or unknown).
    queue: [u8; SCOREBOARDS as usize],
    /// Per scoreboard: when it was last set (for least-recently-set eviction).
    set_at: [i64; SCOREBOARDS as usize],
}

impl State {
    fn empty() -> State {
        State { units: vec![FREE; UNITS], queue: [0; SCOREBOARDS as usize], set_at: [NEVER; SCOREBOARDS as usize] }
    }

    /// Scoreboards something waits on.
    fn busy(&self) -> u8 {
        self.units.iter().fold(0, |m, u| m | u.wsb | u.rsb)
    }

    fn wait(&mut self, mask: u8) {
        if mask == 0 {
            return;
        }
        for u in &mut self.units {
            u.wsb &= !mask;
            u.rsb &= !mask;
        }
    }

    /// Joins another entry state into this one.
    fn join(&mut self, other: &State) {
        for (a, b) in self.units.iter_mut().zip(&other.units) {
            a.ready = a.ready.max(b.ready);
            a.wsb |= b.wsb;
            a.rsb |= b.rsb;
        }
        for s in 0..usize::from(SCOREBOARDS) {
            if self.queue[s] != other.queue[s] {
                self.queue[s] = 0;
            }
            self.set_at[s] = self.set_at[s].max(other.set_at[s]);
        }
    }
}

/// Per table row (file × producer class), the largest latency to any consumer.
fn row_max(table: &Table) -> Vec<u8> {
    let mut out = vec![0u8; usize::from(u8::MAX) + 1];
    for f in File::ALL {
        for p in Class::ALL {
            let m = Class::ALL.iter().map(|&c| table.latency(f, p, c)).filter(|&l| l != NEEDS_SCOREBOARD).max().unwrap_or(0);
            out[usize::from(Table::row_index(f, p))] = m;
        }
    }
    out
}

/// Whether results of `class` need a write scoreboard on this SM.
pub(super) fn variable(table: &Table, class: Class) -> bool {
    match class {
        Class::Mem | Class::Ldc | Class::Sreg | Class::Shfl | Class::Misc | Class::Mufu | Class::Conv | Class::Bitop => true,
        // Double precision is fixed-latency where the table measured it
        // (sm_90), variable elsewhere.
        Class::Fp64 => File::ALL.iter().all(|&f| table.latency(f, class, Class::Alu) == NEEDS_SCOREBOARD),
        _ => false,
    }
}

/// The least stall of an instruction (ptxas's figures: module documentation).
fn min_stall(base: &str) -> u8 {
    match base {
        "BAR" => 6,
        b if branch_like(b) => 5,
        _ => 1,
    }
}

/// Whether an instruction settles everything before the path goes on
/// somewhere scheduled apart: calls, returns and indirect branches always,
/// other branches of a block with a back edge.
fn drains(base: &str, back_edge: bool) -> bool {
    matches!(base, "CALL" | "RET" | "BRX" | "JMP" | "JMX") || back_edge && branch_like(base)
}

/// Sets the control fields of every block.
pub fn assign(blocks: &mut [Block], sm: Sm, stats: &mut SchedStats) -> Result<(), SchedError> {
    let table = latency::table(sm);
    let rows = row_max(table);
    let nop = crate::isa::parse::parse_inst("NOP ;", sm, 0, Ctrl { stall: 1, ..Ctrl::default() }).map_err(|e| SchedError { block: 0, inst: 0, message: format!("no NOP on {sm}: {}", e.0) })?;
    let mut entry: Vec<Option<State>> = vec![None; blocks.len()];
    for b in 0..blocks.len() {
        let back_edge = blocks[b].succs.iter().any(|&s| s <= b);
        stats.drained_blocks += usize::from(back_edge);
        let state = entry[b].take().unwrap_or_else(State::empty);
        let insts = std::mem::take(&mut blocks[b].insts);
        let (insts, exit) = assign_block(table, &rows, sm, &nop, insts, state, back_edge, !blocks[b].succs.is_empty(), stats);
        blocks[b].insts = insts;
        for &s in &blocks[b].succs.clone() {
            if s > b {
                match &mut entry[s] {
                    Some(e) => e.join(&exit),
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
fn assign_block(table: &Table, rows: &[u8], sm: Sm, nop: &Inst, insts: Vec<Inst>, mut st: State, back_edge: bool, has_succs: bool, stats: &mut SchedStats) -> (Vec<Inst>, State) {
    let infos: Vec<HazardInfo> = insts.iter().map(|i| HazardInfo::of(i, sm)).collect();
    // Per instruction, whether a later instruction of the block overwrites
    // one of its general-register sources.
    let mut overwritten = vec![false; insts.len()];
    {
        let mut written_later = vec![false; UNITS];
        for k in (0..insts.len()).rev() {
            overwritten[k] = infos[k].reads().iter().any(|&r| r < UR_BASE && written_later[usize::from(r)]);
            for &w in infos[k].writes() {
                written_later[usize::from(w)] = true;
            }
        }
    }
    let mut out: Vec<Inst> = Vec::with_capacity(insts.len() + 2);
    // Issue cycle of the last emitted instruction, and the least cycle of the next.
    let mut last_issue: i64 = 0;
    let mut next_min: i64 = 0;
    let mut after_opaque = false;
    for (k, (mut inst, h)) in insts.into_iter().zip(infos.iter()).enumerate() {
        let base = base_name(&inst);
        let class = h.class();
        let var = variable(table, class);
        let mut wait = 0u8;
        let mut at = next_min;
        for r in h.guard().into_iter().chain(h.reads().iter().copied()) {
            let u = &st.units[usize::from(r)];
            wait |= u.wsb;
            at = at.max(u.ready);
            if let Some((t, row)) = u.fixed {
                let l = table.rows()[usize::from(row)][class as usize];
                at = at.max(t + i64::from(l));
            }
        }
        for &w in h.writes() {
            let u = &st.units[usize::from(w)];
            wait |= u.wsb | u.rsb;
        }
        let is_opaque = opaque(base);
        if is_opaque || after_opaque || drains(base, back_edge) {
            wait |= st.busy();
        }
        if is_opaque || after_opaque {
            at = at.max(settled(&st, rows));
        }
        if after_opaque {
            at = at.max(last_issue + OPAQUE_SETTLE);
        }
        if drains(base, back_edge) {
            // Its own stall (at most 15) must cover what is still in flight.
            at = at.max(settled(&st, rows) - 15);
        }
        after_opaque = is_opaque;
        // Scoreboards: waited ones are free again.
        let busy = st.busy() & !wait;
        let needs_write = var && !h.writes().is_empty();
        let needs_read = var && h.reads().iter().any(|&r| r < UR_BASE) && (overwritten[k] || has_succs);
        let mut taken = busy;
        let pick = |taken: &mut u8, wait: &mut u8, st: &State, prefer: Option<u8>| -> u8 {
            let free = ALL & !*taken;
            let s = if free != 0 {
                free.trailing_zeros() as u8
            } else if let Some(p) = prefer {
                p
            } else {
                // Share with the latest scoreboard of the same unit, else
                // wait for the least recently set one.
                let same = (0..SCOREBOARDS).filter(|&s| h.queue() != 0 && st.queue[usize::from(s)] == h.queue()).max_by_key(|&s| st.set_at[usize::from(s)]);
                same.unwrap_or_else(|| {
                    let s = (0..SCOREBOARDS).min_by_key(|&s| st.set_at[usize::from(s)]).unwrap_or(0);
                    *wait |= 1 << s;
                    s
                })
            };
            *taken |= 1 << s;
            s
        };
        let write_sb = needs_write.then(|| pick(&mut taken, &mut wait, &st, None));
        let read_sb = needs_read.then(|| pick(&mut taken, &mut wait, &st, write_sb));
        // A wait for an evicted scoreboard may cover what an earlier pick
        // thought busy; harmless (the pick stays valid).
        // Issue: pad with NOPs where one stall field is not enough (and at
        // the start of a block whose predecessor left results in flight).
        let tight = at > next_min;
        if out.is_empty() && at > 0 {
            out.push(Inst { ctrl: Ctrl { stall: 1, ..Ctrl::default() }, ..nop.clone() });
            stats.nops += 1;
            last_issue = 0;
        }
        if let Some(prev) = out.last_mut() {
            let mut gap = at - last_issue;
            let mut prev_tight = tight;
            let mut prev = prev;
            while gap > 15 {
                prev.ctrl.stall = 15;
                prev.ctrl.yield_bit = false;
                out.push(Inst { ctrl: Ctrl { stall: 1, ..Ctrl::default() }, ..nop.clone() });
                stats.nops += 1;
                last_issue += 15;
                gap -= 15;
                prev_tight = true;
                prev = out.last_mut().expect("just pushed");
            }
            prev.ctrl.stall = gap.max(1) as u8;
            prev.ctrl.yield_bit = !prev_tight && (1..=11).contains(&prev.ctrl.stall);
        }
        let issue = at.max(if out.is_empty() { 0 } else { last_issue + 1 });
        st.wait(wait);
        if let Some(r) = read_sb {
            for &u in h.reads().iter().filter(|&&u| u < UR_BASE) {
                st.units[usize::from(u)].rsb |= 1 << r;
            }
            st.queue[usize::from(r)] = h.queue();
            st.set_at[usize::from(r)] = issue;
        }
        for (&w, &row) in h.writes().iter().zip(h.write_rows.iter()) {
            let u = &mut st.units[usize::from(w)];
            u.ready = NEVER;
            match write_sb {
                Some(s) => {
                    u.wsb = 1 << s;
                    u.fixed = None;
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
        inst.ctrl = Ctrl { stall: 0, yield_bit: false, write_sb, read_sb, wait, reuse: 0 };
        stats.waits += usize::from(wait != 0);
        out.push(inst);
        last_issue = issue;
        next_min = issue + i64::from(min_stall(base));
        if drains(base, back_edge) {
            // The path that leaves here finds everything settled (`at`
            // kept this within one stall field).
            next_min = next_min.max(settled(&st, rows));
        }
    }
    // The last instruction's stall: its own minimum, or, at a drain, until
    // everything fixed has landed.
    let mut end = next_min;
    if let Some(last) = out.last_mut() {
        let lb = base_name(last);
        if drains(lb, back_edge) || after_opaque {
            end = end.max(settled(&st, rows)).min(last_issue + 15);
        }
        last.ctrl.stall = (end - last_issue).clamp(1, 15) as u8;
        last.ctrl.yield_bit = (1..=11).contains(&last.ctrl.stall);
        end = last_issue + i64::from(last.ctrl.stall);
    }
    stats.instructions += out.len();
    stats.stall_cycles += out.iter().map(|i| u64::from(i.ctrl.stall)).sum::<u64>();
    // The exit state, relative to `end`: fixed results become a cycle from
    // which every reader may read.
    for u in &mut st.units {
        if let Some((t, row)) = u.fixed.take() {
            u.ready = u.ready.max(t + i64::from(rows[usize::from(row)]));
        }
        u.ready = if u.ready <= end { NEVER } else { u.ready - end };
    }
    for s in &mut st.set_at {
        *s = if *s == NEVER { NEVER } else { *s - end };
    }
    (out, st)
}

/// The cycle by which every fixed-latency result in flight is readable by
/// any consumer.
fn settled(st: &State, rows: &[u8]) -> i64 {
    st.units.iter().map(|u| u.fixed.map_or(u.ready, |(t, row)| u.ready.max(t + i64::from(rows[usize::from(row)])))).max().unwrap_or(NEVER)
}

const _: () = assert!(CLASSES < 256);
