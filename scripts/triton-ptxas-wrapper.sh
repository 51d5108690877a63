#!/usr/bin/env bash
# Stands where Triton expects `ptxas` (TRITON_PTXAS_PATH, TRITON_PTXAS_BLACKWELL_PATH)
# during scripts/triton-corpus.sh: records Triton's command line, its PTX input and
# ptx2sass's outcome under $TRITON_CORPUS_DIR/$TRITON_CORPUS_TAG.*, then answers as
# ptx2sass did. Temporary file names are written as X.ptx / X.ptx.o so the record
# does not change from run to run (apart from -v's compile time).
set -u
ptx2sass=${TRITON_CORPUS_PTX2SASS:?}
if [ "$#" -eq 1 ] && [ "$1" = --version ]; then
    exec "$ptx2sass" --version
fi
dir=${TRITON_CORPUS_DIR:?}
tag=${TRITON_CORPUS_TAG:?}
shown=(ptxas)
input= output= next_is_output=
for a in "$@"; do
    if [ -n "$next_is_output" ]; then output=$a; shown+=(X.ptx.o); next_is_output=; continue; fi
    case $a in
        -o) next_is_output=1; shown+=("$a") ;;
        *.ptx) input=$a; shown+=(X.ptx) ;;
        *) shown+=("$a") ;;
    esac
done
printf '%s\n' "${shown[*]}" > "$dir/$tag.cmd"
[ -n "$input" ] && cp "$input" "$dir/$tag.ptx"
"$ptx2sass" "$@" > "$dir/$tag.stdout" 2> "$dir/$tag.stderr"
rc=$?
echo "$rc" > "$dir/$tag.rc"
if [ "$rc" -eq 0 ] && [ -n "$output" ] && [ -f "$output" ]; then cp "$output" "$dir/$tag.cubin"; fi
cat "$dir/$tag.stdout"
cat "$dir/$tag.stderr" >&2
# The record names the input as X.ptx, not Triton's temporary name.
[ -n "$input" ] && sed -i "s|$input|X.ptx|g" "$dir/$tag.stderr" "$dir/$tag.stdout"
exit "$rc"
