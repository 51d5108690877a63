//! Building code without PTX: a module of kernels and device functions
//! (Ori IR, the compiler's own representation) made in memory and
//! compiled by the same [`compile`](crate::compile) call as PTX text.
//!
//! A [`Module`] holds functions and shared-memory arrays. Each function
//! is built by a closure that receives a [`FunctionBuilder`]: it declares
//! the parameters, creates [`Block`]s and appends instructions to the
//! current block, each returning its result as a [`Value`] of a register
//! class fixed by its [`Type`]. Values are in SSA form (each defined
//! once); a mutable variable of the source language is a [`Var`], whose
//! reads and writes the builder turns into SSA values across blocks (so a
//! front end need not place block parameters itself, though it may).
//!
//! The builder covers the operations of a typical kernel: integer and
//! floating-point arithmetic, comparisons and selection, conversions,
//! loads and stores in the global, shared, local and constant spaces,
//! special registers (`%tid`, `%ctaid`, …), barriers, branches, loops and
//! calls. Each instruction is the one the PTX front end makes of the
//! same PTX instruction (`add.s32`, `setp.lt.u32`, `ld.global.f32`, …),
//! so a kernel built here compiles to the code its PTX would.
//!
//! ```
//! use ptx2sass::ori::{Module, Special, Type, BinaryOp, Compare, Space};
//! use ptx2sass::{compile, Options, Target};
//!
//! // out[tid] = tid * tid for tid < n
//! let mut module = Module::new();
//! module.kernel("squares", |b| {
//!     let out = b.pointer_param("out");
//!     let n = b.param("n", Type::U32);
//!     let tid = b.special(Special::TidX);
//!     let inside = b.compare(Compare::Lt, Type::U32, tid, n);
//!     let (body, done) = (b.create_block(), b.create_block());
//!     b.branch(inside, body, &[], done, &[]);
//!     b.switch_to_block(body);
//!     let square = b.binary(BinaryOp::Mul, Type::U32, tid, tid);
//!     let base = b.to_global(out);
//!     let four = b.iconst(Type::U32, 4);
//!     let offset = b.binary(BinaryOp::MulWide, Type::U32, tid, four);
//!     let address = b.binary(BinaryOp::Add, Type::S64, base, offset);
//!     b.store(Space::Global, Type::U32, address, 0, square);
//!     b.jump(done, &[]);
//!     b.switch_to_block(done);
//!     b.exit();
//! })?;
//! let output = compile(&module, &Options::new(Target::sm(90)?))?;
//! assert_eq!(output.kernels[0].name, "squares");
//! # Ok::<(), ptx2sass::Error>(())
//! ```
//!
//! Mistakes in the use of the builder (a value of another function, an
//! operand of the wrong register class, an instruction after a block's
//! branch) do not panic: the first one is recorded and
//! [`Module::kernel`] returns it as an
//! [`ErrorKind::InvalidModule`] error;
//! the finished function is also checked by the IR verifier.

use crate::api::error::{Diagnostic, Error, ErrorKind, Location};
use crate::ir::entity::EntityRef;
use crate::ir::{self, FuncId, GlobalId, Opcode};
use crate::target::Sm;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

/// Gives each module and each function being built its own number, so
/// that a handle of one is never taken for a handle of another.
static NEXT_OWNER: AtomicU32 = AtomicU32::new(1);

fn next_owner() -> u32 {
    NEXT_OWNER.fetch_add(1, Ordering::Relaxed)
}

/// The data type of an operation: what its operands' bits mean, as the
/// PTX type suffixes (`.u32`, `.f32`, `.pred`) say. Values of 8-, 16- and
/// 32-bit types are held in 32-bit registers, of 64-bit types in register
/// pairs, predicates in predicate registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Type {
    /// A predicate (`.pred`): the result of a comparison.
    Pred,
    /// Untyped 8 bits (`.b8`).
    B8,
    /// Untyped 16 bits.
    B16,
    /// Untyped 32 bits.
    B32,
    /// Untyped 64 bits.
    B64,
    /// Unsigned 8-bit integer.
    U8,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 64-bit integer.
    U64,
    /// Signed 8-bit integer.
    S8,
    /// Signed 16-bit integer.
    S16,
    /// Signed 32-bit integer.
    S32,
    /// Signed 64-bit integer.
    S64,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

impl Type {
    /// The PTX suffix without its dot (`u32`).
    pub fn word(self) -> &'static str {
        match self {
            Type::Pred => "pred",
            Type::B8 => "b8",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U8 => "u8",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S8 => "s8",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::F32 => "f32",
            Type::F64 => "f64",
        }
    }

    /// Width in bits (1 for a predicate).
    pub fn bits(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::B16 | Type::U16 | Type::S16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::F32 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
        }
    }

    /// Whether it is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }

    /// Whether it is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    /// The untyped type of the same width (`b32` for `f32`).
    fn bit_word(self) -> &'static str {
        match self.bits() {
            1 => "pred",
            8 => "b8",
            16 => "b16",
            32 => "b32",
            _ => "b64",
        }
    }

    /// The register class of a value of this type.
    fn reg(self) -> ir::Type {
        match self.bits() {
            1 => ir::Type::P,
            64 => ir::Type::R64,
            _ => ir::Type::R32,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A two-operand operation ([`FunctionBuilder::binary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BinaryOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`: the low half for integers (`mul.lo`).
    Mul,
    /// The high half of an integer product (`mul.hi`).
    MulHi,
    /// The whole product of two 16- or 32-bit integers, twice as wide
    /// (`mul.wide`: `u32 × u32` gives a 64-bit value).
    MulWide,
    /// `a / b` (integers truncate; floats round to nearest).
    Div,
    /// Integer remainder.
    Rem,
    /// The smaller.
    Min,
    /// The larger.
    Max,
    /// Bitwise and (of predicates too).
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Left shift by `b` (a 32-bit value).
    Shl,
    /// Right shift by `b` (a 32-bit value): arithmetic for signed types,
    /// logical otherwise.
    Shr,
}

/// A one-operand operation ([`FunctionBuilder::unary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnaryOp {
    /// `-a`.
    Neg,
    /// `|a|`.
    Abs,
    /// Bitwise not (of predicates too).
    Not,
    /// Square root, rounded to nearest (floats).
    Sqrt,
    /// Bits set (integers; the result is `u32`).
    Popc,
    /// Leading zeros (integers; the result is `u32`).
    Clz,
}

/// A comparison ([`FunctionBuilder::compare`]); the type says whether
/// integers compare signed or unsigned. Floating-point comparisons are
/// false when either operand is NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compare {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Compare {
    fn word(self) -> &'static str {
        match self {
            Compare::Eq => "eq",
            Compare::Ne => "ne",
            Compare::Lt => "lt",
            Compare::Le => "le",
            Compare::Gt => "gt",
            Compare::Ge => "ge",
        }
    }
}

/// A memory space of a load or store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Space {
    /// Device memory, by a 64-bit global address ([`FunctionBuilder::to_global`]).
    Global,
    /// The block's shared memory, by a 32-bit shared address
    /// ([`FunctionBuilder::address_of`]).
    Shared,
    /// The thread's local memory.
    Local,
    /// Constant memory.
    Const,
    /// A 64-bit generic address.
    Generic,
}

impl Space {
    fn word(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Generic => "generic",
        }
    }

    /// The register class of an address in the space.
    fn address(self) -> ir::Type {
        match self {
            Space::Shared => ir::Type::R32,
            _ => ir::Type::R64,
        }
    }
}

/// A special register ([`FunctionBuilder::special`]); each is a 32-bit
/// unsigned value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Special {
    /// `%tid.x`: the thread's index in its block.
    TidX,
    /// `%tid.y`.
    TidY,
    /// `%tid.z`.
    TidZ,
    /// `%ntid.x`: the block's size.
    NtidX,
    /// `%ntid.y`.
    NtidY,
    /// `%ntid.z`.
    NtidZ,
    /// `%ctaid.x`: the block's index in the grid.
    CtaidX,
    /// `%ctaid.y`.
    CtaidY,
    /// `%ctaid.z`.
    CtaidZ,
    /// `%nctaid.x`: the grid's size in blocks.
    NctaidX,
    /// `%nctaid.y`.
    NctaidY,
    /// `%nctaid.z`.
    NctaidZ,
    /// `%laneid`: the thread's lane in its warp.
    LaneId,
}

impl Special {
    fn word(self) -> &'static str {
        match self {
            Special::TidX => "tid_x",
            Special::TidY => "tid_y",
            Special::TidZ => "tid_z",
            Special::NtidX => "ntid_x",
            Special::NtidY => "ntid_y",
            Special::NtidZ => "ntid_z",
            Special::CtaidX => "ctaid_x",
            Special::CtaidY => "ctaid_y",
            Special::CtaidZ => "ctaid_z",
            Special::NctaidX => "nctaid_x",
            Special::NctaidY => "nctaid_y",
            Special::NctaidZ => "nctaid_z",
            Special::LaneId => "laneid",
        }
    }
}

/// A value of the function being built: a parameter, an instruction's
/// result or a block parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    owner: u32,
    value: ir::Value,
}

/// A basic block of the function being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    owner: u32,
    block: ir::Block,
}

/// A mutable variable of the function being built
/// ([`FunctionBuilder::declare_var`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    owner: u32,
    var: ir::Variable,
}

/// A function of a module, for [`FunctionBuilder::call`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncRef {
    module: u32,
    id: FuncId,
}

/// A shared-memory array of a module, for [`FunctionBuilder::address_of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SharedArray {
    module: u32,
    id: GlobalId,
}

/// A module: kernels, device functions and shared-memory arrays, compiled
/// with [`compile`](crate::compile) for the target its options name.
#[derive(Clone, Debug)]
pub struct Module {
    owner: u32,
    // The SM is set when compiled; nothing built here depends on it.
    inner: ir::Module,
}

impl Default for Module {
    fn default() -> Self {
        Module::new()
    }
}

impl Module {
    /// An empty module.
    pub fn new() -> Module {
        Module { owner: next_owner(), inner: ir::Module::new(Sm::new(75)) }
    }

    /// Adds a kernel (launched from the host; its parameters come from
    /// [`FunctionBuilder::param`]), built by `body`.
    pub fn kernel(&mut self, name: &str, body: impl FnOnce(&mut FunctionBuilder<'_>)) -> Result<FuncRef, Error> {
        self.function(name, ir::FunctionKind::Kernel, &[], body)
    }

    /// Adds a device function returning values of the types `returns`,
    /// built by `body`; kernels and device functions added after it call
    /// it with [`FunctionBuilder::call`].
    pub fn device_function(&mut self, name: &str, returns: &[Type], body: impl FnOnce(&mut FunctionBuilder<'_>)) -> Result<FuncRef, Error> {
        self.function(name, ir::FunctionKind::Device, returns, body)
    }

    /// Adds an array of `bytes` bytes of shared memory (per block), aligned
    /// to `align` bytes (a power of two).
    pub fn shared_array(&mut self, name: &str, bytes: u32, align: u32) -> Result<SharedArray, Error> {
        let fail = |message: String| Error::new(ErrorKind::InvalidModule, vec![Diagnostic::error(message)]);
        check_name(name, self).map_err(fail)?;
        if !align.is_power_of_two() || bytes == 0 {
            return Err(fail(format!("shared array '{name}': {bytes} bytes aligned to {align} (the size must be positive, the alignment a power of two)")));
        }
        let var = ir::GlobalVar { name: name.to_string(), space: ir::Space::Shared, size: u64::from(bytes), align, init: Vec::new(), visible: false, addresses: Vec::new(), owner: None };
        Ok(SharedArray { module: self.owner, id: self.inner.globals.push(var) })
    }

    /// The module in the Ori IR's text form (as the `--dump-ir` option of
    /// the `ptx2sass` tool prints functions), for reading and for tests.
    /// The module names no target (the compile options do), so the text
    /// has no `target` line.
    pub fn to_text(&self) -> String {
        let text = ir::print_module(&self.inner);
        match text.split_once('\n') {
            Some((first, rest)) if first.starts_with("target ") => rest.to_string(),
            _ => text,
        }
    }

    /// The IR for a target.
    pub(crate) fn to_ir(&self, sm: Sm) -> Result<ir::Module, Error> {
        let mut m = self.inner.clone();
        m.sm = sm;
        Ok(m)
    }

    fn function(&mut self, name: &str, kind: ir::FunctionKind, returns: &[Type], body: impl FnOnce(&mut FunctionBuilder<'_>)) -> Result<FuncRef, Error> {
        let error = |message: String| Error::new(ErrorKind::InvalidModule, vec![Diagnostic { function: Some(name.to_string()), ..Diagnostic::error(message) }]);
        check_name(name, self).map_err(error)?;
        let mut func = ir::Function::new(name, kind);
        func.returns = returns.iter().map(|t| t.reg()).collect();
        let (failure, location) = {
            let mut inner = ir::FunctionBuilder::new(&mut func);
            let entry = inner.create_block();
            inner.switch_to_block(entry);
            // Nothing branches to the entry block: sealed from the start,
            // so a variable read there before any write reads zero.
            inner.seal_block(entry);
            let mut b = FunctionBuilder { inner, module: &self.inner, module_owner: self.owner, owner: next_owner(), entry, failure: None, param_bytes: 0, loc: ir::SrcLoc::default(), kind };
            body(&mut b);
            let (failure, location) = (b.failure.take(), b.loc);
            if failure.is_none() {
                b.inner.finish();
            }
            (failure, location)
        };
        if let Some((message, at)) = failure {
            let at = if at.line > 0 { at } else { location };
            let location = (at.line > 0).then(|| Location { line: at.line, column: at.col, span: None });
            return Err(Error::new(ErrorKind::InvalidModule, vec![Diagnostic { location, function: Some(name.to_string()), ..Diagnostic::error(message) }]));
        }
        if let Err(errors) = ir::verify_function(&self.inner, &func, ir::Stage::Raw) {
            let diagnostics = errors
                .iter()
                .map(|e| {
                    let loc = e.inst.map(|i| func.locs[i]).filter(|l| l.line > 0);
                    let message = if e.text.is_empty() { e.message.clone() } else { format!("{} (`{}`)", e.message, e.text) };
                    Diagnostic {
                        location: loc.map(|l| Location { line: l.line, column: l.col, span: None }),
                        function: Some(name.to_string()),
                        ..Diagnostic::error(message)
                    }
                })
                .collect();
            return Err(Error::new(ErrorKind::InvalidModule, diagnostics));
        }
        Ok(FuncRef { module: self.owner, id: self.inner.functions.push(func) })
    }
}

/// A name is a PTX identifier (it becomes a symbol and a section name of
/// the cubin), not taken yet.
fn check_name(name: &str, module: &Module) -> Result<(), String> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
        return Err(format!("'{name}' is not a valid name (a letter, '_' or '$', then letters, digits, '_' or '$')"));
    }
    if module.inner.function_by_name(name).is_some() || module.inner.global_by_name(name).is_some() {
        return Err(format!("the module already has something named '{name}'"));
    }
    Ok(())
}

/// Builds one function: see the [module documentation](self). Every
/// method appends to the current block (at first the entry block); a
/// misuse is recorded (the first one is returned by [`Module::kernel`])
/// and the method returns a placeholder value.
pub struct FunctionBuilder<'m> {
    inner: ir::FunctionBuilder<'m>,
    module: &'m ir::Module,
    module_owner: u32,
    owner: u32,
    entry: ir::Block,
    failure: Option<(String, ir::SrcLoc)>,
    param_bytes: u32,
    loc: ir::SrcLoc,
    kind: ir::FunctionKind,
}

impl FunctionBuilder<'_> {
    // ---- parameters and constants -------------------------------------

    /// Adds a parameter of type `ty` and returns its value. A kernel's
    /// parameters are laid out in the order added, each aligned to its
    /// size, as the CUDA driver passes them; the value is loaded where
    /// this is called (normally at the start of the entry block).
    pub fn param(&mut self, name: &str, ty: Type) -> Value {
        self.add_param(name, ty, false)
    }

    /// Adds a parameter holding a 64-bit pointer (a `.u64` parameter
    /// marked as an address) and returns its value: a generic address;
    /// [`FunctionBuilder::to_global`] converts it for global loads and
    /// stores.
    pub fn pointer_param(&mut self, name: &str) -> Value {
        self.add_param(name, Type::U64, true)
    }

    fn add_param(&mut self, name: &str, ty: Type, pointer: bool) -> Value {
        if ty == Type::Pred {
            return self.fail("a parameter cannot be a predicate (pass a u32)", ty.reg());
        }
        if self.inner.func.params.iter().any(|p| p.name == name) {
            return self.fail(format!("a second parameter named '{name}'"), ty.reg());
        }
        let size = (ty.bits() / 8).max(1);
        let offset = self.param_bytes.next_multiple_of(size);
        self.param_bytes = offset + size;
        self.inner.func.params.push(ir::Param { name: name.to_string(), size, align: size, offset, pointer });
        match self.kind {
            ir::FunctionKind::Kernel => {
                let mut data = self.data(&format!("ld.param.{}", ty.word()));
                data.offset = offset as i32;
                self.emit(data, ty.reg())
            }
            ir::FunctionKind::Device => {
                if !self.inner.func.blocks[self.entry].insts.is_empty() {
                    return self.fail("a device function's parameters come before its instructions", ty.reg());
                }
                let v = self.inner.append_block_param(self.entry, ty.reg());
                self.wrap(v)
            }
        }
    }

    /// A constant: `bits` as a value of type `ty` (the low bits; a float
    /// by its IEEE bits, see [`FunctionBuilder::f32_const`]).
    pub fn iconst(&mut self, ty: Type, bits: u64) -> Value {
        let mask = if ty.bits() >= 64 { u64::MAX } else { (1u64 << ty.bits()) - 1 };
        let v = self.inner_guarded(|inner| inner.iconst(ty.reg(), bits & mask));
        self.wrap(v)
    }

    /// A single-precision constant.
    pub fn f32_const(&mut self, value: f32) -> Value {
        self.iconst(Type::F32, u64::from(value.to_bits()))
    }

    /// A double-precision constant.
    pub fn f64_const(&mut self, value: f64) -> Value {
        self.iconst(Type::F64, value.to_bits())
    }

    /// A special register's value.
    pub fn special(&mut self, reg: Special) -> Value {
        let data = self.data(&format!("sreg.{}", reg.word()));
        self.emit(data, ir::Type::R32)
    }

    /// The shared address of a shared-memory array (a 32-bit value).
    pub fn address_of(&mut self, array: SharedArray) -> Value {
        if array.module != self.module_owner || !self.module.globals.is_valid(array.id) {
            return self.fail("a shared array of another module", ir::Type::R32);
        }
        let mut data = self.data("symaddr.shared");
        data.imm = array.id.index() as u64;
        self.emit(data, ir::Type::R32)
    }

    // ---- arithmetic ---------------------------------------------------

    /// A two-operand operation on values of type `ty` (for shifts, `b` is
    /// a 32-bit amount). The result has type `ty`, except for
    /// [`BinaryOp::MulWide`], whose result is twice as wide.
    pub fn binary(&mut self, op: BinaryOp, ty: Type, a: Value, b: Value) -> Value {
        use BinaryOp::*;
        let int_only = matches!(op, MulHi | MulWide | Rem | Shl | Shr);
        if int_only && (ty.is_float() || ty == Type::Pred) || ty == Type::Pred && !matches!(op, And | Or | Xor) {
            return self.fail(format!("{op:?} is not defined for {ty}"), ty.reg());
        }
        if op == MulWide && !matches!(ty.bits(), 16 | 32) {
            return self.fail(format!("MulWide takes 16- or 32-bit integers, not {ty}"), ir::Type::R64);
        }
        let t = ty.word();
        let name = match op {
            Add => format!("add.{t}"),
            Sub => format!("sub.{t}"),
            Mul if ty.is_float() => format!("mul.{t}"),
            Mul => format!("mul.lo.{t}"),
            MulHi => format!("mul.hi.{t}"),
            MulWide => format!("mul.wide.{t}"),
            Div if ty.is_float() => format!("div.rn.{t}"),
            Div => format!("div.{t}"),
            Rem => format!("rem.{t}"),
            Min => format!("min.{t}"),
            Max => format!("max.{t}"),
            And => format!("and.{}", ty.bit_word()),
            Or => format!("or.{}", ty.bit_word()),
            Xor => format!("xor.{}", ty.bit_word()),
            Shl => format!("shl.{}", ty.bit_word()),
            Shr => format!("shr.{t}"),
        };
        let second = if matches!(op, Shl | Shr) { ir::Type::R32 } else { ty.reg() };
        let result = if op == MulWide { ir::Type::R64 } else { ty.reg() };
        self.op(&name, &[(a, ty.reg()), (b, second)], result)
    }

    /// A one-operand operation on a value of type `ty`.
    pub fn unary(&mut self, op: UnaryOp, ty: Type, a: Value) -> Value {
        let ok = match op {
            UnaryOp::Neg | UnaryOp::Abs => ty != Type::Pred && (ty.is_float() || ty.is_signed()),
            UnaryOp::Not => !ty.is_float(),
            UnaryOp::Sqrt => ty.is_float(),
            UnaryOp::Popc | UnaryOp::Clz => !ty.is_float() && matches!(ty.bits(), 32 | 64),
        };
        let result = if matches!(op, UnaryOp::Popc | UnaryOp::Clz) { ir::Type::R32 } else { ty.reg() };
        if !ok {
            return self.fail(format!("{op:?} is not defined for {ty}"), result);
        }
        let name = match op {
            UnaryOp::Neg => format!("neg.{ty}"),
            UnaryOp::Abs => format!("abs.{ty}"),
            UnaryOp::Not => format!("not.{}", ty.bit_word()),
            UnaryOp::Sqrt => format!("sqrt.rn.{ty}"),
            UnaryOp::Popc => format!("popc.{}", ty.bit_word()),
            UnaryOp::Clz => format!("clz.{}", ty.bit_word()),
        };
        self.op(&name, &[(a, ty.reg())], result)
    }

    /// `a * b + c`: fused and rounded once for floats (`fma.rn`), the low
    /// half for integers (`mad.lo`).
    pub fn fma(&mut self, ty: Type, a: Value, b: Value, c: Value) -> Value {
        if ty == Type::Pred {
            return self.fail("fma is not defined for pred", ir::Type::P);
        }
        let name = if ty.is_float() { format!("fma.rn.{ty}") } else { format!("mad.lo.{ty}") };
        self.op(&name, &[(a, ty.reg()), (b, ty.reg()), (c, ty.reg())], ty.reg())
    }

    /// `a * b + c` of 16- or 32-bit integers `a` and `b`, with the whole
    /// product and `c` twice as wide (`mad.wide`): the usual way to form
    /// `base + index * size`.
    pub fn mad_wide(&mut self, ty: Type, a: Value, b: Value, c: Value) -> Value {
        if ty.is_float() || !matches!(ty.bits(), 16 | 32) {
            return self.fail(format!("mad_wide takes 16- or 32-bit integers, not {ty}"), ir::Type::R64);
        }
        self.op(&format!("mad.wide.{ty}"), &[(a, ty.reg()), (b, ty.reg()), (c, ir::Type::R64)], ir::Type::R64)
    }

    /// Compares two values of type `ty`; the result is a predicate.
    pub fn compare(&mut self, cmp: Compare, ty: Type, a: Value, b: Value) -> Value {
        if ty == Type::Pred {
            return self.fail("predicates are compared with BinaryOp::Xor and UnaryOp::Not", ir::Type::P);
        }
        self.op(&format!("setp.{}.{ty}", cmp.word()), &[(a, ty.reg()), (b, ty.reg())], ir::Type::P)
    }

    /// `if cond { a } else { b }` for values of type `ty`.
    pub fn select(&mut self, ty: Type, cond: Value, a: Value, b: Value) -> Value {
        if ty == Type::Pred {
            return self.fail("select of predicates: combine them with BinaryOp::And and BinaryOp::Or", ir::Type::P);
        }
        self.op(&format!("selp.{ty}"), &[(a, ty.reg()), (b, ty.reg()), (cond, ir::Type::P)], ty.reg())
    }

    /// Converts a value of type `from` to type `to`: a float to an
    /// integer rounds toward zero, an integer to a float and a `f64` to a
    /// `f32` round to nearest, integers are truncated or extended (by
    /// `from`'s signedness).
    pub fn convert(&mut self, to: Type, from: Type, a: Value) -> Value {
        if to == Type::Pred || from == Type::Pred {
            return self.fail("a predicate converts with BinaryOp/select, not convert", to.reg());
        }
        let round = match (from.is_float(), to.is_float()) {
            (true, false) => ".rzi",
            (false, true) => ".rn",
            (true, true) if from.bits() > to.bits() => ".rn",
            _ => "",
        };
        self.op(&format!("cvt{round}.{to}.{from}"), &[(a, from.reg())], to.reg())
    }

    /// The global address of a generic 64-bit address (`cvta.to.global`):
    /// a pointer parameter's value, before global loads and stores.
    pub fn to_global(&mut self, generic: Value) -> Value {
        self.op("cvta.to.global.u64", &[(generic, ir::Type::R64)], ir::Type::R64)
    }

    // ---- memory -------------------------------------------------------

    /// Loads a value of type `ty` from `address + offset` in `space`.
    /// Addresses are 64-bit, except in shared memory (32-bit).
    pub fn load(&mut self, space: Space, ty: Type, address: Value, offset: i32) -> Value {
        if ty == Type::Pred {
            return self.fail("memory holds no predicates (load a u8 and compare it)", ir::Type::P);
        }
        let Some(addr) = self.operand(address, space.address(), "the address") else { return self.placeholder(ty.reg()) };
        let mut data = self.data(&format!("ld.{}.{ty}", space.word()));
        data.args.push(addr);
        data.offset = offset;
        self.emit(data, ty.reg())
    }

    /// Stores `value`, of type `ty`, at `address + offset` in `space`.
    pub fn store(&mut self, space: Space, ty: Type, address: Value, offset: i32, value: Value) {
        if ty == Type::Pred {
            self.failure_note("memory holds no predicates (store a u8)");
            return;
        }
        let (Some(addr), Some(v)) = (self.operand(address, space.address(), "the address"), self.operand(value, ty.reg(), "the value stored")) else {
            return;
        };
        let mut data = self.data(&format!("st.{}.{ty}", space.word()));
        data.args.extend([addr, v]);
        data.offset = offset;
        self.append(data, &[]);
    }

    /// Waits until every thread of the block has arrived (`bar.sync 0`).
    pub fn barrier(&mut self) {
        let zero = self.inner_guarded(|inner| inner.iconst(ir::Type::R32, 0));
        let mut data = self.data("bar.sync");
        data.args.push(zero);
        self.append(data, &[]);
    }

    // ---- control flow -------------------------------------------------

    /// A new block, empty and outside the layout until switched to.
    pub fn create_block(&mut self) -> Block {
        let block = self.inner.create_block();
        Block { owner: self.owner, block }
    }

    /// Adds a parameter of type `ty` to `block` (before any branch to it
    /// is built): the value the branches to it pass.
    pub fn block_param(&mut self, block: Block, ty: Type) -> Value {
        let Some(b) = self.block(block) else { return self.placeholder(ty.reg()) };
        if b == self.entry {
            return self.fail("the entry block has no block parameters (a device function's are its parameters)", ty.reg());
        }
        let v = self.inner.append_block_param(b, ty.reg());
        self.wrap(v)
    }

    /// Makes `block` the block instructions are appended to.
    pub fn switch_to_block(&mut self, block: Block) {
        if let Some(b) = self.block(block) {
            self.inner.switch_to_block(b);
        }
    }

    /// Continues at `to`, passing `args` to its block parameters.
    pub fn jump(&mut self, to: Block, args: &[Value]) {
        let (Some(to), Some(args)) = (self.target(to), self.values(args)) else { return };
        if self.writable() {
            self.inner.jump(to, &args);
        }
    }

    /// Continues at `then` where `cond` (a predicate) holds, else at
    /// `other`, passing each its arguments.
    pub fn branch(&mut self, cond: Value, then: Block, then_args: &[Value], other: Block, other_args: &[Value]) {
        let Some(c) = self.operand(cond, ir::Type::P, "the branch condition") else { return };
        let (Some(t), Some(o), Some(ta), Some(oa)) = (self.target(then), self.target(other), self.values(then_args), self.values(other_args)) else { return };
        if self.writable() {
            self.inner.brif(c, false, t, &ta, o, &oa);
        }
    }

    /// Ends the thread (a kernel's return).
    pub fn exit(&mut self) {
        if self.writable() {
            self.inner.exit();
        }
    }

    /// Returns from the function: from a device function with `values`
    /// (of its return types), from a kernel (no values) as
    /// [`FunctionBuilder::exit`].
    pub fn ret(&mut self, values: &[Value]) {
        if self.kind == ir::FunctionKind::Kernel {
            if !values.is_empty() {
                self.failure_note("a kernel returns no values");
                return;
            }
            return self.exit();
        }
        let returns = self.inner.func.returns.clone();
        if values.len() != returns.len() {
            self.failure_note(&format!("{} values returned, the function returns {}", values.len(), returns.len()));
            return;
        }
        let mut vals = Vec::with_capacity(values.len());
        for (&v, ty) in values.iter().zip(returns) {
            let Some(v) = self.operand(v, ty, "a returned value") else { return };
            vals.push(v);
        }
        if self.writable() {
            self.inner.ret(&vals);
        }
    }

    /// Calls a device function of the module (added before this
    /// function) with `args`; returns its results.
    pub fn call(&mut self, callee: FuncRef, args: &[Value]) -> Vec<Value> {
        let Some(f) = (callee.module == self.module_owner).then(|| self.module.functions.get(callee.id)).flatten() else {
            self.failure_note("a function of another module");
            return Vec::new();
        };
        if f.kind != Some(ir::FunctionKind::Device) {
            self.failure_note(&format!("'{}' is a kernel; only device functions are called", f.name));
            return Vec::new();
        }
        let params: Vec<ir::Type> = f.entry().map(|e| f.blocks[e].params.iter().map(|&p| f.value_type(p)).collect()).unwrap_or_default();
        let returns = f.returns.clone();
        let name = f.name.clone();
        if params.len() != args.len() {
            self.failure_note(&format!("'{name}' takes {} arguments, {} given", params.len(), args.len()));
            return returns.iter().map(|&t| self.placeholder(t)).collect();
        }
        let mut data = self.data("call");
        data.imm = callee.id.index() as u64;
        for (&a, ty) in args.iter().zip(params) {
            let Some(v) = self.operand(a, ty, "an argument") else { return returns.iter().map(|&t| self.placeholder(t)).collect() };
            data.args.push(v);
        }
        match self.append(data, &returns) {
            Some(inst) => {
                let results: Vec<ir::Value> = self.inner.func.insts[inst].results.to_vec();
                results.into_iter().map(|v| self.wrap(v)).collect()
            }
            None => returns.iter().map(|&t| self.placeholder(t)).collect(),
        }
    }

    // ---- variables ----------------------------------------------------

    /// Declares a mutable variable of type `ty`; reading it before any
    /// write reads zero.
    pub fn declare_var(&mut self, ty: Type) -> Var {
        Var { owner: self.owner, var: self.inner.declare_var(ty.reg()) }
    }

    /// Writes `value` to `var` at the current point.
    pub fn set_var(&mut self, var: Var, value: Value) {
        let Some(var) = self.var(var) else { return };
        let ty = self.inner.var_type(var);
        if let Some(v) = self.operand(value, ty, "the value of the variable") {
            self.inner.def_var(var, v);
        }
    }

    /// The value of `var` at the current point.
    pub fn get_var(&mut self, var: Var) -> Value {
        let Some(var) = self.var(var) else { return self.placeholder(ir::Type::R32) };
        let v = self.inner.use_var(var);
        self.wrap(v)
    }

    // ---- source positions ---------------------------------------------

    /// The position in the front end's source (1-based line and column)
    /// given to the instructions built from now on: errors about them
    /// point there.
    pub fn set_location(&mut self, line: u32, column: u32) {
        self.loc = ir::SrcLoc { line, col: column, ..ir::SrcLoc::default() };
        self.inner.set_srcloc(self.loc);
    }

    // ---- plumbing -----------------------------------------------------

    /// Records the first misuse (with where it happened).
    fn failure_note(&mut self, message: &str) {
        if self.failure.is_none() {
            self.failure = Some((message.to_string(), self.loc));
        }
    }

    /// Records a misuse and returns a placeholder of class `ty`.
    fn fail(&mut self, message: impl Into<String>, ty: ir::Type) -> Value {
        self.failure_note(&message.into());
        self.placeholder(ty)
    }

    /// A value of class `ty` that stands in for a result not built
    /// (after a misuse, which fails the function anyway).
    fn placeholder(&mut self, ty: ir::Type) -> Value {
        let v = self.inner_guarded(|inner| inner.iconst(ty, 0));
        self.wrap(v)
    }

    /// Runs `f` on the IR builder where it may append: in a block not
    /// yet ended by a branch, else in a fresh block (the misuse is
    /// recorded by the caller or here).
    fn inner_guarded(&mut self, f: impl FnOnce(&mut ir::FunctionBuilder<'_>) -> ir::Value) -> ir::Value {
        if self.inner.is_filled() {
            self.failure_note("an instruction after the block's branch or return (switch to another block first)");
            let spare = self.inner.create_block();
            self.inner.switch_to_block(spare);
        }
        f(&mut self.inner)
    }

    /// Whether an instruction may be appended (else the misuse is noted).
    fn writable(&mut self) -> bool {
        if self.inner.is_filled() {
            self.failure_note("an instruction after the block's branch or return (switch to another block first)");
            return false;
        }
        true
    }

    fn wrap(&self, value: ir::Value) -> Value {
        Value { owner: self.owner, value }
    }

    /// The IR value of a handle of this function, checked to be of class
    /// `ty`; `None` (and a noted misuse) otherwise.
    fn operand(&mut self, v: Value, ty: ir::Type, what: &str) -> Option<ir::Value> {
        if v.owner != self.owner || !self.inner.func.values.is_valid(v.value) {
            self.failure_note(&format!("{what} is a value of another function"));
            return None;
        }
        let have = self.inner.func.value_type(v.value);
        if have != ty {
            self.failure_note(&format!("{what} is a {have} value where a {ty} value is needed"));
            return None;
        }
        Some(v.value)
    }

    fn values(&mut self, vs: &[Value]) -> Option<Vec<ir::Value>> {
        let mut out = Vec::with_capacity(vs.len());
        for &v in vs {
            if v.owner != self.owner || !self.inner.func.values.is_valid(v.value) {
                self.failure_note("a branch argument is a value of another function");
                return None;
            }
            out.push(v.value);
        }
        Some(out)
    }

    fn block(&mut self, b: Block) -> Option<ir::Block> {
        if b.owner != self.owner || !self.inner.func.blocks.is_valid(b.block) {
            self.failure_note("a block of another function");
            return None;
        }
        Some(b.block)
    }

    /// A branch destination: a block of this function other than the entry.
    fn target(&mut self, b: Block) -> Option<ir::Block> {
        let block = self.block(b)?;
        if block == self.entry {
            self.failure_note("a branch to the entry block (start a loop in a block of its own)");
            return None;
        }
        Some(block)
    }

    fn var(&mut self, v: Var) -> Option<ir::Variable> {
        if v.owner != self.owner {
            self.failure_note("a variable of another function");
            return None;
        }
        Some(v.var)
    }

    /// An instruction of mnemonic `name` (`add.s32`, `ld.global.f32`) as
    /// the IR's text form spells it: the opcode, then attribute words.
    fn data(&mut self, name: &str) -> ir::InstData {
        match mnemonic(name) {
            Some((opcode, attrs)) => ir::InstData::new(opcode, attrs),
            None => {
                self.failure_note(&format!("ptx2sass has no operation '{name}'"));
                ir::InstData::new(Opcode::Iconst, ir::Attrs::default())
            }
        }
    }

    /// An operation of mnemonic `name` on checked operands, with one
    /// result of class `result`.
    fn op(&mut self, name: &str, operands: &[(Value, ir::Type)], result: ir::Type) -> Value {
        let mut data = self.data(name);
        for (n, &(v, ty)) in operands.iter().enumerate() {
            let what = format!("operand {} of {name}", n + 1);
            let Some(v) = self.operand(v, ty, &what) else { return self.placeholder(result) };
            data.args.push(v);
        }
        self.emit(data, result)
    }

    /// Appends `data` with one result of class `ty` and returns it.
    fn emit(&mut self, data: ir::InstData, ty: ir::Type) -> Value {
        match self.append(data, &[ty]) {
            Some(inst) => {
                let v = self.inner.func.insts[inst].results[0];
                self.wrap(v)
            }
            None => self.placeholder(ty),
        }
    }

    /// Appends `data` with results of classes `types`, if the current
    /// block can take an instruction.
    fn append(&mut self, data: ir::InstData, types: &[ir::Type]) -> Option<ir::Inst> {
        if !self.writable() {
            return None;
        }
        Some(self.inner.ins(data, types))
    }
}

/// The opcode and attributes of an IR mnemonic: the longest opcode name
/// of its first one or two dotted words, then attribute words (as the
/// IR's text parser reads them).
fn mnemonic(name: &str) -> Option<(Opcode, ir::Attrs)> {
    let dots: Vec<usize> = name.match_indices('.').take(2).map(|(k, _)| k).collect();
    let two = dots.get(1).map_or(name, |&k| &name[..k]);
    let one = dots.first().map_or(name, |&k| &name[..k]);
    let (opcode, len) = match Opcode::from_name(two).filter(|_| !dots.is_empty()) {
        Some(op) => (op, two.len()),
        None => (Opcode::from_name(one)?, one.len()),
    };
    let mut attrs = ir::Attrs::default();
    if let Some(words) = name[len..].strip_prefix('.') {
        for w in words.split('.') {
            if !attrs.apply_word(w, opcode.takes_mul_mode()) {
                return None;
            }
        }
    }
    Some((opcode, attrs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mnemonic_the_builder_forms_is_an_operation() {
        let types = [Type::B32, Type::U32, Type::S32, Type::U64, Type::S64, Type::F32, Type::F64, Type::U8, Type::S16];
        for t in types {
            for name in [format!("add.{t}"), format!("ld.global.{t}"), format!("st.shared.{t}"), format!("setp.lt.{t}"), format!("selp.{t}")] {
                assert!(mnemonic(&name).is_some(), "{name}");
            }
        }
        for name in ["mul.lo.s32", "mul.wide.u32", "mad.wide.u32", "cvta.to.global.u64", "cvt.rzi.s32.f32", "bar.sync", "sreg.tid_x", "symaddr.shared", "call"] {
            assert!(mnemonic(name).is_some(), "{name}");
        }
        assert!(mnemonic("frobnicate.u32").is_none());
        assert!(mnemonic("add.u32.u32.u32").is_none());
    }
}
