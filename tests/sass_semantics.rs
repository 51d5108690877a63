//! Single SASS instructions whose meaning the corpus comparison pinned
//! down: small PTX kernels, compiled by the reference ptxas for sm_90, run
//! in the SASS interpreter, with expected outputs worked out by hand.

mod common;

use ptx2sass::internals::interp::{sass, LaunchSpec};

/// Compiles `ptx` for sm_90 and runs it in the SASS interpreter under
/// `spec`; `None` when ptxas is not installed.
fn run(name: &str, ptx: &str, spec: &str) -> Option<String> {
    run_on(90, name, ptx, spec)
}

/// [`run`] for another SM.
fn run_on(sm: u16, name: &str, ptx: &str, spec: &str) -> Option<String> {
    run_with(sm, name, ptx, spec, sass::HazardCheck::Fail)
}

/// [`run`] without hazard checking.
fn run_unchecked(name: &str, ptx: &str, spec: &str) -> Option<String> {
    run_with(90, name, ptx, spec, sass::HazardCheck::Off)
}

/// [`run_on`] with the hazard checking chosen.
fn run_with(sm: u16, name: &str, ptx: &str, spec: &str, hazards: sass::HazardCheck) -> Option<String> {
    let ptxas = ptx2sass::internals::reference::require("ptxas", name)?;
    let dir = std::env::temp_dir().join(format!("ptx2sass-sass-semantics-{}-{name}-{sm}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let (src, cubin) = (dir.join("k.ptx"), dir.join("k.cubin"));
    std::fs::write(&src, ptx).expect("write ptx");
    assert!(common::compile_cubin(&ptxas, sm, &src, &cubin), "ptxas rejected the test kernel");
    let bytes = std::fs::read(&cubin).expect("cubin");
    let _ = std::fs::remove_dir_all(&dir);
    let spec = LaunchSpec::from_json(spec).expect("spec");
    let options = sass::Options { hazards, ..Default::default() };
    let out = sass::run(&bytes, &spec, &options).unwrap_or_else(|e| panic!("SASS interpreter: {e}"));
    Some(out.launch.outputs_text())
}

/// [`run_on`] of `ptx` retargeted (its `.target` line) to each of `sms`:
/// each output must be `want`.
fn assert_outputs_on_each(sms: &[u16], name: &str, ptx: &str, spec: &str, want: &str) {
    for &sm in sms {
        let ptx: String = ptx.lines().map(|l| if l.starts_with(".target ") { format!(".target sm_{sm}\n") } else { format!("{l}\n") }).collect();
        let Some(out) = run_on(sm, name, &ptx, spec) else { return };
        assert_eq!(out, want, "sm_{sm}");
    }
}

#[test]
fn atoms_popc_inc_counts_each_address_separately() {
    // 64 threads each add 1 to bins[tid % 3]; ptxas turns the `red` into
    // ATOMS.POPC.INC, whose lanes name three different words. Threads
    // 0..63: 22 have tid % 3 == 0, 21 each have 1 and 2.
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry hist3(.param .u64 out) {
  .shared .align 16 .b32 bins[4];
  .reg .b32 %r<9>; .reg .b64 %rd<2>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  st.shared.v4.u32 [bins], {0, 0, 0, 0};
SKIP:
  bar.sync 0;
  rem.u32 %r2, %r1, 3;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, bins;
  add.u32 %r4, %r4, %r3;
  red.shared.add.u32 [%r4], 1;
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [bins];
  st.global.v4.u32 [%rd1], {%r5, %r6, %r7, %r8};
DONE:
  ret;
}
";
    let spec = r#"{"kernel": "hist3", "grid": [1, 1, 1], "block": [64, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}]}"#;
    let Some(out) = run("atoms_popc_inc", ptx, spec) else { return };
    // 22, 21, 21, 0 as little-endian u32 words.
    assert_eq!(out, "param 0: 16000000150000001500000000000000\n");
}

#[test]
fn prmt_modes_and_fset_bf() {
    // Inputs: a = 0x33221100, b = 0x77665544 (byte i of {b, a} is 0x11 * i),
    // the selectors 1, 1, 2, 1, 2, 3 and the floats 1.0, 2.0. ptxas emits
    // PRMT.F4E ... PRMT.RC16 with the selector register and FSET.BF for
    // `set.f32.f32`. The expected bytes follow the mode table of the PTX
    // ISA ("prmt"): with selector s, f4e picks bytes s..s+3; b4e s, s-1,
    // s-2, s-3 (mod 8); rc8 s four times; ecl max(k, s); ecr min(k, s);
    // rc16 bytes 2(s&1) and 2(s&1)+1, twice.
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry modes(.param .u64 out, .param .u64 in) {
  .reg .b32 %r<16>; .reg .f32 %f<4>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];
  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd2+16];
  ld.global.v2.f32 {%f1, %f2}, [%rd2+32];
  prmt.b32.f4e %r9, %r1, %r2, %r3;
  prmt.b32.b4e %r10, %r1, %r2, %r4;
  prmt.b32.rc8 %r11, %r1, %r2, %r5;
  prmt.b32.ecl %r12, %r1, %r2, %r6;
  prmt.b32.ecr %r13, %r1, %r2, %r7;
  prmt.b32.rc16 %r14, %r1, %r2, %r8;
  st.global.v4.u32 [%rd1], {%r9, %r10, %r11, %r12};
  st.global.v2.u32 [%rd1+16], {%r13, %r14};
  set.lt.f32.f32 %f3, %f1, %f2;
  st.global.f32 [%rd1+24], %f3;
  set.gt.f32.f32 %f3, %f1, %f2;
  st.global.f32 [%rd1+28], %f3;
  ret;
}
";
    // a, b, selectors 1 1 2 1 / 2 3, then 1.0f and 2.0f (little-endian words).
    let input = ["0011223344556677", "01000000", "01000000", "02000000", "01000000", "02000000", "03000000", "0000803f", "00000040"].concat();
    let spec = format!(
        r#"{{"kernel": "modes", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 32, "fill": "zero", "output": true}},
      {{"kind": "buffer", "bytes": 40, "fill": "hex", "hex": "{input}", "output": false}}]}}"#
    );
    let Some(out) = run("prmt_modes_fset", ptx, &spec) else { return };
    // f4e 0x44332211, b4e 0x66770011, rc8 0x22222222, ecl 0x33221111,
    // ecr 0x22221100, rc16 0x33223322, then 1.0 (1 < 2) and 0.0.
    let words = ["11223344", "11007766", "22222222", "11112233", "00112222", "22332233", "0000803f", "00000000"];
    assert_eq!(out, format!("param 0: {}\n", words.concat()));
}

#[test]
fn generic_f16x2_atomic_adds_on_shared_and_global_addresses() {
    // Lanes 0-15 add (2.0, 1.0) to a shared word through a generic address,
    // lanes 16-31 to a global word: ptxas emits `ATOM.E.ADD.F16x2 P0, …`,
    // which acts on global addresses only (P0 set), then QSPC.E.S and an
    // ATOMS.CAST.SPIN loop for the shared ones. The shared word starts at
    // (1.0, 1.0), the global one at zero; all sums are exact in f16.
    let ptx = ".version 8.0
.target sm_75
.address_size 64
.visible .entry hadd(.param .u64 out, .param .u64 g) {
  .shared .align 4 .b32 s[1];
  .reg .b32 %r<6>; .reg .b64 %rd<8>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [g];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  st.shared.b32 [s], 0x3c003c00;
SKIP:
  bar.sync 0;
  mov.u64 %rd2, s;
  cvta.shared.u64 %rd3, %rd2;
  setp.lt.u32 %p2, %r1, 16;
  selp.b64 %rd5, %rd3, %rd4, %p2;
  mov.b32 %r2, 0x3c004000;
  atom.add.noftz.f16x2 %r3, [%rd5], %r2;
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.b32 %r4, [s];
  st.global.b32 [%rd1], %r4;
DONE:
  ret;
}
";
    let spec = r#"{"kernel": "hadd", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 4, "fill": "zero", "output": true},
      {"kind": "buffer", "bytes": 4, "fill": "zero", "output": true}]}"#;
    for sm in [75, 80, 90, 100, 120] {
        let Some(out) = run_on(sm, "generic_f16x2_atomic", ptx, spec) else { return };
        // Shared (33.0, 17.0) = 0x5020, 0x4c40; global (32.0, 16.0) = 0x5000, 0x4c00.
        assert_eq!(out, "param 0: 2050404c\nparam 1: 0050004c\n", "sm_{sm}");
    }
}

#[test]
fn three_way_and_packed_integer_min_max() {
    // ptxas 13.5 folds these into VIMNMX3 (max of three, min.u32 of three),
    // VIADDMNMX (min(a + b, c), max.u32(c - d, b)), VIMNMX.U16x2/.S16x2 and
    // .RELU forms. Inputs a = 0xfffe0005 (halves 5 and -2), b = 0x00030007,
    // c = 0x80000000 (halves 0 and -32768), d = 0x0001fff0 (halves -16 and 1).
    // By hand: max.s32(a, b, c) = b; min.u32(a, b, d) = d;
    // min.s32(a + b = 0x0001000c, c) = c; min.u16x2(a, d) = (5, 1);
    // max.s16x2(a, d) = (5, 1); max.relu.s32(a, c) = 0 (both negative);
    // max.relu.s16x2(a, c) = (5, 0) (the high max -2 clamped);
    // max.u32(c - d = 0x7ffe0010, b) = 0x7ffe0010.
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry mm(.param .u64 out, .param .u64 in) {
  .reg .b32 %r<20>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];
  max.s32 %r5, %r1, %r2;
  max.s32 %r5, %r5, %r3;
  min.u32 %r6, %r1, %r2;
  min.u32 %r6, %r6, %r4;
  add.s32 %r7, %r1, %r2;
  min.s32 %r7, %r7, %r3;
  min.u16x2 %r8, %r1, %r4;
  max.s16x2 %r9, %r1, %r4;
  max.relu.s32 %r10, %r1, %r3;
  max.relu.s16x2 %r11, %r1, %r3;
  sub.s32 %r12, %r3, %r4;
  max.u32 %r12, %r12, %r2;
  st.global.v4.u32 [%rd1], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd1+16], {%r9, %r10, %r11, %r12};
  ret;
}
";
    let spec = r#"{"kernel": "mm", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 32, "fill": "zero", "output": true},
      {"kind": "buffer", "bytes": 16, "fill": "hex", "hex": "0500feff0700030000000080f0ff0100", "output": false}]}"#;
    let Some(out) = run("min_max3", ptx, spec) else { return };
    assert_eq!(out, "param 0: 07000300f0ff010000000080050001000500010000000000050000001000fe7f\n");
}

#[test]
fn dsetp_min_max_pick_the_operand_ptxas_selects() {
    // ptxas 13.5 builds min.f64 and max.f64 from DSETP.MIN / DSETP.MAX
    // (two predicates: which operand to take, and whether both are NaN,
    // when it quiets b), FSEL/SEL and LOP3. By hand (PTX ISA, min/max):
    // min/max(1, 2) = 1, 2; min/max(-0, +0) and (+0, -0) = -0, +0; a NaN
    // loses to 3 either way; two quiet NaNs give the quiet NaN.
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry mm(.param .u64 out, .param .u64 in) {
  .reg .b32 %r<3>; .reg .b64 %rd<6>; .reg .f64 %fd<5>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  add.s64 %rd5, %rd1, %rd3;
  ld.global.v2.f64 {%fd1, %fd2}, [%rd4];
  min.f64 %fd3, %fd1, %fd2;
  max.f64 %fd4, %fd1, %fd2;
  st.global.v2.f64 [%rd5], {%fd3, %fd4};
  ret;
}
";
    let input = "000000000000f03f000000000000004000000000000000800000000000000000000000000000000000000000000000800000\
                 00000000f87f00000000000008400000000000000840000000000000f87f000000000000f87f000000000000f87f";
    let spec = format!(
        r#"{{"kernel": "mm", "grid": [1, 1, 1], "block": [6, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 96, "fill": "zero", "output": true}},
      {{"kind": "buffer", "bytes": 96, "fill": "hex", "hex": "{}", "output": false}}]}}"#,
        input.split_whitespace().collect::<String>()
    );
    // ptxas reads DSETP's predicates sooner than the latency tables allow
    // (a known false alarm of the hazard checker): run without it.
    let Some(out) = run_unchecked("dsetp_min_max", &ptx, &spec) else { return };
    let want = "000000000000f03f000000000000004000000000000000800000000000000000000000000000008000000000000000000000\
                000000000840000000000000084000000000000008400000000000000840000000000000f87f000000000000f87f";
    assert_eq!(out, format!("param 0: {}\n", want.split_whitespace().collect::<String>()));
}

#[test]
fn hmnmx2_xorsign_takes_the_sign_from_the_sources_before_abs() {
    // `min.xorsign.abs.f16x2 d, a, {4, 4}`: ptxas emits `HMNMX2.XORSIGN
    // R, |R|, 4, 4, PT` on sm_90 (two f16 immediates). Per half (PTX ISA,
    // "min"): the magnitude min(|a|, 4), the sign a's sign xor 4's (+).
    // a's halves, low first: -2.0 (0xc000), 8.0 (0x4800); then -6.0
    // (0xc600), -0.5 (0xb800). Expected: -2.0, 4.0; then -4.0, -0.5.
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry xs(.param .u64 out, .param .u64 in) {
  .reg .b32 %r<6>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.v2.b32 {%r1, %r2}, [%rd2];
  mov.b32 %r3, 0x44004400;
  min.xorsign.abs.f16x2 %r4, %r1, %r3;
  min.xorsign.abs.f16x2 %r5, %r2, %r3;
  st.global.v2.b32 [%rd1], {%r4, %r5};
  ret;
}
";
    let spec = r#"{"kernel": "xs", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 8, "fill": "zero", "output": true},
      {"kind": "buffer", "bytes": 8, "fill": "hex", "hex": "00c0004800c600b8", "output": false}]}"#;
    let Some(out) = run("hmnmx2_xorsign", ptx, spec) else { return };
    assert_eq!(out, "param 0: 00c0004400c400b8\n");
}

#[test]
fn hfma2_relu_clamps_negatives_to_zero_and_keeps_nan() {
    // `add.rn.f16 x, 0, x` then `max.NaN.f16 d, x, 0`: ptxas 13.5 joins
    // each pair into `HFMA2.RELU R, R, 1, 1, RZ.H0_H0` (sm_80 on). PTX
    // gives max.NaN of the sum and 0: +0 for a negative number or a zero,
    // the canonical NaN 0x7fff for a NaN, the number itself otherwise.
    // Halves in: -2.0, 8.0, a NaN (0xfe01), -0; 3.0, -2^-24 (0x8001),
    // +inf, -inf.
    let ptx = ".version 8.8
.target sm_80
.address_size 64
.visible .entry rl(.param .u64 out, .param .u64 in) {
  .reg .b16 %h<10>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.v4.b16 {%h0, %h1, %h2, %h3}, [%rd2];
  ld.global.v4.b16 {%h4, %h5, %h6, %h7}, [%rd2+8];
  mov.b16 %h9, 0;
  add.rn.f16 %h0, %h9, %h0; max.NaN.f16 %h0, %h0, %h9;
  add.rn.f16 %h1, %h9, %h1; max.NaN.f16 %h1, %h1, %h9;
  add.rn.f16 %h2, %h9, %h2; max.NaN.f16 %h2, %h2, %h9;
  add.rn.f16 %h3, %h9, %h3; max.NaN.f16 %h3, %h3, %h9;
  add.rn.f16 %h4, %h9, %h4; max.NaN.f16 %h4, %h4, %h9;
  add.rn.f16 %h5, %h9, %h5; max.NaN.f16 %h5, %h5, %h9;
  add.rn.f16 %h6, %h9, %h6; max.NaN.f16 %h6, %h6, %h9;
  add.rn.f16 %h7, %h9, %h7; max.NaN.f16 %h7, %h7, %h9;
  st.global.v4.b16 [%rd1], {%h0, %h1, %h2, %h3};
  st.global.v4.b16 [%rd1+8], {%h4, %h5, %h6, %h7};
  ret;
}
";
    let spec = r#"{"kernel": "rl", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true},
      {"kind": "buffer", "bytes": 16, "fill": "hex", "hex": "00c0004801fe008000420180007c00fc", "output": false}]}"#;
    assert_outputs_on_each(&[80, 89, 90, 100, 120], "hfma2_relu", ptx, spec, "param 0: 00000048ff7f000000420000007c0000\n");
}

#[test]
fn packed_half_f32_sources_convert_toward_zero() {
    // sm_75's `cvt.rz.f16.f32` is `HADD2 R, R.F32, -RZ.H0_H0` (ptxas 13.5):
    // the `.F32` source is one f32 value converted to f16 toward zero.
    // Inputs 1 + 3·2^-12 (0x3f801800), its negation, 70000.0 (0x4788b800)
    // and 65519.0 (0x477fef00): toward zero 1.0 (0x3c00), -1.0 (0xbc00),
    // and the largest finite f16 65504 (0x7bff) twice, where the nearest
    // would give 0x3c01, 0xbc01, infinity (0x7c00) and 0x7bff.
    let ptx = ".version 6.4
.target sm_75
.address_size 64
.visible .entry cvt_rz(.param .u64 in, .param .u64 out) {
  .reg .b16 %h<2>; .reg .f32 %f<2>; .reg .b32 %r<2>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  cvt.rz.f16.f32 %h1, %f1;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd5, %rd2, %rd3;
  st.global.b16 [%rd5], %h1;
  ret;
}
";
    let spec = r#"{"kernel": "cvt_rz", "grid": [1, 1, 1], "block": [4, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "hex", "hex": "0018803f001880bf00b8884700ef7f47", "output": false},
      {"kind": "buffer", "bytes": 8, "fill": "zero", "output": true}]}"#;
    let Some(out) = run_on(75, "packed_half_f32_sources", ptx, spec) else { return };
    assert_eq!(out, "param 1: 003c00bcff7bff7b\n");
}

#[test]
fn uniform_float_ops_of_sm120() {
    // A float loop over kernel parameters, which ptxas 13.5 keeps in the
    // uniform datapath on sm_120: `UFADD UR4, |UR4|, -URZ`, `UFADD UR4, UR4,
    // UR8`, `UFFMA UR5, |UR4|, UR9, 1.5`, `UFMUL UR5, UR5, 3.5`,
    // `UFSETP.GEU.AND UP0, UPT, UR5, UR9, UPT`. With a = -0, b = 35 and
    // c = -0.0625, x = -k/16 after k rounds and the loop goes on while
    // (35·|x| + 1.5)·3.5 < 35: 28.21875 for k = 3, 35.875 for k = 4, so it
    // counts 4 (without the `|x|` it would never end).
    let ptx = ".version 8.7
.target sm_120
.address_size 64
.visible .entry uf(.param .u64 p, .param .f32 a, .param .f32 b, .param .f32 c)
{
  .reg .f32 %f<10>; .reg .b64 %rd<4>; .reg .b32 %r<20>; .reg .pred %p<4>;
  ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b]; ld.param.f32 %f3, [c];
  mov.u32 %r1, %tid.x; mov.u32 %r9, 0;
  abs.f32 %f4, %f1;
LOOP:
  add.f32 %f4, %f4, %f3;
  abs.f32 %f5, %f4;
  fma.rn.f32 %f6, %f5, %f2, 0f3FC00000;
  mul.f32 %f7, %f6, 0f40600000;
  add.s32 %r9, %r9, 1;
  setp.lt.f32 %p1, %f7, %f2;
  @%p1 bra LOOP;
  mul.wide.s32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
";
    let spec = r#"{"kernel": "uf", "grid": [1, 1, 1], "block": [2, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 8, "fill": "zero", "output": true},
      {"kind": "f32", "value": "0x80000000"}, {"kind": "f32", "value": "0x420c0000"}, {"kind": "f32", "value": "0xbd800000"}]}"#;
    let Some(out) = run_on(120, "uniform_float_ops", ptx, spec) else { return };
    assert_eq!(out, "param 0: 0400000004000000\n");
}

#[test]
fn f2i_reads_the_high_half_of_an_f16_source() {
    // `cvt.rni.s32.f16` of a register's high half is `F2I.F16.NTZ R8,
    // R0.H1` (ptxas 13.5). The word 0x41403c00 holds 1.0 in its low half
    // and 2.625 in its high half, which rounds to 3 (2 if truncated, 1 from
    // the low half).
    let ptx = ".version 8.7
.target sm_90
.address_size 64
.visible .entry high(.param .u64 in, .param .u64 out) {
  .reg .b16 %h<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.b32 %r1, [%rd1];
  mov.b32 {%h1, %h2}, %r1;
  cvt.rni.s32.f16 %r2, %h2;
  st.global.b32 [%rd2], %r2;
  ret;
}
";
    let spec = r#"{"kernel": "high", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 4, "fill": "hex", "hex": "003c4041", "output": false},
      {"kind": "buffer", "bytes": 4, "fill": "zero", "output": true}]}"#;
    let Some(out) = run("f2i_high_half", ptx, spec) else { return };
    assert_eq!(out, "param 1: 03000000\n");
}

#[test]
fn saturating_add_negates_before_the_clamp() {
    // `sub.sat.s32 d, a, b` is `VIADD.S32.ISAT d, a, -b` (ptxas 13.5,
    // sm_120); PTX clamps the exact difference. Lanes: 5 - i32::MIN
    // = 2^31 + 5 clamps to 0x7fffffff (negating first, in 32 bits, gave
    // 5 + i32::MIN = 0x80000005); -5 - i32::MIN = 0x7ffffffb; 5 - (-3) = 8;
    // i32::MIN - 1 clamps to 0x80000000. (Found by the differential fuzzer,
    // seed 5000974 on sm_120.)
    let ptx = ".version 8.7
.target sm_90
.address_size 64
.visible .entry subsat(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<5>; .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.b32 {%r2, %r3}, [%rd4];
  sub.sat.s32 %r4, %r2, %r3;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.b32 [%rd4], %r4;
  ret;
}
";
    let spec = r#"{"kernel": "subsat", "grid": [1, 1, 1], "block": [4, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 32, "fill": "hex", "hex": "0500000000000080fbffffff0000008005000000fdffffff0000008001000000", "output": false},
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}]}"#;
    let Some(out) = run_on(120, "saturating_add_negation", ptx, spec) else { return };
    assert_eq!(out, "param 1: ffffff7ffbffff7f0800000000000080\n");
}

#[test]
fn lea_with_a_negated_addend_carries_as_a_subtraction() {
    // `(a >> 36) - b` on 64 bits is `LEA.HI.SX32 R6, P0, R5, -R6, 0x1c`
    // then `LEA.HI.X.SX32` (ptxas 13.5, sm_90 and sm_100): the negated
    // addend enters as 2^32 minus b's low word, so a low word of 0
    // carries. Lanes: 0x7000000000000000 >> 36 = 0x7000000, minus
    // 0x100000000 = 0xffffffff07000000; 0xf000000000000000 >> 36 =
    // 0xffffffffff000000, minus 0x300000000 = 0xfffffffcff000000 (with
    // the 32-bit negation's lost carry the high words were one less).
    // Found by the differential fuzzer, seed 9903589 on sm_100.
    let ptx = ".version 8.7
.target sm_90
.address_size 64
.visible .entry leasub(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<2>; .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.b64 {%rd5, %rd6}, [%rd4];
  shr.s64 %rd7, %rd5, 36;
  sub.s64 %rd8, %rd7, %rd6;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  st.global.b64 [%rd4], %rd8;
  ret;
}
";
    let spec = r#"{"kernel": "leasub", "grid": [1, 1, 1], "block": [2, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 32, "fill": "hex", "hex": "0000000000000070000000000100000000000000000000f00000000003000000", "output": false},
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}]}"#;
    for sm in [90, 100] {
        let Some(out) = run_on(sm, "lea_negated_addend", ptx, spec) else { return };
        assert_eq!(out, "param 1: 00000007ffffffff000000fffcffffff\n", "sm_{sm}");
    }
}

#[test]
fn f16_high_half_conversions_and_f2ip() {
    // ptxas 13.5: `cvt.f64.f16` and `cvt.rpi.f16.f16` of a register's high
    // half are `F2F.F64.F16 R4, R0.H1` and `FRND.F16.CEIL R8, R0.H1` (every
    // SM); `cvt.rni.u8.f32` / `cvt.rzi.u8.f32` are F2I.U8 on sm_75 and
    // `F2IP.U8.F32.NTZ R9, RZ, R6, RZ` / `F2IP.U8.F32.TRUNC.NTZ` from sm_86
    // on. By hand: the high half of 0x41403c00 is 2.625 (f64
    // 0x4005000000000000, ceiling 3.0 = f16 0x4200); 300.0 saturates to
    // 255; 2.5 gives 2 truncated and 2 rounded to nearest even.
    let ptx = ".version 8.0
.target sm_75
.address_size 64
.visible .entry cv(.param .u64 in, .param .u64 out) {
  .reg .b16 %h<5>; .reg .b32 %r<8>; .reg .f32 %f<3>; .reg .f64 %fd<2>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.b32 %r1, [%rd1];
  ld.global.b32 %r6, [%rd1+12];
  xor.b32 %r1, %r1, %r6;
  ld.global.f32 %f1, [%rd1+4];
  ld.global.f32 %f2, [%rd1+8];
  mov.b32 {%h1, %h2}, %r1;
  cvt.f64.f16 %fd1, %h2;
  cvt.rpi.f16.f16 %h3, %h2;
  cvt.rni.u8.f32 %h4, %f1;
  cvt.u32.u16 %r2, %h4;
  cvt.rzi.u8.f32 %h4, %f2;
  cvt.u32.u16 %r3, %h4;
  cvt.rni.u8.f32 %h4, %f2;
  cvt.u32.u16 %r4, %h4;
  cvt.u32.u16 %r5, %h3;
  st.global.f64 [%rd2], %fd1;
  st.global.b32 [%rd2+8], %r5;
  st.global.b32 [%rd2+12], %r2;
  st.global.b32 [%rd2+16], %r3;
  st.global.b32 [%rd2+20], %r4;
  ret;
}
";
    let spec = r#"{"kernel": "cv", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "hex", "hex": "003c4041000096430000204000000000", "output": false},
      {"kind": "buffer", "bytes": 24, "fill": "zero", "output": true}]}"#;
    for sm in [75, 86, 90, 120] {
        let Some(out) = run_on(sm, "f16_high_f2ip", ptx, spec) else { return };
        assert_eq!(out, "param 1: 000000000000054000420000ff0000000200000002000000\n", "sm_{sm}");
    }
}

#[test]
fn f16_sources_with_abs_of_the_high_half_and_immediates() {
    // ptxas 13.5 (sm_75 to sm_120): `cvt.rmi.{s32,s64,f16}.f16` of
    // `abs.f16` of a high half are `F2I.F16.FLOOR.NTZ R8, |R2.H1|`,
    // `F2I.S64.F16.FLOOR R4, |R2.H1|`, `FRND.F16.FLOOR R9, |R2.H1|`; of its
    // negation `-|R2.H1|`; of the constant 0x4b3e `F2I.F16.FLOOR.NTZ R11,
    // 14.484375`. By hand, for the word 0xc8a0c100 (high half -9.25, low
    // half -2.5): floor(9.25) = 9, as f16 9.0 = 0x4880; floor(-9.25) = -10
    // (0xfffffff6; -9 without the abs); floor(14.484375) = 14; floor of the
    // low half's abs 2.5 = 2.
    let ptx = ".version 8.7
.target sm_75
.address_size 64
.visible .entry absh(.param .u64 in, .param .u64 out) {
  .reg .b16 %h<8>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.b32 %r1, [%rd1];
  mov.b32 {%h1, %h2}, %r1;
  abs.f16 %h3, %h2;
  cvt.rmi.s32.f16 %r2, %h3;
  cvt.rmi.f16.f16 %h4, %h3;
  cvt.u32.u16 %r3, %h4;
  cvt.rmi.s64.f16 %rd3, %h3;
  neg.f16 %h5, %h3;
  cvt.rmi.s32.f16 %r4, %h5;
  mov.b16 %h6, 0x4b3e;
  cvt.rmi.s32.f16 %r5, %h6;
  abs.f16 %h7, %h1;
  cvt.rmi.s32.f16 %r6, %h7;
  st.global.b32 [%rd2+24], %r6;
  st.global.b32 [%rd2], %r2;
  st.global.b32 [%rd2+4], %r3;
  st.global.b64 [%rd2+8], %rd3;
  st.global.b32 [%rd2+16], %r4;
  st.global.b32 [%rd2+20], %r5;
  ret;
}
";
    let spec = r#"{"kernel": "absh", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 4, "fill": "hex", "hex": "00c1a0c8", "output": false},
      {"kind": "buffer", "bytes": 28, "fill": "zero", "output": true}]}"#;
    for sm in [75, 86, 90, 100, 120] {
        let Some(out) = run_on(sm, "f16_abs_high_imm", ptx, spec) else { return };
        assert_eq!(out, "param 1: 09000000804800000900000000000000f6ffffff0e00000002000000\n", "sm_{sm}");
    }
}

#[test]
fn threads_back_from_a_recursive_call_wait_for_the_others() {
    // ptxas 13.5 brackets the recursive function's branch with BSSY B6 /
    // BSYNC B6 and saves B6 around the inner call (`BMOV.32.CLEAR R2, B6`
    // ... `BMOV.32 B6, R2`). Threads of an outer level held at its BSYNC
    // must not go on when an inner level's BSYNC completes (B6 names the
    // inner threads then), and threads back from `call.uni` must not run
    // ahead of those still in the call: the ballot after it sees the whole
    // warp. By hand: rec(n, x) = x for n = 0, else rec(n-1, 3x+n) ^ n, with
    // n = tid & 7 and x = tid.
    let ptx = ".version 8.0
.target sm_75
.address_size 64
.func (.reg .b32 %ret) rec(.reg .b32 %n, .reg .b32 %x)
{
  .reg .pred %q;
  .reg .b32 %m, %y, %s;
  setp.eq.u32 %q, %n, 0;
  @%q bra $done;
  sub.u32 %m, %n, 1;
  mad.lo.u32 %y, %x, 3, %n;
  call (%s), rec, (%m, %y);
  xor.b32 %ret, %s, %n;
  ret;
$done:
  mov.b32 %ret, %x;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>; .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 7;
  call.uni (%r2), rec, (%r1, %r0);
  vote.sync.ballot.b32 %r3, 1, 0xffffffff;
  mul.wide.u32 %rd1, %r0, 8;
  add.u64 %rd2, %rd0, %rd1;
  st.global.v2.u32 [%rd2], {%r2, %r3};
  ret;
}
";
    let spec = r#"{"kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 256, "fill": "zero", "output": true}]}"#;
    fn rec(n: u32, x: u32) -> u32 {
        if n == 0 { x } else { rec(n - 1, x.wrapping_mul(3).wrapping_add(n)) ^ n }
    }
    let want: String = (0..32u32).map(|t| format!("{:08x}ffffffff", rec(t & 7, t).swap_bytes())).collect();
    for sm in [75, 80, 90, 120] {
        let Some(out) = run_on(sm, "recursive_call_convergence", ptx, spec) else { return };
        assert_eq!(out, format!("param 0: {want}\n"), "sm_{sm}");
    }
}

#[test]
fn half_sources_widen_before_the_f32_operation() {
    // ptxas 13.5 on sm_100 writes `FHADD.BF16 R5, R4, R9` for
    // `add.rn.f32.bf16` and `FHFMA R9, R6, R0, R9` for `fma.rn.f32.f16` (a
    // and b halves, c an f32). With the halves 0x3fc0 (bf16 1.5, f16
    // 1.9375) and 0x3c00 (bf16 2^-7, f16 1.0) and c = 0.25: 1.5 + 0.25 =
    // 1.75 (0x3fe00000), 2^-7 + 0.25 = 0.2578125 (0x3e840000), 1.9375 * 1.0
    // + 0.25 = 2.1875 (0x400c0000).
    let ptx = ".version 8.7
.target sm_100
.address_size 64
.visible .entry hs(.param .u64 p, .param .b32 h, .param .f32 c)
{
  .reg .f32 %f<8>; .reg .b64 %rd<4>; .reg .b32 %r<4>; .reg .b16 %rs<4>;
  ld.param.u64 %rd1, [p]; ld.param.b32 %r1, [h]; ld.param.f32 %f1, [c];
  mov.b32 {%rs1, %rs2}, %r1;
  add.rn.f32.bf16 %f2, %rs1, %f1;
  add.rn.f32.bf16 %f3, %rs2, %f1;
  fma.rn.f32.f16 %f4, %rs1, %rs2, %f1;
  st.global.f32 [%rd1], %f2;
  st.global.f32 [%rd1+4], %f3;
  st.global.f32 [%rd1+8], %f4;
  ret;
}
";
    let spec = r#"{"kernel": "hs", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 12, "fill": "zero", "output": true},
      {"kind": "u32", "value": "0x3c003fc0"}, {"kind": "f32", "value": "0x3e800000"}]}"#;
    let Some(out) = run_on(100, "half_sources", ptx, spec) else { return };
    assert_eq!(out, "param 0: 0000e03f0000843e00000c40\n");
}

/// `bmsk.clamp`/`bmsk.wrap` of kernel parameters: BMSK with b from the
/// constant bank on sm_80 and a uniform register on sm_90. PTX ISA: the
/// mask of b bits from bit a; `.clamp` limits a and b to 32, `.wrap` takes
/// them modulo 32. With n = 5, m = 33, a = tid + 3 = 3: bmsk(0, 5) =
/// 0x1f, wrap(0, 33) = bmsk(0, 1) = 0x1, bmsk(3, 5) = 0xf8, clamp(0, 33)
/// = 0xffffffff.
#[test]
fn bmsk_with_constant_and_uniform_widths() {
    for sm in [80u16, 90] {
        let ptx = format!(
            ".version 8.0
.target sm_{sm}
.address_size 64
.visible .entry bm(.param .u64 out, .param .u32 n, .param .u32 m)
{{
  .reg .b32 %r<8>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u32 %r1, [n];
  ld.param.u32 %r2, [m];
  mov.u32 %r7, %tid.x;
  add.u32 %r7, %r7, 3;
  bmsk.clamp.b32 %r3, 0, %r1;
  bmsk.wrap.b32 %r4, 0, %r2;
  bmsk.clamp.b32 %r5, %r7, %r1;
  bmsk.clamp.b32 %r6, 0, %r2;
  st.global.v4.u32 [%rd1], {{%r3, %r4, %r5, %r6}};
  ret;
}}
"
        );
        let spec = r#"{"kernel": "bm", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true},
      {"kind": "u32", "value": "5"}, {"kind": "u32", "value": "33"}]}"#;
        let Some(out) = run_on(sm, "bmsk_bank_uniform", &ptx, spec) else { return };
        assert_eq!(out, "param 0: 1f00000001000000f8000000ffffffff\n", "sm_{sm}");
    }
}

/// 64-bit shared atomics, which ptxas makes an LDS.64 and an
/// `ATOMS.CAST.SPIN.64` loop on sm_100 and sm_120: 64 threads add
/// (tid << 32) + 1 and take the maximum of it. Sum: 64 + (0 + … + 63) << 32
/// = 0x000007e0_00000040; maximum (63 << 32) + 1 = 0x0000003f_00000001.
#[test]
fn atoms_cast_spin_64_adds_and_maxes_pairs() {
    for sm in [100u16, 120] {
        let ptx = format!(
            ".version 8.7
.target sm_{sm}
.address_size 64
.visible .entry at64(.param .u64 out)
{{
  .shared .align 8 .b64 acc[2];
  .reg .b32 %r<4>; .reg .b64 %rd<8>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  st.shared.v2.u64 [acc], {{0, 0}};
SKIP:
  bar.sync 0;
  cvt.u64.u32 %rd2, %r1;
  shl.b64 %rd3, %rd2, 32;
  add.u64 %rd3, %rd3, 1;
  atom.shared.add.u64 %rd4, [acc], %rd3;
  atom.shared.max.u64 %rd5, [acc+8], %rd3;
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.v2.u64 {{%rd6, %rd7}}, [acc];
  st.global.v2.u64 [%rd1], {{%rd6, %rd7}};
DONE:
  ret;
}}
"
        );
        let spec = r#"{"kernel": "at64", "grid": [1, 1, 1], "block": [64, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}]}"#;
        let Some(out) = run_on(sm, "atoms_cast_spin_64", &ptx, spec) else { return };
        assert_eq!(out, "param 0: 40000000e0070000010000003f000000\n", "sm_{sm}");
    }
}

/// `barrier.sync a, b` with both in registers: ptxas packs them into one
/// register (`BAR.SYNC.DEFER_BLOCKING R11, R11`, the barrier in bits 0–3,
/// the count from bit 16). 64 threads store tid + 100, meet at barrier 1
/// counting 64 threads, and read the word of thread tid ^ 32 (the other
/// warp): (tid ^ 32) + 100.
#[test]
fn bar_sync_with_register_barrier_and_count() {
    let ptx = ".version 8.0
.target sm_90
.address_size 64
.visible .entry barrr(.param .u64 out, .param .u32 id, .param .u32 count)
{
  .shared .align 4 .b32 buf[64];
  .reg .b32 %r<10>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u32 %r1, [id];
  ld.param.u32 %r2, [count];
  mov.u32 %r3, %tid.x;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, buf;
  add.u32 %r6, %r5, %r4;
  add.u32 %r7, %r3, 100;
  st.shared.u32 [%r6], %r7;
  barrier.sync %r1, %r2;
  xor.b32 %r8, %r4, 128;
  add.u32 %r8, %r5, %r8;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
";
    let spec = |count: u32| {
        format!(
            r#"{{"kernel": "barrr", "grid": [1, 1, 1], "block": [64, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 256, "fill": "zero", "output": true}},
      {{"kind": "u32", "value": "1"}}, {{"kind": "u32", "value": "{count}"}}]}}"#
        )
    };
    let Some(out) = run("bar_sync_reg", ptx, &spec(64)) else { return };
    let expected: String = (0u32..64).map(|t| format!("{:02x}000000", (t ^ 32) + 100)).collect();
    assert_eq!(out, format!("param 0: {expected}\n"));
}

/// `ld.global.v8.b32` on sm_100: `LDG.E.ENL2.256 R8, R4, [R4.64]`, the
/// PTX's first four words into the quad printed second. Each of two
/// threads loads its 32 bytes and stores the eight words in reverse order.
#[test]
fn ldg_256_loads_two_quads() {
    let ptx = ".version 8.8
.target sm_100
.address_size 64
.visible .entry ld8(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<10>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r9, %tid.x;
  mul.wide.u32 %rd3, %r9, 32;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v8.b32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd4];
  add.s64 %rd5, %rd1, %rd3;
  st.global.v4.b32 [%rd5], {%r8, %r7, %r6, %r5};
  st.global.v4.b32 [%rd5+16], {%r4, %r3, %r2, %r1};
  ret;
}
";
    let input: String = (0u8..64).map(|b| format!("{b:02x}")).collect();
    let spec = format!(
        r#"{{"kernel": "ld8", "grid": [1, 1, 1], "block": [2, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 64, "fill": "zero", "output": true}},
      {{"kind": "buffer", "bytes": 64, "fill": "hex", "hex": "{input}", "output": false}}]}}"#
    );
    let Some(out) = run_on(100, "ldg_256", ptx, &spec) else { return };
    // Words 7..0 of each thread's 32 bytes, each word's bytes in order.
    assert_eq!(
        out,
        "param 0: 1c1d1e1f18191a1b14151617101112130c0d0e0f08090a0b04050607000102033c3d3e3f38393a3b34353637303132332c2d2e2f28292a2b2425262720212223\n"
    );
}

/// `ld.global.v8.b32` of which some elements are used and
/// `st.global.v8.b32` with holes, at offsets, on sm_100 and sm_120:
/// ptxas 13.5 writes `LDG.E.ENL2.256 R8, R6, desc[UR4][R4.64+0x20], 0x26`
/// (elements 1, 2 into R6, R7, element 5 into R8), then `LDG.E.ENL2.256
/// R12, R6, desc[UR4][R4.64+0x40], 0x9a` and `STG.E.ENL2.256
/// desc[UR4][R2.64+0x20], R6, R12, 0x9a` (elements 1, 3 in R6, R7, 4 and
/// 7 in R12, R13): only the selected words of memory are read and
/// written. The output starts as 0xff bytes, which the holes keep.
#[test]
fn ldg_stg_256_move_the_components_of_their_masks() {
    let ptx = ".version 8.8
.target sm_100
.address_size 64
.visible .entry mask8(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<8>; .reg .b32 %a<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.v8.b32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd2+32];
  st.global.v4.b32 [%rd1], {%r5, %r2, %r1, %r5};
  ld.global.v8.b32 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd2+64];
  st.global.v8.b32 [%rd1+32], {_, %a1, _, %a3, %a4, _, _, %a7};
  ret;
}
";
    let input: String = (0u8..96).map(|b| format!("{b:02x}")).collect();
    let spec = format!(
        r#"{{"kernel": "mask8", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 64, "fill": "hex", "hex": "{}", "output": true}},
      {{"kind": "buffer", "bytes": 96, "fill": "hex", "hex": "{input}", "output": false}}]}}"#,
        "ff".repeat(64)
    );
    // Words 5, 2, 1, 5 of bytes 32..64; 16 bytes untouched; words 1, 3,
    // 4, 7 of bytes 64..96 at their places of bytes 32..64.
    let expected = [
        "34353637", "28292a2b", "24252627", "34353637", "ffffffff", "ffffffff", "ffffffff", "ffffffff",
        "ffffffff", "44454647", "ffffffff", "4c4d4e4f", "50515253", "ffffffff", "ffffffff", "5c5d5e5f",
    ]
    .concat();
    assert_outputs_on_each(&[100, 120], "ldg_stg_256_masks", ptx, &spec, &format!("param 0: {expected}\n"));
}

/// `st.global.v8.b32` and `st.global.v4.b64` with holes on sm_100 and
/// sm_120, their data from two `ld.global.v4.b32` each (LDG.E.128, so the
/// store's quads are not laid out by a 256-bit load): ptxas 13.5 writes
/// `STG.E.ENL2.256 desc[UR4][R20.64+-0x20], R4, R8` (a negative offset in
/// 32-byte units; the address is `out + 32 * tid + 32 * idx`, idx = 1) and
/// `STG.E.ENL2.256 desc[UR4][R18.64+0x40], R14, R12, 0xc3` (the two
/// 64-bit elements given: components 0, 1 from R14, R15 and 6, 7 from
/// R12, R13). Each of two threads stores its 32 bytes' words in reverse
/// order, then words 2, 3 and 0, 1 at the ends of the next 32 bytes; the
/// output starts as 0xff bytes, which the holes keep.
#[test]
fn stg_256_stores_two_quads_at_offsets_and_masks() {
    let ptx = ".version 8.8
.target sm_100
.address_size 64
.visible .entry st8(.param .u64 out, .param .u64 in, .param .u64 idx)
{
  .reg .b32 %r<12>; .reg .b64 %rd<12>; .reg .b64 %q<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd2, %rd2;
  ld.param.u64 %rd6, [idx];
  cvta.to.global.u64 %rd6, %rd6;
  ld.global.u32 %r10, [%rd6];
  mov.u32 %r9, %tid.x;
  mul.wide.u32 %rd3, %r9, 32;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd4];
  ld.global.v4.b32 {%r5, %r6, %r7, %r8}, [%rd4+16];
  add.s64 %rd5, %rd1, %rd3;
  mul.wide.u32 %rd7, %r10, 32;
  add.s64 %rd8, %rd5, %rd7;
  st.global.v8.b32 [%rd8+-32], {%r8, %r7, %r6, %r5, %r4, %r3, %r2, %r1};
  mov.b64 %q1, {%r1, %r2};
  mov.b64 %q2, {%r3, %r4};
  st.global.v4.b64 [%rd5+64], {%q2, _, _, %q1};
  ret;
}
";
    let input: String = (0u8..64).map(|b| format!("{b:02x}")).collect();
    let spec = format!(
        r#"{{"kernel": "st8", "grid": [1, 1, 1], "block": [2, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 128, "fill": "hex", "hex": "{}", "output": true}},
      {{"kind": "buffer", "bytes": 64, "fill": "hex", "hex": "{input}", "output": false}},
      {{"kind": "buffer", "bytes": 4, "fill": "hex", "hex": "01000000", "output": false}}]}}"#,
        "ff".repeat(128)
    );
    // Bytes 0..64: words 7..0 of thread 0's bytes 0..32, then of thread
    // 1's bytes 32..64. Bytes 64..128: per thread, words 2, 3, 16 bytes
    // untouched, words 0, 1.
    let expected = [
        "1c1d1e1f", "18191a1b", "14151617", "10111213", "0c0d0e0f", "08090a0b", "04050607", "00010203",
        "3c3d3e3f", "38393a3b", "34353637", "30313233", "2c2d2e2f", "28292a2b", "24252627", "20212223",
        "08090a0b", "0c0d0e0f", "ffffffff", "ffffffff", "ffffffff", "ffffffff", "00010203", "04050607",
        "28292a2b", "2c2d2e2f", "ffffffff", "ffffffff", "ffffffff", "ffffffff", "20212223", "24252627",
    ]
    .concat();
    assert_outputs_on_each(&[100, 120], "stg_256_offsets_masks", ptx, &spec, &format!("param 0: {expected}\n"));
}

/// `rsqrt.approx.ftz.f64` of a kernel parameter on sm_80: ptxas reads the
/// parameter's high word straight from the constant bank
/// (`MUFU.RSQ64H R5, c[0x0][0x16c]`, the low word of the result zero).
/// 1/sqrt(4) = 0.5 (0x3fe0000000000000) and 1/sqrt(16) = 0.25
/// (0x3fd0000000000000): powers of four, whose high words the approximation
/// gets exactly.
#[test]
fn mufu_rsq64h_of_a_constant_bank_double() {
    let ptx = ".version 8.0
.target sm_80
.address_size 64
.visible .entry rsq(.param .u64 out, .param .f64 x)
{
  .reg .f64 %fd<3>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.f64 %fd1, [x];
  rsqrt.approx.ftz.f64 %fd2, %fd1;
  st.global.f64 [%rd1], %fd2;
  ret;
}
";
    for (x, expected) in [("0x4010000000000000", "000000000000e03f"), ("0x4030000000000000", "000000000000d03f")] {
        let spec = format!(
            r#"{{"kernel": "rsq", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [
      {{"kind": "buffer", "bytes": 8, "fill": "zero", "output": true}}, {{"kind": "f64", "value": "{x}"}}]}}"#
        );
        let Some(out) = run_on(80, "mufu_rsq64h_bank", ptx, &spec) else { return };
        assert_eq!(out, format!("param 0: {expected}\n"), "x = {x}");
    }
}

#[test]
fn sm90_vimnmx_predicates_say_which_lane_result_is_a() {
    // ptxas 13.5 (sm_90, sm_100) compiles `min.s16 %h3, %h5, 5208; setp.eq.s16
    // %p0, %h3, %h5` to `VIMNMX.S16x2 R0, P0, P0, R2, 0x1458, PT` and
    // guards on P0: the predicates say, per 16-bit lane, that the result
    // is a (a tie included), and P0 holds the low lane's (the high lanes,
    // 0 against 0, always tie). Lanes: 1 (a), 5208 (a tie), 0x2000 (b),
    // -256 (a). Found by the differential fuzzer, seed 9958412 on sm_90.
    let ptx = ".version 8.7
.target sm_90
.address_size 64
.visible .entry vmin(.param .u64 in, .param .u64 out) {
  .reg .b16 %h<6>; .reg .b32 %r<4>; .reg .b64 %rd<5>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.b16 %h5, [%rd4];
  min.s16 %h3, %h5, 5208;
  setp.eq.s16 %p0, %h3, %h5;
  selp.b32 %r2, 7, 9, %p0;
  cvt.u32.u16 %r3, %h3;
  add.s32 %r2, %r2, %r3;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.b32 [%rd4], %r2;
  ret;
}
";
    let spec = r#"{"kernel": "vmin", "grid": [1, 1, 1], "block": [4, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 8, "fill": "hex", "hex": "01005814002000ff", "output": false},
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}]}"#;
    for sm in [90, 100] {
        let Some(out) = run_on(sm, "vimnmx_predicates", ptx, spec) else { return };
        assert_eq!(out, "param 1: 080000005f1400006114000007ff0000\n", "sm_{sm}");
    }
}

#[test]
fn f2i_takes_the_absolute_value_of_a_uniform_f16_source() {
    // `cvt.rzi.u8.f16` of the |high half| of a parameter is `LDCU.U16 UR4,
    // c[0x0][0x38a]` then `F2I.U8.F16.TRUNC.NTZ R0, |UR4|` (ptxas 13.5,
    // sm_80 to sm_120). The parameter 0xc5003c00 holds 1.0 in its low half
    // and -5.0 in its high half: 5 and 1 (without the `|x|`, -5 saturates
    // to 0).
    let ptx = ".version 8.7
.target sm_80
.address_size 64
.visible .entry uf(.param .u64 p, .param .b32 a)
{
  .reg .b16 %h<6>; .reg .b64 %rd<4>; .reg .b32 %r<20>;
  ld.param.u64 %rd1, [p]; ld.param.b32 %r0, [a];
  mov.b32 {%h0, %h1}, %r0;
  abs.f16 %h1, %h1;
  cvt.rzi.u8.f16 %h2, %h1;
  cvt.rzi.s32.f16 %r3, %h0;
  cvt.u32.u16 %r2, %h2;
  mov.u32 %r1, %tid.x;
  mul.wide.s32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r2, %r3};
  ret;
}
";
    let spec = r#"{"kernel": "uf", "grid": [1, 1, 1], "block": [2, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 16, "fill": "zero", "output": true}, {"kind": "u32", "value": "0xc5003c00"}]}"#;
    assert_outputs_on_each(&[80, 120], "f2i_uniform_abs", ptx, spec, "param 0: 05000000010000000500000001000000\n");
}

#[test]
fn hadd2_takes_the_absolute_value_of_a_uniform_b() {
    // `sub.rn.f16 %h2, %h3, |a|` with `a` a parameter is `HADD2 R0,
    // R0.H0_H0, -|UR6.H0_H0|` on sm_100 and sm_120 (ptxas 13.5; a
    // constant-bank b on earlier SMs). a = -5.0: thread t writes t - 5
    // (-5, -4, -3, -2; without the `|x|`, t + 5).
    let ptx = ".version 8.8
.target sm_100
.address_size 64
.visible .entry k(.param .u64 p, .param .b16 a)
{
  .reg .b16 %h<6>; .reg .b32 %r<6>; .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [p]; ld.param.b16 %h0, [a];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  cvt.rn.f16.u32 %h3, %r0;
  abs.f16 %h1, %h0;
  sub.rn.f16 %h2, %h3, %h1;
  mul.wide.u32 %rd1, %r0, 2; add.u64 %rd1, %rd0, %rd1;
  st.global.b16 [%rd1], %h2;
  ret;
}
";
    let spec = r#"{"kernel": "k", "grid": [1, 1, 1], "block": [4, 1, 1], "shared_bytes": 0, "params": [
      {"kind": "buffer", "bytes": 8, "fill": "zero", "output": true}, {"kind": "u16", "value": "0xc500"}]}"#;
    assert_outputs_on_each(&[100, 120], "hadd2_uniform_abs", ptx, spec, "param 0: 00c500c400c200c0\n");
}
