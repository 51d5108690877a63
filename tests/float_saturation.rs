//! Saturated float-to-float conversions (`cvt.sat`, `cvt.rni.sat`): the
//! result is clamped to [+0.0, 1.0], NaN and -0.0 giving +0.0 (PTX ISA,
//! `cvt`: `.sat` clamps to [0.0, 1.0], NaN results flushed to +0.0).
//! ptx2sass's code for every pair of f16, f32 and f64 with a saturation,
//! run in the SASS interpreter over special and ordinary inputs on sm_75,
//! sm_90 and sm_120, must give the clamped value bit for bit.
//!
//! The differential fuzzer found the saturation dropped for f64 and f16
//! results and for f16 sources (`cvt.sat.f64.f16` gave -2276.0 where
//! ptxas's code gives 0.0). The expected values below are written out by
//! hand: every input is a value whose clamp is exact in each format.

use ptx2sass::internals::interp::launch::{Fill, LaunchSpec, ParamSpec};
use ptx2sass::internals::interp::sass;
use ptx2sass::{Options, Target, compile};

/// One thread per input; each reads `in64[i]`, `in32[i]`, `in16[i]` and
/// writes the conversions at `out[16 * i + 2 * k]` (8-byte words).
const PTX: &str = r#"
.version 8.7
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in64, .param .u64 in32, .param .u64 in16)
{
  .reg .b64 %rd<12>; .reg .f64 %fd<4>; .reg .f32 %f<4>; .reg .b16 %h<4>; .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in64]; ld.param.u64 %rd3, [in32]; ld.param.u64 %rd4, [in16];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3; cvta.to.global.u64 %rd4, %rd4;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 8; add.u64 %rd6, %rd2, %rd5;
  mul.wide.u32 %rd5, %r1, 4; add.u64 %rd7, %rd3, %rd5;
  mul.wide.u32 %rd5, %r1, 2; add.u64 %rd8, %rd4, %rd5;
  mul.wide.u32 %rd5, %r1, 64; add.u64 %rd9, %rd1, %rd5;
  ld.global.f64 %fd1, [%rd6];
  ld.global.f32 %f1, [%rd7];
  ld.global.u16 %h1, [%rd8];
  cvt.sat.f64.f16 %fd2, %h1;       st.global.f64 [%rd9], %fd2;
  cvt.sat.f64.f32 %fd2, %f1;       st.global.f64 [%rd9+8], %fd2;
  cvt.sat.f64.f64 %fd2, %fd1;      st.global.f64 [%rd9+16], %fd2;
  cvt.rni.sat.f64.f64 %fd2, %fd1;  st.global.f64 [%rd9+24], %fd2;
  cvt.sat.f32.f16 %f2, %h1;        st.global.f32 [%rd9+32], %f2;
  cvt.rn.sat.f16.f32 %h2, %f1;     st.global.u16 [%rd9+40], %h2;
  cvt.rn.sat.f16.f64 %h2, %fd1;    st.global.u16 [%rd9+48], %h2;
  cvt.rn.sat.f32.f64 %f2, %fd1;    st.global.f32 [%rd9+56], %f2;
  ret;
}
"#;

/// Inputs: (f64 bits, f32 bits, f16 bits), and the clamped value as an
/// f64 (what every plain saturation gives, exactly representable in each
/// format except the subnormals, whose column is below), then the value of
/// `cvt.rni.sat` (round to nearest even first).
const CASES: &[(u64, u32, u16, f64, f64)] = &[
    (0xbff0_0000_0000_0000, 0xbf80_0000, 0xbc00, 0.0, 0.0),  // -1
    (0x3fe0_0000_0000_0000, 0x3f00_0000, 0x3800, 0.5, 0.0),  // 0.5: ties to even
    (0x4000_0000_0000_0000, 0x4000_0000, 0x4000, 1.0, 1.0),  // 2
    (0x7ff8_0000_0000_0000, 0x7fc0_0000, 0x7e00, 0.0, 0.0),  // NaN
    (0xfff4_0000_1234_5678, 0xffa0_1234, 0xfd00, 0.0, 0.0),  // -sNaN with a payload
    (0x8000_0000_0000_0000, 0x8000_0000, 0x8000, 0.0, 0.0),  // -0: +0
    (0x3fd0_0000_0000_0000, 0x3e80_0000, 0x3400, 0.25, 0.0), // 0.25
    (0x7ff0_0000_0000_0000, 0x7f80_0000, 0x7c00, 1.0, 1.0),  // +inf
    (0xfff0_0000_0000_0000, 0xff80_0000, 0xfc00, 0.0, 0.0),  // -inf
    (0x3fe8_0000_0000_0000, 0x3f40_0000, 0x3a00, 0.75, 1.0), // 0.75
    (0x3ff0_0000_0000_0000, 0x3f80_0000, 0x3c00, 1.0, 1.0),  // 1
    (0x3fef_ffff_ffff_ffff, 0x3f7f_ffff, 0x3bff, -1.0, 1.0), // just below 1: see `below_one`
];

fn f16_bits(v: f64) -> u16 {
    // The clamped values that occur: 0, 0.25, 0.5, 0.75, 1.
    match v {
        0.0 => 0x0000,
        0.25 => 0x3400,
        0.5 => 0x3800,
        0.75 => 0x3a00,
        1.0 => 0x3c00,
        _ => unreachable!("no such clamped value"),
    }
}

#[test]
fn saturated_float_conversions_clamp_to_zero_one() {
    let mut bad = Vec::new();
    let n = CASES.len();
    let in64: Vec<u8> = CASES.iter().flat_map(|c| c.0.to_le_bytes()).collect();
    let in32: Vec<u8> = CASES.iter().flat_map(|c| c.1.to_le_bytes()).collect();
    let in16: Vec<u8> = CASES.iter().flat_map(|c| c.2.to_le_bytes()).collect();
    for sm in [75u16, 90, 120] {
        let ptx = PTX.replace("sm_75", &format!("sm_{sm}"));
        let cubin = match compile(ptx.as_str(), &Options::new(Target::sm(sm).expect("SM"))) {
            Ok(out) => out.cubin,
            Err(e) => panic!("sm_{sm}: does not compile: {e}"),
        };
        let spec = LaunchSpec {
            kernel: "k".into(),
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
            shared_bytes: 0,
            textures: Vec::new(),
            params: vec![
                ParamSpec::Buffer { bytes: 64 * n, fill: Fill::Zero, output: true },
                ParamSpec::Buffer { bytes: 8 * n, fill: Fill::Hex(in64.clone()), output: false },
                ParamSpec::Buffer { bytes: 4 * n, fill: Fill::Hex(in32.clone()), output: false },
                ParamSpec::Buffer { bytes: 2 * n, fill: Fill::Hex(in16.clone()), output: false },
            ],
        };
        let options = sass::Options { hazards: sass::HazardCheck::Fail, ..Default::default() };
        let out = sass::run(&cubin, &spec, &options).unwrap_or_else(|e| panic!("sm_{sm}: SASS interpreter: {e}"));
        let got = out.launch.buffer_bytes(0).expect("output buffer");
        for (i, &(_, _, h, v, rni)) in CASES.iter().enumerate() {
            let w = |at: usize, len: usize| -> u64 {
                let mut b = [0u8; 8];
                b[..len].copy_from_slice(&got[64 * i + at..64 * i + at + len]);
                u64::from_le_bytes(b)
            };
            // Just below 1: kept by a saturation of its own format, and
            // rounded to 1 when narrowed to f16 (and to f32 from f64).
            let below_one = v < 0.0;
            let f64_of = |x: f64| x.to_bits();
            let expect = [
                ("cvt.sat.f64.f16", w(0, 8), if below_one { f64_of(f64::from(half_value(h))) } else { f64_of(v) }),
                ("cvt.sat.f64.f32", w(8, 8), if below_one { f64_of(f64::from(f32::from_bits(0x3f7f_ffff))) } else { f64_of(v) }),
                ("cvt.sat.f64.f64", w(16, 8), if below_one { 0x3fef_ffff_ffff_ffff } else { f64_of(v) }),
                ("cvt.rni.sat.f64.f64", w(24, 8), f64_of(rni)),
                ("cvt.sat.f32.f16", w(32, 4), u64::from(if below_one { half_value(h).to_bits() } else { (v as f32).to_bits() })),
                ("cvt.rn.sat.f16.f32", w(40, 2), u64::from(f16_bits(if below_one { 1.0 } else { v }))),
                ("cvt.rn.sat.f16.f64", w(48, 2), u64::from(f16_bits(if below_one { 1.0 } else { v }))),
                ("cvt.rn.sat.f32.f64", w(56, 4), u64::from(if below_one { 1.0f32 } else { v as f32 }.to_bits())),
            ];
            for (what, got, want) in expect {
                if got != want {
                    bad.push(format!("sm_{sm} {what} of input {i}: {got:#x}, expected {want:#x}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} wrong results:\n{}", bad.len(), bad.join("\n"));
}

/// The value of a normal `f16` (the inputs have no subnormals).
fn half_value(h: u16) -> f32 {
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    let v = (1.0 + m / 1024.0) * 2f32.powi(e - 15);
    if h & 0x8000 != 0 { -v } else { v }
}
