//! Warp operations whose member mask differs between the lanes running
//! together: each lane names its own 4-, 8- or 16-lane tile, as CUB's
//! logical warps (`redux.sync.add.s32 d, a, 0xf << (lane & ~3)`) and
//! cooperative groups' tiles do, the whole warp converged. The kernels of
//! `tests/data/warp_member_masks` write 32 words per thread:
//!
//! * `results_are_per_tile`: our cubin in the SASS interpreter (hazards
//!   checked) and the kernel in the PTX interpreter give, word for word,
//!   what the PTX ISA's definitions give for each lane's tile, worked out
//!   below from the input words (`redux` over the tile, `match.any` the
//!   tile's lanes of equal key, `match.all` the whole tile or nothing,
//!   `vote.all/any/uni` over the tile, the ballot of every converged
//!   thread, as ptxas gives it);
//! * `reductions_match_ptxas`: the `redux.sync` and 32-bit `match.any`
//!   words equal those of ptxas's cubin in the SASS interpreter, which
//!   runs ptxas's `WARPSYNC.EXCLUSIVE` sequence. (ptxas's `match.all`,
//!   64-bit `match.any` and `vote` on such masks go through `R2UR P` and
//!   `BRA.DIV`/`BRA.CONV`, whose semantics for non-uniform masks the
//!   interpreter only guesses: not compared.)
//!
//! Before the member masks were honoured every lane reduced, matched and
//! voted over the whole warp.

mod common;

use ptx2sass::internals::driver::{self, CodegenOptions, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::interp::launch::splitmix64_bytes;
use ptx2sass::internals::interp::ptx as iptx;
use ptx2sass::internals::interp::sass::HazardCheck;
use ptx2sass::internals::target::Sm;
use std::path::{Path, PathBuf};

const DATA: &str = "warp_member_masks";
/// Words each thread writes.
const WORDS: usize = 32;
/// Threads of the launch (two warps).
const THREADS: usize = 64;

fn kernel(name: &str) -> (PathBuf, String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(DATA);
    let ptx = dir.join(format!("{name}.ptx"));
    let source = std::fs::read_to_string(&ptx).expect("kernel");
    let spec = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("launch spec");
    (ptx, source, spec)
}

/// The input words of a launch spec (its first buffer, random).
fn inputs(spec_text: &str) -> Vec<u32> {
    let seed = spec_text.split("\"seed\":").nth(1).and_then(|s| s.split([',', '}']).next()).and_then(|s| s.trim().parse::<u64>().ok()).expect("seed");
    splitmix64_bytes(seed, 4 * THREADS).chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The words the PTX ISA gives each thread (see the module documentation;
/// the slots in the kernels' order, without the reductions for
/// `tile_votes`).
fn expected(words: &[u32], with_reductions: bool) -> Vec<u32> {
    let mut out = vec![0u32; THREADS * WORDS];
    for t in 0..THREADS {
        let (warp, lane) = (t / 32 * 32, t % 32);
        let tile = |w: usize| (lane / w * w..lane / w * w + w).map(|l| (l, words[warp + l])).collect::<Vec<_>>();
        let mask = |w: usize| (((1u64 << w) - 1) << (lane / w * w)) as u32;
        let mut slots = Vec::new();
        if with_reductions {
            let values = |w: usize| tile(w).into_iter().map(|(_, v)| v);
            slots.push(values(4).fold(0u32, u32::wrapping_add));
            slots.push(values(8).min().unwrap_or(0));
            slots.push(values(16).map(|v| v as i32).max().unwrap_or(0) as u32);
            slots.push(values(8).fold(u32::MAX, |a, v| a & v));
            slots.push(values(4).fold(0, |a, v| a | v));
            slots.push(values(16).fold(0, |a, v| a ^ v));
            slots.push(values(4).map(|v| v as i32).min().unwrap_or(0) as u32);
            slots.push(values(8).max().unwrap_or(0));
        }
        let mine = words[t] & 3;
        let same = |w: usize| tile(w).into_iter().filter(|&(_, v)| v & 3 == mine).fold(0u32, |m, (l, _)| m | 1 << l);
        slots.push(same(8));
        slots.push(same(16));
        // match.all of lane >> 2: equal over a 4-lane tile, not an 8-lane one.
        slots.extend([mask(4), 1, 0, 0]);
        let bit = |l: usize| words[warp + l] & 1 != 0;
        let tile4 = (lane / 4 * 4..lane / 4 * 4 + 4).map(bit).collect::<Vec<_>>();
        let tile8 = (lane / 8 * 8..lane / 8 * 8 + 8).map(bit).collect::<Vec<_>>();
        slots.push(u32::from(tile4.iter().all(|&b| b)));
        slots.push(u32::from(tile4.iter().any(|&b| b)));
        slots.push(u32::from(tile8.iter().all(|&b| b) || !tile8.iter().any(|&b| b)));
        // lane & 8: the same over an 8-lane tile, not over a 16-lane one.
        slots.push(1);
        slots.push(0);
        slots.push(u32::from(lane & 8 != 0));
        slots.push((0..32).filter(|&l| bit(l)).fold(0u32, |m, l| m | 1 << l));
        out[t * WORDS..t * WORDS + slots.len()].copy_from_slice(&slots);
    }
    out
}

fn as_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Our cubin of `source` for `sm`.
fn our_cubin(source: &str, sm: u16) -> Vec<u8> {
    let module = ptx2sass::internals::ptx::parse_and_check(source, &Default::default()).expect("valid PTX");
    driver::compile_to_cubin(&module, Sm::new(sm), Some(source), Options { verify: true, ..Default::default() }, CodegenOptions::default()).expect("compiles").cubin
}

/// The first slot and thread where `got` differs from `want`.
fn first_difference(got: &[u32], want: &[u32]) -> Option<String> {
    let k = got.iter().zip(want).position(|(a, b)| a != b)?;
    Some(format!("thread {} slot {}: {:#x}, want {:#x}", k / WORDS, k % WORDS, got[k], want[k]))
}

#[test]
fn results_are_per_tile() {
    for (name, with_reductions) in [("tile_reductions", true), ("tile_votes", false)] {
        let (_, source, spec_text) = kernel(name);
        let spec = LaunchSpec::from_json(&spec_text).expect("launch spec");
        let want = expected(&inputs(&spec_text), with_reductions);
        let module = ptx2sass::internals::ptx::parse(&source).expect("parses");
        let ptx = iptx::run(&module, &spec, &iptx::Options::default()).expect("runs in the PTX interpreter");
        let ptx = as_words(&common::ptxas_match::output_bytes(&ptx.launch, &spec_text).expect("outputs"));
        assert_eq!(first_difference(&ptx, &want), None, "{name}: PTX interpreter");
        for sm in common::ptxas_match::sms_of(&source) {
            let cubin = our_cubin(&source, sm);
            let got = as_words(&common::ptxas_match::outputs(&cubin, &spec, &spec_text, HazardCheck::Fail).expect("our cubin runs"));
            assert_eq!(first_difference(&got, &want), None, "{name} sm_{sm}: our cubin");
        }
    }
}

#[test]
fn reductions_match_ptxas() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", DATA) else { return };
    let (ptx, source, spec_text) = kernel("tile_reductions");
    let spec = LaunchSpec::from_json(&spec_text).expect("launch spec");
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/{DATA}-kernel-cubins"));
    std::fs::create_dir_all(&cache).expect("cache directory");
    let sms = common::ptxas_match::sms_of(&source);
    let results = common::par_map(&sms, |&sm| -> Result<(), String> {
        let theirs = common::cached_cubin(&ptxas, &cache, &ptx, sm)?;
        let theirs = as_words(&common::ptxas_match::outputs(&theirs, &spec, &spec_text, HazardCheck::Fail)?);
        let ours = as_words(&common::ptxas_match::outputs(&our_cubin(&source, sm), &spec, &spec_text, HazardCheck::Fail)?);
        // The 8 reductions and the 32-bit match.any of each thread.
        let compared = |w: &[u32]| w.chunks(WORDS).flat_map(|t| t[..9].to_vec()).collect::<Vec<_>>();
        match compared(&ours).iter().zip(compared(&theirs)).position(|(a, b)| *a != b) {
            Some(k) => Err(format!("sm_{sm}: thread {} slot {} differs", k / 9, k % 9)),
            None => Ok(()),
        }
    });
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A constant member mask names every running thread's lanes, so the
/// reduction is one `REDUX` over the converged threads, as ptxas compiles
/// it (`redux.sync.add.u32 d, a, 0xffff` in a branch lanes 0–15 take ->
/// `WARPSYNC 0xffff`, `REDUX.SUM`), not a shuffle from every lane: lanes
/// 0–15 of each warp get the sum of their thread indices (120 and 632),
/// the others 0.
#[test]
fn a_constant_mask_reduces_with_one_redux() {
    let source = ".version 8.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;
  ld.param.u64 %rd0, [p];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  and.b32 %r2, %r0, 31;
  setp.lt.u32 %p0, %r2, 16;
  mov.u32 %r1, 0;
  @!%p0 bra $L1;
  redux.sync.add.u32 %r1, %r0, 0x0000ffff;
$L1:
  mul.wide.u32 %rd1, %r0, 4;
  add.u64 %rd1, %rd0, %rd1;
  st.global.u32 [%rd1], %r1;
  ret;
}
";
    let spec_text = r#"{"kernel": "k", "grid": [1,1,1], "block": [64,1,1], "shared_bytes": 0, "params": [{"kind": "buffer", "bytes": 256, "fill": "zero", "output": true}]}"#;
    let spec = LaunchSpec::from_json(spec_text).expect("launch spec");
    let want: Vec<u32> = (0..64u32).map(|t| if t % 32 >= 16 { 0 } else if t < 32 { 120 } else { 632 }).collect();
    let module = ptx2sass::internals::ptx::parse(source).expect("parses");
    let ptx = iptx::run(&module, &spec, &iptx::Options::default()).expect("runs in the PTX interpreter");
    assert_eq!(as_words(&common::ptxas_match::output_bytes(&ptx.launch, spec_text).expect("outputs")), want, "PTX interpreter");
    for sm in [80, 90, 100, 120] {
        let source = source.replace("sm_80", &format!("sm_{sm}"));
        let cubin = our_cubin(&source, sm);
        let got = as_words(&common::ptxas_match::outputs(&cubin, &spec, spec_text, HazardCheck::Fail).expect("our cubin runs"));
        assert_eq!(got, want, "sm_{sm}: our cubin");
        let listing = ptx2sass::disassemble(&cubin).expect("disassembles");
        assert!(listing.contains("REDUX.SUM") && !listing.contains("SHFL"), "sm_{sm}: one REDUX, no shuffles:\n{listing}");
    }
}
