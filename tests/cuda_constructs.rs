//! PTX constructs of CUDA C++ code (`tests/data/cuda_constructs`): the
//! half-precision MUFU functions (`ex2.approx`, `tanh.approx` of f16, bf16
//! and their pairs), `fma.rn.relu` of halves, `min/max.relu.s32`, `ldu`,
//! `%dynamic_smem_size`, `cvt` to tf32 (every rounding), `add/min/max`
//! of 16-bit lane pairs, `mapa`, `brkpt` and the cluster special
//! registers. On each SM of a kernel's `// sms:` line ptxas's
//! cubin and ours must give the same outputs in the SASS interpreter
//! ([`common::ptxas_match`]), and the PTX interpreter the same outputs as
//! our cubin. The PTX checker's verdicts on `ex2`'s `.ftz` and on lane
//! pairs are ptxas's.

mod common;

#[test]
fn cuda_constructs_match_ptxas_and_the_ptx_interpreter() {
    common::ptxas_match::all_kernels_match("cuda_constructs", 79, |text, cubin| common::ptxas_match::ptx_interpreter_agrees("cuda_constructs", text, cubin));
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
        ("pmevent 15;", true),
        ("pmevent 16;", false),
        ("pmevent %r1;", false),
        ("pmevent.mask 0xffff;", true),
        ("pmevent.mask 0x10000;", false),
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

/// Our cubin of the kernel file `relative` (from the crate root) for
/// `sm`, and ptxas's where the reference ptxas is installed, each named.
fn cubins_of(relative: &str, sm: u16) -> Vec<(&'static str, Vec<u8>)> {
    use ptx2sass::internals::driver::{self, CodegenOptions, Options};
    use ptx2sass::internals::target::Sm;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let text = std::fs::read_to_string(&path).expect("kernel");
    let module = ptx2sass::internals::ptx::parse_and_check(&text, &Default::default()).expect("parses");
    let ours = driver::compile_to_cubin(&module, Sm::new(sm), Some(&text), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
    let mut cubins = vec![("ours", ours.cubin)];
    if let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "cuda construct listings") {
        let cache = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/cuda_constructs-kernel-cubins");
        std::fs::create_dir_all(&cache).expect("cache directory");
        cubins.push(("ptxas's", common::cached_cubin(&ptxas, &cache, &path, sm).expect("ptxas compiles it")));
    }
    cubins
}

/// `pmevent 3` is `PMTRIG 0x8` and `pmevent.mask 0x8001` `PMTRIG 0x8001`
/// in our cubins and in ptxas 13.5's (the kernel's outputs are compared
/// by `cuda_constructs_match_ptxas_and_the_ptx_interpreter`).
#[test]
fn pmevent_is_pmtrig_of_the_event_mask() {
    for sm in [75u16, 90, 120] {
        for (who, cubin) in cubins_of("tests/data/cuda_constructs/envreg_pm.ptx", sm) {
            let listing = ptx2sass::disassemble(&cubin).expect("disassembles");
            let triggers: Vec<&str> = listing.lines().filter_map(|l| l.split_once("PMTRIG ").map(|(_, t)| t.trim_end_matches([' ', ';']))).collect();
            assert_eq!(triggers, ["0x8", "0x8001"], "sm_{sm}, {who}:\n{listing}");
        }
    }
}

/// `brkpt` is `BPT.TRAP 0x1` and not a terminator: the store after each
/// breakpoint stays (ptxas 13.5 keeps it too), and the unguarded one traps
/// in the SASS interpreter after the first store, in our cubin and in
/// ptxas's.
#[test]
fn a_breakpoint_is_bpt_trap_and_the_code_after_it_stays() {
    use ptx2sass::internals::interp::{ErrorKind, LaunchSpec, sass};
    let spec = LaunchSpec::from_json(r#"{"kernel": "k", "grid": [1,1,1], "block": [32,1,1], "shared_bytes": 0, "params": [{"kind": "buffer", "bytes": 16, "fill": "hex", "hex": "05000000000000000000000000000000", "output": true}]}"#).expect("spec");
    for sm in [75u16, 80, 90, 120] {
        for (who, cubin) in cubins_of("tests/data/cuda_constructs_single/breakpoint.ptx", sm) {
            let listing = ptx2sass::disassemble(&cubin).expect("disassembles");
            assert_eq!(listing.matches("BPT.TRAP 0x1").count(), 2, "sm_{sm}, {who}:\n{listing}");
            assert_eq!(listing.matches("STG.E").count(), 2, "sm_{sm}, {who}: the stores after the breakpoints:\n{listing}");
            let run = sass::run(&cubin, &spec, &Default::default());
            assert!(matches!(&run, Err(e) if e.kind == ErrorKind::Trap), "sm_{sm}, {who}: {:?}", run.map(|_| ()));
        }
    }
}

/// `fence.proxy.alias` is a sequentially consistent fence then `CCTL.IVALL`
/// in ptxas 13.5's cubins (of the GPU or the system by a driver word) and
/// ours (the system's), between the accesses it orders.
#[test]
fn an_alias_fence_is_a_full_fence_and_an_l1_invalidation() {
    for sm in [75u16, 80, 90, 100, 120] {
        for (who, cubin) in cubins_of("tests/data/cuda_constructs_single/alias_fence.ptx", sm) {
            let listing = ptx2sass::disassemble(&cubin).expect("disassembles");
            let at = |text: &str| listing.find(text).unwrap_or_else(|| panic!("sm_{sm}, {who}: no {text}:\n{listing}"));
            let (store, fence, invalidate) = (at("STG"), at("MEMBAR.SC."), at("CCTL.IVALL"));
            let load = listing.rfind("LDG").unwrap_or_else(|| panic!("sm_{sm}, {who}: no load:\n{listing}"));
            assert!(store < fence && fence < invalidate && invalidate < load, "sm_{sm}, {who}: store, fence, invalidation, load in that order:\n{listing}");
            if who == "ours" {
                assert!(listing.contains("MEMBAR.SC.SYS"), "sm_{sm}: ours at the system scope:\n{listing}");
            }
        }
    }
}
