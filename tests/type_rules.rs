//! PTX's type and modifier rules, one instruction at a time: each line of
//! `tests/data/type_rules.tsv` holds the verdict the reference `ptxas`
//! gave; the checker must give the same one. When `ptxas` is installed the
//! recorded verdicts are re-checked against it too.

mod common;

use ptx2sass::internals::ptx::{self, CheckOptions};
use ptx2sass::internals::target::Sm;

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";
const KERNEL: &str = ".visible .entry k(.param .u64 p) { .reg .u32 %r<3>; .reg .s32 %s<3>; .reg .u64 %rd<3>; \
.reg .b32 %b<3>; .reg .f32 %f<3>; .reg .f64 %fd<3>; .reg .pred %p<3>; .reg .b16 %h<3>; .reg .u16 %rs<3>; \
.reg .b64 %bd<3>; .reg .f16 %hf<3>; .reg .s64 %sd<3>;\n";

fn cases() -> Vec<(bool, String, String)> {
    let text = include_str!("data/type_rules.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.splitn(3, '\t');
            let verdict = parts.next().unwrap() == "accept";
            let name = parts.next().unwrap().to_string();
            let body = parts.next().unwrap().to_string();
            (verdict, name, body)
        })
        .collect()
}

fn program(body: &str) -> String {
    format!("{HEADER}{KERNEL}{body}\nret; }}\n")
}

#[test]
fn checker_gives_ptxas_verdicts() {
    let mut wrong = Vec::new();
    let all = cases();
    assert!(all.len() > 100);
    for (accept, name, body) in &all {
        let src = program(body);
        let result = ptx::parse_and_check(&src, &CheckOptions { arch: Some(Sm::new(90)), resolve_calls: false });
        if result.is_ok() != *accept {
            let why = match result {
                Ok(_) => "accepted".to_string(),
                Err(d) => d.render("case", &src).lines().next().unwrap_or("").to_string(),
            };
            wrong.push(format!("{name}: `{body}`: ptxas {}, ptx2sass {why}", if *accept { "accepts" } else { "rejects" }));
        }
    }
    assert!(wrong.is_empty(), "{} of {} cases differ:\n{}", wrong.len(), all.len(), wrong.join("\n"));
}

#[test]
fn recorded_verdicts_match_ptxas() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "recorded_verdicts_match_ptxas") else { return };
    let dir = std::env::temp_dir().join(format!("ptx2sass-type-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = cases();
    let results = common::par_map(&all, |(accept, name, body)| {
        let path = dir.join(format!("{name}.ptx"));
        std::fs::write(&path, program(body)).unwrap();
        let v = common::ptxas(&ptxas, "compute_90", &path);
        (v.ok == *accept, name.clone(), v.message)
    });
    let _ = std::fs::remove_dir_all(&dir);
    let stale: Vec<_> = results.iter().filter(|r| !r.0).map(|r| format!("{}: {}", r.1, r.2)).collect();
    assert!(stale.is_empty(), "recorded verdicts differ from ptxas:\n{}", stale.join("\n"));
}
