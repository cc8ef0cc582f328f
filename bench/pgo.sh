#!/usr/bin/env bash
# Builds bcdump with profile-guided optimisation (the rustc book's "Profile-guided
# Optimization" chapter) and prints the binary's path, target/pgo/bcdump:
#
#   1. an instrumented release build (-Cprofile-generate), in target/pgo-generate;
#   2. that build run over the training set below, in every mode bench/run.sh times (the
#      typed dump, --stats, --check, --symbols, --rewrite, --dis), so that no mode is
#      laid out as cold code;
#   3. llvm-profdata (rustup's llvm-tools, of rustc's own LLVM) merging the profiles;
#   4. the release build again with -Cprofile-use, in target/pgo-use.
#
# The training set is every bitstream file of ../shared/corpus and ../shared/corpus-old
# except the benchmark files bench/run.sh times (BENCH_FILES's names, or its default
# inputs, bench/inputs.sh): the binary is not tuned to the files it is measured on. The figures beside
# LLVM's tools are about like for like: rustup's llvm-dis, the LLVM 22 one of the
# benchmarks, links a libLLVM built by Rust's CI with PGO and BOLT.
#
# Needs: cargo, rustup component llvm-tools (llvm-profdata). About two release builds'
# time, plus a minute of training.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
. bench/inputs.sh
target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/pgo"
profiles="$out/profiles"

host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  echo "pgo.sh: no $profdata: rustup component add llvm-tools" >&2
  exit 1
fi

# The files bench/run.sh measures, by name: left out of the training.
benchmarks="${BENCH_FILES:-$(default_bench_inputs)}"
excluded=" "
IFS=: read -r -a names <<<"$benchmarks"
for name in "${names[@]}"; do excluded+="$(basename "$name") "; done

training=()
for dir in ../shared/corpus ../shared/corpus-old; do
  [ -d "$dir" ] || continue
  while IFS= read -r f; do
    case "$excluded" in *" $(basename "$f") "*) continue ;; esac
    training+=("$f")
  done < <(find "$dir" -type f \( -name '*.bc' -o -name '*.dia' -o -name '*.bitstream' -o -name '*.pch' -o -name '*.pcm' -o -name '*.o' \) | sort)
done
if [ ${#training[@]} -eq 0 ]; then
  echo "pgo.sh: no training files (../shared/corpus is missing)" >&2
  exit 1
fi

echo "pgo.sh: instrumented build" >&2
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$profiles" \
  cargo build -q --release -p bcdump --target-dir "$target/pgo-generate"
# Only the training's profiles: none of an earlier run, nor any the build itself left
# (build scripts and proc macros get RUSTFLAGS too).
rm -rf "$profiles"
mkdir -p "$profiles"

echo "pgo.sh: training on ${#training[@]} files" >&2
instrumented="$target/pgo-generate/release/bcdump"
scratch="$out/scratch"
for f in "${training[@]}"; do
  # Malformed and foreign files are part of the set: their exit status is not the point.
  "$instrumented" "$f" >/dev/null 2>&1 || true
  for mode in --stats --check --symbols; do
    "$instrumented" "$mode" "$f" >/dev/null 2>&1 || true
  done
  "$instrumented" --rewrite "$f" -o "$scratch.bc" >/dev/null 2>&1 || true
  "$instrumented" --dis "$f" -o "$scratch.ll" >/dev/null 2>&1 || true
done
rm -f "$scratch.bc" "$scratch.ll"*

"$profdata" merge -o "$out/bcdump.profdata" "$profiles"

echo "pgo.sh: optimised build" >&2
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$out/bcdump.profdata" \
  cargo build -q --release -p bcdump --target-dir "$target/pgo-use"
cp "$target/pgo-use/release/bcdump" "$out/bcdump"
echo "$out/bcdump"
