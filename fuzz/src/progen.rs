//! A generator of valid, terminating PTX kernels with a launch spec, driven
//! by fuzzer bytes ([`arbitrary::Unstructured`]), for the `compile`,
//! `differential` and `accept_reject` targets and the `fuzzgen` driver.
//!
//! The approach follows Cranelift's `cranelift-fuzzgen` (read, not copied):
//! typed variable pools that every instruction reads from and writes to,
//! a table of instruction shapes picked by the bytes, operations that could
//! trap or be undefined guarded by construction (divisors forced non-zero
//! and positive, addresses masked into their buffers), and running out of
//! bytes meaning "the smallest choice" so every input gives a program.
//!
//! # The program
//!
//! One kernel `k(in, out, n)`. Every thread loads its pools (`%h` .b16,
//! `%r` .b32, `%rd` .b64, `%f` .f32, `%fd` .f64, `%p` .pred) from its own
//! 64 bytes of `in`, runs the generated statements, and stores every pool
//! register into its own slot of `out`. Addresses never come from pool
//! registers directly: they are masked into `in`, the thread's scratch part
//! of its slot, the `.local` array or the `.shared` area, so every access is
//! in bounds whatever the values. Loops count down a counter no other
//! statement writes (at most [`MAX_TRIPS`] trips); recursion goes down a
//! masked depth. Barriers and warp-wide operations (`shfl.sync`,
//! `vote.sync`, `match.sync`, `redux.sync`) appear only where the whole
//! CTA is converged (top level or inside a loop with a uniform trip count),
//! so their results are defined; `activemask` does not appear (which lanes
//! are active after divergent code is the implementation's choice). Atomics are one operation per counter
//! area and program (so they commute) on counters whose returned old
//! values are never read, so the final memory does not depend on thread
//! order.
//!
//! # Exactness
//!
//! Every float operation carries an explicit IEEE rounding mode (`.rn`,
//! `.rz`, `.rm`, `.rp`), which PTX defines exactly and which forbids ptxas
//! from contracting a `mul` and an `add` into an FMA; no `.approx`
//! operation is generated. So ptxas's cubin and ours must agree bit for
//! bit, and the PTX interpreter with both.

use arbitrary::{Result, Unstructured};
use ptx2sass::internals::interp::launch::{Fill, LaunchSpec, ParamSpec, ScalarKind};
use std::fmt::Write;

/// Registers per pool (see the module docs).
const POOL_H: usize = 6;
const POOL_R: usize = 10;
const POOL_RD: usize = 6;
const POOL_F: usize = 6;
const POOL_FD: usize = 4;
const POOL_P: usize = 4;

/// Bytes of `in` each thread loads its pools from.
const IN_BYTES_PER_THREAD: u32 = 64;
/// Scratch bytes per thread in its `out` slot (global stores and loads).
const SCRATCH: u32 = 32;
/// 32-bit `.local` array elements (a power of two: indices are masked).
const LOCAL_WORDS: u32 = 16;
/// 32-bit shared atomic counters per CTA, and 64-bit global ones.
const SHARED_COUNTERS: u32 = 8;
const GLOBAL_COUNTERS32: u32 = 8;
const GLOBAL_COUNTERS64: u32 = 4;
/// Comment lines around the kernel's generated statements: what a
/// minimizer may delete (before: defining every register; after: storing
/// them).
pub const BODY_START: &str = "\t// generated statements\n";
pub const BODY_END: &str = "\t// results\n";
/// The most trips a generated loop makes.
pub const MAX_TRIPS: u32 = 4;

/// Layout of one thread's `out` slot: pools in order, then predicates as
/// bytes, then scratch.
struct Slot {
    h: u32,
    r: u32,
    rd: u32,
    f: u32,
    fd: u32,
    p: u32,
    scratch: u32,
    size: u32,
}

const fn slot() -> Slot {
    let rd = 0;
    let fd = rd + 8 * POOL_RD as u32;
    let r = fd + 8 * POOL_FD as u32;
    let f = r + 4 * POOL_R as u32;
    let h = f + 4 * POOL_F as u32;
    let p = h + 2 * POOL_H as u32;
    let scratch = (p + POOL_P as u32).next_multiple_of(8);
    Slot { h, r, rd, f, fd, p, scratch, size: scratch + SCRATCH }
}
const SLOT: Slot = slot();

/// Whether two `out` buffers of a program launched on `threads` threads
/// (in all) are equal except where both hold a NaN in a float pool's slot
/// (`%fd` as f64, `%f` as f32, `%h` as f16) with different payloads or
/// signs: PTX leaves those unspecified (`neg`, `abs`, `cvt` of a NaN), so
/// the PTX interpreter's NaN need not be the hardware's.
pub fn equal_up_to_nan(a: &[u8], b: &[u8], threads: u32) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let slots = (threads * SLOT.size) as usize;
    let nan = |x: &[u8]| match x.len() {
        8 => f64::from_le_bytes(x.try_into().unwrap_or([0; 8])).is_nan(),
        4 => f32::from_le_bytes(x.try_into().unwrap_or([0; 4])).is_nan(),
        _ => {
            let h = u16::from_le_bytes(x.try_into().unwrap_or([0; 2]));
            h & 0x7c00 == 0x7c00 && h & 0x03ff != 0
        }
    };
    // The scratch part takes stores of every type at any aligned offset
    // (`st.global.f64 [%td0+160]` beside `st.global.f32 [%td0+164]`), so
    // an 8-byte chunk there is equal if it is, or holds NaNs on both sides
    // read at some float width: an integer store is exact on both sides, so
    // only a float's NaN differs between correct programs.
    fn scratch_equal(x: &[u8], y: &[u8], nan: &dyn Fn(&[u8]) -> bool) -> bool {
        x == y || (x.len() > 1 && nan(x) && nan(y)) || (x.len() > 2 && x.chunks(x.len() / 2).zip(y.chunks(y.len() / 2)).all(|(x, y)| scratch_equal(x, y, nan)))
    }
    let mut i = 0;
    while i < a.len() {
        let in_slot = (i % SLOT.size as usize) as u32;
        if i < slots && in_slot >= SLOT.scratch && i + 8 <= a.len() {
            if !scratch_equal(&a[i..i + 8], &b[i..i + 8], &nan) {
                return false;
            }
            i += 8;
            continue;
        }
        let width = match in_slot {
            o if i < slots && o >= SLOT.fd && o < SLOT.r => 8,
            o if i < slots && o >= SLOT.f && o < SLOT.h => 4,
            o if i < slots && o >= SLOT.h && o < SLOT.p => 2,
            _ => 1,
        };
        let (x, y) = (&a[i..i + width], &b[i..i + width]);
        if x != y && !(width > 1 && nan(x) && nan(y)) {
            return false;
        }
        i += width;
    }
    true
}

/// A register pool (one PTX register type).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pool {
    H,
    R,
    Rd,
    F,
    Fd,
    P,
}

impl Pool {
    fn prefix(self) -> &'static str {
        match self {
            Pool::H => "%h",
            Pool::R => "%r",
            Pool::Rd => "%rd",
            Pool::F => "%f",
            Pool::Fd => "%fd",
            Pool::P => "%p",
        }
    }
    fn len(self) -> usize {
        match self {
            Pool::H => POOL_H,
            Pool::R => POOL_R,
            Pool::Rd => POOL_RD,
            Pool::F => POOL_F,
            Pool::Fd => POOL_FD,
            Pool::P => POOL_P,
        }
    }
    fn int(bits: u32) -> Pool {
        match bits {
            8 | 16 => Pool::H,
            32 => Pool::R,
            _ => Pool::Rd,
        }
    }
}

/// Where generated statements are: what they may use.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    /// Nesting depth of control flow (bounded by `Config::max_depth`).
    depth: u32,
    /// Every thread of the CTA executes this point together.
    uniform: bool,
    /// Inside a `.func` body: no pool of the kernel beyond `%r`/`%p`, no
    /// memory, no barriers, no warp operations, no calls.
    func: bool,
    /// Loop nesting (each level has its own counter register).
    loops: u32,
}

/// Knobs of one generated program.
#[derive(Clone, Debug)]
pub struct Config {
    /// Target SM (`sm_XX`): what instructions are legal.
    pub sm: u32,
    /// Most statements in one block of straight-line code.
    pub max_stmts: u32,
    /// Most nested control-flow constructs.
    pub max_depth: u32,
}

/// A generated program and how to run it.
#[derive(Clone, Debug)]
pub struct Program {
    /// PTX text.
    pub ptx: String,
    /// Target SM.
    pub sm: u32,
    /// The launch (kernel `k`, input buffer, output buffer, one scalar).
    pub spec: LaunchSpec,
}

/// The SMs generated programs are spread over.
pub const SMS: [u32; 8] = [75, 80, 86, 89, 90, 100, 103, 120];

/// Builds a program from fuzzer bytes: the first byte picks the SM from
/// [`SMS`], the rest drives the generator.
pub fn program(u: &mut Unstructured) -> Result<Program> {
    let sm = *u.choose(&SMS)?;
    generate(u, &Config { sm, max_stmts: 12, max_depth: 3 })
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    cfg: &'a Config,
    out: String,
    labels: u32,
    /// Statements left in the whole program (keeps programs small).
    budget: u32,
    /// Defined device functions: plain ones take two .b32 and return one.
    funcs: u32,
    /// Whether the recursive function was generated.
    recursive: bool,
    threads: u32,
    /// The one atomic operation (and type) of each counter area, once
    /// chosen: shared, global 32-bit, global 64-bit (see [`Gen::atomic`]).
    atomic_ops: [Option<(&'static str, &'static str)>; 3],
}

/// Generates one program for `cfg`.
pub fn generate(u: &mut Unstructured, cfg: &Config) -> Result<Program> {
    let block = *u.choose(&[32u32, 64, 128])?;
    let grid = *u.choose(&[1u32, 2])?;
    let mut g = Gen { u, cfg, out: String::new(), labels: 0, budget: 80, funcs: 0, recursive: false, threads: block, atomic_ops: [None; 3] };
    // The first PTX ISA versions that know sm_100 (8.6), sm_120 (8.7) and
    // sm_103 (8.8).
    let version = if cfg.sm >= 100 { "8.8" } else { "8.0" };
    writeln!(g.out, ".version {version}\n.target sm_{}\n.address_size 64\n", cfg.sm).ok();
    let nfuncs = g.u.int_in_range(0..=2)?;
    for i in 0..nfuncs {
        g.func(i)?;
    }
    if g.u.ratio(1, 3)? {
        g.recursive_func();
    }
    g.kernel(block)?;
    let threads_total = block * grid;
    let in_bytes = threads_total * IN_BYTES_PER_THREAD;
    let out_bytes = threads_total * SLOT.size + grid * SHARED_COUNTERS * 4 + GLOBAL_COUNTERS32 * 4 + GLOBAL_COUNTERS64 * 8;
    let seed = g.u.arbitrary::<u64>()?;
    let n = g.u.arbitrary::<u32>()?;
    let spec = LaunchSpec {
        kernel: "k".into(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        shared_bytes: 0,
        params: vec![
            ParamSpec::Buffer { bytes: in_bytes as usize, fill: Fill::Random { seed }, output: false },
            ParamSpec::Buffer { bytes: out_bytes as usize, fill: Fill::Random { seed: seed ^ 0x5eed }, output: true },
            ParamSpec::Scalar { kind: ScalarKind::U32, bits: u64::from(n) },
        ],
        textures: Vec::new(),
    };
    Ok(Program { ptx: g.out, sm: cfg.sm, spec })
}

const INT_BITS: [u32; 3] = [16, 32, 64];
const RND: [&str; 4] = [".rn", ".rz", ".rm", ".rp"];
const IRND: [&str; 4] = [".rni", ".rzi", ".rmi", ".rpi"];

impl Gen<'_, '_> {
    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push('\t');
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn label(&mut self, stem: &str) -> String {
        self.labels += 1;
        format!("${stem}_{}", self.labels)
    }

    fn reg(&mut self, pool: Pool, ctx: Ctx) -> Result<String> {
        let n = if ctx.func { pool.len().min(4) } else { pool.len() };
        let i = self.u.choose_index(n)?;
        Ok(format!("{}{}", pool.prefix(), i))
    }

    /// A predicate register other than `p`.
    fn other_pred(&mut self, p: &str, ctx: Ctx) -> Result<String> {
        let q = self.reg(Pool::P, ctx)?;
        if q != p {
            return Ok(q);
        }
        let n = if ctx.func { Pool::P.len().min(4) } else { Pool::P.len() };
        let i: usize = p.trim_start_matches("%p").parse().unwrap_or(0);
        Ok(format!("%p{}", (i + 1) % n))
    }

    /// A source operand: a register, sometimes an immediate.
    fn src(&mut self, pool: Pool, ctx: Ctx, signed: bool) -> Result<String> {
        if pool != Pool::P && self.u.ratio(1, 6)? {
            return self.imm(pool, signed);
        }
        self.reg(pool, ctx)
    }

    fn imm(&mut self, pool: Pool, signed: bool) -> Result<String> {
        Ok(match pool {
            Pool::H => {
                let v: u16 = self.u.arbitrary()?;
                if signed { format!("{}", v as i16) } else { format!("{v}") }
            }
            Pool::R => {
                let v: u32 = *self.u.choose(&[0, 1, 2, 31, 32, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xff, 0x1234_5678])?;
                if signed { format!("{}", v as i32) } else { format!("{v}") }
            }
            Pool::Rd => {
                let v: u64 = *self.u.choose(&[0, 1, 63, 64, 0xffff_ffff, 0x1_0000_0000, 0x8000_0000_0000_0000, u64::MAX])?;
                if signed { format!("{}", v as i64) } else { format!("{v}") }
            }
            // Float immediates as exact bit patterns (0f / 0d forms).
            Pool::F => format!("0f{:08X}", self.u.choose(&[0u32, 0x3f80_0000, 0xbf80_0000, 0x4049_0fdb, 0x7f80_0000, 0x0000_0001, 0x7fc0_0000, 0x3400_0000])?),
            Pool::Fd => format!("0d{:016X}", self.u.choose(&[0u64, 0x3ff0_0000_0000_0000, 0xc000_0000_0000_0000, 0x7ff0_0000_0000_0000, 1, 0x3fb9_9999_9999_999a])?),
            Pool::P => "1".into(),
        })
    }

    // ---------------------------------------------------------------
    // Functions

    /// A plain device function `fI(a, b) -> r` of straight-line code and
    /// branches over `%r`/`%p`.
    fn func(&mut self, i: u32) -> Result<()> {
        writeln!(self.out, ".func (.reg .b32 %ret) f{i}(.reg .b32 %a0, .reg .b32 %a1)\n{{").ok();
        self.declare_pools(true);
        for k in 0..4 {
            let op = ["xor.b32", "add.u32", "mul.lo.u32", "sub.u32"][k];
            self.line(format!("{op} %r{k}, %a{}, %a{};", k % 2, (k + 1) % 2));
        }
        for k in 0..POOL_P.min(4) {
            self.line(format!("setp.lt.u32 %p{k}, %r{k}, %r{};", (k + 1) % 4));
        }
        let ctx = Ctx { depth: 1, uniform: false, func: true, loops: 0 };
        let n = self.u.int_in_range(1..=6)?;
        self.block(ctx, n)?;
        self.line("xor.b32 %ret, %r0, %r1;");
        self.line("add.u32 %ret, %ret, %r2;");
        self.line("ret;");
        self.out.push_str("}\n\n");
        self.funcs = i + 1;
        Ok(())
    }

    /// `rec(n, x)`: recurses `n` times (callers mask `n` to at most 7).
    fn recursive_func(&mut self) {
        self.out.push_str(
            ".func (.reg .b32 %ret) rec(.reg .b32 %n, .reg .b32 %x)\n{\n\
             \t.reg .pred %q;\n\t.reg .b32 %m, %y, %s;\n\
             \tsetp.eq.u32 %q, %n, 0;\n\t@%q bra $rec_done;\n\
             \tsub.u32 %m, %n, 1;\n\tmad.lo.u32 %y, %x, 3, %n;\n\
             \tcall (%s), rec, (%m, %y);\n\
             \txor.b32 %ret, %s, %n;\n\tshf.l.wrap.b32 %ret, %ret, %ret, %n;\n\tret;\n\
             $rec_done:\n\tmov.b32 %ret, %x;\n\tret;\n}\n\n",
        );
        self.recursive = true;
    }

    fn declare_pools(&mut self, func: bool) {
        let take = |n: usize| if func { n.min(4) } else { n };
        for (pool, ty) in [(Pool::H, ".b16"), (Pool::R, ".b32"), (Pool::Rd, ".b64"), (Pool::F, ".f32"), (Pool::Fd, ".f64"), (Pool::P, ".pred")] {
            writeln!(self.out, "\t.reg {ty} {}<{}>;", pool.prefix(), take(pool.len())).ok();
        }
        // Temporaries the statement generators use within one statement,
        // loop counters (one per nesting level) and branch predicates.
        self.out.push_str("\t.reg .b16 %th<2>;\n\t.reg .b32 %t<4>;\n\t.reg .b64 %td<4>;\n\t.reg .pred %tp<2>;\n");
        self.out.push_str("\t.reg .b32 %lc<4>;\n\t.reg .pred %lp<8>;\n\t.reg .b32 %dead32;\n\t.reg .b64 %dead64;\n");
        if func {
            // A function's f16/f32/f64 pools start from its arguments.
            self.out.push_str("\tcvt.u16.u32 %h0, %a0;\n\tcvt.u16.u32 %h1, %a1;\n\tcvt.u64.u32 %rd0, %a0;\n\tmul.wide.u32 %rd1, %a0, %a1;\n");
            self.out.push_str("\tmov.b32 %f0, %a0;\n\tcvt.rn.f32.s32 %f1, %a1;\n\tcvt.rn.f64.u32 %fd0, %a0;\n\tmov.b64 %fd1, %rd1;\n");
            for (p, n) in [("%h", 2), ("%rd", 2), ("%f", 2), ("%fd", 2)] {
                for k in n..4 {
                    let ty = match p {
                        "%h" => "b16",
                        "%f" => "f32",
                        "%fd" => "f64",
                        _ => "b64",
                    };
                    writeln!(self.out, "\tmov.{ty} {p}{k}, {p}{};", k % 2).ok();
                }
            }
        }
    }

    // ---------------------------------------------------------------
    // The kernel

    fn kernel(&mut self, block: u32) -> Result<()> {
        let shared_bytes = block * 8 + SHARED_COUNTERS * 4;
        writeln!(self.out, ".visible .entry k(.param .u64 k_in, .param .u64 k_out, .param .u32 k_n)\n{{").ok();
        writeln!(self.out, "\t.local .align 8 .b32 larr[{LOCAL_WORDS}];").ok();
        writeln!(self.out, "\t.shared .align 8 .b8 sh[{shared_bytes}];").ok();
        self.declare_pools(false);
        self.out.push_str("\t.reg .b64 %in, %out, %slot, %inthr, %sh;\n\t.reg .b32 %ltid, %gtid, %n, %lane;\n");
        self.line("ld.param.u64 %in, [k_in];");
        self.line("cvta.to.global.u64 %in, %in;");
        self.line("ld.param.u64 %out, [k_out];");
        self.line("cvta.to.global.u64 %out, %out;");
        self.line("ld.param.u32 %n, [k_n];");
        self.line("mov.u32 %ltid, %tid.x;");
        self.line("mov.u32 %t0, %ctaid.x;");
        self.line("mov.u32 %t1, %ntid.x;");
        self.line("mad.lo.u32 %gtid, %t0, %t1, %ltid;");
        self.line("mov.u32 %lane, %laneid;");
        self.line(format!("mul.wide.u32 %td0, %gtid, {};", SLOT.size));
        self.line("add.u64 %slot, %out, %td0;");
        self.line(format!("mul.wide.u32 %td0, %gtid, {IN_BYTES_PER_THREAD};"));
        self.line("add.u64 %inthr, %in, %td0;");
        self.line("mov.u64 %sh, sh;");
        // Pools from the thread's input bytes (float pools sometimes from
        // integers, so that they also hold ordinary finite values).
        for i in 0..POOL_RD {
            self.line(format!("ld.global.u64 %rd{i}, [%inthr+{}];", 8 * i));
        }
        for i in 0..POOL_R {
            self.line(format!("ld.global.u32 %r{i}, [%inthr+{}];", (4 * i + 8) % 64));
        }
        for i in 0..POOL_H {
            self.line(format!("ld.global.u16 %h{i}, [%inthr+{}];", (2 * i + 20) % 64));
        }
        for i in 0..POOL_F {
            match self.u.int_in_range(0..=2)? {
                0 => self.line(format!("ld.global.f32 %f{i}, [%inthr+{}];", (4 * i + 36) % 64)),
                1 => self.line(format!("cvt.rn.f32.s32 %f{i}, %r{i};")),
                _ => {
                    self.line(format!("cvt.s32.s8 %t0, %r{i};"));
                    self.line(format!("cvt.rn.f32.s32 %f{i}, %t0;"));
                    self.line(format!("mul.rn.f32 %f{i}, %f{i}, 0f3E800000;"));
                }
            }
        }
        for i in 0..POOL_FD {
            match self.u.int_in_range(0..=2)? {
                0 => self.line(format!("ld.global.f64 %fd{i}, [%inthr+{}];", (8 * i + 24) % 64)),
                1 => self.line(format!("cvt.rn.f64.s64 %fd{i}, %rd{i};")),
                _ => self.line(format!("cvt.f64.f32 %fd{i}, %f{i};")),
            }
        }
        for i in 0..POOL_P {
            self.line(format!("and.b32 %t0, %r{}, {};", i, 1 << i));
            self.line(format!("setp.ne.u32 %p{i}, %t0, 0;"));
        }
        // The local array and the shared counters start defined.
        for i in 0..LOCAL_WORDS {
            self.line(format!("st.local.u32 [larr+{}], %r{};", 4 * i, i as usize % POOL_R));
        }
        self.line("setp.eq.u32 %tp0, %ltid, 0;");
        for i in 0..SHARED_COUNTERS {
            self.line(format!("mov.u32 %t3, {};", if i % 4 == 3 { u32::MAX } else { 0 }));
            self.line(format!("@%tp0 st.shared.u32 [sh+{}], %t3;", block * 8 + 4 * i));
        }
        self.line("bar.sync 0;");
        self.out.push_str(BODY_START);
        let ctx = Ctx { depth: 0, uniform: true, func: false, loops: 0 };
        let n = self.u.int_in_range(1..=self.cfg.max_stmts * 2)?;
        self.block(ctx, n)?;
        self.out.push_str(BODY_END);
        // Every pool register to the thread's slot.
        for i in 0..POOL_RD {
            self.line(format!("st.global.u64 [%slot+{}], %rd{i};", SLOT.rd + 8 * i as u32));
        }
        for i in 0..POOL_FD {
            self.line(format!("st.global.f64 [%slot+{}], %fd{i};", SLOT.fd + 8 * i as u32));
        }
        for i in 0..POOL_R {
            self.line(format!("st.global.u32 [%slot+{}], %r{i};", SLOT.r + 4 * i as u32));
        }
        for i in 0..POOL_F {
            self.line(format!("st.global.f32 [%slot+{}], %f{i};", SLOT.f + 4 * i as u32));
        }
        for i in 0..POOL_H {
            self.line(format!("st.global.u16 [%slot+{}], %h{i};", SLOT.h + 2 * i as u32));
        }
        for i in 0..POOL_P {
            self.line(format!("selp.u16 %th0, 1, 0, %p{i};"));
            self.line(format!("st.global.u8 [%slot+{}], %th0;", SLOT.p + i as u32));
        }
        // The CTA's shared counters, by its first thread.
        self.line("bar.sync 0;");
        self.line("setp.eq.u32 %tp0, %ltid, 0;");
        self.line("mov.u32 %t0, %ctaid.x;");
        self.line(format!("mul.lo.u32 %t0, %t0, {};", SHARED_COUNTERS * 4));
        self.line("mov.u32 %t1, %nctaid.x;");
        self.line("mov.u32 %t2, %ntid.x;");
        self.line("mul.lo.u32 %t1, %t1, %t2;");
        self.line(format!("mad.lo.u32 %t0, %t1, {}, %t0;", SLOT.size));
        self.line("cvt.u64.u32 %td0, %t0;");
        self.line("add.u64 %td0, %out, %td0;");
        for i in 0..SHARED_COUNTERS {
            self.line(format!("@%tp0 ld.shared.u32 %t2, [sh+{}];", block * 8 + 4 * i));
            self.line(format!("@%tp0 st.global.u32 [%td0+{}], %t2;", 4 * i));
        }
        self.line("ret;");
        self.out.push_str("}\n");
        Ok(())
    }

    /// Address of the global counter area (after the slots and the
    /// per-CTA shared counter copies) into `%td1`.
    fn global_counters(&mut self) {
        self.line("mov.u32 %t3, %nctaid.x;");
        self.line("mov.u32 %t2, %ntid.x;");
        self.line("mul.lo.u32 %t2, %t3, %t2;");
        self.line(format!("mul.lo.u32 %t3, %t3, {};", SHARED_COUNTERS * 4));
        self.line(format!("mad.lo.u32 %t2, %t2, {}, %t3;", SLOT.size));
        self.line("cvt.u64.u32 %td1, %t2;");
        self.line("add.u64 %td1, %out, %td1;");
    }

    // ---------------------------------------------------------------
    // Statements

    fn block(&mut self, ctx: Ctx, n: u32) -> Result<()> {
        for _ in 0..n {
            if self.budget == 0 || self.u.is_empty() {
                break;
            }
            self.budget -= 1;
            self.stmt(ctx)?;
        }
        Ok(())
    }

    fn stmt(&mut self, ctx: Ctx) -> Result<()> {
        let can_nest = ctx.depth < self.cfg.max_depth;
        let choice = self.u.int_in_range(0..=99)?;
        match choice {
            0..=44 => {
                // A plain instruction, sometimes under a predicate guard.
                let guard = if self.u.ratio(1, 6)? { Some(self.guard(ctx)?) } else { None };
                let mut lines = Vec::new();
                self.op(ctx, &mut lines)?;
                if let (Some(g), Some(last)) = (guard, lines.last_mut()) {
                    *last = format!("{g} {last}");
                }
                for l in lines {
                    self.line(l);
                }
            }
            45..=51 if can_nest => self.if_else(ctx)?,
            52..=55 if can_nest && ctx.loops < 3 => self.loop_(ctx)?,
            56..=58 if can_nest => self.switch(ctx)?,
            59..=64 if !ctx.func => self.local(ctx)?,
            65..=70 if !ctx.func => self.global(ctx)?,
            71..=74 if !ctx.func && ctx.uniform => self.shared_exchange(ctx)?,
            75..=81 if !ctx.func && ctx.uniform => self.warp_op(ctx)?,
            82..=86 if !ctx.func => self.atomic(ctx)?,
            87..=92 if !ctx.func && (self.funcs > 0 || self.recursive) => self.call(ctx)?,
            _ => {
                let mut lines = Vec::new();
                self.op(ctx, &mut lines)?;
                for l in lines {
                    self.line(l);
                }
            }
        }
        Ok(())
    }

    fn guard(&mut self, ctx: Ctx) -> Result<String> {
        let p = self.reg(Pool::P, ctx)?;
        Ok(if self.u.ratio(1, 3)? { format!("@!{p}") } else { format!("@{p}") })
    }

    /// A condition into `%lp<depth>` from the pools (lane-dependent:
    /// the pools come from per-thread input).
    fn condition(&mut self, ctx: Ctx) -> Result<String> {
        let p = format!("%lp{}", ctx.depth.min(7));
        match self.u.int_in_range(0..=2)? {
            0 => {
                let a = self.reg(Pool::R, ctx)?;
                let b = self.src(Pool::R, ctx, false)?;
                let cmp = self.u.choose(&["lt.s32", "lo.u32", "ge.u32", "ne.b32", "gt.s32"])?;
                self.line(format!("setp.{cmp} {p}, {a}, {b};"));
            }
            1 => {
                let a = self.reg(Pool::P, ctx)?;
                self.line(format!("mov.pred {p}, {a};"));
            }
            _ => {
                let a = self.reg(Pool::F, ctx)?;
                let b = self.reg(Pool::F, ctx)?;
                let cmp = self.u.choose(&["lt", "geu", "num", "nan", "ne", "equ"])?;
                self.line(format!("setp.{cmp}.f32 {p}, {a}, {b};"));
            }
        }
        Ok(p)
    }

    fn nested(&self, ctx: Ctx, uniform: bool) -> Ctx {
        Ctx { depth: ctx.depth + 1, uniform: ctx.uniform && uniform, ..ctx }
    }

    fn if_else(&mut self, ctx: Ctx) -> Result<()> {
        let p = self.condition(ctx)?;
        let else_ = self.label("else");
        let end = self.label("endif");
        let inner = self.nested(ctx, false);
        self.line(format!("@!{p} bra {else_};"));
        let n = self.u.int_in_range(1..=self.cfg.max_stmts)?;
        self.block(inner, n)?;
        if self.u.ratio(2, 3)? {
            self.line(format!("bra {end};"));
            writeln!(self.out, "{else_}:").ok();
            let n = self.u.int_in_range(1..=self.cfg.max_stmts)?;
            self.block(inner, n)?;
            writeln!(self.out, "{end}:").ok();
        } else {
            writeln!(self.out, "{else_}:").ok();
        }
        Ok(())
    }

    /// A counted loop: 1..=MAX_TRIPS trips, from a pool value (divergent)
    /// or a constant (uniform).
    fn loop_(&mut self, ctx: Ctx) -> Result<()> {
        let c = format!("%lc{}", ctx.loops);
        let p = format!("%lp{}", ctx.depth.min(7));
        let uniform = self.u.ratio(1, 3)?;
        if uniform {
            let trips = self.u.int_in_range(1..=MAX_TRIPS)?;
            self.line(format!("mov.u32 {c}, {trips};"));
        } else {
            let r = self.reg(Pool::R, ctx)?;
            self.line(format!("and.b32 {c}, {r}, {};", MAX_TRIPS - 1));
            self.line(format!("add.u32 {c}, {c}, 1;"));
        }
        let top = self.label("loop");
        writeln!(self.out, "{top}:").ok();
        let inner = Ctx { loops: ctx.loops + 1, ..self.nested(ctx, uniform) };
        let n = self.u.int_in_range(1..=self.cfg.max_stmts)?;
        self.block(inner, n)?;
        self.line(format!("sub.u32 {c}, {c}, 1;"));
        self.line(format!("setp.ne.u32 {p}, {c}, 0;"));
        self.line(format!("@{p} bra {top};"));
        Ok(())
    }

    /// A switch-like chain of compare-and-branch on a masked value.
    fn switch(&mut self, ctx: Ctx) -> Result<()> {
        let cases = self.u.int_in_range(2..=4u32)?;
        let r = self.reg(Pool::R, ctx)?;
        let v = format!("%lc{}", ctx.loops);
        // The loop counter of this level is free here (loops use `loops`
        // levels below it), so it holds the selector.
        self.line(format!("and.b32 {v}, {r}, 3;"));
        let p = format!("%lp{}", ctx.depth.min(7));
        let end = self.label("swend");
        let labels: Vec<String> = (0..cases).map(|_| self.label("case")).collect();
        for (k, l) in labels.iter().enumerate() {
            self.line(format!("setp.eq.u32 {p}, {v}, {k};"));
            self.line(format!("@{p} bra {l};"));
        }
        let inner = self.nested(ctx, false);
        let n = self.u.int_in_range(1..=3)?;
        self.block(inner, n)?;
        self.line(format!("bra {end};"));
        for l in &labels {
            writeln!(self.out, "{l}:").ok();
            let n = self.u.int_in_range(1..=3)?;
            self.block(inner, n)?;
            self.line(format!("bra {end};"));
        }
        writeln!(self.out, "{end}:").ok();
        Ok(())
    }

    /// `.local` array store or load at a masked dynamic index.
    fn local(&mut self, ctx: Ctx) -> Result<()> {
        let r = self.reg(Pool::R, ctx)?;
        self.line(format!("and.b32 %t0, {r}, {};", LOCAL_WORDS - 1));
        self.line("mul.wide.u32 %td0, %t0, 4;");
        self.line("mov.u64 %td1, larr;");
        self.line("add.u64 %td0, %td1, %td0;");
        if self.u.ratio(1, 2)? {
            let v = self.reg(Pool::R, ctx)?;
            self.line(format!("st.local.u32 [%td0], {v};"));
        } else if self.u.ratio(1, 2)? {
            let d = self.reg(Pool::R, ctx)?;
            self.line(format!("ld.local.u32 {d}, [%td0];"));
        } else {
            let d = self.reg(Pool::H, ctx)?;
            let ty = self.u.choose(&["u8", "s8", "u16"])?;
            self.line(format!("ld.local.{ty} {d}, [%td0];"));
        }
        Ok(())
    }

    /// Loads from `in` at a masked index, and stores to and loads from the
    /// thread's scratch bytes.
    fn global(&mut self, ctx: Ctx) -> Result<()> {
        let (ty, pool, size) = *self.u.choose(&[
            ("u8", Pool::H, 1u32),
            ("s8", Pool::H, 1),
            ("u16", Pool::H, 2),
            ("s16", Pool::R, 2),
            ("u32", Pool::R, 4),
            ("f32", Pool::F, 4),
            ("u64", Pool::Rd, 8),
            ("f64", Pool::Fd, 8),
        ])?;
        let r = self.reg(Pool::R, ctx)?;
        match self.u.int_in_range(0..=2)? {
            0 => {
                // Anywhere in `in`: its size is threads * 64 bytes, a
                // power of two times 64.
                let in_bytes = self.threads * IN_BYTES_PER_THREAD;
                self.line(format!("and.b32 %t0, {r}, {};", (in_bytes - 1) & !(size - 1)));
                self.line("cvt.u64.u32 %td0, %t0;");
                self.line("add.u64 %td0, %in, %td0;");
                let d = self.reg(pool, ctx)?;
                let nc = if self.u.ratio(1, 4)? { ".nc" } else { "" };
                self.line(format!("ld.global{nc}.{ty} {d}, [%td0];"));
            }
            k => {
                self.line(format!("and.b32 %t0, {r}, {};", (SCRATCH - 1) & !(size - 1)));
                self.line("cvt.u64.u32 %td0, %t0;");
                self.line("add.u64 %td0, %slot, %td0;");
                let v = self.reg(pool, ctx)?;
                if k == 1 {
                    self.line(format!("st.global.{ty} [%td0+{}], {v};", SLOT.scratch));
                } else {
                    self.line(format!("ld.global.{ty} {v}, [%td0+{}];", SLOT.scratch));
                }
            }
        }
        Ok(())
    }

    /// Every thread writes a word to shared memory, the CTA synchronizes,
    /// every thread reads another thread's word.
    fn shared_exchange(&mut self, ctx: Ctx) -> Result<()> {
        let v = self.reg(Pool::Rd, ctx)?;
        let d = self.reg(Pool::Rd, ctx)?;
        let k = self.u.int_in_range(1..=self.threads - 1)?;
        self.line("mul.wide.u32 %td0, %ltid, 8;");
        self.line("add.u64 %td0, %sh, %td0;");
        self.line(format!("st.shared.u64 [%td0], {v};"));
        self.line("bar.sync 0;");
        let how = self.u.choose(&["xor", "add"])?;
        self.line(format!("{how}.b32 %t0, %ltid, {k};").replace("add.b32", "add.u32"));
        self.line(format!("and.b32 %t0, %t0, {};", self.threads - 1));
        self.line("mul.wide.u32 %td0, %t0, 8;");
        self.line("add.u64 %td0, %sh, %td0;");
        self.line(format!("ld.shared.u64 {d}, [%td0];"));
        self.line("bar.sync 0;");
        Ok(())
    }

    /// A warp-wide operation on the full mask (converged code only).
    fn warp_op(&mut self, ctx: Ctx) -> Result<()> {
        let full = "0xffffffff";
        let kinds = if self.cfg.sm >= 80 { 6 } else { 5 };
        match self.u.int_in_range(0..=kinds - 1)? {
            0 => {
                let mode = *self.u.choose(&["up", "down", "bfly", "idx"])?;
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                let b = if self.u.ratio(1, 2)? { format!("{}", self.u.int_in_range(0..=31u32)?) } else { self.reg(Pool::R, ctx)? };
                let c = if self.u.ratio(3, 4)? {
                    if mode == "up" { "0".to_string() } else { "31".to_string() }
                } else {
                    format!("{}", self.u.int_in_range(0..=0x1fffu32)?)
                };
                let dp = if self.u.ratio(1, 2)? { format!("|{}", self.reg(Pool::P, ctx)?) } else { String::new() };
                self.line(format!("shfl.sync.{mode}.b32 {d}{dp}, {a}, {b}, {c}, {full};"));
            }
            1 => {
                let q = self.reg(Pool::P, ctx)?;
                let neg = if self.u.ratio(1, 4)? { "!" } else { "" };
                match self.u.int_in_range(0..=3)? {
                    3 => {
                        let d = self.reg(Pool::R, ctx)?;
                        self.line(format!("vote.sync.ballot.b32 {d}, {neg}{q}, {full};"));
                    }
                    m => {
                        let p = self.reg(Pool::P, ctx)?;
                        self.line(format!("vote.sync.{}.pred {p}, {neg}{q}, {full};", ["any", "all", "uni"][m as usize]));
                    }
                }
            }
            2 => {
                // Not `activemask`: which lanes are active at a point after
                // divergent code is the implementation's choice (PTX
                // promises no reconvergence), so its value is not fixed;
                // a ballot over the full mask is.
                let d = self.reg(Pool::R, ctx)?;
                let q = self.reg(Pool::P, ctx)?;
                self.line(format!("vote.sync.ballot.b32 {d}, {q}, {full};"));
            }
            3 => {
                let wide = self.u.ratio(1, 2)?;
                let (ty, pool) = if wide { ("b64", Pool::Rd) } else { ("b32", Pool::R) };
                // Make equal values likely: match on a few low bits.
                let a = self.reg(pool, ctx)?;
                let tmp = if wide { "%td2" } else { "%t2" };
                self.line(format!("and.{ty} {tmp}, {a}, 3;"));
                let d = self.reg(Pool::R, ctx)?;
                if self.u.ratio(1, 2)? {
                    self.line(format!("match.sync.any.{ty} {d}, {tmp}, {full};"));
                } else {
                    let p = self.reg(Pool::P, ctx)?;
                    self.line(format!("match.sync.all.{ty} {d}|{p}, {tmp}, {full};"));
                }
            }
            4 => self.line(format!("bar.warp.sync {full};")),
            _ => {
                let op = *self.u.choose(&["add.u32", "min.u32", "max.u32", "min.s32", "max.s32", "and.b32", "or.b32", "xor.b32"])?;
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                self.line(format!("redux.sync.{op} {d}, {a}, {full};"));
            }
        }
        Ok(())
    }

    /// A commutative atomic on a shared or global counter, with the one
    /// operation its area has in this program; the old value goes to a
    /// register nobody reads.
    fn atomic(&mut self, ctx: Ctx) -> Result<()> {
        let idx = self.reg(Pool::R, ctx)?;
        let shared = self.u.ratio(1, 2)?;
        let wide = !shared && self.u.ratio(1, 3)?;
        // Each counter area takes one operation per program: two different
        // operations on one counter do not commute (an `add` then an `and`
        // differs from the `and` then the `add`; `inc` wraps at its bound),
        // so mixing them would make the final value depend on the order in
        // which warps and CTAs reach the counter, which PTX leaves open.
        let area = if shared { 0 } else if wide { 2 } else { 1 };
        let (op, ty) = match self.atomic_ops[area] {
            Some(chosen) => chosen,
            None => {
                let chosen = if wide {
                    *self.u.choose(&[("add", "u64"), ("min", "u64"), ("max", "s64"), ("and", "b64"), ("or", "b64"), ("xor", "b64")])?
                } else {
                    *self.u.choose(&[("add", "u32"), ("min", "u32"), ("max", "u32"), ("min", "s32"), ("max", "s32"), ("and", "b32"), ("or", "b32"), ("xor", "b32"), ("inc", "u32"), ("dec", "u32")])?
                };
                self.atomic_ops[area] = Some(chosen);
                chosen
            }
        };
        let v = if op == "inc" || op == "dec" { "17".to_string() } else { self.src(if wide { Pool::Rd } else { Pool::R }, ctx, false)? };
        let space;
        if shared {
            space = "shared";
            self.line(format!("and.b32 %t0, {idx}, {};", SHARED_COUNTERS - 1));
            self.line(format!("mad.lo.u32 %t0, %t0, 4, {};", self.threads * 8));
            self.line("cvt.u64.u32 %td0, %t0;");
            self.line("add.u64 %td0, %sh, %td0;");
        } else {
            space = "global";
            self.global_counters();
            if wide {
                self.line(format!("and.b32 %t0, {idx}, {};", GLOBAL_COUNTERS64 - 1));
                self.line(format!("mad.lo.u32 %t0, %t0, 8, {};", GLOBAL_COUNTERS32 * 4));
            } else {
                self.line(format!("and.b32 %t0, {idx}, {};", GLOBAL_COUNTERS32 - 1));
                self.line("shl.b32 %t0, %t0, 2;");
            }
            self.line("cvt.u64.u32 %td0, %t0;");
            self.line("add.u64 %td0, %td1, %td0;");
        }
        let dead = if wide { "%dead64" } else { "%dead32" };
        if self.u.ratio(1, 3)? && op != "inc" && op != "dec" {
            self.line(format!("red.{space}.{op}.{ty} [%td0], {v};"));
        } else {
            self.line(format!("atom.{space}.{op}.{ty} {dead}, [%td0], {v};"));
        }
        Ok(())
    }

    fn call(&mut self, ctx: Ctx) -> Result<()> {
        let d = self.reg(Pool::R, ctx)?;
        let a = self.reg(Pool::R, ctx)?;
        let b = self.reg(Pool::R, ctx)?;
        let uni = if ctx.uniform { ".uni" } else { "" };
        if self.recursive && (self.funcs == 0 || self.u.ratio(1, 2)?) {
            self.line(format!("and.b32 %t0, {a}, 7;"));
            self.line(format!("call{uni} ({d}), rec, (%t0, {b});"));
        } else {
            let f = self.u.int_in_range(0..=self.funcs - 1)?;
            self.line(format!("call{uni} ({d}), f{f}, ({a}, {b});"));
        }
        Ok(())
    }

    // ---------------------------------------------------------------
    // Single operations

    fn op(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        match self.u.int_in_range(0..=15)? {
            0..=2 => self.int_arith(ctx, out),
            3 => self.carry_chain(ctx, out),
            4 => self.mul_div(ctx, out),
            5 | 6 => self.bit_op(ctx, out),
            7 => self.f16_arith(ctx, out),
            8 | 9 => self.f32_arith(ctx, out),
            10 => self.f64_arith(ctx, out),
            11 => self.compare(ctx, out),
            12 | 13 => self.convert(ctx, out),
            14 => self.select(ctx, out),
            _ => self.moves(ctx, out),
        }
    }

    fn int_ty(&mut self) -> Result<(u32, bool)> {
        Ok((*self.u.choose(&INT_BITS)?, self.u.arbitrary()?))
    }

    fn int_arith(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let (bits, signed) = self.int_ty()?;
        let pool = Pool::int(bits);
        let ty = format!("{}{bits}", if signed { "s" } else { "u" });
        let d = self.reg(pool, ctx)?;
        let a = self.reg(pool, ctx)?;
        let b = self.src(pool, ctx, signed)?;
        match self.u.int_in_range(0..=7)? {
            0 => out.push(format!("add.{ty} {d}, {a}, {b};")),
            1 => out.push(format!("sub.{ty} {d}, {a}, {b};")),
            2 => out.push(format!("min.{ty} {d}, {a}, {b};")),
            3 => out.push(format!("max.{ty} {d}, {a}, {b};")),
            4 => {
                let op = if self.u.arbitrary()? { "abs" } else { "neg" };
                out.push(format!("{op}.s{bits} {d}, {a};"));
            }
            5 => {
                // Shifts: the amount is a .u32 operand; amounts past the
                // width are defined (clamped).
                let amt = if self.u.ratio(1, 2)? { format!("{}", self.u.int_in_range(0..=bits + 3)?) } else { self.reg(Pool::R, ctx)? };
                let op = *self.u.choose(&["shl.b", "shr.u", "shr.s"])?;
                out.push(format!("{op}{bits} {d}, {a}, {amt};"));
            }
            6 if bits == 32 => {
                let op = *self.u.choose(&["add", "sub"])?;
                out.push(format!("{op}.sat.s32 {d}, {a}, {b};"));
            }
            _ => {
                let c = self.src(pool, ctx, signed)?;
                out.push(format!("mad.lo.{ty} {d}, {a}, {b}, {c};"));
            }
        }
        Ok(())
    }

    /// add.cc/addc or sub.cc/subc chains over 32- or 64-bit limbs.
    fn carry_chain(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let wide = self.u.ratio(1, 3)?;
        let (pool, ty) = if wide { (Pool::Rd, "u64") } else { (Pool::R, "u32") };
        let len = self.u.int_in_range(2..=4)?;
        let sub = self.u.arbitrary::<bool>()?;
        for i in 0..len {
            let d = self.reg(pool, ctx)?;
            let a = self.reg(pool, ctx)?;
            let b = self.src(pool, ctx, false)?;
            let mixed = self.u.ratio(1, 4)?;
            let (first, cont) = if sub ^ mixed { ("sub.cc", "subc") } else { ("add.cc", "addc") };
            let op = match i {
                0 => first.to_string(),
                i if i + 1 == len => cont.to_string(),
                _ => format!("{cont}.cc"),
            };
            out.push(format!("{op}.{ty} {d}, {a}, {b};"));
        }
        Ok(())
    }

    fn mul_div(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let (bits, signed) = self.int_ty()?;
        let pool = Pool::int(bits);
        let ty = format!("{}{bits}", if signed { "s" } else { "u" });
        let a = self.reg(pool, ctx)?;
        let b = self.src(pool, ctx, signed)?;
        match self.u.int_in_range(0..=4)? {
            0 => {
                let d = self.reg(pool, ctx)?;
                let part = *self.u.choose(&["lo", "hi"])?;
                out.push(format!("mul.{part}.{ty} {d}, {a}, {b};"));
            }
            1 if bits < 64 => {
                let d = self.reg(Pool::int(bits * 2), ctx)?;
                if self.u.arbitrary()? {
                    out.push(format!("mul.wide.{ty} {d}, {a}, {b};"));
                } else {
                    let c = self.reg(Pool::int(bits * 2), ctx)?;
                    out.push(format!("mad.wide.{ty} {d}, {a}, {b}, {c};"));
                }
            }
            2 => {
                let d = self.reg(pool, ctx)?;
                let c = self.reg(pool, ctx)?;
                out.push(format!("mad.hi.{ty} {d}, {a}, {b}, {c};"));
            }
            _ => {
                // div/rem by a divisor forced into 1..=MAX (so neither zero
                // nor MIN / -1).
                let d = self.reg(pool, ctx)?;
                let b = self.reg(pool, ctx)?;
                let t = match bits {
                    16 => "%th0",
                    32 => "%t1",
                    _ => "%td2",
                };
                let max: u64 = (1u64 << (bits - 1)) - 1;
                out.push(format!("and.b{bits} {t}, {b}, {max};"));
                out.push(format!("or.b{bits} {t}, {t}, 1;"));
                let op = *self.u.choose(&["div", "rem"])?;
                out.push(format!("{op}.{ty} {d}, {a}, {t};"));
            }
        }
        Ok(())
    }

    fn bit_op(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let bits = *self.u.choose(&INT_BITS)?;
        let pool = Pool::int(bits);
        let d = self.reg(pool, ctx)?;
        let a = self.reg(pool, ctx)?;
        match self.u.int_in_range(0..=11)? {
            0 => {
                let op = *self.u.choose(&["and", "or", "xor"])?;
                let b = self.src(pool, ctx, false)?;
                out.push(format!("{op}.b{bits} {d}, {a}, {b};"));
            }
            1 => {
                let op = *self.u.choose(&["not", "cnot"])?;
                out.push(format!("{op}.b{bits} {d}, {a};"));
            }
            2 | 3 if bits != 16 => {
                let op = *self.u.choose(&["popc", "clz"])?;
                let d = self.reg(Pool::R, ctx)?;
                out.push(format!("{op}.b{bits} {d}, {a};"));
            }
            4 if bits != 16 => out.push(format!("brev.b{bits} {d}, {a};")),
            5 if bits != 16 => {
                let s = if self.u.arbitrary()? { "s" } else { "u" };
                let pos = self.field(ctx, bits, "%t2", out)?;
                let len = self.field(ctx, bits, "%t3", out)?;
                out.push(format!("bfe.{s}{bits} {d}, {a}, {pos}, {len};"));
            }
            6 if bits != 16 => {
                let b = self.reg(pool, ctx)?;
                let pos = self.field(ctx, bits, "%t2", out)?;
                let len = self.field(ctx, bits, "%t3", out)?;
                out.push(format!("bfi.b{bits} {d}, {a}, {b}, {pos}, {len};"));
            }
            7 => {
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                let b = self.reg(Pool::R, ctx)?;
                let c = self.src(Pool::R, ctx, false)?;
                let mode = *self.u.choose(&["", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"])?;
                out.push(format!("prmt.b32{mode} {d}, {a}, {b}, {c};"));
            }
            8 => {
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                let b = self.reg(Pool::R, ctx)?;
                let c = self.src(Pool::R, ctx, false)?;
                let dir = *self.u.choose(&["l", "r"])?;
                let mode = *self.u.choose(&["wrap", "clamp"])?;
                out.push(format!("shf.{dir}.{mode}.b32 {d}, {a}, {b}, {c};"));
            }
            9 => {
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                let b = self.src(Pool::R, ctx, false)?;
                let c = self.src(Pool::R, ctx, false)?;
                let lut: u8 = self.u.arbitrary()?;
                out.push(format!("lop3.b32 {d}, {a}, {b}, {c}, {lut};"));
            }
            10 => {
                // Predicate logic.
                let p = self.reg(Pool::P, ctx)?;
                let q = self.reg(Pool::P, ctx)?;
                let r = self.reg(Pool::P, ctx)?;
                match self.u.int_in_range(0..=2)? {
                    0 => out.push(format!("and.pred {p}, {q}, {r};")),
                    1 => out.push(format!("xor.pred {p}, {q}, {r};")),
                    _ => out.push(format!("not.pred {p}, {q};")),
                }
            }
            _ => {
                let b = self.src(pool, ctx, false)?;
                out.push(format!("xor.b{bits} {d}, {a}, {b};"));
            }
        }
        Ok(())
    }

    /// A bit-field position or length: an immediate (ptxas wants one in
    /// 0..=255) or a register masked into `tmp` with 255 first: PTX
    /// restricts bfe's and bfi's pos and len to 0..255, and ptxas's code
    /// for the 64-bit forms shifts by the whole register (a pos of 0x128
    /// inserts nothing where the low 8 bits say 40), so a larger value has
    /// no result PTX fixes.
    fn field(&mut self, ctx: Ctx, bits: u32, tmp: &str, out: &mut Vec<String>) -> Result<String> {
        if self.u.ratio(1, 2)? {
            return Ok(format!("{}", self.u.int_in_range(0..=bits + 2)?));
        }
        let r = self.reg(Pool::R, ctx)?;
        out.push(format!("and.b32 {tmp}, {r}, 255;"));
        Ok(tmp.to_string())
    }

    fn ftz(&mut self) -> Result<&'static str> {
        Ok(if self.u.ratio(1, 4)? { ".ftz" } else { "" })
    }

    fn sat(&mut self) -> Result<&'static str> {
        Ok(if self.u.ratio(1, 6)? { ".sat" } else { "" })
    }

    fn f16_arith(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let d = self.reg(Pool::H, ctx)?;
        let a = self.reg(Pool::H, ctx)?;
        let b = self.reg(Pool::H, ctx)?;
        let ftz = self.ftz()?;
        let sat = self.sat()?;
        match self.u.int_in_range(0..=5)? {
            0..=2 => {
                let op = *self.u.choose(&["add", "sub", "mul"])?;
                out.push(format!("{op}.rn{ftz}{sat}.f16 {d}, {a}, {b};"));
            }
            3 => {
                let c = self.reg(Pool::H, ctx)?;
                out.push(format!("fma.rn{ftz}{sat}.f16 {d}, {a}, {b}, {c};"));
            }
            4 => {
                let op = *self.u.choose(&["neg", "abs"])?;
                out.push(format!("{op}.f16 {d}, {a};"));
            }
            _ if self.cfg.sm >= 80 => {
                let op = *self.u.choose(&["min", "max"])?;
                let nan = if self.u.arbitrary()? { ".NaN" } else { "" };
                out.push(format!("{op}{nan}.f16 {d}, {a}, {b};"));
            }
            _ => out.push(format!("add.rn.f16 {d}, {a}, {b};")),
        }
        Ok(())
    }

    fn f32_arith(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let d = self.reg(Pool::F, ctx)?;
        let a = self.reg(Pool::F, ctx)?;
        let b = self.src(Pool::F, ctx, false)?;
        let rnd = *self.u.choose(&RND)?;
        let ftz = self.ftz()?;
        let sat = self.sat()?;
        match self.u.int_in_range(0..=9)? {
            0..=2 => {
                let op = *self.u.choose(&["add", "sub", "mul"])?;
                out.push(format!("{op}{rnd}{ftz}{sat}.f32 {d}, {a}, {b};"));
            }
            3 => {
                let c = self.src(Pool::F, ctx, false)?;
                out.push(format!("fma{rnd}{ftz}{sat}.f32 {d}, {a}, {b}, {c};"));
            }
            4 => out.push(format!("div{rnd}{ftz}.f32 {d}, {a}, {b};")),
            5 => {
                let op = *self.u.choose(&["sqrt", "rcp"])?;
                out.push(format!("{op}{rnd}{ftz}.f32 {d}, {a};"));
            }
            6 => {
                let op = *self.u.choose(&["abs", "neg"])?;
                out.push(format!("{op}{ftz}.f32 {d}, {a};"));
            }
            7 => {
                let op = *self.u.choose(&["min", "max"])?;
                let nan = if self.cfg.sm >= 80 && self.u.ratio(1, 3)? { ".NaN" } else { "" };
                out.push(format!("{op}{ftz}{nan}.f32 {d}, {a}, {b};"));
            }
            8 => {
                let p = self.reg(Pool::P, ctx)?;
                let class = *self.u.choose(&["finite", "infinite", "number", "notanumber", "normal", "subnormal"])?;
                out.push(format!("testp.{class}.f32 {p}, {a};"));
            }
            _ => {
                let b = self.reg(Pool::F, ctx)?;
                out.push(format!("copysign.f32 {d}, {a}, {b};"));
            }
        }
        Ok(())
    }

    fn f64_arith(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let d = self.reg(Pool::Fd, ctx)?;
        let a = self.reg(Pool::Fd, ctx)?;
        let b = self.src(Pool::Fd, ctx, false)?;
        let rnd = *self.u.choose(&RND)?;
        match self.u.int_in_range(0..=7)? {
            0..=2 => {
                let op = *self.u.choose(&["add", "sub", "mul"])?;
                out.push(format!("{op}{rnd}.f64 {d}, {a}, {b};"));
            }
            3 => {
                let c = self.src(Pool::Fd, ctx, false)?;
                out.push(format!("fma{rnd}.f64 {d}, {a}, {b}, {c};"));
            }
            4 => out.push(format!("div{rnd}.f64 {d}, {a}, {b};")),
            5 => {
                let op = *self.u.choose(&["sqrt", "rcp"])?;
                out.push(format!("{op}{rnd}.f64 {d}, {a};"));
            }
            6 => {
                let op = *self.u.choose(&["abs", "neg"])?;
                out.push(format!("{op}.f64 {d}, {a};"));
            }
            _ => {
                let op = *self.u.choose(&["min", "max"])?;
                out.push(format!("{op}.f64 {d}, {a}, {b};"));
            }
        }
        Ok(())
    }

    /// setp (every comparison, with and without a boolean combine, one or
    /// two destinations) and set.
    fn compare(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let (ty, pool, cmps): (&str, Pool, &[&str]) = *self.u.choose(&[
            ("s16", Pool::H, &["eq", "ne", "lt", "le", "gt", "ge"][..]),
            ("u16", Pool::H, &["eq", "ne", "lo", "ls", "hi", "hs"][..]),
            ("s32", Pool::R, &["eq", "ne", "lt", "le", "gt", "ge"][..]),
            ("u32", Pool::R, &["eq", "ne", "lo", "ls", "hi", "hs", "lt", "ge"][..]),
            ("b32", Pool::R, &["eq", "ne"][..]),
            ("s64", Pool::Rd, &["eq", "ne", "lt", "le", "gt", "ge"][..]),
            ("u64", Pool::Rd, &["eq", "ne", "lo", "ls", "hi", "hs"][..]),
            ("f32", Pool::F, &["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"][..]),
            ("f64", Pool::Fd, &["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"][..]),
            ("f16", Pool::H, &["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"][..]),
        ])?;
        let cmp = *self.u.choose(cmps)?;
        let a = self.reg(pool, ctx)?;
        let b = if ty == "f16" { self.reg(pool, ctx)? } else { self.src(pool, ctx, ty.starts_with('s'))? };
        let ftz = if ty == "f32" || ty == "f16" { self.ftz()? } else { "" };
        let bool_op = if self.u.ratio(1, 3)? {
            let op = *self.u.choose(&["and", "or", "xor"])?;
            let q = self.reg(Pool::P, ctx)?;
            let neg = if self.u.arbitrary()? { "!" } else { "" };
            Some((op, format!("{neg}{q}")))
        } else {
            None
        };
        if self.u.ratio(3, 4)? {
            let p = self.reg(Pool::P, ctx)?;
            // The second destination is another register: `setp p|p`
            // writes the comparison and its negation to one predicate,
            // and PTX does not say which write is last.
            let p2 = if ty != "f16" && self.u.ratio(1, 4)? { format!("|{}", self.other_pred(&p, ctx)?) } else { String::new() };
            match bool_op {
                Some((op, q)) => out.push(format!("setp.{cmp}.{op}{ftz}.{ty} {p}{p2}, {a}, {b}, {q};")),
                None => out.push(format!("setp.{cmp}{ftz}.{ty} {p}{p2}, {a}, {b};")),
            }
        } else {
            // An f16 comparison sets an integer only (ptxas refuses .f32.f16).
            let dtys: &[(&str, Pool)] = if ty == "f16" { &[("u32", Pool::R), ("s32", Pool::R)] } else { &[("u32", Pool::R), ("s32", Pool::R), ("f32", Pool::F)] };
            let (dty, dpool) = *self.u.choose(dtys)?;
            let d = self.reg(dpool, ctx)?;
            match bool_op {
                Some((op, q)) => out.push(format!("set.{cmp}.{op}{ftz}.{dty}.{ty} {d}, {a}, {b}, {q};")),
                None => out.push(format!("set.{cmp}{ftz}.{dty}.{ty} {d}, {a}, {b};")),
            }
        }
        Ok(())
    }

    fn select(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        let (ty, pool) = *self.u.choose(&[("b16", Pool::H), ("u32", Pool::R), ("s32", Pool::R), ("b64", Pool::Rd), ("f32", Pool::F), ("f64", Pool::Fd)])?;
        let d = self.reg(pool, ctx)?;
        let a = self.src(pool, ctx, ty.starts_with('s'))?;
        let b = self.src(pool, ctx, ty.starts_with('s'))?;
        let p = self.reg(Pool::P, ctx)?;
        out.push(format!("selp.{ty} {d}, {a}, {b}, {p};"));
        Ok(())
    }

    /// cvt between every pair of types, with every rounding and .sat.
    fn convert(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        const TYPES: [(&str, Pool); 11] = [
            ("u8", Pool::H),
            ("s8", Pool::H),
            ("u16", Pool::H),
            ("s16", Pool::H),
            ("u32", Pool::R),
            ("s32", Pool::R),
            ("u64", Pool::Rd),
            ("s64", Pool::Rd),
            ("f16", Pool::H),
            ("f32", Pool::F),
            ("f64", Pool::Fd),
        ];
        let (dty, dpool) = *self.u.choose(&TYPES)?;
        let (aty, apool) = *self.u.choose(&TYPES)?;
        let d = self.reg(dpool, ctx)?;
        let a = self.reg(apool, ctx)?;
        let dfloat = dty.starts_with('f');
        let afloat = aty.starts_with('f');
        let sat = if self.u.ratio(1, 4)? { ".sat" } else { "" };
        let ftz = if (aty == "f32" || dty == "f32") && self.u.ratio(1, 4)? { ".ftz" } else { "" };
        let line = match (dfloat, afloat) {
            // ptxas refuses .sat where the destination holds every source
            // value (equal types, widening to a type of the same sign or
            // unsigned to a wider signed one).
            (false, false) => {
                let width = |t: &str| t[1..].parse::<u32>().unwrap_or(32);
                let (dw, aw) = (width(dty), width(aty));
                let (ds, as_) = (dty.starts_with('s'), aty.starts_with('s'));
                let holds = (ds == as_ && dw >= aw) || (ds && !as_ && dw > aw);
                format!("cvt{}.{dty}.{aty} {d}, {a};", if holds { "" } else { sat })
            }
            (false, true) => {
                let r = *self.u.choose(&IRND)?;
                format!("cvt{r}{ftz}{sat}.{dty}.{aty} {d}, {a};")
            }
            (true, false) => {
                let r = if dty == "f16" { *self.u.choose(&[".rn", ".rz"])? } else { *self.u.choose(&RND)? };
                let sat = if dty == "f16" { "" } else { sat };
                format!("cvt{r}{ftz}{sat}.{dty}.{aty} {d}, {a};")
            }
            (true, true) => {
                let width = |t: &str| t[1..].parse::<u32>().unwrap_or(32);
                let (dw, aw) = (width(dty), width(aty));
                if dw == aw {
                    let r = *self.u.choose(&IRND)?;
                    format!("cvt{r}{ftz}{sat}.{dty}.{aty} {d}, {a};")
                } else if dw > aw {
                    format!("cvt{ftz}{sat}.{dty}.{aty} {d}, {a};")
                } else if dty == "f16" {
                    let r = *self.u.choose(&[".rn", ".rz"])?;
                    format!("cvt{r}.{dty}.{aty} {d}, {a};")
                } else {
                    let r = *self.u.choose(&RND)?;
                    format!("cvt{r}{ftz}{sat}.{dty}.{aty} {d}, {a};")
                }
            }
        };
        out.push(line);
        Ok(())
    }

    /// Register moves, bit casts between pools, special registers.
    fn moves(&mut self, ctx: Ctx, out: &mut Vec<String>) -> Result<()> {
        match self.u.int_in_range(0..=5)? {
            0 => {
                let d = self.reg(Pool::F, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                out.push(format!("mov.b32 {d}, {a};"));
            }
            1 => {
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::F, ctx)?;
                out.push(format!("mov.b32 {d}, {a};"));
            }
            2 => {
                let d = self.reg(Pool::Fd, ctx)?;
                let a = self.reg(Pool::Rd, ctx)?;
                out.push(format!("mov.b64 {d}, {a};"));
            }
            3 => {
                // Pack and unpack vectors.
                let d = self.reg(Pool::Rd, ctx)?;
                let a = self.reg(Pool::R, ctx)?;
                let b = self.reg(Pool::R, ctx)?;
                if self.u.arbitrary()? {
                    out.push(format!("mov.b64 {d}, {{{a}, {b}}};"));
                } else {
                    out.push(format!("mov.b64 {{{a}, {b}}}, {d};"));
                }
            }
            4 => {
                let d = self.reg(Pool::R, ctx)?;
                let a = self.reg(Pool::H, ctx)?;
                let b = self.reg(Pool::H, ctx)?;
                if self.u.arbitrary()? {
                    out.push(format!("mov.b32 {d}, {{{a}, {b}}};"));
                } else {
                    out.push(format!("mov.b32 {{{a}, {b}}}, {d};"));
                }
            }
            _ => {
                let d = self.reg(Pool::R, ctx)?;
                let s = if ctx.func { "%laneid" } else { *self.u.choose(&["%tid.x", "%ctaid.x", "%ntid.x", "%nctaid.x", "%laneid"])? };
                out.push(format!("mov.u32 {d}, {s};"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx2sass::internals::interp::launch::splitmix64_bytes;

    /// Every generated program passes ptx2sass's parser and checker for
    /// its SM (ptxas's verdict is measured by `fuzzgen accept`).
    #[test]
    fn generated_programs_parse_and_check() {
        for seed in 0..160u64 {
            let bytes = splitmix64_bytes(seed, 4096);
            let sm = SMS[seed as usize % SMS.len()];
            let p = generate(&mut Unstructured::new(&bytes), &Config { sm, max_stmts: 12, max_depth: 3 }).expect("enough bytes");
            assert!(crate::oracle::ours_accepts(&p.ptx, sm), "seed {seed} sm_{sm}:\n{}", p.ptx);
            assert_eq!(p.spec.kernel, "k");
        }
    }

    /// The same bytes give the same program (findings are replayable).
    #[test]
    fn generation_is_deterministic() {
        let bytes = splitmix64_bytes(7, 4096);
        let a = generate(&mut Unstructured::new(&bytes), &Config { sm: 90, max_stmts: 12, max_depth: 3 }).expect("program");
        let b = generate(&mut Unstructured::new(&bytes), &Config { sm: 90, max_stmts: 12, max_depth: 3 }).expect("program");
        assert_eq!(a.ptx, b.ptx);
        assert_eq!(a.spec, b.spec);
    }

    /// The forms whose results PTX does not fix never appear (findings
    /// of the differential fuzzer that were the generator's): two
    /// different atomic operations on one counter area, `setp p|p`,
    /// `activemask`, bfe/bfi positions and lengths from unmasked registers.
    #[test]
    fn programs_have_only_results_ptx_fixes() {
        let mut atomics = 0;
        let mut fields = 0;
        for seed in 0..400u64 {
            let bytes = splitmix64_bytes(seed, 4096);
            let sm = SMS[seed as usize % SMS.len()];
            let p = generate(&mut Unstructured::new(&bytes), &Config { sm, max_stmts: 12, max_depth: 3 }).expect("program");
            // (space, wide) -> the one "op.type" seen.
            let mut ops: std::collections::BTreeMap<(String, bool), String> = Default::default();
            // Registers just masked with 255.
            let mut masked = std::collections::BTreeSet::new();
            for line in p.ptx.lines().map(str::trim) {
                let line = if line.starts_with('@') { line.split_once(' ').map_or(line, |x| x.1) } else { line };
                let op = line.split_whitespace().next().unwrap_or("");
                let operands: Vec<&str> = line[op.len()..].trim().trim_end_matches(';').split(", ").collect();
                assert!(!op.starts_with("activemask"), "seed {seed}: {line}");
                if op.starts_with("setp.") {
                    if let Some((a, b)) = operands[0].split_once('|') {
                        assert_ne!(a, b, "seed {seed}: {line}");
                    }
                }
                if op == "and.b32" && operands.last() == Some(&"255") {
                    masked.insert(operands[0].to_string());
                }
                if op.starts_with("bfe.") || op.starts_with("bfi.") {
                    for field in &operands[operands.len() - 2..] {
                        assert!(field.parse::<u32>().is_ok() || masked.contains(*field), "seed {seed}: unmasked {field} in {line}");
                        fields += 1;
                    }
                    masked.clear();
                }
                if op.starts_with("atom.") || op.starts_with("red.") {
                    let parts: Vec<&str> = op.split('.').collect();
                    let (space, kind, ty) = (parts[1].to_string(), parts[2], parts[3]);
                    let this = format!("{kind}.{ty}");
                    let first = ops.entry((space, ty.ends_with("64"))).or_insert_with(|| this.clone());
                    assert_eq!(*first, this, "seed {seed}: two operations on one counter area");
                    atomics += 1;
                }
            }
        }
        assert!(atomics > 50 && fields > 50, "the check saw {atomics} atomics, {fields} bit fields");
    }

    /// NaN payloads count as equal in float pools only.
    #[test]
    fn nan_payloads_are_equal_in_float_slots_only() {
        let size = SLOT.size as usize;
        let base = vec![0u8; size];
        let (mut a, mut b) = (base.clone(), base.clone());
        let fd = SLOT.fd as usize;
        a[fd..fd + 8].copy_from_slice(&0x7ff8_0000_0000_0001u64.to_le_bytes());
        b[fd..fd + 8].copy_from_slice(&0xfff8_0000_0000_0000u64.to_le_bytes());
        assert!(equal_up_to_nan(&a, &b, 1));
        // Not NaN on one side: a real difference.
        b[fd..fd + 8].copy_from_slice(&0xfff0_0000_0000_0000u64.to_le_bytes());
        assert!(!equal_up_to_nan(&a, &b, 1));
        // The same bits in an integer pool's slot differ.
        let (mut a, mut b) = (base.clone(), base);
        let rd = SLOT.rd as usize;
        a[rd..rd + 8].copy_from_slice(&0x7ff8_0000_0000_0001u64.to_le_bytes());
        b[rd..rd + 8].copy_from_slice(&0xfff8_0000_0000_0000u64.to_le_bytes());
        assert!(!equal_up_to_nan(&a, &b, 1));
    }

    /// The scratch part holds stores of any type: NaNs of the f64 or f32
    /// width are equal there, other differences are not (seed 9805222 on
    /// sm_75: an f64 NaN at scratch offset 0 of thread 41).
    #[test]
    fn nan_payloads_are_equal_in_scratch_at_float_widths() {
        let size = SLOT.size as usize;
        let base = vec![0u8; size];
        let s = SLOT.scratch as usize;
        let (mut a, mut b) = (base.clone(), base.clone());
        a[s..s + 8].copy_from_slice(&0x7ff8_0000_0000_0000u64.to_le_bytes());
        b[s..s + 8].copy_from_slice(&0x7ffa_7400_0000_0000u64.to_le_bytes());
        assert!(equal_up_to_nan(&a, &b, 1));
        // Two f32 NaNs in one chunk's upper half, the lower half equal.
        let (mut a, mut b) = (base.clone(), base.clone());
        a[s + 12..s + 16].copy_from_slice(&0x7fc0_0000u32.to_le_bytes());
        b[s + 12..s + 16].copy_from_slice(&0xffc0_0001u32.to_le_bytes());
        assert!(equal_up_to_nan(&a, &b, 1));
        // A NaN beside a differing non-NaN half: a real difference.
        b[s + 8] = 1;
        assert!(!equal_up_to_nan(&a, &b, 1));
        // Integers differing in scratch: a real difference.
        let (a, mut b) = (base.clone(), base);
        b[s + 20] = 0x80;
        assert!(!equal_up_to_nan(&a, &b, 1));
    }
}
