//! The regalloc2 runs: one [`RunFunc`] per run (R; UR and P; UP) over the
//! same program, region sizes from the pressure, re-sized on spills.

use super::layout::{self, Layout, MAX_PRED, MAX_UNITS};
use super::prep::{PKind, Prog};
use super::rewrite;
use super::split::{self, Runs};
use super::{Allocated, Kind, RUNS, RegallocOptions};
use regalloc2::{
    Allocation, Block, Edit, Function, Inst, InstRange, MachineEnv, Operand, OperandConstraint, OperandKind, OperandPos, Output, PReg, PRegSet, ProgPoint, RegClass, VReg,
};

const CLASSES: [RegClass; 3] = [RegClass::Int, RegClass::Float, RegClass::Vector];

/// One run's view of the program, as regalloc2's [`Function`].
pub struct RunFunc<'a> {
    prog: &'a Prog<'a>,
    operands: Vec<Operand>,
    offsets: Vec<u32>,
    clobbers: Vec<PRegSet>,
    params: Vec<Vec<VReg>>,
    args: Vec<Vec<Vec<VReg>>>,
    succs: Vec<Vec<Block>>,
    preds: Vec<Vec<Block>>,
    /// Class of each vreg in this run (None: another run's).
    class: Vec<Option<RegClass>>,
    /// Spill slots of a Vector-class value.
    vector_slots: usize,
}

impl<'a> RunFunc<'a> {
    /// Builds run `run`'s view; fixed registers are found in `layout`.
    pub fn new(prog: &'a Prog<'a>, run: usize, layout: &Layout, runs: &Runs) -> Result<RunFunc<'a>, String> {
        let class: Vec<Option<RegClass>> = (0..prog.kinds.len() as u32).map(|v| (runs.of(v) == run).then_some(CLASSES[runs.class_of(v)])).collect();
        let vreg = |v: u32| class.get(v as usize).copied().flatten().map(|c| VReg::new(v as usize, c));
        let mut operands = Vec::with_capacity(prog.insts.iter().map(|i| i.ops.len()).sum());
        let mut offsets = Vec::with_capacity(prog.insts.len() + 1);
        let mut clobbers = Vec::with_capacity(prog.insts.len());
        // Every unit of this run, for the clobbers of calls.
        let mut all = PRegSet::empty();
        for (c, units) in layout.units[run].iter().enumerate() {
            for u in 0..units.len() {
                all.add(PReg::new(u, CLASSES[c]));
            }
        }
        for inst in &prog.insts {
            offsets.push(operands.len() as u32);
            let mut clobber = PRegSet::empty();
            if matches!(inst.kind, PKind::Call { .. }) {
                clobber = all;
            }
            // Positions of this run's operands within the instruction's.
            let mut mine: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
            for (k, op) in inst.ops.iter().enumerate() {
                if vreg(op.vreg).is_some() {
                    mine.push(k);
                }
            }
            for &k in &mine {
                let op = inst.ops[k];
                let Some(v) = vreg(op.vreg) else { continue };
                let constraint = if let Some(r) = op.fixed {
                    if run != 0 {
                        return Err("a fixed register outside the R file".into());
                    }
                    let u = layout.single_unit(r).ok_or_else(|| format!("R{r} is not a single register of the layout"))?;
                    let p = PReg::new(u, RegClass::Int);
                    if op.def {
                        clobber.remove(p);
                    }
                    OperandConstraint::FixedReg(p)
                } else if let Some(at) = op.reuse {
                    let idx = mine.iter().position(|&m| m == usize::from(at)).ok_or("a reuse of another run's register")?;
                    OperandConstraint::Reuse(idx)
                } else {
                    OperandConstraint::Reg
                };
                let (kind, pos) = if op.def { (OperandKind::Def, OperandPos::Late) } else { (OperandKind::Use, OperandPos::Early) };
                operands.push(Operand::new(v, constraint, kind, pos));
            }
            clobbers.push(clobber);
        }
        offsets.push(operands.len() as u32);
        let mut params = Vec::with_capacity(prog.blocks.len());
        let mut args = Vec::with_capacity(prog.blocks.len());
        for b in &prog.blocks {
            params.push(b.params.iter().filter_map(|&p| vreg(p)).collect());
            let mut per = Vec::new();
            for (k, a) in b.args.iter().enumerate() {
                let target = &prog.blocks[b.succs[k] as usize];
                if a.len() != target.params.len() {
                    return Err(format!("a branch passes {} arguments to a block of {} parameters", a.len(), target.params.len()));
                }
                per.push(a.iter().filter_map(|&x| vreg(x)).collect());
            }
            args.push(per);
        }
        // Arguments and parameters must pair within the run.
        for (b, block) in prog.blocks.iter().enumerate() {
            for (k, a) in block.args.iter().enumerate() {
                let target = &prog.blocks[block.succs[k] as usize];
                for (x, p) in a.iter().zip(&target.params) {
                    if prog.kinds.get(*x as usize) != prog.kinds.get(*p as usize) {
                        return Err(format!("block {b} passes a {:?} value to a {:?} parameter", prog.kinds.get(*x as usize), prog.kinds.get(*p as usize)));
                    }
                }
            }
        }
        let succs = prog.blocks.iter().map(|b| b.succs.iter().map(|s| Block::new(*s as usize)).collect()).collect();
        let preds = prog.blocks.iter().map(|b| b.preds.iter().map(|s| Block::new(*s as usize)).collect()).collect();
        Ok(RunFunc { prog, operands, offsets, clobbers, params, args, succs, preds, class, vector_slots: if Runs::is_r(run) { 4 } else { 1 } })
    }
}

impl Function for RunFunc<'_> {
    fn num_insts(&self) -> usize {
        self.prog.insts.len()
    }
    fn num_blocks(&self) -> usize {
        self.prog.blocks.len()
    }
    fn entry_block(&self) -> Block {
        Block::new(0)
    }
    fn block_insns(&self, block: Block) -> InstRange {
        let b = &self.prog.blocks[block.index()];
        InstRange::new(Inst::new(b.start as usize), Inst::new(b.end as usize))
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        &self.succs[block.index()]
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        &self.preds[block.index()]
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        &self.params[block.index()]
    }
    fn is_ret(&self, insn: Inst) -> bool {
        self.prog.blocks.iter().any(|b| b.end as usize == insn.index() + 1 && b.succs.is_empty())
    }
    fn is_branch(&self, insn: Inst) -> bool {
        matches!(self.prog.insts[insn.index()].kind, PKind::Branch { .. } | PKind::CondBranch { .. })
    }
    fn branch_blockparams(&self, block: Block, _insn: Inst, succ_idx: usize) -> &[VReg] {
        &self.args[block.index()][succ_idx]
    }
    fn inst_operands(&self, insn: Inst) -> &[Operand] {
        let (a, b) = (self.offsets[insn.index()] as usize, self.offsets[insn.index() + 1] as usize);
        &self.operands[a..b]
    }
    fn inst_clobbers(&self, insn: Inst) -> PRegSet {
        self.clobbers[insn.index()]
    }
    fn num_vregs(&self) -> usize {
        self.class.len()
    }
    fn spillslot_size(&self, regclass: RegClass) -> usize {
        // In 4-byte slots: the R run's classes are 1, 2 and 4 words wide,
        // the UR/P run's 1, 2 and 1.
        match regclass {
            RegClass::Int => 1,
            RegClass::Float => 2,
            RegClass::Vector => self.vector_slots,
        }
    }
}

/// One run's result: per instruction, the allocation of each of this
/// run's operands by vreg; the moves; spill slot count.
pub struct RunOut {
    /// Run index.
    pub run: usize,
    /// (vreg, class, unit) of every instruction's operands, instruction
    /// after instruction (one list, not one allocation per instruction).
    allocs: Vec<(u32, usize, usize)>,
    /// Where each instruction's operands start in `allocs`, and the end.
    starts: Vec<u32>,
    /// (point, from, to, kind of the moved value).
    pub moves: Vec<(ProgPoint, Allocation, Allocation, Kind)>,
    /// 4-byte spill slots used.
    pub slots: u32,
}

impl RunOut {
    /// (vreg, class, unit) of instruction `i`'s operands in this run.
    pub fn allocs_of(&self, i: usize) -> &[(u32, usize, usize)] {
        let range = self.starts.get(i).zip(self.starts.get(i + 1)).map_or(0..0, |(&a, &b)| a as usize..b as usize);
        self.allocs.get(range).unwrap_or(&[])
    }
}

/// Runs regalloc2 for run `run` with `layout`.
fn run_one(prog: &Prog, run: usize, layout: &Layout, runs: &Runs, check: bool, ctx: &mut regalloc2::Ctx) -> Result<RunOut, String> {
    // A run whose files the program does not use (most kernels have no UP
    // value) has nothing to allocate; regalloc2's fixed cost per run is not
    // small, so it is not asked.
    if !(0..prog.kinds.len() as u32).any(|v| runs.of(v) == run) {
        return Ok(RunOut { run, allocs: Vec::new(), starts: vec![0; prog.insts.len() + 1], moves: Vec::new(), slots: 0 });
    }
    let func = RunFunc::new(prog, run, layout, runs)?;
    let mut env = MachineEnv {
        preferred_regs_by_class: [PRegSet::empty(); 3],
        non_preferred_regs_by_class: [PRegSet::empty(); 3],
        scratch_by_class: [None; 3],
        fixed_stack_slots: Vec::new(),
    };
    for (c, units) in layout.units[run].iter().enumerate() {
        for u in 0..units.len() {
            env.preferred_regs_by_class[c].add(PReg::new(u, CLASSES[c]));
        }
    }
    let options = regalloc2::RegallocOptions { verbose_log: false, validate_ssa: check, algorithm: regalloc2::Algorithm::Ion };
    // regalloc2 may panic on constraints it cannot meet; that is an error
    // of this function, not a crash of the compiler (and the context it
    // left half-written is replaced).
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| regalloc2::run_with_ctx(&func, &env, &options, ctx).map(|_| ())));
    match result {
        Ok(Ok(())) => collect(prog, run, check, &func, &env, &ctx.output),
        Ok(Err(e)) => Err(format!("regalloc2 ({}): {e:?}", run_name(run))),
        Err(_) => {
            *ctx = regalloc2::Ctx::default();
            Err(format!("regalloc2 ({}) cannot meet the constraints", run_name(run)))
        }
    }
}

/// A run's allocations and moves from regalloc2's output (checked first
/// by regalloc2's checker when `check`).
fn collect(prog: &Prog, run: usize, check: bool, func: &RunFunc, env: &MachineEnv, out: &Output) -> Result<RunOut, String> {
    if check {
        let mut checker = regalloc2::checker::Checker::new(func, env);
        checker.prepare(out);
        checker.run().map_err(|e| format!("regalloc2 checker ({}): {:?}", run_name(run), e))?;
    }
    let kind_of_class = |c: RegClass| RUNS[if Runs::is_r(run) { 0 } else { run }].get(c as usize).copied();
    let mut allocs = Vec::with_capacity(2 * prog.insts.len());
    let mut starts = Vec::with_capacity(prog.insts.len() + 1);
    for i in 0..prog.insts.len() {
        starts.push(allocs.len() as u32);
        let ops = func.inst_operands(Inst::new(i));
        let got = out.inst_allocs(Inst::new(i));
        for (op, a) in ops.iter().zip(got) {
            let preg = a.as_reg().ok_or_else(|| format!("an operand was given a stack slot ({})", run_name(run)))?;
            allocs.push((op.vreg().vreg() as u32, preg.class() as usize, preg.hw_enc()));
        }
    }
    starts.push(allocs.len() as u32);
    let mut moves = Vec::with_capacity(out.edits.len());
    for (point, edit) in &out.edits {
        let Edit::Move { from, to } = *edit;
        if from == to {
            continue;
        }
        let class = from.as_reg().or(to.as_reg()).map(|p| p.class()).ok_or("a move between stack slots")?;
        let kind = kind_of_class(class).ok_or("a move of an unknown class")?;
        moves.push((*point, from, to, kind));
    }
    Ok(RunOut { run, allocs, starts, moves, slots: out.num_spillslots as u32 })
}

fn run_name(run: usize) -> &'static str {
    ["R", "UR and P", "UP"].get(run).copied().unwrap_or("R")
}

/// Allocates the program: sizes the regions, runs regalloc2 three times
/// (more where R values are split over several runs, [`split`]), and
/// rewrites the code.
pub fn allocate_prog(prog: &Prog, options: &RegallocOptions) -> Result<Allocated, String> {
    let limit = options.max_registers.unwrap_or(layout::MAX_GPR).clamp(16, layout::MAX_NAMED_GPR);
    let liveness = layout::liveness(prog);
    let raw = layout::pressure(prog, &liveness);
    let p = with_room(raw);
    let plain = Runs::plain(prog);
    let has_calls = prog.insts.iter().any(|i| matches!(i.kind, PKind::Call { .. }));
    // UR and P first: whether they spill decides the R scratch register.
    let mut layout = Layout::new(3);
    let mut u_counts = [p[Kind::U1 as usize], p[Kind::U2 as usize], p[Kind::P as usize].min(MAX_PRED)];
    let up_count = p[Kind::Up as usize].min(MAX_PRED);
    layout.units[2][0] = (0..up_count as u8).collect();
    // regalloc2's working memory, shared by the runs of this program (its
    // vectors are cleared rather than allocated again for each run) and
    // freed before the rewrite.
    let mut ctx = regalloc2::Ctx::default();
    let mut u_out = None;
    for _ in 0..4 {
        layout.units[1] = layout::place_u(u_counts).ok_or("more uniform registers live at once than UR0–UR62 hold")?;
        let out = run_one(prog, 1, &layout, &plain, options.check, &mut ctx)?;
        let spilled = out.slots > 0;
        u_out = Some(out);
        // Spills around calls come from their clobbers, not from the
        // region sizes.
        if !spilled || has_calls {
            break;
        }
        // Grow the regions that still have room.
        let grown = [u_counts[0] + 2, u_counts[1] + 1, (u_counts[2] + 1).min(MAX_PRED)];
        if layout::place_u(grown).is_none() || grown == u_counts {
            break;
        }
        u_counts = grown;
    }
    let u_out = u_out.ok_or("no UR run")?;
    let up_out = run_one(prog, 2, &layout, &plain, options.check, &mut ctx)?;
    let r = RAlloc { prog, liveness: &liveness, p, limit, has_calls, u_slots: u_out.slots, home_plan: home_plan(&u_out), up_slots: up_out.slots, check: options.check };
    // More singles (or pairs) live at once than a class holds: they are
    // split over several R runs. Otherwise one R run, and where it spills
    // a width whose class is full, a split of that width too. Where both
    // were allocated the one with less spill traffic is kept.
    let split_kinds: Vec<Kind> = [Kind::R1, Kind::R2].into_iter().filter(|k| raw[*k as usize] > MAX_UNITS).collect();
    // The words an allocation stores and loads for spills: the R runs',
    // and the UR/P run's where its values have no R homes.
    let traffic = |layout: &Layout, outs: &[RunOut]| spill_words(outs) + if layout.homes.is_empty() { spill_words(std::slice::from_ref(&u_out)) } else { 0 };
    // A split whose runs spill is tried again with singles in the pair
    // units the pairs leave free ([`split`]), and the one that spills less
    // kept: sharing saves registers where singles and pairs peak apart,
    // and costs them where a single takes a whole pair unit (CUB's radix
    // sorts spill more with it, Triton's matmul less).
    let split_best = |kinds: &[Kind], at_least: u32, ctx: &mut regalloc2::Ctx| -> Result<(Runs, Layout, Vec<RunOut>), String> {
        let runs = split::split(prog, &liveness, kinds, at_least, false);
        let (layout_apart, outs_apart, _) = r.allocate(&runs, &layout, ctx)?;
        let apart = (runs, layout_apart, outs_apart);
        let t = traffic(&apart.1, &apart.2);
        if t == 0 {
            return Ok(apart);
        }
        let runs = split::split(prog, &liveness, kinds, at_least, true);
        let (layout_shared, outs_shared, _) = r.allocate(&runs, &layout, ctx)?;
        Ok(if traffic(&layout_shared, &outs_shared) < t { (runs, layout_shared, outs_shared) } else { apart })
    };
    let (runs, layout, r_outs) = if split_kinds.is_empty() {
        let (layout_one, outs_one, counts) = r.allocate(&plain, &layout, &mut ctx)?;
        let spilled = spilled_classes(&outs_one[0]);
        let full: Vec<Kind> = [Kind::R1, Kind::R2].into_iter().filter(|k| spilled[k.slot().1] && counts[0][k.slot().1] == MAX_UNITS).collect();
        let one = (plain, layout_one, outs_one);
        if full.is_empty() {
            one
        } else {
            let (runs, layout_split, outs_split) = split_best(&full, 2, &mut ctx)?;
            if traffic(&layout_split, &outs_split) < traffic(&one.1, &one.2) { (runs, layout_split, outs_split) } else { one }
        }
    } else {
        let split = split_best(&split_kinds, 1, &mut ctx)?;
        // The split regions may not fit under the limit together (each
        // width sized for its own peak): then the single run, whose
        // regions are smaller, may spill less.
        if traffic(&split.1, &split.2) == 0 {
            split
        } else {
            let (layout_one, outs_one, _) = r.allocate(&plain, &layout, &mut ctx)?;
            if traffic(&layout_one, &outs_one) < traffic(&split.1, &split.2) { (plain, layout_one, outs_one) } else { split }
        }
    };
    drop(ctx);
    let mut r_outs = r_outs.into_iter();
    let mut outs = Vec::with_capacity(runs.count);
    outs.push(r_outs.next().ok_or("no R run")?);
    outs.push(u_out);
    outs.push(up_out);
    outs.extend(r_outs);
    rewrite::rewrite(prog, &layout, outs)
}

/// What the R runs' allocation needs to know.
struct RAlloc<'a> {
    prog: &'a Prog<'a>,
    liveness: &'a layout::Liveness,
    /// The pressure of each kind with room ([`with_room`]).
    p: [u32; 7],
    limit: u32,
    has_calls: bool,
    /// Spill slots of the UR/P run and of the UP run.
    u_slots: u32,
    /// How the UR/P run's slots would share R homes.
    home_plan: layout::HomePlan,
    up_slots: u32,
    check: bool,
}

impl RAlloc<'_> {
    /// Allocates the R runs of `runs` over the layout `base` (whose UR
    /// and P regions are set): region sizes from the pressure, grown
    /// where a run spills while the limit allows. The layout, each R run's
    /// result (in the order of [`Runs::r_runs`]) and the region sizes.
    fn allocate(&self, runs: &Runs, base: &Layout, ctx: &mut regalloc2::Ctx) -> Result<(Layout, Vec<RunOut>, Vec<[u32; 3]>), String> {
        let (prog, p, limit) = (self.prog, &self.p, self.limit);
        let r_runs = runs.r_runs();
        let mut layout = base.clone();
        layout.units.resize(runs.count, Default::default());
        // The R regions of each R run, from its pressure.
        let mut counts: Vec<[u32; 3]> = if r_runs.len() == 1 {
            vec![[p[Kind::R1 as usize].min(MAX_UNITS), p[Kind::R2 as usize].min(MAX_UNITS), p[Kind::R4 as usize].min(MAX_UNITS)]]
        } else {
            let q = layout::pressure_by(prog, self.liveness, 3 * runs.count, |v| 3 * runs.of(v) + runs.class_of(v));
            r_runs.iter().map(|&run| std::array::from_fn(|c| room(q[3 * run + c]).min(MAX_UNITS))).collect()
        };
        // The UR/P run's spill slots live in R registers of their own when
        // the function makes no calls (a call clobbers every R register)
        // and they fit under the limit; otherwise in the frame, through a
        // scratch register.
        let (u_slots, up_slots) = (self.u_slots, self.up_slots);
        let home_regs = self.home_plan.regs;
        let homes = if self.has_calls || u_slots == 0 || layout::place_r(&counts, prog.abi_top, up_slots > 0, home_regs, limit).is_none() { 0 } else { home_regs };
        let need_scratch = (u_slots > 0 && homes == 0) || up_slots > 0;
        let fit = |counts: &mut Vec<[u32; 3]>| -> Option<layout::PlacedR> {
            // Shrink the largest class until the regions fit under the limit.
            loop {
                if let Some(placed) = layout::place_r(counts, prog.abi_top, need_scratch, homes, limit) {
                    return Some(placed);
                }
                let widest = (0..3 * counts.len()).max_by_key(|&i| counts[i / 3][i % 3] * [1, 2, 4][i % 3])?;
                let count = &mut counts[widest / 3][widest % 3];
                if *count <= 1 {
                    return None;
                }
                *count -= 1;
            }
        };
        // Each R run's result and the regions it was run with (a run is run
        // again only when its regions changed).
        let mut r_outs: Vec<Option<(RunOut, [u32; 3], Vec<u8>)>> = (0..r_runs.len()).map(|_| None).collect();
        for attempt in 0..5 {
            let placed = fit(&mut counts).ok_or("the register limit leaves no room for the regions")?;
            for (g, units) in placed.units.into_iter().enumerate() {
                if let Some(&run) = r_runs.get(g) {
                    layout.units[run] = units;
                }
            }
            layout.scratch = placed.scratch;
            (layout.homes, layout.home_bits) = if homes > 0 { self.home_plan.place(&placed.homes) } else { (Vec::new(), Vec::new()) };
            for (g, &run) in r_runs.iter().enumerate() {
                // The first run's fixed registers are units of its singles,
                // so where those sit matters too.
                let singles = if g == 0 { layout.units[0][0].clone() } else { Vec::new() };
                let same = matches!(&r_outs[g], Some((_, c, s)) if *c == counts[g] && *s == singles);
                if !same {
                    let out = run_one(prog, run, &layout, runs, self.check, ctx)?;
                    r_outs[g] = Some((out, counts[g], singles));
                }
            }
            let spilled: Vec<[bool; 3]> = r_outs.iter().map(|o| o.as_ref().map_or([false; 3], |(out, _, _)| if out.slots > 0 { spilled_classes(out) } else { [false; 3] })).collect();
            if spilled.iter().all(|s| !s.iter().any(|x| *x)) || attempt == 4 || self.has_calls {
                break;
            }
            let grown: Vec<[u32; 3]> = counts.iter().zip(&spilled).map(|(c, s)| std::array::from_fn(|k| if s[k] { (c[k] + 1 + c[k] / 4).min(MAX_UNITS) } else { c[k] })).collect();
            let mut try_counts = grown;
            if fit(&mut try_counts).is_none() || try_counts == counts {
                break;
            }
            counts = try_counts;
        }
        let outs = r_outs.into_iter().map(|o| o.map(|(out, _, _)| out).ok_or("no R run")).collect::<Result<Vec<RunOut>, _>>()?;
        Ok((layout, outs, counts))
    }
}

/// The home plan of the UR/P run's spill slots ([`layout::HomePlan`]):
/// which slots its moves use for predicates and which for uniform words.
fn home_plan(out: &RunOut) -> layout::HomePlan {
    let n = out.slots as usize;
    let (mut pred, mut word) = (vec![false; n], vec![false; n]);
    for (_, from, to, kind) in &out.moves {
        let Some(slot) = from.as_stack().or(to.as_stack()) else { continue };
        for k in 0..kind.width() as usize {
            let set = if *kind == Kind::P { &mut pred } else { &mut word };
            if let Some(x) = set.get_mut(slot.index() + k) {
                *x = true;
            }
        }
    }
    layout::HomePlan::new(n, &pred, &word)
}

/// The words runs store and load for spills (each spill or reload
/// counted once per 32-bit word).
fn spill_words(outs: &[RunOut]) -> u32 {
    outs.iter().flat_map(|o| &o.moves).filter(|(_, from, to, _)| from.is_stack() || to.is_stack()).map(|(_, _, _, kind)| kind.width()).sum()
}

/// Which classes of the R run spilled.
fn spilled_classes(out: &RunOut) -> [bool; 3] {
    let mut s = [false; 3];
    for (_, from, to, kind) in &out.moves {
        if from.is_stack() || to.is_stack() {
            s[kind.slot().1] = true;
        }
    }
    s
}

/// Units of an R class for `pressure` values live at once: fixed
/// registers and reuse constraints need a little room to move.
fn room(pressure: u32) -> u32 {
    if pressure > 0 { pressure + 1 } else { 0 }
}

fn with_room(mut p: [u32; 7]) -> [u32; 7] {
    for k in [Kind::R1, Kind::R2, Kind::R4] {
        p[k as usize] = room(p[k as usize]);
    }
    p
}
