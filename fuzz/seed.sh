#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs from ../shared/corpus and
# ../shared/corpus-old (or $BITCODE_SHARED): the bitstream files of at most MAX_BYTES
# (default 64 KiB; larger ones only slow libFuzzer down) that suit each target.
# The corpus directories are not committed (see .gitignore); run this before fuzzing:
#
#   fuzz/seed.sh && cargo +nightly fuzz run raw_walk -- -max_total_time=480
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shared="${BITCODE_SHARED:-$here/../../shared}"
max_bytes="${MAX_BYTES:-65536}"
[ -d "$shared/corpus" ] || { echo "seed.sh: $shared/corpus is missing (set BITCODE_SHARED)" >&2; exit 1; }

# copy TARGET SUFFIX...: the small files of both corpora whose names end in a SUFFIX.
copy() {
    local target="$1"; shift
    local dir="$here/corpus/$target"
    mkdir -p "$dir"
    local count=0
    for corpus in "$shared/corpus" "$shared/corpus-old"; do
        [ -d "$corpus" ] || continue
        for suffix in "$@"; do
            for file in "$corpus"/*"$suffix"; do
                [ -f "$file" ] || continue
                [ "$(stat -c %s "$file")" -le "$max_bytes" ] || continue
                cp "$file" "$dir/$(basename "$(dirname "$file")")__$(basename "$file")"
                count=$((count + 1))
            done
        done
    done
    echo "$target: $count seeds in $dir"
}

copy raw_walk .bc .dia .pch .pcm .opt.bitstream .o
copy llvm_module .bc .o
copy diagnostics_remarks .dia .opt.bitstream
# Any bytes are a writer program; bitstream files make varied ones.
copy writer_roundtrip .dia .opt.bitstream .pcm

# LLVM 1.x bytecode: every twentieth module of each release and its llvc copy, and the
# files of LLVM's history.
dir="$here/corpus/bytecode_container"
mkdir -p "$dir"
count=0
for release in "$shared"/corpus-bytecode/llvm*; do
    [ -d "$release" ] || continue
    i=0
    for file in "$release"/*.bc "$release"/compressed-llvc/*.bc "$shared"/corpus-bytecode/history/*.bc*; do
        [ -f "$file" ] || continue
        i=$((i + 1))
        [ $((i % 20)) -eq 0 ] || [[ "$file" == */history/* ]] || continue
        cp "$file" "$dir/$(basename "$release")__$(basename "$file")"
        count=$((count + 1))
    done
done
echo "bytecode_container: $count seeds in $dir"
