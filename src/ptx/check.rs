//! The PTX checker: the rules `ptxas` enforces before code generation.
//!
//! * module header: `.version` first and supported, `.target` next and
//!   allowed by that version and by `-arch`;
//! * names: every register, variable, label and function used is declared
//!   (functions and module variables before use, as `ptxas` requires), no
//!   duplicate definitions in one scope;
//! * instructions: the operand count and kinds of the opcode table's
//!   signature, PTX's type-compatibility rules for registers and immediates
//!   (strict for arithmetic, relaxed by size for `ld`/`st`/`cvt`), the
//!   modifiers each family requires or forbids, and the PTX version and
//!   target each instruction and modifier needs.
//!
//! Messages follow `ptxas`'s wording where it has one, so people who know
//! `ptxas` recognise them.

use super::ast::*;
use super::lookup::headmemo::{HeadKey, HeadMemo, Needs};
use super::lookup::namekey::{NameKey, same_name};
use super::lookup::sigplan::{PLAN_OPS, SigPlan, Slot};
use super::lookup::strindex::StrIndex;
use super::modifier::{CmpOp, Keyword, Modifier, Rounding};
use super::opcode::Opcode;
use super::scopes::ScopedTable;
use super::signature::{Role, Signature, signatures};
use crate::diag::{Diagnostics, Span};
use crate::target::Sm;
use std::cell::Cell;
use std::collections::HashMap as StdHashMap;

type HashMap<K, V> = StdHashMap<K, V, FxBuild>;

/// Highest PTX ISA version accepted (what `ptxas` 13.5 accepts).
pub const MAX_PTX_VERSION: (u8, u8) = (9, 5);

/// Options of the checker.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// The `-arch` SM; `.target` may not exceed it.
    pub arch: Option<Sm>,
    /// Whether every called function must be defined (code generation;
    /// `ptxas -arch=compute_XX` only parses and does not resolve calls).
    pub resolve_calls: bool,
}

/// Checks a parsed module. Returns the warnings on success and all
/// diagnostics (errors and warnings) on failure.
pub fn check(m: &Module, opts: &CheckOptions) -> Result<Diagnostics, Diagnostics> {
    let (split, sreg) = name_facts(&m.names);
    let mut c = Checker {
        memo: MEMO.with(Cell::take).unwrap_or_else(|| Box::new(HeadMemo::new())),
        m,
        opts,
        diags: Diagnostics::new(),
        module_syms: vec![None; m.names.len()],
        locals: ScopedTable::new(m.names.len()),
        ranges: ScopedTable::new(m.names.len()),
        labels: vec![None; m.names.len()],
        label_blocks: 0,
        label_list: Vec::with_capacity(64),
        defined: Default::default(),
        split,
        sreg,
        warp_sz: m.names.get("WARP_SZ"),
        mods: ModSummary::EMPTY,
        resolved: [OperandType::Unknown; MAX_RESOLVED],
        in_entry: false,
        kernel_params: Vec::new(),
        extern_funcs: Default::default(),
        signatures_of: HashMap::default(),
        loc_positions: Default::default(),
        version: m.version.map_or((0, 0), |v| v.pair()),
        target: m.target.as_ref().and_then(|t| t.sm()).unwrap_or(Sm::new(0)),
    };
    c.header();
    if !c.diags.has_errors() {
        c.items();
    }
    MEMO.with(|cell| cell.set(Some(c.memo)));
    if c.diags.has_errors() { Err(c.diags) } else { Ok(c.diags) }
}

thread_local! {
    /// The head memo between checks (see [`super::lookup::headmemo`]): a
    /// check takes it and puts it back, so that one module's heads speed up
    /// the next module's at no thread-local access per instruction.
    static MEMO: Cell<Option<Box<HeadMemo<ModSummary>>>> = const { Cell::new(None) };
}

/// What a name stands for.
#[derive(Clone, Copy, Debug)]
enum Entity {
    /// A `.reg` variable.
    Reg(VarInfo),
    /// An addressable variable (`.global`, `.shared`, `.const`, `.local`, `.param`).
    Var(VarInfo),
    /// A function.
    Func,
    /// A label (branch target, `.branchtargets`/`.calltargets`/`.callprototype` name).
    Label,
}

#[derive(Clone, Copy, Debug)]
struct VarInfo {
    space: StateSpace,
    ty: VarType,
    vector: Option<u8>,
    dims: Option<u64>,
}

struct Checker<'m> {
    m: &'m Module,
    /// Heads whose head-only rules passed, with their modifier summaries.
    memo: Box<HeadMemo<ModSummary>>,
    opts: &'m CheckOptions,
    diags: Diagnostics,
    /// Module-scope variables and functions, by symbol.
    module_syms: Vec<Option<Entity>>,
    /// Names declared in the function's scopes (parameters, variables).
    locals: ScopedTable<Entity>,
    /// `%r<N>` declarations in the function's scopes: prefix → (count, info).
    ranges: ScopedTable<(u32, VarInfo)>,
    /// The labels of the function being checked, by symbol.
    /// (and the number of the `{ }` block that defines it last).
    labels: Vec<Option<(Span, u32)>>,
    /// `{ }` blocks numbered so far, for [`Self::labels`].
    label_blocks: u32,
    /// The symbols set in `labels` (to clear them for the next function).
    label_list: Vec<Symbol>,
    /// For each interned name `%r12`: the prefix `%r` (if interned) and 12.
    split: Vec<Option<(Symbol, u32)>>,
    /// For each interned name, its special-register type if it is one.
    sreg: Vec<Option<(ScalarType, bool)>>,
    /// The symbol `WARP_SZ`, if the module uses it.
    warp_sz: Option<Symbol>,
    /// The modifiers of the instruction being checked.
    mods: ModSummary,
    /// The types of the first [`MAX_RESOLVED`] operands of the instruction
    /// being checked (see `resolve`).
    resolved: [OperandType; MAX_RESOLVED],
    /// Functions whose body was seen.
    defined: std::collections::HashSet<Symbol, FxBuild>,
    version: (u8, u8),
    target: Sm,
    /// Whether the function being checked is a kernel.
    in_entry: bool,
    /// The parameters of the kernel being checked.
    kernel_params: Vec<Symbol>,
    /// Byte sizes of each function's return and parameter lists.
    /// (The declaration itself: the sizes are worked out only for calls,
    /// which are few next to the functions declared.)
    signatures_of: HashMap<Symbol, &'m Function>,
    /// The positions (file, line, column) of the `.loc` directives so far,
    /// in the module's text order: an `inlined_at` must name one of them
    /// (ptxas: "Source location F L C used in inlined_at directive must be
    /// used in a preceding .loc directive").
    loc_positions: std::collections::HashSet<(u32, u32, u32), FxBuild>,
    /// `.extern .func` declarations without a body so far.
    extern_funcs: std::collections::HashSet<Symbol, FxBuild>,
}

/// The type an operand has, as far as type checking cares.
#[derive(Clone, Copy, Debug, PartialEq)]
enum OperandType {
    /// A register or special register of this type.
    Reg(ScalarType),
    /// A vector register (`.reg .v4 .u32 v`) used whole.
    VecReg(ScalarType, u8),
    /// A special register that `ptxas` also accepts as 16 bits (`%tid` & co.).
    LegacySreg,
    /// Integer literal.
    IntImm,
    /// `0f`/`0d` literal, of 32 or 64 bits.
    HexFloatImm(u16),
    /// Decimal float literal.
    DecFloatImm,
    /// Address of a variable, `generic(v)`, or a symbol expression (an integer of the address size).
    Address,
    /// A label or function name.
    Label,
    /// `_`.
    Sink,
    /// Anything this checker does not type (bracket lists, unknown names already reported).
    Unknown,
}

/// How many operand types an instruction keeps from name resolution (more
/// operands, as `mma` has, are typed again when needed).
const MAX_RESOLVED: usize = 8;

/// The type of a name that means `e`, with vector component `comp`.
fn entity_type(e: Option<Entity>, comp: Option<Component>) -> OperandType {
    match e {
        Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), vector: Some(n), .. })) => {
            if comp.is_some() { OperandType::Reg(t) } else { OperandType::VecReg(t, n) }
        }
        Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) => OperandType::Reg(t),
        Some(Entity::Var(_)) | Some(Entity::Func) => OperandType::Address,
        Some(Entity::Label) => OperandType::Label,
        _ => OperandType::Unknown,
    }
}

/// What an instruction's modifiers say, gathered in one pass so that the
/// rules (and the per-operand type checks) do not rescan them.
#[derive(Clone, Copy, Debug)]
struct ModSummary {
    /// The first eight type modifiers, in order.
    type_buf: [ScalarType; 8],
    /// How many of `type_buf` are set.
    kept_types: u8,
    /// How many type modifiers there are (may exceed eight).
    ntypes: u8,
    /// The `.vN` modifier.
    vector: Option<u8>,
    /// The first state-space modifier.
    space: Option<StateSpace>,
    /// The first rounding modifier.
    rounding: Option<Rounding>,
    /// The first comparison.
    cmp: Option<CmpOp>,
    /// Whether a boolean combining operator is given.
    boolop: bool,
    /// `.ftz`.
    ftz: bool,
    /// `.sat`.
    sat: bool,
    /// The rule words present ([`APPROX`], [`FULL`], ...).
    words: u8,
    /// How many rounding, comparison and state-space modifiers there are.
    nrounding: u8,
    ncmp: u8,
    nspace: u8,
    /// Whether some modifier other than a type or space is given twice
    /// (then `modifier_counts` finds which).
    repeated: bool,
    /// The signature check planned for the head, once it has passed (see
    /// [`super::lookup::sigplan`]).
    plan: Option<SigPlan>,
}

impl ModSummary {
    const EMPTY: ModSummary = ModSummary {
        type_buf: [ScalarType::Pred; 8],
        kept_types: 0,
        ntypes: 0,
        vector: None,
        space: None,
        rounding: None,
        cmp: None,
        boolop: false,
        ftz: false,
        sat: false,
        words: 0,
        nrounding: 0,
        ncmp: 0,
        nspace: 0,
        repeated: false,
        plan: None,
    };

    fn of(i: &Instruction) -> ModSummary {
        let mut s = ModSummary::EMPTY;
        let bits = word_bits();
        // Modifiers other than types and spaces seen so far, to notice a
        // repeated one without comparing every pair (the rare repeat is
        // then located by `modifier_counts`).
        let mut seen: [Modifier; 8] = [Modifier::Ftz; 8];
        let mut nseen = 0;
        for (m, _) in &i.modifiers {
            match *m {
                Modifier::Type(t) => {
                    if let Some(slot) = s.type_buf.get_mut(usize::from(s.kept_types)) {
                        *slot = t;
                        s.kept_types += 1;
                    }
                    s.ntypes = s.ntypes.saturating_add(1);
                    continue;
                }
                Modifier::Space(sp) => {
                    s.space = s.space.or(Some(sp));
                    s.nspace = s.nspace.saturating_add(1);
                    continue;
                }
                Modifier::Vector(n) => s.vector = s.vector.or(Some(n)),
                Modifier::Rounding(r) => {
                    s.rounding = s.rounding.or(Some(r));
                    s.nrounding = s.nrounding.saturating_add(1);
                }
                Modifier::Cmp(c) => {
                    s.cmp = s.cmp.or(Some(c));
                    s.ncmp = s.ncmp.saturating_add(1);
                }
                Modifier::Bool(_) => s.boolop = true,
                Modifier::Ftz => s.ftz = true,
                Modifier::Sat => s.sat = true,
                Modifier::Word(k) => s.words |= bits.get(k.0 as usize).copied().unwrap_or(0),
                Modifier::Sem(_) | Modifier::Scope(_) => {}
            }
            if nseen == seen.len() || seen[..nseen].contains(m) {
                s.repeated = true;
            } else {
                seen[nseen] = *m;
                nseen += 1;
            }
        }
        s
    }

    fn types(&self) -> &[ScalarType] {
        &self.type_buf[..usize::from(self.kept_types)]
    }

    /// Whether a rule word ([`APPROX`], [`FULL`], ...) is present.
    fn has(&self, word: u8) -> bool {
        self.words & word != 0
    }
}

/// How strictly a register must match the instruction type.
#[derive(Clone, Copy, PartialEq)]
enum Policy {
    /// Arithmetic: same size; kinds per PTX's rules.
    Strict,
    /// `ld`, `st`, `cvt`: integer registers may be wider than the type.
    Relaxed,
}

/// Special registers with a fixed name: (name, type, legacy 16-bit access allowed).
const SPECIAL_REGISTERS: &[(&str, ScalarType, bool)] = &[
    ("%tid", ScalarType::U32, true),
    ("%ntid", ScalarType::U32, true),
    ("%ctaid", ScalarType::U32, true),
    ("%nctaid", ScalarType::U32, true),
    ("%laneid", ScalarType::U32, false),
    ("%warpid", ScalarType::U32, false),
    ("%nwarpid", ScalarType::U32, false),
    ("%smid", ScalarType::U32, false),
    ("%nsmid", ScalarType::U32, false),
    ("%lanemask_eq", ScalarType::U32, false),
    ("%lanemask_le", ScalarType::U32, false),
    ("%lanemask_lt", ScalarType::U32, false),
    ("%lanemask_ge", ScalarType::U32, false),
    ("%lanemask_gt", ScalarType::U32, false),
    ("%clock", ScalarType::U32, false),
    ("%clock_hi", ScalarType::U32, false),
    ("%globaltimer_lo", ScalarType::U32, false),
    ("%globaltimer_hi", ScalarType::U32, false),
    ("%total_smem_size", ScalarType::U32, false),
    ("%dynamic_smem_size", ScalarType::U32, false),
    ("%aggr_smem_size", ScalarType::U32, false),
    ("%cluster_ctarank", ScalarType::U32, false),
    ("%cluster_nctarank", ScalarType::U32, false),
    ("%clusterid", ScalarType::U32, false),
    ("%nclusterid", ScalarType::U32, false),
    ("%cluster_ctaid", ScalarType::U32, false),
    ("%cluster_nctaid", ScalarType::U32, false),
    ("%gridid", ScalarType::U64, false),
    ("%clock64", ScalarType::U64, false),
    ("%globaltimer", ScalarType::U64, false),
    ("%current_graph_exec", ScalarType::U64, false),
    ("%is_explicit_cluster", ScalarType::Pred, false),
    ("%reserved_smem_offset_begin", ScalarType::B32, false),
    ("%reserved_smem_offset_end", ScalarType::B32, false),
    ("%reserved_smem_offset_cap", ScalarType::B32, false),
];

/// The type of a special register (and whether `ptxas` also accepts it as
/// 16 bits), or `None` when `name` is not one.
fn special_register(name: &str) -> Option<(ScalarType, bool)> {
    static FIXED: std::sync::OnceLock<StrIndex<(ScalarType, bool)>> = std::sync::OnceLock::new();
    let fixed = FIXED.get_or_init(|| StrIndex::new(SPECIAL_REGISTERS.iter().map(|&(n, t, l)| (n, (t, l)))));
    if let Some(found) = fixed.get(name) {
        return Some(found);
    }
    // Numbered families: %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31,
    // %reserved_smem_offset_<n>.
    if let Some(n) = name.strip_prefix("%pm") {
        if let Some(k) = n.strip_suffix("_64") {
            return (k.len() == 1 && k.as_bytes()[0].is_ascii_digit() && k < "8").then_some((ScalarType::U64, false));
        }
        return (n.len() == 1 && n.as_bytes()[0].is_ascii_digit() && n < "8").then_some((ScalarType::U32, false));
    }
    if let Some(n) = name.strip_prefix("%envreg") {
        if let Ok(k) = n.parse::<u32>() {
            if k < 32 && !n.starts_with('0') || n == "0" {
                return Some((ScalarType::B32, false));
            }
        }
        return None;
    }
    if let Some(n) = name.strip_prefix("%reserved_smem_offset_") {
        if n.parse::<u32>().is_ok() {
            return Some((ScalarType::B32, false));
        }
    }
    None
}

impl<'m> Checker<'m> {
    fn name(&self, s: Symbol) -> &'m str {
        self.m.names.name(s)
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        if self.diags.error_count() < 100 {
            self.diags.error(span, msg);
        }
    }

    // ---- header -------------------------------------------------------

    fn header(&mut self) {
        let Some(v) = self.m.version else {
            self.error(Span::new(0, 0), "missing .version directive at start of file");
            return;
        };
        let first_item_start = self.m.items.first().map(|i| item_span(i).start).unwrap_or(u32::MAX);
        let tgt_start = self.m.target.as_ref().map_or(u32::MAX, |t| t.loc.0.start);
        if v.loc.0.start > tgt_start || v.loc.0.start > first_item_start {
            self.error(v.loc.0, "missing .version directive at start of file");
            return;
        }
        if v.pair() > MAX_PTX_VERSION || v.major < 1 {
            self.error(
                v.loc.0,
                format!(
                    "unsupported .version {}.{}; current version is '{}.{}'",
                    v.major, v.minor, MAX_PTX_VERSION.0, MAX_PTX_VERSION.1
                ),
            );
            return;
        }
        let Some(t) = &self.m.target else {
            self.error(v.loc.0, "missing .target directive at start of file");
            return;
        };
        if t.loc.0.start > first_item_start {
            self.error(t.loc.0, "missing .target directive at start of file");
            return;
        }
        let Some(sm) = t.sm() else {
            self.error(t.loc.0, ".target must name an SM (sm_XX)");
            return;
        };
        if let Some(req) = min_ptx_for_sm(sm) {
            if v.pair() < req {
                self.error(t.loc.0, format!("PTX .version {}.{} does not support .target {sm}", v.major, v.minor));
            }
        }
        if let Some(arch) = self.opts.arch {
            if sm.number > arch.number {
                self.error(
                    t.loc.0,
                    format!(".target {sm} is higher than the architecture given by -arch ({arch})"),
                );
            }
        }
        if let Some((_, loc)) = self.m.address_size {
            if v.pair() < (2, 3) {
                self.error(loc.0, "feature '.address_size directive' requires PTX ISA .version 2.3 or later");
            }
        }
    }

    // ---- module items ------------------------------------------------

    fn items(&mut self) {
        for item in &self.m.items {
            match item {
                Item::Variable(v) => {
                    self.check_var_decl(v);
                    for d in &v.declarators {
                        let info = VarInfo { space: v.space, ty: v.ty, vector: v.vector, dims: total_elems(&d.dims) };
                        let slot = &mut self.module_syms[d.name.0 as usize];
                        if slot.replace(Entity::Var(info)).is_some() && v.linkage != Linkage::Extern {
                            let n = self.name(d.name);
                            self.error(d.loc.0, format!("duplicate definition of variable '{n}'"));
                        }
                    }
                }
                Item::Function(f) => self.function(f),
                Item::Alias(a) => {
                    if !matches!(self.module_syms[a.aliasee.0 as usize], Some(Entity::Func)) {
                        let n = self.name(a.aliasee);
                        self.error(a.loc.0, format!("unknown function '{n}' in .alias"));
                    }
                    self.module_syms[a.alias.0 as usize] = Some(Entity::Func);
                }
                Item::Section(sec) => self.section(sec),
                Item::File(_) | Item::Pragma(_) => {}
            }
        }
    }

    /// Integer data in a `.section` must fit its `.bN` width.
    fn section(&mut self, sec: &Section) {
        for e in &sec.entries {
            let SectionEntry::Data(width, values, _) = e else { continue };
            for v in values {
                if let Some(x) = super::parser::eval_int(v) {
                    let fits = *width == 64 || {
                        let signed = x as i64;
                        let max = 1i64 << width;
                        (0..max).contains(&signed) || (-(max / 2)..0).contains(&signed)
                    };
                    if !fits {
                        self.error(v.span(), format!("value out of range for type .b{width} {}", x as i64));
                    }
                }
            }
        }
    }

    fn check_var_decl(&mut self, v: &VarDecl) {
        if let Some(msg) = declared_type_error(v.ty, v.space) {
            self.error(v.loc.0, msg);
        }
        if v.ty == VarType::Scalar(ScalarType::Pred) && v.space != StateSpace::Reg {
            for d in &v.declarators {
                let n = self.name(d.name);
                self.error(d.loc.0, format!("predicate variable '{n}' must be in register state space"));
            }
        }
        if let Some(n) = v.vector {
            if !matches!(n, 2 | 4) && !(n == 8 && self.target.number >= 100) {
                self.error(v.loc.0, format!("illegal vector size: {n}"));
            }
        }
        if v.space == StateSpace::Reg {
            for d in &v.declarators {
                if d.init.is_some() {
                    self.error(d.loc.0, "registers cannot be initialised");
                }
            }
        }
        if v.ty == VarType::Scalar(ScalarType::B128) {
            self.requirement(v.loc.0, || "Type .b128".to_string(), (8, 3), 0);
        }
        // Only an `.extern` array may leave its size open (or zero), and
        // only its outermost one; an initialiser gives the size.
        if v.linkage != Linkage::Extern {
            for d in &v.declarators {
                let open = |n: &Option<u64>| n.is_none_or(|n| n == 0);
                if d.dims.iter().skip(1).any(open) {
                    self.error(d.loc.0, "array of incomplete type");
                } else if d.dims.first().is_some_and(open) && d.init.is_none() {
                    let n = self.name(d.name);
                    self.error(d.loc.0, format!("non-external variable '{n}' has incomplete type"));
                }
            }
        }
    }

    fn function(&mut self, f: &'m Function) {
        self.signatures_of.insert(f.name, f);
        let name = self.name(f.name);
        let has_body = f.body.is_some();
        match self.module_syms[f.name.0 as usize] {
            Some(Entity::Func) if has_body && self.defined_bodies_contains(f.name) => {
                self.error(f.name_loc.0, format!("duplicate definition of function '{name}'"));
            }
            Some(Entity::Var(_)) => {
                self.error(f.name_loc.0, format!("'{name}' is already defined as a variable"));
            }
            _ => {}
        }
        self.module_syms[f.name.0 as usize] = Some(Entity::Func);
        if has_body {
            self.mark_defined(f.name);
            self.extern_funcs.remove(&f.name);
        } else if f.linkage == Linkage::Extern && !SYSTEM_FUNCTIONS.contains(&self.name(f.name)) {
            self.extern_funcs.insert(f.name);
        }
        if f.kind == FunctionKind::Entry {
            if let Some(d) = f.directives.iter().find(|d| matches!(d, FunctionDirective::NoReturn(_))) {
                if let FunctionDirective::NoReturn(loc) = d {
                    self.error(loc.0, ".noreturn is only allowed on .func");
                }
            }
        }
        let Some(body) = &f.body else { return };
        self.in_entry = f.kind == FunctionKind::Entry;
        // Reused between functions: one allocation per check, not per function.
        self.kernel_params.clear();
        self.kernel_params.extend(f.params.iter().flatten().map(|p| p.name));
        self.locals.push_scope();
        self.ranges.push_scope();
        if f.kind == FunctionKind::Entry {
            for p in f.params.iter().flatten().filter(|p| p.space != StateSpace::Param) {
                let n = self.name(p.name);
                self.error(p.loc.0, format!("entry parameter '{n}' must have .param state space"));
            }
        }
        for p in f.returns.iter().chain(f.params.iter().flatten()) {
            if let Some(msg) = declared_type_error(p.ty, p.space) {
                self.error(p.loc.0, msg);
            }
            if p.ty == VarType::Scalar(ScalarType::Pred) && p.space != StateSpace::Reg {
                let n = self.name(p.name);
                self.error(p.loc.0, format!("predicate variable '{n}' must be in register state space"));
            }
            let info = VarInfo { space: p.space, ty: p.ty, vector: p.vector, dims: total_elems(&p.dims) };
            let ent = if p.space == StateSpace::Reg { Entity::Reg(info) } else { Entity::Var(info) };
            self.declare(p.name, ent, p.loc.0, None);
        }
        for s in self.label_list.drain(..) {
            self.labels[s.0 as usize] = None;
        }
        self.collect_labels(body);
        self.block(body);
        self.locals.pop_scope();
        self.ranges.pop_scope();
    }

    fn defined_bodies_contains(&self, name: Symbol) -> bool {
        self.defined.contains(&name)
    }
    fn mark_defined(&mut self, name: Symbol) {
        self.defined.insert(name);
    }

    /// Records the labels of `b` and of the blocks in it. A label is
    /// scoped to its `{ }` block, as a variable is (ptxas accepts the same
    /// label in two blocks: LLVM's NVPTX back end writes `waitLoop:` once
    /// per inline-assembly statement, each in its own block), so only a
    /// second definition in one block is an error. (Which of two scoped
    /// definitions a branch reaches is the lowering's to resolve.)
    fn collect_labels(&mut self, b: &Block) {
        self.label_blocks += 1;
        let here = self.label_blocks;
        for s in &b.stmts {
            let (name, loc) = match s {
                Statement::Label(n, loc) => (*n, loc.0),
                Statement::BranchTargets(n, _, loc) | Statement::CallTargets(n, _, loc) => (*n, loc.0),
                Statement::CallPrototype(p) => (p.name, p.loc.0),
                Statement::Block(inner) => {
                    self.collect_labels(inner);
                    continue;
                }
                _ => continue,
            };
            self.label_list.push(name);
            if self.labels[name.0 as usize].replace((loc, here)).is_some_and(|(_, block)| block == here) {
                let n = self.name(name);
                self.error(loc, format!("duplicate definition of label '{n}'"));
            }
        }
    }

    fn declare(&mut self, name: Symbol, ent: Entity, span: Span, range: Option<u32>) {
        let dup = match (range, ent) {
            (Some(n), Entity::Reg(info)) => !self.ranges.insert(name, (n, info)),
            _ => !self.locals.insert(name, ent),
        };
        if dup {
            let n = self.name(name);
            let shown = if range.is_some() { format!("{n}<") } else { n.to_string() };
            self.error(span, format!("duplicate definition of variable '{shown}'"));
        }
    }

    /// What a name means here: a name declared in an open scope, else a
    /// register of a `%r<N>` range, else a label, else a module symbol.
    // Always inlined: every operand name is looked up, usually hitting
    // the first or second table.
    #[inline(always)]
    fn lookup(&self, s: Symbol) -> Option<Entity> {
        if let Some(e) = self.locals.get(s) {
            return Some(e);
        }
        if let Some((p, n)) = self.split[s.0 as usize] {
            if let Some((count, info)) = self.ranges.get(p) {
                if n < count {
                    return Some(Entity::Reg(info));
                }
            }
        }
        if self.labels[s.0 as usize].is_some() {
            return Some(Entity::Label);
        }
        self.module_syms[s.0 as usize]
    }

    /// The special register a symbol names, if any.
    fn special_register(&self, s: Symbol) -> Option<(ScalarType, bool)> {
        self.sreg[s.0 as usize]
    }

    // ---- statements ---------------------------------------------------

    fn block(&mut self, b: &'m Block) {
        for s in &b.stmts {
            match s {
                Statement::Variable(v) => {
                    self.check_var_decl(v);
                    for d in &v.declarators {
                        let info = VarInfo { space: v.space, ty: v.ty, vector: v.vector, dims: total_elems(&d.dims) };
                        let ent = if v.space == StateSpace::Reg { Entity::Reg(info) } else { Entity::Var(info) };
                        self.declare(d.name, ent, d.loc.0, d.range);
                    }
                }
                Statement::Block(inner) => {
                    self.locals.push_scope();
                    self.ranges.push_scope();
                    self.block(inner);
                    self.locals.pop_scope();
                    self.ranges.pop_scope();
                }
                Statement::Instruction(i) => self.instruction(i),
                Statement::BranchTargets(_, ts, _) => {
                    for (t, loc) in ts {
                        if self.labels[t.0 as usize].is_none() {
                            let n = self.name(*t);
                            self.error(loc.0, format!("unknown symbol '{n}'"));
                        }
                    }
                }
                Statement::CallTargets(_, ts, _) => {
                    for (t, loc) in ts {
                        if !matches!(self.module_syms[t.0 as usize], Some(Entity::Func)) {
                            let n = self.name(*t);
                            self.error(loc.0, format!("unknown function '{n}'"));
                        }
                    }
                }
                Statement::Loc(l) => {
                    if let Some((file, line, column)) = l.inlined_at.filter(|site| !self.loc_positions.contains(site)) {
                        self.error(l.loc.span(), format!("source location {file} {line} {column} used in inlined_at is not that of a preceding .loc directive"));
                    }
                    self.loc_positions.insert((l.file, l.line, l.column));
                }
                Statement::Label(..) | Statement::Pragma(_) | Statement::CallPrototype(_) => {}
            }
        }
    }

    // ---- instructions ---------------------------------------------------

    fn instruction(&mut self, i: &'m Instruction) {
        let op = i.opcode;
        // A head seen before whose head-only rules passed skips them (they
        // would pass again). Calls' rules read the callee's declaration, and
        // `vote` is refused from a version and target upward (the memo
        // holds only rules that a newer module also passes), so neither is
        // memoised.
        let mixed_precision = matches!(op, Opcode::Add | Opcode::Sub | Opcode::Fma)
            && i.modifiers.iter().filter(|(m, _)| matches!(m, crate::ptx::modifier::Modifier::Type(_))).count() == 2;
        // Nor are the mixed-precision `add/sub/fma.f32.f16` forms: they need
        // sm_100 where the family needs less.
        // `setmaxnreg` needs an architecture-specific target, which the
        // memo (keyed by the SM number) cannot tell apart, and its count
        // is checked with the head.
        let key = if matches!(op, Opcode::Call | Opcode::Vote | Opcode::Setmaxnreg) || mixed_precision {
            None
        } else {
            HeadKey::new(op, i.operands.len(), &i.modifiers)
        };
        let known = key.as_ref().and_then(|k| self.memo.get(k, self.version, self.target.number));
        self.mods = known.unwrap_or_else(|| ModSummary::of(i));
        let head_ok = known.is_some();
        // Errors reported by head-only rules (a head with any is not memoised).
        let mut head_errors = 0;
        if let Some(g) = i.guard {
            match self.lookup(g.reg) {
                Some(Entity::Reg(VarInfo { ty: VarType::Scalar(ScalarType::Pred), .. })) => {}
                None => {
                    let n = self.name(g.reg);
                    self.error(g.loc.0, format!("unknown symbol '{n}'"));
                }
                _ => self.error(g.loc.0, "predicate expression expected"),
            }
        }
        if !head_ok {
            let before = self.diags.error_count();
            self.head_requirements(i);
            self.modifier_counts(i);
            head_errors += self.diags.error_count() - before;
        }
        // Names used as operands must be declared; each operand's type is
        // worked out in the same lookup, for the signature check below.
        let operands = self.m.operands(i.operands);
        for (k, o) in operands.iter().enumerate() {
            let t = self.resolve(o, op);
            if let Some(slot) = self.resolved.get_mut(k) {
                *slot = t;
            }
        }
        if self.diags.error_count() >= 100 {
            return;
        }
        self.operand_rules(i, head_ok, &mut head_errors);
        if matches!(op, Opcode::Discard | Opcode::Applypriority) {
            self.line_size_rule(i);
        }
        if matches!(op, Opcode::Add | Opcode::Min | Opcode::Max) {
            self.lane_pair_operands(i);
        }
        if op == Opcode::Pmevent {
            self.event_operand(i);
        }
        if !head_ok {
            let before = self.diags.error_count();
            self.family_rules(i);
            head_errors += self.diags.error_count() - before;
        }
        self.signature(i, head_ok, &mut head_errors);
        // Below the error limit no error went unrecorded, so the count is exact.
        if let Some(k) = key {
            if !head_ok && head_errors == 0 && self.diags.error_count() < 100 {
                self.memo.insert(k, head_needs(i), self.mods);
            }
        }
    }

    /// `discard` and `applypriority` take one L2 line: their size operand
    /// is 128 (ptxas 13.5: `Argument 2 of instruction 'discard':
    /// unexpected value '64', expected to be 128`). An operand rule, run
    /// for every instruction (the head memo does not see operands).
    fn line_size_rule(&mut self, i: &Instruction) {
        if let [_, size] = self.m.operands(i.operands)
            && let OperandKind::Imm(e) = &size.kind
            && let Some(n) = super::parser::eval_int(e)
            && n != 128
        {
            let name = i.opcode.name();
            self.error(size.loc.0, format!("Argument 2 of instruction '{name}': unexpected value '{n}', expected to be 128"));
        }
    }

    /// `pmevent`'s operand is an immediate: an event from 0 to 15, or with
    /// `.mask` a mask from 0 to 0xffff (ptxas 13.5: `Arguments mismatch
    /// for instruction 'pmevent'` for a register, `value '16' out of
    /// range` for an event past 15).
    fn event_operand(&mut self, i: &Instruction) {
        let [op] = self.m.operands(i.operands) else { return };
        let OperandKind::Imm(e) = &op.kind else {
            self.error(i.loc.0, "Arguments mismatch for instruction 'pmevent'");
            return;
        };
        let masked = i.modifiers.iter().any(|(m, _)| m.spelling() == ".mask");
        let top = if masked { 0xffff } else { 15 };
        if let Some(n) = super::parser::eval_int(e)
            && !(0..=top).contains(&n)
        {
            self.error(op.loc.0, format!("Argument 0 of instruction 'pmevent': value '{}' out of range, expected to be in 0..{top}", n as i64));
        }
    }

    /// `add/min/max` of 16-bit lane pairs (`u16x2`, `s16x2`) take
    /// registers only (ptxas 13.5: `Arguments mismatch for instruction
    /// 'max'` for an immediate).
    fn lane_pair_operands(&mut self, i: &Instruction) {
        if !matches!(self.mods.types().last(), Some(ScalarType::U16x2 | ScalarType::S16x2)) {
            return;
        }
        if self.m.operands(i.operands).iter().skip(1).any(|o| matches!(o.kind, OperandKind::Imm(_))) {
            let name = i.opcode.name();
            self.error(i.loc.0, format!("Arguments mismatch for instruction '{name}'"));
        }
    }

    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 n`, with ptxas 13.5's
    /// messages: an architecture-specific or family target (`sm_90a`,
    /// `sm_100f`; plain `sm_90` and `sm_100` refuse it), one direction,
    /// `.aligned`, and a constant count that is a multiple of 8 in
    /// 24..=256.
    fn register_count_rules(&mut self, i: &Instruction) {
        let span = i.opcode_loc.0;
        let has = |w: &str| i.modifiers.iter().any(|(m, _)| m.spelling() == w);
        let name = match (has(".inc"), has(".dec")) {
            (true, false) => "setmaxnreg.inc",
            (false, true) => "setmaxnreg.dec",
            _ => {
                self.error(span, "instruction 'setmaxnreg' needs exactly one of '.inc' and '.dec'");
                return;
            }
        };
        if self.target.number >= 90 && self.target.variant == crate::target::SmVariant::Base {
            self.error(span, format!("instruction '{name}' not supported on .target 'sm_{}' (needs an architecture-specific target such as sm_90a)", self.target.number));
        }
        if !has(".aligned") {
            self.error(span, format!(".aligned modifier required for instruction '{name}'"));
        }
        if !has(".sync") {
            self.error(span, format!(".sync modifier required for instruction '{name}'"));
        }
        let operands = self.m.operands(i.operands);
        let count = match operands {
            [o] => match &o.kind {
                OperandKind::Imm(e) => super::parser::eval_int(e).map(|v| (v, o.loc.0)),
                _ => None,
            },
            _ => None,
        };
        match count {
            None => self.error(i.loc.0, format!("arguments mismatch for instruction '{name}'")),
            Some((n, at)) if !(24..=256).contains(&n) => {
                self.error(at, format!("argument 1 of instruction '{name}': value '{}' out of range, expected to be in range [24..256]", n as i64));
            }
            Some((n, at)) if n % 8 != 0 => self.error(at, format!("argument 1 of instruction '{name}': unexpected value '{n}', expected to be multiple of 8")),
            Some(_) => {}
        }
    }

    /// Version and target requirements of the family and of its modifiers.
    fn head_requirements(&mut self, i: &Instruction) {
        let op = i.opcode;
        let info = op.info();
        let opname = op.name();
        self.requirement(i.opcode_loc.0, || format!("instruction '{opname}'"), info.min_ptx, info.min_sm);
        let (reqs, highest) = modifier_requirements(op);
        // Most modules are new enough for every modifier of the family: skip the search.
        if !reqs.is_empty() && (self.version < highest.0 || self.target.number < highest.1) {
            for (m, loc) in &i.modifiers {
                if let Some((_, ptx, sm)) = reqs.iter().find(|(r, _, _)| r == m) {
                    let sp = m.spelling();
                    self.requirement(loc.0, || format!("modifier '{sp}' of '{opname}'"), *ptx, *sm);
                }
            }
        }
    }

    /// Duplicated modifiers (but [`REPEATABLE_FLAGS`]) and more than one of
    /// a kind that allows one.
    fn modifier_counts(&mut self, i: &Instruction) {
        let mods = self.mods;
        if mods.repeated {
            for (k, (m, loc)) in i.modifiers.iter().enumerate() {
                // Flags ptxas 13.5 takes twice (`add.sat.sat`, `sub.cc.cc`,
                // `sqrt.approx.approx`); it refuses a second `.ftz`,
                // `.volatile`, `.nc` and the like.
                if matches!(m, Modifier::Type(_) | Modifier::Space(_)) || REPEATABLE_FLAGS.contains(&m.spelling()) {
                    continue;
                }
                if i.modifiers[..k].iter().any(|(x, _)| x == m) {
                    self.error(loc.0, format!("duplicate {} modifier", m.spelling()));
                }
            }
        }
        let span = i.opcode_loc.0;
        if mods.nrounding > 1 {
            self.error(span, "multiple rounding modifiers specified");
        }
        if mods.ncmp > 1 {
            self.error(span, "multiple comparisons set");
        }
        // `cvta.to.global`, `isspacep.global`, `ld.global`: one space at most
        // (`cp.async`-style copies name a destination and a source space).
        if mods.nspace > 1 && !traits(i.opcode).two_spaces_ok {
            let opname = i.opcode.name();
            self.error(span, format!("unexpected number of state spaces specified in instruction '{opname}'"));
        }
    }

    /// Destination operands must be writable registers; memory operands must
    /// name memory of the instruction's state space. (`head_ok` and
    /// `head_errors` as in `instruction`.)
    fn operand_rules(&mut self, i: &Instruction, head_ok: bool, head_errors: &mut usize) {
        let opname = i.opcode.name();
        let space = self.mods.space;
        let operands = self.m.operands(i.operands);
        let writes_first = traits(i.opcode).writes_first && operands.len() >= 2;
        if writes_first {
            if let Some(o) = operands.first() {
                match &o.kind {
                    OperandKind::Imm(_) | OperandKind::NotPred(_) => self.error(o.loc.0, format!("result register required for instruction '{opname}'")),
                    OperandKind::Name(s, _) if self.special_register(*s).is_some() => {
                        self.error(o.loc.0, "read-only special register cannot be destination argument")
                    }
                    // A variable's name (`add.u64 sh, ...`) is an address,
                    // not a place to write.
                    OperandKind::Name(..) if matches!(self.resolved_type(operands, 0), OperandType::Address) => {
                        self.error(o.loc.0, format!("argument 0 of instruction '{opname}': must be register"))
                    }
                    _ => {}
                }
            }
        }
        let op = i.opcode;
        if !head_ok {
            if self.mods.has(NC) && space != Some(StateSpace::Global) {
                self.error(i.opcode_loc.0, "modifier '.nc' requires .global space");
                *head_errors += 1;
            }
            if op == Opcode::Cvta && self.mods.has(TO) && space.is_none() {
                self.error(i.opcode_loc.0, format!("state space modifier required for instruction '{opname}'"));
                *head_errors += 1;
            }
        }
        if operands.iter().any(|o| matches!(o.kind, OperandKind::Selected(..))) {
            self.video_selectors(i, operands);
        }
        // Operand types were resolved with the names (`resolve`).
        for (k, o) in operands.iter().enumerate() {
            if matches!(o.kind, OperandKind::NotPred(_)) && matches!(self.resolved_type(operands, k), OperandType::Reg(t) if t != ScalarType::Pred) {
                self.error(o.loc.0, "illegal argument to predicate negation");
            }
        }
        if operands.iter().any(|o| matches!(o.kind, OperandKind::NegReg(_) | OperandKind::Selected(_, _, true))) {
            self.operand_negations(i, operands);
        }
        self.barrier_operands(i, operands);
        if op == Opcode::Cvt {
            // Four f32 go to a packed x4 type as one vector source, and only
            // there (ptxas 13.5: "Arguments mismatch" both ways).
            let types = self.mods.types();
            let x4 = matches!(types.first(), Some(ScalarType::E4m3x4 | ScalarType::E5m2x4 | ScalarType::E2m1x4 | ScalarType::E3m2x4 | ScalarType::E2m3x4));
            if let Some(source) = operands.get(1) {
                if matches!(source.kind, OperandKind::Vector(_)) != x4 {
                    self.error(i.loc.0, format!("arguments mismatch for instruction '{opname}'"));
                }
            }
        }
        if !matches!(op, Opcode::Ld | Opcode::St | Opcode::Ldu | Opcode::Atom | Opcode::Red | Opcode::Prefetch) {
            return;
        }
        for o in operands {
            let b = match &o.kind {
                OperandKind::Address(Address { base: Some(b), .. }) => b,
                // ptxas 13.5: "Immediate addresses allowed only for .local
                // state space" (`ld.shared.u32 r, [16]` included).
                OperandKind::Address(Address { base: None, .. }) if space != Some(StateSpace::Local) => {
                    self.error(o.loc.0, "immediate addresses allowed only for .local state space");
                    continue;
                }
                _ => continue,
            };
            match self.lookup(*b) {
                Some(Entity::Var(info)) => {
                    let var_space = info.space;
                    let matches_space = match space {
                        None => var_space != StateSpace::Param,
                        Some(s) => same_space(s, var_space),
                    };
                    if !matches_space {
                        self.error(o.loc.0, format!("state space mismatch between instruction and address in instruction '{opname}'"));
                    } else if op == Opcode::St && var_space == StateSpace::Param && self.is_kernel_param(*b) {
                        let n = self.name(*b);
                        self.error(o.loc.0, format!("illegal to write to function input parameter '{n}'"));
                    }
                }
                Some(Entity::Func) | Some(Entity::Label) => {
                    let n = self.name(*b);
                    self.error(o.loc.0, format!("illegal to use symbol '{n}' as address operand"));
                }
                _ => {}
            }
        }
    }

    /// A CTA barrier's constant operands, as ptxas 13.5 checks them: the
    /// barrier number in 0..=15 and the thread count a multiple of 32.
    fn barrier_operands(&mut self, i: &Instruction, operands: &[Operand]) {
        use Opcode as O;
        let (id, count) = match i.opcode {
            O::BarSync | O::BarArrive | O::BarCtaSync | O::BarCtaArrive | O::BarrierSync | O::BarrierArrive | O::BarrierCtaSync | O::BarrierCtaArrive => (0, Some(1)),
            // `bar.red.op.type d, a{, b}, {!}c`.
            O::BarRed | O::BarCtaRed | O::BarrierRed | O::BarrierCtaRed => (1, (operands.len() == 4).then_some(2)),
            _ => return,
        };
        let constant = |o: Option<&Operand>| match o.map(|o| &o.kind) {
            Some(OperandKind::Imm(e)) => super::parser::eval_int(e),
            _ => None,
        };
        // ptxas 13.5 compares the low 32 bits (it takes 2^32 and 2^63 as
        // barrier 0) and prints the whole value (`-1` as 2^64 - 1).
        if let Some(n) = constant(operands.get(id)) {
            if n as u32 > 15 {
                self.error(i.loc.0, format!("barrier number '{n}' out of range, expected to be in range [0..15]"));
            }
        }
        if let Some(n) = count.and_then(|k| constant(operands.get(k))) {
            if n as u32 % 32 != 0 {
                self.error(i.loc.0, "number of threads participating in barrier must be in multiple of warp size");
            }
        }
    }

    /// Negated register operands (`-%r`), as ptxas 13.5 takes them: only
    /// of a 32-bit integer register ("Illegal argument to unary minus"
    /// for a float, 16- or 64-bit one, on any instruction and in any
    /// place), only in `vmad` (every other instruction: "Operand negation
    /// not allowed"), there only on the sources, and not on both the
    /// product (`a` xor `b` negated) and `c`, nor with `.po`. Video selectors' own
    /// negation rule is [`Self::video_selectors`]'.
    fn operand_negations(&mut self, i: &Instruction, operands: &[Operand]) {
        let opname = i.opcode.name();
        let mut negated = [false; 4];
        for (k, o) in operands.iter().enumerate() {
            let s = match o.kind {
                OperandKind::NegReg(s) => s,
                OperandKind::Selected(s, _, true) => s,
                _ => continue,
            };
            let word = matches!(self.lookup(s), Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) if t.bits() == 32 && !matches!(t.kind(), TypeKind::Float));
            if !word {
                self.error(o.loc.0, "illegal argument to unary minus");
                return;
            }
            if let Some(n) = negated.get_mut(k) {
                *n = true;
            }
        }
        if !negated.iter().any(|&n| n) {
            return;
        }
        let at = i.loc.0;
        if i.opcode != Opcode::Vmad {
            // A negated selected source is reported by `video_selectors`.
            if operands.iter().any(|o| matches!(o.kind, OperandKind::NegReg(_))) {
                self.error(at, format!("operand negation not allowed for instruction '{opname}'"));
            }
        } else if negated[0] || (negated[3] && (negated[1] != negated[2])) {
            self.error(at, "operand negation limited to either (source A xor source B) or source C");
        } else if (negated[1] != negated[2] || negated[3]) && i.modifiers.iter().any(|(m, _)| m.spelling() == ".po") {
            self.error(at, "conflicting use of '.po' modifier with operand negation");
        }
    }

    /// The video selectors and masks of `i`'s operands, as ptxas 13.5
    /// accepts them: on the scalar video instructions a byte or half
    /// (`.b0`-`.b3`, `.h0`, `.h1`) on `a` and `b`, and on `d` where `c` is
    /// a merge target (four operands, no secondary operation; not `vmad`);
    /// on `vop2` halves of `{b, a}` (`.h10`, two digits 0-3) and a mask
    /// `.h0`, `.h1`, `.h10`; on `vop4` bytes of `{b, a}` (`.b3210`, four
    /// digits 0-7) and a mask of bytes in descending order (`.b0`, `.b31`,
    /// `.b3210`); none on `c`, and none elsewhere. A negation is `vmad`'s.
    fn video_selectors(&mut self, i: &Instruction, operands: &[Operand]) {
        use Opcode as O;
        let op = i.opcode;
        let opname = op.name();
        let lanes = match op {
            O::Vadd | O::Vsub | O::Vabsdiff | O::Vmin | O::Vmax | O::Vset | O::Vshl | O::Vshr | O::Vmad => 1,
            O::Vadd2 | O::Vsub2 | O::Vavrg2 | O::Vabsdiff2 | O::Vmin2 | O::Vmax2 | O::Vset2 => 2,
            O::Vadd4 | O::Vsub4 | O::Vavrg4 | O::Vabsdiff4 | O::Vmin4 | O::Vmax4 | O::Vset4 => 4,
            _ => 0,
        };
        let second = i.modifiers.iter().any(|(m, _)| matches!(m, Modifier::Word(k) if matches!(k.spelling(), ".add" | ".min" | ".max")));
        for (k, o) in operands.iter().enumerate() {
            let OperandKind::Selected(_, sel, neg) = o.kind else { continue };
            let at = o.loc.0;
            if lanes == 0 {
                let place = if k == 0 { "destination" } else { "source operand" };
                self.error(at, format!("video selector is not allowed on {place} for instruction '{opname}'"));
                continue;
            }
            if neg && op != O::Vmad {
                self.error(at, format!("operand negation not allowed for instruction '{opname}'"));
                continue;
            }
            let d = sel.written();
            let ok = match (k, lanes) {
                (0, 1) => {
                    if op == O::Vmad || operands.len() < 4 {
                        self.error(at, format!("video selector is not allowed on destination for instruction '{opname}'"));
                        continue;
                    }
                    if second {
                        self.error(at, "a video instruction cannot have a destination selector and a secondary operation");
                        continue;
                    }
                    d.len() == 1 && d[0] <= if sel.halves { 1 } else { 3 }
                }
                (1 | 2, 1) => d.len() == 1 && d[0] <= if sel.halves { 1 } else { 3 },
                (0, 2) => sel.halves && matches!(d, [0] | [1] | [1, 0]),
                (0, _) => !sel.halves && d.iter().all(|&x| x <= 3) && d.windows(2).all(|w| w[0] > w[1]),
                (1 | 2, 2) => sel.halves && d.len() == 2,
                (1 | 2, _) => !sel.halves && d.len() == 4,
                _ => {
                    self.error(at, "video selector is not allowed on source operand c");
                    continue;
                }
            };
            if !ok {
                self.error(at, format!("incorrect video selector '{sel}' for operand {k} of '{opname}'"));
            }
        }
    }

    fn is_kernel_param(&self, s: Symbol) -> bool {
        self.in_entry && self.kernel_params.contains(&s)
    }

    /// Call arguments and return variables must have the callee's parameter sizes.
    fn call_arguments(&mut self, i: &Instruction) {
        let ops = self.m.operands(i.operands);
        let (rets, target, args) = match ops {
            [Operand { kind: OperandKind::ParenList(r), .. }, t, rest @ ..] => (Some(r), t, rest.first()),
            [t, rest @ ..] => (None, t, rest.first()),
            [] => return,
        };
        let OperandKind::Name(f, None) = target.kind else { return };
        let Some(&callee) = self.signatures_of.get(&f) else { return };
        let check = |this: &mut Self, list: OperandList, formal: &[Param]| {
            for (o, p) in this.m.operands(list).iter().zip(formal) {
                let want = param_bytes(p.ty, p.vector, total_elems(&p.dims));
                let OperandKind::Name(s, None) = o.kind else { continue };
                let have = match this.lookup(s) {
                    Some(Entity::Var(v)) | Some(Entity::Reg(v)) => param_bytes(v.ty, v.vector, v.dims),
                    _ => continue,
                };
                if let (Some(h), Some(w)) = (have, want) {
                    if h != w {
                        this.error(o.loc.0, "type of argument does not match formal parameter");
                    }
                }
            }
        };
        if let Some(r) = rets {
            check(self, *r, &callee.returns);
        }
        if let Some(Operand { kind: OperandKind::ParenList(a), .. }) = args {
            check(self, *a, callee.params.as_deref().unwrap_or(&[]));
        }
    }

    fn requirement(&mut self, span: Span, what: impl Fn() -> String, ptx: (u8, u8), sm: u16) {
        if self.version < ptx {
            self.error(span, format!("{} requires PTX ISA .version {}.{} or later", what(), ptx.0, ptx.1));
        }
        if self.target.number < sm {
            self.error(span, format!("{} not supported on .target 'sm_{}' (needs sm_{sm})", what(), self.target.number));
        }
    }

    fn check_names(&mut self, o: &Operand, op: Opcode) {
        let check = |this: &mut Self, s: Symbol, span: Span| {
            if this.lookup(s).is_none() && this.special_register(s).is_none() && Some(s) != this.warp_sz {
                let _ = op;
                let n = this.name(s);
                this.error(span, format!("unknown symbol '{n}'"));
            }
        };
        match &o.kind {
            OperandKind::Name(s, _)
            | OperandKind::NameOffset(s, _)
            | OperandKind::NotPred(s)
            | OperandKind::NegReg(s)
            | OperandKind::Selected(s, _, _) => check(self, *s, o.loc.0),
            OperandKind::PredPair(p, q) => {
                // `_|q`: the value half is a sink.
                if self.name(*p) != "_" {
                    check(self, *p, o.loc.0);
                }
                check(self, *q, o.loc.0);
            }
            OperandKind::Address(a) => {
                if let Some(b) = a.base {
                    check(self, b, o.loc.0);
                }
            }
            OperandKind::Vector(v) | OperandKind::BracketList(v) | OperandKind::ParenList(v) => {
                for e in self.m.operands(*v) {
                    self.check_names(e, op);
                }
            }
            OperandKind::Imm(e) => self.check_expr_names(e),
            OperandKind::Sink => {}
        }
    }

    fn check_expr_names(&mut self, e: &Expr) {
        match e {
            Expr::Symbol(s, loc) | Expr::Generic(s, loc) => {
                if self.lookup(*s).is_none() && Some(*s) != self.warp_sz {
                    let n = self.name(*s);
                    self.error(loc.0, format!("unknown symbol '{n}'"));
                }
            }
            Expr::Unary(_, a, _) => self.check_expr_names(a),
            Expr::Binary(_, a, b, _) => {
                self.check_expr_names(a);
                self.check_expr_names(b);
            }
            Expr::Cond(c, a, b, _) => {
                self.check_expr_names(c);
                self.check_expr_names(a);
                self.check_expr_names(b);
            }
            _ => {}
        }
    }

    /// The type of a (non-vector) operand.
    /// Reports the undeclared names of an operand (as `check_names`) and
    /// returns its type (as `operand_type`), looking each name up once.
    fn resolve(&mut self, o: &Operand, op: Opcode) -> OperandType {
        let known = |this: &mut Self, s: Symbol, e: Option<Entity>| {
            if e.is_none() && this.special_register(s).is_none() && Some(s) != this.warp_sz {
                let n = this.name(s);
                this.error(o.loc.0, format!("unknown symbol '{n}'"));
            }
        };
        let scalar_reg = |e: Option<Entity>| match e {
            Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) => OperandType::Reg(t),
            _ => OperandType::Unknown,
        };
        match o.kind {
            OperandKind::Name(s, comp) => {
                if let Some((ty, legacy)) = self.special_register(s) {
                    return if legacy { OperandType::LegacySreg } else { OperandType::Reg(ty) };
                }
                if Some(s) == self.warp_sz {
                    return OperandType::IntImm;
                }
                let e = self.lookup(s);
                known(self, s, e);
                entity_type(e, comp)
            }
            OperandKind::NameOffset(s, _) => {
                let e = self.lookup(s);
                known(self, s, e);
                OperandType::Address
            }
            OperandKind::NotPred(s) | OperandKind::NegReg(s) | OperandKind::Selected(s, _, _) => {
                let e = self.lookup(s);
                known(self, s, e);
                scalar_reg(e)
            }
            _ => {
                self.check_names(o, op);
                self.operand_type(o)
            }
        }
    }

    /// The type of operand `k` of the instruction being checked.
    fn resolved_type(&self, operands: &[Operand], k: usize) -> OperandType {
        match self.resolved.get(k) {
            Some(t) => *t,
            None => operands.get(k).map_or(OperandType::Unknown, |o| self.operand_type(o)),
        }
    }

    fn operand_type(&self, o: &Operand) -> OperandType {
        match &o.kind {
            OperandKind::Name(s, comp) => {
                if let Some((ty, legacy)) = self.special_register(*s) {
                    return if legacy { OperandType::LegacySreg } else { OperandType::Reg(ty) };
                }
                if Some(*s) == self.warp_sz {
                    return OperandType::IntImm;
                }
                entity_type(self.lookup(*s), *comp)
            }
            OperandKind::NameOffset(..) => OperandType::Address,
            OperandKind::NotPred(s) => match self.lookup(*s) {
                Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) => OperandType::Reg(t),
                _ => OperandType::Unknown,
            },
            OperandKind::NegReg(s) | OperandKind::Selected(s, _, _) => match self.lookup(*s) {
                Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) => OperandType::Reg(t),
                _ => OperandType::Unknown,
            },
            OperandKind::PredPair(..) => OperandType::Reg(ScalarType::Pred),
            OperandKind::Sink => OperandType::Sink,
            OperandKind::Imm(e) => expr_type(e),
            _ => OperandType::Unknown,
        }
    }

    /// Whether operand type `ot` is acceptable where the instruction expects `want`.
    // Always inlined: it runs once per operand, and most calls are a
    // few compares once the operand type is known.
    #[inline(always)]
    fn compatible(&self, ot: OperandType, want: ScalarType, policy: Policy, is_dest: bool) -> bool {
        use TypeKind::*;
        match ot {
            OperandType::Unknown | OperandType::Sink => true,
            OperandType::Label => false,
            OperandType::Address => matches!(want.kind(), Bits | Unsigned | Signed) && want.bits() >= 32,
            OperandType::LegacySreg => {
                matches!(want.kind(), Bits | Unsigned | Signed) && matches!(want.bits(), 16 | 32)
            }
            OperandType::IntImm => !is_dest && matches!(want.kind(), Bits | Unsigned | Signed | Pred),
            // As bits, only of the type's width (ptxas 13.5: `and.b32` takes
            // `0f3F800000`, not `0d3FF0000000000000`; `.b16` neither).
            // No float literal is a half (ptxas 13.5: `add.f16 h, h, 0f3F800000`
            // is an argument mismatch; halves are written as `.b16` bits).
            OperandType::HexFloatImm(bits) => !is_dest && (takes_float_literal(want) || want.kind() == Bits && want.bits() == u32::from(bits)),
            OperandType::DecFloatImm => !is_dest && takes_float_literal(want),
            OperandType::Reg(r) => reg_compatible(r, want, policy),
            // A whole vector register where a scalar is expected: only as raw bits of the same total size.
            OperandType::VecReg(t, n) => want.kind() == Bits && t.bits() * n as u32 == want.bits(),
        }
    }

    /// Checks one operand against a role.
    /// Checks one operand, of type `ot`, against a role.
    #[allow(clippy::too_many_arguments)]
    fn role(&mut self, i: &Instruction, types: &[ScalarType], o: &Operand, ot: OperandType, role: Role, policy: Policy, is_dest: bool) -> bool {
        let want = match role {
            Role::Any => return true,
            Role::Address => return self.address_operand(o),
            Role::Label => {
                return matches!(o.kind, OperandKind::Name(_, None))
                    && matches!(ot, OperandType::Label | OperandType::Unknown | OperandType::Address);
            }
            Role::Pred => ScalarType::Pred,
            Role::Fixed(t) => t,
            Role::InstType => match types.last() {
                Some(t) => *t,
                None => return true,
            },
            Role::Wide => match types.last().and_then(|t| widen(*t)) {
                Some(t) => t,
                None => return true,
            },
            Role::FirstType => match types.first() {
                Some(t) => *t,
                None => return true,
            },
            Role::SecondType => match types.get(1) {
                Some(t) => *t,
                None => return true,
            },
        };
        let vec = self.mods.vector;
        match &o.kind {
            OperandKind::Vector(elems) => {
                let elems = self.m.operands(*elems);
                let Some(n) = vec else {
                    // mov packs/unpacks: element sizes must add up.
                    if i.opcode == Opcode::Mov && want.kind() == TypeKind::Bits {
                        // Immediates take the size of the register elements.
                        let mut width = None;
                        for e in elems {
                            match self.operand_type(e) {
                                OperandType::Reg(t) => {
                                    if width.is_none() {
                                        width = Some(t.bits());
                                    }
                                }
                                OperandType::Sink => {}
                                OperandType::IntImm if !is_dest => {}
                                _ => return false,
                            }
                        }
                        let total = width.unwrap_or(0) * elems.len() as u32;
                        return total == want.bits() && elems.len() >= 2;
                    }
                    let opname = i.opcode.name();
                    self.error(o.loc.0, format!("vector operand is not allowed for instruction '{opname}'"));
                    return true;
                };
                if elems.len() != n as usize {
                    let opname = i.opcode.name();
                    self.error(o.loc.0, format!("argument vector size mismatch for instruction '{opname}'"));
                    return true;
                }
                elems.iter().all(|e| {
                    let t = self.operand_type(e);
                    self.compatible(t, want, policy, is_dest)
                })
            }
            _ => {
                let t = ot;
                if let (Some(n), OperandType::VecReg(vt, m)) = (vec, t) {
                    if matches!(role, Role::InstType) {
                        return n == m && reg_compatible(vt, want, policy);
                    }
                }
                if vec.is_some() && matches!(role, Role::InstType) {
                    let opname = i.opcode.name();
                    if is_dest {
                        self.error(o.loc.0, "result vector expected");
                    } else {
                        self.error(o.loc.0, format!("argument vector size mismatch for instruction '{opname}'"));
                    }
                    return true;
                }
                self.compatible(t, want, policy, is_dest)
            }
        }
    }

    fn address_operand(&mut self, o: &Operand) -> bool {
        match &o.kind {
            OperandKind::Address(a) => {
                if let Some(b) = a.base {
                    if let Some(Entity::Reg(VarInfo { ty: VarType::Scalar(t), .. })) = self.lookup(b) {
                        if !matches!(t.kind(), TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed) || t.bits() < 32 {
                            let n = self.name(b);
                            self.error(
                                o.loc.0,
                                format!(
                                    "illegal to use symbol '{n}' of type {} as address operand; use integer or bit only",
                                    t.spelling()
                                ),
                            );
                        }
                    }
                }
                true
            }
            OperandKind::BracketList(_) => true,
            _ => false,
        }
    }

    /// Operand count and types against the opcode table's signature. The
    /// count and the type modifiers are head-only rules (`head_ok` and
    /// `head_errors` as in `instruction`).
    fn signature(&mut self, i: &'m Instruction, head_ok: bool, head_errors: &mut usize) {
        let op = i.opcode;
        if let Some(plan) = self.mods.plan.filter(|p| head_ok && usize::from(p.len) == i.operands.len()) {
            self.planned_signature(i, &plan);
            return;
        }
        let opname = op.name();
        let sigs = signatures(op);
        if sigs.is_empty() {
            return;
        }
        let operands = self.m.operands(i.operands);
        let n = operands.len();
        // Alternatives of one operand count differ by their types: the one
        // naming a second type when the instruction has two (`add.f32.f16`
        // beside `add.f32`), else the first.
        let two_types = self.mods.ntypes == 2;
        let by_count = || sigs.iter().filter(|s| s.accepts_count(n));
        let Some(sig) = by_count().find(|s| s.uses_second_type() == two_types).or_else(|| by_count().next()) else {
            self.error(i.loc.0, format!("arguments mismatch for instruction '{opname}'"));
            *head_errors += 1;
            return;
        };
        if !head_ok {
            let needs_two = sig.uses_second_type();
            let ntypes = self.mods.ntypes;
            // More types than the signature takes is refused too where it
            // names its types itself (`activemask.b32.b32`).
            let single = traits(op).single_type;
            let dot_products = matches!(op, Opcode::Dp4a | Opcode::Dp2a) && ntypes != 2;
            let surplus = matches!(op, Opcode::Activemask | Opcode::Nanosleep) && ntypes > 1;
            if sig.uses_inst_type() && !needs_two && ntypes != 1 && single
                || needs_two && ntypes != 2 && single
                || surplus
                || dot_products
            {
                self.error(i.opcode_loc.0, format!("unexpected instruction types specified for '{opname}'"));
                *head_errors += 1;
                return;
            }
        }
        let policy = if matches!(op, Opcode::Ld | Opcode::St | Opcode::Ldu | Opcode::Cvt) { Policy::Relaxed } else { Policy::Strict };
        let mods = self.mods;
        let types = mods.types();
        // A lone operand (`cp.async.wait_group 0`) is an input.
        let dests = if traits(op).no_dests { 0 } else { usize::from(sig.len() > 1) };
        let mut ok = true;
        for (k, o) in operands.iter().enumerate() {
            let role = sig.role_at(k);
            let is_dest = k < dests;
            let ot = self.resolved_type(operands, k);
            if !self.role(i, types, o, ot, role, policy, is_dest) {
                ok = false;
            }
        }
        // `.wide` destinations (and `mad.wide`'s addend) are twice the type's width.
        if mods.has(WIDE) && matches!(op, Opcode::Mul | Opcode::Mad) {
            for k in if op == Opcode::Mad { &[0usize, 3][..] } else { &[0usize][..] } {
                if let Some(o) = operands.get(*k) {
                    let ot = self.resolved_type(operands, *k);
                    if !self.role(i, types, o, ot, Role::Wide, Policy::Strict, *k == 0) {
                        ok = false;
                    }
                }
            }
        }
        if !ok {
            self.signature_mismatch(i, operands, sig, policy);
        }
        if !head_ok && n <= PLAN_OPS && mods.vector.is_none() && !(mods.has(WIDE) && matches!(op, Opcode::Mul | Opcode::Mad)) {
            // Plan the head's later occurrences (kept only if the head passes;
            // vector heads and `.wide` products keep the full path).
            let mut slots = [Slot::Pass; PLAN_OPS];
            for (k, slot) in slots.iter_mut().enumerate().take(n) {
                *slot = SigPlan::slot(sig.role_at(k), types, widen);
            }
            self.mods.plan = Some(SigPlan { slots, len: n as u8, dests: dests as u8, relaxed: policy == Policy::Relaxed });
        }
        let _ = Signature::len;
    }

    /// Reports a signature mismatch (a misplaced label, or the arguments).
    #[cold]
    fn signature_mismatch(&mut self, i: &Instruction, operands: &[Operand], sig: &Signature, policy: Policy) {
        let opname = i.opcode.name();
        let mods = self.mods;
        let types = mods.types();
        let ot = self.resolved_type(operands, 0);
        if matches!(sig.role_at(0), Role::Label) && !self.role(i, types, &operands[0], ot, Role::Label, policy, false) {
            self.error(operands[0].loc.0, format!("label expected for argument 0 of instruction '{opname}'"));
        } else {
            self.error(i.loc.0, format!("arguments mismatch for instruction '{opname}'"));
        }
    }

    /// The signature check of a memoised head, from its plan: the same
    /// verdicts and errors as `signature`'s full path.
    fn planned_signature(&mut self, i: &'m Instruction, plan: &SigPlan) {
        let operands = self.m.operands(i.operands);
        let policy = if plan.relaxed { Policy::Relaxed } else { Policy::Strict };
        // Only the types are copied out of the summary (for `role`, which
        // borrows the checker mutably), not the whole summary.
        let (type_buf, kept) = (self.mods.type_buf, usize::from(self.mods.kept_types));
        let types = type_buf.get(..kept).unwrap_or(&[]);
        let mut ok = true;
        for (k, (o, slot)) in operands.iter().zip(&plan.slots).enumerate() {
            let is_dest = k < usize::from(plan.dests);
            let ot = self.resolved_type(operands, k);
            let good = match *slot {
                Slot::Pass => true,
                // A plain operand (no vector anywhere): what `role` would do.
                Slot::Want(want, _) if !matches!(o.kind, OperandKind::Vector(_)) => self.compatible(ot, want, policy, is_dest),
                Slot::Want(_, role) | Slot::Role(role) => self.role(i, types, o, ot, role, policy, is_dest),
            };
            ok &= good;
        }
        if !ok {
            // Rare: find the signature again for the report (the plan was
            // made from it, so it is there).
            let n = operands.len();
            if let Some(sig) = signatures(i.opcode).iter().find(|s| s.accepts_count(n)) {
                self.signature_mismatch(i, operands, sig, policy);
            }
        }
    }

    /// Modifier requirements and combinations specific to instruction families.
    fn family_rules(&mut self, i: &Instruction) {
        let op = i.opcode;
        let opname = op.name();
        let mods = self.mods;
        let types = mods.types();
        let ty = types.last().copied();
        let kind = ty.map(|t| t.kind());
        let rounding = mods.rounding;
        let has_word = |bit: u8| mods.has(bit);
        let span = i.opcode_loc.0;
        let is_float = kind == Some(TypeKind::Float);
        // `.ftz` only on f32 (and packed half types for some ops).
        // ptxas 13.5: `ex2.approx` of bf16/bf16x2 requires `.ftz` and
        // refuses it on f16/f16x2 (the PTX ISA's two ex2 forms).
        let bf16_ex2 = op == Opcode::Ex2 && matches!(ty, Some(ScalarType::Bf16 | ScalarType::Bf16x2));
        let f16_ex2 = op == Opcode::Ex2 && matches!(ty, Some(ScalarType::F16 | ScalarType::F16x2));
        if bf16_ex2 && !mods.ftz {
            self.error(span, format!(".ftz modifier required for instruction '{opname}.bf16'"));
        }
        if mods.ftz {
            let approx_f64 = matches!(op, Opcode::Rcp | Opcode::Rsqrt) && has_word(APPROX) && ty == Some(ScalarType::F64);
            let ok = !f16_ex2 && (approx_f64 || bf16_ex2 || types.iter().any(|t| matches!(t, ScalarType::F32 | ScalarType::F32x2 | ScalarType::F16 | ScalarType::F16x2)));
            if !ok {
                self.error(span, format!("illegal modifier '.ftz' for instruction '{opname}'"));
            }
        }
        if mods.vector == Some(8) && types.last().is_some_and(|t| t.bits() != 32) {
            self.error(span, "illegal vector size: 8");
        }
        match op {
            Opcode::Add | Opcode::Sub | Opcode::Mul | Opcode::Mad | Opcode::Fma | Opcode::Div | Opcode::Rem | Opcode::Min | Opcode::Max | Opcode::Neg | Opcode::Abs => {
                if let Some(r) = rounding {
                    if !is_float || r.is_integer() || matches!(r, Rounding::Rna | Rounding::Rs) {
                        self.error(span, format!("illegal rounding modifier for instruction '{opname}'"));
                    }
                }
            }
            _ => {}
        }
        // The mixed-precision forms `add/sub.f32.{f16,bf16} d, a, c` and
        // `fma.f32.{f16,bf16} d, a, b, c` (PTX 8.6, sm_100+): the result
        // and c in f32, a and b in the half type.
        if matches!(op, Opcode::Add | Opcode::Sub | Opcode::Fma) && types.len() == 2 {
            if !(types[0] == ScalarType::F32 && matches!(types[1], ScalarType::F16 | ScalarType::Bf16)) {
                self.error(span, format!("unexpected instruction types specified for '{opname}'"));
            } else if self.target.number < 100 {
                self.error(span, format!("Feature '{opname}.f32{}' requires .target sm_100 or higher", types[1].spelling()));
            }
        }
        match op {
            Opcode::Add | Opcode::Sub => {
                if matches!(kind, Some(TypeKind::Bits) | Some(TypeKind::Pred)) {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
                // Integer saturation exists only for .s32 (PTX ISA; ptxas 13.5 agrees).
                if mods.sat && matches!(kind, Some(TypeKind::Signed | TypeKind::Unsigned)) && ty != Some(ScalarType::S32) {
                    self.error(span, format!("illegal modifier '.sat' for instruction '{opname}'"));
                }
            }
            Opcode::Mul | Opcode::Mad => {
                let mode = [LO, HI, WIDE].into_iter().filter(|k| has_word(*k)).count();
                if matches!(kind, Some(TypeKind::Signed | TypeKind::Unsigned)) && mode != 1 {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                } else if is_float && mode != 0 {
                    let full = if has_word(LO) { format!("{opname}.lo") } else if has_word(HI) { format!("{opname}.hi") } else { format!("{opname}.wide") };
                    self.error(span, format!("unexpected instruction types specified for '{full}'"));
                } else if matches!(kind, Some(TypeKind::Bits) | Some(TypeKind::Pred)) {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
                if op == Opcode::Mad && is_float && rounding.is_none() {
                    self.error(span, format!("rounding modifier required for instruction '{opname}'"));
                }
            }
            Opcode::Fma => {
                if rounding.is_none() {
                    self.error(span, format!("rounding modifier required for instruction '{opname}'"));
                }
            }
            Opcode::Div => {
                if ty == Some(ScalarType::F32) && rounding.is_none() && !has_word(APPROX) && !has_word(FULL) {
                    self.error(span, format!("rounding modifier or '.approx' modifier required for instruction '{opname}'"));
                }
                if ty == Some(ScalarType::F64) && rounding.is_none() {
                    self.error(span, format!("rounding modifier required for instruction '{opname}'"));
                }
            }
            Opcode::Rcp | Opcode::Sqrt => {
                if ty == Some(ScalarType::F32) && rounding.is_none() && !has_word(APPROX) {
                    self.error(span, format!("rounding modifier or '.approx' modifier required for instruction '{opname}'"));
                }
                if ty == Some(ScalarType::F64) && rounding.is_none() && !has_word(APPROX) {
                    self.error(span, format!("rounding modifier required for instruction '{opname}'"));
                }
            }
            Opcode::Ex2 | Opcode::Lg2 | Opcode::Sin | Opcode::Cos | Opcode::Tanh | Opcode::Rsqrt => {
                if !has_word(APPROX) && ty == Some(ScalarType::F32) {
                    self.error(span, format!(".approx modifier required for instruction '{opname}'"));
                }
            }
            Opcode::Neg | Opcode::Abs => {
                if matches!(kind, Some(TypeKind::Unsigned | TypeKind::Bits)) {
                    self.error(span, format!("instruction '{opname}' applies only to signed numeric types"));
                }
            }
            Opcode::Setmaxnreg => self.register_count_rules(i),
            Opcode::Vote => {
                // `vote.ballot.sync` spells `.sync` after the mode.
                let sync = i.modifiers.iter().any(|(m, _)| m.spelling() == ".sync");
                if !sync && self.target.number >= 70 && self.version >= (6, 4) {
                    self.error(
                        span,
                        format!("instruction 'vote' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4"),
                    );
                }
            }
            Opcode::Call => {
                self.call_arguments(i);
                for o in self.m.operands(i.operands) {
                    if let OperandKind::Name(f, None) = o.kind {
                        if self.opts.resolve_calls && self.extern_funcs.contains(&f) {
                            let n = self.name(f);
                            self.error(o.loc.0, format!("unresolved extern function '{n}'"));
                        }
                    }
                }
            }
            Opcode::Rem => {
                if is_float {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
            }
            Opcode::Atom | Opcode::Red => {
                const OPS: &[&str] =
                    &[".and", ".or", ".xor", ".cas", ".exch", ".add", ".inc", ".dec", ".min", ".max"];
                match i.modifiers.iter().map(|(m, _)| m.spelling()).find(|s| OPS.contains(s)) {
                    None => self.error(span, format!("illegal operation '' for instruction '{opname}'")),
                    // Arithmetic operations need a numeric type, bitwise ones a bit type.
                    Some(".add" | ".inc" | ".dec" | ".min" | ".max") if kind == Some(TypeKind::Bits) => {
                        self.error(span, format!("operation requires a numeric type for instruction '{opname}'"))
                    }
                    Some(".and" | ".or" | ".xor" | ".cas" | ".exch")
                        if op == Opcode::Atom && matches!(kind, Some(TypeKind::Float | TypeKind::Signed | TypeKind::Unsigned)) =>
                    {
                        self.error(span, format!("operation requires a .b type for instruction '{opname}'"))
                    }
                    _ => {}
                }
                // ptxas 13.5 (sm_80..sm_120): no float minimum or maximum
                // but of halves, and every half operation (`add`, `min`,
                // `max`) spelled with `.noftz`.
                let operation = i.modifiers.iter().map(|(m, _)| m.spelling()).find(|s| OPS.contains(s));
                if let (Some(m @ (".min" | ".max")), Some(ScalarType::F32 | ScalarType::F64)) = (operation, ty) {
                    self.error(span, format!("Operation {m} requires .u32 or .s32 or .u64 or .s64 or .f16 or .f16x2 or .bf16 or .bf16x2 type for instruction '{opname}'"));
                }
                let half = matches!(ty, Some(ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2));
                if half && matches!(operation, Some(".add" | ".min" | ".max")) && !i.modifiers.iter().any(|(m, _)| m.spelling() == ".noftz") {
                    let t = ty.map_or("", |t| t.spelling());
                    self.error(span, format!("'.noftz' modifier required for instruction '{opname}' with type '{t}'"));
                }
            }
            Opcode::Min | Opcode::Max => {
                if matches!(kind, Some(TypeKind::Bits | TypeKind::Pred)) {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
                // ptxas 13.5: `.relu` only on s32 and s16x2.
                if i.modifiers.iter().any(|(m, _)| m.spelling() == ".relu") && !matches!(ty, Some(ScalarType::S32 | ScalarType::S16x2)) {
                    let t = ty.map_or("", |t| t.spelling());
                    self.error(span, format!("Illegal modifier '.relu' for instruction '{opname}' with type '{t}'"));
                }
            }
            Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Cnot | Opcode::Shl => {
                let ok = match op {
                    Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not => matches!(kind, Some(TypeKind::Bits | TypeKind::Pred)),
                    _ => kind == Some(TypeKind::Bits),
                };
                if !ok && ty.is_some() {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
            }
            Opcode::Shr => {
                if matches!(kind, Some(TypeKind::Float | TypeKind::Pred)) {
                    self.error(span, format!("unexpected instruction types specified for '{opname}'"));
                }
            }
            // `set.dtype.stype`: exactly two types (ptxas 13.5 refuses
            // `set.le.or.u32.f64.f64` and `set.le.u32`).
            Opcode::Set if types.len() != 2 => {
                self.error(span, format!("unexpected instruction types specified for '{opname}'"));
            }
            Opcode::Setp | Opcode::Set => {
                let (cmp, boolop) = (mods.cmp, mods.boolop);
                match cmp {
                    None => self.error(span, format!("comparison modifier required for instruction '{opname}'")),
                    Some(c) => {
                        let src = types.last().copied();
                        let src_kind = src.map(|t| t.kind());
                        if c.is_unsigned_only() && !matches!(src_kind, Some(TypeKind::Unsigned | TypeKind::Bits))
                            || c.is_float_only() && src_kind != Some(TypeKind::Float)
                            || !matches!(c, CmpOp::Eq | CmpOp::Ne) && src_kind == Some(TypeKind::Bits) && !c.is_unsigned_only()
                        {
                            self.error(span, "mismatch between instruction type and comparison qualifier");
                        }
                    }
                }
                let with_c = if op == Opcode::Setp { i.operands.len() == 4 } else { i.operands.len() == 4 };
                if boolop && !with_c {
                    self.error(i.loc.0, format!("arguments mismatch for instruction '{opname}'"));
                } else if !boolop && with_c {
                    self.error(span, format!("boolean operation is required for instruction '{opname}'"));
                }
            }
            Opcode::Cvt if types.len() != 2 => {
                self.error(span, format!("unexpected instruction types specified for '{opname}'"));
            }
            // A funnel shift names its mode (ptxas 13.5: "Clamp modifier
            // required for instruction 'shf.r'").
            Opcode::Shf if !i.modifiers.iter().any(|(m, _)| matches!(m.spelling(), ".clamp" | ".wrap")) => {
                self.error(span, format!("clamp modifier required for instruction '{opname}'"));
            }
            Opcode::CvtPack if types.len() == 3 && types[0].kind() == TypeKind::Bits => {
                self.error(span, format!("unexpected instruction types specified for '{opname}'"));
            }
            Opcode::Cvt if cvt_type_pair(types[0], types[1]).is_none() => {
                self.error(span, format!("unexpected instruction types specified for '{opname}'"));
            }
            Opcode::Cvt if cvt_type_pair(types[0], types[1]).is_some_and(|v| self.version < v) => {
                let v = cvt_type_pair(types[0], types[1]).unwrap_or_default();
                self.error(span, format!("feature 'cvt{}{}' requires PTX ISA .version {}.{} or later", types[0].spelling(), types[1].spelling(), v.0, v.1));
            }
            Opcode::Cvt if packed_conversion(types[0], types[1]).is_some() => {
                let Some(form) = packed_conversion(types[0], types[1]) else { return };
                let has = |w: &str| i.modifiers.iter().any(|(m, _)| m.spelling() == w);
                let (d, a) = (types[0].spelling(), types[1].spelling());
                let form_ops = |r: Rounding| if r == Rounding::Rs && form.rs_operands != 0 { form.rs_operands } else { form.operands };
                match rounding {
                    None => self.error(span, format!("rounding modifier required for instruction '{opname}'")),
                    Some(r) if !form.roundings.contains(&r) => self.error(span, format!("illegal rounding modifier for instruction '{opname}'")),
                    Some(r) if i.operands.len() != form_ops(r) => self.error(i.loc.0, format!("arguments mismatch for instruction '{opname}'")),
                    Some(_) => {}
                }
                match (form.satfinite, has(".satfinite")) {
                    (Allowed::Required, false) => self.error(span, format!("'.satfinite' modifier required for instruction '{opname}' with destination type '{d}'")),
                    (Allowed::No, true) => self.error(span, format!("illegal modifier '.satfinite' for instruction '{opname}' with types '{d}{a}'")),
                    _ => {}
                }
                if form.relu == Allowed::No && has(".relu") {
                    self.error(span, format!("illegal modifier '.relu' for instruction '{opname}' with types '{d}{a}'"));
                }
            }
            Opcode::Cvt => {
                let has = |w: &str| i.modifiers.iter().any(|(m, _)| m.spelling() == w);
                let flags = ConversionFlags { sat: mods.sat, ftz: mods.ftz, satfinite: has(".satfinite"), relu: has(".relu") };
                if let Some(e) = scalar_conversion_error(types[0], types[1], rounding, flags) {
                    self.error(span, format!("{e} for instruction '{opname}'"));
                } else {
                    let needs = scalar_conversion_needs(types[0], types[1], rounding, flags);
                    let what = || format!("conversion 'cvt{}{}'{}", types[0].spelling(), types[1].spelling(), if flags.ftz { " with .ftz" } else { "" });
                    self.requirement(span, what, needs.ptx, needs.sm);
                }
            }
            _ => {}
        }
    }
}

/// The flags of a conversion besides its rounding.
#[derive(Clone, Copy)]
struct ConversionFlags {
    sat: bool,
    ftz: bool,
    satfinite: bool,
    relu: bool,
}

/// What ptxas 13.5 refuses in `cvt.d.a` between scalar types (a type pair
/// [`cvt_type_pair`] accepts), or `None`. Measured over every pair of
/// cvt's scalar types with no rounding, .rn, .rzi, .sat, .rn.sat,
/// .rz.ftz, .rni.sat, .rn.satfinite and .rn.relu (PTX 9.1, sm_100a):
/// * the rounding: none between integers; an integer rounding (.rni ...)
///   from a float to an integer, and optionally between equal float
///   types; a float rounding (.rn ...) wherever a value may be inexact
///   (integer to float, float to a narrower float or to tf32); none where
///   a float widens exactly, but from bf16, which takes an optional float
///   rounding, as do f16 and bf16 between each other;
/// * `.sat`: never with bf16 or tf32; between integers only where a
///   source value can overflow the destination;
/// * `.ftz` only with an f32 side (not to tf32);
/// * `.satfinite` and `.relu` only from f32 to f16, bf16 or tf32;
/// * bf16 and 8-bit integers do not convert into each other.
fn scalar_conversion_error(d: ScalarType, a: ScalarType, rounding: Option<Rounding>, f: ConversionFlags) -> Option<&'static str> {
    use ScalarType as T;
    let float = |t: ScalarType| t.kind() == TypeKind::Float;
    let byte = |t: ScalarType| matches!(t, T::U8 | T::S8);
    if (d == T::Bf16 && byte(a)) || (a == T::Bf16 && byte(d)) {
        return Some("unexpected instruction types specified");
    }
    let int_round = rounding.map(|r| r.is_integer());
    let rounding_ok = match (float(d), float(a)) {
        (false, false) => rounding.is_none(),
        (false, true) => int_round == Some(true),
        (true, false) => int_round == Some(false),
        (true, true) if d == a => int_round != Some(false),
        (true, true) if matches!((d, a), (T::F16, T::Bf16) | (T::Bf16, T::F16)) || (a == T::Bf16 && d.bits() > a.bits()) => int_round != Some(true),
        (true, true) if d.bits() > a.bits() => rounding.is_none(),
        (true, true) => int_round == Some(false),
    };
    if !rounding_ok {
        let inexact = match (float(d), float(a)) {
            (false, false) => false,
            (true, true) => d.bits() < a.bits() || d == T::Tf32,
            _ => true,
        };
        return Some(if rounding.is_none() && inexact { "rounding modifier required" } else { "illegal rounding modifier" });
    }
    if f.sat && (matches!(d, T::Bf16 | T::Tf32) || a == T::Bf16 || (!float(d) && !float(a) && integer_range_within(a, d))) {
        // Between integers: nothing to saturate where every source value
        // fits (cvt.sat.s32.s16, .u64.u32, .s64.s64; all 64 pairs measured).
        return Some("illegal modifier '.sat'");
    }
    if f.ftz && (d != T::F32 && a != T::F32 || d == T::Tf32) {
        return Some("illegal modifier '.ftz'");
    }
    let to_narrow_float = a == T::F32 && matches!(d, T::F16 | T::Bf16 | T::Tf32);
    if f.satfinite && !to_narrow_float {
        return Some("illegal modifier '.satfinite'");
    }
    if f.relu && !to_narrow_float {
        return Some("illegal modifier '.relu'");
    }
    None
}

/// The PTX version and target a scalar `cvt.d.a` needs beyond its
/// modifiers' own (ptxas 13.5, measured with PTX 8.0 on sm_80 against PTX
/// 9.1 on sm_100a): bf16 converts only to and from f32 before sm_90 (and
/// without .ftz there), tf32 is made only with .rna before sm_90, and
/// `.satfinite` to f16 or bf16 needs PTX 8.1.
fn scalar_conversion_needs(d: ScalarType, a: ScalarType, rounding: Option<Rounding>, f: ConversionFlags) -> Needs {
    use ScalarType as T;
    let mut needs = Needs { ptx: (0, 0), sm: 0 };
    let bf16 = d == T::Bf16 || a == T::Bf16;
    if bf16 && (!matches!((d, a), (T::Bf16, T::F32) | (T::F32, T::Bf16)) || (a == T::Bf16 && f.ftz)) {
        needs.sm = 90;
    }
    if d == T::Tf32 && rounding != Some(Rounding::Rna) {
        needs.sm = 90;
    }
    if f.satfinite && matches!(d, T::F16 | T::Bf16) {
        needs.ptx = (8, 1);
    }
    needs
}

/// Whether a modifier of a conversion is required, optional or refused.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    Required,
    Optional,
    No,
}

/// The rules of a conversion to or from a packed type: its roundings, its
/// operand count (destination included; `rs_operands` with `.rs` where the
/// form also takes random bits), `.satfinite` and `.relu`.
struct PackedConversion {
    roundings: &'static [Rounding],
    operands: usize,
    rs_operands: usize,
    satfinite: Allowed,
    relu: Allowed,
}

/// The rules of `cvt.d.a` when either type is packed (`None` otherwise,
/// and for pairs [`cvt_type_pair`] refuses). Measured with ptxas 13.5
/// over every pair, the roundings .rn/.rz/.rp/.rs, .satfinite and .relu,
/// and 1 to 4 sources (PTX 9.1, sm_100a); the `.relu` of `.rs` forms,
/// which the measurement did not vary, as the PTX ISA writes them.
fn packed_conversion(d: ScalarType, a: ScalarType) -> Option<PackedConversion> {
    use Allowed::{No, Optional, Required};
    use ScalarType as T;
    let f8x2 = |t: ScalarType| matches!(t, T::E4m3x2 | T::E5m2x2 | T::E2m1x2 | T::E3m2x2 | T::E2m3x2);
    let f8x4 = |t: ScalarType| matches!(t, T::E4m3x4 | T::E5m2x4 | T::E2m1x4 | T::E3m2x4 | T::E2m3x4);
    let form = |roundings, operands, rs_operands, satfinite, relu| PackedConversion { roundings, operands, rs_operands, satfinite, relu };
    cvt_type_pair(d, a)?;
    Some(match (d, a) {
        (T::F16x2 | T::Bf16x2, T::F32) => form(&[Rounding::Rn, Rounding::Rz, Rounding::Rs], 3, 4, Optional, Optional),
        (_, T::F32) if f8x2(d) => form(&[Rounding::Rn], 3, 0, Required, Optional),
        // d, {a, b, c, e}, rbits: three operands, the sources a vector.
        (_, T::F32) if f8x4(d) => form(&[Rounding::Rs], 3, 0, Required, Optional),
        (T::Ue8m0x2, T::F32 | T::Bf16x2) => form(&[Rounding::Rz, Rounding::Rp], if a == T::F32 { 3 } else { 2 }, 0, Optional, No),
        (T::F16x2, _) if f8x2(a) => form(&[Rounding::Rn], 2, 0, No, Optional),
        (T::Bf16x2, T::Ue8m0x2) => form(&[Rounding::Rn], 2, 0, No, No),
        (_, T::F16x2 | T::Bf16x2) if f8x2(d) => form(&[Rounding::Rn], 2, 0, Required, Optional),
        _ => return None,
    })
}

/// The PTX version from which `cvt.d.a` names a conversion ptxas 13.5
/// knows (whatever its modifiers), `None` where it never does: no bit type
/// on either side, tf32 only made from f32, a packed source only in the
/// pairs below, and a packed destination from a scalar only from f32
/// (measured over every pair of cvt's types with rounding, .satfinite and
/// .relu variants, PTX 9.0 and 9.1, sm_100a; everything else is
/// "Unexpected instruction types specified for 'cvt'").
fn cvt_type_pair(d: ScalarType, a: ScalarType) -> Option<(u8, u8)> {
    use ScalarType as T;
    let packed = |t: ScalarType| {
        matches!(
            t,
            T::F16x2 | T::Bf16x2 | T::E4m3x2 | T::E5m2x2 | T::E2m1x2 | T::E3m2x2 | T::E2m3x2 | T::Ue8m0x2
                | T::E2m1x4 | T::E4m3x4 | T::E5m2x4 | T::E3m2x4 | T::E2m3x4 | T::S8x4 | T::U8x4 | T::S16x2 | T::U16x2 | T::F32x2
        )
    };
    if d.kind() == TypeKind::Bits || a.kind() == TypeKind::Bits {
        return None;
    }
    // tf32 is only ever made from f32.
    if d == T::Tf32 || a == T::Tf32 {
        return ((d, a) == (T::Tf32, T::F32)).then_some((0, 0));
    }
    if packed(a) {
        return match (d, a) {
            (T::F16x2, T::E4m3x2 | T::E5m2x2 | T::E2m3x2 | T::E3m2x2 | T::E2m1x2)
            | (T::Bf16x2, T::Ue8m0x2)
            | (T::E4m3x2 | T::E5m2x2, T::F16x2)
            | (T::Ue8m0x2, T::Bf16x2) => Some((0, 0)),
            (T::E4m3x2 | T::E5m2x2, T::Bf16x2) | (T::E2m3x2 | T::E3m2x2 | T::E2m1x2, T::F16x2 | T::Bf16x2) => Some((9, 1)),
            _ => None,
        };
    }
    (!packed(d) || a == T::F32).then_some((0, 0))
}

/// Whether every value of the integer type `a` is a value of the integer
/// type `d` (a cvt between them cannot saturate).
fn integer_range_within(a: ScalarType, d: ScalarType) -> bool {
    match (a.kind(), d.kind()) {
        (TypeKind::Unsigned, TypeKind::Unsigned) | (TypeKind::Signed, TypeKind::Signed) => d.bits() >= a.bits(),
        (TypeKind::Unsigned, TypeKind::Signed) => d.bits() > a.bits(),
        _ => false,
    }
}

/// What the checker needs to know of every interned name, worked out in
/// one pass over the name table: its split into a range prefix and index
/// (`%r12` → `%r`, 12) when the prefix is itself a name (a `%r<N>`
/// declaration interns it), and its special-register type if it is one.
fn name_facts(names: &Interner) -> (Vec<Option<(Symbol, u32)>>, Vec<Option<(ScalarType, bool)>>) {
    let mut split = Vec::with_capacity(names.len());
    let mut sreg = Vec::with_capacity(names.len());
    // The last few prefixes looked up: names of one range cluster together
    // (`%r1`, `%r2`, `%rd1`, `%r3`...), so most lookups are repeats.
    // Compared by packed key: a string comparison per entry was a call to
    // `memcmp` per name.
    let mut recent: [(NameKey, &str, Option<Symbol>); 4] = [(NameKey::new(b""), "", None); 4];
    let mut next_recent = 0;
    for text in names.names() {
        let name = text.as_bytes();
        // The decimal suffix, read from the end.
        let mut at = name.len();
        while at > 0 && name[at - 1].is_ascii_digit() {
            at -= 1;
        }
        let digits = &name[at..];
        // Register-like names (`%r12`, `%fd3`: one or two letters and a
        // number) are never special registers, except `%pm0`..`%pm7`.
        let register_like = name.first() == Some(&b'%') && !digits.is_empty() && (2..=3).contains(&at) && &name[..at] != b"%pm";
        sreg.push(if name.first() == Some(&b'%') && !register_like { special_register(text) } else { None });
        // The index: no leading zeros, 32 bits.
        if digits.is_empty() || at == 0 || digits.len() > 10 || (digits.len() > 1 && digits[0] == b'0') {
            split.push(None);
            continue;
        }
        let Some(num) = digits.iter().try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(u32::from(d - b'0'))) else {
            split.push(None);
            continue;
        };
        let prefix = &text[..at];
        let key = NameKey::new(prefix.as_bytes());
        let found = match recent.iter().find(|(k, p, _)| same_name(*k, p.as_bytes(), key, prefix.as_bytes())) {
            Some(&(_, _, s)) => s,
            None => {
                let s = names.get_keyed(prefix, key);
                recent[next_recent] = (key, prefix, s);
                next_recent = (next_recent + 1) % recent.len();
                s
            }
        };
        split.push(found.map(|p| (p, num)));
    }
    (split, sreg)
}

/// The lowest PTX version and target `head_requirements` accepts for an
/// instruction's head: the highest of its family's and its modifiers'.
fn head_needs(i: &Instruction) -> Needs {
    let info = i.opcode.info();
    let mut needs = Needs { ptx: info.min_ptx, sm: info.min_sm };
    let (reqs, _) = modifier_requirements(i.opcode);
    if i.opcode == Opcode::Cvt {
        let mut types = i.modifiers.iter().filter_map(|(m, _)| match m {
            Modifier::Type(t) => Some(*t),
            _ => None,
        });
        if let (Some(d), Some(a)) = (types.next(), types.next()) {
            needs.ptx = needs.ptx.max(cvt_type_pair(d, a).unwrap_or_default());
            let has = |w: &str| i.modifiers.iter().any(|(m, _)| m.spelling() == w);
            let rounding = i.modifiers.iter().find_map(|(m, _)| match m {
                Modifier::Rounding(r) => Some(*r),
                _ => None,
            });
            let flags = ConversionFlags { sat: has(".sat"), ftz: has(".ftz"), satfinite: has(".satfinite"), relu: has(".relu") };
            let scalar = scalar_conversion_needs(d, a, rounding, flags);
            needs.ptx = needs.ptx.max(scalar.ptx);
            needs.sm = needs.sm.max(scalar.sm);
        }
    }
    for (m, _) in &i.modifiers {
        if let Some((_, ptx, sm)) = reqs.iter().find(|(r, _, _)| r == m) {
            needs.ptx = needs.ptx.max(*ptx);
            needs.sm = needs.sm.max(*sm);
        }
    }
    needs
}

/// A modifier that needs a newer PTX version or target than its family.
type ModifierRequirement = (Modifier, (u8, u8), u16);

/// Each family's modifiers that need a newer PTX version or target than the
/// family itself, as typed modifiers (the opcode table spells them), and the
/// highest version and target among them.
fn modifier_requirements(op: Opcode) -> (&'static [ModifierRequirement], ((u8, u8), u16)) {
    const OPCODES: usize = Opcode::ALL.len();
    type Entry = (Vec<ModifierRequirement>, ((u8, u8), u16));
    // Per family, worked out on its first use (a module uses few families).
    static TABLE: [std::sync::OnceLock<Entry>; OPCODES] = [const { std::sync::OnceLock::new() }; OPCODES];
    let Some(slot) = TABLE.get(op as usize) else { return (&[], ((0, 0), 0)) };
    let (reqs, highest) = slot.get_or_init(|| {
        let reqs: Vec<ModifierRequirement> =
            op.info().modifier_reqs.iter().filter_map(|(sp, ptx, sm)| Some((Modifier::classify(op, sp)?, *ptx, *sm))).collect();
        let highest = reqs.iter().fold(((0, 0), 0), |(p, s), (_, ptx, sm)| (p.max(*ptx), s.max(*sm)));
        (reqs, highest)
    });
    (reqs, *highest)
}

/// Modifier words the rules test for, as keyword ids (resolved once; `None`
/// for a spelling no family allows, which then never matches).
struct Words {
    approx: Option<Keyword>,
    full: Option<Keyword>,
    lo: Option<Keyword>,
    hi: Option<Keyword>,
    wide: Option<Keyword>,
    nc: Option<Keyword>,
    to: Option<Keyword>,
}

fn words() -> &'static Words {
    static WORDS: std::sync::OnceLock<Words> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| Words {
        approx: Keyword::from_spelling(".approx"),
        full: Keyword::from_spelling(".full"),
        lo: Keyword::from_spelling(".lo"),
        hi: Keyword::from_spelling(".hi"),
        wide: Keyword::from_spelling(".wide"),
        nc: Keyword::from_spelling(".nc"),
        to: Keyword::from_spelling(".to"),
    })
}

/// Bits of [`ModSummary::words`]: the rule words, one bit each.
const APPROX: u8 = 1;
const FULL: u8 = 2;
const LO: u8 = 4;
const HI: u8 = 8;
const WIDE: u8 = 16;
const NC: u8 = 32;
const TO: u8 = 64;

/// For each keyword id, its rule-word bit (0 for the other keywords), so
/// that summarising an instruction's modifiers is one table read per word.
fn word_bits() -> &'static [u8] {
    static BITS: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BITS.get_or_init(|| {
        let w = words();
        let mut bits = vec![0u8; super::modifier::keyword_table().spellings.len()];
        for (k, bit) in [(w.approx, APPROX), (w.full, FULL), (w.lo, LO), (w.hi, HI), (w.wide, WIDE), (w.nc, NC), (w.to, TO)] {
            if let Some(k) = k {
                bits[k.0 as usize] |= bit;
            }
        }
        bits
    })
}

/// Element count of an array declaration (`Some(1)` for a scalar, `None` for `[]`).
fn total_elems(dims: &[Option<u64>]) -> Option<u64> {
    dims.iter().try_fold(1u64, |acc, d| d.map(|n| acc.saturating_mul(n)))
}

/// Size in bytes of a parameter or variable of `elems` elements, if known.
fn param_bytes(ty: VarType, vector: Option<u8>, elems: Option<u64>) -> Option<u64> {
    let VarType::Scalar(t) = ty else { return None };
    Some(u64::from(t.bits().max(8) / 8) * u64::from(vector.unwrap_or(1)) * elems?)
}

/// Functions the CUDA driver provides, which `ptxas` resolves without a definition.
const SYSTEM_FUNCTIONS: &[&str] = &["vprintf", "malloc", "free", "__assertfail", "__nvvm_reflect", "cudaGetParameterBuffer", "cudaLaunchDevice", "cudaGetParameterBufferV2", "cudaLaunchDeviceV2", "cudaDeviceSynchronize"];

/// Whether an instruction's state space can address a variable of another.
fn same_space(inst: StateSpace, var: StateSpace) -> bool {
    use StateSpace::*;
    let norm = |s| match s {
        SharedCta | Shared => Shared,
        ParamEntry | ParamFunc | Param => Param,
        other => other,
    };
    norm(inst) == norm(var) || (inst == SharedCluster && norm(var) == Shared)
}

fn item_span(i: &Item) -> Span {
    match i {
        Item::Function(f) => f.loc.0,
        Item::Variable(v) => v.loc.0,
        Item::File(f) => f.loc.0,
        Item::Section(s) => s.loc.0,
        Item::Pragma(p) => p.loc.0,
        Item::Alias(a) => a.loc.0,
    }
}

/// Lowest PTX ISA version that knows each target (PTX ISA manual, "PTX ISA
/// Version" release notes; checked against ptxas 13.5 for sm_90 and sm_120).
fn min_ptx_for_sm(sm: Sm) -> Option<(u8, u8)> {
    Some(match sm.number {
        10..=13 => (1, 0),
        20 => (2, 0),
        21 => (2, 1),
        30 => (3, 0),
        32 => (4, 0),
        35 => (3, 1),
        37 => (4, 1),
        50 => (4, 0),
        52 => (4, 1),
        53 => (4, 2),
        60..=62 => (5, 0),
        70 => (6, 0),
        72 => (6, 1),
        75 => (6, 3),
        80 => (7, 0),
        86 => (7, 1),
        87 => (7, 4),
        88 => (9, 0),
        89 => (7, 8),
        90 => (7, 8),
        100 | 101 => (8, 6),
        103 => (8, 8),
        107 | 110 => (9, 0),
        120 => (8, 7),
        121 => (8, 8),
        _ => return None,
    })
}

/// Whether a float literal (`0f`, `0d`, decimal) converts to `want`: a
/// float type other than the halves.
fn takes_float_literal(want: ScalarType) -> bool {
    want.kind() == TypeKind::Float && !matches!(want, ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2)
}

fn expr_type(e: &Expr) -> OperandType {
    match e {
        Expr::Int { .. } => OperandType::IntImm,
        Expr::F32(..) => OperandType::HexFloatImm(32),
        Expr::F64(..) => OperandType::HexFloatImm(64),
        Expr::Decimal(..) => OperandType::DecFloatImm,
        Expr::Symbol(..) | Expr::Generic(..) => OperandType::Address,
        Expr::Unary(_, a, _) => expr_type(a),
        Expr::Binary(_, a, b, _) => match (expr_type(a), expr_type(b)) {
            (OperandType::IntImm, OperandType::IntImm) => OperandType::IntImm,
            (x, OperandType::IntImm) | (OperandType::IntImm, x) => x,
            (x, _) => x,
        },
        Expr::Cond(_, a, _, _) => expr_type(a),
    }
}

fn widen(t: ScalarType) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match t {
        U16 => U32,
        S16 => S32,
        U32 => U64,
        S32 => S64,
        B16 => B32,
        B32 => B64,
        F32 => F64,
        _ => return None,
    })
}

/// [`reg_rule`], remembered per pair of types and policy: the checker
/// asks it for nearly every operand. An entry is 0 until first asked,
/// then 1 (incompatible) or 2 (compatible); racing threads store the same
/// value, so relaxed atomics suffice.
fn reg_compatible(r: ScalarType, want: ScalarType, policy: Policy) -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    const N: usize = ScalarType::SPELLINGS.len();
    static MEMO: [AtomicU8; 2 * N * N] = [const { AtomicU8::new(0) }; 2 * N * N];
    let p = usize::from(policy == Policy::Relaxed);
    let Some(entry) = MEMO.get((p * N + r as usize) * N + want as usize) else { return reg_rule(r, want, policy) };
    match entry.load(Ordering::Relaxed) {
        0 => {
            let ok = reg_rule(r, want, policy);
            entry.store(1 + u8::from(ok), Ordering::Relaxed);
            ok
        }
        known => known == 2,
    }
}

/// PTX's register-versus-instruction-type rules (PTX ISA "Type checking
/// rules", verified case by case against ptxas 13.5).
fn reg_rule(r: ScalarType, want: ScalarType, policy: Policy) -> bool {
    use TypeKind::*;
    let (rk, wk) = (r.kind(), want.kind());
    if rk == Pred || wk == Pred {
        return rk == wk;
    }
    match policy {
        Policy::Strict => {
            if r.bits() != want.bits() {
                return false;
            }
            match wk {
                Bits => true,
                Unsigned | Signed => matches!(rk, Bits | Unsigned | Signed),
                Float => matches!(rk, Bits | Float),
                Pred => false,
            }
        }
        Policy::Relaxed => match wk {
            Float => (rk == Float && r.bits() == want.bits()) || (rk == Bits && r.bits() >= want.bits()),
            Bits => r.bits() >= want.bits() && (rk != Float || r.bits() >= want.bits()),
            Unsigned | Signed => r.bits() >= want.bits() && matches!(rk, Bits | Unsigned | Signed),
            Pred => false,
        },
    }
}

/// Per-family facts the rules ask on every instruction, derived once from
/// the family names by the predicates below.
#[derive(Clone, Copy, Debug)]
struct FamilyTraits {
    /// The first of two or more operands is a destination register.
    writes_first: bool,
    /// No operand is a destination (stores, branches, barriers, fences...).
    no_dests: bool,
    /// The signature counts the type modifiers (see [`uses_single_type`]).
    single_type: bool,
    /// Two state-space modifiers are allowed (copies name both ends).
    two_spaces_ok: bool,
}

fn traits(op: Opcode) -> FamilyTraits {
    const OPCODES: usize = Opcode::ALL.len();
    // Per family, worked out on its first use.
    static TABLE: [std::sync::OnceLock<FamilyTraits>; OPCODES] = [const { std::sync::OnceLock::new() }; OPCODES];
    let derive = || {
        let name = op.name();
        FamilyTraits {
            writes_first: writes_first_operand(name),
            no_dests: has_no_destination(name),
            single_type: uses_single_type(name),
            two_spaces_ok: allows_two_spaces(name),
        }
    };
    TABLE.get(op as usize).map_or_else(derive, |slot| *slot.get_or_init(derive))
}

/// Whether the family's first operand (of two or more) is written.
fn writes_first_operand(opname: &str) -> bool {
    !matches!(
        opname,
        "st" | "red" | "bar" | "bar.sync" | "bar.arrive" | "bar.red" | "barrier" | "bra" | "brx.idx" | "call" | "ret"
            | "exit" | "prefetch" | "prefetchu" | "membar" | "fence" | "trap" | "brkpt" | "nanosleep" | "pmevent"
            | "bar.warp.sync" | "cp.async" | "st.async" | "red.async" | "sust" | "sured" | "mbarrier.init"
            | "mbarrier.inval" | "wmma.store" | "stmatrix" | "discard" | "applypriority" | "st.bulk"
            | "setmaxnreg" | "stackrestore" | "tcgen05.dealloc"
    ) && !opname.starts_with("cp.")
        && !opname.starts_with("multimem.st")
        && !opname.starts_with("multimem.red")
        && !opname.starts_with("bar")
}

/// `cvta.to.global`, `isspacep.global`, `ld.global`: one space at most;
/// `cp.async`-style copies name a destination and a source space.
fn allows_two_spaces(opname: &str) -> bool {
    opname.starts_with("cp")
        || opname.contains("bulk")
        || opname.starts_with("tensormap")
        || opname.starts_with("multimem")
        || opname == "mbarrier.arrive"
        || opname.starts_with("st.async")
        || opname.starts_with("red.async")
        || opname.starts_with("tcgen05")
}

/// Modifiers ptxas 13.5 takes more than once on one instruction, as if
/// written once (measured one by one; `.sync` also where it closes the
/// family's name, in the parser).
const REPEATABLE_FLAGS: [&str; 9] = [".cc", ".sat", ".satfinite", ".uni", ".approx", ".relu", ".shiftamt", ".NaN", ".sync"];

/// Families whose type modifiers are counted by the signature (others, such
/// as `mma` or `tex`, carry several types the signature does not name).
fn uses_single_type(opname: &str) -> bool {
    !matches!(
        opname,
        "mma" | "wmma.mma" | "wmma.load" | "wmma.store" | "tex" | "tld4" | "suld" | "sust" | "sured" | "dp4a" | "dp2a"
            | "cvt.pack" | "wgmma.mma_async" | "tcgen05.mma" | "slct" | "vadd" | "vsub" | "vmad" | "vabsdiff"
            | "vmin" | "vmax" | "vshl" | "vshr" | "vset" | "vadd2" | "vsub2" | "vavrg2" | "vabsdiff2" | "vmin2"
            | "vmax2" | "vset2" | "vadd4" | "vsub4" | "vavrg4" | "vabsdiff4" | "vmin4" | "vmax4" | "vset4"
            | "multimem.ld_reduce" | "multimem.st" | "multimem.red" | "cp.reduce.async.bulk" | "red.async"
            | "mma.sp" | "ldmatrix" | "stmatrix" | "movmatrix" | "cvt" | "set" | "shfl.sync" | "shfl"
    )
}

/// Families none of whose operands is a destination.
fn has_no_destination(opname: &str) -> bool {
    match opname {
        "st" | "red" | "bar.sync" | "bar" | "barrier" | "bra" | "call" | "prefetch" | "prefetchu" | "ret"
        | "exit" | "st.async" | "red.async" | "sust" | "sured" | "cp.async" | "bar.warp.sync" | "membar"
        | "fence" | "trap" | "brkpt" | "nanosleep" | "pmevent" | "mbarrier.init" | "setmaxnreg" | "brx.idx"
        | "stackrestore" | "tcgen05.dealloc" => true,
        _ => opname.starts_with("bar"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_register_names() {
        assert_eq!(special_register("%tid"), Some((ScalarType::U32, true)));
        assert_eq!(special_register("%clock64"), Some((ScalarType::U64, false)));
        assert_eq!(special_register("%pm3_64"), Some((ScalarType::U64, false)));
        assert_eq!(special_register("%pm7"), Some((ScalarType::U32, false)));
        assert_eq!(special_register("%envreg31"), Some((ScalarType::B32, false)));
        assert_eq!(special_register("%reserved_smem_offset_2"), Some((ScalarType::B32, false)));
        for not in ["%pm8", "%pm8_64", "%envreg32", "%envreg07", "%r1", "%tidx", "tid"] {
            assert_eq!(special_register(not), None, "{not}");
        }
    }

    /// ptxas 13.5: a kernel's parameters are `.param` ("Entry parameter
    /// 'n' must have .param state space"); a repeated `.target` is taken.
    #[test]
    fn entry_parameters_and_repeated_targets() {
        let kernel = |target: &str, params: &str| format!(".version 8.0\n{target}.address_size 64\n.visible .entry k({params}) {{\nret;\n}}\n");
        let verdict = |src: String| check(&crate::ptx::parse(&src).expect("parses"), &CheckOptions::default()).map_err(|e| format!("{e:?}"));
        let err = verdict(kernel(".target sm_80\n", ".param .u64 a, .reg .u32 n")).expect_err("a .reg kernel parameter");
        assert!(err.contains("entry parameter 'n' must have .param state space"), "{err}");
        verdict(kernel(".target sm_80\n", ".param .u64 a, .param .u32 n")).expect("`.param` parameters");
        verdict(kernel(".target sm_80\n.target sm_80\n", ".param .u64 a")).expect("a repeated .target");
    }

    #[test]
    fn planned_heads_still_report_operand_errors() {
        // The second and third `add.s32` reuse the first one's plan; their
        // bad operands must be reported as on the full path.
        let src = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() {\n\
                   .reg .b32 %r<4>;\n.reg .f32 %f<2>;\n.reg .pred %p;\n\
                   add.s32 %r1, %r2, %r3;\nadd.s32 %r1, %f1, %r3;\nadd.s32 %p, %r2, 1;\nadd.s32 %r1, %r2, 7;\nret;\n}\n";
        let m = crate::ptx::parse(src).expect("parses");
        for _ in 0..2 {
            let errs = check(&m, &CheckOptions::default()).expect_err("operand errors");
            let text = format!("{errs:?}");
            assert_eq!(text.matches("arguments mismatch for instruction 'add'").count(), 2, "{text}");
        }
    }

    /// A head that passed in one module is remembered for every module at
    /// or above its requirements, and only for those: the same head in an
    /// older module or on a lower target is still refused.
    #[test]
    fn memoised_heads_keep_their_requirements() {
        let module = |version: &str, target: &str, body: &str| {
            let src = format!(
                ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k() {{\n\
                 .reg .b32 %r<4>;\n.reg .pred %p<2>;\n{body}\nret;\n}}\n"
            );
            crate::ptx::parse(&src).expect("parses")
        };
        let checks = |m: &Module| check(m, &CheckOptions::default()).map(|_| ()).map_err(|e| format!("{e:?}"));
        let add = "add.u16x2 %r1, %r2, %r3;";
        for _ in 0..2 {
            assert_eq!(checks(&module("8.0", "sm_90", add)), Ok(()));
            assert_eq!(checks(&module("8.8", "sm_100", add)), Ok(()));
            let low_target = checks(&module("8.0", "sm_80", add)).expect_err("needs sm_90");
            assert!(low_target.contains("not supported on .target 'sm_80'"), "{low_target}");
            let low_version = checks(&module("7.8", "sm_90", add)).expect_err("needs PTX 8.0");
            assert!(low_version.contains("requires PTX ISA .version 8.0"), "{low_version}");
        }
        // `vote` without `.sync` is refused from PTX 6.4 on sm_70 upward.
        let vote = "vote.all.pred %p1, %p0;";
        for _ in 0..2 {
            assert_eq!(checks(&module("6.3", "sm_70", vote)), Ok(()));
            let newer = checks(&module("6.4", "sm_70", vote)).expect_err("vote needs .sync");
            assert!(newer.contains("without '.sync'"), "{newer}");
        }
    }

    /// A kernel of `body` on `target` at PTX 9.5, checked: `Ok`, or the
    /// errors' text. Expected verdicts are ptxas 13.5's on the same text.
    fn verdict(target: &str, body: &str) -> Result<(), String> {
        let src = format!(
            ".version 9.5\n.target {target}\n.address_size 64\n.visible .entry k(.param .u64 .ptr .global .align 16 p) {{\n\
             .reg .b32 %r<8>;\n.reg .b16 %rs<4>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\n{body}\nret;\n}}\n"
        );
        let m = crate::ptx::parse(&src).map_err(|e| format!("{e:?}"))?;
        check(&m, &CheckOptions::default()).map(|_| ()).map_err(|e| format!("{e:?}"))
    }

    #[test]
    fn one_element_vectors_are_scalars_in_ld_st_and_mov() {
        // LLVM's NVPTX back end (Triton's masked loads and stores).
        assert_eq!(verdict("sm_80", "@%p1 ld.global.b32 { %r1 }, [ %rd1 + 0 ];\nst.global.b32 [ %rd1 + 4 ], { %r1 };"), Ok(()));
        assert_eq!(verdict("sm_80", "ld.global.b64 {%rd2}, [%rd1];\nmov.b32 %r1, {%r2};\nmov.b32 {%r1}, %r2;\nst.global.b32 [%rd1], {5};"), Ok(()));
        // ptxas refuses these.
        let add = verdict("sm_80", "add.s32 {%r1}, %r2, %r3;").expect_err("not in add");
        assert!(add.contains("vector operand is not allowed for instruction 'add'"), "{add}");
        let v2 = verdict("sm_80", "ld.global.v2.b32 {%r1}, [%rd1];").expect_err("not for .v2");
        assert!(v2.contains("argument vector size mismatch"), "{v2}");
        assert!(verdict("sm_80", "ld.global.b32 {%r1, %r2}, [%rd1];").is_err());
    }

    #[test]
    fn video_selectors_where_ptxas_takes_them() {
        // Each verdict is ptxas 13.5's on the same line (sm_80).
        for accepted in [
            "vadd.u32.u32.u32 %r1, %r2.b1, %r3.h1;",
            "vadd.s32.s32.s32 %r1.b0, %r2.b3, %r3.h0, %r4;",
            "vadd.u32.u32.u32 %r1.h1, %r2, %r3, %r4;",
            "vadd.u32.u32.u32 %r1, %r2, %r3, %r4;",
            "vmad.u32.u32.u32 %r1, -%r2.b0, %r3.h1, %r4;",
            "vshl.u32.u32.u32.clamp %r1.h1, %r2.b1, %r3.b2, %r4;",
            "vset.u32.u32.eq %r1.b1, %r2.b1, %r3.b2, %r4;",
            "vadd2.u32.u32.u32 %r1.h0, %r2.h01, %r3.h23, %r4;",
            "vadd2.u32.u32.u32 %r1.h10, %r2.h33, %r3.h00, %r4;",
            "vadd4.u32.u32.u32 %r1.b31, %r2.b0123, %r3.b7777, %r4;",
            "vadd4.u32.u32.u32 %r1.b3210, %r2, %r3, %r4;",
            "vset4.u32.u32.lt %r1.b20, %r2.b0123, %r3.b4567, %r4;",
        ] {
            assert_eq!(verdict("sm_80", accepted), Ok(()), "{accepted}");
        }
        for (refused, why) in [
            ("vadd.u32.u32.u32 %r1, %r2.b10, %r3;", "incorrect video selector '.b10' for operand 1"),
            ("vadd.u32.u32.u32 %r1, %r2.h2, %r3;", "incorrect video selector"),
            ("vadd.u32.u32.u32 %r1, %r2, %r3.b4;", "incorrect video selector '.b4' for operand 2"),
            ("vadd.u32.u32.u32 %r1.b10, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd.u32.u32.u32 %r1.b0, %r2, %r3;", "not allowed on destination for instruction 'vadd'"),
            ("vadd.u32.u32.u32.add %r1.b0, %r2, %r3, %r4;", "destination selector and a secondary operation"),
            ("vadd.u32.u32.u32.add %r1, %r2, %r3, %r4.b0;", "not allowed on source operand c"),
            ("vmad.u32.u32.u32 %r1.b0, %r2, %r3, %r4;", "not allowed on destination for instruction 'vmad'"),
            ("vadd.u32.u32.u32 %r1, -%r2.b0, %r3;", "negation not allowed for instruction 'vadd'"),
            ("add.u32 %r1, %r2.b0, %r3;", "not allowed on source operand for instruction 'add'"),
            ("add.u32 %r1.b0, %r2, %r3;", "not allowed on destination for instruction 'add'"),
            ("vadd2.u32.u32.u32 %r1.h01, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd2.u32.u32.u32 %r1.b0, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd2.u32.u32.u32 %r1, %r2.h0, %r3, %r4;", "incorrect video selector"),
            ("vadd2.u32.u32.u32 %r1, %r2.b10, %r3, %r4;", "incorrect video selector"),
            ("vadd4.u32.u32.u32 %r1.b01, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd4.u32.u32.u32 %r1.b11, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd4.u32.u32.u32 %r1.b4, %r2, %r3, %r4;", "incorrect video selector"),
            ("vadd4.u32.u32.u32 %r1.h0, %r2, %r3, %r4;", "incorrect video selector"),
            ("vmin4.s32.s32.s32 %r1, %r2.b10, %r3, %r4;", "incorrect video selector"),
            ("vmin4.s32.s32.s32 %r1, %r2.h10, %r3, %r4;", "incorrect video selector"),
            ("vmin4.s32.s32.s32 %r1, %r2, %r3.b8765, %r4;", ""),
        ] {
            let e = verdict("sm_80", refused).expect_err(refused);
            assert!(e.contains(why), "{refused}: {e}");
        }
    }

    #[test]
    fn cvt_sat_between_integers_needs_something_to_saturate() {
        // ptxas 13.5 over the 64 integer pairs: `.sat` is refused exactly
        // where every source value fits the destination.
        for refused in ["cvt.sat.s32.s32 %r1, %r2;", "cvt.sat.s32.s16 %r1, %rs1;", "cvt.sat.s32.u16 %r1, %rs1;", "cvt.sat.u64.u32 %rd2, %r1;", "cvt.sat.s64.s32 %rd2, %r1;", "cvt.sat.u16.u8 %rs1, %rs2;"] {
            let e = verdict("sm_80", refused).expect_err(refused);
            assert!(e.contains("illegal modifier '.sat' for instruction 'cvt'"), "{refused}: {e}");
        }
        for accepted in ["cvt.sat.s32.u32 %r1, %r2;", "cvt.sat.u32.s32 %r1, %r2;", "cvt.sat.s8.s32 %rs1, %r2;", "cvt.sat.u16.s8 %rs1, %rs2;", "cvt.sat.s32.s64 %r1, %rd2;", "cvt.sat.u64.s64 %rd2, %rd3;"] {
            assert_eq!(verdict("sm_80", accepted), Ok(()), "{accepted}");
        }
    }

    #[test]
    fn inlined_at_names_a_preceding_loc() {
        // ptxas 13.5: "Source location 1 11 10 used in inlined_at directive
        // must be used in a preceding .loc directive"; the column counts,
        // and a `.loc` of an earlier function is preceding too.
        let given = ".loc 1 11 10\nadd.s32 %r1, %r1, 1;\n.loc 1 20 3, inlined_at 1 11 10\nadd.s32 %r1, %r1, 1;";
        assert_eq!(verdict("sm_80", given), Ok(()));
        let other_column = verdict("sm_80", ".loc 1 11 9\nadd.s32 %r1, %r1, 1;\n.loc 1 20 3, inlined_at 1 11 10\nadd.s32 %r1, %r1, 1;").expect_err("column 10 not given");
        assert!(other_column.contains("source location 1 11 10 used in inlined_at"), "{other_column}");
        let later = verdict("sm_80", ".loc 1 20 3, inlined_at 1 11 10\nadd.s32 %r1, %r1, 1;\n.loc 1 11 10\nadd.s32 %r1, %r1, 1;").expect_err("given after");
        assert!(later.contains("not that of a preceding .loc directive"), "{later}");
    }

    #[test]
    fn labels_are_scoped_to_their_block() {
        // The same label in two inline-assembly blocks, as LLVM writes
        // Triton's mbarrier wait loops; scoped registers shadowing too.
        let two_blocks = "{ .reg .pred complete; waitLoop: setp.ne.s32 complete, %r1, 0; @!complete bra.uni waitLoop; }\n\
                          { .reg .pred complete; waitLoop: setp.ne.s32 complete, %r2, 0; @!complete bra.uni waitLoop; }";
        assert_eq!(verdict("sm_80", two_blocks), Ok(()));
        let twice = verdict("sm_80", "{ L: add.s32 %r1, %r1, 1; L: bra L; }").expect_err("twice in one block");
        assert!(twice.contains("duplicate definition of label 'L'"), "{twice}");
        assert!(verdict("sm_80", "L: add.s32 %r1, %r1, 1;\nL: bra L;").is_err());
    }

    #[test]
    fn packed_f32x2_and_mixed_precision_need_sm_100() {
        let packed = "add.f32x2 %rd2, %rd3, %rd4;\nsub.rn.ftz.f32x2 %rd2, %rd3, %rd4;\nmul.f32x2 %rd2, %rd3, %rd4;\nfma.rn.f32x2 %rd2, %rd3, %rd4, %rd5;";
        assert_eq!(verdict("sm_100a", packed), Ok(()));
        assert_eq!(verdict("sm_120a", packed), Ok(()));
        assert!(verdict("sm_90a", "add.f32x2 %rd2, %rd3, %rd4;").is_err());
        let mixed = "sub.rn.f32.f16 %r1, %rs1, %r2;\nadd.rz.sat.f32.bf16 %r1, %rs1, %r2;\nfma.rn.f32.f16 %r1, %rs1, %rs2, %r2;";
        assert_eq!(verdict("sm_100a", mixed), Ok(()));
        let old = verdict("sm_90a", "sub.rn.f32.f16 %r1, %rs1, %r2;").expect_err("sm_100 only");
        assert!(old.contains("Feature 'sub.f32.f16' requires .target sm_100 or higher"), "{old}");
        // The half operand must be a half; the types must be f32 then a half.
        assert!(verdict("sm_100a", "add.f32.f16 %r1, %r2, %r3;").is_err());
        assert!(verdict("sm_100a", "add.f16.f32 %rs1, %r2, %rs3;").is_err());
    }

    #[test]
    fn rule_tables_resolve_every_spelling() {
        let w = words();
        for k in [w.approx, w.full, w.lo, w.hi, w.wide, w.nc, w.to] {
            assert!(k.is_some(), "a word the rules test for is missing from the opcode table");
        }
        for &op in Opcode::ALL {
            assert_eq!(
                modifier_requirements(op).0.len(),
                op.info().modifier_reqs.len(),
                "a modifier requirement of '{}' names a modifier the family does not allow",
                op.name()
            );
        }
    }
}

/// Why a variable or parameter cannot be declared with type `ty` in
/// `space`, as ptxas 13.5 decides it (measured for `.param` and `.reg`
/// on sm_100a): some types are instruction types only (`.e4m3`,
/// `.f32x2`, ...), some are not declaration types at all (ptxas's
/// grammar has no `.bf16`, `.tf32`, `.b1`, `.s4` variable: a syntax
/// error there), and `.f16x2` and `.e2m1x4` have no `.param` layout.
fn declared_type_error(ty: VarType, space: StateSpace) -> Option<String> {
    use ScalarType as T;
    let VarType::Scalar(t) = ty else { return None };
    match t {
        T::B1 | T::S4 | T::U4 | T::S2 | T::U2 | T::S8x4 | T::U8x4 | T::Bf16 | T::Bf16x2 | T::Tf32 | T::E2m1 | T::E2m3 | T::E3m2 | T::Ue8m0 => {
            Some(format!("type {} cannot declare a variable (ptxas: a syntax error)", t.spelling()))
        }
        T::E4m3 | T::E5m2 | T::E4m3x2 | T::E5m2x2 | T::E2m1x2 | T::E3m2x2 | T::E2m3x2 | T::Ue8m0x2 | T::S16x2 | T::U16x2 | T::F32x2 | T::E4m3x4 | T::E5m2x4 => {
            Some(format!("type {} may only be used as an instruction type", t.spelling()))
        }
        T::F16x2 | T::E2m1x4 if space == StateSpace::Param => Some(format!("a {} variable cannot be allocated in .param state space", t.spelling())),
        _ => None,
    }
}
