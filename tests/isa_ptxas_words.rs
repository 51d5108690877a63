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
    // F16 sources in a constant bank (`cvt.rni.f16.f16` of a parameter:
    // ptxas's sm_75 and sm_80 words; the `.H1`, `|x|`, `-` and other
    // opcodes' variants are bit flips printed by nvdisasm): the space
    // before the offset as before any suffix.
    (75, 0x00005a0000007b07, 0x000e220000100800, "FRND.F16 R0, c[0x0] [0x168] ;"),
    (80, 0x00005a0000057b07, 0x000e220000100800, "FRND.F16 R5, c[0x0] [0x168] ;"),
    (90, 0xd0005a0000057b07, 0x000e220000100800, "FRND.F16 R5, -|c[0x0] [0x168].H1| ;"),
    (80, 0x00005a0000057b04, 0x000e220000101000, "F2F.F32.F16 R5, c[0x0] [0x168] ;"),
    (80, 0x10005a0000057b10, 0x000e220000101800, "F2F.F64.F16 R5, c[0x0] [0x168].H1 ;"),
    (80, 0x80005a0000057b05, 0x000e220000101000, "F2I.U32.F16 R5, -c[0x0] [0x168] ;"),
    (80, 0x50005a0000057b11, 0x000e220000101900, "F2I.S64.F16 R5, |c[0x0] [0x168].H1| ;"),
    // A `.const` array element at a uniform index and a jump table on a
    // uniform index (a generated program, sm_89): ULDC with an index
    // register, BRXU before sm_90.
    (89, 0x0080040004047abb, 0x000fe40008000800, "ULDC UR4, c[0x2][UR4+0x10] ;"),
    (89, 0xfffff70004007958, 0x000fea000b83ffff, "BRXU UR4 -0x900 ;"),
    // Uniform-register b of HMNMX2 and c of PRMT (generated programs,
    // sm_86; the `.H1_H1` and `|x|` variants are bit flips 60 and 62).
    (86, 0x200000040f067c40, 0x000fe2000f820800, "HMNMX2.NAN R6, R15.H0_H0, UR4.H0_H0, !PT ;"),
    (86, 0x700000040f067c40, 0x000fe2000f820800, "HMNMX2.NAN R6, R15.H0_H0, |UR4.H1_H1|, !PT ;"),
    (86, 0x00000005111b7e16, 0x000fe20008000624, "PRMT.RC16 R27, R17, R36, UR5 ;"),
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
    // Words of ptxas's code for differential-fuzzer programs (seeds
    // 5000000.., sm_75 to sm_120) and bit flips of them. The f16 NaN
    // 0x7fff of HFMA2's immediate pair (nvdisasm prints every f16 NaN
    // `+QNAN `; this one is ptxas's).
    (120, 0x00007fffff0f7431, 0x000fe200000001ff, "HFMA2 R15, -RZ, RZ, 0, +QNAN  ;"),
    (75, 0x00007fffff0f7431, 0x000fe200000001ff, "HFMA2 R15, -RZ, RZ, 0, +QNAN  ;"),
    // BREAK with a condition predicate.
    (80, 0x000000000004a942, 0x000fe20005800000, "@!P2 BREAK !P3, B4 ;"),
    (120, 0x000000000006b942, 0x000fea0006000100, "@!P3 BREAK.RELIABLE !P4, B6 ;"),
    // sm_120 VIADD with an immediate or uniform b, lane type and `.ISAT`.
    (120, 0xfffffffe2a2b7836, 0x000fe20000010400, "VIADD.S32.ISAT R43, R42, 0xfffffffe ;"),
    (120, 0x0000000416257c36, 0x001fe20008010400, "VIADD.S32.ISAT R37, R22, UR4 ;"),
    (120, 0xfffffffe2a2b7836, 0x000fe20000000000, "VIADD.32 R43, R42, 0xfffffffe ;"),
    // sm_120 HMMA with b's reuse flag (Triton's matmul, ptxas 13.5).
    (120, 0x0000001c2444723c, 0x081ff60000001844, "HMMA.16816.F32 R68, R36, R28.reuse, R68 ;"),
    (120, 0x0000001e2448723c, 0x082ff60000001848, "HMMA.16816.F32 R72, R36, R30.reuse, R72 ;"),
    // sm_120 vabsdiff4.u32.u32.u32: the bytes' maxima and minima, and
    // their differences; bit 72 flipped prints `.S8x4`.
    (120, 0x00000005040a7248, 0x0c0fe20007fe0400, "VIMNMX.U8x4 R10, R4.reuse, R5.reuse, !PT ;"),
    (120, 0x00000005040b7248, 0x000fe20003fe0400, "VIMNMX.U8x4 R11, R4, R5, PT ;"),
    (120, 0x00000005040a7248, 0x0c0fe20007fe0500, "VIMNMX.S8x4 R10, R4.reuse, R5.reuse, !PT ;"),
    (120, 0x8000000b0a027236, 0x001fe20000000800, "VIADD.U8x4 R2, R10, -R11 ;"),
    // sm_120 UMOV.64 of a uniform pair.
    (120, 0x000000ff00047c82, 0x000fe20008010000, "UMOV.64 UR4, URZ ;"),
    // DSETP's b with its reuse flag (bit 124), DSETP.MAX's two results.
    (80, 0x0000000c2400722a, 0x100ea20003f24000, "DSETP.GT.AND P1, PT, R36, R12.reuse, PT ;"),
    (80, 0x000000261e00722a, 0x14ce220003b8f000, "DSETP.MAX.AND P4, P3, R30.reuse, R38.reuse, PT ;"),
    (75, 0x0000001e2000722a, 0x142e620001f83600, "DSETP.LE.OR P4, PT, |R32|.reuse, R30.reuse, P3 ;"),
    // F2F and FRND of an F16 source's high half.
    (90, 0x1000000900267310, 0x000e620000101800, "F2F.F64.F16 R38, R9.H1 ;"),
    (90, 0x9000000900267310, 0x000e620000101800, "F2F.F64.F16 R38, -R9.H1 ;"),
    (90, 0x1000000900267304, 0x000e620000101000, "F2F.F32.F16 R38, R9.H1 ;"),
    (90, 0x1000001500207307, 0x000e220000108800, "FRND.F16.CEIL R32, R21.H1 ;"),
    (75, 0x1000000200057307, 0x0010e2000010c800, "FRND.F16.TRUNC R5, R2.H1 ;"),
    // The absolute value of an F16 source's high half, bars around the
    // suffix, and F16 immediates (`cvt.rmi.s32.f16`, `cvt.rmi.s64.f16`,
    // `cvt.rmi.f16.f16` of `abs.f16` of a high half, and of a constant;
    // seeds 9208934, 9209842, 9210798 of the differential fuzzer), then
    // bit flips: `-|x|` 63, F2F's `|x|` 62, the source type of the
    // immediate word (FRND 0x907, F2F 0x904/0x910, the 64-bit F2I 0x911)
    // and immediates nvdisasm spells by name.
    (75, 0x00004b3e00057905, 0x000fe20000107100, "F2I.F16.FLOOR.NTZ R5, 14.484375 ;"),
    (75, 0x5000000000087311, 0x004e300000105900, "F2I.S64.F16.FLOOR R8, |R0.H1| ;"),
    (75, 0x5000000000037307, 0x000e620000104800, "FRND.F16.FLOOR R3, |R0.H1| ;"),
    (75, 0xd000000000047305, 0x000e300000107100, "F2I.F16.FLOOR.NTZ R4, -|R0.H1| ;"),
    (86, 0x5000000200087305, 0x000ff00000107100, "F2I.F16.FLOOR.NTZ R8, |R2.H1| ;"),
    (86, 0x00004b3e000b7905, 0x000fe20000107100, "F2I.F16.FLOOR.NTZ R11, 14.484375 ;"),
    (100, 0x5000000200097307, 0x000e300000104800, "FRND.F16.FLOOR R9, |R2.H1| ;"),
    (120, 0x00004b3e000b7905, 0x000fea0000107100, "F2I.F16.FLOOR.NTZ R11, 14.484375 ;"),
    (120, 0xd0000002000a7305, 0x000e640000107100, "F2I.F16.FLOOR.NTZ R10, -|R2.H1| ;"),
    (120, 0x5000000200047311, 0x000e260000105900, "F2I.S64.F16.FLOOR R4, |R2.H1| ;"),
    (90, 0x5000000900267310, 0x000e620000101800, "F2F.F64.F16 R38, |R9.H1| ;"),
    (90, 0xd000000900267310, 0x000e620000101800, "F2F.F64.F16 R38, -|R9.H1| ;"),
    (90, 0x5000000900267304, 0x000e620000101000, "F2F.F32.F16 R38, |R9.H1| ;"),
    (90, 0x00004b3e000c7907, 0x000ff00000104800, "FRND.F16.FLOOR R12, 14.484375 ;"),
    (90, 0x00007c00000c7907, 0x000ff00000104800, "FRND.F16.FLOOR R12, +INF  ;"),
    (90, 0x00008000000c7911, 0x000ff00000105900, "F2I.S64.F16.FLOOR R12, -0.0  ;"),
    (90, 0x00007fff000c7905, 0x000ff00000107100, "F2I.F16.FLOOR.NTZ R12, +QNAN  ;"),
    (90, 0x00000001000c7904, 0x000ff00000101000, "F2F.F32.F16 R12, 5.9604644775390625e-08 ;"),
    (90, 0x0000bc00000c7910, 0x000ff00000101800, "F2F.F64.F16 R12, -1 ;"),
    // F2IP (sm_86+): `cvt.rni.u8.f32`, `cvt.rzi.u8.f32`, of a register and
    // of a kernel parameter; bit flips 76 (`.S8`) and 75 (`.RELU`).
    (90, 0x00000017ff007243, 0x000fe200000004ff, "F2IP.U8.F32.NTZ R0, RZ, R23, RZ ;"),
    (120, 0x0000000fff047243, 0x000fe2000000c4ff, "F2IP.U8.F32.TRUNC.NTZ R4, RZ, R15, RZ ;"),
    (90, 0x00000005ff047c43, 0x000fe200080004ff, "F2IP.U8.F32.NTZ R4, RZ, UR5, RZ ;"),
    (90, 0x00000017ff007243, 0x000fe200000014ff, "F2IP.S8.F32.NTZ R0, RZ, R23, RZ ;"),
    (86, 0x00000017ff007243, 0x000fe20000000cff, "F2IP.U8.F32.NTZ.RELU R0, RZ, R23, RZ ;"),
    // VHMNMX (sm_90, sm_100): three-source HMNMX2; bit flips 84 (`-c`),
    // 72 (`-a`), 83 (`|c|`).
    (90, 0x2000001910107247, 0x000fe20003802819, "VHMNMX R16, R16.H0_H0, R25.H0_H0, R25.H0_H0, PT ;"),
    (90, 0x200000222b227247, 0x100fe4000782282b, "VHMNMX.NAN R34, R43.H0_H0, R34.H0_H0, R43.reuse.H0_H0, !PT ;"),
    (100, 0x200000263f267247, 0x140fe4000780283f, "VHMNMX R38, R63.reuse.H0_H0, R38.H0_H0, R63.reuse.H0_H0, !PT ;"),
    (90, 0x2000001910107247, 0x000fe20003902819, "VHMNMX R16, R16.H0_H0, R25.H0_H0, -R25.H0_H0, PT ;"),
    (90, 0x2000001910107247, 0x000fe20003802919, "VHMNMX R16, -R16.H0_H0, R25.H0_H0, R25.H0_H0, PT ;"),
    (90, 0x2000001910107247, 0x000fe20003882819, "VHMNMX R16, R16.H0_H0, R25.H0_H0, |R25|.H0_H0, PT ;"),
    // SHF and PRMT with c from the constant bank (ptxas's code for generated
    // programs; bit 123, b's reuse flag, flipped).
    (75, 0x00000000371b7619, 0x000fe20000010e19, "SHF.L.W.U32.HI R27, R55, R25, c[0x0][0x0] ;"),
    (75, 0x00000000371b7619, 0x080fe20000010e19, "SHF.L.W.U32.HI R27, R55, R25.reuse, c[0x0][0x0] ;"),
    (80, 0x000003000b027616, 0x000fe40000000509, "PRMT.ECR R2, R11, R9, c[0x0][0xc] ;"),
    (80, 0x000003000b027616, 0x080fe40000000509, "PRMT.ECR R2, R11, R9.reuse, c[0x0][0xc] ;"),
    // PRMT with an immediate c, the selector register in 64-71 (ptxas's
    // code for generated programs; b's reuse flag flipped).
    (80, 0xffffffff062a3416, 0x000fe200000003ff, "@P3 PRMT.RC8 R42, R6, RZ, 0xffffffff ;"),
    (80, 0xffffffff062a3416, 0x080fe200000003ff, "@P3 PRMT.RC8 R42, R6, RZ.reuse, 0xffffffff ;"),
    (120, 0xffffffff18197416, 0x000fc80000000618, "PRMT.RC16 R25, R24, R24, 0xffffffff ;"),
    // FMNMX3 with an f32 immediate b (sm_100: ptxas 13.5 joins `min.f32`
    // with 0f7F800000 or 1.0; bit flips 72 `-a`, 74 `|c|`, 80 `.FTZ`).
    (100, 0x7f80000000097876, 0x008fc40003800007, "FMNMX3 R9, R0, +INF , R7, PT ;"),
    (100, 0xff800000000b7876, 0x010fc60007800006, "FMNMX3 R11, R0, -INF , R6, !PT ;"),
    (100, 0x3f80000007077876, 0x000fc60003800006, "FMNMX3 R7, R7, 1, R6, PT ;"),
    (100, 0x7f80000000097876, 0x008fc40003800107, "FMNMX3 R9, -R0, +INF , R7, PT ;"),
    (100, 0x7f80000000097876, 0x008fc40003800407, "FMNMX3 R9, R0, +INF , |R7|, PT ;"),
    (100, 0x7f80000000097876, 0x008fc40003810007, "FMNMX3.FTZ R9, R0, +INF , R7, PT ;"),
    // VIMNMX3 with an immediate b (sm_100: `max.u32`, `max.u16x2`,
    // `min.s32`, `min.s16x2` of a register and a constant, joined).
    (100, 0x000003e80009780f, 0x000fe40007800007, "VIMNMX3.U32 R9, R0, 0x3e8, R7, !PT ;"),
    (100, 0x00050007000b780f, 0x008fc40007800206, "VIMNMX3.U16x2 R11, R0, 0x50007, R6, !PT ;"),
    (100, 0xfffffffb070d780f, 0x010fc60003800106, "VIMNMX3 R13, R7, 0xfffffffb, R6, PT ;"),
    (100, 0x000500070707780f, 0x000fe20003800300, "VIMNMX3.S16x2 R7, R7, 0x50007, R0, PT ;"),
    // SHF with c a uniform register (sm_100, sm_120: `shf.l.wrap.b32` with
    // a kernel parameter's high word).
    (100, 0x0000000600087e19, 0x000fe40008010e07, "SHF.L.W.U32.HI R8, R0, R7, UR6 ;"),
    (120, 0x0000000600087e19, 0x000fe40008010e07, "SHF.L.W.U32.HI R8, R0, R7, UR6 ;"),
    // VHMNMX with bit 82 (`.XORSIGN`) flipped, alone and with 80, 81, 85.
    (90, 0x2000000700057247, 0x004fc40007842806, "VHMNMX.XORSIGN R5, R0.H0_H0, R7.H0_H0, R6.H0_H0, !PT ;"),
    (100, 0x2000000700057247, 0x004fc40007842806, "VHMNMX.XORSIGN R5, R0.H0_H0, R7.H0_H0, R6.H0_H0, !PT ;"),
    (90, 0x2000000700057247, 0x004fc40007a72806, "VHMNMX.BF16_V2.FTZ.NAN.XORSIGN R5, R0.H0_H0, R7.H0_H0, R6.H0_H0, !PT ;"),
    // sm_120 UI2F: a signed immediate (bit 74 of `UI2F.U32.RP UR4, 0x2`
    // flipped, and its immediate negated), a 16-bit source register
    // (84–85 = 1, bit 74 `.S16`).
    (120, 0xfffffffe0004785a, 0x000fe20008209400, "UI2F.RP UR4, -0x2 ;"),
    (120, 0x000000020004785a, 0x000fe20008209400, "UI2F.RP UR4, 0x2 ;"),
    (120, 0x000000040005725a, 0x000fe20008109000, "UI2F.U16.RP UR5, UR4 ;"),
    (120, 0x000000040005725a, 0x000fe20008109400, "UI2F.S16.RP UR5, UR4 ;"),
    (120, 0x000000040005725a, 0x000fe20008101000, "UI2F.U16 UR5, UR4 ;"),
    // UBREV (0x2be), written words.
    (75, 0x00000004000572be, 0x000fe20008000000, "UBREV UR5, UR4 ;"),
    (75, 0x00000004000512be, 0x000fe20008000000, "@UP1 UBREV UR5, UR4 ;"),
    (75, 0x0000003f000572be, 0x000fe20008000000, "UBREV UR5, URZ ;"),
    (120, 0x00000004000572be, 0x000fe20008000000, "UBREV UR5, UR4 ;"),
    // UPLOP3.LUT of uniform register signs (0x29f), written words.
    (75, 0x000000060500729f, 0x000fe20008708007, "UPLOP3.LUT UP0, UPT, UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x80, 0x0 ;"),
    (90, 0x000000060500729f, 0x000fe20008708007, "UPLOP3.LUT UP0, UPT, UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x80, 0x0 ;"),
    (120, 0x000000060500729f, 0x000fe20008708007, "UPLOP3.LUT UP0, UPT, UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x80, 0x0 ;"),
    (90, 0x000000060503729f, 0x000fe20008702807, "UPLOP3.LUT UP0, UPT, UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x28, 0x3 ;"),
    (90, 0x000000060500729f, 0x000fe20008788007, "UPLOP3.LUT UP4, UPT, UR5.SIGN, UR6.SIGN, UR7.SIGN, 0x80, 0x0 ;"),
    // SHF with c a uniform register before sm_100 (ptxas's sm_80 code for
    // a generated program, seed 9102101), and the same word on sm_75/sm_90.
    (80, 0x00000004290c7e19, 0x000fc8000801060c, "SHF.L.U32.HI R12, R41, R12, UR4 ;"),
    (75, 0x00000004290c7e19, 0x000fc8000801060c, "SHF.L.U32.HI R12, R41, R12, UR4 ;"),
    (90, 0x00000004290c7e19, 0x000fc8000801060c, "SHF.L.U32.HI R12, R41, R12, UR4 ;"),
    // HADD2 with b a uniform register (ptxas's sm_100 code for a generated
    // program, seed 9100733), the word on sm_75/sm_90/sm_120, and written
    // variants (no `-`, the b swizzle H1_H1, `.FTZ`).
    (100, 0xa00000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, -UR4.H0_H0 ;"),
    (75, 0xa00000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, -UR4.H0_H0 ;"),
    (90, 0xa00000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, -UR4.H0_H0 ;"),
    (120, 0xa00000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, -UR4.H0_H0 ;"),
    (100, 0x200000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, UR4.H0_H0 ;"),
    (100, 0xb00000040f007e30, 0x001fe20008000800, "HADD2 R0, R15.H0_H0, -UR4.H1_H1 ;"),
    (100, 0xa00000040f007e30, 0x001fe20008010800, "HADD2.FTZ R0, R15.H0_H0, -UR4.H0_H0 ;"),
    // UI2F of an 8-bit uniform register (ptxas's sm_120 code for a
    // generated program, seed 9106390), and bit 74 clear.
    (120, 0x000000ff0004725a, 0x000fca0008009400, "UI2F.S8.RP UR4, URZ ;"),
    (120, 0x000000050004725a, 0x000fca0008009000, "UI2F.U8.RP UR4, UR5 ;"),
    // HFMA2 with two f16 immediates and a and c swizzles (ptxas's sm_89
    // code for a generated program, seed 9103937), and the same on sm_120.
    (89, 0xede8ede811157831, 0x000fe20000040815, "HFMA2 R21, R17.H0_H0, -6048, -6048, R21.H0_H0 ;"),
    (120, 0xede8ede811157831, 0x000fe20000040815, "HFMA2 R21, R17.H0_H0, -6048, -6048, R21.H0_H0 ;"),
    // HMUL2 with two f16 immediates: written words with values that read
    // back, and ptxas's sm_89 word for seed 9103895 with two signalling
    // NaNs (see `decodes_half_nan_immediates` for it).
    (89, 0x3c003c002a137832, 0x000fe40000000800, "HMUL2 R19, R42.H0_H0, 1, 1 ;"),
    (120, 0x3c00bc002a137832, 0x000fe40000010800, "HMUL2.FTZ R19, R42.H0_H0, 1, -1 ;"),
    // HFMA2 with immediates as c, modifiers and swizzles (ptxas's sm_90
    // code for a generated program, seed 9914767), and that word on sm_75
    // and sm_120.
    (90, 0xbba2bba200025431, 0x002fca000005283d, "@P5 HFMA2.FTZ.SAT R2, R0.H0_H0, R61.H0_H0, -0.9541015625, -0.9541015625 ;"),
    (75, 0xbba2bba200025431, 0x002fca000005283d, "@P5 HFMA2.FTZ.SAT R2, R0.H0_H0, R61.H0_H0, -0.9541015625, -0.9541015625 ;"),
    (120, 0xbba2bba200025431, 0x002fca000005283d, "@P5 HFMA2.FTZ.SAT R2, R0.H0_H0, R61.H0_H0, -0.9541015625, -0.9541015625 ;"),
    // UVIADD (ptxas's sm_120 code for a generated program, seed 9930775)
    // and its uniform-register form.
    (120, 0x0000000204057849, 0x000fe20008010400, "UVIADD.S32.ISAT UR5, UR4, 0x2 ;"),
    (120, 0x0000000604057249, 0x000fe20008010400, "UVIADD.S32.ISAT UR5, UR4, UR6 ;"),
    // HMUL2 with a uniform b (ptxas's sm_103 code for a generated program,
    // seed 9932830), and that word on sm_75 and sm_120.
    (100, 0x2000000411067c32, 0x041fe20008000800, "HMUL2 R6, R17.reuse.H0_H0, UR4.H0_H0 ;"),
    (75, 0x2000000411067c32, 0x041fe20008000800, "HMUL2 R6, R17.reuse.H0_H0, UR4.H0_H0 ;"),
    (120, 0x2000000411067c32, 0x041fe20008000800, "HMUL2 R6, R17.reuse.H0_H0, UR4.H0_H0 ;"),
    // VIMNMX with its two printed predicates (ptxas's sm_90 code for a
    // generated program, seed 9958412), and with other ones (bit flips).
    (90, 0x00001458040b7848, 0x000fe40003a40300, "VIMNMX.S16x2 R11, P2, P2, R4, 0x1458, PT ;"),
    (90, 0x00001458040b7848, 0x000fe40003800300, "VIMNMX.S16x2 R11, P0, P0, R4, 0x1458, PT ;"),
    // UI2FP (ptxas's sm_120 code for a generated program, seed 10045887),
    // `.RZ` and the unsigned source (bits 78–79, 74), and the immediate
    // forms (0x85e), signed and unsigned.
    (120, 0x000000160004725e, 0x000fe20008201400, "UI2FP.F32.S32 UR4, UR22 ;"),
    (120, 0x000000160004725e, 0x000fe2000820d000, "UI2FP.F32.U32.RZ UR4, UR22 ;"),
    (120, 0xfffffffe0004785e, 0x000fe20008201400, "UI2FP.F32.S32 UR4, -0x2 ;"),
    (120, 0xfffffffe0004785e, 0x000fe20008201000, "UI2FP.F32.U32 UR4, 0xfffffffe ;"),
    // HFMA2 with a uniform b (ptxas's sm_75 code for a generated program,
    // seed 9985880), that word on sm_90..sm_120, and with b negated and
    // `.FTZ` (bits 63 and 80, nvdisasm).
    (75, 0x30000004002d7c31, 0x002fe20008040c25, "HFMA2 R45, R0.H1_H1, UR4.H1_H1, R37.H0_H0 ;"),
    (90, 0x30000004002d7c31, 0x002fe20008040c25, "HFMA2 R45, R0.H1_H1, UR4.H1_H1, R37.H0_H0 ;"),
    (100, 0x30000004002d7c31, 0x002fe20008040c25, "HFMA2 R45, R0.H1_H1, UR4.H1_H1, R37.H0_H0 ;"),
    (120, 0xb0000004002d7c31, 0x002fe20008050c25, "HFMA2.FTZ R45, R0.H1_H1, -UR4.H1_H1, R37.H0_H0 ;"),
    // A float instruction's uniform b or c with `|x|` (bit 62): ptxas's
    // sm_90 code for a generated program (seed 10082588), and single-bit
    // flips of words built around it (nvdisasm) on other SMs and opcodes
    // (`tests/isa_oracle.rs` checks every such form against nvdisasm).
    (90, 0x40000004ff207e29, 0x000fe20008000100, "DADD R32, -RZ, |UR4| ;"),
    (120, 0x4000000402204e2b, 0x000fe20008000100, "@P4 DFMA R32, -R2, R0, |UR4| ;"),
    (80, 0x4000000402204e21, 0x000fe20008000100, "@P4 FADD R32, -R2, |UR4| ;"),
    // HADD2 with |x| on its uniform b, the swizzle inside the bars
    // (ptxas's sm_80 code for a generated program, seed 10103809).
    (80, 0x60000004ff3f7e30, 0x001fe20008000900, "HADD2 R63, -RZ.H0_H0, |UR4.H0_H0| ;"),
    // HFMA2 and HFMA2.MMA with `.RELU` and two f16 immediates (ptxas's
    // sm_89 code for a generated program, seed 10180675; its sm_80 code
    // for `max.NaN.f16` of a sum and 0), the trailing predicate PT.
    (89, 0x3c003c00350e7831, 0x000fe200038488ff, "HFMA2.RELU R14, R53.H0_H0, 1, 1, RZ.H0_H0 ;"),
    (120, 0x3c003c00350e7831, 0x000fe200038488ff, "HFMA2.RELU R14, R53.H0_H0, 1, 1, RZ.H0_H0 ;"),
    (80, 0x3c003c0007077835, 0x004fe200038080ff, "HFMA2.MMA.RELU R7, R7, 1, 1, RZ ;"),
    // Register HFMA2 / HFMA2.MMA with `.RELU` and its trailing predicate
    // (ptxas 13.5's `fma.rn.relu` of f16, f16x2 and bf16x2).
    (80, 0x2000000000007231, 0x004fca0003848800, "HFMA2.RELU R0, R0.H0_H0, R0.H0_H0, R0.H0_H0 ;"),
    (80, 0x0000000500057235, 0x004fce0003818004, "HFMA2.MMA.FTZ.RELU R5, R0, R5, R4 ;"),
    (80, 0x0000000500057231, 0x004fca0003a08004, "HFMA2.BF16_V2.RELU R5, R0, R5, R4 ;"),
    (90, 0x2000000000007231, 0x004fca0003a48800, "HFMA2.BF16_V2.RELU R0, R0.H0_H0, R0.H0_H0, R0.H0_H0 ;"),
    (100, 0x0000000500057231, 0x004fca0003818004, "HFMA2.FTZ.RELU R5, R0, R5, R4 ;"),
    (120, 0x0000000500057231, 0x004fca0003a08004, "HFMA2.BF16_V2.RELU R5, R0, R5, R4 ;"),
    // VIADD.16x2 with two registers (ptxas 13.5's `add.u16x2`, sm_90 and sm_100).
    (90, 0x0000000500057236, 0x004fca0000000200, "VIADD.16x2 R5, R0, R5 ;"),
    (100, 0x0000000500057236, 0x004fca0000000200, "VIADD.16x2 R5, R0, R5 ;"),
    // F2FP of one f32 to tf32 (ptxas 13.5's `cvt.rn/rz(.relu)(.satfinite).tf32.f32`).
    (90, 0x00000005ff05723e, 0x004fca00024050ff, "F2FP.TF32.F32.PACK_B R5, R5 ;"),
    (90, 0x00000005ff05723e, 0x004fca000241d0ff, "F2FP.TF32.F32.PACK_B.RZ R5, R5 ;"),
    (100, 0x00000002ff08723e, 0x088fe400024070ff, "F2FP.SATFINITE.TF32.F32.PACK_B R8, R2.reuse ;"),
    (120, 0x00000002ff08723e, 0x088fe400024050ff, "F2FP.TF32.F32.PACK_B R8, R2.reuse ;"),
    // MUFU of halves (ptxas 13.5's `ex2.approx.f16x2`, `tanh.approx.f16`,
    // `ex2.approx.ftz.bf16`): the type bit 73 up to sm_89, 72–73 from sm_90.
    (80, 0x0000000000047308, 0x004ff00000000a00, "MUFU.EX2.F16 R4, R0 ;"),
    (80, 0x1000000000057308, 0x000e240000000a00, "MUFU.EX2.F16 R5, R0.H1 ;"),
    (75, 0x1000000000037308, 0x000e240000000a00, "MUFU.EX2.F16 R3, R0.H1 ;"),
    (75, 0x0000000000007308, 0x004e240000002600, "MUFU.TANH.F16 R0, R0 ;"),
    (90, 0x1000000000057308, 0x000e240000000900, "MUFU.EX2.F16 R5, R0.H1 ;"),
    (90, 0x0000000000057308, 0x004e240000002500, "MUFU.TANH.F16 R5, R0 ;"),
    (90, 0x0000000000057308, 0x004e240000000a00, "MUFU.EX2.BF16 R5, R0 ;"),
    (120, 0x1000000000057308, 0x000e240000000900, "MUFU.EX2.F16 R5, R0.H1 ;"),
    // HMNMX2 with a constant-bank b (ptxas's sm_89 code for a generated
    // program, seed 10196547), and that word on sm_80 and sm_90.
    (89, 0x3000030044057a40, 0x000fe20007820800, "HMNMX2.NAN R5, R68.H0_H0, c[0x0] [0xc].H1_H1, !PT ;"),
    (80, 0x3000030044057a40, 0x000fe20007820800, "HMNMX2.NAN R5, R68.H0_H0, c[0x0] [0xc].H1_H1, !PT ;"),
    (90, 0x3000030044057a40, 0x000fe20007820800, "HMNMX2.NAN R5, R68.H0_H0, c[0x0] [0xc].H1_H1, !PT ;"),
    // UI2F to an f16 (ptxas's sm_120 code for a generated program, seed
    // 10188031).
    (120, 0x000000050004725a, 0x001fe2000820c800, "UI2F.F16.U32.RZ UR4, UR5 ;"),
    // HSET2 with two f16 immediates (ptxas's sm_75 code for a generated
    // program, seed 10160472), and that word on sm_120.
    (75, 0xb04eb04e3c067433, 0x000fcc0003811800, "HSET2.LT.FTZ.AND R6, R60.H0_H0, -0.134521484375, -0.134521484375, PT ;"),
    (120, 0xb04eb04e3c067433, 0x000fcc0003811800, "HSET2.LT.FTZ.AND R6, R60.H0_H0, -0.134521484375, -0.134521484375, PT ;"),
    // UF2I of an F16 source (ptxas's sm_120 code for a generated program,
    // seed 10087343), its high half and `|x|` (bits 60 and 62) and an f16
    // immediate (nvdisasm).
    (120, 0x000000ff0004725c, 0x000fe2000810e000, "UF2I.U8.F16.TRUNC.NTZ UR4, URZ ;"),
    (120, 0x500000050004725c, 0x000fe2000810e000, "UF2I.U8.F16.TRUNC.NTZ UR4, |UR5.H1| ;"),
    (120, 0x00003c000004785c, 0x000fe2000810e000, "UF2I.U8.F16.TRUNC.NTZ UR4, 1 ;"),
    // HSETP2 with a uniform b (ptxas's sm_103 code for a generated
    // program, seed 9932830), and that word on sm_75 and sm_120.
    (100, 0x2000000411007e34, 0x000fe2000a721800, "HSETP2.LT.AND P1, PT, R17.H0_H0, UR4.H0_H0, P4 ;"),
    (75, 0x2000000411007e34, 0x000fe2000a721800, "HSETP2.LT.AND P1, PT, R17.H0_H0, UR4.H0_H0, P4 ;"),
    (120, 0x2000000411007e34, 0x000fe2000a721800, "HSETP2.LT.AND P1, PT, R17.H0_H0, UR4.H0_H0, P4 ;"),
    // UF2I of an immediate (ptxas's sm_120 code for a generated program,
    // seed 9970999).
    (120, 0x3f8000000004785c, 0x000fe20008202900, "UF2I.S16.NTZ UR4, 1 ;"),
    // F2FP with an immediate b (the same program), and that word on sm_90.
    (120, 0x3f800000ff0b783e, 0x000fce00000180ff, "F2FP.F16.F32.PACK_AB.RZ R11, RZ, 1 ;"),
    (90, 0x3f800000ff0b783e, 0x000fce00000180ff, "F2FP.F16.F32.PACK_AB.RZ R11, RZ, 1 ;"),
    // UFRND (ptxas's sm_120 code for a generated program, seed 9933311),
    // its f32 and immediate forms.
    (120, 0x000000040004725d, 0x000fe2000810c800, "UFRND.F16.TRUNC UR4, UR4 ;"),
    (120, 0x000000040004725d, 0x000fe2000820d000, "UFRND.TRUNC UR4, UR4 ;"),
    (120, 0x000000040004785d, 0x000fe2000810c800, "UFRND.F16.TRUNC UR4, 2.384185791015625e-07 ;"),
    // USGXT (ptxas's sm_86 code for a generated program, seed 9929073),
    // and that word on sm_75 and sm_120.
    (86, 0x000000120404789a, 0x000fe20008000000, "USGXT.U32 UR4, UR4, 0x12 ;"),
    (75, 0x000000120404789a, 0x000fe20008000000, "USGXT.U32 UR4, UR4, 0x12 ;"),
    (120, 0x000000120404789a, 0x000fe20008000000, "USGXT.U32 UR4, UR4, 0x12 ;"),
    // USHF with an immediate c (ptxas's sm_89 code for a generated
    // program, seed 9904343), and that word on sm_75 and sm_120.
    (89, 0x003fffff05057499, 0x000fe20008010204, "USHF.L.U64.HI UR5, UR5, UR4, 0x3fffff ;"),
    (75, 0x003fffff05057499, 0x000fe20008010204, "USHF.L.U64.HI UR5, UR5, UR4, 0x3fffff ;"),
    (120, 0x003fffff05057499, 0x000fe20008010204, "USHF.L.U64.HI UR5, UR5, UR4, 0x3fffff ;"),
    // I2I with a uniform-register source (ptxas's sm_80 code for a
    // generated program, seed 9901471), and that word on the other SMs.
    (80, 0x0000000400267c38, 0x008fe20008002000, "I2I.U16.S32.SAT R38, UR4 ;"),
    (75, 0x0000000400267c38, 0x008fe20008002000, "I2I.U16.S32.SAT R38, UR4 ;"),
    (90, 0x0000000400267c38, 0x008fe20008002000, "I2I.U16.S32.SAT R38, UR4 ;"),
    (120, 0x0000000400267c38, 0x008fe20008002000, "I2I.U16.S32.SAT R38, UR4 ;"),
    // UI2I (ptxas's sm_120 code for a generated program, seed 9108952),
    // and written words: `.S16`, a guard.
    (120, 0x0000000a0004724e, 0x000fe20008000000, "UI2I.U8.S32.SAT UR4, UR10 ;"),
    (120, 0x0000000a0004724e, 0x000fe20008003000, "UI2I.S16.S32.SAT UR4, UR10 ;"),
    (120, 0x0000000a0004624e, 0x000fe20008000000, "@UP6 UI2I.U8.S32.SAT UR4, UR10 ;"),
    // UF2I (ptxas's sm_120 code for a generated program, seed 9110786), and
    // written words: `.FLOOR`, signed, `-|UR4|`.
    (120, 0x000000040005725c, 0x000fe2000821f000, "UF2I.FTZ.U32.TRUNC.NTZ UR5, UR4 ;"),
    (120, 0x000000040005725c, 0x000fe20008217000, "UF2I.FTZ.U32.FLOOR.NTZ UR5, UR4 ;"),
    (120, 0x000000040005725c, 0x000fe2000821f100, "UF2I.FTZ.TRUNC.NTZ UR5, UR4 ;"),
    (120, 0xc00000040005725c, 0x000fe2000820f000, "UF2I.U32.TRUNC.NTZ UR5, -|UR4| ;"),
    // UIMAD.HI (ptxas's sm_120 code for a generated program, seed
    // 9110786), and written words: signed, a carry-out predicate.
    (120, 0x00000007050472a6, 0x000fc4000f8e0004, "UIMAD.HI.U32 UR4, UR5, UR7, UR4 ;"),
    (120, 0x00000007050472a6, 0x000fc4000f8e0204, "UIMAD.HI UR4, UR5, UR7, UR4 ;"),
    (120, 0x00000007050472a6, 0x000fc4000f8c0004, "UIMAD.HI.U32 UR4, UP6, UR5, UR7, UR4 ;"),
    (120, 0x00000007050478a6, 0x000fc4000f8e0004, "UIMAD.HI.U32 UR4, UR5, 0x7, UR4 ;"),
    // BRXU: ptxas's `brx.idx.uni` of a kernel parameter on sm_120, then
    // written words (no offset, another offset, a guard).
    (120, 0xfffffffc04d87958, 0x004fea000b83ffff, "BRXU UR4 -0xa0 ;"),
    (120, 0x0000000004007958, 0x004fea000b800000, "BRXU UR4 ;"),
    (90, 0xfffffffc04d87958, 0x004fea000b83ffff, "BRXU UR4 -0xa0 ;"),
    (100, 0x0000000804207958, 0x004fea000b800000, "BRXU UR4 0x880 ;"),
    (120, 0xfffffffc04d80958, 0x004fea000b83ffff, "@P0 BRXU UR4 -0xa0 ;"),
    // Eviction priorities of global loads and stores (Triton's
    // `evict_first`/`evict_last` hints: cache_modifiers on sm_80,
    // evict_hints on sm_90), and flips of the field to its other values.
    (80, 0x0000000b04008986, 0x0001e2000c001904, "@!P0 STG.E.EF [R4.64], R11 ;"),
    (80, 0x0000000b04008986, 0x0001e2000c501904, "@!P0 STG.E.NA [R4.64], R11 ;"),
    (90, 0x0000000602008981, 0x000eaa000c2e1900, "@!P0 LDG.E.EL R0, desc[UR6][R2.64] ;"),
    (90, 0x0000000602008981, 0x000eaa000c3e1900, "@!P0 LDG.E.LU R0, desc[UR6][R2.64] ;"),
    (100, 0x0000000602008981, 0x000eaa000c4e1900, "@!P0 LDG.E.EU R0, desc[UR6][R2.64] ;"),
    (120, 0x0000000b04008986, 0x0001e2000c001b04, "@!P0 STG.E.EF.64 desc[UR4][R4.64], R11 ;"),
    // LDSM with a zero base and offset (Triton's row reductions, sm_80).
    (80, 0x00000000ff09783b, 0x000e640000000000, "LDSM.16.M88 R9, [RZ] ;"),
    (120, 0x00000000ff09783b, 0x000e640000000200, "LDSM.16.M88.4 R9, [RZ] ;"),
    // FADD and FFMA with a widened half as a (ptxas's `add.rn.f32.bf16` and
    // `fma.rn.f32.f16` in Triton's convert_bf16_fp8 and layernorm on
    // sm_100a), and flips of their fields.
    (100, 0x8000000a1c1c7221, 0x010fc80000020000, "FHADD R28, R28, -R10 ;"),
    (100, 0x000000070a0f7221, 0x040fe20000060000, "FHADD.BF16 R15, R10.reuse, R7 ;"),
    (120, 0x8000000a1c1c7221, 0x010fc800000e6000, "FHADD.BF16.RM.SAT R28, R28.H1, -R10 ;"),
    (120, 0x8000000a1c1c7221, 0x010fc800000a0200, "FHADD R28, |R28|.H1, -R10 ;"),
    (100, 0x8000000a1c1c7223, 0x010fc800000ea000, "FHFMA.BF16.RP.SAT R28, R28.H1, -R10, R0 ;"),
    (100, 0x0000000006097223, 0x000fc80000120000, "FHFMA R9, R6, R0.H1, R0 ;"),
    // sm_80 loads and stores with an explicit cache policy (bit 101:
    // Triton's evict_hints on sm_80; ST on sm_89 a flip of it).
    (80, 0x0000000402068981, 0x000ea8200c2e1900, "@!P0 LDG.E.EL R6, desc[UR4][R2.64] ;"),
    (86, 0x0000000b04008986, 0x0001e2200c001904, "@!P0 STG.E.EF desc[UR4][R4.64], R11 ;"),
    (89, 0x0000000b04008985, 0x0001e2200c001904, "@!P0 ST.E.EF desc[UR4][R4.64], R11 ;"),
    // IDP.4A with b from a constant bank (sm_75, sm_80) or a uniform
    // register (sm_90 to sm_120): ptxas's `vadd4.u32.u32.u32.add`
    // (tests/data/video_ops/simd4.ptx).
    (75, 0x0080000006067a26, 0x000fe200000000ff, "IDP.4A.U8.U8 R6, R6, c[0x2][0x0], RZ ;"),
    (75, 0x008000001d1d7a26, 0x010fe20000000005, "IDP.4A.U8.U8 R29, R29, c[0x2][0x0], R5 ;"),
    (80, 0x00800000070d7a26, 0x001fe20000000000, "IDP.4A.U8.U8 R13, R7, c[0x2][0x0], R0 ;"),
    (90, 0x00000006000c7c26, 0x000fe200080000ff, "IDP.4A.U8.U8 R12, R0, UR6, RZ ;"),
    (100, 0x0000000605147c26, 0x000fe20008000004, "IDP.4A.U8.U8 R20, R5, UR6, R4 ;"),
    (120, 0x00000006000a7c26, 0x040fe200080000ff, "IDP.4A.U8.U8 R10, R0.reuse, UR6, RZ ;"),
    // The same words with bit 76 (and 77) set: IDP.2A (nvdisasm 13.5).
    (80, 0x0080000006067a26, 0x000fe200000010ff, "IDP.2A.LO.U16.U8 R6, R6, c[0x2][0x0], RZ ;"),
    (90, 0x00000006000c7c26, 0x000fe200080010ff, "IDP.2A.LO.U16.U8 R12, R0, UR6, RZ ;"),
    (120, 0x00000006000c7c26, 0x000fe200080030ff, "IDP.2A.HI.U16.U8 R12, R0, UR6, RZ ;"),
    // VABSDIFF4: ptxas's `vabsdiff4.u32.u32.u32{.add}` (tests/data/video_ops/
    // absdiff4.ptx), then bit 73 flipped (signed bytes, sm_80).
    (75, 0x0000000700097215, 0x1c4fe400000e0006, "VABSDIFF4.U8 R9, R0.reuse, R7.reuse, R6.reuse ;"),
    (75, 0x0000000700077215, 0x000fcc00000e0806, "VABSDIFF4.U8.ACC R7, R0, R7, R6 ;"),
    (80, 0x0000000700077215, 0x000fc600000e0806, "VABSDIFF4.U8.ACC R7, R0, R7, R6 ;"),
    (90, 0x0000000700097215, 0x004fc400000e0006, "VABSDIFF4.U8 R9, R0, R7, R6 ;"),
    (100, 0x0000000700077215, 0x000fc600000e0806, "VABSDIFF4.U8.ACC R7, R0, R7, R6 ;"),
    (80, 0x0000000700097215, 0x000fe400000e0206, "VABSDIFF4 R9, R0, R7, R6 ;"),
    // BMSK with b from the constant bank (ptxas 13.5's words for cub's
    // radix sort, sm_80 and sm_86; `bmsk.clamp.b32`/`bmsk.wrap.b32` of
    // kernel parameters on sm_80) or a uniform register (the same kernels
    // on sm_90; written on sm_120); bit 75 `.W` flipped on sm_75.
    (80, 0x00005e00ff0c2a1b, 0x000fe20000000000, "@P2 BMSK R12, RZ, c[0x0][0x178] ;"),
    (86, 0x00006400ff087a1b, 0x000fe20000000000, "BMSK R8, RZ, c[0x0][0x190] ;"),
    (80, 0x00005b00ff057a1b, 0x000fe20000000800, "BMSK.W R5, RZ, c[0x0][0x16c] ;"),
    (75, 0x00006400ff087a1b, 0x000fe20000000800, "BMSK.W R8, RZ, c[0x0][0x190] ;"),
    (80, 0x00005a0006067a1b, 0x001fca0000000000, "BMSK R6, R6, c[0x0][0x168] ;"),
    (90, 0x00000005ff057c1b, 0x000fe40008000800, "BMSK.W R5, RZ, UR5 ;"),
    (90, 0x0000000406067c1b, 0x001fe20008000000, "BMSK R6, R6, UR4 ;"),
    (120, 0x00000004ff087c1b, 0x000fe20008000000, "BMSK R8, RZ, UR4 ;"),
    // 64-bit ATOMS.CAST.SPIN (cub's shared 64-bit atomics on sm_100 and
    // sm_120, `atom.shared.add.u64`/`.max.u64`), and bit 88 clear.
    (100, 0x0000000c2300758d, 0x000e24000180040e, "ATOMS.CAST.SPIN.64 P0, [R35], R12, R14 ;"),
    (120, 0x000000182100758d, 0x000e24000180041a, "ATOMS.CAST.SPIN.64 P0, [R33], R24, R26 ;"),
    (100, 0x000000182100758d, 0x000e24000080041a, "ATOMS.CAST.64 P0, [R33], R24, R26 ;"),
    (120, 0x000008080300758d, 0x000e24000182040a, "ATOMS.CAST.SPIN.64 P1, [R3+0x8], R8, R10 ;"),
    // BAR.SYNC with registers (`barrier.sync a, b`, `bar.sync a`,
    // `bar.sync 1, b` of registers; the library corpus on sm_90, 100,
    // 120), bit 80 clear, the same word on sm_75.
    (90, 0x0000000b0000731d, 0x0001e40000010000, "BAR.SYNC.DEFER_BLOCKING R11, R11 ;"),
    (90, 0x0000000b0000731d, 0x0001e40000000000, "BAR.SYNC R11, R11 ;"),
    (100, 0x0000000b0000731d, 0x0003e40000010000, "BAR.SYNC.DEFER_BLOCKING R11, R11 ;"),
    (120, 0x0000000b0000731d, 0x0001e40000010000, "BAR.SYNC.DEFER_BLOCKING R11, R11 ;"),
    (75, 0x000000050000731d, 0x0001e40000010000, "BAR.SYNC.DEFER_BLOCKING R5, R5 ;"),
    (90, 0x000000040000751d, 0x000ff00000010000, "BAR.SYNC.DEFER_BLOCKING R4 ;"),
    (90, 0x004000050000791d, 0x0001e40000010000, "BAR.SYNC.DEFER_BLOCKING 0x1, R5 ;"),
    // UIADD3.64 with a negated uniform b (cub's radix sort on sm_120; bit
    // 63 set on a thrust_transform word of sm_90).
    (120, 0x8000000a0c047297, 0x000fc8000fffe0ff, "UIADD3.64 UR4, UPT, UPT, UR12, -UR10, URZ ;"),
    (90, 0x8000000c0a047297, 0x000fe4000fffe004, "UIADD3.64 UR4, UR10, -UR12, UR4 ;"),
    // UTCATOMSWS (`tcgen05.alloc`, sm_100), and flips of 75, 85 and the guard.
    (100, 0x00000008000475e3, 0x000e220008000800, "UTCATOMSWS.FIND_AND_SET.ALIGN UP0, UR4, UR8 ;"),
    (100, 0x00000008000475e3, 0x000e220008000000, "UTCATOMSWS.FIND_AND_SET UP0, UR4, UR8 ;"),
    (100, 0x00000008000475e3, 0x000e220008200800, "UTCATOMSWS.2CTA.FIND_AND_SET.ALIGN UP0, UR4, UR8 ;"),
    (100, 0x00000008000465e3, 0x000e220008000800, "@UP6 UTCATOMSWS.FIND_AND_SET.ALIGN UP0, UR4, UR8 ;"),
    // LDG.E.ENL2.256 (`ld.global.v8.b32` on sm_100, the corpus's sm_120
    // word), flips of 84 (`.EF`) and 81 (`.EFL2`).
    (100, 0xfe0000040404797e, 0x002ee20008121908, "LDG.E.ENL2.256 R8, R4, desc[UR4][R4.64] ;"),
    (120, 0xfe000004040c797e, 0x000ea20008121904, "LDG.E.ENL2.256 R4, R12, desc[UR4][R4.64] ;"),
    (100, 0xfe000004040c797e, 0x000ea20008021904, "LDG.E.EF.ENL2.256 R4, R12, desc[UR4][R4.64] ;"),
    (100, 0xfe000004040c797e, 0x000ea20008101904, "LDG.E.EFL2.256 R4, R12, desc[UR4][R4.64] ;"),
    // LDG.E.ENL2.256 and STG.E.ENL2.256 (ptxas 13.5's `ld.global.v8`,
    // `st.global.v8`, `.v4.u64` on sm_100 and sm_120: Thrust's transform
    // kernels, ZLUDA's vector8, small kernels), and bit flips of them: a
    // 32-byte-unit offset (LDG 40–56, STG 40–58), a mask of the components
    // (LDG 57–63 and 72, STG 59–63 and 88–90), bit 76 clear (the uniform
    // register added to the address), the order and scope, the L2 hint and
    // prefetch size.
    (100, 0xf80000040208797f, 0x0081e4000f121808, "STG.E.ENL2.256 desc[UR8][R2.64], R4, R8 ;"),
    (100, 0xf80100040210797f, 0x000fe2000f121808, "STG.E.ENL2.256 desc[UR8][R2.64+0x2000], R4, R16 ;"),
    (120, 0xf80000040208797f, 0x0081e4000f121808, "STG.E.ENL2.256 desc[UR8][R2.64], R4, R8 ;"),
    (120, 0x0000000402ff797e, 0x001eac0008121903, "LDG.E.ENL2.256 R3, RZ, desc[UR4][R2.64], 0x80 ;"),
    (100, 0x540000040202797e, 0x001eaa0008121906, "LDG.E.ENL2.256 R6, R2, desc[UR4][R2.64], 0xaa ;"),
    (120, 0x4c0000040202797e, 0x001eac0008121807, "LDG.E.ENL2.256 R7, R2, desc[UR4][R2.64], 0x26 ;"),
    (100, 0x020000040203797e, 0x001eaa00081218ff, "LDG.E.ENL2.256 RZ, R3, desc[UR4][R2.64], 0x1 ;"),
    (120, 0xe000000402ff797e, 0x001eac0008121908, "LDG.E.ENL2.256 R8, RZ, desc[UR4][R2.64], 0xf0 ;"),
    (100, 0xfe0001040210797e, 0x000ee20008129914, "LDG.E.ENL2.256.CONSTANT R20, R16, desc[UR4][R2.64+0x20] ;"),
    (100, 0x860018040210797e, 0x001ea40008121912, "LDG.E.ENL2.256 R18, R16, desc[UR4][R2.64+0x300], 0xc3 ;"),
    (120, 0x34001004021a797e, 0x000ea2000812991c, "LDG.E.ENL2.256.CONSTANT R28, R26, desc[UR4][R2.64+0x200], 0x9a ;"),
    (100, 0xfe0000040208797e, 0x001ea8000822190c, "LDG.E.EL.ENL2.256 R12, R8, desc[UR4][R2.64] ;"),
    (100, 0xfe0002040c10797e, 0x001ea80008121b14, "LDG.E.ENL2.LTC64B.256 R20, R16, desc[UR4][R12.64+0x40] ;"),
    (120, 0xfe0001040c08797e, 0x001ea20008121f10, "LDG.E.ENL2.LTC256B.256 R16, R8, desc[UR4][R12.64+0x20] ;"),
    (100, 0xffffff100c14797f, 0x004fe8000f121804, "STG.E.ENL2.256 desc[UR4][R12.64+-0x20], R16, R20 ;"),
    (100, 0xf80020040c08797f, 0x004fe2000f121804, "STG.E.ENL2.256 desc[UR4][R12.64+0x400], R4, R8 ;"),
    (100, 0xa80000040208797f, 0x004fe2000d121804, "STG.E.ENL2.256 desc[UR4][R2.64], R4, R8, 0xb5 ;"),
    (120, 0xd00000060208797f, 0x004fe2000c121804, "STG.E.ENL2.256 desc[UR4][R2.64], R6, R8, 0x9a ;"),
    (100, 0xf80001100414797f, 0x008fe2000f12f804, "STG.E.ENL2.256.STRONG.GPU desc[UR4][R4.64+0x20], R16, R20 ;"),
    (120, 0xf8000008040c797f, 0x004fe8000f521804, "STG.E.NA.ENL2.256 desc[UR4][R4.64], R8, R12 ;"),
    (100, 0xf800020c0410797f, 0x004fe2000f141804, "STG.E.ELL2.256 desc[UR4][R4.64+0x40], R12, R16 ;"),
    (100, 0xf80000040208797f, 0x0081e4000f120808, "STG.E.ENL2.256 [R2.64+UR8], R4, R8 ;"),
    (120, 0xf80100040210797f, 0x000fe2000f120808, "STG.E.ENL2.256 [R2.64+UR8+0x2000], R4, R16 ;"),
    (100, 0xf8010004ff10797f, 0x000fe2000f120808, "STG.E.ENL2.256 [UR8+0x2000], R4, R16 ;"),
    (100, 0xfe0000040404797e, 0x002ee20008120908, "LDG.E.ENL2.256 R8, R4, [R4.64+UR4] ;"),
    (120, 0xfe000004ff04797e, 0x002ee200081209ff, "LDG.E.ENL2.256 RZ, R4, [UR4] ;"),
    (100, 0xfe0000040404797e, 0x002ee20008120808, "LDG.E.ENL2.256 R8, R4, [R4.64+UR4], 0x7f ;"),
    (100, 0xfc0000040208797f, 0x0081e4000f121808, "STG.E.ENL2.256 desc[UR8][R2.64+-0x800000], R4, R8 ;"),
    (100, 0xf80000040208797f, 0x0081e4000b121808, "STG.E.ENL2.256 desc[UR8][R2.64], R4, R8, 0x7f ;"),
    (100, 0xfe0000040404797e, 0x002ee20008121808, "LDG.E.ENL2.256 R8, R4, desc[UR4][R4.64], 0x7f ;"),
    (120, 0xfe0000000404797e, 0x002ee20008121908, "LDG.E.ENL2.256 R8, R4, desc[UR0][R4.64] ;"),
    (100, 0x0000000402ff797e, 0x001eac0008121803, "LDG.E.ENL2.256 R3, RZ, desc[UR4][R2.64], 0x0 ;"),
    (100, 0xfe0000040404797e, 0x002ee20008121e08, "LDG.E.ENL2.LTC256B.256 R8, R4, desc[UR4][R4.64], 0x7f ;"),
    (100, 0xfe0000040404797e, 0x002ee2000812b908, "LDG.E.ENL2.256.STRONG.SM R8, R4, desc[UR4][R4.64] ;"),
    (120, 0xf80000040208797f, 0x0081e4000f12b808, "STG.E.ENL2.256.STRONG.SM desc[UR8][R2.64], R4, R8 ;"),
    (100, 0xfe0000040404797e, 0x002ee20008141908, "LDG.E.ELL2.256 R8, R4, desc[UR4][R4.64] ;"),
    (100, 0xf801000402ff797f, 0x000fe2000f1218ff, "STG.E.ENL2.256 desc[URZ][R2.64+0x2000], R4, RZ ;"),
    // `st.global.v8.b32` at a negative offset and `st.global.v4.b64` with
    // holes (`sass_semantics::stg_256_stores_two_quads_at_offsets_and_masks`).
    (100, 0x1800020e120c797f, 0x000fe2000e121804, "STG.E.ENL2.256 desc[UR4][R18.64+0x40], R14, R12, 0xc3 ;"),
    (120, 0xffffff141004797f, 0x000fe8000f121804, "STG.E.ENL2.256 desc[UR4][R16.64+-0x20], R20, R4 ;"),
    // MUFU with a constant-bank source (cuRAND's Poisson kernels, sm_80 and
    // sm_86; bits 62–63 set; the word on sm_75).
    (80, 0x00005f0000117b08, 0x00be220000001c00, "MUFU.RSQ64H R17, c[0x0][0x17c] ;"),
    (86, 0x00005f0000237b08, 0x012e620000001c00, "MUFU.RSQ64H R35, c[0x0][0x17c] ;"),
    (80, 0xc0005f0000117b08, 0x00be220000001c00, "MUFU.RSQ64H R17, -|c[0x0][0x17c]| ;"),
    (75, 0x00005f0000117b08, 0x00be220000001c00, "MUFU.RSQ64H R17, c[0x0][0x17c] ;"),
    // VIADDMNMX with a uniform b (cub's radix and merge sorts, sm_90 and
    // sm_100), bit 72 set (signed).
    (90, 0x0000000400007c46, 0x000fc8000b800003, "VIADDMNMX.U32 R0, R0, UR4, R3, PT ;"),
    (90, 0x8000000816197c46, 0x040fe4000f8001ff, "VIADDMNMX R25, R22.reuse, -UR8, RZ, !PT ;"),
    (100, 0x0000000400007c46, 0x000fc8000b800003, "VIADDMNMX.U32 R0, R0, UR4, R3, PT ;"),
    (90, 0x0000000400007c46, 0x000fc8000b800103, "VIADDMNMX R0, R0, UR4, R3, PT ;"),
    // USEL.64 (thrust_sort, thrust_transform on sm_120), flips of 64 (the
    // immediate's sign) and of 87 and 90 (the predicate).
    (120, 0x000008000a0a7487, 0x000fe4000c000000, "USEL.64 UR10, UR10, 0x800, !UP0 ;"),
    (120, 0x000000ff04047c87, 0x010fcc000c000000, "USEL.64 UR4, UR4, URZ, !UP0 ;"),
    (120, 0x000008000a0a7487, 0x000fe4000c000001, "USEL.64 UR10, UR10, -0xfffff800, !UP0 ;"),
    (120, 0x000000ff04047c87, 0x010fcc0008800000, "USEL.64 UR4, UR4, URZ, UP1 ;"),
    // CCTL.E.PF2 below sm_90 (thrust_transform on sm_80) and its word on
    // sm_75 and sm_120.
    (80, 0x000000000800798f, 0x0001ea0000800100, "CCTL.E.PF2 [R8] ;"),
    (75, 0x000000000600798f, 0x0001ea0000800100, "CCTL.E.PF2 [R6] ;"),
    (120, 0x000000000600798f, 0x0001ea0000800100, "CCTL.E.PF2 [R6] ;"),
];

#[test]
fn former_gap_words_decode_print_encode_and_assemble_as_nvdisasm_does() {
    let failures = common::measured_words::disagreements(WORDS);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
