//! The program regalloc2 sees ([`Prog`]), built from a machine function:
//!
//! * a new entry block first, holding the prologue's place and, in a
//!   device function, the definition of the parameters in their
//!   convention registers (regalloc2 wants an entry block without
//!   parameters or predecessors);
//! * critical edges split by edge blocks (an unconditional `BRA` passing
//!   the edge's arguments), placed just before their destination;
//! * a block's terminator as one regalloc2 instruction: a conditional
//!   branch (`@P BRA taken` then `BRA other`) is one instruction, so that
//!   no move can land between its two branches;
//! * calls and returns with their values split into 32-bit words in
//!   fixed registers ([`super::abi`]), through `EXTRACT` and `CONCAT`
//!   pseudo instructions;
//! * every operand as a regalloc2 operand: definitions, uses (each
//!   register once per instruction), fixed registers, and reuse
//!   constraints for ties and copies.

use super::Kind;
use super::abi;
use crate::ir::SrcLoc;
use crate::isa::inst::Inst as MInst;
use crate::isa::op::{Mnemonic, Op as SassOp};
use crate::isa::op_facts::Control;
use crate::isa::operand::{Operand, RegNum};
use crate::select::{MachFunction, MachInst, MachKind};
use crate::target::Sm;
use smallvec::{SmallVec, smallvec};
/// Keys are register and instruction indices: a fast hasher.
type HashMap<K, V> = std::collections::HashMap<K, V, crate::fxhash::FxBuild>;
type HashSet<K> = std::collections::HashSet<K, crate::fxhash::FxBuild>;

/// One operand of a regalloc2 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// Virtual register.
    pub vreg: u32,
    /// A definition (else a use).
    pub def: bool,
    /// Fixed physical R register (calling convention).
    pub fixed: Option<u8>,
    /// For a definition: takes the register of operand `k` (a use).
    pub reuse: Option<u8>,
}

impl Op {
    fn def(vreg: u32) -> Op {
        Op { vreg, def: true, fixed: None, reuse: None }
    }
    fn use_(vreg: u32) -> Op {
        Op { vreg, def: false, fixed: None, reuse: None }
    }
}

/// A machine instruction of the selected program, or one made here (an
/// edge block's `BRA`). Made ones are rare and boxed, so that a [`PKind`]
/// holding two of these stays two pointers wide rather than two
/// instructions (`Cow` would hold the owned case inline).
#[derive(Clone, Debug)]
pub enum Held<'a> {
    /// An instruction of the selected program.
    Borrowed(&'a MInst),
    /// An instruction made during preparation.
    Owned(Box<MInst>),
}

impl std::ops::Deref for Held<'_> {
    type Target = MInst;
    #[inline]
    fn deref(&self) -> &MInst {
        match self {
            Held::Borrowed(inst) => inst,
            Held::Owned(inst) => inst,
        }
    }
}

/// What a regalloc2 instruction stands for.
#[derive(Clone, Debug)]
pub enum PKind<'a> {
    /// A machine instruction (its virtual registers are the operands).
    Inst(Held<'a>),
    /// An unconditional branch to a block of the program.
    Branch {
        /// The `BRA`.
        inst: Held<'a>,
        /// Destination.
        target: u32,
    },
    /// `@P BRA taken` then `BRA other`.
    CondBranch {
        /// The guarded branch.
        first: Held<'a>,
        /// Its destination.
        taken: u32,
        /// The unconditional branch.
        second: Held<'a>,
        /// Its destination.
        other: u32,
    },
    /// A call; operands are the fixed argument words (uses), the guard,
    /// and the fixed result words (definitions).
    Call {
        /// The `CALL.REL.NOINC`.
        inst: Held<'a>,
        /// Callee.
        callee: u32,
        /// A function outside the module, called by NVIDIA's convention
        /// ([`abi::extern_words`]).
        external: bool,
    },
    /// `RET`: uses the return address and the result words, fixed.
    Ret(Held<'a>),
    /// `defs[0] = uses[0]` (a reuse constraint unless the kinds differ or
    /// the copy must be real).
    Copy,
    /// `defs[0]` = part `part` of `uses[0]`.
    Extract {
        /// 32-bit part.
        part: u8,
    },
    /// `defs[0]` = the uses, low first.
    Concat,
    /// `defs[0]` = address of a module variable (or function).
    SymAddr {
        /// Variable index (function index when `function`).
        global: u32,
        /// Byte offset.
        offset: i32,
        /// The address of a function.
        function: bool,
    },
    /// The entry's definition of the return address and parameter words.
    Params,
}

/// A regalloc2 instruction.
#[derive(Clone, Debug)]
pub struct PInst<'a> {
    /// What it stands for.
    pub kind: PKind<'a>,
    /// Operands: definitions first, then uses.
    pub ops: SmallVec<[Op; 6]>,
    /// Registers of the machine instruction that are a 32-bit part of
    /// another operand's register: (named, carrier, part).
    pub alias: SmallVec<[(u32, u32, u8); 2]>,
}

impl PInst<'_> {
    /// The definitions.
    pub fn defs(&self) -> impl Iterator<Item = &Op> {
        self.ops.iter().filter(|o| o.def)
    }
    /// The uses.
    pub fn uses(&self) -> impl Iterator<Item = &Op> {
        self.ops.iter().filter(|o| !o.def)
    }
}

/// A block of the program.
#[derive(Clone, Debug, Default)]
pub struct PBlock {
    /// Parameters.
    pub params: Vec<u32>,
    /// Instruction range.
    pub start: u32,
    /// End of the instruction range (exclusive).
    pub end: u32,
    /// Successors.
    pub succs: SmallVec<[u32; 2]>,
    /// Predecessors.
    pub preds: SmallVec<[u32; 2]>,
    /// Arguments per successor.
    pub args: SmallVec<[Vec<u32>; 2]>,
}

/// The program regalloc2 allocates.
#[derive(Clone, Debug)]
pub struct Prog<'a> {
    /// Function name.
    pub name: String,
    /// Target.
    pub sm: Sm,
    /// A kernel (else a device function).
    pub kernel: bool,
    /// Bytes of `.local` variables.
    pub local_bytes: u32,
    /// Kind of each virtual register.
    pub kinds: Vec<Kind>,
    /// Blocks; index 0 is the entry, the order is the layout.
    pub blocks: Vec<PBlock>,
    /// Instructions, block after block.
    pub insts: Vec<PInst<'a>>,
    /// The source position of each instruction (that of the machine
    /// instruction it stands for; unknown for the ones made here).
    pub locs: Vec<SrcLoc>,
    /// Registers below this one are singles (R0, R2, R3, …): the
    /// convention's registers; 0 when the function passes nothing.
    pub abi_top: u32,
    /// Record what each instruction defines (`-g`, a function with
    /// register names): [`super::Allocated::debug_defs`].
    pub debug: bool,
}

/// Builds the program of a machine function.
pub fn prepare(f: &MachFunction) -> Result<Prog<'_>, String> {
    let mut kinds = Vec::with_capacity(f.vregs.len() + 16);
    for (v, ty) in f.vregs.iter().enumerate() {
        kinds.push(Kind::of(*ty).ok_or_else(|| format!("virtual register {v} has type {ty}, which has no register class"))?);
    }
    if f.blocks.is_empty() {
        return Err("function without blocks".into());
    }
    let n = f.blocks.len();
    for (b, block) in f.blocks.iter().enumerate() {
        if block.succs.iter().any(|s| s.0 as usize >= n) || block.succ_args.len() != block.succs.len() {
            return Err(format!("block {b} has a successor out of range"));
        }
    }
    // Predecessor counts (the new entry adds one to the old entry).
    let mut npreds = vec![0u32; n];
    npreds[0] = 1;
    for block in &f.blocks {
        for s in &block.succs {
            npreds[s.0 as usize] += 1;
        }
    }
    // New block numbers: entry 0, then per original block itself and the
    // edge blocks that split its critical out-edges (an edge block after
    // its predecessor: every block but the entry then follows one of its
    // predecessors, which regalloc2's checker needs).
    let mut edge_index: Vec<SmallVec<[Option<u32>; 2]>> = f.blocks.iter().map(|b| smallvec![None; b.succs.len()]).collect();
    let mut index = vec![0u32; n];
    let mut order: Vec<Source> = vec![Source::Entry];
    for b in block_order(f) {
        index[b] = order.len() as u32;
        order.push(Source::Block(b));
        let block = &f.blocks[b];
        if block.succs.len() > 1 {
            for k in (0..block.succs.len()).rev() {
                if npreds[block.succs[k].0 as usize] > 1 {
                    edge_index[b][k] = Some(order.len() as u32);
                    order.push(Source::Edge(b, k));
                }
            }
        }
    }
    let plan = plan_parts(f, &mut kinds);
    // One instruction per machine instruction, plus a branch per edge
    // block and a few made ones: sized once rather than grown by doubling.
    let machine_insts: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
    let insts = Vec::with_capacity(machine_insts + order.len() + 8);
    let mut b = Builder { kinds, insts, sm: f.sm, abi_top: 0, ra: None, use_alias: plan.use_alias, def_alias: plan.def_alias };
    let mut blocks: Vec<PBlock> = Vec::with_capacity(order.len());
    let mut locs: Vec<SrcLoc> = Vec::with_capacity(machine_insts + order.len() + 8);
    for src in &order {
        let start = b.insts.len() as u32;
        let mut pb = PBlock { start, ..PBlock::default() };
        match *src {
            Source::Entry => {
                let params: Vec<u32> = f.blocks[0].params.iter().map(|v| v.0).collect();
                let args = if f.kernel {
                    if !params.is_empty() {
                        return Err("a kernel's entry block has parameters".into());
                    }
                    Vec::new()
                } else {
                    b.entry_params(&params)?
                };
                b.branch(index[0]);
                pb.succs.push(index[0]);
                pb.args.push(args);
            }
            Source::Edge(p, k) => {
                let target = f.blocks[p].succs[k].0 as usize;
                b.branch(index[target]);
                pb.succs.push(index[target]);
                pb.args.push(f.blocks[p].succ_args[k].iter().map(|v| v.0).collect());
            }
            Source::Block(o) => {
                let block = &f.blocks[o];
                pb.params = block.params.iter().map(|v| v.0).collect();
                let nb = block.succs.len();
                if nb > 2 {
                    return Err(format!("block {o} has {nb} successors"));
                }
                let body = block.insts.len().checked_sub(nb.max(1)).ok_or_else(|| format!("block {o} has no terminator"))?;
                for (i, inst) in block.insts[..body].iter().enumerate() {
                    if !plan.dropped.contains(&(o, i)) {
                        locs.resize(b.insts.len(), SrcLoc::default());
                        b.inst(inst, f.kernel)?;
                        locs.resize(b.insts.len(), inst.loc);
                    }
                }
                let term = &block.insts[body..];
                locs.resize(b.insts.len(), SrcLoc::default());
                let term_loc = term.first().map_or_else(SrcLoc::default, |t| t.loc);
                let dest = |k: usize| edge_index[o][k].unwrap_or(index[block.succs[k].0 as usize]);
                match (term, nb) {
                    ([last], 0) => {
                        if !matches!(last.kind, MachKind::Inst(_)) {
                            return Err(format!("block {o} ends in a branch without successors"));
                        }
                        b.inst(last, f.kernel)?;
                    }
                    ([MachInst { kind: MachKind::Branch { inst, .. }, .. }], 1) => {
                        if inst.guard.0.num != RegNum::Zero || inst.guard.1 {
                            return Err(format!("block {o} ends in a guarded branch"));
                        }
                        b.push(PKind::Branch { inst: Held::Borrowed(inst), target: dest(0) }, SmallVec::new());
                    }
                    ([MachInst { kind: MachKind::Branch { inst: first, .. }, .. }, MachInst { kind: MachKind::Branch { inst: second, .. }, .. }], 2) => {
                        let mut ops = SmallVec::new();
                        if let RegNum::Virt(v) = first.guard.0.num {
                            ops.push(Op::use_(v.get()));
                        }
                        b.push(PKind::CondBranch { first: Held::Borrowed(first), taken: dest(0), second: Held::Borrowed(second), other: dest(1) }, ops);
                    }
                    _ => return Err(format!("block {o} does not end in its branches")),
                }
                locs.resize(b.insts.len(), term_loc);
                for k in 0..nb {
                    pb.succs.push(dest(k));
                    // A split edge passes its arguments from the edge block.
                    pb.args.push(if edge_index[o][k].is_some() { Vec::new() } else { block.succ_args[k].iter().map(|v| v.0).collect() });
                }
            }
        }
        pb.end = b.insts.len() as u32;
        locs.resize(b.insts.len(), SrcLoc::default());
        blocks.push(pb);
    }
    for k in 0..blocks.len() {
        for s in blocks[k].succs.clone() {
            blocks[s as usize].preds.push(k as u32);
        }
    }
    let Builder { kinds, insts, abi_top, .. } = b;
    // Every register named must have a type (regalloc2 indexes by it).
    let nv = kinds.len() as u32;
    let bad = insts.iter().flat_map(|i| i.ops.iter().map(|o| o.vreg)).chain(blocks.iter().flat_map(|b| b.params.iter().chain(b.args.iter().flatten()).copied())).find(|v| *v >= nv);
    if let Some(v) = bad {
        return Err(format!("virtual register {v} has no type"));
    }
    Ok(Prog { name: f.name.clone(), sm: f.sm, kernel: f.kernel, local_bytes: f.local_bytes, kinds, blocks, insts, locs, abi_top, debug: !f.register_names.is_empty() })
}

/// The original blocks in layout order, or in reverse post-order when
/// some block comes before all of its predecessors in the layout.
fn block_order(f: &MachFunction) -> Vec<usize> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    seen[0] = true;
    let layout_ok = (0..n).all(|b| {
        let ok = seen[b];
        for s in &f.blocks[b].succs {
            seen[s.0 as usize] = true;
        }
        ok
    });
    if layout_ok {
        return (0..n).collect();
    }
    // Iterative depth-first post-order from the entry.
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    while let Some((b, k)) = stack.pop() {
        if let Some(s) = f.blocks[b].succs.get(k) {
            stack.push((b, k + 1));
            let s = s.0 as usize;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post.extend((0..n).filter(|b| !visited[*b]));
    post
}

/// Where a block of the program comes from.
enum Source {
    Entry,
    Edge(usize, usize),
    Block(usize),
}

struct Builder<'a> {
    kinds: Vec<Kind>,
    insts: Vec<PInst<'a>>,
    sm: Sm,
    abi_top: u32,
    /// The return address's registers (device functions).
    ra: Option<[u32; 2]>,
    /// Registers read as a part of a wider one: named → (wide, part).
    use_alias: HashMap<u32, (u32, u8)>,
    /// Registers written as a part of a wider one: named → (carrier,
    /// the carrier it continues, part).
    def_alias: HashMap<u32, (u32, Option<u32>, u8)>,
}

impl<'a> Builder<'a> {
    fn fresh(&mut self, kind: Kind) -> u32 {
        self.kinds.push(kind);
        (self.kinds.len() - 1) as u32
    }

    fn kind(&self, v: u32) -> Result<Kind, String> {
        self.kinds.get(v as usize).copied().ok_or_else(|| format!("virtual register {v} has no type"))
    }

    fn push(&mut self, kind: PKind<'a>, ops: SmallVec<[Op; 6]>) {
        self.insts.push(PInst { kind, ops, alias: SmallVec::new() });
    }

    fn branch(&mut self, target: u32) {
        if let Ok(inst) = Mnemonic::new(SassOp::BRA).build(self.sm, None, &[Operand::Target(0)]) {
            self.push(PKind::Branch { inst: Held::Owned(Box::new(inst)), target }, SmallVec::new());
        }
    }

    fn note_word(&mut self, reg: u8) {
        self.abi_top = self.abi_top.max(u32::from(reg) + 1);
    }

    /// The convention's register of word `k`.
    fn word(&mut self, k: u32) -> Result<u8, String> {
        let r = abi::word_reg(k).ok_or_else(|| format!("more than {} words of arguments or results", abi::MAX_WORDS))?;
        self.note_word(r);
        Ok(r)
    }

    /// The 32-bit words of values (EXTRACT pseudo instructions for the
    /// wide ones, a copy for a repeated value).
    fn words_of(&mut self, vals: &[u32]) -> Result<Vec<u32>, String> {
        let mut words = Vec::new();
        for &v in vals {
            match self.kind(v)? {
                Kind::R1 => {
                    if words.contains(&v) {
                        let t = self.fresh(Kind::R1);
                        self.push(PKind::Copy, smallvec![Op::def(t), Op::use_(v)]);
                        words.push(t);
                    } else {
                        words.push(v);
                    }
                }
                k @ (Kind::R2 | Kind::R4) => {
                    for part in 0..k.width() {
                        let t = self.fresh(Kind::R1);
                        self.push(PKind::Extract { part: part as u8 }, smallvec![Op::def(t), Op::use_(v)]);
                        words.push(t);
                    }
                }
                k => return Err(format!("a {k:?} value is passed to or from a function (only R values are)")),
            }
        }
        Ok(words)
    }

    /// Fresh single registers for the words of values of these kinds, and
    /// the CONCATs that rebuild the wide ones after `at` (returned as the
    /// values to use).
    fn split_defs(&mut self, vals: &[u32]) -> Result<(Vec<u32>, Vec<(u32, Vec<u32>)>), String> {
        let mut words = Vec::new();
        let mut joins = Vec::new();
        for &v in vals {
            match self.kind(v)? {
                Kind::R1 => words.push(v),
                k @ (Kind::R2 | Kind::R4) => {
                    let parts: Vec<u32> = (0..k.width()).map(|_| self.fresh(Kind::R1)).collect();
                    words.extend(&parts);
                    joins.push((v, parts));
                }
                k => return Err(format!("a {k:?} value is passed to or from a function (only R values are)")),
            }
        }
        Ok((words, joins))
    }

    fn concat(&mut self, joins: Vec<(u32, Vec<u32>)>) {
        for (v, parts) in joins {
            let mut ops: SmallVec<[Op; 6]> = smallvec![Op::def(v)];
            ops.extend(parts.into_iter().map(Op::use_));
            self.push(PKind::Concat, ops);
        }
    }

    /// The device function's entry: defines the return address and the
    /// parameter words in their registers; returns the arguments for the
    /// old entry block's parameters.
    fn entry_params(&mut self, params: &[u32]) -> Result<Vec<u32>, String> {
        let ra = [self.fresh(Kind::R1), self.fresh(Kind::R1)];
        self.note_word(abi::RETURN_ADDRESS + 1);
        let mut ops: SmallVec<[Op; 6]> = SmallVec::new();
        ops.push(Op { fixed: Some(abi::RETURN_ADDRESS), ..Op::def(ra[0]) });
        ops.push(Op { fixed: Some(abi::RETURN_ADDRESS + 1), ..Op::def(ra[1]) });
        // Fresh registers: the parameters themselves are defined by the
        // old entry block.
        let mut fresh = Vec::with_capacity(params.len());
        for &p in params {
            let k = self.kind(p)?;
            fresh.push(self.fresh(k));
        }
        let (words, joins) = self.split_defs(&fresh)?;
        for (k, w) in words.iter().enumerate() {
            ops.push(Op { fixed: Some(self.word(k as u32)?), ..Op::def(*w) });
        }
        self.push(PKind::Params, ops);
        self.concat(joins);
        self.ra = Some(ra);
        Ok(fresh)
    }

    /// One non-terminator instruction (or an `EXIT`/`RET` terminator).
    fn inst(&mut self, m: &'a MachInst, kernel: bool) -> Result<(), String> {
        // Inline lists: an instruction has a few operands, and two heap
        // lists per instruction were a tenth of this pass.
        let defs: SmallVec<[u32; 4]> = m.defs.iter().map(|v| v.0).collect();
        let mut raw_uses: SmallVec<[u32; 8]> = m.uses.iter().map(|v| v.0).collect();
        match &m.kind {
            MachKind::Call { inst, callee, external } => {
                let guard = match inst.guard.0.num {
                    RegNum::Virt(g) => Some(g),
                    _ => None,
                };
                let mut nargs = raw_uses.len() - usize::from(guard.is_some());
                // A call through a register: its target (the last use) in
                // R0, which is never an argument word nor the return
                // address, both written just before the call.
                let target = if *callee == crate::select::mach::INDIRECT_CALLEE {
                    nargs = nargs.checked_sub(1).ok_or("an indirect call without a target")?;
                    Some(raw_uses[nargs])
                } else {
                    None
                };
                let words = self.words_of(&raw_uses[..nargs])?;
                let (results, joins) = self.split_defs(&defs)?;
                // The register of each word: ours counts words from R4,
                // NVIDIA's aligns 64-bit values.
                let (arg_regs, result_regs) = if *external {
                    let widths = |vals: &[u32]| -> Result<Vec<u8>, String> {
                        let w: Vec<u32> = vals.iter().map(|&v| self.kind(v).map(Kind::width)).collect::<Result<_, _>>()?;
                        abi::extern_words(&w)
                    };
                    let regs = (widths(&raw_uses[..nargs])?, widths(&defs)?);
                    for &r in regs.0.iter().chain(&regs.1) {
                        self.note_word(r);
                    }
                    regs
                } else {
                    let a = (0..words.len() as u32).map(|k| self.word(k)).collect::<Result<Vec<_>, _>>()?;
                    let r = (0..results.len() as u32).map(|k| self.word(k)).collect::<Result<Vec<_>, _>>()?;
                    (a, r)
                };
                let mut ops: SmallVec<[Op; 6]> = SmallVec::new();
                for (w, r) in results.iter().zip(&result_regs) {
                    ops.push(Op { fixed: Some(*r), ..Op::def(*w) });
                }
                for (w, r) in words.iter().zip(&arg_regs) {
                    ops.push(Op { fixed: Some(*r), ..Op::use_(*w) });
                }
                if let Some(t) = target {
                    ops.push(Op { fixed: Some(abi::INDIRECT_TARGET), ..Op::use_(t) });
                }
                if let Some(g) = guard {
                    ops.push(Op::use_(g.get()));
                }
                self.note_word(abi::RETURN_ADDRESS + 1);
                self.push(PKind::Call { inst: Held::Borrowed(inst), callee: *callee, external: *external }, ops);
                self.concat(joins);
            }
            MachKind::Inst(inst) if inst.op().facts().control == Control::Return => {
                if kernel {
                    return Err("RET in a kernel".into());
                }
                let ra = self.ra.ok_or("RET without a return address")?;
                let words = self.words_of(&raw_uses)?;
                let mut ops: SmallVec<[Op; 6]> = SmallVec::new();
                ops.push(Op { fixed: Some(abi::RETURN_ADDRESS), ..Op::use_(ra[0]) });
                ops.push(Op { fixed: Some(abi::RETURN_ADDRESS + 1), ..Op::use_(ra[1]) });
                for (k, w) in words.iter().enumerate() {
                    ops.push(Op { fixed: Some(self.word(k as u32)?), ..Op::use_(*w) });
                }
                self.push(PKind::Ret(Held::Borrowed(inst)), ops);
            }
            MachKind::Branch { .. } => return Err("a branch before the end of its block".into()),
            kind => {
                let pkind = match kind {
                    MachKind::Inst(i) => PKind::Inst(Held::Borrowed(i)),
                    MachKind::Copy => PKind::Copy,
                    MachKind::Extract { part } => PKind::Extract { part: *part },
                    MachKind::Concat => PKind::Concat,
                    MachKind::SymAddr { global, offset, function } => PKind::SymAddr { global: *global, offset: *offset, function: *function },
                    MachKind::Call { .. } | MachKind::Branch { .. } => unreachable_kind()?,
                };
                let mut alias: SmallVec<[(u32, u32, u8); 2]> = SmallVec::new();
                let mut continues: SmallVec<[(usize, u32); 1]> = SmallVec::new();
                let mut ops: SmallVec<[Op; 6]> = SmallVec::new();
                for (k, &d) in defs.iter().enumerate() {
                    match self.def_alias.get(&d) {
                        Some(&(carrier, prev, part)) if matches!(kind, MachKind::Inst(_)) => {
                            alias.push((d, carrier, part));
                            if let Some(p) = prev {
                                continues.push((k, p));
                            }
                            ops.push(Op::def(carrier));
                        }
                        _ => ops.push(Op::def(d)),
                    }
                }
                // A concatenation of one value with itself (`{%r, %r}`):
                // operands name each register once, so the repeats read
                // copies.
                if matches!(pkind, PKind::Concat) {
                    let mut seen: SmallVec<[u32; 4]> = SmallVec::new();
                    for u in raw_uses.iter_mut() {
                        if seen.contains(u) {
                            let t = self.fresh(self.kind(*u)?);
                            self.insts.push(PInst { kind: PKind::Copy, ops: smallvec![Op::def(t), Op::use_(*u)], alias: SmallVec::new() });
                            *u = t;
                        } else {
                            seen.push(*u);
                        }
                    }
                }
                // Each register once among the uses.
                let mut use_at: Vec<u8> = Vec::with_capacity(raw_uses.len());
                for &u in &raw_uses {
                    let u = match self.use_alias.get(&u) {
                        Some(&(wide, part)) if matches!(kind, MachKind::Inst(_)) => {
                            alias.push((u, wide, part));
                            wide
                        }
                        _ => u,
                    };
                    let at = match ops.iter().position(|o| !o.def && o.vreg == u) {
                        Some(k) => k,
                        None => {
                            ops.push(Op::use_(u));
                            ops.len() - 1
                        }
                    };
                    use_at.push(at as u8);
                }
                for &(d, u) in &m.tied {
                    let (Some(op), Some(&at)) = (ops.get(usize::from(d)), use_at.get(usize::from(u))) else {
                        return Err("a tie names a missing operand".into());
                    };
                    if self.kind(op.vreg)? != self.kind(ops[usize::from(at)].vreg)? {
                        return Err("a tie between registers of different kinds".into());
                    }
                    if ops.iter().any(|o| o.reuse == Some(at)) {
                        // Two results keeping the same value: copy it first.
                        let k = self.kind(ops[usize::from(at)].vreg)?;
                        let t = self.fresh(k);
                        self.insts.push(PInst { kind: PKind::Copy, ops: smallvec![Op::def(t), Op::use_(ops[usize::from(at)].vreg)], alias: SmallVec::new() });
                        ops.push(Op::use_(t));
                        let at2 = (ops.len() - 1) as u8;
                        ops[usize::from(d)].reuse = Some(at2);
                        // The instruction reads the original; the copy only
                        // provides the second result's register.
                        continue;
                    }
                    ops[usize::from(d)].reuse = Some(at);
                }
                // A part written into a register that already holds the
                // other parts: the carrier keeps the previous one's register.
                for (k, prev) in continues {
                    ops.push(Op::use_(prev));
                    ops[k].reuse = Some((ops.len() - 1) as u8);
                }
                if matches!(pkind, PKind::Copy) && ops.len() == 2 && self.kind(ops[0].vreg)? == self.kind(ops[1].vreg)? {
                    ops[0].reuse = Some(1);
                }
                self.insts.push(PInst { kind: pkind, ops, alias });
            }
        }
        Ok(())
    }
}

fn unreachable_kind() -> Result<PKind<'static>, String> {
    Err("internal: unexpected instruction kind".into())
}

/// The virtual registers an operand names.
pub fn operand_virts(op: &Operand, out: &mut SmallVec<[u32; 4]>) {
    let mut regs: SmallVec<[crate::select::VReg; 4]> = SmallVec::new();
    crate::select::context::operand_vregs(op, &mut regs);
    out.extend(regs.into_iter().map(|r| r.0));
}

/// Pair plumbing done in place: the `EXTRACT`s whose result is only read
/// by machine instructions (they read the part of the wide register
/// instead), and the `CONCAT`s whose parts are each written by one
/// machine instruction of the same block and read nowhere else (those
/// instructions write the parts of the wide register, each one after the
/// first keeping the parts already written: a reuse constraint).
struct PartPlan {
    use_alias: HashMap<u32, (u32, u8)>,
    def_alias: HashMap<u32, (u32, Option<u32>, u8)>,
    /// (block, instruction) of the pseudo instructions no longer needed.
    dropped: HashSet<(usize, usize)>,
}

fn plan_parts(f: &MachFunction, kinds: &mut Vec<Kind>) -> PartPlan {
    let nv = kinds.len();
    let mut uses = vec![0u32; nv];
    let mut plain = vec![true; nv];
    let mut def_at: Vec<Option<(usize, usize)>> = vec![None; nv];
    let mut tied_def = vec![false; nv];
    let is_plain = |m: &MachInst| matches!(&m.kind, MachKind::Inst(i) if i.op().facts().control != Control::Return);
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, m) in block.insts.iter().enumerate() {
            for (k, &u) in m.uses.iter().enumerate() {
                let Some(x) = uses.get_mut(u.0 as usize) else { continue };
                *x += 1;
                if !is_plain(m) || m.tied.iter().any(|t| usize::from(t.1) == k) {
                    plain[u.0 as usize] = false;
                }
            }
            for (k, &d) in m.defs.iter().enumerate() {
                if let Some(x) = def_at.get_mut(d.0 as usize) {
                    *x = is_plain(m).then_some((b, i));
                    tied_def[d.0 as usize] = m.tied.iter().any(|t| usize::from(t.0) == k);
                }
            }
        }
        for a in block.succ_args.iter().flatten() {
            if let Some(x) = uses.get_mut(a.0 as usize) {
                *x += 1;
                plain[a.0 as usize] = false;
            }
        }
    }
    let kind = |v: u32, kinds: &Vec<Kind>| kinds.get(v as usize).copied();
    let mut plan = PartPlan { use_alias: HashMap::default(), def_alias: HashMap::default(), dropped: HashSet::default() };
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, m) in block.insts.iter().enumerate() {
            match (&m.kind, m.defs.as_slice(), m.uses.as_slice()) {
                (MachKind::Extract { part }, [d], [x]) => {
                    let wide = matches!(kind(x.0, kinds), Some(Kind::R2 | Kind::R4));
                    if wide && kind(d.0, kinds) == Some(Kind::R1) && plain.get(d.0 as usize) == Some(&true) {
                        plan.use_alias.insert(d.0, (x.0, *part));
                        plan.dropped.insert((b, i));
                    }
                }
                (MachKind::Concat, [d], parts) => {
                    let Some(k @ (Kind::R2 | Kind::R4)) = kind(d.0, kinds) else { continue };
                    if parts.len() != k.width() as usize {
                        continue;
                    }
                    let mut sites: Vec<(usize, u8, u32)> = Vec::new();
                    let ok = parts.iter().enumerate().all(|(p, v)| {
                        let v = v.0 as usize;
                        let site = def_at.get(v).copied().flatten();
                        let good = kinds.get(v) == Some(&Kind::R1)
                            && uses.get(v) == Some(&1)
                            && !tied_def[v]
                            && !plan.use_alias.contains_key(&(v as u32))
                            && !plan.def_alias.contains_key(&(v as u32))
                            && matches!(site, Some((sb, si)) if sb == b && si < i);
                        if let Some((_, si)) = site {
                            sites.push((si, p as u8, v as u32));
                        }
                        good
                    });
                    sites.sort_unstable();
                    if !ok || sites.windows(2).any(|w| w[0].0 == w[1].0) {
                        continue;
                    }
                    let mut prev = None;
                    for (n, &(_, part, v)) in sites.iter().enumerate() {
                        let carrier = if n + 1 == sites.len() {
                            d.0
                        } else {
                            kinds.push(k);
                            (kinds.len() - 1) as u32
                        };
                        plan.def_alias.insert(v, (carrier, prev, part));
                        prev = Some(carrier);
                    }
                    plan.dropped.insert((b, i));
                }
                _ => {}
            }
        }
    }
    let _ = nv;
    plan
}
