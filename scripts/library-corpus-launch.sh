#!/usr/bin/env bash
# Runs every launch spec of the library corpus (corpus/library/launch/
# NAME.KERNEL.json) in the project's SASS interpreter on ptxas's cubin of
# target/library-corpus/sm_XX/NAME.ptx (build that first with
# scripts/library-corpus.sh).
#
#   scripts/library-corpus-launch.sh [--sm 90] [--sass target/release/sass] [FILTER]
#
# FILTER keeps the specs whose file name contains it. Prints one line per
# spec (ok: the run ended and printed its output buffers; FAIL: the run, or
# ptxas, failed, with the first error line) and a count; writes the results
# to target/library-corpus/launch-sm_XX.tsv. Specs listed in
# corpus/library/launch/exceptions-sm_XX.tsv (lines KEY<TAB>reason, KEY the
# spec's file stem) fail for a known reason, a gap of the interpreter rather
# than of the spec; they print as "known". Exits 1 when an unlisted spec
# fails or a listed one runs (remove it from the list then).
# JOBS (default 2) runs that many interpreters at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SM=90
SASS="$ROOT/target/release/sass"
FILTER=""
JOBS="${JOBS:-2}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sm) SM="${2:?--sm needs a number (90)}"; shift 2 ;;
    --sass) SASS="${2:?--sass needs a path}"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "library-corpus-launch: unknown option $1" >&2; exit 2 ;;
    *) FILTER="$1"; shift ;;
  esac
done
SM="${SM#sm_}"

PTXAS="$ROOT/.reference/bin/ptxas"
PTX_DIR="$ROOT/target/library-corpus/sm_$SM"
SPEC_DIR="$ROOT/corpus/library/launch"
TSV="$ROOT/target/library-corpus/launch-sm_$SM.tsv"
[[ -x "$PTXAS" ]] || "$ROOT/scripts/install-reference.sh"
[[ -d "$PTX_DIR" ]] || { echo "library-corpus-launch: $PTX_DIR missing; run scripts/library-corpus.sh" >&2; exit 2; }
[[ -x "$SASS" ]] || { echo "library-corpus-launch: $SASS missing; build it with cargo build --release --bin sass" >&2; exit 2; }

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/library-corpus-launch.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

mapfile -t SPECS < <(find "$SPEC_DIR" -maxdepth 1 -name "*${FILTER}*.json" -type f | LC_ALL=C sort)
# A spec naming its SM (`"sm": 90`: a kernel whose mangled name carries the
# SM, as Thrust's) runs on that SM only.
mapfile -t SPECS < <(for s in "${SPECS[@]}"; do
  sm="$(grep -o '"sm": [0-9]*' "$s" | grep -o '[0-9]*$' || true)"
  if [[ -z "$sm" || "$sm" == "${SM#sm_}" ]]; then echo "$s"; fi
done)
[[ ${#SPECS[@]} -gt 0 ]] || { echo "library-corpus-launch: no specs match '$FILTER'" >&2; exit 2; }

# One cubin per source file.
mapfile -t FILES < <(for s in "${SPECS[@]}"; do basename "$s" | cut -d. -f1; done | LC_ALL=C sort -u)
for name in "${FILES[@]}"; do
  if ! "$PTXAS" -arch="sm_$SM" "$PTX_DIR/$name.ptx" -o "$SCRATCH/$name.cubin" 2>"$SCRATCH/$name.ptxas.log"; then
    rm -f "$SCRATCH/$name.cubin"
  fi
done

# Writes SCRATCH/KEY.result: "ok" or "FAIL<TAB>reason".
run_spec() {
  local spec="$1" key name cubin
  key="$(basename "$spec" .json)"
  name="${key%%.*}"
  cubin="$SCRATCH/$name.cubin"
  if [[ ! -f "$cubin" ]]; then
    printf 'FAIL\tptxas: %s\n' "$(grep -m1 . "$SCRATCH/$name.ptxas.log" || echo failed)" >"$SCRATCH/$key.result"
    return
  fi
  local rc=0
  timeout 600 "$SASS" run --launch "$spec" "$cubin" >"$SCRATCH/$key.out" 2>"$SCRATCH/$key.err" || rc=$?
  if (( rc == 0 )) && grep -q '^param [0-9]*: ' "$SCRATCH/$key.out"; then
    echo ok >"$SCRATCH/$key.result"
  elif (( rc == 0 )); then
    printf 'FAIL\tno output buffers printed\n' >"$SCRATCH/$key.result"
  elif (( rc == 124 )); then
    printf 'FAIL\ttimed out after 600 s\n' >"$SCRATCH/$key.result"
  else
    printf 'FAIL\t%s\n' "$(grep -m1 . "$SCRATCH/$key.err" | sed "s|$SCRATCH/||" | cut -c1-300 || echo "exit status $rc")" \
      >"$SCRATCH/$key.result"
  fi
}

running=0
for spec in "${SPECS[@]}"; do
  run_spec "$spec" &
  running=$((running + 1))
  if (( running >= JOBS )); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

# Known failures: KEY<TAB>reason.
declare -A KNOWN=()
EXCEPTIONS="$SPEC_DIR/exceptions-sm_$SM.tsv"
if [[ -f "$EXCEPTIONS" ]]; then
  while IFS=$'\t' read -r key reason; do
    [[ -z "$key" || "$key" == \#* ]] && continue
    KNOWN["$key"]="$reason"
  done <"$EXCEPTIONS"
fi

TAB=$'\t'
ok=0 known=0 bad=0 stale=0
printf 'spec\tresult\treason\n' >"$TSV"
for spec in "${SPECS[@]}"; do
  key="$(basename "$spec" .json)"
  result="$(cat "$SCRATCH/$key.result")"
  if [[ "$result" == ok ]]; then
    printf '%s\tok\t\n' "$key" >>"$TSV"
    if [[ -n "${KNOWN[$key]+set}" ]]; then
      stale=$((stale + 1))
      echo "STALE $key: runs now, but ${EXCEPTIONS#"$ROOT/"} lists it"
    else
      ok=$((ok + 1))
      echo "ok    $key"
    fi
  elif [[ -n "${KNOWN[$key]+set}" ]]; then
    known=$((known + 1))
    printf '%s\tknown\t%s\n' "$key" "${result#FAIL"$TAB"}" >>"$TSV"
    echo "known $key: ${result#FAIL"$TAB"}"
  else
    bad=$((bad + 1))
    printf '%s\t%s\n' "$key" "$result" >>"$TSV"
    echo "FAIL  $key: ${result#FAIL"$TAB"}"
  fi
done
echo "library-corpus-launch: sm_$SM: $((ok + stale)) of ${#SPECS[@]} specs ran with ptxas's cubin in the SASS interpreter;" \
  "$known failed as listed, $bad failed unlisted, $stale listed but ran (${TSV#"$ROOT/"})"
(( bad == 0 && stale == 0 ))
