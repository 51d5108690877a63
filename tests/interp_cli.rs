//! The interpreters from the command line: `ptx2sass --run SPEC FILE.ptx`
//! and `sass run --launch SPEC FILE.cubin` on the README's example, both
//! printing `param N: <hex>` lines with saxpy's result worked out here.

use std::process::Command;

fn expected_line() -> String {
    // examples/saxpy.launch.json: n = 100, a = 2, x = 1, 2, 3, 4 repeating,
    // y = 0.5; element i becomes a*x[i] + y[i] (exact in f32).
    let bytes: Vec<u8> = (0..100).flat_map(|i| (2.0f32 * (1 + i % 4) as f32 + 0.5).to_le_bytes()).collect();
    format!("param 3: {}\n", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn ptx2sass_runs_the_example_in_the_ptx_interpreter() {
    let out = Command::new(env!("CARGO_BIN_EXE_ptx2sass"))
        .current_dir(root())
        .args(["-arch=sm_90", "--run", "examples/saxpy.launch.json", "examples/saxpy.ptx"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected_line());
}

#[test]
fn sass_run_runs_ptxas_cubin_in_the_sass_interpreter() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "sass_run_runs_ptxas_cubin_in_the_sass_interpreter") else { return };
    let cubin = std::env::temp_dir().join(format!("ptx2sass-interp-cli-{}.cubin", std::process::id()));
    let ok = Command::new(ptxas).arg("-arch=sm_90").arg(root().join("examples/saxpy.ptx")).arg("-o").arg(&cubin).status().is_ok_and(|s| s.success());
    assert!(ok, "ptxas compiles the example");
    let out = Command::new(env!("CARGO_BIN_EXE_sass")).current_dir(root()).args(["run", "--launch", "examples/saxpy.launch.json"]).arg(&cubin).output().expect("runs");
    let _ = std::fs::remove_file(&cubin);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected_line());
}

/// sm_75's `LDG.E.SYS R0, [R2]` reads the 64-bit address R2:R3 (its `.E`;
/// the operand prints no `.64` on sm_75), in ptxas's cubin and in ours.
/// The interpreter once took such addresses as 32-bit and faulted on every
/// sm_75 global access (found by the differential fuzzer, fuzz/).
#[test]
fn sass_run_runs_sm75_global_accesses_of_ptxas_and_ours() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "sass_run_runs_sm75_global_accesses_of_ptxas_and_ours") else { return };
    let dir = std::env::temp_dir();
    let ptx = dir.join(format!("ptx2sass-interp-cli-sm75-{}.ptx", std::process::id()));
    let source = std::fs::read_to_string(root().join("examples/saxpy.ptx")).expect("example");
    std::fs::write(&ptx, source.replace(".target sm_80", ".target sm_75")).expect("write");
    for (name, tool) in [("ptxas", ptxas.as_os_str()), ("ours", std::ffi::OsStr::new(env!("CARGO_BIN_EXE_ptx2sass")))] {
        let cubin = dir.join(format!("ptx2sass-interp-cli-sm75-{name}-{}.cubin", std::process::id()));
        let ok = Command::new(tool).arg("-arch=sm_75").arg(&ptx).arg("-o").arg(&cubin).status().is_ok_and(|s| s.success());
        assert!(ok, "{name} compiles the example for sm_75");
        let out = Command::new(env!("CARGO_BIN_EXE_sass")).current_dir(root()).args(["run", "--launch", "examples/saxpy.launch.json"]).arg(&cubin).output().expect("runs");
        let _ = std::fs::remove_file(&cubin);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected_line(), "{name}");
    }
    let _ = std::fs::remove_file(&ptx);
}

#[test]
fn bad_specs_and_faults_are_errors_with_exit_status() {
    let dir = std::env::temp_dir().join(format!("ptx2sass-interp-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"kernel": "saxpy", "grid": [1], "block": [1], "params": [{"kind": "q8"}]}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptx2sass")).current_dir(root()).arg("-arch=sm_90").arg("--run").arg(&bad).arg("examples/saxpy.ptx").output().unwrap();
    assert_eq!(out.status.code(), Some(255), "every failure exits 255, as ptxas");
    assert!(String::from_utf8_lossy(&out.stderr).contains("params[0].kind"), "{}", String::from_utf8_lossy(&out.stderr));
    // y too small for n = 100: the first thread past it faults, reported
    // with the PTX line of the load.
    let small = dir.join("small.json");
    let spec = std::fs::read_to_string(root().join("examples/saxpy.launch.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&spec).unwrap();
    v["params"][3] = serde_json::json!({"kind": "buffer", "bytes": 64, "fill": "zero", "output": true});
    std::fs::write(&small, v.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptx2sass")).current_dir(root()).arg("-arch=sm_90").arg("--run").arg(&small).arg("examples/saxpy.ptx").output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(255), "every failure exits 255, as ptxas");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("examples/saxpy.ptx:43:") && err.contains("memory fault") && err.contains("out-of-bounds"), "{err}");
}
