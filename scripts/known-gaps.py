#!/usr/bin/env python3
"""Rewrites src/isa/data/known-gaps.tsv from the undecoded words the corpus
test last wrote (target/encoding-corpus/undecoded-sm_XX.txt): each gap's SM
list and word count are recounted, gaps that no longer occur are dropped,
the list is sorted by word count, and the share of undecoded words per SM is
printed. Undecoded words no gap covers are listed on stderr (add a line with
a reason for them by hand). Matching is the test's: a gap covers a word when
its key is the word's mnemonic with modifiers, or its mnemonic alone.

    cargo test --release --test isa_corpus; scripts/known-gaps.py
"""
import collections, glob, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tsv = os.path.join(root, "src/isa/data/known-gaps.tsv")
lines = open(tsv).read().splitlines()
header = [l for l in lines if l.startswith("#")]
gaps = [l.split("\t") for l in lines if l.strip() and not l.startswith("#")]
totals = {}
words = collections.defaultdict(list)  # sm -> keys of undecoded words
for path in glob.glob(os.path.join(root, "target/encoding-corpus/undecoded-sm_*.txt")):
    sm = int(re.search(r"sm_(\d+)", path).group(1))
    for l in open(path):
        text = l.split(None, 2)[2].strip()
        body = text.split(" ", 1)[1] if text.startswith("@") else text
        words[sm].append(re.split(r"[ ;]", body)[0])
for path in glob.glob(os.path.join(root, "target/encoding-corpus/sm_*.lst")):
    sm = int(re.search(r"sm_(\d+)", path).group(1))
    totals[sm] = sum(1 for l in open(path) if re.match(r"\s*/\*[0-9a-f]{4,}\*/", l))
count = collections.Counter()
sms = collections.defaultdict(set)
uncovered = collections.Counter()
for sm, keys in words.items():
    for key in keys:
        for k, (_, gkey, _) in enumerate(gaps):
            if key == gkey or key.split(".")[0] == gkey:
                count[k] += 1
                sms[k].add(sm)
                break
        else:
            uncovered[(sm, key)] += 1
out = []
for k, (_, key, reason) in enumerate(gaps):
    if count[k]:
        reason = re.sub(r"\s*\(\d+ words\)$", "", reason) + " (%d words)" % count[k]
        out.append((count[k], ",".join(str(s) for s in sorted(sms[k])) + "\t" + key + "\t" + reason))
out.sort(key=lambda x: -x[0])
open(tsv, "w").write("\n".join(header + [l for _, l in out]) + "\n")
for sm in sorted(words):
    n = len(words[sm])
    t = totals.get(sm)
    print("sm_%d: %d undecoded words%s" % (sm, n, " of %d (%.2f%%)" % (t, 100.0 * n / t) if t else ""))
for (sm, key), n in sorted(uncovered.items(), key=lambda x: -x[1]):
    print("not covered: sm_%d %s (%d words)" % (sm, key, n), file=sys.stderr)
