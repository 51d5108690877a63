//! The legalization driver and the ISLE context: walks a function, asks the
//! ISLE program for each instruction's expansion, and builds the new
//! function (values renamed, guards kept).
//!
//! **Guards.** A guarded instruction's expansion is emitted unguarded and
//! its results merged with the prior values afterwards (`SEL` per 32-bit
//! word, `PLOP3` for predicates), except for the instructions that must not
//! run where the guard is false: loads, stores, barriers and calls keep the
//! guard (a load's result then takes the prior value where the guard is
//! false, so it needs no merge). When the expansion is a single
//! instruction producing the results, that instruction is guarded instead,
//! which is what ptxas emits for predicated arithmetic. Executing the
//! pure part of an expansion speculatively is safe: SASS arithmetic never
//! traps, and it keeps multi-instruction expansions free of partially
//! written temporaries.
//!
//! Shared opcodes (constants, copies, pairs, calls, branches) are legal at
//! every stage and are copied without asking the rules.
//!
//! **Producers.** A rule may look at the instruction that produced an
//! operand (ISLE `def_inst`, to fold a negation into a source modifier, a
//! shift into an address, a constant into an immediate). What it sees is
//! the *input* function's instruction, viewed as the instruction being
//! legalized is (`InstView`: opcode, kind, operands renamed to values of
//! the function being built). `def_inst v` matches only where the fold is
//! sound:
//! * `v` is the result of an input instruction with exactly one result
//!   that had no guard, and legalization gave `v` as that result (not a
//!   merge with a prior value, not a block parameter: those do not match);
//! * the producer was legalized before the instruction now being
//!   legalized (blocks are walked dominators first, so every operand's
//!   producer comes first), so its operands, as the view gives them, were
//!   defined before `v` and dominate every use of `v`: a rule may use them
//!   wherever it may use `v`;
//! * the producer's own expansion stays in the function. Where the fold
//!   takes its last use, selection drops it (selection emits only pure
//!   instructions whose results are needed); where the result has other
//!   uses it stays, and the fold costs an instruction instead of saving
//!   one: rules that fold only to save one ask `single_use` first.
//!
//! A rule must still respect the producer's modifiers the view does not
//! carry (`def_flush_implied` for `.ftz`).

use super::LegalizeError;
use super::launch_abi;
use crate::ir::entity::{EntityRef, SecondaryMap};
use crate::ir::{Attrs, Block, DataType, Function, Guard, Inst, InstData, Layer, MulMode, Opcode, Round, SpecialReg, Type, Value};
use crate::target::Sm;
use smallvec::SmallVec;
/// Keys are entity indices and constants: a fast hasher.
type HashMap<K, V> = std::collections::HashMap<K, V, crate::fxhash::FxBuild>;

/// The ISLE `Unit` type.
pub(crate) type Unit = ();

/// An operand of an emitted instruction (ISLE `Src`): a value with its
/// source modifiers, which the instruction's attributes carry as one bit
/// per operand (`Attrs::neg`, `Attrs::abs`). `neg` is `-a`, or `~a` where
/// the machine reads the bit as a bitwise not (IADD3.X's operands).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Src {
    value: Value,
    neg: bool,
    abs: bool,
}

/// An operand list (ISLE `Args`): up to four operands, their values and
/// their source modifiers as masks (bit `k`: operand `k`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Args {
    vals: [Value; 4],
    len: u8,
    neg: u8,
    abs: u8,
}

impl Args {
    fn new(srcs: &[Src]) -> Args {
        let mut a = Args { vals: [Value::new(0); 4], len: 0, neg: 0, abs: 0 };
        for (k, (slot, s)) in a.vals.iter_mut().zip(srcs).enumerate() {
            *slot = s.value;
            a.len += 1;
            a.neg |= u8::from(s.neg) << k;
            a.abs |= u8::from(s.abs) << k;
        }
        a
    }
    fn as_slice(&self) -> &[Value] {
        &self.vals[..usize::from(self.len)]
    }
    /// `attrs` with the operands' modifiers added: a negation the
    /// attributes already carry (a contracted `fma`'s) and one of the
    /// operand cancel.
    fn modify(&self, attrs: Attrs) -> Attrs {
        Attrs { neg: attrs.neg ^ self.neg, abs: attrs.abs | self.abs, ..attrs }
    }
}

/// Two results of one instruction (ISLE `ValuePair`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValuePair(Value, Value);

/// The results of a legalized instruction (ISLE `Output`), in its result
/// order; `overflow` when a rule produced more than fit (reported as an
/// error, never truncated silently).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output {
    vals: [Value; 8],
    len: u8,
    overflow: bool,
}

impl Output {
    fn new(vals: &[Value]) -> Output {
        let mut o = Output { vals: [Value::new(0); 8], len: 0, overflow: vals.len() > 8 };
        for (slot, &v) in o.vals.iter_mut().zip(vals) {
            *slot = v;
            o.len += 1;
        }
        o
    }
    fn as_slice(&self) -> &[Value] {
        &self.vals[..usize::from(self.len)]
    }
}

/// An open slow path: its join block, the join's parameter, and the
/// constants made before the branch.
type OpenJoin = (Block, Value, HashMap<(Type, u64), Value>);

/// An open loop over the warp's texture or surface handles
/// ([`Legalizer::handle_loop_open`]).
struct HandleLoop {
    /// The header, entered with every lane pending.
    header: Block,
    /// The header's parameters after the pending flag: the access's
    /// results so far (the prior values of the guarded access).
    carried: SmallVec<[Value; 4]>,
    /// The access's results in the loop, once emitted.
    results: SmallVec<[Value; 4]>,
}

/// Which ISLE program a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Program {
    /// `legalize`: every PTX-layer instruction must match a rule.
    Early,
    /// `legalize_late`: pseudo operations must match a rule; everything
    /// else is copied.
    Late,
}

/// The state of one legalization run (the ISLE context).
pub(crate) struct Legalizer<'a> {
    src: &'a Function,
    sm: Sm,
    dst: Function,
    /// New value of each old value.
    map: SecondaryMap<Value, Option<Value>>,
    /// The instruction being legalized.
    cur: Inst,
    /// The block being filled.
    block: Block,
    /// Open loops of an expansion (innermost last): their headers.
    loops: Vec<Block>,
    /// An open loop over the warp's handles.
    handle_loop: Option<HandleLoop>,
    /// The expansion itself applied the instruction's guard (the loop
    /// over the handles starts with the lanes where it holds).
    guard_taken: bool,
    /// Instructions emitted for the current instruction, in order.
    emitted: Vec<Inst>,
    /// Constants already made in the current block.
    consts: HashMap<(Type, u64), Value>,
    /// A problem met while emitting (reported after the rule returns).
    problem: Option<String>,
    /// Open slow paths (innermost last): the join block, its parameter,
    /// and the constants known before the branch (the only ones that
    /// dominate the join).
    joins: Vec<OpenJoin>,
    /// For a value of the function being built, the unguarded
    /// single-result input instruction it is the result of (see the module
    /// documentation, "Producers").
    producer: SecondaryMap<Value, Option<Inst>>,
    /// Uses of each input value by the input function's instructions,
    /// counted on the first question (`single_use`).
    use_counts: Option<SecondaryMap<Value, u32>>,
}

impl<'a> Legalizer<'a> {
    fn new(src: &'a Function, sm: Sm) -> Legalizer<'a> {
        let dst = Function {
            name: src.name.clone(),
            kind: src.kind,
            params: src.params.clone(),
            returns: src.returns.clone(),
            bounds: src.bounds.clone(),
            local_bytes: src.local_bytes,
            ..Function::default()
        };
        // Legalization keeps most instructions and expands some: room for
        // half as many again saves growing the tables step by step.
        let mut dst = dst;
        dst.insts.reserve(src.insts.len() * 3 / 2);
        dst.values.reserve(src.values.len() * 3 / 2);
        dst.blocks.reserve(src.blocks.len() + 4);
        Legalizer {
            src,
            sm,
            dst,
            map: SecondaryMap::with_default(None),
            cur: Inst::new(0),
            block: Block::new(0),
            loops: Vec::new(),
            handle_loop: None,
            guard_taken: false,
            emitted: Vec::new(),
            consts: HashMap::default(),
            problem: None,
            joins: Vec::new(),
            producer: SecondaryMap::with_default(None),
            use_counts: None,
        }
    }

    /// Legalizes `src` for `sm` with one program.
    pub(crate) fn run(src: &'a Function, sm: Sm, program: Program) -> Result<Function, LegalizeError> {
        let mut cx = Legalizer::new(src, sm);
        // Same blocks (same indices), same parameters, same layout.
        for (b, data) in src.blocks.iter() {
            let nb = cx.dst.create_block();
            debug_assert_eq!(nb, b);
            for &p in &data.params {
                let np = cx.dst.append_block_param(nb, src.value_type(p));
                cx.map[p] = Some(np);
            }
        }
        cx.dst.layout = src.layout.clone();
        // Dominators before the blocks they dominate, so every value is
        // renamed before its uses; unreachable blocks last.
        let mut order = match src.entry() {
            Some(entry) => crate::ir::cfg::reverse_post_order(entry, src.blocks.len(), |b| src.successors(b).collect()),
            None => Vec::new(),
        };
        let mut seen = SecondaryMap::with_default(false);
        for &b in &order {
            seen[b] = true;
        }
        order.extend(src.layout.iter().copied().filter(|&b| !seen[b]));
        for b in order {
            cx.block = b;
            cx.consts.clear();
            for &inst in &src.blocks[b].insts {
                cx.legalize_inst(inst, program)?;
            }
        }
        // The PTX registers follow their values to the new ones.
        cx.dst.register_names = src.register_names.iter().filter_map(|r| Some(crate::ir::RegisterName { value: cx.renamed(r.value)?, ..r.clone() })).collect();
        Ok(cx.dst)
    }

    fn error(&self, inst: Inst, reason: impl Into<String>) -> LegalizeError {
        LegalizeError::new(self.src, inst, self.sm, reason)
    }

    /// The new value of an old one.
    fn renamed(&self, v: Value) -> Option<Value> {
        self.map[v]
    }

    fn legalize_inst(&mut self, inst: Inst, program: Program) -> Result<(), LegalizeError> {
        let data = &self.src.insts[inst];
        // Every operand must already have its new value.
        if let Some(v) = data.uses().find(|&v| self.renamed(v).is_none()) {
            return Err(self.error(inst, format!("operand {v} is used before it is defined")));
        }
        let rules_apply = match program {
            Program::Early => data.opcode.layer() == Layer::Ptx,
            Program::Late => matches!(data.opcode, Opcode::Idiv | Opcode::Irem | Opcode::Fdiv | Opcode::Frcp | Opcode::Fsqrt | Opcode::Drsq),
        };
        if !rules_apply {
            self.copy_inst(inst);
            return Ok(());
        }
        self.cur = inst;
        self.emitted.clear();
        self.problem = None;
        self.guard_taken = false;
        let out = match program {
            Program::Early => super::generated::legalize::constructor_lower(self, inst),
            Program::Late => super::generated::legalize_late::constructor_lower_late(self, inst),
        };
        if let Some(problem) = self.problem.take() {
            return Err(self.error(inst, problem));
        }
        if !self.joins.is_empty() || !self.loops.is_empty() || self.handle_loop.is_some() {
            self.joins.clear();
            self.loops.clear();
            self.handle_loop = None;
            return Err(self.error(inst, "the expansion left a slow path or a loop open"));
        }
        let Some(out) = out else {
            let what = if program == Program::Early { "no legalization rule" } else { "no late legalization rule" };
            return Err(self.error(inst, what));
        };
        let data = &self.src.insts[inst];
        let types_match = out.as_slice().len() == data.results.len()
            && out.as_slice().iter().zip(&data.results).all(|(&n, &o)| self.dst.value_type(n) == self.src.value_type(o));
        if out.overflow || !types_match {
            return Err(self.error(inst, "the legalization rule's results do not match the instruction's"));
        }
        let results: SmallVec<[Value; 4]> = match data.guard {
            Some(g) if !self.guard_taken => self.apply_guard(inst, g, out.as_slice()),
            _ => out.as_slice().iter().copied().collect(),
        };
        for (&old, &new) in self.src.insts[inst].results.iter().zip(&results) {
            self.map[old] = Some(new);
        }
        self.note_producer(inst);
        Ok(())
    }

    /// Copies an instruction that needs no legalization, renaming its
    /// values. A guarded pure shared instruction with a result wider than
    /// one register (a 64-bit constant or copy) is copied unguarded and
    /// merged with its prior values word by word: selection makes such
    /// values of several machine instructions, which one guard cannot
    /// cover.
    fn copy_inst(&mut self, inst: Inst) {
        let mut data = self.src.insts[inst].clone();
        for v in data.uses_mut() {
            *v = self.map[*v].unwrap_or(*v);
        }
        let wide = data.results.iter().any(|&r| self.src.value_type(r).regs() > 1);
        let result_types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
        let merge_instead = (wide && data.opcode.class() == crate::ir::Class::Pure) || selects_to_pseudo(&data, &result_types);
        if let Some(guard) = data.guard.filter(|_| merge_instead) {
            let prior: SmallVec<[Value; 1]> = std::mem::take(&mut data.prior);
            data.guard = None;
            let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
            let new = self.dst.create_inst(data, &types);
            self.dst.append_inst(self.block, new);
            self.dst.locs[new] = self.src.locs[inst];
            self.cur = inst;
            for (i, &old) in self.src.insts[inst].results.iter().enumerate() {
                let value = self.dst.insts[new].results[i];
                let merged = match prior.get(i) {
                    Some(&p) => self.merge(guard, value, p),
                    None => value,
                };
                self.map[old] = Some(merged);
            }
            return;
        }
        let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
        let new = self.dst.create_inst(data, &types);
        self.dst.append_inst(self.block, new);
        self.dst.locs[new] = self.src.locs[inst];
        for (i, &old) in self.src.insts[inst].results.iter().enumerate() {
            self.map[old] = Some(self.dst.insts[new].results[i]);
        }
        self.note_producer(inst);
    }

    /// Records input instruction `inst` as the producer of its renamed
    /// result when it has one result and no guard (a guarded result is a
    /// merge with the prior value). A value keeps the first producer
    /// recorded: a rule that returns an operand unchanged (a conversion
    /// to the same type) makes it the result of a second instruction, and
    /// either view is true of it.
    fn note_producer(&mut self, inst: Inst) {
        let data = &self.src.insts[inst];
        if let ([old], None) = (&data.results[..], data.guard) {
            if let Some(new) = self.map[*old] {
                if self.producer[new].is_none() {
                    self.producer[new] = Some(inst);
                }
            }
        }
    }

    /// The input instruction producing `v` (a value of the function being
    /// built), where a fold may use it (module documentation, "Producers").
    fn producer_of(&self, v: Value) -> Option<Inst> {
        self.producer[v]
    }

    /// Whether the input value behind `v` has exactly one use in the
    /// input function (its instructions in blocks: guards, prior values
    /// and branch arguments count).
    fn single_use(&mut self, v: Value) -> bool {
        let Some(p) = self.producer_of(v) else { return false };
        let [old] = self.src.insts[p].results[..] else { return false };
        let counts = self.use_counts.get_or_insert_with(|| {
            let mut counts = SecondaryMap::with_default(0u32);
            for &b in &self.src.layout {
                for &i in &self.src.blocks[b].insts {
                    for u in self.src.insts[i].uses() {
                        counts[u] += 1;
                    }
                }
            }
            counts
        });
        counts[old] == 1
    }

    /// Applies the guard of `inst` to its expansion (see the module
    /// documentation) and returns the values of its results.
    fn apply_guard(&mut self, inst: Inst, guard: Guard, out: &[Value]) -> SmallVec<[Value; 4]> {
        let guard = Guard { pred: self.map[guard.pred].unwrap_or(guard.pred), negated: guard.negated };
        let prior: SmallVec<[Value; 4]> = self.src.insts[inst].prior.iter().map(|&p| self.map[p].unwrap_or(p)).collect();
        let real: Vec<Inst> = self.emitted.iter().copied().filter(|&i| self.dst.insts[i].opcode != Opcode::Iconst).collect();
        // One instruction computing exactly the results: guard it.
        if let [only] = real[..] {
            let types: SmallVec<[Type; 4]> = out.iter().map(|&v| self.dst.value_type(v)).collect();
            if self.dst.insts[only].results[..] == *out && !selects_to_pseudo(&self.dst.insts[only], &types) {
                let data = &mut self.dst.insts[only];
                data.guard = Some(guard);
                data.prior = prior.iter().copied().collect();
                return out.iter().copied().collect();
            }
        }
        let mut results: SmallVec<[Value; 4]> = out.iter().copied().collect();
        let mut merged = vec![false; out.len()];
        for &i in &real {
            let opcode = self.dst.insts[i].opcode;
            // The branches of an expansion with a slow path stay unguarded:
            // both paths are pure and the results are merged below.
            if opcode.is_terminator() || (!opcode.has_side_effects() && opcode.class() != crate::ir::Class::Load) {
                continue;
            }
            let res: SmallVec<[Value; 1]> = self.dst.insts[i].results.clone();
            let mut inst_prior: SmallVec<[Value; 1]> = SmallVec::new();
            for &r in &res {
                let pos = out.iter().position(|&o| o == r);
                match pos {
                    Some(k) if !merged[k] => {
                        merged[k] = true;
                        inst_prior.push(prior[k]);
                    }
                    // An intermediate result: its value where the guard is
                    // false is never used (everything downstream is merged).
                    _ => inst_prior.push(self.zero_before(i, self.dst.value_type(r))),
                }
            }
            let data = &mut self.dst.insts[i];
            data.guard = Some(guard);
            data.prior = inst_prior;
        }
        for k in 0..out.len() {
            if !merged[k] {
                results[k] = self.merge(guard, out[k], prior[k]);
            }
        }
        results
    }

    /// A zero of type `ty` defined before instruction `before` of the
    /// current block.
    fn zero_before(&mut self, before: Inst, ty: Type) -> Value {
        let mut data = InstData::new(Opcode::Iconst, Attrs::default());
        data.imm = 0;
        let z = self.dst.create_inst(data, &[ty]);
        self.dst.locs[z] = self.src.locs[self.cur];
        let insts = &mut self.dst.blocks[self.block].insts;
        let at = insts.iter().position(|&i| i == before).unwrap_or(insts.len());
        insts.insert(at, z);
        self.dst.insts[z].results[0]
    }

    /// A constant of type `ty` (one per block and value).
    /// The current instruction's first argument, as legalized, cut to its
    /// low word when it is a register pair (a shared-window atomic's
    /// address, a texture handle: only the low word is read); `missing`
    /// is noted, and a zero stands in, when there is none.
    fn first_argument_low_word(&mut self, missing: &str) -> Value {
        let first = self.cur_data().args.first().map(|&v| self.map[v].unwrap_or(v));
        match first {
            Some(v) if self.dst.value_type(v).regs() == 2 => self.push(Opcode::Extract, Attrs::default(), &[v], 0, &[Type::R32])[0],
            Some(v) => v,
            None => {
                self.note_problem(missing);
                self.constant(Type::R32, 0)
            }
        }
    }

    fn constant(&mut self, ty: Type, bits: u64) -> Value {
        if let Some(&v) = self.consts.get(&(ty, bits)) {
            return v;
        }
        let v = self.push(Opcode::Iconst, Attrs::default(), &[], bits, &[ty])[0];
        self.consts.insert((ty, bits), v);
        v
    }

    /// `guard ? new : prior`, word by word.
    fn merge(&mut self, guard: Guard, new: Value, prior: Value) -> Value {
        let (t, f) = if guard.negated { (prior, new) } else { (new, prior) };
        let ty = self.dst.value_type(new);
        if ty.file().is_predicate() {
            // (g & t) | (!g & f) with a = g, b = t, c = f.
            return self.push(Opcode::Plop3, Attrs::default(), &[guard.pred, t, f], 0xca, &[Type::P])[0];
        }
        let words = u64::from(ty.regs());
        if words == 1 {
            return self.push(Opcode::Sel, Attrs::default(), &[t, f, guard.pred], 0, &[Type::R32])[0];
        }
        let mut parts: SmallVec<[Value; 4]> = SmallVec::new();
        for w in 0..words {
            let tw = self.push(Opcode::Extract, Attrs::default(), &[t], w, &[Type::R32])[0];
            let fw = self.push(Opcode::Extract, Attrs::default(), &[f], w, &[Type::R32])[0];
            parts.push(self.push(Opcode::Sel, Attrs::default(), &[tw, fw, guard.pred], 0, &[Type::R32])[0]);
        }
        self.push(Opcode::Concat, Attrs::default(), &parts, 0, &[ty])[0]
    }

    /// Appends a new instruction to the current block.
    fn push(&mut self, opcode: Opcode, attrs: Attrs, args: &[Value], imm: u64, types: &[Type]) -> SmallVec<[Value; 1]> {
        let mut data = InstData::new(opcode, attrs);
        data.args.extend_from_slice(args);
        data.imm = imm;
        let inst = self.dst.create_inst(data, types);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.dst.insts[inst].results.clone()
    }

    /// Ends the current block with `brif cond, slow, join(fast)` and
    /// continues in the new slow-path block; [`Legalizer::slow_path_end`]
    /// closes it. The new blocks follow the current one in the layout.
    fn slow_path_begin(&mut self, cond: Value, fast: Value) {
        let ty = self.dst.value_type(fast);
        let slow = self.dst.create_block();
        let join = self.dst.create_block();
        let param = self.dst.append_block_param(join, ty);
        let at = self.dst.layout.iter().position(|&b| b == self.block).map_or(self.dst.layout.len(), |p| p + 1);
        self.dst.layout.insert(at, slow);
        self.dst.layout.insert(at + 1, join);
        let mut data = InstData::new(Opcode::Brif, Attrs::default());
        data.args.push(cond);
        data.dests.push(crate::ir::BlockCall { block: slow, args: SmallVec::new() });
        data.dests.push(crate::ir::BlockCall { block: join, args: [fast].into_iter().collect() });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.joins.push((join, param, self.consts.clone()));
        self.block = slow;
    }

    /// Ends the innermost slow path, passing `value` to its join block,
    /// and continues in the join: returns the join's parameter (the fast
    /// or the slow value).
    fn slow_path_end(&mut self, value: Value) -> Value {
        let Some((join, param, consts)) = self.joins.pop() else {
            self.note_problem("a slow path ends that did not begin");
            return value;
        };
        if self.dst.value_type(value) != self.dst.value_type(param) {
            self.note_problem("the slow path's value has another type than the fast path's");
        }
        let mut data = InstData::new(Opcode::Jump, Attrs::default());
        data.dests.push(crate::ir::BlockCall { block: join, args: [value].into_iter().collect() });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.block = join;
        self.consts = consts;
        param
    }

    /// Ends the current block with a jump to a new loop header whose
    /// parameter starts as `init`, and continues in the header: returns
    /// the parameter. [`Legalizer::loop_end`] closes the loop.
    fn loop_begin(&mut self, init: Value) -> Value {
        self.loop_open(Some(init)).unwrap_or(init)
    }

    /// Ends the innermost loop: when `done` holds, continues after it with
    /// `result`, else runs the header again with `again`. Returns the
    /// value after the loop (a parameter of the new exit block).
    fn loop_end(&mut self, done: Value, again: Value, result: Value) -> Value {
        self.loop_close(done, Some((again, result))).unwrap_or(result)
    }

    /// A loop header after the current block, entered by a jump (passing
    /// `init` to its one parameter, where the loop carries a value).
    fn loop_open(&mut self, init: Option<Value>) -> Option<Value> {
        if self.cur_data().guard.is_some() {
            self.note_problem("a guarded instruction whose expansion loops (branch around it instead)");
        }
        let header = self.dst.create_block();
        let param = init.map(|v| self.dst.append_block_param(header, self.dst.value_type(v)));
        let at = self.dst.layout.iter().position(|&b| b == self.block).map_or(self.dst.layout.len(), |p| p + 1);
        self.dst.layout.insert(at, header);
        let mut data = InstData::new(Opcode::Jump, Attrs::default());
        data.dests.push(crate::ir::BlockCall { block: header, args: init.into_iter().collect() });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.loops.push(header);
        self.block = header;
        param
    }

    /// Closes the innermost loop with a branch on `done` to a new exit
    /// block (passing the carried value's `result`) or back to the header
    /// (passing `again`).
    fn loop_close(&mut self, done: Value, carried: Option<(Value, Value)>) -> Option<Value> {
        let Some(header) = self.loops.pop() else {
            self.note_problem("a loop ends that did not begin");
            return None;
        };
        let exit = self.dst.create_block();
        let param = carried.map(|(_, result)| self.dst.append_block_param(exit, self.dst.value_type(result)));
        let at = self.dst.layout.iter().position(|&b| b == self.block).map_or(self.dst.layout.len(), |p| p + 1);
        self.dst.layout.insert(at, exit);
        let mut data = InstData::new(Opcode::Brif, Attrs::default());
        data.args.push(done);
        data.dests.push(crate::ir::BlockCall { block: exit, args: carried.map(|(_, r)| r).into_iter().collect() });
        data.dests.push(crate::ir::BlockCall { block: header, args: carried.map(|(a, _)| a).into_iter().collect() });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.block = exit;
        param
    }

    fn cur_data(&self) -> &InstData {
        &self.src.insts[self.cur]
    }

    fn note_problem(&mut self, problem: impl Into<String>) {
        if self.problem.is_none() {
            self.problem = Some(problem.into());
        }
    }
}

/// The ISLE kind of an operation type.
macro_rules! kind_of {
    ($ty:expr) => {{
        use crate::ir::DataType as D;
        match $ty {
            None => Kind::Untyped,
            Some(D::Pred) => Kind::Pred,
            Some(D::B8) => Kind::Int { bits: 8, sign: Sign::Bits },
            Some(D::U8) => Kind::Int { bits: 8, sign: Sign::Unsigned },
            Some(D::S8) => Kind::Int { bits: 8, sign: Sign::Signed },
            Some(D::B16) => Kind::Int { bits: 16, sign: Sign::Bits },
            Some(D::U16) => Kind::Int { bits: 16, sign: Sign::Unsigned },
            Some(D::S16) => Kind::Int { bits: 16, sign: Sign::Signed },
            Some(D::B32) => Kind::Int { bits: 32, sign: Sign::Bits },
            Some(D::U32) => Kind::Int { bits: 32, sign: Sign::Unsigned },
            Some(D::S32) => Kind::Int { bits: 32, sign: Sign::Signed },
            Some(D::B64) => Kind::Long { sign: Sign::Bits },
            Some(D::U64) => Kind::Long { sign: Sign::Unsigned },
            Some(D::S64) => Kind::Long { sign: Sign::Signed },
            Some(D::B128) => Kind::Quad,
            Some(D::U16x2) => Kind::Lanes16 { sign: Sign::Unsigned },
            Some(D::S16x2) => Kind::Lanes16 { sign: Sign::Signed },
            // fp8 pairs are only converted (rules name their types).
            Some(D::F16 | D::F16x2 | D::Bf16 | D::Bf16x2 | D::E4m3x2 | D::E5m2x2) => Kind::Half,
            Some(D::F32 | D::Tf32) => Kind::F32,
            Some(D::F32x2) => Kind::F32x2,
            Some(D::F64) => Kind::F64,
        }
    }};
}

/// The body of the ISLE `Context` trait shared by the programs that emit
/// Ori (prelude.isle + emit_ori.isle). Each generated module has its own
/// trait and its own `InstView`/`Kind`/`Sign` enums, so the body is
/// expanded once per program, where those names are in scope.
macro_rules! ori_context_body {
    () => {
        fn inst_view(&mut self, inst: Inst) -> InstView {
            let data = &self.src.insts[inst];
            let a = &data.attrs;
            let args: SmallVec<[Value; 4]> = data.args.iter().map(|&v| self.map[v].unwrap_or(v)).collect();
            let op = data.opcode;
            match (op, &args[..]) {
                (Opcode::Setp | Opcode::Set, [x, y, rest @ ..]) if rest.len() <= 1 => {
                    let Some(cmp) = a.cmp else { return InstView::Other { op } };
                    let (dst, kind) = if op == Opcode::Setp { (Kind::Pred, kind_of!(a.ty)) } else { (kind_of!(a.ty), kind_of!(a.src_ty)) };
                    let (combine, c) = match rest {
                        [c] => (a.combine.unwrap_or(crate::ir::BoolOp::And), *c),
                        _ => (crate::ir::BoolOp::And, self.iconst(Type::P, 1)),
                    };
                    InstView::Compare { op, dst, kind, cmp, a: *x, b: *y, combine, c }
                }
                (Opcode::Cvt, [x]) => InstView::Convert { op, dst: kind_of!(a.ty), src: kind_of!(a.src_ty), sat: a.sat, a: *x },
                (Opcode::Ld | Opcode::St | Opcode::Atom | Opcode::Red, _) => InstView::Memory {
                    op,
                    space: a.space.unwrap_or(crate::ir::Space::Generic),
                    kind: kind_of!(a.ty),
                    addressed: !args.is_empty(),
                },
                (_, []) => InstView::Nullary { op, kind: kind_of!(a.ty) },
                (_, [x]) => InstView::Unary { op, kind: kind_of!(a.ty), a: *x },
                (_, [x, y]) => InstView::Binary { op, kind: kind_of!(a.ty), a: *x, b: *y },
                (_, [x, y, z]) => InstView::Ternary { op, kind: kind_of!(a.ty), a: *x, b: *y, c: *z },
                (_, [x, y, z, w]) => InstView::Quaternary { op, kind: kind_of!(a.ty), a: *x, b: *y, c: *z, d: *w },
                _ => InstView::Other { op },
            }
        }
        fn def_inst(&mut self, v: Value) -> Option<InstView> {
            let p = self.producer_of(v)?;
            Some(self.inst_view(p))
        }
        fn single_use(&mut self, v: Value) -> Option<Unit> {
            Legalizer::single_use(self, v).then_some(())
        }
        fn def_flush_implied(&mut self, v: Value) -> Option<Unit> {
            let p = self.producer_of(v)?;
            (!self.src.insts[p].attrs.ftz || self.cur_data().attrs.ftz).then_some(())
        }
        fn goes_first(&mut self, a: Value, b: Value) -> Option<Unit> {
            // Values of the function being built are numbered as they are
            // defined, in layout order.
            let constant = |s: &Self, v: Value| s.dst.value_inst(v).is_some_and(|i| s.dst.insts[i].opcode == Opcode::Iconst);
            match (constant(self, a), constant(self, b)) {
                (false, true) => Some(()),
                (true, false) => None,
                _ => (a.index() < b.index()).then_some(()),
            }
        }
        fn inst_attrs(&mut self) -> Attrs {
            self.cur_data().attrs
        }
        fn inst_ty(&mut self) -> DataType {
            self.cur_data().attrs.ty.unwrap_or(DataType::B32)
        }
        fn inst_src_ty(&mut self) -> DataType {
            self.cur_data().attrs.src_ty.unwrap_or(DataType::B32)
        }
        fn inst_mul(&mut self) -> MulMode {
            self.cur_data().attrs.mul.unwrap_or(MulMode::Lo)
        }
        fn inst_round(&mut self) -> Round {
            self.cur_data().attrs.round.unwrap_or(Round::Rn)
        }
        fn inst_sreg(&mut self) -> SpecialReg {
            self.cur_data().attrs.sreg.unwrap_or(SpecialReg::TidX)
        }
        fn converged(&mut self) -> Option<Unit> {
            let entry = self.src.entry() == Some(self.block) && self.joins.is_empty();
            // A callee may branch on per-thread values and return from
            // different paths at different times (callees get no BSSY/BSYNC
            // around their divergent code), so after a call the warp is not
            // known to be converged.
            let after_call = || {
                let insts = &self.src.blocks[self.block].insts;
                insts.iter().take_while(|&&i| i != self.cur).any(|&i| matches!(self.src.insts[i].opcode, Opcode::Call | Opcode::CallIndirect))
            };
            (entry && self.src.kind == Some(crate::ir::FunctionKind::Kernel) && self.cur_data().guard.is_none() && !after_call()).then_some(())
        }
        fn atomic_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { ty: s.ty, red: s.red, scope: s.scope, ..Attrs::default() }
        }
        fn inst_warp(&mut self) -> crate::ir::WarpMode {
            self.cur_data().attrs.warp.unwrap_or(crate::ir::WarpMode::Idx)
        }
        fn inst_red(&mut self) -> crate::ir::RedOp {
            self.cur_data().attrs.red.unwrap_or(crate::ir::RedOp::Add)
        }
        fn inst_order(&mut self) -> crate::ir::MemOrder {
            self.cur_data().attrs.order.unwrap_or(crate::ir::MemOrder::Relaxed)
        }
        fn inst_scope(&mut self) -> crate::ir::MemScope {
            self.cur_data().attrs.scope.unwrap_or(crate::ir::MemScope::Gpu)
        }
        fn inst_space(&mut self) -> crate::ir::Space {
            self.cur_data().attrs.space.unwrap_or(crate::ir::Space::Generic)
        }
        fn inst_approx(&mut self) -> Option<Unit> {
            self.cur_data().attrs.approx.then_some(())
        }
        fn inst_full(&mut self) -> Option<Unit> {
            self.cur_data().attrs.full.then_some(())
        }
        fn inst_sat(&mut self) -> Option<Unit> {
            self.cur_data().attrs.sat.then_some(())
        }
        fn inst_to(&mut self) -> Option<Unit> {
            self.cur_data().attrs.to.then_some(())
        }
        fn sm_at_least(&mut self, n: u32) -> Option<Unit> {
            (u32::from(self.sm.number) >= n).then_some(())
        }
        fn sm_below(&mut self, n: u32) -> Option<Unit> {
            (u32::from(self.sm.number) < n).then_some(())
        }
        fn mma_native(&mut self) -> Option<Unit> {
            crate::ir::matrix::Mma::decode(self.cur_data().imm).filter(|m| m.native_on(self.sm.number)).map(|_| ())
        }
        fn unit(&mut self) -> Unit {}
        fn is_kernel(&mut self) -> Option<Unit> {
            (self.src.kind == Some(crate::ir::FunctionKind::Kernel)).then_some(())
        }
        fn sr_number(&mut self, r: &SpecialReg) -> Option<u64> {
            launch_abi::sr_number(*r, self.sm).map(u64::from)
        }
        fn sreg_cbank_offset(&mut self, r: &SpecialReg) -> Option<u32> {
            launch_abi::sreg_cbank_offset(*r, self.sm)
        }
        fn cbank(&mut self, bank: u32, offset: u32, ty: Type) -> Value {
            let ty_attr = if ty.regs() == 2 { DataType::U64 } else { DataType::U32 };
            let v = self.push(Opcode::Ldc, Attrs::typed(ty_attr), &[], u64::from(bank), &[ty])[0];
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = i32::try_from(offset).unwrap_or(i32::MAX);
            v
        }
        fn cbank_indexed(&mut self, bank: u32, index: Value, offset: u32) -> Value {
            let v = self.push(Opcode::Ldc, Attrs::typed(DataType::U32), &[index], u64::from(bank), &[Type::R32])[0];
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = i32::try_from(offset).unwrap_or(i32::MAX);
            v
        }
        fn cluster_table_stride(&mut self) -> u64 {
            u64::from(launch_abi::CLUSTER_TABLE_NCTARANK.0 as u32)
        }
        fn cluster_table_nctarank(&mut self) -> u32 {
            launch_abi::CLUSTER_TABLE_NCTARANK.1
        }
        fn cluster_shape_offset(&mut self, r: &SpecialReg) -> Option<u32> {
            launch_abi::cluster_shape_offset(*r, self.sm)
        }
        fn dynamic_smem_size_offset(&mut self) -> u32 {
            launch_abi::dynamic_smem_size_offset(self.sm)
        }
        fn reserved_smem_offset(&mut self) -> Option<u32> {
            launch_abi::reserved_smem_offset(self.sm)
        }
        fn envreg_offset(&mut self, n: u64) -> Option<u32> {
            launch_abi::envreg_offset(u8::try_from(n).ok()?, self.sm)
        }
        fn envreg_table_offset(&mut self, n: u64) -> Option<u32> {
            launch_abi::envreg_table_offset(u8::try_from(n).ok()?, self.sm)
        }
        fn perf_counter_number(&mut self, n: u64) -> Option<u64> {
            launch_abi::perf_counter_number(u8::try_from(n).ok()?, self.sm).map(u64::from)
        }
        fn param_base(&mut self) -> u32 {
            launch_abi::param_base(self.sm)
        }
        fn args0(&mut self) -> Args {
            Args::new(&[])
        }
        fn args1(&mut self, a: Src) -> Args {
            Args::new(&[a])
        }
        fn args2(&mut self, a: Src, b: Src) -> Args {
            Args::new(&[a, b])
        }
        fn args3(&mut self, a: Src, b: Src, c: Src) -> Args {
            Args::new(&[a, b, c])
        }
        fn args4(&mut self, a: Src, b: Src, c: Src, d: Src) -> Args {
            Args::new(&[a, b, c, d])
        }
        fn src_plain(&mut self, value: Value) -> Src {
            Src { value, neg: false, abs: false }
        }
        fn src_neg(&mut self, s: Src) -> Src {
            Src { neg: !s.neg, ..s }
        }
        fn src_abs(&mut self, s: Src) -> Src {
            Src { abs: true, ..s }
        }
        fn pair_0(&mut self, p: ValuePair) -> Value {
            p.0
        }
        fn pair_1(&mut self, p: ValuePair) -> Value {
            p.1
        }
        fn out(&mut self, v: Value) -> Output {
            Output::new(&[v])
        }
        fn out_none(&mut self) -> Output {
            Output::new(&[])
        }
        fn emit(&mut self, op: &Opcode, attrs: Attrs, args: Args, imm: u64, ty: Type) -> Value {
            self.push(*op, args.modify(attrs), args.as_slice(), imm, &[ty])[0]
        }
        fn emit0_imm(&mut self, op: &Opcode, attrs: Attrs, args: Args, imm: u64) -> Unit {
            self.push(*op, args.modify(attrs), args.as_slice(), imm, &[]);
        }
        fn const_u32(&mut self, v: Value) -> Option<u64> {
            let inst = self.dst.value_inst(v)?;
            let d = &self.dst.insts[inst];
            (d.opcode == Opcode::Iconst && d.guard.is_none() && d.imm <= u64::from(u32::MAX)).then_some(d.imm)
        }
        fn reduction_attrs(&mut self) -> Attrs {
            Attrs { red: self.cur_data().attrs.red, ..Attrs::default() }
        }
        fn emit0(&mut self, op: &Opcode, attrs: Attrs, args: Args) -> Unit {
            self.push(*op, args.modify(attrs), args.as_slice(), 0, &[]);
        }
        fn reemit_with(&mut self, op: &Opcode, attrs: Attrs, args: Args) -> Output {
            let data = self.cur_data();
            let offset = data.offset;
            let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
            let results = self.push(*op, args.modify(attrs), args.as_slice(), 0, &types);
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = offset;
            Output::new(&results)
        }
        fn copy_to(&mut self, ty: Type, v: Value) -> Value {
            self.push(Opcode::Copy, Attrs::default(), &[v], 0, &[ty])[0]
        }
        fn emit2(&mut self, op: &Opcode, attrs: Attrs, args: Args, imm: u64, ty0: Type, ty1: Type) -> ValuePair {
            let r = self.push(*op, args.modify(attrs), args.as_slice(), imm, &[ty0, ty1]);
            ValuePair(r[0], r[1])
        }
        fn reemit(&mut self, op: &Opcode, attrs: Attrs, imm: u64, delta: u32) -> Output {
            let data = self.cur_data();
            let offset = i64::from(data.offset) + i64::from(delta);
            let Ok(offset) = i32::try_from(offset) else {
                self.note_problem("the offset does not fit 32 bits");
                return Output::new(&[]);
            };
            let mut args: SmallVec<[Value; 4]> = data.args.iter().map(|&v| self.map[v].unwrap_or(v)).collect();
            let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
            // Shared, local and constant-bank accesses take 32-bit
            // addresses: the low word of a 64-bit one (the window offset).
            let narrow = matches!(*op, Opcode::Lds | Opcode::Sts | Opcode::Ldl | Opcode::Stl | Opcode::Ldc | Opcode::AtomShared | Opcode::MatrixLoad | Opcode::MatrixStore | Opcode::AsyncCopy);
            if let Some(addr) = args.first_mut().filter(|a| narrow && self.dst.value_type(**a).regs() == 2) {
                *addr = self.push(Opcode::Extract, Attrs::default(), &[*addr], 0, &[Type::R32])[0];
            }
            if types.len() > 8 {
                self.note_problem("more than eight results");
            }
            let results = self.push(*op, attrs, &args, imm, &types);
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = offset;
            Output::new(&results)
        }
        fn iconst(&mut self, ty: Type, bits: u64) -> Value {
            self.constant(ty, bits)
        }
        fn attrs_none(&mut self) -> Attrs {
            Attrs::default()
        }
        fn with_ty(&mut self, a: Attrs, t: &DataType) -> Attrs {
            Attrs { ty: Some(*t), ..a }
        }
        fn with_src_ty(&mut self, a: Attrs, t: &DataType) -> Attrs {
            Attrs { src_ty: Some(*t), ..a }
        }
        fn with_cmp(&mut self, a: Attrs, c: &crate::ir::Cmp) -> Attrs {
            Attrs { cmp: Some(*c), ..a }
        }
        fn with_combine(&mut self, a: Attrs, c: &crate::ir::BoolOp) -> Attrs {
            Attrs { combine: Some(*c), ..a }
        }
        fn with_mul(&mut self, a: Attrs, m: &MulMode) -> Attrs {
            Attrs { mul: Some(*m), ..a }
        }
        fn with_mufu(&mut self, a: Attrs, f: &crate::ir::MufuFunc) -> Attrs {
            Attrs { mufu: Some(*f), ..a }
        }
        fn with_round(&mut self, a: Attrs, r: &Round) -> Attrs {
            Attrs { round: Some(*r), ..a }
        }
        fn with_x(&mut self, a: Attrs) -> Attrs {
            Attrs { x: true, ..a }
        }
        fn with_left(&mut self, a: Attrs) -> Attrs {
            Attrs { left: true, ..a }
        }
        fn with_space(&mut self, a: Attrs, space: &crate::ir::Space) -> Attrs {
            Attrs { space: Some(*space), ..a }
        }
        fn with_ftz(&mut self, a: Attrs) -> Attrs {
            Attrs { ftz: true, ..a }
        }
        fn relu_of_inst(&mut self, a: Attrs) -> Attrs {
            Attrs { relu: self.cur_data().attrs.relu, ..a }
        }
        fn with_red(&mut self, a: Attrs, r: &crate::ir::RedOp) -> Attrs {
            Attrs { red: Some(*r), ..a }
        }
        fn with_wrap(&mut self, a: Attrs) -> Attrs {
            Attrs { wrap: true, ..a }
        }
        fn with_shiftamt(&mut self, a: Attrs) -> Attrs {
            Attrs { shiftamt: true, ..a }
        }
        fn with_sreg(&mut self, a: Attrs, r: &SpecialReg) -> Attrs {
            Attrs { sreg: Some(*r), ..a }
        }
        fn fp_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { round: Some(s.round.unwrap_or(Round::Rn)), ftz: s.ftz, sat: s.sat, ..Attrs::default() }
        }
        fn fma_attrs(&mut self) -> Attrs {
            let neg = self.cur_data().attrs.neg;
            Attrs { neg, ..self.fp_attrs() }
        }
        fn mem_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { ty: s.ty, vector: s.vector, volatile: s.volatile, order: s.order, scope: s.scope, ..Attrs::default() }
        }
        fn cmp_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { ftz: s.ftz, negated: s.negated, ..Attrs::default() }
        }
        fn value_type(&mut self, v: Value) -> Type {
            self.dst.value_type(v)
        }
        fn inst_ftz(&mut self) -> Option<Unit> {
            self.cur_data().attrs.ftz.then_some(())
        }
        fn inst_relu(&mut self) -> Option<Unit> {
            self.cur_data().attrs.relu.then_some(())
        }
        fn emit_if(&mut self, p: Value, negated: bool, prior: Value, op: &Opcode, attrs: Attrs, args: Args, imm: u64) -> Value {
            let ty = self.dst.value_type(prior);
            let r = self.push(*op, args.modify(attrs), args.as_slice(), imm, &[ty])[0];
            let last = *self.emitted.last().unwrap_or(&self.cur);
            let data = &mut self.dst.insts[last];
            data.guard = Some(Guard { pred: p, negated });
            data.prior = [prior].into_iter().collect();
            r
        }
        fn loop_begin(&mut self, init: Value) -> Value {
            self.loop_begin(init)
        }
        fn loop_end(&mut self, done: Value, again: Value, result: Value) -> Value {
            self.loop_end(done, again, result)
        }
        fn loop_enter(&mut self) -> Unit {
            self.loop_open(None);
        }
        fn loop_until(&mut self, done: Value) -> Unit {
            self.loop_close(done, None);
        }
        fn half_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { ty: s.ty, ftz: s.ftz, sat: s.sat, ..Attrs::default() }
        }
        fn half_fma_attrs(&mut self) -> Attrs {
            let (neg, relu) = (self.cur_data().attrs.neg, self.cur_data().attrs.relu);
            Attrs { neg, relu, ..self.half_attrs() }
        }
        fn is_pair(&mut self, ty: Type) -> bool {
            ty.regs() == 2
        }
        fn with_cas(&mut self, a: Attrs) -> Attrs {
            Attrs { red: Some(crate::ir::RedOp::Cas), ..a }
        }
        fn atom_address(&mut self) -> Value {
            self.first_argument_low_word("an atomic without an address")
        }
        fn atom_data(&mut self) -> Value {
            let data = self.cur_data();
            match data.args.get(1).map(|&v| self.map[v].unwrap_or(v)) {
                Some(v) => v,
                None => {
                    self.note_problem("an atomic without data");
                    self.iconst(Type::R32, 0)
                }
            }
        }
        fn emit_at_offset(&mut self, op: &Opcode, attrs: Attrs, args: Args, ty: Type) -> Value {
            let offset = self.cur_data().offset;
            let v = self.push(*op, args.modify(attrs), args.as_slice(), 0, &[ty])[0];
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = offset;
            v
        }
        fn slow_begin(&mut self, cond: Value, fast: Value) -> Unit {
            self.slow_path_begin(cond, fast)
        }
        fn slow_end(&mut self, v: Value) -> Value {
            self.slow_path_end(v)
        }
        fn inst_class(&mut self) -> Option<crate::ir::FpClass> {
            self.cur_data().attrs.class
        }
        fn minmax_attrs(&mut self) -> Attrs {
            let s = self.cur_data().attrs;
            Attrs { ftz: s.ftz, nan: s.nan, xorsign: s.xorsign, abs: s.abs, ..Attrs::default() }
        }
        fn with_sat(&mut self, a: Attrs) -> Attrs {
            Attrs { sat: true, ..a }
        }
        fn inst_nan(&mut self) -> Option<Unit> {
            self.cur_data().attrs.nan.then_some(())
        }
        fn inst_xorsign(&mut self) -> Option<Unit> {
            self.cur_data().attrs.xorsign.then_some(())
        }
    };
}

mod early {
    use super::*;
    use crate::legalize::generated::legalize::{Context, InstView, Kind, Sign};
    impl Context for Legalizer<'_> {
        ori_context_body!();

        // ---- the terms `isle/legalize.isle` declares itself: those of the
        // integer, bit and carry rules, the local window, and vector
        // accesses split in halves ----
        fn handle_in_registers(&mut self) -> Option<Opcode> {
            Legalizer::handle_in_registers(self)
        }
        fn handle_word(&mut self) -> Value {
            self.first_argument_low_word("a texture or surface instruction without a handle")
        }
        fn handle_loop_open(&mut self) -> Value {
            Legalizer::handle_loop_open(self)
        }
        fn reemit_handled(&mut self, op: &Opcode, picked: Value, differ: Value) -> Unit {
            Legalizer::reemit_handled(self, *op, picked, differ)
        }
        fn handle_loop_close(&mut self, pending: Value) -> Output {
            Legalizer::handle_loop_close(self, pending)
        }
        fn const_of(&mut self, v: Value) -> Option<u64> {
            let i = self.dst.value_inst(v)?;
            let d = &self.dst.insts[i];
            (d.opcode == Opcode::Iconst && d.guard.is_none()).then_some(d.imm)
        }
        fn inst_imm(&mut self) -> u64 {
            self.cur_data().imm
        }
        fn low_byte(&mut self, x: u64) -> u64 {
            x & 0xff
        }
        fn field_mask(&mut self, pos: u64, len: u64) -> u64 {
            field_mask(pos, len)
        }
        fn out2(&mut self, a: Value, b: Value) -> Output {
            Output::new(&[a, b])
        }
        fn inst_carries(&mut self) -> bool {
            self.cur_data().results.len() == 2
        }
        fn inst_wrap(&mut self) -> bool {
            self.cur_data().attrs.wrap
        }
        fn inst_shiftamt(&mut self) -> bool {
            self.cur_data().attrs.shiftamt
        }
        fn inst_sat_bool(&mut self) -> bool {
            self.cur_data().attrs.sat
        }
        fn inst_left(&mut self) -> bool {
            self.cur_data().attrs.left
        }
        fn inst_to_bool(&mut self) -> bool {
            self.cur_data().attrs.to
        }
        fn narrower(&mut self, a: u32, b: u32) -> bool {
            a < b
        }
        fn int_max(&mut self, bits: u32, s: &Sign) -> u64 {
            int_bound(bits, *s == Sign::Signed, true)
        }
        fn int_min(&mut self, bits: u32, s: &Sign) -> u64 {
            int_bound(bits, *s == Sign::Signed, false)
        }
        fn local_window(&mut self) -> u32 {
            launch_abi::local_window(self.sm)
        }
        fn const_window(&mut self) -> u32 {
            launch_abi::const_window(self.sm)
        }
        fn param_window_first(&mut self) -> Option<u32> {
            match launch_abi::param_window(self.sm) {
                launch_abi::ParamWindow::Bounds { first, .. } => Some(first),
                launch_abi::ParamWindow::BankRelative { .. } => None,
            }
        }
        fn param_window_bank(&mut self) -> Option<u32> {
            match launch_abi::param_window(self.sm) {
                launch_abi::ParamWindow::BankRelative { bank, .. } => Some(bank),
                launch_abi::ParamWindow::Bounds { .. } => None,
            }
        }
        fn param_window_last(&mut self) -> u32 {
            match launch_abi::param_window(self.sm) {
                launch_abi::ParamWindow::BankRelative { last_offset: last, .. } | launch_abi::ParamWindow::Bounds { last, .. } => last,
            }
        }
        fn u32_as_u64(&mut self, x: u32) -> u64 {
            u64::from(x)
        }
        fn wider_than_128(&mut self) -> bool {
            let a = self.cur_data().attrs;
            a.ty.is_some_and(|t| t.bits() * u32::from(a.vector.max(1)) > 128)
        }
        fn reemit_halves(&mut self, op: &Opcode, attrs: Attrs) -> Output {
            self.reemit_halves(*op, attrs)
        }
    }
}

/// The mask of `len` bits from bit `pos` of a 32-bit word, clamped as
/// BMSK clamps (`bfi` with constant operands).
fn field_mask(pos: u64, len: u64) -> u64 {
    let ones = if len >= 32 { u64::from(u32::MAX) } else { (1u64 << len) - 1 };
    if pos >= 32 { 0 } else { (ones << pos) & u64::from(u32::MAX) }
}

/// The largest (`max`) or smallest value of a `bits`-bit integer, as the
/// bits of a 32-bit word.
fn int_bound(bits: u32, signed: bool, max: bool) -> u64 {
    let bits = bits.clamp(1, 32);
    let v: i64 = match (signed, max) {
        (true, true) => (1i64 << (bits - 1)) - 1,
        (true, false) => -(1i64 << (bits - 1)),
        (false, true) => (1i64 << bits) - 1,
        (false, false) => 0,
    };
    (v as u64) & u64::from(u32::MAX)
}

impl Legalizer<'_> {
    /// The current load or store as two of half its vector width (`.v8`
    /// and other accesses of more than 128 bits): the second at the offset
    /// plus half the bytes, each taking half the results or stored values.
    fn reemit_halves(&mut self, op: Opcode, attrs: Attrs) -> Output {
        let data = self.cur_data().clone();
        let n = usize::from(data.attrs.vector);
        let elem_bytes = data.attrs.ty.map_or(4, |t| t.bits().div_ceil(8)) as i64;
        if n < 2 || n % 2 != 0 {
            self.note_problem("a vector access that does not split in halves");
            return Output::new(&[]);
        }
        let half = n / 2;
        let args: SmallVec<[Value; 9]> = data.args.iter().map(|&v| self.map[v].unwrap_or(v)).collect();
        let types: SmallVec<[Type; 8]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
        let store = !data.args.is_empty() && data.results.is_empty();
        let attrs = Attrs { vector: half as u8, ..attrs };
        let mut results: SmallVec<[Value; 8]> = SmallVec::new();
        for k in 0..2 {
            let Ok(offset) = i32::try_from(i64::from(data.offset) + k as i64 * half as i64 * elem_bytes) else {
                self.note_problem("the offset does not fit 32 bits");
                return Output::new(&[]);
            };
            let mut a: SmallVec<[Value; 5]> = SmallVec::new();
            a.extend(args.first().copied());
            if store {
                a.extend(args.iter().skip(1 + k * half).take(half).copied());
            }
            let tys: SmallVec<[Type; 4]> = if store { SmallVec::new() } else { types.iter().skip(k * half).take(half).copied().collect() };
            let r = self.push(op, attrs, &a, 0, &tys);
            let last = *self.emitted.last().unwrap_or(&self.cur);
            self.dst.insts[last].offset = offset;
            results.extend(r);
        }
        if results.len() > 8 {
            self.note_problem("more than eight results");
        }
        Output::new(&results)
    }
}

/// The loop over the warp's distinct texture and surface handles (sm_90
/// on: the instructions read a handle from a uniform register, so one
/// held in general registers, which may differ by lane, is taken one value
/// at a time). `isle/legalize.isle` spells the loop's body; these build
/// its blocks and carry the access's results around it.
impl Legalizer<'_> {
    /// The SASS opcode of the current texture fetch, surface access or
    /// header query when its handle is held in registers: neither a
    /// reference nor a kernel parameter's word (`LDC` from bank 0 without
    /// an address, which selection reads from the constant bank, as
    /// `SelectCtx::param`).
    fn handle_in_registers(&self) -> Option<Opcode> {
        use crate::ir::texture::{HeaderQuery, SurfaceAccess, TexFetch};
        let d = self.cur_data();
        let (op, has_handle) = match d.opcode {
            Opcode::Tex => (Opcode::TexFetch, TexFetch::decode(d.imm)?.texref.is_none()),
            Opcode::Suld => (Opcode::SurfaceLoad, SurfaceAccess::decode(d.imm)?.surfref.is_none()),
            Opcode::Sust => (Opcode::SurfaceStore, SurfaceAccess::decode(d.imm)?.surfref.is_none()),
            Opcode::Txq => (Opcode::TexQuery, HeaderQuery::decode(d.imm)?.reference.is_none()),
            _ => return None,
        };
        let h = self.map[*d.args.first().filter(|_| has_handle)?]?;
        let param = self.dst.value_inst(h).map(|i| &self.dst.insts[i]).is_some_and(|p| {
            p.opcode == Opcode::Ldc && p.imm == 0 && p.guard.is_none() && p.args.is_empty() && p.results.len() == 1 && (0..0x1_0000).contains(&p.offset)
        });
        (!param).then_some(op)
    }

    /// Opens the loop: every lane pending, the access's results zero
    /// (never read: each lane runs the access once, in the iteration that
    /// takes its handle). A guarded instruction starts with the lanes where
    /// its guard holds pending and its prior values as the results, which
    /// applies the guard (ptxas 13.5 branches around the loop instead:
    /// `@P0 BRA` past it inside `BSSY B0` ... `BSYNC B0`). Continues in the
    /// header; returns the pending flag there.
    fn handle_loop_open(&mut self) -> Value {
        let data = self.cur_data().clone();
        let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
        let mut init: SmallVec<[Value; 4]> = SmallVec::new();
        match data.guard {
            Some(g) => {
                let p = self.map[g.pred].unwrap_or(g.pred);
                let pending = if g.negated {
                    let t = self.constant(Type::P, 1);
                    self.push(Opcode::Plop3, Attrs::default(), &[p, t, t], 0x0f, &[Type::P])[0]
                } else {
                    p
                };
                init.push(pending);
                init.extend(data.prior.iter().map(|&v| self.map[v].unwrap_or(v)));
                self.guard_taken = true;
            }
            None => {
                init.push(self.constant(Type::P, 1));
                // One constant per carried value (not the block's shared
                // ones): each carried value then keeps one register around
                // the loop.
                for &ty in &types {
                    init.push(self.push(Opcode::Iconst, Attrs::default(), &[], 0, &[ty])[0]);
                }
            }
        }
        let header = self.dst.create_block();
        let params: SmallVec<[Value; 4]> = init.iter().map(|&v| self.dst.append_block_param(header, self.dst.value_type(v))).collect();
        let at = self.dst.layout.iter().position(|&b| b == self.block).map_or(self.dst.layout.len(), |p| p + 1);
        self.dst.layout.insert(at, header);
        let mut data = InstData::new(Opcode::Jump, Attrs::default());
        data.dests.push(crate::ir::BlockCall { block: header, args: init });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.block = header;
        self.handle_loop = Some(HandleLoop { header, carried: params[1..].iter().copied().collect(), results: SmallVec::new() });
        params[0]
    }

    /// The current instruction as `op` reading the handle `picked` (a
    /// uniform word), where `differ` is false: in the lanes whose handle
    /// it is. Elsewhere its results keep the carried ones.
    fn reemit_handled(&mut self, op: Opcode, picked: Value, differ: Value) {
        let data = self.cur_data().clone();
        let Some(open) = self.handle_loop.as_ref() else {
            return self.note_problem("an access of a picked handle outside the loop over the handles");
        };
        let prior = open.carried.clone();
        let mut args: SmallVec<[Value; 6]> = data.args.iter().map(|&v| self.map[v].unwrap_or(v)).collect();
        if let Some(h) = args.first_mut() {
            *h = picked;
        }
        let types: SmallVec<[Type; 4]> = data.results.iter().map(|&r| self.src.value_type(r)).collect();
        let results = self.push(op, data.attrs, &args, data.imm, &types);
        let last = *self.emitted.last().unwrap_or(&self.cur);
        let d = &mut self.dst.insts[last];
        d.offset = data.offset;
        d.guard = Some(Guard { pred: differ, negated: true });
        d.prior = prior.into_iter().collect();
        if let Some(open) = self.handle_loop.as_mut() {
            open.results = results.into_iter().collect();
        }
    }

    /// Closes the loop: the whole warp runs the header again while any
    /// lane is `pending` (`@P0 BRA.U.ANY`), then continues in a new block
    /// whose parameters, the access's results, it returns.
    fn handle_loop_close(&mut self, pending: Value) -> Output {
        let Some(open) = self.handle_loop.take() else {
            self.note_problem("a loop over the handles ends that did not begin");
            return Output::new(&[]);
        };
        let exit = self.dst.create_block();
        let params: SmallVec<[Value; 4]> = open.results.iter().map(|&r| self.dst.append_block_param(exit, self.dst.value_type(r))).collect();
        let at = self.dst.layout.iter().position(|&b| b == self.block).map_or(self.dst.layout.len(), |p| p + 1);
        self.dst.layout.insert(at, exit);
        let mut data = InstData::new(Opcode::Brif, Attrs { warp: Some(crate::ir::WarpMode::Any), ..Attrs::default() });
        data.args.push(pending);
        let again: SmallVec<[Value; 4]> = std::iter::once(pending).chain(open.results.iter().copied()).collect();
        data.dests.push(crate::ir::BlockCall { block: open.header, args: again });
        data.dests.push(crate::ir::BlockCall { block: exit, args: open.results.clone() });
        let inst = self.dst.create_inst(data, &[]);
        self.dst.append_inst(self.block, inst);
        self.dst.locs[inst] = self.src.locs[self.cur];
        self.emitted.push(inst);
        self.block = exit;
        Output::new(&params)
    }
}

mod late {
    use super::*;
    use crate::legalize::generated::legalize_late::{Context, InstView, Kind, Sign};
    impl Context for Legalizer<'_> {
        ori_context_body!();
    }
}

#[cfg(test)]
mod tests {
    use super::{field_mask, int_bound};

    #[test]
    fn bit_field_masks_clamp_like_bmsk() {
        assert_eq!(field_mask(4, 8), 0xff0);
        assert_eq!(field_mask(0, 32), 0xffff_ffff);
        assert_eq!(field_mask(0, 200), 0xffff_ffff);
        assert_eq!(field_mask(28, 8), 0xf000_0000, "cut at bit 31");
        assert_eq!(field_mask(32, 8), 0, "a field past the word");
        assert_eq!(field_mask(5, 0), 0);
    }

    #[test]
    fn integer_range_bounds_as_words() {
        assert_eq!(int_bound(8, true, true), 0x7f);
        assert_eq!(int_bound(8, true, false), 0xffff_ff80);
        assert_eq!(int_bound(16, false, true), 0xffff);
        assert_eq!(int_bound(16, false, false), 0);
        assert_eq!(int_bound(16, true, false), 0xffff_8000);
        assert_eq!(int_bound(32, true, true), 0x7fff_ffff);
    }
}

/// Whether selection makes `data` (whose results have `types`) of
/// register-allocation pseudo operations, which take no guard: a copy of
/// anything but one 32-bit register (a predicate, a pair), a part or a
/// concatenation of registers, an address placed at emission. Such an
/// instruction under a guard is computed unguarded and merged with its
/// prior values instead (`@p mov.pred`, `@p cvt.u16.u64`).
fn selects_to_pseudo(data: &InstData, types: &[Type]) -> bool {
    match data.opcode {
        Opcode::Copy => types != [Type::R32],
        Opcode::Extract | Opcode::Concat | Opcode::FuncAddr => true,
        Opcode::SymAddr => !(data.attrs.space == Some(crate::ir::Space::Local) && types == [Type::R32]),
        _ => false,
    }
}
