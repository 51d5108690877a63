//! Malformed PTX: variants generated from corpus files by truncation, token
//! deletion, token duplication and type swaps. For every variant
//! `ptx2sass -arch=compute_90` must accept or reject exactly as the reference
//! `ptxas -arch=compute_90` does, and never panic or die from a signal.

mod common;

use ptx2sass::internals::ptx::lexer::{TokenKind, lex};
use std::path::PathBuf;

/// Deterministic xorshift generator (the variant set must not change between runs).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TYPES: &[&str] = &[
    ".u8", ".s8", ".b8", ".u16", ".s16", ".b16", ".f16", ".u32", ".s32", ".b32", ".f32", ".u64", ".s64", ".b64", ".f64",
    ".pred",
];

#[derive(Clone, Copy, Debug)]
enum Mutation {
    Truncate,
    DeleteToken,
    DuplicateToken,
    SwapType,
}

fn mutate(src: &str, m: Mutation, rng: &mut Rng) -> Option<(String, String)> {
    let toks: Vec<_> = lex(src).into_iter().filter(|t| t.kind != TokenKind::Eof).collect();
    if toks.is_empty() {
        return None;
    }
    match m {
        Mutation::Truncate => {
            let t = toks[rng.below(toks.len())];
            let cut = t.span.end as usize;
            Some((src[..cut].to_string(), format!("truncated after byte {cut}")))
        }
        Mutation::DeleteToken | Mutation::DuplicateToken => {
            // Prefer tokens inside function bodies (the header is short and dull).
            let t = toks[toks.len() / 8 + rng.below(toks.len() - toks.len() / 8)];
            let (a, b) = (t.span.start as usize, t.span.end as usize);
            let text = &src[a..b];
            if matches!(m, Mutation::DeleteToken) {
                Some((format!("{}{}", &src[..a], &src[b..]), format!("deleted '{text}' at byte {a}")))
            } else {
                Some((format!("{}{}{}", &src[..b], text, &src[b..]), format!("duplicated '{text}' at byte {a}")))
            }
        }
        Mutation::SwapType => {
            let typed: Vec<_> =
                toks.iter().filter(|t| TYPES.contains(&&src[t.span.start as usize..t.span.end as usize])).collect();
            if typed.is_empty() {
                return None;
            }
            let t = typed[rng.below(typed.len())];
            let (a, b) = (t.span.start as usize, t.span.end as usize);
            let old = &src[a..b];
            let new = TYPES[rng.below(TYPES.len())];
            if new == old {
                return None;
            }
            Some((format!("{}{}{}", &src[..a], new, &src[b..]), format!("type {old} -> {new} at byte {a}")))
        }
    }
}

#[test]
fn malformed_variants_agree_with_ptxas() {
    let Some(dir) = common::corpus_dir("malformed_variants_agree_with_ptxas") else { return };
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "malformed_variants_agree_with_ptxas") else { return };
    // Sources: corpus files whose target compute_90 can take (sm_75/80/90 kernels, ZLUDA).
    let sources: Vec<PathBuf> = common::ptx_files(&dir)
        .into_iter()
        .filter(|p| {
            let n = p.to_string_lossy();
            !n.contains("sm_120") && std::fs::metadata(p).map_or(false, |m| m.len() < 40_000)
        })
        .collect();
    assert!(!sources.is_empty());
    let out_dir = std::env::temp_dir().join(format!("ptx2sass-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let kinds = [Mutation::Truncate, Mutation::DeleteToken, Mutation::DuplicateToken, Mutation::SwapType];
    let per_kind = 75;
    let mut variants = Vec::new();
    for kind in kinds {
        let mut made = 0;
        let mut tries = 0;
        while made < per_kind && tries < per_kind * 20 {
            tries += 1;
            let src_path = &sources[rng.below(sources.len())];
            let src = std::fs::read_to_string(src_path).expect("read");
            if let Some((text, what)) = mutate(&src, kind, &mut rng) {
                let path = out_dir.join(format!("v{:03}.ptx", variants.len()));
                std::fs::write(&path, text).expect("write variant");
                variants.push((path, format!("{} ({what})", src_path.file_name().unwrap().to_string_lossy())));
                made += 1;
            }
        }
    }
    assert!(variants.len() >= 200, "only {} variants", variants.len());
    let results = common::par_map(&variants, |(path, what)| {
        (path.clone(), what.clone(), common::ptxas(&ptxas, "compute_90", path), common::ours("compute_90", path))
    });
    let mut disagreements = Vec::new();
    let (mut acc, mut rej) = (0, 0);
    for (path, what, theirs, mine) in &results {
        assert!(!matches!(mine.code, Some(101) | None), "{what}: ptx2sass panicked or died: {}", mine.message);
        match (theirs.ok, mine.ok) {
            (true, true) => acc += 1,
            (false, false) => rej += 1,
            _ => disagreements.push(format!(
                "{} [{}]: ptxas {} | ptx2sass {}",
                what,
                path.display(),
                if theirs.ok { "accepts".to_string() } else { format!("rejects: {}", theirs.message) },
                if mine.ok { "accepts".to_string() } else { format!("rejects: {}", mine.message) },
            )),
        }
    }
    eprintln!("{} variants: {acc} accepted by both, {rej} rejected by both, {} disagree", results.len(), disagreements.len());
    if disagreements.is_empty() {
        let _ = std::fs::remove_dir_all(&out_dir);
    }
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}
