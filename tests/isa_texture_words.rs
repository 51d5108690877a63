//! Words ptxas 13.5 emits for the texture fetches of ZLUDA's `tex_read_*`
//! kernels (`../shared/corpus/zluda/ptx`: 1D/2D/3D, f32 and s32
//! coordinates, `.texref` and bindless texture objects) on every family
//! (sm_75, 80, 86, 89, 90, 100, 120), with the text nvdisasm 13.5 prints
//! for them: each decodes to that text, encodes back to the same 128 bits,
//! and the text assembles to the same word; the operand widths are those
//! ptxas's register assignment shows. Runs without the reference tools.


mod common;


/// (SM, low 64 bits, high 64 bits, nvdisasm's text).
const WORDS: &[common::measured_words::Word] = &[
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
    let failures = common::measured_words::disagreements(WORDS);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
