//! Single SASS instructions whose meaning the corpus comparison pinned
//! down: small PTX kernels, compiled by the reference ptxas for sm_90, run
//! in the SASS interpreter, with expected outputs worked out by hand.

mod common;

use ptx2sass::interp::{sass, LaunchSpec};

/// Compiles `ptx` for sm_90 and runs it in the SASS interpreter under
/// `spec`; `None` when ptxas is not installed.
fn run(name: &str, ptx: &str, spec: &str) -> Option<String> {
    let ptxas = ptx2sass::reference::require("ptxas", name)?;
    let dir = std::env::temp_dir().join(format!("ptx2sass-sass-semantics-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let (src, cubin) = (dir.join("k.ptx"), dir.join("k.cubin"));
    std::fs::write(&src, ptx).expect("write ptx");
    assert!(common::compile_cubin(&ptxas, 90, &src, &cubin), "ptxas rejected the test kernel");
    let bytes = std::fs::read(&cubin).expect("cubin");
    let _ = std::fs::remove_dir_all(&dir);
    let spec = LaunchSpec::from_json(spec).expect("spec");
    let out = sass::run(&bytes, &spec, &Default::default()).unwrap_or_else(|e| panic!("SASS interpreter: {e}"));
    Some(out.launch.outputs_text())
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
