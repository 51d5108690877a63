#!/usr/bin/env bash
# Builds the generated corpus: programs of the fuzz crate's generator
# (`fuzzgen print`), COUNT per SM (default 300), each targeting its SM,
# for measuring ptxas's latencies on code that neither the shared corpus
# nor the libraries contain (tests/latency_tables.rs reads it as the
# "generated" source: src/sched/latency/sm_XX.generated.tsv).
#
#   scripts/generated-corpus.sh          writes target/generated-corpus/sm_XX/gSEED.ptx
#   COUNT=1000 SEED=40000000 scripts/generated-corpus.sh
#
# Program k of SM s is fuzzgen's program of seed SEED + k for s, so the
# corpus is the same bytes on every run and machine. FUZZGEN names a built
# fuzzgen binary (default: built here, into target/fuzz-target).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/target/generated-corpus"
COUNT="${COUNT:-300}"
SEED="${SEED:-40000000}"
SMS=(75 80 86 89 90 100 103 120)
FUZZGEN="${FUZZGEN:-}"
if [[ -z "$FUZZGEN" ]]; then
  (cd "$ROOT/fuzz" && CARGO_TARGET_DIR="$ROOT/target/fuzz-target" cargo build --release --quiet --bin fuzzgen)
  FUZZGEN="$ROOT/target/fuzz-target/release/fuzzgen"
fi
for sm in "${SMS[@]}"; do
  mkdir -p "$OUT/sm_$sm"
  for ((k = 0; k < COUNT; k++)); do
    seed=$((SEED + k))
    out="$OUT/sm_$sm/g$seed.ptx"
    [[ -s "$out" ]] && continue
    "$FUZZGEN" print --seed "$seed" --sm "$sm" >"$out.tmp" 2>/dev/null && mv "$out.tmp" "$out" || rm -f "$out.tmp"
  done
  echo "generated-corpus: sm_$sm: $(find "$OUT/sm_$sm" -name '*.ptx' | wc -l) programs"
done
