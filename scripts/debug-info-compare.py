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
  code addresses (16 hex digits) masked.

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
    totals = {"cubins": 0, "not compiled": 0, "ref failed": 0, "sections equal": 0, "sections equal but register maps": 0, "read": 0, "dies equal": 0}
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
                if problems:
                    failed = True
                print(f"{os.path.basename(f)} {sm}: " + ("ok" if not problems else "; ".join(problems)))
    print(" ".join(f"{k}={v}" for k, v in totals.items()))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
