//! Unit tests of lowering: the SSA shape of small PTX snippets (loops,
//! branches, guards, calls), parameter layout, module variables, special
//! registers, source positions and error reporting. Expectations are
//! written from the PTX semantics, not read back from the lowering.

use super::*;
use crate::ir::entity::EntityRef;
use crate::ir::{Block, BoolOp, Cmp, DataType, Function, Inst, InstData, Opcode, Space, SpecialReg, Type, Value, ValueDef};

fn parse(src: &str) -> ast::Module {
    let m = crate::ptx::parse(src).unwrap_or_else(|d| panic!("{}", d.render("t.ptx", src)));
    crate::ptx::check(&m, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render("t.ptx", src)));
    m
}

fn lower(src: &str) -> ir::Module {
    let m = parse(src);
    let out = lower_module_with_source(&m, Sm::new(90), src).unwrap_or_else(|e| panic!("{}", e.render("t.ptx", src)));
    if let Err(errors) = crate::ir::verify::verify_module(&out, crate::ir::verify::Stage::Raw) {
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("lowered IR does not verify:\n{}\n{}", text.join("\n"), crate::ir::print::print_module(&out));
    }
    out
}

fn module(body: &str) -> String {
    format!(".version 8.0\n.target sm_90\n.address_size 64\n{body}")
}

fn func<'m>(m: &'m ir::Module, name: &str) -> &'m Function {
    &m.functions[m.function_by_name(name).expect("function exists")]
}

/// The placed instructions of a function with the given opcode, in
/// layout order.
fn insts_of(f: &Function, op: Opcode) -> Vec<Inst> {
    f.layout.iter().flat_map(|&b| f.blocks[b].insts.iter().copied()).filter(|&i| f.insts[i].opcode == op).collect()
}

fn one(f: &Function, op: Opcode) -> &InstData {
    let v = insts_of(f, op);
    assert_eq!(v.len(), 1, "one {op} expected:\n{}", dump(f));
    &f.insts[v[0]]
}

fn def_of(f: &Function, v: Value) -> &InstData {
    &f.insts[f.value_inst(v).unwrap_or_else(|| panic!("{v} is not a result:\n{}", dump(f)))]
}

fn const_of(f: &Function, v: Value) -> u64 {
    f.value_const(v).unwrap_or_else(|| panic!("{v} is not a constant:\n{}", dump(f)))
}

/// The printed function, for failure messages.
fn dump(f: &Function) -> String {
    crate::ir::print::print_function(crate::ir::FuncId::new(0), f)
}

const LOOP: &str = "
.visible .entry count(.param .u64 out)
{
    .reg .u32 %r<3>;
    .reg .pred %p;
    .reg .u64 %rd;
    ld.param.u64 %rd, [out];
    mov.u32 %r1, 0;
L:
    add.u32 %r1, %r1, 1;
    setp.lt.u32 %p, %r1, 10;
    @%p bra L;
    st.global.u32 [%rd], %r1;
    ret;
}
";

#[test]
fn loop_counter_becomes_one_header_parameter() {
    let m = lower(&module(LOOP));
    let f = func(&m, "count");
    assert_eq!(f.layout.len(), 3, "entry, loop, exit:\n{}", dump(f));
    let header = f.layout[1];
    // Only %r1 changes in the loop: one parameter; %rd and %p need none.
    assert_eq!(f.blocks[header].params.len(), 1, "{}", dump(f));
    let i = f.blocks[header].params[0];
    let add = one(f, Opcode::Add);
    assert_eq!(add.args[0], i);
    assert_eq!(const_of(f, add.args[1]), 1);
    // Entry passes 0; the back edge passes the sum.
    let entry_jump = &f.insts[f.terminator(f.layout[0]).unwrap()];
    assert_eq!(entry_jump.opcode, Opcode::Jump);
    assert_eq!(const_of(f, entry_jump.dests[0].args[0]), 0);
    let brif = one(f, Opcode::Brif);
    assert_eq!(brif.dests[0].block, header);
    assert_eq!(brif.dests[0].args.as_slice(), &[add.results[0]]);
    assert_eq!(brif.dests[1].block, f.layout[2]);
    let setp = one(f, Opcode::Setp);
    assert_eq!(setp.attrs.cmp, Some(Cmp::Lt));
    assert_eq!(brif.args[0], setp.results[0]);
    // The store after the loop stores the sum and uses the loaded pointer.
    let st = one(f, Opcode::St);
    assert_eq!(st.args[1], add.results[0]);
    let ld = def_of(f, st.args[0]);
    assert_eq!((ld.opcode, ld.attrs.space, ld.offset, ld.args.len()), (Opcode::Ld, Some(Space::Param), 0, 0));
    assert_eq!(f.insts[f.terminator(f.layout[2]).unwrap()].opcode, Opcode::Exit);
}

#[test]
fn early_and_late_sealing_give_the_same_function() {
    let src = module(LOOP);
    let m = parse(&src);
    let early = lower_with(&m, Sm::new(90), None, true);
    let late = lower_with(&m, Sm::new(90), None, false);
    assert!(early.errors.is_empty() && late.errors.is_empty());
    let (a, b) = (func(&early.module, "count"), func(&late.module, "count"));
    assert_eq!(dump(a), dump(b));
}

#[test]
fn if_else_merges_at_the_join() {
    let m = lower(&module(
        "
.visible .entry pick(.param .u64 out, .param .u32 x)
{
    .reg .u32 %r<3>;
    .reg .pred %p;
    .reg .u64 %rd;
    ld.param.u64 %rd, [out];
    ld.param.u32 %r1, [x];
    setp.eq.u32 %p, %r1, 0;
    @%p bra ELSE;
    mov.u32 %r2, 7;
    bra END;
ELSE:
    mov.u32 %r2, 9;
END:
    st.global.u32 [%rd+4], %r2;
    ret;
}
",
    ));
    let f = func(&m, "pick");
    let st = one(f, Opcode::St);
    assert_eq!(st.offset, 4);
    let ValueDef::Param(join, 0) = f.values[st.args[1]].def else { panic!("stored value is not a join parameter:\n{}", dump(f)) };
    assert_eq!(f.blocks[join].params.len(), 1, "only %r2 differs:\n{}", dump(f));
    // Two edges into the join: 7 from the then-side, 9 from the else-side.
    let mut incoming: Vec<u64> = Vec::new();
    for &b in &f.layout {
        let t = &f.insts[f.terminator(b).unwrap()];
        for d in t.dests.iter().filter(|d| d.block == join) {
            incoming.push(const_of(f, d.args[0]));
        }
    }
    incoming.sort();
    assert_eq!(incoming, [7, 9], "{}", dump(f));
    // The kernel parameters: `x` sits after the 8-byte pointer.
    let xs: Vec<i32> = insts_of(f, Opcode::Ld).iter().map(|&i| f.insts[i].offset).collect();
    assert_eq!(xs, [0, 8]);
}

#[test]
fn guarded_instructions_keep_the_old_value_as_prior() {
    let m = lower(&module(
        "
.visible .entry g(.param .u64 out)
{
    .reg .u32 %r<4>;
    .reg .pred %p;
    .reg .u64 %rd;
    ld.param.u64 %rd, [out];
    ld.global.u32 %r1, [%rd];
    setp.ne.u32 %p, %r1, 0;
    @%p add.u32 %r1, %r1, 5;
    @!%p ld.global.u32 %r1, [%rd+8];
    @%p st.global.u32 [%rd], %r1;
    @%p mov.u32 %r2, %r1;
    st.global.u32 [%rd+4], %r2;
    ret;
}
",
    ));
    let f = func(&m, "g");
    let setp = one(f, Opcode::Setp).results[0];
    let add = one(f, Opcode::Add);
    let g = add.guard.expect("guarded add");
    assert_eq!((g.pred, g.negated), (setp, false));
    let first_load = f.insts[insts_of(f, Opcode::Ld)[1]].results[0];
    assert_eq!(add.prior.as_slice(), &[first_load], "where %p is false, %r1 keeps the loaded value");
    let lds = insts_of(f, Opcode::Ld);
    let second = &f.insts[lds[2]];
    assert_eq!(second.guard.map(|g| g.negated), Some(true));
    assert_eq!(second.prior.as_slice(), &[add.results[0]]);
    let sts = insts_of(f, Opcode::St);
    let guarded_st = &f.insts[sts[0]];
    assert!(guarded_st.guard.is_some() && guarded_st.prior.is_empty());
    assert_eq!(guarded_st.args[1], second.results[0]);
    // A guarded copy: a `copy` with the guard, %r2's old value (zero:
    // never assigned before) as prior.
    let copy = one(f, Opcode::Copy);
    assert_eq!(copy.args.as_slice(), &[second.results[0]]);
    assert!(copy.guard.is_some());
    assert_eq!(const_of(f, copy.prior[0]), 0);
    assert_eq!(f.insts[sts[1]].args[1], copy.results[0]);
}

const CALL: &str = "
.func (.param .b32 ret) inc(.param .b32 x, .param .b64 y)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    ld.param.b32 %r2, [y+4];
    add.s32 %r1, %r1, %r2;
    st.param.b32 [ret], %r1;
    ret;
}
.visible .entry caller(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    ld.global.u32 %r1, [%rd1];
    {
        .param .b32 p0;
        .param .b64 p1;
        .param .b32 r0;
        st.param.b32 [p0], %r1;
        st.param.b64 [p1], %rd1;
        call.uni (r0), inc, (p0, p1);
        ld.param.b32 %r2, [r0];
    }
    st.global.u32 [%rd1], %r2;
    ret;
}
";

#[test]
fn call_sequences_pass_values_and_results() {
    let m = lower(&module(CALL));
    let callee_id = m.function_by_name("inc").unwrap();
    let inc = func(&m, "inc");
    let entry = inc.layout[0];
    let params: Vec<Type> = inc.blocks[entry].params.iter().map(|&p| inc.value_type(p)).collect();
    assert_eq!(params, [Type::R32, Type::R64], "one entry parameter per PTX parameter, by size");
    assert_eq!(inc.returns, [Type::R32]);
    let add = one(inc, Opcode::Add);
    assert_eq!(add.args[0], inc.blocks[entry].params[0]);
    let hi = def_of(inc, add.args[1]);
    assert_eq!((hi.opcode, hi.imm, hi.args[0]), (Opcode::Extract, 1, inc.blocks[entry].params[1]), "bytes 4..8 of y");
    let ret = one(inc, Opcode::Return);
    assert_eq!(ret.args.as_slice(), &[add.results[0]]);

    let caller = func(&m, "caller");
    let call = one(caller, Opcode::Call);
    assert_eq!(call.imm, callee_id.index() as u64);
    let load = insts_of(caller, Opcode::Ld)[1];
    let ptr = insts_of(caller, Opcode::Ld)[0];
    assert_eq!(call.args.as_slice(), &[caller.insts[load].results[0], caller.insts[ptr].results[0]]);
    let st = one(caller, Opcode::St);
    assert_eq!(st.args[1], call.results[0], "ld.param of the result reads the call's result");
    assert!(insts_of(caller, Opcode::St).len() == 1, "st.param is no memory store");
}

#[test]
fn kernel_parameters_are_laid_out_by_alignment() {
    let m = lower(&module(".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 c[20], .param .u8 d, .param .u64 .ptr .global e) { ret; }"));
    let f = func(&m, "k");
    let layout: Vec<(u32, u32, u32)> = f.params.iter().map(|p| (p.offset, p.size, p.align)).collect();
    assert_eq!(layout, [(0, 4, 4), (8, 8, 8), (16, 20, 16), (36, 1, 1), (40, 8, 8)]);
    assert!(f.params[4].pointer);
    assert_eq!(f.params[0].name, "a");
}

#[test]
fn setp_pair_and_combining_predicates() {
    let m = lower(&module(
        "
.visible .entry s(.param .u32 x, .param .f32 y)
{
    .reg .u32 %r;
    .reg .f32 %f;
    .reg .pred %p<4>;
    ld.param.u32 %r, [x];
    ld.param.f32 %f, [y];
    setp.lt.s32 %p1|%p2, %r, 3;
    setp.gt.and.f32 %p3|%p0, %f, 0f3F800000, !%p1;
    @%p2 exit;
    @%p3 exit;
    @%p0 exit;
    ret;
}
",
    ));
    let f = func(&m, "s");
    let setps: Vec<&InstData> = insts_of(f, Opcode::Setp).into_iter().map(|i| &f.insts[i]).collect();
    assert_eq!(setps.len(), 4);
    assert_eq!((setps[0].attrs.cmp, setps[1].attrs.cmp), (Some(Cmp::Lt), Some(Cmp::Ge)));
    assert_eq!(setps[0].attrs.ty, Some(DataType::S32));
    // For floats the complement of `gt` is unordered `le`.
    assert_eq!((setps[2].attrs.cmp, setps[3].attrs.cmp), (Some(Cmp::Gt), Some(Cmp::Leu)));
    for s in &setps[2..] {
        assert_eq!(s.attrs.combine, Some(BoolOp::And));
        assert!(s.attrs.negated, "!%p1 is the negated combining predicate");
        assert_eq!(s.args[2], setps[0].results[0]);
        assert_eq!(const_of(f, s.args[1]), 0x3f80_0000);
    }
    // Each guarded exit sits in a block of its own behind a branch.
    assert_eq!(insts_of(f, Opcode::Exit).len(), 4);
    assert_eq!(insts_of(f, Opcode::Brif).len(), 3);
}

#[test]
fn vector_moves_concat_and_extract() {
    let m = lower(&module(
        "
.visible .entry v(.param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b16 %h<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    ld.global.v2.u32 {%r1, %r2}, [%rd1];
    mov.b64 %rd2, {%r1, %r2};
    mov.b64 {%r3, %r4}, %rd2;
    mov.b32 {%h1, %h2}, %r3;
    st.global.v4.u32 [%rd1], {%r3, %r4, %r1, %r2};
    st.global.v2.u16 [%rd1+16], {%h1, %h2};
    ret;
}
",
    ));
    let f = func(&m, "v");
    let ld = &f.insts[insts_of(f, Opcode::Ld)[1]];
    assert_eq!((ld.attrs.vector, ld.results.len()), (2, 2));
    let concat = one(f, Opcode::Concat);
    assert_eq!(concat.args.as_slice(), ld.results.as_slice());
    let ex = insts_of(f, Opcode::Extract);
    assert_eq!(ex.len(), 2);
    let st = &f.insts[insts_of(f, Opcode::St)[0]];
    assert_eq!(st.attrs.vector, 4);
    assert_eq!((def_of(f, st.args[1]).imm, def_of(f, st.args[2]).imm), (0, 1));
    assert_eq!(&st.args[3..], ld.results.as_slice());
    // The 16-bit halves: low masked, high shifted down.
    let st16 = &f.insts[insts_of(f, Opcode::St)[1]];
    let lo = def_of(f, st16.args[1]);
    assert_eq!((lo.opcode, const_of(f, lo.args[1])), (Opcode::And, 0xffff));
    let hi = def_of(f, st16.args[2]);
    assert_eq!((hi.opcode, const_of(f, hi.args[1])), (Opcode::Shr, 16));
}

#[test]
fn module_variables_and_function_shared_memory() {
    let m = lower(&module(
        "
.global .u32 a[4] = {1, 2, 3, 4};
.const .align 8 .f32 c = 0f3FC00000;
.visible .global .b8 bytes[3] = {1, 2};
.visible .entry k1(.param .u64 out)
{
    .shared .align 4 .b8 tile[64];
    .reg .u64 %rd<3>;
    .reg .u32 %r<3>;
    .reg .f32 %f;
    mov.u64 %rd1, a;
    ld.shared.u32 %r1, [tile+8];
    ld.const.f32 %f, [c];
    ld.global.u32 %r2, [a+4];
    ret;
}
.visible .entry k2()
{
    .shared .align 4 .b8 tile[32];
    .reg .u32 %r;
    ld.shared.u32 %r, [tile];
    ret;
}
",
    ));
    let ga = &m.globals[m.global_by_name("a").unwrap()];
    assert_eq!(ga.init, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!((ga.space, ga.size, ga.align, ga.visible), (Space::Global, 16, 4, false));
    let gc = &m.globals[m.global_by_name("c").unwrap()];
    assert_eq!((gc.space, gc.align), (Space::Const, 8));
    assert_eq!(gc.init, 1.5f32.to_le_bytes());
    let gb = &m.globals[m.global_by_name("bytes").unwrap()];
    assert_eq!((gb.init.as_slice(), gb.visible), (&[1u8, 2, 0][..], true));
    let tile1 = m.global_by_name("tile").expect("first function keeps the name");
    let tile2 = m.global_by_name("k2.tile").expect("second one is qualified");
    assert_eq!((m.globals[tile1].size, m.globals[tile2].size), (64, 32));
    assert_eq!(m.globals[tile1].space, Space::Shared);

    let f = func(&m, "k1");
    let lds = insts_of(f, Opcode::Ld);
    let shared = &f.insts[lds[0]];
    let addr = def_of(f, shared.args[0]);
    assert_eq!((addr.opcode, addr.imm, shared.offset), (Opcode::SymAddr, tile1.index() as u64, 8));
    assert_eq!(f.value_type(shared.args[0]), Type::R32, "shared addresses are 32-bit");
    let glob = &f.insts[lds[2]];
    let gaddr = def_of(f, glob.args[0]);
    assert_eq!((gaddr.imm, glob.offset, f.value_type(glob.args[0])), (m.global_by_name("a").unwrap().index() as u64, 4, Type::R64));
    let k2 = func(&m, "k2");
    assert_eq!(def_of(k2, k2.insts[insts_of(k2, Opcode::Ld)[0]].args[0]).imm, tile2.index() as u64);
}

#[test]
fn local_variables_live_in_the_frame() {
    let m = lower(&module(
        "
.visible .entry k()
{
    .local .align 4 .b8 a[6];
    .local .align 8 .b8 b[8];
    .reg .u32 %r;
    .reg .u64 %rd;
    ld.local.u32 %r, [b+4];
    mov.u64 %rd, a;
    st.u32 [%rd], %r;
    ret;
}
",
    ));
    let f = func(&m, "k");
    assert_eq!(f.local_bytes, 16, "a at 0..6, b aligned to 8");
    let ld = one(f, Opcode::Ld);
    let addr = def_of(f, ld.args[0]);
    assert_eq!((addr.opcode, addr.attrs.space, addr.offset, ld.offset), (Opcode::SymAddr, Some(Space::Local), 8, 4));
    let st = one(f, Opcode::St);
    assert_eq!(st.attrs.space, Some(Space::Generic));
    assert_eq!(def_of(f, st.args[0]).attrs.space, Some(Space::Local));
}

#[test]
fn special_registers_and_source_positions() {
    let src = module(
        "
.file 1 \"k.cu\"
.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<3>;
    .reg .u64 %rd<3>;
    ld.param.u64 %rd1, [out];
    .loc 1 12 7
    mov.u32 %r1, %tid.y;
    mov.u64 %rd2, %clock64;
    add.u32 %r2, %r1, WARP_SZ;
    st.global.u32 [%rd1], %r2;
    st.global.u64 [%rd1+8], %rd2;
    ret;
}
",
    );
    let m = lower(&src);
    let f = func(&m, "k");
    let sregs: Vec<(Option<SpecialReg>, Type)> = insts_of(f, Opcode::Sreg).iter().map(|&i| (f.insts[i].attrs.sreg, f.value_type(f.insts[i].results[0]))).collect();
    assert_eq!(sregs, [(Some(SpecialReg::TidY), Type::R32), (Some(SpecialReg::Clock64), Type::R64)]);
    let add = one(f, Opcode::Add);
    assert_eq!(const_of(f, add.args[1]), 32);
    let tid = insts_of(f, Opcode::Sreg)[0];
    let loc = f.locs[tid];
    assert_eq!((loc.line, loc.col), (12, 5), "line 12 of the module text, after four spaces");
    assert_eq!((loc.debug_file, loc.debug_line, loc.debug_col), (1, 12, 7));
    let first = insts_of(f, Opcode::Ld)[0];
    assert_eq!(f.locs[first].debug_line, 0, "before the .loc");
}

#[test]
fn code_after_a_branch_gets_a_block_of_its_own() {
    let m = lower(&module(
        "
.visible .entry k(.param .u64 out)
{
    .reg .u64 %rd;
    ld.param.u64 %rd, [out];
    bra DONE;
    st.global.u32 [%rd], 1;
DONE:
    ret;
}
",
    ));
    let f = func(&m, "k");
    assert_eq!(f.layout.len(), 3, "{}", dump(f));
    let dead = f.layout[1];
    assert!(f.blocks[dead].insts.iter().any(|&i| f.insts[i].opcode == Opcode::St));
    assert_eq!(f.insts[f.terminator(dead).unwrap()].opcode, Opcode::Jump, "falls into DONE");
}

#[test]
fn every_unsupported_instruction_is_reported_with_its_position() {
    let src = module(
        "
.visible .entry k1(.param .u64 out)
{
    .reg .b32 %r<3>;
    cvt.pack.sat.u4.s32.b32 %r1, %r1, %r2, %r2;
    cvt.pack.sat.s4.s32.b32 %r2, %r1, %r2, %r2;
    ret;
}
.visible .entry k2()
{
    .reg .b32 %r<3>;
    add.u32 %r1, %r1, 1;
    ret;
}
.visible .entry k3()
{
    .reg .b32 %r<3>;
    cvt.pack.sat.u4.s32.b32 %r1, %r1, %r2, %r2;
    ret;
}
",
    );
    let m = parse(&src);
    let l = lower_module_partial(&m, Sm::new(80), Some(&src));
    let msgs: Vec<(String, &str, (u32, u32))> = l.errors.iter().map(|e| (e.message.clone(), e.function.as_str(), e.line_col(&src))).collect();
    assert_eq!(
        msgs,
        [
            ("unsupported in lowering: cvt.pack.sat.u4.s32.b32".to_string(), "k1", (8, 5)),
            ("unsupported in lowering: cvt.pack.sat.s4.s32.b32".to_string(), "k1", (9, 5)),
            ("unsupported in lowering: cvt.pack.sat.u4.s32.b32".to_string(), "k3", (21, 5)),
        ]
    );
    // The failed functions keep their signatures and lose their bodies;
    // k2 lowers.
    assert!(func(&l.module, "k1").layout.is_empty() && func(&l.module, "k1").params.len() == 1);
    assert!(!func(&l.module, "k2").layout.is_empty());
    let err = lower_module(&m, Sm::new(80)).unwrap_err();
    let text = err.render("t.ptx", &src);
    assert!(text.starts_with("t.ptx:8:5: error: unsupported in lowering: cvt.pack.sat.u4.s32.b32 (in k1)\n    cvt.pack.sat.u4.s32.b32 %r1, %r1, %r2, %r2;\n    ^"), "{text}");
}

#[test]
fn unchecked_nonsense_is_an_error_not_a_panic() {
    // Names that resolve to nothing, a branch to a register, a guard on a
    // non-predicate: parsed but never checked.
    let src = module(
        "
.visible .entry k()
{
    .reg .b32 %r;
    add.u32 %r, %nope, 1;
    @%r bra %r;
    ld.global.u32 %r, [%r+99999999999];
    mov.u32 %r, k;
    ret;
}
",
    );
    let m = crate::ptx::parse(&src).expect("parses");
    let l = lower_module_partial(&m, Sm::new(90), None);
    assert_eq!(l.errors.len(), 4, "{:?}", l.errors);
}

#[test]
fn block_indices_start_with_the_entry() {
    // Label blocks are created before code: the entry is block 0.
    let m = lower(&module(LOOP));
    let f = func(&m, "count");
    assert_eq!(f.entry(), Some(Block::new(0)));
}

#[test]
fn a_label_in_two_blocks_is_two_labels() {
    // Two inline-assembly blocks with the same loop label (as LLVM's
    // NVPTX back end writes Triton's mbarrier waits): each branch goes
    // back to its own block's label, the block that adds its own step.
    let src = module(
        ".visible .entry k(.param .u32 n)\n{\n.reg .b32 %r<3>;\nld.param.u32 %r1, [n];\n\
         {\n.reg .pred p;\nwaitLoop:\nadd.s32 %r1, %r1, 1;\nsetp.lt.s32 p, %r1, 10;\n@p bra waitLoop;\n}\n\
         {\n.reg .pred p;\nwaitLoop:\nadd.s32 %r1, %r1, 2;\nsetp.lt.s32 p, %r1, 20;\n@p bra waitLoop;\n}\nret;\n}\n",
    );
    let m = crate::ptx::parse(&src).expect("parses");
    let l = lower_module_partial(&m, Sm::new(90), None);
    assert!(l.errors.is_empty(), "{:?}", l.errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>());
    let f = func(&l.module, "k");
    // Each loop is one block, from its label to its branch: the branch
    // goes back to the block that holds it.
    let loops: Vec<_> = f
        .layout
        .iter()
        .filter_map(|&b| f.terminator(b).map(|t| (b, &f.insts[t])))
        .filter(|(_, i)| i.opcode == Opcode::Brif)
        .map(|(b, i)| (b, i.dests[0].block))
        .collect();
    assert_eq!(loops.len(), 2, "{}", dump(f));
    for (block, target) in &loops {
        assert_eq!(block, target, "a branch left its own block's label:\n{}", dump(f));
    }
    assert_ne!(loops[0].0, loops[1].0);
}

#[test]
fn a_label_defined_twice_is_an_error() {
    let src = module(".visible .entry k()\n{\nL:\n    bra L;\nL:\n    ret;\n}\n");
    let m = crate::ptx::parse(&src).expect("parses");
    let l = lower_module_partial(&m, Sm::new(90), None);
    let msgs: Vec<&str> = l.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(msgs, ["label L defined twice in one block"]);
}

#[test]
fn carry_flag_is_threaded_as_a_predicate_value() {
    // add.cc writes CC (a second, predicate result); addc.cc reads it (a
    // third argument) and writes it again; addc reads the last one and
    // writes nothing. A carry read before any write is zero.
    let src = module(
        "
.visible .entry cc(.param .u64 out)
{
    .reg .b32 %r<8>;
    addc.u32 %r1, %r6, %r7;
    add.cc.u32 %r2, %r6, %r7;
    addc.cc.u32 %r3, %r6, %r7;
    addc.u32 %r4, %r6, %r7;
    sub.cc.u32 %r5, %r6, %r7;
    ret;
}
",
    );
    let m = lower(&src);
    let f = func(&m, "cc");
    let adds = insts_of(f, Opcode::Addc);
    assert_eq!(adds.len(), 4, "{}", dump(f));
    let [first, cc, chain, last] = [&f.insts[adds[0]], &f.insts[adds[1]], &f.insts[adds[2]], &f.insts[adds[3]]];
    // addc before any .cc: carry-in is the zero of an unset register.
    assert!(first.attrs.x && first.results.len() == 1 && first.args.len() == 3);
    assert_eq!(f.value_type(first.args[2]), Type::P);
    assert_eq!(const_of(f, first.args[2]), 0);
    // add.cc: no carry-in, a carry-out.
    assert!(!cc.attrs.x && cc.args.len() == 2 && cc.results.len() == 2);
    assert_eq!(f.value_type(cc.results[1]), Type::P);
    // addc.cc reads add.cc's carry and makes a new one; addc reads that.
    assert_eq!(chain.args[2], cc.results[1]);
    assert_eq!(chain.results.len(), 2);
    assert_eq!(last.args[2], chain.results[1]);
    assert_eq!(last.results.len(), 1);
    let sub = one(f, Opcode::Subc);
    assert!(!sub.attrs.x && sub.results.len() == 2);
}

#[test]
fn integer_bit_operations_carry_their_modifiers() {
    let src = module(
        "
.visible .entry bits(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<2>;
    bfind.shiftamt.u32 %r1, %r6;
    shf.l.wrap.b32 %r2, %r6, %r7, %r5;
    prmt.b32.ecr %r3, %r6, %r7, %r5;
    lop3.b32 %r4, %r6, %r7, %r5, 0xe8;
    clz.b64 %r5, %rd1;
    cnot.b32 %r6, %r7;
    ret;
}
",
    );
    let m = lower(&src);
    let f = func(&m, "bits");
    assert!(one(f, Opcode::Bfind).attrs.shiftamt);
    let shf = one(f, Opcode::Funnel);
    assert!(shf.attrs.left && shf.attrs.wrap);
    // .ecr is PRMT's mode 5.
    assert_eq!(one(f, Opcode::Permute).imm, 5);
    assert_eq!(one(f, Opcode::Logic3).imm, 0xe8);
    let clz = one(f, Opcode::Clz);
    assert_eq!(f.value_type(clz.args[0]), Type::R64);
    assert_eq!(f.value_type(clz.results[0]), Type::R32);
    // cnot: a comparison with zero and a selection of 1 or 0.
    let setp = one(f, Opcode::Setp);
    assert_eq!(setp.attrs.cmp, Some(Cmp::Eq));
    let selp = one(f, Opcode::Selp);
    assert_eq!((const_of(f, selp.args[0]), const_of(f, selp.args[1])), (1, 0));
}

#[test]
fn param_aggregates_pass_in_sixteen_byte_parts() {
    // 40 bytes: parts of 16, 16 and 8 bytes; the int after it one more.
    let src = module(
        "
.func (.param .align 8 .b8 r[24]) f(.param .align 4 .b8 s[40], .param .b32 k)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.b32 %r1, [s+36];
    ld.param.b32 %r2, [k];
    ld.param.b64 %rd1, [s+16];
    st.param.b32 [r+20], %r1;
    st.param.b64 [r+8], %rd1;
    st.param.b32 [r], %r2;
    ret;
}
",
    );
    let m = lower(&src);
    let f = func(&m, "f");
    let entry = f.layout[0];
    let params: Vec<Type> = f.blocks[entry].params.iter().map(|&p| f.value_type(p)).collect();
    assert_eq!(params, [Type::R128, Type::R128, Type::R64, Type::R32]);
    assert_eq!(f.returns, [Type::R128, Type::R64], "24 bytes: a 16-byte and an 8-byte part");
    let sizes: Vec<(u32, u32)> = f.params.iter().map(|p| (p.offset, p.size)).collect();
    assert_eq!(sizes, [(0, 16), (16, 16), (32, 8), (40, 4)]);
    // s+36 is bytes 4..8 of the third part; s+16 the low half of the second.
    let reads: Vec<(Value, u64)> = insts_of(f, Opcode::Extract).iter().map(|&i| (f.insts[i].args[0], f.insts[i].imm)).collect();
    assert!(reads.contains(&(f.blocks[entry].params[2], 1)), "{reads:?}");
    assert!(reads.contains(&(f.blocks[entry].params[1], 0)) || reads.contains(&(f.blocks[entry].params[1], 1)), "{reads:?}");
}

#[test]
fn unaligned_aggregate_elements_are_refused() {
    let src = module(
        "
.func f(.param .align 1 .b8 s[20])
{
    .reg .b32 %r1;
    ld.param.b32 %r1, [s+14];
    ret;
}
",
    );
    let m = parse(&src);
    let l = lower_module_partial(&m, Sm::new(80), Some(&src));
    assert!(l.errors.iter().any(|e| e.message.contains("straddles two 16-byte parts")), "{:?}", l.errors.iter().map(|e| &e.message).collect::<Vec<_>>());
}

#[test]
fn const_initialisers_record_the_addresses_they_hold() {
    let src = module(
        "
.const .u64 x = 1;
.const .u32 y[4] = {4, 5, 6};
.const .u64 t[3] = {x, y+8, 0x77};
.visible .entry k() { ret; }
",
    );
    let m = lower(&src);
    let t = m.globals.iter().find(|(_, g)| g.name == "t").map(|(_, g)| g).expect("t");
    let id = |n: &str| m.globals.iter().find(|(_, g)| g.name == n).map(|(i, _)| i).expect("variable");
    let got: Vec<(u64, u8, ir::GlobalId, i64)> = t.addresses.iter().map(|a| (a.at, a.bytes, a.target, a.addend)).collect();
    assert_eq!(got, [(0, 8, id("x"), 0), (8, 8, id("y"), 8)]);
    assert_eq!(&t.init[16..24], &0x77u64.to_le_bytes(), "the plain word stays");
    assert!(t.init[..16].iter().all(|&b| b == 0), "address words are zero until laid out");
}

#[test]
fn addresses_that_need_relocations_are_refused_in_initialisers() {
    for (init, why) in [("{a}", "needs a relocation"), ("{generic(a)}", "needs a relocation"), ("{a*2}", "other than a variable plus a constant")] {
        let src = module(&format!(".global .u32 a[2];\n.global .u64 p[1] = {init};\n.visible .entry k() {{ ret; }}\n"));
        let m = parse(&src);
        let l = lower_module_partial(&m, Sm::new(80), Some(&src));
        assert!(l.errors.iter().any(|e| e.message.contains(why)), "{init}: {:?}", l.errors.iter().map(|e| &e.message).collect::<Vec<_>>());
    }
}
