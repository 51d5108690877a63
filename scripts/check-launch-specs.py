#!/usr/bin/env python3
"""Checks the launch specs of the realistic kernel corpus.

    scripts/check-launch-specs.py [--corpus DIR] [--specs DIR] [--list]

For every `extern "C"` kernel of the corpus (each `.entry` of NAME.sm_90.ptx
in the corpus folder) there must be a spec `SPECS/NAME.KERNEL.json`, and
every spec there must name a kernel of the corpus. Each spec is checked
against the kernel's PTX parameter list:

* valid JSON in the launch-spec format of scripts/README.md ("Launch specs"):
  `kernel` equal to KERNEL, `grid` and `block` of 1 to 3 positive numbers,
  at most 1024 threads per CTA and at most 4096 threads in all,
  `shared_bytes` a count, a `note` string saying why the sizes were chosen;
* as many params as the `.entry` has, each of the PTX parameter's size and
  kind: `.u32`/`.s32`/`.b32` take `u32`/`s32`, `.f32` takes `f32`, `.u64`/
  `.s64`/`.b64` take `buffer`, `same`, `u64` or `s64`, `.f64` takes `f64`,
  `.align N .b8 name[K]` takes `bytes` with exactly K bytes and align N;
* buffers: a positive size, a fill of zero/hex/random (hex exactly `bytes`
  bytes, random with a seed), `output` a boolean; `same` names an earlier
  buffer parameter.

`--list` prints each kernel's PTX parameter list instead. Exits 1 listing
every problem found, 0 when all is well. Standard library only.
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The shared corpus, as the tests find it: $PTX2SASS_CORPUS or ../shared/corpus.
DEFAULT_CORPUS = os.path.join(os.environ.get("PTX2SASS_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus"), "kernels")
DEFAULT_SPECS = os.path.join(ROOT, "tests", "data", "launch")

MAX_BLOCK_THREADS = 1024
MAX_TOTAL_THREADS = 4096

# PTX parameter type -> (size in bytes, spec kinds that may stand for it).
SCALAR_PARAMS = {
    "u32": (4, {"u32", "s32"}), "s32": (4, {"u32", "s32"}), "b32": (4, {"u32", "s32"}),
    "f32": (4, {"f32"}),
    "u64": (8, {"buffer", "same", "u64", "s64"}), "s64": (8, {"buffer", "same", "u64", "s64"}),
    "b64": (8, {"buffer", "same", "u64", "s64"}),
    "f64": (8, {"f64"}),
    "u16": (2, {"u16", "s16"}), "s16": (2, {"u16", "s16"}), "b16": (2, {"u16", "s16", "f16", "bf16"}),
    "f16": (2, {"f16"}),
    "u8": (1, {"u8", "s8"}), "s8": (1, {"u8", "s8"}), "b8": (1, {"u8", "s8"}),
}
SCALAR_SIZES = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
                "u32": 4, "s32": 4, "f32": 4, "u64": 8, "s64": 8, "f64": 8}

ENTRY_RE = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)", re.S)
# `.param .u32 name`, `.param .u64 .ptr .global .align 4 name`,
# `.param .align 4 .b8 name[12]`
PARAM_RE = re.compile(
    r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)(?:\s+\.ptr(?:\s+\.\w+)?(?:\s+\.align\s+\d+)?)?\s+([\w$]+)(?:\[(\d+)\])?")


def entry_params(ptx_text):
    """{kernel: [param]} of a PTX module, param = dict(type, size, align, array)."""
    out = {}
    for m in ENTRY_RE.finditer(ptx_text):
        params = []
        body = m.group(2).strip()
        for piece in [p.strip() for p in body.split(",")] if body else []:
            pm = PARAM_RE.fullmatch(piece)
            if pm is None:
                params.append({"error": f"cannot read parameter '{piece}'"})
                continue
            align, ty, _name, count = pm.groups()
            if count is not None:
                elem = int(re.sub(r"\D", "", ty) or 8) // 8
                size = elem * int(count)
                params.append({"type": ty, "size": size, "align": int(align or elem), "array": True})
            else:
                params.append({"type": ty, "size": SCALAR_PARAMS.get(ty, (0, set()))[0], "array": False})
        out[m.group(1)] = params
    return out


def corpus_kernels(corpus):
    """{(stem, kernel): params} for every .entry of every NAME.sm_90.ptx."""
    kernels = {}
    for f in sorted(os.listdir(corpus)):
        if not f.endswith(".cu"):
            continue
        stem = f[:-3]
        ptx = os.path.join(corpus, stem + ".sm_90.ptx")
        if not os.path.exists(ptx):
            kernels[(stem, None)] = f"{stem}.cu has no {stem}.sm_90.ptx"
            continue
        with open(ptx) as fh:
            for name, params in entry_params(fh.read()).items():
                kernels[(stem, name)] = params
    return kernels


def parse_count(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        try:
            return int(v, 16) if v.lower().startswith("0x") else int(v)
        except ValueError:
            return None
    return None


def is_hex(s):
    s = "".join(s.split())
    return len(s) % 2 == 0 and re.fullmatch(r"[0-9a-fA-F]*", s) is not None


def check_dims(spec, field, problems):
    d = spec.get(field)
    if not isinstance(d, list) or not 1 <= len(d) <= 3:
        problems.append(f"{field}: not a list of 1 to 3 numbers")
        return [1, 1, 1]
    out = []
    for i, v in enumerate(d):
        n = parse_count(v)
        if n is None or n <= 0 or n >= 1 << 32:
            problems.append(f"{field}[{i}]: not a positive 32-bit number")
            n = 1
        out.append(n)
    return out + [1] * (3 - len(out))


def check_param(i, p, ptx, problems, kinds_so_far):
    where = f"params[{i}]"
    if not isinstance(p, dict):
        problems.append(f"{where}: not an object")
        return
    kind = p.get("kind")
    if "error" in ptx:
        problems.append(f"{where}: PTX: {ptx['error']}")
        return
    if ptx["array"] and kind == "buffer" and "tail" in p:
        # A struct whose first field is a buffer's address (CUB's kernel_arg).
        t = p["tail"]
        if not isinstance(t, str) or not is_hex(t):
            problems.append(f"{where}.tail: not hex bytes")
        elif 8 + len(t) // 2 != ptx["size"] or ptx["align"] != 8:
            problems.append(f"{where}: an address and {len(t) // 2} tail bytes for PTX .align {ptx['align']} .b8[{ptx['size']}]")
        return
    if ptx["array"]:
        if kind != "bytes":
            problems.append(f"{where}: PTX .align {ptx['align']} .b8[{ptx['size']}] needs kind 'bytes', spec has '{kind}'")
            return
        h = p.get("hex")
        if not isinstance(h, str) or not is_hex(h):
            problems.append(f"{where}.hex: not hex bytes")
            return
        size = len("".join(h.split())) // 2
        if size != ptx["size"]:
            problems.append(f"{where}.hex: {size} bytes, PTX parameter has {ptx['size']}")
        if parse_count(p.get("align", 1)) != ptx["align"]:
            problems.append(f"{where}.align: {p.get('align')}, PTX parameter has .align {ptx['align']}")
        return
    size, allowed = SCALAR_PARAMS.get(ptx["type"], (0, set()))
    if not allowed:
        problems.append(f"{where}: PTX type .{ptx['type']} not understood by this checker")
        return
    if kind not in allowed:
        problems.append(f"{where}: PTX .{ptx['type']} takes {sorted(allowed)}, spec has '{kind}'")
        return
    if kind == "buffer":
        n = parse_count(p.get("bytes"))
        if n is None or n <= 0:
            problems.append(f"{where}.bytes: not a positive size")
            n = 0
        fill = p.get("fill", "zero")
        if fill == "hex":
            h = p.get("hex")
            if not isinstance(h, str) or not is_hex(h):
                problems.append(f"{where}.hex: not hex bytes")
            elif len("".join(h.split())) // 2 != n:
                problems.append(f"{where}.hex: {len(''.join(h.split())) // 2} bytes, the buffer has {n}")
        elif fill == "random":
            if parse_count(p.get("seed")) is None:
                problems.append(f"{where}.seed: missing or not a number")
        elif fill != "zero":
            problems.append(f"{where}.fill: '{fill}' is not zero, hex or random")
        if not isinstance(p.get("output"), bool):
            problems.append(f"{where}.output: missing or not a boolean")
    elif kind == "same":
        j = parse_count(p.get("param"))
        if j is None or j >= i or kinds_so_far[j] != "buffer":
            problems.append(f"{where}.param: {p.get('param')} is not an earlier buffer parameter")
    else:
        if SCALAR_SIZES[kind] != size:
            problems.append(f"{where}: kind {kind} has {SCALAR_SIZES[kind]} bytes, PTX .{ptx['type']} has {size}")
        v = p.get("value")
        if not isinstance(v, str) or not re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
            problems.append(f"{where}.value: not a hex bit pattern string")
        elif int(v, 16) >> (8 * SCALAR_SIZES[kind]):
            problems.append(f"{where}.value: {v} does not fit {kind}")


def check_spec(path, kernel, ptx_params):
    problems = []
    try:
        with open(path) as fh:
            spec = json.load(fh)
    except (OSError, ValueError) as e:
        return [f"not JSON: {e}"]
    if not isinstance(spec, dict):
        return ["the spec is not a JSON object"]
    if spec.get("kernel") != kernel:
        problems.append(f"kernel: '{spec.get('kernel')}', the file name says '{kernel}'")
    grid = check_dims(spec, "grid", problems)
    block = check_dims(spec, "block", problems)
    per_cta = block[0] * block[1] * block[2]
    total = per_cta * grid[0] * grid[1] * grid[2]
    if per_cta > MAX_BLOCK_THREADS:
        problems.append(f"block: {per_cta} threads per CTA, more than {MAX_BLOCK_THREADS}")
    if total > MAX_TOTAL_THREADS:
        problems.append(f"grid x block: {total} threads, more than {MAX_TOTAL_THREADS}")
    sb = parse_count(spec.get("shared_bytes", 0))
    if sb is None or sb < 0 or sb > 48 * 1024:
        problems.append("shared_bytes: not a count up to 48 KiB")
    if not isinstance(spec.get("note"), str) or not spec["note"].strip():
        problems.append("note: missing (say why the sizes and values were chosen)")
    params = spec.get("params", [])
    if not isinstance(params, list):
        return problems + ["params: not a list"]
    if len(params) != len(ptx_params):
        problems.append(f"params: {len(params)} given, the PTX .entry has {len(ptx_params)}")
    kinds = [p.get("kind") if isinstance(p, dict) else None for p in params]
    for i, (p, q) in enumerate(zip(params, ptx_params)):
        check_param(i, p, q, problems, kinds)
    return problems


def describe(params):
    parts = []
    for p in params:
        if "error" in p:
            parts.append("?")
        elif p["array"]:
            parts.append(f".align {p['align']} .b8[{p['size']}]")
        else:
            parts.append("." + p["type"])
    return ", ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--specs", default=DEFAULT_SPECS)
    ap.add_argument("--list", action="store_true", help="print each kernel's PTX parameters")
    args = ap.parse_args()
    corpus = args.corpus
    if not os.path.isdir(corpus):
        print(f"corpus folder {corpus} not found (use --corpus)", file=sys.stderr)
        return 2
    kernels = corpus_kernels(corpus)
    if args.list:
        for (stem, name), params in sorted(kernels.items()):
            print(f"{stem}.{name}({describe(params) if isinstance(params, list) else params})")
        return 0
    problems = []
    for key, params in sorted(kernels.items()):
        if isinstance(params, str):
            problems.append(params)
            continue
        stem, name = key
        path = os.path.join(args.specs, f"{stem}.{name}.json")
        if not os.path.exists(path):
            problems.append(f"{stem}.{name}: no spec {os.path.relpath(path)}")
            continue
        problems += [f"{stem}.{name}.json: {p}" for p in check_spec(path, name, params)]
    for f in sorted(os.listdir(args.specs)) if os.path.isdir(args.specs) else []:
        if f.endswith(".json"):
            parts = f[:-5].split(".")
            if len(parts) != 2 or tuple(parts) not in kernels:
                problems.append(f"{f}: names no kernel of the corpus (NAME.KERNEL.json)")
    for p in problems:
        print(p)
    n = sum(1 for v in kernels.values() if isinstance(v, list))
    print(f"{n} kernels, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
