//! Fuzz target: the PTX interpreter never panics. Text that parses and
//! checks has every kernel run with a tiny launch (one CTA of 32 or 64
//! threads, 256 bytes of dynamic shared memory, 256-byte random buffers for
//! 8-byte parameters, small scalars for the others) and a small step
//! budget. Input format: `fuzz/src/lib.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ptx2sass::internals::interp::launch::{Fill, ParamSpec, ScalarKind};
use ptx2sass::internals::interp::ptx::{run, Options};
use ptx2sass::internals::interp::LaunchSpec;
use ptx2sass::internals::ptx::ast::{FunctionKind, Item, VarType};

fuzz_target!(|data: &[u8]| {
    let text = ptx2sass_fuzz::decode(data);
    let Ok(module) = ptx2sass::internals::ptx::parse(&text) else { return };
    if ptx2sass::internals::ptx::check(&module, &Default::default()).is_err() {
        return;
    }
    let threads = if data.first().is_some_and(|b| b & 1 == 1) { 64 } else { 32 };
    for item in &module.items {
        let Item::Function(f) = item else { continue };
        if f.kind != FunctionKind::Entry || f.body.is_none() {
            continue;
        }
        let mut params = Vec::new();
        for (k, p) in f.params.iter().flatten().enumerate() {
            let elem = match p.ty {
                VarType::Scalar(t) => (t.bits() as usize).div_ceil(8).max(1),
                _ => 8,
            } * p.vector.unwrap_or(1) as usize;
            let size = elem * p.dims.iter().map(|d| d.unwrap_or(0) as usize).product::<usize>().max(1);
            params.push(match size {
                8 => ParamSpec::Buffer { bytes: 256, fill: Fill::Random { seed: k as u64 }, output: true },
                4 => ParamSpec::Scalar { kind: ScalarKind::U32, bits: 7 },
                2 => ParamSpec::Scalar { kind: ScalarKind::U16, bits: 3 },
                1 => ParamSpec::Scalar { kind: ScalarKind::U8, bits: 1 },
                n => ParamSpec::Bytes { bytes: vec![1; n.min(4096)], align: 8 },
            });
        }
        let spec = LaunchSpec {
            kernel: module.names.name(f.name).to_string(),
            grid: [1, 1, 1],
            block: [threads, 1, 1],
            shared_bytes: 256,
            params,
            textures: Vec::new(),
        };
        let _ = run(&module, &spec, &Options { step_budget: 20_000 });
    }
});
