#!/usr/bin/env bash
# Compile time, peak memory, instruction and register counts of ptx2sass
# against the reference ptxas over ../shared/corpus/kernels (see
# scripts/bench.py for the options). Builds the release binaries first,
# ptx2sass as it is shipped (scripts/build-cli.sh: statically linked on
# glibc hosts).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin sass
scripts/build-cli.sh
exec python3 scripts/bench.py "$@"
