#!/usr/bin/env python3
"""Code quality of ptx2sass against ptxas, kernel by kernel.

Compiles every PTX file of a corpus with both compilers for each SM asked
for, then measures each kernel of both cubins with the reference tools, so
that both are read the same way: static instructions from `nvdisasm -c`
(every instruction of the function up to its closing self-branch, NOPs of
the alignment padding excluded) and registers from `cuobjdump
--dump-resource-usage` (the `REG:` count). Per SM it prints the kernels
both compile, the median and the worst ratio ptx2sass/ptxas of each
measure, and the ten worst kernels by instruction ratio.

Usage: scripts/code-quality.py [--sm 80,90,120] [--corpus DIR] [--jobs N] [--tsv FILE] [FILTER]

The corpus defaults to the library corpus (target/library-corpus, built by
scripts/library-corpus.sh: DIR/sm_XX/NAME.ptx); with --corpus pointing at
the shared corpus's kernels directory (NAME.sm_XX.ptx) it reads that
layout instead. --tsv writes one line per kernel and SM. PTX2SASS_BIN names
another ptx2sass binary (default target/release/ptx2sass).
"""

import argparse
import concurrent.futures
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.environ.get("PTX2SASS_REF_BIN", os.path.join(ROOT, ".reference", "bin"))
PTXAS = os.path.join(REF, "ptxas")
NVDISASM = os.path.join(REF, "nvdisasm")
CUOBJDUMP = os.path.join(REF, "cuobjdump")
OURS = os.environ.get("PTX2SASS_BIN", os.path.join(ROOT, "target", "release", "ptx2sass"))

INST = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
FUNC = re.compile(r"^\s*\.text\.(\S+):\s*$")


def instructions(cubin):
    """Per function: its instruction count (nvdisasm), without the closing
    self-branch and the NOP padding after it."""
    out = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True)
    counts, name, body = {}, None, []

    def close():
        if name is None:
            return
        # Drop the padding: trailing NOPs, then the `BRA` to itself.
        while body and body[-1].startswith("NOP"):
            body.pop()
        if body and re.match(r"BRA `?\(?\.L_x_\d+\)?`?$", body[-1]):
            body.pop()
        counts[name] = len(body)

    for line in out.stdout.splitlines():
        m = FUNC.match(line)
        if m:
            close()
            name, body = m.group(1), []
            continue
        m = INST.match(line)
        if m and name is not None:
            body.append(re.sub(r"^@!?U?P\S+\s+", "", m.group(1)))
    close()
    return counts


def registers(cubin):
    """Per function: its register count (cuobjdump's resource usage)."""
    out = subprocess.run([CUOBJDUMP, "--dump-resource-usage", cubin], capture_output=True, text=True)
    regs, name = {}, None
    for line in out.stdout.splitlines():
        m = re.search(r"Function (\S+):", line)
        if m:
            name = m.group(1)
        m = re.search(r"REG:(\d+)", line)
        if m and name is not None:
            regs[name] = int(m.group(1))
    return regs


def measure(job):
    """Both compilers on one file for one SM: per kernel (instructions, registers) each."""
    sm, path, tmp = job
    stem = os.path.basename(path).replace(".ptx", "")
    theirs, ours = os.path.join(tmp, f"{stem}.sm_{sm}.ptxas.cubin"), os.path.join(tmp, f"{stem}.sm_{sm}.ours.cubin")
    if subprocess.run([PTXAS, f"-arch=sm_{sm}", path, "-o", theirs], capture_output=True).returncode != 0:
        return sm, stem, None, "ptxas rejects it"
    r = subprocess.run([OURS, f"-arch=sm_{sm}", path, "-o", ours], capture_output=True, text=True)
    if r.returncode != 0:
        first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip()[:160])
        return sm, stem, None, first
    ip, rp, io, ro = instructions(theirs), registers(theirs), instructions(ours), registers(ours)
    rows = []
    for fn in sorted(ip):
        if fn in io and fn in rp and fn in ro:
            rows.append((fn, ip[fn], io[fn], rp[fn], ro[fn]))
    return sm, stem, rows, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sm", default="80,90,120")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "target", "library-corpus"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tsv", default=None)
    ap.add_argument("filter", nargs="?", default="")
    args = ap.parse_args()
    for tool in (PTXAS, NVDISASM, CUOBJDUMP, OURS):
        if not os.path.exists(tool):
            sys.exit(f"code-quality: missing {tool} (scripts/install-reference.sh; cargo build --release)")
    sms = [int(s) for s in args.sm.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for sm in sms:
            sub = os.path.join(args.corpus, f"sm_{sm}")
            if os.path.isdir(sub):
                files = [os.path.join(sub, f) for f in sorted(os.listdir(sub)) if f.endswith(".ptx")]
            else:
                files = [os.path.join(args.corpus, f) for f in sorted(os.listdir(args.corpus)) if f.endswith(f".sm_{sm}.ptx")]
            jobs += [(sm, f, tmp) for f in files if args.filter in os.path.basename(f)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(measure, jobs))
    tsv = open(args.tsv, "w") if args.tsv else None
    if tsv:
        tsv.write("sm\tfile\tkernel\tptxas_insts\tours_insts\tptxas_regs\tours_regs\n")
    for sm in sms:
        rows, failed = [], []
        for s, stem, r, why in results:
            if s != sm:
                continue
            if r is None:
                if why != "ptxas rejects it":
                    failed.append((stem, why))
                continue
            rows += [(stem,) + x for x in r]
        if tsv:
            for stem, fn, ip, io, rp, ro in rows:
                tsv.write(f"{sm}\t{stem}\t{fn}\t{ip}\t{io}\t{rp}\t{ro}\n")
        print(f"sm_{sm}: {len(rows)} kernels compiled by both; {len(failed)} files ptx2sass does not compile")
        if not rows:
            continue
        inst = [io / ip for _, _, ip, io, _, _ in rows if ip]
        regs = [ro / rp for _, _, _, _, rp, ro in rows if rp]
        print(f"  instructions ptx2sass/ptxas: median {statistics.median(inst):.2f}, worst {max(inst):.2f}, best {min(inst):.2f}; "
              f"total {sum(r[3] for r in rows)}/{sum(r[2] for r in rows)} = {sum(r[3] for r in rows) / max(1, sum(r[2] for r in rows)):.2f}")
        print(f"  registers    ptx2sass/ptxas: median {statistics.median(regs):.2f}, worst {max(regs):.2f}, best {min(regs):.2f}")
        worst = sorted(rows, key=lambda r: -(r[3] / r[2] if r[2] else 0))[:10]
        for stem, fn, ip, io, rp, ro in worst:
            print(f"    {stem}.{fn}: {io}/{ip} instructions, {ro}/{rp} registers")
        for stem, why in failed:
            print(f"  not compiled: {stem}: {why}")
    if tsv:
        tsv.close()


if __name__ == "__main__":
    main()
