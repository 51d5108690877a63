#!/usr/bin/env bash
# Builds the ptx2sass command-line tool as it is shipped: the `dist` profile
# (release with whole-program optimisation: fat LTO, one codegen unit) and,
# on Linux with glibc, statically linked and not position-independent.
#
# Why: a ptxas-style tool runs once per file, so process start is part of
# every compile. On a glibc host the dynamic loader maps and binds libc,
# libm and libgcc_s before main, which measured 0.5-0.7 ms per run here
# (`--version`: 1.8 ms dynamic, 1.1 ms static; a small kernel compiles in
# 3-5 ms). The flags apply to the final binary only (`cargo rustc`), so the
# library, the tests and the benchmarks keep the default linking (and the
# proc-macro crates the test harnesses use still build).
#
# The result is target/dist/ptx2sass (the tests' target/release binaries are
# left as they are). Other hosts get a dynamically linked `dist` build.
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
flags=()
case "$host" in
    *-linux-gnu*) flags=(-C target-feature=+crt-static -C relocation-model=static) ;;
esac
cargo rustc --profile dist --quiet --bin ptx2sass -- ${flags[@]+"${flags[@]}"}
