//! Saturated integer conversions from 64-bit integers (`cvt.sat.s8.s64`,
//! `cvt.sat.u32.s64`, `cvt.sat.s64.u64`, ... and `cvt.sat.u64.s32`) and
//! to u32 from signed 8- and 16-bit integers (`cvt.sat.u32.s16`): the
//! value clamped to the destination's range. ptx2sass's code for every
//! such pair PTX allows (ptxas refuses `.sat` where nothing can be out of
//! range) runs in the SASS interpreter on boundary values on sm_75, sm_90
//! and sm_120; the expected values are computed here with Rust's integer
//! arithmetic. (ptxas's own code for them uses I2I, which the decoder
//! does not know yet, so it is not the reference here.)

use ptx2sass::internals::interp::launch::LaunchSpec;
use ptx2sass::internals::interp::sass;
use ptx2sass::{Options, Target, compile};

/// (destination, source, byte offset of the result in a thread's record).
const CONVERSIONS: &[(&str, &str, usize)] = &[
    ("s8", "s64", 0), ("u8", "s64", 8), ("s16", "s64", 16), ("u16", "s64", 24), ("s32", "s64", 32), ("u32", "s64", 40), ("u64", "s64", 48),
    ("s8", "u64", 56), ("u8", "u64", 64), ("s16", "u64", 72), ("u16", "u64", 80), ("s32", "u64", 88), ("u32", "u64", 96), ("s64", "u64", 104),
    ("u64", "s8", 112), ("u64", "s16", 128), ("u64", "s32", 144),
    // Widening to u32 from a signed 8- or 16-bit source: negative values
    // become 0 (the fuzz-generated programs' `cvt.sat.u32.s16`).
    ("u32", "s8", 160), ("u32", "s16", 168),
];

/// The clamped value of `v` (the thread's 64-bit input, read as the source
/// type), as the destination's bits zero-extended to 64.
fn expected(dst: &str, src: &str, v: u64) -> u64 {
    let x: i128 = match src {
        "s64" => i128::from(v as i64),
        "u64" => i128::from(v),
        "s8" => i128::from(v as u16 as i16 as i8),
        "s16" => i128::from(v as u16 as i16),
        "s32" => i128::from(v as u32 as i32),
        _ => unreachable!(),
    };
    let (lo, hi, bits): (i128, i128, u32) = match dst {
        "s8" => (-128, 127, 16),
        "u8" => (0, 255, 16),
        "s16" => (-32768, 32767, 16),
        "u16" => (0, 65535, 16),
        "s32" => (i128::from(i32::MIN), i128::from(i32::MAX), 32),
        "u32" => (0, i128::from(u32::MAX), 32),
        "s64" => (i128::from(i64::MIN), i128::from(i64::MAX), 64),
        "u64" => (0, i128::from(u64::MAX), 64),
        _ => unreachable!(),
    };
    // 8-bit results are stored from a 16-bit register, extended by type.
    let r = x.clamp(lo, hi);
    (r as u64) & if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

#[test]
fn saturated_conversions_from_64_bit_integers_clamp() {
    let ptx_text = include_str!("data/int_saturation.ptx");
    let spec_text = include_str!("data/int_saturation.json");
    let spec = LaunchSpec::from_json(spec_text).expect("launch spec");
    let vals: Vec<u64> = {
        let json: serde_json::Value = serde_json::from_str(spec_text).expect("json");
        let hex = json["params"][1]["hex"].as_str().expect("inputs").to_string();
        (0..hex.len() / 16).map(|k| u64::from_str_radix(&hex[16 * k..16 * k + 16], 16).map(u64::swap_bytes).expect("hex")).collect()
    };
    let mut bad = Vec::new();
    for sm in [75u16, 90, 120] {
        let ptx = ptx_text.replace("sm_75", &format!("sm_{sm}"));
        let cubin = compile(ptx.as_str(), &Options::new(Target::sm(sm).expect("SM"))).unwrap_or_else(|e| panic!("sm_{sm}: {e}")).cubin;
        let out = sass::run(&cubin, &spec, &sass::Options::default()).unwrap_or_else(|e| panic!("sm_{sm}: SASS interpreter: {e}"));
        let got = out.launch.buffer_bytes(0).expect("output buffer");
        for (i, &v) in vals.iter().enumerate() {
            for &(dst, src, at) in CONVERSIONS {
                let len = match dst {
                    "s8" | "u8" | "s16" | "u16" => 2,
                    "s32" | "u32" => 4,
                    _ => 8,
                };
                let mut b = [0u8; 8];
                b[..len].copy_from_slice(&got[176 * i + at..176 * i + at + len]);
                let (g, want) = (u64::from_le_bytes(b), expected(dst, src, v));
                if g != want {
                    bad.push(format!("sm_{sm} cvt.sat.{dst}.{src} of {v:#x}: {g:#x}, expected {want:#x}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} wrong results:\n{}", bad.len(), bad.join("\n"));
}
