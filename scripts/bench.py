#!/usr/bin/env python3
"""Compile-time and code-quality comparison of ptx2sass against ptxas.

For every kernel file of the corpus (../shared/corpus/kernels/NAME.sm_XX.ptx)
and each SM asked for, both compilers compile the same PTX to a cubin;
each run is timed (wall clock, the best of --repeat runs) and its peak
resident memory taken from the child's own rusage (os.wait4). The static
instruction count (the code before the end marker, from `sass dis`) and the
register count (the cubin's record) of both outputs are compared. Files
ptx2sass does not compile yet are listed with the first error line.

Usage: scripts/bench.sh [--sm 80,90,120] [--repeat 3] [--threads N] [--corpus DIR] [FILTER]

ptx2sass compiles a file's kernels on worker threads (as many as the
machine has unless --threads N passes `--split-compile N`); ptxas uses one.
Besides the wall-clock ratio the table gives ptx2sass's CPU time (all its
threads), so both readings are in one run.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    """Runs cmd; returns (returncode, wall seconds, peak RSS in KiB, stderr,
    CPU seconds: user and system time of all its threads)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, seconds, usage.ru_maxrss, err.decode(errors="replace"), usage.ru_utime + usage.ru_stime


def linking(path):
    """How an ELF executable is linked: "dynamically linked" when it names
    a program interpreter (a PT_INTERP header), else "statically linked"."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            return "not a 64-bit ELF file"
        phoff = int.from_bytes(head[32:40], "little")
        phentsize = int.from_bytes(head[54:56], "little")
        phnum = int.from_bytes(head[56:58], "little")
        f.seek(phoff)
        headers = f.read(phentsize * phnum)
    interp = any(int.from_bytes(headers[k * phentsize:k * phentsize + 4], "little") == 3 for k in range(phnum))
    return "dynamically linked" if interp else "statically linked"


def best_of(cmd, repeat):
    """(returncode, best wall seconds, peak RSS, stderr, best CPU seconds)."""
    results = [run(cmd) for _ in range(repeat)]
    rc = results[0][0]
    return rc, min(r[1] for r in results), max(r[2] for r in results), results[0][3], min(r[4] for r in results)


def count_instructions(lines):
    """Instruction lines of a listing, less NOPs and the end marker."""
    insts = 0
    for line in lines:
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(\[[^\]]*\])?\s*(.*)", line)
        if not m:
            continue
        text = m.group(3)
        if text.startswith("NOP"):
            continue
        # The end marker: a branch to its own address.
        b = re.match(r"BRA 0x([0-9a-f]+)", text)
        if b and int(b.group(1), 16) == int(m.group(1), 16):
            continue
        insts += 1
    return insts


def listing_stats(sass, cubin):
    """(instructions, registers) over the cubin's kernels (the largest
    register count), from `sass dis`: its module listing (`.kernel`
    blocks), or the section listing it prints for a cubin the module model
    does not describe (`.text.*` sections; registers from the
    EIATTR_REGCOUNT records)."""
    out = subprocess.run([sass, "dis", cubin], capture_output=True, text=True)
    if out.returncode != 0:
        return None, None
    if re.search(r"^\.elf ", out.stdout, re.M):
        sections = re.split(r"\n(?=\.section )", out.stdout)
        code = [s for s in sections if s.startswith('.section ".text.')]
        insts = sum(count_instructions(s.splitlines()) for s in code)
        counts = [int(m.group(1), 16) for m in re.finditer(r"^\.record EIATTR_REGCOUNT words 0x[0-9a-f]+ 0x([0-9a-f]+)", out.stdout, re.M)]
        return insts, max(counts, default=0)
    insts = 0
    regs = 0
    for block in re.split(r"\n\.kernel ", out.stdout)[1:]:
        m = re.search(r"^\.registers (\d+)", block, re.M)
        regs = max(regs, int(m.group(1)) if m else 0)
        insts += count_instructions(block.splitlines())
    return insts, regs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sm", default="80,90,120")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None, help="ptx2sass --split-compile N (default: not passed)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "kernels"))
    ap.add_argument("filter", nargs="?", default="")
    args = ap.parse_args()

    ref = os.environ.get("PTX2SASS_REF_BIN", os.path.join(ROOT, ".reference", "bin"))
    ptxas = os.path.join(ref, "ptxas")
    # The shipped build (scripts/build-cli.sh, which bench.sh runs).
    ours = os.path.join(ROOT, "target", "dist", "ptx2sass")
    sass = os.path.join(ROOT, "target", "release", "sass")
    for tool in (ptxas, ours, sass):
        if not os.path.exists(tool):
            sys.exit(f"missing {tool} (scripts/install-reference.sh; scripts/build-cli.sh; cargo build --release)")
    # Process start is part of each timing, so say how the binary was built.
    print(f"ptx2sass: {os.path.relpath(ours, ROOT)}, {linking(ours)}")

    sms = [int(s) for s in args.sm.split(",")]
    files = sorted(f for f in os.listdir(args.corpus) if f.endswith(".ptx") and args.filter in f)
    rows, failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for sm in sms:
            for name in files:
                if not name.endswith(f".sm_{sm}.ptx"):
                    continue
                path = os.path.join(args.corpus, name)
                theirs_cubin = os.path.join(tmp, "ptxas.cubin")
                ours_cubin = os.path.join(tmp, "ours.cubin")
                rc, t_ptxas, m_ptxas, _, c_ptxas = best_of([ptxas, f"-arch=sm_{sm}", path, "-o", theirs_cubin], args.repeat)
                if rc != 0:
                    continue
                threads = [] if args.threads is None else ["--split-compile", str(args.threads)]
                rc, t_ours, m_ours, err, c_ours = best_of([ours, f"-arch=sm_{sm}", *threads, path, "-o", ours_cubin], args.repeat)
                if rc != 0:
                    first = next((l for l in err.splitlines() if "error" in l), err.strip()[:120])
                    failures.append((name, first))
                    continue
                i_p, r_p = listing_stats(sass, theirs_cubin)
                i_o, r_o = listing_stats(sass, ours_cubin)
                rows.append((name, sm, t_ptxas, t_ours, m_ptxas, m_ours, i_p, i_o, r_p, r_o, c_ptxas, c_ours))

    print(f"{'file':42} {'ptxas ms':>9} {'ours ms':>8} {'speedup':>8} {'ours cpu':>8} {'ptxas MiB':>9} {'ours MiB':>8} {'insts p/o':>11} {'regs p/o':>9}")
    for name, sm, tp, to, mp, mo, ip, io, rp, ro, cp, co in rows:
        print(f"{name:42} {tp*1e3:9.2f} {to*1e3:8.2f} {tp/to:8.1f} {co*1e3:8.2f} {mp/1024:9.1f} {mo/1024:8.1f} {ip!s:>5}/{io!s:<5} {rp!s:>4}/{ro!s:<4}")
    if rows:
        speedups = [r[2] / r[3] for r in rows]
        ratios = [r[7] / r[6] for r in rows if r[6] and r[7]]
        print(f"\n{len(rows)} files compiled by both; median compile-time ratio ptxas/ptx2sass: {statistics.median(speedups):.1f}x "
              f"(min {min(speedups):.1f}x, max {max(speedups):.1f}x)")
        if ratios:
            print(f"median instruction-count ratio ptx2sass/ptxas: {statistics.median(ratios):.2f}")
        cpu = [r[10] / r[11] for r in rows if r[11] > 0]
        if cpu:
            print(f"median CPU-time ratio ptxas/ptx2sass (all threads): {statistics.median(cpu):.1f}x")
        print(f"median peak memory ptxas/ptx2sass: {statistics.median([r[4] / r[5] for r in rows]):.1f}x")
    print(f"{len(failures)} files ptx2sass does not compile yet")
    for name, why in failures:
        print(f"  {name}: {why}")


if __name__ == "__main__":
    main()
