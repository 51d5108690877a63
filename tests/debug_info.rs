//! `-g` cubins of nvcc `-G` PTX against the facts of ptxas's
//! (tests/data/debug_info/scale.expected, read from ptxas 13.5's cubins
//! of the same PTX): the debug sections in ptxas's order (the register
//! maps included), `.debug_abbrev` byte for byte, and
//! `.debug_info` byte for byte outside the relocated code addresses (our
//! code is not ptxas's), at the same offsets. Kernel parameters' bank 0
//! addresses (`DW_OP_addr`) are in the compared bytes.

use ptx2sass::internals::cubin::elf::{self, Content};
use ptx2sass::{Options, compile};

const PTX: &str = include_str!("data/debug_info/scale.sm_75.ptx");
const EXPECTED: &str = include_str!("data/debug_info/scale.expected");

/// The facts of one SM: (key, value) lines of its block.
fn facts(sm: &str) -> Vec<(&'static str, &'static str)> {
    let header = format!("[{sm}]");
    EXPECTED.lines().skip_while(|l| *l != header).skip(1).take_while(|l| !l.starts_with('[')).filter_map(|l| l.split_once(' ')).collect()
}

fn fact(facts: &[(&'static str, &'static str)], key: &str) -> &'static str {
    facts.iter().find(|(k, _)| *k == key).map(|(_, v)| *v).unwrap_or_else(|| panic!("no fact {key}"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn g_cubins_carry_ptxas_debug_sections() {
    for sm in ["sm_75", "sm_80", "sm_90", "sm_120"] {
        let facts = facts(sm);
        let arch = format!("-arch={sm}");
        let out = compile(PTX, &Options::from_ptxas_args(&[arch.as_str(), "-g"]).unwrap()).unwrap_or_else(|e| panic!("{sm}: {e:?}"));
        let read = elf::read(&out.cubin).unwrap_or_else(|e| panic!("{sm}: {e:?}"));
        let sections = &read.elf.sections;
        let is_debug = |n: &str| {
            let n = n.strip_prefix(".rela").or_else(|| n.strip_prefix(".rel")).unwrap_or(n);
            n.starts_with(".debug_") || n.starts_with(".nv_debug_")
        };
        let ours: Vec<&str> = sections.iter().map(|s| s.name.as_str()).filter(|n| is_debug(n)).collect();
        let theirs: Vec<&str> = fact(&facts, "sections").split(' ').collect();
        assert_eq!(ours, theirs, "{sm}: debug sections");
        let bytes = |name: &str| match &sections.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{sm}: no {name}")).content {
            Content::Bytes(b) => b.clone(),
            other => panic!("{sm}: {name} holds {other:?}"),
        };
        assert_eq!(hex(&bytes(".debug_abbrev")), fact(&facts, "abbrev"), "{sm}: .debug_abbrev");
        let relocations: Vec<u64> = match &sections.iter().find(|s| s.name == ".rela.debug_info").unwrap_or_else(|| panic!("{sm}: no .rela.debug_info")).content {
            Content::Rela(entries) => {
                let mut offsets: Vec<u64> = entries.iter().map(|r| r.offset).collect();
                offsets.sort_unstable();
                offsets
            }
            other => panic!("{sm}: .rela.debug_info holds {other:?}"),
        };
        let expected_offsets: Vec<u64> = fact(&facts, "info_relocations").split(' ').map(|o| o.parse().unwrap()).collect();
        assert_eq!(relocations, expected_offsets, "{sm}: .debug_info relocation offsets");
        let mut info = hex(&bytes(".debug_info"));
        for &at in &relocations {
            let at = 2 * at as usize;
            info.replace_range(at..at + 16, "________________");
        }
        assert_eq!(info, fact(&facts, "info"), "{sm}: .debug_info outside code addresses");
    }
}

#[test]
fn without_debug_target_nothing_is_copied_but_strings() {
    // The same PTX without `, debug` on its target: ptxas writes no
    // `.debug_info` (and copies `.debug_str`, which this PTX has not).
    let ptx = PTX.replace(".target sm_75, debug", ".target sm_75");
    let out = compile(&ptx, &Options::from_ptxas_args(&["-arch=sm_80", "-lineinfo"]).unwrap()).unwrap();
    let read = elf::read(&out.cubin).unwrap();
    let names: Vec<&str> = read.elf.sections.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&".debug_line") && !names.iter().any(|n| n.contains("debug_info") || n.contains("debug_abbrev")), "{names:?}");
}

/// A `.shared` variable's `DW_OP_addr` is its address in the kernel's
/// shared window, the 0x400 bytes reserved from sm_90 on included
/// (tests/data/debug_info/shared.expected, read from ptxas 13.5's cubins).
/// The kernel declares its variables in the order ptxas lays them out
/// (largest alignment first), so its addresses are ours too.
#[test]
fn shared_variables_have_their_window_addresses() {
    const PTX: &str = include_str!("data/debug_info/shared.sm_75.ptx");
    const EXPECTED: &str = include_str!("data/debug_info/shared.expected");
    for sm in ["sm_75", "sm_80", "sm_90", "sm_120"] {
        let header = format!("[{sm}]");
        let facts: Vec<Vec<&str>> = EXPECTED.lines().skip_while(|l| *l != header).skip(1).take_while(|l| !l.starts_with('[')).map(|l| l.split(' ').collect()).collect();
        assert_eq!(facts.len(), 3, "{sm}: facts");
        let arch = format!("-arch={sm}");
        let out = compile(PTX, &Options::from_ptxas_args(&[arch.as_str(), "-g"]).unwrap()).unwrap_or_else(|e| panic!("{sm}: {e:?}"));
        let read = elf::read(&out.cubin).unwrap();
        let info = match &read.elf.sections.iter().find(|s| s.name == ".debug_info").expect("no .debug_info").content {
            Content::Bytes(b) => b.clone(),
            other => panic!("{sm}: .debug_info holds {other:?}"),
        };
        for fact in facts {
            let (name, at, value) = (fact[0], fact[1].parse::<usize>().unwrap(), u64::from_str_radix(fact[2], 16).unwrap());
            assert_eq!(info[at - 1], 0x03, "{sm}: {name}: DW_OP_addr");
            let ours = u64::from_le_bytes(info[at..at + 8].try_into().unwrap());
            assert_eq!(ours, value, "{sm}: {name}'s address");
        }
    }
}

/// The register maps' format: ptxas's sections decode to what
/// `cuobjdump -elf` prints of them (and the words a separate script read),
/// and encode back to the same bytes (tests/data/debug_info/scale.regmaps).
#[test]
fn register_maps_read_as_cuobjdump_prints_them_and_write_back() {
    use ptx2sass::internals::cubin::register_maps::{decode, encode, type_name};
    const FACTS: &str = include_str!("data/debug_info/scale.regmaps");
    let line = |key: &str| FACTS.lines().find_map(|l| l.strip_prefix(key).and_then(|l| l.strip_prefix(' '))).unwrap_or_else(|| panic!("no {key}"));
    let unhex = |s: &str| (0..s.len()).step_by(2).map(|k| u8::from_str_radix(&s[k..k + 2], 16).unwrap()).collect::<Vec<u8>>();
    let (sass, types) = (unhex(line("sass")), unhex(line("type")));
    let maps = decode(&sass, &types).unwrap();
    let mut printed = vec![".section .nv_debug_info_reg_sass".to_string()];
    for m in &maps {
        printed.push(format!("  Function Name: {}", m.function));
        printed.push(format!("  Total entry: {:x}", m.locations.len()));
        for l in &m.locations {
            printed.push(format!("    (reg: {}) {:#x}, {:#x}, {:#x}", l.ptx_register, u32::from(l.class) << 24 | l.register, l.start, l.end));
        }
    }
    printed.push(".section .nv_debug_info_reg_type".to_string());
    for m in &maps {
        printed.push(format!("  Function Name: {}", m.function));
        printed.push(format!("  Total entry: {:x}", m.locations.len()));
        printed.extend(m.locations.iter().map(|l| format!(".{}", type_name(l.ty).unwrap())));
    }
    let expected: Vec<&str> = FACTS.lines().filter_map(|l| l.strip_prefix("cuobjdump ")).collect();
    assert_eq!(printed, expected);
    let parts: Vec<String> = maps.iter().flat_map(|m| &m.locations).map(|l| l.part.to_string()).collect();
    assert_eq!(parts.join(" "), line("parts"));
    assert_eq!(encode(&maps).unwrap(), (sass.clone(), types.clone()));
    // Cut short or disagreeing, they do not decode.
    assert!(decode(&sass[..sass.len() - 1], &types).is_err());
    assert!(decode(&sass, &types[..types.len() - 1]).is_err());
}
