//! The SASS hazard checker: re-derives, from the control codes of the code
//! as it issues, whether every register dependence is covered, as the
//! hardware of sm_70 and later requires (it does not interlock).
//!
//! The model (Volta+ control codes, see [`crate::isa::ctrl`]):
//! * an instruction's stall count delays the next issue of the warp by that
//!   many cycles; the checker assumes nothing else delays it (a scoreboard
//!   wait may take no time at all), so its clock is the least possible one;
//! * a fixed-latency producer's result may be read no earlier than the
//!   latency of [`crate::sched::latency`] for (register file, producer class,
//!   consumer class) after its issue;
//! * a producer that sets write scoreboard `s` has its result registers
//!   pending on `s` until an instruction waits on `s` (wait-mask bit); reading
//!   (RAW) or overwriting (WAW) such a register before the wait is a hazard;
//! * a variable-latency instruction that sets read scoreboard `s` and no
//!   write scoreboard has its predicate results pending on `s` (they are
//!   known once its sources are read);
//! * an instruction that sets read scoreboard `s` holds its source registers
//!   until a wait on `s` (or on its write scoreboard: a completed instruction
//!   has read its sources); overwriting one of them before (WAR) is a hazard,
//!   unless the writer is a later instruction of the same in-order queue,
//!   or one of the memory unit's early overwrites ptxas relies on (an LDS
//!   overwriting a global store's address or data, an LDL a
//!   global load's address from sm_90: [`crate::sched::info::EARLY_OVERWRITES`]).
//!   Only general registers are held: uniform registers and predicates are
//!   read at issue;
//! * variable-latency units complete in order ([`queue`]): a producer that
//!   sets no write scoreboard has its result ready once a later
//!   instruction of the same queue sets a write scoreboard and that
//!   scoreboard is waited on (ptxas relies on this: `LDS R7` without a
//!   scoreboard, `LDS R2` with `W0`, a wait on 0, then a read of R7);
//!   otherwise, for a class with no fixed latency measured on the SM
//!   (variable latency), its result is unreadable.
//!
//! Not modelled (no evidence in the corpus to measure them): fixed-latency
//! WAW and WAR orderings (in-order pipelines; the tables have no numbers for
//! them), sources of variable-latency instructions read after issue
//! without a read scoreboard, `DEPBAR.LE` counts but for the producers of
//! one in-order unit ([`WarpHazards::depbar`]; after `LDGDEPBAR` the
//! interpreter completes LDGSTS copies at once), extra cycles
//! of taken branches (ptxas's code needs none on the paths the tests replay),
//! and the convergence-barrier registers `B0`…`B15`. Code compiled for
//! debugging has no schedule at all ([`scheduled`]) and is outside the model.
//!
//! [`HazardInfo`] does the classification once per static instruction;
//! [`WarpHazards::issue`] is the per-issue check: a look at the state of
//! each register the instruction names, and a few list pushes.

use crate::isa::ctrl::{Ctrl, SCOREBOARDS};
use crate::isa::form::Form;
use crate::isa::inst::Inst;
use crate::sched::info::{EARLY_KINDS, P_BASE, QUEUE_IDS, UNITS, UR_BASE, file_of, unit_name};
pub use crate::sched::info::{HazardInfo, queue};
use crate::sched::latency::{self, Class, NEEDS_SCOREBOARD, ROW_WIDTH, ROWS, Table};
use crate::target::Sm;

/// `write_class` of a register with no fixed-latency write in flight.
const NO_CLASS: u8 = u8::MAX;


/// What the checker knows of one register unit.
#[derive(Clone, Copy, Debug)]
struct UnitState {
    /// Issue cycle of the last fixed-latency (or unscoreboarded) writer.
    write_cycle: u64,
    /// Its class, or [`NO_CLASS`] when no such result is in flight.
    write_class: u8,
    /// The latency row of (the unit's file, `write_class`) in
    /// [`Table::rows`]; 0 (no latency) with [`NO_CLASS`].
    lat_row: u8,
    /// Write scoreboard the unit's result is pending on, or [`NONE`].
    write_sb: u8,
    /// The lanes that pending result is written in (all, where not known):
    /// a lane outside them may read or overwrite the unit without a wait
    /// (ptxas: `@!P5 LDG.E.S8 R17` on W5, then `@P5 PRMT R43, R17` with no
    /// wait, the predicate unchanged between).
    sb_lanes: u32,
    /// The lanes of the fixed-latency (or unscoreboarded) result in flight,
    /// apart from the scoreboarded one's: the two may be in flight at once
    /// in disjoint lanes (ptxas: `@!P6 LDG.E.S16 R6` on W5, then `@P6 SEL
    /// R6, …` and `@P6 IADD3.X …, R6` with no wait on 5, sm_86), and a
    /// reader waits for the one its lanes read.
    write_lanes: u32,
    /// The in-order queue of that pending result's producer (0: none).
    write_queue: u8,
    /// Read scoreboards holding the unit (bit `s`).
    read_sbs: u8,
    /// The lanes of the instructions holding it (all of them together): a
    /// lane outside them may overwrite the unit without a wait (ptxas:
    /// `@!P3 LDL.U8 R59, [R0]` on R1, then `@P3 SHF.R.U64 R0, …` with no
    /// wait; `@P2 STG.E.U16 […], R38` on R0, then `@!P2 LDG.E.U16 R38`).
    /// Per read scoreboard: kept apart so that a wait on one releases
    /// its lanes only (ptxas: `@P5 LDG.E R5, [R12.64]` on read scoreboard
    /// 0, `@!P5 I2F.F64.S64 R34, R12` on 3, then a wait on 3 only and
    /// `@!P5 IMAD.X R13`, sm_86).
    read_lanes: [u32; SCOREBOARDS as usize],
    /// Per read scoreboard holding it: the in-order queue of every
    /// instruction holding it there, or [`NONE`] when they are of
    /// different queues (or of none). A later member of the queues of all
    /// its holders reads after them (ptxas: `F2F.F64.F32 R24, R17` on read
    /// scoreboard 0, three more instructions setting 0, an STG of R17 on
    /// read scoreboard 4 and a wait on 4, then `F2F.F64.F32 R16` overwriting
    /// R17 with no wait on 0; `STS.64 [R45], R18` then `LDS.64 R18` on the
    /// same read scoreboard).
    read_queues: [u8; SCOREBOARDS as usize],
    /// 0, or the queue `q` of an unscoreboarded variable-latency result not
    /// yet attached to a scoreboard, or `ATTACHED | q` once a later
    /// instruction of its queue set a write scoreboard.
    orphan: u8,
    /// The write scoreboards of the later instructions of an attached
    /// orphan's queue: a wait on any of them finds it landed (ptxas: `I2F.S8
    /// R34` with none, `F2F.F64.F32` on W1 and `I2F.S8 R27` on W5 later, a
    /// wait on 5 only, then a read of R34; sm_120).
    orphan_sbs: u8,
    /// Per read scoreboard holding the unit: the write scoreboards of the
    /// instructions holding it (bit 6: one without), all of which must be
    /// waited on to release it without a wait on the read scoreboard.
    read_holders: [u8; SCOREBOARDS as usize],
    /// Per entry of [`crate::sched::info::EARLY_OVERWRITES`]: the read
    /// scoreboards whose every holder holds the unit as the entry's
    /// `held_as` (bit `s`; meaningful where `read_sbs` has it).
    early: [u8; EARLY_KINDS],
}

impl UnitState {
    /// Whether a read scoreboard holding the unit holds it in any of
    /// `lanes`.
    #[inline(always)]
    fn held_in(&self, lanes: u32) -> bool {
        let mut sbs = self.read_sbs;
        while sbs != 0 {
            let s = sbs.trailing_zeros() as usize;
            if self.read_lanes.get(s).is_some_and(|l| l & lanes != 0) {
                return true;
            }
            sbs &= sbs - 1;
        }
        false
    }
}

const NONE: u8 = u8::MAX;
/// `read_holders` bit of a reader with no write scoreboard.
const NO_WRITE_SB: u8 = 1 << 6;
/// Tag of an orphan attached to a scoreboard.
const ATTACHED: u8 = 0x80;
/// Length past which a scoreboard's unit list drops its stale entries (code
/// that sets a scoreboard in a loop and never waits on it).
const COMPACT_AT: usize = 4096;

const FRESH: UnitState = UnitState { write_cycle: 0, write_class: NO_CLASS, lat_row: 0, write_sb: NONE, sb_lanes: u32::MAX, write_lanes: u32::MAX, write_queue: 0, read_sbs: 0, read_lanes: [0; SCOREBOARDS as usize], read_queues: [NONE; SCOREBOARDS as usize], orphan: 0, orphan_sbs: 0, read_holders: [0; SCOREBOARDS as usize], early: [0; EARLY_KINDS] };

/// [`in_order_unit`] of a texture fetch: the texture unit returns its
/// results in issue order, though the tables give it no queue.
const TEXTURE_UNIT: u8 = u8::MAX - 1;

/// The unit an instruction's results land from in issue order, for
/// `DEPBAR.LE` counts ([`WarpHazards::depbar`]): its queue, the texture
/// unit for a fetch, or 0 (none known).
fn in_order_unit(info: &HazardInfo) -> u8 {
    if info.queue != 0 {
        info.queue
    } else if info.class == Class::Texture {
        TEXTURE_UNIT
    } else {
        0
    }
}

/// The last instruction that set a scoreboard (for messages).
#[derive(Clone, Copy, Debug)]
struct Setter {
    form: Option<&'static Form>,
    issued: u64,
}

/// Per scoreboard: the units it concerns, released by a wait on it. Lists
/// may hold stale entries (a unit rewritten since); the unit's state says
/// whether an entry still applies.
#[derive(Clone, Debug, Default)]
struct Lists {
    /// Units whose result is pending on it.
    written: Vec<u16>,
    /// Units it holds for reading.
    read: Vec<u16>,
    /// Units read by instructions that set it as write scoreboard and
    /// another as read scoreboard (their completion implies the read).
    read_by_write: Vec<u16>,
    /// Orphans attached to it.
    attached: Vec<u16>,
    /// The instructions that set it as write scoreboard since the last
    /// wait on it, in issue order: where each one's units start in
    /// `written`, and the in-order unit it completes in ([`in_order_unit`];
    /// 0 none). Emptied when `written` is compacted.
    setters: Vec<(u32, u8)>,
}

impl Lists {
    fn longest(&self) -> usize {
        self.written.len().max(self.read.len()).max(self.read_by_write.len()).max(self.attached.len()).max(self.setters.len())
    }
}

/// The hazard state of one warp.
#[derive(Clone, Debug)]
pub struct WarpHazards {
    table: &'static Table,
    /// Least issue cycle of the next instruction.
    cycle: u64,
    /// Instructions issued so far.
    issued: u64,
    units: Box<[UnitState; UNITS]>,
    /// Form of the last unscoreboarded writer of each unit (for messages).
    writer: Box<[Option<&'static Form>; UNITS]>,
    lists: [Lists; SCOREBOARDS as usize],
    /// Unattached orphans per queue.
    orphans: [Vec<u16>; QUEUE_IDS],
    write_setter: [Setter; SCOREBOARDS as usize],
    read_setter: [Setter; SCOREBOARDS as usize],
}

impl WarpHazards {
    /// A warp at its first instruction: nothing pending.
    pub fn new(sm: Sm) -> WarpHazards {
        let none = Setter { form: None, issued: 0 };
        WarpHazards {
            table: latency::checking_table(sm),
            cycle: 0,
            issued: 0,
            units: Box::new([FRESH; UNITS]),
            writer: Box::new([None; UNITS]),
            lists: Default::default(),
            orphans: Default::default(),
            write_setter: [none; SCOREBOARDS as usize],
            read_setter: [none; SCOREBOARDS as usize],
        }
    }

    /// Back to a warp at its first instruction (what [`WarpHazards::new`]
    /// gives), keeping the allocations.
    pub fn reset(&mut self) {
        let none = Setter { form: None, issued: 0 };
        self.cycle = 0;
        self.issued = 0;
        self.units.fill(FRESH);
        self.writer.fill(None);
        for l in &mut self.lists {
            l.written.clear();
            l.read.clear();
            l.read_by_write.clear();
            l.attached.clear();
        }
        for o in &mut self.orphans {
            o.clear();
        }
        self.write_setter = [none; SCOREBOARDS as usize];
        self.read_setter = [none; SCOREBOARDS as usize];
    }

    /// Called once per issued warp-instruction, in the warp's dynamic issue order, BEFORE its effects apply.
    /// Returns a description of the first uncovered hazard.
    #[inline]
    pub fn issue(&mut self, info: &HazardInfo, inst: &Inst) -> Result<(), String> {
        self.issue_ctrl(info, inst.ctrl)
    }

    /// [`WarpHazards::issue`] with the instruction's control codes given
    /// apart (an interpreter keeps them beside its own form of the code).
    #[inline(always)]
    pub fn issue_ctrl(&mut self, info: &HazardInfo, ctrl: Ctrl) -> Result<(), String> {
        self.issue_lanes(info, ctrl, u32::MAX)
    }

    /// [`WarpHazards::issue_ctrl`] for an instruction executing in `lanes`
    /// (its group's lanes whose guard holds).
    #[inline(always)]
    pub fn issue_lanes(&mut self, info: &HazardInfo, ctrl: Ctrl, lanes: u32) -> Result<(), String> {
        let cycle = self.begin_issue(info, ctrl)?;
        for (r, relief) in info.reads_with_relief() {
            self.check_read_as(r, lanes, info.class, relief)?;
        }
        let write_sb = ctrl.write_sb().filter(|s| *s < SCOREBOARDS);
        for &w in info.writes() {
            let u = &self.units[usize::from(w)];
            // Results of one in-order queue land in issue order, so a later
            // instruction of the pending producer's queue that sets a write
            // scoreboard of its own (or any, in the shared-memory queue)
            // overwrites it last (ptxas: `LDS.128 R4` on W0, then `LDS R6`
            // on W1 with no wait; on sm_75 `LDS.U R43` with none after
            // `LDS.U.128 R40` on W2).
            if u.write_sb != NONE && u.sb_lanes & lanes != 0 && !(info.writes_after_its_queue_reads(write_sb) && u.write_queue == info.queue) {
                return Err(self.scoreboard_message(w, "overwritten", true));
            }
            // The memory unit's early overwrites (`EARLY_OVERWRITES`).
            let early = info.overwrites_early(write_sb, u.read_sbs, &u.early);
            if u.read_sbs != 0 && u.held_in(lanes) && !self.read_before(info, write_sb, u) && !early {
                return Err(self.scoreboard_message(w, "overwritten", false));
            }
        }
        if let Some(s) = ctrl.read_sb().filter(|s| *s < SCOREBOARDS) {
            self.hold_reads(info, s, write_sb, lanes);
        }
        match write_sb {
            Some(s) => {
                if info.queue != 0 {
                    self.attach(info.queue, s);
                }
                let lists = &mut self.lists[usize::from(s)];
                lists.setters.push((lists.written.len() as u32, in_order_unit(info)));
                let list = &mut lists.written;
                for &w in info.writes() {
                    let u = &mut self.units[usize::from(w)];
                    u.write_sb = s;
                    u.sb_lanes = lanes;
                    u.write_queue = info.queue;
                    u.write_class = NO_CLASS;
                    u.lat_row = 0;
                    u.orphan = 0;
                    u.orphan_sbs = 0;
                    list.push(w);
                }
                self.write_setter[usize::from(s)] = Setter { form: Some(info.form), issued: self.issued };
                if self.lists[usize::from(s)].longest() > COMPACT_AT {
                    self.compact(s);
                }
            }
            None => {
                // A variable-latency instruction that sets a read scoreboard
                // and no write scoreboard has its predicate results once it
                // has read its sources: ptxas waits on that read scoreboard
                // before reading them (sm_90+'s `ATOM.E.ADD.F16x2 P0, …` with
                // R0 and then `@P0 EXIT` after a wait on 0; sm_75–sm_89 give
                // it a write scoreboard instead).
                let pred_sb = ctrl.read_sb().filter(|s| *s < SCOREBOARDS && info.queue != 0);
                for (&w, &row) in info.writes().iter().zip(&info.write_rows) {
                    let u = &mut self.units[usize::from(w)];
                    if let Some(s) = pred_sb.filter(|_| w >= P_BASE) {
                        u.write_sb = s;
                        u.sb_lanes = lanes;
                        u.write_queue = 0;
                        u.write_class = NO_CLASS;
                        u.lat_row = 0;
                        u.orphan = 0;
                        u.orphan_sbs = 0;
                        let lists = &mut self.lists[usize::from(s)];
                        // Not one of the scoreboard's in-order producers.
                        lists.setters.push((lists.written.len() as u32, 0));
                        lists.written.push(w);
                        continue;
                    }
                    u.write_lanes = lanes;
                    u.write_cycle = cycle;
                    u.write_class = info.producer_class() as u8;
                    u.lat_row = row;
                    u.orphan = info.queue;
                    u.orphan_sbs = 0;
                    self.writer[usize::from(w)] = Some(info.form);
                    if info.queue != 0 {
                        let orphans = &mut self.orphans[usize::from(info.queue)];
                        orphans.push(w);
                        if orphans.len() > COMPACT_AT {
                            let units = &self.units;
                            orphans.sort_unstable();
                            orphans.dedup();
                            orphans.retain(|w| units[usize::from(*w)].orphan == info.queue);
                        }
                    }
                }
            }
        }
        self.end_issue(cycle, ctrl);
        Ok(())
    }

    /// `DEPBAR.LE SBs, n`: scoreboard `s` counts at most `n` operations
    /// outstanding. Where every instruction that set it since its last wait
    /// completes in one in-order unit, all but the last `n` have landed and
    /// their results are released (ptxas 13.5: three `TEX.SCR.LL` on SB5,
    /// then `DEPBAR.LE SB5, 0x2` and a store of the first one's results,
    /// sm_75 and sm_80); otherwise nothing is known to have landed.
    fn depbar(&mut self, s: u8, n: u8) {
        let Some(lists) = self.lists.get_mut(usize::from(s)) else { return };
        let k = lists.setters.len();
        let landed = k.saturating_sub(usize::from(n));
        let one_unit = lists.setters.first().is_some_and(|&(_, unit)| unit != 0 && lists.setters.iter().all(|&(_, u)| u == unit));
        if landed == 0 || !one_unit {
            return;
        }
        let cut = if landed == k { lists.written.len() } else { lists.setters[landed].0 as usize };
        for w in lists.written.drain(..cut) {
            let u = &mut self.units[usize::from(w)];
            if u.write_sb == s {
                u.write_sb = NONE;
            }
        }
        lists.setters.drain(..landed);
        for (start, _) in &mut lists.setters {
            *start -= cut as u32;
        }
    }

    /// What every issue does first: the wait mask's releases and the read
    /// of the guard predicate. Returns the issue cycle.
    #[inline(always)]
    fn begin_issue(&mut self, info: &HazardInfo, ctrl: Ctrl) -> Result<u64, String> {
        let cycle = self.cycle;
        if ctrl.wait() != 0 {
            self.wait(ctrl.wait());
        }
        if let Some((s, n)) = info.depbar {
            self.depbar(s, n);
        }
        if let Some(g) = info.guard {
            self.check_read_as(g, u32::MAX, Class::Guard, 0)?;
        }
        Ok(cycle)
    }

    /// What every issue does last: the stall count advances the clock.
    #[inline(always)]
    fn end_issue(&mut self, cycle: u64, ctrl: Ctrl) {
        self.cycle = cycle + u64::from(ctrl.stall());
        self.issued += 1;
    }

    /// [`WarpHazards::issue_ctrl`] for an instruction whose guard holds in
    /// none of the issuing lanes: it reads no source and writes no
    /// register, so only its wait mask, its guard, its stall count and its
    /// place in its in-order queue matter (ptxas overwrites the destination of `@P0 LDG.E R4` with
    /// `@!P0 LDG.E.128 R4` without a wait when P0 is false everywhere: the
    /// first load never happened).
    #[inline]
    pub fn issue_predicated_off(&mut self, info: &HazardInfo, ctrl: Ctrl) -> Result<(), String> {
        let cycle = self.begin_issue(info, ctrl)?;
        // It still passes through its in-order queue, so its write
        // scoreboard covers the queue's earlier results all the same: ptxas
        // reads `DFMA R22` (no scoreboard) after `@!P0 DMUL R14` on W0 and a
        // wait on 0, whatever P0 is (sm_80, cuRAND's Philox normal2_double).
        if let Some(s) = ctrl.write_sb().filter(|s| *s < SCOREBOARDS && info.queue != 0) {
            self.attach(info.queue, s);
        }
        self.end_issue(cycle, ctrl);
        Ok(())
    }

    /// Holds the general registers an instruction reads on read scoreboard
    /// `s`. Uniform registers and predicates are read at issue: ptxas
    /// overwrites them right after an instruction that holds a read
    /// scoreboard (`DFMA R4, R2, UR6, R4` then `UMOV UR6, …`).
    #[inline]
    fn hold_reads(&mut self, info: &HazardInfo, s: u8, write_sb: Option<u8>, lanes: u32) {
        let by_write = write_sb.filter(|w| *w != s);
        let lists = &mut self.lists;
        for (i, &r) in info.reads().iter().enumerate().filter(|(_, r)| **r < UR_BASE) {
            let u = &mut self.units[usize::from(r)];
            let newly = u.read_sbs >> s & 1 == 0;
            info.hold_early(i, s, newly, &mut u.early);
            let queue = if info.queue != 0 { info.queue } else { NONE };
            u.read_lanes[usize::from(s)] = if newly { lanes } else { u.read_lanes[usize::from(s)] | lanes };
            let held = &mut u.read_queues[usize::from(s)];
            *held = if newly || *held == queue { queue } else { NONE };
            if newly {
                u.read_sbs |= 1 << s;
                u.read_holders[usize::from(s)] = 0;
                lists[usize::from(s)].read.push(r);
            }
            match by_write {
                Some(w) => {
                    u.read_holders[usize::from(s)] |= 1 << w;
                    lists[usize::from(w)].read_by_write.push(r);
                }
                None => u.read_holders[usize::from(s)] |= NO_WRITE_SB,
            }
        }
        self.read_setter[usize::from(s)] = Setter { form: Some(info.form), issued: self.issued };
        if self.lists[usize::from(s)].longest() > COMPACT_AT {
            self.compact(s);
        }
    }

    /// Whether every instruction still to read unit `u` does so before a
    /// scoreboarded write of `info` can land: on each read scoreboard
    /// holding it, they are all of its in-order queue (`LDG.E R2,
    /// [R2.64+0x4]` after `LDG.E R5, [R2.64]`).
    fn read_before(&self, info: &HazardInfo, write_sb: Option<u8>, u: &UnitState) -> bool {
        info.writes_after_its_queue_reads(write_sb) && (0..usize::from(SCOREBOARDS)).all(|s| u.read_sbs >> s & 1 == 0 || u.read_queues[s] == info.queue)
    }

    /// Attaches the unattached orphans of queue `q` to scoreboard `s`, set
    /// by a later instruction of the queue.
    #[inline]
    fn attach(&mut self, q: u8, s: u8) {
        let orphans = &mut self.orphans[usize::from(q)];
        let attached = &mut self.lists[usize::from(s)].attached;
        let units = &mut self.units;
        // The queue's results not yet known landed, attached or not, stay
        // on its list: a later setter of the queue covers them too.
        orphans.retain(|&w| {
            let u = &mut units[usize::from(w)];
            if u.orphan == q || u.orphan == ATTACHED | q {
                u.orphan = ATTACHED | q;
                u.orphan_sbs |= 1 << s;
                attached.push(w);
                true
            } else {
                false
            }
        });
        if attached.len() > COMPACT_AT {
            attached.sort_unstable();
            attached.dedup();
        }
    }

    /// Releases the scoreboards of a wait mask.
    #[inline]
    fn wait(&mut self, mask: u8) {
        // The scoreboards of the mask, lowest first.
        let mut left = mask & ((1 << SCOREBOARDS) - 1);
        while left != 0 {
            let s = left.trailing_zeros() as u8;
            left &= left - 1;
            let lists = &mut self.lists[usize::from(s)];
            let units = &mut self.units;
            lists.setters.clear();
            for w in lists.written.drain(..) {
                let u = &mut units[usize::from(w)];
                if u.write_sb == s {
                    u.write_sb = NONE;
                }
            }
            for r in lists.read.drain(..) {
                units[usize::from(r)].read_sbs &= !(1 << s);
            }
            // A completed instruction has read its sources (possibly held by
            // another scoreboard): ptxas waits on the write scoreboard alone
            // before overwriting them.
            for r in lists.read_by_write.drain(..) {
                let u = &mut units[usize::from(r)];
                for (k, holders) in u.read_holders.iter_mut().enumerate() {
                    if u.read_sbs >> k & 1 == 1 && *holders >> s & 1 == 1 {
                        *holders &= !(1 << s);
                        if *holders == 0 {
                            u.read_sbs &= !(1 << k);
                        }
                    }
                }
            }
            for w in lists.attached.drain(..) {
                let u = &mut units[usize::from(w)];
                if u.orphan & ATTACHED != 0 && u.orphan_sbs >> s & 1 != 0 {
                    u.orphan = 0;
                    u.orphan_sbs = 0;
                    u.write_class = NO_CLASS;
                    u.lat_row = 0;
                }
            }
        }
    }

    /// Drops stale entries of scoreboard `s`'s lists when they grow long.
    #[cold]
    fn compact(&mut self, s: u8) {
        let lists = &mut self.lists[usize::from(s)];
        let units = &self.units;
        lists.setters.clear();
        lists.written.sort_unstable();
        lists.written.dedup();
        lists.written.retain(|w| units[usize::from(*w)].write_sb == s);
        for list in [&mut lists.read, &mut lists.read_by_write] {
            list.sort_unstable();
            list.dedup();
            list.retain(|r| units[usize::from(*r)].read_sbs != 0);
        }
        lists.attached.sort_unstable();
        lists.attached.dedup();
        lists.attached.retain(|w| units[usize::from(*w)].orphan & ATTACHED != 0 && units[usize::from(*w)].orphan_sbs >> s & 1 != 0);
    }

    /// Whether unit `r` may be read now by the lanes `lanes` (a result
    /// pending in none of them is no hazard) by a reader of class `reader`
    /// (the instruction's, or [`Class::Guard`] for its guard) that reads
    /// `relief` cycles later than its class
    /// ([`HazardInfo::reads_with_relief`]); the common outcome (no hazard)
    /// inline, the message out of line.
    #[inline(always)]
    fn check_read_as(&self, r: u16, lanes: u32, reader: Class, relief: u8) -> Result<(), String> {
        let u = &self.units[usize::from(r)];
        // One byte per dependence: the unit's latency row (all zeros when
        // no fixed-latency result is in flight) at the reader's class.
        let needed = latency::relieved(self.table.rows()[usize::from(u.lat_row) & (ROWS - 1)][reader as usize & (ROW_WIDTH - 1)], relief);
        // A result in flight in none of the reading lanes is no hazard
        // (ptxas: `@P2 DMUL.RZ R30` with no scoreboard, then `@!P2 DFMA.RZ
        // …, R30` at once, sm_89).
        let scoreboarded = u.write_sb != NONE && u.sb_lanes & lanes != 0;
        if !scoreboarded && (u.write_lanes & lanes == 0 || self.cycle.saturating_sub(u.write_cycle) >= u64::from(needed)) {
            return Ok(());
        }
        Err(self.read_message(r, reader, relief, scoreboarded))
    }

    /// The description of the hazard [`WarpHazards::check_read_as`] found.
    #[cold]
    #[inline(never)]
    fn read_message(&self, r: u16, reader: Class, relief: u8, scoreboarded: bool) -> String {
        let u = &self.units[usize::from(r)];
        if scoreboarded {
            return self.scoreboard_message(r, "read", true);
        }
        let needed = latency::relieved(self.table.latency_by_index(file_of(r), u.write_class, reader), relief);
        let distance = self.cycle - u.write_cycle;
        let writer = self.writer[usize::from(r)].map_or("?", |f| f.name);
        if needed == NEEDS_SCOREBOARD {
            return format!("{} read but {writer} (variable latency on sm_{}) set no write scoreboard, nor was a later one of its unit waited for", unit_name(r), self.table.sm);
        }
        format!("{} read {distance} cycles after {writer} (needs {needed})", unit_name(r))
    }

    fn scoreboard_message(&self, unit: u16, what: &str, write: bool) -> String {
        let u = &self.units[usize::from(unit)];
        let s = if write { u.write_sb } else { u.read_sbs.trailing_zeros() as u8 };
        let s = usize::from(s).min(usize::from(SCOREBOARDS) - 1);
        let setter = if write { self.write_setter[s] } else { self.read_setter[s] };
        let name = setter.form.map_or("?", |f| f.name);
        let ago = self.issued - setter.issued;
        let role = if write { "" } else { " reading it" };
        format!("{} {what} while scoreboard {s} ({name}{role}, {ago} instructions earlier) not waited for", unit_name(unit))
    }

    /// The least issue cycle of the next instruction (the stall counts so far).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Merges the state of another thread group of the same warp into this
    /// one, at reconvergence.
    ///
    /// Divergent groups of a warp write disjoint lanes, so a dependence
    /// between an instruction of one and an instruction of the other is no
    /// hazard (ptxas's code has such pairs: `STS [R9], R0` holding R0 on one
    /// path, `IMAD R0, …` without a wait on the other). An interpreter that
    /// interleaves groups gives each its own state — a clone of the warp's at
    /// the divergence — and joins them where they reconverge. The join keeps
    /// everything either side has in flight: pending scoreboards, held
    /// reads, unscoreboarded results, the later write of each register and
    /// the later clock.
    pub fn join(&mut self, other: &WarpHazards) {
        self.cycle = self.cycle.max(other.cycle);
        self.issued = self.issued.max(other.issued);
        for (k, (mine, theirs)) in self.units.iter_mut().zip(other.units.iter()).enumerate() {
            // Either side's result may still be in flight (scoreboarded,
            // fixed-latency or unscoreboarded): the lanes of both.
            mine.sb_lanes = match (mine.write_sb, theirs.write_sb) {
                (_, NONE) => mine.sb_lanes,
                (NONE, _) => theirs.sb_lanes,
                _ => mine.sb_lanes | theirs.sb_lanes,
            };
            mine.write_lanes |= theirs.write_lanes;
            if mine.write_sb == NONE {
                mine.write_sb = theirs.write_sb;
                mine.write_queue = theirs.write_queue;
            } else if theirs.write_sb != NONE {
                if theirs.write_queue != mine.write_queue {
                    // Pending on both sides from different queues: no queue
                    // order covers both.
                    mine.write_queue = 0;
                }
            }
            if theirs.write_class != NO_CLASS && (mine.write_class == NO_CLASS || theirs.write_cycle > mine.write_cycle) {
                mine.write_cycle = theirs.write_cycle;
                mine.write_class = theirs.write_class;
                mine.lat_row = theirs.lat_row;
                self.writer[k] = other.writer[k];
            }
            if mine.orphan == 0 {
                mine.orphan = theirs.orphan;
                mine.orphan_sbs = theirs.orphan_sbs;
            } else if mine.orphan & ATTACHED != 0 && theirs.orphan & ATTACHED != 0 {
                // Landed once a wait covers both sides' results.
                let both = mine.orphan_sbs & theirs.orphan_sbs;
                mine.orphan_sbs = if both != 0 { both } else { mine.orphan_sbs };
            }
            for (s, (h, t)) in mine.read_holders.iter_mut().zip(theirs.read_holders).enumerate() {
                match (mine.read_sbs >> s & 1, theirs.read_sbs >> s & 1) {
                    (1, 1) => *h |= t,
                    (0, 1) => *h = t,
                    _ => {}
                }
            }
            HazardInfo::join_early(&mut mine.early, mine.read_sbs, theirs.read_sbs, &theirs.early);
            for (s, (m, t)) in mine.read_lanes.iter_mut().zip(theirs.read_lanes).enumerate() {
                match (mine.read_sbs >> s & 1, theirs.read_sbs >> s & 1) {
                    (1, 1) => *m |= t,
                    (0, 1) => *m = t,
                    _ => {}
                }
            }
            for (s, (m, t)) in mine.read_queues.iter_mut().zip(theirs.read_queues).enumerate() {
                match (mine.read_sbs >> s & 1, theirs.read_sbs >> s & 1) {
                    (1, 1) if *m != t => *m = NONE,
                    (0, 1) => *m = t,
                    _ => {}
                }
            }
            mine.read_sbs |= theirs.read_sbs;
        }
        for (mine, theirs) in self.lists.iter_mut().zip(&other.lists) {
            mine.written.extend_from_slice(&theirs.written);
            mine.read.extend_from_slice(&theirs.read);
            mine.read_by_write.extend_from_slice(&theirs.read_by_write);
            mine.attached.extend_from_slice(&theirs.attached);
        }
        for (q, (mine, theirs)) in self.orphans.iter_mut().zip(&other.orphans).enumerate() {
            mine.extend_from_slice(theirs);
            // Both sides hold their common past's orphans: joined again and
            // again (a loop whose threads diverge each iteration) the list
            // would double each time.
            if mine.len() > COMPACT_AT {
                let units = &self.units;
                let q = q as u8;
                mine.sort_unstable();
                mine.dedup();
                mine.retain(|w| units[usize::from(*w)].orphan == q || units[usize::from(*w)].orphan == ATTACHED | q);
            }
        }
        for s in 0..usize::from(SCOREBOARDS) {
            if other.write_setter[s].issued > self.write_setter[s].issued {
                self.write_setter[s] = other.write_setter[s];
            }
            if other.read_setter[s].issued > self.read_setter[s].issued {
                self.read_setter[s] = other.read_setter[s];
            }
        }
        for s in 0..SCOREBOARDS {
            if self.lists[usize::from(s)].longest() > COMPACT_AT {
                self.compact(s);
            }
        }
    }
}

/// Whether code was scheduled at all: `false` when no instruction sets a
/// stall count, a scoreboard or a wait (what ptxas emits for debug
/// compilations, `-G` or `.target sm_XX, debug`, whose cubins carry the
/// debug `e_flags`). Such code relies on the hardware running it without
/// overlap and is outside this checker's model: a caller checks a
/// function with it before checking its instructions.
pub fn scheduled<'a>(code: impl IntoIterator<Item = &'a Inst>) -> bool {
    code.into_iter().any(|i| i.ctrl.stall() != 0 || i.ctrl.wait() != 0 || i.ctrl.write_sb().is_some() || i.ctrl.read_sb().is_some())
}

#[cfg(test)]
mod tests;
