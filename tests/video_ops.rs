//! The video instructions (`tests/data/video_ops`): the scalar `vadd vsub
//! vabsdiff vmin vmax vset` with `.sat` and `.add`/`.min`/`.max`, the
//! shifts `vshl vshr` with `.clamp`/`.wrap` and the secondary operations,
//! `vmad` with `.sat`, `.shr7`/`.shr15`, `.po` and operand negation, and
//! the SIMD `vop2`/`vop4`/`vset2`/`vset4` with `.sat` and `.add`, over
//! every combination of operand signs, on inputs at the byte and half
//! boundaries (0, 0x7f/0x80/0xff bytes, 0x7fff/0x8000 halves, 0x7fffffff
//! and 0x80000000), shift counts around 32, and random words. On each SM of a kernel's `// sms:`
//! line ptxas's cubin and ours must give the same outputs in the SASS
//! interpreter ([`common::ptxas_match`]), and the PTX interpreter the
//! same outputs as our cubin: its semantics are checked against ptxas's
//! code, not against the compiler's own.

mod common;

use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::interp::{self, LaunchSpec};

/// The PTX interpreter's outputs against our cubin's ([`common::ptxas_match::ptx_interpreter_agrees`]).
fn ptx_interpreter_agrees(text: &str, cubin: &[u8]) -> Result<(), String> {
    common::ptxas_match::ptx_interpreter_agrees("video_ops", text, cubin)
}

/// sm_120 has no VABSDIFF4: our code for `vabsdiff4.u32.u32.u32` there is
/// ptxas's (VIMNMX.U8x4 maxima and minima, VIADD.U8x4 of their
/// difference), against the PTX interpreter.
#[test]
fn byte_absolute_differences_without_vabsdiff4_match_the_ptx_interpreter() {
    use ptx2sass::internals::driver::{self, CodegenOptions, Options};
    use ptx2sass::internals::target::Sm;
    let text = include_str!("data/video_ops/absdiff4.ptx");
    let module = ptx2sass::internals::ptx::parse_and_check(text, &Default::default()).expect("parses");
    let ours = driver::compile_to_cubin(&module, Sm::new(120), Some(text), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
    let listing = ptx2sass::disassemble(&ours.cubin).expect("disassembles");
    assert!(!listing.contains("VABSDIFF4"), "VABSDIFF4 on sm_120");
    for mnemonic in ["VIMNMX.U8x4", "VIADD.U8x4", "IDP.4A.U8.U8"] {
        assert!(listing.contains(mnemonic), "no {mnemonic} on sm_120:\n{listing}");
    }
    ptx_interpreter_agrees(text, &ours.cubin).unwrap_or_else(|e| panic!("sm_120: {e}"));
}

#[test]
fn video_instructions_match_ptxas_and_the_ptx_interpreter() {
    common::ptxas_match::all_kernels_match("video_ops", 65, |text, cubin| ptx_interpreter_agrees(text, cubin));
}

/// Selectors, masks and a shift's `.sat` on one thread's `a = 0x80ff7f01`,
/// `b = 0x12345678`, `c = 0xaabbccdd`, against values worked out by hand
/// from the PTX ISA's lane numbering and ptxas 13.5's clamps, in our cubin
/// (sm_75, sm_90, sm_120) and the PTX interpreter.
#[test]
fn selectors_masks_and_shift_saturation_give_hand_checked_values() {
    use ptx2sass::internals::driver::{self, CodegenOptions, Options};
    use ptx2sass::internals::target::Sm;
    let lines = [
        // a.b3 = 0x80 is -128, b.h0 = 0x5678: 22008.
        ("vadd.s32.s32.s32 %r10, %r1.b3, %r2.h0;", 0x0000_55f8u32),
        // The 64-bit sum 0x9333d579 clamped to the byte's 0xff, into c's byte 1.
        ("vadd.u32.u32.u32.sat %r10.b1, %r1, %r2, %r3;", 0xaabb_ffdd),
        // 0x7f01 - 0x1234 = 0x6ccd, within the half's 0x7fff, into c's half 0.
        ("vsub.s32.s32.s32.sat %r10.h0, %r1.h0, %r2.h1, %r3;", 0xaabb_6ccd),
        // 1 - 0x78 is negative: compared unsigned, above 0xff, so 0xff.
        ("vsub.u32.u32.u32.sat %r10.b0, %r1.b0, %r2.b0, %r3;", 0xaabb_ccff),
        // Lanes 3..0 of a: bytes 0, 1, 2, 3 of {b, a} (01 7f ff 80); of b:
        // bytes 4, 5, 6, 7 (78 56 34 12); sums 79 d5 33 92; lanes 2 and 0
        // written, 3 and 1 kept from c.
        ("vadd4.u32.u32.u32 %r10.b20, %r1.b0123, %r2.b4567, %r3;", 0xaad5_cc92),
        // Lane 1: a's half 0 (0x7f01) plus b's half 2, b's low (0x5678),
        // alone added to c.
        ("vadd2.u32.u32.u32.add %r10.h1, %r1.h01, %r2.h23, %r3;", 0xaabc_a256),
        // 0x80ff7f01 << 1 = 0x1_01fe_fe02: bits 32-33 are 01, above 2^32 - 1.
        ("vshl.u32.u32.u32.clamp.sat %r10, %r1, 1;", 0xffff_ffff),
        // -0x7f0080ff << 1 is below -2^31.
        ("vshl.s32.s32.u32.clamp.sat %r10, %r1, 1;", 0x8000_0000),
        // 0x80ff7f01 unsigned is above 2^31 - 1.
        ("vshr.s32.u32.u32.wrap.sat %r10, %r1, 0;", 0x7fff_ffff),
    ];
    let mut body = String::new();
    for (k, (line, _)) in lines.iter().enumerate() {
        body += &format!("  {line}\n  st.global.u32 [%rd1+{}], %r10;\n", 4 * k);
    }
    let text = format!(
        ".version 8.7\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 in)\n{{\n  .reg .b64 %rd<4>; .reg .b32 %r<12>;\n  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in];\n  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;\n  ld.global.u32 %r1, [%rd2]; ld.global.u32 %r2, [%rd2+4]; ld.global.u32 %r3, [%rd2+8];\n{body}  ret;\n}}\n"
    );
    let spec_text = format!(
        r#"{{"kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": 0, "params": [{{"kind": "buffer", "bytes": {}, "fill": "zero", "output": true}}, {{"kind": "buffer", "bytes": 12, "fill": "hex", "hex": "017fff8078563412ddccbbaa", "output": false}}]}}"#,
        4 * lines.len()
    );
    let want: Vec<u8> = lines.iter().flat_map(|(_, v)| v.to_le_bytes()).collect();
    let spec = LaunchSpec::from_json(&spec_text).expect("spec");
    let module = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).expect("parses");
    let out = interp::ptx::run(&module, &spec, &Default::default()).expect("PTX interpreter");
    assert_eq!(common::ptxas_match::output_bytes(&out.launch, &spec_text).expect("outputs"), want, "PTX interpreter");
    for sm in [75, 90, 120] {
        let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&text), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
        let got = common::ptxas_match::outputs(&ours.cubin, &spec, &spec_text, HazardCheck::Fail).expect("runs");
        assert_eq!(got, want, "sm_{sm}");
    }
}
