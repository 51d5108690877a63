#!/usr/bin/env bash
# IEEE division, reciprocal and square root, f32 and f64, in all four
# rounding modes: ptx2sass's code run in the SASS interpreter against an
# exact integer reference (tests/ieee_rounding.rs), with N special and
# random inputs per operation and mode (default 10^7) on each SM.
#
#   scripts/ieee-check.sh [N] [SMS]        e.g. scripts/ieee-check.sh 10000000 80,90,120
#
# The test suite runs the same check with 4096 inputs on sm_90.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PTX2SASS_IEEE_N="${1:-10000000}"
export PTX2SASS_IEEE_SMS="${2:-80,90,120}"
echo "ieee-check: $PTX2SASS_IEEE_N inputs per operation and mode on $PTX2SASS_IEEE_SMS"
exec cargo test --release --test ieee_rounding -- --nocapture
