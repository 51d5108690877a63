//! Legalization over the ZLUDA corpus: every kernel that lowers (with the
//! functions it calls) is legalized for sm_75, 80, 90, 100 and 120 and
//! must pass the verifier at the legal stage. Kernels that lower but do
//! not legalize are listed with their first error in
//! `tests/data/legalize-zluda-unsupported.tsv`; the test fails when a
//! kernel newly fails, newly passes, or fails for another reason.
//! `BLESS=1` rewrites the list (review the diff).

mod common;

use ptx2sass::ir::verify::{Stage, verify_function};
use ptx2sass::ir::{FuncId, FunctionKind, Module, Opcode};
use ptx2sass::legalize::legalize;
use ptx2sass::lower::lower_module_partial;
use ptx2sass::target::Sm;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

/// (file, kernel, first error) of the kernels that lower but do not legalize.
type Verdicts = BTreeSet<(String, String, String)>;

/// The functions a kernel reaches through calls (itself included).
fn closure(m: &Module, root: FuncId) -> Vec<FuncId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let f = &m.functions[id];
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if f.insts[i].opcode == Opcode::Call {
                    let callee = FuncId::new_index(f.insts[i].imm);
                    if let Some(c) = callee.filter(|c| m.functions.get(*c).is_some()) {
                        stack.push(c);
                    }
                }
            }
        }
    }
    seen.into_iter().collect()
}

trait NewIndex: Sized {
    fn new_index(i: u64) -> Option<Self>;
}
impl NewIndex for FuncId {
    fn new_index(i: u64) -> Option<FuncId> {
        use ptx2sass::ir::entity::EntityRef;
        usize::try_from(i).ok().map(FuncId::new)
    }
}

/// Legalizes the kernels of one file for one SM: (kernels that lowered,
/// kernels that legalized and verified, failures).
fn run_file(path: &Path, sm: u16) -> (usize, usize, Vec<(String, String)>) {
    let Ok(src) = std::fs::read_to_string(path) else { return (0, 0, Vec::new()) };
    let Ok(module) = ptx2sass::ptx::parse(&src) else { return (0, 0, Vec::new()) };
    if ptx2sass::ptx::check(&module, &Default::default()).is_err() {
        return (0, 0, Vec::new());
    }
    let lowered = lower_module_partial(&module, Sm::new(sm), Some(&src));
    let failed: BTreeSet<&str> = lowered.errors.iter().map(|e| e.function.as_str()).collect();
    if failed.contains("") {
        return (0, 0, Vec::new());
    }
    let m = &lowered.module;
    let (mut total, mut ok, mut bad) = (0, 0, Vec::new());
    for (id, f) in m.functions.iter().filter(|(_, f)| f.kind == Some(FunctionKind::Kernel)) {
        let reach = closure(m, id);
        if reach.iter().any(|&g| failed.contains(m.functions[g].name.as_str())) {
            continue;
        }
        total += 1;
        let mut legal = m.clone();
        let mut error = None;
        for &g in &reach {
            if m.functions[g].layout.is_empty() {
                continue;
            }
            match legalize(&m.functions[g], Sm::new(sm)) {
                Ok(lf) => legal.functions[g] = lf,
                Err(e) => {
                    error = Some(format!("{} {}", e.reason, e.op));
                    break;
                }
            }
        }
        if error.is_none() {
            for &g in &reach {
                if let Err(errs) = verify_function(&legal, &legal.functions[g], Stage::Legal) {
                    error = Some(format!("verifier: {}", errs[0].message));
                    break;
                }
            }
        }
        match error {
            None => ok += 1,
            Some(e) => bad.push((f.name.clone(), format!("sm_{sm}: {e}"))),
        }
    }
    (total, ok, bad)
}

#[test]
fn zluda_kernels_legalize_for_every_target() {
    let Some(corpus) = common::corpus_dir("zluda_kernels_legalize_for_every_target") else { return };
    let files = common::ptx_files(&corpus.join("zluda/ptx"));
    assert!(files.len() >= 200, "{} ZLUDA files", files.len());
    let mut got = Verdicts::new();
    let mut per_sm: BTreeMap<u16, (usize, usize)> = BTreeMap::new();
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for sm in SMS {
            let (t, o, bad) = run_file(path, sm);
            let e = per_sm.entry(sm).or_default();
            e.0 += t;
            e.1 += o;
            for (k, r) in bad {
                got.insert((name.clone(), k, r));
            }
        }
    }
    for (sm, (t, o)) in &per_sm {
        eprintln!("sm_{sm}: {o} of {t} lowered kernels legalize and verify");
    }
    let list = "legalize-zluda-unsupported.tsv";
    let header = "# ZLUDA kernels that lower but do not legalize (tests/legalize_zluda.rs): file<TAB>kernel<TAB>sm: first error\n# BLESS=1 cargo test --test legalize_zluda rewrites it.\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(list);
    let text: String = got.iter().map(|(f, k, r)| format!("{f}\t{k}\t{r}\n")).collect();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, format!("{header}{text}")).expect("write the list");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let want: Verdicts = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.splitn(3, '\t');
            Some((it.next()?.to_string(), it.next()?.to_string(), it.next()?.to_string()))
        })
        .collect();
    let new: Vec<_> = got.difference(&want).collect();
    let gone: Vec<_> = want.difference(&got).collect();
    assert!(new.is_empty() && gone.is_empty(), "{list}: newly failing or changed: {new:#?}\nno longer failing this way: {gone:#?}\n(BLESS=1 rewrites the list)");
}
