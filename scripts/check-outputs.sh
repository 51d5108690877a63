#!/usr/bin/env bash
# Runs nvdisasm and cuobjdump -elf on every cubin tests/zluda_compile.rs
# wrote (target/tmp/zluda-compile; run that test first) and counts the
# files each tool accepts. The test itself reads every instruction word
# with nvdisasm but only a sample of whole cubins (half a second each).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${PTX2SASS_REF_BIN:-.reference/bin}"
dir=target/tmp/zluda-compile
total=0; dis_ok=0; elf_ok=0
for f in "$dir"/*.cubin; do
    [ -e "$f" ] || { echo "no cubins in $dir: cargo test --release --test zluda_compile first"; exit 1; }
    total=$((total + 1))
    if "$bin/nvdisasm" "$f" > /dev/null 2> /tmp/check-outputs.err; then dis_ok=$((dis_ok + 1)); else echo "nvdisasm refuses $f: $(head -1 /tmp/check-outputs.err)"; fi
    if "$bin/cuobjdump" -elf "$f" > /dev/null 2> /tmp/check-outputs.err; then elf_ok=$((elf_ok + 1)); else echo "cuobjdump refuses $f: $(head -1 /tmp/check-outputs.err)"; fi
done
echo "$total cubins: nvdisasm accepts $dis_ok, cuobjdump -elf accepts $elf_ok"
[ "$dis_ok" -eq "$total" ] && [ "$elf_ok" -eq "$total" ]
