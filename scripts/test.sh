#!/usr/bin/env bash
# The project's one test command: installs the reference toolchain (a no-op
# once installed) and runs every test target of the workspace in release mode
# (the corpus tests compile hundreds of files, some through the reference
# ptxas; capi/ builds the C library and links a C program against it and
# against NVIDIA's). Extra arguments go to `cargo test` (e.g.
# `scripts/test.sh corpus`). --no-fail-fast: one run reports every failing
# test binary, not just the first.
#
# Under CI=true a missing reference tool fails the tests instead of skipping
# them (see src/reference.rs). The fuzz crate (fuzz/, its own workspace) is
# then built, its unit tests run and its generated-program checks run
# briefly by scripts/fuzz-ci.sh (the build plus about 2.5 min of runs);
# FUZZ_CI=0 skips that, and so does giving arguments (a filtered run). Long
# fuzzing is scripts/fuzz.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

scripts/install-reference.sh
status=0
cargo test --release --workspace --all-targets --no-fail-fast "$@" || status=$?
if [[ "${FUZZ_CI:-1}" != 0 && $# -eq 0 ]]; then
  scripts/fuzz-ci.sh || status=$?
fi
exit "$status"
