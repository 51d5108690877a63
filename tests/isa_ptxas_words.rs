//! Words ptxas 13.5 emits for the shared corpus (`../shared/corpus/kernels`)
//! and for small kernels written to make it emit one instruction, in forms
//! that were known gaps of the decoder (`src/isa/data/known-gaps.tsv`), with
//! the text nvdisasm 13.5 prints for them (a few are single-bit flips of
//! such words, where the flip shows a printing rule): each decodes to that
//! text, encodes back to the same 128 bits, and the text assembles to the
//! same word. Runs without the reference tools.

mod common;

/// (SM, low 64 bits, high 64 bits, nvdisasm's text).
const WORDS: &[common::measured_words::Word] = &[
    // Packed-half sources from the constant bank (half_ops): nvdisasm puts
    // a space between bank and offset where a swizzle may follow.
    (75, 0x20005a0000001634, 0x000fd00003f04800, "@P1 HSETP2.GT.AND P0, PT, R0.H0_H0, c[0x0] [0x168].H0_H0, PT ;"),
    (80, 0x20005a0000001634, 0x000fca0003f04800, "@P1 HSETP2.GT.AND P0, PT, R0.H0_H0, c[0x0] [0x168].H0_H0, PT ;"),
    // Bits 62 and 63 flipped: the swizzle prints inside the bars.
    (75, 0xe0005a0000001634, 0x000fd00003f04800, "@P1 HSETP2.GT.AND P0, PT, R0.H0_H0, -|c[0x0] [0x168].H0_H0|, PT ;"),
    // Bit 61 flipped: no swizzle, the space stays.
    (75, 0x00005a0000001634, 0x000fd00003f04800, "@P1 HSETP2.GT.AND P0, PT, R0.H0_H0, c[0x0] [0x168], PT ;"),
    (75, 0x0000590002077a31, 0x004fd00000000007, "HFMA2 R7, R2, c[0x0] [0x164], R7 ;"),
    (80, 0x0000590002077a35, 0x004fce0000000007, "HFMA2.MMA R7, R2, c[0x0][0x164], R7 ;"),
    // f32 sources and results of sm_75's HADD2 (casts, half_ops).
    (75, 0xa00000ff0e0e7230, 0x000fe20000000400, "HADD2 R14, R14.F32, -RZ.H0_H0 ;"),
    (75, 0xa00000ff05007230, 0x040fe40000004800, "HADD2.F32 R0, R5.reuse.H0_H0, -RZ.H0_H0 ;"),
    // sm_75 memory accesses with a uniform register (constant_mem, scan_block).
    (75, 0x0000000400077981, 0x000ea200081ee900, "LDG.E.SYS R7, [R0.U32+UR4] ;"),
    (75, 0x0000000505037984, 0x000fe40008001800, "LDS.U R3, [R5+UR5] ;"),
    (75, 0x0000000504041984, 0x000e240008005800, "@P1 LDS.U R4, [R4.X4+UR5] ;"),
    // sm_75's `nanosleep.u32 100` and `nanosleep.u32 %r` of a parameter.
    (75, 0x000000640000795d, 0x000fe20003a00000, "NANOSLEEP.WARP 0x64 ;"),
    (75, 0x0000580000007b5d, 0x000fe20003a00000, "NANOSLEEP.WARP c[0x0][0x160] ;"),
    // Uniform float instructions of sm_120 (a float loop of kernel
    // parameters; `sass_semantics::uniform_float_ops_of_sm120`).
    (120, 0x0000000004047254, 0x002fd80008000aff, "UFADD UR4, |UR4|, -URZ ;"),
    (120, 0x0000000004047254, 0x008fe20008000008, "UFADD UR4, UR4, UR8 ;"),
    (120, 0x3fc0000004057455, 0x010fc80008000209, "UFFMA UR5, |UR4|, UR9, 1.5 ;"),
    (120, 0x4060000005057856, 0x000fc80008400000, "UFMUL UR5, UR5, 3.5 ;"),
    (120, 0x0000000905007253, 0x000fd2000bf0e000, "UFSETP.GEU.AND UP0, UPT, UR5, UR9, UPT ;"),
    // F2I of an F16 source's high half (`cvt.rni.s32.f16`, `cvt.rni.s64.f16`).
    (75, 0x1000000000087305, 0x004e700000103100, "F2I.F16.NTZ R8, R0.H1 ;"),
    (75, 0x1000000000067311, 0x000e2a0000101900, "F2I.S64.F16 R6, R0.H1 ;"),
    (90, 0x10000002000c7305, 0x004e700000103100, "F2I.F16.NTZ R12, R2.H1 ;"),
    (120, 0x1000000200067311, 0x000e240000101900, "F2I.S64.F16 R6, R2.H1 ;"),
    // Texture fetches with a partial write mask (a bindless 2D fetch of
    // which two components are used, a gather of which two are).
    (86, 0x30005a0004067b60, 0x000f4200019e03ff, "TEX.SCR.LL RZ, R6, R4, R0, 0x0, 0x5a, 2D, 0x3 ;"),
    (86, 0x30005a0404087b63, 0x000f4200001e0aff, "TLD4.SCR.R RZ, R8, R4, R4, 0x0, 0x5a, 2D, 0xa ;"),
    (90, 0x2000040004067f60, 0x000f6200099e03ff, "TEX.LL RZ, R6, R4, R0, UR4, 0x0, 2D, 0x3 ;"),
    (120, 0x20ff04ff08087f63, 0x000f6200081e0aff, "TLD4.R RZ, R8, R8, UR4, 2D, 0xa ;"),
    // Words written for the fields nvdisasm 13.5 prints (bit flips of
    // them measured the layouts): sm_75's R2UR with a predicate result,
    // `.OR` of the PT form, UP2UR.
    (75, 0x00000000040473c2, 0x000e240000020000, "R2UR P1, UR4, R4 ;"),
    (90, 0x00000000040472ca, 0x000e2400001e0000, "R2UR.OR PT, UR4, R4 ;"),
    (90, 0x800000ff05047883, 0x000fe20008000000, "UP2UR UR4, UPR, UR5, 0x800000ff ;"),
    (120, 0x800000ff05047883, 0x000fe20008000000, "UP2UR UR4, UPR, UR5, 0x800000ff ;"),
];

#[test]
fn former_gap_words_decode_print_encode_and_assemble_as_nvdisasm_does() {
    let failures = common::measured_words::disagreements(WORDS);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
