//! One C program (`capi/tests/compile.c`, written against the
//! nvPTXCompiler interface) built four ways: against NVIDIA's
//! `nvPTXCompiler.h` and linked with NVIDIA's static library, against
//! NVIDIA's header and linked with ptx2sass's static library, against
//! ptx2sass's own header (`capi/include`) with its static and with its
//! shared library. Each compiles the README example (`examples/saxpy.ptx`)
//! for sm_80, sm_90 and sm_120; with ptx2sass's library the cubins must
//! equal the `ptx2sass` tool's byte for byte; a PTX error must come back
//! through the error log with its line.
//!
//! NVIDIA's header and library come from the `nvidia-nvptxcompiler` wheel
//! that `scripts/install-reference.sh` installs into
//! `.reference/nvptxcompiler` (or `$PTX2SASS_NVPTXCOMPILER`); without it
//! the tests that need it print a `SKIPPED` line and pass, except under
//! `CI=true`, where they fail. They need a C compiler (`$CC`, else `cc`).

use std::path::{Path, PathBuf};
use std::process::Command;

const SMS: [&str; 3] = ["sm_80", "sm_90", "sm_120"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The profile directory this test was built into (`target/release`),
/// where cargo puts the libraries and the `ptx2sass` tool.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent().and_then(Path::parent).expect("target/<profile>/deps/<test>").to_path_buf()
}

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A missing prerequisite: a failure under CI, else a visible skip.
fn missing(what: &str, test: &str) -> Option<PathBuf> {
    assert!(!ci(), "{what} (test {test}); CI=true requires it: run scripts/install-reference.sh");
    eprintln!("SKIPPED ({what}; run scripts/install-reference.sh): {test}");
    None
}

fn cc(test: &str) -> Option<PathBuf> {
    let cc = PathBuf::from(std::env::var_os("CC").unwrap_or_else(|| "cc".into()));
    match Command::new(&cc).arg("--version").output() {
        Ok(o) if o.status.success() => Some(cc),
        _ => missing(&format!("no C compiler ({})", cc.display()), test),
    }
}

/// A file named `name` under `dir`, searched.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == name) {
                return Some(p);
            }
        }
    }
    None
}

/// NVIDIA's include folder and static library.
fn nvidia(test: &str) -> Option<(PathBuf, PathBuf)> {
    let root = std::env::var_os("PTX2SASS_NVPTXCOMPILER").map_or_else(|| workspace().join(".reference/nvptxcompiler"), PathBuf::from);
    let header = find(&root, "nvPTXCompiler.h");
    let lib = find(&root, "libnvptxcompiler_static.a");
    match (header, lib) {
        (Some(h), Some(l)) => Some((h.parent().unwrap().to_path_buf(), l)),
        _ => {
            missing(&format!("NVIDIA's nvPTXCompiler not installed in {}", root.display()), test);
            None
        }
    }
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx2sass-capi-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds `compile.c` against the headers in `include`, linked with
/// `link` (arguments to the C compiler), into `out`.
fn build(cc: &Path, include: &Path, link: &[String], out: &Path) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compile.c");
    let run = Command::new(cc)
        .args(["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(include)
        .arg(&source)
        .args(link)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs the C compiler");
    assert!(run.status.success(), "{} failed:\n{}", cc.display(), String::from_utf8_lossy(&run.stderr));
}

/// The libraries a Rust static library needs from the system.
fn rust_system_libs() -> Vec<String> {
    ["-lpthread", "-ldl", "-lm", "-lrt", "-lgcc_s"].map(String::from).to_vec()
}

/// One of this crate's libraries: cargo builds them (with the rlib the
/// tests link) in `deps/`, beside this test, and copies them up to the
/// profile directory when the library itself is what was asked for.
fn our_lib(name: &str) -> PathBuf {
    let deps = std::env::current_exe().expect("test executable").parent().expect("deps").to_path_buf();
    let candidates = [deps.join(name), profile_dir().join(name)];
    let found = candidates.iter().find(|p| p.is_file());
    found.unwrap_or_else(|| panic!("{name} not built: cargo builds it with this crate's tests (looked in {})", deps.display())).clone()
}

fn our_static_lib() -> PathBuf {
    our_lib("libptx2sass_capi.a")
}

/// Runs the program: exit code, stdout, stderr.
fn run(program: &Path, ptx: &Path, cubin: &Path, options: &[&str], env: &[(&str, &Path)]) -> (i32, String, String) {
    let mut cmd = Command::new(program);
    cmd.arg(ptx).arg(cubin).args(options);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("runs the C program");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Checks `cubin` against what the crate-root call makes of `ptx` for
/// `sm` and, when the `ptx2sass` tool has been built (`cargo test
/// --workspace` builds it beside the libraries), against the tool's.
fn assert_same_as_tool(cubin: &[u8], ptx: &Path, sm: &str, dir: &Path) {
    let source = std::fs::read_to_string(ptx).unwrap();
    let library = ptx2sass::compile(&source, &ptx2sass::Options::new(sm.parse().unwrap())).unwrap().cubin;
    assert!(cubin == library, "{sm}: the C program's cubin differs from ptx2sass::compile's");
    let tool = profile_dir().join("ptx2sass");
    if !tool.is_file() {
        eprintln!("note: {} not built; compared with ptx2sass::compile only", tool.display());
        return;
    }
    let out = dir.join(format!("tool.{sm}.cubin"));
    let status = Command::new(&tool).arg(format!("-arch={sm}")).arg(ptx).arg("-o").arg(&out).status().unwrap();
    assert!(status.success(), "the tool compiles {}", ptx.display());
    let from_tool = std::fs::read(out).unwrap();
    assert!(cubin == from_tool, "{sm}: the C program's cubin differs from the cubin of {} (if that binary is older than the sources, `cargo build --release` first)", tool.display());
}

/// `examples/saxpy.ptx` with an error on one line: the file and the line.
fn broken_saxpy(dir: &Path) -> (PathBuf, usize) {
    let text = std::fs::read_to_string(workspace().join("examples/saxpy.ptx")).unwrap();
    let line = 1 + text.lines().position(|l| l.contains("mad.lo.s32")).unwrap();
    let bad = text.replacen("%r3, %r4;", "%r3, %r99;", 1);
    assert_ne!(bad, text);
    let path = dir.join("broken.ptx");
    std::fs::write(&path, bad).unwrap();
    (path, line)
}

/// The checks every build of the program passes: saxpy compiles for
/// the three SMs (to the tool's cubin when `same_as_tool`), and the
/// broken file fails with code 3 and its line in the error log.
fn check_program(program: &Path, dir: &Path, same_as_tool: bool, env: &[(&str, &Path)]) {
    let saxpy = workspace().join("examples/saxpy.ptx");
    for sm in SMS {
        let cubin = dir.join(format!("c.{sm}.cubin"));
        let gpu = format!("--gpu-name={sm}");
        let (code, stdout, stderr) = run(program, &saxpy, &cubin, &[&gpu, "-O3", "--verbose"], env);
        assert_eq!(code, 0, "{sm}: {stderr}");
        assert!(stdout.starts_with("nvPTXCompiler 13.5\n"), "{stdout}");
        assert!(stdout.contains("Used") && stdout.contains("registers"), "--verbose fills the info log:\n{stdout}");
        let bytes = std::fs::read(&cubin).unwrap();
        assert_eq!(&bytes[..4], b"\x7fELF");
        if same_as_tool {
            assert_same_as_tool(&bytes, &saxpy, sm, dir);
        }
        println!("  {sm}: {} bytes{}", bytes.len(), if same_as_tool { ", identical to the tool's" } else { "" });
        // The option and its value as two strings, as ptxas takes them.
        let (code, _, stderr) = run(program, &saxpy, &cubin, &["-arch", sm], env);
        assert_eq!(code, 0, "-arch {sm}: {stderr}");
    }
    let (broken, line) = broken_saxpy(dir);
    let (code, _, stderr) = run(program, &broken, &dir.join("broken.cubin"), &["--gpu-name=sm_90"], env);
    assert_eq!(code, 3, "NVPTXCOMPILE_ERROR_COMPILATION_FAILURE; error log:\n{stderr}");
    assert!(stderr.contains(&format!("ptxas application ptx input, line {line}; error   : ")), "the error log names line {line}:\n{stderr}");
    println!("  broken file: exit 3, error log: {}", stderr.lines().next().unwrap_or(""));
    let (code, _, stderr) = run(program, &saxpy, &dir.join("x.cubin"), &["--gpu-name=sm_90", "--no-such-option"], env);
    assert_eq!(code, 3, "an unknown option fails the compilation: {stderr}");
}

#[test]
fn nvidia_header_with_ptx2sass_static_library() {
    let test = "nvidia_header_with_ptx2sass_static_library";
    let Some(cc) = cc(test) else { return };
    let Some((include, _)) = nvidia(test) else { return };
    let dir = scratch(test);
    let program = dir.join("compile");
    let mut link = vec![our_static_lib().display().to_string()];
    link.extend(rust_system_libs());
    build(&cc, &include, &link, &program);
    println!("NVIDIA's nvPTXCompiler.h, libptx2sass_capi.a:");
    check_program(&program, &dir, true, &[]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nvidia_header_with_nvidia_library() {
    let test = "nvidia_header_with_nvidia_library";
    let Some(cc) = cc(test) else { return };
    let Some((include, lib)) = nvidia(test) else { return };
    let dir = scratch(test);
    let program = dir.join("compile");
    let link = vec![lib.display().to_string(), "-lstdc++".into(), "-lpthread".into(), "-ldl".into(), "-lm".into(), "-lrt".into()];
    build(&cc, &include, &link, &program);
    println!("NVIDIA's nvPTXCompiler.h, NVIDIA's libnvptxcompiler_static.a:");
    check_program(&program, &dir, false, &[]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn own_header_with_static_and_shared_library() {
    let test = "own_header_with_static_and_shared_library";
    let Some(cc) = cc(test) else { return };
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let dir = scratch(test);
    let program = dir.join("compile-static");
    let mut link = vec![our_static_lib().display().to_string()];
    link.extend(rust_system_libs());
    build(&cc, &include, &link, &program);
    println!("capi/include/nvPTXCompiler.h, libptx2sass_capi.a:");
    check_program(&program, &dir, true, &[]);

    let shared = our_lib("libptx2sass_capi.so");
    let program = dir.join("compile-shared");
    build(&cc, &include, &[shared.display().to_string()], &program);
    println!("capi/include/nvPTXCompiler.h, libptx2sass_capi.so:");
    check_program(&program, &dir, true, &[("LD_LIBRARY_PATH", shared.parent().unwrap())]);
    let _ = std::fs::remove_dir_all(&dir);
}
