//! The regalloc2 runs: one [`RunFunc`] per run (R; UR and P; UP) over the
//! same program, region sizes from the pressure, re-sized on spills.

use super::layout::{self, Layout, MAX_PRED, MAX_UNITS};
use super::prep::{PKind, Prog};
use super::rewrite;
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
    pub fn new(prog: &'a Prog<'a>, run: usize, layout: &Layout) -> Result<RunFunc<'a>, String> {
        let class: Vec<Option<RegClass>> = prog
            .kinds
            .iter()
            .map(|k| {
                let (r, c) = k.slot();
                (r == run).then_some(CLASSES[c])
            })
            .collect();
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
        Ok(RunFunc { prog, operands, offsets, clobbers, params, args, succs, preds, class, vector_slots: if run == 0 { 4 } else { 1 } })
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
    /// (vreg, unit) of every instruction's operands, instruction after
    /// instruction (one list, not one allocation per instruction).
    allocs: Vec<(u32, usize)>,
    /// Where each instruction's operands start in `allocs`, and the end.
    starts: Vec<u32>,
    /// (point, from, to, kind of the moved value).
    pub moves: Vec<(ProgPoint, Allocation, Allocation, Kind)>,
    /// 4-byte spill slots used.
    pub slots: u32,
}

impl RunOut {
    /// (vreg, unit) of instruction `i`'s operands in this run.
    pub fn allocs_of(&self, i: usize) -> &[(u32, usize)] {
        let range = self.starts.get(i).zip(self.starts.get(i + 1)).map_or(0..0, |(&a, &b)| a as usize..b as usize);
        self.allocs.get(range).unwrap_or(&[])
    }
}

/// Runs regalloc2 for run `run` with `layout`.
fn run_one(prog: &Prog, run: usize, layout: &Layout, check: bool, ctx: &mut regalloc2::Ctx) -> Result<RunOut, String> {
    // A run whose files the program does not use (most kernels have no UP
    // value) has nothing to allocate; regalloc2's fixed cost per run is not
    // small, so it is not asked.
    if !prog.kinds.iter().any(|k| k.slot().0 == run) {
        return Ok(RunOut { run, allocs: Vec::new(), starts: vec![0; prog.insts.len() + 1], moves: Vec::new(), slots: 0 });
    }
    let func = RunFunc::new(prog, run, layout)?;
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
    let kind_of_class = |c: RegClass| RUNS[run].get(c as usize).copied();
    let mut allocs = Vec::with_capacity(2 * prog.insts.len());
    let mut starts = Vec::with_capacity(prog.insts.len() + 1);
    for i in 0..prog.insts.len() {
        starts.push(allocs.len() as u32);
        let ops = func.inst_operands(Inst::new(i));
        let got = out.inst_allocs(Inst::new(i));
        for (op, a) in ops.iter().zip(got) {
            let preg = a.as_reg().ok_or_else(|| format!("an operand was given a stack slot ({})", run_name(run)))?;
            allocs.push((op.vreg().vreg() as u32, preg.hw_enc()));
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
    ["R", "UR and P", "UP"][run]
}

/// Allocates the program: sizes the regions, runs regalloc2 three times,
/// and rewrites the code.
pub fn allocate_prog(prog: &Prog, options: &RegallocOptions) -> Result<Allocated, String> {
    let limit = options.max_registers.unwrap_or(layout::MAX_GPR).clamp(16, layout::MAX_GPR);
    let p = pressure_of(prog);
    let has_calls = prog.insts.iter().any(|i| matches!(i.kind, PKind::Call { .. }));
    // UR and P first: whether they spill decides the R scratch register.
    let mut layout = Layout::default();
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
        let out = run_one(prog, 1, &layout, options.check, &mut ctx)?;
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
    let up_out = run_one(prog, 2, &layout, options.check, &mut ctx)?;
    // The UR/P run's spill slots live in R registers of their own when
    // the function makes no calls (a call clobbers every R register) and
    // they fit under the limit; otherwise in the frame, through a scratch
    // register.
    let mut counts = [p[Kind::R1 as usize].min(MAX_UNITS), p[Kind::R2 as usize].min(MAX_UNITS), p[Kind::R4 as usize].min(MAX_UNITS)];
    let homes = if has_calls || u_out.slots == 0 || layout::place_r(counts, prog.abi_top, up_out.slots > 0, u_out.slots, limit).is_none() { 0 } else { u_out.slots };
    let need_scratch = (u_out.slots > 0 && homes == 0) || up_out.slots > 0;
    // R: start from the pressure, grow what spills while the limit allows.
    let fit = |counts: &mut [u32; 3]| -> Option<layout::PlacedR> {
        // Shrink the largest class until the regions fit under the limit.
        loop {
            if let Some(placed) = layout::place_r(*counts, prog.abi_top, need_scratch, homes, limit) {
                return Some(placed);
            }
            let widest = (0..3).max_by_key(|&c| counts[c] * [1, 2, 4][c])?;
            if counts[widest] <= 1 {
                return None;
            }
            counts[widest] -= 1;
        }
    };
    let mut r_out = None;
    for attempt in 0..5 {
        let placed = fit(&mut counts).ok_or("the register limit leaves no room for the regions")?;
        layout.units[0] = placed.units;
        layout.scratch = placed.scratch;
        layout.homes = placed.homes;
        let out = run_one(prog, 0, &layout, options.check, &mut ctx)?;
        if out.slots == 0 || attempt == 4 || has_calls {
            r_out = Some(out);
            break;
        }
        let spilled = spilled_classes(&out);
        let grown: [u32; 3] = std::array::from_fn(|c| if spilled[c] { (counts[c] + 1 + counts[c] / 4).min(MAX_UNITS) } else { counts[c] });
        let before = counts;
        let mut try_counts = grown;
        let same = fit(&mut try_counts).is_none() || try_counts == before;
        r_out = Some(out);
        if same {
            break;
        }
        counts = try_counts;
    }
    let r_out = r_out.ok_or("no R run")?;
    drop(ctx);
    rewrite::rewrite(prog, &layout, [r_out, u_out, up_out])
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

fn pressure_of(prog: &Prog) -> [u32; 7] {
    let mut p = layout::pressure(prog);
    // Fixed registers and reuse constraints need a little room to move.
    for k in [Kind::R1, Kind::R2, Kind::R4] {
        if p[k as usize] > 0 {
            p[k as usize] += 1;
        }
    }
    p
}
