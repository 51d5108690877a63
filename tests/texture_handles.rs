//! Texture handles held in registers (bindless `.u64` texture objects
//! loaded from memory at run time, not kernel parameters): before sm_90
//! ptxas 13.5 reads them with the `.B` forms (`TEX.SCR.B.LL`,
//! `TLD.SCR.B.LZ`, `TLD4.SCR.R.B`, `TXQ.B`), the handle's low word a
//! register value after the coordinates. Their words as ptxas writes them
//! and as nvdisasm 13.5 reads ours decode, print, encode and assemble as
//! nvdisasm does; a kernel that loads its handle from global memory
//! fetches the texels hand-derived below on the SASS interpreter, and the
//! same as ptxas's cubin where ptxas is present. From sm_90 the
//! instructions read a handle from a uniform register, and ptxas 13.5
//! loops over the warp's handles (`@P0 R2UR P1, UR6, R2`, the access
//! guarded `@!P1`, `@P0 BRA.U.ANY` back), as ptx2sass does: the words of
//! that loop decode, print, encode and assemble as nvdisasm does, and the
//! same kernel fetches the same texels there. Kernels whose handles differ
//! by lane are in `tests/surface_kernels.rs` (`tests/data/surfaces/
//! handles_per_lane.ptx`, `surf_handles_per_lane.ptx`).

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::{self, HazardCheck, Options as RunOptions};
use ptx2sass::internals::target::Sm;

/// (SM, low 64 bits, high 64 bits, nvdisasm's text): ptxas's words for
/// `tex.2d`, `tex.1d/2d/3d` with s32 coordinates, `tld4.r.2d` and
/// `txq.width` of a handle loaded from global memory, then the words our
/// code generator writes for them (every component written), as nvdisasm
/// 13.5 prints them. The reuse flags (bits 122–125) ptxas sets on some
/// are cleared: nvdisasm prints none on these opcodes, so no text
/// assembles to them.
const WORDS: &[common::measured_words::Word] = &[
    (75, 0x0800000010007370, 0x000fe200000001ff, "TXQ.B RZ, R0, R16, TEX_HEADER_DIMENSION, 0x1 ;"),
    (75, 0x180000040b0c7367, 0x000f4400009e03ff, "TLD.SCR.B.LZ RZ, R12, R11, R4, 1D, 0x3 ;"),
    (75, 0x180000040f0a7367, 0x004f4200009e03ff, "TLD.SCR.B.LZ RZ, R10, R15, R4, 1D, 0x3 ;"),
    (75, 0x3800000406087361, 0x004f4200019e070a, "TEX.SCR.B.LL R10, R8, R6, R4, 2D, 0x7 ;"),
    (75, 0x3800000408027364, 0x020f4a00001e0cff, "TLD4.SCR.R.B RZ, R2, R8, R4, 2D, 0xc ;"),
    (75, 0x380000040a0a7367, 0x000f4200009e070c, "TLD.SCR.B.LZ R12, R10, R10, R4, 2D, 0x7 ;"),
    (75, 0x5800000c0a0c7367, 0x000f4200009e05ff, "TLD.SCR.B.LZ RZ, R12, R10, R12, 3D, 0x5 ;"),
    (80, 0x0800000012007370, 0x000fe200000001ff, "TXQ.B RZ, R0, R18, TEX_HEADER_DIMENSION, 0x1 ;"),
    (80, 0x18000004110c7367, 0x000f4400009e03ff, "TLD.SCR.B.LZ RZ, R12, R17, R4, 1D, 0x3 ;"),
    (80, 0x3800000406087361, 0x004f4200019e070a, "TEX.SCR.B.LL R10, R8, R6, R4, 2D, 0x7 ;"),
    (80, 0x3800000408027364, 0x020f4600001e0cff, "TLD4.SCR.R.B RZ, R2, R8, R4, 2D, 0xc ;"),
    (80, 0x380000040a0a7367, 0x000f4200009e070c, "TLD.SCR.B.LZ R12, R10, R10, R4, 2D, 0x7 ;"),
    (80, 0x5800000e0c0e7367, 0x000f4400009e05ff, "TLD.SCR.B.LZ RZ, R14, R12, R14, 3D, 0x5 ;"),
    // Ours.
    (75, 0x3800000604047361, 0x00022200019e0f06, "TEX.SCR.B.LL R6, R4, R4, R6, 2D ;"),
    (75, 0x3800000204067364, 0x000e2200001e0f04, "TLD4.SCR.R.B R4, R6, R4, R2, 2D ;"),
    (75, 0x1800000200067367, 0x00122200009e0f0a, "TLD.SCR.B.LZ R10, R6, R0, R2, 1D ;"),
    (75, 0x5800000a060a7367, 0x000e0800009e0f06, "TLD.SCR.B.LZ R6, R10, R6, R10, 3D ;"),
    (80, 0x38000002060a7367, 0x00022200009e0f06, "TLD.SCR.B.LZ R6, R10, R6, R2, 2D ;"),
    (80, 0x080000000c007370, 0x000ee200000001ff, "TXQ.B RZ, R0, R12, TEX_HEADER_DIMENSION, 0x1 ;"),
];

/// (SM, low 64 bits, high 64 bits, nvdisasm's text): the loop over the
/// warp's handles from sm_90, ptxas 13.5's words for the kernels of
/// `tests/data/surfaces/handles_per_lane.ptx` and
/// `surf_handles_per_lane.ptx` (its setup `PLOP3.LUT P1, PT, P1, P0, PT`,
/// the R2UR of each handle word, each guarded access, the pending flag's
/// update, the `BRA.U.ANY` back as nvdisasm prints it alone, `-b SMxx`),
/// then the words our code generator writes for them, as nvdisasm 13.5
/// prints them.
const LOOP_WORDS: &[common::measured_words::Word] = &[
    (90, 0x000000000000781c, 0x000fe40000f21472, "PLOP3.LUT P1, PT, P1, P0, PT, 0xa2, 0x0 ;"),
    (90, 0x00000000020602ca, 0x010fda0000020000, "@P0 R2UR P1, UR6, R2 ;"),
    (90, 0x1000060000069f99, 0x02116200081ea900, "@!P1 SULD.D.BA.1D.STRONG.SM.TRAP R6, [R0], UR6, 0x0 ;"),
    (90, 0x000000000000081c, 0x000fda0000f0f070, "@P0 PLOP3.LUT P0, PT, P1, PT, PT, 0x80, 0x0 ;"),
    (90, 0xfffffffd00ec0947, 0x000fea000393ffff, "@P0 BRA.U.ANY -0x40 ;"),
    (90, 0xfffffffd00e40947, 0x000fea000393ffff, "@P0 BRA.U.ANY -0x60 ;"),
    (100, 0xfffffffd00e40947, 0x000fea000393ffff, "@P0 BRA.U.ANY -0x60 ;"),
    (120, 0xfffffffd00ec0947, 0x001fea000393ffff, "@P0 BRA.U.ANY -0x40 ;"),
    (90, 0x00000000030702ca, 0x000fda0000120000, "@P0 R2UR.OR P1, UR7, R3 ;"),
    (90, 0x0000060000079f6f, 0x02116200080001ff, "@!P1 TXQ RZ, R7, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x1 ;"),
    (90, 0x1000040908009f9d, 0x0011f0000810a900, "@!P1 SUST.D.BA.1D.STRONG.SM.TRAP [R8], R9, UR4, 0x0 ;"),
    (90, 0x1000040500009f9b, 0x0011f0000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R0], R5, UR4, 0x0 ;"),
    (90, 0x200006ff06089f66, 0x02116200089e0f0a, "@!P1 TLD.LZ R10, R8, R6, UR6, 0x0, 2D ;"),
    (90, 0x2000060006089f60, 0x02316200099e0f0a, "@!P1 TEX.LL R10, R8, R6, R0, UR6, 0x0, 2D ;"),
    (90, 0x200006ff06089f63, 0x02216200081e0f0a, "@!P1 TLD4.R R10, R8, R6, UR6, 0x0, 2D ;"),
    (90, 0x0000060000059f6f, 0x02116200080002ff, "@!P1 TXQ RZ, R5, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x2 ;"),
    (100, 0x00000000002f781c, 0x000fe40000f21e72, "PLOP3.LUT P1, PT, P1, P0, PT, 0xf2, 0x2f ;"),
    (100, 0x00000000020602ca, 0x011fda0000020000, "@P0 R2UR P1, UR6, R2 ;"),
    (100, 0x10ff060000069f99, 0x02016200081ea900, "@!P1 SULD.D.BA.1D.STRONG.SM.TRAP R6, [R0], UR6 ;"),
    (100, 0x000000000008081c, 0x000fda0000f0f070, "@P0 PLOP3.LUT P0, PT, P1, PT, PT, 0x80, 0x8 ;"),
    (100, 0x00000000030702ca, 0x000fda0000120000, "@P0 R2UR.OR P1, UR7, R3 ;"),
    (100, 0x0000060000079f6f, 0x02116200080001ff, "@!P1 TXQ RZ, R7, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x1 ;"),
    (100, 0x10ff040908009f9d, 0x0001f0000810a900, "@!P1 SUST.D.BA.1D.STRONG.SM.TRAP [R8], R9, UR4 ;"),
    (100, 0x10ff040500009f9b, 0x0001f0000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R0], R5, UR4 ;"),
    (100, 0x20ff06ff06089f66, 0x02016200081e0f0a, "@!P1 TLD.LZ R10, R8, R6, UR6, 2D ;"),
    (100, 0x28ff060006089f60, 0x02216200089e0f0a, "@!P1 TEX.LL R10, R8, R6, R0, UR6, 2D ;"),
    (100, 0x20ff06ff06089f63, 0x02216200081e0f0a, "@!P1 TLD4.R R10, R8, R6, UR6, 2D ;"),
    (100, 0x0000060000059f6f, 0x02116200080002ff, "@!P1 TXQ RZ, R5, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x2 ;"),
    (120, 0x00000000002f781c, 0x000fe40000f21e72, "PLOP3.LUT P1, PT, P1, P0, PT, 0xf2, 0x2f ;"),
    (120, 0x00000000020602ca, 0x011fda0000020000, "@P0 R2UR P1, UR6, R2 ;"),
    (120, 0x10ff060000069f99, 0x02016200081ea900, "@!P1 SULD.D.BA.1D.STRONG.SM.TRAP R6, [R0], UR6 ;"),
    (120, 0x000000000008081c, 0x000fda0000f0f070, "@P0 PLOP3.LUT P0, PT, P1, PT, PT, 0x80, 0x8 ;"),
    (120, 0x00000000030702ca, 0x000fda0000120000, "@P0 R2UR.OR P1, UR7, R3 ;"),
    (120, 0x0000060000079f6f, 0x02116200080001ff, "@!P1 TXQ RZ, R7, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x1 ;"),
    (120, 0x10ff040908009f9d, 0x0001f0000810a900, "@!P1 SUST.D.BA.1D.STRONG.SM.TRAP [R8], R9, UR4 ;"),
    (120, 0x10ff040500009f9b, 0x0001f0000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R0], R5, UR4 ;"),
    (120, 0x20ff06ff06089f66, 0x02016200081e0f0a, "@!P1 TLD.LZ R10, R8, R6, UR6, 2D ;"),
    (120, 0x20ff06ff06089f60, 0x02216200081e0f0a, "@!P1 TEX R10, R8, R6, UR6, 2D ;"),
    (120, 0x20ff06ff06089f63, 0x02216200081e0f0a, "@!P1 TLD4.R R10, R8, R6, UR6, 2D ;"),
    (120, 0x0000060000079f6f, 0x02116200080002ff, "@!P1 TXQ RZ, R7, R0, TEX_HEADER_DIMENSION, UR6, 0x0, 0x2 ;"),
    // Ours.
    (90, 0x000000000000781c, 0x000fe20000f4e177, "PLOP3.LUT P2, PT, P1, PT, PT, 0xf, 0x0 ;"),
    (90, 0x00000000020412ca, 0x002fe20000040000, "@P1 R2UR P2, UR4, R2 ;"),
    (90, 0x200002ff140eaf66, 0x00046200089e0f12, "@!P2 TLD.LZ R18, R14, R20, UR2, 0x0, 2D ;"),
    (90, 0x000000000000181c, 0x000fda000172f070, "@P1 PLOP3.LUT P1, PT, P2, PT, PT, 0x80, 0x0 ;"),
    (90, 0xfffffffd00dc1947, 0x01ffea000393ffff, "@P1 BRA.U.ANY -0x80 ;"),
    (120, 0x0000000100041947, 0x000fea0003900000, "@P1 BRA.U.ANY 0x20 ;"),
    (90, 0x20000217140eaf60, 0x0006a200099e0f12, "@!P2 TEX.LL R18, R14, R20, R23, UR2, 0x0, 2D ;"),
    (90, 0x200002ff140eaf63, 0x0006a200081e0f12, "@!P2 TLD4.R R18, R14, R20, UR2, 0x0, 2D ;"),
    (90, 0x000002001600af6f, 0x0008a200080001ff, "@!P2 TXQ RZ, R0, R22, TEX_HEADER_DIMENSION, UR2, 0x0, 0x1 ;"),
    (90, 0x0000020017169f6f, 0x00022200080002ff, "@!P1 TXQ RZ, R22, R23, TEX_HEADER_DIMENSION, UR2, 0x0, 0x2 ;"),
    (90, 0x100004000d0caf99, 0x00046200081ea900, "@!P2 SULD.D.BA.1D.STRONG.SM.TRAP R12, [R13], UR4, 0x0 ;"),
    (90, 0x1000040e0d00af9d, 0x0003e2000810a900, "@!P2 SUST.D.BA.1D.STRONG.SM.TRAP [R13], R14, UR4, 0x0 ;"),
    (90, 0x100004000c009f9b, 0x0001e2000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R12], R0, UR4, 0x0 ;"),
    (100, 0x000000000000781c, 0x000fe20000f4e177, "PLOP3.LUT P2, PT, P1, PT, PT, 0xf, 0x0 ;"),
    (100, 0x00000000020412ca, 0x002fe20000040000, "@P1 R2UR P2, UR4, R2 ;"),
    (100, 0x20ff02ff140eaf66, 0x00046200081e0f12, "@!P2 TLD.LZ R18, R14, R20, UR2, 2D ;"),
    (100, 0x000000000000181c, 0x000fda000172f070, "@P1 PLOP3.LUT P1, PT, P2, PT, PT, 0x80, 0x0 ;"),
    (100, 0x28ff0217140eaf60, 0x0006a200089e0f12, "@!P2 TEX.LL R18, R14, R20, R23, UR2, 2D ;"),
    (100, 0x20ff02ff140eaf63, 0x0006a200081e0f12, "@!P2 TLD4.R R18, R14, R20, UR2, 2D ;"),
    (100, 0x000002001600af6f, 0x0008a200080001ff, "@!P2 TXQ RZ, R0, R22, TEX_HEADER_DIMENSION, UR2, 0x0, 0x1 ;"),
    (100, 0x0000020017169f6f, 0x00022200080002ff, "@!P1 TXQ RZ, R22, R23, TEX_HEADER_DIMENSION, UR2, 0x0, 0x2 ;"),
    (100, 0x10ff04000d0caf99, 0x00046200081ea900, "@!P2 SULD.D.BA.1D.STRONG.SM.TRAP R12, [R13], UR4 ;"),
    (100, 0x10ff040e0d00af9d, 0x0003e2000810a900, "@!P2 SUST.D.BA.1D.STRONG.SM.TRAP [R13], R14, UR4 ;"),
    (100, 0x10ff04000c009f9b, 0x0001e2000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R12], R0, UR4 ;"),
    (120, 0x000000000000781c, 0x000fe20000f4e177, "PLOP3.LUT P2, PT, P1, PT, PT, 0xf, 0x0 ;"),
    (120, 0x00000000020412ca, 0x002fe20000040000, "@P1 R2UR P2, UR4, R2 ;"),
    (120, 0x20ff02ff140eaf66, 0x00046200081e0f12, "@!P2 TLD.LZ R18, R14, R20, UR2, 2D ;"),
    (120, 0x000000000000181c, 0x000fda000172f070, "@P1 PLOP3.LUT P1, PT, P2, PT, PT, 0x80, 0x0 ;"),
    (120, 0x20ff02ff140eaf60, 0x0006a200081e0f12, "@!P2 TEX R18, R14, R20, UR2, 2D ;"),
    (120, 0x20ff02ff1214af63, 0x00069800081e0f10, "@!P2 TLD4.R R16, R20, R18, UR2, 2D ;"),
    (120, 0x000002001600af6f, 0x0008a200080001ff, "@!P2 TXQ RZ, R0, R22, TEX_HEADER_DIMENSION, UR2, 0x0, 0x1 ;"),
    (120, 0x0000020017169f6f, 0x00022200080002ff, "@!P1 TXQ RZ, R22, R23, TEX_HEADER_DIMENSION, UR2, 0x0, 0x2 ;"),
    (120, 0x10ff04000d0caf99, 0x00046200081ea900, "@!P2 SULD.D.BA.1D.STRONG.SM.TRAP R12, [R13], UR4 ;"),
    (120, 0x10ff040e0d00af9d, 0x0003e2000810a900, "@!P2 SUST.D.BA.1D.STRONG.SM.TRAP [R13], R14, UR4 ;"),
    (120, 0x10ff04000c009f9b, 0x0001e2000810a100, "@!P1 SUST.P.1D.STRONG.SM.R.TRAP [R12], R0, UR4 ;"),
];

#[test]
fn register_handle_words_decode_print_encode_and_assemble_as_nvdisasm_does() {
    let mut failures = common::measured_words::disagreements(WORDS);
    failures.extend(common::measured_words::disagreements(LOOP_WORDS));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A kernel that loads its texture handle from `handles[0]` and writes,
/// to `out`: the texel at integer (3, 2) (TLD), the texel the float
/// coordinates (2.5, 1.25) fall in (TEX), the width (TXQ), and the red
/// components gathered around (2.5, 1.25) (TLD4).
const KERNEL: &str = r#".version 8.7
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 handles)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<8>;
  .reg .f32 %f<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [handles];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  ld.global.u64 %rd3, [%rd2];
  mov.b32 %r1, 3;
  mov.b32 %r2, 2;
  tex.2d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd3, {%r1, %r2}];
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
  mov.f32 %f1, 0f40200000;
  mov.f32 %f2, 0f3FA00000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f1, %f2}];
  st.global.v4.f32 [%rd1+16], {%f3, %f4, %f5, %f6};
  txq.width.b32 %r7, [%rd3];
  st.global.u32 [%rd1+32], %r7;
  tld4.r.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd3, {%f1, %f2}];
  st.global.v4.f32 [%rd1+48], {%f7, %f8, %f9, %f10};
  ret;
}
"#;

/// The launch: a 4x3 texture with handle 7 whose texel k holds the words
/// `0x100 k + c` (c = 0..3), and a buffer holding the handle.
fn spec() -> LaunchSpec {
    let texels: String = (0..12u32).flat_map(|k| (0..4).map(move |c| 0x100 * k + c)).map(|w: u32| w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>()).collect();
    let text = format!(
        r#"{{"kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1], "params": [{{"kind": "buffer", "bytes": 64, "fill": "zero", "output": true}}, {{"kind": "buffer", "bytes": 8, "fill": "hex", "hex": "0700000000000000"}}], "textures": [{{"handle": 7, "dims": [4, 3], "address": "clamp", "fill": "hex", "hex": "{texels}"}}]}}"#
    );
    LaunchSpec::from_json(&text).expect("launch spec")
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn run(cubin: &[u8], hazards: HazardCheck) -> Result<Vec<u32>, String> {
    let out = sass::run(cubin, &spec(), &RunOptions { step_budget: 100_000, hazards, ..Default::default() }).map_err(|e| e.to_string())?;
    out.launch.buffer_bytes(0).map(words).ok_or_else(|| "no output buffer".into())
}

fn compile(sm: u16) -> Result<Vec<u8>, String> {
    let source = KERNEL.replace("sm_80", &format!("sm_{sm}"));
    let module = ptx2sass::internals::ptx::parse_and_check(&source, &Default::default()).map_err(|_| "does not parse".to_string())?;
    driver::compile_to_cubin(&module, Sm::new(sm), Some(&source), Options { verify: true, ..Default::default() }, CodegenOptions::default())
        .map(|c| c.cubin)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}

#[test]
fn a_handle_loaded_from_memory_fetches_the_texels_ptxas_fetches() {
    let ptxas = ptx2sass::internals::reference::find("ptxas");
    let dir = std::env::temp_dir().join(format!("texture-handles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let texel = |k: u32| (0..4).map(move |c| 0x100 * k + c);
    for sm in [75, 80, 86, 89, 90, 100, 120] {
        let got = run(&compile(sm).unwrap_or_else(|e| panic!("sm_{sm}: {e}")), HazardCheck::Fail).unwrap_or_else(|e| panic!("sm_{sm}, our cubin: {e}"));
        // TLD at (3, 2): texel 3 + 4 * 2; TEX at (2.5, 1.25) unnormalized
        // and point-sampled: texel (2, 1), 2 + 4 * 1; the width 4.
        let tld: Vec<u32> = texel(11).collect();
        let tex: Vec<u32> = texel(6).collect();
        assert_eq!(got[0..4], tld[..], "sm_{sm}: TLD");
        assert_eq!(got[4..8], tex[..], "sm_{sm}: TEX");
        assert_eq!(got[8], 4, "sm_{sm}: TXQ width");
        let Some(ptxas) = &ptxas else { continue };
        let ptx = dir.join(format!("k{sm}.ptx"));
        std::fs::write(&ptx, KERNEL.replace("sm_80", &format!("sm_{sm}"))).expect("write PTX");
        let cubin = dir.join(format!("k{sm}.cubin"));
        let status = std::process::Command::new(ptxas).arg(format!("-arch=sm_{sm}")).arg(&ptx).arg("-o").arg(&cubin).status().expect("run ptxas");
        assert!(status.success(), "ptxas sm_{sm}");
        // ptxas waits for its first three fetches with `DEPBAR.LE SB5,
        // 0x1` (texture results return in order), which the interpreter's
        // hazard checker does not credit: its hazards are not checked.
        let theirs = run(&std::fs::read(&cubin).expect("ptxas's cubin"), HazardCheck::Off).unwrap_or_else(|e| panic!("sm_{sm}, ptxas's cubin: {e}"));
        // Words 9–11 are not written.
        assert_eq!(got[..9], theirs[..9], "sm_{sm}: ours and ptxas's");
        assert_eq!(got[12..16], theirs[12..16], "sm_{sm}: TLD4 ours and ptxas's");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
