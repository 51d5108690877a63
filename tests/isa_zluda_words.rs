//! Words ptxas 13.5 emits for the ZLUDA conformance corpus
//! (`../shared/corpus/zluda`) in the forms added for it (tensor-core,
//! dot-product, pack, match, generic and shared atomics, fp8 conversions,
//! packed-half register forms), with the text nvdisasm 13.5 prints for
//! them: each decodes to that text, encodes back to the same 128 bits, and
//! the text assembles to the same word. Runs without the reference tools.

use ptx2sass::internals::isa::bits::join;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::isa::parse::parse_inst;
use ptx2sass::internals::target::Sm;

/// (SM, low 64 bits, high 64 bits, nvdisasm's text).
const WORDS: &[(u16, u64, u64, &str)] = &[
    (80, 0x000000080808723c, 0x000fe20000001804, "HMMA.16816.F32 R8, R8, R8, R4 ;"),
    (80, 0x000000080808723c, 0x000fe20000041804, "HMMA.16816.F32.BF16 R8, R8, R8, R4 ;"),
    (80, 0x000000000808783b, 0x000e280000000100, "LDSM.16.M88.2 R8, [R8] ;"),
    (80, 0x000000000404783b, 0x000e240000004200, "LDSM.16.MT88.4 R4, [R4] ;"),
    (80, 0x000000070007721b, 0x004fca0000000000, "BMSK R7, R0, R7 ;"),
    (80, 0x0000000700077226, 0x004fca0000000606, "IDP.4A.S8.S8 R7, R0, R7, R6 ;"),
    (80, 0x0000000700077226, 0x004fca0000003606, "IDP.2A.HI.S16.S8 R7, R0, R7, R6 ;"),
    (80, 0x0000000700097239, 0x004fc40000000006, "I2IP.U8.S32.SAT R9, R0, R7, R6 ;"),
    (80, 0x0000000700077239, 0x000fc60000001006, "I2IP.S8.S32.SAT R7, R0, R7, R6 ;"),
    (80, 0x00000000000573a1, 0x000e2800000e8000, "MATCH.ANY R5, R0 ;"),
    (80, 0x0000000700077235, 0x004fce0000000006, "HFMA2.MMA R7, R0, R7, R6 ;"),
    (80, 0x0000000700077231, 0x004fca0000200006, "HFMA2.BF16_V2 R7, R0, R7, R6 ;"),
    (80, 0x0000000d0207798a, 0x000ea800099ee1c4, "ATOM.E.INC.STRONG.GPU PT, R7, [R2.64], R13 ;"),
    (80, 0x000004060207738b, 0x004ea800001ee107, "ATOM.E.CAS.STRONG.GPU PT, R7, [R2+0x4], R6, R7 ;"),
    (80, 0x00000004ff05738d, 0x000e240001800005, "ATOMS.CAST.SPIN R5, [RZ], R4, R5 ;"),
    (80, 0x00000000000079af, 0x000e220000000000, "LDGDEPBAR ;"),
    (90, 0x000000080808723c, 0x000ff60000001804, "HMMA.16816.F32 R8, R8, R8, R4 ;"),
    (90, 0x000000080808723c, 0x000ff60000041804, "HMMA.16816.F32.BF16 R8, R8, R8, R4 ;"),
    (90, 0x000000000404783b, 0x000e280000000100, "LDSM.16.M88.2 R4, [R4] ;"),
    (90, 0x000000000d04783b, 0x000e240000004200, "LDSM.16.MT88.4 R4, [R13] ;"),
    (90, 0x000000070007721b, 0x004fca0000000000, "BMSK R7, R0, R7 ;"),
    (90, 0x0000000700077226, 0x004fca0000000606, "IDP.4A.S8.S8 R7, R0, R7, R6 ;"),
    (90, 0x0000000700077226, 0x004fca0000003606, "IDP.2A.HI.S16.S8 R7, R0, R7, R6 ;"),
    (90, 0x00000000000573a1, 0x000e2200000e8000, "MATCH.ANY R5, R0 ;"),
    (90, 0x0000000700077235, 0x004fce0000000006, "HFMA2.MMA R7, R0, R7, R6 ;"),
    (90, 0x0000000700077235, 0x004fce0000200006, "HFMA2.MMA.BF16_V2 R7, R0, R7, R6 ;"),
    (90, 0x0000000d0207798a, 0x001ea800099ee1c4, "ATOM.E.INC.STRONG.GPU PT, R7, desc[UR4][R2.64], R13 ;"),
    (90, 0x000000080607738b, 0x004e2800001ee109, "ATOM.E.CAS.STRONG.GPU PT, R7, [R6], R8, R9 ;"),
    (90, 0x000000060007738d, 0x000e240001800007, "ATOMS.CAST.SPIN R7, [R0], R6, R7 ;"),
    (90, 0x00000000000079af, 0x000e220000000000, "LDGDEPBAR ;"),
    (90, 0x000000070007723e, 0x004fca00048070ff, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, R0, R7, RZ ;"),
    (90, 0x00000002ff07723e, 0x004fca00020004ff, "F2FP.F16.E5M2.UNPACK_B R7, R2 ;"),
    (120, 0x000000080808723c, 0x000fe20000001804, "HMMA.16816.F32 R8, R8, R8, R4 ;"),
    (120, 0x000000080808723c, 0x000fe20000041804, "HMMA.16816.F32.BF16 R8, R8, R8, R4 ;"),
    (120, 0x000000000404783b, 0x000e280000000100, "LDSM.16.M88.2 R4, [R4] ;"),
    (120, 0x000000000d04783b, 0x000e240000004200, "LDSM.16.MT88.4 R4, [R13] ;"),
    (120, 0x000000070007721b, 0x004fca0000000000, "BMSK R7, R0, R7 ;"),
    (120, 0x0000000700077226, 0x004fca0000000606, "IDP.4A.S8.S8 R7, R0, R7, R6 ;"),
    (120, 0x0000000700077226, 0x004fca0000003606, "IDP.2A.HI.S16.S8 R7, R0, R7, R6 ;"),
    (120, 0x00000000000573a1, 0x000ea200000e8000, "MATCH.ANY R5, R0 ;"),
    (120, 0x0000000700077231, 0x004fca0000000006, "HFMA2 R7, R0, R7, R6 ;"),
    (120, 0x0000000700077231, 0x004fca0000200006, "HFMA2.BF16_V2 R7, R0, R7, R6 ;"),
    (120, 0x8000000d0207798a, 0x001ea800099ef104, "ATOM.E.INC.STRONG.GPU PT, R7, desc[UR4][R2.64], R13 ;"),
    (120, 0x000000080607738b, 0x004ea800001ee109, "ATOM.E.CAS.STRONG.GPU PT, R7, [R6], R8, R9 ;"),
    (120, 0x000000060000758d, 0x000e240001800007, "ATOMS.CAST.SPIN P0, [R0], R6, R7 ;"),
    (120, 0x00000000000079af, 0x000e220000000000, "LDGDEPBAR ;"),
    (120, 0x000000070007723e, 0x004fca00048070ff, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, R0, R7, RZ ;"),
    (120, 0x00000002ff07723e, 0x004fca00020004ff, "F2FP.F16.E5M2.UNPACK_B R7, R2 ;"),
    (120, 0x000000020004785a, 0x000fe20008209000, "UI2F.U32.RP UR4, 0x2 ;"),
    // UISETP.EX (sm_80, sm_90) and VIADD.S32.ISAT (sm_120).
    (80, 0x0000003f3f00728c, 0x000fe2000bf01300, "UISETP.LT.AND.EX UP0, UPT, URZ, URZ, UPT, UP0 ;"),
    (90, 0x0000003f3f00728c, 0x000fc8000bf01300, "UISETP.LT.AND.EX UP0, UPT, URZ, URZ, UPT, UP0 ;"),
    (120, 0x0000000700097236, 0x0c4fe20000010400, "VIADD.S32.ISAT R9, R0.reuse, R7.reuse ;"),
    // Operand suffixes: half swizzles, register signs, matrix layouts.
    (80, 0x2000000500007240, 0x004fe20003800800, "HMNMX2 R0, R0.H0_H0, R5.H0_H0, PT ;"),
    (80, 0x2000000005007240, 0x004fe20007800800, "HMNMX2 R0, R5.H0_H0, R0.H0_H0, !PT ;"),
    (80, 0x000000050000721f, 0x000fe40000700209, "PLOP3.LUT P0, PT, R0.SIGN, R5.SIGN, R9.SIGN, 0x2, 0x0 ;"),
    (80, 0x3000000000007233, 0x004fca000380c800, "HSET2.GTU.AND R0, R0.H0_H0, R0.H1_H1, PT ;"),
    (80, 0x0000000700077233, 0x004fca0003804080, "HSET2.BF.GT.AND R7, R0, R7, PT ;"),
    (80, 0x0000000204047237, 0x000fee0000405c08, "IMMA.16832.S8.S8 R4, R4.ROW, R2.COL, R8 ;"),
    (90, 0x000000070000721f, 0x1c0fe20000700209, "PLOP3.LUT P0, PT, R0.reuse.SIGN, R7.reuse.SIGN, R9.reuse.SIGN, 0x2, 0x0 ;"),
    (90, 0x2000000007007240, 0x004fca0007800800, "HMNMX2 R0, R7.H0_H0, R0.H0_H0, !PT ;"),
    (90, 0x0000000204187237, 0x000fec0000405c08, "IMMA.16832.S8.S8 R24, R4.ROW, R2.COL, R8 ;"),
    (90, 0x3000000000007233, 0x004fca000380c800, "HSET2.GTU.AND R0, R0.H0_H0, R0.H1_H1, PT ;"),
    (120, 0x2000000005007240, 0x004fc40007800800, "HMNMX2 R0, R5.H0_H0, R0.H0_H0, !PT ;"),
    (120, 0x0000000204047237, 0x000ff00000405c10, "IMMA.16832.S8.S8 R4, R4.ROW, R2.COL, R16 ;"),
    (120, 0x0000000700077233, 0x004fca0003804080, "HSET2.BF.GT.AND R7, R0, R7, PT ;"),
];

#[test]
fn zluda_words_decode_print_encode_and_assemble_as_nvdisasm_does() {
    let mut failures = Vec::new();
    for &(sm, lo, hi, text) in WORDS {
        let (sm, word) = (Sm::new(sm), join(lo, hi));
        let inst = match Inst::decode(word, sm) {
            Ok(inst) => inst,
            Err(e) => {
                failures.push(format!("{sm} `{text}`: does not decode ({e:?})"));
                continue;
            }
        };
        let ours = inst.text(sm, 0);
        if ours != text {
            failures.push(format!("{sm} `{text}`: prints `{ours}`"));
        }
        if inst.encode(sm).ok() != Some(word) {
            failures.push(format!("{sm} `{text}`: does not encode back"));
        }
        match parse_inst(text, sm, 0, inst.ctrl).map(|i| i.encode(sm)) {
            Ok(Ok(w)) if w == word => {}
            other => failures.push(format!("{sm} `{text}`: assembles as {other:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
