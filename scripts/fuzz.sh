#!/usr/bin/env bash
# Runs one cargo-fuzz target for a number of seconds, on the stable toolchain.
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer args...]
#   scripts/fuzz.sh parse 60
#
# cargo-fuzz asks rustc for `-Z` options (and, with a sanitizer, for
# `-Zsanitizer`), which only nightly accepts. RUSTC_BOOTSTRAP=1 lets the
# stable compiler accept them, so no nightly toolchain is needed. cargo-fuzz
# itself is installed from crates.io when missing.
#
# Environment:
#   FUZZ_SANITIZER   none (default: safe Rust, so speed over ASan) | address | ...
#   FUZZ_JOBS        libFuzzer -fork=N workers (default 1: one process)
#
# Generated-program targets: compile (ptx2sass with every internal check on
# generated and mutated PTX), differential (ptxas's cubin and ours in the
# SASS interpreter, and the PTX interpreter), accept_reject (front-end
# verdicts on mutants against ptxas -arch=compute_XX). The last two run
# ptxas as a process (~30 programs/s per worker): use FUZZ_JOBS. Without
# libFuzzer, fuzz/target/release/fuzzgen runs the same checks on seeded
# programs (scripts/fuzz-ci.sh; README.md, "Generated programs").
#
# The corpus lives in fuzz/corpus/TARGET (git-ignored). For `parse` it is
# seeded from ../shared/corpus/**/*.ptx (or $PTX2SASS_CORPUS) and examples/,
# each file once as plain text and once in the edit-script mode (see
# fuzz/src/lib.rs). Crashes go to fuzz/artifacts/TARGET/; replay one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-...
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 TARGET SECONDS [libFuzzer args...]" >&2
  exit 2
fi
TARGET="$1"
SECONDS_TO_RUN="$2"
shift 2

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ ! -f "fuzz/fuzz_targets/$TARGET.rs" ]]; then
  echo "fuzz.sh: no target fuzz/fuzz_targets/$TARGET.rs" >&2
  exit 2
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz from crates.io" >&2
  cargo install cargo-fuzz --locked
fi

CORPUS="fuzz/corpus/$TARGET"
mkdir -p "$CORPUS"

seed_ptx() {
  local src_dir="$1" prefix="$2" f name
  [[ -d "$src_dir" ]] || return 0
  while IFS= read -r -d '' f; do
    name="${prefix}$(echo "${f#"$src_dir"/}" | tr '/' '_')"
    [[ -e "$CORPUS/$name" ]] || cp "$f" "$CORPUS/$name"
    # Edit-script mode: 0xFF, script length, script, text. The script bytes
    # are a fixed function of the name, so seeding is reproducible.
    if [[ ! -e "$CORPUS/edit.$name" ]]; then
      {
        printf '\xff\x10'
        # shellcheck disable=SC2059 # the format is the escaped script bytes
        printf "$(printf '%s' "$name" | sha256sum | cut -c1-32 | sed 's/../\\x&/g')"
        cat "$f"
      } >"$CORPUS/edit.$name"
    fi
  done < <(find "$src_dir" -name '*.ptx' -type f -print0)
}

if [[ "$TARGET" == "parse" ]]; then
  seed_ptx "${PTX2SASS_CORPUS:-$ROOT/../shared/corpus}" "corpus."
  seed_ptx "$ROOT/examples" "example."
fi

# parse_ir starts from the Ori IR filetests (comments and expectations
# included: the parser skips them).
if [[ "$TARGET" == "parse_ir" ]]; then
  while IFS= read -r -d '' f; do
    name="filetest.$(echo "${f#"$ROOT"/filetests/}" | tr '/' '_')"
    [[ -e "$CORPUS/$name" ]] || cp "$f" "$CORPUS/$name"
  done < <(find "$ROOT/filetests" -name '*.ori' -type f -print0)
fi

# read_cubin starts from ptxas's cubins of the examples for a few SMs.
if [[ "$TARGET" == "read_cubin" && -x "$ROOT/.reference/bin/ptxas" ]]; then
  for f in "$ROOT"/examples/*.ptx; do
    for sm in 75 80 90 100 120; do
      out="$CORPUS/$(basename "$f" .ptx).sm_$sm.cubin"
      [[ -e "$out" ]] || "$ROOT/.reference/bin/ptxas" -arch=sm_$sm "$f" -o "$out" || true
    done
  done
fi

# read_listing starts from listings of those cubins (a leading SM selector
# byte): the module form for sm_90, sm_90 with line information and sm_100
# (with its carried merc sections), the section form for a relocatable
# (`-c`) sm_90 cubin.
if [[ "$TARGET" == "read_listing" && -x "$ROOT/target/release/sass" && -x "$ROOT/.reference/bin/ptxas" ]]; then
  for f in "$ROOT"/examples/*.ptx; do
    for variant in "90 \x02" "100 \x03" "90 \x02 -lineinfo" "90 \x02 -c"; do
      read -r sm selector option <<<"$variant"
      out="$CORPUS/$(basename "$f" .ptx).sm_$sm${option:+.${option#-}}.sass"
      if [[ ! -e "$out" ]]; then
        tmp="$(mktemp)"
        # shellcheck disable=SC2086 # the option is one word or none
        "$ROOT/.reference/bin/ptxas" -arch=sm_$sm $option "$f" -o "$tmp" && { printf "$selector"; "$ROOT/target/release/sass" dis "$tmp"; } >"$out" || true
        rm -f "$tmp"
      fi
    done
  done
fi

# The generated-program targets (compile, differential, accept_reject)
# read their input as generator bytes (fuzz/src/progen.rs): they start from
# 64 files of 4 KiB of SHA-256 output, a fixed function of the file name so
# that seeding is reproducible.
if [[ "$TARGET" == compile || "$TARGET" == differential || "$TARGET" == accept_reject ]]; then
  python3 - "$CORPUS" <<'PY'
import hashlib, os, sys
corpus = sys.argv[1]
for i in range(64):
    path = os.path.join(corpus, f"seed.{i:02d}")
    if os.path.exists(path):
        continue
    data = b"".join(hashlib.sha256(f"progen {i} {k}".encode()).digest() for k in range(128))
    with open(path, "wb") as f:
        f.write(data)
PY
fi

ARGS=(-max_total_time="$SECONDS_TO_RUN" -print_final_stats=1)
# Seeds are up to ~80 KB; longer inputs only slow the search down. The
# generator reads at most a few KiB.
case "$TARGET" in
  compile | differential | accept_reject) ARGS+=(-max_len=8192) ;;
  *) ARGS+=(-max_len=131072) ;;
esac
if [[ -f "fuzz/$TARGET.dict" ]]; then
  ARGS+=(-dict="fuzz/$TARGET.dict")
elif [[ -f fuzz/ptx.dict && "$TARGET" == parse ]]; then
  ARGS+=(-dict=fuzz/ptx.dict)
fi
if [[ "${FUZZ_JOBS:-1}" -gt 1 ]]; then
  ARGS+=(-fork="$FUZZ_JOBS")
fi

export RUSTC_BOOTSTRAP=1
exec cargo fuzz run --fuzz-dir fuzz -s "${FUZZ_SANITIZER:-none}" --debug-assertions \
  "$TARGET" "$CORPUS" -- "${ARGS[@]}" "$@"
