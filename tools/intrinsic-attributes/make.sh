#!/bin/bash
# Makes data/intrinsic-attributes/: for each LLVM major version N given (default: 13 14
# 15 16 19, the ones Debian packages here), llvm-N.bc, the distinct attribute lists LLVM
# N's bitcode reader gives intrinsic declarations, and names.txt, which list each
# intrinsic has in each version (see merge.py). Needs llvm-N-dev and clang-N of each.
# LLVM 22's table (no llvm-22-dev here) comes from rustup's library, through the C API:
#   dump-c-api.py ~/.rustup/toolchains/*/lib/libLLVM.so.22.1-rust-* llvm-22.bc > llvm-22.tsv
#   merge.py --existing names.txt 22=llvm-22.tsv > names.txt.new
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../data/intrinsic-attributes"
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
majors=("$@")
[ ${#majors[@]} = 0 ] && majors=(13 14 15 16 19)
tables=()
for major in "${majors[@]}"; do
  config=llvm-config-$major
  clang++-"$major" -std=c++17 $("$config" --cxxflags) "$here/dump.cpp" -o "$scratch/dump-$major" \
    $("$config" --ldflags) $("$config" --libs core bitwriter)
  "$scratch/dump-$major" "$out/llvm-$major.bc" > "$scratch/llvm-$major.tsv"
  tables+=("$major=$scratch/llvm-$major.tsv")
done
python3 "$here/merge.py" "${tables[@]}" > "$out/names.txt"
ls -l "$out"
