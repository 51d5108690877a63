#!/usr/bin/env python3
"""Compares ptx2sass's debug sections with ptxas's over `-G` PTX files.

    scripts/debug-info-compare.py [--ours BIN] [--sm sm_80 ...] PATH...

PATH: PTX files or folders of them (`.ptx`). Each file is compiled with
`-g` by ptxas (.reference/bin) and by ptx2sass for each SM (default: the
SM of the file's `.target`). For each of our cubins it checks:

* sections: the debug sections (`.debug_*`, `.nv_debug_*` and their
  relocation sections) equal ptxas's, in order, but for
  `.nv_debug_info_reg_sass` and `.nv_debug_info_reg_type` (register
  locations, not written yet; counted apart);
* read: `nvdisasm -g` and `cuobjdump -elf` read the cubin without errors;
* dies: `llvm-dwarfdump --debug-info` prints the same DIE tree for both,
  code addresses (16 hex digits) masked;
* maps: the register maps of each cubin that has them (ptxas's always)
  parse as docs/debug-info.md describes them: the two sections list the
  same functions with the same counts, every type code and register
  class is a known one, every range is ordered, and the functions are
  the cubin's (`maps ok` counts ptxas's cubins, `our maps ok` ours).

Prints one line per file and SM with the failures, then the totals; exits
1 when a check fails on a cubin we wrote. Needs llvm-dwarfdump on PATH for
the DIE check (skipped without it).
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.path.join(ROOT, ".reference", "bin")
NOT_WRITTEN = {".nv_debug_info_reg_sass", ".nv_debug_info_reg_type"}


def section_names(path):
    data = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    entsize, count, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    names_at = headers[shstrndx][4]
    return [data[names_at + h[0]:data.index(b"\0", names_at + h[0])].decode() for h in headers]


def debug_sections(path):
    return [n for n in section_names(path) if re.match(r"^(\.rela?)?\.(debug_|nv_debug_)", n)]


def section_bytes(path, name):
    data = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    entsize, count, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    names_at = headers[shstrndx][4]
    for h in headers:
        if data[names_at + h[0]:data.index(b"\0", names_at + h[0])].decode() == name:
            return data[h[4]:h[4] + h[5]]
    return None


def map_problems(path):
    """What does not parse in a cubin's register maps (None: it has none)."""
    sass, types = section_bytes(path, ".nv_debug_info_reg_sass"), section_bytes(path, ".nv_debug_info_reg_type")
    if sass is None and types is None:
        return None
    if sass is None or types is None:
        return ["one register map section without the other"]
    functions = {n[len(".text."):] for n in section_names(path) if n.startswith(".text.")}
    problems, at, type_at = [], 0, 0

    def name(b, i):
        j = b.index(b"\0", i)
        return b[i:j].decode(errors="replace"), j + 1
    try:
        while at < len(sass):
            f, at = name(sass, at)
            n, = struct.unpack_from("<I", sass, at)
            at += 4
            tf, type_at = name(types, type_at)
            tn, = struct.unpack_from("<I", types, type_at)
            type_at += 4
            if (tf, tn) != (f, n):
                problems.append(f"{f}: {n} entries, types {tf} {tn}")
            if f not in functions:
                problems.append(f"{f}: not a function of the cubin")
            for _ in range(n):
                part, = struct.unpack_from("<I", sass, at)
                reg, at = name(sass, at + 4)
                place, start, end = struct.unpack_from("<III", sass, at)
                at += 12
                if part > 1 or place >> 24 not in (2, 4, 5) or start > end or types[type_at] > 16:
                    problems.append(f"{f} {reg}: word {part}, place {place:#x}, {start:#x}..{end:#x}, type {types[type_at]}")
                type_at += 1
        if type_at != len(types):
            problems.append(f"{len(types) - type_at} bytes after the last type")
    except (ValueError, struct.error, IndexError) as e:
        problems.append(f"cut short: {e}")
    return problems


def dies(path):
    out = subprocess.run(["llvm-dwarfdump", "--debug-info", path], capture_output=True, text=True).stdout
    lines = out.splitlines()[1:]  # the first names the file
    return [re.sub(r"0x[0-9a-f]{16}", "ADDR", line) for line in lines]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", default=os.path.join(ROOT, "target", "release", "ptx2sass"))
    ap.add_argument("--sm", action="append")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".ptx"))
        else:
            files.append(p)
    have_dwarfdump = shutil.which("llvm-dwarfdump") is not None
    totals = {"cubins": 0, "not compiled": 0, "ref failed": 0, "sections equal": 0, "sections equal but register maps": 0, "read": 0, "dies equal": 0, "maps ok": 0, "our maps ok": 0}
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            text = open(f, errors="replace").read()
            m = re.search(r"^\s*\.target\s+(sm_\d+)", text, re.M)
            sms = args.sm or ([m.group(1)] if m else ["sm_80"])
            for sm in sms:
                ref, ours = os.path.join(tmp, "ref.cubin"), os.path.join(tmp, "ours.cubin")
                if run([os.path.join(REF, "ptxas"), "-g", f"-arch={sm}", f, "-o", ref]).returncode != 0:
                    totals["ref failed"] += 1
                    continue
                if run([args.ours, "-g", f"-arch={sm}", f, "-o", ours]).returncode != 0:
                    totals["not compiled"] += 1
                    print(f"{os.path.basename(f)} {sm}: not compiled")
                    continue
                totals["cubins"] += 1
                problems = []
                ref_sections, our_sections = debug_sections(ref), debug_sections(ours)
                if ref_sections == our_sections:
                    totals["sections equal"] += 1
                elif [s for s in ref_sections if not any(s.endswith(n) for n in NOT_WRITTEN)] == our_sections:
                    totals["sections equal but register maps"] += 1
                else:
                    problems.append(f"sections {our_sections} != {ref_sections}")
                reads = [run([os.path.join(REF, "nvdisasm"), "-g", ours]), run([os.path.join(REF, "cuobjdump"), "-elf", ours])]
                if all(r.returncode == 0 and "error" not in r.stderr.lower() for r in reads):
                    totals["read"] += 1
                else:
                    problems.append("nvdisasm -g / cuobjdump -elf: " + " | ".join(r.stderr.strip()[:200] for r in reads))
                if have_dwarfdump:
                    a, b = dies(ref), dies(ours)
                    if a == b:
                        totals["dies equal"] += 1
                    else:
                        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                        problems.append(f"DIE trees differ at line {diff}: {a[diff:diff+1]} vs {b[diff:diff+1]}")
                for path, key, ours_ in ((ref, "maps ok", False), (ours, "our maps ok", True)):
                    mp = map_problems(path)
                    if mp == []:
                        totals[key] += 1
                    elif mp:
                        problems.append(("our" if ours_ else "ptxas's") + " register maps: " + "; ".join(mp[:3]))
                if problems:
                    failed = True
                print(f"{os.path.basename(f)} {sm}: " + ("ok" if not problems else "; ".join(problems)))
    print(" ".join(f"{k}={v}" for k, v in totals.items()))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
