#!/usr/bin/env bash
# Installs NVIDIA's reference tools (ptxas, nvcc, nvdisasm, cuobjdump) from PyPI
# into .reference/ (git-ignored) and links their binaries into .reference/bin/;
# and NVIDIA's PTX compiler library (nvPTXCompiler.h and its static library,
# which the C library's test builds the same C program against) into
# .reference/nvptxcompiler/.
# Idempotent: a second run with the same pins only checks the stamp files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REF="$ROOT/.reference"
# Pinned CUDA 13.x versions (the corpus was generated with 13.5.37).
CUDA_VERSION="13.5.37"
PACKAGES=(
  "nvidia-cuda-nvcc==$CUDA_VERSION"
  "nvidia-cuda-nvdisasm==$CUDA_VERSION"
  "nvidia-cuda-cuobjdump==$CUDA_VERSION"
)
STAMP="$REF/installed-$CUDA_VERSION"
# The library is a wheel of its own, installed with pip --target (no venv
# needed to use it: the test reads the header and the archive directly).
NVPTXCOMPILER="$REF/nvptxcompiler"
NVPTXCOMPILER_STAMP="$NVPTXCOMPILER/installed-$CUDA_VERSION"

tools_installed() { [[ -f "$STAMP" && -x "$REF/bin/ptxas" && -x "$REF/bin/nvdisasm" ]]; }

if tools_installed && [[ -f "$NVPTXCOMPILER_STAMP" ]]; then
  exit 0
fi

PYTHON="${PYTHON:-python3}"
mkdir -p "$REF"
if [[ ! -x "$REF/venv/bin/python" ]]; then
  "$PYTHON" -m venv "$REF/venv"
fi

if [[ ! -f "$NVPTXCOMPILER_STAMP" ]]; then
  "$REF/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
    --target "$NVPTXCOMPILER" "nvidia-nvptxcompiler==$CUDA_VERSION"
  for file in nvPTXCompiler.h libnvptxcompiler_static.a; do
    if [[ -z "$(find "$NVPTXCOMPILER/nvidia" -name "$file" -type f 2>/dev/null | head -n 1)" ]]; then
      echo "install-reference: $file not found in the nvidia-nvptxcompiler wheel" >&2
      exit 1
    fi
  done
  touch "$NVPTXCOMPILER_STAMP"
  echo "install-reference: nvPTXCompiler $CUDA_VERSION in $NVPTXCOMPILER"
fi
if tools_installed; then
  exit 0
fi
"$REF/venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PACKAGES[@]}"

# The wheels put their binaries under site-packages/nvidia/cu*/bin (the folder
# name changed between CUDA releases), so look them up instead of assuming.
SITE="$("$REF/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
mkdir -p "$REF/bin"
for tool in ptxas nvcc nvdisasm cuobjdump nvlink fatbinary; do
  found="$(find "$SITE/nvidia" -path '*/bin/*' -name "$tool" -type f 2>/dev/null | head -n 1 || true)"
  if [[ -n "$found" ]]; then
    chmod +x "$found"
    ln -sf "$found" "$REF/bin/$tool"
  fi
done
for tool in ptxas nvdisasm cuobjdump nvcc; do
  if [[ ! -x "$REF/bin/$tool" ]]; then
    echo "install-reference: $tool not found in the installed wheels" >&2
    exit 1
  fi
done
touch "$STAMP"
echo "install-reference: CUDA $CUDA_VERSION tools in $REF/bin"
