//! The pre-pass of the PTX interpreter: turns a checked module into a
//! [`Program`] whose instructions name register slots, label indices,
//! variable indices and function indices instead of symbols, with each
//! instruction's modifiers decoded once into plain fields and flag bits.
//!
//! It also lays out memory: module `.global` variables are allocated in
//! device memory with their initialisers, `.const` variables in one
//! constant bank, `.shared` variables (module and function scope) at fixed
//! offsets of each CTA's shared memory with dynamic `extern .shared` arrays
//! after them, `.local` and in-body `.param` variables at offsets of their
//! function's frame in the thread's local stack.

use super::layout::{LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, CONST_WINDOW};
use crate::diag::Span;
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::interp::memory::GlobalMemory;
use crate::ptx::ast::{
    self, Expr, FunctionKind, Initializer, Item, Module, OperandKind, ScalarType, StateSpace, Statement, Symbol,
    UnaryOp, VarDecl, VarType,
};
use crate::ptx::modifier::{BoolOp, CmpOp, Modifier, Rounding};
use crate::ptx::opcode::Opcode;
use std::collections::HashMap;

/// Keyword modifiers the interpreter reads, as flag bits (index = bit).
pub const WORDS: &[&str] = &[
    ".lo", ".hi", ".wide", ".approx", ".full", ".cc", ".relu", ".NaN", ".xorsign", ".abs", ".clamp", ".wrap", ".l", ".r",
    ".shiftamt", ".up", ".down", ".bfly", ".idx", ".any", ".all", ".uni", ".ballot", ".popc", ".and", ".or", ".xor",
    ".add", ".inc", ".dec", ".cas", ".exch", ".min", ".max", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16", ".to",
    ".satfinite", ".trans", ".x1", ".x2", ".x4", ".finite", ".infinite", ".number", ".m16n8k16", ".m16n8k32", ".m16n8k8",
    ".notanumber", ".shr7", ".shr15", ".sat", ".m16n8k4", ".noftz", ".normal", ".subnormal", ".2d", ".3d",
    ".trap", ".zero", ".1d", ".a1d", ".a2d", ".width", ".height", ".depth", ".b", ".po",
];

/// Flag bit of a keyword in [`WORDS`] (a const so a typo fails to compile
/// through the index, not silently).
pub const fn w(i: usize) -> u128 {
    1u128 << i
}

#[allow(missing_docs)]
pub mod f {
    use super::w;
    pub const LO: u128 = w(0);
    pub const HI: u128 = w(1);
    pub const WIDE: u128 = w(2);
    pub const APPROX: u128 = w(3);
    pub const FULL: u128 = w(4);
    pub const CC: u128 = w(5);
    pub const RELU: u128 = w(6);
    pub const NAN: u128 = w(7);
    pub const XORSIGN: u128 = w(8);
    pub const ABS: u128 = w(9);
    pub const CLAMP: u128 = w(10);
    pub const WRAP: u128 = w(11);
    pub const L: u128 = w(12);
    pub const R: u128 = w(13);
    pub const SHIFTAMT: u128 = w(14);
    pub const UP: u128 = w(15);
    pub const DOWN: u128 = w(16);
    pub const BFLY: u128 = w(17);
    pub const IDX: u128 = w(18);
    pub const ANY: u128 = w(19);
    pub const ALL: u128 = w(20);
    pub const UNI: u128 = w(21);
    pub const BALLOT: u128 = w(22);
    pub const POPC: u128 = w(23);
    pub const AND: u128 = w(24);
    pub const OR: u128 = w(25);
    pub const XOR: u128 = w(26);
    pub const ADD: u128 = w(27);
    pub const INC: u128 = w(28);
    pub const DEC: u128 = w(29);
    pub const CAS: u128 = w(30);
    pub const EXCH: u128 = w(31);
    pub const MIN: u128 = w(32);
    pub const MAX: u128 = w(33);
    pub const F4E: u128 = w(34);
    pub const B4E: u128 = w(35);
    pub const RC8: u128 = w(36);
    pub const ECL: u128 = w(37);
    pub const ECR: u128 = w(38);
    pub const RC16: u128 = w(39);
    pub const TO: u128 = w(40);
    pub const SATFINITE: u128 = w(41);
    pub const TRANS: u128 = w(42);
    pub const X1: u128 = w(43);
    pub const X2: u128 = w(44);
    pub const X4: u128 = w(45);
    pub const FINITE: u128 = w(46);
    pub const INFINITE: u128 = w(47);
    pub const NUMBER: u128 = w(48);
    pub const NOTANUMBER: u128 = w(52);
    pub const NORMAL: u128 = w(58);
    pub const SUBNORMAL: u128 = w(59);
    pub const M16N8K16: u128 = w(49);
    pub const M16N8K32: u128 = w(50);
    pub const M16N8K8: u128 = w(51);
    pub const SHR7: u128 = w(53);
    pub const SHR15: u128 = w(54);
    pub const M16N8K4: u128 = w(56);
    pub const _2D: u128 = w(60);
    pub const _3D: u128 = w(61);
    pub const TRAP: u128 = w(62);
    pub const ZERO: u128 = w(63);
    pub const _1D: u128 = w(64);
    pub const A1D: u128 = w(65);
    pub const A2D: u128 = w(66);
    pub const WIDTH: u128 = w(67);
    pub const HEIGHT: u128 = w(68);
    pub const DEPTH: u128 = w(69);
    pub const B: u128 = w(70);
    pub const PO: u128 = w(71);
}

/// An immediate as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Imm {
    /// An integer (two's complement bits).
    Int(u64),
    /// `0f` single-precision bits.
    F32(u32),
    /// `0d` bits or a decimal literal's f64 value.
    F64(u64),
}

/// Special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Sreg {
    Tid,
    Ntid,
    Ctaid,
    Nctaid,
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    Gridid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    Clock64,
    Globaltimer,
    DynamicSmemSize,
    TotalSmemSize,
    Zero,
    ClusterOne,
}

const SREGS: &[(&str, Sreg)] = &[
    ("%tid", Sreg::Tid),
    ("%ntid", Sreg::Ntid),
    ("%ctaid", Sreg::Ctaid),
    ("%nctaid", Sreg::Nctaid),
    ("%laneid", Sreg::Laneid),
    ("%warpid", Sreg::Warpid),
    ("%nwarpid", Sreg::Nwarpid),
    ("%smid", Sreg::Smid),
    ("%nsmid", Sreg::Nsmid),
    ("%gridid", Sreg::Gridid),
    ("%lanemask_eq", Sreg::LanemaskEq),
    ("%lanemask_le", Sreg::LanemaskLe),
    ("%lanemask_lt", Sreg::LanemaskLt),
    ("%lanemask_ge", Sreg::LanemaskGe),
    ("%lanemask_gt", Sreg::LanemaskGt),
    ("%clock", Sreg::Clock),
    ("%clock_hi", Sreg::Zero),
    ("%clock64", Sreg::Clock64),
    ("%globaltimer", Sreg::Globaltimer),
    ("%globaltimer_lo", Sreg::Globaltimer),
    ("%globaltimer_hi", Sreg::Zero),
    ("%dynamic_smem_size", Sreg::DynamicSmemSize),
    ("%total_smem_size", Sreg::TotalSmemSize),
    ("%aggr_smem_size", Sreg::TotalSmemSize),
    ("%cluster_ctarank", Sreg::Zero),
    ("%cluster_nctarank", Sreg::ClusterOne),
    ("%is_explicit_cluster", Sreg::Zero),
    // A launch without clusters: each CTA is a cluster of one, so the
    // cluster ids and counts are the CTA ids and counts.
    ("%clusterid", Sreg::Ctaid),
    ("%nclusterid", Sreg::Nctaid),
    ("%cluster_ctaid", Sreg::Zero),
    ("%cluster_nctaid", Sreg::ClusterOne),
    ("%reserved_smem_offset_begin", Sreg::Zero),
    ("%reserved_smem_offset_end", Sreg::Zero),
    ("%reserved_smem_offset_cap", Sreg::Zero),
];

/// Where an address operand's base comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Base {
    /// A register's value.
    Reg(u32),
    /// A variable's address.
    Var(u32),
    /// No base (absolute).
    Abs,
}

/// A resolved operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Opnd {
    /// A register slot.
    Reg(u32),
    /// A register slot with a negation (`!p`, `-r`).
    NotPred(u32),
    /// A register slot with a video selector or mask, negated where the
    /// flag says (`vmad`'s `-a.b0`).
    Selected(u32, crate::ptx::ast::VideoSelector, bool),
    /// An immediate.
    Imm(Imm),
    /// A special register with its component (0..3).
    Sreg(Sreg, u8),
    /// A variable's address, plus an offset.
    Var(u32, i64),
    /// `[base + offset]`.
    Addr(Base, i64),
    /// `{a, b, ...}`.
    Vec(Vec<Opnd>),
    /// `(a, b, ...)`.
    List(Vec<Opnd>),
    /// A label: the instruction index it names.
    Label(u32),
    /// A `.branchtargets` list.
    Targets(Vec<u32>),
    /// A function.
    Func(u32),
    /// `p|q`.
    PredPair(u32, u32),
    /// `_`, or something the interpreter does not read.
    Sink,
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    /// The family.
    pub op: Opcode,
    /// `@p` / `@!p`: slot and negation.
    pub guard: Option<(u32, bool)>,
    /// Type modifiers in order.
    pub types: smallvec::SmallVec<[ScalarType; 3]>,
    /// Rounding modifier.
    pub rnd: Option<Rounding>,
    /// Comparison.
    pub cmp: Option<CmpOp>,
    /// Boolean combiner.
    pub bop: Option<BoolOp>,
    /// State space.
    pub space: Option<StateSpace>,
    /// `.vN`.
    pub vec: u8,
    /// `.ftz`.
    pub ftz: bool,
    /// `.sat`.
    pub sat: bool,
    /// Keyword flags ([`f`]).
    pub flags: u128,
    /// Operands.
    pub ops: Vec<Opnd>,
    /// The instruction's source span.
    pub span: Span,
}

impl Inst {
    /// Whether a keyword flag is set.
    #[inline]
    pub fn has(&self, flag: u128) -> bool {
        self.flags & flag != 0
    }
    /// The last type modifier (the instruction type), `.b32` if none.
    #[inline]
    pub fn ty(&self) -> ScalarType {
        self.types.last().copied().unwrap_or(ScalarType::B32)
    }
    /// The `i`-th type modifier, or the last.
    #[inline]
    pub fn ty_at(&self, i: usize) -> ScalarType {
        self.types.get(i).copied().unwrap_or_else(|| self.ty())
    }
}

/// Operand `i` of an instruction, or a malformed-program error (the
/// checker guarantees operand counts; this keeps an unchecked module from
/// panicking the interpreter).
#[inline]
pub fn opn(inst: &Inst, i: usize) -> Result<&Opnd, InterpError> {
    inst.ops.get(i).ok_or_else(|| err(ErrorKind::Malformed, inst.span, format!("{} needs operand {}", inst.op.name(), i + 1)))
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarSpace {
    /// Device memory at an absolute address.
    Global,
    /// The constant bank, at an offset.
    Const,
    /// CTA shared memory, at an offset.
    Shared,
    /// The thread's local memory, at a fixed offset (module-scope `.local`).
    LocalStatic,
    /// The current frame of the thread's local stack, at an offset.
    Frame,
    /// The kernel parameter block, at an offset.
    KernelParam,
}

/// A variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Its space.
    pub space: VarSpace,
    /// Its address or offset in that space.
    pub addr: u64,
    /// Its size in bytes.
    pub size: u64,
}

impl Var {
    /// The space's generic-address window base.
    pub fn window(&self) -> u64 {
        match self.space {
            VarSpace::Global => 0,
            VarSpace::Const => CONST_WINDOW,
            VarSpace::Shared => SHARED_WINDOW,
            VarSpace::LocalStatic | VarSpace::Frame => LOCAL_WINDOW,
            VarSpace::KernelParam => PARAM_WINDOW,
        }
    }
}

/// A parameter or return value of a function.
#[derive(Clone, Debug)]
pub enum ParamLoc {
    /// A `.reg` parameter: its first register slot and how many (a `.vN`
    /// parameter has N).
    Reg(u32, u8),
    /// A `.param` parameter: a variable in the frame (or the kernel block).
    Mem {
        /// The variable.
        var: u32,
        /// Its size.
        size: u64,
    },
}

/// A function.
#[derive(Clone, Debug)]
pub struct Func {
    /// Its name.
    pub name: String,
    /// `.entry`?
    pub entry: bool,
    /// Whether it has a body.
    pub defined: bool,
    /// Parameters.
    pub params: Vec<ParamLoc>,
    /// Return values.
    pub returns: Vec<ParamLoc>,
    /// Register slots it needs.
    pub nregs: u32,
    /// Bytes of its local frame.
    pub frame: u64,
    /// The body.
    pub insts: Vec<Inst>,
    /// Where it is declared.
    pub span: Span,
}

/// A lowered module.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Functions and kernels.
    pub funcs: Vec<Func>,
    /// Every variable.
    pub vars: Vec<Var>,
    /// Bytes of static shared memory (dynamic shared memory starts at
    /// [`Program::dynamic_shared`]).
    pub static_shared: u64,
    /// Offset of `extern .shared` arrays.
    pub dynamic_shared: u64,
    /// The constant bank.
    pub konst: Vec<u8>,
    /// Bytes of module-scope `.local` memory at the start of each thread's stack.
    pub static_local: u64,
    /// Global variables still to initialise: (address, bytes).
    pub global_init: Vec<(u64, Vec<u8>)>,
    /// Kernel parameter block layout of each entry: function index →
    /// offsets of each parameter.
    pub kparam_size: HashMap<u32, u64>,
    /// The module's `.texref` variables: name and variable (an 8-byte
    /// global whose low word the launch sets to the bound texture's handle).
    pub texrefs: Vec<(String, u32)>,
}

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> InterpError {
    InterpError::new(kind, msg).at(Site::Ptx(span))
}

/// Size in bytes of a scalar type as stored in memory.
pub fn type_bytes(t: ScalarType) -> u64 {
    (t.bits() as u64).div_ceil(8).max(1)
}

#[derive(Clone, Copy)]
enum Binding {
    Reg(u32, u8),
    Range(u32, u8),
    Var(u32),
}

/// Lowers `module`, placing its global variables in `memory`.
pub fn lower(module: &Module, memory: &mut GlobalMemory) -> Result<Program, InterpError> {
    let mut lw = Lowerer { m: module, prog: Program::default(), funcs: HashMap::new(), globals: HashMap::new(), memory, global_bytes: 0 };
    // Functions first (so variables' initialisers and call operands can name them).
    for item in &module.items {
        if let Item::Function(fun) = item {
            let name = module.names.name(fun.name).to_string();
            let defined = fun.body.is_some();
            match lw.funcs.get(&fun.name) {
                Some(&i) if lw.prog.funcs[i as usize].defined || !defined => continue,
                Some(&i) => {
                    lw.prog.funcs[i as usize].defined = true;
                }
                None => {
                    lw.funcs.insert(fun.name, lw.prog.funcs.len() as u32);
                    lw.prog.funcs.push(Func {
                        name,
                        entry: fun.kind == FunctionKind::Entry,
                        defined,
                        params: Vec::new(),
                        returns: Vec::new(),
                        nregs: 0,
                        frame: 0,
                        insts: Vec::new(),
                        span: fun.loc.span(),
                    });
                }
            }
        }
    }
    // Module variables.
    let mut pending_inits = Vec::new();
    for item in &module.items {
        if let Item::Variable(d) = item {
            lw.module_var(d, &mut pending_inits)?;
        }
    }
    // Function bodies.
    for item in &module.items {
        if let Item::Function(fun) = item {
            let Some(&idx) = lw.funcs.get(&fun.name) else { continue };
            if fun.body.is_none() && lw.prog.funcs[idx as usize].defined {
                continue;
            }
            lw.function(fun, idx, &mut pending_inits)?;
        }
    }
    lw.prog.dynamic_shared = lw.prog.static_shared.div_ceil(16) * 16;
    let dynamic = lw.prog.dynamic_shared;
    for v in &mut lw.prog.vars {
        if v.space == VarSpace::Shared && v.addr == u64::MAX {
            v.addr = dynamic;
        }
    }
    // Initialisers after every variable has an address.
    for (var, ty, init, span) in pending_inits {
        let bytes = lw.init_bytes(ty, &init, lw.prog.vars[var as usize].size, span)?;
        let v = lw.prog.vars[var as usize].clone();
        match v.space {
            VarSpace::Global => lw.prog.global_init.push((v.addr, bytes)),
            VarSpace::Const => {
                let at = v.addr as usize;
                if let Some(dst) = lw.prog.konst.get_mut(at..at + bytes.len()) {
                    dst.copy_from_slice(&bytes);
                }
            }
            _ => {}
        }
    }
    for (addr, bytes) in std::mem::take(&mut lw.prog.global_init) {
        lw.memory.write(addr, &bytes, 1).map_err(InterpError::from)?;
    }
    Ok(lw.prog)
}

struct Lowerer<'a> {
    m: &'a Module,
    prog: Program,
    funcs: HashMap<Symbol, u32>,
    globals: HashMap<Symbol, u32>,
    memory: &'a mut GlobalMemory,
    global_bytes: u64,
}

type PendingInit = (u32, ScalarType, Initializer, Span);

/// The largest variable the interpreter lays out (keeps a hostile `[1<<60]`
/// declaration from asking for all of memory).
const MAX_VAR_BYTES: u64 = 1 << 26;

impl Lowerer<'_> {
    fn decl_sizes(&self, d: &VarDecl, decl: &ast::Declarator, init_len: Option<u64>) -> Result<(u64, u64, ScalarType), InterpError> {
        let ty = match d.ty {
            VarType::Scalar(t) => t,
            _ => ScalarType::B64,
        };
        let elem = type_bytes(ty) * d.vector.unwrap_or(1) as u64;
        let mut count: u64 = 1;
        for (i, dim) in decl.dims.iter().enumerate() {
            let n = match dim {
                Some(n) => *n,
                None if i == 0 => init_len.unwrap_or(0),
                None => 0,
            };
            count = count.saturating_mul(n);
        }
        let size = elem.saturating_mul(count);
        if size > MAX_VAR_BYTES {
            return Err(err(ErrorKind::Unsupported, decl.loc.span(), format!("variable of {size} bytes is larger than the interpreter lays out")));
        }
        let align = d.align.map(|a| a as u64).unwrap_or(elem).clamp(1, 4096).next_power_of_two();
        Ok((size, align, ty))
    }

    fn init_len(&self, init: &Option<Initializer>) -> Option<u64> {
        match init {
            Some(Initializer::List(items, _)) => Some(items.len() as u64),
            _ => None,
        }
    }

    fn module_var(&mut self, d: &VarDecl, pending: &mut Vec<PendingInit>) -> Result<(), InterpError> {
        for decl in &d.declarators {
            let (size, align, ty) = self.decl_sizes(d, decl, self.init_len(&decl.init))?;
            let id = self.place_static(d.space, size, align, decl.loc.span())?;
            self.globals.insert(decl.name, id);
            if d.ty == VarType::TexRef || d.ty == VarType::SurfRef {
                self.prog.texrefs.push((self.m.names.name(decl.name).to_string(), id));
            }
            if let Some(init) = &decl.init {
                pending.push((id, ty, init.clone(), decl.loc.span()));
            }
        }
        Ok(())
    }

    /// Places a variable that is not per-frame.
    fn place_static(&mut self, space: StateSpace, size: u64, align: u64, span: Span) -> Result<u32, InterpError> {
        let id = self.prog.vars.len() as u32;
        let var = match space {
            StateSpace::Global => {
                self.global_bytes = self.global_bytes.saturating_add(size);
                if self.global_bytes > MAX_VAR_BYTES {
                    return Err(err(ErrorKind::Unsupported, span, "module .global variables larger than the interpreter lays out"));
                }
                let addr = self.memory.allocate(vec![0; size as usize], format!("global var {id}"));
                Var { space: VarSpace::Global, addr, size }
            }
            StateSpace::Const => {
                if self.prog.konst.len() as u64 + size > MAX_VAR_BYTES {
                    return Err(err(ErrorKind::Unsupported, span, "constant bank larger than the interpreter lays out"));
                }
                let at = (self.prog.konst.len() as u64).div_ceil(align) * align;
                self.prog.konst.resize((at + size) as usize, 0);
                Var { space: VarSpace::Const, addr: at, size }
            }
            StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster => {
                if size == 0 {
                    // `extern .shared x[]`: the dynamic shared memory, placed later.
                    Var { space: VarSpace::Shared, addr: u64::MAX, size: 0 }
                } else {
                    let at = self.prog.static_shared.div_ceil(align) * align;
                    self.prog.static_shared = at + size;
                    Var { space: VarSpace::Shared, addr: at, size }
                }
            }
            StateSpace::Local => {
                let at = self.prog.static_local.div_ceil(align) * align;
                self.prog.static_local = at + size;
                Var { space: VarSpace::LocalStatic, addr: at, size }
            }
            _ => return Err(err(ErrorKind::Unsupported, span, format!("module-scope {} variables", space.spelling()))),
        };
        self.prog.vars.push(var);
        Ok(id)
    }

    fn function(&mut self, fun: &ast::Function, idx: u32, pending: &mut Vec<PendingInit>) -> Result<(), InterpError> {
        let mut scope: Vec<HashMap<Symbol, Binding>> = vec![HashMap::new()];
        let mut nregs: u32 = 0;
        let mut frame: u64 = 0;
        let entry = fun.kind == FunctionKind::Entry;
        let mut kparam: u64 = 0;
        let mut params = Vec::new();
        let mut returns = Vec::new();
        let place_param = |this: &mut Self, p: &ast::Param, scope: &mut Vec<HashMap<Symbol, Binding>>, nregs: &mut u32, frame: &mut u64, kparam: &mut u64| -> Result<ParamLoc, InterpError> {
            let ty = match p.ty {
                VarType::Scalar(t) => t,
                _ => ScalarType::B64,
            };
            let elem = type_bytes(ty) * p.vector.unwrap_or(1) as u64;
            let count = p.dims.iter().map(|d| d.unwrap_or(0)).product::<u64>().max(if p.dims.is_empty() { 1 } else { 0 });
            let size = elem.saturating_mul(count).min(MAX_VAR_BYTES);
            let align = p.align.map(|a| a as u64).unwrap_or(elem).clamp(1, 4096).next_power_of_two();
            if p.space == StateSpace::Reg {
                let n = p.vector.unwrap_or(1).max(1);
                let slot = *nregs;
                *nregs += n as u32;
                scope[0].insert(p.name, Binding::Reg(slot, n));
                return Ok(ParamLoc::Reg(slot, n));
            }
            let id = this.prog.vars.len() as u32;
            let var = if entry {
                let at = kparam.div_ceil(align) * align;
                *kparam = at + size;
                Var { space: VarSpace::KernelParam, addr: at, size }
            } else {
                let at = frame.div_ceil(align) * align;
                *frame = at + size;
                Var { space: VarSpace::Frame, addr: at, size }
            };
            this.prog.vars.push(var);
            scope[0].insert(p.name, Binding::Var(id));
            Ok(ParamLoc::Mem { var: id, size })
        };
        for p in fun.params.iter().flatten() {
            params.push(place_param(self, p, &mut scope, &mut nregs, &mut frame, &mut kparam)?);
        }
        for p in &fun.returns {
            returns.push(place_param(self, p, &mut scope, &mut nregs, &mut frame, &mut kparam)?);
        }
        if entry {
            self.prog.kparam_size.insert(idx, kparam);
        }
        let mut insts = Vec::new();
        if let Some(body) = &fun.body {
            // Labels are function-wide: number instructions first.
            let mut labels: HashMap<Symbol, u32> = HashMap::new();
            let mut targets: HashMap<Symbol, Vec<Symbol>> = HashMap::new();
            let mut count = 0u32;
            collect_labels(&body.stmts, &mut labels, &mut targets, &mut count);
            let mut ctx = FnCtx { scope, nregs, frame, labels, targets, ranges: HashMap::new() };
            self.block(&body.stmts, &mut ctx, &mut insts, pending)?;
            nregs = ctx.nregs;
            frame = ctx.frame;
        }
        let f = &mut self.prog.funcs[idx as usize];
        f.params = params;
        f.returns = returns;
        f.nregs = nregs;
        f.frame = frame.div_ceil(16) * 16;
        f.insts = insts;
        f.defined = fun.body.is_some();
        Ok(())
    }

    fn block(&mut self, stmts: &[Statement], ctx: &mut FnCtx, out: &mut Vec<Inst>, pending: &mut Vec<PendingInit>) -> Result<(), InterpError> {
        for s in stmts {
            match s {
                Statement::Variable(d) => self.local_decl(d, ctx, pending)?,
                Statement::Block(b) => {
                    ctx.scope.push(HashMap::new());
                    self.block(&b.stmts, ctx, out, pending)?;
                    ctx.scope.pop();
                }
                Statement::Instruction(i) => {
                    let inst = self.inst(i, ctx)?;
                    out.push(inst);
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn local_decl(&mut self, d: &VarDecl, ctx: &mut FnCtx, pending: &mut Vec<PendingInit>) -> Result<(), InterpError> {
        for decl in &d.declarators {
            match d.space {
                StateSpace::Reg => {
                    let n = d.vector.unwrap_or(1).max(1);
                    let b = match decl.range {
                        Some(count) => Binding::Range(count, n),
                        None => {
                            let slot = ctx.nregs;
                            ctx.nregs += n as u32;
                            Binding::Reg(slot, n)
                        }
                    };
                    if let Some(top) = ctx.scope.last_mut() {
                        top.insert(decl.name, b);
                    }
                }
                StateSpace::Local | StateSpace::Param | StateSpace::ParamFunc => {
                    let (size, align, _) = self.decl_sizes(d, decl, self.init_len(&decl.init))?;
                    let at = ctx.frame.div_ceil(align) * align;
                    ctx.frame = at + size;
                    if ctx.frame > MAX_VAR_BYTES {
                        return Err(err(ErrorKind::Unsupported, decl.loc.span(), "frame larger than the interpreter lays out"));
                    }
                    let id = self.prog.vars.len() as u32;
                    self.prog.vars.push(Var { space: VarSpace::Frame, addr: at, size });
                    if let Some(top) = ctx.scope.last_mut() {
                        top.insert(decl.name, Binding::Var(id));
                    }
                }
                _ => {
                    let (size, align, ty) = self.decl_sizes(d, decl, self.init_len(&decl.init))?;
                    let id = self.place_static(d.space, size, align, decl.loc.span())?;
                    if let Some(init) = &decl.init {
                        pending.push((id, ty, init.clone(), decl.loc.span()));
                    }
                    if let Some(top) = ctx.scope.last_mut() {
                        top.insert(decl.name, Binding::Var(id));
                    }
                }
            }
        }
        Ok(())
    }

    fn lookup(&self, ctx: &mut FnCtx, s: Symbol) -> Option<Binding> {
        for sc in ctx.scope.iter().rev() {
            if let Some(b) = sc.get(&s) {
                return Some(*b);
            }
        }
        // `%r12` of a `%r<N>` range.
        let name = self.m.names.name(s);
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits > 0 && digits < name.len() && digits <= 9 {
            let (prefix, num) = name.split_at(name.len() - digits);
            let n: u32 = num.parse().ok()?;
            // `%r01` is not `%r1`.
            if num.len() > 1 && num.starts_with('0') {
                return None;
            }
            let p = self.m.names.get(prefix)?;
            for sc in ctx.scope.iter().rev() {
                if let Some(&Binding::Range(count, width)) = sc.get(&p) {
                    if n < count {
                        let next = ctx.nregs;
                        let slot = *ctx.ranges.entry(s).or_insert(next);
                        if slot == next {
                            ctx.nregs += width as u32;
                        }
                        return Some(Binding::Reg(slot, width));
                    }
                    return None;
                }
            }
        }
        self.globals.get(&s).map(|&v| Binding::Var(v))
    }

    fn inst(&mut self, i: &ast::Instruction, ctx: &mut FnCtx) -> Result<Inst, InterpError> {
        let span = i.loc.span();
        let guard = match &i.guard {
            Some(g) => match self.lookup(ctx, g.reg) {
                Some(Binding::Reg(slot, _)) => Some((slot, g.negated)),
                _ => return Err(err(ErrorKind::Malformed, span, "guard is not a predicate register")),
            },
            None => None,
        };
        let mut inst = Inst {
            op: i.opcode,
            guard,
            types: smallvec::SmallVec::new(),
            rnd: None,
            cmp: None,
            bop: None,
            space: None,
            vec: 1,
            ftz: false,
            sat: false,
            flags: 0,
            ops: Vec::new(),
            span,
        };
        for (m, _) in &i.modifiers {
            match *m {
                Modifier::Type(t) => inst.types.push(t),
                Modifier::Vector(n) => inst.vec = n,
                Modifier::Space(s) => inst.space = Some(s),
                Modifier::Rounding(r) => inst.rnd = Some(r),
                Modifier::Cmp(c) => inst.cmp = Some(c),
                Modifier::Bool(b) => {
                    inst.bop = Some(b);
                    inst.flags |= match b {
                        BoolOp::And => f::AND,
                        BoolOp::Or => f::OR,
                        BoolOp::Xor => f::XOR,
                    };
                }
                Modifier::Ftz => inst.ftz = true,
                Modifier::Sat => inst.sat = true,
                Modifier::Word(k) => {
                    if let Some(bit) = WORDS.iter().position(|w| *w == k.spelling()) {
                        inst.flags |= 1u128 << bit;
                    }
                }
                Modifier::Sem(_) | Modifier::Scope(_) => {}
            }
        }
        let ops = self.m.operands(i.operands);
        for op in ops {
            let o = self.operand(op, ctx, span)?;
            inst.ops.push(o);
        }
        Ok(inst)
    }

    fn operand(&mut self, op: &ast::Operand, ctx: &mut FnCtx, span: Span) -> Result<Opnd, InterpError> {
        Ok(match &op.kind {
            OperandKind::Name(s, comp) => {
                let c = comp.map_or(0u8, |c| c as u8);
                match self.lookup(ctx, *s) {
                    Some(Binding::Reg(slot, n)) => {
                        if comp.is_some() && n > 1 {
                            Opnd::Reg(slot + (c as u32).min(n as u32 - 1))
                        } else if n > 1 {
                            Opnd::Vec((0..n as u32).map(|k| Opnd::Reg(slot + k)).collect())
                        } else {
                            Opnd::Reg(slot)
                        }
                    }
                    Some(Binding::Var(v)) => Opnd::Var(v, 0),
                    Some(Binding::Range(..)) => return Err(err(ErrorKind::Malformed, span, "a register range used as a register")),
                    None => self.name_operand(*s, c, ctx, span)?,
                }
            }
            OperandKind::NameOffset(s, off) => match self.lookup(ctx, *s) {
                Some(Binding::Var(v)) => Opnd::Var(v, *off),
                Some(Binding::Reg(slot, _)) => Opnd::Addr(Base::Reg(slot), *off),
                _ => match self.funcs.get(s) {
                    Some(&fi) => Opnd::Func(fi),
                    None => return Err(err(ErrorKind::Malformed, span, format!("'{}' is not a variable", self.m.names.name(*s)))),
                },
            },
            OperandKind::NotPred(s) | OperandKind::NegReg(s) => match self.lookup(ctx, *s) {
                Some(Binding::Reg(slot, _)) => Opnd::NotPred(slot),
                _ => return Err(err(ErrorKind::Malformed, span, "negated operand is not a register")),
            },
            OperandKind::Selected(s, sel, neg) => match self.lookup(ctx, *s) {
                Some(Binding::Reg(slot, _)) => Opnd::Selected(slot, *sel, *neg),
                _ => return Err(err(ErrorKind::Malformed, span, "a video selector on a non-register")),
            },
            OperandKind::PredPair(a, b) => {
                let ra = match self.lookup(ctx, *a) {
                    Some(Binding::Reg(slot, _)) => slot,
                    _ => return Err(err(ErrorKind::Malformed, span, "predicate pair names a non-register")),
                };
                let rb = match self.lookup(ctx, *b) {
                    Some(Binding::Reg(slot, _)) => slot,
                    _ => return Err(err(ErrorKind::Malformed, span, "predicate pair names a non-register")),
                };
                Opnd::PredPair(ra, rb)
            }
            OperandKind::Sink => Opnd::Sink,
            OperandKind::Imm(e) => Opnd::Imm(self.imm(e, ctx, span)?),
            OperandKind::Address(a) => {
                let base = match a.base {
                    None => Base::Abs,
                    Some(s) => match self.lookup(ctx, s) {
                        Some(Binding::Reg(slot, _)) => Base::Reg(slot),
                        Some(Binding::Var(v)) => Base::Var(v),
                        _ => return Err(err(ErrorKind::Malformed, span, format!("address base '{}' is not a register or variable", self.m.names.name(s)))),
                    },
                };
                Opnd::Addr(base, a.offset)
            }
            OperandKind::BracketList(l) | OperandKind::Vector(l) => {
                let mut v = Vec::new();
                for o in self.m.operands(*l) {
                    v.push(self.operand(o, ctx, span)?);
                }
                if matches!(op.kind, OperandKind::Vector(_)) {
                    Opnd::Vec(v)
                } else {
                    Opnd::List(v)
                }
            }
            OperandKind::ParenList(l) => {
                let mut v = Vec::new();
                for o in self.m.operands(*l) {
                    v.push(self.operand(o, ctx, span)?);
                }
                Opnd::List(v)
            }
        })
    }

    fn name_operand(&mut self, s: Symbol, comp: u8, ctx: &mut FnCtx, span: Span) -> Result<Opnd, InterpError> {
        if let Some(&l) = ctx.labels.get(&s) {
            return Ok(Opnd::Label(l));
        }
        if let Some(list) = ctx.targets.get(&s) {
            let mut v = Vec::new();
            for t in list {
                match ctx.labels.get(t) {
                    Some(&l) => v.push(l),
                    None => return Err(err(ErrorKind::Malformed, span, "branch target list names an unknown label")),
                }
            }
            return Ok(Opnd::Targets(v));
        }
        if let Some(&fi) = self.funcs.get(&s) {
            return Ok(Opnd::Func(fi));
        }
        let name = self.m.names.name(s);
        if let Some((_, r)) = SREGS.iter().find(|(n, _)| *n == name) {
            return Ok(Opnd::Sreg(*r, comp));
        }
        if name.strip_prefix("%envreg").is_some_and(|n| n.parse::<u32>().is_ok()) || name.starts_with("%pm") {
            return Ok(Opnd::Sreg(Sreg::Zero, 0));
        }
        if name == "WARP_SZ" {
            return Ok(Opnd::Imm(Imm::Int(32)));
        }
        // Anything else (a `.callprototype` label): not read as a value.
        Ok(Opnd::Sink)
    }

    fn imm(&self, e: &Expr, ctx: &mut FnCtx, span: Span) -> Result<Imm, InterpError> {
        Ok(match e {
            Expr::F32(b, _) => Imm::F32(*b),
            Expr::F64(b, _) => Imm::F64(*b),
            Expr::Decimal(b, _) => Imm::F64(*b),
            Expr::Unary(UnaryOp::Neg, inner, _) if matches!(**inner, Expr::F32(..) | Expr::F64(..) | Expr::Decimal(..)) => match self.imm(inner, ctx, span)? {
                Imm::F32(b) => Imm::F32(b ^ 0x8000_0000),
                Imm::F64(b) => Imm::F64(b ^ (1 << 63)),
                Imm::Int(v) => Imm::Int(v.wrapping_neg()),
            },
            _ => {
                let mut resolve = |s: Symbol| -> Option<u64> { self.symbol_value(s, ctx) };
                Imm::Int(eval(e, &mut resolve).ok_or_else(|| err(ErrorKind::Unsupported, span, "constant expression the interpreter cannot evaluate"))?)
            }
        })
    }

    fn symbol_value(&self, s: Symbol, _ctx: &FnCtx) -> Option<u64> {
        let v = self.globals.get(&s)?;
        let var = &self.prog.vars[*v as usize];
        Some(var.addr)
    }

    /// Bytes of an initialiser for a variable of `size` bytes with elements of `ty`.
    fn init_bytes(&self, ty: ScalarType, init: &Initializer, size: u64, span: Span) -> Result<Vec<u8>, InterpError> {
        let mut out = Vec::with_capacity(size as usize);
        let elem = type_bytes(ty) as usize;
        self.flatten_init(ty, elem, init, &mut out, span)?;
        out.resize(size as usize, 0);
        Ok(out)
    }

    fn flatten_init(&self, ty: ScalarType, elem: usize, init: &Initializer, out: &mut Vec<u8>, span: Span) -> Result<(), InterpError> {
        match init {
            Initializer::List(items, _) => {
                for i in items {
                    self.flatten_init(ty, elem, i, out, span)?;
                }
            }
            Initializer::Expr(e) => {
                let bits = match e {
                    Expr::F32(b, _) => float_imm_bits(Imm::F32(*b), ty),
                    Expr::F64(b, _) | Expr::Decimal(b, _) => float_imm_bits(Imm::F64(*b), ty),
                    Expr::Unary(UnaryOp::Neg, inner, _) if matches!(**inner, Expr::F32(..) | Expr::F64(..) | Expr::Decimal(..)) => {
                        let b = match **inner {
                            Expr::F32(b, _) => float_imm_bits(Imm::F32(b), ty),
                            Expr::F64(b, _) | Expr::Decimal(b, _) => float_imm_bits(Imm::F64(b), ty),
                            _ => 0,
                        };
                        b ^ (1u64 << (elem * 8 - 1).min(63))
                    }
                    Expr::Generic(s, _) => {
                        let v = self.globals.get(s).map(|v| &self.prog.vars[*v as usize]);
                        v.map_or(0, |v| v.addr.wrapping_add(v.window()))
                    }
                    _ => {
                        let mut resolve = |s: Symbol| -> Option<u64> {
                            let v = self.globals.get(&s)?;
                            Some(self.prog.vars[*v as usize].addr)
                        };
                        match eval(e, &mut resolve) {
                            Some(v) => {
                                if ty.kind() == ast::TypeKind::Float {
                                    float_imm_bits(Imm::F64((v as i64 as f64).to_bits()), ty)
                                } else {
                                    v
                                }
                            }
                            None => return Err(err(ErrorKind::Unsupported, span, "initialiser the interpreter cannot evaluate")),
                        }
                    }
                };
                out.extend_from_slice(&bits.to_le_bytes()[..elem.min(8)]);
                if elem > 8 {
                    out.resize(out.len() + elem - 8, 0);
                }
            }
        }
        Ok(())
    }
}

/// A float immediate's bits for an instruction or element type `ty`.
pub fn float_imm_bits(imm: Imm, ty: ScalarType) -> u64 {
    use super::float::{self, Mode};
    let v = match imm {
        Imm::Int(v) => return v,
        Imm::F32(b) => {
            if matches!(ty, ScalarType::F32 | ScalarType::B32 | ScalarType::U32 | ScalarType::S32) {
                return b as u64;
            }
            f32::from_bits(b) as f64
        }
        Imm::F64(b) => {
            if ty.bits() == 64 {
                return b;
            }
            f64::from_bits(b)
        }
    };
    match ty {
        ScalarType::F64 => v.to_bits(),
        ScalarType::F16 | ScalarType::F16x2 => float::from_f64(v, float::F16, Mode::Nearest),
        ScalarType::Bf16 | ScalarType::Bf16x2 => float::from_f64(v, float::BF16, Mode::Nearest),
        t if t.bits() == 16 => float::from_f64(v, float::F16, Mode::Nearest),
        _ => float::from_f64(v, float::F32, Mode::Nearest),
    }
}

/// Evaluates an integer constant expression: the front end's folding,
/// with symbols resolved by `resolve` and float literals as their bits.
fn eval(e: &Expr, resolve: &mut dyn FnMut(Symbol) -> Option<u64>) -> Option<u64> {
    crate::ptx::parser::fold_int(e, &mut |leaf| match leaf {
        Expr::F32(b, _) => Some(*b as u64),
        Expr::F64(b, _) | Expr::Decimal(b, _) => Some(*b),
        Expr::Symbol(s, _) | Expr::Generic(s, _) => resolve(*s),
        _ => None,
    })
}

struct FnCtx {
    scope: Vec<HashMap<Symbol, Binding>>,
    nregs: u32,
    frame: u64,
    labels: HashMap<Symbol, u32>,
    targets: HashMap<Symbol, Vec<Symbol>>,
    ranges: HashMap<Symbol, u32>,
}

fn collect_labels(stmts: &[Statement], labels: &mut HashMap<Symbol, u32>, targets: &mut HashMap<Symbol, Vec<Symbol>>, count: &mut u32) {
    for s in stmts {
        match s {
            Statement::Instruction(_) => *count += 1,
            Statement::Label(l, _) => {
                labels.insert(*l, *count);
            }
            Statement::Block(b) => collect_labels(&b.stmts, labels, targets, count),
            Statement::BranchTargets(name, list, _) => {
                targets.insert(*name, list.iter().map(|(s, _)| *s).collect());
            }
            _ => {}
        }
    }
}
