#!/bin/bash
# A differential sweep of `bcdump --dis` against llvm-dis, outside CI: compiles each source
# with one compiler under each flag set and compares the two texts (all lines but
# `; ModuleID`). Prints one line per build: SAME, DIFF (with the count of diff lines),
# OURSFAIL (bcdump refused what llvm-dis read), DISFAIL (llvm-dis refused it: compare
# bcdump's answer by hand) or NOCOMPILE. Keeps the files of every build that is not SAME.
#
#   tools/dis-sweep.sh OUT CC CXX LLVM_DIS [SOURCE...]
#
#   e.g. tools/dis-sweep.sh /tmp/sweep15 clang-15 clang++-15 llvm-dis-15
#        tools/dis-sweep.sh /tmp/sweep22 "python3 -m ziglang cc" "python3 -m ziglang c++" \
#          ~/.rustup/toolchains/*/lib/rustlib/*/bin/llvm-dis
#
# The sources default to the corpus's C and C++ sources (../shared/corpus/src) and the
# fixtures of tests/data; FLAGSETS (flag sets separated by `|`) overrides the flag sets.
# bcdump is target/release/bcdump (cargo build --release -p bcdump).
set -uo pipefail
[ $# -ge 4 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
out=$1 cc=$2 cxx=$3 dis=$4
shift 4
root=$(cd "$(dirname "$0")/.." && pwd)
bcdump=$root/target/release/bcdump
[ -x "$bcdump" ] || { echo "dis-sweep: build bcdump first (cargo build --release -p bcdump)" >&2; exit 2; }
sources=("$@")
if [ ${#sources[@]} = 0 ]; then
  for f in "$root"/../shared/corpus/src/c/{atomics,callconv64,linkage,structs,switchphi,tls,varargs}.c \
    "$root"/../shared/corpus/src/cxx/classes.cpp "$root"/tests/data/producers/{features.c,exceptions.cpp} \
    "$root"/tests/data/dis/compiled/{asan_global.cpp,key_instructions.c}; do
    [ -f "$f" ] && sources+=("$f")
  done
fi
default_flags="-O0|-O2|-O3 -g|-Os -gline-tables-only|-O2 -flto=thin -g|-O1 -g -fsanitize=address"
default_flags+="|-O1 -g -fsanitize=thread|-O1 -g -fsanitize=memory"
default_flags+="|-O2 -fprofile-instr-generate -fcoverage-mapping|-O3 -ffast-math -march=haswell"
default_flags+="|-O2 -fPIC -fstack-protector-strong -fcf-protection|-O2 -g --target=aarch64-linux-gnu"
default_flags+="|-O2 -g --target=riscv64-linux-gnu|-O2 --target=wasm32-wasi|-O2 -m32 -g"
IFS='|' read -ra flag_sets <<< "${FLAGSETS:-$default_flags}"
mkdir -p "$out"
for src in "${sources[@]}"; do
  compiler=$cc
  case $src in *.cpp | *.cc) compiler=$cxx ;; esac
  for flags in "${flag_sets[@]}"; do
    tag=$(basename "$src" | tr . _)__$(echo "$flags" | tr -c 'A-Za-z0-9=\n' '_')
    base=$out/$tag
    # shellcheck disable=SC2086 # the compiler and the flags are word lists
    if ! timeout 300 $compiler $flags -c -emit-llvm "$src" -o "$base.bc" 2> "$base.cc.err"; then
      echo "NOCOMPILE $tag"
      rm -f "$base".*
      continue
    fi
    if ! timeout 300 "$dis" "$base.bc" -o "$base.ref.ll" 2> "$base.ref.err"; then
      echo "DISFAIL $tag"
      continue
    fi
    if ! timeout 300 "$bcdump" --dis "$base.bc" -o "$base.ours.ll" 2> "$base.ours.err"; then
      echo "OURSFAIL $tag $(head -c 300 "$base.ours.err")"
      continue
    fi
    if cmp -s <(tail -n +2 "$base.ref.ll") <(tail -n +2 "$base.ours.ll"); then
      echo "SAME $tag"
      rm -f "$base".*
    else
      echo "DIFF $tag $(diff <(tail -n +2 "$base.ref.ll") <(tail -n +2 "$base.ours.ll") | wc -l)"
    fi
  done
done
