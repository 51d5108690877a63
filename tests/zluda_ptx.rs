//! The ZLUDA conformance corpus under the PTX interpreter: every manifest
//! case with run data is launched as ZLUDA's harness launches it and its
//! output compared with the expected values (integers bitwise, floats with
//! IEEE `==`). Fails on any miss not listed in
//! `tests/data/zluda-known-failures-ptx.tsv`, and on any listed case that
//! now passes.

mod common;

use ptx2sass::interp::launch::{Fill, ParamSpec};
use ptx2sass::interp::ptx::{run, Options};
use ptx2sass::interp::LaunchSpec;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

struct Case {
    name: String,
    ptx: String,
    spec: LaunchSpec,
    ty: String,
    elem: usize,
    expected: Vec<u64>,
}

fn hex_value(v: &Value) -> Option<u64> {
    let s = v.as_str()?;
    u64::from_str_radix(s.trim_start_matches("0x"), 16).ok()
}

fn cases(dir: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest readable");
    let m: Value = serde_json::from_str(&text).expect("manifest is JSON");
    let mut out = Vec::new();
    for t in m["tests"].as_array().expect("tests array") {
        if t["runs_on_gpu"] != Value::Bool(true) || t["output"].is_null() {
            continue;
        }
        let name = t["name"].as_str().unwrap_or_default().to_string();
        let output = &t["output"];
        let elem = output["elem_size"].as_u64().unwrap_or(4) as usize;
        let count = output["count"].as_u64().unwrap_or(0) as usize;
        let expected: Vec<u64> = output["values"].as_array().map(|v| v.iter().filter_map(hex_value).collect()).unwrap_or_default();
        let out_buf = ParamSpec::Buffer { bytes: count * elem, fill: Fill::Zero, output: true };
        let params = if t["input"].is_null() {
            vec![out_buf, ParamSpec::SameAs { param: 0 }]
        } else {
            let input = &t["input"];
            let ie = input["elem_size"].as_u64().unwrap_or(4) as usize;
            let mut bytes = Vec::new();
            for v in input["values"].as_array().into_iter().flatten() {
                bytes.extend_from_slice(&hex_value(v).unwrap_or(0).to_le_bytes()[..ie]);
            }
            vec![ParamSpec::Buffer { bytes: bytes.len(), fill: Fill::Hex(bytes), output: false }, out_buf]
        };
        let nparams = t["entry_params"].as_array().map_or(2, Vec::len);
        let mut params = params;
        params.truncate(nparams.max(1));
        let spec = LaunchSpec {
            kernel: t["kernel"].as_str().unwrap_or_default().to_string(),
            grid: [t["grid_dim_x"].as_u64().unwrap_or(1) as u32, 1, 1],
            block: [t["block_dim_x"].as_u64().unwrap_or(1) as u32, 1, 1],
            shared_bytes: t["dynamic_shared_bytes"].as_u64().unwrap_or(0) as u32,
            params,
        };
        let ptx = dir.join(t["ptx"].as_str().unwrap_or_default());
        out.push(Case { name, ptx: ptx.to_string_lossy().into_owned(), spec, ty: output["type"].as_str().unwrap_or("u32").to_string(), elem, expected });
    }
    out
}

fn equal(ty: &str, got: u64, want: u64) -> bool {
    match ty {
        "f32" => f32::from_bits(got as u32) == f32::from_bits(want as u32),
        "f64" => f64::from_bits(got) == f64::from_bits(want),
        "f16" | "bf16" => {
            let fmt = if ty == "f16" { ptx2sass::interp::ptx::float::F16 } else { ptx2sass::interp::ptx::float::BF16 };
            fmt.to_f64(got) == fmt.to_f64(want)
        }
        _ => got == want,
    }
}

/// `Ok(())` when the case matches, else why not.
fn check(case: &Case) -> Result<(), String> {
    let src = std::fs::read_to_string(&case.ptx).map_err(|e| format!("read: {e}"))?;
    let module = ptx2sass::ptx::parse(&src).map_err(|e| format!("parse: {e:?}"))?;
    ptx2sass::ptx::check(&module, &Default::default()).map_err(|e| format!("check: {e:?}"))?;
    let out = run(&module, &case.spec, &Options { step_budget: 1_000_000 }).map_err(|e| e.render(&case.ptx, &src))?;
    let param = case.spec.params.iter().position(|p| matches!(p, ParamSpec::Buffer { output: true, .. })).unwrap_or(0);
    let bytes = out.launch.buffer_bytes(param).ok_or("no output buffer")?;
    let mut bad = Vec::new();
    for (i, want) in case.expected.iter().enumerate() {
        let got = ptx2sass::interp::memory::le_u64(&bytes[i * case.elem..(i + 1) * case.elem]);
        if !equal(&case.ty, got, *want) {
            bad.push(format!("[{i}] got {got:#x} want {want:#x}"));
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        let n = bad.len();
        bad.truncate(4);
        Err(format!("{n} elements differ: {}", bad.join(", ")))
    }
}

fn known_failures() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zluda-known-failures-ptx.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (name, reason) = l.split_once('\t')?;
            Some((name.trim().to_string(), reason.trim().to_string()))
        })
        .collect()
}

#[test]
fn zluda_conformance_under_the_ptx_interpreter() {
    let Some(corpus) = common::corpus_dir("zluda_conformance_under_the_ptx_interpreter") else { return };
    let dir = corpus.join("zluda");
    let cases = cases(&dir);
    assert!(cases.len() >= 150, "manifest has {} run cases", cases.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let results: Vec<(String, Result<(), String>)> = std::thread::scope(|s| {
        let chunks: Vec<_> = cases.chunks(cases.len().div_ceil(threads)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| s.spawn(move || chunk.iter().map(|c| (c.name.clone(), check(c))).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker")).collect()
    });
    let known = known_failures();
    let passed = results.iter().filter(|(_, r)| r.is_ok()).count();
    println!("ZLUDA conformance (PTX interpreter): {passed}/{} cases match ({:.1}%)", results.len(), 100.0 * passed as f64 / results.len() as f64);
    let mut problems = Vec::new();
    for (name, r) in &results {
        match (r, known.get(name)) {
            (Err(e), None) => problems.push(format!("{name}: {e}")),
            (Err(e), Some(reason)) => println!("known failure {name} ({reason}): {e}"),
            (Ok(()), Some(_)) => problems.push(format!("{name}: listed as a known failure but passes (remove it from the list)")),
            (Ok(()), None) => {}
        }
    }
    for name in known.keys() {
        if !results.iter().any(|(n, _)| n == name) {
            problems.push(format!("{name}: listed as a known failure but is not a run case"));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
