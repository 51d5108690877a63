//! The builder API: how lowering — and any other compiler using ptx2sass
//! as a library — constructs Ori IR functions.
//!
//! [`FunctionBuilder`] appends instructions to a current block and builds
//! SSA form for you: declare a [`Variable`] per mutable source register,
//! [`FunctionBuilder::def_var`] on each assignment, [`FunctionBuilder::use_var`]
//! on each read, and [`FunctionBuilder::seal_block`] a block once all its
//! predecessors are known. Block parameters are created where values merge
//! (the algorithm of Braun et al., "Simple and Efficient Construction of
//! Static Single Assignment Form", CC 2013, with an explicit work list
//! instead of recursion so deep control flow cannot overflow the stack);
//! [`FunctionBuilder::finish`] removes the parameters that turned out
//! redundant. A variable read before any assignment on some path reads
//! zero there.
//!
//! ```
//! use ptx2sass::internals::ir::{Attrs, DataType, Function, FunctionBuilder, FunctionKind, Opcode, Type};
//!
//! // i = 0; do { i = i + 1 } while (i < 10); return i
//! let mut func = Function::new("count", FunctionKind::Device);
//! func.returns.push(Type::R32);
//! let mut b = FunctionBuilder::new(&mut func);
//! let i = b.declare_var(Type::R32);
//! let entry = b.create_block();
//! let body = b.create_block();
//! let done = b.create_block();
//! b.switch_to_block(entry);
//! b.seal_block(entry);
//! let zero = b.iconst(Type::R32, 0);
//! b.def_var(i, zero);
//! b.jump(body, &[]);
//! b.switch_to_block(body);
//! let one = b.iconst(Type::R32, 1);
//! let old = b.use_var(i);
//! let new = b.binary(Opcode::Add, Attrs::typed(DataType::S32), old, one);
//! b.def_var(i, new);
//! let ten = b.iconst(Type::R32, 10);
//! let mut lt = Attrs::typed(DataType::S32);
//! lt.cmp = Some(ptx2sass::internals::ir::Cmp::Lt);
//! let more = b.binary_to(Opcode::Setp, lt, new, ten, Type::P);
//! b.brif(more, false, body, &[], done, &[]);
//! b.seal_block(body);
//! b.switch_to_block(done);
//! b.seal_block(done);
//! let result = b.use_var(i);
//! b.ret(&[result]);
//! b.finish();
//! // The loop header merges the entry's 0 and the body's i + 1.
//! assert_eq!(func.blocks[body].params.len(), 1);
//! ```

use crate::fxhash::FxBuild;
use std::collections::HashMap as StdHashMap;

/// The builder's maps: keys are entity indices, so a fast hasher.
type HashMap<K, V> = StdHashMap<K, V, FxBuild>;

use super::attrs::Attrs;
use super::entity::{EntityRef, SecondaryMap};
use super::function::{Block, BlockCall, Function, Guard, Inst, InstData, SrcLoc, Value, ValueDef};
use super::opcode::Opcode;
use super::types::Type;
use smallvec::SmallVec;

crate::ir_entity!(
    /// A mutable variable of the source program, turned into SSA values
    /// by the builder.
    Variable,
    "var"
);

/// One edge into a block: the predecessor, its terminator and which of
/// the terminator's destinations it is.
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: Block,
    branch: Inst,
    dest: usize,
}

/// Builds one function (see the module documentation).
pub struct FunctionBuilder<'f> {
    /// The function being built.
    pub func: &'f mut Function,
    current: Option<Block>,
    srcloc: SrcLoc,
    var_types: Vec<Type>,
    /// The value of a variable at the end of a block (as far as defined).
    defs: HashMap<(Variable, Block), Value>,
    preds: SecondaryMap<Block, Vec<Edge>>,
    sealed: SecondaryMap<Block, bool>,
    in_layout: SecondaryMap<Block, bool>,
    /// Parameters of unsealed blocks whose incoming arguments wait for the
    /// block's predecessors.
    incomplete: SecondaryMap<Block, Vec<(Variable, Value)>>,
    /// Parameters the builder made (only these may be removed as redundant).
    made: HashMap<Value, Variable>,
    /// Parameters whose incoming arguments are to be filled in.
    pending: Vec<(Variable, Value)>,
}

impl<'f> FunctionBuilder<'f> {
    /// A builder appending to `func`.
    pub fn new(func: &'f mut Function) -> FunctionBuilder<'f> {
        let mut in_layout = SecondaryMap::with_default(false);
        for &b in &func.layout {
            in_layout[b] = true;
        }
        FunctionBuilder {
            func,
            current: None,
            srcloc: SrcLoc::default(),
            var_types: Vec::new(),
            defs: HashMap::default(),
            preds: SecondaryMap::with_default(Vec::new()),
            sealed: SecondaryMap::with_default(false),
            in_layout,
            incomplete: SecondaryMap::with_default(Vec::new()),
            made: HashMap::default(),
            pending: Vec::new(),
        }
    }

    /// Creates a block; it joins the layout when first switched to.
    pub fn create_block(&mut self) -> Block {
        self.func.create_block()
    }

    /// Makes `block` the block instructions are appended to.
    pub fn switch_to_block(&mut self, block: Block) {
        if !self.in_layout[block] {
            self.in_layout[block] = true;
            self.func.layout.push(block);
        }
        self.current = Some(block);
    }

    /// The block being appended to.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// Whether the current block already ends with a terminator.
    pub fn is_filled(&self) -> bool {
        self.current.is_some_and(|b| self.func.terminator(b).is_some())
    }

    /// Appends an explicit parameter to a block. Explicit parameters must
    /// be added before any branch to the block and before the builder
    /// adds parameters of its own there.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.append_block_param(block, ty)
    }

    /// The source location given to instructions from now on.
    pub fn set_srcloc(&mut self, loc: SrcLoc) {
        self.srcloc = loc;
    }

    /// Appends an instruction to the current block and returns it; its
    /// results have the given types. Branch destinations in `data` are
    /// recorded as edges for SSA construction.
    ///
    /// # Panics
    /// Without a current block ([`FunctionBuilder::switch_to_block`]
    /// first): a misuse of the API, not a property of the input.
    pub fn ins(&mut self, data: InstData, result_types: &[Type]) -> Inst {
        let block = self.current.expect("FunctionBuilder::ins without a current block");
        let inst = self.func.create_inst(data, result_types);
        self.func.append_inst(block, inst);
        self.func.locs[inst] = self.srcloc;
        let dests: SmallVec<[Block; 2]> = self.func.insts[inst].dests.iter().map(|d| d.block).collect();
        for (dest, to) in dests.into_iter().enumerate() {
            self.preds[to].push(Edge { from: block, branch: inst, dest });
            // A sealed block's builder-made parameters need arguments on
            // this edge too; they are filled like a late predecessor.
            let made: Vec<(usize, Variable)> = self.func.blocks[to]
                .params
                .iter()
                .enumerate()
                .filter_map(|(n, p)| self.made.get(p).map(|&var| (n, var)))
                .collect();
            for (n, var) in made {
                let from_value = self.read(var, block);
                let args = &mut self.func.insts[inst].dests[dest].args;
                while args.len() <= n {
                    args.push(from_value);
                }
                args[n] = from_value;
                self.drain_pending();
            }
        }
        inst
    }

    /// Appends an instruction with one result of type `ty` and returns
    /// the result.
    pub fn ins_value(&mut self, data: InstData, ty: Type) -> Value {
        let inst = self.ins(data, &[ty]);
        self.func.insts[inst].results[0]
    }

    /// A constant of type `ty` with the given bits.
    pub fn iconst(&mut self, ty: Type, bits: u64) -> Value {
        let mut data = InstData::new(Opcode::Iconst, Attrs::default());
        data.imm = bits;
        self.ins_value(data, ty)
    }

    /// A one-operand instruction whose result has the operand's type.
    pub fn unary(&mut self, opcode: Opcode, attrs: Attrs, a: Value) -> Value {
        let ty = self.func.value_type(a);
        self.unary_to(opcode, attrs, a, ty)
    }

    /// A one-operand instruction with a result of type `ty`.
    pub fn unary_to(&mut self, opcode: Opcode, attrs: Attrs, a: Value, ty: Type) -> Value {
        let mut data = InstData::new(opcode, attrs);
        data.args.push(a);
        self.ins_value(data, ty)
    }

    /// A two-operand instruction whose result has the first operand's type.
    pub fn binary(&mut self, opcode: Opcode, attrs: Attrs, a: Value, b: Value) -> Value {
        let ty = self.func.value_type(a);
        self.binary_to(opcode, attrs, a, b, ty)
    }

    /// A two-operand instruction with a result of type `ty`.
    pub fn binary_to(&mut self, opcode: Opcode, attrs: Attrs, a: Value, b: Value, ty: Type) -> Value {
        let mut data = InstData::new(opcode, attrs);
        data.args.extend([a, b]);
        self.ins_value(data, ty)
    }

    /// An instruction with operands `args` and one result of type `ty`.
    pub fn op(&mut self, opcode: Opcode, attrs: Attrs, args: &[Value], ty: Type) -> Value {
        let mut data = InstData::new(opcode, attrs);
        data.args.extend_from_slice(args);
        self.ins_value(data, ty)
    }

    /// Jumps to `to` with arguments for its explicit parameters.
    pub fn jump(&mut self, to: Block, args: &[Value]) -> Inst {
        let mut data = InstData::new(Opcode::Jump, Attrs::default());
        data.dests.push(BlockCall { block: to, args: args.iter().copied().collect() });
        self.ins(data, &[])
    }

    /// Branches to `taken` where `cond` holds (does not, when `negated`),
    /// else to `other`.
    pub fn brif(&mut self, cond: Value, negated: bool, taken: Block, taken_args: &[Value], other: Block, other_args: &[Value]) -> Inst {
        let mut data = InstData::new(Opcode::Brif, Attrs { negated, ..Attrs::default() });
        data.args.push(cond);
        data.dests.push(BlockCall { block: taken, args: taken_args.iter().copied().collect() });
        data.dests.push(BlockCall { block: other, args: other_args.iter().copied().collect() });
        self.ins(data, &[])
    }

    /// Returns from a device function.
    pub fn ret(&mut self, values: &[Value]) -> Inst {
        let mut data = InstData::new(Opcode::Return, Attrs::default());
        data.args.extend_from_slice(values);
        self.ins(data, &[])
    }

    /// Ends the thread.
    pub fn exit(&mut self) -> Inst {
        self.ins(InstData::new(Opcode::Exit, Attrs::default()), &[])
    }

    /// Sets the guard of an instruction already built. For an instruction
    /// with results, `prior` gives each result's value where the guard is
    /// false.
    pub fn set_guard(&mut self, inst: Inst, guard: Guard, prior: &[Value]) {
        let data = &mut self.func.insts[inst];
        data.guard = Some(guard);
        data.prior = prior.iter().copied().collect();
    }

    // ---- variables -----------------------------------------------------

    /// Declares a variable holding values of type `ty`.
    pub fn declare_var(&mut self, ty: Type) -> Variable {
        self.var_types.push(ty);
        Variable::new(self.var_types.len() - 1)
    }

    /// The type of a variable.
    pub fn var_type(&self, var: Variable) -> Type {
        self.var_types[var.index()]
    }

    /// Assigns `value` to `var` at the current point.
    ///
    /// # Panics
    /// Without a current block (API misuse).
    pub fn def_var(&mut self, var: Variable, value: Value) {
        let block = self.current.expect("FunctionBuilder::def_var without a current block");
        self.defs.insert((var, block), value);
    }

    /// The value of `var` at the current point.
    ///
    /// # Panics
    /// Without a current block (API misuse).
    pub fn use_var(&mut self, var: Variable) -> Value {
        let block = self.current.expect("FunctionBuilder::use_var without a current block");
        let v = self.read(var, block);
        self.drain_pending();
        v
    }

    /// Declares that every predecessor of `block` has been built.
    pub fn seal_block(&mut self, block: Block) {
        if self.sealed[block] {
            return;
        }
        self.sealed[block] = true;
        let waiting = std::mem::take(&mut self.incomplete[block]);
        self.pending.extend(waiting);
        self.drain_pending();
    }

    /// Seals every block not sealed yet.
    pub fn seal_all_blocks(&mut self) {
        let blocks: Vec<Block> = self.func.blocks.keys().collect();
        for b in blocks {
            self.seal_block(b);
        }
    }

    /// The value of `var` at the end of `block` — or, for a block being
    /// built, at the current point. Never recurses: a merge gets a
    /// parameter at once and its incoming arguments are queued.
    fn read(&mut self, var: Variable, block: Block) -> Value {
        let ty = self.var_types[var.index()];
        let mut chain: SmallVec<[Block; 8]> = SmallVec::new();
        let mut b = block;
        let value = loop {
            if let Some(&v) = self.defs.get(&(var, b)) {
                break v;
            }
            if !self.sealed[b] {
                let p = self.make_param(var, b, ty);
                self.incomplete[b].push((var, p));
                break p;
            }
            match self.preds[b].len() {
                0 => break self.undefined(b, ty),
                1 if !chain.contains(&b) => {
                    chain.push(b);
                    b = self.preds[b][0].from;
                }
                _ => {
                    let p = self.make_param(var, b, ty);
                    self.pending.push((var, p));
                    break p;
                }
            }
        };
        self.defs.insert((var, b), value);
        for c in chain {
            self.defs.insert((var, c), value);
        }
        value
    }

    /// A builder-made parameter for `var` on `block`, already the
    /// variable's value there.
    fn make_param(&mut self, var: Variable, block: Block, ty: Type) -> Value {
        let p = self.func.append_block_param(block, ty);
        self.made.insert(p, var);
        self.defs.insert((var, block), p);
        p
    }

    /// Zero of type `ty`, defined at the start of `block` (the value of a
    /// variable read where no assignment reaches).
    fn undefined(&mut self, block: Block, ty: Type) -> Value {
        let mut data = InstData::new(Opcode::Iconst, Attrs::default());
        data.imm = 0;
        let inst = self.func.create_inst(data, &[ty]);
        self.func.blocks[block].insts.insert(0, inst);
        self.func.insts[inst].results[0]
    }

    /// Fills the incoming arguments of queued parameters.
    fn drain_pending(&mut self) {
        while let Some((var, param)) = self.pending.pop() {
            let ValueDef::Param(block, n) = self.func.values[param].def else { continue };
            let n = usize::from(n);
            let edges = self.preds[block].clone();
            for e in edges {
                let v = self.read(var, e.from);
                let args = &mut self.func.insts[e.branch].dests[e.dest].args;
                // Earlier parameters still waiting get a placeholder that
                // their own turn overwrites.
                while args.len() <= n {
                    args.push(v);
                }
                args[n] = v;
            }
        }
    }

    /// Finishes construction: seals every block and removes builder-made
    /// parameters that merge only one value, renaming their uses.
    pub fn finish(mut self) {
        self.seal_all_blocks();
        self.remove_redundant_params();
    }

    fn remove_redundant_params(&mut self) {
        let mut alias: HashMap<Value, Value> = HashMap::default();
        fn resolve(alias: &HashMap<Value, Value>, mut v: Value) -> Value {
            while let Some(&next) = alias.get(&v) {
                v = next;
            }
            v
        }
        // Iterate to a fixed point: removing one parameter can make
        // another one's incoming values all equal.
        loop {
            let mut changed = false;
            for &block in &self.func.layout {
                for (n, &p) in self.func.blocks[block].params.iter().enumerate() {
                    if !self.made.contains_key(&p) || alias.contains_key(&p) {
                        continue;
                    }
                    let mut same: Option<Value> = None;
                    let mut redundant = true;
                    for e in &self.preds[block] {
                        let Some(&arg) = self.func.insts[e.branch].dests[e.dest].args.get(n) else { continue };
                        let arg = resolve(&alias, arg);
                        if arg == p || Some(arg) == same {
                            continue;
                        }
                        if same.is_some() {
                            redundant = false;
                            break;
                        }
                        same = Some(arg);
                    }
                    if redundant {
                        if let Some(v) = same {
                            alias.insert(p, v);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        if alias.is_empty() {
            return;
        }
        // Drop the parameters and their arguments on every edge.
        let layout = self.func.layout.clone();
        for &block in &layout {
            let params = self.func.blocks[block].params.clone();
            let keep: Vec<bool> = params.iter().map(|p| !alias.contains_key(p)).collect();
            if keep.iter().all(|&k| k) {
                continue;
            }
            for e in self.preds[block].clone() {
                let args = &mut self.func.insts[e.branch].dests[e.dest].args;
                let mut k = 0;
                args.retain(|_| {
                    let kept = keep.get(k).copied().unwrap_or(true);
                    k += 1;
                    kept
                });
            }
            let kept: SmallVec<[Value; 2]> = params.iter().copied().filter(|p| !alias.contains_key(p)).collect();
            for (n, &p) in kept.iter().enumerate() {
                self.func.values[p].def = ValueDef::Param(block, n as u16);
            }
            self.func.blocks[block].params = kept;
        }
        // Rename every use.
        for &block in &layout {
            for &inst in &self.func.blocks[block].insts {
                for v in self.func.insts[inst].uses_mut() {
                    *v = resolve(&alias, *v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::attrs::DataType;
    use crate::ir::function::FunctionKind;

    fn add(b: &mut FunctionBuilder<'_>, x: Value, y: Value) -> Value {
        b.binary(Opcode::Add, Attrs::typed(DataType::S32), x, y)
    }

    /// The incoming arguments of `block`'s parameter `n`, one per edge.
    fn incoming(func: &Function, block: Block, n: usize) -> Vec<Value> {
        let mut out = Vec::new();
        for &b in &func.layout {
            if let Some(t) = func.terminator(b) {
                for d in &func.insts[t].dests {
                    if d.block == block {
                        out.push(d.args[n]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn if_else_merges_two_definitions_in_one_parameter() {
        let mut func = Function::new("f", FunctionKind::Kernel);
        let mut b = FunctionBuilder::new(&mut func);
        let x = b.declare_var(Type::R32);
        let (entry, then, other, join) = (b.create_block(), b.create_block(), b.create_block(), b.create_block());
        b.switch_to_block(entry);
        b.seal_block(entry);
        let one = b.iconst(Type::R32, 1);
        let p = b.iconst(Type::P, 1);
        b.def_var(x, one);
        b.brif(p, false, then, &[], other, &[]);
        b.switch_to_block(then);
        b.seal_block(then);
        let x1 = b.use_var(x);
        let two = add(&mut b, x1, x1);
        b.def_var(x, two);
        b.jump(join, &[]);
        b.switch_to_block(other);
        b.seal_block(other);
        b.jump(join, &[]);
        b.switch_to_block(join);
        b.seal_block(join);
        let merged = b.use_var(x);
        b.exit();
        b.finish();
        assert_eq!(func.blocks[join].params.as_slice(), &[merged]);
        let mut inc = incoming(&func, join, 0);
        inc.sort();
        let mut want = vec![one, two];
        want.sort();
        assert_eq!(inc, want);
        // `then` read x from its single predecessor without a parameter.
        assert!(func.blocks[then].params.is_empty());
    }

    #[test]
    fn loop_without_redefinition_leaves_no_parameter() {
        let mut func = Function::new("f", FunctionKind::Kernel);
        let mut b = FunctionBuilder::new(&mut func);
        let x = b.declare_var(Type::R32);
        let y = b.declare_var(Type::R32);
        let (entry, head, exit) = (b.create_block(), b.create_block(), b.create_block());
        b.switch_to_block(entry);
        b.seal_block(entry);
        let c = b.iconst(Type::R32, 7);
        b.def_var(x, c);
        b.def_var(y, c);
        b.jump(head, &[]);
        // Header read before its back edge exists: a parameter is made for
        // both, then x's turns out redundant (only `c` reaches it).
        b.switch_to_block(head);
        let xv = b.use_var(x);
        let yv = b.use_var(y);
        let y2 = add(&mut b, yv, xv);
        b.def_var(y, y2);
        let p = b.iconst(Type::P, 0);
        b.brif(p, false, head, &[], exit, &[]);
        b.seal_block(head);
        b.switch_to_block(exit);
        b.seal_block(exit);
        let out = b.use_var(y);
        b.ret(&[out]);
        b.finish();
        // Only y's parameter survives, and x's uses were renamed to `c`.
        assert_eq!(func.blocks[head].params.len(), 1);
        let y_param = func.blocks[head].params[0];
        assert_eq!(func.values[y_param].def, ValueDef::Param(head, 0));
        let add_inst = func.value_inst(y2).unwrap();
        assert_eq!(func.insts[add_inst].args.as_slice(), &[y_param, c]);
        let mut inc = incoming(&func, head, 0);
        inc.sort();
        let mut want = vec![c, y2];
        want.sort();
        assert_eq!(inc, want);
        // Every branch passes exactly as many arguments as parameters.
        for &blk in &func.layout {
            if let Some(t) = func.terminator(blk) {
                for d in &func.insts[t].dests {
                    assert_eq!(d.args.len(), func.blocks[d.block].params.len());
                }
            }
        }
    }

    #[test]
    fn a_variable_never_assigned_reads_zero() {
        let mut func = Function::new("f", FunctionKind::Kernel);
        let mut b = FunctionBuilder::new(&mut func);
        let x = b.declare_var(Type::R64);
        let entry = b.create_block();
        b.switch_to_block(entry);
        b.seal_block(entry);
        let v = b.use_var(x);
        b.exit();
        b.finish();
        assert_eq!(func.value_const(v), Some(0));
        assert_eq!(func.value_type(v), Type::R64);
        assert_eq!(func.blocks[entry].insts.len(), 2);
    }

    #[test]
    fn long_chains_of_merges_do_not_recurse() {
        // 20k diamonds in sequence, x defined only at the top: reading x
        // at the bottom walks them all; a recursive reader would overflow
        // the test thread's stack.
        let mut func = Function::new("f", FunctionKind::Kernel);
        let mut b = FunctionBuilder::new(&mut func);
        let x = b.declare_var(Type::R32);
        let entry = b.create_block();
        b.switch_to_block(entry);
        b.seal_block(entry);
        let c = b.iconst(Type::R32, 3);
        let p = b.iconst(Type::P, 1);
        b.def_var(x, c);
        let mut top = entry;
        for _ in 0..20_000 {
            let (l, r, j) = (b.create_block(), b.create_block(), b.create_block());
            b.switch_to_block(top);
            b.brif(p, false, l, &[], r, &[]);
            for side in [l, r] {
                b.switch_to_block(side);
                b.seal_block(side);
                b.jump(j, &[]);
            }
            b.switch_to_block(j);
            b.seal_block(j);
            top = j;
        }
        let v = b.use_var(x);
        let ret = b.ret(&[v]);
        b.finish();
        // The merges were all redundant: the use reads `c` itself.
        assert_eq!(func.insts[ret].args.as_slice(), &[c]);
        assert!(func.layout.iter().all(|&blk| func.blocks[blk].params.is_empty()));
    }
}
