//! PTX constructs of CUDA C++ code (`tests/data/cuda_constructs`): the
//! half-precision MUFU functions (`ex2.approx`, `tanh.approx` of f16, bf16
//! and their pairs), `fma.rn.relu` of halves, `min/max.relu.s32`, `ldu`,
//! `%dynamic_smem_size`, `cvt` to tf32 (every rounding) and `add/min/max`
//! of 16-bit lane pairs. On each SM of a kernel's `// sms:` line ptxas's
//! cubin and ours must give the same outputs in the SASS interpreter
//! ([`common::ptxas_match`]), and the PTX interpreter the same outputs as
//! our cubin. The PTX checker's verdicts on `ex2`'s `.ftz` and on lane
//! pairs are ptxas's.

mod common;

#[test]
fn cuda_constructs_match_ptxas_and_the_ptx_interpreter() {
    common::ptxas_match::all_kernels_match("cuda_constructs", 43, |text, cubin| common::ptxas_match::ptx_interpreter_agrees("cuda_constructs", text, cubin));
}

/// ptxas 13.5's verdicts (`-arch=sm_90`): bf16 `ex2.approx` requires
/// `.ftz`, f16 refuses it, `tanh` has none; 16-bit lane pairs take
/// registers only, and `.relu` only on s32 and s16x2.
#[test]
fn verdicts_are_ptxas_s() {
    let cases = [
        ("ex2.approx.ftz.bf16 %h2, %h1;", true),
        ("ex2.approx.ftz.bf16x2 %r2, %r1;", true),
        ("ex2.approx.bf16 %h2, %h1;", false),
        ("ex2.approx.ftz.f16 %h2, %h1;", false),
        ("ex2.approx.f16x2 %r2, %r1;", true),
        ("tanh.approx.ftz.bf16 %h2, %h1;", false),
        ("tanh.approx.bf16 %h2, %h1;", true),
        ("add.s16x2 %r2, %r1, %r1;", true),
        ("min.relu.s16x2 %r2, %r1, %r1;", true),
        ("max.u16x2 %r2, %r1, 7;", false),
        ("max.relu.u16x2 %r2, %r1, %r1;", false),
        ("min.relu.u32 %r2, %r1, %r1;", false),
    ];
    let ptxas = ptx2sass::internals::reference::require("ptxas", "cuda construct verdicts");
    for (line, accepted) in cases {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n .reg .b16 %h<4>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [p];\n ld.global.u16 %h1, [%rd1]; ld.global.u32 %r1, [%rd1];\n {line}\n st.global.u16 [%rd1], %h2; st.global.u32 [%rd1+4], %r2;\n ret;\n}}\n"
        );
        let ours = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).is_ok();
        assert_eq!(ours, accepted, "`{line}`: ours {}", if ours { "accepts" } else { "refuses" });
        if let Some(ptxas) = &ptxas {
            let dir = std::env::temp_dir().join(format!("ptx2sass-cuda-verdicts-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let file = dir.join("k.ptx");
            std::fs::write(&file, &text).expect("write");
            let ok = std::process::Command::new(ptxas).args(["-arch=sm_90", "-o"]).arg(dir.join("k.cubin")).arg(&file).output().expect("ptxas runs").status.success();
            assert_eq!(ok, accepted, "`{line}`: ptxas disagrees with the recorded verdict");
        }
    }
}
