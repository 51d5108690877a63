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
        "option '--def-load-cache=cg' accepted and ignored: loads keep the cache operator their PTX names",
        "option '--def-store-cache=wb' accepted and ignored",
        "option '--position-independent-code=false' accepted and ignored",
    ] {
        assert!(err.contains(note), "missing '{note}' in:\n{err}");
    }
    // The ignored options change nothing: the same cubin as without them.
    let plain_path = scratch("saxpy-plain.cubin");
    let plain = ptx2sass(&["--gpu-name=sm_90", "-g", "-suppress-debug-info", "--fmad=false", "--maxrregcount=64", "examples/saxpy.ptx", "-o", plain_path.to_str().unwrap()]);
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

/// The bytes of section `name` of a cubin.
fn section(cubin: &[u8], name: &str) -> Option<Vec<u8>> {
    use ptx2sass::internals::cubin::elf::{Content, read};
    let read = read(cubin).expect("the cubin reads");
    read.elf.sections.iter().find(|s| s.name == name).map(|s| match &s.content {
        Content::Bytes(b) => b.clone(),
        _ => Vec::new(),
    })
}

fn uleb(d: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let b = d[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b < 0x80 {
            return v;
        }
    }
}

fn sleb(d: &[u8], at: &mut usize) -> i64 {
    let (mut v, mut shift) = (0i64, 0);
    loop {
        let b = d[*at];
        *at += 1;
        v |= i64::from(b & 0x7f) << shift;
        shift += 7;
        if b < 0x80 {
            if b & 0x40 != 0 {
                v -= 1 << shift;
            }
            return v;
        }
    }
}

/// A DWARF 2-4 line program, decoded by the book (not by the code that
/// writes it): the file names, and each sequence's rows (address, file,
/// line) and end address.
fn line_rows(d: &[u8]) -> (Vec<String>, Vec<(Vec<(u64, u64, i64)>, u64)>) {
    let length = u32::from_le_bytes(d[0..4].try_into().unwrap()) as usize;
    let header_length = u32::from_le_bytes(d[6..10].try_into().unwrap()) as usize;
    let (line_base, line_range, opcode_base) = (d[12] as i8 as i64, u64::from(d[13]), d[14]);
    let mut at = 15 + usize::from(opcode_base) - 1;
    while d[at] != 0 {
        at += d[at..].iter().position(|&b| b == 0).unwrap() + 1;
    }
    at += 1;
    let mut files = Vec::new();
    while d[at] != 0 {
        let end = at + d[at..].iter().position(|&b| b == 0).unwrap();
        files.push(String::from_utf8_lossy(&d[at..end]).into_owned());
        at = end + 1;
        for _ in 0..3 {
            uleb(d, &mut at);
        }
    }
    let mut at = 10 + header_length;
    let (mut sequences, mut rows) = (Vec::new(), Vec::new());
    let (mut address, mut file, mut line) = (0u64, 1u64, 1i64);
    while at < 4 + length {
        let op = d[at];
        at += 1;
        match op {
            0 => {
                let n = uleb(d, &mut at) as usize;
                match d[at] {
                    1 => {
                        sequences.push((std::mem::take(&mut rows), address));
                        (address, file, line) = (0, 1, 1);
                    }
                    2 => address = u64::from_le_bytes(d[at + 1..at + 9].try_into().unwrap()),
                    _ => {}
                }
                at += n;
            }
            1 => rows.push((address, file, line)),
            2 => address += uleb(d, &mut at),
            3 => line += sleb(d, &mut at),
            4 => file = uleb(d, &mut at),
            5 | 12 => {
                uleb(d, &mut at);
            }
            8 => address += (255 - u64::from(opcode_base)) / line_range,
            6 | 7 | 10 | 11 => {}
            _ => {
                let a = u64::from(op - opcode_base);
                address += a / line_range;
                line += line_base + (a % line_range) as i64;
                rows.push((address, file, line));
            }
        }
    }
    (files, sequences)
}

/// `-lineinfo` on Triton's vector_add, checked against what ptxas 13.5
/// writes for it (sm_80 and sm_90): the same `.loc` lines covered, the
/// file table, `.nv_debug_ptx_txt` line for line, rows from the first
/// instruction to the end of the code; without `-lineinfo` none of it.
#[test]
fn lineinfo_writes_the_line_tables_ptxas_writes() {
    let ptx = "tests/data/triton/vector_add.sm_80.ptx";
    for arch in ["-arch=sm_80", "-arch=sm_90"] {
        let (with, without) = (scratch("lines.cubin"), scratch("plain.cubin"));
        let run = ptx2sass(&[arch, "-lineinfo", ptx, "-o", with.to_str().unwrap()]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        assert!(run.stderr.is_empty(), "-lineinfo is done, not warned about: {}", text(&run.stderr));
        let plain = ptx2sass(&[arch, ptx, "-o", without.to_str().unwrap()]);
        assert!(plain.status.success());
        let (cubin, plain) = (std::fs::read(&with).unwrap(), std::fs::read(&without).unwrap());
        for name in [".debug_line", ".nv_debug_line_sass", ".nv_debug_ptx_txt"] {
            assert!(section(&plain, name).is_none(), "{arch}: {name} without -lineinfo");
        }
        // e_flags' top byte: 0x09 with line information (ptxas).
        assert_eq!(cubin[0x33], 0x09, "{arch}");
        let code = section(&cubin, ".text.vector_add").unwrap().len() as u64;
        let (files, sequences) = line_rows(&section(&cubin, ".debug_line").unwrap());
        assert_eq!(files, ["vector_add.py"], "{arch}");
        assert_eq!(sequences.len(), 1, "{arch}");
        let (rows, end) = &sequences[0];
        assert_eq!((rows[0].0, *end), (0, code), "{arch}: the rows cover the code");
        // ptxas covers lines 7 to 13 of vector_add.py (its .loc lines).
        let mut lines: Vec<i64> = rows.iter().map(|r| r.2).collect();
        lines.sort_unstable();
        lines.dedup();
        assert_eq!(lines, [7, 8, 9, 10, 11, 12, 13], "{arch}");
        // PTX lines: each row names a line of .nv_debug_ptx_txt holding an
        // instruction (file 0: the text itself).
        let txt = section(&cubin, ".nv_debug_ptx_txt").unwrap();
        // ptxas's text for this file: 3238 bytes, line 29 the first load.
        assert_eq!(txt.len(), 3238, "{arch}");
        let text_lines: Vec<&[u8]> = txt.split(|&b| b == 0).collect();
        assert_eq!(text_lines[28], b"ld.param.b64 \t%rd7, [vector_add_param_0];");
        assert!(text_lines[23].is_empty(), "the .loc line is blanked");
        let (none, ptx_sequences) = line_rows(&section(&cubin, ".nv_debug_line_sass").unwrap());
        assert!(none.is_empty());
        let (ptx_rows, ptx_end) = &ptx_sequences[0];
        assert_eq!((ptx_rows[0].0, *ptx_end), (0, code), "{arch}");
        for &(_, file, line) in ptx_rows {
            assert_eq!(file, 0);
            let t = text_lines[line as usize - 1];
            assert!(!t.is_empty() && !t.starts_with(b"."), "{arch}: row names PTX line {line}, '{}'", String::from_utf8_lossy(t));
        }
        // -suppress-debug-info takes it all away again (as with ptxas).
        let suppressed = ptx2sass(&[arch, "-lineinfo", "-suppress-debug-info", ptx, "-o", with.to_str().unwrap()]);
        assert!(suppressed.status.success());
        assert!(std::fs::read(&with).unwrap() == plain, "{arch}");
    }
}

/// The `-v` report (standard error) with what may differ from ptxas's
/// taken out: the notes on ignored options, the register count (our
/// allocation's; `Used N registers`) and the compile time's figure.
fn verbose_facts(stderr: &[u8]) -> Vec<String> {
    text(stderr)
        .lines()
        .filter(|l| !l.starts_with("ptx2sass info"))
        .map(|l| {
            let l = match l.find("Used ").zip(l.find(" registers")) {
                Some((a, b)) if a < b => format!("{}Used N{}", &l[..a], &l[b..]),
                _ => l.to_string(),
            };
            match l.find("Compile time = ") {
                Some(a) => format!("{}Compile time = T ms", &l[..a]),
                None => l,
            }
        })
        .collect()
}

/// ptxas 13.5's `-v` lines for the same files and options (registers and
/// compile time as [`verbose_facts`] writes them): frames, spills, barriers,
/// shared memory, constant banks, global bytes and the order of the lines
/// are facts of the cubin or of the format, which ours must share.
#[test]
fn verbose_report_states_what_ptxas_states() {
    let out = scratch("v.cubin");
    let out = out.to_str().unwrap();
    let p = |s: &str| format!("ptxas info    : {s}");
    let cases: Vec<(Vec<&str>, Vec<String>)> = vec![
        // Triton's own PTX through its command line: predicates spilled
        // into registers, not the frame (ptxas has no frame either).
        (
            triton_command("--gpu-name=sm_80", "tests/data/triton/vector_add.sm_80.ptx", out),
            vec![
                p("0 bytes gmem"),
                p("Compiling entry function 'vector_add' for 'sm_80'"),
                p("Function properties for vector_add"),
                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".into(),
                p("Used N registers, used 0 barriers, 400 bytes cmem[0]"),
                p("Compile time = T ms"),
            ],
        ),
        (
            triton_command("--gpu-name=sm_100a", "tests/data/triton/layernorm_fwd.sm_100.ptx", out),
            vec![
                p("28 bytes gmem"),
                p("Compiling entry function 'layernorm_fwd' for 'sm_100a'"),
                p("Function properties for layernorm_fwd"),
                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".into(),
                p("Used N registers, used 1 barriers"),
                p("Compile time = T ms"),
            ],
        ),
        // Global and constant layout, bank 4 slots for every global; from
        // sm_90 on no constant bank is named.
        (
            vec!["-v", "-arch=sm_80", "tests/data/ptxas_cli/variables.ptx", "-o", out],
            vec![
                p("14 bytes gmem, 16 bytes cmem[3], 24 bytes cmem[4]"),
                p("Compiling entry function 'k' for 'sm_80'"),
                p("Function properties for k"),
                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".into(),
                p("Used N registers, used 0 barriers, 360 bytes cmem[0]"),
                p("Compile time = T ms"),
            ],
        ),
        (
            vec!["-v", "-arch=sm_90", "tests/data/ptxas_cli/variables.ptx", "-o", out],
            vec![
                p("14 bytes gmem"),
                p("Compiling entry function 'k' for 'sm_90'"),
                p("Function properties for k"),
                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".into(),
                p("Used N registers, used 0 barriers"),
                p("Compile time = T ms"),
            ],
        ),
        // Kernels last first, a compile time each.
        (
            vec!["-v", "-arch=sm_80", "tests/data/ptxas_cli/kernel_order.ptx", "-o", out],
            ["cc", "aa", "bb"].iter().fold(vec![p("0 bytes gmem")], |mut v, k| {
                v.push(p(&format!("Compiling entry function '{k}' for 'sm_80'")));
                v.push(p(&format!("Function properties for {k}")));
                v.push("    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".into());
                v.push(p("Used N registers, used 0 barriers, 360 bytes cmem[0]"));
                v.push(p("Compile time = T ms"));
                v
            }),
        ),
    ];
    for (args, want) in cases {
        let run = ptx2sass(&args);
        assert!(run.status.success(), "{args:?}: {}", text(&run.stderr));
        assert_eq!(verbose_facts(&run.stderr), want, "{args:?}");
    }
}

/// A recursive device function: the warning ptxas gives with or without
/// -v, the function's own -v lines after the kernel's compile time, and
/// --warn-on-spills's line for each function that spills (ours spills in
/// the kernel too: every register is caller-saved in our convention).
#[test]
fn recursion_warns_and_reports_the_device_function() {
    let out = scratch("rec.cubin");
    let out = out.to_str().unwrap();
    let stack = "ptxas warning : Stack size for entry function 'k' cannot be statically determined";
    let quiet = ptx2sass(&["-arch=sm_80", "tests/data/ptxas_cli/recursion.ptx", "-o", out]);
    assert!(quiet.status.success());
    assert_eq!(text(&quiet.stderr), format!("{stack}\n"));
    let run = ptx2sass(&["-v", "--warn-on-spills", "-arch=sm_80", "tests/data/ptxas_cli/recursion.ptx", "-o", out]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let lines = verbose_facts(&run.stderr);
    assert_eq!(lines[0], stack);
    let spilled = |f: &str| lines.iter().any(|l| l.starts_with(&format!("ptxas warning : Registers are spilled to local memory in function '{f}', ")) && l.ends_with(" bytes spill loads"));
    assert!(spilled("fact"), "{lines:#?}");
    let time = lines.iter().position(|l| l == "ptxas info    : Compile time = T ms").expect("a compile time");
    assert_eq!(lines[time + 1], "ptxas info    : Function properties for fact", "{lines:#?}");
    // ptxas's frame for fact is 16 bytes; so is ours.
    assert!(lines[time + 2].starts_with("    16 bytes stack frame, "), "{lines:#?}");
    // -Werror makes the warnings errors and the compilation fails (255);
    // -w silences them.
    let strict = ptx2sass(&["-Werror", "-arch=sm_80", "tests/data/ptxas_cli/recursion.ptx", "-o", out]);
    assert_eq!(strict.status.code(), Some(255));
    assert!(text(&strict.stderr).starts_with("ptxas error   : Stack size for entry function 'k'"), "{}", text(&strict.stderr));
    let silent = ptx2sass(&["-w", "--warn-on-spills", "-arch=sm_80", "tests/data/ptxas_cli/recursion.ptx", "-o", out]);
    assert!(silent.status.success() && silent.stderr.is_empty(), "{}", text(&silent.stderr));
}
