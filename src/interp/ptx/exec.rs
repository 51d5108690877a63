//! The machine: CTAs of threads grouped into 32-lane warps, their
//! scheduling, divergence and barriers, calls, and memory accesses.
//!
//! Divergence model: every thread has its own call stack of frames, each
//! with a program counter. A warp executes, one instruction at a time, the
//! group of its runnable threads whose position is the least: positions
//! compare frame by frame (outermost first) by program counter, and a
//! deeper stack is less than the stack it extends (threads inside a call
//! run before threads that already returned from it). Threads that took
//! the lower-addressed side of a branch therefore run until they reach the
//! others, where they merge again, which reconverges compiler-laid-out
//! if/else and loops at their join points for any unstructured control
//! flow, and never waits for a thread that cannot arrive. `bar.sync` in
//! divergent code parks only the threads that reached it; the others of the
//! warp keep running, so no false deadlock.
//!
//! CTAs run one after another; the warps of a CTA run round-robin in slices
//! of [`SLICE`] instructions (so one warp spinning on a flag another warp
//! sets in shared memory makes progress), and a warp whose threads all wait
//! at barriers yields. When no warp can run and threads still wait, the run
//! ends with a deadlock error naming a waiting thread.

use super::layout::{self, Space, LOCAL_WINDOW, PARAM_WINDOW};
use super::lower::{opn, Base, Func, Imm, Inst, Opnd, ParamLoc, Program, Sreg, VarSpace};
use super::{ops, warp};
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::interp::memory::{GlobalMemory, MemFault, Region};
use crate::ptx::ast::{ScalarType, StateSpace};
use crate::ptx::opcode::Opcode;
use std::cmp::Ordering;

/// Instructions a warp runs before the next warp gets a turn.
pub const SLICE: u32 = 256;

/// Bytes of local memory one thread may use (frames of all active calls).
pub const MAX_LOCAL_BYTES: usize = 1 << 18;

/// Call depth limit (a runaway recursion ends with an error, not a crash).
pub const MAX_CALL_DEPTH: usize = 4096;

/// Fake addresses of functions (for indirect calls): index times 16 above this.
pub const FUNC_BASE: u64 = 0x0000_0fff_0000_0000;

/// One call frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The function.
    pub func: u32,
    /// The next instruction.
    pub pc: u32,
    /// First register slot.
    pub reg_base: u32,
    /// Local-memory offset of the frame.
    pub local_base: u64,
}

/// Thread run state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Runnable.
    Run,
    /// Waiting at a CTA barrier.
    Barrier(u8),
    /// Done.
    Exited,
}

/// One thread.
#[derive(Clone, Debug)]
pub struct Thread {
    /// Call stack, innermost last.
    pub frames: Vec<Frame>,
    /// Register file (all frames').
    pub regs: Vec<u64>,
    /// Local memory (all frames').
    pub local: Region,
    /// Run state.
    pub state: State,
    /// The carry flag of `.cc` arithmetic.
    pub cc: u64,
    /// `%tid`.
    pub tid: [u32; 3],
}

#[derive(Clone, Debug, Default)]
struct Barrier {
    arrived: u32,
    expected: Option<u32>,
    popc: u32,
    all: bool,
    any: bool,
}

/// Read-only launch facts every lane sees.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// Grid size.
    pub grid: [u32; 3],
    /// Block size.
    pub block: [u32; 3],
    /// Dynamic shared bytes.
    pub dyn_shared: u32,
}

/// The memories a lane may touch besides its own local memory.
pub struct Mem<'a> {
    /// Device memory.
    pub global: &'a mut GlobalMemory,
    /// The CTA's shared memory.
    pub shared: &'a mut Region,
    /// The constant bank.
    pub konst: &'a Region,
    /// The kernel parameter block.
    pub kparam: &'a Region,
    /// The launch's bound textures.
    pub textures: &'a [crate::interp::launch::Texture],
}

/// A whole launch in progress.
pub struct Machine<'p> {
    /// The program.
    pub prog: &'p Program,
    /// The kernel.
    pub kernel: u32,
    /// Device memory.
    pub global: GlobalMemory,
    /// Constant bank.
    pub konst: Region,
    /// Kernel parameters.
    pub kparam: Region,
    /// Launch dimensions.
    pub dims: Dims,
    /// Warp-instructions executed.
    pub steps: u64,
    /// Budget of warp-instructions.
    pub budget: u64,
    /// The launch's bound textures.
    pub textures: Vec<crate::interp::launch::Texture>,
}

/// Per-lane facts.
#[derive(Clone, Copy, Debug)]
pub struct LaneInfo {
    /// Lane in warp.
    pub lane: u32,
    /// Warp in CTA.
    pub warp: u32,
    /// `%ctaid`.
    pub ctaid: [u32; 3],
    /// The clock value.
    pub clock: u64,
}

fn at(inst: &Inst, kind: ErrorKind, msg: impl Into<String>) -> InterpError {
    InterpError::new(kind, msg).at(Site::Ptx(inst.span))
}

fn mem_err(inst: &Inst, f: MemFault) -> InterpError {
    InterpError::from(f).at(Site::Ptx(inst.span))
}

/// Compares two threads' positions (see the module doc).
#[inline]
fn position(a: &Thread, b: &Thread) -> Ordering {
    if let ([x], [y]) = (a.frames.as_slice(), b.frames.as_slice()) {
        return (x.pc, x.func).cmp(&(y.pc, y.func));
    }
    for (x, y) in a.frames.iter().zip(&b.frames) {
        match (x.pc, x.func).cmp(&(y.pc, y.func)) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    // A deeper stack (inside a call) is the lesser position.
    b.frames.len().cmp(&a.frames.len())
}

impl<'p> Machine<'p> {
    /// Runs every CTA of the grid.
    pub fn run(&mut self) -> Result<(), InterpError> {
        let [gx, gy, gz] = self.dims.grid;
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    self.run_cta([x, y, z])?;
                }
            }
        }
        Ok(())
    }

    fn new_thread(&self, tid: [u32; 3]) -> Result<Thread, InterpError> {
        let f = &self.prog.funcs[self.kernel as usize];
        let local_base = self.prog.static_local.div_ceil(16) * 16;
        let local_len = local_base + f.frame;
        if local_len as usize > MAX_LOCAL_BYTES {
            return Err(InterpError::new(ErrorKind::Memory, "the kernel's local memory is larger than the interpreter allows").at(Site::Ptx(f.span)));
        }
        Ok(Thread {
            frames: vec![Frame { func: self.kernel, pc: 0, reg_base: 0, local_base }],
            regs: vec![0; f.nregs as usize],
            local: Region::new(0, vec![0; local_len as usize], "local"),
            state: State::Run,
            cc: 0,
            tid,
        })
    }

    fn run_cta(&mut self, ctaid: [u32; 3]) -> Result<(), InterpError> {
        let [bx, by, bz] = self.dims.block;
        let mut threads = Vec::with_capacity((bx * by * bz) as usize);
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    threads.push(self.new_thread([x, y, z])?);
                }
            }
        }
        let shared_len = self.prog.dynamic_shared + self.dims.dyn_shared as u64;
        let mut shared = Region::new(0, vec![0; shared_len as usize], "shared");
        let mut cta = Cta { threads, barriers: vec![Barrier::default(); 16], ctaid };
        let nwarps = cta.threads.len().div_ceil(32);
        loop {
            let mut progress = false;
            for w in 0..nwarps {
                let n = self.run_warp(&mut cta, &mut shared, w)?;
                progress |= n > 0;
            }
            if cta.threads.iter().all(|t| t.state == State::Exited) {
                return Ok(());
            }
            if !progress {
                let (i, t) = cta.threads.iter().enumerate().find(|(_, t)| matches!(t.state, State::Barrier(_))).unwrap_or((0, &cta.threads[0]));
                let site = t.frames.last().and_then(|f| self.prog.funcs.get(f.func as usize)?.insts.get(f.pc as usize)).map(|i| Site::Ptx(i.span));
                let mut e = InterpError::new(ErrorKind::Deadlock, format!("threads wait at a barrier that cannot complete (thread {i} of the CTA)"))
                    .in_thread(ctaid, t.tid);
                e.site = site;
                return Err(e);
            }
        }
    }

    /// Runs one warp for up to a slice; returns the instructions executed.
    fn run_warp(&mut self, cta: &mut Cta, shared: &mut Region, w: usize) -> Result<u32, InterpError> {
        let lo = w * 32;
        let hi = (lo + 32).min(cta.threads.len());
        let mut done = 0;
        // The group stays the same while the warp is converged and runs
        // straight-line code: every lane advances by one.
        let mut cached: Option<u32> = None;
        while done < SLICE {
            let group = match cached {
                Some(g) => g,
                None => {
                    // The group: runnable threads at the least position.
                    let mut lead: Option<usize> = None;
                    let mut runnable = 0u32;
                    for i in lo..hi {
                        if cta.threads[i].state != State::Run {
                            continue;
                        }
                        runnable |= 1 << (i - lo);
                        lead = match lead {
                            None => Some(i),
                            Some(l) if position(&cta.threads[i], &cta.threads[l]) == Ordering::Less => Some(i),
                            keep => keep,
                        };
                    }
                    let Some(lead) = lead else { break };
                    let mut group: u32 = 1 << (lead - lo);
                    for i in lanes(runnable & !group) {
                        if position(&cta.threads[lo + i as usize], &cta.threads[lead]) == Ordering::Equal {
                            group |= 1 << i;
                        }
                    }
                    if group == runnable {
                        cached = Some(group);
                    }
                    group
                }
            };
            if !self.step(cta, shared, lo, hi, group)? {
                cached = None;
            }
            done += 1;
        }
        Ok(done)
    }

    /// Executes the instruction the `group` of lanes (of the warp starting
    /// at thread `lo`) is at.
    /// Returns whether the group simply advanced by one instruction
    /// (no branch, call, return, exit or barrier).
    fn step(&mut self, cta: &mut Cta, shared: &mut Region, lo: usize, hi: usize, group: u32) -> Result<bool, InterpError> {
        let prog = self.prog;
        let lead = lo + group.trailing_zeros() as usize;
        let frame = *cta.threads[lead].frames.last().ok_or_else(|| InterpError::new(ErrorKind::Malformed, "a running thread without a frame"))?;
        let func = &prog.funcs[frame.func as usize];
        let Some(inst) = func.insts.get(frame.pc as usize) else {
            // Falling off the end of a function is a return.
            for i in lanes(group) {
                self.ret(cta, lo + i as usize, None)?;
            }
            return Ok(false);
        };
        self.steps += 1;
        if self.steps > self.budget {
            return Err(at(inst, ErrorKind::StepBudget, format!("more than {} warp-instructions", self.budget)).in_thread(cta.ctaid, cta.threads[lead].tid));
        }
        // Guard.
        let mut active = group;
        if let Some((slot, neg)) = inst.guard {
            for i in lanes(group) {
                let t = &cta.threads[lo + i as usize];
                let v = t.regs.get(t.frames.last().map_or(0, |f| f.reg_base) as usize + slot as usize).copied().unwrap_or(0) & 1 != 0;
                if v == neg {
                    active &= !(1 << i);
                }
            }
        }
        let clock = self.steps;
        match inst.op {
            Opcode::Bra => {
                let target = match inst.ops.first() {
                    Some(Opnd::Label(l)) => *l,
                    _ => return Err(at(inst, ErrorKind::Unsupported, "branch to something other than a label")),
                };
                for i in lanes(group) {
                    let t = &mut cta.threads[lo + i as usize];
                    if let Some(f) = t.frames.last_mut() {
                        f.pc = if active & (1 << i) != 0 { target } else { f.pc + 1 };
                    }
                }
                return Ok(false);
            }
            Opcode::BrxIdx => {
                let list = match inst.ops.get(1) {
                    Some(Opnd::Targets(v)) => v,
                    _ => return Err(at(inst, ErrorKind::Unsupported, "brx.idx without a .branchtargets list")),
                };
                for i in lanes(group) {
                    let idx = lo + i as usize;
                    let target = if active & (1 << i) != 0 {
                        let v = self.lane(cta, shared, idx, clock, inst, |l| l.get(opn(inst, 0)?, ScalarType::U32))? as usize;
                        *list.get(v).ok_or_else(|| at(inst, ErrorKind::Trap, format!("brx.idx index {v} outside its {} targets", list.len())).in_thread(cta.ctaid, cta.threads[idx].tid))?
                    } else {
                        frame.pc + 1
                    };
                    if let Some(f) = cta.threads[idx].frames.last_mut() {
                        f.pc = target;
                    }
                }
                return Ok(false);
            }
            Opcode::Call => {
                for i in lanes(group) {
                    let idx = lo + i as usize;
                    if active & (1 << i) != 0 {
                        self.call(cta, shared, idx, inst, clock)?;
                    } else {
                        advance(&mut cta.threads[idx]);
                    }
                }
                return Ok(false);
            }
            Opcode::Ret => {
                for i in lanes(group) {
                    let idx = lo + i as usize;
                    if active & (1 << i) != 0 {
                        self.ret(cta, idx, Some(inst))?;
                    } else {
                        advance(&mut cta.threads[idx]);
                    }
                }
                return Ok(false);
            }
            Opcode::Exit => {
                for i in lanes(group) {
                    let idx = lo + i as usize;
                    if active & (1 << i) != 0 {
                        cta.threads[idx].state = State::Exited;
                    } else {
                        advance(&mut cta.threads[idx]);
                    }
                }
                cta.try_release(self.prog);
                return Ok(false);
            }
            Opcode::Trap | Opcode::Brkpt => {
                if active != 0 {
                    let idx = lo + active.trailing_zeros() as usize;
                    return Err(at(inst, ErrorKind::Trap, format!("{} executed", inst.op.name())).in_thread(cta.ctaid, cta.threads[idx].tid));
                }
            }
            Opcode::BarSync | Opcode::BarCtaSync | Opcode::BarrierSync | Opcode::BarrierCtaSync | Opcode::BarArrive | Opcode::BarCtaArrive
            | Opcode::BarrierArrive | Opcode::BarrierCtaArrive | Opcode::BarRed | Opcode::BarCtaRed | Opcode::BarrierRed
            | Opcode::BarrierCtaRed => {
                self.barrier(cta, shared, lo, group, active, inst, clock)?;
                return Ok(false);
            }
            Opcode::ShflSync | Opcode::Shfl | Opcode::VoteSync | Opcode::Vote | Opcode::Match | Opcode::ReduxSync | Opcode::Activemask
            | Opcode::ElectSync | Opcode::Ldmatrix | Opcode::Mma => {
                if active != 0 {
                    warp::exec(self, cta, shared, lo, hi, active, inst, clock)?;
                }
            }
            _ => {
                for i in lanes(active) {
                    let idx = lo + i as usize;
                    self.lane(cta, shared, idx, clock, inst, |l| l.exec(inst))?;
                }
            }
        }
        for i in lanes(group) {
            advance(&mut cta.threads[lo + i as usize]);
        }
        Ok(true)
    }

    /// Runs `body` with a lane view of thread `idx`, attaching the thread to errors.
    pub fn lane<R>(&mut self, cta: &mut Cta, shared: &mut Region, idx: usize, clock: u64, inst: &Inst, body: impl FnOnce(&mut Lane) -> Result<R, InterpError>) -> Result<R, InterpError> {
        let ctaid = cta.ctaid;
        let t = &mut cta.threads[idx];
        let tid = t.tid;
        let frame = *t.frames.last().ok_or_else(|| at(inst, ErrorKind::Malformed, "no frame"))?;
        let mut lane = Lane {
            prog: self.prog,
            t,
            frame,
            mem: Mem { global: &mut self.global, shared, konst: &self.konst, kparam: &self.kparam, textures: &self.textures },
            info: LaneInfo { lane: (idx % 32) as u32, warp: (idx / 32) as u32, ctaid, clock },
            dims: self.dims,
        };
        body(&mut lane).map_err(|mut e| {
            if e.site.is_none() {
                e.site = Some(Site::Ptx(inst.span));
            }
            e.in_thread(ctaid, tid)
        })
    }

    fn call(&mut self, cta: &mut Cta, shared: &mut Region, idx: usize, inst: &Inst, clock: u64) -> Result<(), InterpError> {
        let prog = self.prog;
        // Operands: [(rets),] target [, (args)] [, prototype].
        let mut rets: &[Opnd] = &[];
        let mut args: &[Opnd] = &[];
        let mut target: Option<&Opnd> = None;
        for o in &inst.ops {
            match o {
                Opnd::List(v) if target.is_none() => rets = v,
                Opnd::List(v) => args = v,
                _ if target.is_none() => target = Some(o),
                _ => {}
            }
        }
        let callee = match target {
            Some(Opnd::Func(f)) => *f,
            Some(op @ Opnd::Reg(_)) => {
                let addr = self.lane(cta, shared, idx, clock, inst, |l| l.get(op, ScalarType::U64))?;
                let k = addr.wrapping_sub(FUNC_BASE);
                if k % 16 != 0 || (k / 16) as usize >= prog.funcs.len() {
                    return Err(at(inst, ErrorKind::Memory, format!("indirect call to {addr:#x}, not a function")).in_thread(cta.ctaid, cta.threads[idx].tid));
                }
                (k / 16) as u32
            }
            _ => return Err(at(inst, ErrorKind::Malformed, "call without a target")),
        };
        let f: &Func = &prog.funcs[callee as usize];
        if !f.defined || f.entry {
            return self.builtin(cta, shared, idx, inst, f, rets, args, clock);
        }
        // Argument values, read in the caller's frame: bytes for `.param`
        // parameters, register values for `.reg` ones.
        let mut values: Vec<Result<Vec<u8>, Vec<u64>>> = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            let v = match f.params.get(k) {
                Some(ParamLoc::Mem { size, .. }) => Ok(self.lane(cta, shared, idx, clock, inst, |l| l.operand_bytes(a, *size as usize))?),
                Some(ParamLoc::Reg(_, n)) => {
                    let elems: Vec<Opnd> = match a {
                        Opnd::Vec(v) => v.clone(),
                        o => vec![o.clone()],
                    };
                    let mut regs = Vec::with_capacity(*n as usize);
                    for e in elems.iter().take(*n as usize) {
                        regs.push(self.lane(cta, shared, idx, clock, inst, |l| l.get(e, ScalarType::B64))?);
                    }
                    Err(regs)
                }
                None => return Err(at(inst, ErrorKind::Launch, format!("call passes {} arguments to '{}', which takes {}", args.len(), f.name, f.params.len()))),
            };
            values.push(v);
        }
        let t = &mut cta.threads[idx];
        if t.frames.len() >= MAX_CALL_DEPTH {
            return Err(at(inst, ErrorKind::Memory, format!("call depth over {MAX_CALL_DEPTH}")).in_thread(cta.ctaid, t.tid));
        }
        let reg_base = t.regs.len() as u32;
        let local_base = (t.local.data.len() as u64).div_ceil(16) * 16;
        let new_len = local_base + f.frame;
        if new_len as usize > MAX_LOCAL_BYTES {
            return Err(at(inst, ErrorKind::Memory, format!("local stack overflow (more than {MAX_LOCAL_BYTES} bytes)")).in_thread(cta.ctaid, t.tid));
        }
        t.regs.resize(reg_base as usize + f.nregs as usize, 0);
        t.local.data.resize(new_len as usize, 0);
        t.frames.push(Frame { func: callee, pc: 0, reg_base, local_base });
        for (k, v) in values.into_iter().enumerate() {
            match (&f.params[k], v) {
                (ParamLoc::Reg(slot, _), Err(regs)) => {
                    for (j, r) in regs.into_iter().enumerate() {
                        if let Some(x) = t.regs.get_mut(reg_base as usize + *slot as usize + j) {
                            *x = r;
                        }
                    }
                }
                (ParamLoc::Mem { var, .. }, Ok(bytes)) => {
                    let at_ = local_base + prog.vars[*var as usize].addr;
                    let _ = t.local.write(at_, &bytes, 1, "local");
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Calls of functions without a body: `vprintf` (a no-op returning 0,
    /// see the crate docs) and `__assertfail` (a trap); anything else is
    /// unsupported.
    #[allow(clippy::too_many_arguments)]
    fn builtin(&mut self, cta: &mut Cta, shared: &mut Region, idx: usize, inst: &Inst, f: &Func, rets: &[Opnd], _args: &[Opnd], clock: u64) -> Result<(), InterpError> {
        match f.name.as_str() {
            "vprintf" => {
                for r in rets {
                    self.lane(cta, shared, idx, clock, inst, |l| l.store_operand_bytes(r, &0u32.to_le_bytes()))?;
                }
                advance(&mut cta.threads[idx]);
                Ok(())
            }
            "__assertfail" | "__assert_fail" => Err(at(inst, ErrorKind::Trap, "assertion failed (__assertfail)").in_thread(cta.ctaid, cta.threads[idx].tid)),
            name => Err(at(inst, ErrorKind::Unsupported, format!("call of '{name}', which has no body")).in_thread(cta.ctaid, cta.threads[idx].tid)),
        }
    }

    fn ret(&mut self, cta: &mut Cta, idx: usize, inst: Option<&Inst>) -> Result<(), InterpError> {
        let prog = self.prog;
        let t = &mut cta.threads[idx];
        let Some(frame) = t.frames.pop() else { return Ok(()) };
        let Some(caller) = t.frames.last().copied() else {
            t.state = State::Exited;
            cta.try_release(prog);
            return Ok(());
        };
        let f = &prog.funcs[frame.func as usize];
        // The call instruction names where the return values go.
        let Some(call) = prog.funcs[caller.func as usize].insts.get(caller.pc as usize) else {
            return Err(InterpError::new(ErrorKind::Malformed, "return to a call site that does not exist"));
        };
        let rets: &[Opnd] = match call.ops.first() {
            Some(Opnd::List(v)) if call.ops.len() > 1 => v,
            _ => &[],
        };
        for (k, r) in rets.iter().enumerate() {
            let bytes: Vec<u8> = match f.returns.get(k) {
                Some(ParamLoc::Reg(slot, n)) => {
                    // Register returns go to registers (a vector to its elements).
                    let dsts: Vec<Opnd> = match r {
                        Opnd::Vec(v) => v.clone(),
                        o => vec![o.clone()],
                    };
                    for (j, d) in dsts.iter().enumerate().take(*n as usize) {
                        let v = t.regs.get(frame.reg_base as usize + *slot as usize + j).copied().unwrap_or(0);
                        if let Opnd::Reg(ds) = d {
                            if let Some(x) = t.regs.get_mut(caller.reg_base as usize + *ds as usize) {
                                *x = v;
                            }
                        }
                    }
                    if !matches!(r, Opnd::Var(..)) {
                        continue;
                    }
                    t.regs.get(frame.reg_base as usize + *slot as usize).copied().unwrap_or(0).to_le_bytes().to_vec()
                }
                Some(ParamLoc::Mem { var, size }) => {
                    let a = frame.local_base + prog.vars[*var as usize].addr;
                    t.local.read(a, *size as usize, 1, "local").map(<[u8]>::to_vec).unwrap_or_default()
                }
                None => {
                    let span = inst.map_or(call.span, |i| i.span);
                    return Err(InterpError::new(ErrorKind::Launch, format!("call takes {} return values from '{}', which returns {}", rets.len(), f.name, f.returns.len())).at(Site::Ptx(span)));
                }
            };
            match r {
                Opnd::Reg(slot) => {
                    if let Some(x) = t.regs.get_mut(caller.reg_base as usize + *slot as usize) {
                        *x = crate::interp::memory::le_u64(&bytes);
                    }
                }
                Opnd::Var(v, off) => {
                    let var = &prog.vars[*v as usize];
                    if var.space == VarSpace::Frame {
                        let a = caller.local_base + var.addr + *off as u64;
                        let n = bytes.len().min(var.size as usize);
                        t.local.write(a, &bytes[..n], 1, "local").map_err(|e| InterpError::from(e).at(Site::Ptx(call.span)))?;
                    }
                }
                _ => {}
            }
        }
        t.regs.truncate(frame.reg_base as usize);
        t.local.data.truncate(frame.local_base as usize);
        advance(t);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn barrier(&mut self, cta: &mut Cta, shared: &mut Region, lo: usize, group: u32, active: u32, inst: &Inst, clock: u64) -> Result<(), InterpError> {
        let is_red = matches!(inst.op, Opcode::BarRed | Opcode::BarCtaRed | Opcode::BarrierRed | Opcode::BarrierCtaRed);
        let is_arrive = matches!(inst.op, Opcode::BarArrive | Opcode::BarCtaArrive | Opcode::BarrierArrive | Opcode::BarrierCtaArrive);
        // Operands: [d,] a [, b] [, c] for red.
        let ops: &[Opnd] = if is_red { inst.ops.get(1..).unwrap_or(&[]) } else { &inst.ops };
        let (id_op, count_op, pred_op) = if is_red {
            match ops.len() {
                2 => (ops.first(), None, ops.get(1)),
                _ => (ops.first(), ops.get(1), ops.get(2)),
            }
        } else {
            (ops.first(), ops.get(1), None)
        };
        for i in lanes(group) {
            let idx = lo + i as usize;
            if active & (1 << i) == 0 {
                advance(&mut cta.threads[idx]);
                continue;
            }
            let (id, count, pred) = self.lane(cta, shared, idx, clock, inst, |l| {
                let id = match id_op {
                    Some(o) => l.get(o, ScalarType::U32)?,
                    None => 0,
                };
                let count = match count_op {
                    Some(o) => Some(l.get(o, ScalarType::U32)? as u32),
                    None => None,
                };
                let pred = match pred_op {
                    Some(o) => l.get(o, ScalarType::Pred)? & 1 != 0,
                    None => false,
                };
                Ok((id, count, pred))
            })?;
            if id >= 16 {
                return Err(at(inst, ErrorKind::Trap, format!("barrier {id} (only 0..15 exist)")).in_thread(cta.ctaid, cta.threads[idx].tid));
            }
            let b = &mut cta.barriers[id as usize];
            if b.arrived == 0 {
                b.all = true;
                b.any = false;
                b.popc = 0;
            }
            b.arrived += 1;
            if let Some(c) = count {
                b.expected = Some(c);
            }
            b.popc += pred as u32;
            b.all &= pred;
            b.any |= pred;
            if is_arrive {
                advance(&mut cta.threads[idx]);
            } else {
                cta.threads[idx].state = State::Barrier(id as u8);
            }
        }
        cta.try_release(self.prog);
        Ok(())
    }
}

/// Bits set in a mask, ascending.
pub fn lanes(mask: u32) -> impl Iterator<Item = u32> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros();
        m &= m - 1;
        Some(i)
    })
}

fn advance(t: &mut Thread) {
    if let Some(f) = t.frames.last_mut() {
        f.pc += 1;
    }
}

/// A CTA's threads and barriers.
pub struct Cta {
    /// Threads in linear order.
    pub threads: Vec<Thread>,
    barriers: Vec<Barrier>,
    /// `%ctaid`.
    pub ctaid: [u32; 3],
}

impl Cta {
    /// Completes every barrier whose expected threads have arrived.
    fn try_release(&mut self, prog: &Program) {
        let live = self.threads.iter().filter(|t| t.state != State::Exited).count() as u32;
        for id in 0..16u8 {
            let b = &self.barriers[id as usize];
            if b.arrived == 0 {
                continue;
            }
            let expected = b.expected.unwrap_or(live);
            if b.arrived < expected {
                continue;
            }
            let (popc, all, any) = (b.popc, b.all, b.any);
            self.barriers[id as usize] = Barrier::default();
            for t in &mut self.threads {
                if t.state != State::Barrier(id) {
                    continue;
                }
                t.state = State::Run;
                let Some(f) = t.frames.last().copied() else { continue };
                if let Some(inst) = prog.funcs[f.func as usize].insts.get(f.pc as usize) {
                    if matches!(inst.op, Opcode::BarRed | Opcode::BarCtaRed | Opcode::BarrierRed | Opcode::BarrierCtaRed) {
                        let v = if inst.has(super::lower::f::POPC) {
                            popc as u64
                        } else if inst.has(super::lower::f::AND) {
                            all as u64
                        } else {
                            any as u64
                        };
                        if let Some(Opnd::Reg(slot)) = inst.ops.first() {
                            if let Some(r) = t.regs.get_mut(f.reg_base as usize + *slot as usize) {
                                *r = v;
                            }
                        }
                    }
                }
                advance(t);
            }
        }
    }

    /// Re-checks barriers after threads exited (an exited thread no longer
    /// counts toward "all threads of the CTA").
    pub fn recheck(&mut self, prog: &Program) {
        self.try_release(prog);
    }
}

/// One lane's view: its thread, frame and the memories.
pub struct Lane<'a> {
    /// The program.
    pub prog: &'a Program,
    /// The thread.
    pub t: &'a mut Thread,
    /// Its current frame.
    pub frame: Frame,
    /// Memories.
    pub mem: Mem<'a>,
    /// Lane facts.
    pub info: LaneInfo,
    /// Launch dims.
    pub dims: Dims,
}

impl Lane<'_> {
    /// Reads a register slot.
    #[inline]
    pub fn reg(&self, slot: u32) -> u64 {
        self.t.regs.get(self.frame.reg_base as usize + slot as usize).copied().unwrap_or(0)
    }

    /// Writes a register slot.
    #[inline]
    pub fn set_reg(&mut self, slot: u32, v: u64) {
        if let Some(r) = self.t.regs.get_mut(self.frame.reg_base as usize + slot as usize) {
            *r = v;
        }
    }

    /// A variable's address in its own space (what `mov r, var` gives).
    pub fn var_addr(&self, v: u32) -> u64 {
        let var = &self.prog.vars[v as usize];
        match var.space {
            VarSpace::Frame => self.frame.local_base + var.addr,
            VarSpace::KernelParam => PARAM_WINDOW + var.addr,
            _ => var.addr,
        }
    }

    /// Reads a source operand as type `ty` (raw bits; immediates converted).
    pub fn get(&mut self, op: &Opnd, ty: ScalarType) -> Result<u64, InterpError> {
        Ok(match op {
            Opnd::Reg(s) | Opnd::Selected(s, _, _) => self.reg(*s),
            Opnd::NotPred(s) => {
                if ty == ScalarType::Pred {
                    (self.reg(*s) & 1) ^ 1
                } else {
                    self.reg(*s)
                }
            }
            Opnd::Imm(i) => match (i, ty.kind()) {
                (_, crate::ptx::ast::TypeKind::Float) => super::lower::float_imm_bits(*i, ty),
                (Imm::Int(v), _) => *v,
                (Imm::F32(b), _) => *b as u64,
                (Imm::F64(b), _) => *b,
            },
            Opnd::Sreg(s, c) => self.sreg(*s, *c),
            Opnd::Var(v, off) => self.var_addr(*v).wrapping_add(*off as u64),
            Opnd::Func(f) => FUNC_BASE + *f as u64 * 16,
            Opnd::Addr(Base::Reg(s), off) => self.reg(*s).wrapping_add(*off as u64),
            Opnd::Sink => 0,
            Opnd::Vec(v) => {
                // A packed vector source: elements of width bits/len, low first.
                let n = v.len().max(1) as u32;
                let bits = ty.bits() / n;
                let mut out = 0u64;
                for (k, e) in v.iter().enumerate() {
                    let x = self.get(e, ScalarType::B64)?;
                    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
                    out |= (x & mask) << (bits * k as u32).min(63);
                }
                out
            }
            _ => return Err(InterpError::new(ErrorKind::Unsupported, "operand form the interpreter cannot read here")),
        })
    }

    /// Writes a destination operand.
    pub fn set(&mut self, op: &Opnd, v: u64) -> Result<(), InterpError> {
        match op {
            // A video destination's mask is the instruction's to apply.
            Opnd::Reg(s) | Opnd::Selected(s, _, _) => self.set_reg(*s, v),
            Opnd::Sink => {}
            Opnd::Vec(_) => return Err(InterpError::new(ErrorKind::Unsupported, "a vector destination here")),
            _ => return Err(InterpError::new(ErrorKind::Malformed, "destination is not a register")),
        }
        Ok(())
    }

    fn sreg(&self, s: Sreg, c: u8) -> u64 {
        let c = (c as usize).min(2);
        let tid = self.t.tid;
        let lane = self.info.lane;
        (match s {
            Sreg::Tid => tid[c],
            Sreg::Ntid => self.dims.block[c],
            Sreg::Ctaid => self.info.ctaid[c],
            Sreg::Nctaid => self.dims.grid[c],
            Sreg::Laneid => lane,
            Sreg::Warpid => self.info.warp,
            Sreg::Nwarpid => self.dims.block.iter().product::<u32>().div_ceil(32),
            Sreg::Smid | Sreg::Gridid | Sreg::Zero => 0,
            Sreg::Nsmid => 1,
            Sreg::ClusterOne => 1,
            Sreg::LanemaskEq => 1u32 << lane,
            Sreg::LanemaskLe => ((1u64 << (lane + 1)) - 1) as u32,
            Sreg::LanemaskLt => ((1u64 << lane) - 1) as u32,
            Sreg::LanemaskGe => !((1u32 << lane) - 1),
            Sreg::LanemaskGt => (!((1u64 << (lane + 1)) - 1)) as u32,
            Sreg::Clock => self.info.clock as u32,
            Sreg::Clock64 => return self.info.clock,
            Sreg::Globaltimer => return self.info.clock.wrapping_mul(1000),
            Sreg::DynamicSmemSize => self.dims.dyn_shared,
            Sreg::TotalSmemSize => (self.prog.dynamic_shared + self.dims.dyn_shared as u64) as u32,
        }) as u64
    }

    /// The address an `[..]` operand names, and the space it is in, for an
    /// access in `space` (the instruction's, `None` for generic).
    pub fn address(&mut self, op: &Opnd, space: Option<StateSpace>) -> Result<(Space, u64), InterpError> {
        let (base, off) = match op {
            Opnd::Addr(b, o) => (*b, *o),
            Opnd::Var(v, o) => (Base::Var(*v), *o),
            Opnd::Reg(s) => (Base::Reg(*s), 0),
            _ => return Err(InterpError::new(ErrorKind::Malformed, "not an address operand")),
        };
        let (value, var_space) = match base {
            Base::Reg(s) => (self.reg(s), None),
            Base::Var(v) => (self.var_addr(v), Some(self.prog.vars[v as usize].space)),
            Base::Abs => (0, None),
        };
        let addr = value.wrapping_add(off as u64);
        let of_var = |vs: VarSpace| match vs {
            VarSpace::Global => Space::Global,
            VarSpace::Const => Space::Const,
            VarSpace::Shared => Space::Shared,
            VarSpace::LocalStatic | VarSpace::Frame => Space::Local,
            VarSpace::KernelParam => Space::Param,
        };
        Ok(match space {
            None => match var_space {
                Some(vs) => (of_var(vs), if vs == VarSpace::KernelParam { addr - PARAM_WINDOW } else { addr }),
                None => layout::classify(addr),
            },
            Some(StateSpace::Global) => (Space::Global, addr),
            Some(StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster) => (Space::Shared, addr),
            Some(StateSpace::Local) => (Space::Local, addr),
            Some(StateSpace::Const) => (Space::Const, addr),
            Some(StateSpace::Param | StateSpace::ParamEntry | StateSpace::ParamFunc) => {
                if addr.wrapping_sub(PARAM_WINDOW) < layout::WINDOW_BYTES {
                    (Space::Param, addr - PARAM_WINDOW)
                } else if addr.wrapping_sub(LOCAL_WINDOW) < layout::WINDOW_BYTES {
                    (Space::Local, addr - LOCAL_WINDOW)
                } else {
                    (Space::Local, addr)
                }
            }
            Some(s) => return Err(InterpError::new(ErrorKind::Unsupported, format!("memory access in the {} space", s.spelling()))),
        })
    }

    /// Reads `size` bytes.
    pub fn read(&mut self, space: Space, addr: u64, size: usize, align: u64) -> Result<Vec<u8>, InterpError> {
        self.read_slice(space, addr, size, align).map(<[u8]>::to_vec)
    }

    /// The `size` bytes at `addr`, borrowed (no copy).
    pub fn read_slice(&self, space: Space, addr: u64, size: usize, align: u64) -> Result<&[u8], InterpError> {
        let r = match space {
            Space::Global => self.mem.global.read(addr, size, align),
            Space::Shared => self.mem.shared.read(addr, size, align, "shared"),
            Space::Local => self.t.local.read(addr, size, align, "local"),
            Space::Const => self.mem.konst.read(addr, size, align, "const"),
            Space::Param => self.mem.kparam.read(addr, size, align, "param"),
        };
        r.map_err(InterpError::from)
    }

    /// Writes bytes.
    pub fn write(&mut self, space: Space, addr: u64, bytes: &[u8], align: u64) -> Result<(), InterpError> {
        let r = match space {
            Space::Global => self.mem.global.write(addr, bytes, align),
            Space::Shared => self.mem.shared.write(addr, bytes, align, "shared"),
            Space::Local => self.t.local.write(addr, bytes, align, "local"),
            Space::Const => Err(MemFault { address: addr, size: bytes.len() as u64, kind: crate::interp::memory::FaultKind::ReadOnly, space: "const" }),
            Space::Param => Err(MemFault { address: addr, size: bytes.len() as u64, kind: crate::interp::memory::FaultKind::ReadOnly, space: "param" }),
        };
        r.map_err(InterpError::from)
    }

    /// Writable bytes for a read-modify-write.
    pub fn bytes_mut(&mut self, space: Space, addr: u64, size: usize) -> Result<&mut [u8], InterpError> {
        let align = size as u64;
        let r = match space {
            Space::Global => self.mem.global.bytes_mut(addr, size, align),
            Space::Shared => self.mem.shared.bytes_mut(addr, size, align, "shared"),
            Space::Local => self.t.local.bytes_mut(addr, size, align, "local"),
            Space::Const | Space::Param => Err(MemFault { address: addr, size: size as u64, kind: crate::interp::memory::FaultKind::ReadOnly, space: "const" }),
        };
        r.map_err(InterpError::from)
    }

    /// The bytes of a call argument: a `.param` variable's contents or a
    /// register's or immediate's value.
    fn operand_bytes(&mut self, op: &Opnd, size: usize) -> Result<Vec<u8>, InterpError> {
        match op {
            Opnd::Var(v, off) => {
                let var = &self.prog.vars[*v as usize];
                let n = size.min(var.size.saturating_sub(*off as u64) as usize);
                let (space, addr) = self.address(&Opnd::Var(*v, *off), None)?;
                let mut b = self.read(space, addr, n, 1)?;
                b.resize(size, 0);
                Ok(b)
            }
            _ => {
                let v = self.get(op, ScalarType::B64)?;
                let mut b = v.to_le_bytes().to_vec();
                b.resize(size, 0);
                Ok(b)
            }
        }
    }

    fn store_operand_bytes(&mut self, op: &Opnd, bytes: &[u8]) -> Result<(), InterpError> {
        match op {
            Opnd::Var(v, off) => {
                let (space, addr) = self.address(&Opnd::Var(*v, *off), None)?;
                let n = bytes.len().min(self.prog.vars[*v as usize].size as usize);
                self.write(space, addr, &bytes[..n], 1)
            }
            Opnd::Reg(s) => {
                self.set_reg(*s, crate::interp::memory::le_u64(bytes));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Executes a per-lane instruction.
    pub fn exec(&mut self, inst: &Inst) -> Result<(), InterpError> {
        ops::exec(self, inst)
    }
}

/// Converts a memory fault into an error at an instruction.
pub fn fault_at(inst: &Inst, f: MemFault) -> InterpError {
    mem_err(inst, f)
}
