//! `ptx2sass` as a drop-in `ptxas` for Triton, nvcc and PyTorch: the
//! command lines they pass, `--version` as Triton reads it, the exit
//! statuses, the `-v` report, and Triton's own PTX (three files the Triton
//! harness, `scripts/triton-corpus.sh`, wrote from the kernels of
//! `corpus/triton`) compiled through Triton's unchanged command line.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ptx2sass(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx2sass")).current_dir(root()).args(args).output().expect("ptx2sass runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx2sass-ptxas-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Triton 3.9's ptxas command line for `arch` (its NVIDIA back end's
/// `make_cubin`, without the options it adds on request).
fn triton_command<'a>(arch: &'a str, ptx: &'a str, out: &'a str) -> Vec<&'a str> {
    vec!["-lineinfo", "-v", "--regAllocOptLevel=2", arch, ptx, "-o", out]
}

const SAMPLES: [(&str, &str); 3] = [
    // One-element vector operands (`ld.global.b32 { %r17 }, [ %rd11 + 0 ]`),
    // `.ptr .global .align` parameters, `.loc` with `inlined_at`, DWARF sections.
    ("tests/data/triton/vector_add.sm_80.ptx", "--gpu-name=sm_80"),
    // createpolicy.fractional and `.L2::cache_hint` loads and stores.
    ("tests/data/triton/evict_hints.sm_90.ptx", "--gpu-name=sm_90a"),
    // Packed f32x2 arithmetic and `sub.rn.f32.f16` (sm_100+).
    ("tests/data/triton/layernorm_fwd.sm_100.ptx", "--gpu-name=sm_100a"),
];

#[test]
fn tritons_command_line_compiles_its_ptx_deterministically() {
    for (ptx, arch) in SAMPLES {
        let (a, b) = (scratch("a.cubin"), scratch("b.cubin"));
        let first = ptx2sass(&triton_command(arch, ptx, a.to_str().unwrap()));
        assert!(first.status.success(), "{ptx}: {}", text(&first.stderr));
        let second = ptx2sass(&triton_command(arch, ptx, b.to_str().unwrap()));
        assert!(second.status.success(), "{ptx}: {}", text(&second.stderr));
        let (a, b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert!(a.len() > 64 && a[..4] == *b"\x7fELF", "{ptx}: not a cubin");
        assert!(a == b, "{ptx}: two runs wrote different cubins");
        // The -v report, on standard error as ptxas writes it (Triton keeps
        // only standard error), with the note for the ignored option first.
        let err = text(&first.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines[0], "ptx2sass info : option '--regAllocOptLevel=2' accepted and ignored: register allocation is regalloc2's, with no levels", "{ptx}");
        assert!(lines[1].starts_with("ptxas info    : ") && lines[1].ends_with(" bytes gmem"), "{ptx}: {err}");
        assert!(lines.iter().any(|l| l.starts_with("ptxas info    : Used ") && l.contains(" registers, used ") && l.contains(" barriers")), "{ptx}: {err}");
        assert!(lines.last().is_some_and(|l| l.starts_with("ptxas info    : Compile time = ") && l.ends_with(" ms")), "{ptx}: {err}");
        assert!(first.stdout.is_empty(), "{ptx}: -v belongs on standard error");
    }
}

/// Triton's masked 128-bit loads (`@%p1 ld.global.v4.b32 { %r1, %r2, %r3,
/// %r4 }, [ %rd1 + 0 ]`, each element set to 0 first): our cubin's outputs
/// in the SASS interpreter equal those of ptxas's cubin.
#[test]
fn guarded_vector_loads_compute_what_ptxas_code_computes() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "guarded_vector_loads_compute_what_ptxas_code_computes") else { return };
    let ptx = "tests/data/triton/vector_add_div16.sm_80.ptx";
    let spec = root().join("corpus/triton/launch/vector_add_div16.json");
    let (ours, theirs) = (scratch("div16-ours.cubin"), scratch("div16-ptxas.cubin"));
    let built = ptx2sass(&["--gpu-name=sm_80", ptx, "-o", ours.to_str().unwrap()]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let reference = Command::new(ptxas).current_dir(root()).args(["--gpu-name=sm_80", ptx, "-o", theirs.to_str().unwrap()]).output().unwrap();
    assert!(reference.status.success(), "{}", text(&reference.stderr));
    let run = |cubin: &PathBuf| {
        let out = Command::new(env!("CARGO_BIN_EXE_sass")).arg("run").arg("--launch").arg(&spec).args(["--hazards", "fail"]).arg(cubin).output().unwrap();
        assert!(out.status.success(), "{}: {}", cubin.display(), text(&out.stderr));
        text(&out.stdout)
    };
    let (mine, expected) = (run(&ours), run(&theirs));
    assert!(mine.starts_with("param 2: "), "{mine}");
    assert_eq!(mine, expected);
}

#[test]
fn the_samples_pass_parse_only_as_ptxas_passes_them() {
    for (ptx, arch) in SAMPLES {
        let virtual_arch = arch.replace("--gpu-name=sm_", "-arch=compute_");
        let out = ptx2sass(&[&virtual_arch, ptx]);
        assert!(out.status.success(), "{ptx}: {}", text(&out.stderr));
        if let Some(ptxas) = ptx2sass::internals::reference::find("ptxas") {
            let theirs = Command::new(ptxas).current_dir(root()).args([&virtual_arch, ptx]).output().unwrap();
            assert!(theirs.status.success(), "{ptx}: ptxas refuses it: {}", text(&theirs.stderr));
        }
    }
}

#[test]
fn version_names_the_release_triton_reads() {
    let out = ptx2sass(&["--version"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    // Triton's pattern is `release (\d+)\.(\d+)`, and it emits PTX ISA
    // (major - 4).minor for CUDA release major.minor: 13.5 is ISA 9.5, the
    // newest ptx2sass reads.
    let release = stdout.lines().find_map(|l| l.split("release ").nth(1)).expect("a 'release N.M' line");
    assert_eq!(release.trim(), "13.5", "{stdout}");
    assert!(stdout.starts_with("ptx2sass"), "{stdout}");
}

#[test]
fn every_failure_exits_255_as_ptxas() {
    let bad_ptx = scratch("bad.ptx");
    std::fs::write(&bad_ptx, ".version 9.5\n.target sm_80\n.address_size 64\n.visible .entry k() { bogus; }\n").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["--bogus", "examples/saxpy.ptx"], "unknown option '--bogus'"),
        (&["-arch=sm_80", "no-such-file.ptx"], "cannot read 'no-such-file.ptx'"),
        (&["-arch=sm_80", bad_ptx.to_str().unwrap()], "error"),
        (&["-arch=sm_91", "examples/saxpy.ptx"], "unknown architecture 'sm_91'"),
        (&["-dlcm=zz", "examples/saxpy.ptx"], "invalid value 'zz' for option '-dlcm'"),
    ];
    for (args, message) in cases {
        let out = ptx2sass(args);
        assert_eq!(out.status.code(), Some(255), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(message), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn options_nvcc_and_pytorch_pass_are_accepted_and_noted() {
    let out_path = scratch("saxpy.cubin");
    let out = out_path.to_str().unwrap();
    let args = [
        "--gpu-name",
        "sm_90",
        "-O3",
        "-g",
        "--fmad=false",
        "-Werror",
        "--warn-on-spills",
        "--warn-on-local-memory-usage",
        "--maxrregcount=64",
        "--def-load-cache",
        "cg",
        "--def-store-cache=wb",
        "--allow-expensive-optimizations=true",
        "--position-independent-code=false",
        "-c",
        "--extensible-whole-program",
        "-suppress-debug-info",
        "-v",
        "examples/saxpy.ptx",
        "-o",
        out,
    ];
    let run = ptx2sass(&args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let err = text(&run.stderr);
    for note in [
        "option '--warn-on-spills' accepted and ignored",
        "option '--def-load-cache=cg' accepted and ignored: loads keep the cache operator their PTX names",
        "option '--def-store-cache=wb' accepted and ignored",
        "option '--position-independent-code=false' accepted and ignored",
        "option '-suppress-debug-info' accepted and ignored",
    ] {
        assert!(err.contains(note), "missing '{note}' in:\n{err}");
    }
    // The ignored options change nothing: the same cubin as without them.
    let plain_path = scratch("saxpy-plain.cubin");
    let plain = ptx2sass(&["--gpu-name=sm_90", "-g", "--fmad=false", "--maxrregcount=64", "examples/saxpy.ptx", "-o", plain_path.to_str().unwrap()]);
    assert!(plain.status.success(), "{}", text(&plain.stderr));
    assert!(std::fs::read(&out_path).unwrap() == std::fs::read(&plain_path).unwrap());
}

#[test]
fn the_asynchronous_path_is_refused_clearly() {
    let ptx = scratch("wgmma.ptx");
    std::fs::write(
        &ptx,
        ".version 9.5\n.target sm_90a\n.address_size 64\n.visible .entry k() {\n\twgmma.fence.sync.aligned;\n\tret;\n}\n",
    )
    .unwrap();
    let out = ptx2sass(&["-arch=sm_90a", ptx.to_str().unwrap(), "-o", scratch("wgmma.cubin").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(255));
    let err = text(&out.stderr);
    assert!(err.contains("wgmma.fence") && err.contains("asynchronous path") && err.contains(":5:"), "{err}");
}
