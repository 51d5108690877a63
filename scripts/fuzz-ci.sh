#!/usr/bin/env bash
# The fuzz crate in CI: builds every target of fuzz/ (a broken target fails
# here) and runs each generated-program check briefly through the plain
# driver `fuzzgen` (seeded bytes, no libFuzzer, so no cargo-fuzz to install
# and no sanitizer flags). Called by scripts/test.sh; runs alone too:
#
#   scripts/fuzz-ci.sh              # the CI budget (about 2.5 min of runs)
#   FUZZ_CI_SECONDS=10 scripts/fuzz-ci.sh
#
# Each run starts at seed 0, so CI checks the same programs every time
# (a finding is reproducible with `fuzzgen print --seed N --sm X`); a
# campaign uses other seeds (fuzz/README.md). Known findings are listed in
# fuzz/findings/known.txt. The differential run fails on a panic, a
# checker failure or a selection failure of ptx2sass that is not known;
# output mismatches and PTX-interpreter disagreements are counted and
# printed but allowed until the open findings of fuzz/findings/README.md
# are fixed (then drop --allow).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECS="${FUZZ_CI_SECONDS:-}"

cargo build --release --manifest-path fuzz/Cargo.toml --bins
cargo test --release --manifest-path fuzz/Cargo.toml
F=fuzz/target/release/fuzzgen
time_of() { echo "--seconds ${SECS:-$1}"; }

# shellcheck disable=SC2046 # time_of prints two words
"$F" gen --count 1000000 $(time_of 5)
# shellcheck disable=SC2046
"$F" compile --count 1000000 $(time_of 45)
if [[ -x .reference/bin/ptxas || -n "${PTX2SASS_REF_BIN:-}" ]]; then
  # shellcheck disable=SC2046
  "$F" differential --count 1000000 $(time_of 60) --allow mismatch,ptx-interp,ours-does-not-run
  # shellcheck disable=SC2046
  "$F" accept-reject --count 1000000 $(time_of 30) --allow mismatch
elif [[ "${CI:-}" == true ]]; then
  echo "fuzz-ci.sh: the reference ptxas is missing (scripts/install-reference.sh)" >&2
  exit 1
else
  echo "SKIPPED (reference ptxas not installed): fuzzgen differential, accept-reject" >&2
fi
