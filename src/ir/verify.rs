//! The verifier: the invariants every stage of the pipeline relies on,
//! checked between stages in debug builds and in tests.
//!
//! [`verify_function`] checks, in this order (a failed structural check
//! stops the later ones, which would only repeat it):
//!
//! 1. **Storage**: a definition (a function with blocks) has a non-empty
//!    layout of valid, distinct blocks; every placed instruction exists and
//!    sits in exactly one block; every block parameter and result is a
//!    value whose recorded definition is that parameter or result.
//! 2. **Blocks**: each block of the layout ends with exactly one terminator
//!    and has none before it; destinations are blocks of the layout, with
//!    one argument per parameter of the same type; `jump` has one
//!    destination, `brif` two, every other opcode none.
//! 3. **SSA**: every value used exists and is defined by a placed
//!    instruction or a block parameter of the layout, and its definition
//!    dominates the use (in the same block: an earlier instruction, or a
//!    parameter). Uses in blocks unreachable from the entry are checked
//!    for existence, placement and same-block order only: dominance means
//!    nothing there, and such blocks are removed before anything that
//!    needs it (the choice Cranelift's verifier makes too). Branch
//!    arguments are uses at the terminator.
//! 4. **Guards**: a guard is a `p`/`up` value; `prior` has one value per
//!    result, of the result's type, and only guarded instructions have it.
//! 5. **Operands**: per opcode, the number of arguments and results and
//!    each one's register file and width (`PLAIN` for opcodes whose
//!    operands follow from their type attributes alone, code for the
//!    families with variants). Data operands accept either file of a width
//!    (`r32` or `ur32`), predicates either predicate file, since uniform
//!    files come from a later analysis. Widths: a type attribute of at
//!    most 32 bits is a 32-bit value, 64 bits a pair, 128 a quad, `.pred`
//!    a predicate. Carries: `IADD3` takes one or two carry-in predicates
//!    after its three sources exactly when it has `.x`, and may define up
//!    to two carry-out predicates after its result; `IMAD`/`IMAD.WIDE`
//!    take one carry-in with `.x`; `ISETP` takes the combined predicate
//!    when it has a combining operation, then one carry-in with `.x`
//!    (`.EX`). Memory operations follow the IR conventions (address
//!    first; none only for `.param` accesses); SASS loads and stores may
//!    move a vector as one wide value (`LDG.128` into an `r128`). Addresses
//!    of `LDS`/`STS`/`LDL`/`STL` are 32-bit, of `LDG`/`STG`/`LD`/`ST`
//!    64-bit.
//! 6. **Module references**: `call` names a function of the module and
//!    matches its parameters (by size: 4 bytes or less is 32-bit, 8 a pair,
//!    16 a quad; other sizes are not checked) and return types; `symaddr`
//!    names a variable (except a `.local` frame slot); `return` matches the
//!    function's return types.
//! 7. **Entry**: a kernel's entry block has no parameters; a device
//!    function's entry parameters match its `params` by size.
//! 8. **Stage**: at [`Stage::Legal`] no PTX-layer opcode remains (ptxas's
//!    "SetAfterLegalization").
//!
//! Errors name the function, the block and the instruction (printed) and
//! say what is wrong. The verifier never panics, whatever the indices in
//! the function.

use std::fmt;

use smallvec::SmallVec;

use super::attrs::{Attrs, DataType, Space, SpecialReg};
use super::cfg::DominatorTree;
use super::entity::EntityRef;
use super::function::{Block, Function, FunctionKind, Inst, InstData, Value, ValueDef};
use super::module::{FuncId, Module};
use super::opcode::{Layer, Opcode};
use super::print::{has_address, print_inst};
use super::types::Type;

/// Which invariants hold at a point of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// After lowering: opcodes of any layer.
    Raw,
    /// After legalization: no PTX-layer opcode left.
    Legal,
}

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function's name.
    pub function: String,
    /// The block, when the error is inside one.
    pub block: Option<Block>,
    /// The instruction, when the error is about one.
    pub inst: Option<Inst>,
    /// The instruction as printed (empty without one).
    pub text: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "function \"{}\"", self.function)?;
        if let Some(b) = self.block {
            write!(f, ", {b}")?;
        }
        if self.inst.is_some() {
            write!(f, ", `{}`", self.text)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Verifies every function of a module.
pub fn verify_module(module: &Module, stage: Stage) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    for (_, f) in module.functions.iter() {
        if let Err(e) = verify_function(module, f, stage) {
            errors.extend(e);
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// Verifies one function (of `module`, whose functions and variables its
/// calls and addresses refer to).
pub fn verify_function(module: &Module, func: &Function, stage: Stage) -> Result<(), Vec<VerifyError>> {
    let mut cx = Cx { module, f: func, errors: Vec::new(), place: vec![None; func.insts.len()], in_layout: vec![false; func.blocks.len()] };
    cx.run(stage);
    if cx.errors.is_empty() { Ok(()) } else { Err(cx.errors) }
}

/// Verifies function `id` of a module (an error if there is none).
pub fn verify_function_id(module: &Module, id: FuncId, stage: Stage) -> Result<(), Vec<VerifyError>> {
    match module.functions.get(id) {
        Some(f) => verify_function(module, f, stage),
        None => Err(vec![VerifyError { function: id.to_string(), block: None, inst: None, text: String::new(), message: "no such function".into() }]),
    }
}

/// An operand kind: which types an argument or result may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K {
    /// 32 bits (`r32`/`ur32`).
    W32,
    /// 64 bits.
    W64,
    /// 128 bits.
    W128,
    /// A predicate (`p`/`up`).
    Pred,
    /// The width of the type attribute.
    T,
    /// The width of the source-type attribute.
    S,
    /// Twice the width of the type attribute (wide multiplies).
    Wide,
    /// An address: 32 or 64 bits.
    Addr,
    /// One or two 32-bit words.
    Words,
}

use K::{Pred, S, T, W32, W64};

/// A register tuple of `regs` 32-bit registers (1, 2 or 4).
fn tuple(regs: u8) -> K {
    match regs {
        1 => W32,
        2 => W64,
        _ => K::W128,
    }
}

/// Operands of the opcodes that depend on nothing but their type
/// attributes: (opcode, arguments, results).
const PLAIN: &[(Opcode, &[K], &[K])] = &[
    (Opcode::Add, &[T, T], &[T]),
    (Opcode::Sub, &[T, T], &[T]),
    (Opcode::Fma, &[T, T, T], &[T]),
    (Opcode::Div, &[T, T], &[T]),
    (Opcode::Rem, &[T, T], &[T]),
    (Opcode::Abs, &[T], &[T]),
    (Opcode::Neg, &[T], &[T]),
    (Opcode::Min, &[T, T], &[T]),
    (Opcode::Max, &[T, T], &[T]),
    (Opcode::And, &[T, T], &[T]),
    (Opcode::Or, &[T, T], &[T]),
    (Opcode::Xor, &[T, T], &[T]),
    (Opcode::Not, &[T], &[T]),
    (Opcode::Shl, &[T, W32], &[T]),
    (Opcode::Shr, &[T, W32], &[T]),
    (Opcode::Selp, &[T, T, Pred], &[T]),
    (Opcode::Cvta, &[T], &[T]),
    (Opcode::Isspacep, &[W64], &[Pred]),
    (Opcode::Qspc, &[W64], &[Pred]),
    (Opcode::Shf, &[W32, W32, W32], &[W32]),
    (Opcode::Imnmx, &[W32, W32, Pred], &[W32]),
    (Opcode::Iabs, &[W32], &[W32]),
    (Opcode::Sel, &[W32, W32, Pred], &[W32]),
    (Opcode::Fsel, &[W32, W32, Pred], &[W32]),
    (Opcode::Mov, &[W32], &[W32]),
    (Opcode::Fadd, &[W32, W32], &[W32]),
    (Opcode::Fmul, &[W32, W32], &[W32]),
    (Opcode::Ffma, &[W32, W32, W32], &[W32]),
    (Opcode::Fadd2, &[W64, W64], &[W64]),
    (Opcode::Fmul2, &[W64, W64], &[W64]),
    (Opcode::Ffma2, &[W64, W64, W64], &[W64]),
    (Opcode::Fmnmx, &[W32, W32, Pred], &[W32]),
    (Opcode::Mufu, &[W32], &[W32]),
    (Opcode::Dadd, &[W64, W64], &[W64]),
    (Opcode::Dmul, &[W64, W64], &[W64]),
    (Opcode::Dfma, &[W64, W64, W64], &[W64]),
    (Opcode::I2f, &[S], &[T]),
    (Opcode::F2i, &[S], &[T]),
    (Opcode::F2f, &[S], &[T]),
    (Opcode::I2i, &[S], &[T]),
    (Opcode::Frnd, &[T], &[T]),
    // A counter pair, or one word of it (CS2R.32).
    (Opcode::Cs2r, &[], &[K::Words]),
    (Opcode::Idiv, &[T, T], &[T]),
    (Opcode::Irem, &[T, T], &[T]),
    (Opcode::Fdiv, &[T, T], &[T]),
    (Opcode::I2fp, &[S], &[T]),
    (Opcode::Vimnmx, &[W32, W32, Pred], &[W32]),
    (Opcode::Rcp, &[T], &[T]),
    (Opcode::Sqrt, &[T], &[T]),
    (Opcode::Rsqrt, &[T], &[T]),
    (Opcode::Sin, &[T], &[T]),
    (Opcode::Cos, &[T], &[T]),
    (Opcode::Lg2, &[T], &[T]),
    (Opcode::Ex2, &[T], &[T]),
    (Opcode::Tanh, &[T], &[T]),
    (Opcode::Copysign, &[T, T], &[T]),
    (Opcode::Fchk, &[W32, W32], &[Pred]),
    (Opcode::Frcp, &[T], &[T]),
    (Opcode::Fsqrt, &[T], &[T]),
    (Opcode::Drsq, &[W64], &[W64]),
    // ---- integer-only operations of both layers (the carry chain's
    // signature depends on its carry-in: `Cx::operands` builds it) ----
    (Opcode::Popc, &[T], &[W32]),
    (Opcode::Clz, &[T], &[W32]),
    (Opcode::Brev, &[T], &[T]),
    (Opcode::Bfind, &[T], &[W32]),
    (Opcode::Bfe, &[T, W32, W32], &[T]),
    (Opcode::Bfi, &[T, T, W32, W32], &[T]),
    (Opcode::Bmsk, &[W32, W32], &[W32]),
    (Opcode::Szext, &[W32, W32], &[W32]),
    (Opcode::Mul24, &[W32, W32], &[W32]),
    (Opcode::Mad24, &[W32, W32, W32], &[W32]),
    (Opcode::Sad, &[T, T, T], &[T]),
    (Opcode::Dp4a, &[W32, W32, W32], &[W32]),
    (Opcode::Vabsdiff4, &[W32, W32], &[W32]),
    (Opcode::Sad4, &[W32, W32, W32], &[W32]),
    (Opcode::Dp2a, &[W32, W32, W32], &[W32]),
    (Opcode::Funnel, &[W32, W32, W32], &[W32]),
    (Opcode::Permute, &[W32, W32, W32], &[W32]),
    (Opcode::Logic3, &[W32, W32, W32], &[W32]),
    (Opcode::Popcnt, &[W32], &[W32]),
    (Opcode::Flo, &[W32], &[W32]),
    (Opcode::Bitrev, &[W32], &[W32]),
    (Opcode::Bitmask, &[W32, W32], &[W32]),
    (Opcode::Sgxt, &[W32, W32], &[W32]),
    (Opcode::Idp4a, &[W32, W32, W32], &[W32]),
    (Opcode::Idp2a, &[W32, W32, W32], &[W32]),
    (Opcode::ByteAbsdiff, &[W32, W32], &[W32]),
    (Opcode::ByteSad, &[W32, W32, W32], &[W32]),
    (Opcode::ByteMinmax, &[W32, W32, Pred], &[W32]),
    (Opcode::ByteAdd, &[W32, W32], &[W32]),
    (Opcode::LaneAdd16, &[W32, W32], &[W32]),
    (Opcode::Testp, &[T], &[Pred]),
    (Opcode::Hadd2, &[W32, W32], &[W32]),
    (Opcode::Hmul2, &[W32, W32], &[W32]),
    (Opcode::Hfma2, &[W32, W32, W32], &[W32]),
    (Opcode::Hmnmx2, &[W32, W32, Pred], &[W32]),
    (Opcode::Hsetp2, &[W32, W32, Pred], &[Pred]),
    (Opcode::Hset2, &[W32, W32, Pred], &[W32]),
    (Opcode::I2ip, &[W32, W32, W32], &[W32]),
];

/// Special registers that are 64 bits wide (PTX ISA, "Special
/// Registers": `%clock64`, `%globaltimer` and `%gridid` are `.u64`).
const WIDE_SREGS: &[SpecialReg] = &[SpecialReg::Clock64, SpecialReg::GlobalTimer, SpecialReg::GridId, SpecialReg::PerfCounter64];

/// The operand shape an instruction must have.
#[derive(Default)]
struct Sig {
    args: SmallVec<[K; 6]>,
    /// Trailing optional arguments (a prefix of them may be present).
    opt_args: SmallVec<[K; 2]>,
    results: SmallVec<[K; 2]>,
    /// Trailing optional results.
    opt_results: SmallVec<[K; 2]>,
}

impl Sig {
    fn new(args: &[K], results: &[K]) -> Sig {
        Sig { args: args.iter().copied().collect(), results: results.iter().copied().collect(), ..Sig::default() }
    }
}

/// The class of a type ignoring uniformity: bits, or 1 for predicates.
fn width(t: Type) -> u32 {
    t.bits()
}

fn data_kind(ty: DataType) -> K {
    match ty.bits() {
        1 => K::Pred,
        0..=32 => K::W32,
        64 => K::W64,
        _ => K::W128,
    }
}

struct Cx<'a> {
    module: &'a Module,
    f: &'a Function,
    errors: Vec<VerifyError>,
    /// Where each instruction is placed: (block, position).
    place: Vec<Option<(Block, usize)>>,
    in_layout: Vec<bool>,
}

impl Cx<'_> {
    fn err(&mut self, block: Option<Block>, inst: Option<Inst>, message: impl Into<String>) {
        let text = inst.map(|i| print_inst(self.f, i)).unwrap_or_default();
        self.errors.push(VerifyError { function: self.f.name.clone(), block, inst, text, message: message.into() });
    }

    fn ty(&self, v: Value) -> Option<Type> {
        self.f.values.get(v).map(|d| d.ty)
    }

    fn run(&mut self, stage: Stage) {
        let f = self.f;
        if f.blocks.is_empty() && f.layout.is_empty() {
            if !f.insts.is_empty() {
                self.err(None, None, "a declaration (no blocks) has instructions");
            }
            return;
        }
        if !self.storage() {
            return;
        }
        self.terminators();
        let Some(entry) = f.entry() else { return };
        let succ = |b: Block| -> Vec<Block> {
            let Some(data) = f.blocks.get(b) else { return Vec::new() };
            let Some(last) = data.insts.last().and_then(|&i| f.insts.get(i)) else { return Vec::new() };
            if last.opcode.is_terminator() { last.dests.iter().map(|d| d.block).collect() } else { Vec::new() }
        };
        let dt = DominatorTree::compute(entry, f.blocks.len(), succ);
        for &block in &f.layout {
            for (pos, &inst) in f.blocks[block].insts.iter().enumerate() {
                self.inst(stage, &dt, block, pos, inst);
            }
        }
        self.entry(entry);
    }

    /// Check 1; false when later checks cannot run.
    fn storage(&mut self) -> bool {
        let f = self.f;
        let before = self.errors.len();
        if f.layout.is_empty() {
            self.err(None, None, "a definition needs at least one block in the layout");
            return false;
        }
        for &block in &f.layout {
            if !f.blocks.is_valid(block) {
                self.err(None, None, format!("the layout names {block}, which does not exist"));
                continue;
            }
            if std::mem::replace(&mut self.in_layout[block.index()], true) {
                self.err(Some(block), None, "the block appears twice in the layout");
                continue;
            }
            for (pos, &inst) in f.blocks[block].insts.iter().enumerate() {
                match self.place.get_mut(inst.index()) {
                    None => self.err(Some(block), None, format!("{inst} does not exist")),
                    Some(Some((other, _))) => {
                        let other = *other;
                        self.err(Some(block), Some(inst), format!("the instruction is placed twice (also in {other})"));
                    }
                    Some(slot) => *slot = Some((block, pos)),
                }
            }
        }
        if self.errors.len() > before {
            return false;
        }
        for &block in &f.layout {
            for (n, &p) in f.blocks[block].params.iter().enumerate() {
                match f.values.get(p) {
                    None => self.err(Some(block), None, format!("parameter {p} does not exist")),
                    Some(d) if d.def != ValueDef::Param(block, n as u16) => {
                        self.err(Some(block), None, format!("parameter {n} is {p}, whose definition says {:?}", d.def))
                    }
                    _ => {}
                }
            }
            for &inst in &f.blocks[block].insts {
                for (n, &r) in f.insts[inst].results.iter().enumerate() {
                    match f.values.get(r) {
                        None => self.err(Some(block), Some(inst), format!("result {r} does not exist")),
                        Some(d) if d.def != ValueDef::Result(inst, n as u16) => {
                            self.err(Some(block), Some(inst), format!("result {n} is {r}, whose definition says {:?}", d.def))
                        }
                        _ => {}
                    }
                }
                for v in f.insts[inst].uses() {
                    if !f.values.is_valid(v) {
                        self.err(Some(block), Some(inst), format!("uses {v}, which does not exist"));
                    }
                }
            }
        }
        self.errors.len() == before
    }

    /// Check 2 (terminator placement).
    fn terminators(&mut self) {
        let f = self.f;
        for &block in &f.layout {
            let insts = &f.blocks[block].insts;
            let Some((&last, rest)) = insts.split_last() else {
                self.err(Some(block), None, "the block is empty (it needs a terminator)");
                continue;
            };
            for &inst in rest {
                if f.insts[inst].opcode.is_terminator() {
                    self.err(Some(block), Some(inst), "a terminator before the end of the block");
                }
            }
            if !f.insts[last].opcode.is_terminator() {
                self.err(Some(block), Some(last), "the block does not end with a terminator");
            }
        }
    }

    /// Check 7.
    fn entry(&mut self, entry: Block) {
        let f = self.f;
        let params = &f.blocks[entry].params;
        match f.kind {
            Some(FunctionKind::Kernel) if !params.is_empty() => {
                self.err(Some(entry), None, "a kernel's entry block has parameters (kernel parameters are loaded from the parameter bank)")
            }
            Some(FunctionKind::Device) => {
                if params.len() != f.params.len() {
                    self.err(Some(entry), None, format!("the entry block has {} parameters but the function {}", params.len(), f.params.len()));
                    return;
                }
                for (n, (&v, p)) in params.iter().zip(&f.params).enumerate() {
                    if let (Some(k), Some(t)) = (size_kind(p.size), self.ty(v))
                        && !self.fits(t, k, &Attrs::default())
                    {
                        self.err(
                            Some(entry),
                            None,
                            format!("entry parameter {n} ({v}:{t}) does not match parameter `{}` of {} bytes", p.name, p.size),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether a type is of a kind (the attributes give `T`, `S`, `Wide`).
    fn fits(&self, t: Type, k: K, a: &Attrs) -> bool {
        match resolve(k, a) {
            Ok(bits) => bits.contains(&width(t)) && (width(t) == 1) == t.file().is_predicate(),
            Err(_) => false,
        }
    }

    fn inst(&mut self, stage: Stage, dt: &DominatorTree<Block>, block: Block, pos: usize, inst: Inst) {
        let f = self.f;
        let d = &f.insts[inst];
        let here = (Some(block), Some(inst));
        if stage == Stage::Legal && d.opcode.layer() == Layer::Ptx {
            self.err(here.0, here.1, "a PTX-layer opcode after legalization");
        }
        // SSA: definitions exist, are placed and dominate.
        let reachable = dt.is_reachable(block);
        let mut seen: SmallVec<[Value; 8]> = SmallVec::new();
        for v in d.uses() {
            // One report per value, however often the instruction uses it.
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            let Some(vd) = f.values.get(v) else { continue };
            let problem = match vd.def {
                ValueDef::Param(db, n) => {
                    if f.blocks.get(db).and_then(|b| b.params.get(usize::from(n))) != Some(&v) {
                        Some(format!("uses {v}, which is not parameter {n} of {db} as its definition says"))
                    } else if !self.in_layout.get(db.index()).copied().unwrap_or(false) {
                        Some(format!("uses {v}, a parameter of {db}, which is not in the layout"))
                    } else if reachable && !dt.dominates(db, block) {
                        Some(format!("uses {v}, whose definition in {db} does not dominate this use"))
                    } else {
                        None
                    }
                }
                ValueDef::Result(di, n) => {
                    if f.insts.get(di).and_then(|i| i.results.get(usize::from(n))) != Some(&v) {
                        Some(format!("uses {v}, which is not result {n} of {di} as its definition says"))
                    } else {
                        match self.place.get(di.index()).copied().flatten() {
                            None => Some(format!("uses {v}, defined by an instruction in no block of the layout")),
                            Some((db, dpos)) if db == block => (dpos >= pos).then(|| format!("uses {v} before its definition in the same block")),
                            Some((db, _)) => (reachable && !dt.dominates(db, block))
                                .then(|| format!("uses {v}, whose definition in {db} does not dominate this use")),
                        }
                    }
                }
            };
            if let Some(p) = problem {
                self.err(here.0, here.1, p);
            }
        }
        // Guards and prior values.
        if let Some(g) = d.guard {
            if self.ty(g.pred).is_some_and(|t| !t.file().is_predicate()) {
                self.err(here.0, here.1, format!("the guard {} is not a predicate", g.pred));
            }
            if !d.prior.is_empty() || !d.results.is_empty() {
                if d.prior.len() != d.results.len() {
                    self.err(here.0, here.1, format!("{} prior values for {} results", d.prior.len(), d.results.len()));
                } else {
                    for (n, (&p, &r)) in d.prior.iter().zip(&d.results).enumerate() {
                        if self.ty(p) != self.ty(r) {
                            self.err(here.0, here.1, format!("prior value {n} ({p}) has not the type of its result ({r})"));
                        }
                    }
                }
            }
        } else if !d.prior.is_empty() {
            self.err(here.0, here.1, "prior values without a guard");
        }
        // Destinations.
        let want = match d.opcode {
            Opcode::Jump => 1,
            Opcode::Brif => 2,
            _ => 0,
        };
        if d.dests.len() != want {
            self.err(here.0, here.1, format!("{} destinations (`{}` takes {want})", d.dests.len(), d.opcode));
        }
        for dest in &d.dests {
            let Some(target) = f.blocks.get(dest.block).filter(|_| self.in_layout[dest.block.index()]) else {
                self.err(here.0, here.1, format!("branches to {}, which is not in the layout", dest.block));
                continue;
            };
            if target.params.len() != dest.args.len() {
                self.err(
                    here.0,
                    here.1,
                    format!("passes {} arguments to {}, which has {} parameters", dest.args.len(), dest.block, target.params.len()),
                );
                continue;
            }
            for (n, (&a, &p)) in dest.args.iter().zip(&target.params).enumerate() {
                if self.ty(a) != self.ty(p) {
                    self.err(here.0, here.1, format!("argument {n} to {} ({a}) has not the type of its parameter {p}", dest.block));
                }
            }
        }
        for m in self.operands(d) {
            self.err(here.0, here.1, m);
        }
    }

    /// Check 5 and 6: the messages for one instruction's operands.
    /// The kind of a texture or surface instruction's handle: 64 bits, or
    /// on the SASS layer also a uniform word (the handle one lane holds,
    /// which the loop over the warp's handles picks: `UniformPick`).
    fn handle_kind(&self, op: Opcode, d: &InstData) -> K {
        let picked = op.layer() == Layer::Sass && d.args.first().and_then(|&v| self.ty(v)).is_some_and(|t| t.file().is_uniform() && !t.file().is_predicate() && t.regs() == 1);
        if picked { W32 } else { W64 }
    }

    fn operands(&self, d: &InstData) -> Vec<String> {
        let mut out = Vec::new();
        let a = &d.attrs;
        let (op, nargs, nres) = (d.opcode, d.args.len(), d.results.len());
        let need = |out: &mut Vec<String>, ok: bool, what: &str| {
            if !ok {
                out.push(format!("`{op}` needs {what}"));
            }
        };
        let combine = usize::from(a.combine.is_some());
        let carry = usize::from(a.x);
        // An approximate division an add was fused into (`a / b + c`, see
        // `opt::contract`): the division's operands and the addend.
        let fused_division = matches!(op, Opcode::Div | Opcode::Fdiv) && nargs == 3 && (a.approx || a.full);
        let sig = if fused_division {
            Sig::new(&[T, T, T], &[T])
        } else if let Some(&(_, args, results)) = PLAIN.iter().find(|r| r.0 == op) {
            Sig::new(args, results)
        } else {
            match op {
                Opcode::Iconst => {
                    if nargs != 0 || nres != 1 {
                        out.push(format!("`iconst` takes no arguments and 1 result, not {nargs} and {nres}"));
                    }
                    return out;
                }
                Opcode::SymAddr => {
                    if a.space == Some(Space::Local) {
                        if d.offset < 0 || d.offset as u32 > self.f.local_bytes {
                            out.push(format!("frame offset {} is outside the {} bytes of local variables", d.offset, self.f.local_bytes));
                        }
                    } else if usize::try_from(d.imm).map_or(true, |i| i >= self.module.globals.len()) {
                        out.push(format!("variable g{} does not exist", d.imm));
                    }
                    Sig::new(&[], &[K::Addr])
                }
                Opcode::FuncAddr => {
                    if usize::try_from(d.imm).map_or(true, |i| i >= self.module.functions.len()) {
                        out.push(format!("function fn{} does not exist", d.imm));
                    }
                    Sig::new(&[], &[K::Addr])
                }
                Opcode::Copy => {
                    let t = d.args.first().and_then(|&v| self.ty(v));
                    if let (Some(t), Some(r)) = (t, d.results.first().and_then(|&v| self.ty(v)))
                        && (width(t) != width(r) || t.file().is_predicate() != r.file().is_predicate())
                    {
                        out.push(format!("copies a {t} into a {r}"));
                    }
                    if nargs != 1 || nres != 1 {
                        out.push(format!("`copy` takes 1 argument and 1 result, not {nargs} and {nres}"));
                    }
                    return out;
                }
                Opcode::Extract => {
                    let regs = d.args.first().and_then(|&v| self.ty(v)).map_or(0, |t| t.regs());
                    if d.imm >= u64::from(regs) {
                        out.push(format!("extracts part {} of a value of {regs} registers", d.imm));
                    }
                    let src = if regs == 4 { K::W128 } else { K::W64 };
                    Sig::new(&[src], &[W32])
                }
                Opcode::Concat => {
                    let r = if nargs == 4 { K::W128 } else { K::W64 };
                    if nargs == 4 { Sig::new(&[W32; 4], &[r]) } else { Sig::new(&[W32; 2], &[r]) }
                }
                Opcode::Call => return self.call(d),
                Opcode::CallIndirect => {
                    if d.args.first().and_then(|&v| self.ty(v)).is_none_or(|t| t.file().is_predicate()) {
                        out.push("`call_indirect` without a target address".into());
                    }
                    return out;
                }
                Opcode::Jump | Opcode::Exit | Opcode::Trap => Sig::default(),
                Opcode::Brif => Sig::new(&[Pred], &[]),
                Opcode::Return => {
                    if nres != 0 {
                        out.push("`return` has results".into());
                    }
                    let kernel = self.f.kind == Some(FunctionKind::Kernel);
                    if nargs != self.f.returns.len() && !(kernel && nargs == 0) {
                        out.push(format!("returns {nargs} values; the function returns {}", self.f.returns.len()));
                    } else {
                        for (n, (&v, &t)) in d.args.iter().zip(&self.f.returns).enumerate() {
                            if self.ty(v).is_some_and(|vt| width(vt) != width(t) || vt.file().is_predicate() != t.file().is_predicate()) {
                                out.push(format!("return value {n} ({v}) is not a {t}"));
                            }
                        }
                    }
                    return out;
                }
                Opcode::Mul => {
                    let w = if a.mul == Some(super::attrs::MulMode::Wide) { K::Wide } else { T };
                    Sig::new(&[T, T], &[w])
                }
                Opcode::Mad => {
                    let w = if a.mul == Some(super::attrs::MulMode::Wide) { K::Wide } else { T };
                    Sig::new(&[T, T, w], &[w])
                }
                Opcode::Setp | Opcode::Fsetp | Opcode::Dsetp | Opcode::Set | Opcode::Fset | Opcode::Isetp => {
                    // DSETP.MIN/.MAX take a reduction in place of the comparison.
                    let minmax = op == Opcode::Dsetp && matches!(a.red, Some(super::attrs::RedOp::Min | super::attrs::RedOp::Max));
                    need(&mut out, a.cmp.is_some() || minmax, "a comparison");
                    let (src, res) = match op {
                        Opcode::Setp => (T, Pred),
                        Opcode::Set => (S, T),
                        Opcode::Fset => (W32, W32),
                        Opcode::Dsetp => (W64, Pred),
                        // sm_120's ISETP.S64/U64 compares pairs.
                        Opcode::Isetp if a.ty.is_some_and(|t| t.bits() == 64) => (W64, Pred),
                        _ => (W32, Pred),
                    };
                    let mut s = Sig::new(&[src, src], &[res]);
                    s.args.extend(std::iter::repeat_n(Pred, combine));
                    if op == Opcode::Isetp {
                        s.args.extend(std::iter::repeat_n(Pred, carry));
                    } else if a.x {
                        out.push(format!("`{op}` has no `.x` form"));
                    }
                    if matches!(op, Opcode::Isetp | Opcode::Fsetp | Opcode::Dsetp) {
                        s.opt_results.push(Pred);
                    }
                    s
                }
                Opcode::Iadd3 => {
                    let mut s = Sig::new(&[W32, W32, W32], &[W32]);
                    if a.x {
                        s.args.push(Pred);
                        s.opt_args.push(Pred);
                    }
                    s.opt_results.extend([Pred, Pred]);
                    s
                }
                Opcode::Imad | Opcode::ImadWide => {
                    let (c, r) = if op == Opcode::Imad { (W32, W32) } else { (W64, W64) };
                    let mut s = Sig::new(&[W32, W32, c], &[r]);
                    s.args.extend(std::iter::repeat_n(Pred, carry));
                    // IMAD.WIDE and IMAD.HI write a carry-out predicate
                    // (plain IMAD has none).
                    if op == Opcode::ImadWide || a.mul == Some(super::attrs::MulMode::Hi) {
                        s.opt_results.push(Pred);
                    }
                    s
                }
                // The carry chain of `add.cc`/`addc`/`sub.cc`/`subc`/`mad.cc`/`madc`.
                Opcode::Addc | Opcode::Subc | Opcode::Madc => {
                    let n = if op == Opcode::Madc { 3 } else { 2 };
                    let mut s = Sig::new(&[T, T, T][..n], &[T]);
                    s.args.extend(std::iter::repeat_n(Pred, carry));
                    s.opt_results.push(Pred);
                    s
                }
                Opcode::Lop3 | Opcode::Plop3 => {
                    if d.imm > 0xff {
                        out.push(format!("lookup table {:#x} is over 0xff", d.imm));
                    }
                    let mut s = if op == Opcode::Lop3 { Sig::new(&[W32, W32, W32], &[W32]) } else { Sig::new(&[Pred, Pred, Pred], &[Pred]) };
                    if op == Opcode::Lop3 {
                        s.opt_args.push(Pred);
                    }
                    s.opt_results.push(Pred);
                    s
                }
                Opcode::Prmt => {
                    let mut s = Sig::new(&[W32, W32], &[W32]);
                    s.opt_args.push(W32);
                    s
                }
                Opcode::Sreg | Opcode::S2r => {
                    need(&mut out, a.sreg.is_some(), "a special register");
                    let wide = a.sreg.is_some_and(|r| WIDE_SREGS.contains(&r)) && op == Opcode::Sreg;
                    Sig::new(&[], &[if wide { W64 } else { W32 }])
                }
                Opcode::BarSync | Opcode::Bar => Sig { opt_args: [W32, W32].into_iter().collect(), ..Sig::default() },
                // Warp operations: the PTX layer's last argument is the
                // member mask.
                Opcode::Shfl | Opcode::Shuffle => {
                    need(&mut out, a.warp.is_some(), "a lane mode");
                    let args: &[K] = if op == Opcode::Shfl { &[W32, W32, W32, W32] } else { &[W32, W32, W32] };
                    Sig { opt_results: [Pred].into_iter().collect(), ..Sig::new(args, &[W32]) }
                }
                Opcode::Vote | Opcode::WarpVote => {
                    need(&mut out, a.warp.is_some(), "a vote mode");
                    let result = if a.warp == Some(crate::ir::WarpMode::Ballot) { W32 } else { Pred };
                    // `activemask` is a PTX-layer vote without a member mask.
                    let opt: &[K] = if op == Opcode::Vote { &[W32] } else { &[] };
                    Sig { opt_args: opt.iter().copied().collect(), ..Sig::new(&[Pred], &[result]) }
                }
                Opcode::Match | Opcode::WarpMatch => {
                    need(&mut out, a.warp.is_some(), "a match mode");
                    let args: &[K] = if op == Opcode::Match { &[T, W32] } else { &[T] };
                    Sig { opt_results: [Pred].into_iter().collect(), ..Sig::new(args, &[W32]) }
                }
                Opcode::Elect => Sig::new(&[W32], &[W32, Pred]),
                Opcode::WarpElect => Sig::new(&[], &[W32, Pred]),
                Opcode::UniformPick => Sig::new(&[Pred, W32, Pred], &[W32, Pred]),
                Opcode::RegCountInc | Opcode::RegCountDec => Sig::new(&[W32, W32], &[]),
                Opcode::RegTryAlloc => Sig::new(&[], &[Pred]),
                Opcode::RegDealloc => Sig::new(&[], &[]),
                Opcode::ClusterArrive | Opcode::ClusterWait | Opcode::ClusterBarArrive | Opcode::ClusterBarWait => Sig::new(&[], &[]),
                Opcode::Redux | Opcode::WarpReduce => {
                    need(&mut out, a.red.is_some(), "a reduction");
                    let args: &[K] = if op == Opcode::Redux { &[W32, W32] } else { &[W32] };
                    Sig::new(args, &[W32])
                }
                Opcode::Atom | Opcode::AtomGlobal | Opcode::AtomShared | Opcode::AtomGeneric => {
                    need(&mut out, a.red.is_some(), "an atomic operation");
                    let cas = a.red == Some(crate::ir::RedOp::Cas);
                    let args: &[K] = if cas { &[K::Addr, T, T] } else { &[K::Addr, T] };
                    // The machine's atomics may drop the old value (`red.shared` is `ATOMS.ADD RZ`).
                    if op == Opcode::Atom { Sig::new(args, &[T]) } else { Sig { opt_results: [T].into_iter().collect(), ..Sig::new(args, &[]) } }
                }
                Opcode::Red | Opcode::RedGlobal | Opcode::RedGeneric => {
                    need(&mut out, a.red.is_some(), "a reduction");
                    Sig::new(&[K::Addr, T], &[])
                }
                Opcode::Fence
                | Opcode::Membar
                | Opcode::Errbar
                | Opcode::Breakpoint
                | Opcode::PerfTrigger
                | Opcode::Cgaerrbar
                | Opcode::CacheInvalidate
                | Opcode::GridWait
                | Opcode::GridLaunch
                | Opcode::Acqbulk
                | Opcode::Preexit => Sig::new(&[], &[]),
                Opcode::Nanosleep | Opcode::Sleep | Opcode::WarpSync | Opcode::Warpsync => Sig::new(&[W32], &[]),
                // A conversion; packing two f32 values into halves takes two.
                Opcode::Cvt => Sig { opt_args: [S, S].into_iter().collect(), ..Sig::new(&[S], &[T]) },
                Opcode::F2fp => Sig::new(&[W32, W32], &[W32]),
                Opcode::F2fpPack8 => Sig::new(&[W32, W32, W32], &[W32]),
                Opcode::F2fpUnpack8 => Sig::new(&[W32], &[W32]),
                Opcode::BarRed | Opcode::BarResult => {
                    need(&mut out, a.red.is_some(), "a reduction");
                    let result = if a.red == Some(crate::ir::RedOp::Popc) { W32 } else { Pred };
                    let args: &[K] = if op == Opcode::BarRed { &[W32, Pred] } else { &[] };
                    Sig::new(args, &[result])
                }
                Opcode::BarReduce => {
                    need(&mut out, a.red.is_some(), "a reduction");
                    Sig::new(&[Pred], &[])
                }
                // Register tuples as wide as the descriptor's fragments.
                Opcode::Mma | Opcode::MatrixMma => {
                    let Some(m) = crate::ir::matrix::Mma::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    let (ra, rb, rc) = m.registers();
                    Sig::new(&[tuple(ra), tuple(rb), tuple(rc)], &[tuple(rc)])
                }
                Opcode::Ldmatrix | Opcode::MatrixLoad => {
                    let Some(m) = crate::ir::matrix::MatrixMove::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    let addr = if op == Opcode::Ldmatrix { K::Addr } else { W32 };
                    Sig::new(&[addr], &[tuple(m.count)])
                }
                Opcode::Stmatrix | Opcode::MatrixStore => {
                    let Some(m) = crate::ir::matrix::MatrixMove::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    let addr = if op == Opcode::Stmatrix { K::Addr } else { W32 };
                    Sig::new(&[addr, tuple(m.count)], &[])
                }
                Opcode::Movmatrix | Opcode::MatrixTranspose => Sig::new(&[W32], &[W32]),
                Opcode::Tex | Opcode::TexFetch => {
                    let Some(t) = crate::ir::texture::TexFetch::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    let mut args: SmallVec<[K; 4]> = SmallVec::new();
                    if t.texref.is_none() {
                        args.push(self.handle_kind(op, d));
                    }
                    args.extend(std::iter::repeat_n(W32, t.operands()));
                    Sig::new(&args, &[K::W64, K::W64])
                }
                Opcode::Suld | Opcode::SurfaceLoad | Opcode::Sust | Opcode::SurfaceStore => {
                    let Some(a) = crate::ir::texture::SurfaceAccess::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    let mut args: SmallVec<[K; 4]> = SmallVec::new();
                    if a.surfref.is_none() {
                        args.push(self.handle_kind(op, d));
                    }
                    args.extend(std::iter::repeat_n(W32, a.coords()));
                    let data = tuple(a.bytes.div_ceil(4));
                    if matches!(op, Opcode::Suld | Opcode::SurfaceLoad) {
                        Sig::new(&args, &[data])
                    } else {
                        args.push(data);
                        Sig::new(&args, &[])
                    }
                }
                Opcode::Txq | Opcode::TexQuery => {
                    let Some(q) = crate::ir::texture::HeaderQuery::decode(d.imm) else {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                        return out;
                    };
                    if q.reference.is_some() { Sig::new(&[], &[W32]) } else { Sig::new(&[self.handle_kind(op, d)], &[W32]) }
                }
                Opcode::CpAsync | Opcode::AsyncCopy => {
                    if crate::ir::matrix::AsyncCopy::decode(d.imm).is_none() {
                        out.push(format!("`{op}` without a valid descriptor ({:#x})", d.imm));
                    }
                    let shared = if op == Opcode::CpAsync { K::Addr } else { W32 };
                    Sig::new(&[shared, W64, Pred], &[])
                }
                Opcode::CpAsyncCommit | Opcode::AsyncCommit | Opcode::CpAsyncWait | Opcode::AsyncWait | Opcode::ProxyFence | Opcode::BulkCommit => Sig::new(&[], &[]),
                Opcode::MbarExchange => Sig::new(&[W32, W64], &[]),
                Opcode::MbarArrive if d.args.len() == 1 => Sig::new(&[W32], &[]),
                Opcode::MbarArrive => Sig::new(&[W32, W32], &[]),
                Opcode::MbarTryWait => Sig::new(&[W32, W32], &[Pred]),
                Opcode::BulkCopy => Sig::new(&[W64, W64, W32], &[]),
                Opcode::BulkStore | Opcode::BulkStoreMasked => Sig::new(&[W64, W32, W32], &[]),
                Opcode::NextWorkId => Sig::new(&[W64], &[]),
                Opcode::Ld
                | Opcode::St
                | Opcode::Ldg
                | Opcode::Stg
                | Opcode::Lds
                | Opcode::Sts
                | Opcode::Ldl
                | Opcode::Stl
                | Opcode::Ldgen
                | Opcode::Stgen
                | Opcode::Ldc => {
                    return self.memory(d);
                }
                _ => {
                    out.push(format!("no operand rule for `{op}`"));
                    return out;
                }
            }
        };
        self.match_sig(d, &sig, &mut out);
        out
    }

    /// Compares the operands with a signature.
    fn match_sig(&self, d: &InstData, sig: &Sig, out: &mut Vec<String>) {
        let a = &d.attrs;
        let (nargs, nres) = (d.args.len(), d.results.len());
        for k in sig.args.iter().chain(&sig.opt_args).chain(&sig.results).chain(&sig.opt_results) {
            if let Err(m) = resolve(*k, a) {
                out.push(format!("`{}` needs {m}", d.opcode));
                return;
            }
        }
        let arity = |n: usize, fixed: usize, opt: usize| n >= fixed && n <= fixed + opt;
        if !arity(nargs, sig.args.len(), sig.opt_args.len()) || !arity(nres, sig.results.len(), sig.opt_results.len()) {
            let range = |fixed: usize, opt: usize| if opt == 0 { fixed.to_string() } else { format!("{fixed} to {}", fixed + opt) };
            out.push(format!(
                "`{}{}` takes {} arguments and {} results, not {nargs} and {nres}",
                d.opcode,
                a.words(),
                range(sig.args.len(), sig.opt_args.len()),
                range(sig.results.len(), sig.opt_results.len())
            ));
            return;
        }
        let kinds = |fixed: &[K], opt: &[K]| fixed.iter().chain(opt).copied().collect::<Vec<K>>();
        for (what, vals, ks) in
            [("argument", &d.args[..], kinds(&sig.args, &sig.opt_args)), ("result", &d.results[..], kinds(&sig.results, &sig.opt_results))]
        {
            for (n, (&v, &k)) in vals.iter().zip(&ks).enumerate() {
                if let Some(t) = self.ty(v)
                    && !self.fits(t, k, a)
                {
                    out.push(format!("{what} {n} ({v}:{t}) should be {}", describe(k, a)));
                }
            }
        }
    }

    fn call(&self, d: &InstData) -> Vec<String> {
        let mut out = Vec::new();
        let Some(callee) = usize::try_from(d.imm).ok().and_then(|i| self.module.functions.get(FuncId::new(i))) else {
            out.push(format!("calls fn{}, which does not exist", d.imm));
            return out;
        };
        if d.args.len() != callee.params.len() {
            out.push(format!("passes {} arguments; \"{}\" takes {}", d.args.len(), callee.name, callee.params.len()));
        } else {
            for (n, (&v, p)) in d.args.iter().zip(&callee.params).enumerate() {
                if let (Some(k), Some(t)) = (size_kind(p.size), self.ty(v))
                    && !self.fits(t, k, &Attrs::default())
                {
                    out.push(format!("argument {n} ({v}:{t}) does not fit parameter `{}` of {} bytes", p.name, p.size));
                }
            }
        }
        if d.results.len() != callee.returns.len() {
            out.push(format!("has {} results; \"{}\" returns {}", d.results.len(), callee.name, callee.returns.len()));
        } else {
            for (n, (&v, &t)) in d.results.iter().zip(&callee.returns).enumerate() {
                if self.ty(v).is_some_and(|vt| width(vt) != width(t) || vt.file().is_predicate() != t.file().is_predicate()) {
                    out.push(format!("result {n} ({v}) is not a {t} as \"{}\" returns", callee.name));
                }
            }
        }
        out
    }

    /// Loads and stores of both layers.
    fn memory(&self, d: &InstData) -> Vec<String> {
        let mut out = Vec::new();
        let a = &d.attrs;
        let op = d.opcode;
        let Some(ty) = a.ty else {
            out.push(format!("`{op}` needs a type"));
            return out;
        };
        if op.layer() == Layer::Ptx && a.space.is_none() {
            out.push(format!("`{op}` needs a state space"));
        }
        let load = op.class() == super::opcode::Class::Load;
        let n = usize::from(a.vector.max(1));
        let addr = match op {
            Opcode::Ldg | Opcode::Stg | Opcode::Ldgen | Opcode::Stgen => K::W64,
            Opcode::Lds | Opcode::Sts | Opcode::Ldl | Opcode::Stl | Opcode::Ldc => K::W32,
            _ => K::Addr,
        };
        let data_what = if load { "result" } else { "argument" };
        // The address: absent only for `.param` accesses (and LDC without an
        // index register).
        let may_omit = a.space == Some(Space::Param) || op == Opcode::Ldc;
        let with_addr = has_address(op, a, d.args.len());
        let values: &[Value] = if load { &d.results } else { &d.args[usize::from(with_addr)..] };
        if !with_addr && !may_omit {
            out.push(format!("`{op}` needs an address"));
        }
        if with_addr {
            let v = d.args[0];
            if let Some(t) = self.ty(v)
                && !self.fits(t, addr, a)
            {
                out.push(format!("address {v}:{t} should be {}", describe(addr, a)));
            }
        }
        if load && d.args.len() > 1 {
            out.push(format!("`{op}` takes one address argument, not {}", d.args.len()));
        }
        if !load && !d.results.is_empty() {
            out.push(format!("`{op}` has results"));
        }
        let elem = data_kind(ty);
        let wide = op.layer() == Layer::Sass && values.len() == 1 && a.vector > 1;
        if wide {
            let bits = u32::from(a.vector) * ty.bits();
            if let Some(t) = self.ty(values[0])
                && (t.bits() != bits || t.file().is_predicate())
            {
                out.push(format!("{data_what} {} should be {bits} bits (v{} of {})", values[0], a.vector, ty.word()));
            }
        } else if values.len() != n {
            out.push(format!("`{op}{}` moves {n} values, not {}", a.words(), values.len()));
        } else {
            for (k, &v) in values.iter().enumerate() {
                if let Some(t) = self.ty(v)
                    && !self.fits(t, elem, a)
                {
                    out.push(format!("{data_what} {k} ({v}:{t}) should be {}", describe(elem, a)));
                }
            }
        }
        out
    }
}

/// The kind of a value passed for a parameter of `size` bytes, when it is
/// a register.
fn size_kind(size: u32) -> Option<K> {
    match size {
        1..=4 => Some(K::W32),
        8 => Some(K::W64),
        16 => Some(K::W128),
        _ => None,
    }
}

/// The widths (1 for predicates) a kind allows, or what attribute it lacks.
fn resolve(k: K, a: &Attrs) -> Result<SmallVec<[u32; 2]>, &'static str> {
    let of = |t: DataType| -> SmallVec<[u32; 2]> {
        match data_kind(t) {
            K::Pred => [1].into_iter().collect(),
            K::W32 => [32].into_iter().collect(),
            K::W64 => [64].into_iter().collect(),
            _ => [128].into_iter().collect(),
        }
    };
    Ok(match k {
        K::W32 => [32].into_iter().collect(),
        K::W64 => [64].into_iter().collect(),
        K::W128 => [128].into_iter().collect(),
        K::Pred => [1].into_iter().collect(),
        K::Addr | K::Words => [32, 64].into_iter().collect(),
        K::T => of(a.ty.ok_or("a type")?),
        K::S => of(a.src_ty.ok_or("a source type")?),
        K::Wide => {
            let t = a.ty.ok_or("a type")?;
            match t.bits() {
                1 => return Err("a non-predicate type"),
                0..=16 => [32].into_iter().collect(),
                32 => [64].into_iter().collect(),
                _ => [128].into_iter().collect(),
            }
        }
    })
}

/// How a kind reads in a message.
fn describe(k: K, a: &Attrs) -> String {
    match resolve(k, a) {
        Ok(w) if w.as_slice() == [1] => "a predicate".into(),
        Ok(w) => w.iter().map(|b| format!("{b}-bit")).collect::<Vec<_>>().join(" or "),
        Err(m) => format!("({m})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::parse::parse_module;
    use crate::ir::parse::tests::SAMPLE;

    /// The messages of verifying a module written as text (at `Raw`).
    fn messages(text: &str, stage: Stage) -> Vec<String> {
        let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        match verify_module(&m, stage) {
            Ok(()) => Vec::new(),
            Err(es) => es.iter().map(|e| e.to_string()).collect(),
        }
    }

    /// A kernel whose body is `body` (plus a helper `fn1` taking a 4- and
    /// an 8-byte parameter and returning an `r32`, and a variable `g0`).
    fn kernel(body: &str) -> String {
        format!(
            "target sm_90\nglobal g0 \"g\" global size 8 align 8\nkernel fn0 \"k\" () local 8 {{\n{body}}}\n\
             func fn1 \"h\" (a: 4 align 4 at 0, b: 8 align 8 at 8) -> (r32) {{\nblock0(v0:r32, v1:r64):\n    return v0\n}}\n"
        )
    }

    /// Verifying `body` fails with a message containing `what`, naming the
    /// kernel.
    #[track_caller]
    fn fails(body: &str, what: &str) {
        let ms = messages(&kernel(body), Stage::Raw);
        assert!(ms.iter().any(|m| m.contains(what) && m.starts_with("function \"k\"")), "expected {what:?}, got {ms:#?}\n{body}");
    }

    #[track_caller]
    fn passes(body: &str) {
        let ms = messages(&kernel(body), Stage::Raw);
        assert!(ms.is_empty(), "{ms:#?}\n{body}");
    }

    #[test]
    fn sample_is_raw_but_not_legal() {
        assert_eq!(messages(SAMPLE, Stage::Raw), Vec::<String>::new());
        let legal = messages(SAMPLE, Stage::Legal);
        // ld, add, setp, add, st.
        assert_eq!(legal.len(), 5, "{legal:#?}");
        assert!(legal.iter().all(|m| m.contains("PTX-layer")));
        assert!(legal[0].contains("block0, `v0:r64 = ld.param.u64 [+0]`"), "{}", legal[0]);
    }

    #[test]
    fn valid_bodies_pass() {
        passes(
            "block0:\n    v0:r32 = iconst 0x1\n    v1:r64 = iconst 0x2\n    v2:r32 = call fn1(v0, v1)\n    v3:r64 = mul.wide.u32 v2, v0\n    v4:r64 = mad.wide.s32 v0, v2, v3\n    v5:r32 = mul.lo.s32 v0, v0\n    exit\n",
        );
        passes("block0:\n    v0:r32 = iconst 0x1\n    v1:p = iconst 0x1\n    v2:r32, v3:p = IADD3 v0, v0, v0\n    v4:r32 = IADD3.x v0, v0, v0, v3, v1\n    v5:p = ISETP.lt.and.x v0, v0, v1, v3\n    v6:r64 = IMAD.WIDE v0, v0, v7\n    v7:r64 = iconst 0x0\n    exit\n".replace("v6:r64 = IMAD.WIDE v0, v0, v7\n    v7:r64 = iconst 0x0", "v7:r64 = iconst 0x0\n    v6:r64 = IMAD.WIDE v0, v0, v7").as_str());
        passes("block0:\n    v0:r64 = symaddr g0\n    v1:r32, v2:r32 = ld.global.v2.f32 [v0+8]\n    st.global.v2.f32 [v0], v1, v2\n    v3:r128 = LDG.v4.u32 [v0]\n    STG.v4.u32 [v0+16], v3\n    v4:r32 = symaddr.local frame+4\n    v5:r32 = LDL.u32 [v4]\n    STS.u8 [v4], v5\n    v6:r64 = sreg.clock64\n    v7:r32 = sreg.tid_x\n    bar.sync v7\n    v8:p = setp.lt.and.f32 v1, v2, v9\n    v9:p = iconst 0x0\n    exit\n".replace("    v8:p = setp.lt.and.f32 v1, v2, v9\n    v9:p = iconst 0x0\n", "    v9:p = iconst 0x0\n    v8:p = setp.lt.and.f32 v1, v2, v9\n").as_str());
        // A use in an unreachable block needs no dominating definition.
        passes(
            "block0:\n    v0:r32 = iconst 0x1\n    exit\nblock1:\n    v1:r32 = add.s32 v2, v2\n    exit\nblock2:\n    v2:r32 = iconst 0x1\n    exit\n",
        );
    }

    #[test]
    fn structure_errors() {
        fails("block0:\n    v0:r32 = iconst 0x1\n", "does not end with a terminator");
        fails("block0:\n    exit\n    exit\n", "terminator before the end");
        fails("block0:\nblock1:\n    exit\n", "block is empty");
        fails("block0:\n    jump block1(v0)\nunplaced block1(v0:r32):\n    exit\n", "not in the layout");
        fails("block0:\n    v0:r32 = iconst 0x1\n    jump block1(v0, v0)\nblock1(v1:r32):\n    exit\n", "passes 2 arguments to block1");
        fails("block0:\n    v0:r64 = iconst 0x1\n    jump block1(v0)\nblock1(v1:r32):\n    exit\n", "has not the type of its parameter");
        fails("block0:\n    v0:p = iconst 0x1\n    brif v0, block1\nblock1:\n    exit\n", "1 destinations (`brif` takes 2)");
        fails("block0:\n    v0:r32 = iconst 0x1\n    exit block0\n", "(`exit` takes 0)");
        let ms = messages("target sm_90\nfunction fn0 \"f\" () {\nunplaced block0:\n    exit\n}\n", Stage::Raw);
        assert!(ms[0].contains("at least one block in the layout"), "{ms:?}");
        let ms = messages("target sm_90\nfunction fn0 \"f\" () {\nunplaced:\n    exit\n}\n", Stage::Raw);
        assert!(ms[0].contains("declaration (no blocks) has instructions"), "{ms:?}");
    }

    #[test]
    fn ssa_errors() {
        // Diamond: block3 uses a value of block1, which does not dominate it.
        fails(
            "block0:\n    v0:p = iconst 0x1\n    brif v0, block1, block2\nblock1:\n    v1:r32 = iconst 0x1\n    jump block3\nblock2:\n    jump block3\nblock3:\n    v2:r32 = add.s32 v1, v1\n    exit\n",
            "v1, whose definition in block1 does not dominate",
        );
        fails("block0:\n    v0:r32 = add.s32 v1, v1\n    v1:r32 = iconst 0x1\n    exit\n", "uses v1 before its definition");
        fails("block0:\n    v0:r32 = add.s32 v0, v0\n    exit\n", "uses v0 before its definition");
        fails("block0:\n    v0:r32 = add.s32 v1, v1\n    exit\nunplaced:\n    v1:r32 = iconst 0x1\n", "in no block of the layout");
        fails(
            "block0:\n    v0:r32 = add.s32 v1, v1\n    exit\nunplaced block1(v1:r32):\n    exit\n",
            "parameter of block1, which is not in the layout",
        );
        fails("block0:\n    v0:r32 = add.s32 v1, v1\n    exit\nunused v1:r32 param block0 0\n", "not parameter 0 of block0");
        // A reachable use of a value of an unreachable block.
        fails("block0:\n    v0:r32 = add.s32 v1, v1\n    exit\nblock1:\n    v1:r32 = iconst 0x1\n    exit\n", "does not dominate");
    }

    #[test]
    fn guard_errors() {
        fails("block0:\n    v0:r32 = iconst 0x1\n    @v0 exit\n", "guard v0 is not a predicate");
        fails("block0:\n    v0:p = iconst 0x1\n    v1:r32 = iconst 0x1\n    @v0 v2:r32 = add.s32 v1, v1\n    exit\n", "0 prior values for 1 results");
        fails(
            "block0:\n    v0:p = iconst 0x1\n    v1:r64 = iconst 0x1\n    v3:r32 = iconst 0x1\n    @!v0 v2:r32 = add.s32 v3, v3 else v1\n    exit\n",
            "prior value 0 (v1) has not the type",
        );
        fails("block0:\n    v0:r32 = iconst 0x1\n    v1:r32 = add.s32 v0, v0 else v0\n    exit\n", "prior values without a guard");
    }

    #[test]
    fn operand_errors() {
        let c = "block0:\n    v0:r32 = iconst 0x1\n    v1:r64 = iconst 0x1\n    v2:p = iconst 0x1\n";
        let check = |line: &str, what: &str| fails(&format!("{c}    {line}\n    exit\n"), what);
        check("v3:r32 = add.s32 v0", "takes 2 arguments and 1 results, not 1 and 1");
        check("v3:r32 = add.s64 v0, v0", "argument 0 (v0:r32) should be 64-bit");
        check("v3:r64 = add.s64 v1, v1, v1", "takes 2 arguments");
        check("v3:r32 = add v0, v0", "`add` needs a type");
        check("v3:r32 = mul.wide.s32 v0, v0", "result 0 (v3:r32) should be 64-bit");
        check("v3:p = setp.lt.and.s32 v0, v0", "takes 3 arguments");
        check("v3:p = setp.s32 v0, v0", "needs a comparison");
        check("v3:r32 = cvt.f32 v1", "needs a source type");
        check("v3:r32 = cvt.f32.f64 v0", "argument 0 (v0:r32) should be 64-bit");
        check("v3:r32 = selp.b32 v0, v0, v0", "argument 2 (v0:r32) should be a predicate");
        check("v3:r32 = IADD3.x v0, v0, v0", "takes 4 to 5 arguments");
        check("v3:r32 = IADD3 v0, v0, v0, v2", "takes 3 arguments");
        check("v3:r32 = LOP3 v0, v0, v0, #0x100", "lookup table 0x100 is over 0xff");
        check("v3:r32 = extract v1, #0x2", "extracts part 2 of a value of 2 registers");
        check("v3:r64 = concat v0, v0, v0", "takes 2 arguments");
        check("v3:r64 = copy v0", "copies a r32 into a r64");
        check("v3:r64 = sreg.tid_x", "should be 32-bit");
        check("v3:r32 = S2R", "needs a special register");
        check("v3:r32 = MUFU.rcp v1", "should be 32-bit");
        check("v3:r32 = DADD v1, v1", "should be 64-bit");
        check("v3:p = iconst 0x1, v0", "takes no arguments");
    }

    #[test]
    fn memory_errors() {
        let c = "block0:\n    v0:r32 = iconst 0x1\n    v1:r64 = iconst 0x1\n";
        let check = |line: &str, what: &str| fails(&format!("{c}    {line}\n    exit\n"), what);
        check("v2:r32 = ld.global.u32 [+0]", "needs an address");
        check("v2:r32 = ld.u32 [v1]", "needs a state space");
        check("v2:r32 = ld.global [v1]", "needs a type");
        check("v2:r32 = ld.global.v2.u32 [v1]", "moves 2 values, not 1");
        check("v2:r64 = ld.global.u32 [v1]", "result 0 (v2:r64) should be 32-bit");
        check("st.global.v2.u32 [v1], v0", "moves 2 values, not 1");
        check("v2:r32 = LDS.u32 [v1]", "address v1:r64 should be 32-bit");
        check("v2:r32 = LDG.u32 [v0]", "address v0:r32 should be 64-bit");
        check("v2:r64 = LDG.v4.u32 [v1]", "should be 128 bits");
        check("v2:r32 = st.global.u32 [v1], v0", "has results");
    }

    #[test]
    fn module_reference_errors() {
        let c = "block0:\n    v0:r32 = iconst 0x1\n    v1:r64 = iconst 0x1\n";
        let check = |line: &str, what: &str| fails(&format!("{c}    {line}\n    exit\n"), what);
        check("v2:r32 = call fn1(v0)", "passes 1 arguments; \"h\" takes 2");
        check("v2:r32 = call fn1(v1, v1)", "argument 0 (v1:r64) does not fit parameter `a` of 4 bytes");
        check("call fn1(v0, v1)", "has 0 results; \"h\" returns 1");
        check("v2:r64 = call fn1(v0, v1)", "result 0 (v2) is not a r32");
        check("call fn7()", "calls fn7, which does not exist");
        check("v2:r64 = symaddr g1", "variable g1 does not exist");
        check("v2:r32 = symaddr.local frame+12", "outside the 8 bytes");
        let ret = |body: &str, what: &str| {
            let text = format!("target sm_90\nfunc fn0 \"d\" (a: 4 align 4 at 0) -> (r32) {{\n{body}}}\n");
            let ms = messages(&text, Stage::Raw);
            assert!(ms.iter().any(|m| m.contains(what)), "expected {what:?}, got {ms:#?}");
        };
        ret("block0(v0:r32):\n    return\n", "returns 0 values; the function returns 1");
        ret("block0(v0:r32):\n    v1:r64 = iconst 0x0\n    return v1\n", "return value 0 (v1) is not a r32");
        ret("block0:\n    v0:r32 = iconst 0x0\n    return v0\n", "entry block has 0 parameters but the function 1");
        ret("block0(v0:r64):\n    v1:r32 = iconst 0x0\n    return v1\n", "does not match parameter `a` of 4 bytes");
        fails("block0(v0:r32):\n    exit\n", "kernel's entry block has parameters");
    }

    #[test]
    fn corrupt_storage_is_reported_not_panicked_on() {
        let base = parse_module(&kernel("block0:\n    v0:r32 = iconst 0x1\n    jump block1(v0)\nblock1(v1:r32):\n    exit\n")).unwrap();
        assert_eq!(verify_module(&base, Stage::Raw), Ok(()));
        let k = FuncId::new(0);
        let run = |edit: &dyn Fn(&mut Function), what: &str| {
            let mut m = base.clone();
            edit(&mut m.functions[k]);
            let es = verify_function_id(&m, k, Stage::Raw).expect_err(what);
            assert!(es.iter().any(|e| e.to_string().contains(what)), "expected {what:?}, got {es:#?}");
        };
        run(&|f| f.layout.clear(), "at least one block in the layout");
        run(&|f| f.layout.push(Block::new(0)), "appears twice in the layout");
        run(&|f| f.layout.push(Block::new(9)), "names block9, which does not exist");
        run(&|f| f.blocks[Block::new(1)].insts.insert(0, Inst::new(0)), "placed twice");
        run(&|f| f.blocks[Block::new(1)].insts.insert(0, Inst::new(99)), "inst99 does not exist");
        run(&|f| f.insts[Inst::new(1)].dests[0].args[0] = Value::new(42), "uses v42, which does not exist");
        run(&|f| f.values[Value::new(0)].def = ValueDef::Result(Inst::new(1), 0), "whose definition says");
        run(&|f| f.values[Value::new(1)].def = ValueDef::Param(Block::new(0), 0), "whose definition says");
        run(&|f| f.blocks[Block::new(1)].params[0] = Value::new(77), "parameter v77 does not exist");
        run(&|f| f.insts[Inst::new(0)].results[0] = Value::new(77), "result v77 does not exist");
        run(&|f| f.insts[Inst::new(1)].dests[0].block = Block::new(5), "branches to block5");
        assert!(verify_function_id(&base, FuncId::new(5), Stage::Raw).is_err());
    }
}
