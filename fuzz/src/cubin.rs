//! Properties of the cubin reader and writer on arbitrary bytes: reading
//! never panics, and what was read writes back to a file that reads again
//! with the same sections, symbols and string tables (the writer's layout
//! may differ from a file that is not ptxas-shaped, the content may not).

use ptx2sass::internals::cubin::elf;

/// Largest section data the property writes back (keeps memory bounded for
/// inputs whose `NOBITS`-only offsets are huge; such files are read fine).
const WRITE_LIMIT: u64 = 1 << 24;

/// Checks the properties on one input.
pub fn check_cubin_properties(data: &[u8]) {
    let Ok(read) = elf::read(data) else { return };
    let first = read.elf;
    let placed_end: u64 = first
        .sections
        .iter()
        .map(|s| match s.placement {
            elf::Placement::At(at) => at.saturating_add(s.size(&first)),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    if placed_end > WRITE_LIMIT {
        return;
    }
    let written = elf::write(&first);
    let again = elf::read(&written).unwrap_or_else(|e| panic!("a written cubin does not read back: {e}"));
    let content = |e: &elf::Elf| -> Vec<(String, u32, u64, Vec<u8>)> { e.sections.iter().map(|s| (s.name.clone(), s.kind, s.flags, s.bytes(e))).collect() };
    assert_eq!(content(&first), content(&again.elf), "sections change on a write/read round trip");
    assert_eq!(first.symbols, again.elf.symbols, "symbols change on a write/read round trip");
}

/// Properties of cubin listings (`sass asm -o X.cubin`) on arbitrary text:
/// reading either form never panics; a module listing that reads builds a
/// cubin (or says why not) that reads back without layout anomalies; a
/// section listing that reads writes a file, and a file that reads back
/// lists again (`sass dis`) without panicking.
pub fn check_listing_properties(data: &[u8]) {
    use ptx2sass::internals::cubin::{listing, module, section_listing};
    use ptx2sass::internals::target::Sm;
    let Some((&selector, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let sm = Sm::new([75, 80, 90, 100, 120][usize::from(selector) % 5]);
    if section_listing::is_section_listing(text) {
        let Ok(file) = listing::read(text, sm) else { return };
        let bytes = elf::write(&file);
        if let Ok(again) = elf::read(&bytes) {
            let mut out = String::new();
            listing::write_cubin(&mut out, &again.elf, &bytes, sm, false);
        }
        return;
    }
    let Ok(m) = listing::read_module(text, sm) else { return };
    let Ok(built) = module::build(&m) else { return };
    let bytes = elf::write(&built);
    let again = elf::read(&bytes).unwrap_or_else(|e| panic!("a built cubin does not read: {e}"));
    assert!(again.anomalies.is_empty(), "a built cubin breaks the layout rules: {:?}", again.anomalies);
}
