#!/usr/bin/env bash
# Triton as a user of ptx2sass.
#
#   scripts/triton-corpus.sh [compile] [PTX2SASS]   compile corpus/triton/*.py with Triton
#   scripts/triton-corpus.sh report [PTX2SASS]      compare ptx2sass with ptxas on that PTX
#
# compile: installs the pinned Triton from PyPI into a virtual environment
# ($TRITON_VENV, default .reference/triton-$TRITON_VERSION; no torch: kernels
# are compiled with triton.compile, ASTSource and explicit signatures, without a
# GPU), then compiles every kernel of corpus/triton/*.py for the compute
# capabilities $TRITON_CCS (default 80,90,100,120; Triton picks sm_80, sm_90a,
# sm_100a, sm_120a) with TRITON_PTXAS_PATH and TRITON_PTXAS_BLACKWELL_PATH both
# naming scripts/triton-ptxas-wrapper.sh, which records Triton's unchanged ptxas
# command line and runs ptx2sass (default target/release/ptx2sass). Writes into
# target/triton-corpus/ (wiped first): per kernel and capability TAG =
# <kernel>.sm_<CC>, TAG.ptx (Triton's PTX), TAG.cmd (its ptxas command line, temp
# names as X.ptx), TAG.rc/.stdout/.stderr (ptx2sass's answer), TAG.cubin and
# TAG.outcome (Triton's verdict). Same Triton, same ptx2sass: same files.
#
# report: for every TAG.ptx there, runs ptxas and ptx2sass with -arch=compute_XX
# (parse and check only) and with Triton's command line, and tabulates per file:
# parse-only verdicts equal, compiled by ptxas / by ptx2sass, nvdisasm reads our
# cubin, two runs byte-identical, -v lines' fields equal to ptxas's, the
# outputs of our cubin and ptxas's in the SASS interpreter (`sass run`, SASS
# default target/release/sass) for the kernels with a launch spec in
# corpus/triton/launch/<kernel>.json, and ptx2sass's first error. Writes target/triton-corpus/report.tsv and prints a
# summary per capability.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE=compile
case "${1:-}" in compile|report) MODE="$1"; shift ;; esac
OURS="${1:-$ROOT/target/release/ptx2sass}"
TRITON_VERSION="${TRITON_VERSION:-3.9.0}"
VENV="${TRITON_VENV:-$ROOT/.reference/triton-$TRITON_VERSION}"
OUT="$ROOT/target/triton-corpus"
CCS="${TRITON_CCS:-80,90,100,120}"

die() { echo "triton-corpus: $*" >&2; exit 2; }
[[ -x "$OURS" ]] || die "$OURS is not an executable (cargo build --release --bin ptx2sass, or name one)"
OURS="$(cd "$(dirname "$OURS")" && pwd)/$(basename "$OURS")"

if [[ "$MODE" == report ]]; then
  [[ -x "$ROOT/.reference/bin/ptxas" ]] || "$ROOT/scripts/install-reference.sh"
  SASS="${SASS:-$ROOT/target/release/sass}"
  [[ -x "$SASS" ]] || die "$SASS is not an executable (cargo build --release --bin sass)"
  exec python3 "$ROOT/scripts/triton_corpus.py" report "$OUT" "$OURS" "$ROOT/.reference/bin" "$SASS" "$ROOT/corpus/triton/launch"
fi

if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c "import triton, sys; sys.exit(triton.__version__ != '$TRITON_VERSION')" 2>/dev/null; then
  echo "triton-corpus: installing triton==$TRITON_VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "triton==$TRITON_VERSION"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/triton-corpus.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export TRITON_CORPUS_DIR="$OUT" TRITON_CORPUS_PTX2SASS="$OURS"
export TRITON_PTXAS_PATH="$ROOT/scripts/triton-ptxas-wrapper.sh"
export TRITON_PTXAS_BLACKWELL_PATH="$ROOT/scripts/triton-ptxas-wrapper.sh"
# A fresh cache: every kernel is compiled, and ptx2sass is asked every time.
export TRITON_CACHE_DIR="$WORK/cache" TRITON_HOME="$WORK"
# Pinned rather than left to the release default (Triton 3.10 changes it).
export TRITON_DEFAULT_FP_FUSION=1
cd "$ROOT"
"$VENV/bin/python" "$ROOT/scripts/triton_corpus.py" compile "$OUT" "$CCS" corpus/triton/*.py | tee "$OUT/outcomes.txt"
ok=$(grep -c ': ok$' "$OUT/outcomes.txt" || true)
echo "triton-corpus: $ok of $(wc -l <"$OUT/outcomes.txt") compilations accepted by Triton with ptx2sass as ptxas" >&2
