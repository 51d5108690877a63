//! The PTX abstract syntax tree: everything a module says, typed, with a
//! [`Span`] on every node and no borrow of the source text.
//!
//! Names (registers, variables, labels, functions) are interned into the
//! module's [`Interner`] in order of first appearance, so two parses of texts
//! that mean the same program give equal trees. Spans never take part in
//! equality: nodes hold a [`Loc`], which compares equal to every other `Loc`.

use super::lookup::namekey::NameKey;
use super::modifier::Modifier;
use super::opcode::Opcode;
use crate::diag::Span;
use crate::target::Sm;

/// A source location carried by an AST node. Unlike [`Span`], two `Loc`s are
/// always equal: where a node came from does not change what it means, and
/// the printer's round trip (`parse(print(parse(x))) == parse(x)`) relies on it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loc(pub Span);

impl PartialEq for Loc {
    fn eq(&self, _: &Loc) -> bool {
        true
    }
}
impl Eq for Loc {}

impl Loc {
    /// The span.
    pub fn span(self) -> Span {
        self.0
    }
}

/// An interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(pub u32);

/// The module's name table: every name's text in one arena, and an
/// open-addressing hash table of symbol indices over it. Interning a name
/// seen before costs one `NameKey` and usually one probe and one key
/// comparison; a new name costs no allocation of its own (the arena grows
/// geometrically).
#[derive(Clone, Debug, Default)]
pub struct Interner {
    /// The texts of all names, back to back.
    text: String,
    /// End offset in `text` of each symbol's name (its start is the previous end).
    ends: Vec<u32>,
    /// Each symbol's key (its hash included, so growing the table rehashes nothing).
    keys: Vec<NameKey>,
    /// Hash slots: `symbol + 1`, or 0 when empty. Length is a power of two, at
    /// most half full.
    slots: Vec<u32>,
}

impl PartialEq for Interner {
    fn eq(&self, other: &Interner) -> bool {
        self.ends == other.ends && self.text == other.text
    }
}
impl Eq for Interner {}

impl Interner {
    /// An empty table with room for about `names` names of `bytes` total length.
    pub fn with_capacity(names: usize, bytes: usize) -> Interner {
        let slots = (names * 2).next_power_of_two().max(16);
        Interner {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(names),
            keys: Vec::with_capacity(names),
            slots: vec![0; slots],
        }
    }

    /// The symbol for `name`, adding it if new.
    #[inline]
    pub fn intern(&mut self, name: &str) -> Symbol {
        let key = NameKey::new(name.as_bytes());
        match self.find(name, key) {
            Ok(s) => s,
            Err(slot) => self.add(name, key, slot),
        }
    }

    /// Adds a name that `find` did not find; `slot` is the empty slot it ended on.
    fn add(&mut self, name: &str, key: NameKey, slot: usize) -> Symbol {
        let s = Symbol(self.ends.len() as u32);
        self.text.push_str(name);
        self.ends.push(self.text.len() as u32);
        self.keys.push(key);
        if (self.ends.len() + 1) * 2 > self.slots.len() {
            self.grow();
        } else {
            self.slots[slot] = s.0 + 1;
        }
        s
    }

    /// The symbol for `name` if it was interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.find(name, NameKey::new(name.as_bytes())).ok()
    }

    /// [`Interner::get`] for a caller that has the name's key already.
    pub(crate) fn get_keyed(&self, name: &str, key: NameKey) -> Option<Symbol> {
        self.find(name, key).ok()
    }

    /// The text of a symbol.
    pub fn name(&self, s: Symbol) -> &str {
        let k = s.0 as usize;
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text[start..self.ends[k] as usize]
    }

    /// Every name's text, in symbol order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let s = self.text.get(start..end as usize).unwrap_or("");
            start = end as usize;
            s
        })
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no name was interned.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn name_bytes(&self, s: Symbol) -> &[u8] {
        self.name(s).as_bytes()
    }

    /// The symbol of `name`, or the empty slot where it would go.
    /// (Always inlined: the parser interns a name per operand, and the
    /// call would cost a fifth of a lookup.)
    #[inline(always)]
    fn find(&self, name: &str, key: NameKey) -> Result<Symbol, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = key.hash as usize & mask;
        loop {
            let Some(&slot) = self.slots.get(i) else { return Err(i) };
            if slot == 0 {
                return Err(i);
            }
            let s = Symbol(slot - 1);
            let k = self.keys[s.0 as usize];
            if k.matches(key) && (key.is_exact() || self.name_bytes(s) == name.as_bytes()) {
                return Ok(s);
            }
            i = (i + 1) & mask;
        }
    }

    fn place(&mut self, s: Symbol, hash: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = s.0 + 1;
    }

    /// Doubles the slot table and places every symbol again (the one just
    /// added included).
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        self.slots = vec![0; size];
        for k in 0..self.ends.len() {
            self.place(Symbol(k as u32), self.keys[k].hash);
        }
    }
}

pub use crate::fxhash::{FxBuild, FxHasher};

/// A whole PTX module.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Module {
    /// `.version major.minor`.
    pub version: Option<Version>,
    /// `.target ...`.
    pub target: Option<TargetDirective>,
    /// `.address_size 32|64`.
    pub address_size: Option<(u32, Loc)>,
    /// Everything else, in source order.
    pub items: Vec<Item>,
    /// Names used anywhere in the module.
    pub names: Interner,
    /// Every instruction's operands, each instruction's (and each operand
    /// list's) a contiguous [`OperandList`] run; see [`Module::operands`].
    pub operand_pool: Vec<Operand>,
}

impl Module {
    /// The operands of a list (an instruction's, or a `{...}`, `[...]` or
    /// `(...)` operand's elements).
    #[inline]
    pub fn operands(&self, list: OperandList) -> &[Operand] {
        self.operand_pool.get(list.range()).unwrap_or(&[])
    }

    /// Appends operands to the pool and returns their list (for building
    /// instructions in code).
    pub fn push_operands(&mut self, ops: impl IntoIterator<Item = Operand>) -> OperandList {
        let start = self.operand_pool.len();
        self.operand_pool.extend(ops);
        OperandList::new(start, self.operand_pool.len() - start)
    }
}

/// A run of operands in [`Module::operand_pool`]. Operands live in one
/// module-wide vector rather than one vector per instruction: parsing then
/// allocates nothing per instruction, and dropping a module frees one block.
/// Two lists compare equal when they name the same run, so equal modules
/// (which fill their pools in the same order) have equal instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperandList {
    /// Index of the first operand in the pool.
    pub start: u32,
    /// Number of operands.
    pub len: u32,
}

impl OperandList {
    /// The run `start..start + len` (saturated to 32 bits).
    pub fn new(start: usize, len: usize) -> OperandList {
        OperandList { start: start.min(u32::MAX as usize) as u32, len: len.min(u32::MAX as usize) as u32 }
    }
    /// Number of operands.
    pub fn len(self) -> usize {
        self.len as usize
    }
    /// Whether the list is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// The pool indices.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// `.version major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// Major.
    pub major: u8,
    /// Minor.
    pub minor: u8,
    /// Where.
    pub loc: Loc,
}

impl Version {
    /// As a comparable pair.
    pub fn pair(self) -> (u8, u8) {
        (self.major, self.minor)
    }
}

/// One entry of `.target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetEntry {
    /// `sm_XX[a|f]`.
    Sm(Sm),
    /// `texmode_unified`.
    TexmodeUnified,
    /// `texmode_independent`.
    TexmodeIndependent,
    /// `debug`.
    Debug,
    /// `map_f64_to_f32`.
    MapF64ToF32,
}

/// `.target a, b, ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetDirective {
    /// The entries with their locations.
    pub entries: Vec<(TargetEntry, Loc)>,
    /// Where.
    pub loc: Loc,
}

impl TargetDirective {
    /// The SM named, if any.
    pub fn sm(&self) -> Option<Sm> {
        self.entries.iter().find_map(|(e, _)| match e {
            TargetEntry::Sm(sm) => Some(*sm),
            _ => None,
        })
    }
}

/// A module-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `.entry` or `.func`, with or without body.
    Function(Box<Function>),
    /// Module-scope variable(s).
    Variable(VarDecl),
    /// `.file N "name"[, timestamp, size]`.
    File(FileDirective),
    /// `.section name { ... }`.
    Section(Section),
    /// `.pragma "..." ;`.
    Pragma(Pragma),
    /// `.alias alias, aliasee;`.
    Alias(Alias),
}

/// Linking directive of a function or variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Linkage {
    /// None written.
    #[default]
    Default,
    /// `.visible`.
    Visible,
    /// `.extern`.
    Extern,
    /// `.weak`.
    Weak,
    /// `.common`.
    Common,
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A kernel.
    Entry,
    /// A device function.
    Func,
}

/// A kernel or device function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Linking directive.
    pub linkage: Linkage,
    /// Kernel or function.
    pub kind: FunctionKind,
    /// Return parameters (`.func` only).
    pub returns: Vec<Param>,
    /// Name.
    pub name: Symbol,
    /// Where the name is.
    pub name_loc: Loc,
    /// Parameters; `None` when the parameter list is absent (not just empty).
    pub params: Option<Vec<Param>>,
    /// Performance-tuning and other header directives, in order.
    pub directives: Vec<FunctionDirective>,
    /// Body; `None` for a declaration (`;`).
    pub body: Option<Block>,
    /// Whole function.
    pub loc: Loc,
}

/// A directive between a function's header and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionDirective {
    /// `.maxntid x[, y[, z]]`.
    MaxNtid(Vec<u32>, Loc),
    /// `.reqntid x[, y[, z]]`.
    ReqNtid(Vec<u32>, Loc),
    /// `.minnctapersm n`.
    MinNctaPerSm(u32, Loc),
    /// `.maxnctapersm n` (deprecated).
    MaxNctaPerSm(u32, Loc),
    /// `.maxnreg n`.
    MaxNreg(u32, Loc),
    /// `.noreturn`.
    NoReturn(Loc),
    /// `.explicitcluster`.
    ExplicitCluster(Loc),
    /// `.reqnctapercluster x[, y[, z]]`.
    ReqNctaPerCluster(Vec<u32>, Loc),
    /// `.maxclusterrank n`.
    MaxClusterRank(u32, Loc),
    /// `.blocksareclusters`.
    BlocksAreClusters(Loc),
    /// `.abi_preserve n`.
    AbiPreserve(u32, Loc),
    /// `.abi_preserve_control n`.
    AbiPreserveControl(u32, Loc),
    /// `.pragma "..."` in the header.
    Pragma(Pragma),
}

/// A parameter of `.entry`/`.func` (or a return value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// `.param` or `.reg`.
    pub space: StateSpace,
    /// `.align N` (before or after the type).
    pub align: Option<u32>,
    /// `.vN`.
    pub vector: Option<u8>,
    /// Element type.
    pub ty: VarType,
    /// `.ptr [.space] [.align N]` attribute.
    pub ptr: Option<PtrAttr>,
    /// Name.
    pub name: Symbol,
    /// Array dimensions (`[N]`; `None` for `[]`).
    pub dims: Vec<Option<u64>>,
    /// Where.
    pub loc: Loc,
}

/// `.ptr` attribute of a kernel pointer parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    /// `.global`, `.shared`, `.const`, `.local` or none (generic).
    pub space: Option<StateSpace>,
    /// `.align N`.
    pub align: Option<u32>,
}

/// A `{ ... }` statement block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Statement>,
    /// From `{` to `}`.
    pub loc: Loc,
}

/// A statement inside a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// An instruction.
    Instruction(Instruction),
    /// `name:`.
    Label(Symbol, Loc),
    /// `.reg`, `.local`, `.shared`, `.param`, ... declaration.
    Variable(VarDecl),
    /// Nested block.
    Block(Block),
    /// `.pragma "..." ;`.
    Pragma(Pragma),
    /// `.loc file line col[, function_name f][, inlined_at f l c]`.
    Loc(LocDirective),
    /// `name: .branchtargets L1, L2, ...;`.
    BranchTargets(Symbol, Vec<(Symbol, Loc)>, Loc),
    /// `name: .calltargets f1, f2, ...;`.
    CallTargets(Symbol, Vec<(Symbol, Loc)>, Loc),
    /// `name: .callprototype (ret) _ (params) [.noreturn] [.abi_preserve N]...;`.
    CallPrototype(Box<CallPrototype>),
}

/// A `.callprototype` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallPrototype {
    /// The label naming the prototype.
    pub name: Symbol,
    /// Return parameters.
    pub returns: Vec<Param>,
    /// Parameters.
    pub params: Vec<Param>,
    /// Trailing directives such as `.noreturn`.
    pub directives: Vec<FunctionDirective>,
    /// Where.
    pub loc: Loc,
}

/// `.pragma "text"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// The strings, without quotes or escapes removed.
    pub strings: Vec<String>,
    /// Where.
    pub loc: Loc,
}

/// `.alias a, b;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The alias.
    pub alias: Symbol,
    /// The aliased function.
    pub aliasee: Symbol,
    /// Where.
    pub loc: Loc,
}

/// `.file index "name"[, timestamp, size]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDirective {
    /// File index.
    pub index: u32,
    /// File name (escapes kept as written).
    pub name: String,
    /// Optional modification time and size.
    pub timestamp_size: Option<(u64, u64)>,
    /// Where.
    pub loc: Loc,
}

/// `.loc` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocDirective {
    /// File index.
    pub file: u32,
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// `function_name label[+off]`.
    pub function_name: Option<(Symbol, i64)>,
    /// `inlined_at file line col`.
    pub inlined_at: Option<(u32, u32, u32)>,
    /// Where.
    pub loc: Loc,
}

/// `.section name { entries }` (DWARF data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The section name including its dot, e.g. `.debug_info`.
    pub name: String,
    /// Contents.
    pub entries: Vec<SectionEntry>,
    /// Where.
    pub loc: Loc,
}

/// One line of a `.section` body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionEntry {
    /// `.b8/.b16/.b32/.b64 v, v, ...`.
    Data(u8, Vec<Expr>, Loc),
    /// A label inside the section.
    Label(Symbol, Loc),
}

/// A state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    /// `.reg`
    Reg,
    /// `.sreg`
    Sreg,
    /// `.const`
    Const,
    /// `.global`
    Global,
    /// `.local`
    Local,
    /// `.param` (unqualified)
    Param,
    /// `.param::entry`
    ParamEntry,
    /// `.param::func`
    ParamFunc,
    /// `.shared` (unqualified)
    Shared,
    /// `.shared::cta`
    SharedCta,
    /// `.shared::cluster`
    SharedCluster,
    /// `.tex`
    Tex,
}

impl StateSpace {
    /// All spaces with their spellings.
    pub const SPELLINGS: &'static [(StateSpace, &'static str)] = &[
        (StateSpace::Reg, ".reg"),
        (StateSpace::Sreg, ".sreg"),
        (StateSpace::Const, ".const"),
        (StateSpace::Global, ".global"),
        (StateSpace::Local, ".local"),
        (StateSpace::Param, ".param"),
        (StateSpace::ParamEntry, ".param::entry"),
        (StateSpace::ParamFunc, ".param::func"),
        (StateSpace::Shared, ".shared"),
        (StateSpace::SharedCta, ".shared::cta"),
        (StateSpace::SharedCluster, ".shared::cluster"),
        (StateSpace::Tex, ".tex"),
    ];
    /// Parses a spelling with its dot.
    pub fn from_spelling(s: &str) -> Option<StateSpace> {
        const PACKED: [u64; StateSpace::SPELLINGS.len()] = super::lookup::spelling::pack_all(StateSpace::SPELLINGS);
        super::lookup::spelling::find(s, Self::SPELLINGS, &PACKED)
    }
    /// The spelling with its dot.
    pub fn spelling(self) -> &'static str {
        Self::SPELLINGS.iter().find(|(k, _)| *k == self).map_or("", |(_, n)| n)
    }
}

/// The type of a declared variable or parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarType {
    /// A fundamental type.
    Scalar(ScalarType),
    /// `.texref`
    TexRef,
    /// `.samplerref`
    SamplerRef,
    /// `.surfref`
    SurfRef,
}

/// PTX fundamental and packed types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum ScalarType {
    Pred,
    B1, B8, B16, B32, B64, B128,
    U8, U16, U32, U64,
    S4, U4, S8, S16, S32, S64,
    F16, F16x2, F32, F64,
    Bf16, Bf16x2, Tf32,
    E4m3, E5m2, E4m3x2, E5m2x2,
    E2m1, E2m1x2, E3m2, E3m2x2, E2m3, E2m3x2,
    Ue8m0, Ue8m0x2, E2m1x4, E4m3x4, E5m2x4, E3m2x4, E2m3x4,
    S8x4, U8x4, S16x2, U16x2, S2, U2,
    /// Two f32 in a 64-bit register (`add/sub/mul/fma.f32x2`, sm_100+).
    F32x2,
}

/// Broad kind of a scalar type, for PTX's type-compatibility rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `.pred`
    Pred,
    /// `.bN`
    Bits,
    /// `.uN`
    Unsigned,
    /// `.sN`
    Signed,
    /// `.fN`, `.bf16`, `.tf32`, fp8/fp6/fp4 and packed float types
    Float,
}

impl ScalarType {
    /// Every type with its spelling.
    pub const SPELLINGS: &'static [(ScalarType, &'static str)] = &[
        (ScalarType::Pred, ".pred"),
        (ScalarType::B1, ".b1"),
        (ScalarType::B8, ".b8"),
        (ScalarType::B16, ".b16"),
        (ScalarType::B32, ".b32"),
        (ScalarType::B64, ".b64"),
        (ScalarType::B128, ".b128"),
        (ScalarType::U8, ".u8"),
        (ScalarType::U16, ".u16"),
        (ScalarType::U32, ".u32"),
        (ScalarType::U64, ".u64"),
        (ScalarType::S4, ".s4"),
        (ScalarType::U4, ".u4"),
        (ScalarType::S8, ".s8"),
        (ScalarType::S16, ".s16"),
        (ScalarType::S32, ".s32"),
        (ScalarType::S64, ".s64"),
        (ScalarType::F16, ".f16"),
        (ScalarType::F16x2, ".f16x2"),
        (ScalarType::F32, ".f32"),
        (ScalarType::F64, ".f64"),
        (ScalarType::Bf16, ".bf16"),
        (ScalarType::Bf16x2, ".bf16x2"),
        (ScalarType::Tf32, ".tf32"),
        (ScalarType::E4m3, ".e4m3"),
        (ScalarType::E5m2, ".e5m2"),
        (ScalarType::E4m3x2, ".e4m3x2"),
        (ScalarType::E5m2x2, ".e5m2x2"),
        (ScalarType::E2m1, ".e2m1"),
        (ScalarType::E2m1x2, ".e2m1x2"),
        (ScalarType::E3m2, ".e3m2"),
        (ScalarType::E3m2x2, ".e3m2x2"),
        (ScalarType::E2m3, ".e2m3"),
        (ScalarType::E2m3x2, ".e2m3x2"),
        (ScalarType::Ue8m0, ".ue8m0"),
        (ScalarType::Ue8m0x2, ".ue8m0x2"),
        (ScalarType::E2m1x4, ".e2m1x4"),
        (ScalarType::E4m3x4, ".e4m3x4"),
        (ScalarType::E5m2x4, ".e5m2x4"),
        (ScalarType::E3m2x4, ".e3m2x4"),
        (ScalarType::E2m3x4, ".e2m3x4"),
        (ScalarType::S8x4, ".s8x4"),
        (ScalarType::U8x4, ".u8x4"),
        (ScalarType::S16x2, ".s16x2"),
        (ScalarType::U16x2, ".u16x2"),
        (ScalarType::S2, ".s2"),
        (ScalarType::U2, ".u2"),
        (ScalarType::F32x2, ".f32x2"),
    ];

    /// Parses a spelling with its dot.
    pub fn from_spelling(s: &str) -> Option<ScalarType> {
        const PACKED: [u64; ScalarType::SPELLINGS.len()] = super::lookup::spelling::pack_all(ScalarType::SPELLINGS);
        super::lookup::spelling::find(s, Self::SPELLINGS, &PACKED)
    }
    /// The spelling with its dot.
    pub fn spelling(self) -> &'static str {
        Self::SPELLINGS[self as usize].1
    }
    /// Size in bits as stored in a register (packed types count whole).
    pub fn bits(self) -> u32 {
        use ScalarType::*;
        match self {
            Pred | B1 => 1,
            S2 | U2 => 2,
            S4 | U4 | E2m1 => 4,
            E3m2 | E2m3 => 6,
            B8 | U8 | S8 | E4m3 | E5m2 | Ue8m0 | E2m1x2 => 8,
            B16 | U16 | S16 | F16 | Bf16 | E4m3x2 | E5m2x2 | E3m2x2 | E2m3x2 | Ue8m0x2
            | E2m1x4 => 16,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 | Tf32 | E4m3x4 | E5m2x4 | E3m2x4
            | E2m3x4 | S8x4 | U8x4 | S16x2 | U16x2 => 32,
            B64 | U64 | S64 | F64 | F32x2 => 64,
            B128 => 128,
        }
    }
    /// The kind for type compatibility.
    pub fn kind(self) -> TypeKind {
        use ScalarType::*;
        match self {
            Pred => TypeKind::Pred,
            B1 | B8 | B16 | B32 | B64 | B128 => TypeKind::Bits,
            U2 | U4 | U8 | U16 | U32 | U64 | U8x4 | U16x2 => TypeKind::Unsigned,
            S2 | S4 | S8 | S16 | S32 | S64 | S8x4 | S16x2 => TypeKind::Signed,
            _ => TypeKind::Float,
        }
    }
}

/// A variable declaration, possibly naming several variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Linking directive (module scope).
    pub linkage: Linkage,
    /// State space.
    pub space: StateSpace,
    /// `.attribute(.managed)` and similar.
    pub attributes: Vec<String>,
    /// `.align N`.
    pub align: Option<u32>,
    /// `.vN`.
    pub vector: Option<u8>,
    /// Element type.
    pub ty: VarType,
    /// `.ptr` attribute (on `.param` declarations inside bodies).
    pub ptr: Option<PtrAttr>,
    /// The declared names.
    pub declarators: Vec<Declarator>,
    /// Where.
    pub loc: Loc,
}

/// One declared name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declarator {
    /// Name (for a range `%r<N>`, the prefix `%r`).
    pub name: Symbol,
    /// `<N>`: declares `name0` .. `name{N-1}`.
    pub range: Option<u32>,
    /// Array dimensions, outermost first; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    /// `= initialiser`.
    pub init: Option<Initializer>,
    /// Where the name is.
    pub loc: Loc,
}

/// A variable initialiser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Initializer {
    /// A constant expression (number, address of a variable, `generic(var)`, arithmetic).
    Expr(Expr),
    /// `{ a, b, ... }`.
    List(Vec<Initializer>, Loc),
}

/// A constant expression (initialisers, immediates, address offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Integer literal (value as a 64-bit pattern; `unsigned` when written with `U`).
    Int {
        /// Bits.
        value: u64,
        /// `U` suffix.
        unsigned: bool,
        /// Where.
        loc: Loc,
    },
    /// `0fXXXXXXXX`: the bits.
    F32(u32, Loc),
    /// `0dXXXXXXXXXXXXXXXX`: the bits.
    F64(u64, Loc),
    /// A decimal float literal (`1.5`, `1e-3`): the bits of its f64 value.
    Decimal(u64, Loc),
    /// A name (variable address, label, section).
    Symbol(Symbol, Loc),
    /// `generic(var)`.
    Generic(Symbol, Loc),
    /// Unary operator.
    Unary(UnaryOp, Box<Expr>, Loc),
    /// Binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>, Loc),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, Loc),
}

impl Expr {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            Expr::Int { loc, .. }
            | Expr::F32(_, loc)
            | Expr::F64(_, loc)
            | Expr::Decimal(_, loc)
            | Expr::Symbol(_, loc)
            | Expr::Generic(_, loc)
            | Expr::Unary(_, _, loc)
            | Expr::Binary(_, _, _, loc)
            | Expr::Cond(_, _, _, loc) => loc.0,
        }
    }
}

/// Unary operators of constant expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnaryOp {
    Neg,
    Not,
    LogicalNot,
    Plus,
}

/// Binary operators of constant expressions (C precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Mul, Div, Rem, Add, Sub, Shl, Shr, Lt, Gt, Le, Ge, Eq, Ne, And, Xor, Or, LogicalAnd,
    LogicalOr,
}

impl BinaryOp {
    /// Source spelling.
    pub fn spelling(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&",
            Xor => "^",
            Or => "|",
            LogicalAnd => "&&",
            LogicalOr => "||",
        }
    }
    /// Binding strength (higher binds tighter).
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Gt | Le | Ge => 7,
            Eq | Ne => 6,
            And => 5,
            Xor => 4,
            Or => 3,
            LogicalAnd => 2,
            LogicalOr => 1,
        }
    }
}

/// A guard predicate `@p` / `@!p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    /// `@!p`.
    pub negated: bool,
    /// The predicate register.
    pub reg: Symbol,
    /// Where.
    pub loc: Loc,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// `@p` / `@!p`.
    pub guard: Option<Guard>,
    /// The instruction family.
    pub opcode: Opcode,
    /// Where the opcode name (with its dotted family words) is.
    pub opcode_loc: Loc,
    /// Modifiers after the family name, in source order.
    pub modifiers: Modifiers,
    /// Operands, in [`Module::operand_pool`].
    pub operands: OperandList,
    /// From guard to `;`.
    pub loc: Loc,
}

impl Instruction {
    /// Whether a modifier is present.
    pub fn has(&self, m: Modifier) -> bool {
        self.modifiers.iter().any(|(x, _)| *x == m)
    }
    /// The type modifiers in order.
    pub fn types(&self) -> impl Iterator<Item = ScalarType> + '_ {
        self.modifiers.iter().filter_map(|(m, _)| match m {
            Modifier::Type(t) => Some(*t),
            _ => None,
        })
    }
    /// The `.vN` modifier, if any.
    pub fn vector(&self) -> Option<u8> {
        self.modifiers.iter().find_map(|(m, _)| match m {
            Modifier::Vector(n) => Some(*n),
            _ => None,
        })
    }
    /// The state-space modifier, if any.
    pub fn space(&self) -> Option<StateSpace> {
        self.modifiers.iter().find_map(|(m, _)| match m {
            Modifier::Space(s) => Some(*s),
            _ => None,
        })
    }
}

/// An instruction's modifiers: most have at most four, kept inline (no
/// allocation per instruction).
pub type Modifiers = smallvec::SmallVec<[(Modifier, Loc); 4]>;

/// An instruction operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// What.
    pub kind: OperandKind,
    /// Where.
    pub loc: Loc,
}

/// Vector component selector `.x .y .z .w` (also `.r .g .b .a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component {
    /// `.x` / `.r`
    X,
    /// `.y` / `.g`
    Y,
    /// `.z` / `.b`
    Z,
    /// `.w` / `.a`
    W,
}

/// A video instruction's operand selector as written: `.b` or `.h`
/// followed by one to four lane digits, the most significant lane's first
/// (`.b3210` is bytes 3, 2, 1, 0 for lanes 3 to 0). Which forms an
/// instruction accepts the checker decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VideoSelector {
    /// `.h` (half-word lanes), else `.b` (bytes).
    pub halves: bool,
    /// The digits, first `len` used.
    pub digits: [u8; 4],
    /// How many digits.
    pub len: u8,
}

impl VideoSelector {
    /// Parses `.b0` ... `.b7777`, `.h0` ... `.h3333` (digits up to 7 for
    /// bytes and 3 for halves, as ptxas's lexer knows them); `None` for
    /// any other word.
    pub fn parse(word: &str) -> Option<VideoSelector> {
        let rest = word.strip_prefix('.')?;
        let (halves, digits) = match rest.as_bytes().split_first()? {
            (b'b', d) => (false, d),
            (b'h', d) => (true, d),
            _ => return None,
        };
        let top = if halves { b'3' } else { b'7' };
        if digits.is_empty() || digits.len() > 4 || !digits.iter().all(|c| (b'0'..=top).contains(c)) {
            return None;
        }
        let mut sel = VideoSelector { halves, digits: [0; 4], len: digits.len() as u8 };
        for (k, c) in digits.iter().enumerate() {
            sel.digits[k] = c - b'0';
        }
        Some(sel)
    }

    /// The digits as written (most significant lane first).
    pub fn written(&self) -> &[u8] {
        &self.digits[..usize::from(self.len)]
    }

    /// The lane digit of lane `k` (lane 0 is the last digit).
    pub fn lane(&self, k: usize) -> Option<u8> {
        let n = usize::from(self.len);
        (k < n).then(|| self.digits[n - 1 - k])
    }
}

impl std::fmt::Display for VideoSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.halves { ".h" } else { ".b" })?;
        for d in self.written() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The forms an operand takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A register, variable, label or function name, optionally with a
    /// vector component (`%tid.x`).
    Name(Symbol, Option<Component>),
    /// `name+imm` (address of a variable plus offset, in `mov`/`cvta`).
    NameOffset(Symbol, i64),
    /// `!p` (negated predicate source).
    NotPred(Symbol),
    /// `-r` (negated register source, e.g. in `mma`'s scale operands).
    NegReg(Symbol),
    /// `r.b1`, `r.h10`, `-r.b3210`: a video instruction's register with
    /// a lane selector (a source) or mask (a destination), negated where
    /// the flag says (`vmad`'s `-a.b0`).
    Selected(Symbol, VideoSelector, bool),
    /// `p|q` (the two predicate destinations of `setp`).
    PredPair(Symbol, Symbol),
    /// `_` (sink or unused).
    Sink,
    /// An immediate (integer, float bits, or constant expression).
    Imm(Expr),
    /// `[base]`, `[base+imm]`, `[imm]`.
    Address(Address),
    /// `[a, b, ...]` with more than one element (texture, surface, tensor operands).
    BracketList(OperandList),
    /// `{a, b, ...}`.
    Vector(OperandList),
    /// `(a, b, ...)` (call arguments and return values).
    ParenList(OperandList),
}

/// A memory address `[base + offset]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// Register or variable; `None` for an absolute address.
    pub base: Option<Symbol>,
    /// Byte offset.
    pub offset: i64,
}
