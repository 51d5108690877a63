#!/usr/bin/env bash
# The fuzz crate in CI: builds every target of fuzz/ (a broken target fails
# here) and runs each generated-program check briefly through the plain
# driver `fuzzgen` (seeded bytes, no libFuzzer, so no cargo-fuzz to install
# and no sanitizer flags). Called by scripts/test.sh; runs alone too:
#
#   scripts/fuzz-ci.sh              # the CI budget (at most 2.7 min of runs)
#   FUZZ_CI_SECONDS=10 scripts/fuzz-ci.sh
#
# A finding is reproducible with `fuzzgen differential --seed N --sm X
# --count 1`; a campaign uses other seeds (README.md, "Generated programs"). Known findings are listed in
# fuzz/findings/known.txt. The differential run fails on a panic, a
# checker failure or a selection failure of ptx2sass that is not known;
# output mismatches (except miscompiles: ptxas and the PTX interpreter
# agreeing against ours) and PTX-interpreter disagreements are counted and
# printed but allowed until the open findings of fuzz/findings/README.md
# (and ptxas cubins the SASS interpreter cannot run: decoder gaps)
# are fixed (then drop --allow).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECS="${FUZZ_CI_SECONDS:-}"

cargo build --release --manifest-path fuzz/Cargo.toml --bins
cargo test --release --manifest-path fuzz/Cargo.toml
F=fuzz/target/release/fuzzgen
# Fixed program counts (seeds 0..N-1), so CI checks the same programs every
# time; the seconds only cap a slow machine.
runs() { echo "--count $1 --seconds ${SECS:-$2}"; }

# shellcheck disable=SC2046 # runs prints four words
"$F" gen $(runs 20000 10)
# shellcheck disable=SC2046
"$F" compile $(runs 4000 50)
if [[ -x .reference/bin/ptxas || -n "${PTX2SASS_REF_BIN:-}" ]]; then
  # shellcheck disable=SC2046
  "$F" differential $(runs 240 60) --allow mismatch,ref-interp,ptx-interp,ours-does-not-run,ref-does-not-run
  # shellcheck disable=SC2046
  "$F" accept-reject $(runs 600 40) --allow mismatch
elif [[ "${CI:-}" == true ]]; then
  echo "fuzz-ci.sh: the reference ptxas is missing (scripts/install-reference.sh)" >&2
  exit 1
else
  echo "SKIPPED (reference ptxas not installed): fuzzgen differential, accept-reject" >&2
fi
