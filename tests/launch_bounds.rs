//! Register limits from launch bounds (`tests/data/launch_bounds`): a
//! kernel with 160 values live at once under `.maxnreg`, or `.maxntid`
//! with `.minnctapersm`, must declare no more registers than the bounds
//! allow (the file's `// registers at most:` line, worked out by hand and
//! what ptxas -v reports), or it could not be launched with them; and its
//! spilling code must give ptxas's outputs ([`common::ptxas_match`]).

mod common;

fn declared_registers(cubin: &[u8]) -> Result<u32, String> {
    let listing = ptx2sass::disassemble(cubin).map_err(|e| e.to_string())?;
    listing.lines().find_map(|l| l.strip_prefix(".registers ")).and_then(|n| n.trim().parse().ok()).ok_or_else(|| "no .registers line".to_string())
}

fn within_the_bound(text: &str, cubin: &[u8]) -> Result<(), String> {
    let bound: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("// registers at most: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or("no `// registers at most:` line")?;
    let declared = declared_registers(cubin)?;
    if declared > bound {
        return Err(format!("{declared} registers declared, the bounds allow {bound}"));
    }
    Ok(())
}

#[test]
fn launch_bounds_limit_registers_as_ptxas() {
    common::ptxas_match::all_kernels_match("launch_bounds", 12, within_the_bound);
}
