//! Words ptxas 13.5 emits for the texture fetches of ZLUDA's `tex_read_*`
//! kernels (`../shared/corpus/zluda/ptx`: 1D/2D/3D, f32 and s32
//! coordinates, `.texref` and bindless texture objects) on every family
//! (sm_75, 80, 86, 89, 90, 100, 120), with the text nvdisasm 13.5 prints
//! for them: each decodes to that text, encodes back to the same 128 bits,
//! and the text assembles to the same word; the operand widths are those
//! ptxas's register assignment shows. Runs without the reference tools.

use ptx2sass::internals::isa::bits::join;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::isa::parse::parse_inst;
use ptx2sass::internals::target::Sm;

/// (SM, low 64 bits, high 64 bits, nvdisasm's text).
const WORDS: &[(u16, u64, u64, &str)] = &[
    (75, 0x30005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 2D ;"),
    (75, 0x50005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (75, 0x30005b0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5b, 2D ;"),
    (75, 0x30005c0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5c, 2D ;"),
    (75, 0x50005d0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (75, 0x10005aff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5a, 1D ;"),
    (75, 0x10005bff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5b, 1D ;"),
    (75, 0x30005a0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5a, 2D ;"),
    (75, 0x30005c0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5c, 2D ;"),
    (75, 0x50005a0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (75, 0x50005d0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (80, 0x30005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 2D ;"),
    (80, 0x50005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (80, 0x30005b0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5b, 2D ;"),
    (80, 0x30005c0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5c, 2D ;"),
    (80, 0x50005d0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (80, 0x10005aff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5a, 1D ;"),
    (80, 0x10005bff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5b, 1D ;"),
    (80, 0x30005a0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5a, 2D ;"),
    (80, 0x30005c0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5c, 2D ;"),
    (80, 0x50005a0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (80, 0x50005d0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (86, 0x30005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 2D ;"),
    (86, 0x50005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (86, 0x30005b0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5b, 2D ;"),
    (86, 0x30005c0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5c, 2D ;"),
    (86, 0x50005d0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (86, 0x10005aff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5a, 1D ;"),
    (86, 0x10005bff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5b, 1D ;"),
    (86, 0x30005a0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5a, 2D ;"),
    (86, 0x30005c0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5c, 2D ;"),
    (86, 0x50005a0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (86, 0x50005d0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (89, 0x30005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 2D ;"),
    (89, 0x50005a0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (89, 0x30005b0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5b, 2D ;"),
    (89, 0x30005c0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5c, 2D ;"),
    (89, 0x50005d0604047b60, 0x000f4200019e0f06, "TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (89, 0x10005aff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5a, 1D ;"),
    (89, 0x10005bff04047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, 0x0, 0x5b, 1D ;"),
    (89, 0x30005a0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5a, 2D ;"),
    (89, 0x30005c0504047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x5c, 2D ;"),
    (89, 0x50005a0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5a, 3D ;"),
    (89, 0x50005d0604047b66, 0x000f4200009e0f06, "TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x5d, 3D ;"),
    (90, 0x2000040604047f60, 0x001f6200099e0f06, "TEX.LL R6, R4, R4, R6, UR4, 0x0, 2D ;"),
    (90, 0x2000040604047f60, 0x001f6a00099e0f06, "TEX.LL R6, R4, R4, R6, UR4, 0x0, 2D ;"),
    (90, 0x4000040704047f60, 0x001f6c00099e0f06, "TEX.LL R6, R4, R4, R7, UR4, 0x0, 3D ;"),
    (90, 0x000004ff04047f66, 0x001f6800089e0f06, "TLD.LZ R6, R4, R4, UR4, 0x0, 1D ;"),
    (90, 0x200004ff04047f66, 0x001f6c00089e0f06, "TLD.LZ R6, R4, R4, UR4, 0x0, 2D ;"),
    (90, 0x400004ff04047f66, 0x001f6c00089e0f06, "TLD.LZ R6, R4, R4, UR4, 0x0, 3D ;"),
    (100, 0x28ff040604047f60, 0x00116200089e0f06, "TEX.LL R6, R4, R4, R6, UR4, 2D ;"),
    (100, 0x28ff040604047f60, 0x00116c00089e0f06, "TEX.LL R6, R4, R4, R6, UR4, 2D ;"),
    (100, 0x48ff040704047f60, 0x00116c00089e0f06, "TEX.LL R6, R4, R4, R7, UR4, 3D ;"),
    (100, 0x00ff04ff04047f66, 0x00116800081e0f06, "TLD.LZ R6, R4, R4, UR4, 1D ;"),
    (100, 0x20ff04ff04047f66, 0x00116c00081e0f06, "TLD.LZ R6, R4, R4, UR4, 2D ;"),
    (100, 0x40ff04ff04047f66, 0x00116c00081e0f06, "TLD.LZ R6, R4, R4, UR4, 3D ;"),
    (120, 0x20ff04ff04047f60, 0x00116200081e0f06, "TEX R6, R4, R4, UR4, 2D ;"),
    (120, 0x20ff04ff04047f60, 0x00116c00081e0f06, "TEX R6, R4, R4, UR4, 2D ;"),
    (120, 0x40ff04ff04047f60, 0x00116c00081e0f06, "TEX R6, R4, R4, UR4, 3D ;"),
    (120, 0x00ff04ff04047f66, 0x00116800081e0f06, "TLD.LZ R6, R4, R4, UR4, 1D ;"),
    (120, 0x20ff04ff04047f66, 0x00116c00081e0f06, "TLD.LZ R6, R4, R4, UR4, 2D ;"),
    (120, 0x40ff04ff04047f66, 0x00116c00081e0f06, "TLD.LZ R6, R4, R4, UR4, 3D ;"),
];

#[test]
fn texture_words_decode_print_encode_and_assemble_as_nvdisasm_does() {
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

/// Both result pairs are written, and the coordinate registers read as
/// wide as ptxas fills them: before sm_90 TLD 2D reads x from a and y from
/// b (one register each), TEX 3D x, y from a and z, the level of detail
/// from b (pairs); from sm_90 a holds every coordinate (three in a quad)
/// and b TEX's level of detail.
#[test]
fn texture_forms_write_two_pairs_and_read_the_coordinates_ptxas_fills() {
    // (SM, low, high, result width, width of a, width of b).
    let cases: &[(u16, u64, u64, u8, u8, u8)] = &[
        (80, 0x30005c0504047b66, 0x000f4200009e0f06, 2, 1, 1),
        (80, 0x50005d0604047b60, 0x000f4200019e0f06, 2, 2, 2),
        (80, 0x10005bff04047b66, 0x000f4200009e0f06, 2, 1, 1),
        (90, 0x4000040704047f60, 0x001f6c00099e0f06, 2, 4, 1),
        (90, 0x200004ff04047f66, 0x001f6c00089e0f06, 2, 2, 1),
        (120, 0x40ff04ff04047f60, 0x00116c00081e0f06, 2, 4, 1),
    ];
    for &(sm, lo, hi, d, a, b) in cases {
        let inst = Inst::decode(join(lo, hi), Sm::new(sm)).unwrap_or_else(|e| panic!("sm_{sm} {lo:#x}: {e:?}"));
        assert!(inst.form.writes(0) && inst.form.writes(1), "sm_{sm} {}: both result pairs written", inst.form.name);
        assert!(!inst.form.writes(2), "sm_{sm} {}: a is read", inst.form.name);
        let w = inst.form.widths.get(&[]);
        assert_eq!((w[0], w[1], w[2]), (d, a, b), "sm_{sm} {}", inst.text(Sm::new(sm), 0));
    }
}
