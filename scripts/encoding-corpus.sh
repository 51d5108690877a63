#!/usr/bin/env bash
# Builds the encoding corpus: every PTX file of ../shared/corpus compiled
# with the reference ptxas for sm_75, 80, 86, 89, 90, 100 and 120, the
# `.text` words of each SM disassembled with `nvdisasm -b SMxx -hex`, and
# the listings (text and bits of every word) stored in a git-ignored folder:
#   target/encoding-corpus/sm_XX.lst    nvdisasm's listing of the SM's words
#   target/encoding-corpus/sm_XX.stamp  what it was made from (tools, inputs)
# tests/isa_corpus.rs reads the listings while their stamps are current and
# remakes them otherwise, so this script only forces a rebuild (and reports
# the per-SM coverage). The compiling and listing code is the test's own,
# so the two cannot disagree on what the corpus is.
#
# Environment: PTX2SASS_CORPUS (corpus folder), PTX2SASS_REF_BIN (reference
# tools), PTX2SASS_ENCODING_CORPUS (output folder instead of
# target/encoding-corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
PTX2SASS_ENCODING_CORPUS_REBUILD=1 cargo test --release --test isa_corpus -- --nocapture corpus_words_agree_with_nvdisasm
