#!/usr/bin/env bash
# Compile time, peak memory, instruction and register counts of ptx2sass
# against the reference ptxas over ../shared/corpus/kernels (see
# scripts/bench.py for the options). Builds the release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin ptx2sass --bin sass
exec python3 scripts/bench.py "$@"
