//! Regions: how many units each regalloc2 class gets ([`pressure`]) and
//! which physical registers they are ([`Layout`]).
//!
//! R: the convention's low registers (R0, R2…, up to the highest word a
//! call or the function's own parameters use) are singles; then the
//! spill scratch register when the UR/P run needs one, or instead the
//! R registers that hold its spilled values ([`Layout::homes`]); then the quads at
//! the lowest free 4-aligned groups, the pairs at the lowest free aligned
//! pairs, and the remaining singles in the lowest free registers. R1 is
//! never a unit. UR: pairs, then singles, in UR0…UR62. P and UP: P0…P6.

use super::Kind;
use super::prep::Prog;

/// Most units of one regalloc2 class.
pub const MAX_UNITS: u32 = 64;

/// R registers a function may use at most (R255 is RZ).
pub const MAX_GPR: u32 = 255;

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

/// The most values of each kind live at once (index: `Kind as usize`).
pub fn pressure(prog: &Prog) -> [u32; 7] {
    let nv = prog.kinds.len();
    let nb = prog.blocks.len();
    // Liveness: live-in sets per block from each block's transfer
    // function, iterated to a fixed point over bit sets.
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
    let mut max = [0u32; 7];
    let kind = |v: u32| prog.kinds.get(v as usize).map_or(0, |k| *k as usize);
    for b in 0..nb {
        block_live_out_into(prog, b, &live_in, &mut live);
        let mut count = [0u32; 7];
        for v in live.iter() {
            count[kind(v)] += 1;
        }
        let block = &prog.blocks[b];
        for i in (block.start..block.end).rev() {
            let inst = &prog.insts[i as usize];
            let mut at = count;
            for d in inst.defs() {
                if !live.contains(d.vreg) {
                    at[kind(d.vreg)] += 1;
                }
            }
            for k in 0..7 {
                max[k] = max[k].max(at[k]);
            }
            for d in inst.defs() {
                if live.remove(d.vreg) {
                    count[kind(d.vreg)] -= 1;
                }
            }
            for u in inst.uses() {
                if live.insert(u.vreg) {
                    count[kind(u.vreg)] += 1;
                }
            }
            for k in 0..7 {
                max[k] = max[k].max(count[k]);
            }
        }
    }
    max
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
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Per run, per class, the base register of each unit.
    pub units: [[Vec<u8>; 3]; 3],
    /// The R register reserved for UR/P spills through the frame.
    pub scratch: Option<u8>,
    /// The R registers that hold the UR/P run's spilled values, one per
    /// 4-byte spill slot (slot `k` lives in `homes[k]`), when the function
    /// makes no calls and they fit under the register limit: a predicate
    /// or uniform value then spills into a register that nothing else
    /// uses, not into the frame (ptxas too keeps spilled predicates in R
    /// registers rather than local memory when registers are free).
    pub homes: Vec<u8>,
}

impl Layout {
    /// The class index (unit number) of physical R register `r` among
    /// the singles.
    pub fn single_unit(&self, r: u8) -> Option<usize> {
        self.units[0][0].iter().position(|u| *u == r)
    }

    /// The physical base register of unit `u` of `kind`.
    pub fn phys(&self, kind: Kind, u: usize) -> Option<u8> {
        let (run, class) = kind.slot();
        self.units[run][class].get(u).copied()
    }
}

/// The R registers [`place_r`] placed: the regions' units, the scratch
/// register and the UR/P spill homes.
pub struct PlacedR {
    /// The base register of each unit of singles, pairs and quads.
    pub units: [Vec<u8>; 3],
    /// The scratch register for UR/P spills through the frame.
    pub scratch: Option<u8>,
    /// The home register of each UR/P spill slot.
    pub homes: Vec<u8>,
}

/// Places the R regions: `counts` are units of singles, pairs and quads;
/// registers `0..abi_top` (but R1) must be singles; `homes` registers are
/// set aside for the UR/P run's spill slots; `limit` bounds the register
/// numbers (R1 included). `None` when they do not fit.
pub fn place_r(counts: [u32; 3], abi_top: u32, scratch: bool, homes: u32, limit: u32) -> Option<PlacedR> {
    let limit = limit.min(MAX_GPR) as usize;
    let mut used = [false; 256];
    used[1] = true;
    for u in used.iter_mut().skip(limit) {
        *u = true;
    }
    let mut singles = Vec::new();
    for r in 0..abi_top as usize {
        if r != 1 {
            if r >= limit {
                return None;
            }
            used[r] = true;
            singles.push(r as u8);
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
    let mut quads = Vec::new();
    for _ in 0..counts[2].min(MAX_UNITS) {
        quads.push(take(4, &mut used)?);
    }
    let mut pairs = Vec::new();
    for _ in 0..counts[1].min(MAX_UNITS) {
        pairs.push(take(2, &mut used)?);
    }
    while (singles.len() as u32) < counts[0].min(MAX_UNITS) {
        singles.push(take(1, &mut used)?);
    }
    singles.sort_unstable();
    Some(PlacedR { units: [singles, pairs, quads], scratch, homes })
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
