#!/usr/bin/env python3
"""Measures what the machine layer cannot decode yet in ptxas's code: every
PTX file of the given folders compiled by the reference ptxas for each SM,
every function listed by `sass dis` (words it does not decode print as
`.raw`), and the undecoded words disassembled by nvdisasm. Prints, per SM,
the functions and how many have an undecodable word (the functions the
oracles that decode ptxas's code -- `sass run`, the static hazard checker,
tests/sched_corpus.rs -- skip), then every distinct undecoded word with
nvdisasm's text and its count.

    scripts/decode-gaps.py [--sms 75,80,...] [--sass BIN] [--cache DIR] FOLDER...

A folder's PTX files are compiled for an SM when their `.target` is at most
that SM (`sm_90a`-style targets only for their own SM); a file ptxas
rejects is counted and skipped. Cubins are cached under --cache (default
target/decode-gaps), keyed by the file's path, size and mtime and the SM.
Environment: PTX2SASS_REF_BIN (reference tools; default .reference/bin).
"""
import argparse, collections, concurrent.futures, hashlib, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--sms", default="75,80,86,89,90,100,120")
ap.add_argument("--sass", default=os.path.join(root, "target/release/sass"))
ap.add_argument("--cache", default=os.path.join(root, "target/decode-gaps"))
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("folders", nargs="+")
args = ap.parse_args()
ref = os.environ.get("PTX2SASS_REF_BIN", os.path.join(root, ".reference/bin"))
ptxas, nvdisasm = os.path.join(ref, "ptxas"), os.path.join(ref, "nvdisasm")
os.makedirs(args.cache, exist_ok=True)
sms = [int(s) for s in args.sms.split(",")]

files = []
for folder in args.folders:
    for d, _, names in os.walk(folder):
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".ptx")]
files.sort()


def target_of(path):
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\.target\s+sm_(\d+)([af]?)", line)
            if m:
                return int(m.group(1)), m.group(2)
    return None


def compile_one(job):
    path, sm = job
    st = os.stat(path)
    key = hashlib.sha1(("%s|%d|%d" % (os.path.abspath(path), st.st_size, st.st_mtime_ns)).encode()).hexdigest()[:16]
    out = os.path.join(args.cache, "%s.sm_%d.cubin" % (key, sm))
    if not os.path.exists(out):
        r = subprocess.run([ptxas, "-arch=sm_%d" % sm, path, "-o", out + ".tmp"], capture_output=True)
        if r.returncode != 0:
            return None
        os.replace(out + ".tmp", out)
    return out


def listing(cubin):
    """(function, [raw words]) per function of `sass dis`."""
    text = subprocess.run([args.sass, "dis", cubin], capture_output=True, text=True).stdout
    funcs, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_$.][\w$.]*):$", line)
        if m:
            cur = (m.group(1), [])
            funcs.append(cur)
            continue
        m = re.search(r"\.raw 0x([0-9a-f]+), 0x([0-9a-f]+)", line)
        if m and cur is not None:
            cur[1].append((int(m.group(1), 16), int(m.group(2), 16)))
    return funcs


def nvdisasm_text(sm, words):
    """nvdisasm's text of raw words."""
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        for lo, hi in words:
            f.write(lo.to_bytes(8, "little") + hi.to_bytes(8, "little"))
        name = f.name
    out = subprocess.run([nvdisasm, "-b", "SM%d" % sm, "-hex", name], capture_output=True, text=True).stdout
    os.unlink(name)
    texts = []
    for line in out.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*/\* 0x", line)
        if m:
            texts.append(re.sub(r"\s+", " ", m.group(1)))
    return texts if len(texts) == len(words) else ["?"] * len(words)


jobs = []
for path in files:
    t = target_of(path)
    if t is None:
        continue
    for sm in sms:
        if t[0] <= sm and (not t[1] or t[0] == sm):
            jobs.append((path, sm))
with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
    cubins = list(ex.map(compile_one, jobs))
    lists = list(ex.map(lambda c: listing(c) if c else None, cubins))

for sm in sms:
    nfun = nskip = rejected = nfiles = 0
    words = collections.Counter()
    where = {}
    for (path, s), funcs in zip(jobs, lists):
        if s != sm:
            continue
        nfiles += 1
        if funcs is None:
            rejected += 1
            continue
        for name, raw in funcs:
            nfun += 1
            nskip += bool(raw)
            for w in raw:
                words[w] += 1
                where.setdefault(w, "%s:%s" % (os.path.basename(path), name[:40]))
    print("sm_%d: %d files (%d rejected by ptxas), %d functions, %d with undecodable words, %d undecodable words (%d distinct)"
          % (sm, nfiles, rejected, nfun, nskip, sum(words.values()), len(words)))
    order = sorted(words, key=lambda w: -words[w])
    for w, text in zip(order, nvdisasm_text(sm, order)):
        print("  %5d  0x%016x 0x%016x  %s   [%s]" % (words[w], w[0], w[1], text, where[w]))
