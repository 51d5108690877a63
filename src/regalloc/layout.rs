//! Liveness ([`liveness`], [`extents`]) and regions: how many units each regalloc2 class gets ([`pressure`]) and
//! which physical registers they are ([`Layout`]).
//!
//! R: the convention's low registers (R0, R2…, up to the highest word a
//! call or the function's own parameters use) are singles; then the
//! spill scratch register when the UR/P run needs one, or instead the
//! R registers that hold its spilled values ([`Layout::homes`]); then the quads at
//! the lowest free 4-aligned groups, the pairs at the lowest free aligned
//! pairs, and the remaining singles in the lowest free registers (each
//! width run after run where several R runs share the file,
//! [`super::split`]). R1 is never a unit. UR: pairs, then singles, in UR0…UR62. P and UP: P0…P6.

use super::prep::Prog;

/// Most units of one regalloc2 class.
pub const MAX_UNITS: u32 = 64;

/// R registers a function may use at most (R255 is RZ).
pub const MAX_GPR: u32 = 255;

/// R registers a function may name without a limit of its own: the count
/// a cubin declares is two more than the registers named (as ptxas's,
/// `emit`'s `REGISTER_COUNT_EXTRA`) and must not pass 255.
pub const MAX_NAMED_GPR: u32 = MAX_GPR - 2;

/// UR registers used (UR63 is URZ up to sm_90; from sm_100 the file is
/// larger, but regalloc2's classes hold 64 units anyway).
pub const MAX_UGPR: u32 = 63;

/// Predicates P0–P6 (P7 is PT), and the same for UP.
pub const MAX_PRED: u32 = 7;

/// A set of virtual registers, one bit each.
#[derive(Clone, PartialEq, Eq)]
struct VregSet(Vec<u64>);

impl VregSet {
    fn new(nv: usize) -> VregSet {
        VregSet(vec![0; nv.div_ceil(64)])
    }
    fn contains(&self, v: u32) -> bool {
        self.0.get(v as usize / 64).is_some_and(|w| w >> (v % 64) & 1 == 1)
    }
    /// Adds `v`; whether it was new.
    fn insert(&mut self, v: u32) -> bool {
        let Some(w) = self.0.get_mut(v as usize / 64) else { return false };
        let bit = 1u64 << (v % 64);
        let new = *w & bit == 0;
        *w |= bit;
        new
    }
    /// Removes `v`; whether it was there.
    fn remove(&mut self, v: u32) -> bool {
        let Some(w) = self.0.get_mut(v as usize / 64) else { return false };
        let bit = 1u64 << (v % 64);
        let had = *w & bit != 0;
        *w &= !bit;
        had
    }
    fn union_with(&mut self, other: &VregSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    k as u32 * 64 + b
                })
            })
        })
    }
}

/// What a block does to liveness, backwards: its live-in set is
/// `gen ∪ (live-out − kill)` (parameters in `kill`, not in `gen`).
struct Transfer {
    gen_set: VregSet,
    kill: VregSet,
}

fn transfer(prog: &Prog, b: usize, nv: usize) -> Transfer {
    let block = &prog.blocks[b];
    let mut t = Transfer { gen_set: VregSet::new(nv), kill: VregSet::new(nv) };
    for i in (block.start..block.end).rev() {
        let inst = &prog.insts[i as usize];
        for d in inst.defs() {
            t.gen_set.remove(d.vreg);
            t.kill.insert(d.vreg);
        }
        for u in inst.uses() {
            t.gen_set.insert(u.vreg);
        }
    }
    for &p in &block.params {
        t.gen_set.remove(p);
        t.kill.insert(p);
    }
    t
}

/// The values live into each block, from the blocks' transfer functions
/// iterated to a fixed point over bit sets.
pub struct Liveness {
    live_in: Vec<VregSet>,
}

/// The liveness of the program's virtual registers.
pub fn liveness(prog: &Prog) -> Liveness {
    let nv = prog.kinds.len();
    let nb = prog.blocks.len();
    let transfers: Vec<Transfer> = (0..nb).map(|b| transfer(prog, b, nv)).collect();
    let mut live_in: Vec<VregSet> = vec![VregSet::new(nv); nb];
    // One scratch set for every step of the iteration.
    let mut live = VregSet::new(nv);
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds < 64 {
        changed = false;
        rounds += 1;
        for b in (0..nb).rev() {
            block_live_out_into(prog, b, &live_in, &mut live);
            let t = &transfers[b];
            for ((l, g), k) in live.0.iter_mut().zip(&t.gen_set.0).zip(&t.kill.0) {
                *l = (*l & !k) | g;
            }
            if live != live_in[b] {
                live_in[b].0.copy_from_slice(&live.0);
                changed = true;
            }
        }
    }
    Liveness { live_in }
}

/// The most values of each kind live at once (index: `Kind as usize`).
pub fn pressure(prog: &Prog, live: &Liveness) -> [u32; 7] {
    let p = pressure_by(prog, live, 7, |v| prog.kinds.get(v as usize).map_or(0, |k| *k as usize));
    std::array::from_fn(|k| p[k])
}

/// The most values of each key live at once, for a key of each virtual
/// register below `keys`.
pub fn pressure_by(prog: &Prog, liveness: &Liveness, keys: usize, key: impl Fn(u32) -> usize) -> Vec<u32> {
    let nv = prog.kinds.len();
    let mut live = VregSet::new(nv);
    let mut max = vec![0u32; keys];
    let mut count = vec![0u32; keys];
    let mut at = vec![0u32; keys];
    for b in 0..prog.blocks.len() {
        block_live_out_into(prog, b, &liveness.live_in, &mut live);
        count.fill(0);
        for v in live.iter() {
            count[key(v)] += 1;
        }
        let block = &prog.blocks[b];
        for i in (block.start..block.end).rev() {
            let inst = &prog.insts[i as usize];
            at.copy_from_slice(&count);
            for d in inst.defs() {
                if !live.contains(d.vreg) {
                    at[key(d.vreg)] += 1;
                }
            }
            for k in 0..keys {
                max[k] = max[k].max(at[k]);
            }
            for d in inst.defs() {
                if live.remove(d.vreg) {
                    count[key(d.vreg)] -= 1;
                }
            }
            for u in inst.uses() {
                if live.insert(u.vreg) {
                    count[key(u.vreg)] += 1;
                }
            }
            for k in 0..keys {
                max[k] = max[k].max(count[k]);
            }
        }
    }
    max
}

/// Each virtual register's extent in the linear order of the program
/// (first and last point, both included; `None` for an unused one):
/// instruction `i` reads at point `2i` and writes at `2i + 1`, a block's
/// parameters are written at its first point, and a value live into or
/// out of a block covers the block's first or last point. Two values
/// whose extents do not overlap are never live at once.
pub fn extents(prog: &Prog, liveness: &Liveness) -> Vec<Option<(u32, u32)>> {
    let nv = prog.kinds.len();
    let mut ext: Vec<Option<(u32, u32)>> = vec![None; nv];
    let mut cover = |v: u32, p: u32| {
        if let Some(e) = ext.get_mut(v as usize) {
            *e = Some(e.map_or((p, p), |(a, b)| (a.min(p), b.max(p))));
        }
    };
    let mut live = VregSet::new(nv);
    for (b, block) in prog.blocks.iter().enumerate() {
        let (first, last) = (2 * block.start, (2 * block.end).saturating_sub(1).max(2 * block.start));
        for v in liveness.live_in[b].iter() {
            cover(v, first);
        }
        for &p in &block.params {
            cover(p, first);
        }
        block_live_out_into(prog, b, &liveness.live_in, &mut live);
        for v in live.iter() {
            cover(v, last);
        }
        for i in block.start..block.end {
            for op in &prog.insts[i as usize].ops {
                cover(op.vreg, 2 * i + u32::from(op.def));
            }
        }
    }
    ext
}

/// The values live at the end of block `b` (before its branch's
/// arguments are read): the successors' live-in values (which exclude
/// their parameters), and the arguments; written into `live`.
fn block_live_out_into(prog: &Prog, b: usize, live_in: &[VregSet], live: &mut VregSet) {
    live.0.fill(0);
    let block = &prog.blocks[b];
    for (k, &s) in block.succs.iter().enumerate() {
        if let Some(l) = live_in.get(s as usize) {
            live.union_with(l);
        }
        for &a in block.args.get(k).map(Vec::as_slice).unwrap_or(&[]) {
            live.insert(a);
        }
    }
}

/// The physical registers of each run's classes: `units[run][class]` is
/// the first physical register of each unit.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per run, per class, the base register of each unit: the R run, the
    /// UR and P run, the UP run, then the further R runs
    /// ([`super::split`]).
    pub units: Vec<[Vec<u8>; 3]>,
    /// The R register reserved for UR/P spills through the frame.
    pub scratch: Option<u8>,
    /// The R register that holds each of the UR/P run's 4-byte spill slots
    /// (slot `k` lives in `homes[k]`), when the function makes no calls
    /// and they fit under the register limit: a predicate or uniform value
    /// then spills into a register that nothing else uses, not into the
    /// frame (ptxas too keeps spilled predicates in R registers rather
    /// than local memory when registers are free). A uniform word's slot
    /// has a register of its own; predicate slots share registers, one bit
    /// each ([`home_bits`](Self::home_bits)).
    pub homes: Vec<u8>,
    /// The bit of its home register that holds each predicate slot (`None`
    /// for a uniform word's slot, which holds the whole register).
    pub home_bits: Vec<Option<u8>>,
}

/// How the UR/P run's spill slots share home registers: a uniform word's
/// slot takes a register, predicate slots take one bit each, 32 to a
/// register (Triton's kernels keep 30–60 masks live at once, which one
/// register each would take from the R regions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HomePlan {
    /// Home registers needed.
    pub regs: u32,
    /// Per slot, the index of its home register and its bit for a
    /// predicate slot (`None` for a slot no move uses).
    pub slots: Vec<Option<(u32, Option<u8>)>>,
}

impl HomePlan {
    /// The plan for `slots` slots of which `pred` hold predicates and
    /// `word` uniform words (a slot in both, which regalloc2 does not
    /// give, is a word slot).
    pub fn new(slots: usize, pred: &[bool], word: &[bool]) -> HomePlan {
        let mut plan = HomePlan { regs: 0, slots: vec![None; slots] };
        for s in 0..slots {
            if word.get(s).copied().unwrap_or(false) {
                plan.slots[s] = Some((plan.regs, None));
                plan.regs += 1;
            }
        }
        let mut bit = 32;
        for s in 0..slots {
            if pred.get(s).copied().unwrap_or(false) && plan.slots[s].is_none() {
                if bit == 32 {
                    plan.regs += 1;
                    bit = 0;
                }
                plan.slots[s] = Some((plan.regs - 1, Some(bit)));
                bit += 1;
            }
        }
        plan
    }

    /// Each slot's home register and bit, given the registers placed for
    /// the plan (an unused slot gets the first, never read).
    pub fn place(&self, regs: &[u8]) -> (Vec<u8>, Vec<Option<u8>>) {
        let first = regs.first().copied().unwrap_or(0);
        let at = |s: &Option<(u32, Option<u8>)>| s.and_then(|(r, b)| regs.get(r as usize).map(|&x| (x, b)));
        self.slots.iter().map(|s| at(s).map_or((first, None), |(r, b)| (r, b))).unzip()
    }
}

impl Layout {
    /// A layout of `runs` runs, every region empty.
    pub fn new(runs: usize) -> Layout {
        Layout { units: vec![Default::default(); runs.max(3)], scratch: None, homes: Vec::new(), home_bits: Vec::new() }
    }

    /// The class index (unit number) of physical R register `r` among
    /// the singles of the first R run (the one that holds the calling
    /// convention's registers).
    pub fn single_unit(&self, r: u8) -> Option<usize> {
        self.units[0][0].iter().position(|u| *u == r)
    }

    /// The physical base register of unit `u` of class `class` in run
    /// `run`.
    pub fn phys(&self, run: usize, class: usize, u: usize) -> Option<u8> {
        self.units.get(run)?.get(class)?.get(u).copied()
    }
}

/// The R registers [`place_r`] placed: the regions' units, the scratch
/// register and the UR/P spill homes.
pub struct PlacedR {
    /// Per R run, the base register of each unit of singles, pairs and
    /// quads.
    pub units: Vec<[Vec<u8>; 3]>,
    /// The scratch register for UR/P spills through the frame.
    pub scratch: Option<u8>,
    /// The home register of each UR/P spill slot.
    pub homes: Vec<u8>,
}

/// Places the R regions: `counts` are, per R run, units of singles, pairs
/// and quads; registers `0..abi_top` (but R1) must be singles of the
/// first run; `homes` registers are set aside for the UR/P run's spill
/// slots; `limit` bounds the register numbers (R1 included). `None` when
/// they do not fit. Quads come first (every run's), then pairs, then
/// singles, each at the lowest free registers.
pub fn place_r(counts: &[[u32; 3]], abi_top: u32, scratch: bool, homes: u32, limit: u32) -> Option<PlacedR> {
    let limit = limit.min(MAX_GPR) as usize;
    let mut used = [false; 256];
    used[1] = true;
    for u in used.iter_mut().skip(limit) {
        *u = true;
    }
    let mut units: Vec<[Vec<u8>; 3]> = vec![Default::default(); counts.len().max(1)];
    for r in 0..abi_top as usize {
        if r != 1 {
            if r >= limit {
                return None;
            }
            used[r] = true;
            units[0][0].push(r as u8);
        }
    }
    let take = |width: usize, used: &mut [bool; 256]| -> Option<u8> {
        let base = (0..256).step_by(width).find(|&b| b + width <= 256 && (b..b + width).all(|r| !used[r]))?;
        for r in base..base + width {
            used[r] = true;
        }
        Some(base as u8)
    };
    let scratch = if scratch { Some(take(1, &mut used)?) } else { None };
    let homes = (0..homes).map(|_| take(1, &mut used)).collect::<Option<Vec<u8>>>()?;
    for (class, width) in [(2, 4), (1, 2), (0, 1)] {
        for (run, c) in counts.iter().enumerate() {
            while (units[run][class].len() as u32) < c[class].min(MAX_UNITS) {
                units[run][class].push(take(width, &mut used)?);
            }
        }
    }
    for u in &mut units {
        u[0].sort_unstable();
    }
    Some(PlacedR { units, scratch, homes })
}

/// Places the UR regions (pairs, then singles) and the predicates.
pub fn place_u(counts: [u32; 3]) -> Option<[Vec<u8>; 3]> {
    let mut used = [false; MAX_UGPR as usize];
    let mut pairs = Vec::new();
    for _ in 0..counts[1] {
        let b = (0..MAX_UGPR as usize - 1).step_by(2).find(|&b| !used[b] && !used[b + 1])?;
        used[b] = true;
        used[b + 1] = true;
        pairs.push(b as u8);
    }
    let mut singles = Vec::new();
    for _ in 0..counts[0] {
        let r = (0..MAX_UGPR as usize).find(|&r| !used[r])?;
        used[r] = true;
        singles.push(r as u8);
    }
    let preds = (0..counts[2].min(MAX_PRED) as u8).collect();
    Some([singles, pairs, preds])
}
