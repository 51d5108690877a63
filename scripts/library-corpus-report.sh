#!/usr/bin/env bash
# Compiles every PTX file of the library corpus (target/library-corpus/
# sm_XX/NAME.ptx, built by scripts/library-corpus.sh) with ptx2sass and with
# ptxas, for its SM, and reports how far ptx2sass gets.
#
#   scripts/library-corpus-report.sh [PTX2SASS]     (default target/release/ptx2sass)
#
# Prints, per SM, the files ptxas accepts and the files ptx2sass compiles,
# then a ranked table of ptx2sass's error kinds: the message of each error
# with names, registers and locations stripped, and instructions cut to
# their opcode and first qualifier ("unsupported in lowering: shfl.sync").
# A kind is ranked by how many compilations it stops first: the first error
# of each failing kernel, or of the file when the error names no kernel
# (a parse error stops the whole file). Writes one line per file to
# target/library-corpus/report.tsv and the ranked kinds to
# target/library-corpus/report-kinds.tsv.
#
# JOBS (default 2) compiles that many files at once; TIMEOUT (default 600)
# limits each compilation, in seconds.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OURS="${1:-$ROOT/target/release/ptx2sass}"
CORPUS="$ROOT/target/library-corpus"
PTXAS="$ROOT/.reference/bin/ptxas"
JOBS="${JOBS:-2}"
TIMEOUT="${TIMEOUT:-600}"

die() { echo "library-corpus-report: $*" >&2; exit 2; }
[[ -x "$OURS" ]] || die "$OURS is not an executable (build it with cargo build --release --bin ptx2sass, or name one)"
[[ -x "$PTXAS" ]] || "$ROOT/scripts/install-reference.sh"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to tabulate the results"
mapfile -t SM_DIRS < <(find "$CORPUS" -mindepth 1 -maxdepth 1 -type d -name 'sm_*' -printf '%f\n' | sort -t_ -k2 -n)
[[ ${#SM_DIRS[@]} -gt 0 ]] || die "no $CORPUS/sm_XX folders; run scripts/library-corpus.sh first"
OURS="$(cd "$(dirname "$OURS")" && pwd)/$(basename "$OURS")"

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/library-corpus-report.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# Writes SCRATCH/SM/NAME.{ptxas,ours} (exit status) and NAME.err (ptx2sass's stderr).
compile() {
  local sm="$1" name="$2"
  local ptx="$CORPUS/$sm/$name.ptx" out="$SCRATCH/$sm/$name"
  local rc=0
  timeout "$TIMEOUT" "$PTXAS" -arch="$sm" "$ptx" -o "$out.ptxas.cubin" >/dev/null 2>"$out.ptxas.err" || rc=$?
  echo "$rc" >"$out.ptxas"
  rc=0
  timeout "$TIMEOUT" "$OURS" -arch="$sm" "$ptx" -o "$out.ours.cubin" >/dev/null 2>"$out.err" || rc=$?
  echo "$rc" >"$out.ours"
  rm -f "$out.ptxas.cubin" "$out.ours.cubin"
}

echo "library-corpus-report: $("$OURS" --version 2>/dev/null | head -n 1 || echo "$OURS") against ptxas, ${#SM_DIRS[@]} SMs, $JOBS at a time" >&2
running=0
for sm in "${SM_DIRS[@]}"; do
  mkdir -p "$SCRATCH/$sm"
  while IFS= read -r ptx; do
    compile "$sm" "$(basename "$ptx" .ptx)" &
    running=$((running + 1))
    if (( running >= JOBS )); then
      wait -n || true
      running=$((running - 1))
    fi
  done < <(find "$CORPUS/$sm" -maxdepth 1 -name '*.ptx' -type f | LC_ALL=C sort)
done
wait

python3 - "$CORPUS" "$SCRATCH" "$TIMEOUT" "${SM_DIRS[@]}" <<'PY'
import collections
import os
import re
import sys

corpus, scratch, timeout, sms = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

TYPE = re.compile(r"^(?:[bsuf](?:8|16|32|64|128)|f16x2|bf16|bf16x2|e4m3x2|e5m2x2|pred|v[248])$")


def short_instruction(text):
    """`atom.shared.cta.add.u32` -> `atom.shared`: opcode and first qualifier, types dropped."""
    parts = [p for p in text.split(".") if p and not TYPE.match(p)]
    return ".".join(parts[:2]) if parts else text


def strip_names(msg):
    msg = re.sub(r"_Z[\w$]+", "<fn>", msg)
    msg = re.sub(r"\$[\w$]+", "<label>", msg)
    msg = re.sub(r"%(?:r|rd|f|fd|p|rs|h|hh|q)\d+\b", "%reg", msg)
    msg = re.sub(r"\b0x[0-9a-fA-F]+\b", "N", msg)
    msg = re.sub(r"(?<![\w.%])\d{2,}\b", "N", msg)
    return msg.strip()


def parse(line):
    """(kernel or None, detailed message, kind) of one ptx2sass error line, or None."""
    m = re.search(r"(?:^|: )(?:error|fatal error): (.*)$", line)
    if not m:
        return None
    msg = m.group(1)
    kernel = None
    tail = re.search(r"\s*\(in ([^)]*)\)\s*$", msg)
    if tail:
        kernel = tail.group(1)
        msg = msg[: tail.start()]
    stage = re.match(r"^([a-z][a-z_-]*): ([^\s:]+): (.*)$", msg)
    if stage:
        kernel = kernel or stage.group(2)
        # "lower: K: unsupported in lowering: X" says its stage already.
        msg = stage.group(3) if "lowering" in stage.group(3) else f"{stage.group(1)}: {stage.group(3)}"
    detail = strip_names(msg)
    kind = re.sub(r"^(unsupported[^:]*: )([\w.]+)", lambda k: k.group(1) + short_instruction(k.group(2)), detail)
    return kernel, detail, kind


def status_kind(rc):
    if rc == 124:
        return f"timeout after {timeout} s"
    if rc > 128:
        return f"killed by signal {rc - 128}"
    return f"exit status {rc} without an error message"


def panic(text):
    m = re.search(r"panicked at [^\n]*?:\d+:\d+:\n(.*)", text)
    if m:
        return "panic: " + strip_names(m.group(1))
    m = re.search(r"panicked at '([^']*)'", text)
    return "panic: " + strip_names(m.group(1)) if m else None


rows = []
per_sm = collections.OrderedDict()
first_units = collections.Counter()   # kind -> compilations (kernels, or whole files) it stops first
occurrences = collections.Counter()   # kind -> error lines
files_with = collections.defaultdict(set)
example = {}

for sm in sms:
    stats = per_sm.setdefault(sm, {"files": 0, "ptxas": 0, "ours": 0, "kernels": 0, "kernels_ok_files": 0, "clean": 0})
    for name in sorted(f[:-4] for f in os.listdir(os.path.join(corpus, sm)) if f.endswith(".ptx")):
        with open(os.path.join(corpus, sm, name + ".ptx")) as fh:
            kernels = len(re.findall(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s", fh.read(), re.M))
        base = os.path.join(scratch, sm, name)
        ptxas_rc = int(open(base + ".ptxas").read())
        ours_rc = int(open(base + ".ours").read())
        err = open(base + ".err", errors="replace").read()
        stats["files"] += 1
        stats["kernels"] += kernels
        stats["ptxas"] += ptxas_rc == 0
        stats["ours"] += ours_rc == 0
        if ours_rc == 0:
            stats["kernels_ok_files"] += kernels
        errors = [e for e in (parse(l) for l in err.splitlines()) if e]
        if ours_rc != 0 and not errors:
            kind = panic(err) or status_kind(ours_rc)
            errors = [(None, kind, kind)]
        first_of_kernel = {}
        file_first = None
        for kernel, detail, kind in errors:
            occurrences[kind] += 1
            files_with[kind].add((sm, name))
            example.setdefault(kind, detail)
            if kernel is None:
                file_first = file_first or kind
            else:
                first_of_kernel.setdefault(kernel, kind)
        if file_first is not None and not first_of_kernel:
            first_units[file_first] += 1
        elif ours_rc == 0 or first_of_kernel:
            stats["clean"] += kernels - len(first_of_kernel)
        for kind in first_of_kernel.values():
            first_units[kind] += 1
        first_kind, first_detail = (errors[0][2], errors[0][1]) if errors else ("", "")
        rows.append([sm, name, kernels, "ok" if ptxas_rc == 0 else f"fail({ptxas_rc})",
                     "ok" if ours_rc == 0 else f"fail({ours_rc})", len(errors), len(first_of_kernel),
                     first_kind, first_detail])

with open(os.path.join(corpus, "report.tsv"), "w") as out:
    out.write("sm\tfile\tkernels\tptxas\tptx2sass\terror_lines\tfailing_kernels\tfirst_error_kind\tfirst_error\n")
    for r in rows:
        out.write("\t".join(str(c).replace("\t", " ") for c in r) + "\n")

ranked = sorted(first_units.items(), key=lambda kv: (-kv[1], kv[0]))
# Kinds that never come first in a kernel or file still rank, after those that do.
ranked += sorted(((k, 0) for k in occurrences if k not in first_units), key=lambda kv: (-occurrences[kv[0]], kv[0]))
with open(os.path.join(corpus, "report-kinds.tsv"), "w") as out:
    out.write("rank\tfirst_errors\toccurrences\tfiles\tkind\texample\n")
    for i, (kind, n) in enumerate(ranked, 1):
        out.write(f"{i}\t{n}\t{occurrences[kind]}\t{len(files_with[kind])}\t{kind}\t{example[kind]}\n")

print("per SM: files ptxas accepts / files ptx2sass compiles; kernels: all, in the files ptx2sass compiles,")
print("and with no error of their own (a file stopped by an error that names no kernel counts none)")
print(f"{'sm':<8}{'files':>6}{'ptxas':>7}{'ptx2sass':>10}{'kernels':>9}{'compiled':>10}{'no error':>10}")
total = collections.Counter()
for sm, s in per_sm.items():
    print(f"{sm:<8}{s['files']:>6}{s['ptxas']:>7}{s['ours']:>10}{s['kernels']:>9}{s['kernels_ok_files']:>10}{s['clean']:>10}")
    total.update(s)
print(f"{'all':<8}{total['files']:>6}{total['ptxas']:>7}{total['ours']:>10}{total['kernels']:>9}{total['kernels_ok_files']:>10}{total['clean']:>10}")
print()
print("ptx2sass error kinds, ranked by the compilations each stops first (first error of a kernel,")
print("or of the file for errors that name no kernel); occurrences = error lines, files = sm/file pairs")
print(f"{'#':>3} {'first':>6} {'occur':>7} {'files':>6}  kind")
for i, (kind, n) in enumerate(ranked, 1):
    print(f"{i:>3} {n:>6} {occurrences[kind]:>7} {len(files_with[kind]):>6}  {kind}")
print()
print("per-file results: target/library-corpus/report.tsv, kinds: target/library-corpus/report-kinds.tsv")
PY
