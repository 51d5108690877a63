//! One function body: the walk over its statements, the control-flow
//! graph (blocks at labels, after branches and after terminators), block
//! sealing, declarations, guards, calls and returns.
//!
//! The body is first flattened into a list of [`Event`]s (nested `{ }`
//! blocks become scope pushes and pops), so labels are known before any
//! branch to them, and each label block's predecessors can be counted: a
//! block is sealed when its last incoming edge is emitted.
//!
//! Labels are scoped as variables are: a label is visible in the `{ }`
//! block that defines it and the blocks inside, and an inner definition
//! hides an outer one. (LLVM's NVPTX back end leaves each inline-assembly
//! statement in its own `{ }`, so one function may hold the same label
//! `waitLoop:` once per inlined statement; ptxas accepts it.)

use super::error::LowerError;
use super::names::Binding;
use super::types::{bytes_value_type, scalar_value_type, AGGREGATE_PART, MAX_AGGREGATE};
use super::{func_of, globals, ModuleCx};
use crate::diag::Span;
use crate::ir::entity::EntityRef;
use crate::ir::{Attrs, Block, FuncId, Function, FunctionBuilder, Guard, Inst, InstData, Opcode, SrcLoc, Type, Value, Variable};
use crate::ir::function::{CallSite, InlineChain, INLINE_DEPTH};
use crate::ptx::ast::{self, FxBuild, Instruction, OperandKind, StateSpace, Statement, Symbol, VarType};
use crate::ptx::opcode::Opcode as P;
use smallvec::SmallVec;
use std::collections::HashMap;

/// A statement of the flattened body.
#[derive(Clone, Copy)]
enum Event<'a> {
    Inst(&'a Instruction),
    /// A label and its definition's index in the function's label list
    /// (`u32::MAX` for a second definition in one block, which is an error).
    Label(Symbol, u32),
    Decl(&'a ast::VarDecl),
    Push,
    Pop,
    Loc(&'a ast::LocDirective),
}

fn flatten<'a>(stmts: &'a [Statement], out: &mut Vec<Event<'a>>) {
    for s in stmts {
        match s {
            Statement::Instruction(i) => out.push(Event::Inst(i)),
            Statement::Label(l, _) => out.push(Event::Label(*l, u32::MAX)),
            Statement::Variable(d) => out.push(Event::Decl(d)),
            Statement::Block(b) => {
                out.push(Event::Push);
                flatten(&b.stmts, out);
                out.push(Event::Pop);
            }
            Statement::Loc(l) => out.push(Event::Loc(l)),
            Statement::Pragma(_) | Statement::BranchTargets(..) | Statement::CallTargets(..) | Statement::CallPrototype(_) => {}
        }
    }
}

/// A label's block and its incoming edges (counted up front, and seen so
/// far).
struct LabelInfo {
    block: Block,
    total: u32,
    seen: u32,
}

/// How an indirect call passes one argument or result.
enum Parts {
    /// One value of this type.
    One(Type),
    /// A `.param` aggregate in 16-byte parts.
    Aggregate { id: u32, size: u32 },
}

/// Where a return value lives.
#[derive(Clone, Copy)]
enum RetSlot {
    Var(Variable),
    Vec { id: u32, n: u8, ty: Type, bits: u16 },
}

/// The state of lowering one function.
pub(super) struct FnLower<'c, 'a, 'f> {
    pub cx: &'c mut ModuleCx<'a>,
    pub b: FunctionBuilder<'f>,
    /// The function's name, for errors.
    pub name: &'a str,
    /// The function's id (the owner of its function-scope variables).
    fid: FuncId,
    kernel: bool,
    returns: Vec<RetSlot>,
    /// Variables of range elements and vector components: declaration
    /// `id`'s element `k` is `slots[bases[id] + k]` (declared on first
    /// use), or, for ranges too large to give a slot each, in `elems`.
    slots: Vec<Option<Variable>>,
    bases: Vec<u32>,
    elems: HashMap<(u32, u32), Variable, FxBuild>,
    /// The label each `bra` names, by the instruction's source offset,
    /// resolved through the scopes open at the branch.
    branch_targets: HashMap<u32, u32, FxBuild>,
    label_info: Vec<LabelInfo>,
    /// Whether the current block can take more instructions.
    open: bool,
    /// Instructions emitted for the PTX instruction being lowered.
    pub emitted: SmallVec<[Inst; 8]>,
    /// Register assignments of the PTX instruction being lowered, applied
    /// after it (so its reads see the old values).
    pub pending: SmallVec<[(Variable, Value); 4]>,
    /// The `.loc` in force: file, line, column, and its chain of call
    /// sites ([`SrcLoc::inlined_at`]).
    debug: (u32, u32, u32, u32),
    /// The latest `.loc` directive of each position (file, line, column):
    /// its PTX line and its call sites, which an `inlined_at` naming the
    /// position continues (nested inlining).
    locs: HashMap<(u32, u32, u32), (u32, [CallSite; INLINE_DEPTH]), FxBuild>,
    /// Bytes of `.local` frame declared so far.
    pub frame: u32,
    /// The variable of PTX's carry flag, once an instruction uses it.
    pub cc: Option<Variable>,
    pub errors: Vec<LowerError>,
    /// With [`ModuleCx::name_registers`]: the declared type code of each
    /// register declaration (its symbol, a range's prefix), and the PTX
    /// register and type of each variable a destination named.
    pub reg_types: HashMap<Symbol, u8, FxBuild>,
    pub var_names: HashMap<Variable, (String, u8), FxBuild>,
}

/// Lowers `f`'s body into `func` (whose signature is already filled in);
/// returns the errors.
pub(super) fn lower_function<'a>(cx: &mut ModuleCx<'a>, f: &'a ast::Function, body: &'a ast::Block, fid: FuncId, func: &mut Function) -> Vec<LowerError> {
    let m = cx.m;
    let name = m.names.name(f.name);
    let mut events = Vec::with_capacity(body.stmts.len() + 8);
    flatten(&body.stmts, &mut events);
    let (duplicates, branch_targets) = number_labels(&mut events, |i| match &m.operands(i.operands).first()?.kind {
        OperandKind::Name(s, None) if i.opcode == P::Bra => Some(*s),
        _ => None,
    });
    let kernel = f.kind == ast::FunctionKind::Entry;
    // About one instruction and value per statement, a few more for
    // expansions: room up front saves growing the tables step by step.
    func.insts.reserve(events.len() * 5 / 4);
    func.values.reserve(events.len() * 5 / 4);
    let b = FunctionBuilder::new(func);
    cx.scope.push_scope();
    let mut l = FnLower {
        cx,
        b,
        name,
        fid,
        kernel,
        returns: Vec::new(),
        slots: Vec::new(),
        bases: Vec::new(),
        elems: HashMap::default(),
        branch_targets: HashMap::default(),
        label_info: Vec::new(),
        open: true,
        emitted: SmallVec::new(),
        pending: SmallVec::new(),
        debug: (0, 0, 0, 0),
        locs: HashMap::default(),
        frame: 0,
        cc: None,
        errors: Vec::new(),
        reg_types: HashMap::default(),
        var_names: HashMap::default(),
    };
    for s in duplicates {
        let label = m.names.name(s);
        l.errors.push(l.error(f.loc.span(), format!("label {label} defined twice in one block")));
    }
    l.branch_targets = branch_targets;
    l.run(f, fid, &events);
    let frame = l.frame;
    let errors = std::mem::take(&mut l.errors);
    l.cx.scope.pop_scope();
    let FnLower { b, .. } = l;
    b.finish();
    func.local_bytes = frame;
    errors
}

/// The `{ }` blocks open at an event: ids in order of opening (0 is the
/// function body), innermost last.
struct BlockScopes {
    stack: Vec<u32>,
    opened: u32,
}

impl Default for BlockScopes {
    fn default() -> BlockScopes {
        BlockScopes { stack: vec![0], opened: 0 }
    }
}

impl BlockScopes {
    /// Follows a block's opening or closing.
    fn step(&mut self, e: &Event) {
        match e {
            Event::Push => {
                self.opened += 1;
                self.stack.push(self.opened);
            }
            Event::Pop => {
                self.stack.pop();
            }
            _ => {}
        }
    }

    fn innermost(&self) -> u32 {
        self.stack.last().copied().unwrap_or(0)
    }
}

/// Numbers the label definitions of a flattened body in order (filling in
/// each [`Event::Label`]'s index) and resolves every branch's label
/// through the scopes open at the branch: the innermost block that
/// defines the name, wherever in that block the definition stands.
/// Returns the labels defined twice in one block, and the label index of
/// each branch (`target` gives the label a branch names) by the branch's
/// source offset.
fn number_labels(events: &mut [Event], target: impl Fn(&Instruction) -> Option<Symbol>) -> (Vec<Symbol>, HashMap<u32, u32, FxBuild>) {
    // Each `{ }` block gets an id (0 is the body); a definition is keyed
    // by its block and name.
    let mut defined: HashMap<(u32, Symbol), u32, FxBuild> = HashMap::default();
    let mut duplicates = Vec::new();
    let mut scopes = BlockScopes::default();
    let mut count = 0u32;
    for e in events.iter_mut() {
        scopes.step(e);
        match e {
            Event::Label(s, n) => {
                let block = scopes.innermost();
                if defined.contains_key(&(block, *s)) {
                    duplicates.push(*s);
                } else {
                    defined.insert((block, *s), count);
                    *n = count;
                    count += 1;
                }
            }
            _ => {}
        }
    }
    let mut branches = HashMap::default();
    let mut scopes = BlockScopes::default();
    for e in events.iter() {
        scopes.step(e);
        match e {
            Event::Inst(i) => {
                let Some(s) = target(i) else { continue };
                if let Some(&n) = scopes.stack.iter().rev().find_map(|b| defined.get(&(*b, s))) {
                    branches.insert(i.loc.span().start, n);
                }
            }
            _ => {}
        }
    }
    (duplicates, branches)
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// An error at `span` in this function.
    pub fn error(&self, span: Span, message: impl Into<String>) -> LowerError {
        LowerError { span, function: self.name.to_string(), message: message.into() }
    }

    /// Whether the function is a kernel (`.entry`).
    pub fn is_kernel(&self) -> bool {
        self.kernel
    }

    /// The unsupported-instruction error for `i`, naming it with its
    /// modifiers.
    pub fn unsupported(&self, i: &Instruction) -> LowerError {
        let mut text = String::from(i.opcode.name());
        for (m, _) in &i.modifiers {
            text.push_str(m.spelling());
        }
        // The asynchronous path of Hopper and Blackwell is a whole
        // subsystem not built yet: say so, rather than only naming the
        // first of its instructions met.
        let asynchronous = ["wgmma", "tcgen05", "mbarrier", "cp.async.bulk", "fence.proxy.async", "fence.proxy.tensormap", "tensormap"];
        if asynchronous.iter().any(|p| text.starts_with(p)) {
            return self.error(
                i.loc.span(),
                format!("unsupported in lowering: {text} (the Hopper/Blackwell asynchronous path, wgmma, TMA, mbarrier and tcgen05, is not implemented)"),
            );
        }
        self.error(i.loc.span(), format!("unsupported in lowering: {text}"))
    }

    fn run(&mut self, f: &ast::Function, fid: FuncId, events: &[Event<'a>]) {
        // Blocks: the entry, then one per label (label `k` is block k + 1).
        let entry = self.b.create_block();
        for e in events {
            if let Event::Label(_, n) = *e
                && n != u32::MAX
            {
                let block = self.b.create_block();
                self.label_info.push(LabelInfo { block, total: 0, seen: 0 });
            }
        }
        self.count_edges(events);
        self.b.switch_to_block(entry);
        self.b.seal_block(entry);
        self.params(f, fid);
        for (k, e) in events.iter().enumerate() {
            match *e {
                Event::Label(_, n) => {
                    if n == u32::MAX {
                        continue;
                    }
                    let target = self.label_info[n as usize].block;
                    if self.open {
                        self.b.jump(target, &[]);
                        self.edge(target);
                    }
                    self.b.switch_to_block(target);
                    self.open = true;
                    if self.label_info[n as usize].total == 0 {
                        self.b.seal_block(target);
                    }
                }
                Event::Push => self.cx.scope.push_scope(),
                Event::Pop => self.cx.scope.pop_scope(),
                Event::Decl(d) => {
                    if let Err(e) = self.decl(d) {
                        self.errors.push(e);
                    }
                }
                Event::Loc(l) => {
                    let ptx_line = self.cx.lines.as_ref().map_or(0, |(map, src)| map.line_col(src, l.loc.span().start).0);
                    let mut sites = [CallSite::default(); INLINE_DEPTH];
                    if let Some((file, line, column)) = l.inlined_at {
                        sites[0] = CallSite { file, line, loc: 0 };
                        if let Some((loc, outer)) = self.locs.get(&(file, line, column)) {
                            sites[0].loc = *loc;
                            sites[1..].copy_from_slice(&outer[..INLINE_DEPTH - 1]);
                        }
                    }
                    self.locs.insert((l.file, l.line, l.column), (ptx_line, sites));
                    let mut chain_id = 0;
                    if l.inlined_at.is_some() {
                        let chain = InlineChain { loc: ptx_line, sites };
                        let cx = &mut *self.cx;
                        chain_id = *cx.inline_chain_ids.entry(chain).or_insert_with(|| {
                            cx.inline_chains.push(chain);
                            cx.inline_chains.len() as u32
                        });
                    }
                    self.debug = (l.file, l.line, l.column, chain_id);
                }
                Event::Inst(i) => {
                    if !self.open {
                        // Code after an unconditional terminator.
                        let block = self.b.create_block();
                        self.b.switch_to_block(block);
                        self.b.seal_block(block);
                        self.open = true;
                    }
                    self.set_srcloc(i);
                    self.emitted.clear();
                    self.pending.clear();
                    if let Err(e) = self.inst(i, &events[k + 1..]) {
                        self.errors.push(e);
                    }
                }
            }
        }
        if self.open {
            // Falling off the end returns.
            if let Err(e) = self.ret_terminator(f.loc.span()) {
                self.errors.push(e);
            }
        }
    }

    fn set_srcloc(&mut self, i: &Instruction) {
        let (line, col) = match &self.cx.lines {
            Some((map, src)) => map.line_col(src, i.loc.span().start),
            None => (0, 0),
        };
        let (debug_file, debug_line, debug_col, inlined_at) = self.debug;
        self.b.set_srcloc(SrcLoc { line, col, debug_file, debug_line, debug_col, inlined_at, defs: 0 });
    }

    /// Counts each label block's incoming edges: branches to it, and the
    /// fall-through from the code before it.
    fn count_edges(&mut self, events: &[Event]) {
        let mut falls = true;
        for e in events {
            match *e {
                Event::Label(_, n) => {
                    if falls && n != u32::MAX {
                        self.label_info[n as usize].total += 1;
                    }
                    falls = true;
                }
                Event::Inst(i) => {
                    let guarded = i.guard.is_some();
                    match i.opcode {
                        P::Bra => {
                            if let Some(n) = self.branch_label(i) {
                                self.label_info[n as usize].total += 1;
                            }
                            falls = guarded;
                        }
                        P::Ret | P::Exit | P::Trap => falls = guarded,
                        _ => falls = true,
                    }
                }
                _ => {}
            }
        }
    }

    /// The label index a `bra` names.
    fn branch_label(&self, i: &Instruction) -> Option<u32> {
        self.branch_targets.get(&i.loc.span().start).copied()
    }

    /// Records an edge into `target`, sealing it when it was the last.
    fn edge(&mut self, target: Block) {
        let n = target.index().wrapping_sub(1);
        let Some(info) = self.label_info.get_mut(n) else { return };
        info.seen += 1;
        if self.cx.seal_early && info.seen == info.total {
            self.b.seal_block(target);
        }
    }

    /// Parameters and return values: bindings, and for a device function
    /// the entry block's parameters.
    fn params(&mut self, f: &ast::Function, fid: FuncId) {
        let sig = self.cx.sigs.get(fid.index()).cloned().unwrap_or_default();
        let entry = self.b.current_block();
        let mut first = 0;
        for (k, p) in f.params.iter().flatten().enumerate() {
            if self.kernel {
                self.cx.scope.insert(p.name, Binding::KernelParam(k as u32));
                continue;
            }
            let parts = sig.param_parts.get(k).copied().unwrap_or(1);
            let Some(tys) = sig.params.get(first..first + parts) else { continue };
            first += parts;
            let Some(entry) = entry else { continue };
            let values: SmallVec<[Value; 4]> = tys.iter().map(|&t| self.b.append_block_param(entry, t)).collect();
            let (ty, value) = (tys[0], values[0]);
            match self.param_binding(p, ty) {
                Binding::VecReg { id, n, ty: et, bits } => {
                    let parts = self.unpack(value, n, bits);
                    for (c, v) in parts.into_iter().enumerate() {
                        let var = self.elem_var(id, c as u32, et);
                        let v = self.coerce_or_zero(v, et);
                        self.b.def_var(var, v);
                    }
                }
                Binding::Reg(var) | Binding::ParamVar { var, .. } => self.b.def_var(var, value),
                Binding::ParamAggregate { id, .. } => {
                    for (c, (&t, &v)) in tys.iter().zip(&values).enumerate() {
                        let var = self.elem_var(id, c as u32, t);
                        self.b.def_var(var, v);
                    }
                }
                _ => {}
            }
        }
        let mut first = 0;
        for (k, r) in f.returns.iter().enumerate() {
            let parts = sig.return_parts.get(k).copied().unwrap_or(1);
            let Some(tys) = sig.returns.get(first..first + parts) else { continue };
            first += parts;
            match self.param_binding(r, tys[0]) {
                Binding::VecReg { id, n, ty, bits } => self.returns.push(RetSlot::Vec { id, n, ty, bits }),
                Binding::Reg(var) | Binding::ParamVar { var, .. } => self.returns.push(RetSlot::Var(var)),
                Binding::ParamAggregate { id, .. } => {
                    for (c, &t) in tys.iter().enumerate() {
                        let var = self.elem_var(id, c as u32, t);
                        self.returns.push(RetSlot::Var(var));
                    }
                }
                _ => {}
            }
        }
        // Each instruction emitted so far (vector unpacking) belongs to the
        // prologue, not to the first PTX instruction.
        self.emitted.clear();
    }

    /// Declares the variable(s) of a device-function parameter or return
    /// value and binds its name.
    fn param_binding(&mut self, p: &ast::Param, ty: Type) -> Binding {
        let binding = match (p.space, p.vector, p.ty) {
            (StateSpace::Reg, Some(n), VarType::Scalar(t)) if n > 1 => {
                let id = self.new_decl(u32::from(n));
                let et = scalar_value_type(t).unwrap_or(Type::R32);
                Binding::VecReg { id, n, ty: et, bits: t.bits() as u16 }
            }
            (StateSpace::Reg, ..) => Binding::Reg(self.b.declare_var(ty)),
            _ => {
                let size = ty.bits() / 8;
                let size = globals::layout(p.ty, p.vector, p.align, &p.dims, None).map_or(size, |l| l.size as u32);
                if size > AGGREGATE_PART {
                    Binding::ParamAggregate { id: self.new_decl(size.div_ceil(AGGREGATE_PART)), size }
                } else {
                    Binding::ParamVar { var: self.b.declare_var(ty), size }
                }
            }
        };
        self.cx.scope.insert(p.name, binding);
        binding
    }

    /// Numbers a register declaration of `count` elements.
    fn new_decl(&mut self, count: u32) -> u32 {
        // Ranges up to this size get a slot per element (a hostile
        // `%r<4000000000>` falls back to the map).
        const MAX_SLOTS: u32 = 1 << 16;
        let base = if count <= MAX_SLOTS {
            let base = self.slots.len() as u32;
            self.slots.resize(self.slots.len() + count as usize, None);
            base
        } else {
            u32::MAX
        };
        self.bases.push(base);
        self.bases.len() as u32 - 1
    }

    /// The variable of element `index` of range or vector `id`.
    pub fn elem_var(&mut self, id: u32, index: u32, ty: Type) -> Variable {
        let base = self.bases.get(id as usize).copied().unwrap_or(u32::MAX);
        if base != u32::MAX {
            let at = base as usize + index as usize;
            if let Some(&Some(v)) = self.slots.get(at) {
                return v;
            }
            let v = self.b.declare_var(ty);
            if let Some(slot) = self.slots.get_mut(at) {
                *slot = Some(v);
            }
            return v;
        }
        if let Some(&v) = self.elems.get(&(id, index)) {
            return v;
        }
        let v = self.b.declare_var(ty);
        self.elems.insert((id, index), v);
        v
    }

    /// A declaration in the body.
    fn decl(&mut self, d: &ast::VarDecl) -> Result<(), LowerError> {
        let span = d.loc.span();
        for decl in &d.declarators {
            let binding = match d.space {
                StateSpace::Reg => {
                    let VarType::Scalar(t) = d.ty else { return Err(self.error(span, "unsupported in lowering: non-scalar register")) };
                    let ty = scalar_value_type(t).ok_or_else(|| self.error(span, format!("unsupported in lowering: {} register", t.spelling())))?;
                    if self.cx.name_registers {
                        if let Some(code) = crate::cubin::register_maps::type_code(t.spelling().trim_start_matches('.')) {
                            self.reg_types.insert(decl.name, code);
                        }
                    }
                    if !decl.dims.is_empty() {
                        return Err(self.error(decl.loc.span(), "unsupported in lowering: register array"));
                    }
                    match (decl.range, d.vector) {
                        (Some(count), None | Some(1)) => Binding::Range { id: self.new_decl(count), count, ty },
                        (None, Some(n)) if n > 1 => Binding::VecReg { id: self.new_decl(u32::from(n)), n, ty, bits: t.bits() as u16 },
                        (None, _) => Binding::Reg(self.b.declare_var(ty)),
                        // A range of vectors: one vector declaration per
                        // element (numbered consecutively).
                        (Some(count), Some(n)) if count <= 1 << 12 => {
                            let first = self.bases.len() as u32;
                            for _ in 0..count {
                                self.new_decl(u32::from(n));
                            }
                            Binding::VecRange { first, count, n, ty, bits: t.bits() as u16 }
                        }
                        (Some(_), Some(_)) => return Err(self.error(decl.loc.span(), "unsupported in lowering: range of more than 4096 vector registers")),
                    }
                }
                StateSpace::Local => {
                    let l = globals::layout(d.ty, d.vector, d.align, &decl.dims, decl.init.as_ref()).map_err(|m| self.error(decl.loc.span(), m))?;
                    if decl.init.is_some() {
                        return Err(self.error(decl.loc.span(), "unsupported in lowering: initialised .local variable"));
                    }
                    let at = u64::from(self.frame).div_ceil(u64::from(l.align)) * u64::from(l.align);
                    let end = u32::try_from(at + l.size).map_err(|_| self.error(decl.loc.span(), "frame larger than 4 GiB"))?;
                    self.frame = end;
                    Binding::Frame { offset: at as u32 }
                }
                StateSpace::Param | StateSpace::ParamFunc => {
                    let l = globals::layout(d.ty, d.vector, d.align, &decl.dims, None).map_err(|m| self.error(decl.loc.span(), m))?;
                    let size = l.size as u32;
                    if (AGGREGATE_PART + 1..=MAX_AGGREGATE).contains(&size) {
                        Binding::ParamAggregate { id: self.new_decl(size.div_ceil(AGGREGATE_PART)), size }
                    } else {
                        let ty = bytes_value_type(size).ok_or_else(|| self.error(decl.loc.span(), format!("unsupported in lowering: .param variable of {size} bytes (at most {MAX_AGGREGATE} are passed in registers)")))?;
                        Binding::ParamVar { var: self.b.declare_var(ty), size }
                    }
                }
                StateSpace::Global | StateSpace::Const | StateSpace::Shared | StateSpace::SharedCta => {
                    let base = self.cx.m.names.name(decl.name);
                    let name = self.unique_global_name(base);
                    let resolve = |s: ast::Symbol| match self.cx.scope.get(s) {
                        Some(Binding::Global(id)) => self.cx.globals.get(id).map(|g| (id, g.space)),
                        _ => None,
                    };
                    let mut g = globals::global_var(d, decl, name.clone(), &resolve).map_err(|m| self.error(decl.loc.span(), m))?;
                    g.owner = Some(self.fid);
                    self.cx.global_names.insert(name);
                    Binding::Global(self.cx.globals.push(g))
                }
                other => return Err(self.error(span, format!("unsupported in lowering: {} declaration", other.spelling()))),
            };
            self.cx.scope.insert(decl.name, binding);
        }
        Ok(())
    }

    /// A module-unique name for a function-scope variable: its own name if
    /// free, else qualified by the function (and numbered if need be).
    fn unique_global_name(&self, base: &str) -> String {
        if !self.cx.global_names.contains(base) {
            return base.to_string();
        }
        let qualified = format!("{}.{base}", self.name);
        if !self.cx.global_names.contains(&qualified) {
            return qualified;
        }
        (1u32..).map(|n| format!("{qualified}.{n}")).find(|c| !self.cx.global_names.contains(c)).unwrap_or(qualified)
    }

    /// Lowers one instruction; `rest` is what follows it (for the
    /// fall-through of a conditional branch).
    fn inst(&mut self, i: &Instruction, rest: &[Event]) -> Result<(), LowerError> {
        match i.opcode {
            P::Bra => return self.bra(i, rest),
            P::BarrierClusterArrive | P::BarrierClusterWait => return self.cluster_barrier(i),
            P::Ret | P::Exit | P::Trap => {
                let span = i.loc.span();
                self.check_plain_terminator(i)?;
                let op = i.opcode;
                return self.maybe_guarded_terminator(i, rest, move |l| match op {
                    P::Ret => l.ret_terminator(span),
                    P::Exit => {
                        l.b.exit();
                        Ok(())
                    }
                    _ => {
                        l.b.ins(InstData::new(Opcode::Trap, Attrs::default()), &[]);
                        Ok(())
                    }
                });
            }
            _ => {}
        }
        let guard = match &i.guard {
            Some(g) => Some(Guard { pred: self.pred_var_value(g.reg, g.loc.span())?, negated: g.negated }),
            None => None,
        };
        self.body(i)?;
        if let Some(g) = guard {
            self.apply_guard(g)?;
        }
        for (var, v) in std::mem::take(&mut self.pending) {
            if let Some((name, ty)) = self.var_names.get(&var) {
                self.b.func.register_names.push(crate::ir::RegisterName { value: v, name: name.clone(), ty: *ty });
            }
            self.b.def_var(var, v);
        }
        Ok(())
    }

    /// `ret`/`exit`/`trap` take no modifiers but `.uni`.
    fn check_plain_terminator(&self, i: &Instruction) -> Result<(), LowerError> {
        if super::types::attrs(&i.modifiers).is_err() || !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        Ok(())
    }

    /// The value of a predicate register.
    pub fn pred_var_value(&mut self, s: Symbol, span: Span) -> Result<Value, LowerError> {
        let var = self.reg_var(s, None, span)?;
        if self.b.var_type(var) != Type::P {
            return Err(self.error(span, format!("'{}' is not a predicate", self.cx.m.names.name(s))));
        }
        Ok(self.b.use_var(var))
    }

    /// The block control falls through to after a conditional branch: the
    /// next label's block when only declarations stand between, else a new
    /// block (returned with `true`).
    fn fallthrough(&mut self, rest: &[Event]) -> (Block, bool) {
        for e in rest {
            match *e {
                Event::Label(_, n) => {
                    if n != u32::MAX {
                        return (self.label_info[n as usize].block, false);
                    }
                }
                Event::Inst(_) => break,
                _ => {}
            }
        }
        (self.b.create_block(), true)
    }

    /// Continues in the fall-through block after a conditional branch.
    fn enter_fallthrough(&mut self, fall: Block, fresh: bool) {
        if fresh {
            self.b.switch_to_block(fall);
            self.b.seal_block(fall);
            self.open = true;
        } else {
            self.edge(fall);
            self.open = false;
        }
    }

    fn bra(&mut self, i: &Instruction, rest: &[Event]) -> Result<(), LowerError> {
        if super::types::attrs(&i.modifiers).is_err() {
            return Err(self.unsupported(i));
        }
        let ops = self.cx.m.operands(i.operands);
        let target = match (ops.len(), self.branch_label(i)) {
            (1, Some(n)) => self.label_info[n as usize].block,
            _ => return Err(self.error(i.loc.span(), "unsupported in lowering: bra to something other than a label")),
        };
        match &i.guard {
            None => {
                self.b.jump(target, &[]);
                self.edge(target);
                self.open = false;
            }
            Some(g) => {
                let pred = self.pred_var_value(g.reg, g.loc.span())?;
                let (fall, fresh) = self.fallthrough(rest);
                self.b.brif(pred, g.negated, target, &[], fall, &[]);
                self.edge(target);
                self.enter_fallthrough(fall, fresh);
            }
        }
        Ok(())
    }

    /// A terminator, behind a conditional branch to a block of its own when
    /// guarded.
    fn maybe_guarded_terminator(&mut self, i: &Instruction, rest: &[Event], emit: impl FnOnce(&mut Self) -> Result<(), LowerError>) -> Result<(), LowerError> {
        match &i.guard {
            None => {
                emit(self)?;
                self.open = false;
            }
            Some(g) => {
                let pred = self.pred_var_value(g.reg, g.loc.span())?;
                let own = self.b.create_block();
                let (fall, fresh) = self.fallthrough(rest);
                self.b.brif(pred, g.negated, own, &[], fall, &[]);
                self.b.switch_to_block(own);
                self.b.seal_block(own);
                emit(self)?;
                self.enter_fallthrough(fall, fresh);
            }
        }
        Ok(())
    }

    /// `Exit` for a kernel, `Return` with the return values for a device
    /// function.
    fn ret_terminator(&mut self, _span: Span) -> Result<(), LowerError> {
        if self.kernel {
            self.b.exit();
            return Ok(());
        }
        let mut values: SmallVec<[Value; 4]> = SmallVec::new();
        for slot in self.returns.clone() {
            values.push(match slot {
                RetSlot::Var(var) => self.b.use_var(var),
                RetSlot::Vec { id, n, ty, bits } => {
                    let parts: SmallVec<[Value; 4]> = (0..n).map(|c| {
                        let var = self.elem_var(id, u32::from(c), ty);
                        self.b.use_var(var)
                    }).collect();
                    self.pack(&parts, bits)
                }
            });
        }
        self.b.ret(&values);
        Ok(())
    }

    /// Puts the guard on what the instruction emitted, so that where the
    /// guard is false every destination register keeps its old value.
    ///
    /// When one instruction produced every assigned value (the usual
    /// case: `@p add`, `@p ld`), it carries the guard and takes the
    /// registers' old values as `prior`. Otherwise every instruction with
    /// side effects is guarded and each assignment becomes a guarded
    /// `copy` of the new value over the old.
    fn apply_guard(&mut self, g: Guard) -> Result<(), LowerError> {
        let emitted = std::mem::take(&mut self.emitted);
        let pending = std::mem::take(&mut self.pending);
        let single = pending.first().and_then(|&(_, v)| self.b.func.value_inst(v)).filter(|&x| {
            emitted.contains(&x)
                && pending.iter().all(|&(_, v)| self.b.func.value_inst(v) == Some(x))
                && emitted.iter().all(|&e| e == x || !self.b.func.insts[e].opcode.has_side_effects() && self.b.func.insts[e].opcode.class() != crate::ir::Class::Load)
        });
        if let Some(x) = single {
            let results = self.b.func.insts[x].results.clone();
            let mut prior: SmallVec<[Value; 1]> = SmallVec::new();
            for r in results {
                let old = match pending.iter().find(|&&(_, v)| v == r) {
                    Some(&(var, _)) => self.b.use_var(var),
                    None => self.zero_before(x, self.b.func.value_type(r)),
                };
                prior.push(old);
            }
            self.b.set_guard(x, g, &prior);
            self.pending = pending;
            return Ok(());
        }
        for &e in &emitted {
            let op = self.b.func.insts[e].opcode;
            if op.has_side_effects() || op.class() == crate::ir::Class::Load {
                let results = self.b.func.insts[e].results.clone();
                let prior: SmallVec<[Value; 1]> = results.iter().map(|&r| {
                    let ty = self.b.func.value_type(r);
                    self.zero_before(e, ty)
                }).collect();
                self.b.set_guard(e, g, &prior);
            }
        }
        let mut out: SmallVec<[(Variable, Value); 4]> = SmallVec::new();
        for (var, v) in pending {
            let old = self.b.use_var(var);
            let ty = self.b.func.value_type(v);
            let mut data = InstData::new(Opcode::Copy, Attrs::default());
            data.args.push(v);
            let copy = self.b.ins(data, &[ty]);
            self.b.set_guard(copy, g, &[old]);
            out.push((var, self.b.func.insts[copy].results[0]));
        }
        self.pending = out;
        Ok(())
    }

    /// A zero constant placed just before `inst` in the current block (the
    /// `prior` of a guarded result no register receives).
    fn zero_before(&mut self, inst: Inst, ty: Type) -> Value {
        let zero = self.b.func.create_inst(InstData::new(Opcode::Iconst, Attrs::default()), &[ty]);
        if let Some(block) = self.b.current_block() {
            let insts = &mut self.b.func.blocks[block].insts;
            let at = insts.iter().position(|&i| i == inst).unwrap_or(insts.len());
            insts.insert(at, zero);
        }
        self.b.func.insts[zero].results[0]
    }

    /// `call`: arguments from `.param` variables (or registers), results
    /// into them.
    pub fn call(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let span = i.loc.span();
        if super::types::attrs(&i.modifiers).is_err() {
            return Err(self.unsupported(i));
        }
        let m = self.cx.m;
        let ops = m.operands(i.operands);
        let (rets, rest) = match ops.first().map(|o| &o.kind) {
            Some(OperandKind::ParenList(l)) => (m.operands(*l), &ops[1..]),
            _ => (&[][..], ops),
        };
        let callee = match rest.first().map(|o| &o.kind) {
            Some(OperandKind::Name(s, None)) => func_of(self.cx, *s),
            _ => None,
        };
        let Some(callee) = callee else { return self.call_indirect(rets, rest, span) };
        let args = match rest.get(1).map(|o| &o.kind) {
            Some(OperandKind::ParenList(l)) => m.operands(*l),
            None => &[],
            Some(_) => return Err(self.error(span, "unsupported in lowering: call with a prototype")),
        };
        if rest.len() > 2 {
            return Err(self.error(span, "unsupported in lowering: call with a prototype"));
        }
        let sig = self.cx.sigs.get(callee.index()).cloned().unwrap_or_default();
        if args.len() != sig.param_parts.len() || rets.len() != sig.return_parts.len() {
            return Err(self.error(span, "call arguments do not match the callee's parameters"));
        }
        let mut data = InstData::new(Opcode::Call, Attrs::default());
        data.imm = callee.index() as u64;
        let mut first = 0;
        for (a, &parts) in args.iter().zip(&sig.param_parts) {
            let tys = sig.params.get(first..first + parts).unwrap_or_default();
            first += parts;
            if let [ty] = tys {
                let v = self.read_whole(a, *ty)?;
                data.args.push(v);
                continue;
            }
            let id = self.aggregate_operand(a, tys.len())?;
            for (c, &t) in tys.iter().enumerate() {
                let var = self.elem_var(id, c as u32, t);
                let v = self.b.use_var(var);
                data.args.push(v);
            }
        }
        let inst = self.emit(data, &sig.returns);
        let results = self.b.func.insts[inst].results.clone();
        let mut first = 0;
        for (r, &parts) in rets.iter().zip(&sig.return_parts) {
            let values = results.get(first..first + parts).unwrap_or_default();
            first += parts;
            if let [v] = values {
                self.write_whole(r, *v)?;
                continue;
            }
            let id = self.aggregate_operand(r, values.len())?;
            for (c, &v) in values.iter().enumerate() {
                let t = self.b.func.value_type(v);
                let var = self.elem_var(id, c as u32, t);
                self.b.def_var(var, v);
            }
        }
        Ok(())
    }

    /// `call (rets), %rd, (args), proto;` (or with a list of possible
    /// targets instead of the prototype): the value types come from the
    /// argument and result operands (the call sequence's `.param`
    /// variables, whose sizes the prototype repeats), each passed as a
    /// direct call's.
    fn call_indirect(&mut self, rets: &[ast::Operand], rest: &[ast::Operand], span: Span) -> Result<(), LowerError> {
        let m = self.cx.m;
        let (Some(target), Some(OperandKind::ParenList(l)), Some(_)) = (rest.first(), rest.get(1).map(|o| &o.kind), rest.get(2)) else {
            return Err(self.error(span, "unsupported in lowering: indirect call without an argument list and prototype"));
        };
        if rest.len() > 3 {
            return Err(self.error(span, "unsupported in lowering: indirect call form"));
        }
        let address = match &target.kind {
            OperandKind::Name(s, None) => match self.resolve(*s) {
                Some(Binding::Reg(var)) if !self.b.var_type(var).file().is_predicate() => self.b.use_var(var),
                _ => return Err(self.error(target.loc.span(), "the target of an indirect call is not an address register")),
            },
            _ => return Err(self.error(target.loc.span(), "the target of an indirect call is not an address register")),
        };
        let mut data = InstData::new(Opcode::CallIndirect, Attrs::default());
        data.args.push(address);
        for a in m.operands(*l) {
            match self.operand_parts(a)? {
                Parts::One(ty) => {
                    let v = self.read_whole(a, ty)?;
                    data.args.push(v);
                }
                Parts::Aggregate { id, size } => {
                    for c in 0..size.div_ceil(AGGREGATE_PART) {
                        let t = super::types::aggregate_part_type(size, c).unwrap_or(Type::R32);
                        let var = self.elem_var(id, c, t);
                        let v = self.b.use_var(var);
                        data.args.push(v);
                    }
                }
            }
        }
        let mut result_types: SmallVec<[Type; 4]> = SmallVec::new();
        let mut shapes = Vec::with_capacity(rets.len());
        for r in rets {
            let shape = self.operand_parts(r)?;
            match shape {
                Parts::One(ty) => result_types.push(ty),
                Parts::Aggregate { size, .. } => {
                    result_types.extend((0..size.div_ceil(AGGREGATE_PART)).map(|c| super::types::aggregate_part_type(size, c).unwrap_or(Type::R32)));
                }
            }
            shapes.push(shape);
        }
        let inst = self.emit(data, &result_types);
        let results = self.b.func.insts[inst].results.clone();
        let mut first = 0;
        for (r, shape) in rets.iter().zip(shapes) {
            match shape {
                Parts::One(_) => {
                    if let Some(&v) = results.get(first) {
                        self.write_whole(r, v)?;
                    }
                    first += 1;
                }
                Parts::Aggregate { id, size } => {
                    for c in 0..size.div_ceil(AGGREGATE_PART) {
                        let Some(&v) = results.get(first) else { break };
                        first += 1;
                        let t = self.b.func.value_type(v);
                        let var = self.elem_var(id, c, t);
                        self.b.def_var(var, v);
                    }
                }
            }
        }
        Ok(())
    }

    /// How an argument or result operand of an indirect call is passed:
    /// a `.param` variable or register as one value of its size, a
    /// `.param` aggregate in parts.
    fn operand_parts(&mut self, op: &ast::Operand) -> Result<Parts, LowerError> {
        let span = op.loc.span();
        let OperandKind::Name(s, None) = &op.kind else {
            return Err(self.error(span, "unsupported in lowering: an indirect call's argument that is not a name"));
        };
        match self.resolve(*s) {
            Some(Binding::ParamVar { size, .. }) => bytes_value_type(size).map(Parts::One).ok_or_else(|| self.error(span, "a .param argument without a size")),
            Some(Binding::ParamAggregate { id, size }) => Ok(Parts::Aggregate { id, size }),
            Some(Binding::Reg(var)) => Ok(Parts::One(self.b.var_type(var))),
            _ => Err(self.error(span, "unsupported in lowering: an indirect call's argument form")),
        }
    }

    /// The declaration number of the `.param` aggregate a call operand
    /// names, which must have the `parts` parts of the callee's parameter
    /// (the same size up to the last part).
    fn aggregate_operand(&mut self, op: &ast::Operand, parts: usize) -> Result<u32, LowerError> {
        let span = op.loc.span();
        match &op.kind {
            OperandKind::Name(s, None) => match self.resolve(*s) {
                Some(Binding::ParamAggregate { id, size }) if size.div_ceil(AGGREGATE_PART) as usize == parts => Ok(id),
                _ => Err(self.error(span, "a .param aggregate argument or result whose size differs from the callee's")),
            },
            _ => Err(self.error(span, "a .param aggregate is passed or returned through a .param variable")),
        }
    }
}
