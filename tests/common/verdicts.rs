//! Lists of expected per-kernel failures (`file<TAB>kernel<TAB>reason`
//! lines under tests/data): a corpus test compares what it saw with its
//! list and fails on any difference, so a kernel that newly fails, newly
//! passes or fails for another reason is noticed. `BLESS=1` rewrites the
//! list (review the diff).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// (file, kernel, reason) triples.
pub type Verdicts = BTreeSet<(String, String, String)>;

/// Compares `got` with `tests/data/<list>` (or rewrites it under `BLESS`).
pub fn compare(list: &str, header: &str, got: &Verdicts) {
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
    let gone: Vec<_> = want.difference(got).collect();
    assert!(new.is_empty() && gone.is_empty(), "{list}: newly failing or changed: {new:#?}\nno longer failing this way: {gone:#?}\n(BLESS=1 rewrites the list)");
}

/// The reasons of a list with their counts, most frequent first, one per
/// line (`key` shortens a reason to what is counted).
pub fn summary(bad: &Verdicts, key: impl Fn(&str) -> String) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (_, _, r) in bad {
        *counts.entry(key(r)).or_default() += 1;
    }
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.iter().map(|(r, n)| format!("  {n:4}  {r}\n")).collect()
}
