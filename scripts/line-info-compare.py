#!/usr/bin/env python3
"""Compares ptx2sass's line information with ptxas's over PTX files with `.loc`.

    scripts/line-info-compare.py [--ours BIN] [--sm sm_90 ...] PATH...

PATH: PTX files or folders of them; files without a `.loc` line are left
out. Each file is compiled with `-lineinfo` by ptxas (.reference/bin) and by
ptx2sass for each SM (default: the SM of the file's `.target`, at least
sm_75). For each of our cubins it checks:

* cover: every instruction of each kernel section lies in a sequence of
  `.debug_line` (a row at the section's start, the sequence running to its
  end);
* disasm: `nvdisasm -g` reads the cubin, and every instruction it prints
  comes after a `//## File ..., line N` annotation whose line is a `.loc`
  line of the PTX between the kernel's header and the next function's
  (or of a device function: those placed in the kernel's section);
  `nvdisasm -gp` and `cuobjdump -elf` read it without errors;
* lines: per kernel, the set of (file, line) that `.debug_line` covers
  equals ptxas's (sections ptxas writes that our cubin has not, device
  functions it compiles on their own, are counted apart).

Prints one line per file and SM with the failures, then the totals; exits
1 when a check fails on a cubin we wrote (files ptx2sass does not compile
are counted, not failed). Uses only the standard library.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.path.join(ROOT, ".reference", "bin")


def elf_sections(data):
    """name -> (type, offset, size, link, info, entsize, bytes)"""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    entsize, count, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    names_at = headers[shstrndx][4]
    out = {}
    order = []
    for h in headers:
        name = data[names_at + h[0]:data.index(b"\0", names_at + h[0])].decode()
        body = data[h[4]:h[4] + h[5]] if h[1] != 8 else b""
        out[name] = (h[1], h[4], h[5], h[6], h[7], h[9], body)
        order.append(name)
    return out, order


def symbols(data, secs):
    _, _, _, link, _, _, body = secs[".symtab"]
    names = list(secs.values())
    strtab = secs[".strtab"][6]
    out = []
    for k in range(len(body) // 24):
        name_at, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", body, 24 * k)
        out.append(strtab[name_at:strtab.index(b"\0", name_at)].decode())
    return out


def relocations(secs, target, syms):
    """offset -> symbol name, from .rela<target> or .rel<target>."""
    out = {}
    for prefix, size in ((".rela", 24), (".rel", 16)):
        sec = secs.get(prefix + target)
        if not sec:
            continue
        body = sec[6]
        for k in range(len(body) // size):
            offset, info = struct.unpack_from("<QQ", body, size * k)
            out[offset] = syms[info >> 32]
    return out


def uleb(d, i):
    r = s = 0
    while True:
        b = d[i]
        i += 1
        r |= (b & 0x7F) << s
        s += 7
        if b < 0x80:
            return r, i


def sleb(d, i):
    r = s = 0
    while True:
        b = d[i]
        i += 1
        r |= (b & 0x7F) << s
        s += 7
        if b < 0x80:
            if b & 0x40:
                r -= 1 << s
            return r, i


def line_programs(d):
    """[(files, [(address_field_offset, rows[(addr, file, line)], end)])]"""
    out = []
    i = 0
    while i + 10 <= len(d):
        length, = struct.unpack_from("<I", d, i)
        end = i + 4 + length
        header_length, = struct.unpack_from("<I", d, i + 6)
        p = i + 10
        min_inst, line_base, line_range, opcode_base = d[p], struct.unpack_from("<b", d, p + 2)[0], d[p + 3], d[p + 4]
        p += 5 + opcode_base - 1
        dirs = [""]
        while d[p]:
            e = d.index(b"\0", p)
            dirs.append(d[p:e].decode())
            p = e + 1
        p += 1
        files = [None]
        while d[p]:
            e = d.index(b"\0", p)
            name = d[p:e].decode()
            p = e + 1
            di, p = uleb(d, p)
            _, p = uleb(d, p)
            _, p = uleb(d, p)
            files.append(name if name.startswith("/") or not dirs[di] else dirs[di] + "/" + name)
        p = i + 10 + header_length
        seqs, rows, addr, f, line, at = [], [], 0, 1, 1, None
        while p < end:
            op = d[p]
            p += 1
            if op >= opcode_base:
                a = op - opcode_base
                addr += (a // line_range) * min_inst
                line += line_base + a % line_range
                rows.append((addr, f, line))
            elif op == 0:
                n, p = uleb(d, p)
                sub = d[p]
                if sub == 1:
                    seqs.append((at, rows, addr))
                    rows, addr, f, line = [], 0, 1, 1
                elif sub == 2:
                    at = p + 1
                    addr, = struct.unpack_from("<Q", d, p + 1)
                p += n
            elif op == 1:
                rows.append((addr, f, line))
            elif op == 2:
                a, p = uleb(d, p)
                addr += a * min_inst
            elif op == 3:
                a, p = sleb(d, p)
                line += a
            elif op == 4:
                f, p = uleb(d, p)
            elif op in (5, 12):
                _, p = uleb(d, p)
            elif op == 8:
                addr += ((255 - opcode_base) // line_range) * min_inst
            elif op == 9:
                a, = struct.unpack_from("<H", d, p)
                p += 2
                addr += a
        out.append((files, seqs))
        i = end
    return out


def covered_lines(path):
    """kernel -> (set of (file, line), section size, first row address, sequence end)"""
    data = open(path, "rb").read()
    secs, _ = elf_sections(data)
    if ".debug_line" not in secs:
        return {}
    syms = symbols(data, secs)
    relocs = relocations(secs, ".debug_line", syms)
    out = {}
    for files, seqs in line_programs(secs[".debug_line"][6]):
        for at, rows, end in seqs:
            name = relocs.get(at, "?")
            size = secs.get(".text." + name, (0, 0, 0))[2]
            lines = {(files[f] if 0 <= f < len(files) else f, l) for _, f, l in rows}
            out[name] = (lines, size, rows[0][0] if rows else None, end)
    return out


def loc_lines_by_function(ptx):
    """function name -> set of .loc lines between its header and the next function's."""
    out = {}
    current = None
    header = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$.]*)")
    for text in ptx.split("\n"):
        m = header.match(text)
        if m:
            current = m.group(1)
            out.setdefault(current, set())
            continue
        m = re.match(r"^\s*\.loc\s+(\d+)\s+(\d+)", text)
        if m and current:
            out[current].add(int(m.group(2)))
    return out


def check_disassembly(path, locs, device_functions, problems):
    r = subprocess.run([os.path.join(REF, "nvdisasm"), "-g", "-c", path], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append(f"nvdisasm -g exit {r.returncode}: {r.stderr.strip()[:200]}")
        return
    device_lines = set().union(*(locs.get(f, set()) for f in device_functions)) if device_functions else set()
    section, line, bad = None, None, 0
    for text in r.stdout.split("\n"):
        m = re.match(r"^//-+ \.text\.(\S+)", text)
        if m:
            # nvdisasm prints a line only where it changes, across sections
            # too: the line in force carries over.
            section = m.group(1)
            continue
        m = re.match(r'^\s*//## File ".*", line (\d+)', text)
        if m:
            line = int(m.group(1))
            continue
        if section and re.match(r"^\s*/\*[0-9a-f]{4,}\*/", text):
            # Device functions placed in a kernel's section keep their
            # own lines (ptxas's too).
            allowed = locs.get(section, set()) | device_lines
            if line is None or line not in allowed:
                bad += 1
    if bad:
        problems.append(f"nvdisasm -g: {bad} instructions without a .loc line of their function")
    for tool, args in (("nvdisasm", ["-gp", "-c"]), ("cuobjdump", ["-elf"])):
        r = subprocess.run([os.path.join(REF, tool)] + args + [path], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"{tool} {' '.join(args)} exit {r.returncode}")


def target_sm(ptx):
    m = re.search(r"^\s*\.target\s+sm_(\d+)([a-z]?)", ptx, re.M)
    if not m:
        return "sm_90"
    number = int(m.group(1))
    return f"sm_{number}{m.group(2)}" if number >= 75 else "sm_75"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", default=os.path.join(ROOT, "target", "release", "ptx2sass"))
    ap.add_argument("--sm", action="append", help="SM to compile for (repeatable); default: the file's .target")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".ptx"))
        else:
            files.append(p)
    totals = {"files": 0, "ours_failed": 0, "ptxas_failed": 0, "functions": 0, "equal": 0, "failed_checks": 0, "absent": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            ptx = open(path, encoding="utf-8", errors="replace").read()
            if not re.search(r"^\s*\.loc\s", ptx, re.M):
                continue
            locs = loc_lines_by_function(ptx)
            device_funcs = set(re.findall(r"\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$.]*)", ptx))
            for sm in args.sm or [target_sm(ptx)]:
                totals["files"] += 1
                ref, ours = os.path.join(tmp, "ref.cubin"), os.path.join(tmp, "ours.cubin")
                name = f"{os.path.basename(path)} {sm}"
                r = subprocess.run([os.path.join(REF, "ptxas"), f"-arch={sm}", "-lineinfo", path, "-o", ref], capture_output=True)
                if r.returncode != 0:
                    totals["ptxas_failed"] += 1
                    print(f"{name}: ptxas fails")
                    continue
                r = subprocess.run([args.ours, f"-arch={sm}", "-lineinfo", path, "-o", ours], capture_output=True)
                if r.returncode != 0:
                    totals["ours_failed"] += 1
                    print(f"{name}: ptx2sass fails")
                    continue
                problems = []
                theirs, mine = covered_lines(ref), covered_lines(ours)
                for kernel, (lines, size, first, end) in sorted(mine.items()):
                    if first != 0 or end < size:
                        problems.append(f"{kernel}: rows cover {first}..{end} of {size} bytes")
                for kernel, (lines, _, _, _) in sorted(theirs.items()):
                    if kernel not in mine:
                        # A section ptxas writes and we do not (a device
                        # function ptxas compiles on its own): no code of
                        # ours to compare.
                        totals["absent"] += 1
                        continue
                    totals["functions"] += 1
                    got = mine[kernel][0]
                    if got == lines:
                        totals["equal"] += 1
                    else:
                        only_ptxas = sorted(l for _, l in lines - got)
                        only_ours = sorted(l for _, l in got - lines)
                        print(f"{name}: {kernel}: lines differ (ptxas only {only_ptxas}, ours only {only_ours})")
                check_disassembly(ours, locs, device_funcs, problems)
                if problems:
                    totals["failed_checks"] += 1
                print(f"{name}: " + ("; ".join(problems) if problems else "ok"))
    t = totals
    share = 100.0 * t["equal"] / t["functions"] if t["functions"] else 0.0
    print(f"compilations {t['files']}, ptxas failed {t['ptxas_failed']}, ptx2sass failed {t['ours_failed']}, "
          f"checks failed {t['failed_checks']}; kernels {t['functions']}, same line set {t['equal']} ({share:.1f}%); "
          f"sections of ptxas's with no counterpart in ours {t['absent']}")
    return 1 if t["failed_checks"] else 0


if __name__ == "__main__":
    sys.exit(main())
