//! Behaviour tests of the interpreter: small kernels with expectations
//! worked out by hand from the PTX ISA's definitions.

use super::{run, Options};
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::interp::launch::{Fill, ParamSpec, ScalarKind};
use crate::interp::LaunchSpec;

const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// Runs kernel `k` of `body` (a module without its header) with `threads`
/// threads in one CTA (or `grid` CTAs), parameter 0 an output buffer of
/// `out` bytes, and returns that buffer.
fn run_k(body: &str, grid: u32, threads: u32, out: usize, extra: Vec<ParamSpec>) -> Result<Vec<u8>, InterpError> {
    let src = format!("{HEAD}{body}");
    let module = crate::ptx::parse(&src).unwrap_or_else(|e| panic!("parse: {}", e.render("t.ptx", &src)));
    crate::ptx::check(&module, &Default::default()).unwrap_or_else(|e| panic!("check: {}", e.render("t.ptx", &src)));
    let mut params = vec![ParamSpec::Buffer { bytes: out, fill: Fill::Zero, output: true }];
    params.extend(extra);
    let spec = LaunchSpec { kernel: "k".into(), grid: [grid, 1, 1], block: [threads, 1, 1], shared_bytes: 256, params, textures: Vec::new() };
    let o = run(&module, &spec, &Options { step_budget: 100_000 })?;
    Ok(o.launch.buffer_bytes(0).expect("output").to_vec())
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A kernel storing `%r_out` (u32) at out[tid] after `code`.
fn per_thread(code: &str, decls: &str) -> String {
    format!(
        ".visible .entry k(.param .u64 out) {{
  .reg .u32 %r<16>; .reg .u64 %rd<8>; .reg .pred %p<8>; .reg .f32 %f<8>; .reg .f64 %fd<4>; .reg .b16 %h<4>; {decls}
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
{code}
  st.global.u32 [%rd3], %r15;
  ret;
}}"
    )
}

#[test]
fn divergent_paths_reconverge_at_the_join() {
    let code = "
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra EVEN;
  mov.u32 %r2, 100;
  bra JOIN;
EVEN:
  mov.u32 %r2, 200;
JOIN:
  activemask.b32 %r3;
  setp.eq.u32 %p2, %r3, -1;
  selp.u32 %r4, 1000, 0, %p2;
  add.u32 %r5, %r2, %r4;
  add.u32 %r15, %r5, %r0;";
    let out = words(&run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap());
    for (t, v) in out.iter().enumerate() {
        let t = t as u32;
        assert_eq!(*v, t + 1000 + if t % 2 == 0 { 200 } else { 100 }, "thread {t}");
    }
}

#[test]
fn bar_sync_in_divergent_code_completes_across_both_paths() {
    // Threads below 16 and the others reach different bar.sync
    // instructions; all 64 arrive, so the barrier completes, and every
    // thread then reads what the thread mirrored to it stored.
    let body = ".visible .entry k(.param .u64 out) {
  .reg .u32 %r<8>; .reg .u64 %rd<4>; .reg .pred %p1;
  .shared .align 4 .u32 s[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  shl.b32 %r1, %r0, 2;
  mov.u32 %r2, s;
  add.u32 %r3, %r2, %r1;
  setp.lt.u32 %p1, %r0, 16;
  @%p1 bra A;
  st.shared.u32 [%r3], 2;
  bar.sync 0;
  bra J;
A:
  st.shared.u32 [%r3], 1;
  bar.sync 0;
J:
  sub.u32 %r4, 63, %r0;
  shl.b32 %r4, %r4, 2;
  add.u32 %r4, %r2, %r4;
  ld.shared.u32 %r5, [%r4];
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r5;
  ret;
}";
    let out = words(&run_k(body, 1, 64, 256, vec![]).unwrap());
    for (t, v) in out.iter().enumerate() {
        assert_eq!(*v, if 63 - t < 16 { 1 } else { 2 }, "thread {t}");
    }
}

#[test]
fn a_barrier_that_cannot_complete_is_a_deadlock() {
    let body = ".visible .entry k(.param .u64 out) {
  bar.sync 0, 64;
  ret;
}";
    let e = run_k(body, 1, 32, 4, vec![]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Deadlock, "{e}");
    assert!(e.thread.is_some());
}

#[test]
fn bar_red_popc_and_or() {
    let code = "
  setp.lt.u32 %p1, %r0, 5;
  bar.red.popc.u32 %r1, 0, %p1;
  setp.eq.u32 %p2, %r0, 40;
  bar.red.or.pred %p3, 1, %p2;
  bar.red.and.pred %p4, 2, %p2;
  selp.u32 %r2, 100, 0, %p3;
  selp.u32 %r3, 1000, 0, %p4;
  add.u32 %r4, %r1, %r2;
  add.u32 %r15, %r4, %r3;";
    let out = words(&run_k(&per_thread(code, ""), 1, 64, 256, vec![]).unwrap());
    assert!(out.iter().all(|&v| v == 105), "{out:?}");
}

#[test]
fn an_endless_loop_exhausts_the_budget_at_the_branch() {
    let body = ".visible .entry k(.param .u64 out) {
L:
  bra L;
}";
    let e = run_k(body, 1, 32, 4, vec![]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StepBudget);
    let src = format!("{HEAD}{body}");
    let Some(Site::Ptx(span)) = e.site else { panic!("no site: {e}") };
    assert!(src[span.start as usize..].starts_with("bra L"), "{}", &src[span.start as usize..]);
}

#[test]
fn out_of_bounds_and_misaligned_stores_name_the_thread() {
    let code = "
  mov.u32 %r15, 1;
  setp.eq.u32 %p1, %r0, 3;
  @%p1 st.global.u32 [%rd1+128], %r15;";
    let e = run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Memory);
    assert_eq!(e.thread, Some(([0, 0, 0], [3, 0, 0])));
    let code = "
  mov.u32 %r15, 1;
  st.global.u32 [%rd1+2], %r15;";
    let e = run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap_err();
    assert!(e.message.contains("misaligned"), "{e}");
}

#[test]
fn unmodelled_instructions_are_unsupported_errors() {
    let body = ".visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .b64 %rd1;
  mov.b64 %rd1, 0;
  txq.num_mipmap_levels.b32 %r1, [%rd1];
  ret;
}";
    let e = run_k(body, 1, 32, 4, vec![]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(e.site.is_some());
}

#[test]
fn shuffles_follow_the_lane_formulas() {
    // bfly 1: lane^1; up 3: lane-3 for lanes >= 3, else own value with p false;
    // idx with a segment mask of 8 lanes: the first lane of each segment.
    let code = "
  mul.lo.u32 %r1, %r0, 10;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  shfl.sync.up.b32 %r3|%p1, %r1, 3, 0, -1;
  shfl.sync.idx.b32 %r4, %r1, 0, 0x181f, -1;
  selp.u32 %r5, 1, 0, %p1;
  shl.b32 %r6, %r2, 20;
  shl.b32 %r7, %r3, 10;
  or.b32 %r8, %r6, %r7;
  or.b32 %r8, %r8, %r4;
  shl.b32 %r5, %r5, 31;
  or.b32 %r15, %r8, %r5;";
    let out = words(&run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap());
    for (t, v) in out.iter().enumerate() {
        let t = t as u32;
        let bfly = (t ^ 1) * 10;
        let (up, ok) = if t >= 3 { ((t - 3) * 10, 1) } else { (t * 10, 0) };
        let idx = (t & !7) * 10;
        assert_eq!(*v, (ok << 31) | (bfly << 20) | (up << 10) | idx, "lane {t}");
    }
}

#[test]
fn votes_match_and_redux_over_the_active_lanes() {
    let code = "
  setp.lt.u32 %p1, %r0, 4;
  vote.sync.ballot.b32 %r1, %p1, -1;
  vote.sync.any.pred %p2, %p1, -1;
  vote.sync.all.pred %p3, %p1, -1;
  selp.u32 %r2, 1, 0, %p2;
  selp.u32 %r3, 2, 0, %p3;
  shr.u32 %r4, %r0, 3;
  match.any.sync.b32 %r5, %r4, -1;
  redux.sync.max.u32 %r6, %r0, -1;
  add.u32 %r15, %r1, %r2;
  add.u32 %r15, %r15, %r3;
  xor.b32 %r15, %r15, %r5;
  add.u32 %r15, %r15, %r6;";
    let out = words(&run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap());
    for (t, v) in out.iter().enumerate() {
        let group = 0xffu32 << (8 * (t / 8));
        assert_eq!(*v, ((0xf + 1) ^ group) + 31, "lane {t}");
    }
}

/// `redux.sync` of f32 (PTX ISA): lanes hold tid - 10, lane 7 a NaN. min
/// -10, max 21; `.abs` compares magnitudes (min |0| = +0); `.NaN` makes
/// the NaN win (the canonical 0x7fffffff). Lanes 0-3 report one each.
#[test]
fn float_redux_skips_nans_unless_asked() {
    let code = "
  cvt.rn.f32.u32 %f1, %r0;
  sub.f32 %f1, %f1, 0f41200000;
  setp.eq.u32 %p1, %r0, 7;
  selp.f32 %f1, 0f7FC00000, %f1, %p1;
  redux.sync.min.f32 %f2, %f1, -1;
  redux.sync.max.f32 %f3, %f1, -1;
  redux.sync.min.abs.f32 %f4, %f1, -1;
  redux.sync.max.NaN.f32 %f5, %f1, -1;
  mov.b32 %r15, %f2;
  setp.eq.u32 %p2, %r0, 1;
  mov.b32 %r1, %f3;
  selp.b32 %r15, %r1, %r15, %p2;
  setp.eq.u32 %p2, %r0, 2;
  mov.b32 %r1, %f4;
  selp.b32 %r15, %r1, %r15, %p2;
  setp.eq.u32 %p2, %r0, 3;
  mov.b32 %r1, %f5;
  selp.b32 %r15, %r1, %r15, %p2;";
    // f32 reductions need PTX 8.6 and sm_100a: `run_k`'s work with that head.
    let src = format!(".version 8.8\n.target sm_100a\n.address_size 64\n{}", per_thread(code, ""));
    let module = crate::ptx::parse(&src).unwrap_or_else(|e| panic!("parse: {}", e.render("t.ptx", &src)));
    crate::ptx::check(&module, &Default::default()).unwrap_or_else(|e| panic!("check: {}", e.render("t.ptx", &src)));
    let spec = LaunchSpec { kernel: "k".into(), grid: [1, 1, 1], block: [32, 1, 1], shared_bytes: 0, params: vec![ParamSpec::Buffer { bytes: 128, fill: Fill::Zero, output: true }], textures: Vec::new() };
    let o = run(&module, &spec, &Options { step_budget: 100_000 }).expect("runs");
    let out = words(o.launch.buffer_bytes(0).expect("output"));
    assert_eq!(out[..4], [0xc120_0000, 0x41a8_0000, 0x0000_0000, 0x7fff_ffff]);
}

#[test]
fn recursive_calls_with_param_space_arguments() {
    let body = ".func (.param .b32 ret) fib(.param .b32 n) {
  .reg .b32 %r<8>; .reg .pred %p1;
  ld.param.b32 %r1, [n];
  setp.lt.u32 %p1, %r1, 2;
  @%p1 bra BASE;
  sub.u32 %r2, %r1, 1;
  { .param .b32 a; .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), fib, (a);
    ld.param.b32 %r3, [r]; }
  sub.u32 %r2, %r1, 2;
  { .param .b32 a; .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), fib, (a);
    ld.param.b32 %r4, [r]; }
  add.u32 %r5, %r3, %r4;
  st.param.b32 [ret], %r5;
  ret;
BASE:
  st.param.b32 [ret], %r1;
  ret;
}
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  .param .b32 a; .param .b32 r;
  st.param.b32 [a], %r0;
  call (r), fib, (a);
  ld.param.b32 %r1, [r];
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r1;
  ret;
}";
    let out = words(&run_k(body, 1, 16, 64, vec![]).unwrap());
    let fib = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610];
    assert_eq!(out, fib);
}

#[test]
fn directed_rounding_of_f32_arithmetic() {
    // 1 + 2^-30 (0f30800000): RN and RZ and RM give 1, RP the next float up;
    // -1 - 2^-30 under RM gives the next float down.
    let code = "
  and.b32 %r1, %r0, 3;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f30800000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 add.rn.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 add.rz.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 add.rp.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 3;
  neg.f32 %f4, %f1;
  neg.f32 %f5, %f2;
  @%p1 add.rm.f32 %f3, %f4, %f5;
  mov.b32 %r15, %f3;";
    let out = words(&run_k(&per_thread(code, ""), 1, 4, 16, vec![]).unwrap());
    assert_eq!(out, [0x3f80_0000, 0x3f80_0000, 0x3f80_0001, 0xbf80_0001]);
}

#[test]
fn nan_rules_of_add_min_and_max() {
    let code = "
  and.b32 %r1, %r0, 3;
  mov.b32 %f1, 0x7fc00001;
  mov.f32 %f2, 0f3F800000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 add.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 min.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 min.NaN.f32 %f3, %f1, %f2;
  setp.eq.u32 %p1, %r1, 3;
  mov.b32 %f4, 0x80000000;
  mov.b32 %f5, 0x00000000;
  @%p1 max.f32 %f3, %f4, %f5;
  mov.b32 %r15, %f3;";
    let out = words(&run_k(&per_thread(code, ""), 1, 4, 16, vec![]).unwrap());
    assert_eq!(out, [0x7fff_ffff, 0x3f80_0000, 0x7fff_ffff, 0x0000_0000]);
}

#[test]
fn float_to_int_conversions_saturate_and_round() {
    let code = "
  and.b32 %r1, %r0, 3;
  mov.b32 %f1, 0x4f32d05e;
  mov.b32 %f2, 0x7fc00000;
  mov.f32 %f3, 0fBFC00000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 cvt.rzi.s32.f32 %r15, %f1;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 cvt.rzi.s32.f32 %r15, %f2;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 cvt.rni.s32.f32 %r15, %f3;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 cvt.rzi.u32.f32 %r15, %f3;";
    // 0x4f32d05e = 3e9 > i32::MAX; NaN → 0; -1.5 rounds to even: -2; negative → unsigned 0.
    let out = words(&run_k(&per_thread(code, ""), 1, 4, 16, vec![]).unwrap());
    assert_eq!(out, [0x7fff_ffff, 0, (-2i32) as u32, 0]);
}

#[test]
fn integer_corner_cases() {
    let code = "
  and.b32 %r1, %r0, 7;
  mov.u32 %r2, 0x80000000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mul.hi.s32 %r15, %r2, %r2;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 bfind.u32 %r15, 0;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 bfe.s32 %r15, 0x00000f00, 8, 4;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 prmt.b32 %r15, 0x33221100, 0x77665544, 0x7531;
  setp.eq.u32 %p1, %r1, 4;
  @%p1 shr.s32 %r15, %r2, 40;
  setp.eq.u32 %p1, %r1, 5;
  @%p1 add.sat.s32 %r15, %r2, -1;
  setp.eq.u32 %p1, %r1, 6;
  @%p1 brev.b32 %r15, 1;
  setp.eq.u32 %p1, %r1, 7;
  @%p1 clz.b32 %r15, 0x00010000;";
    let out = words(&run_k(&per_thread(code, ""), 1, 8, 32, vec![]).unwrap());
    // (-2^31)^2 >> 32 = 2^30; no bit: all ones; field 0xf sign-extended; bytes
    // 1,3,5,7 of b:a; arithmetic shift saturates at 31; add saturates at i32::MIN.
    assert_eq!(out, [0x4000_0000, 0xffff_ffff, 0xffff_ffff, 0x7755_3311, 0xffff_ffff, 0x8000_0000, 0x8000_0000, 15]);
}

#[test]
fn atomics_from_every_thread_and_cas() {
    let body = ".visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r1, [%rd1], 1;
  atom.global.inc.u32 %r2, [%rd1+4], 9;
  atom.global.max.s32 %r3, [%rd1+8], %r1;
  atom.global.cas.b32 %r4, [%rd1+12], 0, 77;
  red.global.add.f32 [%rd1+16], 0f3F000000;
  ret;
}";
    let out = words(&run_k(body, 2, 64, 20, vec![]).unwrap());
    // 128 adds; inc wraps at 9 every 10 increments: 128 % 10; max of the old
    // values 0..127; the first cas stores 77; 128 × 0.5.
    assert_eq!(out, [128, 8, 127, 77, 64.0f32.to_bits()]);
}

#[test]
fn generic_addresses_of_shared_and_local_memory() {
    let code = "
  .shared .align 4 .u32 sv[32];
  .local .align 4 .u32 lv[2];
  mov.u64 %rd4, sv;
  cvta.shared.u64 %rd4, %rd4;
  mul.wide.u32 %rd5, %r0, 4;
  add.s64 %rd4, %rd4, %rd5;
  add.u32 %r1, %r0, 5;
  st.u32 [%rd4], %r1;
  mov.u64 %rd6, lv;
  cvta.local.u64 %rd6, %rd6;
  st.u32 [%rd6+4], %r0;
  ld.local.u32 %r2, [lv+4];
  bar.sync 0;
  mov.u32 %r3, sv;
  shl.b32 %r4, %r0, 2;
  add.u32 %r3, %r3, %r4;
  ld.shared.u32 %r5, [%r3];
  isspacep.shared %p1, %rd4;
  selp.u32 %r6, 1000, 0, %p1;
  add.u32 %r15, %r5, %r2;
  add.u32 %r15, %r15, %r6;";
    let out = words(&run_k(&per_thread(code, ""), 1, 32, 128, vec![]).unwrap());
    for (t, v) in out.iter().enumerate() {
        assert_eq!(*v, 1000 + 2 * t as u32 + 5, "thread {t}");
    }
}

#[test]
fn launch_errors_are_values() {
    let body = ".visible .entry k(.param .u64 out, .param .u32 n) { ret; }";
    let e = run_k(body, 1, 32, 4, vec![]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Launch);
    let e = run_k(body, 1, 32, 4, vec![ParamSpec::Scalar { kind: ScalarKind::U64, bits: 1 }]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Launch, "an 8-byte argument for a 4-byte parameter");
    let src = format!("{HEAD}{body}");
    let module = crate::ptx::parse(&src).unwrap();
    let spec = LaunchSpec { kernel: "nope".into(), grid: [1; 3], block: [1; 3], shared_bytes: 0, params: vec![], textures: Vec::new() };
    assert_eq!(run(&module, &spec, &Options::default()).unwrap_err().kind, ErrorKind::Launch);
}

#[test]
fn packed_half_comparisons_and_tf32() {
    // setp on f16x2 writes the low half's result to p and the high half's
    // to q; cvt.rna.tf32.f32 keeps 10 mantissa bits, ties away from zero.
    let code = "
  mov.b32 %b1, 0x3c004000;
  mov.b32 %b2, 0x3e003e00;
  setp.lt.f16x2 %p1|%p2, %b1, %b2;
  selp.u32 %r3, 1, 0, %p1;
  selp.u32 %r4, 2, 0, %p2;
  mov.b32 %f1, 0x3f801000;
  cvt.rna.tf32.f32 %b5, %f1;
  mov.b32 %r5, %b5;
  add.u32 %r15, %r3, %r4;
  add.u32 %r15, %r15, %r5;";
    let out = words(&run_k(&per_thread(code, ".reg .b32 %b<8>;"), 1, 1, 4, vec![]).unwrap());
    // Low halves: 2.0 < 1.5 false; high: 1.0 < 1.5 true. 0x3f801000 is
    // exactly halfway between 0x3f800000 and 0x3f802000: away from zero.
    assert_eq!(out, [2 + 0x3f80_2000]);
}

#[test]
fn shuffles_from_exited_lanes_read_zero() {
    // Lanes 16..31 return before the shuffle; lanes below read lane+16.
    let body = ".visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p1;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  setp.ge.u32 %p1, %r0, 16;
  @%p1 ret;
  add.u32 %r1, %r0, 1;
  shfl.sync.down.b32 %r2, %r1, 16, 31, 0xffff;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r2;
  ret;
}";
    let out = words(&run_k(body, 1, 32, 64, vec![]).unwrap());
    assert_eq!(&out[..16], &[0; 16]);
}

#[test]
fn cvt_sat_flushes_nan_and_negative_zero_to_positive_zero() {
    // PTX ISA (cvt): `.sat` limits a float result to [0.0, 1.0] and flushes
    // NaN results to +0.0; libdevice documents __saturatef's interval as
    // [+0.0, 1.0], so -0.0 saturates to +0.0 too.
    let code = "
  and.b32 %r1, %r0, 3;
  mov.b32 %f1, 0x7fc00000;
  mov.b32 %f2, 0x80000000;
  mov.f32 %f3, 0f40000000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 cvt.sat.f32.f32 %f4, %f1;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 cvt.sat.f32.f32 %f4, %f2;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 cvt.sat.f32.f32 %f4, %f3;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 mov.b32 %f4, 0xffffffff;
  mov.b32 %r15, %f4;";
    let out = words(&run_k(&per_thread(code, ""), 1, 4, 16, vec![]).unwrap());
    assert_eq!(out, [0, 0, 0x3f80_0000, 0xffff_ffff]);
}

/// One thread's `%r15` after `code` (see [`per_thread`]).
fn one_word(code: &str) -> u32 {
    words(&run_k(&per_thread(code, ""), 1, 1, 4, vec![]).unwrap())[0]
}

/// Findings of the differential fuzzer where the PTX interpreter was wrong
/// and both cubins right; expectations from the PTX ISA.
#[test]
fn testp_normal_counts_zeros_as_normal() {
    // testp: "positive and negative zero are considered normal numbers";
    // a subnormal, an infinity and a NaN are not. Bit k of %r15 is case k.
    let code = "
  mov.u32 %r15, 0;
  mov.b32 %f1, 0x00000000; testp.normal.f32 %p1, %f1; selp.u32 %r1, 1, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b32 %f1, 0x80000000; testp.normal.f32 %p1, %f1; selp.u32 %r1, 2, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b32 %f1, 0x3f800000; testp.normal.f32 %p1, %f1; selp.u32 %r1, 4, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b32 %f1, 0x00000001; testp.normal.f32 %p1, %f1; selp.u32 %r1, 8, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b32 %f1, 0x7f800000; testp.normal.f32 %p1, %f1; selp.u32 %r1, 16, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b32 %f1, 0x7fc00000; testp.normal.f32 %p1, %f1; selp.u32 %r1, 32, 0, %p1; or.b32 %r15, %r15, %r1;
  mov.b64 %fd1, 0x8000000000000000; testp.normal.f64 %p1, %fd1; selp.u32 %r1, 64, 0, %p1; or.b32 %r15, %r15, %r1;";
    assert_eq!(one_word(code), 1 | 2 | 4 | 64);
}

#[test]
fn signed_float_to_int_conversions_sign_extend_into_wider_registers() {
    // -3.5 truncated is -3; an .s8 result in a .b16 register is
    // sign-extended to the register ("Operand Size Exceeding
    // Instruction-Type Size"): 0xfffd. 200.0 saturates to 127 (0x007f).
    let code = "
  mov.b32 %f1, 0xc0600000;
  cvt.rzi.s8.f32 %h1, %f1;
  mov.b32 %f2, 0x43480000;
  cvt.rni.sat.s8.f32 %h2, %f2;
  cvt.u32.u16 %r1, %h1;
  cvt.u32.u16 %r2, %h2;
  shl.b32 %r2, %r2, 16;
  or.b32 %r15, %r1, %r2;";
    assert_eq!(one_word(code), 0x007f_fffd);
}

#[test]
fn sat_arithmetic_flushes_nan_operands_to_zero() {
    // .sat: "NaN results are flushed to +0.0"; a NaN operand gives a NaN
    // result before saturation. f16 0x7e01 and f32 0x7fc00001 are NaNs.
    let code = "
  mov.b32 %f1, 0x7fc00001;
  add.rn.sat.f32 %f2, %f1, 0f3F800000;
  fma.rn.sat.f32 %f3, %f1, 0f3F800000, 0f3F800000;
  mov.b16 %h1, 0x7e01;
  mul.rn.sat.f16 %h2, %h1, %h1;
  mov.b32 %r1, %f2;
  mov.b32 %r2, %f3;
  cvt.u32.u16 %r3, %h2;
  or.b32 %r15, %r1, %r2;
  or.b32 %r15, %r15, %r3;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn bfi_b64_keeps_the_base_high_half() {
    // bfi.b64 d, a, b, 8, 8: b with bits 8..15 replaced by a's low byte
    // (PTX ISA, bfi); b's upper 32 bits stay.
    let code = "
  mov.b64 %rd4, 0x11223344556677AB;
  mov.b64 %rd5, 0x1122334455667788;
  bfi.b64 %rd6, %rd4, %rd5, 8, 8;
  mov.b64 {%r1, %r2}, %rd6;
  xor.b32 %r15, %r1, 0x5566AB88;
  xor.b32 %r2, %r2, 0x11223344;
  or.b32 %r15, %r15, %r2;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn f64_overflow_under_directed_rounding_is_the_largest_finite() {
    // 1e308 * 10 overflows: .rz gives 0x7fefffffffffffff (IEEE 754
    // rounding, which the PTX ISA's .rz/.rm/.rp follow), .rn infinity.
    let code = "
  mov.b64 %fd1, 0d7FE1CCF385EBC8A0;
  mul.rz.f64 %fd2, %fd1, 0d4024000000000000;
  mul.rn.f64 %fd3, %fd1, 0d4024000000000000;
  mov.b64 {%r1, %r2}, %fd2;
  mov.b64 {%r3, %r4}, %fd3;
  xor.b32 %r1, %r1, 0xffffffff;
  xor.b32 %r2, %r2, 0x7fefffff;
  xor.b32 %r4, %r4, 0x7ff00000;
  or.b32 %r15, %r1, %r2;
  or.b32 %r15, %r15, %r3;
  or.b32 %r15, %r15, %r4;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn rounding_a_half_nan_to_an_integer_gives_the_canonical_nan() {
    // PTX leaves the payload open; the interpreter's arithmetic gives the
    // canonical NaN (0x7fff), as ptxas's FRND.F16 does for
    // cvt.rzi.f16.f16 in the SASS interpreter.
    let code = "
  mov.b16 %h1, 0xfd0e;
  cvt.rzi.f16.f16 %h2, %h1;
  cvt.u32.u16 %r15, %h2;";
    assert_eq!(one_word(code), 0x7fff);
}

#[test]
fn bfe_s64_past_the_msb_fills_with_the_sign() {
    // bfe.s64 d, a, 43, 54: bits 43..63 of a (21 bits) at the bottom, and
    // every bit above them the sign bit a[63] (pos+len-1 = 96 is past the
    // msb) (PTX ISA, bfe). a = 0xc000_0800_0000_0000: the field is
    // 0x18_0001 (a[63], a[62] and a[43]), sign 1, so d = 0xffff_ffff_fff8_0001;
    // .u64 fills with 0: 0x18_0001.
    let code = "
  mov.b64 %rd4, 0xc000080000000000;
  bfe.s64 %rd5, %rd4, 43, 54;
  bfe.u64 %rd6, %rd4, 43, 54;
  mov.b64 {%r1, %r2}, %rd5;
  mov.b64 {%r3, %r4}, %rd6;
  xor.b32 %r1, %r1, 0xfff80001;
  xor.b32 %r2, %r2, 0xffffffff;
  xor.b32 %r3, %r3, 0x00180001;
  or.b32 %r15, %r1, %r2;
  or.b32 %r15, %r15, %r3;
  or.b32 %r15, %r15, %r4;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn cvt_ftz_flushes_only_f32_subnormals() {
    // f16 0x0001 (2^-24) is an f16 subnormal and a normal f32 (0x33800000):
    // cvt.ftz.f32.f16 keeps it; an f32 subnormal (0x00000001) to f64 ...
    // is not an f32 result, but an f32 input: flushed to +0.
    let code = "
  mov.b16 %h1, 0x0001;
  cvt.ftz.f32.f16 %f1, %h1;
  mov.b32 %f2, 0x00000001;
  cvt.ftz.f64.f32 %fd1, %f2;
  mov.b32 %r1, %f1;
  mov.b64 {%r2, %r3}, %fd1;
  xor.b32 %r15, %r1, 0x33800000;
  or.b32 %r15, %r15, %r2;
  or.b32 %r15, %r15, %r3;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn exact_zero_differences_are_negative_under_rm() {
    // x - x is exactly zero: -0 under .rm, +0 under .rz (IEEE 754, 6.3).
    let code = "
  mov.b32 %f1, 0x3fc00000;
  sub.rm.f32 %f2, %f1, %f1;
  sub.rz.f32 %f3, %f1, %f1;
  mov.b32 %r1, %f2;
  mov.b32 %r2, %f3;
  xor.b32 %r15, %r1, 0x80000000;
  or.b32 %r15, %r15, %r2;";
    assert_eq!(one_word(code), 0);
}

#[test]
fn abs_and_neg_of_a_half_nan_give_the_canonical_nan() {
    // The NaN is the implementation's choice (PTX ISA); the interpreter
    // takes the GPU's canonical 0x7fff, which ptxas's code gives (as for
    // f32's 0x7fffffff). A number only changes its sign bit.
    let code = "
  mov.b16 %h1, 0xfef3;
  abs.f16 %h2, %h1;
  neg.f16 %h3, %h1;
  mov.b16 %h1, 0x3c00;
  neg.f16 %h1, %h1;
  cvt.u32.u16 %r1, %h2;
  cvt.u32.u16 %r2, %h3;
  cvt.u32.u16 %r3, %h1;
  xor.b32 %r1, %r1, 0x7fff;
  xor.b32 %r2, %r2, 0x7fff;
  xor.b32 %r3, %r3, 0xbc00;
  or.b32 %r15, %r1, %r2;
  or.b32 %r15, %r15, %r3;";
    assert_eq!(one_word(code), 0);
}
