//! Fuzz target: the SASS interpreter never panics. The first byte picks
//! the input's meaning:
//! * even: the rest is instruction words of one kernel (sm_75/80/90/100/120
//!   by the second byte) with two 8-byte pointer parameters, laid out in a
//!   cubin by `cubin::build` and run on a 1..64-thread block with a small
//!   step budget — random code, so every decodable instruction is executed
//!   on arbitrary register values and addresses;
//! * odd: the rest is a cubin as it is.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ptx2sass::internals::cubin::module::{Kernel, Module, Param, ToolInfo, build};
use ptx2sass::internals::interp::launch::{Fill, LaunchSpec, ParamSpec, TextureSpec};
use ptx2sass::internals::interp::sass::{HazardCheck, Options, run};

const SMS: [u32; 5] = [75, 80, 90, 100, 120];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let options = Options { step_budget: 2_000, hazards: if mode & 2 == 0 { HazardCheck::Report } else { HazardCheck::Fail }, ..Default::default() };
    let threads = u32::from(mode >> 2) + 1;
    let spec = LaunchSpec {
        kernel: "k".into(),
        grid: [1 + u32::from(mode >> 7), 1, 1],
        block: [threads, 1, 1],
        shared_bytes: 256,
        params: vec![
            ParamSpec::Buffer { bytes: 256, fill: Fill::Random { seed: 1 }, output: false },
            ParamSpec::Buffer { bytes: 256, fill: Fill::Zero, output: true },
        ],
        // A texture under handle 0, which a fetch reads from a zero
        // constant-bank word or uniform register.
        textures: vec![TextureSpec { handle: 0, texref: None, dims: [4, 3, 2], normalized: mode & 4 != 0, wrap: mode & 8 != 0, fill: Fill::Random { seed: 2 }, element_bytes: None }],
    };
    if mode & 1 == 1 {
        let _ = run(rest, &spec, &options);
        return;
    }
    let Some((&sm, code)) = rest.split_first() else { return };
    let sm = SMS[usize::from(sm) % SMS.len()];
    let words: Vec<u128> = code.chunks_exact(16).take(64).map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16]))).collect();
    let mut kernel = Kernel::new("k", words, 32);
    kernel.params = vec![Param::new(0, 8), Param::new(8, 8)];
    let module = Module { sm, virtual_sm: sm, tool: ToolInfo::default(), kernels: vec![kernel], globals: vec![], constants: vec![], global_addresses: vec![], isa_class: 1, flags_top: 0x06, line_info: vec![], merc: vec![] };
    let Ok(elf) = build(&module) else { return };
    let cubin = ptx2sass::internals::cubin::elf::write(&elf);
    let _ = run(&cubin, &spec, &options);
});
