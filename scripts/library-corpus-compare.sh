#!/usr/bin/env bash
# Outputs of ptx2sass's cubins against ptxas's over the library corpus's
# launch specs (corpus/library/launch/NAME.KERNEL.json): both cubins of
# target/library-corpus/sm_XX/NAME.ptx run in the SASS interpreter on the
# same launch, both with hazard checking (--hazards fail: ptxas's code is
# correct, so a hazard reported in it is a false alarm of the checker, and
# the spec shows as not-runnable; PTXAS_HAZARDS=off runs ptxas's unchecked).
#
#   scripts/library-corpus-compare.sh [--sm 90] [--kernels] [FILTER]
#
# --kernels compares the shared corpus's kernels instead
# ($PTX2SASS_CORPUS, default ../shared/corpus: kernels/NAME.sm_XX.ptx under
# the specs of tests/data/launch). One line per spec that is not identical
# (ours-fails: our compile or run failed; not-runnable: ptxas's cubin did
# not run; differ: both ran, outputs differ), then the counts. Writes
# target/library-corpus/compare-sm_XX.tsv (compare-kernels-sm_XX.tsv).
# JOBS (default 2) runs that many specs at once; OURS names another
# ptx2sass binary (default target/release/ptx2sass).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SM=90 FILTER="" KERNELS=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sm) SM="${2#sm_}"; shift 2 ;;
    --kernels) KERNELS=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) FILTER="$1"; shift ;;
  esac
done
JOBS="${JOBS:-2}"
PTXAS="$ROOT/.reference/bin/ptxas" OURS="${OURS:-$ROOT/target/release/ptx2sass}" SASS="$ROOT/target/release/sass"
PTX_DIR="$ROOT/target/library-corpus/sm_$SM" SPEC_DIR="$ROOT/corpus/library/launch" PTX_SUFFIX=".ptx"
TSV="$ROOT/target/library-corpus/compare-sm_$SM.tsv" WHAT=library-corpus
if (( KERNELS )); then
  PTX_DIR="${PTX2SASS_CORPUS:-$ROOT/../shared/corpus}/kernels" SPEC_DIR="$ROOT/tests/data/launch" PTX_SUFFIX=".sm_$SM.ptx"
  TSV="$ROOT/target/library-corpus/compare-kernels-sm_$SM.tsv" WHAT=kernels
  mkdir -p "$ROOT/target/library-corpus"
fi
[[ -d "$PTX_DIR" ]] || { echo "library-corpus-compare: $PTX_DIR missing; run scripts/library-corpus.sh" >&2; exit 2; }
[[ -x "$OURS" && -x "$SASS" ]] || { echo "library-corpus-compare: build with cargo build --release" >&2; exit 2; }
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/library-corpus-compare.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
mapfile -t SPECS < <(find "$SPEC_DIR" -maxdepth 1 -name "*${FILTER}*.json" -type f | LC_ALL=C sort)
# A spec naming its SM (`"sm": 90`: a kernel whose mangled name carries the
# SM, as Thrust's) runs on that SM only.
mapfile -t SPECS < <(for s in "${SPECS[@]}"; do
  sm="$(grep -o '"sm": [0-9]*' "$s" | grep -o '[0-9]*$' || true)"
  if [[ -z "$sm" || "$sm" == "${SM#sm_}" ]]; then echo "$s"; fi
done)
mapfile -t FILES < <(for s in "${SPECS[@]}"; do basename "$s" | cut -d. -f1; done | LC_ALL=C sort -u)
for name in "${FILES[@]}"; do
  "$PTXAS" -arch="sm_$SM" "$PTX_DIR/$name$PTX_SUFFIX" -o "$SCRATCH/$name.ptxas.cubin" 2>/dev/null || rm -f "$SCRATCH/$name.ptxas.cubin"
  "$OURS" -arch="sm_$SM" "$PTX_DIR/$name$PTX_SUFFIX" -o "$SCRATCH/$name.ours.cubin" 2>"$SCRATCH/$name.ours.log" || rm -f "$SCRATCH/$name.ours.cubin"
done
compare_spec() {
  local spec="$1" key name
  key="$(basename "$spec" .json)"; name="${key%%.*}"
  local ours="$SCRATCH/$name.ours.cubin" theirs="$SCRATCH/$name.ptxas.cubin"
  if [[ ! -f "$ours" ]]; then
    printf 'ours-fails\tcompile: %s\n' "$(grep -m1 error "$SCRATCH/$name.ours.log" | cut -c1-200)" >"$SCRATCH/$key.r"; return
  fi
  if ! timeout 600 "$SASS" run --launch "$spec" --hazards fail "$ours" >"$SCRATCH/$key.ours" 2>"$SCRATCH/$key.ours.err"; then
    printf 'ours-fails\trun: %s\n' "$(grep -m1 . "$SCRATCH/$key.ours.err" | sed "s|$SCRATCH/||" | cut -c1-200)" >"$SCRATCH/$key.r"; return
  fi
  if [[ ! -f "$theirs" ]] || ! timeout 600 "$SASS" run --launch "$spec" --hazards "${PTXAS_HAZARDS:-fail}" "$theirs" >"$SCRATCH/$key.ptxas" 2>"$SCRATCH/$key.ptxas.err"; then
    printf 'not-runnable\t%s\n' "$(grep -m1 . "$SCRATCH/$key.ptxas.err" 2>/dev/null | sed "s|$SCRATCH/||" | cut -c1-200)" >"$SCRATCH/$key.r"; return
  fi
  if cmp -s "$SCRATCH/$key.ours" "$SCRATCH/$key.ptxas"; then echo identical >"$SCRATCH/$key.r"; else printf 'differ\t\n' >"$SCRATCH/$key.r"; fi
}
running=0
for spec in "${SPECS[@]}"; do
  compare_spec "$spec" &
  running=$((running + 1))
  if (( running >= JOBS )); then wait -n || true; running=$((running - 1)); fi
done
wait
printf 'spec\tresult\treason\n' >"$TSV"
declare -A COUNT=([identical]=0 [ours-fails]=0 [not-runnable]=0 [differ]=0)
for spec in "${SPECS[@]}"; do
  key="$(basename "$spec" .json)"; r="$(cat "$SCRATCH/$key.r")"; kind="${r%%$'\t'*}"
  COUNT[$kind]=$((COUNT[$kind] + 1))
  printf '%s\t%s\n' "$key" "$r" >>"$TSV"
  [[ "$kind" == identical ]] || echo "$kind $key: ${r#*$'\t'}"
done
echo "library-corpus-compare ($WHAT): sm_$SM: ${#SPECS[@]} specs: ${COUNT[identical]} identical, ${COUNT[differ]} differ," \
  "${COUNT[ours-fails]} ours fails, ${COUNT[not-runnable]} ptxas's cubin not runnable (${TSV#"$ROOT/"})"
