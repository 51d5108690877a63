//! Generic addresses and their state spaces (`tests/data/address_spaces`):
//! `isspacep` of each space on a generic address of each, with the
//! addresses made by `cvta.shared/.local/.const/.param`. ptxas's cubin and
//! ours must give the same outputs in the SASS interpreter on every SM
//! ([`common::ptxas_match`]), and ours the answers the addresses' origins
//! fix.

mod common;

use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::HazardCheck;

/// The space bits of `spaces.ptx` (1 global, 2 shared, 4 local, 8 const,
/// 16 param) that thread `t`'s address must have: by `t % 6`, a global
/// buffer, a shared variable, a local array, a `.const` variable, a kernel
/// parameter, and an address past the end of the constant bank (a global
/// address to `isspacep`, as ptxas tests the constant window). The
/// parameter's global bit is left out of the check: whether QSPC calls the
/// parameter window global is not measured (the interpreter says it is).
fn expected_bits(t: usize) -> (u32, u32) {
    match t % 6 {
        0 => (1, !0),
        1 => (2, !0),
        2 => (4, !0),
        3 => (8, !0),
        4 => (16, !1),
        _ => (1, !0),
    }
}

fn answers_as_the_addresses_say(text: &str, cubin: &[u8]) -> Result<(), String> {
    if !text.contains("// name: spaces") {
        return Ok(());
    }
    let spec_text = include_str!("data/address_spaces/spaces.json");
    let spec = LaunchSpec::from_json(spec_text).map_err(|e| format!("{e:?}"))?;
    let out = common::ptxas_match::outputs(cubin, &spec, spec_text, HazardCheck::Fail)?;
    for (t, word) in out[..256].chunks_exact(4).enumerate() {
        let got = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let (want, mask) = expected_bits(t);
        if got & mask != want {
            return Err(format!("thread {t}: space bits {got:#x}, want {want:#x}"));
        }
    }
    Ok(())
}

#[test]
fn generic_address_spaces_match_ptxas() {
    common::ptxas_match::all_kernels_match("address_spaces", 7, answers_as_the_addresses_say);
}
