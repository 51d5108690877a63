//! The stable text form of the Ori IR: printing modules, functions and
//! single instructions. [`super::parse`] reads the same text back.
//!
//! ```text
//! target sm_90
//! global g0 "table" global size 16 align 4 visible init 0x01 0x02
//! kernel fn0 "saxpy" (a: 8 align 8 at 0 ptr, n: 4 align 4 at 8) local 16 maxntid 128 1 1 {
//! block0:
//!     v0:r64 = ld.param.u64 [+0]
//!     v1:r32 = iconst 0x2a
//!     v2:r32 = add.s32 v1, v1
//!     v3:p = setp.lt.s32 v2, v1
//!     @!v3 v4:r32 = add.s32 v2, v1 else v2
//!     st.global.u32 [v0+16], v2
//!     v5:r64 = symaddr g0+8
//!     v6:r32, v7:r32 = call fn1(v2, v1)
//!     v8:r32 = LOP3 v1, v2, v1, #0xc0
//!     brif.not v3, block1(v2), block2
//! block1(v9:r32):
//!     jump block2
//! block2:
//!     exit
//! }
//! func fn1 "helper" (x: 4 align 4 at 0, y: 4 align 4 at 4) -> (r32, r32) ;
//! ```
//!
//! # The rules
//!
//! * A module starts with `target sm_XX`, then its globals (`gN`, in index
//!   order), then its functions (`fnN`, in index order). A function's kind
//!   is `kernel`, `func` (device function) or `function` (no kind set).
//!   Function and global names are quoted strings; a parameter's name is
//!   bare when it is an identifier, quoted otherwise.
//! * The header lists the parameters (`name: size align A at OFFSET`, plus
//!   `ptr` for pointers), then `-> (types)` when there are returns, then
//!   `local N`, `maxntid X Y Z`, `reqntid X Y Z`, `minctas N`, `maxnreg N`
//!   when set. A function with no blocks, instructions or values is a
//!   declaration and ends with `;`; otherwise its body follows in braces.
//! * Values, blocks and instructions keep their entity numbers (no
//!   renumbering), so parsing the text gives back the same maps:
//!   * blocks print in layout order (`block3:` or `block3(v7:r32, v8:p):`
//!     with the parameters); blocks outside the layout follow as
//!     `unplaced block5:`, and instructions in no block under a final
//!     `unplaced:` line;
//!   * an instruction's index is implied by its position (one more than
//!     the previous instruction printed, starting at 0); where that is not
//!     its index the line starts with `instN:`;
//!   * every value is printed with its type where it is defined (a block
//!     parameter or an instruction result); a value defined nowhere it
//!     claims to be (a parameter the builder removed, for instance) is kept
//!     by an `unused vN:type param blockB K` / `unused vN:type result
//!     instI K` line at the end of the body.
//! * An instruction is `[@[!]vG ][results = ]mnemonic operands[ else
//!   priors][ !loc]`. The mnemonic is the opcode's name followed by
//!   [`Attrs::words`]. Operands, comma-separated:
//!   * memory operations (load and store classes) first print their address
//!     as `[vA+OFF]` (`[vA]` for offset 0, `[+OFF]` without an address
//!     argument). A load has an address when it has arguments; a store unless
//!     it is a `.param` store with no more arguments than stored values
//!     (`max(vector, 1)`);
//!   * `iconst` prints its immediate (`0x2a`), `symaddr` its variable and
//!     offset (`g0+8`, or `frame+16` for a `.local` frame slot with
//!     immediate 0), `call` its callee and arguments (`fn1(v2, v1)`);
//!   * then the remaining arguments, then — for other opcodes — a nonzero
//!     immediate as `#0x…` and a nonzero offset as `+N` / `-N`, then the
//!     branch destinations (`block1(v2)`, or `block2` without arguments).
//! * A non-default source location ends the line: `!LINE:COL`, or
//!   `!LINE:COL:FILE:DLINE:DCOL` with a `.loc` position.
//! * `;` starts a comment that runs to the end of the line.
//!
//! Round trip: for IR where every instruction sits in at most one block and
//! every placed value's definition matches where it is printed (what the
//! verifier accepts, and everything the builder makes), parsing the
//! printed text gives an equal function except that the parser records a
//! source location for every instruction (the builder skips a few); see
//! `tests` for the comparison. Printing never panics: dangling indices print
//! as `?` types or `<invalid instN>`, which the parser then rejects.

use std::fmt::Write as _;

use super::attrs::{Attrs, Space};
use super::entity::EntityRef;
use super::function::{BlockCall, Function, FunctionKind, Inst, SrcLoc, Value, ValueDef};
use super::module::{FuncId, Module};
use super::opcode::{Class, Opcode};

/// Prints a module.
pub fn print_module(module: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "target {}", module.sm);
    for (id, g) in module.globals.iter() {
        let _ = write!(out, "global {id} {} {} size {} align {}", quote(&g.name), g.space.word(), g.size, g.align);
        if g.visible {
            out.push_str(" visible");
        }
        if !g.init.is_empty() {
            out.push_str(" init");
            for b in &g.init {
                let _ = write!(out, " 0x{b:02x}");
            }
        }
        out.push('\n');
    }
    for (id, f) in module.functions.iter() {
        write_function(&mut out, id, f);
    }
    out
}

/// Prints one function (as function `id` of its module).
pub fn print_function(id: FuncId, func: &Function) -> String {
    let mut out = String::new();
    write_function(&mut out, id, func);
    out
}

/// Prints one instruction as it appears in a block (without indentation,
/// index marker or newline), for diagnostics.
pub fn print_inst(func: &Function, inst: Inst) -> String {
    let mut out = String::new();
    write_inst(&mut out, func, inst);
    out
}

/// Whether the text form of a parameter name can be bare.
pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '%'))
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%' | '.'))
}

/// A string literal: `"` and `\` escaped, control characters as `\u{…}`.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The keyword of a function kind.
pub(crate) fn kind_keyword(kind: Option<FunctionKind>) -> &'static str {
    match kind {
        Some(FunctionKind::Kernel) => "kernel",
        Some(FunctionKind::Device) => "func",
        None => "function",
    }
}

fn write_function(out: &mut String, id: FuncId, f: &Function) {
    let _ = write!(out, "{} {id} {} (", kind_keyword(f.kind), quote(&f.name));
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if is_ident(&p.name) {
            out.push_str(&p.name);
        } else {
            out.push_str(&quote(&p.name));
        }
        let _ = write!(out, ": {} align {} at {}", p.size, p.align, p.offset);
        if p.pointer {
            out.push_str(" ptr");
        }
    }
    out.push(')');
    if !f.returns.is_empty() {
        out.push_str(" -> (");
        for (i, t) in f.returns.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(t.name());
        }
        out.push(')');
    }
    if f.local_bytes != 0 {
        let _ = write!(out, " local {}", f.local_bytes);
    }
    let b = &f.bounds;
    if let Some([x, y, z]) = b.max_ntid {
        let _ = write!(out, " maxntid {x} {y} {z}");
    }
    if let Some([x, y, z]) = b.req_ntid {
        let _ = write!(out, " reqntid {x} {y} {z}");
    }
    if let Some(n) = b.min_ctas_per_sm {
        let _ = write!(out, " minctas {n}");
    }
    if let Some(n) = b.max_regs {
        let _ = write!(out, " maxnreg {n}");
    }
    if f.blocks.is_empty() && f.layout.is_empty() && f.insts.is_empty() && f.values.is_empty() {
        out.push_str(" ;\n");
        return;
    }
    out.push_str(" {\n");
    let mut next_inst = 0usize;
    // Which values print at a definition that matches their `def`.
    let mut shown = vec![false; f.values.len()];
    let mut in_layout = vec![false; f.blocks.len()];
    let mut placed = vec![false; f.insts.len()];
    for &block in &f.layout {
        if let Some(slot) = in_layout.get_mut(block.index()) {
            *slot = true;
        }
    }
    let unplaced: Vec<_> = f.blocks.keys().filter(|b| !in_layout[b.index()]).collect();
    for (block, prefix) in f.layout.iter().map(|&b| (b, "")).chain(unplaced.into_iter().map(|b| (b, "unplaced "))) {
        let _ = write!(out, "{prefix}{block}");
        let Some(data) = f.blocks.get(block) else {
            out.push_str(":\n");
            continue;
        };
        if !data.params.is_empty() {
            out.push('(');
            for (n, &p) in data.params.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                write_typed(out, f, p);
                if f.values.get(p).is_some_and(|v| v.def == ValueDef::Param(block, n as u16)) {
                    shown[p.index()] = true;
                }
            }
            out.push(')');
        }
        out.push_str(":\n");
        for &inst in &data.insts {
            write_line(out, f, inst, &mut next_inst, &mut shown);
            if let Some(slot) = placed.get_mut(inst.index()) {
                *slot = true;
            }
        }
    }
    let orphans: Vec<Inst> = f.insts.keys().filter(|i| !placed[i.index()]).collect();
    if !orphans.is_empty() {
        out.push_str("unplaced:\n");
        for inst in orphans {
            write_line(out, f, inst, &mut next_inst, &mut shown);
        }
    }
    for (v, data) in f.values.iter() {
        if shown[v.index()] {
            continue;
        }
        let _ = write!(out, "unused {v}:{} ", data.ty.name());
        let _ = match data.def {
            ValueDef::Param(b, n) => writeln!(out, "param {b} {n}"),
            ValueDef::Result(i, n) => writeln!(out, "result {i} {n}"),
        };
    }
    out.push_str("}\n");
}

/// One indented instruction line with its index marker when needed.
fn write_line(out: &mut String, f: &Function, inst: Inst, next: &mut usize, shown: &mut [bool]) {
    out.push_str("    ");
    if inst.index() != *next {
        let _ = write!(out, "inst{}: ", inst.index());
    }
    *next = inst.index() + 1;
    write_inst(out, f, inst);
    out.push('\n');
    if let Some(data) = f.insts.get(inst) {
        for (n, &r) in data.results.iter().enumerate() {
            if f.values.get(r).is_some_and(|v| v.def == ValueDef::Result(inst, n as u16)) {
                shown[r.index()] = true;
            }
        }
    }
}

/// `v3:r32` (or `v3:?` for a value outside the map).
fn write_typed(out: &mut String, f: &Function, v: Value) {
    let ty = f.values.get(v).map_or("?", |d| d.ty.name());
    let _ = write!(out, "{v}:{ty}");
}

fn write_signed(out: &mut String, n: i32) {
    let _ = if n < 0 { write!(out, "-{}", n.unsigned_abs()) } else { write!(out, "+{n}") };
}

fn write_dest(out: &mut String, d: &BlockCall) {
    let _ = write!(out, "{}", d.block);
    if !d.args.is_empty() {
        out.push('(');
        write_values(out, &d.args);
        out.push(')');
    }
}

fn write_values(out: &mut String, vs: &[Value]) {
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v}");
    }
}

/// Whether a memory instruction's first argument is its address (see the
/// module documentation): a load's when it has arguments; a store's unless
/// it is a `.param` store whose arguments are all stored values.
pub(crate) fn has_address(opcode: Opcode, attrs: &Attrs, args: usize) -> bool {
    match opcode.class() {
        Class::Load => args > 0,
        Class::Store => args > 0 && !(attrs.space == Some(Space::Param) && args <= usize::from(attrs.vector.max(1))),
        _ => false,
    }
}

fn write_inst(out: &mut String, f: &Function, inst: Inst) {
    let Some(d) = f.insts.get(inst) else {
        let _ = write!(out, "<invalid {inst}>");
        return;
    };
    if let Some(g) = d.guard {
        let _ = write!(out, "@{}{} ", if g.negated { "!" } else { "" }, g.pred);
    }
    if !d.results.is_empty() {
        for (i, &r) in d.results.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_typed(out, f, r);
        }
        out.push_str(" = ");
    }
    out.push_str(d.opcode.name());
    out.push_str(&d.attrs.words());
    let mut ops: Vec<String> = Vec::new();
    let mut args: &[Value] = &d.args;
    let mut imm_done = false;
    let mut offset_done = false;
    let is_mem = matches!(d.opcode.class(), Class::Load | Class::Store);
    if is_mem {
        let mut s = String::from("[");
        if has_address(d.opcode, &d.attrs, args.len()) {
            let _ = write!(s, "{}", args[0]);
            args = &args[1..];
            if d.offset != 0 {
                write_signed(&mut s, d.offset);
            }
        } else {
            write_signed(&mut s, d.offset);
        }
        s.push(']');
        ops.push(s);
        offset_done = true;
    }
    match d.opcode {
        Opcode::Iconst => {
            ops.push(format!("{:#x}", d.imm));
            imm_done = true;
        }
        Opcode::SymAddr => {
            let mut s = if d.attrs.space == Some(Space::Local) && d.imm == 0 { "frame".to_string() } else { format!("g{}", d.imm) };
            if d.offset != 0 {
                write_signed(&mut s, d.offset);
            }
            ops.push(s);
            imm_done = true;
            offset_done = true;
        }
        Opcode::Call => {
            let mut s = format!("fn{}(", d.imm);
            write_values(&mut s, args);
            s.push(')');
            args = &[];
            ops.push(s);
            imm_done = true;
        }
        _ => {}
    }
    ops.extend(args.iter().map(|v| v.to_string()));
    if !imm_done && d.imm != 0 {
        ops.push(format!("#{:#x}", d.imm));
    }
    if !offset_done && d.offset != 0 {
        let mut s = String::new();
        write_signed(&mut s, d.offset);
        ops.push(s);
    }
    for dest in &d.dests {
        let mut s = String::new();
        write_dest(&mut s, dest);
        ops.push(s);
    }
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    if !d.prior.is_empty() {
        out.push_str(" else ");
        write_values(out, &d.prior);
    }
    let loc = f.locs[inst];
    if loc != SrcLoc::default() {
        let _ = write!(out, " !{}:{}", loc.line, loc.col);
        if (loc.debug_file, loc.debug_line, loc.debug_col) != (0, 0, 0) {
            let _ = write!(out, ":{}:{}:{}", loc.debug_file, loc.debug_line, loc.debug_col);
        }
    }
}
