//! PTX → Ori lowering: turns a parsed (and checked) PTX module into raw
//! Ori IR of the PTX opcode layer (DESIGN.md, "The Ori IR").
//!
//! This module owns the translation of PTX's program structure into Ori's:
//!
//! * **SSA** from PTX's mutable registers, through the builder's variables
//!   ([`crate::ir::FunctionBuilder`]): every register (each element of a
//!   `%r<N>` range, each component of a `.vN` register) is a variable; a
//!   guarded instruction's results take the registers' previous values as
//!   `prior` values.
//! * **Control flow** from labels and branches: a block per label, a
//!   fall-through block after each conditional branch, a block for code
//!   after an unconditional terminator; blocks are sealed as soon as their
//!   last predecessor is emitted (the predecessors are counted up front).
//! * **Parameters and state spaces**: kernel parameters are slots of the
//!   parameter block (`Function::params`, natural or `.align` alignment,
//!   offsets from 0) read by `ld.param` with no address; device-function
//!   parameters are the entry block's parameters, and every `.param`
//!   variable of a device function or of a call sequence is a register
//!   variable (`st.param` defines it, `ld.param` reads it, `call` passes and
//!   defines them). Module variables (and function-scope `.shared`,
//!   `.global`, `.const`) become [`crate::ir::GlobalVar`]s; `.local`
//!   variables are slots of the function's frame.
//! * **Special registers**, **calls**, and **`.loc`** positions (with the
//!   PTX line and column when the source text is given) on instructions.
//!
//! Entry points: [`lower_module`] (all or nothing), [`lower_module_with_source`]
//! (the same, with PTX line/column on every instruction), and
//! [`lower_module_partial`], which returns the module with every function
//! that lowered, plus every error (an unsupported instruction does not stop
//! the rest of its function from being examined, so all problems are
//! reported at once). Errors carry the offending instruction's span and
//! render like the front end's diagnostics ([`LowerErrors::render`]).
//! Lowering never panics on any module, checked or not.
//!
//! What it lowers: integer and float arithmetic, logic and shifts, `setp`
//! `set` `selp` `mov` `cvt` `cvta`, `ld`/`st` in every state space, `bra`
//! `ret` `exit` `trap` `call`, special registers and `bar.sync`; the float
//! special functions (`rcp` `sqrt` `rsqrt` `sin` `cos` `lg2` `ex2` `tanh`),
//! `copysign` and `testp`; the integer, bit and carry instructions (module
//! `integer`: `popc` … `lop3`, `add.cc`/`addc` and their kin, the carry
//! flag as a predicate). Every other instruction is an error `unsupported
//! in lowering: <name with modifiers>`.
//! Which modifiers are dropped as mere hints is listed in [`types`].

mod cluster;
mod convert;
mod error;
mod function;
mod globals;
mod integer;
mod matrix;
mod async_copy;
mod mbarrier;
mod memory;
mod names;
mod texture;
mod operands;
mod ops;
mod types;
mod video;
mod warp;
#[cfg(test)]
mod tests;

pub use error::{LowerError, LowerErrors};

use crate::diag::{LineMap, Span};
use crate::ir::entity::{EntityRef, PrimaryMap};
use crate::ir::{self, FuncId, GlobalId, GlobalVar, Param, Type};
use crate::ptx::ast::{self, FunctionKind, Item, StateSpace, Symbol};
use crate::ptx::scopes::ScopedTable;
use crate::target::Sm;
use names::{Binding, NameFacts};
use std::collections::{HashMap, HashSet};

/// The result of [`lower_module_partial`].
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The module. A function whose lowering failed keeps its signature
    /// but has no blocks (it reads as a declaration).
    pub module: ir::Module,
    /// Every problem, in source order per function.
    pub errors: Vec<LowerError>,
}

/// Lowers a module for `sm`. Instructions carry `.loc` positions but no
/// PTX line/column (use [`lower_module_with_source`] for those).
pub fn lower_module(module: &ast::Module, sm: Sm) -> Result<ir::Module, LowerErrors> {
    finish(lower_module_partial(module, sm, None))
}

/// Lowers a module parsed from `source`, recording each instruction's PTX
/// line and column in its [`ir::SrcLoc`].
pub fn lower_module_with_source(module: &ast::Module, sm: Sm, source: &str) -> Result<ir::Module, LowerErrors> {
    finish(lower_module_partial(module, sm, Some(source)))
}

fn finish(l: Lowered) -> Result<ir::Module, LowerErrors> {
    if l.errors.is_empty() { Ok(l.module) } else { Err(LowerErrors { errors: l.errors }) }
}

/// Lowers every function it can; see [`Lowered`].
pub fn lower_module_partial(module: &ast::Module, sm: Sm, source: Option<&str>) -> Lowered {
    lower_with(module, sm, source, true)
}

/// [`lower_module_partial`] that also records, in each function's
/// [`ir::Function::register_names`], the PTX register every assigned value
/// is for (`-g`'s register maps).
pub fn lower_module_naming_registers(module: &ast::Module, sm: Sm, source: Option<&str>) -> Lowered {
    lower_inner(module, sm, source, true, true)
}

/// Lowering with blocks sealed as soon as their predecessors are known
/// (`seal_early`) or all at the end; both give the same IR (the builder
/// removes the redundant parameters the late form makes). Kept for the
/// measurement in the lowering benchmark.
#[doc(hidden)]
pub fn lower_with(module: &ast::Module, sm: Sm, source: Option<&str>, seal_early: bool) -> Lowered {
    lower_inner(module, sm, source, seal_early, false)
}

fn lower_inner(module: &ast::Module, sm: Sm, source: Option<&str>, seal_early: bool, name_registers: bool) -> Lowered {
    let mut cx = ModuleCx {
        name_registers,
        sm,
        m: module,
        facts: NameFacts::new(&module.names),
        scope: ScopedTable::new(module.names.len()),
        funcs: vec![None; module.names.len()],
        sigs: Vec::new(),
        globals: PrimaryMap::new(),
        global_names: HashSet::new(),
        lines: source.map(|s| (LineMap::new(s), s)),
        seal_early,
        errors: Vec::new(),
        inline_chains: Vec::new(),
        inline_chain_ids: HashMap::new(),
        texrefs: Vec::new(),
        surfrefs: Vec::new(),
    };
    let mut out = ir::Module::new(sm);
    cx.scope.push_scope();
    // Functions first: calls and variables may name any of them.
    for item in &module.items {
        if let Item::Function(f) = item {
            cx.register_function(f, &mut out);
        }
    }
    for item in &module.items {
        match item {
            Item::Variable(d) => cx.module_variable(d),
            Item::Alias(a) => cx.errors.push(LowerError {
                span: a.loc.span(),
                function: String::new(),
                message: "unsupported in lowering: .alias".into(),
            }),
            _ => {}
        }
    }
    let mut done = vec![false; out.functions.len()];
    for item in &module.items {
        let Item::Function(f) = item else { continue };
        let (Some(body), Some(fid)) = (&f.body, cx.funcs.get(f.name.0 as usize).copied().flatten()) else { continue };
        if std::mem::replace(&mut done[fid.index()], true) {
            continue;
        }
        let mut func = std::mem::take(&mut out.functions[fid]);
        let errors = function::lower_function(&mut cx, f, body, fid, &mut func);
        if !errors.is_empty() {
            // Keep the signature; drop the half-built body.
            let mut shell = ir::Function::new(func.name.clone(), func.kind.unwrap_or(ir::FunctionKind::Device));
            shell.params = std::mem::take(&mut func.params);
            shell.returns = std::mem::take(&mut func.returns);
            shell.bounds = std::mem::take(&mut func.bounds);
            func = shell;
            cx.errors.extend(errors);
        }
        out.functions[fid] = func;
    }
    out.globals = std::mem::take(&mut cx.globals);
    out.inline_chains = std::mem::take(&mut cx.inline_chains);
    out.texrefs = cx.texrefs.iter().map(|(_, n)| n.clone()).collect();
    out.surfrefs = cx.surfrefs.iter().map(|(_, n)| n.clone()).collect();
    Lowered { module: out, errors: cx.errors }
}

/// A function's signature in value types.
#[derive(Clone, Debug, Default)]
struct Sig {
    /// Value types of the arguments, every part of an aggregate one.
    params: Vec<Type>,
    /// Value types of the results, likewise.
    returns: Vec<Type>,
    /// How many of `params` each PTX parameter takes.
    param_parts: Vec<usize>,
    /// How many of `returns` each PTX return value takes.
    return_parts: Vec<usize>,
    /// An `.entry` (whose address PTX code cannot take).
    kernel: bool,
}

/// Module-wide state of one lowering.
struct ModuleCx<'a> {
    m: &'a ast::Module,
    /// The target (lowering is the same for every SM but where an
    /// expansion would accept what the target lacks).
    sm: Sm,
    facts: NameFacts,
    /// Name bindings: module variables at depth 1, function bodies inside.
    scope: ScopedTable<Binding>,
    /// The function each symbol names.
    funcs: Vec<Option<FuncId>>,
    /// Signatures by function index.
    sigs: Vec<Sig>,
    globals: PrimaryMap<GlobalId, GlobalVar>,
    global_names: HashSet<String>,
    lines: Option<(LineMap, &'a str)>,
    seal_early: bool,
    errors: Vec<LowerError>,
    /// The module's `.texref` variables: their symbols and names.
    texrefs: Vec<(ast::Symbol, String)>,
    /// The module's `.surfref` variables, likewise.
    surfrefs: Vec<(ast::Symbol, String)>,
    /// Chains of `inlined_at` call sites, each once ([`ir::Module::inline_chains`]).
    inline_chains: Vec<crate::ir::function::InlineChain>,
    inline_chain_ids: HashMap<crate::ir::function::InlineChain, u32>,
    /// Record the PTX register of each assigned value
    /// ([`ir::Function::register_names`]).
    name_registers: bool,
}

impl ModuleCx<'_> {
    fn module_error(&mut self, span: Span, message: String) {
        self.errors.push(LowerError { span, function: String::new(), message });
    }

    /// Adds a function's shell (name, kind, parameters, returns) the first
    /// time its name is seen.
    fn register_function(&mut self, f: &ast::Function, out: &mut ir::Module) {
        let Some(slot) = self.funcs.get(f.name.0 as usize) else { return };
        if slot.is_some() {
            return;
        }
        let name = self.m.names.name(f.name).to_string();
        let kernel = f.kind == FunctionKind::Entry;
        let mut func = ir::Function::new(name.clone(), if kernel { ir::FunctionKind::Kernel } else { ir::FunctionKind::Device });
        let mut sig = Sig { kernel, ..Sig::default() };
        let mut offset: u64 = 0;
        for p in f.params.iter().flatten() {
            match param_layout(p, kernel) {
                Ok((size, align, tys)) => {
                    let at = offset.div_ceil(u64::from(align)) * u64::from(align);
                    offset = at + u64::from(size);
                    let at = u32::try_from(at).unwrap_or(u32::MAX);
                    let pname = self.m.names.name(p.name);
                    if tys.len() == 1 {
                        func.params.push(Param { name: pname.to_string(), size, align, offset: at, pointer: p.ptr.is_some() });
                    } else {
                        // An aggregate: one parameter per 16-byte part.
                        for k in 0..tys.len() as u32 {
                            let part = types::AGGREGATE_PART;
                            let bytes = size.saturating_sub(k * part).min(part);
                            func.params.push(Param { name: format!("{pname}.{k}"), size: bytes, align: align.min(part), offset: at.saturating_add(k * part), pointer: false });
                        }
                    }
                    sig.param_parts.push(tys.len());
                    sig.params.extend(tys);
                }
                Err(msg) => self.errors.push(LowerError { span: p.loc.span(), function: name.clone(), message: msg }),
            }
        }
        if kernel && f.params.iter().flatten().any(|p| p.space == StateSpace::Reg) {
            self.errors.push(LowerError { span: f.name_loc.span(), function: name.clone(), message: "kernel parameters must be .param".into() });
        }
        for r in &f.returns {
            match param_layout(r, false) {
                Ok((_, _, tys)) => {
                    sig.return_parts.push(tys.len());
                    sig.returns.extend(tys);
                }
                Err(msg) => self.errors.push(LowerError { span: r.loc.span(), function: name.clone(), message: msg }),
            }
        }
        func.returns = sig.returns.clone();
        func.bounds = bounds(&f.directives);
        let id = out.functions.push(func);
        self.sigs.push(sig);
        if let Some(slot) = self.funcs.get_mut(f.name.0 as usize) {
            *slot = Some(id);
        }
    }

    /// A module-scope variable declaration.
    fn module_variable(&mut self, d: &ast::VarDecl) {
        for decl in &d.declarators {
            let name = self.m.names.name(decl.name).to_string();
            // A texture reference has no storage of its own: the driver
            // fills a constant-bank word of each kernel that fetches
            // through it (`texture`).
            if d.ty == ast::VarType::TexRef && decl.dims.is_empty() && decl.init.is_none() {
                self.texrefs.push((decl.name, name));
                continue;
            }
            // A surface reference likewise (`surface`).
            if d.ty == ast::VarType::SurfRef && decl.dims.is_empty() && decl.init.is_none() {
                self.surfrefs.push((decl.name, name));
                continue;
            }
            let resolve = |s: ast::Symbol| match self.scope.get(s) {
                Some(Binding::Global(id)) => self.globals.get(id).map(|g| (id, g.space)),
                _ => None,
            };
            match globals::global_var(d, decl, name.clone(), &resolve) {
                Ok(g) => {
                    self.global_names.insert(name);
                    let id = self.globals.push(g);
                    self.scope.insert(decl.name, Binding::Global(id));
                }
                Err(msg) => self.module_error(decl.loc.span(), msg),
            }
        }
    }
}

/// Size, alignment and value types of a parameter or return value (a
/// kernel parameter stays in memory: its value type is not used); a
/// `.param` aggregate of more than 16 bytes has one type per part.
fn param_layout(p: &ast::Param, kernel: bool) -> Result<(u32, u32, Vec<Type>), String> {
    let l = globals::layout(p.ty, p.vector, p.align, &p.dims, None)?;
    let size = u32::try_from(l.size).unwrap_or(u32::MAX);
    let tys = if kernel {
        Some(vec![Type::R32])
    } else if p.space == StateSpace::Reg {
        types::value_type(l.elem.bits() * u32::from(p.vector.unwrap_or(1).max(1))).map(|t| vec![t])
    } else {
        types::param_part_types(size)
    };
    let tys = tys.ok_or_else(|| format!("unsupported in lowering: parameter of {size} bytes (at most {} are passed in registers)", types::MAX_AGGREGATE))?;
    Ok((size, l.align, tys))
}

fn bounds(directives: &[ast::FunctionDirective]) -> ir::LaunchBounds {
    let dims = |v: &[u32]| {
        let mut d = [1u32; 3];
        for (slot, &x) in d.iter_mut().zip(v) {
            *slot = x;
        }
        d
    };
    let mut b = ir::LaunchBounds::default();
    for d in directives {
        match d {
            ast::FunctionDirective::MaxNtid(v, _) => b.max_ntid = Some(dims(v)),
            ast::FunctionDirective::ReqNtid(v, _) => b.req_ntid = Some(dims(v)),
            ast::FunctionDirective::MinNctaPerSm(n, _) => b.min_ctas_per_sm = Some(*n),
            ast::FunctionDirective::MaxNreg(n, _) => b.max_regs = Some(*n),
            _ => {}
        }
    }
    b
}

/// The symbol's function, if it names one.
fn func_of(cx: &ModuleCx, s: Symbol) -> Option<FuncId> {
    cx.funcs.get(s.0 as usize).copied().flatten()
}
