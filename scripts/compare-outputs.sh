#!/usr/bin/env bash
# Output identity of a change: compiles every .ptx file of the shared corpus
# (kernels and ZLUDA) for each SM with two ptx2sass binaries and counts the
# compilations whose cubin bytes, messages or exit status differ.
#
#   scripts/compare-outputs.sh BEFORE_BIN AFTER_BIN [SM ...]
#
# SMs (`sm_90` or `90`) default to sm_75 sm_80 sm_86 sm_89 sm_90 sm_100
# sm_120. Every
# difference is listed (file, SM, what differs); the exit status is 1 when
# any compilation differs. Build a binary with `cargo build --release
# --bin ptx2sass` and copy it aside before the change.
set -uo pipefail
cd "$(dirname "$0")/.."
before="${1:?usage: compare-outputs.sh BEFORE_BIN AFTER_BIN [SM ...]}"
after="${2:?usage: compare-outputs.sh BEFORE_BIN AFTER_BIN [SM ...]}"
shift 2
sms=()
for sm in "$@"; do sms+=("sm_${sm#sm_}"); done
[ ${#sms[@]} -gt 0 ] || sms=(sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120)
corpus="${PTX2SASS_CORPUS:-../shared/corpus}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t files < <(find "$corpus" -name '*.ptx' | sort)
jobs="${COMPARE_JOBS:-$(nproc)}"

# One compilation with one binary: the cubin, the messages and the status.
run_one() {
    local bin="$1" sm="$2" file="$3" out="$4"
    "$bin" -arch="$sm" "$file" -o "$out.cubin" > "$out.msg" 2>&1
    echo $? > "$out.rc"
}
export -f run_one

list="$work/list"
: > "$list"
n=0
for sm in "${sms[@]}"; do
    for f in "${files[@]}"; do
        n=$((n + 1))
        printf '%s\t%s\t%s\n' "$sm" "$f" "$n" >> "$list"
    done
done
# Messages name the input file; both binaries see the same path.
while IFS=$'\t' read -r sm f k; do
    printf '%s\0%s\0%s\0%s\0' "$before" "$sm" "$f" "$work/b$k"
    printf '%s\0%s\0%s\0%s\0' "$after" "$sm" "$f" "$work/a$k"
done < "$list" | xargs -0 -n4 -P "$jobs" bash -c 'run_one "$@"' _

differ=0
while IFS=$'\t' read -r sm f k; do
    what=()
    cmp -s "$work/b$k.rc" "$work/a$k.rc" || what+=(status)
    cmp -s "$work/b$k.msg" "$work/a$k.msg" || what+=(messages)
    if [ -e "$work/b$k.cubin" ] || [ -e "$work/a$k.cubin" ]; then
        cmp -s "$work/b$k.cubin" "$work/a$k.cubin" 2> /dev/null || what+=(cubin)
    fi
    if [ ${#what[@]} -gt 0 ]; then
        differ=$((differ + 1))
        echo "differs: $sm $f (${what[*]})"
    fi
done < "$list"
ok=$(cat "$work"/a*.rc | grep -c '^0$')
echo "$n compilations (${#files[@]} files x ${#sms[@]} SMs; $ok compile): $differ differ"
# Nothing compiled means nothing was compared (a wrong SM name, a binary
# that does not start): not a pass.
if [ "$ok" -eq 0 ]; then
    echo "compare-outputs: no compilation succeeded with $after" >&2
    exit 2
fi
[ "$differ" -eq 0 ]
