//! The crate-root interface against the tool and the interpreter: a cubin
//! compiled through `ptx2sass::compile` equals the `ptx2sass` tool's byte
//! for byte (the README example on three SMs, and a sample of the shared
//! corpus); errors come back located; the in-memory builder example
//! (`examples/build_kernel.rs`) compiles to the same cubin as its PTX and
//! computes saxpy in the SASS interpreter; nothing panics on bad input.

mod common;

#[allow(dead_code)] // its `main` is the example's; the test calls `run`
#[path = "../examples/build_kernel.rs"]
mod build_kernel;

#[allow(dead_code)]
#[path = "../examples/compile_ptx.rs"]
mod compile_ptx;

use ptx2sass::internals::interp::{LaunchSpec, sass};
use ptx2sass::ori::{BinaryOp, Compare, Module, Space, Special, Type};
use ptx2sass::{ErrorKind, Options, Target, compile, disassemble};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx2sass-library-api-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The tool's cubin and `-v` report for `ptx` with `args`; `None` when the
/// tool refuses the file.
fn cli(ptx: &Path, args: &[&str], out: &Path) -> Option<(Vec<u8>, String)> {
    let run = Command::new(env!("CARGO_BIN_EXE_ptx2sass")).args(args).arg(ptx).arg("-o").arg(out).output().expect("runs ptx2sass");
    if !run.status.success() {
        return None;
    }
    // The tool writes -v on standard error, as ptxas does, ending with the
    // compile time (the one line the library's report leaves out).
    let report: String = String::from_utf8(run.stderr).expect("utf-8").lines().filter(|l| !l.starts_with("ptxas info    : Compile time = ")).map(|l| format!("{l}\n")).collect();
    Some((std::fs::read(out).expect("cubin written"), report))
}

#[test]
fn the_readme_example_compiles_to_the_cli_s_cubin_on_three_sms() {
    let ptx_path = root().join("examples/saxpy.ptx");
    let ptx = std::fs::read_to_string(&ptx_path).unwrap();
    let dir = scratch("readme");
    for sm in ["sm_80", "sm_90", "sm_120"] {
        let args = [format!("-arch={sm}"), "-v".to_string()];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (want, report) = cli(&ptx_path, &args, &dir.join("k.cubin")).expect("the tool compiles the example");
        let options = Options::from_ptxas_args(&args).unwrap();
        let got = compile(&ptx, &options).unwrap();
        assert!(got.cubin == want, "{sm}: the library's cubin differs from the tool's ({} against {} bytes)", got.cubin.len(), want.len());
        assert_eq!(got.info_log(), report, "{sm}: -v report");
        assert_eq!(got.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["saxpy", "vec_add_f64"]);
        assert!(got.kernels.iter().all(|k| k.registers > 0 && k.spill_store_bytes == 0 && k.instructions > 0));
        println!("{sm}: {} bytes, identical to the tool's", got.cubin.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_compile_ptx_example_writes_the_cli_s_cubin() {
    let ptx = root().join("examples/saxpy.ptx");
    let dir = scratch("example");
    for sm in ["sm_80", "sm_90", "sm_120"] {
        let (want, report) = cli(&ptx, &[&format!("-arch={sm}"), "-v"], &dir.join("tool.cubin")).unwrap();
        let out = dir.join("example.cubin");
        let args: Vec<String> = [format!("-arch={sm}"), "-v".into(), ptx.display().to_string(), "-o".into(), out.display().to_string()].into();
        assert_eq!(compile_ptx::run(&args).unwrap(), report, "{sm}: -v report");
        assert!(std::fs::read(&out).unwrap() == want, "{sm}: the example's cubin differs from the tool's");
    }
    let args: Vec<String> = ["--bogus".into(), ptx.display().to_string(), "-o".into(), dir.join("x").display().to_string()].into();
    assert_eq!(compile_ptx::run(&args).unwrap_err(), "ptxas fatal   : unknown option '--bogus'\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corpus_sample_compiles_to_the_cli_s_cubins() {
    let Some(corpus) = common::corpus_dir("corpus_sample_compiles_to_the_cli_s_cubins") else { return };
    let dir = scratch("corpus");
    // Every third file the tool compiles for sm_90, and for sm_80 with a
    // register limit (which changes allocation, so the option must reach
    // the compiler the same way).
    let mut compared = 0;
    for (sm, extra) in [("sm_90", None), ("sm_80", Some("--maxrregcount=32"))] {
        let number: u16 = sm[3..].parse().unwrap();
        let files: Vec<PathBuf> = common::ptx_inputs_for_sm(&corpus, number).into_iter().step_by(3).collect();
        let results = common::par_map(&files, |file| {
            let mut args = vec![format!("-arch={sm}")];
            args.extend(extra.map(String::from));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = dir.join(format!("{}.{sm}.cubin", file.file_name().unwrap().to_string_lossy()));
            let tool = cli(file, &args, &out);
            let source = std::fs::read(file).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap();
            let lib = compile(&source, &Options::from_ptxas_args(&args).unwrap());
            match (tool, lib) {
                (Some((want, _)), Ok(got)) if got.cubin == want => Ok(true),
                (None, Err(_)) => Ok(false),
                (tool, lib) => Err(format!("{} {sm}: tool {}, library {}", file.display(), tool.map_or("failed".into(), |t| format!("{} bytes", t.0.len())), lib.map_or_else(|e| e.to_string(), |o| format!("{} bytes", o.cubin.len())))),
            }
        });
        let mismatches: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        assert!(mismatches.is_empty(), "{} of {} differ:\n{}", mismatches.len(), files.len(), mismatches.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
        let same = results.iter().filter(|r| matches!(r, Ok(true))).count();
        println!("{sm}{}: {same} cubins identical, {} refused by both", extra.map_or(String::new(), |e| format!(" {e}")), files.len() - same);
        compared += same;
    }
    assert!(compared > 50, "only {compared} files compiled: the sample is too small to mean anything");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_are_located_and_render_as_ptxas_and_as_data() {
    let ptx = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<2>;\n  add.s32 %r1, %r1, %nope;\n  ret;\n}\n";
    let e = compile(ptx, &Options::new(Target::sm(90).unwrap())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPtx);
    let d = &e.diagnostics()[0];
    let loc = d.location.as_ref().expect("located");
    assert_eq!((loc.line, loc.column), (7, 21));
    assert_eq!(&ptx[loc.span.clone().unwrap()], "%nope");
    assert_eq!(e.render_ptxas("k.ptx"), "ptxas k.ptx, line 7; error   : unknown symbol '%nope'\nptxas fatal   : Ptx assembly aborted due to errors\n");
    assert!(e.render("k.ptx", ptx).starts_with("k.ptx:7:21: error: unknown symbol '%nope'\n  add.s32 %r1, %r1, %nope;\n"));
    assert!(e.to_json().contains(r#""line":7"#));

    // A target the PTX does not allow, and options that are not valid.
    let e = compile(ptx, &Options::new(Target::sm(80).unwrap())).unwrap_err();
    assert_eq!((e.kind(), e.diagnostics()[0].location.as_ref().map(|l| l.line)), (ErrorKind::InvalidPtx, Some(2)));
    let mut options = Options::new(Target::sm(90).unwrap());
    options.opt_level = 4;
    assert_eq!(compile(ptx, &options).unwrap_err().kind(), ErrorKind::InvalidOptions);
}

#[test]
fn every_listed_ptx_version_is_read_and_a_newer_one_is_refused_as_such() {
    let module = |v: &str| format!(".version {v}\n.target sm_75\n.address_size 64\n.visible .entry k() {{ ret; }}\n");
    let options = Options::new(Target::sm(75).unwrap());
    for &(major, minor) in ptx2sass::PTX_ISA_VERSIONS {
        // Old versions do not allow sm_75; that is another error.
        if let Err(e) = compile(&module(&format!("{major}.{minor}")), &options) {
            assert_eq!(e.kind(), ErrorKind::InvalidPtx, "{major}.{minor}: {e}");
        }
    }
    let e = compile(&module("9.6"), &options).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnsupportedPtxVersion, "{e}");
    assert_eq!(e.diagnostics()[0].location.as_ref().map(|l| l.line), Some(1));
}

#[test]
fn a_virtual_target_checks_without_code() {
    let ptx = std::fs::read_to_string(root().join("examples/saxpy.ptx")).unwrap();
    let out = compile(&ptx, &Options::from_ptxas_args(&["-arch=compute_90"]).unwrap()).unwrap();
    assert!(out.is_check_only() && out.cubin.is_empty() && out.kernels.is_empty());
}

#[test]
fn options_without_full_effect_are_warned_about() {
    let ptx = std::fs::read_to_string(root().join("examples/saxpy.ptx")).unwrap();
    let plain = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_90"]).unwrap()).unwrap();
    let asked = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_90", "-g", "-O1", "--fmad=false"]).unwrap()).unwrap();
    assert!(plain.warnings.is_empty());
    assert_eq!(asked.warnings.len(), 1, "{:?}", asked.warnings);
    assert!(asked.warnings[0].message.contains("-g"));
    let quiet = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_90", "-g", "-w"]).unwrap()).unwrap();
    assert!(quiet.warnings.is_empty());
    // -lineinfo is done as asked: no warning, and the cubin gains the line
    // tables; -suppress-debug-info takes them away again (as with ptxas).
    let lines = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_90", "-lineinfo"]).unwrap()).unwrap();
    assert!(lines.warnings.is_empty(), "{:?}", lines.warnings);
    assert!(lines.cubin.windows(b".nv_debug_line_sass".len()).any(|w| w == b".nv_debug_line_sass"));
    let suppressed = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_90", "-lineinfo", "-suppress-debug-info"]).unwrap()).unwrap();
    assert_eq!(suppressed.cubin, plain.cubin);
}

/// The `saxpy` kernel of examples/saxpy.ptx alone, for `sm`.
fn saxpy_ptx(sm: &str) -> String {
    let text = std::fs::read_to_string(root().join("examples/saxpy.ptx")).unwrap();
    let start = text.find(".visible .entry saxpy").unwrap();
    let end = text.find(".visible .entry vec_add_f64").unwrap();
    format!(".version 9.0\n.target {sm}\n.address_size 64\n\n{}", &text[start..end])
}

#[test]
fn the_builder_example_compiles_to_its_ptx_s_cubin_and_runs_saxpy() {
    build_kernel::run("sm_90".parse().unwrap()).expect("the example runs");
    for sm in ["sm_80", "sm_90", "sm_120"] {
        let target: Target = sm.parse().unwrap();
        let (cubin, listing) = build_kernel::build_and_compile(target).expect("builds and compiles");
        let from_ptx = compile(&saxpy_ptx(sm), &Options::new(target)).unwrap();
        assert!(cubin == from_ptx.cubin, "{sm}: the built kernel's cubin differs from its PTX's");
        assert!(listing.contains(".kernel saxpy") && listing.contains("FFMA") && listing.contains("EXIT"), "{listing}");
    }
    // Run it: x = 1, 2, 3, 4, …; y = 0.5; a = 2; n = 100 of 128 threads.
    let (cubin, _) = build_kernel::build_and_compile("sm_90".parse().unwrap()).unwrap();
    let spec = LaunchSpec::from_json(&std::fs::read_to_string(root().join("examples/saxpy.launch.json")).unwrap()).unwrap();
    let out = sass::run(&cubin, &spec, &Default::default()).expect("runs in the SASS interpreter");
    let y: String = (0..100).map(|i| (2.0f32 * (1 + i % 4) as f32 + 0.5).to_le_bytes()).map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>()).collect();
    assert_eq!(out.launch.outputs_text(), format!("param 3: {y}\n"));
}

/// A kernel with a loop, a variable, shared memory, a barrier and a call,
/// run in the interpreter: out[t] = sum of 0..=t of (2k) over a shared
/// copy, for 32 threads.
#[test]
fn builder_loops_variables_shared_memory_and_calls_run() {
    let mut m = Module::new();
    let twice = m
        .device_function("twice", &[Type::U32], |b| {
            let v = b.param("v", Type::U32);
            let r = b.binary(BinaryOp::Add, Type::U32, v, v);
            b.ret(&[r]);
        })
        .unwrap();
    let buf = m.shared_array("buf", 128, 4).unwrap();
    m.kernel("prefix", |b| {
        b.set_location(1, 1);
        let out = b.param("out", Type::U64);
        let tid = b.special(Special::TidX);
        let base = b.address_of(buf);
        let two = b.iconst(Type::U32, 2);
        let byte = b.binary(BinaryOp::Shl, Type::B32, tid, two);
        let slot = b.binary(BinaryOp::Add, Type::U32, base, byte);
        let doubled = b.call(twice, &[tid]);
        b.store(Space::Shared, Type::U32, slot, 0, doubled[0]);
        b.barrier();
        // sum = 0; k = 0; do { sum += buf[k]; k += 1 } while (k <= tid)
        let sum = b.declare_var(Type::U32);
        let k = b.declare_var(Type::U32);
        let zero = b.iconst(Type::U32, 0);
        b.set_var(sum, zero);
        b.set_var(k, zero);
        let (head, done) = (b.create_block(), b.create_block());
        b.jump(head, &[]);
        b.switch_to_block(head);
        let kv = b.get_var(k);
        let kb = b.binary(BinaryOp::Shl, Type::B32, kv, two);
        let at = b.binary(BinaryOp::Add, Type::U32, base, kb);
        let x = b.load(Space::Shared, Type::U32, at, 0);
        let s = b.get_var(sum);
        let s = b.binary(BinaryOp::Add, Type::U32, s, x);
        b.set_var(sum, s);
        let one = b.iconst(Type::U32, 1);
        let next = b.binary(BinaryOp::Add, Type::U32, kv, one);
        b.set_var(k, next);
        let more = b.compare(Compare::Le, Type::U32, next, tid);
        b.branch(more, head, &[], done, &[]);
        b.switch_to_block(done);
        let g = b.to_global(out);
        let four = b.iconst(Type::U32, 4);
        let addr = b.mad_wide(Type::U32, tid, four, g);
        let total = b.get_var(sum);
        b.store(Space::Global, Type::U32, addr, 0, total);
        b.exit();
    })
    .unwrap();
    let output = compile(&m, &Options::new(Target::sm(90).unwrap())).unwrap();
    assert_eq!(output.kernels[0].shared_bytes, 128);
    assert!(disassemble(&output.cubin).unwrap().contains("BAR.SYNC"));
    let spec = LaunchSpec::from_json(r#"{"kernel": "prefix", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
        "params": [{"kind": "buffer", "bytes": 128, "fill": "zero", "output": true}]}"#)
    .unwrap();
    let out = sass::run(&output.cubin, &spec, &Default::default()).expect("runs");
    let want: String = (0u32..32).map(|t| (t * (t + 1)).to_le_bytes().iter().map(|x| format!("{x:02x}")).collect::<String>()).collect();
    assert_eq!(out.launch.outputs_text(), format!("param 0: {want}\n"));
}

#[test]
fn builder_misuse_is_an_error_not_a_panic() {
    let mut other = Module::new();
    let mut leaked = None;
    other
        .kernel("a", |b| {
            leaked = Some(b.special(Special::TidX));
            b.exit();
        })
        .unwrap();
    let foreign = leaked.unwrap();
    let cases: Vec<(&str, Box<dyn Fn(&mut ptx2sass::ori::FunctionBuilder<'_>)>)> = vec![
        ("value of another function", Box::new(move |b| {
            let one = b.iconst(Type::U32, 1);
            b.binary(BinaryOp::Add, Type::U32, foreign, one);
            b.exit();
        })),
        ("register class", Box::new(|b| {
            let wide = b.iconst(Type::U64, 1);
            let narrow = b.iconst(Type::U32, 1);
            b.binary(BinaryOp::Add, Type::U32, wide, narrow);
            b.exit();
        })),
        ("after the branch", Box::new(|b| {
            b.exit();
            b.iconst(Type::U32, 1);
            b.exit();
        })),
        ("a kernel returning a value", Box::new(|b| {
            let one = b.iconst(Type::U32, 1);
            b.ret(&[one]);
        })),
        ("no terminator", Box::new(|b| {
            b.iconst(Type::U32, 1);
        })),
        ("undefined operation", Box::new(|b| {
            let f = b.f32_const(1.0);
            b.binary(BinaryOp::Rem, Type::F32, f, f);
            b.exit();
        })),
    ];
    for (what, body) in cases {
        let mut m = Module::new();
        let e = m.kernel("k", |b| body(b)).expect_err(what);
        assert_eq!(e.kind(), ErrorKind::InvalidModule, "{what}: {e}");
        assert_eq!(e.diagnostics()[0].function.as_deref(), Some("k"), "{what}");
        println!("{what}: {e}");
    }
    let mut m = Module::new();
    assert!(m.kernel("bad name", |b| b.exit()).is_err());
    m.kernel("k", |b| b.exit()).unwrap();
    assert!(m.kernel("k", |b| b.exit()).is_err(), "a second function of one name");
    // The misuse is reported where the front end said it was.
    let e = m
        .kernel("located", |b| {
            b.set_location(12, 5);
            let p = b.iconst(Type::Pred, 0);
            b.load(Space::Global, Type::U32, p, 0);
            b.exit();
        })
        .unwrap_err();
    assert_eq!(e.diagnostics()[0].location.as_ref().map(|l| (l.line, l.column)), Some((12, 5)));
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let options = Options::new(Target::sm(90).unwrap());
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let saxpy = std::fs::read_to_string(root().join("examples/saxpy.ptx")).unwrap();
    for n in 0..200 {
        // Cut the example at a pseudo-random point and splice in junk.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cut = (seed as usize) % saxpy.len();
        let cut = (0..=cut).rev().find(|&c| saxpy.is_char_boundary(c)).unwrap();
        let junk = ["", "}", "{", "%r1", ".reg", "@", "[", "\0", "ld.global.f32", "0f7FC00000"][n % 10];
        let text = format!("{}{junk}{}", &saxpy[..cut], &saxpy[cut..][..(saxpy.len() - cut) / 2]);
        let _ = compile(&text, &options);
    }
    for bytes in [&b""[..], b"\x7fELF", b"not a cubin", &[0u8; 64]] {
        assert_eq!(disassemble(bytes).unwrap_err().kind(), ErrorKind::InvalidCubin);
    }
    assert_eq!(compile("", &options).unwrap_err().kind(), ErrorKind::InvalidPtx);
}
