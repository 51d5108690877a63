//! The machine: CTAs run one after another; in a CTA, warps take turns (a
//! warp runs until it blocks or its time slice ends); in a warp, threads
//! are grouped by program counter.
//!
//! Reconvergence model (Volta+ independent thread scheduling): every
//! thread has its own PC; a warp keeps its runnable threads as groups of
//! threads sharing a PC and issues, each step, the group with the lowest
//! PC (so threads that diverged at a branch meet again where their paths
//! join, and structured code runs converged); a group inside a call ranks
//! at its outermost CALL's PC, so it finishes the call before groups past
//! that CALL or on other paths below the callee run. A group executes one
//! instruction for all its threads whose guard holds; a branch that only
//! some of them take splits it; groups reaching the same PC merge.
//! `BSSY Bn` records the issuing threads in convergence barrier Bn (each
//! thread holds its own value of Bn, so diverged paths can use the same
//! barrier); `BSYNC Bn` holds a thread until every non-exited thread of its
//! Bn waits at a BSYNC of Bn with the same value; `BREAK [cond,] Bn` takes
//! threads out of Bn; `WARPSYNC mask`
//! holds a thread until every non-exited thread of the mask is there.
//! `BAR.SYNC` holds a thread until every non-exited thread of the CTA is
//! at a CTA barrier. When no group of a warp can run, threads held at
//! convergence points are released (the hardware would too, or hang).
//!
//! Speed: the common integer instructions compute whole rows (all 32 lanes,
//! sources borrowed from the register array, no per-lane tests) and blend
//! the result into the destination under the execution mask; lane masks
//! (carries, comparisons) are built branch-free. Idle lanes' results are
//! discarded, which is safe for these instructions (no memory, no faults).
//! Memory and rarer instructions loop over the active lanes only. Local
//! memory is materialized from the top down as threads touch it, so a
//! driver-sized stack (recursion) costs what it uses; a 4-byte `LDL`/`STL`
//! of a word already there is read or written in place. Everything issuing
//! an instruction reads is in one [`Code`] record per instruction. Hazards
//! are checked with one checker state per thread group ([`GroupHazards`]):
//! a group that splits off takes a copy of its parent's state, and groups
//! that merge join theirs, so divergent paths, which write disjoint lanes,
//! are not checked against each other.
//!
//! What each instruction does is its family's (the modules of
//! [`super::ops`]); this module owns the machine they run on: the warp's
//! register rows and their accessors, memory spaces and their accesses,
//! thread groups, convergence and the issue loop, which routes each
//! operation to its family's `exec`. The families execute inline in the
//! issue loop (`#[inline(always)]`), as one match per family.

use super::load::{LOCAL_WINDOW_HI, Loaded, SHARED_WINDOW_HI};
use super::num::{self, Round};
use super::op::*;
use super::{HazardCheck, Options};
use crate::interp::memory::{FaultKind, MemFault, Region};
use crate::interp::{ErrorKind, InterpError, Site};
use crate::isa::ctrl::Ctrl;
use crate::isa::inst::Inst;

use super::hazard::{HazardInfo, WarpHazards};

/// A translated program.
pub struct Program {
    /// What issuing each instruction word needs, by instruction index.
    pub code: Vec<Code>,
    /// The decoded instructions (for traces).
    pub insts: Vec<Inst>,
    /// Constant row values.
    pub rows: Rows,
}

/// Everything the issue loop reads for one instruction, in one place (one
/// bounds check and one cache line or two per issue, not one per table).
pub struct Code {
    /// The executable form.
    pub op: Op,
    /// The guard predicate.
    pub guard: P,
    /// The control codes (for the hazard checker).
    pub ctrl: Ctrl,
    /// Hazard facts.
    pub hz: HazardInfo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wait {
    None,
    Bsync(u8),
    Warpsync(u32),
    Bar,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Group {
    pub(super) pc: u32,
    pub(super) mask: u32,
    pub(super) wait: Wait,
    /// The group's hazard state in [`Warp::hz`].
    pub(super) hz: u16,
    /// Set by `WARPSYNC.EXCLUSIVE`: the group runs alone, before any other
    /// and merged with none, until it is next held (a BSYNC, a WARPSYNC,
    /// a barrier) or exits. ptxas runs `REDUX` for each distinct member
    /// mask this way (`WARPSYNC.EXCLUSIVE R4` then `REDUX.SUM UR6, R2` and
    /// the uniform result into a register, then `BSYNC`), the uniform
    /// register being one per warp. 0: not exclusive; else the group's
    /// turn among those one `WARPSYNC.EXCLUSIVE` made (1 runs first).
    pub(super) exclusive: u8,
}

/// The hazard checker's states of a warp's thread groups, by
/// [`Group::hz`]. With checking off every group names state 0 and nothing
/// is copied or joined (the issue loop pays nothing for divergence).
pub(super) struct GroupHazards {
    states: Vec<WarpHazards>,
    /// Slots of `states` no group names (reused before growing).
    free: Vec<u16>,
    on: bool,
}

impl GroupHazards {
    fn new(sm: crate::target::Sm, on: bool) -> GroupHazards {
        GroupHazards { states: vec![WarpHazards::new(sm)], free: Vec::new(), on }
    }

    /// One state for a warp at its first instruction (slot 0).
    fn reset(&mut self) {
        self.states.truncate(1);
        self.free.clear();
        if let Some(s) = self.states.first_mut() {
            s.reset();
        }
    }

    /// A copy of state `from` for a group that splits off.
    pub(super) fn split(&mut self, from: u16) -> u16 {
        if !self.on {
            return from;
        }
        let Some(parent) = self.states.get(usize::from(from)).cloned() else {
            return from;
        };
        match self.free.pop() {
            Some(slot) => {
                if let Some(s) = self.states.get_mut(usize::from(slot)) {
                    s.clone_from(&parent);
                }
                slot
            }
            None => {
                self.states.push(parent);
                (self.states.len() - 1) as u16
            }
        }
    }

    /// Joins state `from` into `into` (two groups merged); `from` is free.
    fn join(&mut self, into: u16, from: u16) {
        if into == from {
            return;
        }
        let (i, f) = (usize::from(into), usize::from(from));
        let (a, b) = if i < f {
            let (lo, hi) = self.states.split_at_mut(f);
            (lo.get_mut(i), hi.first())
        } else {
            let (lo, hi) = self.states.split_at_mut(i);
            (hi.first_mut(), lo.get(f))
        };
        if let (Some(a), Some(b)) = (a, b) {
            a.join(b);
            self.free.push(from);
        }
    }

    /// State `id` is no group's any more (its threads exited).
    pub(super) fn drop_state(&mut self, id: u16) {
        if self.on && usize::from(id) < self.states.len() && !self.free.contains(&id) {
            self.free.push(id);
        }
    }
}

pub(super) struct Warp {
    pub(super) r: Vec<[u32; 32]>,
    /// Predicate rows (the array is a power of two long so that a masked
    /// index needs no bounds check; rows past [`PRED_ROWS`] are unused).
    pub(super) p: [u32; 32],
    /// Convergence barriers, each thread's own value (`b[n][lane]`): paths
    /// that diverged set the same Bn for their own threads (ptxas reuses a
    /// barrier in both arms of an if/else, and a recursive callee saves,
    /// sets and restores its caller's), so one warp-wide value would let
    /// one path's BSSY overwrite the other's.
    pub(super) b: [[u32; 32]; 16],
    pub(super) groups: Vec<Group>,
    pub(super) exited: u32,
    pub(super) all: u32,
    pub(super) first_thread: u32,
    pub(super) hz: GroupHazards,
    /// Each thread's input to the CTA barrier reduction it waits at.
    pub(super) bar_pred: u32,
    /// The lanes of the instruction being executed: a uniform register
    /// or predicate it writes takes its first lane's value in the others
    /// (one value for the warp, whichever of its threads issue it).
    issuing: u32,
    /// Per lane: the instruction index of its outermost active CALL and
    /// how many calls deep it is (0: not in a call).
    pub(super) calls: [(u32, u16); 32],
}

/// What the CTA shares.
pub(super) struct Cta<'a> {
    shared: Region,
    pub(super) local: Vec<LocalMem>,
    ctaid: [u32; 3],
    pub(super) block: [u32; 3],
    pub(super) loaded: &'a Loaded,
    pub(super) bar_result: (u32, bool, bool),
    pub(super) bar_kind: u8,
}

/// The run's counters.
pub struct Counters {
    /// Warp-instructions issued.
    pub steps: u64,
    /// Hazards reported.
    pub hazards: Vec<InterpError>,
}

const QUANTUM: u32 = 4096;

/// The row read for a register outside the array (never, after translation).
pub(super) static ZERO_ROW: [u32; 32] = [0; 32];

/// Bit `l` of a lane mask, by lane.
pub(super) const LANE_BITS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut l = 0;
    while l < 32 {
        t[l] = 1 << l;
        l += 1;
    }
    t
};

/// The lane mask of the lanes where `f` holds (vectorizable form: the
/// compiler makes vector compares and a move-mask of it).
#[inline(always)]
pub(super) fn mask_of(f: impl Fn(usize) -> bool) -> u32 {
    let mut m = 0u32;
    for (l, &bit) in LANE_BITS.iter().enumerate() {
        m |= bit & u32::from(f(l)).wrapping_neg();
    }
    m
}

#[inline]
pub(super) fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            // Below 32 for a nonzero mask; the mask tells the compiler so
            // (no bounds checks on per-lane arrays).
            let l = m.trailing_zeros() as usize & 31;
            m &= m - 1;
            Some(l)
        }
    })
}

/// Scratch space for a source row with modifiers applied (written before
/// it is read, so never initialized beforehand).
pub(super) type Tmp = std::mem::MaybeUninit<[u32; 32]>;

/// Writes the lanes of `exec` of `dst` from `out`.
#[inline(always)]
fn blend(dst: &mut [u32; 32], out: &[u32; 32], exec: u32) {
    if exec == u32::MAX {
        *dst = *out;
    } else {
        // Branch-free blend with a per-lane bit table (vectorizes without
        // per-lane variable shifts).
        for ((x, &o), &bit) in dst.iter_mut().zip(out.iter()).zip(LANE_BITS.iter()) {
            let m = u32::from(exec & bit != 0).wrapping_neg();
            *x = (*x & !m) | (o & m);
        }
    }
}

impl Warp {
    #[inline]
    pub(super) fn ri(&self, s: S, l: usize) -> u32 {
        let v = self.r[s.r as usize][l];
        if s.m & NOT != 0 {
            !v
        } else if s.m & NEG != 0 {
            v.wrapping_neg()
        } else {
            v
        }
    }
    /// A source row with integer modifiers applied, borrowed from the
    /// register array when it has none (the common case: no copy).
    #[inline(always)]
    pub(super) fn src<'a>(&'a self, s: S, tmp: &'a mut Tmp) -> &'a [u32; 32] {
        let row = self.r.get(s.r as usize).unwrap_or(&ZERO_ROW);
        if s.m & (NOT | NEG) == 0 {
            return row;
        }
        let not = s.m & NOT != 0;
        tmp.write(std::array::from_fn(|l| if not { !row[l] } else { row[l].wrapping_neg() }))
    }
    /// Copies the lanes of `exec` of row `a` into row `d` (no temporary).
    #[inline(always)]
    pub(super) fn copy_row(&mut self, d: u16, a: u16, exec: u32) {
        if d == a {
            return;
        }
        if uniform_row(d) {
            let src = self.row(a);
            self.put(d, exec, &src);
            return;
        }
        let Ok([dst, src]) = self.r.get_disjoint_mut([d as usize, a as usize]) else {
            // A source outside the array reads as zeros.
            self.put(d, exec, &ZERO_ROW);
            return;
        };
        blend(dst, src, exec);
    }
    /// A source row as stored, all lanes.
    #[inline(always)]
    pub(super) fn row(&self, r: u16) -> [u32; 32] {
        self.r.get(r as usize).copied().unwrap_or([0; 32])
    }
    /// Writes the lanes of `exec` of row `d` from `out`.
    #[inline(always)]
    pub(super) fn put(&mut self, d: u16, exec: u32, out: &[u32; 32]) {
        let Some(dst) = self.r.get_mut(d as usize) else { return };
        if uniform_row(d) && exec != 0 {
            *dst = [out[exec.trailing_zeros() as usize]; 32];
        }
        blend(dst, out, exec);
    }
    #[inline]
    pub(super) fn raw(&self, s: S, l: usize) -> u32 {
        self.r[s.r as usize][l]
    }
    #[inline]
    pub(super) fn rf(&self, s: S, l: usize) -> f32 {
        let mut v = self.r[s.r as usize][l];
        if s.m & ABS != 0 {
            v &= 0x7fff_ffff;
        }
        if s.m & NEG != 0 {
            v ^= 0x8000_0000;
        }
        f32::from_bits(v)
    }
    /// The halves (low lane first) of a packed-half source: swizzled
    /// (`.H0_H0`, `.H1_H1`), then `|x|` and `-x` applied to each.
    #[inline]
    pub(super) fn halves(&self, s: S, l: usize) -> [u16; 2] {
        let v = self.raw(s, l);
        let (lo, hi) = (v as u16, (v >> 16) as u16);
        let mut h = if s.m & F32H != 0 {
            let x = num::f64_to_f16(f64::from(f32::from_bits(v)), Round::Zero);
            [x, x]
        } else if s.m & H0H0 != 0 {
            [lo, lo]
        } else if s.m & H1H1 != 0 {
            [hi, hi]
        } else {
            [lo, hi]
        };
        for x in &mut h {
            if s.m & ABS != 0 {
                *x &= 0x7fff;
            }
            if s.m & NEG != 0 {
                *x ^= 0x8000;
            }
        }
        h
    }
    #[inline]
    pub(super) fn r64(&self, s: S, l: usize) -> u64 {
        let r = s.r as usize;
        let lo = self.r[r][l];
        let hi = self.r.get(r + 1).map_or(0, |row| row[l]);
        u64::from(lo) | u64::from(hi) << 32
    }
    #[inline]
    pub(super) fn rd(&self, s: S, l: usize) -> f64 {
        let mut v = self.r64(s, l);
        if s.m & ABS != 0 {
            v &= !(1 << 63);
        }
        if s.m & NEG != 0 {
            v ^= 1 << 63;
        }
        f64::from_bits(v)
    }
    #[inline]
    pub(super) fn pm(&self, p: P) -> u32 {
        let v = self.p[usize::from(p.r & 31)];
        if p.not { !v } else { v }
    }
    #[inline]
    pub(super) fn set(&mut self, d: u16, l: usize, v: u32) {
        if let Some(row) = self.r.get_mut(d as usize) {
            if uniform_row(d) {
                // The lanes still to be written keep their value (a source
                // of a later lane's operation).
                let pending = self.issuing & !(1 << l);
                for (k, x) in row.iter_mut().enumerate() {
                    if pending >> k & 1 == 0 {
                        *x = v;
                    }
                }
            } else {
                row[l] = v;
            }
        }
    }
    #[inline]
    pub(super) fn set64(&mut self, d: u16, l: usize, v: u64) {
        self.set(d, l, v as u32);
        self.set(d.saturating_add(1), l, (v >> 32) as u32);
    }
    #[inline]
    pub(super) fn setp(&mut self, d: u8, mask: u32, v: u32) {
        let row = &mut self.p[usize::from(d & 31)];
        if (UP_BASE..=UP_SINK).contains(&d) && mask != 0 {
            // A uniform predicate: the first lane's value in the others.
            let first = if v >> mask.trailing_zeros() & 1 == 1 { u32::MAX } else { 0 };
            *row = (first & !mask) | (v & mask);
            return;
        }
        *row = (*row & !mask) | (v & mask);
    }
}

pub(super) fn fault(f: MemFault) -> InterpError {
    InterpError::from(f)
}

/// Runs every CTA of the launch.
pub fn run_grid(program: &Program, loaded: &mut Loaded, spec: &crate::interp::LaunchSpec, options: &Options) -> Result<Counters, InterpError> {
    let mut counters = Counters { steps: 0, hazards: Vec::new() };
    let threads = spec.threads_per_cta();
    if threads == 0 {
        return Ok(counters);
    }
    let warps = threads.div_ceil(32);
    let mut memory = std::mem::take(&mut loaded.launch.memory);
    let result = run_ctas(program, loaded, spec, options, &mut counters, &mut memory, threads, warps);
    loaded.launch.memory = memory;
    result.map(|()| counters)
}

#[allow(clippy::too_many_arguments)]
fn run_ctas(program: &Program, loaded: &Loaded, spec: &crate::interp::LaunchSpec, options: &Options, counters: &mut Counters, memory: &mut crate::interp::memory::GlobalMemory, threads: u32, warps: u32) -> Result<(), InterpError> {
    // Register arrays are allocated once and reused by every CTA (a new
    // CTA's registers hold what the last one left: undefined on hardware,
    // deterministic here); the constant rows are never written.
    let mut ws: Vec<Warp> = (0..warps)
        .map(|k| {
            let n = (threads - 32 * k).min(32);
            let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            let mut r = vec![[0u32; 32]; program.rows.total()];
            for (i, v) in program.rows.constants.iter().enumerate() {
                r[CONST_BASE as usize + i] = [*v; 32];
            }
            Warp { r, p: [0; 32], b: [[0; 32]; 16], groups: Vec::new(), exited: 0, all, first_thread: 32 * k, hz: GroupHazards::new(loaded.sm, options.hazards != HazardCheck::Off), bar_pred: 0, issuing: 0, calls: [(0, 0); 32] }
        })
        .collect();
    let mut shared = super::load::shared_region(loaded, spec.shared_bytes)?;
    let mut local: Vec<LocalMem> = (0..threads).map(|_| LocalMem::new(loaded.local_bytes)).collect();
    for cz in 0..spec.grid[2] {
        for cy in 0..spec.grid[1] {
            for cx in 0..spec.grid[0] {
                shared.data.fill(0);
                for l in local.iter_mut() {
                    l.reset();
                }
                let mut cta = Cta { shared: std::mem::replace(&mut shared, Region::new(0, Vec::new(), "shared")), local: std::mem::take(&mut local), ctaid: [cx, cy, cz], block: spec.block, loaded, bar_result: (0, true, false), bar_kind: 0 };
                for w in ws.iter_mut() {
                    w.p = [0; 32];
                    w.p[PT as usize] = u32::MAX;
                    w.p[UPT as usize] = u32::MAX;
                    w.b = [[0; 32]; 16];
                    w.groups.clear();
                    w.groups.push(Group { pc: 0, mask: w.all, wait: Wait::None, hz: 0, exclusive: 0 });
                    w.exited = 0;
                    w.bar_pred = 0;
                    w.hz.reset();
                }
                let result = run_cta(program, &mut cta, &mut ws, memory, options, counters);
                shared = cta.shared;
                local = cta.local;
                result?;
            }
        }
    }
    Ok(())
}

fn run_cta(program: &Program, cta: &mut Cta, ws: &mut [Warp], memory: &mut crate::interp::memory::GlobalMemory, options: &Options, counters: &mut Counters) -> Result<(), InterpError> {
    loop {
        let mut progressed = false;
        let mut live = false;
        for w in ws.iter_mut() {
            if w.groups.is_empty() {
                continue;
            }
            live = true;
            let n = run_warp(program, cta, w, memory, options, counters)?;
            progressed |= n > 0;
        }
        if !live {
            return Ok(());
        }
        if !progressed {
            // Every live thread waits at a CTA barrier: release it.
            let all_at_bar = ws.iter().all(|w| w.groups.iter().all(|g| g.wait == Wait::Bar));
            if !all_at_bar {
                let w = ws.iter().find(|w| w.groups.iter().any(|g| g.wait != Wait::Bar)).map_or(0, |w| w.first_thread);
                return Err(InterpError::new(ErrorKind::Deadlock, "threads wait at barriers that can never complete").in_thread(cta.ctaid, tid_of(cta.block, w)));
            }
            let (mut count, mut and, mut or) = (0u32, true, false);
            for w in ws.iter() {
                for g in &w.groups {
                    let m = g.mask & w.bar_pred;
                    count += m.count_ones();
                    and &= m == g.mask;
                    or |= m != 0;
                }
            }
            cta.bar_result = (count, and, or);
            for w in ws.iter_mut() {
                for g in &mut w.groups {
                    g.wait = Wait::None;
                    g.pc += 1;
                }
                merge(&mut w.groups, &mut w.hz);
            }
        }
    }
}

fn tid_of(block: [u32; 3], linear: u32) -> [u32; 3] {
    let bx = block[0].max(1);
    let by = block[1].max(1);
    [linear % bx, (linear / bx) % by, linear / (bx * by)]
}

/// Merges groups at the same PC with the same wait state.
pub(super) fn merge(groups: &mut Vec<Group>, hz: &mut GroupHazards) {
    if groups.len() < 2 {
        return;
    }
    let mut i = 0;
    while i < groups.len() {
        let mut j = i + 1;
        while j < groups.len() {
            if groups[j].pc == groups[i].pc && groups[j].wait == groups[i].wait && groups[i].exclusive == 0 && groups[j].exclusive == 0 {
                groups[i].mask |= groups[j].mask;
                hz.join(groups[i].hz, groups[j].hz);
                groups.swap_remove(j);
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}

/// Releases held threads whose condition now holds; with `force`, all.
pub(super) fn release(w: &mut Warp, force: bool) -> bool {
    let live = !w.exited & w.all;
    let mut any = false;
    // Threads held at a BSYNC of each barrier, and at any WARPSYNC: a BSYNC
    // of Bn lets go once every live thread of Bn waits at a BSYNC of Bn (not
    // merely at some convergence point: another path may still have to
    // finish its own inner reconvergence first).
    let mut at_bsync = [0u32; 16];
    let mut at_warpsync = 0u32;
    for g in &w.groups {
        match g.wait {
            Wait::Bsync(n) => at_bsync[usize::from(n & 15)] |= g.mask,
            Wait::Warpsync(_) => at_warpsync |= g.mask,
            _ => {}
        }
    }
    // A thread at a BSYNC of Bn goes on once every live thread of its Bn
    // waits at a BSYNC of Bn with the same Bn: a caller's threads held at
    // the BSYNC that a recursive callee's threads (their Bn saved, set to
    // their own mask) also reach wait for the callee's to return.
    let mut released = Vec::new();
    for (gi, g) in w.groups.iter().enumerate() {
        let go = match g.wait {
            Wait::Bsync(n) if !force => {
                let n = usize::from(n & 15);
                let bn = &w.b[n];
                lanes(g.mask).filter(|&l| {
                    let need = bn[l] & live;
                    need & !at_bsync[n] == 0 && lanes(need).all(|u| bn[u] == bn[l])
                }).fold(0u32, |m, l| m | 1 << l)
            }
            Wait::Warpsync(m) if !force => if m & live & !at_warpsync == 0 { g.mask } else { 0 },
            Wait::Bsync(_) | Wait::Warpsync(_) => g.mask,
            _ => 0,
        };
        if go != 0 {
            released.push((gi, go));
        }
    }
    for &(gi, go) in &released {
        let g = w.groups[gi];
        if go != g.mask {
            let hz = w.hz.split(g.hz);
            w.groups.push(Group { pc: g.pc, mask: g.mask & !go, wait: g.wait, hz, exclusive: 0 });
        }
        w.groups[gi].mask = go;
        w.groups[gi].wait = Wait::None;
        w.groups[gi].pc += 1;
        any = true;
    }
    if any {
        merge(&mut w.groups, &mut w.hz);
    }
    any
}

/// Runs one warp for up to a time slice; the number of instructions issued.
fn run_warp(program: &Program, cta: &mut Cta, w: &mut Warp, memory: &mut crate::interp::memory::GlobalMemory, options: &Options, counters: &mut Counters) -> Result<u32, InterpError> {
    let check = options.hazards != HazardCheck::Off;
    let budget = options.step_budget;
    let mut issued = 0u32;
    while issued < QUANTUM {
        // The runnable group with the lowest PC (a converged warp has one
        // group: no scan).
        let (gi, best) = match w.groups.as_slice() {
            [g] if g.wait == Wait::None => (0, g.pc),
            groups => {
                // A group inside a call ranks at its outermost call site:
                // it runs before the groups past that site (the threads
                // back from the call wait for those still in it, as the
                // caller's code after a `call.uni` expects) and before the
                // groups of other paths whose code lies below the callee
                // (the path that called keeps its convergence barriers
                // until it returns).
                let mut gi = usize::MAX;
                let mut best = (u32::MAX, u32::MAX);
                // The runnable exclusive group of the earliest turn first
                // (`Group::exclusive`).
                let exclusive = groups.iter().filter(|g| g.wait == Wait::None && g.exclusive != 0).map(|g| g.exclusive).min().unwrap_or(0);
                for (i, g) in groups.iter().enumerate() {
                    let (site, depth) = w.calls[(g.mask.trailing_zeros() & 31) as usize];
                    let key = (if depth > 0 { site } else { g.pc }, g.pc);
                    if g.wait == Wait::None && g.exclusive == exclusive && key < best {
                        best = key;
                        gi = i;
                    }
                }
                (gi, best.1)
            }
        };
        let Some(&Group { mask: group_mask, hz: group_hz, .. }) = w.groups.get(gi) else {
            if w.groups.is_empty() || w.groups.iter().all(|g| g.wait == Wait::Bar) {
                return Ok(issued);
            }
            if !release(w, false) && !release(w, true) {
                return Ok(issued);
            }
            continue;
        };
        let pc = best;
        if counters.steps >= budget {
            return Err(issue_error(cta, w, pc, group_mask, ErrorKind::StepBudget, format!("step budget of {budget} warp-instructions exhausted")));
        }
        counters.steps += 1;
        issued += 1;
        let Some(code) = program.code.get(pc as usize) else {
            return Err(issue_error(cta, w, pc, group_mask, ErrorKind::Malformed, "execution ran past the end of the function".into()));
        };
        let exec = group_mask & w.pm(code.guard);
        if check && let Some(hz) = w.hz.states.get_mut(usize::from(group_hz)) {
            let issued = if exec != 0 { hz.issue_lanes(&code.hz, code.ctrl, exec) } else { hz.issue_predicated_off(&code.hz, code.ctrl) };
            if let Err(message) = issued {
                let e = issue_error(cta, w, pc, group_mask, ErrorKind::Hazard, message);
                if options.hazards == HazardCheck::Fail {
                    return Err(e);
                }
                if counters.hazards.len() < 1000 {
                    counters.hazards.push(e);
                }
            }
        }
        if options.trace {
            trace(program, cta, w, pc, exec, options.trace_lane);
        }
        if let Err(e) = step(cta, w, gi, pc, exec, &code.op, memory) {
            return Err(located(cta, w, pc, if exec != 0 { exec } else { group_mask }, e));
        }
    }
    Ok(issued)
}

/// An error of issuing at `pc`, in the first thread of `mask` (out of line:
/// the issue loop keeps its registers).
#[cold]
#[inline(never)]
fn issue_error(cta: &Cta, w: &Warp, pc: u32, mask: u32, kind: ErrorKind, message: String) -> InterpError {
    InterpError::new(kind, message).at(site(cta, pc)).in_thread(cta.ctaid, tid_of(cta.block, w.first_thread + mask.trailing_zeros()))
}

/// An instruction's error with the site and thread filled in where it has
/// none (the first thread of `mask`).
#[cold]
#[inline(never)]
fn located(cta: &Cta, w: &Warp, pc: u32, mask: u32, e: InterpError) -> InterpError {
    let e = if e.site.is_none() { e.at(site(cta, pc)) } else { e };
    if e.thread.is_none() { e.in_thread(cta.ctaid, tid_of(cta.block, w.first_thread + mask.trailing_zeros())) } else { e }
}

fn trace(program: &Program, cta: &Cta, w: &Warp, pc: u32, exec: u32, lane: u8) {
    let text = program.insts.get(pc as usize).map_or_else(String::new, |i| i.text(cta.loaded.sm, u64::from(pc) * 16));
    let l = if lane < 32 && exec >> lane & 1 != 0 { usize::from(lane) } else { exec.trailing_zeros().min(31) as usize };
    let regs: Vec<String> = (0..24).map(|r| format!("{:x}", w.r[r][l])).collect();
    let preds: Vec<String> = (0..7).map(|p| format!("{}", w.p[p] >> l & 1)).collect();
    eprintln!("w{} {:04x} exec {exec:08x} {text:<50} lane {l} R0-23 {} P {}", w.first_thread / 32, pc * 16, regs.join(" "), preds.join(""));
}

fn site(cta: &Cta, pc: u32) -> Site {
    Site::Sass { function: cta.loaded.name.clone(), offset: pc.wrapping_mul(16) }
}

/// Advances the group to `pc + 1`, merging with a group already there.
#[inline(always)]
pub(super) fn advance(w: &mut Warp, gi: usize) {
    w.groups[gi].pc += 1;
    if w.groups.len() > 1 {
        merge_into(&mut w.groups, &mut w.hz, gi);
    }
}

/// Merges group `gi` with another group at the same PC and wait state
/// (only `gi` moved, so no other pair can have met).
#[inline(always)]
fn merge_into(groups: &mut Vec<Group>, hz: &mut GroupHazards, gi: usize) {
    let g = groups[gi];
    if let Some(j) = groups.iter().enumerate().position(|(j, o)| j != gi && o.pc == g.pc && o.wait == g.wait && o.exclusive == 0 && g.exclusive == 0) {
        groups[j].mask |= g.mask;
        hz.join(groups[j].hz, g.hz);
        groups.swap_remove(gi);
    }
}

/// Special register values.
pub(super) fn special(cta: &Cta, w: &Warp, sr: u8, l: usize, steps: u64) -> u32 {
    let t = w.first_thread + l as u32;
    let tid = tid_of(cta.block, t);
    let lane = l as u32;
    match sr {
        0x0 => lane,
        0x1 | 0x50 | 0x52 => steps as u32,
        0x51 | 0x53 => (steps >> 32) as u32,
        0x20 => tid[0] | tid[1] << 16 | tid[2] << 26,
        0x21..=0x23 => tid[(sr - 0x21) as usize],
        0x25..=0x27 => cta.ctaid[(sr - 0x25) as usize],
        // SR_SMEMSZ: the CTA's shared bytes and what the driver reserves.
        0x32 => cta.shared.data.len() as u32 + super::load::reserved_shared_word(u32::from(cta.loaded.sm.number)).map_or(0, |_| super::load::RESERVED_SHARED),
        0x2e => LOCAL_WINDOW_HI,
        0x2f => SHARED_WINDOW_HI,
        0x38 => 1 << lane,
        0x39 => (1u32 << lane) - 1,
        0x3a => ((1u64 << (lane + 1)) - 1) as u32,
        0x3b => !(((1u64 << (lane + 1)) - 1) as u32),
        0x3c => !((1u32 << lane) - 1),
        _ => 0,
    }
}

/// Executes one instruction for the lanes of `exec` of group `gi`: its
/// family's execution ([`super::ops`]), then the group advances (control
/// flow moves the group itself).
#[allow(clippy::too_many_arguments)]
fn step(cta: &mut Cta, w: &mut Warp, gi: usize, pc: u32, exec: u32, op: &Op, memory: &mut crate::interp::memory::GlobalMemory) -> Result<(), InterpError> {
    w.issuing = exec;
    match *op {
        Op::Nop => {}
        Op::Unsupported(ref m) => return Err(InterpError::new(ErrorKind::Unsupported, m.to_string())),
        Op::Control(ref op) => return super::ops::control::exec(cta, w, gi, pc, exec, op),
        Op::Int(ref op) => super::ops::int::exec(w, exec, op)?,
        Op::Bits(ref op) => super::ops::bits::exec(w, exec, op)?,
        Op::Compare(ref op) => super::ops::compare::exec(w, exec, op)?,
        Op::Float32(ref op) => super::ops::float32::exec(w, exec, op)?,
        Op::Float64(ref op) => super::ops::float64::exec(w, exec, op)?,
        Op::Half(ref op) => super::ops::half::exec(w, exec, op)?,
        Op::Convert(ref op) => super::ops::convert::exec(w, exec, op)?,
        Op::Special(ref op) => super::ops::special::exec(cta, w, pc, exec, op)?,
        Op::Memory(ref op) => super::ops::memory::exec(cta, w, exec, op, memory)?,
        Op::Warp(ref op) => super::ops::warp::exec(w, exec, op)?,
        Op::Texture(ref op) => super::ops::texture::exec(cta, w, exec, op, memory)?,
        Op::Mma(ref op) => super::ops::mma::exec(cta, w, exec, op, memory)?,
    }
    advance(w, gi);
    Ok(())
}

/// Holds the executing lanes of a group at a convergence point (the
/// guarded-off ones go on).
pub(super) fn hold(w: &mut Warp, gi: usize, exec: u32, wait: Wait) {
    let g = w.groups[gi];
    let rest = g.mask & !exec;
    w.groups[gi].mask = exec;
    w.groups[gi].wait = wait;
    w.groups[gi].exclusive = 0;
    if rest != 0 {
        let hz = w.hz.split(g.hz);
        w.groups.push(Group { pc: g.pc + 1, mask: rest, wait: Wait::None, hz, exclusive: g.exclusive });
    }
    merge(&mut w.groups, &mut w.hz);
    release(w, false);
}

pub(super) fn apply64(v: u64, m: u8) -> u64 {
    if m & NOT != 0 {
        !v
    } else if m & NEG != 0 {
        v.wrapping_neg()
    } else {
        v
    }
}

pub(super) fn int_to_f64(v: i128, mode: Round) -> f64 {
    let r = v as f64;
    if mode == Round::Nearest || r as i128 == v {
        return r;
    }
    let err = (v - r as i128) as f64;
    let up = |x: f64| if x == 0.0 { f64::from_bits(1) } else if x > 0.0 { f64::from_bits(x.to_bits() + 1) } else { f64::from_bits(x.to_bits() - 1) };
    let down = |x: f64| -up(-x);
    match mode {
        Round::Up if err > 0.0 => up(r),
        Round::Down if err < 0.0 => down(r),
        Round::Zero if (r > 0.0 && err < 0.0) || (r < 0.0 && err > 0.0) => if r > 0.0 { down(r) } else { up(r) },
        _ => r,
    }
}

/// Whether row `d` is a uniform register's (or its sink): the warp holds
/// one value there, which a uniform instruction writes whichever of the
/// warp's threads issue it (after divergent code, some only).
#[inline(always)]
fn uniform_row(d: u16) -> bool {
    (UR_BASE..CONST_BASE).contains(&d)
}

#[inline]
pub(super) fn fout(v: f32, ftz: bool, sat: bool) -> u32 {
    let v = if sat {
        // Clamped to [+0.0, 1.0]: NaN and -0.0 both give +0.0 (libdevice's
        // __nv_saturatef, which is this modifier, documents the interval as
        // [+0.0, 1.0] and NaN → 0; PTX ISA: NaN results flush to +0).
        if v.is_nan() || v <= 0.0 { 0.0 } else { v.min(1.0) }
    } else {
        v
    };
    let v = if ftz { num::ftz32(v) } else { v };
    canon32(v)
}

/// NaN results are the canonical NaN (0x7fffffff) on the hardware.
#[inline]
pub(super) fn canon32(v: f32) -> u32 {
    if v.is_nan() { 0x7fff_ffff } else { v.to_bits() }
}

#[inline]
pub(super) fn canon64(v: f64) -> u64 {
    if v.is_nan() { 0x7fff_ffff_ffff_ffff } else { v.to_bits() }
}

pub(super) fn fcmp(cmp: Cmp, x: f64, y: f64) -> bool {
    let unordered = x.is_nan() || y.is_nan();
    match cmp {
        0 => false,
        1 => x < y,
        2 => x == y,
        3 => x <= y,
        4 => x > y,
        5 => !unordered && x != y,
        6 => x >= y,
        7 => !unordered,
        8 => unordered,
        9 => unordered || x < y,
        10 => unordered || x == y,
        11 => unordered || x <= y,
        12 => unordered || x > y,
        13 => unordered || x != y,
        14 => unordered || x >= y,
        _ => true,
    }
}

/// The two predicate results of a comparison `r` combined with `pin`.
pub(super) fn combine(r: u32, pin: u32, bop: u8) -> (u32, u32) {
    match bop {
        0 => (r & pin, !r & pin),
        1 => (r | pin, !r | pin),
        _ => (r ^ pin, !r ^ pin),
    }
}

/// The addresses of the lanes of `exec` (the others are 0), with the
/// operand rows looked up once.
#[inline(always)]
pub(super) fn addresses(w: &Warp, a: &Addr, exec: u32) -> [u64; 32] {
    let row = |r: u16| w.r.get(r as usize).unwrap_or(&ZERO_ROW);
    let hi = |r: u16| if a.wide { r.checked_add(1).map_or(&ZERO_ROW, row) } else { &ZERO_ROW };
    let base_hi = if a.base32 { &ZERO_ROW } else { hi(a.base) };
    let (base_lo, ur_lo, ur_hi) = (row(a.base), row(a.ur), hi(a.ur));
    let keep = if a.wide { u64::MAX } else { 0xffff_ffff };
    let mut at = [0u64; 32];
    for l in lanes(exec) {
        let base = u64::from(base_lo[l]) | u64::from(base_hi[l]) << 32;
        let ur = u64::from(ur_lo[l]) | u64::from(ur_hi[l]) << 32;
        at[l] = (base << a.shift).wrapping_add(ur).wrapping_add(a.offset as i64 as u64) & keep;
    }
    at
}

#[inline(always)]
pub(super) fn address(w: &Warp, a: &Addr, l: usize) -> u64 {
    let base = if a.wide && !a.base32 { w.r64(S { r: a.base, m: 0 }, l) } else { u64::from(w.raw(S { r: a.base, m: 0 }, l)) };
    let ur = if a.wide { w.r64(S { r: a.ur, m: 0 }, l) } else { u64::from(w.raw(S { r: a.ur, m: 0 }, l)) };
    let v = (base << a.shift).wrapping_add(ur).wrapping_add(a.offset as i64 as u64);
    if a.wide { v } else { v & 0xffff_ffff }
}

pub(super) fn write_loaded(w: &mut Warp, d: u16, l: usize, bytes: &[u8], width: super::op::Width) {
    match bytes.len() {
        1 => w.set(d, l, if width.signed { bytes[0] as i8 as i32 as u32 } else { u32::from(bytes[0]) }),
        2 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]);
            w.set(d, l, if width.signed { v as i16 as i32 as u32 } else { u32::from(v) });
        }
        n => {
            for k in 0..n / 4 {
                let v = u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
                w.set(d + k as u16, l, v);
            }
        }
    }
}

/// Resolves a generic address to a space and address within it.
pub(super) fn resolve(space: Space, at: u64) -> (Space, u64) {
    if space != Space::Generic {
        return (space, at);
    }
    match (at >> 32) as u32 {
        SHARED_WINDOW_HI => (Space::Shared, at & 0xffff_ffff),
        LOCAL_WINDOW_HI => (Space::Local, at & 0xffff_ffff),
        _ => (Space::Global, at),
    }
}

/// One thread's local memory: `size` bytes of which only the top part the
/// thread has touched is stored (the stack and frames grow down from the
/// top, where the initial stack pointer points), zero until written. A
/// recursive kernel's driver-sized stack so costs only what it uses.
#[derive(Clone, Debug)]
pub(super) struct LocalMem {
    size: u64,
    /// The bytes `[size - data.len(), size)`.
    data: Vec<u8>,
}

impl LocalMem {
    fn new(size: u32) -> LocalMem {
        LocalMem { size: u64::from(size), data: Vec::new() }
    }

    /// Back to all zeros (a new CTA).
    fn reset(&mut self) {
        self.data.fill(0);
    }

    /// The word at `at` when it is aligned and already stored (the fast
    /// path of stack traffic); `None` sends the access to
    /// [`LocalMem::bytes`], which materializes or faults.
    #[inline(always)]
    pub(super) fn word(&self, at: u64) -> Option<u32> {
        let off = self.stored_word(at)?;
        let b = self.data.get(off..off + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Writes the word at `at` when it is aligned and already stored;
    /// `false` (nothing written) sends the access to [`LocalMem::bytes`].
    #[inline(always)]
    pub(super) fn set_word(&mut self, at: u64, v: u32) -> bool {
        let Some(off) = self.stored_word(at) else { return false };
        match self.data.get_mut(off..off + 4) {
            Some(b) => {
                b.copy_from_slice(&v.to_le_bytes());
                true
            }
            None => false,
        }
    }

    /// The offset in `data` of an aligned word that lies wholly in it.
    #[inline(always)]
    fn stored_word(&self, at: u64) -> Option<usize> {
        let base = self.size - self.data.len() as u64;
        if at & 3 != 0 || at < base || at.checked_add(4)? > self.size {
            return None;
        }
        Some((at - base) as usize)
    }

    /// The `n` bytes at `at`, checked and materialized.
    fn bytes(&mut self, at: u64, n: usize, align: u64) -> Result<&mut [u8], InterpError> {
        if align > 1 && at % align != 0 {
            return Err(fault(MemFault { address: at, size: n as u64, kind: FaultKind::Misaligned, space: "local" }));
        }
        if at.checked_add(n as u64).is_none_or(|e| e > self.size) {
            return Err(fault(MemFault { address: at, size: n as u64, kind: FaultKind::OutOfBounds, space: "local" }));
        }
        let base = self.size - self.data.len() as u64;
        if at < base {
            // Grow downward at least geometrically (amortized copies).
            let want = (self.size - at).max(2 * self.data.len() as u64).max(256).min(self.size);
            let mut grown = vec![0u8; (want - self.data.len() as u64) as usize];
            grown.extend_from_slice(&self.data);
            self.data = grown;
        }
        let off = (at - (self.size - self.data.len() as u64)) as usize;
        Ok(&mut self.data[off..off + n])
    }
}

pub(super) fn read_mem(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, space: Space, thread: usize, at: u64, out: &mut [u8]) -> Result<(), InterpError> {
    let n = out.len();
    let align = n.min(16) as u64;
    match resolve(space, at) {
        (Space::Global | Space::Generic, a) => out.copy_from_slice(memory.read(a, n, align).map_err(fault)?),
        (Space::Shared, a) => out.copy_from_slice(cta.shared.read(a, n, align, "shared").map_err(fault)?),
        (Space::Local, a) => out.copy_from_slice(local_of(cta, thread)?.bytes(a, n, align)?),
    }
    Ok(())
}

pub(super) fn write_mem(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, space: Space, thread: usize, at: u64, bytes: &[u8]) -> Result<(), InterpError> {
    let n = bytes.len();
    let align = n.min(16) as u64;
    match resolve(space, at) {
        (Space::Global | Space::Generic, a) => memory.write(a, bytes, align).map_err(fault)?,
        (Space::Shared, a) => cta.shared.write(a, bytes, align, "shared").map_err(fault)?,
        (Space::Local, a) => local_of(cta, thread)?.bytes(a, n, align)?.copy_from_slice(bytes),
    }
    Ok(())
}

fn local_of<'a>(cta: &'a mut Cta, thread: usize) -> Result<&'a mut LocalMem, InterpError> {
    cta.local.get_mut(thread).ok_or_else(|| InterpError::new(ErrorKind::Malformed, "thread index out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturation_gives_positive_zero_for_nan_and_negative_zero() {
        // fast_math.fast_intrinsics: __saturatef(-2.108 * 0.0) is -0.0
        // before saturation; NaN products saturate to +0.0.
        assert_eq!(fout(-0.0, false, true), 0);
        assert_eq!(fout(f32::NAN, false, true), 0);
        assert_eq!(fout(-3.0, false, true), 0);
        assert_eq!(fout(0.25, false, true), 0x3e80_0000);
        assert_eq!(fout(7.0, false, true), 0x3f80_0000);
        assert_eq!(fout(-0.0, false, false), 0x8000_0000);
    }

    #[test]
    fn lane_masks_pack_one_bit_per_lane() {
        // Bit by bit, as a plain loop would build them.
        for seed in [0u32, 1, 0x8000_0000, 0xdead_beef, 0x1234_5678, u32::MAX, 0x0f0f_00ff] {
            assert_eq!(mask_of(|l| seed >> l & 1 == 1), seed);
        }
        assert_eq!(mask_of(|l| l % 3 == 0), 0x4924_9249);
    }

    #[test]
    fn local_memory_grows_down_and_reads_zero() {
        let mut m = LocalMem::new(4096);
        m.bytes(4092, 4, 4).map(|b| b.copy_from_slice(&[1, 2, 3, 4])).ok();
        assert_eq!(m.bytes(16, 4, 4).map(|b| b.to_vec()).ok(), Some(vec![0; 4]));
        assert_eq!(m.bytes(4092, 4, 4).map(|b| b.to_vec()).ok(), Some(vec![1, 2, 3, 4]));
        assert!(m.bytes(4094, 4, 2).is_err(), "past the end");
        assert!(m.bytes(2, 4, 4).is_err(), "misaligned");
        m.reset();
        assert_eq!(m.bytes(4092, 4, 4).map(|b| b.to_vec()).ok(), Some(vec![0; 4]));
    }

    #[test]
    fn local_word_fast_path_only_takes_stored_aligned_words() {
        let mut m = LocalMem::new(4096);
        assert_eq!(m.word(4092), None, "nothing stored yet");
        assert!(!m.set_word(4092, 7), "nothing stored yet");
        m.bytes(4092, 4, 4).map(|b| b.copy_from_slice(&[0x78, 0x56, 0x34, 0x12])).ok();
        assert_eq!(m.word(4092), Some(0x1234_5678));
        assert!(m.set_word(4092, 0xdead_beef));
        assert_eq!(m.bytes(4092, 4, 4).map(|b| b.to_vec()).ok(), Some(vec![0xef, 0xbe, 0xad, 0xde]));
        // Stored (the first touch materialized at least 256 bytes) but
        // misaligned, or past the end: the general path decides.
        assert_eq!(m.word(4090), None);
        assert!(!m.set_word(4094, 1));
        assert_eq!(m.word(4096), None);
        assert_eq!(m.word(u64::MAX - 3), None);
        assert_eq!(m.word(3840), Some(0), "materialized below the first touch");
        assert_eq!(m.word(16), None, "not materialized");
    }
}
