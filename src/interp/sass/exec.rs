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
enum Wait {
    None,
    Bsync(u8),
    Warpsync(u32),
    Bar,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    pc: u32,
    mask: u32,
    wait: Wait,
    /// The group's hazard state in [`Warp::hz`].
    hz: u16,
}

/// The hazard checker's states of a warp's thread groups, by
/// [`Group::hz`]. With checking off every group names state 0 and nothing
/// is copied or joined (the issue loop pays nothing for divergence).
struct GroupHazards {
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
    fn split(&mut self, from: u16) -> u16 {
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
    fn drop_state(&mut self, id: u16) {
        if self.on && usize::from(id) < self.states.len() && !self.free.contains(&id) {
            self.free.push(id);
        }
    }
}

struct Warp {
    r: Vec<[u32; 32]>,
    /// Predicate rows (the array is a power of two long so that a masked
    /// index needs no bounds check; rows past [`PRED_ROWS`] are unused).
    p: [u32; 32],
    /// Convergence barriers, each thread's own value (`b[n][lane]`): paths
    /// that diverged set the same Bn for their own threads (ptxas reuses a
    /// barrier in both arms of an if/else, and a recursive callee saves,
    /// sets and restores its caller's), so one warp-wide value would let
    /// one path's BSSY overwrite the other's.
    b: [[u32; 32]; 16],
    groups: Vec<Group>,
    exited: u32,
    all: u32,
    first_thread: u32,
    hz: GroupHazards,
    /// Each thread's input to the CTA barrier reduction it waits at.
    bar_pred: u32,
    /// The lanes of the instruction being executed: a uniform register
    /// or predicate it writes takes its first lane's value in the others
    /// (one value for the warp, whichever of its threads issue it).
    issuing: u32,
    /// Per lane: the instruction index of its outermost active CALL and
    /// how many calls deep it is (0: not in a call).
    calls: [(u32, u16); 32],
}

/// What the CTA shares.
struct Cta<'a> {
    shared: Region,
    local: Vec<LocalMem>,
    ctaid: [u32; 3],
    block: [u32; 3],
    loaded: &'a Loaded,
    bar_result: (u32, bool, bool),
    bar_kind: u8,
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
static ZERO_ROW: [u32; 32] = [0; 32];

/// Bit `l` of a lane mask, by lane.
const LANE_BITS: [u32; 32] = {
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
fn mask_of(f: impl Fn(usize) -> bool) -> u32 {
    let mut m = 0u32;
    for (l, &bit) in LANE_BITS.iter().enumerate() {
        m |= bit & u32::from(f(l)).wrapping_neg();
    }
    m
}

#[inline]
fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
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
type Tmp = std::mem::MaybeUninit<[u32; 32]>;

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
    fn ri(&self, s: S, l: usize) -> u32 {
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
    fn src<'a>(&'a self, s: S, tmp: &'a mut Tmp) -> &'a [u32; 32] {
        let row = self.r.get(s.r as usize).unwrap_or(&ZERO_ROW);
        if s.m & (NOT | NEG) == 0 {
            return row;
        }
        let not = s.m & NOT != 0;
        tmp.write(std::array::from_fn(|l| if not { !row[l] } else { row[l].wrapping_neg() }))
    }
    /// Copies the lanes of `exec` of row `a` into row `d` (no temporary).
    #[inline(always)]
    fn copy_row(&mut self, d: u16, a: u16, exec: u32) {
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
    fn row(&self, r: u16) -> [u32; 32] {
        self.r.get(r as usize).copied().unwrap_or([0; 32])
    }
    /// Writes the lanes of `exec` of row `d` from `out`.
    #[inline(always)]
    fn put(&mut self, d: u16, exec: u32, out: &[u32; 32]) {
        let Some(dst) = self.r.get_mut(d as usize) else { return };
        if uniform_row(d) && exec != 0 {
            *dst = [out[exec.trailing_zeros() as usize]; 32];
        }
        blend(dst, out, exec);
    }
    #[inline]
    fn raw(&self, s: S, l: usize) -> u32 {
        self.r[s.r as usize][l]
    }
    #[inline]
    fn rf(&self, s: S, l: usize) -> f32 {
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
    fn halves(&self, s: S, l: usize) -> [u16; 2] {
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
    fn r64(&self, s: S, l: usize) -> u64 {
        let r = s.r as usize;
        let lo = self.r[r][l];
        let hi = self.r.get(r + 1).map_or(0, |row| row[l]);
        u64::from(lo) | u64::from(hi) << 32
    }
    #[inline]
    fn rd(&self, s: S, l: usize) -> f64 {
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
    fn pm(&self, p: P) -> u32 {
        let v = self.p[usize::from(p.r & 31)];
        if p.not { !v } else { v }
    }
    #[inline]
    fn set(&mut self, d: u16, l: usize, v: u32) {
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
    fn set64(&mut self, d: u16, l: usize, v: u64) {
        self.set(d, l, v as u32);
        self.set(d.saturating_add(1), l, (v >> 32) as u32);
    }
    #[inline]
    fn setp(&mut self, d: u8, mask: u32, v: u32) {
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

fn fault(f: MemFault) -> InterpError {
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
                    w.groups.push(Group { pc: 0, mask: w.all, wait: Wait::None, hz: 0 });
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
fn merge(groups: &mut Vec<Group>, hz: &mut GroupHazards) {
    if groups.len() < 2 {
        return;
    }
    let mut i = 0;
    while i < groups.len() {
        let mut j = i + 1;
        while j < groups.len() {
            if groups[j].pc == groups[i].pc && groups[j].wait == groups[i].wait {
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
fn release(w: &mut Warp, force: bool) -> bool {
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
            w.groups.push(Group { pc: g.pc, mask: g.mask & !go, wait: g.wait, hz });
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
                for (i, g) in groups.iter().enumerate() {
                    let (site, depth) = w.calls[(g.mask.trailing_zeros() & 31) as usize];
                    let key = (if depth > 0 { site } else { g.pc }, g.pc);
                    if g.wait == Wait::None && key < best {
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
            let issued = if exec != 0 { hz.issue_ctrl(&code.hz, code.ctrl) } else { hz.issue_predicated_off(&code.hz, code.ctrl) };
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
            trace(program, cta, w, pc, exec);
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

fn trace(program: &Program, cta: &Cta, w: &Warp, pc: u32, exec: u32) {
    let text = program.insts.get(pc as usize).map_or_else(String::new, |i| i.text(cta.loaded.sm, u64::from(pc) * 16));
    let l = exec.trailing_zeros().min(31) as usize;
    let regs: Vec<String> = (0..24).map(|r| format!("{:x}", w.r[r][l])).collect();
    let preds: Vec<String> = (0..7).map(|p| format!("{}", w.p[p] >> l & 1)).collect();
    eprintln!("w{} {:04x} exec {exec:08x} {text:<50} R0-23 {} P {}", w.first_thread / 32, pc * 16, regs.join(" "), preds.join(""));
}

fn site(cta: &Cta, pc: u32) -> Site {
    Site::Sass { function: cta.loaded.name.clone(), offset: pc.wrapping_mul(16) }
}

/// Advances the group to `pc + 1`, merging with a group already there.
#[inline(always)]
fn advance(w: &mut Warp, gi: usize) {
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
    if let Some(j) = groups.iter().enumerate().position(|(j, o)| j != gi && o.pc == g.pc && o.wait == g.wait) {
        groups[j].mask |= g.mask;
        hz.join(groups[j].hz, g.hz);
        groups.swap_remove(gi);
    }
}

/// Moves the lanes of group `gi` to per-lane targets (instruction indices).
fn jump_lanes(w: &mut Warp, gi: usize, exec: u32, target: impl Fn(&Warp, usize) -> u32) {
    let g = w.groups[gi];
    // At most one target per lane: a fixed array, no allocation.
    let mut moved = [(0u32, 0u32); 32];
    let mut n = 0;
    for l in lanes(exec) {
        let t = target(w, l);
        match moved[..n].iter_mut().find(|(pc, _)| *pc == t) {
            Some((_, m)) => *m |= 1 << l,
            None => {
                if let Some(slot) = moved.get_mut(n) {
                    *slot = (t, 1 << l);
                    n += 1;
                }
            }
        }
    }
    let rest = g.mask & !exec;
    w.groups.swap_remove(gi);
    // The first group out keeps the parent's hazard state, the others copy it.
    let mut parent = Some(g.hz);
    let mut state = |hz: &mut GroupHazards| parent.take().unwrap_or_else(|| hz.split(g.hz));
    if rest != 0 {
        let hz = state(&mut w.hz);
        w.groups.push(Group { pc: g.pc + 1, mask: rest, wait: Wait::None, hz });
    }
    for &(pc, mask) in &moved[..n] {
        let hz = state(&mut w.hz);
        w.groups.push(Group { pc, mask, wait: Wait::None, hz });
    }
    merge(&mut w.groups, &mut w.hz);
}

/// Special register values.
fn special(cta: &Cta, w: &Warp, sr: u8, l: usize, steps: u64) -> u32 {
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

/// Executes one instruction for the lanes of `exec` of group `gi`.
#[allow(clippy::too_many_arguments)]
fn step(cta: &mut Cta, w: &mut Warp, gi: usize, pc: u32, exec: u32, op: &Op, memory: &mut crate::interp::memory::GlobalMemory) -> Result<(), InterpError> {
    w.issuing = exec;
    match *op {
        Op::Nop => {}
        Op::Unsupported(ref m) => return Err(InterpError::new(ErrorKind::Unsupported, m.to_string())),
        Op::Exit => {
            if exec != 0 {
                w.exited |= exec;
                let g = &mut w.groups[gi];
                g.mask &= !exec;
                if g.mask == 0 {
                    let gone = w.groups.swap_remove(gi);
                    w.hz.drop_state(gone.hz);
                    if !w.groups.is_empty() {
                        release(w, false);
                    }
                    return Ok(());
                }
                release(w, false);
                // `gi` may have moved after a release; find the group at pc again.
                if let Some(i) = w.groups.iter().position(|g| g.pc == pc && g.wait == Wait::None) {
                    advance(w, i);
                }
                return Ok(());
            }
        }
        Op::Trap => {
            if exec != 0 {
                return Err(InterpError::new(ErrorKind::Trap, "BPT.TRAP executed"));
            }
        }
        Op::Mov { d, a, n } => {
            for k in 0..u16::from(n) {
                w.copy_row(d + k, a.r + k, exec);
            }
        }
        Op::Iadd3 { d, co: [P_SINK, P_SINK], a, b, c, ci: None } => {
            // No carry out wanted: 32-bit wrapping sums (-x is 2^32 - x).
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (x, y, z) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            for l in 0..32 {
                out[l] = x[l].wrapping_add(y[l]).wrapping_add(z[l]);
            }
            w.put(d, exec, &out);
        }
        Op::Iadd3 { d, co, a, b, c, ci } => {
            // A negated operand enters as 2^32 - x (as 33 bits), so a
            // subtraction carries (does not borrow) exactly when bit 32 is set.
            let wide = |s: S, row: [u32; 32]| -> [u64; 32] {
                let mut o = [0u64; 32];
                for (x, &v) in o.iter_mut().zip(row.iter()) {
                    *x = if s.m & NEG != 0 {
                        u64::from(!v) + 1
                    } else if s.m & NOT != 0 {
                        u64::from(!v)
                    } else {
                        u64::from(v)
                    };
                }
                o
            };
            let (x, y, z) = (wide(a, w.row(a.r)), wide(b, w.row(b.r)), wide(c, w.row(c.r)));
            let (p, q) = ci.map_or((0, 0), |[p, q]| (w.pm(p), w.pm(q)));
            let mut sums = [0u64; 32];
            for l in 0..32 {
                sums[l] = x[l] + y[l] + z[l] + u64::from(p & LANE_BITS[l] != 0) + u64::from(q & LANE_BITS[l] != 0);
            }
            let mut out = [0u32; 32];
            for l in 0..32 {
                out[l] = sums[l] as u32;
            }
            let c0 = mask_of(|l| iadd3_carry_preds(sums[l]).0);
            let c1 = mask_of(|l| iadd3_carry_preds(sums[l]).1);
            w.put(d, exec, &out);
            w.setp(co[0], exec, c0);
            w.setp(co[1], exec, c1);
        }
        Op::Uiadd3x64 { d, a, b, c } => {
            for l in lanes(exec) {
                let x = |s: S| if s.m & NEG != 0 { w.r64(s, l).wrapping_neg() } else { w.r64(s, l) };
                let v = x(a).wrapping_add(x(b)).wrapping_add(x(c));
                w.set64(d, l, v);
            }
        }
        Op::Iadd64 { d, co, a, b, ci, wide } => {
            let mut cm = 0u32;
            let cin = ci.map(|p| w.pm(p));
            for l in lanes(exec) {
                let x = |s: S| -> u128 {
                    let v = if wide { w.r64(s, l) } else { u64::from(w.raw(s, l)) };
                    let bits = if wide { 64 } else { 32 };
                    let m = num::mask(bits) as u128;
                    if s.m & NEG != 0 {
                        ((!u128::from(v)) & m) + 1
                    } else if s.m & NOT != 0 {
                        (!u128::from(v)) & m
                    } else {
                        u128::from(v)
                    }
                };
                let mut sum = x(a) + x(b);
                if let Some(p) = cin {
                    sum += u128::from(p >> l & 1);
                }
                let bits = if wide { 64 } else { 32 };
                let carry = sum >> bits;
                if wide {
                    w.set64(d, l, sum as u64);
                } else {
                    w.set(d, l, sum as u32);
                }
                cm |= ((carry & 1) as u32) << l;
            }
            w.setp(co, exec, cm);
        }
        Op::Imad { d, a, b, c, signed, kind: 0, co: _, ci } => {
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (x, y, z) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            // The low word of the product is the same signed or unsigned.
            let _ = signed;
            for l in 0..32 {
                out[l] = x[l].wrapping_mul(y[l]).wrapping_add(z[l]).wrapping_add(u32::from(cin & LANE_BITS[l] != 0));
            }
            w.put(d, exec, &out);
        }
        Op::Imad { d, a, b, c: c @ S { m: 0, .. }, signed: false, kind: 1, co: P_SINK, ci: None } => {
            // IMAD.WIDE.U32 with no carry in or out (address arithmetic):
            // a·b + c as 64-bit sums, rows borrowed.
            let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
            let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
            let clo = w.r.get(c.r as usize).unwrap_or(&ZERO_ROW);
            let chi = w.r.get(c.r.saturating_add(1) as usize).unwrap_or(&ZERO_ROW);
            let mut lo = [0u32; 32];
            let mut hi = [0u32; 32];
            for l in 0..32 {
                let sum = (u64::from(x[l]) * u64::from(y[l])).wrapping_add(u64::from(clo[l]) | u64::from(chi[l]) << 32);
                lo[l] = sum as u32;
                hi[l] = (sum >> 32) as u32;
            }
            w.put(d, exec, &lo);
            w.put(d.saturating_add(1), exec, &hi);
        }
        Op::Imad { d, a, b, c, signed: false, kind: 1, co, ci } => {
            // IMAD.WIDE.U32 over whole rows: a·b + c (a register pair) + carry.
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
            let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
            let (clo, chi) = (w.row(c.r), w.row(c.r.saturating_add(1)));
            let mut lo = [0u32; 32];
            let mut hi = [0u32; 32];
            let mut carry = [false; 32];
            for l in 0..32 {
                let cv = apply64(u64::from(clo[l]) | u64::from(chi[l]) << 32, c.m);
                let (s1, o1) = (u64::from(x[l]) * u64::from(y[l])).overflowing_add(cv);
                let (s2, o2) = s1.overflowing_add(u64::from(cin & LANE_BITS[l] != 0));
                lo[l] = s2 as u32;
                hi[l] = (s2 >> 32) as u32;
                carry[l] = o1 | o2;
            }
            w.put(d, exec, &lo);
            w.put(d.saturating_add(1), exec, &hi);
            w.setp(co, exec, mask_of(|l| carry[l]));
        }
        Op::Imad { d, a, b, c, signed, kind, co, ci } => {
            let cin = ci.map(|p| w.pm(p));
            let mut cm = 0u32;
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let cy = u64::from(cin.is_some_and(|p| p >> l & 1 == 1));
                let prod: u64 = if signed { (i64::from(x as i32) * i64::from(y as i32)) as u64 } else { u64::from(x) * u64::from(y) };
                let cv = apply64(w.r64(c, l), c.m);
                let full = u128::from(prod) + u128::from(cv) + u128::from(cy);
                if kind == 1 {
                    w.set64(d, l, full as u64);
                    cm |= ((full >> 64) as u32 & 1) << l;
                } else {
                    // (a * b + c.64) >> 32, c being the register pair.
                    let (v, carry) = imad_hi(full);
                    w.set(d, l, v);
                    cm |= u32::from(carry) << l;
                }
            }
            w.setp(co, exec, cm);
        }
        Op::Lea { d, co, a, b, c, s, hi, sx, ci } => {
            let cin = ci.map_or(0, |p| w.pm(p));
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (av, bv, cv) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            let mut out = [0u32; 32];
            let mut cm = 0u32;
            for l in 0..32 {
                let shifted: u32 = if hi {
                    let high = if sx { ((av[l] as i32) >> 31) as u32 } else { cv[l] };
                    let v = (u64::from(high) << 32 | u64::from(av[l])) << s;
                    (v >> 32) as u32
                } else {
                    ((u64::from(av[l])) << s) as u32
                };
                let sum = u64::from(shifted) + u64::from(bv[l]) + u64::from(cin >> l & 1);
                out[l] = sum as u32;
                cm |= ((sum >> 32) as u32 & 1) << l;
            }
            w.put(d, exec, &out);
            w.setp(co, exec, cm);
        }
        Op::IaddSat { d, a, b } => {
            // A negated source is negated before the clamp, in the wider
            // range: ptxas's `sub.sat.s32 d, a, b` is `VIADD.S32.ISAT d,
            // a, -b`, and a - i32::MIN clamps to i32::MAX (wrapping the
            // negation first gave a + i32::MIN).
            let value = |s: S, l: usize| -> i64 {
                let v = i64::from(w.r.get(s.r as usize).unwrap_or(&ZERO_ROW)[l] as i32);
                if s.m & NOT != 0 {
                    !v
                } else if s.m & NEG != 0 {
                    -v
                } else {
                    v
                }
            };
            let out: [u32; 32] = std::array::from_fn(|l| (value(a, l) + value(b, l)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32);
            w.put(d, exec, &out);
        }
        Op::Lop3 { d, pd, a, b, c, lut, pin } => {
            let pinm = w.pm(pin);
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let v = lop3_rows(w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc), lut);
            let nz = mask_of(|l| v[l] != 0);
            w.put(d, exec, &v);
            w.setp(pd, exec, nz | pinm);
        }
        Op::Plop3 { d, a, b, c, lut } => {
            let (x, y, z) = (w.pm(a), w.pm(b), w.pm(c));
            w.setp(d[0], exec, lop3(x, y, z, lut[0]));
            w.setp(d[1], exec, lop3(x, y, z, lut[1]));
        }
        Op::Plop3Sign { d, a, b, c, lut } => {
            let sign = |s: S| mask_of(|l| w.raw(s, l) >> 31 == 1);
            let (x, y, z) = (sign(a), sign(b), sign(c));
            w.setp(d[0], exec, lop3(x, y, z, lut[0]));
            w.setp(d[1], exec, lop3(x, y, z, lut[1]));
        }
        Op::Sel { d, a, b, p, n } => {
            let pm = w.pm(p);
            for k in 0..u16::from(n) {
                let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
                let (x, y) = (w.src(S { r: a.r + k, m: 0 }, &mut ta), w.src(S { r: b.r + k, m: 0 }, &mut tb));
                let mut out = [0u32; 32];
                for l in 0..32 {
                    let m = u32::from(pm & LANE_BITS[l] != 0).wrapping_neg();
                    out[l] = (x[l] & m) | (y[l] & !m);
                }
                w.put(d + k, exec, &out);
            }
        }
        Op::Fsel { d, a, b, p } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let v = if pm >> l & 1 == 1 { w.rf(a, l) } else { w.rf(b, l) };
                w.set(d, l, v.to_bits());
            }
        }
        Op::Shf { d, a, b, c, left, hi, wrap, bits64, signed } => {
            let (mut ta, mut tb, mut tc) = (Tmp::uninit(), Tmp::uninit(), Tmp::uninit());
            let (av, bv, cv) = (w.src(a, &mut ta), w.src(b, &mut tb), w.src(c, &mut tc));
            // One loop per shape, each free of per-lane shape tests.
            let out = match (left, hi, wrap, bits64, signed) {
                (true, false, false, false, _) => shf_rows::<true, false, false, false, false>(av, bv, cv),
                (true, true, false, false, _) => shf_rows::<true, true, false, false, false>(av, bv, cv),
                (true, false, true, false, _) => shf_rows::<true, false, true, false, false>(av, bv, cv),
                (true, true, true, false, _) => shf_rows::<true, true, true, false, false>(av, bv, cv),
                (false, false, false, false, false) => shf_rows::<false, false, false, false, false>(av, bv, cv),
                (false, true, false, false, false) => shf_rows::<false, true, false, false, false>(av, bv, cv),
                (false, false, false, true, false) => shf_rows::<false, false, false, true, false>(av, bv, cv),
                (false, true, false, true, false) => shf_rows::<false, true, false, true, false>(av, bv, cv),
                (false, false, false, false, true) => shf_rows::<false, false, false, false, true>(av, bv, cv),
                (false, true, false, false, true) => shf_rows::<false, true, false, false, true>(av, bv, cv),
                (false, false, false, true, true) => shf_rows::<false, false, false, true, true>(av, bv, cv),
                (false, true, false, true, true) => shf_rows::<false, true, false, true, true>(av, bv, cv),
                (l, h, wr, b64, sg) => shf_rows_any(av, bv, cv, l, h, wr, b64, sg),
            };
            w.put(d, exec, &out);
        }
        Op::Prmt { d, a, b, c, mode } => {
            for l in lanes(exec) {
                let (x, sel, y) = (w.ri(a, l), w.ri(b, l), w.ri(c, l));
                w.set(d, l, prmt(x, sel, y, mode));
            }
        }
        Op::Fset { d, a, b, cmp, ftz, bop, pin } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            for l in lanes(exec) {
                let (mut x, mut y) = (w.rf(a, l), w.rf(b, l));
                if ftz {
                    x = num::ftz32(x);
                    y = num::ftz32(y);
                }
                r |= u32::from(fcmp(cmp, f64::from(x), f64::from(y))) << l;
            }
            let (hold, _) = combine(r, pinm, bop);
            for l in lanes(exec) {
                w.set(d, l, if hold >> l & 1 == 1 { 1.0f32.to_bits() } else { 0 });
            }
        }
        Op::Iabs { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                w.set(d, l, (v as i32).unsigned_abs());
            }
        }
        Op::Popc { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l).count_ones();
                w.set(d, l, v);
            }
        }
        Op::Brev { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l).reverse_bits();
                w.set(d, l, v);
            }
        }
        Op::Flo { d, a, signed, sh } => {
            for l in lanes(exec) {
                let mut v = w.ri(a, l);
                if signed && (v as i32) < 0 {
                    v = !v;
                }
                let r = if v == 0 {
                    u32::MAX
                } else if sh {
                    v.leading_zeros()
                } else {
                    31 - v.leading_zeros()
                };
                w.set(d, l, r);
            }
        }
        Op::Sgxt { d, a, b, wrap, signed } => {
            for l in lanes(exec) {
                let (v, n) = (w.ri(a, l), w.ri(b, l));
                let n = if wrap { n & 31 } else { n.min(32) };
                let r = if n == 0 {
                    0
                } else if n >= 32 {
                    v
                } else if signed {
                    (((v << (32 - n)) as i32) >> (32 - n)) as u32
                } else {
                    v & ((1u32 << n) - 1)
                };
                w.set(d, l, r);
            }
        }
        Op::Imnmx { d, a, b, p, signed } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let min = pm >> l & 1 == 1;
                let r = if signed {
                    let (x, y) = (x as i32, y as i32);
                    (if min { x.min(y) } else { x.max(y) }) as u32
                } else if min {
                    x.min(y)
                } else {
                    x.max(y)
                };
                w.set(d, l, r);
            }
        }
        Op::Viaddmnmx { d, a, b, c, p, signed } => {
            // The sum wraps (PTX's add, which ptxas fuses into it, does).
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l).wrapping_add(w.ri(b, l)), w.ri(c, l));
                let min = pm >> l & 1 == 1;
                let flip = if signed { 0x8000_0000 } else { 0 };
                let less = (x ^ flip) < (y ^ flip);
                w.set(d, l, if less == min { x } else { y });
            }
        }
        Op::MinMax { d, srcs, count, add, p, half, signed, relu } => {
            let pm = w.pm(p);
            let (parts, bits) = if half { (2, 16) } else { (1, 32) };
            let mask = if half { 0xffff_u64 } else { 0xffff_ffff };
            // A lane's field as a number: sign-extended when signed.
            let value = |x: u64| -> i64 { if signed { ((x << (64 - bits)) as i64) >> (64 - bits) } else { x as i64 } };
            for l in lanes(exec) {
                let v = srcs.map(|s| u64::from(w.ri(s, l)));
                let min = pm >> l & 1 == 1;
                let mut out = 0u64;
                for k in 0..parts {
                    let field = |x: u64| x >> (bits * k) & mask;
                    let vals: [i64; 3] = if add {
                        [value((field(v[0]) + field(v[1])) & mask), value(field(v[2])), value(field(v[2]))]
                    } else {
                        [value(field(v[0])), value(field(v[1])), value(field(v[if count == 3 { 2 } else { 1 }]))]
                    };
                    let mut r = if min { vals.iter().min() } else { vals.iter().max() }.copied().unwrap_or(0);
                    if relu {
                        r = r.max(0);
                    }
                    out |= (r as u64 & mask) << (bits * k);
                }
                w.set(d, l, out as u32);
            }
        }
        Op::Vabsdiff { d, a, b, c, signed } => {
            for l in lanes(exec) {
                let (x, y) = (w.ri(a, l), w.ri(b, l));
                let diff = if signed { (x as i32).abs_diff(y as i32) } else { x.abs_diff(y) };
                w.set(d, l, diff.wrapping_add(w.ri(c, l)));
            }
        }
        Op::P2r { d, a, mask, byte, uniform } => {
            // PR: P0…P6 in bits 0–6 (bit 7 and up read as clear: not
            // measured); UP2UR's UPR: UP0…UP6.
            let first = if uniform { usize::from(UP_BASE) } else { 0 };
            for l in lanes(exec) {
                let pr = (0..7).fold(0u32, |acc, k| acc | (w.p[first + k] >> l & 1) << k);
                let shift = 8 * u32::from(byte);
                let m = w.ri(mask, l) << shift;
                w.set(d, l, (w.ri(a, l) & !m) | (pr << shift & m));
            }
        }
        Op::Imnmx64 { d, a, b, p, signed } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = (w.r64(a, l), w.r64(b, l));
                let min = pm >> l & 1 == 1;
                let flip = if signed { 1u64 << 63 } else { 0 };
                let less = (x ^ flip) < (y ^ flip);
                w.set64(d, l, if less == min { x } else { y });
            }
        }
        Op::R2p { a, mask, byte } => {
            // P0…P6 from bits 0–6 of the byte (mask bits 7 and up: not measured).
            let mut bits = [0u32; 7];
            for l in lanes(exec) {
                let v = w.ri(a, l) >> (8 * u32::from(byte));
                for (k, b) in bits.iter_mut().enumerate() {
                    *b |= (v >> k & 1) << l;
                }
            }
            for (k, b) in bits.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    w.setp(k as u8, exec, *b);
                }
            }
        }
        Op::Isetp { d, a, b, cmp, signed, wide, bop, pin, ex } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            if wide {
                for l in lanes(exec) {
                    let (x, y) = (apply64(w.r64(a, l), a.m), apply64(w.r64(b, l), b.m));
                    let ord = if signed { (x as i64).cmp(&(y as i64)) } else { x.cmp(&y) };
                    r |= u32::from(icmp(cmp, ord)) << l;
                }
            } else {
                let (mut ta, mut tb) = (Tmp::uninit(), Tmp::uninit());
                let (x, y) = (w.src(a, &mut ta), w.src(b, &mut tb));
                // Unsigned order is signed order with the sign bits flipped.
                let flip = if signed { 0 } else { 0x8000_0000u32 };
                let lt = |x: &[u32; 32], y: &[u32; 32]| mask_of(|l| ((x[l] ^ flip) as i32) < ((y[l] ^ flip) as i32));
                // Only the masks the comparison needs (EQ/NE the equality, the
                // orders one strict comparison each) unless .EX needs equality.
                let need_eq = ex.is_some() || matches!(cmp, 2 | 5);
                let eq = if need_eq { mask_of(|l| x[l] == y[l]) } else { 0 };
                r = match cmp {
                    0 => 0,
                    1 => lt(x, y),
                    2 => eq,
                    3 => !lt(y, x),
                    4 => lt(y, x),
                    5 => !eq,
                    6 => !lt(x, y),
                    _ => u32::MAX,
                };
                // .EX: the high words of a 64-bit comparison; where they are
                // equal the result is the low words' comparison, given as the
                // extra predicate (EQ/NE/LT/LE/GT/GE all take it as is).
                if let Some(p) = ex {
                    let low = match cmp {
                        0 => 0,
                        1..=6 => w.pm(p),
                        _ => u32::MAX,
                    };
                    r = (r & !eq) | (low & eq);
                }
            }
            let (p0, p1) = combine(r, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
        // DSETP.MIN / DSETP.MAX (comparisons 0 and 15 of DSETP), ptxas's
        // min.f64 / max.f64: the first result says a is the minimum (the
        // maximum), NaNs losing to numbers and -0 below +0; the second that
        // both are NaN (ptxas then makes b quiet). Read off ptxas's use of
        // them (`DSETP.MAX.AND P1, P2, a, b, PT`, `FSEL hi, a.hi, b.hi, P1`,
        // `SEL hi, b.hi | 0x80000, hi, P2`); the outputs of ptxas's cubins
        // of min.f64 and max.f64 then equal the PTX interpreter's.
        Op::Fsetp { d, a, b, cmp, bop, pin, f64: true, .. } if cmp == 0 || cmp == 15 => {
            let pinm = w.pm(pin);
            let (mut first, mut nan) = (0u32, 0u32);
            for l in lanes(exec) {
                let (x, y) = (w.rd(a, l), w.rd(b, l));
                let pick_a = if y.is_nan() {
                    true
                } else if x.is_nan() {
                    false
                } else if x == y {
                    (x.is_sign_negative() && y.is_sign_positive()) == (cmp == 0) || x.is_sign_negative() == y.is_sign_negative()
                } else {
                    (x < y) == (cmp == 0)
                };
                first |= u32::from(pick_a) << l;
                nan |= u32::from(x.is_nan() && y.is_nan()) << l;
            }
            let (p0, _) = combine(first, pinm, bop);
            let (p1, _) = combine(nan, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
        Op::Fsetp { d, a, b, cmp, ftz, bop, pin, f64 } => {
            let pinm = w.pm(pin);
            let mut r = 0u32;
            for l in lanes(exec) {
                let (x, y) = if f64 {
                    (w.rd(a, l), w.rd(b, l))
                } else {
                    let (mut x, mut y) = (w.rf(a, l), w.rf(b, l));
                    if ftz {
                        x = num::ftz32(x);
                        y = num::ftz32(y);
                    }
                    (f64::from(x), f64::from(y))
                };
                r |= u32::from(fcmp(cmp, x, y)) << l;
            }
            let (p0, p1) = combine(r, pinm, bop);
            w.setp(d[0], exec, p0);
            w.setp(d[1], exec, p1);
        }
        Op::Fadd { d, a, b, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = fout(num::add32(x, y, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Op::Fmul { d, a, b, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = fout(num::mul32(x, y, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Op::Ffma { d, a, b, c, rnd, ftz, sat } => {
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let z = if ftz { num::ftz32(w.rf(c, l)) } else { w.rf(c, l) };
                let v = fout(num::fma32(x, y, z, rnd), ftz, sat);
                w.set(d, l, v);
            }
        }
        Op::PackedF32 { d, srcs, lanes: sel, op, rnd, ftz } => {
            // The f32 that lane `half` (0 low, 1 high) of source `k` reads.
            let read = |w: &Warp, k: usize, half: u16, l: usize| {
                let s = srcs[k];
                let row = match sel[k] {
                    Lanes::Pair => s.r + half,
                    Lanes::Swapped => s.r + (1 - half),
                    Lanes::Single => s.r,
                };
                let v = w.rf(S { r: row, m: s.m }, l);
                if ftz { num::ftz32(v) } else { v }
            };
            for l in lanes(exec) {
                // Both results first: `d` may be a source.
                let mut out = [0u32; 2];
                for half in 0..2u16 {
                    let (x, y) = (read(w, 0, half, l), read(w, 1, half, l));
                    let v = match op {
                        PackedOp::Add => num::add32(x, y, rnd),
                        PackedOp::Mul => num::mul32(x, y, rnd),
                        PackedOp::Fma => num::fma32(x, y, read(w, 2, half, l), rnd),
                    };
                    out[usize::from(half)] = fout(v, ftz, false);
                }
                w.set(d, l, out[0]);
                w.set(d + 1, l, out[1]);
            }
        }
        Op::Fmnmx { d, a, b, p, ftz, nan, xorsign } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let v = num::min_max_f32(x, y, pm >> l & 1 == 1, nan);
                // `.XORSIGN` (PTX `min/max.xorsign.abs`): the sign is the
                // registers' signs exclusive-ored (before `|x|`); a NaN
                // result stays the canonical NaN.
                let v = if xorsign { xorsign_of(v, w.raw(a, l), w.raw(b, l)) } else { v };
                w.set(d, l, v);
            }
        }
        Op::Fmnmx3 { d, a, b, c, p, ftz, nan } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y) = fin(w.rf(a, l), w.rf(b, l), ftz);
                let z = if ftz { num::ftz32(w.rf(c, l)) } else { w.rf(c, l) };
                let min = pm >> l & 1 == 1;
                // A canonical NaN from the first pair is skipped by the
                // second as any NaN is, unless `.NAN` keeps it.
                let v = num::min_max_f32(f32::from_bits(num::min_max_f32(x, y, min, nan)), z, min, nan);
                w.set(d, l, v);
            }
        }
        Op::Dadd { d, a, b, rnd } => {
            for l in lanes(exec) {
                let v = num::add64(w.rd(a, l), w.rd(b, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
        Op::Dmul { d, a, b, rnd } => {
            for l in lanes(exec) {
                let v = num::mul64(w.rd(a, l), w.rd(b, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
        Op::Dfma { d, a, b, c, rnd } => {
            for l in lanes(exec) {
                let v = num::fma64(w.rd(a, l), w.rd(b, l), w.rd(c, l), rnd);
                w.set64(d, l, canon64(v));
            }
        }
        Op::Mufu { d, a, op } => {
            for l in lanes(exec) {
                let x = w.rf(a, l).to_bits();
                w.set(d, l, num::mufu(op, x));
            }
        }
        Op::Fchk { p, a, b } => {
            // Whether a / b needs the slow path: ptxas's division checks for
            // denormal, huge or special operands; this model takes the slow
            // path whenever the quotient's fast form could be inexact in range.
            let mut r = 0u32;
            for l in lanes(exec) {
                let slow = super::num::fchk(w.rf(a, l), w.rf(b, l));
                r |= u32::from(slow) << l;
            }
            w.setp(p, exec, r);
        }
        Op::Hfma2 { d, a, b, c, bf16, ftz, sat } => {
            let wide = |h: u16| num::half_to_f64(if ftz { num::ftz_half(h, bf16) } else { h }, bf16);
            for l in lanes(exec) {
                let (x, y, z) = (w.halves(a, l), w.halves(b, l), w.halves(c, l));
                // The product of two halves is exact in f64; the sum is
                // exact for f16 and for bf16 unless the exponents are
                // more than ~37 apart (then rounded twice).
                let h = |k: usize| u32::from(num::half_result(wide(x[k]) * wide(y[k]) + wide(z[k]), bf16, ftz, sat));
                w.set(d, l, h(0) | h(1) << 16);
            }
        }
        Op::Hmnmx2 { d, a, b, p, bf16, ftz, nan, xorsign } => {
            let pm = w.pm(p);
            // The sources' halves before `|x|` and `-x`, for `.XORSIGN`.
            let plain = |s: S| S { m: s.m & !(ABS | NEG), ..s };
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                let signs = [w.halves(plain(a), l), w.halves(plain(b), l)];
                let min = pm >> l & 1 == 1;
                let mut out = 0u32;
                for k in 0..2 {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    let mut v = num::min_max_half(hx, hy, min, bf16, nan);
                    if xorsign && !num::half_to_f64(v, bf16).is_nan() {
                        v = (v & 0x7fff) | ((signs[0][k] ^ signs[1][k]) & 0x8000);
                    }
                    out |= u32::from(v) << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        Op::Vhmnmx { d, a, b, c, p, bf16, ftz, nan } => {
            let pm = w.pm(p);
            for l in lanes(exec) {
                let (x, y, z) = (w.halves(a, l), w.halves(b, l), w.halves(c, l));
                let min = pm >> l & 1 == 1;
                let flush = |h: u16| if ftz { num::ftz_half(h, bf16) } else { h };
                let mut out = 0u32;
                for k in 0..2 {
                    let v = num::min_max_half(flush(x[k]), flush(y[k]), min, bf16, nan);
                    let v = num::min_max_half(v, flush(z[k]), min, bf16, nan);
                    out |= u32::from(v) << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        Op::Hset2 { d, a, b, cmp, p, bop, bf, ftz, bf16 } => {
            let pm = w.pm(p);
            let wide = |h: u16| if bf16 { num::bf16_to_f64(h) } else { num::f16_to_f64(h) };
            // `.BF`: 1.0 of the lane type.
            let one = if bf16 { 0x3f80 } else { 0x3c00 };
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                let pin = pm >> l & 1;
                let mut out = 0u32;
                for k in 0..2 {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    let r = u32::from(fcmp(cmp, wide(hx), wide(hy)));
                    let (set, _) = combine(r, pin, bop);
                    let half = if set & 1 == 0 { 0 } else if bf { one } else { 0xffff };
                    out |= half << (16 * k);
                }
                w.set(d, l, out);
            }
        }
        Op::Half2 { d, a, b, mul, bf16, f32, ftz, sat } => {
            let wide = |h: u16| num::half_to_f64(if ftz { num::ftz_half(h, bf16) } else { h }, bf16);
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                // Sums and products of two halves are exact in f64: one rounding.
                let r = |k: usize| if mul { wide(x[k]) * wide(y[k]) } else { wide(x[k]) + wide(y[k]) };
                let v = if f32 {
                    fout(num::f64_to_f32(r(0), Round::Nearest), ftz, sat)
                } else {
                    let h = |k| u32::from(num::half_result(r(k), bf16, ftz, sat));
                    h(0) | h(1) << 16
                };
                w.set(d, l, v);
            }
        }
        Op::Hsetp2 { d, a, b, cmp, pin, bop, ftz, bf16 } => {
            // One result per half (lane 0 into the first predicate).
            let pinm = w.pm(pin);
            let wide = |h: u16| if bf16 { num::bf16_to_f64(h) } else { num::f16_to_f64(h) };
            let mut r = [0u32; 2];
            for l in lanes(exec) {
                let (x, y) = (w.halves(a, l), w.halves(b, l));
                for (k, rk) in r.iter_mut().enumerate() {
                    let (hx, hy) = if ftz { (num::ftz_half(x[k], bf16), num::ftz_half(y[k], bf16)) } else { (x[k], y[k]) };
                    *rk |= u32::from(fcmp(cmp, wide(hx), wide(hy))) << l;
                }
            }
            w.setp(d[0], exec, combine(r[0], pinm, bop).0);
            w.setp(d[1], exec, combine(r[1], pinm, bop).0);
        }
        Op::F2f { d, a, from, to, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, from, ftz);
                match to {
                    Fmt::F64 => w.set64(d, l, x.to_bits()),
                    Fmt::F32 => {
                        let v = num::f64_to_f32(x, rnd);
                        let v = if ftz { num::ftz32(v) } else { v };
                        w.set(d, l, canon32(v));
                    }
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(x, rnd))),
                    Fmt::Bf16 => w.set(d, l, u32::from(num::f64_to_bf16(x, rnd))),
                }
            }
        }
        Op::F2i { d, a, from, to, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, from, ftz);
                let v = num::float_to_int(x, rnd, u32::from(to.bits), to.signed);
                if to.bits == 64 {
                    w.set64(d, l, v);
                } else {
                    let v = if to.signed && to.bits < 32 { sext(v, to.bits) } else { v as u32 };
                    w.set(d, l, v);
                }
            }
        }
        Op::I2f { d, a, from, to, rnd, shift } => {
            for l in lanes(exec) {
                let raw = if from.bits == 64 { w.r64(a, l) } else { u64::from(w.raw(a, l)) };
                let raw = (raw >> shift) & num::mask(u32::from(from.bits));
                let exact: i128 = if from.signed {
                    let sh = 64 - u32::from(from.bits);
                    i128::from(((raw << sh) as i64) >> sh)
                } else {
                    i128::from(raw)
                };
                match to {
                    Fmt::F64 => w.set64(d, l, int_to_f64(exact, rnd).to_bits()),
                    Fmt::F32 => {
                        let v = int_to_f32(exact, rnd);
                        w.set(d, l, v.to_bits());
                    }
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(int_to_f64(exact, Round::Nearest), rnd))),
                    Fmt::Bf16 => w.set(d, l, u32::from(num::f64_to_bf16(int_to_f64(exact, Round::Nearest), rnd))),
                }
            }
        }
        Op::F2fp { d, a, b, bf16, relu, satfinite, rnd } => {
            for l in lanes(exec) {
                let conv = |v: f32| -> u32 {
                    let mut x = f64::from(v);
                    if relu && (x < 0.0 || x.is_nan()) {
                        x = if x.is_nan() { x } else { 0.0 };
                    }
                    let h = if bf16 { num::f64_to_bf16(x, rnd) } else { num::f64_to_f16(x, rnd) };
                    let h = if satfinite && !x.is_nan() {
                        let inf = if bf16 { 0x7f80 } else { 0x7c00 };
                        if h & 0x7fff == inf { (h & 0x8000) | (inf - 1) } else { h }
                    } else {
                        h
                    };
                    u32::from(h)
                };
                let v = conv(w.rf(a, l)) << 16 | conv(w.rf(b, l));
                w.set(d, l, v);
            }
        }
        Op::Frnd { d, a, fmt, rnd, ftz } => {
            for l in lanes(exec) {
                let x = read_fmt(w, a, l, fmt, ftz);
                let r = num::round_int(x, rnd);
                match fmt {
                    Fmt::F64 => w.set64(d, l, r.to_bits()),
                    Fmt::F16 => w.set(d, l, u32::from(num::f64_to_f16(r, Round::Nearest))),
                    _ => w.set(d, l, canon32(r as f32)),
                }
            }
        }
        Op::S2r { d, sr } => {
            let steps = pc as u64;
            for l in lanes(exec) {
                let v = special(cta, w, sr, l, steps);
                w.set(d, l, v);
            }
        }
        Op::Cs2r { d, sr, n } => {
            for l in lanes(exec) {
                let v = special(cta, w, sr, l, pc as u64);
                w.set(d, l, v);
                if n == 2 {
                    let hi = if sr == 0x50 { special(cta, w, 0x51, l, pc as u64) } else { 0 };
                    w.set(d + 1, l, hi);
                }
            }
        }
        Op::R2urUniform { p, d, a } => {
            if exec != 0 {
                let first = w.ri(a, exec.trailing_zeros() as usize);
                let uniform = lanes(exec).all(|l| w.ri(a, l) == first);
                for l in 0..32 {
                    w.set(d, l, first);
                }
                w.setp(p, exec, if uniform { u32::MAX } else { 0 });
            }
        }
        Op::R2ur { d, a } => {
            if exec != 0 {
                let v = w.ri(a, exec.trailing_zeros() as usize);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
        Op::Ldc { d, bank, index, offset, w: width } => {
            let data = cta.loaded.banks.get(usize::from(bank)).map_or(&[][..], Vec::as_slice);
            for l in lanes(exec) {
                let at = i64::from(w.raw(S { r: index, m: 0 }, l) as i32) + i64::from(offset);
                let n = usize::from(width.bytes);
                let bytes = usize::try_from(at).ok().and_then(|at| data.get(at..at + n)).ok_or_else(|| fault(MemFault { address: at as u64, size: n as u64, kind: FaultKind::OutOfBounds, space: "constant" }))?;
                write_loaded(w, d, l, bytes, width);
            }
        }
        Op::Ld { d, addr, w: width @ Width { bytes: 4, .. }, space: Space::Local } => {
            // Stack traffic (spills, frames of calls): a word the thread
            // has touched before is read in place; anything else (first
            // touch, a fault) takes the general path.
            let at = addresses(w, &addr, exec);
            let threads = cta.local.get(w.first_thread as usize..).unwrap_or_default();
            let mut slow = exec;
            if let Some(dst) = w.r.get_mut(d as usize) {
                for l in lanes(exec) {
                    if let Some(v) = threads.get(l).and_then(|m| m.word(at[l])) {
                        dst[l] = v;
                        slow &= !(1 << l);
                    }
                }
            }
            for l in lanes(slow) {
                load_lane(cta, memory, w, d, at[l], width, Space::Local, l)?;
            }
        }
        Op::Ld { d, addr, w: width, space } => {
            let at = addresses(w, &addr, exec);
            for l in lanes(exec) {
                load_lane(cta, memory, w, d, at[l], width, space, l)?;
            }
        }
        Op::St { s, addr, w: width @ Width { bytes: 4, .. }, space: Space::Local } => {
            let at = addresses(w, &addr, exec);
            let src = w.r.get(s as usize).unwrap_or(&ZERO_ROW);
            let threads = cta.local.get_mut(w.first_thread as usize..).unwrap_or_default();
            let mut slow = 0u32;
            for l in lanes(exec) {
                if !threads.get_mut(l).is_some_and(|m| m.set_word(at[l], src[l])) {
                    slow |= 1 << l;
                }
            }
            for l in lanes(slow) {
                store_lane(cta, memory, w, s, at[l], width, Space::Local, l)?;
            }
        }
        Op::St { s, addr, w: width, space } => {
            let at = addresses(w, &addr, exec);
            for l in lanes(exec) {
                store_lane(cta, memory, w, s, at[l], width, space, l)?;
            }
        }
        Op::Atom { d, pd, addr, b, c, op: aop, ty, space } => {
            let mut performed = 0u32;
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                // A generic packed-half atomic acts on global memory only: on
                // a shared or local address it leaves memory and `d` alone
                // and clears its predicate. ptxas relies on that: after
                // `ATOM.E.ADD.F16x2 P0, …` it exits where P0 holds and
                // otherwise asks QSPC whether the address is shared and does
                // the add itself (an ATOMS.CAST.SPIN loop; half_ops.cu's
                // h_atomic_accum on every SM).
                if space == Space::Generic && ty == AtomType::F16x2 && resolve(space, at).0 != Space::Global {
                    continue;
                }
                performed |= LANE_BITS[l];
                let wide = matches!(ty, AtomType::U64 | AtomType::S64 | AtomType::F64);
                let n = if wide { 8 } else { 4 };
                let mut buf = [0u8; 8];
                read_mem(cta, memory, space, w.first_thread as usize + l, at, &mut buf[..n])?;
                let old = u64::from_le_bytes(buf);
                let bv = if wide { w.r64(S { r: b, m: 0 }, l) } else { u64::from(w.raw(S { r: b, m: 0 }, l)) };
                let cv = if wide { w.r64(S { r: c, m: 0 }, l) } else { u64::from(w.raw(S { r: c, m: 0 }, l)) };
                let new = atom_apply(aop, ty, old, bv, cv);
                write_mem(cta, memory, space, w.first_thread as usize + l, at, &new.to_le_bytes()[..n])?;
                if wide {
                    w.set64(d, l, old);
                } else {
                    w.set(d, l, old as u32);
                }
            }
            w.setp(pd, exec, performed);
        }
        Op::Ldgsts { dst, src, bytes, zfill, valid } => {
            // Done at once: the copy's completion (LDGDEPBAR, DEPBAR.LE) has
            // nothing left to wait for.
            let n = usize::from(bytes);
            let ok = w.pm(valid);
            for l in lanes(exec) {
                let from = address(w, &src, l);
                let fill = match (ok & LANE_BITS[l] != 0, zfill) {
                    (false, _) => n,
                    (true, true) => (from % u64::from(bytes)) as usize,
                    (true, false) => 0,
                };
                let from = from - (fill as u64 % u64::from(bytes));
                let mut buf = [0u8; 16];
                // Byte by byte: the source may end before the copy's size.
                for (k, b) in buf[..n - fill].iter_mut().enumerate() {
                    read_mem(cta, memory, Space::Global, w.first_thread as usize + l, from + k as u64, std::slice::from_mut(b))?;
                }
                write_mem(cta, memory, Space::Shared, w.first_thread as usize + l, address(w, &dst, l), &buf[..n])?;
            }
        }
        Op::MbarExch { d, addr, data } => {
            if let Some(l) = lanes(exec).next() {
                let at = address(w, &addr, l);
                let old = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, w.r64(data, l))?;
                for l in lanes(exec) {
                    w.set64(d, l, old);
                }
            }
        }
        Op::MbarArrive { d, addr, tx } => {
            // Lanes in order, each seeing the arrivals of the lanes before it.
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                let old = mbarrier::read(cta, memory, at)?;
                let new = mbarrier::complete_if_done(mbarrier::arrive(old, w.raw(tx, l)));
                mbarrier::write(cta, memory, at, new)?;
                w.set64(d, l, old);
            }
        }
        Op::MbarPhase { pd, addr, parity } => {
            let mut done = 0u32;
            for l in lanes(exec) {
                let word = mbarrier::read(cta, memory, address(w, &addr, l))?;
                if mbarrier::phase_done(word, w.raw(parity, l)) {
                    done |= LANE_BITS[l];
                }
            }
            w.setp(pd, exec, done);
        }
        Op::BulkToShared { dst, src, units } => {
            // Done at once, its bytes completing on the mbarrier as it issues.
            if let Some(l) = lanes(exec).next() {
                let n = (w.raw(units, l) & 0xffff) as usize * 16;
                let (to, from) = (address(w, &dst, l), address(w, &src, l));
                let mut buf = vec![0u8; n];
                read_mem(cta, memory, Space::Global, 0, from, &mut buf)?;
                write_mem(cta, memory, Space::Shared, 0, to, &buf)?;
                let at = u64::from(w.raw(S { r: dst.ur + 1, m: 0 }, l));
                let word = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, mbarrier::complete_if_done(mbarrier::complete_tx(word, n as u32)))?;
            }
        }
        Op::BulkToGlobal { dst, src, count, masked } => {
            if let Some(l) = lanes(exec).next() {
                let c = w.raw(count, l);
                let n = (c & 0xffff) as usize * 16;
                let (to, from) = (address(w, &dst, l), address(w, &src, l));
                let mut buf = vec![0u8; n];
                read_mem(cta, memory, Space::Shared, 0, from, &mut buf)?;
                if masked {
                    // Byte by byte where the mask keeps it.
                    for (k, b) in buf.iter().enumerate() {
                        if c >> (16 + k % 16) & 1 == 1 {
                            write_mem(cta, memory, Space::Global, 0, to + k as u64, std::slice::from_ref(b))?;
                        }
                    }
                } else {
                    write_mem(cta, memory, Space::Global, 0, to, &buf)?;
                }
            }
        }
        Op::NextWorkId { resp } => {
            if let Some(l) = lanes(exec).next() {
                write_mem(cta, memory, Space::Shared, 0, address(w, &resp, l), &[0u8; 16])?;
                let at = u64::from(w.raw(S { r: resp.ur + 1, m: 0 }, l));
                let word = mbarrier::read(cta, memory, at)?;
                mbarrier::write(cta, memory, at, mbarrier::complete_if_done(mbarrier::complete_tx(word, 16)))?;
            }
        }
        Op::Qspc { pd, addr, space } => {
            let at = addresses(w, &addr, exec);
            let inside = mask_of(|l| exec & LANE_BITS[l] != 0 && resolve(Space::Generic, at[l]).0 == space);
            w.setp(pd, exec, inside);
        }
        Op::AtomsCast { d, pd, addr, b, c, wide } => {
            // Lanes in order, each seeing the stores of the lanes before it.
            let n = if wide { 8 } else { 4 };
            let mut success = 0u32;
            for l in lanes(exec) {
                let at = address(w, &addr, l);
                let mut buf = [0u8; 8];
                read_mem(cta, memory, Space::Shared, 0, at, &mut buf[..n])?;
                let old = u64::from_le_bytes(buf);
                let (bv, cv) = if wide {
                    (w.r64(S { r: b, m: 0 }, l), w.r64(S { r: c, m: 0 }, l))
                } else {
                    (u64::from(w.raw(S { r: b, m: 0 }, l)), u64::from(w.raw(S { r: c, m: 0 }, l)))
                };
                let stored = old == bv;
                if stored {
                    write_mem(cta, memory, Space::Shared, 0, at, &cv.to_le_bytes()[..n])?;
                }
                success |= u32::from(stored) << l;
                w.set(d, l, u32::from(stored));
            }
            w.setp(pd, exec, success);
        }
        Op::AtomsPopcInc { d, addr } => {
            // Lanes may name different words (ptxas emits this for
            // `atomicAdd(&shared[i], 1)` with per-lane i, e.g. a histogram):
            // each distinct word is incremented once by the number of lanes
            // naming it, and each lane gets that word's old value plus its
            // rank among those lanes (lowest lane first).
            let mut left = exec;
            while left != 0 {
                let first = left.trailing_zeros() as usize;
                let at = address(w, &addr, first);
                let same = mask_of(|l| left & LANE_BITS[l] != 0 && address(w, &addr, l) == at);
                left &= !same;
                let mut buf = [0u8; 4];
                read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                let old = u32::from_le_bytes(buf);
                write_mem(cta, memory, Space::Shared, 0, at, &old.wrapping_add(same.count_ones()).to_le_bytes())?;
                for l in lanes(same) {
                    let rank = (same & ((1u32 << l) - 1)).count_ones();
                    w.set(d, l, old.wrapping_add(rank));
                }
            }
        }
        Op::Bra { target, cond, uniform: _, any } => {
            let g = w.groups[gi];
            let taken = match exec & w.pm(cond) {
                0 => 0,
                _ if any => g.mask,
                t => t,
            };
            if taken == g.mask {
                w.groups[gi].pc = target;
                merge(&mut w.groups, &mut w.hz);
            } else if taken == 0 {
                advance(w, gi);
            } else {
                w.groups[gi].mask = g.mask & !taken;
                w.groups[gi].pc += 1;
                let hz = w.hz.split(g.hz);
                w.groups.push(Group { pc: target, mask: taken, wait: Wait::None, hz });
                merge(&mut w.groups, &mut w.hz);
            }
            return Ok(());
        }
        Op::BraConv { target, cond, mask, conv } => {
            let live = !w.exited & w.all;
            let m = if exec != 0 { w.ri(mask, exec.trailing_zeros() as usize) } else { 0 };
            let converged = m & live & !w.groups[gi].mask == 0;
            let taken = exec & w.pm(cond) & if converged == conv { u32::MAX } else { 0 };
            if taken == 0 {
                advance(w, gi);
            } else {
                jump_lanes(w, gi, taken, |_, _| target);
            }
            return Ok(());
        }
        Op::Brx { a, base } => {
            jump_lanes(w, gi, exec, |w, l| (base.wrapping_add(w.ri(a, l))) / 16);
            return Ok(());
        }
        Op::Call { target } => {
            enter_call(w, exec, pc);
            jump_lanes(w, gi, exec, |_, _| target);
            return Ok(());
        }
        Op::CallReg { a, base: Some(base) } => {
            enter_call(w, exec, pc);
            jump_lanes(w, gi, exec, |w, l| base.wrapping_add(w.ri(a, l)) / 16);
            return Ok(());
        }
        Op::CallReg { a, base: None } => {
            // Address 0 is what the loader gives an undefined symbol, an
            // external function (ptxas's printf: `LDC.64 R12, c[0x4][..]`,
            // `CALL.ABS.NOINC R12` to vprintf, relocated). It runs as the PTX
            // interpreter's vprintf: nothing printed, 0 returned in R4, and
            // execution goes on after the call (where LEPC pointed the return).
            if exec != 0 && lanes(exec).all(|l| w.ri(a, l) == 0) {
                for l in lanes(exec) {
                    w.set(R_BASE + 4, l, 0);
                }
            } else {
                enter_call(w, exec, pc);
                jump_lanes(w, gi, exec, |w, l| w.ri(a, l) / 16);
                return Ok(());
            }
        }
        Op::Lepc { d, addr } => {
            for l in lanes(exec) {
                w.set64(d, l, u64::from(addr));
            }
        }
        Op::Ret { a, base } => {
            for l in lanes(exec) {
                w.calls[l].1 = w.calls[l].1.saturating_sub(1);
            }
            jump_lanes(w, gi, exec, |w, l| (base.wrapping_add(w.ri(a, l))) / 16);
            return Ok(());
        }
        Op::Bssy { b } => {
            let m = w.groups[gi].mask;
            for l in lanes(m) {
                w.b[b as usize & 15][l] = m;
            }
        }
        Op::Break { b, cond } => {
            // Out of the barrier, for every thread that waits on it, go
            // the threads whose guard and condition hold.
            let out = exec & w.pm(cond);
            for v in w.b[b as usize & 15].iter_mut() {
                *v &= !out;
            }
        }
        Op::BmovToR { d, b, clear } => {
            for l in lanes(exec) {
                let v = w.b[b as usize & 15][l];
                w.set(d, l, v);
                if clear {
                    w.b[b as usize & 15][l] = 0;
                }
            }
        }
        Op::BmovToB { b, a } => {
            for l in lanes(exec) {
                w.b[b as usize & 15][l] = w.ri(a, l);
            }
        }
        Op::Bsync { b } => {
            if exec != 0 {
                hold(w, gi, exec, Wait::Bsync(b));
                return Ok(());
            }
        }
        Op::Warpsync { a } => {
            if exec != 0 {
                let m = w.ri(a, exec.trailing_zeros() as usize);
                hold(w, gi, exec, Wait::Warpsync(m));
                return Ok(());
            }
        }
        // Guarded off in every lane of the group, a barrier is not arrived
        // at: the group goes on (ptxas's `@!P0 BAR.SYNC` closing a loop
        // whose exit condition is the same in every thread of the CTA).
        Op::Bar { id: _, red } if exec != 0 => {
            let g = w.groups[gi];
            if exec != g.mask {
                return Err(InterpError::new(ErrorKind::Unsupported, "a predicated CTA barrier with some threads of the group guarded off"));
            }
            let pred = red.map_or(0, |(_, p)| w.pm(p));
            w.bar_pred = (w.bar_pred & !exec) | (pred & exec);
            if let Some((kind, _)) = red {
                cta.bar_kind = kind;
            }
            w.groups[gi].wait = Wait::Bar;
            merge(&mut w.groups, &mut w.hz);
            return Ok(());
        }
        Op::Bar { .. } => {}
        Op::B2r { d, p } => {
            let (count, and, or) = cta.bar_result;
            for l in lanes(exec) {
                w.set(d, l, count);
            }
            // AND and OR reductions read their result as a predicate.
            let v = match cta.bar_kind {
                1 => and,
                2 => or,
                _ => count != 0,
            };
            w.setp(p, exec, if v { u32::MAX } else { 0 });
        }
        Op::Shfl { pd, d, a, b, c, mode } => {
            let mut vals = [0u32; 32];
            let mut ok = 0u32;
            for l in lanes(exec) {
                vals[l] = w.ri(a, l);
            }
            let mut out = [0u32; 32];
            for l in lanes(exec) {
                let (bv, cv) = (w.ri(b, l), w.ri(c, l));
                let lane = l as i32;
                let clamp = (cv & 0x1f) as i32;
                let segmask = ((cv >> 8) & 0x1f) as i32;
                let min_lane = lane & segmask;
                let max_lane = min_lane | (clamp & !segmask);
                let bv = (bv & 0x1f) as i32;
                let (j, pval) = match mode {
                    ShflMode::Up => (lane - bv, lane - bv >= max_lane),
                    ShflMode::Down => (lane + bv, lane + bv <= max_lane),
                    ShflMode::Bfly => (lane ^ bv, (lane ^ bv) <= max_lane),
                    ShflMode::Idx => {
                        let j = min_lane | (bv & !segmask);
                        (j, j <= max_lane)
                    }
                };
                let src = if pval && (0..32).contains(&j) { j as usize } else { l };
                out[l] = if exec >> src & 1 == 1 { vals[src] } else { vals[l] };
                ok |= u32::from(pval) << l;
            }
            for l in lanes(exec) {
                w.set(d, l, out[l]);
            }
            w.setp(pd, exec, ok);
        }
        Op::Vote { d, pd, p, mode, uniform } => {
            let pm = w.pm(p) & exec;
            let res = match mode {
                VoteMode::All => pm == exec,
                VoteMode::Any => pm != 0,
                VoteMode::Eq => pm == 0 || pm == exec,
            };
            let res_mask = if res { u32::MAX } else { 0 };
            if uniform {
                if exec != 0 {
                    for l in 0..32 {
                        w.set(d, l, pm);
                    }
                    w.setp(pd, u32::MAX, res_mask);
                }
            } else {
                for l in lanes(exec) {
                    w.set(d, l, pm);
                }
                w.setp(pd, exec, res_mask);
            }
        }
        Op::Elect { d, pd, p } => {
            let candidates = w.pm(p) & exec;
            if exec != 0 {
                let elected = if candidates == 0 { 0 } else { 1u32 << candidates.trailing_zeros() };
                let lane = if candidates == 0 { 0 } else { candidates.trailing_zeros() };
                for l in 0..32 {
                    w.set(d, l, lane);
                }
                w.setp(pd, exec, elected);
            }
        }
        Op::Redux { d, a, op, signed } => {
            if exec != 0 {
                let mut acc: Option<u32> = None;
                for l in lanes(exec) {
                    let v = w.ri(a, l);
                    acc = Some(match acc {
                        None => v,
                        Some(x) => match op {
                            0 => x & v,
                            1 => x | v,
                            2 => x ^ v,
                            3 => x.wrapping_add(v),
                            4 if signed => (x as i32).min(v as i32) as u32,
                            4 => x.min(v),
                            5 if signed => (x as i32).max(v as i32) as u32,
                            _ => x.max(v),
                        },
                    });
                }
                let v = acc.unwrap_or(0);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
        Op::ReduxF32 { d, a, min, abs, nan } => {
            if exec != 0 {
                let v = num::redux_f32(lanes(exec).map(|l| w.ri(a, l)), min, abs, nan);
                for l in 0..32 {
                    w.set(d, l, v);
                }
            }
        }
        Op::Flou { d, a } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                w.set(d, l, if v == 0 { u32::MAX } else { 31 - v.leading_zeros() });
            }
        }
        Op::Bmsk { d, a, b, wrap } => {
            for l in lanes(exec) {
                let (pos, len) = (w.ri(a, l), w.ri(b, l));
                let (pos, len) = if wrap { (pos & 31, len & 31) } else { (pos.min(32), len.min(32)) };
                let ones = if len >= 32 { u64::MAX } else { (1u64 << len) - 1 };
                w.set(d, l, (ones << pos) as u32);
            }
        }
        Op::Idp { d, a, b, c, two, hi, a_signed, b_signed } => {
            for l in lanes(exec) {
                let (x, y, z) = (w.ri(a, l), w.ri(b, l), w.ri(c, l));
                let bb = |k: u32| -> i64 {
                    let v = (y >> (8 * k)) as u8;
                    if b_signed { i64::from(v as i8) } else { i64::from(v) }
                };
                let sum: i64 = if two {
                    let first = if hi { 2 } else { 0 };
                    (0..2)
                        .map(|k| {
                            let h = (x >> (16 * k)) as u16;
                            let h = if a_signed { i64::from(h as i16) } else { i64::from(h) };
                            h * bb(first + k)
                        })
                        .sum()
                } else {
                    (0..4)
                        .map(|k| {
                            let v = (x >> (8 * k)) as u8;
                            let v = if a_signed { i64::from(v as i8) } else { i64::from(v) };
                            v * bb(k)
                        })
                        .sum()
                };
                w.set(d, l, (sum as u32).wrapping_add(z));
            }
        }
        Op::I2i { d, b, dst_signed, src_signed, half } => {
            let bits = if half { 16 } else { 8 };
            for l in lanes(exec) {
                w.set(d, l, num::saturate_narrow(w.ri(b, l), src_signed, dst_signed, bits));
            }
        }
        Op::I2ip { d, a, b, c, dst_signed, src_signed, half } => {
            let bits = if half { 16 } else { 8 };
            for l in lanes(exec) {
                let sat = |v: u32| num::saturate_narrow(v, src_signed, dst_signed, bits);
                // 16-bit lanes fill the register (ptxas gives c as RZ).
                let above = if half { 0 } else { w.ri(c, l) << 16 };
                let v = above | (sat(w.ri(a, l)) << bits) | sat(w.ri(b, l));
                w.set(d, l, v);
            }
        }
        Op::F2fp8 { d, a, b, c, fmt } => {
            for l in lanes(exec) {
                let hi = fmt.encode_satfinite(f64::from(w.rf(a, l)));
                let lo = fmt.encode_satfinite(f64::from(w.rf(b, l)));
                let v = (w.ri(c, l) & 0xffff_0000) | u32::from(hi) << 8 | u32::from(lo);
                w.set(d, l, v);
            }
        }
        Op::F2fpUnpack { d, a, fmt } => {
            for l in lanes(exec) {
                let v = w.ri(a, l);
                let h = |byte: u32| -> u32 {
                    let x = fmt.decode(byte as u8);
                    if x.is_nan() { 0x7fff } else { u32::from(num::f64_to_f16(x, Round::Nearest)) }
                };
                w.set(d, l, h(v & 0xff) | h((v >> 8) & 0xff) << 16);
            }
        }
        Op::Match { d, pd, a, wide, all } => {
            let key = |w: &Warp, l: usize| if wide { w.r64(a, l) } else { u64::from(w.raw(a, l)) };
            let mut same_all = true;
            let first = if exec != 0 { Some(key(w, exec.trailing_zeros() as usize)) } else { None };
            let mut out = [0u32; 32];
            for l in lanes(exec) {
                let k = key(w, l);
                let m = lanes(exec).filter(|&o| key(w, o) == k).fold(0u32, |m, o| m | 1 << o);
                out[l] = m;
                same_all &= Some(k) == first;
            }
            for l in lanes(exec) {
                let v = if all { if same_all { exec } else { 0 } } else { out[l] };
                w.set(d, l, v);
            }
            if all {
                w.setp(pd, exec, if same_all { u32::MAX } else { 0 });
            }
        }
        Op::Tex { rg, ba, a, na, b, nb, handle, dim, int_coords, gather, mask, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some(t) = textures.iter().find(|t| t.spec.handle == h) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no texture is bound to handle {h:#x} (the launch spec's \"textures\")")));
                };
                let values: smallvec::SmallVec<[u32; 4]> = (0..u16::from(na)).map(|k| w.r.get(usize::from(a + k)).map_or(0, |row| row[l])).chain((0..u16::from(nb)).map(|k| w.r.get(usize::from(b + k)).map_or(0, |row| row[l]))).collect();
                let coords = &values[..usize::from(dim).min(values.len())];
                let texel = match gather {
                    Some(c) => t.gather(coords, c),
                    None => t.fetch(coords, int_coords),
                };
                let written = (0..4).filter(|k| mask >> k & 1 == 1);
                for (k, (d, off)) in written.zip([(rg, 0u16), (rg, 1), (ba, 0), (ba, 1)]) {
                    if d != R_SINK {
                        w.set(d + off, l, texel[k]);
                    }
                }
            }
        }
        Op::Surface { store, d, a, coords, bytes, signed, geometry, clamp, handle, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some((t, base)) = textures.iter().find_map(|t| (t.spec.handle == h).then_some(t.surface.map(|s| (t, s))).flatten()) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no surface is bound to handle {h:#x} (the launch spec's \"textures\" with \"element_bytes\")")));
                };
                let c: smallvec::SmallVec<[i64; 3]> = (0..u16::from(coords)).map(|k| i64::from(w.r.get(usize::from(a + k)).map_or(0, |row| row[l]) as i32)).collect();
                // x in bytes, then y, then z or the layer (a 1D array's
                // layer is its z: dims [width, 1, layers]).
                let (x, y, z) = match geometry {
                    0 => (c[0], 0, 0),
                    2 => (c[0], 0, c[1]),
                    3 => (c[0], c[1], 0),
                    _ => (c[0], c[1], c[2]),
                };
                let n = i64::from(bytes);
                let row = i64::from(t.spec.dims[0]) * i64::from(t.spec.element_bytes.unwrap_or(1));
                let (height, depth) = (i64::from(t.spec.dims[1]), i64::from(t.spec.dims[2]));
                let inside = x >= 0 && x + n <= row && (0..height).contains(&y) && (0..depth).contains(&z);
                // Out of bounds (the PTX ISA's suld/sust): `.trap` faults,
                // `.zero` loads zero and drops a store, `.clamp` accesses
                // the nearest element in bounds.
                let at = if inside {
                    Some((x, y, z))
                } else {
                    match clamp {
                        2 => return Err(InterpError::new(ErrorKind::Memory, format!("surface access out of bounds (.trap) at x = {x} bytes, y = {y}, z = {z}"))),
                        0 => None,
                        _ => Some((x.clamp(0, (row - n).max(0)) / n * n, y.clamp(0, height - 1), z.clamp(0, depth - 1))),
                    }
                };
                let address = at.map(|(x, y, z)| base.wrapping_add(((z * height + y) * row + x) as u64));
                let regs = u16::from(bytes.div_ceil(4));
                if store {
                    if let Some(address) = address {
                        let mut buf = [0u8; 16];
                        for k in 0..regs {
                            let v = w.r.get(usize::from(d + k)).map_or(0, |row| row[l]);
                            buf[usize::from(4 * k)..usize::from(4 * k + 4)].copy_from_slice(&v.to_le_bytes());
                        }
                        write_mem(cta, memory, Space::Global, l, address, &buf[..usize::from(bytes)])?;
                    }
                } else {
                    let mut buf = [0u8; 16];
                    if let Some(address) = address {
                        read_mem(cta, memory, Space::Global, l, address, &mut buf[..usize::from(bytes)])?;
                    }
                    for k in 0..regs {
                        let at = usize::from(4 * k);
                        let mut v = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
                        if signed {
                            v = match bytes {
                                1 => v as u8 as i8 as i32 as u32,
                                _ => v as u16 as i16 as i32 as u32,
                            };
                        }
                        if d != R_SINK {
                            w.set(d + k, l, v);
                        }
                    }
                }
            }
        }
        Op::TexQuery { d, mask, handle, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some(t) = textures.iter().find(|t| t.spec.handle == h) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no texture or surface is bound to handle {h:#x} (the launch spec's \"textures\")")));
                };
                // The components the mask selects, in order, from `d`.
                let mut k = 0;
                for (bit, size) in t.spec.dims.iter().enumerate() {
                    if mask >> bit & 1 != 0 {
                        if d != R_SINK {
                            w.set(d + k, l, *size);
                        }
                        k += 1;
                    }
                }
            }
        }
        Op::Ldsm { d, addr, n, trans } => {
            // Lanes 8k..8k+7 address the rows of matrix k.
            let rows: Vec<u64> = (0..32).map(|l| address(w, &addr, l)).collect();
            let mut out = vec![[0u32; 32]; usize::from(n)];
            for l in lanes(exec) {
                for k in 0..usize::from(n) {
                    let v = if trans {
                        let mut v = 0u32;
                        for e in 0..2 {
                            let at = rows[8 * k + (l % 4) * 2 + e] + (l / 4) as u64 * 2;
                            let mut buf = [0u8; 2];
                            read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                            v |= u32::from(u16::from_le_bytes(buf)) << (16 * e);
                        }
                        v
                    } else {
                        let at = rows[8 * k + l / 4] + (l % 4) as u64 * 4;
                        let mut buf = [0u8; 4];
                        read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
                        u32::from_le_bytes(buf)
                    };
                    out[k][l] = v;
                }
            }
            for (k, row) in out.iter().enumerate() {
                w.put(d + k as u16, exec, row);
            }
        }
        Op::Stsm { addr, v, n, trans } => {
            // LDSM's layout, written: lane l holds row l/4, columns
            // 2(l%4) and 2(l%4)+1 of each matrix (transposed: column l/4,
            // rows 2(l%4) and 2(l%4)+1).
            let rows: Vec<u64> = (0..32).map(|l| address(w, &addr, l)).collect();
            for l in lanes(exec) {
                for k in 0..usize::from(n) {
                    let value = w.row(v + k as u16)[l];
                    if trans {
                        for e in 0..2 {
                            let at = rows[8 * k + (l % 4) * 2 + e] + (l / 4) as u64 * 2;
                            write_mem(cta, memory, Space::Shared, 0, at, &((value >> (16 * e)) as u16).to_le_bytes())?;
                        }
                    } else {
                        let at = rows[8 * k + l / 4] + (l % 4) as u64 * 4;
                        write_mem(cta, memory, Space::Shared, 0, at, &value.to_le_bytes())?;
                    }
                }
            }
        }
        Op::Movm { d, a } => {
            let out = super::matrix::transpose_8x8(&w.row(a));
            w.put(d, exec, &out);
        }
        Op::Mma { d, a, b, c, kind } => {
            let (ka, kb, kc) = kind.registers();
            let rows = |r: u16, k: usize| -> Vec<[u32; 32]> { (0..k).map(|i| w.row(r + i as u16)).collect() };
            let out = super::matrix::mma(kind, &rows(a, usize::from(ka)), &rows(b, usize::from(kb)), &rows(c, usize::from(kc)));
            for (k, row) in out.iter().enumerate() {
                w.put(d + k as u16, exec, row);
            }
        }
    }
    advance(w, gi);
    Ok(())
}

/// Records a CALL at `pc` in the lanes of `exec`.
fn enter_call(w: &mut Warp, exec: u32, pc: u32) {
    for l in lanes(exec) {
        let (site, depth) = &mut w.calls[l];
        if *depth == 0 {
            *site = pc;
        }
        *depth = depth.saturating_add(1);
    }
}

/// Holds the executing lanes of a group at a convergence point (the
/// guarded-off ones go on).
fn hold(w: &mut Warp, gi: usize, exec: u32, wait: Wait) {
    let g = w.groups[gi];
    let rest = g.mask & !exec;
    w.groups[gi].mask = exec;
    w.groups[gi].wait = wait;
    if rest != 0 {
        let hz = w.hz.split(g.hz);
        w.groups.push(Group { pc: g.pc + 1, mask: rest, wait: Wait::None, hz });
    }
    merge(&mut w.groups, &mut w.hz);
    release(w, false);
}

fn apply64(v: u64, m: u8) -> u64 {
    if m & NOT != 0 {
        !v
    } else if m & NEG != 0 {
        v.wrapping_neg()
    } else {
        v
    }
}

fn sext(v: u64, bits: u8) -> u32 {
    let sh = 64 - u32::from(bits);
    (((v << sh) as i64) >> sh) as u32
}

fn int_to_f64(v: i128, mode: Round) -> f64 {
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

fn int_to_f32(v: i128, mode: Round) -> f32 {
    // Integers of up to 64 bits: the f64 value is exact below 2^53; above it
    // round once to f64 (toward zero, keeping a sticky bit) and then to f32.
    let r = v as f64;
    if r as i128 == v {
        return num::f64_to_f32(r, mode);
    }
    let t = int_to_f64(v, Round::Zero);
    let sticky = f64::from_bits(t.to_bits() | 1);
    num::f64_to_f32(sticky, mode)
}

/// Whether row `d` is a uniform register's (or its sink): the warp holds
/// one value there, which a uniform instruction writes whichever of the
/// warp's threads issue it (after divergent code, some only).
#[inline(always)]
fn uniform_row(d: u16) -> bool {
    (UR_BASE..CONST_BASE).contains(&d)
}

fn read_fmt(w: &Warp, a: S, l: usize, f: Fmt, ftz: bool) -> f64 {
    match f {
        Fmt::F64 => w.rd(a, l),
        Fmt::F32 => {
            let x = w.rf(a, l);
            f64::from(if ftz { num::ftz32(x) } else { x })
        }
        Fmt::F16 => {
            // `R0.H1` (F2I) reads the high half.
            let raw = w.raw(a, l);
            let mut h = if a.m & H1H1 != 0 { (raw >> 16) as u16 } else { raw as u16 };
            if a.m & ABS != 0 {
                h &= 0x7fff;
            }
            if a.m & NEG != 0 {
                h ^= 0x8000;
            }
            num::f16_to_f64(h)
        }
        Fmt::Bf16 => num::bf16_to_f64(w.raw(a, l) as u16),
    }
}

#[inline]
fn fin(x: f32, y: f32, ftz: bool) -> (f32, f32) {
    if ftz { (num::ftz32(x), num::ftz32(y)) } else { (x, y) }
}

#[inline]
fn fout(v: f32, ftz: bool, sat: bool) -> u32 {
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
fn canon32(v: f32) -> u32 {
    if v.is_nan() { 0x7fff_ffff } else { v.to_bits() }
}

#[inline]
fn canon64(v: f64) -> u64 {
    if v.is_nan() { 0x7fff_ffff_ffff_ffff } else { v.to_bits() }
}

/// One funnel shift of SHF: `high:lo` shifted by `sh` (clamped, or wrapped
/// with `.W`), the low or high word.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn shf1(lo: u32, sh: u32, high: u32, left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool) -> u32 {
    let limit = if bits64 { 64 } else { 32 };
    let s = if wrap { sh & (limit - 1) } else { sh.min(limit) };
    let v = u64::from(high) << 32 | u64::from(lo);
    let r: u64 = if left {
        if s >= 64 { 0 } else { v << s }
    } else if signed {
        let sv = if bits64 { v as i64 } else { i64::from(high as i32) << 32 | i64::from(lo) };
        (sv >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        v >> s
    };
    if hi { (r >> 32) as u32 } else { r as u32 }
}

/// PRMT of `a` (bytes 0–3) and `b` (bytes 4–7): with `mode` 0 each
/// nibble of `sel` picks a byte (its top bit replicating the byte's sign);
/// modes 1..6 (`.F4E .B4E .RC8 .ECL .ECR .RC16`) derive the four byte
/// indices from `sel & 3` (PTX ISA, "prmt", table of the modes).
fn prmt(a: u32, sel: u32, b: u32, mode: u8) -> u32 {
    let bytes = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
    let s = sel & 3;
    let mut out = 0u32;
    for k in 0..4u32 {
        let pick = match mode {
            1 => (s + k) & 7,
            2 => (s + 8 - k) & 7,
            3 => s,
            4 => k.max(s),
            5 => k.min(s),
            6 => 2 * (s & 1) + (k & 1),
            _ => (sel >> (4 * k)) & 0xf,
        };
        let mut byte = bytes[(pick & 7) as usize];
        if mode == 0 && pick & 8 != 0 {
            byte = if byte & 0x80 != 0 { 0xff } else { 0 };
        }
        out |= u32::from(byte) << (8 * k);
    }
    out
}

/// SHF over whole rows, one shape.
#[inline(always)]
fn shf_rows<const LEFT: bool, const HI: bool, const WRAP: bool, const B64: bool, const SIGNED: bool>(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) -> [u32; 32] {
    let mut out = [0u32; 32];
    for l in 0..32 {
        out[l] = shf1(a[l], b[l], c[l], LEFT, HI, WRAP, B64, SIGNED);
    }
    out
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shf_rows_any(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], left: bool, hi: bool, wrap: bool, bits64: bool, signed: bool) -> [u32; 32] {
    let mut out = [0u32; 32];
    for l in 0..32 {
        out[l] = shf1(a[l], b[l], c[l], left, hi, wrap, bits64, signed);
    }
    out
}

/// LOP3 over whole rows: the union of the minterms the table selects.
#[inline(always)]
fn lop3_rows(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], lut: u8) -> [u32; 32] {
    let mut r = [0u32; 32];
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let (na, nb, nc) = (if k & 4 != 0 { 0 } else { u32::MAX }, if k & 2 != 0 { 0 } else { u32::MAX }, if k & 1 != 0 { 0 } else { u32::MAX });
            for l in 0..32 {
                r[l] |= (a[l] ^ na) & (b[l] ^ nb) & (c[l] ^ nc);
            }
        }
    }
    r
}

fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut r = 0u32;
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let ma = if k & 4 != 0 { a } else { !a };
            let mb = if k & 2 != 0 { b } else { !b };
            let mc = if k & 1 != 0 { c } else { !c };
            r |= ma & mb & mc;
        }
    }
    r
}

fn icmp(cmp: Cmp, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match cmp {
        0 => false,
        1 => o == Less,
        2 => o == Equal,
        3 => o != Greater,
        4 => o == Greater,
        5 => o != Equal,
        6 => o != Less,
        _ => true,
    }
}

fn fcmp(cmp: Cmp, x: f64, y: f64) -> bool {
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
fn combine(r: u32, pin: u32, bop: u8) -> (u32, u32) {
    match bop {
        0 => (r & pin, !r & pin),
        1 => (r | pin, !r | pin),
        _ => (r ^ pin, !r ^ pin),
    }
}

/// The addresses of the lanes of `exec` (the others are 0), with the
/// operand rows looked up once.
#[inline(always)]
fn addresses(w: &Warp, a: &Addr, exec: u32) -> [u64; 32] {
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
fn address(w: &Warp, a: &Addr, l: usize) -> u64 {
    let base = if a.wide && !a.base32 { w.r64(S { r: a.base, m: 0 }, l) } else { u64::from(w.raw(S { r: a.base, m: 0 }, l)) };
    let ur = if a.wide { w.r64(S { r: a.ur, m: 0 }, l) } else { u64::from(w.raw(S { r: a.ur, m: 0 }, l)) };
    let v = (base << a.shift).wrapping_add(ur).wrapping_add(a.offset as i64 as u64);
    if a.wide { v } else { v & 0xffff_ffff }
}

fn write_loaded(w: &mut Warp, d: u16, l: usize, bytes: &[u8], width: super::op::Width) {
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

/// Loads lane `l`'s `width` bytes at `at` of `space` into its rows from `d`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn load_lane(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, w: &mut Warp, d: u16, at: u64, width: super::op::Width, space: Space, l: usize) -> Result<(), InterpError> {
    let n = usize::from(width.bytes);
    let mut buf = [0u8; 16];
    read_mem(cta, memory, space, w.first_thread as usize + l, at, &mut buf[..n])?;
    write_loaded(w, d, l, &buf[..n], width);
    Ok(())
}

/// Stores lane `l`'s `width` bytes from rows `s`… at `at` of `space`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn store_lane(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, w: &Warp, s: u16, at: u64, width: super::op::Width, space: Space, l: usize) -> Result<(), InterpError> {
    let n = usize::from(width.bytes);
    let mut buf = [0u8; 16];
    for k in 0..n.div_ceil(4) {
        let v = w.raw(S { r: s + k as u16, m: 0 }, l).to_le_bytes();
        let take = (n - 4 * k).min(4);
        buf[4 * k..4 * k + take].copy_from_slice(&v[..take]);
    }
    write_mem(cta, memory, space, w.first_thread as usize + l, at, &buf[..n])
}

/// Resolves a generic address to a space and address within it.
fn resolve(space: Space, at: u64) -> (Space, u64) {
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
struct LocalMem {
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
    fn word(&self, at: u64) -> Option<u32> {
        let off = self.stored_word(at)?;
        let b = self.data.get(off..off + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Writes the word at `at` when it is aligned and already stored;
    /// `false` (nothing written) sends the access to [`LocalMem::bytes`].
    #[inline(always)]
    fn set_word(&mut self, at: u64, v: u32) -> bool {
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

fn read_mem(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, space: Space, thread: usize, at: u64, out: &mut [u8]) -> Result<(), InterpError> {
    let n = out.len();
    let align = n.min(16) as u64;
    match resolve(space, at) {
        (Space::Global | Space::Generic, a) => out.copy_from_slice(memory.read(a, n, align).map_err(fault)?),
        (Space::Shared, a) => out.copy_from_slice(cta.shared.read(a, n, align, "shared").map_err(fault)?),
        (Space::Local, a) => out.copy_from_slice(local_of(cta, thread)?.bytes(a, n, align)?),
    }
    Ok(())
}

fn write_mem(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, space: Space, thread: usize, at: u64, bytes: &[u8]) -> Result<(), InterpError> {
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

fn atom_apply(op: AtomOp, ty: AtomType, old: u64, b: u64, c: u64) -> u64 {
    let f32v = |x: u64| f32::from_bits(x as u32);
    match op {
        AtomOp::Exch => b,
        AtomOp::Cas => {
            let eq = match ty {
                AtomType::U64 | AtomType::S64 | AtomType::F64 => old == b,
                _ => old as u32 == b as u32,
            };
            if eq { c } else { old }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Inc => {
            let (o, b) = (old as u32, b as u32);
            u64::from(if o >= b { 0 } else { o + 1 })
        }
        AtomOp::Dec => {
            let (o, b) = (old as u32, b as u32);
            u64::from(if o == 0 || o > b { b } else { o - 1 })
        }
        AtomOp::Add => match ty {
            AtomType::F32 => u64::from((f32v(old) + f32v(b)).to_bits()),
            AtomType::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            AtomType::F16x2 => {
                let mut r = 0u32;
                for h in 0..2 {
                    let x = num::f16_to_f64((old >> (16 * h)) as u16) + num::f16_to_f64((b >> (16 * h)) as u16);
                    r |= u32::from(num::f64_to_f16(x, Round::Nearest)) << (16 * h);
                }
                u64::from(r)
            }
            AtomType::U64 | AtomType::S64 => old.wrapping_add(b),
            _ => u64::from((old as u32).wrapping_add(b as u32)),
        },
        AtomOp::Min | AtomOp::Max => {
            let min = op == AtomOp::Min;
            match ty {
                AtomType::S32 => {
                    let (x, y) = (old as i32, b as i32);
                    u64::from((if min { x.min(y) } else { x.max(y) }) as u32)
                }
                AtomType::S64 => {
                    let (x, y) = (old as i64, b as i64);
                    (if min { x.min(y) } else { x.max(y) }) as u64
                }
                AtomType::U64 => {
                    if min {
                        old.min(b)
                    } else {
                        old.max(b)
                    }
                }
                AtomType::F32 => {
                    let (x, y) = (f32v(old), f32v(b));
                    u64::from((if min { x.min(y) } else { x.max(y) }).to_bits())
                }
                _ => {
                    let (x, y) = (old as u32, b as u32);
                    u64::from(if min { x.min(y) } else { x.max(y) })
                }
            }
        }
    }
}

/// The two carry-out predicates of `IADD3 Rd, Pa, Pb, …` for a full sum.
///
/// The carry (0, 1 or 2) is counted in unary, not written as two binary
/// digits: `IADD3.X` adds each of its two carry-in predicates with weight
/// one (ptxas pairs a lone `IMAD.HI.U32 … P1` carry with a lone `IADD3 … P2`
/// carry as `IADD3.X …, P2, P1` in int64_math's sm_90 cubin), and ptxas
/// feeds a three-way `IADD3 R, P0, P1, …`'s pair straight into
/// `IADD3.X …, P0, P1`, so a carry of two must set both. A carry of three
/// (three negated zeros) cannot be expressed and sets both.
fn iadd3_carry_preds(sum: u64) -> (bool, bool) {
    let carry = sum >> 32;
    (carry >= 1, carry >= 2)
}

/// `IMAD.HI`'s result word and carry-out from the full sum a·b + c.64 (+
/// carry-in): the word is bits 32..63 and the carry is bit 64, the carry
/// out of that word (ptxas chains it into `IADD3.X` when it builds the high
/// half of a 128-bit product in its 64-bit division routine).
fn imad_hi(full: u128) -> (u32, bool) {
    ((full >> 32) as u32, full >> 64 & 1 == 1)
}

/// FMNMX.XORSIGN's result from the plain minimum/maximum `v` of the
/// operands' magnitudes and the registers `ra`, `rb`: a number takes the
/// exclusive-or of their signs; a NaN stays as it is.
fn xorsign_of(v: u32, ra: u32, rb: u32) -> u32 {
    if f32::from_bits(v).is_nan() { v } else { (v & 0x7fff_ffff) | ((ra ^ rb) & 0x8000_0000) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xorsign_puts_the_sign_exclusive_or_on_numbers_only() {
        // min.xorsign.abs(-2, 3) = -2; (-2, -3) = +2; (2, 3) = +2.
        assert_eq!(xorsign_of(0x4000_0000, 0xc000_0000, 0x4040_0000), 0xc000_0000);
        assert_eq!(xorsign_of(0x4000_0000, 0xc000_0000, 0xc040_0000), 0x4000_0000);
        assert_eq!(xorsign_of(0x4000_0000, 0x4000_0000, 0x4040_0000), 0x4000_0000);
        assert_eq!(xorsign_of(0, 0x8000_0000, 0), 0x8000_0000);
        assert_eq!(xorsign_of(0x7fff_ffff, 0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
    }

    #[test]
    fn imad_hi_carries_out_of_bit_63() {
        // int64_math.i64_mul_div, x / 1: 0xffffffff * 0xda13d4de plus the
        // pair 0x78f438cd_611f9c10 is 0x1_53080daa_870bc732 (worked by
        // hand), so the word is 0x53080daa and the carry is set.
        let full = 0xffff_ffffu128 * 0xda13_d4de + 0x78f4_38cd_611f_9c10;
        assert_eq!(full, 0x1_5308_0daa_870b_c732);
        assert_eq!(imad_hi(full), (0x5308_0daa, true));
        assert_eq!(imad_hi(0xffff_ffff_ffff_ffff), (0xffff_ffff, false));
    }

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
    fn iadd3_carry_of_two_sets_both_predicates() {
        // casts.widen_sum, element 489: (s8)-17 + (u8)130 + (s16)-101 as
        // 32-bit words 0xffffffef + 0x82 + 0xffffff9b = 2^33 + 12, whose high
        // words -1 + -1 plus the carries must give 0 (the true sum is 12).
        let sum = 0xffff_ffefu64 + 0x82 + 0xffff_ff9b;
        let (p0, p1) = iadd3_carry_preds(sum);
        assert_eq!((sum as u32, p0, p1), (12, true, true));
        let hi = 0xffff_ffffu32.wrapping_add(0xffff_ffff).wrapping_add(u32::from(p0)).wrapping_add(u32::from(p1));
        assert_eq!(hi, 0);
        assert_eq!(iadd3_carry_preds(0xffff_ffff), (false, false));
        assert_eq!(iadd3_carry_preds(1 << 32), (true, false));
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
    fn lop3_rows_match_the_table_lane_by_lane() {
        let a: [u32; 32] = std::array::from_fn(|l| (l as u32).wrapping_mul(0x9e37_79b9));
        let b: [u32; 32] = std::array::from_fn(|l| (l as u32) ^ 0x5555_aaaa);
        let c: [u32; 32] = std::array::from_fn(|l| !(l as u32) << 3);
        for lut in [0x00u8, 0xc0, 0xfc, 0x96, 0xe8, 0xf8, 0x3c, 0xff] {
            let rows = lop3_rows(&a, &b, &c, lut);
            for l in 0..32 {
                assert_eq!(rows[l], lop3(a[l], b[l], c[l], lut), "lut {lut:#x} lane {l}");
            }
        }
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

/// The mbarrier object as the interpreter models it: one 64-bit word in
/// shared memory, laid out so that the word ptxas's `mbarrier.init` stores
/// (`(2^20 - count) << 1` low, `(2^20 - count) << 11` high: see
/// `lower/mbarrier.rs`) is its initial state. Bits 1–20 count arrivals up
/// from `2^20 - expected` (the phase's arrivals are all in when they wrap
/// to 0), 21–41 the pending transaction bytes (21-bit two's complement:
/// expected bytes add, completed ones subtract), 43–62 the count the
/// arrivals restart from, 63 the current phase's parity. A phase completes
/// when its arrivals are in and no transaction bytes are pending: the
/// parity flips and the arrivals restart. Where the hardware keeps these
/// fields is not documented; only SYNCS instructions read the word here.
mod mbarrier {
    use super::{Cta, InterpError, Space, read_mem, write_mem};

    const ARRIVALS: u64 = 0xf_ffff << 1;
    const TX_SHIFT: u32 = 21;
    const TX: u64 = 0x1f_ffff << TX_SHIFT;
    const RESTART_SHIFT: u32 = 43;
    const PHASE: u64 = 1 << 63;

    pub(super) fn read(cta: &mut Cta, memory: &crate::interp::memory::GlobalMemory, at: u64) -> Result<u64, InterpError> {
        let mut buf = [0u8; 8];
        read_mem(cta, memory, Space::Shared, 0, at, &mut buf)?;
        Ok(u64::from_le_bytes(buf))
    }

    pub(super) fn write(cta: &mut Cta, memory: &mut crate::interp::memory::GlobalMemory, at: u64, word: u64) -> Result<(), InterpError> {
        write_mem(cta, memory, Space::Shared, 0, at, &word.to_le_bytes())
    }

    fn with_tx(word: u64, tx: u64) -> u64 {
        word & !TX | (tx << TX_SHIFT) & TX
    }

    /// One arrival that also expects `bytes` more transaction bytes.
    pub(super) fn arrive(word: u64, bytes: u32) -> u64 {
        let arrivals = (((word & ARRIVALS) >> 1) + 1) & 0xf_ffff;
        let tx = ((word & TX) >> TX_SHIFT).wrapping_add(u64::from(bytes));
        with_tx(word & !ARRIVALS | arrivals << 1, tx)
    }

    /// `bytes` transaction bytes completed.
    pub(super) fn complete_tx(word: u64, bytes: u32) -> u64 {
        with_tx(word, ((word & TX) >> TX_SHIFT).wrapping_sub(u64::from(bytes)))
    }

    /// The word with its phase completed, where it is.
    pub(super) fn complete_if_done(word: u64) -> u64 {
        if word & (ARRIVALS | TX) != 0 {
            return word;
        }
        let restart = (word >> RESTART_SHIFT) & 0xf_ffff;
        (word ^ PHASE) | restart << 1
    }

    /// Whether the phase of parity `parity` has completed: the current
    /// phase has the other parity.
    pub(super) fn phase_done(word: u64, parity: u32) -> bool {
        (word >> 63) as u32 != parity & 1
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The word ptxas's code stores for `mbarrier.init` with `count`.
        fn init(count: u64) -> u64 {
            let n = (1 << 20) - count;
            n << 1 | (n << 11) << 32
        }

        #[test]
        fn one_arrival_with_transactions_completes_the_phase() {
            // mbarrier.init 1; two bulk copies of 32 and 16 bytes complete
            // before the arrival that expects their 48 bytes.
            let w = init(1);
            assert!(!phase_done(w, 0));
            let w = complete_if_done(complete_tx(w, 32));
            let w = complete_if_done(complete_tx(w, 16));
            assert!(!phase_done(w, 0), "the arrival is still missing");
            let w = complete_if_done(arrive(w, 48));
            assert!(phase_done(w, 0) && !phase_done(w, 1));
            // The next phase restarts at one pending arrival.
            assert_eq!(w, init(1) | 1 << 63);
        }

        #[test]
        fn a_phase_waits_for_every_arrival_and_every_byte() {
            let w = complete_if_done(arrive(init(3), 0));
            let w = complete_if_done(arrive(w, 64));
            assert!(!phase_done(w, 0));
            let w = complete_if_done(arrive(w, 0));
            assert!(!phase_done(w, 0), "64 bytes pending");
            let w = complete_if_done(complete_tx(w, 64));
            assert!(phase_done(w, 0));
            assert_eq!(w, init(3) | 1 << 63);
        }
    }
}
