//! The `sass dis` command on raw words and on a cubin from the reference
//! ptxas: every line it decodes agrees with nvdisasm's text for that word.

mod common;

use std::process::Command;

fn sass(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sass")).args(args).output().expect("run sass");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn lists_raw_words() {
    // sm_80 EXIT and `IADD3 R4, R4, R0, R5` (FACTS.md), little-endian, low word first.
    let words: [(u64, u64); 2] = [(0x000000000000794d, 0x000fea0003800000), (0x0000000004047210, 0x004fc80007ffe005)];
    let bytes: Vec<u8> = words.iter().flat_map(|(lo, hi)| lo.to_le_bytes().into_iter().chain(hi.to_le_bytes())).collect();
    let path = std::env::temp_dir().join(format!("ptx2sass-sass-cli-{}.bin", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let (ok, out, err) = sass(&["dis", "-b", "sm_80", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "        /*0000*/ [B------:R-:W-:Y:S05] EXIT ;\n        /*0010*/ [B--2---:R-:W-:-:S04] IADD3 R4, R4, R0, R5 ;\n"
    );
    let (ok, _, err) = sass(&["dis", "-b", "sm_61", path.to_str().unwrap()]);
    assert!(!ok && err.contains("no encoding tables"), "{err}");
    std::fs::write(&path, [0u8; 17]).unwrap();
    let (ok, _, err) = sass(&["dis", "-b", "sm_80", path.to_str().unwrap()]);
    assert!(!ok && err.contains("multiple of 16"), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn lists_a_ptxas_cubin_as_nvdisasm_reads_it() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "lists_a_ptxas_cubin_as_nvdisasm_reads_it") else { return };
    let Some(nvdisasm) = ptx2sass::internals::reference::require("nvdisasm", "lists_a_ptxas_cubin_as_nvdisasm_reads_it") else { return };
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/saxpy.ptx");
    let cubin = std::env::temp_dir().join(format!("ptx2sass-sass-cli-{}.cubin", std::process::id()));
    for sm in ["sm_80", "sm_90", "sm_120"] {
        let status = Command::new(&ptxas).arg(format!("-arch={sm}")).arg(example).arg("-o").arg(&cubin).status().unwrap();
        assert!(status.success());
        let (ok, ours, err) = sass(&["dis", cubin.to_str().unwrap()]);
        assert!(ok, "{err}");
        assert!(ours.starts_with(&format!("// {}: {sm}", cubin.display())), "{ours}");
        // nvdisasm's text per address, function by function (`-raw` prints plain addresses
        // and unaligned guards... keep its default layout and strip it).
        let theirs = Command::new(&nvdisasm).arg("-c").arg(&cubin).output().unwrap();
        let theirs = String::from_utf8_lossy(&theirs.stdout);
        let instructions = |text: &str| -> Vec<String> {
            text.lines()
                .filter_map(|l| {
                    let rest = l.trim_start().strip_prefix("/*")?;
                    let (_, rest) = rest.split_once("*/")?;
                    let rest = rest.trim();
                    // Drop our control prefix.
                    let rest = if rest.starts_with('[') { rest.split_once("] ")?.1 } else { rest };
                    Some(rest.trim_end_matches(|c| c == ' ' || c == '/').trim().to_string())
                })
                .collect()
        };
        let ours = instructions(&ours);
        let theirs = instructions(&theirs);
        assert_eq!(ours.len(), theirs.len(), "{sm}: same number of instructions");
        let mut decoded = 0;
        for (o, t) in ours.iter().zip(&theirs) {
            if o.starts_with(".raw") {
                continue;
            }
            decoded += 1;
            // nvdisasm prints branch targets of a cubin as labels.
            if t.contains("`(") {
                continue;
            }
            assert_eq!(o, t, "{sm}");
        }
        assert!(decoded * 2 > ours.len(), "{sm}: only {decoded} of {} instructions decoded", ours.len());
    }
    let _ = std::fs::remove_file(&cubin);
}

#[test]
fn assembles_its_own_listings_back_to_ptxas_words() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "assembles_its_own_listings_back_to_ptxas_words") else { return };
    // (PTX, target): the example for each target, and every nvcc-made corpus
    // kernel for the target it was made for (the sm_90 PTX also for sm_100).
    let example = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/saxpy.ptx"));
    let mut inputs: Vec<(std::path::PathBuf, &str)> =
        ["sm_80", "sm_90", "sm_100", "sm_120"].iter().map(|sm| (example.clone(), *sm)).collect();
    if let Some(corpus) = common::corpus_dir("assembles_its_own_listings_back_to_ptxas_words") {
        for file in common::ptx_files(&corpus.join("kernels")) {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            for (suffix, sm) in [(".sm_80.ptx", "sm_80"), (".sm_90.ptx", "sm_90"), (".sm_90.ptx", "sm_100"), (".sm_120.ptx", "sm_120")] {
                if name.ends_with(suffix) {
                    inputs.push((file.clone(), sm));
                }
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("ptx2sass-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cubin, listing, bin) = (dir.join("k.cubin"), dir.join("k.sass"), dir.join("k.bin"));
    let mut checked = 0;
    for (input, sm) in &inputs {
        {
            let ok = Command::new(&ptxas).arg(format!("-arch={sm}")).arg(input).arg("-o").arg(&cubin).output().unwrap().status.success();
            if !ok {
                continue;
            }
            let (ok, text, err) = sass(&["dis", "--hex", cubin.to_str().unwrap()]);
            assert!(ok, "{err}");
            std::fs::write(&listing, &text).unwrap();
            let (ok, _, err) = sass(&["asm", &format!("-arch={sm}"), listing.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
            assert!(ok, "{}: {err}", input.display());
            let code = ptx2sass::internals::cubin::read_code(&std::fs::read(&cubin).unwrap()).unwrap();
            let expected: Vec<u8> =
                code.functions.iter().flat_map(|f| ptx2sass::internals::isa::bits::words_to_bytes(&f.words)).collect();
            assert_eq!(std::fs::read(&bin).unwrap(), expected, "{} for {sm}: listing does not assemble to ptxas's words", input.display());
            checked += 1;
        }
    }
    assert!(checked * 10 >= inputs.len() * 9, "only {checked} of {} round trips ran", inputs.len());
    eprintln!("{checked} listings assembled back to ptxas's words");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lists_and_assembles_the_asynchronous_path_as_ptxas_wrote_it() {
    // ptxas 13.5 words of the library corpus (thrust_transform, cub_device_scan)
    // and nvdisasm 13.5's text for each.
    let cases: [(&str, &[(u64, u64, &str)]); 3] = [
        (
            "sm_90",
            &[
                (0x00000000000073c6, 0x000e360000000000, "FENCE.VIEW.ASYNC.S"),
                (0x00000004083f75b2, 0x0010620008000100, "SYNCS.EXCH.64 URZ, [UR8], UR4"),
                (0x000000040b3f05b2, 0x0010620008000100, "@UP0 SYNCS.EXCH.64 URZ, [UR11], UR4"),
                (0x00000008040073ba, 0x0011d8000800020f, "UBLKCP.S.G [UR8], [UR4], UR15"),
                (0x0000000bffff79a7, 0x0021e20008000009, "SYNCS.ARRIVE.TRANS64 RZ, [UR9], R11"),
                (0x00000000090075a7, 0x000e24000800017f, "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R9+URZ], R0"),
                (0x0000000c0a047297, 0x000fe4000fffe004, "UIADD3.64 UR4, UR10, UR12, UR4"),
                (0x000000000600798f, 0x0001e40000800100, "CCTL.E.PF2 [R6]"),
            ],
        ),
        (
            "sm_100",
            &[
                (0x0000000415ff75b2, 0x0010620008000100, "SYNCS.EXCH.64 URZ, [UR21], UR4"),
                (0x00000014080073ba, 0x0021e2000800020a, "UBLKCP.S.G [UR20], [UR8], UR10"),
                (0x0000000affff19a7, 0x0043e40008000019, "@P1 SYNCS.ARRIVE.TRANS64 RZ, [UR25], R10"),
                (0x00000002ff0075a7, 0x000e620008001117, "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR23], R2"),
                (0x000000ff10ff79a7, 0x0105e200081000ff, "SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R16+URZ], RZ"),
                (0x00000006220073ba, 0x0023e20008000418, "UBLKCP.G.S [UR6], [UR34], UR24"),
                (0x00000006180073ba, 0x0007e20008100422, "UBLKCP.G.S.DST_G_BYTE_MASK [UR6], [UR24], UR34"),
            ],
        ),
        (
            "sm_120",
            &[
                (0x0000000417ff75b2, 0x0010620008000100, "SYNCS.EXCH.64 URZ, [UR23], UR4"),
                (0x00000016080073ba, 0x0021e2000800020b, "UBLKCP.S.G [UR22], [UR8], UR11"),
                (0x00000000030075a7, 0x000e2400080011ff, "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R3+URZ], R0"),
                (0x00000000ffff79a7, 0x0001e20008000017, "SYNCS.ARRIVE.TRANS64 RZ, [UR23], R0"),
            ],
        ),
    ];
    let dir = std::env::temp_dir();
    for (sm, words) in cases {
        let bytes: Vec<u8> = words.iter().flat_map(|(lo, hi, _)| lo.to_le_bytes().into_iter().chain(hi.to_le_bytes())).collect();
        let bin = dir.join(format!("ptx2sass-sass-cli-async-{}-{sm}.bin", std::process::id()));
        std::fs::write(&bin, &bytes).unwrap();
        let (ok, out, err) = sass(&["dis", "-b", sm, bin.to_str().unwrap()]);
        assert!(ok, "{sm}: {err}");
        let texts: Vec<&str> = out.lines().map(|l| l.split_once("] ").map_or(l, |(_, t)| t).trim_end_matches(" ;")).collect();
        let want: Vec<&str> = words.iter().map(|w| w.2).collect();
        assert_eq!(texts, want, "{sm}");
        // The listing assembles back to the same words.
        let listing = dir.join(format!("ptx2sass-sass-cli-async-{}-{sm}.sass", std::process::id()));
        let again = dir.join(format!("ptx2sass-sass-cli-async-{}-{sm}.again.bin", std::process::id()));
        std::fs::write(&listing, &out).unwrap();
        let (ok, _, err) = sass(&["asm", &format!("-arch={sm}"), listing.to_str().unwrap(), "-o", again.to_str().unwrap()]);
        assert!(ok, "{sm}: {err}");
        assert_eq!(std::fs::read(&again).unwrap(), bytes, "{sm}: the words assembled back");
        for p in [&bin, &listing, &again] {
            let _ = std::fs::remove_file(p);
        }
    }
}
