//! Where a kernel's `.shared` variables lie (`tests/data/shared_layout`):
//! each kernel stores the addresses of its shared variables. ptxas's cubin
//! and ours must store the same words in the SASS interpreter on every SM
//! ([`common::ptxas_match`]); and ours must hold the offsets, and the
//! `.nv.shared.k` section's size and alignment, its `// offsets:` and
//! `// section:` lines state, which were read from ptxas 13.5's sm_80 cubins (from sm_90 on
//! both lie after the 0x400 bytes ptxas reserves).

mod common;

use ptx2sass::internals::cubin::elf::{self, Content};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::sass::HazardCheck;

fn hex(s: &str) -> Result<u64, String> {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).map_err(|e| format!("{s}: {e}"))
}

fn stated(text: &str, key: &str) -> Result<Vec<u64>, String> {
    let line = text.lines().find_map(|l| l.strip_prefix(key)).ok_or_else(|| format!("no `{key}` line"))?;
    line.split_whitespace().map(hex).collect()
}

fn as_measured(text: &str, cubin: &[u8]) -> Result<(), String> {
    let name = text.lines().find_map(|l| l.strip_prefix("// name: ")).ok_or("no name line")?.trim();
    let read = elf::read(cubin).map_err(|e| format!("{e:?}"))?;
    let sm = read.elf.sections.iter().any(|s| s.name == ".nv.shared.reserved.0");
    let base = if sm { 0x400 } else { 0 };
    let section = read.elf.sections.iter().find(|s| s.name == ".nv.shared.k").ok_or("no .nv.shared.k")?;
    let size = match section.content {
        Content::NoBits(n) => n,
        Content::Bytes(ref b) => b.len() as u64,
        _ => return Err("odd .nv.shared.k".into()),
    };
    let (want, align) = match stated(text, "// section: ")?[..] {
        [size, align] => (size, align),
        _ => return Err("the section line is `size alignment`".into()),
    };
    if size != base + want || section.align != align {
        return Err(format!("{name}: section of {size:#x} bytes aligned to {}, ptxas's {:#x} aligned to {align}", section.align, base + want));
    }
    let path = format!("{}/tests/data/shared_layout/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let spec_text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let spec = LaunchSpec::from_json(&spec_text).map_err(|e| format!("{e:?}"))?;
    let out = common::ptxas_match::outputs(cubin, &spec, &spec_text, HazardCheck::Fail)?;
    for (k, want) in stated(text, "// offsets: ")?.into_iter().enumerate() {
        let word = out.get(4 * k..4 * k + 4).ok_or("short output")?;
        // From sm_90 on the address carries the block's cluster rank in
        // its top byte (0 here).
        let got = u64::from(u32::from_le_bytes([word[0], word[1], word[2], word[3]]) & 0x00ff_ffff);
        if got != base + want {
            return Err(format!("{name}: variable {k} at {got:#x}, ptxas's {:#x}", base + want));
        }
    }
    Ok(())
}

#[test]
fn shared_variables_lie_where_ptxas_puts_them() {
    common::ptxas_match::all_kernels_match("shared_layout", 16, as_measured);
}
