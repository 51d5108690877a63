#!/usr/bin/env python3
"""Injected hazards: does the SASS interpreter's hazard checker catch a
missing scoreboard wait?

    scripts/hazard-injection.py [--sms 75,80,...] [--per-cubin N] [--seed S]
                                [--kinds wait,stall] [--compiler ptxas|ours]

For every launch spec of tests/data/launch and every SM, ptxas (or
ptx2sass, target/release/ptx2sass) compiles the spec's kernel file of the
shared corpus (cached under target/hazard-injection/); the cubin must run
clean under `sass run --hazards fail`. Two kinds of hazard are injected.
`wait`: injection sites are found from the listing alone (`sass
dis`: control codes and operand text), not from the checker's tables: a
producer P that sets write scoreboard b (a load, S2R, a conversion: any
variable-latency result), and the first later instruction C of the same
straight-line stretch (no branch, branch target, barrier, call or DEPBAR
in between) that waits on b, where C reads a register P writes. Clearing
b from C's wait mask makes C read P's result before it is known to be
there: a real read-after-write hazard, whatever the latencies. `stall`:
a fixed-latency producer of a general register read by the very next
instruction gets a stall of 1 (see `stall_sites`). Sites where
the clean run's trace never executes both P and C are skipped. Up to N
sites per cubin (seeded choice) are injected, one at a time; each must
stop `sass run` with a hazard. Prints the counts per SM and every missed
site. Exit status 1 when any site is missed.
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("PTX2SASS_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
PTXAS = os.path.join(ROOT, ".reference", "bin", "ptxas")
SASS = os.environ.get("SASS", os.path.join(ROOT, "target", "release", "sass"))
OURS = os.environ.get("PTX2SASS", os.path.join(ROOT, "target", "release", "ptx2sass"))
CACHE = os.path.join(ROOT, "target", "hazard-injection")
# The corpus's PTX per SM: its kernels are compiled by nvcc for these targets.
SOURCE_SM = {75: 75, 80: 80, 86: 80, 89: 80, 90: 90, 100: 90, 120: 120}
# Instructions that end a straight-line stretch.
STOPS = ("BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "BSYNC", "BSSY", "WARPSYNC", "BAR", "BREAK", "DEPBAR", "YIELD", "KILL", "NANOSLEEP", "WARPGROUP")
# Instructions without a register result in their first operand.
NO_DEST = ("ST", "RED", "BAR", "BRA", "EXIT", "NOP", "MEMBAR", "FENCE", "CCTL", "ERRBAR", "RET", "CALL", "BSSY", "BSYNC", "WARPSYNC")
LINE = re.compile(r"/\*([0-9a-f]{4,})\*/ \[B([0-5-]{6}):R([0-5-]):W([0-5-]):[Y-]:S(\d\d)\] (.*?) ;")
REG = re.compile(r"\b(U?R)(\d+)(\.64|\.128)?\b")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def listing(cubin, kernel):
    """The kernel's instructions: (offset, wait mask, write scoreboard, text, stall)."""
    rc, out, _ = run([SASS, "dis", cubin])
    if rc != 0:
        return None
    # The kernel's instructions follow its label (`NAME:`), in both the
    # module listing and the section listing, up to the next label.
    insts, inside = [], False
    for line in out.splitlines():
        if re.match(r"^[A-Za-z_$.][\w$.]*:\s*$", line) and not line.startswith(".L"):
            inside = line.strip()[:-1] == kernel
            continue
        m = LINE.search(line) if inside else None
        if m:
            wait = {k for k, c in enumerate(m.group(2)) if c != "-"}
            write = None if m.group(4) == "-" else int(m.group(4))
            insts.append((int(m.group(1), 16), wait, write, m.group(6), int(m.group(5))))
    return insts


def opcode(text):
    """The mnemonic without its guard."""
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def width(mnemonic):
    toks = mnemonic.split(".")
    return 4 if "128" in toks or "4" in toks[1:2] and toks[0] == "LDSM" else 2 if "64" in toks else 1


def registers(operand_text):
    """The registers an operand text names (`R2.64` is R2 and R3)."""
    regs = set()
    for file, n, wide in REG.findall(operand_text):
        n = int(n)
        count = 2 if wide == ".64" else 4 if wide == ".128" else 1
        for k in range(count):
            if n + k < 255:
                regs.add((file, n + k))
    return regs


def split_operands(text):
    words = text.split(None, 1)
    if words and words[0].startswith("@"):
        words = words[1].split(None, 1) if len(words) > 1 else []
    return words[1] if len(words) > 1 else ""


def written(text):
    """The registers a producer writes: its first operand, as wide as the mnemonic says."""
    mn = opcode(text)
    ops = split_operands(text).split(",")
    if not ops or mn.startswith(NO_DEST):
        return set()
    m = REG.match(ops[0].strip())
    if not m:
        return set()
    n = int(m.group(2))
    return {(m.group(1), n + k) for k in range(width(mn)) if n + k < 255}


def read(text):
    """The registers an instruction reads (every operand but a register result)."""
    mn = opcode(text)
    ops = split_operands(text).split(",")
    if not mn.startswith(NO_DEST) and ops and REG.match(ops[0].strip()):
        ops = ops[1:]
    regs = set()
    for o in ops:
        regs |= registers(o)
    return regs


def targets(insts):
    """Branch targets named in the listing (hex offsets after a branch)."""
    out = set()
    for _, _, _, text, _ in insts:
        if opcode(text).startswith(("BRA", "BSSY", "BRX", "CALL", "JMP")):
            out.update(int(t, 16) for t in re.findall(r"0x([0-9a-f]+)", text))
    return out


def sites(insts):
    """(producer offset, consumer offset, scoreboard) of every injection site."""
    found = []
    starts = targets(insts)
    for i, (p_off, _, b, p_text, _) in enumerate(insts):
        if b is None:
            continue
        regs = written(p_text)
        if not regs:
            continue
        for c_off, c_wait, _, c_text, _ in insts[i + 1:]:
            if c_off in starts:
                break
            if b in c_wait:
                if regs & read(c_text):
                    found.append((p_off, c_off, b))
                break
            if opcode(c_text).startswith(STOPS):
                break
    return found


def stall_sites(insts):
    """(producer offset, consumer offset) where a fixed-latency producer (no
    write scoreboard) of a general register is read by the very next
    instruction of the stretch: issuing that one cycle later is a hazard on
    every SM (dependent ALU instructions issue at least 4 cycles apart:
    Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
    Microbenchmarking", 2018, and their Turing paper, 2019)."""
    found = []
    starts = targets(insts)
    for (p_off, _, b, p_text, stall), (c_off, _, _, c_text, _) in zip(insts, insts[1:]):
        if b is not None or stall < 2 or c_off in starts or opcode(p_text).startswith(STOPS):
            continue
        regs = {r for r in written(p_text) if r[0] == "R"}
        if regs & read(c_text):
            found.append((p_off, c_off))
    return found


def executed(cubin, spec):
    """Offsets the clean run executes with at least one lane, or None when it does not run clean."""
    rc, out, err = run([SASS, "run", "--launch", spec, "--hazards", "fail", "--trace", cubin])
    if rc != 0:
        return None
    offs = set()
    for line in (out + err).splitlines():
        m = re.match(r"w\d+ ([0-9a-f]{4,}) exec ([0-9a-f]{8}) ", line)
        if m and m.group(2) != "00000000":
            offs.add(int(m.group(1), 16))
    return offs


def text_section(data, kernel):
    """File offset of `.text.<kernel>` in an ELF64 cubin."""
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    strtab = struct.unpack_from("<IIQQQQ", data, shoff + shstrndx * shentsize)
    for i in range(shnum):
        name_off, _, _, _, offset, _ = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        name = data[strtab[4] + name_off:].split(b"\0")[0].decode()
        if name == ".text." + kernel:
            return offset
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sms", default="75,80,86,89,90,100,120")
    ap.add_argument("--per-cubin", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiler", default="ptxas", choices=["ptxas", "ours"])
    ap.add_argument("--kinds", default="wait,stall", help="wait: a scoreboard wait removed; stall: a producer's stall cut to 1")
    args = ap.parse_args()
    os.makedirs(CACHE, exist_ok=True)
    rng = random.Random(args.seed)
    specs = sorted(f for f in os.listdir(os.path.join(ROOT, "tests", "data", "launch")) if f.endswith(".json"))
    total = {}
    kinds = {}
    missed = []
    with tempfile.TemporaryDirectory() as tmp:
        for sm in [int(s) for s in args.sms.split(",")]:
            n_sites = n_caught = n_cubins = n_at = 0
            for name in specs:
                spec = os.path.join(ROOT, "tests", "data", "launch", name)
                kernel = json.load(open(spec))["kernel"]
                stem = name.split(".")[0]
                ptx = os.path.join(CORPUS, "kernels", "%s.sm_%d.ptx" % (stem, SOURCE_SM[sm]))
                cubin = os.path.join(CACHE, "%s.%s.%d.cubin" % (stem, args.compiler, sm))
                compiler = PTXAS if args.compiler == "ptxas" else OURS
                # Our cubins are compiled afresh (the binary changes); ptxas's are cached.
                if (args.compiler == "ours" or not os.path.exists(cubin)) and run([compiler, "-arch=sm_%d" % sm, ptx, "-o", cubin])[0] != 0:
                    continue
                insts = listing(cubin, kernel)
                ran = executed(cubin, spec) if insts else None
                if ran is None:
                    continue
                n_cubins += 1
                data = open(cubin, "rb").read()
                base = text_section(data, kernel)
                if base is None:
                    continue
                # (kind, producer, consumer, word offset of the patched
                # instruction's control half, bits to clear, bits to set).
                candidates = []
                if "wait" in args.kinds:
                    for p_off, c_off, b in sites(insts):
                        candidates.append(("wait on SB%d removed" % b, p_off, c_off, c_off, 1 << (116 - 64 + b), 0))
                if "stall" in args.kinds:
                    for p_off, c_off in stall_sites(insts):
                        candidates.append(("stall cut to 1", p_off, c_off, p_off, 0xF << (105 - 64), 1 << (105 - 64)))
                candidates = [c for c in candidates if c[1] in ran and c[2] in ran]
                rng.shuffle(candidates)
                for kind, p_off, c_off, patch_off, clear, setbits in sorted(candidates[: args.per_cubin]):
                    at = base + patch_off + 8
                    hi = struct.unpack_from("<Q", data, at)[0]
                    new = (hi & ~clear) | setbits
                    if new == hi:
                        continue
                    patched = bytearray(data)
                    struct.pack_into("<Q", patched, at, new)
                    path = os.path.join(tmp, "injected.cubin")
                    open(path, "wb").write(patched)
                    rc, out, err = run([SASS, "run", "--launch", spec, "--hazards", "fail", path])
                    n_sites += 1
                    per_kind = kinds.setdefault(kind.split()[0], [0, 0])
                    per_kind[0] += 1
                    if rc != 0 and "hazard" in err:
                        n_caught += 1
                        per_kind[1] += 1
                        # Reported at the consumer itself.
                        n_at += "+%#06x:" % c_off in err
                    else:
                        missed.append("sm_%d %s %s: %s, consumer %#06x, producer %#06x: %s" % (sm, name, kernel, kind, c_off, p_off, (err.strip().splitlines() or ["ran clean"])[0][:160]))
            total[sm] = (n_cubins, n_sites, n_caught)
            print("sm_%d: %d cubins run clean; %d injected hazards, %d detected (%d at the consumer)" % (sm, n_cubins, n_sites, n_caught, n_at), flush=True)
    sites_all = sum(t[1] for t in total.values())
    caught_all = sum(t[2] for t in total.values())
    print("all: %d injected hazards, %d detected (%.2f%%)" % (sites_all, caught_all, 100.0 * caught_all / max(sites_all, 1)))
    for kind, (n, caught) in sorted(kinds.items()):
        print("  %s: %d injected, %d detected" % (kind, n, caught))
    for m in missed:
        print("missed: " + m)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
