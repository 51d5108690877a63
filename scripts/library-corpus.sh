#!/usr/bin/env bash
# Builds the library corpus: PTX of NVIDIA's device libraries (CUB, Thrust,
# cuRAND's device API, cooperative groups), compiled by nvcc from the small
# CUDA sources in corpus/library/ for every SM in SMS.
#
#   scripts/library-corpus.sh            writes target/library-corpus/sm_XX/NAME.ptx
#   JOBS=1 scripts/library-corpus.sh     (parallel nvcc runs; default 2)
#   LINEINFO=1 ONLY_SMS="80 90" ONLY="cg_tiles cub_warp_reduce" scripts/library-corpus.sh
#                                        nvcc -lineinfo PTX (with .loc and .file)
#                                        of the named sources, for the named SMs,
#                                        into target/library-corpus-lineinfo/sm_XX
#                                        (scripts/line-info-compare.py reads it)
#
# The CUDA tools come from scripts/install-reference.sh; the library headers
# from the pinned PyPI wheels below, installed once into .reference/libs
# (git-ignored). Output is deterministic: a second run gives the same bytes,
# and so does another checkout (the source path nvcc hashes into internal
# names is given relative to the repository root).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REF="$ROOT/.reference"
LIBS="$REF/libs"
SRC_DIR="corpus/library"
OUT="$ROOT/target/library-corpus"
JOBS="${JOBS:-2}"
SMS=(75 80 86 89 90 100 103 120)
LINE_FLAGS=()
if [[ -n "${LINEINFO:-}" ]]; then
  OUT="$ROOT/target/library-corpus-lineinfo"
  LINE_FLAGS=(-lineinfo)
fi
if [[ -n "${ONLY_SMS:-}" ]]; then
  read -r -a SMS <<<"$ONLY_SMS"
fi

# Pinned library wheels for CUDA 13.x: nvidia-cuda-cccl 13.3.5.0.6 is CCCL
# 3.5.0 (CUB/Thrust/libcu++), nvidia-curand 10.4.5.25 is the cuRAND of
# CUDA 13.5 (the nvcc that install-reference.sh pins is 13.5.37).
CCCL_VERSION="13.3.5.0.6"
CURAND_VERSION="10.4.5.25"
LIB_PACKAGES=(
  "nvidia-cuda-cccl==$CCCL_VERSION"
  "nvidia-curand==$CURAND_VERSION"
)
LIB_STAMP="$LIBS/installed-cccl-$CCCL_VERSION-curand-$CURAND_VERSION"

say() { echo "library-corpus: $*"; }
die() { echo "library-corpus: $*" >&2; exit 1; }

command -v g++ >/dev/null 2>&1 || die "nvcc needs a host C++ compiler; g++ was not found"

"$ROOT/scripts/install-reference.sh"

# Headers only, so --no-deps; installed into a scratch folder and moved into
# place whole, so an interrupted install never looks complete.
if [[ ! -f "$LIB_STAMP" ]]; then
  say "installing ${LIB_PACKAGES[*]} into .reference/libs"
  rm -rf "$LIBS.partial"
  "$REF/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$LIBS.partial" "${LIB_PACKAGES[@]}"
  rm -rf "$LIBS"
  mv "$LIBS.partial" "$LIBS"
  touch "$LIB_STAMP"
fi

# The wheels' folder layout (nvidia/cu13/include/...) has changed between
# releases, so look the headers and nvcc up instead of assuming.
find_one() { find "$@" 2>/dev/null | LC_ALL=C sort | head -n 1 || true; }
SITE="$("$REF/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
NVCC="$(find_one "$SITE/nvidia" -path '*/bin/nvcc' -type f)"
CUB_HEADER="$(find_one "$LIBS" -path '*/cub/cub.cuh' -type f)"
CURAND_HEADER="$(find_one "$LIBS" -name curand_kernel.h -type f)"
[[ -n "$NVCC" ]] || die "nvcc not found under $SITE/nvidia (run scripts/install-reference.sh)"
[[ -n "$CUB_HEADER" ]] || die "cub/cub.cuh not found under $LIBS"
[[ -n "$CURAND_HEADER" ]] || die "curand_kernel.h not found under $LIBS"
CCCL_INCLUDE="$(dirname "$(dirname "$CUB_HEADER")")"
CURAND_INCLUDE="$(dirname "$CURAND_HEADER")"

cd "$ROOT"
mapfile -t SOURCES < <(find "$SRC_DIR" -maxdepth 1 -name '*.cu' -type f | LC_ALL=C sort)
if [[ -n "${ONLY:-}" ]]; then
  SOURCES=()
  for name in $ONLY; do
    [[ -f "$SRC_DIR/$name.cu" ]] || die "no $SRC_DIR/$name.cu"
    SOURCES+=("$SRC_DIR/$name.cu")
  done
fi
[[ ${#SOURCES[@]} -gt 0 ]] || die "no .cu files in $SRC_DIR"

# CCCL's include folder comes first: cuRAND's headers include <nv/target>
# from it. No -lineinfo/-G (but with LINEINFO=1), so the PTX has no file
# paths or line numbers.
compile() {
  local sm="$1" src="$2"
  local name dest
  name="$(basename "$src" .cu)"
  dest="$OUT/sm_$sm/$name.ptx"
  if ! "$NVCC" -std=c++17 -O3 -arch="compute_$sm" -ptx "${LINE_FLAGS[@]}" \
      -I"$CCCL_INCLUDE" -I"$CURAND_INCLUDE" \
      -Xcudafe "--orig_src_path_name=$src" \
      "$src" -o "$dest.partial" 2>"$dest.log"; then
    echo "library-corpus: nvcc failed on $src for sm_$sm:" >&2
    cat "$dest.log" >&2
    rm -f "$dest.partial"
    return 1
  fi
  mv "$dest.partial" "$dest"
  rm -f "$dest.log"
}

for sm in "${SMS[@]}"; do
  rm -rf "$OUT/sm_$sm"
  mkdir -p "$OUT/sm_$sm"
done

say "compiling ${#SOURCES[@]} sources for ${#SMS[@]} SMs (${SMS[*]}), $JOBS at a time"
failed=0
running=0
for sm in "${SMS[@]}"; do
  for src in "${SOURCES[@]}"; do
    compile "$sm" "$src" &
    running=$((running + 1))
    if (( running >= JOBS )); then
      wait -n || failed=1
      running=$((running - 1))
    fi
  done
done
while (( running > 0 )); do
  wait -n || failed=1
  running=$((running - 1))
done
(( failed == 0 )) || die "some sources did not compile (see above)"

for sm in "${SMS[@]}"; do
  entries="$(cat "$OUT/sm_$sm"/*.ptx | grep -c '^\.\(visible \|weak \)\?\.entry ' || true)"
  say "sm_$sm: ${#SOURCES[@]} files, $entries kernels"
done
say "PTX in ${OUT#"$ROOT/"}/sm_XX/"
