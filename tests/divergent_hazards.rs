//! Divergent paths write disjoint lanes: the SASS interpreter's hazard
//! checker gives each thread group its own state and joins them where the
//! groups reconverge, so a load pending on one path does not make a write
//! of the same register on the other path a hazard. Our own code for a
//! two-sided `if` (a load on one side, arithmetic on the other, one result
//! register) runs with hazard checking on every SM family, and its outputs
//! are the hand-derived ones.

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::{LaunchSpec, sass};
use ptx2sass::internals::target::Sm;

const PTX: &str = ".version 8.0
.target sm_75
.address_size 64
.visible .entry split_load(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra ODD;
  ld.global.u32 %r5, [%rd4];
  bra.uni JOIN;
ODD:
  mul.lo.u32 %r5, %r1, 3;
JOIN:
  st.global.u32 [%rd5], %r5;
  ret;
}
";

#[test]
fn a_load_on_one_path_and_a_write_on_the_other_are_no_hazard() {
    let module = ptx2sass::internals::ptx::parse_and_check(PTX, &Default::default()).expect("test PTX");
    // in[i] = 0x1000 + i; even threads copy it, odd ones store 3 * i.
    let input: String = (0..32u32).map(|i| hex_word(0x1000 + i)).collect();
    let expected: String = (0..32u32).map(|i| hex_word(if i % 2 == 1 { 3 * i } else { 0x1000 + i })).collect();
    let spec = LaunchSpec::from_json(&format!(
        r#"{{"kernel": "split_load", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0, "params": [
            {{"kind": "buffer", "bytes": 128, "fill": "hex", "hex": "{input}", "output": false}},
            {{"kind": "buffer", "bytes": 128, "fill": "zero", "output": true}}]}}"#
    ))
    .expect("spec");
    for sm in [75u16, 80, 90, 100, 120] {
        let compiled = driver::compile_to_cubin(&module, Sm::new(sm), Some(PTX), Options { verify: true, ..Default::default() }, CodegenOptions::default())
            .unwrap_or_else(|es| panic!("sm_{sm}: {}", es.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")));
        let options = sass::Options { hazards: sass::HazardCheck::Fail, ..Default::default() };
        let out = sass::run(&compiled.cubin, &spec, &options).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
        assert_eq!(out.launch.outputs_text().trim(), format!("param 1: {expected}"), "sm_{sm}");
    }
}

fn hex_word(v: u32) -> String {
    v.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect()
}
