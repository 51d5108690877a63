//! A function of the Ori IR: blocks with parameters, instructions, SSA
//! values, and the side tables that map instructions to source locations.
//!
//! Storage is dense ([`super::entity`]): blocks, instructions and values
//! are indices into the function's maps. A block owns the ordered list of
//! its instructions; [`Function::layout`] orders the blocks (the first is
//! the entry). A value is defined exactly once, as a block parameter or as
//! an instruction result. Control flow is structural: a block ends with one
//! terminator ([`Opcode::Jump`], [`Opcode::Brif`], [`Opcode::Return`],
//! [`Opcode::Exit`], [`Opcode::Trap`]) whose destinations pass arguments to
//! the destination blocks' parameters.

use super::attrs::Attrs;
use super::entity::{PrimaryMap, SecondaryMap};
use super::opcode::Opcode;
use super::types::Type;
use smallvec::SmallVec;

crate::ir_entity!(
    /// A basic block.
    Block,
    "block"
);
crate::ir_entity!(
    /// An instruction.
    Inst,
    "inst"
);
crate::ir_entity!(
    /// An SSA value.
    Value,
    "v"
);

/// Where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `n` of an instruction.
    Result(Inst, u16),
    /// Parameter `n` of a block.
    Param(Block, u16),
}

/// A value: its type and its definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueData {
    /// Register file and width.
    pub ty: Type,
    /// Definition.
    pub def: ValueDef,
}

/// A branch destination: a block and the arguments for its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockCall {
    /// The destination.
    pub block: Block,
    /// One argument per block parameter.
    pub args: SmallVec<[Value; 4]>,
}

/// A guard predicate: the instruction runs only in threads where the
/// predicate holds (or does not, when negated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The predicate (type `p` or `up`).
    pub pred: Value,
    /// `@!p`.
    pub negated: bool,
}

/// One instruction.
///
/// A guarded instruction with results also takes, in [`InstData::prior`],
/// the value each result has where the guard is false: in SSA the result
/// is then "new value where the guard holds, prior value elsewhere", which
/// register allocation implements by giving result and prior value the
/// same register (DESIGN.md, "Partial writes").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstData {
    /// The operation.
    pub opcode: Opcode,
    /// Its variants.
    pub attrs: Attrs,
    /// Value operands.
    pub args: SmallVec<[Value; 3]>,
    /// Defined values.
    pub results: SmallVec<[Value; 1]>,
    /// The immediate: the bits of an [`Opcode::Iconst`], the variable of a
    /// [`Opcode::SymAddr`], the callee of an [`Opcode::Call`], the lookup
    /// table of a `LOP3`/`PLOP3`, the selector of a `PRMT`; zero otherwise.
    pub imm: u64,
    /// Byte offset added to an address argument (memory accesses,
    /// [`Opcode::SymAddr`]).
    pub offset: i32,
    /// Guard predicate.
    pub guard: Option<Guard>,
    /// For a guarded instruction with results: each result's value where
    /// the guard is false (same length as `results`).
    pub prior: SmallVec<[Value; 1]>,
    /// Branch destinations ([`Opcode::Jump`]: one; [`Opcode::Brif`]: taken,
    /// then fall-through). Out of line: only terminators have any, and an
    /// inline pair of block calls was 72 of every instruction's bytes.
    pub dests: Vec<BlockCall>,
}

impl InstData {
    /// An instruction with no operands yet.
    pub fn new(opcode: Opcode, attrs: Attrs) -> InstData {
        InstData {
            opcode,
            attrs,
            args: SmallVec::new(),
            results: SmallVec::new(),
            imm: 0,
            offset: 0,
            guard: None,
            prior: SmallVec::new(),
            dests: Vec::new(),
        }
    }

    /// Every value the instruction reads: arguments, guard, prior values
    /// and destination arguments, in that order.
    pub fn uses(&self) -> impl Iterator<Item = Value> + '_ {
        self.args
            .iter()
            .copied()
            .chain(self.guard.map(|g| g.pred))
            .chain(self.prior.iter().copied())
            .chain(self.dests.iter().flat_map(|d| d.args.iter().copied()))
    }

    /// Every value operand, mutably (for renaming), in [`InstData::uses`]
    /// order.
    pub fn uses_mut(&mut self) -> impl Iterator<Item = &mut Value> + '_ {
        self.args
            .iter_mut()
            .chain(self.guard.as_mut().map(|g| &mut g.pred))
            .chain(self.prior.iter_mut())
            .chain(self.dests.iter_mut().flat_map(|d| d.args.iter_mut()))
    }
}

/// A block: its parameters and its instructions in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockData {
    /// Parameters (values defined on entry).
    pub params: SmallVec<[Value; 2]>,
    /// Instructions; the last one is the terminator.
    pub insts: Vec<Inst>,
}

/// Whether a function is a kernel or a device function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// `.entry`: launched from the host; parameters in constant bank 0.
    Kernel,
    /// `.func`: called from device code.
    Device,
}

/// A parameter of a kernel (a slot of the parameter block in constant
/// bank 0) or of a device function (passed by the calling convention).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Name (from the source, for printing and errors).
    pub name: String,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// Offset in the parameter block.
    pub offset: u32,
    /// Whether the parameter is a pointer (`.ptr` or a 64-bit address).
    pub pointer: bool,
}

/// Launch bounds and other per-function directives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchBounds {
    /// `.maxntid`.
    pub max_ntid: Option<[u32; 3]>,
    /// `.reqntid`.
    pub req_ntid: Option<[u32; 3]>,
    /// `.minnctapersm`.
    pub min_ctas_per_sm: Option<u32>,
    /// `.maxnreg`.
    pub max_regs: Option<u32>,
}

/// The call sites kept of an inlined position ([`super::Module::inline_chains`];
/// nvcc's `-lineinfo` PTX of CUB and cooperative groups nests inlining up
/// to six deep).
pub const INLINE_DEPTH: usize = 8;

/// One call site of an inlined position: the `.loc` directive an
/// `inlined_at F L C` names, which is the latest `.loc F L C` before it
/// (ptxas refuses an `inlined_at` with none). Two call sites at the same
/// source position are two inlinings when their `.loc` directives differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CallSite {
    /// The `.loc` file index.
    pub file: u32,
    /// The `.loc` line.
    pub line: u32,
    /// The PTX line of that `.loc` directive (0: not found).
    pub loc: u32,
}

/// Where an inlined position comes from: the PTX line of its `.loc` (whose
/// `function_name` names the function it is in) and its call sites,
/// innermost first (the `.loc`'s `inlined_at`, then that of the `.loc` it
/// names, and so on), default past the last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InlineChain {
    /// The PTX line of the position's `.loc` directive.
    pub loc: u32,
    /// The call sites.
    pub sites: [CallSite; INLINE_DEPTH],
}

/// A source position: the PTX line and column of an instruction, and the
/// `.loc` position (file, line, column of the high-level source) in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    /// PTX line (1-based; 0 when unknown).
    pub line: u32,
    /// PTX column (1-based; 0 when unknown).
    pub col: u32,
    /// `.loc` file index (0 when none).
    pub debug_file: u32,
    /// `.loc` line.
    pub debug_line: u32,
    /// `.loc` column.
    pub debug_col: u32,
    /// The call sites of the inlined functions the position is in: 0 for
    /// none, else 1 + an index into [`super::Module::inline_chains`] (kept
    /// there so that every instruction's position stays small).
    pub inlined_at: u32,
    /// With `-g`, from register allocation on: 1 + the index of what the
    /// instruction defines in [`crate::regalloc::Allocated::debug_defs`]
    /// (0: nothing recorded). Kept here so that scheduling and emission,
    /// which move positions with their instructions, carry it too; line
    /// information does not read it.
    pub defs: u32,
}

/// A PTX register that a value holds (lowering records one per register
/// assignment when asked, for `-g`'s register maps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterName {
    /// The value.
    pub value: Value,
    /// The PTX register (`%rd1`).
    pub name: String,
    /// Its declared type's code in `.nv_debug_info_reg_type`
    /// ([`crate::cubin::register_maps::type_code`]).
    pub ty: u8,
}

/// One function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Function {
    /// Name (the symbol in the cubin).
    pub name: String,
    /// Kernel or device function.
    pub kind: Option<FunctionKind>,
    /// Parameters (their order and byte layout).
    pub params: Vec<Param>,
    /// Types of the returned values (device functions).
    pub returns: Vec<Type>,
    /// Launch bounds.
    pub bounds: LaunchBounds,
    /// Bytes of `.local` memory the function declares (its frame before
    /// spilling), and their alignment.
    pub local_bytes: u32,
    /// Block storage.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Block order; the first block is the entry.
    pub layout: Vec<Block>,
    /// Instruction storage.
    pub insts: PrimaryMap<Inst, InstData>,
    /// Value storage.
    pub values: PrimaryMap<Value, ValueData>,
    /// Source location of each instruction.
    pub locs: SecondaryMap<Inst, SrcLoc>,
    /// The PTX registers values hold, in assignment order (empty unless
    /// lowering was asked for them, [`RegisterName`]).
    pub register_names: Vec<RegisterName>,
}

impl Function {
    /// An empty function.
    pub fn new(name: impl Into<String>, kind: FunctionKind) -> Function {
        Function { name: name.into(), kind: Some(kind), ..Function::default() }
    }

    /// The entry block, if any.
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// Creates a block (not yet in the layout).
    pub fn create_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Appends a parameter of type `ty` to a block.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let n = self.blocks[block].params.len();
        let v = self.values.push(ValueData { ty, def: ValueDef::Param(block, n as u16) });
        self.blocks[block].params.push(v);
        v
    }

    /// Adds an instruction (in no block yet), creating one result per type.
    pub fn create_inst(&mut self, mut data: InstData, result_types: &[Type]) -> Inst {
        data.results.clear();
        let inst = self.insts.push(data);
        for (n, &ty) in result_types.iter().enumerate() {
            let v = self.values.push(ValueData { ty, def: ValueDef::Result(inst, n as u16) });
            self.insts[inst].results.push(v);
        }
        inst
    }

    /// Appends an instruction to the end of a block.
    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        self.blocks[block].insts.push(inst);
    }

    /// The type of a value.
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// The instruction defining a value, if it is a result.
    pub fn value_inst(&self, v: Value) -> Option<Inst> {
        match self.values[v].def {
            ValueDef::Result(inst, _) => Some(inst),
            ValueDef::Param(..) => None,
        }
    }

    /// The constant a value is, if an [`Opcode::Iconst`] defines it.
    pub fn value_const(&self, v: Value) -> Option<u64> {
        let inst = self.value_inst(v)?;
        let data = &self.insts[inst];
        (data.opcode == Opcode::Iconst).then_some(data.imm)
    }

    /// The terminator of a block (its last instruction), if it has one.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.blocks[block].insts.last()?;
        self.insts[last].opcode.is_terminator().then_some(last)
    }

    /// The blocks a block can branch to, in destination order.
    pub fn successors(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        self.terminator(block).into_iter().flat_map(move |t| self.insts[t].dests.iter().map(|d| d.block))
    }

    /// Number of instructions placed in blocks of the layout.
    pub fn placed_inst_count(&self) -> usize {
        self.layout.iter().map(|&b| self.blocks[b].insts.len()).sum()
    }
}
